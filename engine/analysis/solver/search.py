"""The A* loop: best-first on ``turn + h``, with the health tiebreak among minimum-turn finishes."""

from __future__ import annotations

import gc
import heapq
import threading
import time
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field

from ...chance.resolvers import FatedResolver
from ...model.campaign import DIRECTION_INDEX, Campaign
from ...rules.actions import Action
from ...rules.state import DEAD, WON, GameState
from ...rules.tables import CLEARED, ENEMY, TRAP
from .bounds import HealthCeiling, relaxation
from .dominance import ExactTable, Fronts
from .packing import cleared_bits, left_behind, merge_ranges
from .result import INF, SOLVED, UNKNOWN, UNSOLVABLE, Budget


@contextmanager
def collector_paused():
    """Pause Python's cyclic garbage collector for the duration of a search.

    A search allocates hundreds of thousands of states, tuples and lists, none of them in
    reference cycles, and keeps most of them alive (the heap, the fronts): the collector's
    passes over that growing heap find nothing and cost a fifth of the search's time
    (benchmarks/RESULTS.md). Reference counting still frees everything as usual.

    On the way out, what the search left alive is moved to the oldest generation (freeze, then
    unfreeze) rather than left in the youngest, whose next collection would scan all of it at
    once; the oldest is collected on the collector's usual schedule.

    The collector is the whole process's, so only a search on the main thread (the CLI, the
    benchmarks) pauses it; a search in a worker thread, like the editor's, runs with it as it is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield  # the collector is process-wide: a search in a worker (the editor's F6) leaves it to the app
        return
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if gc.get_freeze_count() == 0:  # never undo a freeze made by someone else
            gc.freeze()
            gc.unfreeze()
        if enabled:
            gc.enable()


@dataclass
class Trace:
    """What an exhausted search saw, to explain an unsolvable verdict."""

    deaths: Counter = field(default_factory=Counter)  # cause -> count
    slain: set = field(default_factory=set)  # enemy cells slain in some state
    foe_low: dict = field(default_factory=dict)  # enemy cell -> least health it was left with
    goals_met: set = field(default_factory=set)  # levels whose goals were met in some state
    deepest: int = 0
    max_gold: int = 0


class Search:
    """A* over engine states. ``reference=True`` turns the heuristic and dominance off (uniform-cost
    search with an exact-key table): slow, obviously correct, for cross-checking the fast search."""

    def __init__(self, campaign: Campaign, level: int, campaign_mode: bool, budget: Budget,
                 reference: bool = False) -> None:
        self.campaign, self.level, self.campaign_mode, self.budget = campaign, level, campaign_mode, budget
        self.reference = reference
        self.resolver = FatedResolver(campaign)
        self.root = GameState.new(campaign, level, log=False)
        self.root.resolve(self.resolver)
        self.d = self.root.d
        self.relax = relaxation(campaign, self.d)
        self.fronts = ExactTable() if reference else Fronts(campaign)
        self.trace = Trace(deepest=level)
        self.expanded = self.generated = 0
        self.seconds = self.turns_seconds = 0.0
        self.forget = left_behind(self.d)
        self.ceiling = HealthCeiling(campaign, self.d, self.relax.health_cap, self.forget, campaign_mode)
        if reference:
            self.forget = ((),) * len(self.forget)

    def finish_turn(self, s: GameState) -> int | None:
        """The turn in which ``s`` finished the task (None: not finished)."""
        if s.outcome == WON:
            return s.turn
        if not self.campaign_mode and s.level != self.level:
            return s.turn - 1  # the ladder was taken in the turn before the new level's first
        return None

    def run(self) -> tuple[str, object, int | None, int | None, bool]:
        """(verdict, witness node id, turns, health, health exact)."""
        with collector_paused():
            return self._run()

    def _run(self) -> tuple[str, object, int | None, int | None, bool]:
        start = time.perf_counter()
        deadline = start + self.budget.max_seconds
        relax, fronts, resolver, trace, d = self.relax, self.fronts, self.resolver, self.trace, self.d
        cm = self.campaign_mode
        root = self.root
        bound = _no_bound if self.reference else relax.bound_masked
        ceiling = _no_ceiling if self.reference else self.ceiling.bound
        mask = relax.mask
        m0 = mask(root)
        h0 = bound(root, cm, m0)
        self.parents: list = [(-1, None)]
        if h0 == INF:
            return UNSOLVABLE, None, None, None, True
        entry = fronts.admit(root)
        # Heap entries: (f, h, -health, node, state, front entry, the state's face-down mask for its children's hint).
        heap = [(root.turn + h0, h0, -root.health, 0, root, entry, m0)]
        best = None  # (turns, health, node)
        counter = 0
        level_enemies = [j for j in range(len(d.cells)) if d.kind[j] == ENEMY]
        # Enemies not yet seen slain in an admitted state, and their cells as bits of the faces read as one integer.
        unslain = [e for e in level_enemies if e not in trace.slain]
        unslain_bits = cleared_bits(unslain, len(d.cells))
        goal_levels = [li for li in range(len(d.goals)) if d.goals[li]]
        max_states = self.budget.max_states
        exhausted = True
        finish_turn = self.finish_turn
        resets = merge_ranges(self.forget)
        forgotten = tuple(frozenset(j for lo, hi, _ in ranges for j in range(lo, hi)) for ranges in self.forget)
        parents = self.parents
        admit = fronts.admit
        heappush, heappop = heapq.heappush, heapq.heappop
        low = trace.foe_low
        expanded = generated = 0
        while heap:
            f, h, neg_health, node, s, entry, hint = heappop(heap)
            if not entry[4]:
                continue
            s_faces = entry[5]  # bytes(s.faces), made when s was admitted
            if best is not None and f > best[0]:
                break
            done = finish_turn(s)
            if done is not None:
                if best is None:
                    self.turns_seconds = time.perf_counter() - start
                if best is None or -neg_health > best[1]:
                    best = (done, -neg_health, node)
                    if best[1] >= relax.health_cap:
                        break
                continue
            if best is not None and ceiling(s, best[0]) <= best[1]:
                continue  # the tiebreak: this line cannot end with more health
            if expanded >= max_states or (expanded & 255 == 0 and time.perf_counter() > deadline):
                exhausted = False
                break
            expanded += 1
            if goal_levels and s.level not in trace.goals_met and d.goals[s.level] and s.goals_met():
                trace.goals_met.add(s.level)
            level = s.level
            for action in s.legal_actions():
                c = s.clone()
                c.advance(action, resolver)
                generated += 1
                if c.outcome == DEAD:
                    self._note_death(s, c, action)
                    continue
                reset = resets[c.level]
                if reset:
                    faces = c.faces
                    for lo, hi, initial in reset:
                        faces[lo:hi] = initial
                    draws = c.draws
                    if draws:
                        gone = forgotten[c.level]
                        if any(cell in gone for cell, _ in draws):
                            c.draws = tuple(p for p in draws if p[0] not in gone)
                if c.level > trace.deepest:
                    trace.deepest = c.level
                if c.foes:
                    for e, foe in c.foes.items():
                        if foe[0] < low.get(e, INF):
                            low[e] = foe[0]
                if c.gold > trace.max_gold:
                    trace.max_gold = c.gold
                new_faces = c.faces != s_faces
                e_entry = admit(c, None if new_faces else s_faces)  # unchanged faces: no new bytes to hash
                if e_entry is None:
                    continue
                fin = finish_turn(c)
                if fin is not None:
                    ch, fc, mc = 0, fin, None
                else:
                    # Only a flip turns a card face up (tests/test_engine_properties.py), so any other
                    # action on the same level leaves the parent's mask (and its cached hash) as it was.
                    same_level = c.level == level
                    mc = hint if same_level and action.verb != "flip" else mask(c)
                    ch = bound(c, cm, mc, hint if same_level else None)
                    if ch == INF:
                        continue
                    fc = c.turn + ch
                # Enemies seen slain in a state the search keeps, for an unsolvable verdict's reason. A
                # state whose faces equal its parent's is covered by the parent (the root has none cleared).
                if new_faces and unslain_bits and int.from_bytes(e_entry[5], "big") & unslain_bits:
                    for e in unslain:
                        if c.faces[e] == CLEARED:
                            trace.slain.add(e)
                    unslain = [e for e in unslain if e not in trace.slain]
                    unslain_bits = cleared_bits(unslain, len(d.cells))
                counter += 1
                parents.append((node, action))
                heappush(heap, (fc, ch, -c.health, counter, c, e_entry, mc))
        self.expanded, self.generated = expanded, generated
        self.seconds = time.perf_counter() - start
        if best is not None:
            health_exact = exhausted or (heap != [] and heap[0][0] > best[0]) or best[1] >= relax.health_cap
            return SOLVED, best[2], best[0], best[1], health_exact
        return (UNSOLVABLE if exhausted else UNKNOWN), None, None, None, True

    def _note_death(self, s: GameState, c: GameState, action: Action) -> None:
        foes = [e for _, e in s.adjacent_enemies()] or [e for _, e in c.adjacent_enemies()]
        if foes:
            for e in foes:
                self.trace.deaths[("enemy", e)] += 1
            return
        target = c.pos
        if action.verb == "flip":
            target = self.d.flip_to[s.pos][DIRECTION_INDEX[action.arg]]
        if self.d.kind[target] == TRAP:
            self.trace.deaths[("trap", target)] += 1
        else:
            self.trace.deaths[("other", c.pos)] += 1

    def actions(self, node: int) -> list[str]:
        out = []
        while node > 0:
            node, action = self.parents[node]
            out.append(str(action))
        return out[::-1]



def _no_bound(s: GameState, campaign_mode: bool, mask=None, hint=None) -> int:
    return 0



def _no_ceiling(s: GameState, finish: int) -> float:
    return INF

