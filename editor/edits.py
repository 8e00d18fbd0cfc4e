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
from typing import Iterable

from cardrogue.engine.canonical import default_cell_id
from cardrogue.engine.model import (
    DESCENDING_LADDER,
    DIRECTIONS,
    STARTING_TILE,
    Campaign,
    Cell,
    Direction,
    Hero,
    Level,
    canonical_paths,
)

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


# --------------------------------------------------------------------------- helpers


def with_cells(level: Level, cells: Iterable[Cell]) -> Level:
    """A level with new cells, its place index rebuilt (``replace`` alone would keep the old one)."""
    return replace(level, cells=tuple(sorted(cells, key=lambda c: (c.y, c.x))), by_pos={})


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


def unique_level_id(campaign: Campaign, base: str) -> str:
    taken = {lv.id for lv in campaign.levels}
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


# --------------------------------------------------------------------------- cells


def place_card(campaign: Campaign, li: int, x: int, y: int, card: str) -> Campaign:
    """Put ``card`` on a place of the grid.

    On an occupied place the card is swapped and the cell keeps its paths and face.
    On an empty place the new cell is joined to its occupied neighbours (a path on
    both edges), so painting a line of cards makes a corridor.
    """
    level = campaign.levels[li]
    if not (0 <= x < level.width and 0 <= y < level.height):
        return campaign
    old = level.cell_at(x, y)
    if old is not None:
        if old.card == card:
            return campaign
        face_up = True if card == STARTING_TILE else old.face_up
        to = old.to if card == DESCENDING_LADDER else None
        new = replace(old, card=card, face_up=face_up, to=to, stock=(), contents=())
        return with_level(campaign, li, with_cells(level, [new if c is old else c for c in level.cells]))
    joined: dict[tuple[int, int], Cell] = {}
    paths = ""
    for d in DIRECTIONS:
        other = level.cell_at(*d.step(x, y))
        if other is not None:
            paths += d.value
            joined[other.pos] = replace(other, paths=canonical_paths(other.paths + d.opposite.value))
    new = Cell(x=x, y=y, card=card, paths=canonical_paths(paths), face_up=card == STARTING_TILE)
    cells = [joined.get(c.pos, c) for c in level.cells] + [new]
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
    return campaign if cell is None else _edit_cell(campaign, li, x, y, face_up=not cell.face_up)


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
    """A new 5x5 level holding a starting tile, inserted at ``index``."""
    level_id = unique_level_id(campaign, "level")
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


def resize_level(campaign: Campaign, index: int, width: int, height: int) -> Campaign:
    """New grid size; cells that fall outside it are removed (undo brings them back)."""
    width, height = max(1, min(MAX_SIZE, width)), max(1, min(MAX_SIZE, height))
    level = campaign.levels[index]
    if (width, height) == (level.width, level.height):
        return campaign
    cells = [c for c in level.cells if c.x < width and c.y < height]
    return with_level(campaign, index, with_cells(replace(level, width=width, height=height), cells))


def set_level_meta(campaign: Campaign, index: int, level_id: str, title: str) -> Campaign:
    """Rename a level: ladders leading to it and its default cell ids follow the new id."""
    level = campaign.levels[index]
    if (level_id, title) == (level.id, level.title) or not level_id:
        return campaign
    if level_id != level.id and campaign.level(level_id) is not None:
        raise ValueError(f"a level with id {level_id!r} exists already")
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


CAMPAIGN_FIELDS = ("id", "title", "author", "description", "kind", "rules", "seed")


def set_metadata(campaign: Campaign, **changes) -> Campaign:
    """Campaign fields (id, title, author, description, kind, rules, seed)."""
    unknown = set(changes) - set(CAMPAIGN_FIELDS)
    if unknown:
        raise ValueError(f"not campaign metadata: {', '.join(sorted(unknown))}")
    if all(getattr(campaign, k) == v for k, v in changes.items()):
        return campaign
    return replace(campaign, **changes)


def set_hero(campaign: Campaign, character: str, items: tuple[str, ...] = (), equipped: tuple[str, ...] = ()) -> Campaign:
    hero = Hero(character, tuple(items), tuple(equipped))
    return campaign if hero == campaign.hero else replace(campaign, hero=hero)
