"""Where a solve spends its states: the popped states of a generated map counted by ``f = turn + h``.

Run ``python benchmarks/solver_layers.py SEED [STATES] [SIZE]``. State counts only (the load of the
machine does not change them), plus the CPU seconds the solve took.
"""

from __future__ import annotations

import sys
import time
from collections import Counter

from gen import campaign_text

from cardrogue.engine.analysis.solver import Budget
from cardrogue.engine.analysis.solver import search
from cardrogue.engine.format.loader import load_campaign_text


def layers(seed: int, states: int, size: int = 8) -> tuple[str, Counter, float]:
    """(verdict, popped states per ``f``, CPU seconds) of a search over ``states`` expansions at most."""
    campaign = load_campaign_text(campaign_text(1, size, seed=seed)).campaign
    run = search.Search(campaign, 0, True, Budget(max_states=states, max_seconds=3600))
    count: Counter = Counter()
    unpack = search.unpack

    def counted(packed, d):
        s = unpack(packed, d)
        count[s.turn + run.relax.bound(s, True)] += 1
        return s

    search.unpack = counted
    try:
        start = time.process_time()
        verdict = run.run()[0]
        return verdict, count, time.process_time() - start
    finally:
        search.unpack = unpack


def main() -> int:
    seed = int(sys.argv[1])
    states = int(sys.argv[2]) if len(sys.argv) > 2 else 20_000
    size = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    verdict, count, cpu = layers(seed, states, size)
    print(f"{size}x{size} seed {seed}: {verdict} after {sum(count.values()):,} popped, {cpu:.2f} s CPU")
    for f, n in sorted(count.items()):
        print(f"  f = {f}: {n:,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
