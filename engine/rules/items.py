"""Items: the hand, equipment, potions, scrolls and the shop ("ITEMS", "Potions", "Scrolls",
"Weapons and Armor", "Artifacts", "The Shop", "GOALS").

A mixin of :class:`~.state.GameState`. The hand is a sorted tuple of card ids;
gold is a number (gold cards and loot); the equipment is a tuple over the slots
head, chest, feet, primary, secondary (a double-handed item fills both hands).
"""

from __future__ import annotations

from ..model.campaign import DIRECTION_INDEX, POTION_COLOURS, SHOPKEEPERS_DEBT, CardKind
from ..words import counted
from .actions import DIRECTION_NAMES, Action
from .events import (
    Equipped,
    PickedUp,
    PotionIdentified,
    PotionUsed,
    ScrollRead,
    Teleported,
    Traded,
)
from .phases import CHOOSE_TELEPORT, COMBAT, SHOPPING
from .tables import CLEARED, PRIMARY, SECONDARY, SHOP_TILE, SLOT_INDEX, UP

DAGGER = "dagger"
NOTHING_EQUIPPED = ("",) * 5
_ACTIONS: dict[tuple[str, str, str], Action] = {}


def _action(verb: str, arg: str = "", arg2: str = "") -> Action:
    """Item actions are interned: legal_actions() is called for every move of a playout."""
    key = (verb, arg, arg2)
    a = _ACTIONS.get(key)
    if a is None:
        a = _ACTIONS[key] = Action(verb, arg, arg2)
    return a


class ItemRules:
    __slots__ = ()

    # ------------------------------------------------------------------ the hand

    def _restat(self) -> None:
        self.stats = self.d.stats_for(self.equip, self.hand)

    def _gain(self, card_id: str) -> None:
        """A card goes to the hand. Gold is counted; an artifact's +X TO MAX HEALTH also adds X health."""
        card = self.d.cards[card_id]
        if card_id == "gold":
            self.gold += card.gold or 0
            self._tell(PickedUp, card.name, card.gold or 0, self.gold)
            return
        self.hand = tuple(sorted(self.hand + (card_id,)))
        self._tell(PickedUp, card.name)
        if card.kind is CardKind.ARTIFACT:
            before = self.max_health
            self._restat()
            gained = self.max_health - before
            if gained > 0:
                self.health += gained
                self._rule("+X TO MAX HEALTH", "+{} TO MAX HEALTH: health {}/{}.", gained, self.health, self.max_health)

    def _drop(self, card_id: str) -> None:
        hand = list(self.hand)
        hand.remove(card_id)
        self.hand = tuple(hand)

    def _potion(self, colour: str, cursed: bool = False) -> str | None:
        """The card id of a potion of that colour in the hand that may be used (drunk or thrown); with ``cursed``, any
        potion of that colour (a cursed one may be identified: that uses nothing)."""
        for c in self.hand:
            card = self.d.cards[c]
            if card.kind is CardKind.POTION and card.colour == colour and (cursed or not card.cursed):
                return c
        return None

    def _item_actions(self, out: list[Action]) -> None:
        d, hand, combat = self.d, self.hand, self.phase == COMBAT
        if hand:
            foes = self.engaged_enemies() if combat or self.phase == SHOPPING else ()
            for c in dict.fromkeys(hand):
                card = d.cards[c]
                kind = card.kind
                if kind is CardKind.POTION and not card.cursed:
                    out.append(_action("drink", card.colour))
                    if card.throwable:
                        out.extend(_action("throw", card.colour, DIRECTION_NAMES[dr]) for dr, _ in foes)
                elif kind is CardKind.SCROLL:
                    self._scroll_actions(c, card, out)
                elif card.slot is not None and self._equipped_with_cached(c) not in (None, self.equip):
                    out.append(_action("equip", c))
        if self.equip != NOTHING_EQUIPPED:
            for c in dict.fromkeys(self.equip):
                if c and not d.cards[c].cursed:
                    out.append(_action("unequip", c))
        if not combat and self.faces[self.pos] == UP and d.kind[self.pos] == SHOP_TILE:
            stock = d.cells[self.pos].stock
            for k, c in enumerate(stock):
                if (self.pos, k) not in self.bought and c not in stock[:k] and self.price(c) <= self.gold:
                    out.append(_action("buy", c))
            for c in dict.fromkeys(hand):
                if self._sellable(c):
                    out.append(_action("sell", c))

    # ------------------------------------------------------------------ equipment

    def _equipped_with_cached(self, card_id: str) -> tuple[str, ...] | None:
        """:meth:`_equipped_with`, remembered per (equipment, card): it reads nothing else of the state."""
        cache = self.d.equip_cache
        key = (self.equip, card_id)
        hit = cache.get(key, cache)
        if hit is cache:
            hit = cache[key] = self._equipped_with(card_id)
        return hit

    def _equipped_with(self, card_id: str) -> tuple[str, ...] | None:
        """The equipment after equipping ``card_id``, or None when a cursed item is in the way.

        One item per slot; a both-hands item (the MAUL) covers the primary and
        secondary hand slots; the rogue (CAN EQUIP A SECOND DAGGER) puts a second
        dagger in the secondary hand slot. An item already there goes back to the hand.
        """
        card = self.d.cards[card_id]
        equip = list(self.equip)
        if card.slot == "both-hands":
            targets = (PRIMARY, SECONDARY)
        elif (card_id == DAGGER and equip[PRIMARY] == DAGGER and equip[SECONDARY] != DAGGER
              and any(a.kind == "second-dagger" for a in self.d.character.abilities)):
            targets = (SECONDARY,)
        else:
            targets = (SLOT_INDEX[card.slot],)
        for t in targets:
            old = equip[t]
            if old:
                if self.d.cards[old].cursed:
                    return None
                for i, c in enumerate(equip):
                    if c == old and (self.d.cards[old].slot == "both-hands" or i == t):
                        equip[i] = ""
        for t in targets:
            equip[t] = card_id
        return tuple(equip)

    def worn(self) -> list[str]:
        """The cards the hero wears, each once as it lies on the equipment card: a both-hands item (the
        MAUL) once, the rogue's second dagger as a second card."""
        return self._worn(self.equip)

    def _worn(self, equip: tuple[str, ...]) -> list[str]:
        """The cards on the equipment card (a both-hands item once)."""
        return [c for i, c in enumerate(equip)
                if c and not (i == SECONDARY and c == equip[PRIMARY] and self.d.cards[c].slot == "both-hands")]

    def _act_equip(self, action: Action) -> bool:
        c = action.arg
        if c not in self.hand or self.d.cards[c].slot is None:
            return False
        equip = self._equipped_with(c)
        if equip is None or equip == self.equip:
            return False
        returned = self._worn(self.equip)
        kept = self._worn(equip)
        kept.remove(c)
        for x in kept:
            returned.remove(x)
        self._drop(c)
        self.hand = tuple(sorted(self.hand + tuple(returned)))
        self.equip = equip
        self.pure = False
        self._restat()
        self._tell(Equipped, self.d.cards[c].name)
        return True

    def _act_unequip(self, action: Action) -> bool:
        c = action.arg
        if c not in self.equip or self.d.cards[c].cursed:
            return False
        equip = list(self.equip)
        if self.d.cards[c].slot == "both-hands":
            equip[PRIMARY] = equip[SECONDARY] = ""
        else:
            equip[len(equip) - 1 - equip[::-1].index(c)] = ""
        self.equip = tuple(equip)
        self.hand = tuple(sorted(self.hand + (c,)))
        self.pure = False
        self._restat()
        self._tell(Equipped, self.d.cards[c].name, False)
        return True

    # ------------------------------------------------------------------ the shop

    def price(self, card_id: str) -> int:
        """BUY: twice the gold amount (project: BUYS AT X GOLD LESS lowers it, never below 0)."""
        gold = self.d.cards[card_id].gold
        if gold is None:
            return 1 << 30
        return max(0, 2 * gold - self.stats.discount)

    def _sellable(self, card_id: str) -> bool:
        """SELL: an item with a gold amount that is not crossed out; cursed items cannot leave the hand."""
        card = self.d.cards[card_id]
        return card.gold is not None and card.sellable and not card.cursed and card.kind is not CardKind.ARTIFACT

    def _on_shop(self) -> bool:
        return self.phase != COMBAT and self.faces[self.pos] == UP and self.d.kind[self.pos] == SHOP_TILE

    def _act_buy(self, action: Action) -> bool:
        if not self._on_shop():
            return False
        stock = self.d.cells[self.pos].stock
        k = next((k for k, c in enumerate(stock) if c == action.arg and (self.pos, k) not in self.bought), -1)
        if k < 0 or self.price(action.arg) > self.gold:
            return False
        price = self.price(action.arg)
        self.gold -= price
        self.bought = tuple(sorted(self.bought + ((self.pos, k),)))
        self.pure = False
        card = self.d.cards[action.arg]
        self._tell(Traded, card.name, price, self.gold)
        if action.arg == SHOPKEEPERS_DEBT:
            self._rule("THE SHOPKEEPER'S DEBT", "THE SHOPKEEPER'S DEBT is bought and removed from the game.")
        else:
            self._gain(action.arg)
        return True

    def _act_sell(self, action: Action) -> bool:
        if not self._on_shop() or action.arg not in self.hand or not self._sellable(action.arg):
            return False
        card = self.d.cards[action.arg]
        self._drop(action.arg)
        self.gold += card.gold
        self.pure = False
        self._tell(Traded, card.name, card.gold, self.gold, True)
        return True

    # ------------------------------------------------------------------ potions

    def _act_drink(self, action: Action) -> bool:
        """POTIONS, if drank. The colour's identity is revealed."""
        c = self._potion(action.arg)
        if c is None:
            return False
        self._drop(c)
        self.pure = False
        effect = self._reveal(action.arg)
        self._tell(PotionUsed, action.arg, effect)
        if effect == "healing":
            if self.health < self.max_health:
                self.health = self.max_health
                self._rule("POTION OF HEALING", "Health restored to {}.", self.health)
            else:
                self._rule("POTION OF HEALING", "Health is not below max: no effect.")
        elif effect == "poison":
            self._poison_player(3, "Potion of poison")
        elif effect in ("strength", "weakness"):
            self.atk_bonus += 1 if effect == "strength" else -1
            self._rule(f"POTION OF {effect.upper()}", "{:+d} to the attack roll ({:+d} in all).",
                       1 if effect == "strength" else -1, self.atk_bonus)
        elif effect == "paralysis":
            self._paralyse_player(1, "Potion of paralysis")
        else:
            self._teleport_choice(-1)
        return True

    def _act_throw(self, action: Action) -> bool:
        """THROW a potion on an adjacent enemy: each potion's "If thrown" effect."""
        c = self._potion(action.arg)
        if c is None or not self.d.cards[c].throwable or (self.phase != COMBAT and self.phase != SHOPPING):
            return False
        e = next((e for dr, e in self.engaged_enemies() if DIRECTION_NAMES[dr] == action.arg2), -1)
        if e < 0:
            return False
        self._begin_combat()
        self._drop(c)
        self.pure = False
        effect = self._reveal(action.arg)
        card = self.d.card[e]
        h, p, z, a = self._foe(e)
        self._tell(PotionUsed, action.arg, effect, card.name)
        rule = f"POTION OF {effect.upper()}"
        if effect == "healing":
            if h < card.health:
                self._rule(rule, "{}: health restored to {}.", card.name, card.health)
            else:
                self._rule(rule, "{}: health is not below max: no effect.", card.name)
            h = card.health
        elif effect == "poison":
            p = max(p, 3)
            self._rule(rule, "{}: poisoned, -1 health before each of its actions for {}.", card.name, counted(p, "turn"))
        elif effect in ("strength", "weakness"):
            # v1.1: "Strength and weakness potion now have same effect when thrown on player or enemy";
            # v1.0 and v1.1 reversed them on an enemy.
            gain = (1 if effect == "strength" else -1) * (1 if self.d.rules.thrown_alike else -1)
            a += gain
            self._rule(rule, "{}: {:+d} to its attack, now {}.", card.name, gain, (card.attack or 0) + a)
        elif effect == "paralysis":
            z = max(z, 1)
            self._rule(rule, "{}: paralysed; it neither attacks nor uses its abilities this turn.", card.name)
        self._set_foe(e, h, p, z, a)
        if effect == "teleportation":
            self._teleport_choice(e)
        return True

    def _reveal(self, colour: str) -> str:
        self.identified |= 1 << POTION_COLOURS.index(colour)
        return self.d.potions[colour]

    def _teleport_choice(self, subject: int) -> None:
        """POTION OF TELEPORTATION: the player picks the pathing tile (``teleport x,y``); none: no effect."""
        if self.teleport_targets():
            self.subject = subject
            self.phase = CHOOSE_TELEPORT
        elif subject < 0:
            self._rule("POTION OF TELEPORTATION", "No pathing tile to teleport to; the turn ends.")
            self._end_turn_now()
        else:
            self._rule("POTION OF TELEPORTATION", "No pathing tile to teleport the enemy to: no effect.")

    def _act_teleport(self, action: Action) -> bool:
        if self.phase != CHOOSE_TELEPORT:
            return False
        x, _, y = action.arg.partition(",")
        j = self.d.index.get((self.level, int(x), int(y)), -1)
        if not self.is_teleport_target(j):
            return False
        subject, self.subject = self.subject, -1
        if subject < 0:
            self._relocate(j, "Teleportation")
            return True
        if self.faces[subject] == UP:
            self.faces[subject] = CLEARED
        else:
            self.visitors = {c: e for c, e in self.visitors.items() if e != subject}
        self.visitors[j] = subject
        self._tell(Teleported, self.d.card[subject].name, (int(x), int(y)))
        self._restore_distant_foes()
        # "If an enemy is teleported adjacent to a player, the same rules apply": it engages next turn. While other
        # enemies fight on this turn, ``waiting`` sets it apart from them (engaged_enemies) until the turn ends or
        # resumes, beside every other enemy thrown there this turn.
        if any(e != subject for _, e in self.engaged_enemies()):
            self.phase = COMBAT
            if j in self.d.near[self.pos]:
                self.waiting = tuple(sorted((*self.waiting, subject)))
        else:
            self._resume_after_combat()
        return True

    # ------------------------------------------------------------------ scrolls

    def _scroll_actions(self, c: str, card, out: list[Action]) -> None:
        kind = card.abilities[0].kind if card.abilities else ""
        if card.cursed and kind != "remove-curses":
            # CURSED: "it cannot be removed from the player's hand, unless a scroll of REMOVE ALL CURSED ITEMS
            # FROM YOUR HAND is played", and a scroll once used "must be discarded": a cursed scroll is not read
            # (a cursed REMOVE ALL YOUR CURSED ITEMS is: playing it is the exception itself).
            return
        if kind == "identify":
            # IDENTIFY AN UNKNOWN ITEM IN YOUR HAND: "the potion will not be used", so a cursed one is identified too
            identified = self.identified
            for i, colour in enumerate(POTION_COLOURS):
                if not identified >> i & 1 and self._potion(colour, cursed=True):
                    out.append(_action("read", c, colour))
        elif kind == "move-adjacent":
            grid = self.d.grid_to[self.pos]
            out.extend(_action("read", c, DIRECTION_NAMES[dr]) for dr in range(4) if grid[dr] >= 0 and self._may_enter(grid[dr]))
        elif kind == "poison-heals":
            if self.poison:
                out.append(_action("read", c))
        elif kind:
            out.append(_action("read", c))

    def _act_read(self, action: Action) -> bool:
        """Scrolls: "can be used anytime during a turn, but once used they must be discarded"."""
        c = action.arg
        if c not in self.hand or self.d.cards[c].kind is not CardKind.SCROLL:
            return False
        legal = []
        self._scroll_actions(c, self.d.cards[c], legal)
        if action not in legal:
            return False
        self._drop(c)
        self.pure = False
        a = self.d.cards[c].abilities[0]
        self._tell(ScrollRead, self.d.cards[c].name)
        if a.kind == "identify":
            self._tell(PotionIdentified, action.arg2, self._reveal(action.arg2))
        elif a.kind == "move-adjacent":
            self._relocate(self.d.grid_to[self.pos][DIRECTION_INDEX[action.arg2]], "MOVE TO ANY ADJACENT TILE")
        elif a.kind == "poison-heals":
            self.antidote = max(self.antidote, a.x)
            self._rule("POISON INSTEAD HEALS", "POISON INSTEAD HEALS +{} HEALTH while the poison lasts.", a.x)
        elif a.kind == "remove-curses":
            self._remove_curses()
        elif a.kind == "max-health":
            self.max_bonus += a.x
            if a.x > 0:
                self.health += a.x
            self._rule("+X TO MAX HEALTH", "{:+d} TO MAX HEALTH: health {}/{}.", a.x, self.health, self.max_health)
        return True

    def _remove_curses(self) -> None:
        """REMOVE ALL YOUR CURSED ITEMS: every cursed card in the hand or equipped is discarded."""
        cursed = {c for c in self.hand + self.equip if c and self.d.cards[c].cursed}
        self.hand = tuple(c for c in self.hand if c not in cursed)
        self.equip = tuple("" if c in cursed else c for c in self.equip)
        self._restat()
        self._rule("REMOVE ALL YOUR CURSED ITEMS", "Discards cursed items: {}.", ", ".join(sorted(cursed)) or "none")

