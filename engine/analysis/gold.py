"""Gold: a static count of the gold a campaign can ever yield, held against what its buy goals cost.

A ``buy`` goal is met by buying its card in a shop of the level ("GOALS"; docs/rules.md, *Goals and
the end*), and "to buy a card, take the card from the shop pile and discard as many gold cards, or
cards with a gold amount, equaling or exceeding **twice** the gold amount indicated on the desired
card" (The Shop > BUY AND SELL). The hero's gold never goes below zero, so a goal whose price is
more than all the gold he can have by then can never be met. This module counts, from the campaign
model alone, an upper bound on that gold and a lower bound on the price.

Where gold comes from (every place the rules add to ``gold``, docs/rules.md *Gold*):

* the hero's starting gold cards and loot, and the starting items he may sell (SELL: "he can sell any
  item in his inventory for its given gold amount"; unequipped first, not cursed, not an artifact);
* on each level: gold cards picked up (GOLD CARD), the loot of every enemy slain (LOOT: "the card is
  treated like gold"; a boss's card is a trophy, worth something only if the campaign made it
  sellable), items picked up or taken from a chest and sold (THE CHEST AND KEY), and a shop's stock
  bought and sold again -- a gain only where the discount (project: BUYS AT X GOLD LESS) brings the
  price under the sell value; each stock entry can be bought once.

Every card counts once: a slain enemy leaves a pathing tile, a card picked up leaves the map, a
sold card is discarded. The price of a goal is twice its gold amount less the most discount the
hero could ever have (the character's and every card's that carries one, all at once); a card
without a gold amount has no price and is never sold.

Goals are per level and met before the level is left ("Ladders and exits cannot be entered until the
level's goals are met"), so the gold at hand when a level's goals are bought is at most what the
hero brought in plus what that level yields. Along a way down (descending ladders, no cycle) the
most he can bring into a level is a longest path over the levels before it; with ladder cycles
(``allow_ladder_cycles``) every other level's surplus is counted. Order within a level is relaxed
(all of the level's gold before the first purchase); the last goal card bought is paid in full
before it can be sold again.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..format.diagnostics import Diagnostic, Severity
from ..model.campaign import SHOPKEEPERS_DEBT, Campaign, CardKind
from ..rules.mobility import obtainable_cards
from ..words import counted
from .graph import closure

NEVER = 1 << 30  # the price of a card without a gold amount (the engine's own: it is never bought)
GOLD = "gold"


@dataclass(frozen=True)
class LevelGold:
    """One level's gold: the most it yields and the least its buy goals cost."""

    index: int
    income: int  # the most gold the level's cards can yield (goal cards' resale included)
    parts: tuple[tuple[str, int], ...]  # the income by source, for the reason
    goals: tuple[tuple[int, str, int], ...]  # buy goals: (goal index, card, least price), one per card
    cost: int  # the least the goals cost together
    last_resale: int  # what the goal card bought last could be sold for at the least (it is paid in full first)

    @property
    def has_goals(self) -> bool:
        return bool(self.goals)


@dataclass(frozen=True)
class Shortfall:
    """A level whose buy goals cost more than the gold the hero can hold there."""

    level: int
    goals: tuple[tuple[int, str, int], ...]  # (goal index, card, least price)
    cost: int  # what the goals cost together at the least
    most: int  # the most gold the hero can have to pay them with
    brought: int  # of which, the most brought into the level (start gold or earlier levels)
    parts: tuple[tuple[str, int], ...]  # the level's own income by source
    shop: tuple[int, int] | None  # a shop selling the first goal's card
    start: bool = False  # the level the run starts on: ``brought`` is the hero's own purse

    def message(self, campaign: Campaign) -> str:
        cards = campaign.cards
        named = ", ".join(f"'Buy {card}'" for _, card, _ in self.goals)
        prices = ", ".join(_price_text(cards, card, price) for _, card, price in self.goals)
        verb = "cannot be met" if len(self.goals) == 1 else "cannot all be met"
        costs = f"it costs {prices}" if len(self.goals) == 1 else f"they cost {self.cost} gold ({prices})"
        where = "to start with" if self.start else "brought in"
        sources = [f"{self.brought} {where}"] + [f"{n} from {what}" for what, n in self.parts if n]
        return (f"goal {named} on {campaign.level_name(self.level)} {verb}: {costs}, and at most {self.most} gold can be had "
                f"there ({', '.join(sources)})")


def _price_text(cards, card: str, price: int) -> str:
    gold = cards[card].gold if card in cards else None
    if gold is None:
        return f"{card} has no gold amount and is never sold"
    if price == 2 * gold:
        return f"{price} gold (twice its {gold})"
    return f"at least {price} gold (twice its {gold}, less the most discount)"


class GoldCount:
    """The static gold count of a campaign: per level what it yields and what its goals cost."""

    def __init__(self, campaign: Campaign) -> None:
        self.campaign = campaign
        cards = campaign.cards
        self.discount = sum(a.x or 0 for c in obtainable_cards(campaign) if c in cards
                            for a in cards[c].abilities if a.kind == "shop-discount")
        self.levels = [self._level(i) for i in range(len(campaign.levels))]

    # ------------------------------------------------------------------ what a card is worth

    def price(self, card_id: str) -> int:
        """BUY: twice the gold amount, less the most discount the hero could have (never below 0)."""
        card = self.campaign.cards.get(card_id)
        if card is None or card.gold is None:
            return NEVER
        return max(0, 2 * card.gold - self.discount)

    def resale(self, card_id: str) -> int:
        """SELL: the gold amount of an item that can be sold (not crossed out, not cursed, not an artifact)."""
        card = self.campaign.cards.get(card_id)
        if card is None or card.gold is None or not card.sellable or card.cursed or card.kind is CardKind.ARTIFACT:
            return 0
        return card.gold

    def gained(self, card_id: str) -> int:
        """What a card that goes to the hand is worth in gold: a gold card its amount, another its resale."""
        if card_id == GOLD:
            card = self.campaign.cards.get(card_id)
            return (card.gold or 0) if card is not None else 0
        return self.resale(card_id)

    def start(self, level: int) -> int:
        """The most gold of a hero who starts on ``level``: gold and loot in hand, the rest sold (his starting
        kit, ``Campaign.starting_kit``)."""
        items, equipped = self.campaign.starting_kit(level)
        cards = self.campaign.cards
        total = 0
        for c in items:
            card = cards.get(c)
            if card is not None and card.kind is CardKind.ENEMY:
                total += card.gold or 0
            else:
                total += self.gained(c)
        return total + sum(self.resale(c) for c in equipped)

    def cell_value(self, cell) -> int:
        """What a cell's card can yield: a gold card its amount, an enemy its loot (a boss its trophy's
        resale), an item its resale, a chest its contents'."""
        card = self.campaign.cards.get(cell.card)
        total = 0
        if card is not None:
            if card.kind is CardKind.ENEMY:
                total = card.gold or 0
            elif card.kind is CardKind.BOSS:
                total = self.resale(cell.card)  # a trophy: worth gold only where the campaign lets it be sold
            elif cell.card != SHOPKEEPERS_DEBT and card.is_item:
                total = self.gained(cell.card)
        for c in cell.contents:
            total += self.gained(c)
        return total

    def stock_gain(self, card_id: str) -> int:
        """What buying a stock entry and selling it again gains at the most (0: a loss or nothing)."""
        return 0 if card_id == SHOPKEEPERS_DEBT else max(0, self.gained(card_id) - self.price(card_id))

    def goal_resale(self, card_id: str) -> int:
        """What a goal card bought can be sold for again (the debt is removed from the game)."""
        return 0 if card_id == SHOPKEEPERS_DEBT else self.gained(card_id)

    def _level(self, index: int) -> LevelGold:
        campaign = self.campaign
        cards = campaign.cards
        level = campaign.levels[index]
        gold_cards = loot = items = shops = 0
        for cell in level.cells:
            card = cards.get(cell.card)
            value = self.cell_value(cell)
            if card is not None and card.is_enemy:
                loot += value
            else:
                in_gold = self.gained(GOLD) * (cell.contents.count(GOLD) + (cell.card == GOLD))
                gold_cards += in_gold
                items += value - in_gold
            for c in cell.stock:
                shops += self.stock_gain(c)
        goals, seen = [], set()
        for gi, goal in enumerate(level.goals):
            if goal.verb == "buy" and goal.card not in seen:
                seen.add(goal.card)
                goals.append((gi, goal.card, self.price(goal.card)))
        resales = [self.goal_resale(card) for _, card, _ in goals]
        last = min(resales) if resales else 0  # the goal card bought last is paid before it can be sold
        parts = (("gold cards", gold_cards), ("loot", loot), ("items sold", items),
                 ("shop stock sold again", shops), ("goal cards sold again", sum(resales) - last))
        return LevelGold(index, sum(n for _, n in parts) + last, parts, tuple(goals), sum(p for _, _, p in goals), last)

    # ------------------------------------------------------------------ the run

    def ladders(self) -> list[list[int]]:
        """Each level's ladder targets (every ladder of the level, reached or not)."""
        campaign = self.campaign
        out = []
        for level in campaign.levels:
            targets = []
            for cell in level.ladders:
                j = campaign.level_index(cell.to) if cell.to else None
                if j is not None and j not in targets:
                    targets.append(j)
            out.append(targets)
        return out

    def shortfalls(self, level: int = 0, campaign_mode: bool = True) -> tuple[list[Shortfall], bool]:
        """The levels whose buy goals cannot be paid on any way of reaching them from ``level`` (each
        with the most gold it could have there), and whether a finish is left: an exit (not
        ``campaign_mode``: any way out of ``level``) on a level whose goals can be paid, reached only
        through levels whose goals can be paid (a level whose goals cannot be met is never left).

        The gold brought into a level is at most the start's plus, along the ladders, each level's
        yield less its goals' cost (a longest path: ladders lead down, so no level comes twice);
        with ladder cycles, the start's plus every other level's surplus.
        """
        start = self.start(level)
        if not campaign_mode:
            short = self._short(level, start, True)
            return ([short] if short else []), short is None
        ladders = self.ladders()
        order = ladder_order(ladders, level)
        surplus = {j: self.levels[j].income - self.levels[j].cost for j in range(len(self.levels))}
        brought = {level: start}
        out, open_levels = [], []
        if order is None:  # ladder cycles: walk the levels whose goals can be paid
            reach = closure(ladders, (level,))
            extra = sum(max(0, surplus[k]) for k in reach)
            todo = [level]
            while todo:
                j = todo.pop()
                short = self._short(j, brought[j], j == level)
                if short is not None:
                    out.append(short)
                    continue
                open_levels.append(j)
                for t in ladders[j]:
                    if t not in brought:
                        brought[t] = start + extra - max(0, surplus[t])
                        todo.append(t)
        else:
            for j in order:
                if j not in brought:
                    continue  # every way here passes a level whose goals cannot be paid
                short = self._short(j, brought[j], j == level)
                if short is not None:
                    out.append(short)
                    continue
                open_levels.append(j)
                after = brought[j] + surplus[j]
                for t in ladders[j]:
                    if brought.get(t, after - 1) < after:
                        brought[t] = after
        out.sort(key=lambda s: s.level)
        return out, any(self.campaign.levels[j].exits for j in open_levels)

    def proof(self, level: int = 0, campaign_mode: bool = True) -> tuple[str, int] | None:
        """A reason why no finish can pay its buy goals (the solver's static proof), or None."""
        out, finish = self.shortfalls(level, campaign_mode)
        if finish or not out:
            return None
        first = out[0]
        more = f"; {counted(len(out) - 1, 'more level')} on other ways down fall short too" if len(out) > 1 else ""
        return f"{first.message(self.campaign)}{more}", first.level

    def _short(self, j: int, brought: int, start: bool = False) -> Shortfall | None:
        lg = self.levels[j]
        if not lg.has_goals:
            return None
        most = brought + lg.income - lg.last_resale
        if most >= lg.cost:
            return None
        level = self.campaign.levels[j]
        first = lg.goals[0][1]
        shop = next((c.pos for c in level.cells if first in c.stock), None)
        return Shortfall(j, lg.goals, lg.cost, most, brought, lg.parts, shop, start)


def ladder_order(successors: list[list[int]], start: int | None = None) -> list[int] | None:
    """The levels (every one, or those reached from ``start``) in an order where every ladder leads
    forward (None: the ladders among them form a cycle)."""
    nodes = range(len(successors)) if start is None else closure(successors, (start,))
    into = {j: 0 for j in nodes}
    for i in nodes:
        for j in successors[i]:
            into[j] += 1
    order, todo = [], [j for j in nodes if not into[j]]
    while todo:
        i = todo.pop()
        order.append(i)
        for j in successors[i]:
            into[j] -= 1
            if not into[j]:
                todo.append(j)
    return order if len(order) == len(into) else None


def has_buy_goals(campaign: Campaign) -> bool:
    return any(goal.verb == "buy" for level in campaign.levels for goal in level.goals)


def gold_proof(campaign: Campaign, level: int = 0, campaign_mode: bool = True) -> tuple[str, int] | None:
    """The solver's static proof from gold: no finish from ``level`` can pay its buy goals (None: none)."""
    if not has_buy_goals(campaign):
        return None
    return GoldCount(campaign).proof(level, campaign_mode)


def gold_diagnostics(campaign: Campaign) -> list[Diagnostic]:
    """CR309 (error): a level's buy goals cost more gold than the run can ever bring there, so the
    level can never be left; one per such level reached from the first level by ladders whose goals
    can all be paid."""
    if not has_buy_goals(campaign):
        return []
    out = []
    for short in GoldCount(campaign).shortfalls(0, True)[0]:
        gi = short.goals[0][0]
        what = "the card's gold amount" if len(short.goals) == 1 else "the cards' gold amounts"
        text = f"{short.message(campaign)}; lower {what} or place more gold, loot or items to sell before the shop"
        out.append(Diagnostic("CR309", text, Severity.ERROR,
                              path=("levels", short.level, "goals", gi, "buy"), level=short.level, cell=short.shop,
                              hint="lower the card's gold amount, or place more gold, loot or items to sell on the "
                                   "level or before it"))
    return out
