"""`cardrogue solve` and `cardrogue check --solve` as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

CLI = [sys.executable, "-m", "cardrogue.cli.main"]


def cell(x, y, card, paths, face="down", **extra):
    return {"at": [x, y], "card": card, "paths": paths, "face": face, **extra}


def write(tmp_path: Path, name: str, cells: list, width: int, **top) -> Path:
    doc = {"format": 1, "id": name, "title": name.title(), "rules": "1.1.2", "seed": 3,
           "hero": {"character": "warrior"}, "levels": [{"id": "only", "width": width, "height": 1, "cells": cells}], **top}
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(doc, indent=2))
    return path


@pytest.fixture
def corridor(tmp_path: Path) -> Path:
    # Par 2: turn 1 moves twice (only moving), turn 2 moves onto the exit.
    return write(tmp_path, "corridor", [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "pathing-tile", "EW", "up"),
                                        cell(2, 0, "pathing-tile", "EW", "up"), cell(3, 0, "pathing-tile", "W", "up", exit=True)], 4)


@pytest.fixture
def hopeless(tmp_path: Path) -> Path:
    # The only way out is past a troll no warrior with 12 health beats with these fated rolls:
    # scripted rolls of 1 make every attack roll 1 + 1, and the warrior cannot flee.
    cells = [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "troll", "EW", "up", rolls=[1] * 64),
             cell(2, 0, "pathing-tile", "W", "up", exit=True)]
    return write(tmp_path, "hopeless", cells, 3, cards={"troll": {"health": 40}})


def cardrogue(*args: str) -> subprocess.CompletedProcess:
    done = subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stderr + done.stdout
    return done


def test_solve_prints_par_and_writes_a_verified_replay(corridor: Path, tmp_path: Path):
    replay = tmp_path / "corridor.replay.json"
    done = cardrogue("solve", str(corridor), "-o", str(replay))
    assert done.returncode == 0 and "par 2 turns, 12 health" in done.stdout, done.stdout
    verified = cardrogue("verify", str(replay), "--campaign", str(corridor))
    assert verified.returncode == 0 and "won in 2 turns" in verified.stdout


def test_a_one_turn_par_is_one_turn(tmp_path: Path):
    """`par 1 turn`, and a level on its own in one turn says so too, not "1 turns"."""
    doc = {"format": 1, "id": "short", "title": "Short", "rules": "1.1.2", "seed": 3, "hero": {"character": "warrior"},
           "levels": [{"id": "a", "width": 2, "height": 1,
                       "cells": [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "descending-ladder", "W", "up", to="b")]},
                      {"id": "b", "width": 2, "height": 1,
                       "cells": [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "pathing-tile", "W", "up", exit=True)]}]}
    path = tmp_path / "short.json"
    path.write_text(json.dumps(doc))
    done = cardrogue("solve", str(path))
    assert done.returncode == 0 and "1 turns" not in done.stdout, done.stdout
    assert "level 2 (b) on its own (practice start): 1 turn\n" in done.stdout, done.stdout

def test_solve_json(corridor: Path):
    doc = json.loads(cardrogue("solve", "--format", "json", str(corridor)).stdout)
    assert (doc["verdict"], doc["turns"], doc["health"]) == ("solved", 2, 12)


def test_unsolvable_map_fails_check_solve(hopeless: Path):
    assert cardrogue("check", "--strict", str(hopeless)).returncode == 0  # the graph alone sees no problem
    done = cardrogue("check", "--solve", str(hopeless))
    assert done.returncode == 1 and "CR401: unsolvable" in done.stdout, done.stdout
    assert cardrogue("solve", str(hopeless)).returncode == 1


def test_budget_exhausted_is_unknown_not_unsolvable(hopeless: Path, corridor: Path):
    # The troll cannot be beaten, but a search cut after one state has not seen that: unknown, with the
    # floor the search leaves (docs/solver.md, *Verdicts*).
    done = cardrogue("solve", "--max-states", "1", str(hopeless))
    assert done.returncode == 1 and "unknown" in done.stdout and "unsolvable" not in done.stdout
    assert "par is at least" in done.stdout
    # On the corridor the same cut leaves a floor of par's 2 turns, and a run found in 2 turns proves them.
    done = cardrogue("solve", "--max-states", "1", str(corridor))
    assert done.returncode == 0 and "par 2 turns" in done.stdout


def test_random_dice_win_rate(corridor: Path):
    doc = json.loads(cardrogue("solve", "--random", "20", "--format", "json", str(corridor)).stdout)
    assert doc["runs"] == 20 and doc["wins"] == 20 and doc["ci95"][0] > 0.8


@pytest.mark.parametrize("option", [["--write-par"], ["-o", "{out}"]], ids=["write-par", "output"])
def test_random_runs_refuse_the_options_of_a_solution(corridor: Path, tmp_path: Path, option):
    """`solve --random N --write-par` and `solve --random N -o FILE` exited 0 having written nothing: the
    runs with random dice find no par and no solution. The options are refused together now (exit 2), before
    any run, and the campaign is left as it was."""
    before = corridor.read_bytes()
    out = tmp_path / "runs.replay.json"
    done = cardrogue("solve", "--random", "5", *(o.format(out=out) for o in option), str(corridor))
    assert done.returncode == 2 and option[0] in done.stderr and "--random" in done.stderr, done.stderr
    assert done.stdout == "" and corridor.read_bytes() == before and not out.exists()


def test_bad_level_is_unusable(corridor: Path):
    assert cardrogue("solve", "--level", "9", str(corridor)).returncode == 2


def test_write_par_records_it_without_changing_the_content_hash(corridor: Path, tmp_path: Path):
    from cardrogue.engine.format.loader import load_campaign

    before = load_campaign(corridor).campaign
    replay = tmp_path / "corridor.replay.json"
    done = cardrogue("solve", str(corridor), "--write-par", "-o", str(replay))
    assert done.returncode == 0 and "par recorded" in done.stdout
    after = load_campaign(corridor).campaign
    assert (after.par.turns, after.par.health) == (2, 12)
    assert after.content_hash == before.content_hash
    assert cardrogue("verify", str(replay), "--campaign", str(corridor)).returncode == 0


@pytest.mark.parametrize("args", [
    ["--max-states", "-5"], ["--max-states", "0"], ["--max-seconds", "-1"], ["--max-seconds", "nan"],
    ["--random", "0"], ["--random", "99999999999999"],
])
def test_meaningless_budgets_are_usage_errors(corridor: Path, args: list[str]):
    done = cardrogue("solve", str(corridor), *args)
    assert done.returncode == 2
    assert "out of range" in done.stderr or "is not a" in done.stderr


def test_unwritable_output_fails_before_solving(corridor: Path, tmp_path: Path):
    done = cardrogue("solve", str(corridor), "-o", str(tmp_path / "missing-folder" / "x.replay.json"))
    assert done.returncode == 2 and "does not exist" in done.stderr and "par" not in done.stdout


def test_a_replay_is_never_written_over_its_campaign(corridor: Path, tmp_path: Path):
    """`-o` naming the campaign itself (a slip for X.replay.json), or a link to it: refused before
    anything runs, the campaign untouched; `solve -o MAP` overwrote the map with the replay, and with
    --write-par wrote the map back under the replay's $schema, the replay lost."""
    before = corridor.read_bytes()
    link = tmp_path / "link.json"
    link.symlink_to(corridor)
    for args in (("solve", str(corridor), "-o", str(corridor)), ("solve", str(corridor), "--write-par", "-o", str(link)),
                 ("run", str(corridor), "move E", "-o", str(corridor))):
        done = cardrogue(*args)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert "is the campaign itself" in done.stderr and "corridor.replay.json" in done.stderr, done.stderr
        assert "par" not in done.stdout and corridor.read_bytes() == before


def test_a_mages_map_through_a_wall_passes_check_and_solves(tmp_path):
    """The exit has no paths: only the mage's SPELL reaches it. The graph checks claim no error
    they cannot prove; the solver finds the spell (par 2: cast on turn 1, the tile acts on turn 2)."""
    path = write(tmp_path, "walled", [cell(0, 0, "starting-tile", "", "up"), cell(1, 0, "pathing-tile", "", "up", exit=True)],
                 2, hero={"character": "mage"})
    check = subprocess.run([*CLI, "check", "--strict", "--solve", str(path)], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    solve = subprocess.run([*CLI, "solve", str(path)], capture_output=True, text=True)
    assert solve.returncode == 0 and "par 2 turns" in solve.stdout and "spell E" in solve.stdout


def test_a_memory_budget_on_the_command_line_stops_with_unknown(tmp_path: Path):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import gen  # the benchmarks' generator of open levels

    path = tmp_path / "open.json"
    # An open 32x32 level: thousands of states. (On seeds 1, 2 and 4 the run found after the stop has the floor's
    # turns, which proves par: solved, still stopped by memory. Seed 3's run is a turn above its floor.)
    path.write_text(gen.campaign_text(1, 32, seed=3), encoding="utf-8")
    done = cardrogue("solve", str(path), "--max-memory", "1K", "--max-states", "100000", "--format", "json")
    doc = json.loads(done.stdout)
    assert done.returncode == 1 and doc["verdict"] == "unknown" and doc["stopped_by"] == "memory"
    assert doc["turns_at_least"] is not None  # par's floor, from the lines left open when memory ran out
    bad = cardrogue("solve", str(path), "--max-memory", "lots")
    assert bad.returncode == 2 and "not a memory size" in bad.stderr


def test_check_solve_warns_of_a_recorded_par_the_solver_does_not_prove(corridor: Path):
    """A map edited after `solve --write-par` kept its old par, and `check --strict --solve` (the
    publishing checklist's first step) passed it: the player then shows that par beside every turn."""
    doc = json.loads(corridor.read_text())
    for recorded in ({"turns": 2, "health": 12}, {"turns": 2}):  # the proven par: no warning
        corridor.write_text(json.dumps({**doc, "par": recorded}, indent=2))
        done = cardrogue("check", "--strict", "--solve", str(corridor))
        assert done.returncode == 0 and "CR404" not in done.stdout, done.stdout
    for recorded in ({"turns": 1, "health": 12}, {"turns": 2, "health": 9}, {"turns": 3}):
        corridor.write_text(json.dumps({**doc, "par": recorded}, indent=2))
        done = cardrogue("check", "--strict", "--solve", str(corridor))
        assert done.returncode == 1, done.stdout
        assert "CR404: the recorded par" in done.stdout and "is not the par proven now, 2 turns with 12 health left" in done.stdout
        assert "cardrogue solve --write-par" in done.stdout and "[$.par]" in done.stdout


def test_a_draft_with_only_graph_errors_is_played_and_solved_as_docs_editor_md_says(tmp_path: Path):
    """docs/editor.md, *Drafts*: the loader's errors stop every command; the graph's alone (an exit
    walled off) do not: `run` plays the map and `solve` says why it has no par. (It said the command
    line refuses drafts as F5 does, and F5 waits for every error.)"""
    path = write(tmp_path, "walled", [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "pathing-tile", "W", "up"),
                                      cell(2, 0, "pathing-tile", "", "down", exit=True)], 3)
    check = cardrogue("check", str(path))
    assert check.returncode == 1 and "CR301" in check.stdout
    run = cardrogue("run", str(path), "move E")
    assert run.returncode == 0 and "outcome: unfinished" in run.stdout, run.stdout + run.stderr
    solve = cardrogue("solve", str(path))
    assert solve.returncode == 1 and "unsolvable: no way out can be reached" in solve.stdout, solve.stdout
    broken = write(tmp_path, "typo", [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "gobln", "W", "up", exit=True)], 2)
    for command in ("run", "solve"):
        done = cardrogue(command, str(broken), *(["move E"] if command == "run" else []))
        assert done.returncode == 1 and "not a usable campaign" in done.stderr and "CR201" in done.stderr, done.stderr


def test_turns_per_level_name_the_levels_the_par_run_visits(tmp_path: Path):
    """`turns per level` named the levels by their place in the list of turns, not the levels visited: a run
    from level 1 down a ladder to level 3 was said to spend its turns on level 2, by its id. Each count now
    names the level visited as the author knows it (number, title, id), in the text, in CR403 and in JSON
    (``level_route``, beside the unchanged ``level_turns``)."""
    ladder = {"id": "hall", "title": "The Hall", "width": 3, "height": 1,
              "cells": [cell(0, 0, "descending-ladder", "E", "up", to="well"), cell(1, 0, "starting-tile", "EW", "up"),
                        cell(2, 0, "descending-ladder", "W", "up", to="crypt")]}
    skipped = {"id": "well", "title": "The Well", "width": 3, "height": 1,  # the long way round
               "cells": [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "pathing-tile", "EW"),
                         cell(2, 0, "descending-ladder", "W", "up", to="crypt")]}
    crypt = {"id": "crypt", "title": "The Crypt", "width": 3, "height": 1,
             "cells": [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "pathing-tile", "EW", "up"),
                       cell(2, 0, "pathing-tile", "W", "up", exit=True)]}
    doc = {"format": 1, "id": "branch", "title": "Branch", "rules": "1.1.2", "seed": 3, "hero": {"character": "warrior"},
           "levels": [ladder, skipped, crypt]}
    path = tmp_path / "branch.json"
    path.write_text(json.dumps(doc))
    done = cardrogue("solve", str(path))
    assert done.returncode == 0, done.stdout
    assert '  turns per level: 1 on level 1 "The Hall" (hall), 1 on level 3 "The Crypt" (crypt)\n' in done.stdout, done.stdout
    assert '  level 2 "The Well" (well) on its own (practice start): 2 turns\n' in done.stdout, done.stdout
    checked = cardrogue("check", "--solve", "-v", str(path))
    assert 'turns per level: 1 on level 1 "The Hall" (hall), 1 on level 3 "The Crypt" (crypt)' in checked.stdout, checked.stdout
    doc = json.loads(cardrogue("solve", "--format", "json", str(path)).stdout)
    assert doc["level_turns"] == [1, 1]
    assert doc["level_route"] == [{"level": "hall", "number": 1, "title": "The Hall", "turns": 1},
                                  {"level": "crypt", "number": 3, "title": "The Crypt", "turns": 1}]
    assert doc["level_pars"][1] == {"level": "well", "number": 2, "title": "The Well", "verdict": "solved", "turns": 2,
                                    "health": 12}


@pytest.mark.parametrize("command", ["solve", "run"])
@pytest.mark.parametrize(("body", "code"), [("{bad", 2), ('{"format": 1}', 1)])  # not JSON; a draft
def test_json_output_of_refused_input_is_json(tmp_path: Path, capsys, command: str, body: str, code: int) -> None:
    """`solve`/`run --format json` on a file that is not a usable campaign wrote nothing on standard output (the
    message went to standard error alone), where `check` and `verify` write an object a tool can read: now one
    object too, ``ok`` false with the exit code and the message naming the file and place."""
    from cardrogue.cli.main import main

    path = tmp_path / "broken.json"
    path.write_text(body)
    assert main([command, str(path), "--format", "json"]) == code
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert (report["campaign"], report["ok"], report["exit"]) == (str(path), False, code)
    assert report["message"].startswith(f"{path}: ") and err.startswith(f"cardrogue: {path}: ")
    assert all(line.startswith(f"{path}:") for line in report["details"]) and report["details"]


@pytest.mark.parametrize("args", [["solve", "--random", "5", "-o", "{tmp}/r.json"],
                                  ["solve", "--random", "5", "--write-par"],
                                  ["solve", "-o", "/dev/full"], ["run", "-o", "/dev/full", "flip E"]], ids=" ".join)
def test_json_output_of_a_refusal_after_reading_is_json(tmp_path: Path, capsys, args: list[str]) -> None:
    """Review 27: `--random` with `-o` or `--write-par`, and a replay that cannot be written, still said so on
    standard error alone under `--format json`: one object on standard output too, exit 2."""
    from cardrogue.cli.main import main

    campaign = Path(__file__).parents[1] / "campaigns" / "the-needle-run.json"
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    assert main([args[0], str(campaign), "--format", "json", *args[1:]]) == 2
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert (report["campaign"], report["ok"], report["exit"]) == (str(campaign), False, 2)
    assert err == f"cardrogue: {report['message']}\n"

