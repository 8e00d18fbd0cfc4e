"""The hero's poison compared, less dominating, where it only ever hurts (engine/analysis/solver/dominance.py
``Fronts.poison``; docs/solver.md, *Poison*).

Card Rogue v1.1.2, POISON -1 HEALTH FOR Y TURNS: at the beginning of each of his turns the poisoned player loses
1 health; a new poison replaces the old only when it lasts longer (docs/rules.md). POISON INSTEAD HEALS +X
HEALTH turns that loss into healing: where no card of the game says so, a state with less poison and no less
health plays every line of one with more, never with less health.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from helpers import campaign, cell, same_par_as_the_reference, started

from cardrogue.engine.analysis.solver import Budget
from cardrogue.engine.analysis.solver.dominance import Fronts
from cardrogue.engine.format.loader import load_campaign_text

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import gen  # noqa: E402  (the benchmarks' generator of item mixes)
from bench_mix import levels_for  # noqa: E402  (the sweep's levels per mix and seed)

CELLS = [cell(0, 0, "starting-tile", "E"), cell(1, 0, "pathing-tile", "W", exit=True)]


def _admitted(items=(), *pairs: tuple[int, int]) -> list[bool]:
    """Admit the start with each (poison, health) in turn: whether each was kept (admitted, not retired)."""
    c = campaign(CELLS, items=list(items))
    s, _ = started(c)
    fronts = Fronts(c, s.d)
    entries = []
    for poison, health in pairs:
        t = s.clone()
        t.poison, t.health = poison, health
        entries.append(fronts.admit(t))
    return [e is not None and e[4] for e in entries]


def test_less_poison_and_no_less_health_dominates():
    assert _admitted((), (2, 8), (0, 8)) == [False, True]  # the second retires the first
    assert _admitted((), (0, 8), (2, 8)) == [True, False]  # the second is dominated at once
    assert _admitted((), (2, 9), (0, 8)) == [True, True]  # more health, more poison: both kept


def test_poison_is_compared_exactly_where_it_may_heal():
    # The scroll of POISON INSTEAD HEALS in the game: the poisoned state may be the better one.
    assert _admitted(("scroll-of-antidote",), (2, 8), (0, 8)) == [True, True]


@pytest.mark.parametrize("size, mix, seed", [(4, "traps", 0), (4, "monsters", 1), (3, "ladders", 2), (4, "heroes", 0)])
def test_maps_with_poison_keep_the_reference_par(size, mix, seed):
    """The sweep's small maps with poison (traps, enemies): the par of the uniform-cost reference search."""
    c = load_campaign_text(gen.mixed_campaign_text(levels_for(mix, seed), size, seed, mix)).campaign
    same_par_as_the_reference(c, Budget(max_states=300_000, max_seconds=3600.0))
