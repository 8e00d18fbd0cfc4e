"""Sweep for overestimates of the turns bound on tiny maps with potions of paralysis, every state checked.

Run ``python benchmarks/bound_sweep.py SEED CPU_SECONDS [teleportation]``: random 3x3, 4x3, 3x4 and 4x2 open maps
of the paced warrior, one to three goblins (3, 6 or 40 health), up to two potions of paralysis on cells and up to two in
hand, some tiles face up; six random walks a map (a throw, a flee or a flip half the time when legal, 1 to 13 actions).
With ``teleportation`` the potions are of teleportation (up to two on cells and up to three in hand, goblins of 1
health too, maps up to 5x3 and 4x4; a throw, a drink or a flip half the time): the count of *What a potion of
teleportation is used for* (docs/solver.md) is on when two or more are left, and the states where it lifts the
bound (against ``Relaxation._uses`` switched off) are counted.
At every state a walk ends on, the bound (``relaxation(...).bound``) is compared with the turns left found by the
uniform-cost reference search (``reference=True``, 20,000 states). Unlike ``bound_hunt.py``, no rule is singled
out: every state is checked, so a rule's interplay with another shows. Prints each overestimate as a JSON line
(width, height, goblins, potions, held, faces, health, actions) to replay, then the count of states checked.
It found the two overestimates of 2026-11-27 (benchmarks/RESULTS.md, *the review's sweep*). Figures only.
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


def build(w: int, h: int, goblins: set, potions: set, held: int, faces: dict, health: int,
          effect: str = "paralysis"):
    cells = []
    for y in range(h):
        for x in range(w):
            paths = "".join(d for d, ok in (("N", y > 0), ("E", x < w - 1), ("S", y < h - 1), ("W", x > 0)) if ok)
            card = ("starting-tile" if (x, y) == (0, 0) else "red-potion" if (x, y) in potions
                    else "goblin" if (x, y) in goblins else "pathing-tile")
            extra = {"exit": True} if (x, y) == (w - 1, h - 1) else {}
            cells.append(cell(x, y, card, paths, face=faces.get((x, y), "down"), **extra))
    return campaign(cells, items=["red-potion"] * held, potions={"red": effect}, cards={"goblin": {"health": health}})


def remaining(c, s) -> int | None:
    """The fewest turns after ``s.turn`` to win from ``s`` (the uniform-cost reference search), or None."""
    search = Search(c, 0, True, Budget(max_states=20_000, max_seconds=3600), reference=True)
    search.root = s.clone()
    verdict, _, turns, _, _ = search.run()
    return turns - s.turn if verdict == SOLVED else None


def main(seed: int, seconds: float, effect: str = "paralysis") -> int:
    rng = random.Random(seed)
    end = time.process_time() + seconds
    checked = over = lifted = exact = 0
    tele = effect == "teleportation"
    verbs = ("throw", "drink", "flip", "teleport") if tele else ("throw", "flee", "flip")
    while time.process_time() < end:
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
        c = build(w, h, goblins, potions, held, faces, health, effect)
        plain = None
        for _ in range(6):
            s, resolver = started(c)
            actions = []
            for _ in range(rng.randrange(1, 14)):
                legal = s.legal_actions()
                if not legal or s.is_terminal():
                    break
                bold = [a for a in legal if a.verb in verbs]
                action = rng.choice(bold if bold and rng.random() < 0.5 else legal)
                actions.append(str(action))
                s.step(action, resolver)
            if s.is_terminal():
                continue
            left = remaining(c, s)
            if left is None:
                continue
            checked += 1
            bound = relaxation(c, s.d).bound(s, True)
            if tele:
                if plain is None or plain.d is not s.d:
                    plain = _NoUses(c, s.d)
                if plain.bound(s, True) < bound:
                    lifted += 1
                    exact += bound == left
            if bound > left:
                over += 1
                print(json.dumps([w, h, sorted(goblins), sorted(potions), held, sorted(faces.items()), health, actions]),
                      flush=True)
    print(f"states checked {checked}, overestimates {over}" +
          (f", lifted by *What a potion of teleportation is used for* {lifted} ({exact} to the turns left)" if tele else ""))
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 1, float(sys.argv[2]) if len(sys.argv) > 2 else 60,
                  sys.argv[3] if len(sys.argv) > 3 else "paralysis"))
