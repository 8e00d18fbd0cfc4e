"""Graph analysis of levels and of the campaign.

Per level, the graph's nodes are the cells and its edges join ADJACENT TILEs:
orthogonal neighbours whose facing edges both carry a path ("Walls and paths",
Clarifications > ADJACENT TILE). Across the campaign, levels are joined by the
descending ladders that can be reached.

The checks run on every ``cardrogue check`` and every edit, so they walk the level's own
adjacency (:func:`adjacency`: neighbour lists over the indices of ``level.cells``) with one
linear, iterative depth-first search (:func:`reach_and_cuts`): what the starting tile reaches
and, by the search's low points (Tarjan), the cells every route to a way out passes. networkx
is imported only to name a ladder cycle (CR312) and for the solver's explanations
(:func:`hero_graph`); tests/test_graph_search.py holds the search equal to networkx's answers.

The checks name the tile, the level and what to do about it:

=====  ========  ===============================================================
CR301  error     the exit cannot be reached from the starting tile
CR302  error     a descending ladder cannot be reached from the starting tile
CR303  warning   a tile cannot be reached from the starting tile
CR304  error     the key can be reached only through its own locked chest
CR305  error     a locked chest with no key anywhere in the campaign
CR306  error     a level with neither a reachable ladder nor a reachable exit
CR307  info      a chokepoint: every route from the start to the way out passes it
CR308  error     a goal's card cannot be reached
CR310  error     a level that no ladder path from the first level reaches
CR311  error     a level from which no exit can be reached
CR312  error     ladders form a cycle (unless the campaign allows cycles)
CR313  warning   a level's practice hero (``hero.at``) cannot reach a way out from where he starts
=====  ========  ===============================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Callable, Collection, Iterable, Sequence

from ..format.diagnostics import Diagnostic, Severity
from ..model.campaign import CHEST, DESCENDING_LADDER, KEY, STARTING_TILE, Campaign, Cell, Level
from ..rules.mobility import wall_crossings
from ..words import counted, place_text

if TYPE_CHECKING:  # networkx (a tenth of a second to import) serves the explanations, not the checks
    import networkx as nx


def adjacency(level: Level, crossings: frozenset[str] = frozenset()) -> list[list[int]]:
    """Where the hero may go from cell to cell, as neighbour lists over the indices of ``level.cells``:
    ADJACENT TILEs; every orthogonal neighbour when he could cross walls (``crossings``, see
    :func:`wall_crossings`); and, with a potion of teleportation to be had, every tile from the start.
    A simple graph: no loops, no edge twice."""
    cells = level.cells
    # A place as one number, x + y * 1024 (x and y are below 256): no tuple made or hashed per cell.
    places = [c.x + (c.y << 10) for c in cells]
    at = dict(zip(places, range(len(cells)))).get
    adj: list[list[int]] = [[] for _ in cells]
    if crossings:
        for i, place in enumerate(places):
            for j in (at(place + 1), at(place + 1024)):
                if j is not None:
                    adj[i].append(j)
                    adj[j].append(i)
    else:
        paths = [c.paths for c in cells]
        for i, place in enumerate(places):
            own = paths[i]
            if "E" in own:
                j = at(place + 1)
                if j is not None and "W" in paths[j]:
                    adj[i].append(j)
                    adj[j].append(i)
            if "S" in own:
                j = at(place + 1024)
                if j is not None and "N" in paths[j]:
                    adj[i].append(j)
                    adj[j].append(i)
    if "teleport" in crossings:
        s = _start_index(level)
        if s is not None:
            near = set(adj[s])
            for j in range(len(cells)):
                if j != s and j not in near:
                    adj[s].append(j)
                    adj[j].append(s)
    return adj


def reach_and_cuts(adj: Sequence[Sequence[int]], start: int, targets: Iterable[int] = (),
                   blocked: Collection[int] = ()) -> tuple[list[int], list[int]]:
    """One depth-first search of the simple graph ``adj`` from ``start``, without the nodes in
    ``blocked`` (``start`` is not one): the nodes reached, in the order found, and the cuts --
    the reached nodes other than ``start`` on every path from ``start`` to any reached target (a
    target lies on its own paths), in the order found; none when no target is reached.

    Iterative, linear in the edges. A node ``v`` below the root cuts ``start`` from a target
    ``w`` in the subtree of its child ``c`` exactly when no edge leaves that subtree above ``v``
    (``low[c] >= disc[v]``), so ``v`` is a cut when that holds for every reached target.
    """
    n = len(adj)
    disc = [0] * n  # discovery order from 1; 0: not reached yet
    for b in blocked:
        disc[b] = n + 1  # never entered, and too late to lower a low point
    low = [0] * n
    parent = [-1] * n
    is_target = [0] * n
    for t in targets:
        is_target[t] = 1
    below = [0] * n  # reached targets in the node's subtree
    cut_off = [0] * n  # of those, the ones in subtrees the node cuts off from the start
    disc[start] = low[start] = 1
    order = [start]
    stack = [(start, iter(adj[start]))]
    while stack:
        v, neighbours = stack[-1]
        for w in neighbours:
            if not disc[w]:
                disc[w] = low[w] = len(order) + 1
                parent[w] = v
                order.append(w)
                stack.append((w, iter(adj[w])))
                break
            if disc[w] < low[v] and w != parent[v]:
                low[v] = disc[w]
        else:
            stack.pop()
            count = below[v] + is_target[v]
            below[v] = count
            p = parent[v]
            if p >= 0:
                below[p] += count
                if low[v] >= disc[p]:
                    cut_off[p] += count
                elif low[v] < low[p]:
                    low[p] = low[v]
    total = below[start]
    if not total:
        return order, []
    return order, [v for v in order[1:] if cut_off[v] + is_target[v] == total]


def hero_graph(level: Level, crossings: frozenset[str] = frozenset()) -> nx.Graph:
    """Where the hero may go from cell to cell (:func:`adjacency`), as a networkx graph over ``(x, y)``."""
    return _as_graph(level, adjacency(level, crossings))


def _as_graph(level: Level, adj: list[list[int]]) -> nx.Graph:
    import networkx as nx

    pos = [(c.x, c.y) for c in level.cells]
    graph = nx.Graph()
    graph.add_nodes_from(pos)
    graph.add_edges_from((pos[i], pos[j]) for i, near in enumerate(adj) for j in near if i < j)
    return graph


@dataclass(frozen=True)
class LevelAnalysis:
    """What the graph says about one level: reachability, chokepoints, ways out."""

    index: int
    chokepoints: tuple[tuple[int, int], ...]
    ladders_reached: tuple[str, ...]  # ids of the levels the reachable ladders lead to
    exit_reached: bool
    cells: tuple[Cell, ...] = field(repr=False, compare=False)  # the level's
    order: list[int] = field(repr=False, compare=False)  # the indices of the cells reached, in the order found

    @cached_property
    def reachable(self) -> frozenset[tuple[int, int]]:
        """The places reached (made when asked: the check itself needs only the indices)."""
        cells = self.cells
        return frozenset([(cells[i].x, cells[i].y) for i in self.order])


def _start_index(level: Level) -> int | None:
    return next((i for i, c in enumerate(level.cells) if c.card == STARTING_TILE), None)


def _key_outside(campaign: Campaign, level_index: int) -> bool:
    """A key the hero may carry into this level: one he starts with (or this level's practice hero
    carries), or one from elsewhere."""
    practice = campaign.levels[level_index].hero
    if KEY in campaign.hero.items or (practice is not None and KEY in (practice.items or ())):
        return True
    for i, level in enumerate(campaign.levels):
        for cell in level.cells:
            if KEY in cell.stock or KEY in cell.contents or (i != level_index and cell.card == KEY):
                return True
    return False


def analyse_level(campaign: Campaign, index: int, out: list[Diagnostic],
                  crossings: frozenset[str] = frozenset()) -> LevelAnalysis:
    """The level's graph checks. With ``crossings`` (:func:`wall_crossings`) the hero's graph
    over-approximates what he can reach, so no error is claimed that a spell or a potion of
    teleportation could disprove: the solver (``check --solve``) decides such maps."""
    level = campaign.levels[index]
    cells = level.cells
    start = _start_index(level)
    assert start is not None, "the loader guarantees one starting tile"
    cards = [c.card for c in cells]
    chests, keys, ladders = ([i for i, card in enumerate(cards) if card == kind] if kind in cards else []
                             for kind in (CHEST, KEY, DESCENDING_LADDER))
    exits = [i for i, c in enumerate(cells) if c.exit]

    def where(i: int) -> dict:
        return {"path": ("levels", index, "cells", i), "level": index, "cell": (cells[i].x, cells[i].y)}

    def pos(i: int) -> tuple[int, int]:
        return cells[i].x, cells[i].y

    adj = adjacency(level, crossings)
    candidates = exits + ladders  # the ways out, once reached
    order, cuts = reach_and_cuts(adj, start, candidates)
    reached = bytearray(len(cells))
    for i in order:
        reached[i] = 1
    if chests:
        free_order, free_cuts = reach_and_cuts(adj, start, candidates, blocked=set(chests))
        free = bytearray(len(cells))
        for i in free_order:
            free[i] = 1
        key_free = any(free[k] for k in keys) or _key_outside(campaign, index)
        if not key_free:
            for k in keys:
                if reached[k]:
                    out.append(Diagnostic(
                        "CR304", f"the key at {place_text(*pos(k))} can be reached only through a locked chest; move it in front of the chest",
                        Severity.ERROR, **where(k)))
            if not keys:
                for c in chests:
                    out.append(Diagnostic(
                        "CR305", f"locked chest at {place_text(*pos(c))} has no key anywhere in the campaign; place a key before it",
                        Severity.ERROR, **where(c)))
            order, cuts, reached = free_order, free_cuts, free

    # A starting tile walled in (no path of it meets a neighbour's) is the one cause of every tile unreached: the
    # errors say so, and the level's other tiles are not listed one by one (CR303) around the cause.
    # (read from the graph, not from the search: a locked chest beside the start stops the keyless search there)
    walled_in = not adj[start] and len(cells) > 1
    start_pos = pos(start)
    start_said = place_text(*start_pos) + (", which leads nowhere: none of its paths meets a neighbour's path" if walled_in else "")
    for i in exits:
        if not reached[i]:
            out.append(Diagnostic("CR301", f"the exit at {place_text(*pos(i))} cannot be reached from the starting tile at {start_said}; connect their paths",
                                  Severity.ERROR, **where(i)))
    for i in ladders:
        if not reached[i]:
            to = campaign.level_index(cells[i].to or "")  # (the loader refused a ladder to no level: CR205)
            dest = campaign.level_name(to) if to is not None else repr(cells[i].to)
            out.append(Diagnostic("CR302", f"the ladder at {place_text(*pos(i))} to {dest} cannot be reached from the starting tile at "
                                  f"{start_said}; connect their paths",
                                  Severity.ERROR, **where(i)))
    reported = {pos(i) for i in candidates}
    for i, cell in enumerate(cells) if len(order) < len(cells) and not walled_in else ():  # (the search found each cell once)
        if not reached[i] and cell.paths and (cell.x, cell.y) not in reported:
            out.append(Diagnostic("CR303", f"{cell.card!r} at {place_text(*pos(i))} cannot be reached from the starting tile",
                                  Severity.WARNING, **where(i)))
    for goal in level.goals:
        if goal.verb in ("slay", "open"):
            targets = [i for i, c in enumerate(cells) if c.card == goal.card]
        else:
            targets = [i for i, c in enumerate(cells) if goal.card in c.stock]
        if targets and not any(reached[t] for t in targets):
            out.append(Diagnostic("CR308", f"goal {goal.text()!r} cannot be met: no {goal.card!r} can be reached",
                                  Severity.ERROR, **where(targets[0])))

    if not exits and not ladders:
        out.append(Diagnostic("CR306", **_of_level(campaign, index,
                                                   lambda it: f"{it} has neither a descending ladder nor an exit")))
    ways_out = {i for i in candidates if reached[i]}
    chokepoints = sorted((i for i in cuts if i not in ways_out), key=lambda i: (cells[i].y, cells[i].x))
    for i in chokepoints:
        out.append(Diagnostic("CR307", f"chokepoint: every route from the start to the way out passes {place_text(*pos(i))}",
                              Severity.INFO, **where(i)))
    practice = level.hero.at if level.hero is not None else None
    if practice is not None and practice != start_pos and any(reached[i] for i in candidates):
        at = next((i for i, c in enumerate(cells) if (c.x, c.y) == practice), None)
        if at is not None:  # (no card there: CR225 says so)
            from_there, _ = reach_and_cuts(adj, at, ())  # chests open: he may carry a key (a warning claims no more)
            if not set(from_there) & set(candidates):
                out.append(Diagnostic("CR313", f"the level's practice hero at {place_text(*practice)} cannot reach a way out from "
                                      "there: a practice run (--level) can never finish; connect his tile's paths",
                                      Severity.WARNING, path=("levels", index, "hero", "at"), level=index, cell=practice))
    return LevelAnalysis(
        index=index,
        chokepoints=tuple(pos(i) for i in chokepoints),
        ladders_reached=tuple(cells[i].to for i in ladders if reached[i] and cells[i].to),
        exit_reached=any(reached[i] for i in exits),
        cells=cells,
        order=order,
    )


def analyse_campaign(campaign: Campaign) -> tuple[list[LevelAnalysis], list[Diagnostic]]:
    """Every level's analysis, then the campaign graph of levels and ladders."""
    out: list[Diagnostic] = []
    crossings = wall_crossings(campaign)
    levels = [analyse_level(campaign, i, out, crossings) for i in range(len(campaign.levels))]

    first: dict[str, int] = {}
    for i, level in enumerate(campaign.levels):
        first.setdefault(level.id, i)
    flow = [[first[t] for t in la.ladders_reached if t in first] for la in levels]
    reached = closure(flow, [0])
    back: list[list[int]] = [[] for _ in levels]
    for i, targets in enumerate(flow):
        for j in targets:
            back[j].append(i)
    can_finish = closure(back, [la.index for la in levels if la.exit_reached])
    followers = _unreached_groups(campaign, first, reached, out)
    stuck = _dead_end_groups(flow, reached, can_finish)
    for la in levels:
        if la.index not in reached:
            if la.index not in followers:
                continue  # said with the level its way in is lost at (its cause)
            why = _no_way_in(campaign, la.index, reached) + _so_neither(campaign, followers[la.index])
            out.append(Diagnostic("CR310", **_of_level(campaign, la.index, lambda it: f"{it} cannot be reached: {why}")))
        elif la.index not in can_finish and la.index in stuck:
            why = _no_way_on(campaign, la, first)
            if stuck[la.index]:
                why += (f"; nor from {_levels_named(campaign, stuck[la.index])}, whose ladders lead only to levels "
                        "without one")
            out.append(Diagnostic("CR311", **_of_level(campaign, la.index,
                                                       lambda it: f"no exit can be reached from {it}: {why}")))
    if not campaign.allow_ladder_cycles and has_cycle(flow):
        out.extend(_ladder_cycle(campaign, flow))
    return levels, out


def _of_level(campaign: Campaign, index: int, sentence: Callable[[str], str]) -> dict:
    """The fields of an error about level ``index`` as a whole, placed on it: ``sentence(it)`` says "this level" where
    the level is named beside it (the editor's problems list), and names it where not (check's output, a hub's)."""
    return {"message": sentence("this level"), "severity": Severity.ERROR, "path": ("levels", index), "level": index,
            "named": sentence(campaign.level_name(index))}


def _unreached_groups(campaign: Campaign, first: dict[str, int], reached: set[int], out: list[Diagnostic]) -> dict[int, list[int]]:
    """The levels no ladder path reaches, grouped by the one whose way in is lost: level -> the levels reached only
    through it, for each level whose CR310 is said. A level whose every ladder in stands on a level not reached
    either follows from that level and has no CR310 of its own; the first level of a group that no ladder leads
    to, after a reached level with neither a ladder nor an exit (its ladder deleted), is said with that level's
    CR306 instead (the cause, where the way down was lost): one error per cause, naming what it cuts off, not one
    per level after it (ladders of unreached levels in a cycle alone: each keeps its own)."""
    unreached = [i for i in range(len(campaign.levels)) if i not in reached]
    if not unreached:
        return {}
    into: list[list[int]] = [[] for _ in campaign.levels]
    onward: list[list[int]] = [[] for _ in campaign.levels]
    for j, level in enumerate(campaign.levels):
        for cell in level.ladders:
            k = first.get(cell.to or "")
            if k is not None and k != j:
                into[k].append(j)
                onward[j].append(k)
    roots = [k for k in unreached if not into[k] or any(j in reached for j in into[k])]
    groups: dict[int, list[int]] = {}
    claimed = set(roots)
    for root in roots:
        todo, group = [root], []
        while todo:
            for k in onward[todo.pop()]:
                if k not in reached and k not in claimed:
                    claimed.add(k)
                    group.append(k)
                    todo.append(k)
        groups[root] = sorted(group)
    for k in unreached:  # levels whose only ways in are ladders among themselves, in a cycle
        if k not in claimed:
            groups[k] = []
    for root in [k for k in roots if not into[k] and k - 1 in reached]:
        cause = next((i for i, d in enumerate(out) if d.code == "CR306" and d.level == root - 1), None)
        if cause is not None:
            cut = _levels_named(campaign, [root, *groups.pop(root)])
            out[cause] = _of_level_diag(campaign, root - 1, lambda it: f"{it} has neither a descending ladder nor an "
                                        f"exit, so no ladder path from the first level reaches {cut}")
    return groups


def _dead_end_groups(flow: list[list[int]], reached: set[int], can_finish: set[int]) -> dict[int, list[int]]:
    """The levels reached from which no exit can be reached (CR311), grouped by the dead end they lead to: level ->
    the levels whose ladders lead only to levels without an exit and on to it, for each level whose CR311 is said.
    A dead end is a level whose ladders reached lead nowhere on (its exit and ladders walled off, or none: the
    cause); the levels above it, each with a ladder down to it, are named in its error rather than each in one of
    their own (a deleted key gave six, one per level above the chest). Levels leading only to each other, in a
    cycle, keep their own."""
    blocked = [i for i in range(len(flow)) if i in reached and i not in can_finish]
    roots = [i for i in blocked if set(flow[i]) <= {i}]  # (a ladder back to its own level leads nowhere on: CR312)
    back: dict[int, list[int]] = {i: [] for i in blocked}
    for i in blocked:
        for j in flow[i]:
            if j in back:
                back[j].append(i)
    groups: dict[int, list[int]] = {}
    claimed = set(roots)
    for root in roots:
        todo, group = [root], []
        while todo:
            for i in back[todo.pop()]:
                if i not in claimed:
                    claimed.add(i)
                    group.append(i)
                    todo.append(i)
        groups[root] = sorted(group)
    for i in blocked:
        if i not in claimed:
            groups[i] = []
    return groups


def _of_level_diag(campaign: Campaign, index: int, sentence: Callable[[str], str]) -> Diagnostic:
    return Diagnostic("CR306", **_of_level(campaign, index, sentence))


def _levels_named(campaign: Campaign, indices: list[int]) -> str:
    """Levels by name: a run of three or more by its ends (``levels 3 to 8 ("First Blood" (first-blood) to ...)``),
    others the first four of them and how many more."""
    if len(indices) >= 3 and indices == list(range(indices[0], indices[-1] + 1)):
        ends = [campaign.level_name(k).split(" ", 2)[2] for k in (indices[0], indices[-1])]
        return f"levels {indices[0] + 1} to {indices[-1] + 1} ({ends[0]} to {ends[1]})"
    names = [campaign.level_name(k) for k in indices[:4]]
    more = f" and {counted(len(indices) - 4, 'more level')}" if len(indices) > 4 else ""
    return (", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 and not more else ", ".join(names)) + more


def _so_neither(campaign: Campaign, followers: list[int]) -> str:
    """The levels reached only through a level that cannot be reached (CR310): they cannot be reached either."""
    if not followers:
        return ""
    return f"; so neither can {_levels_named(campaign, followers)}, reached only through it"


def _no_way_in(campaign: Campaign, index: int, reached: set[int]) -> str:
    """Why no ladder path leads to level ``index`` (CR310): the ladders to it, by place and level, none of
    which can be reached (on a level reached, CR302 says why), or that no ladder leads there."""
    target = campaign.levels[index].id
    ladders = [(c.pos, j) for j, level in enumerate(campaign.levels) for c in level.ladders if c.to == target]
    if not ladders:
        return "no ladder path from the first level leads to it"

    def why(j: int) -> str:
        return "see CR302" if j in reached else "its level cannot be reached either"

    if len(ladders) == 1:
        (pos, j), = ladders
        return f"the ladder to it at {place_text(*pos)} on {campaign.level_name(j)} cannot be reached ({why(j)})"

    def at(pos: tuple[int, int], j: int) -> str:
        return f"at {place_text(*pos)} on {campaign.level_name(j)}, {why(j)}"

    more = f", and {len(ladders) - 3} more" if len(ladders) > 3 else ""
    return f"none of the ladders to it can be reached ({'; '.join(at(*ladder) for ladder in ladders[:3])}{more})"


def _no_way_on(campaign: Campaign, la: LevelAnalysis, first: dict[str, int]) -> str:
    """What to do about a level from which no exit can be reached (CR311), by what it holds: ladders that
    lead only to dead ends, ways out the start cannot reach, or none at all."""
    onward = sorted({first[to] for to in la.ladders_reached if to in first})
    if onward == [la.index]:
        return "its ladders lead only back to it" + ("" if campaign.allow_ladder_cycles else " (see CR312)")
    if onward:
        return f"its ladders lead only to levels without one ({', '.join(campaign.level_name(j) for j in onward)})"
    exits = any(c.exit for c in la.cells)
    ladders = any(c.card == DESCENDING_LADDER for c in la.cells)
    if exits or ladders:
        what, codes = (("its exit and ladders", "CR301 and CR302") if exits and ladders
                       else ("its exit", "CR301") if exits else ("its ladders", "CR302"))
        return f"{what} cannot be reached from the starting tile (see {codes})"
    return "add a ladder or an exit"


def closure(successors: Sequence[Sequence[int]], sources: Iterable[int]) -> set[int]:
    """The nodes reached from ``sources`` (themselves included)."""
    seen = set(sources)
    todo = list(seen)
    while todo:
        for j in successors[todo.pop()]:
            if j not in seen:
                seen.add(j)
                todo.append(j)
    return seen


def has_cycle(successors: Sequence[Sequence[int]]) -> bool:
    """Whether the directed graph has a cycle (a ladder to its own level is one): Kahn's
    topological sort leaves a node over."""
    into = [0] * len(successors)
    for targets in successors:
        for j in set(targets):
            into[j] += 1
    todo = [i for i, d in enumerate(into) if not d]
    left = len(successors)
    while todo:
        left -= 1
        for j in set(successors[todo.pop()]):
            into[j] -= 1
            if not into[j]:
                todo.append(j)
    return left > 0


def _ladder_cycle(campaign: Campaign, flow: list[list[int]]) -> list[Diagnostic]:
    """CR312 for a campaign whose ladders form a cycle: the cycle networkx finds from the first
    level, else the first strongly connected group of levels."""
    import networkx as nx

    graph = nx.DiGraph()
    graph.add_nodes_from(range(len(flow)))
    graph.add_edges_from((i, j) for i, targets in enumerate(flow) for j in targets)
    try:
        cycle = nx.find_cycle(graph, 0)
    except nx.NetworkXNoCycle:
        cycle = []
    if not cycle:
        for component in nx.strongly_connected_components(graph):
            if len(component) > 1:
                cycle = [(min(component), None)]
                break
    if not cycle:
        return []  # only a ladder to its own level that no ladder path reaches
    src = cycle[-1][0]
    dst = cycle[-1][1] if cycle[-1][1] is not None else src
    level = campaign.levels[src]
    ladder = next((c for c in level.ladders if campaign.level_index(c.to or "") == dst), level.ladders[0] if level.ladders else None)
    names = " -> ".join(campaign.level_name(a) for a, _ in cycle) + f" -> {campaign.level_name(cycle[0][0])}"
    extra = {"path": ("levels", src, "cells", level.index_of(ladder), "to"), "cell": ladder.pos} if ladder else {"path": ("levels", src)}
    return [Diagnostic("CR312", f"ladders form a cycle ({names}); set \"allow_ladder_cycles\": true if this is intended",
                       Severity.ERROR, level=src, **extra)]
