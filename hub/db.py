"""The hub's storage: SQLite (the embedded default) or PostgreSQL, one schema for both.

The schema is built by :data:`hub.migrations.MIGRATIONS`, applied in order and recorded in a
``schema_migrations`` table, so a database made by an older hub is brought up to date
when a newer one opens it, and a database from a newer hub is refused rather than
misread. Statements are written once, with ``?`` placeholders and a few ``{names}`` for
what the dialects spell differently (:data:`hub.migrations.DIALECTS`).

Every unit of work is one transaction (:meth:`Database.transaction`). SQLite runs in
WAL mode and writers take the lock at ``BEGIN IMMEDIATE``; PostgreSQL runs at READ
COMMITTED and the service takes row locks where an order matters (``FOR UPDATE``).
Connections are pooled per :class:`Database`; nothing else is kept in the process, so
several hub processes can share one PostgreSQL database.
"""

from __future__ import annotations

import os
import queue
import re
import math
import select
import socket
import sqlite3
import sys
import threading
import time
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import unquote

from cardrogue.engine.records.scores import retry_while_locked

from .migrations import DIALECTS, MIGRATIONS

ENV_VAR = "CARDROGUE_HUB_DB"
BUSY_TIMEOUT_S = 30.0
# The longest a request waits for the database (`hub serve --db-timeout`): for a pooled connection, for a new
# connection to PostgreSQL, and for each statement's answer (PostgreSQL's statement_timeout and lock_timeout, and a
# watchdog for a server that answers nothing at all: a frozen one, whose sockets stay open, hung a request for ever).
DB_TIMEOUT_S = 5.0
# The watchdog shuts a connection this long after the server's own statement_timeout would have answered: a server
# that is alive cancels the statement itself, and keeps the connection.
WATCHDOG_GRACE_S = 1.0
# SQLite's primary result codes of a database the hub cannot use for now, answered 503 as a PostgreSQL server gone
# away is (they were 500s, 'internal error'): SQLITE_BUSY and SQLITE_LOCKED (another program holds the lock past the
# busy timeout), SQLITE_READONLY, SQLITE_IOERR, SQLITE_FULL (a full disk) and SQLITE_CANTOPEN. A statement SQLite
# cannot run (SQLITE_ERROR: no such table, a syntax error) stays a bug, a 500.
SQLITE_UNAVAILABLE = frozenset({5, 6, 8, 10, 13, 14})
# Of those, a lock another connection holds (SQLITE_BUSY, SQLITE_LOCKED) is for now, as a PostgreSQL lock_timeout is:
# a DatabaseUnavailable, and every caller says to try again later (`hub revoke` exits 75, not 2).
SQLITE_HELD = frozenset({5, 6})



class DatabaseError(Exception):
    """The database cannot be opened or is not a hub database this version understands."""


class DatabaseUnavailable(DatabaseError):
    """The database did not answer within the timeout (frozen, unreachable, or behind a lock): for now, not for good."""


def default_url() -> str:
    """``$CARDROGUE_HUB_DB``, else ``hub.sqlite3`` in the user's data directory."""
    if env := os.environ.get(ENV_VAR):
        return env
    from platformdirs import user_data_dir

    return str(Path(user_data_dir("cardrogue-studio", appauthor=False)) / "hub.sqlite3")


def display_url(url: str) -> str:
    """The URL without its password (before the '@', or libpq's ``password`` parameter), for logs and messages."""
    if "://" not in url:
        return url
    # (the parameter's name read decoded, as libpq reads it: `?%70assword=...` is the password too)
    url = re.sub(r"([?&])([^=&]*)=([^&]*)",
                 lambda m: f"{m[1]}{m[2]}=***" if unquote(m[2]).lower() == "password" else m[0], url)
    if "@" not in url:
        return url
    scheme, rest = url.split("://", 1)
    auth, host = rest.rsplit("@", 1)
    return f"{scheme}://{auth.split(':', 1)[0]}:***@{host}" if ":" in auth else url


def check_url_form(url: str) -> None:
    """Refused: a URL missing its slashes (`postgresql:/hub:pw@db/hub`, a slash short, was taken for a SQLite path in
    the folder 'postgresql:/hub:pw@db', its password printed). For ``serve`` (through :class:`Database`) and ``revoke``."""
    if (short := re.match(r"(postgres(?:ql)?|sqlite)(?::|//)", url, re.IGNORECASE)) and "://" not in url:
        raise DatabaseError(f"{short.group(1)}...: is not a database URL the hub reads: write "
                            "postgresql://user:password@host[:port]/database, or a SQLite file path")


def sqlite_path(url: str) -> Path:
    """The file of a SQLite database named by its path or a ``sqlite://`` URL."""
    return Path(url.removeprefix("sqlite:///").removeprefix("sqlite://"))


class Tx:
    """One transaction: ``execute`` with ``?`` placeholders, on either backend."""

    def __init__(self, db: "Database", conn: Any, bounded: bool = True) -> None:
        self._db, self._conn, self._bounded = db, conn, bounded
        # What a migration's step leaves for a later one of the same upgrade (hub/migrations.py: migration 8's verdicts
        # on the runs it kept, which migration 10 need not re-simulate again).
        self.carried: dict[str, Any] = {}

    def execute(self, sql: str, params: tuple = ()) -> Any:
        if self._bounded and self._db.dialect == "postgresql":
            return self._db._answered(self._conn, lambda: self._conn.execute(self._db.sql(sql), params))
        return self._conn.execute(self._db.sql(sql), params)

    def one(self, sql: str, params: tuple = ()) -> tuple | None:
        return self.execute(sql, params).fetchone()

    def all(self, sql: str, params: tuple = ()) -> list[tuple]:
        return self.execute(sql, params).fetchall()


class Database:
    """A pool of connections to one hub database; ``url`` is a file path or ``postgresql://...``."""

    def __init__(self, url: str | None = None, pool_size: int = 8, upgrade: bool = True,
                 timeout: float = DB_TIMEOUT_S) -> None:
        # A database the user names (``url``, ``$CARDROGUE_HUB_DB``) must be in a folder that exists: a
        # mistyped folder is said, not made. Only the default's folder (the user data folder) is made.
        named = bool(url or os.environ.get(ENV_VAR))
        self.url = url or default_url()
        check_url_form(self.url)
        self.dialect = "postgresql" if self.url.startswith(("postgresql://", "postgres://")) else "sqlite"
        scheme = self.url.split("://", 1)[0] if "://" in self.url else None
        if scheme is not None and scheme not in ("postgresql", "postgres", "sqlite"):
            # (a mysql:// URL was taken for a SQLite path, and refused as 'the folder mysql:/x@h does not exist')
            raise DatabaseError(f"{display_url(self.url)}: the hub cannot use a {scheme}:// database: give a SQLite "
                                "file path or postgresql://user:password@host[:port]/database")
        if not 0 < timeout <= 3600:
            raise DatabaseError(f"a database timeout is more than 0 and at most 3600 s, not {timeout:g}")
        self.timeout = timeout
        self._pool: queue.LifoQueue = queue.LifoQueue()
        self._slots = threading.BoundedSemaphore(pool_size)
        self._closed = False
        self._watchdog = _Watchdog(min(0.25, timeout / 4))
        if self.dialect == "sqlite":
            path = sqlite_path(self.url)
            if path.is_dir():
                raise DatabaseError(f"{path}: is a folder, not a hub database")
            folder = path.parent
            if named and not folder.is_dir():
                raise DatabaseError(f"{path}: {folder} is not a folder" if folder.exists() else
                                    f"{path}: the folder {folder} does not exist: create it first, or name a database "
                                    "in a folder that exists")
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise DatabaseError(f"{path}: cannot create its folder: {exc.strerror or exc}") from None
            self._path = path
            self._file = path.absolute()  # (a process that changes its folder goes on with the same file)
        # What opening it did, for ``serve`` to say: the schema version found (0: a new database) and the migrations applied.
        self.found_version = 0
        self.notes: list[str] = []  # what a migration has to tell the operator (``serve`` says it)
        self._identity: tuple[int, int] | None = None
        self.applied = self.migrate(upgrade)
        if self.dialect == "sqlite":
            self._identity = self._file_identity()

    # -- connections

    def _connect(self) -> Any:
        if self.dialect == "sqlite":
            try:
                # A request waits for another's lock the database timeout at most, as on PostgreSQL (a migration
                # waits longer: ``transaction(bounded=False)``).
                busy = min(BUSY_TIMEOUT_S, self.timeout)
                conn = sqlite3.connect(self._file, timeout=busy, isolation_level=None, check_same_thread=False)
                conn.execute(f"PRAGMA busy_timeout={int(busy * 1000)}")
                conn.execute("PRAGMA foreign_keys=ON")
                retry_while_locked(lambda: conn.execute("PRAGMA journal_mode=WAL"), busy)
                return conn
            except sqlite3.Error as exc:
                if _sqlite_held(exc):
                    raise DatabaseUnavailable(f"{self._path}: cannot open the hub database: {exc}") from None
                if "file is not a database" in str(exc):
                    raise DatabaseError(f"{self._path}: not a SQLite database ({exc}): name the hub's database file, "
                                        "or a new one") from None
                raise DatabaseError(f"{self._path}: cannot open the hub database: {exc}") from None
        import psycopg
        from psycopg.conninfo import conninfo_to_dict

        try:
            given = conninfo_to_dict(self.url)
            # Bounded connect: the URL's connect_timeout, else libpq's environment's (PGCONNECT_TIMEOUT), else ours.
            connect_timeout = (given.get("connect_timeout") or os.environ.get("PGCONNECT_TIMEOUT")
                               or max(2, math.ceil(self.timeout)))
            # (no ``options``: libpq's own replace PGOPTIONS and a service file's, and a hub deployed with its schema
            # named there started empty in ``public``; the timeouts are set by each transaction, below)
            return psycopg.connect(self.url, autocommit=True, connect_timeout=connect_timeout)
        except psycopg.Error as exc:
            raise DatabaseError(f"{display_url(self.url)}: cannot connect: {_one_line(exc, self.url)}") from None

    def _answered(self, conn: Any, work: Any) -> Any:
        """``work()`` on the PostgreSQL connection ``conn``, bounded: past the timeout (and the server's own
        statement_timeout) the watchdog shuts the connection's socket, which ends the wait with an error, said as
        the database not answering (a 503)."""
        self._watchdog.arm(conn, self.timeout + WATCHDOG_GRACE_S)
        try:
            result = work()
        except Exception as exc:
            if self._watchdog.disarm(conn):
                raise DatabaseUnavailable(f"{display_url(self.url)}: the database did not answer within "
                                          f"{self.timeout + WATCHDOG_GRACE_S:g} s") from exc
            raise
        self._watchdog.disarm(conn)
        return result

    def _file_identity(self) -> tuple[int, int] | None:
        try:
            found = os.stat(self._file)
        except OSError:
            return None
        return found.st_dev, found.st_ino

    def _same_file(self) -> None:
        """The SQLite file is still the one opened. Removed (or a backup put in its place) while the hub served, the
        pooled connections wrote on into the file no folder held any more, lost when the hub stopped, and a new
        connection made an empty database: refused (a 503), until the file is back."""
        if self._identity is not None and self._file_identity() != self._identity:
            raise DatabaseError(f"{self._path}: the database file was removed or replaced while the hub served it: put "
                                "it back, or restart the hub on the file there now (docs/hub.md, Backups)")

    def _pooled(self) -> Any:
        """A pooled connection still open, else a new one. PostgreSQL restarted under a serving hub (an upgrade, a
        failover) had closed every pooled connection, and the first request to take each answered 503 although the
        database was back: one the server closed is dropped here for the next, or a new one."""
        while True:
            try:
                conn = self._pool.get_nowait()
            except queue.Empty:
                return self._connect()
            if self.dialect == "sqlite" or not _closed_by_server(conn):
                return conn
            _close_quietly(conn)

    @contextmanager
    def _connection(self) -> Iterator[Any]:
        if self._closed:
            raise DatabaseError("the database is closed")
        # (every connection busy for longer than the timeout: the database is not answering them)
        if not self._slots.acquire(timeout=self.timeout):
            raise DatabaseUnavailable(f"{display_url(self.url)}: no connection to the database free within "
                                      f"{self.timeout:g} s")
        try:
            if self.dialect == "sqlite":
                self._same_file()
            conn = self._pooled()
            healthy = False
            try:
                yield conn
                healthy = True
            finally:
                if healthy and not self._closed:
                    self._pool.put(conn)
                else:
                    _close_quietly(conn)
        finally:
            self._slots.release()

    @contextmanager
    def transaction(self, write: bool = False, bounded: bool = True) -> Iterator[Tx]:
        """One transaction; ``write`` takes SQLite's write lock at the start (no upgrade deadlocks). ``bounded``: on
        PostgreSQL each statement (BEGIN and COMMIT too) waits at most the timeout for its answer (not so the
        migrations: an index made on a large table, a process waiting for another's migration)."""
        with self._connection() as conn:
            if self.dialect == "sqlite":
                if not bounded:
                    conn.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
                try:
                    conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                    try:
                        yield Tx(self, conn)
                    except BaseException:
                        if conn.in_transaction:  # (SQLite rolls a transaction back itself on a full disk)
                            conn.execute("ROLLBACK")
                        raise
                    conn.execute("COMMIT")
                except sqlite3.OperationalError as exc:
                    if exc.sqlite_errorcode & 0xFF not in SQLITE_UNAVAILABLE:
                        raise
                    raise (DatabaseUnavailable if _sqlite_held(exc) else DatabaseError)(f"{self._path}: {exc}") from exc
                finally:
                    if not bounded:
                        with suppress(sqlite3.Error):
                            conn.execute(f"PRAGMA busy_timeout={int(min(BUSY_TIMEOUT_S, self.timeout) * 1000)}")
            else:
                tx = Tx(self, conn, bounded)
                if bounded:
                    # Bounded waits (DB_TIMEOUT_S): the server cancels a statement, or a wait for a lock, past the
                    # timeout itself. Set for the transaction (SET LOCAL), not the session: behind PgBouncer's
                    # transaction pooling a session's setting stays on a server connection another client then gets.
                    ms = int(self.timeout * 1000)
                    self._answered(conn, lambda: conn.execute(
                        f"BEGIN; SET LOCAL statement_timeout = {ms}; SET LOCAL lock_timeout = {ms}"))
                else:
                    tx.execute("BEGIN")
                try:
                    yield tx
                except BaseException:
                    try:
                        tx.execute("ROLLBACK")
                    except Exception:  # a connection broken (or shut by the watchdog): the server rolls it back
                        pass
                    raise
                tx.execute("COMMIT")

    def sql(self, text: str) -> str:
        """A statement in this dialect: ``?`` placeholders become ``%s`` for psycopg."""
        return text.replace("?", "%s") if self.dialect == "postgresql" else text

    def close(self) -> None:
        self._closed = True
        self._watchdog.stop()
        while True:
            try:
                _close_quietly(self._pool.get_nowait())
            except queue.Empty:
                return

    # -- migrations

    def migrate(self, upgrade: bool = True) -> list[int]:
        """Apply the migrations this database lacks, in order; the versions applied. Without ``upgrade`` (the operator's
        ``hub revoke``), a database that is not a hub's or lacks a migration is refused instead: a revoke run with a
        newer version than the hub serving migrated the database under the older hub, whose every token then failed."""
        words = DIALECTS[self.dialect]
        where = display_url(self.url)
        try:
            # (unbounded: an index made on a large table; the processes waiting for the first one's migration. Not so a
            # look without ``upgrade``: `hub revoke` on a frozen server, or behind a migrating serve, waited for ever)
            with self.transaction(write=True, bounded=not upgrade) as tx:
                if self.dialect == "postgresql":
                    if upgrade:
                        tx.execute("SET LOCAL statement_timeout = 0")
                        tx.execute("SET LOCAL lock_timeout = 0")
                    # one migrating process at a time (a look without upgrade waits for one under way, bounded)
                    tx.execute("SELECT pg_advisory_xact_lock(7215026)")
                if "schema_migrations" not in self._refuse_another_programs(tx):
                    if not upgrade:
                        raise DatabaseError(f"{where}: no hub database there: name the database `cardrogue hub serve` "
                                            "uses")
                    # (made only when missing: a read-only PostgreSQL database, a standby, refused the CREATE TABLE IF
                    # NOT EXISTS of every start, and the hub did not start on tables all there)
                    tx.execute("CREATE TABLE schema_migrations ("
                               " version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at {real} NOT NULL)"
                               .format(**words))
                applied = {row[0] for row in tx.all("SELECT version FROM schema_migrations")}
                self.found_version = max(applied, default=0)
                known = {version for version, _, _ in MIGRATIONS}
                if applied - known:
                    raise DatabaseError(f"{display_url(self.url)}: the database has schema version {max(applied)}, "
                                        f"newer than this hub knows ({max(known)}): run a hub of that version or newer, "
                                        "or restore the backup made before the upgrade")
                if known - applied and not upgrade:
                    raise DatabaseError(f"{where}: the database has schema version {self.found_version}, older than this "
                                        f"hub's ({max(known)}): stop the older hub, then start `cardrogue hub serve` of "
                                        "this version on it, which upgrades it (docs/hub.md, Upgrading the hub)")
                done = []
                for version, description, statements in MIGRATIONS:
                    if version in applied:
                        continue
                    for statement in statements:
                        if callable(statement):  # (what it has to tell the operator: lines, ``serve`` says them)
                            self.notes.extend(statement(tx) or ())
                        else:
                            tx.execute(statement.format(**words))
                    tx.execute("INSERT INTO schema_migrations VALUES (?, ?, ?)", (version, description, time.time()))
                    done.append(version)
                if self.dialect == "sqlite":
                    # A write, made or not: a read-only file was served, and every write answered 500.
                    tx.execute("UPDATE schema_migrations SET version = version WHERE version = ?", (max(known),))
                return done
        except sqlite3.OperationalError as exc:
            raise (DatabaseUnavailable if _sqlite_held(exc) else DatabaseError)(self._sqlite_problem(exc)) from None
        except sqlite3.DatabaseError as exc:
            raise DatabaseError(f"{self.url}: not a hub database: {exc}") from None
        except DatabaseError as exc:
            if isinstance(cause := exc.__cause__, sqlite3.OperationalError):  # (one the transaction took for the database's)
                raise type(exc)(self._sqlite_problem(cause)) from None
            raise
        except Exception as exc:
            psycopg = sys.modules.get("psycopg")  # imported by _connect when the database is PostgreSQL
            if psycopg is None or not isinstance(exc, psycopg.Error):
                raise
            if (late := timed_out(exc, self.url)) is not None:
                raise DatabaseUnavailable(f"{where}: {late}") from None
            raise DatabaseError(self._migration_problem(exc)) from None

    def _sqlite_problem(self, exc: sqlite3.OperationalError) -> str:
        """Why a SQLite file cannot serve as the hub's database at the start, and what to do."""
        if "readonly" in str(exc):
            return (f"{self.url}: the hub database cannot be written ({exc}): give the user running the hub write "
                    "access to the file and its folder")
        if exc.sqlite_errorcode & 0xFF in SQLITE_UNAVAILABLE:  # (a full disk, a lock held past the busy timeout)
            return f"{self.url}: cannot use the hub database: {exc}"
        return f"{self.url}: not a hub database: {exc}"

    def _refuse_another_programs(self, tx: Tx) -> list[str]:
        """A database (a PostgreSQL schema) with tables but no ``schema_migrations`` is another program's: the
        hub added its tables among them (`--db scores.sqlite3`, the player's scores beside hub.sqlite3). The tables
        of a database refused for nothing."""
        if self.dialect == "sqlite":
            names = [row[0] for row in tx.all("SELECT name FROM sqlite_master WHERE type = 'table' "
                                               "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")]
        else:
            names = [row[0] for row in tx.all("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                                               "ORDER BY tablename")]
        if names and "schema_migrations" not in names:
            shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
            raise DatabaseError(f"{display_url(self.url)}: it holds tables of another program ({shown}) and no hub "
                                "schema: name the hub's database, or an empty or new one")
        return names

    def _migration_problem(self, exc: Exception) -> str:
        """Why the hub's tables cannot be made or read in a PostgreSQL database, and what to do (the role that
        does not own the database is the common case: 'permission denied for schema public' was an internal error)."""
        import psycopg

        where = display_url(self.url)
        if isinstance(exc, psycopg.errors.ReadOnlySqlTransaction):
            return (f"{where}: the database is read-only: the hub cannot make or upgrade its tables there (a standby, or "
                    "default_transaction_read_only set): start it once on the primary, or on the database made writable")
        if isinstance(exc, psycopg.errors.InsufficientPrivilege):
            return (f"{where}: the hub cannot make its tables: {_one_line(exc, self.url).split(' LINE ')[0]}; make the URL's role "
                    "own the database (createdb -O ROLE DATABASE, or ALTER DATABASE DATABASE OWNER TO ROLE)")
        return f"{where}: cannot set up the hub's tables: {_one_line(exc, self.url).split(' LINE ')[0]}"

    def schema_version(self) -> int:
        with self.transaction() as tx:
            return tx.one("SELECT MAX(version) FROM schema_migrations")[0]


def _sqlite_held(exc: sqlite3.Error) -> bool:
    """Whether SQLite gave up waiting for a lock another connection holds (SQLITE_BUSY, SQLITE_LOCKED)."""
    return (getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF in SQLITE_HELD


def timed_out(exc: Exception, url: str) -> str | None:
    """Why PostgreSQL cancelled a statement of the database ``url`` past the hub's timeout (its statement_timeout or
    lock_timeout: a lock held, a migration under way), on one line; None for any other error."""
    psycopg = sys.modules.get("psycopg")
    if psycopg is None or not isinstance(exc, (psycopg.errors.QueryCanceled, psycopg.errors.LockNotAvailable)):
        return None
    return f"the database did not answer in time: {_one_line(exc, url).split(' CONTEXT: ')[0]}"


def _one_line(exc: Exception, url: str) -> str:
    """A driver's message on one line (libpq's run over several, with a tab-indented hint), without the password of
    ``url``: libpq repeats the whole URI in its parse errors ('... in URI: "postgresql://hub:hunter2@[::1/hub"'), where
    the hub printed the password it hides everywhere else."""
    said = str(exc).replace(url, display_url(url))
    try:
        from psycopg.conninfo import conninfo_to_dict

        password = conninfo_to_dict(url).get("password")
    except Exception:  # (a URL libpq cannot parse: its raw form, replaced above, is the one it repeats)
        password = None
    if password:
        said = said.replace(str(password), "***")
    return " ".join(said.split())


def _closed_by_server(conn: Any) -> bool:
    """Whether an idle PostgreSQL connection is closed: by psycopg, or by the server, whose last error (or end of
    stream) waits on its socket, where an idle connection in autocommit mode has nothing to read (the hub does not
    LISTEN). A look at the socket, no round trip to the server."""
    if conn.closed or conn.broken:
        return True
    # (poll, not select: select refuses a descriptor numbered 1024 or more, which a busy hub's sockets reach, and every
    # pooled connection was taken for closed)
    poller = select.poll()
    try:
        poller.register(conn.fileno(), select.POLLIN)
    except (OSError, ValueError):  # a socket already gone
        return True
    return bool(poller.poll(0))


class _Watchdog:
    """Shuts the socket of a connection whose answer is late. A server that answers nothing (frozen: SIGSTOP, a
    paused VM; its sockets open, the kernel acknowledging every byte) is noticed by neither TCP keepalives nor
    TCP_USER_TIMEOUT, and libpq waits for its answer for ever; shut, the socket ends the wait with an error. One
    thread per database, started at the first statement, looking every ``tick`` seconds while it is armed."""

    def __init__(self, tick: float) -> None:
        self._tick = tick
        self._lock = threading.Condition()
        self._armed: dict[int, tuple[float, Any]] = {}  # id(conn): (deadline, conn)
        self._fired: set[int] = set()
        self._thread: threading.Thread | None = None
        self._stopped = False

    def arm(self, conn: Any, seconds: float) -> None:
        with self._lock:
            self._armed[id(conn)] = (time.monotonic() + seconds, conn)
            if self._thread is None and not self._stopped:
                self._thread = threading.Thread(target=self._run, name="cardrogue-hub-db-watchdog", daemon=True)
                self._thread.start()
            elif len(self._armed) == 1:
                self._lock.notify()

    def disarm(self, conn: Any) -> bool:
        """Whether the watchdog shut ``conn`` since it was armed."""
        with self._lock:
            self._armed.pop(id(conn), None)
            if id(conn) in self._fired:
                self._fired.discard(id(conn))
                return True
            return False

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            self._lock.notify()

    def _run(self) -> None:
        with self._lock:
            while not self._stopped:
                now = time.monotonic()
                for key, (deadline, conn) in list(self._armed.items()):
                    if deadline <= now:
                        del self._armed[key]
                        self._fired.add(key)
                        _shut(conn)
                self._lock.wait(self._tick if self._armed else None)


def _shut(conn: Any) -> None:
    """The connection's socket shut both ways (a duplicate of its descriptor closed after: libpq keeps its own)."""
    try:
        sock = socket.fromfd(conn.fileno(), socket.AF_INET, socket.SOCK_STREAM)
    except Exception:  # (a connection psycopg closed meanwhile)
        return
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    finally:
        sock.close()


def _close_quietly(conn: Any) -> None:
    try:
        conn.close()
    except Exception:  # a broken connection is dropped either way
        pass
