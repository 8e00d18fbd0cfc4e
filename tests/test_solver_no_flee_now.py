"""docs/solver.md, *No flee left of this turn*: with a potion of paralysis at hand and no enemy met so, a turn in
which no fight can begin any more (moving, at step 4, or in step 1 on a tile with no face-down card to flip) holds
no flee, so the first flee comes next turn at the soonest and, as that turn holds no gain, the first gain the turn
after."""

from helpers import campaign, open_grid, started

from cardrogue.engine.analysis.solver.bounds import Relaxation, relaxation

from test_solver_para_moves import _remaining, _within_on_wanders


def _bound_with_a_flee_now(c, s) -> float:
    """The bound before the rule: a flee counted as possible in this turn whenever a potion is at hand."""
    relax = Relaxation(c, s.d)
    relax._no_flee_now = lambda *args: False
    return relax.bound(s, True)


def test_a_turn_with_no_fight_left_holds_no_flee():
    """Standard turn sequence (FLEE: "a player may flip over adjacent face-down exploration cards"; combat begins "When a
    player flips over an ENEMY, or a player moves to an ADJACENT TILE of a revealed enemy"); PARALYSIS, "A player may
    FLEE from a paralyzed enemy without needing to roll". The warrior holds two potions of paralysis on a 4x3 map whose
    start, the tile east of it and the one south of it are face up, every other card face down, two goblins of 40
    health in the middle row. At the start he has nothing to flip and no enemy stands revealed: no fight, so no flee,
    is left of turn 1, and the first gain comes in turn 3 at the soonest. The bound at the start, and after the move
    east, is the 3 turns after the first that the plain uniform-cost search needs (2 when a flee could come in turn 1),
    and it stays within the turns left on states random play reaches."""
    cells = open_grid(4, 3, dict.fromkeys([(1, 1), (2, 1)], "goblin"), up=frozenset({(0, 0), (1, 0), (0, 1)}))
    c = campaign(cells, items=["red-potion", "red-potion"], potions={"red": "paralysis"},
                 cards={"goblin": {"health": 40}})
    s, resolver = started(c)
    assert relaxation(c, s.d).bound(s, True) == 3 == _remaining(c, s)
    assert _bound_with_a_flee_now(c, s) == 2
    s.step(next(a for a in s.legal_actions() if str(a) == "move E"), resolver)
    assert relaxation(c, s.d).bound(s, True) == 3 == _remaining(c, s)
    assert _bound_with_a_flee_now(c, s) == 2
    _within_on_wanders(c, 12)
