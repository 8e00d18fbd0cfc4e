"""Where the bound is loose at the states a search leaves open on a teleportation map (issue 14.1).

Run ``python benchmarks/tele_open.py SEED [STATES] [SAMPLE] [REF_STATES]``: searches the 8x8 map of
``benchmarks/gen.py`` for STATES expanded states (default 3,000), takes the open states at the least ``f``,
and for SAMPLE of them (default 20, spread over the turns) prints the turn, the bound ``h``, the potion bound
with no allowance ``B(0)``, the allowance (``A``, ``c``, the per-slot table), the least ``x`` with
``B(x) <= h``, what the state holds (potions at hand and on cells, enemies alive and met so), and the turns the
state still needs by an A* search of REF_STATES (default 20,000) from it (admissible bound: exact when it
finishes; ``>= n`` when it stops). State counts only; the load of the machine does not change them.
"""

from __future__ import annotations

import sys
from collections import Counter

from bound_gap import potion_part
from gen import campaign_text

from cardrogue.engine.analysis.solver import SOLVED, Budget
from cardrogue.engine.analysis.solver.bounds import relaxation
from cardrogue.engine.analysis.solver.packing import unpack
from cardrogue.engine.analysis.solver.search import Search
from cardrogue.engine.format.loader import load_campaign_text

NO_CLOCK = 3600


def parts(relax, s):
    """(b, A, c, steps, potions, (alive, met)) of the potion part at ``s``, ``b(x)`` = ``B(x)`` (None where off)."""
    part = potion_part(relax, s)
    return None if isinstance(part, str) else (*part, relax._met_now(s, s.level))


def reference(campaign, s, states):
    search = Search(campaign, 0, True, Budget(max_states=states, max_seconds=NO_CLOCK))
    search.root = s.clone()
    verdict, _, turns, _, _ = search.run()
    if verdict == SOLVED:
        return f"{turns - s.turn}"
    return f">={search.turns_at_least - s.turn}" if search.turns_at_least is not None else "?"


def main() -> int:
    try:
        seed = int(sys.argv[1])
        states = int(sys.argv[2]) if len(sys.argv) > 2 else 3_000
        sample = int(sys.argv[3]) if len(sys.argv) > 3 else 20
        ref = int(sys.argv[4]) if len(sys.argv) > 4 else 20_000
    except (IndexError, ValueError):
        print("usage: python benchmarks/tele_open.py SEED [STATES] [SAMPLE] [REF_STATES]  (whole numbers)", file=sys.stderr)
        return 2
    campaign = load_campaign_text(campaign_text(1, 8, seed=seed)).campaign
    search = Search(campaign, 0, True, Budget(max_states=states, max_seconds=NO_CLOCK))
    search.run()
    heap = [e for e in search.heap if e[5][4]]
    low = min(e[0] for e in heap)
    at = [unpack(e[4], search.d) for e in heap if e[0] == low]
    print(f"seed {seed}: {states} states, least f {low}, {len(at)} open there, by turn "
          f"{sorted(Counter(s.turn for s in at).items())}")
    at.sort(key=lambda s: (s.turn, s.pos))
    step = max(1, len(at) // sample)
    relax = relaxation(campaign, search.d)
    why = Counter()
    for s in at[::step][:sample]:
        h = relax.bound(s, True)
        p = parts(relax, s)
        x, y = s.d.pos_of[s.pos]
        head = f"turn {s.turn:2} at {x},{y} {s.phase:>8} h {h:3}"
        if p is None:
            print(head, "(no allowance)", "ref", reference(campaign, s, ref))
            continue
        b, most, c, steps, potions, met = p
        b0 = b(0)
        need = next((xx for xx in range(most + 1) if b(xx) <= h), None)
        why["B(0) > h" if b0 > h else "B(0) = h"] += 1
        table = steps[0][1:] if steps else ()
        print(head, f"B(0) {b0:3} A {most} c {c:3} x<= {need} pots(hand {potions[0]}, cells {len(potions[3])}) "
              f"alive/met {met} table {table} ref {reference(campaign, s, ref)}")
    print(dict(why))
    return 0


if __name__ == "__main__":
    sys.exit(main())
