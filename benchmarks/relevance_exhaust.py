"""Every reachable state of tiny maps, rewritten as ``relevance_proof.Region`` rewrites them, against its exact finish.

Run ``python benchmarks/relevance_exhaust.py SEED CPU_SECONDS [tiny|teleportation|wide] [--horizon H] [--cap N] [--cut K]``:
maps of ``bound_sweep.py`` (the paced warrior, goblins, potions of paralysis or of teleportation on cells and in hand,
some tiles face up; ``wide``: walls, the start inside, goblins beside it), each enumerated as ``bound_exhaust.py``
does (every state reachable under the fated dice, the engine's exact key, in turn order up to turn ``H``, 10 by
default, or ``N`` states, 20,000), the fewest turns to finish from each propagated back. Then at EVERY state ``s``
with a finish at turn ``F`` (exact: before the turn the enumeration stopped at) and for ``T`` = ``F + 1`` and
``F + 2`` (the prototype proves "no finish before ``T``"; a line finishing before ``T`` must survive the rewriting):

- ``s`` is rewritten for ``T`` and one of its best lines (a child with the same finish, down to the finish) is
  played from the rewritten state, every state along it rewritten too, as the prototype's search rewrites every
  state it admits: each action must stay legal and the line must finish by turn ``F`` (a line lost: the rewriting
  dropped a line before ``T``, a false proof);
- at every rewritten state along it, ``turn + bound`` (``relaxation(c, d).bound``, on the rewritten faces) must be
  at most ``F`` (above it: the search would leave that line past ``T``, a false proof too).

``--cut K``: every steps budget of the rewriting cut by ``K`` (a rewriting known to be wrong, to see the check fail).
Prints each defect as a JSON line (kind, the map's recipe, the actions to ``s``, ``T``, the figures), then the
counts. Deterministic in its arguments (CPU time aside). Figures only; the prototype is not in the engine.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter

from bound_exhaust import _line, best_finishes, enumerate_states
from bound_sweep import tiny, wide
from relevance_proof import Region

from cardrogue.engine.analysis.solver.bounds import relaxation
from cardrogue.engine.chance.resolvers import FatedResolver
from cardrogue.engine.rules.actions import ActionError
from cardrogue.engine.rules.phases import WON


def check_map(c, recipe, horizon: int, cap: int, counts: Counter, cut: int = 0) -> list[dict]:
    """Enumerate ``c``'s states and hold the rewriting to each one's best line; the defects found."""
    states, parents, children, below = enumerate_states(c, horizon, cap)
    d = states[0].d
    relax = relaxation(c, d)
    if not relax.paced:
        counts["maps not paced (skipped)"] += 1
        return []
    counts["maps"] += 1
    counts["states enumerated"] += len(states)
    best = best_finishes(states, children, lambda s: (s.turn, -s.health) if s.outcome == WON else None)
    resolver = FatedResolver(c)
    regions = {}
    out = []
    for i, s in enumerate(states):
        if best[i] is None or s.outcome is not None or best[i][0] >= below:
            continue
        finish = best[i][0]
        # One best line from s: a child with the same best finish, down to the finish.
        line, k = [], i
        while states[k].outcome is None:
            here = states[k]
            nxt = next(j for j in children[k] if best[j] is not None and best[j][0] == finish)
            line.append(_action_to(here, states[nxt], resolver))
            k = nxt
        for target in (finish + 1, finish + 2):
            region = regions.get(target)
            if region is None:
                region = regions[target] = Region(c, d, target, cut=cut)
            counts["states checked"] += 1
            x = s.clone()
            region(x)
            why = None
            try:
                for n, action in enumerate(line):
                    if x.turn + relax.bound(x, True) > finish:
                        why = ("overestimate", n, x.turn + relax.bound(x, True))
                        break
                    x.step(action, resolver)
                    region(x)
                else:
                    if not (x.outcome == WON and x.turn <= finish):
                        why = ("line lost", len(line), f"outcome {x.outcome}, turn {x.turn}")
            except ActionError as err:
                why = ("line lost", n, str(err))
            if why is not None:
                counts[why[0]] += 1
                out.append({"kind": why[0], "recipe": recipe, "actions": _line(parents, i), "line": line,
                            "T": target, "finish": finish, "at": why[1], "figure": why[2]})
    return out


def _action_to(s, child, resolver) -> str:
    """The text of an action of ``s`` that leads to ``child`` (by the engine's exact key)."""
    want = child.key()
    for action in s.legal_actions():
        t = s.clone()
        t.advance(action, resolver)
        if t.key() == want:
            return str(action)
    raise AssertionError("no action leads to the child")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="the faces-merged rewriting against every state of tiny maps")
    parser.add_argument("seed", type=int)
    parser.add_argument("seconds", type=float)
    parser.add_argument("shapes", nargs="?", default="tiny", choices=("tiny", "teleportation", "wide"))
    parser.add_argument("--horizon", type=int, default=10)
    parser.add_argument("--cap", type=int, default=20_000)
    parser.add_argument("--cut", type=int, default=0, help="every steps budget cut by this much (a wrong rewriting)")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    counts: Counter = Counter()
    t0 = time.process_time()
    while time.process_time() - t0 < args.seconds:
        if args.shapes == "wide":
            c, recipe = wide(rng)
        else:
            c, recipe = tiny(rng, "teleportation" if args.shapes == "teleportation" else "paralysis")
        for defect in check_map(c, recipe, args.horizon, args.cap, counts, args.cut):
            print(json.dumps(defect))
    print(", ".join(f"{k}: {v:,}" for k, v in sorted(counts.items())) + f"; cpu {time.process_time() - t0:.0f}s")
    return 1 if counts["line lost"] or counts["overestimate"] else 0


if __name__ == "__main__":
    sys.exit(main())
