"""The trees of the potion bound, computed the short way: the same values as the long way.

docs/solver.md, *Picking potions up*: a walk that picks a potion up and leaves by a way out enters at least the
face-down tiles of the smallest tree joining the potion's cell, the way out and the tiles face up now — the least
over a junction v of the three routes from v, v counted once. ``PotionBound._trees`` takes the least over v of
the target's part through the tiles face up now once per way out and mask, not per target; here the least over v
is taken as written, on every call searches of potion maps make (and on the maps' enemies met, ``_meet``).
"""

import sys
from collections import deque
from itertools import repeat
from operator import add
from pathlib import Path

import pytest
from helpers import load

from cardrogue.engine.analysis.solver import Budget
from cardrogue.engine.analysis.solver.relaxed import propagate
from cardrogue.engine.analysis.solver.result import INF
from cardrogue.engine.analysis.solver.search import Search

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import gen  # noqa: E402  (the benchmarks' generator of levels)

MAPS = {
    "8x8 seed 25": (lambda: load(gen.campaign(1, 8, seed=25)), 1_000),  # five potions of teleportation
    "mixed 1x10x10 seed 0": (lambda: load(gen.mixed_campaign(1, 10, 0, "potions")), 600),
    "mixed 2x6x6 seed 3": (lambda: load(gen.mixed_campaign(2, 6, 3, "potions")), 1_000),
}


def _trees_as_written(relax, level: int, down: bytes, targets: tuple) -> tuple:
    """Per way out, per target: the least over a junction v of the target's route from v (or through the
    tiles face up now) plus the way out's (likewise) plus v's own route to the tiles face up now, v once."""
    counts = relax.face_down_counts(level, down)
    nbrs = relax.local[level]
    n = len(nbrs)
    up = [v for v in range(n) if not down[v]]
    from_up = [INF] * n
    for v in up:
        from_up[v] = 0
    from_up = propagate(nbrs, down, from_up, deque(up))
    keep = [f - 2 * d for f, d in zip(from_up, down)]
    out = []
    for enter_w in counts:
        w_up = min(map(enter_w.__getitem__, up), default=INF)
        share = list(map(add, map(min, enter_w, map(add, repeat(w_up, n), from_up)), keep))
        row = []
        for enter_c in targets:
            c_up = min(map(enter_c.__getitem__, up), default=INF)
            a = map(min, enter_c, map(add, repeat(c_up, n), from_up))
            row.append(min(c_up + w_up, min(map(add, a, share))))
        out.append(tuple(row))
    return tuple(out)


@pytest.mark.parametrize("name", list(MAPS))
def test_trees_equal_the_least_over_every_junction_as_written(name):
    make, states = MAPS[name]
    search = Search(make(), 0, True, Budget(max_states=states, max_seconds=3600))
    relax = search.relax
    kept = relax._trees
    calls = []

    def recorded(level, down, targets, hint=None):
        value = kept(level, down, targets, hint)
        calls.append((level, down, targets, value))
        return value

    relax._trees = recorded
    try:
        search.run()
    finally:
        del relax._trees
    assert len(calls) >= 50 and any(len(targets) > 1 for _, _, targets, _ in calls)
    wrong = [(level, value) for level, down, targets, value in calls
             if value != _trees_as_written(relax, level, down, targets)]
    assert not wrong, f"{len(wrong)} of {len(calls)} differ"
