"""What a potion of teleportation is used for (docs/solver.md, *What a potion of teleportation is used for*).

Rulebook, POTION OF TELEPORTATION: "If drank: move to any PATHING TILE and end turn"; "If thrown: the player who threw
the potion can move the enemy or player it was thrown on to any Pathing Tile" ("A player or enemy may not be teleported
... onto a tile that has not been revealed yet"); a potion is thrown "on an adjacent enemy (combat only)"
(docs/rules.md, *Items*). FLEE: "When a player is adjacent to multiple enemies, he is in combat with those enemies".
COMBAT TURN SEQUENCE: "If neither the player or enemy are slain during this turn, the player ends his turn"; SLAYING AN
ENEMY: "resume his Standard Turn Sequence at step 2 if he flipped over the enemy card, or at step 4 if he moved
adjacent to the enemy". TELEPORTING OR MOVING TO A TILE, BUT TURN IS ENDED: "the moved player does not flip over tiles
... until the beginning of that player's turn".

So a thrown potion moves no hero: it ends a fight as a slaying does, and its turn drops one half-turn more than two
at most (the flips of a fight after moving), where the potion bound gives every potion two and the count of the gains
one more for the enemy it moves. A potion drunk in a fight at its turn's first tile drops nothing more (its flips and
the landing are the turn's two). Only a drink that ends a fight after moving is worth its two half-turns.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from helpers import campaign, cell, par_line_holds, started, turns_left_below

from cardrogue.engine.analysis.solver import Budget
from cardrogue.engine.analysis.solver.bounds import Relaxation, relaxation
from cardrogue.engine.format.loader import load_campaign_text

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import bound_sweep  # noqa: E402  (the benchmarks' sweep of tiny maps: its teleportation mode)
import gen  # noqa: E402  (the benchmarks' generator of maps)
from test_solver_teleport_met import SMALL  # noqa: E402  (the budget of the reference's par line)

NO_CLOCK = 3600  # state budgets only: a loaded machine must not change a result


class _Without(Relaxation):
    """The bound without the rule: each potion two half-turns, each thrown one a gain more."""

    @staticmethod
    def _uses(steps, count, met, crowd, alive, visitors, drinking):
        return steps


def _both(c, s) -> tuple:
    """The bound at ``s`` without the rule and with it."""
    return _Without(c, s.d).bound(s, True), relaxation(c, s.d).bound(s, True)


def _corridor(n: int, rats: tuple, held: int):
    """A row of ``n`` face-down tiles east of the start to the exit; above and below each x of ``rats`` a rat (1
    health) face down, joined to the row only; ``held`` potions of teleportation in hand."""
    cells = []
    for x in range(n + 1):
        paths = ("E" if x < n else "") + ("W" if x > 0 else "") + ("NS" if x in rats else "")
        cells.append(cell(x, 1, "starting-tile" if x == 0 else "pathing-tile",
                          "".join(ch for ch in "NESW" if ch in paths), face="up" if x == 0 else "down",
                          **({"exit": True} if x == n else {})))
        if x in rats:
            cells += [cell(x, 0, "sewer-rat", "S", face="down"), cell(x, 2, "sewer-rat", "N", face="down")]
    return campaign(cells, items=["red-potion"] * held, potions={"red": "teleportation"},
                    cards={"sewer-rat": {"health": 1}})


@pytest.mark.parametrize("rats", [(1,), (2,), (3,), (1, 3)])
def test_two_potions_in_hand_do_not_give_three_gains_on_a_short_corridor(rats):
    # Four face-down tiles to the exit, two potions of teleportation in hand, rats face down beside the row: par 4.
    # The bound gave each potion 2 half-turns and each thrown one a gain more (the rat it moves): 1 turn after the
    # first. No enemy stands revealed away from the hero before a potion leaves one, so the first potion is used in a
    # fight at a turn's first tile, where a drink or a throw drops nothing more than the turn's two half-turns, and a
    # throw drops at most one more in any turn: 2 turns after the first.
    c = _corridor(4, rats, 2)
    s, _ = started(c)
    assert _both(c, s) == (1, 2)
    par_line_holds(c, 4, SMALL)


def test_seed_14_bound_at_the_start():
    # The 8x8 map of seed 14 (four potions of teleportation on their cells, none met so at the start): 8 turns after
    # the first before, 9 now (benchmarks/RESULTS.md, *what a potion of teleportation is used for*); the runs found
    # take 14 turns.
    c = load_campaign_text(gen.campaign_text(1, 8, seed=14)).campaign
    s, _ = started(c)
    assert _both(c, s) == (8, 9)


@pytest.mark.parametrize("seed", [1, 2])
def test_tiny_maps_with_potions_of_teleportation_keep_the_bound_within_the_turns_left(seed):
    # The sweep's tiny open maps (benchmarks/bound_sweep.py, teleportation: up to two potions on cells and three in
    # hand, goblins of 1 to 40 health, random walks with throws, drinks and flips): at every state a walk ends on, the
    # bound is never above the turns the uniform-cost reference search still needs.
    rng = random.Random(seed)
    checked = 0
    for _ in range(6):
        w, h = rng.choice(bound_sweep.TELE_SIZES[:4])
        free = [(x, y) for y in range(h) for x in range(w) if (x, y) not in ((0, 0), (w - 1, h - 1))]
        rng.shuffle(free)
        goblins, potions = set(free[:rng.randint(1, 3)]), set()
        faces = {(0, 0): "up"} | {(x, y): rng.choice(["down", "down", "up"]) for y in range(h) for x in range(w)
                                   if (x, y) not in goblins | {(0, 0)}}
        c = bound_sweep.build(w, h, goblins, potions, rng.randint(2, 3), faces, rng.choice([1, 3, 40]), effect="teleportation")
        for _ in range(3):
            s, resolver = started(c)
            actions = []
            for _ in range(rng.randrange(1, 10)):
                legal = s.legal_actions()
                if not legal or s.is_terminal():
                    break
                bold = [a for a in legal if a.verb in ("throw", "drink", "flip", "teleport")]
                action = rng.choice(bold if bold and rng.random() < 0.5 else legal)
                actions.append(str(action))
                s.step(action, resolver)
            if s.is_terminal():
                continue
            least = _both(c, s)[1]
            # (bound_sweep.remaining's search, 20,000 states, cut at the bound: helpers.turns_left_below)
            left = turns_left_below(c, s, least, Budget(max_states=20_000, max_seconds=3600))
            if left is None:
                continue
            checked += 1
            assert least <= left, json.dumps([w, h, sorted(goblins), actions])
    assert checked >= 6
