"""The hero the campaign starts with: a character card, and items in hand or equipped."""

from __future__ import annotations

from typing import Mapping

from ...model.campaign import CardDef, CardKind, Hero
from ..diagnostics import Diagnostic
from .cards import known_card
from .common import Findings, a


def hero_problems(hero: Hero, cards: Mapping[str, CardDef]) -> list[Diagnostic]:
    """CR201 and CR217: the character is a character card; the hero carries only items (an enemy
    card may be carried too: a trophy or a captive, as the catalog's quest cards are); an
    equipped card has an equipment slot."""
    found = Findings()
    known_card(found, hero.character, cards, ("hero", "character"), kinds=[CardKind.CHARACTER], what="character")
    for key, ids in (("items", hero.items), ("equipped", hero.equipped)):
        for i, card_id in enumerate(ids):
            path = ("hero", key, i)
            if not known_card(found, card_id, cards, path):
                continue
            card = cards[card_id]
            if not card.is_item and card.kind is not CardKind.ENEMY:
                found.error("CR217", f"{card_id!r} is {a(card.kind.value)}; the hero can carry only items", path)
            elif key == "equipped" and card.slot is None:
                found.error("CR217", f"{card_id!r} cannot be equipped: it has no equipment slot", path)
    return found.items
