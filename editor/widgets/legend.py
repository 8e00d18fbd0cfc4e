"""The map's legend (``l``): what the marks on a box mean and which card each short name is."""

from __future__ import annotations

from collections import Counter
from typing import Mapping

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from cardrogue.editor.shown import text
from cardrogue.editor.widgets.footer import EditorFooter
from cardrogue.editor.widgets.map_canvas import KIND_COLOUR, short_name
from cardrogue.engine.model.campaign import CardDef, Level

MARKS = [
    ("S", "bright_green", "the starting tile"), ("▼", "bright_cyan", "a descending ladder"),
    ("X", "bright_green", "the exit"), ("!", "bold red", "an error"), ("?", "bold yellow", "a warning"),
    ("◆", "bold cyan", "a note (a chokepoint)"), ("║ ═", "bright_white", "a path out of the card's edge"),
]


def legend_lines(level: Level, cards: Mapping[str, CardDef]) -> list[Text]:
    """One line per mark, then one per card on the level: its short name, full name, kind and count."""
    lines = [Text.assemble((f"{glyph:>5} ", style), meaning) for glyph, style, meaning in MARKS]
    lines.append(Text.assemble(("Gobln", "bold"), "  face up: bright;  ", ("Gobln", "dim italic"),
                               "  face down: dim on a shaded ground"))
    lines.append(Text(""))
    counts = Counter(cell.card for cell in level.cells)
    for card_id, n in sorted(counts.items(), key=lambda item: (short_name(cards.get(item[0]), item[0]), item[0])):
        card = cards.get(card_id)
        colour = KIND_COLOUR.get(card.kind, "white") if card else "red"
        kind = card.kind.value if card else "unknown card"
        line = Text.assemble((short_name(card, card_id), f"bold {colour}"), "  ")
        line.append_text(text(card.name if card else card_id, "bold"))
        line.append_text(text(f"  {card_id}, {kind}, ×{n}", "dim"))
        lines.append(line)
    return lines


class LegendScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,l,q", "dismiss(None)", "Close")]

    def __init__(self, title: str, lines: list[Text]) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog legend"):
            yield Label(text(self.title_text, "bold"), classes="dialog-text")
            for line in self.lines:
                yield Static(line)
            yield Label("[dim]z on the map: full names in bigger boxes[/]")
        yield EditorFooter()
