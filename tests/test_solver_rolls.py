"""The flee chain of the solver's bound (docs/solver.md, *Flees start beside an enemy; chains on a roll*).

Rulebook, FLEE: "When a player is adjacent to an enemy ... he may attempt to flee"; "The player picks one
enemy to perform step 1 of the combat turn sequence": a flee leaves a tile beside the enemy it flees
from, and its roll is that enemy's (docs/rules.md "Fleeing": "the one roll comes from the picked enemy's
stream"). The bound counts the steps that leave tiles beside no enemy as moves, and in the rest of a turn
counts flees only from enemies whose next roll flees.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from helpers import campaign, cell, load, started, turns_left_below

from cardrogue.engine.analysis.solver import SOLVED, Budget, solve_campaign
from cardrogue.engine.analysis.solver.bounds import relaxation
from cardrogue.engine.analysis.solver.par import solve
from cardrogue.engine.format.loader import load_campaign_text
from cardrogue.engine.records.replay import verify_replay
from cardrogue.engine.rules.state import GameState

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import gen  # noqa: E402  (the benchmarks' generator of open levels)

NO_CLOCK = 3600  # state budgets only: a loaded machine must not change a result
SMALL = Budget(max_states=200_000, max_seconds=NO_CLOCK)


def _step(s: GameState, text: str, resolver) -> None:
    s.step(next(a for a in s.legal_actions() if str(a) == text), resolver)


def _bound(c, s: GameState) -> float:
    return relaxation(c, s.d).bound(s, True)


def test_face_down_tiles_entered_away_from_enemies_take_a_turn_each():
    # The rogue (flees on 3-6) walks a row of four face-down tiles to the exit; the only goblin stands
    # apart, beside no tile of the row. A turn flips one tile (step 1) and moves onto it; only a flee
    # enters a second one, and a flee leaves a tile beside the enemy it flees from: par 4, so the bound
    # at the start is 3 turns after the first (it was 1: a flee chain F = 1 a turn anywhere).
    cells = [cell(0, 0, "starting-tile", "E")] + [cell(x, 0, "pathing-tile", "EW", face="down") for x in (1, 2, 3)]
    cells += [cell(4, 0, "pathing-tile", "W", face="down", exit=True), cell(2, 2, "goblin", "")]
    c = campaign(cells, character="rogue")
    s, _ = started(c)
    assert _bound(c, s) == 3
    fast, slow = solve(c, 0, True, SMALL), solve(c, 0, True, SMALL, reference=True)
    assert (fast.verdict, fast.turns, fast.health) == (slow.verdict, slow.turns, slow.health) == (SOLVED, 4, slow.health)


@pytest.mark.parametrize("rolls, left", [([1, 6], 1), ([6], 0)])
def test_an_enemy_whose_next_roll_fails_is_not_fled_this_turn(rolls, left):
    # The rogue moves beside a goblin (40 health) with the exit one flee away. Its stream's next roll is
    # the flee's: 6 lets him go onto the exit this turn; 1 fails, steps 2 and 3 follow and the turn ends,
    # so the exit is a turn away. The bound reads the roll: 1 more turn, not 0.
    cells = [cell(0, 1, "starting-tile", "E"), cell(1, 1, "pathing-tile", "NEW"), cell(1, 0, "goblin", "S", rolls=rolls),
             cell(2, 1, "pathing-tile", "W", exit=True)]
    c = campaign(cells, character="rogue", cards={"goblin": {"health": 40}})
    s, resolver = started(c)
    _step(s, "move E", resolver)
    future, now, _ = relaxation(c, s.d).rolls.chains(s)
    assert (future, now) == (1, 1 if left == 0 else 0)
    assert _bound(c, s) == left
    r = solve(c, 0, True, SMALL, reference=True)
    assert (r.verdict, r.turns) == (SOLVED, 1 + left)
    assert solve(c, 0, True, SMALL).turns == r.turns


def test_six_by_six_gear_map_seed_0_gets_its_par_from_the_bound():
    # The held-out-style sweep's 6x6 `gear` map of seed 0: the cleric, three enemies, F = 2. The route to
    # the exit has five face-down tiles, none beside an enemy: the bound at the start is 4, par - 1 (it
    # was 1, and the search took 85,762 states).
    text = gen.mixed_campaign_text(1, 6, 0, "gear")
    c = load_campaign_text(text).campaign
    s, resolver = started(c)
    assert _bound(c, s) == 4
    r = solve_campaign(c, SMALL, per_level=False)
    assert (r.verdict, r.turns, r.health) == (SOLVED, 5, 10)
    assert r.states_expanded < 5_000
    assert verify_replay(r.replay_text, load_campaign_text(text).campaign).ok
    for action in r.actions:
        assert _bound(c, s) <= r.turns - s.turn, action
        s.step(action, resolver)
    assert (s.outcome, s.turn) == ("won", r.turns)


def _flee_maps():
    """Small generated maps on which the rule is on (a hero who may flee, no potion counted)."""
    out = []
    for mix in ("heroes", "gear", "monsters", "traps"):
        for seed in range(8):
            size = 3 + seed % 2
            c = load(gen.mixed_campaign(1, size, seed, mix))
            s, _ = started(c)
            if relaxation(c, s.d).origins is not None:
                out.append((mix, size, seed))
    return out[:10]


def _remaining(c, s: GameState, below: float) -> float | None:
    """The fewest turns after ``s.turn`` to win from ``s``, by the plain uniform-cost search, where fewer than
    ``below``, else ``below`` (``helpers.turns_left_below``; None: not decided within 20,000 states)."""
    return turns_left_below(c, s, below, Budget(max_states=20_000, max_seconds=NO_CLOCK))


@pytest.mark.parametrize("mix, size, seed", _flee_maps())
def test_bound_never_overestimates_where_heroes_flee(mix, size, seed):
    """Admissibility on states random play reaches (enemies fled, fought, flees failed, turns wasted) and
    along the witness: the bound never exceeds the turns a plain uniform-cost search needs from there."""
    c = load(gen.mixed_campaign(1, size, seed, mix))
    fast = solve(c, 0, True, SMALL)
    slow = solve(c, 0, True, SMALL, reference=True)
    assert (fast.verdict, fast.turns, fast.health) == (slow.verdict, slow.turns, slow.health)
    rng = random.Random(seed)
    for _ in range(6):
        s, resolver = started(c)
        for _ in range(rng.randrange(1, 12)):
            legal = s.legal_actions()
            if not legal or s.is_terminal():
                break
            s.step(rng.choice(legal), resolver)
        if s.is_terminal():
            continue
        least = _bound(c, s)
        left = _remaining(c, s, least)
        if left is not None:
            assert least <= left
    if fast.verdict == SOLVED:
        s, resolver = started(c)
        for action in fast.actions:
            assert _bound(c, s) <= fast.turns - s.turn, action
            s.step(action, resolver)


@pytest.mark.parametrize("size, mix, seed", [(10, "traps", 0), (10, "shops", 0), (6, "gear", 0)])
def test_origin_counts_updated_from_the_state_before_equal_the_plain_ones(size, mix, seed):
    """The face-down counts of ``origins``, updated from the mask of the state a state came from, equal a
    search from scratch for every mask a solve met."""
    c = load_campaign_text(gen.mixed_campaign_text(1, size, seed, mix)).campaign
    solve_campaign(c, Budget(max_states=3_000, max_seconds=NO_CLOCK), per_level=False)
    s, _ = started(c)
    origins = relaxation(c, s.d).origins
    lo = s.d.level_range[0][0]
    kept = list(origins._cache.items())
    assert len(kept) > 10
    for (li, foes, mask), counts in kept:
        away = origins.away(li, foes)
        plain = tuple(origins._search(li, away, w - lo, mask) for w, _ in origins.ways[li])
        assert counts == plain
