"""The health tiebreak's pruning: an upper bound on the health a line of play can finish with.

It must never be beaten by a real line of play (``docs/solver.md``, *Health ceiling*); the turns'
lower bound is :class:`~.bounds.Relaxation`.
"""

from __future__ import annotations

from ...model.campaign import Campaign, CardKind
from ...rules.mobility import obtainable_cards
from ...rules.state import GameState
from ...rules.tables import CLEARED, FOUNTAIN_TILE
from .relaxed import faces_getter


class HealthCeiling:
    """An upper bound on the health a state can finish with by a given turn (for the health tiebreak).

    Health rises only by healing: a potion of healing (to max), the fountain (at the start of a
    turn), POISON INSTEAD HEALS (at the start of a turn), and +X TO MAX HEALTH from an artifact or
    a scroll. The bound is the static cap while a potion of healing is in hand or still on the map
    (a cell, a shop, a chest); otherwise current health + every +X still to be had + per turn left
    the fountain's and the poison's most.
    """

    def __init__(self, campaign: Campaign, d, cap: int, forget: tuple, campaign_mode: bool) -> None:
        cards = campaign.cards
        self.cap = cap
        self.slack = 0 if campaign_mode else 1  # a level's finish is measured after the next turn has begun
        self.potions = frozenset(c for c, card in cards.items()
                                 if card.kind is CardKind.POTION and d.potions.get(card.colour) == "healing")
        gain = {}
        poison = fountain = 0
        for cid in set(obtainable_cards(campaign)):
            card = cards.get(cid)
            for a in card.abilities if card else ():
                if a.kind == "max-health" and (a.x or 0) > 0 and card.kind in (CardKind.ARTIFACT, CardKind.SCROLL):
                    gain[cid] = a.x
                elif a.kind == "poison-heals":
                    poison = max(poison, a.x or 0)
                elif a.kind == "fountain-heals":
                    fountain = max(fountain, a.x or 0)
        self.gain = gain
        self.poison = poison
        self.fountain = 2 + fountain
        self.cells = []  # per level: (cell, what) for the cells of that level and the levels after it
        for li in range(len(d.level_range)):
            gone = {lo for lo, _, _ in forget[li]}
            spots = []
            for lk, (lo, hi) in enumerate(d.level_range):
                if lo in gone:
                    continue
                for j in range(lo, hi):
                    if d.kind[j] == FOUNTAIN_TILE:
                        spots.append((j, "fountain", 0))
                    for cid in (d.card[j].id, *d.cells[j].stock, *d.cells[j].contents):
                        if cid in self.potions:
                            spots.append((j, "potion", 0))
                        elif cid in gain:
                            spots.append((j, "gain", gain[cid]))
            self.cells.append(tuple(spots))
        # Caches: hand -> -1 (a potion of healing) or the +X it holds; (level, faces of its spots) -> _left_on_map.
        self._hands: dict = {}
        self._spots: dict = {}
        self._spot_faces = tuple(faces_getter([j for j, _, _ in spots]) for spots in self.cells)

    def bound(self, s: GameState, finish: int) -> int:
        cap = self.cap
        hand = s.hand
        held = self._hands.get(hand)
        if held is None:
            # A potion of healing in hand: the cap; else the +X to come from the hand.
            held = self._hands[hand] = (-1 if any(c in self.potions for c in hand)
                                        else sum(self.gain.get(c, 0) for c in hand))
        if held < 0:
            return cap
        level = s.level
        spots = self._spot_faces[level](s.faces)
        left = self._spots.get((level, spots))
        if left is None:
            left = self._spots[(level, spots)] = self._left_on_map(level, spots)
        if not left:
            return cap
        extra, per_turn = left
        return min(cap, s.health + held + extra + per_turn * (finish - s.turn + self.slack))

    def _left_on_map(self, level: int, spots: tuple) -> tuple:
        """(every +X still to be had, healing per turn) from the level's spots whose faces are ``spots``;
        () while a potion of healing is still on the map."""
        extra = 0
        per_turn = self.poison
        fountain = False
        for (j, what, x), face in zip(self.cells[level], spots):
            if face == CLEARED:
                continue
            if what == "potion":
                return ()
            if what == "gain":
                extra += x
            else:
                fountain = True
        if fountain:
            per_turn += self.fountain
        return extra, per_turn
