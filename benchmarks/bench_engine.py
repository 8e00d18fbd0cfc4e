"""Engine speed: random legal playouts and clone + key, on one core, in CPU time (as the anchor).

Run ``python benchmarks/bench_engine.py``. Figures only; no thresholds. Each figure is printed
beside python-chess's perft measured in the same run (``anchor.py``), as a ratio to it (target:
playouts >= 0.6x perft, issue 14).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

from anchor import line, perft_rate

from cardrogue.engine.format.loader import load_campaign
from cardrogue.engine.chance.resolvers import FatedResolver
from cardrogue.engine.rules.state import GameState

CAMPAIGN = Path(__file__).resolve().parent.parent / "campaigns" / "a-sons-descent.json"


def playouts(campaign, seconds: float, max_actions: int = 200) -> tuple[int, int, float]:
    """Random legal playouts (legal_actions + apply + fated dice); returns (actions, rolls, elapsed)."""
    resolver = FatedResolver(campaign)
    rng = random.Random(1)
    actions = rolls = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = GameState.new(campaign, log=False)
        for _ in range(max_actions):
            legal = state.legal_actions()
            if not legal:
                break
            state.apply(rng.choice(legal))
            actions += 1
            while state.chance is not None:
                state.apply_roll(resolver.roll(state))
                rolls += 1
    return actions, rolls, time.process_time() - start


def _midgame(campaign) -> GameState:
    """A state a few turns in (faces revealed, dice drawn): a fixed seeded walk of legal actions."""
    state = GameState.new(campaign, log=False)
    resolver = FatedResolver(campaign)
    rng = random.Random(7)
    for _ in range(12):
        legal = state.legal_actions()
        if not legal:
            break
        state.step(rng.choice([a for a in legal if a.verb != "end"] or legal), resolver)
    return state


def clone_key(campaign, n: int, rounds: int = 3) -> float:
    """clone() + key() + hash of a mid-game state; the best of ``rounds`` rounds of ``n``."""
    state = _midgame(campaign)
    best = 0.0
    for _ in range(rounds):
        start = time.process_time()
        for _ in range(n):
            hash(state.clone().key())
        best = max(best, n / (time.process_time() - start))
    return best


def main() -> int:
    campaign = load_campaign(CAMPAIGN).campaign
    # The anchor before and after the engine's figures; the better of the two is the ratio's base.
    anchor = perft_rate()
    # Best of three rounds of the same seeded playouts: other load on the machine only ever slows a round.
    actions, rolls, elapsed = max((playouts(campaign, 1.0) for _ in range(3)), key=lambda r: r[0] / r[2])
    clones = clone_key(campaign, 100_000)
    anchor = max(anchor, perft_rate())
    print(line(anchor))
    rate = actions / elapsed
    print(f"random legal playouts: {rate:,.0f} actions/s = {rate / anchor:.2f}x perft "
          f"({actions:,} actions, {rolls:,} dice, {elapsed:.1f} s; best of 3 rounds)")
    print(f"clone + key:           {clones:,.0f} /s = {clones / anchor:.2f}x perft")
    return 0


if __name__ == "__main__":
    sys.exit(main())
