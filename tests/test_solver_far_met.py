"""A gain beside an enemy met so needs the walk beside it: the paced warrior whose only potions are of teleportation,
with enemies met so standing away from him (docs/solver.md, *A gain beside an enemy met needs the walk beside it*).

Rulebook, Combat: "When a player flips over an ENEMY, or a player moves to an ADJACENT TILE of a revealed enemy, that
player must enter combat"; FLEE: "When a player is adjacent to multiple enemies, he is in combat with those enemies";
POTION OF TELEPORTATION: "If thrown: the player who threw the potion can move the enemy or player it was thrown on to
any Pathing Tile", "If drank: move to any PATHING TILE and end turn".
"""

from __future__ import annotations

import sys
from pathlib import Path

from helpers import after, bound, turns_left

from cardrogue.engine.analysis.solver import Budget
from cardrogue.engine.format.loader import load_campaign_text

NO_CLOCK = 3600  # state budgets only: a loaded machine must not change a result
SMALL = Budget(max_states=200_000, max_seconds=NO_CLOCK)

# The seed-27 line of benchmarks/tele_open.py: to turn 11, the second potion thrown at a bat and the bat moved to the
# top row, far behind; the first potion picked up on the way.
SEED_27_LINE = ("flip E | move E | end | flip E | move E | end | flip E | flip S | move S | end | flip S | flip W | move S | "
                "end | flip E | flip S | attack | move S | end | flip E | flip S | move S | end | flip E | flip S | move E | "
                "end | flip E | flip S | move E | end | flip E | flip N | flip S | move E | end | flip N | flip E | flip S | "
                "move E | end | flip N | flip E | flip S | throw red E | teleport 2,0 | attack | move N").split(" | ")


def _generated(seed: int):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import gen  # noqa: PLC0415  (the benchmarks' generator of maps)

    return load_campaign_text(gen.campaign_text(1, 8, seed=seed)).campaign


def test_a_gain_beside_an_enemy_met_far_behind_needs_the_walk_beside_it():
    # Turn 11 on the 8x8 map of seed 27 (benchmarks/gen.py): one potion of teleportation in hand, the bat thrown to the
    # top row, 10 steps behind the walk to the exit. The gains counted it as met (one fight after moving beside it) and
    # the bound said 2 turns after the 11th where 3 are left. A gain beside it is a fight after moving at a tile beside
    # it: the walks that never stand there gain without it (3 turns), the others walk back to it, even with a jump onto
    # the top row, and take longer.
    c = _generated(27)
    s = after(c, SEED_27_LINE)
    assert (s.turn, s.hand, len(s.visitors)) == (11, ("red-potion",), 1)
    assert bound(c, s) == 3 == turns_left(c, s, SMALL)
