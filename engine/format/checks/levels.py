"""Levels and the places on their grids: ids, cells inside the grid, one card a cell, one
starting tile a level, and an exit somewhere in the campaign."""

from __future__ import annotations

from typing import Sequence

from ...model.campaign import STARTING_TILE, Campaign, CardKind, Level, level_name
from ...words import place_text
from ..canonical import default_cell_id
from ..diagnostics import Diagnostic, JsonPath
from .cards import known_card
from .cells import OWN_FIELDS, cell_field_problems, pathless_problem
from .common import Findings
from .goals import goal_problems


def level_id_problems(levels: Sequence[Level]) -> list[Diagnostic]:
    """CR202: each level has its own id (ladders name levels by id)."""
    found = Findings()
    first: dict[str, int] = {}
    for li, level in enumerate(levels):
        if level.id in first:
            found.error("CR202", f"duplicate level id {level.id!r} (level {first[level.id] + 1} has it too): "
                        "each level needs its own id", ("levels", li, "id"), level=li)
        first.setdefault(level.id, li)
    return found.items


def level_problems(campaign: Campaign, li: int, instance_ids: dict[str, tuple[int, tuple[int, int]]],
                   pathless: list[Diagnostic]) -> list[Diagnostic]:
    """The rules of one level's cells, starting tile and goals, in the order of its cells.

    ``instance_ids`` collects card instance ids across levels (CR202); ``pathless`` collects the
    CR223 warnings, which depend on the whole campaign.
    """
    found = Findings()
    level = campaign.levels[li]
    cards = campaign.cards
    first_level = {lv.id: i for i, lv in reversed(list(enumerate(campaign.levels)))}
    base: JsonPath = ("levels", li)
    by_pos: dict[tuple[int, int], int] = {}
    starts: list[int] = []
    # The hot loop of a big campaign: a JSON path and a place are built only for a cell with a problem.
    width, height = level.width, level.height
    character, own_fields = CardKind.CHARACTER, OWN_FIELDS
    for ci, cell in enumerate(level.cells):
        x, y = pos = cell.x, cell.y
        card_id = cell.card
        card = cards.get(card_id)
        if x >= width or y >= height or pos in by_pos or card is None or card.kind is character:
            if not _placed(found, card_id, pos, base + ("cells", ci), level, by_pos, campaign, {"level": li, "cell": pos}):
                continue
        by_pos[pos] = ci
        cell_id = cell.id
        if cell_id in instance_ids:
            # A repeated level id repeats every default instance id: reported once, as CR202 on the level.
            if cell_id != default_cell_id(level.id, x, y) or first_level[level.id] == li:
                other_level, other_pos = instance_ids[cell_id]
                where = "" if other_level == li else f" on {campaign.level_name(other_level)}"
                found.error("CR202", f"duplicate card instance id {cell_id!r} (the card at {other_pos}{where} has it "
                            "too): each card on the map needs its own id", base + ("cells", ci, "id"), level=li, cell=pos)
        else:
            instance_ids[cell_id] = (li, pos)
        # Fields of its own card to check (see OWN_FIELDS)
        if card_id in own_fields or cell.to is not None or cell.stock or cell.contents:
            found.extend(cell_field_problems(cell, base + ("cells", ci), cards, first_level, {"level": li, "cell": pos}))
        if card_id == STARTING_TILE:
            starts.append(ci)
        if not cell.paths:
            pathless.append(pathless_problem(cell, base + ("cells", ci), {"level": li, "cell": pos}))
    if not starts:
        found.error("CR206", f"{level_name(level, li)} has no starting tile: place a {STARTING_TILE!r}", base + ("cells",), level=li)
    for extra in starts[1:]:
        found.error("CR207", f"{level_name(level, li)} has more than one starting tile: keep one",
                    base + ("cells", extra, "card"), level=li)
    for gi, goal in enumerate(level.goals):
        found.extend(goal_problems(level, li, gi, goal, cards))
    return found.items


def _placed(found: Findings, card_id: str, pos: tuple[int, int], path: JsonPath, level: Level,
            by_pos: dict[tuple[int, int], int], campaign: Campaign, where: dict) -> bool:
    """CR203, CR204, CR201, CR217: why a cell cannot stand where it is; True when the rest of its
    rules still apply (a character card on the map)."""
    x, y = pos
    width, height = level.width, level.height
    if x >= width or y >= height:
        found.error("CR203", f"cell {place_text(x, y)} is outside the {width}x{height} grid (x 0 to {width - 1}, "
                    f"y 0 to {height - 1}): move it, or make the level larger", path + ("at",), **where)
        return False
    if pos in by_pos:
        found.error("CR204", f"two cards on cell {place_text(x, y)}: {level.cells[by_pos[pos]].card!r} is there already; "
                    "a cell holds one card", path + ("at",), **where)
        return False
    if not known_card(found, card_id, campaign.cards, path + ("card",)):
        return False
    found.error("CR217", f"{card_id!r} is a character card; it cannot be placed on the map", path + ("card",), **where)
    return True


def exit_problems(levels: Sequence[Level]) -> list[Diagnostic]:
    """CR220: the campaign is won by leaving the dungeon, so some cell is an exit."""
    found = Findings()
    if not any(cell.exit for level in levels for cell in level.cells):
        found.error("CR220", "the campaign has no exit: mark a cell of the last level as the exit "
                    "(\"exit\": true)", ("levels",))
    return found.items
