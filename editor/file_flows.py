"""The editor's file flows: save, save as, open, new, quit, the recovery file and changes on disk.

Each flow is a short conversation with the author (a question, a file picker) that ends in one of
:mod:`.files`' operations; the app routes its keys here and shows the document that comes back.
"""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from cardrogue.engine.format.diagnostics import Diagnostic, Severity
from cardrogue.engine.words import counted

from .files import (
    DiskStamp,
    OpenError,
    clear_recovery,
    draft_errors,
    draft_note,
    is_protected,
    open_document,
    pending_recoveries,
    put_off_recovery,
    read_recovery_file,
    recover,
    recovery_note,
    recovery_path,
    save_document,
    template_document,
    with_json_suffix,
    write_recovery,
)
from .widgets.dialogs import ChoiceScreen, ConfirmScreen, FileScreen
from .widgets.problems import level_titles

if TYPE_CHECKING:
    from .app import EditorApp
    from .document import Document


class FileFlows:
    """The editor's conversations about files, for one app and the document it shows."""

    def __init__(self, app: EditorApp, recovery_dir: Path | None) -> None:
        self.app = app
        self.recovery_dir = recovery_dir
        self.disk_stamp: DiskStamp | None = None
        self.disk_warned = False
        self._autosaved_text: str | None = None
        self._draft_told = True  # the document shown was told as a draft, or needs not be
        self._unsaved_question: ConfirmScreen | None = None

    @property
    def doc(self) -> Document:
        return self.app.doc

    def opened(self, doc: Document) -> None:
        """A new document is shown: watch its file from now on."""
        self.disk_stamp = DiskStamp.read(doc.path) if doc.path else None
        if self.disk_stamp is not None and doc.read_stamp is not None and self.disk_stamp != doc.read_stamp:
            self.disk_stamp = doc.read_stamp  # changed since it was read (review 27): its digest-less stamp tells so
        self.disk_warned = False
        self._draft_told = bool(doc.opened_errors)
        if doc.opened_errors:
            # in the file's order, as the problems panel lists them (the loader's semantic checks run a level's
            # cells before its goals): the first quoted is the panel's first
            self._tell_draft(sorted(doc.opened_errors, key=lambda d: (d.line, d.column)))

    def first_checked(self, diagnostics: list[Diagnostic]) -> None:
        """The checks' first answer on a document: a draft whose errors the loader did not find (an
        exit walled off, no way out of a level) is told as one that it did."""
        if not self._draft_told:
            self._draft_told = True
            errors = [d for d in diagnostics if d.severity is Severity.ERROR]
            if errors and self.doc.path is not None and not self.doc.dirty:
                self._tell_draft(errors)

    def _tell_draft(self, errors: list[Diagnostic]) -> None:
        note = draft_note(errors, level_titles=level_titles(self.doc.campaign))
        self.app.notify(f"{self.doc.name} opens as a draft with {note}", title="Draft",
                        severity="warning", timeout=8)

    # ------------------------------------------------------------------ unsaved changes

    def guard(self, then: Callable[[], None], verb: str) -> None:
        """Run ``then``, first offering to save unsaved changes."""
        if not self.doc.dirty:
            then()
            return

        def answered(answer: str | None) -> None:
            if answer == "save":
                self.save(then)
            elif answer == "discard":
                clear_recovery(self.doc, self.recovery_dir)
                then()

        if self._unsaved_question in self.app.screen_stack:
            return  # asked already (ctrl+q pressed again): one question, answered once
        self._unsaved_question = ConfirmScreen(f"{self.doc.name} has unsaved changes. Save them before you {verb}?",
                                               [("Save", "save", "primary"), ("Discard", "discard", "error"),
                                                ("Cancel", "cancel", "default")])
        self.app.push_screen(self._unsaved_question, answered)

    def quit(self) -> None:
        def leave() -> None:
            if not self.doc.dirty:
                clear_recovery(self.doc, self.recovery_dir)
            self.app.publishing.exit()  # a publish running is stopped, or its answer waited for

        self.app.publishing.ask_before_quit(lambda: self.guard(leave, "quit"))

    # ------------------------------------------------------------------ saving

    def save(self, then: Callable[[], None] | None = None) -> None:
        if self.doc.path is None or is_protected(self.doc.path):
            self.save_as(then)
            return
        path = self.doc.path
        if self._changed_on_disk(path):
            self._ask_overwrite(f"{path.name} changed on disk since it was opened. Overwrite it?", path, then)
            return
        self._write(path, then)

    def save_as(self, then: Callable[[], None] | None = None) -> None:
        suggestion = str(self.doc.path) if self.doc.path else str(Path.cwd() / f"{self.app.campaign.id}.json")

        def chosen(path: Path | None) -> None:
            if path is None:
                return
            path = path.absolute()
            if is_protected(path):
                self.app.notify(f"{path} is inside the installed package: choose another place", severity="error")
                return
            if path.is_dir():
                path = path / f"{self.app.campaign.id}.json"
            elif not path.exists():
                path = with_json_suffix(path)  # a new name without one: listed by check and the open dialog
            if path.exists() and path != self.doc.path:
                self._ask_overwrite(f"{path.name} exists. Overwrite it?", path, then)
                return
            self._write(path, then)

        def refused(path: Path) -> str | None:
            if is_protected(path.absolute()):
                return ("is inside the installed package (bundled campaigns, schemas, code), which the editor "
                        "never writes: choose another place")
            return None

        self.app.push_screen(FileScreen("Save campaign as", suggestion, opening=False, refuse=refused), chosen)

    def _ask_overwrite(self, question: str, path: Path, then: Callable[[], None] | None) -> None:
        def answered(answer: str | None) -> None:
            if answer == "overwrite":
                self._write(path, then)

        self.app.push_screen(ConfirmScreen(question, [("Overwrite", "overwrite", "error"),
                                                      ("Cancel", "cancel", "default")]), answered)

    def _write(self, path: Path, then: Callable[[], None] | None = None) -> None:
        before = recovery_path(self.doc, self.recovery_dir)  # keyed on the old path or template
        try:
            self.disk_stamp = save_document(self.doc, path)
        except OSError as exc:
            self._not_saved(path, exc)
            return
        with suppress(OSError):
            before.unlink()
        self.disk_warned = False
        self._autosaved_text = None
        clear_recovery(self.doc, self.recovery_dir)
        self.app.update_title()
        errors = draft_errors(self.doc)
        if errors:
            note = draft_note(errors, level_titles=level_titles(self.doc.campaign))
            self.app.notify(f"Saved {path.name} with {note}", title="Saved a draft",
                            severity="warning", timeout=8)
        elif self.doc.par_changed():  # walk 26: the file's par kept for a version it no longer is, unsaid
            par = self.doc.campaign.par
            self.app.notify(f"Saved {path.name}. Its par ({counted(par.turns, 'turn')}) was recorded for the map "
                            f"before your edits: {self.app.par_recorded_how()}", severity="warning", timeout=8)
        else:
            self.app.notify(f"Saved {path.name}", timeout=2)
        if then is not None:
            then()

    def _not_saved(self, path: Path, exc: OSError) -> None:
        """A save that failed (a read-only file, a folder closed to us, a full disk): the file is as it
        was, the work stays in the editor, and it is put in the recovery draft at once."""
        why = exc.strerror or str(exc)
        try:
            kept = f"in the editor and in its recovery draft {write_recovery(self.doc, self.recovery_dir)}"
            self._autosaved_text = self.doc.text()
        except OSError:
            kept = "in the editor"
        self.app.notify(f"Could not save {path}: {why}; the file is unchanged. Your work is kept {kept}: "
                        "use Save as (f12) to save it to another file", title="Not saved", severity="error",
                        timeout=12)

    # ------------------------------------------------------------------ opening

    def open(self) -> None:
        def chosen(path: Path | None) -> None:
            if path is not None:
                self.open_path(path)

        start = str(self.doc.path.parent if self.doc.path else Path.cwd()) + "/"
        self.guard(lambda: self.app.push_screen(FileScreen("Open campaign", start), chosen), "open another file")

    def open_path(self, path: Path) -> bool:
        try:
            doc = open_document(path)
        except OpenError as exc:
            note = recovery_note(path, self.recovery_dir)
            self.app.notify(f"Cannot open {path.name}: {exc}" + (f"\n{note}" if note else ""), severity="error",
                            timeout=12 if note else 8)
            return False
        self.app.load_document(doc)
        if doc.template is not None:
            self.app.notify(f"{path.name} is a bundled campaign: it opens as a template, and saving asks where",
                            timeout=5)
        self.offer_recovery()
        return True

    def new(self) -> None:
        from cardrogue.engine.format.resources import bundled_campaigns

        choices = [("blank", "Blank campaign (one level)")] + [(str(p), f"Copy of {p.stem}") for p in bundled_campaigns()]

        def chosen(value: str | None) -> None:
            if value is not None:
                self.app.load_document(template_document(None if value == "blank" else Path(value)))

        self.guard(lambda: self.app.push_screen(ChoiceScreen("New campaign from a template", choices), chosen),
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
            self.app.notify(f"Autosave failed: {exc.strerror or exc}", severity="warning")

    def offer_recovery(self) -> None:
        """Offer the newest recovery file waiting for the document (a draft's too). One the author
        puts off ("Later"), or that cannot be used, is kept aside, so neither autosave nor a save
        nor a clean quit removes it; the next opening offers it again."""
        target, text = None, None
        for candidate in pending_recoveries(self.doc, self.recovery_dir):
            text = read_recovery_file(candidate, self.doc)
            if text is not None:
                target = candidate
                break
        if target is None or text is None:
            return

        def put_off() -> Path:
            try:
                return put_off_recovery(target, self.doc, self.recovery_dir)
            except OSError:
                return target

        def answered(answer: str | None) -> None:
            if answer == "recover":
                try:
                    recover(self.doc, text)
                except OpenError as exc:
                    self.app.notify(f"The recovery file cannot be used; it is kept as {put_off()}: {exc}",
                                    severity="error", timeout=10)
                    return
                with suppress(OSError):
                    target.unlink()
                self.autosave()  # the recovered work is unsaved: it is in the recovery file again at once
                self.app.refresh_all()
                self.app.notify("Recovered unsaved changes (ctrl+z undoes the recovery)", timeout=4)
            elif answer == "discard":
                with suppress(OSError):
                    target.unlink()
            else:
                put_off()

        self.app.push_screen(ConfirmScreen(f"Unsaved changes to {self.doc.name} were found from a session that "
                                           "did not end cleanly. Recover them?",
                                           [("Recover", "recover", "primary"), ("Discard", "discard", "error"),
                                            ("Later", "cancel", "default")]), answered)

    def _changed_on_disk(self, path: Path) -> bool:
        """Whether the file at ``path`` (there) holds other bytes than the editor last read or wrote: a file
        rewritten as it was (``cardrogue solve --write-par`` of the par the editor saved) has not changed."""
        if self.disk_stamp is None or DiskStamp.of(path) is None:
            return False
        still = self.disk_stamp.still(path)
        if still is not None:
            self.disk_stamp = still
        return still is None

    def check_disk(self) -> None:
        if self.doc.path is None or self.disk_stamp is None or self.disk_warned:
            return
        still = self.disk_stamp.still(self.doc.path)
        if still is not None:
            self.disk_stamp = still  # the same bytes (or the same stamp): nothing to tell
        else:
            self.disk_warned = True
            what = "was deleted" if DiskStamp.of(self.doc.path) is None else "changed on disk"
            self.app.notify(f"{self.doc.path.name} {what} since it was opened. Saving will ask before overwriting it.",
                            title="File changed", severity="warning", timeout=10)
