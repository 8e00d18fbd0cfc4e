"""The hub's test kit: a real hub on loopback (uvicorn in a thread), raw HTTP calls, small maps.

Maps are variants of the fixed three-level fixture (a fast solve: par 11 turns); a
different id, title or seed makes a different map. ``solution`` is the solver's own
winning replay and ``slower(text, k)`` a different, slower run of the same map (``k``
turns ended at the start), so leaderboards can be filled with distinct verified runs.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from functools import cache
from typing import Any, Iterator

import uvicorn
from helpers import FIXTURE
from polling import Pauses

from cardrogue.engine.analysis.solver import solve_campaign
from cardrogue.engine.format.loader import load_campaign_text
from cardrogue.engine.records.replay import Recorder
from cardrogue.hub.app import Limits, create_app
from cardrogue.hub.db import Database
from cardrogue.hub.ratelimit import Rate
from cardrogue.hub.server import config as server_config
from cardrogue.hub.service import Settings

FAST = Settings(solve_states=50_000, solve_seconds=10.0, estimate_runs=10, workers=2)
# Tests that are not about rate limits must not meet them.
UNLIMITED = Limits(register=Rate(100_000, 6e6), publish=Rate(100_000, 6e6), submit=Rate(100_000, 6e6),
                   token=Rate(100_000, 6e6))


class _Server(uvicorn.Server):
    """uvicorn's server, whose main loop wakes as soon as :meth:`stop` asks: uvicorn's looks at ``should_exit`` once a
    tenth of a second (uvicorn 0.54's ``main_loop``), and its shutdown waits a tenth of a second for the connections
    to finish, together 0.2 s of the teardown of each of hundreds of hub tests. Its ticks (``on_tick``: the Date
    header, the request limit) come as often as ever."""

    loop: asyncio.AbstractEventLoop | None = None

    async def main_loop(self) -> None:
        self.loop, self.stopping = asyncio.get_running_loop(), asyncio.Event()
        counter = 0
        should_exit = await self.on_tick(counter)
        while not should_exit:
            counter = (counter + 1) % 864000
            try:
                await asyncio.wait_for(self.stopping.wait(), 0.1)
            except asyncio.TimeoutError:
                pass
            should_exit = await self.on_tick(counter)

    async def shutdown(self, sockets=None) -> None:
        """uvicorn's shutdown, without its tenth of a second for the connections to finish when there is none (as at
        the end of nearly every test: urllib's requests close theirs). With connections or tasks: uvicorn's own."""
        state = self.server_state
        if getattr(state, "connections", None) or getattr(state, "tasks", None) or not hasattr(state, "tasks"):
            return await super().shutdown(sockets)
        for server in self.servers:
            server.close()
        for sock in sockets or []:
            sock.close()
        for server in self.servers:
            await server.wait_closed()
        if not self.force_exit:
            await self.lifespan.shutdown()

    def stop(self) -> None:
        self.should_exit = True
        try:
            if self.loop is not None:
                self.loop.call_soon_threadsafe(self.stopping.set)
        except RuntimeError:  # (its loop already closed: the server has stopped)
            pass


@contextmanager
def running_hub(db_url: str | Database, settings: Settings = FAST, limits: Limits | None = None) -> Iterator[Any]:
    """A hub serving on 127.0.0.1 at a free port (on the database ``db_url`` names, or is); yields the app
    (``app.base`` is its URL)."""
    db = db_url if isinstance(db_url, Database) else Database(db_url)
    app = create_app(db, settings, limits or UNLIMITED)
    server = _Server(server_config(app, "127.0.0.1", 0, log_level="warning", timeout_graceful_shutdown=5))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the hub did not start")
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    app.base = f"http://127.0.0.1:{port}"
    try:
        yield app
    finally:
        server.stop()
        thread.join(timeout=30)
        db.close()


def serve_in_a_process(db: str, port: int) -> subprocess.Popen:
    """`cardrogue hub serve --db DB --port PORT` in a process of its own (its output, stdout and stderr together, in
    ``stdout``), returned once it answers a request; the caller stops it."""
    server = subprocess.Popen([sys.executable, "-m", "cardrogue.cli.main", "hub", "serve", "--db", db, "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline, pause = time.monotonic() + 60, Pauses()
    while True:
        try:
            status, body, _ = call(f"http://127.0.0.1:{port}", "GET", "/api/maps")
        except OSError:
            if server.poll() is None and time.monotonic() < deadline:
                pause()
                continue
            if server.poll() is None:
                server.kill()
            raise RuntimeError(f"`hub serve` did not answer: {server.communicate(timeout=30)[0].decode()}") from None
        if status != 200:
            server.kill()
            raise RuntimeError(f"`hub serve` answered {status}: {body}")
        return server


def call(base: str, method: str, path: str, body: Any = None, token: str | None = None,
         raw: bytes | None = None, headers: dict | None = None) -> tuple[int, Any, dict]:
    """One request; (status, parsed JSON body or text, headers). Never raises on an HTTP status."""
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode("utf-8"))
    request = urllib.request.Request(base + path, data=data, method=method, headers=dict(headers or {}))
    if data is not None and not request.has_header("Content-type"):  # (urllib keeps header names capitalize()d)
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            status, text, got = response.status, response.read().decode("utf-8"), dict(response.headers)
    except urllib.error.HTTPError as exc:
        status, text, got = exc.code, exc.read().decode("utf-8"), dict(exc.headers)
    try:
        return status, json.loads(text), got
    except ValueError:
        return status, text, got


def register(base: str, name: str) -> str:
    status, body, _ = call(base, "POST", "/api/accounts", {"name": name})
    assert status == 201, body
    return body["token"]


@cache
def map_text(campaign_id: str = "needle", title: str = "The Needle", seed: int | None = None) -> str:
    doc = json.loads(FIXTURE.read_text(encoding="utf-8"))
    doc.update(id=campaign_id, title=title)
    if seed is not None:
        doc["seed"] = seed
    return json.dumps(doc, indent=2)


def campaign_of(text: str):
    return load_campaign_text(text).campaign


@cache
def solution_actions(text: str) -> tuple[str, ...]:
    return solve_campaign(campaign_of(text), per_level=False).actions


def replay_of(text: str, actions, player: str = "") -> str:
    recorder = Recorder(campaign_of(text), player=player)
    for action in actions:
        recorder.play(action)
    return recorder.text()


def solution(text: str, player: str = "") -> str:
    return replay_of(text, solution_actions(text), player)


def slower(text: str, k: int, player: str = "") -> str:
    """A winning run ``k`` turns slower than par: ``k`` turns ended before the first move."""
    return replay_of(text, ("end",) * k + solution_actions(text), player)


def ended_at(text: str, j: int, player: str = "") -> str:
    """The solution with one more turn ended before its action ``j``: on the fixture 12 turns and 8 health for ``j``
    from 0 to 14 (two runs of equal score for ``j`` 0, 1, 2 and 4: before an ``end`` the run is the one of ``j`` + 1),
    12 turns and 10 health for 26 (a turn's wait that spares the hero a blow)."""
    actions = solution_actions(text)
    return replay_of(text, actions[:j] + ("end",) + actions[j:], player)
