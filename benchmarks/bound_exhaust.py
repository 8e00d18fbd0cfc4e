"""Every reachable state of tiny maps with shops, chests, enemies face up, other heroes and ladders: the bound
against the exact turns left.

Run ``python benchmarks/bound_exhaust.py MODE SEED CPU_SECONDS [--horizon T] [--cap STATES] [--large] [--paralysis]``, MODE one of
``shops``, ``chests``, ``faceup``, ``heroes``, ``ladders``, ``traps``, ``colours``, ``potions``, ``flees`` or ``mix`` (every feature drawn
at random, map by map). ``bound_sweep.py`` and ``bound_hunt.py`` check the states a few random walks end on against
a reference search from each; here the map is small enough to enumerate: every state reachable from the start
(``legal_actions`` and ``advance`` under the fated dice, the engine's exact key, the deaths dropped), in the order
of their turns, up to the turn ``T`` (14 by default) or ``STATES`` states (40,000). The fewest turns to finish from
each state and the most health at that turn are then propagated back from the finishes (exact wherever that finish
comes before the turn the enumeration stopped at), and at EVERY state with a finish:

- the bound ``relaxation(c, d).bound(s, True)`` (and with the hint of the state it was first reached from, as the
  search reads it) is held to the turns left: above them is an overestimate (a wrong par);
- on a map with ladders, the level bound ``bound(s, False)`` of the states on the first level to the turn the
  ladder is taken (``solve_level``'s finish);
- the health ceiling (``HealthCeiling.bound(s, turn)`` at the turn of the state's best finish) to that finish's
  health; and on a map with a buy goal, the purse (``Purse.short``) never cuts a state that can still finish.

The root's exact par (turns, health) is also held to ``solve_campaign`` (A*, dominance, the purse, the ceiling,
the witness trimmed and verified) when the enumeration is complete to past it, and on a map with ladders the first
level's to ``solve(c, 0, False, ...)`` (the level's par, the ladder's turn). Each defect is printed as a JSON
line (kind, the map's document, the actions to the state, the figures); then the counts. Deterministic in its
arguments (CPU time aside).

The maps (2x2 to 4x3, with ``--large`` 4x4 to 6x3 but for the ladders', a few walls, the start and the way out at random; ``mixed_campaign_text``'s cards):

- ``shops``: a shop of one to three of potions, a dagger, boots, hasty boots, a shadow cape, a scroll of passage or
  the shopkeeper's debt (some prices lowered by the map), gold cards on cells and in hand, enemies with loot, a buy
  goal one time in two;
- ``chests``: a chest of two cards (potions, hasty boots, a scroll of passage, gold, a dagger) and its key, an open
  goal one time in two;
- ``faceup``: one to three enemies face up at the start, DOES NOT CHASE ones (the troll, a lurker of the map's own)
  one time in two, weak or not, potions of paralysis or teleportation in hand now and then;
- ``heroes``: every character, rules 1.0 and 1.1 with their four, hasty boots, a shadow cape, a dagger or a sword
  equipped, a scroll of passage or potions in hand;
- ``ladders``: two levels, items on the first (potions, hasty boots, a shadow cape, a scroll of passage, gold, a
  shop) to carry down to the second;
- ``traps``: spike, poison and paralysis traps, fountains, the explorer and the cleric often;
- ``colours``: potions of every colour, the author's colour-to-effect table for some of them;
- ``flees``: two to five enemies, three in five DOES NOT CHASE, the warrior or (one time in two) another character,
  no potion: the flee chain beside the enemies' cards and off them (docs/solver.md, *Flees land off the enemies'
  cards*);
- ``potions``: ``bound_sweep.py``'s tiny maps (goblins of 40, 6, 3 or 1 health, up to two potions on cells and three
  in hand, of paralysis, of teleportation or one of each) with each goblin face up at the start one time in two.

``--paralysis`` makes every potion card (on cells, in stock, in chests, in hand) red and red of paralysis: no potion
of teleportation in the game, where the rules that hold only then are on.
"""

from __future__ import annotations

import argparse
import heapq
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen  # noqa: E402

from cardrogue.engine.analysis.gold import GoldCount, has_buy_goals  # noqa: E402
from cardrogue.engine.analysis.solver import SOLVED, Budget, solve_campaign  # noqa: E402
from cardrogue.engine.analysis.solver.bounds import relaxation  # noqa: E402
from cardrogue.engine.analysis.solver.ceiling import HealthCeiling  # noqa: E402
from cardrogue.engine.analysis.solver.packing import left_behind  # noqa: E402
from cardrogue.engine.analysis.solver.par import solve  # noqa: E402
from cardrogue.engine.analysis.solver.purse import Purse  # noqa: E402
from cardrogue.engine.analysis.solver.result import INF  # noqa: E402
from cardrogue.engine.chance.resolvers import FatedResolver  # noqa: E402
from cardrogue.engine.format.loader import load_campaign_text  # noqa: E402
from cardrogue.engine.rules.state import DEAD, WON, GameState  # noqa: E402

MODES = ("shops", "chests", "faceup", "heroes", "ladders", "traps", "colours", "potions")  # ``mix`` draws from these (not ``flees``)
SIZES = [(2, 2), (3, 2), (2, 3), (3, 3), (4, 2), (2, 4), (4, 3), (3, 4)]
LARGE = [(4, 4), (5, 3), (3, 5), (5, 4), (4, 5), (6, 3)]  # ``--large``: the states past the cap go unchecked
WEAK = ["goblin", "kobold", "cave-bat", "sewer-rat"]
DNC = ["troll", "cave-lurker"]  # DOES NOT CHASE: the catalog's troll and a card of the map's own
LURKER = {"name": "Cave Lurker", "kind": "enemy", "attack": 1, "health": 2, "gold": 1, "abilities": ["DOES NOT CHASE"]}
STOCK = ["red-potion", "blue-potion", "dagger", "boots", "hasty-boots", "shadow-cape", "scroll-of-passage",
         "shopkeepers-debt"]
LOOT = ["red-potion", "blue-potion", "hasty-boots", "scroll-of-passage", "gold", "gold", "dagger"]
CARRY = ["red-potion", "blue-potion", "hasty-boots", "shadow-cape", "scroll-of-passage", "gold"]
EFFECTS = ["paralysis", "teleportation", "healing", "strength", "poison", "weakness"]


_LARGE: list = []  # (``--large`` sets it)


def _grid(w: int, h: int, rng: random.Random, walls: float) -> dict:
    """(x, y) -> paths of a w x h grid with about ``walls`` of its inner edges closed (both ways), still one piece."""
    cells = {(x, y) for x in range(w) for y in range(h)}
    while True:
        edges = {frozenset({(x, y), (x + dx, y + dy)}) for x, y in cells for dx, dy in ((1, 0), (0, 1))
                 if (x + dx, y + dy) in cells}
        open_ = {e for e in edges if rng.random() >= walls}
        if len(gen._reached((0, 0), open_, set())) == len(cells):
            return {at: gen._paths(at, open_) for at in cells}


def _level(level_id: str, rng: random.Random, features: set, to: str | None, size=None) -> tuple[dict, dict]:
    """A tiny level with the cards of ``features``: (the level, the campaign's cards it needs)."""
    w, h = size or rng.choice(LARGE if _LARGE else SIZES)
    paths = _grid(w, h, rng, rng.choice([0, 0, 0.2, 0.35]))
    spots = sorted(paths)
    rng.shuffle(spots)
    start, way_out = spots[0], spots[1]
    free = spots[2:]
    cards: dict = {}
    cell = {at: {"at": list(at), "card": "pathing-tile", "paths": paths[at], "face": "down" if rng.random() < 0.6 else "up"}
            for at in spots}
    cell[start].update(card="starting-tile", face="up")
    cell[way_out].update(**({"card": "descending-ladder", "to": to} if to else {"exit": True}))
    if to is None and rng.random() < 0.2:
        cell[way_out]["face"] = "up"
    goals = []

    def take() -> tuple[int, int] | None:
        return free.pop() if free else None

    def put(card: str, face: str | None = None) -> None:
        at = take()
        if at is not None:
            cell[at]["card"] = card
            if face:
                cell[at]["face"] = face

    if "shops" in features:
        at = take()
        if at is not None:
            stock = rng.sample(STOCK, rng.randint(1, 3))
            cell[at].update(card="shop", stock=stock)
            for item in stock:
                if rng.random() < 0.4:
                    cards[item] = {"gold": 1}
            if "shopkeepers-debt" in stock:
                cards["shopkeepers-debt"] = {"gold": rng.choice([1, 2])}
            if rng.random() < 0.5:
                goals.append({"buy": rng.choice(stock)})
        for _ in range(rng.randint(0, 2)):
            put("gold")
    if "chests" in features and len(free) >= 2:
        chest, key = take(), take()
        cell[chest].update(card="chest", contents=rng.sample(LOOT, 2))
        cell[key]["card"] = "key"
        if rng.random() < 0.5:
            goals.append({"open": "chest"})
    if "ladders" in features and to is not None:
        for _ in range(rng.randint(1, 2)):
            put(rng.choice(CARRY))
    enemies = rng.choice([1, 1, 2, 3]) if {"faceup", "potions"} & features else rng.choice([0, 1, 1, 2])
    if "flees" in features:  # enemies crowded, most of them DOES NOT CHASE: flee chains over and beside their cards
        enemies = rng.randint(2, min(5, len(free)))
    if "potions" in features:  # bound_sweep.py's tiny maps with goblins face up at the start half the time
        cards["goblin"] = {"health": rng.choice([40, 6, 3, 1])}
        for _ in range(enemies):
            put("goblin", "up" if rng.random() < 0.5 else "down")
        for _ in range(rng.randint(0, 2)):
            put(rng.choice(["red-potion", "blue-potion"]))
        enemies = 0
    for _ in range(enemies):
        kind = rng.choice(DNC) if rng.random() < (0.6 if "flees" in features else 0.5 if "faceup" in features else 0.2) else rng.choice(WEAK)
        if kind == "cave-lurker":
            cards["cave-lurker"] = LURKER
        elif kind == "troll" and rng.random() < 0.7:
            cards["troll"] = {"health": rng.choice([1, 2, 3]), "attack": rng.choice([1, 2])}
        elif rng.random() < 0.5:
            cards[kind] = {"health": rng.choice([1, 2, 6])}
        put(kind, "up" if rng.random() < (0.8 if "faceup" in features else 0.25) else "down")
    if "traps" in features:
        for _ in range(rng.randint(1, 2)):
            put(rng.choice(gen.TRAPS + ["fountain-of-healing"]))
    if "colours" in features:
        for _ in range(rng.randint(1, 2)):
            put(rng.choice(gen.POTIONS))
    if {"faceup", "heroes"} & features and rng.random() < 0.3:
        put(rng.choice(["red-potion", "blue-potion"]))
    level = {"id": level_id, "title": level_id, "width": w, "height": h,
             "cells": [cell[at] for at in sorted(cell, key=lambda p: (p[1], p[0]))]}
    if goals:
        level["goals"] = goals
    return level, cards


def make(rng: random.Random, mode: str) -> dict:
    """A tiny challenge map of ``mode`` (``mix``: a random set of the features)."""
    features = {mode} if mode != "mix" else set(rng.sample(MODES, rng.randint(1, 3)))
    rules, character = "1.1.2", "warrior"
    if "heroes" in features or rng.random() < 0.3:
        if rng.random() < 0.3:
            rules, character = rng.choice(["1.0", "1.1"]), rng.choice(gen.OLD_CHARACTERS)
        else:
            character = rng.choice(gen.CHARACTERS)
    if "traps" in features and rng.random() < 0.5:
        character = rng.choice(["explorer", "cleric"]) if rules == "1.1.2" or rng.random() < 0.5 else character
    if "flees" in features and rng.random() < 0.5:
        character = rng.choice([c for c in gen.CHARACTERS if c != "warrior"])  # (a flee on a roll: the chain of a state)
    hero: dict = {"character": character, "items": [], "equipped": []}
    if "heroes" in features or ("flees" not in features and rng.random() < 0.2):
        if rng.random() < 0.6:
            hero["equipped"] = [rng.choice(["hasty-boots", "shadow-cape", "dagger", "sword", "boots"])]
        if rng.random() < 0.4:
            hero["items"] = rng.sample(["scroll-of-passage", "red-potion", "blue-potion", "gold"], rng.randint(1, 2))
    if "shops" in features:
        hero["items"] += ["gold"] * rng.choice([0, 0, 1, 2, 4])
    if "faceup" in features and rng.random() < 0.4:
        hero["items"] += [rng.choice(["red-potion", "blue-potion"])]
    if "potions" in features:
        hero["items"] += [rng.choice(["red-potion", "blue-potion"]) for _ in range(rng.randint(0, 3))]
    potions = {}
    if "colours" in features:
        colours = rng.sample([p.split("-")[0] for p in gen.POTIONS], rng.randint(1, 4))
        potions = dict(zip(colours, rng.sample(EFFECTS, len(colours))))
    elif "potions" in features:  # red and blue both paralysis, both teleportation, or one of each
        potions = dict(zip(("red", "blue"), rng.choice([("paralysis", "teleportation"), ("teleportation", "paralysis")])))
        if rng.random() < 0.5:
            del potions[rng.choice(["red", "blue"])]
    elif rng.random() < 0.8:
        potions = {"red": rng.choice(["paralysis", "teleportation"]), "blue": rng.choice(["teleportation", "healing"])}
        if potions["red"] == potions["blue"]:
            del potions["blue"]
    cards: dict = {}
    if "ladders" in features:
        one, c1 = _level("one", rng, features, "two", rng.choice([(2, 2), (3, 2), (2, 3)]))
        two, c2 = _level("two", rng, features - {"ladders"}, None, rng.choice([(2, 2), (3, 2), (2, 3), (3, 3)]))
        levels = [one, two]
        cards = {**c1, **c2}
    else:
        level, cards = _level("one", rng, features, None)
        levels = [level]
    doc = {"format": 1, "id": "exhaust", "title": "Exhaust", "kind": "challenge", "rules": rules,
           "seed": rng.randrange(10_000), "hero": hero, "levels": levels}
    if potions:
        doc["potions"] = potions
    if cards:
        doc["cards"] = cards
    return doc


def paralysis_only(doc: dict) -> dict:
    """``doc`` with every potion card red and red of paralysis: no potion of teleportation in the game (the rules
    that hold only then, such as *The winning turn holds no gain*, docs/solver.md, are on)."""
    red = lambda cards: ["red-potion" if c in gen.POTIONS else c for c in cards]  # noqa: E731
    doc["potions"] = {"red": "paralysis"}
    doc["hero"]["items"] = red(doc["hero"]["items"])
    for level in doc["levels"]:
        for c in level["cells"]:
            if c["card"] in gen.POTIONS:
                c["card"] = "red-potion"
            for field in ("stock", "contents"):
                if field in c:
                    c[field] = red(c[field])
        for goal in level.get("goals", ()):
            if goal.get("buy") in gen.POTIONS:
                goal["buy"] = "red-potion"
    return doc


def enumerate_states(c, horizon: int, cap: int):
    """Every state reachable from the start in turn order, up to turn ``horizon`` or ``cap`` states: (states,
    parents (index, action) per state, the children of each, complete-below turn)."""
    resolver = FatedResolver(c)
    root = GameState.new(c, log=False)
    root.resolve(resolver)
    states, parents, children = [root], [(-1, None)], [[]]
    index = {root.key(): 0}
    heap = [(root.turn, 0)]
    below = INF  # every state of a turn below this was expanded (INF: every state)
    while heap:
        turn, i = heapq.heappop(heap)
        if turn > horizon or len(states) >= cap:
            below = turn
            break
        s = states[i]
        if s.outcome is not None:
            continue
        for action in s.legal_actions():
            t = s.clone()
            t.advance(action, resolver)
            if t.outcome == DEAD:
                continue
            k = t.key()
            j = index.get(k)
            if j is None:
                j = index[k] = len(states)
                states.append(t)
                parents.append((i, str(action)))
                children.append([])
                heapq.heappush(heap, (t.turn, j))
            children[i].append(j)
    return states, parents, children, below


def best_finishes(states, children, finish) -> list:
    """Per state, the best finish reachable ((turn, -health), lowest first) or None: the finishes' own values
    propagated back along the parent links, best first (a Dijkstra where every edge costs nothing)."""
    back: list[list[int]] = [[] for _ in states]
    for i, kids in enumerate(children):
        for j in kids:
            back[j].append(i)
    best: list = [None] * len(states)
    heap = []
    for i, s in enumerate(states):
        f = finish(s)
        if f is not None:
            heapq.heappush(heap, (f, i))
    while heap:
        value, i = heapq.heappop(heap)
        if best[i] is not None:
            continue
        best[i] = value
        for p in back[i]:
            if best[p] is None:
                heapq.heappush(heap, (value, p))
    return best


def _line(parents, i) -> list[str]:
    out = []
    while parents[i][0] >= 0:
        i, action = parents[i]
        out.append(action)
    return out[::-1]


def check_map(doc: dict, horizon: int, cap: int, counts: Counter, solve_states: int) -> list[dict]:
    """Enumerate ``doc``'s states and hold every bound to them; the defects found."""
    result = load_campaign_text(json.dumps(doc))
    c = result.campaign
    if c is None:
        counts["invalid maps"] += 1
        return []
    counts["maps"] += 1
    states, parents, children, below = enumerate_states(c, horizon, cap)
    counts["states enumerated"] += len(states)
    if below <= horizon:
        counts["maps cut by the state cap"] += 1
    elif below == INF:
        counts["maps enumerated to the end"] += 1
    d = states[0].d
    relax = relaxation(c, d)
    ladders = len(c.levels) > 1
    camp = best_finishes(states, children, lambda s: (s.turn, -s.health) if s.outcome == WON else None)
    lvl = best_finishes(states, children, lambda s: (s.turn - 1, -s.health) if s.level != 0 else None) if ladders else None
    ceiling = HealthCeiling(c, d, relax.health_cap, left_behind(d), True)
    purse = Purse(GoldCount(c), d, True) if has_buy_goals(c) else None
    found = []

    def defect(kind: str, i: int, **figures) -> None:
        counts[f"defect: {kind}"] += 1
        if sum(f["kind"] == kind for f in found) < 3:  # three of a kind a map, the first (fewest turns) found
            found.append({"kind": kind, "doc": doc, "actions": _line(parents, i), **figures})
            print("DEFECT", json.dumps(found[-1]), flush=True)

    for i, s in enumerate(states):
        if s.outcome is not None:
            continue
        if purse is not None and purse.short(s):
            if camp[i] is not None and camp[i][0] < below:
                defect("purse cuts a state that finishes", i, finish=camp[i])
            else:
                counts["states the purse cuts (none finishes)"] += 1
        if camp[i] is not None and camp[i][0] < below:
            left = camp[i][0] - s.turn
            counts["states checked"] += 1
            bound = relax.bound(s, True)
            p = parents[i][0]
            hinted = relax.bound(s, True, (states[p].level, relax.mask(states[p]))) if p >= 0 else bound
            if bound == left:
                counts["bound exact"] += 1
            if bound > left or hinted > left:
                defect("bound above the turns left", i, bound=bound, hinted=hinted, left=left)
            top = ceiling.bound(s, camp[i][0])
            counts["health ceiling exact"] += top == -camp[i][1]
            if top < -camp[i][1]:
                defect("health ceiling below a finish", i, ceiling=top, health=-camp[i][1], turn=camp[i][0])
        elif camp[i] is None:
            counts["states with no finish" + (" by the horizon" if below < INF else "")] += 1
        if lvl is not None and s.level == 0 and lvl[i] is not None and lvl[i][0] < below:
            counts["level states checked"] += 1
            bound = relax.bound(s, False)
            if bound > lvl[i][0] - s.turn:
                defect("level bound above the turns left", i, bound=bound, left=lvl[i][0] - s.turn)
    if camp[0] is not None and camp[0][0] < below:
        counts["maps with an exact par"] += 1
        r = solve_campaign(c, Budget(max_states=solve_states, max_seconds=3600), per_level=False)
        if r.verdict != SOLVED or (r.turns, r.health) != (camp[0][0], -camp[0][1]):
            defect("par differs from the enumeration", 0, verdict=r.verdict, turns=r.turns, health=r.health,
                   exact=camp[0])
    if lvl is not None and lvl[0] is not None and lvl[0][0] < below:
        counts["maps with an exact level par"] += 1
        r = solve(c, 0, False, Budget(max_states=solve_states, max_seconds=3600))
        if r.verdict != SOLVED or (r.turns, r.health) != (lvl[0][0], -lvl[0][1]):
            defect("level par differs from the enumeration", 0, verdict=r.verdict, turns=r.turns, health=r.health,
                   exact=lvl[0])
    if camp[0] is None:
        counts["maps with no finish" + (" by the horizon" if below < INF else "")] += 1
    return found


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=MODES + ("flees", "mix"))
    ap.add_argument("seed", type=int)
    ap.add_argument("seconds", type=float, help="CPU seconds to spend (the map being checked is finished)")
    ap.add_argument("--horizon", type=int, default=14, help="the last turn enumerated (default 14)")
    ap.add_argument("--cap", type=int, default=40_000, help="states enumerated per map at most (default 40000)")
    ap.add_argument("--solve-states", type=int, default=200_000, help="solve_campaign's states per map (default 200000)")
    ap.add_argument("--large", action="store_true", help="one-level maps of 4x4 to 6x3 (the cap cuts most)")
    ap.add_argument("--paralysis", action="store_true", help="every potion red and red of paralysis (no teleportation)")
    args = ap.parse_args(argv)
    if args.large:
        _LARGE.append(True)
    rng = random.Random(f"{args.mode}/{args.seed}" + ("/large" if args.large else ""))  # (--paralysis: the same maps)
    counts: Counter = Counter()
    found = []
    start = time.process_time()
    while time.process_time() - start < args.seconds:
        doc = make(rng, args.mode)
        found += check_map(paralysis_only(doc) if args.paralysis else doc, args.horizon, args.cap, counts, args.solve_states)
    out = {"mode": args.mode, "seed": args.seed, "large": args.large, "paralysis": args.paralysis, "counts": dict(sorted(counts.items())),
           "defects": sum(n for k, n in counts.items() if k.startswith("defect")),
           "cpu_seconds": round(time.process_time() - start, 1)}
    print(json.dumps(out))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
