"""The leaderboard's queries at scale: one map, P players with R runs each (random scores), on SQLite and PostgreSQL.

Run ``python benchmarks/bench_leaderboard.py [--db sqlite|postgresql|both] [--players P] [--runs-each R]``.
Figures only, never asserted (benchmarks/RESULTS.md, "the players' leaderboard"). Each figure is the median of 5:
SQLite's is the process time of the query in this process, PostgreSQL's the server's own "Execution Time" of
EXPLAIN ANALYZE (the test suite's throwaway server, tests/pgserver.py), so neither counts the other jobs of a
loaded machine. The players' page is the hub's (hub/service.py, Hub.leaderboard); beside it the same page by a
window function (ROW_NUMBER per account), the listing of every run, and the counts a board and a submission make.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
H = "a" * 64
ORDER = "ORDER BY r.turns, r.health DESC, r.submitted_at, r.run_id"
SELECT = ("SELECT r.run_id, r.map_hash, a.name, r.turns, r.health, r.submitted_at FROM runs r"
          " JOIN accounts a ON a.id = r.account_id")
# The hub's players' page since migration 7: each player's best run marked, read through the index runs_best, the
# page cut before the names are joined (BEST_JOINED: joined first).
BEST = ("SELECT r.run_id, r.map_hash, a.name, r.turns, r.health, r.submitted_at FROM (SELECT run_id, map_hash,"
        " account_id, turns, health, submitted_at FROM runs r WHERE map_hash = ? AND best = 1 " + ORDER +
        " LIMIT ? OFFSET ?) r JOIN accounts a ON a.id = r.account_id " + ORDER)
BEST_JOINED = SELECT + " WHERE r.map_hash = ? AND r.best = 1 " + ORDER + " LIMIT ? OFFSET ?"
# Before it (migration 6): runs_board walked from the top, each run asked of runs_player whether it is its player's best.
WALK = (SELECT + " WHERE r.map_hash = ? AND r.run_id = (SELECT b.run_id FROM runs b WHERE b.map_hash = r.map_hash"
        " AND b.account_id = r.account_id ORDER BY b.turns, b.health DESC, b.submitted_at, b.run_id LIMIT 1) "
        + ORDER + " LIMIT ? OFFSET ?")
EVERY = SELECT + " WHERE r.map_hash = ? " + ORDER + " LIMIT ? OFFSET ?"
WINDOW = ("WITH b AS (SELECT r.run_id, r.map_hash, r.account_id, r.turns, r.health, r.submitted_at, ROW_NUMBER() OVER"
          " (PARTITION BY r.account_id ORDER BY r.turns, r.health DESC, r.submitted_at, r.run_id) AS n FROM runs r"
          " WHERE r.map_hash = ?) SELECT b.run_id, b.map_hash, a.name, b.turns, b.health, b.submitted_at FROM b"
          " JOIN accounts a ON a.id = b.account_id WHERE b.n = 1"
          " ORDER BY b.turns, b.health DESC, b.submitted_at, b.run_id LIMIT ? OFFSET ?")
BETTER = (" AND (turns < ? OR (turns = ? AND health > ?) OR (turns = ? AND health = ? AND (submitted_at < ?"
          " OR (submitted_at = ? AND run_id < ?))))")


def fill(db, players: int, each: int) -> None:
    from cardrogue.hub.migrations import MARK_BEST_RUNS

    rng = random.Random(1)
    with db.transaction(write=True) as tx:
        tx.execute("INSERT INTO accounts (name, name_key, look_key, token_hash, created_at) VALUES ('o','o','o','u',0)")
        tx.execute("INSERT INTO campaigns (id, owner_id, created_at) VALUES ('m', 1, 0)")
        tx.execute("INSERT INTO maps (hash, campaign_id, version, title, author, publisher_id, published_at, window_ends,"
                   " par_turns, par_health, par_exact, levels, win_rate, estimate_runs, content, search_key)"
                   " VALUES (?, 'm', 1, 'M', '', 1, 0, 0, 11, 5, 1, 1, NULL, 0, '{}', 'm')", (H,))
        n = 0
        for p in range(players):
            tx.execute("INSERT INTO accounts (name, name_key, look_key, token_hash, created_at) VALUES (?,?,?,?,0)",
                       (f"p{p}", f"p{p}", f"p{p}", f"u{p}"))
            (account,) = tx.one("SELECT id FROM accounts WHERE name = ?", (f"p{p}",))
            for _ in range(each):
                n += 1
                tx.execute("INSERT INTO runs (run_id, map_hash, account_id, turns, health, submitted_at, replay)"
                           " VALUES (?, ?, ?, ?, ?, ?, '')", (f"{n:064x}", H, account, rng.randint(11, 40),
                                                              rng.randint(1, 10), float(rng.randint(0, 10**6))))
    with db.transaction(write=True) as tx:
        tx.execute(MARK_BEST_RUNS)  # as Hub.submit leaves them, one run at a time
        if db.dialect == "sqlite":
            tx.execute("ANALYZE")
    if db.dialect == "postgresql":  # the marks left a dead row each: cleared as autovacuum would (no transaction)
        import psycopg

        with psycopg.connect(db.url, autocommit=True) as conn:
            conn.execute("VACUUM ANALYZE")


def measure(backend: str, players: int, each: int) -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    from cardrogue.hub.db import Database

    server = None
    if backend == "sqlite":
        url = str(Path(tempfile.mkdtemp()) / "hub.sqlite3")
    else:
        from pgserver import PostgresServer

        server = PostgresServer().start()
        url = server.fresh_url()
    db = Database(url)
    try:
        fill(db, players, each)
        with db.transaction() as tx:
            middle = tx.one("SELECT run_id, account_id, turns, health, submitted_at FROM runs r WHERE map_hash = ? "
                            + ORDER + " LIMIT 1 OFFSET ?", (H, players * each // 2))
            run_id, account, turns, health, at = middle
            better = (turns, turns, health, turns, health, at, at, run_id)
            last = max(0, players - 50)
            (own_best,) = tx.one("SELECT run_id FROM runs r WHERE map_hash = ? AND account_id = ? " + ORDER + " LIMIT 1",
                                 (H, account))
            queries = [
                ("every run, page 1 (main's leaderboard)", EVERY, (H, 50, 0)),
                ("players, page 1 (the hub's: runs_best)", BEST, (H, 50, 0)),
                ("players, page 1 (before: the walk)", WALK, (H, 50, 0)),
                ("players, page 1 (window function)", WINDOW, (H, 50, 0)),
                (f"players, last page (the hub's, offset {last})", BEST, (H, 50, last)),
                (f"players, last page (runs_best, joined first)", BEST_JOINED, (H, 50, last)),
                (f"players, last page (before: the walk)", WALK, (H, 50, last)),
                (f"players, last page (window function)", WINDOW, (H, 50, last)),
                ("the map's runs counted (main and branch)", "SELECT COUNT(*) FROM runs WHERE map_hash = ?", (H,)),
                ("the map's players counted (the hub's: runs_best)",
                 "SELECT COUNT(*) FROM runs WHERE map_hash = ? AND best = 1", (H,)),
                ("the map's players counted (before: GROUP BY)",
                 "SELECT COUNT(*) FROM (SELECT account_id FROM runs WHERE map_hash = ? GROUP BY account_id) p", (H,)),
                ("a middle run's rank among runs (main)", "SELECT COUNT(*) FROM runs WHERE map_hash = ?" + BETTER,
                 (H, *better)),
                ("a middle run's rank among players (before)", "SELECT COUNT(DISTINCT account_id) FROM runs WHERE"
                 " map_hash = ? AND turns <= ? AND account_id <> ?" + BETTER, (H, turns, account, *better)),
                ("a middle run's rank among players (now: runs_best)", "SELECT COUNT(*) FROM runs WHERE map_hash = ?"
                 " AND turns <= ? AND best = 1 AND account_id <> ?" + BETTER, (H, turns, account, *better)),
                # Hub.submit's, for a new best: here set again on the player's own best run, so nothing changes.
                ("a new best run's mark moved (a submission, now)", "UPDATE runs SET best = CASE WHEN run_id = ? THEN 1"
                 " ELSE 0 END WHERE map_hash = ? AND account_id = ? AND (best = 1 OR run_id = ?)",
                 (own_best, H, account, own_best)),
            ]
            print(f"{backend}: {players:,} players x {each} runs = {players * each:,} runs on one map (ms, median of 5)")
            for name, sql, params in queries:
                times = []
                for _ in range(5):
                    if backend == "sqlite":
                        start = time.process_time()
                        tx.all(sql, params)
                        times.append((time.process_time() - start) * 1000)
                    else:
                        plan = tx.all("EXPLAIN ANALYZE " + sql, params)
                        times.append(float(re.search(r"Execution Time: ([0-9.]+)", plan[-1][0]).group(1)))
                print(f"  {name:48s} {statistics.median(times):8.2f}")
    finally:
        db.close()
        if server is not None:
            server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--runs-each", type=int, default=10)
    args = parser.parse_args()
    for backend in ("sqlite", "postgresql") if args.db == "both" else (args.db,):
        measure(backend, args.players, args.runs_each)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
