"""What every command shares: exit codes, argument types, output, reading input, the score database, and the one
error they raise. Which campaign a replay was played on is :mod:`.replays`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cardrogue.engine.errors import RejectedReplay, UnusableInput  # (RejectedReplay: the commands' one import of it)
from cardrogue.engine.format.files import json_meant
from cardrogue.engine.format.loader import load_usable
from cardrogue.engine.printable import closed_to_the_right, printable
from cardrogue.engine.reading import other_encoding, read_limited
from cardrogue.engine.words import level_span, plural

EXIT_OK, EXIT_PROBLEMS, EXIT_UNUSABLE = 0, 1, 2
# The hub commands' "not now": the hub unavailable (its database away, its workers busy, too many requests) or not
# answering (the connection refused or timed out); the same command later may succeed. sysexits.h's EX_TEMPFAIL.
EXIT_TEMPFAIL = 75
# Codes meaning the file could not be read as JSON at all.
UNUSABLE_CODES = {"CR001", "CR002", "CR003", "CR004", "CR005", "CR006"}


def score_line(rank: int, player: str, turns: int, health: int) -> str:
    """One score as `scores` (piped) and `hub leaderboard` write it, the same columns in both:
    ``    1. ada                    11 turns   8 health`` (docs/player.md shows one). ``player`` is already
    shown (escaped); a name holding a right-to-left letter is closed by a left-to-right mark after its column, so the
    turns stay after it on a terminal that lays out bidirectional text (:func:`closed_to_the_right`). Print the line
    with :func:`say_shown` (:func:`say` would show the mark as an escape)."""
    return f"  {rank:3d}. {closed_to_the_right(f'{player:<20}')} {turns:4d} {plural(turns, 'turn'):5} {health:3d} health"


def whole(low: int, high: int, what: str):
    """An argparse type: a whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is out of range: {what} is {low:,} to {high:,}")
        return value

    return parse


count = whole(1, 1_000_000_000, "a count")  # budgets, runs
seed = whole(0, 2**64 - 1, "a seed")


def memory_size(text: str) -> int:
    """A size in bytes: a whole number with an optional K, M or G (powers of 1024)."""
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:].upper(), 1)
    digits = text[:-1] if scale > 1 else text
    if not digits.isdigit() or int(digits) == 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a memory size (a whole number, optionally with K, M or G)")
    return int(digits) * scale


def seconds(text: str) -> float:
    """A positive, finite number of seconds."""
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (math.isfinite(value) and 0 < value <= 86_400):
        raise argparse.ArgumentTypeError(f"{text} is out of range (more than 0, at most 86400 seconds)")
    return value


def say(text: str, *, err: bool = False) -> None:
    """Print one line of text output: whatever came from a file, a replay, a player or a file
    name inside it is shown with its control characters escaped (``engine/printable.py``)."""
    print(printable(text), file=sys.stderr if err else sys.stdout)


def say_shown(text: str) -> None:
    """Print one line whose every part from outside is shown already (escaped: :func:`score_line`)."""
    print(text)


def complain(text: str, *more: str) -> None:
    """``cardrogue: text`` on standard error, then each line of ``more`` (each escaped on its own, so
    no name inside a line can break it or forge another)."""
    say(f"cardrogue: {text}", err=True)
    for line in more:
        say(line, err=True)


def lines_of(exc: BaseException) -> tuple[str, ...]:
    """An error's message as lines: its ``lines`` when it has several (a draft's first errors)."""
    return tuple(getattr(exc, "lines", ())) or (str(exc),)


def refused(exc: UnusableInput, json_report: bool, **fields) -> int:
    """Input refused (its exit code returned): its lines on standard error, and for ``--format json`` one object
    on standard output too, as ``check`` and ``verify`` write one, so a tool reading the JSON always reads one:
    ``fields`` (the file), ``ok`` false, the exit code, ``message`` (the first line) and ``details`` (the rest)."""
    lines = lines_of(exc)
    complain(*lines)
    if json_report:
        json.dump({**fields, "ok": False, "exit": exc.exit_code, "message": lines[0], "details": list(lines[1:])},
                  sys.stdout, indent=2)
        sys.stdout.write("\n")
    return exc.exit_code


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # usage errors exit 2, as argparse does, with our prefix
        self.print_usage(sys.stderr)
        self.exit(EXIT_UNUSABLE, f"cardrogue: error: {printable(message)}\n")

    def print_help(self, file=None) -> None:
        """As argparse's, but a help that cannot be written (a full disk) is an error, not dropped in silence
        (argparse passes over the write's OSError): ``main`` says so and exits 2."""
        (file or sys.stdout).write(self.format_help())

    def parse_known_args(self, args=None, namespace=None):
        """As argparse's, and the innermost parser of the command line (``verify``, ``hub list``) is kept
        as ``command_parser``: arguments left over are its usage error, not the whole command's."""
        parsed, extra = super().parse_known_args(args, namespace)
        if getattr(parsed, "command_parser", None) is None:  # a subcommand's parser ran first and set it
            parsed.command_parser = self
        return parsed, extra


def listen(host: str, port: int):
    """The listening socket a server command (`hub serve`, `web`) serves on, taken before it says it serves,
    so that a port in use is one line and exit 2 (:class:`UnusableInput`), not the server's own error after
    its banner. An IPv6 host takes IPv4 too where the system allows it, as the servers' own binding did."""
    import socket  # here, not at the top: the other commands start without it

    try:
        if ":" in host:  # an IPv6 address, as uvicorn and aiohttp pick the family for a host
            return socket.create_server((host, port), family=socket.AF_INET6, dualstack_ipv6=socket.has_dualstack_ipv6())
        return socket.create_server((host, port))
    except OSError as exc:
        raise UnusableInput(f"cannot listen on {host} port {port}: {_listen_problem(exc)}") from None


def _listen_problem(exc: OSError) -> str:
    """Why an address cannot be listened on, and what to do; Python's own words repeated the address
    ('Address already in use (while attempting to bind on address ('127.0.0.1', 8765))') and said no fix."""
    import errno
    import os

    if exc.errno is not None and exc.errno < 0:  # getaddrinfo's (EAI_*), met by bind resolving the name
        return "no such host name: give an address of this machine as --host"
    if exc.errno == errno.EADDRINUSE:
        return "the address is in use (another program listens there): stop it, or give another --port"
    if exc.errno == errno.EADDRNOTAVAIL:
        return "not an address of this machine: give one of its addresses as --host, or 0.0.0.0 for all of them"
    if exc.errno == errno.EACCES:
        return "permission denied (a port below 1024 needs privileges): give another --port"
    return os.strerror(exc.errno) if exc.errno else str(exc)


TEXT_LIMIT = 64 * 1024 * 1024


def read_text(path: Path, what: str) -> str:
    """The text of a regular file of at most 64 MiB (a FIFO or a device is refused, never waited on)."""
    try:
        return _text_of(read_limited(path, TEXT_LIMIT), path, what)
    except FileNotFoundError:
        raise UnusableInput(f"{path}: no such file{json_meant(path)}") from None
    except OSError as exc:
        raise UnusableInput(f"{path}: cannot read: {exc.strerror or exc}") from None


def read_stdin_text(what: str) -> str:
    """The text piped to standard input (``-`` for a file), held to the rules of :func:`read_text`."""
    if sys.stdin is None:  # started with standard input closed
        raise UnusableInput("-: there is no standard input to read")
    try:
        raw = sys.stdin.buffer.read(TEXT_LIMIT + 1)
    except OSError as exc:
        raise UnusableInput(f"-: cannot read standard input: {exc.strerror or exc}") from None
    return _text_of(raw, "-", what)


def _text_of(raw: bytes, where, what: str) -> str:
    if len(raw) > TEXT_LIMIT:
        raise UnusableInput(f"{where}: {what} is larger than 64 MiB")
    if encoding := other_encoding(raw):
        raise UnusableInput(f"{where}: {what} is {encoding}, not UTF-8 (it begins with a {encoding} byte order mark): "
                            "save it as UTF-8")
    try:
        return raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    except UnicodeDecodeError as exc:
        raise UnusableInput(f"{where}: {what} is not UTF-8 text: byte 0x{exc.object[exc.start]:02x} at offset "
                            f"{exc.start} cannot be decoded") from None


def check_player(name: str | None) -> None:
    """``--player NAME``: at most 80 characters (a replay's player), and a name the hub would take:
    it goes into every replay of the run, and a hub refuses a replay whose player name is markup or
    holds a control character (docs/hub.md), so such a run could never be submitted."""
    from cardrogue.engine.format.checks.text import unsafe_text

    if name is None:
        return
    if len(name) > 80:
        raise UnusableInput("--player: at most 80 characters")
    if why := unsafe_text(name, title=True):
        raise UnusableInput(f"--player: a hub refuses the name {printable(repr(name))} in a replay: {why}; "
                            "choose another")


def make_replays_folder(folder: Path | None) -> None:
    """``--replays DIR``: made now (the end of a run would make it) and writable, so a run whose
    replay could not be kept is refused before it is played, not found out at its end."""
    import os

    if folder is None:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise UnusableInput(f"{folder}: is not a folder") from None
    except OSError as exc:
        raise UnusableInput(f"{folder}: cannot make the replays folder: {exc.strerror or exc}") from None
    if not os.access(folder, os.W_OK):
        raise UnusableInput(f"{folder}: the replays folder is not writable")


def check_writable(path: Path, *, campaign: Path | None = None) -> None:
    """Fail before a long computation when its output cannot be written (through a symbolic
    link, the link's target is what will be written), or when it would overwrite ``campaign``, the
    file the output is made from (``solve MAP -o MAP``, a slip for ``-o MAP.replay.json``)."""
    import os

    from cardrogue.engine.records.atomic import refuse_read_only

    target = path.expanduser().absolute()
    if target.is_symlink():
        target = Path(os.path.realpath(target))
    if campaign is not None and target.exists() and campaign.exists() and os.path.samefile(target, campaign):
        replay = campaign.with_name(f"{campaign.stem}.replay.json")
        raise UnusableInput(f"{path}: is the campaign itself: the replay would overwrite it; "
                            f"write the replay to another file, such as {replay}")
    folder = target.parent
    if not folder.is_dir():
        raise UnusableInput(f"{path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise UnusableInput(f"{path}: the folder {folder} is not writable")
    if target.is_dir():
        raise UnusableInput(f"{path}: is a folder")
    try:
        refuse_read_only(target)  # the rule atomic_write keeps, asked before the computation
    except PermissionError as exc:
        raise UnusableInput(f"{path}: {exc.strerror}") from None


def open_scores(path: Path | None, *, writable: bool = True):
    """The score database (only to list it unless ``writable``), or :class:`UnusableInput` saying
    why it cannot be used and what to do; nothing is created for a listing."""
    from cardrogue.engine.records.scores import ScoreStore, default_db_path

    where = path or default_db_path()
    try:
        store = ScoreStore(path, writable=writable)
        store.readable()  # reads the schema: a file that is not SQLite fails here
        return store
    except OSError as exc:
        raise UnusableInput(f"{where}: cannot open the score database: {exc.strerror or exc}") from None


def level_index(campaign, level: int | None, path: Path | str) -> int:
    """The 0-based index of ``--level`` N (1-based) of the campaign file ``path``, which the
    message names as `cardrogue play` does."""
    if level is None:
        return 0
    if not 1 <= level <= len(campaign.levels):
        raise UnusableInput(f"{path}: --level {level}: the campaign has {level_span(len(campaign.levels))}")
    return level - 1
