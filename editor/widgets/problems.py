"""The problems panel: what ``cardrogue check`` reports, kept up to date while editing, each fix
said in the editor's terms where it has one (:mod:`cardrogue.editor.phrasing`)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from cardrogue.editor.messages import ProblemChosen
from cardrogue.editor.phrasing import editor_message
from cardrogue.editor.shown import markup
from cardrogue.engine.analysis.check import analysis_waits, checks_waiting, rules_wait
from cardrogue.engine.format.diagnostics import Diagnostic, Severity
from cardrogue.engine.words import counted, place_text

_RANK = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
_ICON = {Severity.ERROR: "[b red]E[/]", Severity.WARNING: "[b yellow]W[/]", Severity.INFO: "[b cyan]i[/]"}
# Errors that follow from another error of the list: CR311, a level with no way on, whose message sends the
# author to the unreachable exit or ladder (CR301, CR302) or to the level without one (CR306). Listed after
# the others, so the first error read (and the one a save, F5 or F6 quotes) is the one to fix, at its place.
_FOLLOWS = frozenset({"CR311"})
MAP_KEEPS_ROWS = 6  # of the Map tab, when the problems panel grows to show a problem whole: a row of boxes, its borders
# Of the Map tab while the solver's line is shown: two rows of boxes (the hero's and the next) and the borders. At
# 80x24 an unknown par's seven lines, its "F6" hint and a problem left the map one row of boxes.
MAP_SOLVER_ROWS = 8
STATUS_LINES = 7  # the solver's line at most (editor.tcss: #problems.-status, #problems.-stepping #solve-status)


def reading_order(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Errors first (what keeps the campaign from play), then warnings, then notes, each in the file's
    order, but for the errors that follow from another (:data:`_FOLLOWS`): last of the errors."""
    return sorted(diagnostics, key=lambda d: (_RANK[d.severity], d.code in _FOLLOWS))


_FIELD_WORDS = {"cards": "card", "potions": "potion", "goals": "goal", "stock": "stock", "contents": "contents"}


def field_name(path: tuple) -> str:
    """Where in the campaign a problem is, in the words of the editor's forms, not the file's lines.

    ``("cards", "goblin", "attack")`` -> ``card goblin, attack``; ``("hero", "items", 2)`` ->
    ``hero, items``; ``("title",)`` -> ``campaign, title``.
    """
    if not path:
        return "campaign"
    head, rest = path[0], path[1:]
    if head == "cards" and rest:
        words = [f"card {rest[0]}", *(str(p) for p in rest[1:2] if isinstance(p, str))]
        if len(rest) >= 3 and rest[1] == "abilities" and isinstance(rest[2], int):
            words[-1] = f"ability {rest[2] + 1}"
        return ", ".join(words)
    if head == "potions" and rest:
        return f"potion {rest[0]}"
    if head == "hero":
        return ", ".join(["hero", *(str(p) for p in rest[:1] if isinstance(p, str))])
    return f"campaign, {head}"


def level_titles(campaign) -> list[str]:
    """The names the editor gives a campaign's levels (:func:`location`): each one's title, else its id."""
    return [lv.title or lv.id for lv in campaign.levels]


def location(diag: Diagnostic, level_titles: list[str]) -> str:
    """The level and cell a problem is at, or the form field (the CLI cites the file's line instead)."""
    if diag.level is None:
        return field_name(diag.path)
    name = level_titles[diag.level] if diag.level < len(level_titles) else f"level {diag.level + 1}"
    if diag.cell:
        return f"{name} {place_text(*diag.cell)}"
    if len(diag.path) >= 3 and diag.path[2] in ("goals", "story", "id", "title", "width", "height"):
        return f"{name}, {_FIELD_WORDS.get(diag.path[2], diag.path[2])}"
    return name


class ProblemList(OptionList):
    """The list of problems, its entries laid out again when its vertical scrollbar comes or goes.

    Textual's OptionList keeps each entry's height from the width it had when the entries were set,
    and renders the entry at the width it has now: an entry a little wider than the list beside a
    scrollbar, set while the old list scrolled, kept the second line it needed there and showed it
    empty once the scrollbar went (and a list that starts scrolling would cut an entry's last line).

    OptionList has no public call that measures its entries again (its ``_clear_caches`` is private);
    setting them (``set_options``, public) measures each at the width the list has then, so the same
    entries are set again, the highlighted one kept.
    """

    def watch_show_vertical_scrollbar(self) -> None:
        highlighted = self.highlighted
        self.set_options(list(self.options))
        self.highlighted = highlighted


class ProblemsPanel(Vertical):
    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.diagnostics: list[Diagnostic] = []
        self._status: Content | None = None
        self._status_shown: Content | None = None  # the line as the label shows it: cut to STATUS_LINES
        self._answer = False  # the line is an answer read whole (set_solve_status)
        self._summary: Content = Content("checking…")
        self._grown = False  # fit() set max_height to show the highlighted problem whole

    def on_mount(self) -> None:
        self.border_title = "Problems"
        self.border_subtitle = "ctrl+k, enter: go to"

    def compose(self) -> ComposeResult:
        yield Label("", id="solve-status")
        yield Label("checking…", id="problems-summary")
        yield ProblemList(id="problems-list")

    def show(self, diagnostics: list[Diagnostic], level_titles: list[str]) -> None:
        # errors first, then warnings, then notes, each in the file's order: what stops play on top
        self.diagnostics = reading_order(diagnostics)
        counts = {s: sum(d.severity is s for d in diagnostics) for s in Severity}
        summary = self.query_one("#problems-summary", Label)
        if not diagnostics:
            self._summary = Content.from_markup("[green]none[/]")
        else:
            draft = (" [b red]· a draft: fix the errors to play or publish it[/]"
                     if counts[Severity.ERROR] else "")
            # While a rule error keeps the route checks out, the warnings and notes counted are not all there are.
            before = (" before the rule and route checks" if rules_wait(diagnostics)
                      else " before the route checks" if analysis_waits(diagnostics) else "")
            self._summary = Content.from_markup(
                f"{counted(counts[Severity.ERROR], 'error')}, {counted(counts[Severity.WARNING], 'warning')}, "
                f"{counted(counts[Severity.INFO], 'note')}{before}{draft}")
        summary.update(self._summary)
        self.fit()
        options = self.query_one("#problems-list", OptionList)
        entries = [Option(markup(f"{_ICON[d.severity]} $code $where: $message", code=d.code,
                                 where=location(d, level_titles), message=editor_message(d)), id=str(i))
                   for i, d in enumerate(self.diagnostics)]
        waiting = checks_waiting(diagnostics)
        if waiting:  # said, not silently dropped: a chokepoint note left with an error
            entries.append(Option(Content.from_markup(f"[dim]{waiting}[/]"), disabled=True))
        options.set_options(entries)

    @property
    def status(self) -> Content | None:
        """The solver's line (F6's verdict or step, F9's publish), None while it is hidden."""
        return self._status

    def set_solve_status(self, text: Content | None, *, answer: bool = False) -> None:
        """The solver's line above the problems (the par, the step shown); None hides it. ``answer``: one to read
        whole and put away (F9's: the hub's answer, or why a map is not published), for which the map gives up
        its rows down to one row of boxes, as for a problem read (at 80x24 F9's unknown par ran to ten lines)."""
        label = self.query_one("#solve-status", Label)
        label.update(text or "")
        label.set_class(bool(text), "-shown")
        self.set_class(bool(text), "-status")
        self._status = self._status_shown = text or None
        self._answer = answer and text is not None
        self.fit()

    def _fit_status(self, width: int, room: int) -> int:
        """The solver's line in the ``room`` lines it has, a cut marked by "…" on its last (a step's log, long
        in a fight, ran on out of sight); returns how many lines it takes."""
        text = self._status if isinstance(self._status, Content) else Content(str(self._status))
        lines = text.wrap(width)
        shown = text
        if len(lines) > room:
            kept = lines[:room]
            kept[-1] = kept[-1].truncate(width - 1) + "…"
            shown = Content("\n").join(kept)
        label = self.query_one("#solve-status", Label)
        label.styles.max_height = room if room > STATUS_LINES else None  # (the stylesheet's: STATUS_LINES)
        if shown != self._status_shown:
            self._status_shown = shown
            label.update(shown)
        return min(room, len(lines))

    def fit(self) -> None:
        """Grow the panel while the solver's line is shown, so it is read whole (up to seven lines)
        with the summary and a problem below it; as little as that needs, so the map keeps its rows.

        While the list has the focus, grow it also to show the highlighted problem whole: at 80x24 the
        panel holds two lines of problems, and a problem with its editor fix (CR225, CR201) runs to
        eight, its fix cut. The map gets its rows back when the focus leaves the list (enter: go to).
        """
        options = self.query_one("#problems-list", ProblemList)
        reading = options.has_focus and options.highlighted_option is not None
        stepping = self.has_class("-stepping")
        if not reading and self._grown:
            self.styles.max_height = None  # the stylesheet's again
            self._grown = False
            self.screen.remove_class("-reading-problems")
        if not reading and self._status is None:
            self.styles.min_height = None  # the stylesheet's
            return
        width = self.content_region.width - 2  # the labels' padding
        if width <= 0:
            self.call_after_refresh(self.fit)  # not laid out yet
            return
        summary = len(self._summary.wrap(width))
        room = STATUS_LINES  # an unknown par with what to do about it (walk 26): 7 at 80x24
        if self._answer and not reading:
            room = max(room, self.parent.size.height - MAP_KEEPS_ROWS - summary - 2)
        status = self._fit_status(width, room) if self._status is not None else 0
        if not reading and stepping:
            self.styles.min_height = None  # the stylesheet's: a height of its own, the same at every step
            return
        if not reading:
            # The line whole, the summary and the border; and a problem, while the map keeps two rows of boxes.
            needed = status + summary + 2
            self.styles.min_height = max(6, needed, min(needed + 1, self.parent.size.height - MAP_SOLVER_ROWS))
            css_max = self.styles.base.max_height
            short = css_max is not None and css_max.is_cells and needed > css_max.value
            self.styles.max_height = needed if self._answer and short else None  # else the stylesheet's
            return
        prompt = options.highlighted_option.prompt
        entry = prompt if isinstance(prompt, Content) else Content(str(prompt))
        lines = len(entry.wrap(max(1, options.scrollable_content_region.width)))
        # the map keeps six rows of the Map tab the panel shares with it (a row of boxes and its borders:
        # ten rows of the screen beside the sidebar, with the tabs, the header and the footer; under a
        # narrow screen's map the sidebar takes its own); the panel only grows: an entry that fits leaves
        # it its stylesheet's height
        height = min(status + summary + lines + 2, self.parent.size.height - MAP_KEEPS_ROWS)
        css_max = self.styles.base.max_height
        self.styles.min_height = max(10 if stepping else 6, height)
        self.styles.max_height = max(height, int(css_max.value) if css_max is not None and css_max.is_cells else 0)
        self._grown = True
        self.screen.add_class("-reading-problems")  # the notifications move off it (editor.tcss)
        self.call_after_refresh(options.scroll_to_highlight)

    def on_descendant_focus(self) -> None:
        self.fit()

    def on_descendant_blur(self) -> None:
        self.fit()

    def on_option_list_option_highlighted(self) -> None:
        self.fit()

    def on_resize(self) -> None:
        self.fit()

    def set_checking(self) -> None:
        self._summary = Content("checking…")
        self.query_one("#problems-summary", Label).update(self._summary)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(ProblemChosen(self.diagnostics[int(event.option.id or 0)]))
