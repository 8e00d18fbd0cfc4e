"""Where the hero can ever be (engine/analysis/solver/reach.py; docs/solver.md, *Where the hero can ever
be*): a static proof of "no finish" that holds when he can relocate through walls.

Each refusal is proved before any state is searched, and the search without it agrees by exhausting
(the hand-made maps have no fight, so their space is finite). Each guard is a finishable map that needs a relocation
to meet its goal: the proof must leave it to the search, which solves it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from helpers import campaign, cell, same_par_as_the_reference

from cardrogue.engine.analysis.solver import UNSOLVABLE, Budget, solve_campaign
from cardrogue.engine.analysis.solver.search import Search
from cardrogue.engine.format.loader import load_campaign_text

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import gen  # noqa: E402  (the benchmarks' generator of item mixes)

BUDGET = Budget(max_states=50_000, max_seconds=3600.0)  # states decide, never the clock
TELEPORT = {"blue": "teleportation"}


def level(id_: str, cells: list[dict], goals=()) -> dict:
    width = max(c["at"][0] for c in cells) + 1
    height = max(c["at"][1] for c in cells) + 1
    return {"id": id_, "title": id_, "width": width, "height": height, "cells": cells,
            "goals": [dict([g]) for g in goals]}


def below() -> dict:
    """Level two: the starting tile beside the exit."""
    return level("two", [cell(0, 0, "starting-tile", "E"), cell(1, 0, "pathing-tile", "W", exit=True)])


def refused_at_once(c) -> str:
    """Unsolvable before any state is searched; the search alone (no static proof), exhausting, agrees."""
    r = solve_campaign(c, BUDGET, per_level=False)
    assert r.verdict == UNSOLVABLE and r.states_expanded == 0, r
    assert Search(c, 0, True, BUDGET).run()[0] == UNSOLVABLE  # no finish in the whole (dominance-pruned) space
    return r.reason


def solved_as_reference(c) -> None:
    same_par_as_the_reference(c, BUDGET)


def test_a_chest_behind_the_ladder_is_never_opened_by_a_mage_with_a_potion_of_teleportation():
    """DESCENDING LADDER (docs/rules.md, *Board*): "A descending ladder is entered like any tile; the
    level's goals must be met first. The turn ends and the next turn starts on the starting tile of the
    level the ladder names" -- so the ladder is a way out, never a passage. POTION OF TELEPORTATION:
    "A player or enemy may not be teleported to ... a tile that has not been revealed yet"; MOVE TO ANY
    ADJACENT TILE: "The player may not move onto ... a tile that has not been revealed yet". The chest's
    only path leads to the ladder, so only the ladder could flip it: the goal 'Open chest' is never met
    (10x10 `all` seed 1 of the sweep, in small)."""
    c = campaign([cell(0, 0, "chest", "E", face="down"), cell(1, 0, "descending-ladder", "EW", face="down", to="two"),
                  cell(2, 0, "starting-tile", "W")],
                 character="mage", items=["key", "blue-potion"], potions=TELEPORT, goals=[("open", "chest")],
                 levels=[below()])
    reason = refused_at_once(c)
    assert "'Open chest' on level 1 \"One\" (one) can never be met" in reason
    assert "Locked Chest at (0, 0)" in reason


def test_a_shop_behind_the_ladder_never_sells_the_goal():
    """GOALS (docs/rules.md, *Goals and the end*): "`buy` a stock item from a shop of the level. Ladders
    and exits cannot be entered until the level's goals are met"; the shop trades only with the hero
    on it (The Shop: "If he moves onto a SHOP, he may BUY and SELL"), and a teleport never lands on a
    tile still face down. The only shop selling the sword lies past the ladder."""
    c = campaign([cell(0, 0, "shop", "E", face="down", stock=["sword"]),
                  cell(1, 0, "descending-ladder", "EW", face="down", to="two"), cell(2, 0, "starting-tile", "W")],
                 items=["gold"] * 10 + ["blue-potion"], potions=TELEPORT, goals=[("buy", "sword")],
                 levels=[below()])
    reason = refused_at_once(c)
    assert "'Buy sword' on level 1 \"One\" (one) can never be met (no shop selling it lies on a tile the hero can stand on" in reason


def test_an_enemy_past_the_exit_is_never_slain():
    """COMBAT: "Players may not ... enter in combat with ... cards that are not on an adjacent tile"
    (docs/rules.md, *Board*), and a way out ends the level. The goblin to slay lies past the exit, and
    a teleport cannot land beside it: the tile beside it is only ever flipped from the exit."""
    c = campaign([cell(0, 0, "starting-tile", "E"), cell(1, 0, "pathing-tile", "EW", face="down", exit=True),
                  cell(2, 0, "pathing-tile", "EW", face="down"), cell(3, 0, "goblin", "W", face="down")],
                 items=["blue-potion"], potions=TELEPORT, goals=[("slay", "goblin")])
    reason = refused_at_once(c)
    assert "'Slay goblin' on level 1 \"One\" (one) can never be met" in reason


def test_the_generated_3x3_all_seed_0_is_refused_at_once():
    """3x3 `all` seed 0 (the cleric, two levels): level two's chest lies past its exit (its only paths
    lead to the exit and to a shop reached only through the chest), and the level has no other way
    out. Before: unknown at 100,000 states (fights and flees on level one never run out)."""
    c = load_campaign_text(gen.mixed_campaign_text(2, 3, 0, "all")).campaign
    r = solve_campaign(c, Budget(max_states=20_000, max_seconds=3600.0), per_level=False)
    assert r.verdict == UNSOLVABLE and r.states_expanded == 0, r
    assert "'Open chest' on level 2 \"Level level-2\" (level-2) can never be met" in r.reason


def test_the_generated_10x10_all_seed_1_is_refused_at_once():
    """10x10 `all` seed 1 (the mage): level one's chest has one path, to the ladder, and no other
    neighbour on the grid; before, unknown (the static proof of the level graph stands aside for a
    hero who can relocate)."""
    c = load_campaign_text(gen.mixed_campaign_text(3, 10, 1, "all")).campaign
    r = solve_campaign(c, Budget(max_states=2_000, max_seconds=3600.0), per_level=False)
    assert r.verdict == UNSOLVABLE and r.states_expanded == 0, r
    assert "'Open chest' on level 1 \"Level level-1\" (level-1) can never be met" in r.reason


def test_guard_a_chest_revealed_by_a_one_way_flip_and_reached_by_the_spell():
    """Guard. Standard turn sequence, step 1: the hero flips "a face-down card at the end of one of the
    tile's paths"; the chest has no path back, so it is no ADJACENT TILE, but the mage's SPELL (MOVE TO
    ANY ADJACENT TILE: "meant to move a player to a tile that he could not normally move to") lands on
    it once revealed. Finishable: the proof must not refuse it."""
    c = campaign([cell(0, 0, "starting-tile", "ES"), cell(1, 0, "chest", "", face="down"),
                  cell(0, 1, "pathing-tile", "N", face="down", exit=True)],
                 character="mage", items=["key"], goals=[("open", "chest")])
    solved_as_reference(c)


def test_guard_a_teleport_onto_a_tile_revealed_by_a_one_way_flip():
    """Guard. POTION OF TELEPORTATION: "move to any PATHING TILE and end turn" -- any revealed one: the
    tile flipped from the start has no path back, and the chest beyond it is reached from there.
    Finishable: the proof must not refuse it."""
    c = campaign([cell(0, 0, "starting-tile", "E"), cell(1, 0, "pathing-tile", "E", face="down"),
                  cell(2, 0, "chest", "EW", face="down"), cell(3, 0, "pathing-tile", "W", face="down", exit=True)],
                 items=["key", "blue-potion"], potions=TELEPORT, goals=[("open", "chest")])
    solved_as_reference(c)


def test_guard_an_enemy_fought_from_a_tile_reached_by_teleport():
    """Guard. An enemy is slain in a fight from an ADJACENT TILE; the only such tile is reached by a
    teleport onto a tile a one-way flip revealed (and a second teleport leaves it). Finishable: the
    proof must not refuse it."""
    c = campaign([cell(0, 0, "starting-tile", "ES"), cell(1, 0, "pathing-tile", "E", face="down"),
                  cell(2, 0, "cave-bat", "W", face="down"), cell(0, 1, "pathing-tile", "N", face="down", exit=True)],
                 items=["blue-potion", "blue-potion"], potions=TELEPORT, goals=[("slay", "cave-bat")])
    solved_as_reference(c)


def test_guard_an_exit_on_the_tile_the_hero_starts_on():
    """Guard. "A cell marked exit wins the campaign when the hero moves onto it alive with the level's goals
    met" (docs/rules.md, *Board*): starting on it is not moving onto it, so the hero steps off to meet
    the goal and back. The tile he enters the level on is a way out too."""
    c = campaign([cell(0, 0, "starting-tile", "E", exit=True), cell(1, 0, "chest", "W", face="down")],
                 items=["key", "blue-potion"], potions=TELEPORT, goals=[("open", "chest")])
    solved_as_reference(c)
