"""The loader: campaign file -> immutable :class:`~.model.Campaign`, or precise diagnostics.

Stages, each stopping the load when it finds an error:

1. limits and decoding (file size, UTF-8),
2. JSON syntax (the C parser; duplicate keys are errors),
3. the JSON Schema (``schema/campaign.schema.json``),
4. what the schema cannot express (unknown cards, duplicate ids, cells outside
   the grid or sharing a place, ladders to missing levels, starting tiles, ...).

Locations (line and column) are found only when there is something to report,
so a clean file costs one parse and one compiled validation. Nothing here
writes a file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterable

from .abilities import AbilityError, parse_ability
from .canonical import content_hash, default_cell_id
from .diagnostics import Diagnostic, JsonPath, Severity
from .jsonpos import LineIndex, PositionIndex, max_depth
from .model import (
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
    Par,
)
from .resources import catalog_path
from .validation import is_valid, schema_diagnostics

MAX_FILE_BYTES = 16 * 1024 * 1024
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
        raw = Path(path).read_bytes() if Path(path).stat().st_size <= MAX_FILE_BYTES else None
    except OSError as exc:
        return LoadResult(name, None, [Diagnostic("CR006", f"cannot read file: {exc.strerror or exc}", file=name, line=1, column=1)])
    if raw is None:
        size = Path(path).stat().st_size
        return LoadResult(name, None, [Diagnostic(
            "CR003", f"file is {size:,} bytes; the limit is {MAX_FILE_BYTES:,}", file=name, line=1, column=1)])
    return load_campaign_bytes(raw, name)


def load_campaign_bytes(raw: bytes, name: str = "<memory>") -> LoadResult:
    if len(raw) > MAX_FILE_BYTES:
        return LoadResult(name, None, [Diagnostic(
            "CR003", f"file is {len(raw):,} bytes; the limit is {MAX_FILE_BYTES:,}", file=name, line=1, column=1)])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = raw[: exc.start].decode("utf-8", errors="replace")
        line, col = LineIndex(good).position(len(good))
        return LoadResult(name, None, [Diagnostic(
            "CR004", f"not UTF-8: byte 0x{raw[exc.start]:02x} cannot be decoded", file=name, line=line, column=col)])
    return load_campaign_text(text, name)


def load_campaign_text(text: str, name: str = "<memory>") -> LoadResult:
    locator = _Locator(name, text)
    if text.startswith("\ufeff"):
        return LoadResult(name, None, [Diagnostic("CR004", "file starts with a byte order mark; save it as UTF-8 without BOM",
                                                  file=name, line=1, column=1)], text)
    try:
        data = json.loads(text, object_pairs_hook=_pairs_no_duplicates)
    except json.JSONDecodeError as exc:
        return LoadResult(name, None, [Diagnostic("CR001", f"invalid JSON: {exc.msg}", file=name, line=exc.lineno, column=exc.colno)], text)
    except _DuplicateKey as exc:
        return LoadResult(name, None, [_duplicate_key(exc.key, name, text)], text)
    except RecursionError:
        return LoadResult(name, None, [_too_deep(name, text)], text)

    if not is_valid(data, "campaign.schema.json"):
        depth, _ = max_depth(text)
        if depth > MAX_DEPTH:
            return LoadResult(name, None, [_too_deep(name, text)], text, data)
        diags = [locator.place(d, key=d.code == "CR103") for d in schema_diagnostics(data, "campaign.schema.json")]
        return LoadResult(name, None, diags, text, data)

    builder = _Builder(data)
    campaign = builder.build()
    diags = [locator.place(d) for d in builder.diagnostics]
    if any(d.severity is Severity.ERROR for d in diags):
        campaign = None
    return LoadResult(name, campaign, diags, text, data)


def _duplicate_key(key: str, name: str, text: str) -> Diagnostic:
    index = PositionIndex(text)
    path, offset = index.duplicates[0] if index.duplicates else ((), 0)
    line, col = index.lines.position(offset)
    return Diagnostic("CR002", f"duplicate key {key!r}", path=path, file=name, line=line, column=col)


def _too_deep(name: str, text: str) -> Diagnostic:
    depth, offset = max_depth(text)
    line, col = LineIndex(text).position(offset)
    return Diagnostic("CR005", f"nesting is {depth} levels deep; the limit is {MAX_DEPTH}", file=name, line=line, column=col)


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

    def error(self, code: str, message: str, path: JsonPath, **extra: Any) -> None:
        self.diagnostics.append(Diagnostic(code, message, Severity.ERROR, path, **extra))

    def warning(self, code: str, message: str, path: JsonPath, **extra: Any) -> None:
        self.diagnostics.append(Diagnostic(code, message, Severity.WARNING, path, **extra))

    def build(self) -> Campaign | None:
        d = self.data
        cards = self._cards(d.get("cards", {}))
        hero = self._hero(d["hero"], cards)
        self._potions(d.get("potions", {}))
        levels = self._levels(d["levels"], cards)
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
        object.__setattr__(campaign, "content_hash", content_hash(campaign))
        return campaign

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
                    self.error("CR215", str(exc), path + ("abilities", i))
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
            self.error("CR217", f"{card_id!r} is a {card.kind.value}, not a {what}", path)
            return False
        return True

    def _hero(self, hero: dict, cards: dict) -> Hero:
        self._known(hero["character"], cards, ("hero", "character"), kinds=[CardKind.CHARACTER], what="character")
        for key in ("items", "equipped"):
            for i, card_id in enumerate(hero.get(key, [])):
                if self._known(card_id, cards, ("hero", key, i)):
                    card = cards[card_id]
                    if not card.is_item and card.kind not in (CardKind.ENEMY,):
                        self.error("CR217", f"{card_id!r} is a {card.kind.value}; the hero can carry only items", ("hero", key, i))
                    elif key == "equipped" and card.slot is None:
                        self.error("CR217", f"{card_id!r} cannot be equipped: it has no equipment slot", ("hero", key, i))
        return Hero(hero["character"], tuple(hero.get("items", ())), tuple(hero.get("equipped", ())))

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
                self.error("CR202", f"duplicate level id {lv['id']!r} (also level {level_ids[lv['id']] + 1})", ("levels", li, "id"), level=li)
            level_ids.setdefault(lv["id"], li)
        built = []
        instance_ids: dict[str, JsonPath] = {}
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
        for ci, c in enumerate(lv["cells"]):
            path = base + ("cells", ci)
            x, y = c["at"]
            where = {"level": li, "cell": (x, y)}
            if x >= width or y >= height:
                self.error("CR203", f"cell ({x}, {y}) is outside the {width}x{height} grid", path + ("at",), **where)
                continue
            if (x, y) in by_pos:
                self.error("CR204", f"two cards on cell ({x}, {y}): cells[{by_pos[(x, y)]}] is there already", path + ("at",), **where)
                continue
            by_pos[(x, y)] = ci
            card_id = c["card"]
            if not self._known(card_id, cards, path + ("card",)):
                continue
            card = cards[card_id]
            if card.kind is CardKind.CHARACTER:
                self.error("CR217", f"{card_id!r} is a character card; it cannot be placed on the map", path + ("card",), **where)
            instance = c.get("id", default_cell_id(level_id, x, y))
            if instance in instance_ids:
                self.error("CR202", f"duplicate card instance id {instance!r}", path + ("id",), **where)
            instance_ids.setdefault(instance, path)
            self._cell_fields(c, card, path, cards, level_ids, where)
            if card_id == STARTING_TILE:
                starts.append(ci)
            cells.append(Cell(
                x=x, y=y, card=card_id, paths=c.get("paths", ""), face_up=c.get("face", "down") == "up",
                id=instance, inscription=c.get("inscription", ""), rolls=tuple(c.get("rolls", ())),
                to=c.get("to"), exit=c.get("exit", False), stock=tuple(c.get("stock", ())),
                contents=tuple(c.get("contents", ())),
            ))
        if not starts:
            self.error("CR206", f"level {level_id!r} has no starting tile: place a {STARTING_TILE!r}", base + ("cells",), level=li)
        for extra in starts[1:]:
            self.error("CR207", f"level {level_id!r} has more than one starting tile", base + ("cells", extra, "card"), level=li)
        for gi, goal in enumerate(lv.get("goals", [])):
            verb, card_id = next(iter(goal.items()))
            gpath = base + ("goals", gi, verb)
            if not self._known(card_id, cards, gpath):
                continue
            if verb == "slay" and not cards[card_id].is_enemy:
                self.error("CR217", f"{card_id!r} is a {cards[card_id].kind.value}; only enemies can be slain", gpath, level=li)
            elif verb == "slay" and not any(c.card == card_id for c in cells):
                self.error("CR221", f"goal: slay {card_id!r}, but no {card_id!r} is on level {level_id!r}", gpath, level=li)
            elif verb == "open" and card_id != CHEST and not any(c.card == card_id for c in cells):
                self.error("CR221", f"goal: open {card_id!r}, but it is not on level {level_id!r}", gpath, level=li)
            elif verb == "open" and not any(c.card == card_id for c in cells):
                self.error("CR221", f"goal: open the chest, but level {level_id!r} has no chest", gpath, level=li)
            elif verb == "buy" and not any(card_id in c.stock for c in cells):
                self.error("CR221", f"goal: buy {card_id!r}, but no shop on level {level_id!r} sells it", gpath, level=li)
        return Level(id=level_id, title=lv.get("title", ""), story=lv.get("story", ""), width=width, height=height,
                     cells=tuple(cells), goals=tuple(Goal(*next(iter(g.items()))) for g in lv.get("goals", [])))

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
                    self.error("CR217", f"{item!r} is a {cards[item].kind.value}, not an item", path + (key, i), **where)
        if card.id == STARTING_TILE and c.get("face", "down") != "up":
            self.error("CR219", "the starting tile must be face up", path + ("face",) if "face" in c else path, **where)
        if not c.get("paths"):
            self.warning("CR223", f"{card.id!r} has no paths: it can never be reached", path, **where)


def _nearest(name: str, options: Iterable[str]) -> str | None:
    import difflib

    match = difflib.get_close_matches(name, list(options), n=1, cutoff=0.75)
    return match[0] if match else None
