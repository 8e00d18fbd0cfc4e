"""`cardrogue solve`: par and a solution replay, or a Monte Carlo win rate."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cardrogue.engine.words import counted, plural

from .common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    UnusableInput,
    check_writable,
    count,
    level_index,
    load_usable,
    memory_size,
    refused,
    say,
    seconds,
)
from .progress import progress_bar


def register(sub) -> None:
    solve = sub.add_parser("solve", help="find the par of a campaign and a solution replay")
    solve.add_argument("campaign", type=Path, help="campaign file")
    solve.add_argument("--level", type=int, default=None, metavar="N", help="solve only level N (1-based)")
    solve.add_argument("--random", type=count, default=None, metavar="N", help="play N runs with random dice: win rate")
    solve.add_argument("--max-states", type=count, default=2_000_000, help="search budget in states (default 2,000,000)")
    solve.add_argument("--max-seconds", type=seconds, default=60.0, help="search budget in seconds (default 60)")
    solve.add_argument("--health-seconds", type=seconds, default=None, metavar="S",
                       help="once par's turns are proven, at most S seconds for the health tiebreak (default: what is left)")
    solve.add_argument("--max-memory", type=memory_size, default=None, metavar="SIZE",
                       help="stop the search when it has grown the process by SIZE (e.g. 500M, 2G)")
    solve.add_argument("-o", "--output", type=Path, default=None, help="write the solution replay here")
    solve.add_argument("--write-par", action="store_true",
                       help="record the par in the campaign file (canonical form; par is not part of the content hash)")
    solve.add_argument("--format", choices=("text", "json"), default="text",
                       help="text (default) or JSON: par, the solution, the win rate")
    solve.set_defaults(func=cmd_solve)


def cmd_solve(args: argparse.Namespace) -> int:
    from cardrogue.engine.analysis.solver import (
        RAISE_THE_BUDGET,
        SOLVED,
        UNKNOWN,
        UNSOLVABLE,
        Budget,
        solve_campaign,
        solve_level,
    )

    from cardrogue.engine.analysis.solver.budget import OutOfTime, enforced

    if args.random is not None and (args.write_par or args.output is not None):
        option = "--write-par" if args.write_par else "-o"
        return refused(UnusableInput(f"error: {option} is for a solution, and --random plays runs with random dice "
                                     f"(no par, no solution): drop {option}, or --random to solve"),
                       args.format == "json", campaign=str(args.campaign))
    # The budget's clock starts with the command: loading and checking a huge file counts too.
    budget = Budget(args.max_states, args.max_seconds, args.health_seconds, args.max_memory)
    deadline = budget.start()
    try:
        with enforced(deadline):
            campaign = load_usable(args.campaign)
        level = None if args.level is None else level_index(campaign, args.level, args.campaign)
        if args.output is not None:
            check_writable(args.output, campaign=args.campaign)
        if args.write_par:  # before the solve, not after it
            if level is not None:
                raise UnusableInput("--write-par records the par of the whole campaign; drop --level")
            check_writable(args.campaign)
    except UnusableInput as exc:
        return refused(exc, args.format == "json", campaign=str(args.campaign))
    except OutOfTime:
        reason = (f"the time budget ({args.max_seconds:g} s) ran out while the campaign was being read and "
                  "checked; raise --max-seconds")
        if args.format == "json" and args.random is not None:  # the runs' report: none played
            json.dump({"runs": 0, "runs_asked": args.random, "stopped_by": "time", "wins": 0, "win_rate": None,
                       "ci95": None, "deaths": 0, "stuck": 0, "turns": {"min": None, "median": None, "max": None},
                       "histogram": [], "policy": None, "reason": reason}, sys.stdout, indent=2)
            sys.stdout.write("\n")
        elif args.format == "json":  # the solve's report, every field of it: nothing was searched
            json.dump({"verdict": UNKNOWN, "turns": None, "health": None, "health_exact": False,
                       "health_ceiling": None, "health_unproven": 0, "stopped_by": "time", "reason": reason,
                       "actions": [], "states_expanded": 0, "seconds": round(deadline.elapsed(), 3),
                       "turns_seconds": 0.0, "turns_at_least": None, "found": None, "level_turns": [],
                       "level_route": [], "level_pars": []}, sys.stdout, indent=2)
            sys.stdout.write("\n")
        else:
            say(f"{args.campaign}: unknown: {reason}")
        return EXIT_PROBLEMS
    if args.random is not None:
        return _solve_random(campaign, args, deadline.left())
    title = campaign.title if level is None else f"{campaign.title}, {campaign.level_name(level)}"
    with progress_bar(f"{title}: searching for par", total=1.0) as bar:
        def report(p) -> None:  # the share of the budget used: states or seconds, whichever runs out first
            used = min(1.0, max(p.expanded / budget.max_states, p.seconds / budget.max_seconds))
            what = (f"searching for par's turns, {counted(p.expanded, 'state')}" if p.stage == "turns"
                    else f"par {counted(p.turns, 'turn')}; best health so far {p.health}")
            bar.update(completed=used, description=f"{title}: {what}")

        report_to = report if bar.shown else None
        result = (solve_campaign(campaign, budget, deadline=deadline, progress=report_to) if level is None
                  else solve_level(campaign, level, budget, deadline=deadline, progress=report_to))
    # The replay written: the solution's, or on an unknown verdict the run found (par's turns at most its).
    replay = result.replay_text if result.verdict == SOLVED else result.found.replay_text if result.found else ""
    if replay and args.output is not None:
        from cardrogue.engine.records.atomic import atomic_write

        try:
            atomic_write(args.output, replay.encode("utf-8"))
        except OSError as exc:
            return refused(UnusableInput(f"cannot write {args.output}: {exc.strerror or exc}"),
                           args.format == "json", campaign=str(args.campaign))
    if result.verdict == SOLVED and args.write_par:
        try:
            _write_par(args.campaign, campaign, result.turns, result.health)
        except OSError as exc:  # a full disk: the file is unchanged (the write is atomic)
            return refused(UnusableInput(f"{args.campaign}: cannot record the par ({exc.strerror or exc}); the file "
                                         "is unchanged"), args.format == "json", campaign=str(args.campaign))
    if args.format == "json":
        doc = {"verdict": result.verdict, "turns": result.turns, "health": result.health,
               "health_exact": result.health_exact, "health_ceiling": result.health_ceiling,
               "health_unproven": result.health_unproven, "stopped_by": result.stopped_by or None,
               "reason": result.reason, "actions": list(result.actions),
               "states_expanded": result.states_expanded, "seconds": round(result.seconds, 3),
               "turns_seconds": round(result.turns_seconds, 3),
               "turns_at_least": result.turns_at_least,
               "found": ({"turns": result.found.turns, "health": result.found.health, "actions": list(result.found.actions)}
                         if result.found else None),
               "level_turns": list(result.level_turns),
               "level_route": [dict(_level_fields(campaign, i), turns=t) for i, t in zip(result.level_route, result.level_turns)],
               "level_pars": [dict(_level_fields(campaign, i), verdict=p.verdict, turns=p.turns, health=p.health)
                              for i, p in enumerate(result.level_pars)]}
        json.dump(doc, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        where = campaign.title if level is None else f"{campaign.title}, {campaign.level_name(level)}"
        stats = f"{counted(result.states_expanded, 'state')} in {result.seconds:.2f} s"
        if result.verdict == SOLVED:
            say(f"{where}: par {counted(result.turns, 'turn')}, {result.health_text()} ({stats})")
            if result.turns_per_level(campaign):
                say(f"  turns per level: {result.turns_per_level(campaign)}")
            for i, p in enumerate(result.level_pars):
                shown = counted(p.turns, 'turn') if p.verdict == SOLVED else p.verdict
                say(f"  {campaign.level_name(i)} on its own (practice start): {shown}")
            say("  solution: " + " | ".join(result.actions))
            if args.output is not None:
                say(f"  replay written to {args.output}")
            if args.write_par:
                say(f"  par recorded in {args.campaign}")
        elif result.verdict == UNSOLVABLE:
            say(f"{where}: unsolvable: {result.reason} ({stats})")
        else:
            say(f"{where}: unknown: {result.reason}; {RAISE_THE_BUDGET}")
            if result.found is not None:
                say("  run found: " + " | ".join(result.found.actions))
                if args.output is not None:
                    say(f"  its replay written to {args.output} (a finish, not proven par)")
    return EXIT_OK if result.verdict == SOLVED else EXIT_PROBLEMS


def _level_fields(campaign, index: int) -> dict:
    """A level in JSON as the author knows it: its id (``level``, what ladders name), its number in the
    level list (from 1) and its title."""
    return {"level": campaign.levels[index].id, "number": index + 1, "title": campaign.levels[index].title}


def _write_par(path: Path, campaign, turns: int, health: int) -> None:
    """Rewrite the campaign file with its par, in canonical form, atomically."""
    from dataclasses import replace

    from cardrogue.engine.format.canonical import campaign_to_dict, dumps
    from cardrogue.engine.format.loader import load_campaign
    from cardrogue.engine.model.campaign import Par
    from cardrogue.engine.records.atomic import atomic_write

    data = load_campaign(path).data
    schema_ref = data.get("$schema") if isinstance(data, dict) else None
    text = dumps(campaign_to_dict(replace(campaign, par=Par(turns, health)), schema_ref=schema_ref))
    atomic_write(path, text.encode("utf-8"))


def _solve_random(campaign, args: argparse.Namespace, seconds: float) -> int:
    """``--random N``: N runs, or as many as ``--max-seconds`` allows (what is left of it)."""
    from cardrogue.engine.analysis.montecarlo import solve_random

    with progress_bar(f"{campaign.title}: random-dice runs", total=args.random, counted=True) as bar:
        report = solve_random(campaign, args.random, max_seconds=seconds,
                              progress=(lambda done: bar.update(completed=done)) if bar.shown else None)
    cut = report.runs < args.random
    if args.format == "json":
        json.dump({"runs": report.runs, "runs_asked": args.random, "stopped_by": "time" if cut else None,
                   "wins": report.wins, "win_rate": report.win_rate,
                   "ci95": [report.ci_low, report.ci_high], "deaths": report.deaths, "stuck": report.stuck,
                   "turns": {"min": report.turns_min, "median": report.turns_median, "max": report.turns_max},
                   "histogram": [list(h) for h in report.histogram], "policy": report.policy}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        say(f"{campaign.title}: {report.summary()}")
        if cut:
            say(f"  the time budget ({args.max_seconds:g} s) ran out after {report.runs:,} of {counted(args.random, 'run')}; "
                "raise --max-seconds for more")
        peak = max((n for _, n in report.histogram), default=0)
        for turns, n in report.histogram:
            say(f"  {turns:4d} {plural(turns, 'turn'):5} {'#' * max(1, round(40 * n / peak))} {n}")
    return EXIT_OK
