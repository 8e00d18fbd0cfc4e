"""Fated dice: every card instance owns a stream of d6 rolls ("DESIGN: Fated dice").

The generator is version-stable by construction: it uses only SHA-256 and
integer arithmetic, never Python's ``random``.

Algorithm (format ``cardrogue-dice-v1``)
----------------------------------------
For a campaign seed ``S`` (an integer 0 <= S < 2**64) and a card instance id
``C`` (a string), block ``k`` (k = 0, 1, 2, ...) of the stream is::

    SHA-256( b"cardrogue-dice-v1" || 0x00 || S as 8 bytes big-endian
             || UTF-8(C) || 0x00 || k as 8 bytes big-endian )

Each block's 32 bytes are read in order. A byte ``b`` < 252 yields the roll
``b % 6 + 1``; bytes 252..255 are skipped, so every face is equally likely
(252 = 6 * 42). The rolls of block 0 come first, then block 1, and so on.

Scripted rolls (a cell's ``rolls``) are used first; the fated stream continues
after them from its own beginning.
"""

from __future__ import annotations

import hashlib
import struct

DOMAIN = b"cardrogue-dice-v1\x00"
SEED_MAX = 2**64 - 1


def _block(seed: int, card_id: str, k: int) -> bytes:
    return hashlib.sha256(DOMAIN + struct.pack(">Q", seed) + card_id.encode("utf-8") + b"\x00" + struct.pack(">Q", k)).digest()


def fated_rolls(seed: int, card_id: str, count: int, start: int = 0) -> tuple[int, ...]:
    """Rolls ``start`` .. ``start + count - 1`` of a card instance's stream."""
    if not 0 <= seed <= SEED_MAX:
        raise ValueError("seed must be between 0 and 2**64 - 1")
    out: list[int] = []
    index = 0
    k = 0
    while len(out) < count:
        for b in _block(seed, card_id, k):
            if b >= 252:
                continue
            if index >= start:
                out.append(b % 6 + 1)
                if len(out) == count:
                    break
            index += 1
        k += 1
    return tuple(out)


class FatedDice:
    """The dice of one run: per-card streams, scripted rolls first.

    Streams are cached in blocks, so drawing the n-th roll of a card costs O(1)
    amortised; the engine keeps only the per-card draw counts in its state.
    """

    def __init__(self, seed: int, scripted: dict[str, tuple[int, ...]] | None = None) -> None:
        self.seed = seed
        self.scripted = scripted or {}
        # card id -> (rolls drawn so far, index of the next block)
        self._cache: dict[str, tuple[list[int], int]] = {}

    def roll(self, card_id: str, index: int) -> int:
        """The ``index``-th roll (0-based) a card instance produces in a run."""
        script = self.scripted.get(card_id, ())
        if index < len(script):
            return script[index]
        index -= len(script)
        hit = self._cache.get(card_id)
        if hit is not None and index < len(hit[0]):
            return hit[0][index]
        rolls, k = hit or ([], 0)
        while len(rolls) <= index:
            rolls.extend(b % 6 + 1 for b in _block(self.seed, card_id, k) if b < 252)
            k += 1
        self._cache[card_id] = (rolls, k)
        return rolls[index]
