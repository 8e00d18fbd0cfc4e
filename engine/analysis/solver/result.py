"""The solver's verdicts and its result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...model.campaign import Campaign

INF = float("inf")
SOLVED, UNSOLVABLE, UNKNOWN = "solved", "unsolvable", "unknown"

# What to do about an ``unknown`` verdict, said by each front end after its reason (the reason itself says only
# what is known): on the command line, a bigger budget; where the budget is not the author's to raise (a hub's,
# the editor's), a map quicker to solve (docs/authoring.md, *Par*).
RAISE_THE_BUDGET = "raise the budget to decide with --max-states or --max-seconds"
QUICKER_TO_SOLVE = "make the map smaller, script its fights or cut detours that lead nowhere"


@dataclass(frozen=True)
class Run:
    """A finish found but not proven the fewest turns (an ``unknown`` verdict's upper bound on par)."""

    turns: int
    health: int
    actions: tuple[str, ...]
    replay_text: str  # verified (``verify_replay``) before it is reported


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
    level_route: tuple[int, ...] = ()  # campaign witness: the index of each level it visits, as level_turns
    level_pars: tuple["SolveResult", ...] = ()  # campaign: each level solved on its own (practice start)
    health_ceiling: int | None = None  # health not exact: no minimum-turn finish has more health than this
    health_unproven: int = 0  # health not exact: open lines of play that might still beat ``health``
    stopped_by: str = ""  # the limit that cut the search: "time", "states", "memory" ("": none)
    memory: int = 0  # bytes the process grew by during the search
    states_stored: int = 0  # states the search kept (queued and in the transposition table)
    turns_at_least: int | None = None  # unknown: no finish comes in fewer turns (the open lines' least turn + h)
    found: Run | None = None  # unknown: a finish found after the search stopped, par's turns at most its turns

    def turns_per_level(self, campaign: Campaign) -> str:
        """The witness's turns on each level it visits, each level named as its author knows it:
        ``1 on level 1 "The Hall" (hall), 4 on level 3 "The Crypt" (crypt)`` ("": one level or none)."""
        if len(self.level_turns) < 2:
            return ""
        return ", ".join(f"{t} on {campaign.level_name(i)}" for i, t in zip(self.level_route, self.level_turns))

    def health_text(self) -> str:
        """The par's health as an author reads it: exact, or "at least" with what is left unproven."""
        if self.health_exact:
            return f"{self.health} health left"
        by = {"time": "time", "states": "state", "memory": "memory"}.get(self.stopped_by, "")
        return (f"at least {self.health} health left (at most {self.health_ceiling}: the {by + ' ' if by else ''}budget "
                f"ran out on the health tiebreak with {self.health_unproven:,} lines of play that might end with "
                f"more still open; the turns were proven after {self.turns_seconds:.2f} s)")

    @property
    def states_per_second(self) -> float:
        return self.states_generated / self.search_seconds if self.search_seconds > 0 else 0.0



@dataclass(frozen=True)
class Progress:
    """What a running solve reports to its ``progress`` callback (a few times a second).

    ``stage`` is "turns" while par's turns are searched for, "health" once they are proven and the
    health tiebreak runs: then ``turns``, ``health`` (the best so far) and ``actions`` (that finish's
    witness) are set, so a caller can show the proven par at once.
    """

    stage: str
    expanded: int
    generated: int
    seconds: float
    turns: int | None = None
    health: int | None = None
    actions: tuple[str, ...] = ()
