"""Perft-style counts (python-chess habit): distinct states reachable on each bundled level.

Depth counts player actions; chance points in between are answered by the
campaign's fated dice. A change to the rules that alters the game tree changes
these numbers and fails loudly: re-pin them only for an intended rules change.
"""

from pathlib import Path

import pytest

from cardrogue.engine.loader import load_campaign
from cardrogue.engine.play import FatedResolver
from cardrogue.engine.state import GameState

SONS = load_campaign(Path(__file__).resolve().parent.parent / "campaigns" / "a-sons-descent.json").campaign
DEPTH = 10


def perft(campaign, level: int, depth: int) -> list[int]:
    """Distinct state keys at each depth 1..depth (states already seen at a lower depth are not re-expanded)."""
    resolver = FatedResolver(campaign)
    frontier = {}
    root = GameState.new(campaign, level=level, log=False)
    frontier[root.key()] = root
    seen = set(frontier)
    counts = []
    for _ in range(depth):
        nxt = {}
        for state in frontier.values():
            for action in state.legal_actions():
                child = state.clone()
                child.step(action, resolver)
                k = child.key()
                if k not in seen:
                    seen.add(k)
                    nxt[k] = child
        counts.append(len(nxt))
        frontier = nxt
    return counts


PINNED = {
    0: [2, 4, 6, 9, 13, 17, 21, 30, 41, 59],  # the-cave-in
    1: [2, 4, 6, 10, 14, 21, 33, 44, 62, 89],  # the-old-shop
    2: [2, 4, 6, 11, 16, 22, 30, 38, 45, 50],  # the-way-out
}


@pytest.mark.parametrize("level", [0, 1, 2])
def test_perft_a_sons_descent(level):
    counts = perft(SONS, level, DEPTH)
    print(SONS.levels[level].id, counts)
    assert counts == PINNED[level]
