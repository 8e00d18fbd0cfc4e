"""The `cardrogue` command as a whole (issue 13, point 11): finding a replay's campaign, `verify --format
json`, `--version`, `python -m cardrogue`, shell completion, help on every option, progress bars on a
terminal only, and no Textual for the commands that need no UI."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from ports import free_port

from cardrogue.cli.main import build_parser, main

ROOT = Path(__file__).resolve().parents[1]
NEEDLE = ROOT / "campaigns" / "the-needle-run.json"
NEEDLE_REPLAY = ROOT / "campaigns" / "the-needle-run.replay.json"


def cardrogue(capsys, *args: str) -> tuple[int, str, str]:
    try:
        code = main([str(a) for a in args])
    except SystemExit as exc:  # usage errors and --version, from the parser
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def own_map(folder: Path, campaign_id: str = "my-gallery", name: str | None = None) -> Path:
    """The Needle Run under another id: a campaign no bundled file has."""
    doc = json.loads(NEEDLE.read_text(encoding="utf-8"))
    doc["id"] = campaign_id
    path = folder / f"{name or campaign_id}.json"
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return path


def record(capsys, campaign: Path, replay: Path) -> Path:
    actions = json.loads(NEEDLE_REPLAY.read_text(encoding="utf-8"))["actions"]
    code, _, err = cardrogue(capsys, "run", campaign, *actions, "-o", replay)
    assert code == 0, err
    return replay


# --------------------------------------------------------------------------- verify finds the campaign


def test_verify_finds_the_campaign_beside_the_replay(tmp_path: Path, capsys) -> None:
    campaign = own_map(tmp_path)
    replay = record(capsys, campaign, tmp_path / "my-gallery.replay.json")
    code, out, err = cardrogue(capsys, "verify", replay)
    assert code == 0 and "verified: won in 4 turns" in out, err


def test_verify_finds_a_campaign_of_another_name_in_the_replays_folder(tmp_path: Path, capsys) -> None:
    """The player names replays ID-DATE-won.replay.json; the campaign's file name need not be its id."""
    own_map(tmp_path, name="gallery-v2")
    (tmp_path / "notes.json").write_text("[1, 2", encoding="utf-8")  # not a campaign: passed over
    replay = record(capsys, tmp_path / "gallery-v2.json", tmp_path / "my-gallery-20261123-104737-won.replay.json")
    code, out, _ = cardrogue(capsys, "verify", replay)
    assert code == 0 and "verified" in out


def test_verify_without_the_campaign_says_where_it_looked_and_what_to_do(tmp_path: Path, capsys) -> None:
    (tmp_path / "maps").mkdir()
    (tmp_path / "runs").mkdir()
    campaign = own_map(tmp_path / "maps")
    replay = record(capsys, campaign, tmp_path / "runs" / "run.replay.json")
    code, _, err = cardrogue(capsys, "verify", replay)
    assert code == 2 and "'my-gallery'" in err and str(tmp_path / "runs") in err and "--campaign FILE" in err
    code, out, _ = cardrogue(capsys, "verify", replay, "--campaign", campaign)
    assert code == 0 and "verified" in out


def test_verify_prefers_the_version_the_replay_was_recorded_on(tmp_path: Path, capsys) -> None:
    """An edited copy of a bundled map beside the replay does not hide the bundled version it was made on."""
    doc = json.loads(NEEDLE.read_text(encoding="utf-8"))
    doc["seed"] += 1  # another version of the-needle-run
    (tmp_path / "the-needle-run.json").write_text(json.dumps(doc), encoding="utf-8")
    shutil.copy(NEEDLE_REPLAY, tmp_path / "the-needle-run.replay.json")
    code, out, _ = cardrogue(capsys, "verify", tmp_path / "the-needle-run.replay.json")
    assert code == 0 and "verified" in out
    # a replay of the edited version is checked against the edited file (the only one with its hash)
    edited = record(capsys, tmp_path / "the-needle-run.json", tmp_path / "edited.replay.json")
    code, out, _ = cardrogue(capsys, "verify", edited)
    assert code in (0, 1) and "another version" not in out


def test_verify_names_the_other_version_when_only_that_one_is_found(tmp_path: Path, capsys) -> None:
    campaign = own_map(tmp_path)
    replay = record(capsys, campaign, tmp_path / "my-gallery.replay.json")
    doc = json.loads(campaign.read_text(encoding="utf-8"))
    doc["seed"] += 1
    campaign.write_text(json.dumps(doc), encoding="utf-8")
    code, out, _ = cardrogue(capsys, "verify", replay)
    assert code == 1 and "another version of 'my-gallery'" in out


def _played(campaign: Path, replays: Path) -> Path:
    """A won run of ``campaign`` as the player saves it: in its replays folder, away from the map."""
    from cardrogue.editor.player.run import PlayRun, finish
    from cardrogue.engine.format.loader import load_usable

    run = PlayRun(load_usable(campaign), player="ada", campaign_file=campaign)
    for action in json.loads(NEEDLE_REPLAY.read_text(encoding="utf-8"))["actions"]:
        run.play(action)
    result = finish(run, practice=False, replays_dir=replays, scores_db=None)
    assert result.verified and result.replay_path.parent == replays
    return result.replay_path


def test_verify_needs_only_the_replay_the_player_saved(tmp_path: Path, capsys, monkeypatch) -> None:
    """The player saves replays in its own folder, away from the map, so `verify REPLAY` said "name
    the campaign file with --campaign FILE". The replay now records the file it was played from (made
    absolute: here it was named relative to the working folder), which verify reads first."""
    (tmp_path / "maps").mkdir()
    monkeypatch.chdir(tmp_path / "maps")
    own_map(tmp_path / "maps")
    replay = _played(Path("my-gallery.json"), tmp_path / "replays")
    assert json.loads(replay.read_text(encoding="utf-8"))["campaign"]["file"] == str(tmp_path / "maps" / "my-gallery.json")
    monkeypatch.chdir(tmp_path)
    code, out, err = cardrogue(capsys, "verify", replay)
    assert code == 0 and "verified: won in 4 turns" in out, err


def test_a_replay_names_a_campaign_file_under_the_home_folder_from_home(tmp_path: Path, capsys, monkeypatch) -> None:
    """A replay may be shared by other ways than a hub (docs/player.md): the file it was played from
    is recorded as ``~/...`` when under the home folder, which names no login, and verify reads it
    back from this machine's home folder."""
    home = tmp_path / "home" / "ada"
    (home / "maps").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("USERPROFILE", str(home))
    replay = _played(own_map(home / "maps"), tmp_path / "replays")
    text = replay.read_text(encoding="utf-8")
    assert json.loads(text)["campaign"]["file"] == str(Path("~") / "maps" / "my-gallery.json")
    assert str(home) not in text and "ada" not in json.loads(text)["campaign"]["file"]
    monkeypatch.chdir(tmp_path)
    code, out, err = cardrogue(capsys, "verify", replay)
    assert code == 0 and "verified: won in 4 turns" in out, err


def test_verify_says_the_file_a_replay_was_played_from_has_changed(tmp_path: Path, capsys) -> None:
    """The recorded file is where to look, never proof: a run of another version is rejected, with the
    file and both versions named, as is a replay whose claimed version was forged to the file's."""
    (tmp_path / "maps").mkdir()
    campaign = own_map(tmp_path / "maps")
    replay = _played(campaign, tmp_path / "replays")
    doc = json.loads(campaign.read_text(encoding="utf-8"))
    doc["seed"] += 1
    campaign.write_text(json.dumps(doc), encoding="utf-8")
    code, out, _ = cardrogue(capsys, "verify", replay)
    assert code == 1 and f"rejected: the campaign file it was played from, {campaign}, has changed since" in out
    from cardrogue.engine.format.loader import load_usable

    forged = json.loads(replay.read_text(encoding="utf-8"))
    forged["campaign"]["hash"] = load_usable(campaign).content_hash  # claims the edited version
    replay.write_text(json.dumps(forged), encoding="utf-8")
    code, out, _ = cardrogue(capsys, "verify", replay)
    assert code == 1 and "rejected" in out and "verified" not in out


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_verify_reads_no_recorded_file_that_is_not_a_file(tmp_path: Path, capsys) -> None:
    """The recorded path comes with the replay, which anyone may send: a FIFO there would have the
    look at it wait for a writer for ever. Only a plain file is read."""
    replay = _played(own_map(tmp_path), tmp_path / "replays")
    doc = json.loads(replay.read_text(encoding="utf-8"))
    os.mkfifo(tmp_path / "fifo.json")
    doc["campaign"]["file"] = str(tmp_path / "fifo.json")
    replay.write_text(json.dumps(doc), encoding="utf-8")
    code, _, err = cardrogue(capsys, "verify", replay)
    assert code == 2 and "--campaign FILE" in err


def test_verify_looks_only_at_a_recorded_file_named_as_a_campaign(tmp_path: Path, capsys) -> None:
    """The recorded path comes with the replay, which anyone may send: verify looks there only when
    its name is a campaign file's (docs/player.md; the rule of `cardrogue check`: ``.json``, not a
    replay, not hidden), and never at a network share. ``/proc/self/pagemap`` (a "regular file" of
    size 0 that reads for ever) or ``\\\\server\\share\\x.json`` is not opened."""
    maps = tmp_path / "maps"
    maps.mkdir()
    replay = _played(own_map(maps), tmp_path / "replays")
    doc = json.loads(replay.read_text(encoding="utf-8"))
    for name in ("my-gallery.txt", ".my-gallery.json", "my-gallery.replay.json"):
        shutil.copy(maps / "my-gallery.json", tmp_path / name)
        doc["campaign"]["file"] = str(tmp_path / name)
        replay.write_text(json.dumps(doc), encoding="utf-8")
        code, _, err = cardrogue(capsys, "verify", replay)
        assert code == 2 and "--campaign FILE" in err, name
    for path in ("//hub.invalid/share/my-gallery.json", "\\\\hub.invalid\\share\\my-gallery.json"):
        doc["campaign"]["file"] = path
        replay.write_text(json.dumps(doc), encoding="utf-8")
        code, _, err = cardrogue(capsys, "verify", replay)
        assert code == 2 and "hub.invalid" not in err, path


def test_a_replay_sent_to_a_hub_leaves_the_players_path_behind(tmp_path: Path, capsys, monkeypatch) -> None:
    """The recorded file names the player's folders: a hub is sent the replay without it (and the hub
    drops it from a replay another client sends), and the run stays the same and verifies."""
    from cardrogue.engine.format.loader import load_usable
    from cardrogue.engine.records.replay import shared_text, verify_replay
    from cardrogue.hub.client import HubClient

    campaign = own_map(tmp_path)
    text = _played(campaign, tmp_path / "replays").read_text(encoding="utf-8")
    sent: list[bytes] = []
    answer = {"rank": 1, "player": "p", "turns": 1, "health": 1, "submitted_at": "", "run_id": "0" * 64,
              "map": "0" * 64, "id": "my-gallery"}  # a hub's answer, as far as the client reads it
    monkeypatch.setattr(HubClient, "_request", lambda self, method, path, body=None, **kw: sent.append(body) or answer)
    client = HubClient("http://hub.invalid", token="t")  # its one request is what would go over the wire
    client.submit("my-gallery", text)
    shared = json.loads(sent[0])
    assert "file" not in shared["campaign"] and str(tmp_path) not in sent[0].decode()
    assert shared_text(sent[0].decode()) == sent[0].decode()
    a, b = verify_replay(text, load_usable(campaign)), verify_replay(sent[0].decode(), load_usable(campaign))
    assert a.ok and b.ok and a.run.run_id == b.run.run_id


@pytest.mark.parametrize("command", [["solve", "{}"], ["run", "{}", "end"], ["scores", "{}"]])
def test_a_campaign_file_that_is_not_there_is_said_in_one_line(command: list[str], tmp_path: Path, capsys) -> None:
    """README: bad input gets a message with its place. A missing file was "not a usable campaign (1 error); run
    `cardrogue check nope.json`" and then the reason: there is nothing to check, the reason alone is said."""
    missing = str(tmp_path / "nope.json")
    code, _, err = cardrogue(capsys, *(missing if arg == "{}" else arg for arg in command))
    assert code == 2 and err == f"cardrogue: {missing}: cannot read the file: no such file or folder\n", err


@pytest.mark.parametrize("command", [["check", "{}"], ["solve", "{}"], ["play", "{}"], ["run", "{}", "end"],
                                     ["scores", "{}"], ["verify", "{}.replay"]])
def test_a_name_without_json_points_to_the_json_file_beside_it(command: list[str], tmp_path: Path, capsys) -> None:
    """README: `cardrogue edit mymap` starts mymap.json. Walk 18 then ran `cardrogue check mymap` (and solve,
    play) and was told only 'no such file or folder' beside the file it had just saved: the message names it."""
    shutil.copy(NEEDLE, tmp_path / "mymap.json")
    shutil.copy(NEEDLE_REPLAY, tmp_path / "mymap.replay.json")
    bare = str(tmp_path / "mymap")
    code, out, err = cardrogue(capsys, *(arg.replace("{}", bare) for arg in command))
    said = out + err
    assert code == 2 and "no such file" in said, said
    meant = f"{bare}.replay.json" if command[0] == "verify" else f"{bare}.json"
    assert f"did you mean {meant}?" in said, said


def test_verify_reports_a_draft_beside_the_replay(tmp_path: Path, capsys) -> None:
    campaign = own_map(tmp_path)
    replay = record(capsys, campaign, tmp_path / "my-gallery.replay.json")
    doc = json.loads(campaign.read_text(encoding="utf-8"))
    doc["levels"][0]["width"] = 0  # an error: the file loads only as a draft
    campaign.write_text(json.dumps(doc), encoding="utf-8")
    code, _, err = cardrogue(capsys, "verify", replay)
    assert code == 1 and "not a usable campaign" in err and "Traceback" not in err


def test_a_campaign_named_for_a_replay_that_is_unusable_lists_its_errors_one_a_line(tmp_path: Path, capsys) -> None:
    """README: bad input gets a message with its place. `verify --campaign` and `scores --import
    --campaign` with a draft or a folder: each error on its own `file:line:col` line, as `play`,
    `run` and `solve` print them; before, the lines were joined by a literal `\\n`."""
    draft = tmp_path / "draft.json"
    doc = json.loads(NEEDLE.read_text(encoding="utf-8"))
    doc["levels"][0]["width"] = 0
    draft.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    for campaign in (draft, tmp_path):
        for argv in (("verify", NEEDLE_REPLAY, "--campaign", campaign),
                     ("scores", "--import", NEEDLE_REPLAY, "--campaign", campaign, "--scores-db", tmp_path / "s.db")):
            code, out, err = cardrogue(capsys, *argv)
            said = out + err
            assert code in (1, 2) and "\\n" not in said, (argv, said)
            if campaign == draft:
                assert any(line.lstrip().startswith(f"{campaign}:") and "CR106" in line for line in said.splitlines()), \
                    (argv, said)
            else:  # no file to check: the reason alone, in one line
                assert f"{campaign}: cannot read the file: is a folder" in said and len(said.splitlines()) == 1, (argv, said)


@pytest.mark.parametrize("command, says", [("play", "the player needs a terminal"),
                                            ("edit", "the editor needs a terminal")])
def test_the_apps_without_a_terminal_are_refused_not_left_waiting(command: str, says: str, tmp_path: Path) -> None:
    """README: every command finishes in bounded time. `cardrogue play` or `edit` run by a script (input
    from /dev/null, output to a file) waited for ever on keys that never came; now they are refused at
    the start with what to run instead (exit 2)."""
    import os

    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "HOME": str(tmp_path / "home")}  # not the user's
    env.pop("CARDROGUE_SCORES_DB", None)
    done = subprocess.run([sys.executable, "-m", "cardrogue", command, str(NEEDLE)], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, cwd=tmp_path, timeout=120, env=env)
    assert done.returncode == 2 and done.stderr.startswith(f"cardrogue: {says}: "), done.stderr
    assert done.stdout == "" and "Traceback" not in done.stderr


def test_play_without_a_terminal_makes_no_file_but_says_a_bad_level_first(tmp_path: Path) -> None:
    """docs/player.md: `cardrogue play` without a terminal is refused before anything is made (it made the
    score database and the `--replays` folder, then refused); a campaign's or `--level`'s error is still
    said first, as with a terminal."""
    import os

    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "HOME": str(tmp_path / "home")}  # not the user's
    env.pop("CARDROGUE_SCORES_DB", None)
    for scores in ([], ["--scores-db", str(tmp_path / "s.db")]):
        argv = [sys.executable, "-m", "cardrogue", "play", str(NEEDLE), "--replays", str(tmp_path / "replays"), *scores]
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, cwd=tmp_path,
                              timeout=120, env=env)
        assert done.returncode == 2 and done.stderr.startswith("cardrogue: the player needs a terminal: "), done.stderr
        assert sorted(p.name for p in tmp_path.iterdir()) == [], list(tmp_path.iterdir())
        done = subprocess.run([*argv, "--level", "99"], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              cwd=tmp_path, timeout=120, env=env)
        assert done.returncode == 2 and done.stderr == f"cardrogue: {NEEDLE}: --level 99: the campaign has only level 1\n"
        assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_verify_says_why_a_won_run_is_not_ranked(tmp_path: Path, capsys) -> None:
    """A newcomer verified the replay of a practice of the bundled campaign's last level: "verified: won in 6
    turns with 6 health", the words of a whole run 29 turns under the campaign's par of 35. A won run the table
    would not take says why: a practice from a later level, or random dice (as `scores --import` says)."""
    bundled = ROOT / "campaigns" / "a-sons-descent.json"
    golem = ["move E", "end", "flip E", "attack", "attack", "attack", "move E", "end", "flip E", "move E", "end",
             "flip E", "move E"]
    practice = tmp_path / "a-sons-descent-practice.replay.json"
    code, _, err = cardrogue(capsys, "run", bundled, "--level", "8", *golem, "-o", practice)
    assert code == 0, err
    code, out, err = cardrogue(capsys, "verify", practice)
    assert code == 0 and "verified: won in 6 turns" in out, err
    assert "not ranked: a practice from level 8 (only a run of the whole campaign ranks)" in out, out
    code, out, _ = cardrogue(capsys, "verify", NEEDLE_REPLAY)
    assert code == 0 and "ranked" not in out, out  # a ranked run says nothing more
    needle = json.loads(NEEDLE_REPLAY.read_text(encoding="utf-8"))["actions"]
    for name, argv, said in (("dice", ["--seed", "3", *needle], "not ranked: played with random dice"),
                             ("short", needle[:3], None)):  # a run not won says nothing of ranks
        replay = tmp_path / f"{name}.replay.json"
        code, _, err = cardrogue(capsys, "run", NEEDLE, *argv, "-o", replay)
        assert code == 0, err
        code, out, _ = cardrogue(capsys, "verify", replay, "--campaign", NEEDLE)
        assert code == 0 and (said in out if said else "ranked" not in out), out


def test_verify_json(tmp_path: Path, capsys) -> None:
    code, out, _ = cardrogue(capsys, "verify", NEEDLE_REPLAY, "--format", "json")
    verdict = json.loads(out)
    assert code == 0 and verdict["ok"] is True and verdict["checked"] is True
    assert verdict["campaign"]["id"] == "the-needle-run"
    assert verdict["result"] == {"outcome": "won", "turns": 4, "health": 8, "level": 1, "dice": "fated",
                                 "player": "", "ranked": True}
    forged = json.loads(NEEDLE_REPLAY.read_text(encoding="utf-8"))
    forged["actions"][1] = "move W"  # off the map
    (tmp_path / "forged.replay.json").write_text(json.dumps(forged), encoding="utf-8")
    code, out, _ = cardrogue(capsys, "verify", tmp_path / "forged.replay.json", "--format", "json")
    verdict = json.loads(out)
    assert code == 1 and verdict["ok"] is False and verdict["result"] is None and verdict["action"] == 2
    assert "action 2" in verdict["message"]
    code, out, err = cardrogue(capsys, "verify", tmp_path / "missing.replay.json", "--format", "json")
    verdict = json.loads(out)
    assert code == 2 and verdict == {"replay": str(tmp_path / "missing.replay.json"), "ok": False, "checked": False,
                                     "message": verdict["message"]}
    assert "no such file" in verdict["message"] and "no such file" in err


# --------------------------------------------------------------------------- the command itself


def test_version_and_python_dash_m(capsys) -> None:
    from importlib.metadata import version

    code, out, _ = cardrogue(capsys, "--version")
    assert code == 0 and out.strip() == f"cardrogue {version('cardrogue-studio')}"
    done = subprocess.run([sys.executable, "-m", "cardrogue", "verify", str(NEEDLE_REPLAY)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and "verified" in done.stdout


@pytest.mark.parametrize("argv, usage", [
    (["verify", "a.replay.json", "b.replay.json"], "usage: cardrogue verify "),
    (["solve", "a.json", "b.json"], "usage: cardrogue solve "),
    (["hub", "list", "extra"], "usage: cardrogue hub list "),
    (["check", "a.json", "--no-such-option"], "usage: cardrogue check "),
])
def test_an_argument_too_many_shows_the_usage_of_the_command_given(argv: list[str], usage: str, capsys) -> None:
    """The walk of the product ran `cardrogue verify campaigns/*.replay.json`: verify takes one replay, and
    the answer was the usage of `cardrogue` itself (`usage: cardrogue [-h] [--version] COMMAND ...`),
    which does not say what verify takes. Now the usage is the command's own, as for a missing argument."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.startswith(usage), err
    assert "unrecognized arguments: " in err, err


@pytest.mark.parametrize("command", ["serve", "publish", "leaderboard", "register", "submit"])
def test_a_hub_command_without_hub_is_told_the_command_meant(command: str, capsys) -> None:
    """walk 26: `cardrogue serve` (the hub's server, as one says it) answered argparse's "invalid choice: 'serve'
    (choose from 'edit', 'play', ...)", which does not say that the hub's commands are under `hub`."""
    code, out, err = cardrogue(capsys, command)
    assert code == 2 and out == "", (out, err)
    assert err.endswith(f"cardrogue: error: '{command}' is not a command; did you mean 'cardrogue hub {command}'?\n"), err


def test_every_hub_command_is_one_the_top_level_tells_of() -> None:
    from cardrogue.cli.main import HUB_COMMANDS

    hub = dict(_every_parser(build_parser()))["cardrogue hub"]
    (choices,) = [a.choices for a in hub._actions if isinstance(a, argparse._SubParsersAction)]
    assert set(HUB_COMMANDS) == set(choices)


def _every_parser(parser: argparse.ArgumentParser, name: str = "cardrogue"):
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                yield from _every_parser(sub, f"{name} {sub_name}")


def test_every_option_of_every_command_has_help() -> None:
    parsers = dict(_every_parser(build_parser()))
    assert {"cardrogue check", "cardrogue solve", "cardrogue verify", "cardrogue web", "cardrogue completion"} <= set(parsers)
    missing = [f"{name} {'/'.join(action.option_strings) or action.dest}"
               for name, parser in parsers.items() for action in parser._actions
               if not isinstance(action, argparse._SubParsersAction)
               and (not action.help or action.help == argparse.SUPPRESS)]
    assert missing == []
    commands = [f"{name} {choice.dest}" for name, parser in parsers.items() for action in parser._actions
                if isinstance(action, argparse._SubParsersAction) for choice in action._choices_actions if not choice.help]
    assert commands == []  # and every command says what it is for


def test_every_option_with_a_default_says_it() -> None:
    """`--help` is where a newcomer learns what an option does when left out: a budget, a port, a worker
    count that has a default names it (`check --max-states` ran 200,000 states, `hub serve --workers` 2,
    and their help did not say so); so does an optional campaign left out (`edit`, `play`)."""
    silent = []
    for name, parser in _every_parser(build_parser()):
        for action in parser._actions:
            has_default = action.default not in (None, False, argparse.SUPPRESS) or (
                not action.option_strings and action.nargs == "?")
            if has_default and action.help and "default" not in action.help and "none:" not in action.help:
                silent.append(f"{name} {'/'.join(action.option_strings) or action.dest}: {action.help}")
    assert silent == []


def test_a_command_builds_only_its_own_group_the_same_parser() -> None:
    """`cardrogue check F` builds (and imports) only the check group's parsers (issue 14: start-up): each
    command's group in COMMANDS is the one that registers it, every command but `completion` (which
    describes them all) is there, and the command's own parser is the one the whole parser holds."""
    from cardrogue.cli.main import COMMANDS

    whole = dict(_every_parser(build_parser()))
    top = {name.split(" ")[1] for name in whole if name.count(" ") == 1}
    assert set(COMMANDS) == top - {"completion"}
    for command in COMMANDS:
        own = dict(_every_parser(build_parser(command)))
        assert f"cardrogue {command}" in own
        for name, parser in own.items():
            if name != "cardrogue":
                assert parser.format_help() == whole[name].format_help(), name
    done = subprocess.run([sys.executable, "-c", "import sys\nfrom cardrogue.cli.main import main\n"
                           f"main(['check', {str(NEEDLE)!r}])\n"
                           "print(sorted(m for m in sys.modules if m.startswith('cardrogue.cli.')))"],
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.splitlines()[-1] == "['cardrogue.cli.check', 'cardrogue.cli.common', 'cardrogue.cli.main', " \
                                           "'cardrogue.cli.progress']", done.stderr


def _bash_complete(script: Path, line: str, cwd: Path) -> list[str]:
    """What bash offers for TAB at the end of ``line``, with the script loaded as a user would."""
    words = line.split(" ")
    program = (f"source {script}\nCOMP_WORDS=({' '.join(repr(w) for w in words)})\nCOMP_CWORD={len(words) - 1}\n"
               "_cardrogue\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n")
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c", program], capture_output=True, text=True,
                          cwd=cwd, timeout=60)
    assert done.returncode == 0, done.stderr
    return [w for w in done.stdout.splitlines() if w]


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completion_offers_commands_options_choices_and_files(tmp_path: Path, capsys) -> None:
    code, script, _ = cardrogue(capsys, "completion", "bash")
    assert code == 0
    (tmp_path / "completion.bash").write_text(script)
    (tmp_path / "maze.json").write_text("{}")
    done = lambda line: _bash_complete(tmp_path / "completion.bash", line, tmp_path)  # noqa: E731
    assert done("cardrogue ve") == ["verify"]
    assert set(done("cardrogue ")) >= {"edit", "play", "check", "solve", "verify", "scores", "web", "hub", "completion"}
    assert done("cardrogue verify --f") == ["--format"]
    assert done("cardrogue verify --format ") == ["text", "json"]
    assert done("cardrogue check ma") == ["maze.json"]
    assert done("cardrogue verify x.replay.json --campaign ma") == ["maze.json"]
    assert sorted(done("cardrogue hub s")) == ["serve", "submit"]
    assert "--play-url" in done("cardrogue hub serve --")
    assert done("cardrogue web --port ") == []  # a number: no file names offered
    assert done("cardrogue completion ") == ["bash", "zsh", "fish"]


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish_scripts_cover_every_command(shell: str, capsys) -> None:
    code, script, _ = cardrogue(capsys, "completion", shell)
    assert code == 0
    for name in ("verify", "web", "serve", "--campaign", "--play-url"):
        assert name.removeprefix("--") in script
    if shutil.which(shell):  # when the shell is here, it must at least parse the script
        check = ["zsh", "-n"] if shell == "zsh" else ["fish", "--no-execute"]
        assert subprocess.run([*check], input=script, text=True, capture_output=True).returncode == 0


# --------------------------------------------------------------------------- progress bars


def _on_a_terminal(args: list[str]) -> tuple[bytes, bytes, int]:
    """Run ``cardrogue ARGS`` with standard error on a pseudo-terminal and standard output piped."""
    import os
    import pty
    import select

    master, slave = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE")}
    env.update(TERM="xterm-256color", COLUMNS="120")
    process = subprocess.Popen([sys.executable, "-m", "cardrogue", *args], stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    shown = bytearray()
    while True:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:  # the process closed its end
                break
            if not data:
                break
            shown += data
        elif process.poll() is not None:
            break
    out = process.stdout.read()
    process.wait(timeout=120)
    os.close(master)
    return bytes(shown), out, process.returncode


LONG_WORK = [
    (["solve", str(NEEDLE)], "The Needle Run: searching for par"),
    (["solve", str(NEEDLE), "--random", "20"], "The Needle Run: random-dice runs"),
    (["check", str(ROOT / "campaigns")], "checking"),
]


@pytest.mark.parametrize("args, description", LONG_WORK, ids=["solve", "solve-random", "check"])
def test_long_work_shows_a_progress_bar_on_a_terminal_and_nothing_extra_when_piped(args, description) -> None:
    shown, out_with_bar, code = _on_a_terminal(args)
    assert code == 0
    assert description.encode() in shown and "━".encode() in shown  # rich's bar, on the terminal
    piped = subprocess.run([sys.executable, "-m", "cardrogue", *args], capture_output=True, timeout=120)
    assert piped.returncode == 0
    assert piped.stderr == b""  # piped: no bar, no escape codes, nothing extra
    assert b"\x1b" not in piped.stdout
    if args[-1] != "20":  # random dice differ between runs; the rest is the same report either way (but its timing)
        import re

        untimed = lambda text: re.sub(rb"[\d.]+ s\b", b"T s", text)  # noqa: E731
        assert untimed(piped.stdout) == untimed(out_with_bar)


def test_json_output_stays_clean_with_a_bar_on_the_terminal() -> None:
    shown, out, code = _on_a_terminal(["solve", str(NEEDLE), "--format", "json"])
    assert code == 0 and b"searching for par" in shown
    assert json.loads(out)["turns"] == 4


def _long_map(folder: Path) -> Path:
    """benchmarks/gen.py's open 8x8 level of seed 6: the solver is still searching after many seconds."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_gen", ROOT / "benchmarks" / "gen.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    path = folder / "long.json"
    path.write_text(gen.campaign_text(1, 8, seed=6), encoding="utf-8")
    return path


def _pane_until(tmux: list[str], wanted: str, seconds: float = 120) -> str:
    """The tmux pane's text once it shows ``wanted`` (a generous wait; never a timing assert)."""
    import time

    end = time.monotonic() + seconds
    while True:
        pane = subprocess.run([*tmux, "capture-pane", "-p", "-t", "t"], capture_output=True, text=True).stdout
        if wanted in pane or time.monotonic() > end:
            return pane
        time.sleep(0.2)


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux, a real terminal that echoes ^C")
def test_ctrl_c_during_solve_erases_the_bar_and_says_interrupted(tmp_path: Path) -> None:
    """Ctrl+C on a terminal 80 columns wide while `solve` draws its bar: the terminal echoes ``^C``;
    a bar line as wide as the terminal wrapped the echo onto a new line, so rich erased that one and
    stranded the bar above. Now the bar is erased, one line says why, and the exit status is 130."""
    import os

    campaign = _long_map(tmp_path)
    tmux = ["tmux", "-L", f"cardrogue-test-{os.getpid()}", "-f", "/dev/null"]
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "COLUMNS", "TMUX")}
    command = (f"{sys.executable} -m cardrogue solve {campaign} --max-seconds 600 --max-states 100000000; "
               "echo EXIT=$?; sleep 600")
    subprocess.run([*tmux, "new-session", "-d", "-s", "t", "-x", "80", "-y", "24", command], env=env, check=True)
    try:
        shown = _pane_until(tmux, " states ")  # the bar, with its longest description (the widest line)
        assert "searching for par's turns" in shown and "━" in shown, shown
        subprocess.run([*tmux, "send-keys", "-t", "t", "C-c"], check=True)
        pane = _pane_until(tmux, "EXIT=")
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)
    lines = [line for line in pane.splitlines() if line.strip()]
    assert lines == ["cardrogue: interrupted", "EXIT=130"], pane


# --------------------------------------------------------------------------- no Textual without a UI


@pytest.mark.parametrize("args", [
    ["check", "{root}/campaigns/the-needle-run.json"],
    ["verify", "{root}/campaigns/the-needle-run.replay.json", "--format", "json"],
    ["solve", "{root}/campaigns/the-needle-run.json", "--max-seconds", "20"],
    ["run", "{root}/campaigns/the-needle-run.json", "move S"],
    ["scores", "{root}/campaigns/the-needle-run.json", "--scores-db", "{tmp}/s.sqlite3"],
    ["completion", "bash"],
    ["web", "--help"],
    ["--version"],
], ids=lambda args: args[0])
def test_commands_that_need_no_ui_never_import_textual(args: list[str], tmp_path: Path) -> None:
    argv = [a.format(root=ROOT, tmp=tmp_path) for a in args]
    code = ("import sys\nfrom cardrogue.cli.main import main\n"
            f"try:\n    status = main({argv!r})\nexcept SystemExit as exc:\n    status = exc.code\n"
            "loaded = sorted(m for m in sys.modules if m.split('.')[0] == 'textual')\n"
            "print('TEXTUAL:', status, ','.join(loaded), file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    status, loaded = done.stderr.rsplit("TEXTUAL:", 1)[1].split(" ", 2)[1:]
    assert status in ("0", "None") and loaded.strip() == "", done.stderr


def test_verify_json_rejects_a_file_that_is_no_replay(tmp_path: Path, capsys) -> None:
    (tmp_path / "junk.replay.json").write_text('{"format": 1}', encoding="utf-8")
    code, out, _ = cardrogue(capsys, "verify", tmp_path / "junk.replay.json", "--format", "json")
    verdict = json.loads(out)
    assert code == 1 and verdict["ok"] is False and verdict["checked"] is True and verdict["result"] is None


def test_verify_says_where_a_replay_stops_being_json(tmp_path: Path, capsys) -> None:
    """Not JSON is unusable input (exit 2, README), named file:line:col in words, as `check` names a
    campaign's; never Python's "Expecting property name enclosed in double quotes"."""
    junk = tmp_path / "junk.replay.json"
    junk.write_text('{\n  "format": 1,\n  actions: []\n}\n', encoding="utf-8")
    code, out, err = cardrogue(capsys, "verify", junk)
    assert code == 2 and out == ""
    assert err == f'cardrogue: {junk}:3:3: not JSON: expected a property name in double quotes, like "actions"\n', err
    code, out, _ = cardrogue(capsys, "verify", junk, "--format", "json")
    verdict = json.loads(out)
    assert code == 2 and verdict["ok"] is False and verdict["checked"] is False and f"{junk}:3:3: not JSON" in verdict["message"]


@pytest.mark.parametrize("depth", [100_000, 40])
def test_verify_says_a_replay_nested_too_deep_as_check_says_a_campaign(tmp_path: Path, capsys, depth: int) -> None:
    """walk 27: brackets nested 100,000 deep read "a replay needs 2 (here 32 are passed)"; `check` says of a
    campaign "the limit is 32: a campaign needs far fewer". The replay says its limit the same way, and keeps it
    (review 27: 33 to 990 deep, which Python's parser reads, were refused as "not of type 'object'")."""
    deep = tmp_path / "deep.replay.json"
    deep.write_text("[" * depth + "]" * depth, encoding="utf-8")
    code, out, err = cardrogue(capsys, "verify", deep)
    assert code == 2 and out == ""
    assert err == (f"cardrogue: {deep}:1:33: not JSON: brackets are nested {depth:,} levels deep; the limit is 32: "
                   "a replay needs 2\n"), err


@pytest.mark.parametrize("command", ["play", "web"])
def test_a_player_name_a_hub_would_refuse_is_refused_before_the_run(command: str, capsys, monkeypatch) -> None:
    """`--player '[red]x[/]'`: the name goes into every replay, and the hub refuses a replay whose
    player name is markup (docs/hub.md), so the run could never be submitted; said at once, exit 2."""
    import cardrogue.editor.player.app as player_app
    import cardrogue.editor.web as web

    monkeypatch.setattr(player_app, "run_player", lambda *a, **k: 0)  # no terminal session here
    monkeypatch.setattr("cardrogue.editor.terminal.require_terminal", lambda *a: None)  # (nor a terminal to check)
    monkeypatch.setattr(web.SessionServer, "serve", lambda self, **k: None)  # (it is given the socket taken)
    assert main([command, "--player", "[red]x[/]"]) == 2
    err = capsys.readouterr().err
    assert "--player: a hub refuses the name '[red]x[/]' in a replay: it looks like Rich markup" in err, err
    assert main([command, "--player", "x" * 81]) == 2
    assert "--player: at most 80 characters" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["play", "web"])
def test_a_replays_folder_that_cannot_be_made_is_refused_before_the_run(command: str, capsys, monkeypatch,
                                                                        tmp_path: Path) -> None:
    """`--replays DIR` where no folder can be made: refused at once (exit 2), not found out at the end
    of the run, whose replay was then lost ("The replay could not be saved")."""
    import cardrogue.editor.player.app as player_app
    import cardrogue.editor.web as web

    monkeypatch.setattr(player_app, "run_player", lambda *a, **k: 0)  # no terminal session here
    monkeypatch.setattr("cardrogue.editor.terminal.require_terminal", lambda *a: None)  # (nor a terminal to check)
    monkeypatch.setattr(web.SessionServer, "serve", lambda self, **k: None)  # (it is given the socket taken)
    (tmp_path / "notes").write_text("a file, not a folder")
    assert main([command, "--replays", str(tmp_path / "notes" / "replays")]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'notes' / 'replays'}: cannot make the replays folder" in err, err
    port = [] if command == "play" else ["--port", str(free_port())]  # `web` takes its address before serving
    assert main([command, "--replays", str(tmp_path / "new" / "replays"), *port]) == 0  # made at once, as the end would
    assert (tmp_path / "new" / "replays").is_dir()


@pytest.mark.skipif(not socket.has_dualstack_ipv6(), reason="this system has no dual-stack IPv6 socket")
def test_a_server_on_the_ipv6_any_address_takes_ipv4_too() -> None:
    """`hub serve --host ::` and `web --host ::` take their address before serving (a port in use is one line):
    as the servers' own binding did, the IPv6 any address answers IPv4 too, where the system allows it."""
    from cardrogue.cli.common import listen

    with listen("::", free_port("::")) as server:
        port = server.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass


def test_run_repeats_a_long_refused_action_cut_to_a_line(capsys):
    # An action piped or typed may be of any length; the report quotes its start and says how long it was, and the
    # JSON report keeps it whole (a machine reads it).
    action = "move " + "E" * 100_000
    code, out, _ = cardrogue(capsys, "run", NEEDLE, action)
    assert code == 1
    refused = next(line for line in out.splitlines() if "is not legal" in line)
    assert len(refused) < 200 and "(100,005 characters)" in refused and refused.startswith("action 1 ('move EEE")
    code, out, _ = cardrogue(capsys, "run", NEEDLE, action, "--format", "json")
    assert code == 1 and json.loads(out)["failure"]["action"] == action


def test_check_of_a_symbolic_link_that_leads_nowhere_says_so(capsys, tmp_path):
    """A link to a missing file, or a loop of links, was "no such file or folder" though the link is there:
    the report says it is a link and where it leads."""
    (tmp_path / "a.json").symlink_to("b.json")
    (tmp_path / "b.json").symlink_to("a.json")
    (tmp_path / "gone.json").symlink_to("nowhere.json")
    code, out, _ = cardrogue(capsys, "check", tmp_path / "a.json", tmp_path / "gone.json", tmp_path / "none.json")
    assert code == 2
    assert "CR006: a symbolic link that leads to no file (to b.json: missing, or a loop of links)" in out
    assert "CR006: a symbolic link that leads to no file (to nowhere.json: missing, or a loop of links)" in out
    assert "none.json:1:1: CR006: no such file or folder" in out


def test_the_first_run_of_a_clone_says_why_it_waits(tmp_path: Path) -> None:
    """README: the first run of `./scripts/cardrogue` installs the project (20 s to two minutes). pip runs
    quietly, so a newcomer saw nothing at all for that long; now one line on standard error says what
    is happening, and a later run says nothing. A stand-in for Python records the install."""
    clone = tmp_path / "clone"
    (clone / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "bootstrap", clone / "scripts" / "bootstrap")
    (clone / "pyproject.toml").write_text("")
    venv_python = clone / ".venv" / "bin" / "python"
    venv_python.parent.mkdir(parents=True)
    venv_python.write_text(f'#!/bin/sh\necho "$@" >> {tmp_path / "installs"}\n')
    venv_python.chmod(0o755)
    first = subprocess.run([clone / "scripts" / "bootstrap"], capture_output=True, text=True, timeout=60)
    assert first.returncode == 0 and first.stdout == "", first
    assert first.stderr.startswith(f"bootstrap: installing the project into {clone}/.venv"), first.stderr
    assert "pip install" in (tmp_path / "installs").read_text()
    again = subprocess.run([clone / "scripts" / "bootstrap"], capture_output=True, text=True, timeout=60)
    assert again.returncode == 0 and again.stdout == again.stderr == "", again


def test_a_checkout_never_installs_itself_into_another_checkouts_environment(tmp_path: Path) -> None:
    """walk 27: a git worktree whose .venv links to the main clone's (as the helpers' worktrees are made) ran
    `./scripts/cardrogue edit`; its pyproject.toml, newer than the stamp, made bootstrap `pip install -e` the
    worktree into the main clone's environment, whose `cardrogue` (and every other worktree's tests) then ran the
    worktree's code; review 27: asked of pip, the answer depended on the folder it was run from, and once the stamp
    was fresh nothing was asked, the tests running the other checkout's code without a word. The stamp names the
    checkout installed; an environment of another is refused (exit 2) on every run, from any folder, nothing
    installed; the checkout's own (a path with a space) installs as ever. A stand-in for Python records pip."""
    clone = tmp_path / "the clone"
    (clone / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "bootstrap", clone / "scripts" / "bootstrap")
    (clone / "pyproject.toml").write_text("")
    venv_python = clone / ".venv" / "bin" / "python"
    venv_python.parent.mkdir(parents=True)
    venv_python.write_text(f'#!/bin/sh\necho "$@" >> "{tmp_path / "installs"}"\n')
    venv_python.chmod(0o755)
    stamp = clone / ".venv" / ".installed"
    stamp.write_text("/elsewhere/main\n")
    for cwd in (clone, tmp_path):
        done = subprocess.run([clone / "scripts" / "bootstrap"], capture_output=True, text=True, timeout=60, cwd=cwd)
        assert done.returncode == 2 and done.stdout == "", done
        assert done.stderr == (f"bootstrap: {clone}/.venv is the environment of /elsewhere/main: its cardrogue "
                               f"runs that checkout's code, not this one's; give this checkout its own (remove "
                               f"{clone}/.venv, then run this again)\n"), done.stderr
    assert not (tmp_path / "installs").exists(), (tmp_path / "installs").read_text()
    stamp.unlink()  # its own: installed, and named in the stamp; a pyproject.toml changed since installs again
    done = subprocess.run([clone / "scripts" / "bootstrap"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and stamp.read_text() == f"{clone.resolve()}\n", done
    assert (tmp_path / "installs").read_text().count("pip install") == 1
    os.utime(clone / "pyproject.toml", (stamp.stat().st_mtime + 5,) * 2)
    done = subprocess.run([clone / "scripts" / "bootstrap"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and (tmp_path / "installs").read_text().count("pip install") == 2, done


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["--version"], ["--help"], ["check", "--help"], ["solve", "--help"], [],
                                  ["completion", "bash"]], ids=" ".join)
def test_help_and_version_on_a_full_disk_say_so(args):
    """`cardrogue --version > /dev/full` ended in a traceback (the version is printed while the command line
    is parsed, outside the command's guard) and `--help > /dev/full` exited 0 with the help lost: now both
    say the output could not be written and exit 2, as every command does (README)."""
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "cardrogue.cli.main", *args], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=60)
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert done.stderr == "cardrogue: cannot write the output: No space left on device\n", done.stderr


def test_a_replay_whose_campaign_lies_past_the_read_budget_says_the_files_were_not_read(tmp_path: Path, capsys) -> None:
    """Past BESIDE_BYTES the files beside a replay are not looked at: a campaign among them was not found and the
    message said only "no campaign with the id ..." (review). It says how many files were not read, and why."""
    from cardrogue.cli import replays

    source = NEEDLE.read_text(encoding="utf-8")
    other = json.loads(source)
    other["id"] = "someone-else"
    padding = " " * (replays.BESIDE_BYTES // 2)
    for name in ("a.json", "b.json"):  # read first (sorted), and over the budget between them
        (tmp_path / name).write_text(json.dumps(other)[:-1] + padding + "}", encoding="utf-8")
    replay = json.loads(NEEDLE_REPLAY.read_text(encoding="utf-8"))
    replay["campaign"]["id"] = "my-own"
    replay["campaign"].pop("file", None)
    (tmp_path / "run.replay.json").write_text(json.dumps(replay), encoding="utf-8")
    (tmp_path / "z.json").write_text(source.replace('"the-needle-run"', '"my-own"', 1), encoding="utf-8")
    code, out, err = cardrogue(capsys, "verify", tmp_path / "run.replay.json")
    assert code == 2 and "1 file beside it was not read (the files beside a replay are read up to 16 MiB" in err, err


def test_the_files_beside_a_replay_are_read_within_a_budget(tmp_path: Path, monkeypatch) -> None:
    """`verify` of a replay whose version no file holds, in a folder of big campaigns with its id, took 53 s:
    every file beside it (200 at most, each up to 16 MB) was read, and each with the id loaded whole. The
    files beside a replay are read up to BESIDE_BYTES in all now; the bundled campaigns still come after."""
    from cardrogue.cli import replays
    from cardrogue.engine.format.resources import bundled_campaigns

    source = next(p for p in bundled_campaigns() if p.name == "two-knives.json")
    text = source.read_text(encoding="utf-8")
    big = text[:-2] + " " * (6 * 1024 * 1024) + text[-2:]  # 6 MB of the same campaign, padded
    for i in range(10):
        (tmp_path / f"copy-{i}.json").write_text(big, encoding="utf-8")
    replay = json.loads(source.with_name("two-knives.replay.json").read_text(encoding="utf-8"))
    replay["campaign"]["hash"] = "0" * 64  # a version no file holds: every file with the id is looked at
    path = tmp_path / "run.replay.json"
    path.write_text(json.dumps(replay), encoding="utf-8")
    loaded = []
    load_usable = replays.load_usable
    monkeypatch.setattr(replays, "load_usable", lambda p: loaded.append(p) or load_usable(p))
    campaign, found = replays.campaign_for_replay(path.read_text(encoding="utf-8"), None, path)
    assert found.parent == tmp_path and campaign.id == "two-knives"
    beside = [p for p in loaded if p.parent == tmp_path]
    assert 1 <= len(beside) <= replays.BESIDE_BYTES // len(big) + 1, beside
    assert loaded[len(beside):] == [source]  # then the bundled campaign with the id


@pytest.mark.parametrize("option", [["--max-states", "5"], ["--max-seconds", "1"]], ids=["states", "seconds"])
def test_check_refuses_a_solver_budget_without_solve(capsys, option):
    """`check F --max-states 5` checked without the solver and said nothing of the budget (cli18's note): the
    options are the solver's, so without --solve they are a usage error (exit 2) naming the option; with
    --solve the budget holds (a verdict within 5 states is unknown for The Needle Run)."""
    code, out, err = cardrogue(capsys, "check", NEEDLE, *option)
    assert (code, out) == (2, "") and option[0] in err and "--solve" in err, err
    code, out, err = cardrogue(capsys, "check", NEEDLE, "--solve", "--max-states", "5")
    assert code == 0 and "CR402: solvability unknown: par not proven before the state budget (5) ran out" in out, out


@pytest.mark.parametrize("command", [["solve", "{}"], ["play", "{}"], ["run", "{}", "end"]])
def test_a_replay_given_for_a_campaign_is_told_once(command: list[str], tmp_path: Path, capsys) -> None:
    """`cardrogue solve goblin-toll.replay.json` (tutor22) said 'not a usable campaign (1 error); run `cardrogue
    check goblin-toll.replay.json`', then CR101 'this looks like a replay'; check said that line again and no
    more. A file that is no campaign at all is told its errors without sending the author to check."""
    shutil.copy(NEEDLE_REPLAY, tmp_path / "mymap.replay.json")
    replay = str(tmp_path / "mymap.replay.json")
    code, _, err = cardrogue(capsys, *(arg.replace("{}", replay) for arg in command))
    assert code in (1, 2) and "this looks like a replay" in err and "cardrogue check" not in err, err
    assert f"{replay}: not a usable campaign (1 error)\n" in err, err


def test_run_records_the_hub_account_else_the_login_name_or_the_player_given(tmp_path: Path, capsys, monkeypatch):
    """`cardrogue run -o` recorded every replay anonymous, and the player the login name (docs/player.md): the same
    default now everywhere, the hub account registered here, else the login name; --player names another, and a
    name a hub would refuse is refused before the run."""
    import getpass

    from cardrogue.hub.config import ClientConfig, new_token, save_config

    monkeypatch.setattr(getpass, "getuser", lambda: "root")

    def player(*extra: str) -> str:
        replay = record_with(capsys, tmp_path / "r.replay.json", *extra)
        return json.loads(replay.read_text(encoding="utf-8"))["player"]

    assert player() == "root"
    save_config(ClientConfig(hub="https://hub.example", name="carol", token=new_token()))
    assert player() == "carol" and player("--player", "ada") == "ada"
    code, _, err = cardrogue(capsys, "run", NEEDLE, "move E", "--player", "[b]x[/b]", "-o", tmp_path / "no.replay.json")
    assert code == 2 and "--player: a hub refuses" in err and not (tmp_path / "no.replay.json").exists(), err


def record_with(capsys, replay: Path, *extra: str) -> Path:
    actions = json.loads(NEEDLE_REPLAY.read_text(encoding="utf-8"))["actions"]
    code, _, err = cardrogue(capsys, "run", NEEDLE, *actions, "-o", replay, *extra)
    assert code == 0, err
    return replay
