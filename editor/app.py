"""The campaign editor: a Textual app over one :class:`~.document.Document`.

The app owns the document. Widgets report what the author did with messages
(:mod:`.messages`); the app turns that into an edit (:mod:`.edits`), applies it
through the document (so it can be undone) and shows the new campaign.

Run it with ``cardrogue edit [CAMPAIGN]`` or ``python -m cardrogue.editor.app [CAMPAIGN]``.
"""

from __future__ import annotations

import sys
from functools import reduce
from pathlib import Path
from typing import Callable, Sequence

from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Footer, Header, TabbedContent, TabPane
from textual.filter import LineFilter
from textual.notifications import SeverityLevel
from textual.worker import get_current_worker

from cardrogue.engine.format.diagnostics import Diagnostic, Severity
from cardrogue.engine.printable import printable
from cardrogue.engine.model.campaign import CHEST, POTION_COLOURS, POTION_EFFECTS, SHOP, Campaign, CardDef, CardKind, Direction

from . import edits
from .commands import EditorCommands, help_markdown
from .document import Document, Where
from .shown import NO_RAW_CONTROLS, markup
from .files import (
    DiskStamp,
    OpenError,
    clear_recovery,
    default_document,
    is_protected,
    new_document,
    open_document,
    read_recovery,
    recover,
    save_document,
    template_document,
    write_recovery,
)
from .messages import CardChosen, CellFieldEdited, CursorMoved, LevelChosen, PaintCell, ProblemChosen, StoryEdited
from .solution import DEFAULT_BUDGET, SOLVED, Solution
from .solution import solve as solve_solution
from .widgets.dialogs import Choice, ChoiceScreen, ConfirmScreen, FieldValue, FileScreen, FormScreen, HelpScreen
from .widgets.inspector import Inspector, parse_rolls
from .widgets.level_list import LevelList
from .widgets.map_canvas import MapCanvas, StepOverlay
from .widgets.palette import Palette
from .widgets.problems import ProblemsPanel
from .widgets.story import StoryEditor

AUTOSAVE_SECONDS = 15.0
DISK_CHECK_SECONDS = 2.0
_WORST = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


def run_checks(text: str, name: str) -> list[Diagnostic]:
    """The checks ``cardrogue check`` runs, on the campaign's canonical text."""
    try:
        from cardrogue.engine.analysis.check import check_text
    except ImportError:
        from cardrogue.engine.format.loader import load_campaign_text

        return load_campaign_text(text, name).diagnostics
    return check_text(text, name)


def placed(diag: Diagnostic, campaign: Campaign) -> Diagnostic:
    """The diagnostic with its level and cell filled in from its JSON path when the check left them out."""
    from dataclasses import replace

    path = diag.path
    level, cell = diag.level, diag.cell
    if level is None and len(path) >= 2 and path[0] == "levels" and isinstance(path[1], int):
        level = path[1]
    if (cell is None and level is not None and level < len(campaign.levels) and len(path) >= 4
            and path[2] == "cells" and isinstance(path[3], int)):
        cells = sorted(campaign.levels[level].cells, key=lambda c: (c.y, c.x))
        if path[3] < len(cells):
            cell = cells[path[3]].pos
    return diag if (level, cell) == (diag.level, diag.cell) else replace(diag, level=level, cell=cell)


class EditorApp(App[int]):
    """Card Rogue Story Studio's campaign editor."""

    CSS_PATH = "editor.tcss"
    TITLE = "Card Rogue Story Studio"
    COMMANDS = App.COMMANDS | {EditorCommands}
    BINDINGS = [
        Binding("ctrl+s", "save", "Save"),
        Binding("ctrl+z", "undo", "Undo"),
        Binding("ctrl+y", "redo", "Redo"),
        Binding("f5", "playtest", "Play-test"),
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
        Binding("f2", "show_tab('map')", "Map", show=False),
        Binding("f3", "show_tab('story')", "Story", show=False),
        Binding("ctrl+g", "focus_map", "Map", show=False),
        Binding("ctrl+l", "focus_levels", "Levels", show=False),
        Binding("ctrl+f", "focus_palette", "Cards", show=False),
        Binding("ctrl+k", "focus_problems", "Problems", show=False),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    def __init__(self, document: Document | None = None, *, recovery_dir: Path | None = None,
                 autosave_seconds: float = AUTOSAVE_SECONDS, cursor_blink: bool = True) -> None:
        super().__init__()
        self.cursor_blink = cursor_blink
        self.doc = document or default_document()
        self.recovery_dir = recovery_dir
        self.autosave_seconds = autosave_seconds
        self.level_index = 0
        self.story_level: int | None = 0
        self.diagnostics: list[Diagnostic] = []
        self.clip: edits.Clip | None = None
        self.disk_stamp = DiskStamp.of(self.doc.path) if self.doc.path else None
        self._disk_warned = False
        self._check_generation = 0
        self._autosaved_text: str | None = None
        self._list_key: tuple | None = None
        self._cursors: dict[int, tuple[int, int]] = {}
        self._palette_cards: object = None
        # The solver: the last verdict for a level, the step shown on the map (None: not stepping).
        self.solve_budget = DEFAULT_BUDGET
        self.solution: Solution | None = None
        self._solution_campaign: Campaign | None = None
        self.step_index: int | None = None
        self._solve_generation = 0

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
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#levels").border_title = "Levels"
        self.query_one("#palette").border_title = "Cards"
        self.query_one("#inspector").border_title = "Cell"
        self._load_document(self.doc)
        if not self.cursor_blink:
            for widget in self.query("Input, TextArea"):
                widget.cursor_blink = False  # type: ignore[attr-defined]
        self.query_one(MapCanvas).focus()
        self.set_interval(self.autosave_seconds, self.autosave)
        self.set_interval(DISK_CHECK_SECONDS, self.check_disk)
        self._offer_recovery()

    # ------------------------------------------------------------------ showing the document

    @property
    def canvas(self) -> MapCanvas:
        return self.query_one(MapCanvas)

    @property
    def campaign(self) -> Campaign:
        return self.doc.campaign

    def _load_document(self, doc: Document) -> None:
        self.doc = doc
        self.level_index, self.story_level = 0, 0
        self._cursors.clear()
        self._list_key = None
        self.disk_stamp = DiskStamp.of(doc.path) if doc.path else None
        self._disk_warned = False
        self.canvas.cursor, self.canvas.anchor = (0, 0), None
        self._forget_solution()
        self._show_level_list()
        self._refresh_all(check=False)
        # Checks start once the first frame is on screen, so a big map shows at once.
        self.call_after_refresh(self._start_checks)

    def _refresh_all(self, check: bool = True) -> None:
        """Show the current campaign everywhere and re-run the checks."""
        self._update_title()
        self._show_level_list()
        if self._palette_cards is not self.campaign.cards:
            self._palette_cards = self.campaign.cards
            self.query_one(Palette).show(self.campaign.cards, set(self.campaign.card_entries))
        if self.solution is not None and self._solution_campaign is not self.campaign:
            self._stale_solution()
        level = self.campaign.levels[self.level_index]
        self.canvas.show(level, self.campaign.cards, self._markers())
        self._show_inspector()
        self._show_story()
        if check:
            self._start_checks()

    def get_line_filters(self) -> Sequence[LineFilter]:
        return [*super().get_line_filters(), NO_RAW_CONTROLS]

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """Every notification is plain text: they name files, levels and cards (``markup`` is ignored)."""
        super().notify(printable(message), title=printable(title), severity=severity, timeout=timeout, markup=False)

    def _update_title(self) -> None:
        self.sub_title = printable(f"{self.doc.name}{' ●' if self.doc.dirty else ''}")

    def _show_level_list(self) -> None:
        c = self.campaign
        key = (c.title, c.id, self.story_level, tuple((lv.id, lv.title, lv.width, lv.height) for lv in c.levels))
        if key != self._list_key:
            self._list_key = key
            self.query_one(LevelList).show(c, self.story_level)

    def _show_inspector(self) -> None:
        x, y = self.canvas.cursor
        level = self.campaign.levels[self.level_index]
        cell = level.cell_at(x, y)
        card = self.campaign.cards.get(cell.card) if cell else None
        colour = {Severity.ERROR: "red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}
        problems = [markup(f"[{colour[d.severity]}]$code: $message[/]", code=d.code, message=d.message) for d in self.diagnostics
                    if d.level == self.level_index and d.cell == (x, y)]
        self.query_one(Inspector).show(x, y, cell, card, problems)

    def _show_story(self) -> None:
        if self.story_level is None:
            title, text = "Campaign story (Markdown)", self.campaign.story
        else:
            level = self.campaign.levels[self.story_level]
            title, text = f"Preface of level {self.story_level + 1}: {level.title or level.id} (Markdown)", level.story
        self.query_one(StoryEditor).show(title, self.story_level, text)

    def _markers(self) -> dict[tuple[int, int], Severity]:
        marks: dict[tuple[int, int], Severity] = {}
        for d in self.diagnostics:
            if d.level == self.level_index and d.cell is not None:
                old = marks.get(d.cell)
                if old is None or _WORST[d.severity] < _WORST[old]:
                    marks[d.cell] = d.severity
        return marks

    def set_level(self, index: int) -> None:
        index = max(0, min(len(self.campaign.levels) - 1, index))
        if self.solution is not None and index != self.solution.level:
            self._forget_solution()
        self._cursors[self.level_index] = self.canvas.cursor
        self.level_index = index
        self.story_level = index
        self.canvas.cursor = self._cursors.get(index, (0, 0))
        self.canvas.anchor = None
        self.canvas.show(self.campaign.levels[index], self.campaign.cards, self._markers())
        self.canvas.scroll_to_region_of(*self.canvas.cursor)
        self._show_level_list()
        self._show_inspector()
        self._show_story()

    # ------------------------------------------------------------------ checks

    def _start_checks(self) -> None:
        self._check_generation += 1
        self.query_one(ProblemsPanel).set_checking()
        self._check_worker(self.doc, self.campaign, self._check_generation)

    @work(thread=True, exclusive=True, group="checks")
    def _check_worker(self, doc: Document, campaign: Campaign, generation: int) -> None:
        # The campaign is immutable, so the thread can write its text while the author keeps editing.
        text = Document(campaign, schema_ref=doc.schema_ref).text()
        diagnostics = [placed(d, campaign) for d in run_checks(text, doc.name)]
        if not get_current_worker().is_cancelled:
            self.call_from_thread(self._checks_done, diagnostics, generation)

    def _checks_done(self, diagnostics: list[Diagnostic], generation: int) -> None:
        if generation != self._check_generation or not self.screen_stack:
            return
        self.diagnostics = diagnostics
        self.query_one(ProblemsPanel).show(diagnostics, [lv.title or lv.id for lv in self.campaign.levels])
        self.canvas.set_markers(self._markers())
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
            self._refresh_all()
        return changed

    def _cells_edit(self, label: str, op: Callable[[Campaign, int, int, int], Campaign]) -> None:
        """Apply ``op`` to every card of the selection, as one undoable edit."""
        li, rect = self.level_index, self.canvas.selection
        places = [(x, y) for y in range(rect.y0, rect.y1 + 1) for x in range(rect.x0, rect.x1 + 1)]
        self.edit(lambda c: reduce(lambda acc, p: op(acc, li, p[0], p[1]), places, c), label)

    def action_place(self) -> None:
        card = self.query_one(Palette).brush
        self._cells_edit(f"Place {card}", lambda c, li, x, y: edits.place_card(c, li, x, y, card))

    def action_rotate(self, clockwise: bool = True) -> None:
        self._cells_edit("Rotate", lambda c, li, x, y: edits.rotate(c, li, x, y, clockwise))

    def action_toggle_face(self) -> None:
        self._cells_edit("Toggle face", edits.toggle_face)

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
        self.notify(f"Copied {rect.width}×{rect.height} ({len(self.clip.cells)} cards)", timeout=2)

    def action_paste(self) -> None:
        if self.clip is None:
            self.notify("Nothing to paste: copy a rectangle first (c)", severity="warning", timeout=3)
            return
        clip, li, (x, y) = self.clip, self.level_index, self.canvas.cursor
        self.edit(lambda c: edits.paste_cells(c, li, x, y, clip), "Paste")

    @on(PaintCell)
    def _paint(self, message: PaintCell) -> None:
        card, li = self.query_one(Palette).brush, self.level_index
        self.edit(lambda c: edits.place_card(c, li, message.x, message.y, card), f"Paint {card}",
                  Where(li, message.x, message.y), merge_key=f"paint-{message.stroke}")

    @on(CellFieldEdited)
    def _cell_field(self, message: CellFieldEdited) -> None:
        li, (x, y) = self.level_index, self.canvas.cursor
        value: object = message.value
        if message.field == "rolls":
            try:
                value = parse_rolls(message.value)
            except ValueError as exc:
                self.notify(str(exc), severity="error")
                return
        elif message.field == "to":
            value = message.value.strip() or None
        self.edit(lambda c: edits.set_cell_fields(c, li, x, y, **{message.field: value}), f"Set {message.field}")

    @on(StoryEdited)
    def _story(self, message: StoryEdited) -> None:
        level, text = message.level, message.text
        if level is not None and level >= len(self.campaign.levels):
            return
        changed = self.doc.apply(lambda c: edits.set_story(c, level, text), "Edit story",
                                 Where(level), merge_key=f"story-{level}")
        if changed:
            self._update_title()
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

    def action_level_properties(self) -> None:
        li = self.level_index
        level = self.campaign.levels[li]
        fields = [("id", "Id", level.id), ("title", "Title", level.title),
                  ("width", "Width", str(level.width)), ("height", "Height", str(level.height))]

        def done(values: dict | None) -> None:
            if values is None:
                return
            try:
                width, height = int(values["width"]), int(values["height"])
            except ValueError:
                self.notify("Width and height are whole numbers", severity="error")
                return

            def change(c: Campaign) -> Campaign:
                c = edits.set_level_meta(c, li, values["id"].strip(), values["title"].strip())
                return edits.resize_level(c, li, width, height)

            self.edit(change, "Level properties")

        self.push_screen(FormScreen(f"Level {li + 1}", fields), done)

    def action_metadata(self) -> None:
        c = self.campaign
        chars = tuple(sorted(card.id for card in c.cards.values() if card.kind is CardKind.CHARACTER))
        fields = [("title", "Title", c.title), ("id", "Id", c.id), ("author", "Author", c.author),
                  ("description", "Description", c.description),
                  ("kind", "Kind", Choice(c.kind, ("campaign", "challenge"))),
                  ("rules", "Rules version", Choice(c.rules, ("1.1.2", "1.0"))), ("seed", "Seed (fated dice)", str(c.seed)),
                  ("character", "Hero character", Choice(c.hero.character, chars)),
                  ("items", "Hero items (space separated)", " ".join(c.hero.items)),
                  ("equipped", "Hero equipped (space separated)", " ".join(c.hero.equipped))]

        def change(values: dict) -> Callable[[Campaign], Campaign]:
            text = values["seed"].strip()
            if not (text.isascii() and text.isdigit()):
                raise ValueError("the seed is a whole number from 0 to 18446744073709551615")
            meta = {k: values[k].strip() for k in ("title", "id", "author", "description", "kind", "rules")}

            def apply(camp: Campaign) -> Campaign:
                camp = edits.set_metadata(camp, seed=int(text), **meta)
                return edits.set_hero_checked(camp, values["character"], values["items"].split(), values["equipped"].split())

            return apply

        self._form("Campaign", fields, change, "Campaign metadata", Where(None))

    # goals, stock and contents, potions, hero, cards

    def _form(self, title: str, fields: list[tuple[str, str, FieldValue]], change: Callable[[dict], Callable[[Campaign], Campaign]],
              label: str, where: Where | None = None, note: str = "",
              after: Callable[[dict], None] | None = None) -> None:
        """A form whose values make an edit; an edit that refuses (ValueError) keeps the form open with why."""

        def validate(values: dict) -> str | None:
            try:
                change(values)(self.campaign)
            except ValueError as exc:
                return str(exc)
            return None

        def done(values: dict | None) -> None:
            if values is not None and self.edit(change(values), label, where) and after is not None:
                after(values)

        self.push_screen(FormScreen(title, fields, validate=validate, note=note), done)

    def action_add_goal(self) -> None:
        li = self.level_index
        level = self.campaign.levels[li]
        have = ", ".join(g.text() for g in level.goals) or "none"
        self._form(f"Add a goal to {level.title or level.id}",
                   [("verb", "Goal: slay, open or buy", "slay"), ("card", "Card id (an enemy, the chest, the shop's card)", "")],
                   lambda v: lambda c: edits.add_goal(c, li, v["verb"], v["card"]), "Add goal", Where(li),
                   note=f"Goals now: {have}. The player must meet every goal before leaving the level.")

    def action_remove_goal(self) -> None:
        li = self.level_index
        goals = self.campaign.levels[li].goals
        if not goals:
            self.notify("This level has no goals (g adds one)", severity="warning", timeout=3)
            return

        def chosen(value: str | None) -> None:
            if value is not None:
                self.edit(lambda c: edits.remove_goal(c, li, int(value)), "Remove goal", Where(li))

        self.push_screen(ChoiceScreen("Remove which goal?", [(str(i), g.text()) for i, g in enumerate(goals)]), chosen)

    def action_cell_items(self) -> None:
        li, (x, y) = self.level_index, self.canvas.cursor
        cell = self.campaign.levels[li].cell_at(x, y)
        if cell is None or cell.card not in (SHOP, CHEST):
            self.notify("Put the cursor on a shop (its stock) or a chest (its contents)", severity="warning", timeout=3)
            return
        what, now = ("Stock", cell.stock) if cell.card == SHOP else ("Contents", cell.contents)
        self._form(f"{what} of the {cell.card} at ({x}, {y})",
                   [("items", f"{what}: card ids, space separated", " ".join(now))],
                   lambda v: lambda c: edits.set_cell_items(c, li, x, y, v["items"].replace(",", " ").split()),
                   f"Set {what.lower()}", note="Items only: weapons, armour, scrolls, potions, artifacts, items.")

    def action_potions(self) -> None:
        fields = [(colour, f"{colour.capitalize()} potion",
                   Choice(self.campaign.potions.get(colour, ""), POTION_EFFECTS, optional=True))
                  for colour in POTION_COLOURS]
        self._form("Potion colours", fields,
                   lambda v: lambda c: edits.set_potions(c, {k: val.strip().lower() for k, val in v.items()}),
                   "Potion colours", Where(None),
                   note="The effect of each colour, each effect at most once. "
                        "A colour left not set is fixed from the seed.")

    def action_hero(self) -> None:
        hero = self.campaign.hero
        chars = sorted(c.id for c in self.campaign.cards.values() if c.kind is CardKind.CHARACTER)
        self._form("The hero", [("character", "Character", Choice(hero.character, tuple(chars))),
                                ("items", "Starting items (card ids, space separated)", " ".join(hero.items)),
                                ("equipped", "Equipped (weapons and armour)", " ".join(hero.equipped))],
                   lambda v: lambda c: edits.set_hero_checked(c, v["character"].strip(), v["items"].split(),
                                                              v["equipped"].split()),
                   "Hero", Where(None))

    def action_card(self, card_id: str | None = None) -> None:
        """Add or override a card definition: the palette's card to start from, a new id for a new card."""
        card_id = card_id or self.query_one(Palette).brush
        known = self.campaign.cards.get(card_id)
        card = known or CardDef(card_id, "", CardKind.ITEM)  # an unknown id: a card's defaults, the kind to choose
        abilities = [str(a) for a in card.abilities]
        number = lambda v: "" if v is None else str(v)  # noqa: E731
        points = "Victory points ({} to {})".format(*edits.card_number_bounds()["victory_points"])
        fields: list[tuple[str, str, FieldValue]] = [
            ("id", "Card id (catalog id: an override; new id: a new card)", card_id),
            ("name", "Name", card.name),
            ("kind", "Kind", Choice(known.kind.value if known else "", tuple(k.value for k in CardKind))),
            ("attack", "Attack", number(card.attack)),
            ("health", "Health", number(card.health)),
            ("gold", "Gold", number(card.gold)),
            ("victory_points", points, str(card.victory_points)),
            ("max_health", "Max health (characters)", number(card.max_health)),
            ("slot", "Equipment slot (weapons and armour)", Choice(card.slot or "", edits.SLOTS, optional=True)),
            ("colour", "Potion colour", Choice(card.colour or "", POTION_COLOURS, optional=True)),
            ("sellable", "Sellable (its gold amount not crossed out)", card.sellable),
            ("tradable", "Tradable (its trade symbol not crossed out)", card.tradable),
            ("throwable", "Throwable (shows the throw symbol)", card.throwable),
            ("cursed", "Cursed (cannot leave the hand)", card.cursed),
            ("text", "Text", card.text)]
        fields += [(f"ability{i}", f"Ability {i + 1} (rulebook text)", abilities[i] if i < len(abilities) else "")
                   for i in range(min(8, max(4, len(abilities) + 1)))]

        def change(values: dict) -> Callable[[Campaign], Campaign]:
            new_id = values["id"].strip()
            parsed: dict[str, object] = {k: values[k].strip() for k in ("name", "kind", "slot", "colour", "text")}
            parsed.update({k: values[k] for k in edits.CARD_FLAGS})
            for key in ("attack", "health", "gold", "victory_points", "max_health"):
                text = values[key].strip()
                if text and not text.lstrip("-").isdigit():
                    raise ValueError(f"{key.replace('_', ' ')} is a whole number")
                parsed[key] = int(text) if text else None
            parsed["abilities"] = [values[k].strip() for k in values if k.startswith("ability") and values[k].strip()]

            def apply(c: Campaign) -> Campaign:
                return edits.set_card(c, new_id, edits.card_entry(c, new_id, parsed))

            return apply

        self._form("Card definition", fields, change, "Card definition", Where(None),
                   note="A campaign card overrides the catalog's (only the fields that differ are saved) "
                        "or adds a new one. Abilities use the rulebook's words, e.g. -1 DAMAGE TAKEN.",
                   after=lambda v: self.query_one(Palette).choose(v["id"].strip()))

    def action_remove_card(self) -> None:
        entries = self.campaign.card_entries
        if not entries:
            self.notify("The campaign defines no cards of its own (F4 adds one)", severity="warning", timeout=3)
            return
        from cardrogue.engine.format.loader import default_catalog

        catalog = default_catalog()
        choices = [(cid, f"{cid} ({'override: back to the catalog' if cid in catalog else 'new card'})")
                   for cid in sorted(entries)]

        def chosen(value: str | None) -> None:
            if value is not None:
                self.edit(lambda c: edits.remove_card(c, value), f"Remove card {value}", Where(None))

        self.push_screen(ChoiceScreen("Remove which card definition?", choices), chosen)

    # the solver

    def _forget_solution(self) -> None:
        self._solve_generation += 1
        self.solution, self.step_index = None, None
        self.canvas.set_overlay(None)
        self.query_one(ProblemsPanel).set_solve_status(None)
        self.refresh_bindings()

    def _stale_solution(self) -> None:
        solution = self.solution
        self._forget_solution()
        if solution is not None:
            self.query_one(ProblemsPanel).set_solve_status(Content.assemble(
                ("Before the last edit: ", "dim"), solution.headline(), ("  (F6 solves again)", "dim")))

    def action_solve(self) -> None:
        """Solve the current level in a worker thread; then step through the solution on the map."""
        self._forget_solution()
        self._solve_generation += 1
        li = self.level_index
        title = self.campaign.levels[li].title or self.campaign.levels[li].id
        self.query_one(ProblemsPanel).set_solve_status(markup("Solving $title… [dim](up to $states states, $seconds s)[/]",
                                                              title=title, states=f"{self.solve_budget.max_states:,}",
                                                              seconds=f"{self.solve_budget.max_seconds:g}"))
        self._solve_worker(self.doc, self.campaign, li, self._solve_generation)

    @work(thread=True, exclusive=True, group="solve")
    def _solve_worker(self, doc: Document, campaign: Campaign, level: int, generation: int) -> None:
        from cardrogue.engine.format.loader import load_campaign_text

        # The solver needs a campaign the loader accepts: the canonical text of this version, re-loaded.
        result = load_campaign_text(Document(campaign, schema_ref=doc.schema_ref).text(), doc.name)
        outcome: Solution | str
        if result.campaign is None:
            outcome = "Fix the errors in the problems panel before solving."
        else:
            try:
                outcome = solve_solution(result.campaign, level, self.solve_budget)
            except Exception as exc:  # the solver must never take the editor down
                outcome = f"The solver failed: {exc}"
        if not get_current_worker().is_cancelled:
            self.call_from_thread(self._solved, outcome, campaign, generation)

    def _solved(self, outcome: "Solution | str", campaign: Campaign, generation: int) -> None:
        if generation != self._solve_generation or not self.screen_stack:
            return
        panel = self.query_one(ProblemsPanel)
        if isinstance(outcome, str):
            panel.set_solve_status(markup("[b red]Cannot solve[/]: $why", why=outcome))
            return
        if campaign is not self.campaign:
            panel.set_solve_status(Content.from_markup("[dim]The campaign changed while solving: F6 solves again.[/]"))
            return
        self.solution = outcome
        self._solution_campaign = campaign
        if outcome.verdict == SOLVED and outcome.steps:
            self.show_step(0)
            self.action_focus_map()
        else:
            panel.set_solve_status(outcome.headline())
        self.refresh_bindings()

    def show_step(self, index: int) -> None:
        """Show the solution after ``index`` actions: the marker, the flipped cards, the action and turn."""
        solution = self.solution
        if solution is None or not solution.steps:
            return
        index = max(0, min(len(solution.steps) - 1, index))
        self.step_index = index
        step = solution.steps[index]
        self.canvas.set_overlay(StepOverlay(step.position, step.flipped))
        total = len(solution.steps) - 1
        if index == 0:
            what = Content(f"start at ({step.position[0]}, {step.position[1]}), turn {step.turn}")
        else:
            what = markup(f"turn {step.turn}: [b]$action[/] → ({step.position[0]}, {step.position[1]})", action=step.action)
            if step.left_level:
                what += " takes the ladder"
            elif step.outcome:
                what += markup(" $outcome", outcome=step.outcome)
        said = " ".join(step.log) if step.log else ""
        self.query_one(ProblemsPanel).set_solve_status(Content.assemble(
            solution.headline(), f"\nStep {index}/{total}, ", what, f", health {step.health}  ",
            markup("[dim]$said  (. next  , previous  escape: leave)[/]", said=said)))

    def action_solution_step(self, delta: int) -> None:
        if self.step_index is not None:
            self.show_step(self.step_index + delta)

    def action_leave_steps(self) -> None:
        solution = self.solution
        self.step_index = None
        self.canvas.set_overlay(None)
        if solution is not None:
            self.query_one(ProblemsPanel).set_solve_status(
                Content.assemble(solution.headline(), ("  (F6: solve and step again)", "dim")))
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action in ("solution_step", "leave_steps"):
            return self.step_index is not None
        return True

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
        self._refresh_all()
        self._jump(where)

    # ------------------------------------------------------------------ widgets talking

    @on(CursorMoved)
    def _cursor_moved(self, message: CursorMoved) -> None:
        self._show_inspector()

    @on(LevelChosen)
    def _level_chosen(self, message: LevelChosen) -> None:
        if message.index is None:
            if self.story_level is not None:
                self.story_level = None
                self._list_key = None
                self._show_level_list()
                self._show_story()
        elif message.index != self.level_index or self.story_level != message.index:
            self.set_level(message.index)

    @on(CardChosen)
    def _card_chosen(self, message: CardChosen) -> None:
        self.sub_title = printable(f"{self.doc.name}{' ●' if self.doc.dirty else ''}  brush: {message.card}")

    @on(ProblemChosen)
    def _problem_chosen(self, message: ProblemChosen) -> None:
        diag = message.diagnostic
        if diag.level is None:
            self.notify(diag.render(), timeout=5)
            return
        self.action_show_tab("map")
        self.set_level(diag.level)
        if diag.cell is not None:
            self.canvas.move_to(*diag.cell)
        self.canvas.focus()

    # ------------------------------------------------------------------ navigation

    def action_focus_map(self) -> None:
        self.action_show_tab("map")
        self.canvas.focus()

    def action_focus_levels(self) -> None:
        self.query_one(LevelList).focus()

    def action_focus_palette(self) -> None:
        self.query_one(Palette).action_focus_search()

    def action_focus_problems(self) -> None:
        self.action_show_tab("map")
        self.query_one("#problems-list").focus()

    def action_show_tab(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab
        if tab == "story":
            self.query_one("#story-source").focus()

    def action_help(self) -> None:
        self.push_screen(HelpScreen(help_markdown()))

    def action_playtest(self) -> None:
        """Play the current level in the embedded player; the editor comes back when the run ends."""
        try:
            from cardrogue.editor.player import PlayerScreen
        except (ImportError, AttributeError):
            self.notify("Play-test is not available yet: the embedded player has not landed. "
                        "The level is unchanged.", title="Play-test", severity="warning", timeout=5)
            return
        from cardrogue.engine.format.loader import load_campaign_text

        # Re-load the saved form: the player needs the content hash of exactly this version.
        result = load_campaign_text(self.doc.text(), self.doc.name)
        if result.campaign is None:
            self.notify("Fix the errors in the problems panel before play-testing.", title="Play-test",
                        severity="error", timeout=5)
            return

        def done(run) -> None:
            if run is not None:
                self.notify(f"Play-test: {run.outcome} in {run.turns} turns", title="Play-test", timeout=4)
            self.canvas.focus()

        self.push_screen(PlayerScreen(result.campaign, self.level_index), done)

    # ------------------------------------------------------------------ files

    def _guard(self, then: Callable[[], None], verb: str) -> None:
        """Run ``then``, first offering to save unsaved changes."""
        if not self.doc.dirty:
            then()
            return

        def answered(answer: str | None) -> None:
            if answer == "save":
                self.action_save(then)
            elif answer == "discard":
                clear_recovery(self.doc, self.recovery_dir)
                then()

        self.push_screen(ConfirmScreen(f"{self.doc.name} has unsaved changes. Save them before you {verb}?",
                                       [("Save", "save", "primary"), ("Discard", "discard", "error"),
                                        ("Cancel", "cancel", "default")]), answered)

    async def action_quit(self) -> None:
        def leave() -> None:
            if not self.doc.dirty:
                clear_recovery(self.doc, self.recovery_dir)
            self.exit(0)

        self._guard(leave, "quit")

    def action_save(self, then: Callable[[], None] | None = None) -> None:
        if self.doc.path is None or is_protected(self.doc.path):
            self.action_save_as(then)
            return
        path = self.doc.path
        if self.disk_stamp is not None and DiskStamp.of(path) not in (self.disk_stamp, None):
            def answered(answer: str | None) -> None:
                if answer == "overwrite":
                    self._write(path, then)
            self.push_screen(ConfirmScreen(f"{path.name} changed on disk since it was opened. Overwrite it?",
                                           [("Overwrite", "overwrite", "error"), ("Cancel", "cancel", "default")]),
                             answered)
            return
        self._write(path, then)

    def action_save_as(self, then: Callable[[], None] | None = None) -> None:
        suggestion = str(self.doc.path) if self.doc.path else str(Path.cwd() / f"{self.campaign.id}.json")

        def chosen(path: Path | None) -> None:
            if path is None:
                return
            path = path.absolute()
            if is_protected(path):
                self.notify(f"{path} is inside the installed package: choose another place", severity="error")
                return
            if path.is_dir():
                path = path / f"{self.campaign.id}.json"
            if path.exists() and path != self.doc.path:
                def answered(answer: str | None) -> None:
                    if answer == "overwrite":
                        self._write(path, then)
                self.push_screen(ConfirmScreen(f"{path.name} exists. Overwrite it?",
                                               [("Overwrite", "overwrite", "error"), ("Cancel", "cancel", "default")]),
                                 answered)
                return
            self._write(path, then)

        self.push_screen(FileScreen("Save campaign as", suggestion, opening=False), chosen)

    def _write(self, path: Path, then: Callable[[], None] | None = None) -> None:
        try:
            clear_recovery(self.doc, self.recovery_dir)  # keyed on the old path or template
            self.disk_stamp = save_document(self.doc, path)
        except OSError as exc:
            self.notify(f"Could not save {path}: {exc.strerror or exc}", severity="error", timeout=8)
            return
        self._disk_warned = False
        self._autosaved_text = None
        clear_recovery(self.doc, self.recovery_dir)
        self._update_title()
        self.notify(f"Saved {path.name}", timeout=2)
        if then is not None:
            then()

    def action_open(self) -> None:
        def chosen(path: Path | None) -> None:
            if path is not None:
                self.open_path(path)

        start = str(self.doc.path.parent if self.doc.path else Path.cwd()) + "/"
        self._guard(lambda: self.push_screen(FileScreen("Open campaign", start), chosen), "open another file")

    def open_path(self, path: Path) -> bool:
        try:
            doc = open_document(path)
        except OpenError as exc:
            self.notify(f"Cannot open {path.name}: {exc}", severity="error", timeout=8)
            return False
        self._load_document(doc)
        if doc.template is not None:
            self.notify(f"{path.name} is a bundled campaign: it opens as a template, and saving asks where", timeout=5)
        self._offer_recovery()
        return True

    def action_new(self) -> None:
        from cardrogue.engine.format.resources import bundled_campaigns

        choices = [("blank", "Blank campaign (one level)")] + [(str(p), f"Copy of {p.stem}") for p in bundled_campaigns()]

        def chosen(value: str | None) -> None:
            if value is None:
                return
            self._load_document(template_document(None if value == "blank" else Path(value)))

        self._guard(lambda: self.push_screen(ChoiceScreen("New campaign from a template", choices), chosen),
                    "start a new campaign")

    # ------------------------------------------------------------------ recovery and the disk

    def autosave(self) -> None:
        if not self.doc.dirty:
            return
        text = self.doc.text()
        if text == self._autosaved_text:
            return
        try:
            write_recovery(self.doc, self.recovery_dir)
            self._autosaved_text = text
        except OSError as exc:
            self.notify(f"Autosave failed: {exc.strerror or exc}", severity="warning")

    def _offer_recovery(self) -> None:
        text = read_recovery(self.doc, self.recovery_dir)
        if text is None:
            return

        def answered(answer: str | None) -> None:
            if answer == "recover":
                try:
                    recover(self.doc, text)
                except OpenError as exc:
                    self.notify(f"The recovery file cannot be used: {exc}", severity="error")
                    return
                self._refresh_all()
                self.notify("Recovered unsaved changes (ctrl+z undoes the recovery)", timeout=4)
            elif answer == "discard":
                clear_recovery(self.doc, self.recovery_dir)

        self.push_screen(ConfirmScreen(f"Unsaved changes to {self.doc.name} were found from a session that did not "
                                       "end cleanly. Recover them?",
                                       [("Recover", "recover", "primary"), ("Discard", "discard", "error"),
                                        ("Later", "cancel", "default")]), answered)

    def check_disk(self) -> None:
        if self.doc.path is None or self.disk_stamp is None or self._disk_warned:
            return
        now = DiskStamp.of(self.doc.path)
        if now != self.disk_stamp:
            self._disk_warned = True
            what = "was deleted" if now is None else "changed on disk"
            self.notify(f"{self.doc.path.name} {what} since it was opened. Saving will ask before overwriting it.",
                        title="File changed", severity="warning", timeout=10)


def run_editor(path: Path | None = None) -> int:
    """``cardrogue edit [CAMPAIGN]``: 0 when the editor closed, 2 when the file cannot be edited."""
    if path is None:
        doc = default_document()
    elif not path.exists():
        if is_protected(path) or not path.expanduser().absolute().parent.is_dir():
            print(printable(f"{path}: cannot create a campaign there"), file=sys.stderr)
            return 2
        doc = new_document(path)
    else:
        try:
            doc = open_document(path)
        except OpenError as exc:
            for diag in exc.result.diagnostics:
                print(printable(diag.render()), file=sys.stderr)
            return 2
    result = EditorApp(doc).run()
    return result if isinstance(result, int) else 0


if __name__ == "__main__":
    sys.exit(run_editor(Path(sys.argv[1]) if len(sys.argv) > 1 else None))
