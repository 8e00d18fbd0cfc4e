"""The transposition table with dominance pruning, and the reference search's exact table."""

from __future__ import annotations

from collections import Counter

from ...model.campaign import Campaign, CardKind
from ...rules.state import GameState
from ...rules.tables import ENEMY, PICKUP, PLAIN
from .packing import FACES, signature

SET_POTIONS = 4  # potions of teleportation or paralysis on one level from which faces are compared as sets
SET_CELLS = 144  # cells of a level (12x12) up to which its faces are compared as sets whatever it holds


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

    On a small level (``SET_CELLS``), and on every level where one holds many potions of teleportation or
    paralysis (``SET_POTIONS``), the faces of pathing tiles and items are compared as sets too (``_admit_sets``).
    """

    def __init__(self, campaign: Campaign, d=None) -> None:
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
        # What is known of the potions (``identified``) is left out of the signature (packing.OMITTED): a state
        # knowing more lacks only readings of a scroll of identify that do nothing but discard it, and keeps the
        # scroll, an inert card, instead. A cursed scroll of identify is no inert card: then it is compared.
        self.known = any(c.kind is CardKind.SCROLL and c.cursed and any(a.kind == "identify" for a in c.abilities)
                         for c in cards.values())
        # The hero's poison (turns left) is left out of it too and compared, less dominating, where it only
        # ever hurts: no POISON INSTEAD HEALS on any card or the character (docs/solver.md, *Poison*).
        # Elsewhere it is compared exactly (in ``strict``).
        heals = any(a.kind == "poison-heals" for cid in cards_in_game(campaign) for a in cards[cid].abilities)
        self.poison = not heals
        self.exact = self.known or heals  # something beside the strict cards must be equal
        # Faces as sets: on a level of at most SET_CELLS cells, and on every level once one holds SET_POTIONS
        # potions of teleportation or paralysis or more (where the bound is slackest and lines differ most
        # in the tiles they turned up), a pathing tile or item
        # face up counts as more than face down: the table's key reads them all as face down and an
        # entry keeps which of them are up (bits of the faces read as one integer). On a big level (the open
        # 32x32 map) it would retire the queued line a search dives along (docs/solver.md, *Dominance*).
        self.quiet = 0
        self.tele = False  # a potion of teleportation in the game (see _admit_sets)
        self.plain: tuple = ()  # per level: its face-up plain tiles that are no way out, as bits of the faces
        self.level_bits: tuple = ()  # per level: the bits of ``quiet`` on it
        self.sure: tuple = ()  # per level, with a potion of teleportation in the game: see _admit_sets
        if d is not None:
            slack = {"teleportation", "paralysis"}
            potions = Counter(d.level_of[j] for j, card in enumerate(d.card)
                              if card.kind is CardKind.POTION and d.potions.get(card.colour) in slack)
            self.tele = "teleportation" in d.potions.values() and any(
                c.kind is CardKind.POTION and d.potions.get(c.colour) == "teleportation" for c in cards.values())
            n = len(d.cells)
            if any(k >= SET_POTIONS for k in potions.values()):
                sets = range(n)
            else:  # the small levels' cells only (SET_CELLS)
                sets = [j for lo, hi in d.level_range if hi - lo <= SET_CELLS for j in range(lo, hi)]
            if sets:
                def bits(cells) -> int:
                    return sum(1 << (8 * (n - 1 - j)) for j in cells)

                self.quiet = bits(j for j in sets if d.kind[j] in (PLAIN, PICKUP))
                self.plain = tuple(bits(j for j in range(lo, hi) if d.kind[j] == PLAIN and not d.exit[j])
                                   for lo, hi in d.level_range)
                self.level_bits = tuple(bits(range(lo, hi)) & self.quiet for lo, hi in d.level_range)
                if self.tele:
                    supply = teleportation_supply(campaign, d)
                    self.sure = tuple(2 + min(supply, sum(1 for j in range(lo, hi) if d.kind[j] == ENEMY))
                                      for lo, hi in d.level_range)
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

        An entry is [turn, health, gold, inert cards, alive, signature, face-up pathing tiles and items (0 but
        in ``_admit_sets``), poison (0 where it is compared exactly)]: the signature is the one tuple
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
        if self.exact:
            strict = (strict, s.identified if self.known else 0, 0 if self.poison else s.poison)
        sig = signature(s, strict, faces)
        t, h, g = s.turn, s.health, s.gold
        p = s.poison if self.poison else 0
        if self.quiet:
            # A face-up plain tile beyond the hero's and the enemies moved onto tiles: somewhere to teleport to.
            li = s.level
            return self._admit_sets(sig, faces, t, h, g, p, loose, self.sure[li] if self.tele else 0, self.plain[li],
                                    self.level_bits[li])
        # setdefault: the signature (a long tuple, whose hash Python does not keep) is hashed once.
        fresh = []
        front = self.fronts.setdefault(sig, fresh)
        if front is fresh:
            entry = [t, h, g, loose, True, sig, 0, p]
            fresh.append(entry)
            return entry
        # One pass does both: a front holds no entry dominating another, so if some entry dominates
        # the new state, no entry before it was dominated by the new state (it would be by that
        # entry too), and returning None leaves the front untouched.
        # (``not x or _within(x, y)`` is ``_within(x, y)`` without the call when x holds no inert card.)
        keep = []
        for e in front:
            et, eh, eg, ep = e[0], e[1], e[2], e[7]
            if et <= t and eh >= h and eg >= g and ep <= p and (not loose or _within(loose, e[3])):
                return None
            if t <= et and h >= eh and g >= eg and p <= ep and (not e[3] or _within(e[3], loose)):
                e[4] = False
            else:
                keep.append(e)
        entry = [t, h, g, loose, True, front[0][5], 0, p]  # the front's own signature tuple, not this equal copy
        keep.append(entry)
        front[:] = keep  # in place: no second hash of the signature
        return entry


    def _admit_sets(self, sig: tuple, faces: bytes, t: int, h: int, g: int, p: int, loose: tuple, sure: int,
                    plain: int, here: int) -> list | None:
        """``admit`` with the faces of pathing tiles and items compared as sets (more face up dominates).

        Sound: a face-up pathing tile or item offers every action the face-down one does but the flip,
        whose only effect is to turn it up (a flip outside a fight also forfeits the double move, which
        the signature holds equal); a teleport lands only on a revealed tile, so more face up is more
        choice -- but a potion of teleportation with nowhere to go acts otherwise (the turn ends, or the
        thrown potion does nothing): so with a potion of teleportation in the game a state with fewer tiles
        up is dominated only when it will have somewhere to go for the rest of the level, whatever is played:
        the two differ only on the hero's level (``here``: another level's tiles are teleported to only after
        a ladder back to it) and the one with fewer up has ``sure`` face-up plain tiles that are no way out
        there. A face-up plain tile never turns back; on them stand at most the hero and the enemies a
        potion moved (``visitors``), no more than the level's enemy cards or the potions of teleportation
        in the game (``teleportation_supply``), so ``sure`` is 2 plus the fewer of those (0: no potion of
        teleportation in the game, any faces may differ). The entry keeps its own
        signature (``pack`` rebuilds the state from it); the key is the signature with those faces down.
        """
        quiet = self.quiet
        f = int.from_bytes(faces, "big")
        up = f & quiet
        key = (sig[:FACES], f ^ up, sig[FACES + 1:])  # the same visitors and level for the whole front
        fresh = []
        front = self.fronts.setdefault(key, fresh)
        entry = [t, h, g, loose, True, sig, up, p]
        if front is fresh:
            fresh.append(entry)
            return entry
        keep = []
        for e in front:
            et, eh, eg, eu, ep = e[0], e[1], e[2], e[6], e[7]
            if (et <= t and eh >= h and eg >= g and ep <= p and eu & up == up and (not loose or _within(loose, e[3]))
                    and (eu == up or not sure or ((eu ^ up) & here == eu ^ up and (up & plain).bit_count() >= sure))):
                return None
            if (t <= et and h >= eh and g >= eg and p <= ep and up & eu == eu and (not e[3] or _within(e[3], loose))
                    and (eu == up or not sure or ((eu ^ up) & here == eu ^ up and (eu & plain).bit_count() >= sure))):
                e[4] = False
            else:
                keep.append(e)
        keep.append(entry)
        front[:] = keep
        return entry


def _placed(campaign: Campaign):
    """Every card the campaign places, once per copy: on the cells, in chests, in shops' stock, and in each
    level's starting kit (its items; what it equips with ``equipped``)."""
    for li, level in enumerate(campaign.levels):
        for c in level.cells:
            yield c.card
            yield from c.contents
            yield from c.stock
        yield from campaign.starting_kit(li)[0]


def cards_in_game(campaign: Campaign) -> set[str]:
    """Every card a run of the campaign can meet: the character's, the cells', the chests' and shops', the
    starting kits' (the hero's and each level's)."""
    out = {campaign.hero.character, *_placed(campaign)}
    for li in range(len(campaign.levels)):
        out.update(campaign.starting_kit(li)[1])
    return {cid for cid in out if cid in campaign.cards}


def teleportation_supply(campaign: Campaign, d) -> int:
    """How many potions of teleportation the whole game holds: on the map, in chests, in shops' stock and in
    the starting kits (a bought card leaves the stock for good; a sold one does not come back to it)."""
    tele = {cid for cid, c in campaign.cards.items()
            if c.kind is CardKind.POTION and d.potions.get(c.colour) == "teleportation"}
    return sum(1 for cid in _placed(campaign) if cid in tele)


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

