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
from ...rules.phases import COMBAT, DEAD, WON
from ...rules.state import GameState
from ...rules.tables import CLEARED, ENEMY, PICKUP, PLAIN, TRAP
from ..gold import GoldCount, has_buy_goals
from .bounds import relaxation
from .ceiling import HealthCeiling
from .budget import Budget, Deadline
from .dominance import ExactTable, Fronts
from .packing import (FACES, cleared_bits, left_behind, merge_ranges, pack, resident_bytes, spent_streams_dropped,
                      unpack)
from .purse import Purse
from .result import INF, SOLVED, UNKNOWN, UNSOLVABLE, Progress

REPORT_EVERY = 0.2  # seconds between two progress reports
CEILING_SECONDS = 0.5  # the most a cut tiebreak spends bounding what it left open


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


Address = tuple[int, int, int]  # a cell of the campaign: level index, x, y


@dataclass(frozen=True)
class Findings:
    """What an exhausted search saw (its :class:`Trace`), each cell named by its address: what
    :mod:`.explain` reads, in the campaign model's terms."""

    deaths: Counter  # (cause, address) -> lines of play ending so; cause "enemy", "trap" or "other"
    slain: frozenset[Address]  # enemies slain in some state the search kept
    foe_low: dict[Address, int]  # enemy -> the least health any line of play left it with
    goals_met: frozenset[int]  # levels whose goals were met in some state
    deepest: int  # the deepest level reached
    max_gold: int  # the most gold ever held


class Search:
    """A* over engine states. ``reference=True`` turns the heuristic and dominance off (uniform-cost
    search with an exact-key table): slow, obviously correct, for cross-checking the fast search.

    The search runs in two stages. Until the first finish is popped it looks for the par's turns
    (A* on ``turn + h``); that finish proves them, and is the witness. Then the health tiebreak
    keeps popping states with ``f = par`` whose health ceiling beats the best finish so far, on its
    own share of the budget (``Budget.health_seconds``). A cut tiebreak leaves ``health_ceiling``,
    a sound upper bound on the health any minimum-turn finish can have, and ``unproven``, the open
    lines that might still reach more than the best finish.

    ``gold=False`` turns the purse test off (:mod:`.purse`: states whose gold can no longer pay the buy
    goals ahead are cut), to measure it.
    """

    def __init__(self, campaign: Campaign, level: int, campaign_mode: bool, budget: Budget,
                 reference: bool = False, deadline: Deadline | None = None, progress=None, gold: bool = True) -> None:
        self.campaign, self.level, self.campaign_mode, self.budget = campaign, level, campaign_mode, budget
        self.deadline = deadline or budget.start()
        self.progress = progress
        self.reference = reference
        self.resolver = FatedResolver(campaign)
        self.root = GameState.new(campaign, level, log=False)
        self.root.resolve(self.resolver)
        self.d = self.root.d
        self.relax = relaxation(campaign, self.d)
        self.fronts = ExactTable() if reference else Fronts(campaign, self.d)
        self.trace = Trace(deepest=level)
        self.expanded = self.generated = self.stored = 0
        self.seconds = self.turns_seconds = 0.0
        self.stop_reason = ""  # why the search stopped early: "time", "states" or "memory" ("": it did not)
        self.memory = 0  # bytes the process grew by during the search (resident set)
        self.health_ceiling: int | None = None
        self.unproven = 0
        # Stopped with no finish: the least ``turn + h`` of the lines left open; no finish comes sooner.
        self.turns_at_least: int | None = None
        self.heap: list = []  # the open lines when the search stopped (for a ceiling read later)
        self.forget = left_behind(self.d)
        self.ceiling = HealthCeiling(campaign, self.d, self.relax.health_cap, self.forget, campaign_mode)
        if reference:
            self.forget = ((),) * len(self.forget)
        # The gold test (docs/solver.md, *Gold*): only where a buy goal is, never in the reference search
        # (``gold=False`` turns it off, to measure it).
        self.purse = (Purse(GoldCount(campaign), self.d, campaign_mode)
                      if gold and not reference and has_buy_goals(campaign) else None)
        self.purse_cuts = 0  # states cut because their gold cannot pay the buy goals ahead

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

    def _report(self, stage: str, expanded: int, generated: int, best) -> None:
        if self.progress is not None:
            turns, health, node = best if best is not None else (None, None, 0)
            self.progress(Progress(stage, expanded, generated, self.deadline.elapsed(), turns, health,
                                   tuple(self.actions(node)) if stage == "health" and node else ()))

    def _run(self) -> tuple[str, object, int | None, int | None, bool]:
        start = time.perf_counter()
        # Until a finish is found, a share of the time is kept for looking for any finish should the
        # search stop (``Budget.find_share``, :mod:`.dive`); the health tiebreak may use all that is left.
        stage_deadline = self.deadline if self.reference else self.deadline.short_of(
            self.budget.find_share * self.budget.max_seconds)
        rss0 = resident_bytes()
        max_memory = self.budget.max_memory
        next_report = start + REPORT_EVERY
        relax, fronts, resolver, trace, d = self.relax, self.fronts, self.resolver, self.trace, self.d
        cm = self.campaign_mode
        root = self.root
        bound = _no_bound if self.reference else relax.bound_masked
        ceiling = _no_ceiling if self.reference else self.ceiling.bound
        mask = relax.mask
        m0 = mask(root)
        h0 = bound(root, cm, m0)
        self.parents: list = [(-1, None)]
        if h0 == INF or (self.purse is not None and self.purse.short(root)):
            return UNSOLVABLE, None, None, None, True
        entry = fronts.admit(root)
        # Heap entries: (f, h, -health, node, packed state, front entry, the state's face-down mask for its
        # children's hint). The state is kept packed with its signature, the front entry's (packing.pack),
        # and rebuilt when popped.
        heap = [(root.turn + h0, h0, -root.health, 0, pack(root, entry[5]), entry, m0)]
        best = None  # (turns, health, node)
        counter = 0
        level_enemies = [j for j in range(len(d.cells)) if d.kind[j] == ENEMY]
        # Enemies not yet seen slain in an admitted state, and their cells as bits of the faces read as one integer.
        unslain = [e for e in level_enemies if e not in trace.slain]
        unslain_bits = cleared_bits(unslain, len(d.cells))
        goal_levels = [li for li in range(len(d.goals)) if d.goals[li]]
        max_states = self.budget.max_states
        exhausted = True
        start_level = self.level
        resets = merge_ranges(self.forget)
        resets_any = any(resets) or len(resets) > 1  # a level to forget, or a level to reach (trace.deepest)
        drop_spent = not self.reference  # the reference search keeps every stream's count (the engine's own key)
        deepest, max_gold = trace.deepest, trace.max_gold
        par = INF  # the turns of the first finish, once popped
        unqueued = 0  # states admitted to the table but never queued (past par)
        forgotten = tuple(frozenset(j for lo, hi, _ in ranges for j in range(lo, hi)) for ranges in self.forget)
        parents = self.parents
        actions_seen: dict = {}  # one Action object per distinct action, shared by every parents entry
        admit = fronts.admit
        heappush, heappop = heapq.heappush, heapq.heappop
        low = trace.foe_low
        expanded = generated = 0
        reference = self.reference
        quiet = tuple(k == PLAIN or k == PICKUP for k in d.kind)
        short = self.purse.short if self.purse is not None else None
        purse_cuts = 0
        self._report("turns", 0, 0, None)
        while heap:
            f, h, neg_health, node, packed, entry, hint = heappop(heap)
            if not entry[4]:
                continue
            s_faces = entry[5][FACES]  # bytes(s.faces), made when s was admitted (in its signature)
            if f > par:
                break
            s = unpack(packed, d)
            done = s.turn if s.outcome == WON else s.turn - 1 if not cm and s.level != start_level else None  # finish_turn
            if done is not None:
                if best is None:
                    self.turns_seconds = time.perf_counter() - start
                    # The turns are proven: the tiebreak runs on its own share of what is left.
                    stage_deadline = self.deadline.within(self.budget.health_seconds)
                if best is None or -neg_health > best[1]:
                    best = (done, -neg_health, node)
                    par = done
                    if best[1] >= relax.health_cap:
                        break
                    self._report("health", expanded, generated, best)
                continue
            if best is not None and ceiling(s, best[0]) <= best[1]:
                continue  # the tiebreak: this line cannot end with more health
            if expanded & 15 == 0 and stage_deadline.expired():
                # The clock every 16 expansions (one expansion of a huge level is slow); the
                # memory and the progress report once per 256.
                self.stop_reason = "time"
            elif expanded & 255 == 0:
                if max_memory is not None and resident_bytes() - rss0 > max_memory:
                    self.stop_reason = "memory"
                elif self.progress is not None and time.perf_counter() > next_report:
                    next_report = time.perf_counter() + REPORT_EVERY
                    self._report("turns" if best is None else "health", expanded, generated, best)
            if expanded >= max_states:
                self.stop_reason = "states"
            if self.stop_reason:
                exhausted = False
                heappush(heap, (f, h, neg_health, node, packed, entry, hint))  # still open
                break
            expanded += 1
            if goal_levels and s.level not in trace.goals_met and d.goals[s.level] and s.goals_met():
                trace.goals_met.add(s.level)
            level = s.level
            fighting = s.phase == COMBAT and not s.pure and not reference
            actions = _forced_flip(s, quiet) if fighting else s.legal_actions()
            last = len(actions) - 1
            if short is not None:
                # The purse falls only when the gold, the hand, the equipment card or the stock bought
                # change, or the level does (purse.py): a child with none of them changed is not tested.
                p_gold, p_hand, p_equip, p_bought = s.gold, s.hand, s.equip, s.bought
            children = []
            for k, action in enumerate(actions):
                # The last child is the popped state itself (it is not read again): one clone fewer.
                c = s.clone() if k < last else s
                c.advance(action, resolver)
                generated += 1
                if c.foes:  # before a death too: a blow that wounds the enemy and then loses the fight counts
                    for e, foe in c.foes.items():
                        if foe[0] < low.get(e, INF):
                            low[e] = foe[0]
                if c.outcome == DEAD:
                    self._note_death(unpack(packed, d) if c is s else s, c, action)
                    continue
                if resets_any:
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
                    if c.level > deepest:
                        deepest = c.level
                if c.gold > max_gold:
                    max_gold = c.gold
                new_faces = c.faces != s_faces
                if new_faces and drop_spent and c.draws:
                    c.draws = spent_streams_dropped(c)  # a stream no rule reads again (docs/solver.md)
                e_entry = admit(c, None if new_faces else s_faces)  # unchanged faces: no new bytes to hash
                if e_entry is None:
                    continue
                # finish_turn(c), inlined
                fin = c.turn if c.outcome == WON else c.turn - 1 if not cm and c.level != start_level else None
                if fin is None and (short is not None and (c.level != level or c.hand is not p_hand or c.gold < p_gold
                                                            or c.bought is not p_bought or c.equip is not p_equip)
                                    and short(c)):
                    purse_cuts += 1
                    continue  # its gold can no longer pay the buy goals ahead: no finish below it
                children.append((c, action, e_entry, fin, new_faces))
            # The bound of each child admitted, once all of them are: one that a later sibling dominates (its entry
            # retired) is never expanded, and needs its bound only where it shows an enemy slain first (docs/solver.md,
            # *Speed*). The children are read in the order they were made, so the queue's order is the same.
            for c, action, e_entry, fin, new_faces in children:
                shows = (new_faces and unslain_bits and int.from_bytes(e_entry[5][FACES], "big") & unslain_bits)
                if not e_entry[4] and not shows:
                    continue
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
                    if fc > par:
                        unqueued += 1
                        continue  # the tiebreak pops nothing past par: admitted (it may dominate), never queued
                # Enemies seen slain in a state the search keeps, for an unsolvable verdict's reason. A
                # state whose faces equal its parent's is covered by the parent (the root has none cleared).
                if shows:
                    for e in unslain:
                        if c.faces[e] == CLEARED:
                            trace.slain.add(e)
                    unslain = [e for e in unslain if e not in trace.slain]
                    unslain_bits = cleared_bits(unslain, len(d.cells))
                if not e_entry[4]:
                    continue  # (retired by a sibling: never queued)
                counter += 1
                parents.append((node, actions_seen.setdefault(action, action)))
                heappush(heap, (fc, ch, -c.health, counter, pack(c, e_entry[5]), e_entry, mc))
        self.expanded, self.generated, self.stored = expanded, generated, counter + 1 + unqueued
        self.purse_cuts = purse_cuts
        trace.deepest, trace.max_gold = deepest, max_gold
        self.memory = max(0, resident_bytes() - rss0)
        self.seconds = time.perf_counter() - start
        self.heap = heap if best is None and not exhausted else []  # read only when no finish was found
        if best is None and not exhausted:
            open_f = [e[0] for e in heap if e[5][4]]
            self.turns_at_least = int(min(open_f)) if open_f else None
        if best is not None:
            health_exact = exhausted or not self.stop_reason or best[1] >= relax.health_cap
            if not health_exact:
                self.health_ceiling, self.unproven = self.open_ceiling(heap, best)
                health_exact = self.unproven == 0
            return SOLVED, best[2], best[0], best[1], health_exact
        return (UNSOLVABLE if exhausted else UNKNOWN), None, None, None, True

    def open_ceiling(self, heap: list, best: tuple) -> tuple[int, int]:
        """(a sound upper bound on the health of any minimum-turn finish, open lines that may beat the best).

        Every finish in ``best[0]`` turns comes from a state still open with ``f = best[0]``: the most
        any of them can reach is the largest health ceiling among them. Reading them all is bounded:
        past ``CEILING_SECONDS`` the static cap (the most health the hero can ever have) stands in.
        """
        turns, health, _ = best
        cap = self.relax.health_cap
        top, unproven = health, 0
        until = time.perf_counter() + CEILING_SECONDS
        d, ceiling, finish_turn = self.d, self.ceiling.bound, self.finish_turn
        for i, (f, _, neg_health, _, packed, entry, _) in enumerate(heap):
            if f > turns or not entry[4]:
                continue
            if i & 255 == 0 and time.perf_counter() > until:
                return cap, sum(1 for e in heap if e[0] <= turns and e[5][4] and -e[2] < cap)
            s = unpack(packed, d)
            most = -neg_health if finish_turn(s) is not None else ceiling(s, turns)
            if most > health:
                unproven += 1
                top = max(top, most)
        return min(top, cap), unproven

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

    def findings(self) -> Findings:
        """The trace with every cell as its address (the search keeps cells as compiled indices)."""
        d, trace = self.d, self.trace

        def at(j: int) -> Address:
            return (d.level_of[j], *d.pos_of[j])

        return Findings(deaths=Counter({(cause, at(j)): n for (cause, j), n in trace.deaths.items()}),
                        slain=frozenset(map(at, trace.slain)), foe_low={at(j): n for j, n in trace.foe_low.items()},
                        goals_met=frozenset(trace.goals_met), deepest=trace.deepest, max_gold=trace.max_gold)

    def actions(self, node: int) -> list[str]:
        return line_to(self.parents, node)


def line_to(parents: list, node: int) -> list[str]:
    """The actions from the start to ``node``, read back through ``parents`` ((parent node, action) per node)."""
    out = []
    while node > 0:
        node, action = parents[node]
        out.append(str(action))
    return out[::-1]



def _forced_flip(s: GameState, quiet: tuple) -> list[Action]:
    """The actions worth trying in a fight once the double move is forfeit (docs/solver.md, *Forced
    flips*): a flip of a face-down pathing tile or item, alone, when there is one; else every legal action.

    Such a flip in combat only reveals the card (no enemy acts on it) and costs nothing more: the state
    after it has every option of the state before (a tile face up is at least as open as one face
    down), so the search need not try the other actions first, nor the flips in every order.
    """
    legal = s.legal_actions()
    flip_to = s.d.flip_to[s.pos]
    for action in legal:
        if action.verb == "flip" and quiet[flip_to[DIRECTION_INDEX[action.arg]]]:
            return [action]
    return legal


def _no_bound(s: GameState, campaign_mode: bool, mask=None, hint=None) -> int:
    return 0



def _no_ceiling(s: GameState, finish: int) -> float:
    return INF

