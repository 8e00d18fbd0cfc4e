"""Where a turn stands (``GameState.phase``) and how a run ended (``GameState.outcome``).

A module of its own so that the rule mixins (:mod:`.combat`, :mod:`.items`) and
:mod:`.state` share the names without importing one another at call time.
"""

# Phases of the player's turn.
STEP1 = 0  # Standard turn sequence, step 1: may flip, then move
MOVING = 1  # step 2 under way (or resumed): may move while moves remain
COMBAT = 2  # Combat turn sequence, step 1: attack or flee
DONE = 3  # step 4 reached: only items, the shop and "end" remain
CHOOSE_TELEPORT = 4  # a potion of teleportation waits for its destination
# Step 2 ended on a shop next to an enemy: buy and sell first ("If he moves onto a SHOP, he may BUY and
# SELL"), then step 3 ("If the player moves adjacent to an enemy, the player enters combat") begins
# combat with the first attack, flee or throw.
SHOPPING = 5

WON, DEAD = "won", "dead"
