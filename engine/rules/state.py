"""The game state of a story-mode run, and the turn sequences ("TURNS").

:class:`GameState` follows python-chess and OpenSpiel: ``legal_actions()`` in a
stable order, ``apply(action)``, ``clone()``, a hashable ``key()``. Dice are
explicit chance points: when a roll is due, ``state.chance`` names the card
instance whose stream rolls and why, and the caller answers with
``apply_roll(n)`` (see :mod:`.play` for fated, random and enumerated answers).

Inside, the rules run as a small stack of pending steps (``todo``): a step that
needs a die stores its continuation in ``awaiting`` and stops, so a state in the
middle of a combat turn is an ordinary value that can be cloned and hashed.

This module holds the turn machinery, exploration and the tiles; the combat
turn sequence is in :mod:`.combat`, items, the shop and potions in :mod:`.items`.
"""

from __future__ import annotations

import sys
from array import array
from typing import Callable

from ..model.campaign import DIRECTION_INDEX, KEY, Campaign, CardKind
from .actions import END, FLIP, MOVE, SPELL, Action, ActionError, Chance
from .combat import CombatRules
from .fields import NAMES, clone_function, key_function
from .items import NOTHING_EQUIPPED, ItemRules
from .phases import CHOOSE_TELEPORT, COMBAT, DEAD, DONE, MOVING, SHOPPING, STEP1, WON
from .view import StateView
from .events import (
    Arrived,
    CombatBegan,
    Damage,
    Died,
    Event,
    Flipped,
    Heal,
    LevelEntered,
    Moved,
    Paralysed,
    Poisoned,
    PracticeStart,
    Relocated,
    Roll,
    RuleApplied,
    TurnBegan,
    TurnEnded,
    TurnSkipped,
    Victory,
)
from .tables import (
    ARTIFACT,
    CHEST_TILE,
    CLEARED,
    DOWN,
    ENEMY,
    FOUNTAIN_TILE,
    LADDER,
    PICKUP,
    PLAIN,
    SHOP_TILE,
    TRAP,
    UP,
    Dungeon,
)

_DUNGEONS: dict[int, tuple[Campaign, Dungeon]] = {}


def dungeon_for(campaign: Campaign) -> Dungeon:
    """The compiled tables of a campaign, built once per campaign object."""
    entry = _DUNGEONS.get(id(campaign))
    if entry is None or entry[0] is not campaign:
        if len(_DUNGEONS) > 64:
            _DUNGEONS.clear()
        entry = _DUNGEONS[id(campaign)] = (campaign, Dungeon(campaign))
    return entry[1]


class GameState(CombatRules, ItemRules):
    """One moment of a story-mode run (single player, rules 1.1.2, 1.1 or 1.0: engine/model/versions.py)."""

    # Every field, with how clone() and key() treat it, is listed once in .fields.
    __slots__ = NAMES

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(cls, campaign: Campaign, level: int | str = 0, log: bool = True) -> "GameState":
        """The first turn of the campaign (or of one level, for practice), hero at the starting tile.

        The level's ``hero`` (practice scenarios) replaces the campaign hero's items and equipment,
        and sets his health and the tile he starts on.
        """
        d = dungeon_for(campaign)
        if isinstance(level, str):
            index = campaign.level_index(level)
            if index is None:
                raise ValueError(f"no level {level!r}")
            level = index
        s = object.__new__(cls)
        s.d, s.log = d, ([] if log else None)
        s.level, s.pos = level, d.level_start[level]
        s.gold, s.turn, s.hand, s.equip = 0, 1, (), ("",) * 5
        s.atk_bonus = s.max_bonus = s.poison = s.antidote = s.paralysed = s.cooldown = 0
        s.faces = bytearray(d.initial_faces)
        s.draws = ()
        s.foes, s.visitors, s.bought, s.identified = {}, {}, (), 0
        s.pending_level, s.deferred, s.subject, s.waiting = -1, False, -1, ()
        s.todo, s.awaiting, s.chance, s.fight, s.outcome = (), None, None, None, None
        override = campaign.levels[level].hero
        items, equipped = campaign.starting_kit(level)
        if override is not None and override.at is not None:
            s.pos = d.index[(level, *override.at)]
        hand = []
        for card_id in items:
            card = d.cards[card_id]
            if card_id == "gold" or card.kind is CardKind.ENEMY:
                s.gold += card.gold or 0
            else:
                hand.append(card_id)
        s.hand = tuple(sorted(hand))
        for card_id in equipped:
            s.equip = s._equipped_with(card_id)
        s._restat()
        s.health = s.max_health if override is None or override.health is None else override.health
        s._tell(TurnBegan, 1, d.character.name, campaign.levels[level].title or campaign.levels[level].id)
        if override is not None:
            s._tell(PracticeStart, s.health, s.max_health, d.pos_of[s.pos])
        s._start_phase()
        return s

    # clone() and key() are generated from .fields.FIELDS below the class (plain code, no loop:
    # the solver calls both once per generated state).
    clone: Callable[["GameState"], "GameState"]
    key: Callable[["GameState"], tuple]

    def _draw_counts(self) -> bytes:
        """The dice drawn from every cell's stream, as the checkpoints of replays hash them: a 32-bit
        count per cell in cell order, zeros included (the layout checkpoints have always hashed), little-endian
        whatever the machine's order: run ids and checkpoints hash these bytes, and must be the same everywhere
        (tests/test_replay.py pins a run id)."""
        counts = array("I", bytes(4 * len(self.d.cells)))
        for cell, n in self.draws:
            counts[cell] = n
        if sys.byteorder == "big":
            counts.byteswap()
        return counts.tobytes()

    def rolls_drawn(self, cell: int) -> int:
        """How many dice the stream of the card that started on ``cell`` has produced in this run."""
        for c, n in self.draws:
            if c == cell:
                return n
        return 0

    def _drawn(self, cell: int) -> None:
        """One more die from ``cell``'s stream (``draws`` is immutable, so clones share it)."""
        draws = self.draws
        for k, (c, n) in enumerate(draws):
            if c >= cell:
                after = k + 1 if c == cell else k
                self.draws = (*draws[:k], (cell, n + 1 if c == cell else 1), *draws[after:])
                return
        self.draws = (*draws, (cell, 1))

    # ------------------------------------------------------------------ reading the state

    @property
    def campaign(self) -> Campaign:
        return self.d.campaign

    @property
    def max_health(self) -> int:
        """MAX HEALTH: 10 (or the character's), plus +X / -X TO MAX HEALTH from cards and scrolls."""
        return self.d.base_max_health + self.stats.max_health + self.max_bonus

    @property
    def position(self) -> tuple[int, int]:
        return self.d.pos_of[self.pos]

    @property
    def in_combat(self) -> bool:
        return self.phase == COMBAT

    def is_terminal(self) -> bool:
        return self.outcome is not None

    @property
    def score(self) -> tuple[int, int]:
        """(turns, health): fewer turns is better, then more health (DESIGN: Score)."""
        return self.turn, self.health

    def view(self) -> "StateView":
        """The read-only, typed view of this state that screens, tools and tests read (see :mod:`.view`)."""
        return StateView(self)

    def summary(self) -> dict:
        """What a player sees of the hero and the run, as plain values (for the CLI and tools)."""
        v = StateView(self)
        hero = v.hero
        return {
            "turn": v.turn, "outcome": v.outcome, "level": v.level.id, "at": list(hero.at),
            "health": hero.health, "max_health": hero.max_health, "gold": hero.gold,
            "attack_modifier": hero.attack_modifier,
            "hand": list(hero.hand), "equipped": {slot: c for slot, c in hero.equipment if c},
            "poisoned": hero.poison, "paralysed": hero.paralysed, "spell_wait": hero.spell_wait,
            "in_combat": v.in_combat,
            "enemies": [{"card": f.card.id, "at": list(f.at), "health": f.health, "max_health": f.max_health,
                         "attack": f.attack, "poisoned": f.poison, "paralysed": f.paralysed,
                         "adjacent": f.direction is not None} for f in v.revealed_foes],
            "identified": dict(v.known_potions),
        }

    def face(self, x: int, y: int, level: int | None = None) -> int | None:
        """DOWN, UP or CLEARED for the cell at x,y (None: no card there)."""
        i = self.d.index.get((self.level if level is None else level, x, y))
        return None if i is None else self.faces[i]

    def _tile_name(self, i: int) -> str:
        """A cell's name as the log gives it: its card, or a pathing tile once cleared."""
        return "Pathing Tile" if self.faces[i] == CLEARED else self.d.card[i].name

    def enemy_at(self, i: int) -> int:
        """The enemy standing on cell ``i`` (its card's original cell index), or -1."""
        if self.faces[i] == UP and self.d.kind[i] == ENEMY:
            return i
        if self.visitors:
            return self.visitors.get(i, -1)
        return -1

    def adjacent_enemies(self) -> list[tuple[int, int]]:
        """(direction, enemy) for every enemy on an ADJACENT TILE, in N, E, S, W order."""
        out = []
        faces, kind, visitors = self.faces, self.d.kind, self.visitors
        for dr, j in self.d.neighbours[self.pos]:
            if faces[j] == UP and kind[j] == ENEMY:
                out.append((dr, j))
            elif visitors and j in visitors:
                out.append((dr, visitors[j]))
        return out

    def engaged_enemies(self) -> list[tuple[int, int]]:
        """(direction, enemy) for every enemy in combat with the hero: those on an ADJACENT TILE but those a thrown
        potion of teleportation set there during this combat turn (``waiting``). TELEPORTING OR MOVING TO A TILE, BUT
        TURN IS ENDED: "enemies do not attack him ... until the beginning of that player's turn. If an enemy is
        teleported adjacent to a player, the same rules apply"."""
        out = self.adjacent_enemies()
        waiting = self.waiting
        if waiting:
            out = [f for f in out if f[1] not in waiting]
        return out

    def revealed_enemies(self) -> list[tuple[int, int]]:
        """(cell, enemy) for every revealed enemy on the hero's level, where it stands now, in cell order."""
        lo, hi = self.d.level_range[self.level]
        faces, kind = self.faces, self.d.kind
        out = [(i, i) for i in range(lo, hi) if faces[i] == UP and kind[i] == ENEMY]
        if self.visitors:
            out = sorted(out + [(c, e) for c, e in self.visitors.items() if lo <= c < hi])
        return out

    def _engaged(self) -> bool:
        """``bool(self.engaged_enemies())`` without building the list (asked after every move and flip)."""
        faces = self.faces
        for j in self.d.enemy_near[self.pos]:
            if faces[j] == UP:
                return True
        visitors = self.visitors
        if visitors:
            waiting = self.waiting  # enemies teleported here this combat turn engage next turn (engaged_enemies)
            for j in self.d.near[self.pos]:
                e = visitors.get(j)
                if e is not None and e not in waiting:
                    return True
        return False

    def goals_met(self, level: int | None = None) -> bool:
        """Level goals (slay / open / buy) are all met (DESIGN: Campaign)."""
        li = self.level if level is None else level
        for goal in self.d.goal_cells[li]:
            if not self.goal_met(goal, li):
                return False
        return True

    def goal_met(self, goal: tuple[str, str, tuple[int, ...]], level: int) -> bool:
        """One goal of ``level`` (an entry of ``Dungeon.goal_cells``: verb, card, its cells) is met
        (DESIGN: Campaign): ``buy``, the card was bought at a shop of the level; ``slay``, an enemy of
        the card was slain on its own cell (not one a teleport moved there); ``open``, a chest of the card
        was opened. The one test of a goal: :meth:`goals_met` and the playouts' gold-first policy ask it."""
        verb, card, cells = goal
        if verb == "buy":
            d = self.d
            lo, hi = d.level_range[level]
            return any(lo <= c < hi and d.cells[c].stock[k] == card for c, k in self.bought)
        faces = self.faces
        if verb == "slay":
            moved = set(self.visitors.values())
            return any(faces[i] == CLEARED and i not in moved for i in cells)
        return any(faces[i] == CLEARED for i in cells)

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[Action]:
        """Every action the player may choose now, in a stable order (empty at a chance point or the end)."""
        if self.outcome is not None or self.chance is not None:
            return []
        phase = self.phase
        if phase == CHOOSE_TELEPORT:
            pos_of, kept = self.d.pos_of, _TELEPORTS
            return [kept.get(pos_of[j]) or _teleport_action(pos_of[j]) for j in self.teleport_targets()]
        d, pos, faces = self.d, self.pos, self.faces
        # Called for every move of a playout and every state the solver expands: the flips and moves
        # are written out here (``_may_enter`` inlined, the level's goals read once, only if needed).
        out = []
        if phase == STEP1 or phase == COMBAT:
            for dr, j in d.flips[pos]:
                if faces[j] == DOWN:
                    out.append(FLIP[dr])
        if phase == COMBAT or phase == SHOPPING:
            out.extend(self._combat_actions())
        elif (phase == STEP1 or phase == MOVING) and (
                # "If the only action taken by the player was to move ... he may repeat his turn from
                # step 2" (v1.1.2 only): a move is left, or the repeat is.
                self.moves > 0 or (self.pure and not self.repeated and d.rules.double_move)):
            kind, exits, visitors, goals = d.kind, d.exit, self.visitors, None
            for dr, j in d.neighbours[pos]:
                face = faces[j]
                if face == DOWN or (visitors and j in visitors):
                    continue
                if face == UP:
                    k = kind[j]
                    if k == ENEMY or (k == CHEST_TILE and KEY not in self.hand):
                        continue
                    if k == LADDER or exits[j]:
                        if goals is None:
                            goals = self.goals_met()
                        if not goals:
                            continue
                elif exits[j]:
                    if goals is None:
                        goals = self.goals_met()
                    if not goals:
                        continue
                out.append(MOVE[dr])
        if self.stats.spell_cooldown and not self.cooldown:
            grid = d.grid_to[pos]
            out.extend(SPELL[dr] for dr in range(4) if grid[dr] >= 0 and self._may_enter(grid[dr]))
        if self.hand or self.equip != NOTHING_EQUIPPED or d.kind[pos] == SHOP_TILE:
            self._item_actions(out)
        if phase != COMBAT and phase != SHOPPING:
            out.append(END)
        return out

    def _may_enter(self, j: int) -> bool:
        """A revealed tile the hero may stand on: no enemy, a chest only with the key, goals before ladders and exits."""
        face = self.faces[j]
        if face == DOWN:
            return False
        if face == UP:
            kind = self.d.kind[j]
            if kind == ENEMY or (kind == CHEST_TILE and KEY not in self.hand):
                return False
            if kind == LADDER and not self.goals_met():
                return False
        if self.visitors and j in self.visitors:  # an enemy a potion of teleportation moved here
            return False
        return not (self.d.exit[j] and not self.goals_met())

    # ------------------------------------------------------------------ applying actions

    def apply(self, action: Action | str) -> None:
        """Apply one legal action; raises :class:`ActionError` if it is not legal now."""
        if isinstance(action, str):
            action = Action.parse(action)
        if self.outcome is not None:
            raise ActionError("the run is over")
        if self.chance is not None:
            raise ActionError(f"a die is due ({self.chance.purpose}); use apply_roll")
        handler = _HANDLERS.get(action.verb)
        if (self.phase == CHOOSE_TELEPORT) != (action.verb == "teleport") or handler is None or not handler(self, action):
            form = self.one_enemy_form(action)
            raise ActionError(f"{action} is not legal now" + (f": one enemy is engaged, write {form!r}" if form else ""))
        if self.todo:  # most actions finish their steps at once
            self._run()

    def apply_roll(self, n: int) -> None:
        """Answer the pending chance point with the die face ``n`` (1..6)."""
        if self.chance is None:
            raise ActionError("no die is due")
        if not 1 <= n <= 6:
            raise ActionError(f"a d6 shows 1 to 6, not {n}")
        self._answer(n)

    def _answer(self, n: int) -> None:
        """The pending chance point rolled ``n``: one more die from its card's stream, then the rules go on."""
        fn, args = self.awaiting
        self._drawn(args[0])
        self.awaiting = self.chance = None
        fn(self, n, *args)
        self._run()

    def advance(self, action: Action, resolver) -> None:
        """:meth:`step` for an action taken from this very state's :meth:`legal_actions`.

        The search's path: it skips the checks :meth:`apply` and :meth:`apply_roll` make on
        outside input (parsing, the run being over, a die being due, legality, the die's range),
        which an action the state itself listed and a resolver's roll always pass.
        """
        _HANDLERS[action.verb](self, action)
        if self.todo:
            self._run()
        while self.chance is not None:
            self._answer(resolver.roll(self))

    def step(self, action: Action | str, resolver) -> None:
        """Apply an action, then answer every chance point with ``resolver`` until the player must choose."""
        self.apply(action)
        self.resolve(resolver)

    def resolve(self, resolver) -> None:
        while self.chance is not None:
            self.apply_roll(resolver.roll(self))

    def _need(self, cell: int, purpose: str, fn, *args) -> None:
        """Stop at a chance point: a die from ``cell``'s stream; ``fn(self, roll, cell, *args)`` continues."""
        self.awaiting = (fn, (cell, *args))
        self.chance = Chance(self.d.instance[cell], purpose, self.rolls_drawn(cell))

    def _then(self, *steps: tuple) -> None:
        """Schedule steps to run in the given order, before anything already pending."""
        self.todo = self.todo + steps[::-1]

    def _run(self) -> None:
        todo = self.todo
        while todo and self.chance is None and self.outcome is None:
            step = todo[-1]
            self.todo = todo[:-1]
            if len(step) == 1:
                step[0](self)
            else:
                step[0](self, *step[1:])
            todo = self.todo

    def _tell(self, event: type[Event], *args) -> None:
        """Log an event (built only when the state keeps a log)."""
        if self.log is not None:
            self.log.append(event(*args))

    def _rule(self, rule: str, sentence: str, *args) -> None:
        """Log that ``rule`` applied; ``sentence`` is formatted with ``args`` only when the state keeps a log."""
        if self.log is not None:
            self.log.append(RuleApplied(rule, sentence.format(*args) if args else sentence))

    # ------------------------------------------------------------------ the hero's health

    def _heal(self, amount: int, why: str) -> None:
        """Healing never exceeds max health; above max it has no effect ("-X TO MAX HEALTH", "MAX HEALTH")."""
        top = self.max_health
        if self.health >= top:
            self._tell(Heal, "", 0, self.health, top, why, True)
            return
        self.health = min(top, self.health + amount)
        self._tell(Heal, "", amount, self.health, top, why, True)

    def _hurt(self, amount: int, why: str) -> None:
        self.health -= amount
        if self.log is not None:
            self._tell(Damage, self.d.character.name, amount, self.health, self.max_health, why, True)
        if self.health <= 0:
            self._die(why)

    def _die(self, why: str) -> None:
        """DEATH: in story mode death ends the run (DESIGN: Decisions 3)."""
        self.outcome = DEAD
        self.todo, self.phase = (), DONE
        self._tell(Died, self.d.character.name, why)

    def _poison_player(self, turns: int, why: str) -> None:
        """POISON: a new poison replaces the old only when it lasts longer."""
        if turns > self.poison:
            self.poison = turns
        self._tell(Poisoned, why, self.poison)

    def _paralyse_player(self, turns: int, why: str, ends_turn: bool = True) -> None:
        """PARALYSIS: ends the current turn and loses turns.

        v1.1 and v1.1.2 ("Paralysis now ends the player's turn, and skips his next turn"):
        the turn ends and ``turns`` turns are skipped. v1.0 ("ends his turn OR
        loses a turn"): when the paralysis ends the player's own turn, that lost
        turn is the first of ``turns``.
        """
        skipped = turns - 1 if not self.d.rules.paralysis_skips and ends_turn else turns
        self.paralysed = max(self.paralysed, skipped)
        self._tell(Paralysed, why, self.paralysed)
        if ends_turn:
            self._end_turn_now()

    # ------------------------------------------------------------------ turn sequence

    def _end_turn_now(self) -> None:
        """The turn ends at once: whatever else this turn would have done is dropped."""
        self.todo = _END_TURN
        self.phase = DONE

    def _step_end_turn(self) -> None:
        """End of the player's turn: MUST KILL WITHIN A SINGLE TURN resets, enemies' paralysis wears off, an enemy
        teleported next to the hero this turn will engage from the next."""
        self.fight = None
        self.waiting = ()
        if self.foes:
            one_turn_kill = self.d.one_turn_kill
            for e, (h, p, z, a) in list(self.foes.items()):
                card = self.d.card[e]
                if h < card.health and one_turn_kill[e]:
                    self._rule("MUST KILL WITHIN A SINGLE TURN", "{} was not slain within the turn: health back to {}.",
                               card.name, card.health)
                    h = card.health
                self._set_foe(e, h, p, max(z - 1, 0), a)
        # The next turn begins at once: nothing above can need a die or end the run.
        self._step_begin_turn()

    def _step_begin_turn(self) -> None:
        """Start of a turn: poison, the fountain, tiles reached when the last turn had ended, paralysis."""
        self.turn += 1
        if self.log is not None:
            self.log.append(TurnBegan(self.turn))
        if self.pending_level >= 0:
            self.level, self.pos, self.pending_level = self.pending_level, self.d.level_start[self.pending_level], -1
            title = self.campaign.levels[self.level]
            self._tell(LevelEntered, title.title or title.id)
        if self.cooldown:
            self.cooldown -= 1
        if self.poison:
            heals = self.antidote or self.stats.poison_heals
            self.poison -= 1
            if heals:
                self._heal(heals, "POISON INSTEAD HEALS")
            else:
                self._hurt(1, "Poison")
            if not self.poison:
                self.antidote = 0
            if self.outcome is not None:
                return
        if self.foes:
            self._poison_foes()
        # The fountain, then the turn proper; a tile reached when the last turn ended acts first.
        if self.deferred:
            self.deferred = False
            self.todo = self.todo + _TURN_STARTS + ((GameState._step_arrive, self.pos),)
        elif self.faces[self.pos] == UP and self.d.kind[self.pos] == FOUNTAIN_TILE:
            self.todo = self.todo + _TURN_STARTS
        else:
            self._step_start()  # no die can be due before it: the turn proper begins now

    def _step_fountain(self) -> None:
        """The fountain of healing: at the start of the turn, roll; 1-5 heal 2, a 6 drains it."""
        if self.faces[self.pos] == UP and self.d.kind[self.pos] == FOUNTAIN_TILE:
            self._need(self.pos, "fountain", GameState._roll_fountain)

    def _roll_fountain(self, n: int, cell: int) -> None:
        if n == 6:
            self.faces[cell] = CLEARED
            self._tell(Roll, "The fountain", 6, "fountain", "the fountain is drained and becomes a pathing tile")
        else:
            amount = 2 + self.stats.fountain_bonus
            self._heal(amount, f"The fountain's stream rolls {n}: fountain of healing")

    def _step_start(self) -> None:
        """The player's turn proper begins, unless paralysis skips it (a skipped turn still counts)."""
        if self.paralysed:
            self.paralysed -= 1
            self._tell(TurnSkipped, self.turn)
            self._end_turn_now()
            return
        self._start_phase()

    def _start_phase(self) -> None:
        self.moves = 1 + self.stats.movement
        self.pure, self.repeated, self.moved = True, False, False
        if self._engaged():
            self.phase = COMBAT
            self._tell(CombatBegan, "turn", self.no_flee() if self.log is not None else "")
        else:
            self.phase = STEP1

    def _step_settle(self, moved_here: bool = False) -> None:
        """Step 3, interact: moving, flipping or fleeing next to an enemy starts combat now.

        A hero who moved (or fled) onto a shop first has step 2's "If he moves onto a SHOP, he
        may BUY and SELL with the shopkeeper": the SHOPPING phase, until an attack, a flee or a
        throw begins combat. (DONE is reached here only by a flee: "moves adjacent to another
        enemy, the player reenters combat".)
        """
        phase = self.phase
        if (phase == STEP1 or phase == MOVING or phase == DONE) and self._engaged():
            self.pure = False
            if moved_here and self.faces[self.pos] == UP and self.d.kind[self.pos] == SHOP_TILE:
                self.phase = SHOPPING
                self._tell(CombatBegan, "shop", self.no_flee() if self.log is not None else "")
            else:
                self.phase = COMBAT
                self._tell(CombatBegan, "step")

    def _resume_after_combat(self) -> None:
        """SLAYING AN ENEMY: resume at step 2 if the hero has not moved this turn, else at step 4.

        The enemies teleported next to him this turn are no longer set apart (``waiting``): he leaves them by his next
        move (a tile next to his is never next to one), and moving back next to one is moving next to an enemy."""
        self.phase = DONE if self.moved else MOVING
        self.waiting = ()

    # ------------------------------------------------------------------ exploration

    def _act_flip(self, action: Action) -> bool:
        """Standard turn sequence, step 1: flip a face-down card at the end of one of the tile's paths."""
        if self.phase != STEP1 and self.phase != COMBAT:
            return False
        dr = DIRECTION_INDEX[action.arg]
        j = self.d.flip_to[self.pos][dr]
        if j < 0 or self.faces[j] != DOWN:
            return False
        self.faces[j] = UP
        self.pure = False
        kind = self.d.kind[j]
        if self.log is not None:
            self._tell(Flipped, action.arg, self._tile_name(j), self.d.pos_of[j])
        if kind == TRAP:
            self._then((GameState._step_trap, j), (GameState._step_settle,))
            return True
        if kind == ARTIFACT and self.d.adjacent[self.pos][dr] == j:
            # ADJACENT TILE: "Players may not ... pick up cards that are not on an adjacent tile";
            # an artifact with no path back stays face up until the hero moves onto it.
            self._take_card(j)
        # Step 3 next: at once when nothing else is pending (what _run would do next anyway).
        if self.todo or self.chance is not None or self.outcome is not None:
            self.todo = self.todo + _SETTLE
        else:
            self._step_settle()
        return True

    def _act_move(self, action: Action) -> bool:
        """Standard turn sequence, step 2: move onto an ADJACENT TILE (twice when only moving, +X MOVEMENT)."""
        phase = self.phase
        if (phase != STEP1 and phase != MOVING) or not (
                self.moves > 0 or (self.pure and not self.repeated and self.d.rules.double_move)):
            return False
        dr = DIRECTION_INDEX[action.arg]
        j = self.d.adjacent[self.pos][dr]
        if j < 0 or not self._may_enter(j):
            return False
        if self.moves:
            self.moves -= 1
        else:
            self.repeated = True
            self.moves = self.stats.movement
            self._rule("REPEAT TURN", "The hero has only moved this turn, so may move again: the turn repeats from step 2.")
        self.phase, self.moved, self.pos = MOVING, True, j
        if self.foes:  # an enemy thrown beside him and walked away from is left behind as a fled one is
            self._restore_distant_foes()
        if self.log is not None:
            self._tell(Moved, action.arg, self._tile_name(j), self.d.pos_of[j])
        self.todo = self.todo + _SETTLE_MOVED
        self._arrive(j)
        # Step 3 at once when the tile scheduled nothing before it (what _run would do next anyway).
        if self.todo is _SETTLE_MOVED and self.chance is None and self.outcome is None:
            self.todo = ()
            self._step_settle(True)
        return True

    def _step_arrive(self, j: int) -> None:
        """Arrival on a tile reached by teleportation or MOVE TO ANY ADJACENT TILE, at the start of the turn."""
        if self.log is not None:
            self._tell(Arrived, self._tile_name(j), self.d.pos_of[j])
        self._arrive(j)

    def _arrive(self, j: int) -> None:
        """Step 2 outcomes: exit, trap, potion or item picked up, chest opened, ladder taken."""
        d = self.d
        if d.exit[j]:
            self.outcome = WON
            self.todo = ()
            self._tell(Victory, self.turn, self.health)
            return
        if self.faces[j] != UP:
            return
        kind = d.kind[j]
        if kind == TRAP:
            self.pure = False
            self._then((GameState._step_trap, j))
        elif kind == PICKUP or kind == ARTIFACT:
            self.pure = False
            self._take_card(j)
        elif kind == CHEST_TILE:
            self.pure = False
            self._open_chest(j)
        elif kind == LADDER:
            self.pending_level = d.ladder_to[j]
            self._rule("DESCENDING LADDER", "Takes the descending ladder; the turn ends.")
            self._end_turn_now()

    def _take_card(self, j: int) -> None:
        """An artifact (when flipped) or a potion or item (when moved onto) goes to the hand; a pathing tile remains."""
        self.faces[j] = CLEARED
        self._gain(self.d.card[j].id)

    def _open_chest(self, j: int) -> None:
        """THE CHEST AND KEY: the key is discarded and the chest's contents go to the hand."""
        hand = list(self.hand)
        hand.remove(KEY)
        self.hand = tuple(hand)
        self.faces[j] = CLEARED
        self._rule("THE CHEST AND KEY", "Opens the chest with the key.")
        for card_id in self.d.cells[j].contents:
            self._gain(card_id)
        self._restat()

    def _step_trap(self, j: int) -> None:
        """TRAP: triggered when flipped or stepped on; ROLL A DIE: IF X: CAN AVOID TRAP rolls the trap's stream."""
        if self.stats.avoid_trap:
            self._need(j, "trap", GameState._roll_trap)
        else:
            self._trap_effect(j)

    def _roll_trap(self, n: int, j: int) -> None:
        if n in self.stats.avoid_trap:
            self._tell(Roll, self.d.card[j].name, n, "trap", "CAN AVOID TRAP, the trap has no effect")
        else:
            self._tell(Roll, self.d.card[j].name, n, "trap", "the trap is not avoided")
            self._trap_effect(j)

    def _trap_effect(self, j: int) -> None:
        card = self.d.card[j]
        for a in card.abilities:
            if a.kind == "lose-health":
                self._hurt(a.x, card.name)
            elif a.kind == "poison":
                self._poison_player(a.y, card.name)
            elif a.kind == "paralyze":
                self._paralyse_player(a.y, card.name)
            if self.outcome is not None:
                return

    def _act_end(self, action: Action) -> bool:
        if self.phase == COMBAT or self.phase == CHOOSE_TELEPORT or self.phase == SHOPPING:
            return False
        if self.log is not None:
            self.log.append(TurnEnded(self.turn))
        self.phase = DONE
        self._step_end_turn()  # nothing is pending at a choice, and ending the turn needs no die
        return True

    def _relocate(self, j: int, why: str) -> None:
        """Teleporting or moving to a tile, but turn is ended (Exceptional Rules): the tile acts next turn."""
        self.pos, self.deferred = j, True
        if self.log is not None:
            self._tell(Relocated, why, self._tile_name(j), self.d.pos_of[j])
        self._restore_distant_foes()
        self._end_turn_now()

    def _act_spell(self, action: Action) -> bool:
        """Project: the mage's SPELL: MOVE TO ANY ADJACENT TILE, then COOLDOWN: N TURNS."""
        if not self.stats.spell_cooldown or self.cooldown:
            return False
        j = self.d.grid_to[self.pos][DIRECTION_INDEX[action.arg]]
        if j < 0 or not self._may_enter(j):
            return False
        self.cooldown = self.stats.spell_cooldown + 1
        self._relocate(j, "Spell")
        return True

    def teleport_targets(self) -> list[int]:
        """The tiles of the level a potion of teleportation may send the hero to (:meth:`is_teleport_target`):
        the choice offered lists them, and the tile chosen is held to the same test."""
        lo, hi = self.d.level_range[self.level]
        return [j for j in range(lo, hi) if self.is_teleport_target(j)]

    def is_teleport_target(self, j: int) -> bool:
        """POTION OF TELEPORTATION: any revealed pathing tile of the level with no enemy and no hero on it; an
        exit only once the level's goals are met (read only for an exit). The one rule, read of ``j`` alone."""
        d = self.d
        lo, hi = d.level_range[self.level]
        if not lo <= j < hi or j == self.pos:
            return False
        f = self.faces[j]
        # (an enemy card face up is no pathing tile: ``enemy_at`` is then only a visitor)
        if f == DOWN or (f == UP and d.kind[j] != PLAIN):
            return False
        visitors = self.visitors
        if visitors and visitors.get(j, -1) >= 0:
            return False
        return not d.exit[j] or bool(self.goals_met())


_TELEPORTS: dict = {}  # (x, y) -> the action ``teleport x,y``, made once (a choice lists every tile face up)


def _teleport_action(xy: tuple[int, int]) -> Action:
    action = _TELEPORTS[xy] = Action("teleport", f"{xy[0]},{xy[1]}")
    return action


# Steps scheduled on every turn, built once (``todo`` holds them as they are: the same tuples).
_END_TURN = ((GameState._step_end_turn,),)
_TURN_STARTS = ((GameState._step_start,), (GameState._step_fountain,))  # a stack: the fountain runs first
_SETTLE = ((GameState._step_settle,),)
_SETTLE_MOVED = ((GameState._step_settle, True),)

GameState.clone = clone_function(GameState)
GameState.clone.__doc__ = "An independent copy (its log copied too); its ``key()`` equals this state's."
GameState.key = key_function()
GameState.key.__doc__ = "A canonical hashable value of everything that affects the future (not the log)."

_HANDLERS = {
    "flip": GameState._act_flip,
    "move": GameState._act_move,
    "attack": GameState._act_attack,
    "flee": GameState._act_flee,
    "drink": GameState._act_drink,
    "throw": GameState._act_throw,
    "equip": GameState._act_equip,
    "unequip": GameState._act_unequip,
    "buy": GameState._act_buy,
    "sell": GameState._act_sell,
    "read": GameState._act_read,
    "spell": GameState._act_spell,
    "teleport": GameState._act_teleport,
    "end": GameState._act_end,
}
