"""Flees in the bound, state by state: where they start, and the chain ``F`` from the enemies alive and
their fated dice (``docs/solver.md``, *Flees start beside an enemy; chains on a roll*).

``F`` (``docs/solver.md``, *Steps per turn*) is the size of the largest connected group of tiles beside
an enemy card: every landing of a turn's chain of flees but the last stands beside an enemy it flees
from. Counted over every enemy card of the map it is most of a level where a quarter of the cells are
enemies. The rules make it smaller in a given state (:class:`FleeRolls`), and every flee starts beside
an enemy, so the steps out of other tiles are moves (:class:`FleeOrigins`):

- a flee is from an enemy alive, and a slain enemy's cell is cleared for good ("SLAYING AN ENEMY"):
  the chains of every turn to come lie beside the enemies alive in the state (``future``);
- a flee from a chasing enemy rolls that enemy's own stream (FLEE: "The player picks one enemy to
  perform step 1"; the roll from the picked enemy's stream, ``docs/rules.md`` "Fleeing"), and within a
  turn an enemy's stream moves on only by a flee from it that succeeds, or by a roll that ends the turn
  (a failed flee, an attack on it, its own step 2 beside the hero) or slays it. So an enemy whose next
  roll in the state does not flee cannot be fled in what is left of this turn: the chain of the current
  turn lies beside the enemies whose next roll flees (or that do not chase) (``now``).

Only where nothing moves an enemy (no potion of teleportation in the game: a thrown one moves an
enemy to another tile) and, for ``now``, nothing paralyses one (no potion of paralysis: a paralysed
enemy is fled without a roll).
"""

from __future__ import annotations

from collections import deque
from heapq import heappush

from ...chance.resolvers import FatedResolver
from ...rules.tables import CLEARED, ENEMY
from .flees import off_cards_chain
from .relaxed import faces_getter, flipped_cells
from .result import INF

CACHE = 100_000  # entries a table keeps before it is cleared (states' chains, groups, tiles beside enemies)
COUNTS = 50_000  # face-down counts kept (one list of the level's cells per way out each)


def flee_faces(campaign, character, cards) -> frozenset[int]:
    """Every face that could ever flee a chasing enemy: 4-6 unless the character CANNOT FLEE, and the X
    of every ROLL A DIE: IF X: CAN FLEE the character or a card to be had gives ("FLEE"; the hero's
    ``flee_faces``: an upper bound whatever he holds)."""
    faces: set[int] = set()
    if not any(a.kind == "cannot-flee" for a in character.abilities):
        faces |= {4, 5, 6}
    for card in (character, *cards):
        for a in card.abilities:
            if a.kind == "can-flee":
                faces |= a.on or set(range(1, 7))
    return frozenset(faces)


class FleeRolls:
    """Per state, ``(future, now, alive)``: the flee chain of the turns after this one (enemies alive that
    can ever be fled), of the rest of this one (those alive whose next roll flees, or that need none), and
    the set of those enemies alive."""

    def __init__(self, campaign, d, faces: frozenset[int], paralysis: bool) -> None:
        self.d = d
        self.faces = faces
        self.paralysis = paralysis  # a potion of paralysis could let any enemy be fled without a roll
        self.dice = FatedResolver(campaign).dice
        self.foes = []  # per level: the global cells of its enemy cards that can ever be fled
        for lo, hi in d.level_range:
            foes = tuple(e for e in range(lo, hi) if d.kind[e] == ENEMY and (faces or paralysis or not d.chases[e]))
            self.foes.append(foes)
        self._keep = bytes(1 if i == CLEARED else 0 for i in range(256))
        self._states: dict = {}  # (level, cleared mask, draws) -> (future, now, alive)
        self._alive: dict = {}  # (level, cleared mask) -> the enemies alive that can ever be fled (a frozenset)
        self._groups: dict = {}  # (level, frozenset of enemy cells) -> largest group

    def chains(self, s) -> tuple[int, int, frozenset]:
        """(``F`` for each turn after this one, ``F`` for the rest of this one, the enemies alive that can
        ever be fled) on the hero's level."""
        li = s.level
        lo, hi = self.d.level_range[li]
        cleared = bytes(s.faces[lo:hi]).translate(self._keep)
        key = (li, cleared, s.draws)
        hit = self._states.get(key)
        if hit is not None:
            return hit
        d = self.d
        alive = self._alive.get((li, cleared))
        if alive is None:
            if len(self._alive) > CACHE:
                self._alive.clear()
            alive = self._alive[li, cleared] = frozenset(e for e in self.foes[li] if not cleared[e - lo])
        if self.paralysis:
            free = alive
        else:
            roll, faces, chases, inst = self.dice.roll, self.faces, d.chases, d.instance
            free = [e for e in alive if not chases[e] or roll(inst[e], s.rolls_drawn(e)) in faces]
        future = self.group(li, alive)
        now = future if len(free) == len(alive) else self.group(li, frozenset(free))
        if len(self._states) > CACHE:
            self._states.clear()
        hit = self._states[key] = (future, now, alive)
        return hit

    def group(self, li: int, foes: frozenset) -> int:
        """The most tiles of a connected group of tiles of level ``li`` each beside one of ``foes`` and off the cards
        of those alive (0 when none is; ``flees.off_cards_chain``): a chain of flees from them, without its detours,
        advances at most that many tiles."""
        key = (li, foes)
        hit = self._groups.get(key)
        if hit is not None:
            return hit
        lo, hi = self.d.level_range[li]
        best = off_cards_chain(self.d, foes, lo, hi)
        if len(self._groups) > CACHE:
            self._groups.clear()
        self._groups[key] = best
        return best


class FleeOrigins:
    """Routes whose steps out of tiles beside no enemy are counted (``docs/solver.md``, *Flees start
    beside an enemy*): a flee leaves a tile beside an enemy it flees from, so every other step of a
    turn is a move or a relocation, at most ``2 × (1 + M) + R`` a turn, and every other face-down tile
    entered one of the ``1 + ⌊M / 2⌋ + R`` a turn.

    Per level, set ``foes`` of enemies alive (``FleeRolls.chains``) and way out, ``steps(level, foes)``:
    per local cell, the fewest steps that leave a tile beside none of ``foes`` on a route from it to the
    way out; ``downs(level, foes, mask)``: the fewest tiles face down under ``mask`` entered from such a
    tile (a 0-1 search, updated as tiles turn face up).
    """

    def __init__(self, d, local: tuple, ways: list) -> None:
        self.d = d
        self.local = local  # per level, per local cell: its neighbours in the relaxed graph (local cells)
        self.ways = ways
        self._away: dict = {}  # (level, foes) -> per local cell: 1 if it is beside none of ``foes`` (a step out of it costs)
        self._steps: dict = {}  # (level, foes) -> per way out, the step counts
        self._cache: dict = {}  # (level, foes, mask) -> per way out, the face-down counts
        self._halves: dict = {}  # (level, foes, mask) -> per way out, the half-turns (``halves``)
        self._alive: dict = {}  # (level, faces of its enemy cards) -> the enemy cards alive (``alive``)
        self._foes = []  # per level: its enemy cards (global cells) and the getter of their faces
        for lo, hi in d.level_range:
            foes = tuple(j for j in range(lo, hi) if d.kind[j] == ENEMY)
            self._foes.append((foes, faces_getter(list(foes))))

    def away(self, li: int, foes: frozenset) -> bytes:
        key = (li, foes)
        hit = self._away.get(key)
        if hit is None:
            lo, hi = self.d.level_range[li]
            near = self.d.enemy_near
            hit = bytes(0 if any(e in foes for e in near[i]) else 1 for i in range(lo, hi))
            if len(self._away) > CACHE:
                self._away.clear()
                self._steps.clear()
            self._away[key] = hit
        return hit

    def steps(self, li: int, foes: frozenset) -> tuple:
        key = (li, foes)
        hit = self._steps.get(key)
        if hit is None:
            lo = self.d.level_range[li][0]
            away = self.away(li, foes)
            hit = self._steps[key] = tuple(self._search(li, away, w - lo, None) for w, _ in self.ways[li])
        return hit

    def _search(self, li: int, away: bytes, w: int, down: bytes | None) -> list:
        """Per local cell u, the least cost of a route from u to ``w``: a step from u to v costs 1 when u is
        beside no enemy (``away``; and, with ``down``, v is face down)."""
        nbrs = self.local[li]
        cost = [INF] * len(nbrs)
        cost[w] = 0
        return self._lower(nbrs, away, down, cost, deque([w]))

    @staticmethod
    def _lower(nbrs, away: bytes, down: bytes | None, cost: list, queue: deque) -> list:
        while queue:
            v = queue.popleft()
            cv = cost[v]
            dv = 1 if down is None else down[v]
            for u in nbrs[v]:
                c = dv & away[u]
                if cv + c < cost[u]:
                    cost[u] = cv + c
                    if c:
                        queue.append(u)
                    else:
                        queue.appendleft(u)
        return cost

    def downs(self, li: int, foes: frozenset, mask: bytes, hint: bytes | None = None) -> tuple:
        key = (li, foes, mask)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        base = self._cache.get((li, foes, hint)) if hint is not None else None
        flipped = flipped_cells(hint, mask) if base is not None else None
        lo = self.d.level_range[li][0]
        away = self.away(li, foes)
        if flipped is None:
            hit = tuple(self._search(li, away, w - lo, mask) for w, _ in self.ways[li])
        else:
            nbrs = self.local[li]
            out = []
            for cost in base:
                cost = list(cost)
                queue = deque()
                for v in flipped:  # the steps into v from tiles beside no enemy no longer cost
                    cv = cost[v]
                    for u in nbrs[v]:
                        if away[u] and cv < cost[u]:
                            cost[u] = cv
                            queue.append(u)
                out.append(self._lower(nbrs, away, mask, cost, queue))
            hit = tuple(out)
        if len(self._cache) > COUNTS:
            self._cache.clear()
        self._cache[key] = hit
        return hit

    def alive(self, s) -> frozenset:
        """The enemy cards of the hero's level still alive in ``s`` (global cells): not cleared ("SLAYING AN
        ENEMY": the slain enemy's card is replaced by a pathing tile)."""
        li = s.level
        foes, getter = self._foes[li]
        faces = getter(s.faces)
        key = (li, faces)
        hit = self._alive.get(key)
        if hit is None:
            if len(self._alive) > CACHE:
                self._alive.clear()
            hit = self._alive[key] = frozenset(e for e, face in zip(foes, faces) if face != CLEARED)
        return hit

    def halves(self, li: int, foes: frozenset, mask: bytes, hint: bytes | None = None) -> tuple:
        """Per way out, per local cell u: the fewest half-turns of the moves of a route from u to the way out
        (``docs/solver.md``, *Paralysis: the moves of a route*): a step out of a tile beside one of ``foes``
        costs nothing (it may be a flee), any other step costs 1, or 2 onto a tile face down under ``mask``.
        ``hint``: the mask of a state this one came from (faces only turn up: the counts only fall)."""
        key = (li, foes, mask)
        hit = self._halves.get(key)
        if hit is not None:
            return hit
        base = self._halves.get((li, foes, hint)) if hint is not None else None
        flipped = flipped_cells(hint, mask) if base is not None else None
        lo = self.d.level_range[li][0]
        away = self.away(li, foes)
        nbrs = self.local[li]
        out = []
        if flipped is None:
            for w, _ in self.ways[li]:
                cost = [INF] * len(nbrs)
                cost[w - lo] = 0
                out.append(self._lower_halves(nbrs, away, mask, cost, [(0, w - lo)]))
        else:
            for cost in base:
                cost = list(cost)
                heap = []
                for v in flipped:  # a step into v from a tile beside none of ``foes`` now costs 1, not 2
                    cv = cost[v] + 1
                    for u in nbrs[v]:
                        if away[u] and cv < cost[u]:
                            cost[u] = cv
                            heappush(heap, (cv, u))
                out.append(self._lower_halves(nbrs, away, mask, cost, heap))
        hit = tuple(out)
        if len(self._halves) > COUNTS:
            self._halves.clear()
        self._halves[key] = hit
        return hit

    @staticmethod
    def _lower_halves(nbrs, away: bytes, down: bytes, cost: list, heap: list) -> list:
        """Lower ``cost`` from the cells on ``heap`` ((cost, cell) pairs; a step u -> v costs ``away[u] * (1 + down[v])``)
        until no route improves: label correcting, a cell lowered by a free step queued first (the least costs are the
        same as Dijkstra's, for less work)."""
        queue = deque([v for _, v in heap])
        pop, push, push_left = queue.popleft, queue.append, queue.appendleft
        while queue:
            v = pop()
            cv = cost[v]
            step = cv + 1 + down[v]
            for u in nbrs[v]:
                if away[u]:
                    if step < cost[u]:
                        cost[u] = step
                        push(u)
                elif cv < cost[u]:
                    cost[u] = cv
                    push_left(u)
        return cost
