"""The warrior's flee chain: ``F`` counts only the tiles beside enemies he may flee from.

docs/solver.md, *The warrior's chain*: a warrior (CANNOT FLEE) with no CAN FLEE gear flees only an enemy
that does not chase or is paralysed, so while nothing moves an enemy (no potion of teleportation) the
flees of a turn stay beside DOES NOT CHASE enemy cards, plus those beside enemies paralysed that turn,
counted per potion of paralysis (``flees.calm_flee_gains``).
"""

import random
import sys
from pathlib import Path

import pytest
from helpers import cell, legal, load, new_state, play, turns_left_below

from cardrogue.engine.analysis.solver import SOLVED, Budget
from cardrogue.engine.analysis.solver import bounds
from cardrogue.engine.analysis.solver.bounds import Relaxation
from cardrogue.engine.analysis.solver.flees import calm_enemies, calm_flee_gains, flee_chain
from cardrogue.engine.analysis.solver.par import solve
from cardrogue.engine.chance.resolvers import FatedResolver
from cardrogue.engine.format.loader import load_campaign_text
from cardrogue.engine.records.replay import verify_replay
from cardrogue.engine.rules.state import COMBAT, GameState

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import gen  # noqa: E402  (the benchmarks' generators)

NO_CLOCK = 3600.0


def troll_and_goblin(**kw) -> GameState:
    """The warrior at 0,0; a troll (DOES NOT CHASE) at 1,1, a goblin at 3,0; every tile face up, open::

        S . . g
        . T . .
    """
    cells = [cell(0, 0, "starting-tile", "ES"), cell(1, 0, "pathing-tile", "ESW"), cell(2, 0, "pathing-tile", "ESW"),
             cell(3, 0, "goblin", "SW"), cell(0, 1, "pathing-tile", "NE"), cell(1, 1, "troll", "NEW"),
             cell(2, 1, "pathing-tile", "NEW"), cell(3, 1, "pathing-tile", "NW")]
    return new_state(cells, **kw)


def _relax(s: GameState) -> Relaxation:
    return Relaxation(s.campaign, s.d)


def test_a_warriors_flees_stop_beside_an_enemy_that_chases():
    """DOES NOT CHASE: "An enemy with this ability will not chase a fleeing player. Therefore, a player can
    flee without needing to roll"; ROLL A DIE: IF X: CAN FLEE: "If a WARRIOR character has this ability, he
    may flee any enemy by rolling X" (and without it, CANNOT FLEE); FLEE: "if a player ... moves adjacent to
    another enemy, the player reenters combat". The warrior beside the troll flees east onto a tile beside
    the goblin: combat again, and no flee from it. So his chain counts only the tiles beside the troll
    (three, no two of them touching: one flee a turn), not the four touching tiles beside either enemy."""
    s = play(troll_and_goblin(), "move E")
    assert s.phase == COMBAT and any(a.startswith("flee") for a in legal(s))
    play(s, "flee E")
    assert s.position == (2, 0) and s.phase == COMBAT
    assert not any(a.startswith("flee") for a in legal(s))  # the goblin chases: the warrior cannot flee it
    d = s.d
    assert [d.pos_of[j] for j in sorted(calm_enemies(d))] == [(1, 1)]
    assert flee_chain(d) == 4 and flee_chain(d, calm_enemies(d)) == 1
    assert _relax(s).flee == 1


def test_a_warrior_beside_a_troll_and_a_goblin_flees_with_the_troll_picked():
    """FLEE: "The player picks one enemy to perform step 1 of the combat turn sequence": beside both, the
    warrior flees with the troll picked, not the goblin (docs/rules.md, *Fleeing*)."""
    cells = [cell(0, 0, "starting-tile", "E"), cell(1, 0, "pathing-tile", "ESW"), cell(2, 0, "goblin", "W"),
             cell(1, 1, "troll", "NS"), cell(1, 2, "pathing-tile", "N")]
    s = play(new_state(cells), "move E")
    flees = [a for a in legal(s) if a.startswith("flee")]
    assert flees and all(a.endswith(" S") for a in flees)  # the troll is south; the goblin east is never picked


@pytest.mark.parametrize("kw", [{"character": "rogue"}, {"character": "cleric"}, {"equipped": ["shadow-cape"]},
                                {"items": ["shadow-cape"]}])
def test_the_chain_is_unchanged_for_other_heroes_and_a_warrior_with_can_flee(kw):
    """Any other character flees any enemy on a roll, and a warrior with CAN FLEE gear (the shadow cape,
    worn or only to be had) "may flee any enemy by rolling X": ``F`` counts the tiles beside every enemy."""
    s = troll_and_goblin(**kw)
    assert _relax(s).flee == flee_chain(s.d) == 4


def test_a_potion_of_teleportation_keeps_the_chain_beside_every_enemy():
    """A thrown potion of teleportation moves an enemy: the calm cards' own tiles prove nothing then."""
    s = troll_and_goblin(items=["blue-potion"], potions={"blue": "teleportation"})
    relax = _relax(s)
    assert relax.calm is None and relax.flee == flee_chain(s.d, moved=1) > flee_chain(s.d) == 4


def _open_row_map(enemies: dict) -> GameState:
    """A 5x3 level with every path open, the start at 0,2, the exit at 4,2 and goblins at ``enemies``."""
    cells = []
    for y in range(3):
        for x in range(5):
            paths = "".join(d for d, ok in (("N", y > 0), ("E", x < 4), ("S", y < 2), ("W", x > 0)) if ok)
            card = "goblin" if (x, y) in enemies else "starting-tile" if (x, y) == (0, 2) else "pathing-tile"
            cells.append(cell(x, y, card, paths, exit=(x, y) == (4, 2)))
    return new_state(cells)


def test_an_enemy_moved_by_a_potion_of_teleportation_can_join_groups_of_tiles():
    """Drunk or thrown potions: teleportation thrown at an enemy "moves it to a pathing tile of the player's
    choice" (docs/rules.md, *Items*). Goblins at 0,0 and 4,0 leave four tiles beside them, no two touching
    (a chain of one flee); the goblin of 4,0 moved to 2,1 puts four touching tiles beside the goblins. The
    chain counted with one move to come covers that, though the cards as laid do not."""
    laid = _open_row_map({(0, 0), (4, 0)}).d
    moved = _open_row_map({(0, 0), (2, 1)}).d
    assert flee_chain(laid) == 1 and flee_chain(moved) == 4
    assert flee_chain(laid, moved=1) >= flee_chain(moved)
    assert flee_chain(laid, moved=1) == 4 * 1 + 4  # four new tiles and the four groups of one tile


def test_a_potion_of_paralysis_adds_its_flees_per_potion():
    """PARALYSIS: "A player may FLEE from a paralyzed enemy without needing to roll". With potions of
    paralysis the chain stays the troll's (one a turn), and the goblin paralysed adds its tiles outside the
    troll's and the troll's tiles beside those, less the chain: 2 + 1 + 1 - 1 = 3 in a turn it is thrown
    (1,0 2,0 2,1 3,1 is such a chain: four flees), never past the chain beside every enemy (4 - 1). Two
    potions in one turn paralyse the one goblin twice: no more; in two turns, twice as much."""
    s = troll_and_goblin(items=["red-potion", "red-potion"], potions={"red": "paralysis"})
    relax = _relax(s)
    assert relax.flee == 1 and relax.para_limited
    assert relax.calm_gains == calm_flee_gains(s.d, calm_enemies(s.d)) == (0, 3)
    assert [relax.extra_flees(n) for n in range(4)] == [0, 3, 6, 9]


def test_a_paralysed_enemy_joins_two_groups_of_tiles_beside_trolls():
    """Why the potion's flees are not the paralysis paths added on top of the chain: FLEE ("if a player ...
    moves adjacent to another enemy, the player reenters combat") and PARALYSIS ("A player may FLEE from a
    paralyzed enemy without needing to roll") let a goblin paralysed between two groups of tiles beside
    trolls carry one turn's chain through both. Trolls at 0,0 1,0 3,0 4,0, a goblin at 2,0, the row below
    open to an exit at 5,1::

        T T g T T
        S . . . . X

    The chain beside the trolls is 2; with the goblin paralysed the warrior flees five times in turn 1 and
    wins (2 + 1 would be the chain plus a path beside one paralysed enemy). The gain counts the goblin's
    tile and both groups it touches, less the chain: 1 + 2 + 2 - 2 = 3."""
    cells = [cell(x, 0, "goblin" if x == 2 else "troll", "S") for x in range(5)]
    cells += [cell(x, 1, "starting-tile" if x == 0 else "pathing-tile", "N" + ("E" if x < 5 else "") + ("W" if x else ""))
              for x in range(5)]
    cells.append(cell(5, 1, "pathing-tile", "W", exit=True))
    s = new_state(cells, items=["red-potion"], potions={"red": "paralysis"})
    d = s.d
    calm = calm_enemies(d)
    assert flee_chain(d, calm) == 2 and flee_chain(d) == 5
    assert calm_flee_gains(d, calm) == (0, 3)
    play(s, "flee E", "flee E")
    assert s.position == (2, 1) and not any(a.startswith("flee") for a in legal(s))  # the goblin chases
    play(s, "throw red N", "flee E", "flee E", "flee E")
    assert s.outcome == "won" and s.turn == 1


def _mid_game_states(c, seed: int, want: int) -> list:
    """States random play reaches (throws favoured): up to ``want`` with an enemy paralysed or potions in hand."""
    rng = random.Random(seed)
    resolver = FatedResolver(c)
    out = []
    for _ in range(300):
        s = GameState.new(c, log=False)
        s.resolve(resolver)
        for _ in range(rng.randrange(1, 14)):
            moves = s.legal_actions()
            if not moves or s.is_terminal():
                break
            throws = [a for a in moves if a.verb in ("throw", "flee")]
            s.step(rng.choice(throws if throws and rng.random() < 0.6 else moves), resolver)
        if not s.is_terminal() and (s.hand or s.foes or s.phase == COMBAT):
            out.append(s)
        if len(out) >= want:
            break
    return out


def _remaining_par(c, s: GameState, below: float, states: int = 30_000) -> float | None:
    """The fewest turns after ``s.turn`` to win from ``s`` by the plain uniform-cost search where fewer than
    ``below``, else ``below`` (``helpers.turns_left_below``; None: undecided within ``states``)."""
    return turns_left_below(c, s, below, Budget(max_states=states, max_seconds=NO_CLOCK))


def _troll_map(size: int, seed: int, trolls: int, potions: int) -> dict:
    """An open map of the benchmarks (the warrior), its first ``trolls`` enemies trolls, ``potions`` potions
    of paralysis in hand."""
    doc = gen.campaign(1, size, seed=seed)
    n = 0
    for c in doc["levels"][0]["cells"]:
        if c["card"] in ("goblin", "kobold", "cave-bat", "imp") and n < trolls:
            c["card"], n = "troll", n + 1
    if potions:
        doc["potions"] = {"red": "paralysis"}
        doc["hero"]["items"] = ["red-potion"] * potions
    return doc


TROLL_MAPS = [(3, 10, 1, 2), (3, 11, 1, 2), (4, 1, 1, 2), (4, 7, 1, 0), (4, 8, 1, 2), (4, 10, 1, 2), (4, 11, 1, 0)]


@pytest.mark.parametrize("size, seed, trolls, potions", TROLL_MAPS)
def test_troll_maps_keep_the_uniform_cost_verdict(size, seed, trolls, potions):
    """Open maps with a troll among chasing enemies (and potions of paralysis): the search with the
    warrior's chain agrees with a plain uniform-cost search on par and health."""
    c = load(_troll_map(size, seed, trolls, potions))
    relax = Relaxation(c, GameState.new(c, log=False).d)
    assert relax.calm and relax.flee < flee_chain(relax.d)
    small = Budget(max_states=300_000, max_seconds=NO_CLOCK)
    fast = solve(c, 0, True, small)
    slow = solve(c, 0, True, small, reference=True)
    assert fast.verdict == SOLVED and verify_replay(fast.replay_text, c).ok
    assert (fast.verdict, fast.turns, fast.health) == (slow.verdict, slow.turns, slow.health)


@pytest.mark.parametrize("size, seed, trolls, potions", [(3, 11, 1, 2), (4, 1, 1, 2), (4, 2, 1, 2), (5, 1, 1, 0),
                                                        (5, 7, 2, 0)])
def test_the_warriors_bound_never_overestimates_mid_game(size, seed, trolls, potions):
    """Admissibility where flees count: from states random play reaches (flees and throws favoured; some
    with an enemy paralysed), the bound never exceeds the turns a plain uniform-cost search needs from
    there. (5x5 seed 1: the chain was 17 tiles, now 1; the bound reads 2 or 3 where 6 or 7 are needed.)"""
    c = load(_troll_map(size, seed, trolls, potions))
    d = GameState.new(c, log=False).d
    relax, general = Relaxation(c, d), Relaxation(c, d, every_enemy=True)
    checked = 0
    for s in _mid_game_states(c, seed, 6):
        least = relax.bound(s, True)
        left = _remaining_par(c, s, least)
        if left is None:
            continue
        assert general.bound(s, True) <= least <= left  # never weaker than the chain beside every enemy
        checked += 1
    assert checked >= 3


MIX_MAPS = [(3, "shops", 1), (3, "ladders", 0), (4, "monsters", 0), (4, "monsters", 1), (4, "traps", 2),
            (4, "potions", 2), (4, "gear", 2), (4, "chests", 0), (4, "walls", 2), (4, "ladders", 2), (4, "heroes", 1)]


@pytest.mark.parametrize("size, mix, seed", MIX_MAPS)
def test_held_out_style_maps_with_the_warriors_chain_keep_the_uniform_cost_verdict(size, mix, seed):
    """The sweep's small maps whose chain shrank (benchmarks/bench_mix.py): the same par and health as the
    uniform-cost search."""
    levels = 2 + seed % 2 if mix == "ladders" else 1
    c = load_campaign_text(gen.mixed_campaign_text(levels, size, seed, mix)).campaign
    relax = Relaxation(c, GameState.new(c, log=False).d)
    assert relax.calm is not None and relax.flee < flee_chain(relax.d)
    small = Budget(max_states=300_000, max_seconds=NO_CLOCK)
    fast = solve(c, 0, True, small)
    slow = solve(c, 0, True, small, reference=True)
    assert fast.verdict == SOLVED and verify_replay(fast.replay_text, c).ok
    assert (fast.verdict, fast.turns, fast.health) == (slow.verdict, slow.turns, slow.health)


def test_the_10x10_traps_map_of_seed_0_is_solved(monkeypatch):
    """10x10 `traps` seed 0 of the sweep (a warrior, a troll among chasing enemies): its chain was 68 tiles
    (every tile beside any enemy) and its bound at the start 0; beside the troll alone it is 2 and the
    bound 3, and the map gets par 10, its witness verified."""
    c = load_campaign_text(gen.mixed_campaign_text(1, 10, 0, "traps")).campaign
    s = GameState.new(c, log=False)
    s.resolve(FatedResolver(c))
    relax = Relaxation(c, s.d)
    # The root bound also reads the enemies' next rolls (docs/solver.md, flees on a roll): 8 of par's 10.
    assert relax.flee == 2 and 3 <= relax.bound(s, True) <= 10
    r = solve(c, 0, True, Budget(max_states=150_000, max_seconds=NO_CLOCK))
    assert (r.verdict, r.turns) == (SOLVED, 10) and verify_replay(r.replay_text, c).ok
    monkeypatch.setattr(bounds, "calm_enemies", lambda d: None)  # the chain beside every enemy, as before
    general = Relaxation(c, s.d)
    assert general.flee == 68
