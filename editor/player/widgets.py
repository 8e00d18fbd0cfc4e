"""The play screen's widgets: the board (Line API), the hero and enemy panels, the action menu.

Widgets read a :class:`~cardrogue.engine.rules.state.GameState` handed down by the
screen (``show(state)``) and talk upward with messages; none of them changes
the game.
"""

from __future__ import annotations

from rich.console import Group
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual import events
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from cardrogue.engine.rules.actions import Action
from cardrogue.engine.rules.tables import (
    CHEST_TILE,
    CLEARED,
    DOWN,
    ENEMY,
    FOUNTAIN_TILE,
    LADDER,
    PICKUP,
    SHOP_TILE,
    SLOTS,
    TRAP,
    UP,
)
from cardrogue.engine.model.campaign import POTION_COLOURS, STARTING_TILE, CardKind
from cardrogue.engine.printable import printable

from ..shown import text as shown_text

DIRECTION_WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}
DELTA = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}

# Action menu filters: the key that opens them, their label and the verbs they show.
FILTERS: dict[str, tuple[str, frozenset[str]]] = {
    "all": ("all", frozenset()),
    "attack": ("attack", frozenset({"attack", "throw"})),
    "flee": ("flee", frozenset({"flee"})),
    "use": ("use", frozenset({"drink", "throw", "read", "spell", "teleport"})),
    "equip": ("equip", frozenset({"equip", "unequip"})),
    "shop": ("shop", frozenset({"buy", "sell"})),
}


def in_filter(action: Action, name: str) -> bool:
    verbs = FILTERS[name][1]
    return not verbs or action.verb in verbs


# --------------------------------------------------------------------------- reading the state


def level_of(state):
    return state.campaign.levels[state.level]


def cell_index(state, x: int, y: int) -> int | None:
    return state.d.index.get((state.level, x, y))


def foe_health(state, e: int) -> tuple[int, int, int, int]:
    """(health, poison turns, paralysed turns, attack modifier) of an enemy (``GameState.foes``)."""
    return state.foes.get(e) or (state.d.card[e].health, 0, 0, 0)


def tile_name(state, i: int) -> str:
    return "Pathing Tile" if state.faces[i] == CLEARED else state.d.card[i].name


def card_label(state, i: int) -> str:
    """At most 7 characters naming what a revealed cell shows."""
    d = state.d
    e = state.enemy_at(i)
    if e >= 0:
        return _short(d.card[e].name)
    if d.exit[i]:
        return "EXIT"
    if state.faces[i] == CLEARED:
        return ""
    card = d.card[i]
    if card.id == STARTING_TILE:
        return "Start"
    if card.kind is CardKind.POTION:
        return "Potion"
    if card.kind is CardKind.TILE:
        return _TILE_LABELS.get(d.kind[i], "")
    return _short(card.name)


_TILE_LABELS = {SHOP_TILE: "Shop", FOUNTAIN_TILE: "Fountn", CHEST_TILE: "Chest", LADDER: "Ladder"}


def _short(name: str) -> str:
    name = printable(name).removeprefix("The ")
    return name if len(name) <= 7 else name.split()[0][:7]


def describe(action: Action, state) -> str:
    """A few words saying what an action does, for the action menu."""
    v, a, b = action
    d = state.d
    if v == "flip":
        return f"reveal the card {DIRECTION_WORDS[a]}"
    if v in ("move", "flee", "spell"):
        x, y = state.position
        dx, dy = DELTA[a]
        j = cell_index(state, x + dx, y + dy)
        where = tile_name(state, j) if j is not None else "?"
        return {"move": "move", "flee": "flee", "spell": "spell: move"}[v] + f" {DIRECTION_WORDS[a]} to {where}"
    if v == "attack":
        foes = state.adjacent_enemies()
        e = next((e for dr, e in foes if not a or "NESW"[dr] == a), foes[0][1] if foes else -1)
        return f"attack roll on {d.card[e].name}" if e >= 0 else "attack roll"
    if v in ("drink", "throw"):
        known = state.identified >> POTION_COLOURS.index(a) & 1
        effect = d.potions[a] if known else "unknown"
        if v == "drink":
            return f"drink the {a} potion ({effect})"
        return f"throw the {a} potion ({effect}) {DIRECTION_WORDS[b]}"
    if v in ("equip", "unequip"):
        card = d.cards[a]
        return f"{v} {card.name} ({card.slot})"
    if v == "buy":
        return f"buy {d.cards[a].name} for {state.price(a)} gold"
    if v == "sell":
        return f"sell {d.cards[a].name} for {d.cards[a].gold} gold"
    if v == "read":
        target = f" on the {b} potion" if b in POTION_COLOURS else f" toward {DIRECTION_WORDS[b]}" if b else ""
        return f"read {d.cards[a].name}{target}"
    if v == "teleport":
        x, _, y = a.partition(",")
        j = cell_index(state, int(x), int(y))
        return f"teleport to {tile_name(state, j) if j is not None else '?'} at {a}"
    return "end the turn"


# --------------------------------------------------------------------------- the board

CELL_W, CELL_H = 9, 3

_KIND_STYLE = {
    ENEMY: Style(color="red", bold=True),
    TRAP: Style(color="dark_orange"),
    PICKUP: Style(color="green"),
    SHOP_TILE: Style(color="cyan", bold=True),
    FOUNTAIN_TILE: Style(color="bright_blue", bold=True),
    CHEST_TILE: Style(color="yellow", bold=True),
    LADDER: Style(color="bright_white", bold=True),
}
_BACK = Style(color="#3a5f8a")
_BACK_FLIP = Style(color="yellow", bold=True)
_EDGE = Style(color="#8a8a8a")
_EDGE_MOVE = Style(color="bright_green", bold=True)
_EDGE_FOE = Style(color="bright_red", bold=True)
_EDGE_TELEPORT = Style(color="magenta", bold=True)
_HERO = Style(color="black", bgcolor="yellow", bold=True)
_EXIT = Style(color="bright_green", bold=True)
_BOSS = Style(color="magenta", bold=True)
_POTION_COLOURS = {"red": "red", "blue": "dodger_blue1", "green": "green", "yellow": "yellow",
                   "purple": "medium_purple", "orange": "dark_orange"}


class BoardView(ScrollView, can_focus=True):
    """The level's grid of cards, drawn line by line: card backs for face-down cells (fog of war).

    Each card is CELL_W x CELL_H characters: a thick mark on an edge is a path;
    an enemy shows its health on its lower edge. Tiles the hero can move to are
    outlined green, cards he can flip yellow, enemies he fights red.
    """

    class CellClicked(Message):
        def __init__(self, x: int, y: int) -> None:
            super().__init__()
            self.x, self.y = x, y

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._lines: list[Strip] = []
        self._hero_region = Region(0, 0, 0, 0)

    def show(self, state) -> None:
        level = level_of(state)
        self._lines = self._draw(state)
        self.virtual_size = Size(level.width * CELL_W, level.height * CELL_H)
        x, y = state.position
        self._hero_region = Region(x * CELL_W, y * CELL_H, CELL_W, CELL_H)
        self.refresh()
        self.call_after_refresh(self.scroll_to_region, self._hero_region, animate=False, force=True)

    def _draw(self, state) -> list[Strip]:
        level = level_of(state)
        legal = {str(a) for a in state.legal_actions()}
        hx, hy = state.position
        teleport = {a.removeprefix("teleport ") for a in legal if a.startswith("teleport ")}
        foes = {e for _, e in state.adjacent_enemies()}
        rows: list[list[Segment]] = [[] for _ in range(level.height * CELL_H)]
        for y in range(level.height):
            for x in range(level.width):
                parts = self._card(state, x, y, hx, hy, legal, teleport, foes)
                for k in range(CELL_H):
                    rows[y * CELL_H + k].extend(parts[k])
        return [Strip(segments, level.width * CELL_W) for segments in rows]

    def _card(self, state, x, y, hx, hy, legal, teleport, foes) -> list[list[Segment]]:
        i = cell_index(state, x, y)
        blank = " " * CELL_W
        if i is None:
            return [[Segment(blank, Style())] for _ in range(CELL_H)]  # a style even when blank: NO_COLOR filters every segment's
        dx, dy = x - hx, y - hy
        toward = next((dr for dr, (ddx, ddy) in DELTA.items() if (ddx, ddy) == (dx, dy)), None)
        if state.faces[i] == DOWN:
            style = _BACK_FLIP if toward and f"flip {toward}" in legal else _BACK
            inner = "░" * (CELL_W - 2)
            return [[Segment("┌" + "─" * (CELL_W - 2) + "┐", style)], [Segment("│" + inner + "│", style)],
                    [Segment("└" + "─" * (CELL_W - 2) + "┘", style)]]
        paths = state.d.cells[i].paths
        e = state.enemy_at(i)
        if f"{x},{y}" in teleport:
            edge = _EDGE_TELEPORT
        elif e >= 0 and e in foes:
            edge = _EDGE_FOE
        elif toward and (f"move {toward}" in legal or f"flee {toward}" in legal or f"spell {toward}" in legal):
            edge = _EDGE_MOVE
        else:
            edge = _EDGE
        half = (CELL_W - 3) // 2
        top = "╭" + "─" * half + ("┃" if "N" in paths else "─") + "─" * half + "╮"
        bottom_mid = ("┃" if "S" in paths else "─")
        left = "━" if "W" in paths else "│"
        right = "━" if "E" in paths else "│"
        label = card_label(state, i)
        if e >= 0:
            card = state.d.card[e]
            label_style = _BOSS if card.kind is CardKind.BOSS else _KIND_STYLE[ENEMY]
            health = f"♥{foe_health(state, e)[0]}"[:half]
            bottom = "╰" + health.ljust(half, "─") + bottom_mid + "─" * half + "╯"
        else:
            bottom = "╰" + "─" * half + bottom_mid + "─" * half + "╯"
            card = state.d.card[i]
            if state.d.exit[i]:
                label_style = _EXIT
            elif card.kind is CardKind.POTION and state.faces[i] != CLEARED:
                label_style = Style(color=_POTION_COLOURS.get(card.colour or "", "green"), bold=True)
            elif state.faces[i] == CLEARED:
                label_style = Style()
            else:
                label_style = _KIND_STYLE.get(state.d.kind[i], Style(dim=True))
        width = CELL_W - 2
        if (x, y) == (hx, hy):
            text = ("@ " + label)[:width] if label else "@"
            middle = [Segment(left, edge), Segment(text.center(width), _HERO), Segment(right, edge)]
        else:
            middle = [Segment(left, edge), Segment(label.center(width)[:width], label_style), Segment(right, edge)]
        return [[Segment(top, edge)], middle, [Segment(bottom, edge)]]

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.size.width
        line = y + scroll_y
        if line >= len(self._lines):
            return Strip.blank(width, self.rich_style)
        return self._lines[line].crop_extend(scroll_x, scroll_x + width, self.rich_style)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)  # None on the border
        if offset is None:
            return
        scroll_x, scroll_y = self.scroll_offset
        self.post_message(self.CellClicked((offset.x + scroll_x) // CELL_W, (offset.y + scroll_y) // CELL_H))


# --------------------------------------------------------------------------- the panels


def _bar(value: int, top: int, width: int = 12, colour: str = "green") -> Text:
    top = max(top, 1)
    filled = max(0, min(width, round(width * value / top)))
    return Text.assemble(("█" * filled, colour), ("░" * (width - filled), "grey35"))


class HeroPanel(Static):
    """Health and max, attack modifier, gold, turn and par, equipment, hand, effects, known potions."""

    def show(self, state) -> None:
        d, campaign = state.d, state.campaign
        level = level_of(state)
        grid = Table.grid(padding=(0, 1))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column()
        par = f" (par {campaign.par.turns})" if campaign.par else ""
        grid.add_row("Turn", f"{state.turn}{par}")
        grid.add_row("Level", shown_text(f"{state.level + 1}/{len(campaign.levels)} {level.title or level.id}"))
        colour = "green" if state.health > state.max_health // 3 else "red"
        grid.add_row("Health", Text.assemble(_bar(state.health, state.max_health, colour=colour),
                                             f" {state.health}/{state.max_health}"))
        grid.add_row("Attack", f"{state.stats.attack_roll + state.atk_bonus:+d} (attack roll)")
        grid.add_row("Gold", str(state.gold))
        if level.goals:
            mark = Text("✓ ", "green") if state.goals_met() else Text("✗ ", "red")
            grid.add_row("Goals", mark + shown_text(", ".join(g.text() for g in level.goals)))
        grid.add_row("Here", shown_text(tile_name(state, state.pos)))
        if state.faces[state.pos] == UP and d.kind[state.pos] == SHOP_TILE:
            stock = Text()
            for k, card_id in enumerate(d.cells[state.pos].stock):
                sold = (state.pos, k) in state.bought
                style = "dim strike" if sold else "" if state.price(card_id) <= state.gold else "dim"
                stock.append(printable(f"{d.cards[card_id].name} {state.price(card_id)}g"), style)
                stock.append("\n")
            stock.rstrip()
            grid.add_row("Stock", stock)

        gear = Table.grid(padding=(0, 1))
        gear.add_column(style="dim", no_wrap=True)
        gear.add_column()
        for slot, card_id in zip(SLOTS, state.equip):
            gear.add_row(slot, shown_text(d.cards[card_id].name) if card_id else Text("—", "dim"))

        hand = Text()
        counts: dict[str, int] = {}
        for card_id in state.hand:
            counts[card_id] = counts.get(card_id, 0) + 1
        for card_id, n in counts.items():
            card = d.cards[card_id]
            line = shown_text(card.name + (f" ×{n}" if n > 1 else ""))
            if card.kind is CardKind.POTION and card.colour:
                known = state.identified >> POTION_COLOURS.index(card.colour) & 1
                line.append(f" ({d.potions[card.colour] if known else '?'})", "dim")
            if card.cursed:
                line.append(" cursed", "red")
            hand.append_text(line)
            hand.append("\n")
        hand.rstrip()

        effects = []
        if state.poison:
            effects.append(Text(f"Poisoned: {state.poison} turn(s)", "magenta"))
        if state.antidote:
            effects.append(Text(f"Antidote: poison heals +{state.antidote}", "green"))
        if state.paralysed:
            effects.append(Text(f"Paralysed: {state.paralysed} turn(s) to skip", "yellow"))
        if state.atk_bonus:
            effects.append(Text(f"Potion: {state.atk_bonus:+d} to the attack roll", "cyan"))
        if state.stats.spell_cooldown:
            effects.append(Text(f"Spell cooldown: {state.cooldown} turn(s)" if state.cooldown else "Spell ready"))

        known = [f"{c}: {d.potions[c]}" for i, c in enumerate(POTION_COLOURS) if state.identified >> i & 1]

        parts: list = [shown_text(d.character.name, "bold yellow"), grid, Text("Equipment", "bold underline"), gear,
                       Text("Hand", "bold underline"), hand if counts else Text("empty", "dim")]
        if effects:
            parts += [Text("Effects", "bold underline"), *effects]
        parts += [Text("Potions known", "bold underline"), Text("\n".join(known) if known else "none", "" if known else "dim")]
        self.update(Group(*parts))


class EnemyPanel(Static):
    """Every enemy on an ADJACENT TILE: health, attack, abilities and conditions."""

    def show(self, state) -> None:
        foes = state.adjacent_enemies()
        self.display = bool(foes)
        if not foes:
            self.update("")
            return
        self.border_title = "In combat" if state.in_combat else "Enemy"
        parts = []
        for dr, e in foes:
            card = state.d.card[e]
            health, poison, paralysed, attack = foe_health(state, e)
            parts.append(Text.assemble(shown_text(card.name, "bold red"), f"  ({DIRECTION_WORDS['NESW'[dr]]})"))
            parts.append(Text.assemble(_bar(health, card.health, colour="red"), f" {health}/{card.health}"))
            parts.append(Text(f"Attack {(card.attack or 0) + attack}"))
            for ability in card.abilities:
                parts.append(shown_text(str(ability), "italic"))
            if poison:
                parts.append(Text(f"Poisoned: {poison} turn(s)", "magenta"))
            if paralysed:
                parts.append(Text(f"Paralysed: {paralysed} turn(s)", "yellow"))
        self.update(Group(*parts))


class ActionMenu(OptionList):
    """The legal actions by their text form, optionally filtered by category (attack, flee, use, ...)."""

    class Chosen(Message):
        def __init__(self, action: Action) -> None:
            super().__init__()
            self.action = action

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.filter = "all"

    def show(self, state, name: str | None = None) -> int:
        """List the legal actions in filter ``name`` (default: keep the current one); returns how many."""
        if name is not None:
            self.filter = name
        actions = [a for a in dict.fromkeys(state.legal_actions()) if in_filter(a, self.filter)]
        self.clear_options()
        self.add_options(Option(Text.assemble(shown_text(str(a), "bold"), "  ", shown_text(describe(a, state), "dim")), id=str(a))
                         for a in actions)
        if actions:
            self.highlighted = 0
        label = FILTERS[self.filter][0]
        self.border_title = "Actions" if self.filter == "all" else f"Actions: {label}"
        return len(actions)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Chosen(Action.parse(event.option.id)))
