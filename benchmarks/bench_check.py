"""`cardrogue check` on a generated 50-level campaign of 32x32 levels, against json.load alone.

Run: .venv/bin/python benchmarks/bench_check.py
Targets: in process, the full check within 10x of the bare parse (issue 2); as whole processes,
``cardrogue check F`` within 4x of ``python -c "import json; json.load(open(F))"`` (issue 14), measured
here on the big campaign and on the small bundled one, with the compiled validator cached (any run
after the first) and without (a first run: ``$CARDROGUE_CACHE`` pointed at an empty folder).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from gen import campaign_text  # noqa: E402

from cardrogue.engine.analysis.check import check_file  # noqa: E402
from cardrogue.engine.format.diagnostics import Severity  # noqa: E402
from cardrogue.engine.format.schema import fast_validator  # noqa: E402


def best_of(n: int, fn) -> float:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def whole_process(n: int, argv: list[str], env: dict | None = None) -> float:
    """The best of ``n`` wall times of a whole process (interpreter start-up and imports included)."""
    def run():
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)
    return best_of(n, run)


def processes(path: Path, label: str) -> None:
    python = sys.executable
    command = str(Path(python).with_name("cardrogue"))
    parse = whole_process(5, [python, "-c", f"import json; json.load(open({str(path)!r}))"])
    with tempfile.TemporaryDirectory() as cache:
        cold_env = dict(os.environ, CARDROGUE_CACHE=cache)
        cold = min(whole_process(1, [command, "check", str(path)], dict(cold_env, CARDROGUE_CACHE=f"{cache}/{i}"))
                   for i in range(3))
        warm = whole_process(5, [command, "check", str(path)], cold_env)
    print(f"{label}: json.load process {parse * 1000:.0f} ms; cardrogue check process {warm * 1000:.0f} ms "
          f"({warm / parse:.1f}x; target <= 4x), {cold * 1000:.0f} ms with no cached validator ({cold / parse:.1f}x)")


def main() -> None:
    text = campaign_text(50, 32)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.json"
        path.write_text(text, encoding="utf-8")
        fast_validator("campaign.schema.json")  # compiled once per process, as in any run
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
        processes(path, "50 x 32x32 campaign")
    processes(Path(__file__).resolve().parent.parent / "campaigns" / "a-sons-descent.json", "a-sons-descent (small)")


if __name__ == "__main__":
    main()
