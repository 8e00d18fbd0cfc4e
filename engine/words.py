"""Counts in words, the one place that says "1 turn" and "2 turns": every count a command, a
hub page or a screen prints (turns, states, levels, errors...) is written with :func:`counted`;
and the one way a cell's place is written in words, ``(1, 2)`` (:func:`place_text`)."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Iterable, NamedTuple


def plural(n: int, noun: str, many: str | None = None) -> str:
    """``noun`` for one of it, else its plural (``many``, by default ``noun + "s"``)."""
    return noun if n == 1 else (many or noun + "s")


def counted(n: int, noun: str, many: str | None = None) -> str:
    """``"1 turn"``, ``"0 turns"``, ``"12,500 states"``: the count (with thousands separators) and the noun."""
    shown = f"{n:,}" if isinstance(n, int) else str(n)  # a hub's answer may hold anything
    return f"{shown} {plural(n, noun, many)}"


def level_span(n: int) -> str:
    """The levels of a campaign of ``n``, for a ``--level`` it lacks: ``"only level 1"``, ``"levels 1 to 8"``."""
    return "only level 1" if n == 1 else f"levels 1 to {n:,}"


def place_text(x: int, y: int) -> str:
    """``"(1, 2)"``: a cell's place (column, row) as the player's log, ``cardrogue run``, the checks' messages and
    the editor write it. (An action names a place as it is typed, ``teleport 1,2``; a file and a JSON output as
    ``[1, 2]``.)"""
    return f"({x}, {y})"


def nearest(word: str, options: Iterable[str], cutoff: float) -> str | None:
    """The option most like ``word``, or None when none is at least ``cutoff`` alike: exactly
    ``difflib.get_close_matches(word, options, n=1, cutoff=cutoff)`` (a "did you mean" of a message).

    difflib builds a matcher for the word and tries every option against it, two cheap upper bounds of
    the likeness first (from the lengths, then from the letters in common). Here the options' letters
    and lengths are taken once per list, the bound is first taken for all the options at once (the
    word's letters that any option has), then for each, and only the options within it reach difflib:
    a word like none of them costs a few set operations. A file of 300,000 unknown keys paid 40 µs a
    key for difflib's matchers (benchmarks/RESULTS.md, *Check: a file of 300,000 problems*). The same
    word met again (the same typo in many cells) is answered from a cache."""
    if not 0.0 <= cutoff <= 1.0:  # as difflib says it (NaN too)
        raise ValueError(f"cutoff must be in [0.0, 1.0]: {cutoff!r}")
    return _nearest(word, tuple(options), cutoff)


@lru_cache(maxsize=1024)
def _nearest(word: str, options: tuple[str, ...], cutoff: float) -> str | None:
    import difflib

    profile = _profile(options)
    length = len(word)
    letters = frozenset(word)
    # At most `most` letters of the word are in any option: the likeness to an option of length n is at
    # most 2 min(most, n) / (length + n), whose largest value (at n = most) is 2 most / (length + most).
    most = sum(word.count(c) for c in letters & profile.letters)
    if length and _ratio(most, length + most) < cutoff:
        return None
    survivors = []
    for option, option_length, option_letters, option_counts in profile.options:
        total = length + option_length
        if _ratio(min(length, option_length, most), total) < cutoff:  # difflib's real_quick_ratio, and `most`
            continue
        matches = sum(min(word.count(c), option_counts[c]) for c in letters & option_letters)
        if _ratio(matches, total) < cutoff:  # difflib's quick_ratio: the letters in common
            continue
        survivors.append(option)
    found = difflib.get_close_matches(word, survivors, n=1, cutoff=cutoff) if survivors else []
    return found[0] if found else None


def _ratio(matches: int, length: int) -> float:
    """difflib's ``_calculate_ratio``: the same float, so the bounds cut where difflib's do."""
    return 2.0 * matches / length if length else 1.0


class _Profile(NamedTuple):
    options: tuple[tuple[str, int, frozenset[str], Counter[str]], ...]
    letters: frozenset[str]  # every letter of every option


@lru_cache(maxsize=64)
def _profile(options: tuple[str, ...]) -> _Profile:
    return _Profile(tuple((option, len(option), frozenset(option), Counter(option)) for option in options),
                    frozenset().union(*options))
