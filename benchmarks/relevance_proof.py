"""A prototype (issue 14, step (c)): prove "no finish before turn T" with the faces no such finish can read merged.

Run ``python benchmarks/relevance_proof.py SEED T [STATES] [main]``: the search of ``solve_campaign`` on the 8x8 map
of ``benchmarks/gen.py``, ``Budget(max_states=STATES, max_seconds=3600)`` (default 200,000), where every state it
admits is first rewritten: each cell whose face no line finishing before turn ``T`` can read
(``abstract_ceiling.relevant``: off every tile he may stand on and its neighbours) is made as open as it can be --
a pathing tile face up, an enemy (not paralysed) slain, an item other than a potion taken -- so states that differ
only there merge in the table (its dominance as it is). The rewritten state offers every line finishing before
``T`` that any state of its class offers (those lines read no such cell; a thrown enemy may be put on any tile
face up, and there are more), so the search proves a lower bound of ``T`` turns when it pops no finish with
``f < T``: it prints the states expanded with ``f < T`` and the first finish it pops (which may be one the real
game does not have: only the lower bound is read). With ``main``, the same search without the rewriting. The bound
is computed on each rewritten state's own faces (the search's mask hint is not used).

``python benchmarks/relevance_proof.py check FIRST-LAST [STATES]``: on the generated maps FIRST..LAST whose par the
plain search finds within STATES, asks the rewritten search for par + 1 and par + 2; a proof there is a wrong one.

``python benchmarks/relevance_proof.py witnesses FIRST-LAST [STATES]``: the par line of every map solved, replayed
with every state rewritten for T = par + 1 .. par + 3: a line lost is a rewrite that is not sound.

A PROTOTYPE in benchmarks, not swept: the rewritten states are not all states the rules can reach (an enemy gone
that nobody slew), and the bound's admissibility there is argued, not checked. State counts only.
"""

from __future__ import annotations

import heapq
import sys
import time

from abstract_ceiling import CARDS, grid_distances, relevant, run_watched
from gen import campaign_text

from cardrogue.engine.analysis.solver import Budget, solve_campaign
from cardrogue.engine.analysis.solver import search as search_module
from cardrogue.engine.analysis.solver.packing import spent_streams_dropped
from cardrogue.engine.analysis.solver.search import Search
from cardrogue.engine.format.loader import load_campaign_text
from cardrogue.engine.chance.resolvers import FatedResolver
from cardrogue.engine.model.campaign import CardKind
from cardrogue.engine.rules.actions import ActionError
from cardrogue.engine.rules.phases import WON
from cardrogue.engine.rules.state import GameState
from cardrogue.engine.rules.tables import CLEARED, DOWN, ENEMY, PICKUP, PLAIN, UP

NO_CLOCK = 3600


class Counting:
    """A stand-in for ``heapq`` in the search: counts the entries popped below ``T`` and notes the first at ``T``."""

    heappush = staticmethod(heapq.heappush)

    def __init__(self, target: int) -> None:
        self.target, self.below, self.first_at = target, 0, None
        self.popped = 0

    def heappop(self, heap):
        e = heapq.heappop(heap)
        if e[5][4]:
            self.popped += 1
            if e[0] < self.target:
                self.below += 1
            elif self.first_at is None:
                self.first_at = self.popped
        return e


def rewrite(s, target: int, d, lo: int, dist: list, exits: list) -> int:
    """Makes every cell of ``s`` whose face no line finishing before turn ``target`` reads as open as it can be (a
    pathing tile face up, an enemy not paralysed slain, an item other than a potion taken); the cells changed."""
    v = {"faces": bytes(s.faces), "hand": s.hand, "foes": tuple(s.foes.items()) if s.foes else (),
         "pos": s.pos, "phase": s.phase, "moved": s.moved, "moves": s.moves, "pure": s.pure,
         "repeated": s.repeated, "subject": s.subject}
    keep = relevant(v, s.turn, target, d, lo, dist, exits)
    faces = s.faces
    stand = set(s.visitors) | set(s.visitors.values()) if s.visitors else ()
    changed = 0
    for i, k in enumerate(keep):
        j = lo + i
        if k or j in stand or j == s.pos:
            continue
        kind, face = d.kind[j], faces[j]
        if kind == PLAIN and face == DOWN:
            faces[j] = UP
        elif (kind == ENEMY or (kind == PICKUP and d.card[j].kind is not CardKind.POTION)) and face != CLEARED:
            faces[j] = CLEARED
            if s.foes and j in s.foes:
                del s.foes[j]
        else:
            continue
        changed += 1
    if changed and s.draws:
        s.draws = spent_streams_dropped(s)
    return changed


def prove(seed: int, target: int, states: int, plain: bool, show: bool = True) -> tuple:
    """(lower bound ``target`` proved, turns of the finish found or None, expanded states); prints the figures."""
    campaign = load_campaign_text(campaign_text(1, 8, seed=seed)).campaign
    CARDS.clear()
    CARDS.update(campaign.cards)
    search = Search(campaign, 0, True, Budget(max_states=states, max_seconds=NO_CLOCK))
    d = search.d
    lo, hi = d.level_range[0]
    dist = grid_distances(d, lo, hi)
    exits = [j for j in range(lo, hi) if d.exit[j]]
    relax = search.relax
    rewritten = [0, 0]  # states rewritten, cells changed

    def canonical(s) -> None:
        rewritten_cells = rewrite(s, target, d, lo, dist, exits)
        if rewritten_cells:
            rewritten[0] += 1
            rewritten[1] += rewritten_cells

    if not plain:
        admit = search.fronts.admit

        def admit_canonical(s, faces=None):
            canonical(s)
            return admit(s)

        search.fronts.admit = admit_canonical
        bound = relax.bound_masked
        mask = relax.mask
        relax.bound_masked = lambda s, cm, m, hint=None: bound(s, cm, mask(s), None)
    counting = Counting(target)
    t0 = time.process_time()  # (the replay of the finish found below is counted too)
    (verdict, node, turns, health, _), _ = run_watched(search, counting)
    if turns is not None:
        # The finish found, replayed in the real game (it may be one only the rewritten states have).
        real = GameState.new(campaign, 0, log=False)
        resolver = FatedResolver(campaign)
        real.resolve(resolver)
        line = search.actions(node)
        try:
            for a in line:
                real.step(a, resolver)
            print(f"the finish found, replayed in the real game: outcome {real.outcome}, turn {real.turn}, "
                  f"health {real.health} ({len(line)} actions)")
            if show:
                print("  " + "; ".join(line))
        except ActionError as err:
            print(f"the finish found is not a line of the real game: {err}")
    open_f = [e[0] for e in search.heap if e[5][4]]
    least = min(open_f) if open_f else None
    proved = (turns is not None and turns >= target) or (least is not None and least >= target)
    print(f"seed {seed}, T {target}, {'main' if plain else 'faces merged'}: {verdict} turns={turns} "
          f"expanded={search.expanded:,} generated={search.generated:,} least f open={least}; popped with f < T: "
          f"{counting.below:,}; lower bound {target} {'PROVED' if proved else 'not proved'}; "
          f"rewritten {rewritten[0]:,} states ({rewritten[1]:,} cells); cpu {time.process_time() - t0:.1f}s")
    return proved, turns, search.expanded


def check(seeds: range, states: int) -> int:
    """The falsification test: on maps whose par the plain search finds within ``states``, the rewritten search
    asked for ``par + 1`` and ``par + 2`` must find a finish by ``par`` (never prove the bound): a proof there
    would be a wrong one."""
    wrong = 0
    for seed in seeds:
        _, par, _ = prove(seed, 99, states, True, show=False)
        if par is None:
            continue
        for target in (par + 1, par + 2):
            proved, turns, _ = prove(seed, target, states, False, show=False)
            if proved:
                wrong += 1
                print(f"  WRONG: seed {seed} par {par}, lower bound {target} proved")
    print(f"check: {wrong} wrong proofs")
    return 1 if wrong else 0


def witnesses(seeds: range, states: int) -> int:
    """The par line of every map solved within ``states``, replayed with every state rewritten for ``T`` = par + 1,
    par + 2 and par + 3 (as the prototype's search rewrites every state it admits): each must still be legal and
    finish at par. A line lost is a rewrite that is not sound."""
    lost = checked = 0
    for seed in seeds:
        campaign = load_campaign_text(campaign_text(1, 8, seed=seed)).campaign
        r = solve_campaign(campaign, Budget(max_states=states, max_seconds=NO_CLOCK), per_level=False)
        if r.verdict != "solved":
            continue
        CARDS.clear()
        CARDS.update(campaign.cards)
        for target in (r.turns + 1, r.turns + 2, r.turns + 3):
            s = GameState.new(campaign, 0, log=False)
            resolver = FatedResolver(campaign)
            s.resolve(resolver)
            d = s.d
            lo, hi = d.level_range[0]
            dist = grid_distances(d, lo, hi)
            exits = [j for j in range(lo, hi) if d.exit[j]]
            cells = rewrite(s, target, d, lo, dist, exits)
            try:
                for a in r.actions:
                    s.step(a, resolver)
                    cells += rewrite(s, target, d, lo, dist, exits)
                ok = s.outcome == WON and s.turn == r.turns
                why = f"outcome {s.outcome}, turn {s.turn}"
            except ActionError as err:
                ok, why = False, str(err)
            checked += 1
            if not ok:
                lost += 1
                print(f"  LOST: seed {seed} par {r.turns}, T {target}: {why}")
            elif target == r.turns + 1:
                print(f"  seed {seed} par {r.turns}: kept ({cells} cells rewritten along it, T = par + 1)")
    print(f"witnesses: {checked} lines checked, {lost} lost")
    return 1 if lost else 0


def main() -> int:
    try:
        if sys.argv[1] == "witnesses":
            lo, hi = (int(x) for x in sys.argv[2].split("-"))
            return witnesses(range(lo, hi + 1), int(sys.argv[3]) if len(sys.argv) > 3 else 20_000)
        if sys.argv[1] == "check":
            lo, hi = (int(x) for x in sys.argv[2].split("-"))
            return check(range(lo, hi + 1), int(sys.argv[3]) if len(sys.argv) > 3 else 20_000)
        seed, target = int(sys.argv[1]), int(sys.argv[2])
        states = int(sys.argv[3]) if len(sys.argv) > 3 else 200_000
        plain = len(sys.argv) > 4 and sys.argv[4] == "main"
    except (IndexError, ValueError):
        print("usage: python benchmarks/relevance_proof.py SEED T [STATES] [main] | check|witnesses FIRST-LAST [STATES]",
              file=sys.stderr)
        return 2
    prove(seed, target, states, plain)
    return 0


if __name__ == "__main__":
    sys.exit(main())
