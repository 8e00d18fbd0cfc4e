"""`cardrogue hub serve|register|publish|list|pull|submit|leaderboard` (issue 15, points 1, 2, 4, 6)."""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import pytest
from ports import free_port
from hub_support import FAST, call, map_text, running_hub, serve_in_a_process, slower, solution

from cardrogue.cli.main import main
from cardrogue.hub.config import config_path, load_config


def cardrogue(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def hub(tmp_path: Path):
    with running_hub(str(tmp_path / "hub.sqlite3")) as app:
        yield app


def test_the_config_lives_in_the_test_config_dir_and_is_private(hub, capsys, _private_config_dir: Path) -> None:
    assert config_path() == _private_config_dir / "hub.json" and not config_path().exists()
    code, out, _ = cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)
    assert code == 0 and "registered alice" in out
    config = load_config()
    assert config.hub == hub.base and config.name == "alice" and config.token
    assert stat.S_IMODE(config_path().stat().st_mode) == 0o600
    assert config.token not in out  # the token is never printed
    code, _, err = cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base, "--force")
    assert code == 1 and "taken" in err
    assert load_config() == config  # a refused registration leaves the saved account alone


def test_register_never_drops_a_saved_token_unasked(hub, capsys) -> None:
    """A second `hub register` would replace the saved token, which no one can recover (the first
    publisher of a map id owns it by that token): refused before the hub is asked, unless --force."""
    assert cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)[0] == 0
    alice = load_config()
    code, out, err = cardrogue(capsys, "hub", "register", "bob", "--hub", hub.base)
    assert code == 2 and out == "" and load_config() == alice
    assert f"the account alice on {hub.base} is saved in {config_path()}" in err and "--force" in err, err
    code, _, err = cardrogue(capsys, "hub", "register", "bob", "--hub", hub.base)  # bob was not made on the hub
    assert code == 2
    code, out, _ = cardrogue(capsys, "hub", "register", "bob", "--hub", hub.base, "--force")
    assert code == 0 and "registered bob" in out and "replaces alice" in out
    assert load_config().name == "bob"


def test_register_never_loses_the_token_the_hub_gave(hub, capsys, tmp_path: Path, monkeypatch) -> None:
    """A token is given once, and the name is then taken for good: settings that cannot be saved
    lost the account (`hub register` made it on the hub, then said only "cannot save the hub
    settings"). Now a place that cannot be written is refused before the hub is asked, and should the
    save still fail after the hub answered, the token is shown, with where to keep it."""
    from cardrogue.engine.errors import UnusableInput
    from cardrogue.hub import config as hub_config

    config_path().parent.mkdir(parents=True, exist_ok=True)
    config_path().symlink_to(tmp_path / "missing" / "hub.json")  # the file's folder does not exist
    code, _, err = cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)
    assert code == 2 and str(tmp_path / "missing") in err, err
    config_path().unlink()
    assert cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)[0] == 0  # the name was not taken
    saved = load_config()

    real_save = hub_config.save_config

    def full_disk(config):
        raise UnusableInput(f"{config_path()}: cannot save the hub settings: No space left on device")

    monkeypatch.setattr(hub_config, "save_config", full_disk)  # full before the hub is asked: nothing asked
    code, out, err = cardrogue(capsys, "hub", "register", "bob", "--hub", hub.base, "--force")
    assert code == 2 and "No space left on device" in err and "registered" not in err, err
    assert call(hub.base, "POST", "/api/accounts", {"name": "bob"})[0] == 201  # the name was not taken

    def full_after_asking(config):  # the token waiting for the answer is saved; the answer is not
        if config.pending is None:
            full_disk(config)
        return real_save(config)

    monkeypatch.setattr(hub_config, "save_config", full_after_asking)
    code, out, err = cardrogue(capsys, "hub", "register", "carol", "--hub", hub.base, "--force")
    assert code == 2 and "No space left on device" in err and "registered carol" in err, err
    token = err.split("token: ", 1)[1].split()[0]
    status, me, _ = call(hub.base, "GET", "/api/me", token=token)
    assert status == 200 and me["name"] == "carol"
    assert load_config().token == saved.token and load_config().pending.token == token
    monkeypatch.setattr(hub_config, "save_config", real_save)
    code, out, err = cardrogue(capsys, "hub", "register", "carol", "--hub", hub.base, "--force")  # finished now
    assert code == 0 and "finishing the registration interrupted before" in out, (out, err)
    assert load_config() == replace(saved, name="carol", token=token)


def test_a_right_to_left_players_line_keeps_the_turns_after_the_name(hub, capsys) -> None:
    """A hub name of Hebrew letters (a name is letters of any script) drew the turns after it into its own run on a
    terminal that lays out bidirectional text (UBA N1): `hub leaderboard` read ``1. 11   גבא turns`` (forge25). Its
    line is the local table's, the name's column closed by a LEFT-TO-RIGHT MARK; the time stays escaped."""
    text = map_text()
    token = call(hub.base, "POST", "/api/accounts", {"name": "אבג"})[1]["token"]
    assert call(hub.base, "POST", "/api/maps", {"campaign": text, "window_days": 0}, token=token)[0] == 201
    assert call(hub.base, "POST", "/api/maps/needle/runs", raw=solution(text).encode(), token=token)[0] == 201
    code, out, err = cardrogue(capsys, "hub", "leaderboard", "needle", "--hub", hub.base)
    line = out.splitlines()[-1]
    assert code == 0 and line.startswith(f"    1. {'אבג':<20}\u200e   11 turns   8 health  "), (line, err)


def test_a_whole_round_publish_list_submit_leaderboard_pull_verify(hub, capsys, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    text = map_text()
    Path("needle.src.json").write_text(text)
    Path("best.replay.json").write_text(solution(text))
    Path("slow.replay.json").write_text(slower(text, 1))
    assert cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)[0] == 0
    code, out, _ = cardrogue(capsys, "hub", "publish", "needle.src.json", "--window-days", "0")
    assert code == 0 and "published as needle version 1" in out and "par 11 turns" in out
    code, out, _ = cardrogue(capsys, "hub", "list", "--format", "json")
    (listed,) = json.loads(out)["maps"]
    assert listed["id"] == "needle" and listed["par"]["turns"] == 11
    code, out, _ = cardrogue(capsys, "hub", "list")
    assert code == 0 and ": par 11, 0 runs" in out and "best" not in out and "no runs" not in out, out
    code, out, _ = cardrogue(capsys, "hub", "submit", "slow.replay.json")
    assert code == 0 and "#1" in out and "12 turns" in out and "your new best" in out, out
    code, out, _ = cardrogue(capsys, "hub", "list")
    assert code == 0 and ": par 11, 1 run, best 12 turns" in out, out
    code, out, _ = cardrogue(capsys, "hub", "submit", "best.replay.json", "--map", "needle")
    assert code == 0 and "#1 among the players" in out and "your new best" in out and "11 turns" in out, out
    code, out, _ = cardrogue(capsys, "hub", "leaderboard", "needle")  # alice once, with her best run
    assert code == 0 and "11 turns" in out and "12 turns" not in out and "1 player, 2 runs" in out, out
    code, out, _ = cardrogue(capsys, "hub", "leaderboard", "needle", "--every")
    assert code == 0 and out.index("11 turns") < out.index("12 turns") and "every run" in out, out
    # the leaderboard's line is the local table's (piped), one function writing both, then the time
    board_line = out.splitlines()[-2]
    code, local, err = cardrogue(capsys, "scores", "needle.src.json", "--import", "best.replay.json", "--scores-db", "s.db")
    assert code == 0, err
    code, local, err = cardrogue(capsys, "scores", "needle.src.json", "--scores-db", "s.db")
    local_line = local.splitlines()[1]
    assert board_line.startswith(local_line.replace("anonymous", "alice    ", 1) + "  "), (board_line, local_line)
    code, out, _ = cardrogue(capsys, "hub", "pull", "needle")
    assert code == 0 and Path("needle.json").exists()
    assert cardrogue(capsys, "hub", "pull", "needle")[0] == 2  # no silent overwrite
    Path("maps").mkdir()
    for force in ((), ("--force",)):  # a folder: said so, not "use --force", which could not overwrite it either
        code, _, err = cardrogue(capsys, "hub", "pull", "needle", "-o", "maps", *force)
        assert code == 2 and "maps: is a folder; give -o a file name in it" in err, err
    code, out, _ = cardrogue(capsys, "hub", "pull", "needle", "--rank", "1", "-o", "top.replay.json")
    assert code == 0
    code, out, _ = cardrogue(capsys, "verify", "top.replay.json", "--campaign", "needle.json")
    assert code == 0 and "verified: won in 11 turns" in out
    # The short hash `hub list` shows, in capitals (docs/hub.md: in either case): the same map.
    short = listed["hash"][:12].upper()
    code, out, err = cardrogue(capsys, "hub", "pull", short, "-o", "by-hash.json")
    assert code == 0 and Path("by-hash.json").read_text() == Path("needle.json").read_text(), err
    code, out, err = cardrogue(capsys, "hub", "leaderboard", short, "--every")
    assert code == 0 and out.index("11 turns") < out.index("12 turns"), err
    code, out, err = cardrogue(capsys, "hub", "submit", "best.replay.json", "--map", listed["hash"].upper())
    assert code == 0 and "already on the leaderboard #1" in out, err
    code, out, err = cardrogue(capsys, "hub", "submit", "slow.replay.json")  # her first run: no longer her best
    assert code == 0 and "not your best run: you stay #1 among the players on needle with 11 turns" in out, out


def test_pull_writes_nothing_when_the_map_is_not_the_version_listed(hub, capsys, tmp_path: Path, monkeypatch) -> None:
    from cardrogue.hub.client import HubClient

    monkeypatch.chdir(tmp_path)
    assert cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)[0] == 0
    Path("needle.src.json").write_text(map_text())
    assert cardrogue(capsys, "hub", "publish", "needle.src.json")[0] == 0
    served = HubClient.file
    monkeypatch.setattr(HubClient, "file", lambda self, ref: served(self, ref).replace("The Needle", "The Haystack"))
    code, _, err = cardrogue(capsys, "hub", "pull", "needle")
    assert code == 2 and "sent a map that is not the version" in err and not Path("needle.json").exists()
    monkeypatch.setattr(HubClient, "file", lambda self, ref: "{not json")
    code, _, err = cardrogue(capsys, "hub", "pull", "needle")
    assert code == 2 and "it does not load" in err and not Path("needle.json").exists()


def test_refusals_print_the_reason_and_exit_1(hub, capsys, tmp_path: Path) -> None:
    doc = json.loads(map_text())
    doc["levels"][0]["cells"][0]["card"] = "no-such-card"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(doc, indent=2))
    cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)
    code, _, err = cardrogue(capsys, "hub", "publish", str(broken))
    assert code == 1 and "does not pass the check" in err and f"{broken}:" in err
    code, out, _ = cardrogue(capsys, "hub", "publish", str(broken), "--format", "json")
    assert code == 1 and json.loads(out)["status"] == 422


def test_the_default_hub_unreached_is_named_as_the_default(capsys, monkeypatch) -> None:
    """No --hub and no saved account: the client asks the default address. The walk of the product ran
    `cardrogue hub list` first and was told only `cannot reach the hub at http://127.0.0.1:8765`, an
    address it had named nowhere; now the message says where it came from and how to name another.
    Named (--hub), the address is the user's own and the message stays one line."""
    import cardrogue.hub.config as settings

    monkeypatch.setattr(settings, "DEFAULT_HUB", "http://127.0.0.1:9")
    code, _, err = cardrogue(capsys, "hub", "list")
    lines = err.splitlines()
    assert code == 75 and lines[0] == ("cardrogue: cannot reach the hub at http://127.0.0.1:9: Connection refused; "
                                       "try again later"), err
    assert len(lines) == 2 and "no hub named" in lines[1] and "--hub URL" in lines[1], err
    code, _, err = cardrogue(capsys, "hub", "register", "zed")
    assert code == 75 and "no hub named" in err, err
    code, _, err = cardrogue(capsys, "hub", "list", "--hub", "http://127.0.0.1:9")
    assert code == 75 and "no hub named" not in err, err


def test_no_account_no_hub_and_bad_files_exit_2(hub, capsys, tmp_path: Path) -> None:
    replay = tmp_path / "r.json"
    replay.write_text(solution(map_text()))
    code, _, err = cardrogue(capsys, "hub", "submit", str(replay), "--hub", hub.base)
    assert code == 2 and "register" in err
    code, _, err = cardrogue(capsys, "hub", "list", "--hub", "http://127.0.0.1:9")
    # the system's reason as a person reads it, not Python's "[Errno 111] Connection refused"
    assert code == 75 and err == "cardrogue: cannot reach the hub at http://127.0.0.1:9: Connection refused; try again later\n", err
    cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)
    code, _, err = cardrogue(capsys, "hub", "publish", str(tmp_path / "missing.json"))
    assert code == 2 and "no such file" in err
    # a file that is no campaign at all is refused here, located as `check` locates it, not sent
    for name, raw, said in (("empty.json", b"", "CR001: invalid JSON: the file is empty"),
                            ("binary.json", b"\x8e\x01", "byte 0x8e at offset 0 cannot be decoded")):
        (tmp_path / name).write_bytes(raw)
        code, _, err = cardrogue(capsys, "hub", "publish", str(tmp_path / name))
        assert code == 2 and said in err and "hub refused" not in err, (name, err)


@pytest.mark.parametrize("url, says", [
    ("http://127.0.0.1:abc", "a port is a number from 0 to 65535"),  # urllib: InvalidURL, nonnumeric port
    ("http://[::1", "an IPv6 host is in brackets"),  # urllib: ValueError, Invalid IPv6 URL
    ("http://hub example.org", "no spaces or control characters"),  # urllib: InvalidURL, control characters
    ("http://127.0.0.1:8765/\x1b", "no spaces or control characters"),
    ("http://:8765", "give the whole address"),
    ("http://a..b/", "no empty part between two dots"),  # urlopen: UnicodeError, IDNA label empty
    (f"http://{'a' * 64}.example.org/", "at most 63 characters"),  # urlopen: UnicodeError, label too long
])
def test_an_address_urllib_cannot_read_is_named_not_an_internal_error(url: str, says: str, capsys) -> None:
    for argv in (("hub", "list", "--hub", url), ("hub", "register", "alice", "--hub", url)):
        code, _, err = cardrogue(capsys, *argv)
        assert code == 2 and f"{url!r} is not a hub URL: " in err and says in err, err
        assert "internal error" not in err


def test_submitting_a_run_of_a_map_the_hub_has_not_published_says_to_publish_it(hub, capsys, tmp_path: Path) -> None:
    """The walk of the product played its own map and submitted the run before publishing it: the hub's
    `no map on this hub has the hash '37e5…'` (64 digits) did not say which map nor what to do. The
    refusal now names the replay's map and version and the command that publishes it (exit 1 still)."""
    cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)
    replay = tmp_path / "run.replay.json"
    replay.write_text(solution(map_text()))
    code, _, err = cardrogue(capsys, "hub", "submit", str(replay))
    short = json.loads(replay.read_text())["campaign"]["hash"][:12]
    assert code == 1 and "the hub refused (404)" in err, err
    assert f"this replay is of needle version {short}, which this hub has not published" in err, err
    assert "cardrogue hub publish CAMPAIGN" in err, err
    code, _, err = cardrogue(capsys, "hub", "submit", str(replay), "--map", "needle")  # a map named: its own 404
    assert code == 1 and "which this hub has not published" not in err, err


def test_submit_refuses_a_file_that_is_not_a_replay_as_verify_does(hub, capsys, tmp_path: Path) -> None:
    """docs/hub.md, README: a file that is not JSON is unusable input (exit 2), named with its line and
    column; JSON that is not a replay is a rejected replay (exit 1). Nothing is sent to the hub."""
    cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)
    for name, text, where, said in (("bad.json", "this is not JSON", "1:1", "expected a value"),
                                    ("half.json", solution(map_text())[:40], "2:14", "this string has no closing double quote"),
                                    ("empty.json", "", "1:1", "the file is empty"),
                                    ("map.json", "{'id': 1}", "1:2", 'property name in double quotes, like "actions"')):
        bad = tmp_path / name
        bad.write_text(text)
        for command in (["verify"], ["hub", "submit"], ["hub", "submit", "--map", "needle"]):
            code, out, err = cardrogue(capsys, *command, str(bad))
            assert code == 2 and f"{bad}:{where}" in err and ": not JSON: " in err and said in err, (name, command, err)
    bad = tmp_path / "obj.json"
    bad.write_text("{}")
    code, out, err = cardrogue(capsys, "verify", str(bad))
    assert code == 1 and f"{bad}: rejected:" in out, (out, err)
    code, _, err = cardrogue(capsys, "hub", "submit", str(bad))
    assert code == 1 and f"{bad}: rejected:" in err, err
    code, _, err = cardrogue(capsys, "hub", "submit", str(tmp_path / "missing.json"))
    assert code == 2 and "no such file" in err


def test_a_refused_title_is_printed_once_where_check_places_it(hub, capsys, tmp_path: Path) -> None:
    """docs/hub.md, Using a hub: a refused map's diagnostics and refused texts are printed as `cardrogue
    check` prints them, `file:line:col: CODE: message [$.json.path]` in the file published (they were
    `$.levels[0].title: message`, with no file and no line), each once."""
    doc = json.loads(map_text())
    doc["title"] = "Red \x1b[31mtext"
    doc["levels"][0]["title"] = "[bold]Loud"
    hostile = tmp_path / "hostile.json"
    hostile.write_text(json.dumps(doc, indent=2))
    cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)
    _, checked, _ = cardrogue(capsys, "check", str(hostile))
    places = [line.split(": CR228: ")[0].strip() for line in checked.splitlines() if ": CR228: " in line]
    assert places == [f"{hostile}:5:12", f"{hostile}:22:16"], checked
    code, _, err = cardrogue(capsys, "hub", "publish", str(hostile))
    assert code == 1 and "\x1b" not in err
    assert err.count("$.title") == 1 and err.count("$.levels[0].title") == 1, err
    assert err.splitlines() == [
        "cardrogue: the hub refused (422): the map's text is refused",
        f"  {places[0]}: CR228: the text 'Red \\x1b[31mtext' is refused: it holds the control character U+001B "
        "(a terminal escape) [$.title]",
        f"  {places[1]}: CR228: the text '[bold]Loud' is refused: it looks like Rich markup ('[bold]') [$.levels[0].title]",
    ], err
    code, out, _ = cardrogue(capsys, "hub", "publish", str(hostile), "--format", "json")
    assert code == 1 and [(p["path"], p["line"], p["column"], p["code"]) for p in json.loads(out)["problems"]] == [
        ("$.title", 5, 12, "CR228"), ("$.levels[0].title", 22, 16, "CR228")]


def test_a_refused_draft_is_listed_as_check_lists_it(hub, capsys, tmp_path: Path) -> None:
    """The hub's diagnostics of a map with errors, in the file published, with their path as `check` has it."""
    doc = json.loads(map_text())
    doc["levels"][1]["width"] = 0
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(doc, indent=2))
    cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)
    _, checked, _ = cardrogue(capsys, "check", str(broken))
    [error] = [line.strip() for line in checked.splitlines() if ": CR106: " in line]
    code, _, err = cardrogue(capsys, "hub", "publish", str(broken))
    assert code == 1 and err.splitlines() == ["cardrogue: the hub refused (422): the map does not pass the check (1 error)",
                                              f"  {error}"], (err, checked)


def test_the_token_is_only_sent_to_the_hub_that_issued_it(hub, capsys, tmp_path: Path) -> None:
    with running_hub(str(tmp_path / "other.sqlite3")) as other:
        cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)
        path = tmp_path / "m.json"
        path.write_text(map_text())
        code, _, err = cardrogue(capsys, "hub", "publish", str(path), "--hub", other.base)
        assert code == 2 and "no account" in err


def test_the_competition_window_keeps_replays_hidden_from_pull(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    with running_hub(str(tmp_path / "hub.sqlite3"), replace(FAST)) as hub:
        cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)
        Path("m.json").write_text(map_text())
        Path("r.json").write_text(solution(map_text()))
        assert cardrogue(capsys, "hub", "publish", "m.json")[0] == 0
        assert cardrogue(capsys, "hub", "submit", "r.json")[0] == 0
        code, _, err = cardrogue(capsys, "hub", "pull", "needle", "--rank", "1")
        assert code == 1 and "competition" in err and not list(tmp_path.glob("*.replay.json"))


def test_hub_serve_starts_a_server_on_each_backend(hub_db: str, tmp_path: Path) -> None:
    port = free_port()
    server = serve_in_a_process(hub_db, port)
    try:
        status, body, _ = call(f"http://127.0.0.1:{port}", "GET", "/api/maps")
        assert status == 200 and body == {"maps": []}
    finally:
        server.terminate()
        out = server.communicate(timeout=30)[0].decode()
    assert f"serving http://127.0.0.1:{port}/" in out and "Traceback" not in out
    assert "running on" not in out  # uvicorn says nothing of its own address (its default, port 8000, would mislead)


def _tables(url: str) -> list[str]:
    """The tables a hub database URL holds (a SQLite file, or a PostgreSQL URL's schema)."""
    if not url.startswith("postgresql://"):
        import sqlite3

        with sqlite3.connect(url) as conn:
            return [name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        return [name for (name,) in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")]


def test_hub_serve_on_a_port_in_use_says_so_and_exits_2(hub_db: str, tmp_path: Path, capsys, monkeypatch) -> None:
    """A port another program holds: one line naming the address and why, exit 2 (README: 0, 1 or 2),
    as `cardrogue web` says it; not "serving ..." then uvicorn's own error and its exit status 3. The
    port is refused before the database is opened (docs/hub.md, Running a hub): no new file, no folder
    made for the default one, no tables in an empty PostgreSQL database."""
    monkeypatch.delenv("CARDROGUE_HUB_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "fresh" / "share"))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out, err = cardrogue(capsys, "hub", "serve", "--db", hub_db, "--port", str(port))
        assert code == 2 and "serving" not in out, (out, err)
        assert f"cannot listen on 127.0.0.1 port {port}: " in err and "in use" in err, err
        if hub_db.startswith("postgresql://"):
            assert _tables(hub_db) == []
        else:
            assert not Path(hub_db).exists()
            code, out, err = cardrogue(capsys, "hub", "serve", "--port", str(port))  # the default database
            assert code == 2 and "in use" in err and not (tmp_path / "fresh").exists(), err


@contextmanager
def _never_serving(monkeypatch):
    """A port for `hub serve` to take (an ephemeral one, taken by the test's own socket and handed over)
    and a server that fails the test if it starts: the serve must stop at the database, after the port."""
    import uvicorn

    from cardrogue.cli import hub as hub_cli

    def serve(self, sockets=None):
        raise AssertionError("the hub served on a database it should have refused")

    taken = socket.create_server(("127.0.0.1", 0))
    monkeypatch.setattr(hub_cli, "listen", lambda host, port: taken)
    monkeypatch.setattr(uvicorn.Server, "run", serve)
    try:
        yield str(taken.getsockname()[1])
    finally:
        taken.close()


def test_hub_serve_refuses_a_database_it_cannot_open(tmp_path: Path, capsys, monkeypatch) -> None:
    bad = tmp_path / "not-a-db.sqlite3"
    bad.write_text("this is not SQLite " * 100)
    with _never_serving(monkeypatch) as port:
        code, _, err = cardrogue(capsys, "hub", "serve", "--db", str(bad), "--port", port)
        assert code == 2 and str(bad) in err
        code, _, err = cardrogue(capsys, "hub", "serve", "--db", "postgresql://nobody@127.0.0.1:9/none", "--port", port)
        assert code == 2 and "cannot connect" in err


def test_hub_serve_refuses_a_database_in_a_folder_that_does_not_exist(tmp_path: Path, capsys, monkeypatch) -> None:
    """A mistyped folder in `--db` (or $CARDROGUE_HUB_DB) is said, exit 2 as for any unusable input (README),
    and no folder is made: the hub does not start on a database nobody meant (docs/hub.md, Running a hub)."""
    where = tmp_path / "new" / "dir" / "hub.sqlite3"
    with _never_serving(monkeypatch) as port:
        code, out, err = cardrogue(capsys, "hub", "serve", "--db", str(where), "--port", port)
        assert code == 2 and "serving" not in out and f"the folder {where.parent} does not exist" in err, err
        assert not (tmp_path / "new").exists()
        (tmp_path / "file").write_text("")
        code, _, err = cardrogue(capsys, "hub", "serve", "--db", str(tmp_path / "file" / "hub.sqlite3"), "--port", port)
        assert code == 2 and f"{tmp_path / 'file'} is not a folder" in err, err
        monkeypatch.setenv("CARDROGUE_HUB_DB", str(where))
        code, _, err = cardrogue(capsys, "hub", "serve", "--port", port)
        assert code == 2 and f"the folder {where.parent} does not exist" in err and not (tmp_path / "new").exists()


def test_the_default_hub_database_makes_its_folder_on_a_fresh_machine(tmp_path: Path, monkeypatch) -> None:
    """No --db and no $CARDROGUE_HUB_DB: hub.sqlite3 in the user data folder, made when missing."""
    from cardrogue.hub.db import Database

    monkeypatch.delenv("CARDROGUE_HUB_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "fresh" / "share"))
    db = Database()
    try:
        assert Path(db.url) == tmp_path / "fresh" / "share" / "cardrogue-studio" / "hub.sqlite3" and Path(db.url).is_file()
    finally:
        db.close()


@pytest.mark.parametrize("template, says", [
    ("http://play.example.org/{nope}", "names the map by {hash} or {id}"),  # was taken: every map page a 500
    ("http://play.example.org/{hash}{", "names the map by {hash} or {id}"),
    ("http://play.example.org/play", "names the map by {hash} or {id}"),
    ("play.example.org/{hash}", "give the whole address"),
])
def test_hub_serve_refuses_a_play_url_it_cannot_fill(template: str, says: str, tmp_path: Path, capsys) -> None:
    with socket.socket() as taken:  # were the template taken, the serve would stop at the port, not serve on
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        code, out, err = cardrogue(capsys, "hub", "serve", "--db", str(tmp_path / "hub.sqlite3"),
                                   "--port", str(taken.getsockname()[1]), "--play-url", template)
    assert code == 2 and "serving" not in out and f"--play-url {template!r}: " in err and says in err, err


def test_hub_serve_refuses_a_database_url_of_another_kind(capsys, monkeypatch) -> None:
    """A URL of a database the hub does not speak is said as such, exit 2: `mysql://hub:pw@db/hub` was taken
    for a SQLite path and refused as 'the folder mysql:/hub:pw@db does not exist', its password printed."""
    with _never_serving(monkeypatch) as port:
        code, out, err = cardrogue(capsys, "hub", "serve", "--db", "mysql://hub:pw@db.example/hub", "--port", port)
    assert code == 2 and "serving" not in out, (out, err)
    assert err.strip() == ("cardrogue: mysql://hub:***@db.example/hub: the hub cannot use a mysql:// database: give a "
                           "SQLite file path or postgresql://user:password@host[:port]/database"), err


def test_hub_serve_says_a_postgresql_refusal_on_one_line(capsys, monkeypatch) -> None:
    """libpq's message runs over two lines (its hint tab-indented): it was printed with its '\\n\\t' escaped."""
    with _never_serving(monkeypatch) as port:
        code, _, err = cardrogue(capsys, "hub", "serve", "--db", "postgresql://nobody@127.0.0.1:9/none", "--port", port)
    assert code == 2 and "cannot connect" in err and "Connection refused Is the server running" in err, err
    assert "\\n" not in err and "\\t" not in err and err.count("\n") == 1, err


def test_hub_serve_refuses_a_postgresql_database_its_role_cannot_make_tables_in(postgres, capsys, monkeypatch) -> None:
    """`createdb hub` without `-O hub` (docs/hub.md: 'a role that owns it'): PostgreSQL 15 gives the role no
    CREATE on schema public. That was 'internal error: InsufficientPrivilege: ...'; now the reason and the fix."""
    import psycopg

    with psycopg.connect(postgres.url(), autocommit=True) as conn:
        conn.execute("CREATE ROLE walk15_guest LOGIN")
        conn.execute("CREATE DATABASE walk15_notmine")  # owned by postgres, not by the role
    url = postgres.url().replace("postgres@", "walk15_guest@").removesuffix("/postgres") + "/walk15_notmine"
    with _never_serving(monkeypatch) as port:
        code, out, err = cardrogue(capsys, "hub", "serve", "--db", url, "--port", port)
    assert code == 2 and "internal error" not in err and err.count("\n") == 1, err
    assert "the hub cannot make its tables: permission denied for schema public; make the URL's role own the database" \
        in err and "createdb -O ROLE DATABASE" in err, err


def test_hub_serve_refuses_a_sqlite_database_it_cannot_write() -> None:
    """A read-only hub.sqlite3 was served: listings answered, and every registration, publish and submission a
    500 ('attempt to write a readonly database' in the log). Now `serve` stops at the start, exit 2, saying so.
    (Run as a user the file's mode binds: root writes whatever the mode.)"""
    import tempfile

    from cardrogue.hub.db import Database

    folder = Path(tempfile.mkdtemp(prefix="cardrogue-readonly-"))
    try:
        os.chmod(folder, 0o777)
        path = folder / "hub.sqlite3"
        Database(str(path)).close()
        os.chmod(path, 0o444)
        argv = [sys.executable, "-m", "cardrogue.cli.main", "hub", "serve", "--db", str(path), "--port", str(free_port())]
        if os.geteuid() == 0:  # as nobody (setpriv: subprocess's user= could not run the venv's python here)
            import pwd

            nobody = pwd.getpwnam("nobody")
            argv = ["setpriv", f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}", "--clear-groups", *argv]
            # nobody must reach the interpreter and the checkout (a clone under /root is closed to him); where he
            # cannot, the hub's own process opens the file read-only instead, which SQLite refuses writes to alike
            probe = subprocess.run([*argv[:4], sys.executable, "-c", "import cardrogue.cli.main"], cwd=folder,
                                   capture_output=True, timeout=60)
            if probe.returncode != 0:
                argv = [sys.executable, "-c", "import sqlite3, sys, runpy; connect = sqlite3.connect; "
                        "sqlite3.connect = lambda p, *a, **k: connect(f'file:{p}?mode=ro', *a, uri=True, **k); "
                        "sys.argv = ['cardrogue', *sys.argv[1:]]; runpy.run_module('cardrogue.cli.main', run_name='__main__')",
                        *argv[argv.index("hub"):]]
        try:
            done = subprocess.run(argv, cwd=folder, capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            pytest.fail("the hub served a database it cannot write")
        assert done.returncode == 2 and "serving" not in done.stdout, (done.stdout, done.stderr)
        assert done.stderr.strip() == (f"cardrogue: {path}: the hub database cannot be written (attempt to write a "
                                       "readonly database): give the user running the hub write access to the file "
                                       "and its folder"), done.stderr
    finally:
        import shutil

        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("host, says", [
    ("0.0.0.0", "serving http://127.0.0.1:{port}/ and every other address of this machine (database"),
    ("::", "serving http://[::1]:{port}/ and every other address of this machine (database"),
    ("::1", "serving http://[::1]:{port}/ (database"),
    ("127.0.0.1", "serving http://127.0.0.1:{port}/ (database"),
])
def test_hub_serve_names_an_address_a_client_can_use(host: str, says: str, tmp_path: Path, capsys, monkeypatch) -> None:
    """`--host 0.0.0.0` said 'serving http://0.0.0.0:8765/', an address no client reaches, and nothing of what
    listening on every address means; `--host ::` said 'http://:::8765/'. A hub on an address other machines
    reach is told it serves plain HTTP (docs/hub.md: a TLS-terminating proxy in front for anything public)."""
    import uvicorn

    from cardrogue.cli import hub as hub_cli

    taken = socket.create_server(("127.0.0.1", 0))
    monkeypatch.setattr(hub_cli, "listen", lambda host, port: taken)
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    code, out, err = cardrogue(capsys, "hub", "serve", "--db", str(tmp_path / "hub.sqlite3"), "--host", host,
                               "--port", "8765")
    assert code == 0 and says.format(port=8765) in out, (out, err)
    public = "other machines can reach it, in plain HTTP: put a TLS-terminating proxy in front for anything public"
    assert (public in out) == (host in ("0.0.0.0", "::")), out


def test_an_address_hub_serve_cannot_listen_on_is_said_with_the_fix(capsys) -> None:
    """'Address already in use (while attempting to bind on address ('127.0.0.1', 8765))' repeated the
    address in Python's words and said nothing of what to do; likewise an address of another machine."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out, err = cardrogue(capsys, "hub", "serve", "--port", str(port))
    assert code == 2 and err == (f"cardrogue: cannot listen on 127.0.0.1 port {port}: the address is in use (another "
                                 "program listens there): stop it, or give another --port\n"), err
    code, out, err = cardrogue(capsys, "hub", "serve", "--host", "192.0.2.1", "--port", str(port))
    assert code == 2 and err == (f"cardrogue: cannot listen on 192.0.2.1 port {port}: not an address of this machine: "
                                 "give one of its addresses as --host, or 0.0.0.0 for all of them\n"), err
    code, out, err = cardrogue(capsys, "hub", "serve", "--host", "no-such-host.invalid", "--port", str(port))
    assert code == 2 and err.startswith(f"cardrogue: cannot listen on no-such-host.invalid port {port}: ") \
        and "while attempting" not in err and "give an address of this machine as --host" in err, err


def test_hub_serve_refuses_an_empty_db(tmp_path: Path, capsys, monkeypatch) -> None:
    """`--db ""` (a variable left unset in a service file: `--db "$HUB_DB"`) served the default database in the
    user data folder without a word; it is refused, exit 2, before anything is made."""
    monkeypatch.delenv("CARDROGUE_HUB_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "fresh" / "share"))
    with _never_serving(monkeypatch) as port:
        code, out, err = cardrogue(capsys, "hub", "serve", "--db", "", "--port", port)
    assert code == 2 and "serving" not in out and not (tmp_path / "fresh").exists(), (out, err)
    assert err == ("cardrogue: --db is empty: name a SQLite file or postgresql://user:password@host[:port]/database, "
                   "or leave --db out for the default\n"), err


def test_ctrl_c_while_the_hub_works_says_whether_to_send_again(hub, capsys, tmp_path: Path, monkeypatch) -> None:
    """Ctrl+C during `hub publish` (the clear check takes seconds) said 'cardrogue: interrupted' alone, though
    the hub goes on and publishes the map: the author did not know whether it was. Sending again is harmless
    (the same map answers 'already published', the same run its rank), and the message says so."""
    from cardrogue.hub.client import HubClient

    assert cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)[0] == 0
    campaign = tmp_path / "map.json"
    campaign.write_text(map_text())
    replay = tmp_path / "run.json"
    replay.write_text(solution(map_text()))

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(HubClient, "publish", interrupted)
    monkeypatch.setattr(HubClient, "submit", interrupted)
    code, out, err = cardrogue(capsys, "hub", "publish", str(campaign))
    assert code == 130 and err == ("cardrogue: interrupted while the hub checked the map: it may have published it; "
                                   "publishing it again is harmless (the same map answers 'already published')\n"), err
    code, out, err = cardrogue(capsys, "hub", "submit", str(replay))
    assert code == 130 and err == ("cardrogue: interrupted while the hub verified the run: it may have ranked it; "
                                   "submitting it again is harmless (the same run answers with its rank)\n"), err


def test_hub_serve_help_gives_the_default_database_in_its_order(capsys) -> None:
    """docs/hub.md: `$CARDROGUE_HUB_DB`, else hub.sqlite3 in the user data folder; the help said the file
    first ('hub.sqlite3 in the user data dir, or $CARDROGUE_HUB_DB'), as if the variable were the fallback."""
    with pytest.raises(SystemExit):
        main(["hub", "serve", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "(default: $CARDROGUE_HUB_DB, else hub.sqlite3 in the user data folder)" in out, out


def test_hub_serve_refuses_a_database_that_holds_another_programs_tables(hub_db: str, capsys, monkeypatch) -> None:
    """`--db ~/.local/share/cardrogue-studio/scores.sqlite3` (the player's scores, beside hub.sqlite3), or a
    PostgreSQL database in use by something else: the hub added its tables among the others without a word.
    docs/hub.md asks for an empty database; one with tables but no hub schema is refused, exit 2, untouched."""
    if hub_db.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(hub_db, autocommit=True) as conn:
            conn.execute("CREATE TABLE scores (id INTEGER)")
    else:
        import sqlite3

        with sqlite3.connect(hub_db) as conn:
            conn.execute("CREATE TABLE scores (id INTEGER)")
    with _never_serving(monkeypatch) as port:
        code, out, err = cardrogue(capsys, "hub", "serve", "--db", hub_db, "--port", port)
    assert code == 2 and "serving" not in out, (out, err)
    assert err.endswith(": it holds tables of another program (scores) and no hub schema: name the hub's database, "
                        "or an empty or new one\n") and err.count("\n") == 1, err
    assert _tables(hub_db) == ["scores"]


def test_hub_serve_says_a_file_that_is_not_sqlite_is_not_one(tmp_path: Path, capsys, monkeypatch) -> None:
    """'cannot open the hub database: file is not a database' named no fix (a mistyped --db, e.g. the README)."""
    bad = tmp_path / "README.md"
    bad.write_text("# not a database\n" * 100)
    with _never_serving(monkeypatch) as port:
        code, _, err = cardrogue(capsys, "hub", "serve", "--db", str(bad), "--port", port)
    assert code == 2 and err == (f"cardrogue: {bad}: not a SQLite database (file is not a database): name the hub's "
                                 "database file, or a new one\n"), err
    assert bad.read_text() == "# not a database\n" * 100


def test_hub_list_says_who_published_a_map_whose_author_is_another_name(hub, capsys) -> None:
    """A stranger's copy of alice's map, with the author 'alice', was listed as 'The Needle Run by alice', as
    alice's own (hub18): the publisher is said beside an author that is not the publisher's name."""
    tokens = {name: call(hub.base, "POST", "/api/accounts", {"name": name})[1]["token"] for name in ("alice", "mallory")}
    for name, campaign_id in (("alice", "needle"), ("mallory", "needle-copy")):
        doc = json.loads(map_text(campaign_id, "The Needle Run"))
        doc["author"] = "alice"
        assert call(hub.base, "POST", "/api/maps", {"campaign": json.dumps(doc)}, token=tokens[name])[0] == 201
    code, out, _ = cardrogue(capsys, "hub", "list", "--hub", hub.base)
    assert code == 0
    lines = sorted(line.split(": par")[0] for line in out.splitlines())
    assert lines == ["needle v1  The Needle Run by alice",
                     "needle-copy v1  The Needle Run by alice (published by mallory)"], lines


@pytest.mark.parametrize("ref", ["needle/file", "needle/leaderboard", "", "..", "ABC", "needle\x1b[31m", "é" * 5000],
                         ids=["file", "leaderboard", "empty", "dots", "capitals", "escape", "long"])
def test_a_map_named_in_no_form_a_hub_reads_is_refused_before_asking(hub, capsys, tmp_path: Path, ref: str) -> None:
    """A MAP is a campaign id or a content hash (or its first 12 digits or more). Sent as it was, the '/' of
    `needle/file` (quoted, and unquoted by the server) reached the map's file, and '' the list of maps: answers of
    another form, which the client took for a server that is perhaps no hub (exit 2, 'is it a Card Rogue hub?')."""
    cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)
    assert cardrogue(capsys, "hub", "publish", str(_written(tmp_path, map_text())))[0] == 0
    replay = tmp_path / "run.json"
    replay.write_text(solution(map_text()))
    for argv in (("pull", ref, "-o", str(tmp_path / "pulled.json")), ("leaderboard", ref), ("submit", str(replay), "--map", ref)):
        code, out, err = cardrogue(capsys, "hub", *argv)
        assert code == 2 and "names no map: give a campaign id" in err and "Card Rogue hub" not in err, (argv, err)
        assert "\x1b" not in err and len(err) < 300, err
    assert not (tmp_path / "pulled.json").exists()
    assert call(hub.base, "GET", "/api/maps/needle/leaderboard")[1]["runs"] == []


def _written(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "map.json"
    path.write_text(text)
    return path
