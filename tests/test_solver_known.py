"""What is known of the potions (``identified``) is left out of the search's signature (engine/analysis/solver/
packing.py ``OMITTED``; docs/solver.md, *What is known*).

Card Rogue v1.1.2, IDENTIFY AN UNKNOWN ITEM IN YOUR HAND: "This scroll can be used to identify a single unknown
item from the player's hand ... the potion will not be used"; Scrolls: "once used they must be discarded". No
other rule reads what is known (the fated dice decide what a potion of a colour does, known or not): a state
knowing more lacks only readings that discard the scroll, and keeps the scroll, an inert card, instead.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from helpers import campaign, cell, same_par_as_the_reference, started

from cardrogue.engine.analysis.solver import Budget
from cardrogue.engine.analysis.solver.dominance import Fronts
from cardrogue.engine.format.loader import load_campaign_text

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import gen  # noqa: E402  (the benchmarks' generator of item mixes)
from bench_mix import levels_for  # noqa: E402  (the sweep's levels per mix and seed)

CELLS = [cell(0, 0, "starting-tile", "E"), cell(1, 0, "pathing-tile", "W", exit=True)]


def _known_apart(cards=None) -> bool:
    """Whether the table tells apart two starts that differ only in a potion colour known."""
    c = campaign(CELLS, items=["scroll-of-identify", "red-potion"], cards=cards)
    s, _ = started(c)
    knows = s.clone()
    knows.identified |= 1  # one colour known
    fronts = Fronts(c, s.d)
    assert fronts.admit(s) is not None
    return fronts.admit(knows) is not None


def test_states_differing_only_in_what_is_known_merge():
    assert not _known_apart()


def test_a_cursed_scroll_of_identify_keeps_what_is_known_apart():
    # A cursed card is no inert card (it acts from the hand): the scroll kept unread is then not "only more".
    assert _known_apart(cards={"scroll-of-identify": {"cursed": True}})


@pytest.mark.parametrize("size, mix, seed", [(3, "gear", 0), (4, "gear", 2), (4, "shops", 1)])
def test_maps_with_a_scroll_of_identify_keep_the_reference_par(size, mix, seed):
    """The sweep's small maps holding a scroll of identify: the par of the uniform-cost reference search,
    which keys every state on all it holds."""
    c = load_campaign_text(gen.mixed_campaign_text(levels_for(mix, seed), size, seed, mix)).campaign
    same_par_as_the_reference(c, Budget(max_states=300_000, max_seconds=3600.0))
