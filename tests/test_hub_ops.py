"""The operator's side of a hub (docs/hub.md, Running a hub): the database going away and coming back under a
serving hub, an upgrade said when `serve` migrates, and the answers uvicorn itself writes."""

from __future__ import annotations

import json
import logging
import os
import re
import resource
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest
import uvicorn
from hub_support import call, register, running_hub, serve_in_a_process
from ports import free_port

import cardrogue.hub.db as db_module
from cardrogue.cli.main import main
from cardrogue.hub.db import MIGRATIONS, Database

UNAVAILABLE = {"error": "the hub's database is unavailable; try again later"}


def _admin(postgres):

    return psycopg.connect(postgres.url(), autocommit=True)


def _own_database(postgres, name: str) -> str:
    """A database of its own on the test server (connections to it can be refused without touching the others')."""
    with _admin(postgres) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")
    return postgres.url().removesuffix("/postgres") + f"/{name}"


def _terminate_every_connection_to(postgres, name: str) -> int:
    """What a restart of PostgreSQL (an upgrade, a failover) does to the hub's pooled connections."""
    with _admin(postgres) as conn:
        return len(conn.execute("SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE datname = %s"
                                " AND pid <> pg_backend_pid()", (name,)).fetchall())


def test_a_database_restarted_under_the_hub_costs_no_request(postgres) -> None:
    """PostgreSQL restarted while the hub serves: every connection the hub kept in its pool was dead, and the
    first request to take each one answered 503 although the database was back (walked by hand: a hub on
    `pg_ctl restart` answered its next request 503, then 200). A pooled connection the server closed is dropped
    for a new one."""
    url = _own_database(postgres, "ops_restarted")
    with running_hub(url) as app:
        token = register(app.base, "alice")
        for _ in range(3):
            assert call(app.base, "GET", "/api/maps")[0] == 200
        assert _terminate_every_connection_to(postgres, "ops_restarted") >= 1
        for path in ("/api/maps", "/api/me", "/"):
            status, body, _ = call(app.base, "GET", path, token=token)
            assert status == 200, (path, status, body)
        assert app.state.internal_errors == 0


def test_a_database_that_goes_away_is_a_503_and_the_hub_recovers_when_it_is_back(postgres, capsys) -> None:
    """docs/hub.md: 'a database that goes away turns requests into a 503'; never a 500 or a traceback page,
    with the hub's headers, on the API (JSON) and the pages (HTML); and the requests after its return answer.
    The CLI said 'the hub refused (503)' as if the request were at fault: the hub could not answer it."""
    url = _own_database(postgres, "ops_gone")
    with running_hub(url) as app:
        token = register(app.base, "alice")
        with _admin(postgres) as conn:
            conn.execute("ALTER DATABASE ops_gone WITH ALLOW_CONNECTIONS false")
        _terminate_every_connection_to(postgres, "ops_gone")
        try:
            for method, path, body in (("GET", "/api/maps", None), ("GET", "/api/me", None),
                                       ("POST", "/api/accounts", {"name": "bob"}),
                                       ("GET", "/api/maps/needle/leaderboard", None)):
                status, got, headers = call(app.base, method, path, body, token=token if "me" in path else None)
                assert (status, got) == (503, UNAVAILABLE), (path, status, got)
                assert headers["x-frame-options"] == "DENY" and "content-security-policy" in headers
            status, page, headers = call(app.base, "GET", "/")
            assert status == 503 and "database is unavailable" in page and "Traceback" not in page
            assert main(["hub", "list", "--hub", app.base]) == 75  # (EX_TEMPFAIL: try again later)
            assert capsys.readouterr().err == ("cardrogue: the hub could not answer (503): the hub's database is "
                                               "unavailable; try again in 5 s\n")
            assert headers["content-type"].startswith("text/html") and headers["x-frame-options"] == "DENY"
        finally:
            with _admin(postgres) as conn:
                conn.execute("ALTER DATABASE ops_gone WITH ALLOW_CONNECTIONS true")
        assert call(app.base, "GET", "/api/me", token=token)[1] == {"name": "alice"}
        assert call(app.base, "POST", "/api/accounts", {"name": "bob"})[0] == 201
        assert app.state.internal_errors == 0


def test_a_pooled_connection_the_server_closed_is_replaced(postgres) -> None:
    url = _own_database(postgres, "ops_pool")
    db = Database(url)
    try:
        with db.transaction() as tx:
            (before,) = tx.one("SELECT pg_backend_pid()")
        _terminate_every_connection_to(postgres, "ops_pool")
        with db.transaction() as tx:
            (after,) = tx.one("SELECT pg_backend_pid()")
        assert after != before
    finally:
        db.close()


@pytest.fixture
def serve_and_stop(monkeypatch, capsys):
    """`cardrogue hub serve --db URL` on a free port, stopped as soon as it would serve: (exit status, its output)."""
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)

    def serve(url: str) -> tuple[int, str, str]:
        code = main(["hub", "serve", "--db", url, "--port", str(free_port())])
        out, err = capsys.readouterr()
        return code, out, err

    return serve


def test_serve_says_it_upgraded_an_older_database(hub_db: str, serve_and_stop, monkeypatch) -> None:
    """An operator upgrading the hub hears that `serve` migrated the database, from which schema version to which, and
    what each migration did (it was done in silence); the data stays; an up-to-date database is said nothing of."""
    with monkeypatch.context() as older:
        older.setattr(db_module, "MIGRATIONS", db_module.MIGRATIONS[:4])
        old = Database(hub_db)
        with old.transaction(write=True) as tx:
            tx.execute("INSERT INTO accounts (name, name_key, token_hash, created_at, look_key)"
                       " VALUES ('alice', 'alice', 'a-token-hash', 0, 'alice')")
        old.close()
    latest = db_module.MIGRATIONS[-1][0]
    code, out, err = serve_and_stop(hub_db)
    assert code == 0 and err == "", err
    lines = out.splitlines()
    assert lines[0] == f"cardrogue hub: upgraded the database from schema version 4 to {latest}:", out
    assert lines[1:latest - 3] == [f"cardrogue hub:   migration {version}: {description}"
                                   for version, description, _ in db_module.MIGRATIONS[4:]], out
    assert lines[latest - 3].startswith("cardrogue hub: serving http://127.0.0.1:"), out
    db = Database(hub_db)
    try:
        with db.transaction() as tx:
            assert tx.one("SELECT COUNT(*) FROM tokens")[0] == 1  # migration 5 moved alice's token hash
    finally:
        db.close()
    code, out, _ = serve_and_stop(hub_db)
    assert code == 0 and out.startswith("cardrogue hub: serving ") and out.count("\n") == 1, out


def test_serve_shows_a_migrations_notes_as_text(hub_db: str, serve_and_stop, monkeypatch) -> None:
    """A migration's notes quote what the database held (migration 8: a stored replay's verdict, whose text came from
    a stranger): `serve` printed them raw, so a terminal escape in one reached the operator's terminal (review25b)."""
    Database(hub_db).close()
    latest = db_module.MIGRATIONS[-1][0]
    hostile = "a verdict \x1b[2J\x1b]0;pwned\x07 \u202e"
    monkeypatch.setattr(db_module, "MIGRATIONS", db_module.MIGRATIONS + ((latest + 1, "a note", (lambda tx: [hostile],)),))
    code, out, err = serve_and_stop(hub_db)
    assert code == 0 and err == "", err
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out, repr(out)
    assert "cardrogue hub:   a verdict " in out, out


def test_serve_says_it_made_the_tables_of_a_new_database(hub_db: str, serve_and_stop) -> None:
    """A database the operator took for the hub's that holds no hub (a copy of hub.sqlite3 made while the hub served,
    without its -wal file, has no table at all): `serve` says it made the tables, so an empty hub is no surprise."""
    code, out, _ = serve_and_stop(hub_db)
    assert code == 0 and out.splitlines()[0] == (f"cardrogue hub: a new database: made the hub's tables (schema version "
                                                 f"{MIGRATIONS[-1][0]})"), out


def test_the_operators_revoke_never_upgrades_the_database_under_an_older_hub(hub_db: str, monkeypatch, capsys) -> None:
    """The operator installed a new version and ran `hub revoke` before restarting the hub: revoke migrated the
    database under the older hub still serving it (walked: after migration 5 an older process answers 401 to every
    token). It refuses an older database, naming the upgrade to run, and changes nothing; and a database with no
    hub in it (an empty PostgreSQL database) is no hub's, as a missing SQLite file is: no tables made."""
    if hub_db.startswith("postgresql://"):
        code = main(["hub", "revoke", "alice", "--db", hub_db])
        _, err = capsys.readouterr()
        assert code == 2 and "no hub database there" in err and err.count("\n") == 1, err

        with psycopg.connect(hub_db, autocommit=True) as conn:
            assert conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()").fetchall() == []
    with monkeypatch.context() as older:
        older.setattr(db_module, "MIGRATIONS", db_module.MIGRATIONS[:4])
        Database(hub_db).close()
    code = main(["hub", "revoke", "alice", "--db", hub_db])
    _, err = capsys.readouterr()
    latest = db_module.MIGRATIONS[-1][0]
    assert code == 2 and err.count("\n") == 1, err
    assert (f"the database has schema version 4, older than this hub's ({latest}): stop the older hub, then start "
            "`cardrogue hub serve` of this version on it, which upgrades it") in err, err
    if hub_db.startswith("postgresql://"):

        with psycopg.connect(hub_db, autocommit=True) as conn:
            versions = [v for (v,) in conn.execute("SELECT version FROM schema_migrations ORDER BY version")]
    else:

        with sqlite3.connect(hub_db) as conn:
            versions = [v for (v,) in conn.execute("SELECT version FROM schema_migrations ORDER BY version")]
    assert versions == [1, 2, 3, 4]  # (read raw: a Database opened to look would upgrade it)


def _raw(port: int, request: bytes) -> bytes:
    """What the server answers one request sent as these very bytes, to the end of the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
        conn.sendall(request)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    return answer


MALFORMED = [
    b"GET / HTTP/1.1\r\nHost: hub\r\nA header without a colon\r\n\r\n",
    b"NOT HTTP AT ALL\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: hub\r\nContent-Length: many\r\n\r\n",
    b"GET /\xff HTTP/1.1\r\nHost: hub\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: hub\r\nHost: other\r\n\r\n",
]


def test_a_malformed_request_is_answered_with_the_hubs_headers_and_a_json_reason(tmp_path) -> None:
    """uvicorn answers a request it cannot parse itself, before the application sees it: its 400 ('Invalid HTTP
    request received.', text/plain) carried none of the headers every other answer of the hub carries (the CSP,
    X-Frame-Options, nosniff, no-referrer), nor the hub's JSON form of a refusal. `hub serve` runs uvicorn with
    the hub's own HTTP protocol (hub/server.py), which writes that 400 as the hub's."""
    port = free_port()
    server = serve_in_a_process(str(tmp_path / "hub.sqlite3"), port)
    try:
        for request in MALFORMED:
            head, _, body = _raw(port, request).partition(b"\r\n\r\n")
            status, *lines = head.decode("latin-1").split("\r\n")
            headers = {name.lower(): value for name, _, value in (line.partition(": ") for line in lines)}
            assert status == "HTTP/1.1 400 Bad Request", (request, head)
            assert headers["content-security-policy"].startswith("default-src 'none'"), (request, headers)
            assert headers["x-frame-options"] == "DENY" and headers["x-content-type-options"] == "nosniff", headers
            assert headers["referrer-policy"] == "no-referrer" and headers["cache-control"] == "no-store", headers
            assert headers["content-type"] == "application/json" and headers["connection"] == "close", headers
            assert int(headers["content-length"]) == len(body), headers
            assert json.loads(body) == {"error": "malformed HTTP request: the hub cannot read it"}, body
    finally:
        server.terminate()
        out = server.communicate(timeout=30)[0].decode()
    assert "Traceback" not in out, out


@pytest.mark.parametrize("url", ["postgresql:/hub:pw@db.example/hub", "postgres:hub@db.example/hub",
                                 "postgresql//hub:pw@db.example/hub", "sqlite:/srv/hub.sqlite3"])
def test_a_database_url_missing_its_slashes_is_said_as_a_url(url: str, serve_and_stop, tmp_path, monkeypatch,
                                                             capsys) -> None:
    """`--db postgresql:/hub...` (a slash short) was taken for a SQLite path and refused as 'the folder postgresql:
    does not exist', its password printed: it is said as a URL the hub cannot read, exit 2, the password hidden; by
    `revoke` too, which printed the URL as given ('postgresql:/hub:pw@...: no hub database there')."""
    monkeypatch.chdir(tmp_path)
    code, out, err = serve_and_stop(url)
    assert code == 2 and "serving" not in out and "folder" not in err and "pw" not in err, err
    assert "is not a database URL the hub reads: write postgresql://user:password@host[:port]/database" in err, err
    assert main(["hub", "revoke", "alice", "--db", url]) == 2
    out, err = capsys.readouterr()
    assert "pw" not in out + err and "is not a database URL the hub reads" in err, err
    assert list(tmp_path.iterdir()) == []


def test_the_operators_revoke_makes_no_file_of_a_sqlite_url(tmp_path, monkeypatch, capsys) -> None:
    """`hub revoke --db sqlite:///nohub.sqlite3`: the URL was tested as a file path (never one), so the check that a
    SQLite database is there was passed over, and opening it left an empty nohub.sqlite3 behind."""
    monkeypatch.chdir(tmp_path)
    for url in ("sqlite:///nohub.sqlite3", f"sqlite:///{tmp_path}/nohub.sqlite3"):
        assert main(["hub", "revoke", "alice", "--db", url]) == 2
        out, err = capsys.readouterr()
        assert "no hub database there" in err and err.count("\n") == 1, err
    assert list(tmp_path.iterdir()) == []


def test_a_postgresql_database_that_does_not_exist_is_said_on_one_line(postgres, serve_and_stop) -> None:
    """The operator's `createdb` forgotten or the name mistyped: PostgreSQL's reason, on one line, exit 2."""
    url = postgres.url().removesuffix("/postgres") + "/ops_never_made"
    code, out, err = serve_and_stop(url)
    assert code == 2 and "serving" not in out and err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith("cardrogue: postgresql://postgres@127.0.0.1:") and 'database "ops_never_made" does not exist' in err


def test_the_sqlite_backup_written_in_the_docs_copies_a_serving_hub(tmp_path) -> None:
    """docs/hub.md, *Backups*: the one-line online backup, run as written while the hub serves, holds the account just
    made, which a copy of hub.sqlite3 alone (its -wal left behind) does not."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "hub.md").read_text(encoding="utf-8")
    section = text[text.index("### Backups"):text.index("### When the database goes away")]
    (line,) = re.findall(r"`(python3 -c \"import sqlite3.*?)`", section)
    program = re.fullmatch(r'python3 -c "(.*)" /srv/hub/hub\.sqlite3 /backups/hub\.sqlite3', line).group(1)
    live, backup, copy = tmp_path / "hub.sqlite3", tmp_path / "backup.sqlite3", tmp_path / "copy.sqlite3"
    with running_hub(str(live)) as app:
        register(app.base, "alice")
        subprocess.run([sys.executable, "-c", program, str(live), str(backup)], check=True, timeout=60)
        shutil.copyfile(live, copy)
    with sqlite3.connect(backup) as conn:
        assert conn.execute("SELECT name FROM accounts").fetchall() == [("alice",)]
    with sqlite3.connect(copy) as conn:
        assert "accounts" not in {name for (name,) in conn.execute("SELECT name FROM sqlite_master")}


def test_a_hub_stopped_by_sigterm_closes_its_database_first(tmp_path) -> None:
    """systemd, `kill` and `docker stop` stop a hub with SIGTERM. uvicorn shut down, then raised the signal again,
    which killed the process before `serve` closed its database: a SQLite hub left its latest writes in
    hub.sqlite3-wal, and a copy of hub.sqlite3 taken from the stopped hub (docs/hub.md, Backups) held no table. Now
    the database is closed first; the process still ends by SIGTERM, as uvicorn ends it, for the process manager."""
    live, port = tmp_path / "hub.sqlite3", free_port()
    server = serve_in_a_process(str(live), port)
    try:
        register(f"http://127.0.0.1:{port}", "alice")
        server.send_signal(signal.SIGTERM)
        out = server.communicate(timeout=60)[0].decode()
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert server.returncode == -signal.SIGTERM and "Traceback" not in out, (server.returncode, out)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["hub.sqlite3"], list(tmp_path.iterdir())
    with sqlite3.connect(live) as conn:
        assert conn.execute("SELECT name FROM accounts").fetchall() == [("alice",)]


def test_serve_refuses_a_database_a_newer_hub_migrated_and_says_how_to_go_back(hub_db: str, serve_and_stop) -> None:
    """A hub rolled back to an older version after a newer one migrated the database (docs/hub.md, Upgrading the hub):
    refused rather than misread, exit 2, on one line; it said 'upgrade the hub', though the operator going back had
    just left the newer one: it names the restore of the backup too. The database is left as it was."""
    latest = MIGRATIONS[-1][0]
    db = Database(hub_db)
    with db.transaction(write=True) as tx:
        tx.execute("INSERT INTO schema_migrations VALUES (?, ?, ?)", (latest + 1, "from a newer hub", time.time()))
    db.close()
    code, out, err = serve_and_stop(hub_db)
    assert code == 2 and "serving" not in out and err.count("\n") == 1, (out, err)
    assert (f"the database has schema version {latest + 1}, newer than this hub knows ({latest}): run a hub of that "
            "version or newer, or restore the backup made before the upgrade") in err, err
    db_again = None
    try:

        with pytest.MonkeyPatch.context() as newer:
            newer.setattr(db_module, "MIGRATIONS", (*MIGRATIONS, (latest + 1, "from a newer hub", ())))
            db_again = Database(hub_db)
            assert db_again.applied == [] and db_again.schema_version() == latest + 1
    finally:
        if db_again is not None:
            db_again.close()


def test_a_password_given_as_a_url_parameter_is_never_shown(postgres, serve_and_stop) -> None:
    """libpq takes the password as a parameter of the URL too (`?password=...`): `serve` printed it in its first line,
    which goes to the log, and in its refusals; only a password before the '@' was hidden."""
    code, out, err = serve_and_stop(postgres.fresh_url() + "&password=hunter2")
    assert code == 0 and "hunter2" not in out + err and "&password=***" in out, out
    code, out, err = serve_and_stop("postgresql://nobody@127.0.0.1:9/none?password=hunter2&connect_timeout=5")
    assert code == 2 and "hunter2" not in out + err and "?password=***&connect_timeout=5" in err, err


def test_a_sqlite_database_locked_past_the_busy_timeout_is_a_503(tmp_path, monkeypatch) -> None:
    """The operator's own `sqlite3 hub.sqlite3` left in a write transaction (or any program holding the lock): a write
    waited the busy timeout, then answered 500 'internal error' with a traceback in the log (docs/hub.md: a 500
    would be a bug). It is the database being unavailable: a 503 with the reason in the log; and the hub writes again
    once the lock is let go."""
    monkeypatch.setattr(db_module, "BUSY_TIMEOUT_S", 0.5)
    url = str(tmp_path / "hub.sqlite3")
    with running_hub(url) as app:
        holder = sqlite3.connect(url, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            status, body, headers = call(app.base, "POST", "/api/accounts", {"name": "alice"})
            assert (status, body) == (503, UNAVAILABLE) and headers["x-frame-options"] == "DENY", (status, body)
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert call(app.base, "POST", "/api/accounts", {"name": "alice"})[0] == 201
        assert app.state.internal_errors == 0


def test_a_full_disk_under_a_sqlite_hub_is_a_503_and_stores_nothing(tmp_path, monkeypatch) -> None:
    """A full disk (walked on a 400 KiB tmpfs: every registration answered 500 'internal error', a traceback each
    in the log): 'database or disk is full' is the database being unavailable, a 503; nothing is half stored,
    and the hub writes again once there is room. (SQLite's page limit stands in for the full disk here.)"""
    url = str(tmp_path / "hub.sqlite3")
    Database(url).close()  # the hub's tables, made before the disk fills
    opened, full = [], [True]
    connect = sqlite3.connect

    def connect_to_a_full_disk(*args, **kwargs):
        conn = connect(*args, **kwargs)
        if full[0]:
            (pages,) = conn.execute("PRAGMA page_count").fetchone()
            conn.execute(f"PRAGMA max_page_count = {pages}")
            opened.append(conn)
        return conn

    monkeypatch.setattr(sqlite3, "connect", connect_to_a_full_disk)
    with running_hub(url) as app:
        for i in range(500):
            status, body, _ = call(app.base, "POST", "/api/accounts", {"name": f"player{i}"})
            if status != 201:
                break
        assert (status, body) == (503, UNAVAILABLE), (i, status, body)
        assert app.state.internal_errors == 0
        full[0] = False
        for conn in opened:  # room again (on the connections the hub keeps; it closed the ones that failed)
            try:
                conn.execute("PRAGMA max_page_count = 1000000")
            except sqlite3.ProgrammingError:
                pass
        assert call(app.base, "POST", "/api/accounts", {"name": f"player{i}"})[0] == 201  # nothing of it was kept


def test_a_postgresql_database_that_takes_no_writes_is_a_503_for_writes_alone(postgres) -> None:
    """A database that reads but takes no write (a standby the hub reached after a failover, or one set read-only
    for maintenance: `default_transaction_read_only`): a registration answered 500 'internal error'. It is a 503
    for the writes, the reads go on, and the writes come back with the database's writes."""
    url = _own_database(postgres, "ops_read_only")
    with running_hub(url) as app:
        assert call(app.base, "POST", "/api/accounts", {"name": "alice"})[0] == 201
        with _admin(postgres) as conn:
            conn.execute("ALTER DATABASE ops_read_only SET default_transaction_read_only = on")
        _terminate_every_connection_to(postgres, "ops_read_only")
        try:
            assert call(app.base, "POST", "/api/accounts", {"name": "bob"})[:2] == (503, UNAVAILABLE)
            assert call(app.base, "GET", "/api/maps")[0] == 200
        finally:
            with _admin(postgres) as conn:
                conn.execute("ALTER DATABASE ops_read_only RESET default_transaction_read_only")
            _terminate_every_connection_to(postgres, "ops_read_only")
        assert call(app.base, "POST", "/api/accounts", {"name": "bob"})[0] == 201
        assert app.state.internal_errors == 0


def test_a_client_that_hangs_up_before_its_body_is_sent_is_no_internal_error(tmp_path, caplog, request) -> None:
    """Ctrl+C during `hub publish` of a large map, a dropped connection, a malformed chunk mid-body (answered 400 by
    uvicorn, which then closes): the request's body stops coming and the hub was told the client is gone
    (Starlette's ClientDisconnect), which it logged as an internal error, a traceback (twice: its own and uvicorn's)
    counted among the 500s. Nobody is left to answer; the hub's log says the client went away, in one line, at INFO
    (which `hub serve` does not print: its log shows the hub's warnings and errors)."""
    with running_hub(str(tmp_path / "hub.sqlite3")) as app:
        port = int(app.base.rsplit(":", 1)[1])
        caplog.set_level(logging.INFO)
        # (uvicorn's loggers do not propagate to the root logger, where caplog listens: its records, the tracebacks
        # this test is about among them, are caught at uvicorn's logger itself)
        uvicorn_logger = logging.getLogger("uvicorn")
        uvicorn_logger.addHandler(caplog.handler)
        request.addfinalizer(lambda: uvicorn_logger.removeHandler(caplog.handler))
        for sent, rest in (
                (b"POST /api/accounts HTTP/1.1\r\nHost: hub\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 100\r\n\r\n{\"name\":", b""),
                (b"POST /api/accounts HTTP/1.1\r\nHost: hub\r\nContent-Type: application/json\r\n"
                 b"Transfer-Encoding: chunked\r\n\r\n5\r\n{\"nam\r\n", b"not a chunk size\r\n")):
            with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
                conn.sendall(sent)
                if rest:
                    conn.sendall(rest)
                    conn.recv(65536)
        deadline = time.monotonic() + 10
        while sum("client went away" in r.getMessage() for r in caplog.records) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert app.state.internal_errors == 0
        assert call(app.base, "POST", "/api/accounts", {"name": "alice"})[0] == 201
    said = [r.getMessage() for r in caplog.records if r.name.startswith(("cardrogue.hub", "uvicorn"))]
    assert "Invalid HTTP request received." in said, said  # (uvicorn's own, of the malformed chunk: its log is seen)
    assert not any(r.exc_info for r in caplog.records) and not any("Exception" in line for line in said), said
    assert [line for line in said if "client went away" in line] == [
        "POST /api/accounts: the client went away before its request was read",
        "POST /api/accounts: the client went away before its request was read"], said


@pytest.mark.parametrize("url", ["postgresql://hub:hunter2@[::1/hub", "postgresql://hub:hunter%32@[::1/hub",
                                 "postgresql://hub@[::1/hub?password=hunter2"])
def test_a_url_libpq_cannot_parse_is_said_without_its_password(url: str, serve_and_stop, capsys) -> None:
    """libpq repeats the whole URI in its parse errors ('... in URI: "postgresql://hub:hunter2@[::1/hub"'): `serve`
    and `revoke` printed the password the hub hides everywhere else (docs/hub.md: the hub never prints a password)."""
    code, out, err = serve_and_stop(url)
    assert code == 2 and "hunter" not in out + err and "IPv6 host address" in err and "***" in err, err
    assert main(["hub", "revoke", "alice", "--db", url]) == 2
    out, err = capsys.readouterr()
    assert "hunter" not in out + err and "IPv6 host address" in err, err


def test_the_pool_reuses_its_connections_when_the_process_holds_many_files(postgres) -> None:
    """A busy hub holds a socket per client: once the process had a descriptor numbered 1024 or more, select.select
    refused the pooled connection's (ValueError), which was taken for a closed connection, and every transaction
    connected anew."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        raise AssertionError(f"the test needs 1200 open files; the limit is {hard}")
    wanted = 4096 if hard == resource.RLIM_INFINITY else min(4096, hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), hard))
    filler = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]
    db = Database(postgres.fresh_url())
    try:
        pids = set()
        for _ in range(3):
            with db.transaction() as tx:
                pids.add(tx.one("SELECT pg_backend_pid()")[0])
        assert len(pids) == 1, pids
    finally:
        db.close()
        for fd in filler:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_read_only_postgresql_database_serves_and_one_to_upgrade_is_said_read_only(postgres, serve_and_stop,
                                                                                    monkeypatch) -> None:
    """A standby, or a database set read-only for maintenance (`default_transaction_read_only`): the hub did not start,
    'cannot set up the hub's tables: cannot execute CREATE TABLE in a read-only transaction', though its tables were
    all there (the CREATE TABLE IF NOT EXISTS of schema_migrations ran at every start). A database whose schema is
    current serves (reads answer, writes are 503s); one the hub must make or upgrade is said read-only, plainly."""
    current, older = _own_database(postgres, "ops_ro_current"), _own_database(postgres, "ops_ro_older")
    Database(current).close()
    with monkeypatch.context() as old_hub:
        old_hub.setattr(db_module, "MIGRATIONS", MIGRATIONS[:4])
        Database(older).close()
    new = _own_database(postgres, "ops_ro_new")
    with _admin(postgres) as conn:
        for name in ("ops_ro_current", "ops_ro_older", "ops_ro_new"):
            conn.execute(f"ALTER DATABASE {name} SET default_transaction_read_only = on")
    code, out, err = serve_and_stop(current)
    assert code == 0 and "serving" in out and err == "", (out, err)
    for url in (older, new):
        code, out, err = serve_and_stop(url)
        assert code == 2 and "serving" not in out and err.count("\n") == 1, (out, err)
        assert "the database is read-only: the hub cannot make or upgrade its tables there" in err, err


def test_a_malformed_head_request_is_answered_400_without_a_body(tmp_path) -> None:
    """A HEAD request whose body cannot be read (a malformed chunk) got no answer at all: h11 refuses a body on the
    answer to a HEAD, and that refusal dropped the 400 already made. The status and the hub's headers are sent, no body
    (a HEAD's answer has none)."""
    with running_hub(str(tmp_path / "hub.sqlite3")) as app:
        port = int(app.base.rsplit(":", 1)[1])
        answer = _raw(port, b"HEAD /api/maps HTTP/1.1\r\nHost: hub\r\nContent-Type: application/json\r\n"
                            b"Transfer-Encoding: chunked\r\n\r\nzz\r\n")
    head, _, body = answer.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value for name, _, value in (line.partition(": ") for line in lines)}
    assert status == "HTTP/1.1 400 Bad Request" and body == b"", answer
    assert headers["x-frame-options"] == "DENY" and headers["connection"] == "close", headers


@pytest.mark.parametrize("url", ["postgresql://hub@db.example/hub?%70assword=hunter2",
                                 "postgresql://hub@db.example/hub?sslmode=require&pass%77ord=hunter2",
                                 "postgresql://hub@db.example/hub?%70%61%73%73%77%6f%72%64=hunter2&connect_timeout=5"])
def test_a_password_parameter_with_a_percent_encoded_name_is_hidden(url: str) -> None:
    """libpq decodes a parameter's name as it decodes its value: `?%70assword=...` is the password, which display_url
    (for the banner, the log and every refusal) matched by its name as typed and left shown."""
    shown = db_module.display_url(url)
    assert "hunter2" not in shown and "=***" in shown, shown
    assert psycopg.conninfo.conninfo_to_dict(url)["password"] == "hunter2"  # (what libpq reads it as)


@pytest.mark.parametrize("new_token", [False, True])
def test_revoke_on_a_read_only_postgresql_database_fails_plainly_and_changes_nothing(postgres, capsys,
                                                                                    new_token) -> None:
    """`hub revoke NAME` on a database set read-only (`default_transaction_read_only`) where the account exists: the
    write is refused; the command says so in plain words, exits non-zero, and the player's tokens are all kept."""
    from cardrogue.hub.service import Hub

    name = f"ops_ro_revoke_{int(new_token)}"
    url = _own_database(postgres, name)
    db = Database(url)
    try:
        Hub(db).register("alice")
    finally:
        db.close()
    with _admin(postgres) as conn:
        conn.execute(f"ALTER DATABASE {name} SET default_transaction_read_only = on")
    capsys.readouterr()
    code = main(["hub", "revoke", "alice", "--db", url, *(["--new-token"] if new_token else [])])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "Traceback" not in err and err.count("\n") == 1, (code, out, err)
    assert "internal error" not in err and "the database is read-only" in err and "nothing was revoked" in err, err
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT count(*) FROM tokens").fetchone()[0] == 1


def _answers_within(seconds: float, requests: list) -> list:
    """Each ``call(*args)`` of ``requests`` sent at once; their answers, or an AssertionError when one has not come
    within ``seconds`` (a generous bound: no assert on how fast)."""
    from concurrent.futures import ThreadPoolExecutor, wait

    pool = ThreadPoolExecutor(max_workers=len(requests))
    try:
        futures = [pool.submit(call, *args) for args in requests]
        done, pending = wait(futures, timeout=seconds)
        assert not pending, f"{len(pending)} of {len(requests)} requests had no answer within {seconds:g} s"
        return [f.result() for f in futures]
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def test_a_frozen_postgresql_is_a_503_with_retry_after_and_the_hub_serves_again_once_it_continues() -> None:
    """PostgreSQL frozen (SIGSTOP on the postmaster and its backends: alive, its sockets open, never answering; what a
    hung server or a VM paused under the hub looks like): a request hung on its pooled connection for ever, and once
    the pool's 8 connections hung, every request after them waited for one, listings and pages too. Every wait for the
    database is bounded now (docs/hub.md, When the database goes away): a 503 with the JSON reason and Retry-After,
    for requests on a pooled connection, on a new one and waiting for one; nothing half stored; and after SIGCONT the
    hub serves again, without a restart. The server is this test's own: no other test meets it frozen. The hub
    waits a database timeout of 1 s (as `serve --db-timeout 1` sets): the default 5 s made the waits 27 s."""
    from pgserver import PostgresServer

    server = PostgresServer().start()
    try:
        url = server.fresh_url()
        with running_hub(Database(url, timeout=1.0)) as app:
            token = register(app.base, "alice")
            for _ in range(3):
                assert call(app.base, "GET", "/api/maps")[0] == 200
            server.freeze()
            try:
                # a pooled connection, then new ones (the pooled one was dropped), then more requests than connections
                for requests in ([(app.base, "GET", "/api/maps")],
                                 [(app.base, "POST", "/api/accounts", {"name": "bob"})],
                                 [(app.base, "GET", "/api/me", None, token)] * 12):
                    for status, body, headers in _answers_within(120, requests):
                        assert (status, body) == (503, UNAVAILABLE), (requests[0], status, body)
                        assert int(headers["retry-after"]) >= 1 and headers["x-frame-options"] == "DENY", headers
                status, page, headers = _answers_within(120, [(app.base, "GET", "/")])[0]
                assert status == 503 and "database is unavailable" in page and "retry-after" in headers
            finally:
                server.thaw()
            deadline = time.monotonic() + 60
            while (answer := call(app.base, "GET", "/api/me", token=token))[0] != 200 and time.monotonic() < deadline:
                time.sleep(0.5)
            assert answer[:2] == (200, {"name": "alice"}), answer
            assert call(app.base, "POST", "/api/accounts", {"name": "bob"})[0] == 201  # nothing of the 503 was kept
            assert app.state.internal_errors == 0
    finally:
        server.stop()


def test_a_lock_held_on_postgresql_past_the_timeout_is_a_503_and_nothing_waits_for_ever(postgres) -> None:
    """An operator's `psql` left inside a transaction that locks the hub's tables (a `LOCK TABLE`, an `ALTER TABLE`
    under way, a `SELECT ... FOR UPDATE` forgotten): every request reading them waited for the lock for ever, with
    no bound on PostgreSQL's side (lock_timeout and statement_timeout are off by default). The hub sets both to its
    database timeout (5 s by default, `serve --db-timeout`): a 503 with Retry-After, and served again once the lock
    is let go. (The hub here waits 1 s, as `serve --db-timeout 1` sets, not the default 5.)"""
    url = _own_database(postgres, "ops_locked")
    with running_hub(Database(url, timeout=1.0)) as app:
        token = register(app.base, "alice")
        holder = psycopg.connect(url)  # (a transaction left open: psycopg begins one at the first statement)
        try:
            holder.execute("LOCK TABLE accounts IN ACCESS EXCLUSIVE MODE")
            for status, body, headers in _answers_within(120, [(app.base, "GET", "/api/me", None, token),
                                                               (app.base, "POST", "/api/accounts", {"name": "bob"})]):
                assert (status, body) == (503, UNAVAILABLE) and headers["retry-after"] == "5", (status, body, headers)
        finally:
            holder.rollback()
            holder.close()
        assert call(app.base, "GET", "/api/me", token=token)[:2] == (200, {"name": "alice"})
        assert call(app.base, "POST", "/api/accounts", {"name": "bob"})[0] == 201
        assert app.state.internal_errors == 0


def test_serve_takes_its_database_timeout_from_db_timeout(hub_db: str, serve_and_stop, monkeypatch) -> None:
    """`serve --db-timeout S` bounds every wait for the database (docs/hub.md, Running a hub); a bound that is no
    positive number of seconds up to an hour is refused at the start, exit 2, before the database is opened."""
    made = []
    real = db_module.Database

    class Recorded(real):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self.timeout)

    monkeypatch.setattr(db_module, "Database", Recorded)
    code, out, err = serve_and_stop(hub_db)
    assert code == 0 and made == [5.0], (made, err)
    for bad in ("0", "-1", "nan", "inf", "3601"):
        code = main(["hub", "serve", "--db", hub_db, "--port", str(free_port()), "--db-timeout", bad])
        assert code == 2 and made == [5.0], bad
    assert main(["hub", "serve", "--db", hub_db, "--port", str(free_port()), "--db-timeout", "1.5"]) == 0
    assert made == [5.0, 1.5]


def test_a_short_database_timeout_bounds_a_statement_and_the_wait_for_a_connection(postgres) -> None:
    """Database(timeout=S): a statement waiting on a lock is cancelled by the server after S (the connection kept for
    the next), and with every pooled connection taken, the next transaction waits S for one, then fails as the
    database being unavailable (DatabaseError: a 503), never for ever."""
    url = _own_database(postgres, "ops_short_timeout")
    Database(url).close()
    db = Database(url, pool_size=1, timeout=1.0)
    holder = psycopg.connect(url)
    try:
        holder.execute("LOCK TABLE accounts IN ACCESS EXCLUSIVE MODE")
        with pytest.raises(psycopg.OperationalError, match="lock timeout|statement timeout"):
            with db.transaction() as tx:
                tx.one("SELECT COUNT(*) FROM accounts")
        holder.rollback()
        with db.transaction() as tx:
            with pytest.raises(db_module.DatabaseError, match="no connection to the database free within 1 s"):
                with db.transaction():
                    pass
            assert tx.one("SELECT COUNT(*) FROM accounts") == (0,)
    finally:
        holder.close()
        db.close()


def _dripped(port: int, first: bytes, drip: bytes | None, bound: float = 60.0) -> bytes:
    """What the hub answers a connection that sends ``first``, then ``drip`` every 0.2 s, until it is closed (within
    ``bound``: an AssertionError past it)."""
    deadline = time.monotonic() + bound
    with socket.create_connection(("127.0.0.1", port), timeout=bound) as conn:
        conn.sendall(first)
        conn.settimeout(0.2)
        answer = b""
        while time.monotonic() < deadline:
            try:
                chunk = conn.recv(65536)
            except socket.timeout:
                if drip:
                    try:
                        conn.sendall(drip)
                    except OSError:  # (closed by the hub meanwhile: its answer is read next)
                        drip = None
                continue
            except ConnectionResetError:
                return answer
            if not chunk:
                return answer
            answer += chunk
    raise AssertionError(f"the connection was still open after {bound:g} s: {answer[:200]!r}")


def test_a_request_head_sent_slowly_or_never_is_cut_off(tmp_path, monkeypatch) -> None:
    """uvicorn bounds no request head: a connection that sends nothing, or a head a header line at a time (slowloris),
    was held open for ever (walked: still open after 40 s, and a few thousand such connections take every descriptor
    the process may open). The hub's protocol gives a head HEAD_SECONDS (30) to arrive, from the connection or from
    the end of the answer before it on the same connection: a connection that sent nothing is closed, one mid-head is
    answered 408 with the hub's headers and a JSON reason, then closed; a head that arrives in time is served."""
    import cardrogue.hub.server as server_module

    monkeypatch.setattr(server_module, "HEAD_SECONDS", 1.0)
    with running_hub(str(tmp_path / "hub.sqlite3")) as app:
        port = int(app.base.rsplit(":", 1)[1])
        assert _dripped(port, b"", None) == b""
        ask = b"GET /api/maps HTTP/1.1\r\nHost: hub\r\n"
        for first in (ask, ask + b"\r\n" + ask):  # (the second: a head dripped after an answer on the same connection)
            answer = _dripped(port, first, b"X-Slow: 1\r\n")
            *before, last = answer.split(b"HTTP/1.1 ")
            assert len(before) == first.count(b"GET"), answer
            head, _, body = last.partition(b"\r\n\r\n")
            status, *lines = head.decode("latin-1").split("\r\n")
            headers = {name.lower(): value for name, _, value in (line.partition(": ") for line in lines)}
            assert status == "408 Request Timeout", answer
            assert headers["x-frame-options"] == "DENY" and headers["connection"] == "close", headers
            assert json.loads(body) == {"error": "the request's head did not arrive within 1 s"}, body
        # a head dripped within the bound is served (a bound far above the drip's 0.4 s: a loaded machine's)
        monkeypatch.setattr(server_module, "HEAD_SECONDS", 20.0)
        with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
            for line in (b"GET /api/maps HTTP/1.1\r\n", b"Host: hub\r\n", b"Connection: close\r\n", b"\r\n"):
                conn.sendall(line)
                time.sleep(0.1)
            assert _read_all(conn).startswith(b"HTTP/1.1 200 OK\r\n")
        assert app.state.internal_errors == 0


def _read_all(conn: socket.socket) -> bytes:
    answer = b""
    while chunk := conn.recv(65536):
        answer += chunk
    return answer


def test_pipelined_requests_are_answered_past_the_bound_on_a_head(tmp_path, monkeypatch) -> None:
    """Requests pipelined on one connection (the second sent before the first is answered) are each answered, the bound
    on a head's arrival (HEAD_SECONDS) not cutting the second, whose head had arrived, however long it runs."""
    import cardrogue.hub.server as server_module

    monkeypatch.setattr(server_module, "HEAD_SECONDS", 0.5)
    with running_hub(str(tmp_path / "hub.sqlite3")) as app:
        port = int(app.base.rsplit(":", 1)[1])
        slow = app.state.hub.list_maps

        def list_maps_slowly(*args):
            time.sleep(1.5)
            return slow(*args)

        monkeypatch.setattr(app.state.hub, "list_maps", list_maps_slowly)
        with socket.create_connection(("127.0.0.1", port), timeout=60) as conn:
            conn.sendall(b"GET /api/maps HTTP/1.1\r\nHost: hub\r\n\r\n"
                         b"GET /api/maps HTTP/1.1\r\nHost: hub\r\nConnection: close\r\n\r\n")
            answer = _read_all(conn)
        assert answer.count(b"HTTP/1.1 200 OK\r\n") == 2 and b"408" not in answer, answer


def test_a_crowd_of_submissions_waits_a_bounded_time_for_a_thread(tmp_path) -> None:
    """Publishes and submissions run on threads of their own (max(8, 4 x workers)), each waiting at most busy_seconds
    for a worker slot there; a request beyond those threads waited for one of them without a bound (walked: with the
    threads held, the ninth submission waited as long as they were held). It waits busy_seconds at most for a thread
    too, then is answered 503 'busy' with Retry-After, as one waiting for a worker is."""
    import threading
    from dataclasses import replace

    from hub_support import FAST

    with running_hub(str(tmp_path / "hub.sqlite3"), replace(FAST, busy_seconds=1.0)) as app:
        token = register(app.base, "alice")
        held, inside, lock = threading.Event(), [0], threading.Lock()

        def submit_held(*args):
            with lock:
                inside[0] += 1
            held.wait(120)
            raise AssertionError("released")

        app.state.hub.submit = submit_held
        threads = max(8, 4 * FAST.workers)
        holders = [threading.Thread(target=call, args=(app.base, "POST", "/api/maps/needle/runs", None, token,
                                                       b'{"actions": []}')) for _ in range(threads)]
        try:
            for holder in holders:
                holder.start()
            deadline = time.monotonic() + 60
            while inside[0] < threads and time.monotonic() < deadline:
                time.sleep(0.05)
            assert inside[0] == threads, inside
            status, body, headers = _answers_within(60, [(app.base, "POST", "/api/maps/needle/runs", None, token,
                                                          b'{"actions": []}')])[0]
            assert status == 503 and "busy" in body["error"] and headers["retry-after"] == "5", (status, body)
            assert inside[0] == threads  # (refused before it took a thread)
            assert call(app.base, "GET", "/api/maps")[0] == 200  # listings never wait for these threads
        finally:
            held.set()
            for holder in holders:
                holder.join(60)


@pytest.mark.parametrize("how", ["removed", "replaced"])
def test_a_sqlite_file_removed_or_replaced_under_the_hub_is_a_503_not_lost_writes(tmp_path, how) -> None:
    """Walked: hub.sqlite3 (and its -wal and -shm) removed while the hub served, or a backup put in its place (docs/hub.md
    says to stop the hub first): the pooled connection kept the old file open, and eleven registrations were
    answered 201 into a file no longer in any folder, lost when the hub stopped. The hub checks the file is still the
    one it opened before each transaction: a 503 naming what happened (nothing written, no new file made), and the
    hub serves again once the file is back."""
    live = tmp_path / "hub.sqlite3"
    with running_hub(str(live)) as app:
        register(app.base, "alice")
        aside = tmp_path / "aside.sqlite3"
        if how == "removed":
            os.rename(live, aside)
            for extra in ("-wal", "-shm"):
                if Path(f"{live}{extra}").exists():
                    os.rename(f"{live}{extra}", f"{aside}{extra}")
        else:
            subprocess.run([sys.executable, "-c", "import sqlite3, sys; sqlite3.connect(sys.argv[1]).backup("
                            "sqlite3.connect(sys.argv[2]))", str(live), str(aside)], check=True, timeout=60)
            os.replace(aside, live)
        for method, path, body in (("POST", "/api/accounts", {"name": "bob"}), ("GET", "/api/maps", None)):
            status, got, headers = call(app.base, method, path, body)
            assert (status, got) == (503, UNAVAILABLE) and headers["retry-after"] == "5", (path, status, got)
        assert app.state.internal_errors == 0
        if how == "removed":
            assert not live.exists()  # (no new, empty database made in its place)
            os.rename(aside, live)
            for extra in ("-wal", "-shm"):
                if Path(f"{aside}{extra}").exists():
                    os.rename(f"{aside}{extra}", f"{live}{extra}")
            assert call(app.base, "POST", "/api/accounts", {"name": "bob"})[0] == 201
    if how == "replaced":
        with sqlite3.connect(live) as conn:
            assert conn.execute("SELECT name FROM accounts").fetchall() == [("alice",)]  # (bob was not half stored)


def test_an_answer_never_read_is_dropped_and_its_connection_closed(tmp_path, monkeypatch) -> None:
    """A client that sends requests and reads nothing of the answers (walked: 20,000 requests pipelined on a connection
    with a small receive buffer, still open after 90 s): the answer waited for it for ever, its task and connection held.
    An answer the client reads nothing of for SEND_SECONDS (60) is dropped and the connection closed; a client that
    reads, however slowly, is not cut (the bound is on a stall, not on the answer's length)."""
    import cardrogue.hub.server as server_module

    monkeypatch.setattr(server_module, "SEND_SECONDS", 1.0)
    with running_hub(str(tmp_path / "hub.sqlite3")) as app:
        port = int(app.base.rsplit(":", 1)[1])
        ask = b"GET /hub.css HTTP/1.1\r\nHost: hub\r\n\r\n"
        with socket.socket() as conn:
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
            conn.connect(("127.0.0.1", port))
            conn.sendall(ask * 20_000)  # (26 MB of answers: more than the kernel's buffers hold, so the hub waits)
            deadline = time.monotonic() + 60
            # (Linux's TCP_INFO: its first byte is the connection's state, 1 while established)
            while conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[0] == 1 and time.monotonic() < deadline:
                time.sleep(0.2)
            assert conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[0] != 1, "still open, never read"
        # read slowly (a few KiB at a time, with pauses shorter than the bound): every answer arrives
        with socket.socket() as conn:
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
            conn.connect(("127.0.0.1", port))
            conn.settimeout(30)
            conn.sendall(ask * 199 + b"GET /hub.css HTTP/1.1\r\nHost: hub\r\nConnection: close\r\n\r\n")
            answer = b""
            while chunk := conn.recv(4096):
                answer += chunk
                time.sleep(0.001)
        assert answer.count(b"HTTP/1.1 200 OK") == 200, answer.count(b"HTTP/1.1 200 OK")
        assert app.state.internal_errors == 0


def test_the_environments_pgoptions_and_connect_timeout_are_kept(postgres, monkeypatch) -> None:
    """An operator who names the hub's schema by libpq's environment (`PGOPTIONS='-c search_path=hubs'`, docs/hub.md)
    keeps it: the bounded waits were once given to libpq as `options=`, which made it skip PGOPTIONS, and a hub so
    deployed started empty in `public`, writing its rows there while its data looked gone."""
    schema = f"envhub{os.getpid()}"
    with _admin(postgres) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        conn.execute(f"CREATE SCHEMA {schema}")
    monkeypatch.setenv("PGOPTIONS", f"-c search_path={schema}")
    monkeypatch.setenv("PGCONNECT_TIMEOUT", "7")
    given: list[dict] = []
    connect = psycopg.connect
    monkeypatch.setattr(psycopg, "connect", lambda *args, **kwargs: given.append(kwargs) or connect(*args, **kwargs))
    database = Database(postgres.url(), timeout=1.0)
    try:
        with database.transaction() as tx:
            settings = tx.one("SELECT current_setting('search_path'), current_setting('statement_timeout'),"
                              " current_setting('lock_timeout')")
        assert settings == (schema, "1s", "1s"), settings
        # set for each transaction, not the session (PgBouncer's transaction pooling hands a session's on)
        with database.transaction(bounded=False) as tx:
            assert tx.one("SELECT current_setting('statement_timeout'), current_setting('lock_timeout')") == ("0", "0")
        assert given and all(str(kwargs.get("connect_timeout")) == "7" for kwargs in given), given
    finally:
        database.close()
    with _admin(postgres) as conn:
        tables = {row[0] for row in conn.execute("SELECT table_name FROM information_schema.tables"
                                                 " WHERE table_schema = %s", (schema,))}
        conn.execute(f"DROP SCHEMA {schema} CASCADE")
    assert {"accounts", "maps", "runs", "tokens"} <= tables, tables


def test_a_sqlite_lock_held_elsewhere_is_waited_for_the_database_timeout_not_thirty_seconds(tmp_path) -> None:
    """`--db-timeout` is "the longest a request waits for the database" (docs/hub.md) on SQLite too: its busy
    timeout stayed 30 s, and a request behind an operator's open write transaction waited 30 s for its 503. A
    migration still waits the 30 s (another process's migration, a long index)."""
    path = tmp_path / "hub.sqlite3"
    database = Database(str(path), timeout=1.0)
    try:
        with database.transaction() as tx:
            assert tx.one("PRAGMA busy_timeout") == (1000,)
        database.close()
        database = Database(str(path), timeout=1.0)
        with database.transaction(write=True, bounded=False) as tx:
            assert tx.one("PRAGMA busy_timeout") == (int(db_module.BUSY_TIMEOUT_S * 1000),)
        with database.transaction() as tx:
            assert tx.one("PRAGMA busy_timeout") == (1000,)
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            with pytest.raises(db_module.DatabaseError, match="locked"):
                with database.transaction(write=True) as tx:
                    tx.execute("UPDATE schema_migrations SET version = version")
        finally:
            holder.execute("ROLLBACK")
            holder.close()
    finally:
        database.close()


def _revoke_in_a_thread(argv: list[str], seconds: float = 120) -> tuple[int, str]:
    """`cardrogue hub revoke ...` run in a thread; (its exit status, its standard error), or an AssertionError when it
    has not ended within ``seconds`` (a generous bound: no assert on how fast)."""
    import contextlib
    import io
    import threading

    done: dict = {}
    err = io.StringIO()

    def run() -> None:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            done["code"] = main(argv)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"`{' '.join(argv[:3])}` had not ended within {seconds:g} s"
    return done["code"], err.getvalue()


def test_the_operators_revoke_on_a_frozen_postgresql_ends_with_not_now(monkeypatch) -> None:
    """`hub revoke` on a PostgreSQL server that froze after it connected (SIGSTOP: its sockets open, never answering)
    waited for ever: its look at the schema ran without a bound, as serve's migrations do. It waits as long as serve's
    requests do now (`--db-timeout`, 5 s by default; the watchdog a second later), then says the database did not
    answer and to try again, exit 75, nothing revoked. The server is this test's own: no other test meets it frozen."""
    from pgserver import PostgresServer

    server = PostgresServer().start()
    try:
        url = server.fresh_url()
        with running_hub(url) as app:
            register(app.base, "alice")
        real = psycopg.connect

        def connected_then_frozen(*args, **kwargs):
            conn = real(*args, **kwargs)
            server.freeze()
            return conn

        monkeypatch.setattr(psycopg, "connect", connected_then_frozen)
        try:
            code, err = _revoke_in_a_thread(["hub", "revoke", "alice", "--db", url, "--db-timeout", "1"])
        finally:
            server.thaw()
        monkeypatch.undo()
        assert code == 75 and "Traceback" not in err and err.count("\n") == 1, (code, err)
        assert "did not answer" in err and "nothing was revoked" in err and "try again" in err, err
        with psycopg.connect(url) as conn:
            assert conn.execute("SELECT count(*) FROM tokens").fetchone()[0] == 1
    finally:
        server.stop()


def test_the_operators_revoke_waiting_on_a_lock_past_its_timeout_ends_with_not_now(postgres) -> None:
    """`hub revoke` behind a lock: a serve migrating the database (its advisory lock held), or an operator's `psql`
    holding the tokens table. It waited for the migration without a bound, and a lock timeout on the tokens was a
    traceback; both are exit 75 now, said as the database not answering in time, nothing revoked."""
    url = _own_database(postgres, "ops_revoke_locked")
    with running_hub(url) as app:
        register(app.base, "alice")
    for hold in ("SELECT pg_advisory_xact_lock(7215026)", "LOCK TABLE tokens IN ACCESS EXCLUSIVE MODE"):
        holder = psycopg.connect(url)  # (a transaction left open: psycopg begins one at the first statement)
        try:
            holder.execute(hold)
            code, err = _revoke_in_a_thread(["hub", "revoke", "alice", "--db", url, "--db-timeout", "1"])
        finally:
            holder.rollback()
            holder.close()
        assert code == 75 and "Traceback" not in err and err.count("\n") == 1, (hold, code, err)
        assert "nothing was revoked" in err and "try again" in err, (hold, err)
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT count(*) FROM tokens").fetchone()[0] == 1
    assert main(["hub", "revoke", "alice", "--db", url, "--db-timeout", "1"]) == 0


def test_the_operators_revoke_behind_a_sqlite_lock_ends_with_not_now(tmp_path) -> None:
    """`hub revoke` on a SQLite hub whose write lock another process holds (an operator's `sqlite3` left inside
    BEGIN IMMEDIATE) ended after the busy timeout with exit 2, 'cannot use the hub database', as if the file were not
    the hub's: a lock held is for now (SQLITE_BUSY, SQLITE_LOCKED: DatabaseUnavailable), exit 75 as on PostgreSQL,
    nothing revoked."""
    path = tmp_path / "hub.sqlite3"
    with running_hub(str(path)) as app:
        register(app.base, "alice")
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        code, err = _revoke_in_a_thread(["hub", "revoke", "alice", "--db", str(path), "--db-timeout", "1"])
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert code == 75 and "Traceback" not in err and err.count("\n") == 1, (code, err)
    assert "locked" in err and "nothing was revoked" in err and "try again" in err, err
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT count(*) FROM tokens").fetchone()[0] == 1
    assert main(["hub", "revoke", "alice", "--db", str(path), "--db-timeout", "1"]) == 0


def test_a_sqlite_lock_held_past_the_timeout_is_unavailable_for_every_caller(tmp_path) -> None:
    """A held SQLite lock is a DatabaseUnavailable, in a transaction and at the opening's look at the schema, so every
    caller says 'try again later'; a file that is no database stays a DatabaseError of another kind."""
    path = tmp_path / "hub.sqlite3"
    Database(str(path)).close()
    database = Database(str(path), timeout=1.0)
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(db_module.DatabaseUnavailable, match="locked"):
            with database.transaction(write=True) as tx:
                tx.execute("UPDATE schema_migrations SET version = version")
        with pytest.raises(db_module.DatabaseUnavailable, match="locked"):
            Database(str(path), timeout=1.0, upgrade=False)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        database.close()
    (tmp_path / "junk.sqlite3").write_bytes(b"not a database at all " * 100)
    with pytest.raises(db_module.DatabaseError) as refused:
        Database(str(tmp_path / "junk.sqlite3"))
    assert not isinstance(refused.value, db_module.DatabaseUnavailable)
