"""The moves of a route for the warrior who flees only a paralysed enemy (docs/solver.md, *Paralysis: the
moves of a route*).

Rulebook, FLEE: "When a player is adjacent to multiple enemies, he is in combat with those enemies. The
player picks one enemy to perform step 1"; PARALYSIS: "A player may FLEE from a paralyzed enemy without
needing to roll"; POTION OF PARALYSIS: "If thrown: the potion will cause PARALYSIS on the player or enemy it
was thrown on for a turn". A flee leaves a tile beside the enemy fled, an enemy card of the level still alive
(nothing but a potion of teleportation moves one: docs/rules.md "Traps never meet enemies"); every other step
is a move, and a turn's moves enter two tiles face up or one face down whatever potions the hero holds.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from helpers import campaign, cell, load, open_grid, started, turns_left_below

from cardrogue.engine.analysis.solver import SOLVED, Budget
from cardrogue.engine.analysis.solver.bounds import Relaxation, relaxation
from cardrogue.engine.analysis.solver.par import solve
from cardrogue.engine.analysis.solver.result import INF
from cardrogue.engine.rules.state import GameState

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import gen  # noqa: E402  (the benchmarks' generator of maps)

NO_CLOCK = 3600  # state budgets only: a loaded machine must not change a result
SMALL = Budget(max_states=200_000, max_seconds=NO_CLOCK)
PARALYSIS = {"red": "paralysis"}


def _moves_bound(c, s: GameState) -> float:
    """The turns after ``s.turn`` the moves of the best route need, alone (not combined with the potion
    bound, which it may not beat where it is loose)."""
    relax = relaxation(c, s.d)
    r0, k0 = relax.remaining(s)
    h0 = r0 + k0 if r0 + k0 < 2 else 2
    li, mask = s.level, relax.mask(s)
    i = s.pos - s.d.level_range[li][0]
    routes = relax.routes(li, mask, i, True)
    return relax._paced_moves(li, mask, None, i, routes, h0, relax.moves_only.alive(s))


def _wander(c, rng: random.Random, bold: bool = False) -> GameState:
    """A state random play reaches in 1 to 13 actions from the start; ``bold``: half the time a throw, a flee or
    a flip when one is legal."""
    s, resolver = started(c)
    for _ in range(rng.randrange(1, 14)):
        legal = s.legal_actions()
        if not legal or s.is_terminal():
            break
        if bold:
            chosen = [a for a in legal if a.verb in ("throw", "flee", "flip")]
            s.step(rng.choice(chosen if chosen and rng.random() < 0.5 else legal), resolver)
        else:
            s.step(rng.choice(legal), resolver)
    return s


def _remaining(c, s: GameState, below: float = INF) -> float | None:
    """The fewest turns after ``s.turn`` to win from ``s``, by the plain uniform-cost search (None: no win
    found within 20,000 states); given ``below``, those turns where fewer, else ``below`` (``helpers.turns_left_below``:
    the search cut there, all an admissibility check ``bound <= turns left`` needs of it)."""
    return turns_left_below(c, s, below, Budget(max_states=20_000, max_seconds=NO_CLOCK))


def test_tiles_entered_away_from_enemies_are_moves_whatever_potions_are_held():
    # The warrior holds two potions of paralysis; a row of six face-down tiles leads to the exit, and the
    # only enemy (a goblin, face up) stands beside the first. He flips it, moves onto it, flips the next in
    # the fight, paralyses the goblin and flees onto that tile: two tiles face down in turn 1. Every other
    # tile is entered from a tile beside no enemy, by a move: one face-down tile a turn, par 5. The potion
    # bound allowed their flees anywhere (3 turns after the first); the moves count gives 4.
    cells = [cell(0, 0, "starting-tile", "E"), cell(1, 0, "pathing-tile", "ESW", face="down")]
    cells += [cell(x, 0, "pathing-tile", "EW", face="down") for x in range(2, 6)]
    cells += [cell(6, 0, "pathing-tile", "W", face="down", exit=True), cell(1, 1, "goblin", "N")]
    c = campaign(cells, items=["red-potion", "red-potion"], potions=PARALYSIS, cards={"goblin": {"health": 40}})
    s, _ = started(c)
    assert relaxation(c, s.d).bound(s, True) == 4
    fast, slow = solve(c, 0, True, SMALL), solve(c, 0, True, SMALL, reference=True)
    assert (fast.verdict, fast.turns, fast.health) == (slow.verdict, slow.turns, slow.health) == (SOLVED, 5, slow.health)
    assert "throw red S" in fast.actions


def _within_on_wanders(c, seed: int) -> None:
    """The bound stays within the turns left on 30 states random play reaches (at least one of them decided)."""
    rng = random.Random(seed)
    checked = 0
    for _ in range(30):
        s = _wander(c, rng, bold=True)
        least = relaxation(c, s.d).bound(s, True)
        left = _remaining(c, s, least)
        if left is not None:
            assert least <= left, (s.turn, s.phase, s.pos)
            checked += 1
    assert checked


# The 5x5 `potions` map of seed 5: 6 of the 8 states its walks reach are beyond the reference's 20,000 states (about
# 6 s of CPU for no comparison; other walk seeds do no better), so the next such map (seed 20: 7 of 8 compared) takes
# its place (tests cheaper, same checks: benchmarks/RESULTS.md, sweeps26).
_UNDECIDED = {("potions", 5, 5)}
# Seeds of the walks where those of the map's own seed reach states the reference does not finish (2 of 8 each): with
# these every walk is compared.
_WALKS = {("potions", 5, 15): 3, ("ladders", 4, 1): 4}


def _maps() -> list[tuple[str, int, int]]:
    """Small generated maps of the warrior with potions of paralysis where the rule is on (``_UNDECIDED``)."""
    out = []
    for mix, size, seeds in (("potions", 4, range(40, 80)), ("potions", 5, range(0, 50)), ("ladders", 4, range(0, 48)),
                             ("ladders", 3, range(40, 70))):
        found = 0
        for seed in seeds:
            if (mix, size, seed) in _UNDECIDED:
                continue
            c = load(gen.mixed_campaign(1, size, seed, mix))
            s, _ = started(c)
            if relaxation(c, s.d).moves_only is not None:
                out.append((mix, size, seed))
                found += 1
                if found == 3:
                    break
    return out


@pytest.mark.parametrize("mix, size, seed", _maps())
def test_moves_count_never_overestimates_with_potions_of_paralysis(mix, size, seed):
    """Admissibility on states random play reaches (potions thrown, enemies fled and left alive, fights
    after moving) and along the witness: the moves count alone never exceeds the turns a plain uniform-cost
    search needs from there, and the search with it finds the uniform-cost search's par and health."""
    c = load(gen.mixed_campaign(1, size, seed, mix))
    fast = solve(c, 0, True, SMALL)
    slow = solve(c, 0, True, SMALL, reference=True)
    assert (fast.verdict, fast.turns, fast.health) == (slow.verdict, slow.turns, slow.health)
    rng = random.Random(_WALKS.get((mix, size, seed), seed))
    checked = 0
    for _ in range(8):
        s = _wander(c, rng, bold=True)
        if s.is_terminal():
            continue
        least = max(_moves_bound(c, s), relaxation(c, s.d).bound(s, True))
        left = _remaining(c, s, least)
        if left is not None:
            assert _moves_bound(c, s) <= left
            assert relaxation(c, s.d).bound(s, True) <= left
            checked += 1
    assert checked >= 4
    if fast.verdict == SOLVED:
        s, resolver = started(c)
        for action in fast.actions:
            assert _moves_bound(c, s) <= fast.turns - s.turn, action
            s.step(action, resolver)


def test_moves_count_along_the_13_turn_line_of_the_8x8_map_of_seed_6():
    """The 8x8 map of seed 6 has a verified line of 13 turns that gains a turn by its potions (its goblin
    met, left paralysed, met again): the moves count stays within the turns it still takes."""
    from test_solver_paralysis import SEED_6_IN_13

    c = load(gen.campaign(1, 8, seed=6))
    s, resolver = started(c)
    assert relaxation(c, s.d).moves_only is not None
    for action in SEED_6_IN_13:
        assert _moves_bound(c, s) <= 13 - s.turn, action
        s.step(action, resolver)
    assert (s.outcome, s.turn) == ("won", 13)


@pytest.mark.parametrize("size, seed", [(8, 6), (8, 43)])
def test_half_turns_updated_from_the_state_before_equal_the_plain_ones(size, seed):
    """The half-turns of the moves, updated from the mask of the state a state came from, equal a search
    from scratch for every mask a solve met."""
    c = load(gen.campaign(1, size, seed=seed))
    solve(c, 0, True, Budget(max_states=3_000, max_seconds=NO_CLOCK))
    s, _ = started(c)
    moves = relaxation(c, s.d).moves_only
    kept = list(moves._halves.items())
    assert len(kept) > 10
    for (li, foes, mask), counts in kept:
        moves._halves.clear()
        assert moves.halves(li, foes, mask) == counts


def test_a_fight_after_moving_flips_a_tile_for_the_next_turn():
    # The warrior walks two face-up tiles to one beside a rat standing face up (1 health), and fights it
    # there: FLEE, "a player may flip over adjacent face-down exploration cards"; he flips the tile east,
    # slays the rat and the turn ends (SLAYING AN ENEMY: "resume ... at step 4 if he moved adjacent to the
    # enemy"). Turn 2 moves twice, onto the tile flipped and the exit: par 2. Counting that tile as face down
    # (two half-turns) when the turn began made the paced bound 2 turns after the first; a fight after
    # moving beside an enemy met before gives its turn one tile more.
    cells = [cell(0, 0, "starting-tile", "E"), cell(1, 0, "pathing-tile", "EW"), cell(2, 0, "pathing-tile", "ESW"),
             cell(3, 0, "pathing-tile", "SW", face="down"), cell(3, 1, "pathing-tile", "N", exit=True),
             cell(2, 1, "sewer-rat", "N")]
    c = campaign(cells, cards={"sewer-rat": {"health": 1}})
    s, _ = started(c)
    assert relaxation(c, s.d).bound(s, True) <= 1
    fast, slow = solve(c, 0, True, SMALL), solve(c, 0, True, SMALL, reference=True)
    assert (fast.verdict, fast.turns, fast.health) == (slow.verdict, slow.turns, slow.health) == (SOLVED, 2, slow.health)
    assert fast.actions[:4] == ("move E", "move E", "flip E", "attack")


def _along_and_around(c, turns: int, walks: int | None = None) -> list[tuple[GameState, int]]:
    """(state, turns left) along the uniform-cost search's witness (which must take ``turns``), then at states
    random play reaches (a throw, a flee or a flip half the time; the walks drawn from seed ``walks``, else
    ``turns``) that it can still win from (there the turns left where fewer than the bound, else the bound: all
    that ``bound <= turns left`` reads)."""
    slow = solve(c, 0, True, SMALL, reference=True)
    assert (slow.verdict, slow.turns) == (SOLVED, turns)
    out = []
    s, resolver = started(c)
    for action in slow.actions:
        out.append((s.clone(), slow.turns - s.turn))
        s.step(action, resolver)
    rng = random.Random(turns if walks is None else walks)
    for _ in range(10):
        s = _wander(c, rng, bold=True)
        if not s.is_terminal():
            left = _remaining(c, s, relaxation(c, s.d).bound(s, True))
            if left is not None:
                out.append((s, left))
    return out


def _bound_holds_past_turn_2(c, turns: int, walks: int | None = None) -> None:
    """The bound is never above the turns left at the states of :func:`_along_and_around`, which pass the start of
    turn 2 (where the fight after moving of these maps is still to come)."""
    seen = []
    for s, left in _along_and_around(c, turns, walks):
        assert relaxation(c, s.d).bound(s, True) <= left, (s.turn, s.phase, s.pos)
        seen.append(s.turn)
    assert 2 in seen  # (the witness passes the start of turn 2)


@pytest.mark.parametrize("potions", [1, 2])
def test_a_fight_after_moving_beside_an_enemy_fled_before_flips_a_tile_for_the_next_turn(potions):
    # The warrior starts beside a goblin (40 health) holding a potion of paralysis (or two): he throws it and
    # flees east (turn 1). Turn 2 walks two face-up tiles to one beside a rat standing face up (1 health), flips
    # the tile east in the fight and slays the rat; turn 3 moves onto that tile and the exit: par 3. At the start
    # of turn 2 the potion bound read the tile flipped in the fight as face down when turn 3 begins and said 2
    # more turns (docs/solver.md, *A fight after moving beside an enemy met before*, *With potions*): with no
    # potion left, and with one still in hand.
    cells = [cell(0, 0, "starting-tile", "ES"), cell(0, 1, "goblin", "N"), cell(1, 0, "pathing-tile", "EW"),
             cell(2, 0, "pathing-tile", "EW"), cell(3, 0, "pathing-tile", "ESW"), cell(3, 1, "sewer-rat", "N"),
             cell(4, 0, "pathing-tile", "EW", face="down"), cell(5, 0, "pathing-tile", "W", exit=True)]
    c = campaign(cells, items=["red-potion"] * potions, potions=PARALYSIS,
                 cards={"sewer-rat": {"health": 1}, "goblin": {"health": 40}})
    _bound_holds_past_turn_2(c, 3)
    fast = solve(c, 0, True, SMALL)
    assert (fast.verdict, fast.turns) == (SOLVED, 3)


@pytest.mark.parametrize("potions", [3, 4])
def test_a_chain_of_three_flees_leaves_its_enemies_met_for_a_fight_after_moving(potions):
    # PARALYSIS: "A player may FLEE from a paralyzed enemy without needing to roll"; FLEE: "if a player ... moves
    # adjacent to another enemy, the player reenters combat". Turn 1 begins beside the first of three goblins (40
    # health) in a row under the corridor: the warrior throws a potion of paralysis at it and flees east, beside
    # the second, and again, and again: three flees in one turn, the goblins left alive and face up. Turn 2 walks
    # two tiles to one beside a rat (1 health), flips the tile east in the fight and slays it; turn 3 moves onto
    # that tile and the exit: par 3. The bound at the start of turn 2 must allow that flip (1 more turn), with no
    # potion left and with one still in hand.
    cells = [cell(0, 0, "starting-tile", "ES"), cell(1, 0, "pathing-tile", "ESW"), cell(2, 0, "pathing-tile", "ESW"),
             cell(3, 0, "pathing-tile", "EW"), cell(4, 0, "pathing-tile", "EW"), cell(5, 0, "pathing-tile", "ESW"),
             cell(6, 0, "pathing-tile", "EW", face="down"), cell(7, 0, "pathing-tile", "W", exit=True),
             cell(0, 1, "goblin", "N"), cell(1, 1, "goblin", "N"), cell(2, 1, "goblin", "N"), cell(5, 1, "sewer-rat", "N")]
    c = campaign(cells, items=["red-potion"] * potions, potions=PARALYSIS,
                 cards={"sewer-rat": {"health": 1}, "goblin": {"health": 40}})
    _bound_holds_past_turn_2(c, 3)
    fast = solve(c, 0, True, SMALL)
    assert (fast.verdict, fast.turns) == (SOLVED, 3)
    assert fast.actions[:6] == ("throw red S", "flee E") * 3


def test_a_fight_after_moving_with_a_potion_left_for_a_later_flee():
    # As above (the goblin fled in turn 1, the tile east of the rat flipped in the fight of turn 2), and the
    # second potion is thrown in turn 3: beside a second goblin after two moves, the warrior flips east, paralyses
    # it and flees onto the tile just flipped; turn 4 flips the exit and moves onto it: par 4. At the start of turn
    # 2 the potion still in hand counts its own flee (two half-turns): the flip of turn 2's fight is more, and the
    # bound must allow it while potions are left (docs/solver.md, *With potions*: it said 3 more turns, not 2).
    cells = [cell(0, 0, "starting-tile", "ES"), cell(0, 1, "goblin", "N"), cell(1, 0, "pathing-tile", "EW"),
             cell(2, 0, "pathing-tile", "EW"), cell(3, 0, "pathing-tile", "ESW"), cell(3, 1, "sewer-rat", "N"),
             cell(4, 0, "pathing-tile", "EW", face="down"), cell(5, 0, "pathing-tile", "ESW"), cell(5, 1, "goblin", "N"),
             cell(6, 0, "pathing-tile", "EW", face="down"), cell(7, 0, "pathing-tile", "W", face="down", exit=True)]
    c = campaign(cells, items=["red-potion"] * 2, potions=PARALYSIS,
                 cards={"sewer-rat": {"health": 1}, "goblin": {"health": 40}})
    # The walks of seed 4 reached 8 states the reference does not finish in 20,000 states (4 s of CPU, nothing
    # compared); those of seed 6 reach 2 it finishes.
    _bound_holds_past_turn_2(c, 4, walks=6)
    fast = solve(c, 0, True, SMALL)
    assert (fast.verdict, fast.turns) == (SOLVED, 4)


def _fled_then_met(c, rng: random.Random) -> list[GameState]:
    """States random play reaches (a throw, a flee or a flip more often than not) in which an enemy the hero fled
    from stands face up and alive: left to be met so (docs/solver.md, *With potions*)."""
    out = []
    for _ in range(200):
        s, resolver = started(c)
        fled = set()
        for _ in range(rng.randrange(2, 20)):
            legal = s.legal_actions()
            if not legal or s.is_terminal():
                break
            chosen = [a for a in legal if a.verb in ("throw", "flee", "flip")]
            action = rng.choice(chosen if chosen and rng.random() < 0.6 else legal)
            if action.verb == "flee":
                fled |= {e for _, e in s.adjacent_enemies()}
            s.step(action, resolver)
            if not s.is_terminal() and fled & {e for _, e in s.revealed_enemies()}:
                out.append(s.clone())
        if len(out) > 40:
            break
    return out[::3]


@pytest.mark.parametrize("mix, size, seed", [("potions", 5, 51), ("potions", 4, 85)])
def test_bound_never_overestimates_after_a_flee_from_a_paralysed_enemy(mix, size, seed):
    """Generated maps of the paced warrior with potions of paralysis where random play flees a paralysed enemy
    and leaves it alive: from those states the bound never exceeds the turns a plain uniform-cost search needs."""
    c = load(gen.mixed_campaign(1, size, seed, mix))
    s, _ = started(c)
    relax = relaxation(c, s.d)
    assert relax.paced and relax.para_total
    checked = 0
    for s in _fled_then_met(c, random.Random(seed)):
        least = relaxation(c, s.d).bound(s, True)
        left = _remaining(c, s, least)
        if left is not None:
            assert least <= left, (s.turn, s.phase, s.pos)
            checked += 1
    assert checked


# Seed 2 of the 5x5 `walls` mix has no win: the search proves it unsolvable, and neither the reference (200,000
# states) nor the turns left from its wandered states (20,000 each) finish, so no bound of it was ever compared
# (about 20 s of CPU for no assertion). The next such map (seed 10, par 9) takes its place.
_NO_WIN = {("walls", 5, 2)}


def _met_maps() -> list[tuple[str, int, int]]:
    """Small generated maps of the paced warrior with an enemy card face up (the `walls` mix turns cards up),
    that can be won (``_NO_WIN``)."""
    out = []
    for size in (4, 5):
        for seed in range(60):
            if ("walls", size, seed) in _NO_WIN:
                continue
            c = load(gen.mixed_campaign(1, size, seed, "walls"))
            s, _ = started(c)
            relax = relaxation(c, s.d)
            if relax.paced and not relax.items and relax._met_foes[0] is not None:
                out.append(("walls", size, seed))
                if len(out) % 4 == 0:
                    break
    return out


@pytest.mark.parametrize("mix, size, seed", _met_maps())
def test_bound_never_overestimates_beside_enemies_met_before(mix, size, seed):
    """The paced bound with enemies standing face up (a fight after moving beside one may flip a tile for the
    next turn): never above the turns a plain uniform-cost search needs, on states random play reaches and
    along the witness; the search finds the uniform-cost search's par and health."""
    c = load(gen.mixed_campaign(1, size, seed, mix))
    fast = solve(c, 0, True, SMALL)
    slow = solve(c, 0, True, SMALL, reference=True)
    assert (fast.verdict, fast.turns, fast.health) == (slow.verdict, slow.turns, slow.health)
    rng = random.Random(seed)
    for _ in range(8):
        s = _wander(c, rng)
        if s.is_terminal():
            continue
        least = relaxation(c, s.d).bound(s, True)
        left = _remaining(c, s, least)
        if left is not None:
            assert least <= left
    if fast.verdict == SOLVED:
        s, resolver = started(c)
        for action in fast.actions:
            assert relaxation(c, s.d).bound(s, True) <= fast.turns - s.turn, action
            s.step(action, resolver)


def _open(w: int, h: int, potions: tuple, goblins: tuple):
    """A ``w`` x ``h`` level with every path open and every card face down but the start (top left); the exit bottom
    right, potions of paralysis and goblins where named."""
    return campaign(open_grid(w, h, {**dict.fromkeys(goblins, "goblin"), **dict.fromkeys(potions, "red-potion")}),
                    potions=PARALYSIS)


def test_no_enemy_is_met_so_before_the_walk_first_stands_on_a_potion(monkeypatch):
    """docs/solver.md, *The first potion picked up*. Combat: "When a player flips over an ENEMY, or a player moves
    to an ADJACENT TILE of a revealed enemy, that player must enter combat"; the warrior CANNOT FLEE but from an
    enemy he paralysed (PARALYSIS: "A player may FLEE from a paralyzed enemy without needing to roll"), with a potion
    from his hand (POTIONS: "Potions are picked up by the first player who moves his piece onto the potion tile").
    So on a 3x4 map whose one potion lies three tiles from the start, no fight after moving beside an enemy met
    before can come before the third turn: the bound at the start is the 4 turns after the first that the plain
    uniform-cost search needs (3 when a gain was allowed from this turn on), and it is never above the turns left
    on states random play reaches."""
    c = _open(3, 4, ((2, 2),), ((1, 0), (2, 1)))
    s, _ = started(c)
    assert relaxation(c, s.d).bound(s, True) == 4 == _remaining(c, s)
    monkeypatch.setattr(Relaxation, "_first_gain", lambda self, *args: 0)
    monkeypatch.setattr(Relaxation, "_lone_flee", lambda self, *args: False)  # (*One flee left* gives 4 too)
    assert Relaxation(c, s.d).bound(s, True) == 3
    monkeypatch.undo()
    _within_on_wanders(c, 3)


@pytest.mark.parametrize("seed, before, after", [(9, 8, 11), (10, 8, 10), (16, 8, 11)])
def test_the_first_potion_picked_up_on_the_8x8_maps(monkeypatch, seed, before, after):
    """The 8x8 maps whose potions of paralysis all lie on their cells, 10 to 16 half-turns from the start: the gains
    of fights after moving beside enemies a flee left come only from the second turn after the walk can first hold
    one, and the bound at the start rises (docs/solver.md, *The first potion picked up*, *The first flee holds no
    gain*), still below the turns of their par lines
    (``test_8x8_par_lines_proved_before_the_gap_fixes_keep_the_bound_within_their_turns``)."""
    c = load(gen.campaign(1, 8, seed=seed))
    s, _ = started(c)
    assert relaxation(c, s.d).bound(s, True) == after
    monkeypatch.setattr(Relaxation, "_first_gain", lambda self, *args: 0)
    assert Relaxation(c, s.d).bound(s, True) == before


def _old_first_gain(self, li, mask, i, left, held, r0, hint=None):
    """``_first_gain`` before *The first flee holds no gain* (docs/solver.md): the first gain in the turn after the
    walk can first hold a potion (``J1 + 1``), or in the turn it can hold two, or in this turn with two at hand."""
    if held >= 2:
        return 0
    j1 = 0 if held else self._first_tele_gain(li, mask, i, left, r0, hint)
    return None if j1 is None else j1 + 1


@pytest.mark.parametrize("potion, held, goblins, before, after", [
    ((1, 0), 0, ((0, 1), (2, 1)), 2, 3),  # the potion one tile east of the start: picked up in turn 1
    (None, 2, ((1, 0), (2, 0)), 1, 2),  # two potions in hand from the start
])
def test_the_first_flee_holds_no_gain(monkeypatch, potion, held, goblins, before, after):
    """docs/solver.md, *The first flee holds no gain*. Combat: "When a player flips over an ENEMY, or a player moves to
    an ADJACENT TILE of a revealed enemy, that player must enter combat"; FLEE: "if a player flips over an enemy, or
    moves adjacent to another enemy, the player reenters combat"; PARALYSIS: "A player may FLEE from a paralyzed enemy
    without needing to roll"; FLEEING FROM AN ENEMY: "the player can resume his Standard Turn Sequence at step 4". With
    no enemy standing revealed away from him, the warrior's first flee leaves a fight at the turn's first tile and
    lands beside no enemy revealed, so that turn holds no fight after moving: the first gain comes a turn after the
    first flee, and the first flee a turn after the walk first stands on a potion's cell (POTIONS: "Potions are picked
    up by the first player who moves his piece onto the potion tile"; nothing follows that move in its turn). On
    these 3x3 maps (goblins of 40 health, every card face down but the start) the bound at the start rises by a turn,
    to the turns the plain uniform-cost search needs, and stays within the turns left on states random play
    reaches."""
    cells = []
    for y in range(3):
        for x in range(3):
            paths = "".join(d for d, ok in (("N", y > 0), ("E", x < 2), ("S", y < 2), ("W", x > 0)) if ok)
            card = ("starting-tile" if (x, y) == (0, 0) else "red-potion" if (x, y) == potion
                    else "goblin" if (x, y) in goblins else "pathing-tile")
            extra = {"exit": True} if (x, y) == (2, 2) else {}
            cells.append(cell(x, y, card, paths, face="up" if (x, y) == (0, 0) else "down", **extra))
    c = campaign(cells, items=["red-potion"] * held, potions=PARALYSIS, cards={"goblin": {"health": 40}})
    s, _ = started(c)
    assert relaxation(c, s.d).bound(s, True) == after == _remaining(c, s)
    monkeypatch.setattr(Relaxation, "_first_gain", _old_first_gain)
    monkeypatch.setattr(Relaxation, "_lone_flee", lambda self, *args: False)  # (*One flee left* lifts the first too)
    allowance = Relaxation._met_allowance
    monkeypatch.setattr(Relaxation, "_met_allowance",  # (and *The winning turn holds no gain*)
                        lambda self, *args: (lambda most, c: (most, c + 1))(*allowance(self, *args)))
    assert Relaxation(c, s.d).bound(s, True) == before
    monkeypatch.undo()
    _within_on_wanders(c, 5)


def _open_grid(w: int, h: int, goblins: set, potions: set, held: int, up=frozenset({(0, 0)})):
    """An open w x h map: the start at (0, 0), the exit at the far corner, goblins of 6 health and potions of
    paralysis on the cells given, ``held`` more in hand, the tiles ``up`` face up and every other face down."""
    cells = open_grid(w, h, {**dict.fromkeys(goblins, "goblin"), **dict.fromkeys(potions, "red-potion")}, up)
    return campaign(cells, items=["red-potion"] * held, potions=PARALYSIS, cards={"goblin": {"health": 6}})



def test_a_move_beside_an_enemy_revealed_away_from_the_warrior_may_still_start_a_flee_this_turn():
    """Combat: "When a player is adjacent to an enemy ... he is in combat"; POTION OF PARALYSIS, "If thrown: the
    potion will cause PARALYSIS on the player or enemy it hits"; PARALYSIS: "A player may FLEE from a paralyzed enemy
    without needing to roll". Past step 1 and out of combat, a move onto a tile beside an enemy revealed before (not
    beside the warrior now) starts a fight, and a flee from it can come this turn. On this 3x4 map (goblins of 6
    health at (0,3), (1,0), (1,2), potions of paralysis on (1,1) and (2,1), one in hand), after the line below the
    warrior stands in turn 4, moving, and the plain uniform-cost search wins in 2 more turns; a rule that put the first
    gain two turns on once no fight was left of the turn (found unsound by a review) said 3."""
    c = _open_grid(3, 4, {(0, 3), (1, 0), (1, 2)}, {(1, 1), (2, 1)}, held=1)
    s, resolver = started(c)
    for action in ("drink red", "flip E", "flip S", "attack", "move S", "end", "flip S", "flip E", "move E"):
        s.step(action, resolver)
    assert _remaining(c, s) == 2
    assert relaxation(c, s.d).bound(s, True) <= 2


def test_a_potion_picked_up_between_the_two_tiles_beside_an_enemy_revealed_later():
    """docs/solver.md, *The potion a gain needs is in hand* (``_paired_walk``). Paralysis: "A player may flee from a
    paralyzed enemy without needing to roll"; Flee: "if a player flips over an enemy, or moves adjacent to another
    enemy, the player reenters combat"; Potions: "Potions are picked up by the first player who moves his piece onto
    the potion tile." On this 4x3 map (a goblin of 6 health face down at (2,1), potions of paralysis on (1,1) and
    (1,2), two in hand; the warrior drinks both, the turns skip), in turn 5 at (1,1) with a potion picked up, he flips
    the goblin beside him, throws the potion, flees onto (1,2) picking the other up; next turn he moves beside the
    goblin again at (2,2), throws it and flees onto the exit: the walk stands beside the goblin on either side of a
    potion. The plain uniform-cost search wins in 1 more turn; the bound that read only walks standing beside it
    twice between two pickups (or before the first) said 2."""
    c = _open_grid(4, 3, {(2, 1)}, {(1, 1), (1, 2)}, held=2, up={(0, 0), (0, 2)})
    s, resolver = started(c)
    for action in ("flip E", "flip S", "move S", "drink red", "flip E", "move E", "drink red"):
        s.step(action, resolver)
    assert (s.turn, s.pos) == (5, 5)
    assert relaxation(c, s.d).bound(s, True) == 1 == _remaining(c, s)
