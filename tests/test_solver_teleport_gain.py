"""A potion of teleportation gains a tile in a real line: what the bound allows on the 8x8 map of seed 50.

docs/solver.md, *Potions* and *A potion gains only past an enemy met*: two potions of teleportation picked up
on the way may take the walk one tile past the turns' ``S`` and ``K`` (the first thrown at an enemy the walk
reveals, the second drunk in a fight with it after moving). The 8x8 generated map of seed 50 (three such
potions) has a bound of 12 turns after the first at its start, one below the 13 of the same map without
potions, and the search ends ``unknown`` there: the line below shows that the gain is real (docs/rules.md,
*Items*: "teleportation moves it to a pathing tile of the player's choice"; *Turn sequence*: "Arriving by
teleport ... ends the turn; the tile acts at the start of the next turn"). With the imp at 6,7, which bars
the last row and survives the warrior's first attack under the fated dice, left out, the map is won in 13
turns; so no sound bound may prove 14 from the potions' rules alone (benchmarks/RESULTS.md, *Issue 14: the
potion bound on the teleportation maps*).
"""

import sys
from pathlib import Path

from helpers import legal, load

from cardrogue.engine.analysis.solver.bounds import relaxation
from cardrogue.engine.chance.resolvers import FatedResolver
from cardrogue.engine.rules.state import GameState

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import gen  # noqa: E402  (the benchmarks' generator of open levels)

# The solver's witness on the map without the imp at 6,7 (13 turns): six turns down the west column, the
# potion at 0,6 picked up; turn 7 east onto the fountain at 1,6; turn 8 flips the imp at 1,5 (a fight),
# throws the potion at it (it lands on 2,6), moves onto the potion at 1,7; turn 9 moves east beside the
# imp, flips 3,7 in the fight and drinks: two tiles face down at the turn's start entered in one turn.
SEED_50_IN_13 = (
    ["flip S", "move S", "end"] * 6
    + ["flip S", "flip E", "move E", "end",
       "flip N", "flip E", "flip S", "throw red N", "teleport 2,6", "move S", "end",
       "flip E", "move E", "flip E", "drink red", "teleport 3,7"]
    + ["flip E", "move E", "end"] * 3 + ["flip E", "move E"]
)


def _seed_50(imp_at_6_7: bool = True):
    doc = gen.campaign(1, 8, seed=50)
    if not imp_at_6_7:
        cell = next(cell for cell in doc["levels"][0]["cells"] if cell["at"] == [6, 7])
        cell["card"] = "pathing-tile"
    return load(doc)


def test_two_potions_of_teleportation_take_the_walk_one_tile_further_and_the_bound_allows_it():
    """Along the line the bound never exceeds the turns it still takes, and turn 9 enters two tiles that
    were face down when it began (2,7 by a move, 3,7 by the teleport)."""
    c = _seed_50(imp_at_6_7=False)
    resolver = FatedResolver(c)
    s = GameState.new(c, log=False)
    s.resolve(resolver)
    relax = relaxation(c, s.d)
    width = c.levels[0].width
    face_down_at_start = {}
    entered = {}
    for action in SEED_50_IN_13:
        assert action in legal(s), (s.turn, action)
        assert relax.bound(s, True) <= 13 - s.turn, (s.turn, action)
        if s.turn not in face_down_at_start:
            face_down_at_start[s.turn] = relax.mask(s)
        turn, before = s.turn, s.pos
        s.step(action, resolver)
        if s.pos != before:
            entered.setdefault(turn, []).append(s.pos)
    assert (s.outcome, s.turn) == ("won", 13)
    new_tiles = [p for p in entered[9] if face_down_at_start[9][p]]
    assert [(p % width, p // width) for p in new_tiles] == [(2, 7), (3, 7)]


def test_the_same_line_is_legal_on_the_real_map_until_the_imp_at_6_7():
    """On the map as generated the line is legal up to 5,7 (turn 12), where the imp at 6,7 is flipped and
    survives the attack: the fight lasts into turn 13, so 13 turns are not reached this way."""
    c = _seed_50()
    resolver = FatedResolver(c)
    s = GameState.new(c, log=False)
    s.resolve(resolver)
    line = SEED_50_IN_13[:-4] + ["attack"]  # up to turn 12's flip of 6,7 from 5,7
    for action in line:
        assert action in legal(s), (s.turn, action)
        s.step(action, resolver)
    assert s.turn == 13 and s.in_combat and s.outcome != "won"
