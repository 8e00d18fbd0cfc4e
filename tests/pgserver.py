"""A real PostgreSQL server for the hub's tests, from Debian's package (scripts/system-deps).

:class:`PostgresServer` runs ``initdb`` and ``postgres`` from ``/usr/lib/postgresql/*/bin``
on a fresh data directory in /tmp, listening on 127.0.0.1 at a free port with its unix
socket in the same temporary tree, with fsync off (a test database need not survive a
crash). PostgreSQL refuses to run as root, so when the tests run as root the server runs
as ``nobody`` and owns its temporary tree. Each test gets its own schema
(:meth:`PostgresServer.fresh_url`), which is much cheaper than a database per test.
"""

from __future__ import annotations

import glob
import os
import pwd
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from polling import Pauses
from ports import free_port


def _bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda p: int(p.split("/")[4].split(".")[0]))
    if not found:
        raise RuntimeError(f"PostgreSQL's {name} is not installed: run scripts/system-deps (Debian package postgresql)")
    return found[-1]


class PostgresServer:
    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="cardrogue-pg-"))
        self.data, self.sockets = self.root / "data", self.root / "run"
        self.sockets.mkdir()
        self.user = None
        if os.geteuid() == 0:
            self.user = "nobody"
            account = pwd.getpwnam(self.user)
            for path in (self.root, self.sockets):
                os.chown(path, account.pw_uid, account.pw_gid)
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self._schemas = 0
        self._frozen = False

    def start(self, timeout: float = 60.0) -> "PostgresServer":
        run = dict(user=self.user, capture_output=True, text=True, timeout=timeout, cwd=self.root)
        done = subprocess.run([_bin("initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust",
                               "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"], **run)
        if done.returncode != 0:
            raise RuntimeError(f"initdb failed ({done.returncode}): {done.stderr.strip()}")
        log = open(self.root / "postgres.log", "wb")
        self.process = subprocess.Popen(
            [_bin("postgres"), "-D", str(self.data), "-h", "127.0.0.1", "-p", str(self.port), "-k", str(self.sockets),
             "-F", "-c", "full_page_writes=off", "-c", "synchronous_commit=off", "-c", "max_connections=200",
             "-c", "shared_buffers=32MB"],
            user=self.user, stdout=log, stderr=subprocess.STDOUT, cwd=self.root)
        log.close()
        deadline, pause = time.monotonic() + timeout, Pauses()
        import psycopg

        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"postgres exited with {self.process.returncode}: {self.log()}")
            try:
                psycopg.connect(self.url(), connect_timeout=2).close()
                return self
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"postgres did not accept connections within {timeout:.0f} s: {self.log()}")
                pause()

    def processes(self) -> list[int]:
        """The postmaster's pid and its children's (the backends, the checkpointer...). Each child of PostgreSQL is
        the leader of a process group of its own (setsid), and the postmaster shares the test process's group: a
        signal to every one of them goes pid by pid."""
        pids = [self.process.pid]
        for stat in glob.glob("/proc/[0-9]*/stat"):
            try:
                fields = Path(stat).read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):  # (a process gone meanwhile)
                continue
            if int(fields[1]) == self.process.pid:
                pids.append(int(stat.split("/")[2]))
        return pids

    def freeze(self) -> None:
        """SIGSTOP on the server and its backends: alive, sockets open, answering nothing (a hung server, a paused
        VM). The postmaster first, so that it forks no child the loop misses. :meth:`thaw` undoes it (and stop)."""
        self._frozen = True
        for pid in self.processes():
            try:
                os.kill(pid, signal.SIGSTOP)
            except ProcessLookupError:  # (a backend that ended since it was listed: a closed connection's)
                pass

    def thaw(self) -> None:
        for pid in self.processes():
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
        self._frozen = False

    def log(self) -> str:
        try:
            return (self.root / "postgres.log").read_text(errors="replace")[-2000:]
        except OSError:
            return ""

    def url(self, schema: str | None = None) -> str:
        base = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        return base if schema is None else f"{base}?options=-csearch_path%3D{schema}"

    def fresh_url(self) -> str:
        """A URL whose tables land in a new, empty schema of their own."""
        import psycopg

        self._schemas += 1
        schema = f"t{os.getpid()}_{self._schemas}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        return self.url(schema)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            if self._frozen:
                self.thaw()
            # SIGQUIT: PostgreSQL's immediate shutdown, with no checkpoint: the data directory is removed next, nothing
            # of it needs writing (the fast shutdown's checkpoint, after a few hundred tests' schemas, took 4-20 s)
            self.process.send_signal(signal.SIGQUIT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        # Removed by a process of its own, which the tests do not wait for: the data directory of a worker's server,
        # with the databases and schemas of a few hundred tests, took 5 s to remove at the end of the session.
        subprocess.Popen(["rm", "-rf", "--", str(self.root)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
