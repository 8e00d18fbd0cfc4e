"""Par for a level or a campaign: set a search up, run it, and turn what it found into a verdict."""

from __future__ import annotations

from dataclasses import replace

from ...chance.resolvers import FatedResolver
from ...format.diagnostics import Diagnostic, Severity
from ...model.campaign import Campaign
from ...records.replay import Recorder, verify_replay
from ...rules.state import GameState
from ..gold import gold_proof
from .explain import explain, static_proof
from .reach import reach_proof
from .budget import Budget, Deadline, OutOfTime, enforced
from .dive import find_run
from .result import RAISE_THE_BUDGET, SOLVED, UNKNOWN, UNSOLVABLE, Run, SolveResult
from .search import Search
from .trim import idle_flips_dropped


def _witness(campaign: Campaign, level: int, actions: list[str]) -> tuple[str, bool]:
    recorder = Recorder(campaign, level=level)
    for a in actions:
        recorder.play(a)
    text = recorder.text()
    return text, verify_replay(text, campaign).ok


def solve(campaign: Campaign, level: int, campaign_mode: bool, budget: Budget, reference: bool = False,
          progress=None, deadline: Deadline | None = None) -> SolveResult:
    """Par of a level (``campaign_mode`` False) or of the run from ``level`` (True), within ``budget``.

    ``progress``: a callable given a :class:`Progress` a few times a second (None: no reports).
    The budget's clock starts here (or is ``deadline``, a caller's), so setting the search up counts
    against ``max_seconds``.
    """
    deadline = deadline or budget.start()
    try:
        # Setting up (the tables, the relaxation, the static proof) never looks at the clock, and
        # on a huge level takes seconds: the deadline is enforced on it from outside.
        with enforced(deadline):
            search = Search(campaign, level, campaign_mode, budget, reference, deadline, progress)
            proof = static_proof(campaign, level, campaign_mode, search.relax)
            if proof is None and not reference:  # the reference proves by exhausting, with no static help
                proof = gold_proof(campaign, level, campaign_mode)
            if proof is None and not reference:
                proof = reach_proof(campaign, search.d, search.root.pos, level, campaign_mode)
    except OutOfTime:
        return SolveResult(UNKNOWN, level=level, stopped_by="time", seconds=deadline.elapsed(), reason=(
            f"the time budget ({budget.max_seconds:g} s) ran out while the search was being set up, "
            f"before any state was searched"))
    if proof is not None:
        return SolveResult(UNSOLVABLE, reason=proof[0], level=proof[1], seconds=deadline.elapsed())
    verdict, node, turns, health, exact = search.run()
    seconds = deadline.elapsed()
    common = dict(states_expanded=search.expanded, states_generated=search.generated, seconds=seconds,
                  search_seconds=search.seconds, turns_seconds=search.turns_seconds, stopped_by=search.stop_reason,
                  memory=search.memory, states_stored=search.stored)
    if verdict == SOLVED:
        actions = idle_flips_dropped(campaign, level, search.actions(node))
        text, ok = _witness(campaign, level, actions)
        if not ok:
            raise RuntimeError("the solver's witness does not re-simulate: the engine is not deterministic")
        ceiling = dict(health_ceiling=search.health_ceiling, health_unproven=search.unproven) if not exact else {}
        return SolveResult(SOLVED, turns, health, text, tuple(actions), level=level, health_exact=exact,
                           **(_level_turns(campaign, level, actions) if campaign_mode else {}),
                           **ceiling, **common)
    if verdict == UNKNOWN:
        return _unknown(campaign, level, campaign_mode, budget, deadline, search, reference, common)
    if search.expanded == 0:
        return SolveResult(UNSOLVABLE, level=level, reason=(
            "no way out can be reached: even ignoring enemies, chests and goals, no route of tiles "
            "leads from the starting tile to an exit or ladder"), **common)
    reason, li = explain(search)
    return SolveResult(UNSOLVABLE, level=li, reason=reason, **common)


def _unknown(campaign: Campaign, level: int, campaign_mode: bool, budget: Budget, deadline: Deadline,
             search: Search, reference: bool, common: dict) -> SolveResult:
    """The verdict of a search stopped with no finish: par is at least the least ``turn + h`` of the lines
    it left open; a finish found afterwards (:func:`~.dive.find_run`, on ``budget.find_share``), once its
    replay verifies, bounds par from above. When the two meet, par's turns are proven after all."""
    low = search.turns_at_least
    found = None
    if not reference and budget.find_share > 0:
        share = deadline.within(budget.find_share * budget.max_seconds)
        try:
            # The look asks the clock, but a policy's first look at a huge level (seconds on 256x256) does not.
            with enforced(share):
                run = find_run(search, share, max(1_000, int(budget.max_states * budget.find_share)))
        except OutOfTime:
            run = None
        if run is not None:
            turns, health, actions = run
            actions = idle_flips_dropped(campaign, level, actions)
            text, ok = _witness(campaign, level, actions)
            if not ok:
                raise RuntimeError("a finish found does not re-simulate: the engine is not deterministic")
            if low is not None and turns < low:
                raise RuntimeError(f"a finish in {turns} turns beats the bound's {low}: the bound is not admissible")
            found = Run(turns, health, tuple(actions), text)
    common.update(seconds=deadline.elapsed())
    if found is not None and found.turns == low:
        # Every finish comes from a line left open with turn + h = par: the most health any of them can
        # reach bounds the tiebreak, as when the budget cuts it (``Search.open_ceiling``).
        ceiling, unproven = search.open_ceiling(search.heap, (found.turns, found.health, 0))
        exact = unproven == 0 or found.health >= search.relax.health_cap
        return SolveResult(SOLVED, found.turns, found.health, found.replay_text, found.actions, level=level,
                           health_exact=exact,
                           **(_level_turns(campaign, level, list(found.actions)) if campaign_mode else {}),
                           **({} if exact else dict(health_ceiling=ceiling, health_unproven=unproven)), **common)
    deepest = campaign.level_name(search.trace.deepest)
    limit = {"time": f"the time budget ({budget.max_seconds:g} s)", "states": f"the state budget ({budget.max_states:,})",
             "memory": f"the memory budget ({_size(budget.max_memory)})"}.get(search.stop_reason, "the budget")
    spent = f"{search.expanded:,} states, {common['seconds']:.1f} s; deepest level reached: {deepest}"
    at_least = f"par is at least {low} turns" if low is not None else "par is not bounded yet"
    if found is None:
        reason = f"no finish found before {limit} ran out ({spent}): {at_least}"
    else:
        reason = (f"par not proven before {limit} ran out ({spent}): {at_least}, and a run of {found.turns} turns "
                  f"finishes with {found.health} health left (its replay verifies)")
    return SolveResult(UNKNOWN, level=search.trace.deepest, reason=reason, turns_at_least=low, found=found, **common)


def _size(n: int | None) -> str:
    if n is None:
        return "none"
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:g} {unit}"
    return f"{n} bytes"


def _level_turns(campaign: Campaign, level: int, actions: list[str]) -> dict[str, tuple[int, ...]]:
    """The levels the witness visits, in order (``level_route``), and the turns it spends on each (``level_turns``)."""
    resolver = FatedResolver(campaign)
    s = GameState.new(campaign, level, log=False)
    s.resolve(resolver)
    out, route, entered = [], [level], 1
    for a in actions:
        before = s.level
        s.step(a, resolver)
        if s.level != before:
            out.append(s.turn - entered)
            route.append(s.level)
            entered = s.turn
    out.append(s.turn - entered + 1)
    return {"level_turns": tuple(out), "level_route": tuple(route)}


def solve_level(campaign: Campaign, level: int = 0, budget: Budget | None = None, progress=None,
                deadline: Deadline | None = None) -> SolveResult:
    """The level's par: fewest turns from its starting tile (fresh hero) to an exit or a ladder taken.

    ``deadline``: the caller's clock, when the budget's time began before the solve (a command
    that counts loading the file against ``max_seconds``)."""
    return solve(campaign, level, False, budget or Budget(), progress=progress, deadline=deadline)


def solve_campaign(campaign: Campaign, budget: Budget | None = None, per_level: bool = True,
                   progress=None, deadline: Deadline | None = None) -> SolveResult:
    """The campaign par: the whole run from level 0 (health, items and gold carry over between levels).

    With ``per_level``, each level is also solved on its own from a fresh hero (a practice start,
    as ``cardrogue play --level N``) with a small share of the budget; those verdicts are in
    ``level_pars`` and may be ``unknown`` when their share runs out (or when none is left).
    """
    budget = budget or Budget()
    deadline = deadline or budget.start()
    result = solve(campaign, 0, True, budget, progress=progress, deadline=deadline)
    n = len(campaign.levels)
    if not per_level or n < 2:
        return result
    pars = []
    for i in range(n):
        # A quarter of the budget split between the levels, and never past the whole solve's deadline.
        seconds = min(budget.max_seconds / (4 * n), deadline.left() / (n - i))
        if seconds <= 0:
            pars.append(SolveResult(UNKNOWN, level=i, stopped_by="time", reason="no time was left for this level"))
            continue
        pars.append(solve_level(campaign, i, Budget(max(1, budget.max_states // (4 * n)), seconds)))
    return replace(result, level_pars=tuple(pars))


def solve_diagnostics(campaign: Campaign, budget: Budget | None = None) -> list[Diagnostic]:
    """``cardrogue check --solve``: CR401 unsolvable (error), CR402 unknown (warning), CR403 par (info), and
    CR404 (warning) when the file records another par than the one proven: the player shows the file's par."""
    result = solve_campaign(campaign, budget, per_level=False)
    li = result.level if result.level is not None else 0
    where = dict(path=("levels", li), level=li)
    if result.verdict == UNSOLVABLE:
        return [Diagnostic("CR401", f"unsolvable: {result.reason}", Severity.ERROR, **where,
                           hint="change the map so that some line of play reaches the exit alive")]
    if result.verdict == UNKNOWN:
        return [Diagnostic("CR402", f"solvability unknown: {result.reason}; {RAISE_THE_BUDGET}", Severity.WARNING,
                           **where)]
    split = result.turns_per_level(campaign)
    text = (f"par: {result.turns} turns with {result.health_text()}; the solution replay verifies "
            f"({result.states_expanded:,} states, {result.seconds:.2f} s)")
    if split:
        text += f"; turns per level: {split}"
    found = [Diagnostic("CR403", text, Severity.INFO, path=("levels", 0), level=0)]
    par = campaign.par
    if par is not None and (par.turns != result.turns
                            or (par.health is not None and result.health_exact and par.health != result.health)):
        recorded = f"{par.turns} turns" + (f" with {par.health} health left" if par.health is not None else "")
        found.append(Diagnostic("CR404", f"the recorded par, {recorded}, is not the par proven now, {result.turns} "
                                f"turns with {result.health_text()}: record it with cardrogue solve --write-par",
                                Severity.WARNING, path=("par",)))
    return found
