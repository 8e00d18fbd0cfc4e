"""Spent dice (engine/analysis/solver/packing.py ``spent_streams_dropped``; docs/solver.md, *Spent dice*): the
search keeps no count of dice drawn from a stream no rule reads again, so lines that differ only in how long
a finished fight took merge.

DESIGN, Fated dice: "each card instance has its own stream"; a die is drawn from it only for that card. SLAYING
AN ENEMY: "When the enemy card is picked up, it should be replaced with a face-up PATHING TILE" -- the enemy's
stream is never read again. POTION OF TELEPORTATION thrown at an enemy moves it; its stream goes with it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from helpers import campaign, cell, play, same_par_as_the_reference, started

from cardrogue.engine.analysis.solver import SOLVED, Budget
from cardrogue.engine.analysis.solver.packing import spent_streams_dropped
from cardrogue.engine.analysis.solver.search import Search
from cardrogue.engine.format.loader import load_campaign_text

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import gen  # noqa: E402  (the benchmarks' generator of item mixes)
from bench_mix import levels_for  # noqa: E402  (the sweep's levels per mix and seed)

BUDGET = Budget(max_states=50_000, max_seconds=3600.0)  # states decide, never the clock


def test_a_slain_enemys_dice_are_dropped_and_a_living_ones_kept():
    # The warrior beside two goblins; the first attack (a 6 from the east goblin's stream) slays it.
    cells = [cell(0, 0, "goblin", "E", rolls=[1, 1, 1]), cell(1, 0, "starting-tile", "EW"),
             cell(2, 0, "goblin", "EW", rolls=[6, 6, 6]), cell(3, 0, "pathing-tile", "W", exit=True)]
    s, _ = started(campaign(cells))
    play(s, "attack E")
    east, west = 2, 0  # the cells the goblins started on (cell order: row by row)
    assert s.faces[east] == 2 and s.rolls_drawn(east) == 1  # slain: its card is gone, a pathing tile remains
    kept = dict(spent_streams_dropped(s))
    assert east not in kept
    assert all(kept.get(j, 0) == s.rolls_drawn(j) for j in range(4) if j != east)
    assert s.faces[west] != 2 and kept.get(west, 0) == s.rolls_drawn(west)  # alive: its stream goes on


def test_an_enemy_moved_by_a_potion_of_teleportation_keeps_its_dice():
    # POTION OF TELEPORTATION: the enemy's card leaves its cell (cleared there) and stands on another tile, alive;
    # its stream goes on from where it was.
    cells = [cell(0, 0, "goblin", "E"), cell(1, 0, "starting-tile", "EW"), cell(2, 0, "pathing-tile", "W", exit=True)]
    s, _ = started(campaign(cells))
    s.draws = ((0, 3),)
    s.faces[0] = 2  # the goblin's own cell, cleared as a thrown potion leaves it
    s.visitors = {2: 0}  # ... and the goblin on the exit's tile
    assert spent_streams_dropped(s) == ((0, 3),)
    s.visitors = {}
    assert spent_streams_dropped(s) == ()


def _mix(size: int, mix: str, seed: int):
    return load_campaign_text(gen.mixed_campaign_text(levels_for(mix, seed), size, seed, mix)).campaign


def test_lines_that_differ_only_in_a_finished_fights_length_merge():
    # The held-out-style sweep's 6x6 `walls` map of seed 1 (par 11 turns, 5 health): its lines differ in how many
    # dice each fight took, 7,797 states with the counts kept, 1,851 without (benchmarks/RESULTS.md).
    c = _mix(6, "walls", 1)
    search = Search(c, 0, True, BUDGET)
    verdict, _, turns, health, exact = search.run()
    assert (verdict, turns, health, exact) == (SOLVED, 11, 5, True)
    assert search.expanded < 4_000


def test_the_reference_search_agrees_where_fights_end_at_different_lengths():
    # 3x3 `all` seed 2 (two levels, the bard, a potion of teleportation): the fast search merges on spent dice,
    # the reference keeps every count.
    same_par_as_the_reference(_mix(3, "all", 2), Budget(max_states=300_000, max_seconds=3600.0))
