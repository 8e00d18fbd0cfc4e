"""Where the hero can ever be, whatever he carries: a static proof that holds when he can relocate.

The graph checks (:mod:`..graph`, used by :func:`.explain.static_proof`) prove nothing once the hero
could pass walls (a potion of teleportation, the mage's SPELL, MOVE TO ANY ADJACENT TILE). Yet even
then he stands only where the rules let him (docs/solver.md, *Where the hero can ever be*):

* he moves or flees only onto an ADJACENT TILE, relocates (SPELL, MOVE TO ANY ADJACENT TILE) only onto
  an orthogonal neighbour, and teleports only onto a tile of the level; and every one of them needs
  the tile revealed (POTION OF TELEPORTATION: "A player or enemy may not be teleported to ... a tile
  that has not been revealed yet"; MOVE TO ANY ADJACENT TILE: "... or onto a tile that has not been
  revealed yet"; a face-down card is flipped before it is moved onto: docs/rules.md, *Board*);
* only a flip turns a card face up, and he flips only "a face-down card at the end of one of the
  tile's paths" he stands on (Standard turn sequence, step 1);
* an exit or a descending ladder ends the level when entered (DESCENDING LADDER: "the turn ends and the
  next turn starts on the starting tile of the level the ladder names"; the exit wins), so the hero
  never stands on one and acts again on the level: it is a way out, never a passage;
* a level's goals are met on its cells: a chest is opened by moving onto it, an enemy slain (or moved
  by a thrown potion) only in a fight from an ADJACENT TILE, a card bought on the shop he stands on;
  and "Ladders and exits cannot be entered until the level's goals are met" (docs/rules.md, *Goals and
  the end*).

So the cells he may stand on are within a least fixed point from the tiles he enters the level on (its
starting tile; the practice start's own tile): reveal what the paths of a tile stood on lead to, stand
on every revealed tile one move, one relocation (when any card of the campaign gives one) or one
teleport (when a potion of teleportation can be had anywhere) away, but never on a way out. Enemies,
locked chests, keys, potions in hand and goals are all ignored on the way (assumed passable, at hand,
met), so the set only ever over-approximates; a goal that no cell of it can meet, or a way out no cell
of it leads to, is a proof.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...model.campaign import Campaign
from ...rules.mobility import wall_crossings
from ...rules.tables import LADDER, SHOP_TILE, UP
from ...words import place_text


@dataclass(frozen=True)
class LevelReach:
    """What the fixed point gives for one level."""

    level: int
    stand: frozenset[int]  # cells (compiled indices) the hero may stand on and act from
    revealed: frozenset[int]  # cells that may ever be face up (or cleared)
    ways: frozenset[int]  # exits and ladders he may enter (with the goals met)

    def clearable(self, d, j: int) -> bool:
        """Cell ``j``'s card can ever be taken, opened, slain or moved: he stands on it, or it is revealed
        on an ADJACENT TILE of a cell he stands on (a fight, or an artifact flipped there)."""
        if j in self.stand:
            return True
        return j in self.revealed and any(p in self.stand for p in d.near[j])  # (ADJACENT TILE is symmetric)


def level_reach(d, level: int, entries, teleport: bool, relocate: bool) -> LevelReach:
    """The fixed point for ``level`` from the cells in ``entries`` (see the module's docstring).

    ``teleport``: a potion of teleportation can be had (any revealed tile of the level);
    ``relocate``: SPELL or MOVE TO ANY ADJACENT TILE can be had (any revealed orthogonal neighbour)."""
    lo, hi = d.level_range[level]
    ladder_to, kind, exits = d.ladder_to, d.kind, d.exit
    revealed = {j for j in range(lo, hi) if d.initial_faces[j] == UP}
    stand: set[int] = set()
    ways: set[int] = set()
    todo: list[int] = []

    def way_out(j: int) -> bool:
        return exits[j] or (kind[j] == LADDER and ladder_to[j] >= 0)

    def enter(j: int) -> None:
        if way_out(j):
            ways.add(j)  # (also a tile he entered the level on: he may step off it and back)
        elif j not in stand:
            stand.add(j)
            todo.append(j)

    def reveal(j: int) -> None:
        if j in revealed:
            return
        revealed.add(j)
        if teleport and stand:
            enter(j)
            return
        for p in (d.grid_to[j] if relocate else d.near[j]):  # (both relations are symmetric)
            if p in stand:
                enter(j)
                return

    for j in entries:
        revealed.add(j)
        stand.add(j)
        todo.append(j)
    if teleport:
        for j in sorted(revealed):
            enter(j)
    while todo:
        p = todo.pop()
        for j in d.flip_to[p]:
            if j >= 0:
                reveal(j)
        for j in (d.grid_to[p] if relocate else d.near[p]):
            if j >= 0 and j in revealed:
                enter(j)
    return LevelReach(level, frozenset(stand), frozenset(revealed), frozenset(ways))


def unmet_goal(d, reach: LevelReach) -> tuple[str, str] | None:
    """A goal of the level no cell of ``reach`` can meet, as (verb, card), or None."""
    for verb, card, cells in d.goal_cells[reach.level]:
        if verb == "buy":
            if not any(d.kind[j] == SHOP_TILE and card in d.cells[j].stock for j in reach.stand):
                return verb, card
        elif not any(reach.clearable(d, j) for j in cells):
            return verb, card
    return None


def reach_proof(campaign: Campaign, d, start: int, level: int, campaign_mode: bool) -> tuple[str, int] | None:
    """A reason why no finish exists from the hero at cell ``start`` of ``level`` (None: no proof).

    A level whose goals no reachable cell can meet is never left (its ways out wait for the goals); the
    run is finishable only through a level whose goals can be met and an exit reached on such a level
    (not ``campaign_mode``: any way out of ``level``). Levels are entered on their starting tile."""
    crossings = wall_crossings(campaign)
    teleport, relocate = "teleport" in crossings, "adjacent" in crossings
    entries: dict[int, set[int]] = {level: {start}}
    reached: dict[int, LevelReach] = {}
    blocked: dict[int, tuple[str, str]] = {}
    todo = [level]
    while todo:
        li = todo.pop()
        r = level_reach(d, li, entries[li], teleport, relocate)
        reached[li] = r
        blocked.pop(li, None)  # (entered again on another tile, through a ladder cycle: read afresh)
        goal = unmet_goal(d, r)
        if goal is not None:
            blocked[li] = goal
            continue
        if not campaign_mode:
            if r.ways:
                return None
            continue
        for j in r.ways:
            if d.exit[j]:
                return None
            t = d.ladder_to[j]
            e = entries.setdefault(t, set())
            if d.level_start[t] not in e:
                e.add(d.level_start[t])
                todo.append(t)
    return _reason(campaign, d, level, reached, blocked, teleport, relocate, campaign_mode)


def _reason(campaign: Campaign, d, level: int, reached: dict, blocked: dict, teleport: bool, relocate: bool,
            campaign_mode: bool) -> tuple[str, int]:
    how = []
    if teleport:
        how.append("a potion of teleportation lands only on a revealed tile")
    if relocate:
        how.append("MOVE TO ANY ADJACENT TILE only onto a revealed one")
    moves = f" ({'; '.join(how)})" if how else ""
    if blocked:
        li = min(blocked)
        verb, card = blocked[li]
        cells = [j for v, c, cs in d.goal_cells[li] if (v, c) == (verb, card) for j in cs]
        passes = f"every way to it passes a way out, which ends the level, or a tile never revealed{moves}"
        if verb == "buy":
            where = f"no shop selling it lies on a tile the hero can stand on: {passes}"
        elif cells:
            x, y = d.pos_of[cells[0]]
            where = (f"the {campaign.cards[card].name} at {place_text(x, y)} is never reached nor fought from a tile the "
                     f"hero can stand on: {passes}")
        else:
            where = "no such card lies on the level"
        rest = "" if len(blocked) == 1 else f"; {len(blocked) - 1} more level(s) reached cannot be left either"
        return (f"no finish exists: the goal '{verb.capitalize()} {card}' on {campaign.level_name(li)} can never be met "
                f"({where}), so the level is never left{rest}"), li
    what = "an exit" if campaign_mode else "a way out"
    return (f"no finish exists: no tile the hero can ever stand on leads to {what} on the levels he can "
            f"reach{moves}"), level
