"""Keys typed faster than the editor handles them are never lost (the product's "forms lose input").

A terminal hands the app every key of one read at once: a paste, ``tmux send-keys``, fast typing on a
loaded machine. Textual posted each key to the focused widget and went on to the next; a key the widget
does not take itself (ctrl+u, backspace, tab, ctrl+e, p...) bubbled up to the app, whose binding then ran
after the keys typed behind it (Textual issue #6605). Seen at 80x24 in tmux: in the campaign metadata
form, ``end ctrl+u Hello Burst`` in one ``send-keys`` left ``urst``; ``ctrl+e Hello`` opened the form
with nothing typed in it. Each test sends its keys with :func:`burst` (all posted before the first is
handled) and checks what a person sees: the field's text, the campaign's values.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual import events
from textual.app import App
from textual.message import Message
from textual.widgets import Input, Select, Static, TextArea

from cardrogue.editor.key_order import KeysInOrder
from cardrogue.editor.widgets.dialogs import FormScreen
from cardrogue.editor.widgets.map_canvas import MapCanvas
from editor_support import burst, form_error, make_app, settle, typed
from helpers import run_async

SIZE = (80, 24)


def field(app, name: str) -> Input:
    return app.screen.query_one(f"#form-{name}", Input)


@run_async
async def test_ctrl_u_and_the_text_after_it_in_one_burst(campaign_file: Path, tmp_path: Path) -> None:
    """The burst that lost the text in tmux: ctrl+u ran after "Hello B" was typed, and deleted it."""
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+e")
        await settle(app, pilot)
        burst(app, "end", "ctrl+u", *typed("Hello Burst"))
        await settle(app, pilot)
        assert field(app, "title").value == "Hello Burst"
        burst(app, "backspace", "backspace", *typed("rn"), "home", "X", "end", "!", "left", "left", "delete")
        await settle(app, pilot)
        assert field(app, "title").value == "XHello Burr!"


@run_async
async def test_keys_typed_as_a_form_opens_go_into_it(campaign_file: Path, tmp_path: Path) -> None:
    """ctrl+e, then the title, tab, the id and enter, in one burst: the keys after ctrl+e reached the map
    before the form was there, and enter closed it unchanged."""
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        burst(app, "ctrl+e", *typed("New title"), "tab", *typed("new-id"), "enter")
        await settle(app, pilot)
        assert (app.campaign.title, app.campaign.id) == ("New title", "new-id")
        assert not isinstance(app.screen, FormScreen)
        burst(app, "ctrl+z")
        await settle(app, pilot)
        assert (app.campaign.title, app.campaign.id) == ("A Son's Descent", "a-sons-descent")  # one undo step


@run_async
async def test_undo_right_after_a_form_is_accepted(campaign_file: Path, tmp_path: Path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        burst(app, "ctrl+e", *typed("Other"), "enter", "ctrl+z", "ctrl+e", *typed("Third"), "enter")
        await settle(app, pilot)
        assert app.campaign.title == "Third"
        assert [step.label for step in app.doc.undo_stack] == ["Campaign metadata"]


@run_async
async def test_a_refused_value_keeps_the_text_typed_in_a_burst(campaign_file: Path, tmp_path: Path) -> None:
    """p on the level list, tab to the practice hero's health, a value the loader refuses, enter: the form
    stays with the reason under the field and the text typed; fixed in the next burst, it is applied."""
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        burst(app, "ctrl+l", "p", *["tab"] * 7, *typed("many"), "enter")
        await settle(app, pilot)
        assert isinstance(app.screen, FormScreen)
        assert field(app, "health").value == "many" and field(app, "health").has_focus
        assert "health is a whole number" in form_error(app, "health")
        burst(app, "ctrl+u", "3", "shift+tab", *typed("2 1"), "enter")
        await settle(app, pilot)
        hero = app.campaign.levels[0].hero
        assert hero is not None and (hero.health, hero.at) == (3, (2, 1))


@run_async
async def test_a_new_card_refused_keeps_its_id(campaign_file: Path, tmp_path: Path) -> None:
    """F4, a new card's id and its name left empty in one burst: OK is refused, and the id stays as typed."""
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        burst(app, "f4", "ctrl+u", *typed("my-card"), "tab", "ctrl+u", "enter")
        await settle(app, pilot)
        assert isinstance(app.screen, FormScreen) and form_error(app)
        assert field(app, "id").value == "my-card"
        burst(app, "shift+tab", "tab", *typed("My Card"), "tab", "enter", *typed("weapon"), "enter", "ctrl+s")
        await settle(app, pilot)
        assert app.screen.query_one("#form-kind", Select).selection == "weapon"
        assert "slot" in form_error(app)  # a weapon needs one
        assert (field(app, "id").value, field(app, "name").value) == ("my-card", "My Card")


@run_async
async def test_escape_discards_the_form_and_reopening_starts_from_the_campaign(campaign_file: Path,
                                                                              tmp_path: Path) -> None:
    """Escape is cancel: what was typed is dropped (not kept for the next opening), and none of it reaches
    the map behind the form."""
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        burst(app, "ctrl+e", *typed("exes"), "escape", "ctrl+e")
        await settle(app, pilot)
        assert isinstance(app.screen, FormScreen)
        assert field(app, "title").value == "A Son's Descent"
        assert not app.doc.dirty
        burst(app, *typed("Kept"), "enter")
        await settle(app, pilot)
        assert app.campaign.title == "Kept"


@run_async
async def test_the_cell_panel_takes_a_burst(campaign_file: Path, tmp_path: Path) -> None:
    """ctrl+t then the inscription: the letters went to the map (e, s, w open paths there) before the
    field had the focus."""
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.canvas.move_to(0, 1)
        await settle(app, pilot)
        before = app.campaign.levels[0].cell_at(0, 1)
        burst(app, "ctrl+t", "ctrl+u", *typed("see sw"), "enter", "ctrl+g")
        await settle(app, pilot)
        cell = app.campaign.levels[0].cell_at(0, 1)
        assert cell.inscription == "see sw" and cell.paths == before.paths
        assert isinstance(app.screen.focused, MapCanvas)


@run_async
async def test_search_find_and_save_as_take_a_burst(campaign_file: Path, tmp_path: Path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        burst(app, "ctrl+f", *typed("fount"))
        await settle(app, pilot)
        assert app.screen.query_one("#palette-search", Input).value == "fount"
        burst(app, "ctrl+g", "/", *typed("starting"), "enter")
        await settle(app, pilot)
        assert app.canvas.cursor == (0, 1)
        copy = tmp_path / "copy.json"
        burst(app, "f12", *typed(str(copy)), "enter")
        await settle(app, pilot)
        assert copy.exists() and app.doc.path == copy


@run_async
async def test_the_story_source_takes_a_burst(campaign_file: Path, tmp_path: Path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        burst(app, "ctrl+l", "up", "f3", "ctrl+home", *typed("Once. "), "enter")
        await settle(app, pilot)
        assert app.screen.query_one("#story-source", TextArea).has_focus
        assert app.campaign.story.startswith("Once. \n")


@run_async
async def test_a_check_or_a_resize_while_typing_keeps_the_form_s_text(campaign_file: Path, tmp_path: Path) -> None:
    """A check that ends, or the terminal resized, while the author types: the fields keep the text."""
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        burst(app, "ctrl+e", "ctrl+u", *typed("Half"))
        app.refresh_all()  # what an edit's end and a check's show again (a solve's verdict too)
        burst(app, *typed(" typed"))
        await pilot.resize_terminal(100, 30)
        burst(app, *typed(" here"))
        await pilot.resize_terminal(*SIZE)
        await settle(app, pilot)
        assert field(app, "title").value == "Half typed here"


@run_async
async def test_a_solve_that_ends_while_typing_leaves_the_focus_in_the_field(campaign_file: Path, tmp_path: Path,
                                                                            monkeypatch) -> None:
    """F6, then ctrl+t and an inscription while the solver runs: its end took the focus to the map to step
    through the solution, and the rest of the word went to the map (s, e, w opened and walled paths). The
    focus stays where the author types; the steps are shown, one ctrl+g away."""
    import threading

    import cardrogue.editor.solving as solving

    go = threading.Event()
    solve = solving.solve_solution
    monkeypatch.setattr(solving, "solve_solution", lambda *args: go.wait(10) and solve(*args))
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.canvas.move_to(1, 1)
        before = app.campaign.levels[0].cell_at(1, 1)
        burst(app, "f6", "ctrl+t", *typed("half"))
        await pilot.pause()
        go.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "Par:" in str(app.query_one("#solve-status").render())
        burst(app, *typed(" sew"))
        await settle(app, pilot)
        assert app.query_one("#inspector-inscription", Input).has_focus and app.solving.step_index == 0
        burst(app, "enter")
        await settle(app, pilot)
        cell = app.campaign.levels[0].cell_at(1, 1)
        assert cell.inscription == "half sew" and cell.paths == before.paths


@run_async
async def test_the_hero_stock_and_open_dialogs_take_a_burst(campaign_file: Path, tmp_path: Path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        burst(app, "f8", "tab", *typed("dagger gold"), "enter")  # tab: from the character's list to the items
        await settle(app, pilot)
        assert app.campaign.hero.items == ("dagger", "gold")
        app.set_level(1)
        app.canvas.move_to(1, 0)  # the shop
        await settle(app, pilot)
        burst(app, "i", "ctrl+u", *typed("helm dagger"), "enter")
        await settle(app, pilot)
        assert app.campaign.levels[1].cell_at(1, 0).stock == ("helm", "dagger")
        other = tmp_path / "other.json"
        other.write_bytes(campaign_file.read_bytes())
        burst(app, "ctrl+s", "ctrl+o", *typed(str(other)), "enter")
        await settle(app, pilot)
        assert app.doc.path == other


@run_async
async def test_a_paste_right_after_the_key_that_opens_a_form_goes_into_it(campaign_file: Path, tmp_path: Path) -> None:
    """A paste (one event, from a terminal's bracketed paste) waits for the keys before it like a key."""
    from textual import events

    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        burst(app, "ctrl+e")
        app.post_message(events.Paste("Pasted title"))
        burst(app, "enter")
        await settle(app, pilot)
        assert app.campaign.title == "Pasted title"


class _TwoFields(KeysInOrder, App):
    """Two fields, nothing else: where a click lands among keys typed in one burst."""

    def compose(self):
        yield Input(id="first")
        yield Input(id="second")


def _button(app, cls, target) -> None:
    """A mouse button pressed or let go over ``target``, posted as the driver posts it (not waiting)."""
    x, y = target.region.offset + (1, 0)
    event = cls(widget=target, x=x, y=y, delta_x=0, delta_y=0, button=1, shift=False, meta=False, ctrl=False,
                screen_x=x, screen_y=y)
    event.set_sender(app)
    app.post_message(event)


@run_async
async def test_a_click_keeps_its_place_behind_the_keys_typed_before_it() -> None:
    """`abc`, a click on the second field, `XY`, all in one read: Textual's own order puts `abc` in the
    first field and `XY` in the second. Holding keys (and not the mouse) let the click jump ahead of `b` and
    `c`; a mouse button waits behind the keys on their way as a key does."""
    app = _TwoFields()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        first, second = app.query_one("#first", Input), app.query_one("#second", Input)
        first.focus()
        await pilot.pause()
        burst(app, *typed("abc"))
        _button(app, events.MouseDown, second)
        _button(app, events.MouseUp, second)
        burst(app, *typed("XY"))
        for _ in range(500):
            await pilot.pause(0.01)
            if not app.keys_on_their_way:
                break
        assert (first.value, second.value) == ("abc", "XY")


@run_async
async def test_a_key_slower_than_the_look_for_a_stuck_key_is_not_let_go(campaign_file: Path, tmp_path: Path,
                                                                         monkeypatch) -> None:
    """Under a loaded suite (load ~20) ctrl+e, ctrl+u and ``Half`` in one burst left ``alf``: a key still
    being handled after a second was taken for stuck, and the key behind it went on before the form had
    the focus. A machine slower than the look (here it looks every millisecond) loses no key now."""
    import cardrogue.editor.key_order as key_order

    monkeypatch.setattr(key_order, "STUCK_SECONDS", 0.001)
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        burst(app, "ctrl+e", "ctrl+u", *typed("Half"), "tab", "ctrl+u", *typed("half-id"))
        await settle(app, pilot)
        assert (field(app, "title").value, field(app, "id").value) == ("Half", "half-id")


class _Vanishing(Static, can_focus=True):
    """Takes x by leaving the screen: the note that follows x through its queue goes with it."""

    async def on_key(self, event: events.Key) -> None:
        if event.key == "x":
            event.stop()
            await self.remove()


class _VanishingAndAField(KeysInOrder, App):
    def compose(self):
        yield _Vanishing("x removes me", id="vanishing")
        yield Input(id="field")


@run_async
async def test_the_keys_behind_one_whose_widget_was_removed_go_on() -> None:
    """A key whose widget is removed while handling it can never be followed to its end: the keys behind
    it go on (to the field that has the focus then) and are not held for ever."""
    app = _VanishingAndAField()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.query_one("#vanishing").focus()
        await pilot.pause()
        burst(app, "x", *typed("ab"))
        for _ in range(1000):  # each held key waits for the next look (STUCK_SECONDS)
            await pilot.pause(0.01)
            if not app.keys_on_their_way:
                break
        assert not app.query("#vanishing")
        assert not app.keys_on_their_way


class PollAgain(Message):
    pass


class _Polling(Static):
    """Keeps its own queue busy for good, as a display polling a job by posting to itself."""

    def on_mount(self) -> None:
        self.post_message(PollAgain())

    async def on_poll_again(self, message: PollAgain) -> None:
        self.post_message(PollAgain())
        await asyncio.sleep(0.01)


class _PollingAndAField(KeysInOrder, App):
    def compose(self):
        yield _Polling("polling")
        yield Input(id="field")


@run_async
async def test_a_widget_that_keeps_its_queue_busy_holds_the_keys_behind_for_a_bounded_while(monkeypatch) -> None:
    """A key handled waits for the app to be quiet, but a queue that never empties (a widget polling by posting
    to itself) must not hold the keys behind it until the keyboard is taken for hung: they go on after
    QUIET_SECONDS (made short here; HUNG_SECONDS made out of reach, so only that bound can let them go)."""
    import cardrogue.editor.key_order as key_order

    monkeypatch.setattr(key_order, "QUIET_SECONDS", 0.05)
    monkeypatch.setattr(key_order, "HUNG_SECONDS", 10_000.0)
    app = _PollingAndAField()
    async with app.run_test() as pilot:
        app.query_one("#field").focus()
        await pilot.pause()
        burst(app, *typed("abc"))
        for _ in range(2000):  # a wait for the keys, not a timed assert: each lets go within QUIET_SECONDS
            await pilot.pause(0.01)
            if app.query_one("#field", Input).value == "abc":
                break
        assert app.query_one("#field", Input).value == "abc"
