"""What a count of where the enemies a potion of teleportation leaves stand could at most give on the generated 8x8 maps
whose only potions teleport (docs/solver.md, *Potions of teleportation alone*, and the paragraph after *Both kinds of
potion on a level*).

Run ``python benchmarks/tele_crowd_limit.py STATES SEED...``. For each seed, at the start: the bound, the allowance of
``_tele_allowance`` (``A``, ``c``, ``A_n`` per ``n`` potions drunk in a fight, and with none of the level's potions
picked up), the potion bound ``B(x)`` of the walks that pick up none (``only`` 0) and of the others (``only`` -2), each
term ``min(A_n, T + c - n)`` of ``x(T)`` at the bound ``T``, and the most gains ``x`` that would let the bound rise by
one turn (``B(x) > T``). Then a solve of STATES expanded states (no clock) three ways:

- ``main``: the bound as it is;
- ``alive`` (sound): ``tele_crowd`` read per state over the enemy cards still alive (a potion drunk in a fight leaves
  only enemies alive beside its tile; a slain enemy's card is replaced for good, SLAYING AN ENEMY);
- ``limit`` (UNSOUND, an experiment): every potion drunk in a fight counted as leaving one enemy, as a thrown one moves
  one (``tele_crowd`` = 1): the most any count of where the enemies a drink leaves stand could give, since such a
  count never goes below one gain per potion used in a fight.

State counts and CPU seconds (``time.process_time``); the load of the machine does not change the counts.
"""

from __future__ import annotations

import sys
import time

from gen import campaign_text

from cardrogue.engine.analysis.solver import Budget, solve_campaign
from cardrogue.engine.analysis.solver import bounds as bounds_module
from cardrogue.engine.analysis.solver.bounds import _gains, _gains_at
from cardrogue.engine.chance.resolvers import FatedResolver
from cardrogue.engine.format.loader import load_campaign_text
from cardrogue.engine.rules.tables import CLEARED
from cardrogue.engine.rules.state import GameState

NO_CLOCK = 3600
_ALLOWANCE = bounds_module.Relaxation._tele_allowance
_INIT = bounds_module.Relaxation.__init__


def _start(seed: int):
    campaign = load_campaign_text(campaign_text(1, 8, seed=seed)).campaign
    bounds_module._RELAX.clear()
    s = GameState.new(campaign, log=False)
    s.resolve(FatedResolver(campaign))
    return campaign, s, bounds_module.relaxation(campaign, s.d)


def terms(seed: int) -> list[str]:
    """The allowance at the start of the map and what one turn more would need."""
    campaign, s, relax = _start(seed)
    li = s.level
    mask = relax.mask(s)
    i = s.pos - s.d.level_range[li][0]
    h0, k0 = 2, 1  # the first turn, nothing done yet
    potions = relax.potions(s)
    routes = relax.routes(li, mask, i, True)
    blocked = relax.landing_blocked(s)
    bound = relax.bound(s, True)
    allow = relax._tele_allowance(s, li, potions, k0, mask, i, h0)
    most, c, steps = allow[0], allow[1], allow[2]
    out = [f"8x8:{seed:<3} root {bound}  potions {potions}  tele_crowd {relax._tele_crowd[li]}  A {most}  c {c}  "
           f"A_n {steps}" + (f"  A_n picking none up {allow[3]}" if len(allow) > 3 else "")]
    for only, per in ((0, allow[3]), (-2, steps)) if len(allow) > 3 else ((-1, steps),):
        b = [relax._with_potions(li, mask, i, h0, k0, True, potions, routes, None, blocked, x, only)
             for x in range(per[-1] + 1)]
        need = max((y for y in range(len(b)) if b[y] > bound), default=None)
        if per[0] < 0:  # a table per turns that may gain (*What a potion of teleportation is used for*)
            x = _gains_at(per, bound + c)
            each = f"the table at {bound + c} turns that may gain"
        else:
            x = _gains(per, bound + c)
            each = ", ".join(f"n={n}: {min(a, bound + c - n)}" for n, a in enumerate(per))
        out.append(f"    only {only:2}: B(x) {b}; at T = {bound}: x(T) = {x} ({each}); one turn more needs x <= {need}")
    return out


def _alive_allowance(self, s, li, *args, **kwargs):
    """``_tele_allowance`` with ``tele_crowd`` over the enemy cards alive in ``s`` (sound)."""
    lo, hi = self.d.level_range[li]
    keep = self._tele_crowd[li]
    faces = s.faces
    crowd = max((sum(1 for e in self.d.enemy_near[j] if faces[e] != CLEARED) for j in range(lo, hi)), default=0)
    self._tele_crowd[li] = min(keep, crowd)
    try:
        return _ALLOWANCE(self, s, li, *args, **kwargs)
    finally:
        self._tele_crowd[li] = keep


def _limit_init(self, *args, **kwargs):
    """UNSOUND (an experiment): every potion drunk in a fight leaves one enemy at most."""
    _INIT(self, *args, **kwargs)
    self._tele_crowd = [min(1, crowd) for crowd in self._tele_crowd]


def solve(seed: int, states: int, mode: str) -> str:
    bounds_module.Relaxation._tele_allowance = _alive_allowance if mode == "alive" else _ALLOWANCE
    bounds_module.Relaxation.__init__ = _limit_init if mode == "limit" else _INIT
    try:
        campaign, s, relax = _start(seed)
        root = relax.bound(s, True)
        start = time.process_time()
        r = solve_campaign(campaign, Budget(max_states=states, max_seconds=NO_CLOCK), per_level=False)
        cpu = time.process_time() - start
    finally:
        bounds_module.Relaxation._tele_allowance = _ALLOWANCE
        bounds_module.Relaxation.__init__ = _INIT
        bounds_module._RELAX.clear()
    return (f"8x8:{seed:<3} {mode:6} root {root:3}  {r.verdict:8} turns={r.turns} at_least={r.turns_at_least} "
            f"found={r.found.turns if r.found else None} expanded={r.states_expanded} "
            f"generated={r.states_generated} cpu={cpu:.1f}")


def main() -> int:
    states = int(sys.argv[1])
    seeds = [int(a) for a in sys.argv[2:]]
    for seed in seeds:
        for line in terms(seed):
            print(line, flush=True)
    for seed in seeds:
        for mode in ("main", "alive", "limit"):
            print(solve(seed, states, mode), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
