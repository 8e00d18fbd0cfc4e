"""Hub throughput on loopback: publishes/s and submissions/s of one hub process, beside the bare work.

Run ``python benchmarks/bench_hub.py [--db sqlite|postgresql|both] [--publishes N] [--submissions N]
[--clients C] [--workers W]``. Figures only, never asserted (docs/hub.md, "What one process sustains").

One hub process (the same ``create_app`` as ``cardrogue hub serve``, rate limits lifted) runs in a
child process on 127.0.0.1; ``C`` client threads in this process send requests over HTTP, as the
CLI does. Publishes are distinct versions of the bundled map "the-needle-run" (the title changes,
so each one is a new content hash the hub checks, solves and estimates in full); submissions are
distinct winning runs of it (the solution after k ended turns, so each is a new run id the hub
re-simulates). The anchor beside each figure is the same work done in this process without HTTP
or a database, one call after another: the check, the solver and the Monte Carlo estimate for a
publish; parsing and re-simulating the replay for a submission. The ratio hub / bare says what
HTTP, JSON, the database and the process's worker threads cost on top of the work itself.
PostgreSQL is the test suite's own throwaway server (tests/pgserver.py: fsync off).
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NEEDLE = ROOT / "campaigns" / "the-needle-run.json"


def serve(db_url: str, port: int, workers: int) -> None:
    """The child process: one hub on 127.0.0.1:port without rate limits."""
    import uvicorn

    from cardrogue.hub.app import Limits, create_app
    from cardrogue.hub.ratelimit import Rate
    from cardrogue.hub.server import config
    from cardrogue.hub.service import Settings

    free = Rate(burst=1_000_000, per_minute=1_000_000)
    app = create_app(db_url, Settings(workers=workers), Limits(free, free, free))
    uvicorn.Server(config(app, "127.0.0.1", port, log_level="warning")).run()  # the server `hub serve` runs


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _call(base: str, method: str, path: str, body: bytes | None = None, token: str | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(base + path, data=body, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=300) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def _map_text(i: int) -> str:
    doc = json.loads(NEEDLE.read_text(encoding="utf-8"))
    doc["title"] = f"{doc['title']} #{i}"
    return json.dumps(doc)


def _runs(text: str, count: int) -> list[str]:
    from cardrogue.engine.analysis.solver import solve_campaign
    from cardrogue.engine.format.loader import load_campaign_text
    from cardrogue.engine.records.replay import Recorder

    campaign = load_campaign_text(text).campaign
    actions = solve_campaign(campaign, per_level=False).actions
    runs = []
    for k in range(count):
        recorder = Recorder(campaign)
        for action in ("end",) * k + tuple(actions):
            recorder.play(action)
        runs.append(recorder.text())
    return runs


def bare_publish(texts: list[str]) -> float:
    """Publishes per second of the hub's own work (check, solve, estimate) without HTTP or a database."""
    from cardrogue.hub.service import Hub, Settings

    hub = Hub(None, Settings())  # type: ignore[arg-type]  # the clear check touches no database
    from cardrogue.engine.analysis.check import check_text
    from cardrogue.engine.format.loader import load_campaign_text

    start = time.perf_counter()
    for text in texts:
        check_text(text, "campaign")
        hub._clear_check(load_campaign_text(text, "campaign").campaign)
    return len(texts) / (time.perf_counter() - start)


def bare_submit(text: str, replays: list[str]) -> float:
    """Submissions per second of parsing and re-simulating the replays, without HTTP or a database."""
    from cardrogue.engine.format.loader import load_campaign_text
    from cardrogue.engine.records.replay import parse_replay, verify_replay

    campaign = load_campaign_text(text).campaign
    start = time.perf_counter()
    for replay in replays:
        parse_replay(replay)
        assert verify_replay(replay, campaign, max_seconds=10.0).ok
    return len(replays) / (time.perf_counter() - start)


def measure(db_url: str, publishes: int, replays: list[str], clients: int, workers: int) -> tuple[float, float]:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    child = subprocess.Popen([sys.executable, __file__, "--serve", db_url, str(port), str(workers)], cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if child.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the hub did not start") from None
                time.sleep(0.1)
        tokens = []
        for i in range(clients):
            status, body = _call(base, "POST", "/api/accounts", json.dumps({"name": f"bench{i}"}).encode())
            assert status == 201, body
            tokens.append(body["token"])
        status, first = _call(base, "POST", "/api/maps", json.dumps({"campaign": NEEDLE.read_text()}).encode(), tokens[0])
        assert status == 201, first

        def publish(i: int) -> None:
            # one owner per campaign id: each client publishes versions of a campaign of its own
            doc = json.loads(_map_text(i))
            doc["id"] = f"{doc['id']}-{i % clients}"
            status, body = _call(base, "POST", "/api/maps", json.dumps({"campaign": json.dumps(doc)}).encode(),
                                 tokens[i % clients])
            assert status == 201, body

        def submit(i: int) -> None:
            status, body = _call(base, "POST", f"/api/maps/{first['hash']}/runs", replays[i].encode(),
                                 tokens[i % clients])
            assert status == 201, body

        with ThreadPoolExecutor(clients) as pool:
            start = time.perf_counter()
            list(pool.map(publish, range(publishes)))
            publish_rate = publishes / (time.perf_counter() - start)
            start = time.perf_counter()
            list(pool.map(submit, range(len(replays))))
            submit_rate = len(replays) / (time.perf_counter() - start)
        return publish_rate, submit_rate
    finally:
        child.terminate()
        child.wait(timeout=30)


def main() -> int:
    if len(sys.argv) == 5 and sys.argv[1] == "--serve":
        serve(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--publishes", type=int, default=12)
    parser.add_argument("--submissions", type=int, default=300)
    parser.add_argument("--clients", type=int, default=4, help="client threads sending at once (default 4)")
    parser.add_argument("--workers", type=int, default=2, help="the hub's worker slots (default 2, as serve)")
    args = parser.parse_args()

    text = NEEDLE.read_text(encoding="utf-8")
    print(f"preparing {args.submissions} distinct winning runs of the-needle-run ...", flush=True)
    replays = _runs(text, args.submissions)
    backends = ["sqlite", "postgresql"] if args.db == "both" else [args.db]
    print(f"{args.clients} clients, {args.workers} workers; the anchor is measured just before each backend's run")
    print(f"{'backend':<12} {'publishes/s':>12} {'anchor':>7} {'ratio':>6} {'submissions/s':>14} {'anchor':>7} {'ratio':>6}")
    for backend in backends:
        # the anchor, measured just before (this machine is shared: load moves between minutes)
        bare_pub = bare_publish([_map_text(1000 + i) for i in range(max(3, args.publishes // 2))])
        bare_sub = bare_submit(text, replays)
        server = None
        with tempfile.TemporaryDirectory(prefix="cardrogue-bench-") as tmp:
            if backend == "sqlite":
                url = str(Path(tmp) / "hub.sqlite3")
            else:
                sys.path.insert(0, str(ROOT / "tests"))
                from pgserver import PostgresServer

                server = PostgresServer().start()
                url = server.fresh_url()
            try:
                pub, sub = measure(url, args.publishes, replays, args.clients, args.workers)
            finally:
                if server is not None:
                    server.stop()
        print(f"{backend:<12} {pub:>12.2f} {bare_pub:>7.2f} {pub / bare_pub:>5.2f}x {sub:>14,.0f} {bare_sub:>7,.0f}"
              f" {sub / bare_sub:>5.2f}x", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
