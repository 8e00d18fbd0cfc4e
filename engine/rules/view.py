"""A read-only, typed view of a game state: what the screens, the tools and the tests read.

``StateView(state)`` (or ``state.view()``) answers in the rulebook's terms: the hero,
the enemies with their health, poison and paralysis, the cells of the level as the
player sees them (a face-down card shows only its back), the potions identified,
the shop's stock and the legal actions; and, for who knows the map (the Monte Carlo policy),
:func:`tile_of` a card. Values are immutable (frozen dataclasses,
tuples, read-only mappings); the view changes nothing, so it may be built as often
as a screen refreshes. The state's inner tables (``state.d``, the ``foes`` tuples,
the ``identified`` bit mask) are the engine's own business and may change shape.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import TYPE_CHECKING, Iterator, Mapping

from ..model.campaign import DIRECTIONS, POTION_COLOURS, CardDef, Direction, Level
from .actions import Action
from .phases import CHOOSE_TELEPORT, COMBAT, DEAD, SHOPPING, WON
from .tables import (
    ARTIFACT,
    CHEST_TILE,
    CLEARED,
    DOWN,
    ENEMY,
    FOUNTAIN_TILE,
    LADDER,
    PICKUP,
    PLAIN,
    SHOP_TILE,
    SLOTS,
    TRAP,
    kind_of,
)

if TYPE_CHECKING:
    from .events import Event
    from .state import GameState


class Face(str, Enum):
    """How a cell's card lies: face down (unexplored), face up, or cleared (a pathing tile remains)."""

    DOWN = "down"
    UP = "up"
    CLEARED = "cleared"


_FACES = (Face.DOWN, Face.UP, Face.CLEARED)  # indexed by the engine's face codes


class Tile(str, Enum):
    """What a revealed cell does when the hero meets it (a cleared cell is a plain pathing tile)."""

    PLAIN = "pathing tile"
    ENEMY = "enemy"
    TRAP = "trap"
    ARTIFACT = "artifact"
    ITEM = "item"  # a potion, weapon, armour, scroll or item picked up when moved onto
    SHOP = "shop"
    FOUNTAIN = "fountain"
    CHEST = "chest"
    LADDER = "ladder"


_TILES = {PLAIN: Tile.PLAIN, ENEMY: Tile.ENEMY, TRAP: Tile.TRAP, ARTIFACT: Tile.ARTIFACT, PICKUP: Tile.ITEM,
          SHOP_TILE: Tile.SHOP, FOUNTAIN_TILE: Tile.FOUNTAIN, CHEST_TILE: Tile.CHEST, LADDER: Tile.LADDER}


def tile_of(card: CardDef) -> Tile:
    """What a card does when the hero meets it face up: the tile a revealed cell holding it shows.

    For those who know the map, face-down cards included (the Monte Carlo policy, an author's tools).
    """
    return _TILES[kind_of(card)]


@dataclass(frozen=True, slots=True)
class Foe:
    """An enemy in play: its card and its condition now."""

    card: CardDef
    at: tuple[int, int]
    health: int
    poison: int  # turns of poison left (POISON on an enemy)
    paralysed: int  # turns it neither attacks nor applies abilities
    attack: int  # the card's attack plus potions of strength or weakness thrown on it
    direction: Direction | None = None  # where it stands from the hero, on an ADJACENT TILE
    # set beside the hero by a thrown potion of teleportation this combat turn: out of the fight until his next turn
    waiting: bool = False

    @property
    def name(self) -> str:
        return self.card.name

    @property
    def max_health(self) -> int:
        return self.card.health or 0

    @property
    def wounded(self) -> bool:
        return self.health < self.max_health

    @property
    def attack_modifier(self) -> int:
        """What potions of strength and weakness thrown on it add to its card's attack."""
        return self.attack - (self.card.attack or 0)


@dataclass(frozen=True, slots=True)
class Offer:
    """One card of a shop's stock."""

    card: CardDef
    price: int
    sold: bool  # bought already in this run: no longer for sale
    affordable: bool


@dataclass(frozen=True, slots=True)
class CellView:
    """A cell of the level as the player sees it. Face down, only its back shows: no card, no tile."""

    x: int
    y: int
    face: Face
    card: CardDef | None  # None while face down; the pathing tile's card once cleared is still the original
    tile: Tile | None  # None while face down
    paths: str  # the card's paths (a subset of NESW); "" while face down
    exit: bool  # leaving the dungeon here wins (known once revealed)
    enemy: Foe | None  # the enemy standing here (its own card, or one a potion teleported)
    inscription: str  # "" while face down
    hero: bool  # the hero stands here

    @property
    def at(self) -> tuple[int, int]:
        return self.x, self.y

    @property
    def name(self) -> str:
        """The card's name as the log gives it; a cleared cell is a Pathing Tile; "" face down."""
        if self.face is Face.DOWN:
            return ""
        return "Pathing Tile" if self.face is Face.CLEARED else self.card.name


@dataclass(frozen=True, slots=True)
class HeroView:
    """The hero: health, attack, gold, the hand and the equipment card, effects lasting over turns."""

    character: CardDef
    at: tuple[int, int]
    health: int
    max_health: int
    attack_modifier: int  # added to the attack roll: equipment, artifacts and potions drunk
    potion_modifier: int  # the part of it from potions of strength and weakness
    gold: int
    hand: tuple[str, ...]  # card ids, sorted
    equipment: tuple[tuple[str, str], ...]  # (slot, card id or "") for head, chest, feet, primary, secondary
    poison: int  # turns of poison left
    antidote: int  # POISON INSTEAD HEALS +X while the poison lasts (0: none)
    paralysed: int  # turns to skip
    spell_cooldown: int  # the mage's SPELL: its COOLDOWN (0: no spell)
    spell_wait: int  # turns before the spell is ready again
    damage_taken: int  # -X DAMAGE TAKEN

    @property
    def name(self) -> str:
        return self.character.name

    def equipped(self, slot: str) -> str:
        return dict(self.equipment)[slot]


class StateView:
    """See the module docstring. Cheap to build; each property reads the state when asked."""

    __slots__ = ("_s",)

    def __init__(self, state: GameState) -> None:
        self._s = state

    # ------------------------------------------------------------------ the run

    @property
    def campaign(self):
        return self._s.d.campaign

    @property
    def level_index(self) -> int:
        return self._s.level

    @property
    def level(self) -> Level:
        return self._s.d.campaign.levels[self._s.level]

    @property
    def turn(self) -> int:
        return self._s.turn

    @property
    def outcome(self) -> str | None:
        """None while the run goes on, "won" or "dead" once it is over."""
        return self._s.outcome

    @property
    def over(self) -> bool:
        return self._s.outcome is not None

    @property
    def won(self) -> bool:
        return self._s.outcome == WON

    @property
    def dead(self) -> bool:
        return self._s.outcome == DEAD

    @property
    def in_combat(self) -> bool:
        return self._s.phase == COMBAT

    @property
    def no_flee(self) -> str:
        """In combat, why the hero cannot flee now (the rule, e.g. "CANNOT FLEE"); "" when a flee is possible."""
        return self._s.no_flee() if self._s.phase == COMBAT else ""

    @property
    def shopping_first(self) -> bool:
        """Step 2 ended on a shop next to an enemy: the hero may buy and sell, then combat begins with
        his first attack, flee or throw ("If he moves onto a SHOP, he may BUY and SELL")."""
        return self._s.phase == SHOPPING

    @property
    def choosing_teleport(self) -> bool:
        """A potion of teleportation waits for the pathing tile its target goes to."""
        return self._s.phase == CHOOSE_TELEPORT

    @property
    def moved(self) -> bool:
        """The hero has moved this turn."""
        return self._s.moved

    def legal_actions(self) -> list[Action]:
        return self._s.legal_actions()

    def goals_met(self) -> bool:
        return self._s.goals_met()

    @property
    def log(self) -> tuple[Event, ...]:
        """Every event of the run so far, oldest first (empty when the state keeps no log)."""
        return tuple(self._s.log or ())

    # ------------------------------------------------------------------ the hero

    @property
    def hero(self) -> HeroView:
        s = self._s
        st = s.stats
        return HeroView(
            character=s.d.character, at=s.d.pos_of[s.pos], health=s.health, max_health=s.max_health,
            attack_modifier=st.attack_roll + s.atk_bonus, potion_modifier=s.atk_bonus, gold=s.gold,
            hand=s.hand, equipment=tuple(zip(SLOTS, s.equip)), poison=s.poison, antidote=s.antidote,
            paralysed=s.paralysed, spell_cooldown=st.spell_cooldown, spell_wait=s.cooldown,
            damage_taken=st.damage_taken,
        )

    # The hero's position, health and hand alone, for a caller that asks every action (the Monte Carlo
    # policy): ``hero`` builds the whole HeroView, which costs several times a legal-action list.

    @property
    def position(self) -> tuple[int, int]:
        return self._s.d.pos_of[self._s.pos]

    @property
    def health(self) -> int:
        return self._s.health

    @property
    def max_health(self) -> int:
        return self._s.max_health

    @property
    def hand(self) -> tuple[str, ...]:
        """The card ids in the hero's hand, sorted."""
        return self._s.hand

    def price(self, card_id: str) -> int:
        """What buying the card costs the hero now (BUY: twice its gold, less his discount)."""
        return self._s.price(card_id)

    def card(self, card_id: str) -> CardDef:
        return self._s.d.cards[card_id]

    # ------------------------------------------------------------------ potions

    @property
    def known_potions(self) -> Mapping[str, str]:
        """Potion colour -> its effect, for every colour identified in this run (drunk, thrown or read)."""
        s = self._s
        return MappingProxyType({c: s.d.potions[c] for i, c in enumerate(POTION_COLOURS) if s.identified >> i & 1})

    def potion(self, colour: str) -> str | None:
        """The effect of potions of that colour, if identified (None: unknown)."""
        s = self._s
        if colour in POTION_COLOURS and s.identified >> POTION_COLOURS.index(colour) & 1:
            return s.d.potions[colour]
        return None

    # ------------------------------------------------------------------ enemies

    def _foe(self, e: int, at: int, direction: Direction | None) -> Foe:
        s = self._s
        health, poison, paralysed, attack = s._foe(e)
        card = s.d.card[e]
        return Foe(card, s.d.pos_of[at], health, poison, paralysed, (card.attack or 0) + attack, direction,
                   e in s.waiting)

    @property
    def foes(self) -> tuple[Foe, ...]:
        """The enemies the hero fights, in N, E, S, W order: every enemy on an ADJACENT TILE but one a thrown potion
        of teleportation set there this combat turn, which waits for his next turn (:attr:`waiting_foes`)."""
        s = self._s
        adjacent = s.d.adjacent[s.pos]
        return tuple(self._foe(e, adjacent[dr], DIRECTIONS[dr]) for dr, e in s.engaged_enemies())

    @property
    def waiting_foes(self) -> tuple[Foe, ...]:
        """The enemies on an ADJACENT TILE that wait (TELEPORTING OR MOVING TO A TILE, BUT TURN IS ENDED: "If an
        enemy is teleported adjacent to a player, the same rules apply"): they join the fight at his next turn."""
        s = self._s
        if not s.waiting:
            return ()
        adjacent = s.d.adjacent[s.pos]
        return tuple(self._foe(e, adjacent[dr], DIRECTIONS[dr]) for dr, e in s.adjacent_enemies() if e in s.waiting)

    @property
    def revealed_foes(self) -> tuple[Foe, ...]:
        """Every revealed enemy on the hero's level, in cell order; ``direction`` set for those on an ADJACENT TILE."""
        s = self._s
        adjacent = s.d.adjacent[s.pos]
        return tuple(self._foe(e, i, DIRECTIONS[adjacent.index(i)] if i in adjacent else None)
                     for i, e in s.revealed_enemies())

    def foe_at(self, x: int, y: int) -> Foe | None:
        """The enemy standing at x,y on this level (None: no enemy there, or the card is face down)."""
        s = self._s
        i = s.d.index.get((s.level, x, y))
        if i is None:
            return None
        e = s.enemy_at(i)
        if e < 0:
            return None
        hx, hy = s.d.pos_of[s.pos]
        direction = Direction.toward(x - hx, y - hy)
        if direction is not None and s.d.adjacent[s.pos][direction.index] != i:
            direction = None
        return self._foe(e, i, direction)

    # ------------------------------------------------------------------ cells

    def face(self, x: int, y: int) -> Face | None:
        """How the card at x,y on this level lies (None: no card there). Cheap: no cell is built."""
        s = self._s
        i = s.d.index.get((s.level, x, y))
        return None if i is None else _FACES[s.faces[i]]

    def cell(self, x: int, y: int) -> CellView | None:
        """The cell at x,y on this level as the player sees it (None: no card there)."""
        s = self._s
        i = s.d.index.get((s.level, x, y))
        return None if i is None else self._cell(i)

    def _cell(self, i: int) -> CellView:
        s = self._s
        d = s.d
        x, y = d.pos_of[i]
        code = s.faces[i]
        hero = i == s.pos
        if code == DOWN:
            return CellView(x, y, Face.DOWN, None, None, "", False, None, "", hero)
        e = s.enemy_at(i)
        enemy = None
        if e >= 0:
            hx, hy = d.pos_of[s.pos]
            direction = Direction.toward(x - hx, y - hy)
            if direction is not None and d.adjacent[s.pos][direction.index] != i:
                direction = None
            enemy = self._foe(e, i, direction)
        tile = Tile.PLAIN if code == CLEARED else _TILES[d.kind[i]]
        cell = d.cells[i]
        return CellView(x, y, _FACES[code], d.card[i], tile, cell.paths, cell.exit, enemy, cell.inscription, hero)

    def cells(self) -> Iterator[CellView]:
        """Every cell of the level, face-down ones included (as backs), in row-major order."""
        lo, hi = self._s.d.level_range[self._s.level]
        return (self._cell(i) for i in range(lo, hi))

    def visible_cells(self) -> Iterator[CellView]:
        """The level's revealed cells (face up or cleared), in row-major order."""
        s = self._s
        lo, hi = s.d.level_range[s.level]
        return (self._cell(i) for i in range(lo, hi) if s.faces[i] != DOWN)

    def dice_drawn(self, x: int, y: int) -> int:
        """How many dice the stream of the card that started at x,y on this level has produced in this run."""
        s = self._s
        i = s.d.index.get((s.level, x, y))
        return 0 if i is None else s.rolls_drawn(i)

    @property
    def here(self) -> CellView:
        """The cell the hero stands on."""
        return self._cell(self._s.pos)

    def neighbour(self, direction: Direction | str) -> CellView | None:
        """The card at the end of the path from the hero's tile toward ``direction`` (None: no path or no card).

        Face down, it is a card he could flip; face up, an ADJACENT TILE only if its own path leads back.
        """
        s = self._s
        j = s.d.flip_to[s.pos][Direction(direction).index]
        return None if j < 0 else self._cell(j)

    def next_to(self, direction: Direction | str) -> CellView | None:
        """The cell on the grid next to the hero toward ``direction``, whatever the paths (None: no card)."""
        s = self._s
        j = s.d.grid_to[s.pos][Direction(direction).index]
        return None if j < 0 else self._cell(j)

    # ------------------------------------------------------------------ the shop

    @property
    def shop(self) -> tuple[Offer, ...]:
        """The stock of the shop the hero stands on, in the shop's order ((): not on a face-up shop)."""
        s = self._s
        i = s.pos
        if s.faces[i] == CLEARED or s.faces[i] == DOWN or s.d.kind[i] != SHOP_TILE:
            return ()
        out = []
        for k, card_id in enumerate(s.d.cells[i].stock):
            price = s.price(card_id)
            out.append(Offer(s.d.cards[card_id], price, (i, k) in s.bought, price <= s.gold))
        return tuple(out)

