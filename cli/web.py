"""`cardrogue web`: the player (or the editor) served to a browser with textual-serve.

Every browser connection runs its own ``cardrogue play`` (or ``edit``) process, started by
textual-serve, so a tab's game, replay and score go through exactly the code the terminal runs.
"""

from __future__ import annotations

import argparse
import ipaddress
import shlex
import sys
from pathlib import Path

from .common import EXIT_OK, UnusableInput, complain, count, lines_of, listen, load_usable, open_scores, whole

port = whole(1, 65_535, "a port")


def register(sub) -> None:
    web = sub.add_parser("web", help="serve the player (or the editor) to a browser; every tab is its own session")
    web.add_argument("campaign", nargs="?", type=Path,
                     help="campaign file (default: the bundled campaign; with --editor, as for `cardrogue edit`)")
    web.add_argument("--editor", action="store_true",
                     help="serve the editor instead of the player (it reads and writes files on this machine)")
    web.add_argument("--host", default="127.0.0.1",
                     help="the address to listen on (default 127.0.0.1: reachable from this machine only)")
    web.add_argument("--port", type=port, default=8000, help="the port to listen on (default 8000)")
    web.add_argument("--public-url", default=None, metavar="URL",
                     help="the address browsers use to reach the server, behind a reverse proxy "
                          "(e.g. https://play.example.org; default http://HOST:PORT)")
    web.add_argument("--max-sessions", type=count, default=16, metavar="N",
                     help="most browser sessions at once (each is a process); more are refused (default 16)")
    web.add_argument("--level", type=int, default=None, metavar="N",
                     help="the player: practise level N (1-based) of CAMPAIGN; not scored")
    web.add_argument("--scores-db", type=Path, default=None,
                     help="the player: high-score database (default: user data dir, or $CARDROGUE_SCORES_DB)")
    web.add_argument("--replays", type=Path, default=None, help="the player: folder for replay files (default: user data dir)")
    web.add_argument("--player", default=None, help="the player: the name on the scores (default: the server's hub account's name when "
                          "registered, else its login name)")
    web.add_argument("--hub", default=None, metavar="URL",
                     help="also play this hub's maps at /map/ID or /map/HASH (what the hub's --play-url links to)")
    web.set_defaults(func=cmd_web)


def session_command(args: argparse.Namespace, campaign: Path | None = None) -> list[str]:
    """The command each browser session runs: ``cardrogue play`` or ``edit`` with the given options, on
    ``campaign`` (a hub map's saved copy) or else the command's own CAMPAIGN."""
    command = [sys.executable, "-m", "cardrogue", "edit" if args.editor else "play"]
    level = args.level if campaign is None else None  # --level is checked against CAMPAIGN, not a hub map
    campaign = campaign or args.campaign
    if campaign is not None:
        command.append(str(campaign.expanduser().absolute()))
    if not args.editor:
        for option, value in (("--level", level), ("--scores-db", args.scores_db), ("--replays", args.replays),
                              ("--player", args.player)):
            if value is not None:
                command += [option, str(value.expanduser().absolute()) if isinstance(value, Path) else str(value)]
    return command


def _check_session(args: argparse.Namespace) -> str:
    """Fail before serving when a session could not start; the title the page shows."""
    if args.editor:
        from cardrogue.editor.files import OpenError, document_for

        if any(v is not None for v in (args.level, args.scores_db, args.replays, args.player, args.hub)):
            raise UnusableInput("--level, --scores-db, --replays, --player and --hub are for the player; "
                                "drop them with --editor")
        try:
            doc = document_for(args.campaign)
        except OpenError as exc:
            raise UnusableInput("\n".join(d.render() for d in exc.result.diagnostics) or str(exc)) from None
        return f"Card Rogue Story Studio — {doc.campaign.title}"
    from cardrogue.engine.format.resources import default_campaign

    from .common import check_player, level_index, make_replays_folder

    path = args.campaign or default_campaign()
    campaign = load_usable(path)
    level_index(campaign, args.level, path)
    check_player(args.player)
    open_scores(args.scores_db).close()
    make_replays_folder(args.replays)
    return f"Card Rogue — {campaign.title}"


def default_public_url(host: str, port_number: int) -> str:
    try:
        shown = f"[{host}]" if ipaddress.ip_address(host).version == 6 else host
    except ValueError:  # a host name
        shown = host
    return f"http://{shown}:{port_number}"


def is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _web_address(url: str, option: str) -> str:
    from cardrogue.hub.addresses import url_problem

    if (problem := url_problem(url)) is not None:
        raise UnusableInput(f"{option} {url!r}: {problem}")
    return url.rstrip("/")


def cmd_web(args: argparse.Namespace) -> int:
    try:
        title = _check_session(args)
        public_url = _web_address(args.public_url or default_public_url(args.host, args.port), "--public-url")
        hub = None if args.hub is None else _web_address(args.hub, "--hub")
    except UnusableInput as exc:
        complain(*lines_of(exc))
        return exc.exit_code
    if args.editor and not is_loopback(args.host):
        complain(f"warning: the editor served on {args.host} lets whoever reaches it read and write files as this user")
    import tempfile  # here, not at the top: every other command starts without it

    from cardrogue.editor.web import HubMaps, SessionServer

    # The address is taken before textual-serve says "Serving ... on ...": a port in use is one line
    # and exit 2, as for `cardrogue hub serve`, not the banner and then the error.
    try:
        listening = listen(args.host, args.port)
    except UnusableInput as exc:
        complain(*lines_of(exc))
        return exc.exit_code
    with listening, tempfile.TemporaryDirectory(prefix="cardrogue-web-") as maps_dir:
        server = SessionServer(lambda campaign: shlex.join(session_command(args, campaign)), host=args.host,
                               port=args.port, title=title, public_url=public_url, max_sessions=args.max_sessions,
                               maps=None if hub is None else HubMaps(hub, Path(maps_dir)))
        server.serve(sock=listening)
    return EXIT_OK
