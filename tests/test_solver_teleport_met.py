"""A fight after moving beside an enemy met before, on a level whose only potions are of teleportation, while
such a potion is still to be used (docs/solver.md, *A fight after moving beside an enemy met before*, *With
potions*).

Rulebook, FLEE: "a player may flip over adjacent face-down exploration cards in an attempt to move away from the
enemy"; SLAYING AN ENEMY: "resume his Standard Turn Sequence ... at step 4 if he moved adjacent to the enemy"; POTION
OF TELEPORTATION: "If drank: move to any PATHING TILE and end turn" ("A player or enemy may not be teleported ...
onto a tile that has not been revealed yet"). The paced warrior who walks two face-up tiles to one beside an enemy
standing face up flips a tile in that fight, and the next turn enters it as its first move: one half-turn more
than a turn counts. The potion bound counts two half-turns per potion of teleportation, not those gains.
"""

from __future__ import annotations

from helpers import campaign, cell

from cardrogue.engine.analysis.solver import SOLVED, Budget
from cardrogue.engine.analysis.solver.bounds import relaxation
from cardrogue.engine.analysis.solver.par import solve
from cardrogue.engine.chance.resolvers import FatedResolver
from cardrogue.engine.rules.state import GameState

NO_CLOCK = 3600  # state budgets only: a loaded machine must not change a result
SMALL = Budget(max_states=200_000, max_seconds=NO_CLOCK)
TELEPORTATION = {"red": "teleportation"}


def _start(c) -> tuple[GameState, FatedResolver]:
    resolver = FatedResolver(c)
    s = GameState.new(c, log=False)
    s.resolve(resolver)
    return s, resolver


def _bound(c, s: GameState) -> float:
    """The solver's admissible bound on the turns after ``s.turn``."""
    return relaxation(c, s.d).bound(s, True)


def _rats(n: int, potions: int):
    """A corridor east from the start: a face-up tile, then ``n`` times a face-up tile above a rat standing face up
    (1 health) and a face-down tile; the exit face down at its end. The tiles above the rats but the first hold gold
    lying face up (a potion of teleportation lands on no item: only the start and the first two tiles are landing
    tiles, far from the exit). The warrior holds ``potions`` potions of teleportation."""
    cells = [cell(0, 0, "starting-tile", "E"), cell(1, 0, "pathing-tile", "EW")]
    for k in range(n):
        x = 2 + 2 * k
        cells += [cell(x, 0, "gold" if k else "pathing-tile", "ESW"), cell(x, 1, "sewer-rat", "N"),
                  cell(x + 1, 0, "pathing-tile", "EW", face="down")]
    cells.append(cell(2 + 2 * n, 0, "pathing-tile", "W", face="down", exit=True))
    return campaign(cells, items=["red-potion"] * potions, potions=TELEPORTATION, cards={"sewer-rat": {"health": 1}})


def test_three_fights_after_moving_and_a_potion_of_teleportation_kept_for_the_last():
    # Turn 1 walks two face-up tiles to the first rat, flips the tile east in the fight and slays it; turns 2 and 3
    # move onto the tile flipped and on beside the next rat, and do the same; turn 3 drinks the potion in its fight
    # instead, onto the tile just flipped; turn 4 flips the exit and moves onto it: par 4. The potion bound counted
    # 2 half-turns for the potion but none for the three flips (12 half-turns from the start, 2 left of turn 1:
    # 4 turns after the first), and the search proved par 5.
    c = _rats(3, 1)
    slow = solve(c, 0, True, SMALL, reference=True)
    assert (slow.verdict, slow.turns) == (SOLVED, 4)
    assert "drink red" in slow.actions
    fast = solve(c, 0, True, SMALL)
    assert (fast.verdict, fast.turns, fast.health) == (slow.verdict, slow.turns, slow.health)
    s, resolver = _start(c)
    for action in slow.actions:
        assert _bound(c, s) <= slow.turns - s.turn, (s.turn, action)
        s.step(action, resolver)
    assert (s.outcome, s.turn) == ("won", 4)


def test_two_fights_after_moving_and_a_potion_of_teleportation_at_the_start():
    # The same with two rats: par 3 (the potion drunk in the second fight), where the bound said 3 more turns at
    # the start of turn 1.
    c = _rats(2, 1)
    s, _ = _start(c)
    assert _bound(c, s) <= 2
    slow = solve(c, 0, True, SMALL, reference=True)
    assert (slow.verdict, slow.turns) == (SOLVED, 3)
