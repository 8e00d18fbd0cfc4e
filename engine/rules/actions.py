"""Actions: what a player chooses, as small immutable values with a text form.

Every action has exactly one line of text a person can read and type (ASCII, single
spaces, directions in capitals), ``Action.parse(str(action)) == action``, and
:meth:`Action.parse` refuses every other spelling:

==========================  ==========================================================
``flip N``                  Standard turn sequence, step 1: flip the face-down card north
``move E``                  step 2: move onto the ADJACENT TILE east
``attack`` / ``attack N``   Combat, step 1: the attack roll (the direction picks the
                            enemy when several are adjacent)
``flee W`` / ``flee W N``  Combat, step 1: try to flee, moving west on success (the
                            second direction picks the enemy whose stream rolls when
                            several are adjacent)
``drink red``               drink a potion of that colour
``throw red N``             throw a potion on the enemy north
``equip sword``             put a weapon or armour from the hand on its slot
``unequip sword``           take it back into the hand
``buy helm`` / ``sell helm``  at the shop
``read scroll-of-passage E``  read a scroll; identify takes a colour, passage a direction
``spell E``                 the mage's spell: MOVE TO ANY ADJACENT TILE
``teleport 3,4``            choose where a potion of teleportation sends its target
``end``                     end the turn
==========================  ==========================================================
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..errors import IllegalAction
from ..model.campaign import DIRECTIONS
from ..words import counted, plural

VERBS = ("flip", "move", "attack", "flee", "drink", "throw", "equip", "unequip", "buy", "sell",
         "read", "spell", "teleport", "end")
DIRECTION_NAMES = tuple(d.value for d in DIRECTIONS)  # the letters, in the engine's direction order
_ARITY = {"flip": (1, 1), "move": (1, 1), "attack": (0, 1), "flee": (1, 2), "drink": (1, 1),
          "throw": (2, 2), "equip": (1, 1), "unequip": (1, 1), "buy": (1, 1), "sell": (1, 1),
          "read": (1, 2), "spell": (1, 1), "teleport": (1, 1), "end": (0, 0)}
_DIRECTIONAL = {"flip", "move", "attack", "flee", "spell"}
_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")  # card ids and potion colours, as the schema writes them
_PLACE = re.compile(r"([0-9]{1,3}),([0-9]{1,3})")  # ASCII digits only: str.isdigit() also takes ²
_LONGEST = 160


class ActionError(IllegalAction):
    """Text that is not an action, or an action that is not legal now (a ValueError too)."""


class Action(NamedTuple):
    """One player choice: a verb from :data:`VERBS` and up to two arguments."""

    verb: str
    arg: str = ""
    arg2: str = ""

    def __str__(self) -> str:
        if self.arg2:
            return f"{self.verb} {self.arg} {self.arg2}"
        if self.arg:
            return f"{self.verb} {self.arg}"
        return self.verb

    @classmethod
    def parse(cls, text: str) -> "Action":
        """Read an action from its one text form: ``str(Action.parse(text)) == text`` or ActionError.

        One run has one replay text, so one row in the high-score table: ``move e``, two spaces,
        a tab, ``teleport 03,0`` or ``teleport ３,０`` are refused, with the form to write instead.
        """
        action = cls._read(text)
        if str(action) != text:
            raise ActionError(f"{text!r} is not written in the one text form of actions: write {str(action)!r}")
        return action

    @classmethod
    def _read(cls, text: str) -> "Action":
        """The action ``text`` means, reading case and spacing loosely (to name the form to write)."""
        if len(text) > _LONGEST:
            raise ActionError(f"an action is at most {_LONGEST} characters")
        words = text.split()
        if not words:
            raise ActionError("empty action")
        verb, args = words[0].lower(), words[1:]
        if verb not in _ARITY:
            raise ActionError(f"unknown action {verb!r}; expected one of {', '.join(VERBS)}")
        lo, hi = _ARITY[verb]
        if not lo <= len(args) <= hi:
            raise ActionError(f"{verb!r} takes {lo if lo == hi else f'{lo} to {hi}'} {plural(hi, 'argument')}")
        if verb in _DIRECTIONAL and args:
            args[0] = args[0].upper()
            if args[0] not in DIRECTION_NAMES:
                raise ActionError(f"{args[0]!r} is not a direction (N, E, S, W)")
        if verb in ("throw", "flee") and len(args) == 2:
            args[1] = args[1].upper()
            if args[1] not in DIRECTION_NAMES:
                raise ActionError(f"{args[1]!r} is not a direction (N, E, S, W)")
        if verb == "teleport":
            place = _PLACE.fullmatch(args[0])
            if place is None:
                raise ActionError(f"teleport takes a place as x,y in digits 0-9 (at most 255 each), not {args[0]!r}")
            args[0] = f"{int(place[1])},{int(place[2])}"
            if max(int(place[1]), int(place[2])) > 255:
                raise ActionError(f"teleport {args[0]}: a level is at most 256 cells wide and high")
        elif verb not in _DIRECTIONAL and args:
            args[0] = args[0].lower()
            if not _ID.fullmatch(args[0]):
                raise ActionError(f"{args[0]!r} is not a card id or a colour (lower-case letters, digits and dashes)")
        if verb == "read" and len(args) == 2:
            if args[1].upper() in DIRECTION_NAMES:
                args[1] = args[1].upper()
            elif not _ID.fullmatch(args[1].lower()):
                raise ActionError(f"{args[1]!r} is not a direction or a colour")
            else:
                args[1] = args[1].lower()
        return cls(verb, *args)


class Chance(NamedTuple):
    """A chance point: a d6 is due from the stream of card instance ``instance``.

    ``draw`` is how many rolls that stream has produced so far in this run, so
    fated dice answer it with roll number ``draw`` of the stream.
    """

    instance: str
    purpose: str  # "attack roll", "dodge", "ability", "flee", "trap", "fountain"
    draw: int


END = Action("end")
ATTACK = Action("attack")
FLIP = tuple(Action("flip", d) for d in DIRECTION_NAMES)
MOVE = tuple(Action("move", d) for d in DIRECTION_NAMES)
ATTACK_TOWARD = tuple(Action("attack", d) for d in DIRECTION_NAMES)
FLEE = tuple(Action("flee", d) for d in DIRECTION_NAMES)
FLEE_FROM = tuple(tuple(Action("flee", d, e) for e in DIRECTION_NAMES) for d in DIRECTION_NAMES)  # [to][enemy]
SPELL = tuple(Action("spell", d) for d in DIRECTION_NAMES)
