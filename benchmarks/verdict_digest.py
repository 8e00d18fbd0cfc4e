"""A digest of the solver's verdicts, to compare two versions: the 30 generated 8x8 maps of the verdicts
benchmark and the open 12x12, 16x16, 32x32 and 64x64 maps of seed 1.

Run ``python benchmarks/verdict_digest.py [STATES]`` (default 20,000 states expanded per map, no clock:
the same lines on any machine) and ``diff`` the output of two versions; the CPU seconds are apart at the
end of each line.
"""

from __future__ import annotations

import hashlib
import sys
import time

from gen import campaign_text

from cardrogue.engine.analysis.solver import Budget, solve_campaign
from cardrogue.engine.format.loader import load_campaign_text

MAPS = [(8, seed) for seed in range(1, 31)] + [(size, 1) for size in (12, 16, 32, 64)]


def main() -> int:
    states = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    for size, seed in MAPS:
        campaign = load_campaign_text(campaign_text(1, size, seed=seed)).campaign
        start = time.process_time()
        r = solve_campaign(campaign, Budget(max_states=states, max_seconds=3600), per_level=False)
        cpu = time.process_time() - start
        witness = hashlib.sha1("\n".join(r.actions).encode()).hexdigest()[:12]
        print(f"{size}x{size}:{seed:<3} {r.verdict:8} turns={r.turns} health={r.health} exact={r.health_exact} "
              f"expanded={r.states_expanded} generated={r.states_generated} witness={witness}  cpu={cpu:.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
