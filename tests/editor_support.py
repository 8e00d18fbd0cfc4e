"""Scaffolding for the editor's Pilot tests: a quiet app on a campaign file, and waiting for it."""

from __future__ import annotations

import json
from pathlib import Path

from cardrogue.editor.app import EditorApp
from cardrogue.editor.files import open_document

SIZE = (100, 32)


def make_app(path: Path, tmp_path: Path) -> EditorApp:
    """The editor on ``path``: recovery files under ``tmp_path``, no autosave timer, no cursor blink."""
    return EditorApp(open_document(path), recovery_dir=tmp_path / "recovery", autosave_seconds=3600,
                     cursor_blink=False)


def app_on(data: dict, path: Path, tmp_path: Path) -> EditorApp:
    """The editor (:func:`make_app`) on the campaign ``data`` written to ``path`` as JSON."""
    path.write_text(json.dumps(data), encoding="utf-8")
    return make_app(path, tmp_path)


def three_level_app(tmp_path: Path) -> EditorApp:
    """The editor on a copy of the three-level fixture (``helpers.FIXTURE``) saved as ``tmp_path/three.json``."""
    from helpers import FIXTURE

    path = tmp_path / "three.json"
    path.write_bytes(FIXTURE.read_bytes())
    return make_app(path, tmp_path)


async def settle(app: EditorApp, pilot) -> None:
    """Wait until the app has handled the keys sent (:func:`burst`) and its messages, and its check
    workers have finished."""
    await pilot.pause()
    for _ in range(1000):  # 10 s at most: a key never handled fails the test's own assertions
        if not app.keys_on_their_way:
            break
        await pilot.pause(0.01)
    await app.workers.wait_for_complete()
    await pilot.pause()


def form_error(app: EditorApp, field: str | None = None) -> str:
    """The reason the open form shows: under ``field``, or wherever it is shown (``""``: none)."""
    query = f"#form-error-{field}.-shown" if field else ".form-error.-shown"
    return " ".join(str(label.render()) for label in app.screen.query(query))


def typed(text: str) -> list[str]:
    """The keys that type ``text``, one a character, for :func:`burst`."""
    return list(text)


def burst(app, *keys: str) -> None:
    """Keys that arrive in one read of the terminal (a paste, tmux send-keys, a loaded machine): each is
    handed to the app as its driver hands it a key (``pilot.press`` builds the same events), and none
    waits for the one before to be handled, where ``pilot.press`` waits for the app to be idle after
    each key. ``keys`` are Pilot's key names (``"a"``, ``"ctrl+u"``, ``"end"``; :func:`typed` spells a
    text); nothing is handled before the caller awaits (``settle``)."""
    for key in keys:
        event = key_event(key)
        event.set_sender(app)
        app.post_message(event)


def key_event(key: str):
    """The Key event of Pilot's key name ``key``, its character as Textual's own ``App._press_keys`` finds it."""
    import unicodedata

    from textual import events
    from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key

    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    try:
        char: str | None = unicodedata.lookup(_get_unicode_name_from_key(REPLACED_KEYS.get(key, key)))
    except KeyError:
        char = key if len(key) == 1 else None
    return events.Key(key, char)


async def press(app, pilot, *keys: str) -> None:
    """``keys`` typed in one burst (:func:`burst`), then :func:`settle`: what they set going is done.

    The app handles each key in turn as if typed one by one (``KeysInOrder``); ``pilot.press`` waits for
    the app to be idle twice after every key (at least 40 ms a key), this waits once for them all. Keys
    whose next one needs a worker's answer first (F6's solve, then its steps) are pressed apart."""
    burst(app, *keys)
    await settle(app, pilot)
