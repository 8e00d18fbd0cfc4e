"""Generated campaigns for benchmarks: big, valid, deterministic."""

from __future__ import annotations

import random
from typing import Callable

from cardrogue.engine.format.canonical import dumps

_CONTENT = ["pathing-tile"] * 12 + ["goblin", "kobold", "cave-bat", "spike-trap", "red-potion", "fountain-of-healing", "imp"]


def open_cells(size: int, card: Callable[[int, int], str], to: str | None = None) -> list[dict]:
    """The cells of a ``size`` x ``size`` level with every path open, face down, row by row, ``card(x, y)`` asked
    for each in that order: the start top-left, the way out bottom-right (an exit, or a ladder ``to`` a level)."""
    cells = []
    for y in range(size):
        for x in range(size):
            paths = "".join(d for d, ok in (("N", y > 0), ("E", x < size - 1), ("S", y < size - 1), ("W", x > 0)) if ok)
            cells.append({"at": [x, y], "card": card(x, y), "paths": paths, "face": "down"})
    cells[0].update(card="starting-tile", face="up")
    if to is None:
        cells[-1].update(card="pathing-tile", exit=True)
    else:
        cells[-1].update(card="descending-ladder", to=to)
    return cells


def open_level(level_id: str, size: int, rng: random.Random, to: str | None) -> dict:
    """A ``size`` x ``size`` level with every path open: the start top-left, the way out bottom-right."""
    cells = open_cells(size, lambda x, y: rng.choice(_CONTENT), to)
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


# ----------------------------------------------------------------------------------- item mixes
# Maps unlike the open levels above, in the style of held-out challenge maps: each mix names the
# features its maps hold (docs/authoring.md's format, the catalog's every card kind, the six
# characters). ``campaign_text`` above is left exactly as it was: benchmarks/RESULTS.md's figures
# depend on its output.

ENEMIES = ["goblin", "kobold", "cave-bat", "imp", "sewer-rat", "troll", "vampire-bat", "zombie"]
BOSSES = ["basilisk-of-stone", "basilisk-of-venom", "golem"]
TRAPS = ["spike-trap", "poison-trap", "paralysis-trap"]
POTIONS = ["red-potion", "blue-potion", "green-potion", "yellow-potion", "purple-potion", "orange-potion"]
EFFECTS = ["healing", "poison", "strength", "weakness", "teleportation", "paralysis"]
WEAPONS = ["dagger", "sword", "battle-axe", "maul"]
ARMOUR = ["boots", "chestplate", "helm", "hasty-boots", "shadow-cape", "shield", "vision-lens"]
SCROLLS = ["scroll-of-antidote", "scroll-of-identify", "scroll-of-passage", "scroll-of-remove-curse", "scroll-of-vitality"]
ARTIFACTS = ["amulet-of-vigor", "ring-of-might", "cursed-idol", "withered-hand"]
CHARACTERS = ["warrior", "rogue", "cleric", "explorer", "mage", "bard"]
OLD_CHARACTERS = CHARACTERS[:4]  # rules 1.0 and 1.1 (docs/rules.md, "Rules versions")
# A card a challenge map defines itself, in the ability vocabulary.
CUSTOM_ENEMY = {"name": "Cave Lurker", "kind": "enemy", "attack": 2, "health": 5, "gold": 2,
                "abilities": ["DOES NOT CHASE", "ROLL A DIE: IF 6: PARALYZE FOR 1 TURNS"]}

FEATURES = ("enemies", "bosses", "traps", "fountains", "potions", "scrolls", "gear", "artifacts", "gold",
            "shops", "chests", "goals", "walls", "ladders", "heroes", "faces", "custom")
MIXES: dict[str, frozenset[str]] = {
    "monsters": frozenset({"enemies", "bosses", "custom", "goals"}),
    "traps": frozenset({"enemies", "traps", "fountains"}),
    "potions": frozenset({"enemies", "potions"}),
    "gear": frozenset({"enemies", "gear", "scrolls", "artifacts", "heroes"}),
    "shops": frozenset({"enemies", "shops", "gold", "goals"}),
    "chests": frozenset({"enemies", "chests", "goals", "gold"}),
    "walls": frozenset({"enemies", "traps", "walls", "faces"}),
    "ladders": frozenset({"enemies", "traps", "potions", "ladders"}),
    "heroes": frozenset({"enemies", "traps", "fountains", "heroes"}),
    "all": frozenset(FEATURES),
}


def _pool(features: frozenset[str]) -> list[str]:
    """The cards a cell other than the fixed ones may hold (``pathing-tile`` weighted to half)."""
    pool = {"enemies": ENEMIES, "bosses": BOSSES, "traps": TRAPS, "fountains": ["fountain-of-healing"],
            "potions": POTIONS, "scrolls": SCROLLS, "gear": WEAPONS + ARMOUR, "artifacts": ARTIFACTS, "gold": ["gold"]}
    cards = [card for name, group in pool.items() if name in features for card in group]
    if "custom" in features:
        cards.append("cave-lurker")
    return ["pathing-tile"] * max(len(cards), 4) + cards


def _edges(cells: set[tuple[int, int]], rng: random.Random, walls: bool) -> set[frozenset]:
    """Open edges between neighbouring cells: all of them, or (``walls``) a random spanning tree of
    the cells plus a third of the other edges, so every cell stays reachable."""
    every = {frozenset({(x, y), (x + dx, y + dy)}) for x, y in cells for dx, dy in ((1, 0), (0, 1))
             if (x + dx, y + dy) in cells}
    if not walls:
        return every
    start = min(cells)
    tree, seen, frontier = set(), {start}, [e for e in every if start in e]
    while frontier:  # a randomised Prim: each step opens a wall to a cell not yet joined
        edge = frontier.pop(rng.randrange(len(frontier)))
        new = [c for c in edge if c not in seen]
        if not new:
            continue
        tree.add(edge)
        seen.add(new[0])
        x, y = new[0]
        frontier.extend(e for e in (frozenset({(x, y), n}) for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)))
                        if e in every and e not in tree)
    return tree | {e for e in sorted(every - tree, key=sorted) if rng.random() < 1 / 3}


def _reached(start, edges: set[frozenset], blocked: set) -> set:
    """The cells a walk from ``start`` reaches through ``edges`` without entering ``blocked``."""
    near: dict = {}
    for a, b in map(tuple, edges):
        near.setdefault(a, []).append(b)
        near.setdefault(b, []).append(a)
    seen, todo = {start}, [start]
    while todo:
        for there in near.get(todo.pop(), ()):
            if there not in seen and there not in blocked:
                seen.add(there)
                todo.append(there)
    return seen


def _paths(at, edges: set[frozenset]) -> str:
    x, y = at
    return "".join(d for d, n in (("N", (x, y - 1)), ("E", (x + 1, y)), ("S", (x, y + 1)), ("W", (x - 1, y)))
                   if frozenset({at, n}) in edges)


def mixed_level(level_id: str, size: int, rng: random.Random, to: str | None, features: frozenset[str]) -> dict:
    """A level of ``size`` x ``size`` (holes and walls with ``walls``) holding the mix's cards;
    every cell it places can be reached from its starting tile."""
    grid = [(x, y) for y in range(size) for x in range(size)]
    places = set(grid)
    if "walls" in features and size >= 3:  # a few cells off the table, the rest still one piece
        for at in rng.sample(grid, size * size // 8):
            rest = places - {at}
            if len(rest) > 2 and len(_reached(min(rest), _edges(rest, rng, False), set())) == len(rest):
                places = rest
    order = sorted(places, key=lambda at: (at[1], at[0]))
    edges = _edges(places, rng, "walls" in features)
    start = rng.choice(order)
    far = [at for at in order if abs(at[0] - start[0]) + abs(at[1] - start[1]) >= size - 1]  # the other half, or so
    way_out = rng.choice(far or [at for at in order if at != start])
    pool = _pool(features)
    cells = {at: {"at": [at[0], at[1]], "card": rng.choice(pool), "paths": _paths(at, edges), "face": "down"}
             for at in order}
    cells[start].update(card="starting-tile", face="up")
    if to is None:
        cells[way_out].update(card="pathing-tile", exit=True)
    else:
        cells[way_out].update(card="descending-ladder", to=to)
    free = [at for at in order if at not in (start, way_out)]
    goals = []
    if "shops" in features and free:
        stock = rng.sample(POTIONS[:3] + WEAPONS[:2] + ARMOUR[:2] + SCROLLS[:2] + ["shopkeepers-debt"], 3)
        at = free.pop(rng.randrange(len(free)))
        cells[at].update(card="shop", stock=stock)
        if "goals" in features and rng.random() < 0.5:
            goals.append({"buy": rng.choice(stock)})
    if "chests" in features and len(free) >= 2:
        chest = free.pop(rng.randrange(len(free)))
        before = [at for at in free if at in _reached(start, edges, {chest})]
        if before:  # the key lies where the hero can walk to without the chest (CR304)
            key = before[rng.randrange(len(before))]
            free.remove(key)
            cells[chest].update(card="chest", contents=rng.sample(POTIONS + WEAPONS + ["gold", "gold"], 2))
            cells[key].update(card="key")
            if "goals" in features and rng.random() < 0.5:
                goals.append({"open": "chest"})
        else:
            free.append(chest)
    if "goals" in features and not goals:
        enemies = sorted({c["card"] for at, c in cells.items() if c["card"] in ENEMIES + BOSSES + ["cave-lurker"]})
        if enemies and rng.random() < 0.5:
            goals.append({"slay": rng.choice(enemies)})
    if "faces" in features:
        for at in free:
            if rng.random() < 0.3:
                cells[at]["face"] = "up"
    level = {"id": level_id, "title": f"Level {level_id}", "story": "Deeper.", "width": size, "height": size}
    if goals:
        level["goals"] = goals
    level["cells"] = [cells[at] for at in order]
    return level


def mixed_campaign(levels: int, size: int, seed: int = 1, mix: str = "all") -> dict:
    """A valid challenge map of ``levels`` levels of ``size`` x ``size`` (3 to 16) with the cards of
    ``mix`` (a name in :data:`MIXES`), deterministic in its arguments."""
    features = MIXES[mix]
    rng = random.Random(f"{mix}/{levels}/{size}/{seed}")
    ids = [f"level-{i + 1}" for i in range(levels)]
    rules, characters = "1.1.2", CHARACTERS
    if "heroes" in features and rng.random() < 0.25:
        rules, characters = rng.choice(["1.0", "1.1"]), OLD_CHARACTERS
    hero: dict = {"character": rng.choice(characters) if "heroes" in features else "warrior"}
    if "heroes" in features and "gear" in features and rng.random() < 0.5:
        hero["items"] = rng.sample(POTIONS[:2] + SCROLLS[:2] + ["gold"], 2)
        hero["equipped"] = [rng.choice(WEAPONS[:3])]
    doc: dict = {"format": 1, "id": f"mix-{mix}", "title": f"Generated: {mix}", "kind": "challenge", "rules": rules,
                 "seed": seed, "hero": hero}
    if "potions" in features and rng.random() < 0.5:  # the author sets some colours, each to its own effect
        colours = rng.sample([p.split("-")[0] for p in POTIONS], rng.randint(1, 6))
        doc["potions"] = dict(zip(colours, rng.sample(EFFECTS, len(colours))))
    cards = {}
    if "custom" in features:
        cards["cave-lurker"] = CUSTOM_ENEMY
    if "shops" in features:
        cards["shopkeepers-debt"] = {"gold": 2}  # a debt a few gold cards can pay off
    if cards:
        doc["cards"] = cards
    doc["levels"] = [mixed_level(lid, size, rng, ids[i + 1] if i + 1 < levels else None, features)
                     for i, lid in enumerate(ids)]
    if "heroes" in features and rng.random() < 0.3:  # a practice start: wounded, or above max health
        practice: dict = {"health": rng.randint(3, 15)}
        if rng.random() < 0.5:
            practice["items"] = rng.sample(POTIONS + ["gold", "gold"], 2)
        doc["levels"][0] = {**doc["levels"][0], "hero": practice}
    return doc


def mixed_campaign_text(levels: int, size: int, seed: int = 1, mix: str = "all") -> str:
    return dumps(mixed_campaign(levels, size, seed, mix))
