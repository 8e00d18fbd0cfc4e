"""The editor holds drafts (issue 12): a campaign with errors opens with its problems listed, is
edited, saved (saying it is a draft), reopened and recovered; F5 refuses to play it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardrogue.cli.main import main
from cardrogue.editor.app import EditorApp, run_editor
from cardrogue.editor import edits
from cardrogue.editor.files import OpenError, open_document, read_recovery, recover, recovery_path, write_recovery
from cardrogue.editor.widgets.dialogs import ConfirmScreen, FormScreen
from cardrogue.editor.widgets.problems import ProblemsPanel
from textual.widgets import Select
from cardrogue.engine.format.canonical import campaign_to_dict
from cardrogue.engine.format.diagnostics import Severity
from cardrogue.engine.analysis.check import check_text
from cardrogue.engine.format.loader import load_campaign, load_campaign_text
from editor_support import SIZE, app_on, make_app, press, settle
from helpers import run_async

BROKEN = Path(__file__).parent / "corpus" / "broken"
EXPECTED: dict[str, dict] = json.loads((BROKEN / "expected.json").read_text(encoding="utf-8"))
TINY = Path(__file__).parent / "corpus" / "valid" / "tiny.json"


def problem_lines(app: EditorApp) -> list[str]:
    """The problems listed (not the line that says the route checks wait for the errors' fixes)."""
    options = app.query_one("#problems-list")
    return [str(option.prompt) for option in map(options.get_option_at_index, range(options.option_count))
            if not option.disabled]


def notes(app: EditorApp) -> list[str]:
    return [n.message for n in app._notifications]


def shaped() -> list[str]:
    """The corpus files with the campaign's shape: the loader builds a draft of each."""
    names = [name for name in sorted(EXPECTED) if load_campaign(BROKEN / name).draft is not None]
    assert len(names) >= 30  # every semantic error and the schema errors on values
    return names


@run_async
async def test_every_corpus_file_with_the_campaign_shape_opens_with_its_problem(tmp_path) -> None:
    app = make_app(TINY, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        for name in shaped():
            assert app.files.open_path(BROKEN / name), name
            await settle(app, pilot)
            want = EXPECTED[name]["code"]
            assert app.doc.path == BROKEN / name
            assert any(f" {want} " in line for line in problem_lines(app)), (name, problem_lines(app))
            panel = app.query_one(ProblemsPanel)
            assert any(d.code == want for d in panel.diagnostics)
            if EXPECTED[name]["severity"] == "error":
                assert any(f"{name} opens as a draft with" in n for n in notes(app)), name
                assert "· a draft: fix the errors to play or publish it" in str(
                    panel.query_one("#problems-summary").render())
            app.canvas.focus()
            await press(app, pilot, "right", "down", "left", "up")  # the map of a draft draws and moves


@run_async
async def test_a_file_without_the_campaign_shape_is_refused_with_its_place(tmp_path, capsys) -> None:
    app = make_app(TINY, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert not app.files.open_path(BROKEN / "34-at-one-coordinate.json")
        await pilot.pause()
        assert any("Cannot open 34-at-one-coordinate.json" in n and "CR107" in n for n in notes(app))
        assert app.doc.path == TINY.absolute()
    assert run_editor(BROKEN / "01-trailing-comma-object.json") == 2
    assert "CR001" in capsys.readouterr().err


def test_cardrogue_edit_says_why_a_new_file_cannot_be_made_there(tmp_path, capsys) -> None:
    """`cardrogue edit maps/new.json` before `maps/` exists: the message names the missing folder."""
    assert run_editor(tmp_path / "maps" / "new.json") == 2
    err = capsys.readouterr().err
    assert f"the folder {tmp_path / 'maps'} does not exist" in err, err
    (tmp_path / "notes").write_text("a file")
    assert run_editor(tmp_path / "notes" / "new.json") == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'notes'} is not a folder" in err, err
    from importlib.resources import files

    bundled = Path(str(files("cardrogue.campaigns"))) / "mine.json"
    assert run_editor(bundled) == 2
    assert "inside the installed package" in capsys.readouterr().err


def test_cardrogue_edit_says_its_refusals_as_every_command_does(tmp_path, capsys) -> None:
    """`cardrogue edit FOLDER` printed the loader's line alone, without the `cardrogue:` every other
    error line starts with; a file that is not JSON gets that first line too, then its diagnostics."""
    assert run_editor(tmp_path) == 2
    assert capsys.readouterr().err == (f"cardrogue: {tmp_path}: cannot read the file: is a folder, not a regular file; "
                                       "name a campaign file in it, or a new file's name to start one\n")
    assert run_editor(BROKEN / "01-trailing-comma-object.json") == 2
    first, *diagnostics = capsys.readouterr().err.splitlines()
    assert first.startswith(f"cardrogue: {BROKEN / '01-trailing-comma-object.json'}: the editor cannot open it (1 error)")
    assert [line.split(": ")[1] for line in diagnostics] == ["CR001"], diagnostics
    assert run_editor(tmp_path / "maps" / "new.json") == 2
    assert capsys.readouterr().err.startswith(f"cardrogue: {tmp_path / 'maps' / 'new.json'}: cannot create a campaign there")


def test_cardrogue_edit_of_a_replay_says_what_it_is_not_to_mend_it(tmp_path, capsys) -> None:
    """A replay (or any JSON that is no campaign at all) given to `cardrogue edit` was told "mend it in a text
    editor": no mending makes a replay a campaign. The one line says what the file is and what to give."""
    replay = Path(__file__).resolve().parent.parent / "campaigns" / "two-knives.replay.json"
    assert run_editor(replay) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"cardrogue: {replay}: the editor cannot open it: not a campaign: this looks like a replay")
    assert "text editor" not in err and "cardrogue verify" in err, err
    (tmp_path / "list.json").write_text("[1, 2]")
    assert run_editor(tmp_path / "list.json") == 2
    err = capsys.readouterr().err
    assert "must be an object" in err and "text editor" not in err, err


@pytest.mark.parametrize("name", ["39-unknown-card.json", "52-starting-tile-face-down.json", "53-no-exit.json"])
def test_cardrogue_edit_opens_a_draft_instead_of_refusing_it(name, monkeypatch, capsys) -> None:
    shown: list[EditorApp] = []

    def run(app: EditorApp) -> int:  # the terminal session itself is what the Pilot tests drive
        shown.append(app)
        return 0

    monkeypatch.setattr(EditorApp, "run", run)
    assert main(["edit", str(BROKEN / name)]) == 0
    assert capsys.readouterr().err == ""
    assert shown[0].doc.path == BROKEN / name
    assert [d.code for d in shown[0].doc.opened_errors] == [EXPECTED[name]["code"]]


def _draft(tmp_path: Path) -> Path:
    """tiny.json without its exit (CR220) and with a face-down starting tile (CR219)."""
    data = json.loads(TINY.read_text(encoding="utf-8"))
    del data["levels"][1]["cells"][1]["exit"]
    data["levels"][0]["cells"][0]["face"] = "down"
    path = tmp_path / "draft.json"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


@run_async
async def test_a_map_saved_with_errors_reopens(tmp_path) -> None:
    path = _draft(tmp_path)
    app = make_app(path, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.set_level(1)
        app.canvas.cursor = (0, 1)
        app.canvas.focus()
        await pilot.press("enter")  # paint a card: the draft is edited
        await settle(app, pilot)
        assert app.doc.dirty
        await press(app, pilot, "ctrl+s")
        assert not app.doc.dirty
        saved = [n for n in notes(app) if n.startswith("Saved draft.json with 2 errors")]
        assert saved and "cannot be played or published until they are fixed" in saved[0]
    reopened = load_campaign(path)
    assert reopened.campaign is None and {d.code for d in reopened.errors} == {"CR219", "CR220"}
    assert reopened.draft.levels[1].cell_at(0, 1) is not None
    assert open_document(path).campaign == reopened.draft


@run_async
async def test_f5_on_a_draft_says_so_and_does_not_play(tmp_path) -> None:
    app = make_app(_draft(tmp_path), tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        screen = app.screen
        await pilot.press("f5")
        await pilot.pause()
        assert app.screen is screen
        assert notes(app)[-1].startswith("Not played: the campaign has 2 errors: it cannot be played until they are "
                                         "fixed (first: CR220: the campaign has no exit")


@run_async
async def test_recovery_of_a_draft_with_errors(tmp_path) -> None:
    path = _draft(tmp_path)
    crashed = make_app(path, tmp_path)
    async with crashed.run_test(size=SIZE) as pilot:
        await settle(crashed, pilot)
        crashed.canvas.focus()
        await pilot.press("right", "f")  # turn the goblin face up
        crashed.set_level(1)
        crashed.canvas.cursor = (1, 1)
        crashed.canvas.focus()
        await pilot.press("enter")
        await settle(crashed, pilot)
        crashed.files.autosave()
        edited = campaign_to_dict(crashed.campaign)
    rec = recovery_path(open_document(path), tmp_path / "recovery")
    assert rec.exists()
    # The session crashed; the next one offers the draft back, still a draft.
    later = make_app(path, tmp_path)
    async with later.run_test(size=SIZE) as pilot:
        await settle(later, pilot)
        assert isinstance(later.screen, ConfirmScreen)
        await pilot.click("#answer-cancel")  # "Later"
        await pilot.pause()
        later.canvas.focus()
        await pilot.press("f")  # other work: the starting tile face up, autosaved, then saved
        later.files.autosave()
        await pilot.press("ctrl+s")
        await settle(later, pilot)
        await pilot.press("ctrl+q")
        await pilot.pause()
    kept = list(rec.parent.glob("*.kept-*.recovery.json"))
    assert not rec.exists() and len(kept) == 1, "a recovery put off survives autosave, a save and a clean quit"
    app = make_app(path, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.click("#answer-recover")
        await settle(app, pilot)
        assert campaign_to_dict(app.campaign) == edited and app.doc.dirty
        assert app.campaign.levels[0].cell_at(1, 0).face_up and app.campaign.levels[1].cell_at(1, 1) is not None
        assert any(" CR220 " in line for line in problem_lines(app))
        # Recovered work is unsaved work: it is in the recovery file again, and the kept one is gone.
        assert not kept[0].exists() and json.loads(rec.read_text(encoding="utf-8"))["text"] == app.doc.text()


def test_a_recovery_file_written_for_a_draft_is_read_back(tmp_path) -> None:
    """Without the UI: an edited draft's recovery text is offered to the next session and recovered as a draft."""
    path = _draft(tmp_path)
    doc = open_document(path)
    doc.apply(lambda c: edits.toggle_face(c, 0, 1, 0), "Toggle face")
    write_recovery(doc, tmp_path)
    fresh = open_document(path)
    text = read_recovery(fresh, tmp_path)
    assert text == doc.text()
    recover(fresh, text)
    assert fresh.dirty and fresh.campaign == doc.campaign
    assert {d.code for d in load_campaign_text(fresh.text()).errors} == {"CR219", "CR220"}


@run_async
async def test_f6_on_a_draft_says_it_cannot_be_solved_until_fixed(tmp_path) -> None:
    app = make_app(_draft(tmp_path), tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "f6")
        status = str(app.query_one("#solve-status").render())
        assert status.startswith("Cannot solve: the campaign has 2 errors: it cannot be solved, played or published "
                                 "until they are fixed"), status
        assert "CR219" in status and app.solving.solution is None


@run_async
async def test_a_new_author_saves_a_broken_map_reopens_it_fixes_it_and_plays_it(tmp_path) -> None:
    """The journey of issue 12: save with errors, quit, reopen (no refusal), fix with keys, save, F5."""
    path = _draft(tmp_path)
    first = make_app(path, tmp_path)
    async with first.run_test(size=SIZE) as pilot:
        await settle(first, pilot)
        assert any(n.startswith("draft.json opens as a draft with 2 errors") for n in notes(first))
        listed = " ".join(problem_lines(first))
        assert " CR219 " in listed and " CR220 " in listed
        first.canvas.focus()
        await pilot.press("right", "f")  # an edit that fixes nothing: the goblin face up
        await pilot.press("ctrl+s")
        await settle(first, pilot)
        assert any(n.startswith("Saved draft.json with 2 errors") for n in notes(first))
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert load_campaign(path).draft.levels[0].cell_at(1, 0).face_up

    again = make_app(path, tmp_path)
    async with again.run_test(size=SIZE) as pilot:
        await settle(again, pilot)
        assert not isinstance(again.screen, ConfirmScreen)  # a clean quit left no recovery to offer
        again.canvas.focus()
        await pilot.press("home", "f")  # the starting tile face up: CR219 fixed
        await settle(again, pilot)
        assert not any(" CR219 " in line for line in problem_lines(again))
        await pilot.press("ctrl+s")
        await settle(again, pilot)
        assert any(n.startswith("Saved draft.json with 1 error: it cannot be played or published until it is fixed "
                                "(first: CR220") for n in notes(again))
        again.set_level(1)
        again.canvas.cursor = (1, 0)
        again.canvas.focus()
        await pilot.press("x")  # mark the exit: CR220 fixed
        await settle(again, pilot)
        assert not [d for d in again.diagnostics if d.severity is Severity.ERROR], problem_lines(again)
        await pilot.press("ctrl+s")
        await settle(again, pilot)
        assert notes(again)[-1] == "Saved draft.json"
        screen = again.screen
        await pilot.press("f5")
        await pilot.pause()
        assert again.screen is not screen  # the fixed map is played
    assert load_campaign(path).campaign is not None


@pytest.mark.parametrize(("name", "key", "field", "value", "why"), [
    ("50-hero-is-a-goblin.json", "f8", "character", "goblin", "CR217"),
    ("50-hero-is-a-goblin.json", "ctrl+e", "character", "goblin", "CR217"),
    ("26-rules-version.json", "ctrl+e", "rules", "2.0", "rules: '2.0' is not one of"),
])
def test_a_form_opens_on_a_drafts_value_that_is_not_a_choice(tmp_path, name, key, field, value, why) -> None:
    """The draft's value is offered as it is; OK without choosing keeps the form open with what is wrong."""
    path = tmp_path / name
    path.write_bytes((BROKEN / name).read_bytes())

    @run_async
    async def drive() -> None:
        app = make_app(path, tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            await pilot.press(key)
            await pilot.pause()
            form = app.screen
            assert isinstance(form, FormScreen)
            select = form.query_one(f"#form-{field}", Select)
            assert select.selection == value
            assert str(select.query_one("SelectCurrent #label").render()) == f"{value} (not one of the choices)"
            await pilot.press("ctrl+s")
            await pilot.pause()
            error = " ".join(str(label.render()) for label in form.query(".form-error.-shown"))
            assert app.screen is form and why in error and not app.doc.dirty, error
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is not form and not app.doc.dirty

    drive()


@run_async
async def test_f5_and_save_count_the_errors_the_problems_panel_shows(tmp_path) -> None:
    """A map the loader accepts but `cardrogue check` does not (the exit cannot be reached: CR301,
    CR311) is not play-tested either, and its save says it cannot be played or published."""
    data = json.loads(TINY.read_text(encoding="utf-8"))
    data["levels"][1]["cells"][1]["paths"] = "S"  # the exit no longer opens towards the starting tile
    path = tmp_path / "walled.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert load_campaign(path).campaign is not None
    app = make_app(path, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert any(" CR301 " in line for line in problem_lines(app))
        screen = app.screen
        await pilot.press("f5")
        await pilot.pause()
        assert app.screen is screen
        # The first error told is the one to fix, with its place: the unreachable exit (CR301), not the levels
        # left with no way out because of it (one CR311 "... (see CR301)"), which the file lists first.
        assert notes(app)[-1].startswith("Not played: the campaign has 2 errors: it cannot be played until they are "
                                         "fixed (first: CR301 bottom (1, 0): the exit at (1, 0) cannot be reached"), notes(app)
        await press(app, pilot, "ctrl+s")
        assert notes(app)[-1].startswith("Saved walled.json with 2 errors: it cannot be played or published")


@run_async
async def test_a_draft_the_loader_accepts_is_told_as_a_draft_when_it_opens(tmp_path) -> None:
    """Reopening a map saved with a walled exit (the tutorial's step 6): its errors are the checks'
    (CR301, CR311), not the loader's, and the opening says it is a draft all the same, once; a
    draft with a loader error is told once too, and a clean map not at all (docs/editor.md, *Drafts*)."""
    data = json.loads(TINY.read_text(encoding="utf-8"))
    data["levels"][1]["cells"][1]["paths"] = "S"
    walled = tmp_path / "walled.json"
    walled.write_text(json.dumps(data), encoding="utf-8")
    # the draft's first is the panel's first, in the file's order: the campaign's missing exit, then the face
    for path, first in ((walled, "CR301 bottom (1, 0)"), (_draft(tmp_path), "CR220"), (TINY, None)):
        app = make_app(path, tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            told = [n for n in notes(app) if "opens as a draft" in n]
            if first is None:
                assert told == [], path
            else:
                assert len(told) == 1 and told[0].startswith(f"{path.name} opens as a draft with "), (path, told)
                assert f"(first: {first}: " in told[0], told

@run_async
async def test_the_problems_panel_lists_errors_first(tmp_path) -> None:
    """The errors that keep a draft from play come first in the panel, then warnings, then notes, each
    in the file's order: a later level's error is not hidden below an earlier level's notes."""
    data = json.loads(TINY.read_text(encoding="utf-8"))
    data["levels"][1]["cells"].append({"at": [0, 1], "card": "goblin", "paths": "", "face": "down"})  # CR223
    path = tmp_path / "later.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    in_file = [d.severity.value for d in check_text(path.read_text(encoding="utf-8"))]
    assert in_file == ["info", "warning"]  # the first level's chokepoint note comes first in the file
    app = make_app(path, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert [line.split(" ", 2)[:2] for line in problem_lines(app)] == [["W", "CR223"], ["i", "CR307"]]
        app.set_level(1)
        app.canvas.cursor = (0, 0)
        app.canvas.focus()
        await pilot.press("delete")  # the second level's starting tile: an error
        await settle(app, pilot)
        icons = [line.split(" ", 1)[0] for line in problem_lines(app)]
        assert icons == sorted(icons, key="EWi".index) and icons[0] == "E"

def test_a_grid_no_editor_could_draw_is_refused_with_its_cr106(tmp_path) -> None:
    """A grid a little too wide (300, corpus 30) opens as a draft to be fixed; one of 100000 × 100000
    places would hang any map view, so the loader builds no draft and the editor says why."""
    data = json.loads(TINY.read_text(encoding="utf-8"))
    data["levels"][0].update(width=100_000, height=1)
    path = tmp_path / "vast.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert load_campaign(path).draft is None
    with pytest.raises(OpenError) as refused:
        open_document(path)
    assert "CR106: width is 100000; the largest allowed is 256" in str(refused.value)
    assert load_campaign(BROKEN / "30-grid-too-wide.json").draft.levels[0].width == 300


@run_async
async def test_a_draft_opened_from_the_command_line_shows_its_notification_without_a_key(tmp_path) -> None:
    from textual.widgets._toast import Toast

    # Textual's run_test hides toasts unless asked (notifications=False): without it no Toast is mounted,
    # which looked like the notification waiting for a key; in a terminal it shows at once.
    app = make_app(BROKEN / "39-unknown-card.json", tmp_path)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(app, pilot)
        toasts = [str(toast.render()) for toast in app.screen.query(Toast)]
        assert any("39-unknown-card.json opens as a draft with" in text for text in toasts), toasts


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 50)])
@run_async
async def test_a_drafts_notification_leaves_the_problems_panel_in_view(tmp_path, size) -> None:
    """The notice about a draft points to the problems panel: it must not cover it (at the bottom right,
    Textual's default place, it hid the panel's right half at 80x24 for as long as it showed)."""
    from textual.widgets._toast import Toast

    app = make_app(BROKEN / "39-unknown-card.json", tmp_path)
    async with app.run_test(size=size, notifications=True) as pilot:
        await settle(app, pilot)
        toasts = list(app.screen.query(Toast))
        assert toasts, "the draft's notification is shown"
        panel = app.screen.query_one("#problems").region
        for toast in toasts:
            assert not toast.region.overlaps(panel), (toast.region, panel)


CAMPAIGNS = Path(__file__).parents[1] / "campaigns"


async def _retitle_and_save(app, pilot, title: str) -> None:
    """The campaign's title changed in its form (ctrl+e), then the draft saved with its one error."""
    await pilot.press("ctrl+e")
    await pilot.pause()
    form = app.screen
    assert isinstance(form, FormScreen)
    form.query_one("#form-title").value = title
    await press(app, pilot, "ctrl+s")
    assert app.screen is not form and app.doc.dirty
    await press(app, pilot, "ctrl+s")
    assert notes(app)[-1].startswith(f"Saved {app.doc.path.name} with 1 error")


async def _form_ok_mends_and_saves(app, pilot, form) -> None:
    """OK on the open ``form`` closes it with no error left in the draft; ctrl+s then saves the file."""
    await press(app, pilot, "ctrl+s")
    assert app.screen is not form
    assert not [d for d in app.diagnostics if d.severity is Severity.ERROR], problem_lines(app)
    await press(app, pilot, "ctrl+s")


async def _opened_as_draft(app, pilot, path, first: str) -> None:
    """The file at ``path`` opened in the editor as a draft, told once, the note quoting ``first`` (its first
    error as the problems panel words it)."""
    await settle(app, pilot)
    assert app.doc.path == path
    told = [n for n in notes(app) if "opens as a draft" in n]
    assert len(told) == 1 and first in told[0], told


@run_async
async def test_a_misspelt_face_opens_as_a_draft_keeps_the_authors_text_and_f_fixes_it(tmp_path) -> None:
    """``"face": "upp"`` in a cell (a typo of an enum value) opened as a refusal; it opens as a draft
    with the error at its level and cell, a save keeps the author's text and other edits, and f fixes it."""
    data = json.loads((CAMPAIGNS / "a-sons-descent.json").read_text(encoding="utf-8"))
    cell = next(c for c in data["levels"][1]["cells"] if c["card"] != "starting-tile")
    cell["face"] = "upp"
    x, y = cell["at"]
    place = f'CR104 {data["levels"][1]["title"]} ({x}, {y}): face is "upp"; use one of "up", "down"; did you mean "up"?'
    path = tmp_path / "typo.json"
    app = app_on(data, path, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await _opened_as_draft(app, pilot, path, f"(first: {place})")
        assert problem_lines(app) == [f"E {place}"]
        first = app.query_one(ProblemsPanel).diagnostics[0]
        assert (first.code, first.level, first.cell) == ("CR104", 1, (x, y)), first
        await _retitle_and_save(app, pilot, "A Son Mended")  # an edit of the author's elsewhere
        saved = json.loads(path.read_text(encoding="utf-8"))
        assert saved["title"] == "A Son Mended"
        assert [c["face"] for c in saved["levels"][1]["cells"] if c["at"] == [x, y]] == ["upp"]
        app.set_level(1)
        app.canvas.cursor = (x, y)
        app.canvas.focus()
        await pilot.press("f")  # the face key turns the misspelt face down: the error is gone
        await settle(app, pilot)
        assert not [d for d in app.diagnostics if d.severity is Severity.ERROR], problem_lines(app)
        await press(app, pilot, "ctrl+s")
    fixed = load_campaign(path)
    assert fixed.campaign is not None and fixed.campaign.title == "A Son Mended"
    assert fixed.campaign.levels[1].cell_at(x, y).face_up is False


@run_async
async def test_a_misspelt_card_kind_opens_as_a_draft_and_the_card_form_fixes_it(tmp_path) -> None:
    """``"kind": "enemey"`` in a card definition made the editor refuse the file; it opens as a draft, a
    save keeps the author's entry as written, and the card form starts from that entry (its health 7,
    the kind marked as not a choice) to fix it."""
    from cardrogue.editor.widgets.palette import Palette

    data = json.loads((CAMPAIGNS / "two-knives.json").read_text(encoding="utf-8"))
    assert data["cards"] == {"imp": {"health": 7}}
    data["cards"]["imp"]["kind"] = "enemey"
    path = tmp_path / "kind.json"
    app = app_on(data, path, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await _opened_as_draft(app, pilot, path, '(first: CR104 card imp, kind: kind is "enemey"; use one of "enemy"')
        await _retitle_and_save(app, pilot, "Two Knives, Mended")
        saved = json.loads(path.read_text(encoding="utf-8"))
        assert (saved["title"], saved["cards"]) == ("Two Knives, Mended", {"imp": {"health": 7, "kind": "enemey"}})
        app.query_one(Palette).choose("imp")
        await pilot.press("f4")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, FormScreen)
        assert form.query_one("#form-health").value == "7"
        select = form.query_one("#form-kind", Select)
        assert str(select.query_one("SelectCurrent #label").render()) == "enemey (not one of the choices)"
        select.value = "enemy"
        await _form_ok_mends_and_saves(app, pilot, form)
    fixed = load_campaign(path)
    assert fixed.campaign is not None and fixed.campaign.cards["imp"].health == 7
    assert json.loads(path.read_text(encoding="utf-8"))["cards"] == {"imp": {"health": 7}}


@pytest.mark.parametrize("face", ["upp", ""])
def test_f_turns_a_misspelt_face_down_whatever_its_text(face: str) -> None:
    """docs/editor.md: f turns a misspelt face down (the draft keeps the face as its text; an empty text is as
    misspelt as "upp", and ``not ""`` had turned it up)."""
    data = json.loads((CAMPAIGNS / "a-sons-descent.json").read_text(encoding="utf-8"))
    cell = next(c for c in data["levels"][1]["cells"] if c["card"] != "starting-tile")
    cell["face"] = face
    draft = load_campaign_text(json.dumps(data), "typo.json").draft
    assert draft is not None and draft.levels[1].cell_at(*cell["at"]).face_up == face
    turned = edits.toggle_face(draft, 1, *cell["at"])
    assert turned.levels[1].cell_at(*cell["at"]).face_up is False


@run_async
async def test_a_misspelt_goal_verb_opens_as_a_draft_and_g_mends_it(tmp_path) -> None:
    """``{"slayy": "golem"}`` (CR110) made the editor refuse the file; it opens as a draft with the goal's
    problem at its level and its fix in the editor's words, a save keeps the goal as written, and g opens
    the goal's form on the verb meant and the card named, whose OK mends it in place."""
    data = json.loads((CAMPAIGNS / "a-sons-descent.json").read_text(encoding="utf-8"))
    li = next(i for i, lv in enumerate(data["levels"]) if lv.get("goals") == [{"slay": "golem"}])
    data["levels"][li]["goals"] = [{"slayy": "golem"}]
    title = data["levels"][li]["title"]
    place = (f'CR110 {title}, goal: a goal is exactly one of {{"slay": card}}, {{"open": card}} or {{"buy": card}}, '
             'not {"slayy": "golem"}; did you mean {"slay": "golem"}?')
    path = tmp_path / "goal.json"
    app = app_on(data, path, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await _opened_as_draft(app, pilot, path, f"(first: {place}")
        assert problem_lines(app) == [f"E {place} Press g on the map to mend it (its verb and card chosen from "
                                      "lists), or G to remove it"]
        await _retitle_and_save(app, pilot, "A Son Mended")
        saved = json.loads(path.read_text(encoding="utf-8"))
        assert (saved["title"], saved["levels"][li]["goals"]) == ("A Son Mended", [{"slayy": "golem"}])
        app.set_level(li)
        app.canvas.focus()
        await pilot.press("g")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, FormScreen)
        assert (form.query_one("#form-verb", Select).value, form.query_one("#form-card", Select).value) == ("slay", "golem")
        await _form_ok_mends_and_saves(app, pilot, form)
    fixed = load_campaign(path)
    assert fixed.campaign is not None and fixed.campaign.title == "A Son Mended"
    assert json.loads(path.read_text(encoding="utf-8"))["levels"][li]["goals"] == [{"slay": "golem"}]


@run_async
async def test_a_deleted_ladder_is_one_problem_at_its_level_in_the_panel(tmp_path) -> None:
    """The problems panel lists what `cardrogue check` does: the tutorial without its second level's ladder has one
    problem at that level naming the six levels cut off, not a CR310 on each of them."""
    data = json.loads((CAMPAIGNS / "a-sons-descent.json").read_text(encoding="utf-8"))
    data["levels"][1]["cells"] = [c for c in data["levels"][1]["cells"] if c["card"] != "descending-ladder"]
    title = data["levels"][1]["title"]
    app = app_on(data, tmp_path / "cut.json", tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        errors = [line for line in problem_lines(app) if line.startswith("E ")]
        assert [line.split(" ")[1] for line in errors] == ["CR306", "CR311"], errors
        assert errors[0].startswith(f"E CR306 {title}: this level has neither a descending ladder nor an exit, so no "
                                    'ladder path from the first level reaches levels 3 to 8 ("First Blood" (first-blood) '
                                    'to "The Golem\'s Hall" (the-golems-hall))'), errors


@run_async
async def test_the_opening_note_quotes_the_panels_first_error(tmp_path) -> None:
    """docs/editor.md: the first error a note quotes is the panel's first. Opening a draft quoted the loader's first,
    in the order its checks ran (a level's cells before its goals), while the panel lists the file's order (the
    goals first): the note said one error and the panel showed another on top."""
    data = json.loads((CAMPAIGNS / "a-sons-descent.json").read_text(encoding="utf-8"))
    data["levels"][7]["goals"] = [{"slay": "troll"}]
    data["levels"][7]["cells"][1]["card"] = "zzz"
    app = app_on(data, tmp_path / "two.json", tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first = problem_lines(app)[0]
        assert first.startswith("E CR221 "), problem_lines(app)
        told = [n for n in notes(app) if "opens as a draft" in n]
        assert len(told) == 1 and f"(first: {first[2:]})" in told[0], (told, first)


@run_async
async def test_misspelt_keys_open_as_a_draft_kept_as_written_and_enter_on_the_problem_renames_them(tmp_path) -> None:
    """A level's "story" typed "stroy" and a cell's "inscription" typed "inscripton" (CR103) made the editor refuse the
    file; it opens as a draft, an edit elsewhere saves both keys back as written (values and all), and enter on each
    problem offers to rename it to the key meant (or remove it): renamed, the file is the tutorial again."""
    from cardrogue.editor.widgets.dialogs import ChoiceScreen

    data = json.loads((CAMPAIGNS / "a-sons-descent.json").read_text(encoding="utf-8"))
    story = data["levels"][1].pop("story")
    data["levels"][1]["stroy"] = story
    cell = next(c for c in data["levels"][2]["cells"] if c.get("inscription"))
    inscription = cell.pop("inscription")
    cell["inscripton"] = inscription
    path = tmp_path / "keys.json"
    app = app_on(data, path, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await _opened_as_draft(app, pilot, path, "CR103")
        lines = problem_lines(app)
        assert [line.split(" ")[1] for line in lines] == ["CR103", "CR103"], lines
        assert all("renames it to the key meant, or removes it" in line for line in lines), lines
        await pilot.press("ctrl+e")
        await pilot.pause()
        app.screen.query_one("#form-title").value = "A Son Mended"
        await press(app, pilot, "ctrl+s")
        await press(app, pilot, "ctrl+s")
        assert notes(app)[-1].startswith(f"Saved {path.name} with 2 errors")
        saved = json.loads(path.read_text(encoding="utf-8"))
        assert saved["levels"][1]["stroy"] == story and "story" not in saved["levels"][1]
        assert [c["inscripton"] for c in saved["levels"][2]["cells"] if "inscripton" in c] == [inscription]
        for _ in range(2):
            await press(app, pilot, "ctrl+k", "enter")
            assert isinstance(app.screen, ChoiceScreen)
            await pilot.press("enter")  # the first choice: rename it to the key meant
            await settle(app, pilot)
        assert not [d for d in app.diagnostics if d.severity is Severity.ERROR], problem_lines(app)
        await press(app, pilot, "ctrl+s")
    mended = json.loads(path.read_text(encoding="utf-8"))
    assert mended["levels"][1]["story"] == story and "stroy" not in mended["levels"][1]
    original = json.loads((CAMPAIGNS / "a-sons-descent.json").read_text(encoding="utf-8"))
    assert {**mended, "title": original["title"]} == original


@run_async
async def test_a_misspelt_key_chosen_after_an_unchecked_level_move_is_out_of_date_not_mended_elsewhere(
        tmp_path, monkeypatch) -> None:
    """The problems panel keeps its problems until the next check ends. Level 2's "stroy" (CR103) chosen after level 2
    was moved below level 3, before a check ended: its path (levels[1]) led to level 3's "stroy", which Rename
    renamed. The mend is of the key the check found: the editor says the problem is out of date, edits nothing and
    checks again; chosen anew, each problem renames its own level's key."""
    from cardrogue.editor.widgets.dialogs import ChoiceScreen

    data = json.loads((CAMPAIGNS / "a-sons-descent.json").read_text(encoding="utf-8"))
    stories = {}
    for level in data["levels"][1:3]:
        stories[level["id"]] = level["stroy"] = level.pop("story")
    ids = [level["id"] for level in data["levels"]]
    path = tmp_path / "keys.json"
    app = app_on(data, path, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await _opened_as_draft(app, pilot, path, "CR103")
        asked = []
        start = app.checker.start
        monkeypatch.setattr(app.checker, "start", asked.append)  # checks asked for, none ended
        app.set_level(1)
        app.action_move_level(1)
        await settle(app, pilot)
        assert [level.id for level in app.campaign.levels][:3] == [ids[0], ids[2], ids[1]] and len(asked) == 1
        moved, on = app.campaign, app.level_index
        await pilot.press("ctrl+k", "enter")  # the first problem listed: level 2's "stroy", at levels[1] when checked
        await settle(app, pilot)
        if isinstance(app.screen, ChoiceScreen):
            await pilot.press("enter")  # Rename
            await settle(app, pilot)
        assert app.campaign is moved, "a key was mended where the problem's path leads now, not where it was found"
        assert app.level_index == on, "the editor went to the level the stale path leads to now"
        assert "This problem is out of date" in notes(app)[-1] and len(asked) == 2, notes(app)[-1:]
        monkeypatch.setattr(app.checker, "start", start)
        start(asked[-1])  # the check asked for, run
        await settle(app, pilot)
        for _ in range(2):
            await pilot.press("ctrl+k", "enter")
            await settle(app, pilot)
            assert isinstance(app.screen, ChoiceScreen)
            await pilot.press("enter")
            await settle(app, pilot)
        assert not [d for d in app.diagnostics if d.severity is Severity.ERROR], problem_lines(app)
        levels = {level["id"]: level for level in campaign_to_dict(app.campaign)["levels"]}
        assert {li: levels[li].get("story") for li in stories} == stories and not any("stroy" in lv for lv in levels.values())


def test_a_misspelt_cell_key_is_mended_only_where_the_check_found_it() -> None:
    """Two cells of a level with "inscripton" (CR103): the first removed, the path the check gave the second's key
    (cells[k]) leads to another cell's; a level removed, it leads into another level. Each mend of a path that no
    longer leads to the key checked is refused (edits.OutOfDate), nothing changed; on the campaign checked, it mends."""
    data = json.loads((CAMPAIGNS / "a-sons-descent.json").read_text(encoding="utf-8"))
    for level in data["levels"][1:3]:
        for cell in [c for c in level["cells"] if c["card"] != "starting-tile" and "inscription" not in c][:3]:
            cell["inscripton"] = f"{level['id']} {cell['at']}"
    checked = load_campaign_text(json.dumps(data), "keys.json").draft
    found = [d.path for d in check_text(json.dumps(data)) if d.code == "CR103"]
    second = found[1]  # the level's second cell with the key
    assert second[:2] == ("levels", 1) and second[-1] == "inscripton", found
    x, y = data["levels"][1]["cells"][found[0][3]]["at"]
    for edited in (edits.delete_cells(checked, 1, edits.Rect(x, y, x, y)), edits.remove_level(checked, 0),
                   edits.move_level(checked, 1, 1)):
        assert campaign_to_dict(edited)["levels"][1]["cells"][second[3]].get("inscripton")  # a key of the spelling there
        with pytest.raises(edits.OutOfDate):
            edits.mend_key(edited, second, "inscription", checked)
    mended = campaign_to_dict(edits.mend_key(checked, second, "inscription", checked))
    assert mended["levels"][1]["cells"][second[3]]["inscription"] == data["levels"][1]["cells"][second[3]]["inscripton"]


def test_after_one_misspelt_key_is_mended_the_others_found_by_the_same_check_still_mend() -> None:
    """The problems panel keeps the check's problems while the next check runs: after one key is mended (an edit), the
    others still lead to their own keys, though the level and the campaign that hold them changed. Comparing the
    whole object holding a key had refused every other mend until a check ended (a level's key compared with the
    level, cells and all; a top-level key with the whole campaign)."""
    data = json.loads((CAMPAIGNS / "a-sons-descent.json").read_text(encoding="utf-8"))
    cell = next(c for c in data["levels"][1]["cells"] if c["card"] != "starting-tile" and "inscription" not in c)
    cell["inscripton"] = "Turn back."
    data["levels"][1]["stroy"] = data["levels"][1].pop("story")
    data["descripton"] = "A son goes down."
    checked = load_campaign_text(json.dumps(data), "keys.json").draft
    found = [d.path for d in check_text(json.dumps(data)) if d.code == "CR103"]
    assert {path[-1] for path in found} == {"inscripton", "stroy", "descripton"}, found
    campaign = checked
    for path in sorted(found, key=len, reverse=True):  # the cell's first, then the level's, then the campaign's
        assert edits.key_unchanged(checked, campaign, path), path
        campaign = edits.mend_key(campaign, path, None, checked)
    assert not campaign_to_dict(campaign).get("descripton") and not campaign.unknown


def test_a_misspelt_key_of_the_hero_potions_a_card_or_a_practice_hero_is_kept_and_mended() -> None:
    """The hero's "itemz", a potion colour "yelow", a card entry's "textt" and a level hero's "helth" are each kept
    as written through the edits that rebuild their object (the metadata form sets the hero, F7 the potions), and
    edits.mend_key renames each to the key meant (or removes it); a rename onto a key already there is refused."""
    data = json.loads((CAMPAIGNS / "a-sons-descent.json").read_text(encoding="utf-8"))
    data["potions"]["yelow"] = "poison"
    entry = data["cards"]["shopkeepers-debt"]
    entry["textt"] = entry.pop("text")
    data["hero"]["itemz"] = data["hero"].pop("items")
    data["levels"][0]["hero"] = {"helth": 4}
    draft = load_campaign_text(json.dumps(data), "keys.json").draft
    assert draft is not None
    kept = edits.set_hero_checked(draft, "warrior", ["gold"], [])
    kept = edits.set_potions(kept, {"red": "healing", "blue": "strength"})
    saved = campaign_to_dict(kept)
    assert (saved["hero"]["itemz"], saved["potions"]["yelow"]) == (["gold", "gold", "gold"], "poison")
    for path, to in ((("hero", "itemz"), "items"), (("potions", "yelow"), "yellow"),
                     (("cards", "shopkeepers-debt", "textt"), "text"), (("levels", 0, "hero", "helth"), "health")):
        draft = edits.mend_key(draft, path, to)
    assert not [d for d in check_text(json.dumps(campaign_to_dict(draft))) if d.severity is Severity.ERROR]
    assert (draft.hero.items, draft.potions["yellow"], draft.levels[0].hero.health) == (("gold",) * 3, "poison", 4)
    data["hero"]["items"] = ["gold"]
    both = load_campaign_text(json.dumps(data), "keys.json").draft
    with pytest.raises(ValueError, match="'items' is there already"):
        edits.mend_key(both, ("hero", "itemz"), "items")
    assert edits.mend_key(both, ("hero", "itemz"), None).hero.unknown == ()


@run_async
async def test_f7_on_a_draft_whose_seed_is_out_of_range_says_so_in_its_labels(tmp_path) -> None:
    """A draft's seed of -5 (CR1xx: out of the schema's range) opens; F7 read what the seed makes each colour not set
    and raised struct.error, a traceback that ended the editor. The form opens, its labels say the seed gives no
    effect until it is in range."""
    data = json.loads((CAMPAIGNS / "a-sons-descent.json").read_text(encoding="utf-8"))
    data["seed"] = -5
    path = tmp_path / "seed.json"
    app = app_on(data, path, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.doc.campaign.seed == -5
        await press(app, pilot, "f7")
        assert isinstance(app.screen, FormScreen)
        labels = " ".join(str(label.render()) for label in app.screen.query("Label"))
        assert "no seed gives it an effect until the seed is a whole number" in labels, labels


@run_async
async def test_a_goal_the_level_cannot_meet_is_said_once_beside_its_level(tmp_path) -> None:
    """walk 27: a goal to slay a troll the level does not hold read `E CR221 The Niche, goal: goal: slay 'troll', but
    no 'troll' is on level 1 "The Niche" (the-niche)` in the problems list: the place said "goal" and the level, and
    the message said them again. The list says the level as "this level" beside its name (as CR306 and CR311 do);
    `cardrogue check`, with no level beside the message, keeps it whole."""
    data = json.loads((CAMPAIGNS / "two-knives.json").read_text(encoding="utf-8"))
    data["levels"][0]["goals"] = [{"slay": "troll"}]
    app = app_on(data, tmp_path / "troll.json", tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        line = next(line for line in problem_lines(app) if " CR221 " in line)
        assert line == ("E CR221 The Niche, goal: slay 'troll', but no 'troll' is on this level; place what the goal "
                        "names, or press G on the map to remove the goal"), line
    said = [d.render() for d in check_text(json.dumps(data, indent=2), "troll.json") if d.code == "CR221"]
    assert said == ["troll.json:40:19: CR221: goal: slay 'troll', but no 'troll' is on level 1 \"The Niche\" "
                    "(the-niche) [$.levels[0].goals[0].slay]"], said
