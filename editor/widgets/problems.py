"""The problems panel: what ``cardrogue check`` reports, kept up to date while editing."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from cardrogue.editor.messages import ProblemChosen
from cardrogue.editor.shown import markup
from cardrogue.engine.format.diagnostics import Diagnostic, Severity

_ICON = {Severity.ERROR: "[b red]E[/]", Severity.WARNING: "[b yellow]W[/]", Severity.INFO: "[b cyan]i[/]"}


def location(diag: Diagnostic, level_titles: list[str]) -> str:
    if diag.level is None:
        return f"line {diag.line}" if diag.line else "campaign"
    name = level_titles[diag.level] if diag.level < len(level_titles) else f"level {diag.level + 1}"
    return f"{name} ({diag.cell[0]}, {diag.cell[1]})" if diag.cell else name


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


class ProblemsPanel(Vertical):
    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.diagnostics: list[Diagnostic] = []

    def compose(self) -> ComposeResult:
        yield Label("", id="solve-status")
        yield Label("Problems: checking…", id="problems-summary")
        yield OptionList(id="problems-list")

    def show(self, diagnostics: list[Diagnostic], level_titles: list[str]) -> None:
        self.diagnostics = list(diagnostics)
        counts = {s: sum(d.severity is s for d in diagnostics) for s in Severity}
        summary = self.query_one("#problems-summary", Label)
        if not diagnostics:
            summary.update("Problems: [green]none[/]")
        else:
            draft = (" [b red]· a draft: fix the errors to play or publish it[/]"
                     if counts[Severity.ERROR] else "")
            errors, warnings, notes = (_count(counts[s], word) for s, word in
                                       ((Severity.ERROR, "error"), (Severity.WARNING, "warning"), (Severity.INFO, "note")))
            summary.update(f"Problems: {errors}, {warnings}, {notes}{draft}  [dim](enter: go to)[/]")
        options = self.query_one("#problems-list", OptionList)
        options.set_options(
            Option(markup(f"{_ICON[d.severity]} $code $where: $message", code=d.code, where=location(d, level_titles),
                          message=d.message), id=str(i))
            for i, d in enumerate(diagnostics)
        )

    def set_solve_status(self, text: Content | None) -> None:
        """The solver's line above the problems (the par, the step shown); None hides it."""
        label = self.query_one("#solve-status", Label)
        label.update(text or "")
        label.set_class(bool(text), "-shown")

    def set_checking(self) -> None:
        self.query_one("#problems-summary", Label).update("Problems: checking…")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(ProblemChosen(self.diagnostics[int(event.option.id or 0)]))
