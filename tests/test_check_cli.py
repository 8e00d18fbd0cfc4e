"""`cardrogue check` as a user runs it: a subprocess, exit codes 0/1/2, text and JSON, no traceback."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cardrogue.engine.format.resources import bundled_campaigns

CLI = [sys.executable, "-m", "cardrogue.cli.main"]


def cardrogue(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    done = subprocess.run([*CLI, *args], capture_output=True, text=True, cwd=cwd, timeout=60)
    assert "Traceback" not in done.stderr + done.stdout
    return done


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    path = tmp_path / "broken.json"
    doc = json.loads(bundled_campaigns()[0].read_text())
    doc["levels"][0]["cells"][1]["card"] = "goblinn"
    path.write_text(json.dumps(doc, indent=2))
    return path


def test_bundled_campaigns_pass_strict():
    for path in bundled_campaigns():
        done = cardrogue("check", "--strict", str(path))
        assert done.returncode == 0, done.stdout


def test_problems_exit_1_with_file_line_col_code(broken: Path):
    done = cardrogue("check", str(broken))
    assert done.returncode == 1
    line = next(ln.strip() for ln in done.stdout.splitlines() if "CR201" in ln)
    assert line.startswith(f"{broken}:")
    _, lineno, col, code, message = line.split(":", 4)
    assert int(lineno) > 1 and int(col) > 1 and code.strip() == "CR201"
    assert "did you mean 'goblin'?" in message and "[$.levels[0].cells[1].card]" in message


def test_json_format_for_tools(broken: Path, tmp_path: Path):
    good = tmp_path / "good.json"
    shutil.copy(bundled_campaigns()[0], good)
    done = cardrogue("check", "--format", "json", str(good), str(broken))
    assert done.returncode == 1
    doc = json.loads(done.stdout)
    assert doc["status"] == "problems"
    by_file = {f["file"]: f for f in doc["files"]}
    assert by_file[str(good)]["ok"] is True
    (diag,) = [d for d in by_file[str(broken)]["diagnostics"] if d["severity"] == "error"]
    assert diag["code"] == "CR201" and diag["path"] == "$.levels[0].cells[1].card" and diag["line"] > 1


def test_unusable_input_exits_2(tmp_path: Path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": 1,,}')
    done = cardrogue("check", str(bad))
    assert done.returncode == 2
    assert f"{bad}:1:14: CR001:" in done.stdout
    assert cardrogue("check", str(tmp_path / "missing.json")).returncode == 2


def test_usage_errors_exit_2():
    assert cardrogue("check").returncode == 2
    assert cardrogue("frobnicate").returncode == 2


def test_strict_fails_on_warnings(tmp_path: Path):
    doc = json.loads(bundled_campaigns()[0].read_text())
    level = doc["levels"][0]
    level["height"] += 1
    level["cells"].append({"at": [0, level["height"] - 1], "card": "goblin", "paths": "E", "face": "down"})
    path = tmp_path / "warn.json"
    path.write_text(json.dumps(doc))
    assert cardrogue("check", str(path)).returncode == 0
    done = cardrogue("check", "--strict", str(path))
    assert done.returncode == 1 and "CR303" in done.stdout


def test_folders_are_searched_recursively(tmp_path: Path, broken: Path):
    (tmp_path / "maps" / "deep").mkdir(parents=True)
    shutil.copy(broken, tmp_path / "maps" / "deep" / "x.json")
    (tmp_path / "maps" / "run.replay.json").write_text("not a campaign")
    done = cardrogue("check", str(tmp_path / "maps"))
    assert done.returncode == 1 and "x.json" in done.stdout and "run.replay.json" not in done.stdout


def test_check_never_writes(tmp_path: Path, broken: Path):
    before = sorted(p.name for p in tmp_path.iterdir())
    cardrogue("check", str(tmp_path))
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_a_folder_without_campaigns_is_unusable(tmp_path: Path):
    (tmp_path / "empty").mkdir()
    done = cardrogue("check", str(tmp_path / "empty"))
    assert done.returncode == 2 and "no campaign files" in done.stderr
