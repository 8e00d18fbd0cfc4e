"""What the hero could ever hold, and how he could move: facts the graph checks, the loader's
warnings and the solver's relaxation all start from (no networkx here: the loader imports it)."""

from __future__ import annotations

from typing import Iterable, Mapping

from ..model.campaign import Campaign, CardDef, CardKind, Hero, Level
from ..model.potions import potion_identities


def obtainable_cards(campaign: Campaign) -> list[str]:
    """Every card the hero could ever hold or meet: starting items, cells, shop stock, chest contents."""
    return _obtainable(campaign.hero, campaign.levels)


def wall_crossings(campaign: Campaign) -> frozenset[str]:
    """How the hero could pass through walls, from every card he could hold or meet:
    ``"teleport"`` (a potion of teleportation: any revealed pathing tile of the level) and
    ``"adjacent"`` (the mage's SPELL or MOVE TO ANY ADJACENT TILE: any orthogonal neighbour)."""
    return crossings_of(campaign.cards, campaign.hero, campaign.levels, campaign.seed, campaign.potions)


def crossings_of(cards: Mapping[str, CardDef], hero: Hero, levels: Iterable[Level], seed: int,
                 potions: Mapping[str, str]) -> frozenset[str]:
    """:func:`wall_crossings` from a campaign's parts (the loader asks before the campaign is built)."""
    seen = [cards[c] for c in set(_obtainable(hero, levels)) if c in cards]
    identities = potion_identities(seed, potions)
    out = set()
    if any(card.kind is CardKind.POTION and identities.get(card.colour) == "teleportation" for card in seen):
        out.add("teleport")
    if any(a.kind in ("spell", "move-adjacent") for card in seen for a in card.abilities):
        out.add("adjacent")
    return frozenset(out)


def _obtainable(hero: Hero, levels: Iterable[Level]) -> list[str]:
    out = list(hero.items) + list(hero.equipped) + [hero.character]
    for level in levels:
        if level.hero is not None:  # a practice start's own cards
            out.extend(level.hero.items or ())
            out.extend(level.hero.equipped or ())
        cells = level.cells
        out += [c.card for c in cells]
        for c in cells:
            if c.stock or c.contents:  # most cells hold neither: one test each
                out += c.stock
                out += c.contents
    return out
