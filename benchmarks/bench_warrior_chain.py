"""The warrior's flee chain (docs/solver.md, *The warrior's chain*): the sweep's maps whose chain it shrinks,
solved with a state budget (no clock) before and after.

For the maps of ``bench_mix.py``'s sweep (``gen.mixed_campaign_text``; sizes, mixes and seeds as there)
where the warrior flees only DOES NOT CHASE enemies (``Relaxation.calm`` set), each map runs through
``bench_mix.sweep_one`` twice: with the chain beside every enemy card (as before: ``flees.calm_enemies``
replaced by nothing) and with the warrior's chain. Each run checks what the sweep checks (the witness
verified, the bound along it, the reference search on maps up to 4x4, random play). Prints one line a map
(F, root bound, verdict, states, CPU before | after) and the count of maps decided.

Run ``python benchmarks/bench_warrior_chain.py [--states N] [--sizes ...] [--mixes ...] [--maps N]``.
"""

from __future__ import annotations

import argparse
import sys
import time

import bench_mix
from bench_mix import levels_for
from gen import MIXES, mixed_campaign_text

from cardrogue.engine.analysis.solver import UNKNOWN, bounds
from cardrogue.engine.analysis.solver.bounds import Relaxation
from cardrogue.engine.format.loader import load_campaign_text
from cardrogue.engine.rules.state import GameState


def warriors_maps(sizes, mixes, maps: int) -> list[tuple[int, str, int]]:
    out = []
    for size in sizes:
        for mix in mixes:
            for seed in range(maps):
                c = load_campaign_text(mixed_campaign_text(levels_for(mix, seed), size, seed, mix)).campaign
                if Relaxation(c, GameState.new(c, log=False).d).calm is not None:
                    out.append((size, mix, seed))
    return out


def run(size: int, mix: str, seed: int, before: bool):
    calm = bounds.calm_enemies
    if before:
        bounds.calm_enemies = lambda d: None  # the chain beside every enemy card, as before
    try:
        return bench_mix.sweep_one(size, mix, seed, 3600.0, 4, 300_000, 3600.0, 0.5)
    finally:
        bounds.calm_enemies = calm


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--states", type=int, default=100_000, help="states expanded per solve (default 100,000)")
    ap.add_argument("--sizes", default="3,4,6,10,16")
    ap.add_argument("--mixes", default=",".join(MIXES))
    ap.add_argument("--maps", type=int, default=3)
    args = ap.parse_args()
    bench_mix.SOLVE_STATES = args.states
    chosen = warriors_maps([int(x) for x in args.sizes.split(",")], args.mixes.split(","), args.maps)
    print(f"{len(chosen)} maps with the warrior's chain; {args.states:,} states a solve, no clock", flush=True)
    decided = [0, 0]
    cpu = [0.0, 0.0]
    problems = []
    for size, mix, seed in chosen:
        recs = [run(size, mix, seed, before) for before in (True, False)]
        cells = []
        for k, r in enumerate(recs):
            decided[k] += r.verdict != UNKNOWN
            cpu[k] += r.cpu
            problems += [f"{r.params()}: {p}" for p in r.problems]
            loosen = r.loosen.split("F=")[1].split(",")[0] if "F=" in r.loosen else "0"
            verdict = r.verdict + (f" {r.turns}/{r.health}" if r.turns is not None else "")
            cells.append(f"F {loosen:>3} root {r.root_bound:g} {verdict:14} {r.states:>9,} {r.cpu:6.2f}s")
        new = " NEW" if recs[0].verdict == UNKNOWN and recs[1].verdict != UNKNOWN else ""
        print(f"{size:>2}x{size:<2} {mix:8} {seed}  {cells[0]} | {cells[1]}{new}", flush=True)
    print(f"decided: {decided[0]} before, {decided[1]} after, of {len(chosen)}; CPU {cpu[0]:.1f} s before, {cpu[1]:.1f} s after")
    print(f"problems ({len(problems)}):", *problems, sep="\n  ")
    return 1 if problems else 0


if __name__ == "__main__":
    start = time.process_time()
    code = main()
    print(f"CPU {time.process_time() - start:.1f} s in all")
    sys.exit(code)
