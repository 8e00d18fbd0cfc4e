"""The solver on maps with potions of paralysis: the flees they allow, counted on the level as laid out.

docs/solver.md, *Potions*: a warrior flees only an enemy paralysed by a thrown potion, and the flees of
one turn follow a simple path through ADJACENT TILEs of the enemies paralysed in it. Nothing but a
potion of teleportation moves an enemy, so without one those are the level's own enemy cards.
"""

import itertools
import random
import sys
from pathlib import Path

import pytest
from helpers import cell, legal, load, new_state, play, turns_left_below

from cardrogue.engine.analysis.solver import SOLVED, Budget
from cardrogue.engine.analysis.solver import potions
from cardrogue.engine.analysis.solver.bounds import Relaxation, relaxation
from cardrogue.engine.analysis.solver.flees import level_flee_paths
from cardrogue.engine.analysis.solver.par import solve
from cardrogue.engine.chance.resolvers import FatedResolver
from cardrogue.engine.records.replay import verify_replay
from cardrogue.engine.rules.state import COMBAT, GameState
from cardrogue.engine.rules.tables import ENEMY, UP

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import gen  # noqa: E402  (the benchmarks' generator of open levels)

NO_CLOCK = 3600.0
PARALYSIS = {"red": "paralysis"}


def two_enemies_a_knights_move_apart():
    """The warrior at 0,0 holding two potions of paralysis; an enemy face down east (1,0), another face up
    at 0,2 (a knight's move from it); every other tile face up, with paths to each neighbour."""
    cells = [cell(0, 0, "starting-tile", "ES"), cell(1, 0, "goblin", "SW", face="down"),
             cell(0, 1, "pathing-tile", "NES"), cell(1, 1, "pathing-tile", "NSW"),
             cell(0, 2, "kobold", "NE"), cell(1, 2, "pathing-tile", "NSW"), cell(1, 3, "pathing-tile", "N")]
    return new_state(cells, items=["red-potion", "red-potion"], potions=PARALYSIS)


def test_two_potions_of_paralysis_flee_four_times_in_one_turn():
    """POTION OF PARALYSIS: "If thrown: the potion will cause PARALYSIS on the player or enemy it was thrown
    on for a turn"; PARALYSIS: "A player may FLEE from a paralyzed enemy without needing to roll"; FLEE: "if
    a player flips over an enemy, or moves adjacent to another enemy, the player reenters combat". So the
    flees of a turn go on while each landing is beside an enemy paralysed that turn: two potions, four
    flees along tiles beside the two enemies, which stay on their own cards (nothing but a potion of
    teleportation moves an enemy: TELEPORTING OR MOVING TO A TILE, "If an enemy is teleported adjacent to a
    player") -- the bound counts such a path on the level's own enemy cards (``flees.level_flee_paths``)."""
    s = play(two_enemies_a_knights_move_apart(), "flip E", "throw red E", "flee S", "throw red S", "flee E")
    assert s.position == (1, 1) and s.phase == COMBAT and s.hand == ()  # beside the goblin, paralysed still
    play(s, "flee S", "flee S")  # from the goblin again, then from the kobold
    assert s.position == (1, 3) and s.turn == 1
    assert s.face(1, 0) == UP and s.face(0, 2) == UP  # both enemies where their cards lie
    play(s, "end")
    assert s.view().foe_at(1, 0).paralysed == s.view().foe_at(0, 2).paralysed == 0  # "for a turn": it is over


def test_the_table_counts_that_path_on_the_level():
    """The two enemies of the scenario above allow the four flees it makes: the level's table says 4."""
    s = two_enemies_a_knights_move_apart()
    assert level_flee_paths(s.d, 3) == (0, 1, 4, 4)


def _every_group(d, most: int) -> tuple:
    """The longest path through ADJACENT TILEs of p enemy cards of a level (their own cells left out),
    every p-subset of the level's enemy cards tried (no linking, no pruning)."""
    best = [0] * (most + 1)
    for lo, hi in d.level_range:
        foes = [j for j in range(lo, hi) if d.kind[j] == ENEMY]
        for p in range(1, most + 1):
            for group in itertools.combinations(foes, p):
                tiles = {t for e in group for t in d.near[e]} - set(group)

                def longest(v, seen):
                    return 1 + max((longest(u, seen | {u}) for u in d.near[v] if u in tiles and u not in seen),
                                   default=0)

                best[p] = max([best[p]] + [longest(v, {v}) for v in tiles])
    return tuple(max(best[:p + 1]) for p in range(most + 1))


def _walled(doc: dict, seed: int) -> dict:
    """``doc`` with a third of its paths cut (both sides), at random."""
    rng = random.Random(seed)
    cells = {tuple(c["at"]): c for c in doc["levels"][0]["cells"]}
    step = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
    back = {"N": "S", "E": "W", "S": "N", "W": "E"}
    for (x, y), c in sorted(cells.items()):
        for p in c["paths"]:
            if p in "ES" and rng.random() < 0.33:
                other = cells[(x + step[p][0], y + step[p][1])]
                c["paths"] = c["paths"].replace(p, "")
                other["paths"] = other["paths"].replace(back[p], "")
    return doc


@pytest.mark.parametrize("walls", [False, True])
@pytest.mark.parametrize("size, seed", [(5, 1), (5, 4), (6, 6), (6, 9)])
def test_level_flee_paths_equal_every_group_of_enemy_cards_tried(size, seed, walls):
    """The table is the longest path beside any p enemy cards of a level, as trying every p of them finds
    (on open levels and on levels with walls between the tiles)."""
    doc = gen.campaign(1, size, seed=seed)
    if walls:
        doc = _walled(doc, seed)
    d = GameState.new(load(doc), log=False).d
    assert level_flee_paths(d, 3) == _every_group(d, 3)


def test_the_level_table_stops_where_a_level_holds_too_many_groups():
    """Past ``limit`` linked groups of a size, the table ends at the size before (the general one holds)."""
    d = GameState.new(load(gen.campaign(1, 8, seed=6)), log=False).d
    assert level_flee_paths(d, 4) == (0, 1, 4, 7, 9)
    assert len(level_flee_paths(d, 4, limit=10)) < 5


def _wall_of_enemies() -> dict:
    """An open 8x8 level, every tile face down but the start; four potions of paralysis, and four enemies in
    a column (4,2)-(4,5): the tiles beside them touch (one group of ten), but a path through the tiles
    beside p of them is a column beside the column, p tiles long."""
    doc = gen.campaign(1, 8, seed=1)
    enemies = {(4, 2), (4, 3), (4, 4), (4, 5)}
    potions_at = {(1, 1), (2, 2), (3, 3), (5, 6)}
    for c in doc["levels"][0]["cells"]:
        at = tuple(c["at"])
        if at in enemies:
            c["card"] = "goblin"
        elif at in potions_at:
            c["card"] = "red-potion"
        elif c["card"] not in ("starting-tile",) and not c.get("exit"):
            c["card"] = "pathing-tile"
    doc["potions"] = dict(PARALYSIS)
    return doc


def test_flees_beside_a_column_of_enemies_count_one_a_potion(monkeypatch):
    """Four enemies in a column: a turn's flees beside p of them pass along p tiles, so each potion of
    paralysis adds one flee (the general table lets four in one turn add sixteen, or 4 + 4 in two), and the
    bound rises where the enemies stand revealed; with a potion of teleportation in the game (it may move
    an enemy) the general table holds."""
    doc = _wall_of_enemies()
    c = load(doc)
    s = GameState.new(c, log=False)
    s.resolve(FatedResolver(c))
    relax = Relaxation(c, s.d)
    assert relax.flee_paths == (0, 1, 2, 3, 4)
    assert [relax.extra_flees(n) for n in range(5)] == [0, 1, 2, 3, 4]
    for e in [j for j in range(len(s.d.kind)) if s.d.kind[j] == ENEMY]:
        s.faces[e] = UP  # met and left alive: every potion may gain
    tight = relax.bound(s, True)
    monkeypatch.setattr(potions, "level_flee_paths", lambda d, most: ())
    general = Relaxation(c, s.d)
    general.moves_only = None  # the potion part alone (the moves of a route: tests/test_solver_para_moves.py)
    assert general.extra_flees(4) == 16 and tight > general.bound(s, True)
    monkeypatch.undo()
    doc["levels"][0]["cells"][1]["card"] = "blue-potion"
    doc["potions"]["blue"] = "teleportation"
    c = load(doc)
    assert Relaxation(c, GameState.new(c, log=False).d).flee_paths == ()


# Seed 6 of the benchmarks' 8x8 maps (four potions of paralysis): a line of 13 turns, found by the solver
# and checked by the replay verifier. In turn 11 the warrior flips the goblin (4,7) beside him, paralyses it
# and flees east; in turn 12 he steps south beside it again, flips east in the fight, paralyses it again
# and flees onto the tile just flipped: two tiles face down at the start of the turn entered in one turn.
SEED_6_IN_13 = (
    "flip E", "move E", "end", "flip S", "move S", "end", "flip E", "flip S", "move S", "end",
    "flip E", "flip S", "move S", "end", "flip E", "flip S", "move S", "end", "flip E", "flip S", "flip W",
    "move S", "end", "flip S", "flip W", "move S", "end", "flip E", "flip S", "flip W", "attack", "move E",
    "end", "flip E", "flip S", "move E", "end", "flip N", "flip E", "flip S", "move E", "end", "flip S",
    "flip N", "flip E", "throw red S", "flee E", "end", "flip N", "flip E", "flip S", "move S", "flip E",
    "throw red W", "flee E", "end", "flip E", "move E",
)


def test_seed_6_is_finished_in_13_turns_and_the_bound_allows_it():
    """The 8x8 map of seed 6 was thought to have par 14: a line of 13 turns exists (its potions gain a
    turn), so no bound may prove 14. Along that line the bound never exceeds the turns it still takes."""
    c = load(gen.campaign(1, 8, seed=6))
    resolver = FatedResolver(c)
    s = GameState.new(c, log=False)
    s.resolve(resolver)
    relax = relaxation(c, s.d)
    for action in SEED_6_IN_13:
        assert action in legal(s)
        assert relax.bound(s, True) <= 13 - s.turn, action
        s.step(action, resolver)
    assert (s.outcome, s.turn) == ("won", 13)


def _remaining_par(c, s: GameState, below: float, states: int = 20_000) -> float | None:
    """The fewest turns after ``s.turn`` to win from ``s`` by the plain uniform-cost search where fewer than
    ``below``, else ``below`` (``helpers.turns_left_below``; None: undecided within ``states``)."""
    return turns_left_below(c, s, below, Budget(max_states=states, max_seconds=NO_CLOCK))


def _mid_game_states(c, seed: int, want: int):
    """States random play reaches (from the start, potions of paralysis in hand): ``want`` just after a
    potion was thrown at an enemy (it stands paralysed, the turn goes on) and ``want`` others with potions
    still in hand or an enemy wounded, at most."""
    rng = random.Random(seed)
    resolver = FatedResolver(c)
    thrown, other = [], []
    for _ in range(400):
        s = GameState.new(c, log=False)
        s.resolve(resolver)
        after_throw = False
        for _ in range(rng.randrange(1, 16)):
            moves = s.legal_actions()
            if not moves or s.is_terminal():
                break
            throws = [a for a in moves if a.verb == "throw"]
            action = rng.choice(throws if throws and rng.random() < 0.6 else moves)
            s.step(action, resolver)
            after_throw = action.verb == "throw" and len(thrown) < want
            if after_throw:
                break
        if s.is_terminal() or not (s.hand or s.foes):
            continue
        if after_throw:
            thrown.append(s)
        elif len(other) < want:
            other.append(s)
        if len(thrown) >= want and len(other) >= want:
            break
    return thrown + other


# Seeds of the random play where the map's own seed reaches states the reference does not finish in 20,000 states (2
# of 8 on 4x4 seed 1, 1 on seed 11): from these all 8 are compared.
_WALKS = {(4, 1): 5, (4, 11): 2}


@pytest.mark.parametrize("size, seed", [(3, 11), (4, 1), (4, 2), (4, 9), (4, 11)])
def test_bound_never_overestimates_mid_game_with_potions_of_paralysis(size, seed):
    """Admissibility where flees count: from states random play reaches holding potions of paralysis
    (three from the start), many just after one was thrown (an enemy paralysed), the bound never exceeds
    the turns a plain uniform-cost search needs from there. The levels' own flee paths are in use."""
    doc = gen.campaign(1, size, seed=seed)
    doc["potions"] = PARALYSIS
    doc["hero"]["items"] = ["red-potion"] * 3
    c = load(doc)
    relax = relaxation(c, GameState.new(c, log=False).d)
    assert relax.flee_paths and relax.para_limited
    checked = paralysed = 0
    for s in _mid_game_states(c, _WALKS.get((size, seed), seed), 4):
        least = relax.bound(s, True)
        left = _remaining_par(c, s, least)
        if left is None:
            continue
        assert least <= left
        checked += 1
        paralysed += any(v[2] for v in s.foes.values())
    assert checked >= 4 and paralysed >= 2


@pytest.mark.parametrize("size, seed", [(3, 11), (4, 2), (4, 9)])
def test_potion_of_paralysis_maps_keep_the_uniform_cost_verdict(size, seed, monkeypatch):
    """With three potions of paralysis in hand from the start, the search with the levels' own flee
    paths agrees with a plain uniform-cost search on par and health."""
    doc = gen.campaign(1, size, seed=seed)
    doc["potions"] = PARALYSIS
    doc["hero"]["items"] = ["red-potion"] * 3
    c = load(doc)
    assert relaxation(c, GameState.new(c, log=False).d).flee_paths
    small = Budget(max_states=200_000, max_seconds=NO_CLOCK)
    fast = solve(c, 0, True, small)
    slow = solve(c, 0, True, small, reference=True)
    assert fast.verdict == SOLVED and verify_replay(fast.replay_text, c).ok
    assert (fast.verdict, fast.turns, fast.health) == (slow.verdict, slow.turns, slow.health)
    assert fast.states_expanded <= slow.states_expanded


def test_four_potions_in_one_turn_follow_the_level_not_four_a_potion(monkeypatch):
    """Seed 6: four enemies of its own level allow at most nine tiles of flees in one turn (sixteen was
    assumed of any four enemies anywhere)."""
    c = load(gen.campaign(1, 8, seed=6))
    d = GameState.new(c, log=False).d
    relax = Relaxation(c, d)
    assert relax.flee_paths == (0, 1, 4, 7, 9)
    assert relax.extra_flees(4) == 9
    monkeypatch.setattr(potions, "level_flee_paths", lambda d, most: ())
    assert Relaxation(c, d).extra_flees(4) == 16


def test_a_potion_on_its_cell_gains_only_after_the_walk_reaches_it(monkeypatch):
    """docs/solver.md, *Potions picked up in order*: POTIONS: "Potions are picked up by the first player
    who moves his piece onto the potion tile", so a flee it allows comes after the walk reached its cell.
    Seed 6's four potions lie 6 to 12 steps from the start, the nearest two beside each other's enemy: the
    walk to the third gains by two potions at most (the first of them by nothing: no enemy stands
    revealed), so the bound at the start is 9 turns after the first, where counting every potion's flees
    on the whole walk gave 6 (with *With potions*' half-turns for the fights after moving beside enemies
    the flees leave, counted from the turn the walk can first reach a potion, the fifth after this one: 9 since *The
    winning turn holds no gain*, 8 before it, and 6)."""
    c = load(gen.campaign(1, 8, seed=6))
    s = GameState.new(c, log=False)
    s.resolve(FatedResolver(c))
    relax = Relaxation(c, s.d)
    assert relax.ordered and relax.bound(s, True) == 9
    monkeypatch.setattr(Relaxation, "_met_allowance", lambda self, *args: (0, 0))
    assert Relaxation(c, s.d).bound(s, True) == 9
    monkeypatch.setattr(Relaxation, "_prefix_turns", lambda self, *args: 0)
    monkeypatch.setattr(Relaxation, "_prefix_least", lambda self, *args: 0)  # (the kept form of it: 0 turns)
    assert Relaxation(c, s.d).bound(s, True) == 6
    monkeypatch.undo()
    monkeypatch.setattr(Relaxation, "_prefix_turns", lambda self, *args: 0)
    monkeypatch.setattr(Relaxation, "_prefix_least", lambda self, *args: 0)
    assert Relaxation(c, s.d).bound(s, True) == 6


def test_potions_picked_up_in_order_apply_to_paralysis_alone():
    """A jump of a potion of teleportation takes the walk past its steps: with one in the game the order of
    the pickups is not counted."""
    doc = gen.campaign(1, 8, seed=6)
    doc["potions"] = {"red": "paralysis", "blue": "teleportation"}
    doc["hero"]["items"] = ["blue-potion"]
    c = load(doc)
    assert not Relaxation(c, GameState.new(c, log=False).d).ordered


def test_the_pickup_costs_found_from_the_parent_mask_equal_those_found_afresh():
    """docs/solver.md, *The first potion picked up*: the half-turns onto the nearest cell of a set of potions are
    found from the mask of the state a state came from by lowering the cells flipped since, in one search from
    all their cells; along seed 6's line of 13 turns they equal the least over the potions of a full search from
    each one's cell on every mask, from every cell."""
    c = load(gen.campaign(1, 8, seed=6))
    resolver = FatedResolver(c)
    s = GameState.new(c, log=False)
    s.resolve(resolver)
    kept, fresh = Relaxation(c, s.d), Relaxation(c, s.d)
    prev, lowered = None, 0
    for action in [*SEED_6_IN_13, None]:
        li, mask = s.level, kept.mask(s)
        hint = prev[1] if prev is not None and prev[0] == li else None
        if hint is not None and hint != mask:
            lowered += 1
        n = len(kept.pots[li])
        # Each potion alone, and each set of them (one search from all their cells: the least over them).
        for left in [(p,) for p in range(n)] + [tuple(p for p in range(n) if bits >> p & 1) for bits in range(3, 1 << n)]:
            for i in range(len(kept.local[li])):
                least = min(fresh._pickup_cost(li, mask, i, (p,)) for p in left)
                assert kept._pickup_cost(li, mask, i, left, hint) == least, (action, left, i)
        prev = (li, mask)
        if action is None or s.outcome is not None:
            break
        s.step(action, resolver)
    assert lowered >= 5
