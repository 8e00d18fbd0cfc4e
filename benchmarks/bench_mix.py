"""Held-out-style sweep: generated maps of several sizes and item mixes, solved with a budget.

For N maps per (size, mix) of ``gen.mixed_campaign_text`` (each one first held to `cardrogue check`:
an invalid map is a generator bug), solve as `cardrogue solve` does (``Budget(max_states=2,000,000,
max_seconds=S)``, ``solve_campaign``), and record the verdict, par (turns, health), states and CPU
time (``time.process_time``). Every witness is re-simulated by ``verify_replay`` against the campaign
loaded afresh from its text (what `cardrogue verify` runs), and walked with the bound and the health ceiling read
at each state (neither may contradict the finish it reaches). Maps up to ``--reference-size`` are also
solved by the solver's reference mode (uniform-cost search, no bound, no dominance) and the two
verdicts compared; on every map, random play under the fated dice (greedy policy, a random action one
time in three) looks for a win that beats the par or disproves ``unsolvable``. Prints a table per size and mix, then every crash, traceback, failed witness,
disagreement with the reference and every ``unknown``; exit 1 if there was any problem other than
an ``unknown``.

Run ``python benchmarks/bench_mix.py [--sizes 3,4,6,10,16] [--mixes all,walls] [--maps 3]``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
import traceback
from dataclasses import dataclass, field

from gen import MIXES, mixed_campaign_text

from cardrogue.engine.analysis.check import check_text
from cardrogue.engine.analysis.montecarlo import GreedyPolicy
from cardrogue.engine.analysis.solver import SOLVED, UNKNOWN, UNSOLVABLE, Budget, solve_campaign
from cardrogue.engine.analysis.solver.bounds import relaxation
from cardrogue.engine.analysis.solver.par import solve
from cardrogue.engine.analysis.solver.search import Search
from cardrogue.engine.chance.resolvers import FatedResolver
from cardrogue.engine.format.diagnostics import Severity
from cardrogue.engine.format.loader import load_campaign_text
from cardrogue.engine.records.replay import verify_replay
from cardrogue.engine.rules.state import GameState

SOLVE_STATES = 2_000_000  # `cardrogue solve`'s default --max-states


@dataclass
class Record:
    """One map's sweep result."""

    size: int
    mix: str
    seed: int
    levels: int
    verdict: str = ""
    turns: int | None = None
    health: int | None = None
    health_exact: bool = True
    states: int = 0  # expanded
    generated: int = 0  # successor states made (generated / expanded: the branching)
    cpu: float = 0.0
    root_bound: float | None = None  # the bound at the start (turns after the first): par - 1 when tight
    loosen: str = ""  # what widens the bound's turn (S steps, K face-down entries): see ``bound_parts``
    reason: str = ""
    reference: str = ""  # the reference's verdict, turns and health ("" when not run)
    playout: str = ""  # the best win random play found under the map's fated dice ("" when none)
    floor: int | None = None  # unknown: par is at least this (the open lines' least turn + h)
    found: str = ""  # unknown: the run found after the search stopped, "turns/health" ("" when none)
    problems: list[str] = field(default_factory=list)  # crash, witness, disagreement (each with its text)

    @property
    def params(self) -> str:
        return f"mixed_campaign_text({self.levels}, {self.size}, {self.seed}, {self.mix!r})"


def levels_for(mix: str, seed: int) -> int:
    """Ladders between two or three levels for the mixes that have them, else one level."""
    return 2 + seed % 2 if "ladders" in MIXES[mix] else 1


def root_bound(campaign) -> tuple[float, str]:
    """The bound at the start, and what widens its turn: a flee chain of F tiles (docs/solver.md, ``F``),
    relocation, +X MOVEMENT, potions of teleportation or paralysis to be had (the unknowns' usual causes)."""
    s = GameState.new(campaign, log=False)
    s.resolve(FatedResolver(campaign))
    relax = relaxation(campaign, s.d)
    parts = [f"S={relax.S} K={relax.K}"] + [text for on, text in (
        (relax.flee, f"flee chain F={relax.flee}"), (relax.reloc, "relocation"), (relax.mv, f"movement +{relax.mv}"),
        (relax.tele_total, f"teleportation x{relax.tele_total}"), (relax.para_total, f"paralysis x{relax.para_total}")) if on]
    return relax.bound(s, True), ", ".join(parts)


def walk_witness(campaign, r) -> list[str]:
    """The bound and the health ceiling on every state of the witness, a real line finishing in
    ``r.turns`` with ``r.health``: a bound above the turns left there, or a ceiling below the health it
    ends with, is unsound (even where the search's par is right, it may cut a better line elsewhere)."""
    search = Search(campaign, 0, True, Budget(max_states=1, max_seconds=60))
    s = GameState.new(campaign, log=False)
    resolver = FatedResolver(campaign)
    s.resolve(resolver)
    out = []
    for i, action in enumerate(r.actions):
        h = search.relax.bound(s, True)
        if h > r.turns - s.turn:
            out.append(f"bound {h} > {r.turns - s.turn} turns left before action {i + 1} ({action}) of the witness")
            break
        top = search.ceiling.bound(s, r.turns)
        if top < r.health:
            out.append(f"health ceiling {top} < {r.health} before action {i + 1} ({action}) of the witness")
            break
        s.step(action, resolver)
    return out


def playouts(campaign, seconds: float, max_turns: int, seed: int) -> tuple[int, int, list[str]] | None:
    """The best (turns, health, actions) of wins found by playing the map's fated dice for ``seconds`` of
    CPU, each action the greedy policy's or (one time in three) a random legal one; None: no win."""
    greedy, rng = GreedyPolicy(campaign), random.Random(seed)
    resolver = FatedResolver(campaign)
    best, until = None, time.process_time() + seconds
    while time.process_time() < until:
        s = GameState.new(campaign, log=False)
        s.resolve(resolver)
        actions: list[str] = []
        while s.outcome is None and s.turn <= max_turns and len(actions) < 50 * max_turns:
            legal = s.legal_actions()
            action = rng.choice(legal) if rng.random() < 1 / 3 else greedy.choose(s.view())
            actions.append(str(action))
            s.step(action, resolver)
        if s.outcome == "won" and (best is None or (s.turn, -s.health) < (best[0], -best[1])):
            best = (s.turn, s.health, actions)
            max_turns = s.turn
    return best


def sweep_one(size: int, mix: str, seed: int, seconds: float, reference_size: int, reference_states: int,
              reference_seconds: float, playout_seconds: float = 0.0, states: int = SOLVE_STATES) -> Record:
    rec = Record(size, mix, seed, levels_for(mix, seed))
    text = mixed_campaign_text(rec.levels, size, seed, mix)
    # CR309 (a buy goal priced above the gold the map can yield) is no generator bug: the generator draws
    # its buy goals without counting gold, and such a map is the solver's to call unsolvable.
    errors = [d.render() for d in check_text(text) if d.severity is Severity.ERROR and d.code != "CR309"]
    if errors:
        rec.verdict = "invalid"
        rec.problems.append("generator bug, `cardrogue check` refuses the map: " + "; ".join(errors[:3]))
        return rec
    campaign = load_campaign_text(text).campaign
    try:
        rec.root_bound, rec.loosen = root_bound(campaign)
        start = time.process_time()
        r = solve_campaign(campaign, Budget(max_states=states, max_seconds=seconds))
        rec.cpu = time.process_time() - start
    except Exception:  # the sweep's job is to list crashes, not to stop at the first
        rec.verdict = "crash"
        rec.problems.append("crash in solve:\n" + traceback.format_exc())
        return rec
    rec.verdict, rec.turns, rec.health, rec.health_exact = r.verdict, r.turns, r.health, r.health_exact
    rec.states, rec.generated, rec.reason = r.states_expanded, r.states_generated, r.reason
    for i, p in enumerate(r.level_pars):
        if p.verdict == SOLVED and not verify_replay(p.replay_text, load_campaign_text(text).campaign).ok:
            rec.problems.append(f"level {i + 1}'s own witness does not verify")
    if r.verdict == UNKNOWN:
        rec.floor = r.turns_at_least
        if r.found is not None:
            rec.found = f"{r.found.turns}/{r.found.health}"
            v = verify_replay(r.found.replay_text, load_campaign_text(text).campaign)
            if not v.ok or v.run is None or (v.run.outcome, v.run.turns, v.run.health) != ("won", r.found.turns, r.found.health):
                rec.problems.append(f"the run found ({rec.found}) does not verify: {v.message}")
    if r.verdict == SOLVED:
        fresh = load_campaign_text(text).campaign  # as `cardrogue verify` reads the file
        v = verify_replay(r.replay_text, fresh)
        if not v.ok:
            rec.problems.append(f"witness rejected: {v.message}")
        elif v.run is None or (v.run.outcome, v.run.turns, v.run.health) != ("won", r.turns, r.health):
            got = None if v.run is None else (v.run.outcome, v.run.turns, v.run.health)
            rec.problems.append(f"witness verifies as {got}, the solver claims won in {r.turns} with {r.health}")
        else:
            rec.problems.extend(walk_witness(fresh, r))
    if playout_seconds:
        limit = r.turns if r.verdict == SOLVED else 4 * size * rec.levels + 10
        found = playouts(campaign, playout_seconds, limit, seed)
        if found is not None:
            rec.playout = f"won {found[0]}/{found[1]}"
            if r.verdict == UNSOLVABLE:
                rec.problems.append(f"unsolvable, but random play wins in {found[0]} turns: {' | '.join(found[2])}")
            elif r.verdict == UNKNOWN and r.turns_at_least is not None and found[0] < r.turns_at_least:
                rec.problems.append(f"par at least {r.turns_at_least}, but random play wins in {found[0]} turns: "
                                    f"{' | '.join(found[2])}")
            elif r.verdict == SOLVED and (found[0] < r.turns or (r.health_exact and found[0] == r.turns and found[1] > r.health)):
                rec.problems.append(f"par {r.turns}/{r.health}, but random play wins in {found[0]} turns with {found[1]} "
                                    f"health: {' | '.join(found[2])}")
    if size <= reference_size:
        budget = Budget(max_states=reference_states, max_seconds=reference_seconds)
        try:
            ref = solve(campaign, 0, True, budget, reference=True)
            rec.reference = ref.verdict + (f" {ref.turns}/{ref.health}" if ref.verdict == SOLVED else "")
            rec.problems.extend(disagreement(r, ref))
            for i, p in enumerate(r.level_pars):  # each level on its own (a practice start), as `solve` reports it
                if p.verdict != UNKNOWN:
                    ref = solve(campaign, i, False, budget, reference=True)
                    rec.problems.extend(f"level {i + 1} on its own: {text}" for text in disagreement(p, ref))
        except Exception:
            rec.problems.append("crash in the reference search:\n" + traceback.format_exc())
    return rec


def disagreement(r, ref) -> list[str]:
    """What the fast search claims that the reference's (exhaustive or cut) search contradicts."""
    if ref.verdict == UNKNOWN:
        return []
    if ref.verdict == UNSOLVABLE:
        return [f"the solver says solved in {r.turns}, the reference's exhausted search finds no finish"] if r.verdict == SOLVED else []
    if r.verdict == UNSOLVABLE:
        return [f"the solver says unsolvable ({r.reason}); the reference wins in {ref.turns} turns with {ref.health}"]
    if r.verdict == UNKNOWN:
        if r.turns_at_least is not None and ref.turns < r.turns_at_least:
            return [f"par at least {r.turns_at_least}, the reference's {ref.turns}"]
        if r.found is not None and r.found.turns < ref.turns:
            return [f"a run of {r.found.turns} turns found, below the reference's par {ref.turns}"]
        return []  # slow, not wrong: listed with the unknowns
    if r.turns != ref.turns:
        return [f"par {r.turns} turns, the reference's {ref.turns}"]
    if r.health_exact and r.health != ref.health:
        return [f"par health {r.health}, the reference's {ref.health} (both in {r.turns} turns)"]
    if not r.health_exact and not r.health <= ref.health <= (r.health_ceiling or 0):
        return [f"health at least {r.health}, at most {r.health_ceiling}: the reference's {ref.health} is outside"]
    return []


def table(records: list[Record]) -> None:
    print(f"{'size':>4} {'mix':<9} {'maps':>4} {'solved':>6} {'unsolv':>6} {'unknown':>7} {'crash':>5} {'problem':>7} "
          f"{'ref ok':>6} {'par (median)':>12} {'states (median)':>15} {'CPU median':>10} {'CPU max':>8}")
    groups: dict = {}
    for r in records:
        groups.setdefault((r.size, r.mix), []).append(r)
    for (size, mix), rs in sorted(groups.items()):
        n = lambda v: sum(1 for r in rs if r.verdict == v)  # noqa: E731
        pars = [r.turns for r in rs if r.verdict == SOLVED]
        checked = [r for r in rs if r.reference and not r.reference.startswith(UNKNOWN)]
        print(f"{size:>4} {mix:<9} {len(rs):>4} {n(SOLVED):>6} {n(UNSOLVABLE):>6} {n(UNKNOWN):>7} {n('crash'):>5} "
              f"{sum(1 for r in rs if r.problems):>7} "
              f"{(f'{sum(1 for r in checked if not r.problems)}/{len(checked)}' if checked else '-'):>6} "
              f"{(statistics.median(pars) if pars else '-'):>12} {statistics.median(r.states for r in rs):>15,.0f} "
              f"{statistics.median(r.cpu for r in rs):>9.2f}s {max(r.cpu for r in rs):>7.2f}s")
    total = {v: sum(1 for r in records if r.verdict == v) for v in (SOLVED, UNSOLVABLE, UNKNOWN, "crash", "invalid")}
    print("all: " + ", ".join(f"{n} {v}" for v, n in total.items()) + f"; {len(records)} maps, "
          f"CPU {sum(r.cpu for r in records):.1f} s in the solves")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="3,4,6,10,16", help="map sizes, 3 to 16 (default 3,4,6,10,16)")
    parser.add_argument("--mixes", default=",".join(MIXES), help=f"mixes (default all of them: {', '.join(MIXES)})")
    parser.add_argument("--maps", type=int, default=3, help="maps per size and mix (default 3)")
    parser.add_argument("--first-seed", type=int, default=0, help="seed of the first map (default 0)")
    parser.add_argument("--seconds", type=float, default=5.0, help="solve budget per map (default 5)")
    parser.add_argument("--states", type=int, default=0,
                        help="solve budget in states expanded, with no clock (replaces --seconds: to compare two "
                             "versions on a busy machine; default 0: --seconds and 2,000,000 states)")
    parser.add_argument("--reference-size", type=int, default=4,
                        help="cross-check maps up to this size against the reference search (default 4; 0: none)")
    parser.add_argument("--reference-states", type=int, default=300_000, help="the reference's state budget (default 300,000)")
    parser.add_argument("--reference-seconds", type=float, default=30.0, help="the reference's time budget (default 30)")
    parser.add_argument("--playouts", type=float, default=1.0, metavar="S",
                        help="CPU seconds per map of random play under the fated dice, whose wins par must not beat (default 1; 0: none)")
    parser.add_argument("--json", default=None, metavar="FILE", help="also write each map's record here (JSON lines)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    mixes = args.mixes.split(",")
    unknown = [m for m in mixes if m not in MIXES]
    if unknown or not all(3 <= s <= 16 for s in sizes):
        parser.error(f"unknown mix {unknown}" if unknown else "sizes are 3 to 16")
    print(f"{len(sizes) * len(mixes) * args.maps} maps: sizes {sizes}, mixes {mixes}, seeds {args.first_seed}.."
          f"{args.first_seed + args.maps - 1}, {f'{args.states:,} states' if args.states else f'{args.seconds:g} s'} each; "
          f"reference up to {args.reference_size}x"
          f"{args.reference_size}", flush=True)
    records, out = [], open(args.json, "w") if args.json else None
    for size in sizes:
        for mix in mixes:
            for seed in range(args.first_seed, args.first_seed + args.maps):
                rec = sweep_one(size, mix, seed, 3600.0 if args.states else args.seconds, args.reference_size,
                                args.reference_states, args.reference_seconds, args.playouts, args.states or SOLVE_STATES)
                records.append(rec)
                if out:
                    out.write(json.dumps(rec.__dict__) + "\n")
                    out.flush()
                mark = "!" if rec.problems else " "
                print(f"{mark} {rec.params}: {rec.verdict} {rec.turns or ''}/{rec.health or ''} {rec.states:,} states "
                      f"{rec.cpu:.2f} s CPU, root bound {rec.root_bound}{', reference ' + rec.reference if rec.reference else ''}"
                      f"{', random play ' + rec.playout if rec.playout else ''}", flush=True)
    table(records)
    problems = [r for r in records if r.problems]
    print(f"\nProblems ({len(problems)}): crashes, tracebacks, failed witnesses, disagreements with the reference")
    for r in problems:
        for p in r.problems:
            print(f"  {r.params}: {p}")
    unknowns = [r for r in records if r.verdict == UNKNOWN]
    print(f"\nUnknown ({len(unknowns)})")
    for r in unknowns:
        print(f"  {r.params}: {r.states:,} states ({r.generated / max(1, r.states):.1f} successors each), {r.cpu:.2f} s CPU, "
              f"root bound {r.root_bound} ({r.loosen})"
              f"{', reference ' + r.reference if r.reference else ''}"
              f"{', random play ' + r.playout if r.playout else ''}: {r.reason}")
    bounded = [r for r in unknowns if r.found]
    print(f"Unknowns bounded both ways (a run found after the search stopped, its replay verified): {len(bounded)} of "
          f"{len(unknowns)}; gap between the run and the floor (turns, median): "
          f"{statistics.median(int(r.found.split('/')[0]) - r.floor for r in bounded) if bounded else '-'}")
    causes: dict = {}
    for r in unknowns:
        what = ", ".join(part.split(" F=")[0].split(" +")[0].split(" x")[0] for part in r.loosen.split(", ")[1:]) or "none"
        causes.setdefault(what, []).append(r)
    print("Unknown by what widens the bound's turn (the sizes; root bound: median)")
    for what, rs in sorted(causes.items(), key=lambda item: -len(item[1])):
        print(f"  {what}: {len(rs)} (sizes {', '.join(map(str, sorted({r.size for r in rs})))}; root bound "
              f"{statistics.median(r.root_bound for r in rs):g}; {sum(1 for r in rs if r.levels > 1)} with ladders)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
