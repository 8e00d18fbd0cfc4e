"""A witness without idle flips: the run the search found, with every flip that changes nothing dropped.

Lines that differ only in the tiles they turned up are merged by the dominance (docs/solver.md,
*Transpositions and dominance*: a state with more face up dominates), so the line kept may flip a tile
it never uses: "flip S" before "flip E" in a turn that flips anyway costs no move, and the run is par
all the same. Shown to an author stepping through the solution it is noise. Each flip is tried without:
the rest of the run is replayed under the same fated dice (each card's own stream, DESIGN *Fated
dice*, so dropping a flip moves no other card's rolls), and the flip is dropped when every later
action is still legal and the run ends as before — the same outcome, level, turn and health. The
result is re-simulated by the caller like any witness.
"""

from __future__ import annotations

from ...chance.resolvers import FatedResolver
from ...model.campaign import Campaign
from ...rules.actions import Action, ActionError
from ...rules.state import GameState

MOST_ACTIONS = 400  # a longer witness is kept as found: the pass costs one replay of the rest per flip


def _end(state: GameState) -> tuple:
    return state.outcome, state.level, state.score, state.phase


def _replay(state: GameState, actions: list[Action], resolver: FatedResolver) -> tuple | None:
    """Where ``actions`` played from ``state`` (which is changed) end, or None if one is not legal."""
    try:
        for action in actions:
            if state.is_terminal():
                return None
            state.step(action, resolver)
    except ActionError:
        return None
    return _end(state)


def idle_flips_dropped(campaign: Campaign, level: int, actions: list[str]) -> list[str]:
    """``actions`` (a run from ``level`` under the fated dice) without the flips it can do without."""
    if len(actions) > MOST_ACTIONS or not any(a.startswith("flip") for a in actions):
        return list(actions)
    resolver = FatedResolver(campaign)
    start = GameState.new(campaign, level, log=False)
    start.resolve(resolver)
    parsed = [Action.parse(a) for a in actions]
    goal = _replay(start.clone(), parsed, resolver)
    if goal is None:  # not a run from here: left to the caller's re-simulation to refuse
        return list(actions)
    kept: list[int] = []
    state = start
    rest = list(range(len(parsed)))
    while rest:
        i, rest = rest[0], rest[1:]
        if parsed[i].verb == "flip" and _replay(state.clone(), [parsed[j] for j in rest], resolver) == goal:
            continue  # idle: the run ends the same without it
        state.step(parsed[i], resolver)
        kept.append(i)
    return [actions[i] for i in kept]
