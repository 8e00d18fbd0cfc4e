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
so a clean file costs one parse and one compiled validation. No input makes the
loader raise (tests/test_loader.py fuzzes it), and nothing here writes a file.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterable

from ..errors import UnusableInput
from ..model.abilities import AbilityError, parse_ability
from ..model.campaign import (
    CHEST,
    DESCENDING_LADDER,
    POTION_EFFECTS,
    SHOP,
    STARTING_TILE,
    Campaign,
    CardDef,
    CardKind,
    Cell,
    Goal,
    Hero,
    Level,
    LevelHero,
    Par,
)
from ..model.versions import RULES, RULES_VERSIONS
from ..rules.mobility import crossings_of
from .canonical import default_cell_id
from .diagnostics import Diagnostic, JsonPath, Severity
from .positions import LineIndex, PositionIndex, max_depth
from .resources import catalog_path
from .schema import is_valid, schema_diagnostics

MAX_FILE_BYTES = 16 * 1024 * 1024
# Cells with only these keys, holding a card without a rule of its own, skip the per-field checks.
_PLAIN_CELL_KEYS = frozenset({"at", "card", "paths", "face"})
_SPECIAL_CARDS = frozenset({DESCENDING_LADDER, STARTING_TILE, SHOP, CHEST})
MAX_DEPTH = 32


@dataclass
class LoadResult:
    """What loading a file gave: a campaign when there were no errors, and every diagnostic."""

    file: str
    campaign: Campaign | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    text: str = ""
    data: Any = None

    @property
    def ok(self) -> bool:
        return self.campaign is not None


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _pairs_no_duplicates(pairs: list[tuple[str, Any]]) -> dict:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
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


def _replace(diag: Diagnostic, **changes: Any) -> Diagnostic:
    from dataclasses import replace

    return replace(diag, **changes)


def load_campaign(path: str | Path) -> LoadResult:
    """Load and check one campaign file (stages 1 to 4)."""
    name = str(path)
    try:
        with open(path, "rb") as handle:
            # Read at most one byte past the limit: a FIFO or a device reports no
            # useful size, and a huge file must not be read whole to be refused.
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        return LoadResult(name, None, [Diagnostic(
            "CR006", f"cannot read the file: {exc.strerror or exc}", file=name, line=1, column=1)])
    except ValueError as exc:  # e.g. a NUL byte in the path
        return LoadResult(name, None, [Diagnostic("CR006", f"cannot read the file: {exc}", file=name, line=1, column=1)])
    return load_campaign_bytes(raw, name)


def _too_large(name: str, size: int, exact: bool = True) -> LoadResult:
    amount = f"{size:,} bytes" if exact else f"more than {MAX_FILE_BYTES:,} bytes"
    return LoadResult(name, None, [Diagnostic(
        "CR003", f"the file is {amount}; the limit is {MAX_FILE_BYTES:,}: split the campaign or shorten its text",
        file=name, line=1, column=1)])


def load_campaign_bytes(raw: bytes, name: str = "<memory>") -> LoadResult:
    """Load and check a campaign from the bytes of a file."""
    if len(raw) > MAX_FILE_BYTES:
        return _too_large(name, len(raw), exact=False)
    if raw.startswith(b"\xef\xbb\xbf"):
        return LoadResult(name, None, [_bom(name)])
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
        return LoadResult(name, None, [Diagnostic("CR004", _SURROGATE, file=name, line=line, column=col)], text)
    return _load_text(text, name)


def _load_text(text: str, name: str) -> LoadResult:
    """Stages 2 to 4, for a text known to be encodable."""
    if text.startswith("\ufeff"):
        return LoadResult(name, None, [_bom(name)], text)
    try:
        data = json.loads(text, object_pairs_hook=_pairs_no_duplicates,
                          parse_constant=_refuse_constant, parse_float=_parse_float)
    except json.JSONDecodeError as exc:
        return LoadResult(name, None, [_syntax_error(exc, name, text)], text)
    except _DuplicateKey as exc:
        return LoadResult(name, None, [_duplicate_key(exc.key, name, text)], text)
    except _NotJson as exc:
        return LoadResult(name, None, [_not_json(exc, name, text)], text)
    except ValueError:  # an integer of thousands of digits (int max_str_digits)
        return LoadResult(name, None, [_not_json(_NotJson("number"), name, text)], text)
    except RecursionError:
        return LoadResult(name, None, [_too_deep(name, text)], text)

    locator = _Locator(name, text)
    # A lone surrogate can only come from a \u escape; it is text no file can hold.
    if _SURROGATE_ESCAPE.search(text):
        bad = _lone_surrogate(data)
        if bad is not None:
            diag = Diagnostic("CR004", _SURROGATE, path=bad)
            return LoadResult(name, None, [locator.place(diag)], text, data)

    if not is_valid(data, "campaign.schema.json"):
        depth, _ = max_depth(text)
        if depth > MAX_DEPTH:
            return LoadResult(name, None, [_too_deep(name, text)], text, data)
        diags = sorted((locator.place(d, key=d.code in ("CR103", "CR109"))
                        for d in schema_diagnostics(data, "campaign.schema.json")), key=lambda d: (d.line, d.column))
        if diags:
            return LoadResult(name, None, diags, text, data)
        # The fast validator refused what the reference accepts: the reference decides.

    builder = _Builder(data)
    campaign = builder.build()
    diags = [locator.place(d) for d in builder.diagnostics]
    if any(d.severity is Severity.ERROR for d in diags):
        campaign = None
    return LoadResult(name, campaign, diags, text, data)


_SURROGATE = ("the text holds a lone UTF-16 surrogate (\\ud800 to \\udfff), which is not a character "
              "and cannot be saved as UTF-8: remove it or write the character itself")


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class _NotJson(ValueError):
    """A token Python's parser accepts but JSON does not (NaN, Infinity), or cannot hold."""


def _refuse_constant(token: str) -> Any:
    raise _NotJson(token)


def _parse_float(token: str) -> int | float:
    # JSON Schema counts 3.0 as an integer; the model holds it as one.
    value = float(token)
    return int(value) if value.is_integer() else value


def _bom(name: str) -> Diagnostic:
    return Diagnostic("CR004", "the file starts with a byte order mark: save it as UTF-8 without BOM",
                      file=name, line=1, column=1)


def _lone_surrogate(data: Any) -> JsonPath | None:
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


# JSONDecodeError's messages, in words that say what to do.
_SYNTAX_HINTS = {
    "Expecting property name enclosed in double quotes": "expected a property name in double quotes, like \"title\"",
    "Expecting ',' delimiter": "expected ',' before this: is a comma missing after the previous item?",
    "Expecting ':' delimiter": "expected ':' after the property name",
    "Expecting value": "expected a value: a string, a number, an object, an array, true, false or null",
    "Extra data": "unexpected text after the end of the JSON document: the campaign is one object { ... }",
    "Invalid \\escape": "invalid escape in a string: write a backslash as \\\\",
    "Invalid control character at": "a line break or control character inside a string: write it as \\n (or \\t)",
    "Unterminated string starting at": "this string has no closing double quote",
}


def _syntax_error(exc: json.JSONDecodeError, name: str, text: str) -> Diagnostic:
    pos = exc.pos
    before = text[:pos].rstrip()
    if not text.strip():
        message = "the file is empty: a campaign is a JSON object { ... }"
        pos = 0
    elif before.endswith(",") and text[pos:pos + 1] in ("}", "]"):
        message = f"trailing comma before '{text[pos]}': remove it (JSON allows no comma after the last item)"
        pos = len(before) - 1
    elif exc.msg == "Invalid control character at" and text[pos] in "\r\n":
        message = "this string runs to the end of the line: is its closing double quote missing?"
        pos = _string_start(text, pos)
    elif not text[pos:].strip() and exc.msg != "Unterminated string starting at":
        message = "the file ends before the JSON is complete: is it truncated, or a '}' or ']' missing?"
    else:
        message = _SYNTAX_HINTS.get(exc.msg, exc.msg)
    line, col = LineIndex(text).position(pos)
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


_CONSTANT_OR_NUMBER = re.compile(r'"(?:[^"\\]|\\.)*"|(-?Infinity|NaN|-?\d{4301,})')


def _not_json(exc: _NotJson, name: str, text: str) -> Diagnostic:
    offset = 0
    token = str(exc)
    for m in _CONSTANT_OR_NUMBER.finditer(text):
        if m.group(1):
            offset, token = m.start(1), m.group(1)
            break
    if token[-1:].isdigit() or token == "number":
        message = "invalid JSON: a number with thousands of digits; no value here needs more than 20"
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
    return Diagnostic("CR005", f"brackets are nested {depth} levels deep; the limit is {MAX_DEPTH}: "
                      "a campaign needs far fewer", file=name, line=line, column=col)


# --------------------------------------------------------------------------- catalog


@cache
def default_catalog() -> MappingProxyType:
    """The default card catalog, parsed once per process."""
    data = json.loads(catalog_path().read_text(encoding="utf-8"))
    return MappingProxyType({cid: card_from_dict(cid, entry) for cid, entry in data["cards"].items()})


def card_from_dict(card_id: str, entry: dict, base: CardDef | None = None) -> CardDef:
    """Build a card from its file entry; with ``base``, the entry overrides only what it gives."""
    fields: dict[str, Any] = {}
    if base is not None:
        fields = {f: getattr(base, f) for f in base.__slots__}
    fields["id"] = card_id
    for key, value in entry.items():
        if key == "kind":
            fields["kind"] = CardKind(value)
        elif key == "abilities":
            fields["abilities"] = tuple(parse_ability(a) for a in value)
        else:
            fields[key] = value
    return CardDef(**fields)


# --------------------------------------------------------------------------- semantic checks


class _Builder:
    """Stage 4: the checks the schema cannot express, then the model."""

    def __init__(self, data: dict) -> None:
        self.data = data
        self.diagnostics: list[Diagnostic] = []
        self.pathless: list[tuple[str, JsonPath, dict]] = []  # (card, path, where) of cells with no paths

    def error(self, code: str, message: str, path: JsonPath, **extra: Any) -> None:
        self.diagnostics.append(Diagnostic(code, message, Severity.ERROR, path, **extra))

    def warning(self, code: str, message: str, path: JsonPath, **extra: Any) -> None:
        self.diagnostics.append(Diagnostic(code, message, Severity.WARNING, path, **extra))

    def build(self) -> Campaign | None:
        d = self.data
        cards = self._cards(d.get("cards", {}))
        hero = self._hero(d["hero"], cards)
        self._version_character(d["rules"], hero.character)
        self._potions(d.get("potions", {}))
        levels = self._levels(d["levels"], cards)
        if not crossings_of(cards, hero, levels, d["seed"], d.get("potions", {})):
            self._warn_pathless()
        if any(diag.severity is Severity.ERROR for diag in self.diagnostics):
            return None
        par = Par(d["par"]["turns"], d["par"].get("health")) if "par" in d else None
        campaign = Campaign(
            id=d["id"], title=d["title"], rules=d["rules"], seed=d["seed"], hero=hero,
            levels=tuple(levels), cards=MappingProxyType(cards), author=d.get("author", ""),
            description=d.get("description", ""), story=d.get("story", ""), kind=d.get("kind", "campaign"),
            format=d["format"], potions=MappingProxyType(dict(d.get("potions", {}))),
            allow_ladder_cycles=d.get("allow_ladder_cycles", False), par=par,
            card_entries=MappingProxyType(dict(d.get("cards", {}))), source=d,
        )
        return campaign

    def _warn_pathless(self) -> None:
        """CR223, unless the hero could cross walls: the mage's spell, MOVE TO ANY ADJACENT TILE or a
        potion of teleportation reaches a card without paths (``flip`` needs a path only on the
        hero's side)."""
        for card_id, path, where in self.pathless:
            self.warning("CR223", f"{card_id!r} has no paths: it can never be reached", path, **where)

    def _cards(self, entries: dict) -> dict[str, CardDef]:
        catalog = default_catalog()
        cards = dict(catalog)
        for card_id, entry in entries.items():
            path = ("cards", card_id)
            base = catalog.get(card_id)
            if base is None and not {"name", "kind"} <= entry.keys():
                self.error("CR216", f"new card {card_id!r} needs a name and a kind (or use a catalog id to override one)", path)
                continue
            for i, text in enumerate(entry.get("abilities", [])):
                try:
                    parse_ability(text)
                except AbilityError as exc:
                    self.error("CR215", f"{exc}: write it in the rulebook's words, for example "
                               "\"ROLL A DIE: IF 6: DODGES PLAYER'S ATTACK\" or \"-1 DAMAGE TAKEN\"", path + ("abilities", i))
            kind = CardKind(entry["kind"]) if "kind" in entry else base.kind
            if base is not None and kind is not base.kind:
                self.error("CR216", f"an override cannot change {card_id!r} from {base.kind.value} to {kind.value}", path + ("kind",))
                continue
            if kind in (CardKind.ENEMY, CardKind.BOSS) and base is None and not {"attack", "health"} <= entry.keys():
                self.error("CR216", f"new {kind.value} {card_id!r} needs attack and health", path)
                continue
            if kind in (CardKind.WEAPON, CardKind.ARMOUR) and base is None and "slot" not in entry:
                self.error("CR216", f"new {kind.value} {card_id!r} needs a slot", path)
                continue
            if kind is CardKind.POTION and base is None and "colour" not in entry:
                self.error("CR216", f"new potion {card_id!r} needs a colour", path)
                continue
            try:
                cards[card_id] = card_from_dict(card_id, entry, base)
            except AbilityError:
                pass  # reported above
        return cards

    def _known(self, card_id: str, cards: dict, path: JsonPath, *, kinds: Iterable[CardKind] | None = None,
               what: str = "card") -> bool:
        card = cards.get(card_id)
        if card is None:
            near = _nearest(card_id, cards)
            hint = f"; did you mean {near!r}?" if near else ""
            self.error("CR201", f"unknown card {card_id!r}{hint}", path)
            return False
        if kinds is not None and card.kind not in kinds:
            self.error("CR217", f"{card_id!r} is {_a(card.kind.value)}, not {_a(what)}", path)
            return False
        return True

    def _hero(self, hero: dict, cards: dict) -> Hero:
        self._known(hero["character"], cards, ("hero", "character"), kinds=[CardKind.CHARACTER], what="character")
        self._carried(hero, cards, ("hero",))
        return Hero(hero["character"], tuple(hero.get("items", ())), tuple(hero.get("equipped", ())))

    def _carried(self, hero: dict, cards: dict, path: JsonPath, **where: Any) -> None:
        """A hero's ``items`` and ``equipped`` (the campaign's, or a level's practice hero): items only."""
        for key in ("items", "equipped"):
            for i, card_id in enumerate(hero.get(key, [])):
                if self._known(card_id, cards, path + (key, i)):
                    card = cards[card_id]
                    if not card.is_item and card.kind not in (CardKind.ENEMY,):
                        self.error("CR217", f"{card_id!r} is {_a(card.kind.value)}; the hero can carry only items", path + (key, i), **where)
                    elif key == "equipped" and card.slot is None:
                        self.error("CR217", f"{card_id!r} cannot be equipped: it has no equipment slot", path + (key, i), **where)

    def _version_character(self, rules: str, character: str) -> None:
        """CR224: a catalog character the campaign's rules version does not have (the Mage and the Bard in 1.0:
        "There are four characters: the Warrior, the Rogue, the Cleric, and the Explorer")."""
        version = RULES[rules]
        catalog = default_catalog()
        characters = frozenset(c for c, card in catalog.items() if card.kind is CardKind.CHARACTER)
        if not version.knows_character(character, characters):
            names = [f"the {catalog[c].name}" for c in version.characters or ()]
            known = ", ".join(names[:-1]) + f" and {names[-1]}"
            self.error("CR224", f"rules {rules} has no {catalog[character].name}: its rulebook knows {known}; "
                       f"choose one of them, or rules {RULES_VERSIONS[0]}", ("hero", "character"))

    def _level_hero(self, li: int, lv: dict, cells: list[Cell], cards: dict) -> LevelHero | None:
        """A level's practice ``hero``: his cards as the campaign hero's; CR225 when he cannot start where it says."""
        hero = lv.get("hero")
        if hero is None:
            return None
        path: JsonPath = ("levels", li, "hero")
        self._carried(hero, cards, path, level=li)
        at = tuple(hero["at"]) if "at" in hero else None
        if at is not None:
            cell = next((c for c in cells if c.pos == at), None)
            where = f"the level's hero cannot start at ({at[0]}, {at[1]})"
            problem = None
            if cell is None:
                problem = "no card is there"
            elif not cell.face_up:
                problem = f"the {cell.card} there is face down"
            elif cell.exit:
                problem = "it is the exit"
            elif cards[cell.card].kind is not CardKind.TILE or cell.card in (DESCENDING_LADDER, CHEST):
                problem = f"it holds {cell.card!r}"
            if problem is not None:
                self.error("CR225", f"{where}: {problem}; choose a face-up pathing tile, shop, fountain or the starting "
                           "tile", path + ("at",), level=li, cell=at)
        return LevelHero(hero.get("health"), tuple(hero["items"]) if "items" in hero else None,
                         tuple(hero["equipped"]) if "equipped" in hero else None, at)

    def _potions(self, potions: dict) -> None:
        seen: dict[str, str] = {}
        for colour, effect in potions.items():
            if effect in seen:
                self.error("CR222", f"{colour} and {seen[effect]} potions both have the {effect} effect; each colour has a different effect", ("potions", colour))
            seen[effect] = colour
        assert set(seen) <= set(POTION_EFFECTS)

    def _levels(self, levels: list, cards: dict) -> list[Level]:
        level_ids: dict[str, int] = {}
        for li, lv in enumerate(levels):
            if lv["id"] in level_ids:
                self.error("CR202", f"duplicate level id {lv['id']!r} (level {level_ids[lv['id']] + 1} has it too): "
                           "each level needs its own id", ("levels", li, "id"), level=li)
            level_ids.setdefault(lv["id"], li)
        built = []
        instance_ids: dict[str, int] = {}
        for li, lv in enumerate(levels):
            built.append(self._level(li, lv, cards, level_ids, instance_ids))
        if not any(cell.exit for level in built for cell in level.cells):
            self.error("CR220", "the campaign has no exit: mark a cell with \"exit\": true on the last level", ("levels",))
        return built

    def _level(self, li: int, lv: dict, cards: dict, level_ids: dict, instance_ids: dict) -> Level:
        width, height, level_id = lv["width"], lv["height"], lv["id"]
        base: JsonPath = ("levels", li)
        cells: list[Cell] = []
        by_pos: dict[tuple[int, int], int] = {}
        starts: list[int] = []
        # The hot loop of a big campaign: paths and messages are built only for problems.
        plain_keys = _PLAIN_CELL_KEYS
        special = _SPECIAL_CARDS
        for ci, c in enumerate(lv["cells"]):
            x, y = c["at"]
            pos = (x, y)
            card_id = c["card"]
            card = cards.get(card_id)
            if x >= width or y >= height or pos in by_pos or card is None or card.kind is CardKind.CHARACTER:
                if not self._misplaced(c, ci, li, width, height, by_pos, cards):
                    continue
            by_pos[pos] = ci
            instance = c.get("id") or default_cell_id(level_id, x, y)
            if instance in instance_ids:
                # A repeated level id repeats every default instance id: reported once, as CR202 on the level.
                if "id" in c or level_ids[level_id] == li:
                    self.error("CR202", f"duplicate card instance id {instance!r}: each card on the map needs its own id",
                               base + ("cells", ci, "id"), level=li, cell=pos)
            else:
                instance_ids[instance] = ci
            paths = c.get("paths", "")
            if card_id in special or not paths or not c.keys() <= plain_keys:
                self._cell_fields(c, card, base + ("cells", ci), cards, level_ids, {"level": li, "cell": pos})
                if card_id == STARTING_TILE:
                    starts.append(ci)
                cells.append(Cell(x, y, card_id, paths, c.get("face", "down") == "up", instance, c.get("inscription", ""),
                                  tuple(c.get("rolls", ())), c.get("to"), c.get("exit", False),
                                  tuple(c.get("stock", ())), tuple(c.get("contents", ()))))
            else:
                cells.append(Cell(x, y, card_id, paths, c.get("face", "down") == "up", instance))
        if not starts:
            self.error("CR206", f"level {level_id!r} has no starting tile: place a {STARTING_TILE!r}", base + ("cells",), level=li)
        for extra in starts[1:]:
            self.error("CR207", f"level {level_id!r} has more than one starting tile: keep one", base + ("cells", extra, "card"), level=li)
        for gi, goal in enumerate(lv.get("goals", [])):
            verb, card_id = next(iter(goal.items()))
            gpath = base + ("goals", gi, verb)
            if not self._known(card_id, cards, gpath):
                continue
            if verb == "slay" and not cards[card_id].is_enemy:
                self.error("CR217", f"{card_id!r} is {_a(cards[card_id].kind.value)}; only enemies can be slain", gpath, level=li)
            elif verb == "slay" and not any(c.card == card_id for c in cells):
                self.error("CR221", f"goal: slay {card_id!r}, but no {card_id!r} is on level {level_id!r}", gpath, level=li)
            elif verb == "open" and card_id != CHEST and not any(c.card == card_id for c in cells):
                self.error("CR221", f"goal: open {card_id!r}, but it is not on level {level_id!r}", gpath, level=li)
            elif verb == "open" and not any(c.card == card_id for c in cells):
                self.error("CR221", f"goal: open the chest, but level {level_id!r} has no chest", gpath, level=li)
            elif verb == "buy" and not any(card_id in c.stock for c in cells):
                self.error("CR221", f"goal: buy {card_id!r}, but no shop on level {level_id!r} sells it", gpath, level=li)
        level_hero = self._level_hero(li, lv, cells, cards)
        return Level(id=level_id, title=lv.get("title", ""), story=lv.get("story", ""), width=width, height=height,
                     hero=level_hero,
                     cells=tuple(cells), goals=tuple(Goal(*next(iter(g.items()))) for g in lv.get("goals", [])))

    def _misplaced(self, c: dict, ci: int, li: int, width: int, height: int, by_pos: dict, cards: dict) -> bool:
        """Report why a cell cannot stand where it is; True when it may still be built (a character card)."""
        x, y = c["at"]
        path: JsonPath = ("levels", li, "cells", ci)
        where = {"level": li, "cell": (x, y)}
        if x >= width or y >= height:
            self.error("CR203", f"cell ({x}, {y}) is outside the {width}x{height} grid (x 0 to {width - 1}, "
                       f"y 0 to {height - 1}): move it, or make the level larger", path + ("at",), **where)
            return False
        if (x, y) in by_pos:
            self.error("CR204", f"two cards on cell ({x}, {y}): cells[{by_pos[(x, y)]}] is there already; "
                       "a cell holds one card", path + ("at",), **where)
            return False
        if not self._known(c["card"], cards, path + ("card",)):
            return False
        self.error("CR217", f"{c['card']!r} is a character card; it cannot be placed on the map", path + ("card",), **where)
        return True

    def _cell_fields(self, c: dict, card: CardDef, path: JsonPath, cards: dict, level_ids: dict, where: dict) -> None:
        if card.id == DESCENDING_LADDER:
            if "to" not in c:
                self.error("CR208", "a descending ladder must name the level it leads to (\"to\")", path, **where)
            elif c["to"] not in level_ids:
                near = _nearest(c["to"], level_ids)
                hint = f"; did you mean {near!r}?" if near else ""
                self.error("CR205", f"ladder leads to missing level {c['to']!r}{hint}", path + ("to",), **where)
        elif "to" in c:
            self.error("CR218", f"only a descending ladder leads to a level; this cell holds {card.id!r}", path + ("to",), **where)
        if "stock" in c and card.id != SHOP:
            self.error("CR218", f"only a shop has stock; this cell holds {card.id!r}", path + ("stock",), **where)
        if "contents" in c and card.id != CHEST:
            self.error("CR218", f"only a chest has contents; this cell holds {card.id!r}", path + ("contents",), **where)
        for key in ("stock", "contents"):
            for i, item in enumerate(c.get(key, [])):
                if self._known(item, cards, path + (key, i)) and not cards[item].is_item:
                    self.error("CR217", f"{item!r} is {_a(cards[item].kind.value)}, not an item", path + (key, i), **where)
        if card.id == STARTING_TILE and c.get("face", "down") != "up":
            self.error("CR219", "the starting tile must be face up", path + ("face",) if "face" in c else path, **where)
        if not c.get("paths"):
            self.pathless.append((card.id, path, where))


def _a(noun: str) -> str:
    return f"an {noun}" if noun[:1] in "aeiou" else f"a {noun}"


def _nearest(name: str, options: Iterable[str]) -> str | None:
    import difflib

    match = difflib.get_close_matches(name, list(options), n=1, cutoff=0.75)
    return match[0] if match else None


def load_usable(path: Path):
    """A campaign from a file, or :class:`UnusableInput` with its first errors."""
    result = load_campaign(path)
    if result.campaign is None:
        errors = [d.render() for d in result.diagnostics if d.severity is Severity.ERROR]
        raise UnusableInput("\n".join([f"{path}: not a usable campaign ({len(errors)} error(s)); run `cardrogue check {path}`", *errors[:5]]))
    return result.campaign
