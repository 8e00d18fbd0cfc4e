"""The semantic rules of the campaign format: what the JSON Schema cannot say (codes CR2xx).

Each rule is one function, called by the loader on every campaign it builds and by
the editor's edits on what they change, so a rule has one code and one message
wherever it is broken. The checks read the campaign model, drafts included (a model
the loader built in spite of errors), and report JSON paths into the file the model
came from; the loader turns those into lines and columns.

Where each rule lives:

====================  =====================================================================
``cards.py``          CR201 unknown card, CR217 a card of the wrong kind, CR215 an ability
                      outside the vocabulary, CR216 an incomplete new card or a kind change,
                      CR229 (a warning) ``throwable`` on a card that is not a potion
``abilities.py``      CR226 a number in an ability out of bounds, CR227 attack rolls that
                      never stop (called from ``cards.py`` for each card entry)
``hero.py``           the hero's character, starting items and equipment (CR201, CR217), a
                      character the rules version lacks (CR224), a level's practice hero
                      (CR201, CR217, CR225 a tile he cannot start on)
``potions.py``        CR222 two colours with one effect
``levels.py``         CR202 duplicate ids, CR203 outside the grid, CR204 two cards on a cell,
                      CR206/CR207 the starting tile, CR220 the campaign's exit
``cells.py``          CR205/CR208 ladders, CR218 fields of another card, CR217 stock and
                      contents, CR219 the starting tile face up, CR223 a card without paths
``goals.py``          level goals: CR201, CR217, CR221 a goal the level cannot meet
``text.py``           CR228 a title with markup, a control character in any text (the hub
                      refuses them): a walk of the file as parsed, keys included, which the
                      loader runs beside these rules (the model drops ``$schema``)
====================  =====================================================================
"""

from __future__ import annotations

from ...model.campaign import Campaign
from ...rules.mobility import crossings_of
from ..diagnostics import Diagnostic
from .cards import card_entry_problems
from .common import Findings
from .hero import hero_problems, level_hero_problems, version_character_problems
from .levels import level_problems, level_id_problems, exit_problems
from .potions import potion_problems

__all__ = ["check_draft", "RuleError"]


class RuleError(ValueError):
    """An edit refused by a rule of the format: it carries the rule's diagnostic."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(f"{diagnostic.code}: {diagnostic.standalone}")
        self.diagnostic = diagnostic


def check_draft(campaign: Campaign) -> list[Diagnostic]:
    """Every semantic rule, in the order of the file: cards, hero, potions, levels."""
    found = Findings()
    for card_id, entry in campaign.card_entries.items():
        found.extend(card_entry_problems(card_id, entry))
    found.extend(hero_problems(campaign.hero, campaign.cards))
    found.extend(version_character_problems(campaign.rules, campaign.hero.character))
    found.extend(potion_problems(campaign.potions))
    found.extend(level_id_problems(campaign.levels))
    pathless: list[Diagnostic] = []
    instance_ids: dict[str, tuple[int, tuple[int, int]]] = {}  # id -> (level, place) of its first card
    for li in range(len(campaign.levels)):
        found.extend(level_problems(campaign, li, instance_ids, pathless))
        found.extend(level_hero_problems(campaign.levels[li], li, campaign.cards))
    found.extend(exit_problems(campaign.levels))
    if not crossings_of(campaign.cards, campaign.hero, campaign.levels, campaign.seed, campaign.potions):
        # CR223 is a warning only for a hero who cannot cross walls: the mage's spell, MOVE TO ANY
        # ADJACENT TILE or a potion of teleportation reaches a card without paths.
        found.extend(pathless)
    return found.items
