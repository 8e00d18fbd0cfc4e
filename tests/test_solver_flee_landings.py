"""Flees land off the enemies' cards: the flee chain ``F`` counts the tiles beside the enemies fled, less their
cards (docs/solver.md, *Flees land off the enemies' cards*; ``flees.off_cards_chain``)."""

from helpers import cell, legal, new_state, play

from cardrogue.engine.analysis.solver import SOLVED, Budget
from cardrogue.engine.analysis.solver.bounds import Relaxation
from cardrogue.engine.analysis.solver.flees import calm_chain, calm_enemies, flee_chain
from cardrogue.engine.analysis.solver.par import solve
from cardrogue.engine.rules.state import COMBAT, DONE, GameState


def two_trolls(character: str = "warrior") -> GameState:
    """Two trolls (DOES NOT CHASE) side by side below a corridor, every card face up, every path open::

        S . . . . . E
        . . T T . . .

    The tiles beside the trolls, their cards with them, touch in one group of six ((1,1), (2,0), (2,1), (3,0),
    (3,1), (4,1)); off the cards of the trolls alive, the largest group is (2,0)-(3,0): two flees a turn."""
    cells = []
    for y in range(2):
        for x in range(7):
            paths = "".join(d for d, ok in (("N", y > 0), ("E", x < 6), ("S", y < 1), ("W", x > 0)) if ok)
            card = {(0, 0): "starting-tile", (2, 1): "troll", (3, 1): "troll"}.get((x, y), "pathing-tile")
            cells.append(cell(x, y, card, paths, **({"exit": True} if (x, y) == (6, 0) else {})))
    return new_state(cells, character=character)


def test_a_flee_lands_on_a_tile_the_hero_could_move_onto_never_an_enemy_card():
    """FLEE (docs/rules.md, *Fleeing*): "The destination is an adjacent tile the hero could move onto", and step 2
    moves "onto an ADJACENT face-up card that is not occupied by another player or enemy". Beside the west troll at
    (2,0), the warrior may flee east or west, not south onto its card; east he lands beside the other troll, fights
    it at once and flees again, east onto (4,0) (again not onto its card): two flees, the whole chain."""
    s = play(two_trolls(), "move E", "move E")
    assert s.position == (2, 0) and s.phase == COMBAT
    assert sorted(a for a in legal(s) if a.startswith("flee")) == ["flee E", "flee W"]
    play(s, "flee E")
    assert s.position == (3, 0) and s.phase == COMBAT
    assert sorted(a for a in legal(s) if a.startswith("flee")) == ["flee E", "flee W"]
    play(s, "flee E")
    assert s.position == (4, 0) and s.phase == DONE


def test_the_chain_leaves_out_the_cards_of_the_enemies_fled():
    """The warrior's chain (the trolls' tiles): six with their cards, two off them; the bound at the start rises
    from 0 to 1 turn after the first, the reference's par (2 turns: the two flees above, then two moves)."""
    s = two_trolls()
    d = s.d
    calm = calm_enemies(d)
    assert flee_chain(d, calm) == 6 and calm_chain(d, calm) == 2
    relax = Relaxation(s.campaign, d)
    assert relax.flee == 2
    assert relax.bound(s, True) == 1
    ref = solve(s.campaign, 0, True, Budget(max_states=200_000, max_seconds=3600), reference=True)
    assert ref.verdict == SOLVED and ref.turns == 2
    r = solve(s.campaign, 0, True, Budget(max_states=200_000, max_seconds=3600))
    assert (r.verdict, r.turns, r.health) == (SOLVED, ref.turns, ref.health)


def test_the_chain_of_a_state_leaves_out_the_cards_of_the_enemies_alive():
    """A rogue flees any enemy on a roll: the chain of a state (``rolls``) is over the enemies alive, here the two
    trolls, off their cards: 2, not 6; and once one troll is slain its card is a tile like any other."""
    s = two_trolls("rogue")
    relax = Relaxation(s.campaign, s.d)
    future, _, alive = relax.rolls.chains(s)
    assert len(alive) == 2 and future == 2
    west = s.d.index[0, 2, 1]
    assert relax.rolls.group(0, frozenset(alive - {west})) == 1  # beside the east troll alone: (3,0), (2,1), (4,1)
    ref = solve(s.campaign, 0, True, Budget(max_states=200_000, max_seconds=3600), reference=True)
    assert ref.verdict == SOLVED and relax.bound(s, True) <= ref.turns - 1
