"""Potion colour identities ("Potions > Properties of a potion").

In the physical game a colour's effect is rolled the first time a potion of that
colour is used, re-rolling effects another colour already has. In story mode the
identities are fixed per campaign: the author may set some in ``potions``; the
others are fixed from the seed.

Algorithm (``cardrogue-potions-v1``), version-stable (SHA-256 and integers only):
the colours the author did not set, in the order red, blue, green, yellow,
purple, orange, receive the effects the author did not use, in die order
(healing, poison, strength, weakness, teleportation, paralysis), shuffled by a
Fisher-Yates shuffle: for ``i`` from ``n - 1`` down to 1, swap item ``i`` with
item ``j = uniform(i + 1)``. ``uniform(m)`` reads the next byte ``b`` of the
stream ``SHA-256(b"cardrogue-potions-v1" || 0x00 || seed as 8 bytes big-endian
|| k as 8 bytes big-endian)`` for blocks k = 0, 1, ...; a byte
``b >= 256 - 256 % m`` is skipped, otherwise ``j = b % m``.
"""

from __future__ import annotations

import hashlib
import struct
from typing import Iterator, Mapping

from .campaign import POTION_COLOURS, POTION_EFFECTS

DOMAIN = b"cardrogue-potions-v1\x00"


def _bytes(seed: int) -> Iterator[int]:
    k = 0
    while True:
        yield from hashlib.sha256(DOMAIN + struct.pack(">Q", seed) + struct.pack(">Q", k)).digest()
        k += 1


def seeded_identities(seed: object, chosen: Mapping[str, str] | None = None) -> dict[str, str] | None:
    """:func:`potion_identities`, or None for a seed no valid file holds (a draft's: not an integer from 0 to
    2**64 - 1, as the schema's ``seed``), which gives the colours not chosen no effect."""
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2 ** 64:
        return None
    return potion_identities(seed, chosen)


def potion_identities(seed: int, chosen: Mapping[str, str] | None = None) -> dict[str, str]:
    """colour -> effect for all six colours: the author's choices, the rest from the seed."""
    chosen = dict(chosen or {})
    colours = [c for c in POTION_COLOURS if c not in chosen]
    effects = [e for e in POTION_EFFECTS if e not in chosen.values()]
    stream = _bytes(seed)
    for i in range(len(effects) - 1, 0, -1):
        m = i + 1
        limit = 256 - 256 % m
        b = next(stream)
        while b >= limit:
            b = next(stream)
        j = b % m
        effects[i], effects[j] = effects[j], effects[i]
    chosen.update(zip(colours, effects))
    return chosen
