"""The greedy policy's first look at a level (its playouts' and `solve --random`'s), timed: an open ``n`` x ``n``
map of one card against one of twelve cards in turn. The look was quadratic in the cells of one card once (a tuple
made one cell longer each time: 13 s of a 256x256 map). ``tests/test_hostile_budgets.py`` counts the look's work in
lines run and bytes allocated, not its time; a scan in C that allocates nothing shows only here.

Run ``python benchmarks/bench_greedy_look.py [N]`` (N = 256): the least CPU time of three looks at each map
(``time.process_time``, the collector paused) and their ratio, one card over twelve (about 1 when linear).
"""

from __future__ import annotations

import gc
import json
import sys
import time

from cardrogue.engine.analysis.montecarlo import GreedyPolicy
from cardrogue.engine.format.loader import load_campaign_text
from cardrogue.engine.rules.state import GameState

import gen  # (benchmarks/, beside this file)

ITEMS = ["dagger", "sword", "shield", "helm", "boots", "maul", "battle-axe", "chestplate", "gold", "amulet-of-vigor",
         "ring-of-might", "scroll-of-identify"]


def open_map(n: int, cards: list[str]) -> str:
    """One n x n level, every tile open on every side, the cards taken in turn from ``cards``."""
    cells = gen.open_cells(n, lambda x, y: cards[(x + y * n) % len(cards)])
    return json.dumps({"format": 1, "id": "look", "title": "Look", "kind": "challenge", "rules": "1.1.2", "seed": 1,
                       "hero": {"character": "warrior"},
                       "levels": [{"id": "open", "title": "Open", "width": n, "height": n, "cells": cells}]})


def look(n: int, cards: list[str]) -> float:
    result = load_campaign_text(open_map(n, cards))
    if not result.ok:
        raise SystemExit(f"the generated map does not load: {result.errors[0].message}")
    campaign = result.campaign
    view = GameState.new(campaign, 0).view()
    takes = []
    gc.disable()
    try:
        for _ in range(3):
            started = time.process_time()
            GreedyPolicy(campaign).choose(view)
            takes.append(time.process_time() - started)
    finally:
        gc.enable()
    return min(takes)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 256
    one, many = look(n, ["pathing-tile"]), look(n, ITEMS)
    print(f"{n}x{n}: one card {one:.2f} s, twelve cards {many:.2f} s, ratio {one / many:.2f}")


if __name__ == "__main__":
    main()
