"""`cardrogue hub`: serve a community hub, or use one (docs/hub.md).

``serve`` runs the server; the other commands are its client: ``register`` saves the
hub's URL and the API token in the user's config (``cardrogue.hub.config``), and the
rest use them (``--hub URL`` picks another hub for one command). Exit 0 done, 1 the hub
refused (its reason is printed), 2 unusable input or no hub at the URL, 75 the hub unavailable
for now (a 503, 429, a proxy's 502 or 504, the connection refused or timed out): try again later.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from cardrogue.engine.words import counted

from .common import (EXIT_OK, EXIT_PROBLEMS, EXIT_TEMPFAIL, EXIT_UNUSABLE, UnusableInput, complain, lines_of, listen,
                     printable, read_text, say, say_shown, score_line, whole)
from .replays import replay_document

window_days = whole(0, 365, "a competition window")
port_number = whole(1, 65_535, "a port")
small_count = whole(1, 100, "a count here")
MAP_HELP = "campaign id (its latest version) or content hash (one version: whole, or its first 12 digits or more)"


def register(sub) -> None:
    hub = sub.add_parser("hub", help="the community hub: serve one, or publish, pull and compete on one")
    commands = hub.add_subparsers(dest="hub_command", metavar="HUB_COMMAND", parser_class=type(hub))
    hub.set_defaults(func=lambda args: (hub.print_help(), EXIT_UNUSABLE)[1])

    serve = commands.add_parser("serve", help="run a hub server")
    serve.add_argument("--db", default=None, metavar="URL",
                       help="a SQLite file or postgresql://user:password@host[:port]/database "
                            "(default: $CARDROGUE_HUB_DB, else hub.sqlite3 in the user data folder)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=port_number, default=8765, help="port to listen on (default 8765)")
    serve.add_argument("--workers", type=whole(1, 64, "a worker count"), default=2,
                       help="clear checks and re-simulations at once in this process (default 2)")
    serve.add_argument("--solve-seconds", type=float, default=20.0, help="the clear check's solver budget in seconds (default 20)")
    serve.add_argument("--db-timeout", type=float, default=5.0, metavar="S",
                       help="the longest a request waits for the database before a 503 (default 5)")
    serve.add_argument("--play-url", default=None, metavar="TEMPLATE",
                       help="link each map page to a web player: a URL naming the map by {hash} or {id}")
    serve.add_argument("--allowed-host", action="append", default=None, metavar="NAME",
                       help="answer only requests whose Host header names NAME (a port aside); give it once per name "
                            "(default: any host)")
    serve.set_defaults(func=cmd_serve)

    def client(name: str, help_text: str, group=commands):
        parser = group.add_parser(name, help=help_text)
        parser.add_argument("--hub", default=None, metavar="URL", help="the hub (default: the one you registered with)")
        parser.add_argument("--format", choices=("text", "json"), default="text",
                            help="text (default) or the hub's answer as JSON")
        return parser

    reg = client("register", "create an account; saves the hub URL and your API token")
    reg.add_argument("name", help="your player name (letters of any script, digits, '_', '.', '-')")
    reg.add_argument("--force", action="store_true",
                     help="replace the account saved already (the hub keeps only a hash of its token: lost, only the operator gives another)")
    reg.set_defaults(func=cmd_register)
    login = client("login", "save an API token you hold (read from standard input) once the hub says whose it is")
    login.add_argument("--force", action="store_true", help="replace the account saved already")
    login.set_defaults(func=cmd_login)
    logout = client("logout", "revoke your API token on the hub and remove it from this machine")
    logout.set_defaults(func=cmd_logout)
    token = commands.add_parser("token", help="your API token: `token rotate` replaces it")
    token_commands = token.add_subparsers(dest="token_command", metavar="TOKEN_COMMAND", parser_class=type(hub))
    token.set_defaults(func=lambda args: (token.print_help(), EXIT_UNUSABLE)[1])
    rotate = client("rotate", "a new API token in place of yours (the old one stops working at once), saved here",
                    group=token_commands)
    rotate.set_defaults(func=cmd_token_rotate)
    revoke = commands.add_parser("revoke", help="the hub's operator: revoke a player's API tokens in the hub's database")
    revoke.add_argument("name", help="the player's name")
    revoke.add_argument("--db", default=None, metavar="URL", help="the hub's database, as for `serve`")
    revoke.add_argument("--new-token", action="store_true",
                        help="then make a new token and print it, once, for the player to save with `hub login`")
    revoke.add_argument("--db-timeout", type=float, default=5.0, metavar="S",
                        help="the longest to wait for the database, as for `serve` (default 5); past it, exit 75")
    revoke.add_argument("--format", choices=("text", "json"), default="text", help="text (default) or JSON")
    revoke.set_defaults(func=cmd_revoke)
    pub = client("publish", "publish a campaign or challenge map (the hub checks and solves it)")
    pub.add_argument("campaign", type=Path, help="campaign file")
    pub.add_argument("--window-days", type=window_days, default=None,
                     help="competition window: runs' actions stay hidden this many days (default 7; 0 for none)")
    pub.set_defaults(func=cmd_publish)
    lst = client("list", "list and search the hub's maps")
    lst.add_argument("--search", default="", metavar="TEXT", help="match title, id, author, or a content hash from 8 hex digits on (default: list every map)")
    lst.add_argument("--limit", type=small_count, default=50, help="list at most this many maps (default 50)")
    lst.set_defaults(func=cmd_list)
    pull = client("pull", "download a map (by campaign id or content hash), or a run's replay")
    pull.add_argument("map", help=MAP_HELP)
    pull.add_argument("-o", "--output", type=Path, default=None, help="where to write (default: ID.json here)")
    pull.add_argument("--rank", type=small_count, default=None, metavar="N", help="download the best run of the player ranked N instead")
    pull.add_argument("--force", action="store_true", help="overwrite an existing file")
    pull.set_defaults(func=cmd_pull)
    sub_ = client("submit", "submit a won run's replay; the hub re-simulates it")
    sub_.add_argument("replay", type=Path, help="replay file")
    sub_.add_argument("--map", default=None, help="the map, as for `pull` (default: the version the replay was recorded on)")
    sub_.set_defaults(func=cmd_submit)
    board = client("leaderboard", "a map's players, each with their best verified run: fewest turns, then most health")
    board.add_argument("map", help=MAP_HELP)
    board.add_argument("--limit", type=small_count, default=20, help="show at most this many rows (default 20)")
    board.add_argument("--every", action="store_true", help="list every run, not each player's best once")
    board.set_defaults(func=cmd_leaderboard)


# -- serve


def cmd_serve(args: argparse.Namespace) -> int:
    from cardrogue.hub.db import Database, DatabaseError, display_url
    from cardrogue.hub.service import Settings

    if not 0 < args.solve_seconds <= 3600:
        complain("--solve-seconds is more than 0 and at most 3600")
        return EXIT_UNUSABLE
    if not 0 < args.db_timeout <= 3600:
        complain("--db-timeout is more than 0 and at most 3600 seconds")
        return EXIT_UNUSABLE
    if args.db is not None and not args.db.strip():  # `--db "$HUB_DB"` with the variable unset served the default
        complain("--db is empty: name a SQLite file or postgresql://user:password@host[:port]/database, "
                 "or leave --db out for the default")
        return EXIT_UNUSABLE
    allowed = tuple(args.allowed_host or ())
    if bad := [h for h in allowed if not re.fullmatch(r"[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\]", h)]:
        complain(f"--allowed-host {bad[0]!r}: a host name or address alone (hub.example, 192.0.2.7, [2001:db8::7]), "
                 "without a scheme, port or path")
        return EXIT_UNUSABLE
    if args.play_url is not None and (problem := _play_url_problem(args.play_url)) is not None:
        complain(f"--play-url {args.play_url!r}: {problem}")
        return EXIT_UNUSABLE
    # The address is taken first: a port in use is one line and exit 2, as for `cardrogue web`, not
    # uvicorn's own error and its exit status 3; and said before the database is opened, which would
    # make a new file (and the default's folder) or migrate an empty PostgreSQL database for nothing.
    try:
        listening = listen(args.host, args.port)
    except UnusableInput as exc:
        complain(*lines_of(exc))
        return exc.exit_code
    try:
        db = Database(args.db, timeout=args.db_timeout)
    except DatabaseError as exc:
        listening.close()
        complain(*lines_of(exc))
        return EXIT_UNUSABLE

    import uvicorn

    from cardrogue.hub.app import create_app
    from cardrogue.hub.server import config as server_config

    settings = Settings(workers=args.workers, solve_seconds=args.solve_seconds, play_url=args.play_url,
                        allowed_hosts=allowed)
    terminated = False
    try:
        app = create_app(db, settings)
        where, public = _address(args.host, args.port)
        for line in _schema_said(db):  # (escaped: a note may quote a stored replay's verdict)
            print(printable(f"cardrogue hub: {line}"), flush=True)
        print(f"cardrogue hub: serving {where} (database {display_url(db.url)})", flush=True)
        if public:
            print("cardrogue hub: other machines can reach it, in plain HTTP: put a TLS-terminating proxy in front "
                  "for anything public (docs/hub.md)", flush=True)
        # (host and port as given, though uvicorn serves the socket taken above and logs no address of its own)
        server = uvicorn.Server(server_config(app, args.host, args.port, log_level="info"))
        with _sigterm_raised():
            server.run(sockets=[listening])
    except _Terminated:
        terminated = True
    finally:
        listening.close()
        db.close()
    if terminated:
        import signal

        signal.raise_signal(signal.SIGTERM)  # (its handler is back to the one before serve: the default ends the process)
    return EXIT_OK


class _Terminated(Exception):
    """SIGTERM, raised in the main thread, so that ``serve`` closes its database before the process ends by it."""


@contextmanager
def _sigterm_raised() -> Iterator[None]:
    """SIGTERM (systemd, `kill`, `docker stop`) as :class:`_Terminated` while uvicorn serves. uvicorn stops on it and
    then raises the signal again, for the process to end by it as a process manager expects: its default action
    killed the process before ``serve`` closed its database, and a SQLite hub left its latest writes in
    hub.sqlite3-wal (a copy of hub.sqlite3 taken from the stopped hub held no table)."""
    import signal

    def terminated(signum, frame):
        raise _Terminated

    try:
        previous = signal.signal(signal.SIGTERM, terminated)
    except ValueError:  # not the main thread (a program running serve in a thread): uvicorn handles no signal there
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)  # (None: set outside Python)


def _schema_said(db) -> list[str]:
    """What opening the database did to its schema, in lines, or none when it was up to date: the operator hears of an
    upgrade (an older hub's database was migrated in silence) and of tables made in a database they took for the
    hub's (a copy of hub.sqlite3 made without its -wal file holds no tables)."""
    from cardrogue.hub.db import MIGRATIONS  # (the ones Database applies)

    if not db.applied:
        return []
    described = dict((version, description) for version, description, _ in MIGRATIONS)
    latest = db.applied[-1]
    if db.found_version == 0:
        return [f"a new database: made the hub's tables (schema version {latest})"]
    return [f"upgraded the database from schema version {db.found_version} to {latest}:",
            *(f"  migration {version}: {described[version]}" for version in db.applied),
            *(f"  {note}" for note in db.notes)]


def _address(host: str, port: int) -> tuple[str, bool]:
    """Where clients reach a hub listening on ``host``, and whether other machines can: '0.0.0.0' (every
    address) was said as http://0.0.0.0:8765/, which no client reaches, and '::' as http://:::8765/."""
    import ipaddress

    try:
        ip = ipaddress.ip_address(host)
    except ValueError:  # a name
        return f"http://{host}:{port}/", host != "localhost"
    if ip.is_unspecified:
        local = "[::1]" if ip.version == 6 else "127.0.0.1"
        return f"http://{local}:{port}/ and every other address of this machine", True
    return f"http://{f'[{ip}]' if ip.version == 6 else ip}:{port}/", not ip.is_loopback


def _play_url_problem(template: str) -> str | None:
    """Why ``template`` cannot link a map page to a web player, or None: it names the map by ``{hash}`` or
    ``{id}`` and nothing else, and fills to a whole address. A template naming another placeholder was
    taken, and every map page and map of the API then answered 500."""
    from string import Formatter

    from cardrogue.hub.addresses import url_problem

    try:
        fields = {name for _, name, _, _ in Formatter().parse(template) if name is not None}
        filled = template.format(hash="0" * 64, id="a-map")
    except (ValueError, KeyError, IndexError, AttributeError):
        fields = {None}
    if not fields or fields - {"hash", "id"}:
        return "a template names the map by {hash} or {id} (and nothing else in braces: {{ and }} write a brace)"
    return url_problem(filled)


# -- the client


def _client(args: argparse.Namespace, need_token: bool = False):
    from cardrogue.hub.client import HubClient
    from cardrogue.hub.config import DEFAULT_HUB, load_config

    config = load_config()
    url = args.hub or config.hub or DEFAULT_HUB
    # A token belongs to the hub it was issued by: never send it to another one.
    token = config.token if config.hub and config.hub.rstrip("/") == url.rstrip("/") else None
    if need_token and not token:
        raise UnusableInput(f"no account for {url}: run `cardrogue hub register NAME --hub {url}` first")
    return HubClient(url, token)


def _saved_hub() -> str | None:
    """The hub URL saved by `register`, or None (also when the settings cannot be read)."""
    from cardrogue.hub.config import load_config

    try:
        return load_config().hub
    except UnusableInput:  # an unreadable hub.json: already said where it was needed
        return None


def _run(args: argparse.Namespace, work) -> int:
    """Run ``work(args)``, turning every client failure into its message and exit code."""
    from cardrogue.engine.errors import RejectedReplay
    from cardrogue.hub.client import HubRefused, HubUnreachable

    try:
        return work(args)
    except _Interrupted as exc:
        complain(str(exc))
        return 130  # as for any Ctrl+C (cli/main.py)
    except RejectedReplay as exc:  # not a replay: rejected, exit 1, as `verify` says
        complain(*lines_of(exc))
        return EXIT_PROBLEMS
    except UnusableInput as exc:
        complain(*lines_of(exc))
        return EXIT_UNUSABLE
    except HubUnreachable as exc:
        complain(*lines_of(_when_to_try_again(exc)))
        if not args.hub and not _saved_hub():  # the address came from nowhere the user can see: say where
            from cardrogue.hub.config import DEFAULT_HUB

            complain(f"(no hub named: {DEFAULT_HUB} is where `cardrogue hub serve` listens by default; "
                     "--hub URL names another, and `cardrogue hub register NAME --hub URL` saves it)")
        return EXIT_TEMPFAIL if exc.temporary else EXIT_UNUSABLE
    except HubRefused as exc:
        if args.format == "json":
            when = {} if exc.retry_after is None else {"retry_after": exc.retry_after}
            _json({"status": exc.status, **when, **exc.body})
        else:
            for line in _refusal(exc, getattr(args, "campaign", None)):
                say(line, err=True)
        return EXIT_TEMPFAIL if exc.temporary else EXIT_PROBLEMS


def _refusal(exc, sent: Path | None) -> list[str]:
    """A hub's refusal as lines: ``cardrogue: the hub refused (STATUS): reason`` (``could not answer`` for a 5xx),
    then the diagnostics of
    a refused map and the texts it refuses as `cardrogue check` writes them, ``file:line:col: CODE: message
    [$.json.path]``, the file being the one sent (``sent``). The headline names the first refused text by
    its path; listed below with its place, it is not said twice. A text without a place (an older hub's
    answer) is listed by its path."""
    headline = str(exc)
    diagnostics = [d for d in exc.body.get("diagnostics") or () if isinstance(d, dict)]
    problems = [p for p in exc.body.get("problems") or () if isinstance(p, dict)]
    first, lines = problems[0] if problems else None, []
    for d in diagnostics + problems:
        path = f" [{d['path']}]" if d.get("path") else ""
        if type(d.get("line")) is int and type(d.get("column")) is int:
            lines.append(f"  {sent or d.get('file', '')}:{d['line']}:{d['column']}: {d.get('code', '')}: "
                         f"{d.get('message', '')}{path}")
            if d is first:
                headline = headline.replace(f": {d.get('path', '')}: {d.get('message', '')}", "", 1)
        elif (line := f"{d.get('path', '')}: {d.get('message', '')}") not in headline:
            lines.append(f"  {line}")
    said = "could not answer" if exc.status >= 500 else "refused"  # (a 503: its database is away, or it is busy)
    if exc.temporary:
        headline = _when_to_try_again(headline, exc.retry_after)
    return [f"cardrogue: the hub {said} ({exc.status}): {headline}"] + lines


def _when_to_try_again(said, retry_after: float | None = None):
    """A failure for now said with when to try again: the hub's Retry-After (``try again in 5 s``) in place of its
    ``try again later`` (or ``shortly``), else after its reason; ``try again later`` when the hub gave no time. An exception (a
    HubUnreachable) gives its own message and Retry-After, and is given back as one of its kind."""
    if isinstance(said, Exception):
        if not getattr(said, "temporary", False):
            return said
        return type(said)(_when_to_try_again(str(said), said.retry_after))
    when = "try again later" if retry_after is None else f"try again in {max(1, math.ceil(retry_after)):,} s"
    for vague in ("try again later", "try again shortly"):
        if vague in said:
            return said.replace(vague, when, 1)
    if re.search(r"\b(wait|try again)\b", said):  # (a 429's 'wait 3 s' says when already)
        return said
    return f"{said}; {when}"


class _Interrupted(Exception):
    """Ctrl+C while a request the hub goes on with was out: what the user can do about it."""


def _sent(request, when: str):
    """``request()``; Ctrl+C meanwhile says what the hub may have done ('interrupted' alone left an author
    not knowing whether the map was published: the hub finishes the check and publishes it)."""
    try:
        return request()
    except KeyboardInterrupt:
        raise _Interrupted(f"interrupted {when}") from None


def _unless_dead(request):
    """``request()``'s answer, or None when the hub refuses its token as unknown (401: revoked or rotated away)."""
    from cardrogue.hub.client import HubRefused

    try:
        return request()
    except HubRefused as exc:
        if exc.status != 401:
            raise
        return None


def _json(value) -> None:
    json.dump(value, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def _show(text: str) -> str:
    """A string from the hub, printable: control characters shown as escapes."""
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in str(text))


def cmd_register(args: argparse.Namespace) -> int:
    def work(args):
        from dataclasses import replace

        from cardrogue.hub import config as settings
        from cardrogue.hub.client import HubClient, HubRefused, HubUnreachable
        from cardrogue.hub.config import REGISTER, DEFAULT_HUB, ClientConfig, Pending, config_path, load_config, new_token

        saved = load_config()
        url = args.hub or saved.hub or DEFAULT_HUB
        if saved.token and not args.force:
            # The token is the account: the hub keeps its hash alone, and the maps it published stay its own.
            raise UnusableInput(
                f"the account {_show(saved.name or '?')} on {_show(saved.hub or '?')} is saved in {config_path()}; "
                f"registering {_show(args.name)} would replace its token, which cannot be recovered: keep a copy of "
                "that file and pass --force to replace it")
        # The hub gives a token once and the name is then taken: where it is kept is checked first.
        _check_config_writable()
        client = HubClient(url)
        # The token is made here and saved before the hub is asked: a Ctrl+C (or a lost connection) after the hub
        # made the account lost it, as the hub keeps its hash alone. The same command again finishes with it.
        _keep_pending(saved, url, args.name, REGISTER)
        resumed = saved.pending is not None
        token = saved.pending.token if resumed else new_token()
        settings.save_config(replace(saved, pending=Pending(url, args.name, token, REGISTER)))
        again = (f"run `cardrogue hub register {_show(args.name)} --hub {url}` again to finish: the token it sent is "
                 f"kept in {config_path()}")
        try:
            answer = _sent(lambda: client.register(args.name, token),
                           f"while registering {_show(args.name)}: the hub may have made the account; {again}")
        except HubRefused as exc:
            # The hub failing may have made the account; a retry refused for too many requests may hold a token
            # made live by the try interrupted before. A first try refused so was never read: nothing holds it.
            if not _settled(exc) and (resumed or exc.status >= 500):
                raise HubRefused(exc.status, {**exc.body, "error": f"{exc}; {again}"}, exc.retry_after) from None
            settings.save_config(replace(saved, pending=None))  # refused: no account holds the token
            raise
        except HubUnreachable as exc:
            said = type(exc)(f"{exc}; the hub may have made the account: {again}")
            said.retry_after = exc.retry_after
            raise said from None
        try:
            path = settings.save_config(ClientConfig(url, answer["name"], answer["token"]))
        except UnusableInput as exc:
            # The account exists now; should its token be lost, only the hub's operator could give it another.
            raise UnusableInput(
                f"registered {_show(answer['name'])} on {url}, but {exc}; keep its token: {answer['token']} "
                f'(in {config_path()} as {{"hub": "{url}", "name": "{answer["name"]}", "token": "..."}})') from None
        replaced = f" (it replaces {_show(saved.name or '?')} on {_show(saved.hub or '?')})" if saved.token else ""
        finished = " (finishing the registration interrupted before)" if resumed else ""
        if args.format == "json":
            _json({"name": answer["name"], "hub": url, "config": str(path)})
        else:
            say(f"registered {_show(answer['name'])} on {url}{finished}; the token is saved in {path} "
                  f"(readable only by you){replaced}")
        return EXIT_OK

    return _run(args, work)


def _account_for(args: argparse.Namespace):
    """The saved settings and the hub URL, when an account of that hub is saved (else UnusableInput)."""
    from cardrogue.hub.config import DEFAULT_HUB, config_path, load_config

    config = load_config()
    url = args.hub or config.hub or DEFAULT_HUB
    if not config.token or not config.hub or config.hub.rstrip("/") != url.rstrip("/"):
        raise UnusableInput(f"no account for {url} is saved in {config_path()}: run `cardrogue hub register NAME "
                            f"--hub {url}` (or `cardrogue hub login --hub {url}` with a token you hold) first")
    return config, config.hub


def cmd_login(args: argparse.Namespace) -> int:
    def work(args):
        import getpass

        from cardrogue.hub import config as settings
        from cardrogue.hub.client import HubClient
        from cardrogue.hub.config import DEFAULT_HUB, ROTATE, TOKEN, ClientConfig, config_path, load_config

        saved = load_config()
        url = args.hub or saved.hub or DEFAULT_HUB
        # Read from standard input, never from the command line (a shell's history, `ps`), as `cargo login` does.
        try:
            typed = getpass.getpass(f"API token for {url}: ") if sys.stdin.isatty() else sys.stdin.readline()
        except EOFError:
            typed = ""
        token = typed.strip()
        if not TOKEN.fullmatch(token):
            raise UnusableInput("no token read from standard input: give the token a hub gave (printable ASCII "
                                "without spaces), e.g. `cardrogue hub login < token.txt`")
        _check_config_writable()
        who = HubClient(url, token).me()
        same = saved.name == who["name"] and (saved.hub or "").rstrip("/") == url.rstrip("/")
        if saved.token and not same and not args.force:  # (the same account's token, one given anew, needs none)
            raise UnusableInput(
                f"the account {_show(saved.name or '?')} on {_show(saved.hub or '?')} is saved in {config_path()}; "
                f"saving the token of {_show(who['name'])} would replace its token: keep a copy of that file and pass "
                "--force to replace it")
        kept = _other_pending(saved, url, who["name"])
        if kept is None and saved.pending is not None and saved.pending.kind == ROTATE and saved.pending.token != token:
            kept = saved.pending  # this account's rotation, interrupted, may still land: `token rotate` finishes it
        path = settings.save_config(ClientConfig(url, who["name"], token, pending=kept))
        if args.format == "json":
            _json({"name": who["name"], "hub": url, "config": str(path)})
        else:
            say(f"logged in as {_show(who['name'])} on {url}; the token is saved in {path} (readable only by you)")
            if kept is not None and kept.of(url, who["name"]):
                say("a `token rotate` interrupted before is kept beside it, as its request may still reach the hub: "
                    "`cardrogue hub token rotate` finishes it")
        return EXIT_OK

    return _run(args, work)


def cmd_logout(args: argparse.Namespace) -> int:
    def work(args):
        from cardrogue.hub import config as settings
        from cardrogue.hub.client import HubClient
        from cardrogue.hub.config import ClientConfig

        config, url = _account_for(args)
        _check_config_writable()
        # (a token dead already, rotated elsewhere or revoked by the operator, is forgotten here too)
        answer = _unless_dead(lambda: _sent(lambda: HubClient(url, config.token).revoke(),
                                            "while the hub revoked the token: it may be revoked; run `cardrogue hub "
                                            "logout` again to finish (the token stays saved until the hub says it is "
                                            "dead)"))
        left = None if answer is None else answer["tokens_left"]
        if config.pending is not None and config.pending.of(url, config.name):
            # a rotation whose answer was lost: its token may be the live one, and would be forgotten live
            if (answer := _unless_dead(lambda: HubClient(url, config.pending.token).revoke())) is not None:
                left = answer["tokens_left"]
        path = settings.save_config(ClientConfig(hub=config.hub, pending=_other_pending(config, url, config.name)))
        if args.format == "json":
            _json({"name": config.name, "hub": url, "revoked": left is not None, "tokens_left": left,
                   "config": str(path)})
            return EXIT_OK
        said = "revoked on the hub" if left is not None else "dead on the hub already"
        say(f"logged out {_show(config.name or '?')}: the token is {said} and removed from {path}")
        if not left:
            say(f"  {_show(config.name or '?')} keeps its maps and runs, but no token of it works now: only the hub's "
                f"operator can give it one (`cardrogue hub revoke {_show(config.name or 'NAME')} --new-token`), "
                "which `cardrogue hub login` saves")
        return EXIT_OK

    return _run(args, work)


def cmd_token_rotate(args: argparse.Namespace) -> int:
    def work(args):
        from dataclasses import replace

        from cardrogue.hub import config as settings
        from cardrogue.hub.client import HubClient, HubRefused, HubUnreachable
        from cardrogue.hub.config import REGISTER, ROTATE, ClientConfig, Pending, config_path, new_token

        config, url = _account_for(args)
        _keep_pending(config, url, config.name, None)  # (a registration of this account, lost: finished as one)
        _check_config_writable()
        pending = config.pending

        def finished_before() -> int | None:
            """The kept token live (the interrupted command reached the hub): saved, and said; else None."""
            if _unless_dead(lambda: HubClient(url, pending.token).me()) is None:
                return None
            path = settings.save_config(ClientConfig(url, config.name, pending.token))
            lost = "registration" if pending.kind == REGISTER else "rotation"
            return _rotated(args, config.name, url, path, f" (finishing the {lost} interrupted before)")

        if pending is not None and (done := finished_before()) is not None:
            return done
        # An interrupted rotation not taken yet is sent again with its own token, never a new one: that request may
        # still be on its way to the hub, and whichever lands first, its token is the one kept.
        resumed = pending is not None and pending.kind == ROTATE
        token = pending.token if resumed else new_token()
        # Saved before the hub is asked: once it answers, the old token is dead; a lost answer must not lose the new.
        settings.save_config(replace(config, pending=Pending(url, config.name or "", token, ROTATE)))
        again = f"run `cardrogue hub token rotate` again to finish (the new token is kept in {config_path()})"
        try:
            answer = _sent(lambda: HubClient(url, config.token).rotate(token), f"while the hub rotated the token: {again}")
        except HubUnreachable as exc:
            # (a connection dropped or timed out after the request was sent: the hub may have rotated, the old token
            # dead; the kept one is the account's then, and the same command finishes with it)
            said = type(exc)(f"{exc}; the hub may have rotated the token: {again}")
            said.retry_after = exc.retry_after
            raise said from None
        except HubRefused as exc:
            if exc.status >= 500 or (resumed and not _settled(exc)):
                # The hub failing may have rotated, and a retry refused unread (429) leaves the interrupted request
                # on its way: the next rotate checks the token kept.
                raise HubRefused(exc.status, {**exc.body, "error": f"{exc}; {again}"}, exc.retry_after) from None
            if exc.status == 401 and resumed and (done := finished_before()) is not None:
                return done  # the interrupted request landed while this one was on its way: its token is live
            settings.save_config(replace(config, pending=None))  # refused before it was read: no account's
            raise
        path = settings.save_config(ClientConfig(url, answer["name"], answer["token"]))
        # (resumed: sent with the kept token, done now or by the interrupted request landing first, which the hub
        # answers as done too)
        return _rotated(args, answer["name"], url, path, " (finishing the rotation interrupted before)" if resumed else "")

    return _run(args, work)


def _settled(refusal) -> bool:
    """Whether a hub's refusal says the token sent is no account's: not so of too many requests (429) or of the
    hub failing (5xx), where a token sent by an interrupted request before (or this one) may be live."""
    return refusal.status != 429 and refusal.status < 500


def _other_pending(config, url: str, name: str | None):
    """The settings' token of a registration interrupted for another account than ``name`` on ``url``, kept
    when this command saves its own account (that account may hold the token alone); None otherwise."""
    pending = config.pending
    return None if pending is None or pending.of(url, name) else pending


def _keep_pending(config, url: str, name: str | None, kind: str | None) -> None:
    """Refused when the settings hold a token waiting for a hub's answer that this command cannot finish (one of
    another account than ``name`` on ``url``, or of another command than ``kind`` when given), which its own token,
    kept in its place while the hub is asked, would drop. The refusal names the command that finishes it."""
    from cardrogue.hub.config import REGISTER, config_path

    pending = config.pending
    if pending is None or (pending.of(url, name) and kind in (None, pending.kind)):
        return
    if pending.kind == REGISTER:
        sent, finish = "register", f"`cardrogue hub register {_show(pending.name)} --hub {pending.hub}`"
    elif pending.of(config.hub or "", config.name) and config.token:
        sent, finish = "token rotate", f"`cardrogue hub token rotate --hub {pending.hub}`"
    else:  # the account is no longer the one saved: a login with the kept token (live if the hub rotated) finishes
        sent, finish = "token rotate", (f"`cardrogue hub login --force --hub {pending.hub}` as {_show(pending.name)} "
                                        "with the kept token, or its old one should the hub refuse that")
    raise UnusableInput(
        f"a token of {_show(pending.name)} on {_show(pending.hub)} waits in {config_path()} for a hub's answer that "
        f"never came (an interrupted `{sent}`), and may be that account's only one: finish it first ({finish}), or "
        "give it up by removing \"pending\" from that file")


def _check_config_writable() -> None:
    """The settings' folder made (mode 0700) and the file writable, before the hub is asked for a token."""
    from cardrogue.hub.config import config_path

    from .common import check_writable

    try:
        config_path().parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise UnusableInput(f"{config_path()}: cannot save the hub settings: {exc.strerror or exc}") from None
    check_writable(config_path())


def _rotated(args: argparse.Namespace, name: str | None, url: str, path: Path, finished: str) -> int:
    if args.format == "json":
        _json({"name": name, "hub": url, "config": str(path)})
    else:
        say(f"rotated the token of {_show(name or '?')} on {url}{finished}: the new one is saved in {path} (readable "
            "only by you); the old one no longer works")
    return EXIT_OK


def cmd_revoke(args: argparse.Namespace) -> int:
    """The operator's revocation, on the hub's database (no API: no operator credential to guard)."""
    from cardrogue.hub.db import (Database, DatabaseError, DatabaseUnavailable, check_url_form, default_url, display_url,
                                  sqlite_path, timed_out)
    from cardrogue.hub.service import Hub, HubError

    url = args.db if args.db is not None else default_url()
    if not url.strip():
        complain("--db is empty: name the hub's database, or leave --db out for the default")
        return EXIT_UNUSABLE
    if not 0 < args.db_timeout <= 3600:
        complain("--db-timeout is more than 0 and at most 3600 seconds")
        return EXIT_UNUSABLE
    not_now = ("nothing was revoked; try again later (the database frozen or unreachable, a lock held on the hub's "
               "tables, or a `serve` upgrading it)")
    db = None
    try:
        check_url_form(url)
        # A SQLite database (a path or a sqlite:// URL) is not made here, where no hub runs.
        if ("://" not in url or url.startswith("sqlite://")) and not sqlite_path(url).is_file():
            complain(f"{display_url(url)}: no hub database there: name the database `cardrogue hub serve` uses")
            return EXIT_UNUSABLE
        # (the hub serving it may be older: its upgrade is serve's, said there)
        db = Database(url, upgrade=False, timeout=args.db_timeout)
        account, revoked, token = Hub(db).revoke_all(args.name, issue=args.new_token)
    except HubError as exc:
        complain(exc.message)
        return EXIT_PROBLEMS
    except DatabaseUnavailable as exc:
        complain(f"{exc}: {not_now}")
        return EXIT_TEMPFAIL
    except DatabaseError as exc:
        complain(*lines_of(exc))
        return EXIT_UNUSABLE
    except Exception as exc:
        psycopg = sys.modules.get("psycopg")  # imported by the database when it is PostgreSQL
        if psycopg is not None and (late := timed_out(exc, url)) is not None:  # (the server cancelled a statement)
            complain(f"{display_url(url)}: {late}: {not_now}")
            return EXIT_TEMPFAIL
        if psycopg is None or not isinstance(exc, psycopg.errors.ReadOnlySqlTransaction):
            raise
        # (it opened, as reading needs no write: a standby, or default_transaction_read_only set; an internal error)
        complain(f"{display_url(url)}: the database is read-only (a standby, or default_transaction_read_only set): "
                 "nothing was revoked; run it against the primary, or once the database takes writes")
        return EXIT_UNUSABLE
    finally:
        if db is not None:
            db.close()
    if args.format == "json":
        _json({"name": account.name, "revoked": revoked, "token": token})
        return EXIT_OK
    if revoked:
        say(f"revoked {counted(revoked, 'token')} of {_show(account.name)}: "
            f"{'it no longer works' if revoked == 1 else 'none of them works any more'}")
    else:
        say(f"{_show(account.name)} had no token")
    if token is not None:
        say(f"a new token for {_show(account.name)}, shown this once: give it to them alone, to save with "
            "`cardrogue hub login --hub HUB_URL`:")
        print(token)
    return EXIT_OK


def cmd_publish(args: argparse.Namespace) -> int:
    def work(args):
        from cardrogue.engine.errors import CampaignHasErrors
        from cardrogue.engine.format.loader import load_campaign_text, usable

        text = read_text(args.campaign, "the campaign")
        try:  # a file that is no campaign at all (not JSON, empty) is refused here, located, as `check` does
            usable(load_campaign_text(text, str(args.campaign)), args.campaign)
        except CampaignHasErrors:
            pass  # a draft: the hub's clear check lists its problems, with their places in this file
        client = _client(args, need_token=True)
        m = _sent(lambda: client.publish(text, args.window_days),
                  "while the hub checked the map: it may have published it; publishing it again is harmless "
                  "(the same map answers 'already published')")
        if args.format == "json":
            _json(m)
        else:
            state = "published" if m.get("created") else "already published"
            say(f"{args.campaign}: {state} as {_show(m['id'])} version {m['version']} ({m['hash'][:12]}), "
                  f"par {counted(m['par']['turns'], 'turn')} with {m['par']['health']} health")
            if m["competition"]:
                say(f"  competition window until {m['window_ends']}: runs' actions stay hidden until then")
        return EXIT_OK

    return _run(args, work)


def cmd_list(args: argparse.Namespace) -> int:
    def work(args):
        maps = _client(args).maps(args.search, args.limit)
        if args.format == "json":
            _json({"maps": maps})
            return EXIT_OK
        if not maps:
            say("no maps" + (f" match {args.search!r}" if args.search else " yet"))
        for m in maps:
            best = f", best {counted(m['best']['turns'], 'turn')}" if m["best"] else ""  # "0 runs" says the rest
            difficulty = f", {100 * m['difficulty']['win_rate']:.0f}% won at random" if m["difficulty"] else ""
            # the author is free text (anyone may write another's name): the publisher, the account, beside it
            by = _show(m["author"] or m["publisher"])
            if m["author"] and m["author"] != m["publisher"]:
                by += f" (published by {_show(m['publisher'])})"
            say(f"{_show(m['id'])} v{m['version']}  {_show(m['title'])} by {by}: "
                  f"par {m['par']['turns']}, {counted(m['runs'], 'run')}{best}{difficulty}  [{m['hash'][:12]}]")
        return EXIT_OK

    return _run(args, work)


def _map_named(ref: str) -> str:
    """``ref`` when it is a campaign id or a content hash (or its start), which a hub reads; unusable input (exit 2,
    nothing asked) otherwise."""
    from cardrogue.hub.client import ref_problem

    if (problem := ref_problem(ref)) is not None:
        raise UnusableInput(problem)
    return ref


def cmd_pull(args: argparse.Namespace) -> int:
    def work(args):
        _map_named(args.map)
        from cardrogue.engine.records.atomic import atomic_write

        from .common import check_writable

        client = _client(args)
        if args.rank is None:
            m = client.map(args.map)
            text = client.file(m["hash"])
            _check_pulled(text, m["hash"], client.url)
            target = args.output or Path(f"{m['id']}.json")
        else:
            board = client.leaderboard(args.map, limit=args.rank)
            m = board["map"]
            if len(board["runs"]) < args.rank:
                raise UnusableInput(f"{args.map}: the leaderboard has {counted(len(board['runs']), 'player')}, no rank {args.rank}")
            run = board["runs"][args.rank - 1]
            text = client.replay(m["hash"], run["run_id"])
            target = args.output or Path(f"{m['id']}.rank{args.rank}.replay.json")
        if target.is_dir():  # said first: --force cannot overwrite a folder either
            raise UnusableInput(f"{target}: is a folder; give -o a file name in it")
        if target.exists() and not args.force:
            raise UnusableInput(f"{target}: exists; use --force to overwrite it or -o to choose another file")
        check_writable(target)
        atomic_write(target, text.encode("utf-8"))
        if args.format == "json":
            _json({"written": str(target), "id": m["id"], "hash": m["hash"]})
        else:
            say(f"{target}: {'map' if args.rank is None else 'replay'} of {_show(m['id'])} version {m['version']} "
                  f"({m['hash'][:12]})")
        return EXIT_OK

    return _run(args, work)


def _check_pulled(text: str, expected: str, url: str) -> None:
    """A pulled map must be the version asked for: its content hash is recomputed here."""
    from cardrogue.engine.format.loader import load_campaign_text
    from cardrogue.hub.client import HubUnreachable

    campaign = load_campaign_text(text, "the pulled map").campaign
    got = None if campaign is None else campaign.content_hash
    if got != expected:
        raise HubUnreachable(f"{url} sent a map that is not the version {expected[:12]} it listed "
                             f"({'it does not load' if got is None else 'its content hash is ' + got[:12]}); nothing written")


def cmd_submit(args: argparse.Namespace) -> int:
    def work(args):
        from cardrogue.engine.errors import RejectedReplay
        from cardrogue.hub.client import HubRefused

        if args.map is not None:
            _map_named(args.map)
        client = _client(args, need_token=True)
        text = read_text(args.replay, "the replay")
        try:  # refused here as `verify` refuses it: not JSON (exit 2, with its place), not a replay (exit 1)
            doc = replay_document(text, args.replay)
        except RejectedReplay as exc:
            raise RejectedReplay(f"{args.replay}: rejected: {exc}") from None
        ref = args.map or doc["campaign"]["hash"]
        try:
            run = _sent(lambda: client.submit(ref, text),
                        "while the hub verified the run: it may have ranked it; submitting it again is harmless "
                        "(the same run answers with its rank)")
        except HubRefused as exc:
            if exc.status != 404 or args.map:
                raise
            # the map the replay names is not on this hub: say which, and what publishes it
            said = (f"this replay is of {_show(doc['campaign']['id'])} version {ref[:12]}, which this hub has "
                    "not published; publish that version first (`cardrogue hub publish CAMPAIGN`)")
            raise HubRefused(exc.status, {**exc.body, "error": said}, exc.retry_after) from None
        if args.format == "json":
            _json(run)
        else:
            state = "verified and ranked" if run.get("created") else "already on the leaderboard"
            score = f"{counted(run['turns'], 'turn')}, {run['health']} health (credited to {_show(run['player'])})"
            best = run.get("player_best")
            if run.get("best") is False and isinstance(best, dict) and all(type(best.get(k)) is int for k in ("turns", "health")):
                # (a hub before the players' leaderboard says no "best": its rank was the run's among every run)
                state = "verified" if run.get("created") else "already on the hub"
                say(f"{args.replay}: {state}, {score}; not your best run: you stay #{run['rank']} among the players "
                    f"on {_show(run['id'])} with {counted(best.get('turns'), 'turn')}, {best.get('health')} health")
            else:
                among = " among the players" if "best" in run else ""
                new = ", your new best" if run.get("new_best") is True else ""
                say(f"{args.replay}: {state} #{run['rank']}{among} on {_show(run['id'])}{new}: {score}")
        return EXIT_OK

    return _run(args, work)


def cmd_leaderboard(args: argparse.Namespace) -> int:
    def work(args):
        board = _client(args).leaderboard(_map_named(args.map), args.limit, args.every)
        if args.format == "json":
            _json(board)
            return EXIT_OK
        m = board["map"]
        say(f"{_show(m['title'])} ({_show(m['id'])} version {m['version']}, {m['hash'][:12]}): par {counted(m['par']['turns'], 'turn')}")
        if m["competition"]:
            say(f"  competition open until {m['window_ends']}: replays are hidden until then")
        players = m.get("players")
        if m["runs"] and isinstance(players, int):  # (a hub before the players' board lists runs, and no count)
            say(f"  {counted(players, 'player')}, {counted(m['runs'], 'run')}: "
                + ("every run" if args.every else "each player's best run (--every lists every run)"))
        if not board["runs"]:
            say("  no verified runs yet")
        for r in board["runs"]:
            say_shown(f"{score_line(r['rank'], printable(_show(r['player'])), r['turns'], r['health'])}  "
                      f"{printable(_show(r['submitted_at']))}")
        return EXIT_OK

    return _run(args, work)
