"""A playout policy that knows the fated dice: the greedy policy, routed around the fights that cost health.

The look for a finish (:mod:`.dive`) plays the map many times under its fated dice. On a map dense with
enemies and traps the greedy policy of :mod:`~..montecarlo` dies within a few turns: it walks the
shortest route of tiles to its target and fights whatever lies on it, a troll as readily as a rat,
however little health it has left. The dice are fated (DESIGN: Fated dice): every card rolls from its
own stream, so a fight against an enemy costs the same health whenever the hero meets it with the same
attack, and what one playout learns of a fight holds for the next. :class:`WaryPolicy` is the greedy
policy with two changes:

- **Routes weighed by health.** Its distances to a target are the cheapest, not the shortest: entering a
  tile costs a turn plus what it costs in health (``weight`` turns a point), each run's weights drawn
  afresh so runs try different routes. An enemy costs the health the hero lost when he last fought
  it (:meth:`learn`), or before that an estimate from its card (the rounds the hero's average blow
  needs, the enemy striking back in all but the last), and so does every tile beside it once it is
  face up (stepping there starts the fight); a trap two health. A tile that would cost all the health
  the hero has left costs :data:`WALL`: gone round wherever there is a way round.
- **Fights looked ahead.** In a fight each legal action is tried on a copy of the state, then fought
  to its end (:meth:`fight_out`, attacking the weakest enemy); it takes the one that leaves the hero
  alive with the most health (:meth:`in_fight`), fleeing at most three times a run. The playout asks
  this; the view alone cannot.

:class:`GoldPolicy` is the wary policy for a map where a goal must be bought: gold before the shop.
"""

from __future__ import annotations

import heapq
import math
import random
from collections import deque

from ...model.campaign import Campaign
from ...rules.phases import COMBAT, DEAD
from ...rules.state import GameState
from ...model.campaign import KEY
from ...rules.tables import CHEST_TILE, CLEARED, ENEMY, SHOP_TILE, TRAP, UP
from ...rules.view import Face, Tile
from ..gold import GoldCount, ladder_order
from ..graph import closure
from ..montecarlo import INF, GreedyPolicy

TRAP_COST = 2  # health a trap is reckoned to cost (the catalog's spike trap springs for 2)
_FACE = bytes(2 if code == CLEARED else 1 if code == UP else 0 for code in range(256))  # face down 0, up 1, cleared 2
FIGHT_STEPS = 24  # actions a fight is looked ahead at most
MAX_FLEES = 3  # flees in a run, after which a fight is fought
WEIGHTS = (0.5, 1.0, 2.0, 4.0)  # turns a point of health is worth, one drawn per run
WALL = 1000.0  # what a tile costs that would cost all the health left: gone round when there is a way round
LOCKS_KEPT = 4096  # answers of GoldPolicy._locked_on_way kept at most (one policy plays one campaign's dive)


class WaryPolicy(GreedyPolicy):
    """See the module docstring. :meth:`start` begins a run (new weights), :meth:`act` picks an action
    on the engine's state (in a fight by looking ahead, else as the greedy policy does on the view, with
    the cheapest routes), :meth:`learn` records what a fight cost."""

    def __init__(self, campaign: Campaign, d, resolver, rng: random.Random, steps: list[int] | None = None) -> None:
        super().__init__(campaign)
        self.d, self.resolver, self.rng = d, resolver, rng
        self.steps = steps if steps is not None else [0]  # engine actions applied, the looks ahead counted in
        self.cost: dict[int, float] = {}  # enemy cell -> health the last fight against it cost
        # Per level: the cells that may cost health (enemies and traps), as (cell, position, is enemy).
        self.danger: list[tuple[tuple[int, tuple[int, int], bool], ...]] = [
            tuple((j, d.pos_of[j], d.kind[j] == ENEMY) for j in range(lo, hi) if d.kind[j] in (ENEMY, TRAP))
            for lo, hi in d.level_range]
        self._weights: dict = {}  # position -> what entering it costs, for the state of ``_key``
        self._key: tuple = ()
        self._routes: tuple = ()
        self._learnt = 0  # fights learnt so far (a change of ``cost``)
        self._priors: dict = {}
        self._cells = [[j for j, _, _ in level] for level in self.danger]  # per level: its danger's cells
        self._cheapest: dict = {}
        self.start()

    def start(self) -> None:
        """A new run: a new worth of health in turns, and a new spread (x0.5 to x1.5) of each cell's cost."""
        self.weight = self.rng.choice(WEIGHTS)
        self.spread = [0.5 + self.rng.random() for _ in range(len(self.d.cells))]
        self._cheapest, self._key, self._routes = {}, (), ()
        self._flees = 0  # flees in this run

    def prior(self, j: int, modifier: int) -> float:
        """What a fight against the enemy on cell ``j`` is reckoned to cost before one is seen: the
        rounds the hero's average blow (3.5 plus his attack modifier) needs to slay it, the enemy
        striking back in every round but the last."""
        hit = self._priors.get((j, modifier))
        if hit is None:
            card = self.d.card[j]
            rounds = math.ceil((card.health or 1) / max(1.0, 3.5 + modifier))
            hit = self._priors[j, modifier] = (rounds - 1) * (card.attack or 0)
        return hit

    def act(self, s: GameState):
        """The action for ``s``: looked ahead in a fight, else the greedy choice on the cheapest routes."""
        legal = s.legal_actions()
        if s.phase == COMBAT and len(legal) > 1:
            return self.in_fight(s, legal)
        view = s.view()
        health, modifier, level = s.health, view.hero.attack_modifier, s.level
        # The weights change only when a card of the level's danger is turned up or cleared, or the
        # health, the attack or what a fight is known to cost changes.
        faces = bytes(map(s.faces.__getitem__, self._cells[level])).translate(_FACE)
        key = (level, faces, health, modifier, self._learnt)
        if key != self._key:
            weights, walls, near = {}, [], self._map(level).adjacent
            for (j, pos, enemy), face in zip(self.danger[level], faces):
                if face == 2:
                    continue
                c = (self.cost.get(j) if enemy else TRAP_COST)
                if c is None:
                    c = self.prior(j, modifier)
                w = WALL if c >= health else 1 + self.weight * c * self.spread[j]
                if w == WALL:
                    walls.append(j)
                # A revealed enemy fights whoever steps beside it (ADJACENT TILE): those tiles cost it too.
                for p in (pos, *near[pos]) if enemy and face == 1 else (pos,):
                    if p is not None and w > weights.get(p, 1.0):
                        weights[p] = w
            self._weights, self._key = weights, key
            self._routes = (level, faces, tuple(walls), modifier, self._learnt)  # what the weights depend on
        return self.choose(view)

    def _distances(self, m, targets: tuple, blocked: frozenset) -> dict:
        """The cheapest cost (turns and health, see the module docstring) of a route from every tile to a
        target, the tile's own cost counted: the greedy choice compares the neighbours' costs, so what it
        costs to step onto one (or turn it up) is in them."""
        key = (m, targets, blocked, self._routes)
        hit = self._cheapest.get(key)
        if hit is None:
            weights = self._weights
            hit = {p: weights.get(p, 1.0) for p in targets}
            heap = [(c, p) for p, c in hit.items()]
            heapq.heapify(heap)
            while heap:
                dp, p = heapq.heappop(heap)
                if dp > hit[p]:
                    continue
                for q in m.adjacent[p]:
                    if q is not None and q not in blocked:
                        step = dp + weights.get(q, 1.0)
                        if step < hit.get(q, INF):
                            hit[q] = step
                            heapq.heappush(heap, (step, q))
            self._cheapest[key] = hit
        return hit

    def in_fight(self, s: GameState, legal: list):
        """The legal action whose fight, played to its end, leaves the hero alive with the most health
        (then the sooner); the first one when every one of them loses. After :data:`MAX_FLEES` flees in a
        run it no longer flees (a flee, a step back beside the enemy, a flee, ... never ends)."""
        if self._flees >= MAX_FLEES:
            legal = [a for a in legal if a.verb != "flee"] or legal
        best, best_score = legal[0], None
        for action in legal:
            c = s.clone()
            c.advance(action, self.resolver)
            self.steps[0] += 1
            self.fight_out(c)
            score = (c.outcome != DEAD, c.health, -c.turn)
            if best_score is None or score > best_score:
                best, best_score = action, score
        self._flees += best.verb == "flee"
        return best

    def fight_out(self, c: GameState) -> None:
        """Play ``c``'s fight to its end (at most :data:`FIGHT_STEPS` actions), attacking the weakest enemy."""
        for _ in range(FIGHT_STEPS):
            if c.outcome is not None or c.phase != COMBAT:
                return
            legal = c.legal_actions()
            attacks = [a for a in legal if a.verb == "attack"]
            if not attacks:
                return
            c.advance(min(attacks, key=lambda a: self._foe_health(c, a)) if len(attacks) > 1 else attacks[0],
                      self.resolver)
            self.steps[0] += 1

    @staticmethod
    def _foe_health(c: GameState, action) -> int:
        return next((f.health for f in c.view().foes if f.direction == action.arg), 0)

    def learn(self, before: GameState, engaged: list[int], after: GameState) -> None:
        """A fight against the enemies ``engaged`` (their cells, as it began) ended between ``before`` (just
        before it began) and ``after``: each enemy slain in it costs from now on its share of the health it
        cost; when the hero died in it, each enemy he fought costs at least the health he began it with."""
        faces0, faces1 = before.faces, after.faces
        lo, hi = self.d.level_range[before.level]
        slain = [j for j in range(lo, hi) if self.d.kind[j] == ENEMY and faces1[j] == CLEARED and faces0[j] != CLEARED]
        if after.outcome == DEAD:
            for j in {*engaged, *slain}:
                self.cost[j] = max(self.cost.get(j, 0), before.health)
            self._learnt += 1
            return
        if slain:
            lost = max(0, before.health - after.health) / len(slain)
            for j in slain:
                self.cost[j] = lost
            self._learnt += 1



class GoldPolicy(WaryPolicy):
    """The wary policy that pays its way: gold first when a goal has to be bought (The Shop > BUY AND
    SELL: "to buy a card ... discard as many gold cards, or cards with a gold amount, equaling or exceeding
    twice the gold amount indicated on the desired card"; docs/rules.md, *Items*, *Gold*).

    The greedy and wary policies head for the shop as soon as a ``buy`` goal is unmet and, short of its
    price there, stand turn after turn. This one reckons what the level's unmet buy goals cost (a key
    counted in when the level's ``open`` goal needs one, none is left on the map and a shop sells one)
    against what it can pay: the gold at hand plus the resale (SELL) of what the hero carries and wears.
    While that falls short, its targets are the level's gold -- gold cards, items to sell, enemies with
    loot, a chest holding gold once it has the key (the key first) -- beside the other goals' targets,
    on the wary policy's routes (weighed by health, so a dear fight for a little loot is gone round).
    Once it can pay it heads for the shop, sells there (the hand first, then what it wears) until the
    goal is paid, and buys nothing else while a goal is unpaid."""

    def __init__(self, campaign: Campaign, d, resolver, rng: random.Random, steps: list[int] | None = None) -> None:
        super().__init__(campaign, d, resolver, rng, steps)
        count = GoldCount(campaign)
        self.resale = {c: count.resale(c) for c in campaign.cards}
        # Per level: the cells worth gold, as (cell, position, is a chest); the key cells; the cards its shops sell.
        self.sources: list[tuple[tuple[int, tuple[int, int], bool], ...]] = []
        self.keys: list[tuple[tuple[int, tuple[int, int]], ...]] = []
        self.stocked: list[frozenset[str]] = []
        self.chests: list[tuple[int, ...]] = []  # per level: its chests' cells
        self._locks: dict = {}  # (map, start, locked chests) -> _locked_on_way, at most LOCKS_KEPT
        for li, level in enumerate(campaign.levels):
            cells = [(d.index[(li, *cell.pos)], cell) for cell in level.cells]
            self.sources.append(tuple((j, cell.pos, d.kind[j] == CHEST_TILE) for j, cell in cells
                                      if count.cell_value(cell) > 0))
            self.keys.append(tuple((j, cell.pos) for j, cell in cells if cell.card == KEY))
            self.chests.append(tuple(j for j, _ in cells if d.kind[j] == CHEST_TILE))
            self.stocked.append(_sold(campaign, level))
        # Per level: a later level has an open goal (a key taken here may open it: its own key may lie
        # where only the way out leads, or it may have none).
        later = [any(g.verb == "open" for g in level.goals) for level in campaign.levels]
        self.later_chests = [any(later[li + 1:]) for li in range(len(later))]
        self.keys_below = self._keys_below(count.ladders())
        self.hoard = False  # this run takes a key for a later level's chest before leaving a level
        self.short = False  # the state last acted on cannot pay for what its level's goals need bought
        self.saving = False  # ... has something to buy for them: no other purchase
        self.want: list[str] = []  # what they need bought

    def _keys_below(self, ladders: list[list[int]]) -> list[int]:
        """Per level: the keys the levels its ladders lead to may need, counted as :meth:`kept` counts
        a level's own (its open goals, and the locked chests a route from its starting tile to a way
        out crosses), along the ladders' dearest line (all the levels below, with ladder cycles).
        Their own keys are not counted off: one may lie past the chest it opens, or there may be none."""
        d, n = self.d, len(self.campaign.levels)
        own = []
        for li, level in enumerate(self.campaign.levels):
            goal_chests = {j for goal in d.goal_cells[li] if goal[0] == "open" for j in goal[2]}
            need = sum(goal[0] == "open" for goal in d.goal_cells[li])
            locked = frozenset(d.pos_of[j] for j in self.chests[li] if j not in goal_chests)
            if locked and level.start is not None:
                need += self._locked_on_way(self._map(li), level.start.pos, locked)
            own.append(need)
        order = ladder_order(ladders)
        if order is None:  # ladder cycles: every level a ladder leads to, at once
            return [sum(own[k] for k in closure(ladders, ladders[li]) if k != li) for li in range(n)]
        below = [0] * n
        for li in reversed(order):
            below[li] = max((own[k] + below[k] for k in ladders[li]), default=0)
        return below

    @staticmethod
    def buys(campaign: Campaign) -> bool:
        """Some level has a goal that may need buying: a buy goal, or an open goal with a key on sale."""
        for level in campaign.levels:
            stock = _sold(campaign, level)
            if any(g.verb == "buy" or (g.verb == "open" and KEY in stock) for g in level.goals):
                return True
        return False

    def start(self) -> None:
        super().start()
        self.short = self.saving = False
        self.want = []
        self.hoard = self.rng.random() < 0.5

    def wants(self, s: GameState) -> list[str]:
        """The cards the level's unmet goals need bought (see the class docstring); whether a goal is met
        is the rules' own test (``GameState.goal_met``)."""
        li = s.level
        stocked = self.stocked[li]
        want = []
        for goal in self.d.goal_cells[li]:
            verb, card, _ = goal
            if verb == "buy":
                if card in stocked and not s.goal_met(goal, li):
                    want.append(card)
            elif verb == "open" and KEY not in s.hand and KEY in stocked and \
                    all(s.faces[j] == CLEARED for j, _ in self.keys[li]) and not s.goal_met(goal, li):
                want.append(KEY)
        return want

    def kept(self, s: GameState) -> int:
        """The keys in the hand that are not for sale, nor counted as gold: one for each open goal of the
        level not yet met, and one for each locked chest the hero must still open on his way out (THE
        CHEST AND KEY: without a key he cannot enter it), the fewest a route from him to a way out of
        the level crosses (a goal's chest is opened with its goal's key); and those the levels below
        may need (:meth:`_keys_below`: the hand goes down the ladder with him)."""
        held = s.hand.count(KEY)
        if not held:
            return 0
        d, li = self.d, s.level
        faces = s.faces
        need, goal_chests = 0, set()
        for goal in d.goal_cells[li]:
            if goal[0] == "open":
                goal_chests.update(goal[2])
                need += not s.goal_met(goal, li)
        locked = frozenset(d.pos_of[j] for j in self.chests[li] if faces[j] != CLEARED and j not in goal_chests)
        if locked:
            need += self._locked_on_way(self._map(li), d.pos_of[s.pos], locked)
        return min(held, need + self.keys_below[li])

    def _locked_on_way(self, m, start: tuple[int, int], locked: frozenset) -> int:
        """The fewest of the ``locked`` chests a route of ADJACENT TILEs from ``start`` to a way out of
        the level crosses (0 when none leads out at all: no key opens that)."""
        key = (m, start, locked)
        hit = self._locks.get(key)
        if hit is None:
            ways, crossed = set(m.ways), {start: 0}
            queue = deque([start])
            hit = 0
            while queue:
                p = queue.popleft()
                if p in ways:
                    hit = crossed[p]
                    break
                for q in m.adjacent[p]:
                    if q is None:
                        continue
                    c = crossed[p] + (q in locked)
                    if c < crossed.get(q, INF):
                        crossed[q] = c
                        (queue.append if q in locked else queue.appendleft)(q)
            if len(self._locks) >= LOCKS_KEPT:
                self._locks.clear()
            self._locks[key] = hit
        return hit

    def worth(self, s: GameState) -> int:
        """The gold the hero can pay with: at hand, and the resale of his hand (less the keys he keeps,
        :meth:`kept`) and of what he wears (each card worn, a both-hands item once)."""
        resale = self.resale
        kept = self.kept(s)
        return (s.gold + sum(resale[c] for c in s.hand) - (kept * resale[KEY] if kept else 0)
                + sum(resale[c] for c in s.worn()))

    def act(self, s: GameState):
        """As the wary policy, but gold first while the buy goals cannot be paid, and at the shop: sell
        until the goal is paid, buy it, nothing else."""
        want = self.want = self.wants(s) if s.phase != COMBAT else self.want
        self.saving = bool(want)
        self.short = bool(want) and self.worth(s) < sum(map(s.price, want))
        d = self.d
        if want and not self.short and s.faces[s.pos] == UP and d.kind[s.pos] == SHOP_TILE:
            here = [c for k, c in enumerate(d.cells[s.pos].stock) if c in want and (s.pos, k) not in s.bought]
            if here:
                legal = s.legal_actions()
                buy = next((a for a in legal if a.verb == "buy" and a.arg in here), None)
                if buy is not None:
                    return buy
                gap = min(map(s.price, here)) - s.gold
                resale = self.resale
                spare = s.hand.count(KEY) - self.kept(s)  # the keys that may be sold
                sells = [a for a in legal if a.verb == "sell" and a.arg not in want and resale[a.arg] > 0
                         and (a.arg != KEY or spare > 0)]
                if sells:
                    # One sale that pays the rest (the cheapest such), else the dearest.
                    enough = [a for a in sells if resale[a.arg] >= gap]
                    return min(enough, key=lambda a: resale[a.arg]) if enough else max(sells, key=lambda a: resale[a.arg])
                worn = [a for a in legal if a.verb == "unequip" and resale[a.arg] > 0]
                if worn:
                    return max(worn, key=lambda a: resale[a.arg])
        return super().act(s)

    def choose(self, view):
        return super().choose(_Saving(view) if self.saving else view)

    def _targets(self, view, m):
        """The greedy policy's targets, with three changes: a buy goal already bought is no longer one (the
        greedy policy stands on the shop while another goal is unmet); the routes go round the ways out
        while the goals are unmet (the greedy policy stands beside an exit its route crosses); and while
        the hero cannot pay for what the goals need bought, the level's gold comes first (see the class
        docstring)."""
        face, li = view.face, view.level_index
        has_key = KEY in view.hand
        if view.goals_met():
            if self.hoard and not has_key and self.later_chests[li]:
                keys = tuple(p for _, p in self.keys[li] if face(*p) is not Face.CLEARED)
                if keys:
                    return keys, frozenset(m.ways)
            return m.ways, frozenset()

        def there(p) -> bool:
            return face(*p) is not Face.CLEARED

        # The ways out cannot be entered before the goals are met (GOALS): gone round, as a chest without the key.
        blocked = frozenset((*m.ways, *(() if has_key else (p for p in m.chests if there(p)))))
        want: list = []
        for goal in view.level.goals:
            if goal.verb == "slay":
                want += [p for p in m.cards.get(goal.card, ()) if m.tile[p] is Tile.ENEMY and there(p)]
            elif goal.verb == "open":
                chest = [p for p in m.cards.get(goal.card, ()) if there(p)]
                want += chest if has_key else [p for p in m.cards.get(KEY, ()) if there(p)] or chest
        if self.short:
            chests = False
            for _, pos, chest in self.sources[li]:
                if there(pos):
                    if chest and not has_key:
                        chests = True
                    else:
                        want.append(pos)
            if chests:
                want += [p for _, p in self.keys[li] if there(p)]
        else:
            for card in self.want:
                want += m.stocking.get(card, ())
        if not want:
            return super()._targets(view, m)
        return tuple(dict.fromkeys(want)), blocked


def _sold(campaign: Campaign, level) -> frozenset[str]:
    """What the level's shops sell at a price (a card without a gold amount is never sold: ``GameState.price``)."""
    return frozenset(c for cell in level.cells for c in cell.stock if campaign.cards[c].gold is not None)


class _Saving:
    """A view whose legal actions buy only what the goals need: the greedy choice would otherwise spend
    the gold a goal needs on gear for an empty slot."""

    def __init__(self, view) -> None:
        self._view = view
        self._goals = {g.card for g in view.level.goals if g.verb == "buy"} | {KEY}

    def __getattr__(self, name: str):
        return getattr(self._view, name)

    def legal_actions(self) -> list:
        return [a for a in self._view.legal_actions() if a.verb != "buy" or a.arg in self._goals]
