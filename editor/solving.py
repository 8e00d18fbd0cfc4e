"""Solving in the editor (F6): the solver in a worker thread, then its solution stepped on the map.

:mod:`.solution` finds the par and traces the steps without Textual; this module runs it off the
UI thread, keeps the last verdict for the level shown and drives the map's step overlay and the
problems panel's solver line.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from textual.content import Content
from textual.worker import get_current_worker

from cardrogue.engine.model.campaign import Campaign
from cardrogue.engine.words import counted, place_text

from .document import Document
from .files import draft_note
from .places import placed, saved_places
from .shown import markup
from .solution import DEFAULT_BUDGET, SOLVED, UNSOLVABLE, Solution
from .solution import solve as solve_solution
from .widgets.map_canvas import StepOverlay
from .widgets.problems import ProblemsPanel, level_titles

if TYPE_CHECKING:
    from .app import EditorApp


# What an author can do about an unknown par (walk 26: the line named no next step, and F9 then said "raise the
# budget to decide", a budget the author cannot raise): F9 proves par in 20 s (hub.client.publish_map), a hub
# in its own budget (20 s by default), so the map must become quicker to solve (docs/authoring.md, *Par*).
def unknown_advice() -> str:
    from cardrogue.hub.client import PUBLISH_SECONDS  # (the hub's client, imported when F6 has a verdict to say)

    return (f"To publish it, its par must be proven in {PUBLISH_SECONDS:g} s: make the map smaller, script its "
            "fights (ctrl+r) or cut detours that lead nowhere")


def headline(solution: Solution, brief: bool = False) -> Content:
    """The verdict as one line: the par, the reason it cannot be solved, or that nobody knows (and what to do).

    ``brief``: an unknown par's bounds alone, on one line at 80 columns, while its run is stepped past the start
    (at 80x24 its budget and what to do, six lines, left one to the step: its log was cut, the map one row).
    """
    r = solution.result
    if r.verdict == SOLVED:
        health = f"{r.health} health" + ("" if r.health_exact else " (at least)")
        return Content.from_markup(f"Par: [b]{counted(r.turns, 'turn')}[/], {health} left ({counted(len(r.actions), 'action')})")
    if r.verdict == UNSOLVABLE:
        return markup("[b red]Unsolvable[/]: $reason", reason=r.reason)
    if brief and r.found is not None and r.turns_at_least is not None:
        bounds = f"{r.turns_at_least} to {counted(r.found.turns, 'turn')}"
        return markup(f"[b yellow]Unknown[/] par: {bounds} (the run found)")
    advice = Content.styled(f"\n{unknown_advice()}.", "dim")
    if r.found is not None and r.turns_at_least is not None:
        # The budget ran out before par was proven, but a run that finishes was found: it is shown.
        budget = solution.budget
        # (the run's actions are counted on the step line below: "Step 0/46")
        return markup(f"[b yellow]Unknown[/] par: {r.turns_at_least} to {counted(r.found.turns, 'turn')}. F6's budget "
                      f"({counted(budget.max_states, 'state')}, {budget.max_seconds:g} s) ran out; a run of "
                      f"[b]{counted(r.found.turns, 'turn')}[/], {r.found.health} health left, finishes.") + advice
    return markup("[b yellow]Unknown[/]: $reason.", reason=r.reason or "the solver ran out of budget") + advice


def _same_level(before: Campaign | None, after: Campaign, index: int) -> bool:
    """Whether level ``index`` of ``after`` is the level ``index`` of ``before`` (edited, or renamed, but not
    another level moved or shifted there by a level added, removed or moved)."""
    if before is None or len(before.levels) != len(after.levels) or index >= len(after.levels):
        return False
    was, now = before.levels[index].id, after.levels[index].id
    return was == now or was not in {level.id for level in after.levels}


def _par_alone(before: Campaign, after: Campaign) -> bool:
    """Whether ``after`` is ``before`` with another par: par is no content, a verdict still holds for it."""
    return before.par != after.par and replace(before, par=after.par) == after


class SolveFlow:
    """The last solution of a level and the step of it shown on the map (``step_index`` None: not stepping)."""

    def __init__(self, app: EditorApp) -> None:
        self.app = app
        self.budget = DEFAULT_BUDGET
        self.solution: Solution | None = None
        self._campaign: Campaign | None = None
        self.step_index: int | None = None
        self._generation = 0
        self._before_edit: int | None = None  # the level of the verdict shown as 'Before the last edit'

    @property
    def _panel(self) -> ProblemsPanel:
        return self.app.query_one(ProblemsPanel)

    @property
    def stepping(self) -> bool:
        return self.step_index is not None

    def forget(self) -> None:
        """Drop the solution (a new document, another level, a new solve)."""
        self._generation += 1
        self.solution = None
        self._before_edit = None
        self._stop_stepping()
        self.app.canvas.set_overlay(None)
        self._panel.set_solve_status(None)
        self.app.refresh_bindings()

    def campaign_changed(self) -> None:
        """After an edit: the solution no longer holds, but its verdict is shown as what it was before."""
        solution, solved = self.solution, self._campaign
        if solution is None:
            if self._before_edit is not None and not _same_level(solved, self.app.campaign, self._before_edit):
                self.forget()  # a later edit removed or moved the level the verdict kept is of
            return
        if solved is self.app.campaign:
            return
        if solved is not None and _par_alone(solved, self.app.campaign):
            self._campaign = self.app.campaign  # *Record par* (or its undo): the verdict still holds
            return
        self.forget()
        if not _same_level(solved, self.app.campaign, solution.level):
            return  # the level was removed or moved (or one before it): its verdict names another level's places
        self._before_edit = solution.level
        self._panel.set_solve_status(Content.assemble(("Before the last edit: ", "dim"), headline(solution),
                                                      ("  (F6 solves again)", "dim")))

    def proven_par(self, level: int) -> int | None:
        """The par F6 proved for ``level`` of the campaign as it is now (no edit since), else None."""
        solution = self.solution
        if (solution is None or solution.level != level or solution.verdict != SOLVED
                or self._campaign is not self.app.campaign):
            return None
        return solution.result.turns

    def level_changed(self, index: int) -> None:
        """Another level shown: its verdict, or the one kept from before an edit, is forgotten (it names
        places of a level no longer on the map)."""
        solved = self.solution.level if self.solution is not None else self._before_edit
        if solved is not None and index != solved:
            self.forget()

    def solve(self) -> None:
        """Solve the current level in a worker thread; then step through the solution on the map."""
        self.forget()
        app, li = self.app, self.app.level_index
        level = app.campaign.levels[li]
        self._panel.set_solve_status(markup("Solving $title… [dim](up to $states states, $seconds s)[/]",
                                            title=level.title or level.id, states=f"{self.budget.max_states:,}",
                                            seconds=f"{self.budget.max_seconds:g}"))
        app.run_worker(partial(self._work, app.doc, app.campaign, li, self._generation),
                       thread=True, exclusive=True, group="solve")

    def _work(self, doc: Document, campaign: Campaign, level: int, generation: int) -> None:
        from cardrogue.engine.format.loader import load_campaign_text

        # The solver needs a campaign the loader accepts: the canonical text of this version, re-loaded.
        result = load_campaign_text(Document(campaign, schema_ref=doc.schema_ref).text(), doc.name)
        outcome: Solution | str
        if result.campaign is None:
            place = saved_places(campaign)
            note = draft_note([placed(d, place) for d in result.errors], cannot="solved, played or published",
                              level_titles=level_titles(campaign))
            outcome = f"the campaign has {note}"
        else:
            try:
                outcome = solve_solution(result.campaign, level, self.budget)
            except Exception as exc:  # the solver must never take the editor down
                outcome = f"The solver failed: {exc}"
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._solved, outcome, campaign, generation)

    def _solved(self, outcome: Solution | str, campaign: Campaign, generation: int) -> None:
        if generation != self._generation or not self.app.screen_stack:
            return
        if isinstance(outcome, str):
            self._panel.set_solve_status(markup("[b red]Cannot solve[/]: $why", why=outcome))
            return
        if campaign is not self.app.campaign:
            self._panel.set_solve_status(Content.from_markup("[dim]The campaign changed while solving: F6 solves again.[/]"))
            return
        self.solution, self._campaign = outcome, campaign
        if outcome.steps:  # the par run, or the run found when par is unknown
            self.show_step(0)
            if not self._typing():
                self.app.action_focus_map()
        else:
            self._panel.set_solve_status(headline(outcome))
        self.app.refresh_bindings()

    def _typing(self) -> bool:
        """The author is typing somewhere the solver's end must not take the focus from: a text field (the
        Cell panel's, the story's, a dialog's) or a dialog over the map. The map's keys are letters: the
        focus taken from a field sent the rest of the word to the map (``s``, ``e``, ``w`` toggle paths)."""
        from textual.widgets import Input, TextArea

        return isinstance(self.app.focused, (Input, TextArea)) or len(self.app.screen_stack) > 1

    def show_step(self, index: int) -> None:
        """Show the solution after ``index`` actions: the marker, the flipped cards, the action and turn."""
        solution = self.solution
        if solution is None or not solution.steps:
            return
        index = max(0, min(len(solution.steps) - 1, index))
        self.step_index = index
        step = solution.steps[index]
        self.app.canvas.set_overlay(StepOverlay(step.position, step.flipped))
        total = len(solution.steps) - 1
        if index == 0:
            what = Content(f"start at {place_text(*step.position)}, turn {step.turn}")
        else:
            what = markup(f"turn {step.turn}: [b]$action[/] → {place_text(*step.position)}", action=step.action)
            if step.left_level:
                what += " takes the ladder"
            elif step.outcome:
                what += markup(" $outcome", outcome=step.outcome)
        # The par on a line, then the step and what the engine logged as one paragraph, wrapped (not cut
        # at 80 columns); the stepping keys are in the footer.
        said = " ".join(step.log) if step.log else ""
        self._panel.set_solve_status(Content.assemble(
            headline(solution, brief=index > 0), f"\nStep {index}/{total}, ", what, f", health {step.health}.",
            (" " + said, "dim") if said else ""))
        self._panel.add_class("-stepping")
        self._panel.fit()

    def step(self, delta: int) -> None:
        if self.step_index is not None:
            self.show_step(self.step_index + delta)

    def _stop_stepping(self) -> None:
        self.step_index = None
        self._panel.remove_class("-stepping")
        self._panel.fit()

    def leave(self) -> None:
        solution = self.solution
        self._stop_stepping()
        self.app.canvas.set_overlay(None)
        if solution is not None:
            self._panel.set_solve_status(Content.assemble(headline(solution), ("  (F6: solve and step again)", "dim")))
        self.app.refresh_bindings()
