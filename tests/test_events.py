"""The game's log as typed events (engine/rules/events.py): facts a program reads, and one sentence each."""

from helpers import cell, new_state, play

from cardrogue.editor.player.screens import log_line
from cardrogue.engine.rules.events import (
    Attacked,
    AttackTotal,
    CombatBegan,
    Damage,
    Died,
    Event,
    Flipped,
    Heal,
    Roll,
    RuleApplied,
    Slain,
    TurnBegan,
    Victory,
)

START = cell(0, 0, "starting-tile", "E")


def kinds(events) -> list[type]:
    return [type(e) for e in events]


def test_a_fight_as_events():
    """ATTACK ROLL: the die from the enemy's stream, the total, the damage dealt; SLAYING AN ENEMY: the loot."""
    s = new_state([START, cell(1, 0, "goblin", "W", face="down", rolls=[6])])
    play(s, "flip E", "attack")
    log = s.view().log
    assert kinds(log) == [TurnBegan, Flipped, CombatBegan, Attacked, Roll, AttackTotal, Damage, Slain]
    roll = log[4]
    assert (roll.source, roll.value, roll.purpose) == ("Goblin", 6, "attack roll")
    hit = log[6]
    assert (hit.target, hit.amount, hit.hero) == ("Goblin", 7, False)
    assert log[7].enemy == "Goblin" and log[7].gold == log[7].loot == s.gold
    assert [str(e) for e in log[4:]] == [
        "Goblin's stream rolls 6 for the attack roll.",
        "Attack: 7 from rolls totalling 6 (modifier +1).",
        "Deals 7 to Goblin: 0 health left.",
        f"Goblin is slain: loot worth {s.gold} gold (gold {s.gold}).",
    ]


def test_the_hero_hurt_and_dying_as_events():
    """DEATH: the blow that takes the hero below zero, then the end of the run."""
    s = new_state([START, cell(1, 0, "goblin", "W", face="down", rolls=[1, 1])],
                  cards={"goblin": {"attack": 12}})
    play(s, "flip E", "attack")
    hurt = next(e for e in s.view().log if isinstance(e, Damage) and e.hero)
    assert hurt.amount == 12 and hurt.health == s.health <= 0 and hurt.cause.startswith("Goblin attacks")
    assert isinstance(s.view().log[-1], Died) and "has died" in str(s.view().log[-1])


def test_a_blow_below_zero_says_what_the_screens_say():
    """Issue 13.9: the log, the hero panel and the end screen agree: a hero at -2 has 0 health left."""
    s = new_state([START, cell(1, 0, "goblin", "W", face="down", rolls=[1, 1])], cards={"goblin": {"attack": 14}})
    play(s, "flip E", "attack")
    hurt = next(e for e in s.view().log if isinstance(e, Damage) and e.hero)
    assert hurt.health == s.health == -2 and str(hurt).endswith("health 0/12.")


def test_every_event_is_immutable_and_its_sentence_is_its_text():
    e = RuleApplied("ATTACK AGAIN", "ATTACK AGAIN.")
    assert str(e) == e.text == "ATTACK AGAIN." and e.rule == "ATTACK AGAIN"
    try:
        e.rule = "x"
    except AttributeError:
        pass
    else:
        raise AssertionError("an event is immutable")
    assert all(issubclass(k, Event) for k in (Roll, Damage, Heal, Victory))


def test_the_player_colours_the_log_by_event_kind_not_by_words():
    """A sentence holding 'Victory' or 'loses' is not coloured for its words; the hero's damage is red."""
    assert log_line(RuleApplied("X", "Victory loses died rolls")).style == ""
    assert log_line(Damage("Warrior", 2, 6, 8, "Goblin attacks for 2", hero=True)).style == "red"
    assert log_line(Heal("Warrior", 2, 8, 8, "Fountain", hero=True)).style == "green"
    assert log_line(Roll("Goblin", 3, "attack roll")).style == "yellow"
    assert log_line(TurnBegan(2)).style == "bold cyan"
    assert log_line(Victory(4, 8)).style == "bold green"
    assert log_line(Died("Warrior", "x")).style == "bold red"


def test_combat_sentence_offers_flee_only_when_the_hero_can_flee():
    """Project: the Warrior card's CANNOT FLEE; the rulebook's exception, ROLL A DIE: IF X: CAN FLEE: "If a
    WARRIOR character has this ability, he may flee any enemy by rolling X". A turn that begins in combat
    offers flee only to a hero who can flee, and names the rule that bars it."""
    def second_turn(character: str, **kw):
        cells = [cell(0, 0, "starting-tile", "ES"), cell(1, 0, "goblin", "W", face="down", rolls=[1, 1]),
                 cell(0, 1, "pathing-tile", "N")]
        s = play(new_state(cells, character=character, cards={"goblin": {"health": 30}}, **kw), "flip E", "attack")
        began = s.view().log[-1]
        assert isinstance(began, CombatBegan) and began.when == "turn"
        return s, began

    s, began = second_turn("warrior")
    assert began.no_flee == "CANNOT FLEE" == s.view().no_flee
    assert str(began) == "In combat: attack; no flee (CANNOT FLEE)."
    assert not any(a.verb == "flee" for a in s.legal_actions())
    s, began = second_turn("warrior", equipped=["shadow-cape"])  # CAN FLEE X: the warrior may flee again
    assert (began.no_flee, str(began)) == ("", "In combat: attack or flee.")
    s, began = second_turn("rogue")
    assert (began.no_flee, str(began)) == ("", "In combat: attack or flee.")
    assert any(a.verb == "flee" for a in s.legal_actions())


def test_the_attack_total_names_double_damage_and_min_attack():
    """DOUBLE DAMAGE (the Maul) and MIN. ATTACK shape the damage; the sentence says how, so "Attack: 5 from
    rolls totalling 2" does not read as a sum gone wrong."""
    s = new_state([START, cell(1, 0, "goblin", "W", face="down", rolls=[2])], items=["maul"], equipped=["maul"],
                  cards={"goblin": {"health": 30}})
    play(s, "flip E", "attack")
    total = next(e for e in s.view().log if isinstance(e, AttackTotal))
    assert total.double and str(total) == "Attack: 5 from rolls totalling 2, doubled (DOUBLE DAMAGE) (modifier +1)."
    floor = AttackTotal(3, 2, -1, minimum=3)
    assert str(floor) == "Attack: 3 from rolls totalling 2, raised to 3 (MIN. ATTACK) (modifier -1 and no less than MIN. ATTACK)."


def test_a_condition_on_the_hero_names_the_hero_not_its_cause():
    """"Basilisk of Stone: paralysed; 1 turn will be skipped." read as the basilisk paralysed (the very shape of
    "Troll: paralysed; it neither attacks ...", said of a troll hit by a thrown potion), and the next line had the
    basilisk strike: a newcomer could not tell who lost the turn. PARALYSIS and POISON on the hero say so."""
    from cardrogue.engine.rules.events import Paralysed, Poisoned

    for card, kind, said in (
            ("basilisk-of-stone", Paralysed, "Basilisk of Stone: the hero is paralysed; 1 turn will be skipped."),
            ("basilisk-of-venom", Poisoned,
             "Basilisk of Venom: the hero is poisoned, -1 health each turn for 3 turns.")):
        s = new_state([START, cell(1, 0, card, "W", face="down", rolls=[1, 5])])
        play(s, "flip E", "attack")
        assert [str(e) for e in s.view().log if isinstance(e, kind)] == [said], card
