"""The browser front end: textual-serve's server, with a cap on sessions, a same-origin check and hub maps.

textual-serve starts one process per websocket connection (one per browser tab) and ends it when the
tab closes. Added here:

- a page from another site cannot open a session (a browser sends its Origin with a websocket, and a
  session of the editor could write files);
- at most ``max_sessions`` processes run at once; more are refused with 503;
- with a hub, ``/map/REF`` plays the hub's map REF (an id or a content hash, as the hub's ``play_url``
  setting links to): the map is downloaded once, its content hash checked against the hub's, and the
  session plays the saved copy with exactly the options of ``/``.

The page and its websocket are textual-serve's own (its template and ``AppService``); only the
websocket address of a map's page differs (``/ws/map/HASH``), and the page makes no third-party
request: textual-serve's template loads Roboto Mono from Google Fonts, which a private or offline
server must not do, so its stylesheet links to other sites are dropped and the font is the copy
textual-serve itself serves under ``/static/fonts/``.
"""

from __future__ import annotations

import asyncio
import re
import signal
import socket
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit

import aiohttp_jinja2
import jinja2
from aiohttp import WSCloseCode, web
from textual_serve.app_service import AppService
from textual_serve.server import Server, log, to_int

HASH = re.compile(r"[0-9a-f]{64}")
HUB_TIMEOUT_S = 15.0  # a map page waits at most this long for the hub


class MapUnavailable(Exception):
    """The hub map cannot be played: ``status`` is the HTTP status the page answers with."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class HubMaps:
    """Maps downloaded from a hub into ``folder``, one verified file per content hash."""

    def __init__(self, hub_url: str, folder: Path) -> None:
        from cardrogue.hub.client import HubClient

        self.client = HubClient(hub_url, timeout=HUB_TIMEOUT_S)
        self.folder = folder
        self.titles: dict[str, str] = {}  # content hash -> title, for the maps saved in folder

    def path(self, content_hash: str) -> Path | None:
        """The saved copy of a map fetched before, or None."""
        return self.folder / f"{content_hash}.json" if content_hash in self.titles else None

    def fetch(self, ref: str) -> tuple[str, str]:
        """(content hash, title) of the hub's map ``ref``, downloaded and checked if not saved yet."""
        from cardrogue.engine.format.loader import load_campaign_text
        from cardrogue.engine.records.atomic import atomic_write
        from cardrogue.hub.client import HubRefused, HubUnreachable, ref_problem

        if (problem := ref_problem(ref)) is not None:  # (a '/' in it reached another address of the hub's API)
            raise MapUnavailable(404, problem)
        try:
            found = self.client.map(ref)
            content_hash = found.get("hash") if isinstance(found, dict) else None
            if not isinstance(content_hash, str) or not HASH.fullmatch(content_hash):
                raise MapUnavailable(502, f"the hub {self.client.url} did not answer with a map")
            if content_hash in self.titles:
                return content_hash, self.titles[content_hash]
            text = self.client.file(content_hash)
        except HubRefused as exc:
            raise MapUnavailable(404 if exc.status == 404 else 502,
                                 f"the hub {self.client.url} has no map {ref!r}" if exc.status == 404
                                 else f"the hub {self.client.url} refused ({exc.status}): {exc}") from None
        except HubUnreachable as exc:
            raise MapUnavailable(502, str(exc)) from None
        result = load_campaign_text(text, name=f"{self.client.url}/api/maps/{content_hash}/file")
        campaign = result.campaign
        if campaign is None:
            raise MapUnavailable(502, f"the hub's map {content_hash[:12]} is not a usable campaign")
        if campaign.content_hash != content_hash:
            raise MapUnavailable(502, f"the hub sent a map whose content is not {content_hash[:12]}")
        if result.unsafe:  # published before a rule of the text rule's, or by a hub without it
            from cardrogue.engine.format.diagnostics import format_json_path

            first = result.unsafe[0]
            raise MapUnavailable(502, f"the hub's map {content_hash[:12]} holds text a hub refuses now, which is not "
                                      f"played here: {format_json_path(first.path)}: {first.why}")
        self.folder.mkdir(parents=True, exist_ok=True)
        atomic_write(self.folder / f"{content_hash}.json", text.encode("utf-8"))
        self.titles[content_hash] = campaign.title
        return content_hash, campaign.title


_FOREIGN_LINK = re.compile(r"<link\b[^>]*\bhref\s*=\s*[\"']?(?:https?:)?//[^>]*>", re.IGNORECASE)
# (the viewport: a phone's browser lays a page without one out at 980 px and shrinks it to the screen, the
# terminal's text a few pixels high; with it the terminal takes the phone's own columns, the player's narrow layout)
_OWN_HEAD = """<meta name="viewport" content="width=device-width, initial-scale=1">
    <style>
      @font-face { font-family: "Roboto Mono"; font-style: normal;
        src: url("{{ config.static.url }}fonts/RobotoMono-VariableFont_wght.ttf") format("truetype"); }
      @font-face { font-family: "Roboto Mono"; font-style: italic;
        src: url("{{ config.static.url }}fonts/RobotoMono-Italic-VariableFont_wght.ttf") format("truetype"); }
    </style>
  </head>"""


class OfflineTemplates(jinja2.FileSystemLoader):
    """textual-serve's page templates without requests to other sites: every ``<link>`` to another
    site (its Google Fonts stylesheet) is dropped and Roboto Mono comes from the server's own static files.
    The page also declares the device's width, for a phone."""

    def get_source(self, environment: jinja2.Environment, template: str):
        source, filename, uptodate = super().get_source(environment, template)
        source = _FOREIGN_LINK.sub("", source)
        if "</head>" in source:
            source = source.replace("</head>", _OWN_HEAD, 1)
        return source, filename, uptodate


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


def own_hosts(host: str, port: int, public_url: str) -> frozenset[str]:
    """The Host headers a browser sends to this server: the public URL's (with and without its port), and the
    address it listens on at its port (on loopback, every loopback name; without the port on port 80). A page of
    another site whose name is made to resolve to this machine (DNS rebinding) sends its own name, and is refused:
    the Host header is the page's to choose, so "the address the request came to" let such a page open a session."""
    import ipaddress

    parts = urlsplit(public_url)
    names = {parts.netloc.lower()}
    default = {"http": 80, "https": 443}.get(parts.scheme)
    if parts.hostname:
        # The public name without its port too: a proxy in front (README's nginx, `Host $host`) sends the name alone,
        # whatever port the public URL has. It is the operator's name, never a rebinding page's.
        bare = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
        names |= {bare.lower(), f"{bare.lower()}:{default}"} if parts.port in (None, default) else {bare.lower()}
    try:
        address = ipaddress.ip_address(host)
        loopback, everywhere = address.is_loopback, address.is_unspecified  # 0.0.0.0 and :: listen on loopback too
    except ValueError:
        loopback, everywhere = host == "localhost", False
    shown = f"[{host}]" if ":" in host else host
    for name in (*(LOOPBACK_NAMES if loopback or everywhere else ()), *(() if loopback else (shown,))):
        names.add(f"{name.lower()}:{port}")
        if port == 80:
            names.add(name.lower())  # http://localhost/ sends no port
    return frozenset(names)


STOP_WAIT_S = 10  # how long a session's process has to leave after it was asked to quit


class Session(AppService):
    """textual-serve's AppService, whose ``stop`` also waits for the session's process to end. Its own stop
    returns once the process has closed its output, before the process is reaped: when the server stopped
    then, the loop was closed under the process's transport, and the server's last words were asyncio's
    "Loop ... is closed" warning and an "Exception ignored ... Event loop is closed" traceback."""

    async def stop(self) -> None:
        await super().stop()
        process = self._process  # textual-serve's: the shell that runs the session's command
        if process is None:
            return
        try:
            await asyncio.wait_for(process.wait(), STOP_WAIT_S)
        except asyncio.TimeoutError:
            process.kill()
            await process.wait()




class SessionServer(Server):
    """``command(campaign)`` is the shell command one session runs: ``campaign`` is None on ``/``, the
    saved copy of a hub map on ``/map/REF``."""

    def __init__(self, command: Callable[[Path | None], str], *, host: str, port: int, title: str, public_url: str,
                 max_sessions: int, maps: HubMaps | None = None) -> None:
        super().__init__(command(None), host=host, port=port, title=title, public_url=public_url)
        self.command_for = command
        self.max_sessions = max_sessions
        self.sessions = 0
        self.maps = maps
        self.own_hosts = own_hosts(host, port, public_url)
        # the pages a session may be opened from: the public URL's origin and the server's own names
        self.allowed_origins = frozenset({_origin(public_url)} | {f"{scheme}://{name}" for name in self.own_hosts
                                                                  for scheme in ("http", "https")})
        self._websockets: set[web.WebSocketResponse] = set()  # the open sessions', closed when the server stops

    def serve(self, debug: bool = False, sock: socket.socket | None = None) -> None:
        """textual-serve's ``serve``, on ``sock`` when given: a listening socket the command took before,
        so a port in use is said in one line before textual-serve's banner says it serves there."""
        if sock is None:
            super().serve(debug)
            return
        self.debug = debug
        self.initialize_logging()
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        interrupted = []

        def on_interrupt() -> None:
            interrupted.append(True)
            self.request_exit()

        try:
            loop.add_signal_handler(signal.SIGINT, on_interrupt)
            loop.add_signal_handler(signal.SIGTERM, self.request_exit)
        except NotImplementedError:
            # textual-serve's own guard: a loop without signal handlers (Windows' ProactorEventLoop); ctrl+c then
            # stops the server as a KeyboardInterrupt, which run_app takes as its end and cleans up after.
            pass
        web.run_app(self._make_app(), sock=sock, handle_signals=False, loop=loop, print=lambda *args: None)
        if interrupted:
            # Stopped cleanly (sessions ended, socket closed); then Ctrl+C is said as for every command
            # (README): `cardrogue: interrupted`, exit status 130. SIGTERM, a service's stop, stays status 0.
            raise KeyboardInterrupt

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        aiohttp_jinja2.setup(app, loader=OfflineTemplates(self.templates_path))  # no third-party request
        app.router.add_get("/map/{ref}", self.handle_map_page)
        app.router.add_get("/ws/map/{hash}", self.handle_map_websocket)
        app.on_response_prepare.append(_nosniff)
        app.on_shutdown.append(self._end_sessions)
        return app

    async def _end_sessions(self, app: web.Application) -> None:
        """The server stops: every tab's websocket is closed now, so its page says "Session ended." at once
        and its process ends. Left open, each waited for aiohttp's shutdown to give up on it (about 23 s with one
        tab): the page showed a board that took no key, and the server took as long to stop."""
        await asyncio.gather(*(websocket.close(code=WSCloseCode.GOING_AWAY, message=b"the server is stopping")
                               for websocket in list(self._websockets)), return_exceptions=True)

    # ------------------------------------------------------------------ guards

    def _admit(self, request: web.Request) -> None:
        if request.host.lower() not in self.own_hosts:  # a name rebound to this machine by another site
            raise web.HTTPForbidden(text=f"a session is opened only at {self.public_url}\n")
        origin = request.headers.get("Origin")
        if origin is not None and origin.lower() not in self.allowed_origins:
            raise web.HTTPForbidden(text=f"a session is opened only from {self.public_url}\n")
        if self.sessions >= self.max_sessions:
            raise web.HTTPServiceUnavailable(text=f"all {self.max_sessions} sessions are in use; try again later\n")

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
        self._admit(request)
        return await self._session(request, self.command)

    # ------------------------------------------------------------------ hub maps

    async def handle_map_page(self, request: web.Request) -> web.StreamResponse:
        if self.maps is None:
            raise web.HTTPNotFound(text="this server plays no hub maps: start it with --hub URL\n")
        ref = request.match_info["ref"]
        try:
            content_hash, title = await asyncio.get_running_loop().run_in_executor(None, self.maps.fetch, ref)
        except MapUnavailable as exc:
            raise _status(exc.status, f"{exc}\n") from None
        ws = f"{self.public_url}/ws/map/{content_hash}"
        context = {
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "app_websocket_url": ("wss:" if self.public_url.startswith("https") else "ws:") + ws.split(":", 1)[1],
            "config": {"static": {"url": f"{self.public_url}/static/"}},
            "application": {"name": f"Card Rogue — {title}"},
        }
        return aiohttp_jinja2.render_template("app_index.html", request, context)

    async def handle_map_websocket(self, request: web.Request) -> web.StreamResponse:
        path = self.maps.path(request.match_info["hash"]) if self.maps is not None else None
        if path is None:
            raise web.HTTPNotFound(text="open the map's page first: /map/HASH\n")
        self._admit(request)
        return await self._session(request, self.command_for(path))

    # ------------------------------------------------------------------ one session

    async def _session(self, request: web.Request, command: str) -> web.StreamResponse:
        """One browser tab: its own process running ``command``, fed by the tab's websocket."""
        self.sessions += 1
        websocket = web.WebSocketResponse(heartbeat=15)
        self._websockets.add(websocket)
        service: AppService | None = None
        try:
            await websocket.prepare(request)
            service = Session(command, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                                 close=websocket.close, download_manager=self.download_manager, debug=self.debug)
            await service.start(to_int(request.query.get("width", "80"), 80), to_int(request.query.get("height", "24"), 24))
            await self._process_messages(websocket, service)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # a broken connection ends this session only
            log.exception(error)
        finally:
            if service is not None:
                await service.stop()
            self._websockets.discard(websocket)
            self.sessions -= 1
        return websocket


async def _nosniff(request: web.Request, response: web.StreamResponse) -> None:
    """Every reply is read as the type it names: the error replies are plain text that may quote a
    stranger's map reference, and no browser may guess them into HTML (as the hub's replies). And no page of
    another site may show this one in a frame (the hub's pages refuse it too): laid under that site's own
    buttons, a session (with --editor, one that writes files) would take the clicks and keys meant for them."""
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers.setdefault("Content-Security-Policy", "frame-ancestors 'none'")


def _status(status: int, text: str) -> web.HTTPException:
    return (web.HTTPNotFound if status == 404 else web.HTTPBadGateway)(text=text)
