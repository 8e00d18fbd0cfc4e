"""Generated campaigns for benchmarks: big, valid, deterministic."""

from __future__ import annotations

import random

from cardrogue.engine.format.canonical import dumps

_CONTENT = ["pathing-tile"] * 12 + ["goblin", "kobold", "cave-bat", "spike-trap", "red-potion", "fountain-of-healing", "imp"]


def open_level(level_id: str, size: int, rng: random.Random, to: str | None) -> dict:
    """A ``size`` x ``size`` level with every path open: the start top-left, the way out bottom-right."""
    cells = []
    for y in range(size):
        for x in range(size):
            paths = "".join(d for d, ok in (("N", y > 0), ("E", x < size - 1), ("S", y < size - 1), ("W", x > 0)) if ok)
            cell = {"at": [x, y], "card": rng.choice(_CONTENT), "paths": paths, "face": "down"}
            if (x, y) == (0, 0):
                cell.update(card="starting-tile", face="up")
            elif (x, y) == (size - 1, size - 1):
                if to is None:
                    cell.update(card="pathing-tile", exit=True)
                else:
                    cell.update(card="descending-ladder", to=to)
            cells.append(cell)
    return {"id": level_id, "title": f"Level {level_id}", "story": "Deeper.", "width": size, "height": size, "cells": cells}


def campaign(levels: int, size: int, seed: int = 1) -> dict:
    rng = random.Random(seed)
    ids = [f"level-{i + 1}" for i in range(levels)]
    return {
        "format": 1, "id": "generated", "title": "Generated", "kind": "challenge", "rules": "1.1.2", "seed": seed,
        "hero": {"character": "warrior"},
        "levels": [open_level(lid, size, rng, ids[i + 1] if i + 1 < levels else None) for i, lid in enumerate(ids)],
    }


def campaign_text(levels: int, size: int, seed: int = 1) -> str:
    return dumps(campaign(levels, size, seed))
