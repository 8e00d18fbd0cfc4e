"""Graph analysis of levels and of the campaign, with networkx.

Per level, the graph's nodes are the cells and its edges join ADJACENT TILEs:
orthogonal neighbours whose facing edges both carry a path ("Walls and paths",
Clarifications > ADJACENT TILE). Across the campaign, levels are joined by the
descending ladders that can be reached.

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
=====  ========  ===============================================================
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from ..format.diagnostics import Diagnostic, Severity
from ..model.campaign import CHEST, KEY, Campaign, Level, row_major_pos
from ..rules.mobility import wall_crossings

_OUT = "out"  # a virtual node joined to every way out of a level


def level_graph(level: Level, through_walls: bool = False) -> nx.Graph:
    """Cells as nodes ``(x, y)``; edges between ADJACENT TILEs (with ``through_walls``, between
    all orthogonal neighbours)."""
    cells = level.by_pos.items()
    if through_walls:
        graph = nx.Graph()
        graph.add_nodes_from(level.by_pos)
        graph.add_edges_from(((x - 1, y), (x, y)) for x, y in level.by_pos if (x - 1, y) in level.by_pos)
        graph.add_edges_from(((x, y - 1), (x, y)) for x, y in level.by_pos if (x, y - 1) in level.by_pos)
        return graph
    east = {pos for pos, cell in cells if "E" in cell.paths}
    west = {pos for pos, cell in cells if "W" in cell.paths}
    south = {pos for pos, cell in cells if "S" in cell.paths}
    north = {pos for pos, cell in cells if "N" in cell.paths}
    graph = nx.Graph()
    graph.add_nodes_from(level.by_pos)
    graph.add_edges_from(((x - 1, y), (x, y)) for x, y in west if (x - 1, y) in east)
    graph.add_edges_from(((x, y - 1), (x, y)) for x, y in north if (x, y - 1) in south)
    return graph


def hero_graph(level: Level, crossings: frozenset[str] = frozenset()) -> nx.Graph:
    """Where the hero may go from cell to cell: ADJACENT TILEs; every orthogonal neighbour when he
    could cross walls; and, with a potion of teleportation to be had, every tile from the start."""
    graph = level_graph(level, through_walls=bool(crossings))
    if "teleport" in crossings and level.start is not None:
        graph.add_edges_from((level.start.pos, pos) for pos in level.by_pos if pos != level.start.pos)
    return graph


@dataclass(frozen=True)
class LevelAnalysis:
    """What the graph says about one level: reachability, chokepoints, ways out."""

    index: int
    reachable: frozenset[tuple[int, int]]
    chokepoints: tuple[tuple[int, int], ...]
    ladders_reached: tuple[str, ...]  # ids of the levels the reachable ladders lead to
    exit_reached: bool


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
    start = level.start
    graph = hero_graph(level, crossings)
    chests = [c.pos for c in level.cells if c.card == CHEST]
    keys = [c.pos for c in level.cells if c.card == KEY]

    def where(pos: tuple[int, int]) -> dict:
        cell = level.by_pos[pos]
        return {"path": ("levels", index, "cells", level.index_of(cell)), "level": index, "cell": pos}

    assert start is not None, "the loader guarantees one starting tile"
    reachable = set(nx.node_connected_component(graph, start.pos))
    if chests:
        without_chests = graph.copy()
        without_chests.remove_nodes_from(chests)
        free = set(nx.node_connected_component(without_chests, start.pos))
        key_free = any(k in free for k in keys) or _key_outside(campaign, index)
        if not key_free:
            for k in keys:
                if k in reachable:
                    out.append(Diagnostic(
                        "CR304", f"the key at {k} can be reached only through a locked chest; move it in front of the chest",
                        Severity.ERROR, **where(k)))
            if not keys:
                for c in chests:
                    out.append(Diagnostic(
                        "CR305", f"locked chest at {c} has no key anywhere in the campaign; place a key before it",
                        Severity.ERROR, **where(c)))
            reachable = free
            graph = without_chests

    exits = [c.pos for c in level.cells if c.exit]
    ladders = level.ladders
    for pos in exits:
        if pos not in reachable:
            out.append(Diagnostic("CR301", f"the exit at {pos} cannot be reached from the starting tile at {start.pos}; connect their paths",
                                  Severity.ERROR, **where(pos)))
    for ladder in ladders:
        if ladder.pos not in reachable:
            out.append(Diagnostic("CR302", f"the ladder at {ladder.pos} to {ladder.to!r} cannot be reached from the starting tile at {start.pos}",
                                  Severity.ERROR, **where(ladder.pos)))
    reported = set(exits) | {lad.pos for lad in ladders}
    for cell in level.cells:
        if cell.pos not in reachable and cell.pos not in reported and cell.paths:
            out.append(Diagnostic("CR303", f"{cell.card!r} at {cell.pos} cannot be reached from the starting tile",
                                  Severity.WARNING, **where(cell.pos)))
    for goal in level.goals:
        if goal.verb in ("slay", "open"):
            targets = [c.pos for c in level.cells if c.card == goal.card]
        else:
            targets = [c.pos for c in level.cells if goal.card in c.stock]
        if targets and not any(t in reachable for t in targets):
            out.append(Diagnostic("CR308", f"goal {goal.text()!r} cannot be met: no {goal.card!r} can be reached",
                                  Severity.ERROR, **where(targets[0])))

    ways_out = [p for p in exits if p in reachable] + [lad.pos for lad in ladders if lad.pos in reachable]
    if not ways_out and not exits and not ladders:
        out.append(Diagnostic("CR306", f"level {level.id!r} has neither a descending ladder nor an exit",
                              Severity.ERROR, path=("levels", index), level=index))
    chokepoints = _chokepoints(graph, start.pos, ways_out)
    for pos in chokepoints:
        out.append(Diagnostic("CR307", f"chokepoint: every route from the start to the way out passes {pos}",
                              Severity.INFO, **where(pos)))
    return LevelAnalysis(
        index=index,
        reachable=frozenset(reachable),
        chokepoints=chokepoints,
        ladders_reached=tuple(lad.to for lad in ladders if lad.pos in reachable and lad.to),
        exit_reached=any(p in reachable for p in exits),
    )


def _chokepoints(graph: nx.Graph, start: tuple[int, int], ways_out: list) -> tuple[tuple[int, int], ...]:
    """Cells on every route from ``start`` to any way out.

    A virtual node joined to every way out turns "any way out" into one target.
    The answer is then the cut vertices on the path from start to that target in
    the block-cut tree (blocks = biconnected components), in linear time.
    ``graph`` gains the virtual node for the duration of the call.
    """
    if not ways_out:
        return ()
    graph.add_edges_from((_OUT, p) for p in ways_out)
    try:
        blocks = list(nx.biconnected_components(graph))
    finally:
        graph.remove_node(_OUT)
    seen: set = set()
    cuts: set = set()
    for block in blocks:
        cuts |= block & seen
        seen |= block
    if not cuts:
        return ()
    tree = nx.Graph()
    for i, block in enumerate(blocks):
        for v in block & cuts:
            tree.add_edge(("block", i), v)
        for v in {start, _OUT} & block - cuts:
            tree.add_edge(("block", i), ("end", v))
    path = nx.shortest_path(tree, start if start in cuts else ("end", start), ("end", _OUT))
    exclude = {start, *ways_out}
    found = [v for v in path if v in cuts and v not in exclude]
    return tuple(sorted(found, key=row_major_pos))


def analyse_campaign(campaign: Campaign) -> tuple[list[LevelAnalysis], list[Diagnostic]]:
    """Every level's analysis, then the campaign graph of levels and ladders."""
    out: list[Diagnostic] = []
    crossings = wall_crossings(campaign)
    levels = [analyse_level(campaign, i, out, crossings) for i in range(len(campaign.levels))]

    flow = nx.DiGraph()
    flow.add_nodes_from(range(len(campaign.levels)))
    for la in levels:
        for target in la.ladders_reached:
            j = campaign.level_index(target)
            if j is not None:
                flow.add_edge(la.index, j)
    reached = nx.descendants(flow, 0) | {0}
    finishing = {la.index for la in levels if la.exit_reached}
    can_finish = set(finishing)
    for f in finishing:
        can_finish |= nx.ancestors(flow, f)
    for la in levels:
        level = campaign.levels[la.index]
        if la.index not in reached:
            out.append(Diagnostic("CR310", f"level {level.id!r} cannot be reached: no ladder path from the first level leads to it",
                                  Severity.ERROR, path=("levels", la.index, "id"), level=la.index))
        elif la.index not in can_finish:
            out.append(Diagnostic("CR311", f"from level {level.id!r} no exit can be reached: add a ladder or an exit",
                                  Severity.ERROR, path=("levels", la.index, "id"), level=la.index))
    if not campaign.allow_ladder_cycles:
        try:
            cycle = nx.find_cycle(flow, 0) if flow.number_of_edges() else []
        except nx.NetworkXNoCycle:
            cycle = []
        if not cycle:
            for component in nx.strongly_connected_components(flow):
                if len(component) > 1:
                    cycle = [(min(component), None)]
                    break
        if cycle:
            src = cycle[-1][0]
            dst = cycle[-1][1] if cycle[-1][1] is not None else src
            level = campaign.levels[src]
            ladder = next((c for c in level.ladders if campaign.level_index(c.to or "") == dst), level.ladders[0] if level.ladders else None)
            names = " -> ".join(campaign.levels[a].id for a, _ in cycle) + f" -> {campaign.levels[cycle[0][0]].id}"
            extra = {"path": ("levels", src, "cells", level.index_of(ladder), "to"), "cell": ladder.pos} if ladder else {"path": ("levels", src)}
            out.append(Diagnostic("CR312", f"ladders form a cycle ({names}); set \"allow_ladder_cycles\": true if this is intended",
                                  Severity.ERROR, level=src, **extra))
    return levels, out
