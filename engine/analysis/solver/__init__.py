"""Par: the fewest turns that finish a level or the campaign under its fated dice (DESIGN: Par).

Under fated dice the game is deterministic given the player's actions (every
chance point is answered from the card's own stream), so par is a shortest-path
problem over engine states, searched with A* (best-first on ``turn + h``).
``docs/solver.md`` gives the argument; the package reads in this order:

* ``budget``    -- :class:`Budget` (what a verdict may cost) and :class:`Deadline` (the one clock every
  phase of a solve asks).
* ``result``    -- the verdicts (``solved``, ``unsolvable``, ``unknown``), :class:`SolveResult`, :class:`Progress`.
* ``par``       -- :func:`solve_level`, :func:`solve_campaign`, :func:`solve_diagnostics`: set a search up,
  run it, turn what it found into a verdict with a witness replay.
* ``search``    -- the A* loop itself (:class:`~.search.Search`).
* ``bounds``    -- the heuristics: :class:`~.bounds.Relaxation` (an admissible lower bound on the turns
  left, from the level graph; ``potions`` is its part that counts what potions of teleportation and
  paralysis may gain, ``relaxed`` the searches of the relaxed level graph it shares) and
  :class:`~.ceiling.HealthCeiling` (an upper bound on the health a state can finish with, for the
  health tiebreak).
* ``packing``   -- what a stored state is reduced to: its signature (the engine's ``key()`` without
  what dominance compares) and the levels left behind for good, whose faces are reset.
* ``dominance`` -- the transposition table with dominance pruning (:class:`~.dominance.Fronts`).
* ``dive``      -- when the search stops with no finish: a look for any finish (greedy playouts, the
  ``wary`` policy's playouts -- routed by what fights cost under the fated dice --, then weighted A*) that bounds par from above (an ``unknown`` verdict's ``found``), proving it when it meets
  the floor the search left (``turns_at_least``).
* ``explain``   -- why there is no finish: a static proof from the level graph, or the reason an
  exhausted search gives (the blocking fight, the unmet goal, death).

Verdicts are honest: ``solved`` comes with a witness replay that
:func:`~cardrogue.engine.records.replay.verify_replay` accepts; ``unsolvable`` only from a static
proof (the level graph) or an exhausted search; ``unknown`` when the budget runs out, with par bounded
from below (and from above when a finish was found: its replay verified too).
"""

from .budget import Budget, Deadline
from .par import solve_campaign, solve_diagnostics, solve_level
from .result import QUICKER_TO_SOLVE, RAISE_THE_BUDGET, SOLVED, UNKNOWN, UNSOLVABLE, Progress, SolveResult

__all__ = ["QUICKER_TO_SOLVE", "RAISE_THE_BUDGET", "SOLVED", "UNKNOWN", "UNSOLVABLE", "Budget", "Deadline", "Progress",
           "SolveResult", "solve_campaign", "solve_diagnostics", "solve_level"]
