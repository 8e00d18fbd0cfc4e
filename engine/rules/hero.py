"""The hero's standing abilities: character traits, equipped items and held artifacts, summed.

"Weapons and Armor": a property applies only while the item is equipped.
"Artifacts > Properties of an artifact": effects apply as long as the player has the artifact.
The engine recomputes :class:`Stats` only when the equipment or the artifacts in
hand change, and caches it by that combination.
"""

from __future__ import annotations

from typing import Iterable

from ..model.campaign import CardDef


class Stats:
    """Everything the rules read off the hero's cards, in rulebook terms."""

    __slots__ = (
        "max_health", "attack_roll", "damage_taken", "movement", "min_attack", "double_damage",
        "block", "reroll", "misses", "again", "can_flee", "cannot_flee", "avoid_trap",
        "discount", "fountain_bonus", "poison_heals", "spell_cooldown", "_flee",
    )

    def __init__(self, cards: Iterable[CardDef]) -> None:
        self.max_health = 0  # +X / -X TO MAX HEALTH
        self.attack_roll = 0  # +X / -X TO ATTACK ROLL
        self.damage_taken = 0  # -X DAMAGE TAKEN, stacked
        self.movement = 0  # +X MOVEMENT. MUST BE OUT OF COMBAT
        self.min_attack = 0  # MIN. ATTACK: X (the best one)
        self.double_damage = False
        self.block: frozenset[int] = frozenset()  # ROLLING AN X: BLOCK ENEMY'S ATTACK THIS TURN
        self.reroll: tuple[int, ...] = (0,) * 7  # face -> extra rolls (ROLLING AN X: REROLL TWICE), per item
        self.misses: frozenset[int] = frozenset()  # ROLLING AN X: ATTACK MISSES
        self.again: frozenset[int] = frozenset()  # ROLLING AN X: ATTACK AGAIN
        self.can_flee: frozenset[int] = frozenset()  # ROLL A DIE: IF X: CAN FLEE
        self.cannot_flee = False  # project: WARRIOR
        self.avoid_trap: frozenset[int] = frozenset()  # ROLL A DIE: IF X: CAN AVOID TRAP
        self.discount = 0  # project: BUYS AT X GOLD LESS
        self.fountain_bonus = 0  # project: FOUNTAINS HEAL +X MORE
        self.poison_heals = 0  # POISON INSTEAD HEALS +X HEALTH as a standing trait
        self.spell_cooldown = 0  # project: SPELL: MOVE TO ANY ADJACENT TILE. COOLDOWN: N TURNS (0: no spell)
        reroll = [0] * 7
        for card in cards:
            for a in card.abilities:
                self._add(a, reroll)
        self.reroll = tuple(reroll)
        # Stats never change once built (they are cached by equipment): the flee faces are worked out once.
        self._flee = self.can_flee if self.cannot_flee else self.can_flee | {4, 5, 6}

    def _add(self, a, reroll: list[int]) -> None:
        kind, x = a.kind, a.x or 0
        faces = a.on or frozenset(range(1, 7))
        if kind == "max-health":
            self.max_health += x
        elif kind == "attack-roll":
            self.attack_roll += x
        elif kind == "damage-taken":
            self.damage_taken += x
        elif kind == "movement":
            self.movement += x
        elif kind == "min-attack":
            self.min_attack = max(self.min_attack, x)
        elif kind == "double-damage":
            self.double_damage = True
        elif kind == "block":
            self.block |= faces
        elif kind == "reroll-twice":
            for f in faces:
                reroll[f] += 2
        elif kind == "attack-misses":
            self.misses |= faces
        elif kind == "attack-again":
            self.again |= faces
        elif kind == "can-flee":
            self.can_flee |= faces
        elif kind == "cannot-flee":
            self.cannot_flee = True
        elif kind == "avoid-trap":
            self.avoid_trap |= faces
        elif kind == "shop-discount":
            self.discount += x
        elif kind == "fountain-heals":
            self.fountain_bonus += x
        elif kind == "poison-heals":
            self.poison_heals = max(self.poison_heals, x)
        elif kind == "spell":
            self.spell_cooldown = x

    def flee_faces(self) -> frozenset[int]:
        """The rolls that flee a chasing enemy ("FLEE"; "ROLL A DIE: IF X: CAN FLEE").

        A warrior (CANNOT FLEE) flees only by rolling an item's X; everyone else on 4, 5, 6 or X.
        """
        return self._flee

    def attack_damage(self, total: int, bonus: int = 0) -> int:
        """The damage of one attack whose rolls sum to ``total`` ("ATTACK ROLL", Exceptional Rules).

        MIN. ATTACK and DOUBLE DAMAGE come first, the ATTACK ROLL modifier last
        ("ATTACK ROLL MODIFIER + OTHER ATTACK MODIFIERS"); ``bonus`` is the part of the
        modifier that comes from potions rather than cards. Where MIN. ATTACK and a
        -X modifier conflict, "the meaning that gives the greatest advantage to the
        player is applied": the minimum is also a floor of the final damage.
        An attack of 0 or less does nothing.
        """
        base = max(total, self.min_attack)
        if self.double_damage:
            base *= 2
        damage = base + self.attack_roll + bonus
        if self.min_attack and damage < self.min_attack:
            damage = self.min_attack
        return damage if damage > 0 else 0
