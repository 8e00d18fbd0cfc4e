"""The fields of one cell that belong to one card: a ladder's level, a shop's stock, a chest's
contents, the starting tile's face, and paths ("Walls and paths")."""

from __future__ import annotations

from typing import Any, Mapping

from ...model.campaign import CHEST, DESCENDING_LADDER, SHOP, STARTING_TILE, CardDef, Cell
from ..diagnostics import Diagnostic, JsonPath
from .cards import item_problems
from .common import Findings, nearest


# The cards whose cells :func:`cell_field_problems` always checks; any other cell has something for it
# only with ``to``, ``stock`` or ``contents`` (most cells of a big level have none: the caller skips them).
OWN_FIELDS = frozenset({DESCENDING_LADDER, STARTING_TILE})


def cell_field_problems(cell: Cell, path: JsonPath, cards: Mapping[str, CardDef], level_ids: Mapping[str, Any],
                        where: dict[str, Any]) -> list[Diagnostic]:
    """CR208 and CR205: a descending ladder names a level that exists; CR218: ``to``, ``stock``
    and ``contents`` only on the ladder, the shop and the chest, and no ladder is the exit; CR217:
    stock and contents are items; CR219: the starting tile is face up."""
    found = Findings()
    if cell.card == DESCENDING_LADDER:
        if cell.to is None:
            # the editor's level list shows titles: the ids the field takes are named here
            others = _others(level_ids, where)
            found.error("CR208", f"a descending ladder must name the level it leads to (\"to\"){_levels(others)}",
                        path, **where)
        elif cell.to not in level_ids:
            others = _others(level_ids, where)
            near = nearest(cell.to, others)
            hint = f"; did you mean {near!r}?" if near else _levels(others)
            found.error("CR205", f"ladder leads to missing level {cell.to!r}{hint}", path + ("to",), **where)
    elif cell.to is not None:
        found.error("CR218", f"only a descending ladder leads to a level; this cell holds {cell.card!r}", path + ("to",), **where)
    if cell.card == DESCENDING_LADDER and cell.exit:
        # the exit wins on arrival, so the ladder would never be taken and the levels below never played
        found.error("CR218", "a descending ladder leads down, not out: it cannot be the exit as well; "
                    "unmark the exit, or put the exit on another card", path + ("exit",), **where)
    if cell.stock and cell.card != SHOP:
        found.error("CR218", f"only a shop has stock; this cell holds {cell.card!r}", path + ("stock",), **where)
    if cell.contents and cell.card != CHEST:
        found.error("CR218", f"only a chest has contents; this cell holds {cell.card!r}", path + ("contents",), **where)
    found.extend(item_problems(cell.stock, cards, path + ("stock",), **where))
    found.extend(item_problems(cell.contents, cards, path + ("contents",), **where))
    if cell.card == STARTING_TILE and not cell.face_up:
        found.error("CR219", "the starting tile must be face up", path + ("face",), **where)
    return found.items


def pathless_problem(cell: Cell, path: JsonPath, where: dict[str, Any]) -> Diagnostic:
    """CR223 (a warning) for a cell without paths: its card can never be reached by walking; the
    caller drops it for a hero who can cross walls."""
    found = Findings()
    # the hero stands on the starting tile from the first turn: without paths he can never leave it
    fate = "the hero can never leave it" if cell.card == STARTING_TILE else "it can never be reached"
    found.warning("CR223", f"{cell.card!r} has no paths: {fate}", path, **where)
    return found.items[0]


def _others(level_ids: Mapping[str, Any], where: dict[str, Any]) -> list[str]:
    """The ids of the levels a ladder may lead to, in their order: a ladder never means the level it stands on."""
    return sorted((lid for lid, li in level_ids.items() if li != where.get("level")), key=level_ids.__getitem__)


def _levels(others: list[str]) -> str:
    """A ladder's hint: the ids of the levels it may lead to (the first five), or that there is none."""
    if not others:
        return "; the campaign has no other level for it to lead to"
    return f"; the other levels: {', '.join(repr(lid) for lid in others[:5])}{', ...' if len(others) > 5 else ''}"
