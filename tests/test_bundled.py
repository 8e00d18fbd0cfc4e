"""The bundled maps (campaigns/): each one passes `cardrogue check --strict`, is written in canonical
form, publishes its par, and ships a solution replay that re-simulates to a win in exactly par turns.
Together they use every card of the default catalog (the six characters as heroes)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cardrogue.engine.format.canonical import campaign_to_dict, dumps
from cardrogue.engine.format.loader import default_catalog, load_campaign
from cardrogue.engine.model.campaign import CardKind
from cardrogue.engine.records.replay import verify_replay
from cardrogue.engine.format.resources import bundled_campaigns
from cardrogue.engine.analysis.solver import SOLVED, Budget, solve_campaign

CAMPAIGNS = Path(__file__).resolve().parent.parent / "campaigns"
SCHEMA_REF = "https://cardrogue-studio.dev/schema/campaign.schema.json"
MAPS = sorted(p for p in CAMPAIGNS.glob("*.json") if not p.name.endswith(".replay.json"))
CLI = [sys.executable, "-m", "cardrogue.cli.main"]


def _load(path: Path):
    result = load_campaign(path)
    assert result.campaign is not None, [str(d) for d in result.diagnostics]
    return result.campaign


LOADED = {p.name: _load(p) for p in MAPS}
ids = [p.name for p in MAPS]


def test_the_package_ships_these_maps():
    assert [p.name for p in bundled_campaigns()] == [p.name for p in MAPS]
    assert {p.name for p in CAMPAIGNS.glob("*.replay.json")} == {f"{LOADED[p.name].id}.replay.json" for p in MAPS}


def test_check_strict_passes_on_every_map():
    done = subprocess.run([*CLI, "check", "--strict", *map(str, MAPS)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("path", MAPS, ids=ids)
def test_written_in_canonical_form(path: Path):
    campaign = LOADED[path.name]
    assert path.stem == campaign.id
    assert path.read_text(encoding="utf-8") == dumps(campaign_to_dict(campaign, schema_ref=SCHEMA_REF))


@pytest.mark.parametrize("path", MAPS, ids=ids)
def test_par_is_recorded(path: Path):
    par = json.loads(path.read_text(encoding="utf-8")).get("par")
    assert par and isinstance(par.get("turns"), int) and par["turns"] >= 1 and isinstance(par.get("health"), int)
    assert par["health"] >= 1


@pytest.mark.parametrize("path", MAPS, ids=ids)
def test_solution_replay_wins_in_exactly_par(path: Path):
    campaign = LOADED[path.name]
    par = json.loads(path.read_text(encoding="utf-8"))["par"]
    replay = path.with_name(f"{campaign.id}.replay.json")
    verdict = verify_replay(replay.read_text(encoding="utf-8"), campaign)
    assert verdict.ok, verdict.message
    run = verdict.run
    assert run.outcome == "won" and run.ranked and run.dice_mode == "fated" and run.level == 0
    assert (run.turns, run.health) == (par["turns"], par["health"])


def test_cli_verify_accepts_the_campaign_replay():
    replay = CAMPAIGNS / "a-sons-descent.replay.json"
    done = subprocess.run([*CLI, "verify", str(replay), "--campaign", str(CAMPAIGNS / "a-sons-descent.json")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "verified: won" in done.stdout


@pytest.mark.parametrize("path", MAPS, ids=ids)
def test_solver_finds_the_recorded_par(path: Path):
    """The par is the solver's: same turns, same health, within a few seconds per map."""
    campaign = LOADED[path.name]
    # A budget in states: a busy machine's clock must not decide the verdict.
    result = solve_campaign(campaign, Budget(max_states=400_000, max_seconds=3600), per_level=False)
    assert result.verdict == SOLVED, result.reason
    par = json.loads(path.read_text(encoding="utf-8"))["par"]
    assert (result.turns, result.health) == (par["turns"], par["health"])
    assert campaign.par is not None and campaign.par.turns == par["turns"]


def test_every_catalog_card_appears_in_a_bundled_map():
    used: set[str] = set()
    for campaign in LOADED.values():
        used |= {campaign.hero.character, *campaign.hero.items, *campaign.hero.equipped}
        for level in campaign.levels:
            for cell in level.cells:
                used |= {cell.card, *cell.stock, *cell.contents}
    missing = sorted(set(default_catalog()) - used)
    assert not missing, f"catalog cards in no bundled map: {missing}"


def test_every_character_is_a_hero():
    characters = {cid for cid, card in default_catalog().items() if card.kind is CardKind.CHARACTER}
    heroes = [c.hero.character for c in LOADED.values()]
    assert set(heroes) == characters and len(heroes) == len(set(heroes))


def test_one_campaign_and_at_least_three_challenges():
    kinds = sorted(json.loads(p.read_text()).get("kind", "campaign") for p in MAPS)
    assert kinds.count("campaign") == 1 and kinds.count("challenge") >= 3
    for path in MAPS:
        campaign = LOADED[path.name]
        assert campaign.title and campaign.description and all(level.story for level in campaign.levels)


def test_a_sons_descent_teaches_the_game_level_by_level():
    doc = json.loads((CAMPAIGNS / "a-sons-descent.json").read_text())
    levels = doc["levels"]
    assert doc["kind"] == "campaign" and len(levels) >= 5 and doc["story"]
    assert all(level["story"] and level.get("title") for level in levels)
    cards = [[c["card"] for c in level["cells"]] for level in levels]
    goals = [g for level in levels for g in level.get("goals", [])]
    assert {"buy": "shopkeepers-debt"} in goals and {"open": "chest"} in goals and {"slay": "golem"} in goals
    first = {name: next(i for i, lv in enumerate(cards) if name in lv) for name in
             ("spike-trap", "goblin", "red-potion", "shop", "chest", "basilisk-of-stone", "golem")}
    # one lesson after another: traps, a first fight, potions, the shop, the chest, the basilisk, the golem
    assert list(first.values()) == sorted(first.values()) and len(set(first.values())) == len(first)
    assert "scroll-of-identify" in {c for lv in cards for c in lv} and doc["potions"]
    fights = [c for level in levels for c in level["cells"] if default_catalog()[c["card"]].kind in (CardKind.ENEMY, CardKind.BOSS)]
    assert fights and all(c.get("rolls") for c in fights)  # scripted: every fight of the tutorial is certain
    assert [c for c in levels[-1]["cells"] if c.get("exit")] and not [c for lv in levels[:-1] for c in lv["cells"] if c.get("exit")]
    assert sum(1 for lv in levels for c in lv["cells"] if c.get("inscription")) >= len(levels)
