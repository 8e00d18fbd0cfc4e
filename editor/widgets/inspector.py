"""The inspector: the selected cell's card, paths, face, inscription, scripted rolls and a
descending ladder's destination (a list of the campaign's other levels, by title and id)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.content import Content
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Input, Label, Select, Static

from cardrogue.editor.messages import CellFieldEdited
from cardrogue.editor.shown import markup
from cardrogue.engine.model.campaign import DESCENDING_LADDER, CardDef, Cell
from cardrogue.engine.words import place_text

FIELDS = ("inscription", "rolls", "to")
TYPED = ("inscription", "rolls")  # the text fields; "to" is a list, applied as soon as it is chosen


def destination_options(to: str, levels: tuple[tuple[str, str], ...]) -> list[tuple[str, str]]:
    """A ladder's destinations as ``(label, level id)``: each other level as "title (id)", and first,
    when the file's ``to`` names none of them, that value as it is (a draft keeps it until the author
    chooses; CR208 says what is wrong with it)."""
    options = [(f"{title} ({lid})" if title else lid, lid) for lid, title in levels]
    if to and to not in {lid for lid, _ in levels}:
        options.insert(0, (f"{to} (no such level)", to))
    return options


def rolls_text(rolls: tuple[int, ...]) -> str:
    return " ".join(str(r) for r in rolls)


def parse_rolls(text: str) -> tuple[int, ...]:
    """``"6 6 1"`` or ``"6,6,1"`` -> ``(6, 6, 1)``; anything but d6 faces is an error."""
    parts = text.replace(",", " ").split()
    rolls = []
    for part in parts:
        if not part.isdigit() or not 1 <= int(part) <= 6:
            raise ValueError(f"{part!r} is not a d6 roll (1 to 6)")
        rolls.append(int(part))
    return tuple(rolls)


class Inspector(VerticalScroll):
    """The Cell panel. A field's text is applied to its cell on enter, and also when the field is
    left (tab, ctrl+g, a click elsewhere) or before the app saves, quits or plays (:meth:`take_typed`):
    text typed and not entered is never dropped when the cursor moves on."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.place: tuple[int, int, int] | None = None  # (level, x, y) of the cell shown
        self._shown: dict[str, str] = {}  # the values show() put in the fields
        self._typed: dict[str, tuple[tuple[int, int, int], str]] = {}  # field -> (its cell, the text typed)
        self._options: list[tuple[str, str]] = []  # the ladder list's options as last set
        self._back_to: Widget | None = None  # where the focus goes back to once a list opened by t closes
        self._opened_with: object = None  # the list's value when t opened it

    def on_mount(self) -> None:
        self.watch(self.query_one("#inspector-to", Select), "expanded", self._list_shown, init=False)

    def compose(self) -> ComposeResult:
        yield Static(id="inspector-summary")
        yield Label("Inscription", classes="field-label")
        yield Input(id="inspector-inscription", placeholder="text shown on the card")
        yield Label("Scripted rolls", classes="field-label")
        yield Input(id="inspector-rolls", placeholder="e.g. 6 6 1")
        yield Label("Ladder leads to", classes="field-label ladder-only")
        yield Select([], id="inspector-to", prompt="none (choose a level)", allow_blank=True, compact=True,
                     classes="ladder-only")

    def _show_destination(self, to: str, levels: tuple[tuple[str, str], ...], keep: bool) -> None:
        """The ladder's list: the levels it may lead to, the cell's ``to`` chosen (``keep``: the
        author has the list open, left as it is)."""
        select = self.query_one("#inspector-to", Select)
        options = destination_options(to, levels)
        if options != self._options:
            self._options = options
            select.set_options(options)
        elif keep:
            return
        wanted = to or Select.NULL
        if select.value != wanted:
            select.value = wanted

    def show(self, x: int, y: int, cell: Cell | None, card: CardDef | None, problems: list[Content],
             level: int, levels: tuple[tuple[str, str], ...] = (), potion: str | None = None) -> None:
        """Show a cell; ``levels`` are the (id, title) of the levels a ladder here may lead to; ``potion``, what a
        potion card is in this campaign."""
        summary = self.query_one("#inspector-summary", Static)
        inputs = [self.query_one(f"#inspector-{f}", Input) for f in TYPED]
        select = self.query_one("#inspector-to", Select)
        same_place = self.place == (level, x, y)
        if not same_place and not self.has_focus_within:
            self.scroll_home(animate=False)  # another card: read from its name, not where the last one was left
        self.place = (level, x, y)
        self._shown = dict.fromkeys(FIELDS, "")
        if cell is None:
            # a problem may be placed where no card is (CR225: the practice hero stands there)
            summary.update(Content("\n").join([Content.from_markup(f"[b]{place_text(x, y)}[/] empty"),
                                                Content.from_markup("[dim]enter: place the brush[/]"), *problems]))
            for widget in inputs:
                if widget.value:
                    widget.value = ""
            for widget in (*inputs, select):
                if not widget.disabled:
                    widget.disabled = True
        else:
            name = card.name if card else cell.card
            kind = card.kind.value if card else "unknown"
            lines = [
                markup("[b]$name[/] [dim]$kind[/]", name=name, kind=kind),
                *([markup("$potion", potion=potion)] if potion else []),
                markup(f"{place_text(x, y)} paths [b]$paths[/]", paths=cell.paths or "—"),
                markup("face [b]$face[/]" + ("  [b green]exit[/]" if cell.exit else ""), face=cell.face_text),
            ]
            if card is not None and (card.attack is not None or card.health is not None):
                lines.append(Content(f"attack {card.attack if card.attack is not None else '—'}  health {card.health if card.health is not None else '—'}"))
            if card is not None and card.text:
                lines.append(markup("[dim]$text[/]", text=card.text))
            if cell.stock:
                lines.append(markup("stock: $ids", ids=", ".join(cell.stock)))
            if cell.contents:
                lines.append(markup("contents: $ids", ids=", ".join(cell.contents)))
            lines.extend(problems)
            summary.update(Content("\n").join(lines))
            values = (cell.inscription, rolls_text(cell.rolls), cell.to or "")
            self._shown = dict(zip(FIELDS, values))
            for field, widget, value in zip(TYPED, inputs, values):
                if widget.disabled:
                    widget.disabled = False
                if same_place and (widget.has_focus or field in self._typed):
                    continue  # the author is typing here (a check that ends meanwhile shows the cell again)
                if widget.value != value:
                    widget.value = value
            if select.disabled:
                select.disabled = False
            self._show_destination(cell.to or "", levels, keep=same_place and select.expanded)
        # a draft's "to" on another card is shown too, so that "none" can clear it (CR218)
        self.set_class(cell is not None and (cell.card == DESCENDING_LADDER or bool(cell.to)), "-ladder")

    @property
    def leads_somewhere(self) -> bool:
        """The cell shown has a destination list: a descending ladder (or a draft's card with a "to")."""
        return self.has_class("-ladder") and not self.query_one("#inspector-to", Select).disabled

    def open_destinations(self) -> bool:
        """t on the map: the ladder's list, open; the focus goes back where it was once it closes
        (False: the cell shown has no list)."""
        back = self.app.focused
        if not self.focus_field("to"):
            return False
        select = self.query_one("#inspector-to", Select)
        self._back_to, self._opened_with = back, select.value
        select.action_show_overlay()
        return True

    def _list_shown(self, expanded: bool) -> None:
        # closed with nothing new chosen (escape, the same entry): back after the Select has taken the
        # focus back itself; a new choice goes back once it is applied (on_select_changed), or its
        # Changed would find the list without the focus and be taken for show() choosing the cell's value
        if not expanded and self.query_one("#inspector-to", Select).value == self._opened_with:
            self.call_after_refresh(self._go_back)

    def _go_back(self) -> None:
        back, self._back_to = self._back_to, None
        # not when the list closed because the author clicked elsewhere: the focus is where he clicked
        if back is not None and back.is_attached and self.has_focus_within:
            back.focus()

    def focus_field(self, field: str) -> bool:
        """Focus a field (False: there is no card to edit, or it is a ladder's field on another card)."""
        widget = self.query_one(f"#inspector-{field}", Widget)
        if widget.disabled or not widget.display or (field == "to" and not self.has_class("-ladder")):
            return False
        widget.focus()
        return True

    def on_input_changed(self, event: Input.Changed) -> None:
        field = (event.input.id or "").removeprefix("inspector-")
        if field not in FIELDS or not event.input.has_focus or self.place is None:
            return  # show() filling the fields, not the author typing
        if event.value != self._shown.get(field):
            self._typed[field] = (self.place, event.value)
        else:
            self._typed.pop(field, None)

    def on_select_changed(self, event: Select.Changed) -> None:
        """The author chose a ladder's destination (or none): applied at once, to the cell shown."""
        event.stop()
        if event.select.id != "inspector-to" or not event.select.has_focus_within or self.place is None:
            return  # show() choosing the cell's value, not the author
        value = "" if event.value is Select.NULL else str(event.value)
        if value != self._shown.get("to"):
            self._shown["to"] = value
            self.post_message(CellFieldEdited("to", value, self.place))
        self._go_back()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        field = (event.input.id or "").removeprefix("inspector-")
        if field in FIELDS:
            place, _ = self._typed.pop(field, (self.place, ""))
            self.post_message(CellFieldEdited(field, event.value, place))

    def on_input_blurred(self, event: Input.Blurred) -> None:
        field = (event.input.id or "").removeprefix("inspector-")
        if field in self._typed:
            place, value = self._typed.pop(field)
            self.post_message(CellFieldEdited(field, value, place))

    def keep_typed(self, edit: CellFieldEdited) -> None:
        """A field's text that was refused stays typed: shown, focused when it is the cell shown, applied
        again by the next :meth:`take_typed`."""
        self._typed[edit.field] = (edit.at, edit.value)
        if edit.at == self.place:
            self.query_one(f"#inspector-{edit.field}", Input).focus()

    def take_typed(self) -> list[CellFieldEdited]:
        """The fields typed in and not applied yet, as edits (taken: each is applied once)."""
        typed = [CellFieldEdited(field, value, place) for field, (place, value) in self._typed.items()]
        self._typed.clear()
        return typed
