"""The hub's HTTP side: a JSON API under ``/api`` and plain HTML pages, on Starlette.

Every refusal is a 4xx JSON body ``{"error": reason, ...}`` (see :class:`~.service.HubError`);
a 500 comes only from the last-resort handler, which logs the traceback and answers
``{"error": "internal error"}`` without details. Bodies are read with a limit before
any parsing; the costly work (the clear check, re-simulation) runs on worker threads
and is bounded in :class:`~.service.Settings`. Every response carries a
Content-Security-Policy that allows no script and only the hub's own stylesheet.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import anyio
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Match, Route

from . import pages
from .story import StoryCache
from cardrogue.engine.format.loader import (CONSTANT_OR_NUMBER, LONG_NUMBER, DuplicateKey, json_syntax_error,
                                            pairs_no_duplicates)
from cardrogue.engine.format.positions import LineIndex
from .db import Database, DatabaseError
from .ratelimit import Rate, RateLimiter
from .service import BUSY, HASH_RE, Hub, HubError, Settings, hex_digits

log = logging.getLogger("cardrogue.hub")

CSP = ("default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; "
       "base-uri 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = [(b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"DENY")]
MAX_JSON_BYTES = 16 * 1024  # bodies that are not a campaign or a replay (registration)
DRAIN_BYTES = 16 * 1024 * 1024  # an oversized body up to this is read and dropped, so the client sees the 413
BODY_SECONDS = 60.0  # a body must arrive within this (a 4 MiB campaign at 70 KB/s): 408 otherwise
RETRY_AFTER_S = 5  # the Retry-After of a 503 (the database unavailable, the workers busy)
PAGE_THREADS = 4  # the pages drawn at once, on threads of their own (the API's reads keep theirs)


@dataclass(frozen=True)
class Limits:
    """Per-process rate limits (docs/hub.md): registration per client address, the rest per account."""

    register: Rate = Rate(burst=5, per_minute=10)
    publish: Rate = Rate(burst=10, per_minute=20)
    submit: Rate = Rate(burst=30, per_minute=120)
    token: Rate = Rate(burst=5, per_minute=10)  # rotations and revocations per account


# The answers that carry a token or say whose a token is: no cache (a proxy's, the browser's) may keep them.
PRIVATE_PATHS = ("/api/accounts", "/api/me")
NO_STORE = (b"cache-control", b"no-store")


def _private(scope) -> bool:
    """A request whose answer no cache may keep: one that carries a token (Authorization), or one to an address
    that answers with a token or its owner's name (registration, /api/me and its token)."""
    path = scope.get("path", "")
    return (any(path == p or path.startswith(p + "/") for p in PRIVATE_PATHS)
            or any(k.lower() == b"authorization" for k, _ in scope.get("headers", ())))


class _SecurityHeaders:
    """Adds the CSP and friends to every response, errors included; ``Cache-Control: no-store`` to the answers
    of :func:`_private` requests (a registration's answer holds the account's one token: RFC 6749's rule for
    an answer with a token, 5.1)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        added = [*SECURITY_HEADERS, NO_STORE] if _private(scope) else SECURITY_HEADERS

        async def with_headers(message) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []), *(h for h in added if h[0] not in names)]
            await send(message)

        await self.app(scope, receive, with_headers)


def create_app(db: Database | str | None = None, settings: Settings | None = None,
               limits: Limits | None = None) -> Starlette:
    database = db if isinstance(db, Database) else Database(db)
    hub = Hub(database, settings)
    limits = limits or Limits()
    limiters = {name: RateLimiter(getattr(limits, name)) for name in ("register", "publish", "submit", "token")}
    # Publishes and submissions wait for a worker slot (up to busy_seconds) on threads of their own,
    # so a crowd of them never takes the threads that listings, pages and registration run on.
    # A request waits busy_seconds at most for one of those threads (it waited without a bound behind a crowd), then
    # busy_seconds at most for a worker slot there.
    heavy = anyio.CapacityLimiter(max(8, 4 * hub.settings.workers))
    heavy_threads = anyio.CapacityLimiter(heavy.total_tokens)
    # A page is drawn on a worker thread (a map's stories took seconds of markdown-it, and every request waited on the
    # event loop), on threads of its own: a crowd of pages never takes the threads the API reads on.
    page_threads = anyio.CapacityLimiter(PAGE_THREADS)
    stories = StoryCache()

    async def drawn(func, *args):
        return await anyio.to_thread.run_sync(func, *args, limiter=page_threads)

    def draw_map_page(detail: dict, runs: list[dict], skip: int, count: int, every: bool) -> str:
        drawn_stories = stories.stories(detail["hash"], pages.story_texts(detail))
        return pages.map_page(detail, runs, skip, count, every, drawn_stories)

    async def in_heavy_thread(func, *args):
        admitted = False
        with anyio.move_on_after(hub.settings.busy_seconds):
            await heavy.acquire()
            admitted = True
        if not admitted:
            raise HubError(503, BUSY)
        try:
            return await anyio.to_thread.run_sync(func, *args, limiter=heavy_threads)
        finally:
            heavy.release()

    def limit(kind: str, key: str) -> None:
        wait = limiters[kind].take(key)
        if wait:
            raise HubError(429, f"too many {kind} requests: wait {wait:.0f} s", retry_after=round(wait, 1))

    def bearer(request: Request) -> str | None:
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        if header and (scheme.lower() != "bearer" or not token.strip()):
            raise HubError(401, "the Authorization header must be 'Bearer <token>'")
        return token.strip() or None

    async def account(request: Request):
        return await run_in_threadpool(hub.account, bearer(request))

    async def register(request: Request) -> Response:
        limit("register", request.client.host if request.client else "?")
        body = await _json_object(request, MAX_JSON_BYTES, key="name")
        found, token, created = await run_in_threadpool(hub.register, body.get("name"), body.get("token"))
        return JSONResponse({"name": found.name, "token": token}, status_code=201 if created else 200)

    async def me(request: Request) -> Response:
        who = await account(request)
        return JSONResponse({"name": who.name})

    async def my_token(request: Request) -> Response:
        """POST: a new token in place of the one sent (dead at once); DELETE: the one sent revoked."""
        try:
            who = await account(request)
        except HubError as exc:
            if exc.status != 401 or request.method != "POST" or not bearer(request):
                raise
            # A rotation sent again after its answer was lost (a 503 whose commit had been sent): the token sent is
            # dead, and the new one it names lives. Done, as asked (its holder learns nothing GET /api/me would not say).
            try:
                body = await _json_object(request, MAX_JSON_BYTES, key="token", empty_is_none=True)
            except HubError:
                raise exc from None  # (the token's refusal, not the body's)
            if (owner := await run_in_threadpool(hub.rotated_to, body.get("token"))) is None:
                raise
            return JSONResponse({"name": owner.name, "token": body["token"]})
        limit("token", who.name)
        if request.method == "DELETE":
            left = await run_in_threadpool(hub.revoke, who, bearer(request))
            return JSONResponse({"name": who.name, "revoked": True, "tokens_left": left})
        body = await _json_object(request, MAX_JSON_BYTES, key="token", empty_is_none=True)
        new = await run_in_threadpool(hub.rotate, who, bearer(request), body.get("token"))
        return JSONResponse({"name": who.name, "token": new})

    async def list_maps(request: Request) -> Response:
        query, count, skip = _paging(request)
        return JSONResponse({"maps": await run_in_threadpool(hub.list_maps, query, count, skip)})

    async def publish(request: Request) -> Response:
        who = await account(request)
        limit("publish", who.name)
        body = await _json_object(request, hub.settings.max_campaign_bytes * 2 + MAX_JSON_BYTES, key="campaign")
        found, created = await in_heavy_thread(hub.publish, who, body.get("campaign"), body.get("window_days"))
        return JSONResponse({**found, "created": created}, status_code=201 if created else 200)

    async def map_detail(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(hub.detail, _ref(request)))

    async def map_file(request: Request) -> Response:
        found, content = await run_in_threadpool(hub.content, _ref(request))
        return Response(content, media_type="application/json",
                        headers={"content-disposition": f'attachment; filename="{found["id"]}.json"'})

    async def leaderboard(request: Request) -> Response:
        count, skip = _window(request)
        return JSONResponse(await run_in_threadpool(hub.leaderboard, _ref(request), count, skip, _every(request)))

    async def submit(request: Request) -> Response:
        who = await account(request)
        limit("submit", who.name)
        raw = await _body(request, hub.settings.max_replay_bytes)
        text = await run_in_threadpool(_json_text, raw, "a replay", "actions")  # (a MiB of JSON: off the event loop)
        run, created = await in_heavy_thread(hub.submit, who, _ref(request), text)
        return JSONResponse({**run, "created": created}, status_code=201 if created else 200)

    async def replay(request: Request) -> Response:
        run_id = hex_digits(request.path_params["run_id"])
        if not HASH_RE.fullmatch(run_id):
            raise HubError(404, "a run id is 64 hex digits")
        text = await run_in_threadpool(hub.replay, _ref(request), run_id)
        return Response(text, media_type="application/json",
                        headers={"content-disposition": f'attachment; filename="{run_id[:12]}.replay.json"'})

    async def list_page(request: Request) -> Response:
        query, count, skip = _paging(request)
        maps = await run_in_threadpool(hub.list_maps, query, count + 1, skip)  # one more: is there a next page?
        return HTMLResponse(await drawn(pages.map_list, maps[:count], query, skip, count, len(maps) > count))

    async def map_page(request: Request) -> Response:
        ref = _ref(request)
        count, skip = _window(request)
        detail = await run_in_threadpool(hub.detail, ref)
        every = _every(request)
        board = await run_in_threadpool(hub.leaderboard, detail["hash"], count, skip, every)
        detail.update(runs=board["map"]["runs"], players=board["map"]["players"])  # (counted in one transaction)
        return HTMLResponse(await drawn(draw_map_page, detail, board["runs"], skip, count, every))

    async def stylesheet(request: Request) -> Response:
        return Response(pages.STYLESHEET, media_type="text/css", headers={"cache-control": "max-age=3600"})

    async def refused(request: Request, exc: Exception) -> Response:
        if isinstance(exc, HTTPException) and exc.status_code == 404 and (where := _slash_redirect(request, routes)):
            return Response(status_code=308, headers={"location": where})
        if isinstance(exc, HubError):
            status, body = exc.status, exc.body()
        elif isinstance(exc, HTTPException):
            status, body = exc.status_code, {"error": _routing_refusal(request, exc)}
        else:  # DatabaseError: the database is down, unreachable or not answering
            log.error("database unavailable: %s", exc)
            status, body = 503, {"error": "the hub's database is unavailable; try again later"}
        headers = {"retry-after": str(max(1, round(body["retry_after"])))} if "retry_after" in body else {}
        if status == 503 and not headers:  # (when to try again: the CLI says it, a proxy may honour it)
            headers["retry-after"] = str(RETRY_AFTER_S)
        if isinstance(exc, HTTPException) and exc.headers:
            headers.update(exc.headers)  # the router's 405 names the methods the path takes (``allow``)
        if isinstance(exc, HubError):
            headers.update(exc.headers)
        headers = headers or None
        if not request.url.path.startswith("/api") and request.method == "GET":
            return HTMLResponse(pages.error_page(status, body["error"]), status_code=status, headers=headers)
        return JSONResponse(body, status_code=status, headers=headers)

    async def internal(request: Request, exc: Exception) -> Response:
        app.state.internal_errors += 1
        log.error("internal error on %s %s", request.method, request.url.path, exc_info=exc)
        # This handler runs outside the middleware stack: it adds the security headers itself.
        return JSONResponse({"error": "internal error"}, status_code=500,
                            headers={k.decode(): v.decode() for k, v in [*SECURITY_HEADERS, NO_STORE]})

    async def gone(request: Request, exc: Exception) -> Response:
        # The body stopped coming: the client hung up (Ctrl+C during a publish, a dropped connection, a malformed
        # chunk uvicorn answered 400 and closed). Nobody reads an answer; it was logged as an internal error.
        log.info("%s %s: the client went away before its request was read", request.method, request.url.path)
        return Response(status_code=400)

    async def maps(request: Request) -> Response:
        return await (publish if request.method == "POST" else list_maps)(request)

    routes = [
        Route("/api/accounts", register, methods=["POST"]),
        Route("/api/me", me),
        Route("/api/me/token", my_token, methods=["POST", "DELETE"]),
        Route("/api/maps", maps, methods=["GET", "POST"]),  # one route: a 405 there names both (``allow``)
        Route("/api/maps/{ref}", map_detail),
        Route("/api/maps/{ref}/file", map_file),
        Route("/api/maps/{ref}/leaderboard", leaderboard),
        Route("/api/maps/{ref}/runs", submit, methods=["POST"]),
        Route("/api/maps/{ref}/runs/{run_id}/replay", replay),
        Route("/", list_page),
        Route("/maps/{ref}", map_page),
        Route("/hub.css", stylesheet),
    ]
    handlers: dict[Any, Any] = {HubError: refused, HTTPException: refused, DatabaseError: refused,
                                ClientDisconnect: gone, Exception: internal}
    try:
        import psycopg

        handlers[psycopg.OperationalError] = refused
        # a database that reads but takes no write (a standby reached after a failover, one set read-only): a 503
        handlers[psycopg.errors.ReadOnlySqlTransaction] = refused
    except ImportError:  # psycopg is a dependency; without it only SQLite works
        pass
    app = Starlette(routes=routes, exception_handlers=handlers)
    # Starlette's own redirect of an address with a trailing slash wrote its Location from the Host header (a hostile
    # Host sent the client to another site, and a cache in front kept that for everyone): _slash_redirect's instead.
    app.router.redirect_slashes = False
    app.state.hub = hub
    app.state.stories = stories
    app.state.internal_errors = 0
    if hub.settings.allowed_hosts:
        app.add_middleware(_AllowedHosts, hosts=hub.settings.allowed_hosts)
    app.add_middleware(_SecurityHeaders)
    return app


def host_name(header: str) -> str:
    """The host name of a Host header (``hub.example:8765``, ``[::1]:8765``), without its port, in small letters."""
    header = header.strip().lower()
    if header.startswith("["):
        return header.split("]", 1)[0] + "]"
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class _AllowedHosts:
    """A request whose Host header names none of ``hosts`` is refused, 400 (`serve --allowed-host`). The header is not
    repeated in the answer."""

    def __init__(self, app, hosts: tuple[str, ...]) -> None:
        self.app, self.hosts = app, frozenset(h.lower() for h in hosts)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            given = [v.decode("latin-1") for k, v in scope.get("headers", ()) if k.lower() == b"host"]
            if len(given) != 1 or host_name(given[0]) not in self.hosts:
                refusal = JSONResponse({"error": "the request's Host header names no host this hub serves "
                                                 f"({', '.join(sorted(self.hosts))})"}, status_code=400)
                return await refusal(scope, receive, send)
        await self.app(scope, receive, send)


def _routing_refusal(request: Request, exc: HTTPException) -> str:
    """The router's refusals in the hub's words: Starlette's bodies ('Method Not Allowed', 'Not Found')
    named no method the address takes and no address the hub has."""
    path = request.url.path
    if exc.status_code == 405:
        allowed = ", ".join(sorted(m.strip() for m in (exc.headers or {}).get("Allow", "").split(",") if m.strip()))
        return f"{request.method} is not a method of {path}: it takes {allowed}"
    if exc.status_code == 404:
        return f"no such address on this hub: {path} (the API is /api/accounts, /api/me, /api/me/token and /api/maps..., docs/hub.md)"
    return exc.detail or "refused"


def _slash_redirect(request: Request, routes: list[Route]) -> str | None:
    """Where an address with trailing slashes the hub does not have (``/api/maps/``) is sent: the address without
    them when the hub has it, as a relative Location (its path and query alone: never the request's Host, whatever
    it says); None otherwise. A path that would read as another host (``//evil.example``) is never a Location."""
    path = request.url.path
    bare = path.rstrip("/")
    if bare == path or not bare or bare.startswith(("//", "/\\")):
        return None
    scope = {**request.scope, "path": bare}
    if not any(route.matches(scope)[0] is not Match.NONE for route in routes):
        return None
    query = request.scope.get("query_string", b"").decode("latin-1")
    return quote(bare) + (f"?{query}" if query else "")


def _ref(request: Request) -> str:
    ref = request.path_params["ref"]
    if len(ref) > 64 or not ref.isascii():
        raise HubError(404, "a map is named by its campaign id or its 64-digit content hash")
    return ref


def _paging(request: Request) -> tuple[str, int, int]:
    """A search's ``q``, then :func:`_window`."""
    query = request.query_params.get("q", "")
    if len(query) > 200:
        raise HubError(400, "the search text is longer than 200 characters")
    return (query, *_window(request))


def _window(request: Request) -> tuple[int, int]:
    """A page's ``limit`` and ``offset`` (a list that is not searched: any ``q`` is not read)."""
    params = request.query_params
    return (_whole(params.get("limit", "50"), "limit", 1, 100),
            _whole(params.get("offset", "0"), "offset", 0, pages.MAX_OFFSET))


def _every(request: Request) -> bool:
    """A leaderboard's ``every``: 1 lists every run of the map, 0 (the default) each player once, with their best."""
    return bool(_whole(request.query_params.get("every", "0"), "every", 0, 1))


def _whole(text: str, name: str, low: int, high: int) -> int:
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:  # "²".isdigit() is true
        raise HubError(400, f"{name} is a whole number from {low} to {high:,}")
    return int(text)


async def _body(request: Request, limit: int) -> bytes:
    """The request body, refused with 413 once it passes ``limit`` bytes.

    An oversized body up to :data:`DRAIN_BYTES` is read to its end and dropped, so that
    the client, still sending, gets to read the 413; a larger one is cut off at once.
    """
    length = request.headers.get("content-length")
    if length is not None and not (length.isascii() and length.isdigit()):
        raise HubError(400, "the Content-Length header is not a number")
    declared = None if length is None else int(length)
    chunks, size = [], 0
    if declared is None or declared <= DRAIN_BYTES:
        # A body announced and then sent a byte at a time, or never, would hold the request open for ever.
        with anyio.move_on_after(BODY_SECONDS) as deadline:
            async for chunk in request.stream():
                size += len(chunk)
                if size <= limit:
                    chunks.append(chunk)
                elif size > DRAIN_BYTES:
                    break
        if deadline.cancelled_caught:
            raise HubError(408, f"the body did not arrive within {BODY_SECONDS:g} s")
        if size <= limit:
            # (after the read: a client still sending would not get to read the 415)
            _identity_encoded(request)
            _json_declared(request)
            return b"".join(chunks)
    said = f"{declared:,} bytes" if declared is not None else f"larger than {limit:,} bytes"
    raise HubError(413, f"the body is {said}; the limit here is {limit:,}")


def _identity_encoded(request: Request) -> None:
    """A body in a content coding (``Content-Encoding: gzip``, ``br``...) is refused (415, with ``Accept-Encoding:
    identity``, RFC 9110 15.5.16): it was read undecoded, plain JSON so labelled registering an account that a proxy
    or log reader decoding the label would read as another body. The hub decodes none (no decompression bomb to
    bound), and its client sends none."""
    # (every line of the header: one line read alone let `identity` then `gzip` through, review25b)
    lines = request.headers.getlist("content-encoding")
    codings = [c.strip().lower() for line in lines for c in line.split(",")]
    if any(c not in ("", "identity") for c in codings):
        shown = ", ".join(lines)
        shown = repr(shown) if len(shown) <= 60 else repr(shown[:60]) + "..."
        raise HubError(415, f"the body is encoded {shown} (Content-Encoding): the hub reads a body as it is sent, "
                            "uncompressed; send it without Content-Encoding", headers={"accept-encoding": "identity"})


def _json_declared(request: Request) -> None:
    """A body declared another type than JSON is refused (415); one declared none is read as JSON. A page of
    any site may send text/plain, a form or multipart across sites without a CORS preflight: read as JSON, a
    form with enctype=text/plain registered accounts on a hub its visitor could reach."""
    declared = request.headers.get("content-type")
    if declared is None:
        return
    media = declared.split(";", 1)[0].strip().lower()
    if media != "application/json" and not (media.startswith("application/") and media.endswith("+json")):
        shown = repr(media) if len(media) <= 60 else repr(media[:60]) + "..."
        raise HubError(415, f"the body is declared {shown}: the hub reads application/json (Content-Type)")


def _json_text(raw: bytes, what: str, key: str) -> str:
    """The body as text that parses as JSON (400 otherwise, with the place and what to do, in the
    words ``check`` uses for a file: ``what`` is the body's kind, ``key`` one of its keys)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HubError(400, f"the body is not UTF-8 (a bad byte at offset {exc.start})") from None
    try:
        json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        line, column, message = json_syntax_error(exc, text, what, key, source="the body")
        raise HubError(400, f"malformed JSON at line {line} column {column}: {message}") from None
    except RecursionError:
        raise HubError(400, "malformed JSON: nested too deeply") from None
    except _NotAValue as exc:
        raise HubError(400, f"malformed JSON: {exc}") from None
    except ValueError:  # Python reads no integer of more than 4,300 digits (its words named sys.set_int_max_str_digits)
        found = next((m for m in CONSTANT_OR_NUMBER.finditer(text) if m.group(1) and m.group(1)[-1].isdigit()), None)
        line, column = LineIndex(text).position(found.start(1) if found else 0)
        raise HubError(400, f"malformed JSON at line {line} column {column}: {LONG_NUMBER}") from None
    return text


class _NotAValue(ValueError):
    """``NaN`` or ``Infinity``, which Python's parser reads and JSON has not."""


def _no_constant(token: str) -> Any:
    raise _NotAValue(f"{token} is not a JSON value")


async def _json_object(request: Request, limit: int, key: str, empty_is_none: bool = False) -> dict:
    """The body's JSON object (``empty_is_none``: a body of nothing at all is the object ``{}``)."""
    raw = await _body(request, limit)
    if empty_is_none and not raw.strip():
        return {}
    return await run_in_threadpool(_json_object_of, raw, key)  # (a campaign's 8 MiB of JSON: off the event loop)


def _json_object_of(raw: bytes, key: str) -> dict:
    text = _json_text(raw, "a request here", key)
    try:
        # A key written twice reads as its last to this parser and as its first to others (a proxy, a log
        # reader): one body, one meaning. (A replay's own keys are refused with their path by its parse.)
        value = json.loads(text, object_pairs_hook=pairs_no_duplicates)
    except DuplicateKey as exc:
        raise HubError(400, f"the body names {exc.key!r} twice: an object names each property once",
                       field=exc.key) from None
    if not isinstance(value, dict):
        raise HubError(400, "the body must be a JSON object")
    return value
