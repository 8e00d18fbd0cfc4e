"""The palette: every card a map can hold (the catalog and the campaign's own), searchable."""

from __future__ import annotations

from functools import lru_cache
from typing import Mapping

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, OptionList
from textual.widgets.option_list import Option

from cardrogue.editor.messages import CardChosen, MapWanted
from cardrogue.editor.shown import markup
from cardrogue.engine.model.campaign import CardDef, CardKind

from .map_canvas import KIND_COLOUR

PLACEABLE = [k for k in CardKind if k is not CardKind.CHARACTER]


def matching_cards(cards: Mapping[str, CardDef], query: str) -> list[CardDef]:
    """Placeable cards whose id, name or kind contains every word of ``query``, tiles first."""
    words = query.lower().split()
    found = []
    for card in cards.values():
        if card.kind is CardKind.CHARACTER:
            continue
        hay = f"{card.id} {card.name} {card.kind.value}".lower()
        if all(w in hay for w in words):
            found.append(card)
    return sorted(found, key=lambda c: (c.kind is not CardKind.TILE, PLACEABLE.index(c.kind), c.name))


@lru_cache(maxsize=4096)
def card_label(kind: CardKind, name: str, own: bool) -> Content:
    """A card's line in the palette: its kind's colour, its name, ``*`` for the campaign's own card. The same
    few hundred lines are drawn again on every file opened, template and undo that changes the cards: each is
    made once (markup is parsed, a Content is never changed)."""
    return markup(f"[{KIND_COLOUR[kind]}]●[/] $name{' [dim]*[/]' if own else ''}", name=name)


class CardOptions(OptionList):
    BINDINGS = [Binding("enter", "app.focus_map", "To map")]


class Palette(Vertical):
    """Search box and card list; the highlighted card is the brush the map places."""

    BINDINGS = [Binding("ctrl+f", "focus_search", "Search", show=False)]

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.cards: Mapping[str, CardDef] = {}
        self.own: set[str] = set()
        self.brush = "pathing-tile"

    def compose(self) -> ComposeResult:
        yield Input(placeholder="search cards", id="palette-search")
        yield CardOptions(id="palette-list")

    def show(self, cards: Mapping[str, CardDef], own: set[str]) -> None:
        self.cards, self.own = cards, own
        self._fill(self.query_one("#palette-search", Input).value)

    def _fill(self, query: str) -> None:
        options = self.query_one("#palette-list", CardOptions)
        found = matching_cards(self.cards, query)
        options.set_options(
            Option(card_label(c.kind, c.name, c.id in self.own), id=c.id)
            for c in found
        )
        ids = [c.id for c in found]
        if self.brush in ids:
            options.highlighted = ids.index(self.brush)
        elif ids:
            options.highlighted = 0

    def choose(self, card_id: str) -> None:
        """Make ``card_id`` the brush (clearing the search if it hides the card)."""
        search = self.query_one("#palette-search", Input)
        if card_id not in [c.id for c in matching_cards(self.cards, search.value)]:
            search.value = ""
        self.brush = card_id
        self._fill(search.value)

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._fill(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.query_one("#palette-list", CardOptions).focus()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if event.option_index != event.option_list.highlighted:
            return  # stale: the list was refilled since
        if event.option.id and event.option.id != self.brush:
            self.brush = event.option.id
            self.post_message(CardChosen(self.brush))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(MapWanted())

    def action_focus_search(self) -> None:
        self.query_one("#palette-search", Input).focus()
