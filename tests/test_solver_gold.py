"""The static gold count (engine/analysis/gold.py; docs/solver.md, *Gold*): a buy goal priced above all
the gold the hero can have by then is proven unmeetable before any state is searched, by
`cardrogue solve` (unsolvable at once) and by `cardrogue check` (CR309).

Each rule test builds a corridor -- the starting tile, what the rule is about, a shop, the exit -- with
the purse one gold short of the price (unsolvable at once, and the search without the count agrees
by exhausting) and with the purse just enough (solved, with the reference search's par).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from helpers import campaign, cell, play, same_par_as_the_reference

from cardrogue.engine.analysis.check import check_text
from cardrogue.engine.analysis.gold import GoldCount, gold_diagnostics, ladder_order
from cardrogue.engine.analysis.solver import SOLVED, UNSOLVABLE, Budget, solve_campaign, solve_level
from cardrogue.engine.analysis.solver.par import solve
from cardrogue.engine.analysis.solver.search import Search
from cardrogue.engine.chance.resolvers import FatedResolver
from cardrogue.engine.rules.state import GameState
from cardrogue.engine.format.diagnostics import Severity
from cardrogue.engine.format.loader import load_campaign, load_campaign_text

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import gen  # noqa: E402  (the benchmarks' generator of item mixes)

BUDGET = Budget(max_states=200_000, max_seconds=3600.0)  # states decide, never the clock
CAMPAIGNS = Path(__file__).resolve().parent.parent / "campaigns"


def toll(gold: int, middle: list[dict] | None = None, stock=("sword", "dagger"), **kw):
    """The hero holding ``gold`` gold cards at 0,0; the ``middle`` cells (default a face-down goblin);
    a shop selling ``stock``; the exit. The level's goal: buy a sword (gold amount 5: 10 gold)."""
    middle = [cell(1, 0, "goblin", "EW", face="down")] if middle is None else middle
    n = len(middle)
    cells = ([cell(0, 0, "starting-tile", "E")] + middle
             + [cell(n + 1, 0, "shop", "EW", stock=list(stock)), cell(n + 2, 0, "pathing-tile", "W", face="down", exit=True)])
    return campaign(cells, items=["gold"] * gold + list(kw.pop("items", ())), goals=[("buy", "sword")], **kw)


def short_at_once(c) -> str:
    """The map is unsolvable before any state is searched; the search alone, exhausting, agrees."""
    r = solve_campaign(c, BUDGET, per_level=False)
    assert r.verdict == UNSOLVABLE and r.states_expanded == 0, r
    search = Search(c, 0, True, BUDGET, gold=False)
    assert search.run()[0] == UNSOLVABLE  # no finish in the whole (dominance-pruned) state space
    return r.reason


def affordable(c) -> None:
    """Solved, with the par (turns and health) of the reference search (no bound, no static proof)."""
    same_par_as_the_reference(c, BUDGET)


def test_the_price_is_twice_the_gold_amount():
    """The Shop: "All cards bought from the shop cost twice as much gold as is indicated on the card";
    BUY AND SELL: "discard as many gold cards, or cards with a gold amount, equaling or exceeding
    **twice** the gold amount indicated on the desired card". A sword (5) costs 10: 9 gold cards are
    short, 10 are enough."""
    reason = short_at_once(toll(9, middle=[]))
    assert reason == ("goal 'Buy sword' on level 1 \"One\" (one) cannot be met: it costs 10 gold (twice its 5), "
                      "and at most 9 gold can be had there (9 to start with)")
    affordable(toll(10, middle=[]))


def test_loot_counts_as_gold():
    """LOOT: "Each enemy card has a gold amount: this is the enemy's loot. When a player slays an enemy,
    the player places the enemy card into his hand. The card is treated like gold". The goblin's 2 and
    8 gold cards pay for the sword; 7 do not."""
    assert "at most 9 gold can be had there (7 to start with, 2 from loot)" in short_at_once(toll(7))
    affordable(toll(8))


def test_items_in_hand_and_equipped_can_be_sold():
    """SELL: "He can sell any item in his inventory for its given gold amount" (project: an equipped item
    is unequipped first). A dagger (3) held or worn, the goblin's loot (2) and 5 gold cards make 10."""
    assert "at most 9 gold" in short_at_once(toll(4, items=["dagger"]))
    affordable(toll(5, items=["dagger"]))
    assert GoldCount(toll(5, equipped=["dagger"])).start(0) == 8
    affordable(toll(5, equipped=["dagger"]))


def test_unsellable_and_cursed_cards_count_nothing():
    """UNSELLABLE: "When an item has the gold amount symbol crossed out, that item is unsellable. The
    player cannot SELL an unsellable item" (the shopkeeper's debt, artifacts); docs/rules.md, *Items*:
    "Cursed items cannot be sold". Neither adds to the purse."""
    c = toll(7, items=["shopkeepers-debt", "amulet-of-vigor", "cursed-idol"])
    assert GoldCount(c).start(0) == 7
    assert "at most 9 gold can be had there (7 to start with, 2 from loot)" in short_at_once(c)


def test_a_chests_gold_counts():
    """THE CHEST AND KEY (docs/rules.md, *Board*: "the key is discarded, the chest's contents go to the
    hand"): two gold cards in the chest and 8 in hand pay for the sword; 7 do not."""
    middle = [cell(1, 0, "key", "EW", face="down"), cell(2, 0, "chest", "EW", contents=["gold", "gold"])]
    assert "(7 to start with, 2 from gold cards)" in short_at_once(toll(7, middle=middle))
    affordable(toll(8, middle=middle))


def test_the_bards_discount():
    """The Bard (docs/rules.md, *Characters*, the project's choice): BUYS AT 1 GOLD LESS. The sword costs
    him 9: 9 gold cards are enough, 8 are short, and the reason says the price is the least."""
    reason = short_at_once(toll(8, middle=[], character="bard"))
    assert "it costs at least 9 gold (twice its 5, less the most discount)" in reason
    affordable(toll(9, middle=[], character="bard"))


def test_stock_bought_cheap_and_sold_again_counts():
    """BUY AND SELL with a discount above a card's gold amount: a hero who BUYS AT 3 GOLD LESS pays 1 for
    a potion (2) that sells for 2, so the shop itself yields a gold; the count keeps it (6 gold cards
    and the potion's gold buy the sword at 7), or it would call a solvable map unsolvable."""
    haggler = {"haggler": {"name": "Haggler", "kind": "character", "max_health": 10, "abilities": ["BUYS AT 3 GOLD LESS"]}}
    stock = ("sword", "red-potion")
    assert "at most 6 gold" in short_at_once(toll(5, middle=[], stock=stock, character="haggler", cards=haggler))
    affordable(toll(6, middle=[], stock=stock, character="haggler", cards=haggler))


def two_levels(gold_on_one: int, stock=("dagger",)):
    """Level one: ``gold_on_one`` gold cards and a dagger (3: 6 gold) to buy; a ladder to level two, whose
    goal is a dagger too, with no gold on it. Goals are per level: each needs its own 6 gold."""
    two = {"id": "two", "title": "Two", "width": 3, "height": 1, "goals": [{"buy": "dagger"}], "cells": [
        cell(0, 0, "starting-tile", "E"), cell(1, 0, "shop", "EW", stock=["dagger"]),
        cell(2, 0, "pathing-tile", "W", face="down", exit=True)]}
    cells = ([cell(0, 0, "starting-tile", "E")] + [cell(1 + i, 0, "gold", "EW", face="down") for i in range(gold_on_one)]
             + [cell(gold_on_one + 1, 0, "shop", "EW", stock=list(stock)),
                cell(gold_on_one + 2, 0, "descending-ladder", "W", face="down", to="two")])
    return campaign(cells, goals=[("buy", "dagger")], levels=[two])


def test_goals_are_per_level_and_gold_carries_down():
    """GOALS (docs/rules.md, *Goals and the end*): "Ladders and exits cannot be entered until the level's
    goals are met"; the hero's gold carries over between levels. Eight gold on level one pay 6 for its
    dagger, and selling that dagger again (SELL) brings 5 down: one short of level two's. The run is
    unsolvable at once, the reason naming level two and what was brought in; level one on its own (its
    ladder finishes it) is solved; level two from a fresh hero is short at once. Nine gold are enough."""
    c = two_levels(8)
    reason = short_at_once(c)
    assert reason == ("goal 'Buy dagger' on level 2 \"Two\" (two) cannot be met: it costs 6 gold (twice its 3), and at "
                      "most 5 gold can be had there (5 brought in)")
    assert solve_campaign(c, BUDGET, per_level=False).level == 1
    assert solve_level(c, 0, BUDGET).verdict == SOLVED
    alone = solve_level(c, 1, BUDGET)
    assert alone.verdict == UNSOLVABLE and alone.states_expanded == 0
    assert alone.reason.endswith("at most 0 gold can be had there (0 to start with)")
    affordable(two_levels(9))


def test_check_reports_an_unaffordable_buy_goal():
    """`cardrogue check`: CR309, an error on the goal, placed at the shop that sells the card, saying what
    the goal costs and the most gold to be had, with what to do; none when the purse holds the price."""
    short = gold_diagnostics(toll(7))
    assert [(d.code, d.severity, d.level, d.cell, d.path) for d in short] == [
        ("CR309", Severity.ERROR, 0, (2, 0), ("levels", 0, "goals", 0, "buy"))]
    assert "it costs 10 gold" in short[0].message and "at most 9 gold" in short[0].message and short[0].hint
    assert gold_diagnostics(toll(8)) == []
    text = gen.mixed_campaign_text(1, 4, 5, "shops")
    assert [d.code for d in check_text(text) if d.severity is Severity.ERROR] == ["CR309"]


@pytest.mark.parametrize("path", sorted(p for p in CAMPAIGNS.glob("*.json") if not p.name.endswith(".replay.json")),
                         ids=lambda p: p.stem)
def test_bundled_campaigns_pay_their_goals(path):
    """The bundled campaigns are solvable: the count never refuses them (the-unpaid-ledger's debt costs
    the bard 19 gold, and his maul, chestplate and loot make 20)."""
    c = load_campaign(path).campaign
    assert gold_diagnostics(c) == []
    assert GoldCount(c).proof() is None


def test_the_issues_shop_map_is_unsolvable_at_once():
    """4x4 `shops` seed 5 of benchmarks/gen.py (issue 14): the search proved it unsolvable only by
    exhausting 420,220 states; the count proves it before the first."""
    c = load_campaign_text(gen.mixed_campaign_text(1, 4, 5, "shops")).campaign
    r = solve_campaign(c, BUDGET)
    assert r.verdict == UNSOLVABLE and r.states_expanded == 0
    assert r.reason == ("goal 'Buy sword' on level 1 \"Level level-1\" (level-1) cannot be met: it costs 10 gold (twice its 5), and "
                        "at most 6 gold can be had there (0 to start with, 1 from gold cards, 5 from loot)")


def generated_short_maps():
    """The generated 3x3 `shops` and `all` maps of seeds 0-59 that the count proves unsolvable."""
    out = []
    for mix in ("shops", "all"):
        for seed in range(60):
            levels = 2 + seed % 2 if mix == "all" else 1
            c = load_campaign_text(gen.mixed_campaign_text(levels, 3, seed, mix)).campaign
            if GoldCount(c).proof() is not None:
                out.append((mix, seed, c))
    return out


def test_the_search_alone_agrees_on_generated_maps():
    """Every generated 3x3 map the count proves unsolvable (13 `shops` and 4 `all` maps, two or three
    levels) is unsolvable by the search alone too: it exhausts without a finish."""
    found = generated_short_maps()
    assert [(mix, seed) for mix, seed, _ in found if mix == "all"] == [("all", 17), ("all", 23), ("all", 27), ("all", 49)]
    assert len(found) == 17
    for mix, seed, c in found:
        assert Search(c, 0, True, Budget(max_states=300_000, max_seconds=3600.0), gold=False).run()[0] == UNSOLVABLE, (mix, seed)


def test_the_purse_cuts_a_line_that_spent_what_a_goal_needs():
    """The purse test (docs/solver.md, *Gold*): with 10 gold, buying the dagger first (6) leaves 4 and the
    dagger's resale (3): 7, short of the sword's 10. The state after that purchase is cut, the one
    before is not; the search with the test keeps par, health and the witness of the search without it."""
    c = toll(10, middle=[])
    s = GameState.new(c, log=False)
    s.resolve(FatedResolver(c))
    purse = Search(c, 0, True, BUDGET).purse
    play(s, "move E")
    assert not purse.short(s)
    play(s, "buy dagger")
    assert purse.short(s)
    with_test, without = Search(c, 0, True, BUDGET), Search(c, 0, True, BUDGET, gold=False)
    a, b = with_test.run(), without.run()
    assert a[0] == SOLVED and a[2:] == b[2:] and with_test.actions(a[1]) == without.actions(b[1])
    assert with_test.purse_cuts > 0 and with_test.expanded < without.expanded


def test_the_purse_keeps_what_the_levels_below_need():
    """Gold carries down (GOALS): level two's dagger costs 6 and nothing there pays for it. With 11 gold on
    level one, buying the boots (6) there leaves 5 + 3 (their resale), then the dagger (6) and its resale
    (3): 5 carried down, short of 6. The state after buying the boots is cut, the one before is not."""
    two = {"id": "two", "title": "Two", "width": 3, "height": 1, "goals": [{"buy": "dagger"}], "cells": [
        cell(0, 0, "starting-tile", "E"), cell(1, 0, "shop", "EW", stock=["dagger"]),
        cell(2, 0, "pathing-tile", "W", face="down", exit=True)]}
    c = campaign([cell(0, 0, "starting-tile", "E"), cell(1, 0, "shop", "EW", stock=["dagger", "boots"]),
                  cell(2, 0, "descending-ladder", "W", face="down", to="two")],
                 items=["gold"] * 11, goals=[("buy", "dagger")], levels=[two])
    s = GameState.new(c, log=False)
    s.resolve(FatedResolver(c))
    purse = Search(c, 0, True, BUDGET).purse
    play(s, "move E")
    assert not purse.short(s)
    play(s, "buy boots")
    assert purse.short(s)
    affordable(c)


def test_the_ladder_order_leads_every_ladder_forward_and_refuses_a_cycle():
    """Gold is carried down the ladders (DESCENDING LADDER: "a ladder descending into a hole ... only used
    in STORY MODE"; "the next turn starts on the starting tile of the level the ladder names", docs/rules.md,
    the hero as he was), so the count and the purse test read the levels
    in an order where each ladder leads forward; ladders that form a cycle have none (the count then falls
    back to its looser bound)."""
    ladders = [[1, 2], [3], [3], [], [0]]  # level 4 leads to 0, and nothing leads to it
    order = ladder_order(ladders)
    assert sorted(order) == [0, 1, 2, 3, 4]
    assert all(order.index(i) < order.index(j) for i, targets in enumerate(ladders) for j in targets)
    assert sorted(ladder_order(ladders, 1)) == [1, 3]  # from level 1: the levels it reaches
    assert ladder_order([[1], [2], [0]]) is None and ladder_order([[1], [0], []], 0) is None
    assert ladder_order([[1], [0], []], 2) == [2]
