"""Difficulty under random dice: a Monte Carlo win rate (DESIGN: Fated dice, "random dice" mode).

:func:`solve_random` plays ``n`` runs of a campaign, each with fresh dice (a recorded
random seed for :class:`~.play.FatedResolver`), under a fixed policy, spread over
processes, and reports the win rate with a 95% Wilson interval and the turns of the
won runs. Seeds are recorded, so any run can be replayed exactly.

The ``greedy`` policy plays as the map's author would: it knows the map (tiles, paths,
cards, potion colours) but never the dice. The enemies it weighs in a fight (health, attack
with potions thrown) it reads from the state's view (``engine/rules/view.py``). At each choice, in order:

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

from ..chance.resolvers import FatedResolver
from ..format.canonical import campaign_to_dict
from ..format.loader import load_campaign_text
from ..model.campaign import KEY, Campaign, CardKind
from ..rules.actions import END, Action
from ..rules.state import CHOOSE_TELEPORT, COMBAT, DEAD, SHOPPING, WON, GameState
from ..rules.tables import CHEST_TILE, ENEMY, FOUNTAIN_TILE, LADDER, SHOP_TILE, TRAP, UP

POLICIES = ("greedy",)
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
        text = (f"{self.policy} policy, {self.runs} runs with random dice: won {self.wins} "
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


class GreedyPolicy:
    """See the module docstring. Distances are over ADJACENT TILEs, ignoring faces."""

    def __init__(self, campaign: Campaign, d) -> None:
        self.d = d
        self.heal = {c for c in _potion_colours(campaign) if d.potions.get(c) == "healing"}
        self._dist: dict = {}

    def _distances(self, targets: tuple[int, ...], blocked: frozenset[int]) -> list:
        key = (targets, blocked)
        hit = self._dist.get(key)
        if hit is None:
            d = self.d
            dist = [math.inf] * len(d.cells)
            queue = deque(targets)
            for t in targets:
                dist[t] = 0
            while queue:
                j = queue.popleft()
                for _, i in d.neighbours[j]:
                    if dist[i] == math.inf and i not in blocked:
                        dist[i] = dist[j] + 1
                        queue.append(i)
            hit = self._dist[key] = dist
        return hit

    def _targets(self, s: GameState) -> tuple[tuple[int, ...], frozenset[int]]:
        d = s.d
        lo, hi = d.level_range[s.level]
        has_key = KEY in s.hand
        chests = frozenset(j for j in range(lo, hi) if d.kind[j] == CHEST_TILE and s.faces[j] != 2 and not has_key)
        if not s.goals_met():
            want = []
            for verb, card in d.goals[s.level]:
                if verb == "slay":
                    want += [j for j in range(lo, hi) if d.card[j].id == card and d.kind[j] == ENEMY and s.faces[j] != 2]
                elif verb == "open":
                    want += [j for j in range(lo, hi) if d.card[j].id == card and s.faces[j] != 2]
                    if not has_key:
                        want = [j for j in range(lo, hi) if d.card[j].id == KEY and s.faces[j] != 2] or want
                else:
                    want += [j for j in range(lo, hi) if card in d.cells[j].stock]
            if want:
                return tuple(want), chests
        ways = tuple(j for j in range(lo, hi) if d.exit[j] or d.kind[j] == LADDER)
        return ways, chests

    def _potion(self, s: GameState, legal: list[Action]) -> Action | None:
        return next((a for a in legal if a.verb == "drink" and a.arg in self.heal), None)

    def choose(self, s: GameState) -> Action:
        legal = s.legal_actions()
        d = s.d
        targets, blocked = self._targets(s)
        dist = self._distances(targets, blocked)
        if s.phase == CHOOSE_TELEPORT:
            return min(legal, key=lambda a: dist[d.index[(s.level, *map(int, a.arg.split(",")))]])
        if s.phase == COMBAT or s.phase == SHOPPING:
            view = s.view()  # the enemies as the player sees them: health, attack with potions thrown
            foes = view.foes
            taken = view.hero.damage_taken
            danger = 0
            for foe in foes:
                attack = foe.attack
                if any(a.kind == "double-roll-attack" for a in foe.card.abilities):
                    attack += 12
                danger += max(0, attack - taken)
            if s.health <= danger:
                drink = self._potion(s, legal)
                if drink is not None:
                    return drink
                flees = [a for a in legal if a.verb == "flee"]
                if flees:
                    return min(flees, key=lambda a: dist[d.adjacent[s.pos]["NESW".find(a.arg)]])
            attacks = [a for a in legal if a.verb == "attack"]
            if len(attacks) > 1:
                return min(attacks, key=lambda a: next(f.health for f in foes if f.direction == a.arg))
            if attacks:
                return attacks[0]
            return legal[0]
        if s.health <= s.max_health // 3:
            drink = self._potion(s, legal)
            if drink is not None:
                return drink
        for a in legal:
            if a.verb == "equip" and not d.cards[a.arg].cursed and self._slot_free(s, a.arg):
                return a
        if s.faces[s.pos] == UP and d.kind[s.pos] == SHOP_TILE:
            goals = {card for verb, card in d.goals[s.level] if verb == "buy"}
            for a in legal:
                if a.verb == "buy" and (a.arg in goals or (d.cards[a.arg].slot and self._slot_free(s, a.arg))):
                    return a
        if s.faces[s.pos] == UP and d.kind[s.pos] == FOUNTAIN_TILE and s.health < s.max_health and END in legal:
            return END
        here = dist[s.pos]
        flips = [a for a in legal if a.verb == "flip"]
        if flips:
            best = min(flips, key=lambda a: dist[d.flip_to[s.pos]["NESW".find(a.arg)]])
            j = d.flip_to[s.pos]["NESW".find(best.arg)]
            if dist[j] < here and d.adjacent[s.pos]["NESW".find(best.arg)] >= 0:
                return best
        moves = [a for a in legal if a.verb == "move"]
        if moves:
            def rank(a: Action) -> tuple:
                j = d.adjacent[s.pos]["NESW".find(a.arg)]
                return dist[j], d.kind[j] == TRAP and s.faces[j] == UP
            best = min(moves, key=rank)
            if rank(best)[0] < here:
                return best
        return END if END in legal else legal[0]

    def _slot_free(self, s: GameState, card_id: str) -> bool:
        from ..rules.tables import PRIMARY, SECONDARY, SLOT_INDEX

        slot = s.d.cards[card_id].slot
        if slot is None:
            return False
        if slot == "both-hands":
            return not s.equip[PRIMARY] and not s.equip[SECONDARY]
        return not s.equip[SLOT_INDEX[slot]]


def _potion_colours(campaign: Campaign) -> set[str]:
    return {c.colour for c in campaign.cards.values() if c.kind is CardKind.POTION and c.colour}


def play_run(campaign: Campaign, seed: int, policy: str = "greedy", max_turns: int = 200) -> Run:
    """One run with random dice from ``seed`` under ``policy``."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; expected one of {', '.join(POLICIES)}")
    resolver = FatedResolver(campaign, seed)
    s = GameState.new(campaign, 0, log=False)
    s.resolve(resolver)
    player = GreedyPolicy(campaign, s.d)
    actions = 0
    while s.outcome is None and s.turn <= max_turns and actions < 50 * max_turns:
        s.step(player.choose(s), resolver)
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
    return [play_run(campaign, seed, policy, max_turns) for seed in seeds]


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
        for _ in range(n):
            if expired():
                break
            seeds.append(rng.randrange(2**63))
            runs.append(play_run(campaign, seeds[-1], policy, max_turns))
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
