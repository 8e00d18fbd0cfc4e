"""The check's own graph search (engine/analysis/graph.py) against networkx, the oracle.

The graph checks walk a level's neighbour lists with one iterative depth-first search instead of
networkx's general-purpose graphs; these properties hold its answers equal to networkx's on random
graphs: what the start reaches, the cells every route to a way out passes, and the ladder graph's
reach and cycles.
"""

from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrogue.engine.analysis.graph import adjacency, closure, has_cycle, hero_graph, reach_and_cuts
from cardrogue.engine.model.campaign import STARTING_TILE, Cell, Level


@st.composite
def simple_graphs(draw, max_nodes: int = 14):
    """A simple undirected graph on 1..max_nodes nodes, as networkx and as neighbour lists."""
    n = draw(st.integers(1, max_nodes))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    edges = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs))) if pairs else []
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(edges)
    adj: list[list[int]] = [[] for _ in range(n)]
    for i, j in draw(st.permutations(edges)):  # the search must not depend on the order of the lists
        adj[i].append(j)
        adj[j].append(i)
    return graph, adj


def cuts_by_definition(graph: nx.Graph, start: int, targets: set[int]) -> set[int]:
    """Nodes other than ``start`` whose removal leaves the start no path to any reached target."""
    reached = nx.node_connected_component(graph, start)
    goal = targets & reached
    if not goal:
        return set()
    out = set()
    for v in reached - {start}:
        rest = graph.subgraph(set(graph) - {v})
        if not any(nx.has_path(rest, start, t) for t in goal - {v}):
            out.add(v)
    return out


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_reach_and_cuts_agree_with_networkx(data):
    graph, adj = data.draw(simple_graphs())
    n = len(adj)
    start = data.draw(st.integers(0, n - 1))
    blocked = data.draw(st.sets(st.integers(0, n - 1).filter(lambda v: v != start), max_size=n // 3))
    targets = data.draw(st.lists(st.integers(0, n - 1), max_size=4))
    order, cuts = reach_and_cuts(adj, start, targets, blocked)
    free = graph.subgraph(set(graph) - blocked)
    assert sorted(order) == sorted(nx.node_connected_component(free, start)) and order[0] == start
    assert len(set(order)) == len(order) and len(set(cuts)) == len(cuts)
    assert set(cuts) == cuts_by_definition(free, start, set(targets))


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_cuts_to_every_way_out_are_networkx_articulation_points_on_the_block_cut_path(data):
    """The old formulation: a virtual node joined to every way out; the chokepoints are the cut
    vertices between the start and it (networkx's biconnected components)."""
    graph, adj = data.draw(simple_graphs())
    n = len(adj)
    start = data.draw(st.integers(0, n - 1))
    ways = set(data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3)))
    _, cuts = reach_and_cuts(adj, start, ways)
    reached = nx.node_connected_component(graph, start)
    ways_out = ways & reached
    joined = graph.copy()
    joined.add_edges_from(("out", w) for w in ways_out)
    expected = set()
    if ways_out:
        expected = {v for v in nx.articulation_points(joined)
                    if v not in ("out", start) and not nx.has_path(joined.subgraph(set(joined) - {v}), start, "out")}
    assert set(cuts) == expected


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_ladder_reach_and_cycles_agree_with_networkx(data):
    n = data.draw(st.integers(1, 9))
    edges = data.draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=14))
    successors: list[list[int]] = [[] for _ in range(n)]
    for i, j in edges:
        successors[i].append(j)  # a repeated ladder stays in the lists, as the campaign builds them
    graph = nx.DiGraph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(edges)
    sources = data.draw(st.sets(st.integers(0, n - 1), max_size=3))
    expected = set(sources).union(*(nx.descendants(graph, s) for s in sources))
    assert closure(successors, sources) == expected
    assert has_cycle(successors) is not nx.is_directed_acyclic_graph(graph)


PATHS = st.sampled_from(["", "N", "E", "S", "W", "NE", "NS", "EW", "ESW", "NESW", "NSW", "NEW"])


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_the_heros_graph_joins_adjacent_tiles_and_what_he_can_cross(data):
    """Walls and paths: an edge joins two orthogonal neighbours whose facing edges both carry a path;
    a hero who can cross walls joins every orthogonal neighbour; a potion of teleportation joins the
    start to every tile."""
    width, height = data.draw(st.integers(1, 5)), data.draw(st.integers(1, 5))
    places = data.draw(st.lists(st.tuples(st.integers(0, width - 1), st.integers(0, height - 1)),
                                min_size=1, max_size=width * height, unique=True))
    cells = tuple(Cell(x, y, STARTING_TILE if k == 0 else "pathing-tile", data.draw(PATHS)) for k, (x, y) in enumerate(places))
    level = Level("a", "", "", width, height, cells)
    crossings = data.draw(st.sampled_from([frozenset(), frozenset({"adjacent"}), frozenset({"teleport"}),
                                           frozenset({"adjacent", "teleport"})]))
    opposite = {"N": "S", "S": "N", "E": "W", "W": "E"}
    step = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}
    expected = nx.Graph()
    expected.add_nodes_from(places)
    for c in cells:
        for d, (dx, dy) in step.items():
            other = level.by_pos.get((c.x + dx, c.y + dy))
            if other is not None and (crossings or (d in c.paths and opposite[d] in other.paths)):
                expected.add_edge(c.pos, other.pos)
    if "teleport" in crossings:
        expected.add_edges_from((cells[0].pos, p) for p in places if p != cells[0].pos)
    graph = hero_graph(level, crossings)
    assert set(graph.nodes) == set(expected.nodes)
    assert {frozenset(e) for e in graph.edges} == {frozenset(e) for e in expected.edges}
    adj = adjacency(level, crossings)
    assert all(len(set(near)) == len(near) and i not in near for i, near in enumerate(adj))
