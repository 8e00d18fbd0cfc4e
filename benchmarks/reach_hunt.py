"""Hunt for a state outside the static reach (solver/reach.py): random play on generated maps.

For each generated map, the fixed point of every level (from its starting tile, and the first level's
also from the hero's own tile) must hold every state random play meets: the hero's tile is one he may
stand on (or a way out he is entering), every card face up or cleared is one the fixed point reveals,
every cleared cell is one it can clear, every shop bought from one he may stand on. A state outside
it is a hole in the proof; the script prints it and exits 1.

Also lists the maps whose campaign ``reach_proof`` refuses, with random play's wins on them (must be
none). Random play: random legal actions (a move or a flip preferred one time in two), random dice.

Run ``python benchmarks/reach_hunt.py [--sizes 3,4,6,10] [--seeds 30] [--runs 40]``.
"""

from __future__ import annotations

import argparse
import random
import sys

from gen import MIXES, mixed_campaign_text

from bench_mix import levels_for
from cardrogue.engine.analysis.solver.reach import level_reach, reach_proof
from cardrogue.engine.chance.resolvers import RandomResolver
from cardrogue.engine.format.loader import load_campaign_text
from cardrogue.engine.rules.mobility import wall_crossings
from cardrogue.engine.rules.state import GameState
from cardrogue.engine.rules.tables import CLEARED, DOWN


def reaches(campaign, root):
    d = root.d
    crossings = wall_crossings(campaign)
    tele, reloc = "teleport" in crossings, "adjacent" in crossings
    reach = {}
    for li in range(len(campaign.levels)):
        entries = {d.level_start[li]} | ({root.pos} if li == 0 else set())
        reach[li] = level_reach(d, li, entries, tele, reloc)
    return reach


def holes_in(s, reach) -> list[str]:
    """Where state ``s`` leaves the fixed point of its level (none: it holds)."""
    d, r, holes = s.d, reach[s.level], []
    if s.pos not in r.stand and s.pos not in r.ways:
        holes.append(f"stands on {d.pos_of[s.pos]} of level {s.level}")
    lo, hi = d.level_range[s.level]
    for j in range(lo, hi):
        if s.faces[j] != DOWN and j not in r.revealed:
            holes.append(f"{d.pos_of[j]} of level {s.level} face up")
        if s.faces[j] == CLEARED and not r.clearable(d, j):
            holes.append(f"{d.pos_of[j]} of level {s.level} cleared")
    for shop, _ in s.bought:
        if d.level_of[shop] == s.level and shop not in r.stand:
            holes.append(f"bought at {d.pos_of[shop]} of level {s.level}")
    return holes


def breadth(campaign, limit: int) -> tuple[int, list[str], int]:
    """(states checked, holes, wins) over the first ``limit`` states of a breadth-first walk, fated dice."""
    from collections import deque

    from cardrogue.engine.chance.resolvers import FatedResolver

    resolver = FatedResolver(campaign)
    root = GameState.new(campaign, 0, log=False)
    root.resolve(resolver)
    reach = reaches(campaign, root)
    seen, queue, wins, checked = {root.key()}, deque([root]), 0, 0
    while queue and checked < limit:
        s = queue.popleft()
        checked += 1
        holes = holes_in(s, reach)
        if holes:
            return checked, holes, wins
        if s.outcome is not None:
            wins += s.outcome == "won"
            continue
        for a in s.legal_actions():
            c = s.clone()
            c.step(a, resolver)
            k = c.key()
            if k not in seen:
                seen.add(k)
                queue.append(c)
    return checked, [], wins


def hunt(campaign, runs: int, steps: int, rng: random.Random) -> tuple[int, list[str], int]:
    """(states checked, holes found, wins) over ``runs`` random runs from level 0."""
    root = GameState.new(campaign, 0, log=False)
    reach = reaches(campaign, root)
    checked, holes, wins = 0, [], 0
    for run in range(runs):
        s = root.clone()
        resolver = RandomResolver(rng.randrange(1 << 30))
        s.resolve(resolver)
        for _ in range(steps):
            if s.outcome is not None:
                break
            checked += 1
            holes = holes_in(s, reach)
            if holes:
                return checked, holes, wins
            actions = s.legal_actions()
            if not actions:
                break
            near = [a for a in actions if a.verb in ("move", "flip", "teleport", "spell", "read", "drink")]
            a = rng.choice(near) if near and rng.random() < 0.5 else rng.choice(actions)
            s.step(a, resolver)
        if s.outcome == "won":
            wins += 1
    return checked, holes, wins


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="3,4,6,10")
    ap.add_argument("--mixes", default=",".join(MIXES))
    ap.add_argument("--seeds", type=int, default=30)
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--bfs", type=int, default=0, help="also walk this many states breadth-first per map")
    args = ap.parse_args()
    rng = random.Random(1)
    bad = 0
    total = proved = 0
    for size in map(int, args.sizes.split(",")):
        for mix in args.mixes.split(","):
            for seed in range(args.seeds):
                c = load_campaign_text(mixed_campaign_text(levels_for(mix, seed), size, seed, mix)).campaign
                checked, holes, wins = hunt(c, args.runs, args.steps, rng)
                total += checked
                if args.bfs and not holes:
                    checked, holes, won = breadth(c, args.bfs)
                    total += checked
                    wins += won
                root = GameState.new(c, 0, log=False)
                proof = reach_proof(c, root.d, root.pos, 0, True)
                if proof is not None:
                    proved += 1
                    print(f"{size}:{mix}:{seed} refused ({wins} random wins): {proof[0]}")
                    if wins:
                        bad += 1
                if holes:
                    bad += 1
                    print(f"{size}:{mix}:{seed} HOLE: {holes[0]}")
    print(f"{total:,} states checked, {proved} maps refused, {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
