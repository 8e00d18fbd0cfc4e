"""A level's ``hero``: the practice start of a run that begins on the level (health, items, equipment, tile).

The format reference is docs/authoring.md ("Practice scenarios: a level's hero"); scenarios are played through
the engine and through ``cardrogue run --level N --format json``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import campaign_dict, cell, legal, play

from cardrogue.engine.format.canonical import campaign_to_dict, dumps
from cardrogue.engine.format.loader import load_campaign_text
from cardrogue.engine.model.campaign import LevelHero
from cardrogue.engine.rules.events import PracticeStart
from cardrogue.engine.rules.state import COMBAT, DEAD, GameState

CLI = [sys.executable, "-m", "cardrogue.cli.main"]


def two_levels(hero: dict | None = None, **kw) -> dict:
    """Level one: a corridor to a ladder. Level two ("arena"): a goblin between two tiles, a troll further on."""
    first = [cell(0, 0, "starting-tile", "E"), cell(1, 0, "descending-ladder", "W", to="arena")]
    arena = {"id": "arena", "width": 6, "height": 1, "cells": [
        cell(0, 0, "starting-tile", "E"), cell(1, 0, "pathing-tile", "EW"), cell(2, 0, "goblin", "EW", rolls=[2, 6]),
        cell(3, 0, "pathing-tile", "EW"), cell(4, 0, "troll", "EW"), cell(5, 0, "pathing-tile", "W", exit=True)]}
    if hero is not None:
        arena["hero"] = hero
    return campaign_dict(first, levels=[arena], items=kw.pop("items", ["dagger"]), **kw)


def load(doc: dict):
    result = load_campaign_text(json.dumps(doc))
    return result


def test_the_override_is_read_and_written_back():
    doc = two_levels({"at": [1, 0], "health": 3, "items": ["gold", "red-potion"], "equipped": ["helm"]})
    campaign = load(doc).campaign
    assert campaign.levels[1].hero == LevelHero(3, ("gold", "red-potion"), ("helm",), (1, 0))
    assert campaign.levels[0].hero is None
    again = load(json.loads(dumps(campaign_to_dict(campaign)))).campaign
    assert again.levels[1].hero == campaign.levels[1].hero and again.content_hash == campaign.content_hash
    # it is content: a changed practice start is a changed map
    other = load(two_levels({"at": [1, 0], "health": 4, "items": ["gold", "red-potion"], "equipped": ["helm"]}))
    assert other.campaign.content_hash != campaign.content_hash


def test_a_run_starting_on_the_level_meets_the_override():
    campaign = load(two_levels({"at": [1, 0], "health": 3, "items": ["gold", "red-potion"], "equipped": ["helm"]})).campaign
    s = GameState.new(campaign, level=1)
    assert s.position == (1, 0) and s.health == 3 and s.max_health == 12
    assert s.hand == ("red-potion",) and s.gold == 1 and s.equip[0] == "helm"
    start = [e for e in s.view().log if isinstance(e, PracticeStart)]
    assert start == [PracticeStart(3, 12, (1, 0))] and str(start[0]).endswith("health 3/12, at (1, 0).")
    # a turn that starts next to an enemy is a combat turn
    assert s.phase == COMBAT and "attack" in legal(s)
    # the goblin's 2: the warrior deals 3; the goblin hits 2 - 1 (helm)
    play(s, "attack")
    assert s.turn == 2 and s.health == 3 - 1


def test_each_field_left_out_keeps_the_campaign_hero():
    campaign = load(two_levels({"health": 5})).campaign
    s = GameState.new(campaign, level=1)
    assert s.position == (0, 0) and s.health == 5 and s.hand == ("dagger",) and s.phase != COMBAT
    s = GameState.new(load(two_levels({"items": []})).campaign, level=1)
    assert s.hand == () and s.health == s.max_health


def test_health_above_max_is_a_state_the_scenario_may_set():
    """MAX HEALTH (docs/rules.md): healing has no effect when health is already above max."""
    s = GameState.new(load(two_levels({"health": 15, "items": ["red-potion"]}, potions={"red": "healing"})).campaign,
                      level=1)
    assert s.health == 15 > s.max_health
    play(s, "drink red")
    assert s.health == 15


def test_a_hero_arriving_by_the_ladder_keeps_his_own_state():
    campaign = load(two_levels({"at": [3, 0], "health": 1, "items": []})).campaign
    s = play(GameState.new(campaign), "move E", "end")
    assert s.level == 1 and s.position == (0, 0) and s.health == s.max_health and s.hand == ("dagger",)


def test_a_practice_start_can_lose():
    campaign = load(two_levels({"at": [1, 0], "health": 2, "items": []})).campaign
    s = play(GameState.new(campaign, level=1), "attack")
    assert s.outcome == DEAD


@pytest.mark.parametrize("at, why", [
    ([2, 0], "it holds 'goblin'"),
    ([0, 1], "it is outside the level's 6×1 grid"),
    ([5, 0], "it is the exit"),
])
def test_the_hero_must_start_on_a_tile_he_could_stand_on(at, why):
    result = load(two_levels({"at": at}))
    assert result.campaign is None
    [diag] = [d for d in result.diagnostics if d.severity.value == "error"]
    assert diag.code == "CR225" and why in diag.message and diag.json_path == "$.levels[1].hero.at"


def test_face_down_items_ladders_and_chests_are_no_place_to_start():
    doc = two_levels({"at": [1, 0]})
    arena = doc["levels"][1]["cells"]
    for card, face, why in (("pathing-tile", "down", "face down"), ("red-potion", "up", "'red-potion'"),
                            ("chest", "up", "'chest'"), ("spike-trap", "up", "'spike-trap'")):
        arena[1] = cell(1, 0, card, "EW", face=face)
        diags = [d for d in load(doc).diagnostics if d.code == "CR225"]
        assert len(diags) == 1 and why in diags[0].message, (card, [d.message for d in diags])


def test_the_hero_carries_only_items():
    result = load(two_levels({"items": ["goblin-king"], "equipped": ["red-potion"]}))
    codes = sorted((d.code, d.json_path) for d in result.diagnostics if d.severity.value == "error")
    assert codes == [("CR201", "$.levels[1].hero.items[0]"), ("CR217", "$.levels[1].hero.equipped[0]")]


def test_schema_refuses_what_the_override_cannot_hold():
    for bad in ({"health": 0}, {"at": [1]}, {"mana": 3}, {"items": "dagger"}):
        result = load(two_levels(bad))
        assert result.campaign is None and result.diagnostics[0].code.startswith("CR1"), bad


def test_the_authoring_guide_example_loads_and_starts_in_combat():
    text = (Path(__file__).resolve().parent.parent / "docs" / "authoring.md").read_text(encoding="utf-8")
    start = text.index('{"id": "last-stand"')
    level = json.loads(text[start:text.index("```", start)])
    level["cells"].append(cell(0, 1, "pathing-tile", "", exit=True))
    level["height"] = 2
    doc = campaign_dict([cell(0, 0, "starting-tile", "E"), cell(1, 0, "descending-ladder", "W", to="last-stand")],
                        levels=[level])
    s = GameState.new(load(doc).campaign, level=1)
    assert s.phase == COMBAT and s.health == 3 and s.equip[3] == "dagger"


# ---------------------------------------------------------------------------------------- through cardrogue run


def run(tmp_path: Path, doc: dict, *args: str) -> tuple[int, dict]:
    path = tmp_path / "practice.json"
    path.write_text(json.dumps(doc))
    done = subprocess.run([*CLI, "run", str(path), *args, "--format", "json"], capture_output=True, text=True,
                          timeout=120)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, json.loads(done.stdout)


def test_cli_practice_start_and_every_revealed_enemy(tmp_path):
    doc = two_levels({"at": [1, 0], "health": 3, "items": ["gold", "red-potion"], "equipped": ["helm"]})
    code, out = run(tmp_path, doc, "--level", "2")
    assert code == 0
    state = out["state"]
    assert (state["at"], state["health"], state["gold"], state["hand"], state["equipped"]) == (
        [1, 0], 3, 1, ["red-potion"], {"head": "helm"})
    assert state["in_combat"] and out["legal"][0] == "attack"
    # the troll two tiles away is revealed, not adjacent, and reported all the same
    assert state["enemies"] == [
        {"card": "goblin", "at": [2, 0], "health": 4, "max_health": 4, "attack": 2, "poisoned": 0, "paralysed": 0,
         "adjacent": True},
        {"card": "troll", "at": [4, 0], "health": 9, "max_health": 9, "attack": 4, "poisoned": 0, "paralysed": 0,
         "adjacent": False}]
    code, out = run(tmp_path, doc, "--level", "2", "attack")
    assert code == 0 and out["state"]["health"] == 3 - 1 and out["state"]["enemies"][0]["health"] == 4 - 3


def test_cli_refuses_a_bad_practice_start(tmp_path):
    path = tmp_path / "practice.json"
    path.write_text(json.dumps(two_levels({"at": [2, 0]})))
    done = subprocess.run([*CLI, "run", str(path), "--level", "2"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "CR225" in done.stderr and "Traceback" not in done.stderr


def test_a_card_the_practice_hero_carries_is_in_use():
    """The editor will not remove a campaign's own card that a level's practice hero still carries."""
    from cardrogue.editor import edits

    doc = two_levels({"items": ["lucky-coin"]})
    doc["cards"] = {"lucky-coin": {"name": "Lucky Coin", "kind": "item", "gold": 1}}
    campaign = load(doc).campaign
    assert campaign is not None
    assert edits.card_uses(campaign, "lucky-coin") == ["arena hero"]
    with pytest.raises(ValueError, match="still used at arena hero"):
        edits.remove_card(campaign, "lucky-coin")


def test_a_key_the_practice_hero_carries_opens_his_level_s_chest():
    """`cardrogue check`: a locked chest whose key the level's practice hero carries is no CR305, and the exit behind
    it is reachable; the same level without his key is refused both."""
    from cardrogue.engine.analysis.check import check_text

    cells = [cell(0, 0, "starting-tile", "E"), cell(1, 0, "chest", "EW", face="down"),
             cell(2, 0, "pathing-tile", "W", exit=True)]
    doc = campaign_dict(cells)
    doc["levels"][0]["hero"] = {"items": ["key"]}
    codes = {d.code for d in check_text(json.dumps(doc), "t.json") if d.severity.value == "error"}
    assert codes == set()
    # LOCKED CHEST: his key opens it, and the way to the exit
    s = play(GameState.new(load(doc).campaign), "flip E", "move E", "end", "move E")
    assert s.outcome == "won"
    del doc["levels"][0]["hero"]
    codes = {d.code for d in check_text(json.dumps(doc), "t.json") if d.severity.value == "error"}
    assert {"CR305", "CR301"} <= codes


def test_the_solver_counts_a_practice_start_above_max_health():
    """MAX HEALTH (docs/rules.md): health above max stays until lost - the solver's health bound must not cut it: par
    of the practice level is 1 turn (down the corridor to the exit) with all 15 health left."""
    from cardrogue.engine.analysis.solver import Budget, solve_level
    from cardrogue.engine.analysis.solver.bounds import Relaxation
    from cardrogue.engine.rules.state import dungeon_for

    cells = [cell(0, 0, "starting-tile", "E"), cell(1, 0, "pathing-tile", "EW"), cell(2, 0, "pathing-tile", "W", exit=True)]
    doc = campaign_dict(cells)
    doc["levels"][0]["hero"] = {"health": 15}
    campaign = load(doc).campaign
    # the bound the search stops on ("no finish has more health than this") admits the practice start's 15
    assert Relaxation(campaign, dungeon_for(campaign)).health_cap == 15
    result = solve_level(campaign, 0, Budget(max_states=10_000))
    assert (result.turns, result.health) == (1, 15)


def test_a_practice_start_that_reaches_no_way_out_is_warned_of():
    """CR313 (docs/authoring.md): the level's starting tile reaches the exit, but the practice hero's
    tile, walled off, reaches none: a practice run there could never finish."""
    from cardrogue.engine.analysis.check import check_text

    def cr313(at, walled: str = "") -> list:
        doc = two_levels({"at": at})
        arena = doc["levels"][1]
        arena["height"] = 2
        arena["cells"].append(cell(0, 1, "pathing-tile", walled))
        if walled:  # joined to the starting tile above
            arena["cells"][0]["paths"] = "ES"
        return [d for d in check_text(json.dumps(doc)) if d.code == "CR313"]

    [warning] = cr313([0, 1])
    assert warning.severity.value == "warning" and warning.json_path == "$.levels[1].hero.at"
    assert "(0, 1) cannot reach a way out" in warning.message
    assert cr313([0, 1], walled="N") == []  # his tile joins the starting tile's
    assert cr313([1, 0]) == []              # on the corridor
