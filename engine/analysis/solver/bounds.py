"""The turns heuristic: an admissible lower bound on the turns left.

:class:`Relaxation` counts the steps and face-down tiles between the hero and a way out in a
relaxed level graph (A*'s ``h``), with what the potions left can gain (:mod:`.potions`). It must never
be beaten by a real line of play: ``docs/solver.md`` gives the argument. The health tiebreak's upper
bound is :class:`~.ceiling.HealthCeiling`.
"""

from __future__ import annotations

from collections import deque

from ...model.campaign import Campaign, CardKind
from ...rules.mobility import obtainable_cards, wall_crossings
from ...rules.phases import CHOOSE_TELEPORT, COMBAT, DONE, MOVING, SHOPPING, STEP1
from ...rules.state import GameState
from ...rules.tables import CLEARED, DOWN, ENEMY, LADDER, UP
from .drink import MAX_CELLS, DrinkDetours, use_gains
from .flees import calm_chain, calm_enemies, calm_flee_gains, flee_chain
from .potions import PotionBound, split_between_turns
from .relaxed import faces_getter, flipped_cells, propagate, propagate_paced, reflipped_paced
from .result import INF
from .rolls import FleeOrigins, FleeRolls, flee_faces


class Relaxation(PotionBound):
    """Admissible lower bounds on the turns left, from the level graph (see ``docs/solver.md``).

    Per turn the hero takes at most ``S`` steps (a step = entering a tile by a move,
    a flee or a relocation) and enters at most ``K`` tiles that were face down when
    the turn began. Distances are taken in a relaxed graph that ignores enemies,
    chests and goals (and walls too when the hero could relocate through them).
    """

    def __init__(self, campaign: Campaign, d, every_enemy: bool = False) -> None:
        """``every_enemy``: count the flee chain beside every enemy card even for the warrior (*The warrior's
        chain* off)."""
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
        cannot = any(a.kind == "cannot-flee" for a in character.abilities)
        gear = any(a.kind == "can-flee" for _, a in abilities)
        calm = any(a.kind == "does-not-chase" for _, a in abilities)
        # A warrior (CANNOT FLEE) with no CAN FLEE X flees only an enemy that does not chase or is
        # paralysed (docs/rules.md, *Fleeing*): while nothing moves an enemy (no potion of teleportation),
        # his chain counts only the tiles beside DOES NOT CHASE enemy cards, and the flees beside
        # paralysed enemies come per potion (``calm_gains``; docs/solver.md, *The warrior's chain*).
        self.calm = calm_enemies(d) if cannot and not gear and calm and not self.teleport and not every_enemy else None
        free_flee = (not cannot or gear or calm) and self.calm is None
        # Fleeing on every turn (per-turn F), or only from an enemy paralysed by a thrown potion
        # (``para_limited``: counted per potion).
        # A thrown potion of teleportation moves an enemy (its own chain is then off: ``calm`` is None).
        self._potion_kinds(campaign, d)
        moved = sum(1 for c in seen if c in self.tele_cards)
        if self.calm is None:
            self.flee = flee_chain(d, moved=moved) if free_flee else 0
        elif self.para_cards & set(seen):
            # With potions of paralysis ``calm_gains`` counts on top of the chain with the enemies' cards.
            self.flee = flee_chain(d, self.calm)
        else:  # a flee never lands on an enemy's card (docs/solver.md, *Flees land off the enemies' cards*)
            self.flee = calm_chain(d, self.calm)
        self._count_potions(campaign, d, seen, free_flee, crossings)
        # Per enemies paralysed in a turn, the tiles their flees add to the warrior's calm chain.
        self.calm_gains = (calm_flee_gains(d, self.calm)
                           if self.calm and self.para_total else ())
        self._calm_flees: dict = {}  # potions -> ``extra_flees`` (it reads tables fixed here alone: kept for every count)
        self.mv = movement
        per_move_turn = 1 + movement
        self.double_move = d.rules.double_move
        self.S = (2 * per_move_turn if self.double_move else per_move_turn) + self.flee + self.reloc
        self.K = 1 + movement // 2 + self.flee + self.reloc
        # Paced: a turn enters at most two tiles, only one if it was face down when the turn began (a step
        # onto a face-up tile costs one half of a turn, onto a face-down one a whole turn): the warrior
        # with no +X MOVEMENT, no free flee and no relocation, under the double move (``_paced_counts``).
        self.paced = self.double_move and not movement and not self.flee and not self.reloc
        # A fight after moving beside an enemy met before lets a paced turn flip one tile more (``_met_fights``):
        # per level, the enemy cards the hero can stand beside (and the getter of their faces), and those of them a
        # flip can reveal away from the tile it is flipped from (no fight: ``loose``); None on a level where no
        # such fight can come (no enemy card face up at the start, none loose, no potion counted), as on the
        # generated open maps without potions.
        loose = {j for i, row in enumerate(d.flip_to) for dr, j in enumerate(row)
                 if j >= 0 and d.kind[j] == ENEMY and d.adjacent[i][dr] != j}
        # With potions counted an enemy may be left alive by one (a flee from it paralysed, a teleport drunk in a
        # fight, one thrown at it), to be met so later: every paced level with enemies then has the table.
        self._met_foes = []
        self._tele_crowd = []  # per level: the most enemy cards beside one tile, at most 4 (``_tele_allowance``)
        self._crowd = []  # per level: the most enemy cards an ADJACENT TILE has beside it, at most 3 (``_met_allowance``)
        for lo, hi in d.level_range:
            foes = [j for j in range(lo, hi) if d.kind[j] == ENEMY and d.near[j]]
            met = self.paced and any(j in loose or d.initial_faces[j] or self.items for j in foes)
            self._met_foes.append((tuple(foes), faces_getter(foes), frozenset(loose)) if met else None)
            # (A thrown potion of teleportation may put an enemy beside any tile: then 3.)
            crowd = max((len(d.enemy_near[j]) for j in range(lo, hi)), default=0)
            self._crowd.append(3 if self.tele_total else min(3, crowd))
            # Only potions of teleportation: the enemy cards a potion drunk in a fight may leave (``_tele_allowance``).
            self._tele_crowd.append(min(4, crowd))
        self._mets_cache: dict = {}  # (level, faces of its enemy cards, hero's tile) -> the enemies he may meet so
        self._steps_kept: dict = {}  # the counts ``_tele_allowance`` reads -> its ``steps`` tables (``_tele_steps``)
        self._now_cache: dict = {}  # (level, faces of its enemy cards, hero's tile) -> ``_met_now``
        self._dcache: dict = {}  # (level, mask, enemies met so) -> per way out, the discounted half-turns
        self._beside_of: dict = {}  # level -> ``_beside_cells``
        self._first_cache: dict = {}  # (level, mask, potions) -> half-turns onto one's cell, per local cell (``_pickup_cost``)
        # The flee chain of a state and the tiles flees start from (``rolls``, ``origins``; docs/solver.md,
        # *Flees start beside an enemy; chains on a roll*): beside the enemies alive, and in the rest of the
        # current turn beside those whose next roll flees. Where nothing moves an enemy and no potion is
        # counted (the bound then reads ``S`` and ``K`` only in ``_best_origins``).
        self.rolls = None
        if self.flee and not self.tele_total and not self.items:
            faces = flee_faces(campaign, character, [cards[c] for c in seen if c in cards])
            self.rolls = FleeRolls(campaign, d, faces, bool(self.para_cards & set(seen)))
        self._wcache: dict = {}  # (level, mask) -> per way out, the half-turns of the best route from each cell
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
        # A one-way flip (docs/solver.md, *One-way flips*): a card at the end of a path of a tile that has no path
        # back may be revealed from there and entered later from another side, a flip that lowers a route's count
        # by two. Every count reads such a card (other than an enemy) as face up: per level, the mask's bytes to
        # keep as one big-endian integer (a 0 byte at each such card), or None on a level with none.
        self._two_way = []
        for lo, hi in d.level_range:
            one_way = {j for i in range(lo, hi) for dr, j in enumerate(d.flip_to[i])
                       if j >= 0 and d.adjacent[i][dr] != j and d.kind[j] != ENEMY}
            self._two_way.append(int.from_bytes(bytes(0 if j in one_way else 1 for j in range(lo, hi)), "big")
                                 if one_way else None)
        self._potion_tables(d)
        # The steps of a walk that gains twice by the enemies one potion of teleportation drunk in a fight leaves
        # (``_lone_drink``; docs/solver.md, *Two gains from one drink*).
        self.drinks = DrinkDetours(d, self.local, self.ways) if self.paced and self.tele_total else None
        self.origins = FleeOrigins(d, self.local, self.ways) if self.rolls is not None else None
        # The paced warrior whose only flee is from an enemy he paralysed (``para_limited``), where nothing moves
        # an enemy or the hero through walls and every path is matched: the moves of a route cost their
        # half-turns whatever the potions gain (``_paced_moves``; docs/solver.md, *Paralysis: the moves of a
        # route*).
        self.moves_only = None
        self._moves: dict = {}  # (level, mask, local cell, half-turns left, campaign, enemies alive) -> ``_paced_moves``
        if (self.paced and self.para_total and not crossings
                and all(flip == adj for flip, adj in zip(d.flip_to, d.adjacent))):
            self.moves_only = FleeOrigins(d, self.local, self.ways)
        self._fcache: dict = {}
        self._bcache: dict = {}  # (level, mask, local cell, steps and face-down entries left, extra, campaign, tele) -> bound
        self._rcache: dict = {}  # (level, mask, local cell, campaign) -> routes
        self.start_bound = self._start_bounds()
        # With potions of paralysis the warrior's chain counts their flees per potion; the chain beside every
        # enemy card on every turn, those potions not counted, is a bound too (as it was): the larger holds.
        self._every = None
        if self.calm_gains:
            self._every = Relaxation(campaign, d, every_enemy=True)
            # Both are sound; the first costs more a state (the potions' pickups). Where it proves no more
            # turns from any level's start, the second alone is read (as before the warrior's chain).
            if any(own > other for own, other in zip(self.start_bound, self._every.start_bound)):
                self.bound_masked = self._larger_bound  # this instance only: the other maps pay nothing
            else:
                self.bound_masked = self._every.bound_masked

    def _larger_bound(self, s: GameState, campaign_mode: bool, mask: bytes, hint: bytes | None = None) -> float:
        """:meth:`bound_masked`: the larger of the warrior's chain with potions of paralysis counted and of the
        chain beside every enemy (``_every``). Each is cached on its own key (the other reads more of the
        state: the enemies alive and their rolls)."""
        own = Relaxation.bound_masked(self, s, campaign_mode, mask, hint)
        other = self._every.bound_masked(s, campaign_mode, mask, hint)
        return own if own >= other else other

    def extra_flees(self, potions: int) -> int:
        """:meth:`PotionBound.extra_flees`; for the warrior whose chain counts only the DOES NOT CHASE enemy
        cards (``calm``), the tiles flees beside paralysed enemies add to it: ``calm_gains[p]`` in a turn
        with p of them paralysed (``flees.calm_flee_gains``), the potions split between turns in the way
        that adds most."""
        hit = self._calm_flees.get(potions)
        if hit is None:
            if not self.calm_gains:
                hit = super().extra_flees(potions)
            elif potions <= 0:
                hit = 0
            else:
                last = len(self.calm_gains) - 1  # p enemies paralysed: at most ``last`` distinct
                per_turn = [self.calm_gains[min(p, last)] for p in range(potions + 1)]
                hit = split_between_turns(per_turn, potions)
            self._calm_flees[potions] = hit
        return hit

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
        flipped = flipped_cells(hint, down) if base is not None else None
        if flipped is None:
            hit = tuple(self._full_counts(level, down, k) for k in range(len(self.ways[level])))
        else:
            hit = tuple(self._lower_counts(level, down, list(enter), flipped) for enter in base)
        if len(self._fcache) > 200_000:
            self._fcache.clear()
        self._fcache[key] = hit
        return hit

    def _paced_counts(self, level: int, down: bytes, hint: bytes | None = None) -> tuple:
        """Per way out w, ``cost[i]``: the fewest half-turns of a route that enters local cell i and goes on
        to w, each tile entered costing 1, or 2 if face down (i and w counted). In a paced level (``paced``)
        a turn without potions spends at most 2: two steps onto tiles face up when it began, or one step
        (a flip forfeits the double move, and a tile flipped in a fight is entered only by a flee)."""
        key = (level, down)
        hit = self._wcache.get(key)
        if hit is not None:
            return hit
        base = self._wcache.get((level, hint)) if hint is not None else None
        flipped = flipped_cells(hint, down) if base is not None else None
        nbrs = self.local[level]
        if flipped is None:
            lo = self.d.level_range[level][0]
            out = []
            for w, _ in self.ways[level]:
                cost = [INF] * len(nbrs)
                cost[w - lo] = 1 + down[w - lo]
                out.append(propagate_paced(nbrs, down, cost, deque([w - lo])))
            hit = tuple(out)
        else:
            hit = tuple(reflipped_paced(nbrs, down, cost, flipped) for cost in base)
        if len(self._wcache) > 200_000:
            self._wcache.clear()
        self._wcache[key] = hit
        return hit

    def _full_counts(self, level: int, down: bytes, k: int) -> list:
        w = self.ways[level][k][0] - self.d.level_range[level][0]
        enter = [INF] * len(self.local[level])
        enter[w] = down[w]
        return propagate(self.local[level], down, enter, deque([w]))

    def _lower_counts(self, level: int, down: bytes, enter: list, flipped: list) -> list:
        queue = deque()
        for c in flipped:
            if enter[c] != INF:
                enter[c] -= 1  # its own face-down tile no longer counts; the rest of its best route is unchanged
                queue.append(c)
        return propagate(self.local[level], down, enter, queue)

    def _count_at(self, level: int, enter: list, k: int, i: int) -> float:
        """Face-down tiles entered on the best route from local cell i to way out k (i itself not counted)."""
        if i == self.ways[level][k][0] - self.d.level_range[level][0]:
            return 0
        return min(map(enter.__getitem__, self.local[level][i]), default=INF)

    def _term(self, d: float, f: float, r: int, k_now: int, extra: int = 0) -> float:
        """Turns after this one needed to cover ``d`` steps and ``f`` face-down tiles (``r``, ``k_now`` left
        now, ``extra`` more in the rest of the game: flees from paralysed enemies)."""
        if d == INF or f == INF:
            return INF
        r, k_now = r + extra, k_now + extra
        steps = 0 if d <= r else -(-(d - r) // self.S)
        downs = 0 if f <= k_now else -(-(f - k_now) // self.K)
        return max(steps, downs)

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
            mask = self._two_ways(li, d.initial_faces[lo:hi].translate(self._down))
            counts = self.face_down_counts(li, mask)
            jumps = self._jumps(li, mask) if self.tele_total else ((INF, INF, None),) * len(self.ways[li])
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

    def remaining(self, s: GameState, flee: int | None = None) -> tuple[int, int]:
        """(steps, face-down tiles entered) still possible in the current turn, upper bounds; ``flee``: the
        flee chain of the rest of this turn, if not ``F`` (``rolls``)."""
        if flee is None:
            flee = self.flee
        phase = s.phase
        if phase == STEP1 or phase == CHOOSE_TELEPORT or (phase == COMBAT and not s.moved):
            return self.S - self.flee + flee, self.K - self.flee + flee
        if phase == COMBAT or phase == SHOPPING:
            return flee + self.reloc, flee + self.reloc  # (flees from paralysed enemies: ``extra``)
        if phase == MOVING:
            left = s.moves
            if s.pure and not s.repeated and self.double_move:
                left += 1 + self.mv
            if left:
                return left + flee + self.reloc, flee + self.reloc
            return self.reloc, 0
        return self.reloc, 0  # DONE: only a relocation, and never into a face-down tile

    def mask(self, s: GameState) -> bytes:
        """The face-down cells of the hero's level, one byte each."""
        if self.levels == 1:
            mask = bytes(s.faces).translate(self._down)
        else:
            lo, hi = self.d.level_range[s.level]
            mask = bytes(s.faces[lo:hi]).translate(self._down)
        return mask if self._two_way[s.level] is None else self._two_ways(s.level, mask)

    def _two_ways(self, level: int, mask: bytes) -> bytes:
        """``mask`` with the cards of ``level`` a one-way flip may reveal (not enemies) read as face up."""
        keep = self._two_way[level]
        return mask if keep is None else (int.from_bytes(mask, "big") & keep).to_bytes(len(mask), "big")

    def bound(self, s: GameState, campaign_mode: bool, hint: tuple[int, bytes] | None = None) -> float:
        """A lower bound on the turns after ``s.turn`` needed to finish (won, or the level left).

        ``hint`` = (level, mask) of the state ``s`` came from, to update the face-down counts cheaply.
        """
        return self.bound_masked(s, campaign_mode, self.mask(s), hint[1] if hint is not None and hint[0] == s.level else None)

    def bound_masked(self, s: GameState, campaign_mode: bool, mask: bytes, hint: bytes | None = None) -> float:
        """:meth:`bound` given ``mask`` = ``self.mask(s)`` and the mask of a state of the same level it came from.

        The bound depends only on the level, the mask, the tile, what is left of the turn and the potions
        (held, and which of the level's are still on their cells), so it is cached on those; the routes
        behind it (:meth:`routes`) on the level, the mask and the tile.
        """
        li = s.level
        future = now = alive = None
        if self.rolls is not None:
            future, now, alive = self.rolls.chains(s)
        r0, k0 = self.remaining(s, now)
        if self.paced:
            # Only the half-turns left of this turn count (``_best``): states that differ in how they are
            # left share the bound.
            # ``k0`` then says whether this turn may still bring a potion's gain (a fight may begin or goes on):
            # not at step 4, nor with no move left.
            h0 = r0 + k0 if r0 + k0 < 2 else 2
            r0, k0 = h0, 0 if h0 == 0 and (s.phase == DONE or s.phase == MOVING) else 1
        i = s.pos - self.d.level_range[li][0]
        potions = self.potions(s) if self.items else None
        met = None
        allow = None
        lone = False
        r_moves = r0  # (the moves count of ``_with_moves`` has no allowance to make: docs/solver.md)
        if potions is not None and self._met_foes[li] is not None:
            if not (potions[0] or potions[1] or potions[3]):
                potions = None  # none left to use: the bound without potions, with the enemies met so
            elif self.para_total:
                allow = self._met_allowance(s, li, potions, k0, mask, i, r0, hint)  # (in the key: it reads the enemies alive)
                lone = self._lone_flee(s, li, potions, allow)
            else:
                allow = self._tele_allowance(s, li, potions, k0, mask, i, r0, hint)  # only potions of teleportation (in the key too)
                lone = self._lone_drink(s, li, potions, allow)
        plain = -1  # (no potion left, gains allowed: the half-turns of this turn without them, for ``_won_now``)
        if potions is None and self._met_foes[li] is not None:
            met = self._met_fights(s)
            plain = r0
            if s.moved and (s.phase == COMBAT or s.phase == SHOPPING):
                r0 += 1  # a fight after moving he is in: its flips may still come
            if s.visitors:
                r0 += self._far_visitors(s)  # an enemy a thrown potion moved: one fight after moving each
            alive = met  # (in the key: the discounted routes read it)
            if r0 == plain and not met:
                plain = -1  # no gain allowed: the bound is the one without potions as it is
        blocked = self.landing_blocked(s) if self.tele_total else 0
        key = (li, mask, i, r0, k0, campaign_mode, potions, blocked, alive, now, allow, lone)  # r0 apart: a jump's route starts from it
        # (``alive`` and ``now``: the flee chains and tiles beside enemies of ``rolls``; with r0 and k0 they fix
        # what is left of the turn without flees)
        best = self._bcache.get(key)
        if best is not None:
            if best == 0 and plain >= 0:
                best = self._won_now(li, mask, i, campaign_mode, plain, k0, hint)
            if self.moves_only is not None:
                return self._with_moves(s, li, mask, hint, i, r_moves, campaign_mode, best)
            return best
        routes = self._routes_kept(li, mask, i, campaign_mode, hint)
        if self.origins is not None:
            best = self._best_origins(s, li, mask, hint, i, routes, r0, k0, future, alive)
        elif met:
            best = self._best(self._met_routes(li, mask, i, routes, met), r0, k0, 0)
        elif potions is None:
            best = self._best(routes, r0, k0, 0)
        elif allow is None:
            best = self._with_potions(li, mask, i, r0, k0, campaign_mode, potions, routes, hint, blocked)
        else:
            best = self._with_met(li, mask, i, r0, k0, campaign_mode, potions, routes, hint, blocked, allow)
            if lone and self.para_total:
                best = self._flee_gains(li, mask, i, r0, k0, campaign_mode, potions, routes, hint, blocked, allow, best)
            elif lone:
                best = self._two_gains(li, mask, i, r0, k0, campaign_mode, potions, routes, hint, blocked, allow, best)
        if len(self._bcache) > 400_000:
            self._bcache.clear()
            self._rcache.clear()
        self._bcache[key] = best
        if best == 0 and plain >= 0:
            best = self._won_now(li, mask, i, campaign_mode, plain, k0, hint)
        if self.moves_only is not None:
            return self._with_moves(s, li, mask, hint, i, r_moves, campaign_mode, best)
        return best

    def _far_visitors(self, s: GameState) -> int:
        """The enemies a thrown potion of teleportation moved (``visitors``) that do not stand beside the hero, where
        no potion is left to use: each may still give one fight after moving. One beside him is in the fight he is in
        (FLEE: "When a player is adjacent to multiple enemies, he is in combat with those enemies") or begins his
        next turn in one, and he leaves it only by slaying it: he cannot flee (CANNOT FLEE) and no potion is left
        to leave it by. So it is slain from this tile, in the fight after moving he is in (counted once, as that
        fight) or in a fight at a turn's first tile, which gains nothing (docs/solver.md, *Visitors beside the hero
        and the winning turn, no potion left*)."""
        near = self.d.near[s.pos]
        visitors = s.visitors
        return len(visitors) - sum(1 for j in near if j in visitors)

    def _won_now(self, li: int, mask: bytes, i: int, campaign_mode: bool, plain: int, k0: int,
                 hint: bytes | None) -> int:
        """0 if the hero, no potion left, may still finish in this turn without a fight after moving, else 1: the
        turn that enters the way out holds no fight after moving before it ("A cell marked exit wins the campaign
        when the hero moves onto it alive", and after a fight after moving only step 4 is left: SLAYING AN ENEMY,
        "resume his Standard Turn Sequence ... at step 4 if he moved adjacent to the enemy"), so it has only its
        ``plain`` half-turns, with no gain (docs/solver.md, *Visitors beside the hero and the winning turn, no potion
        left*)."""
        return 0 if self._best(self._routes_kept(li, mask, i, campaign_mode, hint), plain, k0, 0) == 0 else 1

    def _routes_kept(self, li: int, mask: bytes, i: int, campaign_mode: bool, hint: bytes | None):
        """:meth:`routes` from tile ``i`` under ``mask``, kept (``_rcache``, cleared with ``_bcache``)."""
        where = (li, mask, i, campaign_mode)
        routes = self._rcache.get(where)
        if routes is None:
            routes = self._rcache[where] = self.routes(li, mask, i, campaign_mode, hint)
        return routes

    def _met_allowance(self, s: GameState, li: int, potions: tuple, k0: int, mask: bytes, i: int,
                       r0: int, hint: bytes | None = None) -> tuple[int, int]:
        """(``A``, ``c``): at most ``A`` fights after moving beside an enemy met before gain a half-turn in the rest
        of the game (``G``), at most one a turn, and ``G <= T + c`` (docs/solver.md, *A fight after moving beside an
        enemy met before*, with potions). The paced hero on a level with potions of paralysis.

        Each gain ends a run of such turns whose last fight is not left by a flee (or a turn after it pays for it),
        and that fight's enemies are slain: at most one gain per enemy alive (and per enemy moved by a thrown potion
        of teleportation, ``visitors``). And each is the fight of an enemy met so: one standing face up and alive
        and not beside the hero now, or face down where a flip reveals it without a fight, the one of a fight
        after moving he is in, or one a flee or a teleport left alive later: at most ``crowd`` (the enemies beside
        one tile, at most 3) per flee the potions of paralysis allow and per potion of teleportation.

        ``c``: 1 if this turn may still hold a gain (``k0``), else 0; but where no enemy is met so now, the gains come
        only from the turn after the first flee, which comes after the turn the walk first holds a potion
        (:meth:`_first_gain`, turn ``J``): then only turns ``J`` to ``T`` may gain, ``c = 1 - J`` (docs/solver.md,
        *The first potion picked up*, *The first flee holds no gain*). With no potion of teleportation in the game
        ``c`` is one less: the turn that enters the way out holds no gain (after a fight after moving won the turn
        resumes at step 4, and entering the exit wins at once, a ladder ends the turn: *The winning turn holds no
        gain*)."""
        alive, met = self._met_now(s, li)
        if s.moved and (s.phase == COMBAT or s.phase == SHOPPING):
            met += 1  # a fight after moving he is in
        tele, para, _, left = potions
        visitors = len(s.visitors)
        c = 1 if k0 else 0
        if not (met or tele or visitors):
            first = self._first_gain(li, mask, i, left, para, r0, hint)
            if first is None:
                return 0, 0  # no potion will be in hand: no flee, no enemy met so
            if 1 - first < c:
                c = 1 - first
        pots = self.pots[li]
        for p in left:
            if pots[p][1]:
                tele += 1
            else:
                para += 1
        met += self._crowd[li] * (self.extra_flees(para) + tele)
        if not self.tele_total:
            c -= 1  # the winning turn holds no gain
        return (alive if alive < met else met) + visitors, c

    def _met_now(self, s: GameState, li: int) -> tuple[int, int]:
        """The enemies on the hero's level alive now, and those of them met so: standing face up and not beside
        him now, or face down where a flip reveals them without a fight (``_met_foes``). Kept per (level, faces of
        its enemy cards, hero's tile) in ``_now_cache`` (at most 100,000)."""
        foes, getter, loose = self._met_foes[li]
        faces = getter(s.faces)
        key = (li, faces, s.pos)
        hit = self._now_cache.get(key)
        if hit is None:
            beside = self.d.enemy_near[s.pos]
            alive = met = 0
            for j, face in zip(foes, faces):
                if face == CLEARED:
                    continue  # slain (or moved away: ``visitors``)
                alive += 1
                if (face == UP and j not in beside) or (face == DOWN and j in loose):
                    met += 1
            if len(self._now_cache) > 100_000:
                self._now_cache.clear()
            hit = self._now_cache[key] = (alive, met)
        return hit

    def _first_gain(self, li: int, mask: bytes, i: int, left: tuple, held: int, r0: int,
                    hint: bytes | None = None) -> int | None:
        """With no enemy met so now: the first turn after this one (0: this one) that may hold a gain, or None if no
        potion will ever be in hand (docs/solver.md, *The first potion picked up*). ``held``: the potions of
        paralysis counted as in hand (held, paralysed this turn, in a shop or a chest); ``left``: those on the
        level's cells.

        With no potion of teleportation in the game only a flee leaves an enemy met so, and the turn of the first
        flee holds no gain (its one fight is at the turn's first tile, and the flee lands beside no enemy revealed:
        *The first flee holds no gain*); with no potion in hand, the first flee comes after the turn the walk first
        stands on a potion's cell (``J1``, from the half-turns onto the nearest), since nothing follows that move in
        its turn. So the first gain comes in turn 1 with a potion at hand, else in turn ``J1 + 2``. With potions of
        teleportation in the game, in turn ``J1`` (a thrown one may move an enemy beside the hero's way at once)."""
        if self.tele_total:
            return 0 if held else self._first_tele_gain(li, mask, i, left, r0, hint)
        if held:
            return 1
        j1 = self._first_tele_gain(li, mask, i, left, r0, hint)  # J1: the walk onto the nearest potion's cell
        return None if j1 is None else j1 + 2

    def _pickup_cost(self, li: int, mask: bytes, i: int, left: tuple, hint: bytes | None = None) -> float:
        """The fewest half-turns (1 a tile entered, 2 if face down: :meth:`_paced_counts`) of a route from local
        cell ``i`` onto the cell of one of the level's potions ``left`` (indices in ``pots``); INF if it can reach
        none. One search from all their cells at once (the least over them), kept per (level, mask, ``left``) in
        ``_first_cache`` (at most 100,000); found from those of the mask ``hint`` (a state it came from, same level)
        by lowering the cells flipped since, as :meth:`_paced_counts` does."""
        key = (li, mask, left)
        cost = self._first_cache.get(key)
        if cost is None:
            nbrs = self.local[li]
            base = self._first_cache.get((li, hint, left)) if hint is not None else None
            flipped = flipped_cells(hint, mask) if base is not None else None
            if flipped is None:
                cost = [INF] * len(nbrs)
                pots = self.pots[li]
                cells = [pots[p][0] for p in left]
                for c in cells:
                    cost[c] = 1 + mask[c]
                cost = propagate_paced(nbrs, mask, cost, deque(cells))
            else:
                cost = reflipped_paced(nbrs, mask, base, flipped)
            if len(self._first_cache) > 100_000:
                self._first_cache.clear()
            self._first_cache[key] = cost
        return min(map(cost.__getitem__, self.local[li][i]), default=INF)

    def _tele_allowance(self, s: GameState, li: int, potions: tuple, k0: int, mask: bytes, i: int,
                        r0: int, hint: bytes | None = None) -> tuple:
        """(``A``, ``c``) of :meth:`_met_allowance` on a level whose only potions are of teleportation (docs/solver.md,
        *A fight after moving beside an enemy met before*, *Potions of teleportation alone*).

        Each gain is a fight after moving, beside an enemy met before, left by slaying its enemies (a potion that
        ends it counts its own half-turns, the flip of that fight among them): one per enemy alive, and per enemy
        met so, which is one standing face up and alive and not beside the hero now, one face down where a flip
        reveals it without a fight, one a thrown potion of teleportation moved (``visitors``, or waiting for its
        tile), the one of a fight after moving he is in, or those a potion still to be used leaves: drunk in a
        fight, the enemies beside its tile (``tele_crowd``, at most 4), thrown, the one it moves.

        ``c``: 1 if this turn may still hold a gain (``k0``), else 0; but where no enemy is met so now and no potion
        is at hand, the first gain comes in the turn after the walk first stands on a potion's cell or later
        (turn ``J1 + 1``, ``J1`` from the half-turns onto the nearest: :meth:`_first_tele_gain`), ``c = -J1``
        (docs/solver.md, *The first potion of teleportation picked up*).

        Also ``steps`` (*A potion drunk in a fight holds no gain*: ``steps[n]`` the gains' allowance when ``n`` of the
        potions are drunk in a fight, each in a turn that gains nothing; :func:`_gains`) and, where potions lie on the
        level's cells, those ``steps`` with none of them counted (*A gain needs its potion picked up*: :meth:`_with_met`
        reads them with the empty set of pickups alone, the others with the other sets)."""
        alive, met = self._met_now(s, li)
        if s.moved and (s.phase == COMBAT or s.phase == SHOPPING):
            met += 1  # a fight after moving he is in: one gain, its enemies slain (or left by a potion, counted below)
        tele = potions[0]
        visitors = len(s.visitors)
        if s.phase == CHOOSE_TELEPORT and s.subject >= 0:
            visitors += 1  # thrown: the enemy it moves
        drunk = s.phase == CHOOSE_TELEPORT and s.subject < 0
        # Drunk: the turn ends on the tile it lands on, so no fight after moving is left of it (``c = 0``).
        c = 1 if k0 and not drunk else 0
        if not (met or tele or visitors):
            j1 = self._first_tele_gain(li, mask, i, potions[3], r0, hint)
            if j1 is None:
                return 0, 0  # no potion will ever be in hand: no enemy met so, no gain
            if -j1 < c:
                c = -j1
        pots = self.pots[li]
        for p in potions[3]:
            if pots[p][1]:
                tele += 1
        pending = 0
        if drunk:
            tele -= 1  # the potion drunk now: the enemies beside the tile it leaves if in a fight, else none
            pending = 1 if self._fighting(s, li) else 0
        # A potion drunk in a fight ends its turn, which holds no gain (*A potion drunk in a fight holds no gain*):
        # with ``n`` of the ``tele`` potions left so drunk, at most ``t + c - n`` turns gain, and the enemies met so
        # are at most ``tele_crowd`` per such potion (and the one drunk now in a fight) and one per other potion
        # (thrown, it moves one enemy; drunk outside a fight, none). ``steps[n]``: that count.
        crowd = self._tele_crowd[li]
        on_cells = len(potions[3])
        # The tables read these counts alone: kept per them (``_steps_kept``, at most 100,000).
        skey = (crowd, tele, on_cells, met, alive, visitors, drunk, pending)
        per = self._steps_kept.get(skey)
        if per is None:
            per = self._tele_steps(crowd, tele, on_cells, met, alive, visitors, drunk, pending)
            if len(self._steps_kept) > 100_000:
                self._steps_kept.clear()
            self._steps_kept[skey] = per
        if on_cells:  # (a walk that picks up none of the level's potions on their cells: *A gain needs its potion ...*)
            return per[1][-1], c, per[1], per[0]
        return per[0][-1], c, per[0]

    def _tele_steps(self, crowd: int, tele: int, on_cells: int, met: int, alive: int, visitors: int, drunk: bool,
                    pending: int) -> tuple:
        """The ``steps`` tables of :meth:`_tele_allowance` from its counts: for the ``tele`` potions still to be used,
        and (``on_cells`` of them on the level's cells) first for those but the ones on cells."""
        thrown = 1 if crowd else 0  # (no enemy beside any tile: none to throw one at)
        per = []
        for count in (tele - on_cells, tele) if on_cells else (tele,):
            steps = []
            for n in range(count + 1):
                most = met + crowd * (n + pending) + thrown * (count - n)
                steps.append((alive if alive < most else most) + visitors)
            steps = tuple(steps)
            if count + drunk >= 2:
                steps = self._uses(steps, count, met, crowd, alive, visitors, (1 + pending) if drunk else 0)
            per.append(steps)
        return tuple(per)

    @staticmethod
    def _uses(steps: tuple, count: int, met: int, crowd: int, alive: int, visitors: int, drinking: int) -> tuple:
        """``steps`` of :meth:`_tele_allowance` for ``count`` potions still to be used (and one drunk now waiting for
        its tile, ``drinking`` 1 outside a fight, 2 in one; two potions or more in all; one thrown now is among the
        ``visitors``) made a table of :func:`_used_gains`: per turns that may gain, the lesser of ``_gains(steps, ...)``
        and what the ways those potions may be used allow (docs/solver.md, *What a potion of teleportation is used
        for*)."""
        return _used_gains(steps, use_gains(count, met, crowd, alive, visitors, drinking))

    def _lone_drink(self, s: GameState, li: int, potions: tuple, allow: tuple) -> bool:
        """The one potion of teleportation still to be used (held, in a shop's stock or a chest, or on a cell of the
        level) is what any gain needs, and it may leave two enemies or more: no enemy met so now (none counted in
        ``A`` as met so now, no fight after moving he is in), none a thrown potion moved or is moving, none drunk
        now (docs/solver.md, *Two gains from one drink*)."""
        if allow[0] < 2 or s.phase == CHOOSE_TELEPORT or s.visitors or self.drinks is None:
            return False
        lo, hi = self.d.level_range[li]
        if hi - lo > MAX_CELLS:
            return False  # (the tables hold every pair of the level's cells)
        if s.moved and (s.phase == COMBAT or s.phase == SHOPPING):
            return False  # a fight after moving he is in: an enemy met so
        pots = self.pots[li]
        if potions[0] + sum(1 for p in potions[3] if pots[p][1]) != 1:
            return False
        return self._met_now(s, li)[1] == 0

    def _two_gains(self, li: int, mask: bytes, i: int, r0: int, k0: int, campaign_mode: bool, potions: tuple,
                   routes: tuple, hint: bytes | None, blocked: int, allow: tuple, best: float) -> float:
        """``best`` (:meth:`_with_met` with ``allow``) raised where the one potion left (:meth:`_lone_drink`) cannot
        give two gains in time: the walks with one gain at most take at least :meth:`_with_met` with every count of
        ``allow`` capped at 1; those with two or more (the potion drunk in a fight, two of the enemies it leaves
        gained) at least ``best`` and at least the turns of their steps (:class:`~.drink.DrinkDetours`) and of the
        face-down tiles of a route from a tile face up now (the stands that flip them), less the gains ``A``:
        ``r0 + 2T >= steps + face-down - A``. The bound is the lesser of the two (docs/solver.md, *Two gains from
        one drink*)."""
        capped = (1,) + allow[1:2] + tuple(tuple(min(1, a) for a in steps) for steps in allow[2:])
        one = self._with_met(li, mask, i, r0, k0, campaign_mode, potions, routes, hint, blocked, capped)
        if one <= best:
            return best
        most = allow[0]
        jumps = self._jumps(li, mask)
        two = self._paced_least(routes, lambda d, k: self.drinks.steps(li, k, mask, i) + jumps[k][1] - most, r0)
        if two < best:
            two = best
        return one if one < two else two

    def _lone_flee(self, s: GameState, li: int, potions: tuple, allow: tuple) -> bool:
        """One flee at most is left in the game, and every gain needs the enemies it leaves: the paced warrior whose
        only flee is from an enemy he paralysed, where nothing crosses walls and every path is matched (``moves_only``),
        no potion of teleportation, one potion of paralysis still to be used in all (held, paralysed this turn, in a
        shop's stock or a chest, on a cell of any level), no enemy met so now and no fight after moving he is in, and
        ``A >= 2`` (docs/solver.md, *One flee left: two gains take two steps more*)."""
        if allow[0] < 2 or self.moves_only is None or self.tele_total or s.visitors:
            return False
        if potions[1] + len(potions[3]) != 1:
            return False
        if s.moved and (s.phase == COMBAT or s.phase == SHOPPING):
            return False  # a fight after moving he is in: an enemy met so
        return self._met_now(s, li)[1] == 0

    def _flee_gains(self, li: int, mask: bytes, i: int, r0: int, k0: int, campaign_mode: bool, potions: tuple,
                    routes: tuple, hint: bytes | None, blocked: int, allow: tuple, best: float) -> float:
        """``best`` (:meth:`_with_met` with ``allow``) raised where one flee is left (:meth:`_lone_flee`): the walks
        with one gain at most take at least :meth:`_with_met` with ``A`` capped at 1; those with ``G >= 2`` gains
        take at least ``d + 2G - 2`` steps (``d`` the relaxed distance to the way out: the gains' tiles stand beside
        enemies beside the flee's tile, the colour of that tile on the board's chequer, and each is entered by a
        move in a turn of its own) and stand on at least ``F`` tiles (the face-down tiles of a route from a tile face
        up now: each is flipped from the one before), with ``r0 + 2T >= steps + stands - G``: at least
        ``ceil((d + F - r0) / 2)`` turns. The bound is the lesser of the two, and at least ``best`` (docs/solver.md,
        *One flee left: two gains take two steps more*)."""
        one = self._with_met(li, mask, i, r0, k0, campaign_mode, potions, routes, hint, blocked, (1, allow[1]))
        if one <= best:
            return best
        jumps = self._jumps(li, mask)
        two = self._paced_least(routes, lambda d, k: d + jumps[k][1], r0)
        if two < best:
            two = best
        return one if one < two else two

    @staticmethod
    def _paced_least(routes: tuple, steps_of, r0: int) -> float:
        """The least over ``routes`` of the turns a walk of ``steps_of(d, k)`` half-turns takes past the ``r0``
        left this turn, two a turn, plus the route's ``tail`` (the walks with two gains or more of :meth:`_two_gains`
        and :meth:`_flee_gains`)."""
        least = INF
        for d, _, tail, k, _ in routes:
            need = steps_of(d, k) - r0
            t = (0 if need <= 0 else (need + 1) // 2) + tail
            if t < least:
                least = t
        return least

    def _fighting(self, s: GameState, li: int) -> bool:
        """An enemy stands face up and alive beside the hero (he is, or was when he drank, in a fight with it)."""
        foes, getter, _ = self._met_foes[li]
        beside = self.d.enemy_near[s.pos]
        return any(face == UP and j in beside for j, face in zip(foes, getter(s.faces)))

    def _first_tele_gain(self, li: int, mask: bytes, i: int, left: tuple, r0: int,
                         hint: bytes | None = None) -> int | None:
        """With no enemy met so now and no potion of teleportation at hand (the only kind counted on the level):
        ``J1``, the first turn after this one (0: this one) in which the walk may stand on the cell of one of the
        level's potions ``left`` (indices in ``pots``), or None if it can reach none (docs/solver.md, *The first
        potion of teleportation picked up*). Until then no turn gains: the count without potions, 2 half-turns a
        turn (``r0`` left of this one), over the fewest half-turns onto the nearest potion's cell
        (:meth:`_pickup_cost`). Also ``J1`` of :meth:`_first_gain`, for potions of paralysis."""
        cost = self._pickup_cost(li, mask, i, left, hint) if left else INF
        if cost == INF:
            return None
        return 0 if cost <= r0 else (cost - r0 + 1) // 2

    def _with_met(self, li: int, mask: bytes, i: int, r0: int, k0: int, campaign_mode: bool, potions: tuple,
                  routes: tuple, hint: bytes | None, blocked: int, allow: tuple, only: int = -1,
                  cap: float = INF) -> float:
        """:meth:`_with_potions` with the gains of fights after moving beside an enemy met before: at most ``A``
        half-turns in all, and at most ``t + c`` in ``t`` more turns, ``allow = (A, c)`` (``c`` may be negative:
        :meth:`_met_allowance`). With ``B(x)`` the potion bound given ``x`` half-turns more (non-increasing in
        ``x``), the turns ``t`` after this one satisfy ``t >= B(min(A, max(0, t + c)))``: the least such ``t`` is
        the bound (docs/solver.md).

        The gains ``x`` raise ``r0`` where potions of paralysis are counted; with potions of teleportation they are
        also given to :meth:`_with_potions` as ``gain``: the routes after a jump onto a tile face up now never
        read ``r`` (docs/solver.md, *Both kinds of potion on a level*). On a level whose only potions are of
        teleportation ``r0`` stays as it is: the rules of one gain a turn read it, and a turn still drops 4
        half-turns at most (*Potions of teleportation alone*).

        There ``allow = (A, c, steps[, bare])`` (:meth:`_tele_allowance`): the gains in ``t`` turns are at most
        ``_gains(steps, t + c)`` (*A potion drunk in a fight holds no gain*), and a walk that picks up none of the
        level's potions on their cells at most ``_gains(bare, t + c)``: the bound is the lesser of the one over the
        empty set of pickups with ``bare`` (``only`` 0) and the one over the other sets with ``steps`` (``only`` -2;
        *A gain needs its potion picked up*).

        ``cap``: for a caller that reads the value only where it is below ``cap`` (the lesser of two counts): the least
        ``t`` is searched only up to ``cap``, and a value no lower than ``cap`` may be returned in place of a larger
        one (never a lower one)."""
        if len(allow) > 3 and self.paced and not self.para_total:
            bare = allow[3]
            none = self._with_met(li, mask, i, r0, k0, campaign_mode, potions, routes, hint, blocked,
                                  (bare[-1], allow[1], bare), 0, cap)
            # (Only the lesser is read: the second search stops once it is no lower than the first.)
            some = self._with_met(li, mask, i, r0, k0, campaign_mode, potions, routes, hint, blocked, allow[:3], -2,
                                  none if none < cap else cap)
            return none if none < some else some
        most, c = allow[0], allow[1]
        steps = allow[2] if len(allow) > 2 else ()
        para, tele = bool(self.para_total), bool(self.tele_total)
        if para and not tele and not steps:
            # The least such t in one search over the sets (``settle``: each term's own least t).
            return self._with_potions(li, mask, i, r0 + most, k0, campaign_mode, potions, routes, hint, blocked, 0,
                                      only, INF, (most, c))
        t = self._with_potions(li, mask, i, r0 + most * para, k0, campaign_mode, potions, routes, hint, blocked,
                               most * tele, only)
        while t < cap:  # (``cap``: a caller that reads only a value below it; INF stops it too)
            if steps:
                more = _gains(steps, t + c) if steps[0] >= 0 else _gains_at(steps, t + c)
            else:
                more = t + c if t + c > 0 else 0
            if more >= most:
                break
            b = self._with_potions(li, mask, i, r0 + more * para, k0, campaign_mode, potions, routes, hint, blocked,
                                   more * tele, only, t + 1)  # (only whether it is at most t is read)
            if b <= t:
                break
            t += 1
        return t

    def _with_moves(self, s: GameState, li: int, mask: bytes, hint: bytes | None, i: int, r0: int, campaign_mode: bool,
                    best: float) -> float:
        """The larger of ``best`` (the potion bound) and :meth:`_paced_moves`, which is kept on its own key: it
        reads the enemies alive, the potion bound the potions."""
        alive = self.moves_only.alive(s)
        key = (li, mask, i, r0, campaign_mode, alive)
        moves = self._moves.get(key)
        if moves is None:
            routes = self._rcache.get((li, mask, i, campaign_mode))
            if routes is None:
                routes = self._rcache[(li, mask, i, campaign_mode)] = self.routes(li, mask, i, campaign_mode, hint)
            moves = self._paced_moves(li, mask, hint, i, routes, r0, alive)
            if len(self._moves) > 400_000:
                self._moves.clear()
            self._moves[key] = moves
        return moves if moves > best else best

    def _met_fights(self, s: GameState) -> frozenset:
        """The enemy cards (local cells) the paced hero, no potion counted, may still fight after moving to a tile
        beside them, met before (docs/solver.md, *A fight after moving beside an enemy met before*): alive on his
        level with an ADJACENT TILE, face up and not beside him now (he fights those until they are slain), or face
        down where a flip can reveal them without a fight."""
        foes, getter, loose = self._met_foes[s.level]
        faces = getter(s.faces)
        key = (s.level, faces, s.pos)
        hit = self._mets_cache.get(key)
        if hit is None:
            lo = self.d.level_range[s.level][0]
            beside = self.d.enemy_near[s.pos]
            hit = frozenset(j - lo for j, face in zip(foes, faces)
                            if (face == UP and j not in beside) or (face == DOWN and j in loose))
            if len(self._mets_cache) > 100_000:
                self._mets_cache.clear()
            self._mets_cache[key] = hit
        return hit

    def _met_routes(self, li: int, mask: bytes, i: int, routes: tuple, met: frozenset) -> tuple:
        """``routes`` with their half-turns counted with a tile beside one of the enemies ``met`` one half-turn
        cheaper to enter: the fight after moving there may flip a tile for the next turn."""
        key = (li, mask, met)
        costs = self._dcache.get(key)
        if costs is None:
            nbrs = self.local[li]
            lo = self.d.level_range[li][0]
            # Entering a cell costs 1 + ``down``: its face-down count, less the discount beside an enemy met so.
            beside = self._beside_cells(li)
            down = list(mask)
            for c in {c for e in met for c in beside.get(e, ())}:
                down[c] -= 1
            costs = []
            for w, _ in self.ways[li]:
                cost = [INF] * len(nbrs)
                cost[w - lo] = 1 + down[w - lo]
                costs.append(propagate_paced(nbrs, down, cost, deque([w - lo])))
            if len(self._dcache) > 100_000:
                self._dcache.clear()
            self._dcache[key] = costs
        near = self.local[li][i]
        out = []
        for d, f, tail, k, h in routes:
            cost = costs[k]
            h = 0 if i == self.ways[li][k][0] - self.d.level_range[li][0] else min(map(cost.__getitem__, near), default=INF)
            out.append((d, f, tail, k, h))
        return tuple(out)

    def _beside_cells(self, li: int) -> dict:
        """Per enemy card of level ``li`` (local cell): the local cells it stands beside (``enemy_near``), kept."""
        hit = self._beside_of.get(li)
        if hit is None:
            lo, hi = self.d.level_range[li]
            near = self.d.enemy_near
            hit = {}
            for c in range(hi - lo):
                for e in near[lo + c]:
                    hit.setdefault(e - lo, []).append(c)
            hit = self._beside_of[li] = {e: tuple(cells) for e, cells in hit.items()}
        return hit

    def _best(self, routes, r0: int, k0: int, extra: int, pick: tuple = ()) -> float:
        """The fewest turns after this one over ``routes`` ((steps, face-down tiles, turns after leaving,
        way out, half-turns) each), with ``extra`` more steps and face-down entries in the rest of the game;
        ``pick``: per way out, what any route must at least cover to pick up the potions the extra comes
        from (``_with_potions``): (steps, face-down tiles), or in a paced level half-turns."""
        best = INF
        if self.paced:
            # Half-turns: 2 a turn, what is left of this one (a step, or two onto tiles face up), and 2 for
            # each extra (a flee or a teleport: one more step, maybe onto a tile flipped this turn).
            have = r0 + 2 * extra  # (``bound_masked`` made r0 the half-turns left of this turn)
            for _, _, tail, k, h in routes:
                if pick and pick[k] > h:
                    h = pick[k]
                    if h == INF:
                        continue  # the potions cannot be picked up on the way to this way out
                t = (0 if h <= have else (h - have + 1) // 2) + tail
                if t < best:
                    best = t
            return best
        S, K = self.S, self.K
        r, k_now = r0 + extra, k0 + extra
        for d, f, tail, k, _ in routes:
            if pick:
                pd, pf = pick[k]
                if pd > d:
                    d = pd
                if pf > f:
                    f = pf
            # _term, inlined: the turns after this one to cover the route's steps and face-down tiles.
            steps = 0 if d <= r else -(-(d - r) // S)
            downs = 0 if f <= k_now else -(-(f - k_now) // K)
            t = (steps if steps > downs else downs) + tail
            if t < best:
                best = t
        return best

    def _best_origins(self, s: GameState, li: int, mask: bytes, hint: bytes | None, i: int, routes, r0: int, k0: int,
                      flee: int, alive: frozenset) -> float:
        """:meth:`_best` with the flee chain ``flee`` of each turn after this one (``rolls``), and per way out
        at least the turns of its steps and face-down tiles that no flee can take (``origins``: a flee leaves
        a tile beside an enemy; the other steps are moves or a relocation)."""
        base = self.S - self.flee  # a turn's steps and face-down entries but its flees
        S, K, M, N = base + flee, self.K - self.flee + flee, base, self.K - self.flee
        rb, kb = self.remaining(s, 0)
        steps = self.origins.steps(li, alive)
        downs = self.origins.downs(li, alive, mask, hint)
        best = INF
        for d, f, tail, k, _ in routes:
            a = 0 if d <= r0 else -(-(d - r0) // S)
            b = 0 if f <= k0 else -(-(f - k0) // K)
            if b > a:
                a = b
            d, f = steps[k][i], downs[k][i]
            b = 0 if d <= rb else -(-(d - rb) // M)
            if b > a:
                a = b
            b = 0 if f <= kb else -(-(f - kb) // N)
            if b > a:
                a = b
            t = a + tail
            if t < best:
                best = t
        return best

    def _paced_moves(self, li: int, mask: bytes, hint: bytes | None, i: int, routes, r0: int, alive: frozenset) -> float:
        """The fewest turns after this one over ``routes`` counting only the half-turns of their moves: the
        steps out of tiles beside none of the enemies ``alive`` (every flee leaves a tile beside the paralysed
        enemy it flees), 1 each, 2 onto a tile face down (``FleeOrigins.halves``). A turn's moves spend at most
        2 half-turns whatever potions are held, so no potion gain covers them; ``r0``: the half-turns left of
        this turn (``bound_masked``). docs/solver.md, *Paralysis: the moves of a route*."""
        halves = self.moves_only.halves(li, alive, mask, hint)
        best = INF
        for _, _, tail, k, _ in routes:
            h = halves[k][i]
            t = (0 if h <= r0 else (h - r0 + 1) // 2) + tail
            if t < best:
                best = t
        return best

    def routes(self, li: int, mask: bytes, i: int, campaign_mode: bool, hint: bytes | None = None) -> tuple:
        """(steps, face-down tiles entered, turns after leaving, way out, half-turns) of the best route from
        local cell ``i`` to each way out of level ``li`` that can be finished, given the level's face-down
        ``mask`` (half-turns: see :meth:`_paced_counts`; None unless ``paced``).

        A paced level with no potions counted reads only the half-turns (:meth:`_best`): its face-down
        tiles are then not counted (None), which spares a second 0-1 search per new mask. (A route can be
        finished under the one count exactly when under the other: both search the same graph.)
        """
        paced = self._paced_counts(li, mask, hint) if self.paced else None
        counts = self.face_down_counts(li, mask, hint) if paced is None or self.items else None
        lo = self.d.level_range[li][0]
        near = self.local[li][i]
        out = []
        for k, (w, to) in enumerate(self.ways[li]):
            here = i == w - lo
            # _count_at, inlined: face-down tiles on the best route from i to way out k (i itself not counted).
            f = None
            if counts is not None:
                if here:
                    f = 0
                else:
                    enter = counts[k]
                    f = INF
                    for j in near:
                        if enter[j] < f:
                            f = enter[j]
            h = None
            if paced is not None:
                if here:
                    h = 0
                else:
                    cost = paced[k]
                    h = INF
                    for j in near:
                        if cost[j] < h:
                            h = cost[j]
            d = self.dist[li][k][i]
            tail = 1 + self.start_bound[to] if campaign_mode and to >= 0 else 0
            if d == INF or (f if counts is not None else h) == INF or tail == INF:
                continue
            out.append((d, f, tail, k, h))
        return tuple(out)


def _gains(steps: tuple, slots: int) -> int:
    """The most gains in ``slots`` turns that may hold one when ``n`` of them hold a potion drunk in a fight instead,
    which leaves at most ``steps[n]`` enemies met so: the largest ``min(steps[n], slots - n)`` (0 at least)."""
    best = 0
    for n, most in enumerate(steps):
        g = slots - n if slots - n < most else most
        if g > best:
            best = g
    return best


def _gains_at(table: tuple, slots: int) -> int:
    """The value of a table of :func:`_used_gains` for ``slots`` turns that may gain (0 for none)."""
    if slots < 0:
        return 0
    return table[slots + 1] if slots + 1 < len(table) else table[-1]


def _used_gains(steps: tuple, uses: tuple) -> tuple:
    """Per ``slots``, the lesser of ``_gains(steps, slots)`` (*A potion drunk in a fight holds no gain*) and the table
    ``uses`` of :func:`~.drink.use_gains` (*What a potion of teleportation is used for*): both bound what the rest of
    the game drops beyond the potion bound's own count. A table: entry 0 is -1 (a marker), entry ``s + 1`` the value
    for ``s`` slots, the last one for every larger ``s`` (``_gains_at``)."""
    top = max(len(uses) - 1, len(steps) + max(steps) + 1)
    out = [-1]
    for slots in range(top):
        a = _gains(steps, slots)
        b = uses[slots + 1] if slots + 1 < len(uses) else uses[-1]
        out.append(a if a < b else b)
    return tuple(out)


_RELAX: dict[int, tuple[object, Relaxation]] = {}


def relaxation(campaign: Campaign, d) -> Relaxation:
    """One Relaxation per compiled dungeon (its face-down cache is shared by searches on the same campaign)."""
    hit = _RELAX.get(id(d))
    if hit is None or hit[0] is not d:
        if len(_RELAX) > 16:
            _RELAX.clear()
        hit = _RELAX[id(d)] = (d, Relaxation(campaign, d))
    return hit[1]
