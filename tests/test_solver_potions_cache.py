"""The potion part of the turns bound, kept: the same values as computed from scratch.

docs/solver.md, *Potions* and *Picking potions up*, and *Speed*: the bound tries every set of the potions
still on their cells. ``PotionBound._with_potions`` keeps what depends only on the level, the face-down
mask, the tile, the potions on their cells and the jumps onto tiles face up now (``_plan``), what a walk
meeting the enemies met covers per enemy (``_meet``), and tries the sets from the one with the least term;
``_with_potions_plain`` computes the same bound from scratch (with ``_meet_plain``). ``potions`` keeps the
level's potions on their cells and its enemies met per the faces of their cards; ``_potions_plain`` reads
them afresh. On every state real searches of potion maps meet, the two must agree: a stale kept value (a
key missing what the value depends on) shows.
"""

import functools
import sys
from pathlib import Path

import pytest
from helpers import load

from cardrogue.engine.analysis.solver import Budget
from cardrogue.engine.analysis.solver import potions
from cardrogue.engine.analysis.solver.search import Search

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import gen  # noqa: E402  (the benchmarks' generator of open levels)

NO_CLOCK = 3600.0


def _open(seed: int, effect: str | None = None, exit_at: tuple[int, int] | None = None):
    """The generated 8x8 map of the verdicts benchmark (``effect``: its red potions made that; ``exit_at``: a
    second exit on a pathing tile there, so the level has two ways out)."""
    doc = gen.campaign(1, 8, seed=seed)
    if effect:
        doc["potions"] = {"red": effect}
    if exit_at:
        cell = next(cell for cell in doc["levels"][0]["cells"] if cell["at"] == list(exit_at))
        cell["card"], cell["exit"] = "pathing-tile", True
    return load(doc)


MAPS = {
    # Seed 6: four potions of paralysis; seeds 14 and 25: four and five of teleportation (benchmarks/RESULTS.md).
    "8x8 seed 6": (lambda: _open(6), 1_500),
    "8x8 seed 14": (lambda: _open(14), 1_500),
    "8x8 seed 25": (lambda: _open(25), 1_500),
    "8x8 seed 25, paralysis": (lambda: _open(25, "paralysis"), 1_500),
    # Seed 37: seven potions of teleportation (six tried as sets: 64 a plan); with a second exit, two ways out.
    "8x8 seed 37": (lambda: _open(37), 1_500),
    "8x8 seed 37, two exits": (lambda: _open(37, exit_at=(5, 7)), 1_500),
    # The held-out-style mix "potions": both kinds on one level, two levels with ladders, unpaced heroes.
    "mixed 1x8x8 seed 4": (lambda: load(gen.mixed_campaign(1, 8, 4, "potions")), 1_500),
    "mixed 1x6x6 seed 11": (lambda: load(gen.mixed_campaign(1, 6, 11, "potions")), 1_500),
    "mixed 2x6x6 seed 3": (lambda: load(gen.mixed_campaign(2, 6, 3, "potions")), 1_500),
    "mixed 2x6x6 seed 4": (lambda: load(gen.mixed_campaign(2, 6, 4, "potions")), 1_500),
}


def _bounds_of_a_search(c, states: int):
    """Run a search and record every call of the kept potion bound: (arguments, value); the potions counted
    in each state (``potions``, read from the tables it keeps) are checked against the plain count there."""
    search = Search(c, 0, True, Budget(max_states=states, max_seconds=NO_CLOCK))
    relax = search.relax
    kept, counted = relax._with_potions, relax.potions
    calls, counts = [], []

    def recorded(*args):
        value = kept(*args)
        calls.append((args, value))
        return value

    def checked(s):
        value = counted(s)
        counts.append(value == relax._potions_plain(s))
        return value

    relax._with_potions = recorded  # the search's bound reads them from the relaxation
    relax.potions = checked
    try:
        search.run()
    finally:
        del relax._with_potions, relax.potions
    assert counts and all(counts)  # (a state's bound may read the potion bound more than once: ``_with_met``)
    return relax, calls


def _settled(relax, args) -> float:
    """``_with_met``'s least ``t >= B(min(A, max(0, t + c)))``, ``B(x)`` the plain bound with ``x`` of the ``A``
    half-turns the call counted at hand (``settle`` = (A, c)), found one ``t`` after another as ``_with_met`` did
    before ``settle``."""
    most, c = args[13]
    r0 = args[3] - most

    def bound(x):
        return relax._with_potions_plain(*args[:3], r0 + x, *args[4:12])

    t = bound(most)
    while t != potions.INF:
        more = t + c if t + c > 0 else 0
        if more >= most or bound(more) <= t:
            break
        t += 1
    return t


def _agrees(relax, args, value) -> bool:
    """The kept bound's ``value`` for ``args`` agrees with the plain computation: equal to it, or, where the call
    passed a ``ceiling`` (``_with_met`` asks only whether the bound is below it), the ceiling if the bound is no
    lower, else a value below the ceiling and no lower than the bound; where it passed ``settle`` (``_with_met``'s
    least turns on a level of potions of paralysis), the least turns found from the plain bound one by one."""
    if len(args) > 13 and args[13] is not None:
        return value == _settled(relax, args)
    ceiling = args[12] if len(args) > 12 else potions.INF
    plain = relax._with_potions_plain(*args[:12])
    if ceiling == potions.INF:
        return value == plain
    return value == ceiling if plain >= ceiling else plain <= value < ceiling


@functools.cache
def _searched(name: str):
    """``_bounds_of_a_search`` of ``MAPS[name]`` with the default cap, kept for this worker: the search is
    deterministic (a state budget, no clock), so the tests reading the same map share one (only read, never
    changed), as they share the check of every value against the plain computation (``_disagreeing``)."""
    make, states = MAPS[name]
    return _bounds_of_a_search(make(), states)


@functools.cache
def _disagreeing(name: str) -> tuple:
    """The calls of ``_searched(name)`` whose kept value does not agree with the plain computation (``_agrees``),
    with the plain value.

    The plain computation's ``_meet_plain`` (what a walk meeting the enemies met covers, from scratch) is a function
    of its arguments alone (the level, the face-down mask, the enemies), read by many calls with the same ones (a
    twentieth of them distinct): it is computed once per distinct arguments here, each time from scratch, never
    from what the search kept (``_meet``)."""
    relax, calls = _searched(name)
    relax._meet_plain = functools.cache(relax._meet_plain)  # the instance's own, for this check alone
    try:
        return tuple((args, value, relax._with_potions_plain(*args[:12])) for args, value in calls
                     if not _agrees(relax, args, value))
    finally:
        del relax._meet_plain


@pytest.mark.parametrize("name", list(MAPS))
def test_cached_potion_bound_equals_the_plain_one(name):
    """On every state a search of the map meets (potions held and on their cells, enemies met and left
    alive, teleports pending), the kept bound equals the plain computation, and the kept plans were read
    again (fewer plans than calls)."""
    relax, calls = _searched(name)
    assert len(calls) >= 500
    wrong = _disagreeing(name)
    assert not wrong, f"{len(wrong)} of {len(calls)} differ, first: {wrong[0][1:]}"
    assert 0 < len(relax._plans) < len(calls)
    assert relax._plan_sets == sum(len(plan[0]) for plan in relax._plans.values()) <= potions.MAX_PLAN_SETS


def test_the_plans_kept_stay_within_their_cap(monkeypatch):
    """``_plans`` holds at most ``MAX_PLAN_SETS`` sets of potions (all dropped when full), and the
    bound read with a small cap is the same."""
    monkeypatch.setattr(potions, "MAX_PLAN_SETS", 200)
    relax, calls = _bounds_of_a_search(_open(25), 600)
    assert relax._plan_sets == sum(len(plan[0]) for plan in relax._plans.values()) <= 200
    assert all(_agrees(relax, args, value) for args, value in calls)
    # ``_with_potions``' kept reads hold plans' sets too: only those of plans still kept, so the cap bounds them.
    kept = {id(plan[0]) for plan in relax._plans.values()}
    assert relax._preps and all(id(prep[1]) in kept for prep in relax._preps.values())


def test_plans_are_shared_by_the_masks_that_give_them_the_same_values(monkeypatch):
    """A plan reads the face-down mask only through the steps from a tile face up to each potion on its cell,
    the face-down tiles of their trees and the direct routes' half-turns: masks that give the same values share
    one plan (fewer plans than (mask, tile, potions, jumps) seen), and the paced values kept in a plan are
    read again; every value still equals the plain computation."""
    monkeypatch.setattr(potions, "MAX_PLAN_SETS", 10**9)  # nothing dropped: every plan built is still kept
    relax, calls = _bounds_of_a_search(_open(37), 1_500)
    seen = set()
    for (li, mask, i, _, _, campaign_mode, held, _, _, blocked, *_), _ in calls:
        jumps = relax._jumps(li, mask, blocked)
        seen.add((li, mask, i, held[3], campaign_mode, jumps, bool(jumps) and not held[0]))
    assert len(relax._plans) < len(seen)
    assert sum(len(plan[4]) for plan in relax._plans.values()) < len(calls)
    assert all(_agrees(relax, args, value) for args, value in calls)


def test_the_least_turns_of_a_paralysis_map_come_from_one_search_over_the_sets():
    """On a level whose potions are all of paralysis, ``_with_met``'s least ``T >= B(min(A, max(0, T + c)))``
    (docs/solver.md, *A fight after moving beside an enemy met before*, with potions) is found in one call of the
    kept bound (``settle``: each term's own least ``T``, the least over the terms), equal on every state to the
    turns found from the plain bound one ``T`` after another."""
    relax, calls = _searched("8x8 seed 6")
    settled = [(args, value) for args, value in calls if len(args) > 13 and args[13] is not None]
    assert len(settled) >= 500 and len(settled) == len(calls)  # one call per ``_with_met``, no other
    assert any(value > relax._with_potions_plain(*args[:12]) for args, value in settled)  # (some settle above B(A))
    # ``_agrees`` of a call with ``settle`` is ``value == _settled(relax, args)``: every call here has one.
    assert not _disagreeing("8x8 seed 6")


def test_a_plan_keeps_its_groups_of_sets_per_the_potions_held():
    """docs/solver.md, *Speed*: the groups of sets a call of the kept bound draws from read only the plan, the
    potions held and ``only``: a plan keeps them per those (its sixth part), for the calls of the masks and tiles
    that share the plan. Every value still equals the plain computation."""
    relax, calls = _searched("8x8 seed 6")
    kept = [plan[5] for plan in relax._plans.values()]
    assert any(kept) and all(key[2] == -1 for groups in kept for key in groups)
    assert not _disagreeing("8x8 seed 6")


def test_a_plan_keeps_its_values_where_the_orders_of_pickups_are_read():
    """docs/solver.md, *Speed*: where the orders of picking potions up are read (the paced warrior with potions of
    paralysis alone, ``ordered``), the value of a call reads the mask beyond its plan only through the face-down
    tiles of a route from the tile to each potion on its cell: with those in the key, the plan keeps the values
    too (its fifth part). Every value, kept or not, equals the plain computation."""
    relax, calls = _searched("8x8 seed 6")
    assert relax.ordered
    kept = [key for plan in relax._plans.values() for key in plan[4]]
    assert any(key[-1] is not None for key in kept)
    assert not _disagreeing("8x8 seed 6")
