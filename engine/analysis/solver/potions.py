"""What potions of teleportation and paralysis may gain: the potion part of the turns bound.

A mixin of :class:`~.bounds.Relaxation`, which bounds the turns left by the steps ``S`` and the
face-down tiles ``K`` a turn can cover. A potion can beat those (a teleport; a flee from an enemy it
paralysed): this module bounds by how much, from what the hero can actually reach and use
(``docs/solver.md``, *Potions*, *Picking potions up* and the paragraphs after them):

* The potions still to be used are counted in the state: held, on a cell not yet cleared, in a
  shop's stock or a chest (those always: over-counting only lowers the bound). Each potion of
  teleportation adds at most one step and one face-down entry to the rest of the game; the flees
  that potions of paralysis allow are at most the longest path beside the enemies paralysed in one
  turn (``FLEE_PATHS``, ``extra_flees``, ``flees.flee_chain``), on the levels' own enemy cards when nothing
  can move an enemy (``flees.level_flee_paths``).
* A potion lying on its cell helps only once walked onto: the bound is the least over every set of
  them the rest of the game may pick up. A walk that picks a set up has at least the steps of the
  shortest tour of it (Held-Karp, ``_tour_steps``) and enters at least the face-down tiles of the
  tree joining the costliest one, the way out and the tiles face up now (``_trees``), so every real
  walk is counted by the set it picks up, never above its cost.
* A teleport onto a tile face up now ends the turn and spends its potion (``_jumps``, ``_jumped``);
  one onto a tile revealed later is a step of the relaxed graph (the flip came from a neighbour).
* A potion gains only in a fight begun past an enemy revealed and alive before (``loose_rule``):
  with none such, the first potion gains nothing, and a walk whose potions gain meets one
  (``_meet``), or stands beside it twice when enemies never move (``_pair_steps``).

Each step relaxes the game (the real game can do no more than it counts), so the bound stays
admissible; the tests compare the search with a uniform-cost search on potion maps and check the
bound along witnesses and on states random play reaches.
"""

from __future__ import annotations

from collections import deque
from heapq import heapify, heappop, heapreplace
from itertools import compress, permutations
from operator import add

from ...model.campaign import CardKind
from ...rules.phases import CHOOSE_TELEPORT, COMBAT
from ...rules.state import GameState
from ...rules.tables import CLEARED, DOWN, ENEMY, PLAIN, UP
from .flees import flee_chain, level_flee_paths
from .relaxed import faces_getter, flipped_cells, propagate
from .result import INF


# The most tiles of a simple path in the grid each beside one of p enemies (index p), every such tile
# beside the one before: the flees p potions of paralysis thrown in one turn allow (``extra_flees``).
# Found by trying every placement of the p enemies within four cells of one of them (a path through
# their ADJACENT TILEs never leaves that window); beyond, 4 per enemy.
FLEE_PATHS = (0, 1, 4, 7)
MAX_FLEE_GROUP = 6  # enemies paralysed in one turn up to which the levels' own flee paths are counted
MAX_ORDERED = 4  # potions of a set up to which ``_prefix_turns`` tries every order of picking them up
MAX_TOURS = 8  # potions on a level beyond which a tour of them is bounded by its farthest one alone
MAX_PICKUPS = 6  # potions on a level's cells whose every set the bound tries (2 ** 6 sets); the rest count as held
_FACE_UP = bytes(1 if b == 0 else 0 for b in range(256))  # a mask's bytes to 1 where face up, 0 where face down
MAX_RESULTS = 64  # values of ``_with_potions`` kept per plan (all dropped when full)
MAX_PREPS = 20_000  # what ``_with_potions`` read and found per call's inputs, kept (all dropped when full)
MAX_PLAN_SETS = 70_000  # sets of potions kept in ``_plans`` in all (about 270 bytes each, equal sets kept once: some 19 MB)
_CEILING = "ceiling"  # a key of ``_with_potions``' ``results`` for what its calls with a ceiling found: (_CEILING, key)
_NOTHING_MET = ((False, None),)  # ``_with_potions``'s options when every potion may gain


def _rank(groups: dict, tele: int, para: int, direct: float, after: float, subset: int) -> None:
    """File a set of potions under the group of sets adding ``tele`` and ``para`` potions (``_plan``'s paced
    ``ranks``): by the least of its ``direct`` and ``after`` a jump terms, and by ``direct`` alone; a set with
    neither is left out."""
    if direct != INF or after != INF:
        group = groups.get((tele, para))
        if group is None:
            group = groups[(tele, para)] = ([], [])
        group[0].append((direct if direct < after else after, subset))
        if direct != INF:
            group[1].append((direct, subset))


def split_between_turns(per_turn, potions: int) -> int:
    """The most ``per_turn[p]`` summed over turns that throw ``p`` potions each, ``potions`` in all."""
    best = [0] * (potions + 1)
    for n in range(1, potions + 1):
        best[n] = max(per_turn[p] + best[n - p] for p in range(1, n + 1))
    return best[potions]


class PotionBound:
    """The potion part of :class:`~.bounds.Relaxation` (a mixin: it reads the relaxation's level graph,
    its ways out and their distances, and its face-down counts)."""

    def _potion_kinds(self, campaign, d) -> None:
        """The potion cards of the campaign whose colour is teleportation (``tele_cards``) and paralysis
        (``para_cards``)."""
        cards = campaign.cards
        effect_of = {c: d.potions.get(cards[c].colour) for c in cards if cards[c].kind is CardKind.POTION}
        self.tele_cards = frozenset(c for c, e in effect_of.items() if e == "teleportation")
        self.para_cards = frozenset(c for c, e in effect_of.items() if e == "paralysis")

    def _count_potions(self, campaign, d, seen: set, free_flee: bool, crossings: set) -> None:
        """The potions of teleportation and paralysis to be had and where they lie; whether a potion
        gains only past an enemy met (``loose_rule``). Needs ``flee``, ``reloc`` and ``_potion_kinds``."""
        # Fleeing only from an enemy paralysed by a thrown potion (no free flee): then the flees of the
        # whole game are bounded by the potions to be had (``extra``).
        self.para_limited = not free_flee and bool(self.para_cards & set(seen))
        # The potions still to be had: a cell's own potion is gone once the cell is cleared; a
        # shop's or a chest's stays counted (over-counting only keeps the bound low).
        self.tele_total = sum(1 for c in seen if c in self.tele_cards)
        self.para_total = sum(1 for c in seen if c in self.para_cards) if self.para_limited else 0
        self._tele = _Stock(d, self.tele_cards if self.tele_total else frozenset())
        self._para = _Stock(d, self.para_cards if self.para_total else frozenset())
        self._hands: dict = {}  # hand -> (potions of teleportation held, potions of paralysis held)
        self._lefts: dict = {}  # (level, faces of its potion cells) -> ``potions``' share of them
        self._mets: dict = {}  # (level, faces of its enemy cards) -> the enemies revealed and alive
        # Each potion lying on its own cell of a level must be walked onto before it can be used: the
        # bound asks which of them the rest of the game picks up (``_pickups``). Per level: (local cell,
        # teleportation?) of each, and the getter of their faces.
        counted = (self.tele_cards if self.tele_total else frozenset()) | (self.para_cards if self.para_total else frozenset())
        self.pots = []
        self._pot_faces = []
        for lo, hi in d.level_range:
            cells = [j for j in range(lo, hi) if d.card[j].id in counted]
            self.pots.append(tuple((j - lo, d.card[j].id in self.tele_cards) for j in cells))
            self._pot_faces.append(faces_getter(cells))
        self._pcache: dict = {}  # (level, mask) -> face-down counts to each potion's cell
        self._kcache: dict = {}  # (level, mask) -> per way out, per potion: fewest face-down tiles of a route through it
        self._mcache: dict = {}  # (level, mask, enemies) -> what a walk meeting one of them covers (``_meet``)
        self._fenter: dict = {}  # (level, mask, enemy) -> face-down counts from the tiles beside it (``_foe_enter``)
        self._foe_last: dict = {}  # (level, enemy) -> the last (mask, ``_foe_enter``) found
        self._fmeet: dict = {}  # (level, mask, enemy) -> ``_meet_one``
        self._fsteps: dict = {}  # (level, enemy) -> ``_foe_steps``
        self._msteps: dict = {}  # (level, enemies) -> its steps (``_via``)
        self._level_foes = []  # per level: the local cells of its enemy cards, and the getter of their faces
        for lo, hi in d.level_range:
            foes = [j for j in range(lo, hi) if d.kind[j] == ENEMY]
            self._level_foes.append((tuple(j - lo for j in foes), faces_getter(foes)))
        self.items = bool(self.tele_total or self.para_total)
        # A potion gains a step only where the hero fights, after moving, an enemy he met before: see
        # ``_first_potion_idle``. Holds when every enemy flipped starts a fight and only potions end one.
        self.loose_rule = (self.items and not self.flee and not self.reloc and crossings <= {"teleport"}
                           and _flips_always_engage(d))
        self._enemy_faces = faces_getter([j for j in range(len(d.kind)) if d.kind[j] == ENEMY])
        # Every cell whose face ``potions`` reads (the potions' cells, the stocks' own cells, the enemy cards): the
        # getter of their faces, in the key of its values kept (``_potions_kept``, at most 100,000).
        read = sorted({j for j in range(len(d.kind)) if d.kind[j] == ENEMY or d.card[j].id in counted}
                      | set(self._tele.own) | set(self._para.own))
        self._read_faces = faces_getter(read)
        self._potions_kept: dict = {}

    def _potion_tables(self, d) -> None:
        """The static tables of the potion part, once the level graph, the ways out and their distances
        are known: distances from each potion, the tours of the potions, the walks beside enemies."""
        self._pot_dist = [tuple(self._bfs(lo + c, lo, hi) for c, _ in self.pots[li])
                          for li, (lo, hi) in enumerate(d.level_range)]  # per potion: static steps from its cell, by local cell
        self._up_only = bytes.maketrans(bytes([DOWN, UP, CLEARED]), b"\x00\x01\x00")
        self._not_plain = [int.from_bytes(bytes(d.kind[j] != PLAIN for j in range(lo, hi)), "big")
                           for lo, hi in d.level_range]
        self.pairs = [self._pair_steps(li) if self.loose_rule and not self.tele_total else ()
                      for li in range(self.levels)]
        self._tours = [self._tour_steps(li) for li in range(self.levels)]
        # Per level: per potion, ``_pair_steps`` to its cell; per way out, tours that stand beside an enemy
        # twice on the way (``_paired_tours``).
        self._pairs_pot = [self._pairs_to(li, self._pot_dist[li]) if self.pairs[li] else ()
                           for li in range(self.levels)]
        self._paired = [self._paired_tours(li) for li in range(self.levels)]
        self._sandwich = [self._sandwiches(li) if self.pairs[li] else () for li in range(self.levels)]
        # Per level, per local cell: the local cells of the enemy cards on its ADJACENT TILEs.
        self._beside_foes = []
        for li, (lo, hi) in enumerate(d.level_range):
            foes = set(self._level_foes[li][0])
            self._beside_foes.append(tuple(tuple(j - lo for j in d.adjacent[x] if j >= 0 and j - lo in foes)
                                           for x in range(lo, hi)))
        self._ucache: dict = {}  # (level, mask) -> ``_near``
        self._upcache: dict = {}  # (level, mask) -> (tiles face up, face-down tiles from them to each tile)
        self._jcache: dict = {}  # (level, mask) -> _jumps
        self.chain = flee_chain(d, moved=self.tele_total) if self.para_limited else 0
        # With no potion of teleportation nothing moves an enemy: the flees of a turn follow the levels' own
        # enemy cards (``flees.level_flee_paths``), often fewer than ``FLEE_PATHS`` allows anywhere.
        self.flee_paths = (level_flee_paths(d, min(self.para_total, MAX_FLEE_GROUP))
                           if self.para_limited and not self.teleport else ())
        self._flees: dict = {}  # potions -> ``extra_flees``
        self._extras: dict = {}  # (paralysis, teleportation, idle) -> (``_extra``, ``extra_moves`` with one jump spent)
        self._most: dict = {}  # potions of paralysis -> ``_most_flees``
        self._gains: dict = {}  # (paralysis, teleportation) -> ``_gains_of``
        self._walks: dict = {}  # (level, local cell) -> set of potions -> ``_walk``
        self._pwalks: dict = {}  # (level, local cell, set of potions, paralysis at hand up to 2) -> ``_paired_walk``
        self._plans: dict = {}  # (level, local cell, potions on their cells, ..., what the mask gives them) -> ``_plan``
        self._plan_at: dict = {}  # (level, mask, local cell, potions on their cells, ...) -> the plan of ``_plans``
        self._plan_sets = 0  # the sets of potions in ``_plans``
        self._subset_tables: dict = {}  # (level, potions on their cells) -> ``_subsets``
        self._shared_sets: dict = {}  # one copy of each set of ``_plan_one_way`` (dropped with ``_plans``)
        self._mwalks: dict = {}  # (level, local cell, enemies met, set of potions) -> ``_met_walk``
        self._prefixes: dict = {}  # (level, local cell, set, face-down counts, twice the E) -> ``_prefix_least``
        self._pgains: dict = {}  # (held, idle, potions in the set) -> ``_prefix_least``'s twice the E
        self._preps: dict = {}  # ``_with_potions``: what a call read -> what it found from that alone (at most MAX_PREPS)
        # Potions of paralysis alone, paced: a potion on its cell gains only after the walk reaches it.
        self.ordered = self.paced and self.para_limited and not self.tele_total

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

        Such a flee is possible only from an enemy paralysed, and a thrown potion paralyses one enemy until
        the turn ends. The hero's positions a turn's flees start from are distinct tiles (a walk that comes
        back to a tile does no better than one that does not), each beside an enemy paralysed in that turn
        and each beside the one before: a simple path in the grid through ADJACENT TILEs of those enemies,
        each flee one step along it. With p enemies paralysed in a turn such a path has at most
        ``FLEE_PATHS[p]`` tiles (1, 4, 7 for p = 1, 2, 3: found by trying every placement of the enemies
        within four cells of one of them; 4p beyond, their ADJACENT TILEs), and at most p times the
        largest group of tiles beside enemy cards (``flee_chain``); with no potion of teleportation, at
        most the longest such path beside p of the levels' own enemy cards (``flee_paths``). The potions
        are then split between turns in the way that adds most.
        """
        if potions <= 1:
            return max(potions, 0)
        hit = self._flees.get(potions)
        if hit is None:
            table = self.flee_paths
            per_turn = [0] + [min(FLEE_PATHS[p] if p < len(FLEE_PATHS) else 4 * p, p * self.chain,
                                  table[p] if p < len(table) else INF)
                              for p in range(1, potions + 1)]
            hit = self._flees[potions] = split_between_turns(per_turn, potions)
        return hit

    def _most_flees(self, potions: int) -> int:
        """The most :meth:`extra_flees` of ``potions`` potions of paralysis or fewer (kept in ``_most``)."""
        hit = self._most.get(potions)
        if hit is None:
            hit = self._most[potions] = max(self.extra_flees(p) for p in range(potions + 1))
        return hit

    def _extra(self, para: int, tele: int, idle: bool) -> int:
        """``E`` for ``para`` potions of paralysis and ``tele`` of teleportation still to be used; ``idle``:
        the first of them gains nothing (:meth:`_first_potion_idle`)."""
        if idle and (para or tele):
            return max(self.extra_moves(para - 1, tele) if para else 0,
                       self.extra_moves(para, tele - 1) if tele else 0)
        return self.extra_moves(para, tele)

    def _held(self, hand: tuple) -> tuple[int, int]:
        """(potions of teleportation, of paralysis) in ``hand``, kept per hand (``_hands``)."""
        held = self._hands.get(hand)
        if held is None:
            tele, para = self.tele_cards, self.para_cards
            held = self._hands[hand] = (sum(1 for c in hand if c in tele), sum(1 for c in hand if c in para))
        return held

    def potions(self, s: GameState) -> tuple:
        """:meth:`_potions_read`, kept per what it reads of the state (``_potions_kept``): the level, the hand, the
        faces of the cells it reads, the enemies paralysed in the fight, the enemies moved (``visitors``), and
        whether a thrown potion of teleportation waits for its tile; with potions of teleportation in the game
        (``_fought_here``, a drunk one waiting) the phase, its subject, whether he moved this turn and his tile."""
        foes, visitors, phase = s.foes, s.visitors, s.phase
        key = (s.level, s.hand, self._read_faces(s.faces), sum(1 for v in foes.values() if v[2]) if foes else 0,
               tuple(visitors) if visitors else (), (phase, s.subject, s.moved, s.pos) if self.tele_total
               else phase == CHOOSE_TELEPORT and s.subject >= 0)
        hit = self._potions_kept.get(key)
        if hit is None:
            if len(self._potions_kept) > 100_000:
                self._potions_kept.clear()
            hit = self._potions_kept[key] = self._potions_read(s)
        return hit

    def _potions_read(self, s: GameState) -> tuple:
        """(potions of teleportation and of paralysis still to be used that need no walk to pick up, ``meet``,
        the indices in ``pots`` of the level's potions still on their cells). ``meet``: None when every
        potion may gain; else the enemies of the level revealed and alive (local cells): the first potion
        used gains nothing unless the walk meets one of them (:meth:`_first_potion_idle`). The first two count the potions held, a shop's stock or a chest's contents (always, an
        upper bound), the potions on other levels' cells (over-counting only lowers the bound), a potion
        of teleportation drunk and waiting for its tile, and the enemies paralysed this turn (they may
        still be fled from)."""
        held = self._held(s.hand)
        faces = s.faces
        level = s.level
        # The level's potions on their cells, as many as ``_with_potions`` tries (the farthest beyond count as
        # held: over-counting lowers the bound), and how many of those are of teleportation, of paralysis:
        # kept per the faces of the level's potion cells (``_lefts``, at most 100,000).
        here = self._pot_faces[level](faces)
        got = self._lefts.get((level, here))
        if got is None:
            pots = self.pots[level]
            left = tuple(p for p, face in enumerate(here) if face != CLEARED)[:MAX_PICKUPS]
            if len(self._lefts) > 100_000:
                self._lefts.clear()
            got = self._lefts[(level, here)] = (left, sum(1 for p in left if pots[p][1]),
                                                sum(1 for p in left if not pots[p][1]))
        left, tele_on, para_on = got
        tele = para = 0
        if self.tele_total:
            tele = held[0] + self._tele.left(faces) - tele_on
            if s.phase == CHOOSE_TELEPORT and s.subject < 0:
                tele += 1  # drunk: the hero is choosing where it takes him
        if self.para_total:
            para = held[1] + self._para.left(faces) - para_on
            if s.foes:
                para += sum(1 for v in s.foes.values() if v[2])
        meet = None
        # (While a thrown potion of teleportation waits for where the enemy goes, it may go anywhere.)
        if self.loose_rule and (para or tele or left) and not (s.phase == CHOOSE_TELEPORT and s.subject >= 0):
            cells, getter = self._level_foes[level]
            seen = getter(faces)
            met = self._mets.get((level, seen))
            if met is None:
                if len(self._mets) > 100_000:
                    self._mets.clear()
                met = self._mets[(level, seen)] = tuple(c for c, face in zip(cells, seen) if face == UP)
            if self._enemy_faces(faces).count(UP) == len(met):  # none on another level
                meet = met
                if met and not s.visitors and self._fought_here(s, met):
                    meet = ()  # only the enemies of a fight at the turn's first tile: the first potion gains nothing
                if s.visitors:  # enemies a thrown potion of teleportation moved: they stand where they landed
                    lo, hi = self.d.level_range[level]
                    if all(lo <= j < hi for j in s.visitors):
                        meet = tuple(sorted(set(met) | {j - lo for j in s.visitors}))
                    else:
                        meet = None
        return tele, para, meet, left

    def _potions_plain(self, s: GameState) -> tuple:
        """:meth:`potions` computed afresh, without the tables it keeps (``_lefts``, ``_mets``)."""
        held = self._held(s.hand)
        faces = s.faces
        here = self._pot_faces[s.level](faces)
        pots = self.pots[s.level]
        left = tuple(p for p, face in enumerate(here) if face != CLEARED)
        tele = para = 0
        if self.tele_total:
            tele = held[0] + self._tele.left(faces) - sum(1 for p in left if pots[p][1])
            if s.phase == CHOOSE_TELEPORT and s.subject < 0:
                tele += 1  # drunk: the hero is choosing where it takes him
        if self.para_total:
            para = held[1] + self._para.left(faces) - sum(1 for p in left if not pots[p][1])
            if s.foes:
                para += sum(1 for v in s.foes.values() if v[2])
        meet = None
        # (While a thrown potion of teleportation waits for where the enemy goes, it may go anywhere.)
        if self.loose_rule and (para or tele or left) and not (s.phase == CHOOSE_TELEPORT and s.subject >= 0):
            cells, getter = self._level_foes[s.level]
            met = tuple(c for c, face in zip(cells, getter(faces)) if face == UP)
            if self._enemy_faces(faces).count(UP) == len(met):  # none on another level
                meet = met
                if met and not s.visitors and self._fought_here(s, met):
                    meet = ()  # only the enemies of a fight at the turn's first tile: the first potion gains nothing
                if s.visitors:  # enemies a thrown potion of teleportation moved: they stand where they landed
                    lo, hi = self.d.level_range[s.level]
                    if all(lo <= j < hi for j in s.visitors):
                        meet = tuple(sorted(set(met) | {j - lo for j in s.visitors}))
                    else:
                        meet = None
        if len(left) > MAX_PICKUPS:
            # Too many sets to try: the farthest potions count as held (over-counting lowers the bound).
            far = left[MAX_PICKUPS:]
            tele += sum(1 for p in far if pots[p][1])
            para += sum(1 for p in far if not pots[p][1])
            left = left[:MAX_PICKUPS]
        return tele, para, meet, left

    def _fought_here(self, s: GameState, met: tuple) -> bool:
        """The enemies ``met`` (local cells, every enemy standing face up and alive) all stand beside the hero, in a
        fight at the tile he began the turn on (he has not moved, nor fled: a flee counts as a move): then the first
        potion used still gains nothing (docs/solver.md, *The first potion gains nothing while no enemy stands
        revealed*, *... nor only those he fights where the turn began*). He leaves them only by slaying them all or
        by a potion, and a potion used in a fight he did not move into gains nothing.

        Only with a potion of teleportation in the game: there no enemy met now means "the first potion gains
        nothing, the others may" (``_with_potions``' options), which holds for the enemies he fights now once a potion
        has left them. Without one it means "nothing gains, or the walk stands twice beside an enemy still face
        down", which does not count these enemies, face up already."""
        if not self.tele_total or s.moved or not (s.phase == COMBAT or (s.phase == CHOOSE_TELEPORT and s.subject < 0)):
            return False
        lo = self.d.level_range[s.level][0]
        beside = self.d.enemy_near[s.pos]
        return all(c + lo in beside for c in met)

    def items_left(self, s: GameState) -> tuple[int, int]:
        """(``extra``: steps and face-down tiles the potions still to be used may add, wherever they lie,
        the potions of teleportation still to be used) in state ``s``: :meth:`potions` with every potion
        on the map counted as held."""
        tele, para, meet, left = self.potions(s)
        idle = meet == ()
        pots = self.pots[s.level]
        tele += sum(1 for p in left if pots[p][1])
        para += sum(1 for p in left if not pots[p][1])
        return self._extra(para, tele, idle), tele

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

    def landing_blocked(self, s: GameState) -> int:
        """The cells of the hero's level face up but no tile a potion of teleportation lands on (an enemy,
        a trap, an item not picked up, a shop, a ladder... face up: only a pathing tile or a cleared card
        is), as one byte per cell of the level read as one big-endian integer (0 without such potions)."""
        if not self.tele_total:
            return 0
        if self.levels == 1:
            return int.from_bytes(s.faces.translate(self._up_only), "big") & self._not_plain[0]
        lo, hi = self.d.level_range[s.level]
        return int.from_bytes(s.faces[lo:hi].translate(self._up_only), "big") & self._not_plain[s.level]

    def _jumps(self, li: int, mask: bytes, blocked: int = 0) -> tuple:
        """Per way out of level ``li``: the fewest steps, the fewest face-down tiles and (``paced``) the fewest
        half-turns from any tile face up under ``mask`` (where a potion of teleportation could take the hero
        now) to it."""
        key = (li, mask, blocked)
        hit = self._jcache.get(key)
        if hit is not None:
            return hit
        counts = self.face_down_counts(li, mask)
        paced = self._paced_counts(li, mask) if self.paced else None
        n = len(mask)
        up = [i for i, down in enumerate(mask) if not down and not (blocked >> (8 * (n - 1 - i))) & 1]
        out = []
        for k in range(len(self.ways[li])):
            dist, enter = self.dist[li][k], counts[k]
            # Half-turns after landing (the tile landed on is face up: it costs 1 in ``cost``, not counted).
            half = min((paced[k][i] for i in up), default=INF) - 1 if paced is not None else None
            out.append((min((dist[i] for i in up), default=INF), min((enter[i] for i in up), default=INF), half))
        if len(self._jcache) > 100_000:
            self._jcache.clear()
        hit = self._jcache[key] = tuple(out)
        return hit

    def _jumped(self, li: int, mask: bytes, r0: int, k0: int, campaign_mode: bool, extra: int, pick: tuple,
                blocked: int = 0) -> float:
        """The fewest turns after this one of routes that teleport onto a tile face up now: the turn ends
        there and the route goes on from the next turn, so none of this turn's r0, k0 serve the route
        after the jump (a route of r0 + jd steps has jd left after them). ``pick``: per way out, what the
        whole walk must cover to pick up the potions the extra comes from (before or after the jump;
        this turn may serve the part before it)."""
        best = INF
        start = self.start_bound
        for k, ((jd, jf, jh), (_, to)) in enumerate(zip(self._jumps(li, mask, blocked), self.ways[li])):
            tail = 1 + start[to] if campaign_mode and to >= 0 else 0
            if jd == INF or jf == INF or tail == INF or (pick and (pick[k] if self.paced else pick[k][1]) == INF):
                continue
            if self.paced:
                t = 0 if jh <= 2 * extra else (jh - 2 * extra + 1) // 2
                if pick:
                    have = r0 + 2 * extra
                    if pick[k] > have and (pick[k] - have + 1) // 2 > t:
                        t = (pick[k] - have + 1) // 2
            else:
                route = (max(r0 + jd, pick[k][0]), max(k0 + jf, pick[k][1])) if pick else (r0 + jd, k0 + jf)
                t = self._best(((*route, 0, 0, None),), r0, k0, extra)
            if t + tail < best:
                best = t + tail
        return best

    def _with_potions_plain(self, li: int, mask: bytes, i: int, r0: int, k0: int, campaign_mode: bool,
                            potions: tuple, routes: tuple, hint: bytes | None, blocked: int = 0, gain: int = 0,
                            only: int = -1) -> float:
        """The bound when potions of teleportation or paralysis are still to be used (docs/solver.md,
        *Potions* and *Picking potions up*): the least, over every set of the level's potions still on
        their cells that the rest of the game may pick up, of the bound of routes that walk onto all of
        them, with the extra those and the potions held may add; ``only``: over the sets of that many potions
        alone, or with -2 over every set but the empty one (docs/solver.md, *A gain needs its potion picked up*).

        What a walk onto a set of potions and on to a way out covers, at least: the steps of the shortest
        tour of them from the hero's tile to the way out (with a teleport onto a tile face up now, the
        steps from the nearest such tile to the farthest potion and on to the way out or to where a jump's
        route begins), and the face-down tiles of the costliest one's tree (``_pickups``)."""
        tele_held, para_held, meet, left = potions
        pots = self.pots[li]
        jumps = self._jumps(li, mask, blocked) if self.tele_total else ()
        ways = range(len(self.ways[li]))
        paced = self.paced
        # Whether the first potion used gains nothing (``idle``: None when nothing gains), and what a walk
        # must cover for the potions to gain as counted: per way out (walk's steps, jump's steps, face-down).
        paired_met = met_met = None  # the options where the walk stands beside an enemy twice, meets one
        if meet is None:
            options = [(False, None)]
        else:
            options = []
            if meet:  # the walk meets an enemy revealed and alive now: every potion may gain
                trees, via, near, last = self._meet_plain(li, mask, meet)
                met_met = tuple((via[k][i], near + min(last[k], jumps[k][0] if jumps else INF), trees[k]) for k in ways)
                options.append((False, met_met))
            if jumps or not self.pairs[li]:
                options.append((True, None))
            else:
                # No teleportation: an enemy revealed later stays where it is, and a potion gains against it
                # only after the walk has stood beside it twice (``_pair_steps``); else nothing gains.
                options.append((None, None))
                if any(mask[c] for c in self._level_foes[li][0]):  # an enemy still to be revealed
                    # (Its face-down tiles are left to the route's own and the potions' trees: beside some
                    # enemy card lies most of an open level, and the tree would cost a search per mask.)
                    pair = self.pairs[li]
                    paired_met = tuple((pair[k][i], pair[k][i], 0) for k in ways)
                    options.append((True, paired_met))
        paired = self._paired[li]
        if left:
            costs = self._pickups(li, mask, hint)
            dist = self.dist[li]
            pdist = self._pot_dist[li]
            tours = self._tours[li]
            near = self._near(li, mask)
        if paced:
            # _best and _jumped, inlined (the hot path of the generated maps): per way out, its tail, the
            # half-turns of its direct route, and of the route after a jump (INF: none).
            start = self.start_bound
            direct = {k: (h, tail) for _, _, tail, k, h in routes}
            after = {}
            for k, ((jd, jf, jh), (_, to)) in enumerate(zip(jumps, self.ways[li])):
                tail = 1 + start[to] if campaign_mode and to >= 0 else 0
                if jd != INF and jf != INF and tail != INF:
                    after[k] = (jh, tail)
            have0 = r0
            # Whether this turn may still gain (``bound_masked``): with no potion of paralysis a turn gains
            # one step at most (a potion of teleportation drunk ends it; one thrown gains nothing).
            now = 2 * k0
        best = INF
        # Every set of the potions still on their cells, as bits over ``pots``; what each covers is the one
        # of the set without its lowest potion, with that potion's added. Per potion, per way out: with jumps
        # onto tiles face up now the walk is pieces, each after the first begun by a jump. The potion is in
        # the first piece (from the hero's tile, then at least a jump's route), in the last (from the nearest
        # tile face up now and on to the way out), or in one between (then at least two jumps): (the fewest
        # steps of the first two, of either, and the face-down tiles of its tree).
        m = len(left)
        sets = [(tele_held, para_held, 0, None)]  # (tele, para, bits over pots, per way out: what it covers)
        if m:
            own = []
            for p in left:
                c, to_near, from_here = pots[p][0], near[p], pdist[p][i]
                row = []
                for k in ways:
                    jd = jumps[k][0] if jumps else INF
                    one = min(to_near + dist[k][c], from_here + jd)
                    row.append((one, min(one, to_near + jd), costs[k][p]))
                own.append(row)
            for subset in range(1, 1 << m):
                low = (subset & -subset).bit_length() - 1
                tele, para, bits, cover = sets[subset & (subset - 1)]
                row = own[low]
                if cover is not None:
                    row = [(a0 if a0 > b0 else b0, a1 if a1 > b1 else b1, a2 if a2 > b2 else b2)
                           for (a0, a1, a2), (b0, b1, b2) in zip(row, cover)]
                p = left[low]
                if pots[p][1]:
                    tele += 1
                else:
                    para += 1
                sets.append((tele, para, bits | 1 << p, row))
            walks = self._walks_from(li, i)
        no_reach = ((0, 0, 0, 0),) * len(ways)
        quiet = None  # no enemy face down beside the hero (``lull``), read once if needed
        for tele, para, bits, cover in sets:
            if only >= 0 and bin(bits).count("1") != only or only == -2 and not bits:
                continue
            subset = bits != 0
            if subset:
                walk = walks.get(bits)
                if walk is None:
                    walk = walks[bits] = self._walk(li, i, bits)
                walk_steps, first = walk
                if jumps and not tele_held:
                    # No potion of teleportation at hand: the walk reaches one of the set before any jump.
                    need = [(ws, (a if a > first + jumps[k][0] else first + jumps[k][0]),
                             (b if b > first + jumps[k][0] else first + jumps[k][0]), fd)
                            for k, ws, (a, b, fd) in zip(ways, walk_steps, cover)]
                else:
                    need = [(ws, a, b, fd) for ws, (a, b, fd) in zip(walk_steps, cover)]
                if paired_met is not None and paired is not None:
                    walk_paired = self._paired_walk(li, i, bits, para_held)
                if met_met is not None and not tele_held and not para_held:
                    # No potion at hand: the walk picks one of the set up before the fight where it gains.
                    members = [p for p in left if bits >> p & 1]
                    walk_met = [min(pdist[p][i] + via[k][pots[p][0]] for p in members) for k in ways]
            else:
                need = no_reach
            if paced:
                gains = self._gains.get((para, tele))
                if gains is None:
                    gains = self._gains[(para, tele)] = self._gains_of(para, tele)
                # No term of this set can beat ``best`` when the least of them, with the most any option
                # adds (``gains[5]``) and only what the set itself must cover, is no lower: skip it.
                have_most = have0 + gain + 2 * gains[5]
                floor = INF
                for k, (ws, js, js2, fd) in zip(ways, need):
                    hit = direct.get(k)
                    if hit is not None:
                        h = hit[0] if hit[0] > ws + fd else ws + fd
                        if h != INF:
                            t = 0 if h <= have_most else (h - have_most + 1) // 2
                            if t + hit[1] < floor:
                                floor = t + hit[1]
                    hit = after.get(k) if tele else None
                    if hit is not None:
                        h = (js if js < js2 else js2) + fd
                        if h != INF:
                            t = 0 if h <= have_most else (h - have_most + 1) // 2
                            if t + hit[1] < floor:
                                floor = t + hit[1]
                if floor >= best:
                    continue
            for idle, met in options:
                if paced:
                    if idle is None:
                        extra = extra_j = extra_j2 = 0
                    else:
                        extra = gains[1] if idle else gains[0]
                        # After the last jump onto a tile face up now, the potion it took is gone: the others
                        # may gain (all of them: if one gains nothing, it may be the jump's). Two jumps or more
                        # (a potion picked up between them): two potions gone.
                        extra_j, extra_j2 = gains[2], gains[3]
                    have = have0 + gain + 2 * extra
                    capped = not para and extra  # one gain a turn at most: 4 half-turns
                    # Nothing but items left of this turn, no enemy revealed and alive, none face down beside
                    # the hero: the next turn gains nothing either. Its first gain would need an enemy met
                    # before, which only a potion leaves alive: drunk, it ends the turn; thrown, the turn goes
                    # on (and may gain) only if the hero had not moved, after a fight on his own tile with an
                    # enemy he flipped beside it.
                    lull = capped and not now and idle and meet == ()
                    if lull:
                        if quiet is None:
                            quiet = not any(mask[e] for e in self._beside_foes[li][i])
                        lull = quiet
                    # A potion of the set gains only once walked onto: the walk to the n-th of the set gains
                    # by the potions held and the n - 1 picked up before alone (``_prefix_turns``).
                    pre = (self._prefix_turns(li, mask, i, bits, left, para_held, idle, have0)
                           if subset and idle is not None and self.ordered else 0)
                    for k, (ws, js, js2, fd) in zip(ways, need):
                        if met is not None:
                            mw, mj, mf = met[k]
                            ws, js, js2, fd = max(ws, mw), max(js, mj), max(js2, mj), max(fd, mf)
                            if subset and met is paired_met and tours is not None and paired is not None:
                                ws = max(ws, walk_paired[k])
                            elif subset and met is met_met and not tele_held and not para_held:
                                ws = max(ws, walk_met[k])
                        hit = direct.get(k)
                        if hit is not None:
                            h = hit[0] if hit[0] > ws + fd else ws + fd
                            if h != INF:
                                t = 0 if h <= have else (h - have + 1) // 2
                                if capped and h > have0 + now and (h - have0 - now + 3) // 4 > t:
                                    t = (h - have0 - now + 3) // 4
                                if capped and lull and (h - have0 + 5) // 4 > t:
                                    t = (h - have0 + 5) // 4  # no gain next turn either: T - 1 at most
                                if pre > t:
                                    t = pre
                                if t + hit[1] < best:
                                    best = t + hit[1]
                        hit = after.get(k) if tele else None
                        if hit is None:
                            continue
                        jh = hit[0]
                        if js + fd != INF:
                            t = self._after_jump(jh, extra_j, capped, js + fd, have0, now, gain=gain)
                            if not now and idle and meet == ():
                                # Nothing but items is left of this turn: a jump made later leaves one turn
                                # more; one made now (the only one of this turn) comes from no fight, so with
                                # no enemy revealed and alive the first potion after it still gains nothing.
                                t = self._after_jump(jh, gains[4], capped, js + fd, have0, 0, gain=gain)
                                later = self._after_jump(jh, extra_j, capped, js + fd, have0, now, later=True, gain=gain)
                                if later < t:
                                    t = later
                            if t + hit[1] < best:
                                best = t + hit[1]
                        if tele >= 2 and js2 < js and js2 + fd != INF:
                            # The last of two jumps; with nothing but items left of this turn, made after it.
                            t = self._after_jump(jh, extra_j2, capped, js2 + fd, have0, now, later=not now, gain=gain)
                            if t + hit[1] < best:
                                best = t + hit[1]
                    continue
                pick = pick_jump = ()
                if subset or met is not None:
                    pick, pick_jump = [], []
                    for k, (ws, _, js, fd) in zip(ways, need):
                        if met is not None:
                            mw, mj, mf = met[k]
                            ws, js, fd = max(ws, mw), max(js, mj), max(fd, mf)
                        pick.append((ws, fd))
                        pick_jump.append((js, fd))
                extra = 0 if idle is None else self._extra(para, tele, idle)
                t = self._best(routes, r0, k0, extra, pick)
                if tele and jumps:
                    extra_j = 0 if idle is None else self.extra_moves(para, tele - 1)
                    t = min(t, self._jumped(li, mask, r0, k0, campaign_mode, extra_j, pick_jump, blocked))
                if t < best:
                    best = t
        return best

    def _with_potions(self, li: int, mask: bytes, i: int, r0: int, k0: int, campaign_mode: bool,
                      potions: tuple, routes: tuple, hint: bytes | None, blocked: int = 0, gain: int = 0,
                      only: int = -1, ceiling: float = INF, settle: tuple | None = None) -> float:
        """:meth:`_with_potions_plain`, the same value for less work: what depends only on the level, the mask,
        the tile, the potions on their cells and the jumps onto tiles face up now is kept (``_plan``: every set
        of those potions, what a walk onto it must cover, and per way out the half-turns that cover bounds; kept
        per what the mask gives it, which many masks share);
        the walks that meet an enemy are kept per tile and enemies met (``_met_walk``), the paced orders of
        picking potions up per set (``_prefix_least``). Only the potions at hand, the enemies met and what is
        left of this turn are read per state, and (paced, no order of pickups read) the value is kept per those
        in the plan. ``only`` is read on paced levels alone (its one caller, ``_with_met``, is paced); the unpaced
        loop below neither filters nor keys by it, so an unpaced caller passing it is refused.

        ``ceiling``: for a caller that asks only whether the bound is below it. The search over the sets starts from
        it as the best found (the sets whose least term is no lower are skipped) and stops at the first term below
        it: the value returned is ``ceiling`` if the bound is no lower, else a value below ``ceiling`` and no lower
        than the bound (not kept in ``results``).

        ``settle`` = (``A``, ``c``): :meth:`_with_met`'s least ``t`` with ``t >= B(min(A, max(0, t + c)))``, ``B(x)`` this
        bound with ``r0 - A + x`` half-turns at hand (``r0`` counts all ``A``), in one search over the sets: each term
        of ``B`` is ``tail + max(0, ceil((R - x) / 2))`` for its own ``R``, so its least such ``t`` is found on its own
        (no lower than its value at ``x = A``, which the pruning reads) and the least over the terms is the answer.
        For the paced levels whose potions are all of paralysis (no gain, no term capped: ``_with_met``)."""
        if only != -1 and not self.paced:
            raise ValueError("_with_potions: the sets of `only` potions are read on paced levels alone")
        tele_held, para_held, meet, left = potions
        ways = range(len(self.ways[li]))
        paced = self.paced
        # What the calls of one ``_with_met`` share (all but what is left of the turn, ``gain``, the ceiling and
        # ``only``), and states that differ only in those (what is left of the turn, the gains allowed): kept, per
        # what it reads of the potions: ``meet``, ``left`` and (through ``free``, below) whether a potion of
        # teleportation is held; the potions of paralysis held are read only by the orders of pickups, kept per
        # their count apart (``by_held``).
        prep_key = (li, mask, i, campaign_mode, meet, left, not tele_held, routes, blocked)
        prep = self._preps.get(prep_key)
        if prep is not None:
            jumps, sets, dway, away, ranks, results, options, met_met, paired_met, via, kept_groups, by_held, reach = prep
        else:
            jumps = self._jumps(li, mask, blocked) if self.tele_total else ()
            sets, dway, away, ranks, results, kept_groups = self._plan(li, mask, i, left, campaign_mode, routes, hint,
                                                                       jumps, bool(jumps) and not tele_held)
            paired_met = met_met = via = None  # as in ``_with_potions_plain``
            if meet is None:
                options = _NOTHING_MET
            else:
                options = []
                if meet:
                    trees, via, near, last = self._meet(li, mask, meet, hint)
                    met_met = tuple([(via[k][i], near + min(last[k], jumps[k][0] if jumps else INF), trees[k])
                                     for k in ways])  # (a tuple: read as it is in the key of the values kept)
                    options.append((False, met_met))
                if jumps or not self.pairs[li]:
                    options.append((True, None))
                else:
                    options.append((None, None))
                    if any(map(mask.__getitem__, self._level_foes[li][0])):
                        pair = self.pairs[li]
                        paired_met = [(pair[k][i], pair[k][i], 0) for k in ways]
                        options.append((True, paired_met))
            by_held = {}  # potions of paralysis held -> set and ``idle`` -> ``_prefix_least``
            # Paced with the orders of pickups read: all they read of the mask, the face-down tiles of a route from
            # the tile to each potion of ``left`` (``_prefix_least``), is in the key of the values kept too.
            reach = None
            if paced and self.ordered and left:
                counts = self._potion_counts(li, mask, hint)
                reach = tuple([counts[p][i] for p in left])
            if len(self._preps) >= MAX_PREPS:
                self._preps.clear()
            self._preps[prep_key] = (jumps, sets, dway, away, ranks, results, options, met_met, paired_met, via,
                                     kept_groups, by_held, reach)
        prefixes = by_held.get(para_held)
        if prefixes is None:
            prefixes = by_held[para_held] = {}
        # Paced: per group of sets (``ranks``) that ``only`` lets in and that has a set to draw, its index, its
        # sets by m, the most its gains add and those gains (the heap below adds the half-turns at hand).
        # (They read the plan, the potions held and ``only`` alone: kept in the plan, per those.)
        gkey = (tele_held, para_held, only)
        groups = kept_groups.get(gkey) if paced else ()
        if groups is None:
            groups = []
            gains_of = self._gains
            for g, (gt, gp, by_all, by_direct) in enumerate(ranks):
                if only >= 0 and gt + gp != only or only == -2 and not gt + gp:
                    continue  # (paced: the sets of ``only`` potions on their cells alone; -2: all but the empty set)
                tele = gt + tele_held
                ranked = by_all if tele else by_direct
                if not ranked:
                    continue
                gains = gains_of.get((gp + para_held, tele))
                if gains is None:
                    gains = gains_of[(gp + para_held, tele)] = self._gains_of(gp + para_held, tele)
                groups.append((g, ranked, 2 * gains[5], gains))
            kept_groups[gkey] = groups
        quiet = None
        if paced:
            # Paced: the value reads the plan, the potions at hand, the enemies met and what a walk meeting them
            # covers, which options there are, what is left of this turn and, only with nothing but items left of
            # it and no enemy met, whether an enemy lies face down beside the hero (``quiet``), and where the
            # orders of pickups are read (``ordered``) the face-down tiles of a route to each potion of ``left``
            # (``reach``): kept per those in the plan (``results``).
            if not k0 and meet == ():
                quiet = not any(map(mask.__getitem__, self._beside_foes[li][i]))
            rkey = (tele_held, para_held, meet, met_met, paired_met is not None, r0, k0, quiet, gain, only, settle,
                    reach)
            hit = results.get(rkey)
            if hit is not None:
                return hit if hit < ceiling else ceiling
            if ceiling != INF:
                # What calls with a ceiling learnt of this value (``_CEILING``): at least ``lo``, at most ``hi``.
                seen = results.get((_CEILING, rkey))
                if seen is not None:
                    if seen[0] >= ceiling:
                        return ceiling
                    if seen[1] < ceiling:
                        return seen[1]  # (below the ceiling and no lower than the value: what a search would give)
        elif not paced:
            # Unpaced, likewise: the value reads the plan, the potions at hand, the enemies met and what a walk
            # meeting them covers, which options there are, what is left of this turn and the routes (one plan serves
            # masks whose routes differ).
            rkey = (tele_held, para_held, meet, met_met, paired_met is not None, r0, k0, routes)
            hit = results.get(rkey)
            if hit is not None:
                return hit if hit < ceiling else ceiling
        paired = self._paired[li]
        tours = self._tours[li]
        walk_on_met = met_met is not None and not tele_held and not para_held
        walk_on_paired = paired_met is not None and paired is not None and tours is not None  # (else unread)
        if paced:
            have0 = r0
            now = 2 * k0
            ordered = self.ordered
            if settle is not None:
                most_x, c_x = settle
            # The least term of each set (``_with_potions_plain``: no term of the set is lower) is at least
            # ceil((m - have_most) / 2), m the set's least h + 2 tail over its terms (``_plan``'s ``ranks``):
            # per group of sets adding the same potions (the same gains), the sets are kept by m, and the
            # groups merged in a heap by that bound; once it is no lower than ``best``, no set left can beat
            # it. Only the sets drawn from it have their least term computed.
            heap = []
            for g, ranked, most, gains in groups:
                have_most = have0 + gain + most
                m = ranked[0][0]
                heap.append((0 if m <= have_most else (m - have_most + 1) // 2, g, 0, ranked, have_most, gains))
            heapify(heap)
        else:
            # Unpaced: ``_best`` and ``_jumped`` are inlined below, read from these.
            S, K = self.S, self.K
            extras = self._extras
            jump_terms = []  # per way out a jump reaches: (way, steps, face-down tiles, tail), as ``_jumped`` skips
            if jumps:
                start = self.start_bound
                for k, ((jd, jf, _), (_, to)) in enumerate(zip(jumps, self.ways[li])):
                    tail = 1 + start[to] if campaign_mode and to >= 0 else 0
                    if jd != INF and jf != INF and tail != INF:
                        jump_terms.append((k, jd, jf, tail))
            # No term is below ``least``: its tail plus the turns of its face-down tiles with the most extra any set may
            # add (``most``: a term's face-down tiles are at least its route's, its extra at most that). Once ``best`` is
            # down to it, no set left can lower it. (The steps are left out: a walk of INF steps makes a term's steps
            # NaN, and the term is then its face-down part alone.)
            pots = self.pots[li]
            tele_left = sum(1 for p in left if pots[p][1])
            most = self._most_flees(para_held + len(left) - tele_left) + tele_held + tele_left
            k_most = k0 + most
            least = INF
            for _, f, tail, _, _ in routes:
                if f != INF:
                    u = (0 if f <= k_most else -(-(f - k_most) // K)) + tail
                    if u < least:
                        least = u
            for _, _, jf, tail in jump_terms:
                u = (0 if k0 + jf <= k_most else -(-(k0 + jf - k_most) // K)) + tail
                if u < least:
                    least = u
        best = ceiling
        below = ceiling if ceiling != INF else -1  # (a value below the ceiling found: the caller's answer)
        n_plain = 0
        while True:
            if best < below:
                break
            if paced:
                if not heap:
                    break
                lb, g, pos, ranked, have_most, gains = heap[0]
                if lb >= best:
                    break
                n = ranked[pos][1]
                pos += 1
                if pos < len(ranked):
                    m = ranked[pos][0]
                    heapreplace(heap, (0 if m <= have_most else (m - have_most + 1) // 2, g, pos, ranked, have_most,
                                       gains))
                else:
                    heappop(heap)
                tele, para, bits, need, dfl, afl = sets[n]
                floor = INF
                for h, tail in dfl:
                    t = (0 if h <= have_most else (h - have_most + 1) // 2) + tail
                    if t < floor:
                        floor = t
                if tele + tele_held:
                    for h, tail in afl:
                        t = (0 if h <= have_most else (h - have_most + 1) // 2) + tail
                        if t < floor:
                            floor = t
                if floor >= best:
                    continue
            else:
                if n_plain == len(sets) or best <= least:
                    break
                tele, para, bits, need, _, _ = sets[n_plain]
                n_plain += 1
            tele += tele_held
            para += para_held
            if bits:
                if walk_on_paired:
                    walk_paired = self._paired_walk(li, i, bits, para_held)
                if walk_on_met:
                    walk_met = self._met_walk(li, i, meet, bits, via)
            for idle, met in options:
                if paced:
                    if idle is None:
                        extra = extra_j = extra_j2 = 0
                    else:
                        extra = gains[1] if idle else gains[0]
                        extra_j, extra_j2 = gains[2], gains[3]
                    have = have0 + gain + 2 * extra
                    capped = not para and extra
                    lull = capped and not now and idle and meet == ()
                    if lull:
                        if quiet is None:
                            quiet = not any(map(mask.__getitem__, self._beside_foes[li][i]))
                        lull = quiet
                    pre = 0
                    pre_need = -INF  # (``settle``: the half-turns the order of pickups needs beyond ``have0``)
                    if bits and idle is not None and ordered:
                        # (``_prefix_turns``, from its ``A`` kept per set and ``idle`` for the calls of one ``_with_met``)
                        least = prefixes.get(bits << 1 | idle)
                        if least is None:
                            least = prefixes[bits << 1 | idle] = self._prefix_least(li, mask, i, bits, left, para_held,
                                                                                    idle)
                        if least > have0:
                            pre = (least - have0 + 1) // 2
                        pre_need = least - have0
                    for k, (ws, js, js2, fd) in enumerate(need):
                        if met is not None:
                            mw, mj, mf = met[k]
                            if mw > ws:
                                ws = mw
                            if mj > js:
                                js = mj
                            if mj > js2:
                                js2 = mj
                            if mf > fd:
                                fd = mf
                            if bits and met is paired_met and walk_on_paired:
                                if walk_paired[k] > ws:
                                    ws = walk_paired[k]
                            elif bits and met is met_met and walk_on_met:
                                if walk_met[k] > ws:
                                    ws = walk_met[k]
                        hit = dway[k]
                        if hit is not None:
                            h = hit[0] if hit[0] > ws + fd else ws + fd
                            if h != INF:
                                t = 0 if h <= have else (h - have + 1) // 2
                                if capped and h > have0 + now and (h - have0 - now + 3) // 4 > t:
                                    t = (h - have0 - now + 3) // 4
                                if capped and lull and (h - have0 + 5) // 4 > t:
                                    t = (h - have0 + 5) // 4
                                if pre > t:
                                    t = pre
                                t += hit[1]
                                if settle is not None:
                                    # The least t (no lower than the term at x = A) with x(t) + 2 (t - tail) >= R;
                                    # as x(t) <= max(0, t + c), none below the lesser of tail + ceil(R / 2) (t + c
                                    # <= 0) and ceil((R - c + 2 tail) / 3) (t + c > 0).
                                    r = (h - have if h - have > pre_need else pre_need) + most_x
                                    u = (r - c_x + 2 * hit[1] + 2) // 3
                                    if hit[1] + (r + 1) // 2 < u:
                                        u = hit[1] + (r + 1) // 2
                                    if u > t:
                                        t = u
                                    x = c_x + t
                                    while 2 * (t - hit[1]) < r - (most_x if x >= most_x else x if x > 0 else 0):
                                        t += 1
                                        x += 1
                                if t < best:
                                    best = t
                        hit = away[k] if tele else None
                        if hit is None:
                            continue
                        jh = hit[0]
                        h = js + fd
                        if h != INF:
                            # ``_after_jump(jh, extra_j, capped, h, have0, now, gain=gain)``, inlined.
                            jg = jh - gain
                            t = 0 if jg <= 2 * extra_j else (jg - 2 * extra_j + 1) // 2
                            if capped and (jh + 3) // 4 > t:
                                t = (jh + 3) // 4
                            have_j = have0 + gain + 2 * extra_j
                            if h > have_j and (h - have_j + 1) // 2 > t:
                                t = (h - have_j + 1) // 2
                            if capped and h > have0 + now and (h - have0 - now + 3) // 4 > t:
                                t = (h - have0 - now + 3) // 4
                            if not now and idle and meet == ():
                                t = self._after_jump(jh, gains[4], capped, h, have0, 0, gain=gain)
                                later = self._after_jump(jh, extra_j, capped, h, have0, now, later=True, gain=gain)
                                if later < t:
                                    t = later
                            if t + hit[1] < best:
                                best = t + hit[1]
                        if tele >= 2 and js2 < js and js2 + fd != INF:
                            t = self._after_jump(jh, extra_j2, capped, js2 + fd, have0, now, later=not now, gain=gain)
                            if t + hit[1] < best:
                                best = t + hit[1]
                    continue
                pick = pick_jump = ()
                if bits or met is not None:
                    pick, pick_jump = [], []
                    for k, (ws, _, js, fd) in zip(ways, need):
                        if met is not None:
                            mw, mj, mf = met[k]
                            ws, js, fd = max(ws, mw), max(js, mj), max(fd, mf)
                        pick.append((ws, fd))
                        pick_jump.append((js, fd))
                if idle is None:
                    extra = extra_j = 0
                else:
                    hit = extras.get((para, tele, idle))
                    if hit is None:
                        hit = extras[(para, tele, idle)] = (self._extra(para, tele, idle),
                                                            self.extra_moves(para, tele - 1) if tele else 0)
                    extra, extra_j = hit
                # ``self._best(routes, r0, k0, extra, pick)``, inlined (unpaced).
                r, k_now = r0 + extra, k0 + extra
                t = INF
                for d, f, tail, k, _ in routes:
                    if pick:
                        pd, pf = pick[k]
                        if pd > d:
                            d = pd
                        if pf > f:
                            f = pf
                    steps = 0 if d <= r else -(-(d - r) // S)
                    downs = 0 if f <= k_now else -(-(f - k_now) // K)
                    u = (steps if steps > downs else downs) + tail
                    if u < t:
                        t = u
                if tele and jumps:
                    # ``self._jumped(li, mask, r0, k0, campaign_mode, extra_j, pick_jump, blocked)``, inlined
                    # (``jump_terms``: its ways out that a jump reaches, with their tails).
                    r, k_now = r0 + extra_j, k0 + extra_j
                    jumped = INF
                    for k, jd, jf, tail in jump_terms:
                        if pick_jump:
                            pd, pf = pick_jump[k]
                            if pf == INF:
                                continue
                            d = pd if pd > r0 + jd else r0 + jd
                            f = pf if pf > k0 + jf else k0 + jf
                        else:
                            d, f = r0 + jd, k0 + jf
                        steps = 0 if d <= r else -(-(d - r) // S)
                        downs = 0 if f <= k_now else -(-(f - k_now) // K)
                        u = (steps if steps > downs else downs) + tail
                        if u < jumped:
                            jumped = u
                    if jumped < t:
                        t = jumped
                if t < best:
                    best = t
        if ceiling == INF:
            if len(results) >= MAX_RESULTS:
                results.clear()
            results[rkey] = best
        elif paced:
            # Not the value, but a bound on it: no lower than the ceiling when that is returned, else at most ``best``.
            seen = results.get((_CEILING, rkey))
            lo, hi = seen if seen is not None else (0, INF)
            if best >= ceiling:
                lo = ceiling if ceiling > lo else lo
            elif best < hi:
                hi = best
            if seen is None and len(results) >= MAX_RESULTS:
                results.clear()
            results[(_CEILING, rkey)] = (lo, hi)
        return best

    def _plan(self, li: int, mask: bytes, i: int, left: tuple, campaign_mode: bool, routes: tuple,
              hint: bytes | None, jumps: tuple, free: bool) -> tuple:
        """What :meth:`_with_potions` reads that depends only on the level, the ``mask``, the tile ``i``, the
        potions still on their cells (``left``), the ``jumps`` onto tiles face up now (the landing tiles blocked
        count only through them) and whether the walk must reach a potion of the set before any jump (``free``:
        no potion of teleportation at hand). (Per set of
        ``left``: (the potions of teleportation and of paralysis it adds, its bits over ``pots``, per way out
        what a walk onto it covers (walk's steps, jump's steps, after two jumps, face-down tiles), the
        half-turns and tail of each direct term of ``_with_potions_plain``'s least term of the set, of each
        term after a jump); per way out, the direct route's (half-turns, tail), the route's after a jump; paced,
        per group of sets adding the same potions, its sets by the least h + 2 tail of their terms; the values of
        ``_with_potions`` kept for this plan; its groups of sets to draw, kept per the potions held and ``only``.)
        Kept in ``_plans`` per what the mask gives it (``_near`` and ``_pickups`` of the potions of ``left``, the
        direct routes' terms), at most ``MAX_PLAN_SETS`` sets in all (all dropped when full), and found again per
        mask in ``_plan_at``."""
        at = (li, mask, i, left, campaign_mode, jumps, free)
        plan = self._plan_at.get(at)
        if plan is not None:
            return plan
        pots = self.pots[li]
        ways = range(len(self.ways[li]))
        dway = away = ()
        if self.paced:
            start = self.start_bound
            direct = {k: (h, tail) for _, _, tail, k, h in routes}
            dway = tuple([direct.get(k) for k in ways])
            away = [None] * len(ways)
            for k, ((jd, jf, jh), (_, to)) in enumerate(zip(jumps, self.ways[li])):
                tail = 1 + start[to] if campaign_mode and to >= 0 else 0
                if jd != INF and jf != INF and tail != INF:
                    away[k] = (jh, tail)
        # The mask is read only through the steps from a tile face up now to each potion of ``left``
        # (``_near``), the face-down tiles of its trees (``_pickups``) and the direct routes' terms
        # (``dway``): plans are kept per those values, which many masks share.
        if left:
            costs = self._pickups(li, mask, hint)
            near = self._near(li, mask)
            key = (li, i, left, campaign_mode, jumps, free, dway, tuple([near[p] for p in left]),
                   tuple([row[p] for row in costs for p in left]))
        else:
            key = (li, i, left, campaign_mode, jumps, free, dway)
        plan = self._plans.get(key)
        if plan is not None:
            if len(self._plan_at) > 100_000:
                self._plan_at.clear()
            self._plan_at[at] = plan
            return plan
        jds = [jump[0] for jump in jumps] if jumps else [INF] * len(ways)
        # As in ``_with_potions_plain``, with no potion at hand (the held ones are added per state), and what
        # each set covers (``need``) and its least terms (``floors``) found as the set is made.
        no_reach = ((0, 0, 0, 0),) * len(ways)
        dfl, afl, direct, after = self._floors(no_reach, dway, away)
        out = [(0, 0, 0, no_reach, dfl, afl)]
        # Paced: per group of sets adding the same potions, its sets by m, the least h + 2 tail of their terms,
        # with the terms after a jump and without, INF left out (``_with_potions``).
        groups = {(0, 0): ([(min(direct, after), 0)] if direct != INF or after != INF else [],
                           [(direct, 0)] if direct != INF else [])}
        if left and len(ways) == 1:
            self._plan_one_way(li, i, left, near, costs, jds[0], dway[0] if dway else None,
                               away[0] if away else None, free, out, groups)
        elif left:
            dist = self.dist[li]
            pdist = self._pot_dist[li]
            own = []
            for p in left:
                c, to_near, from_here = pots[p][0], near[p], pdist[p][i]
                row = []
                for k in ways:
                    jd = jds[k]
                    one = min(to_near + dist[k][c], from_here + jd)
                    row.append((one, min(one, to_near + jd), costs[k][p]))
                own.append(row)
            covers = [None]
            walks = self._walks_from(li, i)
            for subset in range(1, 1 << len(left)):
                low = (subset & -subset).bit_length() - 1
                rest = subset & (subset - 1)
                tele, para, bits = out[rest][:3]
                row = own[low]
                cover = covers[rest]
                if cover is not None:
                    row = [(a0 if a0 > b0 else b0, a1 if a1 > b1 else b1, a2 if a2 > b2 else b2)
                           for (a0, a1, a2), (b0, b1, b2) in zip(row, cover)]
                covers.append(row)
                p = left[low]
                if pots[p][1]:
                    tele += 1
                else:
                    para += 1
                bits |= 1 << p
                walk = walks.get(bits)
                if walk is None:
                    walk = walks[bits] = self._walk(li, i, bits)
                walk_steps, first = walk
                if free:
                    need = [(ws, a if a > first + jd else first + jd, b if b > first + jd else first + jd, fd)
                            for ws, (a, b, fd), jd in zip(walk_steps, row, jds)]
                else:
                    need = [(ws, a, b, fd) for ws, (a, b, fd) in zip(walk_steps, row)]
                dfl, afl, direct, after = self._floors(need, dway, away)
                _rank(groups, tele, para, direct, after, subset)
                entry = (tele, para, bits, tuple(need), tuple(dfl), tuple(afl))
                out.append(self._shared_sets.setdefault(entry, entry))
        ranks = tuple((tele, para, sorted(by_all), sorted(by_direct))
                      for (tele, para), (by_all, by_direct) in groups.items()) if self.paced else ()
        plan = (out, dway, away, ranks, {}, {})
        if self._plan_sets + len(out) > MAX_PLAN_SETS:
            self._plans.clear()
            self._plan_at.clear()
            self._shared_sets.clear()
            self._preps.clear()  # its entries hold plans' sets too: dropped with them, so the cap bounds the memory
            self._plan_sets = 0
        self._plan_sets += len(out)
        self._plans[key] = plan
        if len(self._plan_at) > 100_000:
            self._plan_at.clear()
        self._plan_at[at] = plan
        return plan

    def _subsets(self, li: int, left: tuple) -> tuple:
        """Per set of ``left`` (as bits over ``left``, 0 first): (the potions of teleportation and of paralysis it
        adds, its bits over ``pots``, its lowest member's index in ``left``, the set without it)."""
        key = (li, left)
        hit = self._subset_tables.get(key)
        if hit is None:
            pots = self.pots[li]
            out = [(0, 0, 0, -1, 0)]
            for subset in range(1, 1 << len(left)):
                low = (subset & -subset).bit_length() - 1
                rest = subset & (subset - 1)
                tele, para, bits = out[rest][:3]
                p = left[low]
                if pots[p][1]:
                    tele += 1
                else:
                    para += 1
                out.append((tele, para, bits | 1 << p, low, rest))
            hit = self._subset_tables[key] = tuple(out)
        return hit

    def _plan_one_way(self, li: int, i: int, left: tuple, near: list, costs: tuple, jd: float, hit, jump,
                      free: bool, out: list, groups: dict) -> None:
        """:meth:`_plan`'s sets of ``left`` on a level with one way out (the generated maps'): the same entries,
        appended to ``out`` and ``groups``, with the per-way lists unrolled."""
        pots, dist, pdist, cost = self.pots[li], self.dist[li][0], self._pot_dist[li], costs[0]
        own_a, own_b, own_f = [], [], []
        for p in left:
            c, to_near = pots[p][0], near[p]
            one = min(to_near + dist[c], pdist[p][i] + jd)
            own_a.append(one)
            own_b.append(min(one, to_near + jd))
            own_f.append(cost[p])
        # What the sets cover (before ``free``): the most over their members (0 for none: every value is >= 0).
        cover_a, cover_b, cover_f = [0], [0], [0]
        walks = self._walks_from(li, i)
        h0, tail0 = hit if hit is not None else (INF, 0)
        tail1 = jump[1] if jump is not None else 0
        table = self._subsets(li, left)
        shared = self._shared_sets
        for subset in range(1, len(table)):
            tele, para, bits, low, rest = table[subset]
            a, b, fd = own_a[low], own_b[low], own_f[low]
            x = cover_a[rest]
            if x > a:
                a = x
            x = cover_b[rest]
            if x > b:
                b = x
            x = cover_f[rest]
            if x > fd:
                fd = x
            cover_a.append(a)
            cover_b.append(b)
            cover_f.append(fd)
            walk = walks.get(bits)
            if walk is None:
                walk = walks[bits] = self._walk(li, i, bits)
            ws = walk[0][0]
            if free:
                x = walk[1] + jd
                if x > a:
                    a = x
                if x > b:
                    b = x
            direct = after = INF
            dfl = afl = ()
            if hit is not None:
                h = h0 if h0 > ws + fd else ws + fd
                if h != INF:
                    dfl = ((h, tail0),)
                    direct = h + 2 * tail0
            if jump is not None:
                h = (a if a < b else b) + fd
                if h != INF:
                    afl = ((h, tail1),)
                    after = h + 2 * tail1
            _rank(groups, tele, para, direct, after, subset)
            # Many plans hold equal sets (the same potions, covers and terms): one copy of each is kept.
            entry = (tele, para, bits, ((ws, a, b, fd),), dfl, afl)
            out.append(shared.setdefault(entry, entry))

    @staticmethod
    def _floors(need, dway, away) -> tuple:
        """(The half-turns and tail of each direct term, of each term after a jump; the least h + 2 tail of the
        first, of the second: ``_plan``.)"""
        dfl, afl = [], []
        direct = after = INF
        for (ws, js, js2, fd), hit, jump in zip(need, dway, away):
            if hit is not None:
                h = hit[0] if hit[0] > ws + fd else ws + fd
                if h != INF:
                    dfl.append((h, hit[1]))
                    if h + 2 * hit[1] < direct:
                        direct = h + 2 * hit[1]
            if jump is not None:
                h = (js if js < js2 else js2) + fd
                if h != INF:
                    afl.append((h, jump[1]))
                    if h + 2 * jump[1] < after:
                        after = h + 2 * jump[1]
        return dfl, afl, direct, after

    def _met_walk(self, li: int, i: int, meet: tuple, bits: int, via: tuple) -> list:
        """Per way out, the fewest steps of a walk from local cell ``i`` that picks up a potion of the set
        ``bits`` and goes on by a tile beside one of the enemies ``meet`` to the way out (``via``: ``_meet``'s
        walks by those tiles). Static: the level graph alone (kept in ``_mwalks``, at most 100,000)."""
        key = (li, i, meet, bits)
        hit = self._mwalks.get(key)
        if hit is None:
            pots, pdist = self.pots[li], self._pot_dist[li]
            members = [p for p in range(len(pots)) if bits >> p & 1]
            hit = [min(pdist[p][i] + via[k][pots[p][0]] for p in members) for k in range(len(self.ways[li]))]
            if len(self._mwalks) > 100_000:
                self._mwalks.clear()
            self._mwalks[key] = hit
        return hit

    def _prefix_least(self, li: int, mask: bytes, i: int, bits: int, left: tuple, held: int, idle: bool) -> float:
        """``A``, from which :meth:`_prefix_turns` is ``max(0, ceil((A - have0) / 2))`` for any ``have0``: the least over
        the orders of picking up the set ``bits`` of the most over its prefixes of their half-turns (steps and
        face-down tiles) less twice the ``E`` of the potions at hand then (``_prefix_turns``' need plus ``have0``;
        ``ceil((x - have0) / 2)`` never falls as ``x`` grows, so the most and the least are taken before it). A
        prefix of INF half-turns (a potion out of reach) is left out, so ``A`` is never INF; -INF with none left,
        or beyond ``MAX_ORDERED`` potions (``_prefix_turns`` then 0). It reads the mask only through the face-down tiles of a route from ``i`` to each potion of the
        set, and the potions held and ``idle`` only through those ``E``: kept per (level, tile, set, those counts,
        twice those ``E``) in ``_prefixes`` (at most 100,000). (``left`` only filters ``bits``, a subset of it.)"""
        members = [p for p in left if bits >> p & 1]
        if len(members) > MAX_ORDERED:
            return -INF
        counts = self._potion_counts(li, mask, None)
        gkey = (held, idle, len(members))
        extras = self._pgains.get(gkey)
        if extras is None:
            extras = self._pgains[gkey] = tuple(2 * self._extra(held + n, 0, idle) for n in range(len(members)))
        key = (li, i, bits, tuple([counts[p][i] for p in members]), extras)
        hit = self._prefixes.get(key)
        if hit is None:
            pots, pdist = self.pots[li], self._pot_dist[li]
            hit = INF
            for order in permutations(members):
                steps = down = 0
                worst = -INF
                at = i
                for n, p in enumerate(order):
                    steps += pdist[p][at]
                    if counts[p][i] > down:
                        down = counts[p][i]
                    need = steps + down - extras[n]
                    if need != INF and need > worst:
                        worst = need
                        if worst >= hit:
                            break
                    at = pots[p][0]
                if worst < hit:
                    hit = worst
            if len(self._prefixes) > 100_000:
                self._prefixes.clear()
            self._prefixes[key] = hit
        return hit

    def _gains_of(self, para: int, tele: int) -> tuple:
        """What ``para`` potions of paralysis and ``tele`` of teleportation still to be used add (``_extra``):
        the first gaining, the first idle, after one jump, after two, after one with the first after it
        idle, and the most of these (the paced terms of ``_with_potions``)."""
        out = (self._extra(para, tele, False), self._extra(para, tele, True),
               self.extra_moves(para, tele - 1) if tele else 0, self.extra_moves(para, tele - 2) if tele >= 2 else 0,
               self._extra(para, tele - 1, True) if tele else 0)
        return (*out, max(out))

    def _walks_from(self, li: int, i: int) -> dict:
        """The walks from local cell ``i`` of level ``li`` (``_walk``), by set of potions, as found so far."""
        hit = self._walks.get((li, i))
        if hit is None:
            if len(self._walks) > 4_096:
                self._walks.clear()
            hit = self._walks[(li, i)] = {}
        return hit

    def _walk(self, li: int, i: int, bits: int) -> tuple:
        """(Per way out, the fewest steps of a walk from local cell ``i`` onto every potion of the set ``bits``
        and on to it: the tour (``_tour_steps``), or with too many potions its farthest one; the fewest
        steps from ``i`` to a potion of teleportation of the set.) Static: the level graph alone."""
        pots, pdist, tours = self.pots[li], self._pot_dist[li], self._tours[li]
        members = [p for p in range(len(pots)) if bits >> p & 1]
        ways = range(len(self.ways[li]))
        if tours is not None:
            steps = tuple(min(pdist[p][i] + tours[k][bits][p] for p in members) for k in ways)
        else:
            steps = tuple(max(pdist[p][i] + self.dist[li][k][pots[p][0]] for p in members) for k in ways)
        return steps, min((pdist[p][i] for p in members if pots[p][1]), default=INF)

    def _paired_walk(self, li: int, i: int, bits: int, para_held: int) -> list:
        """Per way out, the fewest steps of a walk from local cell ``i`` onto every potion of the set ``bits``
        that stands beside an enemy twice (both times before the first potion, both between two potions or after
        the last, or once on either side of one of them), with ``para_held`` potions of paralysis at hand
        (``_with_potions``). Static: the level graph alone."""
        key = (li, i, bits, min(para_held, 2))
        hit = self._pwalks.get(key)
        if hit is not None:
            return hit
        pots, pdist, tours, paired = self.pots[li], self._pot_dist[li], self._tours[li], self._paired[li]
        to_pot = self._pairs_pot[li]
        members = [p for p in range(len(pots)) if bits >> p & 1]
        ways = range(len(self.ways[li]))
        walk = [min(min(pdist[p][i] + paired[k][bits][p], to_pot[p][i] + tours[k][bits][p]) for p in members)
                for k in ways]
        # Or the two tiles beside the enemy lie on either side of a potion q of the set (the hero stands beside
        # it now, say, with a potion at hand: he throws it there, flees onto q's cell and comes beside the enemy
        # again): then the walk is a tour of the set from ``i`` and a walk from ``i`` beside the enemy, onto q's
        # cell, beside it again and to the way out (``_sandwiches``), the longer of the two at least.
        sandwich = self._sandwich[li]
        for k in ways:
            tour = min(pdist[p][i] + tours[k][bits][p] for p in members)
            for q in members:
                around = sandwich[q][k][i] if sandwich[q][k][i] > tour else tour
                if around < walk[k]:
                    walk[k] = around
        if para_held < 2:
            # A potion is thrown where the enemy is revealed and another at the second tile beside it: with
            # one at hand, one of the set is picked up before the second tile (before the first, or between
            # them: ``_sandwich``); with none, before both.
            pairs, sandwich = self.pairs[li], self._sandwich[li]
            walk = [max(walk[k], min(min(pdist[p][i] + pairs[k][pots[p][0]], sandwich[p][k][i] if para_held else INF)
                                     for p in members)) for k in ways]
        if len(self._pwalks) > 100_000:
            self._pwalks.clear()
        hit = self._pwalks[key] = walk
        return hit

    @staticmethod
    def _after_jump(jh: float, more: int, capped: bool, h: float, have0: int, now: int, later: bool = False,
                    gain: int = 0) -> int:
        """Paced: the fewest turns after this one of a route that jumps onto a tile face up now, ``jh``
        half-turns after landing, ``h`` for the whole walk, with ``more`` extra steps for the rest of the
        game (``capped``: one a turn at most; ``now``: 2 if this turn may still gain; ``later``: the jump
        is made in a turn after this one, so the turns after the jump's are one more turn away; ``gain``:
        half-turns the fights after moving beside an enemy met before may add, ``_with_met``)."""
        jg = jh - gain
        t = 0 if jg <= 2 * more else (jg - 2 * more + 1) // 2
        if capped and (jh + 3) // 4 > t:
            t = (jh + 3) // 4  # the turns after the jump's
        if later:
            t += 1
        have_j = have0 + gain + 2 * more
        if h > have_j and (h - have_j + 1) // 2 > t:
            t = (h - have_j + 1) // 2  # the whole walk, this turn's share included
        if capped and h > have0 + now and (h - have0 - now + 3) // 4 > t:
            t = (h - have0 - now + 3) // 4
        return t

    def _near(self, li: int, mask: bytes) -> list:
        """Per potion of the level (``pots``): the fewest steps to its cell from a tile face up under ``mask``."""
        key = (li, mask)
        hit = self._ucache.get(key)
        if hit is None:
            if len(self._ucache) > 100_000:
                self._ucache.clear()
            up = list(compress(range(len(mask)), mask.translate(_FACE_UP)))  # (the cells face up, in C)
            hit = self._ucache[key] = [min(map(dist.__getitem__, up)) for dist in self._pot_dist[li]]
        return hit

    def _tour_steps(self, li: int) -> tuple | None:
        """Per way out, per set of the level's potions (as bits of their indices in ``pots``), per potion p
        of the set: the fewest steps of a walk from p's cell onto every potion of the set and on to the way
        out (Held-Karp over the static distances). None when the level has too many potions."""
        pots = self.pots[li]
        n = len(pots)
        if not n or n > MAX_TOURS:
            return None
        pdist = self._pot_dist[li]
        out = []
        for dist in self.dist[li]:
            tour = [[INF] * n for _ in range(1 << n)]
            for bits in range(1, 1 << n):
                for p in range(n):
                    if not bits >> p & 1:
                        continue
                    rest = bits & ~(1 << p)
                    if not rest:
                        tour[bits][p] = dist[pots[p][0]]
                        continue
                    tour[bits][p] = min(pdist[p][pots[q][0]] + tour[rest][q] for q in range(n) if rest >> q & 1)
            out.append(tour)
        return out

    def _paired_tours(self, li: int) -> list | None:
        """As :meth:`_tour_steps`, for walks that also stand beside an enemy twice somewhere after leaving
        potion p (``_pair_steps``: one leg of the tour, to the next potion or to the way out, goes by two
        ADJACENT TILEs of one enemy card). None without such legs or tours."""
        tours = self._tours[li]
        if tours is None or not self.pairs[li]:
            return None
        pots = self.pots[li]
        n = len(pots)
        pdist, to_pot = self._pot_dist[li], self._pairs_pot[li]
        out = []
        for k, tour in enumerate(tours):
            to_way = self.pairs[li][k]
            paired = [[INF] * n for _ in range(1 << n)]
            for bits in range(1, 1 << n):
                for p in range(n):
                    if not bits >> p & 1:
                        continue
                    rest = bits & ~(1 << p)
                    if not rest:
                        paired[bits][p] = to_way[pots[p][0]]
                        continue
                    paired[bits][p] = min(min(pdist[p][pots[q][0]] + paired[rest][q],
                                              to_pot[q][pots[p][0]] + tour[rest][q])
                                          for q in range(n) if rest >> q & 1)
            out.append(paired)
        return out

    def _sandwiches(self, li: int) -> tuple:
        """Per potion p of the level, per way out w, per local cell x: the fewest steps of a walk from x
        that stands beside an enemy card, then on p's cell, then beside the same enemy card again, then
        reaches w (the least over the enemy of the best first tile beside it and the best second)."""
        lo, hi = self.d.level_range[li]
        nbrs = self.local[li]
        n = hi - lo
        beside = [[j - lo for j in self.d.adjacent[lo + e] if j >= 0] for e in self._level_foes[li][0]]
        out = []
        for p, (c, _) in enumerate(self.pots[li]):
            from_pot = self._pot_dist[li][p]
            per_way = []
            for dist in self.dist[li]:
                cost = [INF] * n
                for cells in beside:
                    after = min((from_pot[t] + dist[t] for t in cells), default=INF)
                    for a in cells:
                        if from_pot[a] + after < cost[a]:
                            cost[a] = from_pot[a] + after
                queue = deque(sorted((a for a in range(n) if cost[a] != INF), key=cost.__getitem__))
                while queue:
                    j = queue.popleft()
                    for x in nbrs[j]:
                        if cost[x] > cost[j] + 1:
                            cost[x] = cost[j] + 1
                            queue.append(x)
                per_way.append(tuple(cost))
            out.append(tuple(per_way))
        return tuple(out)

    def _pair_steps(self, level: int) -> tuple:
        """Per way out w, per local cell x: the fewest steps of a walk from x to w that stands on two
        ADJACENT TILEs of one enemy card, or on one twice (``()``: the level has no enemy card).

        With ``loose_rule`` and no potion of teleportation, an enemy first revealed later is revealed by a
        flip from a tile A beside it, where the fight begins; a potion gains against it only in a fight
        begun at a tile T beside it that the hero entered after leaving that fight (he leaves it, the enemy
        alive, only by a potion; the enemy never moves). T is A again (two steps at least to leave and come
        back) or another tile beside the enemy (two orthogonal neighbours of a cell are two steps apart):
        the walk reaches A, takes two steps more at least, and goes on from T.
        """
        return self._pairs_to(level, self.dist[level])

    def _pairs_to(self, level: int, targets: tuple) -> tuple:
        """:meth:`_pair_steps` to each of ``targets`` (static step distances to a cell, by local cell)."""
        lo, hi = self.d.level_range[level]
        nbrs = self.local[level]
        n = hi - lo
        foes = self._level_foes[level][0]
        if not foes:
            return ()
        beside = [[j - lo for j in self.d.adjacent[lo + e] if j >= 0] for e in foes]
        out = []
        for dist in targets:
            cost = [INF] * n
            for cells in beside:
                after = 2 + min((dist[t] for t in cells), default=INF)
                for a in cells:
                    if after < cost[a]:
                        cost[a] = after
            queue = deque(sorted((a for a in range(n) if cost[a] != INF), key=cost.__getitem__))
            while queue:
                j = queue.popleft()
                for i in nbrs[j]:
                    if cost[i] > cost[j] + 1:
                        cost[i] = cost[j] + 1
                        queue.append(i)
            out.append(tuple(cost))
        return tuple(out)

    def _steps_from(self, level: int, near: list) -> list:
        """The fewest steps from one of the local cells ``near`` to each local cell (the relaxed graph)."""
        nbrs = self.local[level]
        steps = [INF] * len(nbrs)
        for c in near:
            steps[c] = 0
        queue = deque(near)
        while queue:
            j = queue.popleft()
            for i in nbrs[j]:
                if steps[i] > steps[j] + 1:
                    steps[i] = steps[j] + 1
                    queue.append(i)
        return steps

    def _via(self, level: int, near: list) -> tuple:
        """(per way out, the fewest steps from each local cell to it by one of the cells ``near``; per way out,
        the fewest steps from one of them to it)."""
        nbrs = self.local[level]
        n = len(nbrs)
        via, last = [], []
        for dist in self.dist[level]:
            # From each cell to a cell of ``near`` and on to the way out: a shortest-path search whose sources
            # start at their own distance to the way out (steps are 1 each: a label-correcting queue).
            cost = [INF] * n
            for c in near:
                cost[c] = dist[c]
            queue = deque(sorted(near, key=cost.__getitem__))
            while queue:
                j = queue.popleft()
                for i in nbrs[j]:
                    if cost[i] > cost[j] + 1:
                        cost[i] = cost[j] + 1
                        queue.append(i)
            via.append(tuple(cost))
            last.append(min((dist[c] for c in near), default=INF))
        return tuple(via), tuple(last)

    def _prefix_turns(self, li: int, mask: bytes, i: int, bits: int, left: tuple, held: int, idle: bool,
                      have0: int) -> int:
        """Paced, potions of paralysis only: the fewest turns after this one before a walk from local cell
        ``i`` has picked up every potion of the set ``bits`` (over ``pots``), in the best order.

        A potion lying on its cell is used only after the walk has stepped onto it, so the walk up to the
        n-th potion of the set it picks up gains by the ``held`` potions and the n - 1 picked before alone:
        its half-turns (the steps of that part of the tour, and the face-down tiles of a route to each
        potion reached) are at most ``have0`` + 2 a turn + 2 ``E`` of those potions. No potion of
        teleportation may be in the game: a jump would take the walk past its steps.
        """
        least = self._prefix_least(li, mask, i, bits, left, held, idle)
        return 0 if least == -INF else max(0, (least - have0 + 1) // 2)  # ceil((A - have0) / 2), A never INF

    def _potion_counts(self, level: int, down: bytes, hint: bytes | None) -> tuple:
        """Per potion of the level (``pots``): the fewest face-down tiles on a route from each local cell
        to the potion's cell, both ends counted (as :meth:`face_down_counts` for the ways out)."""
        key = (level, down)
        hit = self._pcache.get(key)
        if hit is not None:
            return hit
        base = self._pcache.get((level, hint)) if hint is not None else None
        flipped = flipped_cells(hint, down) if base is not None else None
        nbrs = self.local[level]
        if flipped is None:
            out = []
            for c, _ in self.pots[level]:
                enter = [INF] * len(nbrs)
                enter[c] = down[c]
                out.append(propagate(nbrs, down, enter, deque([c])))
            hit = tuple(out)
        else:
            hit = tuple(self._lower_counts(level, down, list(enter), flipped) for enter in base)
        if len(self._pcache) > 100_000:
            self._pcache.clear()
        self._pcache[key] = hit
        return hit

    def _pickups(self, level: int, down: bytes, hint: bytes | None = None) -> tuple:
        """Per way out w of the level, per potion (``pots``) at cell c: the fewest face-down tiles of a set
        of tiles that joins c and w to the tiles face up now (:meth:`_trees`)."""
        key = (level, down)
        hit = self._kcache.get(key)
        if hit is None:
            if len(self._kcache) > 100_000:
                self._kcache.clear()
            hit = self._kcache[key] = self._trees(level, down, self._potion_counts(level, down, hint), hint)
        return hit

    def _meet(self, level: int, down: bytes, foes: tuple, hint: bytes | None = None) -> tuple:
        """For the enemies ``foes`` (local cells, revealed and alive): (per way out, the fewest face-down tiles
        of a set of tiles joining an ADJACENT TILE of one of them and the way out to the tiles face up now;
        per way out, the fewest steps of a walk from each local cell by such a tile to the way out; the
        fewest steps from a tile face up now to such a tile; per way out, the fewest from such a tile to it).

        A tree or a route that reaches a tile beside one of them reaches one beside some enemy of them, so the
        first and third are the least over the enemies of their own (``_meet_one``, kept per enemy, whose
        face-down counts are lowered from those of the mask ``hint`` or of the last one: ``_foe_enter``)."""
        key = (level, down, foes)
        hit = self._mcache.get(key)
        if hit is not None:
            return hit
        steps = self._msteps.get((level, foes))
        if steps is None:
            lo = self.d.level_range[level][0]
            near = sorted({j - lo for e in foes for j in self.d.adjacent[lo + e] if j >= 0})
            if len(self._msteps) > 10_000:
                self._msteps.clear()
            steps = self._msteps[(level, foes)] = self._via(level, near)
        if len(foes) == 1:
            trees, near_up = self._meet_one(level, down, foes[0], hint)
        else:
            parts = [self._meet_one(level, down, e, hint) for e in foes]
            trees = tuple(map(min, *(t for t, _ in parts)))
            near_up = min(n for _, n in parts)
        hit = (trees, steps[0], near_up, steps[1])
        if len(self._mcache) > 100_000:
            self._mcache.clear()
        self._mcache[key] = hit
        return hit

    def _meet_plain(self, level: int, down: bytes, foes: tuple) -> tuple:
        """:meth:`_meet` from scratch: from the tiles beside all of ``foes`` at once, nothing kept."""
        nbrs = self.local[level]
        lo = self.d.level_range[level][0]
        near = sorted({j - lo for e in foes for j in self.d.adjacent[lo + e] if j >= 0})
        enter = [INF] * len(nbrs)
        for c in near:
            enter[c] = down[c]
        enter = propagate(nbrs, down, enter, deque(near))
        steps = self._via(level, near)
        up = [v for v in range(len(nbrs)) if not down[v]]
        from_near = self._steps_from(level, near)
        return (tuple(row[0] for row in self._trees(level, down, (enter,))), steps[0],
                min((from_near[v] for v in up), default=INF), steps[1])

    def _meet_one(self, level: int, down: bytes, foe: int, hint: bytes | None) -> tuple:
        """:meth:`_meet`'s first part (per way out) and third for the one enemy card at local cell ``foe``. Kept
        in ``_fmeet`` (at most 100,000)."""
        key = (level, down, foe)
        hit = self._fmeet.get(key)
        if hit is None:
            enter = self._foe_enter(level, down, foe, hint)
            from_near = self._fsteps.get((level, foe))
            if from_near is None:
                from_near = self._fsteps[(level, foe)] = self._foe_steps(level, foe)
            trees = self._trees(level, down, (enter,), hint)
            up = self._upcache[(level, down)][0]  # (the tiles face up now: ``_trees`` keeps them)
            hit = (tuple(row[0] for row in trees), min(map(from_near.__getitem__, up), default=INF))
            if len(self._fmeet) > 100_000:
                self._fmeet.clear()
            self._fmeet[key] = hit
        return hit

    def _foe_steps(self, level: int, foe: int) -> list:
        """The fewest steps from an ADJACENT TILE of the enemy card at local cell ``foe`` to each local cell."""
        lo = self.d.level_range[level][0]
        return self._steps_from(level, [j - lo for j in self.d.adjacent[lo + foe] if j >= 0])

    def _foe_enter(self, level: int, down: bytes, foe: int, hint: bytes | None) -> list:
        """The fewest face-down tiles on a route from an ADJACENT TILE of the enemy card at local cell ``foe``
        to each local cell, both ends counted (``_meet``); lowered from the mask ``hint``'s where it is kept,
        else from the last mask's where no tile face down now was face up there (counts only fall as tiles
        turn face up: :meth:`face_down_counts`). Kept in ``_fenter`` (at most 100,000)."""
        key = (level, down, foe)
        hit = self._fenter.get(key)
        if hit is not None:
            return hit
        base = self._fenter.get((level, hint, foe)) if hint is not None else None
        flipped = flipped_cells(hint, down) if base is not None else None
        if flipped is None:
            # Else from the last mask it was found for, if no tile face down now was face up there.
            last = self._foe_last.get((level, foe))
            if last is not None:
                flipped = flipped_cells(last[0], down)
                base = last[1]
        if flipped is None:
            nbrs = self.local[level]
            lo = self.d.level_range[level][0]
            near = [j - lo for j in self.d.adjacent[lo + foe] if j >= 0]
            hit = [INF] * len(nbrs)
            for c in near:
                hit[c] = down[c]
            hit = propagate(nbrs, down, hit, deque(near))
        else:
            hit = self._lower_counts(level, down, list(base), flipped)
        if len(self._fenter) > 100_000:
            self._fenter.clear()
        self._fenter[key] = hit
        self._foe_last[(level, foe)] = (down, hit)
        return hit

    def _trees(self, level: int, down: bytes, targets: tuple, hint: bytes | None = None) -> tuple:
        """Per way out w of the level, per target (given by the face-down counts of routes to it from each
        cell, both ends counted): the fewest face-down tiles of a set of tiles that joins the target and
        w to the tiles face up now (a tree, each tile counted once).

        Every walk the rest of the game takes is made of pieces that each begin on a tile face up now:
        the hero's tile, or one a potion of teleportation lands on (a tile revealed later is one step of
        the relaxed graph from the tile it was flipped from). So the tiles a walk that reaches the target
        and leaves by w enters, with the tiles face up now, join the target, w and those tiles: its
        face-down tiles are at least that tree's. It is the smallest tree of three terminals, the tiles
        face up now read as one: the least over a junction v of the three routes from v, v counted once.
        """
        counts = self.face_down_counts(level, down, hint)
        nbrs = self.local[level]
        n = len(nbrs)
        key = (level, down)
        hit = self._upcache.get(key)
        if hit is None:
            up = list(compress(range(n), down.translate(_FACE_UP)))
            # From the tiles face up now (one source): the face-down tiles on the way to each tile, it counted.
            # Lowered from the mask ``hint``'s where it is kept (the tiles flipped since are sources more; counts
            # only fall as tiles turn face up), else found afresh.
            base = self._upcache.get((level, hint)) if hint is not None else None
            flipped = flipped_cells(hint, down) if base is not None else None
            if flipped is None:
                from_up = [INF] * n
                for v in up:
                    from_up[v] = 0
                from_up = propagate(nbrs, down, from_up, deque(up))
            else:
                from_up = list(base[1])
                for v in flipped:
                    from_up[v] = 0
                from_up = propagate(nbrs, down, from_up, deque(flipped))
            # Per way out w: the fewest face-down tiles from the tiles face up now to it, and per junction v,
            # w's part of a tree joined at v: its route from v (or through the tiles face up now, reached
            # from v), with v's own route to the face-up tiles, v counted once (``- 2 * down[v]``).
            shares = []
            for enter_w in counts:
                w_up = min(map(enter_w.__getitem__, up), default=INF)
                share = [(e if e < w_up + f else w_up + f) + f - 2 * d for e, f, d in zip(enter_w, from_up, down)]
                # (and the least over v of the target's route through the tiles face up now plus this share, but
                # for the target's own part c_up: see below)
                shares.append((w_up, share, min(map(add, from_up, share))))
            if len(self._upcache) > 100_000:
                self._upcache.clear()
            hit = self._upcache[key] = (up, from_up, tuple(shares))
        up, from_up, shares = hit
        ups = [min(map(enter_c.__getitem__, up), default=INF) for enter_c in targets]
        out = []
        for w_up, share, via_up in shares:
            row = []
            for enter_c, c_up in zip(targets, ups):
                # The target's route from each junction v (or through the tiles face up now: c_up + from_up[v]),
                # plus the way out's share there; the junction is the face-up tiles themselves at worst. The least
                # over v of min(enter_c[v], c_up + from_up[v]) + share[v] is the lesser of the least enter_c[v] +
                # share[v] and c_up + the least from_up[v] + share[v] (``via_up``; ints or INF: the sums are exact).
                direct = min(map(add, enter_c, share))
                row.append(min(c_up + w_up, direct if direct < c_up + via_up else c_up + via_up))
            out.append(tuple(row))
        return tuple(out)


def _flips_always_engage(d) -> bool:
    """Every enemy card a flip can reveal is on an ADJACENT TILE of the tile it is flipped from (so it
    starts a fight at once: docs/rules.md, Board), and the grid is the only geometry (no enemy card starts
    face up is read per state)."""
    for i, row in enumerate(d.flip_to):
        for dr, j in enumerate(row):
            if j >= 0 and d.kind[j] == ENEMY and d.adjacent[i][dr] != j:
                return False
    return True


class _Stock:
    """Where copies of some cards are still to be had: ``left(faces)`` counts them, a cell's own card
    until the cell is cleared, a shop's stock and a chest's contents always (an upper bound)."""

    def __init__(self, d, cards: frozenset) -> None:
        own = [j for j in range(len(d.kind)) if d.card[j].id in cards]
        self.own = tuple(own)
        self.fixed = sum(1 for cell in d.cells for c in (*cell.stock, *cell.contents) if c in cards)
        self.cells = len(own)
        self._faces = faces_getter(own)

    def left(self, faces) -> int:
        if not self.cells:
            return self.fixed
        return self.fixed + self.cells - self._faces(faces).count(CLEARED)
