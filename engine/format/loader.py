"""The loader: campaign file -> immutable :class:`~.model.Campaign`, or precise diagnostics.

Stages, each stopping the load when it finds an error:

1. limits and decoding (file size; UTF-8 without BOM; no lone surrogates),
2. JSON syntax (the C parser; duplicate keys, NaN/Infinity and numbers of
   thousands of digits are errors; nesting deeper than ``MAX_DEPTH``),
3. the JSON Schema (``schema/campaign.schema.json``), which also holds the
   limits on grid size (256x256), text lengths and list lengths,
4. what the schema cannot express (unknown cards, duplicate ids, cells outside
   the grid or sharing a place, ladders to missing levels, starting tiles, ...).

Locations (line and column) are found only when there is something to report,
so a clean file costs one parse and one compiled validation (the cells' while the
model is built: :func:`_valid_cells`). No input makes the loader raise
(tests/test_loader.py fuzzes it), and nothing here writes a file.
"""

from __future__ import annotations

import errno
import gc
import json
import math
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Iterable, Iterator

from fastjsonschema import JsonSchemaException

from ..errors import CampaignHasErrors, UnusableInput
from ..model.abilities import AbilityError
from ..model.campaign import Campaign, Cell, Goal, Hero, Level, LevelHero, Par, Unknown, plain_cell
from ..reading import other_encoding, read_limited
from ..words import counted
from .canonical import content_hash, default_cell_id
from .catalog import card_from_dict, default_catalog
from .checks import check_draft
from .checks.cards import card_entry_problems
from .checks.text import UnsafeText, document_text_problems, unsafe_texts
from .diagnostics import Diagnostic, JsonPath, Severity, has_errors
from .files import json_meant
from .positions import STRING, LineIndex, PositionIndex, max_depth
from .schema import KNOWN_KEYS, PATHS_VALUES, PLAIN_CELL_KEYS, campaign_validators, is_schema_id, schema_diagnostics
from .shape import has_campaign_shape

MAX_FILE_BYTES = 16 * 1024 * 1024
MAX_DEPTH = 32


@dataclass
class LoadResult:
    """What loading a file gave: the model (a draft when it has errors), and every diagnostic."""

    file: str
    draft: Campaign | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    text: str = ""
    data: Any = None
    # The texts the hub refuses (CR228's findings, :func:`.checks.text.unsafe_texts`), once the
    # semantic stage walked the file; None when an earlier stage stopped the load.
    unsafe: list[UnsafeText] | None = None

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    @property
    def campaign(self) -> Campaign | None:
        """The campaign when it has no errors: only such a campaign is played, solved or verified."""
        return None if self.draft is None or self.errors else self.draft

    @property
    def ok(self) -> bool:
        return self.campaign is not None


class DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def pairs_no_duplicates(pairs: list[tuple[str, Any]]) -> dict:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKey(key)
            seen.add(key)
    return result


class _Locator:
    """Turns JSON paths into line and column, building the index on first use."""

    def __init__(self, file: str, text: str) -> None:
        self.file = file
        self.text = text
        self._index: PositionIndex | None = None

    def place(self, diag: Diagnostic, *, key: bool = False) -> Diagnostic:
        if self._index is None:
            self._index = PositionIndex(self.text)
        line, col = self._index.locate(diag.path, key=key)
        return _replace(diag, file=self.file, line=line, column=col)

    def place_all(self, diags: Iterable[Diagnostic], key: Callable[[Diagnostic], bool] = lambda d: False) -> list[Diagnostic]:
        """Each of ``diags`` placed, the text indexed only as far as their paths (an index of its own: a
        problem early in a big file is placed without walking the rest)."""
        diags = list(diags)
        if not diags:
            return []
        index = PositionIndex(self.text, wanted=[d.path for d in diags])
        return [_replace(d, file=self.file, line=(where := index.locate(d.path, key=key(d)))[0], column=where[1])
                for d in diags]


def _replace(diag: Diagnostic, **changes: Any) -> Diagnostic:
    from dataclasses import replace

    return replace(diag, **changes)


def load_campaign(path: str | Path) -> LoadResult:
    """Load and check one campaign file (stages 1 to 4)."""
    name = str(path)
    try:
        # At most one byte past the limit, and only from a regular file: a FIFO or a device
        # is refused at once, and a huge file is not read whole to be refused.
        raw = read_limited(path, MAX_FILE_BYTES)
    except OSError as exc:
        meant = json_meant(path) if exc.errno == errno.ENOENT else ""
        return LoadResult(name, None, [Diagnostic(
            "CR006", f"cannot read the file: {exc.strerror or exc}{meant}", file=name, line=1, column=1)])
    except ValueError as exc:  # e.g. a NUL byte in the path
        return LoadResult(name, None, [Diagnostic("CR006", f"cannot read the file: {exc}", file=name, line=1, column=1)])
    return load_campaign_bytes(raw, name)


def _too_large(name: str, size: int, exact: bool = True) -> LoadResult:
    # A file read only up to the limit (not exact) is said to be over it, not "more than N; the limit is N".
    amount = f"is {size:,} bytes; the limit is {MAX_FILE_BYTES:,}" if exact else \
        f"is larger than the limit of {MAX_FILE_BYTES:,} bytes"
    return LoadResult(name, None, [Diagnostic(
        "CR003", f"the file {amount}: split the campaign or shorten its text",
        file=name, line=1, column=1)])


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off for the block, then as it was.

    A load builds hundreds of thousands of small objects and no cycles to collect, yet each few
    hundred allocations start a collection that walks them: a tenth of a big campaign's check.
    On the way out, what the block made joins the oldest generation (``freeze`` then ``unfreeze``,
    two list splices), so the first collection after it does not walk it all as young objects.
    Nested and concurrent blocks are safe: only a block that found the collector on turns it back on.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.unfreeze()
        gc.enable()


def load_campaign_bytes(raw: bytes, name: str = "<memory>") -> LoadResult:
    """Load and check a campaign from the bytes of a file."""
    if len(raw) > MAX_FILE_BYTES:
        return _too_large(name, len(raw), exact=False)
    if raw.startswith(b"\xef\xbb\xbf"):
        return LoadResult(name, None, [_bom(name)])
    if encoding := other_encoding(raw):
        return LoadResult(name, None, [Diagnostic(
            "CR004", f"the file is {encoding}, not UTF-8 (it begins with a {encoding} byte order mark); save it as "
                     "UTF-8", file=name, line=1, column=1)])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = raw[: exc.start].decode("utf-8", errors="replace")
        line, col = LineIndex(good).position(len(good))
        return LoadResult(name, None, [Diagnostic(
            "CR004", f"the file is not UTF-8: byte 0x{raw[exc.start]:02x} cannot be decoded; save the file as UTF-8",
            file=name, line=line, column=col)])
    return _load_text(text, name)


def load_campaign_text(text: str, name: str = "<memory>") -> LoadResult:
    """Load and check a campaign from its text."""
    if len(text) > MAX_FILE_BYTES:
        return _too_large(name, len(text.encode("utf-8", "surrogatepass")))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:  # a str from memory can hold what no file can
        line, col = LineIndex(text).position(exc.start)
        return LoadResult(name, None, [Diagnostic("CR004", SURROGATE, file=name, line=line, column=col)], text)
    return _load_text(text, name)


def _load_text(text: str, name: str) -> LoadResult:
    """Stages 2 to 4, for a text known to be encodable."""
    with collector_paused():
        return _load_known_text(text, name)


def _load_known_text(text: str, name: str) -> LoadResult:
    if text.startswith("\ufeff"):
        return LoadResult(name, None, [_bom(name)], text)
    quick = quick_load(text, name)
    if quick is not None:
        return quick
    try:
        data = json.loads(text, object_pairs_hook=pairs_no_duplicates,
                          parse_constant=_refuse_constant, parse_float=_parse_float)
    except json.JSONDecodeError as exc:
        return LoadResult(name, None, [_syntax_error(exc, name, text)], text)
    except DuplicateKey as exc:
        return LoadResult(name, None, [_duplicate_key(exc.key, name, text)], text)
    except _NotJson as exc:
        return LoadResult(name, None, [_not_json(exc, name, text)], text)
    except ValueError:  # an integer of thousands of digits (int max_str_digits)
        return LoadResult(name, None, [_not_json(_NotJson("number"), name, text)], text)
    except RecursionError:
        return LoadResult(name, None, [_too_deep(name, text)], text)

    locator = _Locator(name, text)
    # A lone surrogate can only come from a \u escape; it is text no file can hold.
    if SURROGATE_ESCAPE.search(text):
        bad = lone_surrogate(data)
        if bad is not None:
            diag = Diagnostic("CR004", SURROGATE, path=bad)
            return LoadResult(name, None, [locator.place(diag)], text, data)

    draft = valid_draft(data)
    if draft is None:
        depth, _ = max_depth(text)
        if depth > MAX_DEPTH:
            return LoadResult(name, None, [_too_deep(name, text)], text, data)
        if isinstance(data, dict) and "actions" in data and "levels" not in data:
            # a replay given where its campaign belongs: say so, not which of its keys a campaign lacks
            return LoadResult(name, None, [Diagnostic(
                "CR101", 'not a campaign: this looks like a replay (it has "actions" and no "levels"); give the '
                "campaign file (`cardrogue verify` checks a replay)", file=name, line=1, column=1)], text, data)
        diags = sorted(locator.place_all(schema_diagnostics(data, "campaign.schema.json"),
                                         key=lambda d: d.code in ("CR103", "CR109")), key=lambda d: (d.line, d.column))
        if diags:
            draft = build_draft(data) if has_campaign_shape(data, diags) else None
            return LoadResult(name, draft, diags, text, data)
        # The fast validator refused what the reference accepts: the reference decides.
        draft = build_draft(data)

    return _checked(name, draft, data, text)


def quick_load(text: str, name: str) -> LoadResult | None:
    """The load of a valid campaign without duplicate keys, parsed without ``object_pairs_hook`` (a
    Python call per object: a fifth of a big file's parse); None when it cannot be sure of that
    answer, and :func:`_load_known_text` then loads the text the careful way, from the start.

    Duplicate keys are ruled out by counting. Each pair of the text has one ``:`` outside the
    strings, so ``text.count(":")`` is the pairs of the text plus the colons inside its strings.
    Without a ``\\u`` escape (which could write a colon, or a lone surrogate, without a ``:``
    character), the colons inside the strings kept in the parsed document are at most those of the
    text; so if the colons counted, less those found in kept strings, equal the pairs kept, no pair
    was lost to a duplicate (a duplicate loses a pair, and its dropped value any pairs and colons
    of its own). Colons are looked for outside the cells only (a valid cell holds one only in an
    inscription); when the counts differ, the careful parse decides whether a key is repeated. Any
    parse error, a repeated key or an invalid document (its report needs the careful parse's verdict
    on duplicates first) is sent the careful way.
    """
    if "\\u" in text:
        return None
    try:
        data = json.loads(text, parse_constant=_refuse_constant, parse_float=_parse_float)
    except (ValueError, RecursionError):  # every error the careful parse reports in its own order
        return None
    draft = valid_draft(data)
    if draft is None:
        return None
    pairs, colons = _pairs_and_colons({k: v for k, v in data.items() if k != "levels"})
    pairs += 1  # "levels"
    for level in data["levels"]:
        level_pairs, level_colons = _pairs_and_colons({k: v for k, v in level.items() if k != "cells"})
        pairs += level_pairs + 1 + sum(map(len, level["cells"]))
        colons += level_colons
    if text.count(":") - colons != pairs:
        try:
            json.loads(text, object_pairs_hook=pairs_no_duplicates, parse_constant=_refuse_constant,
                       parse_float=_parse_float)
        except DuplicateKey:
            return None
    return _checked(name, draft, data, text)


def _checked(name: str, draft: Campaign, data: Any, text: str) -> LoadResult:
    """The semantic rules on the model, then the text rule (CR228) on the file as parsed: every key and
    string, as the hub walks it (:mod:`.checks.text`); the walk's findings kept for the hub."""
    unsafe = unsafe_texts(data, text)
    locator = _Locator(name, text)
    return LoadResult(name, draft, locator.place_all(check_draft(draft) + document_text_problems(data, unsafe)),
                      text, data, unsafe)


def _pairs_and_colons(value: Any) -> tuple[int, int]:
    """The pairs of every object in ``value``, and the colons in its strings (keys included)."""
    pairs = colons = 0
    stack = [value]
    while stack:
        item = stack.pop()
        if type(item) is dict:
            pairs += len(item)
            for key, inner in item.items():
                colons += key.count(":")
                stack.append(inner)
        elif type(item) is list:
            stack.extend(item)
        elif type(item) is str:
            colons += item.count(":")
    return pairs, colons


SURROGATE = ("the text holds a lone UTF-16 surrogate (\\ud800 to \\udfff), which is not a character "
              "and cannot be saved as UTF-8: remove it or write the character itself")


SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class _NotJson(ValueError):
    """A token Python's parser accepts but JSON does not (NaN, Infinity), or cannot hold."""


def _refuse_constant(token: str) -> Any:
    raise _NotJson(token)


def _parse_float(token: str) -> int | float:
    # JSON Schema counts 3.0 as an integer; the model holds it as one.
    value = float(token)
    if math.isinf(value):  # 1e999: no JSON can write it back (a draft saved would hold Infinity)
        raise _NotJson(token)
    return int(value) if value.is_integer() else value


def _bom(name: str) -> Diagnostic:
    return Diagnostic("CR004", "the file starts with a byte order mark: save it as UTF-8 without BOM",
                      file=name, line=1, column=1)


def lone_surrogate(data: Any) -> JsonPath | None:
    """The path of the first key or string holding a lone surrogate, if any."""
    stack: list[tuple[JsonPath, Any]] = [((), data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, str):
            if not _encodable(value):
                return path
        elif isinstance(value, dict):
            for key, item in value.items():
                if not _encodable(key):
                    return path + (key,)
                stack.append((path + (key,), item))
        elif isinstance(value, list):
            stack.extend((path + (i,), item) for i, item in enumerate(value))
    return None


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


# JSONDecodeError's messages, in words that say what to do ({what}: "a campaign", "a replay"; {key}: a key it has).
_SYNTAX_HINTS = {
    "Expecting property name enclosed in double quotes": "expected a property name in double quotes, like \"{key}\"",
    "Expecting ',' delimiter": "expected ',' before this: is a comma missing after the previous item?",
    "Expecting ':' delimiter": "expected ':' after the property name",
    "Expecting value": "expected a value: a string, a number, an object, an array, true, false or null",
    "Extra data": "unexpected text after the end of the JSON document: {what} is one object {{ ... }}",
    "Invalid \\escape": "invalid escape in a string: write a backslash as \\\\",
    "Invalid control character at": "a line break or control character inside a string: write it as \\n (or \\t)",
    "Unterminated string starting at": "this string has no closing double quote",
    "Unexpected UTF-8 BOM (decode using utf-8-sig)": "{source} starts with a byte order mark: save it as UTF-8 without BOM",
}


def json_syntax_error(exc: json.JSONDecodeError, text: str, what: str = "a campaign", key: str = "title",
                      source: str = "the file") -> tuple[int, int, str]:
    """Where JSON text stops being JSON (line and column, from 1) and why, in words that say what to
    do -- the words of CR001, for ``what`` (a campaign, a replay) with ``key`` one of its keys, read
    from ``source`` (the file, a request's body)."""
    pos = exc.pos
    before = text[:pos].rstrip()
    if not text.strip():
        message = f"{source} is empty: {what} is a JSON object {{ ... }}"
        pos = 0
    elif before.endswith(",") and text[pos:pos + 1] in ("}", "]"):
        message = f"trailing comma before '{text[pos]}': remove it (JSON allows no comma after the last item)"
        pos = len(before) - 1
    elif exc.msg == "Invalid control character at" and text[pos] in "\r\n":
        message = "this string runs to the end of the line: is its closing double quote missing?"
        pos = _string_start(text, pos)
    elif text.startswith(("//", "/*", "#"), pos):
        message = "a comment, and JSON has none: remove it"
    elif not text[pos:].strip() and exc.msg != "Unterminated string starting at":
        message = f"{source} ends before the JSON is complete: is it truncated, or a '}}' or ']' missing?"
    else:
        message = _SYNTAX_HINTS.get(exc.msg, exc.msg).format(what=what, key=key, source=source)
    line, col = LineIndex(text).position(pos)
    return line, col, message


def _syntax_error(exc: json.JSONDecodeError, name: str, text: str) -> Diagnostic:
    line, col, message = json_syntax_error(exc, text)
    return Diagnostic("CR001", f"invalid JSON: {message}", file=name, line=line, column=col)


def _string_start(text: str, pos: int) -> int:
    """The opening quote of the string that is open at ``pos`` (strings never span lines)."""
    start = text.rfind("\n", 0, pos) + 1
    opening, i = start, start
    inside = False
    while i < pos:
        ch = text[i]
        if inside and ch == "\\":
            i += 2
            continue
        if ch == '"':
            inside = not inside
            opening = i
        i += 1
    return opening


# A string (skipped), or in group 1 what ``json`` refuses outside one: a constant, or an integer Python will not read.
CONSTANT_OR_NUMBER = re.compile(STRING + r"|(-?Infinity|NaN|-?\d{4301,})")
LONG_NUMBER = "a number with thousands of digits; no value here needs more than 20"


def _not_json(exc: _NotJson, name: str, text: str) -> Diagnostic:
    offset = 0
    token = str(exc)
    if token[:1] in "-0123456789":  # a number too large for a float (1e999): found as written, outside strings
        found = next((m for m in re.finditer(STRING + "|(" + re.escape(token) + ")", text) if m.group(1)), None)
        offset = found.start(1) if found else 0
        shown = token if len(token) <= 24 else f"{token[:12]}...{token[-8:]}"
        message = f"invalid JSON: the number {shown} is too large to hold; no value here needs more than 20 digits"
        line, col = LineIndex(text).position(offset)
        return Diagnostic("CR001", message, file=name, line=line, column=col)
    for m in CONSTANT_OR_NUMBER.finditer(text):
        if m.group(1):
            offset, token = m.start(1), m.group(1)
            break
    if token[-1:].isdigit() or token == "number":
        message = f"invalid JSON: {LONG_NUMBER}"
    else:
        message = f"invalid JSON: {token} is not a JSON value: write a number or null"
    line, col = LineIndex(text).position(offset)
    return Diagnostic("CR001", message, file=name, line=line, column=col)


def _duplicate_key(key: str, name: str, text: str) -> Diagnostic:
    index = PositionIndex(text)
    path, offset = index.duplicates[0] if index.duplicates else ((), 0)
    line, col = index.lines.position(offset)
    return Diagnostic("CR002", f"duplicate key {key!r}: an object names each property once; remove one",
                      path=path, file=name, line=line, column=col)


def _too_deep(name: str, text: str) -> Diagnostic:
    depth, offset = max_depth(text, MAX_DEPTH)
    line, col = LineIndex(text).position(offset)
    return Diagnostic("CR005", f"brackets are nested {counted(depth, 'level')} deep; the limit is {MAX_DEPTH}: "
                      "a campaign needs far fewer", file=name, line=line, column=col)


# --------------------------------------------------------------------------- the model


class _CellRefused(Exception):
    """A cell breaks the schema: the document is not valid (:func:`valid_draft`)."""


def valid_draft(data: Any) -> Campaign | None:
    """The model of a document that follows the schema, else None, decided as the compiled validator
    decides: the document apart from its cells first, then each cell while the model is built."""
    document, cell = campaign_validators()
    try:
        document(data)
        return build_draft(data, cell)
    except (JsonSchemaException, _CellRefused):
        return None


def build_draft(d: dict, validate_cell: Callable[[Any], Any] | None = None) -> Campaign:
    """The campaign model of a document with the campaign's shape, whatever its semantic errors.

    Nothing is checked here (:func:`.checks.check_draft` does that): every cell, goal, ladder
    and card name is kept as written, so a draft saves back what it was opened from. A card
    entry that breaks a rule of its own (CR215, CR216) defines no card: the catalog's card, if
    any, stands; one only warned of (CR229) defines its card. With ``validate_cell`` (the compiled cell validator), each cell is held to the
    schema first, and a cell that breaks it raises :class:`_CellRefused`.
    """
    cards = dict(default_catalog())
    for card_id, entry in d.get("cards", {}).items():
        if not has_errors(card_entry_problems(card_id, entry)):
            try:
                cards[card_id] = card_from_dict(card_id, entry, cards.get(card_id))
            except (AbilityError, TypeError, ValueError):
                pass  # a draft with schema errors: the schema diagnostics say why
    hero = d["hero"]
    levels = tuple(_level(lv, validate_cell) for lv in d["levels"])
    par = Par(d["par"]["turns"], d["par"].get("health"), _unknown(d["par"], "par")) if "par" in d else None
    return Campaign(
        id=d["id"], title=d["title"], rules=d["rules"], seed=d["seed"],
        hero=Hero(hero["character"], tuple(hero.get("items", ())), tuple(hero.get("equipped", ())),
                  _unknown(hero, "hero")), unknown=_unknown(d, "campaign"),
        levels=levels, cards=MappingProxyType(cards), author=d.get("author", ""),
        description=d.get("description", ""), story=d.get("story", ""), kind=d.get("kind", "campaign"),
        format=d["format"], potions=MappingProxyType(dict(d.get("potions", {}))),
        allow_ladder_cycles=d.get("allow_ladder_cycles", False), par=par,
        card_entries=MappingProxyType(dict(d.get("cards", {}))), hasher=content_hash,
    )


def _level(lv: dict, validate_cell: Callable[[Any], Any] | None = None) -> Level:
    level_id = lv["id"]
    if validate_cell is not None:
        cells = _valid_cells(lv["cells"], level_id, validate_cell)
    else:
        cells = []
        for c in lv["cells"]:
            if c.keys() <= PLAIN_CELL_KEYS:
                x, y = c["at"]
                cells.append(plain_cell(x, y, c["card"], c.get("paths", ""), _face(c.get("face", "down")),
                                        default_cell_id(level_id, x, y)))
            else:
                cells.append(_cell(c, level_id))
    return Level(id=level_id, title=lv.get("title", ""), story=lv.get("story", ""), width=lv["width"],
                 height=lv["height"], cells=tuple(cells),
                 goals=tuple(Goal(*next(iter(g.items()))) for g in lv.get("goals", [])), hero=_level_hero(lv),
                 unknown=_unknown(lv, "level"))


def _valid_cells(items: list, level_id: str, validate_cell: Callable[[Any], Any]) -> list[Cell]:
    """The cells of a level, each held to the schema: a plain cell (:data:`.schema.PLAIN_CELL_KEYS`)
    whose values plainly follow it is accepted here, any other goes through ``validate_cell``.
    The hot loop of a big campaign."""
    cells = []
    plain_keys, paths_values = PLAIN_CELL_KEYS, PATHS_VALUES
    ids: set[str] = set()  # card ids found to follow the schema
    for c in items:
        if type(c) is dict and c.keys() <= plain_keys:
            at, card, paths, face = c.get("at"), c.get("card"), c.get("paths", ""), c.get("face", "down")
            if (type(at) is list and len(at) == 2 and type(x := at[0]) is int and type(y := at[1]) is int
                    and 0 <= x <= 255 and 0 <= y <= 255 and type(card) is str
                    and (card in ids or (is_schema_id(card) and not ids.add(card)))
                    and type(paths) is str and paths in paths_values and (face == "down" or face == "up")):
                cells.append(plain_cell(x, y, card, paths, face == "up", default_cell_id(level_id, x, y)))
                continue
        try:
            validate_cell(c)
        except JsonSchemaException:
            raise _CellRefused from None
        cells.append(_cell(c, level_id))
    return cells


def _cell(c: dict, level_id: str) -> Cell:
    x, y = c["at"]
    return Cell(x, y, c["card"], c.get("paths", ""), _face(c.get("face", "down")),
                c.get("id") or default_cell_id(level_id, x, y), c.get("inscription", ""), tuple(c.get("rolls", ())),
                c.get("to"), c.get("exit", False), tuple(c.get("stock", ())), tuple(c.get("contents", ())),
                _unknown(c, "cell"))


def _face(written: Any) -> bool | str:
    """A cell's face: up is True, down False; a draft's other text (``"upp"``) is kept as written, to be
    saved back as it was while its schema error is listed (the face key turns it down)."""
    return True if written == "up" else False if written == "down" else written


def _level_hero(lv: dict) -> LevelHero | None:
    """A level's practice ``hero``, as written (checks.hero.level_hero_problems says where he cannot start)."""
    hero = lv.get("hero")
    if hero is None:
        return None
    return LevelHero(hero.get("health"), tuple(hero["items"]) if "items" in hero else None,
                     tuple(hero["equipped"]) if "equipped" in hero else None,
                     tuple(hero["at"]) if "at" in hero else None, _unknown(hero, "level hero"))


def _unknown(obj: dict, what: str) -> Unknown:
    """The properties of ``obj`` (a ``what``, :data:`.schema.KNOWN_KEYS`) the format does not know, each with its value's
    JSON text: a draft's misspelt keys ("inscripton"), kept to be saved back as written (CR103 says which key is meant)."""
    known = KNOWN_KEYS[what]
    if obj.keys() <= known:
        return ()
    return tuple((k, json.dumps(v, ensure_ascii=False)) for k, v in obj.items() if k not in known)


def load_usable(path: Path) -> Campaign:
    """A campaign without errors, for the engine, the player, the solver and the verifier.

    A draft (a campaign with errors) raises :class:`CampaignHasErrors` and a file that cannot be
    read as JSON raises :class:`UnusableInput`, each listing the first errors.
    """
    return usable(load_campaign(path), path)


def usable(result: LoadResult, path: Path | str) -> Campaign:
    """The campaign of a load, or the error :func:`load_usable` raises for it (``path`` names the file)."""
    if result.campaign is not None:
        return result.campaign
    errors = result.errors
    if result.draft is None and [d.code for d in errors] == ["CR006"]:  # no file to check: its reason alone
        error = UnusableInput(f"{path}: {errors[0].message}")
        error.lines = (str(error),)
        raise error
    # check says more only of a campaign it can walk, or of errors beyond the five listed here: a replay or
    # a JSON typo given for a campaign was told to run check, which said the same line again
    more = result.draft is not None or len(errors) > 5
    lines = [f"{path}: not a usable campaign ({counted(len(errors), 'error')})"
             + (f"; run `cardrogue check {path}`" if more else ""), *(d.render() for d in errors[:5])]
    if len(errors) > 5:
        lines.append(f"... and {len(errors) - 5} more")
    unreadable = result.draft is None and any(d.code.startswith("CR00") for d in errors)
    error = (UnusableInput if unreadable else CampaignHasErrors)("\n".join(lines))
    error.lines = tuple(lines)  # printed one by one: each line escaped on its own
    raise error
