"""`cardrogue run`: rule scenarios played through the CLI, as a user writes them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

CLI = [sys.executable, "-m", "cardrogue.cli.main"]


def cell(x, y, card, paths, face="down", **extra):
    return {"at": [x, y], "card": card, "paths": paths, "face": face, **extra}


@pytest.fixture
def trap_map(tmp_path: Path) -> Path:
    doc = {"format": 1, "id": "traps", "title": "Traps", "rules": "1.1.2", "seed": 5, "hero": {"character": "warrior"},
           "levels": [{"id": "hall", "width": 4, "height": 1, "cells": [
               cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "spike-trap", "EW"),
               cell(2, 0, "pathing-tile", "EW"), cell(3, 0, "pathing-tile", "W", exit=True)]}]}
    path = tmp_path / "traps.json"
    path.write_text(json.dumps(doc))
    return path


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    done = subprocess.run([*CLI, "run", *args], capture_output=True, text=True, input=stdin, timeout=60)
    assert "Traceback" not in done.stderr
    return done


def test_spike_trap_flipped_then_stepped_on(trap_map: Path):
    """Tiles > Traps: a trap affects the player when flipped, and again each time he steps on it."""
    done = run(str(trap_map), "flip E", "end", "move E", "--format", "json")
    assert done.returncode == 0, done.stdout
    out = json.loads(done.stdout)
    assert out["state"]["health"] == 12 - 2 - 2  # the warrior's 12 max health, two spike triggers
    assert out["state"]["turn"] == 2 and out["failure"] is None


def test_the_last_line_names_the_level_as_the_author_knows_it(trap_map: Path):
    """The state line said `level hall at (1, 0)`, the level's id alone; it names the level as the editor and
    the checks do, by number, title (when it has one) and id. JSON's `state.level` stays the id."""
    done = run(str(trap_map), "flip E", "end", "move E")
    assert done.returncode == 0, done.stdout
    assert "turn 2, health 8/12, gold 0, level 1 (hall) at (1, 0), outcome: unfinished\n" in done.stdout, done.stdout
    assert json.loads(run(str(trap_map), "--format", "json").stdout)["state"]["level"] == "hall"


def test_options_may_come_between_actions(trap_map: Path):
    done = run(str(trap_map), "flip E", "--format", "json", "end", "move E")
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["state"]["health"] == 12 - 2 - 2
    wrong = run(str(trap_map), "flip E", "--no-such-option")
    assert wrong.returncode == 2 and "unrecognized arguments: --no-such-option" in wrong.stderr


def test_illegal_action_is_named_and_exit_1(trap_map: Path):
    done = run(str(trap_map), "move E")  # face-down: flip it first
    assert done.returncode == 1
    assert "action 1 ('move E') is not legal" in done.stdout and "legal now: flip E, end" in done.stdout


def test_actions_from_stdin_and_replay_output(trap_map: Path, tmp_path: Path):
    replay = tmp_path / "run.replay.json"
    done = run(str(trap_map), "--actions-file", "-", "-o", str(replay),
               stdin="# race to the exit\nflip E\nend\nmove E\nend\nflip E\nmove E\nend\nflip E\nmove E\n")
    assert done.returncode == 0, done.stdout
    assert "outcome: won" in done.stdout
    verified = subprocess.run([*CLI, "verify", str(replay), "--campaign", str(trap_map)], capture_output=True, text=True)
    assert verified.returncode == 0 and "won" in verified.stdout


def test_actions_from_stdin_that_are_not_text_are_refused_as_from_a_file(trap_map: Path, tmp_path: Path):
    """`--actions-file FILE` that is not UTF-8 is refused (exit 2) with the bad byte's place; the same
    bytes piped (`--actions-file -`) were decoded with stand-ins and played as actions (exit 1, the
    report quoting '\\udcff')."""
    bad = b"flip E\n\xff\xfe end\n"
    (tmp_path / "actions.txt").write_bytes(bad)
    for argv, stdin in (([str(trap_map), "--actions-file", str(tmp_path / "actions.txt")], None),
                        ([str(trap_map), "--actions-file", "-"], bad)):
        done = subprocess.run([*CLI, "run", *argv], capture_output=True, input=stdin, timeout=60)
        err = done.stderr.decode()
        assert done.returncode == 2 and "is not UTF-8 text: byte 0xff at offset 7" in err, err
        assert done.stdout == b"" and "Traceback" not in err


def test_unusable_campaign_exits_2(tmp_path: Path):
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    done = run(str(bad), "end")
    assert done.returncode == 2 and "not a usable campaign" in done.stderr


@pytest.mark.parametrize("seed", ["-1", str(2**64), "x"])
def test_seed_out_of_range_is_a_usage_error(trap_map: Path, seed: str):
    done = run(str(trap_map), "--seed", seed, "end")
    assert done.returncode == 2
    assert "a seed is 0 to" in done.stderr or "is not a whole number" in done.stderr


def test_a_level_the_campaign_lacks_is_named_with_the_file_as_play_names_it(trap_map: Path, capsys):
    """`run`, `solve` and `play` say the same: the file, the option, the levels there are (exit 2)."""
    from cardrogue.cli.main import main

    said = f"cardrogue: {trap_map}: --level 5: the campaign has only level 1\n"
    for command in (["run", str(trap_map), "--level", "5", "end"], ["solve", str(trap_map), "--level", "5"],
                    ["play", str(trap_map), "--level", "5"]):
        assert main(command) == 2
        assert capsys.readouterr().err == said, command


def test_a_place_is_written_as_the_editor_and_the_checks_write_it(trap_map: Path):
    """The log said "Spike Trap at 1,0" above a state line "at (1, 0)", and the editor and the checks say "(1, 0)"
    (left24): one helper writes a place (engine/words.py, ``place_text``), in the log and the state line alike.
    JSON keeps its ``[1, 0]``."""
    import re

    from cardrogue.engine.words import place_text

    done = run(str(trap_map), "flip E", "end", "move E")
    assert done.returncode == 0, done.stdout
    assert f"Flips E: Spike Trap at {place_text(1, 0)}." in done.stdout, done.stdout
    assert f"level 1 (hall) at {place_text(1, 0)}, outcome" in done.stdout
    assert not re.search(r"\d,\d", done.stdout), done.stdout
    assert json.loads(run(str(trap_map), "flip E", "--format", "json").stdout)["state"]["at"] == [0, 0]


def test_a_check_message_and_the_editor_write_a_place_as_the_log_does():
    from cardrogue.editor.widgets.problems import location
    from cardrogue.engine.format.diagnostics import Diagnostic
    from cardrogue.engine.rules.events import PracticeStart
    from cardrogue.engine.words import place_text

    assert place_text(3, 12) == "(3, 12)"
    assert location(Diagnostic("CR307", "x", level=0, cell=(3, 12)), ["The Hall"]) == f"The Hall {place_text(3, 12)}"
    assert str(PracticeStart(3, 12, (3, 12))).endswith(f"at {place_text(3, 12)}.")
