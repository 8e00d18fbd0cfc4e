"""The turns bound on the teleportation maps, for less work: the same values (docs/solver.md, *Speed*).

``_with_met`` reads two counts on a level with potions on their cells (the walks that pick none of them up, and the
others) and keeps the lesser: the second stops its search for the least turns once it reaches the first (``cap``).
``_with_potions`` keeps what its calls with a ceiling learnt of a value (at least the ceiling, or at most what it
returned below it) beside the values it keeps, and answers a later call with a ceiling from it. A ``teleport`` action
checks its one tile rather than listing every tile a potion of teleportation may land on.
"""

import random
import sys
from pathlib import Path

from helpers import load
from test_solver_potions_cache import _agrees, _bounds_of_a_search

from cardrogue.engine.analysis.solver import Budget
from cardrogue.engine.analysis.solver import potions
from cardrogue.engine.analysis.solver.bounds import Relaxation
from cardrogue.engine.analysis.solver.search import Search
from cardrogue.engine.chance.resolvers import FatedResolver
from cardrogue.engine.rules.state import CHOOSE_TELEPORT, GameState

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import gen  # noqa: E402  (the benchmarks' generator of open levels)

NO_CLOCK = 3600.0


def _open(seed: int):
    """The generated 8x8 map of the verdicts benchmark (seeds 21, 25 and 27: potions of teleportation)."""
    return load(gen.campaign(1, 8, seed=seed))


def _search(c, states: int, capped: bool):
    """Run a search, recording every turns bound it reads and counting the potion bound's calls; ``capped``
    False: ``_with_met`` always searches to the least turns (its ``cap`` dropped)."""
    search = Search(c, 0, True, Budget(max_states=states, max_seconds=NO_CLOCK))
    relax = search.relax
    bound, kept = relax.bound_masked, relax._with_potions
    values, calls = [], []

    def recorded(*args):
        value = bound(*args)
        values.append(value)
        return value

    def counted(*args):
        calls.append(1)
        return kept(*args)

    def uncapped(*args, cap=None):
        return Relaxation._with_met(relax, *args[:12])  # (every argument but ``cap``)

    relax.bound_masked, relax._with_potions = recorded, counted
    if not capped:
        relax._with_met = uncapped
    try:
        search.run()
    finally:
        del relax.bound_masked, relax._with_potions
        if not capped:
            del relax._with_met
    return values, len(calls), (search.expanded, search.generated)


def test_the_second_count_of_with_met_stops_at_the_first():
    """On seed 27 (potions of teleportation on their cells: the walks that pick none up and the others), every bound
    the search reads is the same with the second count capped by the first and without, and the cap saves calls of
    the potion bound."""
    capped, capped_calls, counts = _search(_open(27), 800, capped=True)
    plain, plain_calls, plain_counts = _search(_open(27), 800, capped=False)
    assert len(capped) >= 2_000
    assert capped == plain and counts == plain_counts
    assert capped_calls < plain_calls


def test_calls_with_a_ceiling_are_answered_from_what_earlier_ones_learnt():
    """On seed 21, what calls of the kept potion bound with a ceiling learnt is kept in the plans (``_CEILING``
    keys), and every call, answered so or not, agrees with the plain computation (the ceiling if the bound is no
    lower, else a value below the ceiling and no lower than the bound)."""
    relax, calls = _bounds_of_a_search(_open(21), 800)
    kept = [key for plan in relax._plans.values() for key in plan[4] if key[0] == potions._CEILING]
    assert kept
    assert sum(1 for args, _ in calls if len(args) > 12 and args[12] != potions.INF) >= 100
    assert all(_agrees(relax, args, value) for args, value in calls)


def test_a_teleport_checks_its_one_tile():
    """``is_teleport_target(j)`` is ``j in teleport_targets()`` for every cell (and -1, no cell, and past the last)
    on every state of random play on a map with potions of teleportation, choices of a tile among them."""
    c = _open(25)
    resolver = FatedResolver(c)
    rng = random.Random(7)
    cells = range(-1, 80)  # (the 64 cells of the one 8x8 level, -1 for none and some past the last)
    seen = choices = 0
    for _ in range(40):
        s = GameState.new(c, 0, log=False)
        s.resolve(resolver)
        for _ in range(80):
            actions = s.legal_actions()
            if not actions:
                break
            targets = set(s.teleport_targets())
            assert [j for j in cells if s.is_teleport_target(j)] == sorted(targets)
            seen += 1
            choices += s.phase == CHOOSE_TELEPORT
            s.advance(rng.choice(actions), resolver)
    assert seen >= 1_000 and choices >= 10
