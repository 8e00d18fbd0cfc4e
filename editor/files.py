"""Files: atomic canonical saves, the recovery file, changes made on disk, templates.

No Textual here, so the save path is tested without an app.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path

from cardrogue.engine.format.diagnostics import Diagnostic, Severity
from cardrogue.engine.format.loader import MAX_FILE_BYTES, LoadResult, load_campaign, load_campaign_text
from cardrogue.engine.format.resources import default_campaign
from cardrogue.engine.format.schema import is_schema_id
from cardrogue.engine.reading import link_loops, read_limited
from cardrogue.engine.records.atomic import atomic_write
from cardrogue.engine.words import counted

from .document import Document
from .phrasing import editor_message
from .places import file_places, placed, saved_places

RECOVERY_ENV = "CARDROGUE_RECOVERY_DIR"
_PACKAGES = ("cardrogue.engine", "cardrogue.editor", "cardrogue.schema", "cardrogue.campaigns")

BLANK_TEMPLATE = """{
  "$schema": "https://cardrogue-studio.dev/schema/campaign.schema.json",
  "format": 1,
  "id": "new-campaign",
  "title": "New Campaign",
  "kind": "campaign",
  "rules": "1.1.2",
  "seed": 1,
  "hero": {"character": "warrior"},
  "levels": [
    {
      "id": "level-1",
      "title": "The First Room",
      "width": 5,
      "height": 3,
      "cells": [
        {"at": [0, 1], "card": "starting-tile", "paths": "E", "face": "up"},
        {"at": [1, 1], "card": "pathing-tile", "paths": "EW", "face": "down"},
        {"at": [2, 1], "card": "pathing-tile", "paths": "EW", "face": "down"},
        {"at": [3, 1], "card": "pathing-tile", "paths": "EW", "face": "down"},
        {"at": [4, 1], "card": "pathing-tile", "paths": "W", "face": "down", "exit": true}
      ]
    }
  ]
}
"""


class OpenError(Exception):
    """A file that cannot be edited (not JSON, or without the campaign's shape): it carries the
    loader's diagnostics. A file with other errors opens as a draft."""

    def __init__(self, result: LoadResult) -> None:
        first = result.diagnostics[0].render() if result.diagnostics else result.file
        super().__init__(first)
        self.result = result


# --------------------------------------------------------------------------- opening


def _document(result: LoadResult, path: Path | None, template: Path | None = None) -> Document:
    if result.draft is None:
        raise OpenError(result)
    schema_ref = result.data.get("$schema") if isinstance(result.data, dict) else None
    return Document(result.draft, path=path, schema_ref=schema_ref, template=template,
                    opened_errors=tuple(placed(d, file_places(result.data)) for d in result.errors))


def open_document(path: Path) -> Document:
    """Open a campaign for editing; a bundled campaign opens as a template (saving asks where)."""
    path = path.expanduser().absolute()
    before = DiskStamp.of(path)
    result = load_campaign(path)
    if is_protected(path):
        return _document(result, None, template=path)
    doc = _document(result, path)
    doc.read_stamp = before
    return doc


def template_document(template: Path | None = None) -> Document:
    """A new campaign: the blank template, or a copy of a bundled campaign."""
    if template is None:
        return _document(load_campaign_text(BLANK_TEMPLATE, "<new campaign>"), None)
    return _document(load_campaign(template), None, template=template)


def new_document(path: Path) -> Document:
    """``cardrogue edit NEW.json``: the blank template, to be saved at ``path`` (not written yet).

    The campaign takes its id from the file name when that is a valid id. The document starts
    unsaved, so quitting without saving asks first.
    """
    from dataclasses import replace

    path = path.expanduser().absolute()
    doc = template_document()
    if is_schema_id(path.stem):
        doc.campaign = replace(doc.campaign, id=path.stem)
    doc.path = path
    doc._saved = None  # nothing on disk yet: the document is dirty until the first save
    return doc


def default_document() -> Document:
    """``cardrogue edit`` without a path: the bundled campaign as a template."""
    return template_document(default_campaign())


def document_for(path: Path | None) -> Document:
    """What ``cardrogue edit [PATH]`` opens: the bundled campaign as a template, a new file, or the file.

    Raises :class:`OpenError` for a file that cannot be edited and ``UnusableInput`` for a new file
    that cannot be created where it is named.
    """
    from cardrogue.engine.errors import UnusableInput

    if path is None:
        return default_document()
    if link_loops(path):
        raise UnusableInput(f"{path}: cannot open it: it is a loop of symbolic links; name the file itself")
    if not path.exists() and path.suffix == "":
        path = with_json_suffix(path)  # `cardrogue edit mymap`: mymap.json, as check and the open dialog list
        if path.exists():
            return open_document(path)
    if not path.exists():
        folder = path.expanduser().absolute().parent
        if is_protected(path):
            raise UnusableInput(f"{path}: cannot create a campaign there: it is inside the installed package "
                                "(bundled campaigns, schemas, code), which the editor never writes; name a file elsewhere")
        if not folder.exists():
            raise UnusableInput(f"{path}: cannot create a campaign there: the folder {folder} does not exist; "
                                "create it first, or name a file in a folder that does")
        if not folder.is_dir():
            raise UnusableInput(f"{path}: cannot create a campaign there: {folder} is not a folder")
        return new_document(path)
    return open_document(path)


def with_json_suffix(path: Path) -> Path:
    """A new campaign file's name: ``.json`` added when the name has no suffix (``mymap`` -> ``mymap.json``),
    since the open dialog and ``cardrogue check FOLDER`` list ``*.json`` files only."""
    return path.with_name(path.name + ".json") if path.suffix == "" and path.name not in ("", ".", "..") else path


def is_protected(path: Path) -> bool:
    """True inside the installed package (bundled campaigns, schemas, code): never written."""
    target = Path(os.path.realpath(path.expanduser()))  # Path.resolve raises on a loop of symbolic links
    for package in _PACKAGES:
        root = Path(os.path.realpath(str(files(package))))
        if target == root or root in target.parents:
            return True
    return False


# --------------------------------------------------------------------------- saving


@dataclass(frozen=True, slots=True)
class DiskStamp:
    """What the file looked like when we last read or wrote it: its time and size, and a digest of its bytes
    (when they were read or written) to tell a file rewritten as it was from a changed one."""

    mtime_ns: int
    size: int
    digest: bytes = field(default=b"", compare=False)

    @classmethod
    def of(cls, path: Path, data: bytes | None = None) -> "DiskStamp | None":
        """The file's stamp now; ``data``, the bytes just read from it or written to it, gives its digest."""
        try:
            st = path.stat()
        except OSError:
            return None
        return cls(st.st_mtime_ns, st.st_size, b"" if data is None else hashlib.sha256(data).digest())

    @classmethod
    def read(cls, path: Path) -> "DiskStamp | None":
        """The file's stamp with the digest of what it holds now; without a digest when the file changed while it
        was read (its time or size before and after differ: another program's save in between), so that any
        later change of it is told (a digest of the bytes before would pass the new file as unchanged)."""
        before = cls.of(path)
        try:
            stamp = cls.of(path, read_limited(path, MAX_FILE_BYTES))
        except OSError:
            return cls.of(path)
        return stamp if stamp == before else stamp and cls(stamp.mtime_ns, stamp.size)

    def still(self, path: Path) -> "DiskStamp | None":
        """This stamp, brought up to date, when the file holds the bytes it held then (its time moved: rewritten
        as it was, by ``cardrogue solve --write-par`` of a par already saved, a checkout, an editor's save); None
        when it changed or is gone."""
        now = DiskStamp.of(path)
        if now is None:
            return None
        if now == self:
            return self  # with its digest (``now`` has none: kept, a rewrite as it was later went untold)
        if not self.digest or now.size != self.size:
            return None
        same = DiskStamp.read(path)
        return same if same is not None and same.size == self.size and same.digest == self.digest else None


def save_document(doc: Document, path: Path) -> DiskStamp | None:
    """Save the canonical text atomically and mark the document clean; a draft is saved as it
    is (:func:`draft_errors` says what keeps it from being played)."""
    path = path.expanduser().absolute()
    if is_protected(path):
        raise PermissionError(f"{path} is inside the installed package; save the campaign somewhere else")
    data = doc.text().encode("utf-8")
    atomic_write(path, data)
    doc.mark_saved(path)
    return DiskStamp.of(path, data)


def draft_errors(doc: Document) -> list[Diagnostic]:
    """The errors ``cardrogue check`` finds in the document as saved (the loader's, then the
    graph's: what the problems panel lists and what the hub refuses to publish): none for a
    campaign that can be play-tested and published, and what to fix first for a draft."""
    from cardrogue.engine.analysis.check import check_text

    place = saved_places(doc.campaign)
    return [placed(d, place) for d in check_text(doc.text(), doc.name) if d.severity is Severity.ERROR]


def draft_note(errors: list[Diagnostic], cannot: str = "played or published",
               level_titles: list[str] | None = None) -> str:
    """What a save, an open, F5 or F6 tells the author about a draft: the count of its errors,
    what it cannot be until they are fixed, and the first of them (plain text, no markup), in the
    editor's words as the problems panel says it (``press t``, not the file's ``"to"``), after where
    it is as the panel names it: its level (by ``level_titles``; a level-wide message such as CR311's
    does not name its level itself) and cell, or the form field (``hero, items``). ``errors`` are
    placed (:mod:`.places`): the schema's diagnostics carry only a JSON path."""
    from cardrogue.editor.widgets.problems import location, reading_order

    count = counted(len(errors), "error")
    fixed = "it is" if len(errors) == 1 else "they are"
    first = reading_order(errors)[0]  # as the problems panel lists them: the one to fix first
    # a problem of the whole campaign (no exit, CR220: "levels") has no place to name
    placed_at = first.level is not None or (first.path and first.path[0] != "levels")
    where = f" {location(first, level_titles or [])}" if placed_at else ""
    return (f"{count}: it cannot be {cannot} until {fixed} fixed "
            f"(first: {first.code}{where}: {editor_message(first)})")


# --------------------------------------------------------------------------- recovery


def recovery_dir() -> Path:
    env = os.environ.get(RECOVERY_ENV)
    if env:
        return Path(env)
    from platformdirs import user_state_path

    return user_state_path("cardrogue-studio") / "recovery"


def recovery_path(doc: Document, directory: Path | None = None) -> Path:
    """One recovery file per edited file (or per template, for an unsaved campaign)."""
    return _recovery_for(str(doc.path or doc.template or f"untitled:{doc.campaign.id}"), directory)


def _recovery_for(key: str, directory: Path | None) -> Path:
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]
    return (directory or recovery_dir()) / f"{digest}.recovery.json"


def recovery_note(path: Path, directory: Path | None = None) -> str:
    """For a file that cannot be opened: where the unsaved work of an earlier session that did not end
    cleanly waits, and how to get it back ("" when none waits). Opening the file offers it again once
    the file can be read, or once it is gone (a new file at the same path)."""
    waiting = _waiting(_recovery_for(str(path.expanduser().absolute()), directory))
    if not waiting:
        return ""
    return (f"unsaved changes to {path.name} from a session that did not end cleanly are kept in {waiting[0]}: "
            "mend the file, or move it away, and open it again to recover them")


def write_recovery(doc: Document, directory: Path | None = None) -> Path:
    target = recovery_path(doc, directory)
    target.parent.mkdir(parents=True, exist_ok=True)
    record = {"path": str(doc.path) if doc.path else None,
              "template": str(doc.template) if doc.template else None,
              "text": doc.text()}
    atomic_write(target, json.dumps(record, ensure_ascii=False).encode("utf-8"))
    return target


def read_recovery(doc: Document, directory: Path | None = None) -> str | None:
    """The recovered campaign text, when a recovery file exists and differs from the document."""
    return read_recovery_file(recovery_path(doc, directory), doc)


def read_recovery_file(target: Path, doc: Document) -> str | None:
    """The campaign text a recovery file holds, when it is readable and differs from the document."""
    try:
        record = json.loads(target.read_text(encoding="utf-8"))
        text = record["text"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return text if isinstance(text, str) and text != doc.text() else None


def pending_recoveries(doc: Document, directory: Path | None = None) -> list[Path]:
    """The recovery files waiting for the document, newest first: the one autosave writes, then
    those put off in earlier sessions (:func:`put_off_recovery`)."""
    return _waiting(recovery_path(doc, directory))


def _waiting(main: Path) -> list[Path]:
    """The recovery file ``main`` when it exists, then those put off beside it, newest first."""
    kept = sorted(main.parent.glob(main.name.replace(".recovery.json", ".kept-*.recovery.json")), reverse=True)
    return ([main] if main.exists() else []) + kept


def put_off_recovery(target: Path, doc: Document, directory: Path | None = None) -> Path:
    """Keep a recovery file the author put off (or that cannot be used) out of autosave's and
    save's way, under a name of its own, to be offered again at the next opening."""
    main = recovery_path(doc, directory)
    if target != main:
        return target
    kept = main.with_name(main.name.replace(".recovery.json", f".kept-{time.time_ns():020d}.recovery.json"))
    os.replace(main, kept)
    return kept


def clear_recovery(doc: Document, directory: Path | None = None) -> None:
    try:
        recovery_path(doc, directory).unlink()
    except OSError:
        pass


def recover(doc: Document, text: str) -> Document:
    """The document with the recovered campaign as one undoable edit (so it shows as unsaved)."""
    result = load_campaign_text(text, "<recovery>")
    if result.draft is None:
        raise OpenError(result)
    recovered = result.draft
    doc.apply(lambda _c: recovered, "Recover unsaved changes")
    return doc
