"""The flee-chain unknowns of the held-out-style sweep, solved with and without the bound's flee rules.

For each map (``gen.mixed_campaign_text``; by default the 34 maps RESULTS.md lists under "flee chain
alone", issue 14), solve the whole campaign with ``Budget(max_states=N, max_seconds=3600)`` twice: with
the bound as it is (``rules on``: flees start beside an enemy, the chain of a state from the enemies alive
and their next rolls; docs/solver.md, *Flees start beside an enemy; chains on a roll*) and with those two
rules turned off (the relaxation's ``rolls`` and ``origins`` set to None: the bound of main before them).
Prints per map the hero, the root bound, verdict, par, states expanded and CPU seconds
(``time.process_time``) for both; a solved witness is checked by ``verify_replay`` and the bound read
along it (never above the turns left).

Run ``python benchmarks/bench_flee_chain.py [--states 100000] [--maps 10:traps:0,6:gear:0]``.
"""

from __future__ import annotations

import argparse
import time

from gen import MIXES, mixed_campaign_text

from cardrogue.engine.analysis.solver import SOLVED, Budget, solve_campaign
from cardrogue.engine.analysis.solver.bounds import relaxation
from cardrogue.engine.chance.resolvers import FatedResolver
from cardrogue.engine.format.loader import load_campaign_text
from cardrogue.engine.records.replay import verify_replay
from cardrogue.engine.rules.state import GameState

# RESULTS.md, "Issue 14: held-out-style sweep of item mixes": the unknowns whose only looseness is F.
FLEE_CHAIN_ALONE = (
    [(size, mix, seed) for size in (10, 16) for mix in ("monsters", "traps", "shops", "chests") for seed in range(3)
     if (size, mix, seed) != (16, "chests", 2)]
    + [(10, "walls", 0), (10, "walls", 1), (16, "walls", 0), (16, "walls", 1), (16, "walls", 2)]
    + [(10, "heroes", 0), (10, "heroes", 1), (16, "heroes", 1), (6, "chests", 0), (6, "heroes", 0), (6, "gear", 0)]
)


def levels_for(mix: str, seed: int) -> int:
    return 2 + seed % 2 if "ladders" in MIXES[mix] else 1


def run(text: str, states: int, rules: bool) -> dict:
    campaign = load_campaign_text(text).campaign
    resolver = FatedResolver(campaign)
    s = GameState.new(campaign, log=False)
    s.resolve(resolver)
    relax = relaxation(campaign, s.d)
    on = relax.rolls is not None
    if not rules:
        relax.rolls = relax.origins = None
    root = relax.bound(s, True)
    t0 = time.process_time()
    r = solve_campaign(campaign, Budget(max_states=states, max_seconds=3600), per_level=False)
    cpu = time.process_time() - t0
    problems = []
    if r.verdict == SOLVED:
        if not verify_replay(r.replay_text, load_campaign_text(text).campaign).ok:
            problems.append("witness rejected")
        for action in r.actions:
            if relax.bound(s, True) > r.turns - s.turn:
                problems.append(f"bound above the turns left at turn {s.turn}")
                break
            s.step(action, resolver)
    return {"hero": s.d.character.name, "on": on, "root": root, "verdict": r.verdict, "turns": r.turns,
            "health": r.health, "states": r.states_expanded, "cpu": cpu, "problems": problems}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=100_000, help="states expanded per solve (default 100,000)")
    parser.add_argument("--maps", default="", help="size:mix:seed,... (default: the 34 flee-chain maps)")
    args = parser.parse_args()
    maps = ([tuple(int(x) if k != 1 else x for k, x in enumerate(m.split(":"))) for m in args.maps.split(",")]
            if args.maps else FLEE_CHAIN_ALONE)
    print(f"{'map':<16} {'hero':<8} {'rule':<4} | {'before: root':>12} {'verdict':>8} {'par':>6} {'states':>8} {'CPU':>7}"
          f" | {'after: root':>11} {'verdict':>8} {'par':>6} {'states':>8} {'CPU':>7}")
    totals = [0, 0, 0.0, 0.0, 0, 0]
    bad = 0
    for size, mix, seed in maps:
        text = mixed_campaign_text(levels_for(mix, seed), size, seed, mix)
        before = run(text, args.states, False)
        after = run(text, args.states, True)
        for k, r in enumerate((before, after)):
            totals[k] += r["states"]
            totals[2 + k] += r["cpu"]
            totals[4 + k] += r["verdict"] == SOLVED
        par = [f"{r['turns']}/{r['health']}" if r["verdict"] == SOLVED else "-" for r in (before, after)]
        print(f"{f'{size}x{size} {mix} {seed}':<16} {after['hero']:<8} {'on' if after['on'] else 'off':<4} | "
              f"{before['root']:>12} {before['verdict']:>8} {par[0]:>6} {before['states']:>8,} {before['cpu']:>6.1f}s | "
              f"{after['root']:>11} {after['verdict']:>8} {par[1]:>6} {after['states']:>8,} {after['cpu']:>6.1f}s", flush=True)
        for r in (before, after):
            for p in r["problems"]:
                bad += 1
                print(f"  PROBLEM: {p}")
    print(f"solved {totals[4]} -> {totals[5]} of {len(maps)}; states {totals[0]:,} -> {totals[1]:,}; "
          f"CPU {totals[2]:.1f} s -> {totals[3]:.1f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
