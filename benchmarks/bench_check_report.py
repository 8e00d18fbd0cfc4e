"""`cardrogue check` of a file of 300,000 problems: the text report against `--format json`.

Run: .venv/bin/python benchmarks/bench_check_report.py [--before OTHER/.venv/bin/cardrogue] [--rounds N] [--keys N]
The files are the bundled the-needle-run with N unknown top-level keys (300,000 by default): ``zz0`` ...
(like no known key) and ``title0`` ... (near ``title``, so the first thousand reach difflib's matcher for a
"did you mean"), as benchmarks/RESULTS.md *Check: a file of 300,000 problems* made them. Each report is
one whole process, its output sent to a file; its CPU time (user + system, which a busy machine changes
least) is the figure, the least of ``--rounds`` (3 by default), the commands taking turns in each round.
``--before``: another checkout's command, measured in the same rounds.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

CAMPAIGN = Path(__file__).resolve().parent.parent / "campaigns" / "the-needle-run.json"


def cpu_of(argv: list[str], out: Path) -> float:
    """The CPU time of one whole process, its standard output written to ``out``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with out.open("wb") as sink:
        subprocess.run(argv, stdout=sink, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", metavar="CARDROGUE", help="another checkout's cardrogue command, measured in the same rounds")
    parser.add_argument("--rounds", type=int, default=3, help="the least of N rounds (default 3)")
    parser.add_argument("--keys", type=int, default=300_000, help="unknown keys in each file (default 300,000)")
    args = parser.parse_args()
    commands = {"after": str(Path(sys.executable).with_name("cardrogue"))}
    if args.before:
        commands["before"] = args.before
    doc = json.loads(CAMPAIGN.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for prefix in ("zz", "title"):
            files[prefix] = Path(tmp) / f"{prefix}.json"
            files[prefix].write_text(json.dumps({**doc, **{f"{prefix}{i}": 1 for i in range(args.keys)}}, indent=2))
        best: dict[tuple, float] = {}
        size: dict[tuple, int] = {}
        for _ in range(args.rounds):
            for prefix, path in files.items():
                for fmt in ("text", "json"):
                    for name, command in commands.items():
                        out = Path(tmp) / "report"
                        cpu = cpu_of([command, "check", "--format", fmt, str(path)], out)
                        key = (prefix, fmt, name)
                        best[key] = min(best.get(key, float("inf")), cpu)
                        size[key] = out.stat().st_size
        for prefix, path in files.items():
            print(f"{prefix} keys ({args.keys:,}, {path.stat().st_size / 1e6:.1f} MB):")
            for fmt in ("text", "json"):
                print(f"  {fmt:4s} " + "   ".join(f"{name} {best[prefix, fmt, name]:5.2f} s CPU "
                                                  f"({size[prefix, fmt, name] / 1e6:.1f} MB out)" for name in commands))


if __name__ == "__main__":
    main()
