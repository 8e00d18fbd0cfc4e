"""The player's screens: the play screen, a level's story preface, the end of a run.

:class:`PlayerScreen` can be pushed onto any App (the ``cardrogue play``
command's own app, or the editor for a play-test); it dismisses itself with the
last :class:`~.run.RunResult` (None when the player quits before a run ends).
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from functools import partial
from pathlib import Path

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import OptionList, Static
from textual.worker import Worker, WorkerState

from cardrogue.engine.model.campaign import Campaign, Direction
from cardrogue.engine.printable import printable
from cardrogue.engine.rules.actions import Action
from cardrogue.engine.rules.events import Damage, Died, Event, Heal, Roll, TurnBegan, Victory
from cardrogue.engine.rules.view import Face, StateView, Tile
from cardrogue.engine.words import place_text

from ..room import too_short
from ..shown import StoryMarkdown, content, inline_markdown, name_cell, text as shown_text
from .run import PlayRun, RunResult, campaign_par, default_player, ended, finish, no_par
from .widgets import MAGENTA, ActionMenu, BoardView, EnemyPanel, HeroPanel, KeyBar, RunLog, goals_text


# How the log shows each kind of event (any other kind: plain).
_EVENT_STYLES: dict[type, str] = {
    TurnBegan: "bold cyan",
    Victory: "bold green",
    Died: "bold red",
    Roll: "yellow",
}


def log_line(event: Event) -> Text:
    """An event's sentence as text (never markup), coloured by what it is: the hero hurt red, healed green, a die yellow."""
    if isinstance(event, (Damage, Heal)) and event.hero:
        style = "red" if isinstance(event, Damage) else "green"
    else:
        style = _EVENT_STYLES.get(type(event), "")
    return shown_text(str(event), style)


def no_flee_hint(view: StateView) -> str:
    """Why no flee is possible in combat now, naming the rule: "The Warrior cannot flee (CANNOT FLEE)."."""
    return f"The {view.hero.name} cannot flee ({view.no_flee})."


def in_combat_hint(view: StateView, lead: str = "In combat") -> str:
    """What the hero can do in combat, offering flee only when a flee is possible."""
    if view.no_flee:
        return f"{lead}: attack (a). {no_flee_hint(view)}"
    return f"{lead}: attack (a) or flee (f)."


PICK_HINT = ("Choose where the potion of teleportation sends its target: ↑↓←→ pick an outlined tile, Enter sends it "
             "there (or click one).")


def why_no_menu(view: StateView, name: str) -> str:
    """Why the action list filtered by ``name`` (a, f, u, e, s) is empty now, in one sentence."""
    if view.choosing_teleport:
        return "First choose where the potion of teleportation sends its target."
    if name == "flee":
        if view.in_combat and view.no_flee:
            return no_flee_hint(view)
        if not view.in_combat:
            return "Fleeing is for combat: no enemy is fighting the hero now."
    if name == "attack" and not view.in_combat:
        return "No enemy to attack: combat begins when an enemy is on an adjacent tile."
    if name == "shop":
        offers = view.shop
        if not offers:
            return "No shop here: buying and selling happen on a shop tile."
        if view.in_combat:
            return ("The shop is closed during combat: buy and sell on the turn you reach the shop, before the "
                    "first attack or flee.")
        # On a shop out of combat nothing is bought or sold only when nothing left is affordable and nothing in
        # the hand sells (a cursed or unsellable card does not); what is worn sells once unequipped
        # (docs/rules.md, SELL), which a newcomer short of gold needs to hear.
        held = "and nothing in hand to sell" if view.hero.hand else "and nothing to sell"
        if any(card and view.card(card).gold is not None and view.card(card).sellable and not view.card(card).cursed
               for _, card in view.hero.equipment):
            return (f"Nothing here you can afford ({view.hero.gold} gold) {held}: worn equipment is sold once "
                    "unequipped (e).")
        return f"Nothing here you can afford ({view.hero.gold} gold) {held}."
    if name == "use" and not view.hero.hand and not view.hero.spell_cooldown:
        return "Nothing to use: no potion or scroll in hand."
    if (name == "equip" and not any(view.card(c).slot for c in view.hero.hand)
            and not any(worn for _, worn in view.hero.equipment)):
        return "Nothing to equip: no weapon or armour in hand, and nothing worn."
    return f"No {name} action is possible now."


def why_not(view: StateView, direction: Direction) -> str:
    """Why an arrow toward ``direction`` does nothing now, in one sentence with the key that helps."""
    if view.in_combat:
        return in_combat_hint(view)
    if view.choosing_teleport:
        return "First choose where the potion of teleportation sends its target."
    word = direction.word
    ahead = view.neighbour(direction)
    if ahead is None:
        if direction.value not in view.here.paths:
            return f"No path leads {word} from this tile."
        return f"No card lies {word}."
    if ahead.face is Face.DOWN:
        # "Standard turn sequence": flipping is step 1, before moving.
        if view.moved:
            return (f"Cards are flipped only before moving (step 1 of the turn): "
                    f"end the turn (.) to flip the card {word} next turn.")
        return f"No more flips this turn: end the turn (.) to flip the card {word} next turn."
    if direction.opposite.value not in ahead.paths:
        return f"{ahead.name} {word} has no path back to this tile: it is not an ADJACENT TILE."
    if not any(a.verb == "move" for a in view.legal_actions()):
        return "No more moves this turn: end the turn (.)."
    if ahead.face is Face.UP and ahead.tile is Tile.CHEST:
        return "The chest opens only with the key in the hand."
    if (ahead.exit or (ahead.face is Face.UP and ahead.tile is Tile.LADDER)) and not view.goals_met():
        return f"The level's goals come first ({goals_text(view)})."
    return f"Nothing to do {word}."


class FoldedPath:
    """A file path on lines of its own that break only after a separator (a part wider than the
    line folds): every character shows, and a name is cut only when it alone is too wide."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(1, options.max_width)
        line = ""
        for part in re.split(r"(?<=[/\\])", self.path):
            if line and cell_len(line + part) > width:
                yield Text(line)
                line = ""
            line += part
        if line:
            yield Text(line, overflow="fold")


def dice_note(random_dice: bool) -> str:
    """What a restart does to the dice, for the end screen: with the map's fated dice a retry meets the very
    rolls that ended the run (DESIGN: Fated dice); with random dice only a new run draws new ones."""
    if random_dice:
        return "r keeps these dice (same rolls); n draws new ones."
    return "Fixed dice: after r or n, same moves, same rolls."


def dice_keys(bindings: list[Binding], random_dice: bool, new_run: str) -> list[Binding]:
    """``bindings`` for the key bar, where with random dice the restart keys say what they do to the dice
    (``r``: the same dice; ``new_run``, the key of a new run: new dice). With the map's dice both keep them,
    and the end screen says so once."""
    if not random_dice:
        return bindings
    said = {"r": " (same dice)", new_run: " (new dice)"}
    return [replace(b, description=b.description + said[b.key]) if b.key in said else b for b in bindings]


# The rows the action list and the log need under the board (player.tcss: #player-bottom's min-height): a border,
# and three entries.
ACTIONS_ROWS = 5
BOARD_ROWS = 5  # the board's least (player.tcss: #board's min-height): a border, and a row of small cards
INSCRIPTION_ROWS = 3  # the most the latest inscription under the board takes (player.tcss)
SLIM_HERO_ROWS = 5  # the hero's panel under the board of a screen narrower than 80 and shorter than 24 (player.tcss)


class PlayerScreen(Screen[RunResult | None]):
    """Story mode: the board, the hero, the enemy, the legal actions and the log of every roll and rule.

    ``level`` is a level index (0-based) to practise one level: such a run is
    never scored. ``par``: the par of this run's task when the caller knows it (the
    editor's solve of the level); otherwise the campaign's par when the run is the
    whole campaign, unless ``no_file_par`` says why it does not measure this version.
    A replay is saved only when ``replays_dir`` is given, a score recorded only when
    ``scores_db`` is given, so a play-test from the editor leaves no files behind.
    """

    CSS_PATH = "player.tcss"
    AUTO_FOCUS = "#board"
    # player.tcss puts the hero under the board on a terminal narrower than 80 columns (a phone's browser
    # gives about 55), and widens the side panel and the action list on a wide one.
    HORIZONTAL_BREAKPOINTS = [(0, "-slim"), (80, "-narrow"), (150, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (24, "-tall")]  # player.tcss gives the actions and the log their rows
    HINT_SECONDS = 3.0  # how long a hint stays (tests that look at one lengthen it: a loaded machine is slow)
    BINDINGS = [
        Binding("up", "direction('N')", "Move/flip", key_display="↑↓←→"),
        Binding("down", "direction('S')", show=False),
        Binding("left", "direction('W')", show=False),
        Binding("right", "direction('E')", show=False),
        Binding("a", "attack", "Attack"),
        Binding("f", "menu('flee')", "Flee"),
        Binding("u", "menu('use')", "Use"),
        Binding("e", "menu('equip')", "Equip"),
        Binding("s", "menu('shop')", "Shop"),
        Binding("full_stop", "end_turn", "End turn", key_display="."),
        Binding("tab", "menu('all')", "Actions"),
        Binding("escape", "board", "Board", show=False),
        Binding("enter", "enter_on_board", show=False),  # the list takes Enter while it has the focus
        Binding("p", "story", "Story"),
        Binding("r", "restart_level", "Restart level"),
        Binding("R", "restart_campaign", "Restart run", key_display="R"),
        Binding("q", "quit_run", "Quit"),
    ]
    # What the bar shows while the action list has the focus: the list's own keys (its bindings do the work;
    # these are for the bar, and a click on one does what the key does). They stand where Move/flip stood.
    LIST_KEYS = [
        Binding("up,down", "list_cursor", "Choose", key_display="↑↓"),
        Binding("enter", "list_select", "Act"),
        Binding("escape", "list_close", "Board", key_display="esc"),
    ]
    # What the bar shows while a potion of teleportation waits for its destination (the board has the focus): the
    # arrows pick one of the tiles outlined, Enter sends the target there. They stand where Move/flip stood.
    PICK_KEYS = [
        Binding("up,down,left,right", "pick_next", "Destination", key_display="↑↓←→"),
        Binding("enter", "teleport_to_pick", "Teleport"),
    ]
    # The keys that play: once the run is over they do nothing, and the bar no longer offers them.
    PLAYING = frozenset({"direction", "attack", "menu", "end_turn", "board", "enter_on_board"})

    def __init__(self, campaign: Campaign, level: int | None = None, *, replays_dir: Path | None = None,
                 scores_db: Path | None = None, player: str | None = None, dice_seed: int | None = None,
                 par: int | None = None, campaign_file: Path | None = None, no_file_par: str | None = None) -> None:
        super().__init__()
        if level is not None and not 0 <= level < len(campaign.levels):
            raise ValueError(f"level {level} is not in the campaign (it has {len(campaign.levels)})")
        if campaign.levels[level or 0].start is None:
            raise ValueError(f"level {campaign.levels[level or 0].id!r} has no starting tile to play from")
        self.campaign = campaign
        self.practice = level is not None or dice_seed is not None
        self.replays_dir, self.scores_db = replays_dir, scores_db
        self.run = PlayRun(campaign, level or 0, default_player() if player is None else player, dice_seed,
                           campaign_file)
        # The par beside the turn and on the end screen: the caller's (a solve of this very level), else
        # the campaign's when this run is the task it was set for, else none.
        # ``no_file_par``: the campaign's par does not measure this version (the editor's play-test after an edit),
        # and why, for the end screen.
        file_par = campaign_par(campaign, level, dice_seed) if no_file_par is None else None
        self.par = par if par is not None else file_par
        self.no_par = no_file_par or no_par(campaign, level, dice_seed)  # what the end screen says instead of a par
        self.result: RunResult | None = None
        self._end: EndScreen | None = None  # the end screen the run's result goes to once recorded (_finish)
        self.leave_when_recorded = False  # ctrl+q while the run was recorded: the app leaves when it is (PlayerApp)
        self._log_len = 0
        self._seen: set[tuple[int, int, int]] = set()  # (level, x, y) of inscriptions shown
        self._shown_level = -1
        self._quit_armed = False
        self._restart_armed = False
        self._cut = ""  # the board's title while the terminal is too short for it (_fit_board)

    def compose(self) -> ComposeResult:
        with Horizontal(id="player-main"):
            with Vertical(id="player-left"):
                yield BoardView(id="board")
                yield Static(id="inscription")
                with Horizontal(id="player-bottom"):
                    yield ActionMenu(id="actions")
                    yield RunLog(id="log", min_width=20)
            with VerticalScroll(id="player-side"):
                yield EnemyPanel(id="enemy")
                yield HeroPanel(id="hero")
        yield KeyBar(dice_keys(self.LIST_KEYS + self.PICK_KEYS + self.BINDINGS, self.run.dice_seed is not None, "R"),
                     id="keys")

    def on_mount(self) -> None:
        self.query_one("#log", RunLog).border_title = "Log"
        self._sync()

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        """The keys the bar offers now: the action list's while it has the focus (instead of the arrows'
        Move/flip), none that plays once the run is over (docs/player.md, Keys)."""
        if not self.is_mounted:
            return True
        if action in self.PLAYING and self.view.over:
            return False
        listing = self.query_one(ActionMenu).has_focus
        if action in ("list_cursor", "list_select", "list_close"):
            return listing
        if action in ("pick_next", "teleport_to_pick"):
            return self.view.choosing_teleport and not listing
        if action == "direction" and parameters == ("N",):
            return not listing  # the bar's Move/flip: the list has ↑ and ↓ now
        return True

    def check_bar(self, action: str, parameters: tuple) -> bool | None:
        """What the key bar offers: what :meth:`check_action` allows, but while a teleport's destination is picked
        the arrows are the bar's Destination, not Move/flip (they pick; they are not disabled)."""
        if action == "direction" and self.is_mounted and self.check_action("pick_next", ()):
            return False
        return self.check_action(action, parameters)

    def on_descendant_focus(self) -> None:
        self.refresh_bindings()

    def on_descendant_blur(self) -> None:
        self.refresh_bindings()

    def action_list_cursor(self) -> None:
        self.query_one(ActionMenu).action_cursor_down()

    def action_list_select(self) -> None:
        self.query_one(ActionMenu).action_select()

    def action_list_close(self) -> None:
        self.action_board()

    def action_enter_on_board(self) -> None:
        if self.view.choosing_teleport:
            self.action_teleport_to_pick()
            return
        # The list shows its first entry highlighted even when the board has the focus: Enter looks like it
        # would take it.
        self._hint("Enter acts in the action list: Tab takes you there (↑ ↓ to choose, Esc back to the board).")

    # ------------------------------------------------------------------ a teleport's destination

    def _destinations(self) -> list[tuple[int, int]]:
        """The tiles a potion of teleportation may send its target to now, in the action list's order."""
        return [(int(x), int(y)) for a in self.view.legal_actions() if a.verb == "teleport"
                for x, _, y in [a.arg.partition(",")]]

    def _show_pick(self, pick: tuple[int, int] | None) -> None:
        """The destination picked, outlined on the board (in view) and highlighted in the action list."""
        board = self.query_one(BoardView)
        if pick != board.pick:
            board.pick = pick
            board.show(self.view)
        if pick is not None:
            menu = self.query_one(ActionMenu)
            wanted = f"teleport {pick[0]},{pick[1]}"
            index = next((i for i in range(menu.option_count) if menu.get_option_at_index(i).id == wanted), None)
            if index is not None and menu.highlighted != index:
                menu.highlighted = index

    def _move_pick(self, direction: Direction) -> None:
        """An arrow while a teleport waits for its destination: the nearest destination that way (straight on
        first, then aside), as a cursor moves on a map; none there: a hint says so."""
        here = self.query_one(BoardView).pick or self.view.position
        dx, dy = direction.step(0, 0)

        def cost(place: tuple[int, int]) -> tuple[int, int] | None:
            ahead = (place[0] - here[0]) * dx + (place[1] - here[1]) * dy  # how far that way
            aside = abs((place[0] - here[0]) * dy) + abs((place[1] - here[1]) * dx)
            return (ahead + 2 * aside, aside) if ahead > 0 else None

        costs = {place: c for place in self._destinations() if (c := cost(place)) is not None}
        if not costs:
            self._hint(f"No destination further {direction.word}: the tiles it may go to are outlined.")
            return
        self._show_pick(min(costs, key=costs.__getitem__))

    def action_pick_next(self) -> None:
        """A click on the bar's Destination: the next destination in the list's order."""
        places = self._destinations()
        if places:
            pick = self.query_one(BoardView).pick
            self._show_pick(places[(places.index(pick) + 1) % len(places)] if pick in places else places[0])

    def action_teleport_to_pick(self) -> None:
        pick = self.query_one(BoardView).pick
        if self.view.choosing_teleport and pick is not None:
            self.play(Action("teleport", f"{pick[0]},{pick[1]}"))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """The action list's highlight moved (↑ ↓ in it): the board's pick follows."""
        option = event.option_id or ""
        if event.option_index != event.option_list.highlighted:
            return  # gone by: the list shown again (its first entry), then highlighted on the pick
        if self.view.choosing_teleport and option.startswith("teleport "):
            x, _, y = option.removeprefix("teleport ").partition(",")
            self._show_pick((int(x), int(y)))

    def on_resize(self) -> None:
        self.fit_board_later()

    def fit_board_later(self) -> None:
        """Fit the board once the layout is refreshed. (Textual drops a callback so scheduled before the app is
        running: at 80x11 the fits asked for as this screen mounted under the opening story were all lost, and the
        board kept nine rows of eleven. It is fitted again whenever this screen resumes.)"""
        self.call_after_refresh(self._fit_board)

    def on_screen_suspend(self) -> None:
        """A story or end screen on top shows its own keys: this screen's would show through it."""
        self.query_one(KeyBar).visible = False  # hidden, its room kept: the layout stays as it is

    def on_screen_resume(self) -> None:
        self.query_one(KeyBar).visible = True
        self.fit_board_later()  # laid out afresh now that it is on top (the terminal may have changed meanwhile)

    def _fit_board(self) -> None:
        """Large cards when the level fits them in half the left column's height (the actions and the log keep the rest).
        The board takes the rows its level needs up to two thirds of the column, and never the rows the actions and
        the log need under it (ACTIONS_ROWS): a bigger level scrolls. (Python, not player.tcss: a stylesheet cannot
        say "the column less five rows and the inscription's", and the board's own height came first, the hero's
        panel covering the actions at 79x23.) A column too short for the inscription too leaves it to the log."""
        left = self.query("#player-left")
        if not self.is_current or not left:
            return  # (under another screen it is fitted as it resumes; before its widgets or after they are gone)
        room = left.first().size
        inscription = self.query_one("#inscription")
        no_room = room.height < BOARD_ROWS + ACTIONS_ROWS + INSCRIPTION_ROWS
        if inscription.has_class("-no-room") != no_room:
            inscription.set_class(no_room, "-no-room")
            self.call_after_refresh(self._fit_board)  # again, once the inscription's rows are given or taken
        under = ACTIONS_ROWS + (inscription.outer_size.height if inscription.display else 0)
        board = self.query_one(BoardView)
        board.styles.max_height = min(room.height * 2 // 3, room.height - under)
        board.fit(self.view, room.width, room.height // 2)
        # Too short for the board's least rows: its title says so on the line of it left, and the size that shows
        # it (the key bar's rows, the board's, the actions', and under a slim screen's board the hero's).
        needed = (self.query_one(KeyBar).outer_size.height + BOARD_ROWS + ACTIONS_ROWS
                  + (SLIM_HERO_ROWS if self.has_class("-slim") else 0))
        self._cut = too_short("Board cut short", needed, self.size.height)
        self._title_board()

    def _title_board(self) -> None:
        level = self.view.level
        self.query_one(BoardView).border_title = content(self._cut or level.title or level.id)

    @property
    def state(self):
        return self.run.state

    @property
    def view(self) -> StateView:
        return self.run.state.view()

    # ------------------------------------------------------------------ showing the state

    def _sync(self) -> None:
        view = self.view
        board = self.query_one(BoardView)
        self._title_board()
        # A practice run says so while it is played, not first on the end screen (docs/player.md): the seed
        # is the last thing on the line and stays whole at 80x24 up to turn 999 (a subtitle too long loses its end).
        if self.run.dice_seed is not None:
            practice = f" · unscored, random dice {self.run.dice_seed}"
        else:
            practice = " · practice, unscored" if self.practice else ""
        board.border_subtitle = f"turn {view.turn}{practice}"
        if not view.choosing_teleport:
            board.pick = None
        board.show(view)
        self.query_one(HeroPanel).show(view, self.par)
        self.query_one(EnemyPanel).show(view)
        self.query_one(ActionMenu).show(view)
        if view.choosing_teleport:
            self._show_pick(board.pick)  # the list shown again: its highlight on the pick
        new_level = view.level_index != self._shown_level
        if new_level:
            self._shown_level = view.level_index
            self._inscribe(None)
            self.call_after_refresh(self._fit_board)
        self._sync_log()
        if new_level and self._story() is not None:  # a level without a story starts at once
            self.action_story(again=False)

    def _sync_log(self) -> None:
        log = self.query_one("#log", RunLog)
        lines = self.view.log
        if len(lines) < self._log_len:  # a restart: the whole story again
            log.clear()
            self._log_len = 0
            self._seen.clear()
            self._inscribe(None)
        for line in lines[self._log_len:]:
            log.add(log_line(line))
        self._log_len = len(lines)
        self._show_inscriptions(log)
        # Now, not after the next refresh: the end screen may cover the log at once.
        log.scroll_end(animate=False, immediate=True, x_axis=False)

    def _show_inscriptions(self, log: RunLog) -> None:
        """Inscriptions appear when their tile is revealed (and the start's when the level begins)."""
        view = self.view
        for cell in view.visible_cells():
            place = (view.level_index, cell.x, cell.y)
            if cell.inscription and place not in self._seen:
                self._seen.add(place)
                said = f"italic {MAGENTA}"
                log.add(Text.assemble(shown_text(f"✎ Inscription at {place_text(cell.x, cell.y)}: ", said),
                                      inline_markdown(cell.inscription, said)))
                self._inscribe(cell.inscription)

    def _inscribe(self, text: str | None) -> None:
        """The latest inscription revealed, under the board (hidden when there is none)."""
        line = self.query_one("#inscription", Static)
        line.set_class(text is not None, "-shown")
        line.update(Text.assemble(("✎ ", MAGENTA), inline_markdown(text, "italic")) if text else "")
        self.call_after_refresh(self._fit_board)  # its rows are the board's

    # ------------------------------------------------------------------ playing

    def play(self, action: Action) -> None:
        """Apply a legal action (anything else is refused with a word why) and show what happened."""
        if self.view.over:
            return
        if action not in self.view.legal_actions():
            self._hint(f"{action} is not possible now.")
            return
        self._quit_armed = self._restart_armed = False
        self.run.play(action)
        self.query_one(BoardView).focus()
        self.query_one(ActionMenu).filter = "all"  # a key's menu is for one choice: all actions again
        self._sync()
        if self.view.over:
            self._finish()
        elif self.view.choosing_teleport:
            # The potion waits for its destination: the arrows pick it on the board (the list shows them too).
            self.query_one(ActionMenu).show(self.view, "use")
            # Its pick starts next to the hero (ties: the list's first): the list's first is the map's top left,
            # which a map bigger than the screen scrolled to, the hero out of view.
            x, y = self.view.position
            self._show_pick(min(self._destinations(), key=lambda place: abs(place[0] - x) + abs(place[1] - y)))
            self._hint(PICK_HINT)

    def _finish(self) -> None:
        """The end screen at once; the replay saved, verified and offered to the high-score table in a worker thread,
        its result shown on the end screen when it is done (:meth:`on_worker_state_changed`). On this thread, a table
        holding many scores tied with the run's froze the screen while they were re-verified."""
        self._end = EndScreen(ended(self.run, practice=self.practice, par=self.par), self.campaign.title,
                              random_dice=self.run.dice_seed is not None, no_par=self.no_par, recording=True)
        self.app.push_screen(self._end, self._after_end)
        self.run_worker(partial(finish, self.run, practice=self.practice, replays_dir=self.replays_dir,
                                scores_db=self.scores_db, par=self.par),
                        thread=True, group="record", exit_on_error=False)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The run recorded (:meth:`_finish`): its result on the end screen, with the hub's key for a ranked run."""
        from cardrogue.hub.client import configured

        if event.worker.group != "record" or event.state not in (WorkerState.SUCCESS, WorkerState.ERROR):
            return
        if event.state == WorkerState.SUCCESS:
            self.result = event.worker.result
        else:  # (finish says the table's own failures; anything else is said here, not left as "recording")
            self.result = replace(self._end.result, message=f"The run could not be recorded ({event.worker.error}).")
        ranked = self.result.outcome == "won" and self.result.verified and not self.result.practice
        # In a browser (`cardrogue web`) the hub account configured here is the server's user's, not the player's: the
        # run is not submitted with it; the player downloads the replay and submits it under their own (docs/web.md).
        hub_replay = self.run.recorder.text() if ranked and (self.app.is_web or configured() is not None) else None
        self._end.recorded(self.result, hub_replay)
        if self.leave_when_recorded:
            self.app.exit(self.result)

    @property
    def recording(self) -> bool:
        """The run is over and being saved, verified and scored in a worker thread (:meth:`_finish`)."""
        return self._end is not None and self._end.recording

    def _after_end(self, choice: str | None) -> None:
        if choice == "level":
            self.action_restart_level()
        elif choice == "campaign":
            self.action_restart_campaign()
        elif choice == "look":
            if self.run.dice_seed is not None:
                self._hint("The run is over: r restarts the level with the same dice, R a new run with new dice, "
                           "q leaves.")
            else:
                self._hint("The run is over: r restart level, R restart run (the map's dice: the same moves roll "
                           "the same numbers), q leave.")
        else:
            self.dismiss(self.result)

    def _toward(self, direction: str) -> Action | None:
        """What an arrow (or a click on the next tile) does: move, flip, attack or flee that way."""
        view = self.view
        legal = view.legal_actions()
        for text in (f"move {direction}", f"flip {direction}", f"attack {direction}", f"flee {direction}",
                     f"spell {direction}"):
            action = Action.parse(text)
            if action in legal:
                return action
        if Action("attack") in legal and any(foe.direction == direction for foe in view.foes):
            return Action("attack")
        return None

    def _hint(self, text: str) -> None:
        """One short-lived hint at a time: a new one replaces the last."""
        self.app.clear_notifications()
        self.notify(printable(text), timeout=self.HINT_SECONDS, markup=False)

    def action_direction(self, direction: str) -> None:
        if self.view.choosing_teleport and not self.view.over:
            self._move_pick(Direction(direction))
            return
        action = self._toward(direction)
        if action is not None:
            self.play(action)
            return
        if not self.view.over:
            self._hint(why_not(self.view, Direction(direction)))

    def on_board_view_cell_clicked(self, event: BoardView.CellClicked) -> None:
        teleport = Action("teleport", f"{event.x},{event.y}")
        if teleport in self.view.legal_actions():
            self.play(teleport)
            return
        x, y = self.view.position
        direction = Direction.toward(event.x - x, event.y - y)
        if direction is not None and (action := self._toward(direction.value)) is not None:
            self.play(action)

    def on_action_menu_chosen(self, event: ActionMenu.Chosen) -> None:
        self.play(event.action)

    def action_attack(self) -> None:
        attacks = [a for a in self.view.legal_actions() if a.verb == "attack"]
        if len(attacks) == 1:
            self.play(attacks[0])
        else:
            self.action_menu("attack")

    def action_end_turn(self) -> None:
        view = self.view
        if Action("end") in view.legal_actions():
            self.play(Action("end"))
        elif view.in_combat:
            self._hint(in_combat_hint(view, "In combat the turn ends after the fight"))
        elif not view.over:
            self._hint("First choose where the potion of teleportation sends its target.")

    def action_menu(self, name: str) -> None:
        menu = self.query_one(ActionMenu)
        count = menu.show(self.view, name)
        if not count:
            menu.show(self.view, "all")
            self._hint(why_no_menu(self.view, name))
            return
        menu.focus()
        if self.view.choosing_teleport:
            self._show_pick(self.query_one(BoardView).pick)  # the list's highlight on the destination picked

    def action_board(self) -> None:
        self.query_one(ActionMenu).show(self.view, "all")
        self.query_one(BoardView).focus()
        if self.view.choosing_teleport:  # (nothing to cancel: the potion is drunk, or thrown, and acts)
            self._show_pick(self.query_one(BoardView).pick)
            self._hint(f"The potion acts: it cannot be taken back. {PICK_HINT}")

    def _story(self) -> tuple[str, str] | None:
        """(title, text): the level's story preface (after the campaign's opening story, at the start of a run),
        or None when there is neither: the author wrote none, and the level has no preface to show. The title
        names what the text opens with: the campaign and the level, the campaign alone, or the level."""
        view = self.view
        level_title = view.level.title or view.level.id
        parts = [view.level.story] if view.level.story else []
        title = level_title
        if view.level_index == self.run.start and not self.practice and self.campaign.story and view.turn == 1:
            parts.insert(0, self.campaign.story)
            campaign_title = self.campaign.title or self.campaign.id
            if view.level.story and campaign_title != level_title:
                title = f"{campaign_title} · {level_title}"
            else:
                title = campaign_title
        return (title, "\n\n---\n\n".join(parts)) if parts else None

    def action_story(self, again: bool = True) -> None:
        """The level's story: as the level begins, or shown again (``p``) in the middle of it."""
        story = self._story()
        if story is None:
            self._hint("This level has no story.")
            return
        self.app.push_screen(StoryScreen(*story, again=again))

    def action_restart_level(self) -> None:
        self.run.restart_level()
        self._after_restart("Level restarted.")

    def action_restart_campaign(self) -> None:
        # The whole run is thrown away, as by q: asked twice while a run is under way (R sits beside r).
        if not (self._restart_armed or not self.run.actions or self.view.over):
            self._restart_armed = True
            self._hint("Press R again to restart the whole run; this run is not finished and will not be saved.")
            return
        self.run.restart_campaign()
        self._shown_level = -1
        self._after_restart("Run restarted.")

    def _after_restart(self, note: str) -> None:
        self.result = None
        self._quit_armed = self._restart_armed = False
        self._sync()
        self.query_one(BoardView).focus()
        # From the final board the board has the focus already, and no focus event redraws the bar: the run
        # plays again, and its keys are back.
        self.refresh_bindings()
        self._hint(note)

    def action_quit_run(self) -> None:
        if self._quit_armed or not self.run.actions or self.view.over:
            self.dismiss(self.result)
            return
        self._quit_armed = True
        self._hint("Press q again to leave; this run is not finished and will not be saved.")


class StoryScreen(ModalScreen[None]):
    """A level's story preface, rendered as Markdown: enter begins the level, or (``again``, the story shown
    by ``p``) goes back to the run under way."""

    CSS_PATH = "player.tcss"
    HORIZONTAL_BREAKPOINTS = PlayerScreen.HORIZONTAL_BREAKPOINTS  # narrower than 80: the dialog takes the width
    BINDINGS = [Binding("enter", "close", "Begin"), Binding("escape", "close", show=False),
                Binding("space", "close", show=False)]

    def __init__(self, title: str, story: str, again: bool = False) -> None:
        super().__init__()
        self.title_text, self.story, self.again = title, story, again

    # For the bar alone, while the story is taller than its dialog (at 80x24 the bundled campaign's opening
    # story hides its first level's rule below the fold): the scroll's own ↑ ↓ (and PgUp, PgDn) do the work.
    SCROLL_KEYS = [Binding("down", "more", "Scroll", key_display="↑↓")]

    def compose(self) -> ComposeResult:
        with Vertical(id="story-box") as box:
            box.border_title = content(self.title_text)
            box.border_subtitle = "Enter: back" if self.again else "Enter: begin"
            with VerticalScroll(id="story-scroll"):
                yield StoryMarkdown(printable(self.story, lines=True), id="story-text")
        shown = [replace(b, description="Back") if self.again and b.key == "enter" else b for b in self.BINDINGS]
        yield KeyBar(self.SCROLL_KEYS + shown)

    def on_mount(self) -> None:
        # The story's height is known once its Markdown is laid out (and again on a resize): the scrollbar
        # comes and goes with the overflow, and the bar follows it.
        self.watch(self.query_one("#story-scroll"), "show_vertical_scrollbar", lambda _: self.refresh_bindings())

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "more":
            return self.is_mounted and self.query_one("#story-scroll", VerticalScroll).show_vertical_scrollbar
        return True

    def action_more(self) -> None:
        self.query_one("#story-scroll", VerticalScroll).scroll_page_down()

    def action_close(self) -> None:
        self.dismiss(None)


class EndScreen(ModalScreen[str]):
    """Victory or defeat: turns, health left, par, the replay and the high-score table."""

    CSS_PATH = "player.tcss"
    HORIZONTAL_BREAKPOINTS = PlayerScreen.HORIZONTAL_BREAKPOINTS  # narrower than 80: the dialog takes the width
    BINDINGS = [Binding("r", "choose('level')", "Restart level"), Binding("n", "choose('campaign')", "New run"),
                Binding("q", "choose('quit')", "Leave"), Binding("escape", "choose('look')", "Look at the board", key_display="Esc"),
                Binding("h", "submit_to_hub", "Submit to hub")]

    def __init__(self, result: RunResult, title: str, hub_replay: str | None = None, *,
                 random_dice: bool = False, no_par: str = "unknown", recording: bool = False) -> None:
        super().__init__()
        self.result, self.title_text = result, title
        # The run is being saved, verified and scored (PlayerScreen._finish): its keys wait for :meth:`recorded`.
        self.recording = recording
        self.no_par = no_par  # after "Par" when the result has none: why (run.no_par)
        self.random_dice = random_dice  # what r and n do to the dice (dice_note)
        self.hub_replay = hub_replay  # a won, verified run's replay when a hub is configured (docs/hub.md)

    def compose(self) -> ComposeResult:
        r = self.result
        won = r.outcome == "won"
        with Vertical(id="end-box", classes="won" if won else "dead") as box:
            box.border_title = content(self.title_text)
            yield Static(Text("Victory!" if won else "Defeat", "bold green" if won else "bold red"), id="end-title")
            with VerticalScroll(id="end-body"):
                yield Static(self._summary(), id="end-summary")
                if r.table:
                    yield Static(self._table(), id="end-table")
                if self.hub_replay is not None:
                    yield Static(self._hub_offer(), id="end-hub")
            yield Static(Text.assemble((dice_note(self.random_dice), "italic"), "\n",
                                       ("r restart level · n new run · q leave · Esc board", "dim")), id="end-keys")
        yield KeyBar(dice_keys(self.BINDINGS, self.random_dice, "n"))

    def on_mount(self) -> None:
        self.call_after_refresh(self._fit_body)

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit_body)

    def _fit_body(self) -> None:
        """The dialog grows to the screen's height, no further: the title and the keys line always show, and
        the body between them (the summary, the high scores, the hub's answer) scrolls when it is taller
        than the room left (at 80x24 a won run's hub answer, its address wrapped on three lines)."""
        if not self.is_attached:
            return
        box = self.query_one("#end-box")
        fixed = box.styles.gutter.height + sum(w.outer_size.height + w.styles.margin.height
                                               for w in (self.query_one("#end-title"), self.query_one("#end-keys")))
        room = self.size.height - sum(bar.outer_size.height for bar in self.query(KeyBar)) - fixed
        self.query_one("#end-body").styles.max_height = max(1, room)

    def recorded(self, result: RunResult, hub_replay: str | None) -> None:
        """The run saved, verified and scored: its result, the high scores and the hub's key, and the keys back."""
        self.result, self.hub_replay, self.recording = result, hub_replay, False
        if not self.is_attached:
            return
        self.query_one("#end-summary", Static).update(self._summary())
        body = self.query_one("#end-body", VerticalScroll)
        if result.table:
            body.mount(Static(self._table(), id="end-table"))
        if hub_replay is not None:
            body.mount(Static(self._hub_offer(), id="end-hub"))
        self.refresh_bindings()
        self.call_after_refresh(self._fit_body)

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "submit_to_hub":
            return self.hub_replay is not None
        return None if self.recording else True  # (dimmed until the run is recorded)

    def _hub_offer(self) -> Text:
        if self.app.is_web:
            return Text("h download this run's replay, to submit it to a hub under your own account", "bold")
        return Text("h submit this run to the hub", "bold")

    def action_submit_to_hub(self) -> None:
        replay, self.hub_replay = self.hub_replay, None  # one submission per run
        self.refresh_bindings()
        if self.app.is_web:
            self._deliver(replay)
            return
        self.query_one("#end-hub", Static).update(Text("Submitting to the hub…", "dim"))
        self.run_worker(lambda: self._submitted(replay), thread=True, group="hub")

    def _deliver(self, replay: str) -> None:
        """In a browser: the replay downloaded by the browser, never submitted with the server's hub account (the
        server's user's, whoever plays in the tab: docs/web.md). The player submits it under their own account. It is
        the replay as shared (:func:`~cardrogue.engine.records.replay.shared_text`): without the server's path to the
        campaign file, and naming no player (the name recorded is the server's user's)."""
        from io import StringIO

        from cardrogue.engine.records.replay import shared_text

        replay = shared_text(replay, unnamed=True)

        name = self.result.replay_path.name if self.result.replay_path is not None else "run.replay.json"
        self.app.deliver_text(StringIO(replay), save_filename=name, open_method="download", mime_type="application/json")
        self.query_one("#end-hub", Static).update(Text(
            f"The replay downloads as {name}: submit it under your own hub account with "
            f"`cardrogue hub submit {name}` (this server's account is not yours).", "green"))
        self.call_after_refresh(self.query_one("#end-body", VerticalScroll).scroll_end, animate=False)

    def _submitted(self, replay: str) -> None:
        from cardrogue.hub.client import submit_run

        ok, message = submit_run(replay)  # in a worker thread: the hub answers over the network
        self.app.call_from_thread(self._show_hub_answer, ok, message)

    def _show_hub_answer(self, ok: bool, message: str) -> None:
        if self.is_attached:  # the player may have left the screen while the hub was answering
            self.query_one("#end-hub", Static).update(Text(message, "green" if ok else "red"))
            body = self.query_one("#end-body", VerticalScroll)
            self.call_after_refresh(body.scroll_end, animate=False)  # the answer in view, should the body scroll

    def _summary(self) -> RenderableType:
        r = self.result
        text = Text()
        text.append("Turns ", "bold").append(str(r.turns))
        text.append("   Health left ", "bold").append(str(max(r.health, 0)))
        text.append("   Par ", "bold")
        if r.par is None:
            text.append(self.no_par)
        else:
            diff = r.turns - r.par
            text.append(f"{r.par}")
            if r.outcome == "won":
                text.append(" (on par)" if diff == 0 else f" ({diff:+d})", "green" if diff <= 0 else "yellow")
        text.append("\n")
        if r.rank is not None:
            text.append(f"Rank {r.rank} in the high-score table.\n", "bold yellow")
        message = printable(r.message) or ("A practice run." if r.practice else "")
        path = printable(str(r.replay_path)) if r.replay_path is not None else ""
        saved = f"Replay saved to {path}."
        if path and saved in message and self.app.is_web:  # the server's folders are not the browser player's
            kept = f"Replay kept on the server as {printable(r.replay_path.name)}"
            return text.append(message.replace(saved, kept + ("; h downloads it." if self.hub_replay else ".")))
        if not path or saved not in message:
            return text.append(message)
        before, after = message.split(saved, 1)
        text.append(before + "Replay saved to")
        return Group(text, FoldedPath(path), Text(after.strip()))

    def _table(self) -> Table:
        table = Table(title="High scores", expand=True, box=None, header_style="bold")
        for column, justify in (("#", "right"), ("player", "left"), ("turns", "right"), ("health", "right")):
            table.add_column(column, justify=justify)
        for s in self.result.table:
            style = "bold yellow" if s.run_id == self.result.run_id else ""  # (a tie shares its rank)
            table.add_row(str(s.rank), name_cell(s.player or "anonymous"), str(s.turns), str(s.health), style=style)
        return table

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)

