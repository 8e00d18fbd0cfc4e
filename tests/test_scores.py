"""High scores: only verified replays get in (`cardrogue scores --import`), and concurrent runs lose nothing."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_player_campaigns import LOSE, WIN, duel_dict, load, recorded, write

from cardrogue.engine.records.replay import Recorder, verify_replay
from cardrogue.engine.records.scores import ScoreStore

CLI = [sys.executable, "-m", "cardrogue.cli.main"]


def cardrogue(*args: str) -> subprocess.CompletedProcess:
    done = subprocess.run([*CLI, *map(str, args)], capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stderr + done.stdout
    return done


@pytest.fixture
def duel(tmp_path: Path) -> Path:
    return write(duel_dict(), tmp_path / "duel.json")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "scores.db"


def table(db: Path) -> list[tuple[str, int, int]]:
    with ScoreStore(db) as store:
        return [(s.player, s.turns, s.health) for s in store.table(load(duel_dict()), limit=1000)]


def winning_replay(tmp_path: Path, name: str = "win", **kw) -> Path:
    path = tmp_path / f"{name}.replay.json"
    path.write_text(recorded(load(duel_dict()), WIN, **kw).text())
    return path


# --------------------------------------------------------------------------- the table


def test_empty_table(duel, db):
    done = cardrogue("scores", duel, "--scores-db", db)
    assert done.returncode == 0 and "no verified scores yet" in done.stdout


def test_import_a_verified_replay_then_list_it(tmp_path, duel, db):
    replay = winning_replay(tmp_path, player="ada")
    done = cardrogue("scores", duel, "--import", replay, "--scores-db", db)
    assert done.returncode == 0, done.stdout
    assert "verified: won in 2 turns with 12 health; added" in done.stdout
    done = cardrogue("scores", duel, "--scores-db", db)
    assert done.returncode == 0 and "ada" in done.stdout and "high scores" in done.stdout
    done = cardrogue("scores", duel, "--scores-db", db, "--format", "json")
    assert json.loads(done.stdout)["scores"] == [{"rank": 1, "player": "ada", "turns": 2, "health": 12}]


def test_the_table_piped_is_plain_lines_and_boxed_on_a_terminal(tmp_path, duel, db):
    """Written to a pipe or a file the table is plain lines a script can read (as `hub leaderboard` writes them), not
    Rich's box drawing; on a terminal (here said by FORCE_COLOR, which Rich and `is_plain` both read) it is the
    boxed table."""
    cardrogue("scores", duel, "--import", winning_replay(tmp_path, player="ada"), "--scores-db", db)
    done = cardrogue("scores", duel, "--scores-db", db)
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[0].endswith("high scores (version " + lines[0].rsplit("(version ", 1)[1])
    assert lines[1].split() == ["1.", "ada", "2", "turns", "12", "health"]
    assert not set(done.stdout) & set("┏┃━┡│└─┌╇┗"), done.stdout
    boxed = subprocess.run([*CLI, "scores", str(duel), "--scores-db", str(db)], capture_output=True, text=True,
                           timeout=120, env={**os.environ, "FORCE_COLOR": "1", "COLUMNS": "100"})
    assert boxed.returncode == 0 and "ada" in boxed.stdout and set(boxed.stdout) & set("┏┃━┡│└─┌╇┗"), boxed.stdout


@pytest.mark.parametrize("name", ["אבג", "علي٣", "٣٣"], ids=["hebrew", "arabic", "arabic-indic-digits"])
def test_a_right_to_left_name_leaves_the_turns_in_their_column(tmp_path, duel, db, name):
    """By the Unicode Bidirectional Algorithm (N1: "European and Arabic numbers act as if they were R") a
    right-to-left name draws the spaces and the turns after it into its own run: on a terminal that lays out
    bidirectional text the line ``1. אבג   2 turns`` read ``1. 2   גבא turns`` (forge25). The name's column is closed
    by a LEFT-TO-RIGHT MARK (no cell wide), piped and boxed alike; a Latin name's line is as it was."""
    cardrogue("scores", duel, "--import", winning_replay(tmp_path, "rtl", player=name), "--scores-db", db)
    cardrogue("scores", duel, "--import", winning_replay(tmp_path, "ada", player="ada", extra_turns=1), "--scores-db", db)
    piped = cardrogue("scores", duel, "--scores-db", db).stdout.splitlines()
    assert piped[1] == f"    1. {name:<20}\u200e    2 turns  12 health" and "\u200e" not in piped[2], piped
    assert "\\u200e" not in "\n".join(piped)  # the mark itself, not its escape
    boxed = subprocess.run([*CLI, "scores", str(duel), "--scores-db", str(db)], capture_output=True, text=True,
                           timeout=120, env={**os.environ, "FORCE_COLOR": "1", "COLUMNS": "100"}).stdout
    row = next(line for line in boxed.splitlines() if name in line)
    assert f"{name}\u200e" in row and row.index("\u200e") < row.index(" 2 ") and "\u200e" not in boxed.replace(row, "")
    widths = {len(line.replace("\u200e", "")) for line in re.sub(r"\x1b\[[0-9;]*m", "", boxed).splitlines() if "│" in line}
    assert len(widths) == 1, boxed  # the mark takes no cell: the box's columns stay straight


def test_the_same_replay_counts_once(tmp_path, duel, db):
    replay = winning_replay(tmp_path)
    cardrogue("scores", duel, "--import", replay, "--scores-db", db)
    done = cardrogue("scores", duel, "--import", replay, "--scores-db", db)
    assert done.returncode == 0 and "already in the table" in done.stdout
    assert len(table(db)) == 1


def test_ranking_fewest_turns_then_most_health(tmp_path, duel, db):
    slow = winning_replay(tmp_path, "slow", player="slow", extra_turns=2)
    fast = winning_replay(tmp_path, "fast", player="fast")
    assert cardrogue("scores", duel, "--import", slow, fast, "--scores-db", db).returncode == 0
    assert table(db) == [("fast", 2, 12), ("slow", 4, 12)]


# Two runs of the duel won in 3 turns with 12 health: a tie.
TIED = (("end", *WIN), ("flip E", "attack", "end", "move E", "end", "flip E", "move E"))


def test_equal_scores_share_a_rank_so_an_edited_time_wins_no_place(tmp_path, duel, db):
    """When a row was recorded is the file's word, which no replay proves: ada's run entered first, and mallory's
    tie, its recorded_at edited to 0, was listed rank 1 and ada rank 2. Equal scores (turns, then health: DESIGN
    Score) share a rank, and a listing cut at ``limit`` takes every score tied with the last one it lists."""
    import sqlite3

    paths = []
    for who, actions in zip(("ada", "mallory"), TIED):
        paths.append(tmp_path / f"{who}.replay.json")
        paths[-1].write_text(recorded(load(duel_dict()), actions, player=who).text())
        assert cardrogue("scores", duel, "--import", paths[-1], "--scores-db", db).returncode == 0
    fast = winning_replay(tmp_path, "fast", player="fast")
    assert cardrogue("scores", duel, "--import", fast, "--scores-db", db).returncode == 0
    with sqlite3.connect(db) as con:
        con.execute(f"UPDATE scores_{load(duel_dict()).content_hash} SET recorded_at = 0 WHERE player = 'mallory'")
    con.close()
    with ScoreStore(db) as store:
        ranks = {s.player: s.rank for s in store.table(load(duel_dict()))}
        assert ranks == {"fast": 1, "ada": 2, "mallory": 2}
        assert {s.player for s in store.table(load(duel_dict()), limit=2)} == {"fast", "ada", "mallory"}
    done = cardrogue("scores", duel, "--scores-db", db)
    assert done.returncode == 0
    assert sorted(line.split()[:2] for line in done.stdout.splitlines()[1:]) == [["1.", "fast"], ["2.", "ada"], ["2.", "mallory"]]
    from cardrogue.editor.player.run import PlayRun, finish  # the end screen: a third tie, the same rank

    run = PlayRun(load(duel_dict()), player="bob")
    for action in ("flip E", "attack", "move E", "end", "end", "flip E", "move E"):
        run.play(action)
    result = finish(run, practice=False, replays_dir=None, scores_db=db)
    assert result.added and result.rank == 2 and [s.rank for s in result.table] == [1, 2, 2, 2]
    assert [s.player for s in result.table if s.run_id == result.run_id] == ["bob"]


# Four runs of the duel won in 3 turns with 12 health, each a run of its own: ties.
FOUR_TIED = (*TIED, ("flip E", "attack", "move E", "end", "end", "flip E", "move E"),
             ("flip E", "attack", "move E", "end", "flip E", "end", "move E"))


def test_an_add_re_verifies_each_tied_row_once_not_at_every_add(tmp_path, db, monkeypatch):
    """Adding a run looks for a row stored before a run was its states that is this run under another id, among the
    rows of its score: it re-simulated every tied row at every add (0.7 s with 300 rows, on the player's screen at a
    level's end). A row re-verified is remembered: the first add that meets the ties re-verifies each once, and
    re-keys the row stored before; the adds after it re-verify none. Every listing still re-verifies every row."""
    import sqlite3

    from cardrogue.engine.records import scores

    campaign = load(duel_dict())
    runs = [verify_replay(recorded(campaign, actions, player=who).text(), campaign).run
            for who, actions in zip(("ada", "bob", "cy", "dan"), FOUR_TIED)]
    assert len({r.run_id for r in runs}) == 4 and {(r.turns, r.health) for r in runs} == {(3, 12)}
    with ScoreStore(db) as store:
        assert store.add(runs[0], campaign)
    ties = 300
    name = f"scores_{campaign.content_hash}"
    with sqlite3.connect(db) as con:
        con.execute(f"UPDATE {name} SET run_id = ?", (runs[0].recorded_id,))  # ada's row as stored before
        con.executemany(f"INSERT INTO {name} VALUES (?, 'eve', 3, 12, 1e12, ?)",  # forged: under ids not their replay's
                        ((f"{i:064x}", runs[0].replay_text) for i in range(ties)))
    con.close()
    verified = []
    real = scores.verify_replay
    monkeypatch.setattr(scores, "verify_replay", lambda *a, **k: verified.append(1) or real(*a, **k))
    with ScoreStore(db) as store:
        assert store.add(runs[1], campaign)
        assert len(verified) == ties + 1  # the first add that meets them: every tied row, once
        verified.clear()
        assert store.add(runs[2], campaign) and store.add(runs[3], campaign)
        assert verified == []  # the second and third: none
        assert not store.add(verify_replay(recorded(campaign, FOUR_TIED[0], player="mallory").text(), campaign).run,
                             campaign)  # ada's row, re-keyed, is found under its run's id: the same run
        verified.clear()
        listed, unproved, _ = store.checked_table(campaign)
    assert [s.player for s in listed] == ["ada", "bob", "cy", "dan"] and listed[0].run_id == runs[0].run_id
    assert {u.player for u in unproved} == {"eve"} and len(verified) == 4 + len(unproved)


def test_a_score_edited_into_the_table_by_hand_is_not_shown_as_verified(tmp_path, duel, db):
    """The table file is the player's: every row is re-verified from its replay when listed. A row whose
    score, player or run id was edited, a row with no real replay, and a copy of a genuine row under another
    run id are not shown; the listing names them and exits 1."""
    import sqlite3

    slow = winning_replay(tmp_path, "slow", player="slow", extra_turns=2)
    fast = winning_replay(tmp_path, "fast", player="fast")
    assert cardrogue("scores", duel, "--import", slow, fast, "--scores-db", db).returncode == 0
    name = "scores_" + load(duel_dict()).content_hash
    with sqlite3.connect(db) as con:
        replay = con.execute(f"SELECT replay FROM {name} WHERE player = 'slow'").fetchone()[0]
        con.execute(f"UPDATE {name} SET turns = 1, health = 99 WHERE player = 'slow'")
        con.execute(f"INSERT INTO {name} VALUES (?, 'eve', 0, 1000, 0, 'not a replay')", ("e" * 64,))
        con.execute(f"INSERT INTO {name} VALUES (?, 'mallory', 0, 12, 0, ?)", ("a" * 64, replay))
        con.execute(f"INSERT INTO {name} VALUES (?, 'trudy', 2, 12, 0, ?)", ("b" * 64, replay))
    con.close()
    assert table(db) == [("fast", 2, 12)]
    done = cardrogue("scores", duel, "--scores-db", db)
    assert done.returncode == 1 and done.stdout.split("\n")[1].split() == ["1.", "fast", "2", "turns", "12", "health"]
    assert not any(who in done.stdout for who in ("slow", "eve", "mallory", "trudy")), done.stdout
    assert "4 scores in the table do not verify" in done.stderr and str(db) in done.stderr, done.stderr
    for who in ("slow", "eve", "mallory", "trudy"):
        assert f"player {who!r}" in done.stderr, done.stderr
    done = cardrogue("scores", duel, "--scores-db", db, "--format", "json")
    listed = json.loads(done.stdout)
    assert done.returncode == 1 and listed["scores"] == [{"rank": 1, "player": "fast", "turns": 2, "health": 12}]
    assert sorted(r["player"] for r in listed["rejected"]) == ["eve", "mallory", "slow", "trudy"]


def test_a_table_filled_with_forged_rows_is_listed_in_bounded_time(tmp_path, duel, db):
    """Each row listed is re-simulated: a file given thousands of forged rows ahead of the genuine ones is read
    no further than its first MAX_UNPROVED unproved rows, and the listing says so (exit 1, nothing shown as
    verified that is not)."""
    import sqlite3

    from cardrogue.engine.records.scores import MAX_UNPROVED

    assert cardrogue("scores", duel, "--import", winning_replay(tmp_path, "fast", player="fast"),
                     "--scores-db", db).returncode == 0
    name = "scores_" + load(duel_dict()).content_hash
    with sqlite3.connect(db) as con:
        con.executemany(f"INSERT INTO {name} VALUES (?, 'eve', 1, 12, 0, 'not a replay')",
                        ((f"{i:064x}",) for i in range(3 * MAX_UNPROVED)))
    con.close()
    done = cardrogue("scores", duel, "--scores-db", db)
    assert done.returncode == 1 and "fast" not in done.stdout, done.stdout
    assert f"{MAX_UNPROVED} scores in the table do not verify" in done.stderr, done.stderr
    assert f"read no further (it holds {MAX_UNPROVED} rows that do not verify)" in done.stderr, done.stderr
    assert done.stderr.count("player 'eve'") == MAX_UNPROVED


def test_a_row_forged_under_a_runs_id_does_not_keep_the_run_out(tmp_path, duel, db):
    """A row written by hand under the id of a run not yet imported would make the import say "already in the
    table" and the listing leave both out: the genuine run takes the row over."""
    import sqlite3

    cardrogue("scores", duel, "--import", winning_replay(tmp_path, "slow", player="slow", extra_turns=2), "--scores-db", db)
    fast = winning_replay(tmp_path, "fast", player="fast")
    run_id = verify_replay(fast.read_text(), load(duel_dict())).run.run_id
    with sqlite3.connect(db) as con:
        con.execute(f"INSERT INTO scores_{load(duel_dict()).content_hash} VALUES (?, 'eve', 0, 1000, 0, 'x')", (run_id,))
    con.close()
    done = cardrogue("scores", duel, "--import", fast, "--scores-db", db)
    assert done.returncode == 0 and "; added" in done.stdout, done.stdout
    assert table(db) == [("fast", 2, 12), ("slow", 4, 12)]
    assert cardrogue("scores", duel, "--scores-db", db).returncode == 0


def test_a_genuine_row_edited_in_one_column_does_not_keep_the_run_out(tmp_path, duel, db):
    """The row of an imported run with only its player renamed, or only its stored replay's final state
    zeroed, no longer proves itself: importing the genuine replay again takes it over (it said "already in the
    table" and the listing left the run out for good)."""
    import sqlite3

    fast = winning_replay(tmp_path, "fast", player="fast")
    name = "scores_" + load(duel_dict()).content_hash
    for edit in ("UPDATE {t} SET player = 'eve'",
                 "UPDATE {t} SET replay = json_set(replay, '$.final', json_object())"):
        assert cardrogue("scores", duel, "--import", fast, "--scores-db", db).returncode == 0
        with sqlite3.connect(db) as con:
            con.execute(edit.format(t=name))
        con.close()
        assert table(db) == [], edit
        done = cardrogue("scores", duel, "--import", fast, "--scores-db", db)
        assert done.returncode == 0 and "; added" in done.stdout, (edit, done.stdout)
        assert table(db) == [("fast", 2, 12)], edit


@pytest.mark.parametrize("column, value", [("turns", "CAST('2' AS BLOB)"), ("health", "CAST('12' AS BLOB)"),
                                           ("turns", "'2'"), ("recorded_at", "'0'")])
def test_a_genuine_row_stored_as_another_type_is_reported_not_ranked_below_worse_runs(tmp_path, duel, db, column, value):
    """SQLite sorts a blob or a text after every number: ada's best run with its turns rewritten as the blob '2'
    (read back as 2, so its replay proved it) was listed after bob's and carol's slower runs, and cut off by a
    listing's limit, without a word. A column not stored as its type is an edited row: reported, not listed, and
    the run's import takes the row over."""
    import sqlite3

    ada = winning_replay(tmp_path, "ada", player="ada")
    slower = [winning_replay(tmp_path, who, player=who, extra_turns=k) for who, k in (("bob", 1), ("carol", 2))]
    assert cardrogue("scores", duel, "--import", ada, *slower, "--scores-db", db).returncode == 0
    name = "scores_" + load(duel_dict()).content_hash
    with sqlite3.connect(db) as con:
        # (a table made again without its columns' types keeps a text as it is written)
        con.execute(f"ALTER TABLE {name} RENAME TO old")
        con.execute(f"CREATE TABLE {name} (run_id PRIMARY KEY, player, turns, health, recorded_at, replay)")
        con.execute(f"INSERT INTO {name} SELECT * FROM old")
        con.execute("DROP TABLE old")
        con.execute(f"UPDATE {name} SET {column} = {value} WHERE player = 'ada'")
    con.close()
    done = cardrogue("scores", duel, "--scores-db", db)
    assert done.returncode == 1 and "player 'ada'" in done.stderr and "not of their types" in done.stderr, done.stderr
    assert [line.split()[:2] for line in done.stdout.splitlines()[1:]] == [["1.", "bob"], ["2.", "carol"]]
    done = cardrogue("scores", duel, "--import", ada, "--scores-db", db)
    assert done.returncode == 0 and "; added" in done.stdout, done.stdout
    assert table(db) == [("ada", 2, 12), ("bob", 3, 12), ("carol", 4, 12)]


def test_a_run_held_twice_by_an_edited_table_is_listed_once(tmp_path, duel, db):
    """A table rebuilt by hand without its primary key can hold one run in two rows: it is listed once, the
    second row named as a repeat."""
    import sqlite3

    assert cardrogue("scores", duel, "--import", winning_replay(tmp_path, "fast", player="fast"),
                     "--scores-db", db).returncode == 0
    name = "scores_" + load(duel_dict()).content_hash
    with sqlite3.connect(db) as con:
        con.execute(f"CREATE TABLE copy AS SELECT * FROM {name}")
        con.execute(f"DROP TABLE {name}")
        con.execute(f"CREATE TABLE {name} AS SELECT * FROM copy UNION ALL SELECT * FROM copy")
    con.close()
    assert table(db) == [("fast", 2, 12)]
    done = cardrogue("scores", duel, "--scores-db", db)
    assert done.returncode == 1 and "its run is listed already" in done.stderr, done.stderr


def test_a_listing_reverifies_for_a_bounded_time(tmp_path, duel, db, monkeypatch):
    """Every row is re-simulated when listed, each replay up to the 200,000 actions a replay may hold: the
    listing has one deadline for all of them (LISTING_SECONDS) and says where it stopped."""
    from cardrogue.engine.records import scores

    assert cardrogue("scores", duel, "--import", winning_replay(tmp_path, "fast", player="fast"),
                     "--scores-db", db).returncode == 0
    with ScoreStore(db) as store:
        assert store.checked_table(load(duel_dict())) == (store.table(load(duel_dict())), [], "")
        monkeypatch.setattr(scores, "LISTING_SECONDS", 0.0)
        listed, unproved, cut = store.checked_table(load(duel_dict()))
    assert (listed, unproved) == ([], []) and cut == "re-verifying its rows took 0 s"


def test_env_variable_names_the_database(tmp_path, duel, db):
    replay = winning_replay(tmp_path)
    done = subprocess.run([*CLI, "scores", str(duel), "--import", str(replay)], capture_output=True, text=True,
                          env={**__import__("os").environ, "CARDROGUE_SCORES_DB": str(db)}, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(table(db)) == 1


def test_a_database_named_in_a_folder_that_does_not_exist_is_refused_not_made(tmp_path, duel):
    """A mistyped folder is said, not made (as ``hub serve --db``): by ``--scores-db`` and by the variable."""
    import os

    replay, missing = winning_replay(tmp_path), tmp_path / "no" / "such"
    done = cardrogue("scores", duel, "--import", replay, "--scores-db", missing / "s.db")
    assert done.returncode == 2 and f"the folder {missing} does not exist" in done.stderr, done.stdout + done.stderr
    env = {**os.environ, "CARDROGUE_SCORES_DB": str(missing / "s.db")}
    done = subprocess.run([*CLI, "scores", str(duel), "--import", str(replay)], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 2 and "does not exist" in done.stderr, done.stdout + done.stderr
    assert not (tmp_path / "no").exists()
    (tmp_path / "file").write_text("")
    done = cardrogue("scores", duel, "--import", replay, "--scores-db", tmp_path / "file" / "s.db")
    assert done.returncode == 2 and "is not a folder" in done.stderr, done.stdout + done.stderr


def test_the_default_database_makes_its_folder(tmp_path, duel):
    import os

    env = {k: v for k, v in os.environ.items() if k != "CARDROGUE_SCORES_DB"}
    env["XDG_DATA_HOME"] = str(tmp_path / "fresh-data")
    done = subprocess.run([*CLI, "scores", str(duel), "--import", str(winning_replay(tmp_path))],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "fresh-data" / "cardrogue-studio" / "scores.sqlite3").is_file()


def test_a_lost_run_verifies_but_is_not_ranked(tmp_path, db):
    doc = duel_dict(goblin_attack=12, rolls=(1,))
    campaign_file = write(doc, tmp_path / "hard.json")
    replay = tmp_path / "lost.replay.json"
    replay.write_text(recorded(load(doc), LOSE).text())
    done = cardrogue("scores", campaign_file, "--import", replay, "--scores-db", db)
    assert done.returncode == 1 and "not ranked" in done.stdout


def test_a_random_dice_win_verifies_but_is_not_ranked(tmp_path, duel, db):
    """--random-dice is practice: its win re-simulates under its recorded seed and never enters the table."""
    replay = tmp_path / "practice.replay.json"
    replay.write_text(_random_dice_win())
    done = cardrogue("scores", duel, "--import", replay, "--scores-db", db)
    assert done.returncode == 1 and "verified, but not ranked" in done.stdout, done.stdout
    assert table(db) == []


def test_no_action_is_taken_after_death(tmp_path, db):
    """A dead hero's run goes no further: an action written after the death (an attempt to play on to a win)
    is refused by its place."""
    doc = duel_dict(goblin_attack=12, rolls=(1,))
    rec = recorded(load(doc), LOSE)
    assert rec.state.outcome == "dead"
    for more in (["end"], ["move E", "end", "flip E", "move E"]):
        verdict = verify_replay(_edited(rec.text(), lambda d: d["actions"].extend(more)), load(doc))
        assert not verdict.ok and verdict.action_index == len(LOSE), verdict.message
        assert f"action {len(LOSE) + 1} ({more[0]!r}) comes after the run ended" in verdict.message


# --------------------------------------------------------------------------- forgeries


def _edit_action(doc: dict) -> None:
    doc["actions"][1] = "move W"  # an action the rules do not allow there


def _edit_score(doc: dict) -> None:
    doc["result"]["turns"] = 1


def _edit_health(doc: dict) -> None:
    doc["result"]["health"] = 99


def _edited(text: str, change) -> str:
    doc = json.loads(text)
    change(doc)
    return json.dumps(doc, indent=2)


def _random_dice_win() -> str:
    """The duel won with random dice (practice, never scored): its goblin's rolls are scripted."""
    rec = Recorder(load(duel_dict()), mode="random", seed=12345, player="honest")
    for action in WIN:
        rec.play(action)
    assert rec.state.outcome == "won"
    return rec.text()


FORGERIES = {
    "edited action": (lambda text: json.dumps((lambda d: (_edit_action(d), d)[1])(json.loads(text)), indent=2),
                      "action 2 ('move W') is not legal"),
    "edited claimed turns": (lambda text: json.dumps((lambda d: (_edit_score(d), d)[1])(json.loads(text)), indent=2),
                             "claims won in 1 turn with"),
    "edited claimed health": (lambda text: json.dumps((lambda d: (_edit_health(d), d)[1])(json.loads(text)), indent=2),
                              "with 99 health, but re-simulates"),
    "an action after the win": (lambda text: _edited(text, lambda d: d["actions"].append("end")),
                                "action 7 ('end') comes after the run ended"),
    "a win cut short": (lambda text: _edited(text, lambda d: d["actions"].pop()),
                        "it claims won in 2 turns with 12 health, the re-simulation ends unfinished"),
    "random dice called fated": (lambda text: _edited(_random_dice_win(), lambda d: d["dice"].update(mode="fated")),
                                 "fated dice must use the campaign's seed 11, not 12345"),
    "truncated file": (lambda text: text[: len(text) // 2], "not JSON"),
    "not JSON": (lambda text: "GAME OVER: I won in 1 turn, honest\n", "not JSON"),
}
NOT_JSON = ("truncated file", "not JSON")  # unusable input (exit 2), named with its line and column


@pytest.mark.parametrize("name", FORGERIES)
def test_forgeries_are_rejected_and_the_table_is_unchanged(name, tmp_path, duel, db):
    honest = winning_replay(tmp_path, "honest", player="honest")
    assert cardrogue("scores", duel, "--import", honest, "--scores-db", db).returncode == 0
    before = table(db)
    forge, reason = FORGERIES[name]
    forged = tmp_path / "forged.replay.json"
    forged.write_text(forge(honest.read_text()))
    forged_as_player = json.loads(honest.read_text()) if name.startswith("edited") else None
    if forged_as_player is not None:  # a new player name, so the forgery is not simply a duplicate
        doc = json.loads(forged.read_text())
        doc["player"] = "mallory"
        forged.write_text(json.dumps(doc, indent=2))
    done = cardrogue("scores", duel, "--import", forged, "--scores-db", db)
    if name in NOT_JSON:
        assert done.returncode == 2 and re.search(rf"{re.escape(str(forged))}:\d+:\d+: rejected: {reason}", done.stdout), done.stdout
    else:
        assert done.returncode == 1, done.stdout
        assert f"{forged}: rejected: " in done.stdout and reason in done.stdout, done.stdout
    assert table(db) == before


def test_a_legal_edit_that_changes_the_run_is_caught_by_the_state_hash(tmp_path, duel, db):
    doc = json.loads(winning_replay(tmp_path).read_text())
    doc["actions"].insert(0, "end")  # still legal throughout: the run is won, one turn later
    forged = write(doc, tmp_path / "forged.replay.json")
    done = cardrogue("scores", duel, "--import", forged, "--scores-db", db)
    assert done.returncode == 1 and "the final state differs" in done.stdout
    assert table(db) == []


def test_a_replay_cut_short_says_what_it_claims_and_what_it_is(tmp_path, duel, db):
    doc = json.loads(winning_replay(tmp_path).read_text())
    doc["actions"].pop()  # the winning step gone: the run never ends
    forged = write(doc, tmp_path / "cut.replay.json")
    done = cardrogue("scores", duel, "--import", forged, "--scores-db", db)
    assert done.returncode == 1 and "the final state differs" in done.stdout
    assert f"it claims won in {doc['result']['turns']} turns" in done.stdout and "ends unfinished" in done.stdout, done.stdout
    assert table(db) == []


def test_replay_for_another_version_of_the_campaign_is_rejected(tmp_path, duel, db):
    other = duel_dict(title="The Duel, revised")
    other["levels"][0]["cells"][2]["inscription"] = "Daylight, at last."
    replay = tmp_path / "other.replay.json"
    replay.write_text(recorded(load(other), WIN).text())
    assert verify_replay(replay.read_text(), load(other)).ok  # honest on its own version
    done = cardrogue("scores", duel, "--import", replay, "--scores-db", db)
    assert done.returncode == 1 and "recorded on another version of 'duel'" in done.stdout
    assert table(db) == []


def test_scores_only_enter_as_verified_runs(db):
    from dataclasses import replace

    campaign = load(duel_dict())
    run = verify_replay(recorded(campaign, WIN).text(), campaign).run
    with ScoreStore(db) as store, pytest.raises(TypeError):
        store.add(replace(run, turns=1), load(duel_dict()))  # a copy is not a run verify_replay made


# --------------------------------------------------------------------------- concurrency

PROCESSES, EACH = 8, 6


def test_concurrent_processes_lose_no_score(tmp_path, duel, db):
    """Several processes verify and add distinct replays into one new database at once: every score is kept."""
    campaign = load(duel_dict())
    batches = []
    for p in range(PROCESSES):
        batch = []
        for k in range(EACH):
            path = tmp_path / f"p{p}-{k}.replay.json"
            # a distinct run per replay (the same actions under another name would be the same run)
            path.write_text(recorded(campaign, WIN, player=f"player-{p}-{k}", extra_turns=p * EACH + k).text())
            batch.append(path)
        batches.append(batch)
    procs = [subprocess.Popen([*CLI, "scores", str(duel), "--scores-db", str(db), "--import", *map(str, batch)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for batch in batches]
    outputs = [proc.communicate(timeout=180) for proc in procs]
    for proc, (out, err) in zip(procs, outputs):
        assert proc.returncode == 0, out + err
        assert out.count("; added") == EACH
    rows = table(db)
    assert len(rows) == PROCESSES * EACH
    assert {player for player, _, _ in rows} == {f"player-{p}-{k}" for p in range(PROCESSES) for k in range(EACH)}
    assert [turns for _, turns, _ in rows] == sorted(2 + p * EACH + k for p in range(PROCESSES) for k in range(EACH))


def _verify_and_add(db: str, texts: list[str], barrier, results) -> None:
    """One player's process: wait for the others, then verify and add each replay."""
    campaign = load(duel_dict())
    barrier.wait(timeout=60)
    with ScoreStore(db) as store:
        added = sum(store.add(verify_replay(text, campaign).run, campaign) for text in texts)
    results.put(added)


def test_processes_starting_together_on_a_new_database_lose_no_score(tmp_path):
    """The same with multiprocessing and a barrier, so the processes create the database and write at one instant."""
    import multiprocessing

    campaign = load(duel_dict())
    texts = [[recorded(campaign, WIN, player=f"racer-{p}-{k}", extra_turns=p * EACH + k).text() for k in range(EACH)]
             for p in range(PROCESSES)]
    ctx = multiprocessing.get_context("spawn")
    barrier, results = ctx.Barrier(PROCESSES), ctx.Queue()
    db = tmp_path / "race.db"
    procs = [ctx.Process(target=_verify_and_add, args=(str(db), batch, barrier, results)) for batch in texts]
    for proc in procs:
        proc.start()
    added = [results.get(timeout=120) for _ in procs]
    for proc in procs:
        proc.join(timeout=60)
        assert proc.exitcode == 0
    assert added == [EACH] * PROCESSES
    assert len(table(db)) == PROCESSES * EACH


def test_a_renamed_or_reformatted_copy_is_the_same_run(tmp_path, duel, db):
    """One run, one row: another player name, other whitespace or checkpoint spacing is not a new score."""
    campaign = load(duel_dict())
    original = recorded(campaign, WIN, player="alice").text()
    doc = json.loads(original)
    doc["player"] = "mallory"
    spaced = Recorder(campaign, player="eve", every=1)  # the same actions, a checkpoint after each
    for action in WIN:
        spaced.play(action)
    copies = [json.dumps(doc), json.dumps(doc, indent=4), spaced.text()]
    paths = []
    for i, text in enumerate([original, *copies]):
        paths.append(tmp_path / f"copy-{i}.replay.json")
        paths[-1].write_text(text)
    done = subprocess.run([*CLI, "scores", str(duel), "--scores-db", str(db), "--import", *map(str, paths)],
                          capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.count("; added") == 1 and done.stdout.count("the same run") == 3
    assert [player for player, _, _ in table(db)] == ["alice"]


def test_whole_numbers_only_in_replays(tmp_path, duel):
    """`"every": 16.0` passes JSON Schema's "integer" but is refused with a message, never a crash; a
    number of thousands of digits cannot be read at all (unusable input, as `check` says of a campaign)."""
    campaign = load(duel_dict())
    doc = json.loads(recorded(campaign, WIN).text())
    for change, code, said in (('"every": 16.0', 1, "rejected: not a valid replay"),
                               ('"every": 1' + "0" * 5000, 2, "bad.replay.json:1:286: not JSON: a number with thousands")):
        bad = tmp_path / "bad.replay.json"
        bad.write_text(json.dumps(doc).replace('"every": 16', change))
        done = subprocess.run([*CLI, "verify", str(bad), "--campaign", str(duel)], capture_output=True, text=True)
        assert done.returncode == code and said in done.stdout + done.stderr and "internal error" not in done.stderr


@pytest.mark.parametrize("kind", ["folder", "not-sqlite"])
def test_unusable_score_database_is_reported(tmp_path, duel, kind, capsys, monkeypatch):
    from cardrogue.cli.main import main

    bad = tmp_path / "scores"
    if kind == "folder":
        bad.mkdir()
    else:
        bad.write_text("this is not a database" * 100)
    done = subprocess.run([*CLI, "scores", str(duel), "--scores-db", str(bad)], capture_output=True, text=True)
    assert done.returncode == 2 and "internal error" not in done.stderr
    assert ("is a folder" if kind == "folder" else "not a score database") in done.stderr
    # `play` on a terminal (without one it is refused before the database is opened: docs/player.md)
    monkeypatch.setattr("cardrogue.editor.terminal.require_terminal", lambda *a: None)
    monkeypatch.setattr("cardrogue.editor.player.app.PlayerApp.run", lambda self: pytest.fail("the run started"))
    assert main(["play", str(duel), "--scores-db", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}: " in err and "internal error" not in err, err


def test_one_bad_file_does_not_stop_an_import(tmp_path, duel, db):
    good = tmp_path / "good.replay.json"
    good.write_text(recorded(load(duel_dict()), WIN).text())
    done = subprocess.run([*CLI, "scores", str(duel), "--scores-db", str(db), "--import",
                           str(tmp_path / "missing.replay.json"), str(good)], capture_output=True, text=True)
    assert done.returncode == 2 and "missing.replay.json: rejected" in done.stdout and "good.replay.json: verified" in done.stdout
    assert len(table(db)) == 1


@pytest.mark.parametrize("player", ["Zoë", "Łukasz", "李雷"])
def test_a_player_named_beyond_ascii_is_scored_and_listed_under_that_name(tmp_path, duel, db, player):
    """Names of any script are names on the local table as on a hub (left24): ``--player`` takes them, the run is
    scored under the name as written, and the listing shows it (its JSON writes it as an escape, as every name)."""
    from cardrogue.cli.common import check_player

    check_player(player)  # (play and web take it)
    done = cardrogue("scores", duel, "--import", winning_replay(tmp_path, "mine", player=player), "--scores-db", db)
    assert done.returncode == 0, done.stdout + done.stderr
    assert table(db) == [(player, 2, 12)]
    listed = cardrogue("scores", duel, "--scores-db", db)
    assert listed.returncode == 0 and player in listed.stdout, listed.stdout + listed.stderr
    shown = json.loads(cardrogue("scores", duel, "--scores-db", db, "--format", "json").stdout)
    assert [row["player"] for row in shown["scores"]] == [player]


# --------------------------------------------------------------------------- bounded re-simulation


def _steps_clock(monkeypatch) -> None:
    """The re-simulation's clock moved one second by each step of the engine: a budget in seconds becomes a budget
    in steps, the same on any machine (no timed assert)."""
    from types import SimpleNamespace

    from cardrogue.engine.records import replay
    from cardrogue.engine.rules.state import GameState

    steps, step = [0], GameState.step

    def counted(self, *args, **kwargs):
        steps[0] += 1
        return step(self, *args, **kwargs)

    monkeypatch.setattr(GameState, "step", counted)
    monkeypatch.setattr(replay, "time", SimpleNamespace(monotonic=lambda: 1000.0 + steps[0]))


@pytest.mark.parametrize("command", ["verify", "import"])
def test_verify_and_import_stop_at_their_budget_naming_the_file_and_the_action(tmp_path, duel, db, monkeypatch,
                                                                              capsys, command):
    """"Every command finishes in bounded time on any input" (DESIGN.md): a 200,000-action replay of a small map took
    `cardrogue verify` or `scores --import` about 12 s, with no bound (the hub's re-simulation stops at 10 s). Both
    now stop at --max-seconds (60 by default): not verified, the file and the action reached named, exit 1, no row."""
    from cardrogue.cli.main import main

    replay = winning_replay(tmp_path, player="ada")
    _steps_clock(monkeypatch)
    argv = (["verify", str(replay), "--campaign", str(duel)] if command == "verify" else
            ["scores", str(duel), "--import", str(replay), "--scores-db", str(db)])
    code = main([*argv, "--max-seconds", "2"])
    out = capsys.readouterr().out
    assert code == 1 and re.search(rf"^{re.escape(str(replay))}: not verified: re-simulation stopped after 2 s at "
                                   rf"action \d of {len(WIN)} \(--max-seconds gives it longer\)$", out, re.M), out
    monkeypatch.undo()
    code = main([*argv, "--max-seconds", "60"])  # the same replay, in its budget
    assert code == 0 and "verified: won in 2 turns" in capsys.readouterr().out
    if command == "import":
        assert main(["scores", str(duel), "--scores-db", str(db), "--format", "json"]) == 0
        assert [s["player"] for s in json.loads(capsys.readouterr().out)["scores"]] == ["ada"]


def test_verify_in_json_says_out_of_time(tmp_path, duel, monkeypatch, capsys):
    from cardrogue.cli.main import main

    replay = winning_replay(tmp_path)
    _steps_clock(monkeypatch)
    assert main(["verify", str(replay), "--campaign", str(duel), "--max-seconds", "1", "--format", "json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert not doc["ok"] and doc["out_of_time"] and "stopped after 1 s" in doc["message"], doc


def test_the_re_simulation_reports_its_progress(tmp_path, duel, monkeypatch):
    """What a long verification's progress bar is fed: (actions done, actions in all), every PROGRESS_EVERY."""
    from cardrogue.engine.records import replay

    monkeypatch.setattr(replay, "PROGRESS_EVERY", 2)
    seen: list[tuple[int, int]] = []
    verdict = verify_replay(winning_replay(tmp_path).read_text(), load(duel_dict()),
                            progress=lambda done, total: seen.append((done, total)))
    n = len(WIN)
    assert verdict.ok and seen == [(i, n) for i in range(2, n, 2)], (seen, n)
