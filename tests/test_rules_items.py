"""Items, potions, scrolls, equipment, artifacts, curses ("ITEMS", "Potions", "Scrolls", Clarifications)."""

import pytest
from helpers import cell, legal, new_state, play

from cardrogue.engine.model.campaign import POTION_COLOURS, POTION_EFFECTS
from cardrogue.engine.model.potions import potion_identities
from cardrogue.engine.rules.state import CHOOSE_TELEPORT

START = cell(0, 0, "starting-tile", "E")
ALL = {c: e for c, e in zip(POTION_COLOURS, POTION_EFFECTS)}  # red healing, blue poison, green strength,
# yellow weakness, purple teleportation, orange paralysis


def hero(*items, cells=None, **kw):
    return new_state(cells or [START, cell(1, 0, "pathing-tile", "W")], items=list(items), potions=ALL, **kw)


def test_potion_identities_fixed_from_seed_and_author():
    """Potions: each colour a different effect; fixed per campaign from the seed, or set by the author."""
    a = potion_identities(42)
    assert sorted(a.values()) == sorted(POTION_EFFECTS) and a == potion_identities(42)
    assert potion_identities(42, {"red": "paralysis"})["red"] == "paralysis"
    assert len({tuple(potion_identities(s).values()) for s in range(20)}) > 5


def test_healing_potion_and_above_max_no_effect():
    """POTION OF HEALING: restore health to max; "If the current health is greater than max health ... no effect"."""
    s = play(hero("red-potion", cells=[START, cell(1, 0, "spike-trap", "W")]), "move E", "drink red")
    assert s.health == s.max_health
    s = hero("red-potion", "cursed-idol")
    assert s.max_health == 10
    s.health = 11  # as after picking up a -X TO MAX HEALTH artifact at full health
    play(s, "drink red")
    assert s.health == 11


def test_poison_potion_drunk_and_stacking_example():
    """POISON: 3 then 4 -> 4 turns; 3 then 1 -> 3 turns."""
    def trap(turns):
        cells = [START, cell(1, 0, "poison-trap", "W", face="down")]
        return hero("blue-potion", cells=cells, cards={"poison-trap": {"abilities": [f"POISON -1 HEALTH FOR {turns} TURNS"]}})

    s = play(trap(4), "drink blue")
    assert s.poison == 3
    play(s, "flip E")
    assert s.poison == 4
    s = play(trap(1), "drink blue", "flip E")
    assert s.poison == 3
    play(s, "end", "end", "end")
    assert s.health == s.max_health - 3 and s.poison == 0


def test_strength_and_weakness_potions_drunk():
    """POTION OF STRENGTH / WEAKNESS if drank: +1 / -1 attack roll, permanently."""
    s = play(hero("green-potion", "yellow-potion", "green-potion"), "drink green", "drink green", "drink yellow")
    assert s.atk_bonus == 1


def _said_after(s, potion: str) -> str:
    """The log's sentence right after the one naming ``potion`` (drunk or thrown): what it did."""
    texts = [e.text for e in s.log]
    return texts[next(i for i, t in enumerate(texts) if f"the {potion} potion" in t) + 1]


def test_a_thrown_strength_potion_is_logged_with_what_it_did():
    """POTION OF STRENGTH (v1.1.2): "If drank: +1 attack to attack roll. ... If thrown: the potion will grant the
    player it was thrown on +1 attack roll. An enemy, it was thrown on, will gain +1 to their standard attack. This
    effect is permanent." The log named the potion thrown and not its effect (left21); drunk, it said nothing
    more either. POTION OF WEAKNESS: "An enemy, it was thrown on, will gain -1 to their standard attack." """
    cells = [START, cell(1, 0, "troll", "W", face="down", rolls=[1, 1, 1])]
    s = play(hero("green-potion", "yellow-potion", "green-potion", cells=cells), "flip E", "throw green E")
    attack = s.view().foe_at(1, 0).attack
    assert _said_after(s, "green") == f"Troll: +1 to its attack, now {attack}."
    play(s, "throw yellow E")
    assert _said_after(s, "yellow") == f"Troll: -1 to its attack, now {attack - 1}."
    s = play(hero("green-potion", "yellow-potion"), "drink green")
    assert _said_after(s, "green") == "+1 to the attack roll (+1 in all)."
    play(s, "drink yellow")
    assert _said_after(s, "yellow") == "-1 to the attack roll (+0 in all)."


def test_other_potions_thrown_are_logged_with_what_they_did():
    """POTIONS, if thrown (v1.1.2): HEALING "will fully restore the health of the player or enemy it was thrown on";
    POISON "An enemy will lose 1 health, before he performs an action, for 3 turns"; PARALYSIS "An enemy will be
    unable to attack or apply combat effects for that turn." """
    said = {}
    for colour in ("red", "blue", "orange"):
        s = play(hero(f"{colour}-potion", cells=[START, cell(1, 0, "troll", "W", face="down")]), "flip E",
                 f"throw {colour} E")
        said[colour] = _said_after(s, colour)
    assert said == {"red": "Troll: health is not below max: no effect.",
                    "blue": "Troll: poisoned, -1 health before each of its actions for 3 turns.",
                    "orange": "Troll: paralysed; it neither attacks nor uses its abilities this turn."}


def test_paralysis_potion_drunk_skips_next_turn():
    """POTION OF PARALYSIS if drank: end turn, and skip the next turn."""
    s = play(hero("orange-potion"), "drink orange")
    assert s.turn == 3


def test_teleportation_potion_drunk():
    """POTION OF TELEPORTATION: move to any revealed, unoccupied pathing tile and end turn."""
    cells = [START, cell(1, 0, "pathing-tile", "EW"), cell(2, 0, "spike-trap", "EW"), cell(3, 0, "pathing-tile", "W")]
    s = play(hero("purple-potion", cells=cells), "drink purple")
    assert s.phase == CHOOSE_TELEPORT and legal(s) == ["teleport 1,0", "teleport 3,0"]
    play(s, "teleport 3,0")
    assert s.position == (3, 0) and s.turn == 2


def test_thrown_potions_on_enemy():
    """THROW: healing restores, poison -1 each turn for 3 turns, strength +1 attack, weakness -1 attack (v1.1)."""
    cells = [START, cell(1, 0, "troll", "W", face="down", rolls=[1, 1, 1])]
    s = play(hero("blue-potion", "green-potion", cells=cells), "flip E", "throw green E", "throw blue E", "attack")
    troll = s.view().foe_at(1, 0)
    assert troll.attack_modifier == 1
    assert s.health == s.max_health - 5
    assert troll.health == 9 - 2 - 1  # attack 2, then poison at the start of turn 2


def test_thrown_strength_on_enemy_v10_is_reversed():
    """Updates from V1.1: before, a thrown strength potion gave an enemy -1 attack."""
    cells = [START, cell(1, 0, "troll", "W", face="down")]
    s = play(hero("green-potion", cells=cells, rules="1.0"), "flip E", "throw green E")
    assert s.view().foe_at(1, 0).attack_modifier == -1


def test_thrown_teleportation_moves_the_enemy():
    """POTION OF TELEPORTATION if thrown: the thrower moves the enemy to any pathing tile."""
    cells = [START, cell(1, 0, "goblin", "EW", face="down"), cell(2, 0, "pathing-tile", "W")]
    s = play(hero("purple-potion", cells=cells), "flip E", "throw purple E", "teleport 2,0")
    assert s.view().foe_at(2, 0).name == "Goblin" and not s.view().in_combat and "move E" in legal(s)


def test_identify_scroll():
    """IDENTIFY AN UNKNOWN ITEM IN YOUR HAND: the potion is identified but not used."""
    s = play(hero("scroll-of-identify", "red-potion"), "read scroll-of-identify red")
    assert list(s.view().known_potions) == ["red"] and s.hand == ("red-potion",)


def test_scroll_of_passage_moves_through_walls_and_ends_turn():
    """MOVE TO ANY ADJACENT TILE: to a tile the paths do not lead to, then end turn."""
    cells = [cell(0, 0, "starting-tile", ""), cell(1, 0, "pathing-tile", "")]
    s = play(hero("scroll-of-passage", cells=cells), "read scroll-of-passage E")
    assert s.position == (1, 0) and s.turn == 2


def test_arrival_by_passage_acts_next_turn():
    """Teleporting or moving to a tile, but turn is ended: traps trigger at the beginning of that player's turn."""
    cells = [cell(0, 0, "starting-tile", ""), cell(1, 0, "spike-trap", "")]
    s = play(hero("scroll-of-passage", cells=cells), "read scroll-of-passage E")
    assert s.health == s.max_health - 2 and s.turn == 2


def test_antidote_scroll():
    """POISON INSTEAD HEALS +X HEALTH: while poisoned, heal instead; removed with the poison."""
    cells = [START, cell(1, 0, "spike-trap", "W")]
    s = play(hero("blue-potion", "scroll-of-antidote", cells=cells), "move E", "drink blue", "read scroll-of-antidote")
    play(s, "end")
    assert s.health == s.max_health - 1
    play(s, "end", "end")
    assert s.poison == 0 and s.antidote == 0 and s.health == s.max_health


def test_plus_x_max_health_example():
    """+X TO MAX HEALTH: 10 max / 7 current becomes 10+X / 7+X."""
    s = hero("scroll-of-vitality", character="bard", cards={"bard": {"abilities": []}})
    s.health = 7
    play(s, "read scroll-of-vitality")
    assert (s.max_health, s.health) == (12, 9)


def test_minus_x_max_health_example():
    """-X TO MAX HEALTH: at 10/10 picking up -X keeps 10 health; healing never exceeds 10 - X."""
    cells = [START, cell(1, 0, "cursed-idol", "W", face="down"), ]
    s = play(hero("red-potion", "red-potion", cells=cells, character="bard", cards={"bard": {"abilities": []}}), "flip E")
    assert (s.max_health, s.health) == (8, 10)
    play(s, "drink red")  # above max: healing has no effect
    assert s.health == 10
    s.health = 5
    play(s, "drink red")
    assert s.health == 8


def test_cursed_items_stay_until_removed():
    """CURSED: cannot be removed from the hand unless REMOVE ALL YOUR CURSED ITEMS is played."""
    s = hero("withered-hand", "scroll-of-remove-curse", cells=[START, cell(1, 0, "shop", "W")])
    play(s, "move E")
    assert "sell withered-hand" not in legal(s) and s.stats.attack_roll == 0
    play(s, "read scroll-of-remove-curse")
    assert s.hand == () and s.stats.attack_roll == 1


def test_equipment_one_item_per_slot_and_swap():
    """Weapons and Armor: one item per slot; equipping another puts the old one back in the hand."""
    s = play(hero("sword", "dagger"), "equip sword")
    assert s.equip[3] == "sword" and s.stats.attack_roll == 2
    play(s, "equip dagger")
    assert s.equip[3] == "dagger" and "sword" in s.hand
    play(s, "unequip dagger")
    assert s.equip == ("",) * 5 and s.hand == ("dagger", "sword")


def test_maul_covers_both_hands():
    """SECONDARY HAND SLOT: a double-handed MAUL covers the primary and secondary hand slots."""
    s = play(hero("maul", "shield", "sword"), "equip sword", "equip shield", "equip maul")
    assert s.equip[3:] == ("maul", "maul") and s.hand == ("shield", "sword")
    play(s, "equip shield")
    assert s.equip[3:] == ("", "shield") and "maul" in s.hand


def test_rogue_second_dagger():
    """SECONDARY HAND SLOT: "Under special situations, a second weapon may be placed in the secondary hand slot (the
    ROGUE character can equip a second DAGGER in this slot)" - the rogue can equip a second dagger; each dagger's
    REROLL TWICE adds two rolls."""
    s = play(hero("dagger", "dagger", character="rogue"), "equip dagger", "equip dagger")
    assert s.equip[3:] == ("dagger", "dagger") and s.stats.reroll[6] == 4
    s = play(hero("dagger", "dagger"), "equip dagger")
    assert "equip dagger" not in legal(s) and s.equip[3:] == ("dagger", "") and s.hand == ("dagger",)


def test_unsellable_key():
    """UNSELLABLE: the key cannot be sold."""
    s = play(hero("key", cells=[START, cell(1, 0, "shop", "W")]), "move E")
    assert "sell key" not in legal(s)


def test_mage_spell_and_cooldown():
    """Project: SPELL: MOVE TO ANY ADJACENT TILE. COOLDOWN: 3 TURNS."""
    cells = [cell(0, 0, "starting-tile", ""), cell(1, 0, "pathing-tile", ""), cell(2, 0, "pathing-tile", "")]
    s = play(hero(cells=cells, character="mage"), "spell E")
    assert s.position == (1, 0) and "spell E" not in legal(s)
    play(s, "end", "end")
    assert "spell E" not in legal(s)
    play(s, "end")
    assert "spell E" in legal(s)


@pytest.mark.parametrize("text", ["drink red", "throw red N", "read scroll-of-passage E", "teleport 3,4", "attack",
                                  "attack W", "flee S", "equip sword", "buy helm", "spell E", "end", "flip N", "move E"])
def test_action_text_round_trip(text):
    from cardrogue.engine.rules.actions import Action

    assert str(Action.parse(text)) == text
    assert Action.parse(str(Action.parse(text))) == Action.parse(text)
