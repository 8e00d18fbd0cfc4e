"""The ``cardrogue`` command: edit, check (and, as they land, play, solve, verify, scores).

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


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # usage errors exit 2, as argparse does, with our prefix
        self.print_usage(sys.stderr)
        self.exit(EXIT_UNUSABLE, f"cardrogue: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="cardrogue", description="Author, validate and play Card Rogue story-mode campaigns.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    edit = sub.add_parser("edit", help="open the editor (no argument: the bundled campaign, as a template)")
    edit.add_argument("campaign", nargs="?", type=Path, help="campaign file to edit (created if missing)")

    check = sub.add_parser("check", help="validate campaign files: schema, rules and graph checks")
    check.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="campaign files or folders")
    check.add_argument("--format", choices=("text", "json"), default="text", help="output format (json for tools)")
    check.add_argument("--strict", action="store_true", help="fail on warnings too")
    check.add_argument("-v", "--verbose", action="store_true", help="also show information (chokepoints)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
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
    report: list[tuple[str, list[Diagnostic]]] = [(d.file, [d]) for d in missing]
    for path in files:
        _, diagnostics = check_file(path)
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


_COMMANDS = {"check": cmd_check, "edit": cmd_edit}


if __name__ == "__main__":
    sys.exit(main())
