"""Searches over a level's relaxed graph, shared by the turns bound (:mod:`.bounds`, :mod:`.potions`) and
the health ceiling (:mod:`.ceiling`): 0-1 label-correcting searches updated as tiles turn face up, and
readers of a few cells' faces."""

from __future__ import annotations

from collections import deque
from operator import itemgetter

INF = float("inf")


def faces_getter(cells: list):
    """A function of ``faces`` giving the tuple of the faces of ``cells`` (in C)."""
    if len(cells) > 1:
        return itemgetter(*cells)
    if cells:
        only = cells[0]
        return lambda faces: (faces[only],)
    return lambda faces: ()


def propagate(nbrs: tuple, down: bytes, enter: list, queue: deque) -> list:
    """Lower ``enter`` from the queued cells until no route improves (0-1 label correcting)."""
    pop, push, push_left = queue.popleft, queue.append, queue.appendleft
    while queue:
        j = pop()
        ej = enter[j]
        for i in nbrs[j]:
            cost = ej + down[i]
            if cost < enter[i]:
                enter[i] = cost
                if down[i]:
                    push(i)
                else:
                    push_left(i)
    return enter


def propagate_paced(nbrs: tuple, down: bytes | list, cost: list, queue: deque) -> list:
    """Lower ``cost`` from the queued cells until no route improves; entering a cell costs 1 + down."""
    pop, push = queue.popleft, queue.append
    while queue:
        j = pop()
        cj = cost[j] + 1
        for i in nbrs[j]:
            c = cj + down[i]
            if c < cost[i]:
                cost[i] = c
                push(i)
    return cost


def reflipped_paced(nbrs: tuple, down: bytes | list, base: list, flipped: list) -> list:
    """``base`` (costs of :func:`propagate_paced` under an earlier mask) under ``down``, the same mask with the
    cells ``flipped`` turned face up: each such cell reachable costs 1 less (its own tile is no longer face
    down; the rest of its best route is unchanged), lowered on from there. ``base`` is left as it is."""
    cost = list(base)
    queue = deque()
    for c in flipped:
        if cost[c] != INF:
            cost[c] -= 1
            queue.append(c)
    return propagate_paced(nbrs, down, cost, queue)


_LAST_FLIPPED: list = [None, None, None]  # the last (before, after, cells) of ``flipped_cells``


def flipped_cells(before: bytes, after: bytes) -> tuple | None:
    """Cells face down in ``before`` and not in ``after`` (None if any turned face down: rebuild). The last pair's
    answer is kept: the counts of one state's bound all ask it for the same masks."""
    last = _LAST_FLIPPED
    if after == last[1] and before == last[0]:
        return last[2]
    x, y = int.from_bytes(before, "big"), int.from_bytes(after, "big")
    if y & ~x:
        out = None
    else:
        diff, n, cells = x ^ y, len(before), []
        while diff:
            low = diff & -diff
            cells.append(n - 1 - (low.bit_length() - 1) // 8)
            diff ^= low
        out = tuple(cells)
    last[0], last[1], last[2] = before, after, out
    return out
