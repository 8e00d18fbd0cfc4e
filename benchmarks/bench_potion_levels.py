"""Speed of the potion bound on big levels, beside the anchor: one line per run.

Run ``python benchmarks/bench_potion_levels.py LABEL``: the anchor (before and after), the solver's open 8x8
seeds 1-3 (``bench_solver.py --speed-only``'s figure: median of 3 fresh solves each, generated states per CPU
second) and the search alone (20,000 expansions, no clock, no dive) on the 10x10 and 16x16 ``potions`` and
``ladders`` maps of seed 0 (``gen.mixed_campaign_text``), all in this process's CPU time. Figures only; to
compare two versions, alternate runs of each (benchmarks/RESULTS.md).
"""

from __future__ import annotations

import sys
import time

from anchor import perft_rate
from gen import campaign_text, mixed_campaign_text
from bench_mix import levels_for
from cardrogue.engine.format.loader import load_campaign_text
from cardrogue.engine.analysis.solver import Budget, solve_campaign
import cardrogue.engine.analysis.solver.search as S
label = sys.argv[1]
anchor = perft_rate()
states = cpu = 0.0
for seed in (1, 2, 3):
    runs = []
    for _ in range(3):
        c = load_campaign_text(campaign_text(1, 8, seed=seed)).campaign
        t = time.process_time()
        r = solve_campaign(c, Budget(max_seconds=30), per_level=False)
        runs.append((time.process_time() - t, r.states_generated))
    runs.sort()
    cpu += runs[1][0]; states += runs[1][1]
rate = states / cpu
big = []
for m in ("16:potions:0", "16:ladders:0", "10:potions:0", "10:ladders:0"):
    size, mix, seed = m.split(":"); size = int(size); seed = int(seed)
    c = load_campaign_text(mixed_campaign_text(levels_for(mix, seed), size, seed, mix)).campaign
    t = time.process_time()
    s = S.Search(c, 0, True, Budget(max_states=20_000, max_seconds=3600)); s.run()
    big.append(f"{m} {s.generated} {time.process_time() - t:.2f}s")
anchor2 = perft_rate()
print(f"{label}: anchor {anchor:,.0f}/{anchor2:,.0f} nodes/s; seeds 1-3 {rate:,.0f} states/CPU s = {rate / max(anchor, anchor2):.3f}x perft | " + " | ".join(big), flush=True)
