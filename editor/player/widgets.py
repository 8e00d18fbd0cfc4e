"""The play screen's widgets: the board (Line API), the hero and enemy panels, the action menu.

Widgets read the :class:`~cardrogue.engine.rules.view.StateView` of the run handed
down by the screen (``show(view)``) and talk upward with messages; none of them
changes the game, and none reads the engine's inner tables.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual import events
from textual.actions import parse as parse_action
from textual.binding import Binding
from textual.content import Content
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import OptionList, RichLog, Static
from textual.widgets.option_list import Option

from cardrogue.engine.model.campaign import POTION_COLOURS, STARTING_TILE, CardKind, Direction
from cardrogue.engine.rules.actions import Action
from cardrogue.engine.rules.view import CellView, Face, Foe, StateView, Tile
from cardrogue.engine.printable import printable
from cardrogue.engine.words import counted, place_text

from ..shown import content, text as shown_text

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


# --------------------------------------------------------------------------- reading the view


def card_label(cell: CellView, width: int = 7) -> str:
    """At most ``width`` characters naming what a revealed cell shows."""
    if cell.enemy is not None:
        return _short(cell.enemy.name, width)
    if cell.exit:
        return "EXIT"
    if cell.face is Face.CLEARED:
        return ""
    card = cell.card
    if card.id == STARTING_TILE:
        return "Start"
    if card.kind is CardKind.POTION:
        return "Potion" if width < 12 else _short(card.name, width)
    if card.kind is CardKind.TILE:
        return _TILE_LABELS.get(cell.tile, "") if width < 12 else _short(card.name, width)
    return _short(card.name, width)


_TILE_LABELS = {Tile.SHOP: "Shop", Tile.FOUNTAIN: "Fountn", Tile.CHEST: "Chest", Tile.LADDER: "Ladder"}


def _short(name: str, width: int = 7) -> str:
    name = printable(name).removeprefix("The ")
    return name if len(name) <= width else name.split()[0][:width]


def foe_attack(foe: Foe) -> str:
    """An enemy's attack as the fight will strike: its number, or for ROLL A DIE: ATTACK IS DOUBLE THE ROLL (the
    golem, whose card says attack 0) the range the roll gives, twice a die's 1 to 6 on top of that number."""
    if any(a.kind == "double-roll-attack" for a in foe.card.abilities):
        return f"{foe.attack + 2}–{foe.attack + 12}"
    return str(foe.attack)


def _place(cell: CellView | None) -> str:
    """A destination by its card's name, and "the exit" when it is the level's exit."""
    if cell is None:
        return "?"
    return f"{cell.name}, the exit" if cell.exit else cell.name


def describe(action: Action, view: StateView) -> str:
    """A few words saying what an action does, for the action menu."""
    v, a, b = action
    if v == "flip":
        return f"flip the card {Direction(a).word}"
    if v in ("move", "flee", "spell"):
        where = _place(view.next_to(a))
        text = {"move": "move", "flee": "flee", "spell": "spell: move"}[v] + f" {Direction(a).word} to {where}"
        picked = next((f for f in view.foes if f.direction == b), None) if v == "flee" and b else None
        return text + f", {picked.name} rolls" if picked is not None else text
    if v == "attack":
        foes = view.foes
        foe = next((f for f in foes if not a or f.direction == a), foes[0] if foes else None)
        return f"attack roll on {foe.name}" if foe is not None else "attack roll"
    if v in ("drink", "throw"):
        effect = view.potion(a) or "unknown"
        if v == "drink":
            return f"drink the {a} potion ({effect})"
        return f"throw the {a} potion ({effect}) {Direction(b).word}"
    if v in ("equip", "unequip"):
        card = view.card(a)
        return f"{v} {card.name} ({card.slot})"
    if v == "buy":
        return f"buy {view.card(a).name} for {view.price(a)} gold"
    if v == "sell":
        return f"sell {view.card(a).name} for {view.card(a).gold} gold"
    if v == "read":
        target = f" on the {b} potion" if b in POTION_COLOURS else f" toward {Direction(b).word}" if b else ""
        return f"read {view.card(a).name}{target}"
    if v == "teleport":
        x, _, y = a.partition(",")
        return f"teleport to {_place(view.cell(int(x), int(y)))} at {place_text(int(x), int(y))}"
    return "end the turn"


# --------------------------------------------------------------------------- the board

CELL_W, CELL_H = 9, 3  # a card on the board
LARGE_W, LARGE_H = 15, 5  # when the level fits at this size: full names, an enemy's health and attack

# Magenta as itself: Textual draws the ANSI colours through its theme, and in the default one (Monokai) ANSI
# magenta and bright magenta are the very red of an enemy (244, 0, 95). A teleport target, a boss, poison
# and an inscription must not look like a fight or a wound (tests/test_player.py).
MAGENTA = "#ff5fff"

_KIND_STYLE = {
    Tile.ENEMY: Style(color="red", bold=True),
    Tile.TRAP: Style(color="dark_orange"),
    Tile.ITEM: Style(color="green"),
    Tile.SHOP: Style(color="cyan", bold=True),
    Tile.FOUNTAIN: Style(color="bright_blue", bold=True),
    Tile.CHEST: Style(color="yellow", bold=True),
    Tile.LADDER: Style(color="bright_white", bold=True),
}
_BACK = Style(color="#3a5f8a")
_BACK_FLIP = Style(color="yellow", bold=True)
_EDGE = Style(color="#8a8a8a")
_EDGE_MOVE = Style(color="bright_green", bold=True)
_EDGE_FOE = Style(color="bright_red", bold=True)
_EDGE_TELEPORT = Style(color=MAGENTA, bold=True)
_EDGE_PICK = Style(color=MAGENTA, bold=True, reverse=True)  # the destination the arrows picked (Enter: go there)
_HERO = Style(color="black", bgcolor="yellow", bold=True)
_EXIT = Style(color="bright_green", bold=True)
_BOSS = Style(color=MAGENTA, bold=True)
# On a small card a potion is labelled "Potion": its colour alone tells the bottles apart. Yellow as itself
# (#ffd700): the theme draws ANSI yellow orange (253, 151, 31), next to the orange potion's (255, 135, 0).
_POTION_COLOURS = {"red": "red", "blue": "dodger_blue1", "green": "green", "yellow": "#ffd700",
                   "purple": "medium_purple", "orange": "dark_orange"}


class BoardView(ScrollView, can_focus=True, inherit_bindings=False):
    """The level's grid of cards, drawn line by line: card backs for face-down cells (fog of war).

    It takes none of a scrolling view's keys: the arrows are the hero's (the screen's bindings), and the
    view follows him. With them, on a level larger than the board an arrow scrolled the view and the hero
    never moved.

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
        self.cell_w, self.cell_h = CELL_W, CELL_H
        self.pick: tuple[int, int] | None = None  # the teleport destination picked (the screen sets it), in view

    def fit(self, view: StateView, width: int, height: int) -> None:
        """Large cards (full names, an enemy's health and attack) when the level fits them in
        ``width`` x ``height`` cells (the room the screen gives the board), else the small ones."""
        level = view.level
        large = level.width * LARGE_W + 2 <= width and level.height * LARGE_H + 2 <= height
        size = (LARGE_W, LARGE_H) if large else (CELL_W, CELL_H)
        if size != (self.cell_w, self.cell_h):
            self.cell_w, self.cell_h = size
            self.show(view)
        else:  # the board's room changed: the hero kept in view (his first follow, asked for at start-up, may
            self.call_after_refresh(self._follow_hero)  # have been dropped: Textual drops it before the app runs)

    def show(self, view: StateView) -> None:
        level = view.level
        w, h = self.cell_w, self.cell_h
        self._lines = self._draw(view)
        self.virtual_size = Size(level.width * w, level.height * h)
        x, y = view.position
        self._hero_region = Region(x * w, y * h, w, h)
        self.refresh(layout=True)
        self.call_after_refresh(self._follow_hero)

    def _follow_hero(self) -> None:
        """The hero's card in view, and the cards around it (what he can flip, fight or move to) when the
        board has the room: following his card alone showed an enemy he fought one card east as "━━Ba"."""
        hero = self._hero_region
        around = hero.grow((self.cell_h, self.cell_w, self.cell_h, self.cell_w)).intersection(
            Region(0, 0, *self.virtual_size))
        self.scroll_to_region(around, animate=False, force=True, immediate=True)
        self.scroll_to_region(hero, animate=False, force=True, immediate=True)  # where the room is short
        if self.pick is not None:  # a destination picked far from the hero on a level larger than the board
            x, y = self.pick
            pick = Region(x * self.cell_w, y * self.cell_h, self.cell_w, self.cell_h)
            self.scroll_to_region(pick, animate=False, force=True, immediate=True)

    def _draw(self, view: StateView) -> list[Strip]:
        level = view.level
        w, h = self.cell_w, self.cell_h
        legal = {str(a) for a in view.legal_actions()}
        hx, hy = view.position
        teleport = {a.removeprefix("teleport ") for a in legal if a.startswith("teleport ")}
        rows: list[list[Segment]] = [[] for _ in range(level.height * h)]
        for y in range(level.height):
            for x in range(level.width):
                parts = self._card(view.cell(x, y), x - hx, y - hy, legal, teleport)
                for k in range(h):
                    rows[y * h + k].extend(parts[k])
        return [Strip(segments, level.width * w) for segments in rows]

    def _card(self, cell: CellView | None, dx: int, dy: int, legal, teleport) -> list[list[Segment]]:
        w, h = self.cell_w, self.cell_h
        inner, mid = w - 2, h // 2
        if cell is None:
            return [[Segment(" " * w, Style())] for _ in range(h)]  # a style even when blank: NO_COLOR filters every segment's
        toward = Direction.toward(dx, dy)
        toward = toward.value if toward is not None else None
        if cell.face is Face.DOWN:
            style = _BACK_FLIP if toward and f"flip {toward}" in legal else _BACK
            return ([[Segment("┌" + "─" * inner + "┐", style)]] + [[Segment("│" + "░" * inner + "│", style)]] * (h - 2)
                    + [[Segment("└" + "─" * inner + "┘", style)]])
        paths = cell.paths
        foe = cell.enemy
        if (cell.x, cell.y) == self.pick and f"{cell.x},{cell.y}" in teleport:
            edge = _EDGE_PICK
        elif f"{cell.x},{cell.y}" in teleport:
            edge = _EDGE_TELEPORT
        elif foe is not None and foe.direction is not None:
            edge = _EDGE_FOE
        elif toward and (f"move {toward}" in legal or f"flee {toward}" in legal or f"spell {toward}" in legal):
            edge = _EDGE_MOVE
        else:
            edge = _EDGE
        half = (w - 3) // 2
        top = "╭" + "─" * half + ("┃" if "N" in paths else "─") + "─" * half + "╮"
        bottom_mid = ("┃" if "S" in paths else "─")
        label = card_label(cell, inner if h > CELL_H else 7)
        info = ""  # large cards: a second line under the name
        if foe is not None:
            label_style = _BOSS if foe.card.kind is CardKind.BOSS else _KIND_STYLE[Tile.ENEMY]
            if h > CELL_H:
                info = f"♥{foe.health}/{foe.max_health} ⚔{foe_attack(foe)}"
                bottom = "╰" + "─" * half + bottom_mid + "─" * half + "╯"
            else:
                health = f"♥{foe.health}"[:half]
                bottom = "╰" + health.ljust(half, "─") + bottom_mid + "─" * half + "╯"
        else:
            bottom = "╰" + "─" * half + bottom_mid + "─" * half + "╯"
            card = cell.card
            if cell.exit:
                label_style = _EXIT
            elif card.kind is CardKind.POTION and cell.face is not Face.CLEARED:
                label_style = Style(color=_POTION_COLOURS.get(card.colour or "", "green"), bold=True)
            elif cell.face is Face.CLEARED:
                label_style = Style()
            else:
                label_style = _KIND_STYLE.get(cell.tile, Style(dim=True))
        if h == CELL_H:
            middle = [(("@ " + label)[:inner] if label else "@", _HERO) if cell.hero else (label, label_style)]
        else:  # name, then the hero's mark or the enemy's health and attack, then a blank line
            middle = [(label, label_style), ("@ you", _HERO) if cell.hero else (info, label_style)]
            middle += [("", Style())] * (h - 2 - len(middle))
        rows = [[Segment(top, edge)]]
        for k, (text, style) in enumerate(middle, 1):
            left = "━" if k == mid and "W" in paths else "│"
            right = "━" if k == mid and "E" in paths else "│"
            rows.append([Segment(left, edge), Segment(text.center(inner)[:inner], style), Segment(right, edge)])
        rows.append([Segment(bottom, edge)])
        return rows

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
        self.post_message(self.CellClicked((offset.x + scroll_x) // self.cell_w, (offset.y + scroll_y) // self.cell_h))


# --------------------------------------------------------------------------- the panels


def _bar(value: int, top: int, width: int = 12, colour: str = "green") -> Text:
    top = max(top, 1)
    filled = max(0, min(width, round(width * value / top)))
    return Text.assemble(("█" * filled, colour), ("░" * (width - filled), "grey35"))


class FoeHealth:
    """An enemy's health bar, its health and its attack on one line, the bar narrowed to keep them there: the
    panel is 26 cells wide at 80 columns (25 beside its scrollbar), where "20/20  attack 2–12" wrapped, "attack"
    on one line and its number on the next. Where even a short bar leaves no room, the attack takes a line."""

    BAR, SHORTEST = 10, 4

    def __init__(self, foe: Foe) -> None:
        self.foe = foe

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        foe = self.foe
        health, attack = f" {foe.health}/{foe.max_health}", f"attack {foe_attack(foe)}"
        width = min(self.BAR, options.max_width - cell_len(health) - 2 - cell_len(attack))
        if width >= self.SHORTEST:
            yield Text.assemble(_bar(foe.health, foe.max_health, width=width, colour="red"), health, "  ", attack)
        else:
            yield Text.assemble(_bar(foe.health, foe.max_health, width=self.BAR, colour="red"), health)
            yield Text(attack)


def goals_text(view: StateView) -> str:
    """The level's goals with their cards' names (``Buy Shopkeeper's Debt``), not the ids the file gives."""
    cards = view.campaign.cards
    return ", ".join(g.text(cards[g.card].name if g.card in cards else None) for g in view.level.goals)


class HeroPanel(Static):
    """The hero in one table, a row per fact, the most urgent first (at 80x24 the rest scrolls): turn
    and par, level, health, effects lasting over turns, attack modifier, gold, the hand, known potions,
    goals, the tile, a shop's stock and equipment worn. The border names the hero."""

    def show(self, view: StateView, par: int | None = None) -> None:
        """``par``: the par to show beside the turn (the campaign's, or one a solve just found)."""
        campaign, level, hero = view.campaign, view.level, view.hero
        self.border_title = content(hero.name)
        grid = Table.grid(padding=(0, 1))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column()
        grid.add_row("Turn", f"{view.turn}" + (f" (par {par})" if par is not None else ""))
        grid.add_row("Level", shown_text(f"{view.level_index + 1}/{len(campaign.levels)} {level.title or level.id}"))
        health = max(hero.health, 0)  # a blow below zero still leaves nothing: the end screen says the same
        colour = "green" if health > hero.max_health // 3 else "red"
        grid.add_row("Health", Text.assemble(_bar(health, hero.max_health, width=10, colour=colour),
                                             f" {health}/{hero.max_health}"))
        if hero.poison:
            grid.add_row("Poison", Text(counted(hero.poison, "turn"), MAGENTA))
        if hero.antidote:
            grid.add_row("Antidote", Text(f"poison heals +{hero.antidote}", "green"))
        if hero.paralysed:
            grid.add_row("Paralysed", Text(f"{counted(hero.paralysed, 'turn')} to skip", "yellow"))
        if hero.potion_modifier:
            grid.add_row("Potion", Text(f"{hero.potion_modifier:+d} to the attack roll", "cyan"))
        if hero.spell_cooldown:
            grid.add_row("Spell", f"ready in {counted(hero.spell_wait, 'turn')}" if hero.spell_wait else "ready")
        grid.add_row("Attack", f"{hero.attack_modifier:+d} to the roll")
        grid.add_row("Gold", str(hero.gold))
        hand = Text()
        counts: dict[str, int] = {}
        for card_id in hero.hand:
            counts[card_id] = counts.get(card_id, 0) + 1
        for card_id, n in counts.items():
            card = view.card(card_id)
            line = shown_text(card.name + (f" ×{n}" if n > 1 else ""))
            if card.kind is CardKind.POTION and card.colour:
                line.append(f" ({view.potion(card.colour) or '?'})", "dim")
            if card.cursed:
                line.append(" cursed", "red")
            hand.append_text(line)
            hand.append("\n")
        hand.rstrip()
        grid.add_row("Hand", hand if counts else Text("empty", "dim"))

        known = [f"{colour} {effect}" for colour, effect in view.known_potions.items()]
        grid.add_row("Potions", Text("\n".join(known)) if known else Text("none known", "dim"))

        if level.goals:
            mark = Text("✓ ", "green") if view.goals_met() else Text("✗ ", "red")
            grid.add_row("Goals", mark + shown_text(goals_text(view)))
        grid.add_row("Here", shown_text(view.here.name))
        shop = view.shop
        if shop:
            # A card bought is gone from the shop (the shopkeeper's debt leaves the game): only what is left is listed.
            left = [offer for offer in shop if not offer.sold]
            stock = Text()
            for offer in left:
                stock.append(printable(f"{offer.card.name} {offer.price}g"), "" if offer.affordable else "dim")
                stock.append("\n")
            stock.rstrip()
            grid.add_row("Stock", stock if left else Text("sold out", "dim"))

        worn = Text()
        for slot, card_id in hero.equipment:
            if card_id:
                worn.append(f"{slot} ", "dim").append_text(shown_text(view.card(card_id).name)).append("\n")
        worn.rstrip()
        grid.add_row("Worn", worn if worn else Text("nothing", "dim"))
        self.update(grid)


class EnemyPanel(Static):
    """Every enemy on an ADJACENT TILE: health, attack, abilities and conditions (one thrown there waits)."""

    def show(self, view: StateView) -> None:
        foes = view.foes + view.waiting_foes
        self.display = bool(foes)
        if not foes:
            self.update("")
            return
        self.border_title = "In combat" if view.in_combat else "Enemy"
        parts = []
        for foe in foes:
            parts.append(Text.assemble(shown_text(foe.name, "bold red"), f"  ({foe.direction.word})"))
            parts.append(FoeHealth(foe))
            if foe.attack_modifier:  # potions of strength or weakness thrown on it, as the hero's "Potion" row
                parts.append(Text(f"Potion  {foe.attack_modifier:+d} to its attack", "cyan"))
            for ability in foe.card.abilities:
                parts.append(shown_text(str(ability), "italic"))
            if foe.poison:
                parts.append(Text(f"Poisoned: {counted(foe.poison, 'turn')}", MAGENTA))
            if foe.paralysed:
                parts.append(Text(f"Paralysed: {counted(foe.paralysed, 'turn')}", "yellow"))
            if foe.waiting:
                parts.append(Text("Thrown here: fights from your next turn", "yellow"))
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

    def show(self, view: StateView, name: str | None = None) -> int:
        """List the legal actions in filter ``name`` (default: keep the current one); returns how many."""
        if name is not None:
            self.filter = name
        actions = [a for a in dict.fromkeys(view.legal_actions()) if in_filter(a, self.filter)]
        self.clear_options()
        self.add_options(Option(self._entry(a, view), id=str(a)) for a in actions)
        if actions:
            self.highlighted = 0
        label = FILTERS[self.filter][0]
        self.border_title = "Actions" if self.filter == "all" else f"Actions: {label}"
        return len(actions)

    @staticmethod
    def _entry(action: Action, view: StateView) -> Text:
        """What the action does, in words (its text form, ``move E``, is the option's id). A long entry
        wraps onto a second row rather than being cut: the destination's name must show."""
        words = describe(action, view)
        return shown_text(words[:1].upper() + words[1:])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Chosen(Action.parse(event.option.id)))


# --------------------------------------------------------------------------- the keys


class RunLog(RichLog):
    """The run's log, wrapped again to the new width when the terminal is resized.

    A RichLog wraps each line once, when it is written; here every line written is kept, and a
    change of width writes them all again, so a widened log uses its width and a narrowed one loses
    no words past its edge; the newest lines are in view afterwards.
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(wrap=True, markup=False, **kwargs)
        self._written: list[Text] = []
        self._wrapped_at = 0
        self._rewrapped = False

    def add(self, line: Text) -> None:
        """Write ``line`` at the end and keep it for a later re-wrap."""
        self._written.append(line)
        self._rewrapped = False  # a new line: RichLog's own scrolling follows the end
        self.write(line)

    def clear(self) -> RunLog:
        self._written = []
        return super().clear()

    def on_resize(self, event: events.Resize) -> None:
        # RichLog's own handler runs after this one: it writes what came before the size was known.
        width = event.size.width
        if not self._size_known or not width:
            self._wrapped_at = width or self._wrapped_at
            return
        if width != self._wrapped_at:
            self._wrapped_at = width
            self._rewrapped = True
            written = self._written
            super().clear()
            for line in written:
                self.write(line, scroll_end=False)
        if self._rewrapped:
            # The newest lines in view once re-wrapped. A resize comes in steps (the width, then the
            # panel's final height), so each step scrolls to the end again, until the next line written.
            self.call_after_refresh(self.scroll_end, animate=False, immediate=True, x_axis=False)


class KeyBar(Widget):
    """Every key a screen shows (its bindings with ``show``), each as "key label", wrapped over as
    many lines as the width needs: Textual's one-line Footer cuts what does not fit, and at 80
    columns the player lost p, r, R and q. A click on a key does what the key does.
    """

    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: auto;
        padding: 0 1;
        color: $footer-foreground;
        background: $footer-background;
    }
    """
    GAP = 2

    def __init__(self, bindings: list[Binding], **kw) -> None:
        super().__init__(**kw)
        self._bindings = [b for b in bindings if b.show]

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, lambda _: self.refresh(layout=True))

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def on_resize(self) -> None:
        """Textual keeps its notifications one line above the bottom, clear of a one-line Footer: this bar has
        two lines at 80 columns, and a hint covered the keys it names. The screen's rack is kept above the bar
        (the editor docks it at the top, where the bar is not)."""
        for rack in self.screen.query("ToastRack"):
            if rack.styles.dock == "bottom":
                top, right, _, left = rack.styles.margin
                rack.styles.margin = (top, right, self.outer_size.height, left)

    def _pieces(self) -> list[Content]:
        """One piece per key; the screen's ``check_bar`` (else ``check_action``) hides a key (False) or dims it
        (None)."""
        pieces = []
        for binding in self._bindings:
            state = True
            if self.is_mounted:
                _, name, args = parse_action(binding.action)
                state = getattr(self.screen, "check_bar", self.screen.check_action)(name, args)
            if state is not False:
                pieces.append(self._piece(binding, dim=state is None))
        return pieces

    @staticmethod
    def _piece(binding: Binding, dim: bool = False) -> Content:
        key = binding.key_display or binding.key
        # The arrows stand for four actions (one per direction): they are keys only.
        click = "" if binding.action.startswith("direction(") else f" @click=screen.{binding.action}"
        # Our own labels and action names: markup is safe here (no string from a file).
        piece = Content.assemble(Content.from_markup(f"[bold $footer-key-foreground{click}]$key[/]", key=key), " ",
                                 Content(binding.description))
        return piece.stylize("dim") if dim else piece

    def lines(self, width: int) -> list[Content]:
        """The pieces laid out greedily on lines of ``width`` cells (a piece is never split)."""
        lines: list[list[Content]] = [[]]
        used = 0
        for piece in self._pieces():
            need = piece.cell_length + (self.GAP if lines[-1] else 0)
            if lines[-1] and used + need > width:
                lines.append([])
                used, need = 0, piece.cell_length
            lines[-1].append(piece)
            used += need
        return [Content(" " * self.GAP).join(line) for line in lines]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines(width))

    def render(self) -> Content:
        return Content("\n").join(self.lines(self.content_size.width))
