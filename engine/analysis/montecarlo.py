"""Difficulty under random dice: a Monte Carlo win rate (DESIGN: Fated dice, "random dice" mode).

:func:`solve_random` plays ``n`` runs of a campaign, each with fresh dice (a recorded
random seed for :class:`~..chance.resolvers.FatedResolver`), under a fixed policy, spread over
processes, and reports the win rate with a 95% Wilson interval and the turns of the
won runs. Seeds are recorded, so any run can be replayed exactly.

The ``greedy`` policy plays as the map's author would: it knows the map (tiles, paths,
cards, potion colours: the campaign model) but never the dice. Of the run it reads only the
state's view (``engine/rules/view.py``): the hero, the enemies it weighs in a fight (health,
attack with potions thrown), how each card lies, the legal actions. At each choice, in order:

1. **Teleport**: the offered tile nearest its target.
2. **In combat**: drink a potion of healing when the adjacent enemies could kill it this
   turn (``health <= danger``); else flee toward its target when fleeing is allowed and
   ``health <= danger``; else attack the weakest adjacent enemy.
3. **Out of combat**: drink a potion of healing at a third of max health or less; equip
   any weapon or armour for an empty slot; at a shop buy what a goal asks, then gear for
   an empty slot; rest (end the turn) on a fountain while below max health.
4. **Move**: its target is what the level's unmet goals need (the enemy to slay, the
   chest -- the key first --, the shop), else the nearest exit or ladder. It flips the
   face-down tile that brings it nearer, moves to the neighbour that brings it nearer
   (traps last), and otherwise ends the turn.

A run that has not finished after ``max_turns`` turns counts as lost ("stuck").
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import random
import statistics
import time
from collections import Counter, deque
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Mapping

from ..chance.resolvers import FatedResolver
from ..format.canonical import campaign_to_dict
from ..format.loader import load_campaign_text
from ..model.campaign import DIRECTION_INDEX, DIRECTIONS, KEY, Campaign, CardDef, CardKind, Level, row_major
from ..model.potions import potion_identities
from ..rules.actions import END, Action
from ..rules.phases import DEAD, WON
from ..rules.state import GameState
from ..rules.view import Face, HeroView, StateView, Tile, tile_of
from ..words import counted

POLICIES = ("greedy",)
INF = math.inf
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Run:
    seed: int
    outcome: str  # won, dead, stuck
    turns: int
    health: int


@dataclass(frozen=True)
class DifficultyReport:
    policy: str
    runs: int
    wins: int
    win_rate: float
    ci_low: float  # 95% Wilson score interval
    ci_high: float
    turns_min: int | None
    turns_median: float | None
    turns_max: int | None
    histogram: tuple[tuple[int, int], ...]  # (turns, won runs) for the won runs
    deaths: int
    stuck: int
    seeds: tuple[int, ...]  # every run's dice seed, in run order
    results: tuple[Run, ...]

    def summary(self) -> str:
        text = (f"{self.policy} policy, {counted(self.runs, 'run')} with random dice: won {self.wins} "
                f"({100 * self.win_rate:.1f}%, 95% CI {100 * self.ci_low:.1f}-{100 * self.ci_high:.1f}%), "
                f"died {self.deaths}, stuck {self.stuck}")
        if self.wins:
            text += f"; turns of won runs min {self.turns_min}, median {self.turns_median:g}, max {self.turns_max}"
        return text


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% for the default z)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


# ---------------------------------------------------------------------------------------- the policy


Pos = tuple[int, int]


@dataclass(frozen=True, eq=False)
class _LevelMap:
    """What the policy knows of a level before any card is turned: where each card lies (row-major),
    the chests, the ways out, the shops' stock, the tile each card makes, and toward N, E, S, W each
    tile's ADJACENT TILEs and the cards at the end of its paths (what a flip turns; None: no card)."""

    cards: Mapping[str, tuple[Pos, ...]]  # card id -> where it lies
    stocking: Mapping[str, tuple[Pos, ...]]  # card id -> the shops selling it
    chests: tuple[Pos, ...]
    ways: tuple[Pos, ...]  # exits and descending ladders
    tile: Mapping[Pos, Tile]
    adjacent: Mapping[Pos, tuple[Pos | None, ...]]
    ends: Mapping[Pos, tuple[Pos | None, ...]]

    @classmethod
    def of(cls, campaign: Campaign, level: Level) -> _LevelMap:
        cells = sorted(level.cells, key=row_major)
        tile = {c.pos: tile_of(campaign.cards[c.card]) for c in cells}
        cards: dict[str, list[Pos]] = {}  # lists while they grow: a tuple a cell longer each time is quadratic
        stocking: dict[str, list[Pos]] = {}  # (a 256x256 map of one card took 10 s)
        for c in cells:
            cards.setdefault(c.card, []).append(c.pos)
            for card in dict.fromkeys(c.stock):
                stocking.setdefault(card, []).append(c.pos)
        adjacent = {c.pos: tuple(getattr(level.neighbour(c, d), "pos", None) for d in DIRECTIONS) for c in cells}
        ends = {c.pos: tuple(d.step(c.x, c.y) if c.has_path(d) and level.cell_at(*d.step(c.x, c.y)) else None
                             for d in DIRECTIONS) for c in cells}
        return cls({k: tuple(v) for k, v in cards.items()}, {k: tuple(v) for k, v in stocking.items()}, tuple(p for p, t in tile.items() if t is Tile.CHEST),
                   tuple(c.pos for c in cells if c.exit or tile[c.pos] is Tile.LADDER), tile, adjacent, ends)


class GreedyPolicy:
    """See the module docstring. It decides from the state's view (:class:`~..rules.view.StateView`)
    and the campaign model alone. Distances are over ADJACENT TILEs, ignoring faces."""

    def __init__(self, campaign: Campaign) -> None:
        self.campaign = campaign
        identities = potion_identities(campaign.seed, campaign.potions)  # it knows the map's colours
        self.heal = {c for c in _potion_colours(campaign) if identities.get(c) == "healing"}
        self._maps: dict[int, _LevelMap] = {}
        self._dist: dict = {}

    def _map(self, level: int) -> _LevelMap:
        hit = self._maps.get(level)
        if hit is None:
            hit = self._maps[level] = _LevelMap.of(self.campaign, self.campaign.levels[level])
        return hit

    def _distances(self, m: _LevelMap, targets: tuple[Pos, ...], blocked: frozenset[Pos]) -> dict[Pos, int]:
        """ADJACENT TILE steps from every tile of the level to the nearest target (absent: none reachable)."""
        key = (m, targets, blocked)
        hit = self._dist.get(key)
        if hit is None:
            dist = dict.fromkeys(targets, 0)
            queue = deque(targets)
            while queue:
                p = queue.popleft()
                for q in m.adjacent[p]:
                    if q is not None and q not in dist and q not in blocked:
                        dist[q] = dist[p] + 1
                        queue.append(q)
            hit = self._dist[key] = dist
        return hit

    def _targets(self, view: StateView, m: _LevelMap) -> tuple[tuple[Pos, ...], frozenset[Pos]]:
        """Where to go (what the unmet goals need, else the ways out), and the chests to go around."""
        has_key = KEY in view.hand

        def there(p: Pos) -> bool:
            return view.face(*p) is not Face.CLEARED

        chests = frozenset() if has_key else frozenset(p for p in m.chests if there(p))
        if not view.goals_met():
            want: list[Pos] = []
            for goal in view.level.goals:
                if goal.verb == "slay":
                    want += [p for p in m.cards.get(goal.card, ()) if m.tile[p] is Tile.ENEMY and there(p)]
                elif goal.verb == "open":
                    want += [p for p in m.cards.get(goal.card, ()) if there(p)]
                    if not has_key:
                        want = [p for p in m.cards.get(KEY, ()) if there(p)] or want
                else:
                    want += m.stocking.get(goal.card, ())
            if want:
                return tuple(want), chests
        return m.ways, chests

    def _potion(self, legal: list[Action]) -> Action | None:
        return next((a for a in legal if a.verb == "drink" and a.arg in self.heal), None)

    def choose(self, view: StateView) -> Action:
        legal = view.legal_actions()
        m = self._map(view.level_index)
        targets, blocked = self._targets(view, m)
        dist = self._distances(m, targets, blocked)
        cards = self.campaign.cards
        if view.choosing_teleport:
            return min(legal, key=lambda a: dist.get(_at(a.arg), INF))
        at = view.position
        adjacent = m.adjacent[at]
        if view.in_combat or view.shopping_first:
            foes = view.foes  # the enemies as the player sees them: health, attack with potions thrown
            taken = view.hero.damage_taken
            danger = 0
            for foe in foes:
                attack = foe.attack
                if any(a.kind == "double-roll-attack" for a in foe.card.abilities):
                    attack += 12
                danger += max(0, attack - taken)
            if view.health <= danger:
                drink = self._potion(legal)
                if drink is not None:
                    return drink
                flees = [a for a in legal if a.verb == "flee"]
                if flees:
                    return min(flees, key=lambda a: dist.get(adjacent[DIRECTION_INDEX[a.arg]], INF))
            attacks = [a for a in legal if a.verb == "attack"]
            if len(attacks) > 1:
                return min(attacks, key=lambda a: next(f.health for f in foes if f.direction == a.arg))
            if attacks:
                return attacks[0]
            return legal[0]
        if view.health <= view.max_health // 3:
            drink = self._potion(legal)
            if drink is not None:
                return drink
        for a in legal:
            if a.verb == "equip" and not cards[a.arg].cursed and _slot_free(view.hero, cards[a.arg]):
                return a
        standing = m.tile[at] if view.face(*at) is Face.UP else None  # a cleared card does nothing
        if standing is Tile.SHOP:
            goals = {g.card for g in view.level.goals if g.verb == "buy"}
            for a in legal:
                if a.verb == "buy" and (a.arg in goals or (cards[a.arg].slot and _slot_free(view.hero, cards[a.arg]))):
                    return a
        if standing is Tile.FOUNTAIN and view.health < view.max_health and END in legal:
            return END
        here = dist.get(at, INF)
        flips = [a for a in legal if a.verb == "flip"]
        if flips:
            ends = m.ends[at]
            best = min(flips, key=lambda a: dist.get(ends[DIRECTION_INDEX[a.arg]], INF))
            d = DIRECTION_INDEX[best.arg]
            if dist.get(ends[d], INF) < here and adjacent[d] is not None:
                return best
        moves = [a for a in legal if a.verb == "move"]
        if moves:
            def rank(a: Action) -> tuple:
                p = adjacent[DIRECTION_INDEX[a.arg]]
                return dist.get(p, INF), m.tile[p] is Tile.TRAP and view.face(*p) is Face.UP
            best = min(moves, key=rank)
            if rank(best)[0] < here:
                return best
        return END if END in legal else legal[0]


def _at(text: str) -> Pos:
    x, _, y = text.partition(",")
    return int(x), int(y)


def _slot_free(hero: HeroView, card: CardDef) -> bool:
    """The hero could equip ``card`` without taking anything off."""
    if card.slot is None:
        return False
    if card.slot == "both-hands":
        return not hero.equipped("primary") and not hero.equipped("secondary")
    return not hero.equipped(card.slot)


def _potion_colours(campaign: Campaign) -> set[str]:
    return {c.colour for c in campaign.cards.values() if c.kind is CardKind.POTION and c.colour}


def play_run(campaign: Campaign, seed: int, policy: str = "greedy", max_turns: int = 200) -> Run:
    """One run with random dice from ``seed`` under ``policy``."""
    return _play(campaign, seed, _player(campaign, policy), max_turns)


def _player(campaign: Campaign, policy: str) -> GreedyPolicy:
    """The policy's player. One serves every run of a campaign: what it learns of the map (its
    tables and distances) depends on the map alone, never on a run."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; expected one of {', '.join(POLICIES)}")
    return GreedyPolicy(campaign)


def _play(campaign: Campaign, seed: int, player: GreedyPolicy, max_turns: int) -> Run:
    resolver = FatedResolver(campaign, seed)
    s = GameState.new(campaign, 0, log=False)
    s.resolve(resolver)
    actions = 0
    while s.outcome is None and s.turn <= max_turns and actions < 50 * max_turns:
        s.step(player.choose(s.view()), resolver)
        actions += 1
    outcome = s.outcome if s.outcome in (WON, DEAD) else "stuck"
    return Run(seed, outcome, s.turn, s.health)


# ---------------------------------------------------------------------------------------- the runner

_WORKER: dict = {}


def _worker_init(text: str, content_hash: str) -> None:
    campaign = load_campaign_text(text).campaign
    if campaign is None or campaign.content_hash != content_hash:
        raise RuntimeError("the campaign did not survive the trip to a worker process unchanged")
    _WORKER["campaign"] = campaign


def _worker_runs(seeds: list[int], policy: str, max_turns: int) -> list[Run]:
    campaign = _WORKER["campaign"]
    player = _WORKER.get(policy)
    if player is None:
        player = _WORKER[policy] = _player(campaign, policy)
    return [_play(campaign, seed, player, max_turns) for seed in seeds]


def solve_random(campaign: Campaign, n: int, policy: str = "greedy", workers: int | None = None,
                 seed: int | None = None, max_turns: int = 200, max_seconds: float | None = None,
                 progress=None) -> DifficultyReport:
    """Play ``n`` runs with fresh dice under ``policy`` over ``workers`` processes (default: all cores).

    ``seed`` makes the run seeds reproducible; without it they come from the system's entropy.
    Workers are started with the ``spawn`` method and receive the campaign as JSON text.
    ``max_seconds`` bounds the whole: past it no more runs start, and the report covers the runs
    played (``report.runs`` may then be less than ``n``). Seeds are drawn as runs start, so a
    huge ``n`` costs no memory up front. ``progress``: a callable given the number of runs played so
    far, after each run or batch (None: no reports).
    """
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; expected one of {', '.join(POLICIES)}")
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    end = None if max_seconds is None else time.perf_counter() + max_seconds

    def expired() -> bool:
        return end is not None and time.perf_counter() > end

    workers = max(1, min(workers or os.cpu_count() or 1, n or 1))
    seeds: list[int] = []
    runs: list[Run] = []
    if workers == 1:
        player = _player(campaign, policy)
        for _ in range(n):
            if expired():
                break
            seeds.append(rng.randrange(2**63))
            runs.append(_play(campaign, seeds[-1], player, max_turns))
            if progress is not None:
                progress(len(runs))
        return _report(policy, seeds, runs)
    text = json.dumps(campaign_to_dict(campaign))
    chunk = max(1, math.ceil(n / (workers * 4)))
    if end is not None:
        chunk = min(chunk, 16)  # small batches, so the deadline is kept within one batch
    batches: list[tuple[list[int], list[Run] | None]] = []  # in order: seeds, then their runs
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_worker_init,
                             initargs=(text, campaign.content_hash)) as pool:
        pending: dict = {}
        started = played_so_far = 0
        while True:
            while started < n and len(pending) < 2 * workers and not expired():
                batch = [rng.randrange(2**63) for _ in range(min(chunk, n - started))]
                started += len(batch)
                batches.append((batch, None))
                pending[pool.submit(_worker_runs, batch, policy, max_turns)] = len(batches) - 1
            if not pending:
                break
            done, _ = wait(pending, timeout=None if end is None else max(0.01, end - time.perf_counter()),
                           return_when=FIRST_COMPLETED)
            for future in done:
                i = pending.pop(future)
                batches[i] = (batches[i][0], future.result())
                played_so_far += len(batches[i][0])
            if progress is not None and done:
                progress(played_so_far)
            if expired():
                for future in pending:
                    future.cancel()
                break
    for batch, played in batches:
        if played is not None:
            seeds.extend(batch)
            runs.extend(played)
    return _report(policy, seeds, runs)


def _report(policy: str, seeds: list[int], runs: list[Run]) -> DifficultyReport:
    won = [r.turns for r in runs if r.outcome == WON]
    low, high = wilson(len(won), len(runs))
    return DifficultyReport(
        policy=policy, runs=len(runs), wins=len(won), win_rate=len(won) / len(runs) if runs else 0.0,
        ci_low=low, ci_high=high,
        turns_min=min(won) if won else None, turns_median=statistics.median(won) if won else None,
        turns_max=max(won) if won else None, histogram=tuple(sorted(Counter(won).items())),
        deaths=sum(r.outcome == DEAD for r in runs), stuck=sum(r.outcome == "stuck" for r in runs),
        seeds=tuple(seeds), results=tuple(runs))
