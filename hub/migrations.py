"""The hub's schema, as the migrations that build it (:data:`MIGRATIONS`), applied in order by
:meth:`hub.db.Database.migrate`: statements written once, with ``?`` placeholders and a few ``{names}`` for what the
dialects spell differently (:data:`DIALECTS`), or functions of the transaction for what SQL cannot do alike (a
stored run re-simulated, a name's look-alike key made by :func:`hub.looks.look_key`). A function returns the lines
the operator is told (``serve`` prints them).
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Any

from cardrogue.engine.words import counted

if TYPE_CHECKING:
    from .db import Tx

# looks.look_key in SQL, for the names made before it (ASCII: LOWER is casefold there; REPLACE minds case).
LOOK_KEY_SQL = ("REPLACE(REPLACE(REPLACE(REPLACE(LOWER(REPLACE(name, 'I', 'l')), '1', 'l'), '0', 'o'),"
                " 'rn', 'm'), 'vv', 'w')")
# Migration 2's key, kept as it ran: a small i was an l too ('Mario' and 'Marlo' one name), which migration 3 ends.
_LOOK_KEY_SQL_2 = ("REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(LOWER(name), 'i', 'l'), '1', 'l'), '0', 'o'),"
                   " 'rn', 'm'), 'vv', 'w')")


# Each player's best run on each map marked (migration 7; the benchmark's runs too): the first of theirs in runs_player.
MARK_BEST_RUNS = ("UPDATE runs SET best = 1 WHERE run_id = (SELECT b.run_id FROM runs b WHERE b.map_hash = runs.map_hash"
                  " AND b.account_id = runs.account_id ORDER BY b.turns, b.health DESC, b.submitted_at, b.run_id LIMIT 1)")


def _keys_made(key_sql: str) -> tuple[str, ...]:
    """Every account's look_key made by ``key_sql``, then the unique index on it. Of the names that share a key,
    the first made keeps it; the later ones (made before a rule that joins them) get a key of their own: the key,
    '#' and their id (no name holds a '#')."""
    return (
        f"UPDATE accounts SET look_key = {key_sql}",
        # (indexed for the look-up of an earlier name with the same key: without it, a search of the table per row)
        "CREATE INDEX accounts_look_key_id ON accounts (look_key, id)",
        "UPDATE accounts SET look_key = look_key || '#' || id"
        " WHERE EXISTS (SELECT 1 FROM accounts a2 WHERE a2.look_key = accounts.look_key AND a2.id < accounts.id)",
        "DROP INDEX accounts_look_key_id",
        "CREATE UNIQUE INDEX accounts_look_key ON accounts (look_key)",
    )


def _fill_search_keys(tx: "Tx") -> None:
    """Every map version's search key (hub/folding.py), made in Python: the databases' LOWER folds differently."""
    from .folding import search_key

    rows = tx.all("SELECT m.hash, m.title, m.campaign_id, m.author, a.name FROM maps m"
                  " JOIN accounts a ON a.id = m.publisher_id")
    for hash_, title, campaign_id, author, publisher in rows:
        tx.execute("UPDATE maps SET search_key = ? WHERE hash = ?", (search_key(title, campaign_id, author, publisher),
                                                                     hash_))


# The longest one stored run re-simulates for migration 8 (a submission's own bound, hub.service.Settings.replay_seconds).
REKEY_SECONDS = 10.0
# How often migration 8 says how far it is, in seconds (to the standard error, for the operator of `serve`).
REKEY_PROGRESS_S = 5.0


def _rekey_runs(tx: "Tx") -> list[str]:
    """Every stored run under the id of the states it passes through (VerifiedRun.run_id): a row stored before that id
    held the id of its actions, so a copy of it with a detour (``unequip X, equip X``) or two actions swapped, whose
    actions give other ids, met no row and was stored beside it. Each run is re-simulated once from its stored replay
    (REKEY_SECONDS at most); its old id is kept in ``earlier_id`` (old replay addresses still answer). A row that does
    not re-verify (or whose map no longer loads to its hash), or whose run of now is a row stored before it (a copy
    stored before this migration), keeps its id and is said (the lines returned, ``Database.notes``): no row is
    dropped."""
    from cardrogue.engine.format.loader import load_campaign_text
    from cardrogue.engine.records.replay import verify_replay

    notes: list[str] = []
    tx.execute("ALTER TABLE runs ADD COLUMN earlier_id TEXT")
    tx.execute("CREATE UNIQUE INDEX runs_earlier ON runs (earlier_id)")
    ids = [row[0] for row in tx.all("SELECT run_id FROM runs ORDER BY submitted_at, run_id")]
    campaigns: dict[str, Any] = {}
    rekeyed, kept, copies = 0, [], []
    verdicts: dict[str, Any] = {}  # each run's verdict, for migration 10 (_settle_kept_runs) in the same upgrade
    tx.carried["rekey_verdicts"] = verdicts
    started = shown = time.monotonic()
    for n, old in enumerate(ids, 1):
        map_hash, content, replay = tx.one("SELECT r.map_hash, m.content, r.replay FROM runs r JOIN maps m"
                                           " ON m.hash = r.map_hash WHERE r.run_id = ?", (old,))
        if map_hash not in campaigns:
            try:
                loaded = load_campaign_text(content, map_hash).campaign
            except Exception:  # (a stored text this version cannot read: its runs are kept and said)
                loaded = None
            campaigns[map_hash] = loaded if loaded is not None and loaded.content_hash == map_hash else None
        campaign = campaigns[map_hash]
        if campaign is None:
            kept.append(f"{old[:12]} (its map {map_hash[:12]} no longer loads to its hash)")
            continue
        verdict = verify_replay(replay, campaign, max_seconds=REKEY_SECONDS)
        verdicts[old] = verdict
        if not verdict.ok:
            kept.append(f"{old[:12]} ({verdict.message})")
        elif (new := verdict.run.run_id) != old:
            if tx.one("SELECT run_id FROM runs WHERE run_id = ?", (new,)):
                copies.append(f"{old[:12]} (the run {new[:12]}, stored before it)")
            else:
                tx.execute("UPDATE runs SET run_id = ?, earlier_id = ? WHERE run_id = ?", (new, old, old))
                rekeyed += 1
        if time.monotonic() - shown >= REKEY_PROGRESS_S:
            shown = time.monotonic()
            print(f"cardrogue hub: migration 8: re-verified {n:,} of {counted(len(ids), 'run')}", file=sys.stderr, flush=True)
    if ids:  # (a database without runs: nothing to say)
        notes.append(f"re-keyed {_runs_counted(rekeyed)} by the states they pass through, of {_runs_counted(len(ids))} "
                     f"re-verified in {time.monotonic() - started:.1f} s")
    if copies:
        notes.append(f"{_runs_counted(len(copies))} kept under their old ids, copies of a run stored before them "
                     "(migration 10 sets them apart): " + _listed(copies))
    if kept:
        notes.append(f"{_runs_counted(len(kept))} did not re-verify, kept under their old ids: " + _listed(kept))
    return notes


# The longest one run kept by migration 8 is re-simulated for migration 10: one that ran out of migration 8's 10 s (a
# loaded machine at the upgrade) is given this long, once, at the start, where no request waits for it.
RETRY_SECONDS = 120.0


def _set_apart(tx: "Tx", run_id: str, reason: str) -> None:
    """The run ``run_id`` moved from ``runs`` to ``runs_set_apart`` with ``reason``: off every board and count."""
    tx.execute("INSERT INTO runs_set_apart (run_id, map_hash, account_id, turns, health, submitted_at, replay, reason)"
               " SELECT run_id, map_hash, account_id, turns, health, submitted_at, replay, ? FROM runs"
               " WHERE run_id = ?",
               (reason, run_id))
    tx.execute("DELETE FROM runs WHERE run_id = ?", (run_id,))


def _settle_kept_runs(tx: "Tx") -> list[str]:
    """The runs migration 8 left under the id of their actions (``earlier_id`` NULL, stored before it ran), settled.
    Migration 8 kept every run it could not re-key alike: one whose re-simulation ran out of its 10 s (not disproved: a
    loaded machine) stayed under its old id for good, so a copy of it with a detour met no row and was stored beside
    it; and one whose replay no longer re-simulates to its result stayed ranked, its score one the hub no longer
    proves and its replay one ``cardrogue verify`` refuses. Each is re-simulated once more (RETRY_SECONDS): one that
    verifies is re-keyed as migration 8 would have; one refused is moved to ``runs_set_apart`` with the reason, off
    every leaderboard and count (its replay's address still answers), and its player's best run on the map marked
    again. One that verifies as a run already stored under the id of its states (a copy: stored before it, as
    migration 8 found, or since, in a hub of this schema before migration 10) is one run twice: the earlier submission
    keeps the ranking, under the id of its states, and the later one is set apart. No row is dropped; what was done is
    said. A map's text is read once (a map of 4 MB under 200 runs took 858 MB read with each run), a run's replay
    when it is re-simulated; the operator is told of each re-simulation on the standard error."""
    from cardrogue.engine.format.loader import load_campaign_text
    from cardrogue.engine.records.replay import verify_replay

    done = tx.carried.get("rekey_verdicts", {})
    rekeyed_at = tx.one("SELECT applied_at FROM schema_migrations WHERE version = 8")  # (recorded before this runs)
    kept = tx.all("SELECT run_id, map_hash, account_id, submitted_at FROM runs WHERE earlier_id IS NULL"
                  " AND submitted_at <= ? ORDER BY submitted_at, run_id", (rekeyed_at[0],))
    campaigns: dict[str, Any] = {}
    rekeyed, apart, copies, unsettled = [], [], [], []
    players: set[tuple[str, int]] = set()
    for n, (old, map_hash, account_id, submitted_at) in enumerate(kept, 1):
        if map_hash not in campaigns:
            content = tx.one("SELECT content FROM maps WHERE hash = ?", (map_hash,))[0]
            try:
                loaded = load_campaign_text(content, map_hash).campaign
            except Exception:  # (a stored text this version cannot read: its runs stay as they are, as migration 8's)
                loaded = None
            del content
            campaigns[map_hash] = loaded if loaded is not None and loaded.content_hash == map_hash else None
        if campaigns[map_hash] is None:  # (its map takes no run any more: its board stays as it stood)
            continue
        verdict = done.get(old)  # (migration 8 ran in this upgrade: its verdict stands, but for want of time)
        if verdict is None or verdict.out_of_time:
            print(f"cardrogue hub: migration 10: re-verifying run {old[:12]}, {n:,} of {len(kept):,} (up to "
                  f"{RETRY_SECONDS:g} s)", file=sys.stderr, flush=True)
            replay = tx.one("SELECT replay FROM runs WHERE run_id = ?", (old,))[0]
            verdict = verify_replay(replay, campaigns[map_hash], max_seconds=RETRY_SECONDS)
        if verdict.ok and (new := verdict.run.run_id) != old:
            stored = tx.one("SELECT account_id, submitted_at FROM runs WHERE run_id = ?", (new,))
            if stored is not None and (stored[1], new) < (submitted_at, old):  # a copy of a run submitted before it
                _set_apart(tx, old, f"a copy of the run {new[:12]}, submitted before it")
                copies.append(f"{old[:12]} (of {new[:12]})")
                players.add((map_hash, account_id))
                continue
            if stored is not None:  # a copy of it submitted since, under the id of its states: set apart; it takes the id
                _set_apart(tx, new, f"a copy of the run {old[:12]}, submitted before it")
                copies.append(f"{new[:12]} (of {old[:12]})")
                players.add((map_hash, stored[0]))
            tx.execute("UPDATE runs SET run_id = ?, earlier_id = ? WHERE run_id = ?", (new, old, old))
            rekeyed.append(old[:12])
        elif verdict.out_of_time:
            unsettled.append(f"{old[:12]} ({verdict.message})")
        elif not verdict.ok:
            _set_apart(tx, old, verdict.message)
            apart.append(f"{old[:12]} ({verdict.message})")
            players.add((map_hash, account_id))
    for map_hash, account_id in players:  # the best run left of each player whose run was set apart, marked
        tx.execute("UPDATE runs SET best = 0 WHERE map_hash = ? AND account_id = ?", (map_hash, account_id))
        tx.execute("UPDATE runs SET best = 1 WHERE run_id = (SELECT b.run_id FROM runs b WHERE b.map_hash = ? AND"
                   " b.account_id = ? ORDER BY b.turns, b.health DESC, b.submitted_at, b.run_id LIMIT 1)",
                   (map_hash, account_id))
    notes = []
    if rekeyed:
        notes.append(f"re-keyed {_runs_counted(len(rekeyed))} migration 8 had kept under their old ids: "
                     + _listed(rekeyed))
    if apart:
        notes.append(f"set apart {_runs_counted(len(apart))}, off the leaderboards (runs_set_apart): "
                     + ("its replay does not" if len(apart) == 1 else "their replays do not") + " re-verify now: "
                     + _listed(apart))
    if copies:
        notes.append(f"set apart {_runs_counted(len(copies))}, off the leaderboards (runs_set_apart): "
                     + ("a copy" if len(copies) == 1 else "copies") + " of a run submitted before, which keeps its "
                     "place: " + _listed(copies))
    if unsettled:
        notes.append(f"{_runs_counted(len(unsettled))} still not re-verified in {RETRY_SECONDS:g} s, kept as before: "
                     + _listed(unsettled))
    return notes


def _listed(rows: list[str], shown: int = 20) -> str:
    """The first ``shown`` of ``rows``, and how many more (a line of the log, not a dump of the table)."""
    return ", ".join(rows[:shown]) + (f", and {len(rows) - shown:,} more" if len(rows) > shown else "")


def _runs_counted(n: int) -> str:
    return counted(n, "run")


def _rekey_looks(tx: "Tx") -> list[str]:
    """Every account's look_key made again by looks.look_key, in Python (it reads beyond ASCII, which SQL cannot):
    an account made before a fix of the key kept its old one (the lunate sigma ϲ, Ϲ read as an 'o', the ypogegrammeni
    ͺ as a space and an i), so 'ϲat' stood beside 'cat' and refused 'oat'. As in _keys_made, of the names that share a
    key now the first made keeps it and the later ones get the key, '#' and their id (no name holds a '#'): both are
    kept, neither renamed, said (the lines returned, ``Database.notes``); a new name that reads as them is refused, by
    the first one's key."""
    from .looks import look_key

    notes: list[str] = []
    owners: dict[str, str] = {}  # each key, the name of the first account that holds it
    changed: list[tuple[str, int]] = []
    joined: list[str] = []
    for account_id, name, stored in tx.all("SELECT id, name, look_key FROM accounts ORDER BY id"):
        key = look_key(name)
        if key in owners:
            joined.append(f"{name!r} (reads as {owners[key]!r}, made before it)")
            key = f"{key}#{account_id}"
        else:
            owners[key] = name
        if key != stored:
            changed.append((key, account_id))
    if changed:
        tx.execute("DROP INDEX accounts_look_key")  # (a key may move to another account: no order of updates is safe)
        for key, account_id in changed:
            tx.execute("UPDATE accounts SET look_key = ? WHERE id = ?", (key, account_id))
        tx.execute("CREATE UNIQUE INDEX accounts_look_key ON accounts (look_key)")
        notes.append(f"made again the look-alike key of {len(changed):,} account"
                     + ("" if len(changed) == 1 else "s"))
    if joined:
        notes.append(f"{len(joined):,} account" + (" reads" if len(joined) == 1 else "s read")
                     + " as an older one now, both kept (rename them by hand if unwanted): " + _listed(joined))
    return notes


# (version, what it adds, steps: statements, or a function of the transaction for what SQL cannot do alike)
MIGRATIONS: tuple[tuple[int, str, tuple[Any, ...]], ...] = (
    (1, "accounts, campaigns, map versions and runs", (
        "CREATE TABLE accounts ("
        " id {serial}, name TEXT NOT NULL UNIQUE, name_key TEXT NOT NULL UNIQUE,"
        " token_hash TEXT NOT NULL UNIQUE, created_at {real} NOT NULL)",
        # The first publisher of a campaign id owns it: only they publish its next versions.
        "CREATE TABLE campaigns ("
        " id TEXT PRIMARY KEY, owner_id BIGINT NOT NULL REFERENCES accounts(id), created_at {real} NOT NULL)",
        "CREATE TABLE maps ("
        " hash TEXT PRIMARY KEY, campaign_id TEXT NOT NULL REFERENCES campaigns(id), version INTEGER NOT NULL,"
        " title TEXT NOT NULL, author TEXT NOT NULL, publisher_id BIGINT NOT NULL REFERENCES accounts(id),"
        " published_at {real} NOT NULL, window_ends {real} NOT NULL,"
        " par_turns INTEGER NOT NULL, par_health INTEGER NOT NULL, par_exact INTEGER NOT NULL,"
        " levels INTEGER NOT NULL, win_rate {real}, estimate_runs INTEGER NOT NULL,"
        " content TEXT NOT NULL, UNIQUE (campaign_id, version))",
        # One row per run: run_id hashes the map version, the start, the dice and the actions.
        "CREATE TABLE runs ("
        " run_id TEXT PRIMARY KEY, map_hash TEXT NOT NULL REFERENCES maps(hash),"
        " account_id BIGINT NOT NULL REFERENCES accounts(id), turns INTEGER NOT NULL, health INTEGER NOT NULL,"
        " submitted_at {real} NOT NULL, replay TEXT NOT NULL)",
        "CREATE INDEX runs_board ON runs (map_hash, turns, health DESC, submitted_at, run_id)",
        "CREATE INDEX maps_campaign ON maps (campaign_id, version)",
    )),
    # Names that read alike are one name (looks.look_key: I, l and 1; O and 0; rn and m; vv and w): 'aIice'
    # (a capital i) was another account than 'alice', and the two read the same on every leaderboard. Accounts
    # made before keep their names; of an older pair that reads alike, the first keeps the key, the later
    # ones a key of their own (_keys_made).
    (2, "accounts: names that read alike are one name", (
        "ALTER TABLE accounts ADD COLUMN look_key TEXT",
        *_keys_made(_LOOK_KEY_SQL_2),
    )),
    # Migration 2's key took a small i for an l, so 'Marlo' was refused as reading as 'Mario' (review): the keys
    # are made again with the capital I alone read as an l, and the names it had set apart get their own key back.
    (3, "accounts: a small i is not an l", (
        "DROP INDEX accounts_look_key",
        *_keys_made(LOOK_KEY_SQL),
    )),
    # A search compared LOWER(title) with LOWER(text): SQLite's LOWER lowers A to Z only ('é' did not find 'É'), and
    # neither database composes (a title stored in NFD was not found typed in NFC). The text searched is folded in
    # Python now (hub/folding.py: NFKC, casefold) and kept with each map version.
    (4, "maps: a search key folded alike on every database", (
        "ALTER TABLE maps ADD COLUMN search_key TEXT NOT NULL DEFAULT ''",
        _fill_search_keys,
    )),
    # A token could not be revoked or rotated: it was the account's token_hash column, NOT NULL. Tokens have a table of
    # their own now (one row per live token, its SHA-256 hash); accounts.token_hash is no longer read (SQLite cannot drop
    # a UNIQUE column) and holds 'unused:' and the name's key, which no token hashes to.
    (5, "tokens: revoked and rotated, kept as hashes in a table of their own", (
        "CREATE TABLE tokens ("
        " hash TEXT PRIMARY KEY, account_id BIGINT NOT NULL REFERENCES accounts(id), created_at {real} NOT NULL)",
        "CREATE INDEX tokens_account ON tokens (account_id)",
        "INSERT INTO tokens (hash, account_id, created_at) SELECT token_hash, id, created_at FROM accounts",
        "UPDATE accounts SET token_hash = 'unused:' || name_key",
    )),
    # A leaderboard lists each player once, with their best run (hub/service.py, Hub.leaderboard): the best run of
    # one player on one map is the first entry of theirs in runs_player, and the count of a map's players reads it
    # alone. runs_board holds the account too, so a player's rank (the players with a run ranked before theirs)
    # reads the index alone.
    (6, "runs: each player's runs on a map in the leaderboard's order", (
        "CREATE INDEX runs_player ON runs (map_hash, account_id, turns, health DESC, submitted_at, run_id)",
        "DROP INDEX runs_board",
        "CREATE INDEX runs_board ON runs (map_hash, turns, health DESC, submitted_at, run_id, account_id)",
    )),
    # A deep page of the players' leaderboard walked runs_board from the top, asking runs_player of every run whether
    # it was its player's best (139 ms at offset 1,950 of 2,000 players on PostgreSQL): each player's best run on a
    # map is marked now (``best``, kept by Hub.submit) and indexed apart, one entry per player, in the board's order.
    (7, "runs: each player's best run on a map marked, and indexed in the leaderboard's order", (
        "ALTER TABLE runs ADD COLUMN best INTEGER NOT NULL DEFAULT 0",
        MARK_BEST_RUNS,
        "CREATE INDEX runs_best ON runs (map_hash, turns, health DESC, submitted_at, run_id, account_id)"
        " WHERE best = 1",
    )),
    # A run's id is the states it passes through now (engine/records, VerifiedRun.run_id), not its actions: the runs
    # stored before are re-simulated and re-keyed (_rekey_runs), their old ids kept in earlier_id.
    (8, "runs: each stored run re-keyed by the states it passes through", (
        _rekey_runs,
    )),
    # The look-alike key read the lunate sigma ϲ, Ϲ as an 'o' and the ypogegrammeni ͺ as a space and an i (fixed in
    # looks.look_key): the accounts made before keep their old key until it is made again (_rekey_looks).
    (9, "accounts: every look-alike key made again by the key of now", (
        _rekey_looks,
    )),
    # Migration 8 kept the runs it could not re-key under their old ids for good: one out of its time (not disproved)
    # was never re-keyed, and a copy of it with a detour was stored beside it; one that no longer re-verifies stayed
    # ranked (_settle_kept_runs).
    (10, "runs: those migration 8 kept re-keyed, or set apart when they no longer re-verify", (
        "CREATE TABLE runs_set_apart ("
        " run_id TEXT PRIMARY KEY, map_hash TEXT NOT NULL REFERENCES maps(hash),"
        " account_id BIGINT NOT NULL REFERENCES accounts(id), turns INTEGER NOT NULL, health INTEGER NOT NULL,"
        " submitted_at {real} NOT NULL, replay TEXT NOT NULL, reason TEXT NOT NULL)",
        _settle_kept_runs,
    )),
)

DIALECTS = {
    "sqlite": {"serial": "INTEGER PRIMARY KEY AUTOINCREMENT", "real": "REAL"},
    "postgresql": {"serial": "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY", "real": "DOUBLE PRECISION"},
}
