"""The ability vocabulary of the Clarifications, parsed into small values.

A card's abilities are written exactly as the rulebook prints them, for example
``ROLL A DIE: IF 6: DODGES PLAYER'S ATTACK`` or ``ROLLING A 6: REROLL TWICE``,
so an author can define a card without code. :func:`parse_ability` turns that
text into an :class:`Ability`; ``str(ability)`` gives the canonical text back.

Three triggers exist ("ROLL A DIE: IF X: (SHOWN ON SOME CARDS)" and
"ROLLING AN X: (SHOWN ON SOME CARDS)"):

* ``always``  -- a standing effect (``-1 DAMAGE TAKEN``);
* ``die``     -- ``ROLL A DIE: [IF X:] effect``, a roll of its own;
* ``attack``  -- ``ROLLING AN X: effect``, read off the player's attack roll.

A few entries are the project's own, for the character cards whose texts the
rulebook does not print; :data:`PROJECT_VOCABULARY` lists them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


class AbilityError(ValueError):
    """The text is not in the vocabulary."""


@dataclass(frozen=True, slots=True)
class Ability:
    kind: str
    trigger: str = "always"  # always | die | attack
    on: frozenset[int] | None = None  # the faces that trigger it (None: every roll)
    x: int | None = None
    y: int | None = None

    def triggered_by(self, roll: int) -> bool:
        return self.on is None or roll in self.on

    def __str__(self) -> str:
        effect = _EFFECTS[self.kind].template.format(x=self.x, y=self.y)
        faces = ",".join(str(f) for f in sorted(self.on)) if self.on else ""
        if self.trigger == "die":
            return f"ROLL A DIE: IF {faces}: {effect}" if self.on else f"ROLL A DIE: {effect}"
        if self.trigger == "attack":
            return f"ROLLING A {faces}: {effect}"
        return effect


@dataclass(frozen=True)
class _Effect:
    kind: str
    pattern: str  # regex over the upper-cased effect text, with (?P<x>) / (?P<y>)
    template: str  # canonical text
    triggers: frozenset[str]
    section: str  # the Clarifications entry, for docs and error messages
    example: str
    project: bool = False


_ALWAYS = frozenset({"always"})
_DIE = frozenset({"die"})
_ATTACK = frozenset({"attack"})
_ANY_ROLL = frozenset({"die", "attack"})

_EFFECT_LIST = [
    # Enemy abilities, rolled in step 2 of the combat turn sequence.
    _Effect("dodge", r"DODGES PLAYER'?S ATTACK", "DODGES PLAYER'S ATTACK", _DIE,
            "ROLL A DIE: IF X: DODGES PLAYER'S ATTACK", "ROLL A DIE: IF 6: DODGES PLAYER'S ATTACK"),
    _Effect("paralyze", r"PARALY[SZ]E FOR (?P<y>\d+) TURNS?", "PARALYZE FOR {y} TURNS", _DIE | _ALWAYS,
            "ROLL A DIE: IF X: PARALYZE FOR Y TURNS", "ROLL A DIE: IF 1: PARALYZE FOR 1 TURNS"),
    _Effect("poison", r"POISON -1 HEALTH FOR (?P<y>\d+) TURNS?", "POISON -1 HEALTH FOR {y} TURNS", _DIE | _ALWAYS,
            "ROLL A DIE: IF X: POISON -1 HEALTH FOR Y TURNS", "ROLL A DIE: IF 5,6: POISON -1 HEALTH FOR 2 TURNS"),
    _Effect("double-roll-attack", r"ATTACK IS DOUBLE THE ROLL", "ATTACK IS DOUBLE THE ROLL", _DIE,
            "ROLL A DIE: ATTACK IS DOUBLE THE ROLL", "ROLL A DIE: ATTACK IS DOUBLE THE ROLL"),
    _Effect("heals", r"HEALS \+(?P<x>\d+) HEALTH EACH ATTACK", "HEALS +{x} HEALTH EACH ATTACK", _ALWAYS,
            "HEALS +X HEALTH EACH ATTACK", "HEALS +1 HEALTH EACH ATTACK"),
    _Effect("must-kill-in-one-turn", r"MUST KILL WITHIN A SINGLE TURN", "MUST KILL WITHIN A SINGLE TURN", _ALWAYS,
            "MUST KILL WITHIN A SINGLE TURN", "MUST KILL WITHIN A SINGLE TURN"),
    _Effect("does-not-chase", r"DOES NOT CHASE", "DOES NOT CHASE", _ALWAYS,
            "DOES NOT CHASE", "DOES NOT CHASE"),
    # Equipment: rolled outside combat, or read off the attack roll.
    _Effect("can-flee", r"CAN FLEE", "CAN FLEE", _DIE,
            "ROLL A DIE: IF X: CAN FLEE", "ROLL A DIE: IF 3: CAN FLEE"),
    _Effect("avoid-trap", r"CAN AVOID TRAP", "CAN AVOID TRAP", _DIE,
            "ROLL A DIE: IF X: CAN AVOID TRAP", "ROLL A DIE: IF 5,6: CAN AVOID TRAP"),
    _Effect("block", r"BLOCK ENEMY'?S ATTACK THIS TURN", "BLOCK ENEMY'S ATTACK THIS TURN", _ATTACK,
            "ROLLING AN X: BLOCK ENEMY'S ATTACK THIS TURN", "ROLLING A 6: BLOCK ENEMY'S ATTACK THIS TURN"),
    _Effect("reroll-twice", r"REROLL TWICE", "REROLL TWICE", _ATTACK,
            "ROLLING AN X: REROLL TWICE", "ROLLING A 6: REROLL TWICE"),
    _Effect("attack-misses", r"ATTACK MISSES", "ATTACK MISSES", _ATTACK,
            "ROLLING AN X: ATTACK MISSES", "ROLLING A 1: ATTACK MISSES"),
    _Effect("attack-again", r"ATTACK AGAIN", "ATTACK AGAIN", _ATTACK,
            "ROLLING AN X: ATTACK AGAIN", "ROLLING A 6: ATTACK AGAIN"),
    _Effect("min-attack", r"MIN\. ATTACK: (?P<x>\d+)", "MIN. ATTACK: {x}", _ALWAYS,
            "MIN. ATTACK: X", "MIN. ATTACK: 3"),
    _Effect("double-damage", r"DOUBLE DAMAGE", "DOUBLE DAMAGE", _ALWAYS,
            "DOUBLE DAMAGE", "DOUBLE DAMAGE"),
    _Effect("damage-taken", r"-(?P<x>\d+) DAMAGE TAKEN", "-{x} DAMAGE TAKEN", _ALWAYS,
            "-X DAMAGE TAKEN", "-1 DAMAGE TAKEN"),
    _Effect("movement", r"\+(?P<x>\d+) MOVEMENT\.? MUST BE OUT OF COMBAT", "+{x} MOVEMENT. MUST BE OUT OF COMBAT", _ALWAYS,
            "+X MOVEMENT MUST BE OUT OF COMBAT", "+1 MOVEMENT. MUST BE OUT OF COMBAT"),
    _Effect("attack-roll", r"(?P<x>[+-]\d+) TO ATTACK ROLL", "{x:+d} TO ATTACK ROLL", _ALWAYS,
            "+X TO ATTACK ROLL / -X TO ATTACK ROLL", "+1 TO ATTACK ROLL"),
    _Effect("max-health", r"(?P<x>[+-]\d+) TO MAX HEALTH", "{x:+d} TO MAX HEALTH", _ALWAYS,
            "+X TO MAX HEALTH / -X TO MAX HEALTH", "+2 TO MAX HEALTH"),
    # Scrolls ("Scrolls"): used once, then discarded.
    _Effect("identify", r"IDENTIFY AN UNKNOWN ITEM IN YOUR HAND", "IDENTIFY AN UNKNOWN ITEM IN YOUR HAND", _ALWAYS,
            "IDENTIFY AN UNKNOWN ITEM IN YOUR HAND", "IDENTIFY AN UNKNOWN ITEM IN YOUR HAND"),
    _Effect("move-adjacent", r"MOVE TO ANY ADJACENT TILE", "MOVE TO ANY ADJACENT TILE", _ALWAYS,
            "MOVE TO ANY ADJACENT TILE", "MOVE TO ANY ADJACENT TILE"),
    _Effect("poison-heals", r"POISON INSTEAD HEALS \+(?P<x>\d+) HEALTH", "POISON INSTEAD HEALS +{x} HEALTH", _ALWAYS,
            "POISON INSTEAD HEALS +X HEALTH", "POISON INSTEAD HEALS +1 HEALTH"),
    _Effect("remove-curses", r"REMOVE ALL YOUR CURSED ITEMS", "REMOVE ALL YOUR CURSED ITEMS", _ALWAYS,
            "REMOVE ALL YOUR CURSED ITEMS", "REMOVE ALL YOUR CURSED ITEMS"),
    # Traps ("Tiles > Traps").
    _Effect("lose-health", r"LOSE (?P<x>\d+) HEALTH", "LOSE {x} HEALTH", _ALWAYS,
            "TRAP OF SPIKES", "LOSE 2 HEALTH"),
    # The project's own entries, for the character cards (see PROJECT_VOCABULARY).
    _Effect("cannot-flee", r"CANNOT FLEE", "CANNOT FLEE", _ALWAYS,
            "project: WARRIOR", "CANNOT FLEE", project=True),
    _Effect("second-dagger", r"CAN EQUIP A SECOND DAGGER", "CAN EQUIP A SECOND DAGGER", _ALWAYS,
            "SECONDARY HAND SLOT (ROGUE)", "CAN EQUIP A SECOND DAGGER", project=True),
    _Effect("shop-discount", r"BUYS AT (?P<x>\d+) GOLD LESS", "BUYS AT {x} GOLD LESS", _ALWAYS,
            "project: BARD", "BUYS AT 1 GOLD LESS", project=True),
    _Effect("fountain-heals", r"FOUNTAINS HEAL \+(?P<x>\d+) MORE", "FOUNTAINS HEAL +{x} MORE", _ALWAYS,
            "project: CLERIC", "FOUNTAINS HEAL +1 MORE", project=True),
    _Effect("spell", r"SPELL: MOVE TO ANY ADJACENT TILE\. COOLDOWN: (?P<x>\d+) TURNS", "SPELL: MOVE TO ANY ADJACENT TILE. COOLDOWN: {x} TURNS", _ALWAYS,
            "project: MAGE (COOLDOWN EFFECT CARD)", "SPELL: MOVE TO ANY ADJACENT TILE. COOLDOWN: 3 TURNS", project=True),
]

_EFFECTS = {e.kind: e for e in _EFFECT_LIST}
# ASCII: a number is written with the digits 0-9 only (one text form, as for actions).
_COMPILED = [(e, re.compile(e.pattern + r"$", re.ASCII)) for e in _EFFECT_LIST]
_ROLL_A_DIE = re.compile(r"ROLL A DIE:\s*(?:IF\s+(?P<faces>[0-9 ,\-]+?)\s*:\s*)?(?P<effect>.+)$", re.ASCII)
_ROLLING = re.compile(r"ROLLING AN?\s+(?P<faces>[0-9 ,\-]+?)\s*:\s*(?P<effect>.+)$", re.ASCII)
# More digits than any sane number (the format's checks bound each number, CR226): refused while
# parsing, so a hostile 5,000-digit number is never converted.
MAX_DIGITS = 6

VOCABULARY = tuple(_EFFECT_LIST)
PROJECT_VOCABULARY = tuple(e for e in _EFFECT_LIST if e.project)


def _parse_faces(text: str) -> frozenset[int]:
    faces: set[int] = set()
    shown = text if len(text) <= 20 else text[:20] + "..."

    def face(digit: str) -> int:
        if digit not in ("1", "2", "3", "4", "5", "6"):
            raise AbilityError(f"die faces must be between 1 and 6, got {shown!r}")
        return int(digit)

    for part in text.replace(" ", "").split(","):
        if "-" in part:
            lo, _, hi = part.partition("-")
            low, high = face(lo), face(hi)
            if low > high:
                raise AbilityError(f"a range of die faces goes from low to high, got {shown!r}")
            faces.update(range(low, high + 1))
        else:
            faces.add(face(part))
    return frozenset(faces)


def _number(digits: str | None) -> int | None:
    if digits is None:
        return None
    if len(digits.lstrip("+-")) > MAX_DIGITS:
        raise AbilityError(f"the number {digits[:MAX_DIGITS + 1]}... is far too large (at most {MAX_DIGITS} digits)")
    return int(digits)


def parse_ability(text: str) -> Ability:
    """Parse one ability written in the rulebook's words (case and spacing are forgiven)."""
    norm = re.sub(r"\s+", " ", text.strip().upper())
    trigger, faces, effect_text = "always", None, norm
    if m := _ROLL_A_DIE.match(norm):
        trigger, effect_text = "die", m.group("effect").strip()
        faces = _parse_faces(m.group("faces")) if m.group("faces") else None
    elif m := _ROLLING.match(norm):
        trigger, effect_text = "attack", m.group("effect").strip()
        faces = _parse_faces(m.group("faces"))
    for effect, regex in _COMPILED:
        if em := regex.match(effect_text):
            if trigger not in effect.triggers:
                allowed = " or ".join(sorted(effect.triggers))
                raise AbilityError(f"{effect.template.format(x='X', y='Y')!r} takes a {allowed} trigger (see {effect.section!r})")
            groups = em.groupdict()
            x, y = _number(groups.get("x")), _number(groups.get("y"))
            return Ability(effect.kind, trigger, faces, x, y)
    near = _nearest_effect(effect_text)
    hint = f"; did you mean {norm[:len(norm) - len(effect_text)] + near!r}?" if near else ""
    raise AbilityError(f"{text!r} is not in the ability vocabulary{hint}")


def _nearest_effect(effect_text: str) -> str | None:
    """The vocabulary's effect an unknown one most likely misspells (``DODGES PLAYERS ATACK``), written with
    the numbers it gives, in the order its template takes them (1 where it gives none)."""
    from string import Formatter

    from ..words import nearest

    numbers = [int(n) for n in re.findall(r"[+-]?\d{1,6}", effect_text, re.ASCII)] + [1, 1]
    written = []
    for effect in _EFFECT_LIST:  # a signed number where the template writes the sign ({x:+d}), else its size
        fields = [(name, "+" in spec) for _, name, spec, _ in Formatter().parse(effect.template) if name]
        written.append(effect.template.format(**{name: n if signed else abs(n)
                                                 for (name, signed), n in zip(fields, numbers)}))
    return nearest(effect_text, written, cutoff=0.75)
