"""Why there is no finish: a static proof from the level graph, or what an exhausted search saw.

Both speak in the campaign model's terms (levels, cells, cards); of the search they read its
:class:`~.search.Findings`, whose cells are addresses (level index, x, y), never its tables.
"""

from __future__ import annotations

from ...model.campaign import Campaign, CardKind, Cell, row_major, row_major_pos
from ...rules.mobility import obtainable_cards, wall_crossings
from ...rules.view import Tile, tile_of
from ...words import place_text
from ..graph import analyse_campaign, hero_graph
from .bounds import Relaxation
from .search import Address, Findings, Search


def _where(campaign: Campaign, at: Address) -> str:
    li, x, y = at
    return f"{campaign.cards[campaign.levels[li].cell_at(x, y).card].name} at {place_text(x, y)} on {campaign.level_name(li)}"


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
                # the graph's messages leave their level to their place ("this level"): another one is named
                on = "" if g.level == level else f"on {campaign.level_name(g.level)}: "
                return f"no way out can be reached: {on}{g.message}", g.level
    return "no way out can be reached from the starting tile", level


def explain(search: Search) -> tuple[str, int]:
    """Why an exhausted search found no finish: the fight a goal or every route needs, the unmet goal, or
    death. A fight that cuts the start off comes before a buy goal: the hero who never gets past it never
    reaches the gold either."""
    campaign, seen = search.campaign, search.findings()
    li = seen.deepest
    level = campaign.levels[li]
    cells = sorted(level.cells, key=row_major)
    states = f"{search.expanded:,} states searched"
    goals_unmet = bool(level.goals) and li not in seen.goals_met
    if goals_unmet:
        for goal in level.goals:
            if goal.verb == "slay":
                targets = [c for c in cells if c.card == goal.card]
                if targets and not any((li, *c.pos) in seen.slain for c in targets):
                    return _fight_reason(search, seen, (li, *targets[0].pos), f"the goal 'Slay {goal.card}' needs it"), li
    blocker = _blocking_fight(campaign, seen, li, cells)
    if blocker is not None:
        return _fight_reason(search, seen, (li, *blocker), "it blocks every route to the way out"), li
    if goals_unmet:
        for goal in level.goals:
            if goal.verb == "buy":
                price = 2 * (campaign.cards[goal.card].gold or 0)
                if any(goal.card in c.stock for c in cells) and seen.max_gold < price:  # else: the general reason
                    dead = f"; the search saw the hero die ({_deaths(campaign, seen)})" if seen.deaths else ""
                    return (f"the goal 'Buy {goal.card}' cannot be met: it costs {price} gold and the most gold "
                            f"ever held is {seen.max_gold}{dead} ({states})"), li
        text = ", ".join(f"{g.verb} {g.card}" for g in level.goals)
        return f"the level goals ({text}) can never all be met before a way out is reached ({states})", li
    if seen.deaths:
        return (f"death is unavoidable: every line of play ends with the hero dead or stuck "
                f"({_deaths(campaign, seen)}; {states})"), li
    return f"no line of play reaches a way out: the hero is always stuck ({states})", li


def _deaths(campaign: Campaign, seen: Findings) -> str:
    """Where the search saw the hero die most often."""
    (cause, at), n = seen.deaths.most_common(1)[0]
    where = _where(campaign, at) if cause != "other" else "poison or a trap"
    return f"most deaths: {where}, {'once' if n == 1 else f'{n:,} times'}"


def _blocking_fight(campaign: Campaign, seen: Findings, li: int, cells: list) -> tuple[int, int] | None:
    """The first enemy (row-major) beside the start's side of the level when the enemies never slain cut
    the start off from every way out, else None."""
    unslain = {c.pos for c in cells if _tile(campaign, c) is Tile.ENEMY and (li, *c.pos) not in seen.slain}
    if not unslain:
        return None
    import networkx as nx

    level = campaign.levels[li]
    graph = hero_graph(level, wall_crossings(campaign))
    ways = [c.pos for c in cells if c.exit] + [c.pos for c in cells if _tile(campaign, c) is Tile.LADDER
                                               and c.to and campaign.level_index(c.to) is not None]
    free = graph.copy()
    free.remove_nodes_from(unslain)
    start = level.start.pos
    if start not in free or any(w in free and nx.has_path(free, start, w) for w in ways):
        return None
    near = nx.node_connected_component(free, start)
    blockers = sorted((p for p in unslain if any(q in near for q in graph.neighbors(p))), key=row_major_pos)
    return blockers[0] if blockers else None


def _tile(campaign: Campaign, cell: Cell) -> Tile:
    return tile_of(campaign.cards[cell.card])


def _fight_reason(search: Search, seen: Findings, at: Address, why: str) -> str:
    campaign = search.campaign
    cards = campaign.cards
    gear = sorted({c for c in obtainable_cards(campaign) if c in cards and cards[c].kind in (CardKind.WEAPON, CardKind.ARMOUR)})
    li, x, y = at
    health = cards[campaign.levels[li].cell_at(x, y).card].health
    low = seen.foe_low.get(at)
    best = f"the best attempt left it with {low} of {health} health" if low is not None else "no line of play searched ever left it wounded"
    kit = f"reachable equipment: {', '.join(gear)}" if gear else "no weapon or armour can be reached"
    return (f"a required fight cannot be won: {_where(campaign, at)} -- {why}, and no line of play "
            f"slays it ({best}; {kit}; {search.expanded:,} states searched)")
