"""The purse: states whose gold can no longer pay for the buy goals still ahead are cut (docs/solver.md, *Gold*).

The static count (:mod:`..gold`) proves a map unsolvable when no run can pay its buy goals. During the
search the same count, read on a state, cuts a line of play that spent or lost what it needed: the
gold at hand, plus the resale of every card in the hand and on the equipment card (SELL), plus what the
level's cards not yet taken can still yield (gold cards, loot, items to sell, chest contents, stock
bought and sold again), is an upper bound on the gold the hero can still gather on this level. It
must pay the level's buy goals not yet met (the last one in full before it can be sold again) and
leave what the levels below need on arrival (:attr:`Purse.need`, a shortest-need path over the
ladders from the static count). A state short of either has no finish: cutting it changes no verdict,
par or witness, only the states searched.
"""

from __future__ import annotations

from ...rules.tables import CLEARED
from ..gold import NEVER, GoldCount, ladder_order

INF = float("inf")


class Purse:
    """The gold test of a state (:meth:`short`), for a campaign with buy goals."""

    def __init__(self, count: GoldCount, d, campaign_mode: bool) -> None:
        campaign = count.campaign
        n = len(campaign.levels)
        self.resale = {c: count.resale(c) for c in campaign.cards}
        # Per level: (cell, what it yields) for the cells worth gold; the stock entries worth buying and
        # selling again; the buy goals as (entries that meet it, price, resale).
        self.cells: list[tuple[tuple[int, int], ...]] = []
        self.stock: list[tuple[tuple[tuple[int, int], int], ...]] = []
        self.goals: list[tuple[tuple[frozenset, int, int], ...]] = []
        self.loot: dict[int, int] = {}  # enemy cell -> loot, for an enemy teleported off its card
        for li in range(n):
            lo, hi = d.level_range[li]
            cells, stock = [], []
            for j in range(lo, hi):
                v = count.cell_value(d.cells[j])
                if v:
                    cells.append((j, v))
                    if d.card[j].is_enemy:
                        self.loot[j] = v
                for k, c in enumerate(d.cells[j].stock):
                    gain = count.stock_gain(c)
                    if gain > 0:
                        stock.append(((j, k), gain))
            goals = []
            for _, card, price in count.levels[li].goals:
                entries = frozenset((j, k) for j in range(lo, hi) for k, c in enumerate(d.cells[j].stock) if c == card)
                goals.append((entries, price, count.goal_resale(card)))
            self.cells.append(tuple(cells))
            self.stock.append(tuple(stock))
            self.goals.append(tuple(goals))
        self.need = self._needs(count, campaign_mode)

    def _needs(self, count: GoldCount, campaign_mode: bool) -> list[float]:
        """Per level, the least gold the hero must carry out of it for some finish below (0: he may finish
        on it; inf: none). Over the ladders (they lead down); with ladder cycles or for a level alone, 0."""
        campaign = count.campaign
        n = len(campaign.levels)
        if not campaign_mode:
            return [0] * n
        ladders = count.ladders()
        order = ladder_order(ladders)
        if order is None:
            return [0] * n
        arrive = [INF] * n  # the least gold on arrival from which a finish can be paid for
        need = [INF] * n
        for li in reversed(order):
            lg = count.levels[li]
            after = 0 if campaign.levels[li].exits else min((arrive[t] for t in ladders[li]), default=INF)
            need[li] = after
            if lg.cost >= NEVER or after == INF:
                continue
            # Arriving with b, he can hold b + yield - last resale when the goals are bought, b + yield - cost after.
            arrive[li] = max(0, lg.cost - (lg.income - lg.last_resale), after - (lg.income - lg.cost))
        return need

    def short(self, s) -> bool:
        """True when the state's gold, with all it can still gather on its level, cannot pay the level's
        buy goals not yet met and then carry what the levels below need."""
        li = s.level
        goals = self.goals[li]
        need = self.need[li]
        unmet = ()
        if goals:
            bought = s.bought
            unmet = [g for g in goals if not any(b in g[0] for b in bought)] if bought else goals
        if not unmet and not need:
            return False
        faces = s.faces
        resale = self.resale
        purse = s.gold
        for c in s.hand:
            purse += resale[c]
        for c in s.equip:
            if c:
                purse += resale[c]  # (a both-hands item twice: an upper bound still)
        for j, v in self.cells[li]:
            if faces[j] != CLEARED:
                purse += v
        if s.visitors:
            loot = self.loot
            for e in s.visitors.values():  # an enemy teleported off its card (now cleared) keeps its loot
                purse += loot.get(e, 0)
        stock = self.stock[li]
        if stock:
            bought = s.bought
            for entry, gain in stock:
                if entry not in bought:
                    purse += gain
        cost = resold = 0
        last = INF
        for _, price, back in unmet:
            cost += price
            resold += back
            if back < last:
                last = back
        if unmet and purse + resold - last < cost:
            return True
        return purse + resold - cost < need
