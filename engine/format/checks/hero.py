"""The hero the campaign starts with: a character card its rules version knows, and items in hand or
equipped; and a level's practice hero (his cards, and a tile he can start on)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...model.campaign import CHEST, DESCENDING_LADDER, CardDef, CardKind, Hero, Level
from ...model.versions import RULES, RULES_VERSIONS
from ...words import place_text
from ..catalog import default_catalog
from ..diagnostics import Diagnostic, JsonPath
from .cards import known_card
from .common import Findings, a


def hero_problems(hero: Hero, cards: Mapping[str, CardDef]) -> list[Diagnostic]:
    """CR201 and CR217: the character is a character card; the hero carries only items (an enemy
    card may be carried too: a trophy or a captive, as the catalog's quest cards are); an
    equipped card has an equipment slot."""
    found = Findings()
    known_card(found, hero.character, cards, ("hero", "character"), kinds=[CardKind.CHARACTER], what="character")
    _carried(found, hero.items, hero.equipped, cards, ("hero",))
    return found.items


def _carried(found: Findings, items: Sequence[str], equipped: Sequence[str], cards: Mapping[str, CardDef],
             base: JsonPath, **where: Any) -> None:
    for key, ids in (("items", items), ("equipped", equipped)):
        for i, card_id in enumerate(ids):
            path = base + (key, i)
            if not known_card(found, card_id, cards, path, **where):
                continue
            card = cards[card_id]
            if not card.is_item and card.kind is not CardKind.ENEMY:
                found.error("CR217", f"{card_id!r} is {a(card.kind.value)}; the hero can carry only items", path, **where)
            elif key == "equipped" and card.slot is None:
                found.error("CR217", f"{card_id!r} cannot be equipped: it has no equipment slot", path, **where)


def version_character_problems(rules: str, character: str) -> list[Diagnostic]:
    """CR224: a catalog character the campaign's rules version does not have. Rulebook v1.0: "There are
    four characters: the Warrior, the Rogue, the Cleric, and the Explorer"; the Mage and the Bard are
    v1.1.2's (engine/model/versions.py)."""
    found = Findings()
    version = RULES.get(rules)
    catalog = default_catalog()
    characters = frozenset(c for c, card in catalog.items() if card.kind is CardKind.CHARACTER)
    if version is not None and not version.knows_character(character, characters):
        names = [f"the {catalog[c].name}" for c in version.characters or ()]
        known = ", ".join(names[:-1]) + f" and {names[-1]}"
        found.error("CR224", f"rules {rules} has no {catalog[character].name}: its characters are {known} "
                    f"(the {catalog[character].name} arrives in {RULES_VERSIONS[0]}); choose one of them, or rules "
                    f"{RULES_VERSIONS[0]}", ("hero", "character"))
    return found.items


def level_hero_problems(level: Level, li: int, cards: Mapping[str, CardDef]) -> list[Diagnostic]:
    """A level's practice ``hero``: his cards as the campaign hero's (CR201, CR217); CR225 when the
    tile he starts ``at`` is no tile he could stand on (face up: a pathing tile, a shop, a fountain
    or the starting tile; not an enemy, an item, a trap, a chest, a ladder or the exit)."""
    found = Findings()
    hero = level.hero
    if hero is None:
        return found.items
    base: JsonPath = ("levels", li, "hero")
    _carried(found, hero.items or (), hero.equipped or (), cards, base, level=li)
    if hero.at is not None:
        x, y = hero.at
        cell = level.by_pos.get(hero.at)
        card = None if cell is None else cards.get(cell.card)
        problem = None
        if not (0 <= x < level.width and 0 <= y < level.height):
            problem = f"it is outside the level's {level.width}×{level.height} grid"
        elif cell is None:
            problem = "no card is there"
        elif card is None:
            return found.items  # an unknown card: CR201 on the cell says so
        elif not cell.face_up:
            problem = f"the {cell.card} there is face down"
        elif cell.exit:
            problem = "it is the exit"
        elif card.kind is not CardKind.TILE or cell.card in (DESCENDING_LADDER, CHEST):
            problem = f"it holds {cell.card!r}"
        if problem is not None:
            found.error("CR225", f"the level's hero cannot start at {place_text(x, y)}: {problem}; choose a face-up pathing "
                        "tile, shop, fountain or the starting tile", base + ("at",), level=li, cell=hero.at)
    return found.items
