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
"""

from __future__ import annotations

import heapq
import math
import random

from ...model.campaign import Campaign
from ...rules.state import COMBAT, DEAD, GameState
from ...rules.tables import CLEARED, ENEMY, TRAP, UP
from ..montecarlo import INF, GreedyPolicy

TRAP_COST = 2  # health a trap is reckoned to cost (the catalog's spike trap springs for 2)
_FACE = bytes(2 if code == CLEARED else 1 if code == UP else 0 for code in range(256))  # face down 0, up 1, cleared 2
FIGHT_STEPS = 24  # actions a fight is looked ahead at most
MAX_FLEES = 3  # flees in a run, after which a fight is fought
WEIGHTS = (0.5, 1.0, 2.0, 4.0)  # turns a point of health is worth, one drawn per run
WALL = 1000.0  # what a tile costs that would cost all the health left: gone round when there is a way round


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
