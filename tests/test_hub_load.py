"""Parallel clients on loopback lose nothing and duplicate nothing (issue 15, point 8), on both
backends. Bounded: 8 client threads, 40 requests in all, each with a timeout."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

from hub_support import FAST, call, map_text, register, running_hub, slower

CLIENTS = 8
RUNS_EACH = 3


def test_parallel_publishes_and_submissions(hub_db: str) -> None:
    with running_hub(hub_db) as hub:
        text = map_text()
        tokens = [register(hub.base, f"p{i}") for i in range(CLIENTS)]
        owner = call(hub.base, "POST", "/api/maps", {"campaign": text, "window_days": 0}, token=tokens[0])[1]
        # Each client: its own runs (distinct), one run every client also claims, a map of its own,
        # and a race with every other client for one new campaign id.
        shared = slower(text, 1 + CLIENTS * RUNS_EACH)
        mine = {i: [slower(text, 1 + i * RUNS_EACH + k) for k in range(RUNS_EACH)] for i in range(CLIENTS)}

        def client(i: int) -> dict:
            token, out = tokens[i], {"runs": [], "shared": None, "own": None, "race": None}
            for replay in mine[i]:
                out["runs"].append(call(hub.base, "POST", "/api/maps/needle/runs", raw=replay.encode(), token=token)[:2])
            out["shared"] = call(hub.base, "POST", "/api/maps/needle/runs", raw=shared.encode(), token=token)[:2]
            out["own"] = call(hub.base, "POST", "/api/maps", {"campaign": map_text(f"own-{i}", f"Own {i}")}, token=token)[:2]
            out["race"] = call(hub.base, "POST", "/api/maps", {"campaign": map_text("contested", f"Contested by {i}")},
                               token=token)[:2]
            return out

        with ThreadPoolExecutor(CLIENTS) as pool:
            results = [f.result(timeout=300) for f in [pool.submit(client, i) for i in range(CLIENTS)]]

        for i, r in enumerate(results):
            assert [s for s, _ in r["runs"]] == [201] * RUNS_EACH, r["runs"]
            assert r["own"][0] == 201 and r["own"][1]["publisher"] == f"p{i}"
        shared_status = sorted(r["shared"][0] for r in results)
        assert shared_status == [201] + [409] * (CLIENTS - 1)  # one row, whoever claimed it first
        race = [r["race"] for r in results]
        winners = [body for status, body in race if status == 201]
        assert len(winners) == 1 and all(status == 403 for status, _ in race if status != 201)

        players = call(hub.base, "GET", "/api/maps/needle/leaderboard?limit=100")[1]["runs"]  # each once, their best
        assert [(r["rank"], r["player"], r["turns"]) for r in players] == [
            (i + 1, f"p{i}", 12 + i * RUNS_EACH) for i in range(CLIENTS)]
        board = call(hub.base, "GET", "/api/maps/needle/leaderboard?limit=100&every=1")[1]["runs"]
        assert len(board) == CLIENTS * RUNS_EACH + 1 == len({r["run_id"] for r in board})
        assert [r["rank"] for r in board] == list(range(1, len(board) + 1))
        assert [r["turns"] for r in board] == sorted(r["turns"] for r in board)
        claimed = {body["run_id"]: body["player"] for r in results for status, body in r["runs"]}
        assert {r["run_id"]: r["player"] for r in board if r["run_id"] in claimed} == claimed
        maps = call(hub.base, "GET", "/api/maps?limit=100")[1]["maps"]
        assert sorted(m["id"] for m in maps) == sorted(["needle", "contested", *(f"own-{i}" for i in range(CLIENTS))])
        contested = call(hub.base, "GET", "/api/maps/contested")[1]
        assert contested["version"] == 1 and [v["version"] for v in contested["versions"]] == [1]
        assert owner["id"] == "needle" and hub.state.internal_errors == 0


def test_publishes_waiting_for_a_worker_leave_reads_served(tmp_path) -> None:
    """More publishes than the server has threads, all waiting behind one slow clear check: listings,
    pages and registration still answer (they run on other threads than the heavy work)."""
    crowd = 50  # more than the 40 threads of the default pool
    with running_hub(str(tmp_path / "hub.sqlite3"), replace(FAST, workers=1, busy_seconds=120)) as hub:
        service, release, entered = hub.state.hub, threading.Event(), []
        check, publish = service._clear_check, service.publish

        def slow_check(campaign):
            release.wait(timeout=120)
            return check(campaign)

        def counted_publish(*args):
            entered.append(1)
            return publish(*args)

        service._clear_check, service.publish = slow_check, counted_publish
        token = register(hub.base, "alice")
        with ThreadPoolExecutor(crowd) as pool:
            publishes = [pool.submit(call, hub.base, "POST", "/api/maps", {"campaign": map_text()}, token)
                         for _ in range(crowd)]
            try:
                deadline = time.monotonic() + 60
                while len(entered) < 8 and time.monotonic() < deadline:  # the crowd has reached the server
                    time.sleep(0.01)
                time.sleep(0.5)  # and the rest of it its threads (a shorter wait only weakens the test)
                assert call(hub.base, "GET", "/api/maps")[:2] == (200, {"maps": []})
                assert call(hub.base, "GET", "/")[0] == 200
                assert call(hub.base, "POST", "/api/accounts", {"name": "bob"})[0] == 201
                assert not any(p.done() for p in publishes)  # all still waiting: the reads did not wait for them
            finally:
                release.set()
            statuses = sorted(p.result(timeout=300)[0] for p in publishes)
        assert statuses == [200] * (crowd - 1) + [201] and hub.state.internal_errors == 0
