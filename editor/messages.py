"""Messages the editor's widgets send upward to the app (the app owns the document)."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from cardrogue.engine.format.diagnostics import Diagnostic


@dataclass
class CursorMoved(Message):
    """The map cursor is on a new grid place."""

    x: int
    y: int


@dataclass
class PaintCell(Message):
    """Place the palette card at a grid place (a mouse click-drag); one drag is one undo step.

    ``joined_to`` is the place the drag came from: a new card is joined to the card there.
    """

    x: int
    y: int
    stroke: int
    joined_to: tuple[int, int] | None = None


@dataclass
class LevelChosen(Message):
    """The level list moved to a level (``index``), or to the campaign itself (``None``)."""

    index: int | None


@dataclass
class CardChosen(Message):
    """The palette's brush changed."""

    card: str


class MapWanted(Message):
    """A list's choice is made (Enter on a level or a card): the author goes back to the map."""


@dataclass
class ProblemChosen(Message):
    """Jump to a problem's level and cell."""

    diagnostic: Diagnostic


@dataclass
class CellFieldEdited(Message):
    """The inspector submitted a new value for a field of a cell: ``at`` (level, x, y) is the cell the
    text was typed for (None: the selected cell), which the cursor may have left since."""

    field: str
    value: str
    at: tuple[int, int, int] | None = None


@dataclass
class StoryEdited(Message):
    """The story editor's text changed (``level`` None: the campaign's story)."""

    level: int | None
    text: str
