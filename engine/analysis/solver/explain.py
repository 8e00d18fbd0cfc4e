"""Why there is no finish: a static proof from the level graph, or what an exhausted search saw."""

from __future__ import annotations

from ...model.campaign import Campaign, CardKind, row_major_pos
from ...rules.mobility import obtainable_cards, wall_crossings
from ...rules.tables import ENEMY
from ..graph import analyse_campaign, hero_graph
from .bounds import Relaxation
from .search import Search


def _where(campaign: Campaign, cell: int, d) -> str:
    x, y = d.pos_of[cell]
    return f"{d.card[cell].name} at {x},{y} (level {campaign.levels[d.level_of[cell]].id!r})"


_PROOF_CODES = ("CR304", "CR305", "CR301", "CR302", "CR306", "CR308", "CR311", "CR310")


def static_proof(campaign: Campaign, level: int, campaign_mode: bool, relax: Relaxation) -> tuple[str, int] | None:
    """A reason from the level graph alone, when it proves there is no way out (None: no proof).

    The graph of ADJACENT TILEs over-approximates where the hero can go only when he cannot
    relocate through walls (potion of teleportation, MOVE TO ANY ADJACENT TILE); otherwise only
    the relaxed bound (grid neighbours) may prove anything, and the search decides.
    """
    if relax.walls:
        return None
    analyses, diagnostics = analyse_campaign(campaign)
    if campaign_mode:
        finishing = {la.index for la in analyses if la.exit_reached}
        seen, todo = {level}, [level]
        while todo:
            li = todo.pop()
            for target in analyses[li].ladders_reached:
                j = campaign.level_index(target)
                if j is not None and j not in seen:
                    seen.add(j)
                    todo.append(j)
        if seen & finishing:
            blocking = [g for g in diagnostics if g.code == "CR308" and g.level == level]
            if blocking:
                return f"{blocking[0].message} (every way out of the level needs it)", level
            return None
        scope = seen
    else:
        la = analyses[level]
        if la.exit_reached or la.ladders_reached:
            blocking = [g for g in diagnostics if g.code == "CR308" and g.level == level]
            if blocking:
                return f"{blocking[0].message} (every way out of the level needs it)", level
            return None
        scope = {level}
    for code in _PROOF_CODES:
        for g in diagnostics:
            if g.code == code and g.level in scope:
                return f"no way out can be reached: {g.message}", g.level
    return "no way out can be reached from the starting tile", level


def explain(search: Search) -> tuple[str, int]:
    """Why an exhausted search found no finish: the blocking fight, the unmet goal, or death."""
    campaign, d, trace = search.campaign, search.d, search.trace
    li = trace.deepest
    lo, hi = d.level_range[li]
    states = f"{search.expanded:,} states searched"
    goals = d.goals[li]
    if goals and li not in trace.goals_met:
        for verb, card in goals:
            if verb == "slay":
                cells = [j for j in range(lo, hi) if d.card[j].id == card]
                if cells and not any(j in trace.slain for j in cells):
                    return _fight_reason(search, cells[0], f"the goal 'Slay {card}' needs it"), li
            if verb == "buy":
                shop = next((j for j in range(lo, hi) if card in d.cells[j].stock), None)
                price = 2 * (d.cards[card].gold or 0)
                if shop is not None:
                    return (f"the goal 'Buy {card}' cannot be met: it costs {price} gold and the most gold "
                            f"ever held is {trace.max_gold} ({states})"), li
        text = ", ".join(f"{v} {c}" for v, c in goals)
        return f"the level goals ({text}) can never all be met before a way out is reached ({states})", li
    # A fight is required when the enemies never slain cut the start off from every way out.
    level = campaign.levels[li]
    unslain = {d.pos_of[j] for j in range(lo, hi) if d.kind[j] == ENEMY and j not in trace.slain}
    if unslain:
        import networkx as nx

        graph = hero_graph(level, wall_crossings(campaign))
        ways = [d.pos_of[w] for w, _ in search.relax.ways[li]]
        free = graph.copy()
        free.remove_nodes_from(unslain)
        start = level.start.pos
        if start in free and not any(w in free and nx.has_path(free, start, w) for w in ways):
            near = nx.node_connected_component(free, start)
            blockers = sorted((p for p in unslain if any(q in near for q in graph.neighbors(p))), key=row_major_pos)
            if blockers:
                cell = d.index[(li, *blockers[0])]
                return _fight_reason(search, cell, "it blocks every route to the way out"), li
    if trace.deaths:
        (kind, cell), n = trace.deaths.most_common(1)[0]
        cause = _where(campaign, cell, d) if kind != "other" else "poison or a trap"
        return (f"death is unavoidable: every line of play ends with the hero dead or stuck "
                f"(most deaths: {cause}, {n:,} times; {states})"), li
    return f"no line of play reaches a way out: the hero is always stuck ({states})", li


def _fight_reason(search: Search, cell: int, why: str) -> str:
    d, trace = search.d, search.trace
    gear = sorted({c for c in obtainable_cards(search.campaign)
                   if c in d.cards and d.cards[c].kind in (CardKind.WEAPON, CardKind.ARMOUR)})
    low = trace.foe_low.get(cell)
    best = f"the best attempt left it with {low} of {d.card[cell].health} health" if low is not None else "no line of play searched ever left it wounded"
    kit = f"reachable equipment: {', '.join(gear)}" if gear else "no weapon or armour can be reached"
    return (f"a required fight cannot be won: {_where(search.campaign, cell, d)} -- {why}, and no line of play "
            f"slays it ({best}; {kit}; {search.expanded:,} states searched)")

