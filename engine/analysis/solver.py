"""Par: the fewest turns that finish a level or the campaign under its fated dice (DESIGN: Par).

Under fated dice the game is deterministic given the player's actions (every
chance point is answered from the card's own stream), so par is a shortest-path
problem over engine states. :func:`solve_campaign` and :func:`solve_level` run
A* (best-first on ``turn + h``):

* **cost** -- ``state.turn`` at the finishing state (the exit reached, or for one
  level the descending ladder taken); among minimum-turn finishes the one with
  the most health left wins (DESIGN: Score).
* **heuristic** -- :class:`Relaxation`: an admissible lower bound on the turns
  still to come, from the level graph (steps per turn, face-down cells entered
  per turn, ladders still to take). ``docs/solver.md`` gives the argument.
* **transposition and dominance** -- states are merged on a signature: the
  engine's ``key()`` without turn, health, gold and the "inert" cards in hand.
  A state is pruned when another with the same signature has no more turns, no
  less health, no less gold and every inert card it holds (see :class:`Fronts`).

Verdicts are honest: ``solved`` comes with a witness replay that
:func:`~.replay.verify_replay` accepts; ``unsolvable`` only from a static proof
(the level graph) or an exhausted search; ``unknown`` when the budget runs out.
"""

from __future__ import annotations

import gc
import heapq
import threading
import time
from collections import Counter, deque
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from operator import itemgetter

from ..chance.resolvers import FatedResolver
from ..format.diagnostics import Diagnostic, Severity
from ..model.campaign import Campaign, CardKind
from ..records.replay import Recorder, verify_replay
from ..rules.actions import Action
from ..rules.mobility import obtainable_cards, wall_crossings
from ..rules.state import CHOOSE_TELEPORT, COMBAT, DEAD, MOVING, SHOPPING, STEP1, WON, GameState
from ..rules.tables import CLEARED, DOWN, ENEMY, FOUNTAIN_TILE, LADDER, TRAP, UP
from .graph import analyse_campaign, hero_graph

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


# ---------------------------------------------------------------------------------------- the relaxation


class Relaxation:
    """Admissible lower bounds on the turns left, from the level graph (see ``docs/solver.md``).

    Per turn the hero takes at most ``S`` steps (a step = entering a tile by a move,
    a flee or a relocation) and enters at most ``K`` tiles that were face down when
    the turn began. Distances are taken in a relaxed graph that ignores enemies,
    chests and goals (and walls too when the hero could relocate through them).
    """

    def __init__(self, campaign: Campaign, d) -> None:
        self.d = d
        cards = campaign.cards
        seen = obtainable_cards(campaign)
        # Every copy counts: two artifacts of +1 MOVEMENT (or of +X TO MAX HEALTH) in hand add up.
        abilities = [(cards[c], a) for c in seen if c in cards for a in cards[c].abilities]
        character = d.character
        movement = sum(a.x or 0 for card, a in abilities if a.kind == "movement" and (a.x or 0) > 0)
        potions = {cards[c].colour for c in seen if c in cards and cards[c].kind is CardKind.POTION}
        effects = {d.potions.get(colour) for colour in potions}
        crossings = wall_crossings(campaign)
        self.teleport = "teleport" in crossings
        self.reloc = int(bool(crossings))
        cannot = any(a.kind == "cannot-flee" for a in character.abilities)
        can_flee = (not cannot or any(a.kind == "can-flee" for _, a in abilities)
                    or any(a.kind == "does-not-chase" for _, a in abilities) or "paralysis" in effects)
        self.flee = _flee_chain(d) if can_flee else 0
        self.mv = movement
        per_move_turn = 1 + movement
        self.v10 = d.v10
        self.S = (per_move_turn if d.v10 else 2 * per_move_turn) + self.flee + self.reloc
        self.K = 1 + movement // 2 + self.flee + self.reloc
        self.health_cap = d.base_max_health + sum(
            a.x for card, a in abilities if a.kind == "max-health" and (a.x or 0) > 0)
        # The relaxed graph: ADJACENT TILEs; any orthogonal neighbour when the hero can relocate.
        nb = d.grid_to if self.reloc else d.adjacent
        self.nbrs = tuple(tuple(j for j in row if j >= 0) for row in nb)
        self.local = tuple(tuple(tuple(j - lo for j in self.nbrs[i]) for i in range(lo, hi)) for lo, hi in d.level_range)
        self.levels = len(campaign.levels)
        self.ways = []  # per level: ways out (cell, level it leads to or -1 for an exit)
        self.dist = []  # per level: per way out, static step distances indexed by global cell
        for li in range(self.levels):
            lo, hi = d.level_range[li]
            ways = [(j, -1) for j in range(lo, hi) if d.exit[j]]
            ways += [(j, d.ladder_to[j]) for j in range(lo, hi) if d.kind[j] == LADDER and d.ladder_to[j] >= 0]
            self.ways.append(tuple(ways))
            self.dist.append(tuple(self._bfs(w, lo, hi) for w, _ in ways))
        self._down = bytes.maketrans(bytes([DOWN, UP, CLEARED]), b"\x01\x00\x00")
        self._fcache: dict = {}
        self._bcache: dict = {}  # (level, mask, local cell, steps left, face-down entries left, campaign) -> bound
        self._rcache: dict = {}  # (level, mask, local cell, campaign) -> routes
        self.start_bound = self._start_bounds()

    def _bfs(self, w: int, lo: int, hi: int) -> list:
        dist = [INF] * (hi - lo)
        dist[w - lo] = 0
        queue = deque([w])
        nbrs = self.nbrs
        while queue:
            i = queue.popleft()
            di = dist[i - lo] + 1
            for j in nbrs[i]:
                if dist[j - lo] > di:
                    dist[j - lo] = di
                    queue.append(j)
        return dist

    def face_down_counts(self, level: int, down: bytes, hint: bytes | None = None) -> tuple:
        """Per way out w, ``enter[i]``: the fewest face-down tiles entered on a route that enters local cell i
        and goes on to w (a 0-1 BFS). ``down`` marks the level's face-down cells.

        ``hint``, the mask of a state this one came from, lets the arrays be updated rather than rebuilt:
        faces only ever turn up, so the counts only fall, starting at the tiles flipped since.
        """
        key = (level, down)
        hit = self._fcache.get(key)
        if hit is not None:
            return hit
        base = self._fcache.get((level, hint)) if hint is not None else None
        flipped = _flipped(hint, down) if base is not None else None
        if flipped is None:
            hit = tuple(self._full_counts(level, down, k) for k in range(len(self.ways[level])))
        else:
            hit = tuple(self._lower_counts(level, down, list(enter), flipped) for enter in base)
        if len(self._fcache) > 200_000:
            self._fcache.clear()
        self._fcache[key] = hit
        return hit

    def _full_counts(self, level: int, down: bytes, k: int) -> list:
        w = self.ways[level][k][0] - self.d.level_range[level][0]
        enter = [INF] * len(self.local[level])
        enter[w] = down[w]
        return _propagate(self.local[level], down, enter, deque([w]))

    def _lower_counts(self, level: int, down: bytes, enter: list, flipped: list) -> list:
        queue = deque()
        for c in flipped:
            if enter[c] != INF:
                enter[c] -= 1  # its own face-down tile no longer counts; the rest of its best route is unchanged
                queue.append(c)
        return _propagate(self.local[level], down, enter, queue)

    def _count_at(self, level: int, enter: list, k: int, i: int) -> float:
        """Face-down tiles entered on the best route from local cell i to way out k (i itself not counted)."""
        if i == self.ways[level][k][0] - self.d.level_range[level][0]:
            return 0
        return min((enter[j] for j in self.local[level][i]), default=INF)

    def _term(self, d: float, f: float, r: int, k_now: int) -> float:
        """Turns after this one needed to cover ``d`` steps and ``f`` face-down tiles (``r``, ``k_now`` left now)."""
        if self.teleport:
            d, f = min(d, 1), min(f, 1)
        if d == INF or f == INF:
            return INF
        steps = 0 if d <= r else -(-(d - r) // self.S)
        downs = 0 if f <= k_now else -(-(f - k_now) // self.K)
        return max(steps, downs)

    def _start_bounds(self) -> list:
        """Turns from the first turn on each level's starting tile to winning the campaign (Bellman-Ford)."""
        d = self.d
        bound = [INF] * self.levels
        # With ladder cycles a level may be revisited with other faces: only its step bound holds.
        cyclic = d.campaign.allow_ladder_cycles
        fresh = []
        for li in range(self.levels):
            lo, hi = d.level_range[li]
            start = d.level_start[li]
            counts = self.face_down_counts(li, d.initial_faces[lo:hi].translate(self._down))
            fresh.append([self._term(self.dist[li][k][start - lo],
                                     0 if cyclic else self._count_at(li, counts[k], k, start - lo), self.S, self.K)
                          for k in range(len(self.ways[li]))])
        for _ in range(self.levels + 1):
            changed = False
            for li in range(self.levels):
                best = INF
                for k, (_, to) in enumerate(self.ways[li]):
                    t = fresh[li][k]
                    if to >= 0:
                        t += 1 + bound[to]  # a ladder ends the turn: the next level begins one turn later
                    best = min(best, t)
                if best < bound[li]:
                    bound[li], changed = best, True
            if not changed:
                break
        return bound

    def remaining(self, s: GameState) -> tuple[int, int]:
        """(steps, face-down tiles entered) still possible in the current turn, upper bounds."""
        phase = s.phase
        if phase == STEP1 or phase == CHOOSE_TELEPORT or (phase == COMBAT and not s.moved):
            return self.S, self.K
        if phase == COMBAT or phase == SHOPPING:
            return self.flee + self.reloc, self.flee + self.reloc
        if phase == MOVING:
            left = s.moves
            if s.pure and not s.repeated and not self.v10:
                left += 1 + self.mv
            if left:
                return left + self.flee + self.reloc, self.flee + self.reloc
            return self.reloc, 0
        return self.reloc, 0  # DONE: only a relocation, and never into a face-down tile

    def mask(self, s: GameState) -> bytes:
        """The face-down cells of the hero's level, one byte each."""
        if self.levels == 1:
            return bytes(s.faces).translate(self._down)
        lo, hi = self.d.level_range[s.level]
        return bytes(s.faces[lo:hi]).translate(self._down)

    def bound(self, s: GameState, campaign_mode: bool, hint: tuple[int, bytes] | None = None) -> float:
        """A lower bound on the turns after ``s.turn`` needed to finish (won, or the level left).

        ``hint`` = (level, mask) of the state ``s`` came from, to update the face-down counts cheaply.
        """
        return self.bound_masked(s, campaign_mode, self.mask(s), hint[1] if hint is not None and hint[0] == s.level else None)

    def bound_masked(self, s: GameState, campaign_mode: bool, mask: bytes, hint: bytes | None = None) -> float:
        """:meth:`bound` given ``mask`` = ``self.mask(s)`` and the mask of a state of the same level it came from.

        The bound depends only on the level, the mask, the tile and what is left of the turn, so it is
        cached on those; the routes behind it (:meth:`routes`) on all but what is left of the turn.
        """
        li = s.level
        r, k_now = self.remaining(s)
        i = s.pos - self.d.level_range[li][0]
        key = (li, mask, i, r, k_now, campaign_mode)
        best = self._bcache.get(key)
        if best is not None:
            return best
        where = (li, mask, i, campaign_mode)
        routes = self._rcache.get(where)
        if routes is None:
            routes = self._rcache[where] = self.routes(li, mask, i, campaign_mode, hint)
        # _term, inlined for each route: the turns after this one to cover its steps and face-down tiles.
        S, K = self.S, self.K
        best = INF
        for d, f, tail in routes:
            steps = 0 if d <= r else -(-(d - r) // S)
            downs = 0 if f <= k_now else -(-(f - k_now) // K)
            t = (steps if steps > downs else downs) + tail
            if t < best:
                best = t
        if len(self._bcache) > 400_000:
            self._bcache.clear()
            self._rcache.clear()
        self._bcache[key] = best
        return best

    def routes(self, li: int, mask: bytes, i: int, campaign_mode: bool, hint: bytes | None = None) -> tuple:
        """(steps, face-down tiles entered, turns after leaving) of the best route from local cell ``i``
        to each way out of level ``li`` that can be finished, given the level's face-down ``mask``."""
        counts = self.face_down_counts(li, mask, hint)
        lo = self.d.level_range[li][0]
        out = []
        for k, (w, to) in enumerate(self.ways[li]):
            # _count_at, inlined: face-down tiles on the best route from i to way out k (i itself not counted).
            if i == w - lo:
                f = 0
            else:
                enter = counts[k]
                f = INF
                for j in self.local[li][i]:
                    if enter[j] < f:
                        f = enter[j]
            d = self.dist[li][k][i]
            tail = 1 + self.start_bound[to] if campaign_mode and to >= 0 else 0
            if self.teleport:  # as _term: a potion of teleportation reaches any tile, walls or not
                d, f = min(d, 1), min(f, 1)
            if d == INF or f == INF or tail == INF:
                continue
            out.append((d, f, tail))
        return tuple(out)


# ---------------------------------------------------------------------------------------- dominance


class Fronts:
    """Transposition table with dominance pruning.

    Two states with the same *signature* -- the engine's ``key()`` with turn,
    health, gold and the inert cards in hand left out -- differ only in those.
    State A dominates B when A.turn <= B.turn, A.health >= B.health, A.gold >= B.gold
    and A's inert cards include B's (as a multiset). That is certain under the
    engine's rules: no rule reads the turn number; health only moves by
    monotone steps (damage, capped healing, full healing) and death is health <= 0;
    gold only gates purchases (a superset of buys); an inert card in hand
    (weapon, armour, scroll, key, a potion whose colour no other card shares --
    never an artifact or a boss trophy, which act from the hand) only adds actions.
    So every line of play from B is open to A, finishing no later with no less health.
    """

    def __init__(self, campaign: Campaign) -> None:
        cards = campaign.cards
        colours = Counter(c.colour for c in cards.values() if c.kind is CardKind.POTION)
        inert = set()
        for cid, c in cards.items():
            if c.cursed:
                continue
            if c.kind in (CardKind.WEAPON, CardKind.ARMOUR, CardKind.SCROLL, CardKind.ITEM):
                inert.add(cid)
            elif c.kind is CardKind.POTION and colours[c.colour] == 1:
                inert.add(cid)
        self.inert = frozenset(inert)
        self.fronts: dict = {}
        self._splits: dict = {}  # hand -> (strict, loose): hands recur across many states

    @staticmethod
    def signature(s: GameState, strict: tuple, faces: bytes | None = None) -> tuple:
        """Every field of ``s.key()`` but turn, health, gold and the hand, plus the hand's ``strict``
        (not inert) cards: states with one signature differ only in what dominance compares.
        ``faces``: ``bytes(s.faces)`` when the caller has it (a parent's, its hash already computed).

        The encoding differs from ``key()``'s where that is cheaper (the dice drawn as the state keeps
        them, (cell, count) pairs, not a count for every cell); tests/test_solver.py checks that a change
        to any field of ``key()`` but those four changes the signature.
        """
        foes, visitors = s.foes, s.visitors
        return (
            s.level, s.pos, s.equip,
            s.atk_bonus, s.max_bonus, s.poison, s.antidote, s.paralysed, s.cooldown,
            bytes(s.faces) if faces is None else faces, s.draws,
            tuple(sorted(foes.items())) if foes else (),
            tuple(sorted(visitors.items())) if visitors else (),
            s.bought, s.identified, s.phase, s.moves, s.pure, s.repeated, s.moved,
            s.pending_level, s.deferred, s.subject, s.todo, s.awaiting, s.fight, s.outcome, strict,
        )

    def split(self, s: GameState) -> tuple[tuple, tuple]:
        hand = s.hand
        if not hand:
            return (), ()
        hit = self._splits.get(hand)
        if hit is None:
            inert = self.inert
            strict = tuple(c for c in hand if c not in inert)
            loose = tuple(c for c in hand if c in inert)
            hit = self._splits[hand] = (strict, loose)
        return hit

    def admit(self, s: GameState, faces: bytes | None = None) -> list | None:
        """The state's entry if no known state dominates it (entries it dominates are retired), else None.

        An entry is [turn, health, gold, inert cards, alive, ``bytes(s.faces)``]; ``faces`` may give the last.
        """
        strict, loose = self.split(s)
        if faces is None:
            faces = bytes(s.faces)
        sig = self.signature(s, strict, faces)
        t, h, g = s.turn, s.health, s.gold
        front = self.fronts.get(sig)
        if front is None:
            entry = [t, h, g, loose, True, faces]
            self.fronts[sig] = [entry]
            return entry
        # One pass does both: a front holds no entry dominating another, so if some entry dominates
        # the new state, no entry before it was dominated by the new state (it would be by that
        # entry too), and returning None leaves the front untouched.
        # (``not x or _within(x, y)`` is ``_within(x, y)`` without the call when x holds no inert card.)
        keep = []
        for e in front:
            et, eh, eg = e[0], e[1], e[2]
            if et <= t and eh >= h and eg >= g and (not loose or _within(loose, e[3])):
                return None
            if t <= et and h >= eh and g >= eg and (not e[3] or _within(e[3], loose)):
                e[4] = False
            else:
                keep.append(e)
        entry = [t, h, g, loose, True, faces]
        keep.append(entry)
        self.fronts[sig] = keep
        return entry


class _ExactTable:
    """The reference search's table: a state is new unless its exact key was seen."""

    def __init__(self) -> None:
        self.seen: set = set()

    def admit(self, s: GameState, faces: bytes | None = None) -> list | None:
        k = s.key()
        if k in self.seen:
            return None
        self.seen.add(k)
        return [s.turn, s.health, s.gold, (), True, bytes(s.faces)]


def _flee_chain(d) -> int:
    """The most tiles one turn's flees can advance the hero (``F`` in docs/solver.md).

    A flee that lands next to another enemy starts combat at once, and the hero may flee again
    (docs/rules.md, "Fleeing"). Every landing but the last of such a chain is then a tile on an
    ADJACENT TILE of an enemy card, each an ADJACENT TILE of the one before, so the chain without
    its detours stays in one connected group of those tiles and adds one last step: at most the
    largest group's size (1 when no two such tiles touch, the single flee of before).
    """
    near_enemy = [bool(row) for row in d.enemy_near]
    seen = [False] * len(near_enemy)
    best = 1
    for i, flag in enumerate(near_enemy):
        if not flag or seen[i]:
            continue
        seen[i], stack, size = True, [i], 0
        while stack:
            c = stack.pop()
            size += 1
            for j in d.near[c]:
                if near_enemy[j] and not seen[j]:
                    seen[j] = True
                    stack.append(j)
        best = max(best, size)
    return best


def _no_bound(s: GameState, campaign_mode: bool, mask=None, hint=None) -> int:
    return 0


def _getter(cells: list):
    """A function of ``faces`` giving the tuple of the faces of ``cells`` (in C)."""
    if len(cells) > 1:
        return itemgetter(*cells)
    if cells:
        only = cells[0]
        return lambda faces: (faces[only],)
    return lambda faces: ()


def _merged(forget: tuple) -> tuple:
    """``_left_behind``'s ranges per level with neighbouring ranges joined (one slice assignment each)."""
    out = []
    for ranges in forget:
        joined = []
        for lo, hi, initial in ranges:
            if joined and joined[-1][1] == lo:
                plo, _, pinit = joined[-1]
                joined[-1] = (plo, hi, pinit + initial)
            else:
                joined.append((lo, hi, initial))
        out.append(tuple(joined))
    return tuple(out)


def _cleared_bits(cells: list, n: int) -> int:
    """The bits that a face of CLEARED sets at ``cells`` in ``int.from_bytes(faces, "big")``.

    Faces are DOWN (0), UP (1) or CLEARED (2), so ``int.from_bytes(faces, "big") & bits`` is
    nonzero exactly when one of ``cells`` is cleared: two C operations per call, however many cells.
    """
    pattern = bytearray(n)
    for j in cells:
        pattern[j] = CLEARED
    return int.from_bytes(pattern, "big")


def _no_ceiling(s: GameState, finish: int) -> float:
    return INF


def _propagate(nbrs: tuple, down: bytes, enter: list, queue: deque) -> list:
    """Lower ``enter`` from the queued cells until no route improves (0-1 label correcting)."""
    while queue:
        j = queue.popleft()
        ej = enter[j]
        for i in nbrs[j]:
            cost = ej + down[i]
            if cost < enter[i]:
                enter[i] = cost
                if down[i]:
                    queue.append(i)
                else:
                    queue.appendleft(i)
    return enter


def _flipped(before: bytes, after: bytes) -> list | None:
    """Cells face down in ``before`` and not in ``after`` (None if any turned face down: rebuild)."""
    x, y = int.from_bytes(before, "big"), int.from_bytes(after, "big")
    if y & ~x:
        return None
    diff, n, out = x ^ y, len(before), []
    while diff:
        low = diff & -diff
        out.append(n - 1 - (low.bit_length() - 1) // 8)
        diff ^= low
    return out


def _within(a: tuple, b: tuple) -> bool:
    """Multiset a <= b, for sorted tuples of card ids (a merge walk)."""
    if a == b or not a:
        return True
    n = len(b)
    if len(a) > n:
        return False
    i = 0
    for x in a:
        while i < n and b[i] < x:
            i += 1
        if i == n or b[i] != x:
            return False
        i += 1
    return True


# ---------------------------------------------------------------------------------------- the search


@contextmanager
def _collector_paused():
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
class _Trace:
    """What an exhausted search saw, to explain an unsolvable verdict."""

    deaths: Counter = field(default_factory=Counter)  # cause -> count
    slain: set = field(default_factory=set)  # enemy cells slain in some state
    foe_low: dict = field(default_factory=dict)  # enemy cell -> least health it was left with
    goals_met: set = field(default_factory=set)  # levels whose goals were met in some state
    deepest: int = 0
    max_gold: int = 0


class _Search:
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
        self.relax = _relaxation(campaign, self.d)
        self.fronts = _ExactTable() if reference else Fronts(campaign)
        self.trace = _Trace(deepest=level)
        self.expanded = self.generated = 0
        self.seconds = self.turns_seconds = 0.0
        self.forget = _left_behind(self.d)
        self.ceiling = _HealthCeiling(campaign, self.d, self.relax.health_cap, self.forget, campaign_mode)
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
        with _collector_paused():
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
        unslain_bits = _cleared_bits(unslain, len(d.cells))
        goal_levels = [li for li in range(len(d.goals)) if d.goals[li]]
        max_states = self.budget.max_states
        exhausted = True
        finish_turn = self.finish_turn
        resets = _merged(self.forget)
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
                    unslain_bits = _cleared_bits(unslain, len(d.cells))
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
            target = self.d.flip_to[s.pos]["NESW".find(action.arg)]
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


class _HealthCeiling:
    """An upper bound on the health a state can finish with by a given turn (for the health tiebreak).

    Health rises only by healing: a potion of healing (to max), the fountain (at the start of a
    turn), POISON INSTEAD HEALS (at the start of a turn), and +X TO MAX HEALTH from an artifact or
    a scroll. The bound is the static cap while a potion of healing is in hand or still on the map
    (a cell, a shop, a chest); otherwise current health + every +X still to be had + per turn left
    the fountain's and the poison's most.
    """

    def __init__(self, campaign: Campaign, d, cap: int, forget: tuple, campaign_mode: bool) -> None:
        cards = campaign.cards
        self.cap = cap
        self.slack = 0 if campaign_mode else 1  # a level's finish is measured after the next turn has begun
        self.potions = frozenset(c for c, card in cards.items()
                                 if card.kind is CardKind.POTION and d.potions.get(card.colour) == "healing")
        gain = {}
        poison = fountain = 0
        for cid in set(obtainable_cards(campaign)):
            card = cards.get(cid)
            for a in card.abilities if card else ():
                if a.kind == "max-health" and (a.x or 0) > 0 and card.kind in (CardKind.ARTIFACT, CardKind.SCROLL):
                    gain[cid] = a.x
                elif a.kind == "poison-heals":
                    poison = max(poison, a.x or 0)
                elif a.kind == "fountain-heals":
                    fountain = max(fountain, a.x or 0)
        self.gain = gain
        self.poison = poison
        self.fountain = 2 + fountain
        self.cells = []  # per level: (cell, what) for the cells of that level and the levels after it
        for li in range(len(d.level_range)):
            gone = {lo for lo, _, _ in forget[li]}
            spots = []
            for lk, (lo, hi) in enumerate(d.level_range):
                if lo in gone:
                    continue
                for j in range(lo, hi):
                    if d.kind[j] == FOUNTAIN_TILE:
                        spots.append((j, "fountain", 0))
                    for cid in (d.card[j].id, *d.cells[j].stock, *d.cells[j].contents):
                        if cid in self.potions:
                            spots.append((j, "potion", 0))
                        elif cid in gain:
                            spots.append((j, "gain", gain[cid]))
            self.cells.append(tuple(spots))
        # Caches: hand -> -1 (a potion of healing) or the +X it holds; (level, faces of its spots) -> _left_on_map.
        self._hands: dict = {}
        self._spots: dict = {}
        self._spot_faces = tuple(_getter([j for j, _, _ in spots]) for spots in self.cells)

    def bound(self, s: GameState, finish: int) -> int:
        cap = self.cap
        hand = s.hand
        held = self._hands.get(hand)
        if held is None:
            # A potion of healing in hand: the cap; else the +X to come from the hand.
            held = self._hands[hand] = (-1 if any(c in self.potions for c in hand)
                                        else sum(self.gain.get(c, 0) for c in hand))
        if held < 0:
            return cap
        level = s.level
        spots = self._spot_faces[level](s.faces)
        left = self._spots.get((level, spots))
        if left is None:
            left = self._spots[(level, spots)] = self._left_on_map(level, spots)
        if not left:
            return cap
        extra, per_turn = left
        return min(cap, s.health + held + extra + per_turn * (finish - s.turn + self.slack))

    def _left_on_map(self, level: int, spots: tuple) -> tuple:
        """(every +X still to be had, healing per turn) from the level's spots whose faces are ``spots``;
        () while a potion of healing is still on the map."""
        extra = 0
        per_turn = self.poison
        fountain = False
        for (j, what, x), face in zip(self.cells[level], spots):
            if face == CLEARED:
                continue
            if what == "potion":
                return ()
            if what == "gain":
                extra += x
            else:
                fountain = True
        if fountain:
            per_turn += self.fountain
        return extra, per_turn


def _left_behind(d) -> tuple:
    """Per level: the levels no ladder path leads back to from it, as (lo, hi, initial faces).

    Their faces and dice draws can never matter again, so the search resets them to the
    initial values: states that differ only in how a left level was played merge. (Their
    enemies' entries in ``foes`` are kept as they are; leaving combat already ends an enemy's
    poison, see docs/rules.md.) The witness is replayed from its actions, so it is unaffected.
    """
    n = len(d.level_range)
    step = [set() for _ in range(n)]
    for j, to in enumerate(d.ladder_to):
        if to >= 0:
            step[d.level_of[j]].add(to)
    out = []
    for li in range(n):
        seen, todo = {li}, [li]
        while todo:
            for k in step[todo.pop()]:
                if k not in seen:
                    seen.add(k)
                    todo.append(k)
        ranges = []
        for k in range(n):
            if k not in seen:
                lo, hi = d.level_range[k]
                ranges.append((lo, hi, d.initial_faces[lo:hi]))
        out.append(tuple(ranges))
    return tuple(out)


_RELAX: dict[int, tuple[object, Relaxation]] = {}


def _relaxation(campaign: Campaign, d) -> Relaxation:
    """One Relaxation per compiled dungeon (its face-down cache is shared by searches on the same campaign)."""
    hit = _RELAX.get(id(d))
    if hit is None or hit[0] is not d:
        if len(_RELAX) > 16:
            _RELAX.clear()
        hit = _RELAX[id(d)] = (d, Relaxation(campaign, d))
    return hit[1]


# ---------------------------------------------------------------------------------------- verdicts


def _where(campaign: Campaign, cell: int, d) -> str:
    x, y = d.pos_of[cell]
    return f"{d.card[cell].name} at {x},{y} (level {campaign.levels[d.level_of[cell]].id!r})"


_PROOF_CODES = ("CR304", "CR305", "CR301", "CR302", "CR306", "CR308", "CR311", "CR310")


def _static_proof(campaign: Campaign, level: int, campaign_mode: bool, relax: Relaxation) -> tuple[str, int] | None:
    """A reason from the level graph alone, when it proves there is no way out (None: no proof).

    The graph of ADJACENT TILEs over-approximates where the hero can go only when he cannot
    relocate through walls (potion of teleportation, MOVE TO ANY ADJACENT TILE); otherwise only
    the relaxed bound (grid neighbours) may prove anything, and the search decides.
    """
    if relax.reloc:
        return None
    analyses, diagnostics = analyse_campaign(campaign)
    if campaign_mode:
        finishing = {la.index for la in analyses if la.exit_reached}
        seen, todo = {level}, [level]
        while todo:
            li = todo.pop()
            for target in analyses[li].ladders_reached:
                j = campaign.level_index(target)
                if j is not None and j not in seen:
                    seen.add(j)
                    todo.append(j)
        if seen & finishing:
            blocking = [g for g in diagnostics if g.code == "CR308" and g.level == level]
            if blocking:
                return f"{blocking[0].message} (every way out of the level needs it)", level
            return None
        scope = seen
    else:
        la = analyses[level]
        if la.exit_reached or la.ladders_reached:
            blocking = [g for g in diagnostics if g.code == "CR308" and g.level == level]
            if blocking:
                return f"{blocking[0].message} (every way out of the level needs it)", level
            return None
        scope = {level}
    for code in _PROOF_CODES:
        for g in diagnostics:
            if g.code == code and g.level in scope:
                return f"no way out can be reached: {g.message}", g.level
    return "no way out can be reached from the starting tile", level


def _explain(search: _Search) -> tuple[str, int]:
    """Why an exhausted search found no finish: the blocking fight, the unmet goal, or death."""
    campaign, d, trace = search.campaign, search.d, search.trace
    li = trace.deepest
    lo, hi = d.level_range[li]
    states = f"{search.expanded:,} states searched"
    goals = d.goals[li]
    if goals and li not in trace.goals_met:
        for verb, card in goals:
            if verb == "slay":
                cells = [j for j in range(lo, hi) if d.card[j].id == card]
                if cells and not any(j in trace.slain for j in cells):
                    return _fight_reason(search, cells[0], f"the goal 'Slay {card}' needs it"), li
            if verb == "buy":
                shop = next((j for j in range(lo, hi) if card in d.cells[j].stock), None)
                price = 2 * (d.cards[card].gold or 0)
                if shop is not None:
                    return (f"the goal 'Buy {card}' cannot be met: it costs {price} gold and the most gold "
                            f"ever held is {trace.max_gold} ({states})"), li
        text = ", ".join(f"{v} {c}" for v, c in goals)
        return f"the level goals ({text}) can never all be met before a way out is reached ({states})", li
    # A fight is required when the enemies never slain cut the start off from every way out.
    level = campaign.levels[li]
    unslain = {d.pos_of[j] for j in range(lo, hi) if d.kind[j] == ENEMY and j not in trace.slain}
    if unslain:
        import networkx as nx

        graph = hero_graph(level, wall_crossings(campaign))
        ways = [d.pos_of[w] for w, _ in search.relax.ways[li]]
        free = graph.copy()
        free.remove_nodes_from(unslain)
        start = level.start.pos
        if start in free and not any(w in free and nx.has_path(free, start, w) for w in ways):
            near = nx.node_connected_component(free, start)
            blockers = sorted((p for p in unslain if any(q in near for q in graph.neighbors(p))), key=lambda p: (p[1], p[0]))
            if blockers:
                cell = d.index[(li, *blockers[0])]
                return _fight_reason(search, cell, "it blocks every route to the way out"), li
    if trace.deaths:
        (kind, cell), n = trace.deaths.most_common(1)[0]
        cause = _where(campaign, cell, d) if kind != "other" else "poison or a trap"
        return (f"death is unavoidable: every line of play ends with the hero dead or stuck "
                f"(most deaths: {cause}, {n:,} times; {states})"), li
    return f"no line of play reaches a way out: the hero is always stuck ({states})", li


def _fight_reason(search: _Search, cell: int, why: str) -> str:
    d, trace = search.d, search.trace
    gear = sorted({c for c in obtainable_cards(search.campaign)
                   if c in d.cards and d.cards[c].kind in (CardKind.WEAPON, CardKind.ARMOUR)})
    low = trace.foe_low.get(cell)
    best = f"the best attempt left it with {low} of {d.card[cell].health} health" if low is not None else "it was never wounded"
    kit = f"reachable equipment: {', '.join(gear)}" if gear else "no weapon or armour can be reached"
    return (f"a required fight cannot be won: {_where(search.campaign, cell, d)} -- {why}, and no line of play "
            f"slays it ({best}; {kit}; {search.expanded:,} states searched)")


def _witness(campaign: Campaign, level: int, actions: list[str]) -> tuple[str, bool]:
    recorder = Recorder(campaign, level=level)
    for a in actions:
        recorder.play(a)
    text = recorder.text()
    return text, verify_replay(text, campaign).ok


def _solve(campaign: Campaign, level: int, campaign_mode: bool, budget: Budget, reference: bool = False) -> SolveResult:
    clock = time.perf_counter()
    search = _Search(campaign, level, campaign_mode, budget, reference)
    proof = _static_proof(campaign, level, campaign_mode, search.relax)
    if proof is not None:
        return SolveResult(UNSOLVABLE, reason=proof[0], level=proof[1], seconds=time.perf_counter() - clock)
    verdict, node, turns, health, exact = search.run()
    seconds = time.perf_counter() - clock
    common = dict(states_expanded=search.expanded, states_generated=search.generated, seconds=seconds,
                  search_seconds=search.seconds, turns_seconds=search.turns_seconds)
    if verdict == SOLVED:
        actions = search.actions(node)
        text, ok = _witness(campaign, level, actions)
        if not ok:
            raise RuntimeError("the solver's witness does not re-simulate: the engine is not deterministic")
        return SolveResult(SOLVED, turns, health, text, tuple(actions), level=level, health_exact=exact,
                           level_turns=_level_turns(campaign, level, actions) if campaign_mode else (), **common)
    if verdict == UNKNOWN:
        deepest = campaign.levels[search.trace.deepest].id
        return SolveResult(UNKNOWN, level=search.trace.deepest, reason=(
            f"no finish found within the budget ({search.expanded:,} states, {seconds:.1f} s; "
            f"deepest level reached {deepest!r}); raise the budget to decide"), **common)
    if search.expanded == 0:
        return SolveResult(UNSOLVABLE, level=level, reason=(
            "no way out can be reached: even ignoring enemies, chests and goals, no route of tiles "
            "leads from the starting tile to an exit or ladder"), **common)
    reason, li = _explain(search)
    return SolveResult(UNSOLVABLE, level=li, reason=reason, **common)


def _level_turns(campaign: Campaign, level: int, actions: list[str]) -> tuple[int, ...]:
    """Turns the witness spends on each level it visits, in order."""
    resolver = FatedResolver(campaign)
    s = GameState.new(campaign, level, log=False)
    s.resolve(resolver)
    out, entered = [], 1
    for a in actions:
        before = s.level
        s.step(a, resolver)
        if s.level != before:
            out.append(s.turn - entered)
            entered = s.turn
    out.append(s.turn - entered + 1)
    return tuple(out)


def solve_level(campaign: Campaign, level: int = 0, budget: Budget | None = None) -> SolveResult:
    """The level's par: fewest turns from its starting tile (fresh hero) to an exit or a ladder taken."""
    return _solve(campaign, level, False, budget or Budget())


def solve_campaign(campaign: Campaign, budget: Budget | None = None, per_level: bool = True) -> SolveResult:
    """The campaign par: the whole run from level 0 (health, items and gold carry over between levels).

    With ``per_level``, each level is also solved on its own from a fresh hero (a practice start,
    as ``cardrogue play --level N``) with a small share of the budget; those verdicts are in
    ``level_pars`` and may be ``unknown`` when their share runs out.
    """
    budget = budget or Budget()
    result = _solve(campaign, 0, True, budget)
    if not per_level or len(campaign.levels) < 2:
        return result
    share = Budget(max(1, budget.max_states // (4 * len(campaign.levels))), budget.max_seconds / (4 * len(campaign.levels)))
    pars = tuple(solve_level(campaign, i, share) for i in range(len(campaign.levels)))
    return replace(result, level_pars=pars)


def solve_diagnostics(campaign: Campaign, budget: Budget | None = None) -> list[Diagnostic]:
    """``cardrogue check --solve``: CR401 unsolvable (error), CR402 unknown (warning), CR403 par (info)."""
    result = solve_campaign(campaign, budget, per_level=False)
    li = result.level if result.level is not None else 0
    where = dict(path=("levels", li), level=li)
    if result.verdict == UNSOLVABLE:
        return [Diagnostic("CR401", f"unsolvable: {result.reason}", Severity.ERROR, **where,
                           hint="change the map so that some line of play reaches the exit alive")]
    if result.verdict == UNKNOWN:
        return [Diagnostic("CR402", f"solvability unknown: {result.reason}", Severity.WARNING, **where)]
    split = ", ".join(f"{campaign.levels[i].id} {t}" for i, t in enumerate(result.level_turns)) if len(result.level_turns) > 1 else ""
    health = f"{result.health} health left" + ("" if result.health_exact else " (at least; budget ran out on the tiebreak)")
    text = (f"par: {result.turns} turns with {health}; the solution replay verifies "
            f"({result.states_expanded:,} states, {result.seconds:.2f} s)")
    if split:
        text += f"; turns per level: {split}"
    return [Diagnostic("CR403", text, Severity.INFO, path=("levels", 0), level=0)]
