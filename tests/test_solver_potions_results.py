"""The potion bound's values kept per plan, unpaced: a value is found again only for the same routes.

docs/solver.md, *Speed*: ``PotionBound._with_potions`` keeps its values in the plan per what else they read. An
unpaced hero's value reads the routes from the hero's tile to the ways out (their steps and face-down tiles),
and one plan serves masks whose routes differ: the same call with other routes must not find the first value.
"""

import sys
from pathlib import Path

from helpers import load

from cardrogue.engine.analysis.solver import Budget
from cardrogue.engine.analysis.solver.result import INF
from cardrogue.engine.analysis.solver.search import Search

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import gen  # noqa: E402  (the benchmarks' generator of levels)


def test_a_value_kept_for_some_routes_is_not_read_for_others():
    search = Search(load(gen.mixed_campaign(2, 10, 0, "ladders")), 0, True, Budget(max_states=300, max_seconds=3600))
    relax = search.relax
    assert not relax.paced
    kept, calls = relax._with_potions, []

    def recorded(*args):
        calls.append(args)
        return kept(*args)

    relax._with_potions = recorded
    try:
        search.run()
    finally:
        del relax._with_potions
    assert len(calls) >= 100
    differ = 0
    for li, mask, i, r0, k0, cm, potions, routes, *rest in calls:
        # The same state's call with routes through many more face-down tiles, made right after the real one.
        longer = tuple((d, f + 1000 if f != INF else f, tail, k, h) for d, f, tail, k, h in routes)
        for these in (routes, longer):
            args = (li, mask, i, r0, k0, cm, potions, these, *rest)
            assert relax._with_potions(*args) == relax._with_potions_plain(*args)
        differ += (relax._with_potions_plain(li, mask, i, r0, k0, cm, potions, longer, *rest)
                   != relax._with_potions_plain(li, mask, i, r0, k0, cm, potions, routes, *rest))
    assert differ  # (the routes do change some values)
