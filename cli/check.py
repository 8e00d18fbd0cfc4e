"""`cardrogue check`: schema, rules and graph checks, as text or JSON."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Container, Iterator, Sequence

from cardrogue.engine.format.diagnostics import Diagnostic, Severity, has_errors
from cardrogue.engine.format.files import campaign_files_in, json_meant
from cardrogue.engine.printable import printable
from cardrogue.engine.words import counted

from .common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_UNUSABLE,
    UNUSABLE_CODES,
    complain,
    count,
    printable,
    seconds,
)
from .progress import is_plain, progress_bar


SHOWN_PER_CODE = 100
"""The text report lists this many problems of one code in a file, then counts the rest (``-v`` lists them
all; ``--format json`` always does), as the hub lists a refused map's first 100: a file of 300,000
unknown keys printed 300,000 lines."""


SOLVE_STATES, SOLVE_SECONDS = 200_000, 20.0  # check --solve's budget unless --max-states / --max-seconds say
SOLVER_WAITS = "the solver (--solve, CR4xx) waits until errors are fixed"
"""Under a campaign ``check --solve`` did not solve for its errors: asked for a verdict, the author is told why none
came (not under a file that is no campaign, as for the route checks: it has more to mend first)."""


def register(sub) -> None:
    check = sub.add_parser("check", help="validate campaign files: schema, rules and graph checks")
    check.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="campaign files or folders")
    check.add_argument("--format", choices=("text", "json"), default="text", help="text (default) or json (for tools)")
    check.add_argument("--strict", action="store_true", help="fail on warnings too")
    check.add_argument("-v", "--verbose", action="store_true",
                       help=f"also show information (chokepoints), and every problem of a code met more than {SHOWN_PER_CODE} times in a file")
    check.add_argument("--solve", action="store_true", help="also run the solver: an unsolvable map is an error")
    check.add_argument("--max-states", type=count, default=None, help="solver budget in states (with --solve; default 200,000)")
    check.add_argument("--max-seconds", type=seconds, default=None, help="solver budget in seconds per file (with --solve; default 20)")
    check.set_defaults(func=cmd_check)


def _campaign_files(paths: Sequence[Path]) -> tuple[list[Path], list[Diagnostic]]:
    """The files to check: those named, and in each folder named its campaign files
    (:func:`~cardrogue.engine.format.files.campaign_files_in`: no replay, nothing hidden), the
    files the editor's file picker shows."""
    files: list[Path] = []
    missing: list[Diagnostic] = []
    for path in paths:
        if path.is_dir():
            files.extend(campaign_files_in(path))
        elif path.exists():
            files.append(path)
        elif path.is_symlink():  # exists() follows the link: say where it leads, not "no such file"
            to = printable(os.readlink(path))
            missing.append(Diagnostic("CR006", f"a symbolic link that leads to no file (to {to}: missing, or a loop "
                                      "of links)", file=str(path), line=1, column=1))
        else:
            missing.append(Diagnostic("CR006", f"no such file or folder{json_meant(path)}", file=str(path), line=1,
                                      column=1))
    return files, missing


def cmd_check(args: argparse.Namespace) -> int:
    from cardrogue.engine.analysis.check import check_file

    if not args.solve and (args.max_states is not None or args.max_seconds is not None):
        option = "--max-states" if args.max_states is not None else "--max-seconds"
        complain(f"error: {option} is the solver's budget, and check runs the solver only with --solve: add --solve, "
                 f"or drop {option}")
        return EXIT_UNUSABLE
    files, missing = _campaign_files(args.paths)
    if not files and not missing:
        complain(f"no campaign files (*.json) in {', '.join(map(str, args.paths))}")
        return EXIT_UNUSABLE
    report: list[tuple[str, list[Diagnostic]]] = [(d.file, [d]) for d in missing]
    drafts: set[str] = set()  # campaigns with errors whose model was built: fixing them brings the route checks
    unsolved: set[str] = set()  # with --solve, files whose errors kept the solver back
    with progress_bar("checking", total=len(files), counted=True) as bar:
        for path in files:
            bar.update(description=f"checking {path}")
            result, diagnostics = check_file(path)
            if args.solve and result.campaign is not None and not has_errors(diagnostics):
                bar.update(description=f"solving {path}")
                diagnostics = diagnostics + _solver_diagnostics(result, args)
            elif args.solve and result.draft is not None:
                unsolved.add(str(path))
            report.append((str(path), diagnostics))
            if result.draft is not None:
                drafts.add(str(path))
            bar.update(advance=1)

    unusable = any(d.code in UNUSABLE_CODES for _, ds in report for d in ds)
    problems = any(has_errors(ds, strict=args.strict) for _, ds in report)
    status = EXIT_UNUSABLE if unusable else EXIT_PROBLEMS if problems else EXIT_OK

    if args.format == "json":
        sys.stdout.writelines(_json_report(report, args.strict, status))
    else:
        _print_text_report(report, args.verbose, args.strict, status, drafts, unsolved)
    return status


def _json_report(report: list[tuple[str, list[Diagnostic]]], strict: bool, status: int) -> Iterator[str]:
    """The JSON report, ``{"status": ..., "files": [{"file", "ok", "diagnostics": [...]}, ...]}``, indented
    as ``json.dump(indent=2)`` writes it down to the diagnostics, each of which is one line: a tool reads
    the same document, a person or ``grep`` one problem a line, and each line is written by the standard
    library's C encoder. (The whole document through ``indent=2``, the pure-Python encoder, made a file of
    300,000 unknown keys a 120 MB report and took twice as long as the text report; benchmarks/RESULTS.md.)"""
    dumps = json.JSONEncoder().encode  # no indent: the C encoder, ensure_ascii as json.dump's default
    yield f'{{\n  "status": {dumps(["ok", "problems", "unusable"][status])},\n  "files": ['
    for i, (name, diagnostics) in enumerate(report):
        yield (",\n" if i else "\n") + (f'    {{\n      "file": {dumps(name)},\n      "ok": '
                                         f'{dumps(not has_errors(diagnostics, strict=strict))},\n      "diagnostics": [')
        for j, d in enumerate(diagnostics):
            yield (",\n        " if j else "\n        ") + dumps(d.as_json())
        yield "\n      ]\n    }" if diagnostics else "]\n    }"
    yield "\n  ]\n}\n" if report else "]\n}\n"


def _solver_diagnostics(result, args: argparse.Namespace) -> list[Diagnostic]:
    """The solver's verdict as diagnostics placed in the file (``check --solve``)."""
    from dataclasses import replace

    from cardrogue.engine.analysis.solver import Budget, solve_diagnostics
    from cardrogue.engine.format.positions import PositionIndex

    found = solve_diagnostics(result.campaign, Budget(SOLVE_STATES if args.max_states is None else args.max_states,
                                                     SOLVE_SECONDS if args.max_seconds is None else args.max_seconds))
    index = PositionIndex(result.text)
    return [replace(d, file=result.file, line=index.locate(d.path)[0], column=index.locate(d.path)[1]) for d in found]


def _print_text_report(report: list[tuple[str, list[Diagnostic]]], verbose: bool, strict: bool, status: int,
                       drafts: Container[str] = (), unsolved: Container[str] = ()) -> None:
    """Colour through Rich styles, never markup: file names and messages are shown as text. Under a
    file of ``drafts`` (a campaign with errors the loader built a model of), whether its errors hold
    the route checks back; under one of ``unsolved`` (``--solve``), that they held the solver back."""
    from cardrogue.engine.analysis.check import checks_waiting

    style = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}
    counts = {s: 0 for s in Severity}
    lines: list[list[tuple[str, str]]] = []  # each line as (text, Rich style) pieces
    for name, diagnostics in report:
        shown = [d for d in diagnostics if verbose or d.severity is not Severity.INFO]
        for d in diagnostics:
            counts[d.severity] += 1
        mark = ("✗", "red") if has_errors(diagnostics, strict) else ("✓", "green")
        lines.append([mark, (" ", ""), (printable(name), "bold")])
        per_code: dict[str, int] = {}
        for d in shown:
            per_code[d.code] = per_code.get(d.code, 0) + 1
            if verbose or per_code[d.code] <= SHOWN_PER_CODE:
                lines.append([("  ", ""), (printable(d.render()), style[d.severity])])
        for code, n in per_code.items():
            if not verbose and n > SHOWN_PER_CODE:
                more = counted(n - SHOWN_PER_CODE, f"more {code} problem")
                lines.append([("  ", ""), (f"... and {more} (-v to show them all)", "")])
        # fixing these may bring new problems, an exit no route reaches (not said of a file that is no
        # campaign the loader could build, a replay or a cut file: it has more to mend first)
        waiting = checks_waiting(diagnostics) if name in drafts else None
        if waiting:
            lines.append([("  ", ""), (waiting, "dim")])
        if name in unsolved:
            lines.append([("  ", ""), (SOLVER_WAITS, "dim")])
    summary = (f"{counted(len(report), 'file')}: {counted(counts[Severity.ERROR], 'error')}, "
               f"{counted(counts[Severity.WARNING], 'warning')}")
    notes = counts[Severity.INFO]
    if notes:  # counted whether shown (-v) or not
        summary += f", {counted(notes, 'note')}" + ("" if verbose else " (-v to show)")
    lines.append([(summary, "green" if status == EXIT_OK else "red")])
    print_styled(lines)


def print_styled(lines: list[list[tuple[str, str]]]) -> None:
    """Lines of styled pieces on standard output: through Rich on a terminal; else the plain text
    Rich would write there, without importing it."""
    if is_plain(sys.stdout):
        sys.stdout.write("".join("".join(text for text, _ in line) + "\n" for line in lines))
        return
    from rich.console import Console
    from rich.text import Text

    console = Console(highlight=False, soft_wrap=True)
    for line in lines:
        console.print(Text.assemble(*line))
