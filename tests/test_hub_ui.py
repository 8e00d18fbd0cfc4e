"""The player's "submit to the hub" (h on a won run's end screen) and the editor's F9 publish
(issue 15, point 6), driven by Pilot against a real hub on loopback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from editor_support import make_app, settle

from cardrogue.editor.widgets.dialogs import ConfirmScreen
from cardrogue.editor.widgets.inspector import Inspector
from hub_support import call, running_hub, solution
from test_player import SIZE, WIN_KEYS, app_for
from test_player_campaigns import duel_dict

from cardrogue.editor.player.screens import EndScreen
from cardrogue.hub.client import HubClient
from cardrogue.hub.config import ClientConfig, save_config
from helpers import notes, recorded, run_async


@pytest.fixture
def hub(tmp_path: Path):
    with running_hub(str(tmp_path / "hub.sqlite3")) as app:
        yield app


def _account(hub, name: str = "alice") -> HubClient:
    answer = HubClient(hub.base).register(name)
    save_config(ClientConfig(hub.base, answer["name"], answer["token"]))
    return HubClient(hub.base, answer["token"])


async def _submit(app, pilot) -> None:
    """``h`` on the end screen, and wait for the hub's answer to be shown."""
    await pilot.press("h")
    await app.workers.wait_for_complete()
    await pilot.pause()


async def _win(app, pilot) -> EndScreen:
    await pilot.press("enter")
    await pilot.press(*WIN_KEYS)
    await recorded(pilot)
    assert isinstance(app.screen, EndScreen)
    return app.screen


def _end_hub_text(screen: EndScreen) -> str:
    return str(screen.query_one("#end-hub").render())


@run_async
async def test_the_end_screen_of_a_won_run_submits_it_to_the_hub(hub, tmp_path: Path) -> None:
    client = _account(hub)
    client.publish(json.dumps(duel_dict()))
    app = app_for(duel_dict(), tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _win(app, pilot)
        assert "h submit this run to the hub" in _end_hub_text(screen)
        await _submit(app, pilot)
        assert "Verified by the hub: rank 1" in _end_hub_text(screen)
        assert screen.hub_replay is None  # one submission per run: h does nothing more
    board = client.leaderboard(duel_dict()["id"])["runs"]
    assert [(r["player"], r["turns"]) for r in board] == [("alice", 2)]


def _shown_in_full(screen: EndScreen, *ids: str) -> None:
    """Each widget lies wholly inside the dialog's inner area, where a person sees it."""
    inner = screen.query_one("#end-box").content_region
    for wid in ids:
        region = screen.query_one(wid).region
        assert region.height > 0 and inner.contains_region(region), (wid, region, inner)


@run_async
async def test_at_80x24_the_hubs_answer_leaves_every_line_of_the_end_screen_in_view(hub, tmp_path: Path) -> None:
    """A newcomer's walk: the answer's address wrapped on three lines pushed "r restart level · ..." out
    of the dialog. The dialog now grows to the screen's height and the whole of it shows."""
    client = _account(hub)
    client.publish(json.dumps(duel_dict()))
    app = app_for(duel_dict(), tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _win(app, pilot)
        await _submit(app, pilot)
        assert "Verified by the hub: rank 1" in _end_hub_text(screen)
        # the address wraps: the case in question (three lines with the whole hash then; two with its 12 digits now,
        # and an answer taller than the screen is the next test's)
        assert screen.query_one("#end-hub").region.height >= 2
        _shown_in_full(screen, "#end-title", "#end-summary", "#end-table", "#end-hub", "#end-keys")
        assert screen.query_one("#end-body").max_scroll_y == 0  # nothing scrolled out of sight either


@run_async
async def test_an_answer_taller_than_the_screen_scrolls_between_the_title_and_the_keys(hub, tmp_path: Path,
                                                                                     monkeypatch) -> None:
    import cardrogue.hub.client

    monkeypatch.setattr(cardrogue.hub.client, "submit_run", lambda replay: (False, "The hub refused the run: " + "no " * 400))
    _account(hub)
    app = app_for(duel_dict(), tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _win(app, pilot)
        await _submit(app, pilot)
        _shown_in_full(screen, "#end-title", "#end-keys", "#end-body")
        body = screen.query_one("#end-body")
        assert body.max_scroll_y > 0 and body.scroll_y == body.max_scroll_y  # scrolled to the answer's end


@run_async
async def test_no_hub_no_offer(tmp_path: Path) -> None:
    app = app_for(duel_dict(), tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _win(app, pilot)
        assert not screen.query("#end-hub") and screen.hub_replay is None
        assert screen.check_action("submit_to_hub", ()) is False


@run_async
async def test_f9_publishes_the_open_campaign(hub, campaign_file: Path, tmp_path: Path) -> None:
    client = _account(hub)
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        x, y = app.campaign.levels[0].cells[0].pos
        app.canvas.move_to(x, y)
        await settle(app, pilot)
        assert app.query_one(Inspector).focus_field("inscription")
        await pilot.press(*"Carved by hand")  # typed in the Cell panel, not entered: published all the same
        await pilot.press("f9")
        await settle(app, pilot)
        messages = [n.message for n in app._notifications]
        assert any(m.startswith("Published: a-sons-descent version 1, par 11 turns") for m in messages), messages
    assert [m["id"] for m in client.maps()] == ["a-sons-descent"]
    # the page by the hash's first 12 digits, as `hub list` shows it: the whole 64 wrapped the notification
    # over three lines at 100 columns in the walk of the product; with the par's health, as `hub publish` says
    listed = client.maps()[0]
    said = f"par 11 turns with {listed['par']['health']} health: {hub.base}/maps/{listed['hash'][:12]}"
    assert any(m.endswith(said) for m in messages), messages
    published = json.loads(client.file("a-sons-descent"))["levels"][0]["cells"]
    assert [c.get("inscription") for c in published if c["at"] == [x, y]] == ["Carved by hand"]
    # published before it was saved (walk25): the hub holds a version no file of the author holds, and F9 says so
    assert any(m.startswith(f"{campaign_file.name} is not saved: the hub has the campaign as the editor shows it")
               and m.endswith("ctrl+s saves it") for m in messages), messages


@run_async
async def test_f9_says_why_it_does_not_publish(hub, campaign_file: Path, tmp_path: Path) -> None:
    doc = json.loads(campaign_file.read_text())
    doc["levels"][0]["cells"][4]["paths"] = "N"  # the ladder turns its back: CR311, no exit can be reached
    campaign_file.write_text(json.dumps(doc, indent=2))
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("f9")
        await settle(app, pilot)
        assert any(n.message.startswith("Not published: fix the errors") for n in app._notifications)
    assert call(hub.base, "GET", "/api/maps")[1]["maps"] == []


@run_async
async def test_f9_refuses_text_the_hub_refuses_without_asking_it(hub, campaign_file: Path, tmp_path: Path) -> None:
    """A title in Rich markup draws CR228 in the problems panel, and the hub refuses it; F9 solved for
    up to 20 s and sent the map all the same, to hear the hub's 422 (publish_map now stops first)."""
    _account(hub)
    doc = json.loads(campaign_file.read_text())
    doc["title"] = "Toll [red]x[/]"
    campaign_file.write_text(json.dumps(doc, indent=2))
    app = make_app(campaign_file, tmp_path)
    said = notes(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("f9")
        await settle(app, pilot)
    assert [m for m in said if m.startswith(("The hub", "Not published"))] == [
        "Not published: CR228: the text 'Toll [red]x[/]' would be refused by a hub: it looks like Rich markup "
        "('[red]')"], said
    assert call(hub.base, "GET", "/api/maps")[1]["maps"] == []


@run_async
async def test_f9_without_a_hub_says_how_to_get_one(campaign_file: Path, tmp_path: Path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("f9")
        await settle(app, pilot)
        assert any("no hub is configured" in n.message for n in app._notifications)
        # said at once: not "Publishing: proving the par, then sending the map to the hub…" first
        assert not any(n.message.startswith("Publishing") for n in app._notifications)


def test_publish_needs_a_proven_par(hub) -> None:
    from cardrogue.engine.format.resources import default_campaign
    from cardrogue.hub.client import publish_map

    _account(hub)
    ok, message = publish_map(default_campaign().read_text(), budget_seconds=0.001)
    assert not ok and message.startswith("Not published: no par proven within 0.001 s (unknown: "), message
    # what the author can do: the hub's budget is not the author's to raise (walk 26 read "raise the budget")
    assert "raise the budget" not in message, message
    assert message.endswith("a hub publishes a map only with a par its solver proves within its own budget: make the "
                            "map smaller, script its fights or cut detours that lead nowhere"), message
    assert call(hub.base, "GET", "/api/maps")[1]["maps"] == []


@run_async
async def test_a_refused_run_shows_the_hubs_reason_as_text(hub, tmp_path: Path) -> None:
    _account(hub)  # registered, but the map was never published: the hub answers 404 with its reason
    app = app_for(duel_dict(title="[b]Duel[/b]"), tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _win(app, pilot)
        await _submit(app, pilot)
        shown = _end_hub_text(screen)
        assert shown.startswith("The hub refused the run (404): no map on this hub has the hash"), shown
        assert screen.check_action("submit_to_hub", ()) is False
    assert call(hub.base, "GET", "/api/maps")[1]["maps"] == []


def test_an_unreachable_hub_is_one_line_not_an_exception(tmp_path: Path) -> None:
    from cardrogue.hub.client import publish_map, submit_run

    save_config(ClientConfig("http://127.0.0.1:9", "alice", "t" * 20))  # port 9 (discard): nothing listens
    ok, message = submit_run(solution(json.dumps(duel_dict())))
    assert not ok and message.startswith("cannot reach the hub at http://127.0.0.1:9")
    ok, message = publish_map(json.dumps(duel_dict()))
    assert not ok and message.startswith("cannot reach the hub at http://127.0.0.1:9")


@run_async
async def test_f9_shows_the_hubs_refusal_as_text_not_markup(hub, campaign_file: Path, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A hub's refusal quotes the file's text: shown as text. (F9 now stops first at text the client's
    rule refuses, so the rule is set aside here, as for a hub whose rule is newer than the client's.)"""
    from cardrogue.hub import client as hub_client

    monkeypatch.setattr(hub_client, "hub_refusals", lambda found: [])
    _account(hub)
    doc = json.loads(campaign_file.read_text())
    doc["title"] = "[bold]Crown[/bold] of [link=https://example.invalid]Thorns"  # the hub refuses markup in titles
    campaign_file.write_text(json.dumps(doc, indent=2))
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("f9")
        await settle(app, pilot)
        refusals = [n for n in app._notifications if n.message.startswith("The hub refused the map (422)")]
        assert refusals and not refusals[0].markup, [n.message for n in app._notifications]
        assert "[bold]Crown[/bold] of [link=https://example.invalid]Thorns" in refusals[0].message
    assert call(hub.base, "GET", "/api/maps")[1]["maps"] == []


def test_a_level_wide_error_is_told_by_the_editors_publish_with_its_level_named(hub) -> None:
    """The editor's publish says the first error away from the problems list: "this level has neither..." named
    no level (review22a); it reads as `cardrogue check` says it."""
    from helpers import cell

    from cardrogue.hub.client import publish_map

    start = cell(0, 0, "starting-tile", "E")
    doc = {"format": 1, "id": "blocked", "title": "Blocked", "rules": "1.1.2", "seed": 1,
           "hero": {"character": "warrior"},
           "levels": [{"id": "hall", "title": "The Hall", "width": 2, "height": 1,
                       "cells": [start, cell(1, 0, "descending-ladder", "W", "down", to="pit")]},
                      {"id": "pit", "title": "The Pit", "width": 2, "height": 1,
                       "cells": [start, cell(1, 0, "pathing-tile", "W", "down", exit=True)]},
                      {"id": "more", "width": 2, "height": 1,
                       "cells": [start, cell(1, 0, "pathing-tile", "W", "down")]}]}
    _account(hub)
    ok, message = publish_map(json.dumps(doc))
    assert not ok and "this level" not in message and 'level 3 (more)' in message, message


@run_async
async def test_in_a_browser_the_run_is_not_submitted_with_the_servers_account(hub, tmp_path: Path, monkeypatch) -> None:
    """`cardrogue web`: every tab runs `cardrogue play` as the server's user, whose hub account (hub.json) is not the
    browser player's; `h` submitted the run under the server operator's name, whoever played it. In a browser the
    end screen offers the replay as a download instead, for the player to submit under their own account
    (docs/web.md), and nothing reaches the hub with the server's token."""
    from cardrogue.editor.player.app import PlayerApp

    client = _account(hub, "operator")
    client.publish(json.dumps(duel_dict()))
    monkeypatch.setattr(PlayerApp, "is_web", property(lambda app: True))  # what textual-serve's web driver says
    delivered: list[tuple[str, dict]] = []
    monkeypatch.setattr(PlayerApp, "deliver_text", lambda app, io, **kw: delivered.append((io.read(), kw)) or "key")
    app = app_for(duel_dict(), tmp_path, campaign_file=tmp_path / "web-maps" / "0123abcd.json")
    async with app.run_test(size=SIZE) as pilot:
        screen = await _win(app, pilot)
        assert "download this run's replay" in _end_hub_text(screen) and "submit this run" not in _end_hub_text(screen)
        summary = " ".join(str(screen.query_one("#end-summary").render()).split())  # no folder of the server's
        assert "Replay kept on the server as duel-" in summary and str(tmp_path) not in summary, summary
        await _submit(app, pilot)
        said = _end_hub_text(screen)
        assert "under your own hub account" in said and "cardrogue hub submit" in said, said
        assert screen.hub_replay is None
    assert client.leaderboard(duel_dict()["id"])["runs"] == []  # not under the operator's name
    (replay, options), = delivered
    assert json.loads(replay)["campaign"]["id"] == duel_dict()["id"] and options["open_method"] == "download"
    assert options["save_filename"].endswith(".json") and options["save_filename"] in said
    # The replay as shared: not the server's path to the campaign file, nor the server's user's name ("tester")
    assert "file" not in json.loads(replay)["campaign"] and "player" not in json.loads(replay), replay
    assert "web-maps" not in replay and "tester" not in replay
    player = _account(hub, "bea")  # `cardrogue hub submit FILE` under the player's own account credits them
    assert player.submit(duel_dict()["id"], replay)["player"] == "bea"
    assert [r["player"] for r in player.leaderboard(duel_dict()["id"])["runs"]] == ["bea"]


def test_publish_stopped_while_its_par_is_proven_sends_nothing(hub) -> None:
    """F9 again stops the proof (up to 20 s): the map is not sent, and the answer says it was stopped. The
    solver's reports go to the caller meanwhile, and ``sending`` is called only for a map on its way."""
    import sys
    import threading

    from cardrogue.hub.client import STOPPED, publish_map

    sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
    import gen

    _account(hub)
    stop, reports, sent = threading.Event(), [], []

    def report(progress) -> None:
        reports.append(progress)
        stop.set()

    ok, message = publish_map(gen.mixed_campaign_text(1, 9, 1, "all"), 3600, progress=report, stop=stop,
                              sending=lambda: sent.append(True))
    assert (ok, message) == (False, STOPPED) and reports and not sent
    assert call(hub.base, "GET", "/api/maps")[1]["maps"] == []
    ok, message = publish_map(json.dumps(duel_dict()), sending=lambda: sent.append(True))
    assert ok and sent, message


def _publishing_with(monkeypatch: pytest.MonkeyPatch, fake) -> None:
    """The editor's F9 publishes through ``fake`` to a hub configured at http://hub (nothing on the network)."""
    from cardrogue.hub import client as hub_client

    monkeypatch.setattr(hub_client, "publish_map", fake)
    monkeypatch.setattr(hub_client, "configured", lambda: HubClient("http://hub"))


async def _f9_on_the_map(app, pilot) -> None:
    """F9 pressed on the map of an editor just opened."""
    await settle(app, pilot)
    app.canvas.focus()
    await pilot.press("f9")


class _FakePublish:
    """``publish_map`` as the editor calls it, held until the test lets it answer: what the editor shows while a
    publish runs, whatever the machine's speed."""

    def __init__(self, answer: tuple[bool, str]) -> None:
        import threading

        self.answer, self.go, self.called = answer, threading.Event(), threading.Event()
        self.stop = None

    def __call__(self, text, budget_seconds=20.0, *, progress=None, stop=None, sending=None):
        from cardrogue.engine.analysis.solver import Progress

        self.stop = stop
        progress(Progress("turns", 12_345, 20_000, 1.0))
        self.called.set()
        while not self.go.wait(0.01):
            if stop.is_set():
                from cardrogue.hub.client import STOPPED

                return False, STOPPED
        if sending is not None and sending() is False:  # as publish_map: stopped just as it would have gone
            from cardrogue.hub.client import STOPPED

            return False, STOPPED
        return self.answer


async def _status_says(app, pilot, words: str) -> str:
    """The solver's line once it says ``words`` (its running line is said again every half second)."""
    for _ in range(500):
        status = " ".join(str(app.query_one("#solve-status").render()).split())
        if words in status:
            return status
        await pilot.pause(0.02)
    raise AssertionError(f"{words!r} never said: {status!r}")


@run_async
async def test_f9_says_it_runs_how_far_and_how_to_stop_it_and_keeps_its_answer(campaign_file: Path, tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """F9 proves par for up to 20 s: only a toast of 3 s said it had begun, and its answer was a toast of 10 s.
    The line above the problems says it runs, its seconds of the budget and the states searched, and that F9 again
    stops it; the answer stays there until escape on the map or an edit."""
    fake = _FakePublish((True, "Published: a-sons-descent version 1, par 11 turns with 9 health: http://hub/maps/x"))
    _publishing_with(monkeypatch, fake)
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _f9_on_the_map(app, pilot)
        status = await _status_says(app, pilot, "(12,345 states)")
        assert status.startswith("Publishing: proving the par, ") and " s of up to 20 s " in status, status
        assert status.endswith("… F9 again stops it"), status
        fake.go.set()
        status = await _status_says(app, pilot, "Published:")
        assert status.startswith("Published: a-sons-descent version 1, par 11 turns"), status
        assert status.endswith("(escape on the map or an edit hides it)"), status
        await pilot.press("escape")  # on the map: the answer put away
        assert str(app.query_one("#solve-status").render()) == ""

        fake.go.clear()
        await pilot.press("f9")
        await _status_says(app, pilot, "F9 again stops it")
        await pilot.press("f9")  # again: stopped
        status = await _status_says(app, pilot, "Not published: stopped")
        assert fake.stop.is_set()
        await settle(app, pilot)
        assert app.query_one("#solve-status").has_class("-shown")
        app.canvas.move_to(1, 1)
        await pilot.press("f")  # an edit: the answer was for the version before it
        await settle(app, pilot)
        assert app.doc.undo_stack and str(app.query_one("#solve-status").render()) == ""


@run_async
async def test_escape_during_a_publish_after_f6_took_its_line_leaves_the_line_to_f6(campaign_file: Path, tmp_path: Path,
                                                                                    monkeypatch) -> None:
    """F6 while F9 runs takes the solver's line: the publish goes on quietly, its answer a toast. Escape on the map
    put the publish's answer away and forgot that the line was taken: the next tick said the running line again
    over it."""
    fake = _FakePublish((True, "Published: x"))
    _publishing_with(monkeypatch, fake)
    app = make_app(campaign_file, tmp_path)
    said = notes(app)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await _f9_on_the_map(app, pilot)
            await _status_says(app, pilot, "F9 again stops it")
            await pilot.press("f6")
            await _status_says(app, pilot, "Par: ")
            await pilot.press("escape", "escape")  # the steps left, then the line put away
            await pilot.pause(0.1)
            app.publishing._say_running()  # a tick of the publish's running line
            status = await _status_says(app, pilot, "Par: ")  # F6's answer, kept
            assert not status.startswith("Publishing"), status
            fake.go.set()
            for _ in range(500):
                if not app.publishing.running:
                    break
                await pilot.pause(0.02)
            assert "Published: x" in said and (await _status_says(app, pilot, "Par: ")).startswith("Par: ")
    finally:
        fake.go.set()


def test_a_stop_set_as_the_map_would_go_sends_nothing(hub) -> None:
    """A stop set after the proof's last look at it, as ``sending()`` is called (F9 again just then): the editor
    said "stopping", and the map went to the hub all the same. ``sending()`` answering False stops it there."""
    import threading

    from cardrogue.hub.client import STOPPED, publish_map

    _account(hub)
    stop = threading.Event()

    def sending() -> bool:
        stop.set()  # F9 again, in the editor's thread, at this very moment: the editor's lock says not to send
        return False

    assert publish_map(json.dumps(duel_dict()), stop=stop, sending=sending) == (False, STOPPED)
    assert call(hub.base, "GET", "/api/maps")[1]["maps"] == []


class _HeldBeforeSending(_FakePublish):
    """``publish_map`` held after its par is proven and its last look at ``stop``, before ``sending()``: where F9
    again said "stopping" and the map went all the same."""

    def __call__(self, text, budget_seconds=20.0, *, progress=None, stop=None, sending=None):
        self.stop, self.sent = stop, False
        self.called.set()
        self.go.wait(10)
        if sending() is False:
            from cardrogue.hub.client import STOPPED

            return False, STOPPED
        self.sent = True
        self.sending_now.set()
        self.answered.wait(10)
        return self.answer


@run_async
async def test_f9_again_as_the_map_sets_off_either_stops_it_or_says_it_is_too_late(campaign_file: Path,
                                                                                   tmp_path: Path,
                                                                                   monkeypatch) -> None:
    import threading

    fake = _HeldBeforeSending((True, "Published: x"))
    fake.sending_now, fake.answered = threading.Event(), threading.Event()
    _publishing_with(monkeypatch, fake)
    app = make_app(campaign_file, tmp_path)
    said = notes(app)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await _f9_on_the_map(app, pilot)
            await _status_says(app, pilot, "F9 again stops it")
            fake.called.wait(10)
            await pilot.press("f9")  # stop, the proof over but the map not yet gone
            await _status_says(app, pilot, "stopping")
            fake.go.set()
            await _status_says(app, pilot, "Not published: stopped")
            assert not fake.sent

            fake.go.set()
            await pilot.press("f9")  # again: this time the map sets off first
            for _ in range(500):
                if fake.sending_now.is_set():
                    break
                await pilot.pause(0.02)
            await pilot.press("f9")  # too late
            assert said[-1].startswith("Too late to stop: the map is already on its way"), said[-1]
            assert app.publishing.running and not fake.stop.is_set()
            fake.answered.set()
            await _status_says(app, pilot, "Published: x")
    finally:
        fake.go.set()
        fake.answered.set()


@run_async
async def test_an_edit_and_a_save_during_the_proof_are_said_with_the_answer(campaign_file: Path, tmp_path: Path,
                                                                           monkeypatch) -> None:
    """The note of a version not saved was written at F9: an edit and ctrl+s during the proof left "story.json is
    not saved" of a saved file, and the hub said to have the campaign as the editor showed it, an older one. The
    hub has the text sent at F9: the answer compares it with the campaign's text then."""
    fake = _FakePublish((True, "Published: a-sons-descent version 1, par 11 turns with 9 health: http://hub/maps/x"))
    _publishing_with(monkeypatch, fake)
    app = make_app(campaign_file, tmp_path)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(app, pilot)
            app.canvas.focus()
            app.canvas.move_to(1, 1)
            await pilot.press("f")  # an edit, not saved
            await pilot.press("f9")
            await _status_says(app, pilot, "F9 again stops it")
            await pilot.press("r", "ctrl+s")  # another edit during the proof, and saved
            for _ in range(500):
                if not app.doc.dirty:
                    break
                await pilot.pause(0.02)
            fake.go.set()
            status = await _status_says(app, pilot, "Published")
            assert "The map changed since F9: the hub has the version from when F9 was pressed" in status, status
            assert "not saved" not in status, status
    finally:
        fake.go.set()


@run_async
async def test_opening_another_file_stops_the_publish_of_the_one_before(campaign_file: Path, tmp_path: Path,
                                                                      monkeypatch) -> None:
    """A publish ran on past an open: its line went, F9 on the file opened stopped the old publish (and said so on
    the new file's line), and the old answer could land there. Opening (or a new campaign) stops it."""
    fake = _FakePublish((True, "Published: other-map version 1, par 4 turns with 8 health: http://hub/maps/y"))
    _publishing_with(monkeypatch, fake)
    other = tmp_path / "other.json"
    other.write_text(json.dumps({**json.loads(campaign_file.read_text()), "id": "other-map", "title": "Other"}))
    app = make_app(campaign_file, tmp_path)
    said = notes(app)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await _f9_on_the_map(app, pilot)
            await _status_says(app, pilot, "F9 again stops it")
            old = fake.stop
            assert app.files.open_path(other)
            assert old.is_set() and not app.publishing.running
            assert said[-1] == f"Publishing {campaign_file.name} stopped: nothing was sent", said
            for _ in range(500):  # the old proof ends
                if not app.workers:
                    break
                await pilot.pause(0.02)
            await pilot.press("f9")  # publishes other.json
            await _status_says(app, pilot, "F9 again stops it")
            assert fake.stop is not old and not fake.stop.is_set()
            fake.go.set()
            await _status_says(app, pilot, "Published: other-map")
            assert not any("stopped while its par" in m for m in said), said
    finally:
        fake.go.set()


@run_async
async def test_quitting_while_the_par_is_proven_asks_and_stops_the_publish(campaign_file: Path, tmp_path: Path,
                                                                           monkeypatch) -> None:
    """ctrl+q while F9 proved the par left the proof running: the terminal blank until it was over, and the map
    sent to the hub ~30 s after the quit. The quit asks first, says that it stops the publish, and stops it."""
    fake = _FakePublish((True, "Published: x"))
    _publishing_with(monkeypatch, fake)
    app = make_app(campaign_file, tmp_path)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await _f9_on_the_map(app, pilot)
            await _status_says(app, pilot, "F9 again stops it")
            await pilot.press("ctrl+q", "ctrl+q")  # (again: one question)
            assert isinstance(app.screen, ConfirmScreen) and sum(isinstance(s, ConfirmScreen)
                                                                 for s in app.screen_stack) == 1
            question = str(app.screen.question)
            assert question == (f"Publishing {campaign_file.name}: its par is being proven. Quitting stops it, and "
                                "nothing is sent. Quit?")
            await pilot.click("#answer-cancel")  # not quit: it runs on
            await pilot.pause()
            assert app.is_running and app.publishing.running and not fake.stop.is_set()
            await pilot.press("ctrl+q")
            await pilot.click("#answer-quit")
        assert fake.stop.is_set() and app.return_value == 0
    finally:
        fake.go.set()


@run_async
async def test_quitting_while_the_map_is_on_its_way_waits_for_the_hubs_answer(campaign_file: Path, tmp_path: Path,
                                                                              monkeypatch) -> None:
    import threading

    fake = _HeldBeforeSending((True, "Published: x"))
    fake.sending_now, fake.answered = threading.Event(), threading.Event()
    fake.go.set()
    _publishing_with(monkeypatch, fake)
    app = make_app(campaign_file, tmp_path)
    printed, exit_app = [], app.exit

    def exit_printing(*args, message=None, **kwargs) -> None:
        printed.append(message)
        exit_app(*args, message=message, **kwargs)

    app.exit = exit_printing
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await _f9_on_the_map(app, pilot)
            await _status_says(app, pilot, "sending the map")
            await pilot.press("ctrl+q")
            assert str(app.screen.question).startswith(f"{campaign_file.name} is on its way to the hub: it cannot be "
                                                       "stopped. Quit once the hub answers?")
            await pilot.click("#answer-quit")
            status = await _status_says(app, pilot, "Quitting once the hub answers")
            assert app.is_running and not fake.stop.is_set(), status
            fake.answered.set()
            for _ in range(500):
                if not app.is_running:
                    break
                await pilot.pause(0.02)
        assert app.return_value == 0 and fake.sent
        assert [str(m) for m in printed] == [f"{campaign_file.name}: Published: x"]  # as the terminal is back
    finally:
        fake.answered.set()


async def _quitting_on_the_answer(app, pilot, fake) -> None:
    """F9, the map on its way, ctrl+q and "Quit when it answers": the editor waits for the hub's answer."""
    await _f9_on_the_map(app, pilot)
    await _status_says(app, pilot, "sending the map")
    await pilot.press("ctrl+q")
    await pilot.click("#answer-quit")
    await _status_says(app, pilot, "Quitting once the hub answers")


def _held_fake():
    import threading

    fake = _HeldBeforeSending((True, "Published: x"))
    fake.sending_now, fake.answered = threading.Event(), threading.Event()
    fake.go.set()
    return fake


@run_async
async def test_an_edit_made_while_the_quit_awaits_the_hub_is_asked_about(campaign_file: Path, tmp_path: Path,
                                                                         monkeypatch) -> None:
    """Review 27: after "Quit when it answers" the editor stays live until the hub answers; an edit made then was
    dropped as the editor closed on the answer, unasked (the unsaved question came before it). The answer now
    quits as ctrl+q does: the unsaved changes are asked about, and the answer is told."""
    fake = _held_fake()
    _publishing_with(monkeypatch, fake)
    app = make_app(campaign_file, tmp_path)
    said = notes(app)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await _quitting_on_the_answer(app, pilot, fake)
            app.canvas.focus()
            app.canvas.move_to(1, 1)
            await pilot.press("f")  # an edit while the hub is awaited
            assert app.doc.dirty
            fake.answered.set()
            for _ in range(500):
                if isinstance(app.screen, ConfirmScreen):
                    break
                await pilot.pause(0.02)
            assert app.is_running and isinstance(app.screen, ConfirmScreen), said
            assert "has unsaved changes" in str(app.screen.question) and "Published: x" in said
    finally:
        fake.answered.set()


@run_async
async def test_another_document_shown_gives_up_the_quit_on_the_hubs_answer(campaign_file: Path, tmp_path: Path,
                                                                           monkeypatch) -> None:
    """Review 27: a file opened while the editor awaited the hub's answer to quit kept the quit asked: the next
    publish, of the other file, closed the editor on its answer. Showing another document gives that quit up."""
    fake = _held_fake()
    _publishing_with(monkeypatch, fake)
    other = tmp_path / "other.json"
    other.write_bytes(campaign_file.read_bytes())
    app = make_app(campaign_file, tmp_path)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await _quitting_on_the_answer(app, pilot, fake)
            app.open_path(other)
            await settle(app, pilot)
            fake.answered.set()
            second = _held_fake()
            second.answered.set()
            _publishing_with(monkeypatch, second)
            app.canvas.focus()
            await pilot.press("f9")
            for _ in range(200):
                if second.sent or not app.is_running:
                    break
                await pilot.pause(0.02)
            await settle(app, pilot)
            assert second.sent and app.is_running
    finally:
        fake.answered.set()

