"""Potion colour identities the author sets ("Potions > Properties of a potion")."""

from __future__ import annotations

from typing import Mapping

from ..diagnostics import Diagnostic
from .common import Findings


def potion_problems(potions: Mapping[str, str]) -> list[Diagnostic]:
    """CR222: each colour has a different effect, as the potion table gives one effect per die face."""
    found = Findings()
    seen: dict[str, str] = {}
    for colour, effect in potions.items():
        if effect in seen:
            found.error("CR222", f"{colour} and {seen[effect]} potions both have the {effect} effect; "
                        "each colour has a different effect", ("potions", colour))
        seen[effect] = colour
    return found.items
