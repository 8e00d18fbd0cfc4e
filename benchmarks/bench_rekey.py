"""The hub's migration 8 (hub/db.py, _rekey_runs) at scale: N runs of a bundled campaign stored by a hub of before
(schema 7, under the ids of their actions), then the time a hub of now takes to open the database (re-verify and
re-key every run).

Run ``python benchmarks/bench_rekey.py [--db sqlite|postgresql|both] [--runs N] [--campaign a-sons-descent]``.
Figures only, never asserted (benchmarks/RESULTS.md, "Issue 14: the re-keying migration"). Every row holds the
campaign's bundled solution under an id of its own: the first is re-keyed, the others are copies of it (kept, and said),
each re-verified all the same, which is the migration's cost (migration 10, applied with it, re-simulates none of them
again: it takes migration 8's verdicts). The time is this process's (process_time: the
re-simulation runs here on either database) and the wall time beside it (a loaded machine).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))


def stored_before(url: str, name: str, runs: int) -> None:
    """A database at schema 7 holding ``runs`` rows of the bundled solution of ``name``."""
    from cardrogue.engine.format.loader import load_campaign
    from cardrogue.engine.format.resources import campaigns_dir
    from cardrogue.engine.records.replay import verify_replay
    from cardrogue.hub.db import Database

    path = campaigns_dir() / f"{name}.json"
    campaign = load_campaign(str(path)).campaign
    replay = (campaigns_dir() / f"{name}.replay.json").read_text()
    run = verify_replay(replay, campaign).run
    db = Database(url)
    with db.transaction(write=True) as tx:
        tx.execute("INSERT INTO accounts (name, name_key, look_key, token_hash, created_at) VALUES ('o','o','o','u',0)")
        owner = tx.one("SELECT id FROM accounts WHERE name = 'o'")[0]
        tx.execute("INSERT INTO campaigns (id, owner_id, created_at) VALUES (?, ?, 0)", (campaign.id, owner))
        tx.execute("INSERT INTO maps (hash, campaign_id, version, title, author, publisher_id, published_at, window_ends,"
                   " par_turns, par_health, par_exact, levels, win_rate, estimate_runs, content, search_key)"
                   " VALUES (?, ?, 1, 'M', '', ?, 0, 0, 1, 1, 1, 1, NULL, 0, ?, 'm')",
                   (campaign.content_hash, campaign.id, owner, path.read_text()))
        for i in range(runs):
            old = run.recorded_id if i == 0 else hashlib.sha256(f"old {i}".encode()).hexdigest()
            tx.execute("INSERT INTO runs (run_id, map_hash, account_id, turns, health, submitted_at, replay, best)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, 0)", (old, campaign.content_hash, owner, run.turns, run.health,
                                                            float(i), replay))
        for undo in ("DROP TABLE runs_set_apart", "DROP INDEX runs_earlier", "ALTER TABLE runs DROP COLUMN earlier_id",
                     "DELETE FROM schema_migrations WHERE version >= 8"):
            tx.execute(undo)
    db.close()


def measure(url: str, name: str, runs: int) -> str:
    from cardrogue.hub.db import Database

    stored_before(url, name, runs)
    cpu, wall = time.process_time(), time.perf_counter()
    db = Database(url)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    notes = db.notes
    db.close()
    return (f"{runs:,} runs of {name}: {cpu:.2f} s process time ({cpu / runs * 1000:.2f} s per 1,000), {wall:.2f} s wall;"
            f" applied {db.applied}; {notes[0][:80]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--campaign", default="a-sons-descent")
    args = parser.parse_args()
    if args.db in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as folder:
            print("sqlite:", measure(str(Path(folder) / "hub.sqlite3"), args.campaign, args.runs), flush=True)
    if args.db in ("postgresql", "both"):
        from pgserver import PostgresServer

        server = PostgresServer().start()
        try:
            print("postgresql:", measure(server.fresh_url(), args.campaign, args.runs), flush=True)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
