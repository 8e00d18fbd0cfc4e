"""Rulebook v1.1.2 scenarios: one small campaign per single-player rule, played through the public API.

Each test is named after the rule it pins and quotes the rulebook sentence (and its section) in its
docstring; project decisions are quoted from docs/rules.md. Scripted rolls on cells make the dice
certain. The last tests play a few scenarios through ``cardrogue run ... --format json``.
Rules already pinned in test_rules_turns.py, test_rules_combat.py and test_rules_items.py are not
repeated here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import campaign_dict, cell, legal, new_state, play

from cardrogue.engine.format.catalog import default_catalog
from cardrogue.engine.format.loader import load_campaign_text
from cardrogue.engine.rules.actions import ActionError
from cardrogue.engine.rules.events import Damage
from cardrogue.engine.rules.tables import CLEARED
from cardrogue.engine.model.campaign import POTION_COLOURS, POTION_EFFECTS
from cardrogue.engine.rules.state import CHOOSE_TELEPORT, COMBAT, DEAD, DONE, MOVING, SHOPPING, STEP1, WON

START = cell(0, 0, "starting-tile", "E")
ALL = {c: e for c, e in zip(POTION_COLOURS, POTION_EFFECTS)}  # red healing, blue poison, green strength,
# yellow weakness, purple teleportation, orange paralysis
PLAIN_BARD = {"bard": {"abilities": []}}  # 10 max health, no modifiers: numbers as in the rulebook's examples


def corridor(*cards: str, **kw):
    """Start at 0,0 and a west-east corridor of face-up ``cards``."""
    cells = [START] + [cell(i + 1, 0, c, "EW" if i + 1 < len(cards) else "W") for i, c in enumerate(cards)]
    return new_state(cells, **kw)


def foe(s, x, y):
    """(health, poison turns, paralysed turns, attack modifier) of the enemy standing at x,y."""
    f = s.view().foe_at(x, y)
    return f.health, f.poison, f.paralysed, f.attack_modifier


def draws(s, x, y) -> int:
    return s.view().dice_drawn(x, y)


# ====================================================================== TURNS: standard turn sequence


def test_flip_only_in_step_1_not_after_resuming_at_step_2():
    """TURNS, step 1 "Flip adjacent cards" comes before step 2; SLAYING AN ENEMY: "The player may now resume
    his Standard Turn Sequence at step 2 if he flipped over the enemy card" - so no more flipping."""
    cells = [cell(0, 0, "starting-tile", "ES"), cell(1, 0, "cave-bat", "W", face="down", rolls=[3]),
             cell(0, 1, "pathing-tile", "N", face="down")]
    s = play(new_state(cells), "flip E", "attack")
    assert s.phase == MOVING
    assert "flip S" not in legal(s) and "move E" in legal(s)


def test_flip_any_or_all_adjacent_cards_before_moving():
    """TURNS, step 1: "The player may flip over any or all ADJACENT CARDS in one turn"."""
    cells = [cell(1, 1, "starting-tile", "NESW")] + [
        cell(x, y, "pathing-tile", p, face="down") for x, y, p in ((1, 0, "S"), (2, 1, "W"), (1, 2, "N"), (0, 1, "E"))]
    s = play(new_state(cells), "flip N", "flip E", "flip S", "flip W")
    assert not any(a.startswith("flip") for a in legal(s))
    assert {"move N", "move E", "move S", "move W"} <= set(legal(s))


def test_double_move_when_the_only_action_was_to_move():
    """TURNS: "If the only action taken by the player was to move his player token, and the player did not
    interact with another card or player, he may repeat his turn from step 2" - once (then steps 3 and 4)."""
    s = play(corridor("pathing-tile", "pathing-tile", "pathing-tile"), "move E", "move E")
    assert s.position == (2, 0) and s.turn == 1
    assert "move E" not in legal(s) and "move W" not in legal(s) and legal(s)[-1] == "end"


def test_double_move_forfeited_by_a_flip():
    """TURNS: the double move needs "the only action taken by the player was to move": a flip is an action."""
    cells = [cell(0, 0, "starting-tile", "ES"), cell(1, 0, "pathing-tile", "EW"), cell(2, 0, "pathing-tile", "W"),
             cell(0, 1, "pathing-tile", "N", face="down")]
    s = play(new_state(cells), "flip S", "move E")
    assert "move E" not in legal(s)


def test_double_move_forfeited_by_using_an_item():
    """TURNS: the double move needs "the only action taken by the player was to move": drinking is an action."""
    s = play(corridor("pathing-tile", "pathing-tile", items=["green-potion"], potions=ALL), "move E", "drink green")
    assert "move E" not in legal(s)


def test_double_move_forfeited_by_a_trap():
    """TURNS, step 2: "If he moves onto a TRAP, the trap is triggered and inflicts the player" - an interaction
    with a card, so no repeat of step 2."""
    s = play(corridor("spike-trap", "pathing-tile"), "move E")
    assert s.health == s.max_health - 2 and "move E" not in legal(s)


def test_double_move_after_a_shop_visit_but_not_after_buying():
    """TURNS, step 2: "If he moves onto a SHOP, he may BUY and SELL" (docs/rules.md: "Moving onto a shop or a
    fountain is not yet an interaction"); buying is one, so it forfeits the repeat."""
    cells = [START, cell(1, 0, "shop", "EW", stock=["helm"]), cell(2, 0, "pathing-tile", "W")]
    s = play(new_state(cells, items=["gold"] * 6), "move E")
    assert "move E" in legal(s) and "buy helm" in legal(s)
    play(s, "buy helm")
    assert "move E" not in legal(s)


def test_double_move_across_a_fountain_it_acts_only_if_still_there():
    """TURNS, step 2: "If he moves onto a FOUNTAIN OF HEALING, he will interact with it at the start of his next
    turn" - moving on leaves it untouched (no roll)."""
    s = play(corridor("fountain-of-healing", "pathing-tile"), "move E", "move E", "end")
    assert s.position == (2, 0) and s.turn == 2 and draws(s, 1, 0) == 0


def test_fountain_heals_at_the_start_of_the_next_turn_not_before():
    """The fountain of healing: "At the beginning of a player's turn, if he is on the Fountain of healing tile,
    he will roll a die. If he rolls anything but a 6, he is healed 2 health"."""
    cells = [START, cell(1, 0, "fountain-of-healing", "EW", rolls=[2, 4]), cell(2, 0, "spike-trap", "W", face="down")]
    s = play(new_state(cells), "move E")
    assert draws(s, 1, 0) == 0  # not on arrival
    play(s, "end")  # turn 2 starts on the fountain: rolls 2, but health is full
    assert draws(s, 1, 0) == 1 and s.health == s.max_health
    play(s, "flip E")  # spikes: -2
    assert s.health == s.max_health - 2 and draws(s, 1, 0) == 1
    play(s, "end")  # turn 3: rolls 4, heals 2
    assert draws(s, 1, 0) == 2 and s.health == s.max_health


def test_fountain_drained_on_a_6_does_not_heal():
    """The fountain of healing: "If he rolls a 6, the fountain is drained. The fountain is then discarded and
    replaced with a PATHING TILE"."""
    cells = [START, cell(1, 0, "fountain-of-healing", "EW", rolls=[6]), cell(2, 0, "spike-trap", "W", face="down")]
    s = play(new_state(cells), "move E", "end")
    assert s.face(1, 0) == CLEARED
    play(s, "flip E", "end")
    assert s.health == s.max_health - 2 and draws(s, 1, 0) == 1  # drained: no more rolls


def test_paralysis_trap_flipped_ends_the_turn_at_once():
    """Traps: "Paralysis Trap: An effected player ends his turn and skips his next turn" - even when flipped."""
    cells = [cell(0, 0, "starting-tile", "ES"), cell(1, 0, "paralysis-trap", "W", face="down"),
             cell(0, 1, "pathing-tile", "N")]
    s = play(new_state(cells), "flip E")
    assert s.turn == 3 and s.position == (0, 0) and "flip" not in " ".join(legal(s))


def test_flipped_trap_triggers_once_then_again_when_stepped_on():
    """Traps: "The trap will only affect him once when it is flipped over ... If a player ... moves onto a trap
    after it has been revealed, he will trigger the trap's effect"."""
    s = play(new_state([START, cell(1, 0, "spike-trap", "W", face="down")]), "flip E", "end", "end")
    assert s.health == s.max_health - 2
    play(s, "move E")
    assert s.health == s.max_health - 4


def test_moving_onto_a_potion_next_to_an_enemy_picks_it_up_then_combat():
    """TURNS, step 2: "If he moves onto a POTION, he MUST pick up the card"; step 3: "If the player moves adjacent
    to an enemy, the player enters combat"."""
    s = play(corridor("red-potion", "goblin"), "move E")
    assert s.hand == ("red-potion",) and s.phase == COMBAT


def test_combat_skips_the_standard_turn_sequence():
    """Combat: "the standard turn sequence for that player is skipped until after he leaves combat" - no move,
    no end of turn: attack or flee."""
    s = play(corridor("pathing-tile", "goblin", "pathing-tile"), "move E")
    assert s.phase == COMBAT
    assert not any(a.startswith("move") for a in legal(s)) and "end" not in legal(s)


def test_moving_next_to_an_enemy_resumes_at_step_4_even_with_moves_left():
    """SLAYING AN ENEMY: "... or at step 4 if he moved adjacent to the enemy" - hasty boots' extra move is lost."""
    cells = [START, cell(1, 0, "pathing-tile", "EW"), cell(2, 0, "cave-bat", "SW", rolls=[3]),
             cell(2, 1, "pathing-tile", "N")]
    s = play(new_state(cells, equipped=["hasty-boots"]), "move E", "attack")
    assert s.phase == DONE and not any(a.startswith("move") for a in legal(s))


def test_combat_continued_from_an_earlier_turn_resumes_at_step_2():
    """SLAYING AN ENEMY (docs/rules.md): "at step 2 (may move) if the hero has not moved this turn (... the combat
    went on from an earlier turn)"."""
    cells = [START, cell(1, 0, "pathing-tile", "EW"), cell(2, 0, "goblin", "W", rolls=[1, 4])]
    s = play(new_state(cells), "move E", "attack")
    assert s.turn == 2 and s.phase == COMBAT
    play(s, "attack")
    assert s.phase == MOVING and "move E" in legal(s)


# ====================================================================== Combat: fleeing


def flee_map(enemy="goblin", rolls=(), **kw):
    cells = [cell(0, 0, "starting-tile", "ES"), cell(1, 0, enemy, "W", face="down", rolls=list(rolls)),
             cell(0, 1, "pathing-tile", "N")]
    return new_state(cells, character=kw.pop("character", "bard"), **kw)


@pytest.mark.parametrize("roll", [1, 2, 3, 4, 5, 6])
def test_flee_fails_on_1_2_3_succeeds_on_4_5_6(roll):
    """FLEEING FROM AN ENEMY: "If the player rolls a 1, 2, or 3 the player failed to flee and the combat turn
    sequence will continue at step 2. Otherwise, he can flee from an enemy by moving his player token"."""
    s = play(flee_map(rolls=[roll]), "flip E", "flee S")
    if roll >= 4:
        assert s.position == (0, 1) and s.turn == 1 and s.health == s.max_health and s.phase == DONE
    else:
        assert s.position == (0, 0) and s.turn == 2 and s.health == s.max_health - 2 and s.phase == COMBAT


def test_failed_flee_continues_at_step_2_the_enemy_ability_applies():
    """FLEEING FROM AN ENEMY: a failed flee "will continue at step 2" - Apply enemy ability, then the attack."""
    s = play(flee_map("sewer-rat", rolls=[2, 6]), "flip E", "flee S")
    assert s.turn == 2 and s.poison == 2 - 1 and s.health == s.max_health - 1 - 1  # rat bite, then a poison tick


def test_successful_flee_resumes_at_step_4_and_restores_the_enemy():
    """FLEEING FROM AN ENEMY: "the player can resume his Standard Turn Sequence at step 4, and the enemy's health
    will be completely restored"."""
    s = play(flee_map("goblin", rolls=[2, 5], character="rogue"), "flip E", "attack")
    assert foe(s, 1, 0)[0] == 4 - 2 and s.turn == 2
    play(s, "flee S")
    assert s.position == (0, 1) and s.phase == DONE and foe(s, 1, 0)[0] == 4
    assert legal(s) == ["end"]


def test_does_not_chase_flee_without_a_roll():
    """DOES NOT CHASE: "An enemy with this ability will not chase a fleeing player. Therefore, a player can flee
    without needing to roll"."""
    s = play(flee_map("troll"), "flip E", "flee S")
    assert s.position == (0, 1) and draws(s, 1, 0) == 0


def test_flee_a_paralysed_enemy_without_a_roll():
    """PARALYSIS: "A player may FLEE from a paralyzed enemy without needing to roll"."""
    s = play(flee_map(items=["orange-potion"], potions=ALL), "flip E", "throw orange E", "flee S")
    assert s.position == (0, 1) and draws(s, 1, 0) == 0


def between_two(west="goblin", west_rolls=(), east="kobold", east_rolls=(), **kw):
    """The hero at 1,0 between two revealed enemies, a way out south (1,1)."""
    cells = [cell(1, 0, "starting-tile", "ESW"), cell(0, 0, west, "E", rolls=list(west_rolls)),
             cell(2, 0, east, "W", rolls=list(east_rolls)), cell(1, 1, "pathing-tile", "N")]
    return new_state(cells, character=kw.pop("character", "bard"), **kw)


def test_flee_several_enemies_names_the_enemy_like_attack():
    """FLEE: "When a player is adjacent to multiple enemies, he is in combat with those enemies. The player picks one
    enemy to perform step 1 of the combat turn sequence" - the flee, like the attack, names the enemy picked."""
    s = between_two()
    assert [a for a in legal(s) if a.startswith(("attack", "flee"))] == ["attack E", "attack W", "flee S E", "flee S W"]
    with pytest.raises(ActionError):
        s.apply("flee S")  # several enemies: which one performs step 1 must be said


@pytest.mark.parametrize("picked, fled", [("W", True), ("E", False)])
def test_flee_several_enemies_is_one_roll_from_the_picked_enemy(picked, fled):
    """FLEE: "The player picks one enemy to perform step 1 of the combat turn sequence, but steps 2 and 3 are applied
    for all enemies to that player"; step 1 is "Roll for attack or flee: The player rolls a die" - one roll, from the
    picked enemy's stream (the goblin west rolls 5, the kobold east 2)."""
    s = play(between_two(west_rolls=[5], east_rolls=[2]), f"flee S {picked}")
    if fled:
        assert s.position == (1, 1) and s.turn == 1 and s.health == s.max_health and s.phase == DONE
        assert (draws(s, 0, 0), draws(s, 2, 0)) == (1, 0)  # the kobold's stream was not asked
    else:
        # "If the player rolls a 1, 2, or 3 the player failed to flee and the combat turn sequence will continue at
        # step 2": both enemies attack (2 + 2), the turn ends.
        assert s.position == (1, 0) and s.turn == 2 and s.health == s.max_health - 4 and s.phase == COMBAT
        assert (draws(s, 0, 0), draws(s, 2, 0)) == (0, 1)


def test_flee_several_enemies_picking_one_that_does_not_chase_needs_no_roll():
    """FLEE: "The player picks one enemy to perform step 1 of the combat turn sequence"; DOES NOT CHASE: "An enemy with
    this ability will not chase a fleeing player. Therefore, a player can flee without needing to roll"; OTHER
    EXCEPTIONS: "Exceptions must always favor the player who is being afflicted" - picking the troll, the hero flees
    without a roll even beside a goblin that chases; picking the goblin, the goblin's stream rolls."""
    s = play(between_two("troll", [2], "goblin", [2]), "flee S W")
    assert s.position == (1, 1) and s.turn == 1 and s.phase == DONE and (draws(s, 0, 0), draws(s, 2, 0)) == (0, 0)
    assert foe(s, 2, 0)[0] == default_catalog()["goblin"].health
    s = play(between_two("troll", [2], "goblin", [2]), "flee S E")
    assert s.position == (1, 0) and s.turn == 2 and (draws(s, 0, 0), draws(s, 2, 0)) == (0, 1)


def test_flee_several_enemies_picking_the_paralysed_one_needs_no_roll():
    """PARALYSIS: "A player may FLEE from a paralyzed enemy without needing to roll" - the kobold, paralysed by a thrown
    potion, is picked for step 1; the goblin beside it is not asked."""
    s = play(between_two(items=["orange-potion"], potions=ALL), "throw orange E", "flee S E")
    assert s.position == (1, 1) and (draws(s, 0, 0), draws(s, 2, 0)) == (0, 0)


def test_a_warrior_flees_only_by_picking_an_enemy_that_does_not_chase():
    """WARRIOR: CANNOT FLEE; DOES NOT CHASE: "a player can flee without needing to roll" - between a troll and a goblin
    the warrior may flee with the troll picked, not with the goblin."""
    s = between_two("troll", [], "goblin", [], character="warrior")
    assert [a for a in legal(s) if a.startswith("flee")] == ["flee S W"]
    with pytest.raises(ActionError):
        s.apply("flee S E")
    play(s, "flee S W")
    assert s.position == (1, 1) and s.phase == DONE
    s = play(between_two("troll", [], "troll", []), "flee S E")
    assert s.position == (1, 1) and (draws(s, 0, 0), draws(s, 2, 0)) == (0, 0)


def test_fleeing_next_to_another_enemy_reenters_combat_at_once():
    """FLEE: "if a player flips over an enemy, or moves adjacent to another enemy, the player reenters combat";
    TURNS > Combat: "When a player ... moves to an ADJACENT TILE of a revealed enemy, that player must enter combat" -
    at once, in the same turn, as any move next to an enemy does."""
    cells = [cell(1, 0, "starting-tile", "ES"), cell(2, 0, "goblin", "W", rolls=[5]),
             cell(1, 1, "pathing-tile", "NS"), cell(1, 2, "kobold", "N", rolls=[6])]
    s = play(new_state(cells, character="bard"), "flee S")
    assert s.position == (1, 1) and s.turn == 1 and s.phase == COMBAT and s.in_combat
    assert "end" not in legal(s) and "attack" in legal(s) and "flee N" in legal(s)
    assert foe(s, 2, 0)[0] == 4  # the goblin left behind is restored
    play(s, "attack")  # bard: 6 - 1 = 5 slays the kobold (3) before it acts
    assert s.turn == 1 and s.health == s.max_health and s.face(1, 2) == CLEARED
    # SLAYING AN ENEMY: "resume ... at step 4 if he moved adjacent to the enemy" - the flee was his move.
    assert s.phase == DONE and legal(s) == ["end"]


def test_fleeing_next_to_another_enemy_and_failing_the_second_flee():
    """FLEEING FROM AN ENEMY: the second combat is a combat turn like any: a failed flee "will continue at step 2"
    and the turn ends (the kobold attacks, 2)."""
    cells = [cell(1, 0, "starting-tile", "ES"), cell(2, 0, "goblin", "W", rolls=[5]),
             cell(1, 1, "pathing-tile", "NSW"), cell(0, 1, "pathing-tile", "E"), cell(1, 2, "kobold", "N", rolls=[1])]
    s = play(new_state(cells, character="bard"), "flee S", "flee W")
    assert s.position == (1, 1) and s.turn == 2 and s.health == s.max_health - 2 and s.phase == COMBAT


def test_fleeing_onto_a_shop_next_to_another_enemy_shops_first():
    """FLEE: "moves adjacent to another enemy, the player reenters combat"; Standard turn sequence: "If he moves onto a
    SHOP, he may BUY and SELL" before "3. Interact" - the flee's move lands on the counter, the shop comes first."""
    cells = [cell(1, 0, "starting-tile", "ES"), cell(2, 0, "goblin", "W", rolls=[5]),
             cell(1, 1, "shop", "NS", stock=["helm"]), cell(1, 2, "kobold", "N", rolls=[6])]
    s = play(new_state(cells, character="bard", items=["gold"] * 5), "flee S")
    assert s.position == (1, 1) and s.phase == SHOPPING and "buy helm" in legal(s) and "end" not in legal(s)
    play(s, "buy helm", "attack")
    assert s.gold == 0 + 2 and "helm" in s.hand and s.face(1, 2) == CLEARED and s.phase == DONE and s.turn == 1  # kobold loot


def test_flipping_in_combat_can_open_a_way_to_flee():
    """FLEE: "Alternatively, a player may flip over adjacent face-down exploration cards in an attempt to move
    away from the enemy"."""
    cells = [cell(0, 0, "starting-tile", "ES"), cell(1, 0, "goblin", "W", rolls=[6]),
             cell(0, 1, "pathing-tile", "N", face="down")]
    s = new_state(cells, character="bard")
    assert s.phase == COMBAT and not any(a.startswith("flee") for a in legal(s))
    play(s, "flip S", "flee S")
    assert s.position == (0, 1)


# ====================================================================== Combat: attack modifiers and abilities


def test_modifiers_do_not_change_the_actual_roll():
    """ATTACK ROLL: "the attack damage will be 5 + 1 = 6, but this does not mean the player's roll counted as a 6"
    - a dagger's ROLLING A 6: REROLL TWICE does not trigger."""
    s = play(new_state([START, cell(1, 0, "troll", "W", face="down", rolls=[5])], equipped=["dagger"]),
             "flip E", "attack")
    assert foe(s, 1, 0)[0] == 9 - 6 and draws(s, 1, 0) == 1


def test_min_attack_applies_before_double_damage_and_modifier():
    """MIN. ATTACK: X: "If an attack roll is less than X, it's as if the attack roll was X. This occurs before any
    attack modifiers" (battle axe min 3, warrior +1: a 1 deals 4)."""
    s = play(new_state([START, cell(1, 0, "troll", "W", face="down", rolls=[1])], equipped=["battle-axe"]),
             "flip E", "attack")
    assert foe(s, 1, 0)[0] == 9 - 4


def test_minus_x_to_attack_roll_example():
    """-X TO ATTACK ROLL: "rolls a 2 on the die. He will deal 2 - X to that enemy's health" (withered hand, X = 1)."""
    cells = [START, cell(1, 0, "troll", "W", face="down", rolls=[2])]
    s = play(new_state(cells, character="bard", cards=PLAIN_BARD, items=["withered-hand"]), "flip E", "attack")
    assert foe(s, 1, 0)[0] == 9 - 1


def test_plus_x_to_attack_roll_example():
    """+X TO ATTACK ROLL: "rolls a 2 on the die. He will deal 2 + X to that enemy's health" (ring of might, X = 1;
    the plain bard has no other modifier)."""
    cells = [START, cell(1, 0, "troll", "W", face="down", rolls=[2])]
    s = play(new_state(cells, character="bard", cards=PLAIN_BARD, items=["ring-of-might"]), "flip E", "attack")
    assert s.stats.attack_roll == 1 and foe(s, 1, 0)[0] == 9 - (2 + 1)


def test_must_kill_within_a_single_turn_even_when_poisoned():
    """MUST KILL WITHIN A SINGLE TURN: "If the player cannot kill the enemy in a single turn, the enemy's health is
    reset to its starting health" - the reset comes at the end of the turn, before the next turn's poison."""
    cells = [START, cell(1, 0, "zombie", "W", face="down", rolls=[2, 1])]
    s = play(new_state(cells, items=["blue-potion"], potions=ALL), "flip E", "throw blue E", "attack")
    assert s.turn == 2 and foe(s, 1, 0)[0] == 5 - 1  # reset to 5, then the poison of turn 2


def test_basilisk_paralysis_the_attack_still_lands_and_turns_are_skipped():
    """ROLL A DIE: IF X: PARALYZE FOR Y TURNS: "If X is rolled, the attacking player is paralyzed for Y turns";
    PARALYSIS: "The player or enemy will remain in combat while paralyzed". Skipped turns count."""
    s = play(new_state([START, cell(1, 0, "basilisk-of-stone", "W", face="down", rolls=[1, 5])]), "flip E", "attack")
    assert s.health == s.max_health - 3 and s.turn == 3 and s.phase == COMBAT


def test_enemy_paralysis_wears_off_after_one_turn():
    """POTION OF PARALYSIS if thrown: "PARALYSIS on the ... enemy it was thrown on for a turn"."""
    cells = [START, cell(1, 0, "troll", "W", face="down", rolls=[1, 1])]
    s = play(new_state(cells, items=["orange-potion"], potions=ALL), "flip E", "throw orange E", "attack")
    assert s.health == s.max_health and foe(s, 1, 0)[2] == 0
    play(s, "attack")
    assert s.health == s.max_health - 4


# ====================================================================== Poison on an enemy (project decision)


def test_enemy_poison_ticks_each_turn_in_combat_and_can_slay():
    """POISON: "If an enemy is poisoned, he will take damage at the beginning of his turn, but only during the turn
    of the player who poisoned him"; docs/rules.md: an enemy slain by poison is the hero's loot."""
    cells = [START, cell(1, 0, "kobold", "W", face="down", rolls=[1, 1, 1])]
    s = play(new_state(cells, equipped=["maul"], items=["blue-potion"], potions=ALL),
             "flip E", "throw blue E", "attack", "attack", "attack")  # the maul misses on every 1
    assert s.turn == 4 and s.face(1, 0) == CLEARED and s.gold == 2 and s.phase == STEP1
    assert s.health == s.max_health - 3 * 2


def test_enemy_poison_ends_when_the_enemy_is_left_behind():
    """Project decision (docs/rules.md, "Enemy poison"): POISON on an enemy is taken "at the beginning of his turn"
    and an enemy only has a turn in combat; FLEEING: "the enemy's health will be completely restored" - so an
    enemy left behind is restored, its poison ends, and it never dies out of sight."""
    cells = [cell(0, 0, "starting-tile", "ES"), cell(1, 0, "troll", "W", face="down"),
             cell(0, 1, "pathing-tile", "NS"), cell(0, 2, "pathing-tile", "N")]
    s = play(new_state(cells, items=["blue-potion"], potions=ALL), "flip E", "throw blue E", "flee S")
    assert foe(s, 1, 0) == (9, 0, 0, 0)
    play(s, "end", "move S", "end", "end", "end")
    assert foe(s, 1, 0) == (9, 0, 0, 0) and s.gold == 0 and s.face(1, 0) != CLEARED
    assert not any(isinstance(e, Damage) and e.cause == "Poison" and e.target == "Troll" for e in s.view().log)


def test_enemy_poison_ends_when_the_enemy_is_teleported_away():
    """Project decision (docs/rules.md, "Enemy poison"): a thrown teleportation ends the combat with that enemy,
    and with it the enemy's poison."""
    cells = [START, cell(1, 0, "troll", "EW", face="down"), cell(2, 0, "pathing-tile", "EW"),
             cell(3, 0, "pathing-tile", "W")]
    s = play(new_state(cells, items=["blue-potion", "purple-potion"], potions=ALL),
             "flip E", "throw blue E", "throw purple E", "teleport 3,0", "end", "end")
    assert foe(s, 3, 0) == (9, 0, 0, 0)


# ====================================================================== TILES: the shop


def test_shop_buys_at_twice_the_price_and_gives_change():
    """The Shop: "All cards bought from the shop cost twice as much gold as is indicated on the card"; BUY AND SELL:
    "If the player paid more for the item than twice the given amount, the player picks up the remainder"."""
    cells = [START, cell(1, 0, "shop", "W", stock=["helm", "dagger"])]
    s = play(new_state(cells, items=["gold"] * 7), "move E")
    assert "buy helm" in legal(s) and "buy dagger" in legal(s)
    play(s, "buy helm")
    assert s.gold == 7 - 2 * 3 and "helm" in s.hand and "buy dagger" not in legal(s)


def test_shop_sells_for_the_gold_amount_several_in_a_turn():
    """BUY AND SELL: "A player may sell and buy multiple cards during a single turn"; "To sell a card, discard the
    card and pick up GOLD CARDS equal to the gold amount listed on the card"."""
    cells = [START, cell(1, 0, "shop", "W", stock=["dagger"])]
    s = play(new_state(cells, items=["sword", "red-potion", "gold"]), "move E", "sell sword", "sell red-potion")
    assert s.gold == 1 + 5 + 2 and s.hand == ()
    play(s, "buy dagger")
    assert s.gold == 8 - 6 and s.hand == ("dagger",) and s.turn == 1


def test_unsellable_cursed_and_artifact_cards_cannot_be_sold():
    """UNSELLABLE: "The player cannot SELL an unsellable item"; CURSED: "it cannot be removed from the player's
    hand"; Artifacts: "Artifacts are any items that cannot be SOLD"."""
    cells = [START, cell(1, 0, "shop", "W")]
    s = play(new_state(cells, items=["key", "withered-hand", "ring-of-might", "red-potion"]), "move E")
    assert [a for a in legal(s) if a.startswith("sell")] == ["sell red-potion"]


def test_no_shop_in_combat_or_off_the_shop_tile():
    """BUY AND SELL: "To buy or sell a card, a player must be on the shop tile" (docs/rules.md: "and out of combat")."""
    s = play(new_state([START, cell(1, 0, "pathing-tile", "EW"), cell(2, 0, "shop", "W", stock=["helm"])],
                       items=["gold"] * 6), "move E")
    assert "buy helm" not in legal(s)
    cells = [START, cell(1, 0, "shop", "EW"), cell(2, 0, "goblin", "W", rolls=[1])]
    s = play(new_state(cells, items=["red-potion"]), "move E", "attack")  # "sell red-potion" only out of combat
    assert s.phase == COMBAT and not any(a.startswith(("buy", "sell")) for a in legal(s))


def test_moving_onto_a_shop_next_to_an_enemy_buys_and_sells_before_combat():
    """Standard turn sequence: "2. Move: ... If he moves onto a SHOP, he may BUY and SELL with the shopkeeper" comes
    before "3. Interact: If the player moves adjacent to an enemy, the player enters combat"."""
    cells = [START, cell(1, 0, "shop", "EW"), cell(2, 0, "goblin", "W", rolls=[1])]
    s = play(new_state(cells, items=["red-potion"]), "move E")
    assert s.phase == SHOPPING and not s.in_combat
    assert "sell red-potion" in legal(s) and "attack" in legal(s) and "end" not in legal(s)
    assert not any(a.startswith(("move", "flip")) for a in legal(s))
    play(s, "sell red-potion")
    assert s.gold == s.view().card("red-potion").gold and s.phase == SHOPPING
    play(s, "attack")  # the first attack (or flee, or throw) begins combat: the shop is closed from then on
    assert s.turn == 2 and s.phase == COMBAT and not any(a.startswith(("buy", "sell")) for a in legal(s))


def test_shop_before_combat_then_buy_equip_and_fight():
    """Standard turn sequence, step 2 on a SHOP, then step 3: the helm bought (twice its 3 gold) and equipped before the
    goblin's first attack takes 1 less (-1 DAMAGE TAKEN)."""
    cells = [START, cell(1, 0, "shop", "EW", stock=["helm"]), cell(2, 0, "goblin", "W", rolls=[1])]
    s = play(new_state(cells, character="bard", items=["gold"] * 6), "move E", "buy helm", "equip helm", "attack")
    assert s.gold == 6 - (6 - 1) and s.equip[0] == "helm"  # the bard buys at 1 gold less
    assert s.turn == 2 and s.health == s.max_health - (2 - 1)


def test_no_shop_first_when_the_enemy_is_flipped_or_the_turn_starts_in_combat():
    """Standard turn sequence, step 1: "If the card is an ENEMY, the player enters combat" - flipping it from the shop
    gives no time to shop; and a turn that starts next to an enemy is a combat turn ("the standard turn sequence for
    that player is skipped until after he leaves combat")."""
    cells = [START, cell(1, 0, "shop", "EW", stock=["helm"]), cell(2, 0, "goblin", "W", face="down", rolls=[1, 1])]
    s = play(new_state(cells, character="bard", items=["gold"] * 6), "move E", "end")
    assert s.phase == STEP1 and "buy helm" in legal(s)
    play(s, "flip E")
    assert s.phase == COMBAT and "buy helm" not in legal(s)
    play(s, "attack")
    assert s.turn == 3 and s.phase == COMBAT and "buy helm" not in legal(s)


# ====================================================================== ITEMS: potions


def test_potion_colour_identity_is_shared_by_every_potion_of_that_colour():
    """Potions: "Once the potion is used its effect is revealed. All remaining potions in the game with the same
    potion color have that same effect"."""
    s = play(new_state([START], items=["green-potion", "green-potion"], potions=ALL), "drink green")
    assert s.summary()["identified"] == {"green": "strength"} and s.atk_bonus == 1
    play(s, "drink green")
    assert s.atk_bonus == 2


def test_healing_potion_thrown_restores_the_enemy():
    """POTION OF HEALING if thrown: "the potion will fully restore the health of the player or enemy it was thrown on"."""
    cells = [START, cell(1, 0, "troll", "W", face="down", rolls=[5])]
    s = play(new_state(cells, items=["red-potion"], potions=ALL), "flip E", "attack")
    assert foe(s, 1, 0)[0] == 3
    play(s, "throw red E")
    assert foe(s, 1, 0)[0] == 9


def test_weakness_thrown_on_an_enemy_attack_zero_does_nothing():
    """POTION OF WEAKNESS if thrown: "An enemy, it was thrown on, will gain -1 to their standard attack ... If the
    player or enemy's total attack damage becomes negative, because of this effect, the attack does nothing"."""
    cells = [START, cell(1, 0, "cave-bat", "W", face="down", rolls=[1, 1])]
    s = play(new_state(cells, items=["yellow-potion", "yellow-potion"], potions=ALL, cards={"cave-bat": {"health": 20}}),
             "flip E", "throw yellow E", "throw yellow E", "attack")
    assert foe(s, 1, 0)[3] == -2 and s.health == s.max_health


def test_weakness_thrown_on_an_enemy_v10_is_reversed():
    """Updates from V1.1: "Strength and weakness potion now have same effect when thrown on player or enemy" -
    in v1.0 a thrown weakness potion gave an enemy +1 attack."""
    cells = [START, cell(1, 0, "troll", "W", face="down")]
    s = play(new_state(cells, items=["yellow-potion"], potions=ALL, rules="1.0"), "flip E", "throw yellow E")
    assert foe(s, 1, 0)[3] == 1


def test_strength_and_weakness_drunk_are_permanent():
    """POTION OF STRENGTH / WEAKNESS: "This effect is permanent" - it outlives turns and levels."""
    second = {"id": "two", "width": 2, "height": 1,
              "cells": [cell(0, 0, "starting-tile", "E"), cell(1, 0, "troll", "W", face="down", rolls=[2])]}
    cells = [START, cell(1, 0, "descending-ladder", "W", to="two")]
    s = play(new_state(cells, levels=[second], items=["green-potion"], potions=ALL, character="bard", cards=PLAIN_BARD),
             "drink green", "move E", "flip E", "attack")
    assert s.level == 1 and foe(s, 1, 0)[0] == 9 - 3


def test_teleportation_only_to_revealed_unoccupied_pathing_tiles():
    """POTION OF TELEPORTATION: "A player or enemy may not be teleported to a tile that another player token is on,
    an enemy is on, or onto a tile that has not been revealed yet" ("move to any PATHING TILE")."""
    cells = [START, cell(1, 0, "pathing-tile", "EW"), cell(2, 0, "goblin", "EW"), cell(3, 0, "pathing-tile", "EW"),
             cell(4, 0, "pathing-tile", "W", face="down"), cell(0, 1, "red-potion", "")]
    s = play(new_state(cells, items=["purple-potion"], potions=ALL), "drink purple")
    assert s.phase == CHOOSE_TELEPORT and legal(s) == ["teleport 1,0", "teleport 3,0"]


def test_teleported_next_to_an_enemy_it_does_not_attack_until_the_next_turn():
    """Teleporting or moving to a tile, but turn is ended: "the moved player does not flip over tiles, pick up
    cards, enemies do not attack him ... until the beginning of that player's turn"."""
    cells = [START, cell(1, 0, "pathing-tile", "EW"), cell(2, 0, "goblin", "EW", rolls=[4]),
             cell(3, 0, "pathing-tile", "W")]
    s = play(new_state(cells, items=["purple-potion"], potions=ALL), "drink purple", "teleport 1,0")
    assert s.turn == 2 and s.phase == COMBAT and s.health == s.max_health and draws(s, 2, 0) == 0


def test_teleport_arrival_on_a_potion_picks_it_up_next_turn():
    """Teleporting or moving to a tile, but turn is ended: "the moved player does not ... pick up cards ... until
    the beginning of that player's turn"."""
    cells = [cell(0, 0, "starting-tile", ""), cell(1, 0, "red-potion", "")]
    s = play(new_state(cells, items=["scroll-of-passage"]), "read scroll-of-passage E")
    assert s.turn == 2 and s.hand == ("red-potion",)


def test_paralysis_potion_drunk_skipped_turns_count_and_poison_still_ticks():
    """POTION OF PARALYSIS if drank: "end turn, and skip the next turn"; PARALYSIS: "While paralyzed, all game
    elements can continue to affect the paralyzed player" - the poison ticks on the skipped turn too."""
    s = play(new_state([START], items=["blue-potion", "orange-potion"], potions=ALL), "drink blue", "drink orange")
    assert s.turn == 3 and s.health == s.max_health - 2 and s.poison == 1


def test_poison_stacking_keeps_the_longer_poison():
    """POISON: "the player will lose 1 health per turn for 3 turns (his original poison amount)" when the new
    poison is shorter - a poison trap (2) after a poison potion (3), and the other way round."""
    cells = [START, cell(1, 0, "poison-trap", "W", face="down")]
    s = play(new_state(cells, items=["blue-potion"], potions=ALL), "drink blue", "flip E")
    assert s.poison == 3
    s = play(new_state(cells, items=["blue-potion"], potions=ALL), "flip E", "drink blue")
    assert s.poison == 3
    play(s, "end", "end", "end", "end")
    assert s.health == s.max_health - 3 and s.poison == 0


def test_death_by_poison_at_the_start_of_a_turn_ends_the_run():
    """POISON: "lose 1 health, at the beginning of each turn"; DEATH: "When a player's health is reduced to 0 (or
    below) that player is dead" - in story mode the run is over."""
    s = play(new_state([START], items=["blue-potion"], potions=ALL, character="bard",
                       cards={"bard": {"abilities": [], "max_health": 1}}), "drink blue", "end")
    assert s.outcome == DEAD and s.turn == 2 and s.legal_actions() == []


# ====================================================================== ITEMS: scrolls, equipment, artifacts


def test_remove_all_your_cursed_items_also_takes_equipped_ones():
    """REMOVE ALL YOUR CURSED ITEMS: "all CURSED items that a player has in his hand or equipped must be discarded"."""
    s = new_state([START], equipped=["helm"], items=["scroll-of-remove-curse"], cards={"helm": {"cursed": True}})
    assert "unequip helm" not in legal(s) and s.stats.damage_taken == 1
    play(s, "read scroll-of-remove-curse")
    assert s.equip == ("",) * 5 and s.hand == () and s.stats.damage_taken == 0


def test_antidote_scroll_only_while_poisoned():
    """POISON INSTEAD HEALS +X HEALTH: "If a player is poisoned, he may use this scroll"."""
    s = new_state([START], items=["scroll-of-antidote"])
    assert not any(a.startswith("read") for a in legal(s))


def test_scroll_used_once_and_discarded():
    """Scrolls: "Scrolls can be used anytime during a turn, but once used they must be discarded"."""
    s = play(new_state([START], items=["scroll-of-vitality"]), "read scroll-of-vitality")
    assert s.hand == () and s.turn == 1 and "end" in legal(s)


def test_plus_x_to_max_health_artifact_example():
    """+X TO MAX HEALTH: "He also immediately adds X amount to his current health when the artifact is picked up
    ... his maximum health will become 10 + X, and his current health will be 7 + X" (here 8 + 2)."""
    cells = [cell(1, 0, "starting-tile", "EW"), cell(0, 0, "amulet-of-vigor", "E", face="down"),
             cell(2, 0, "spike-trap", "W", face="down")]
    s = play(new_state(cells, character="bard", cards=PLAIN_BARD), "flip E")
    assert (s.max_health, s.health) == (10, 8)
    play(s, "flip W")
    assert (s.max_health, s.health) == (12, 10) and s.hand == ("amulet-of-vigor",)


def test_artifact_not_on_an_adjacent_tile_is_not_picked_up_when_flipped():
    """ADJACENT TILE: "Players may not interact with, enter in combat with, move to, or pick up cards that are not
    on an adjacent tile" - an artifact flipped with no path back stays until the hero moves onto it."""
    cells = [cell(0, 0, "starting-tile", "ES"), cell(1, 0, "ring-of-might", "S", face="down"),
             cell(0, 1, "pathing-tile", "NE"), cell(1, 1, "pathing-tile", "NW")]
    s = play(new_state(cells), "flip E")
    assert s.hand == () and s.face(1, 0) == 1 and "move E" not in legal(s)
    play(s, "move S", "end", "move E", "move N")  # the flip used up the double move
    assert s.hand == ("ring-of-might",) and s.face(1, 0) == CLEARED


def test_equipment_property_applies_only_while_equipped():
    """Weapons and Armor: "This property is only applied if the weapon or armor is equipped"."""
    s = new_state([START], items=["sword"], character="bard", cards=PLAIN_BARD)
    assert s.stats.attack_roll == 0
    play(s, "equip sword")
    assert s.stats.attack_roll == 1


# ====================================================================== GOALS and the end


def test_exit_gated_by_slay_goal():
    """DESIGN: the last level is won "by leaving the dungeon alive (reaching the exit the author marks), with any
    level goals the author sets" - the exit cannot be entered before."""
    cells = [cell(1, 0, "starting-tile", "EW"), cell(0, 0, "cave-bat", "E", face="down", rolls=[3]),
             cell(2, 0, "pathing-tile", "W", exit=True)]
    s = new_state(cells, goals=[("slay", "cave-bat")])
    assert "move E" not in legal(s)
    play(s, "flip W", "attack", "move E")
    assert s.outcome == WON and s.score == (1, s.max_health)


def test_opening_the_chest_is_an_interaction_and_meets_the_open_goal():
    """THE CHEST AND KEY: "When that player moves onto the chest tile, the key card is discarded" - an interaction
    with a card, so no repeat of step 2; the open goal then lets the hero out."""
    cells = [START, cell(1, 0, "chest", "EW", contents=[]), cell(2, 0, "pathing-tile", "W", exit=True)]
    s = play(new_state(cells, items=["key"], goals=[("open", "chest")]), "move E")
    assert s.hand == () and "move E" not in legal(s)
    play(s, "end", "move E")
    assert s.outcome == WON and s.turn == 2


def test_death_by_a_trap_ends_the_run():
    """TRAP OF SPIKES: "The player or enemy will lose 2 health"; DEATH ends the run in story mode (DESIGN 3)."""
    s = play(corridor("spike-trap", "pathing-tile", character="bard", cards={"bard": {"abilities": [], "max_health": 2}}),
             "move E")
    assert s.outcome == DEAD and s.health == 0


# ====================================================================== Rules versions ("Updates from previous versions")


@pytest.mark.parametrize("rules, repeat", [("1.1.2", True), ("1.1", True), ("1.0", False)])
def test_double_move_arrives_after_v10(rules, repeat):
    """Updates from previous versions, FROM V1.0: "Players may move twice in a turn if no other actions or
    interactions were taken" - in 1.1 and 1.1.2, not in 1.0."""
    s = play(corridor("pathing-tile", "pathing-tile", rules=rules), "move E")
    assert ("move E" in legal(s)) is repeat


@pytest.mark.parametrize("rules, turn", [("1.1.2", 3), ("1.1", 3), ("1.0", 2)])
def test_paralysis_skips_the_next_turn_after_v10(rules, turn):
    """FROM V1.0: "Paralysis now ends the player's turn, and skips his next turn" (1.1, 1.1.2); v1.0's PARALYSIS "ends
    his turn or loses a turn": the trap's paralysis costs the rest of the turn only."""
    s = play(corridor("paralysis-trap", "pathing-tile", rules=rules), "move E")
    assert s.turn == turn and "move E" in legal(s)


@pytest.mark.parametrize("rules, strength, weakness", [("1.1.2", 1, -1), ("1.1", -1, 1), ("1.0", -1, 1)])
def test_thrown_strength_and_weakness_alike_only_from_v112(rules, strength, weakness):
    """FROM V1.1: "Strength and weakness potion now have same effect when thrown on player or enemy" - so in 1.1 (and
    1.0) a thrown potion of strength still weakened an enemy's attack, and weakness strengthened it."""
    cells = [START, cell(1, 0, "troll", "W", face="down")]
    s = play(new_state(cells, items=["green-potion", "yellow-potion"], potions=ALL, rules=rules), "flip E",
             "throw green E")
    assert foe(s, 1, 0)[3] == strength
    play(s, "throw yellow E")
    assert foe(s, 1, 0)[3] == strength + weakness


@pytest.mark.parametrize("rules", ["1.0", "1.1"])
@pytest.mark.parametrize("character", ["mage", "bard"])
def test_before_v112_four_characters_mage_and_bard_are_an_error(rules, character):
    """Rulebook v1.0, CHARACTER CARD: "There are four characters: the Warrior, the Rogue, the Cleric, and the Explorer"
    (v1.1.2: "There are six characters: ... the MAGE, and the BARD") - a 1.0 or 1.1 campaign with a Mage or a Bard is
    CR224 (they arrive in v1.1.2)."""
    result = load_campaign_text(json.dumps(campaign_dict([START], character=character, rules=rules)))
    assert result.campaign is None
    [diag] = [d for d in result.diagnostics if d.code == "CR224"]
    assert diag.json_path == "$.hero.character" and diag.message.startswith(f"rules {rules} has no ")
    assert "the Warrior, the Rogue, the Cleric and the Explorer" in diag.message
    assert load_campaign_text(json.dumps(campaign_dict([START], character=character, rules="1.1.2"))).campaign
    for four in ("warrior", "rogue", "cleric", "explorer"):
        assert load_campaign_text(json.dumps(campaign_dict([START], character=four, rules=rules))).campaign


def test_a_campaign_s_own_character_is_allowed_in_every_version():
    """The four characters of v1.0 are the catalog's: a character the campaign defines itself is its author's."""
    for rules in ("1.0", "1.1"):
        doc = campaign_dict([START], character="ranger", rules=rules)
        doc["cards"] = {"ranger": {"name": "Ranger", "kind": "character", "max_health": 10, "abilities": []}}
        result = load_campaign_text(json.dumps(doc))
        assert result.campaign is not None, [d.message for d in result.diagnostics]


# ====================================================================== through the CLI: cardrogue run --format json


def _cli() -> list[str]:
    script = Path(sys.executable).with_name("cardrogue")
    return [str(script)] if script.exists() else [sys.executable, "-m", "cardrogue.cli.main"]


def cli_run(tmp_path: Path, doc: dict, *actions: str) -> tuple[int, dict]:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(doc))
    done = subprocess.run([*_cli(), "run", str(path), *actions, "--format", "json"],
                          capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, json.loads(done.stdout)


def lines(out: dict) -> list[str]:
    return [line for step in out["steps"] for line in step["log"]]


def test_cli_double_move_then_no_third(tmp_path):
    """TURNS: "he may repeat his turn from step 2" - once: a third move the same turn is refused."""
    cells = [START] + [cell(i, 0, "pathing-tile", "EW") for i in (1, 2)] + [cell(3, 0, "pathing-tile", "W")]
    code, out = cli_run(tmp_path, campaign_dict(cells), "move E", "move E", "move E")
    assert code == 1 and out["failure"]["index"] == 2
    assert out["state"]["at"] == [2, 0] and out["state"]["turn"] == 1
    assert "The hero has only moved this turn, so may move again: the turn repeats from step 2." in lines(out)


def test_cli_slaying_resumes_at_step_2_after_a_flip_and_step_4_after_a_move(tmp_path):
    """SLAYING AN ENEMY: "resume his Standard Turn Sequence at step 2 if he flipped over the enemy card, or at step 4
    if he moved adjacent to the enemy"."""
    flipped = [START, cell(1, 0, "cave-bat", "EW", face="down", rolls=[3]), cell(2, 0, "pathing-tile", "W")]
    code, out = cli_run(tmp_path, campaign_dict(flipped), "flip E", "attack", "move E")
    assert code == 0 and out["state"]["at"] == [1, 0] and out["state"]["gold"] == 1
    moved = [START, cell(1, 0, "pathing-tile", "EW"), cell(2, 0, "cave-bat", "W", rolls=[3])]
    code, out = cli_run(tmp_path, campaign_dict(moved), "move E", "attack", "move E")
    assert code == 1 and out["failure"]["action"] == "move E" and out["legal"] == ["end"]


def test_cli_flee_fails_then_succeeds(tmp_path):
    """FLEEING FROM AN ENEMY: 1-3 fails (steps 2 and 3 follow, the turn ends); 4-6 flees to an adjacent tile."""
    cells = [cell(0, 0, "starting-tile", "ES"), cell(1, 0, "goblin", "W", face="down", rolls=[2, 5]),
             cell(0, 1, "pathing-tile", "N")]
    code, out = cli_run(tmp_path, campaign_dict(cells, character="bard"), "flip E", "flee S", "flee S")
    assert code == 0
    assert out["state"]["at"] == [0, 1] and out["state"]["turn"] == 2 and out["state"]["health"] == 11 - 2
    assert not out["state"]["in_combat"] and out["legal"] == ["end"]
    log = lines(out)
    assert "Goblin's stream rolls 2: fails to flee; the enemies act." in log
    assert "Goblin's stream rolls 5: escapes it." in log


def test_cli_double_damage_5_times_2_plus_1_is_11(tmp_path):
    """ATTACK ROLL MODIFIER + OTHER ATTACK MODIFIERS: "If he rolls a 5 for his attack roll, the attack damage will be
    5 * 2 + 1 = 11" (maul's DOUBLE DAMAGE, warrior's +1)."""
    cells = [START, cell(1, 0, "golem", "W", face="down", rolls=[5, 1])]
    code, out = cli_run(tmp_path, campaign_dict(cells, equipped=["maul"], cards={"golem": {"health": 30}}),
                        "flip E", "attack")
    assert code == 0 and out["state"]["enemies"][0]["health"] == 30 - 11


def test_cli_reroll_twice_2_plus_2_plus_5_is_9(tmp_path):
    """ROLLING AN X: REROLL TWICE: "say a player has +2 to attack roll and rolls an X. The player rolls twice more
    resulting in a 2 and a 5. Therefore, the damage dealt is 9 (2 + 2 + 5)"."""
    cells = [START, cell(1, 0, "golem", "W", face="down", rolls=[6, 2, 5, 1])]
    cards = {"warrior": {"abilities": ["+2 TO ATTACK ROLL"]}, "golem": {"health": 30}}
    code, out = cli_run(tmp_path, campaign_dict(cells, equipped=["dagger"], cards=cards), "flip E", "attack")
    assert code == 0 and out["state"]["enemies"][0]["health"] == 30 - 9


def test_cli_poisoned_enemy_left_behind_does_not_suffer(tmp_path):
    """Project decision (docs/rules.md, "Enemy poison"): fleeing a poisoned enemy restores it and ends its poison."""
    cells = [cell(0, 0, "starting-tile", "ES"), cell(1, 0, "troll", "W", face="down"),
             cell(0, 1, "pathing-tile", "N")]
    code, out = cli_run(tmp_path, campaign_dict(cells, items=["blue-potion"], potions=ALL),
                        "flip E", "throw blue E", "flee S", "end")
    assert code == 0 and out["state"]["turn"] == 2 and not out["state"]["in_combat"]
    # every revealed enemy is reported, adjacent or not: the troll left behind, whole and no longer poisoned
    assert out["state"]["enemies"] == [{"card": "troll", "at": [1, 0], "health": 9, "max_health": 9, "attack": 4,
                                        "poisoned": 0, "paralysed": 0, "adjacent": False}]
    assert not any(line.startswith("Poison: Troll") for line in lines(out))


def test_cli_fountain_heals_at_the_start_of_the_next_turn(tmp_path):
    """The fountain of healing: at the beginning of the turn on the fountain, a roll of 1-5 heals 2."""
    cells = [START, cell(1, 0, "fountain-of-healing", "EW", rolls=[1, 3]), cell(2, 0, "spike-trap", "W", face="down")]
    code, out = cli_run(tmp_path, campaign_dict(cells), "move E", "end", "flip E", "end")
    assert code == 0 and out["state"]["health"] == 12 and out["state"]["turn"] == 3
    assert out["steps"][-1]["log"][:2] == ["Ends turn 2.", "Turn 3."]
    assert any("fountain of healing: heals 2" in line for line in out["steps"][-1]["log"])


def test_cli_flee_several_enemies_one_roll_from_the_named_enemy(tmp_path):
    """FLEE: "The player picks one enemy to perform step 1 of the combat turn sequence, but steps 2 and 3 are applied
    for all enemies" - `flee S E` rolls the kobold's stream once; `flee S` alone does not say which enemy."""
    cells = [cell(1, 0, "starting-tile", "ESW"), cell(0, 0, "goblin", "E", rolls=[1]),
             cell(2, 0, "kobold", "W", rolls=[6]), cell(1, 1, "pathing-tile", "N")]
    doc = campaign_dict(cells, character="bard")
    code, out = cli_run(tmp_path, doc, "flee S")
    assert code == 1 and out["failure"]["action"] == "flee S"
    assert {"flee S E", "flee S W", "attack E", "attack W"} <= set(out["legal"])
    code, out = cli_run(tmp_path, doc, "flee S E")
    assert code == 0 and out["state"]["at"] == [1, 1] and out["state"]["turn"] == 1 and out["legal"] == ["end"]
    assert "Kobold's stream rolls 6: escapes it." in lines(out)
    assert not any(line.startswith("Goblin's stream") for line in lines(out))


def test_cli_shop_before_combat(tmp_path):
    """Standard turn sequence: "2. Move: ... If he moves onto a SHOP, he may BUY and SELL with the shopkeeper", then
    "3. Interact: If the player moves adjacent to an enemy, the player enters combat"."""
    cells = [START, cell(1, 0, "shop", "EW", stock=["helm"]), cell(2, 0, "goblin", "W", rolls=[1, 1])]
    code, out = cli_run(tmp_path, campaign_dict(cells, items=["gold"] * 6), "move E", "buy helm", "equip helm",
                        "attack")
    assert code == 0 and out["state"]["gold"] == 0 and out["state"]["equipped"] == {"head": "helm"}
    assert out["state"]["turn"] == 2 and out["state"]["health"] == 12 - (2 - 1)  # the helm's -1 DAMAGE TAKEN


def test_cli_fleeing_next_to_another_enemy_fights_it_this_turn(tmp_path):
    """FLEE: "if a player flips over an enemy, or moves adjacent to another enemy, the player reenters combat" - now,
    so the kobold can be attacked in the same turn; `end` is not legal before."""
    cells = [cell(1, 0, "starting-tile", "ES"), cell(2, 0, "goblin", "W", rolls=[5]),
             cell(1, 1, "pathing-tile", "NS"), cell(1, 2, "kobold", "N", rolls=[6])]
    code, out = cli_run(tmp_path, campaign_dict(cells, character="bard"), "flee S", "end")
    assert code == 1 and out["failure"]["action"] == "end" and out["state"]["in_combat"]
    code, out = cli_run(tmp_path, campaign_dict(cells, character="bard"), "flee S", "attack")
    assert code == 0 and out["state"]["turn"] == 1 and out["state"]["gold"] == 2 and out["legal"] == ["end"]


def test_cli_rules_1_1_thrown_strength_still_reversed(tmp_path):
    """Updates from previous versions, FROM V1.1: "Strength and weakness potion now have same effect when thrown on
    player or enemy" - under rules 1.1 a thrown potion of strength still takes 1 from the troll's attack."""
    cells = [START, cell(1, 0, "troll", "W", face="down")]
    code, out = cli_run(tmp_path, campaign_dict(cells, items=["green-potion"], potions=ALL, rules="1.1"),
                        "flip E", "throw green E")
    assert code == 0 and out["state"]["enemies"][0]["attack"] == 4 - 1


def test_cli_rules_1_0_with_a_bard_is_refused(tmp_path):
    """Rulebook v1.0: "There are four characters" - `cardrogue run` refuses a 1.0 campaign with the Bard (exit 1: a campaign with errors)."""
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(campaign_dict([START], character="bard", rules="1.0")))
    done = subprocess.run([*_cli(), "run", str(path), "end"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "CR224" in done.stderr and "Traceback" not in done.stderr


def test_cli_reports_an_enemy_where_a_thrown_teleportation_put_it(tmp_path):
    """POTION OF TELEPORTATION, thrown: the enemy is teleported to a pathing tile of the player's choice; `cardrogue run
    --format json` lists every revealed enemy where it stands now, face-down ones not at all."""
    cells = [START, cell(1, 0, "troll", "EW", face="down"), cell(2, 0, "pathing-tile", "EW"),
             cell(3, 0, "pathing-tile", "EW"), cell(4, 0, "kobold", "W", face="down")]
    code, out = cli_run(tmp_path, campaign_dict(cells, items=["purple-potion"], potions=ALL),
                        "flip E", "throw purple E", "teleport 3,0")
    assert code == 0 and not out["state"]["in_combat"]
    assert out["state"]["enemies"] == [{"card": "troll", "at": [3, 0], "health": 9, "max_health": 9, "attack": 4,
                                        "poisoned": 0, "paralysed": 0, "adjacent": False}]
