"""The local high-score table: SQLite, one table per campaign content hash.

A score enters only as a :class:`~.replay.VerifiedRun`, which only
:func:`~.replay.verify_replay` makes after re-simulating the replay to exactly
its claimed result -- there is no other way in. The file is the player's, who can
edit it with any SQLite tool, so a score also leaves only verified: every row listed
is re-simulated from the replay it keeps, and a row its replay does not prove is
left out (:class:`Unproved`). A changed campaign has a new hash, so its scores start
afresh ("DESIGN: Replays are the proof").

Adding a run that ties stored rows re-verifies each of them once, not at every add: the ``checked_rows``
table remembers a row found keyed by the run id of now, or proving no run (:meth:`ScoreStore._stored_before`).

The database runs in WAL mode and every insert is one ``BEGIN IMMEDIATE``
transaction with a generous busy timeout, so several processes finishing runs at
once all get their scores in.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import time
import urllib.parse
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, NamedTuple

from ..errors import UnusableInput
from ..model.campaign import Campaign
from ..reading import link_loops
from ..words import counted
from .replay import MAX_REPLAY_CHARS, ReplayError, VerifiedRun, parse_replay, verify_replay

ENV_VAR = "CARDROGUE_SCORES_DB"
BUSY_TIMEOUT_S = 60.0
# The most rows a listing re-verifies and finds unproved before it reads the table no further: a file
# filled with forged rows is listed in bounded time (each costs a re-simulation).
MAX_UNPROVED = 100
# The most time a listing spends re-verifying rows (one deadline for them all): a file of a few huge forged
# replays is listed in bounded time too; rows past it are not read.
LISTING_SECONDS = 10.0
# The most time one row's re-simulation takes of it (20,000 actions or so; a whole campaign's run is a hundred): a
# row written by hand to be slow to re-simulate costs a listing this, and the rows after it are read on. Adding a
# run re-verifies a row held under its id for as long.
ROW_SECONDS = 2.0


def default_db_path() -> Path:
    """``$CARDROGUE_SCORES_DB``, else ``scores.sqlite3`` in the user's data directory."""
    if env := os.environ.get(ENV_VAR):
        return Path(env)
    from platformdirs import user_data_dir

    return Path(user_data_dir("cardrogue-studio", appauthor=False)) / "scores.sqlite3"


@dataclass(frozen=True)
class Score:
    rank: int
    player: str
    turns: int
    health: int
    recorded_at: float
    run_id: str


@dataclass(frozen=True)
class Unproved:
    """A row of the table that its replay does not prove (the file was edited): never listed as a score."""

    run_id: str
    player: str
    turns: int
    health: int
    reason: str


def _held(row: tuple, run: VerifiedRun, campaign: Campaign) -> bool:
    """Whether the row ``(player, turns, health, recorded_at, run_id, replay)`` held under ``run``'s id is proved,
    so that it stays and ``run`` is the same run already in the table. A replay that is the run's own but for the
    player's name is proved by ``run``'s verification: re-simulated, it would end as ``run`` did. Any other is
    re-simulated, bounded as a listing is (this runs inside the write lock other processes wait on); one whose
    re-simulation does not end in time is not proved: a row written by hand could hold a replay made to be slow,
    and kept it would keep the genuine run out of the table for good, since no listing shows it."""
    if _renamed(row, run):
        return True
    return _proof(row, campaign, ROW_SECONDS).why is None


def _renamed(row: tuple, run: VerifiedRun) -> bool:
    """Whether the row's replay is ``run``'s own (as read: its spacing aside) but for the player's name, and the row
    says the result ``run`` proves under that name."""
    player, turns, health, _, _, replay = row
    try:
        held = parse_replay(replay)
    except ReplayError:
        return False
    own = parse_replay(run.replay_text)
    named = held.pop("player", "")
    own.pop("player", None)
    return held == own and (player, turns, health) == (named, run.turns, run.health)


class Proof(NamedTuple):
    """What a row's replay proves (:func:`_proof`)."""

    why: str | None  # why the row is not the run its replay proves, None when it is
    run_id: str  # the run id its replay proves, "" when it proves none
    settled: bool  # False when the re-simulation ran out of time: not proved, nor disproved


def _proof(row: tuple, campaign: Campaign, max_seconds: float | None) -> Proof:
    """What the replay of the row ``(player, turns, health, recorded_at, run_id, replay)`` proves on ``campaign``.
    ``max_seconds`` bounds the re-simulation (past it: not proved, and not settled). A row stored before a run was
    the states it passes through (:attr:`VerifiedRun.run_id`) holds an id its actions give
    (:attr:`VerifiedRun.earlier_ids`): it is proved all the same, and listed under the run's id of now, so that a
    copy with a detour is not listed beside it."""
    player, turns, health, _, run_id, replay = row
    verdict = verify_replay(replay, campaign, max_seconds=max_seconds)
    if not verdict.ok:
        return Proof(f"its replay is rejected: {verdict.message}", "", not verdict.out_of_time)
    run = verdict.run
    if not run.ranked:
        return Proof("its replay is not a ranked run (a won run of the whole campaign under its fated dice)", "", True)
    if run_id not in (run.run_id, *run.earlier_ids):
        return Proof(f"its run id is not its replay's ({run.run_id[:12]})", "", True)
    if (run.player, run.turns, run.health) != (player, turns, health):
        return Proof(f"it says {counted(turns, 'turn')} with {health} health by {player!r}, its replay "
                     f"{counted(run.turns, 'turn')} with {run.health} health by {run.player!r}", "", True)
    return Proof(None, run.run_id, True)


# A row's replay as a listing reads it: no more of a text than a replay may hold (a longer one is refused by its
# length, parse_replay), so that a row written by hand with a replay of hundreds of MiB costs no more than that; a
# value that is not a text is read as NULL (not of its column's type).
_REPLAY = f"CASE WHEN typeof(replay) = 'text' THEN substr(replay, 1, {MAX_REPLAY_CHARS + 1}) END"


# The rows of each campaign's table that an add need not re-verify to find a run stored before under another id
# (ScoreStore._stored_before): keyed by the run id of now (added since, or re-keyed once re-verified), or re-verified
# and found to prove no run. A database of before has none: its tied rows are re-verified once, at the next add that
# ties them. A row marked here is only passed over by that search (which, passing it, at worst adds a run a listing
# then shows once): every listing re-verifies every row all the same, so a mark written by hand proves nothing. A
# change of the run id (tests/test_replay.py pins it) re-keys every stored run: its migration empties this table.
_CHECKED_ROWS = ("CREATE TABLE IF NOT EXISTS checked_rows (hash TEXT NOT NULL, run_id TEXT NOT NULL,"
                 " PRIMARY KEY (hash, run_id))")


def _table(content_hash: str) -> str:
    if len(content_hash) != 64 or any(ch not in "0123456789abcdef" for ch in content_hash):
        raise ValueError("a content hash is 64 lower-case hex digits")
    return f"scores_{content_hash}"


def _checked(row: tuple) -> tuple:
    """The row, each value stored as the type its column says, else TypeError: an edited file could hold a number
    where a name belongs, or a number as a text or a blob -- which SQLite sorts after every number, so a run read
    back as its number (``int(b'2')`` is 2) was listed below worse ones, and cut off by a listing's limit."""
    player, turns, health, recorded_at, run_id, replay = row
    if not (isinstance(player, str) and type(turns) is int and type(health) is int
            and type(recorded_at) in (int, float) and isinstance(run_id, str) and isinstance(replay, str)):
        raise TypeError("a column not of its type")
    return (player, turns, health, float(recorded_at), run_id, replay)


def retry_while_locked(step, seconds: float) -> None:
    """Run ``step`` again while SQLite says the database is locked, for up to ``seconds``.

    Switching a new database to WAL needs an exclusive lock and SQLite does not call the busy
    handler for it, so processes (or threads) creating one database at once must retry.
    """
    deadline = time.monotonic() + seconds
    delay = 0.01
    while True:
        try:
            step()
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.5)


class ScoreStore:
    """The table, opened to add runs (``writable``, the default) or only to list them.

    A listing creates nothing: no folder, no file (a missing database is an empty table). A database
    named (``path`` or ``$CARDROGUE_SCORES_DB``) in a folder that does not exist is refused: only the
    default's folder, the user data folder, is made.
    Every SQLite failure becomes :class:`~..errors.UnusableInput` naming the file and what to
    do; the file itself is never replaced, so a damaged or read-only table loses nothing.
    """

    def __init__(self, path: str | Path | None = None, *, writable: bool = True) -> None:
        # A database the user names (``path``, ``$CARDROGUE_SCORES_DB``) must be in a folder that exists: a
        # mistyped folder is said, not made. Only the default's folder (the user data folder) is made.
        named = path is not None or bool(os.environ.get(ENV_VAR))
        self.path = Path(path) if path is not None else default_db_path()
        self._db: sqlite3.Connection | None = None
        if self.path.is_dir():
            raise UnusableInput(f"{self.path}: is a folder, not a score database")
        if link_loops(self.path):
            # (it does not exist: a listing said "no verified scores yet", a run's score was not kept)
            raise UnusableInput(f"{self.path}: is a loop of symbolic links, not a score database; name the file "
                                "itself with --scores-db")
        if self.path.exists() and not stat.S_ISREG(self.path.stat().st_mode):  # a FIFO would block SQLite
            raise UnusableInput(f"{self.path}: is not a regular file (a FIFO or a device), not a score database; "
                                "name another with --scores-db")
        if not writable:
            if self.path.exists():
                with self._guard():
                    uri = "file:" + urllib.parse.quote(str(self.path.absolute())) + "?mode=ro"
                    self._db = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None)
                    self._db.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return
        folder = self.path.absolute().parent
        if self.path.exists() and not os.access(self.path, os.W_OK):
            raise UnusableInput(f"{self.path}: the score database is read-only: make it writable "
                                f"(chmod u+w) or name another with --scores-db; it was not changed")
        if named and not folder.is_dir():
            raise UnusableInput(f"{self.path}: {folder} is not a folder" if folder.exists() else
                                f"{self.path}: the folder {folder} does not exist: create it first, or name a score "
                                "database in a folder that exists")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UnusableInput(f"{self.path}: cannot create the folder for the score database: {exc.strerror or exc}") from None
        with self._guard():
            self._db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
            self._db.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
            self._setup()

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """SQLite's errors, said with the file's name and what to do about them."""
        try:
            yield
        except (sqlite3.DatabaseError, ValueError, TypeError) as exc:
            text = str(exc)
            if "readonly" in text or "read-only" in text:
                why = "is read-only: make it (and its folder) writable or name another with --scores-db"
            elif isinstance(exc, sqlite3.OperationalError) and "malformed" not in text:
                why = f"cannot be used ({text}): check the file and its folder, or name another with --scores-db"
            else:
                why = (f"is damaged or not a score database ({text}): move it away (a new table starts) "
                       "or restore a backup")
            raise UnusableInput(f"{self.path}: the score database {why}; it was not changed") from None

    def _setup(self) -> None:
        """WAL mode and the campaigns table, retried while other processes hold the lock."""

        def setup() -> None:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS campaigns (hash TEXT PRIMARY KEY, id TEXT NOT NULL, title TEXT NOT NULL)"
            )
            self._db.execute(_CHECKED_ROWS)

        retry_while_locked(setup, BUSY_TIMEOUT_S)

    def close(self) -> None:
        if self._db is not None:
            self._db.close()

    def __enter__(self) -> "ScoreStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def add(self, run: VerifiedRun, campaign: Campaign) -> bool:
        """Record a verified run of ``campaign``; False when this run (whoever claims it) is already in the table.
        The campaign re-verifies a row already held under the run's id (:meth:`_insert`)."""
        if not isinstance(run, VerifiedRun) or not run.is_authentic():
            raise TypeError("only a run that verify_replay accepted can enter the high-score table")
        table = _table(run.content_hash)
        digest = run.run_id  # one run, one row: a renamed or reformatted copy is the same run
        db = self._db
        if db is None:
            raise UnusableInput(f"{self.path}: the score database was opened only to list it")
        if campaign.content_hash != run.content_hash:
            raise ValueError("the run was verified on another campaign version")
        with self._guard():
            return self._insert(db, table, digest, run, campaign)

    def _insert(self, db: sqlite3.Connection, table: str, digest: str, run: VerifiedRun, campaign: Campaign) -> bool:
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute(
                f"CREATE TABLE IF NOT EXISTS {table} ("
                " run_id TEXT PRIMARY KEY, player TEXT NOT NULL, turns INTEGER NOT NULL,"
                " health INTEGER NOT NULL, recorded_at REAL NOT NULL, replay TEXT NOT NULL)"
            )
            db.execute("INSERT OR IGNORE INTO campaigns VALUES (?, ?, ?)", (run.content_hash, run.campaign_id, run.campaign_title))
            row = (digest, run.player, run.turns, run.health, time.time(), run.replay_text)
            # A row stored before a run was its states holds an id the run's actions give (VerifiedRun.earlier_ids).
            ids = dict.fromkeys((digest, *run.earlier_ids))
            held = db.execute(f"SELECT player, turns, health, recorded_at, run_id, {_REPLAY} FROM {table}"
                              f" WHERE run_id IN ({', '.join('?' * len(ids))}) ORDER BY run_id = ? DESC",
                              (*ids, digest)).fetchone()
            if held is None and self._stored_before(db, table, run, campaign):
                db.execute("COMMIT")
                return False
            added = held is None
            if held is not None:
                # The row of this run id is this run (whoever claimed it first) unless it was written by hand:
                # any column or its replay edited, so that its replay no longer proves it (the listing's own
                # test, _unproved). Such a row would keep the run out for good (listings leave it out); the run
                # takes it over.
                try:
                    forged = not _held(_checked(held), run, campaign)
                except (ValueError, TypeError, OverflowError):
                    forged = True  # a column not of its type
                if forged:
                    db.execute(f"DELETE FROM {table} WHERE run_id = ?", (held[4],))
                    added = True
            if added:
                db.execute(f"INSERT OR REPLACE INTO {table} VALUES (?, ?, ?, ?, ?, ?)", row)
                db.execute("INSERT OR IGNORE INTO checked_rows VALUES (?, ?)", (run.content_hash, digest))
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return added

    @staticmethod
    def _stored_before(db: sqlite3.Connection, table: str, run: VerifiedRun, campaign: Campaign) -> bool:
        """Whether a row stored before a run was its states is ``run`` under the id of other actions (a copy of it with
        a detour or two actions swapped, played since): its actions' ids (:attr:`VerifiedRun.earlier_ids`) are only
        ``run``'s own. Such a row has ``run``'s score, so the rows of that score not yet checked (``checked_rows``)
        are re-verified (:data:`ROW_SECONDS` each, :data:`LISTING_SECONDS` in all; past it the run is added, a listing
        shows it once, and the next add goes on with the rows left). Each row re-verified is re-keyed to the run id
        its replay proves, unless another row holds that id (the row is then a second copy of a run), so that its
        run finds it directly from then on, and is marked checked: with hundreds of tied rows, an add re-simulated
        them all (0.7 s for 300 rows) each time, on the player's screen at a level's end."""
        deadline = time.monotonic() + LISTING_SECONDS
        rows = db.execute(f"SELECT player, turns, health, recorded_at, run_id, {_REPLAY} FROM {table}"
                          " WHERE turns = ? AND health = ?"
                          " AND run_id NOT IN (SELECT run_id FROM checked_rows WHERE hash = ?)"
                          " ORDER BY recorded_at, run_id", (run.turns, run.health, run.content_hash))
        for raw in rows.fetchall():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            try:
                row = _checked(raw)
            except (ValueError, TypeError, OverflowError):
                continue  # (read at no cost: no re-simulation)
            proof = _proof(row, campaign, min(left, ROW_SECONDS))
            if not proof.settled:
                continue
            key = row[4]
            if proof.why is None and proof.run_id != key and \
                    db.execute(f"SELECT 1 FROM {table} WHERE run_id = ?", (proof.run_id,)).fetchone() is None:
                db.execute(f"UPDATE {table} SET run_id = ? WHERE run_id = ?", (proof.run_id, key))
                key = proof.run_id
            db.execute("INSERT OR IGNORE INTO checked_rows VALUES (?, ?)", (run.content_hash, key))
            if proof.why is None and proof.run_id == run.run_id:
                return True
        return False

    def readable(self) -> None:
        """Read the schema: a file that is not SQLite (or is damaged) fails here, as :class:`UnusableInput`."""
        if self._db is not None:
            with self._guard():
                self._db.execute("SELECT count(*) FROM sqlite_master").fetchone()

    def table(self, campaign: Campaign, limit: int = 20) -> list[Score]:
        """The verified scores of ``campaign``, best first (see :meth:`checked_table`)."""
        return self.checked_table(campaign, limit)[0]

    def checked_table(self, campaign: Campaign, limit: int = 20) -> tuple[list[Score], list[Unproved], str]:
        """Best first: fewest turns, then most health; up to ``limit`` scores and every score tied with the last of
        them, each row re-verified from its replay against ``campaign``. Equal scores share a rank: when a row
        was recorded is the file's word, which no replay proves, so it orders ties (the earliest first) but
        decides no rank. The rows met on the way that their replays do not prove (edited by hand) are not
        scores: they come apart, with the reason, in table order. A run listed already (a table edited to hold
        it twice) is listed once.

        The third item says why the table was read no further, "" when it was read to ``limit`` scores or its
        end: past :data:`MAX_UNPROVED` unproved rows, or past :data:`LISTING_SECONDS` of re-verifying. One row
        re-simulates for :data:`ROW_SECONDS` at most: past it the row is not proved, and the rows after it are read."""
        table = _table(campaign.content_hash)
        if self._db is None:
            return [], [], ""
        scores: list[Score] = []
        unproved: list[Unproved] = []
        seen: set[str] = set()
        cut = ""
        deadline = time.monotonic() + LISTING_SECONDS
        with self._guard():
            exists = self._db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (table,)).fetchone()
            if not exists:
                return [], [], ""
            cursor = self._db.execute(
                f"SELECT player, turns, health, recorded_at, run_id, {_REPLAY} FROM {table}"
                " ORDER BY turns ASC, health DESC, recorded_at ASC, run_id ASC")
            for raw in cursor:
                left = deadline - time.monotonic()
                if left <= 0:
                    cut = f"re-verifying its rows took {LISTING_SECONDS:g} s"
                    break
                try:
                    row = _checked(raw)
                except (ValueError, TypeError, OverflowError):
                    row, why = None, "its columns are not of their types"
                else:
                    if len(scores) >= limit and row[1:3] != (scores[-1].turns, scores[-1].health):
                        break  # past the limit, and no longer tied with the last score listed
                    why, proved, _ = _proof(row, campaign, min(left, ROW_SECONDS))
                    if why is None and proved in seen:
                        why = "its run is listed already"
                if why is not None:
                    unproved.append(Unproved(row[4], *row[:3], why) if row else Unproved(str(raw[4]), str(raw[0]), 0, 0, why))
                    if len(unproved) == MAX_UNPROVED:
                        cut = f"it holds {MAX_UNPROVED} rows that do not verify"
                        break
                    continue
                seen.add(proved)
                tied = scores and (scores[-1].turns, scores[-1].health) == row[1:3]
                scores.append(Score(scores[-1].rank if tied else len(scores) + 1, *row[:5]))
            cursor.close()
        return scores, unproved, cut
