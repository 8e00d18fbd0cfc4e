"""Abilities the engine can always finish: sane numbers (CR226) and rolls that stop (CR227).

The vocabulary (``model/abilities.py``) says what an ability means; these rules say which of
its values a campaign may use, so that no ability makes one action of the engine run for ever or
grow without bound.
"""

from __future__ import annotations

from typing import Iterable

from ...model.abilities import Ability
from ..diagnostics import Diagnostic, JsonPath
from .common import Findings

# kind -> (which number, lowest, highest, what it counts). A duration is at most ten turns: the
# rulebook's own cards paralyse for one turn and poison for two or three; every other number at
# most 20, about a hero's whole health. Zero is refused: the ability would do nothing.
NUMBER_BOUNDS: dict[str, tuple[str, int, int, str]] = {
    "paralyze": ("y", 1, 10, "turns"),
    "poison": ("y", 1, 10, "turns"),
    "heals": ("x", 1, 20, "health"),
    "min-attack": ("x", 1, 20, "attack"),
    "damage-taken": ("x", 1, 20, "damage"),
    "movement": ("x", 1, 10, "moves"),
    "attack-roll": ("x", -20, 20, "to the attack roll"),
    "max-health": ("x", -20, 20, "to max health"),
    "poison-heals": ("x", 1, 20, "health"),
    "lose-health": ("x", 1, 20, "health"),
    "shop-discount": ("x", 1, 20, "gold"),
    "fountain-heals": ("x", 1, 20, "health"),
    "spell": ("x", 1, 20, "turns"),
}

# ROLLING AN X effects that allot more attack rolls ("Repeat until an X is not rolled").
MORE_ROLLS = ("reroll-twice", "attack-again")


def number_problems(ability: Ability, path: JsonPath) -> list[Diagnostic]:
    """CR226: a number in an ability outside its bounds (NUMBER_BOUNDS), or zero."""
    found = Findings()
    bounds = NUMBER_BOUNDS.get(ability.kind)
    if bounds is None:
        return found.items
    field, low, high, what = bounds
    value = getattr(ability, field)
    if value is None:
        return found.items
    if value == 0:
        found.error("CR226", f"{ability}: 0 does nothing; write {low} to {high} {what}, not 0", path)
    elif not low <= value <= high:
        found.error("CR226", f"{ability}: {value} is out of bounds: {low} to {high} {what}", path)
    return found.items


def endless_roll_problems(abilities: Iterable[tuple[Ability, JsonPath]]) -> list[Diagnostic]:
    """CR227: one card whose REROLL TWICE and ATTACK AGAIN faces cover every face of the die.

    "ROLLING AN X: REROLL TWICE ... Repeat until an X is not rolled as an attack": when every
    roll is an X, the attack never ends. (Two cards that only together cover the die are bounded
    by the engine instead: at most ``MAX_ATTACK_ROLLS`` attack rolls in one combat turn.)
    """
    found = Findings()
    faces: set[int] = set()
    last: JsonPath | None = None
    for ability, path in abilities:
        if ability.kind in MORE_ROLLS and ability.on:
            faces |= ability.on
            last = path
    if last is not None and faces >= {1, 2, 3, 4, 5, 6}:
        found.error("CR227", "REROLL TWICE and ATTACK AGAIN on every face of the die: the attack would never end; "
                    "leave at least one face that stops it", last)
    return found.items
