"""Hostile records: one run is one row, a damaged or read-only score store is reported, saves keep files whole.

Commands run in this process through ``cardrogue.cli.main.main``, which is what the
``cardrogue`` command calls.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from helpers import detour_copies, ledger_run, twin_copy
from test_player_campaigns import WIN, duel_dict, load, recorded, write

from cardrogue.engine.records.replay import verify_replay
from cardrogue.engine.records.scores import ScoreStore
from cardrogue.engine.rules.actions import Action, ActionError


def cli(capsys, *args) -> tuple[int, str, str]:
    from cardrogue.cli.main import main

    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "internal error" not in out + err, out + err
    return status, out, err


@pytest.fixture
def duel(tmp_path: Path) -> Path:
    return write(duel_dict(), tmp_path / "duel.json")


def rows(db: Path) -> list[tuple[str, int, int]]:
    with ScoreStore(db) as store:
        return [(s.player, s.turns, s.health) for s in store.table(load(duel_dict()), limit=1000)]


# --------------------------------------------------------------------------- one run, one row


@pytest.mark.parametrize("spelling", ["move e", "MOVE E", "move  E", "move\tE", " move E", "move E ", "move\u00a0E"])
def test_an_action_has_one_text_form(spelling):
    with pytest.raises(ActionError, match="write 'move E'|not a direction|unknown action"):
        Action.parse(spelling)
    assert Action.parse("move E") == Action("move", "E")


@pytest.mark.parametrize("place", ["03,0", "3,00", "٣,٠", "３,０", "²,0", "3, 0", "3,0,1", "-1,0", "256,0", "9" * 5000 + ",0"],
                         ids=lambda place: place[:8])
def test_a_teleport_place_is_ascii_digits_without_leading_zeros(place):
    with pytest.raises(ActionError):
        Action.parse(f"teleport {place}")
    assert str(Action.parse("teleport 255,0")) == "teleport 255,0"


def test_other_spellings_of_a_run_are_refused_with_their_place_and_make_no_row(tmp_path, duel, capsys):
    db = tmp_path / "scores.db"
    campaign = load(duel_dict())
    text = recorded(campaign, WIN, player="ada").text()
    paths = []
    for i, (old, new) in enumerate([('"move E"', '"move e"'), ('"move E"', '"move  E"'), ('"move E"', '"move\\tE"'),
                                    ('"flip E"', '"Flip E"'), ('"end"', '"end "')]):
        doc = json.loads(text)
        k = doc["actions"].index(json.loads(old))
        doc["actions"][k] = json.loads(new)
        paths.append(tmp_path / f"spelling-{i}.replay.json")
        paths[-1].write_text(json.dumps(doc))
        verdict = verify_replay(paths[-1].read_text(), campaign)
        assert not verdict.ok and verdict.action_index == k and f"action {k + 1}" in verdict.message
        assert "one text form" in verdict.message
    genuine = tmp_path / "genuine.replay.json"
    genuine.write_text(text)
    status, out, _ = cli(capsys, "scores", duel, "--scores-db", db, "--import", *paths, genuine)
    assert status == 1 and out.count(": rejected: action") == len(paths) and "genuine.replay.json: verified" in out
    assert rows(db) == [("ada", 2, 12)]


def test_the_one_enemy_adjacent_named_by_its_direction_is_another_spelling_and_refused(tmp_path, duel, capsys):
    """Beside one enemy the player is offered ``attack``; ``attack E`` (the goblin is east) was taken too, and ran the
    same fight: the same run with another run id, so a copy of ada's run entered the table as a second run."""
    db = tmp_path / "scores.db"
    campaign = load(duel_dict())
    genuine = tmp_path / "ada.replay.json"
    genuine.write_text(recorded(campaign, WIN, player="ada").text())
    doc = json.loads(genuine.read_text())
    doc.update(player="mallory", actions=["attack E" if a == "attack" else a for a in doc["actions"]])
    copy = tmp_path / "mallory.replay.json"
    copy.write_text(json.dumps(doc))
    verdict = verify_replay(copy.read_text(), campaign)
    assert not verdict.ok and verdict.action_index == 1, verdict.message
    assert "action 2 ('attack E') is not legal" in verdict.message and "write 'attack'" in verdict.message
    status, out, _ = cli(capsys, "scores", duel, "--scores-db", db, "--import", genuine, copy)
    assert status == 1 and f"{copy}: rejected: action 2" in out, out
    assert rows(db) == [("ada", 2, 12)]


def test_the_run_id_is_the_parsed_actions_not_the_raw_document(tmp_path):
    campaign = load(duel_dict())
    first = verify_replay(recorded(campaign, WIN, player="ada").text(), campaign).run
    doc = json.loads(first.replay_text)
    doc["campaign"] = {"level": 0, **doc["campaign"]}  # the default level written out
    doc["player"] = "bob"
    second = verify_replay(json.dumps(doc, indent=1), campaign).run
    assert first.run_id == second.run_id


@pytest.mark.parametrize("place", ["²,0", "9" * 5000 + ",0", "٣,٠"], ids=["superscript", "5000-digits", "arabic"])
def test_a_hostile_teleport_is_refused_with_its_place_in_every_command(tmp_path, duel, capsys, place):
    status, out, _ = cli(capsys, "run", duel, "flip E", f"teleport {place}")
    assert status == 1 and "action 2" in out
    campaign = load(duel_dict())
    doc = json.loads(recorded(campaign, WIN).text())
    doc["actions"][2] = f"teleport {place}"
    bad = tmp_path / "bad.replay.json"
    bad.write_text(json.dumps(doc))
    status, out, _ = cli(capsys, "verify", bad, "--campaign", duel)
    assert status == 1 and ("action 3" in out or "$.actions[2]" in out)  # the schema bounds an action's length
    good = tmp_path / "good.replay.json"
    good.write_text(recorded(campaign, WIN).text())
    db = tmp_path / "scores.db"
    status, out, _ = cli(capsys, "scores", duel, "--scores-db", db, "--import", bad, good)
    assert status == 1 and "bad.replay.json: rejected: " in out and "good.replay.json: verified" in out
    assert len(rows(db)) == 1


def _two_faced(text: str) -> dict[str, tuple[str, str]]:
    """Replays one parser reads as a better run than another, or holding text no file can; (text, what
    the refusal names)."""
    body = text.strip()[1:]
    doc = json.loads(text)
    doc["player"] = "ada\ud800"
    return {"dup-result": ('{"result": {"outcome": "won", "turns": 1, "health": 99},\n' + body,
                           "$.result: duplicate key 'result'"),
            "dup-player": ('{"player": "\\u001b]0;owned\\u0007",\n' + body, "$.player: duplicate key 'player'"),
            "surrogate": (json.dumps(doc), "$.player: the text holds a lone UTF-16 surrogate")}


@pytest.mark.parametrize("name", ["dup-result", "dup-player", "surrogate"])
def test_a_two_faced_replay_is_rejected_naming_its_field_and_makes_no_row(tmp_path, duel, capsys, name):
    text, says = _two_faced(recorded(load(duel_dict()), WIN, player="ada").text())[name]
    bad = tmp_path / f"{name}.replay.json"
    bad.write_text(text, encoding="utf-8", errors="surrogatepass")
    status, out, _ = cli(capsys, "verify", bad, "--campaign", duel)
    assert status == 1 and f"{bad}: rejected: " in out and says in out, out
    db = tmp_path / "scores.db"
    status, out, err = cli(capsys, "scores", duel, "--scores-db", db, "--import", bad)
    assert status == 1 and f"{bad}: rejected: " in out and says in out and "damaged" not in err, out + err
    assert rows(db) == []


@pytest.mark.parametrize("field, number", [("$.every", '"every": 16'), ("$.result.turns", '"turns": 2'),
                                           ("$.dice.seed", '"seed": 11'), ("$.campaign.level", '"level": 0')])
@pytest.mark.parametrize("fraction", [".0", "e0", ".5"])
def test_a_fraction_for_a_whole_number_is_rejected_naming_its_field(tmp_path, duel, capsys, field, number, fraction):
    text = recorded(load(duel_dict()), WIN).text()
    assert number in text
    bad = tmp_path / "bad.replay.json"
    bad.write_text(text.replace(number, number + fraction, 1))
    status, out, _ = cli(capsys, "verify", bad, "--campaign", duel)
    assert status == 1 and f"rejected: not a valid replay: {field}: {number.split()[1]}{fraction} is not a whole number" in out, out


def test_a_verdict_names_the_campaign_file_and_version_it_was_verified_on(tmp_path, duel, capsys):
    """A replay shared with a campaign file of the same id and title beside it (a weaker goblin) verifies on that
    file, not the map the reader knows: the verdict says which file and which version, so a score on a look-alike
    map cannot pass for a score on the real one."""
    shared = tmp_path / "shared"
    shared.mkdir()
    look_alike = write(duel_dict(goblin_attack=0), shared / "duel.json")
    campaign = load(duel_dict(goblin_attack=0))
    replay = shared / "mallory.replay.json"
    replay.write_text(recorded(campaign, WIN, player="mallory").text())
    status, out, _ = cli(capsys, "verify", replay)
    assert status == 0 and "verified: won in 2 turns" in out
    assert f"on {look_alike} (The Duel, version {campaign.content_hash[:12]})" in out, out
    assert load(duel_dict()).content_hash[:12] not in out
    status, out, _ = cli(capsys, "verify", replay, "--campaign", duel)  # the real map: another version
    assert status == 1 and "another version" in out
    db = tmp_path / "scores.db"
    status, out, _ = cli(capsys, "scores", "--import", replay, "--scores-db", db)
    assert status == 0 and f"added to the table of {look_alike} (The Duel, version {campaign.content_hash[:12]})" in out, out


# --------------------------------------------------------------------------- the score store


def _damage(db: Path) -> None:
    """Overwrite the pages after the first (the schema) with noise: a damaged score table."""
    data = bytearray(db.read_bytes())
    page = int.from_bytes(data[16:18], "big") or 65536
    for i in range(page, len(data)):
        data[i] = (i * 7919) % 251
    db.write_bytes(bytes(data))


def _filled(tmp_path: Path, duel: Path, capsys) -> Path:
    db = tmp_path / "scores.db"
    replay = tmp_path / "win.replay.json"
    replay.write_text(recorded(load(duel_dict()), WIN, player="ada").text())
    assert cli(capsys, "scores", duel, "--scores-db", db, "--import", replay)[0] == 0
    with ScoreStore(db):  # a clean close checkpoints the WAL into the file
        pass
    return db


def test_a_damaged_score_table_is_reported_with_the_file_and_never_overwritten(tmp_path, duel, capsys):
    db = _filled(tmp_path, duel, capsys)
    _damage(db)
    before = db.read_bytes()
    status, out, err = cli(capsys, "scores", duel, "--scores-db", db)
    assert status == 2 and str(db) in err and "damaged" in err and "move it away" in err
    replay = tmp_path / "again.replay.json"
    replay.write_text(recorded(load(duel_dict()), WIN, player="bob").text())
    status, out, err = cli(capsys, "scores", duel, "--scores-db", db, "--import", replay)
    assert status == 2 and str(db) in err
    assert db.read_bytes() == before


def test_a_score_database_that_is_a_loop_of_symbolic_links_is_refused_by_name(tmp_path, duel, capsys):
    """`scores --scores-db LOOP` (a link to itself) said "no verified scores yet": the path does not exist, so
    the listing took it for an empty table (cli18). Listing and importing refuse it by name, exit 2."""
    loop = tmp_path / "scores.sqlite3"
    loop.symlink_to(loop.name)
    status, out, err = cli(capsys, "scores", duel, "--scores-db", loop)
    assert (status, out) == (2, "") and f"{loop}: is a loop of symbolic links" in err, err
    replay = tmp_path / "won.replay.json"
    replay.write_text(recorded(load(duel_dict()), WIN, player="bob").text())
    status, out, err = cli(capsys, "scores", duel, "--scores-db", loop, "--import", replay)
    assert status == 2 and "loop of symbolic links" in err and loop.is_symlink()


def test_a_read_only_score_database_is_listed_and_refused_for_an_import(tmp_path, duel, capsys, request):
    """A score file its user may not write: listed, and an import refused without touching it. Root
    writes a read-only file anyway, so as root (CI) the commands run as the unprivileged user
    ``nobody`` in a child process, on files it owns with the write bit off."""
    db = _filled(tmp_path, duel, capsys)
    replay = tmp_path / "win.replay.json"
    run = lambda *args: cli(capsys, *args)  # noqa: E731
    if os.geteuid() == 0:
        db, duel, replay, run = _as_nobody(request, db, duel, replay)
    db.chmod(0o444)
    before = db.read_bytes()
    status, out, _ = run("scores", duel, "--scores-db", db)
    assert status == 0 and "ada" in out
    status, out, err = run("scores", duel, "--scores-db", db, "--import", replay)
    assert status == 2 and "read-only" in err and str(db) in err and out == ""
    assert db.read_bytes() == before


def _as_nobody(request, *files: Path):
    """Copies of ``files`` in a folder the user ``nobody`` owns, and a runner of the ``cardrogue`` command
    in a forked child that has become nobody (the interpreter's own files may be closed to nobody, so the
    child runs the command already imported here; its exit status and output come back through a pipe)."""
    import io
    import pwd
    import shutil
    import tempfile

    from cardrogue.cli.main import main

    user = pwd.getpwnam("nobody")
    home = Path(tempfile.mkdtemp(prefix="cardrogue-nobody-"))  # pytest's own folders are closed to nobody
    request.addfinalizer(lambda: shutil.rmtree(home, ignore_errors=True))
    home.chmod(0o755)
    copies = [Path(shutil.copy(f, home / f.name)) for f in files]
    for path in (home, *copies):
        os.chown(path, user.pw_uid, user.pw_gid)

    def run(*args) -> tuple[int, str, str]:
        reader, writer = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: never returns into pytest
            code = 70
            try:
                os.close(reader)
                os.setgroups([])
                os.setgid(user.pw_gid)
                os.setuid(user.pw_uid)
                out, err = io.StringIO(), io.StringIO()
                sys.stdout, sys.stderr = out, err
                try:
                    status = main([str(a) for a in args])
                except SystemExit as exit:
                    status = exit.code
                os.write(writer, json.dumps([status or 0, out.getvalue(), err.getvalue()]).encode())
                code = 0
            finally:
                os._exit(code)
        os.close(writer)
        with os.fdopen(reader, "rb") as pipe:
            answer = pipe.read()
        _, wait = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(wait) == 0 and answer, "the unprivileged child failed"
        status, out, err = json.loads(answer)
        return status, out, err

    return (*copies, run)


def test_a_read_only_score_database_is_refused_before_any_verdict(tmp_path, duel, capsys, monkeypatch):
    """As above, for any user: the store asks the system whether the file is writable."""
    db = _filled(tmp_path, duel, capsys)
    import cardrogue.engine.records.scores as scores

    monkeypatch.setattr(scores.os, "access", lambda path, mode: False)
    status, out, err = cli(capsys, "scores", duel, "--scores-db", db, "--import", tmp_path / "win.replay.json")
    assert status == 2 and "read-only" in err and str(db) in err and out == ""


def test_a_listing_creates_no_folder_and_no_file(tmp_path, duel, capsys):
    db = tmp_path / "not" / "yet" / "scores.db"
    status, out, _ = cli(capsys, "scores", duel, "--scores-db", db)
    assert status == 0 and "no verified scores yet" in out
    assert not (tmp_path / "not").exists()


def test_a_truncated_replay_is_unusable_input_with_one_exit_code(tmp_path, duel, capsys):
    """Exit 2 (unusable input: not JSON), named with its line and column as `check` names a
    campaign's, whether the campaign is named or found by the replay's id."""
    db = tmp_path / "scores.db"
    text = recorded(load(duel_dict()), WIN).text()
    cut = tmp_path / "cut.replay.json"
    cut.write_text(text[: len(text) // 2])
    line = text[: len(text) // 2].count("\n") + 1
    for extra in ([], ["--campaign", duel]):
        status, out, err = cli(capsys, "scores", "--scores-db", db, "--import", cut, *extra)
        assert status == 2 and f"cut.replay.json:{line}:" in out and ": rejected: not JSON: " in out, (extra, out, err)
        status, out, err = cli(capsys, "verify", cut, *extra)
        assert status == 2 and f"cut.replay.json:{line}:" in err and ": not JSON: " in err, (extra, out, err)
        assert "Expecting" not in out + err  # Python's own words are never shown


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="no FIFOs here")
def test_a_fifo_as_the_score_database_is_refused_not_waited_on(tmp_path, duel, capsys):
    import os

    fifo = tmp_path / "scores.db"
    os.mkfifo(fifo)
    for extra in ([], ["--import", tmp_path / "missing.replay.json"]):
        status, out, err = cli(capsys, "scores", duel, "--scores-db", fifo, *extra)
        assert status == 2 and f"{fifo}: is not a regular file" in err and out == ""


def test_a_campaign_given_where_its_replay_belongs_is_named_so(tmp_path, duel, capsys):
    """A newcomer's slip, `cardrogue verify my-map.json`: the answer says the file is a campaign and
    what is wanted instead, not which keys a replay does not allow (exit 1, a rejected replay)."""
    db = tmp_path / "scores.db"
    for args in (("verify", duel), ("scores", duel, "--scores-db", db, "--import", duel)):
        status, out, err = cli(capsys, *args)
        assert status == 1, args
        assert "rejected: not a replay: this looks like a campaign file" in out + err, args
        assert "Additional properties" not in out + err


def test_a_run_with_one_action_swapped_for_its_twin_is_the_same_run(tmp_path, capsys):
    """At action 6 of The Unpaid Ledger's solution ``attack`` and ``flee E`` end in the very same state (the
    fated rolls fail both alike): a copy of ada's run with ``flee E`` there verified with her score under a new run
    id, so it entered the table (and a hub's leaderboard, once the replays are public) as a second run (forge22).
    A run's id now takes each action as the legal action of the same outcome whose text sorts first."""
    campaign, genuine = ledger_run("ada")
    copy, index, twin = twin_copy(campaign, genuine.text(), "mallory")
    original = verify_replay(genuine.text(), campaign).run
    copied = verify_replay(copy, campaign).run
    assert (copied.turns, copied.health) == (original.turns, original.health)
    assert copied.run_id == original.run_id, (index, twin)
    db = tmp_path / "scores.db"
    files = [tmp_path / "ada.replay.json", tmp_path / "mallory.replay.json"]
    files[0].write_text(genuine.text())
    files[1].write_text(copy)
    from cardrogue.engine.format.resources import campaigns_dir

    status, out, _ = cli(capsys, "scores", campaigns_dir() / "the-unpaid-ledger.json", "--scores-db", db, "--import", *files)
    assert "already in the table" in out, out
    with ScoreStore(db) as store:
        assert [s.player for s in store.table(campaign)] == ["ada"]


@pytest.mark.parametrize("detour", ["loop", "swap"])
def test_a_run_replayed_with_a_detour_inside_a_turn_is_the_same_run(tmp_path, capsys, detour):
    """docs/player.md: "One run is one row". A copy of ada's run with ``unequip maul``, ``equip maul`` inserted (back
    to the very state it left), or with two actions of a turn played the other way round (the same state after both),
    verified with her score under a run id of its own: it entered the table, and a hub's leaderboard once the replays
    are public, as mallory's run (forge25). A run's id is now the states it passes through at the end of each turn."""
    campaign, genuine = ledger_run("ada")
    copy = detour_copies(campaign, genuine.text(), "mallory")[detour]
    original = verify_replay(genuine.text(), campaign).run
    copied = verify_replay(copy, campaign).run
    assert (copied.turns, copied.health) == (original.turns, original.health)
    assert copied.run_id == original.run_id
    db = tmp_path / "scores.db"
    files = [tmp_path / "ada.replay.json", tmp_path / "mallory.replay.json"]
    files[0].write_text(genuine.text())
    files[1].write_text(copy)
    from cardrogue.engine.format.resources import campaigns_dir

    status, out, _ = cli(capsys, "scores", campaigns_dir() / "the-unpaid-ledger.json", "--scores-db", db, "--import", *files)
    assert "mallory.replay.json: verified" in out and "already in the table" in out, out
    with ScoreStore(db) as store:
        assert [s.player for s in store.table(campaign)] == ["ada"]


def test_a_row_stored_under_the_id_its_actions_as_written_give_still_lists(tmp_path):
    """A row stored before twin actions were one run holds the id of its actions as written: it is proved all the
    same (not taken for a row edited by hand), and a copy of the run added since is listed once with it."""
    import sqlite3

    campaign, genuine = ledger_run("ada")
    copy, _, _ = twin_copy(campaign, genuine.text(), "ada")
    run = verify_replay(copy, campaign).run
    assert run.recorded_id != run.run_id
    db = tmp_path / "scores.db"
    with ScoreStore(db) as store:
        assert store.add(run, campaign)
    with sqlite3.connect(db) as raw:  # as stored before: under the id of the actions as written
        raw.execute(f"UPDATE scores_{campaign.content_hash} SET run_id = ?", (run.recorded_id,))
    with ScoreStore(db) as store:
        scores, unproved, _ = store.checked_table(campaign)
        assert [(s.player, s.run_id) for s in scores] == [("ada", run.recorded_id)] and unproved == []
        assert not store.add(verify_replay(copy, campaign).run, campaign)  # the same run: already in the table


@pytest.mark.parametrize("detour", ["loop", "swap"])
def test_a_copy_with_a_detour_of_a_row_stored_before_runs_were_their_states_is_not_added(tmp_path, detour):
    """ada's row stored by a version of before (under the id of her actions): mallory's copy with a detour, imported
    since, looked up only the ids of its own actions and was added as a row of its own ('added', a second row; the
    listing then set it apart as listed already). It is the same run: not added, and ada's row is re-keyed."""
    import sqlite3

    campaign, genuine = ledger_run("ada")
    run = verify_replay(genuine.text(), campaign).run
    db = tmp_path / "scores.db"
    with ScoreStore(db) as store:
        assert store.add(run, campaign)
    with sqlite3.connect(db) as raw:  # as stored before: under the id of its actions
        raw.execute(f"UPDATE scores_{campaign.content_hash} SET run_id = ?", (run.recorded_id,))
    copy = verify_replay(detour_copies(campaign, genuine.text(), "mallory")[detour], campaign).run
    assert copy.run_id == run.run_id and run.recorded_id not in (copy.run_id, *copy.earlier_ids)
    with ScoreStore(db) as store:
        assert not store.add(copy, campaign)
        scores, unproved, _ = store.checked_table(campaign)
    assert [(s.player, s.run_id) for s in scores] == [("ada", run.run_id)] and unproved == []
    with sqlite3.connect(db) as raw:
        assert raw.execute(f"SELECT COUNT(*) FROM scores_{campaign.content_hash}").fetchone()[0] == 1


def test_the_end_screen_ranks_a_run_the_table_holds_under_its_id_as_written(tmp_path):
    """The player's end screen found its run's row by the run's id of now: a row stored before twin actions were one
    run (under the id of its actions as written) gave no rank and no highlight when the same run was played again
    (review22b)."""
    import sqlite3

    from cardrogue.editor.player.run import PlayRun, finish

    campaign, genuine = ledger_run("ada")
    copy, index, twin = twin_copy(campaign, genuine.text(), "ada")
    run = verify_replay(copy, campaign).run
    db = tmp_path / "scores.db"
    with ScoreStore(db) as store:
        assert store.add(run, campaign)
    with sqlite3.connect(db) as raw:  # as stored before: under the id of the actions as written
        raw.execute(f"UPDATE scores_{campaign.content_hash} SET run_id = ?", (run.recorded_id,))
    again = PlayRun(campaign, player="ada")
    for action in json.loads(copy)["actions"]:
        again.play(action)
    result = finish(again, practice=False, replays_dir=None, scores_db=db)
    assert not result.added and result.rank == 1 and result.run_id == run.recorded_id, result


def test_a_row_not_re_simulated_in_time_is_not_taken_over_by_a_renamed_copy(tmp_path, monkeypatch):
    """Adding a run whose id a row holds re-verifies that row, bounded as a listing is (10 s): past the bound the row
    was taken for one edited by hand, and a copy of the run under another name took it over (forge22). A row that
    could not be re-simulated in time is not proved forged: it stays, and the copy is the same run."""
    from cardrogue.engine.records import scores

    campaign = load(duel_dict())
    db = tmp_path / "scores.db"
    with ScoreStore(db) as store:
        assert store.add(verify_replay(recorded(campaign, WIN, player="ada").text(), campaign).run, campaign)
    copy = verify_replay(recorded(campaign, WIN, player="mallory").text(), campaign).run
    monkeypatch.setattr(scores, "ROW_SECONDS", -1.0)  # every re-simulation of a held row out of time
    with ScoreStore(db) as store:
        assert not store.add(copy, campaign)
    monkeypatch.undo()
    assert rows(db) == [("ada", 2, 12)]


def test_a_teleport_is_never_searched_for_a_twin_among_every_tile(monkeypatch):
    """A choice of where to teleport offers every tile revealed, and the search for a twin action stepped each one
    sorting before the one taken: 32 teleports on a 180x180 map held a hub's worker for 40 s past its 10 s limit
    (review22b). Two teleports never reach one state (what they move lands apart): they are not tried."""
    from helpers import campaign, open_grid

    from cardrogue.engine.records.replay import Recorder
    from cardrogue.engine.model.campaign import POTION_COLOURS, POTION_EFFECTS
    from cardrogue.engine.rules.state import GameState

    size = 30
    grid = open_grid(size, size, {}, up=frozenset((x, y) for x in range(size) for y in range(size)))
    c = campaign(grid, items=["purple-potion"], potions=dict(zip(POTION_COLOURS, POTION_EFFECTS)))
    recorder = Recorder(c, player="ada")
    for action in ("drink purple", "teleport 9,9"):  # of the teleports offered, nearly all sort before this one
        recorder.play(action)
    steps = []
    step = GameState.step
    monkeypatch.setattr(GameState, "step", lambda self, *a, **kw: (steps.append(1), step(self, *a, **kw))[1])
    verdict = verify_replay(recorder.text(), c)
    assert verdict.ok, verdict.message
    assert len(steps) < 20, len(steps)  # the two actions and the few actions before "drink purple"; it was 900


def _clocked(monkeypatch, seconds_per_step: float, free_steps: int):
    """The re-simulation's clock, moved ``seconds_per_step`` by each step of the engine after the first
    ``free_steps``: a machine slow at a chosen moment."""
    from types import SimpleNamespace

    from cardrogue.engine.records import replay
    from cardrogue.engine.rules.state import GameState

    steps, step = [0], GameState.step

    def counted(self, *args, **kwargs):
        steps[0] += 1
        return step(self, *args, **kwargs)

    monkeypatch.setattr(GameState, "step", counted)
    monkeypatch.setattr(replay, "time", SimpleNamespace(
        monotonic=lambda: 1000.0 + seconds_per_step * max(0, steps[0] - free_steps)))


def _open_map_with_a_potion():
    from helpers import campaign, open_grid

    from cardrogue.engine.model.campaign import POTION_COLOURS, POTION_EFFECTS

    grid = open_grid(6, 6, {}, up=frozenset((x, y) for x in range(6) for y in range(6)))
    return campaign(grid, items=["purple-potion"], potions=dict(zip(POTION_COLOURS, POTION_EFFECTS)))


def test_a_run_whose_last_action_passes_the_deadline_with_nothing_left_to_search_is_verified(monkeypatch):
    """The deadline is checked before each action and inside the search for twins: a run whose last step ended past
    it, with no search cut short, was refused as 'stopped at action 2 of 2' (review22c)."""
    from cardrogue.engine.records.replay import Recorder
    from cardrogue.engine.rules.state import GameState

    c = _open_map_with_a_potion()
    recorder = Recorder(c, player="ada")
    for action in ("drink purple", "teleport 3,3"):
        recorder.play(action)
    text = recorder.text()
    counted = []
    step = GameState.step
    monkeypatch.setattr(GameState, "step", lambda self, *a, **kw: (counted.append(1), step(self, *a, **kw))[1])
    verify_replay(text, c)
    monkeypatch.undo()
    _clocked(monkeypatch, 5.0, len(counted) - 1)  # only the last step, the teleport's (no twin searched), is slow
    verdict = verify_replay(text, c, max_seconds=1.0)
    assert verdict.ok and not verdict.out_of_time, verdict.message


def test_a_search_for_twins_cut_short_by_the_deadline_is_out_of_time(monkeypatch):
    """Without its twin search a run's id is unsure: cut short, the verdict is 'stopped', never a run."""
    from cardrogue.engine.records.replay import Recorder

    c = _open_map_with_a_potion()
    recorder = Recorder(c, player="ada")
    recorder.play("move E")
    _clocked(monkeypatch, 5.0, 1)  # the move itself is quick; the first action tried against it is slow
    verdict = verify_replay(recorder.text(), c, max_seconds=1.0)
    assert not verdict.ok and verdict.out_of_time and "at action 1 of 1" in verdict.message, verdict.message


def test_a_hand_made_row_not_re_simulated_in_time_does_not_keep_the_genuine_run_out(tmp_path, monkeypatch):
    """A row written by hand under a run's id, holding a replay of another run (the slower win, claimed as the fast
    one), which no re-simulation disproves within the listing's bound: the genuine run, verified as it is added,
    takes its place, as it takes a row disproved in time (left24). The row never listed, so it kept the run out of
    the table for good while it stayed."""
    import sqlite3

    from cardrogue.engine.records import scores

    campaign = load(duel_dict())
    genuine = verify_replay(recorded(campaign, WIN, player="ada").text(), campaign).run
    other = recorded(campaign, WIN, player="eve", extra_turns=1).text()
    db = tmp_path / "scores.db"
    with ScoreStore(db) as store:
        assert store.add(verify_replay(recorded(campaign, WIN, player="bob", extra_turns=2).text(), campaign).run,
                         campaign)
    with sqlite3.connect(db) as raw:
        raw.execute(f"INSERT INTO scores_{campaign.content_hash} VALUES (?, 'eve', 2, 12, 0, ?)", (genuine.run_id, other))
    raw.close()
    monkeypatch.setattr(scores, "ROW_SECONDS", -1.0)  # no re-simulation of a held row ends in time
    with ScoreStore(db) as store:
        assert store.add(genuine, campaign)
    monkeypatch.undo()
    assert rows(db) == [("ada", 2, 12), ("bob", 4, 12)]


def test_a_renamed_copy_of_the_run_held_is_the_same_run_without_a_re_simulation(tmp_path, monkeypatch):
    """The row a run's id holds is kept without re-simulating it when its replay is the run's own, only the player's
    name aside: this run's verification proves it (a long run is not re-simulated in the write lock)."""
    from cardrogue.engine.records import replay, scores

    campaign = load(duel_dict())
    db = tmp_path / "scores.db"
    with ScoreStore(db) as store:
        assert store.add(verify_replay(recorded(campaign, WIN, player="ada").text(), campaign).run, campaign)
    copy = verify_replay(recorded(campaign, WIN, player="mallory").text(), campaign).run

    def no_re_simulation(*args, **kwargs):
        raise AssertionError("re-simulated")

    monkeypatch.setattr(scores, "verify_replay", no_re_simulation)
    monkeypatch.setattr(replay, "verify_replay", no_re_simulation)
    with ScoreStore(db) as store:
        assert not store.add(copy, campaign)
    monkeypatch.undo()
    assert rows(db) == [("ada", 2, 12)]


def test_a_replay_of_one_campaign_given_for_another_is_refused_and_makes_no_row(tmp_path, duel, capsys):
    """A genuine run of the duel checked against another campaign named with --campaign (another id; the same id
    with a card's numbers changed; the same map written with its keys in another order and other spacing, which is
    the same campaign): refused as another campaign or another version, exit 1, no row; the same content verifies."""
    text = recorded(load(duel_dict()), WIN, player="ada").text()
    replay = tmp_path / "ada.replay.json"
    replay.write_text(text)
    other = dict(duel_dict(), id="other")
    stronger = duel_dict(goblin_attack=3)  # the goblin hits harder: another game on the same map
    reordered = json.loads(json.dumps(duel_dict()), object_pairs_hook=lambda pairs: dict(reversed(pairs)))
    db = tmp_path / "scores.db"
    for name, doc, said in (("other", other, "is for campaign 'duel', not 'other'"),
                            ("stronger", stronger, "recorded on another version of 'duel'")):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(doc))
        status, out, _ = cli(capsys, "verify", replay, "--campaign", path)
        assert status == 1 and said in out, out
        status, out, _ = cli(capsys, "scores", path, "--scores-db", db, "--import", replay)
        assert status == 1 and said in out, out
    assert not db.exists() or rows(db) == []
    same = tmp_path / "same.json"
    same.write_text(json.dumps(reordered, indent=7))
    status, out, _ = cli(capsys, "verify", replay, "--campaign", same)
    assert status == 0 and "verified: won in 2 turns" in out, out


def test_every_value_of_a_replay_given_another_type_is_refused_naming_its_field():
    """Each value of a recorded replay set in turn to a value of another type or range: null, a bool for a whole
    number (True is 1 to Python), a number as a string, a negative number, 2**64, an empty or a one-item list or
    object. Only the free texts ($schema, player, campaign.file) still verify as texts; everything else is refused
    with the field named (the schema's `$.path`) or the place where the run stops agreeing, never an exception."""
    campaign = load(duel_dict())
    doc = json.loads(recorded(campaign, WIN, player="ada").text())
    doc["campaign"]["file"] = "/tmp/duel.json"
    wrong = (None, True, False, 0, -1, 2**64, "2", "", [], ["end"], {}, {"a": 1})

    def places(value, path=()):
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        for key, item in items:
            yield (*path, key)
            yield from places(item, (*path, key))

    free = {("$schema",), ("player",), ("campaign", "file")}
    tried = 0
    for path in list(places(doc)):
        for value in wrong:
            edited = json.loads(json.dumps(doc))
            parent = edited
            for key in path[:-1]:
                parent = parent[key]
            if parent[path[-1]] == value and type(parent[path[-1]]) is type(value):
                continue
            parent[path[-1]] = value
            verdict = verify_replay(json.dumps(edited), campaign)
            tried += 1
            if path in free and isinstance(value, str):
                assert verdict.ok, (path, value, verdict.message)
                continue
            named = f"$.{path[0]}" in verdict.message or verdict.action_index is not None or any(
                word in verdict.message for word in ("campaign", "checkpoint", "claims", "fated dice", "level", "rules"))
            assert not verdict.ok and named, (path, value, verdict.message)
    assert tried > 250


def _with_endless_actions(replay: str) -> str:
    """``replay`` with its actions replaced by more ``end``s than a replay's length lets through: the text
    ``json.dumps`` writes for that list (4.8 million items, whose dump took seconds), written at once."""
    from cardrogue.engine.records import replay as replay_module

    doc = json.loads(replay)
    doc["actions"] = []
    text = json.dumps(doc)
    count = replay_module.MAX_REPLAY_CHARS // 7 + 1
    assert text.count('"actions": []') == 1
    return text.replace('"actions": []', '"actions": [' + '"end", ' * (count - 1) + '"end"]')


def test_a_replay_longer_than_any_recorded_one_is_refused_before_it_is_read(tmp_path):
    """A replay is refused by its length before its JSON is read: 200,000 actions of 80 characters and a checkpoint
    after each make 22 MB, and the parse of 200 MiB of actions took 27 s and 3.4 GB before the list's own limit was
    met. The verdict says the limit."""
    from cardrogue.engine.records import replay as replay_module

    campaign = load(duel_dict())
    text = _with_endless_actions(recorded(campaign, WIN, player="ada").text())
    verdict = verify_replay(text, campaign)
    assert not verdict.ok and f"longer than {replay_module.MAX_REPLAY_CHARS:,} characters" in verdict.message, verdict.message
    assert len(text) > replay_module.MAX_REPLAY_CHARS


def test_a_row_holding_a_huge_replay_is_not_proved_and_hides_no_genuine_score(tmp_path):
    """A row written by hand with a replay of 200 MiB of actions and 1 turn (ranked first) was read whole and parsed
    before its list's limit refused it: 27 s and 3.4 GB, past the listing's 10 s, so the table was read no further
    and ada's genuine score below it was not listed at all ("no verified scores yet"). Such a row is not proved by its
    length alone (the listing reads no more of it than a replay may hold); the genuine row is listed."""
    import sqlite3

    campaign = load(duel_dict())
    db = tmp_path / "scores.db"
    genuine = recorded(campaign, WIN, player="ada").text()
    with ScoreStore(db) as store:
        assert store.add(verify_replay(genuine, campaign).run, campaign)
    with sqlite3.connect(db) as raw:
        raw.execute(f"INSERT INTO scores_{campaign.content_hash} VALUES ('x', 'mallory', 1, 99, 0, ?)",
                    (_with_endless_actions(genuine),))
    with ScoreStore(db, writable=False) as store:
        scores, unproved, cut = store.checked_table(campaign)
    assert [(s.player, s.turns) for s in scores] == [("ada", 2)] and cut == ""
    assert [u.player for u in unproved] == ["mallory"] and "longer than" in unproved[0].reason, unproved


def test_a_row_slow_to_re_simulate_costs_a_listing_its_own_bound_and_the_rows_after_it_are_listed(tmp_path, monkeypatch):
    """A row written by hand with a replay made slow to re-simulate, claiming fewer turns than every genuine run, is
    re-verified first: it took the listing's whole deadline, and the genuine runs after it were never listed (left24).
    Each row has its own bound (ROW_SECONDS); past it the row is not proved, and the listing reads on."""
    import sqlite3
    import time

    from cardrogue.engine.records import scores

    campaign = load(duel_dict())
    db = tmp_path / "scores.db"
    with ScoreStore(db) as store:
        assert store.add(verify_replay(recorded(campaign, WIN, player="ada", extra_turns=1).text(), campaign).run,
                         campaign)
    slow = recorded(campaign, WIN, player="eve").text()
    with sqlite3.connect(db) as raw:
        raw.execute(f"INSERT INTO scores_{campaign.content_hash} VALUES (?, 'eve', 1, 12, 0, ?)", ("f" * 64, slow))
    raw.close()
    real = scores.verify_replay

    def slow_for_eve(text, campaign, *, max_seconds=None):
        if text != slow:
            return real(text, campaign, max_seconds=max_seconds)
        time.sleep(max_seconds)  # as a replay of 200,000 actions would
        return real(text, campaign, max_seconds=-1.0)

    monkeypatch.setattr(scores, "verify_replay", slow_for_eve)
    monkeypatch.setattr(scores, "LISTING_SECONDS", 3.0)
    monkeypatch.setattr(scores, "ROW_SECONDS", 0.5)
    with ScoreStore(db) as store:
        listed, unproved, cut = store.checked_table(campaign)
    assert [(s.player, s.turns) for s in listed] == [("ada", 3)] and cut == ""
    assert [(u.player, u.turns) for u in unproved] == [("eve", 1)] and "re-simulation stopped" in unproved[0].reason
