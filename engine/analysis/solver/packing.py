"""What the search stores of a state: its signature, the state packed, and the levels it may forget.

Two states with one :func:`signature` differ only in what dominance compares (turn, health, gold,
inert cards in hand); the transposition table files states under it. A state waiting in the
search's queue is kept as :func:`pack` makes it: that signature (the very tuple the table holds,
shared, not a second copy; the faces in it as ``bytes``) and a short tuple of what the signature
does not hold as it is (turn, health, gold, the hand, the derived stats, the enemies' and visitors'
dictionaries as items, none kept when empty); :func:`unpack` rebuilds the state when it is popped.
All three are generated from the state's one field list (``engine/rules/fields.py``).

Levels that no ladder leads back to are reset to their initial faces (:func:`left_behind`), so
states that differ only in how a left level was played merge.
"""

from __future__ import annotations

import sys

from ...rules.fields import FIELDS, signature_functions
from ...rules.state import GameState
from ...rules.tables import CLEARED

# signature(s, strict, faces=None) -> tuple: every field of ``s.key()`` but turn, health, gold, the
# hand, ``identified`` and ``poison``, plus the hand's ``strict`` (not inert) cards: states with one signature differ only in what
# dominance compares. Built from the state's field list, so a new field is in it at once.
# ``faces``: ``bytes(s.faces)`` when the caller has it (a parent's, its hash already computed). The dice
# drawn are taken as the state keeps them ((cell, count) pairs, cheaper than ``key()``'s count for
# every cell); tests/test_solver.py checks that a change to any field of ``key()`` but those six
# changes the signature.
# pack(s, sig) -> tuple, the state queued with its signature; unpack(packed, d) -> GameState.
# ``identified`` (which potion colours are known) is left out too: only the scroll of identify reads it, and
# only to offer its reading for a colour not yet known, which does nothing but discard the scroll (IDENTIFY
# AN UNKNOWN ITEM IN YOUR HAND: "the potion will not be used"); dominance.Fronts keeps it in ``strict``
# where a cursed scroll of identify makes the scroll kept in hand matter (docs/solver.md, *What is known*).
_COMPARED = ("turn", "health", "gold", "hand")
OMITTED = _COMPARED + ("identified", "poison")  # poison: compared by dominance.Fronts (less is more)
signature, pack, unpack = signature_functions(GameState, omit=OMITTED, plain=("draws",), given=("faces",),
                                              extra=("strict",))
# Where a signature holds the faces (``bytes``): ``sig[FACES]``.
FACES = [f.name for f in FIELDS if f.key is not None and f.name not in OMITTED].index("faces")


def resident_bytes() -> int:
    """The process's resident memory now, in bytes (0 where the system does not tell).

    Linux: /proc/self/statm. Elsewhere the peak (``ru_maxrss``): it never falls, which only makes
    a memory bound stop a search earlier, never later.
    """
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource
    except ImportError:  # Windows: no resource module
        return 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


def _page_size() -> int:
    try:
        import os

        return os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return 4096


_PAGE = _page_size()


def left_behind(d) -> tuple:
    """Per level: the levels no ladder path leads back to from it, as (lo, hi, initial faces).

    Their faces and dice draws can never matter again, so the search resets them to the
    initial values: states that differ only in how a left level was played merge. (Their
    enemies' entries in ``foes`` are kept as they are; leaving combat already ends an enemy's
    poison, see docs/rules.md.) The witness is replayed from its actions, so it is unaffected.
    """
    n = len(d.level_range)
    step = [set() for _ in range(n)]
    for j, to in enumerate(d.ladder_to):
        if to >= 0:
            step[d.level_of[j]].add(to)
    out = []
    for li in range(n):
        seen, todo = {li}, [li]
        while todo:
            for k in step[todo.pop()]:
                if k not in seen:
                    seen.add(k)
                    todo.append(k)
        ranges = []
        for k in range(n):
            if k not in seen:
                lo, hi = d.level_range[k]
                ranges.append((lo, hi, d.initial_faces[lo:hi]))
        out.append(tuple(ranges))
    return tuple(out)



def spent_streams_dropped(s) -> tuple:
    """``s.draws`` without the streams no rule reads again: those of cells cleared for good.

    A die is drawn from a cell's stream only for an enemy alive (its flee, attack, dodge and ability
    rolls, read from the cell its card started on, wherever a potion of teleportation moved it), for a
    fountain face up (FOUNTAIN OF HEALING: drained on a 6, it becomes a pathing tile) and for a trap
    (never cleared). A cleared face never turns back (a flip turns only a face-down card up), and a
    cleared enemy cell is a slain enemy's (SLAYING AN ENEMY) unless the enemy was moved away
    (``visitors``): so the counts of every other cleared cell are dead weight, and states that differ
    only in how long a finished fight took merge (docs/solver.md, *Spent dice*).
    """
    faces = s.faces
    moved = s.visitors.values() if s.visitors else ()
    return tuple(p for p in s.draws if faces[p[0]] != CLEARED or p[0] in moved)


def merge_ranges(forget: tuple) -> tuple:
    """``left_behind``'s ranges per level with neighbouring ranges joined (one slice assignment each)."""
    out = []
    for ranges in forget:
        joined = []
        for lo, hi, initial in ranges:
            if joined and joined[-1][1] == lo:
                plo, _, pinit = joined[-1]
                joined[-1] = (plo, hi, pinit + initial)
            else:
                joined.append((lo, hi, initial))
        out.append(tuple(joined))
    return tuple(out)


def cleared_bits(cells: list, n: int) -> int:
    """The bits that a face of CLEARED sets at ``cells`` in ``int.from_bytes(faces, "big")``.

    Faces are DOWN (0), UP (1) or CLEARED (2), so ``int.from_bytes(faces, "big") & bits`` is
    nonzero exactly when one of ``cells`` is cleared: two C operations per call, however many cells.
    """
    pattern = bytearray(n)
    for j in cells:
        pattern[j] = CLEARED
    return int.from_bytes(pattern, "big")


