"""Publishing from the editor (F9): the campaign's par proven in a worker thread, then the map sent to the hub.

Said on the solver's line above the problems (:class:`.widgets.problems.ProblemsPanel`), where F6 says its verdict:
while it runs, how far the proof has gone in its budget and that F9 again stops it (a proof takes up to 20 s, and
only a toast of 3 s said it had begun); after it, the hub's answer, kept until the next edit or escape on the map
(a toast of 10 s was all there was of it).
"""

from __future__ import annotations

import threading
import time
from contextlib import suppress
from functools import partial
from typing import TYPE_CHECKING, Callable

from rich.text import Text

from textual.content import Content
from textual.timer import Timer

from cardrogue.engine.words import counted

from .widgets.dialogs import ConfirmScreen
from .widgets.problems import ProblemsPanel

if TYPE_CHECKING:
    from .app import EditorApp

TICK_SECONDS = 0.5  # how often the running line is said again (the seconds and states go on)


class _Publish:
    """One publish: how far it has gone (the worker thread reports) and whether it is stopped or sending, the two
    decided under one lock: a stop pressed as the map set off either stops it or is told it came too late."""

    def __init__(self, text: str, name: str) -> None:
        self.text = text  # what is sent: the campaign as it was when F9 was pressed
        self.name = name  # the document's, said of a publish left running when another is opened
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.sending = False
        self.progress = None  # the solver's last report (set by the worker thread)
        self.started = time.monotonic()

    def report(self, progress) -> None:  # (the worker thread: one reference set)
        self.progress = progress

    def send(self) -> bool:
        """(The worker thread, its par proven.) Whether the map may go: not once stopped; once it goes, no stop."""
        with self.lock:
            if not self.stop.is_set():
                self.sending = True
            return self.sending

    def halt(self) -> bool:
        """Stop it, unless the map is on its way already: whether it stopped."""
        with self.lock:
            if not self.sending:
                self.stop.set()
            return not self.sending


class PublishFlow:
    """One publish at a time: ``current`` while one runs (F9 again stops it), ``shown`` while its answer is on the
    solver's line."""

    def __init__(self, app: EditorApp) -> None:
        self.app = app
        self.current: _Publish | None = None
        self._timer: Timer | None = None
        self._line: Content | None = None  # what this flow last put on the solver's line
        self._answered = None  # the campaign the answer shown was for: an edit hides it
        self._quit_question: ConfirmScreen | None = None
        self._exit_on_answer = False  # quit asked while the map was on its way: the editor closes on the answer
        self._farewell: Text | None = None  # that answer, printed as the terminal is back

    @property
    def _panel(self) -> ProblemsPanel:
        return self.app.query_one(ProblemsPanel)

    @property
    def running(self) -> bool:
        return self.current is not None

    @property
    def shown(self) -> bool:
        """The answer of the last publish is on the solver's line."""
        return self._answered is not None and self._owns_line()

    def start(self, text: str) -> None:
        """Prove the par of ``text`` and send it, in a worker thread."""
        from cardrogue.hub.client import publish_map

        self.current = publish = _Publish(text, self.app.doc.name)
        self._answered = self._line = None
        self.app.solving.forget()  # the solver's line is this publish's now
        self._say_running()
        self._timer = self.app.set_interval(TICK_SECONDS, self._say_running)
        work = partial(publish_map, text, progress=publish.report, stop=publish.stop, sending=publish.send)
        self.app.run_worker(partial(self._work, publish, work), thread=True, exclusive=True, group="publish")

    def stop_now(self) -> None:
        """F9 while a publish runs: its proof ends at the solver's next look at the clock, and nothing is sent (once
        the map is on its way, it is too late, and F9 says so: the hub's answer is shown)."""
        if self.current is None:
            return
        if not self.current.halt():
            self.app.notify("Too late to stop: the map is already on its way to the hub; its answer will be shown",
                            severity="warning", timeout=5)
        self._say_running()

    def _work(self, publish: _Publish, work) -> None:
        ok, message = work()
        with suppress(RuntimeError):  # the editor closed meanwhile (a quit stopped the proof): none to tell
            self.app.call_from_thread(self._done, publish, ok, message)

    def _owns_line(self) -> bool:
        return self._line is not None and self._panel.status is self._line

    def _say(self, line: Content, answer: bool = False) -> None:
        self._line = line
        self._panel.set_solve_status(line, answer=answer)

    def _say_running(self) -> None:
        publish = self.current
        if publish is None or (self._line is not None and not self._owns_line()):
            return  # F6 has the line now: this publish goes on, its answer is a toast
        from cardrogue.hub.client import PUBLISH_SECONDS

        seconds = f"{time.monotonic() - publish.started:.0f} s of up to {PUBLISH_SECONDS:g} s"
        progress = publish.progress
        if publish.sending:
            what = "par proven; sending the map to the hub…"
        elif publish.stop.is_set():
            what = "stopping the proof of its par…"
        elif progress is not None and progress.stage == "health" and progress.turns is not None:
            what = (f"par {counted(progress.turns, 'turn')} proven, the most health left sought, {seconds}… "
                    "F9 again stops it")
        else:
            states = f" ({counted(progress.expanded, 'state')})" if progress is not None else ""
            what = f"proving the par, {seconds}{states}… F9 again stops it"
        self._say(Content.assemble(("Publishing", "bold"), f": {what}"))

    def _unsaved(self, publish: _Publish) -> str | None:
        """After a version is published, what the author should know of it, said when the hub answers (an edit
        and ctrl+s during the proof made a note computed at F9 false: "not saved" of a saved file, and the hub
        said to have what the editor showed, an older version)."""
        doc = self.app.doc
        if doc.text() != publish.text:
            return ("The map changed since F9: the hub has the version from when F9 was pressed; F9 again publishes "
                    "this one")
        if doc.dirty:  # walk25: a version on the hub that no file of the author held, the header's ● the only sign
            return (f"{doc.name} is not saved: the hub has the campaign as the editor shows it, the file on disk an "
                    "older one; ctrl+s saves it")
        return None

    def leave_document(self) -> None:
        """Another document is shown (opened, new): a publish of the one before stops, or, its map on its way
        already, is answered in a toast that names it; nothing of it stays on the solver's line. (It ran on: its
        running line went, F9 on the new document stopped it and said so there, and its answer landed there.)"""
        publish = self.current
        if publish is not None:
            if publish.halt():
                self.app.notify(f"Publishing {publish.name} stopped: nothing was sent", timeout=5)
            else:
                self.app.notify(f"{publish.name} is already on its way to the hub: its answer will be a toast",
                                severity="warning", timeout=5)
            self._stop_ticking()
            self.current = None
        self._answered = self._line = None
        self._exit_on_answer = False  # a quit on its answer was given up by showing another document

    def ask_before_quit(self, then: Callable[[], None]) -> None:
        """Quitting while a publish runs: asked first, then ``then`` (which ends in :meth:`exit`). A quit left the
        proof running: the terminal stayed blank until it was over, and the map was sent ~30 s after the quit."""
        publish = self.current
        if publish is None or self._exit_on_answer:
            then()
            return
        if self._quit_question in self.app.screen_stack:
            return  # asked already (ctrl+q pressed again): one question, answered once
        if publish.sending:
            question = (f"{publish.name} is on its way to the hub: it cannot be stopped. Quit once the hub answers? "
                        "(Its answer is printed as the editor closes.)")
            answers = [("Quit when it answers", "quit", "error"), ("Cancel", "cancel", "default")]
        else:
            question = (f"Publishing {publish.name}: its par is being proven. Quitting stops it, and nothing is "
                        "sent. Quit?")
            answers = [("Quit", "quit", "error"), ("Cancel", "cancel", "default")]
        self._quit_question = ConfirmScreen(question, answers)
        self.app.push_screen(self._quit_question, lambda answer: then() if answer == "quit" else None)

    def exit(self) -> None:
        """The editor closes: a proof is stopped first (its thread ends at the solver's next look at the clock); a
        map on its way is waited for, within the hub client's deadline, and its answer printed (ctrl+q again
        closes at once, the answer unheard)."""
        publish = self.current
        if publish is None or self._exit_on_answer or publish.halt():
            farewell, self._farewell = self._farewell, None
            self.app.exit(0, message=farewell)
            return
        from cardrogue.hub.client import TIMEOUT_S

        self._exit_on_answer = True
        self._stop_ticking()
        self._say(Content.assemble(("Quitting", "bold"), f" once the hub answers (within {TIMEOUT_S:g} s)… "
                                   "ctrl+q again leaves without its answer (the terminal is back once the map "
                                   "has gone)"))

    def _stop_ticking(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _done(self, publish: _Publish, ok: bool, message: str) -> None:
        if publish is not self.current:  # of a document no longer shown
            if not publish.stop.is_set():  # (stopped, it was said then)
                self.app.notify(f"{publish.name}: {message}", severity="information" if ok else "error",
                                timeout=10, markup=False)
            return
        self._stop_ticking()
        if self._exit_on_answer:
            self._exit_on_answer, self.current = False, None
            self._farewell = Text(f"{publish.name}: {message}")
            self.app.notify(message, severity="information" if ok else "error", timeout=10, markup=False)
            # Quit as asked, its answer printed as the terminal is back; edits made while it was awaited are asked
            # about as any quit asks (they were dropped unasked: review 27).
            self.app.files.quit()
            return
        owned = self._owns_line() or self._panel.status is None
        unsaved = self._unsaved(publish) if ok else None
        self.current = None
        self.app.notify(message, severity="information" if ok else "error", timeout=10, markup=False)
        if ok and unsaved:
            self.app.notify(unsaved, severity="warning", timeout=10, markup=False)
        if not owned:
            return
        answer = Content.styled(message, "bold green" if ok else "bold red")  # text: the hub quotes the file's
        if ok and unsaved:
            answer += Content.styled(f"\n{unsaved}", "yellow")
        self._answered = self.app.campaign
        self._say(answer + Content.styled("  (escape on the map or an edit hides it)", "dim"), answer=True)

    def campaign_changed(self) -> None:
        """After an edit (or undo): the answer shown was for another version; it goes."""
        if self._answered is not None and self._answered is not self.app.campaign:
            self.hide()

    def hide(self) -> None:
        """The answer off the solver's line (escape on the map, an edit). Only the answer: a publish running after
        F6 took its line stays off it (escape used to forget that the line was taken, and the running line came
        back over what escape had just put away)."""
        if self.shown:
            self._panel.set_solve_status(None)
            self._answered = self._line = None
