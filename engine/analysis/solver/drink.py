"""Two gains from one potion of teleportation drunk in a fight: the steps such a walk takes.

On a level whose only potion still to be used is one of teleportation, a walk that gains twice by the enemies that
potion leaves (drunk in a fight at a tile ``X``: the enemies beside ``X`` stay alive and face up) stands on ``X``,
lands on a tile revealed by then, and later moves beside two of those enemies, one at a time (docs/solver.md,
*Two gains from one drink*). :class:`DrinkDetours` gives the fewest steps of such a walk in the relaxed graph, the
landing counted as a step from the tile whose flip revealed it (or onto a tile face up now).
"""

from __future__ import annotations

from collections import deque

from .result import INF


MAX_CELLS = 144  # the tables hold every pair of cells' distance: levels of up to 12 x 12 cells


class DrinkDetours:
    """Per level and way out, the tables of :meth:`steps` (built on first use; levels of at most ``MAX_CELLS``)."""

    def __init__(self, d, local: tuple, ways: list) -> None:
        self.d = d
        self.local = local  # per level: the relaxed graph's neighbours, local cells
        self.ways = ways
        self._tables: dict = {}  # (level, way out) -> (pairs, two_gains, beside_pair, near_pair)
        self._up: dict = {}  # (level, way out, mask) -> per pair, the least steps after a landing face up now

    def _distances(self, li: int) -> list:
        nbrs = self.local[li]
        n = len(nbrs)
        out = []
        for src in range(n):
            dist = [INF] * n
            dist[src] = 0
            queue = deque([src])
            while queue:
                i = queue.popleft()
                di = dist[i] + 1
                for j in nbrs[i]:
                    if dist[j] > di:
                        dist[j] = di
                        queue.append(j)
            out.append(dist)
        return out

    def _table(self, li: int, k: int) -> tuple:
        key = (li, k)
        hit = self._tables.get(key)
        if hit is not None:
            return hit
        d = self.d
        lo, hi = d.level_range[li]
        n = hi - lo
        nbrs = self.local[li]
        dist = self._distances(li)
        w = self.ways[li][k][0] - lo
        near = [frozenset(e - lo for e in d.enemy_near[lo + i]) for i in range(n)]
        foes = sorted({e for row in near for e in row})
        beside = {e: [i for i in range(n) if e in near[i]] for e in foes}
        # Ordered pairs (a gained first, b second) of enemy cards with a common ADJACENT TILE (the drink's tile).
        pairs = sorted({(a, b) for row in near for a in row for b in row if a != b})
        landing = []  # per pair: per cell L, the fewest steps from a landing on L beside neither, through both gains, to w
        near_pair = []  # per pair: per cell, the fewest steps to a tile beside both (where the drink is)
        for a, b in pairs:
            # The first gain's tile stands beside a alone of the two (b is alive and face up then); the second's
            # beside b.
            after = []
            for y1 in beside[a]:
                if b in near[y1]:
                    continue
                rest = min((dist[y1][y2] + dist[y2][w] for y2 in beside[b]), default=INF)
                if rest < INF:
                    after.append((y1, rest))
            off = set(beside[a]) | set(beside[b])
            landing.append(tuple(INF if L in off else min((dist[L][y1] + rest for y1, rest in after), default=INF)
                                 for L in range(n)))
            drinks = [x for x in range(n) if a in near[x] and b in near[x]]
            near_pair.append(tuple(min((dist[p][x] for x in drinks), default=INF) for p in range(n)))
        # A landing on a tile revealed by a flip from a tile v the walk stands on before or at the drink: the steps
        # to v, from v to the drink's tile, one for the landing (a step from v), and the steps after it.
        through = [INF] * n  # per v
        for q in range(len(pairs)):
            land, to_x = landing[q], near_pair[q]
            for v in range(n):
                after_v = min((land[L] for L in nbrs[v]), default=INF)
                if after_v == INF:
                    continue
                # the drink's tile is at least as far from v as the nearest tile beside both
                total = to_x[v] + 1 + after_v
                if total < through[v]:
                    through[v] = total
        two_gains = tuple(min((dist[p][v] + through[v] for v in range(n) if through[v] < INF), default=INF)
                          for p in range(n))
        hit = self._tables[key] = (tuple(pairs), two_gains, tuple(landing), tuple(near_pair))
        return hit

    def steps(self, li: int, k: int, mask: bytes, i: int) -> float:
        """The fewest steps from local cell ``i`` to way out ``k`` of a walk that stands on a tile ``X`` beside two
        enemy cards, lands (the turn after which begins) on a tile beside neither, then moves beside one of them and
        later beside the other, the first of those tiles not beside the second enemy: the landing counted as one step
        from a tile it stood on before (whose flip revealed it) or, onto a tile face up under ``mask``, from ``X``."""
        pairs, two_gains, landing, near_pair = self._table(li, k)
        best = two_gains[i]
        key = (li, k, mask)
        up = self._up.get(key)
        if up is None:
            cells = [c for c, down in enumerate(mask) if not down]
            up = tuple(min((land[c] for c in cells), default=INF) for land in landing)
            if len(self._up) > 100_000:
                self._up.clear()
            self._up[key] = up
        for q in range(len(pairs)):
            if up[q] < INF:
                total = near_pair[q][i] + 1 + up[q]
                if total < best:
                    best = total
        return best


_USES: dict = {}  # (potions, met, crowd, alive, visitors, drinking) -> :func:`use_gains`' table


def use_gains(potions: int, met: int, crowd: int, alive: int, visitors: int, drinking: int = 0) -> tuple:
    """Per number of turns that may hold a fight after moving (``slots``, the ``t + c`` of docs/solver.md), the most
    half-turns the rest of the game may drop beyond 2 a turn and 2 a potion but the first (docs/solver.md, *What a
    potion of teleportation is used for*): the largest, over the ways the ``potions`` still to be used may be used,
    of ``G + (excess of the potions' turns) - 2 max(0, k - 1)``, ``k`` the potions used. A potion is

    - drunk in a fight after moving begun in its turn (``cd``): its turn drops 2 more, it takes a turn that may gain,
      and it leaves at most ``crowd`` enemies met so; it needs an enemy met so before (the fight after moving);
    - thrown at the last enemy of such a fight (``w``): 1 more, a turn, one enemy moved (met so); needs one met so;
    - drunk in a fight at its turn's first tile (``e``): nothing more (the flips from that tile and the landing), a
      turn (it ends in that fight), at most ``crowd`` enemies left;
    - thrown in a fight that is not a fight after moving ended by it (``f``): nothing more, one enemy moved;
    - drunk outside a fight, in a turn with no fight after moving (``dd``): 1 more (two moves, or flips and a move,
      then the landing); or after a fight after moving won (``done``, at step 4): 1 more, at most one a turn won.

    ``G`` (fights after moving won by slaying, one more each) are at most the enemies alive, at most the enemies met
    so now (``met``) and those the potions leave or move, plus ``visitors`` (moved by a thrown potion already), and
    at most the turns that may gain less those the potions take; with none met so now and no visitor the first
    fight after moving needs a potion of ``e`` or ``f`` first. ``drinking``: a potion drunk now waits for its tile
    (1: drunk outside a fight, 2: in a fight, where it leaves at most ``crowd`` enemies), one of the ``k``, 2 more at
    most and no turn that may gain (this one's is gone). Entry ``s + 1`` is the value for ``s`` slots (entry 0 is -1, a
    marker), the last entry holds for every larger ``s``."""
    key = (potions, met, crowd, alive, visitors, drinking)
    hit = _USES.get(key)
    if hit is not None:
        return hit
    thrown = 1 if crowd else 0  # (no enemy beside any tile: none to throw one at)
    left = crowd if drinking == 2 else 0  # the enemies the potion drunk now leaves
    supplied = met + visitors + left > 0
    plans = []  # (turns taken, most G, the rest of the value, potions thrown at the last enemy of a fight, done)
    for cd in range(potions + 1):
        for w in range(potions - cd + 1):
            for e in range(potions - cd - w + 1):
                for f in range(potions - cd - w - e + 1):
                    for dd in range(potions - cd - w - e - f + 1):
                        for done in range(potions - cd - w - e - f - dd + 1):
                            if not thrown and (w or f):
                                continue
                            first = e + f > 0
                            if not supplied and not first and (cd or w):
                                continue  # no fight after moving before an enemy is met so
                            k = cd + w + e + f + dd + done + (1 if drinking else 0)
                            most = met + left + crowd * (cd + e) + thrown * (w + f)
                            cap = (alive if alive < most else most) + visitors
                            if not supplied and not first:
                                cap = 0
                            rest = 2 * cd + w + dd + done + (2 if drinking else 0) - 2 * max(0, k - 1)
                            plans.append((cd + w + e, cap, rest, w, done))
    top = potions + max((cap for _, cap, _, _, _ in plans), default=0) + 1
    table = [-1]
    for slots in range(top + 1):
        best = 0
        for used, cap, rest, w, done in plans:
            if used > slots:
                continue
            g = slots - used if slots - used < cap else cap
            if done > g + w:
                continue  # a drink at step 4 follows a fight after moving won (or ended by a throw) in its turn
            if g + rest > best:
                best = g + rest
        table.append(best)
    hit = _USES[key] = tuple(table)
    return hit
