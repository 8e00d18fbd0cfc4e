"""`cardrogue verify` and `scores`: replays re-simulated, and the local high-score table."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cardrogue.engine.printable import closed_to_the_right
from cardrogue.engine.words import counted

from .common import (
    lines_of,
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_UNUSABLE,
    RejectedReplay,
    UnusableInput,
    complain,
    load_usable,
    open_scores,
    printable,
    read_text,
    say,
    say_shown,
    score_line,
    seconds,
)
from .progress import is_plain
from .replays import NotJson, campaign_for_replay, verified_on


VERIFY_SECONDS = 60.0
"""How long `verify` and `scores --import` re-simulate one replay by default (``--max-seconds``). The hub gives a
submitted run 10 s (hub/service.py ``replay_seconds``) for its at most 20,000 actions; a local replay may hold
200,000 (10 times more: one of a small map takes about 12 s), so 60 s, the default of `solve --max-seconds` too."""
SHOW_BAR_AFTER = 1.0
"""Seconds of re-simulating after which a terminal is shown a progress bar (a short replay shows none)."""


def register(sub) -> None:
    verify = sub.add_parser("verify", help="re-simulate a replay and check its claimed result")
    verify.add_argument("replay", type=Path, help="replay file")
    verify.add_argument("--campaign", type=Path, default=None,
                        help="campaign file (default: the file the replay was played from, when its content matches; else "
                             "the file with the replay's campaign id beside the replay; else the bundled campaign "
                             "with that id)")
    verify.add_argument("--format", choices=("text", "json"), default="text",
                        help="text (default) or one JSON object: ok, message, the campaign and the verified result")
    verify.add_argument("--max-seconds", type=seconds, default=VERIFY_SECONDS, metavar="S",
                        help=f"stop re-simulating after S seconds: not verified, exit 1 (default {VERIFY_SECONDS:g})")
    verify.set_defaults(func=cmd_verify)
    scores = sub.add_parser("scores", help="the high-score table of a campaign, or import shared replays")
    scores.add_argument("campaign", nargs="?", type=Path, help="campaign file (default: the bundled campaign)")
    scores.add_argument("--import", dest="imports", nargs="+", type=Path, metavar="REPLAY",
                        help="verify and add replays (each checked against the campaign beside it, else a bundled one)")
    scores.add_argument("--campaign", dest="campaign_option", type=Path, default=None, metavar="FILE",
                        help="the campaign file (the same as the positional CAMPAIGN)")
    scores.add_argument("--scores-db", type=Path, default=None, help="high-score database (default: user data dir, or $CARDROGUE_SCORES_DB)")
    scores.add_argument("--format", choices=("text", "json"), default="text", help="text (default) or JSON")
    scores.add_argument("--max-seconds", type=seconds, default=VERIFY_SECONDS, metavar="S",
                        help=f"with --import, re-simulate each replay for at most S seconds (default {VERIFY_SECONDS:g})")
    scores.set_defaults(func=cmd_scores)


def cmd_verify(args: argparse.Namespace) -> int:
    from cardrogue.engine.records.replay import verify_replay

    try:
        text = read_text(args.replay, "the replay")
        campaign, campaign_file = campaign_for_replay(text, args.campaign, args.replay)
    except RejectedReplay as exc:  # not a replay at all: rejected like any failing replay
        if args.format == "json":
            _json({"replay": str(args.replay), "ok": False, "checked": True, "message": str(exc),
                   "campaign": None, "result": None, "action": None})
        else:
            say(f"{args.replay}: rejected: {exc}")
        return EXIT_PROBLEMS
    except UnusableInput as exc:
        first, *more = lines_of(exc)  # a draft's errors: one `file:line:col` line each
        first = first if first.startswith(str(args.replay)) else f"{args.replay}: {first}"
        if args.format == "json":
            _json({"replay": str(args.replay), "ok": False, "checked": False, "message": "\n".join((first, *more))})
        complain(first, *more)
        return exc.exit_code
    verdict = _verified(text, campaign, args.replay, args.max_seconds)
    if args.format == "json":
        run = verdict.run
        _json({"replay": str(args.replay), "ok": verdict.ok, "checked": True, "message": verdict.message,
               "campaign": {"id": campaign.id, "title": campaign.title, "hash": campaign.content_hash,
                            "file": str(campaign_file)},
               "result": None if run is None else {"outcome": run.outcome, "turns": run.turns, "health": run.health,
                                                   "level": run.level + 1, "dice": run.dice_mode, "player": run.player,
                                                   "ranked": run.ranked},
               "action": None if verdict.action_index is None else verdict.action_index + 1,
               "out_of_time": verdict.out_of_time})
    elif verdict.out_of_time:
        say(f"{args.replay}: not verified: {verdict.message} (--max-seconds gives it longer)")
    elif verdict.ok:
        say(f"{args.replay}: {verdict.message}")
        say(f"  on {verified_on(campaign_file, campaign)}")  # a look-alike file shared with the replay is another map
        if verdict.run.outcome == "won" and not verdict.run.ranked:  # its turns are no score against the par
            say(f"  not ranked: {_unranked(verdict.run)}")
    else:
        say(f"{args.replay}: rejected: {verdict.message}")
    return EXIT_OK if verdict.ok else EXIT_PROBLEMS


def _verified(text: str, campaign, path: Path, max_seconds: float):
    """:func:`verify_replay` for at most ``max_seconds``, a progress bar shown on a terminal once it has taken
    :data:`SHOW_BAR_AFTER` (on standard error, erased at the end: cli/progress.py)."""
    import time
    from contextlib import ExitStack

    from cardrogue.engine.records.replay import verify_replay

    from .progress import progress_bar

    start = time.monotonic()
    with ExitStack() as stack:
        bar = None

        def progress(done: int, total: int) -> None:
            nonlocal bar
            if bar is None:
                if time.monotonic() - start < SHOW_BAR_AFTER:
                    return
                bar = stack.enter_context(progress_bar(f"{path.name}: verifying", total=total, counted=True))
            bar.update(completed=done)

        return verify_replay(text, campaign, max_seconds=max_seconds, progress=progress)


def _unranked(run) -> str:
    """Why a won run enters no table: its dice or its first level (VerifiedRun.ranked)."""
    if run.dice_mode != "fated":
        return "played with random dice (only the map's own dice rank)"
    return f"a practice from level {run.level + 1} (only a run of the whole campaign ranks)"


def _json(value) -> None:
    json.dump(value, sys.stdout, indent=2)  # ASCII: a bidi or control character in a name stays an escape
    sys.stdout.write("\n")


def cmd_scores(args: argparse.Namespace) -> int:
    from cardrogue.engine.format.resources import default_campaign

    campaign_path = args.campaign_option or args.campaign
    try:
        store = open_scores(args.scores_db, writable=bool(args.imports))
        with store:
            if args.imports:
                return _import_replays(store, args.imports, campaign_path, args.max_seconds)
            campaign = load_usable(campaign_path or default_campaign())
            table, unproved, cut = store.checked_table(campaign)
    except UnusableInput as exc:  # the database (damaged, read-only) or the campaign
        complain(*lines_of(exc))
        return exc.exit_code
    # Rows the file holds that their replays do not prove (edited by hand) are no scores: named, never listed.
    status = EXIT_PROBLEMS if unproved or cut else EXIT_OK
    if cut:  # the listing is bounded: what is below where it stopped is not shown
        complain(f"{store.path}: the table was read no further ({cut}): scores below are not listed")
    if unproved:
        does, are = ("does", "is") if len(unproved) == 1 else ("do", "are")
        complain(f"{store.path}: {counted(len(unproved), 'score')} in the table {does} not verify "
                 f"(edited by hand, or played under a reading of the rules fixed since: docs/rules.md) and {are} "
                 "not listed:",
                 *(f"  run {u.run_id[:12]} (player {u.player!r}): {u.reason}" for u in unproved))
    if args.format == "json":
        json.dump({"campaign": campaign.id, "hash": campaign.content_hash,
                   "scores": [{"rank": s.rank, "player": s.player, "turns": s.turns, "health": s.health} for s in table],
                   "rejected": [{"run_id": u.run_id, "player": u.player, "turns": u.turns, "health": u.health,
                                 "reason": u.reason} for u in unproved],
                   "read_no_further": cut or None},
                  sys.stdout, indent=2)
        sys.stdout.write("\n")
        return status
    title = printable(campaign.title)
    if not table:
        say(f"{title}: no verified scores yet")
        return status
    if is_plain(sys.stdout):
        # Piped or redirected: plain lines a script can read (as `hub leaderboard` writes them), no box drawing.
        say(f"{title} — high scores (version {campaign.content_hash[:12]})")
        for s in table:
            say_shown(score_line(s.rank, printable(s.player or 'anonymous'), s.turns, s.health))
        return status
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    # Every cell a Text, so neither the campaign's title nor a player's name is read as markup.
    out = Table(title=Text(f"{title} — high scores"), caption=Text(f"version {campaign.content_hash[:12]}"))
    for column, justify in (("#", "right"), ("player", "left"), ("turns", "right"), ("health", "right")):
        out.add_column(column, justify=justify)
    for s in table:
        # (closed by a left-to-right mark when it holds a right-to-left letter: the turns stay in their column)
        out.add_row(str(s.rank), Text(closed_to_the_right(printable(s.player or "anonymous"))), str(s.turns),
                    str(s.health))
    Console().print(out)
    return status


def _import_replays(store, paths: list[Path], campaign_path: Path | None, max_seconds: float) -> int:
    """Verify (each for at most ``max_seconds``) and add each replay; one bad file never stops the others."""
    status = EXIT_OK
    for path in paths:
        try:
            text = read_text(path, "the replay")
            campaign, campaign_file = campaign_for_replay(text, campaign_path, path)
        except NotJson as exc:
            say(f"{exc.where}: rejected: {exc.detail}")
            status = max(status, exc.exit_code)
            continue
        except UnusableInput as exc:
            first, *more = lines_of(exc)  # a draft's errors: one `file:line:col` line each
            say(f"{path}: rejected: {first.removeprefix(f'{path}: ')}")
            for line in more:
                say(f"  {line}")
            status = max(status, exc.exit_code)
            continue
        try:
            verdict = _verified(text, campaign, path, max_seconds)
        except Exception as exc:  # one file's surprise never stops the replays after it
            say(f"{path}: rejected: internal error: {type(exc).__name__}: {exc}")
            status = EXIT_UNUSABLE
            continue
        if verdict.out_of_time:
            say(f"{path}: not verified: {verdict.message} (--max-seconds gives it longer)")
            status = max(status, EXIT_PROBLEMS)
        elif not verdict.ok:
            say(f"{path}: rejected: {verdict.message}")
            status = max(status, EXIT_PROBLEMS)
        elif not verdict.run.ranked:
            say(f"{path}: verified, but not ranked: only a won run of the whole campaign under its fated dice enters the table")
            status = max(status, EXIT_PROBLEMS)
        else:
            added = store.add(verdict.run, campaign)
            table = f"the table of {verified_on(campaign_file, campaign)}"
            say(f"{path}: {verdict.message}; " + (f"added to {table}" if added else f"already in {table} (the same run)"))
    return status
