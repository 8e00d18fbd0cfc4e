"""Rules that always end (issue 18.3): abilities the engine cannot finish are refused by the
format, every number in an ability has bounds, and one attack has a bounded number of rolls."""

from __future__ import annotations

import json

import pytest
from helpers import campaign_dict, cell, load, new_state, play

from cardrogue.cli.main import main
from cardrogue.editor import edits
from cardrogue.engine.format.checks import RuleError
from cardrogue.engine.format.checks.abilities import NUMBER_BOUNDS
from cardrogue.engine.format.diagnostics import Severity
from cardrogue.engine.format.loader import load_campaign_text
from cardrogue.engine.model.abilities import VOCABULARY
from cardrogue.engine.rules.combat import MAX_ATTACK_ROLLS

START = cell(0, 0, "starting-tile", "E")
DUMMY = {"name": "Dummy", "kind": "enemy", "attack": 0, "health": 200}  # rolls nothing of its own


def dummy(**extra) -> dict:
    return cell(1, 0, "dummy", "W", face="down", **extra)


def found(cards: dict) -> list[tuple[str, str, str]]:
    """(code, message, JSON path) of every error of a small campaign with these cards."""
    text = json.dumps(campaign_dict([START, dummy()], equipped=["sword"], cards={"dummy": DUMMY, **cards}))
    return [(d.code, d.message, d.json_path) for d in load_campaign_text(text, "t.json").diagnostics
            if d.severity is Severity.ERROR]


def codes(cards: dict) -> set[str]:
    return {code for code, _, _ in found(cards)}


# --------------------------------------------------------------------------- rolls that stop


@pytest.mark.parametrize("abilities", [
    ["ROLLING A 1-6: ATTACK AGAIN"],
    ["ROLLING A 1,2,3,4,5,6: REROLL TWICE"],
    ["ROLLING A 1-3: REROLL TWICE", "ROLLING A 4-6: ATTACK AGAIN"],
])
def test_rolls_on_every_face_are_refused(abilities):
    """ROLLING AN X: REROLL TWICE: "Repeat until an X is not rolled as an attack": when every face
    is an X the attack never ends, so the format refuses the card (CR227) at its ability."""
    problems = found({"sword": {"abilities": abilities}})
    assert [code for code, _, _ in problems] == ["CR227"]
    _, message, path = problems[0]
    assert "never end" in message and path == f"$.cards.sword.abilities[{len(abilities) - 1}]"


def test_rolls_that_leave_one_face_are_accepted():
    assert codes({"sword": {"abilities": ["ROLLING A 1-5: ATTACK AGAIN", "ROLLING A 2: REROLL TWICE"]}}) == set()


def test_the_editor_refuses_an_endless_card_with_the_same_rule():
    campaign = load(campaign_dict([START, dummy()], cards={"dummy": DUMMY}))
    with pytest.raises(RuleError) as caught:
        edits.card_entry(campaign, "sword", {"abilities": ["ROLLING A 1-6: ATTACK AGAIN"]})
    assert caught.value.diagnostic.code == "CR227"


def test_check_and_run_refuse_an_endless_attack(tmp_path, capsys):
    """The reported attack: a weapon attacking again on every roll made `check` pass and one
    `attack` loop for ever. Now `check` reports it and `run` refuses the campaign."""
    path = tmp_path / "endless.json"
    path.write_text(json.dumps(campaign_dict([START, dummy()], equipped=["sword"], cards={
        "dummy": DUMMY, "sword": {"abilities": ["ROLLING A 1-6: ATTACK AGAIN"]}})))
    assert main(["check", str(path)]) == 1
    assert "CR227" in capsys.readouterr().out
    assert main(["run", str(path), "flip E", "attack"]) == 1
    out, err = capsys.readouterr()
    assert "CR227" in out + err and "Traceback" not in err


def test_two_items_that_together_roll_on_every_face_end_within_the_bound():
    """Two cards, each fine alone, together allot a roll on every face: the engine's bound
    (MAX_ATTACK_ROLLS attack rolls in one combat turn) ends the attack, and the action returns."""
    cards = {"dummy": DUMMY, "warrior": {"abilities": []},
             "sword": {"abilities": ["ROLLING A 1-3: REROLL TWICE"]},
             "shield": {"abilities": ["ROLLING A 4-6: ATTACK AGAIN"]}}
    state = play(new_state([START, dummy()], equipped=["sword", "shield"], cards=cards), "flip E", "attack")
    assert state.view().dice_drawn(1, 0) == MAX_ATTACK_ROLLS
    assert state.outcome is None and state.chance is None


def test_a_long_chain_of_the_rulebook_s_kind_is_not_cut():
    """REROLL TWICE: "If either of these rolls is an X, two more rolls are allotted": 20 sixes
    then 21 ones are 41 rolls, all counted (the bound is far beyond any real chain)."""
    cards = {"dummy": DUMMY, "warrior": {"abilities": []}}
    rolls = [6] * 20 + [1] * 21
    state = play(new_state([START, dummy(rolls=rolls)], equipped=["dagger"], cards=cards), "flip E", "attack")
    assert state.view().dice_drawn(1, 0) == 41 and state.view().foe_at(1, 0).health == 200 - 21


# --------------------------------------------------------------------------- numbers with bounds


def _texts(kind: str, value: int) -> str:
    effect = next(e for e in VOCABULARY if e.kind == kind)
    text = effect.template.format(x=value, y=value)
    if "die" in effect.triggers and "always" not in effect.triggers:
        text = f"ROLL A DIE: IF 1: {text}"
    return text


@pytest.mark.parametrize("kind", sorted(NUMBER_BOUNDS))
def test_every_number_in_an_ability_has_bounds(kind):
    """Each number of the vocabulary: its highest value is accepted, one more (and 0) refused
    with CR226 at the ability; PARALYZE FOR 99999999999999999999 TURNS was the reported attack."""
    _, low, high, _ = NUMBER_BOUNDS[kind]
    card = {"name": "Charm", "kind": "artifact"}
    assert codes({"charm": {**card, "abilities": [_texts(kind, high)]}}) == set()
    for bad in (high + 1, 0, low - 1):
        problems = found({"charm": {**card, "abilities": [_texts(kind, bad)]}})
        assert [(code, path) for code, _, path in problems] == [("CR226", "$.cards.charm.abilities[0]")], bad


@pytest.mark.parametrize("text", [
    "ROLL A DIE: IF 1: PARALYZE FOR 99999999999999999999 TURNS",
    "PARALYZE FOR " + "9" * 100 + " TURNS",
    "ROLLING A 1-" + "9" * 100 + ": ATTACK AGAIN",
    "PARALYZE FOR \u0663 TURNS",  # an Arabic-Indic three: one text form, ASCII digits
    "MIN. ATTACK: \uff13",  # a fullwidth three
    "ROLLING A 6-1: REROLL TWICE",
], ids=["20 digits", "100 digits", "100-digit face", "arabic digit", "fullwidth digit", "range backwards"])
def test_a_number_that_is_not_a_plain_small_number_is_refused_with_its_place(text):
    problems = found({"charm": {"name": "Charm", "kind": "artifact", "abilities": [text]}})
    assert [(code, path) for code, _, path in problems] == [("CR215", "$.cards.charm.abilities[0]")]
    assert all(len(message) < 400 for _, message, _ in problems)
