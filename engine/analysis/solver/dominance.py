"""The transposition table with dominance pruning, and the reference search's exact table."""

from __future__ import annotations

from collections import Counter

from ...model.campaign import Campaign, CardKind
from ...rules.state import GameState
from .packing import signature


class Fronts:
    """Transposition table with dominance pruning.

    Two states with the same *signature* -- the engine's ``key()`` with turn,
    health, gold and the inert cards in hand left out -- differ only in those.
    State A dominates B when A.turn <= B.turn, A.health >= B.health, A.gold >= B.gold
    and A's inert cards include B's (as a multiset). That is certain under the
    engine's rules: no rule reads the turn number; health only moves by
    monotone steps (damage, capped healing, full healing) and death is health <= 0;
    gold only gates purchases (a superset of buys); an inert card in hand
    (weapon, armour, scroll, key, a potion whose colour no other card shares --
    never an artifact or a boss trophy, which act from the hand) only adds actions.
    So every line of play from B is open to A, finishing no later with no less health.
    """

    def __init__(self, campaign: Campaign) -> None:
        cards = campaign.cards
        colours = Counter(c.colour for c in cards.values() if c.kind is CardKind.POTION)
        inert = set()
        for cid, c in cards.items():
            if c.cursed:
                continue
            if c.kind in (CardKind.WEAPON, CardKind.ARMOUR, CardKind.SCROLL, CardKind.ITEM):
                inert.add(cid)
            elif c.kind is CardKind.POTION and colours[c.colour] == 1:
                inert.add(cid)
        self.inert = frozenset(inert)
        self.fronts: dict = {}
        self._splits: dict = {}  # hand -> (strict, loose): hands recur across many states

    def split(self, s: GameState) -> tuple[tuple, tuple]:
        hand = s.hand
        if not hand:
            return (), ()
        hit = self._splits.get(hand)
        if hit is None:
            inert = self.inert
            strict = tuple(c for c in hand if c not in inert)
            loose = tuple(c for c in hand if c in inert)
            hit = self._splits[hand] = (strict, loose)
        return hit

    def admit(self, s: GameState, faces: bytes | None = None) -> list | None:
        """The state's entry if no known state dominates it (entries it dominates are retired), else None.

        An entry is [turn, health, gold, inert cards, alive, signature]: the signature is the one tuple
        every entry of its front shares (the table's key), and holds ``bytes(s.faces)`` at
        ``packing.FACES``; ``faces`` may give those bytes.
        """
        hand = s.hand
        if hand:
            hit = self._splits.get(hand)  # self.split(s), inlined: once per generated state
            if hit is None:
                hit = self.split(s)
            strict, loose = hit
        else:
            strict = loose = ()
        if faces is None:
            faces = bytes(s.faces)
        sig = signature(s, strict, faces)
        t, h, g = s.turn, s.health, s.gold
        # setdefault: the signature (a long tuple, whose hash Python does not keep) is hashed once.
        fresh = []
        front = self.fronts.setdefault(sig, fresh)
        if front is fresh:
            entry = [t, h, g, loose, True, sig]
            fresh.append(entry)
            return entry
        # One pass does both: a front holds no entry dominating another, so if some entry dominates
        # the new state, no entry before it was dominated by the new state (it would be by that
        # entry too), and returning None leaves the front untouched.
        # (``not x or _within(x, y)`` is ``_within(x, y)`` without the call when x holds no inert card.)
        keep = []
        for e in front:
            et, eh, eg = e[0], e[1], e[2]
            if et <= t and eh >= h and eg >= g and (not loose or _within(loose, e[3])):
                return None
            if t <= et and h >= eh and g >= eg and (not e[3] or _within(e[3], loose)):
                e[4] = False
            else:
                keep.append(e)
        entry = [t, h, g, loose, True, front[0][5]]  # the front's own signature tuple, not this equal copy
        keep.append(entry)
        front[:] = keep  # in place: no second hash of the signature
        return entry


class ExactTable:
    """The reference search's table: a state is new unless its exact key was seen."""

    def __init__(self) -> None:
        self.seen: set = set()

    def admit(self, s: GameState, faces: bytes | None = None) -> list | None:
        k = s.key()
        if k in self.seen:
            return None
        self.seen.add(k)
        return [s.turn, s.health, s.gold, (), True, signature(s, (), bytes(s.faces) if faces is None else faces)]


def _within(a: tuple, b: tuple) -> bool:
    """Multiset a <= b, for sorted tuples of card ids (a merge walk)."""
    if a == b or not a:
        return True
    n = len(b)
    if len(a) > n:
        return False
    i = 0
    for x in a:
        while i < n and b[i] < x:
            i += 1
        if i == n or b[i] != x:
            return False
        i += 1
    return True

