"""An ``unknown`` verdict that still says something: par bounded from below by the search that stopped,
from above by a finish found afterwards (``engine/analysis/solver/dive.py``; docs/solver.md, *Verdicts*).

DESIGN, Par: "the fewest turns that finish" under the map's fated dice. A line of play left open with
``turn + h`` cannot finish sooner (the bound never overestimates), so the least of those is a floor;
a run that finishes, replayed by ``verify_replay``, is a ceiling. Each test knows the true par from a
search given all the states it needs.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import campaign, cell, load

from cardrogue.engine.analysis.solver import SOLVED, UNKNOWN, Budget, solve_campaign, solve_level
from cardrogue.engine.analysis.solver.dive import GOLD_SHARE, playouts
from cardrogue.engine.analysis.solver.search import Search
from cardrogue.engine.analysis.solver.wary import FIGHT_STEPS, GoldPolicy, WaryPolicy
from cardrogue.engine.format.loader import load_campaign_text
from cardrogue.engine.records.replay import verify_replay
from cardrogue.engine.rules.state import GameState

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import gen  # noqa: E402  (the benchmarks' generator)

NO_CLOCK = 3600.0
FULL = Budget(max_states=200_000, max_seconds=NO_CLOCK)

# Small maps whose par a full search finds in well under a second, and which a search of 5 to 20
# states leaves unknown: teleportation, shops and buy goals, walls, traps, chests.
MAPS = [("open", 12, 13), ("shops", 6, 0), ("potions", 6, 0), ("traps", 6, 0), ("chests", 4, 0),
        ("walls", 6, 1), ("gear", 4, 0), ("monsters", 6, 1)]


def _campaign(mix: str, size: int, seed: int):
    if mix == "open":
        return load(gen.campaign(1, size, seed=seed))
    return load_campaign_text(gen.mixed_campaign_text(1, size, seed, mix)).campaign


@pytest.mark.parametrize("mix,size,seed", MAPS)
def test_a_stopped_search_bounds_par_from_below_and_a_run_found_from_above(mix, size, seed):
    c = _campaign(mix, size, seed)
    par = solve_campaign(c, FULL, per_level=False)
    assert par.verdict == SOLVED
    for states in (5, 20):
        r = solve_campaign(c, Budget(max_states=states, max_seconds=NO_CLOCK), per_level=False)
        if r.verdict == SOLVED:  # the two bounds met: par proven after all
            assert (r.turns, r.states_expanded) == (par.turns, states)
            continue
        assert r.verdict == UNKNOWN and r.turns is None
        assert r.turns_at_least is not None and r.turns_at_least <= par.turns
        assert f"par is at least {r.turns_at_least} turns" in r.reason
        if r.found is not None:
            assert r.found.turns >= par.turns and r.found.turns > r.turns_at_least
            check = verify_replay(r.found.replay_text, _campaign(mix, size, seed))
            assert check.ok and (check.run.turns, check.run.health) == (r.found.turns, r.found.health)
            assert f"a run of {r.found.turns} turns finishes with {r.found.health} health left" in r.reason


def test_a_run_is_found_where_the_search_is_cut_short():
    """On most of these maps the look for a finish finds one: the unknown carries a ceiling."""
    found = 0
    for mix, size, seed in MAPS:
        r = solve_campaign(_campaign(mix, size, seed), Budget(max_states=5, max_seconds=NO_CLOCK), per_level=False)
        found += r.verdict == SOLVED or r.found is not None
    assert found >= len(MAPS) - 1


def test_when_the_floor_meets_a_run_found_par_is_proven():
    """An open 8x8 map: the bound at the start is already par (the floor is par at once), and a search
    cut after 5 states has found no finish; the run found in par's turns proves them."""
    c = load(gen.campaign(1, 8, seed=1))
    par = solve_campaign(c, FULL, per_level=False)
    r = solve_campaign(c, Budget(max_states=5, max_seconds=NO_CLOCK), per_level=False)
    assert r.verdict == SOLVED and r.turns == par.turns and r.states_expanded == 5
    assert r.health <= par.health
    if r.health_exact:
        assert r.health == par.health
    else:
        assert r.health_ceiling >= par.health and r.health_unproven > 0
    check = verify_replay(r.replay_text, load(gen.campaign(1, 8, seed=1)))
    assert check.ok and check.run.turns == par.turns
    # Without the look for a finish (``find_share=0``) the same search says only "unknown".
    alone = solve_campaign(c, Budget(max_states=5, max_seconds=NO_CLOCK, find_share=0), per_level=False)
    assert alone.verdict == UNKNOWN and alone.found is None and alone.turns_at_least == par.turns


def test_a_level_solved_on_its_own_is_bounded_too():
    c = load_campaign_text(gen.mixed_campaign_text(2, 4, 0, "ladders")).campaign
    par = solve_level(c, 0, FULL)
    r = solve_level(c, 0, Budget(max_states=3, max_seconds=NO_CLOCK))
    if r.verdict == UNKNOWN:
        assert r.turns_at_least <= par.turns
        if r.found is not None:
            assert r.found.turns >= par.turns
    else:
        assert r.turns == par.turns


def test_the_look_for_a_finish_keeps_the_time_budget():
    """The search stops short of the time budget by ``find_share`` of it while no finish is found, so the
    look for one fits in: the whole solve ends within the budget (and a little set-up)."""
    c = load(gen.campaign(1, 12, seed=5))  # teleportation: unknown within a second
    r = solve_campaign(c, Budget(max_seconds=1.0), per_level=False)
    assert r.verdict in (UNKNOWN, SOLVED)
    assert r.seconds < 1.0 + 0.5


def test_cardrogue_solve_reports_both_bounds_and_writes_the_run_found(tmp_path):
    path = tmp_path / "map.json"
    path.write_text(gen.mixed_campaign_text(1, 6, 1, "walls"))
    out = tmp_path / "run.replay.json"
    cmd = [sys.executable, "-m", "cardrogue.cli.main", "solve", str(path), "--max-states", "5",
           "--max-seconds", str(NO_CLOCK), "-o", str(out)]  # a state budget only: load must not change the run
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert p.returncode == 1, p.stderr
    assert "unknown: par not proven" in p.stdout and "par is at least" in p.stdout and "run found:" in p.stdout
    assert f"its replay written to {out} (a finish, not proven par)" in p.stdout
    check = verify_replay(out.read_text(), load_campaign_text(path.read_text()).campaign)
    assert check.ok
    p = subprocess.run([*cmd[:-2], "--format", "json"], capture_output=True, text=True, timeout=120)
    doc = json.loads(p.stdout)
    assert doc["verdict"] == "unknown" and doc["turns_at_least"] >= 1
    assert doc["found"]["turns"] == check.run.turns and doc["found"]["actions"]


def test_a_dense_map_where_every_greedy_playout_dies_gets_a_verified_run():
    """16x16 ``walls`` (enemies, traps, walls; par 18 turns, from a search of 400,000 states): every greedy
    playout dies within about ten turns, on a spike trap walked over again and again or in a fight with a
    troll at 4 health, and a dive of the share finds nothing. The wary playouts (``solver/wary.py``) route
    around the fights that cost the most health and find a finish; its replay verifies."""
    text = gen.mixed_campaign_text(1, 16, 0, "walls")
    r = solve_campaign(load_campaign_text(text).campaign, Budget(max_states=1_000, max_seconds=NO_CLOCK),
                       per_level=False)
    assert r.verdict == UNKNOWN and r.found is not None
    assert r.turns_at_least is not None and r.found.turns >= max(r.turns_at_least, 18)
    check = verify_replay(r.found.replay_text, load_campaign_text(text).campaign)
    assert check.ok and (check.run.outcome, check.run.turns, check.run.health) == ("won", r.found.turns, r.found.health)


@pytest.mark.parametrize("max_steps", [50, 700, 3_000])
def test_the_playouts_apply_no_more_engine_actions_than_their_share(monkeypatch, max_steps):
    """``find_run`` gives the playouts ``PLAYOUT_STEPS`` engine actions per state of the look's share: every
    action, the wary policy's fights looked ahead included, counts; a look ahead under way when the share
    runs out ends (at most one fight per legal action, each ``FIGHT_STEPS`` actions)."""
    search, applied = _counted_search(monkeypatch)
    playouts(search, Budget().start().within(NO_CLOCK), max_steps)
    assert max_steps <= len(applied) <= max_steps + 4 * (FIGHT_STEPS + 1)


def _counted_search(monkeypatch) -> tuple[Search, list]:
    """A search of 10x10 ``walls`` seed 0 stopped after 50 states, and the list every engine action applied
    from now on is added to."""
    c = load_campaign_text(gen.mixed_campaign_text(1, 10, 0, "walls")).campaign
    search = Search(c, 0, True, Budget(max_states=50, max_seconds=NO_CLOCK))
    search.run()
    applied = []
    advance = GameState.advance

    def counted(self, action, resolver):
        applied.append(action)
        return advance(self, action, resolver)

    monkeypatch.setattr(GameState, "advance", counted)
    return search, applied


@pytest.mark.parametrize("after", [1, 5, 70])
def test_the_playouts_stop_at_the_first_action_past_their_deadline(monkeypatch, after):
    """`solve --max-seconds 8` of an open 256x256 map took 25 s: the playouts looked at the clock once in 64
    actions, and there the greedy policy took 0.4 s an action. The clock is asked after every action now
    (the bound, which costs more, still once in 64)."""
    from cardrogue.engine.analysis.solver.budget import Deadline

    search, applied = _counted_search(monkeypatch)

    class Countdown(Deadline):
        def expired(self) -> bool:  # past the deadline once ``after`` actions are applied
            return len(applied) >= after

    playouts(search, Countdown(0.0, NO_CLOCK), 100_000)
    assert len(applied) == after


def test_a_map_whose_goal_must_be_bought_gets_a_run_from_the_gold_first_playouts():
    """6x6 ``all`` seed 0, two levels; level 1's goals: buy the sword (10 gold, twice its 5, less the bard's
    discount) and open the chest. The hero starts with no gold (The Shop > BUY AND SELL: "discard as many
    gold cards, or cards with a gold amount, equaling or exceeding twice the gold amount"). The greedy and
    wary playouts go to the shop at once and end turn after turn there, short of the price; the gold-first
    playouts (``solver/wary.py``, :class:`GoldPolicy`) gather items first, sell them at the shop and buy the
    sword: a finish, whose replay verifies."""
    text = gen.mixed_campaign_text(2, 6, 0, "all")
    r = solve_campaign(load_campaign_text(text).campaign, Budget(max_states=1_000, max_seconds=NO_CLOCK),
                       per_level=False)
    assert r.verdict == UNKNOWN and r.found is not None
    assert r.found.turns >= r.turns_at_least
    assert any(a.startswith("sell ") for a in r.found.actions) and "buy sword" in r.found.actions
    check = verify_replay(r.found.replay_text, load_campaign_text(text).campaign)
    assert check.ok and (check.run.outcome, check.run.turns, check.run.health) == ("won", r.found.turns, r.found.health)


def _count_actions(monkeypatch, campaign, max_steps: int) -> tuple[int, list[int]]:
    """The engine actions ``playouts`` applies in all, and how many had been applied when each gold-first
    run began."""
    search = Search(campaign, 0, True, Budget(max_states=50, max_seconds=NO_CLOCK))
    search.run()
    applied, starts = [0], []
    advance, start = GameState.advance, GoldPolicy.start

    def counted(self, action, resolver):
        applied[0] += 1
        return advance(self, action, resolver)

    def begun(self):
        starts.append(applied[0])
        return start(self)

    monkeypatch.setattr(GameState, "advance", counted)
    monkeypatch.setattr(GoldPolicy, "start", begun)
    playouts(search, Budget().start().within(NO_CLOCK), max_steps)
    return applied[0], starts[1:]  # the first call is the policy's own, when it is made


@pytest.mark.parametrize("max_steps", [400, 3_000, 12_000])
def test_the_gold_first_playouts_get_their_share_of_the_actions_and_no_more(monkeypatch, max_steps):
    """On a map with something to buy the greedy and wary playouts stop at ``1 - GOLD_SHARE`` of the
    playouts' engine actions (a fight looked ahead may run over by at most one fight per legal action), and
    the gold-first runs get the rest: the whole stays within ``max_steps``, as before."""
    total, starts = _count_actions(monkeypatch, load_campaign_text(gen.mixed_campaign_text(2, 6, 0, "all")).campaign,
                                   max_steps)
    slack = 4 * (FIGHT_STEPS + 1)
    assert max_steps <= total <= max_steps + slack
    assert starts, "no gold-first run was played"
    assert starts[0] <= max_steps - int(GOLD_SHARE * max_steps) + slack
    assert total - starts[0] >= int(GOLD_SHARE * max_steps) - slack


def test_a_map_with_nothing_to_buy_plays_no_gold_first_run(monkeypatch):
    """Without a buy goal (nor a key on sale for a chest goal) the gold-first policy is the wary one:
    the greedy and wary playouts keep the whole share, as before it existed."""
    c = load_campaign_text(gen.mixed_campaign_text(1, 10, 0, "walls")).campaign
    assert not GoldPolicy.buys(c)
    total, starts = _count_actions(monkeypatch, c, 3_000)
    assert starts == [] and 3_000 <= total <= 3_000 + 4 * (FIGHT_STEPS + 1)


def _shop_corridor(goal: str):
    """A corridor: a maul (gold 8) and a scroll of identify (2) to the west of the start, the shop east of
    it, then (for ``open``) the chest, then the exit. The hero starts with no gold. ``buy``: the goal is
    the shop's sword (10 gold); ``open``: the chest, with no key on the map and the shop selling one (the
    campaign gives the key a gold amount of 4: 8 to buy)."""
    if goal == "buy":
        stock, goals, cards, fourth = ["dagger", "sword"], [("buy", "sword")], None, cell(4, 0, "pathing-tile", "EW")
    else:
        stock, goals, cards, fourth = ["dagger", "key"], [("open", "chest")], {"key": {"gold": 4}}, \
            cell(4, 0, "chest", "EW", contents=["gold"])
    cells = [cell(0, 0, "maul", "E"), cell(1, 0, "scroll-of-identify", "EW"), cell(2, 0, "starting-tile", "EW"),
             cell(3, 0, "shop", "EW", stock=stock), fourth, cell(5, 0, "pathing-tile", "W", exit=True)]
    return campaign(cells, goals=goals, **({"cards": cards} if cards else {}))


def _player(policy, c):
    """The playout policy ``policy`` on ``c``, and the start it plays from."""
    search = Search(c, 0, True, Budget(max_states=1, max_seconds=NO_CLOCK))
    return policy(c, search.d, search.resolver, random.Random(0)), search.root, search.resolver


def _played(policy, c, limit: int = 100) -> tuple[str | None, list[str]]:
    """A run of ``policy`` on ``c`` from its start (at most ``limit`` actions): its outcome and actions."""
    player, s, resolver = _player(policy, c)
    s, actions = s.clone(), []
    while s.outcome is None and len(actions) < limit:
        action = player.act(s)
        actions.append(str(action))
        s.advance(action, resolver)
    return s.outcome, actions


@pytest.mark.parametrize("goal", ["buy", "open"])
def test_the_gold_first_policy_gathers_and_sells_what_the_goal_costs(goal):
    """The Shop > BUY AND SELL: buy at twice the gold amount, sell for it. With no gold the wary policy
    walks to the shop and ends turn after turn there; the gold-first one (``solver/wary.py``) takes the
    scroll and the maul first, sells both at the shop (the maul taken off first), buys what the goal needs
    and nothing else (the dagger stays), and wins."""
    c = _shop_corridor(goal)
    played = {policy: _played(policy, c) for policy in (WaryPolicy, GoldPolicy)}
    assert played[WaryPolicy][0] is None and "end" in played[WaryPolicy][1][-5:]
    outcome, actions = played[GoldPolicy]
    assert outcome == "won"
    bought = "buy sword" if goal == "buy" else "buy key"
    assert [a for a in actions if a.split()[0] in ("sell", "unequip", "buy")] == [
        "sell scroll-of-identify", "unequip maul", "sell maul", bought]


@pytest.mark.parametrize("goals", [[("buy", "sword"), ("open", "chest")], [("buy", "sword")]])
def test_the_gold_first_policy_never_sells_the_key_a_chest_ahead_needs(goals):
    """THE CHEST AND KEY: "The chest, however, can only be opened by the key." A corridor: a maul (8), a
    scroll of identify (2) and a key (made sellable, 4) west of the start, the shop selling the sword
    (10) east of it, then a locked chest, then the exit; the chest is a goal, or only in the way out.
    Short of the sword's price with the scroll alone, the policy sold the dearer key first; the chest
    then stood shut and the run ended turn after turn before it. It keeps the key: the scroll and the
    maul pay for the sword, and the key opens the chest."""
    cells = [cell(0, 0, "maul", "E"), cell(1, 0, "scroll-of-identify", "EW"), cell(2, 0, "key", "EW"),
             cell(3, 0, "starting-tile", "EW"), cell(4, 0, "shop", "EW", stock=["dagger", "sword"]),
             cell(5, 0, "chest", "EW", contents=["gold"]), cell(6, 0, "pathing-tile", "W", exit=True)]
    outcome, actions = _played(GoldPolicy, campaign(cells, goals=goals, cards={"key": {"gold": 4, "sellable": True}}))
    assert outcome == "won"
    assert [a for a in actions if a.split()[0] in ("sell", "unequip", "buy")] == [
        "sell scroll-of-identify", "unequip maul", "sell maul", "buy sword"]


@pytest.mark.parametrize("below", ["goal", "in the way"])
def test_the_gold_first_policy_keeps_the_key_a_level_below_needs(below):
    """THE CHEST AND KEY, as above, with the chest on the level the ladder leads to (a goal there, or only
    in its way out) and no key on that level: the hand goes down the ladder with the hero. The policy
    sold the key on the first level, then stood before the shut chest below turn after turn. It keeps
    it: the scroll and the maul pay for the sword, and the key opens the chest below."""
    cells = [cell(0, 0, "maul", "E"), cell(1, 0, "scroll-of-identify", "EW"), cell(2, 0, "key", "EW"),
             cell(3, 0, "starting-tile", "EW"), cell(4, 0, "shop", "EW", stock=["dagger", "sword"]),
             cell(5, 0, "descending-ladder", "W", to="two")]
    two = {"id": "two", "title": "Two", "width": 3, "height": 1, "goals": [{"open": "chest"}] if below == "goal" else [],
           "cells": [cell(0, 0, "starting-tile", "E"), cell(1, 0, "chest", "EW", contents=["gold"]),
                     cell(2, 0, "pathing-tile", "W", exit=True)]}
    c = campaign(cells, goals=[("buy", "sword")], cards={"key": {"gold": 4, "sellable": True}}, levels=[two])
    outcome, actions = _played(GoldPolicy, c)
    assert outcome == "won"
    assert [a for a in actions if a.split()[0] in ("sell", "unequip", "buy")] == [
        "sell scroll-of-identify", "unequip maul", "sell maul", "buy sword"]


def test_the_gold_first_policy_keeps_a_bounded_number_of_answers_about_locked_chests(monkeypatch):
    """The fewest locked chests on the way out is kept per (level, tile, chests still locked): without a
    bound a long look for a finish on a map of many chests kept every answer it ever gave."""
    import cardrogue.engine.analysis.solver.wary as wary

    monkeypatch.setattr(wary, "LOCKS_KEPT", 3)
    cells = [cell(0, 0, "starting-tile", "E")] + [cell(x, 0, "chest", "EW", contents=["gold"]) for x in range(1, 7)] + [
        cell(7, 0, "pathing-tile", "W", exit=True)]
    player, _, _ = _player(GoldPolicy, campaign(cells))
    m = player._map(0)
    answers = [player._locked_on_way(m, (0, 0), frozenset((x, 0) for x in range(1, n))) for n in range(1, 8)]
    assert answers == list(range(7)) and len(player._locks) <= 3


@pytest.mark.parametrize("character,worn,worth", [("rogue", ["dagger", "dagger"], 6), ("warrior", ["maul"], 8)])
def test_the_gold_first_policy_counts_each_card_worn(character, worn, worth):
    """SELL: "He can sell any item in his inventory for its given gold amount." The rogue (CAN EQUIP A
    SECOND DAGGER) wearing two daggers (3 each) can pay 6, not 3; the maul, held in both hands, is one
    card (8)."""
    player, start, _ = _player(GoldPolicy, campaign([cell(0, 0, "starting-tile", "")], character=character, equipped=worn))
    assert player.worth(start) == worth
