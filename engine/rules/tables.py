"""The static side of a run: a campaign's levels compiled into flat tables.

Everything that never changes during play lives here, built once per campaign
and shared by every :class:`~.state.GameState`: the cells of all levels under one
global index, their cards, what each card does when the hero meets it, the
ADJACENT TILE graph ("Walls and paths"), the potion identities and a cache of
the hero's :class:`~.hero.Stats` by equipment.
"""

from __future__ import annotations

from ..model.campaign import (
    CHEST,
    DESCENDING_LADDER,
    DIRECTIONS,
    FOUNTAIN,
    SHOP,
    Campaign,
    CardDef,
    CardKind,
    row_major,
)
from ..model.potions import potion_identities
from ..model.versions import RULES
from .hero import Stats

# What a cell's card does when the hero meets it (face up).
PLAIN, ENEMY, TRAP, ARTIFACT, PICKUP, SHOP_TILE, FOUNTAIN_TILE, CHEST_TILE, LADDER = range(9)

# Cell face codes in GameState.faces.
DOWN, UP, CLEARED = 0, 1, 2  # CLEARED: the card is gone, a pathing tile with the same paths remains

SLOTS = ("head", "chest", "feet", "primary", "secondary")
SLOT_INDEX = {s: i for i, s in enumerate(SLOTS)}
PRIMARY, SECONDARY = 3, 4


def kind_of(card: CardDef) -> int:
    """The card's tile code (PLAIN ... LADDER); the view names it as a :class:`~.view.Tile`."""
    if card.is_enemy:
        return ENEMY
    if card.kind is CardKind.TRAP:
        return TRAP
    if card.kind is CardKind.ARTIFACT:
        return ARTIFACT
    if card.is_item:
        return PICKUP
    return {SHOP: SHOP_TILE, FOUNTAIN: FOUNTAIN_TILE, CHEST: CHEST_TILE, DESCENDING_LADDER: LADDER}.get(card.id, PLAIN)


class Dungeon:
    """A campaign compiled for the engine (read-only once built)."""

    def __init__(self, campaign: Campaign) -> None:
        self.campaign = campaign
        self.rules = RULES[campaign.rules]  # what this rules version changes (engine/model/versions.py)
        self.cards = campaign.cards
        self.character = campaign.cards[campaign.hero.character]
        self.base_max_health = self.character.max_health or 10
        self.potions = potion_identities(campaign.seed, campaign.potions)
        cells, level_of, starts, ranges = [], [], [], []
        for li, level in enumerate(campaign.levels):
            lo = len(cells)
            # Row-major, not the file's order: the content hash ignores cell order,
            # so the state (and a replay's checkpoints) must not depend on it either.
            ordered = sorted(level.cells, key=row_major)
            cells.extend(ordered)
            level_of.extend([li] * len(ordered))
            ranges.append((lo, len(cells)))
            starts.append(next((lo + i for i, c in enumerate(ordered) if c is level.start), -1))
        self.cells = tuple(cells)
        self.level_of = tuple(level_of)
        self.level_range = tuple(ranges)
        self.level_start = tuple(starts)
        self.goals = tuple(tuple((g.verb, g.card) for g in level.goals) for level in campaign.levels)
        self.card = tuple(campaign.cards[c.card] for c in cells)
        # Per level, each goal with the cells whose card it names (a slay or open goal is met on one of them).
        self.goal_cells = tuple(
            tuple((verb, card, tuple(i for i in range(lo, hi) if self.card[i].id == card)) for verb, card in goals)
            for goals, (lo, hi) in zip(self.goals, ranges))
        self.kind = tuple(kind_of(card) for card in self.card)
        self.instance = tuple(c.id for c in cells)
        self.exit = tuple(c.exit for c in cells)
        self.ladder_to = tuple(campaign.level_index(c.to) if c.to else -1 for c in cells)
        self.initial_faces = bytes(1 if c.face_up else 0 for c in cells)
        self.pos_of = tuple((c.x, c.y) for c in cells)
        index = {(level_of[i], c.x, c.y): i for i, c in enumerate(cells)}
        self.index = index
        adjacent, flip_to, grid_to = [], [], []
        for i, c in enumerate(cells):
            li = level_of[i]
            adj, flip, grid = [-1] * 4, [-1] * 4, [-1] * 4
            for d, direction in enumerate(DIRECTIONS):
                j = index.get((li, *direction.step(c.x, c.y)), -1)
                grid[d] = j
                if j >= 0 and c.has_path(direction):
                    flip[d] = j
                    if cells[j].has_path(direction.opposite):
                        adj[d] = j
            adjacent.append(tuple(adj))
            flip_to.append(tuple(flip))
            grid_to.append(tuple(grid))
        self.adjacent = tuple(adjacent)  # ADJACENT TILE through each direction, or -1
        self.flip_to = tuple(flip_to)  # the card at the end of each of the tile's paths, or -1
        self.grid_to = tuple(grid_to)  # the orthogonal neighbour, whatever the paths (MOVE TO ANY ADJACENT TILE)
        self.flips = tuple(tuple((d, j) for d, j in enumerate(flip) if j >= 0) for flip in flip_to)  # (direction, card)
        self.neighbours = tuple(tuple((d, j) for d, j in enumerate(adj) if j >= 0) for adj in adjacent)
        self.near = tuple(tuple(j for _, j in row) for row in self.neighbours)  # the ADJACENT TILEs alone
        # The ADJACENT TILEs whose card is an enemy: the only ones an enemy can face up on.
        self.enemy_near = tuple(tuple(j for j in row if self.kind[j] == ENEMY) for row in self.near)
        abilities = [{a.kind for a in card.abilities} for card in self.card]
        self.chases = tuple("does-not-chase" not in kinds for kinds in abilities)  # per enemy cell
        self.one_turn_kill = tuple("must-kill-in-one-turn" in kinds for kinds in abilities)
        self._stats: dict[tuple, Stats] = {}
        self._stats_by_hand: dict[tuple, Stats] = {}
        self.equip_cache: dict[tuple, tuple | None] = {}  # (equipment, card) -> ItemRules._equipped_with

    def stats_for(self, equipment: tuple[str, ...], hand: tuple[str, ...]) -> Stats:
        """:meth:`stats` for this equipment and the artifacts in this hand (cached by the whole hand)."""
        key = (equipment, hand)
        stats = self._stats_by_hand.get(key)
        if stats is None:
            artifacts = tuple(c for c in hand if self.cards[c].kind is CardKind.ARTIFACT)
            stats = self._stats_by_hand[key] = self.stats(equipment, artifacts)
        return stats

    def stats(self, equipment: tuple[str, ...], artifacts: tuple[str, ...]) -> Stats:
        """The hero's Stats for this equipment and these artifacts in hand (cached)."""
        key = (equipment, artifacts)
        stats = self._stats.get(key)
        if stats is None:
            cards = [self.character]
            cards.extend(self.cards[c] for c in equipment if c)
            cards.extend(self.cards[c] for c in artifacts)
            stats = self._stats[key] = Stats(cards)
        return stats
