"""The open document: the current campaign, its undo and redo stacks, its file.

No Textual here. Every change is a pure function ``Campaign -> Campaign``
(:mod:`.edits`) applied through :meth:`Document.apply`, which keeps the previous
campaign for undo. Campaigns are immutable, so a stack entry is a reference,
not a copy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from cardrogue.engine.format.canonical import campaign_to_dict, dumps, play_hash
from cardrogue.engine.format.diagnostics import Diagnostic
from cardrogue.engine.model.campaign import Campaign

UNDO_LIMIT = 500


@dataclass(frozen=True, slots=True)
class Where:
    """Where an edit happened, so undo and redo can show it: level index and grid place."""

    level: int | None = None
    x: int | None = None
    y: int | None = None


@dataclass(frozen=True, slots=True)
class Step:
    label: str
    before: Campaign
    where: Where
    merge_key: str | None = None


@dataclass
class Document:
    campaign: Campaign
    path: Path | None = None
    # The ``$schema`` reference the file had, written back on save.
    schema_ref: str | None = None
    # Opened from a template (a bundled campaign): saving always asks where.
    template: Path | None = None
    # The errors the file had when it was opened: a draft's, for the note the editor shows.
    opened_errors: tuple[Diagnostic, ...] = ()
    # The file's time and size before it was read (a files.DiskStamp): a change between its read and the editor's
    # first look at the file is told, not taken for the file opened.
    read_stamp: object | None = None
    undo_stack: list[Step] = field(default_factory=list)
    redo_stack: list[Step] = field(default_factory=list)
    _saved: Campaign | None = None
    # The pars known to measure a content (par, play hash): the file's par of the content opened, as far as anyone
    # knows, and each par recorded here (*Record par*). The play hash leaves out the par and the text no rule reads
    # (a title, the author, a story): a par measures the game, which a new title leaves as it was.
    pars_known: list[tuple[object, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self._saved is None:
            self._saved = self.campaign
        self.know_par(self.campaign)

    def know_par(self, campaign: Campaign) -> None:
        """``campaign``'s par measures its content (the file opened; a par recorded from F6's proof)."""
        if campaign.par is not None:
            self.pars_known.append((campaign.par, play_hash(campaign)))

    def par_changed(self) -> bool:
        """Whether the campaign's par is not known to measure its play as it is now: recorded (or opened) for
        another version of it (an edit of its title, author or stories alone leaves the par known)."""
        now = self.campaign
        return now.par is not None and (now.par, play_hash(now)) not in self.pars_known

    # ------------------------------------------------------------------ state

    @property
    def dirty(self) -> bool:
        """Changed since the last save (undoing back to the saved state makes it clean again)."""
        return self.campaign is not self._saved

    @property
    def name(self) -> str:
        if self.path is not None:
            return self.path.name
        return f"{self.template.name} (template)" if self.template else "untitled"

    def mark_saved(self, path: Path) -> None:
        self.path = path
        self.template = None
        self._saved = self.campaign

    def text(self) -> str:
        """The canonical text of the current campaign: exactly what a save writes."""
        return dumps(campaign_to_dict(self.campaign, schema_ref=self.schema_ref))

    # ------------------------------------------------------------------ edits

    def apply(self, edit: Callable[[Campaign], Campaign], label: str, where: Where = Where(),
              merge_key: str | None = None) -> bool:
        """Apply one edit; False when it changed nothing (nothing goes on the undo stack).

        Consecutive edits with the same ``merge_key`` (typing in one story) make one undo step.
        """
        new = edit(self.campaign)
        if new is self.campaign:
            return False
        top = self.undo_stack[-1] if self.undo_stack else None
        merging = merge_key is not None and top is not None and top.merge_key == merge_key and not self.redo_stack
        if not merging:
            self.undo_stack.append(Step(label, self.campaign, where, merge_key))
            del self.undo_stack[:-UNDO_LIMIT]
        self.redo_stack.clear()
        self.campaign = new
        return True

    def undo(self) -> Step | None:
        if not self.undo_stack:
            return None
        step = self.undo_stack.pop()
        self.redo_stack.append(Step(step.label, self.campaign, step.where))
        self.campaign = step.before
        return step

    def redo(self) -> Step | None:
        if not self.redo_stack:
            return None
        step = self.redo_stack.pop()
        self.undo_stack.append(Step(step.label, self.campaign, step.where))
        self.campaign = step.before
        return step
