"""Combat ("TURNS > Combat", "COMBAT TURN SEQUENCE", "FLEEING FROM AN ENEMY", "SLAYING AN ENEMY").

A mixin of :class:`~.state.GameState`. One combat turn:

1. the attack roll, from the attacked enemy card's stream (REROLL TWICE,
   ATTACK AGAIN, ATTACK MISSES and BLOCK are read off its rolls), or one flee
   roll from the picked enemy's stream;
2. each enemy's ability (a DODGES roll of the attacked enemy comes before its
   damage, since it negates it);
3. each enemy's attack, less the hero's -X DAMAGE TAKEN.

Several adjacent enemies: the player picks one for step 1 (the attack, or the
flee roll); steps 2 and 3 are applied for all ("FLEE"). A paralysed enemy neither attacks nor applies combat
effects; BLOCK stops every enemy's damage and abilities for the turn (the
project's reading: "exceptions must always favor the player who is being afflicted").
"""

from __future__ import annotations

from ..model.campaign import DIRECTION_INDEX
from .actions import ATTACK, ATTACK_TOWARD, DIRECTION_NAMES, FLEE, FLEE_FROM, Action
from .events import (
    Attacked,
    AttackTotal,
    CombatBegan,
    Damage,
    Fled,
    FleeTried,
    Heal,
    Roll,
    Slain,
)
from .phases import COMBAT, DONE, SHOPPING
from .tables import CLEARED

BLOCKED, MISSED = 1, 2
# The project's bound on "Repeat until an X is not rolled" (REROLL TWICE, ATTACK AGAIN): one combat
# turn has at most this many attack rolls, so no mix of items makes an attack endless. The format
# refuses a card that alone rerolls on every face (CR227). With the rulebook's cards (REROLL TWICE
# on a 6, on one dagger or on the rogue's two) a chain this long has a chance below 1 in 10^13.
MAX_ATTACK_ROLLS = 1000
BASILISKS = ("basilisk-of-stone", "basilisk-of-venom")


class CombatRules:
    __slots__ = ()

    # ------------------------------------------------------------------ enemies' state

    def _foe(self, e: int) -> tuple[int, int, int, int]:
        """(health, poison turns, paralysed turns, attack modifier) of the enemy whose card started on cell ``e``."""
        f = self.foes.get(e)
        return f if f is not None else (self.d.card[e].health, 0, 0, 0)

    def _set_foe(self, e: int, health: int, poison: int, paralysed: int, attack: int) -> None:
        if health == self.d.card[e].health and not (poison or paralysed or attack):
            self.foes.pop(e, None)
        else:
            self.foes[e] = (health, poison, paralysed, attack)

    def _restore_distant_foes(self) -> None:
        """Leaving combat (a successful flee, a teleport, a move away from an enemy thrown beside the hero): an
        enemy's health is completely restored.

        Project (docs/rules.md, "Enemy poison"): its poison ends too. An enemy only has a
        turn in combat ("before he performs an action"), so one left behind never suffers.
        """
        if not self.foes:
            return
        near = {e for _, e in self.adjacent_enemies()}
        for e, (h, p, z, a) in list(self.foes.items()):
            if e not in near and (p or h != self.d.card[e].health):
                self._set_foe(e, self.d.card[e].health, 0, z, a)

    def _poison_foes(self) -> None:
        """POISON on an enemy: -1 health at the beginning of the turn of the player who poisoned him."""
        for e, (h, p, z, a) in list(self.foes.items()):
            if p:
                self._tell(Damage, self.d.card[e].name, 1, h - 1, self.d.card[e].health, "Poison")
                self._set_foe(e, h - 1, p - 1, z, a)
                if h - 1 <= 0:
                    self._slay(e)

    def _slay(self, e: int) -> None:
        """SLAYING AN ENEMY: its card goes to the hand as loot (gold); a pathing tile remains.

        A boss's card is kept as a trophy (unsellable). THE BASILISKS: both cards in
        one hand are discarded from the game.
        """
        card = self.d.card[e]
        self.foes.pop(e, None)
        self.faces[e] = CLEARED
        if self.visitors:
            for cell, who in list(self.visitors.items()):
                if who == e:
                    del self.visitors[cell]
        if card.kind.value == "boss":
            hand = self.hand + (card.id,)
            if all(b in hand for b in BASILISKS):
                hand = tuple(c for c in hand if c not in BASILISKS)
                self._tell(Slain, card.name, 0, self.gold, True, True)
            else:
                self._tell(Slain, card.name, 0, self.gold, True)
            self.hand = tuple(sorted(hand))
        else:
            self.gold += card.gold or 0
            self._tell(Slain, card.name, card.gold or 0, self.gold)

    # ------------------------------------------------------------------ actions

    def _combat_actions(self) -> list[Action]:
        foes = self.engaged_enemies()
        out = [ATTACK] if len(foes) == 1 else [ATTACK_TOWARD[dr] for dr, _ in foes]
        pickable = [(fr, e) for fr, e in foes if self._may_flee(e)]
        if pickable:
            for dr, j in self.d.neighbours[self.pos]:
                if self._may_enter(j):
                    if len(foes) == 1:
                        out.append(FLEE[dr])
                    else:
                        out.extend(FLEE_FROM[dr][fr] for fr, _ in pickable)
        return out

    def _may_flee(self, picked: int) -> bool:
        """Fleeing with ``picked`` performing step 1 is possible: a die face flees, or it does not chase
        (a CANNOT FLEE hero with no CAN FLEE X flees only an enemy that does not chase or is paralysed)."""
        return bool(self.stats.flee_faces()) or not self._chases(picked)

    def no_flee(self) -> str:
        """Why the hero beside an enemy cannot flee now, in a few words; "" when a flee is possible (or no
        enemy is adjacent). CANNOT FLEE: without a CAN FLEE X, a warrior flees only an enemy that does
        not chase or is paralysed; and a flee needs a free tile to flee to."""
        foes = self.engaged_enemies()
        if not foes:
            return ""
        if not any(self._may_flee(e) for _, e in foes):
            return "CANNOT FLEE"
        if not any(self._may_enter(j) for _, j in self.d.neighbours[self.pos]):
            return "no free tile to flee to"
        return ""

    def _chases(self, e: int) -> bool:
        """DOES NOT CHASE and paralysed enemies are fled without a roll ("PARALYSIS")."""
        if self._foe(e)[2]:
            return False
        return self.d.chases[e]

    def _picked(self, foes: list[tuple[int, int]], toward: str) -> int:
        """The enemy the player picks for step 1: the only one, named without a direction (``attack``), or of
        several the one toward ``toward`` (``attack E``); -1 otherwise. The only one named by its direction is
        refused as :meth:`_combat_actions` never offers it: one choice, one text, so one run has one replay."""
        if len(foes) == 1:
            return -1 if toward else foes[0][1]
        return next((e for dr, e in foes if DIRECTION_NAMES[dr] == toward), -1) if toward else -1

    def one_enemy_form(self, action: Action) -> str:
        """``attack`` for ``attack E`` (``flee S`` for ``flee S E``) when the one enemy engaged is named by its
        direction, the form to write instead; "" for any other action."""
        named = action.arg if action.verb == "attack" else action.arg2 if action.verb == "flee" else ""
        if not named or len(self.engaged_enemies()) != 1:
            return ""
        return "attack" if action.verb == "attack" else f"flee {action.arg}"

    def _begin_combat(self) -> bool:
        """A combat action is taken: after the shop (SHOPPING), step 3 starts combat now. False out of combat."""
        if self.phase == SHOPPING:
            self.phase = COMBAT
            self._tell(CombatBegan, "shop-left")
        return self.phase == COMBAT

    def _act_attack(self, action: Action) -> bool:
        if self.phase != COMBAT and self.phase != SHOPPING:
            return False
        target = self._picked(self.engaged_enemies(), action.arg)
        if target < 0:
            return False
        self._begin_combat()
        self.pure = False
        self.fight = (target, 1, 0, 0, 0, 0)  # target, rolls pending, their total, damage, flags, rolls made
        self._tell(Attacked, self.d.card[target].name)
        self._then((CombatRules._step_attack_roll,))
        return True

    def _act_flee(self, action: Action) -> bool:
        """FLEEING FROM AN ENEMY, one step 1 for all the adjacent enemies.

        FLEE: "The player picks one enemy to perform step 1 of the combat turn sequence, but
        steps 2 and 3 are applied for all enemies": one roll, from the picked enemy's stream
        (``flee S W``: flee south, the enemy west rolls; ``flee S`` when only one is adjacent).
        It flees on 4-6 or a CAN FLEE X. No roll when the picked enemy does not chase (DOES NOT CHASE:
        "a player can flee without needing to roll"; PARALYSIS: "A player may FLEE from a paralyzed
        enemy without needing to roll"), even beside one that would: step 1 is the picked enemy's, and
        "Exceptions must always favor the player who is being afflicted" (OTHER EXCEPTIONS).
        """
        if self.phase != COMBAT and self.phase != SHOPPING:
            return False
        j = self.d.adjacent[self.pos][DIRECTION_INDEX[action.arg]]
        foes = self.engaged_enemies()
        picked = self._picked(foes, action.arg2)
        if j < 0 or picked < 0 or not self._may_enter(j) or not self._may_flee(picked):
            return False
        self._begin_combat()
        self.pure = False
        if self.log is not None:
            self._tell(FleeTried, action.arg, self.d.card[picked].name if len(foes) > 1 else "")
        if self._chases(picked):
            self._need(picked, "flee", CombatRules._roll_flee, j)
        else:
            self._fled(j)
        return True

    def _roll_flee(self, n: int, e: int, j: int) -> None:
        if n in self.stats.flee_faces():
            self._tell(Roll, self.d.card[e].name, n, "flee", "escapes it")
            self._fled(j)
        else:
            self._tell(Roll, self.d.card[e].name, n, "flee", "fails to flee; the enemies act")
            self.fight = (-1, 0, 0, 0, 0, 0)
            self._enemies_act()

    def _fled(self, j: int) -> None:
        """Fled: move away, the enemies' health is restored, and the turn resumes at step 4.

        FLEE: "if a player flips over an enemy, or moves adjacent to another enemy, the player
        reenters combat": landing next to another revealed enemy starts combat at once, as any
        move does (on a shop, after buying and selling).
        """
        self.phase, self.moved, self.pos, self.waiting = DONE, True, j, ()
        if self.log is not None:
            self._tell(Fled, self._tile_name(j), self.d.pos_of[j])
        self._restore_distant_foes()
        self._then((type(self)._step_settle, True))
        self._arrive(j)

    # ------------------------------------------------------------------ the combat turn sequence

    def _step_attack_roll(self) -> None:
        self._need(self.fight[0], "attack roll", CombatRules._roll_attack)

    def _roll_attack(self, n: int, target: int) -> None:
        """Step 1, the ATTACK ROLL, and the ROLLING AN X effects of the hero's equipment.

        REROLL TWICE: the X itself does not count; two more rolls follow (per item
        with the effect), and "attack modifiers are applied to the sum of all rolls
        for that turn". ATTACK AGAIN: the project's reading: one more attack, with
        its own modifiers, added to the damage. The MAX_ATTACK_ROLLS-th roll of the turn is the
        last: it counts as a plain roll, and no more rolls or attacks follow.
        """
        _, pending, total, damage, flags, rolls = self.fight
        st = self.stats
        pending -= 1
        rolls += 1
        last = rolls >= MAX_ATTACK_ROLLS
        if n in st.block:
            flags |= BLOCKED
        if n in st.misses:
            flags |= MISSED
        extra = 0 if last else st.reroll[n]
        name = self.d.card[target].name
        if last:
            pending = 0
            self._rule("ATTACK ROLL LIMIT", "{} attack rolls this turn: the last one.", rolls)
        if extra:
            pending += extra
            if self.log is not None:
                self._tell(Roll, name, n, "attack roll", f"REROLL TWICE, {extra} more rolls")
        else:
            total += n
            self._tell(Roll, name, n, "attack roll")
        if pending:
            self.fight = (target, pending, total, damage, flags, rolls)
            self._then((CombatRules._step_attack_roll,))
            return
        dealt = st.attack_damage(total, self.atk_bonus)
        if self.log is not None:
            self._tell(AttackTotal, dealt, total, st.attack_roll + self.atk_bonus, st.min_attack, st.double_damage)
        damage += dealt
        if n in st.again and not last:
            self._rule("ATTACK AGAIN", "ATTACK AGAIN.")
            self.fight = (target, 1, 0, damage, flags, rolls)
            self._then((CombatRules._step_attack_roll,))
            return
        if flags & MISSED:
            damage = 0
            self._rule("ATTACK MISSES", "ATTACK MISSES: no damage this turn.")
        self.fight = (target, 0, 0, damage, flags, rolls)
        if not flags & BLOCKED and not self._foe(target)[2]:
            dodge = next((a for a in self.d.card[target].abilities if a.kind == "dodge"), None)
            if dodge is not None:
                self._need(target, "dodge", CombatRules._roll_dodge)
                return
        self._strike(target, damage)

    def _roll_dodge(self, n: int, target: int) -> None:
        dodge = next(a for a in self.d.card[target].abilities if a.kind == "dodge")
        damage = self.fight[3]
        if dodge.triggered_by(n):
            self._tell(Roll, self.d.card[target].name, n, "dodge", "DODGES PLAYER'S ATTACK")
            damage = 0
        else:
            self._tell(Roll, self.d.card[target].name, n, "dodge", "no dodge")
        self._strike(target, damage)

    def _strike(self, target: int, damage: int) -> None:
        h, p, z, a = self._foe(target)
        card = self.d.card[target]
        if damage > 0:
            h -= damage
            if self.log is not None:
                self._tell(Damage, card.name, damage, h, card.health)
        else:
            self._rule("ATTACK ROLL", "The attack does nothing.")
        if h <= 0:
            self._slay(target)
        else:
            self._set_foe(target, h, p, z, a)
        if self.fight[4] & BLOCKED:
            self._rule("BLOCK ENEMY'S ATTACK THIS TURN",
                       "BLOCK ENEMY'S ATTACK THIS TURN: the enemies deal no damage and apply no ability.")
            self._then((CombatRules._step_combat_over,))
            return
        self._enemies_act()

    def _enemies_act(self) -> None:
        """Steps 2 and 3 for every enemy still adjacent and able to act."""
        steps = []
        for _, e in self.engaged_enemies():
            if not self._foe(e)[2]:
                steps.append((CombatRules._step_enemy, e, 0, -1))
            else:  # a step of its own, so the log tells it in its turn among the others' (and the key needs no log)
                steps.append((CombatRules._step_paralysed_foe, e))
        steps.append((CombatRules._step_combat_over,))
        self._then(*steps)

    def _step_paralysed_foe(self, e: int) -> None:
        """PARALYSIS: a paralysed enemy neither attacks nor applies combat effects this turn."""
        self._rule("PARALYSIS", "{} is paralysed: it does not act this turn.", self.d.card[e].name)

    def _step_enemy(self, e: int, k: int, doubled: int) -> None:
        """Step 2, apply enemy ability: rolled abilities roll the enemy's stream; the others just apply."""
        abilities = self.d.card[e].abilities
        while k < len(abilities):
            a = abilities[k]
            if a.trigger == "die" and a.kind != "dodge":
                self._need(e, "ability", CombatRules._roll_enemy_ability, k, doubled)
                return
            if a.trigger == "always":
                self._enemy_ability(e, a)
            k += 1
        self._enemy_attack(e, doubled)

    def _roll_enemy_ability(self, n: int, e: int, k: int, doubled: int) -> None:
        a = self.d.card[e].abilities[k]
        name = self.d.card[e].name
        if a.kind == "double-roll-attack":
            doubled = 2 * n
            if self.log is not None:
                self._tell(Roll, name, n, "ability", f"ATTACK IS DOUBLE THE ROLL ({doubled})")
        elif a.triggered_by(n):
            if self.log is not None:
                self._tell(Roll, name, n, "ability", str(a))
            self._enemy_ability(e, a)
        else:
            self._tell(Roll, name, n, "ability", "no effect")
        if self.outcome is None:
            self._step_enemy(e, k + 1, doubled)

    def _enemy_ability(self, e: int, a) -> None:
        card = self.d.card[e]
        if a.kind == "poison":
            self._poison_player(a.y, card.name)
        elif a.kind == "paralyze":
            self._paralyse_player(a.y, card.name, ends_turn=False)
        elif a.kind == "heals":
            h, p, z, atk = self._foe(e)
            if h < card.health:
                h = min(card.health, h + a.x)
                self._set_foe(e, h, p, z, atk)
                self._tell(Heal, card.name, a.x, h, card.health)

    def _enemy_attack(self, e: int, doubled: int) -> None:
        """Step 3, enemy attacks: attack (or double the roll, plus the card's attack) less damage taken."""
        card = self.d.card[e]
        attack = (card.attack or 0) + self._foe(e)[3] + (doubled if doubled >= 0 else 0)
        damage = attack - self.stats.damage_taken
        if damage <= 0:
            if self.log is not None:
                self._rule("-X DAMAGE TAKEN", "{} attacks for {}: no damage taken.", card.name, max(attack, 0))
            return
        # The reason is only ever logged: no formatting when the log is off.
        self._hurt(damage, f"{card.name} attacks for {attack}" if self.log is not None else "")

    def _step_combat_over(self) -> None:
        """The combat turn ends the turn unless every adjacent enemy is slain."""
        self.fight = None
        if self._engaged():
            self._end_turn_now()
        else:
            self._resume_after_combat()
