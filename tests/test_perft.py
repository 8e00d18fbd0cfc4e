"""Perft-style counts (python-chess habit): distinct states reachable on each bundled level.

Depth counts player actions; chance points in between are answered by the
campaign's fated dice. A change to the rules that alters the game tree changes
these numbers and fails loudly: re-pin them only for an intended rules change.
"""

from pathlib import Path

import pytest

from cardrogue.engine.format.loader import load_campaign
from cardrogue.engine.chance.resolvers import FatedResolver
from cardrogue.engine.rules.state import GameState

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
    "the-ropes-end": [2, 5, 8, 10, 13, 17, 22, 28, 32, 37],
    "teeth-in-the-floor": [2, 5, 9, 16, 29, 50, 83, 135, 194, 266],
    "first-blood": [2, 3, 4, 6, 8, 12, 14, 16, 22, 28],
    "colours-in-the-dark": [2, 3, 5, 10, 16, 26, 42, 71, 115, 175],
    "the-fathers-counter": [2, 3, 5, 7, 11, 13, 15, 21, 29, 41],
    "the-sorcerers-chest": [2, 3, 5, 7, 10, 14, 17, 21, 29, 36],
    "the-basilisks-gallery": [2, 4, 7, 15, 28, 45, 65, 86, 107, 128],
    "the-golems-hall": [2, 4, 6, 8, 9, 10, 13, 17, 20, 25],
}


@pytest.mark.parametrize("level_id", list(PINNED))
def test_perft_a_sons_descent(level_id):
    level = SONS.level_index(level_id)
    assert level is not None, f"the bundled campaign has no level {level_id!r}: re-pin for the new content"
    counts = perft(SONS, level, DEPTH)
    print(level_id, counts)
    assert counts == PINNED[level_id]
