"""Where a problem is on the map: its level and cell, filled in from its JSON path.

The rules checks place their diagnostics themselves; the schema's carry only the path
(``levels[0].cells[2].card``), whose cell index counts the cells of the text that was checked. The
canonical text (what the editor saves and checks) lists each level's cells by row, then column; a
file opened lists them in its own order. No Textual here: the save and open paths use it too.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from cardrogue.engine.format.diagnostics import Diagnostic
from cardrogue.engine.model.campaign import Campaign, row_major

CellPlace = Callable[[int, int], "tuple[int, int] | None"]
"""``(level, index)`` -> the place of the cell at that index of the level's list in the text checked."""


def placed(diag: Diagnostic, cell_place: CellPlace) -> Diagnostic:
    """The diagnostic with its level and cell filled in from its JSON path when the check left them out."""
    path = diag.path
    level, cell = diag.level, diag.cell
    if level is None and len(path) >= 2 and path[0] == "levels" and isinstance(path[1], int):
        level = path[1]
    if cell is None and level is not None and len(path) >= 4 and path[2] == "cells" and isinstance(path[3], int):
        cell = cell_place(level, path[3])
    return diag if (level, cell) == (diag.level, diag.cell) else replace(diag, level=level, cell=cell)


def saved_places(campaign: Campaign) -> CellPlace:
    """Cell places in ``campaign``'s canonical text: each level's cells in its order (row_major)."""
    ordered: dict[int, list[tuple[int, int]]] = {}

    def place(level: int, index: int) -> tuple[int, int] | None:
        if level >= len(campaign.levels):
            return None
        if level not in ordered:
            ordered[level] = [c.pos for c in sorted(campaign.levels[level].cells, key=row_major)]
        cells = ordered[level]
        return cells[index] if index < len(cells) else None

    return place


def file_places(data: Any) -> CellPlace:
    """Cell places as a file read lists them (each cell's ``at``), for the errors found when it was opened."""

    def place(level: int, index: int) -> tuple[int, int] | None:
        try:
            at = data["levels"][level]["cells"][index]["at"]
        except (KeyError, IndexError, TypeError):  # a file of another shape: the problem has no cell
            return None
        if isinstance(at, list) and len(at) == 2 and all(type(v) is int for v in at):
            return at[0], at[1]
        return None

    return place
