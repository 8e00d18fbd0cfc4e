"""Finding things on a map: find a card by id or name (``/``), and an overview of a big level (``m``)."""

from __future__ import annotations

from math import ceil
from typing import Mapping

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from cardrogue.editor.shown import content
from cardrogue.editor.widgets.dialogs import AskScreen
from cardrogue.editor.widgets.footer import EditorFooter
from cardrogue.editor.widgets.map_canvas import KIND_COLOUR
from cardrogue.engine.format.diagnostics import Severity
from cardrogue.engine.model.campaign import DESCENDING_LADDER, STARTING_TILE, CardDef, Level


def matching_cells(level: Level, cards: Mapping[str, CardDef], query: str) -> list[tuple[int, int]]:
    """The places of the cards whose id or name holds ``query`` (any case), row by row.

    An id or a name matched exactly wins over the ones that only contain it: ``bat`` finds the
    cave bats and the vampire bats, ``cave bat`` only the cave bats.
    """
    wanted = query.strip().lower()
    if not wanted:
        return []

    def names(card_id: str) -> tuple[str, str]:
        card = cards.get(card_id)
        return card_id.lower(), (card.name.lower() if card else "")

    ids = {cell.card for cell in level.cells}
    exact = {i for i in ids if wanted in names(i)}
    chosen = exact or {i for i in ids if any(wanted in n for n in names(i))}
    return sorted((cell.pos for cell in level.cells if cell.card in chosen), key=lambda p: (p[1], p[0]))


def next_place(places: list[tuple[int, int]], after: tuple[int, int]) -> tuple[int, int]:
    """The first of ``places`` after ``after`` in reading order, wrapping round to the first."""
    key = (after[1], after[0])
    return next((p for p in places if (p[1], p[0]) > key), places[0])


class FindScreen(AskScreen):
    """Asks for a card id or name; enter answers it, escape None."""

    FIELD_ID, PLACEHOLDER = "find-input", "card id or name, e.g. goblin or cave bat"
    HINT = "[dim]enter: go to the next one (again: the one after)   escape: cancel[/]"


def overview_blocks(level: Level, cards: Mapping[str, CardDef], markers: Mapping[tuple[int, int], Severity],
                    columns: int, rows: int) -> list[list[tuple[str, Style]]]:
    """The glyph and style of each block of ``level`` in ``columns`` x ``rows`` characters, row by row.

    A block shows its most telling card: a problem mark, the start, a ladder, the exit, else
    the first card's kind colour (``■``), ``·`` when empty.
    """
    bw, bh = max(1, ceil(level.width / columns)), max(1, ceil(level.height / rows))
    blocks = []
    for by in range(ceil(level.height / bh)):
        row = []
        for bx in range(ceil(level.width / bw)):
            glyph, style = "·", "grey42"
            rank = 9
            for y in range(by * bh, min(level.height, (by + 1) * bh)):
                for x in range(bx * bw, min(level.width, (bx + 1) * bw)):
                    cell = level.cell_at(x, y)
                    if cell is None:
                        continue
                    severity = markers.get((x, y))
                    if severity is Severity.ERROR and rank > 0:
                        glyph, style, rank = "!", "bold red", 0
                    elif cell.card == STARTING_TILE and rank > 1:
                        glyph, style, rank = "S", "bold bright_green", 1
                    elif cell.card == DESCENDING_LADDER and rank > 2:
                        glyph, style, rank = "▼", "bold bright_cyan", 2
                    elif cell.exit and rank > 2:
                        glyph, style, rank = "X", "bold bright_green", 2
                    elif rank > 3:
                        card = cards.get(cell.card)
                        glyph, style, rank = "■", KIND_COLOUR.get(card.kind, "white") if card else "red", 3
            row.append((glyph, Style.parse(style)))
        blocks.append(row)
    return blocks


SEEN = Style(bgcolor="grey23")
PICKED = Style(reverse=True)


def blocks_text(blocks: list[list[tuple[str, Style]]], bw: int, bh: int, view: tuple[int, int, int, int],
                pick: tuple[int, int]) -> Text:
    """The ``blocks`` (:func:`overview_blocks`, each ``bw`` x ``bh`` places) as text: the map's view
    ``(x0, y0, x1, y1)`` shaded and the picked block reversed."""
    text = Text()
    x0, y0, x1, y1 = view
    for by, row in enumerate(blocks):
        run, run_style = "", None  # the blocks of a row that look alike, one span (not one a block: drawn faster)
        for bx, (glyph, style) in enumerate(row):
            if x0 // bw <= bx <= x1 // bw and y0 // bh <= by <= y1 // bh:
                style += SEEN
            if (bx, by) == pick:
                style += PICKED
            if style != run_style and run:
                text.append(run, run_style)
                run = ""
            run, run_style = run + glyph, style
        if run:
            text.append(run, run_style)
        text.append("\n")
    text.rstrip()
    return text


def overview_text(level: Level, cards: Mapping[str, CardDef], markers: Mapping[tuple[int, int], Severity],
                  columns: int, rows: int, view: tuple[int, int, int, int], pick: tuple[int, int]) -> Text:
    """The whole level in ``columns`` x ``rows`` characters, each standing for a block of places
    (:func:`overview_blocks`); the map's view ``(x0, y0, x1, y1)`` is shaded and the picked block is reversed.
    """
    bw, bh = max(1, ceil(level.width / columns)), max(1, ceil(level.height / rows))
    return blocks_text(overview_blocks(level, cards, markers, columns, rows), bw, bh, view, pick)


class OverviewScreen(ModalScreen[tuple[int, int] | None]):
    """The whole level at a glance; arrows pick a block, enter moves the map there."""

    BINDINGS = [
        Binding("escape,m,q", "dismiss(None)", "Close"),
        Binding("enter", "go", "Go there"),
        Binding("up", "pick(0,-1)", "Up", show=False), Binding("down", "pick(0,1)", "Down", show=False),
        Binding("left", "pick(-1,0)", "Left", show=False), Binding("right", "pick(1,0)", "Right", show=False),
    ]

    def __init__(self, level: Level, cards: Mapping[str, CardDef], markers: Mapping[tuple[int, int], Severity],
                 view: tuple[int, int, int, int], cursor: tuple[int, int], size: tuple[int, int]) -> None:
        super().__init__()
        self.level, self.cards, self.markers, self.view = level, cards, markers, view
        self.columns, self.rows = max(4, size[0]), max(3, size[1])
        self.bw = max(1, ceil(level.width / self.columns))
        self.bh = max(1, ceil(level.height / self.rows))
        self.pick = (cursor[0] // self.bw, cursor[1] // self.bh)
        # the blocks are the same for every pick: worked out once, not again for every arrow pressed
        self.blocks = overview_blocks(level, cards, markers, self.columns, self.rows)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog overview"):
            yield Label(content(f"Overview: {self.level.title or self.level.id}, {self.level.width}×{self.level.height}"
                                f" (one character: {self.bw}×{self.bh} places)"), classes="dialog-text")
            yield Static(id="overview-map")
            # two lines: on one (76 columns) the dialog was cut at 80 columns and so was "escape: close"
            yield Label("[dim]shaded: what the map shows now\narrows: pick   enter: go there   escape: close[/]")
        yield EditorFooter()

    def on_mount(self) -> None:
        self._show()

    def _show(self, layout: bool = True) -> None:
        self.query_one("#overview-map", Static).update(
            blocks_text(self.blocks, self.bw, self.bh, self.view, self.pick), layout=layout)

    def action_pick(self, dx: int, dy: int) -> None:
        bx = max(0, min(ceil(self.level.width / self.bw) - 1, self.pick[0] + dx))
        by = max(0, min(ceil(self.level.height / self.bh) - 1, self.pick[1] + dy))
        self.pick = (bx, by)
        # the same characters, two of them styled otherwise: the map is drawn again, its size is the same, so
        # the dialog is not laid out again (an arrow cost a layout of the whole screen: 60 arrows, seconds)
        self._show(layout=False)

    def action_go(self) -> None:
        x = min(self.level.width - 1, self.pick[0] * self.bw + self.bw // 2)
        y = min(self.level.height - 1, self.pick[1] * self.bh + self.bh // 2)
        self.dismiss((x, y))
