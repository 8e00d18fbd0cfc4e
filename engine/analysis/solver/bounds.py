"""The heuristics: an admissible lower bound on the turns left, an upper bound on the health left.

:class:`Relaxation` counts the steps and face-down tiles between the hero and a way out in a
relaxed level graph (A*'s ``h``); :class:`HealthCeiling` bounds the health a line of play can
finish with (the health tiebreak's pruning). Both must never be beaten by a real line of play:
``docs/solver.md`` gives the argument.
"""

from __future__ import annotations

from collections import deque
from operator import itemgetter

from ...model.campaign import Campaign, CardKind
from ...rules.mobility import obtainable_cards, wall_crossings
from ...rules.state import CHOOSE_TELEPORT, COMBAT, MOVING, SHOPPING, STEP1, GameState
from ...rules.tables import CLEARED, DOWN, ENEMY, FOUNTAIN_TILE, LADDER, UP
from .result import INF


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
        crossings = wall_crossings(campaign)
        self.walls = bool(crossings)  # the hero may pass walls somehow: the level graph proves nothing
        self.teleport = "teleport" in crossings
        # MOVE TO ANY ADJACENT TILE and the mage's spell may be used every turn; a potion of
        # teleportation only once per potion, so it is counted (``items_left``).
        self.reloc = int("adjacent" in crossings)
        effect_of = {c: d.potions.get(cards[c].colour) for c in cards if cards[c].kind is CardKind.POTION}
        self.tele_cards = frozenset(c for c, e in effect_of.items() if e == "teleportation")
        self.para_cards = frozenset(c for c, e in effect_of.items() if e == "paralysis")
        cannot = any(a.kind == "cannot-flee" for a in character.abilities)
        free_flee = (not cannot or any(a.kind == "can-flee" for _, a in abilities)
                     or any(a.kind == "does-not-chase" for _, a in abilities))
        # Fleeing on every turn (per-turn F), or only from an enemy paralysed by a thrown potion:
        # then the flees of the whole game are bounded by the potions to be had (``extra``).
        self.flee = flee_chain(d) if free_flee else 0
        self.para_limited = not free_flee and bool(self.para_cards & set(seen))
        # The potions still to be had: a cell's own potion is gone once the cell is cleared; a
        # shop's or a chest's stays counted (over-counting only keeps the bound low).
        self.tele_total = sum(1 for c in seen if c in self.tele_cards)
        self.para_total = sum(1 for c in seen if c in self.para_cards) if self.para_limited else 0
        self._tele = _Stock(d, self.tele_cards if self.tele_total else frozenset())
        self._para = _Stock(d, self.para_cards if self.para_total else frozenset())
        self._hands: dict = {}  # hand -> (potions of teleportation held, potions of paralysis held)
        self.items = bool(self.tele_total or self.para_total)
        # A potion gains a step only where the hero fights, after moving, an enemy he met before: see
        # ``_first_potion_idle``. Holds when every enemy flipped starts a fight and only potions end one.
        self.loose_rule = (self.items and not self.flee and not self.reloc and crossings <= {"teleport"}
                           and _flips_always_engage(d))
        self._enemy_faces = _getter([j for j in range(len(d.kind)) if d.kind[j] == ENEMY])
        self.mv = movement
        per_move_turn = 1 + movement
        self.double_move = d.rules.double_move
        self.S = (2 * per_move_turn if self.double_move else per_move_turn) + self.flee + self.reloc
        self.K = 1 + movement // 2 + self.flee + self.reloc
        gains = [(card, a.x) for card, a in abilities if a.kind == "max-health" and (a.x or 0) > 0]
        self.health_cap = d.base_max_health + sum(x for _, x in gains)
        # A level's practice hero may start above max health: healing never lifts him there, and only an
        # artifact's or a scroll's +X TO MAX HEALTH adds to health itself.
        practice = max((lv.hero.health for lv in campaign.levels if lv.hero is not None and lv.hero.health), default=0)
        if practice:
            lifts = sum(x for card, x in gains if card.kind in (CardKind.ARTIFACT, CardKind.SCROLL))
            self.health_cap = max(self.health_cap, practice + lifts)
        # The relaxed graph: ADJACENT TILEs; any orthogonal neighbour when the hero can relocate
        # every turn; with potions of teleportation also the cards at the end of paths, both ways:
        # a teleportation lands on a revealed tile, and a tile is revealed only by a flip from a
        # neighbour the hero stood on (or was face up now: ``jumps``).
        if self.reloc:
            self.nbrs = tuple(tuple(j for j in row if j >= 0) for row in d.grid_to)
        elif self.tele_total:
            both = [set(j for j in row if j >= 0) for row in d.adjacent]
            for i, row in enumerate(d.flip_to):
                for j in row:
                    if j >= 0:
                        both[i].add(j)
                        both[j].add(i)
            self.nbrs = tuple(tuple(sorted(row)) for row in both)
        else:
            self.nbrs = tuple(tuple(j for j in row if j >= 0) for row in d.adjacent)
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
        self._jcache: dict = {}  # (level, mask) -> _jumps
        self._bcache: dict = {}  # (level, mask, local cell, steps and face-down entries left, extra, campaign, tele) -> bound
        self._rcache: dict = {}  # (level, mask, local cell, campaign) -> routes
        self.chain = flee_chain(d) if self.para_limited else 0
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

    def _term(self, d: float, f: float, r: int, k_now: int, extra: int = 0) -> float:
        """Turns after this one needed to cover ``d`` steps and ``f`` face-down tiles (``r``, ``k_now`` left
        now, ``extra`` more in the rest of the game: flees from paralysed enemies)."""
        if d == INF or f == INF:
            return INF
        r, k_now = r + extra, k_now + extra
        steps = 0 if d <= r else -(-(d - r) // self.S)
        downs = 0 if f <= k_now else -(-(f - k_now) // self.K)
        return max(steps, downs)

    def extra_moves(self, para: int, tele: int) -> int:
        """Steps (and face-down tiles entered) that ``para`` potions of paralysis and ``tele`` potions of
        teleportation still to be used may add to the rest of the game, beyond ``S`` and ``K`` a turn.

        A teleportation onto a tile revealed later is no better than a step onto it from the
        neighbour that revealed it, but it is one more than the turn's ``S`` and ``K`` (the hero may
        flip in combat and teleport onto that tile); onto a tile revealed now, see :meth:`jumps`.
        """
        return self.extra_flees(para) + tele

    def extra_flees(self, potions: int) -> int:
        """The most tiles flees from paralysed enemies can add to the rest of the game, with ``potions``
        potions of paralysis still to be thrown (or enemies paralysed this turn): ``E`` in docs/solver.md.

        Such a flee is possible only when every enemy adjacent to the hero is paralysed, and a thrown
        potion paralyses one enemy until the turn ends. The hero's positions a turn's flees start from
        are distinct tiles each adjacent to an enemy paralysed in that turn: at most 4 per potion thrown
        in it, and only 1 with a single potion (two orthogonal neighbours have no common neighbour).
        """
        if potions <= 1:
            return potions
        return min(4 * potions, potions * self.chain)

    def _start_bounds(self) -> list:
        """Turns from the first turn on each level's starting tile to winning the campaign (Bellman-Ford).

        Every potion of the dungeon counts on every level (over-counting keeps the bound low).
        """
        d = self.d
        extra = self.extra_moves(self.para_total, self.tele_total)
        bound = [INF] * self.levels
        # With ladder cycles a level may be revisited with other faces: only its step bound holds.
        cyclic = d.campaign.allow_ladder_cycles
        fresh = []
        for li in range(self.levels):
            lo, hi = d.level_range[li]
            start = d.level_start[li]
            counts = self.face_down_counts(li, d.initial_faces[lo:hi].translate(self._down))
            mask = d.initial_faces[lo:hi].translate(self._down)
            jumps = self._jumps(li, mask) if self.tele_total else ((INF, INF),) * len(self.ways[li])
            fresh.append([min(self._term(self.dist[li][k][start - lo],
                                         0 if cyclic else self._count_at(li, counts[k], k, start - lo),
                                         self.S, self.K, extra),
                              self._term(jumps[k][0], 0 if cyclic else jumps[k][1], 0, 0, extra))
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

    def _jumps(self, li: int, mask: bytes) -> tuple:
        """Per way out of level ``li``: the fewest steps and the fewest face-down tiles from any tile
        face up under ``mask`` (where a potion of teleportation could take the hero now) to it."""
        key = (li, mask)
        hit = self._jcache.get(key)
        if hit is not None:
            return hit
        counts = self.face_down_counts(li, mask)
        up = [i for i, down in enumerate(mask) if not down]
        out = []
        for k in range(len(self.ways[li])):
            dist, enter = self.dist[li][k], counts[k]
            out.append((min((dist[i] for i in up), default=INF), min((enter[i] for i in up), default=INF)))
        if len(self._jcache) > 100_000:
            self._jcache.clear()
        hit = self._jcache[key] = tuple(out)
        return hit

    def remaining(self, s: GameState) -> tuple[int, int]:
        """(steps, face-down tiles entered) still possible in the current turn, upper bounds."""
        phase = s.phase
        if phase == STEP1 or phase == CHOOSE_TELEPORT or (phase == COMBAT and not s.moved):
            return self.S, self.K
        if phase == COMBAT or phase == SHOPPING:
            return self.flee + self.reloc, self.flee + self.reloc  # (flees from paralysed enemies: ``extra``)
        if phase == MOVING:
            left = s.moves
            if s.pure and not s.repeated and self.double_move:
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
        extra, tele = self.items_left(s) if self.items else (0, 0)
        r0, k0 = self.remaining(s)
        r, k_now = r0 + extra, k0 + extra
        i = s.pos - self.d.level_range[li][0]
        key = (li, mask, i, r0, k0, extra, campaign_mode, tele)  # r0 apart: a jump's route starts from it
        best = self._bcache.get(key)
        if best is not None:
            return best
        where = (li, mask, i, campaign_mode)
        routes = self._rcache.get(where)
        if routes is None:
            routes = self._rcache[where] = self.routes(li, mask, i, campaign_mode, hint)
        if tele:
            # Or teleport onto a tile face up now: the turn ends there and the route goes on from the
            # next turn, so none of this turn's r0, k0 (a route of r0 + jd steps has jd left after them).
            routes = routes + tuple((r0 + jd, k0 + jf, 1 + self.start_bound[to] if campaign_mode and to >= 0 else 0)
                                    for (jd, jf), (_, to) in zip(self._jumps(li, mask), self.ways[li])
                                    if jd != INF and jf != INF and (not campaign_mode or to < 0
                                                                    or self.start_bound[to] != INF))
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

    def items_left(self, s: GameState) -> tuple[int, int]:
        """(``extra``: steps and face-down tiles the potions still to be used may add, the potions of
        teleportation still to be used) in state ``s``: held, on a cell not yet cleared, in a shop or
        a chest, and for paralysis the enemies paralysed this turn (they may still be fled from)."""
        hand = s.hand
        held = self._hands.get(hand)
        if held is None:
            tele, para = self.tele_cards, self.para_cards
            held = self._hands[hand] = (sum(1 for c in hand if c in tele), sum(1 for c in hand if c in para))
        tele = held[0] + self._tele.left(s.faces) if self.tele_total else 0
        if s.phase == CHOOSE_TELEPORT and s.subject < 0:
            tele += 1  # drunk: the hero is choosing where it takes him
        para = 0
        if self.para_total:
            para = held[1] + self._para.left(s.faces)
            if s.foes:
                para += sum(1 for v in s.foes.values() if v[2])
        if self.loose_rule and (para or tele) and self._first_potion_idle(s):
            # The first potion used gains nothing: the rest may (whichever kind it is).
            return max(self.extra_moves(para - 1, tele) if para else 0,
                       self.extra_moves(para, tele - 1) if tele else 0), tele
        return self.extra_moves(para, tele), tele

    def _first_potion_idle(self, s: GameState) -> bool:
        """No enemy stands revealed and alive (``docs/solver.md``, *Potions*: then the first potion used
        cannot take the hero further than a turn without potions would).

        A potion gains a step over ``S`` / ``K`` only in a fight begun at a tile the hero entered this
        turn: flips happen in step 1 (neighbours of the turn's first tile) or in combat, so a tile
        revealed later lies one path from the first tile, unless he fought after moving. Such a fight
        is with an enemy revealed before he entered that tile and not beside the tile he left (he
        cannot move while beside one; two orthogonal neighbours have no common neighbour). With
        ``loose_rule`` an enemy is revealed only by a flip beside the hero, which starts a fight he
        leaves alive only by a potion (teleportation drunk or thrown, paralysis and a flee). So with
        no enemy revealed and alive now, some potion is used before any potion gains.
        """
        return not s.visitors and UP not in self._enemy_faces(s.faces)

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
            if d == INF or f == INF or tail == INF:
                continue
            out.append((d, f, tail))
        return tuple(out)



class HealthCeiling:
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


_RELAX: dict[int, tuple[object, Relaxation]] = {}


def relaxation(campaign: Campaign, d) -> Relaxation:
    """One Relaxation per compiled dungeon (its face-down cache is shared by searches on the same campaign)."""
    hit = _RELAX.get(id(d))
    if hit is None or hit[0] is not d:
        if len(_RELAX) > 16:
            _RELAX.clear()
        hit = _RELAX[id(d)] = (d, Relaxation(campaign, d))
    return hit[1]


def _getter(cells: list):
    """A function of ``faces`` giving the tuple of the faces of ``cells`` (in C)."""
    if len(cells) > 1:
        return itemgetter(*cells)
    if cells:
        only = cells[0]
        return lambda faces: (faces[only],)
    return lambda faces: ()



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


def _flips_always_engage(d) -> bool:
    """Every enemy card a flip can reveal is on an ADJACENT TILE of the tile it is flipped from (so it
    starts a fight at once: docs/rules.md, Board), and the grid is the only geometry (no enemy card starts
    face up is read per state)."""
    for i, row in enumerate(d.flip_to):
        for dr, j in enumerate(row):
            if j >= 0 and d.kind[j] == ENEMY and d.adjacent[i][dr] != j:
                return False
    return True


def flee_chain(d) -> int:
    """The most tiles one turn's flees can advance the hero (``F`` in docs/solver.md).

    A flee that lands next to another enemy starts combat at once, and the hero may flee again
    (docs/rules.md, "Fleeing next to another enemy"). Every landing but the last of such a chain
    is then on an ADJACENT TILE of an enemy card, each an ADJACENT TILE of the one before, so the
    chain without its detours stays in one connected group of those tiles and adds one last step:
    at most the largest group's size (1 when no two such tiles touch: a single flee).
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


class _Stock:
    """Where copies of some cards are still to be had: ``left(faces)`` counts them, a cell's own card
    until the cell is cleared, a shop's stock and a chest's contents always (an upper bound)."""

    def __init__(self, d, cards: frozenset) -> None:
        own = [j for j in range(len(d.kind)) if d.card[j].id in cards]
        self.fixed = sum(1 for cell in d.cells for c in (*cell.stock, *cell.contents) if c in cards)
        self.cells = len(own)
        self._faces = _getter(own)

    def left(self, faces) -> int:
        if not self.cells:
            return self.fixed
        return self.fixed + self.cells - self._faces(faces).count(CLEARED)
