"""Counts in words, the one place that says "1 turn" and "2 turns": every count a command, a
hub page or a screen prints (turns, states, levels, errors...) is written with :func:`counted`."""

from __future__ import annotations


def plural(n: int, noun: str, many: str | None = None) -> str:
    """``noun`` for one of it, else its plural (``many``, by default ``noun + "s"``)."""
    return noun if n == 1 else (many or noun + "s")


def counted(n: int, noun: str, many: str | None = None) -> str:
    """``"1 turn"``, ``"0 turns"``, ``"12,500 states"``: the count (with thousands separators) and the noun."""
    shown = f"{n:,}" if isinstance(n, int) else str(n)  # a hub's answer may hold anything
    return f"{shown} {plural(n, noun, many)}"
