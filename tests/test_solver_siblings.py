"""The search's bound is read only for children it may queue: docs/solver.md, *Speed*.

A child that a later sibling dominates (the transposition table retires its entry when the sibling is admitted)
is never expanded, so its bound is not needed to order the queue: the search admits all the children of a state
first and reads the bound of those still standing (and of a retired one only where it shows an enemy slain first,
for an unsolvable verdict's reason). The queue's order, and so every verdict, count and witness, is the same
(``benchmarks/verdict_digest.py``).
"""

import sys
from pathlib import Path

from helpers import load

from cardrogue.engine.analysis.solver import Budget
from cardrogue.engine.analysis.solver import search as search_module
from cardrogue.engine.analysis.solver.search import Search
from cardrogue.engine.rules.tables import CLEARED, ENEMY

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import gen  # noqa: E402  (the benchmarks' generator of open levels)


def test_a_child_a_later_sibling_dominates_gets_no_bound(monkeypatch):
    """On the 8x8 map of seed 16 (a paced warrior with potions of paralysis), 3,000 states in: of the children whose
    bound is read, those a later sibling retires (their entry retired before the next state is taken from the
    queue) all show an enemy card slain not seen slain before; without the two passes some 700 show none."""
    c = load(gen.campaign(1, 8, seed=16))
    search = Search(c, 0, True, Budget(max_states=3_000, max_seconds=3600.0))
    relax, fronts = search.relax, search.fronts
    entries, pending, by_sibling = {}, [], []
    admit, bound, unpack = fronts.admit, relax.bound_masked, search_module.unpack

    def admitted(s, faces=None):
        entry = admit(s, faces)
        entries[id(s)] = entry
        return entry

    def bounded(s, campaign_mode, mask, hint=None):
        entry = entries.get(id(s))
        if entry is not None:
            slain = search.trace.slain  # (the enemies seen slain so far)
            pending.append((entry, any(face == CLEARED and kind == ENEMY and j not in slain
                                       for j, (face, kind) in enumerate(zip(s.faces, s.d.kind)))))
        return bound(s, campaign_mode, mask, hint)

    def taken(packed, d):  # a state taken from the queue: the children read before it are all admitted
        by_sibling.extend(shows for entry, shows in pending if not entry[4])
        pending.clear()
        return unpack(packed, d)

    fronts.admit = admitted
    monkeypatch.setattr(relax, "bound_masked", bounded)  # (the relaxation is shared by searches of one dungeon)
    monkeypatch.setattr(search_module, "unpack", taken)
    search.run()
    assert search.expanded == 3_000 and entries
    assert all(by_sibling)
