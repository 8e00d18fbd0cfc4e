"""The witness without idle flips (engine/analysis/solver/trim.py; docs/solver.md, *The witness*)."""

from __future__ import annotations

from helpers import FIXTURE

from cardrogue.engine.analysis.solver import Budget, solve_level
from cardrogue.engine.analysis.solver.trim import idle_flips_dropped
from cardrogue.engine.format.loader import load_campaign
from cardrogue.engine.records.replay import Recorder, verify_replay

# The fixture's first level as the dominance's kept line played it: a "flip S" in turn 3 that nothing uses
# (the line with more face up retires the one without; docs/solver.md, *Transpositions and dominance*).
WITH_IDLE_FLIP = ["flip E", "move E", "end", "flip E", "move E", "end", "flip S", "flip E", "move E", "end",
                  "flip E", "move E"]


def _ends(campaign, actions):
    recorder = Recorder(campaign, level=0)
    for a in actions:
        recorder.play(a)
    text = recorder.text()
    return verify_replay(text, campaign).ok, recorder.state.score


def test_an_idle_flip_is_dropped_and_the_flips_a_move_needs_are_kept():
    campaign = load_campaign(FIXTURE).campaign
    assert _ends(campaign, WITH_IDLE_FLIP)[0]
    trimmed = idle_flips_dropped(campaign, 0, WITH_IDLE_FLIP)
    assert trimmed == [a for a in WITH_IDLE_FLIP if a != "flip S"]  # each "flip E" turns up the tile moved onto next
    assert _ends(campaign, trimmed) == _ends(campaign, WITH_IDLE_FLIP)


def test_the_solvers_witness_carries_no_idle_flip():
    campaign = load_campaign(FIXTURE).campaign
    r = solve_level(campaign, 0, Budget(max_states=10_000, max_seconds=3600))
    assert (r.verdict, r.turns, r.health) == ("solved", 4, 8)
    assert list(r.actions) == idle_flips_dropped(campaign, 0, list(r.actions)) == WITH_IDLE_FLIP[:6] + WITH_IDLE_FLIP[7:]


def test_a_run_that_is_not_one_is_left_as_it_is():
    campaign = load_campaign(FIXTURE).campaign
    broken = ["flip S", "move W", "end"]
    assert idle_flips_dropped(campaign, 0, broken) == broken
