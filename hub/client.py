"""A client for the hub's JSON API, on the standard library's urllib (no dependency).

Every failure is a :class:`HubRefused` (the hub answered with an error: its status
and reason) or a :class:`HubUnreachable` (no answer: the URL, the reason). Of these, the ones
worth trying again later are said so (``temporary``): a 503 (the hub's database away, its workers
busy), a proxy's 502 or 504, a 429, and :class:`HubUnavailable`, no answer for now (the connection
refused, reset or timed out), each with the hub's ``Retry-After`` when it gave one.
"""

from __future__ import annotations

import email.utils
import errno
import http.client
import json
import re
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from cardrogue.hub.addresses import url_problem
from cardrogue.hub.config import TOKEN
from cardrogue.engine.words import counted

TIMEOUT_S = 120.0  # a publish waits for the server's clear check; the deadline of one whole answer
MAX_ANSWER_BYTES = 16 * 1024 * 1024  # the largest answer is a campaign file (a hub takes 4 MiB): far above it

# What a hub's answers hold, as far as the client reads them (hub/service.py writes them). A server
# answering in another form is not a Card Rogue hub: the commands say so, never a KeyError.
_HEX64 = re.compile(r"[0-9a-f]{64}")
_CAMPAIGN_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")  # the schema's id: a file name, never a path
_TURNS_HEALTH = {"turns": int, "health": int}
_MAP = {"id": _CAMPAIGN_ID, "hash": _HEX64, "version": int, "title": str, "author": (str, None), "publisher": str,
        "window_ends": str, "competition": bool, "par": _TURNS_HEALTH, "runs": int, "best": (None, _TURNS_HEALTH),
        "difficulty": (None, {"win_rate": float})}
_RUN = {"rank": int, "player": str, "turns": int, "health": int, "submitted_at": str, "run_id": _HEX64}
_SUBMITTED = {**_RUN, "map": _HEX64, "id": _CAMPAIGN_ID}
_ACCOUNT = {"name": str, "token": TOKEN}
_MISSING = object()
# What names a map on a hub (hub/service.py): a campaign id, or a content hash or its first 12 digits or more, in
# either case. A MAP of another form is refused before any request: sent, its '/' (quoted, and unquoted by the
# server) reached another address of the API ('ID/file' answered the file, '' the list), which answered in a form
# the client did not read, and the user was told the server was perhaps no hub.
_HASH_REF = re.compile(r"[0-9a-fA-F]{12,64}")


def ref_problem(ref: str) -> str | None:
    """Why ``ref`` names no map on any hub, or None: it is a campaign id or a content hash (or its start)."""
    if _CAMPAIGN_ID.fullmatch(ref) or _HASH_REF.fullmatch(ref):
        return None
    shown = repr(ref) if len(ref) <= 70 else repr(ref[:70]) + "..."
    return (f"{shown} names no map: give a campaign id (small letters, digits and '-') or a content hash "
            "(its first 12 hex digits or more)")


def _fits(value: Any, shape: Any) -> bool:
    """Whether ``value`` has ``shape``: a type, a pattern a string matches, a tuple of choices (None
    for null), a one-shape list, or a dict of the members it must have (others are let be)."""
    if shape is None:
        return value is None
    if isinstance(shape, tuple):
        return any(_fits(value, choice) for choice in shape)
    if isinstance(shape, list):
        return isinstance(value, list) and all(_fits(item, shape[0]) for item in value)
    if isinstance(shape, dict):
        return isinstance(value, dict) and all(_fits(value.get(key, _MISSING), inner) for key, inner in shape.items())
    if isinstance(shape, re.Pattern):
        return isinstance(value, str) and shape.fullmatch(value) is not None
    if shape is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if shape is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, shape)


def _shut(sockets: list, fired: threading.Event) -> None:
    """The watchdog's end of an answer past its deadline: the connection shut both ways."""
    fired.set()
    for sock in sockets:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def _opener(sockets: list) -> urllib.request.OpenerDirector:
    """urllib's opener, whose connections put their socket in ``sockets`` (for the watchdog to shut)."""

    class Watched(http.client.HTTPConnection):
        def connect(self) -> None:
            super().connect()
            sockets.append(self.sock)

    class WatchedTLS(http.client.HTTPSConnection):
        def connect(self) -> None:
            super().connect()
            sockets.append(self.sock)

    class Handler(urllib.request.HTTPHandler):
        def http_open(self, req):
            return self.do_open(Watched, req)

    class TLSHandler(urllib.request.HTTPSHandler):
        def https_open(self, req):
            return self.do_open(WatchedTLS, req, context=self._context)

    return urllib.request.build_opener(Handler, TLSHandler)


# The statuses that say "not now" rather than "not this": the hub's database away or its workers busy (503), a proxy
# in front whose hub does not answer (502, 504), too many requests (429).
TEMPORARY_STATUSES = frozenset({429, 502, 503, 504})
MAX_RETRY_AFTER_S = 24 * 3600  # a Retry-After further off than a day is said as a day


def retry_after(value: str | None) -> float | None:
    """The seconds a ``Retry-After`` header asks to wait (a number of seconds, or an HTTP date), or None: missing or
    unreadable (a header is the server's to write; a bad one is let be)."""
    if not value or len(value) > 100:
        return None
    value = value.strip()
    try:
        seconds = float(value) if value.isascii() and value.replace(".", "", 1).isdigit() else None
        if seconds is None:
            when = email.utils.parsedate_to_datetime(value)
            if when.tzinfo is None:
                return None
            seconds = when.timestamp() - time.time()
    except (ValueError, TypeError, OverflowError, IndexError):
        return None
    return min(max(seconds, 0.0), MAX_RETRY_AFTER_S)


class HubRefused(Exception):
    def __init__(self, status: int, body: dict, retry_after: float | None = None) -> None:
        super().__init__(body.get("error") or f"HTTP {status}")
        self.status, self.body = status, body
        if retry_after is None and type(body.get("retry_after")) in (int, float):  # (a 429's body says it too)
            retry_after = min(max(float(body["retry_after"]), 0.0), MAX_RETRY_AFTER_S)
        self.retry_after = retry_after

    @property
    def temporary(self) -> bool:
        """Whether the same request may succeed later, unchanged."""
        return self.status in TEMPORARY_STATUSES


class HubUnreachable(Exception):
    """No hub answering at the URL: none can (not a hub URL, a name no resolver knows), or another server answered."""

    temporary = False
    retry_after: float | None = None


class HubUnavailable(HubUnreachable):
    """No answer for now, where a hub may answer later: the connection refused, reset or timed out, an answer not
    finished in time, a proxy's 502, 503 or 504 without a hub's reason."""

    temporary = True

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def _temporary(reason: object) -> bool:
    """Whether a failure to reach a server is one that may pass: refused (the hub not started yet, restarting),
    reset, timed out, a network or host not reachable now, a name the resolver could not look up for now. Not so a
    name no resolver knows (a typo) or a TLS certificate refused."""
    if isinstance(reason, (ConnectionError, TimeoutError, http.client.RemoteDisconnected)):
        return True
    if isinstance(reason, socket.gaierror):
        return reason.errno == socket.EAI_AGAIN
    return isinstance(reason, OSError) and reason.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH, errno.ENETDOWN,
                                                            errno.EHOSTDOWN, errno.ETIMEDOUT, errno.ECONNABORTED)


class HubClient:
    def __init__(self, url: str, token: str | None = None, timeout: float | None = None) -> None:
        if (problem := url_problem(url)) is not None:
            raise HubUnreachable(f"{url!r} is not a hub URL: {problem}")
        self.url, self.token = url.rstrip("/"), token
        self.timeout = TIMEOUT_S if timeout is None else timeout
        # A hub under a path of non-ASCII letters (`https://example.org/ĥub`): the path sent percent-encoded, as a
        # browser sends it (http.client sends ASCII alone: it was 'cannot reach the hub: ordinal not in range(128)').
        parts = urllib.parse.urlsplit(self.url)
        path = urllib.parse.quote(parts.path, safe="/%!$&'()*+,;=:@~")
        self._base = urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, parts.query, parts.fragment))

    def _request(self, method: str, path: str, body: bytes | None = None, raw: bool = False) -> Any:
        request = urllib.request.Request(self._base + path, data=body, method=method)
        request.add_header("Accept", "application/json")
        if body is not None:
            request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Bearer {self.token}")
        deadline = time.monotonic() + self.timeout
        sockets: list[socket.socket] = []
        # One deadline for the whole answer, the status line and headers too (the socket's timeout bounds
        # only each read: a server dripping a header byte at a time would hold on for hours): at the
        # deadline the connection is shut, which ends any read under way.
        fired = threading.Event()
        watchdog = threading.Timer(self.timeout, _shut, (sockets, fired))
        watchdog.daemon = True
        watchdog.start()
        try:
            with _opener(sockets).open(request, timeout=self.timeout) as response:
                data = self._read(response, deadline)
            if fired.is_set():  # shut mid-answer: what was read is cut short
                raise HubUnavailable(f"{self.url} did not finish its answer within {self.timeout:g} s")
        except urllib.error.HTTPError as exc:
            wait = retry_after(exc.headers.get("Retry-After") if exc.headers is not None else None)
            try:
                answer = json.loads(self._read(exc, deadline).decode("utf-8"))
            except (ValueError, UnicodeDecodeError, OSError, AttributeError, HubUnreachable):  # no body: the status alone
                answer = {}
            if not isinstance(answer, dict) or not isinstance(answer.get("error"), str):
                # every refusal of a hub carries its reason (docs/hub.md, The API): without one, another
                # server answered (a web server's 404 page, a proxy's 502), which is no hub answering
                if exc.code in (502, 503, 504):  # (a proxy whose hub is down or restarting: for now)
                    raise HubUnavailable(f"{self.url} answered HTTP {exc.code} without a hub's reason: a proxy "
                                         "whose hub does not answer?", wait) from None
                raise HubUnreachable(f"{self.url} answered HTTP {exc.code} without a hub's reason: "
                                     "is it a Card Rogue hub?") from None
            raise HubRefused(exc.code, answer, wait) from None
        except (urllib.error.URLError, OSError, UnicodeError, http.client.HTTPException) as exc:
            # UnicodeError: a host IDNA cannot encode; HTTPException: a status line or headers that are not HTTP
            if fired.is_set() or time.monotonic() >= deadline:
                raise HubUnavailable(f"{self.url} did not finish its answer within {self.timeout:g} s") from None
            reason = getattr(exc, "reason", exc)
            unreachable = HubUnavailable if _temporary(reason) else HubUnreachable
            if isinstance(reason, OSError) and reason.strerror:  # "Connection refused", not "[Errno 111] ..."
                reason = reason.strerror
            raise unreachable(f"cannot reach the hub at {self.url}: {reason}") from None
        finally:
            watchdog.cancel()
        text = data.decode("utf-8", errors="replace")
        if raw:
            return text
        try:
            return json.loads(text)
        except ValueError:
            raise HubUnreachable(f"{self.url} did not answer in JSON: is it a Card Rogue hub?") from None

    def _read(self, response: Any, deadline: float) -> bytes:
        """The body of an answer, bounded in size and in time: a server streaming without end, or a
        byte at a time (each read well within the socket's timeout), is cut off with the reason."""
        length = response.headers.get("Content-Length")
        if length is not None and length.strip().isdigit() and int(length) > MAX_ANSWER_BYTES:
            raise HubUnreachable(f"{self.url} answered more than {MAX_ANSWER_BYTES:,} bytes: is it a Card Rogue hub?")
        chunks, size = [], 0
        while chunk := response.read1(65_536):
            size += len(chunk)
            if size > MAX_ANSWER_BYTES:
                raise HubUnreachable(f"{self.url} answered more than {MAX_ANSWER_BYTES:,} bytes: is it a Card Rogue hub?")
            if time.monotonic() > deadline:
                raise HubUnavailable(f"{self.url} did not finish its answer within {self.timeout:g} s")
            chunks.append(chunk)
        return b"".join(chunks)

    def _shaped(self, answer: Any, shape: Any, what: str) -> Any:
        if not _fits(answer, shape):
            raise HubUnreachable(f"{self.url} answered {what} in a form this client does not read: "
                                 "is it a Card Rogue hub?")
        return answer

    @staticmethod
    def _ref(ref: str) -> str:
        return urllib.parse.quote(ref, safe="")

    def register(self, name: str, token: str | None = None) -> dict:
        """A new account; with ``token`` (made and kept by the caller first) the hub takes it as the account's,
        and the same request again finishes a registration whose answer was lost."""
        body = {"name": name} if token is None else {"name": name, "token": token}
        answer = self._request("POST", "/api/accounts", json.dumps(body).encode("utf-8"))
        return self._shaped(answer, _ACCOUNT, "the registration")

    def rotate(self, new_token: str | None = None) -> dict:
        """The account's token replaced by ``new_token`` (or one the hub makes): the one sent is dead at once."""
        body = {} if new_token is None else {"token": new_token}
        answer = self._request("POST", "/api/me/token", json.dumps(body).encode("utf-8"))
        return self._shaped(answer, _ACCOUNT, "the new token")

    def revoke(self) -> dict:
        """The token sent revoked on the hub."""
        answer = self._request("DELETE", "/api/me/token")
        return self._shaped(answer, {"name": str, "revoked": bool, "tokens_left": int}, "the revocation")

    def me(self) -> dict:
        return self._shaped(self._request("GET", "/api/me"), {"name": str}, "the account")

    def publish(self, campaign_text: str, window_days: int | None = None) -> dict:
        body: dict[str, Any] = {"campaign": campaign_text}
        if window_days is not None:
            body["window_days"] = window_days
        return self._shaped(self._request("POST", "/api/maps", json.dumps(body).encode("utf-8")), _MAP, "the map")

    def maps(self, query: str = "", limit: int = 50) -> list[dict]:
        params = urllib.parse.urlencode({"q": query, "limit": limit})
        return self._shaped(self._request("GET", f"/api/maps?{params}"), {"maps": [_MAP]}, "the list of maps")["maps"]

    def map(self, ref: str) -> dict:
        return self._shaped(self._request("GET", f"/api/maps/{self._ref(ref)}"), _MAP, "the map")

    def file(self, ref: str) -> str:
        return self._request("GET", f"/api/maps/{self._ref(ref)}/file", raw=True)

    def submit(self, ref: str, replay_text: str) -> dict:
        """Send a run's replay, without the path of the campaign file it was played from."""
        from cardrogue.engine.records.replay import shared_text

        answer = self._request("POST", f"/api/maps/{self._ref(ref)}/runs", shared_text(replay_text).encode("utf-8"))
        return self._shaped(answer, _SUBMITTED, "the run")

    def leaderboard(self, ref: str, limit: int = 20, every: bool = False) -> dict:
        """Each player once, with their best run; ``every``: every run of the map."""
        answer = self._request("GET", f"/api/maps/{self._ref(ref)}/leaderboard?limit={limit}" + ("&every=1" if every else ""))
        return self._shaped(answer, {"map": _MAP, "runs": [_RUN]}, "the leaderboard")

    def replay(self, map_hash: str, run_id: str) -> str:
        return self._request("GET", f"/api/maps/{self._ref(map_hash)}/runs/{self._ref(run_id)}/replay", raw=True)


# -- what the player and the editor use (one line back, never an exception)


NO_HUB = "Not published: no hub is configured (run `cardrogue hub register NAME --hub URL`)."


def configured() -> "HubClient | None":
    """A client for the hub the player registered with; None when there is none (or the file is unusable)."""
    from cardrogue.engine.errors import UnusableInput

    from .config import load_config

    try:
        config = load_config()
    except UnusableInput:
        return None
    if not config.hub or not config.token:
        return None
    try:
        return HubClient(config.hub, config.token)
    except HubUnreachable:
        return None


def submit_run(replay_text: str) -> tuple[bool, str]:
    """The player's "submit to the hub": (accepted, one line saying what happened)."""
    client = configured()
    if client is None:
        return False, "No hub is configured: run `cardrogue hub register NAME --hub URL`."
    from cardrogue.engine.records.replay import ReplayError, parse_replay

    try:
        content_hash = parse_replay(replay_text)["campaign"]["hash"]
    except ReplayError as exc:
        return False, f"The replay cannot be sent: {exc}"

    def said(run: dict) -> str:
        state = "Verified by the hub" if run.get("created") else "Already on the hub"
        # the map's page by the hash's first 12 digits, as F9 and `hub list` name it: the whole 64 took four lines
        # of the end screen on a phone (walk25)
        page = f"{client.url}/maps/{run['map'][:12]}"
        if run.get("best") is False:  # (a hub before the players' leaderboard says no "best": its rank is the run's)
            return f"{state}, not your best run: you stay rank {run['rank']} on {page}"
        return f"{state}: rank {run['rank']} on {page}"

    return _ask(client, lambda: client.submit(content_hash, replay_text), "run", said)


def _ask(client: HubClient, request, what: str, said) -> tuple[bool, str]:
    """One request of the player's or the editor's: (accepted, one line), whatever the hub answers."""
    try:
        answer = request()
    except HubRefused as exc:
        return False, f"The hub refused the {what} ({exc.status}): {exc}"
    except HubUnreachable as exc:
        return False, str(exc)
    try:
        return True, said(answer)
    except (AttributeError, KeyError, TypeError):
        return False, f"{client.url} answered in an unexpected form: is it a Card Rogue hub?"


def hub_refusals(found: list) -> list:
    """Of a check's findings, those a hub answers 422 for: CR228, the text rule, from the hub's own walk.
    Publishing stops at them before the solve and the round trip."""
    return [d for d in found if d.code == "CR228"]


PUBLISH_SECONDS = 20.0  # the editor's F9 proves par within this before it sends a map (a hub's default budget)


STOPPED = "Not published: stopped while its par was being proven (F9 publishes)"


def publish_map(campaign_text: str, budget_seconds: float = PUBLISH_SECONDS, *, progress=None,
                stop: threading.Event | None = None, sending=None) -> tuple[bool, str]:
    """The editor's "publish": a map without errors, without text the hub refuses (CR228) and with a
    proven par goes to the hub.

    The par is proven here first (the hub proves it again with its own solver), so an author
    hears why a map is not publishable without a round trip. ``progress``: the solver's reports
    (:class:`~cardrogue.engine.analysis.solver.Progress`); ``stop``, once set, ends the proof and sends nothing
    (once the map is on its way it is too late); ``sending()`` is called as it would go, and False from it stops it
    there (the editor's stop and the map's setting off decided at once, under its lock).
    """
    from cardrogue.engine.analysis.check import check_campaign
    from cardrogue.engine.analysis.solver import QUICKER_TO_SOLVE, SOLVED, UNSOLVABLE, Budget, solve_campaign
    from cardrogue.engine.format.diagnostics import Severity
    from cardrogue.engine.format.loader import load_campaign_text

    loaded = load_campaign_text(campaign_text)  # loaded once: checked, then solved
    found = list(loaded.diagnostics) + (check_campaign(loaded.campaign) if loaded.campaign is not None else [])
    errors = [d for d in found if d.severity is Severity.ERROR]
    if errors:
        return False, f"Not published: {counted(len(errors), 'error')}, first {errors[0].code}: {errors[0].standalone}"
    if refused := hub_refusals(found):
        more = f" (and {counted(len(refused) - 1, 'other place')})" if len(refused) > 1 else ""
        return False, f"Not published: {refused[0].code}: {refused[0].standalone}{more}"
    client = configured()
    if client is None:
        return False, NO_HUB
    budget = Budget(max_seconds=budget_seconds)
    result = solve_campaign(loaded.campaign, budget, per_level=False, progress=progress, deadline=budget.start(stop))
    if stop is not None and stop.is_set():
        return False, STOPPED
    if result.verdict == UNSOLVABLE:
        return False, f"Not published: no proven par ({result.verdict}: {result.reason})"
    if result.verdict != SOLVED:  # the hub's budget is not the author's to raise: what makes a map quicker to solve
        return False, (f"Not published: no par proven within {budget_seconds:g} s ({result.verdict}: {result.reason}); "
                       "a hub publishes a map only with a par its solver proves within its own budget: "
                       f"{QUICKER_TO_SOLVE}")

    def said(m: dict) -> str:
        state = "Published" if m.get("created") else "Already published"
        par = m["par"]  # as `cardrogue hub publish` says it; the page by the hash's first 12 digits, as listed
        return (f"{state}: {m['id']} version {m['version']}, par {counted(par['turns'], 'turn')} with {par['health']} "
                f"health: {client.url}/maps/{m['hash'][:12]}")

    if sending is not None and sending() is False:  # stopped between the check above and now
        return False, STOPPED
    return _ask(client, lambda: client.publish(campaign_text), "map", said)
