"""When the search for par runs out: look for any finish, to bound par from above.

A* proves par by exhausting every line of play that could finish sooner, and on a large or item-rich
map its budget can run out first. The author still wants to know that the map *can* be finished and
roughly how fast. :func:`dive` looks for a finish with weighted A* (best-first on ``turn + W × h``,
``W`` = :data:`WEIGHT`): the same engine states, the same fated dice, the same admissible bound, but
leaning on the bound so that it heads for the ways out instead of proving each turn. Once it has a
finish of ``U`` turns it keeps only lines that could still beat it (``turn + h < U``) and goes on, so
``U`` only falls while the budget lasts (anytime weighted A*).

A dive leans on a bound that ignores enemies, so on a map dense with them it walks into fights it
cannot win; :func:`playouts` first plays the map as its author would (the greedy policy of
:mod:`~..montecarlo`, a random legal action one time in three, under the same fated dice), which
weighs fights and goals, then as a player who learns what each fight costs (:mod:`.wary`: routes
weighed by health, fights looked ahead under the fated dice; where every greedy run dies within a few
turns), and where a goal must be bought, as one who gathers gold before going to the shop
(:class:`~.wary.GoldPolicy`); its best finish caps the dive. :func:`find_run` runs both.

What it returns is a run, not a proof: the fewest turns it found, with that run's health and
actions. :func:`~.par.solve` replays it (``verify_replay``) before reporting it, and combines it with
the lower bound the stopped search leaves (the least ``turn + h`` of the lines it left open: no finish
comes sooner). When the two meet, par's turns are proven.
"""

from __future__ import annotations

import heapq

from ...rules.phases import DEAD
from .budget import Deadline
from .dominance import Fronts
from .packing import pack, unpack
from .result import INF
from .search import line_to

WEIGHT = 3  # how hard the dive leans on the bound: ``turn + WEIGHT * h`` (1 would be A* again)
PLAYOUT_SHARE = 0.5  # of the time :func:`find_run` is given, what the playouts may use first
MAX_PLAYOUTS = 500  # playouts of each policy at most (each ends by ``max_turns``), so a quick map stops early
RANDOM_MOVES = 1 / 3  # the share of a greedy playout's actions drawn at random among the legal ones
WARY_RANDOM = 1 / 20  # the same for the wary policy's playouts (its own weights vary from run to run)
PLAYOUT_STEPS = 10  # engine actions the playouts may apply per state the look may expand
GOLD_SHARE = 1 / 4  # of the playouts' actions, what the gold-first runs get on a map with something to buy

Found = tuple[int, int, list[str]]  # (turns, health, actions) of a finish


def find_run(search, deadline: Deadline, max_states: int) -> Found | None:
    """The best finish :func:`playouts` and then :func:`dive` find within ``deadline`` (the playouts stop at
    :data:`PLAYOUT_SHARE` of it) and ``max_states``: the dive expands at most that many states, the
    playouts apply at most :data:`PLAYOUT_STEPS` engine actions per state (looks ahead included)."""
    best = playouts(search, deadline.short_of((1 - PLAYOUT_SHARE) * deadline.left()), PLAYOUT_STEPS * max_states)
    better = dive(search, deadline, max_states, best[0] if best is not None else None)
    if better is not None and (best is None or (better[0], -better[1]) < (best[0], -best[1])):
        best = better
    return best


def playouts(search, deadline: Deadline, max_steps: int, seed: int = 0) -> Found | None:
    """The best finish of runs from ``search``'s start under its fated dice, within ``deadline`` and
    ``max_steps`` engine actions: first up to :data:`MAX_PLAYOUTS` runs each action the greedy policy's or
    (one time in :data:`RANDOM_MOVES`) a random legal one, on at most half the actions; then, on the rest,
    up to :data:`MAX_PLAYOUTS` runs of the wary policy (:class:`~.wary.WaryPolicy`: routes weighed by what
    the fights cost, fights looked ahead under the fated dice; a random action one time in
    :data:`WARY_RANDOM`). On a map with something to buy (:meth:`~.wary.GoldPolicy.buys`) the wary runs
    stop short of the last :data:`GOLD_SHARE` of the actions, which goes to up to :data:`MAX_PLAYOUTS` runs
    of the gold-first policy (:class:`~.wary.GoldPolicy`, the same odds of a random action). A run is cut
    when it can no longer beat the best one (``turn + h``, the bound)."""
    import random

    from ..montecarlo import GreedyPolicy
    from .wary import GoldPolicy, WaryPolicy

    rng = random.Random(seed)
    greedy = GreedyPolicy(search.campaign)
    steps = [0]
    best = _runs(search, deadline, max_steps // 2, steps, None, rng, RANDOM_MOVES,
                 lambda s: greedy.choose(s.view()))
    wary = WaryPolicy(search.campaign, search.d, search.resolver, random.Random(seed), steps)
    if not GoldPolicy.buys(search.campaign):
        return _runs(search, deadline, max_steps, steps, best, rng, WARY_RANDOM, wary.act, wary)
    best = _runs(search, deadline, max_steps - int(GOLD_SHARE * max_steps), steps, best, rng, WARY_RANDOM, wary.act, wary)
    gold = GoldPolicy(search.campaign, search.d, search.resolver, random.Random(seed), steps)
    gold.cost = wary.cost  # what the wary runs learnt of the fights (the dice are fated)
    return _runs(search, deadline, max_steps, steps, best, rng, WARY_RANDOM, gold.act, gold)


def _runs(search, deadline: Deadline, max_steps: int, steps: list, best: Found | None, rng, random_moves: float,
          choose, wary=None) -> Found | None:
    """Up to :data:`MAX_PLAYOUTS` runs for :func:`playouts`, each action ``choose(state)`` or (one time in
    ``random_moves``) a random legal one, until ``steps[0]`` (the actions applied so far, the wary
    policy's looks ahead included) reaches ``max_steps``; ``best``: the finish in hand."""
    relax, resolver, cm = search.relax, search.resolver, search.campaign_mode
    max_turns = search.root.turn + 50 + 2 * len(search.d.cells)  # a run that long has lost its way
    for _ in range(MAX_PLAYOUTS):
        if deadline.expired() or steps[0] >= max_steps:
            break
        if wary is not None:
            wary.start()
        s = search.root.clone()
        actions: list[str] = []
        limit = best[0] if best is not None else max_turns
        fight = None  # the state before a fight and the enemies it began with (the wary policy learns its cost)
        while s.outcome is None and s.turn < limit and steps[0] < max_steps:
            legal = s.legal_actions()
            if not legal:
                break
            action = rng.choice(legal) if rng.random() < random_moves else choose(s)
            actions.append(str(action))
            before = s.clone() if wary is not None and fight is None else None
            s.advance(action, resolver)
            steps[0] += 1
            if wary is not None:
                if fight is None and s.in_combat:
                    fight = before, [j for _, j in s.adjacent_enemies()]
                elif fight is not None and (not s.in_combat or s.outcome is not None):
                    wary.learn(*fight, s)
                    fight = None
            fin = search.finish_turn(s)
            if fin is not None:
                if best is None or (fin, -s.health) < (best[0], -best[1]):
                    best = (fin, s.health, actions)
                break
            # The clock after every action (an action of a policy on a huge map may take a tenth of a second);
            # the bound, which costs more, once in 64.
            if deadline.expired() or (len(actions) & 63 == 0 and s.turn + relax.bound(s, cm) >= limit):
                break
    return best


def dive(search, deadline: Deadline, max_states: int, cap: int | None = None) -> Found | None:
    """(turns, health, actions) of the best finish found from ``search``'s start within ``deadline`` and
    ``max_states`` states expanded, or None; ``cap``: only finishes in fewer turns are looked for.
    ``search`` is a :class:`~.search.Search` (its campaign, start, dice, bound and purse test are shared;
    its own tables are not touched)."""
    relax, d, resolver, cm = search.relax, search.d, search.resolver, search.campaign_mode
    bound, mask = relax.bound_masked, relax.mask
    short = search.purse.short if search.purse is not None else None
    root = search.root.clone()
    fronts = Fronts(search.campaign, d)
    m0 = mask(root)
    h0 = bound(root, cm, m0)
    entry = fronts.admit(root)
    if h0 == INF or entry is None:
        return None
    parents: list = [(-1, None)]
    heap = [(root.turn + WEIGHT * h0, h0, -root.health, 0, pack(root, entry[5]), entry, m0)]
    best: tuple[int, int, int] | None = None  # (turns, health, node)
    if cap is not None:
        best = (cap, -1, 0)  # a finish in hand elsewhere: only lines that beat it are kept
    expanded = 0
    while heap:
        _, h, _, node, packed, entry, hint = heapq.heappop(heap)
        if not entry[4]:
            continue  # retired: a state found later dominates it
        s = unpack(packed, d)
        if best is not None and s.turn + h >= best[0]:
            continue  # cannot beat the finish in hand
        if expanded >= max_states or (expanded & 15 == 0 and deadline.expired()):
            break
        expanded += 1
        level = s.level
        for action in s.legal_actions():
            c = s.clone()
            c.advance(action, resolver)
            if c.outcome == DEAD:
                continue
            fin = search.finish_turn(c)
            if fin is not None:
                if best is None or (fin, -c.health) < (best[0], -best[1]):
                    parents.append((node, action))
                    best = (fin, c.health, len(parents) - 1)
                continue
            if short is not None and short(c):
                continue
            e = fronts.admit(c)
            if e is None:
                continue
            same = c.level == level
            mc = hint if same and action.verb != "flip" else mask(c)
            ch = bound(c, cm, mc, hint if same else None)
            if ch == INF or (best is not None and c.turn + ch >= best[0]):
                continue
            parents.append((node, action))
            heapq.heappush(heap, (c.turn + WEIGHT * ch, ch, -c.health, len(parents) - 1, pack(c, e[5]), e, mc))
    if best is None or best[2] == 0:
        return None
    return best[0], best[1], line_to(parents, best[2])
