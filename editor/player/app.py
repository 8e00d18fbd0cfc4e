"""``cardrogue play``: the player as an app of its own.

:class:`PlayerApp` only hosts a :class:`~.screens.PlayerScreen` and exits when
it is dismissed; everything else lives in the screen, so the editor can push
the same screen for a play-test.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from textual.app import App
from textual.binding import Binding
from textual.filter import LineFilter

from cardrogue.engine.model.campaign import Campaign
from cardrogue.engine.printable import printable
from cardrogue.engine.words import counted

from ..key_order import KeysInOrder
from ..shown import NO_RAW_CONTROLS
from .run import RunResult, default_replays_dir
from .screens import PlayerScreen

EXIT_OK = 0


class PlayerApp(KeysInOrder, App[RunResult | None]):
    """The player on its own: one PlayerScreen, exit when it is dismissed."""

    TITLE = "Card Rogue"
    ENABLE_COMMAND_PALETTE = False
    # ctrl+q leaves as q does (twice while a run is under way): Textual's own ctrl+q quit at once and lost the run
    BINDINGS = [Binding("ctrl+q", "leave", "Quit", show=False, priority=True)]

    def run(self, *args, **kwargs):  # a terminal session: refused without a terminal (it would wait for ever)
        if not kwargs.get("headless"):
            require_player_terminal()
        return super().run(*args, **kwargs)

    def __init__(self, campaign: Campaign, level: int | None = None, *, replays_dir: Path | None = None,
                 scores_db: Path | None = None, player: str | None = None, dice_seed: int | None = None,
                 campaign_file: Path | None = None) -> None:
        super().__init__()
        self.campaign, self.level, self.dice_seed, self.campaign_file = campaign, level, dice_seed, campaign_file
        self.replays_dir, self.scores_db, self.player = replays_dir, scores_db, player
        self.sub_title = printable(campaign.title)
        self._leave_armed = False

    def get_line_filters(self) -> Sequence[LineFilter]:
        return [*super().get_line_filters(), NO_RAW_CONTROLS]

    def action_leave(self) -> None:
        """ctrl+q: on the board, what q does; over the story or the end screen, leave once the run is over
        or not begun, else only when pressed a second time."""
        player = next((s for s in self.screen_stack if isinstance(s, PlayerScreen)), None)
        if player is None:
            self.exit(None)
        elif self.screen is player:
            player.action_quit_run()
        elif player.recording:  # the run is being saved, verified and scored: leave with its result, once it is
            player.leave_when_recorded = True
            self.notify("Leaving once the run is recorded.", markup=False)
        elif self._leave_armed or player.view.over or not player.run.actions:
            self.exit(player.result)
        else:
            self._leave_armed = True
            self.notify("Press ctrl+q again to leave; this run is not finished and will not be saved.", markup=False)

    def action_help_quit(self) -> None:
        """ctrl+c does not quit (Textual's rule): say which keys do, as the footer names them, and that mid-run
        they are pressed twice (:meth:`action_leave`, ``PlayerScreen.action_quit_run``)."""
        player = next((s for s in self.screen_stack if isinstance(s, PlayerScreen)), None)
        if player is None or player.view.over or not player.run.actions:
            message = "Press q to leave (ctrl+q does the same)"
        elif self.screen is player:
            message = ("Press q twice to leave (ctrl+q does the same); this run is not finished and will not be "
                       "saved.")
        else:
            message = "Press ctrl+q twice to leave; this run is not finished and will not be saved."
        self.notify(message, title="Do you want to quit?", markup=False)

    def on_mount(self) -> None:
        screen = PlayerScreen(self.campaign, self.level, replays_dir=self.replays_dir, scores_db=self.scores_db,
                              player=self.player, dice_seed=self.dice_seed, campaign_file=self.campaign_file)
        self.push_screen(screen, self.exit)


def require_player_terminal() -> None:
    """Refuse the player (:class:`UnusableInput`, exit 2) without a terminal to draw on and read keys
    from, with what to run instead (docs/player.md)."""
    from ..terminal import require_terminal

    require_terminal("the player", "`cardrogue web` to play in a browser, or `cardrogue run` to play scripted actions")


def playable(campaign_path: Path | None, level: int | None = None) -> tuple[Path, Campaign]:
    """The file ``cardrogue play`` plays (no argument: the bundled campaign) and its campaign, with
    ``--level`` N (1-based) checked against it. Raises :class:`UnusableInput` for a campaign that cannot
    be played or a level it does not have: these are said before the terminal is asked for or any file
    is made (docs/player.md)."""
    from cardrogue.engine.errors import UnusableInput
    from cardrogue.engine.format.loader import load_usable
    from cardrogue.engine.format.resources import default_campaign
    from cardrogue.engine.words import level_span

    path = campaign_path or default_campaign()
    campaign = load_usable(path)
    if level is not None and not 1 <= level <= len(campaign.levels):
        raise UnusableInput(f"{path}: --level {level}: the campaign has {level_span(len(campaign.levels))}")
    return path, campaign


def run_player(campaign_path: Path | None, level: int | None = None, scores_db: Path | None = None,
               replays_dir: Path | None = None, player: str | None = None, dice_seed: int | None = None,
               campaign: Campaign | None = None) -> int:
    """``cardrogue play [CAMPAIGN] [--level N] [--random-dice]``: N is 1-based; a run with --level or
    random dice (``dice_seed``) is practice, never scored. Raises :class:`UnusableInput` (the CLI
    prints it) for a campaign that cannot be played or a level it does not have. ``campaign``: the
    campaign of ``campaign_path`` when :func:`playable` has loaded and checked it already."""
    from cardrogue.engine.records.scores import default_db_path

    if campaign is None:
        path, campaign = playable(campaign_path, level)
    else:
        path = campaign_path
    app = PlayerApp(campaign, None if level is None else level - 1,
                    replays_dir=replays_dir or default_replays_dir(), scores_db=scores_db or default_db_path(),
                    player=player, dice_seed=dice_seed, campaign_file=path)
    app.run()
    result = app.return_value
    if result is not None and result.replay_path is not None:
        print(f"{result.outcome}: {counted(result.turns, 'turn')}, {result.health} health. Replay: {printable(str(result.replay_path))}")
    return EXIT_OK
