"""Where the turns bound is loose on a generated map: along a finishing run, the bound at each state against the
turns that run still takes, and at the states with the largest gap what the potion part reads.

Run ``python benchmarks/bound_gap.py SEED [STATES] [SIZE]``: solves the open map of ``benchmarks/gen.py``
(``campaign_text(1, SIZE, seed=SEED)``, 8 by default) with a budget of STATES expanded states (default 3,000, no
clock); its witness, or when the verdict is ``unknown`` the run the look found (``found``), is walked action by
action printing ``turn``, the turns the run still takes, the bound (``relaxation(...).bound``) and the gap. A gap
is slack or a shorter line the run missed: the run is not proven par. Then, at the first state of the largest gap,
the allowance of fights after moving beside an enemy met before (``A``, ``c``: docs/solver.md, *Potions of
teleportation alone*, *With potions*) and the potion bound ``B(x)`` for ``x`` = 0 to ``A`` half-turns more: the
bound is the least ``T >= B(min(A, max(0, T + c)))``, so the row where ``B(x)`` falls below the turns left shows how
many of those half-turns the bound must rule out to be exact there. State counts only; the load of the machine does
not change them.
"""

from __future__ import annotations

import sys

from gen import campaign_text

from cardrogue.engine.analysis.solver import Budget, solve_campaign
from cardrogue.engine.analysis.solver.bounds import relaxation
from cardrogue.engine.chance.resolvers import FatedResolver
from cardrogue.engine.format.loader import load_campaign_text
from cardrogue.engine.rules.state import DONE, MOVING, GameState

NO_CLOCK = 3600


def walk(seed: int, states: int, size: int = 8) -> tuple[object, object, list[tuple[int, int, float, str]], list]:
    """(the campaign, the solve's result, per action of the run (turn, turns left, bound, action), the states before
    each)."""
    campaign = load_campaign_text(campaign_text(1, size, seed=seed)).campaign
    r = solve_campaign(campaign, Budget(max_states=states, max_seconds=NO_CLOCK), per_level=False)
    run = r if r.verdict == "solved" else r.found
    rows, states_seen = [], []
    if run is None:
        return campaign, r, rows, states_seen
    s = GameState.new(campaign, log=False)
    resolver = FatedResolver(campaign)
    s.resolve(resolver)
    relax = relaxation(campaign, s.d)
    for action in run.actions:
        rows.append((s.turn, run.turns - s.turn, relax.bound(s, True), action))
        states_seen.append(s.clone())
        s.step(action, resolver)
    return campaign, r, rows, states_seen


def potion_part(relax, s: GameState):
    """The potion part of the bound at ``s``: ``(b, A, c, steps, potions)``, ``b(x)`` the potion bound ``B(x)`` with
    an allowance of ``x`` gains (paced levels only), or why there is none (a line of text)."""
    li = s.level
    if not relax.paced or not relax.items or relax._met_foes[li] is None:
        return "(no allowance on this level: not paced, no potions counted or no enemy to meet)"
    mask = relax.mask(s)
    i = s.pos - s.d.level_range[li][0]
    r0, k0 = relax.remaining(s)
    h0 = r0 + k0 if r0 + k0 < 2 else 2
    k0 = 0 if h0 == 0 and (s.phase == DONE or s.phase == MOVING) else 1
    potions = relax.potions(s)
    if not (potions[0] or potions[1] or potions[3]):
        return "(no potion left to use: the bound without potions, discounted beside the enemies met)"
    routes = relax.routes(li, mask, i, True)
    blocked = relax.landing_blocked(s)
    if relax.para_total:
        most, c = relax._met_allowance(s, li, potions, k0, mask, i, h0)
        steps = []
        def b(x):
            return relax._with_potions(li, mask, i, h0 + x, k0, True, potions, routes, None, blocked,
                                       x if relax.tele_total else 0)
    else:
        most, c, *steps = relax._tele_allowance(s, li, potions, k0, mask, i, h0)
        def b(x):
            return relax._with_potions(li, mask, i, h0, k0, True, potions, routes, None, blocked, x)
    return b, most, c, steps, potions


def allowance(campaign, s: GameState) -> list[str]:
    """What the potion part reads at ``s``: the allowance (A, c) and B(x) for x = 0..A (paced levels only)."""
    relax = relaxation(campaign, s.d)
    part = potion_part(relax, s)
    if isinstance(part, str):
        return [part]
    b, most, c, steps, potions = part
    li = s.level
    out = [f"potions (teleportation at hand, paralysis at hand, enemies met, on cells) = {potions}",
           f"allowance A = {most}, c = {c}; enemies (alive, met so now) = {relax._met_now(s, li)}"]
    if relax.tele_total and not relax.para_total and steps:
        if steps[0][0] < 0:
            out.append(f"  x per turns that may gain = {steps[0][1:]} (*What a potion of teleportation is used for*: "
                       f"the bound is the least T >= B(x(T + c)))")
        else:
            out.append(f"  A_n per n potions drunk in a fight = {steps[0]} (the bound: the least T >= B(x(T)), x(T) = "
                       f"max over n of min(A_n, T + c - n))")
    out += [f"  B({x}) = {b(x)}" for x in range(most + 1)]
    return out


def main() -> int:
    try:
        seed = int(sys.argv[1])
        states = int(sys.argv[2]) if len(sys.argv) > 2 else 3_000
        size = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    except (IndexError, ValueError):
        print("usage: python benchmarks/bound_gap.py SEED [STATES] [SIZE]  (whole numbers)", file=sys.stderr)
        return 2
    campaign, r, rows, seen = walk(seed, states, size)
    print(f"{size}x{size} seed {seed}: {r.verdict}, turns {r.turns}, at least {r.turns_at_least}, "
          f"run found {r.found.turns if r.found else None}, {r.states_expanded} states")
    if not rows:
        return 1
    for turn, left, bound, action in rows:
        print(f"turn {turn:3}  left {left:3}  bound {bound:4}  gap {left - bound:3}  {action}")
    worst = max(range(len(rows)), key=lambda k: (rows[k][1] - rows[k][2], -k))
    turn, left, bound, action = rows[worst]
    print(f"\nlargest gap {left - bound} first before action {worst + 1} ({action}), turn {turn}:")
    for line in allowance(campaign, seen[worst]):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
