"""Two gains from one potion of teleportation drunk in a fight (docs/solver.md, *Two gains from one drink*).

Rulebook, POTION OF TELEPORTATION: "If drank: move to any PATHING TILE and end turn" ("A player or enemy may not be
teleported ... onto a tile that has not been revealed yet"); FLEE: "When a player is adjacent to multiple enemies, he
is in combat with those enemies"; COMBAT TURN SEQUENCE: "If neither the player or enemy are slain during this turn,
the player ends his turn"; TELEPORTING OR MOVING TO A TILE, BUT TURN IS ENDED: "the moved player does not flip over
tiles ... enemies do not attack him ... until the beginning of that player's turn". A potion drunk in a fight leaves
the enemies beside the tile alive and face up, each worth one fight after moving that flips a tile for the next turn
(a gain); but the walk must then come back beside two of them, one at a time, from a tile it lands on beside neither:
where no such walk is as short as the way out, one drink gives one gain at most.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from helpers import campaign, cell, par_line_holds, started

from cardrogue.engine.analysis.solver import SOLVED, Budget
from cardrogue.engine.analysis.solver.bounds import Relaxation, relaxation
from cardrogue.engine.analysis.solver.par import solve
from cardrogue.engine.format.loader import load_campaign_text

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import bound_hunt  # noqa: E402  (the benchmarks' hunt for overestimates: its maps)
import gen  # noqa: E402  (the benchmarks' generator of maps)
from test_solver_teleport_met import SMALL  # noqa: E402  (the budget of the reference's par line)

NO_CLOCK = 3600  # state budgets only: a loaded machine must not change a result


class _Without(Relaxation):
    """The bound without the rule: every drink in a fight may give ``tele_crowd`` gains."""

    def _lone_drink(self, s, li, potions, allow):
        return False


def _corridor(n: int, rats: tuple, held: bool):
    """A row of ``n`` face-down tiles east of the start to the exit; above and below each x of ``rats`` a rat (1
    health) face down, joined to the row only; one potion of teleportation in hand, or else on the row's first tile."""
    cells = []
    for x in range(n + 1):
        paths = ("E" if x < n else "") + ("W" if x > 0 else "") + ("NS" if x in rats else "")
        card = "starting-tile" if x == 0 else "red-potion" if x == 1 and not held else "pathing-tile"
        cells.append(cell(x, 1, card, "".join(ch for ch in "NESW" if ch in paths), face="up" if x == 0 else "down",
                          **({"exit": True} if x == n else {})))
        if x in rats:
            cells += [cell(x, 0, "sewer-rat", "S", face="down"), cell(x, 2, "sewer-rat", "N", face="down")]
    return campaign(cells, items=["red-potion"] if held else [], potions={"red": "teleportation"},
                    cards={"sewer-rat": {"health": 1}})


@pytest.mark.parametrize("n, rats, held", [(4, (2,), True), (5, (1, 3), True), (6, (2, 4), False), (7, (3,), False)])
def test_two_enemies_beside_one_tile_of_a_corridor_give_one_gain_at_most(n, rats, held):
    # Every tile of the row is face down: n turns without a gain (a flip, then a move). The potion, drunk in the fight
    # with the two rats a flip at x reveals, leaves both; but a tile beside either of them is x alone, which is beside
    # the other too, so no walk gains by both (the first fight would hold both rats: it ends the turn unless both are
    # slain, and one attack slays one). The bound at the start was n - 2 turns after the first (two gains); now n - 1.
    c = _corridor(n, rats, held)
    s, _ = started(c)
    assert _Without(c, s.d).bound(s, True) == n - 2
    assert relaxation(c, s.d).bound(s, True) == n - 1
    par_line_holds(c, n, SMALL)


def test_seed_5_is_proved_at_its_par():
    # The 8x8 map of seed 5 (one potion of teleportation, two steps from the start; tiles beside two enemies): two gains
    # from the drink need two steps more than the way to the exit (docs/solver.md), so the bound at the start is 13 turns
    # after the first, not 12, and the search proves par 14 (benchmarks/RESULTS.md).
    c = load_campaign_text(gen.campaign_text(1, 8, seed=5)).campaign
    s, _ = started(c)
    assert _Without(c, s.d).bound(s, True) == 12
    assert relaxation(c, s.d).bound(s, True) == 13
    r = solve(c, 0, True, Budget(max_states=5_000, max_seconds=NO_CLOCK))
    assert (r.verdict, r.turns) == (SOLVED, 14)


# The grids of seed 1 (by their index among the 8 drawn) whose reference search finds no win within 20,000 states, from
# the start or from any state its walks reach: 8 s of CPU of the seed's 10 for no comparison.
_UNDECIDED = {(1, 0), (1, 7)}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_small_grids_with_enemies_around_one_tile_keep_the_bound_within_the_turns_left(seed):
    # The hunt's small grids (bound_hunt.teleport_two_gains: one potion of teleportation, two or three enemies around
    # one tile, walls now and then): along the reference search's par line and at states random play reaches, the bound
    # is never above the turns the reference search still needs.
    rng = random.Random(seed)
    grids = [g for k, g in enumerate(bound_hunt.teleport_two_gains(rng, 8)) if (seed, k) not in _UNDECIDED]
    out = bound_hunt.hunt(grids, 3, 20_000, rng, True, witness=True)
    assert out["found"] == [], json.dumps(out["found"][:2])
    assert out["counts"].get("states", 0) > 20
