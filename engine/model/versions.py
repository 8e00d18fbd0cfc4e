"""Rules versions and what each one changes (rulebook v1.1.2, "Updates from previous versions").

- FROM V1.1.1: "Grammatical corrections." "Several small clarifications." No rule changes a story
  run could meet, so 1.1.1 plays as 1.1.2 and is not offered.
- FROM V1.1: "Strength and weakness potion now have same effect when thrown on player or enemy."
  (The box content section and the end rush are not story-mode rules.)
- FROM V1.0: "Paralysis now ends the player's turn, and skips his next turn." "Players may move
  twice in a turn if no other actions or interactions were taken."

Characters: rulebook v1.0 and the early edition: "There are four characters: the Warrior, the Rogue,
the Cleric, and the Explorer"; v1.1.2: "There are six characters: ... the MAGE, and the BARD". The
update list does not name them, and no v1.1 rulebook says otherwise: they are v1.1.2's (issue 17),
so 1.0 and 1.1 know the four.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RulesVersion:
    """One rules version a campaign can name (``"rules"``), as the rules engine reads it."""

    name: str
    double_move: bool  # "If the only action taken by the player was to move ... he may repeat his turn from step 2"
    paralysis_skips: bool  # paralysis ends the turn *and* skips the next (v1.0: "ends his turn or loses a turn")
    thrown_alike: bool  # a thrown strength / weakness potion acts on an enemy as on a player (v1.0, v1.1: reversed)
    characters: tuple[str, ...] | None = None  # the catalog characters the version knows (rulebook order); None: all six

    def knows_character(self, card_id: str, catalog_characters: frozenset[str]) -> bool:
        """False for a catalog character the version's rulebook does not have (a campaign's new one is allowed)."""
        return self.characters is None or card_id in self.characters or card_id not in catalog_characters


FOUR_CHARACTERS = ("warrior", "rogue", "cleric", "explorer")

RULES = {
    "1.1.2": RulesVersion("1.1.2", double_move=True, paralysis_skips=True, thrown_alike=True),
    "1.1": RulesVersion("1.1", double_move=True, paralysis_skips=True, thrown_alike=False,
                        characters=FOUR_CHARACTERS),
    "1.0": RulesVersion("1.0", double_move=False, paralysis_skips=False, thrown_alike=False,
                        characters=FOUR_CHARACTERS),
}
RULES_VERSIONS = tuple(RULES)
