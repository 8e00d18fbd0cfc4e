"""The campaign editor: a Textual app over one :class:`~.document.Document`.

The app composes the screen and routes: widgets report what the author did with messages
(:mod:`.messages`) and keys run its actions; the app turns that into an edit (:mod:`.edits`),
applies it through the document (so it can be undone) and shows the new campaign. The longer
conversations live beside it: the forms in :mod:`.forms`, the solver in :mod:`.solving`, the file
flows in :mod:`.file_flows` and the background checks in :mod:`.checking`.

Run it with ``cardrogue edit [CAMPAIGN]`` or ``python -m cardrogue.editor.app [CAMPAIGN]``.
"""

from __future__ import annotations

import sys
from functools import partial, reduce
from pathlib import Path
from typing import Callable, Sequence

from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.filter import LineFilter
from textual.notifications import SeverityLevel
from textual.widgets import Header, OptionList, Static, TabbedContent, TabPane

from cardrogue.engine.format.diagnostics import Diagnostic, Severity
from cardrogue.engine.model.campaign import Campaign, CardKind, Direction
from cardrogue.engine.model.potions import seeded_identities
from cardrogue.engine.printable import printable
from cardrogue.engine.words import counted, place_text

from . import edits
from .checking import Checker, markers
from .commands import EditorCommands, help_markdown
from .document import Document, Where
from .file_flows import FileFlows
from .files import OpenError, default_document, document_for, draft_errors, draft_note
from .forms import Forms
from .key_order import KeysInOrder
from .header import HEADER_CHROME, fit_header, header_text
from .recent import recent_files, remember
from .room import too_short
from .shown import NO_RAW_CONTROLS, markup
from .phrasing import editor_message
from .messages import (CardChosen, CellFieldEdited, CursorMoved, LevelChosen, MapWanted, PaintCell, ProblemChosen,
                       StoryEdited)
from .publishing import PublishFlow
from .solving import SolveFlow
from .widgets.dialogs import AskScreen, ChoiceScreen, FormScreen, HelpScreen, PathScreen
from .widgets.footer import EditorFooter
from .widgets.inspector import Inspector, parse_rolls
from .widgets.finding import FindScreen, OverviewScreen, matching_cells, next_place
from .widgets.legend import LegendScreen, legend_lines
from .widgets.level_list import LevelList
from .widgets.map_canvas import MapCanvas
from .widgets.palette import Palette
from .widgets.problems import ProblemsPanel, level_titles
from .widgets.story import StoryEditor

AUTOSAVE_SECONDS = 15.0
DISK_CHECK_SECONDS = 2.0
# The fewest rows the sidebar's three panels fit in, the Levels panel cut to three lines (editor.tcss, "-short"):
# on a shorter terminal the Cell panel is hidden and a line under the panels says so (it was dropped unsaid).
CELL_PANEL_ROWS = 20
# Narrower than NARROW_COLUMNS, the 28-column sidebar left the map a few boxes' width (15 columns of a phone's 43):
# from NARROW_ROWS rows up (a phone's browser in portrait, about 43x40) the map takes the whole width and the
# sidebar's panels go under it (editor.tcss, "-narrow"). Shorter, the rows are what is short: the sidebar stays beside.
NARROW_COLUMNS = 80
NARROW_ROWS = 30


class EditorApp(KeysInOrder, App[int]):
    """Card Rogue Story Studio's campaign editor."""

    CSS_PATH = "editor.tcss"
    TITLE = "Card Rogue Story Studio"
    COMMANDS = App.COMMANDS | {EditorCommands}
    BINDINGS = [
        Binding("ctrl+s", "save", "Save"),
        Binding("ctrl+z", "undo", "Undo"),
        Binding("ctrl+y", "redo", "Redo", show=False),
        Binding("f5", "playtest", "Play"),
        Binding("f1", "help", "Help"),
        Binding("question_mark", "help", "Help", show=False),
        Binding("ctrl+o", "open", "Open", show=False),
        Binding("ctrl+n", "new", "New", show=False),
        Binding("f12", "save_as", "Save as", show=False),
        Binding("ctrl+e", "metadata", "Metadata", show=False),
        Binding("f4", "card", "Card", show=False),
        Binding("f6", "solve", "Solve", show=False),
        Binding("f7", "potions", "Potions", show=False),
        Binding("f8", "hero", "Hero", show=False),
        Binding("f9", "publish", "Publish", show=False),
        Binding("f2", "show_tab('map')", "Map", show=False),
        Binding("f3", "show_tab('story')", "Story", show=False),
        Binding("ctrl+g", "focus_map", "Map", show=False),
        Binding("ctrl+l", "focus_levels", "Levels", show=False),
        Binding("ctrl+f", "focus_palette", "Cards", show=False),
        Binding("ctrl+k", "focus_problems", "Problems", show=False),
        Binding("ctrl+r", "focus_cell('rolls')", "Rolls", show=False),
        Binding("ctrl+t", "focus_cell('inscription')", "Cell", show=False),
        Binding("ctrl+q", "quit", "Quit", priority=True, show=False),
    ]

    def run(self, *args, **kwargs):  # a terminal session: refused without a terminal (it would wait for ever)
        if not kwargs.get("headless"):
            from .terminal import require_terminal

            require_terminal("the editor", "`cardrogue web --editor` for a browser")
        return super().run(*args, **kwargs)

    def __init__(self, document: Document | None = None, *, recovery_dir: Path | None = None,
                 autosave_seconds: float = AUTOSAVE_SECONDS, cursor_blink: bool = True) -> None:
        super().__init__()
        self.cursor_blink = cursor_blink
        self.doc = document or default_document()
        self.autosave_seconds = autosave_seconds
        self.level_index = 0
        self.story_level: int | None = 0
        self.diagnostics: list[Diagnostic] = []
        self.clip: edits.Clip | None = None
        self._list_key: tuple | None = None
        self._cursors: dict[int, tuple[int, int]] = {}
        self._palette_cards: object = None
        self._find_query = ""
        self._remembered: Path | None = None
        self._header_parts: tuple[str, bool, str] | None = None  # the header's file name, unsaved mark, brush
        self.files = FileFlows(self, recovery_dir)
        self.forms = Forms(self)
        self.solving = SolveFlow(self)
        self.publishing = PublishFlow(self)
        self.checker = Checker(self, self._checks_done)

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="body"):
            with Vertical(id="sidebar"):
                yield LevelList(id="levels")
                yield Palette(id="palette")
                yield Inspector(id="inspector")
            with TabbedContent(id="tabs", initial="map"):
                with TabPane("Map", id="map"):
                    yield MapCanvas(id="canvas")
                    yield ProblemsPanel(id="problems")
                with TabPane("Story", id="story"):
                    yield StoryEditor(id="story-editor")
        yield Static(id="room")
        yield EditorFooter()

    def on_mount(self) -> None:
        self.query_one("#levels").border_title = "Levels"
        self.query_one("#palette").border_title = "Cards"
        self.query_one("#inspector").border_title = "Cell"
        self._show_canvas_title()
        self.load_document(self.doc)
        if not self.cursor_blink:
            for widget in self.query("Input, TextArea"):
                widget.cursor_blink = False  # type: ignore[attr-defined]
        self.query_one(MapCanvas).focus()
        self.set_interval(self.autosave_seconds, self.files.autosave)
        self.set_interval(DISK_CHECK_SECONDS, self.files.check_disk)
        self.files.offer_recovery()

    def on_unmount(self) -> None:
        self.checker.close()

    # ------------------------------------------------------------------ showing the document

    @property
    def canvas(self) -> MapCanvas:
        return self.query_one(MapCanvas)

    @property
    def campaign(self) -> Campaign:
        return self.doc.campaign

    def load_document(self, doc: Document) -> None:
        """Show another document from its first level (opened, new, from a template)."""
        self.doc = doc
        self.level_index, self.story_level = 0, 0
        self._cursors.clear()
        self._list_key = None
        self.files.opened(doc)
        self.publishing.leave_document()
        self.canvas.anchor = None
        self.canvas.cursor = (0, 0)
        self.solving.forget()
        self._show_level_list()
        self.refresh_all(check=False)
        # Checks start once the first frame is on screen, so a big map shows at once.
        self.call_after_refresh(self._start_checks)

    def refresh_all(self, check: bool = True) -> None:
        """Show the current campaign everywhere and re-run the checks."""
        self.update_title()
        self._show_level_list()
        if self._palette_cards is not self.campaign.cards:
            self._palette_cards = self.campaign.cards
            self.query_one(Palette).show(self.campaign.cards, set(self.campaign.card_entries))
        self.solving.campaign_changed()
        self.publishing.campaign_changed()
        level = self.campaign.levels[self.level_index]
        self.canvas.show(level, self.campaign.cards, markers(self.diagnostics, self.level_index))
        self._show_inspector()
        self._show_story()
        if check:
            self._start_checks()

    def get_line_filters(self) -> Sequence[LineFilter]:
        return [*super().get_line_filters(), NO_RAW_CONTROLS]

    def format_title(self, title: str, sub_title: str) -> Content:
        """The header's line fitted to the terminal's width (:func:`.header.fit_header`): the file's
        name and the brush kept, the app's title given up first."""
        if self._header_parts is None or sub_title != self.sub_title:
            return super().format_title(title, sub_title)
        title, sub_title = fit_header(self.size.width - HEADER_CHROME, title, *self._header_parts)
        if not title:
            return Content(sub_title).stylize("dim")
        return super().format_title(title, sub_title)

    def on_resize(self, event: events.Resize) -> None:
        if self._header_parts is not None:
            self.mutate_reactive(EditorApp.sub_title)  # the header fits its line again
        # editor.tcss: from 24 rows every panel at its height; shorter, the Levels panel gives up rows, then the Cell
        # panel is hidden (CELL_PANEL_ROWS) and #room says so. (The body's classes, not the app's breakpoints, which
        # every screen pushed would take and lay out again.) Narrow and tall, the sidebar goes under the map (the
        # editor's screen's class: its notifications move with the sidebar).
        rows, main = event.size.height, self.screen_stack[0]  # (the editor's screen, under any dialog open)
        main.set_class(event.size.width < NARROW_COLUMNS and rows >= NARROW_ROWS, "-narrow")
        body = main.query_one("#body")
        body.set_class(rows < 24, "-short")
        body.set_class(rows < CELL_PANEL_ROWS, "-cramped")
        room = main.query_one("#room", Static)
        room.update(too_short("Cell panel hidden", CELL_PANEL_ROWS, rows))
        room.set_class(rows < CELL_PANEL_ROWS, "-shown")

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """Every notification is plain text: they name files, levels and cards (``markup`` is ignored)."""
        super().notify(printable(message), title=printable(title), severity=severity, timeout=timeout, markup=False)

    def action_help_quit(self) -> None:
        """ctrl+c (Textual's hint that it does not quit), in plain words: Textual's own says it with markup
        (``[b]ctrl+q[/b]``), which :meth:`notify` shows as text."""
        for key, active in self.active_bindings.items():
            if active.binding.action in ("quit", "app.quit"):
                self.notify(f"Press {key} to quit the editor", title="Do you want to quit?")
                return

    def update_title(self) -> None:
        # the brush stays in the header through edits and saves (it was dropped at the first edit)
        brush = next((p.brush for p in self.query(Palette)), "")
        self._header_parts = (printable(self.doc.name), self.doc.dirty, printable(brush))
        self.sub_title = printable(header_text(self.doc.name, self.doc.dirty, brush))
        path = self.doc.path
        if path is not None and path != self._remembered and path.exists():
            self._remembered = path
            remember(path)  # opened or saved: first in the recent files

    def _show_level_list(self) -> None:
        c = self.campaign
        key = (c.title, c.id, self.story_level, tuple((lv.id, lv.title, lv.width, lv.height) for lv in c.levels))
        if key != self._list_key:
            self._list_key = key
            self.query_one(LevelList).show(c, self.story_level)

    def _potion(self, card) -> str | None:
        """What a potion card is in this campaign, for the Cell panel (walk 26: "Red Potion potion" said nothing
        of teleportation; only F7's form did): the author's colour (f7) or the seed's."""
        colour = getattr(card, "colour", None) if card is not None and card.kind is CardKind.POTION else None
        if colour is None:
            return None
        chosen = self.campaign.potions
        seeded = seeded_identities(self.campaign.seed, chosen)  # (None: a draft's seed out of range)
        effect = seeded.get(colour) if seeded else None
        if not isinstance(effect, str):
            return None
        how = "f7" if colour in chosen else f"seed {self.campaign.seed}; f7 sets it"
        return f"a potion of {effect} here ({how})"

    def _show_inspector(self) -> None:
        x, y = self.canvas.cursor
        level = self.campaign.levels[self.level_index]
        cell = level.cell_at(x, y)
        card = self.campaign.cards.get(cell.card) if cell else None
        colour = {Severity.ERROR: "red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}
        problems = [markup(f"[{colour[d.severity]}]$code: $message[/]", code=d.code, message=editor_message(d))
                    for d in self.diagnostics
                    if d.level == self.level_index and d.cell == (x, y)]
        others = tuple((lv.id, lv.title) for i, lv in enumerate(self.campaign.levels) if i != self.level_index)
        inspector = self.query_one(Inspector)
        had_list = inspector.leads_somewhere
        inspector.show(x, y, cell, card, problems, level=self.level_index, levels=others, potion=self._potion(card))
        if inspector.leads_somewhere != had_list:
            self.refresh_bindings()  # t joins the footer on a ladder, and leaves it

    def _show_story(self) -> None:
        if self.story_level is None:
            title, text = "Campaign story (Markdown)", self.campaign.story
        else:
            level = self.campaign.levels[self.story_level]
            title, text = f"Preface of level {self.story_level + 1}: {level.title or level.id} (Markdown)", level.story
        self.query_one(StoryEditor).show(title, self.story_level, text)

    def set_level(self, index: int) -> None:
        index = max(0, min(len(self.campaign.levels) - 1, index))
        self.solving.level_changed(index)
        self._cursors[self.level_index] = self.canvas.cursor
        self.level_index = index
        self.story_level = index
        self.canvas.anchor = None
        self.canvas.show(self.campaign.levels[index], self.campaign.cards, markers(self.diagnostics, index))
        self.canvas.cursor = self._cursors.get(index, (0, 0))
        self.canvas.scroll_to_region_of(*self.canvas.cursor)
        self._show_level_list()
        self._show_inspector()
        self._show_story()

    # ------------------------------------------------------------------ checks

    def _start_checks(self) -> None:
        self.query_one(ProblemsPanel).set_checking()
        self.checker.start(self.doc)

    def problems_out_of_date(self, why: str) -> None:
        """A problem chosen in the panel no longer describes the campaign (edited since its check; ``why``): said
        plainly, nothing edited, and the campaign checked again."""
        self.notify(f"This problem is out of date: {why} (the campaign changed since it was checked). Checking "
                    "again: choose it once the problems are listed anew.", severity="warning", timeout=6)
        self._start_checks()

    def _checks_done(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = diagnostics
        self.files.first_checked(diagnostics)
        self.query_one(ProblemsPanel).show(diagnostics, level_titles(self.campaign))
        self.canvas.set_markers(markers(diagnostics, self.level_index))
        self._show_inspector()

    # ------------------------------------------------------------------ applying edits

    def edit(self, fn: Callable[[Campaign], Campaign], label: str, where: Where | None = None,
             merge_key: str | None = None) -> bool:
        """Apply an edit through the document; refresh the screen when it changed something."""
        if where is None:
            x, y = self.canvas.cursor
            where = Where(self.level_index, x, y)
        try:
            changed = self.doc.apply(fn, label, where, merge_key)
        except ValueError as exc:
            self.notify(str(exc), severity="error")
            return False
        if changed:
            self.level_index = min(self.level_index, len(self.campaign.levels) - 1)
            if self.story_level is not None:
                self.story_level = min(self.story_level, len(self.campaign.levels) - 1)
            self.refresh_all()
        return changed

    def _cells_edit(self, label: str, op: Callable[[Campaign, int, int, int], Campaign]) -> None:
        """Apply ``op`` to every card of the selection, as one undoable edit."""
        li, rect = self.level_index, self.canvas.selection
        places = [(x, y) for y in range(rect.y0, rect.y1 + 1) for x in range(rect.x0, rect.x1 + 1)]
        self.edit(lambda c: reduce(lambda acc, p: op(acc, li, p[0], p[1]), places, c), label)

    def action_place(self) -> None:
        card, li = self.query_one(Palette).brush, self.level_index
        rect, came_from = self.canvas.selection, self.canvas.came_from
        self.edit(lambda c: edits.fill_cards(c, li, rect, card, came_from), f"Place {card}")

    def action_rotate(self, clockwise: bool = True) -> None:
        self._cells_edit("Rotate", lambda c, li, x, y: edits.rotate(c, li, x, y, clockwise))

    def action_toggle_face(self) -> None:
        li, rect = self.level_index, self.canvas.selection
        self.edit(lambda c: edits.turn_faces(c, li, rect), "Toggle face")

    def action_toggle_exit(self) -> None:
        li, (x, y) = self.level_index, self.canvas.cursor
        self.edit(lambda c: edits.toggle_exit(c, li, x, y), "Toggle exit")

    def action_toggle_path(self, direction: str) -> None:
        li, (x, y) = self.level_index, self.canvas.cursor
        self.edit(lambda c: edits.toggle_path(c, li, x, y, Direction(direction)), f"Toggle {direction} path")

    def action_delete(self) -> None:
        li, rect = self.level_index, self.canvas.selection
        self.edit(lambda c: edits.delete_cells(c, li, rect), "Delete")

    def action_copy(self) -> None:
        rect = self.canvas.selection
        self.clip = edits.copy_cells(self.campaign, self.level_index, rect)
        self.notify(f"Copied {rect.width}×{rect.height} ({counted(len(self.clip.cells), 'card')})", timeout=2)

    def action_paste(self) -> None:
        if self.clip is None:
            self.notify("Nothing to paste: copy a rectangle first (c)", severity="warning", timeout=3)
            return
        clip, li, (x, y) = self.clip, self.level_index, self.canvas.cursor
        self.edit(lambda c: edits.paste_cells(c, li, x, y, clip), "Paste")

    @on(PaintCell)
    def _paint(self, message: PaintCell) -> None:
        card, li = self.query_one(Palette).brush, self.level_index
        self.edit(lambda c: edits.place_card(c, li, message.x, message.y, card, message.joined_to), f"Paint {card}",
                  Where(li, message.x, message.y), merge_key=f"paint-{message.stroke}")

    @on(CellFieldEdited)
    def _cell_field(self, message: CellFieldEdited) -> bool:
        """Write a Cell panel field to its cell; False when its text is refused (said so)."""
        li, x, y = message.at if message.at is not None else (self.level_index, *self.canvas.cursor)
        if li >= len(self.campaign.levels) or self.campaign.levels[li].cell_at(x, y) is None:
            return True  # its level or card went while the text waited (no cell to write to)
        value: object = message.value
        if message.field == "rolls":
            try:
                value = parse_rolls(message.value)
            except ValueError as exc:
                self.notify(str(exc), severity="error")
                return False
        elif message.field == "to":
            value = message.value.strip() or None
        self.edit(lambda c: edits.set_cell_fields(c, li, x, y, **{message.field: value}), f"Set {message.field}",
                  Where(li, x, y))
        return True

    @on(StoryEdited)
    def _story(self, message: StoryEdited) -> None:
        level, text = message.level, message.text
        if level is not None and level >= len(self.campaign.levels):
            return
        typed = self.query_one(StoryEditor).typed()
        if typed is not None and typed[0] == level:
            text = typed[1]  # the text as it is now: a message queued behind a save would bring back an older one
        changed = self.doc.apply(lambda c: edits.set_story(c, level, text), "Edit story",
                                 Where(level), merge_key=f"story-{level}")
        if changed:
            self.update_title()
            self._start_checks()

    # levels

    def action_add_level(self) -> None:
        at = self.level_index + 1
        if self.edit(lambda c: edits.add_level(c, at), "Add level"):
            self.set_level(at)

    def action_duplicate_level(self) -> None:
        li = self.level_index
        if self.edit(lambda c: edits.duplicate_level(c, li), "Duplicate level"):
            self.set_level(li + 1)

    def action_remove_level(self) -> None:
        li = self.level_index
        if len(self.campaign.levels) == 1:
            self.notify("A campaign needs at least one level", severity="warning")
            return
        title = self.campaign.levels[li].title or self.campaign.levels[li].id
        if self.edit(lambda c: edits.remove_level(c, li), "Remove level"):
            self.set_level(min(li, len(self.campaign.levels) - 1))
            self.notify(f"Removed level {title!r} (ctrl+z brings it back)", timeout=3)

    def action_move_level(self, delta: int) -> None:
        li = self.level_index
        if self.edit(lambda c: edits.move_level(c, li, delta), "Move level"):
            self.set_level(li + delta)

    # ------------------------------------------------------------------ routing: forms, solving, files

    def action_level_properties(self) -> None:
        self.forms.level_properties()

    def action_metadata(self) -> None:
        self.forms.metadata()

    def action_add_goal(self) -> None:
        self.forms.add_goal()

    def action_remove_goal(self) -> None:
        self.forms.remove_goal()

    def action_cell_items(self) -> None:
        self.forms.cell_items()

    def action_potions(self) -> None:
        self.forms.potions()

    def action_hero(self) -> None:
        self.forms.hero()

    def action_card(self, card_id: str | None = None) -> None:
        self.forms.card(card_id)

    def action_remove_card(self) -> None:
        self.forms.remove_card()

    def action_solve(self) -> None:
        if self.apply_typed():
            self.solving.solve()

    def par_recorded_how(self) -> str:
        """How the author records this version's par: Record par when level 1's par is the campaign's (no ladder on
        it: a run ends at its exit), else ``cardrogue solve --write-par`` (the campaign's par runs down its ladders,
        which F6's level par does not)."""
        if self.campaign.levels and not self.campaign.levels[0].ladders:
            return "F6 on level 1, then ctrl+p Record par, records this version's"
        return f"cardrogue solve --write-par {self.doc.name} records this version's (its par runs down its ladders)"

    def action_record_par(self) -> None:
        """*Record par*: the par F6 proved, written in the campaign (the file's ``par``), when the level's par is the
        campaign's: the first level, without a ladder (a run ends at its exit). One undoable edit."""
        from dataclasses import replace

        from cardrogue.engine.model.campaign import Par

        li, solution = self.level_index, self.solving.solution
        if self.solving.proven_par(li) is None or solution is None:
            self.notify("Record par: F6 proves the level's par first", severity="warning", timeout=5)
            return
        if li != 0 or self.campaign.levels[li].ladders:
            self.notify("Record par: the file records the campaign's par, from level 1 to its exit; F6 proved this "
                        "level's alone: cardrogue solve --write-par records the campaign's", severity="warning",
                        timeout=8)
            return
        par = Par(solution.result.turns, solution.result.health)
        if self.campaign.par == par:  # (an edit that changes nothing would cost F6's verdict: the last edit's)
            self.notify(f"Par already recorded: {counted(par.turns, 'turn')}, {par.health} health left", timeout=5)
            return
        if self.edit(lambda c: replace(c, par=par), "Record par"):
            self.doc.know_par(self.campaign)
        self.notify(f"Par recorded: {counted(par.turns, 'turn')}, {par.health} health left (ctrl+s saves it)",
                    timeout=5)

    def action_publish(self) -> None:
        """F9: publish the open campaign to the configured hub, when it has no errors and a proven par (F9 again,
        while its par is being proven: stop)."""
        if self.publishing.running:
            self.publishing.stop_now()
            return
        if not self.apply_typed():  # what the Cell panel shows is what is published
            return
        if any(d.severity is Severity.ERROR for d in self.diagnostics):
            self.notify("Not published: fix the errors in the problems panel first.", severity="error")
            return
        from cardrogue.hub.client import NO_HUB, configured

        if configured() is None:  # said before "Publishing: ...", not after it (read from the config alone)
            self.notify(NO_HUB, severity="error", markup=False)
            return
        self.notify("Publishing: proving the par, then sending the map to the hub…", timeout=3)
        self.publishing.start(self.doc.text())  # a version not saved, or changed since, is said with the answer

    def action_hide_published(self) -> None:
        """Escape on the map: the last publish's answer off the solver's line."""
        self.publishing.hide()

    def action_solution_step(self, delta: int) -> None:
        self.solving.step(delta)

    def action_leave_steps(self) -> None:
        self.solving.leave()

    def get_system_commands(self, screen):
        # Quit is one of the editor's own commands (it asks before losing changes): listed once
        for command in super().get_system_commands(screen):
            if command.title != "Quit":
                yield command

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action in ("solution_step", "leave_steps"):
            return self.solving.stepping
        return True

    def in_footer(self, action: str) -> bool:
        """Whether the footer offers ``action`` here: t on a ladder alone, where it does something (it
        runs everywhere: pressed on another card it says why it does nothing, as i and ctrl+r do)."""
        if action == "choose_destination":
            return self.query_one(Inspector).leads_somewhere
        return True

    def apply_typed(self) -> bool:
        """Apply what was typed in the Story source and the Cell panel and not entered yet, before the
        campaign is saved, left or played (each key in the story, enter or leaving a field applies it otherwise). False when a field's text is
        refused (rolls that are not d6 faces): the caller stops, and the field keeps the text and the focus,
        so a save does not go on without it and a quit does not drop it."""
        typed = self.query_one(StoryEditor).typed()
        if typed is not None:  # the story's last keys may still be on their way as messages
            self._story(StoryEdited(*typed))
        inspector = self.query_one(Inspector)
        applied = True
        for edit in inspector.take_typed():
            if not self._cell_field(edit):
                inspector.keep_typed(edit)
                applied = False
        return applied

    async def action_quit(self) -> None:
        if isinstance(self.screen, (FormScreen, AskScreen)) and self.screen.hold_quit():
            return
        while isinstance(self.screen, PathScreen):  # an open or save as dialog: closed, as escape would
            await self.screen.dismiss(None)  # (the question's Save opened a second save as over it)
        if self.apply_typed():
            self.files.quit()

    def action_save(self) -> None:
        if self.apply_typed():
            self.files.save()

    def action_save_as(self) -> None:
        if self.apply_typed():
            self.files.save_as()

    def action_open(self) -> None:
        if self.apply_typed():
            self.files.open()

    def action_new(self) -> None:
        if self.apply_typed():
            self.files.new()

    def open_path(self, path: Path) -> bool:
        return self.files.open_path(path)

    # undo

    def _jump(self, where: Where) -> None:
        if where.level is not None and where.level < len(self.campaign.levels):
            self.set_level(where.level)
            if where.x is not None and where.y is not None:
                self.canvas.move_to(where.x, where.y)

    def action_undo(self) -> None:
        step = self.doc.undo()
        if step is None:
            self.notify("Nothing to undo", timeout=2)
            return
        self._after_history(step.where)
        self.notify(f"Undid: {step.label}", timeout=2)

    def action_redo(self) -> None:
        step = self.doc.redo()
        if step is None:
            self.notify("Nothing to redo", timeout=2)
            return
        self._after_history(step.where)
        self.notify(f"Redid: {step.label}", timeout=2)

    def _after_history(self, where: Where) -> None:
        self.level_index = min(self.level_index, len(self.campaign.levels) - 1)
        if self.story_level is not None:
            self.story_level = min(self.story_level, len(self.campaign.levels) - 1)
        self.refresh_all()
        self._jump(where)

    # ------------------------------------------------------------------ widgets talking

    @on(CursorMoved)
    def _cursor_moved(self, message: CursorMoved) -> None:
        self._show_inspector()

    @on(LevelChosen)
    def _level_chosen(self, message: LevelChosen) -> None:
        self.choose_story(message.index)

    def choose_story(self, index: int | None) -> None:
        """The campaign (None) or a level, as chosen in the level list: its story on the Story tab."""
        if index is None:
            if self.story_level is not None:
                self.story_level = None
                self._list_key = None
                self._show_level_list()
                self._show_story()
        elif index != self.level_index or self.story_level != index:
            self.set_level(index)

    @on(MapWanted)
    def _map_wanted(self) -> None:
        self.action_focus_map()

    @on(CardChosen)
    def _card_chosen(self, message: CardChosen) -> None:
        self.update_title()

    @on(ProblemChosen)
    def _problem_chosen(self, message: ProblemChosen) -> None:
        diag = message.diagnostic
        misspelt_key = diag.code == "CR103" and bool(diag.path)  # a draft's key it keeps: rename or remove it
        if misspelt_key and self.forms.stale_key(diag):
            return  # (before going to its place: after an unchecked edit that is another level's or cell's)
        if diag.path[-1:] == ("story",) and not misspelt_key:
            # a story's problem (CR228): its Markdown source, the campaign's or the level's
            self.choose_story(diag.level)
            self.action_show_tab("story")
            return
        level = diag.level
        if level is None and diag.path[:1] == ("levels",):
            level = len(self.campaign.levels) - 1  # the levels as a whole (CR220, no exit): the last, where it belongs
        if level is None and misspelt_key:
            self.forms.mend_key(diag)
            return
        if level is None:
            # a problem of the campaign's own fields: the form that edits them
            head = diag.path[0] if diag.path else ""
            if head == "cards" and len(diag.path) > 1 and str(diag.path[1]) in self.campaign.cards:
                self.action_card(str(diag.path[1]))
            elif head == "hero":
                self.action_hero()
            elif head == "potions":
                self.action_potions()
            else:
                self.action_metadata()
            return
        self.action_show_tab("map")  # which focuses the map
        self.set_level(level)
        if diag.cell is not None and diag.path[2:3] == ("hero",) and not self._on_grid(level, diag.cell):
            # a practice hero outside the grid (CR225): no place of the map is his, and the nearest
            # edge place's Cell panel would not list him; the field that places him, the problem under it
            self.forms.level_properties(problem=(f"{diag.code}: {diag.message}", ("at",)))
            return
        if diag.cell is not None:
            self.canvas.move_to(*diag.cell)
        if misspelt_key:
            self.forms.mend_key(diag)

    def _on_grid(self, level: int, cell: tuple[int, int]) -> bool:
        lv = self.campaign.levels[level]
        return 0 <= cell[0] < lv.width and 0 <= cell[1] < lv.height

    # ------------------------------------------------------------------ navigation

    def action_focus_map(self) -> None:
        self.action_show_tab("map")

    def action_focus_levels(self) -> None:
        self.query_one(LevelList).focus()

    def action_focus_palette(self) -> None:
        self.query_one(Palette).action_focus_search()

    def action_focus_problems(self) -> None:
        """ctrl+k: the focus on the problems, the first (the worst) highlighted when none is, so that enter goes
        to it at once (the panel's own hint: "ctrl+k, enter: go to")."""
        self.action_show_tab("map")
        problems = self.query_one("#problems-list", OptionList)
        problems.focus()
        if problems.highlighted is None and problems.option_count:
            problems.highlighted = 0

    def action_focus_cell(self, field: str) -> None:
        """Focus a field of the Cell panel (the card at the map's cursor)."""
        if self.size.height < CELL_PANEL_ROWS:
            self.notify(too_short("Cell panel hidden", CELL_PANEL_ROWS, self.size.height), severity="warning", timeout=3)
        elif not self.query_one(Inspector).focus_field(field):
            self.notify("Put the map's cursor on a card first: the Cell panel edits the card there",
                        severity="warning", timeout=3)

    def action_choose_destination(self) -> None:
        """t on a ladder: the list of the levels it may lead to, open (the Cell panel's "Ladder leads to")."""
        if not self.query_one(Inspector).open_destinations():
            self.notify("Put the cursor on a descending ladder (the level it leads to)", severity="warning",
                        timeout=3)

    def action_show_tab(self, tab: str) -> None:
        """F2 / F3: the tab, and the focus in it. The map takes the focus too: left in the hidden story
        source, the focus went on to the story's preview, and the tab switched back to the story."""
        self.query_one(TabbedContent).active = tab
        (self.query_one("#story-source") if tab == "story" else self.canvas).focus()

    def action_find(self) -> None:
        """Find a card on the level by id or name; again (enter on the same words) goes to the next one."""
        level = self.campaign.levels[self.level_index]

        def answered(query: str | None) -> None:
            if not query or not query.strip():
                return
            self._find_query = query.strip()
            places = matching_cells(self.campaign.levels[self.level_index], self.campaign.cards, query)
            if not places:
                self.notify(f"No card on this level has {query.strip()!r} in its id or name", severity="warning",
                            timeout=4)
                return
            place = next_place(places, self.canvas.cursor)
            self.action_show_tab("map")
            self.canvas.move_to(*place)
            self.notify(f"{query.strip()}: {places.index(place) + 1} of {len(places)} at {place_text(*place)} "
                        "(/ then enter: the next one)", timeout=4)

        self.push_screen(FindScreen(f"Find on {level.title or level.id}", self._find_query), answered)

    def action_overview(self) -> None:
        canvas = self.canvas
        level = self.campaign.levels[self.level_index]
        x0, y0 = int(canvas.scroll_x) // canvas.cell_w, int(canvas.scroll_y) // canvas.cell_h
        view = (x0, y0, x0 + canvas.size.width // canvas.cell_w, y0 + canvas.size.height // canvas.cell_h)
        size = (min(self.size.width - 12, 120), max(3, self.size.height - 12))

        def chosen(place: tuple[int, int] | None) -> None:
            if place is not None:
                self.action_show_tab("map")
                canvas.move_to(*place)
                canvas.focus()

        self.push_screen(OverviewScreen(level, self.campaign.cards, markers(self.diagnostics, self.level_index),
                                        view, canvas.cursor, size), chosen)

    def action_open_recent(self) -> None:
        paths = [p for p in recent_files() if p != self.doc.path]
        if not paths:
            self.notify("No recent files yet: the files you open and save are listed here", timeout=3)
            return

        def chosen(value: str | None) -> None:
            if value is not None:
                self.files.open_path(paths[int(value)])

        self.push_screen(ChoiceScreen("Open a recent file", [(str(i), str(p)) for i, p in enumerate(paths)]), chosen)

    def action_legend(self) -> None:
        level = self.campaign.levels[self.level_index]
        self.push_screen(LegendScreen(f"Legend: {level.title or level.id}", legend_lines(level, self.campaign.cards)))

    def action_zoom(self) -> None:
        self.canvas.action_zoom()
        self._show_canvas_title()

    def _show_canvas_title(self) -> None:
        self.canvas.border_title = "Map" + ("  full names" if self.canvas.zoom else "")
        self.canvas.border_subtitle = "/ find  m overview  l legend  z zoom"

    def action_help(self) -> None:
        self.push_screen(HelpScreen(help_markdown(self.BINDINGS)))

    def action_playtest(self) -> None:
        """Play the current level in the embedded player; the editor comes back when the run ends."""
        from cardrogue.editor.player import PlayerScreen
        from cardrogue.engine.format.loader import load_campaign_text

        if not self.apply_typed():
            return
        # What the problems panel lists, checked now (the panel's own check may still be running).
        errors = draft_errors(self.doc)
        if errors:
            self.notify(f"Not played: the campaign has {draft_note(errors, cannot='played', level_titles=level_titles(self.campaign))}", title="Play-test",
                        severity="error", timeout=8)
            return
        # Re-load the saved form: the player needs the content hash of exactly this version.
        result = load_campaign_text(self.doc.text(), self.doc.name)
        assert result.campaign is not None, "a campaign without check errors loads"

        def done(run) -> None:
            if run is not None:
                self.notify(f"Play-test: {run.outcome} in {counted(run.turns, 'turn')}", title="Play-test", timeout=4)
            self.canvas.focus()

        # F6's par is the level's own, to its exit or a ladder taken; a play-test goes on down a ladder to
        # the campaign's exit, so it is that run's par only on a level without one. Else the file's par.
        par = None if self.campaign.levels[self.level_index].ladders else self.solving.proven_par(self.level_index)
        recorded, stale = result.campaign.par, None
        if par is None and recorded is not None and self.doc.par_changed():
            # The file's par was recorded for the version opened (walk 26: "par 3" on a map edited to par 8 and more).
            stale = (f"none proven for this version: the campaign changed since its par "
                     f"({counted(recorded.turns, 'turn')}) was recorded; {self.par_recorded_how()}")
        self.push_screen(PlayerScreen(result.campaign, self.level_index, par=par, no_file_par=stale), done)


def run_editor(path: Path | None = None) -> int:
    """``cardrogue edit [CAMPAIGN]``: 0 when the editor closed, 2 when the file cannot be edited."""
    from cardrogue.engine.errors import UnusableInput

    try:
        doc = document_for(path)
    except UnusableInput as exc:
        print(printable(f"cardrogue: {exc}"), file=sys.stderr)
        return 2
    except OpenError as exc:
        from .files import recovery_note

        # As every command says it: a first line `cardrogue: FILE: why`, then the file's diagnostics, if any.
        errors = [d for d in exc.result.diagnostics if d.severity is Severity.ERROR] or exc.result.diagnostics
        if [d.code for d in errors] == ["CR006"]:  # no file to read (a folder, a missing file): the reason alone
            hint = ("; name a campaign file in it, or a new file's name to start one"
                    if path is not None and path.is_dir() else "")
            print(printable(f"cardrogue: {path}: {errors[0].standalone}{hint}"), file=sys.stderr)
        elif len(errors) == 1 and errors[0].code == "CR101" and not errors[0].path:
            # the whole file is something else (a replay, a list): no text editor makes it a campaign
            print(printable(f"cardrogue: {path}: the editor cannot open it: {errors[0].standalone}"), file=sys.stderr)
        else:
            print(printable(f"cardrogue: {path}: the editor cannot open it ({counted(len(errors), 'error')}): "
                            "mend it in a text editor; a campaign with other errors opens as a draft"), file=sys.stderr)
            for diag in exc.result.diagnostics:
                print(printable(diag.render()), file=sys.stderr)
        if path is not None and (note := recovery_note(path)):
            print(printable(note), file=sys.stderr)  # the work of a crashed session is not lost
        return 2
    result = EditorApp(doc).run()
    return result if isinstance(result, int) else 0


if __name__ == "__main__":
    sys.exit(run_editor(Path(sys.argv[1]) if len(sys.argv) > 1 else None))
