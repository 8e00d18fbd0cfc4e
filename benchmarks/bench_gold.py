"""The gold count and the purse test (docs/solver.md, *Gold*) on generated maps with buy goals.

For every map of ``gen.mixed_campaign_text`` (mixes, sizes, seeds as given) that holds a buy goal: the
static count's verdict (``GoldCount.proof``: unsolvable at once, or nothing to say), then the search
from the first level twice, as ``cardrogue solve`` runs it but without the static proofs -- with the
purse test (states whose gold can no longer pay the buy goals ahead are cut) and without it -- each
with the same state budget and no clock. Prints per map the verdicts, par (turns/health), the states
expanded and the CPU time (``time.process_time``), and flags any difference in verdict, par or witness
(the test must change none of them) and any map the count calls unsolvable that a search solves.

Run ``python benchmarks/bench_gold.py [--mixes shops,all] [--sizes 3,4,6] [--seeds 0-5] [--states 200000]
[--only-proven]``.
"""

from __future__ import annotations

import argparse
import sys
import time

from gen import MIXES, mixed_campaign_text

from cardrogue.engine.analysis.gold import GoldCount, has_buy_goals
from cardrogue.engine.analysis.solver import SOLVED, UNSOLVABLE, Budget
from cardrogue.engine.analysis.solver.search import Search
from cardrogue.engine.format.loader import load_campaign_text


def run(text: str, states: int, gold: bool) -> tuple[str, int | None, int | None, int, float, tuple, int]:
    """One search on the campaign loaded afresh (no cache of the other run's: the engine's tables and
    the bound's caches hang on the campaign)."""
    campaign = load_campaign_text(text).campaign
    search = Search(campaign, 0, True, Budget(max_states=states, max_seconds=3600.0), gold=gold)
    start = time.process_time()
    verdict, node, turns, health, _ = search.run()
    cpu = time.process_time() - start
    actions = tuple(search.actions(node)) if verdict == SOLVED else ()
    return verdict, turns, health, search.expanded, cpu, actions, search.purse_cuts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mixes", default="shops,all")
    parser.add_argument("--sizes", default="3,4,6")
    parser.add_argument("--seeds", default="0-5", help="a range FIRST-LAST")
    parser.add_argument("--states", type=int, default=200_000, help="states expanded per search (default 200,000)")
    parser.add_argument("--only-proven", action="store_true", help="only the maps the count proves unsolvable")
    args = parser.parse_args()
    first, _, last = args.seeds.partition("-")
    seeds = range(int(first), int(last or first) + 1)
    problems, rows = [], []
    print(f"{'map':<44} {'count':<10} {'without the purse test':<36} {'with it':<36} cuts")
    for mix in args.mixes.split(","):
        for size in map(int, args.sizes.split(",")):
            for seed in seeds:
                levels = 2 + seed % 2 if "ladders" in MIXES[mix] else 1
                name = f"mixed_campaign_text({levels}, {size}, {seed}, {mix!r})"
                text = mixed_campaign_text(levels, size, seed, mix)
                campaign = load_campaign_text(text).campaign
                if not has_buy_goals(campaign):
                    continue
                proof = GoldCount(campaign).proof()
                if args.only_proven and not proof:
                    continue
                before = run(text, args.states, False)
                after = run(text, args.states, True)
                rows.append((before, after, proof))

                def text(r):
                    par = f" {r[1]}/{r[2]}" if r[0] == SOLVED else ""
                    return f"{r[0]}{par} {r[3]:,} st {r[4]:.2f} s"

                print(f"{name:<44} {'unsolvable' if proof else '-':<10} {text(before):<36} {text(after):<36} {after[6]:,}",
                      flush=True)
                if before[0] != "unknown" and after[0] != "unknown" and before[:3] != after[:3]:
                    problems.append(f"{name}: {before[:3]} without the test, {after[:3]} with it")
                elif before[0] == after[0] == SOLVED and before[5] != after[5]:
                    problems.append(f"{name}: the witness differs")
                if proof and SOLVED in (before[0], after[0]):
                    problems.append(f"{name}: the count says unsolvable ({proof[0]}), a search solves it")
    for label, k in (("without", 0), ("with", 1)):
        verdicts = [r[k][0] for r in rows]
        print(f"{label} the purse test: {verdicts.count(SOLVED)} solved, {verdicts.count(UNSOLVABLE)} unsolvable, "
              f"{verdicts.count('unknown')} unknown; {sum(r[k][3] for r in rows):,} states, "
              f"{sum(r[k][4] for r in rows):.1f} s CPU")
    print(f"the count: {sum(1 for r in rows if r[2])} of {len(rows)} maps with buy goals unsolvable at once")
    print(f"Problems ({len(problems)})")
    for p in problems:
        print("  " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
