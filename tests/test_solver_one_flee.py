"""docs/solver.md, *One flee left: two gains take two steps more*: with one potion of paralysis still to be used in all
and no enemy met so now, the walks that gain twice by the enemies the one flee leaves pass beside them, two steps more.
"""

import sys
from pathlib import Path

from helpers import campaign, load, open_grid, started

from cardrogue.engine.analysis.solver import SOLVED, Budget, solve_campaign
from cardrogue.engine.analysis.solver.bounds import Relaxation, relaxation

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import gen  # noqa: E402  (the benchmarks' generator of open levels)
from test_solver_para_moves import _remaining, _within_on_wanders  # noqa: E402

NO_CLOCK = 3600.0


def _bound_without_the_rule(c, s) -> float:
    relax = Relaxation(c, s.d)
    relax._lone_flee = lambda *args: False
    return relax.bound(s, True)


def test_two_gains_from_the_one_flee_take_two_steps_more():
    """POTION OF PARALYSIS, "If thrown: the potion will cause PARALYSIS on the player or enemy it was thrown on for a
    turn"; PARALYSIS, "A player may FLEE from a paralyzed enemy without needing to roll"; FLEE, "When a player is
    adjacent to multiple enemies, he is in combat with those enemies"; FLEEING FROM AN ENEMY, "the player and enemy
    will leave combat and the player can resume his Standard Turn Sequence at step 4, and the enemy's health will be
    completely restored"; COMBAT TURN SEQUENCE, "If neither the player or enemy are slain during this turn, the player
    ends his turn". The warrior holds one potion of paralysis, on a 3x4 map with every card face down but the start
    (top left) and two goblins of 1 health: the one flee may leave both alive and met so, but a walk that then gains by
    both passes beside them, two steps more than the way to the exit. The bound at the start is the 4 turns after the
    first that the plain uniform-cost search needs (3 when every enemy a flee may leave was a gain), and it stays
    within the turns left on states random play reaches."""
    cells = open_grid(3, 4, dict.fromkeys([(2, 0), (1, 1)], "goblin"))
    c = campaign(cells, items=["red-potion"], potions={"red": "paralysis"}, cards={"goblin": {"health": 1}})
    s, _ = started(c)
    assert relaxation(c, s.d).bound(s, True) == 4 == _remaining(c, s)
    assert _bound_without_the_rule(c, s) == 3
    _within_on_wanders(c, 7)


def test_seed_7_one_potion_of_paralysis_gets_its_par():
    """The 8x8 map of seed 7 (``benchmarks/gen.py``; one potion of paralysis two tiles from the start, three enemy
    cards beside one tile): the bound at the start rises from 12 turns after the first to 13 (par 14), and the search
    proves par 14 with 12 health within 3,000 states, where it ended unknown at 20,000."""
    c = load(gen.campaign(1, 8, seed=7))
    s, _ = started(c)
    assert relaxation(c, s.d).bound(s, True) == 13
    assert _bound_without_the_rule(c, s) == 12
    r = solve_campaign(c, Budget(max_states=3_000, max_seconds=NO_CLOCK), per_level=False)
    assert (r.verdict, r.turns, r.health) == (SOLVED, 14, 12)
