"""Hunt for states where the solver's admissible bound overestimates the turns left (docs/solver.md, *The
heuristic (admissible)*).

For small maps (benchmarks/gen.py's ``mixed_campaign`` mixes at 3x3 to 5x5, each played by every character of
the catalog and by the warrior with hasty boots (+1 MOVEMENT), some with paths cut one way, plus hand-made maps
built to provoke a suspicion) it walks randomly from the start (a flip, a fight, a throw or a flee more often
than not), and at each state a walk ends in compares ``relaxation(campaign, d).bound(state, True)`` with the
turns left found by the plain uniform-cost reference search (``reference=True``, states capped; skipped when it
finds none). Every counterexample is printed as one line (map, actions, bound, true turns left) and the run ends
with the counts. Deterministic in its arguments (CPU time aside).

Targeted maps: ``--trees N`` corridor trees with potions at the tips of side branches (and loops now and then),
``--chains N`` two enemies that let two potions of paralysis give four flees in a turn, ``--one-way-foes N`` enemy
cards revealed by flips along paths with none back. ``--witness`` also checks every state of the reference search's
par line from the start (there the turns left are par less the turn); ``--tree-sensitive`` counts the states where
the bound with every tree of a set of potions one tile smaller is lower (docs/solver.md, *A branch point of the
tree*), printing those where the bound is the turns left (``TREE-TIGHT``).

    python benchmarks/bound_hunt.py [--seed N] [--maps N] [--walks N] [--cap STATES] [--one-way P] [--branches N]
        [--trees N] [--chains N] [--one-way-foes N] [--witness] [--tree-sensitive] [--no-hand-made] [--quiet]
    python benchmarks/bound_hunt.py --teleport [--seed N] [--maps N] [--branches N] [--witness] ...
    python benchmarks/bound_hunt.py --first-tele N [--seed N] [--walks N] [--witness] ...
    python benchmarks/bound_hunt.py --drink-slots N [--seed N] [--walks N] [--witness] ...

``--first-tele N``: the same kind of level with no potion in hand and every enemy card face down, N corridors with a
potion near the start and N generated maps (docs/solver.md, *The first potion of teleportation picked up*).

``--drink-slots N``: N corridors of the same kind where few turns are left for the gains of the enemies a potion
leaves: a potion a few tiles before the exit, rats face down beside the row (docs/solver.md, *A potion drunk in a
fight holds no gain*); with ``--teleport`` and ``--first-tele`` it counts the states where that rule lifts the bound.

``--teleport``: only levels whose potions are all of teleportation, for the paced warrior (docs/solver.md, *Potions
of teleportation alone*): the generated `potions` and `ladders` maps with every potion card red and red set to
teleportation, some enemy cards turned face up and sometimes a potion in hand, and corridors beside enemies standing
face up.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

import gen

from cardrogue.engine.analysis.solver import SOLVED, Budget
from cardrogue.engine.analysis.solver.bounds import Relaxation, relaxation
from cardrogue.engine.analysis.solver.result import INF
from cardrogue.engine.analysis.solver.search import Search
from cardrogue.engine.chance.resolvers import FatedResolver
from cardrogue.engine.format.loader import load_campaign_text
from cardrogue.engine.rules.state import CHOOSE_TELEPORT, GameState
from cardrogue.engine.rules.tables import ENEMY, UP

NO_CLOCK = 3600
# The heroes: every character of the catalog, and the warrior with +1 MOVEMENT (hasty boots: not paced, K = 1).
HEROES = [(c, ()) for c in gen.CHARACTERS] + [("warrior", ("hasty-boots",)), ("warrior", ("shadow-cape",))]
SIZES = (3, 4, 5)
BOLD = ("throw", "flee", "flip", "attack", "spell", "drink")


def _cell(x: int, y: int, card: str, paths: str, face: str = "up", **extra) -> dict:
    return {"at": [x, y], "card": card, "paths": paths, "face": face, **extra}


def _doc(cells: list[dict], width: int, height: int, character: str = "warrior", equipped=(), items=(),
         cards=None, potions=None, rules: str = "1.1.2") -> dict:
    doc = {"format": 1, "id": "hunt", "title": "Hunt", "kind": "challenge", "rules": rules, "seed": 7,
           "hero": {"character": character, "items": list(items), "equipped": list(equipped)},
           "levels": [{"id": "one", "title": "One", "width": width, "height": height, "cells": cells}]}
    if cards:
        doc["cards"] = cards
    if potions:
        doc["potions"] = potions
    return doc


def hand_made() -> list[tuple[str, dict]]:
    """Maps built to provoke each suspicion: a fight after moving beside an enemy standing face up that flips the
    tile the next turn enters (for heroes not paced), and a flip along a path with none back (a one-way flip)
    that reveals a tile the walk enters later, from another side."""
    out = []
    rat = {"sewer-rat": {"health": 1}}
    # A fight after moving: two face-up tiles to one beside a rat, the tile after it face down, then more.
    fight = [_cell(0, 0, "starting-tile", "E"), _cell(1, 0, "pathing-tile", "EW"), _cell(2, 0, "pathing-tile", "ESW"),
             _cell(3, 0, "pathing-tile", "EW", face="down"), _cell(4, 0, "pathing-tile", "EW", face="down"),
             _cell(5, 0, "pathing-tile", "ESW"), _cell(5, 1, "sewer-rat", "N"),
             _cell(6, 0, "pathing-tile", "W", face="down", exit=True), _cell(2, 1, "sewer-rat", "N")]
    # A one-way flip: the start's path south reaches a tile with no path back; it is entered from the east.
    one_way = [_cell(0, 0, "starting-tile", "ES"), _cell(1, 0, "pathing-tile", "SW", face="down"),
               _cell(1, 1, "pathing-tile", "NW"), _cell(0, 1, "pathing-tile", "E", face="down", exit=True)]
    # The same, longer: the one-way tile is followed by more face-down tiles.
    one_way_long = [_cell(0, 0, "starting-tile", "ES"), _cell(1, 0, "pathing-tile", "SW", face="down"),
                    _cell(1, 1, "pathing-tile", "NW"), _cell(0, 1, "pathing-tile", "ES", face="down"),
                    _cell(0, 2, "pathing-tile", "NE", face="down"), _cell(1, 2, "pathing-tile", "W", face="down", exit=True)]
    # A fight after moving whose flip goes one way: the rat's neighbour reveals a tile entered from elsewhere.
    fight_one_way = [_cell(0, 0, "starting-tile", "E"), _cell(1, 0, "pathing-tile", "EW"), _cell(2, 0, "pathing-tile", "ESW"),
                     _cell(2, 1, "sewer-rat", "N"), _cell(3, 0, "pathing-tile", "SW", face="down"),
                     _cell(3, 1, "pathing-tile", "NE", face="down"), _cell(4, 1, "pathing-tile", "W", face="down", exit=True)]
    # A one-way flip that reveals an enemy (no fight: not an ADJACENT TILE), slain later from another side.
    one_way_foe = [_cell(0, 0, "starting-tile", "ES"), _cell(1, 0, "pathing-tile", "SW", face="down"),
                   _cell(1, 1, "pathing-tile", "NW"), _cell(0, 1, "sewer-rat", "ES", face="down"),
                   _cell(0, 2, "pathing-tile", "N", face="down", exit=True)]
    for character, equipped in HEROES:
        tag = character + ("+" + equipped[0] if equipped else "")
        out.append((f"fight/{tag}", _doc(fight, 7, 2, character, equipped, cards=rat)))
        out.append((f"one-way/{tag}", _doc(one_way, 2, 2, character, equipped)))
        out.append((f"one-way-long/{tag}", _doc(one_way_long, 2, 3, character, equipped)))
        out.append((f"fight-one-way/{tag}", _doc(fight_one_way, 5, 2, character, equipped, cards=rat)))
        out.append((f"one-way-foe/{tag}", _doc(one_way_foe, 2, 3, character, equipped, cards=rat)))
    out.append(("one-way/warrior-1.0", _doc(one_way, 2, 2, "warrior", rules="1.0")))
    return out


def _row(length: int, side, tile) -> list[dict]:
    """A corridor along row 1 from the start (x 0) east to the exit (x ``length``): at each x, ``side(x)`` for the
    cell above (row 0) and then below (row 2), a (card, face) joined to the row or None, then for x > 0 ``tile(x)``,
    the row's own (card, face); called in that order (the seeded runs repeat)."""
    cells = []
    for x in range(length + 1):
        paths = ("E" if x < length else "") + ("W" if x > 0 else "")
        for y, back in ((0, "S"), (2, "N")):
            got = side(x)
            if got is not None:
                cells.append(_cell(x, y, got[0], back, face=got[1]))
                paths += "N" if y == 0 else "S"
        paths = "".join(ch for ch in "NESW" if ch in paths)
        if x == 0:
            cells.append(_cell(x, 1, "starting-tile", paths))
        else:
            card, face = tile(x)
            cells.append(_cell(x, 1, card, paths, face=face, **({"exit": True} if x == length else {})))
    return cells


def branches(rng: random.Random, count: int) -> list[tuple[str, dict]]:
    """``count`` corridors built to provoke the count of a set of potions picked up (docs/solver.md, *Picking
    potions up*): a row from the start to the exit, most of it face down, with cells above and below it holding a
    potion (paralysis or teleportation, often face down: one stand's flips may reveal a potion and the row's next
    tile, two tiles of the cheapest tree), a goblin or a plain tile; the paced warrior mostly."""
    out = []
    heroes = [("warrior", ())] * 4 + [("warrior", ("hasty-boots",)), ("rogue", ()), ("explorer", ())]
    for n in range(count):
        length = rng.randint(3, 6)

        def side(x: int) -> tuple[str, str] | None:
            if rng.random() >= 0.55:
                return None
            card = rng.choice(["red-potion", "red-potion", "blue-potion", "goblin", "pathing-tile"])
            return card, "down" if rng.random() < 0.6 else "up"

        cells = _row(length, side, lambda x: ("pathing-tile", "down" if rng.random() < 0.75 else "up"))
        character, equipped = heroes[n % len(heroes)]
        potions = {"red": "paralysis", "blue": "teleportation"}
        items = ["red-potion"] * rng.randint(0, 1)
        doc = _doc(cells, length + 1, 3, character, equipped, items=items, potions=potions,
                   cards={"goblin": {"health": 40}} if rng.random() < 0.5 else None)
        out.append((f"branches/{n}/{character}{'+' + equipped[0] if equipped else ''}", doc))
    return out


def teleport_corridors(rng: random.Random, count: int) -> list[tuple[str, dict]]:
    """``count`` corridors for the paced warrior whose only potions are of teleportation: a row from the start to the
    exit, its tiles face up or down, with cells above and below it holding an enemy (often a rat of 1 health, often
    face up: met before), a potion of teleportation, gold lying face up (no landing tile) or a plain tile; potions in
    hand sometimes."""
    out = []
    for n in range(count):
        length = rng.randint(3, 7)

        def side(x: int) -> tuple[str, str] | None:
            if not x or rng.random() >= 0.6:
                return None
            card = rng.choice(["sewer-rat", "sewer-rat", "goblin", "blue-potion", "pathing-tile"])
            return card, "up" if card in ("sewer-rat", "goblin") and rng.random() < 0.6 else rng.choice(["up", "down"])

        def tile(x: int) -> tuple[str, str]:
            roll = rng.random()
            return ("gold" if roll < 0.2 and x < length else "pathing-tile",
                    "down" if roll > 0.45 or x == length else "up")

        cells = _row(length, side, tile)
        doc = _doc(cells, length + 1, 3, "warrior", items=["blue-potion"] * rng.choice([0, 1, 1, 2]),
                   potions={"blue": "teleportation"},
                   cards={"sewer-rat": {"health": 1}, "goblin": {"health": rng.choice([1, 40])}})
        out.append((f"tele-corridor/{n}/warrior", doc))
    return out


def teleport_generated(rng: random.Random, count: int) -> list[tuple[str, dict]]:
    """``count`` generated `potions` or `ladders` maps (3x3 to 5x5) for the warrior, every potion card a red one
    and red set to teleportation, each enemy card turned face up with chance 0.3, a potion of teleportation in hand half the
    time."""
    out = []
    for n in range(count):
        mix, size, seed = rng.choice(["potions", "ladders"]), rng.choice(SIZES), rng.randrange(10_000)
        doc = gen.mixed_campaign(1, size, seed, mix)
        doc["potions"] = {"red": "teleportation"}  # (one colour per effect: every potion card becomes red)
        doc["hero"] = {"character": "warrior", "items": ["red-potion"] if rng.random() < 0.5 else []}
        doc["rules"] = "1.1.2"
        for level in doc["levels"]:
            for c in level["cells"]:
                if c.get("card") in gen.POTIONS:
                    c["card"] = "red-potion"
                if c.get("card") in gen.ENEMIES and rng.random() < 0.3:
                    c["face"] = "up"
        out.append((f"{mix}/{size}/{seed}/warrior/teleport", doc))
    return out


def teleport_first(rng: random.Random, count: int) -> list[tuple[str, dict]]:
    """``count`` corridors and ``count`` generated maps for the paced warrior whose only potions are of
    teleportation, none in hand and every enemy card face down, so that no enemy is met before the first potion is
    picked up (docs/solver.md, *The first potion of teleportation picked up*): corridors with a potion on the row or
    beside it near the start (face up or down), rats of 1 health and goblins face down beside the row (a fight at
    the turn's first tile, its flips, then the potion drunk or thrown), gold lying face up now and then; and the
    generated `potions` and `ladders` maps of ``teleport_generated`` with no potion in hand and no enemy turned up."""
    out = []
    for n in range(count):
        length = rng.randint(3, 7)
        near = rng.randint(1, min(3, length - 1))  # the potion nearest the start: on the row or beside it

        def side(x: int) -> tuple[str, str] | None:
            if not x or rng.random() >= 0.7:
                return None
            card = rng.choice(["sewer-rat", "sewer-rat", "sewer-rat", "goblin", "blue-potion", "pathing-tile"])
            return card, "down" if card in ("sewer-rat", "goblin") or rng.random() < 0.5 else "up"

        def tile(x: int) -> tuple[str, str]:
            roll = rng.random()
            card = "blue-potion" if x == near and roll < 0.5 else "gold" if roll < 0.15 and x < length else "pathing-tile"
            return card, "down" if roll > 0.3 or x == length else "up"

        cells = _row(length, side, tile)
        doc = _doc(cells, length + 1, 3, "warrior", potions={"blue": "teleportation"},
                   cards={"sewer-rat": {"health": 1}, "goblin": {"health": rng.choice([1, 1, 40])}})
        out.append((f"tele-first/{n}/warrior", doc))
    for name, doc in teleport_generated(rng, count):
        doc["hero"]["items"] = []
        for level in doc["levels"]:
            for c in level["cells"]:
                if c.get("card") in gen.ENEMIES:
                    c["face"] = "down"
        out.append((name + "/first", doc))
    return out


def _grid_paths(open_cells: dict, links: set) -> None:
    """Give each cell of ``open_cells`` ((x, y) -> cell) the paths of ``links`` (pairs of cells, both ways)."""
    for (x, y), c in open_cells.items():
        c["paths"] = "".join(ch for ch, (dx, dy) in zip("NESW", ((0, -1), (1, 0), (0, 1), (-1, 0)))
                             if frozenset({(x, y), (x + dx, y + dy)}) in links)


def trees(rng: random.Random, count: int) -> list[tuple[str, dict]]:
    """``count`` corridor trees built to provoke the count of a set of potions picked up at a branch point
    (docs/solver.md, *Picking potions up*: the tree of the costliest potion, the way out and the tiles face up
    now; one stand's flips may reveal the first tile of two of its branches): a row from the start to the exit,
    side branches of one or two tiles up and down from its tiles with a potion at their tip (paralysis or
    teleportation, mostly face down, two branches from one tile now and then), and enemies beside the row
    (a goblin to flee from with a potion of paralysis, or a rat slain in one blow, often face up: met before),
    the paced warrior mostly, sometimes with a potion of paralysis in hand."""
    out = []
    heroes = [("warrior", ())] * 5 + [("warrior", ("hasty-boots",)), ("rogue", ()), ("explorer", ())]
    steps = {"N": (0, -1), "S": (0, 1)}
    for n in range(count):
        length = rng.randint(2, 5)
        cells, links = {}, set()
        for x in range(length + 1):
            card = "starting-tile" if x == 0 else "pathing-tile"
            face = "up" if x == 0 or rng.random() < 0.2 else "down"
            cells[(x, 2)] = _cell(x, 2, card, "", face=face, **({"exit": True} if x == length else {}))
            if x:
                links.add(frozenset({(x - 1, 2), (x, 2)}))
        # Side branches: up to three, from tiles of the row (the start and the exit included).
        for _ in range(rng.randint(1, 3)):
            x = rng.randrange(0, length + 1)
            side = rng.choice("NS")
            dx, dy = steps[side]
            depth = rng.choice((1, 1, 2))
            at, ok = (x, 2), True
            for k in range(1, depth + 1):
                nxt = (x, 2 + dy * k)
                if nxt in cells:
                    ok = False
                    break
                tip = k == depth
                card = rng.choice(["red-potion", "red-potion", "blue-potion"]) if tip else "pathing-tile"
                face = "down" if rng.random() < 0.8 else "up"
                cells[nxt] = _cell(nxt[0], nxt[1], card, "", face=face)
                links.add(frozenset({at, nxt}))
                at = nxt
            if not ok:
                continue
        # A loop now and then: a second row of tiles below (or above) part of the row, joined to it at both ends
        # (a walk may leave a branch another way).
        if rng.random() < 0.4 and length >= 2:
            y = rng.choice((1, 3))
            a = rng.randrange(0, length - 1)
            b = rng.randrange(a + 1, length + 1)
            if all((x, y) not in cells for x in range(a, b + 1)):
                for x in range(a, b + 1):
                    cells[(x, y)] = _cell(x, y, "pathing-tile", "", face="down" if rng.random() < 0.7 else "up")
                    if x > a:
                        links.add(frozenset({(x - 1, y), (x, y)}))
                links.add(frozenset({(a, y), (a, 2)}))
                links.add(frozenset({(b, y), (b, 2)}))
        # Enemies beside the row, on a free cell above or below a row tile, linked to it.
        for _ in range(rng.randint(0, 2)):
            x = rng.randrange(1, length + 1)
            y = rng.choice((1, 3))
            if (x, y) in cells:
                continue
            card = rng.choice(["goblin", "goblin", "sewer-rat"])
            cells[(x, y)] = _cell(x, y, card, "", face="up" if rng.random() < 0.6 else "down")
            links.add(frozenset({(x, y), (x, 2)}))
        _grid_paths(cells, links)
        character, equipped = heroes[n % len(heroes)]
        items = ["red-potion"] * rng.choice((0, 0, 1, 2))
        doc = _doc(list(cells.values()), length + 1, 5, character, equipped, items=items,
                   potions={"red": "paralysis", "blue": "teleportation"},
                   cards={"goblin": {"health": 40}, "sewer-rat": {"health": 1}})
        out.append((f"trees/{n}/{character}{'+' + equipped[0] if equipped else ''}", doc))
    return out


def chains(rng: random.Random, count: int) -> list[tuple[str, dict]]:
    """``count`` maps where two enemies let potions of paralysis give four flees in one turn (``E`` 1 -> 4 for the
    second potion: the case docs/solver.md, *A branch point of the tree*, leaves open): enemies at (1,1) and (3,2),
    the chain of tiles (1,2) (2,2) (2,1) (3,1) beside them in turn, the start below (1,2) with a potion of
    paralysis on a side branch of it (west, one or two tiles), 0 to 2 potions in hand, the exit one to three tiles
    past (4,1); faces, enemies (a goblin to flee from, a rat slain in one blow) and the hero drawn."""
    out = []
    heroes = [("warrior", ())] * 3 + [("warrior", ("hasty-boots",))]
    for n in range(count):
        cells, links = {}, set()

        def put(x, y, card, face):
            cells[(x, y)] = _cell(x, y, card, "", face=face)

        down = lambda p=0.75: "down" if rng.random() < p else "up"  # noqa: E731
        put(1, 3, "starting-tile", "up")
        for x, y in ((1, 2), (2, 2), (2, 1), (3, 1)):
            put(x, y, "pathing-tile", down())
        for x, y in ((1, 1), (3, 2)):
            put(x, y, rng.choice(["goblin", "goblin", "sewer-rat"]), "up" if rng.random() < 0.7 else "down")
        for pair in (((1, 3), (1, 2)), ((1, 2), (1, 1)), ((1, 2), (2, 2)), ((2, 2), (3, 2)), ((2, 2), (2, 1)),
                     ((2, 1), (1, 1)), ((2, 1), (3, 1)), ((3, 1), (3, 2))):
            links.add(frozenset(pair))
        # The side branch with the potion: west of the start, one or two tiles.
        if rng.random() < 0.5:
            put(0, 3, "red-potion", down(0.85))
            links.add(frozenset({(0, 3), (1, 3)}))
        else:
            put(1, 4, "pathing-tile", down())
            put(0, 4, "red-potion", down(0.85))
            links |= {frozenset({(1, 3), (1, 4)}), frozenset({(1, 4), (0, 4)})}
        tail = rng.randint(1, 3)
        for k in range(tail):
            put(4 + k, 1, "pathing-tile", down())
            links.add(frozenset({(3 + k, 1), (4 + k, 1)}))
        cells[(3 + tail, 1)]["exit"] = True
        _grid_paths(cells, links)
        character, equipped = heroes[n % len(heroes)]
        doc = _doc(list(cells.values()), 4 + tail, 5, character, equipped, items=["red-potion"] * rng.choice((0, 1, 1, 2)),
                   potions={"red": "paralysis"}, cards={"goblin": {"health": 40}, "sewer-rat": {"health": 1}})
        out.append((f"chains/{n}/{character}{'+' + equipped[0] if equipped else ''}", doc))
    return out


def one_way_foes(rng: random.Random, count: int) -> list[tuple[str, dict]]:
    """``count`` maps built to provoke a flip along a path with none back that reveals an ENEMY card (docs/solver.md,
    *One-way flips*: such a card stands revealed without a fight; the count reads it face down until it is slain):
    generated 3x3 to 5x5 maps of the mixes with enemies, each enemy card's paths cut one way toward some of its
    neighbours with a path to it (so a flip there reveals it from a tile it has no path back to), every hero; and
    small rows where the start reveals a rat one way, the route passes the rat's cell (slain from another side) and
    the exit lies just past it or beside it."""
    out = []
    mixes = [m for m in sorted(gen.MIXES) if "enemies" in gen.MIXES[m]]
    for n in range(count):
        character, equipped = HEROES[n % len(HEROES)]
        if n % 3 == 2:
            # A hand-made row: start (0,0) with paths E and S; the rat at (0,1) has no path N (one way from the
            # start), the row east (1,0) .. (1,1) leads beside it; past the rat, the exit or a longer way.
            tail = rng.randint(0, 2)
            rat_face = rng.choice(("down", "down", "up"))
            cells = {(0, 0): _cell(0, 0, "starting-tile", ""), (1, 0): _cell(1, 0, "pathing-tile", "", face="down"),
                     (1, 1): _cell(1, 1, "pathing-tile", "", face=rng.choice(("down", "up"))),
                     (0, 1): _cell(0, 1, "sewer-rat", "", face=rat_face)}
            links = {frozenset({(0, 0), (1, 0)}), frozenset({(1, 0), (1, 1)}), frozenset({(1, 1), (0, 1)})}
            at = (0, 1)
            for k in range(tail + 1):
                nxt = (0, 2 + k)
                cells[nxt] = _cell(0, 2 + k, "pathing-tile", "", face=rng.choice(("down", "up")),
                                   **({"exit": True} if k == tail else {}))
                links.add(frozenset({at, nxt}))
                at = nxt
            _grid_paths(cells, links)
            cells[(0, 0)]["paths"] += "S" if "S" not in cells[(0, 0)]["paths"] else ""
            cells[(0, 0)]["paths"] = "".join(ch for ch in "NESW" if ch in cells[(0, 0)]["paths"])
            doc = _doc(list(cells.values()), 2, 3 + tail, character, equipped, cards={"sewer-rat": {"health": 1}})
            out.append((f"one-way-foes/row{tail}/{n}/{character}{'+' + equipped[0] if equipped else ''}", doc))
            continue
        mix, size, seed = rng.choice(mixes), rng.choice(SIZES), rng.randrange(10_000)
        doc = gen.mixed_campaign(1, size, seed, mix)
        if doc["rules"] == "1.1.2" or character in gen.OLD_CHARACTERS:
            doc["hero"] = {**doc["hero"], "character": character}
            if equipped:
                doc["hero"]["equipped"] = list(equipped)
        doc = _cut_foes_one_way(doc, rng)
        out.append((f"one-way-foes/{mix}/{size}/{seed}/{doc['hero']['character']}{'+' + equipped[0] if equipped else ''}", doc))
    return out


def _cut_foes_one_way(doc: dict, rng: random.Random) -> dict:
    """The map with each enemy card's path toward a neighbour that has a path to it dropped, one in two (a flip from
    that neighbour then reveals the enemy without a fight); at least one path of the card is kept."""
    back = {"N": "S", "E": "W", "S": "N", "W": "E"}
    step = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
    for level in doc["levels"]:
        at = {tuple(c["at"]): c for c in level["cells"]}
        for c in level["cells"]:
            if not _is_enemy(c["card"], doc):
                continue
            x, y = c["at"]
            drop = [ch for ch in c["paths"] if back[ch] in at.get((x + step[ch][0], y + step[ch][1]), {}).get("paths", "")
                    and rng.random() < 0.5]
            kept = "".join(ch for ch in c["paths"] if ch not in drop)
            if kept:
                c["paths"] = kept
    return doc


def _is_enemy(card: str, doc: dict) -> bool:
    """An enemy or boss card of benchmarks/gen.py's pool (or a custom card the map defines as one)."""
    custom = (doc.get("cards") or {}).get(card) or {}
    return card in gen.ENEMIES + gen.BOSSES + ["cave-lurker"] or custom.get("kind") in ("enemy", "boss")


def _cut_one_way(doc: dict, rng: random.Random, p: float) -> dict:
    """The map with each path letter dropped with probability ``p`` where the neighbour keeps its own (a path
    with none back: the tile there may be flipped from this one but not entered from it)."""
    for level in doc["levels"]:
        for c in level["cells"]:
            if c.get("card") == "starting-tile" or c.get("exit"):
                continue
            kept = "".join(ch for ch in c["paths"] if rng.random() >= p)
            if kept:
                c["paths"] = kept
    return doc


def generated(rng: random.Random, count: int, one_way: float) -> list[tuple[str, dict]]:
    """``count`` generated maps: a mix, a size and a seed drawn from ``rng``, the hero replaced by one of
    :data:`HEROES` (in turn), a third of them with paths cut one way."""
    out = []
    mixes = sorted(gen.MIXES)
    for n in range(count):
        mix, size, seed = rng.choice(mixes), rng.choice(SIZES), rng.randrange(10_000)
        character, equipped = HEROES[n % len(HEROES)]
        doc = gen.mixed_campaign(1, size, seed, mix)
        if doc["rules"] == "1.1.2" or character in gen.OLD_CHARACTERS:
            doc["hero"] = {**doc["hero"], "character": character}
            if equipped:
                doc["hero"]["equipped"] = list(equipped)
        cut = n % 3 == 2 and one_way > 0
        if cut:
            doc = _cut_one_way(doc, rng, one_way)
        name = f"{mix}/{size}/{seed}/{doc['hero']['character']}{'+' + equipped[0] if equipped else ''}{'/cut' if cut else ''}"
        out.append((name, doc))
    return out


def _start(c):
    resolver = FatedResolver(c)
    s = GameState.new(c, log=False)
    s.resolve(resolver)
    return s, resolver


def _walk(c, rng: random.Random) -> tuple[GameState, list[str]]:
    """A state random play reaches in 0 to 13 actions; a bold action (flip, fight, throw, flee, ...) two
    times in three when one is legal."""
    s, resolver = _start(c)
    line = []
    for _ in range(rng.randrange(0, 14)):
        legal = s.legal_actions()
        if not legal or s.is_terminal():
            break
        bold = [a for a in legal if a.verb in BOLD]
        action = rng.choice(bold if bold and rng.random() < 2 / 3 else legal)
        line.append(str(action))
        s.step(action, resolver)
    return s, line


def _remaining(c, s: GameState, cap: int) -> int | None:
    """The fewest turns after ``s.turn`` to win from ``s`` by the uniform-cost reference search (None: no win
    found within ``cap`` states)."""
    search = Search(c, 0, True, Budget(max_states=cap, max_seconds=NO_CLOCK), reference=True)
    search.root = s.clone()
    verdict, _, turns, _, _ = search.run()
    return turns - s.turn if verdict == SOLVED else None


_TELE_ALLOWANCE = Relaxation._tele_allowance  # (the rules' own, whatever is patched onto the class later)


class _NoFirstTele(Relaxation):
    """The bound without the rules of session ``tele13`` (docs/solver.md, *The first potion of teleportation picked
    up*, *A potion drunk*, *... nor while the only enemies face up are those he fights where the turn began*): as
    before them (``--first-tele`` counts the states where they lift the bound)."""

    def _first_tele_gain(self, li, mask, i, left, r0, hint=None):
        return -1  # c = min(c, 1): the old ``c``, and never "no potion reachable"

    def _fought_here(self, s, met):
        return False  # every enemy face up lets the first potion gain

    def _tele_allowance(self, s, li, potions, k0, mask, i, r0, hint=None):
        most, c = _TELE_ALLOWANCE(self, s, li, potions, k0, mask, i, r0, hint)[:2]  # (and no drink holding its turn's slot)
        if s.phase == CHOOSE_TELEPORT and s.subject < 0:  # drunk: c was 1 with a move left, and it counted
            c = 1 if k0 else 0
            if not self._fighting(s, li):
                alive, met = self._met_now(s, li)
                most = min(alive, most - len(s.visitors) + self._tele_crowd[li]) + len(s.visitors)
        return most, c


_BEFORE_FIRST_TELE: list = []  # ``--first-tele``: per map, (dungeon, the bound without the rule)


class _NoDrinkSlots(Relaxation):
    """The bound without *A potion drunk in a fight holds no gain* (docs/solver.md): every potion of teleportation
    still to be used counted as leaving ``tele_crowd`` enemies met so, and every turn from ``c`` on as one that may
    gain (the allowance ``(A, c)`` alone). ``--teleport`` and ``--first-tele`` count the states where the rule lifts
    the bound."""

    def _tele_allowance(self, s, li, potions, k0, mask, i, r0, hint=None):
        allow = _TELE_ALLOWANCE(self, s, li, potions, k0, mask, i, r0, hint)
        return allow[:2]  # (``A`` is every potion drunk in a fight, the old count; and every set of pickups reads it)


class _NoPickups(Relaxation):
    """The bound without *A gain needs its potion picked up* (docs/solver.md): one allowance for every set of the
    level's potions a walk may pick up, counting them all."""

    def _tele_allowance(self, s, li, potions, k0, mask, i, r0, hint=None):
        return _TELE_ALLOWANCE(self, s, li, potions, k0, mask, i, r0, hint)[:3]


_COUNT_SLOTS: list = []
_NO_SLOTS: list = []  # ``--teleport``, ``--first-tele``, ``--drink-slots``: per map, (dungeon, the bounds without)


def _no_drink_slots(c, d) -> tuple[Relaxation, Relaxation]:
    if not _NO_SLOTS or _NO_SLOTS[-1][0] is not d:
        _NO_SLOTS[:] = [(d, _NoDrinkSlots(c, d), _NoPickups(c, d))]
    return _NO_SLOTS[-1][1], _NO_SLOTS[-1][2]


def _before_first_tele(c, d) -> Relaxation:
    if _BEFORE_FIRST_TELE[-1] is None or _BEFORE_FIRST_TELE[-1][0] is not d:
        _BEFORE_FIRST_TELE[:] = [(d, _NoFirstTele(c, d))]
    return _BEFORE_FIRST_TELE[-1][1]


class _NoTwoGains(Relaxation):
    """The bound without *Two gains from one drink* (docs/solver.md): ``--two-gains`` counts the states it lifts."""

    def _lone_drink(self, s, li, potions, allow):
        return False


_TWO_GAINS: list = []  # ``--two-gains``: per map, (dungeon, the bound without the rule)


class _NoUses(Relaxation):
    """The bound without *What a potion of teleportation is used for* (docs/solver.md): the teleportation modes count
    the states it lifts."""

    @staticmethod
    def _uses(steps, count, met, crowd, alive, visitors, drinking):
        return steps


_USES: list = []  # the teleportation modes: per map, (dungeon, the bound without the rule)


def _no_uses(c, d) -> Relaxation:
    if not _USES or _USES[-1][0] is not d:
        _USES[:] = [(d, _NoUses(c, d))]
    return _USES[-1][1]


def _no_two_gains(c, d) -> Relaxation:
    if _TWO_GAINS[-1] is None or _TWO_GAINS[-1][0] is not d:
        _TWO_GAINS[:] = [(d, _NoTwoGains(c, d))]
    return _TWO_GAINS[-1][1]


class _TreeLess(Relaxation):
    """The bound with every tree of a set of potions picked up (and of a walk beside an enemy met) one face-down
    tile smaller (``_trees``): what the count would be if each tree's branch point saved a stand. A state where
    it is below the bound is one where that count decides the bound (``tree-sensitive``)."""

    def _trees(self, level, down, targets, hint=None):
        rows = super()._trees(level, down, targets, hint)
        return tuple(tuple(v - 1 if 0 < v < INF else v for v in row) for row in rows)


def teleport_slots(rng: random.Random, count: int) -> list[tuple[str, dict]]:
    """``count`` corridors for the paced warrior whose only potions are of teleportation, where few turns are left for
    the gains of the enemies a potion leaves (docs/solver.md, *A potion drunk in a fight holds no gain*): a row of 4 to
    8 tiles, mostly face down, one or two potions of teleportation on the row or beside it (or one in hand), one
    two to four tiles before the exit, sometimes a second anywhere, or one more face down above the start (a dead end:
    picking it up costs a detour, *A gain needs its potion picked up*); rats of 1 health and goblins above and below many
    tiles, face down mostly (two beside one tile: a potion drunk in a fight there may leave both), gold lying face up
    now and then."""
    out = []
    for n in range(count):
        length = rng.randint(4, 8)
        pots = {max(1, length - rng.choice([2, 3, 3, 3, 4]))}
        if rng.random() < 0.2:
            pots.add(rng.randrange(1, length))
        beside = set(x for x in pots if rng.random() < 0.3)  # those lie above the row, the rest on it
        dead_end = [True] if rng.random() < 0.3 else []  # one more above the start

        def side(x: int) -> tuple[str, str] | None:
            if x in beside:
                beside.discard(x)
                return "blue-potion", rng.choice(["up", "down"])
            if not x and dead_end:
                dead_end.clear()
                return "blue-potion", "down"  # a dead end off the start: picking it up costs a detour
            if not x or rng.random() >= 0.75:
                return None
            card = rng.choice(["sewer-rat", "sewer-rat", "sewer-rat", "goblin", "pathing-tile"])
            return card, "down" if rng.random() < 0.95 else "up"

        def tile(x: int) -> tuple[str, str]:
            roll = rng.random()
            card = ("blue-potion" if x in pots and x not in beside else "gold" if roll < 0.1 and x < length
                    else "pathing-tile")
            return card, "down" if roll > 0.1 or x == length else "up"

        on_row = set(pots) - beside  # (taken before the row is laid: ``side`` empties ``beside``)
        cells = _row(length, side, tile)
        doc = _doc(cells, length + 1, 3, "warrior", items=["blue-potion"] if rng.random() < 0.1 else [],
                   potions={"blue": "teleportation"},
                   cards={"sewer-rat": {"health": 1}, "goblin": {"health": rng.choice([1, 1, 40])}})
        out.append((f"tele-slots/{n}/{length}/{sorted(on_row)}/warrior", doc))
    return out


def teleport_two_gains(rng: random.Random, count: int) -> list[tuple[str, dict]]:
    """``count`` small open grids (3 to 5 tiles a side, some walls) for the paced warrior with one potion of
    teleportation (in hand, or on a cell), where one drink in a fight may leave two or three enemies and the walk may
    gain by two of them (docs/solver.md, *Two gains from one drink*): two or three rats of 1 health or goblins
    around one tile, a few more enemies elsewhere, most cards face down; the exit at the far corner or on an edge."""
    out = []
    for n in range(count):
        w, h = rng.choice([(3, 3), (3, 4), (4, 3), (4, 4), (5, 3), (3, 5), (5, 4), (4, 5)])
        start = (0, 0)
        exit_at = rng.choice([(w - 1, h - 1), (w - 1, rng.randrange(h)), (rng.randrange(w), h - 1)])
        if exit_at == start:
            exit_at = (w - 1, h - 1)
        walls = set()
        for x in range(w):
            for y in range(h):
                for dx, dy in ((1, 0), (0, 1)):
                    if x + dx < w and y + dy < h and rng.random() < 0.12:
                        walls.add(((x, y), (x + dx, y + dy)))
        cards: dict = {}
        hub = (rng.randrange(w), rng.randrange(h))
        around = [(hub[0] + dx, hub[1] + dy) for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1))]
        around = [c for c in around if 0 <= c[0] < w and 0 <= c[1] < h and c not in (start, exit_at)]
        rng.shuffle(around)
        foes = around[:rng.choice([2, 2, 3])]
        free = [(x, y) for x in range(w) for y in range(h) if (x, y) not in (start, exit_at, hub) and (x, y) not in foes]
        foes += rng.sample(free, min(len(free), rng.choice([0, 1, 2])))
        for c in foes:
            cards[c] = rng.choice(["sewer-rat", "sewer-rat", "goblin"])
        free = [c for c in free if c not in cards]
        held = rng.random() < 0.3
        if not held and free:
            cards[rng.choice(free)] = "blue-potion"
        cells = []
        for y in range(h):
            for x in range(w):
                paths = ""
                for ch, (dx, dy) in (("N", (0, -1)), ("E", (1, 0)), ("S", (0, 1)), ("W", (-1, 0))):
                    nx, ny = x + dx, y + dy
                    if 0 <= nx < w and 0 <= ny < h and ((x, y), (nx, ny)) not in walls and ((nx, ny), (x, y)) not in walls:
                        paths += ch
                if (x, y) == start:
                    cells.append(_cell(x, y, "starting-tile", paths))
                    continue
                card = cards.get((x, y), "pathing-tile")
                face = "down" if rng.random() < (0.9 if card != "pathing-tile" else 0.75) or (x, y) == exit_at else "up"
                cells.append(_cell(x, y, card, paths, face=face, **({"exit": True} if (x, y) == exit_at else {})))
        doc = _doc(cells, w, h, "warrior", items=["blue-potion"] if held else [], potions={"blue": "teleportation"},
                   cards={"sewer-rat": {"health": 1}, "goblin": {"health": rng.choice([1, 1, 40])}})
        out.append((f"two-gains/{n}/{w}x{h}/hub{hub}/warrior", doc))
    return out


def teleport_uses(rng: random.Random, count: int) -> list[tuple[str, dict]]:
    """``count`` grids of :func:`teleport_two_gains` with one to three potions of teleportation more in hand (two to
    four in all): drinks and throws in fights at a turn's first tile and after moving, where the count of *What a
    potion of teleportation is used for* (docs/solver.md) is on."""
    out = []
    for name, doc in teleport_two_gains(rng, count):
        doc["hero"]["items"] = doc["hero"]["items"] + ["blue-potion"] * rng.randint(1, 3)
        out.append((name.replace("two-gains/", "uses/", 1), doc))
    return out


def _loose_foes(d) -> frozenset:
    """The enemy cards a flip can reveal from a tile they have no path back to (no fight: docs/rules.md, Board)."""
    return frozenset(j for i, row in enumerate(d.flip_to) for dr, j in enumerate(row)
                     if j >= 0 and d.kind[j] == ENEMY and d.adjacent[i][dr] != j)


def _compare(c, s: GameState, left: int, name: str, line: list[str], counts: Counter, found: list, lower) -> None:
    """Compare the bound at ``s`` with the ``left`` turns the reference search still needs (and the tree-less
    bound ``lower``, when given, with the bound)."""
    counts["states"] += 1
    loose = _loose_foes(s.d)
    if loose and any(s.faces[j] == UP for j in loose):
        counts["states with an enemy a one-way flip reveals face up"] += 1
    bound = relaxation(c, s.d).bound(s, True)
    def tighter(name: str, without: float) -> None:  # the rule lifted the bound (to exactly the turns left?)
        if without < bound:
            counts[f"{name} tighter"] += 1
            if bound == left:
                counts[f"{name} tighter, now exact"] += 1

    if _BEFORE_FIRST_TELE:
        tighter("first-tele", _before_first_tele(c, s.d).bound(s, True))
    if _COUNT_SLOTS:
        neither, slots_only = (r.bound(s, True) for r in _no_drink_slots(c, s.d))
        tighter("drink-slots or pickups", neither)
        tighter("pickups", slots_only)
    if _TWO_GAINS:
        tighter("two-gains", _no_two_gains(c, s.d).bound(s, True))
    if _COUNT_SLOTS:
        tighter("uses", _no_uses(c, s.d).bound(s, True))
    if lower is not None:
        low = lower.bound(s, True)
        if low < bound:
            counts["tree-sensitive"] += 1
            counts[f"tree-sensitive, slack {left - bound}"] += 1
            if bound >= left:
                print("TREE-TIGHT", json.dumps({"map": name, "actions": line, "bound": bound, "tree-less": low,
                                                "left": left}), flush=True)
    if bound > left:
        found.append({"map": name, "actions": line, "bound": bound, "left": left})
        counts["overestimates"] += 1
        print("OVERESTIMATE", json.dumps(found[-1]), flush=True)


def hunt(maps: list[tuple[str, dict]], walks: int, cap: int, rng: random.Random, quiet: bool,
         witness: bool = False, trees_too: bool = False) -> dict:
    counts: Counter = Counter()
    heroes, found = set(), []
    for name, doc in maps:
        result = load_campaign_text(json.dumps(doc))
        c = result.campaign
        if c is None:
            counts["invalid maps"] += 1
            continue
        counts["maps"] += 1
        if _loose_foes(_start(c)[0].d):
            counts["maps with an enemy a one-way flip reveals"] += 1
        heroes.add(next((part for part in name.split("/") if part.split("+")[0] in gen.CHARACTERS), name))
        lower = None
        if trees_too:
            s0, _ = _start(c)
            lower = _TreeLess(c, s0.d) if relaxation(c, s0.d).items else None
        if witness:
            # Every state along the uniform-cost search's own par line: there the turns left are par - turn.
            search = Search(c, 0, True, Budget(max_states=cap, max_seconds=NO_CLOCK), reference=True)
            verdict, node, turns, _, _ = search.run()
            if verdict == SOLVED:
                actions = search.actions(node)
                counts["witnesses"] += 1
                s, resolver = _start(c)
                for k, action in enumerate(actions):
                    if s.is_terminal():
                        break
                    _compare(c, s, turns - s.turn, name, list(actions[:k]), counts, found, lower)
                    s.step(action, resolver)
            else:
                counts["no witness"] += 1
        seen = set()
        for _ in range(walks):
            s, line = _walk(c, rng)
            if s.is_terminal() or tuple(line) in seen:
                continue
            seen.add(tuple(line))
            left = _remaining(c, s, cap)
            if left is None:
                counts["unknown"] += 1
                continue
            _compare(c, s, left, name, line, counts, found, lower)
        if not quiet:
            print(f"{name}: {dict(counts)}", flush=True)
    return {"counts": dict(counts), "heroes": sorted(heroes), "found": found}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1, help="seed of the maps drawn and of the walks (default 1)")
    ap.add_argument("--maps", type=int, default=80, help="generated maps to draw (default 80)")
    ap.add_argument("--walks", type=int, default=12, help="random walks per map (default 12)")
    ap.add_argument("--cap", type=int, default=20_000, help="states of the reference search per check (default 20000)")
    ap.add_argument("--one-way", type=float, default=0.15,
                    help="chance of cutting each path one way on every third generated map (default 0.15; 0: none)")
    ap.add_argument("--branches", type=int, default=40, help="hand-made corridors with potions beside them (default 40)")
    ap.add_argument("--trees", type=int, default=0,
                    help="corridor trees with potions at the tips of side branches (default 0)")
    ap.add_argument("--chains", type=int, default=0,
                    help="maps where two enemies let two potions of paralysis give four flees in a turn (default 0)")
    ap.add_argument("--one-way-foes", type=int, default=0,
                    help="maps whose enemy cards are revealed by flips along paths with none back (default 0)")
    ap.add_argument("--witness", action="store_true",
                    help="also check every state along the reference search's par line from the start")
    ap.add_argument("--tree-sensitive", action="store_true",
                    help="count the states where a potion set's tree one tile smaller lowers the bound")
    ap.add_argument("--no-hand-made", action="store_true", help="only the generated maps")
    ap.add_argument("--quiet", action="store_true", help="only the counterexamples and the summary")
    ap.add_argument("--teleport", action="store_true",
                    help="only levels whose potions are all of teleportation (the paced warrior): generated maps and "
                         "corridors beside enemies face up (--maps and --branches of those)")
    ap.add_argument("--drink-slots", type=int, default=0,
                    help="only levels whose potions are all of teleportation: N corridors where few turns are left "
                         "for the gains of the enemies a potion leaves (a potion drunk in a fight holds no gain)")
    ap.add_argument("--first-tele", type=int, default=0,
                    help="only levels whose potions are all of teleportation, none in hand and every enemy face down: "
                         "N corridors and N generated maps (the first potion picked up)")
    ap.add_argument("--two-gains", type=int, default=0,
                    help="only levels whose potions are all of teleportation: N small open grids with one potion and "
                         "enemies around one tile (a drink there may leave two or three, each worth a gain)")
    ap.add_argument("--uses", type=int, default=0,
                    help="only levels whose potions are all of teleportation: N small open grids of --two-gains with "
                         "two to four potions (What a potion of teleportation is used for)")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    if args.first_tele or args.teleport or args.drink_slots or args.two_gains or args.uses:
        _COUNT_SLOTS.append(True)  # (count the states *A potion drunk in a fight holds no gain* lifts: ``_compare``)
    _TWO_GAINS.append(None)  # (count the states *Two gains from one drink* lifts, in every mode: ``_compare``)
    if args.uses:
        maps = teleport_uses(rng, args.uses)
    elif args.two_gains:
        maps = teleport_two_gains(rng, args.two_gains)
    elif args.drink_slots:
        maps = teleport_slots(rng, args.drink_slots)
    elif args.first_tele:
        maps = teleport_first(rng, args.first_tele)
        _BEFORE_FIRST_TELE.append(None)  # (count the states the rule lifts: ``_compare``)
    elif args.teleport:
        maps = teleport_corridors(rng, args.branches) + teleport_generated(rng, args.maps)
    else:
        maps = ([] if args.no_hand_made else hand_made() + branches(rng, args.branches)) + generated(rng, args.maps, args.one_way)
        maps += trees(rng, args.trees) + chains(rng, args.chains) + one_way_foes(rng, args.one_way_foes)
    start = time.process_time()
    out = hunt(maps, args.walks, args.cap, rng, args.quiet, args.witness, args.tree_sensitive)
    out["cpu_seconds"] = round(time.process_time() - start, 1)
    out["args"] = vars(args)
    print(json.dumps(out))
    return 1 if out["found"] else 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())
