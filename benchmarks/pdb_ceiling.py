"""How much a pattern-database bound could lift at the states a search leaves open (issue 14, the ceiling).

Run ``python benchmarks/pdb_ceiling.py SEED [STATES] [SAMPLE] [popped]``: searches the 8x8 map of
``benchmarks/gen.py`` for STATES expanded states (default 50,000, no clock), takes the states open at the least ``f``
(the layer not yet proved) -- with ``popped``, the states the search popped (expanded) at that ``f`` along the whole
run, every k-th -- and for SAMPLE of them (default 40, spread over the turns) prints the present bound ``h`` against an
UPPER LIMIT of what any pattern database over the key (hero's tile, potions held and still on cells, what is left
of the turn, the face-down state of the cells of a pattern ``P``) could give there, for patterns of several sizes.

A pattern database drops the enemies (and health, gold): its abstract game has no enemy, and every cell outside
``P`` reads as face up (some real state of the same key has it so). Whatever abstract moves it adds for the
potions and the gains of fights after moving, they only shorten an abstract walk, and the plain walk is one: so
its value is at most the turns of the best walk in the abstraction with no potion used and no gain, where a turn
flips only at its start (step 1, which forfeits the double move: one move after) and otherwise moves twice onto
tiles face up, a tile of ``P`` face down now is entered only as that one move after the flip, and a move onto a
potion still on its cell (in the key) ends the turn's moves (docs/rules.md, *Moving twice*). That is a
Dijkstra over (cell, half-turns used) here, ``UB_P``; ``UB_P <= h`` means no pattern database over ``P`` lifts the
state. Patterns: none (the brief's key: tile and potions alone), the ``p`` cells nearest the way out, and every
cell (the full mask: a per-state search rather than a table).
State counts only; the load of the machine does not change them.
"""

from __future__ import annotations

import heapq
import sys
from collections import Counter

from gen import campaign_text

from cardrogue.engine.analysis.solver import Budget
from cardrogue.engine.analysis.solver.bounds import relaxation
from cardrogue.engine.analysis.solver import search as search_module
from cardrogue.engine.analysis.solver.packing import unpack
from cardrogue.engine.analysis.solver.search import Search
from cardrogue.engine.format.loader import load_campaign_text
from cardrogue.engine.rules.state import CHOOSE_TELEPORT, COMBAT, DONE, MOVING

NO_CLOCK = 3600
SIZES = (0, 8, 16, 24, 32, None)  # None: every cell
CORR = (8, 12, 16, 24)
MODEL = (0, 8, ("corr", 12), None)


def walk_turns(adj: tuple, down: list, start: int, used: int, exits: set, stops: set) -> float:
    """Turns after this one of the best plain walk from ``start`` with ``used`` half-turns of this turn spent
    (2: none left), flips only at a turn's start (then one move), face-down cells entered only so; a move onto a
    cell of ``stops`` (a potion still on it: picking it up ends the moves) leaves no move of the turn."""
    # state (turns after now, half-turns used this turn, cell); used 0 = may flip, 1 = one move left
    best = {}
    heap = [(0, used, start)]
    while heap:
        t, u, c = heapq.heappop(heap)
        if c in exits:
            return t
        if best.get((c, u), 99) <= t:
            continue
        best[(c, u)] = t
        if u < 2:
            for j in adj[c]:
                if not down[j]:
                    heapq.heappush(heap, (t, 2 if j in stops else u + 1, j))
                elif u == 0:
                    heapq.heappush(heap, (t, 2, j))  # flip at step 1, then the one move onto it
        heapq.heappush(heap, (t + 1, 0, c))  # end the turn
    return float("inf")


def model_turns(adj: tuple, flips: tuple, down: int, start: int, used: int, exits: set, pots: dict, held: int,
                credits: int, crowd: int, blocked: int, limit: int, cap: int = 300_000):
    """The turns after this one in the enemy-free abstract game a pattern database would tabulate (its value), or
    ``limit + 1`` when none finishes within ``limit``; None past ``cap`` abstract states. ``down``: face-down cells
    (bits; the pattern's only), ``pots``: cell -> bit of the potions of teleportation still on cells (the key),
    ``credits``: gains allowed now (enemies met so now, moved, a fight after moving he is in: the key must hold
    their count, else the table reads the most there can be). Moves as
    :func:`walk_turns`; and a gain (after a move, a credit spent: a fight after moving whose flips are entered next
    turn) flips every neighbour and ends the turn; a potion held is drunk (lands on any cell face up and not
    ``blocked``, ends the turn, and -- enemies dropped, any drink may be in a fight -- adds ``crowd`` credits; a landing on the
    way out finishes in this turn; after a move with a credit the fight's flips may come first) or
    thrown (one credit, the turn goes on). Generous to the hero wherever the enemies would decide."""
    left0 = 0
    for b in pots.values():
        left0 |= b
    seen = set()
    heap = [(0, used, start, down, left0, held, credits)]
    n = 0
    while heap:
        t, u, c, dn, left, hd, cr = heapq.heappop(heap)
        if t > limit:
            return limit + 1
        if c in exits:
            return t
        key = (t, u, c, dn, left, hd, cr)
        if key in seen:
            continue
        seen.add(key)
        n += 1
        if n > cap:
            return None
        push = heapq.heappush
        if u < 2:
            for j in adj[c]:
                if not (dn >> j) & 1:
                    b = pots.get(j, 0)
                    if b and left & b:
                        push(heap, (t, 2, j, dn, left & ~b, hd + 1, cr))
                    else:
                        push(heap, (t, u + 1, j, dn, left, hd, cr))
                elif u == 0:
                    b = pots.get(j, 0)
                    ndn = dn & ~flips[c]
                    push(heap, (t, 2, j, ndn, left & ~b, hd + (1 if b and left & b else 0), cr))
            if u == 0:
                push(heap, (t, 1, c, dn & ~flips[c], left, hd, cr))  # flip at step 1: one move left
        if u >= 1 and cr and dn & flips[c]:
            push(heap, (t + 1, 0, c, dn & ~flips[c], left, hd, cr - 1))  # a gain: flips in a fight after moving
        if hd:
            push(heap, (t, u, c, dn, left, hd - 1, cr + 1))  # thrown
            # drunk: from here, or (after a move, an enemy met so beside him) after the fight's flips
            for dd in ((dn, dn & ~flips[c]) if u >= 1 and cr else (dn,)):
                for j in range(len(adj)):
                    if not (dd >> j) & 1 and not (blocked >> j) & 1:
                        push(heap, (t if j in exits else t + 1, 0, j, dd, left, hd - 1, cr + crowd))
        push(heap, (t + 1, 0, c, dn, left, hd, cr))
    return limit + 1


def name(p) -> str:
    return "all" if p is None else (f"walk{p[1]}" if isinstance(p, tuple) else f"exit{p}")


def main() -> int:
    try:
        seed = int(sys.argv[1])
        states = int(sys.argv[2]) if len(sys.argv) > 2 else 50_000
        sample = int(sys.argv[3]) if len(sys.argv) > 3 else 40
        census = len(sys.argv) > 4 and sys.argv[4] == "popped"
        if len(sys.argv) > 4 and not census:
            raise ValueError(sys.argv[4])
    except (IndexError, ValueError):
        print("usage: python benchmarks/pdb_ceiling.py SEED [STATES] [SAMPLE] [popped]  (whole numbers)", file=sys.stderr)
        return 2
    campaign = load_campaign_text(campaign_text(1, 8, seed=seed)).campaign
    search = Search(campaign, 0, True, Budget(max_states=states, max_seconds=NO_CLOCK))
    popped = []  # every state the search pops (packed), in order: the census

    def watched(packed, d):
        popped.append(packed)
        return unpack(packed, d)

    search_module.unpack = watched
    verdict = search.run()[0]
    search_module.unpack = unpack
    heap = [e for e in search.heap if e[5][4]]
    low = min(e[0] for e in heap)
    relax = relaxation(campaign, search.d)
    if census:
        # the states popped at f = the least f still open at the end (the layer not proved), every k-th of them
        at = []
        for packed in popped[::max(1, len(popped) // (sample * 40))]:
            s = unpack(packed, search.d)
            if s.turn + relax.bound(s, True) == low:
                at.append(s)
        print(f"seed {seed}: {verdict} after {states} states; {len(popped)} popped, least f open {low}; of every "
              f"{max(1, len(popped) // (sample * 40))}-th popped, {len(at)} at f = {low}, by turn "
              f"{sorted(Counter(s.turn for s in at).items())}")
    else:
        at = [unpack(e[4], search.d) for e in heap if e[0] == low]
        print(f"seed {seed}: {verdict} after {states} states, least f {low}, {len(at)} open there, by turn "
              f"{sorted(Counter(s.turn for s in at).items())}")
        at.sort(key=lambda s: (s.turn, s.pos))
    step = max(1, len(at) // sample)
    d = search.d
    lo, hi = d.level_range[0]
    adj = tuple(tuple(j - lo for j in d.adjacent[i] if j >= 0) for i in range(lo, hi))
    exits = {w - lo for w, _ in relax.ways[0]}
    dist = {}
    for w in exits:  # static steps to the way out, for the patterns nearest it
        dd = relax.dist[0][[w2 - lo for w2, _ in relax.ways[0]].index(w)]
        for i in range(hi - lo):
            dist[i] = min(dist.get(i, 99), dd[lo + i])
    order = sorted(range(hi - lo), key=lambda i: (dist[i], i))
    patterns = {p: (set(order) if p is None else set(order[:p])) for p in SIZES}
    lifted = Counter()
    models = {p: [0, 0, 0] for p in MODEL}
    flipbits = tuple(sum(1 << (j - lo) for j in d.flip_to[c] if j >= 0) for c in range(lo, hi))
    n = 0
    gaps = Counter()
    for s in at[::step][:sample]:
        h = relax.bound(s, True)
        mask = relax.mask(s)
        r0, k0 = relax.remaining(s)
        h0 = min(2, r0 + k0)
        if h0 == 0 and not (s.phase == DONE or s.phase == MOVING):
            h0 = 0
        used = 2 - h0
        i = s.pos - lo
        stops = {relax.pots[0][k][0] for k in relax.potions(s)[3]}
        row = []
        # per state: the p cells nearest the hero's walk to the way out (least dist(hero, c) + dist(c, way out)),
        # an upper limit of any fixed pattern of p cells, or a family of them max'ed
        here = [0] * (hi - lo)
        seen, frontier = {i}, [i]
        while frontier:
            nxt = []
            for c in frontier:
                for j in adj[c]:
                    if j not in seen:
                        seen.add(j)
                        here[j] = here[c] + 1
                        nxt.append(j)
            frontier = nxt
        near = sorted(range(hi - lo), key=lambda c: (here[c] + dist[c] if c in seen else 999, dist[c], c))
        per_state = {("corr", p): set(near[:p]) for p in CORR}
        for p, cells in list(patterns.items()) + list(per_state.items()):
            down = [1 if (mask[c] and c in cells) else 0 for c in range(hi - lo)]
            ub = walk_turns(adj, down, i, used, exits, stops)
            row.append(ub)
            if ub > h:
                lifted[p] += 1
            gaps[(p, ub - h)] += 1
        n += 1
        held, _, _, on = relax.potions(s)
        pots = {relax.pots[0][k][0]: 1 << kk for kk, k in enumerate(on)}
        alive, met = relax._met_now(s, 0)
        credits = (met + len(s.visitors) + (1 if s.moved and s.phase == COMBAT else 0)
                   + (1 if s.phase == CHOOSE_TELEPORT and s.subject >= 0 else 0))  # (a thrown one: moved anywhere)
        nb = hi - lo
        blk = relax.landing_blocked(s)
        blocked = sum(1 << c for c in range(nb) if (blk >> (8 * (nb - 1 - c))) & 1)
        mrow = []
        for p in MODEL:
            cells = patterns[p] if not isinstance(p, tuple) else per_state[p]
            dn = sum(1 << c for c in range(nb) if mask[c] and c in cells)
            m = model_turns(adj, flipbits, dn, i, used, exits, pots, held, credits, relax._tele_crowd[0], 0, h)
            mrow.append(m)
            models[p][0 if m is None else (1 if m > h else 2)] += 1
        x, y = d.pos_of[s.pos]
        print(f"turn {s.turn:2} at {x},{y} {s.phase:>8} h {h:3}  UB by pattern size "
              + "  ".join(f"{name(p)}:{v}" for p, v in zip(list(patterns) + [("corr", q) for q in CORR], row))
              + f"  | held {held} cells {len(on)} credits {credits}  model " + "  ".join(
                  f"{name(p)}:{'cap' if v is None else ('>h' if v > h else v)}" for p, v in zip(MODEL, mrow)))
    print(f"states sampled {n}; UB_P > h (a pattern database over P could lift it at most there):")
    for p in list(patterns) + [("corr", q) for q in CORR]:
        print(f"  pattern {name(p)}: {lifted[p]} of {n};  UB - h: "
              f"{sorted((g, c) for (q, g), c in gaps.items() if q == p)}")
    print("the enemy-free abstract game's value (model_turns) above h (lifted) / not / past the cap:")
    for p in MODEL:
        print(f"  pattern {name(p)}: lifted {models[p][1]} of {n}, not {models[p][2]}, cap {models[p][0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
