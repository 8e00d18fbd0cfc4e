"""The editor's background checks: what ``cardrogue check`` reports, kept up to date while editing.

Each edit starts a check of the new campaign in a worker thread; a newer edit makes an older
check's answer stale, so only the latest one reaches the screen.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Callable

from textual.worker import get_current_worker

from cardrogue.engine.format.diagnostics import Diagnostic, Severity
from cardrogue.engine.model.campaign import Campaign

from .document import Document

if TYPE_CHECKING:
    from textual.app import App

WORST = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


def run_checks(text: str, name: str) -> list[Diagnostic]:
    """The checks ``cardrogue check`` runs, on the campaign's canonical text."""
    from cardrogue.engine.analysis.check import check_text

    return check_text(text, name)


def placed(diag: Diagnostic, campaign: Campaign) -> Diagnostic:
    """The diagnostic with its level and cell filled in from its JSON path when the check left them out."""
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


def markers(diagnostics: list[Diagnostic], level: int) -> dict[tuple[int, int], Severity]:
    """The worst problem at each cell of ``level``: what the map marks."""
    marks: dict[tuple[int, int], Severity] = {}
    for d in diagnostics:
        if d.level == level and d.cell is not None:
            old = marks.get(d.cell)
            if old is None or WORST[d.severity] < WORST[old]:
                marks[d.cell] = d.severity
    return marks


class Checker:
    """Runs the checks of a document's campaign off the UI thread and hands back the latest answer."""

    def __init__(self, app: App, done: Callable[[list[Diagnostic]], None]) -> None:
        self.app = app
        self.done = done
        self._generation = 0

    def start(self, doc: Document) -> None:
        self._generation += 1
        self.app.run_worker(partial(self._work, doc, doc.campaign, self._generation),
                            thread=True, exclusive=True, group="checks")

    def _work(self, doc: Document, campaign: Campaign, generation: int) -> None:
        # The campaign is immutable, so the thread can write its text while the author keeps editing.
        text = Document(campaign, schema_ref=doc.schema_ref).text()
        diagnostics = [placed(d, campaign) for d in run_checks(text, doc.name)]
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._finished, diagnostics, generation)

    def _finished(self, diagnostics: list[Diagnostic], generation: int) -> None:
        if generation == self._generation and self.app.screen_stack:
            self.done(diagnostics)
