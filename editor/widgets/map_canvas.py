"""The map canvas: a level's grid drawn with the Line API.

One :class:`~textual.scroll_view.ScrollView` renders every visible line as a
:class:`~textual.strip.Strip`; there is no widget per cell, so a 64x64 level is
as quick to show as a 4x4 one. Each card is a 7x3 box::

    ┌──║──┐     ║ / ═ on an edge: a path; a plain wall: no path
    ═SGob!═     S start, ▼ ladder, X exit; three letters of the card; ! ? ◆ problem marks
    └─────┘     face up: bright; face down: dim on a shaded ground

Rows of the grid are rendered once and cached; moving the cursor re-renders the
two grid rows it leaves and enters, nothing else.

Stepping through a solution (F6) adds a :class:`StepOverlay`: the hero's marker
(``@`` on a green ground) and the face-down cards flipped so far (shown revealed).
It is a style layer put over the cached rows in :meth:`MapCanvas.render_line`, so a
step re-renders only the rows where the marker or a flip changed.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.reactive import var
from textual.events import MouseDown, MouseMove, MouseUp
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from cardrogue.editor.edits import Rect
from cardrogue.editor.messages import CursorMoved, PaintCell
from cardrogue.engine.format.diagnostics import Severity
from cardrogue.engine.printable import printable
from cardrogue.engine.model.campaign import DESCENDING_LADDER, STARTING_TILE, CardDef, CardKind, Cell, Level

CELL_W = 7
CELL_H = 3

KIND_COLOUR = {
    CardKind.ENEMY: "red",
    CardKind.BOSS: "magenta",
    CardKind.WEAPON: "cyan",
    CardKind.ARMOUR: "blue",
    CardKind.SCROLL: "yellow",
    CardKind.POTION: "green",
    CardKind.ARTIFACT: "bright_magenta",
    CardKind.TRAP: "dark_orange",
    CardKind.TILE: "white",
    CardKind.ITEM: "yellow",
    CardKind.CHARACTER: "white",
}
_MARK = {Severity.ERROR: ("!", "bold red"), Severity.WARNING: ("?", "bold yellow"), Severity.INFO: ("◆", "bold cyan")}
_RANK = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


MARKER_FRAME = Style(color="bright_green", bold=True)
MARKER_INNER = Style(color="bright_white", bgcolor="dark_green", bold=True, dim=False, italic=False)
FLIPPED_INNER = Style(bgcolor="grey35", dim=False, italic=False, bold=True)


@dataclass(frozen=True)
class StepOverlay:
    """What a solution step shows on the map: the hero's place and the cards flipped so far."""

    marker: tuple[int, int] | None
    flipped: frozenset[tuple[int, int]] = frozenset()

    def rows(self) -> set[int]:
        return ({self.marker[1]} if self.marker else set()) | {y for _, y in self.flipped}


def abbreviation(card: CardDef | None, card_id: str) -> str:
    """Three letters naming a card on the map (a plain pathing tile shows as a corridor)."""
    if card_id == "pathing-tile":
        return " + "
    name = printable(card.name if card else card_id)
    words = [w for w in name.replace("-", " ").replace("'", "").split() if w]
    if not words:
        return "???"
    if len(words) == 1:
        return words[0][:3].capitalize().ljust(3)
    return (words[0][:2].capitalize() + words[1][0].upper()).ljust(3)


class MapCanvas(ScrollView, can_focus=True):
    """The level's grid; keyboard cursor, mouse select and drag-to-paint."""

    BINDINGS = [
        Binding("up", "move(0,-1)", "Up", show=False),
        Binding("down", "move(0,1)", "Down", show=False),
        Binding("left", "move(-1,0)", "Left", show=False),
        Binding("right", "move(1,0)", "Right", show=False),
        Binding("shift+up", "extend(0,-1)", "Select", show=False),
        Binding("shift+down", "extend(0,1)", "Select", show=False),
        Binding("shift+left", "extend(-1,0)", "Select", show=False),
        Binding("shift+right", "extend(1,0)", "Select", show=False),
        Binding("home", "jump(0)", "Row start", show=False),
        Binding("end", "jump(1)", "Row end", show=False),
        Binding("escape", "clear_selection", "Clear selection", show=False),
        Binding("enter,space", "app.place", "Place"),
        Binding("r", "app.rotate(True)", "Rotate"),
        Binding("R", "app.rotate(False)", "Rotate ↺", show=False),
        Binding("f", "app.toggle_face", "Face"),
        Binding("n", "app.toggle_path('N')", "Path N", show=False),
        Binding("e", "app.toggle_path('E')", "Path E", show=False),
        Binding("s", "app.toggle_path('S')", "Path S", show=False),
        Binding("w", "app.toggle_path('W')", "Path W", show=False),
        Binding("x", "app.toggle_exit", "Exit", show=False),
        Binding("delete,backspace", "app.delete", "Delete"),
        Binding("c", "app.copy", "Copy"),
        Binding("v", "app.paste", "Paste"),
        Binding("i", "app.cell_items", "Stock", show=False),
        Binding("g", "app.add_goal", "Goal", show=False),
        Binding("G", "app.remove_goal", "Remove goal", show=False),
        Binding("full_stop", "app.solution_step(1)", "Next step"),
        Binding("comma", "app.solution_step(-1)", "Previous step"),
    ]

    DEFAULT_CSS = """
    MapCanvas { background: $surface; }
    """

    cursor: var[tuple[int, int]] = var((0, 0), init=False)
    """The cursor's grid place; kept inside the grid, and a move redraws the rows it leaves and enters."""
    anchor: var[tuple[int, int] | None] = var(None, init=False)
    """The selection's other corner (None: nothing selected, the selection is the cursor's place)."""

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.level: Level | None = None
        self.cards: dict[str, CardDef] = {}
        self.markers: dict[tuple[int, int], Severity] = {}
        # Where the cursor was before its last move: a card placed now is joined to the card there.
        self.came_from: tuple[int, int] | None = None
        self._rows: dict[int, tuple[Strip, Strip, Strip]] = {}
        # Drawn cells by (cell, base style, cursor, selected, mark): a row redraw reuses all but the changed ones.
        self._cells: dict[tuple, tuple[list[Segment], list[Segment], list[Segment]]] = {}
        self._stroke = 0
        self._painting = False
        self._last_paint: tuple[int, int] | None = None
        self.overlay: StepOverlay | None = None

    # ------------------------------------------------------------------ state from the app

    def show(self, level: Level, cards, markers: dict[tuple[int, int], Severity] | None = None) -> None:
        """Show a level (or a new version of it); the cursor stays where it was, inside the grid."""
        self.level = level
        if cards is not self.cards or len(self._cells) > 50_000:
            self._cells.clear()
        self.cards = cards
        if markers is not None:
            self.markers = markers
        self.cursor = self.validate_cursor(self.cursor)
        self.anchor = self.validate_anchor(self.anchor)
        self._rows.clear()
        self.virtual_size = Size(level.width * CELL_W, level.height * CELL_H)
        self.refresh()

    def set_markers(self, markers: dict[tuple[int, int], Severity]) -> None:
        if markers != self.markers:
            self.markers = markers
            self._rows.clear()
            self.refresh()

    def set_overlay(self, overlay: StepOverlay | None) -> None:
        """Show a solution step (None: none); only the grid rows whose overlay changed are redrawn."""
        old, self.overlay = self.overlay, overlay
        if old == overlay:
            return
        rows: set[int] = set()
        if old is not None and overlay is not None:
            if old.marker != overlay.marker:
                rows |= {p[1] for p in (old.marker, overlay.marker) if p is not None}
            rows |= {y for _, y in old.flipped ^ overlay.flipped}
        else:
            rows = (old or overlay).rows()  # type: ignore[union-attr]
        for row in rows:
            self.refresh_lines(row * CELL_H, CELL_H)
        if overlay is not None and overlay.marker is not None and overlay.marker != (old.marker if old else None):
            self.scroll_to_region_of(*overlay.marker)

    def _inside(self, place: tuple[int, int]) -> tuple[int, int]:
        if self.level is None:
            return place
        return (max(0, min(self.level.width - 1, place[0])), max(0, min(self.level.height - 1, place[1])))

    def validate_cursor(self, cursor: tuple[int, int]) -> tuple[int, int]:
        return self._inside(cursor)

    def validate_anchor(self, anchor: tuple[int, int] | None) -> tuple[int, int] | None:
        return None if anchor is None else self._inside(anchor)

    def watch_cursor(self, old: tuple[int, int], new: tuple[int, int]) -> None:
        self.came_from = old
        corner = [self.anchor[1]] if self.anchor is not None else []
        self._refresh_rows(min([old[1], new[1]] + corner), max([old[1], new[1]] + corner))
        self.post_message(CursorMoved(*new))

    def watch_anchor(self, old: tuple[int, int] | None, new: tuple[int, int] | None) -> None:
        rows = [self.cursor[1]] + [p[1] for p in (old, new) if p is not None]
        self._refresh_rows(min(rows), max(rows))

    @property
    def selection(self) -> Rect:
        """The selected rectangle: the cursor's place when nothing is selected."""
        return Rect.spanning(self.anchor or self.cursor, self.cursor)

    def move_to(self, x: int, y: int, extend: bool = False) -> None:
        """Move the cursor (``extend``: grow the selection from where the cursor was) and scroll to it."""
        if self.level is None:
            return
        if extend and self.anchor is None:
            self.anchor = self.cursor
        elif not extend:
            self.anchor = None
        self.cursor = (x, y)
        self.scroll_to_region_of(*self.cursor)

    def scroll_to_region_of(self, x: int, y: int) -> None:
        from textual.geometry import Region

        self.scroll_to_region(Region(x * CELL_W, y * CELL_H, CELL_W, CELL_H), animate=False, immediate=True)

    def _refresh_rows(self, first: int, last: int) -> None:
        for row in range(first, last + 1):
            self._rows.pop(row, None)
        self.refresh_lines(first * CELL_H, (last - first + 1) * CELL_H)

    # ------------------------------------------------------------------ keys

    def action_move(self, dx: int, dy: int) -> None:
        self.move_to(self.cursor[0] + dx, self.cursor[1] + dy)

    def action_extend(self, dx: int, dy: int) -> None:
        self.move_to(self.cursor[0] + dx, self.cursor[1] + dy, extend=True)

    def action_jump(self, end: int) -> None:
        if self.level is not None:
            self.move_to(self.level.width - 1 if end else 0, self.cursor[1])

    async def action_clear_selection(self) -> None:
        if self.overlay is not None:
            await self.run_action("app.leave_steps")  # escape first leaves the solution steps
            return
        if self.anchor is not None:
            self.move_to(*self.cursor)

    # ------------------------------------------------------------------ mouse

    def _place_at(self, event) -> tuple[int, int] | None:
        offset = event.get_content_offset(self)
        if offset is None or self.level is None:
            return None
        x = (offset.x + int(self.scroll_x)) // CELL_W
        y = (offset.y + int(self.scroll_y)) // CELL_H
        if 0 <= x < self.level.width and 0 <= y < self.level.height:
            return x, y
        return None

    def on_mouse_down(self, event: MouseDown) -> None:
        place = self._place_at(event)
        if place is None or event.button != 1:
            return
        self.focus()
        self.move_to(*place, extend=event.shift)
        self._painting = not event.shift
        self._last_paint = place
        self._stroke += 1
        self.capture_mouse()

    def on_mouse_move(self, event: MouseMove) -> None:
        if not self._painting:
            return
        place = self._place_at(event)
        if place is None or place == self._last_paint:
            return
        came_from = self._last_paint
        if came_from is not None and came_from == self.cursor and self.level.cell_at(*came_from) is None:
            # The first place of a drag is painted once the drag really starts; a drag that starts
            # on a card leads out of it, a road from that card.
            self.post_message(PaintCell(*came_from, self._stroke))
        self._last_paint = place
        self.move_to(*place)
        self.post_message(PaintCell(*place, self._stroke, came_from))

    def on_mouse_up(self, event: MouseUp) -> None:
        if self._painting:
            self._painting = False
            self._last_paint = None
            self.release_mouse()

    # ------------------------------------------------------------------ rendering

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        line = y + scroll_y
        width = self.size.width
        level = self.level
        if level is None or line >= level.height * CELL_H:
            return Strip.blank(width, self.rich_style)
        row = line // CELL_H
        strips = self._rows.get(row)
        if strips is None:
            strips = self._rows[row] = self._render_row(row)
        strip = strips[line % CELL_H]
        if self.overlay is not None:
            strip = self._layer(strip, row, line % CELL_H)
        return strip.crop_extend(scroll_x, scroll_x + width, self.rich_style)

    def _layer(self, strip: Strip, row: int, sub: int) -> Strip:
        """The solution overlay as a style layer over one cached line of grid row ``row``."""
        overlay = self.overlay
        assert overlay is not None and self.level is not None
        spans: list[tuple[int, int, Style, str | None]] = []  # (start, end, style, replacement text)
        for fx, fy in overlay.flipped:
            if fy == row and sub == 1 and overlay.marker != (fx, fy) and self.level.cell_at(fx, fy) is not None:
                spans.append((fx * CELL_W + 1, fx * CELL_W + CELL_W - 1, FLIPPED_INNER, None))
        if overlay.marker is not None and overlay.marker[1] == row:
            x0 = overlay.marker[0] * CELL_W
            if sub == 1:
                spans += [(x0, x0 + 1, MARKER_FRAME, None), (x0 + 1, x0 + 2, MARKER_INNER, "@"),
                          (x0 + 2, x0 + CELL_W - 1, MARKER_INNER, None), (x0 + CELL_W - 1, x0 + CELL_W, MARKER_FRAME, None)]
            else:
                spans.append((x0, x0 + CELL_W, MARKER_FRAME, None))
        if not spans:
            return strip
        spans.sort()
        cuts = sorted(({c for a, b, _, _ in spans for c in (a, b)} | {strip.cell_length}) - {0})
        pieces = strip.divide(cuts)
        starts = [0] + cuts[:-1]
        by_start = {a: (st, text) for a, _, st, text in spans}
        out = []
        for start, piece in zip(starts, pieces):
            layer = by_start.get(start)
            if layer is None:
                out.append(piece)
                continue
            style, text = layer
            if text is not None:
                under = next((seg.style for seg in piece if seg.style is not None), None) or Style()
                out.append(Strip([Segment(text, under + style)], len(text)))
            else:
                out.append(Strip(Segment.apply_style(list(piece), post_style=style), piece.cell_length))
        return Strip.join(out)

    def _render_row(self, row: int) -> tuple[Strip, Strip, Strip]:
        level = self.level
        assert level is not None
        base = self.rich_style
        sel = self.selection
        lines: list[list[Segment]] = [[], [], []]
        markers, cursor, anchor, cache = self.markers, self.cursor, self.anchor, self._cells
        for x in range(level.width):
            pos = (x, row)
            cell = level.cell_at(x, row)
            at_cursor = pos == cursor
            selected = anchor is not None and pos in sel
            key = (cell if cell is not None else pos, base, at_cursor, selected,
                   markers.get(pos) if cell is not None else None)
            drawn = cache.get(key)
            if drawn is None:
                drawn = cache[key] = self._draw(cell, base, at_cursor, selected)
            lines[0].extend(drawn[0])
            lines[1].extend(drawn[1])
            lines[2].extend(drawn[2])
        total = level.width * CELL_W
        return tuple(Strip(segs, total) for segs in lines)  # type: ignore[return-value]

    def _draw(self, cell: Cell | None, base: Style, at_cursor: bool, selected: bool):
        """The three lines of one grid place, as segment lists."""
        lines: tuple[list[Segment], list[Segment], list[Segment]] = ([], [], [])
        cursor_style = Style(color="black", bgcolor="yellow", bold=True)
        frame = base
        if selected:
            frame = base + Style(bgcolor="grey30")
        if at_cursor:
            frame = base + cursor_style
        if cell is None:
            edge = frame if (at_cursor or selected) else base
            dot = cursor_style if at_cursor else edge + Style(color="grey42")
            lines[0].append(Segment(" " * CELL_W, edge))
            lines[1].append(Segment("   ", edge))
            lines[1].append(Segment("·", dot))
            lines[1].append(Segment("   ", edge))
            lines[2].append(Segment(" " * CELL_W, edge))
        else:
            self._draw_cell(cell, frame, at_cursor, selected, lines)
        return lines

    def _draw_cell(self, cell: Cell, frame: Style, at_cursor: bool, selected: bool, lines) -> None:
        card = self.cards.get(cell.card)
        colour = KIND_COLOUR.get(card.kind, "white") if card else "red"
        border = frame if at_cursor else frame + Style(color="grey62" if cell.face_up else "grey42")
        path = frame if at_cursor else frame + Style(color="bright_white", bold=True)
        ground = Style(bgcolor="grey19") if not cell.face_up and not at_cursor and not selected else Style()
        face = Style(color=colour, bold=True) if cell.face_up else Style(color=colour, dim=True, italic=True)
        inner = frame + ground + (face if not at_cursor else Style())
        n, e, s, w = (d in cell.paths for d in "NESW")
        lines[0].append(Segment("┌──", border))
        lines[0].append(Segment("║" if n else "─", path if n else border))
        lines[0].append(Segment("──┐", border))
        lines[2].append(Segment("└──", border))
        lines[2].append(Segment("║" if s else "─", path if s else border))
        lines[2].append(Segment("──┘", border))
        if cell.card == STARTING_TILE:
            special, special_style = "S", Style(color="bright_green", bold=True)
        elif cell.card == DESCENDING_LADDER:
            special, special_style = "▼", Style(color="bright_cyan", bold=True)
        elif cell.exit:
            special, special_style = "X", Style(color="bright_green", bold=True)
        else:
            special, special_style = " ", Style()
        severity = self.markers.get(cell.pos)
        mark, mark_style = _MARK[severity] if severity is not None else (" ", "")
        lines[1].append(Segment("═" if w else "│", path if w else border))
        lines[1].append(Segment(special, inner + special_style if not at_cursor else frame))
        lines[1].append(Segment(abbreviation(card, cell.card), inner))
        lines[1].append(Segment(mark, inner + Style.parse(mark_style) if mark_style and not at_cursor else inner))
        lines[1].append(Segment("═" if e else "│", path if e else border))
