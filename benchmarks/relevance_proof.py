"""A prototype (issue 14, step (c)): prove "no finish before turn T" with the faces no such finish can read merged.

Run ``python benchmarks/relevance_proof.py SEED T [STATES] [main|fast|slow|same]``: the search of ``solve_campaign``
on the 8x8 map of ``benchmarks/gen.py``, ``Budget(max_states=STATES, max_seconds=3600)`` (default 200,000), where
every state it admits (and the root) is first rewritten: each cell whose face no line finishing before turn ``T`` can
read (``abstract_ceiling.relevant``: off every tile he may stand on and its neighbours) is made as open as it can be
-- a pathing tile face up, an enemy (not paralysed) slain, an item other than a potion taken -- so states that
differ only there merge in the table (its dominance as it is). The rewritten state offers every line finishing
before ``T`` that any state of its class offers (those lines read no such cell; a thrown enemy may be put on any
tile face up, and there are more), so the search proves a lower bound of ``T`` turns when it pops no finish with
``f < T``: it prints the states expanded with ``f < T`` and the first finish it pops (which may be one the real
game does not have: only the lower bound is read). ``main``: the same search without the rewriting; ``fast`` (the
default): the rewriting by bit masks (:class:`Region`); ``slow``: by the first version's loops over the cells
(:func:`rewrite`); ``same``: both, compared on every state. The bound is computed on each rewritten state's own
faces (its mask read again where the rewriting changed a face).

``python benchmarks/relevance_proof.py check FIRST-LAST [STATES]``: on the generated maps FIRST..LAST whose par the
plain search finds within STATES, asks the rewritten search for par + 1 and par + 2; a proof there is a wrong one.

``python benchmarks/relevance_proof.py witnesses FIRST-LAST [STATES] [CUT]``: the par line of every map solved,
replayed with every state rewritten for T = par + 1 .. par + 3: a line lost is a rewrite that is not sound (``CUT``:
every steps budget cut by that many, a wrong rewriting, to see the test fail).

A PROTOTYPE in benchmarks, for the paced warrior of the generated maps only: the rewritten states are not all states
the rules can reach (an enemy gone that nobody slew); the region and the bound there are argued, and held to every
reachable state of tiny maps by ``relevance_exhaust.py`` (which found the hole of the first region: a potion of
teleportation held lets the hero walk anywhere within ``B`` and drink onto the way out). State counts only.
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
from cardrogue.engine.rules.phases import CHOOSE_TELEPORT, MOVING, STEP1, WON
from cardrogue.engine.rules.phases import COMBAT as COMBAT_PHASE
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
    pathing tile face up, an enemy not paralysed slain, an item other than a potion taken); the cells changed.
    The first version, a loop over the cells (``abstract_ceiling.relevant``): :class:`Region` does the same with
    bit masks, and ``same`` checks the two against each other."""
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


class Region:
    """:func:`rewrite` as a few operations on the faces read as one integer (``int.from_bytes(faces, "big")``,
    one byte a cell: DOWN 0, UP 1, CLEARED 2).

    The cells kept (those a line finishing before ``target`` may stand on, and their neighbours) depend only on
    the hero's tile, the steps budget ``B``, the landing budget ``2 (target - 1 - turn) + 2 E``, and, with a
    potion of teleportation held or on a cell, which of the level's potions of teleportation are still on their
    cells and whether another can be drunk first: they are cached on those, as a mask of 0xFF bytes. The
    cells never rewritten (every kind but pathing tiles, enemies and items; potions) are left out of the masks
    once; the hero's tile, the visitors' and the paralysed enemies' cells are taken out per state."""

    def __init__(self, campaign, d, target: int, level: int = 0, cut: int = 0) -> None:
        self.d, self.target, self.cut = d, target, cut
        self.lo, hi = d.level_range[level]
        n = self.n = len(d.cells)
        self.dist = grid_distances(d, self.lo, hi)
        exits = [j for j in range(self.lo, hi) if d.exit[j]]
        self.toexit = [min(self.dist[i][w - self.lo] for w in exits) for i in range(hi - self.lo)]
        self.neighbours = [[j - self.lo for row in (d.adjacent[self.lo + i], d.flip_to[self.lo + i])
                            for j in row if j >= 0] for i in range(hi - self.lo)]
        self.cell = [1 << 8 * (n - 1 - j) for j in range(n)]  # the lowest bit of cell j's byte
        ff = [0xFF * b for b in self.cell]
        self.ff = ff
        effect = {}
        for cid, card in campaign.cards.items():
            if card.kind is CardKind.POTION:
                effect[cid] = d.potions.get(card.colour)
        self.effect = effect
        self.tele_cells, self.para_cells = [], []
        plain = clear = 0
        for j in range(self.lo, hi):
            card = d.card[j]
            if card.kind is CardKind.POTION:
                e = d.potions.get(card.colour)
                if e == "teleportation":
                    self.tele_cells.append(j)
                elif e == "paralysis":
                    self.para_cells.append(j)
            elif d.kind[j] == PLAIN:
                plain |= self.cell[j]
            elif d.kind[j] in (ENEMY, PICKUP):
                clear |= ff[j]
        self.plain, self.clear, self.clear_twos = plain, clear, clear & (0x02 * sum(self.cell))
        self.hands: dict = {}  # hand -> (potions of teleportation, of paralysis) in it
        self.kept: dict = {}  # (tile, B, landing, teleportation key) -> the cells kept, 0xFF bytes

    def _hand(self, hand) -> tuple[int, int]:
        got = self.hands.get(hand)
        if got is None:
            effects = [self.effect.get(cid) for cid in hand]
            got = self.hands[hand] = (effects.count("teleportation"), effects.count("paralysis"))
        return got

    def _keep(self, pos: int, budget: int, land: int, tele: tuple | None) -> int:
        """The cells kept: those of a walk to the way out within ``budget`` steps, and (``tele`` = (the potions of
        teleportation on cells, those held: 0, 1 or 2 for more), None without any) those within ``land`` of the
        way out, within ``budget`` of the hero with one held, on a walk to each such potion and on from it, every
        cell with two held and ``land`` two steps or more (``abstract_ceiling.relevant``); their neighbours too."""
        dist, toexit, n = self.dist, self.toexit, len(self.toexit)
        here = dist[pos - self.lo]
        stand = [here[i] + toexit[i] <= budget for i in range(n)]
        if tele is not None:
            pots, held = tele
            if held >= 2 and land >= 2:
                stand = [True] * n  # a drink lands anywhere, and a turn before T is left for a walk and a second drink
            for i in range(n):
                if toexit[i] <= land or (held and here[i] <= budget):
                    stand[i] = True  # a landing near the way out; a walk anywhere, then a drink landing on it
            other_any = held or len(pots) > 1
            for p in pots:
                q = p - self.lo
                for i in range(n):
                    if (here[i] + dist[i][q] <= budget or here[q] + dist[q][i] <= budget
                            or (other_any and dist[i][q] <= land)):
                        stand[i] = True
        keep = 0
        ff, lo = self.ff, self.lo
        for i in range(n):
            if stand[i]:
                keep |= ff[lo + i]
                for j in self.neighbours[i]:
                    keep |= ff[lo + j]
        return keep

    def __call__(self, s) -> int:
        """Rewrites ``s`` in place; nonzero when a face changed."""
        faces = s.faces
        held_tele, held_para = self._hand(s.hand)
        if s.phase == CHOOSE_TELEPORT and s.subject == -1:
            held_tele += 1  # drunk, his landing still to choose: as one held
        pots = tuple(j for j in self.tele_cells if faces[j] != CLEARED)
        para_now = 0
        out = self.ff[s.pos]
        foes = s.foes
        if foes:
            for e, f in foes.items():
                if f[2]:
                    para_now += 1
                    out |= self.ff[e]
        extra = 2 * (held_para + sum(1 for j in self.para_cells if faces[j] != CLEARED) + para_now)
        land = 2 * (self.target - 1 - s.turn) + extra
        phase = s.phase
        if phase == STEP1 or phase == CHOOSE_TELEPORT or (phase == COMBAT_PHASE and not s.moved):
            left = 2
        elif phase == MOVING:
            left = s.moves + (1 if s.pure and not s.repeated else 0)
        else:
            left = 0
        tele = (pots, min(held_tele, 2)) if held_tele or pots else None
        key = (s.pos, left + land - self.cut, land, tele)
        keep = self.kept.get(key)
        if keep is None:
            keep = self.kept[key] = self._keep(*key)
        visitors = s.visitors
        if visitors:
            for a, b in visitors.items():
                out |= self.ff[a] | self.ff[b]
        free = ~(keep | out)
        old = int.from_bytes(faces, "big")
        clr = self.clear & free
        new = ((old | (self.plain & free & ~(old >> 1))) & ~clr) | (self.clear_twos & clr)
        if new == old:
            return 0
        faces[:] = new.to_bytes(self.n, "big")
        if foes:
            changed = new ^ old
            for e in [e for e in foes if changed & self.ff[e]]:
                del foes[e]
        if s.draws:
            s.draws = spent_streams_dropped(s)
        return 1


def prove(seed: int, target: int, states: int, plain: bool, show: bool = True, slow: bool = False,
          same: bool = False) -> tuple:
    """(lower bound ``target`` proved, turns of the finish found or None, expanded states); prints the figures.
    ``slow``: the first rewriting (:func:`rewrite`) instead of :class:`Region`; ``same``: both, every state
    rewritten by each (the slow one on a copy) and the results compared (a difference is printed and counted)."""
    campaign = load_campaign_text(campaign_text(1, 8, seed=seed)).campaign
    CARDS.clear()
    CARDS.update(campaign.cards)
    search = Search(campaign, 0, True, Budget(max_states=states, max_seconds=NO_CLOCK))
    d = search.d
    lo, hi = d.level_range[0]
    dist = grid_distances(d, lo, hi)
    exits = [j for j in range(lo, hi) if d.exit[j]]
    relax = search.relax
    region = Region(campaign, d, target)
    rewritten = [0, 0]  # states rewritten, states where the two rewritings differ
    changed: set = set()  # ids of the children rewritten (their parent's mask is not theirs)

    def canonical(s) -> None:
        if same:
            twin = s.clone()
            rewrite(twin, target, d, lo, dist, exits)
        hit = rewrite(s, target, d, lo, dist, exits) if slow else region(s)
        if same and (twin.key() != s.key()):
            rewritten[1] += 1
            if rewritten[1] <= 5:
                print(f"  DIFFERENT at turn {s.turn}, tile {s.pos}: {bytes(twin.faces).hex()} / {bytes(s.faces).hex()}")
        if hit:
            rewritten[0] += 1
            if len(changed) > 4096:
                changed.clear()
            changed.add(id(s))

    if not plain:
        admit = search.fronts.admit

        def admit_canonical(s, faces=None):
            canonical(s)
            return admit(s)

        search.fronts.admit = admit_canonical
        bound = relax.bound_masked
        mask = relax.mask

        def bound_rewritten(s, cm, m, hint=None):
            # A child whose faces the rewriting changed has its own mask; every other has its parent's as the search
            # computed it (the parent was rewritten before it was stored).
            return bound(s, cm, mask(s) if id(s) in changed else m, hint)

        relax.bound_masked = bound_rewritten
        canonical(search.root)  # before its bound and mask are read: they are the rewritten root's
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
          f"rewritten {rewritten[0]:,} states{f', {rewritten[1]:,} differ' if same else ''}; cpu {time.process_time() - t0:.1f}s")
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


def witnesses(seeds: range, states: int, cut: int = 0) -> int:
    """The par line of every map solved within ``states``, replayed with every state rewritten for ``T`` = par + 1,
    par + 2 and par + 3 (as the prototype's search rewrites every state it admits): each must still be legal and
    finish at par. A line lost is a rewrite that is not sound. ``cut``: the steps budgets cut by that much (a
    rewriting known to be wrong, to see that the test can fail)."""
    lost = checked = 0
    for seed in seeds:
        campaign = load_campaign_text(campaign_text(1, 8, seed=seed)).campaign
        r = solve_campaign(campaign, Budget(max_states=states, max_seconds=NO_CLOCK), per_level=False)
        if r.verdict != "solved":
            continue
        for target in (r.turns + 1, r.turns + 2, r.turns + 3):
            s = GameState.new(campaign, 0, log=False)
            resolver = FatedResolver(campaign)
            s.resolve(resolver)
            region = Region(campaign, s.d, target, cut=cut)
            cells = region(s)
            try:
                for a in r.actions:
                    s.step(a, resolver)
                    cells += region(s)
                ok = s.outcome == WON and s.turn == r.turns
                why = f"outcome {s.outcome}, turn {s.turn}"
            except ActionError as err:
                ok, why = False, str(err)
            checked += 1
            if not ok:
                lost += 1
                print(f"  LOST: seed {seed} par {r.turns}, T {target}: {why}")
            elif target == r.turns + 1:
                print(f"  seed {seed} par {r.turns}: kept ({cells} states rewritten along it, T = par + 1)")
    print(f"witnesses: {checked} lines checked, {lost} lost")
    return 1 if lost else 0


def main() -> int:
    try:
        if sys.argv[1] == "witnesses":
            lo, hi = (int(x) for x in sys.argv[2].split("-"))
            return witnesses(range(lo, hi + 1), int(sys.argv[3]) if len(sys.argv) > 3 else 20_000,
                             int(sys.argv[4]) if len(sys.argv) > 4 else 0)
        if sys.argv[1] == "check":
            lo, hi = (int(x) for x in sys.argv[2].split("-"))
            return check(range(lo, hi + 1), int(sys.argv[3]) if len(sys.argv) > 3 else 20_000)
        seed, target = int(sys.argv[1]), int(sys.argv[2])
        states = int(sys.argv[3]) if len(sys.argv) > 3 else 200_000
        how = sys.argv[4] if len(sys.argv) > 4 else "fast"
        if how not in ("main", "fast", "slow", "same"):
            raise ValueError(how)
    except (IndexError, ValueError):
        print("usage: python benchmarks/relevance_proof.py SEED T [STATES] [main|fast|slow|same] | "
              "check|witnesses FIRST-LAST [STATES]",
              file=sys.stderr)
        return 2
    prove(seed, target, states, how == "main", slow=how == "slow", same=how == "same")
    return 0


if __name__ == "__main__":
    sys.exit(main())
