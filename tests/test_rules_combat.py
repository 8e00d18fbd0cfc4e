"""Combat rules ("TURNS > Combat" and the Clarifications), one test per rule."""

from helpers import cell, new_state, play

from cardrogue.engine.rules.state import COMBAT, DEAD, DONE, MOVING
from cardrogue.engine.rules.view import Face

START = cell(0, 0, "starting-tile", "E")


def fight(enemy: str, rolls, *, character="warrior", equipped=(), cards=None, items=(), extra=()):
    """Hero on the start, ``enemy`` face down to the east with scripted rolls."""
    cells = [START, cell(1, 0, enemy, "W", face="down", rolls=list(rolls)), *extra]
    return new_state(cells, character=character, equipped=equipped, cards=cards, items=items)


def foe_health(s, x=1, y=0):
    return s.view().foe_at(x, y).health


def test_flipping_an_enemy_enters_combat():
    """Standard turn sequence step 1: "If the card is an ENEMY, the player enters combat"."""
    s = play(fight("goblin", []), "flip E")
    assert s.phase == COMBAT
    assert [str(a) for a in s.legal_actions()] == ["attack"]


def test_attack_roll_plus_modifier():
    """ATTACK ROLL: "If he rolls a 5 ... the attack damage will be 5 + 1 = 6" (warrior +1 TO ATTACK ROLL)."""
    s = play(fight("troll", [5, 1]), "flip E", "attack")
    assert foe_health(s) == 9 - 6


def test_double_damage_example_5_times_2_plus_1_is_11():
    """DOUBLE DAMAGE / ATTACK ROLL MODIFIER + OTHER ATTACK MODIFIERS: 5 * 2 + 1 = 11."""
    cards = {"golem": {"health": 30}}
    s = play(fight("golem", [5, 1], equipped=["maul"], cards=cards), "flip E", "attack")
    assert foe_health(s) == 30 - 11


def test_reroll_twice_example_2_plus_2_plus_5_is_9():
    """ROLLING AN X: REROLL TWICE: +2 to attack roll, rolls X then 2 and 5: damage 9 (2 + 2 + 5)."""
    cards = {"warrior": {"abilities": ["+2 TO ATTACK ROLL"]}, "golem": {"health": 30}}
    s = play(fight("golem", [6, 2, 5, 1], equipped=["dagger"], cards=cards), "flip E", "attack")
    assert foe_health(s) == 30 - 9


def test_reroll_twice_repeats_while_x_is_rolled():
    """REROLL TWICE: "If either of these rolls is an X, two more rolls are allotted"."""
    cards = {"warrior": {"abilities": []}, "golem": {"health": 40}}
    s = play(fight("golem", [6, 6, 1, 2, 3, 1], equipped=["dagger"], cards=cards), "flip E", "attack")
    assert foe_health(s) == 40 - (1 + 2 + 3)


def test_min_attack_before_plus_modifier():
    """MIN. ATTACK: X / +X TO ATTACK ROLL: rolls 2 with min 3: deals 3 + X."""
    s = play(fight("troll", [2, 1], equipped=["battle-axe"]), "flip E", "attack")
    assert foe_health(s) == 9 - 4


def test_min_attack_with_minus_modifier_still_deals_3():
    """-X TO ATTACK ROLL: "If the player has an item that ensures the minimum attack damage is 3, then he will still deal 3"."""
    s = play(fight("troll", [2, 1], character="mage", equipped=["battle-axe"]), "flip E", "attack")
    assert foe_health(s) == 9 - 3


def test_attack_zero_or_negative_does_nothing():
    """-X TO ATTACK ROLL: "If a player's attack is 0 or negative, the attack does nothing"."""
    s = play(fight("troll", [1, 1], character="mage"), "flip E", "attack")
    assert foe_health(s) == 9


def test_damage_taken_stacks_and_never_below_zero():
    """-X DAMAGE TAKEN: "If X is greater than the attack, the player takes no damage. If the player has multiple items
    that reduce damage taken, the damage reduction stacks"."""
    s = play(fight("goblin", [1], character="mage", equipped=["helm", "boots"]), "flip E", "attack")
    assert s.health == s.max_health  # goblin attack 2 - (1 + 1 + 1)
    s = play(fight("troll", [1], character="mage", equipped=["helm"]), "flip E", "attack")
    assert s.health == s.max_health - (4 - 2)


def test_poison_is_not_reduced_by_damage_taken():
    """-X DAMAGE TAKEN: "POISON still causes the player to lose 1 health each turn"."""
    s = play(fight("sewer-rat", [1, 6], character="mage", equipped=["helm"]), "flip E", "attack")
    # the rat's attack (1) is fully absorbed; the poison ticks at the start of turn 2 all the same
    assert s.turn == 2 and s.poison == 1 and s.health == s.max_health - 1


def test_dodge_negates_the_attack():
    """ROLL A DIE: IF X: DODGES PLAYER'S ATTACK: rolled in step 2, the enemy takes no damage this turn."""
    s = play(fight("imp", [6, 6]), "flip E", "attack")
    assert foe_health(s) == 4
    s = play(fight("imp", [2, 5]), "flip E", "attack")
    assert foe_health(s) == 4 - 3


def test_block_enemy_attack_this_turn():
    """ROLLING AN X: BLOCK ENEMY'S ATTACK THIS TURN: no damage and no ability applied."""
    s = play(fight("sewer-rat", [6, 6], equipped=["shield"], cards={"sewer-rat": {"health": 20}}), "flip E", "attack")
    assert s.health == s.max_health and s.poison == 0
    assert s.view().dice_drawn(1, 0) == 1  # the rat's ability was not even rolled


def test_attack_misses():
    """ROLLING AN X: ATTACK MISSES: "Player deals no damage to the enemy this turn" (maul on a 1)."""
    s = play(fight("troll", [1, 1], equipped=["maul"]), "flip E", "attack")
    assert foe_health(s) == 9


def test_attack_again():
    """ROLLING AN X: ATTACK AGAIN (project reading): one more attack roll, damage added."""
    cards = {"sword": {"abilities": ["ROLLING A 6: ATTACK AGAIN"]}, "warrior": {"abilities": []}, "golem": {"health": 30}}
    s = play(fight("golem", [6, 2, 1], equipped=["sword"], cards=cards), "flip E", "attack")
    assert foe_health(s) == 30 - 8


def test_heals_each_attack_capped_at_max():
    """HEALS +X HEALTH EACH ATTACK: "An enemy with this ability will heal his current health X amount each turn"; MAX
    HEALTH: "current health cannot exceed the max health through healing" - it heals again the next turn."""
    s = play(fight("vampire-bat", [2, 1]), "flip E", "attack")
    assert foe_health(s) == 5 - 3 + 1
    play(s, "attack")
    assert foe_health(s) == 3 - 2 + 1


def test_must_kill_within_a_single_turn():
    """MUST KILL WITHIN A SINGLE TURN: health reset to max at the end of the player's turn."""
    s = play(fight("zombie", [3, 3]), "flip E", "attack")
    assert foe_health(s) == 5
    assert s.turn == 2


def test_golem_attack_is_double_the_roll():
    """ROLL A DIE: ATTACK IS DOUBLE THE ROLL: the golem's attack."""
    s = play(fight("golem", [1, 4]), "flip E", "attack")
    assert s.health == s.max_health - 8


def test_slain_flipped_enemy_resumes_at_step_2():
    """SLAYING AN ENEMY: "resume ... at step 2 if he flipped over the enemy card"."""
    s = play(fight("cave-bat", [3], extra=[cell(0, 1, "pathing-tile", "N")]), "flip E", "attack")
    assert s.gold == 1 and s.phase == MOVING
    assert "move E" in map(str, s.legal_actions())


def test_slain_after_moving_adjacent_resumes_at_step_4():
    """SLAYING AN ENEMY: "... or at step 4 if he moved adjacent to the enemy"."""
    cells = [cell(0, 0, "starting-tile", "E"), cell(1, 0, "pathing-tile", "EW"), cell(2, 0, "cave-bat", "W", rolls=[3])]
    s = play(new_state(cells), "move E", "attack")
    assert s.phase == DONE and "move W" not in map(str, s.legal_actions())


def test_flee_success_restores_enemy_and_ends_at_step_4():
    """FLEEING FROM AN ENEMY: 4-6 flees to an adjacent tile; enemy health fully restored; turn resumes at step 4."""
    cells = [cell(0, 0, "starting-tile", "ES"), cell(1, 0, "troll", "W", face="down", rolls=[2, 4]),
             cell(0, 1, "pathing-tile", "N")]
    cards = {"troll": {"abilities": []}}
    s = play(new_state(cells, character="rogue", cards=cards), "flip E", "attack")
    assert foe_health(s) == 7
    play(s, "flee S")
    assert s.position == (0, 1) and foe_health(s) == 9 and s.phase == DONE


def test_flee_failure_enemy_acts():
    """FLEEING: "If the player rolls a 1, 2, or 3 the player failed to flee and the combat turn sequence will continue at step 2"."""
    cells = [cell(0, 0, "starting-tile", "ES"), cell(1, 0, "goblin", "W", face="down", rolls=[2]),
             cell(0, 1, "pathing-tile", "N")]
    s = play(new_state(cells, character="bard"), "flip E", "flee S")
    assert s.position == (0, 0) and s.health == s.max_health - 2 and s.turn == 2


def test_rogue_can_flee_on_3():
    """ROLL A DIE: IF X: CAN FLEE: "if he rolls X or 4,5,6 that player may flee"."""
    cells = [cell(0, 0, "starting-tile", "ES"), cell(1, 0, "goblin", "W", face="down", rolls=[3]),
             cell(0, 1, "pathing-tile", "N")]
    s = play(new_state(cells, character="rogue"), "flip E", "flee S")
    assert s.position == (0, 1)


def test_warrior_cannot_flee_but_may_flee_a_troll():
    """Project: CANNOT FLEE; DOES NOT CHASE: "a player can flee without needing to roll"."""
    cells = [cell(0, 0, "starting-tile", "ES"), cell(1, 0, "goblin", "W", face="down"), cell(0, 1, "pathing-tile", "N")]
    s = play(new_state(cells), "flip E")
    assert not any(a.verb == "flee" for a in s.legal_actions())
    cells[1] = cell(1, 0, "troll", "W", face="down")
    s = play(new_state(cells), "flip E", "flee S")
    assert s.position == (0, 1) and s.view().dice_drawn(1, 0) == 0


def test_warrior_with_can_flee_item_flees_only_on_x():
    """ROLL A DIE: IF X: CAN FLEE: "If a WARRIOR character has this ability, he may flee any enemy by rolling X"."""
    cells = [cell(0, 0, "starting-tile", "ES"), cell(1, 0, "goblin", "W", face="down", rolls=[5, 3]),
             cell(0, 1, "pathing-tile", "N")]
    s = play(new_state(cells, equipped=["shadow-cape"]), "flip E", "flee S")
    assert s.position == (0, 0)
    play(s, "flee S")
    assert s.position == (0, 1)


def test_paralysed_enemy_cannot_attack_and_is_fled_freely():
    """PARALYSIS: "An enemy will be unable to attack or apply combat effects for that turn"; flee without a roll."""
    cells = [START, cell(1, 0, "goblin", "W", face="down", rolls=[1])]
    s = new_state(cells, items=["red-potion"], potions={"red": "paralysis"}, cards={"goblin": {"health": 10}})
    play(s, "flip E", "throw red E", "attack")
    assert s.health == s.max_health and s.turn == 2
    play(s, "attack")
    assert s.health == s.max_health - 2


def test_several_enemies_pick_one_all_act():
    """FLEE: "The player picks one enemy to perform step 1 ..., but steps 2 and 3 are applied for all enemies"."""
    cells = [cell(1, 1, "starting-tile", "EW"), cell(0, 1, "goblin", "E", rolls=[]),
             cell(2, 1, "kobold", "W", rolls=[6])]
    s = new_state(cells)
    assert [str(a) for a in s.legal_actions()][:2] == ["attack E", "attack W"]
    play(s, "attack E")
    assert s.health == s.max_health - 2  # the goblin still attacks
    slain = s.view().cell(2, 1)
    assert slain.card.id == "kobold" and slain.face is Face.CLEARED


def test_death_ends_the_run():
    """DEATH: health 0 or below; in story mode the run is lost (DESIGN decision 3)."""
    cards = {"golem": {"attack": 20}}
    s = play(fight("golem", [1, 1], cards=cards), "flip E", "attack")
    assert s.outcome == DEAD and s.is_terminal() and s.legal_actions() == []


def test_basilisk_pair_is_discarded():
    """THE BASILISKS: "If at any time both cards are owned by one player, they are discarded"."""
    cells = [cell(1, 0, "starting-tile", "EW"), cell(0, 0, "basilisk-of-stone", "E", face="down", rolls=[6]),
             cell(2, 0, "basilisk-of-venom", "W", face="down", rolls=[6])]
    cards = {"basilisk-of-stone": {"health": 1}, "basilisk-of-venom": {"health": 1}}
    s = play(new_state(cells, cards=cards), "flip W", "attack")
    assert s.hand == ("basilisk-of-stone",)
    play(s, "end", "flip E", "attack")
    assert s.hand == ()


def test_enemy_flipped_without_path_back_is_not_in_combat():
    """ADJACENT TILE: "Players may not ... enter in combat with ... cards that are not on an adjacent tile"."""
    s = play(new_state([START, cell(1, 0, "goblin", "N", face="down")]), "flip E")
    assert s.phase != COMBAT
