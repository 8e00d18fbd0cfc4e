"""The solver's verdicts, its budget and its result."""

from __future__ import annotations

from dataclasses import dataclass

INF = float("inf")
SOLVED, UNSOLVABLE, UNKNOWN = "solved", "unsolvable", "unknown"


@dataclass(frozen=True)
class Budget:
    """How much search a verdict may cost; running out gives ``unknown``, never ``unsolvable``."""

    max_states: int = 500_000  # states expanded
    max_seconds: float = 20.0


@dataclass(frozen=True)
class SolveResult:
    """A solver verdict: ``solved`` (par + witness), ``unsolvable`` (with the reason) or ``unknown``."""

    verdict: str
    turns: int | None = None  # the par: turns to finish (the turn in which the exit or ladder is reached)
    health: int | None = None  # health left at that moment (the tiebreak)
    replay_text: str = ""  # the witness, as a replay verify_replay accepts
    actions: tuple[str, ...] = ()
    reason: str = ""
    states_expanded: int = 0
    seconds: float = 0.0
    states_generated: int = 0
    search_seconds: float = 0.0  # the search alone (without the static checks and the witness replay)
    health_exact: bool = True  # False: turns are exact, a run with more health may exist (budget ran out)
    turns_seconds: float = 0.0  # search time until the par's turns were proven (the first finish reached)
    level: int | None = None  # the level the verdict or reason is about
    level_turns: tuple[int, ...] = ()  # campaign witness: turns spent on each level it visits
    level_pars: tuple["SolveResult", ...] = ()  # campaign: each level solved on its own (practice start)

    @property
    def states_per_second(self) -> float:
        return self.states_generated / self.search_seconds if self.search_seconds > 0 else 0.0

