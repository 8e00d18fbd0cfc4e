"""The ``cardrogue`` command: edit, play, check, solve, run, verify, scores, hub, web.

Exit codes follow the validator convention: 0 clean, 1 problems found,
2 unusable input or bad usage. A command raises the engine's errors
(engine/errors.py) and ``main`` prints them, one line each, with their exit code.
No path ever ends in a traceback: unexpected errors are reported as one line and exit 2. Each command group lives in its
own module and adds its parsers through ``register``.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from importlib import import_module
from typing import NoReturn, Sequence

from cardrogue.engine.errors import CardRogueError

from .common import EXIT_OK, EXIT_UNUSABLE, Parser, complain, lines_of

# The command groups, each a module of this package with its ``register(sub)``, in the order of the help.
GROUPS = ("play", "check", "records", "solve", "hub", "web", "completion")
# The group of each command: a command line that starts with one builds (and imports) only its group's
# parsers -- a tenth of a small check's start. `completion` describes the whole command: not here.
COMMANDS = {"edit": "play", "play": "play", "run": "play", "check": "check", "verify": "records",
            "scores": "records", "solve": "solve", "hub": "hub", "web": "web"}


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("cardrogue-studio")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


class _Version(argparse.Action):
    """``--version``, with the version looked up only when asked (importlib.metadata is slow to import)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        print(f"cardrogue {_version()}")
        parser.exit()


def build_parser(command: str | None = None) -> Parser:
    """The command's parser: with ``command`` (a key of :data:`COMMANDS`), only that command's group."""
    parser = Parser(prog="cardrogue", description="Author, validate and play Card Rogue story-mode campaigns.")
    parser.add_argument("--version", action=_Version, help="print the installed version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for group in (COMMANDS[command],) if command in COMMANDS else GROUPS:
        import_module(f"{__package__}.{group}").register(sub)
    parser.set_defaults(root_parser=parser)  # `completion` describes the whole command without importing main
    return parser


# The hub's commands, said as `cardrogue serve` (walk 26): told the command meant, not argparse's "invalid choice"
HUB_COMMANDS = ("serve", "revoke", "register", "login", "logout", "token", "publish", "list", "pull", "submit",
                "leaderboard")


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        if argv and argv[0] in HUB_COMMANDS:
            build_parser(argv[0]).error(f"'{argv[0]}' is not a command; did you mean 'cardrogue hub {argv[0]}'?")
        parser = build_parser(argv[0] if argv else None)
        args, extra = parser.parse_known_args(argv)  # `--version` prints here: inside the guard
        if extra and args.command == "run" and not any(e.startswith("-") for e in extra):
            args.actions += extra  # `run MAP a1 --seed 4 a2`: argparse leaves actions after an option over
        elif extra:
            getattr(args, "command_parser", parser).error(f"unrecognized arguments: {' '.join(extra)}")
        if args.command is None:
            parser.print_help()
            return EXIT_UNUSABLE
        return args.func(args)
    except CardRogueError as exc:  # the one printer: unusable input (2), problems found or an illegal action (1)
        complain(*lines_of(exc))
        return exc.exit_code
    except KeyboardInterrupt:  # Ctrl+C: any progress bar is already erased (cli/progress.py); one line, no traceback
        complain("interrupted")
        return 130
    except BrokenPipeError:  # e.g. `cardrogue check ... | head`: the reader left; say nothing
        _drop_output()
        return EXIT_OK
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EFBIG) and exc.filename is None:
            complain(f"cannot write the output: {exc.strerror}")  # a full disk or a failing device
            _drop_output()
        else:
            complain(f"internal error: {type(exc).__name__}: {exc}")
        return EXIT_UNUSABLE
    except Exception as exc:  # the last guard: a message, never a traceback
        complain(f"internal error: {type(exc).__name__}: {exc}")
        return EXIT_UNUSABLE


def _drop_output() -> None:
    """Standard output sent to the null device: what is left in its buffer is dropped, not written again (and
    failed again, with the interpreter's own complaint) when the process ends."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _flushed(status: int) -> int:
    """``status`` once standard output and error are flushed, or :data:`EXIT_UNUSABLE` when the output cannot be
    written (a full disk: said on standard error); a reader that left (``| head``) changes nothing."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # the reader left (see main): nothing more to say
        _drop_output()
    except OSError as exc:  # e.g. a full disk: the report is lost, say so
        _drop_output()
        complain(f"cannot write the output: {exc.strerror or exc}")
        status = EXIT_UNUSABLE
    return status


def run() -> NoReturn:
    """The ``cardrogue`` process (the console script, ``python -m cardrogue``): :func:`main` on the
    command line, then exit with its status.

    ``check`` runs in CI and pre-commit hooks, where start-up and shut-down are most of the time of a
    small file, so it ends without tearing the interpreter down: a big campaign's objects are not
    freed one by one and no last collection walks every module (together a tenth of a 50-level
    check). It starts no thread, process or exit handler, and its output is flushed first. Every
    other command exits normally.
    """
    argv = sys.argv[1:]
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse's own end: --help (0), a usage error (2)
        status = exc.code if isinstance(exc.code, int) else EXIT_OK if exc.code is None else EXIT_UNUSABLE
    status = _flushed(status)  # the help too: lost to a full disk, it is said so
    if argv[:1] != ["check"]:
        sys.exit(status)
    os._exit(status)


if __name__ == "__main__":
    run()
