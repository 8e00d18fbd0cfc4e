"""The editor's background checks: what ``cardrogue check`` reports, kept up to date while editing.

Each edit starts a check of the new campaign off the UI thread; a newer edit makes an older
check's answer stale, so only the latest one reaches the screen, and edits made while a check
runs are checked together once it ends (one check at a time, the newest campaign next).

A small campaign is checked in a worker thread: it takes milliseconds. A big one (more than
:data:`PROCESS_CELLS` cards) is checked in a separate process, because a check is pure Python
and a thread running it for seconds holds the interpreter lock, stalling every key press: on
a 256x256 level the thread held the UI for seconds at a time. The process gets the immutable
campaign (pickled) and sends back the diagnostics; writing the canonical text and checking it
both happen there. See ``benchmarks/bench_editor.py --check``.
"""

from __future__ import annotations

import copyreg
import multiprocessing
import pickle
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from functools import partial
from types import MappingProxyType
from typing import TYPE_CHECKING, Callable

from textual.worker import get_current_worker

from cardrogue.engine.format.diagnostics import Diagnostic, Severity
from cardrogue.engine.model.campaign import Campaign

from .document import Document
from .places import placed, saved_places

if TYPE_CHECKING:
    from textual.app import App

WORST = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}

PROCESS_CELLS = 4000
"""Campaigns with more cards than this are checked in a separate process (see the module's doc)."""

# A campaign holds read-only mappings (a level's cells by place, the cards); they travel as dicts.
def read_only(values: dict) -> MappingProxyType:
    return MappingProxyType(values)


copyreg.pickle(MappingProxyType, lambda proxy: (read_only, (dict(proxy),)))


def run_checks(text: str, name: str) -> list[Diagnostic]:
    """The checks ``cardrogue check`` runs, on the campaign's canonical text."""
    from cardrogue.engine.analysis.check import check_text

    return check_text(text, name)


CHUNK = 1000
"""Cells pickled at a time when a campaign is sent to the checking process."""


def packed(campaign: Campaign) -> tuple[bytes, list[list[bytes]]]:
    """The campaign pickled in small pieces: the campaign without its cells, then each level's cells
    ``CHUNK`` at a time. One ``pickle.dumps`` of a 65,536-card level is a single C call that holds
    the interpreter lock for seconds; pieces let the UI thread run between them."""
    skeleton = replace(campaign, levels=tuple(replace(level, cells=(), by_pos={}) for level in campaign.levels))
    pieces = [[pickle.dumps(level.cells[i:i + CHUNK]) for i in range(0, len(level.cells), CHUNK)]
              for level in campaign.levels]
    return pickle.dumps(skeleton), pieces


def unpacked(skeleton: bytes, pieces: list[list[bytes]]) -> Campaign:
    campaign = pickle.loads(skeleton)
    levels = tuple(replace(level, cells=tuple(cell for piece in chunks for cell in pickle.loads(piece)), by_pos={})
                   for level, chunks in zip(campaign.levels, pieces))
    return replace(campaign, levels=levels)


def check_packed(skeleton: bytes, pieces: list[list[bytes]], schema_ref: str | None, name: str) -> list[Diagnostic]:
    """:func:`check_campaign` in the checking process, on a campaign sent by :func:`packed`."""
    return check_campaign(unpacked(skeleton, pieces), schema_ref, name)


def check_campaign(campaign: Campaign, schema_ref: str | None, name: str) -> list[Diagnostic]:
    """The checks of ``campaign`` as saved (its canonical text), each placed on its level and cell."""
    text = Document(campaign, schema_ref=schema_ref).text()
    place = saved_places(campaign)
    return [placed(d, place) for d in run_checks(text, name)]


def markers(diagnostics: list[Diagnostic], level: int) -> dict[tuple[int, int], Severity]:
    """The worst problem at each cell of ``level``: what the map marks."""
    marks: dict[tuple[int, int], Severity] = {}
    for d in diagnostics:
        if d.level == level and d.cell is not None:
            old = marks.get(d.cell)
            if old is None or WORST[d.severity] < WORST[old]:
                marks[d.cell] = d.severity
    return marks


def start_resource_tracker() -> bool:
    """Start multiprocessing's resource tracker (once), on the UI thread; False when it cannot start.

    A process pool starts it on first use and hands it ``sys.stderr``'s file descriptor, but a
    running Textual app has replaced ``sys.stderr`` with an object without one, so the start
    fails; it is started here with the real standard error put back for that moment.
    """
    from multiprocessing import resource_tracker

    shown = sys.stderr
    try:
        if sys.__stderr__ is not None:
            sys.stderr = sys.__stderr__
        resource_tracker.ensure_running()
    except (OSError, ValueError):
        return False
    finally:
        sys.stderr = shown
    return True


class Checker:
    """Runs the checks of a document's campaign off the UI thread and hands back the latest answer."""

    def __init__(self, app: App, done: Callable[[list[Diagnostic]], None]) -> None:
        self.app = app
        self.done = done
        self._generation = 0
        self._running = False
        self._pending: Document | None = None
        self._pool: ProcessPoolExecutor | None = None
        # The campaign the diagnostics last handed to ``done`` were found in: after an edit they describe it, not the
        # campaign of now, until the next check ends (a problem's path may lead elsewhere: edits.key_unchanged).
        self.checked: Campaign | None = None

    def start(self, doc: Document) -> None:
        """Check ``doc`` now, or right after the check under way (only the newest document waits)."""
        self._generation += 1
        if self._running:
            self._pending = doc
            return
        self._running = True
        campaign = doc.campaign
        in_process = sum(len(level.cells) for level in campaign.levels) > PROCESS_CELLS
        if in_process and self._pool is None:
            in_process = start_resource_tracker()
        self.app.run_worker(partial(self._work, campaign, doc.schema_ref, doc.name, self._generation, in_process),
                            thread=True, group="checks")

    def _work(self, campaign: Campaign, schema_ref: str | None, name: str, generation: int,
              in_process: bool) -> None:
        # The campaign is immutable, so it can be checked while the author keeps editing.
        try:
            if in_process:
                skeleton, pieces = packed(campaign)
                diagnostics = self._process().submit(check_packed, skeleton, pieces, schema_ref, name).result()
            else:
                diagnostics = check_campaign(campaign, schema_ref, name)
        except Exception:  # noqa: BLE001 - a failed check must not stop the next one
            diagnostics = None
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._finished, diagnostics, generation, campaign)

    def _process(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: the child starts clean, not as a copy of an app with threads running
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    def _finished(self, diagnostics: list[Diagnostic] | None, generation: int, campaign: Campaign) -> None:
        self._running = False
        pending, self._pending = self._pending, None
        if pending is not None:
            self.start(pending)  # the newest campaign; this answer is stale
        elif generation == self._generation and self.app.screen_stack:
            if diagnostics is None:
                self.app.notify("The check stopped with an error; it runs again after the next edit",
                                severity="error", timeout=5)
            else:
                self.checked = campaign
                self.done(diagnostics)

    def close(self) -> None:
        """Stop the checking process (the app is closing)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
