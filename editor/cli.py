"""The ``cardrogue`` command: edit, play, check, solve, run, verify, scores.

Exit codes follow the validator convention: 0 clean, 1 problems found,
2 unusable input or bad usage. No path ever ends in a traceback: unexpected
errors are reported as one line and exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Sequence

from cardrogue.engine.diagnostics import Diagnostic, Severity, has_errors

EXIT_OK, EXIT_PROBLEMS, EXIT_UNUSABLE = 0, 1, 2
# Codes meaning the file could not be read as JSON at all.
UNUSABLE_CODES = {"CR001", "CR002", "CR003", "CR004", "CR005", "CR006"}


def _whole(low: int, high: int, what: str):
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


_count = _whole(1, 1_000_000_000, "a count")  # budgets, runs
_seed = _whole(0, 2**64 - 1, "a seed")


def _seconds(text: str) -> float:
    """A positive, finite number of seconds."""
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (math.isfinite(value) and 0 < value <= 86_400):
        raise argparse.ArgumentTypeError(f"{text} is out of range (more than 0, at most 86400 seconds)")
    return value


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # usage errors exit 2, as argparse does, with our prefix
        self.print_usage(sys.stderr)
        self.exit(EXIT_UNUSABLE, f"cardrogue: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="cardrogue", description="Author, validate and play Card Rogue story-mode campaigns.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    edit = sub.add_parser("edit", help="open the editor (no argument: the bundled campaign, as a template)")
    edit.add_argument("campaign", nargs="?", type=Path, help="campaign file to edit (a new one starts from the blank template)")

    check = sub.add_parser("check", help="validate campaign files: schema, rules and graph checks")
    check.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="campaign files or folders")
    check.add_argument("--format", choices=("text", "json"), default="text", help="output format (json for tools)")
    check.add_argument("--strict", action="store_true", help="fail on warnings too")
    check.add_argument("-v", "--verbose", action="store_true", help="also show information (chokepoints)")
    check.add_argument("--solve", action="store_true", help="also run the solver: an unsolvable map is an error")
    check.add_argument("--max-states", type=_count, default=200_000, help="solver budget in states (with --solve)")
    check.add_argument("--max-seconds", type=_seconds, default=20.0, help="solver budget in seconds per file (with --solve)")

    play = sub.add_parser("play", help="play a campaign (no argument: the bundled campaign)")
    play.add_argument("campaign", nargs="?", type=Path, help="campaign file")
    play.add_argument("--level", type=int, default=None, metavar="N", help="practise level N (1-based); not scored")
    play.add_argument("--scores-db", type=Path, default=None, help="high-score database (default: user data dir, or $CARDROGUE_SCORES_DB)")
    play.add_argument("--replays", type=Path, default=None, help="folder for replay files (default: user data dir)")
    play.add_argument("--player", default=None, help="the name on your scores (default: your login name)")
    play.add_argument("--random-dice", action="store_true",
                      help="practise with random dice: a fresh seed, recorded in the replay; not scored")
    play.add_argument("--seed", type=_seed, default=None,
                      help="random dice from this seed (to meet a practice run's dice again); implies --random-dice")

    verify = sub.add_parser("verify", help="re-simulate a replay and check its claimed result")
    verify.add_argument("replay", type=Path, help="replay file")
    verify.add_argument("--campaign", type=Path, default=None, help="campaign file (default: the bundled campaign with the replay's id)")

    scores = sub.add_parser("scores", help="the high-score table of a campaign, or import shared replays")
    scores.add_argument("campaign", nargs="?", type=Path, help="campaign file (default: the bundled campaign)")
    scores.add_argument("--import", dest="imports", nargs="+", type=Path, metavar="REPLAY", help="verify and add replays")
    scores.add_argument("--campaign", dest="campaign_option", type=Path, default=None,
                        help="the campaign file (the same as the positional CAMPAIGN)")
    scores.add_argument("--scores-db", type=Path, default=None, help="high-score database (default: user data dir, or $CARDROGUE_SCORES_DB)")
    scores.add_argument("--format", choices=("text", "json"), default="text")

    run = sub.add_parser("run", help="play a scripted list of actions and print what the rules did")
    run.add_argument("campaign", type=Path, help="campaign file")
    run.add_argument("actions", nargs="*", metavar="ACTION", help='actions in their text form, e.g. "flip E" "move E"')
    run.add_argument("--actions-file", type=Path, default=None, metavar="FILE", help="more actions, one per line (- for stdin)")
    run.add_argument("--level", type=int, default=None, metavar="N", help="start on level N (1-based)")
    run.add_argument("--seed", type=_seed, default=None, help="random dice: per-card streams from this seed instead of the fated ones")
    run.add_argument("-o", "--output", type=Path, default=None, metavar="REPLAY", help="save the run as a replay file")
    run.add_argument("--format", choices=("text", "json"), default="text")

    solve = sub.add_parser("solve", help="find the par of a campaign and a solution replay")
    solve.add_argument("campaign", type=Path, help="campaign file")
    solve.add_argument("--level", type=int, default=None, metavar="N", help="solve only level N (1-based)")
    solve.add_argument("--random", type=_count, default=None, metavar="N", help="play N runs with random dice: win rate")
    solve.add_argument("--max-states", type=_count, default=2_000_000, help="search budget in states")
    solve.add_argument("--max-seconds", type=_seconds, default=60.0, help="search budget in seconds")
    solve.add_argument("-o", "--output", type=Path, default=None, help="write the solution replay here")
    solve.add_argument("--write-par", action="store_true",
                       help="record the par in the campaign file (canonical form; par is not part of the content hash)")
    solve.add_argument("--format", choices=("text", "json"), default="text")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra and args.command == "run" and not any(e.startswith("-") for e in extra):
        args.actions += extra  # `run MAP a1 --seed 4 a2`: argparse leaves actions after an option over
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command is None:
        parser.print_help()
        return EXIT_UNUSABLE
    try:
        return _COMMANDS[args.command](args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # e.g. `cardrogue check ... | head`: the reader left; say nothing
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except Exception as exc:  # the last guard: a message, never a traceback
        print(f"cardrogue: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_UNUSABLE


# --------------------------------------------------------------------------- check


def _campaign_files(paths: Sequence[Path]) -> tuple[list[Path], list[Diagnostic]]:
    files: list[Path] = []
    missing: list[Diagnostic] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*.json") if not p.name.endswith(".replay.json")))
        elif path.exists():
            files.append(path)
        else:
            missing.append(Diagnostic("CR006", "no such file or folder", file=str(path), line=1, column=1))
    return files, missing


def cmd_check(args: argparse.Namespace) -> int:
    from cardrogue.engine.check import check_file

    files, missing = _campaign_files(args.paths)
    if not files and not missing:
        print(f"cardrogue: no campaign files (*.json) in {', '.join(map(str, args.paths))}", file=sys.stderr)
        return EXIT_UNUSABLE
    report: list[tuple[str, list[Diagnostic]]] = [(d.file, [d]) for d in missing]
    for path in files:
        result, diagnostics = check_file(path)
        if args.solve and result.campaign is not None and not has_errors(diagnostics):
            diagnostics = diagnostics + _solver_diagnostics(result, args)
        report.append((str(path), diagnostics))

    unusable = any(d.code in UNUSABLE_CODES for _, ds in report for d in ds)
    problems = any(has_errors(ds, strict=args.strict) for _, ds in report)
    status = EXIT_UNUSABLE if unusable else EXIT_PROBLEMS if problems else EXIT_OK

    if args.format == "json":
        doc = {
            "status": ["ok", "problems", "unusable"][status],
            "files": [
                {"file": name, "ok": not has_errors(ds, strict=args.strict), "diagnostics": [d.as_json() for d in ds]}
                for name, ds in report
            ],
        }
        json.dump(doc, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        _print_text_report(report, args.verbose, args.strict, status)
    return status


def _solver_diagnostics(result, args: argparse.Namespace) -> list[Diagnostic]:
    """The solver's verdict as diagnostics placed in the file (``check --solve``)."""
    from dataclasses import replace

    from cardrogue.engine.jsonpos import PositionIndex
    from cardrogue.engine.solver import Budget, solve_diagnostics

    found = solve_diagnostics(result.campaign, Budget(args.max_states, args.max_seconds))
    index = PositionIndex(result.text)
    return [replace(d, file=result.file, line=index.locate(d.path)[0], column=index.locate(d.path)[1]) for d in found]


def _print_text_report(report: list[tuple[str, list[Diagnostic]]], verbose: bool, strict: bool, status: int) -> None:
    from rich.console import Console
    from rich.markup import escape

    console = Console(highlight=False, soft_wrap=True)
    style = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}
    counts = {s: 0 for s in Severity}
    for name, diagnostics in report:
        shown = [d for d in diagnostics if verbose or d.severity is not Severity.INFO]
        for d in diagnostics:
            counts[d.severity] += 1
        mark = "[red]✗[/]" if has_errors(diagnostics, strict) else "[green]✓[/]"
        console.print(f"{mark} [bold]{escape(name)}[/]")
        for d in shown:
            console.print(f"  [{style[d.severity]}]{escape(d.render())}[/]")
    summary = f"{len(report)} file(s): {counts[Severity.ERROR]} error(s), {counts[Severity.WARNING]} warning(s)"
    hidden = counts[Severity.INFO]
    if hidden and not verbose:
        summary += f", {hidden} note(s) (-v to show)"
    console.print(("[green]" if status == EXIT_OK else "[red]") + escape(summary) + "[/]")


# --------------------------------------------------------------------------- edit


def cmd_edit(args: argparse.Namespace) -> int:
    try:
        from cardrogue.editor.app import run_editor
    except ImportError:
        print("cardrogue: the editor is not available in this build", file=sys.stderr)
        return EXIT_UNUSABLE
    return run_editor(args.campaign)


# --------------------------------------------------------------------------- shared


class UnusableInput(Exception):
    """Input the command cannot work with; the message says what and where."""


def load_usable(path: Path):
    """A campaign from a file, or :class:`UnusableInput` with its first errors."""
    from cardrogue.engine.loader import load_campaign

    result = load_campaign(path)
    if result.campaign is None:
        errors = [d.render() for d in result.diagnostics if d.severity is Severity.ERROR]
        raise UnusableInput("\n".join([f"{path}: not a usable campaign ({len(errors)} error(s)); run `cardrogue check {path}`", *errors[:5]]))
    return result.campaign


def _bundled_with_id(campaign_id: str):
    from cardrogue.engine.resources import bundled_campaigns

    for path in bundled_campaigns():
        try:
            if json.loads(path.read_text(encoding="utf-8")).get("id") == campaign_id:
                return load_usable(path)
        except ValueError:
            continue
    raise UnusableInput(f"no bundled campaign has the id {campaign_id!r}; name the campaign file with --campaign")


def _read_text(path: Path, what: str) -> str:
    try:
        if path.stat().st_size > 64 * 1024 * 1024:
            raise UnusableInput(f"{path}: {what} is larger than 64 MiB")
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UnusableInput(f"{path}: no such file") from None
    except UnicodeDecodeError as exc:
        raise UnusableInput(f"{path}: {what} is not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise UnusableInput(f"{path}: cannot read: {exc.strerror or exc}") from None


def _check_writable(path: Path) -> None:
    """Fail before a long computation when its output cannot be written."""
    import os

    folder = path.expanduser().absolute().parent
    if not folder.is_dir():
        raise UnusableInput(f"{path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise UnusableInput(f"{path}: the folder {folder} is not writable")
    if path.is_dir():
        raise UnusableInput(f"{path}: is a folder")


def _open_scores(path: Path | None):
    """The score database, or :class:`UnusableInput` saying why it cannot be opened."""
    import sqlite3

    from cardrogue.engine.scores import ScoreStore, default_db_path

    where = path or default_db_path()
    if where.is_dir():
        raise UnusableInput(f"{where}: is a folder, not a score database")
    try:
        store = ScoreStore(where)
        store.table("0" * 64)  # reads the schema: a file that is not SQLite fails here
        return store
    except (sqlite3.Error, OSError) as exc:
        raise UnusableInput(f"{where}: cannot open the score database: {exc}") from None


def _campaign_for_replay(text: str, campaign_path: Path | None):
    from cardrogue.engine.replay import ReplayError, parse_replay

    if campaign_path is not None:
        return load_usable(campaign_path)
    try:
        doc = parse_replay(text)
    except ReplayError as exc:
        raise UnusableInput(str(exc)) from None
    return _bundled_with_id(doc["campaign"]["id"])


# --------------------------------------------------------------------------- verify


def cmd_verify(args: argparse.Namespace) -> int:
    from cardrogue.engine.replay import verify_replay

    try:
        text = _read_text(args.replay, "the replay")
        campaign = _campaign_for_replay(text, args.campaign)
    except UnusableInput as exc:
        message = str(exc)
        print(f"cardrogue: {message if message.startswith(str(args.replay)) else f'{args.replay}: {message}'}", file=sys.stderr)
        return EXIT_UNUSABLE
    verdict = verify_replay(text, campaign)
    if verdict.ok:
        print(f"{args.replay}: {verdict.message}")
        return EXIT_OK
    print(f"{args.replay}: rejected: {verdict.message}")
    return EXIT_PROBLEMS


# --------------------------------------------------------------------------- scores


def cmd_scores(args: argparse.Namespace) -> int:
    from cardrogue.engine.resources import default_campaign

    campaign_path = args.campaign_option or args.campaign
    try:
        store = _open_scores(args.scores_db)
    except UnusableInput as exc:
        print(f"cardrogue: {exc}", file=sys.stderr)
        return EXIT_UNUSABLE
    with store:
        if args.imports:
            return _import_replays(store, args.imports, campaign_path)
        try:
            campaign = load_usable(campaign_path or default_campaign())
        except UnusableInput as exc:
            print(f"cardrogue: {exc}", file=sys.stderr)
            return EXIT_UNUSABLE
        table = store.table(campaign.content_hash)
    if args.format == "json":
        json.dump({"campaign": campaign.id, "hash": campaign.content_hash,
                   "scores": [{"rank": s.rank, "player": s.player, "turns": s.turns, "health": s.health} for s in table]},
                  sys.stdout, indent=2)
        sys.stdout.write("\n")
        return EXIT_OK
    from rich.console import Console
    from rich.table import Table

    out = Table(title=f"{campaign.title} — high scores", caption=f"version {campaign.content_hash[:12]}")
    for column, justify in (("#", "right"), ("player", "left"), ("turns", "right"), ("health", "right")):
        out.add_column(column, justify=justify)
    for s in table:
        out.add_row(str(s.rank), s.player or "anonymous", str(s.turns), str(s.health))
    console = Console()
    console.print(out if table else f"{campaign.title}: no verified scores yet")
    return EXIT_OK


def _import_replays(store, paths: list[Path], campaign_path: Path | None) -> int:
    """Verify and add each replay; one bad file never stops the others."""
    from cardrogue.engine.replay import verify_replay

    status = EXIT_OK
    for path in paths:
        try:
            text = _read_text(path, "the replay")
            campaign = _campaign_for_replay(text, campaign_path)
        except UnusableInput as exc:
            message = str(exc)
            print(f"{path}: rejected: {message.removeprefix(f'{path}: ')}")
            status = EXIT_UNUSABLE
            continue
        verdict = verify_replay(text, campaign)
        if not verdict.ok:
            print(f"{path}: rejected: {verdict.message}")
            status = max(status, EXIT_PROBLEMS)
        elif not verdict.run.ranked:
            print(f"{path}: verified, but not ranked: only a won run of the whole campaign under its fated dice enters the table")
            status = max(status, EXIT_PROBLEMS)
        else:
            added = store.add(verdict.run)
            print(f"{path}: {verdict.message}; " + ("added" if added else "already in the table (the same run)"))
    return status


# --------------------------------------------------------------------------- play and solve


def cmd_play(args: argparse.Namespace) -> int:
    try:
        from cardrogue.editor.player.app import run_player
    except ImportError:
        print("cardrogue: the player is not available in this build yet", file=sys.stderr)
        return EXIT_UNUSABLE
    if args.player is not None and len(args.player) > 80:
        print("cardrogue: --player: at most 80 characters", file=sys.stderr)
        return EXIT_UNUSABLE
    try:
        _open_scores(args.scores_db).close()
        if args.replays is not None and args.replays.exists() and not args.replays.is_dir():
            raise UnusableInput(f"{args.replays}: is not a folder")
    except UnusableInput as exc:
        print(f"cardrogue: {exc}", file=sys.stderr)
        return EXIT_UNUSABLE
    from cardrogue.editor.player.run import fresh_seed

    dice_seed = args.seed if args.seed is not None else (fresh_seed() if args.random_dice else None)
    return run_player(args.campaign, level=args.level, scores_db=args.scores_db, replays_dir=args.replays,
                      player=args.player, dice_seed=dice_seed)


# --------------------------------------------------------------------------- run


def cmd_run(args: argparse.Namespace) -> int:
    from cardrogue.engine.actions import Action, ActionError
    from cardrogue.engine.replay import Recorder

    try:
        campaign = load_usable(args.campaign)
        level = _level_index(campaign, args.level)
        texts = list(args.actions)
        if args.actions_file is not None:
            body = sys.stdin.read() if str(args.actions_file) == "-" else _read_text(args.actions_file, "the actions file")
            texts += [ln.strip() for ln in body.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    except UnusableInput as exc:
        print(f"cardrogue: {exc}", file=sys.stderr)
        return EXIT_UNUSABLE
    recorder = Recorder(campaign, level=level, mode="fated" if args.seed is None else "random", seed=args.seed)
    state = recorder.state
    steps: list[dict] = [{"action": None, "log": list(state.log)}]
    failure = None
    for i, text in enumerate(texts):
        seen = len(state.log)
        try:
            if state.is_terminal():
                raise ActionError("the run is over")
            recorder.play(Action.parse(text))
        except ActionError as exc:
            failure = {"index": i, "action": text, "reason": str(exc)}
            break
        steps.append({"action": text, "log": state.log[seen:]})
    legal = [str(a) for a in state.legal_actions()]
    if args.output is not None:
        from cardrogue.editor.files import atomic_write

        try:
            atomic_write(args.output, recorder.text().encode("utf-8"))
        except OSError as exc:
            print(f"cardrogue: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
            return EXIT_UNUSABLE
    if args.format == "json":
        json.dump({"steps": steps, "failure": failure, "state": state.summary(), "legal": legal}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for step in steps:
            if step["action"] is not None:
                print(f"> {step['action']}")
            for line in step["log"]:
                print(f"  {line}")
        if failure:
            print(f"action {failure['index'] + 1} ({failure['action']!r}) is not legal: {failure['reason']}")
        summary = state.summary()
        print(f"turn {summary['turn']}, health {summary['health']}/{summary['max_health']}, gold {summary['gold']}, "
              f"level {summary['level']} at {tuple(summary['at'])}, outcome: {summary['outcome'] or 'unfinished'}")
        if legal:
            print("legal now: " + ", ".join(legal))
    return EXIT_PROBLEMS if failure else EXIT_OK


def _level_index(campaign, level: int | None) -> int:
    if level is None:
        return 0
    if not 1 <= level <= len(campaign.levels):
        raise UnusableInput(f"--level {level}: the campaign has levels 1 to {len(campaign.levels)}")
    return level - 1


# --------------------------------------------------------------------------- solve


def cmd_solve(args: argparse.Namespace) -> int:
    from cardrogue.engine.solver import SOLVED, UNSOLVABLE, Budget, solve_campaign, solve_level

    try:
        campaign = load_usable(args.campaign)
        level = None if args.level is None else _level_index(campaign, args.level)
        if args.output is not None:
            _check_writable(args.output)
    except UnusableInput as exc:
        print(f"cardrogue: {exc}", file=sys.stderr)
        return EXIT_UNUSABLE
    if args.random is not None:
        return _solve_random(campaign, args)
    budget = Budget(args.max_states, args.max_seconds)
    result = solve_campaign(campaign, budget) if level is None else solve_level(campaign, level, budget)
    if result.verdict == SOLVED and args.output is not None:
        from cardrogue.editor.files import atomic_write

        try:
            atomic_write(args.output, result.replay_text.encode("utf-8"))
        except OSError as exc:
            print(f"cardrogue: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
            return EXIT_UNUSABLE
    if result.verdict == SOLVED and args.write_par:
        if level is not None:
            print("cardrogue: --write-par records the par of the whole campaign; drop --level", file=sys.stderr)
            return EXIT_UNUSABLE
        _write_par(args.campaign, campaign, result.turns, result.health)
    if args.format == "json":
        doc = {"verdict": result.verdict, "turns": result.turns, "health": result.health,
               "health_exact": result.health_exact, "reason": result.reason, "actions": list(result.actions),
               "states_expanded": result.states_expanded, "seconds": round(result.seconds, 3),
               "turns_seconds": round(result.turns_seconds, 3),
               "level_turns": list(result.level_turns),
               "level_pars": [{"level": campaign.levels[i].id, "verdict": p.verdict, "turns": p.turns, "health": p.health}
                              for i, p in enumerate(result.level_pars)]}
        json.dump(doc, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        where = campaign.title if level is None else f"{campaign.title}, level {level + 1} ({campaign.levels[level].id})"
        stats = f"{result.states_expanded:,} states in {result.seconds:.2f} s"
        if result.verdict == SOLVED:
            health = f"{result.health} health" + ("" if result.health_exact else
                                                   f" (at least: the turns were proven after {result.turns_seconds:.2f} s, "
                                                   "the budget ran out on the health tiebreak)")
            print(f"{where}: par {result.turns} turns, {health} ({stats})")
            if result.level_turns and len(result.level_turns) > 1:
                print("  turns per level: " + ", ".join(f"{campaign.levels[i].id} {t}" for i, t in enumerate(result.level_turns)))
            for i, p in enumerate(result.level_pars):
                shown = f"{p.turns} turns" if p.verdict == SOLVED else p.verdict
                print(f"  level {i + 1} on its own (practice start): {shown}")
            print("  solution: " + " | ".join(result.actions))
            if args.output is not None:
                print(f"  replay written to {args.output}")
            if args.write_par:
                print(f"  par recorded in {args.campaign}")
        elif result.verdict == UNSOLVABLE:
            print(f"{where}: unsolvable: {result.reason} ({stats})")
        else:
            print(f"{where}: unknown: {result.reason} ({stats}); raise --max-states or --max-seconds")
    return EXIT_OK if result.verdict == SOLVED else EXIT_PROBLEMS


def _write_par(path: Path, campaign, turns: int, health: int) -> None:
    """Rewrite the campaign file with its par, in canonical form, atomically."""
    from dataclasses import replace

    from cardrogue.editor.files import atomic_write
    from cardrogue.engine.canonical import campaign_to_dict, dumps
    from cardrogue.engine.model import Par

    schema_ref = campaign.source.get("$schema") if isinstance(campaign.source, dict) else None
    text = dumps(campaign_to_dict(replace(campaign, par=Par(turns, health)), schema_ref=schema_ref))
    atomic_write(path, text.encode("utf-8"))


def _solve_random(campaign, args: argparse.Namespace) -> int:
    from cardrogue.engine.difficulty import solve_random

    report = solve_random(campaign, args.random)
    if args.format == "json":
        json.dump({"runs": report.runs, "wins": report.wins, "win_rate": report.win_rate,
                   "ci95": [report.ci_low, report.ci_high], "deaths": report.deaths, "stuck": report.stuck,
                   "turns": {"min": report.turns_min, "median": report.turns_median, "max": report.turns_max},
                   "histogram": [list(h) for h in report.histogram], "policy": report.policy}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(f"{campaign.title}: {report.summary()}")
        peak = max((n for _, n in report.histogram), default=0)
        for turns, n in report.histogram:
            print(f"  {turns:4d} turns {'#' * max(1, round(40 * n / peak))} {n}")
    return EXIT_OK


_COMMANDS = {
    "check": cmd_check, "edit": cmd_edit, "verify": cmd_verify, "scores": cmd_scores, "play": cmd_play, "run": cmd_run,
    "solve": cmd_solve,
}


if __name__ == "__main__":
    sys.exit(main())
