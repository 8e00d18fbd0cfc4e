"""`cardrogue check` on a generated 50-level campaign of 32x32 levels, against json.load alone.

Run: .venv/bin/python benchmarks/bench_check.py
Target (issue 2): the full check within 10x of the bare parse.
"""

from __future__ import annotations

import json
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


if __name__ == "__main__":
    main()
