"""One-way flips (docs/solver.md, *One-way flips*): a card at the end of a path of a tile that has no path back.

docs/rules.md, *Board*: "the hero may flip a face-down card in direction D when his current tile has a path toward
D ... if it has no path back, that edge is a wall"; rulebook, *Flip adjacent cards*: "The player may flip over
multiple adjacent cards in one turn". Flips from one tile then may reveal two tiles of one route (one through the
path, one entered later from another side): every count of face-down tiles reads the second as face up.
"""

from __future__ import annotations

import pytest
from helpers import campaign, cell, started

from cardrogue.engine.analysis.solver import SOLVED, Budget
from cardrogue.engine.analysis.solver.bounds import relaxation
from cardrogue.engine.analysis.solver.par import solve

SMALL = Budget(max_states=200_000, max_seconds=3600)  # a state budget only: a loaded machine must not change a result

# The starting tile has paths east and south; the exit south of it has a path east only (none back north), so it
# is flipped from the start and entered from the tile east of it: flip both, move east (turn 1), move south and
# west onto the exit (turn 2). A route start -> east -> south-east -> exit.
SQUARE = [cell(0, 0, "starting-tile", "ES"), cell(1, 0, "pathing-tile", "SW", face="down"),
          cell(1, 1, "pathing-tile", "NW"), cell(0, 1, "pathing-tile", "E", face="down", exit=True)]
# The same, and the exit two face-down tiles further on.
LONGER = [cell(0, 0, "starting-tile", "ES"), cell(1, 0, "pathing-tile", "SW", face="down"),
          cell(1, 1, "pathing-tile", "NW"), cell(0, 1, "pathing-tile", "ES", face="down"),
          cell(0, 2, "pathing-tile", "NE", face="down"), cell(1, 2, "pathing-tile", "W", face="down", exit=True)]


def test_a_one_way_flip_reveals_a_tile_the_next_turn_enters():
    # The paced warrior (no +X MOVEMENT, no flee): the half-turn count read the exit as face down (two
    # half-turns) and said 2 turns after the first (5 half-turns, 2 of them this turn); par is 2.
    c = campaign(SQUARE)
    s, _ = started(c)
    assert relaxation(c, s.d).paced
    assert relaxation(c, s.d).bound(s, True) <= 1
    fast, slow = solve(c, 0, True, SMALL), solve(c, 0, True, SMALL, reference=True)
    assert (fast.verdict, fast.turns, fast.health) == (slow.verdict, slow.turns, slow.health) == (SOLVED, 2, slow.health)
    assert fast.actions[:3] in (("flip E", "flip S", "move E"), ("flip S", "flip E", "move E"))


@pytest.mark.parametrize("cells", [SQUARE, LONGER], ids=["square", "longer"])
@pytest.mark.parametrize("character, equipped", [("warrior", ()), ("warrior", ("hasty-boots",)), ("rogue", ()),
                                                 ("explorer", ()), ("mage", ()), ("cleric", ())])
def test_bound_never_overestimates_along_the_witness_with_one_way_flips(cells, character, equipped):
    """Along the uniform-cost search's witness the bound never exceeds the turns still taken, and the search
    finds the same par and health."""
    c = campaign(cells, character=character, equipped=list(equipped))
    fast, slow = solve(c, 0, True, SMALL), solve(c, 0, True, SMALL, reference=True)
    assert slow.verdict == SOLVED
    assert (fast.verdict, fast.turns, fast.health) == (slow.verdict, slow.turns, slow.health)
    s, resolver = started(c)
    for action in slow.actions:
        assert relaxation(c, s.d).bound(s, True) <= slow.turns - s.turn, action
        s.step(action, resolver)
