"""docs/solver.md, *The winning turn holds no gain*: a fight after moving won ends the hero's moves for the turn, and
entering the exit wins at once, so the turn that wins holds no such fight; the allowance of fights after moving beside
an enemy met before counts one turn fewer."""

import sys
from pathlib import Path

from helpers import campaign, open_grid, started

from cardrogue.engine.analysis.solver.bounds import Relaxation, relaxation

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import gen  # noqa: E402  (the benchmarks' generator of open levels)
from test_solver_para_moves import _remaining, _within_on_wanders  # noqa: E402


class _WinningTurnMayGain(Relaxation):
    """The bound before the rule: the winning turn counted among the turns that may gain."""

    def _met_allowance(self, *args, **kw):
        most, c = super()._met_allowance(*args, **kw)
        return most, c + 1


def _bound_without_the_rule(c, s) -> float:
    return _WinningTurnMayGain(c, s.d).bound(s, True)


def test_the_winning_turn_holds_no_gain():
    """SLAYING AN ENEMY: "the player can resume his Standard Turn Sequence at step 2 if he flipped over the enemy card,
    or at step 4 if he moved adjacent to the enemy"; docs/rules.md, *Board*: "A cell marked exit wins the campaign
    when the hero moves onto it alive"; PARALYSIS, "A player may FLEE from a paralyzed enemy without needing to roll".
    The warrior holds two potions of paralysis on a 4x3 map with every card face down but the start (top left) and
    two goblins of 40 health in the middle row: a flee leaves the goblins met so, and a fight after moving beside one
    of them flips a tile for the next turn, but the turn that enters the exit holds no such fight. The bound at the
    start is the 3 turns after the first that the plain uniform-cost search needs (2 when the winning turn could gain
    too), and it stays within the turns left on states random play reaches."""
    cells = open_grid(4, 3, dict.fromkeys([(1, 1), (2, 1)], "goblin"))
    c = campaign(cells, items=["red-potion", "red-potion"], potions={"red": "paralysis"},
                 cards={"goblin": {"health": 40}})
    s, _ = started(c)
    assert relaxation(c, s.d).bound(s, True) == 3 == _remaining(c, s)
    assert _bound_without_the_rule(c, s) == 2
    _within_on_wanders(c, 11)
