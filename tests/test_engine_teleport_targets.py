"""The tiles a potion of teleportation may take the hero or an enemy to, listed for speed.

Card Rogue v1.1.2, *Potions*: "Potion of Teleportation: move to any pathing tile and end turn" (docs/rules.md:
a revealed pathing tile of the level with no enemy and no hero on it; an exit only once the level's goals are
met). ``GameState.teleport_targets`` is written for speed over the whole level; the rule as written, one tile at a
time (``_one_tile`` below), must agree with it on every state play reaches, with potions drunk and thrown
(enemies moved onto tiles), exits and goals.
"""

import random
import sys
from pathlib import Path

import pytest
from helpers import campaign_dict, cell, load
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrogue.engine.chance.resolvers import RandomResolver
from cardrogue.engine.rules.state import CHOOSE_TELEPORT, GameState
from cardrogue.engine.rules.tables import DOWN, PLAIN, UP

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import gen  # noqa: E402  (the benchmarks' generator of levels)

# A room of tiles face up and down, rats to throw potions at (an enemy moved stands on a tile), and an exit face
# up that the slay goal closes: four potions of teleportation in hand.
ROOM = campaign_dict([
    cell(0, 0, "starting-tile", "ES"), cell(1, 0, "pathing-tile", "EW"), cell(2, 0, "sewer-rat", "W"),
    cell(0, 1, "pathing-tile", "NES"), cell(1, 1, "sewer-rat", "W"), cell(2, 1, "pathing-tile", "ES", face="down"),
    cell(0, 2, "pathing-tile", "NE", face="down"), cell(1, 2, "pathing-tile", "EW"),
    cell(2, 2, "pathing-tile", "NW", exit=True),
], items=["red-potion"] * 4, potions={"red": "teleportation"}, goals=[("slay", "sewer-rat")])

MAPS = {
    "a room with rats and a closed exit": lambda: ROOM,
    "8x8 seed 25": lambda: gen.campaign(1, 8, seed=25),  # five potions of teleportation
    "mixed 1x8x8 seed 4": lambda: gen.mixed_campaign(1, 8, 4, "potions"),
    "mixed 2x6x6 seed 3": lambda: gen.mixed_campaign(2, 6, 3, "potions"),
}
_LOADED: dict = {}


def _one_tile(s: GameState, j: int) -> bool:
    """The rule as written for cell ``j``: revealed, a pathing tile (an enemy card face up is none), neither the
    hero nor an enemy on it, and an exit only with the level's goals met."""
    f = s.faces[j]
    if f == DOWN or (f == UP and s.d.kind[j] != PLAIN) or j == s.pos or s.enemy_at(j) >= 0:
        return False
    return not s.d.exit[j] or s.goals_met()


def _campaign(name):
    if name not in _LOADED:
        _LOADED[name] = load(MAPS[name]())
    return _LOADED[name]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32))
@pytest.mark.parametrize("name", list(MAPS))
def test_teleport_targets_are_the_tiles_a_teleport_may_take(name, seed):
    campaign = _campaign(name)
    rng = random.Random(seed)
    resolver = RandomResolver(seed)
    s = GameState.new(campaign)
    chosen = 0
    for _ in range(120):
        lo, hi = s.d.level_range[s.level]
        assert s.teleport_targets() == [j for j in range(lo, hi) if _one_tile(s, j)]
        legal = s.legal_actions()
        if not legal:
            break
        chosen += s.phase == CHOOSE_TELEPORT
        # Potions drunk and thrown more often than at random, so that teleports (and enemies moved) happen.
        potions = [a for a in legal if a.verb in ("drink", "throw", "teleport")]
        s.step(rng.choice(potions if potions and rng.random() < 0.6 else legal), resolver)
