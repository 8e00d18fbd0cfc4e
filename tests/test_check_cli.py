"""`cardrogue check` as a user runs it: a subprocess, exit codes 0/1/2, text and JSON, no traceback."""

from __future__ import annotations

import json
import os
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


def test_an_id_hint_never_offers_an_id_too_long_to_be_one():
    """An id in capitals is answered with its lower-case spelling; one that would be over an id's 64 letters is not
    offered (review22c: 'x' * 300 + 'X' was)."""
    from helpers import campaign_dict, cell

    from cardrogue.engine.analysis.check import check_text

    def said(campaign_id: str) -> str:
        doc = campaign_dict([cell(0, 0, "starting-tile", "")]) | {"id": campaign_id}
        return " ".join(d.message for d in check_text(json.dumps(doc)))

    assert 'did you mean "spike-trap"?' in said("Spike Trap")
    assert "did you mean" not in said("x" * 300 + "X")


def test_the_summary_counts_the_notes_shown_or_not():
    """Plain `check` counts the notes it hides ("-v to show"); `-v` shows them and still counts them."""
    path = next(p for p in bundled_campaigns() if p.name == "the-unpaid-ledger.json")  # three chokepoint notes
    plain, verbose = cardrogue("check", str(path)), cardrogue("check", "-v", str(path))
    assert plain.stdout.splitlines()[-1] == "1 file: 0 errors, 0 warnings, 3 notes (-v to show)", plain.stdout
    assert verbose.stdout.count("CR307") == 3
    assert verbose.stdout.splitlines()[-1] == "1 file: 0 errors, 0 warnings, 3 notes", verbose.stdout


def test_many_problems_of_one_code_are_listed_to_100_then_counted(tmp_path: Path):
    """A file of thousands of unknown keys printed a line each (300,000 lines for 300,000 keys): the text
    report lists the first 100 of a code in a file and counts the rest, as the hub lists a refused map's
    first 100; `-v` lists them all, and so does `--format json`, for tools. The summary counts them all."""
    doc = json.loads(bundled_campaigns()[0].read_text())
    doc.update({f"zz{i:03}": i for i in range(250)})
    doc.update({"titel": 1})  # one near a known key, met among them: the guess is still made
    path = tmp_path / "keys.json"
    path.write_text(json.dumps(doc, indent=2))
    done = cardrogue("check", str(path))
    lines = done.stdout.splitlines()
    # (a draft: misspelt keys are kept as written, so the rule and route checks wait for them to be fixed)
    assert done.returncode == 1 and len(lines) == 1 + 100 + 1 + 1 + 1, done.stdout[-2000:]
    assert [ln for ln in lines if "CR103" in ln][99].endswith("[$.zz099]")  # the first 100 in the file's order
    assert lines[-3] == "  ... and 151 more CR103 problems (-v to show them all)"
    assert lines[-2] == "  CR2xx rule checks and CR3xx route checks wait until the schema errors (CR1xx) are fixed"
    assert lines[-1] == "1 file: 251 errors, 0 warnings"
    verbose = cardrogue("check", "-v", str(path)).stdout
    assert verbose.count("CR103") == 251 and "more CR103" not in verbose
    assert "did you mean 'title'?" in verbose
    report = json.loads(cardrogue("check", "--format", "json", str(path)).stdout)
    assert len(report["files"][0]["diagnostics"]) == 251


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


def test_the_json_report_is_one_diagnostic_a_line(broken: Path, tmp_path: Path):
    """`--format json` writes the document `json.dump(indent=2)` wrote, each diagnostic on a line of its
    own: written whole through the standard library's pure-Python indenting encoder, a file of 300,000
    unknown keys took twice the text report's time for a 120 MB report (benchmarks/RESULTS.md, polish8)."""
    good = tmp_path / "good.json"
    shutil.copy(bundled_campaigns()[0], good)
    done = cardrogue("check", "--format", "json", "-v", str(good), str(broken), str(tmp_path / "missing.json"))
    doc = json.loads(done.stdout)
    assert [f["file"] for f in doc["files"]] == [str(tmp_path / "missing.json"), str(good), str(broken)]
    diagnostics = [d for f in doc["files"] for d in f["diagnostics"]]
    assert len(diagnostics) >= 3 and any("cell" in d for d in diagnostics)  # (a list inside one: one line too)
    lines = done.stdout.splitlines()
    assert [json.loads(line.strip().removesuffix(",")) for line in lines if line.startswith("        {")] == diagnostics
    assert lines[:3] == ["{", '  "status": "unusable",', '  "files": ['] and lines[-3:] == ["    }", "  ]", "}"]


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


def test_a_folder_search_leaves_hidden_folders_and_files_out(tmp_path: Path):
    """`cardrogue check .` in a map repository: its VS Code settings (docs/authoring.md maps the
    schema there), a virtual environment, git's folder are not campaigns. A hidden file named on
    the command line is still checked."""
    repo = tmp_path / "repo"
    shutil.copytree(bundled_campaigns()[0].parent, repo / "maps", ignore=shutil.ignore_patterns("*.replay.json"))
    (repo / ".vscode").mkdir()
    (repo / ".vscode" / "settings.json").write_text('{"json.schemas": []}')
    (repo / ".venv" / "lib").mkdir(parents=True)
    (repo / ".venv" / "lib" / "direct_url.json").write_text('{"url": "file:///x"}')
    (repo / ".draft.json").write_text("{")
    done = cardrogue("check", "--strict", ".", cwd=repo)
    assert done.returncode == 0, done.stdout
    assert ".vscode" not in done.stdout and ".venv" not in done.stdout and ".draft" not in done.stdout
    done = cardrogue("check", ".draft.json", cwd=repo)
    assert done.returncode == 2 and ".draft.json:1:2: CR001" in done.stdout


def test_check_never_writes(tmp_path: Path, broken: Path):
    before = sorted(p.name for p in tmp_path.iterdir())
    cardrogue("check", str(tmp_path))
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_a_folder_without_campaigns_is_unusable(tmp_path: Path):
    (tmp_path / "empty").mkdir()
    done = cardrogue("check", str(tmp_path / "empty"))
    assert done.returncode == 2 and "no campaign files" in done.stderr



# ------------------------------------------------------------------------------------------ start-up

HEAVY = ("textual", "rich", "networkx", "jsonschema", "referencing", "importlib.metadata")
PROBE = ("import sys\nfrom cardrogue.cli.main import main\nstatus = main(sys.argv[1:])\n"
         f"heavy = {HEAVY!r}\n"
         "loaded = sorted({h for m in sys.modules for h in heavy if m == h or m.startswith(h + '.')})\n"
         "print('LOADED:', status, ','.join(loaded), file=sys.stderr)\n")


def imported_by_check(*args: str) -> tuple[str, set[str]]:
    """The exit status of ``cardrogue check ARGS``, piped, and which of :data:`HEAVY` it imported."""
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    done = subprocess.run([sys.executable, "-c", PROBE, "check", *args], capture_output=True, text=True,
                          timeout=120, env=env)
    assert "LOADED:" in done.stderr, done.stderr
    status, _, loaded = done.stderr.rsplit("LOADED:", 1)[1].strip().partition(" ")
    return status, set(filter(None, loaded.split(",")))


def test_a_clean_check_imports_only_what_it_needs():
    """Start-up is most of a small check (issue 14): piped, a clean ``cardrogue check`` imports no
    UI (textual), no terminal styling (rich), no general graph library (networkx), no reference
    validator (jsonschema, referencing) and no package metadata."""
    for path in bundled_campaigns():
        assert imported_by_check(str(path)) == ("0", set()), path
        assert imported_by_check("-v", "--format", "json", str(path)) == ("0", set()), path


def test_a_check_with_problems_imports_the_reference_validator(broken: Path, tmp_path: Path):
    """The other side of the start-up test: the report on an invalid file does use jsonschema."""
    doc = json.loads(broken.read_text())
    doc["levels"][0]["width"] = "wide"
    (tmp_path / "invalid.json").write_text(json.dumps(doc))
    status, loaded = imported_by_check(str(tmp_path / "invalid.json"))
    assert status == "1" and {"jsonschema", "referencing"} <= loaded and "textual" not in loaded


def test_piped_text_is_what_rich_would_write(monkeypatch: pytest.MonkeyPatch):
    """Piped, the report is written without Rich: the same characters Rich writes to a stream that
    is no terminal (no colour, no wrapping, wide and odd characters as they are)."""
    import io

    from rich.console import Console
    from rich.text import Text

    from cardrogue.cli.check import print_styled

    lines = [[("✗", "red"), (" ", ""), ("dir/ünïcode 漢字 [bold]x[/bold] :smile:.json", "bold")],
             [("  ", ""), ("a.json:3:7: CR201: unknown card 'goblinn'; " + "long words " * 30, "bold red")],
             [("", "green")], [("1 file: 1 error, 0 warnings", "red")]]
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE"):
        monkeypatch.delenv(name, raising=False)
    plain = io.StringIO()
    monkeypatch.setattr(sys, "stdout", plain)
    print_styled(lines)
    styled = io.StringIO()
    console = Console(file=styled, highlight=False, soft_wrap=True, width=40)
    for line in lines:
        console.print(Text.assemble(*line))
    assert plain.getvalue() == styled.getvalue()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_report_that_cannot_be_written_is_said_so():
    """The process ends without the interpreter's own shut-down after ``check`` (cli.main.run), so a
    report lost to a full disk must still be reported: exit 2, one line, no traceback."""
    for verbose in (["-v"], []):  # written at the end, or flushed by the command itself
        with open("/dev/full", "w") as full:
            done = subprocess.run([*CLI, "check", *verbose, str(bundled_campaigns()[0])], stdout=full,
                                  stderr=subprocess.PIPE, text=True, timeout=60)
        assert done.returncode == 2 and done.stderr == "cardrogue: cannot write the output: No space left on device\n", (
            verbose, done.stderr)


def test_a_rule_error_says_the_route_checks_wait_for_it(broken: Path):
    """The graph checks (CR3xx) run once the loader finds no error: the text report says so under a
    file whose errors hold them back, as the editor's problem list does, so an author who fixes the
    unknown card is not surprised by an unreachable exit reported only then."""
    doc = json.loads(broken.read_text())
    exit_cell = next(c for level in doc["levels"] for c in level["cells"] if c.get("exit"))
    exit_cell["paths"] = ""  # walled off: CR301, found once the card is fixed
    broken.write_text(json.dumps(doc, indent=2))
    first = cardrogue("check", str(broken))
    assert "CR201" in first.stdout and "CR301" not in first.stdout
    assert "  CR3xx route checks wait until errors are fixed" in first.stdout.splitlines(), first.stdout
    (broken.parent / "cut.json").write_text(broken.read_text()[:500])  # not JSON: nothing was checked
    (broken.parent / "run.json").write_text('{"format": 1, "actions": []}')  # no campaign at all (a replay)
    for other in ("cut.json", "run.json"):
        assert "route checks wait" not in cardrogue("check", str(broken.parent / other)).stdout, other
    doc["levels"][0]["cells"][1]["card"] = "goblin"
    broken.write_text(json.dumps(doc, indent=2))
    then = cardrogue("check", str(broken))
    assert "CR301" in then.stdout and "route checks wait" not in then.stdout, then.stdout


def test_a_schema_error_says_the_rule_checks_wait_for_it_too(broken: Path):
    """walk 27: a seed of -1 (CR106, the schema's) and an unknown card 'goblinn' (CR201, a rule check's): the report
    listed the seed alone and said "CR3xx route checks wait until errors are fixed", as if the rest had been checked;
    the rule checks (CR2xx) wait for the schema's errors too, and the unknown card came to light only once the seed
    was mended. The line says which checks wait, and for what."""
    doc = json.loads(broken.read_text())
    doc["seed"] = -1
    broken.write_text(json.dumps(doc, indent=2))
    first = cardrogue("check", str(broken))
    assert "CR106" in first.stdout and "CR201" not in first.stdout, first.stdout
    assert first.stdout.splitlines()[-2] == ("  CR2xx rule checks and CR3xx route checks wait until the schema errors "
                                             "(CR1xx) are fixed"), first.stdout
    doc["seed"] = 7
    broken.write_text(json.dumps(doc, indent=2))
    then = cardrogue("check", str(broken))
    assert "CR201" in then.stdout and then.stdout.splitlines()[-2] == "  CR3xx route checks wait until errors are fixed"


def test_a_level_wide_problem_names_its_level_in_checks_output(tmp_path: Path):
    """CR306, CR310 and CR311 said "this level", which the editor's problems list reads beside the level's name;
    `cardrogue check` gives only the file's line and `[$.levels[1]]`, so it names the level as its author knows
    it (level_name); the editor's list keeps "this level" (left21)."""
    from cardrogue.engine.analysis.check import check_text

    from helpers import cell

    def level(level_id: str, title: str, cells: list[dict]) -> dict:
        return {"id": level_id, "width": 2, "height": 1, "cells": cells, **({"title": title} if title else {})}

    start = cell(0, 0, "starting-tile", "E")
    doc = {"format": 1, "id": "blocked", "title": "Blocked", "rules": "1.1.2", "seed": 1,
           "hero": {"character": "warrior"},
           "levels": [level("hall", "The Hall", [start, cell(1, 0, "descending-ladder", "W", "down", to="pit")]),
                      level("pit", "The Pit", [start, cell(1, 0, "pathing-tile", "W", "down")]),
                      level("way-out", "", [cell(0, 0, "starting-tile", "", exit=True)])]}
    path = tmp_path / "blocked.json"
    path.write_text(json.dumps(doc, indent=1))
    done = cardrogue("check", str(path))
    said = {ln.split(": ", 2)[1]: ln.split(": ", 2)[2] for ln in done.stdout.splitlines()
            if ": CR306: " in ln or ": CR310: " in ln}
    # level 3, reached by no ladder, is said with its cause: level 2, whose way down is gone
    assert said == {"CR306": 'level 2 "The Pit" (pit) has neither a descending ladder nor an exit, so no ladder path '
                             'from the first level reaches level 3 (way-out) [$.levels[1]]'}, done.stdout
    assert 'no exit can be reached from level 2 "The Pit" (pit): add a ladder or an exit' in done.stdout
    done = cardrogue("check", "--format", "json", str(path))
    messages = {d["code"] + str(d["level"]): d["message"] for d in json.loads(done.stdout)["files"][0]["diagnostics"]}
    assert messages["CR3061"] == ('level 2 "The Pit" (pit) has neither a descending ladder nor an exit, so no ladder '
                                  'path from the first level reaches level 3 (way-out)'), messages
    editor = {d.code: d.message for d in check_text(path.read_text()) if d.level == 1}  # read beside its level
    assert editor["CR306"] == ("this level has neither a descending ladder nor an exit, so no ladder path from the "
                               "first level reaches level 3 (way-out)")
    done = cardrogue("check", str(Path(__file__).parent / "corpus" / "broken" / "45-no-starting-tile.json"))
    assert "CR206: level 2 (bottom) has no starting tile" in done.stdout, done.stdout  # it said level 'bottom'


# --------------------------------------------------------------------------- an author's mistakes (issue 14)
# Each a bundled map broken by hand as an author might, and what check must say of it.

def _needle_run_broken(tmp_path: Path, old: str, new: str) -> Path:
    text = next(p for p in bundled_campaigns() if p.name == "the-needle-run.json").read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / "needle.json"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def test_a_walled_in_starting_tile_is_named_as_the_cause_not_buried_under_every_other_tile(tmp_path: Path):
    """The starting tile's paths emptied: every tile of the level is unreachable for that one cause. The exit's
    error says the start leads nowhere, and the level's 16 other tiles are not each warned of (CR303): they hid
    the cause (CR223 on the start) in the middle of 16 lines."""
    path = _needle_run_broken(tmp_path, '"card": "starting-tile", "paths": "NS"', '"card": "starting-tile", "paths": ""')
    done = cardrogue("check", str(path))
    assert done.returncode == 1
    assert (f"{path}:42:9: CR301: the exit at (6, 1) cannot be reached from the starting tile at (0, 1), which leads "
            "nowhere: none of its paths meets a neighbour's path; connect their paths [$.levels[0].cells[10]]") in done.stdout
    assert f"{path}:39:9: CR223: 'starting-tile' has no paths" in done.stdout
    assert "CR303" not in done.stdout and done.stdout.endswith("1 file: 2 errors, 1 warning\n"), done.stdout


def test_a_start_stopped_by_a_keyless_chest_is_not_said_to_lead_nowhere(tmp_path: Path):
    """The start's one path meets a locked chest with no key in the campaign (CR305): the chest is the cause,
    and the exit's error must not claim the start's paths meet no neighbour's (they meet the chest's)."""
    data = json.loads(next(p for p in bundled_campaigns() if p.name == "two-knives.json").read_text(encoding="utf-8"))
    level = data["levels"][0]
    level.update(width=4, height=1, goals=[], cells=[
        {"at": [0, 0], "card": "starting-tile", "paths": "E", "face": "up"},
        {"at": [1, 0], "card": "chest", "paths": "EW", "face": "down"},
        {"at": [2, 0], "card": "pathing-tile", "paths": "EW", "face": "down"},
        {"at": [3, 0], "card": "pathing-tile", "paths": "W", "face": "down", "exit": True}])
    data["levels"] = [level]
    path = tmp_path / "chest.json"
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    done = cardrogue("check", str(path))
    assert done.returncode == 1 and "CR305: locked chest at (1, 0) has no key" in done.stdout, done.stdout
    assert "CR301: the exit at (3, 0) cannot be reached from the starting tile at (0, 0); connect" in done.stdout, done.stdout
    assert "leads nowhere" not in done.stdout


def test_a_card_not_a_potion_marked_throwable_is_warned_of_in_place(tmp_path: Path):
    """docs/rules.md, "The throw symbol on a card that is not a potion": the mark did nothing, silently."""
    path = _needle_run_broken(tmp_path, '"hero": {', '"cards": {\n    "hasty-boots": {"throwable": true}\n  },\n  "hero": {')
    done = cardrogue("check", str(path))
    assert done.returncode == 0 and f"{path}:16:34: CR229: 'hasty-boots' is an armour, and only a potion can be thrown" in done.stdout
    assert "[$.cards['hasty-boots'].throwable]" in done.stdout
    assert cardrogue("check", "--strict", str(path)).returncode == 1
    report = json.loads(cardrogue("check", "--format", "json", str(path)).stdout)
    [found] = report["files"][0]["diagnostics"]
    assert (found["code"], found["severity"], found["line"], found["column"], found["path"]) == (
        "CR229", "warning", 16, 34, "$.cards['hasty-boots'].throwable")


def test_a_comment_is_said_to_be_one(tmp_path: Path):
    """JSON has no comments; the parser's own words ("expected a property name") sent an author hunting for a
    missing key."""
    path = _needle_run_broken(tmp_path, '"seed": 4471,', '"seed": 4471, // the seed of the fated dice')
    done = cardrogue("check", str(path))
    assert done.returncode == 2
    assert f"{path}:10:17: CR001: invalid JSON: a comment, and JSON has none: remove it" in done.stdout, done.stdout


def test_a_document_that_is_null_is_said_so_once(tmp_path: Path):
    path = tmp_path / "null.json"
    path.write_text("null")
    done = cardrogue("check", str(path))
    assert f"{path}:1:1: CR101: the campaign must be an object {{ ... }}, not null\n" in done.stdout, done.stdout


def test_a_misspelt_ability_is_told_the_one_it_most_likely_meant(tmp_path: Path):
    """An ability one letter off the vocabulary was given the same two examples as any text at all; the nearest
    ability, written with the author's own trigger and numbers, is the fix."""
    path = _needle_run_broken(tmp_path, '"hero": {',
                              '"cards": {\n    "goblin": {"abilities": ["ROLL A DIE: IF 1-2: PARALYZE 3 TURN", "FLIES AWAY"]}'
                              '\n  },\n  "hero": {')
    done = cardrogue("check", str(path))
    assert done.returncode == 1
    assert (f"{path}:16:30: CR215: 'ROLL A DIE: IF 1-2: PARALYZE 3 TURN' is not in the ability vocabulary; did you mean "
            "'ROLL A DIE: IF 1-2: PARALYZE FOR 3 TURNS'? [$.cards.goblin.abilities[0]]") in done.stdout, done.stdout
    assert "'FLIES AWAY' is not in the ability vocabulary: write it in the rulebook's words, for example" in done.stdout


def test_a_duplicate_card_instance_id_names_the_card_that_has_it_first():
    """As a duplicate level id says which level has it too: an author given only the second place searched the file."""
    from cardrogue.engine.analysis.check import check_text

    doc = json.loads(next(p for p in bundled_campaigns() if p.name == "a-sons-descent.json").read_text())
    doc["levels"][0]["cells"][1]["id"] = "the-old-rope"
    doc["levels"][0]["cells"][2]["id"] = "the-old-rope"
    doc["levels"][1]["cells"][0]["id"] = "the-old-rope"
    first = doc["levels"][0]["cells"][1]["at"]
    said = [d.message for d in check_text(json.dumps(doc)) if d.code == "CR202"]
    assert said == [f"duplicate card instance id 'the-old-rope' (the card at {tuple(first)} has it too): each card on "
                    "the map needs its own id",
                    f"duplicate card instance id 'the-old-rope' (the card at {tuple(first)} on level 1 \"The Rope's End\" "
                    "(the-ropes-end) has it too): each card on the map needs its own id"], said


def test_check_solve_says_the_solver_waits_for_a_campaign_with_errors(broken: Path):
    """Asked for a verdict (--solve) on a campaign with errors, check gave none and did not say why."""
    done = cardrogue("check", "--solve", str(broken))
    assert done.returncode == 1 and "CR201" in done.stdout
    assert "  the solver (--solve, CR4xx) waits until errors are fixed" in done.stdout.splitlines(), done.stdout
    assert "the solver" not in cardrogue("check", str(broken)).stdout
    assert "solver" not in cardrogue("check", "--solve", "--format", "json", str(broken)).stdout


def _tutorial() -> dict:
    return json.loads(next(p for p in bundled_campaigns() if p.name == "a-sons-descent.json").read_text(encoding="utf-8"))


def test_a_deleted_ladder_is_one_error_at_its_level_naming_the_levels_cut_off(tmp_path: Path):
    """Deleting the tutorial's second level's ladder gave a CR310 for each of the six levels after it, each saying
    the level before could not be reached either: now the one error is at the cause, the level whose way down is
    gone (CR306), naming the levels no ladder path reaches; a ladder walled off (CR302) is one CR310 at the first
    level cut off, naming those reached only through it."""
    data = _tutorial()
    data["levels"][1]["cells"] = [c for c in data["levels"][1]["cells"] if c["card"] != "descending-ladder"]
    path = tmp_path / "no-ladder.json"
    path.write_text(json.dumps(data, indent=2))
    done = cardrogue("check", str(path))
    errors = [ln.split(": ", 2)[1:] for ln in done.stdout.splitlines() if ": CR3" in ln]
    assert [code for code, _ in errors] == ["CR306", "CR311"], done.stdout
    assert errors[0][1] == ('level 2 "Teeth in the Floor" (teeth-in-the-floor) has neither a descending ladder nor an '
                            'exit, so no ladder path from the first level reaches levels 3 to 8 ("First Blood" '
                            '(first-blood) to "The Golem\'s Hall" (the-golems-hall)) [$.levels[1]]')
    data = _tutorial()
    next(c for c in data["levels"][1]["cells"] if c["card"] == "descending-ladder")["paths"] = ""
    path.write_text(json.dumps(data, indent=2))
    done = cardrogue("check", str(path))
    cut = [ln.split(": ", 2)[2] for ln in done.stdout.splitlines() if ": CR310: " in ln]
    assert cut == ['level 3 "First Blood" (first-blood) cannot be reached: the ladder to it at (4, 0) on level 2 "Teeth '
                   'in the Floor" (teeth-in-the-floor) cannot be reached (see CR302); so neither can levels 4 to 8 '
                   '("Colours in the Dark" (colours-in-the-dark) to "The Golem\'s Hall" (the-golems-hall)), reached '
                   'only through it [$.levels[2]]'], done.stdout


def test_a_deleted_key_is_one_no_way_out_at_the_dead_end_naming_the_levels_above(tmp_path: Path):
    """Deleting the tutorial's key left the chest, and so the sixth level's ladder, out of reach: each of the five
    levels above it had a CR311 of its own ("its ladders lead only to levels without one (level N+1)"). Now the
    dead end's CR311 names them, and the cause (CR305, no key) is listed."""
    data = _tutorial()
    data["levels"][5]["cells"] = [c for c in data["levels"][5]["cells"] if c["card"] != "key"]
    path = tmp_path / "no-key.json"
    path.write_text(json.dumps(data, indent=2))
    done = cardrogue("check", str(path))
    errors = [ln.split(": ", 2)[1:] for ln in done.stdout.splitlines() if ": CR3" in ln and "error" not in ln[:3]]
    codes = [code for code, _ in errors]
    assert codes.count("CR311") == 1 and "CR305" in codes, done.stdout
    assert dict(errors)["CR311"] == (
        'no exit can be reached from level 6 "The Sorcerers\' Chest" (the-sorcerers-chest): its ladders cannot be '
        'reached from the starting tile (see CR302); nor from levels 1 to 5 ("The Rope\'s End" (the-ropes-end) to '
        '"The Father\'s Counter" (the-fathers-counter)), whose ladders lead only to levels without one [$.levels[5]]')


@pytest.mark.parametrize("where", ["stock", "card"])
def test_a_goals_card_misspelt_on_the_level_is_one_error_at_the_misspelling(tmp_path: Path, where: str):
    """The shop's stock typed "shopkeepers-dept" gave the goal's CR221 ("no shop ... sells it"), listed first, before
    the CR201 that says the fix; the golem typed "golam" the same. The CR201 alone is said: fixing it meets the goal."""
    data = _tutorial()
    if where == "stock":
        shop = next(c for c in data["levels"][4]["cells"] if c["card"] == "shop")
        shop["stock"] = ["shopkeepers-dept"]
        typo, meant = "shopkeepers-dept", "shopkeepers-debt"
    else:
        golem = next(c for c in data["levels"][7]["cells"] if c["card"] == "golem")
        golem["card"] = typo = "golam"
        meant = "golem"
    path = tmp_path / "typo.json"
    path.write_text(json.dumps(data, indent=2))
    done = cardrogue("check", str(path))
    errors = [ln.split(": ", 2)[1:] for ln in done.stdout.splitlines() if ": CR" in ln]
    assert errors == [["CR201", f"unknown card {typo!r}; did you mean {meant!r}? " + errors[0][1].rsplit(" ", 1)[1]]], \
        done.stdout


def test_a_ladder_back_to_its_own_level_is_the_dead_end_the_levels_above_are_named_in(tmp_path: Path):
    """The third level's ladder pointed at its own level (walk25): levels 1 and 2 each had a CR311 of their own, and
    the third's said its ladders "lead only to levels without one (level 3 ...)", itself. Now its CR311 says they
    lead only back to it (see CR312) and names the two above."""
    data = _tutorial()
    next(c for c in data["levels"][2]["cells"] if c["card"] == "descending-ladder")["to"] = data["levels"][2]["id"]
    path = tmp_path / "loop.json"
    path.write_text(json.dumps(data, indent=2))
    done = cardrogue("check", str(path))
    said = [ln.split(": ", 2)[2] for ln in done.stdout.splitlines() if ": CR311: " in ln]
    assert said == ['no exit can be reached from level 3 "First Blood" (first-blood): its ladders lead only back to it '
                    '(see CR312); nor from level 1 "The Rope\'s End" (the-ropes-end) and level 2 "Teeth in the Floor" '
                    '(teeth-in-the-floor), whose ladders lead only to levels without one [$.levels[2]]'], done.stdout
