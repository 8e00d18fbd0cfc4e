"""Edits: pure functions ``Campaign -> Campaign`` behind every change the editor makes.

No Textual here. Each function builds new values with :func:`dataclasses.replace`
and leaves everything it does not touch shared with the old campaign, so keeping
old campaigns on the undo stack costs little.

A cell's instance id keys its fated dice stream. Cells that move to a new place
(paste, duplicated or renamed level) drop an id that was only the default for
their old place, so the loader gives them the default for the new one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Iterable, Mapping

from cardrogue.engine.format.canonical import default_cell_id, level_hero_to_dict
from cardrogue.engine.format.catalog import card_from_dict, default_catalog
from cardrogue.engine.format.checks import RuleError
from cardrogue.engine.format.checks.cards import card_entry_problems, item_problems
from cardrogue.engine.format.checks.goals import goal_problems
from cardrogue.engine.format.checks.hero import hero_problems, level_hero_problems
from cardrogue.engine.format.checks.potions import potion_problems
from cardrogue.engine.format.diagnostics import Diagnostic, Severity
from cardrogue.engine.model.campaign import (
    CardDef,
    CHEST,
    DESCENDING_LADDER,
    DIRECTIONS,
    POTION_COLOURS,
    POTION_EFFECTS,
    SHOP,
    STARTING_TILE,
    Campaign,
    CardKind,
    Cell,
    Direction,
    Goal,
    Hero,
    Level,
    LevelHero,
    canonical_paths,
    row_major,
)
from cardrogue.engine.format.resources import load_schema
from cardrogue.engine.format.schema import is_schema_id
from cardrogue.engine.words import place_text
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

_CLOCKWISE = {"N": "E", "E": "S", "S": "W", "W": "N"}
_ANTICLOCKWISE = {v: k for k, v in _CLOCKWISE.items()}
MAX_SIZE = 256


@dataclass(frozen=True, slots=True)
class Rect:
    """A rectangle of grid places, corners included."""

    x0: int
    y0: int
    x1: int
    y1: int

    @classmethod
    def spanning(cls, a: tuple[int, int], b: tuple[int, int]) -> "Rect":
        return cls(min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))

    def __contains__(self, pos: object) -> bool:
        x, y = pos  # type: ignore[misc]
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1

    @property
    def width(self) -> int:
        return self.x1 - self.x0 + 1

    @property
    def height(self) -> int:
        return self.y1 - self.y0 + 1


@dataclass(frozen=True, slots=True)
class Clip:
    """Copied cells, with places relative to the copied rectangle's top-left corner."""

    width: int
    height: int
    cells: tuple[Cell, ...]


class FieldError(ValueError):
    """A refused value, with the name of the form field it came from (a form shows it under that field)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


# --------------------------------------------------------------------------- helpers


def with_cells(level: Level, cells: Iterable[Cell]) -> Level:
    """A level with new cells, its place index rebuilt (``replace`` alone would keep the old one)."""
    return replace(level, cells=tuple(sorted(cells, key=row_major)), by_pos={})


def with_level(campaign: Campaign, index: int, level: Level) -> Campaign:
    levels = list(campaign.levels)
    levels[index] = level
    return replace(campaign, levels=tuple(levels))


def relocated(cell: Cell, old_level: str, new_level: str, x: int, y: int, keep_custom_id: bool = True) -> Cell:
    """The cell moved to ``(x, y)`` of ``new_level``; a default or dropped instance id follows the place."""
    custom = cell.id and cell.id != default_cell_id(old_level, cell.x, cell.y)
    return replace(cell, x=x, y=y, id=cell.id if custom and keep_custom_id else "")


def _edit_cell(campaign: Campaign, li: int, x: int, y: int, **changes) -> Campaign:
    level = campaign.levels[li]
    cell = level.cell_at(x, y)
    if cell is None:
        return campaign
    new = replace(cell, **changes)
    if new == cell:
        return campaign
    return with_level(campaign, li, with_cells(level, [new if c is cell else c for c in level.cells]))


def refuse(problems: list[Diagnostic]) -> None:
    """Raise the first problem a rule of the format found (:class:`RuleError`, a ValueError)."""
    if problems:
        raise RuleError(problems[0])


def unique_level_id(campaign: Campaign, base: str) -> str:
    taken = {lv.id for lv in campaign.levels}
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


# --------------------------------------------------------------------------- cells


def place_card(campaign: Campaign, li: int, x: int, y: int, card: str,
               joined_to: tuple[int, int] | None = None) -> Campaign:
    """Put ``card`` on a place of the grid.

    On an occupied place the card is swapped and the cell keeps its paths and face (and its exit
    mark, unless the new card is a descending ladder, which leads down, never out).
    On an empty place the new card is joined (a path on both facing edges) to the card at
    ``joined_to`` when that is an occupied neighbour: the card it was painted from. So
    painting a line from a card makes a corridor, and the other cards around the new one
    keep their walls.
    """
    return fill_cards(campaign, li, Rect(x, y, x, y), card, joined_to)


def fill_cards(campaign: Campaign, li: int, rect: Rect, card: str,
               joined_to: tuple[int, int] | None = None) -> Campaign:
    """Put ``card`` on every place of ``rect`` (see :func:`place_card`).

    The new cards on empty places are joined to each other, a room (a line: a corridor), and
    to the card at ``joined_to`` when it is an occupied neighbour of one of them.
    """
    level = campaign.levels[li]
    rect = Rect(max(0, rect.x0), max(0, rect.y0), min(level.width - 1, rect.x1), min(level.height - 1, rect.y1))
    if rect.x0 > rect.x1 or rect.y0 > rect.y1:
        return campaign
    changed: dict[tuple[int, int], Cell] = {}
    fresh: set[tuple[int, int]] = set()
    for y in range(rect.y0, rect.y1 + 1):
        for x in range(rect.x0, rect.x1 + 1):
            old = level.cell_at(x, y)
            if old is None:
                fresh.add((x, y))
                changed[(x, y)] = Cell(x=x, y=y, card=card, paths="", face_up=card == STARTING_TILE)
            elif old.card != card:
                face_up = True if card == STARTING_TILE else old.face_up
                to = old.to if card == DESCENDING_LADDER else None
                exit = old.exit and card != DESCENDING_LADDER  # a ladder leads down, never out (CR218)
                changed[(x, y)] = replace(old, card=card, face_up=face_up, to=to, exit=exit, stock=(), contents=())
    if not changed:
        return campaign

    def open_edge(pos: tuple[int, int], d: Direction) -> None:
        cell = changed.get(pos) or level.cell_at(*pos)
        assert cell is not None
        changed[pos] = replace(cell, paths=canonical_paths(cell.paths + d.value))

    for pos in sorted(fresh):
        for d in DIRECTIONS:
            other = d.step(*pos)
            if other in fresh and other > pos:
                open_edge(pos, d)
                open_edge(other, d.opposite)
            elif other == joined_to and level.cell_at(*other) is not None:
                open_edge(pos, d)
                open_edge(other, d.opposite)
    cells = [changed.pop(c.pos, c) for c in level.cells] + list(changed.values())
    return with_level(campaign, li, with_cells(level, cells))


def rotate(campaign: Campaign, li: int, x: int, y: int, clockwise: bool = True) -> Campaign:
    cell = campaign.levels[li].cell_at(x, y)
    if cell is None:
        return campaign
    turn = _CLOCKWISE if clockwise else _ANTICLOCKWISE
    return _edit_cell(campaign, li, x, y, paths=canonical_paths("".join(turn[p] for p in cell.paths)))


def toggle_path(campaign: Campaign, li: int, x: int, y: int, direction: Direction) -> Campaign:
    cell = campaign.levels[li].cell_at(x, y)
    if cell is None:
        return campaign
    paths = cell.paths.replace(direction.value, "") if cell.has_path(direction) else cell.paths + direction.value
    return _edit_cell(campaign, li, x, y, paths=canonical_paths(paths))


def toggle_face(campaign: Campaign, li: int, x: int, y: int) -> Campaign:
    cell = campaign.levels[li].cell_at(x, y)
    # (a face misspelt in a draft, kept as its text, is turned down, as docs/editor.md says: whatever the text)
    return campaign if cell is None else _edit_cell(campaign, li, x, y, face_up=cell.face_up is False)


def turn_faces(campaign: Campaign, li: int, rect: Rect) -> Campaign:
    """f on a selection: every card face up, or face down when all are up already (walk 26: turned over one by
    one, the face-down exit in a room being turned down came up). One card is turned over (:func:`toggle_face`)."""
    level = campaign.levels[li]
    cells = [c for c in level.cells if (c.x, c.y) in rect]
    if len(cells) == 1:
        return toggle_face(campaign, li, cells[0].x, cells[0].y)
    up = not all(c.face_up is True for c in cells)
    for c in cells:
        if c.face_up is not up:
            campaign = _edit_cell(campaign, li, c.x, c.y, face_up=up)
    return campaign


def toggle_exit(campaign: Campaign, li: int, x: int, y: int) -> Campaign:
    cell = campaign.levels[li].cell_at(x, y)
    return campaign if cell is None else _edit_cell(campaign, li, x, y, exit=not cell.exit)


def set_cell_fields(campaign: Campaign, li: int, x: int, y: int, **changes) -> Campaign:
    """Inscription, scripted rolls, ladder target, stock, contents, instance id."""
    return _edit_cell(campaign, li, x, y, **changes)


def delete_cells(campaign: Campaign, li: int, rect: Rect) -> Campaign:
    level = campaign.levels[li]
    kept = [c for c in level.cells if c.pos not in rect]
    if len(kept) == len(level.cells):
        return campaign
    return with_level(campaign, li, with_cells(level, kept))


def copy_cells(campaign: Campaign, li: int, rect: Rect) -> Clip:
    level = campaign.levels[li]
    cells = tuple(
        relocated(c, level.id, level.id, c.x - rect.x0, c.y - rect.y0, keep_custom_id=False)
        for c in level.cells if c.pos in rect
    )
    return Clip(rect.width, rect.height, cells)


def paste_cells(campaign: Campaign, li: int, x: int, y: int, clip: Clip) -> Campaign:
    """Paste the clip's rectangle with its top-left corner at ``(x, y)``; what falls off the grid is dropped."""
    level = campaign.levels[li]
    target = Rect(x, y, x + clip.width - 1, y + clip.height - 1)
    kept = [c for c in level.cells if c.pos not in target]
    pasted = [
        replace(c, x=c.x + x, y=c.y + y)
        for c in clip.cells
        if 0 <= c.x + x < level.width and 0 <= c.y + y < level.height
    ]
    new = with_level(campaign, li, with_cells(level, kept + pasted))
    return campaign if new.levels[li].cells == level.cells else new


# --------------------------------------------------------------------------- levels


def new_level(level_id: str, title: str = "", width: int = 5, height: int = 5) -> Level:
    start = Cell(x=0, y=0, card=STARTING_TILE, paths="", face_up=True)
    return Level(id=level_id, title=title, story="", width=width, height=height, cells=(start,))


def add_level(campaign: Campaign, index: int) -> Campaign:
    """A new 5x5 level holding a starting tile, inserted at ``index``: its id is ``level-N``, N its
    place in the campaign (the blank campaign's first level is ``level-1``), or the next free number."""
    taken = {lv.id for lv in campaign.levels}
    n = index + 1
    while f"level-{n}" in taken:
        n += 1
    level_id = f"level-{n}"
    levels = list(campaign.levels)
    levels.insert(index, new_level(level_id, "New level"))
    return replace(campaign, levels=tuple(levels))


def remove_level(campaign: Campaign, index: int) -> Campaign:
    """Remove a level (never the last one: a campaign has at least one level)."""
    if len(campaign.levels) <= 1:
        return campaign
    levels = list(campaign.levels)
    del levels[index]
    return replace(campaign, levels=tuple(levels))


def duplicate_level(campaign: Campaign, index: int) -> Campaign:
    """A copy placed after the original, with a new id; its cells become new card instances."""
    level = campaign.levels[index]
    level_id = unique_level_id(campaign, f"{level.id}-copy")
    cells = [relocated(c, level.id, level_id, c.x, c.y, keep_custom_id=False) for c in level.cells]
    copy = with_cells(replace(level, id=level_id, title=f"{level.title} (copy)" if level.title else ""), cells)
    levels = list(campaign.levels)
    levels.insert(index + 1, copy)
    return replace(campaign, levels=tuple(levels))


def move_level(campaign: Campaign, index: int, delta: int) -> Campaign:
    target = index + delta
    if not 0 <= target < len(campaign.levels) or delta == 0:
        return campaign
    levels = list(campaign.levels)
    levels.insert(target, levels.pop(index))
    return replace(campaign, levels=tuple(levels))


def resize_level(campaign: Campaign, index: int, width: int, height: int, *, left: bool = False,
                 top: bool = False) -> Campaign:
    """New grid size, columns added or removed at the right (``left``: at the left) and rows at the
    bottom (``top``: at the top). Cards that fall off the grid are removed (undo brings them back);
    cards that move keep a custom instance id, and a default one follows their new place."""
    for field, value in (("width", width), ("height", height)):
        if not 1 <= value <= MAX_SIZE:
            raise FieldError(field, f"the {field} is a whole number from 1 to {MAX_SIZE}, not {value}")
    level = campaign.levels[index]
    if (width, height) == (level.width, level.height):
        return campaign
    dx = width - level.width if left else 0
    dy = height - level.height if top else 0
    cells = [c if (dx, dy) == (0, 0) else relocated(c, level.id, level.id, c.x + dx, c.y + dy)
             for c in level.cells if 0 <= c.x + dx < width and 0 <= c.y + dy < height]
    hero = level.hero
    if hero is not None and hero.at is not None and (dx, dy) != (0, 0):  # he stays on his tile
        x, y = hero.at[0] + dx, hero.at[1] + dy
        hero = replace(hero, at=(x, y)) if x >= 0 and y >= 0 else replace(hero, at=None)
    return with_level(campaign, index, with_cells(replace(level, width=width, height=height, hero=hero), cells))


def cut_by_resize(level: Level, width: int, height: int, *, left: bool = False, top: bool = False) -> list[Cell]:
    """The cards a resize would remove (see :func:`resize_level`)."""
    dx = width - level.width if left else 0
    dy = height - level.height if top else 0
    return [c for c in level.cells if not (0 <= c.x + dx < width and 0 <= c.y + dy < height)]


def set_level_meta(campaign: Campaign, index: int, level_id: str, title: str) -> Campaign:
    """Rename a level: ladders leading to it and its default cell ids follow the new id."""
    level = campaign.levels[index]
    if not is_schema_id(level_id):
        raise FieldError("id", f"{level_id!r} is not a level id: lower-case letters, digits and hyphens, "
                               "at most 64")
    if len(title) > 120:
        raise FieldError("title", f"the title is at most 120 characters, not {len(title)}")
    if (level_id, title) == (level.id, level.title):
        return campaign
    if level_id != level.id and campaign.level(level_id) is not None:
        raise FieldError("id", f"a level with id {level_id!r} exists already")
    old = level.id
    levels = []
    for i, lv in enumerate(campaign.levels):
        cells = [replace(c, to=level_id) if c.to == old and level_id != old else c for c in lv.cells]
        if i == index:
            cells = [relocated(c, old, level_id, c.x, c.y) for c in cells]
            lv = replace(lv, id=level_id, title=title)
        levels.append(with_cells(lv, cells) if cells != list(lv.cells) or i == index else lv)
    return replace(campaign, levels=tuple(levels))


# --------------------------------------------------------------------------- campaign


def set_story(campaign: Campaign, level_index: int | None, text: str) -> Campaign:
    """The campaign's story (``level_index`` None) or a level's preface."""
    if level_index is None:
        return campaign if campaign.story == text else replace(campaign, story=text)
    level = campaign.levels[level_index]
    return campaign if level.story == text else with_level(campaign, level_index, replace(level, story=text))


def _schema_checked(properties: Mapping, values: Mapping) -> None:
    """Each value against its part of a schema (``properties``): the first one refused is a FieldError
    naming its field, with jsonschema's best message."""
    for key, value in values.items():
        error = best_match(Draft202012Validator(properties[key]).iter_errors(value))
        if error is not None:
            raise FieldError(key, f"{key}: {error.message}")


CAMPAIGN_FIELDS = ("id", "title", "author", "description", "kind", "rules", "seed", "allow_ladder_cycles")


def set_metadata(campaign: Campaign, **changes) -> Campaign:
    """Campaign fields (id, title, author, description, kind, rules, seed, allow_ladder_cycles), each
    checked against its part of the campaign schema (else ValueError)."""
    unknown = set(changes) - set(CAMPAIGN_FIELDS)
    if unknown:
        raise ValueError(f"not campaign metadata: {', '.join(sorted(unknown))}")
    _schema_checked(load_schema("campaign.schema.json")["properties"], changes)
    if all(getattr(campaign, k) == v for k, v in changes.items()):
        return campaign
    return replace(campaign, **changes)


def set_hero(campaign: Campaign, character: str, items: tuple[str, ...] = (), equipped: tuple[str, ...] = ()) -> Campaign:
    # (a draft's misspelt keys of the hero, kept as written, stay: the metadata form sets his fields too)
    hero = replace(campaign.hero, character=character, items=tuple(items), equipped=tuple(equipped))
    return campaign if hero == campaign.hero else replace(campaign, hero=hero)


# --------------------------------------------------------------------------- a draft's misspelt keys


class OutOfDate(ValueError):
    """A problem found by a check of another version of the campaign: what its path leads to now is not what the
    check found there."""


def _key_holder(data: dict, path: tuple) -> dict | None:
    """The object (cell, level, hero, card entry...) holding the key at ``path`` of a campaign's canonical form
    ``data``, None when the path leads to no such key."""
    parent: object = data
    for step in path[:-1]:
        parent = _step(parent, step)
    return parent if isinstance(parent, dict) and path[-1:] and path[-1] in parent else None


def key_unchanged(checked: Campaign, campaign: Campaign, path: tuple) -> bool:
    """Whether ``path`` (a CR103 problem's, found by a check of ``checked``) leads in ``campaign`` to the very key the
    check found: the same spelling with the same value, in the same object. The problems panel keeps its problems
    until the next check ends, so after an edit not yet checked (a level added, removed or moved, a cell removed) the
    path can lead to another level's or cell's key of the same spelling. An object in a list is the same when it is
    the level of the same id or the cell at the same place (:func:`_identity`); what else it holds may have changed
    (another key mended, a cell edited), and this key is still the one to mend."""
    from cardrogue.engine.format.canonical import campaign_to_dict

    then: object = campaign_to_dict(checked)
    now: object = campaign_to_dict(campaign)
    for step in path[:-1]:
        then, now = _step(then, step), _step(now, step)
        if then is _MISSING or now is _MISSING or isinstance(step, int) and _identity(then) != _identity(now):
            return False
    key = path[-1] if path else None
    return isinstance(then, dict) and isinstance(now, dict) and key in then and key in now and then[key] == now[key]


_MISSING = object()


def _step(holder: object, step: object) -> object:
    """``holder[step]`` in a campaign's canonical form, or _MISSING where there is no such item."""
    if isinstance(holder, dict) and step in holder:
        return holder[step]  # type: ignore[index]
    if isinstance(holder, list) and isinstance(step, int) and 0 <= step < len(holder):
        return holder[step]
    return _MISSING


def _identity(item: object) -> object:
    """What makes an item of a list the same one after other edits: a level's id, a cell's place; any other item is
    itself, whole."""
    if isinstance(item, dict):
        for name in ("id", "at"):
            if name in item:
                return name, item[name]
    return item


def mend_key(campaign: Campaign, path: tuple, to: str | None, checked: Campaign | None = None) -> Campaign:
    """A draft's property the format does not know (CR103 at ``path``, its key last: ``"inscripton"``) renamed
    ``to`` the key meant, or removed (``to`` None): the campaign as a file with that change would load, its
    draft (ValueError when it would not: a value of the wrong kind for the key meant). ``path`` is the
    canonical form's, as the problems panel's diagnostics are; ``checked``, the campaign their check read: the key is
    mended only where it is still the one the check found (:func:`key_unchanged`), else :class:`OutOfDate`."""
    from cardrogue.engine.format.canonical import campaign_to_dict, dumps
    from cardrogue.engine.format.loader import load_campaign_text

    key = path[-1]
    if checked is not None and not key_unchanged(checked, campaign, path):
        raise OutOfDate(f"{key!r} is no longer where the last check found it (the campaign changed since)")
    data = campaign_to_dict(campaign)
    parent = _key_holder(data, path)
    if parent is None:
        raise ValueError(f"no property {key!r} there any more")
    if to is not None and to in parent:
        raise ValueError(f"{to!r} is there already: remove {key!r} instead, or change {to!r} first")
    value = parent.pop(key)
    if to is not None:
        parent[to] = value
    result = load_campaign_text(dumps(data), "<campaign>")
    if result.draft is None:
        first = result.errors[0] if result.errors else None
        raise ValueError(f"{key!r} cannot become {to!r}: {first.message if first else 'the campaign would not load'}")
    return result.draft


# --------------------------------------------------------------------------- goals


GOAL_VERBS = ("slay", "open", "buy")


def goal_targets(campaign: Campaign, li: int) -> dict[str, tuple[str, ...]]:
    """What a new goal of each kind can name on level ``li``: the enemies on it (slay), the chest
    when it holds one (open), the cards its shops sell (buy); goals it already has left out."""
    level, cards = campaign.levels[li], campaign.cards
    on_level = {c.card for c in level.cells}
    found = {
        "slay": sorted(card for card in on_level if card in cards and cards[card].is_enemy),
        "open": [CHEST] if CHEST in on_level else [],
        "buy": sorted({item for c in level.cells for item in c.stock if item in cards}),
    }
    return {verb: tuple(card for card in targets if Goal(verb, card) not in level.goals)
            for verb, targets in found.items()}


def add_goal(campaign: Campaign, li: int, verb: str, card: str) -> Campaign:
    """Add ``{verb: card}`` to the level's goals: the card must exist, fit the verb and be one the
    level can meet (an enemy on it, its chest, a card its shop sells; CR201, CR217, CR221)."""
    level = campaign.levels[li]
    goal = _goal(level, li, len(level.goals), verb, card, campaign)
    if goal in level.goals:
        return campaign
    return with_level(campaign, li, replace(level, goals=level.goals + (goal,)))


def mend_goal(campaign: Campaign, li: int, index: int, verb: str, card: str) -> Campaign:
    """Goal ``index`` of the level made ``{verb: card}`` (a draft's goal whose verb is misspelt, ``"slayy"``,
    mended in place), held to what :func:`add_goal` holds a new goal to; a goal the level has already
    is not made twice: the mended one is removed."""
    level = campaign.levels[li]
    if not 0 <= index < len(level.goals):
        return campaign
    goal = _goal(level, li, index, verb, card, campaign)
    others = level.goals[:index] + level.goals[index + 1:]
    goals = others if goal in others else level.goals[:index] + (goal,) + level.goals[index + 1:]
    return with_level(campaign, li, replace(level, goals=goals))


def _goal(level: Level, li: int, gi: int, verb: str, card: str, campaign: Campaign) -> Goal:
    verb, card = verb.strip().lower(), card.strip()
    if verb not in GOAL_VERBS:
        raise FieldError("verb", f"a goal is slay, open or buy, not {verb!r}")
    if not card:
        raise FieldError("card", "pick what the goal is about")
    goal = Goal(verb, card)
    refuse(goal_problems(level, li, gi, goal, campaign.cards))
    return goal


def remove_goal(campaign: Campaign, li: int, index: int) -> Campaign:
    level = campaign.levels[li]
    if not 0 <= index < len(level.goals):
        return campaign
    goals = level.goals[:index] + level.goals[index + 1:]
    return with_level(campaign, li, replace(level, goals=goals))


# --------------------------------------------------------------------------- shop stock, chest contents


def check_item_ids(campaign: Campaign, ids: Iterable[str]) -> tuple[str, ...]:
    """Card ids a shop can sell or a chest can hold: known cards that are items (else RuleError)."""
    ids = tuple(ids)
    refuse(item_problems(ids, campaign.cards, ("items",)))
    return ids


def set_cell_items(campaign: Campaign, li: int, x: int, y: int, ids: Iterable[str]) -> Campaign:
    """A shop's stock or a chest's contents, checked against the campaign's cards; on another card, a
    draft's stock or contents (CR218) can only be emptied."""
    cell = campaign.levels[li].cell_at(x, y)
    ids = tuple(ids)
    if cell is not None and cell.card not in (SHOP, CHEST) and not ids and (cell.stock or cell.contents):
        return _edit_cell(campaign, li, x, y, stock=(), contents=())
    if cell is None or cell.card not in (SHOP, CHEST):
        raise ValueError("only a shop has stock and only a chest has contents")
    items = check_item_ids(campaign, ids)
    field = "stock" if cell.card == SHOP else "contents"
    return _edit_cell(campaign, li, x, y, **{field: items})


# --------------------------------------------------------------------------- potions


def set_potions(campaign: Campaign, potions: Mapping[str, str]) -> Campaign:
    """Potion colour identities (colour -> effect); colours left out are fixed from the seed."""
    chosen = {c: e for c, e in potions.items() if e}
    for colour, effect in chosen.items():
        if colour not in POTION_COLOURS:
            raise ValueError(f"{colour!r} is not a potion colour ({', '.join(POTION_COLOURS)})")
        if effect not in POTION_EFFECTS:
            raise FieldError(colour, f"{effect!r} is not a potion effect ({', '.join(POTION_EFFECTS)})")
    refuse(potion_problems(chosen))
    ordered = {c: chosen[c] for c in POTION_COLOURS if c in chosen}
    # a draft's misspelt colours ("redd"), kept as written: their CR103 offers to rename or remove them
    ordered |= {c: e for c, e in campaign.potions.items() if c not in POTION_COLOURS}
    if ordered == dict(campaign.potions):
        return campaign
    return replace(campaign, potions=MappingProxyType(ordered))


# --------------------------------------------------------------------------- the campaign's own cards


CARD_FIELDS = ("name", "kind", "text", "attack", "health", "gold", "sellable", "tradable", "throwable", "cursed",
               "slot", "colour", "victory_points", "max_health", "abilities")
CARD_FLAGS = ("sellable", "tradable", "throwable", "cursed")
SLOTS = ("head", "chest", "feet", "primary", "secondary", "both-hands")


def card_number_bounds() -> dict[str, tuple[int, int]]:
    """The card fields that are whole numbers, with their bounds, as the card schema gives them."""
    fields = load_schema("cards.schema.json")["$defs"]["card"]["properties"]
    return {k: (f["minimum"], f["maximum"]) for k, f in fields.items() if f.get("type") == "integer"}


def card_entry(campaign: Campaign, card_id: str, values: Mapping[str, object]) -> dict:
    """The file entry for a card definition, checked as the loader checks it (else ValueError).

    ``values`` has the fields of :data:`CARD_FIELDS` (``None`` or ``""``: not given). The entry
    keeps only what differs from the card without it: for an override, the catalog card; for a
    new card, a card's defaults (sellable, tradable, not throwable, not cursed, no victory points).
    """
    if not is_schema_id(card_id):
        raise FieldError("id", f"{card_id!r} is not a card id: lower-case letters, digits and hyphens")
    base = default_catalog().get(card_id)
    given = {k: v for k, v in values.items() if v not in (None, "", ())}
    kind = given.get("kind", base.kind.value if base else None)
    if kind not in {k.value for k in CardKind}:
        raise FieldError("kind", f"the kind is one of {', '.join(k.value for k in CardKind)}")
    kind = CardKind(kind)
    if "slot" in given and given["slot"] not in SLOTS:
        raise FieldError("slot", f"the slot is one of {', '.join(SLOTS)}")
    if "colour" in given and given["colour"] not in POTION_COLOURS:
        raise FieldError("colour", f"the colour is one of {', '.join(POTION_COLOURS)}")
    for key, (lo, hi) in card_number_bounds().items():
        value = given.get(key)
        if key in given and (isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi):
            raise FieldError(key, f"{key.replace('_', ' ')} is a whole number from {lo} to {hi}, not {value!r}")
    for key in CARD_FLAGS:
        if key in given and not isinstance(given[key], bool):
            raise FieldError(key, f"{key} is true or false, not {given[key]!r}")
    without = base if base is not None else CardDef(card_id, "", kind)
    entry: dict = {}
    for key in CARD_FIELDS:
        if key not in given:
            continue
        value = list(given[key]) if key == "abilities" else given[key]
        old = [str(a) for a in without.abilities] if key == "abilities" else getattr(without, key)
        if (old.value if isinstance(old, CardKind) else old) != value:
            entry[key] = value
    if base is None:
        entry["kind"] = kind.value
    refuse([d for d in card_entry_problems(card_id, entry) if d.severity is Severity.ERROR])  # a warning is listed, not refused
    return entry


def set_card(campaign: Campaign, card_id: str, entry: Mapping) -> Campaign:
    """Add or replace the campaign's entry for ``card_id`` (an empty entry for a catalog card: no override)."""
    base = default_catalog().get(card_id)
    entries = dict(campaign.card_entries)
    if not entry and base is not None:
        entries.pop(card_id, None)
    else:
        entries[card_id] = dict(entry)
    if entries == {k: dict(v) for k, v in campaign.card_entries.items()}:
        return campaign
    cards = dict(campaign.cards)
    cards[card_id] = card_from_dict(card_id, dict(entry), base) if card_id in entries else base
    return replace(campaign, cards=MappingProxyType(cards), card_entries=MappingProxyType(entries))


def card_uses(campaign: Campaign, card_id: str) -> list[str]:
    """Where a card is used: the hero, a level's practice hero, cells, stock, contents, goals."""
    uses = []
    hero = campaign.hero
    if card_id in (hero.character, *hero.items, *hero.equipped):
        uses.append("the hero")
    for level in campaign.levels:
        if level.hero is not None and card_id in (*(level.hero.items or ()), *(level.hero.equipped or ())):
            uses.append(f"{level.id} hero")
        for cell in level.cells:
            if card_id == cell.card or card_id in cell.stock or card_id in cell.contents:
                uses.append(f"{level.id} {place_text(cell.x, cell.y)}")
        if any(g.card == card_id for g in level.goals):
            uses.append(f"{level.id} goals")
    return uses


def remove_card(campaign: Campaign, card_id: str) -> Campaign:
    """Drop the campaign's entry: an override reverts to the catalog; a new card must be unused."""
    if card_id not in campaign.card_entries:
        return campaign
    base = default_catalog().get(card_id)
    if base is None:
        uses = card_uses(campaign, card_id)
        if uses:
            raise ValueError(f"{card_id!r} is still used at {', '.join(uses[:3])}{' …' if len(uses) > 3 else ''}")
    entries = {k: v for k, v in campaign.card_entries.items() if k != card_id}
    cards = dict(campaign.cards)
    if base is None:
        del cards[card_id]
    else:
        cards[card_id] = base
    return replace(campaign, cards=MappingProxyType(cards), card_entries=MappingProxyType(entries))


# --------------------------------------------------------------------------- the hero


def set_hero_checked(campaign: Campaign, character: str, items: Iterable[str], equipped: Iterable[str]) -> Campaign:
    """The hero's character, starting hand and equipment, checked against the campaign's cards."""
    items, equipped = tuple(items), tuple(equipped)
    refuse(hero_problems(Hero(character, items, equipped), campaign.cards))
    if len(items) > 32:
        raise FieldError("items", "at most 32 starting items")
    if len(equipped) > 6:
        raise FieldError("equipped", "at most 6 equipped cards")
    return set_hero(campaign, character, items, equipped)


def set_level_hero(campaign: Campaign, li: int, hero: LevelHero | None) -> Campaign:
    """A level's practice hero (``None``, or no field set: none, the campaign hero's), checked as the
    loader checks it: each field against the level schema's ``hero`` (FieldError naming it), his
    cards as the campaign hero's (CR201, CR217). A tile he cannot stand on (CR225) is kept, as a
    draft's problem: the map may still change under him."""
    level = campaign.levels[li]
    if hero is not None and level.hero is not None and level.hero.unknown:
        hero = replace(hero, unknown=level.hero.unknown)  # a draft's misspelt keys of his, kept as written
    if hero is not None and hero == LevelHero():
        hero = None
    if hero is not None:
        schema = load_schema("campaign.schema.json")["$defs"]["level"]["properties"]["hero"]["properties"]
        _schema_checked(schema, level_hero_to_dict(hero))
        problems = level_hero_problems(replace(level, hero=hero), li, campaign.cards)
        refuse([d for d in problems if "at" not in d.path])
    return campaign if hero == level.hero else with_level(campaign, li, replace(level, hero=hero))
