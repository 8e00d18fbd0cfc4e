"""`cardrogue check` on a generated 50-level campaign of 32x32 levels, against json.load alone.

Run: .venv/bin/python benchmarks/bench_check.py [--before OTHER/.venv/bin/cardrogue] [--rounds N]
(``--before``: another checkout's command, e.g. main before a change, measured in the same rounds;
``--rounds``: best of N, 5 by default, more on a busy machine.)
Targets: in process, the full check within 10x of the bare parse (issue 2); as whole processes,
``cardrogue check F`` within 4x of ``python -c "import json; json.load(open(F))"`` (issue 14), measured
here on the big campaign and on the small bundled one, with the compiled validator cached (any run
after the first) and without (a first run: ``$CARDROGUE_CACHE`` pointed at an empty folder). Each
process's wall time and its CPU time (user + system, which a busy machine changes least) are given.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from gen import campaign_text  # noqa: E402

from cardrogue.engine.analysis.check import check_file  # noqa: E402
from cardrogue.engine.format.diagnostics import Severity  # noqa: E402
from cardrogue.engine.format.schema import campaign_validators  # noqa: E402


def best_of(n: int, fn) -> float:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def run(argv: list[str], env: dict | None = None) -> tuple[float, float]:
    """The wall time of one whole process (interpreter start-up, imports and exit included), and its
    CPU time (user + system: what a busy machine changes least)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)
    elapsed = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def processes(path: Path, label: str, before: str | None, rounds: int = 5) -> None:
    """Best of ``rounds`` for each command, the commands taking turns in each round, so that a
    change of load on the machine falls on all of them alike."""
    python = sys.executable
    commands = {"json.load": [python, "-c", f"import json; json.load(open({str(path)!r}))"],
                "check": [str(Path(python).with_name("cardrogue")), "check", str(path)]}
    if before:
        commands["check before"] = [before, "check", str(path)]
    best = {name: [float("inf"), float("inf")] for name in commands}
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, CARDROGUE_CACHE=cache)
        cold = {name: min(run(argv, dict(env, CARDROGUE_CACHE=f"{cache}/{name}-{i}"))[0] for i in range(3))
                for name, argv in commands.items() if name != "json.load"}
        for _ in range(rounds):
            for name, argv in commands.items():
                best[name] = [min(old, new) for old, new in zip(best[name], run(argv, env))]
    parse, parse_cpu = best["json.load"]
    print(f"{label}: json.load process {parse * 1000:.0f} ms wall, {parse_cpu * 1000:.0f} ms CPU")
    for name in commands:
        if name != "json.load":
            took, cpu = best[name]
            print(f"  cardrogue {name:13s} {took * 1000:6.0f} ms wall ({took / parse:.1f}x; target <= 4x), "
                  f"{cpu * 1000:.0f} ms CPU ({cpu / parse_cpu:.1f}x); "
                  f"{cold[name] * 1000:.0f} ms wall with no cached validator ({cold[name] / parse:.1f}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", metavar="CARDROGUE", help="another checkout's cardrogue command, measured in the same rounds")
    parser.add_argument("--rounds", type=int, default=5, help="best of N rounds (default 5; more on a busy machine)")
    args = parser.parse_args()
    before, rounds = args.before, args.rounds
    text = campaign_text(50, 32)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.json"
        path.write_text(text, encoding="utf-8")
        campaign_validators()  # compiled once per process, as in any run
        _, diags = check_file(path)
        assert not [d for d in diags if d.severity is Severity.ERROR], diags[:3]
        parse = best_of(5, lambda: json.loads(path.read_bytes()))
        full = best_of(5, lambda: check_file(path))
    print(f"file: 50 levels x 32x32 = {50 * 32 * 32:,} cells, {len(text) / 1e6:.1f} MB")
    print(f"json.load alone:   {parse * 1000:8.1f} ms")
    print(f"full check:        {full * 1000:8.1f} ms")
    print(f"ratio:             {full / parse:8.1f}x   (target: <= 10x)")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.json"
        path.write_text(text, encoding="utf-8")
        processes(path, "50 x 32x32 campaign", before, rounds)
    processes(Path(__file__).resolve().parent.parent / "campaigns" / "a-sons-descent.json", "a-sons-descent (small)",
              before, rounds)


if __name__ == "__main__":
    main()
