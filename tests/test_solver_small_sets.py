"""Faces compared as sets on small levels (engine/analysis/solver/dominance.py ``SET_CELLS``; docs/solver.md,
*Transpositions and dominance*): on a level of at most 144 cells a state with more pathing tiles and items face
up dominates one with fewer, all else being no worse.

Card Rogue v1.1.2, STANDARD TURN SEQUENCE step 1: "Flip any face-down card at the end of one of the tile's
paths"; step 2: "Move onto an ADJACENT face-up card". A flip only turns a card up (a pathing tile or an item
does nothing more when flipped: an item is taken when moved onto), so a tile already face up offers every
action the face-down one does but the flip. The sweep's small maps whose open lines differed mostly in the
tiles they had turned up now get their par.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from helpers import same_par_as_the_reference

from cardrogue.engine.analysis.solver import SOLVED, Budget
from cardrogue.engine.analysis.solver.dominance import Fronts
from cardrogue.engine.analysis.solver.search import Search
from cardrogue.engine.format.loader import load_campaign_text
from cardrogue.engine.rules.state import GameState

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import gen  # noqa: E402  (the benchmarks' generator of item mixes)
from bench_mix import levels_for  # noqa: E402  (the sweep's levels per mix and seed)


def _mix(size: int, mix: str, seed: int):
    return load_campaign_text(gen.mixed_campaign_text(levels_for(mix, seed), size, seed, mix)).campaign


def test_small_levels_compare_faces_as_sets_and_big_ones_exactly():
    # A 12x12 level is small; the open 16x16 map (no potion) keeps its faces compared exactly.
    small = load_campaign_text(gen.campaign_text(1, 12, seed=1)).campaign
    big = load_campaign_text(gen.campaign_text(1, 16, seed=1)).campaign
    assert Fronts(small, GameState.new(small, log=False).d).quiet
    assert not Fronts(big, GameState.new(big, log=False).d).quiet


@pytest.mark.parametrize("size, mix, seed, turns, health, states", [
    (6, "gear", 1, 6, 16, 100_000),  # the warrior and a scroll of passage: unknown at 100,000 states before
    (4, "ladders", 0, 8, 12, 150_000),  # two potions of teleportation: unknown at 100,000, a run of 9 known
])
def test_sweep_maps_whose_lines_differed_in_the_tiles_turned_up_get_their_par(size, mix, seed, turns, health, states):
    search = Search(_mix(size, mix, seed), 0, True, Budget(max_states=states, max_seconds=3600.0))
    verdict, _, t, h, _ = search.run()
    assert (verdict, t, h) == (SOLVED, turns, health)


@pytest.mark.parametrize("size, mix, seed", [(3, "all", 2), (4, "ladders", 2), (3, "potions", 1), (3, "ladders", 2)])
def test_small_sweep_maps_keep_the_reference_par(size, mix, seed):
    """The uniform-cost reference search (no bound, no dominance) finds the same par and health."""
    same_par_as_the_reference(_mix(size, mix, seed), Budget(max_states=300_000, max_seconds=3600.0))
