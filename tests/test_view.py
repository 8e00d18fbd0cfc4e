"""The read-only view of a game state (engine/rules/view.py): what the player, the tools and the tests read."""

from dataclasses import FrozenInstanceError

import pytest
from helpers import FIXTURE, cell, new_state, play

from cardrogue.engine.format.loader import load_campaign
from cardrogue.engine.model.campaign import Direction
from cardrogue.engine.rules.state import GameState
from cardrogue.engine.rules.view import Face, Tile, tile_of

START = cell(0, 0, "starting-tile", "E")


def test_the_hero_at_the_start():
    s = GameState.new(load_campaign(FIXTURE).campaign)
    hero = s.view().hero
    assert hero.name == "Warrior" and hero.at == s.position
    assert (hero.health, hero.max_health) == (s.health, s.max_health)
    assert hero.attack_modifier == 1 and hero.gold == s.gold and hero.hand == s.hand
    assert [slot for slot, _ in hero.equipment] == ["head", "chest", "feet", "primary", "secondary"]
    with pytest.raises(FrozenInstanceError):
        hero.health = 99  # the view is read-only


def test_face_down_cards_show_only_their_back():
    """Fog of war: a face-down cell tells nothing of its card, its paths or an inscription."""
    s = new_state([START, cell(1, 0, "goblin", "W", face="down", inscription="beware")])
    v = s.view()
    back = v.cell(1, 0)
    assert back.face is Face.DOWN and back.card is None and back.tile is None and back.paths == ""
    assert back.inscription == "" and back.enemy is None and back.name == ""
    assert [c.at for c in v.visible_cells()] == [(0, 0)]
    assert v.face(1, 0) is Face.DOWN and v.face(5, 5) is None and v.cell(5, 5) is None
    assert v.neighbour(Direction.E) == back and v.neighbour("N") is None


def test_an_enemy_with_its_health_poison_and_paralysis():
    """Thrown potions: poison (3 turns) and paralysis show on the enemy; a blow shows in its health."""
    s = new_state([START, cell(1, 0, "troll", "W", face="down", rolls=[5, 1, 1])],
                  items=["green-potion", "purple-potion"], potions={"green": "poison", "purple": "paralysis"})
    play(s, "flip E")
    [foe] = s.view().foes
    assert (foe.name, foe.health, foe.max_health, foe.direction) == ("Troll", 9, 9, Direction.E)
    assert s.view().in_combat and s.view().cell(1, 0).tile is Tile.ENEMY
    play(s, "throw green E", "throw purple E")
    foe = s.view().foe_at(1, 0)
    assert (foe.poison, foe.paralysed) == (3, 1)
    play(s, "attack")  # 6 damage; paralysed, the troll does not strike back; the turn ends, poison bites
    foe = s.view().foe_at(1, 0)
    assert (foe.health, foe.poison, foe.paralysed) == (9 - 6 - 1, 2, 0) and foe.wounded
    assert foe.attack == 4  # the troll's card, no potion of strength or weakness thrown on it


def test_known_potions_and_legal_actions():
    s = new_state([cell(0, 0, "starting-tile", "")], items=["red-potion", "blue-potion"], potions={"red": "healing", "blue": "strength"})
    v = s.view()
    assert dict(v.known_potions) == {} and v.potion("red") is None
    assert [str(a) for a in v.legal_actions()] == ["drink blue", "drink red", "end"]
    play(s, "drink red")
    v = s.view()
    assert dict(v.known_potions) == {"red": "healing"} and v.potion("red") == "healing"
    with pytest.raises(TypeError):
        v.known_potions["blue"] = "x"  # read-only


def test_the_shop_lists_its_stock_with_prices_and_what_is_sold():
    shop = cell(1, 0, "shop", "W", stock=["dagger", "shopkeepers-debt"])
    s = new_state([START, shop], items=["gold"] * 20)
    play(s, "move E")
    offers = s.view().shop
    assert [(o.card.id, o.sold) for o in offers] == [("dagger", False), ("shopkeepers-debt", False)]
    play(s, f"buy {offers[1].card.id}")
    assert [(o.card.id, o.sold) for o in s.view().shop] == [("dagger", False), ("shopkeepers-debt", True)]
    assert s.view().here.tile is Tile.SHOP and s.view().here.hero


def test_the_log_holds_the_runs_events():
    s = new_state([START, cell(1, 0, "pathing-tile", "W", face="down")])
    play(s, "flip E")
    log = s.view().log
    assert str(log[0]).startswith("Turn 1.") and str(log[-1]) == "Flips E: Pathing Tile at (1, 0)."


def test_a_shop_next_to_an_enemy_comes_before_combat():
    """Standard turn sequence: "2. Move: ... If he moves onto a SHOP, he may BUY and SELL with the shopkeeper"
    comes before "3. Interact: If the player moves adjacent to an enemy, the player enters combat"."""
    s = new_state([START, cell(1, 0, "shop", "EW"), cell(2, 0, "goblin", "W", rolls=[1])], items=["red-potion"])
    play(s, "move E")
    view = s.view()
    assert view.shopping_first and not view.in_combat and [f.name for f in view.foes] == ["Goblin"]
    play(s, "attack")
    assert s.view().in_combat and not s.view().shopping_first


def test_tile_of_a_card_is_the_tile_its_revealed_cell_shows():
    """Who knows the map (the Monte Carlo policy) reads a face-down card's tile as the player will see it."""
    s = GameState.new(load_campaign(FIXTURE).campaign)
    campaign = s.view().campaign
    seen = 0
    for level in range(len(campaign.levels)):
        s = GameState.new(campaign, level)
        for c in campaign.levels[level].cells:
            cell_view = s.view().cell(c.x, c.y)
            assert cell_view.face is Face.DOWN or cell_view.tile is tile_of(campaign.cards[c.card])
            seen += cell_view.face is Face.UP
    assert seen >= 3
    assert tile_of(campaign.cards["descending-ladder"]) is Tile.LADDER and tile_of(campaign.cards["goblin"]) is Tile.ENEMY


def test_the_heros_health_and_hand_alone_match_the_hero():
    s = new_state([START, cell(1, 0, "spike-trap", "W")], items=["key", "red-potion"])
    play(s, "move E")
    v = s.view()
    assert (v.health, v.max_health, v.hand, v.position) == (v.hero.health, v.hero.max_health, v.hero.hand, v.hero.at)
    assert v.health < v.max_health and v.hand == ("key", "red-potion")
