"""Answering chance points: fated dice, random dice, enumeration (OpenSpiel's chance nodes).

The rules never roll: a :class:`~.state.GameState` stops at a chance point
(``state.chance``) and a resolver answers it. The same engine serves the
player, the replay verifier, Monte Carlo runs and the solver.
"""

from __future__ import annotations

import random

from ..model.campaign import Campaign
from .fated import FatedDice

OUTCOMES = tuple((n, 1 / 6) for n in range(1, 7))


def chance_outcomes(state) -> tuple[tuple[int, float], ...]:
    """The outcomes of the pending chance point with their probabilities (a fair d6)."""
    return OUTCOMES if state.chance is not None else ()


class FatedResolver:
    """DESIGN: Fated dice. Roll number ``chance.draw`` of the card instance's stream (scripted rolls first).

    The state counts draws per card instance, so a detour never reshuffles a later fight.
    With ``seed``, the same per-card streams from another seed: the recorded "random dice"
    mode of practice runs, which a replay can still re-simulate exactly.
    """

    def __init__(self, campaign: Campaign, seed: int | None = None) -> None:
        scripted = {c.id: c.rolls for level in campaign.levels for c in level.cells if c.rolls}
        self.seed = campaign.seed if seed is None else seed
        self.dice = FatedDice(self.seed, scripted)

    def roll(self, state) -> int:
        chance = state.chance
        return self.dice.roll(chance.instance, chance.draw)


class RandomResolver:
    """Dice that ignore the card streams: a seeded ``random.Random``, every roll recorded in ``rolls``.

    For property tests that want play unconstrained by fated streams. Practice runs that must
    re-simulate use ``FatedResolver(campaign, seed)`` instead (per-card streams from a fresh seed).
    """

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self.rng = random.Random(self.seed)
        self.rolls: list[int] = []

    def roll(self, state) -> int:
        n = self.rng.randint(1, 6)
        self.rolls.append(n)
        return n
