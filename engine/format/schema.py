"""Schema validation: a compiled fast path, and jsonschema for the report.

``fastjsonschema`` compiles the schema to Python code and decides quickly that
a campaign is valid (the common case, and the one the benchmark measures).
Only when it says no does ``jsonschema`` -- the reference Draft 2020-12
implementation -- run, to give one precise, most-relevant message per problem.
The schemas use only keywords both implementations understand; a test holds
their verdicts equal over the whole test corpus.
"""

from __future__ import annotations

import difflib
import json
from functools import cache
from typing import Iterator

import fastjsonschema
import jsonschema
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource

from .diagnostics import Diagnostic, JsonPath
from .resources import SCHEMA_BASE, load_schema

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
    resources = [(SCHEMA_BASE + name, Resource.from_contents(load_schema(name))) for name in SCHEMAS]
    return Registry().with_resources(resources)


@cache
def reference_validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(load_schema(name), registry=_registry())


@cache
def fast_validator(name: str):
    handlers = {"https": lambda uri: load_schema(uri.rsplit("/", 1)[-1])}
    return fastjsonschema.compile(_inline_local_refs(load_schema(name)), handlers=handlers, use_formats=False)


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
        return f"{what} {_json(instance)} must be some of the letters N, E, S, W, in that order (\"NESW\", \"EW\", \"S\", ...)"
    if pattern == _ID_PATTERN:
        return (f"{what} {_json(instance)} is not a valid id: use lower-case letters, digits and dashes, "
                "starting with a letter or digit")
    return f"{what} {_json(instance)} does not match the pattern {pattern}"


def _describe(error: ValidationError) -> list[tuple[str, str, JsonPath]]:
    """(code, message, path) for one error: a message an author can act on, placed where to act."""
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
            near = difflib.get_close_matches(extra, known, n=1, cutoff=0.6)
            hint = f"did you mean {near[0]!r}? " if near else ""
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
        return [(code, f"{name} must be {_type_words(value)}, not {_kind_of(inst)} ({_json(inst)})", path)]
    if kw == "enum":
        return [(code, f"{name} is {_json(inst)}; use one of {', '.join(_json(o) for o in value)}", path)]
    if kw == "const":
        return [(code, f"{name} is {_json(inst)}; it must be {_json(value)}", path)]
    if kw == "pattern":
        return [(code, _pattern_message(inst, value, name), path)]
    if kw == "minimum":
        return [(code, f"{name} is {_json(inst)}; the smallest allowed is {value}", path)]
    if kw == "maximum":
        return [(code, f"{name} is {_json(inst)}; the largest allowed is {value}", path)]
    if kw == "minItems":
        return [(code, f"{name} has {len(inst)} item{'s' if len(inst) != 1 else ''}; it needs at least {value}", path)]
    if kw == "maxItems":
        return [(code, f"{name} has {len(inst)} items; the limit is {value}", path)]
    if kw == "maxProperties":
        return [(code, f"{name} has {len(inst)} entries; the limit is {value}", path)]
    if kw == "minLength":
        return [(code, f"{name} must not be empty" if value == 1 else f"{name} is shorter than {value} characters", path)]
    if kw == "maxLength":
        return [(code, f"{name} is {len(inst):,} characters long; the limit is {value:,}", path)]
    if kw == "oneOf":
        return [(code, "a goal is exactly one of {\"slay\": card}, {\"open\": card} or {\"buy\": card}, "
                 f"not {_json(inst)}", path)]
    return [(code, error.message, path)]


def _best(error: ValidationError) -> ValidationError:
    """The most relevant error: inside a oneOf, the branch's complaint about a value,
    but the oneOf itself when no branch fits the shape of the object."""
    best = best_match([error])
    if error.validator == "oneOf" and tuple(best.absolute_path) == tuple(error.absolute_path):
        return error
    return best


def schema_diagnostics(data: object, name: str) -> Iterator[Diagnostic]:
    """One diagnostic per problem: the most relevant error at each place, in document order."""
    validator = reference_validator(name)
    groups: dict[JsonPath, list[ValidationError]] = {}
    for error in validator.iter_errors(data):
        groups.setdefault(tuple(error.absolute_path), []).append(error)
    seen: set[JsonPath] = set()
    for group in groups.values():
        for code, message, path in _describe(_best(best_match(group))):
            if path not in seen:
                seen.add(path)
                yield Diagnostic(code, message, path=path)
