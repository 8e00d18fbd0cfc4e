"""A level's par and its solution, step by step, for the map (no Textual here: :mod:`.solving` shows them).

:func:`solve` runs the engine's solver on one level; :func:`trace_steps` replays the
witness with :meth:`GameState.step` and :class:`FatedResolver` and records, after each
action, where the hero stands, the turn, the health and which face-down cards of the
level have been flipped so far.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardrogue.engine.model.campaign import DIRECTION_INDEX, Campaign, Direction
from cardrogue.engine.chance.resolvers import FatedResolver
from cardrogue.engine.analysis.solver import SOLVED, UNKNOWN, UNSOLVABLE, Budget, SolveResult, solve_level
from cardrogue.engine.rules.state import GameState
from cardrogue.engine.rules.view import Face

DEFAULT_BUDGET = Budget(max_states=200_000, max_seconds=10.0)


@dataclass(frozen=True)
class SolutionStep:
    """The run after ``index`` actions (0: the start, before any action)."""

    index: int
    action: str  # the action just played ("" at the start)
    turn: int  # the turn the action was played in (the start: turn 1)
    position: tuple[int, int]  # the hero's place on the solved level
    health: int
    flipped: frozenset[tuple[int, int]]  # face-down cards of the level turned over so far
    log: tuple[str, ...] = ()  # what the engine said about this action
    left_level: bool = False  # the action took the ladder off the level
    outcome: str | None = None


@dataclass(frozen=True)
class Solution:
    level: int
    result: SolveResult
    steps: tuple[SolutionStep, ...] = ()
    budget: Budget = DEFAULT_BUDGET  # the budget it was found within (an unknown verdict names it)

    @property
    def verdict(self) -> str:
        return self.result.verdict


def trace_steps(campaign: Campaign, level: int, actions: tuple[str, ...] | list[str]) -> tuple[SolutionStep, ...]:
    """Replay ``actions`` from the level's start under fated dice; one step per action, after it."""
    resolver = FatedResolver(campaign)
    state = GameState.new(campaign, level)
    state.resolve(resolver)
    view = state.view()
    face_down = [c.pos for c in campaign.levels[level].cells if view.face(c.x, c.y) is Face.DOWN]
    flipped: frozenset[tuple[int, int]] = frozenset()
    steps = [SolutionStep(0, "", view.turn, view.position, view.hero.health, flipped)]
    position = view.position
    for i, action in enumerate(actions, 1):
        turn, seen = view.turn, len(view.log)
        state.step(action, resolver)
        left = view.level_index != level
        if left:  # the ladder: the hero is off the map shown, one step past the ladder's tile
            verb, _, arg = action.partition(" ")
            if verb == "move" and arg in DIRECTION_INDEX:
                position = Direction(arg).step(*position)
        else:
            position = view.position
            flipped = frozenset(p for p in face_down if view.face(*p) is not Face.DOWN)
        steps.append(SolutionStep(i, action, turn, position, view.hero.health, flipped,
                                  tuple(str(e) for e in view.log[seen:]), left, view.outcome))
    return tuple(steps)


def solve(campaign: Campaign, level: int, budget: Budget = DEFAULT_BUDGET) -> Solution:
    result = solve_level(campaign, level, budget)
    # The steps of the par run, or of the run found when par is unknown (a finish, not proven the fewest turns).
    actions = result.actions if result.verdict == SOLVED else result.found.actions if result.found else ()
    steps = trace_steps(campaign, level, actions) if actions else ()
    return Solution(level, result, steps, budget)


__all__ = ["DEFAULT_BUDGET", "SOLVED", "UNKNOWN", "UNSOLVABLE", "Solution", "SolutionStep", "solve", "trace_steps"]
