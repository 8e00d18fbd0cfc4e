"""Shared fixtures: a writable copy of the fixed fixture campaign; the hub's databases."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import FIXTURE


@pytest.fixture
def campaign_file(tmp_path: Path) -> Path:
    """A writable copy of the fixture campaign."""
    path = tmp_path / "story.json"
    path.write_bytes(FIXTURE.read_bytes())
    return path


@pytest.fixture(autouse=True)
def _private_config_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test sees an empty config directory: no test reads or writes the user's hub config."""
    where = tmp_path_factory.mktemp("config")
    monkeypatch.setenv("CARDROGUE_CONFIG_DIR", str(where))
    return where


@pytest.fixture(scope="session", autouse=True)
def _private_cache_dir(tmp_path_factory: pytest.TempPathFactory):
    """Compiled schema validators are kept in a cache of the test session's own, never the user's."""
    import os

    where = tmp_path_factory.mktemp("cache")
    before = os.environ.get("CARDROGUE_CACHE")
    os.environ["CARDROGUE_CACHE"] = str(where)
    yield where
    if before is None:
        os.environ.pop("CARDROGUE_CACHE", None)
    else:
        os.environ["CARDROGUE_CACHE"] = before


@pytest.fixture(scope="session", autouse=True)
def _kept_chromium_stopped():
    """The Chromium tests/browser.py keeps from one test to the next stops with the session (a test worker may end
    without running its process's exit handlers)."""
    yield
    import sys

    browser = sys.modules.get("browser")
    if browser is not None:
        browser.close_kept()


@pytest.fixture(scope="session")
def postgres():
    """A real PostgreSQL server for this test process (each xdist worker starts its own)."""
    from pgserver import PostgresServer

    server = PostgresServer().start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def hub_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty hub database URL on each backend."""
    if request.param == "sqlite":
        return str(tmp_path / "hub.sqlite3")
    return request.getfixturevalue("postgres").fresh_url()


@pytest.fixture(scope="session", autouse=True)
def _css_parsed_once():
    """Textual parses an app's CSS (editor.tcss, every widget's DEFAULT_CSS) again for each App and each
    ``reparse`` (a dialog screen's CSS, a theme): its cache of parsed rules is a Stylesheet's own, and
    ``reparse`` starts a new one. The app tests boot hundreds of apps on the same CSS: the rules parsed
    from the same text, location, scope and variables are kept for the whole session (the parsed rules
    are read, never changed, once parsed: Textual's own cache shares them between a stylesheet's parses)."""
    from textual.css.stylesheet import Stylesheet

    parse_rules = Stylesheet._parse_rules
    parsed: dict[tuple, list] = {}

    def parsed_once(self, css, read_from, is_default_rules=False, tie_breaker=0, scope=""):
        variables = self._variables
        known = self.__dict__.get("_variables_key")
        if known is None or known[0] is not variables:  # set_variables gives a new dict
            known = self.__dict__["_variables_key"] = (variables, tuple(sorted(variables.items())))
        key = (css, read_from, is_default_rules, tie_breaker, scope, known[1])
        if key not in parsed:
            parsed[key] = parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
        return parsed[key]

    Stylesheet._parse_rules = parsed_once
    yield
    Stylesheet._parse_rules = parse_rules


@pytest.fixture(scope="session", autouse=True)
def _one_idle_wait_a_key():
    """``pilot.press`` waits, after each key, for the app to be idle (``wait_for_idle``: 20 ms windows until one
    passes without work), for its animations, then for idle again: two idle windows, at least 40 ms, a key,
    though the second finds nothing to wait for unless an animation ran. Here the second wait is made only
    when the key started an animation (the animator not complete): the app is idle after each key as before,
    and every key still waits for its own idle window. Otherwise Textual's ``App._press_keys`` as it is."""
    import asyncio

    import textual.app as textual_app

    try:  # (Textual's own names, as of 8.2: a Textual without them presses keys its own way, two waits a key)
        from editor_support import key_event

        key_event("a")
        press_keys = textual_app.App._press_keys
        textual_app.wait_for_idle  # noqa: B018
    except (ImportError, AttributeError):
        yield
        return

    async def one_idle_wait_a_key(self, keys) -> None:
        driver = self._driver
        assert driver is not None
        for key in keys:
            if key.startswith("wait:"):
                _, wait_ms = key.split(":")
                await asyncio.sleep(float(wait_ms) / 1000)
                await self._animator.wait_until_complete()
                continue
            event = key_event(key)
            event.set_sender(self)
            driver.send_message(event)
            await textual_app.wait_for_idle(0)
            if not self._animator._complete_event.is_set():
                await self._animator.wait_until_complete()
                await textual_app.wait_for_idle(0)

    textual_app.App._press_keys = one_idle_wait_a_key
    yield
    textual_app.App._press_keys = press_keys


# How long each look at the app lasts while waiting for it to be idle, and the CPU it may spend in one and still
# be idle: Textual's own ratio (1 ms of 20 ms), over windows a quarter as long.
IDLE_SLICE = 0.005
IDLE_CPU = IDLE_SLICE / 20


def app_quiet(app) -> bool:
    """Nothing is left for ``app`` to do: every queue empty (the app's, every screen's and every widget's of
    the screens stacked), no callback waiting for the next message, the current screen drawn (no layout,
    scroll, repaint or recompose asked for, no widget dirty, no callback waiting for its refresh) unless
    the app is exiting and holds its drawing in a batch, no animation running and, for the project's apps
    (``KeysInOrder``), no key on its way."""
    if getattr(app, "keys_on_their_way", False) or app.message_queue_size or app._next_callbacks:
        return False
    if app._animator._animations or getattr(app._animator, "_scheduled", None):
        return False
    if not app.screen_stack:
        return True  # closing
    for screen in app.screen_stack:
        for node in screen.walk_children(with_self=True):
            if node.message_queue_size or node._next_callbacks:
                return False
    if app._batch_count and (app._exit or not app._running):
        return True  # the app shutting down holds its drawing in a batch until it is gone: nothing more is drawn
    # (any other batch ends: Textual's Markdown, a story's or a help page's, holds one while it awaits its blocks
    # mounted, every queue empty then, its layout still to come)
    screen = app.screen  # (a screen below keeps its callbacks after refresh until it is the screen again)
    return not (screen._callbacks or screen._layout_required or screen._scroll_required or screen._repaint_required
                or screen._recompose_required or screen._dirty_widgets)


@pytest.fixture(scope="session", autouse=True)
def _idle_by_condition():
    """Textual's ``wait_for_idle`` (after every ``pilot.pause()``, every key ``pilot.press`` sends, and before a
    snapshot) sleeps in 20 ms windows until the process spends under 1 ms of CPU in one: each wait ends with a
    whole quiet window, 20 ms of nothing, most of the app tests' idle time. Here the app's own state says when
    it is idle (:func:`app_quiet`: what a 20 ms window stood for, the screen's next refresh at 60 a second and
    the callbacks after it, is asked of the screen itself), and the CPU is looked at in windows of 5 ms with
    the same ratio: the wait ends once a window is quiet and the app has nothing left to do, never sooner
    than Textual's ``min_sleep``, never later than its ``max_sleep``. A wait made with no app running is
    Textual's own."""
    import asyncio
    from time import monotonic, process_time

    import textual.app as textual_app
    import textual.pilot as textual_pilot

    try:  # (Textual's own names, as of 8.2: a Textual without them waits its own way)
        from textual._context import active_app

        original = textual_pilot.wait_for_idle
        assert textual_app.wait_for_idle is original
        probe = textual_app.App()
        probe.message_queue_size, probe._next_callbacks, probe._animator._animations  # noqa: B018
    except (ImportError, AttributeError, AssertionError):
        yield
        return

    async def wait_for_idle(min_sleep: float = 0.02, max_sleep: float = 1) -> None:
        app = active_app.get(None)
        if app is None or not app.is_running:
            await original(min_sleep, max_sleep)
            return
        start = monotonic()
        while True:
            cpu = process_time()
            await asyncio.sleep(IDLE_SLICE)
            quiet = process_time() - cpu < IDLE_CPU
            elapsed = monotonic() - start
            if elapsed >= max_sleep or (elapsed > min_sleep and quiet and app_quiet(app)):
                return

    textual_app.wait_for_idle = textual_pilot.wait_for_idle = wait_for_idle
    yield
    textual_app.wait_for_idle = textual_pilot.wait_for_idle = original
