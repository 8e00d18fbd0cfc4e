"""The map canvas: a level's grid drawn with the Line API.

One :class:`~textual.scroll_view.ScrollView` renders every visible line as a
:class:`~textual.strip.Strip`; there is no widget per cell, so a 64x64 level is
as quick to show as a 4x4 one. Each card is a 7x3 box::

    ┌S─║─!┐     ║ / ═ on an edge: a path; a plain wall: no path
    ═Gobln═     top corner: S start, ▼ ladder, X exit, and ! ? ◆ problem marks
    └─────┘     five letters naming the card (:func:`short_name`, the legend ``l``
                lists them); face up: bright; face down: dim on a shaded ground

``z`` zooms in to 16x4 boxes that show each card's full name on two lines.

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

# A colour of its own for each kind (the legend, the palette's dots and the finder use them too). Textual draws
# the ANSI colours through its theme: in the default one (Monokai) red, magenta and bright magenta are all
# (244, 0, 95) and yellow (253, 151, 31) is a hair from dark orange, so the kinds that would clash are given
# as colours, as the player does (MAGENTA #ff5fff, yellow #ffd700); every two differ by 60 or more in some
# channel (tests/test_editor_app.py).
KIND_COLOUR = {
    CardKind.ENEMY: "red",
    CardKind.BOSS: "#ff5fff",
    CardKind.WEAPON: "cyan",
    CardKind.ARMOUR: "blue",
    CardKind.SCROLL: "#ffd700",
    CardKind.POTION: "green",
    CardKind.ARTIFACT: "#00d7af",
    CardKind.TRAP: "dark_orange",
    CardKind.TILE: "white",
    CardKind.ITEM: "#ff8787",
    CardKind.CHARACTER: "dodger_blue1",
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


ZOOMS = ((CELL_W, CELL_H), (16, 4))
"""The box of one grid place at each zoom: five letters, or the full name on two lines."""

SHORT_NAMES = {
    "pathing-tile": "  +  ", "starting-tile": "Start", "descending-ladder": "Laddr", "fountain-of-healing": "Fount",
    "locked-chest": "Chest", "shop": "Shop ", "shopkeepers-debt": "Debt ",
}
"""Catalog cards whose five letters are better chosen than made (a corridor shows as ``+``)."""

_FILLER = {"of", "the", "a", "an"}
_VOWELS = set("aeiouAEIOU")


def squeeze(word: str, width: int) -> str:
    """``word`` in ``width`` letters: vowels after the first letter dropped from the end, then cut."""
    letters = list(word)
    i = len(letters) - 1
    while len(letters) > width and i > 0:
        if letters[i] in _VOWELS:
            del letters[i]
        i -= 1
    return "".join(letters[:width])


def short_name(card: CardDef | None, card_id: str, width: int = 5) -> str:
    """The letters naming a card on the map, ``width`` wide: ``Gobln``, ``Troll``, ``CBat`` (Cave Bat)."""
    if card_id in SHORT_NAMES and width == 5:
        return SHORT_NAMES[card_id]
    name = printable(card.name if card else card_id)
    words = [w for w in name.replace("-", " ").replace("'", "").split() if w]
    words = [w for w in words if w.lower() not in _FILLER] or words
    if len(words) > 1 and words[-1].lower() == "tile":
        words = words[:-1]
    if not words:
        return "?" * width
    initials = "".join(w[0].upper() for w in words[:-1])[:width - 2]
    last = words[-1]
    return (initials + squeeze(last[0].upper() + last[1:], width - len(initials))).ljust(width)


def wrapped_name(card: CardDef | None, card_id: str, width: int, lines: int) -> list[str]:
    """The card's full name word-wrapped into ``lines`` lines of ``width`` (an ellipsis when cut)."""
    name = printable(card.name if card else card_id)
    out: list[str] = []
    for word in name.split():
        if out and len(out[-1]) + 1 + len(word) <= width:
            out[-1] += " " + word
        else:
            out.append(word)
    if len(out) > lines or any(len(line) > width for line in out):
        out = out[:lines]
        out = [line if len(line) <= width else line[:width - 1] + "…" for line in out]
        if len(name.split()) and " ".join(out) != name:
            last = out[-1]
            out[-1] = (last[:width - 1] + "…") if len(last) >= width else last + "…"
    out += [""] * (lines - len(out))
    return [line.center(width) for line in out]


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
        Binding("f", "app.toggle_face", "Face", show=False),
        Binding("n", "app.toggle_path('N')", "Path N", show=False),
        Binding("e", "app.toggle_path('E')", "Path E", show=False),
        Binding("s", "app.toggle_path('S')", "Path S", show=False),
        Binding("w", "app.toggle_path('W')", "Path W", show=False),
        Binding("x", "app.toggle_exit", "Exit", show=False),
        Binding("delete,backspace", "app.delete", "Delete", show=False),
        Binding("c", "app.copy", "Copy", show=False),
        Binding("v", "app.paste", "Paste", show=False),
        Binding("i", "app.cell_items", "Stock", show=False),
        Binding("t", "app.choose_destination", "Leads to"),  # shown on a ladder alone (EditorApp.in_footer)
        Binding("g", "app.add_goal", "Goal", show=False),
        Binding("G", "app.remove_goal", "Remove goal", show=False),
        Binding("z", "app.zoom", "Zoom", show=False),
        Binding("slash", "app.find", "Find", show=False),
        Binding("m", "app.overview", "Overview", show=False),
        Binding("l", "app.legend", "Legend", show=False),
        Binding("full_stop", "app.solution_step(1)", "Next"),
        Binding("comma", "app.solution_step(-1)", "Back"),
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
        self._rows: dict[int, tuple[Strip, ...]] = {}
        # Drawn cells by (cell, base style, cursor, selected, mark): a row redraw reuses all but the changed ones.
        self._cells: dict[tuple, tuple[list[Segment], list[Segment], list[Segment]]] = {}
        self._stroke = 0
        self._painting = False
        self._last_paint: tuple[int, int] | None = None
        self.overlay: StepOverlay | None = None
        self.zoom = 0
        self.cell_w, self.cell_h = ZOOMS[0]

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
        self.virtual_size = Size(level.width * self.cell_w, level.height * self.cell_h)
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
            self.refresh_lines(row * self.cell_h, self.cell_h)
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
        """Bring a place into view. ``force``: also on a level just shown whose scrollbar has not
        come yet (a problem of a taller level chosen from a smaller one: Textual allows no scroll
        without a shown scrollbar, and the place stayed below the map's edge)."""
        from textual.geometry import Region

        self.scroll_to_region(Region(x * self.cell_w, y * self.cell_h, self.cell_w, self.cell_h), animate=False,
                              immediate=True, force=True)

    def _refresh_rows(self, first: int, last: int) -> None:
        for row in range(first, last + 1):
            self._rows.pop(row, None)
        self.refresh_lines(first * self.cell_h, (last - first + 1) * self.cell_h)

    # ------------------------------------------------------------------ keys

    def action_move(self, dx: int, dy: int) -> None:
        self.move_to(self.cursor[0] + dx, self.cursor[1] + dy)

    def action_extend(self, dx: int, dy: int) -> None:
        self.move_to(self.cursor[0] + dx, self.cursor[1] + dy, extend=True)

    def action_zoom(self) -> None:
        """Five letters per card, or the full names (bigger boxes); the cursor stays in view."""
        self.set_zoom((self.zoom + 1) % len(ZOOMS))

    def set_zoom(self, zoom: int) -> None:
        self.zoom = zoom
        self.cell_w, self.cell_h = ZOOMS[zoom]
        self._cells.clear()
        if self.level is not None:
            self.show(self.level, self.cards)
            self.scroll_to_region_of(*self.cursor)

    def action_jump(self, end: int) -> None:
        if self.level is not None:
            self.move_to(self.level.width - 1 if end else 0, self.cursor[1])

    async def action_clear_selection(self) -> None:
        if self.overlay is not None:
            await self.run_action("app.leave_steps")  # escape first leaves the solution steps
            return
        if self.anchor is not None:
            self.move_to(*self.cursor)
        else:
            await self.run_action("app.hide_published")  # F9's answer, kept on the solver's line until now

    # ------------------------------------------------------------------ mouse

    def _place_at(self, event) -> tuple[int, int] | None:
        offset = event.get_content_offset(self)
        if offset is None or self.level is None:
            return None
        x = (offset.x + int(self.scroll_x)) // self.cell_w
        y = (offset.y + int(self.scroll_y)) // self.cell_h
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
        if level is None or line >= level.height * self.cell_h:
            return Strip.blank(width, self.rich_style)
        row = line // self.cell_h
        strips = self._rows.get(row)
        if strips is None:
            strips = self._rows[row] = self._render_row(row)
        strip = strips[line % self.cell_h]
        if self.overlay is not None:
            strip = self._layer(strip, row, line % self.cell_h)
        return strip.crop_extend(scroll_x, scroll_x + width, self.rich_style)

    def _layer(self, strip: Strip, row: int, sub: int) -> Strip:
        """The solution overlay as a style layer over one cached line of grid row ``row``."""
        overlay = self.overlay
        assert overlay is not None and self.level is not None
        spans: list[tuple[int, int, Style, str | None]] = []  # (start, end, style, replacement text)
        for fx, fy in overlay.flipped:
            if fy == row and 0 < sub < self.cell_h - 1 and overlay.marker != (fx, fy) and self.level.cell_at(fx, fy) is not None:
                spans.append((fx * self.cell_w + 1, fx * self.cell_w + self.cell_w - 1, FLIPPED_INNER, None))
        if overlay.marker is not None and overlay.marker[1] == row:
            x0 = overlay.marker[0] * self.cell_w
            if 0 < sub < self.cell_h - 1:
                spans += [(x0, x0 + 1, MARKER_FRAME, None), (x0 + 1, x0 + 2, MARKER_INNER, "@" if sub == 1 else None),
                          (x0 + 2, x0 + self.cell_w - 1, MARKER_INNER, None), (x0 + self.cell_w - 1, x0 + self.cell_w, MARKER_FRAME, None)]
            else:
                spans.append((x0, x0 + self.cell_w, MARKER_FRAME, None))
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

    def _render_row(self, row: int) -> tuple[Strip, ...]:
        level = self.level
        assert level is not None
        base = self.rich_style
        sel = self.selection
        lines: list[list[Segment]] = [[] for _ in range(self.cell_h)]
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
            for line, part in zip(lines, drawn):
                line.extend(part)
        total = level.width * self.cell_w
        return tuple(Strip(segs, total) for segs in lines)

    def _draw(self, cell: Cell | None, base: Style, at_cursor: bool, selected: bool):
        """The lines of one grid place (``cell_h`` of them), as segment lists."""
        w, h = self.cell_w, self.cell_h
        lines: list[list[Segment]] = [[] for _ in range(h)]
        cursor_style = Style(color="black", bgcolor="yellow", bold=True)
        frame = base
        if selected:
            frame = base + Style(bgcolor="grey30")
        if at_cursor:
            frame = base + cursor_style
        if cell is None:
            edge = frame if (at_cursor or selected) else base
            dot = cursor_style if at_cursor else edge + Style(color="grey42")
            for i in range(h):
                if i == h // 2:
                    lines[i] += [Segment(" " * (w // 2), edge), Segment("·", dot), Segment(" " * (w - w // 2 - 1), edge)]
                else:
                    lines[i].append(Segment(" " * w, edge))
        else:
            self._draw_cell(cell, frame, at_cursor, selected, lines)
        return lines

    def _draw_cell(self, cell: Cell, frame: Style, at_cursor: bool, selected: bool, lines) -> None:
        w, h = self.cell_w, self.cell_h
        card = self.cards.get(cell.card)
        colour = KIND_COLOUR.get(card.kind, "white") if card else "red"
        up = cell.face_up is True  # (a face misspelt in a draft, kept as its text, is drawn face down)
        border = frame if at_cursor else frame + Style(color="grey62" if up else "grey42")
        path = frame if at_cursor else frame + Style(color="bright_white", bold=True)
        ground = Style(bgcolor="grey19") if not up and not at_cursor and not selected else Style()
        face = Style(color=colour, bold=True) if up else Style(color=colour, dim=True, italic=True)
        inner = frame + ground + (face if not at_cursor else Style())
        n, e, s, west = (d in cell.paths for d in "NESW")
        if cell.card == STARTING_TILE:
            special, special_style = "S", Style(color="bright_green", bold=True)
        elif cell.card == DESCENDING_LADDER:
            special, special_style = "▼", Style(color="bright_cyan", bold=True)
        elif cell.exit:
            special, special_style = "X", Style(color="bright_green", bold=True)
        else:
            special, special_style = "─", Style()
        severity = self.markers.get(cell.pos)
        mark, mark_style = _MARK[severity] if severity is not None else ("─", "")
        left = (w - 5) // 2
        lines[0] += [Segment("┌", border),
                     Segment(special, frame + special_style if special != "─" and not at_cursor else border),
                     Segment("─" * left, border), Segment("║" if n else "─", path if n else border),
                     Segment("─" * (w - 5 - left), border),
                     Segment(mark, frame + Style.parse(mark_style) if mark_style and not at_cursor else border),
                     Segment("┐", border)]
        half = (w - 3) // 2
        lines[h - 1] += [Segment("└" + "─" * half, border), Segment("║" if s else "─", path if s else border),
                         Segment("─" * (w - 3 - half) + "┘", border)]
        if h == 3:
            names = [short_name(card, cell.card, w - 2)]
        else:
            names = wrapped_name(card, cell.card, w - 2, h - 2)
        for i, text in enumerate(names, start=1):
            first = i == 1
            lines[i] += [Segment("═" if west and first else "│", path if west and first else border),
                         Segment(text.ljust(w - 2)[:w - 2], inner),
                         Segment("═" if e and first else "│", path if e and first else border)]
