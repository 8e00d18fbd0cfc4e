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
