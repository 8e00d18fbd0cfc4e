"""Before and after the rules of the ``tele13`` session on the generated 8x8 maps (docs/solver.md, *The first potion of
teleportation picked up*, *A potion drunk*, *... nor while the only enemies face up are those he fights where the turn
began*): the bound at the start and the verdict, the least turns still open (``turns_at_least``) and the states of a
solve within a budget of states, with the rules and without them (``bound_hunt._NoFirstTele``'s methods patched into
the solver's ``Relaxation``).

Run ``python benchmarks/bound_rules_ab.py STATES SEED...``. State counts and CPU seconds; no clock in the budgets.
"""

from __future__ import annotations

import sys
import time

import bound_hunt
from gen import campaign_text

from cardrogue.engine.analysis.solver import Budget, solve_campaign
from cardrogue.engine.analysis.solver import bounds as bounds_module
from cardrogue.engine.chance.resolvers import FatedResolver
from cardrogue.engine.format.loader import load_campaign_text
from cardrogue.engine.rules.state import GameState

RULES = ("_first_tele_gain", "_fought_here", "_tele_allowance")


def run(seed: int, states: int) -> str:
    campaign = load_campaign_text(campaign_text(1, 8, seed=seed)).campaign
    bounds_module._RELAX.clear()
    s = GameState.new(campaign, log=False)
    s.resolve(FatedResolver(campaign))
    root = bounds_module.relaxation(campaign, s.d).bound(s, True)
    start = time.process_time()
    r = solve_campaign(campaign, Budget(max_states=states, max_seconds=3600), per_level=False)
    cpu = time.process_time() - start
    return (f"root {root:3}  {r.verdict:8} turns={r.turns} at_least={r.turns_at_least} "
            f"found={r.found.turns if r.found else None} expanded={r.states_expanded} cpu={cpu:.1f}")


def main() -> int:
    states = int(sys.argv[1])
    seeds = [int(a) for a in sys.argv[2:]]
    now = {name: getattr(bounds_module.Relaxation, name) for name in RULES}
    old = {name: getattr(bound_hunt._NoFirstTele, name) for name in RULES}
    for seed in seeds:
        for label, methods in (("before", old), ("after", now)):
            for name, fn in methods.items():
                setattr(bounds_module.Relaxation, name, fn)
            print(f"8x8:{seed:<3} {label:6} {run(seed, states)}", flush=True)
        for name, fn in now.items():
            setattr(bounds_module.Relaxation, name, fn)
    return 0


if __name__ == "__main__":
    sys.exit(main())
