"""A fight after moving once no potion is left to use: an enemy a thrown potion of teleportation moved beside the hero,
and the turn that enters the way out (docs/solver.md, *Visitors beside the hero and the winning turn, no potion
left*).

Rulebook, FLEE: "When a player is adjacent to multiple enemies, he is in combat with those enemies"; SLAYING AN ENEMY:
"resume his Standard Turn Sequence at step 2 if he flipped over the enemy card, or at step 4 if he moved adjacent to
the enemy"; POTION OF TELEPORTATION: "If thrown: the player who threw the potion can move the enemy or player it was
thrown on to any Pathing Tile". The paced warrior (CANNOT FLEE) with no potion left leaves a fight only by slaying
every enemy beside him, and a fight after moving leaves nothing of its turn but step 4.
"""

from __future__ import annotations

from helpers import after, bound, campaign, cell, par_line_holds, turns_left

from cardrogue.engine.analysis.solver import Budget
from cardrogue.engine.rules.state import COMBAT, DONE

NO_CLOCK = 3600  # state budgets only: a loaded machine must not change a result
SMALL = Budget(max_states=200_000, max_seconds=NO_CLOCK)
RAT = {"sewer-rat": {"health": 1}}






def test_a_fight_after_moving_beside_the_exit_leaves_no_move_to_it():
    # Two face-up tiles east to the one beside a rat standing face up (met before: not beside the tile he left), the
    # exit face up beyond. The fight after moving may flip a tile, which the bound counted as one half-turn more: the
    # exit one half-turn away, 0 turns after the first. But slaying the rat resumes at step 4 and the exit is
    # entered only by a move: 1 turn more (par 2).
    cells = [cell(0, 0, "starting-tile", "E"), cell(1, 0, "pathing-tile", "EW"), cell(2, 0, "pathing-tile", "ESW"),
             cell(2, 1, "sewer-rat", "N"), cell(3, 0, "pathing-tile", "W", exit=True)]
    c = campaign(cells, cards=RAT)
    s = after(c, ["move E", "move E"])
    assert s.phase == COMBAT and s.moved
    assert bound(c, s) == 1 == turns_left(c, s, SMALL)
    par_line_holds(c, 2, SMALL)


def _thrown_beside():
    """The rat corridor: two face-up tiles east to one beside a rat standing face up, a face-up tile, then two
    face-down ones to the exit; one potion of teleportation in hand."""
    cells = [cell(0, 0, "starting-tile", "E"), cell(1, 0, "pathing-tile", "EW"), cell(2, 0, "pathing-tile", "ESW"),
             cell(2, 1, "sewer-rat", "N"), cell(3, 0, "pathing-tile", "EW"),
             cell(4, 0, "pathing-tile", "EW", face="down"), cell(5, 0, "pathing-tile", "W", face="down", exit=True)]
    return campaign(cells, items=["red-potion"], potions={"red": "teleportation"}, cards=RAT)


def test_an_enemy_thrown_beside_the_hero_is_slain_there_and_gives_no_fight_after_moving():
    # In the fight after moving beside the rat the warrior throws his one potion at it and moves it onto the tile he
    # came from, beside him. No potion is left: the next turn begins in a fight with it, which he leaves only by
    # slaying it, from this tile. The bound counted one fight after moving for it all the same: 2 turns after the
    # first where 3 are left (5 half-turns to the exit, one face-down tile a turn); now 3.
    c = _thrown_beside()
    s = after(c, ["move E", "move E", "throw red S", "teleport 1,0"])
    assert s.phase == DONE and s.view().foe_at(1, 0) is not None  # the rat, moved beside him
    assert bound(c, s) == 3 == turns_left(c, s, SMALL)
    par_line_holds(c, 3, SMALL)


def test_an_enemy_thrown_away_from_the_hero_is_still_counted():
    # The same throw onto the start, away from him: a fight after moving beside it may still come, and the bound
    # keeps its half-turn (3 turns left; the detour beside it is no gain, which the count per enemy does not see).
    c = _thrown_beside()
    s = after(c, ["move E", "move E", "throw red S", "teleport 0,0"])
    assert s.view().foe_at(0, 0) is not None  # the rat, moved onto the start
    assert bound(c, s) <= turns_left(c, s, SMALL) == 3
