"""The campaign model: immutable values the loader builds and everything else reads.

Data flows one way (file -> loader -> model -> engine state -> screen). The
editor changes a campaign by building a new model through its commands; nothing
mutates these objects in place.

Coordinates: ``x`` is the column (0 at the left), ``y`` the row (0 at the top);
north is ``y - 1``.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields, make_dataclass
from enum import Enum
from functools import cached_property
from types import MappingProxyType
from typing import Callable, Mapping

from .abilities import Ability

FORMAT_VERSION = 1
# A draft's properties of an object that the format does not know (a misspelt key, "inscripton"): each key with
# its value's JSON text, kept to be saved back as written while its CR103 is listed (hashable, as the model is).
Unknown = tuple[tuple[str, str], ...]
POTION_COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")
# The potion table of "Potions > Properties of a potion", in die order 1..6.
POTION_EFFECTS = ("healing", "poison", "strength", "weakness", "teleportation", "paralysis")


class Direction(str, Enum):
    """A compass direction on a level's grid (y grows southward). The one encoding of a direction:
    its value is the letter of actions and files ("N"), ``index`` its place in :data:`DIRECTIONS`
    (the order of the engine's per-direction tables), ``word`` how a sentence names it."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    @property
    def delta(self) -> tuple[int, int]:
        return _DELTAS[self]

    @property
    def opposite(self) -> "Direction":
        return _OPPOSITE[self]

    @property
    def index(self) -> int:
        return DIRECTION_INDEX[self]

    @property
    def word(self) -> str:
        return _WORDS[self]

    def step(self, x: int, y: int) -> tuple[int, int]:
        dx, dy = _DELTAS[self]
        return x + dx, y + dy

    @classmethod
    def toward(cls, dx: int, dy: int) -> "Direction | None":
        """The direction of a one-step offset (None: not an orthogonal neighbour)."""
        return _BY_DELTA.get((dx, dy))


_DELTAS = {Direction.N: (0, -1), Direction.E: (1, 0), Direction.S: (0, 1), Direction.W: (-1, 0)}
_OPPOSITE = {Direction.N: Direction.S, Direction.S: Direction.N, Direction.E: Direction.W, Direction.W: Direction.E}
_WORDS = {Direction.N: "north", Direction.E: "east", Direction.S: "south", Direction.W: "west"}
_BY_DELTA = {delta: d for d, delta in _DELTAS.items()}
DIRECTIONS = (Direction.N, Direction.E, Direction.S, Direction.W)
# A direction's letter (or the Direction itself) -> its index in DIRECTIONS: the engine's hot paths read
# this dict rather than building a Direction.
DIRECTION_INDEX: dict[str, int] = {d.value: i for i, d in enumerate(DIRECTIONS)}


def row_major(cell: "Cell") -> tuple[int, int]:
    """The canonical order of a level's cells: row by row, west to east (a sort key). The content hash,
    the engine's cell indices and the editor's listings all use it, never the file's order."""
    return cell.y, cell.x


def row_major_pos(pos: tuple[int, int]) -> tuple[int, int]:
    """:func:`row_major` for an (x, y) place."""
    return pos[1], pos[0]


def canonical_paths(paths: str) -> str:
    """Paths as written in a file: a subset of ``NESW`` in that order."""
    return "".join(d for d in "NESW" if d in paths)


class CardKind(str, Enum):
    ENEMY = "enemy"
    BOSS = "boss"
    WEAPON = "weapon"
    ARMOUR = "armour"
    SCROLL = "scroll"
    POTION = "potion"
    ARTIFACT = "artifact"
    TRAP = "trap"
    TILE = "tile"
    ITEM = "item"
    CHARACTER = "character"


# Tiles with a rule of their own; every other tile is a plain pathing tile.
STARTING_TILE = "starting-tile"
DESCENDING_LADDER = "descending-ladder"
FOUNTAIN = "fountain-of-healing"
SHOP = "shop"
CHEST = "chest"
KEY = "key"
SHOPKEEPERS_DEBT = "shopkeepers-debt"


@dataclass(frozen=True, slots=True)
class CardDef:
    """One card of the catalog (or of a campaign): identity, numbers and abilities."""

    id: str
    name: str
    kind: CardKind
    text: str = ""
    attack: int | None = None
    health: int | None = None
    gold: int | None = None  # None: no gold amount printed
    sellable: bool = True  # False: the gold amount symbol is crossed out ("UNSELLABLE")
    tradable: bool = True
    throwable: bool = False
    cursed: bool = False
    slot: str | None = None  # head, chest, feet, primary, secondary, both-hands
    abilities: tuple[Ability, ...] = ()
    victory_points: int = 0
    colour: str | None = None  # potions
    max_health: int | None = None  # characters

    @property
    def is_enemy(self) -> bool:
        return self.kind in (CardKind.ENEMY, CardKind.BOSS)

    @property
    def is_item(self) -> bool:
        """Cards that go into the hero's hand."""
        return self.kind in (
            CardKind.WEAPON,
            CardKind.ARMOUR,
            CardKind.SCROLL,
            CardKind.POTION,
            CardKind.ARTIFACT,
            CardKind.ITEM,
        )


@dataclass(frozen=True, slots=True)
class Cell:
    """A place on a level's grid holding one card, with a fixed orientation and face."""

    x: int
    y: int
    card: str
    paths: str = ""
    face_up: bool | str = False  # a draft keeps a face the schema refuses ("upp") as written, to save it back
    id: str = ""  # the card instance id; its fated dice stream is keyed on it
    inscription: str = ""
    rolls: tuple[int, ...] = ()  # scripted d6 rolls, used before the fated stream
    to: str | None = None  # descending ladder: the level it leads to
    exit: bool = False  # leaving the dungeon here wins the campaign
    stock: tuple[str, ...] = ()  # shop: cards for sale
    contents: tuple[str, ...] = ()  # chest: cards taken when it is opened
    unknown: Unknown = ()  # a draft's properties the format does not know (a misspelt key), as written

    @property
    def pos(self) -> tuple[int, int]:
        return self.x, self.y

    def has_path(self, direction: Direction) -> bool:
        return direction.value in self.paths

    @property
    def face_text(self) -> str:
        """The face as the file writes it: "up", "down", or a draft's misspelt face as written."""
        return self.face_up if isinstance(self.face_up, str) else "up" if self.face_up else "down"


# The loader's hot path builds a big level's cells as instances of a twin class with Cell's slots, not
# frozen, whose __init__ stores each field directly (a frozen dataclass's __init__ goes through
# object.__setattr__, about twice as slow), then makes each a Cell by assigning __class__ (allowed
# between classes with the same slots). The twin is made from Cell's fields, and tests hold
# plain_cell(...) == Cell(...), with the same repr, hash and frozenness.
_PlainCell = make_dataclass("_PlainCell", [(f.name, f.type, field(default=f.default)) if f.default is not MISSING
                                           else (f.name, f.type) for f in fields(Cell)],
                            slots=True, eq=False, repr=False, match_args=False)
assert _PlainCell.__slots__ == Cell.__slots__


def plain_cell(x: int, y: int, card: str, paths: str, face_up: bool, id: str) -> Cell:
    """``Cell(x, y, card, paths, face_up, id)``: a cell with no field of its own card (no
    inscription, rolls, ladder, exit, stock or contents), built faster."""
    cell = _PlainCell(x, y, card, paths, face_up, id)
    cell.__class__ = Cell
    return cell


@dataclass(frozen=True, slots=True)
class Goal:
    """A level goal: ``slay`` a named card, ``open`` the chest, ``buy`` the debt. A draft keeps a verb
    that is none of these (``"slayy"``) as written, to save it back while its schema error is listed."""

    verb: str
    card: str

    def text(self, name: str | None = None) -> str:
        """``Buy shopkeepers-debt``: the card by its id, as a file and a check name it; a player is shown
        the card's ``name`` instead (``Buy Shopkeeper's Debt``), as the board and the shop name it."""
        verb = {"slay": "Slay", "open": "Open", "buy": "Buy"}.get(self.verb, repr(self.verb))
        return f"{verb} {name or self.card}"


@dataclass(frozen=True)
class Level:
    id: str
    title: str
    story: str
    width: int
    height: int
    cells: tuple[Cell, ...]
    goals: tuple[Goal, ...] = ()
    hero: "LevelHero | None" = None  # practice: the hero of a run that starts on this level
    unknown: Unknown = ()  # a draft's misspelt keys, as written (see Unknown)
    by_pos: Mapping[tuple[int, int], Cell] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.by_pos:
            object.__setattr__(self, "by_pos", MappingProxyType({(c.x, c.y): c for c in self.cells}))

    def index_of(self, cell: Cell) -> int:
        """The cell's index in the level's ``cells`` list (its JSON path)."""
        return self.cells.index(cell)

    def cell_at(self, x: int, y: int) -> Cell | None:
        return self.by_pos.get((x, y))

    @property
    def start(self) -> Cell | None:
        return next((c for c in self.cells if c.card == STARTING_TILE), None)

    @property
    def ladders(self) -> tuple[Cell, ...]:
        return tuple(c for c in self.cells if c.card == DESCENDING_LADDER)

    @property
    def exits(self) -> tuple[Cell, ...]:
        return tuple(c for c in self.cells if c.exit)

    def neighbour(self, cell: Cell, direction: Direction) -> Cell | None:
        """The ADJACENT TILE through ``direction``: both edges must carry a path ("Walls and paths")."""
        if not cell.has_path(direction):
            return None
        other = self.by_pos.get(direction.step(cell.x, cell.y))
        if other is None or not other.has_path(direction.opposite):
            return None
        return other


def level_name(level: Level, index: int) -> str:
    """A level as its author knows it, for a message: its number in the level list (``index`` from 0), its
    title and its id (what a ladder's ``to`` names), ``level 2 "The Crypt" (crypt)``; untitled, ``level 2 (crypt)``."""
    title = f' "{level.title}"' if level.title else ""
    return f"level {index + 1}{title} ({level.id})"


@dataclass(frozen=True, slots=True)
class Hero:
    character: str
    items: tuple[str, ...] = ()
    equipped: tuple[str, ...] = ()
    unknown: Unknown = ()  # a draft's misspelt keys, as written (see Unknown)


@dataclass(frozen=True, slots=True)
class LevelHero:
    """A level's ``hero``: how a run that starts on the level finds the hero (practice scenarios, tests).

    Each field set replaces the campaign's (``None``: keep it): health (default max health), the
    cards in hand, the cards equipped, and the tile he stands on (default the starting tile).
    A hero who arrives by a descending ladder keeps his own state.
    """

    health: int | None = None
    items: tuple[str, ...] | None = None
    equipped: tuple[str, ...] | None = None
    at: tuple[int, int] | None = None
    unknown: Unknown = ()  # a draft's misspelt keys, as written (see Unknown)


@dataclass(frozen=True, slots=True)
class Par:
    turns: int
    health: int | None = None
    unknown: Unknown = ()  # a draft's misspelt keys, as written (see Unknown)


@dataclass(frozen=True)
class Campaign:
    id: str
    title: str
    rules: str
    seed: int
    hero: Hero
    levels: tuple[Level, ...]
    cards: Mapping[str, CardDef]
    author: str = ""
    description: str = ""
    story: str = ""
    kind: str = "campaign"  # or "challenge"
    format: int = FORMAT_VERSION
    potions: Mapping[str, str] = field(default_factory=dict)  # colour -> effect, when the author sets them
    allow_ladder_cycles: bool = False
    par: Par | None = None
    # The campaign's own card entries as written (overrides and new cards), for saving.
    card_entries: Mapping[str, Mapping] = field(default_factory=dict)
    # How the format layer hashes a campaign's canonical content (format/canonical.py): the loader
    # hands it over, so the model imports nothing from the format. A copy (dataclasses.replace)
    # keeps it and hashes its own content.
    hasher: Callable[[Campaign], str] | None = field(default=None, repr=False, compare=False)
    unknown: Unknown = ()  # a draft's misspelt keys at the top of the file, as written (see Unknown)

    @cached_property
    def content_hash(self) -> str:
        """SHA-256 of the canonical content (see :mod:`..format.canonical`); computed on first use."""
        if self.hasher is None:
            raise ValueError(f"campaign {self.id!r} was not built by the loader: it has no content hash")
        return self.hasher(self)

    def level(self, level_id: str) -> Level | None:
        return next((lv for lv in self.levels if lv.id == level_id), None)

    def starting_kit(self, level: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The cards in hand and equipped of a hero whose run starts on ``level``: the level's practice
        ``hero`` replaces the campaign hero's where it sets them."""
        items, equipped = self.hero.items, self.hero.equipped
        override = self.levels[level].hero
        if override is not None:
            items = items if override.items is None else override.items
            equipped = equipped if override.equipped is None else override.equipped
        return items, equipped

    def level_index(self, level_id: str) -> int | None:
        return next((i for i, lv in enumerate(self.levels) if lv.id == level_id), None)

    def level_name(self, index: int) -> str:
        """Level ``index`` as its author knows it (:func:`level_name`)."""
        return level_name(self.levels[index], index)

    def card(self, card_id: str) -> CardDef:
        return self.cards[card_id]
