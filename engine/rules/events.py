"""What happened in a run, as typed events: the game's log.

Each event is a small immutable value with the facts a program reads (who rolled
what, who lost how much health, which rule applied) and one text form, ``str(event)``,
the sentence the player reads in the log. Screens colour and filter by event type,
never by matching words in the sentence.

The kinds, by rulebook concept:

* the turn: :class:`TurnBegan`, :class:`TurnEnded`, :class:`TurnSkipped`, :class:`LevelEntered`,
  :class:`PracticeStart`;
* exploring: :class:`Flipped`, :class:`Moved`, :class:`Arrived`, :class:`Relocated`;
* dice: :class:`Roll` (a die from a card's stream and what it did);
* combat: :class:`CombatBegan`, :class:`Attacked`, :class:`AttackTotal`, :class:`FleeTried`,
  :class:`Fled`, :class:`Slain`;
* health: :class:`Damage`, :class:`Heal`, :class:`Poisoned`, :class:`Paralysed`, :class:`Died`,
  :class:`Victory`;
* the hand: :class:`PickedUp`, :class:`Equipped`, :class:`Traded`, :class:`PotionUsed`,
  :class:`PotionIdentified`, :class:`ScrollRead`, :class:`Teleported`;
* :class:`RuleApplied`: any other rule, named as the rulebook names it, with its sentence;
* :class:`LevelRestarted`: the player went back to the turn the level began.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..words import counted, place_text


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of the log. ``str(event)`` is its sentence."""

    @property
    def text(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.text


def _place(name: str, at: tuple[int, int]) -> str:
    return f"{name} at {place_text(*at)}"


# --------------------------------------------------------------------------- the turn


@dataclass(frozen=True, slots=True)
class TurnBegan(Event):
    turn: int
    hero: str = ""  # the first turn names the hero and the level entered
    level: str = ""

    @property
    def text(self) -> str:
        if self.hero:
            return f"Turn {self.turn}. {self.hero} enters {self.level}."
        return f"Turn {self.turn}."


@dataclass(frozen=True, slots=True)
class PracticeStart(Event):
    """The run starts on a level with a practice ``hero``: his health and the tile he stands on."""

    health: int
    max_health: int
    at: tuple[int, int]

    @property
    def text(self) -> str:
        return f"Practice start (the level's hero): health {self.health}/{self.max_health}, at {place_text(*self.at)}."


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    turn: int

    @property
    def text(self) -> str:
        return f"Ends turn {self.turn}."


@dataclass(frozen=True, slots=True)
class TurnSkipped(Event):
    """PARALYSIS: the turn is skipped (it still counts)."""

    turn: int

    @property
    def text(self) -> str:
        return f"Paralysed: turn {self.turn} is skipped."


@dataclass(frozen=True, slots=True)
class LevelEntered(Event):
    """A descending ladder taken at the end of the last turn: the hero starts the next level."""

    level: str

    @property
    def text(self) -> str:
        return f"The hero climbs down to {self.level}."


@dataclass(frozen=True, slots=True)
class LevelRestarted(Event):
    turn: int

    @property
    def text(self) -> str:
        return f"Level restarted: back to turn {self.turn}."


# --------------------------------------------------------------------------- exploring


@dataclass(frozen=True, slots=True)
class Flipped(Event):
    """Standard turn sequence, step 1: a face-down card turned over."""

    direction: str
    card: str  # the name of what now lies there
    at: tuple[int, int]

    @property
    def text(self) -> str:
        return f"Flips {self.direction}: {_place(self.card, self.at)}."


@dataclass(frozen=True, slots=True)
class Moved(Event):
    """Step 2: onto an ADJACENT TILE."""

    direction: str
    tile: str
    at: tuple[int, int]

    @property
    def text(self) -> str:
        return f"Moves {self.direction} to {_place(self.tile, self.at)}."


@dataclass(frozen=True, slots=True)
class Arrived(Event):
    """A tile reached at the end of the last turn (teleportation, MOVE TO ANY ADJACENT TILE) acts now."""

    tile: str
    at: tuple[int, int]

    @property
    def text(self) -> str:
        return f"Arrives on {_place(self.tile, self.at)}."


@dataclass(frozen=True, slots=True)
class Relocated(Event):
    """Teleportation, the mage's spell or a scroll moves the hero; the turn ends."""

    cause: str
    tile: str
    at: tuple[int, int]

    @property
    def text(self) -> str:
        return f"{self.cause}: moves to {_place(self.tile, self.at)}; the turn ends."


# --------------------------------------------------------------------------- dice


@dataclass(frozen=True, slots=True)
class Roll(Event):
    """A d6 from the stream of ``source`` (a card's name), rolled for ``purpose``, and what it did."""

    source: str
    value: int
    purpose: str  # "attack roll", "dodge", "ability", "flee", "trap", "fountain"
    effect: str = ""  # "" for a plain attack roll, counted in the attack total

    @property
    def text(self) -> str:
        if not self.effect:
            return f"{self.source}'s stream rolls {self.value} for the {self.purpose}."
        return f"{self.source}'s stream rolls {self.value}: {self.effect}."


# --------------------------------------------------------------------------- combat


@dataclass(frozen=True, slots=True)
class CombatBegan(Event):
    """Combat begins (or will): ``when`` is "turn" (the turn began next to an enemy), "step" (a move,
    flip or flee brought one), "shop" (moved onto a shop: buy and sell first) or "shop-left" (a
    combat action after the shop). ``no_flee`` says why no flee is possible (the rule, e.g. the
    Warrior's "CANNOT FLEE", or no free tile), so the sentence offers only what the hero can do."""

    when: str
    no_flee: str = ""  # why the hero cannot flee now ("CANNOT FLEE", ...); empty when a flee is possible

    @property
    def text(self) -> str:
        if self.no_flee and self.when == "turn":
            return f"In combat: attack; no flee ({self.no_flee})."
        if self.no_flee and self.when == "shop":
            return ("An enemy is on an adjacent tile: buy and sell first; combat begins with an attack or a throw "
                    f"(no flee: {self.no_flee}).")
        return _COMBAT_BEGAN[self.when]


_COMBAT_BEGAN = {
    "turn": "In combat: attack or flee.",
    "step": "An enemy is on an adjacent tile: combat begins.",
    "shop": "An enemy is on an adjacent tile: buy and sell first; combat begins with an attack, a flee or a throw.",
    "shop-left": "Leaves the shopkeeper: combat begins.",
}


@dataclass(frozen=True, slots=True)
class Attacked(Event):
    enemy: str

    @property
    def text(self) -> str:
        return f"Attacks {self.enemy}."


@dataclass(frozen=True, slots=True)
class AttackTotal(Event):
    """ATTACK ROLL: the damage from the rolls' total and the attack modifier, with the MIN. ATTACK and
    DOUBLE DAMAGE that shaped it (the minimum is also a floor of the final damage)."""

    damage: int
    total: int
    modifier: int
    minimum: int = 0  # MIN. ATTACK X (0: none)
    double: bool = False  # DOUBLE DAMAGE

    @property
    def text(self) -> str:
        how = f"rolls totalling {self.total}"
        if self.minimum and self.total < self.minimum:
            how += f", raised to {self.minimum} (MIN. ATTACK)"
        if self.double:
            how += ", doubled (DOUBLE DAMAGE)"
        floor = " and no less than MIN. ATTACK" if self.minimum and self.damage == self.minimum and self.modifier < 0 else ""
        return f"Attack: {self.damage} from {how} (modifier {self.modifier:+d}{floor})."


@dataclass(frozen=True, slots=True)
class FleeTried(Event):
    """FLEE: with several enemies adjacent, the roll is against the one picked (``against``)."""

    direction: str
    against: str = ""

    @property
    def text(self) -> str:
        if self.against:
            return f"Tries to flee {self.direction}, rolling against {self.against}."
        return f"Tries to flee {self.direction}."


@dataclass(frozen=True, slots=True)
class Fled(Event):
    tile: str
    at: tuple[int, int]

    @property
    def text(self) -> str:
        return f"Flees to {_place(self.tile, self.at)}."


@dataclass(frozen=True, slots=True)
class Slain(Event):
    """SLAYING AN ENEMY: loot (gold) or, for a boss, a trophy; two basilisks in one hand are discarded."""

    enemy: str
    loot: int = 0
    gold: int = 0  # the hero's gold after the loot
    trophy: bool = False
    basilisks: bool = False

    @property
    def text(self) -> str:
        if self.basilisks:
            return f"{self.enemy} is slain. Both basilisk cards in one hand: both are discarded."
        if self.trophy:
            return f"{self.enemy} is slain: its card is kept as a trophy."
        return f"{self.enemy} is slain: loot worth {self.loot} gold (gold {self.gold})."


# --------------------------------------------------------------------------- health


@dataclass(frozen=True, slots=True)
class Damage(Event):
    """Health lost: the hero's (``hero``) or an enemy's. ``cause`` "" is the hero's attack."""

    target: str
    amount: int
    health: int  # after the loss (the hero's may go below zero; the sentence then says 0)
    max_health: int
    cause: str = ""
    hero: bool = False

    @property
    def text(self) -> str:
        if self.hero:  # a blow below zero leaves nothing: the sentence says 0, as the hero panel and end screen do
            return f"{self.cause}: loses {self.amount} health, health {max(self.health, 0)}/{self.max_health}."
        if self.cause:
            return f"{self.cause}: {self.target} loses {self.amount} health."
        return f"Deals {self.amount} to {self.target}: {max(self.health, 0)} health left."


@dataclass(frozen=True, slots=True)
class Heal(Event):
    """Health gained (never above max): the hero's (``hero``) or an enemy's (HEALS +X). ``amount`` 0: no effect."""

    target: str
    amount: int
    health: int
    max_health: int
    cause: str = ""
    hero: bool = False

    @property
    def text(self) -> str:
        if not self.hero:
            return f"{self.target} HEALS +{self.amount}: {self.health} health."
        if not self.amount:
            return f"{self.cause}: no effect, health {self.health} is not below max {self.max_health}."
        return f"{self.cause}: heals {self.amount}, health {self.health}/{self.max_health}."


@dataclass(frozen=True, slots=True)
class Poisoned(Event):
    """POISON on the hero: -1 health at the start of each turn."""

    cause: str
    turns: int

    @property
    def text(self) -> str:
        return f"{self.cause}: the hero is poisoned, -1 health each turn for {counted(self.turns, 'turn')}."


@dataclass(frozen=True, slots=True)
class Paralysed(Event):
    """PARALYSIS on the hero: turns to skip."""

    cause: str
    turns: int

    @property
    def text(self) -> str:
        return f"{self.cause}: the hero is paralysed; {counted(self.turns, 'turn')} will be skipped."


@dataclass(frozen=True, slots=True)
class Died(Event):
    hero: str
    cause: str

    @property
    def text(self) -> str:
        return f"{self.hero} has died ({self.cause}). The run is over."


@dataclass(frozen=True, slots=True)
class Victory(Event):
    turns: int
    health: int

    @property
    def text(self) -> str:
        return f"Leaves the dungeon alive after {counted(self.turns, 'turn')} with {self.health} health. Victory!"


# --------------------------------------------------------------------------- the hand


@dataclass(frozen=True, slots=True)
class PickedUp(Event):
    card: str
    gold: int = 0  # a gold card: its gold, and ``total`` the hero's gold after
    total: int = 0

    @property
    def text(self) -> str:
        if self.gold:
            return f"Picks up {self.gold} gold (gold {self.total})."
        return f"Picks up {self.card}."


@dataclass(frozen=True, slots=True)
class Equipped(Event):
    card: str
    on: bool = True  # False: taken off, back into the hand

    @property
    def text(self) -> str:
        return f"{'Equips' if self.on else 'Unequips'} {self.card}."


@dataclass(frozen=True, slots=True)
class Traded(Event):
    """The shop: a card bought or sold, and the hero's gold after."""

    card: str
    price: int
    gold: int
    sold: bool = False

    @property
    def text(self) -> str:
        return f"{'Sells' if self.sold else 'Buys'} {self.card} for {self.price} gold (gold {self.gold})."


@dataclass(frozen=True, slots=True)
class PotionUsed(Event):
    """A potion drunk (``target`` "") or thrown on an enemy; its colour's effect is now known."""

    colour: str
    effect: str
    target: str = ""

    @property
    def text(self) -> str:
        if self.target:
            return f"Throws the {self.colour} potion on {self.target}: POTION OF {self.effect.upper()}."
        return f"Drinks the {self.colour} potion: POTION OF {self.effect.upper()}."


@dataclass(frozen=True, slots=True)
class PotionIdentified(Event):
    colour: str
    effect: str

    @property
    def text(self) -> str:
        return f"The {self.colour} potion is a POTION OF {self.effect.upper()}."


@dataclass(frozen=True, slots=True)
class ScrollRead(Event):
    scroll: str

    @property
    def text(self) -> str:
        return f"Reads {self.scroll}."


@dataclass(frozen=True, slots=True)
class Teleported(Event):
    """POTION OF TELEPORTATION thrown: the enemy now stands at ``at``."""

    enemy: str
    at: tuple[int, int]

    @property
    def text(self) -> str:
        return f"{self.enemy} is teleported to {place_text(*self.at)}."


# --------------------------------------------------------------------------- any other rule


@dataclass(frozen=True, slots=True)
class RuleApplied(Event):
    """A rule took effect: ``rule`` as the rulebook names it (e.g. "ATTACK AGAIN"), ``sentence`` what it did."""

    rule: str
    sentence: str

    @property
    def text(self) -> str:
        return self.sentence
