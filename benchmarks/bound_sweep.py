"""Sweep for overestimates of the turns bound on tiny maps with potions, every state checked.

Run ``python benchmarks/bound_sweep.py SEED CPU_SECONDS [tiny|wide|teleportation]`` (tiny by default): random 3x3,
4x3, 3x4 and 4x2 open maps of the paced warrior, one to three goblins (3, 6 or 40 health), up to two potions of
paralysis on cells and up to two in hand, some tiles face up; six random walks a map (a throw, a flee or a flip
half the time when legal, 1 to 13 actions).
With ``teleportation`` the potions are of teleportation (up to two on cells and up to three in hand, goblins of 1
health too, maps up to 5x3 and 4x4; a throw, a drink or a flip half the time): the count of *What a potion of
teleportation is used for* (docs/solver.md) is on when two or more are left, and the states where it lifts the
bound (against ``Relaxation._uses`` switched off) are counted.
At every state a walk ends on, the bound (``relaxation(...).bound``) is compared with the turns left found by the
uniform-cost reference search (``reference=True``, 20,000 states). Unlike ``bound_hunt.py``, no rule is singled
out: every state is checked, so a rule's interplay with another shows. Prints each overestimate as a JSON line
(width, height, goblins, potions, held, faces, health, actions) to replay, then the count of states checked.
It found the two overestimates of 2026-11-27 (benchmarks/RESULTS.md, *the review's sweep*). Figures only.

``python benchmarks/bound_sweep.py SEED CPU_SECONDS wide``: the shapes *One flee left: two gains take two steps more*
(docs/solver.md) needs, which the tiny maps rarely make: 4x4 to 5x5, 6x4 and 4x6 maps, the start anywhere inside with
two or three goblins beside it (and up to two more anywhere), one potion of paralysis in all (in hand, or on a cell),
goblins of 1, 2, 6 or 40 health, up to a quarter of the inner walls (paths removed both ways), the exit in a corner.
Besides the state a walk ends on, the states along it where that rule lifts the bound (``_lone_flee`` read as False
for the other value) are checked, the last three of each walk; it counts those lifted among the states checked.

``python benchmarks/bound_sweep.py SEED CPU_SECONDS last``: tiny and wide maps half and half; besides the state a walk
ends on, the states along it where *The winning turn holds no gain* (docs/solver.md) lifts the bound (against the
bound with the winning turn counted among those that may gain) are checked, the last three of each walk; it counts
those lifted among the states checked, and how many of them the bound reaches the turns left at.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from helpers import campaign, cell, started  # noqa: E402

from cardrogue.engine.analysis.solver import SOLVED, Budget  # noqa: E402
from cardrogue.engine.analysis.solver.bounds import Relaxation, relaxation  # noqa: E402
from cardrogue.engine.analysis.solver.search import Search  # noqa: E402

SIZES = [(3, 3), (4, 3), (3, 4), (4, 2)]
TELE_SIZES = [(3, 3), (4, 3), (3, 4), (4, 2), (5, 3), (4, 4)]


class _NoUses(Relaxation):
    """The bound without *What a potion of teleportation is used for* (the sweep counts the states it lifts)."""

    @staticmethod
    def _uses(steps, count, met, crowd, alive, visitors, drinking):
        return steps


def build(w: int, h: int, goblins: set, potions: set, held: int, faces: dict, health: int, start=(0, 0), exit_at=None,
          walls=frozenset(), effect: str = "paralysis"):
    exit_at = (w - 1, h - 1) if exit_at is None else exit_at
    cells = []
    for y in range(h):
        for x in range(w):
            paths = "".join(d for d, ok, q in (("N", y > 0, (x, y - 1)), ("E", x < w - 1, (x + 1, y)),
                                               ("S", y < h - 1, (x, y + 1)), ("W", x > 0, (x - 1, y)))
                            if ok and frozenset(((x, y), q)) not in walls)
            card = ("starting-tile" if (x, y) == start else "red-potion" if (x, y) in potions
                    else "goblin" if (x, y) in goblins else "pathing-tile")
            extra = {"exit": True} if (x, y) == exit_at else {}
            cells.append(cell(x, y, card, paths, face=faces.get((x, y), "down"), **extra))
    return campaign(cells, items=["red-potion"] * held, potions={"red": effect}, cards={"goblin": {"health": health}})


def remaining(c, s) -> int | None:
    """The fewest turns after ``s.turn`` to win from ``s`` (the uniform-cost reference search), or None."""
    search = Search(c, 0, True, Budget(max_states=20_000, max_seconds=3600), reference=True)
    search.root = s.clone()
    verdict, _, turns, _, _ = search.run()
    return turns - s.turn if verdict == SOLVED else None


def wide(rng: random.Random):
    """A map of the ``wide`` sweep: (the campaign, the JSON of how it was made)."""
    w, h = rng.choice([(4, 4), (5, 4), (4, 5), (5, 3), (3, 5), (5, 5), (6, 4), (4, 6)])
    start = (rng.randrange(1, w - 1), rng.randrange(1, h - 1))
    beside = [(start[0] + dx, start[1] + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
    rng.shuffle(beside)
    goblins = set(beside[:rng.choice([2, 2, 3])])
    exit_at = rng.choice([p for p in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)) if p not in goblins])
    free = [(x, y) for y in range(h) for x in range(w) if (x, y) not in goblins | {start, exit_at}]
    rng.shuffle(free)
    goblins |= set(free[:rng.choice([0, 0, 1, 2])])
    free = [p for p in free if p not in goblins]
    potions, held = (set(free[:1]), 0) if rng.random() < 0.3 else (set(), 1)
    health, up = rng.choice([1, 1, 2, 6, 40]), rng.choice([0.3, 0.5, 0.7])
    faces = {start: "up"}
    for p in free:
        if p not in potions:
            faces[p] = "up" if rng.random() < up else "down"
    edges = ([frozenset(((x, y), (x + 1, y))) for y in range(h) for x in range(w - 1)]
             + [frozenset(((x, y), (x, y + 1))) for y in range(h - 1) for x in range(w)])
    rng.shuffle(edges)
    walls = frozenset(edges[:rng.randint(0, len(edges) // 4)])
    c = build(w, h, goblins, potions, held, faces, health, start, exit_at, walls)
    return c, [w, h, sorted(goblins), sorted(potions), held, sorted(faces.items()), health, start, exit_at,
               sorted(sorted(e) for e in walls)]


def tiny(rng: random.Random, effect: str = "paralysis"):
    """A map of the tiny sweep (of potions of ``effect``): (the campaign, the JSON of how it was made)."""
    tele = effect == "teleportation"
    w, h = rng.choice(TELE_SIZES if tele else SIZES)
    free = [(x, y) for y in range(h) for x in range(w) if (x, y) not in ((0, 0), (w - 1, h - 1))]
    rng.shuffle(free)
    n_goblins, n_potions = rng.randint(1, 3), rng.randint(0, 2)
    goblins, potions = set(free[:n_goblins]), set(free[n_goblins:n_goblins + n_potions])
    held, health = rng.randint(0, 3 if tele else 2), rng.choice([40, 6, 3, 1, 1] if tele else [40, 6, 3])
    faces = {(0, 0): "up"}
    for y in range(h):
        for x in range(w):
            if (x, y) not in goblins | potions | {(0, 0)}:
                faces[(x, y)] = rng.choice(["down", "down", "up"])
    c = build(w, h, goblins, potions, held, faces, health, effect=effect)
    return c, [w, h, sorted(goblins), sorted(potions), held, sorted(faces.items()), health]


class _LastGains(Relaxation):
    """The bound with *The winning turn holds no gain* off (the winning turn counted among those that may gain)."""

    def _met_allowance(self, *args, **kw):
        most, c = super()._met_allowance(*args, **kw)
        return most, c if self.tele_total else c + 1


def _without_last(c, s) -> float:
    """The bound of ``s`` with *The winning turn holds no gain* off."""
    return _LastGains(c, s.d).bound(s, True)


def _without_lone_flee(c, s) -> float:
    """The bound of ``s`` with *One flee left: two gains take two steps more* off."""
    relax = Relaxation(c, s.d)
    relax._lone_flee = lambda *args: False
    return relax.bound(s, True)


def main(seed: int, seconds: float, shapes: str = "tiny") -> int:
    rng = random.Random(seed)
    end = time.process_time() + seconds
    checked = over = lifted = exact = 0
    tele = shapes == "teleportation"
    verbs = ("throw", "drink", "flip", "teleport") if tele else ("throw", "flee", "flip")
    while time.process_time() < end:
        last = shapes == "last"
        c, made = (wide(rng) if shapes == "wide" or (last and rng.random() < 0.5)
                   else tiny(rng, "teleportation" if tele else "paralysis"))
        plain = None
        for _ in range(6):
            s, resolver = started(c)
            actions = []
            seen = []  # (wide) the states along the walk where *One flee left* lifts the bound, and their actions
            for _ in range(rng.randrange(1, 14)):
                legal = s.legal_actions()
                if not legal or s.is_terminal():
                    break
                if shapes == "wide" and relaxation(c, s.d).bound(s, True) > _without_lone_flee(c, s):
                    seen.append((s.clone(), list(actions)))
                elif last and relaxation(c, s.d).bound(s, True) > _without_last(c, s):
                    seen.append((s.clone(), list(actions)))
                bold = [a for a in legal if a.verb in verbs]
                action = rng.choice(bold if bold and rng.random() < 0.5 else legal)
                actions.append(str(action))
                s.step(action, resolver)
            if not s.is_terminal():
                seen.append((s, actions))
            for state, done in seen[-3:]:
                left = remaining(c, state)
                if left is None:
                    continue
                checked += 1
                bound = relaxation(c, state.d).bound(state, True)
                if shapes == "wide" and bound > _without_lone_flee(c, state):
                    lifted += 1
                if last and bound > _without_last(c, state):
                    lifted += 1
                    exact += bound == left
                if tele:
                    if plain is None or plain.d is not state.d:
                        plain = _NoUses(c, state.d)
                    if plain.bound(state, True) < bound:
                        lifted += 1
                        exact += bound == left
                if bound > left:
                    over += 1
                    print(json.dumps(made + [done]), flush=True)
    said = f"states checked {checked}, overestimates {over}"
    if shapes == "wide":
        said += f", lifted by _lone_flee {lifted}"
    elif shapes == "last":
        said += f", lifted by *The winning turn holds no gain* {lifted} ({exact} to the turns left)"
    elif tele:
        said += f", lifted by *What a potion of teleportation is used for* {lifted} ({exact} to the turns left)"
    print(said)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 1, float(sys.argv[2]) if len(sys.argv) > 2 else 60,
                  sys.argv[3] if len(sys.argv) > 3 else "tiny"))
