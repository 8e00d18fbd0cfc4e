"""Schema validation: a compiled fast path, and jsonschema for the report.

``fastjsonschema`` compiles the schema to Python code and decides quickly that
a campaign is valid (the common case, and the one the benchmark measures).
Only when it says no does ``jsonschema`` -- the reference Draft 2020-12
implementation -- run, to give one precise, most-relevant message per problem.
The schemas use only keywords both implementations understand; a test holds
their verdicts equal over the whole test corpus.

Start-up: ``jsonschema`` (a tenth of a second to import) is imported only when a
file is invalid, and the compiled validator is kept between processes in the
user's cache directory (:func:`cache_dir`) as a marshalled code object, keyed by
the schemas, fastjsonschema's version and Python's: compiling it costs about
0.3 s, loading it under a millisecond.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import re
import sys
from functools import cache
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

import fastjsonschema

from ..words import counted, nearest
from .diagnostics import Diagnostic, JsonPath
from .resources import SCHEMA_BASE, load_schema, schema_path

if TYPE_CHECKING:  # imported for real only when a file is invalid (see the module's docstring)
    import jsonschema
    from jsonschema.exceptions import ValidationError
    from referencing import Registry

SCHEMAS = ("campaign.schema.json", "cards.schema.json")

# Schema keyword -> diagnostic code.
KEYWORD_CODES = {
    "type": "CR101",
    "required": "CR102",
    "additionalProperties": "CR103",
    "enum": "CR104",
    "const": "CR104",
    "pattern": "CR105",
    "minimum": "CR106",
    "maximum": "CR106",
    "minItems": "CR107",
    "maxItems": "CR107",
    "minLength": "CR108",
    "maxLength": "CR108",
    "maxProperties": "CR107",
    "propertyNames": "CR109",
    "oneOf": "CR110",
}


@cache
def _registry() -> Registry:
    from referencing import Registry, Resource

    resources = [(SCHEMA_BASE + name, Resource.from_contents(load_schema(name))) for name in SCHEMAS]
    return Registry().with_resources(resources)


@cache
def reference_validator(name: str) -> jsonschema.Draft202012Validator:
    """The reference validator of schema ``name``, its walk bounded by the schema's own limits: a list
    longer than its ``maxItems`` has only that many items visited, an object with more entries than its
    ``maxProperties`` only that many (the limit's own error still counts them all). Without the bound a
    3 MB file holding a million scripted rolls (64 allowed) took 40 s to report, the items' checks
    visiting every one of them after the length had already failed."""
    import jsonschema

    base = jsonschema.Draft202012Validator
    bounded = {keyword: _bounded(base.VALIDATORS[keyword], "maxItems", list)
               for keyword in ("items", "prefixItems")}  # not "contains": with minContains a cut list may lack a match
    bounded |= {keyword: _bounded(base.VALIDATORS[keyword], "maxProperties", dict)
                for keyword in ("properties", "patternProperties", "additionalProperties", "propertyNames")}
    validator = jsonschema.validators.extend(base, validators=bounded)
    return validator(load_schema(name), registry=_registry())


def _bounded(keyword: Callable, limit: str, kind: type) -> Callable:
    """``keyword``'s check of a list (an object) over its first ``schema[limit]`` items (entries) only,
    when the schema beside it sets that limit and the instance holds more than that (the limit's own
    error reports it)."""

    def check(validator: jsonschema.Validator, value: object, instance: object, schema: dict) -> Iterator[ValidationError]:
        most = schema.get(limit)
        if isinstance(instance, kind) and isinstance(most, int) and len(instance) > most:
            instance = instance[:most] if kind is list else dict(islice(instance.items(), most))
        return keyword(validator, value, instance, schema)

    return check


def cache_dir() -> Path | None:
    """Where compiled validators are kept between processes: ``$CARDROGUE_CACHE``, else
    ``$XDG_CACHE_HOME/cardrogue`` or ``~/.cache/cardrogue`` (None: no home to keep them in)."""
    explicit = os.environ.get("CARDROGUE_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME")
    if base:
        return Path(base) / "cardrogue"
    try:
        return Path.home() / ".cache" / "cardrogue"
    except RuntimeError:  # no home directory can be determined
        return None


@cache
def fast_validator(name: str):
    """The compiled validator of schema ``name``: from the cache when it holds one for these schemas,
    this fastjsonschema and this Python; else compiled now and kept (a cache that cannot be read or
    written only costs the compilation)."""
    return _compiled(name.removesuffix(".json"), lambda: _inline_local_refs(load_schema(name)))


@cache
def campaign_validators() -> tuple[Callable[[object], object], Callable[[object], object]]:
    """The campaign schema's compiled validator in two parts: the document with anything in the
    levels' cell lists, and one cell. A document follows the schema exactly when it passes the
    first and each of its cells the second (a cell's schema does not depend on where it stands),
    so the loader checks the cells while it builds them (most by :data:`PLAIN_CELL_KEYS`), and the first
    part's loop never walks them."""
    return (_compiled("campaign.schema.document", lambda: _split_cells()[0]),
            _compiled("campaign.schema.cell", lambda: _split_cells()[1]))


def _split_cells() -> tuple[dict, dict]:
    """The campaign schema without the cells' schema (any value is a cell), and the cell's schema."""
    document = _inline_local_refs(load_schema("campaign.schema.json"))
    cells = document["properties"]["levels"]["items"]["properties"]["cells"]
    cell = dict(cells["items"], **{"$schema": document["$schema"]})
    cells["items"] = True
    return document, cell


def _compiled(key: str, schema: Callable[[], dict]):
    """The root function of ``schema()`` compiled by fastjsonschema, kept in the cache folder as
    ``key-<fingerprint>.marshal`` (read back without calling ``schema``)."""
    folder = cache_dir()
    path = folder / f"{key}-{_fingerprint()}.marshal" if folder is not None else None
    code = None
    if path is not None:
        try:
            code = marshal.loads(path.read_bytes())
        except (OSError, ValueError, EOFError, TypeError):  # absent, unreadable or damaged: compile again
            code = None
    if code is None:
        handlers = {"https": lambda uri: load_schema(uri.rsplit("/", 1)[-1])}
        source = fastjsonschema.compile_to_code(schema(), handlers=handlers, use_formats=False)
        # The root function, named after the schema's $id, is the first one generated.
        root = re.search(r"^def (\w+)\(data", source, re.MULTILINE)
        source += f"\n_root = {root.group(1) if root else 'validate'}\n"
        code = compile(source, f"<compiled {key}>", "exec")
        if path is not None:
            _keep(path, marshal.dumps(code))
    namespace: dict = {}
    exec(code, namespace)  # generated by fastjsonschema from our own schema (or our cache of it)
    return namespace["_root"]


def _fingerprint() -> str:
    """What a compiled validator depends on: the schema files as they are, this module (whose
    :func:`_inline_local_refs` and :func:`_split_cells` rewrite them before compiling),
    fastjsonschema's version and Python's. Read from the bytes, without parsing or rewriting
    anything: the cost of a start. (Not the functions' marshalled code: marshal's output varies
    with the reference counts of their constants.)"""
    digest = hashlib.sha256()
    parts = [schema_path(n).read_bytes() for n in SCHEMAS]
    parts += [Path(__file__).read_bytes(), fastjsonschema.VERSION.encode(),
              sys.implementation.cache_tag.encode(), sys.version.encode()]
    for part in parts:
        digest.update(len(part).to_bytes(8, "little"))
        digest.update(part)
    return digest.hexdigest()[:24]


def _keep(path: Path, data: bytes) -> None:
    from ..records.atomic import atomic_write

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, data)
    except OSError:
        pass  # a read-only or full disk: the next process compiles again


def _inline_local_refs(schema: dict) -> dict:
    """The schema with each ``{"$ref": "#/$defs/x"}`` replaced by ``x`` itself.

    Same verdicts (our schemas have no recursive definitions), but fastjsonschema then
    generates one loop instead of a function call per cell, which formats the cell's name
    on every call: a third of the time of a big campaign's validation.
    """
    defs = schema.get("$defs", {})

    def inline(node):
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/") and len(node) == 1:
                return inline(defs[ref.removeprefix("#/$defs/")])
            return {k: inline(v) for k, v in node.items()}
        if isinstance(node, list):
            return [inline(v) for v in node]
        return node

    return inline(schema)


def is_valid(data: object, name: str) -> bool:
    """Whether ``data`` follows the schema, decided by the compiled validator."""
    try:
        fast_validator(name)(data)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


_TYPE_WORDS = {
    "object": "an object { ... }",
    "array": "a list [ ... ]",
    "string": "a string in double quotes",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}
# Patterns end in "(?![\s\S])", not "$": Python's "$" also matches before a final
# newline, ECMA-262's does not; this spelling means the same to every validator.
_ID_PATTERN = r"^[a-z0-9][a-z0-9-]*(?![\s\S])"
_PATHS_PATTERN = r"^N?E?S?W?(?![\s\S])"
_ID_RE = re.compile(_ID_PATTERN)

# The cells the loader's hot loop accepts without the compiled cell validator (every other cell goes
# through it): these keys only ("at" and "card" among them), "at" two whole numbers from 0 to 255,
# "card" an id (:func:`is_schema_id`), "paths" one of these strings, "face" "up" or "down". A subset
# of the cell's schema, written out for speed; tests hold it to the reference validator.
PLAIN_CELL_KEYS = frozenset({"at", "card", "paths", "face"})
# The properties each object of a campaign may have (the schema's "properties"; any other is a CR103), by what the
# model holds it as: a draft keeps the others as written (:data:`..model.campaign.Unknown`). tests/test_schema.py
# holds these to the schema.
KNOWN_KEYS: dict[str, frozenset[str]] = {
    "campaign": frozenset({"$schema", "format", "id", "title", "author", "description", "kind", "rules", "seed",
                           "allow_ladder_cycles", "par", "hero", "potions", "story", "cards", "levels"}),
    "par": frozenset({"turns", "health"}),
    "hero": frozenset({"character", "items", "equipped"}),
    "level": frozenset({"id", "title", "story", "width", "height", "goals", "hero", "cells"}),
    "level hero": frozenset({"at", "health", "items", "equipped"}),
    "cell": frozenset({"at", "card", "paths", "face", "id", "inscription", "rolls", "to", "exit", "stock", "contents"}),
}
PATHS_VALUES = frozenset("".join(d for d, bit in zip("NESW", (m & 8, m & 4, m & 2, m & 1)) if bit) for m in range(16))
ID_MAX_LENGTH = 64


def is_schema_id(value: str) -> bool:
    """Whether the string ``value`` is an id as the schemas spell one (pattern and length)."""
    return len(value) <= ID_MAX_LENGTH and _ID_RE.search(value) is not None


def _json(value: object, limit: int = 40) -> str:
    """A value as the author wrote it (JSON spelling), shortened for a message."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _kind_of(value: object) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "null"


def _name(path: JsonPath) -> str:
    """What an author calls the value at ``path``: "width", "items[2]", "the campaign"."""
    if not path:
        return "the campaign"
    last = path[-1]
    if isinstance(last, int):
        return f"{_name(path[:-1])}[{last}]" if len(path) > 1 else f"[{last}]"
    return repr(last) if not last.isidentifier() else last


def _type_words(expected: object) -> str:
    names = expected if isinstance(expected, list) else [expected]
    return " or ".join(_TYPE_WORDS.get(n, str(n)) for n in names)


def _pattern_message(instance: str, pattern: str, what: str) -> str:
    if pattern == _PATHS_PATTERN:
        letters = instance.upper()
        if letters and len(set(letters)) == len(letters) and set(letters) <= set("NESW"):  # "WS", "ew": the order, the case
            return (f"{what} {_json(instance)} must be some of the letters N, E, S, W, in that order: "
                    f"write {_json(''.join(c for c in 'NESW' if c in letters))}")
        return f"{what} {_json(instance)} must be some of the letters N, E, S, W, in that order (\"NESW\", \"EW\", \"S\", ...)"
    if pattern == _ID_PATTERN:
        meant = re.sub(r"[\s_]+", "-", instance.strip().lower())  # "Goblin", "Spike Trap", "spike_trap"
        guess = f"; did you mean {_json(meant)}?" if _ID_RE.match(meant) and len(meant) <= 64 else ""  # (ids' limit)
        return (f"{what} {_json(instance)} is not a valid id: use lower-case letters, digits and dashes, "
                f"starting with a letter or digit{guess}")
    return f"{what} {_json(instance)} does not match the pattern {pattern}"


MAX_GUESSES = 1000
"""The unknown keys of one file given a "did you mean" (the first met; the others are told the keys allowed,
as all are): a guess costs up to 50 µs, and a file of 300,000 keys like known ones ("title1", "title2", ...)
is no file of typos."""


def _describe(error: ValidationError, guesses: list[int]) -> list[tuple[str, str, JsonPath]]:
    """(code, message, path) for one error: a message an author can act on, placed where to act.
    ``guesses`` holds the "did you mean"s left for the file (:data:`MAX_GUESSES`)."""
    path: JsonPath = tuple(error.absolute_path)
    kw = error.validator
    value = error.validator_value
    inst = error.instance
    name = _name(path)
    if "propertyNames" in error.relative_schema_path:
        # The instance is the offending key; point at the key itself.
        key_path = path + (inst,)
        if kw == "maxLength":
            return [("CR109", f"the id {_json(inst)} is {len(inst)} characters long; the limit is {value}", key_path)]
        return [("CR109", _pattern_message(inst, value, "the key") if kw == "pattern"
                 else f"the key {_json(inst)} is not allowed here", key_path)]
    code = KEYWORD_CODES.get(kw, "CR100")
    if kw == "additionalProperties" and isinstance(inst, dict):
        known = sorted(error.schema.get("properties", {}))
        out = []
        for extra in sorted(set(inst) - set(known)):
            near = None
            if guesses[0] > 0:
                guesses[0] -= 1
                near = nearest(extra, known, cutoff=0.6)
            hint = f"did you mean {near!r}? " if near else ""
            out.append((code, f"unknown property {extra!r} in {name}: {hint}expected one of: {', '.join(known)}",
                        path + (extra,)))
        if out:
            return out
    if kw == "required" and isinstance(inst, dict):
        missing = [k for k in value if k not in inst]
        words = ", ".join(repr(k) for k in missing)
        plural = "properties" if len(missing) > 1 else "property"
        return [(code, f"{name} is missing the required {plural} {words}: add {'them' if len(missing) > 1 else 'it'}", path)]
    if kw == "type":
        shown = "" if inst is None else f" ({_json(inst)})"  # null is its own kind: "not null", not "not null (null)"
        return [(code, f"{name} must be {_type_words(value)}, not {_kind_of(inst)}{shown}{_as_list(inst, value)}", path)]
    if kw == "enum":
        # a misspelt choice ("heal", "upp", "enemey") is told the one meant, after them all
        meant = nearest(inst.lower(), [o for o in value if isinstance(o, str)], 0.6) if isinstance(inst, str) else None
        also = f"; did you mean {_json(meant)}?" if meant is not None and meant != inst else ""
        return [(code, f"{name} is {_json(inst)}; use one of {', '.join(_json(o) for o in value)}{also}", path)]
    if kw == "const":
        return [(code, f"{name} is {_json(inst)}; it must be {_json(value)}", path)]
    if kw == "pattern":
        return [(code, _pattern_message(inst, value, name), path)]
    if kw == "minimum":
        return [(code, f"{name} is {_json(inst)}; the smallest allowed is {value}", path)]
    if kw == "maximum":
        return [(code, f"{name} is {_json(inst)}; the largest allowed is {value}", path)]
    if kw == "minItems":
        return [(code, f"{name} has {counted(len(inst), 'item')}; it needs at least {value}", path)]
    if kw == "maxItems":
        return [(code, f"{name} has {counted(len(inst), 'item')}; the limit is {value}", path)]
    if kw == "maxProperties":
        return [(code, f"{name} has {counted(len(inst), 'entry', 'entries')}; the limit is {value}", path)]
    if kw == "minLength":
        return [(code, f"{name} must not be empty" if value == 1 else f"{name} is shorter than {value} characters", path)]
    if kw == "maxLength":
        return [(code, f"{name} is {len(inst):,} characters long; the limit is {value:,}", path)]
    if kw == "oneOf":
        return [(code, "a goal is exactly one of {\"slay\": card}, {\"open\": card} or {\"buy\": card}, "
                 f"not {_json(inst)}{_goal_meant(inst)}", path)]
    return [(code, error.message, path)]


def _as_list(inst: object, expected: object) -> str:
    """How to write a list typed as text (rolls "6 6", stock "key gold"): ``; write [6, 6]``."""
    if expected != "array" or not isinstance(inst, str):
        return ""
    words = [w for w in re.split(r"[\s,]+", inst.strip()) if w]
    if not 1 <= len(words) <= 16:
        return ""
    items = [int(w) if w.isdecimal() and len(w) <= 3 else w for w in words]
    return f"; write {_json(items, limit=80)}"


GOAL_VERBS = ("slay", "open", "buy")


def _goal_meant(goal: object) -> str:
    """How to mend a goal the schema refuses: the verb meant, when one misspelt verb names a card
    (``{"slayy": "golem"}``: ``; did you mean {"slay": "golem"}?``); two verbs in one goal are two goals."""
    if not isinstance(goal, dict):
        return ""
    if len(goal) == 1:
        (verb, card), = goal.items()
        meant = nearest(verb.lower(), GOAL_VERBS, 0.5) if isinstance(card, str) else None
        return f"; did you mean {_json({meant: card})}?" if meant else ""
    if len(goal) > 1 and set(goal) <= set(GOAL_VERBS):
        return ": write each verb as a goal of its own, " + ", ".join(_json({k: v}) for k, v in goal.items())
    return ""


def _best(error: ValidationError) -> ValidationError:
    """The most relevant error: inside a oneOf, the branch's complaint about a value,
    but the oneOf itself when no branch fits the shape of the object."""
    from jsonschema.exceptions import best_match

    best = best_match([error])
    if error.validator == "oneOf" and tuple(best.absolute_path) == tuple(error.absolute_path):
        return error
    return best


def is_plain_cell(cell: object) -> bool:
    """Whether ``cell`` is one the loader's hot loop accepts without the cell validator: :data:`PLAIN_CELL_KEYS`
    only, their values plainly following the cell's schema (the loader's own test spelled as one function;
    tests hold the two, and the schema, equal)."""
    if type(cell) is not dict or not cell.keys() <= PLAIN_CELL_KEYS:
        return False
    at, card, paths, face = cell.get("at"), cell.get("card"), cell.get("paths", ""), cell.get("face", "down")
    return (type(at) is list and len(at) == 2 and type(at[0]) is int and type(at[1]) is int
            and 0 <= at[0] <= 255 and 0 <= at[1] <= 255 and type(card) is str and is_schema_id(card)
            and type(paths) is str and paths in PATHS_VALUES and (face == "down" or face == "up"))


_CELL_REF = {"$ref": "#/$defs/cell"}  # a level's cells' items in campaign.schema.json


@cache
def _report_validator(name: str) -> jsonschema.Draft202012Validator:
    """:func:`reference_validator`, whose walk of a level's cells passes over the plain ones (:func:`is_plain_cell`,
    valid for certain): a 15 MB campaign with one wrong cell among 196,000 took 39 s of CPU to report, the
    reference visiting every cell, where its load when valid takes 1.7 s."""
    reference = reference_validator(name)
    items = type(reference).VALIDATORS["items"]

    def cells_or_items(validator, value, instance, schema) -> Iterator[ValidationError]:
        if value != _CELL_REF or not isinstance(instance, list):
            return items(validator, value, instance, schema)
        most = schema.get("maxItems", len(instance))  # as the reference's own bound (_bounded)
        return (error for index, cell in enumerate(islice(instance, most)) if not is_plain_cell(cell)
                for error in validator.descend(cell, value, path=index))

    import jsonschema

    return jsonschema.validators.extend(type(reference), validators={"items": cells_or_items})(
        reference.schema, registry=_registry())


def schema_diagnostics(data: object, name: str) -> Iterator[Diagnostic]:
    """One diagnostic per problem: the most relevant error at each place, in document order."""
    from jsonschema.exceptions import best_match

    validator = _report_validator(name)
    groups: dict[JsonPath, list[ValidationError]] = {}
    for error in validator.iter_errors(data):
        groups.setdefault(tuple(error.absolute_path), []).append(error)
    seen: set[JsonPath] = set()
    guesses = [MAX_GUESSES]
    for group in groups.values():
        for code, message, path in _describe(_best(best_match(group)), guesses):
            if path not in seen:
                seen.add(path)
                yield Diagnostic(code, message, path=path)
