"""Scaffolding for the editor's Pilot tests: a quiet app on a campaign file, and waiting for it."""

from __future__ import annotations

from pathlib import Path

from cardrogue.editor.app import EditorApp
from cardrogue.editor.files import open_document

SIZE = (100, 32)


def make_app(path: Path, tmp_path: Path) -> EditorApp:
    """The editor on ``path``: recovery files under ``tmp_path``, no autosave timer, no cursor blink."""
    return EditorApp(open_document(path), recovery_dir=tmp_path / "recovery", autosave_seconds=3600,
                     cursor_blink=False)


def three_level_app(tmp_path: Path) -> EditorApp:
    """The editor on a copy of the three-level fixture (``helpers.FIXTURE``) saved as ``tmp_path/three.json``."""
    from helpers import FIXTURE

    path = tmp_path / "three.json"
    path.write_bytes(FIXTURE.read_bytes())
    return make_app(path, tmp_path)


async def settle(app: EditorApp, pilot) -> None:
    """Wait until the app has handled its messages and its check workers have finished."""
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


def form_error(app: EditorApp, field: str | None = None) -> str:
    """The reason the open form shows: under ``field``, or wherever it is shown (``""``: none)."""
    query = f"#form-error-{field}.-shown" if field else ".form-error.-shown"
    return " ".join(str(label.render()) for label in app.screen.query(query))
