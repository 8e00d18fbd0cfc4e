"""How far the gains of the potions of teleportation still to be used hold a generated 8x8 map (issue 14).

Run ``python benchmarks/tele_gain_limit.py SEED MODE [STATES]``: solves the map of ``benchmarks/gen.py`` with a
budget of STATES expanded states (default 100,000, no clock) with the allowance of gains of *Potions of
teleportation alone* and *What a potion of teleportation is used for* (docs/solver.md) changed by MODE, and prints
the verdict, the expanded states and the least turns still open. Every mode but ``main`` and ``refit`` is UNSOUND:
an upper limit of what a count of where the potions are used could give, never a bound to ship.

- ``main``: the bound as it is;
- ``capK`` (``cap1``, ``cap2``, ...): every count of gains capped at K;
- ``crowd1``: a potion drunk in a fight leaves one enemy at most (``tele_crowd`` 1), the limit of a count of where
  the drinks' enemies stand that charges a second gain from one drink;
- ``nodrink``: a potion drunk in a fight leaves no enemy that gains (throws still move one each);
- ``nothrow``: a thrown potion moves no enemy that gains (drinks still leave ``tele_crowd`` each);
- ``both``: neither (what is left: the drinks outside a fight, at step 4, and the enemies met so now);
- ``refit`` (sound, tried and not kept): in ``use_gains`` a drink in a fight after moving leaves ``crowd - 1``
  enemies more (one of its enemies is the enemy met so that began the fight, counted already) unless a potion moved
  an enemy off its card, and a potion thrown at the last enemy of a fight after moving leaves none more.

State counts and CPU seconds (``time.process_time``); the load of the machine does not change the counts.
"""

from __future__ import annotations

import inspect
import sys
import textwrap
import time

from gen import campaign_text

from cardrogue.engine.analysis.solver import Budget, solve_campaign
from cardrogue.engine.analysis.solver import bounds as bounds_module
from cardrogue.engine.analysis.solver import drink as drink_module
from cardrogue.engine.format.loader import load_campaign_text

NO_CLOCK = 3600
MODES = ("main", "capK", "crowd1", "nodrink", "nothrow", "both", "refit")
_THROWN = "thrown = 1 if crowd else 0"
_REFIT = ("off = visitors or w or f\n"
          "                            most = met + left + crowd * e + (crowd if off else crowd - 1) * cd + thrown * f")


def _rewrite(uses: tuple, steps: tuple) -> None:
    """``use_gains`` and ``Relaxation._tele_steps`` with their source text changed by the ``(old, new)`` pairs."""
    for func, pairs, module, owner in ((drink_module.use_gains, uses, drink_module, None),
                                       (bounds_module.Relaxation._tele_steps, steps, bounds_module,
                                        bounds_module.Relaxation)):
        text = textwrap.dedent(inspect.getsource(func))
        for old, new in pairs:
            if old not in text:
                raise SystemExit(f"tele_gain_limit: the source of {func.__name__} changed: {old!r} not found")
            text = text.replace(old, new)
        space = dict(vars(module))
        exec(text, space)  # noqa: S102 (an experiment on the project's own source)
        if owner is None:
            bounds_module.use_gains = space[func.__name__]
        else:
            setattr(owner, func.__name__, space[func.__name__])
    drink_module._USES.clear()


def _cap(k: int) -> None:
    allowance = bounds_module.Relaxation._tele_allowance

    def capped(self, *args, **kwargs):
        out = allowance(self, *args, **kwargs)
        return (min(out[0], k), out[1]) + tuple(tuple(v if v < 0 else min(v, k) for v in t) for t in out[2:])

    bounds_module.Relaxation._tele_allowance = capped


def _crowd1() -> None:
    init = bounds_module.Relaxation.__init__

    def one(self, *args, **kwargs):
        init(self, *args, **kwargs)
        self._tele_crowd = [min(1, c) for c in self._tele_crowd]

    bounds_module.Relaxation.__init__ = one


def apply(mode: str) -> None:
    no_throw = ((_THROWN, "thrown = 0"),)
    no_drink_uses = (("crowd * (cd + e)", "0"), ("left = crowd if drinking == 2 else 0", "left = 0"))
    no_drink_steps = (("crowd * (n + pending)", "0"),)
    if mode == "main":
        return
    if mode.startswith("cap"):
        _cap(int(mode[3:]))
    elif mode == "crowd1":
        _crowd1()
    elif mode == "nothrow":
        _rewrite(no_throw, no_throw)
    elif mode == "nodrink":
        _rewrite(no_drink_uses, no_drink_steps)
    elif mode == "both":
        _rewrite(no_throw + no_drink_uses, no_throw + no_drink_steps)
    elif mode == "refit":
        _rewrite((("most = met + left + crowd * (cd + e) + thrown * (w + f)", _REFIT),), ())
    else:
        raise ValueError(mode)


def main() -> int:
    try:
        seed = int(sys.argv[1])
        mode = sys.argv[2]
        states = int(sys.argv[3]) if len(sys.argv) > 3 else 100_000
        if mode.startswith("cap"):
            int(mode[3:])
        elif mode not in MODES:
            raise ValueError(mode)
    except (IndexError, ValueError):
        print(f"usage: python benchmarks/tele_gain_limit.py SEED MODE [STATES]  (MODE one of {', '.join(MODES)};"
              " capK with K a whole number)", file=sys.stderr)
        return 2
    apply(mode)
    campaign = load_campaign_text(campaign_text(1, 8, seed=seed)).campaign
    t0 = time.process_time()
    r = solve_campaign(campaign, Budget(max_states=states, max_seconds=NO_CLOCK), per_level=False)
    print(f"seed {seed} {mode}: {r.verdict} turns={r.turns} expanded={r.states_expanded} "
          f"generated={r.states_generated} least-open={r.turns_at_least} cpu={time.process_time() - t0:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
