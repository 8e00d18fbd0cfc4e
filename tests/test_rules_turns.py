"""Standard turn sequence, tiles, goals and levels ("TURNS", "TILES", "GOALS", DESIGN story mode)."""

from helpers import campaign, cell, legal, new_state, play

from cardrogue.engine.rules.state import COMBAT, WON, GameState

START = cell(0, 0, "starting-tile", "E")


def corridor(*cards: str, **kw):
    """Start at 0,0 and a west-east corridor of face-up ``cards``."""
    cells = [START] + [cell(i + 1, 0, c, "EW" if i + 1 < len(cards) else "W") for i, c in enumerate(cards)]
    return new_state(cells, **kw)


def test_flip_reveals_adjacent_cards_step_1():
    """Standard turn sequence step 1: flip any or all adjacent face-down cards, then move."""
    cells = [cell(1, 1, "starting-tile", "NESW"), cell(1, 0, "pathing-tile", "S", face="down"),
             cell(2, 1, "pathing-tile", "W", face="down"), cell(1, 2, "pathing-tile", "N", face="down")]
    s = new_state(cells)
    assert legal(s) == ["flip N", "flip E", "flip S", "end"]
    play(s, "flip N", "flip E")
    assert legal(s) == ["flip S", "move N", "move E", "end"]


def test_no_flip_after_moving():
    """Step 1 comes before step 2: after a move no more flipping this turn."""
    s = play(corridor("pathing-tile", "pathing-tile"), "move E")
    assert not any(a.startswith("flip") for a in legal(s))


def test_flipping_a_trap_triggers_it():
    """Step 1: "If the card is a TRAP, the trap is triggered and inflicts the player"."""
    s = play(new_state([START, cell(1, 0, "spike-trap", "W", face="down")]), "flip E")
    assert s.health == s.max_health - 2


def test_trap_retriggers_each_time_stepped_on():
    """Traps: triggers once per stay, and "every time a player ... steps on a trap again"."""
    s = play(corridor("spike-trap", "pathing-tile"), "move E")
    assert s.health == s.max_health - 2
    play(s, "end")
    assert s.health == s.max_health - 2  # standing on it does not re-trigger
    play(s, "move E", "end", "move W")
    assert s.health == s.max_health - 4


def test_poison_trap_and_paralysis_trap():
    """TRAP OF POISON: -1 for 2 turns. TRAP OF PARALYSIS: end turn, skip the next (skipped turns count)."""
    s = play(corridor("poison-trap"), "move E", "end", "end")
    assert s.health == s.max_health - 2 and s.poison == 0
    s = play(corridor("paralysis-trap", "pathing-tile"), "move E")
    assert s.turn == 3 and "move E" in legal(s)


def test_paralysis_v10_ends_the_turn_only():
    """Updates from V1.0: in v1.0 paralysis "ends his turn OR loses a turn"."""
    s = play(corridor("paralysis-trap", "pathing-tile", rules="1.0"), "move E")
    assert s.turn == 2


def test_can_avoid_trap():
    """ROLL A DIE: IF X: CAN AVOID TRAP: the trap triggers but has no effect on a 5 or 6 (trap's stream)."""
    cells = [START, cell(1, 0, "spike-trap", "EW", rolls=[5, 2]), cell(2, 0, "pathing-tile", "W")]
    s = play(new_state(cells, character="explorer"), "move E")
    assert s.health == s.max_health
    play(s, "end", "move E", "move W")
    assert s.health == s.max_health - 2


def test_artifact_picked_up_when_flipped():
    """Artifacts: "If the card is an ARTIFACT, he must pick up the card"; story mode: a pathing tile remains."""
    s = play(new_state([START, cell(1, 0, "ring-of-might", "W", face="down")]), "flip E")
    assert s.hand == ("ring-of-might",) and s.stats.attack_roll == 2
    assert "move E" in legal(s)


def test_potion_must_be_picked_up():
    """Step 2: "If he moves onto a POTION, he MUST pick up the card"."""
    s = play(corridor("red-potion"), "move E")
    assert s.hand == ("red-potion",) and s.face(1, 0) == 2


def test_move_twice_when_only_moving():
    """Standard turn sequence: "If the only action taken ... was to move ... he may repeat his turn from step 2" (v1.1.2)."""
    s = play(corridor("pathing-tile", "pathing-tile", "pathing-tile"), "move E")
    assert "move E" in legal(s)
    play(s, "move E")
    assert "move E" not in legal(s)


def test_no_second_move_in_v10():
    """Updates from V1.0: "Players may move twice in a turn" is new in v1.1."""
    s = play(corridor("pathing-tile", "pathing-tile", rules="1.0"), "move E")
    assert "move E" not in legal(s)


def test_no_second_move_after_an_interaction():
    """Moving onto a potion (picking it up) is an interaction: no repeat."""
    s = play(corridor("red-potion", "pathing-tile"), "move E")
    assert "move E" not in legal(s)


def test_plus_x_movement():
    """+X MOVEMENT. MUST BE OUT OF COMBAT: hasty boots give one more move (and the repeat doubles it)."""
    s = play(corridor(*["pathing-tile"] * 5, equipped=["hasty-boots"]), "move E", "move E", "move E", "move E")
    assert "move E" not in legal(s) and s.position == (4, 0)


def test_moving_adjacent_to_an_enemy_enters_combat():
    """Step 3, interact: "If the player moves adjacent to an enemy, the player enters combat"."""
    s = play(corridor("pathing-tile", "goblin"), "move E")
    assert s.phase == COMBAT and legal(s)[0] == "attack"


def test_fountain_heals_at_start_of_next_turn():
    """The fountain of healing: at the beginning of the turn roll; anything but 6 heals 2 (capped at max)."""
    s = play(new_state([START, cell(1, 0, "fountain-of-healing", "EW", rolls=[3, 6]), cell(2, 0, "spike-trap", "W")]),
             "move E", "move E", "end", "move W", "end")
    assert s.health == s.max_health - 2 + 2
    play(s, "end")
    assert s.face(1, 0) == 2  # drained: a pathing tile


def test_cleric_fountains_heal_more():
    """Project: FOUNTAINS HEAL +1 MORE (cleric)."""
    cells = [START, cell(1, 0, "fountain-of-healing", "EW", rolls=[3]), cell(2, 0, "spike-trap", "W")]
    s = play(new_state(cells, character="cleric"), "move E", "move E", "end", "move W", "end")
    assert s.health == s.max_health - 2 + 2  # capped at max: heals 3 but 2 were missing


def test_shop_buy_and_sell_several_per_turn():
    """The Shop: buy at twice the gold amount, sell at the gold amount, several per turn."""
    cells = [START, cell(1, 0, "shop", "W", stock=["helm", "dagger"])]
    s = play(new_state(cells, items=["gold"] * 6 + ["red-potion"]), "move E", "buy helm")
    assert s.gold == 0 and "helm" in s.hand
    play(s, "sell red-potion", "sell helm")
    assert s.gold == 5 and "buy dagger" not in legal(s)


def test_bard_buys_cheaper():
    """Project: BUYS AT 1 GOLD LESS."""
    cells = [START, cell(1, 0, "shop", "W", stock=["helm"])]
    s = play(new_state(cells, character="bard", items=["gold"] * 5), "move E", "buy helm")
    assert s.gold == 0


def test_shopkeepers_debt_goal():
    """THE SHOPKEEPER'S DEBT: bought at twice its gold, removed from the game; meets a buy goal."""
    cells = [START, cell(1, 0, "shop", "EW", stock=["shopkeepers-debt"]),
             cell(2, 0, "pathing-tile", "W", exit=True)]
    s = new_state(cells, items=["gold"] * 20, goals=[("buy", "shopkeepers-debt")])
    play(s, "move E")
    assert "move E" not in legal(s)
    play(s, "buy shopkeepers-debt", "end", "move E")
    assert s.outcome == WON and "shopkeepers-debt" not in s.hand


def test_chest_needs_key():
    """THE CHEST AND KEY: the chest blocks its cell until the hero carries the key; then contents to hand."""
    cells = [START, cell(1, 0, "chest", "W", contents=["sword"])]
    s = new_state(cells)
    assert "move E" not in legal(s)
    s = play(new_state(cells, items=["key"]), "move E")
    assert s.hand == ("sword",)


def test_slay_goal_before_exit_and_score():
    """Goals must be met before an exit; winning scores (turns, health)."""
    cells = [START, cell(1, 0, "pathing-tile", "EW", exit=True)]
    s = new_state(cells)
    play(s, "move E")
    assert s.outcome == WON and s.score == (1, 12)


def test_ladder_goes_to_next_level_and_turns_carry_over():
    """DESCENDING LADDER: moving onto it ends the turn; the next turn starts on the next level's starting tile."""
    second = {"id": "two", "width": 2, "height": 1,
              "cells": [cell(0, 0, "starting-tile", "E"), cell(1, 0, "pathing-tile", "W", exit=True)]}
    cells = [START, cell(1, 0, "descending-ladder", "W", to="two")]
    s = new_state(cells, levels=[second], items=["red-potion"])
    play(s, "move E")
    assert s.level == 1 and s.position == (0, 0) and s.turn == 2 and s.hand == ("red-potion",)
    play(s, "move E")
    assert s.outcome == WON and s.score[0] == 2


def test_ladder_needs_goals():
    """Level goals (slay) must be met before using a ladder."""
    second = {"id": "two", "width": 1, "height": 1, "cells": [cell(0, 0, "starting-tile", "", exit=True)]}
    cells = [cell(1, 0, "starting-tile", "EW"), cell(0, 0, "cave-bat", "E", face="down", rolls=[5]),
             cell(2, 0, "descending-ladder", "W", to="two")]
    s = new_state(cells, levels=[second], goals=[("slay", "cave-bat")])
    assert "move E" not in legal(s)
    play(s, "flip W", "attack")
    assert "move E" in legal(s)


def test_start_level_by_id():
    c = campaign([START], levels=[{"id": "two", "width": 1, "height": 1, "cells": [cell(0, 0, "starting-tile", "")]}])
    assert GameState.new(c, level="two").level == 1
