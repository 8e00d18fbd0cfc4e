"""The hub's client facing a server that is not a well-behaved Card Rogue hub: an answer of another
form, a huge or endless answer, hostile names. docs/hub.md: exit 2 when no hub answers (a server
that is not a hub is none), never an internal error, nothing written where the server says.

The server here is a few lines of the standard library's http.server, answering what each test sets.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from cardrogue.cli.main import main
from cardrogue.hub.config import config_path

HASH = "ab" * 32
RUN_ID = "cd" * 32
GOOD_MAP = {"id": "needle", "hash": HASH, "version": 1, "title": "The Needle", "author": "", "publisher": "alice",
            "published_at": "2026-01-01T00:00:00Z", "window_ends": "2026-01-08T00:00:00Z", "competition": False,
            "levels": 3, "par": {"turns": 11, "health": 5, "health_exact": True}, "runs": 1,
            "best": {"turns": 11, "health": 5}, "difficulty": None}
GOOD_RUN = {"rank": 1, "player": "alice", "turns": 11, "health": 5, "submitted_at": "2026-01-02T00:00:00Z",
            "run_id": RUN_ID}


class Answers:
    """What the stand-in server says: ``body`` (bytes, or a function writing to the socket) for any path."""

    def __init__(self) -> None:
        self.status = 200
        self.body: bytes | object = b"{}"
        self.headers: dict[str, str] = {}
        self.paths: list[str] = []


@contextmanager
def stand_in_hub() -> Iterator[tuple[str, Answers]]:
    answers = Answers()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

        def _answer(self) -> None:
            answers.paths.append(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)
            body = answers.body
            self.send_response(answers.status)
            self.send_header("Content-Type", "application/json")
            for name, value in answers.headers.items():
                self.send_header(name, value)
            if callable(body):
                self.end_headers()
                try:
                    body(self.wfile)
                except OSError:  # the client hung up: what a bounded client does
                    pass
                return
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = _answer

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    # (serve_forever looks for a shutdown once a poll interval: its default half second was most of each test's end)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", answers
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def fake():
    with stand_in_hub() as running:
        yield running


def cardrogue(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def client_commands(url: str, tmp_path: Path) -> list[tuple[str, ...]]:
    replay = tmp_path / "run.replay.json"
    from hub_support import map_text, solution

    replay.write_text(solution(map_text()))
    campaign = tmp_path / "needle.json"
    campaign.write_text(map_text())
    return [("hub", "list", "--hub", url),
            ("hub", "leaderboard", "needle", "--hub", url),
            ("hub", "pull", "needle", "--hub", url, "-o", str(tmp_path / "pulled.json")),
            ("hub", "pull", "needle", "--rank", "1", "--hub", url, "-o", str(tmp_path / "pulled.replay.json")),
            ("hub", "publish", str(campaign), "--hub", url),
            ("hub", "submit", str(replay), "--hub", url),
            ("hub", "register", "zed", "--hub", url, "--force")]


def save_account(url: str) -> None:
    from cardrogue.hub.config import ClientConfig, save_config

    save_config(ClientConfig(url, "alice", "token-of-alice"))


@pytest.mark.parametrize("answer", [
    [1, 2],
    {"maps": 5, "map": None, "runs": 3},
    {"maps": ["x"], "map": {"title": 5}, "runs": [{"rank": "first"}]},
    {"maps": [dict(GOOD_MAP, best={"turns": None})], "map": dict(GOOD_MAP, par=None), "runs": [GOOD_RUN],
     "hash": 5, "id": 5, "name": "a", "token": 7},
    {"maps": [dict(GOOD_MAP, id="../../evil")], "map": dict(GOOD_MAP, id="../../evil"), "runs": [GOOD_RUN],
     "hash": HASH, "name": "a", "token": "line\r\nX-Injected: 1"},
], ids=["a list", "wrong types", "wrong members", "nulls and numbers", "a path for an id, a header in a token"])
def test_an_answer_of_another_form_is_no_hub_not_an_internal_error(answer, fake, capsys, tmp_path: Path) -> None:
    """docs/hub.md: exit 2 when no hub answers; a server answering JSON of another form is not a
    Card Rogue hub. Before, each command stopped with `internal error: KeyError` (or TypeError), and
    `register` saved a token of the wrong type, which made every later command refuse the settings."""
    url, answers = fake
    answers.body = json.dumps(answer).encode()
    for argv in client_commands(url, tmp_path):
        save_account(url)
        saved = json.loads(config_path().read_bytes())
        code, out, err = cardrogue(capsys, *argv)
        assert code == 2 and "internal error" not in err, (argv, err)
        assert "is it a Card Rogue hub?" in err, (argv, err)
        kept = json.loads(config_path().read_bytes())
        kept.pop("pending", None)  # (register keeps the token it sent, should a hub have made the account)
        assert kept == saved, argv  # register kept the saved account
    written = sorted(p.name for p in tmp_path.rglob("*") if p.is_file())
    assert written == ["needle.json", "run.replay.json"], written
    assert not (tmp_path.parent / "evil.json").exists()


@pytest.mark.parametrize("body", [b"404: Not Found", b"<html><body>Not Found</body></html>", b'{"detail": "Not Found"}',
                                  b'{"error": 5}', b""], ids=["text", "html", "json without a reason", "a reason not text", "empty"])
def test_a_refusal_without_a_hubs_reason_is_no_hub(body: bytes, fake, capsys, tmp_path: Path) -> None:
    """docs/hub.md: every refusal of a hub is a 4xx with a JSON body ``{"error": "the reason"}``; a server
    answering a 4xx or 5xx without one (another web server: the walk pointed `--hub` at `cardrogue web`'s
    address) is no hub answering: exit 2, asking whether it is a hub. Before, exit 1 with
    `the hub refused (404): HTTP 404`, as if a hub had refused the request."""
    url, answers = fake
    answers.status, answers.body = 404, body
    for argv in client_commands(url, tmp_path):
        save_account(url)
        code, out, err = cardrogue(capsys, *argv)
        assert code == 2 and "is it a Card Rogue hub?" in err and "the hub refused" not in err, (argv, err)
        assert f"{url} answered HTTP 404" in err, (argv, err)


def test_a_huge_answer_is_cut_off_not_read_whole(fake, capsys, tmp_path: Path, monkeypatch) -> None:
    """A server streaming an endless answer: before, the client read it all into memory (23 GB in a
    walk of the product before it was killed). Now it stops at a bound far above any hub answer."""
    import cardrogue.hub.client as client

    url, answers = fake
    monkeypatch.setattr(client, "MAX_ANSWER_BYTES", 100_000)
    sent = []

    def endless(out) -> None:
        out.write(b'{"maps": ["')
        while len(sent) < 1_000:  # 64 MB at most, should the client read on
            out.write(b"a" * 65_536)
            sent.append(1)
        out.write(b'"]}')

    answers.body = endless
    code, _, err = cardrogue(capsys, "hub", "list", "--hub", url)
    assert code == 2 and "answered more than 100,000 bytes" in err and "internal error" not in err, err
    assert len(sent) < 1_000
    # an answer announcing its size is refused before it is read
    answers.body = b" " * 100_001
    code, _, err = cardrogue(capsys, "hub", "list", "--hub", url)
    assert code == 2 and "answered more than 100,000 bytes" in err, err


def test_an_answer_dripped_slowly_ends_at_the_deadline(fake, capsys, monkeypatch) -> None:
    """A server that sends its answer a byte at a time: every read returns before the socket's
    timeout, so only a deadline for the whole answer ends the command (README: every command
    finishes in bounded time). Here the drip would end after about 4 s with a valid answer: the
    client, given a 0.5 s deadline, stops first."""
    import cardrogue.hub.client as client

    url, answers = fake
    monkeypatch.setattr(client, "TIMEOUT_S", 0.5)

    def drip(out) -> None:
        for ch in b'{"maps": []' + b" " * 200 + b"}":
            out.write(bytes([ch]))
            out.flush()
            time.sleep(0.02)

    answers.body = drip
    code, out, err = cardrogue(capsys, "hub", "list", "--hub", url)
    assert code == 75 and "did not finish its answer within 0.5 s" in err, (out, err)


@contextmanager
def raw_server(answer) -> Iterator[str]:
    """A bare TCP server on 127.0.0.1: each connection is handed to ``answer(sock)``, which writes what it will."""
    import socket

    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            with conn:
                conn.recv(65_536)  # the request
                try:
                    answer(conn, stop)
                except OSError:  # the client hung up
                    pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(5)
        listener.close()


def test_headers_dripped_slowly_end_at_the_deadline(capsys, monkeypatch) -> None:
    """The deadline holds for the status line and the headers too, not only the body: a server that sends a
    header a byte at a time (each byte well within the socket's timeout) would hold a command for as long
    as it likes (up to 100 header lines of 64 KiB). Here the drip would last 10 s; the 0.5 s deadline ends it."""
    import cardrogue.hub.client as client

    monkeypatch.setattr(client, "TIMEOUT_S", 0.5)

    def drip(conn, stop) -> None:
        conn.sendall(b"HTTP/1.1 200 OK\r\nX-Slow: ")
        for _ in range(500):
            if stop.is_set():
                return
            conn.sendall(b"a")
            time.sleep(0.02)

    with raw_server(drip) as url:
        started = time.monotonic()
        code, out, err = cardrogue(capsys, "hub", "list", "--hub", url)
        took = time.monotonic() - started
    assert code == 75 and "did not finish its answer within 0.5 s" in err, (out, err)
    assert took < 5, took  # not the 10 s of the drip (a generous margin, not a timing figure)


def test_a_status_line_that_is_not_http_is_no_hub(capsys) -> None:
    """An answer whose status line is not HTTP (http.client's BadStatusLine) is no hub answering: exit 2 with
    the reason, never an internal error."""

    def garbage(conn, stop) -> None:
        conn.sendall(b"SSH-2.0-OpenSSH_9.2\r\n\r\n")

    with raw_server(garbage) as url:
        code, out, err = cardrogue(capsys, "hub", "list", "--hub", url)
    assert code == 2 and f"cannot reach the hub at {url}" in err and "internal error" not in err, (out, err)


def test_strings_of_a_well_formed_answer_are_shown_as_text(fake, capsys) -> None:
    """docs/hub.md: the CLI shows control characters as escapes, every string the hub sends."""
    url, answers = fake
    escape = "\x1b[2J\x1b]0;owned\x07"
    board = {"map": dict(GOOD_MAP, competition=True, window_ends=escape, title=escape),
             "runs": [dict(GOOD_RUN, submitted_at=escape, player=escape)]}
    answers.body = json.dumps(board).encode()
    code, out, err = cardrogue(capsys, "hub", "leaderboard", "needle", "--hub", url)
    assert code == 0 and "\x1b" not in out + err and "\\x1b[2J" in out, out


@pytest.mark.parametrize("token", ["line\nbreak", "two words", "é"])
def test_a_saved_token_no_header_can_carry_is_refused_with_the_file(token: str, fake, capsys, tmp_path: Path) -> None:
    """A hub.json edited by hand (or damaged) with a token a header cannot carry: before, publishing
    stopped with `internal error: ValueError: Invalid header value`."""
    url, answers = fake
    config_path().parent.mkdir(parents=True, exist_ok=True)
    config_path().write_text(json.dumps({"hub": url, "name": "alice", "token": token}))
    for argv in client_commands(url, tmp_path)[:-1]:
        code, _, err = cardrogue(capsys, *argv)
        assert code == 2 and f"{config_path()}: the saved token" in err and "internal error" not in err, (argv, err)
    assert answers.paths == []


def _in_seconds(seconds: int) -> str:
    import email.utils

    return email.utils.formatdate(time.time() + seconds, usegmt=True)


DATABASE_AWAY = {"error": "the hub's database is unavailable; try again later"}


@pytest.mark.parametrize("status, headers, body, said, when", [
    (503, {"Retry-After": "5"}, DATABASE_AWAY, "the hub could not answer (503): the hub's database is unavailable",
     "try again in 5 s"),
    (503, {}, {"error": "the hub is busy checking other maps and runs; try again shortly"},
     "the hub could not answer (503): the hub is busy checking other maps and runs", "try again later"),
    (503, {"Retry-After": "in 90 s, as a date"}, DATABASE_AWAY, "(503): the hub's database is unavailable",
     re.compile(r"try again in (8[0-9]|90|91) s")),
    (429, {"Retry-After": "12"}, {"error": "too many submit requests: wait 12 s", "retry_after": 11.6},
     "the hub refused (429): too many submit requests: wait 12 s", ""),
    (502, {}, "<html><h1>502 Bad Gateway</h1></html>",
     "answered HTTP 502 without a hub's reason: a proxy whose hub does not answer?", "; try again later"),
    (504, {"Retry-After": "120"}, "", "answered HTTP 504 without a hub's reason: a proxy whose hub does not answer?",
     "; try again in 120 s"),
], ids=["database away", "workers busy", "retry-after a date", "too many requests", "a proxy's 502", "a proxy's 504"])
def test_a_hub_unavailable_for_now_exits_75_saying_when_to_try_again(status, headers, body, said, when, fake, capsys,
                                                                     tmp_path: Path) -> None:
    """A 503 (the hub's database away, its workers busy) exited 1, as a map the hub refused does: a script could not
    tell "try again later" from "your input is wrong". Every client command exits 75 (EX_TEMPFAIL) for an answer that
    says "not now" (503, 429, a proxy's 502 or 504), the reason with the hub's Retry-After in it (`try again in 5 s`);
    nothing is saved or written but register's kept token (docs/hub.md, Exit status)."""
    url, answers = fake
    answers.status = status
    answers.headers = {name: _in_seconds(90) if value.endswith("as a date") else value for name, value in headers.items()}
    answers.body = body.encode() if isinstance(body, str) else json.dumps(body).encode()
    for argv in client_commands(url, tmp_path):
        save_account(url)
        code, out, err = cardrogue(capsys, *argv)
        told = when.search(err) if isinstance(when, re.Pattern) else when in err
        assert code == 75 and out == "" and "Traceback" not in err and said in err and told, (argv, code, err)
        if argv[1] != "register":  # (register's reason says to run it again, to finish with the token it kept)
            assert err.count("\n") == 1, (argv, err)
    assert not (tmp_path / "pulled.json").exists() and not (tmp_path / "pulled.replay.json").exists()
    if isinstance(body, dict):
        code, out, err = cardrogue(capsys, "hub", "list", "--hub", url, "--format", "json")
        assert code == 75 and json.loads(out)["status"] == status, (code, out)
        assert ("retry_after" in json.loads(out)) == bool(headers), out


def test_a_hub_that_does_not_answer_exits_75_and_one_that_refuses_exits_1(fake, capsys, tmp_path: Path) -> None:
    """The connection refused (the hub not started yet, restarting) is "try again later", exit 75, as a 503 is, for
    every client command; a refusal of the request itself (4xx but 429) stays exit 1, and a 500 (a bug of the hub, not
    a state that passes) too; a name no resolver knows is no hub at all (exit 2)."""
    from ports import free_port

    closed = f"http://127.0.0.1:{free_port()}"
    for argv in client_commands(closed, tmp_path):
        save_account(closed)
        code, out, err = cardrogue(capsys, *argv)
        assert code == 75 and "Connection refused" in err and "try again later" in err, (argv, code, err)
    url, answers = fake
    for status in (400, 404, 422, 500):
        answers.status, answers.body = status, json.dumps({"error": "not this"}).encode()
        save_account(url)
        code, out, err = cardrogue(capsys, "hub", "list", "--hub", url)
        assert code == 1 and "not this" in err and "try again" not in err, (status, code, err)
    code, out, err = cardrogue(capsys, "hub", "list", "--hub", "http://no-such-host.invalid")
    assert code == 2 and "try again" not in err, err


@pytest.mark.parametrize("value, seconds", [
    ("5", 5.0), ("0", 0.0), (" 7 ", 7.0), ("2.5", 2.5), ("99999999999", 86400.0), ("Wed, 21 Oct 2015 07:28:00 GMT", 0.0),
    ("-5", None), ("soon", None), ("", None), (None, None), ("1e9", None), ("5" * 200, None),
    ("Wed, 21 Oct 2015 07:28:00", None)])
def test_retry_after_reads_seconds_and_dates_and_lets_a_bad_one_be(value, seconds) -> None:
    """RFC 9110 10.2.3: Retry-After is a number of seconds or an HTTP date; a header the client cannot read (the
    server's to write) is as none, and a wait beyond a day is said as a day."""
    from cardrogue.hub.client import retry_after

    assert retry_after(value) == seconds


def test_a_hub_under_a_path_of_non_ascii_letters_is_reached(fake, capsys) -> None:
    """`--hub https://example.org/ĥub` (a hub behind a proxy, under a path of its own): http.client sends ASCII alone,
    and the command said 'cannot reach the hub at ...: ordinal not in range(128)', exit 2. The path is sent
    percent-encoded, as a browser sends it; the messages keep the URL as the user wrote it."""
    url, answers = fake
    answers.body = json.dumps({"maps": []}).encode()
    code, out, err = cardrogue(capsys, "hub", "list", "--hub", url + "/ĥub")
    assert (code, out, err) == (0, "no maps yet\n", ""), (code, out, err)
    assert answers.paths == ["/%C4%A5ub/api/maps?q=&limit=50"], answers.paths
