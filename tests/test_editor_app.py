"""The editor app driven by Pilot: editing, undo, files, recovery, problems."""

from __future__ import annotations

import json
import os
from dataclasses import replace

import pytest

from textual.widgets import Input, Label, TabbedContent

from cardrogue.editor import edits
from cardrogue.editor.app import EditorApp
from cardrogue.editor.files import write_recovery
from cardrogue.editor.phrasing import editor_message
from cardrogue.editor.widgets.dialogs import ConfirmScreen, FormScreen, PathScreen
from cardrogue.editor.widgets.map_canvas import CELL_H, CELL_W, MapCanvas
from cardrogue.editor.widgets.palette import Palette
from cardrogue.editor.widgets.problems import ProblemsPanel
from cardrogue.engine.format.canonical import campaign_to_dict, dumps
from cardrogue.engine.format.loader import load_campaign
from cardrogue.engine.format.resources import default_campaign
from cardrogue.engine.model.campaign import LevelHero
from editor_support import SIZE, form_error, make_app, press, settle
from helpers import colour_at, effective_colour, notes, recorded, run_async


def cell(app: EditorApp, x: int, y: int, level: int | None = None):
    return app.campaign.levels[app.level_index if level is None else level].cell_at(x, y)


@run_async
async def test_cursor_and_place_rotate_face_delete(campaign_file, tmp_path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.canvas.cursor == (0, 0)
        await pilot.press("down", "right", "right", "right", "up")
        assert app.canvas.cursor == (3, 0)
        app.query_one(Palette).choose("goblin")
        await pilot.press("enter")
        assert cell(app, 3, 0).card == "goblin"
        await pilot.press("r")
        assert cell(app, 3, 0).paths == "W"  # S turned clockwise
        await pilot.press("f")
        assert cell(app, 3, 0).face_up
        await pilot.press("n")
        assert cell(app, 3, 0).paths == "NW"
        await pilot.press("x")
        assert cell(app, 3, 0).exit
        await pilot.press("delete")
        assert cell(app, 3, 0) is None
        assert app.doc.dirty


@run_async
async def test_cursor_is_reactive_state(campaign_file, tmp_path) -> None:
    """Setting the canvas's cursor keeps it inside the grid and shows the new cell in the inspector."""
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        level = app.campaign.levels[app.level_index]
        app.canvas.cursor = (99, -5)
        await pilot.pause()
        assert app.canvas.cursor == (level.width - 1, 0)
        summary = str(app.query_one("#inspector-summary").render())
        assert f"({level.width - 1}, 0)" in summary


@run_async
async def test_undo_redo_every_edit(campaign_file, tmp_path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        original = app.campaign
        await pilot.press("down", "right", "f", "r", "delete")
        assert cell(app, 1, 1) is None
        await pilot.press("ctrl+z")
        assert cell(app, 1, 1).paths == "NS"
        await pilot.press("ctrl+z", "ctrl+z")
        assert app.campaign is original and not app.doc.dirty
        await pilot.press("ctrl+y", "ctrl+y", "ctrl+y")
        assert cell(app, 1, 1) is None
        await pilot.press("ctrl+z", "ctrl+z", "ctrl+z")
        assert app.campaign is original


@run_async
async def test_copy_paste_rectangle(campaign_file, tmp_path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("down", "right", "shift+right", "shift+down")
        assert app.canvas.selection.width == 2 and app.canvas.selection.height == 2
        await pilot.press("c", "escape", "up", "up", "right")
        assert app.canvas.cursor == (3, 0)
        await pilot.press("v")
        assert cell(app, 3, 0).card == "pathing-tile"
        assert cell(app, 4, 1).card == "red-potion"
        await pilot.press("ctrl+z")
        assert cell(app, 4, 1).card == "descending-ladder"


@run_async
async def test_mouse_click_selects_and_drag_paints(campaign_file, tmp_path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.query_one(Palette).choose("goblin")
        canvas = app.query_one(MapCanvas)
        await pilot.click(MapCanvas, offset=(2 * CELL_W + 2, 1 * CELL_H + 1))
        assert canvas.cursor == (2, 1)
        assert cell(app, 2, 1).card == "spike-trap" or cell(app, 2, 1).card == "pathing-tile"  # a click only selects
        await pilot.mouse_down(MapCanvas, offset=(0 * CELL_W + 2, 0 * CELL_H + 1))
        await pilot.hover(MapCanvas, offset=(1 * CELL_W + 2, 0 * CELL_H + 1))
        await pilot.hover(MapCanvas, offset=(2 * CELL_W + 2, 0 * CELL_H + 1))
        await pilot.mouse_up(MapCanvas, offset=(2 * CELL_W + 2, 0 * CELL_H + 1))
        await pilot.pause()
        assert [cell(app, x, 0).card for x in range(3)] == ["goblin"] * 3
        # Each card joins the one it was dragged from, not the cards below it.
        assert [cell(app, x, 0).paths for x in range(3)] == ["E", "EW", "W"]
        assert cell(app, 1, 1).paths == "EW" and cell(app, 2, 1).paths == "ESW"
        await pilot.press("ctrl+z")  # one drag, one undo step
        assert [cell(app, x, 0) for x in range(3)] == [None] * 3


@run_async
async def test_level_operations_and_undo(campaign_file, tmp_path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+l")
        await pilot.press("a")
        assert len(app.campaign.levels) == 4 and app.level_index == 1
        await pilot.press("d")
        assert app.campaign.levels[2].id == "level-2-copy" and app.level_index == 2
        await pilot.press("left_square_bracket")
        assert app.campaign.levels[1].id == "level-2-copy" and app.level_index == 1
        await pilot.press("delete")
        assert [lv.id for lv in app.campaign.levels] == ["the-cave-in", "level-2", "the-old-shop", "the-way-out"]
        await pilot.press("p")
        assert isinstance(app.screen, FormScreen)
        app.screen.query_one("#form-width").value = "8"
        app.screen.query_one("#form-title").value = "Big room"
        await pilot.press("enter")
        assert (app.campaign.levels[app.level_index].width, app.campaign.levels[app.level_index].title) == (8, "Big room")
        for _ in range(5):
            await pilot.press("ctrl+z")
        assert len(app.campaign.levels) == 3 and not app.doc.dirty


@run_async
async def test_metadata_hero_seed(campaign_file, tmp_path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+e")
        assert isinstance(app.screen, FormScreen)
        for field, bad, why in (("id", "Bad Id", "id: 'Bad Id' does not match"),
                                ("seed", str(2**64), "seed: 18446744073709551616 is greater than the maximum"),
                                ("seed", "-3", "the seed is a whole number"), ("title", "", "title: '' should be non-empty")):
            good = app.screen.query_one(f"#form-{field}").value
            app.screen.query_one(f"#form-{field}").value = bad
            await pilot.press("ctrl+s")
            assert isinstance(app.screen, FormScreen)  # refused: the form stays open and says why
            assert why in form_error(app, field)  # under the field it is about
            app.screen.query_one(f"#form-{field}").value = good
            await pilot.pause()
            assert form_error(app, field) == ""  # about the old value: gone once the field is edited
        app.screen.query_one("#form-seed").value = "42"
        app.screen.query_one("#form-character").value = "rogue"
        app.screen.query_one("#form-title").value = "Another Descent"
        await pilot.press("ctrl+s")
        assert (app.campaign.seed, app.campaign.hero.character, app.campaign.title) == (42, "rogue", "Another Descent")
        await pilot.press("ctrl+z")
        assert app.campaign.seed == 20261121


@run_async
async def test_inspector_inscription_and_rolls(campaign_file, tmp_path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("down", "right")
        app.query_one("#inspector-rolls").focus()
        await pilot.press(*"6 6 1", "enter")
        assert cell(app, 1, 1).rolls == (6, 6, 1)
        app.query_one("#inspector-inscription").focus()
        await pilot.press(*"Beware", "enter")
        assert cell(app, 1, 1).inscription == "Beware"
        app.query_one("#inspector-rolls").value = "9"
        app.query_one("#inspector-rolls").focus()
        await pilot.press("enter")
        assert cell(app, 1, 1).rolls == (6, 6, 1)  # refused: not a d6 roll


@run_async
async def test_a_cell_field_typed_and_left_without_enter_is_kept(campaign_file, tmp_path) -> None:
    """Text typed in the Cell panel is applied to its cell when the field is left (ctrl+g, tab, a
    click on the map) or the file is saved, not only on enter: it was lost when the cursor moved,
    and ctrl+s saved without it."""
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("down", "right")  # (1, 1)
        await press(app, pilot, "ctrl+t", *"A cold wind", "ctrl+g", "right")
        assert cell(app, 1, 1).inscription == "A cold wind" and cell(app, 2, 1).inscription == ""
        await pilot.press("ctrl+t", *"Teeth", "tab", *"6 1")  # tab to the rolls: the inscription is kept
        await pilot.click(MapCanvas, offset=(3 * CELL_W + 2, 1 * CELL_H + 1))  # a click elsewhere
        await settle(app, pilot)
        assert app.canvas.cursor == (3, 1)
        assert (cell(app, 2, 1).inscription, cell(app, 2, 1).rolls) == ("Teeth", (6, 1))
        assert cell(app, 3, 1).rolls == ()
        await pilot.press("ctrl+r", *"9", "ctrl+g")  # not a d6 roll: refused, said so, the cell unchanged
        await settle(app, pilot)
        assert cell(app, 3, 1).rolls == () and "'9' is not a d6 roll (1 to 6)" in [n.message for n in app._notifications]
        await pilot.press("ctrl+t", *"Saved with it", "ctrl+s")  # saving takes what is typed
        await settle(app, pilot)
        saved = load_campaign(campaign_file).campaign
        assert saved.levels[app.level_index].cell_at(3, 1).inscription == "Saved with it"
        assert not app.doc.dirty


@run_async
async def test_a_check_that_ends_while_a_cell_field_is_typed_in_keeps_the_text(campaign_file, tmp_path) -> None:
    """Every edit starts a check; when it ends the Cell panel shows its cell again. It wiped the field being typed
    in (and what was typed) when the check ended mid-word; the text typed stays, and an edit applied on leaving a
    field is undone at its own cell, not at the cursor's."""
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("down", "right")  # (1, 1)
        await pilot.press("ctrl+t", *"Half a")
        app._checks_done(app.diagnostics)  # a check ends now, as one started by an edit would
        await pilot.pause()
        await pilot.press(*" word")
        assert app.query_one("#inspector-inscription").value == "Half a word"
        await pilot.click(MapCanvas, offset=(3 * CELL_W + 2, 1 * CELL_H + 1))  # leaving the field applies it
        await settle(app, pilot)
        assert cell(app, 1, 1).inscription == "Half a word" and app.canvas.cursor == (3, 1)
        await press(app, pilot, "ctrl+z")
        assert cell(app, 1, 1).inscription == "" and app.canvas.cursor == (1, 1)


@run_async
async def test_story_editor_edits_story_and_preface(campaign_file, tmp_path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("f3")
        area = app.query_one("#story-source")
        area.load_text("# New preface")
        await pilot.pause()
        assert app.campaign.levels[0].story == "# New preface"
        await pilot.press("ctrl+l", "home")
        await pilot.pause()
        assert app.story_level is None
        app.query_one("#story-source").load_text("The campaign story")
        await pilot.pause()
        assert app.campaign.story == "The campaign story"
        assert app.campaign.levels[0].story == "# New preface"


@run_async
async def test_f2_from_the_story_shows_the_map_and_its_keys_reach_it(campaign_file, tmp_path) -> None:
    """F3 then F2: the map tab stayed the story (the focus, left in the hidden source, went on to the
    preview and the tab followed it), and the keys typed next reached no map."""
    from textual.widgets import TabbedContent

    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "f3")
        await press(app, pilot, "f2")
        assert app.query_one(TabbedContent).active == "map" and app.focused is app.canvas
        await press(app, pilot, "right")
        assert app.canvas.cursor == (1, 0)


@run_async
async def test_save_load_round_trip(campaign_file, tmp_path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("right", "right", "right", "enter")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not app.doc.dirty
    text = campaign_file.read_text(encoding="utf-8")
    loaded = load_campaign(campaign_file)
    assert loaded.campaign is not None
    assert loaded.campaign.levels[0].cell_at(3, 0).card == "pathing-tile"
    assert text == dumps(campaign_to_dict(loaded.campaign, schema_ref=loaded.data["$schema"]))


@run_async
async def test_a_read_only_file_is_not_saved_over(campaign_file, tmp_path, monkeypatch) -> None:
    """An author who opened a read-only campaign and saved had the file replaced without a word (the
    save renames a new file over it, which the file's mode does not stop). The save is refused with
    the file named, the work stays in the editor and in its recovery draft (the autosaved one was
    removed before the save was tried), and Save as is offered. Root writes any file, so the system's
    answer (``os.access``) is set aside for this file."""
    import os
    from pathlib import Path

    from cardrogue.editor.files import recovery_path

    before = campaign_file.read_bytes()
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: Path(p) != campaign_file and real(p, mode, **kw))
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        said = notes(app)
        await pilot.press("right", "right", "right", "enter")
        app.files.autosave()
        await press(app, pilot, "right", "enter", "ctrl+s")
        assert campaign_file.read_bytes() == before and app.doc.dirty
        draft = recovery_path(app.doc, tmp_path / "recovery")
        assert json.loads(draft.read_text(encoding="utf-8"))["text"] == app.doc.text()
        assert said == [f"Could not save {campaign_file}: the file is read-only; the file is unchanged. Your work "
                        f"is kept in the editor and in its recovery draft {draft}: use Save as (f12) to save it "
                        "to another file"]


@run_async
async def test_template_save_asks_where(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    app = EditorApp(recovery_dir=tmp_path / "rec", autosave_seconds=3600, cursor_blink=False)
    before = default_campaign().read_bytes()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("enter", "ctrl+s")
        assert isinstance(app.screen, PathScreen)
        field = app.screen.query_one("#path-input")
        field.value = str(default_campaign())
        await pilot.press("enter")
        assert default_campaign().read_bytes() == before  # refused
        await pilot.press("ctrl+s")
        app.screen.query_one("#path-input").value = str(tmp_path / "mine.json")
        await pilot.press("enter")
        await pilot.pause()
        assert app.doc.path == tmp_path / "mine.json" and not app.doc.dirty
    assert (tmp_path / "mine.json").exists()
    assert default_campaign().read_bytes() == before


@run_async
async def test_quit_over_a_path_typed_in_save_as_keeps_it(tmp_path, monkeypatch) -> None:
    """ctrl+q over Save as with a path typed closed the dialog, the path lost (review); a form with values typed
    already held the quit. The dialog stays with the path and says how to go on; untouched, the quit goes on."""
    monkeypatch.chdir(tmp_path)
    app = EditorApp(recovery_dir=tmp_path / "rec", autosave_seconds=3600, cursor_blink=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("enter", "ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, PathScreen)
        field = app.screen.query_one("#path-input", Input)
        field.value = "mine/the-long-way.json"
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, PathScreen) and field.value == "mine/the-long-way.json"
        assert "Not quit" in str(app.screen.query_one("#file-error", Label).render())


@run_async
async def test_quit_over_the_save_as_dialog_asks_with_one_dialog(tmp_path, monkeypatch) -> None:
    """ctrl+q while Save as is open (the template's first ctrl+s), then Save: a second Save as dialog
    opened over the first, so escape on it showed the same dialog again instead of the editor (walk 18).
    The quit closes the dialog it finds open before it asks."""
    monkeypatch.chdir(tmp_path)
    app = EditorApp(recovery_dir=tmp_path / "rec", autosave_seconds=3600, cursor_blink=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("enter", "ctrl+s")  # (no settle over the file tree: its worker may be cancelled)
        await pilot.pause()
        assert isinstance(app.screen, PathScreen)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.click("#answer-save")
        await pilot.pause()
        assert sum(isinstance(s, PathScreen) for s in app.screen_stack) == 1
        await pilot.press("escape")
        await pilot.pause()
        assert app.is_running and len(app.screen_stack) == 1 and app.doc.dirty


@run_async
async def test_a_new_name_without_json_is_saved_as_json(tmp_path, monkeypatch) -> None:
    """`cardrogue edit mymap` (and Save as `mymap`) wrote a file named `mymap`, which the open dialog and
    `cardrogue check FOLDER` (both list *.json) never showed again: a new name without a suffix gets `.json`;
    an existing file keeps its name, and `cardrogue edit mymap` opens `mymap.json` once it exists."""
    from cardrogue.editor.files import document_for

    doc = document_for(tmp_path / "mymap")
    assert doc.path == tmp_path / "mymap.json" and doc.campaign.id == "mymap"
    (tmp_path / "mymap.json").write_text(default_campaign().read_text())
    assert document_for(tmp_path / "mymap").path == tmp_path / "mymap.json"  # opened, not made anew
    monkeypatch.chdir(tmp_path)
    app = EditorApp(recovery_dir=tmp_path / "rec", autosave_seconds=3600, cursor_blink=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("enter", "ctrl+s")
        assert isinstance(app.screen, PathScreen)
        app.screen.query_one("#path-input").value = str(tmp_path / "second")
        await pilot.press("enter")
        await pilot.pause()
        assert app.doc.path == tmp_path / "second.json" and not app.doc.dirty
    assert (tmp_path / "second.json").exists() and not (tmp_path / "second").exists()


@run_async
async def test_quit_guard(campaign_file, tmp_path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("down", "right", "f", "ctrl+q")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.click("#answer-cancel")
        assert app.is_running and app.doc.dirty
        await pilot.press("ctrl+q")
        await pilot.click("#answer-save")
        await pilot.pause()
    assert app.return_value == 0
    assert load_campaign(campaign_file).campaign.levels[0].cell_at(1, 1).face_up
    assert not app.doc.dirty


@pytest.mark.parametrize("keys", [("ctrl+e",), ("f4",), ("f7",), ("f8",), ("ctrl+l", "p")])
@run_async
async def test_an_untouched_form_does_not_stop_a_quit(campaign_file, tmp_path, keys) -> None:
    """Every form opened and left as it is: ctrl+q quits (its values read back as they were given)."""
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, *keys)
        assert isinstance(app.screen, FormScreen) and not app.screen.changed()
        await press(app, pilot, "ctrl+q")
    assert app.return_value == 0


@run_async
async def test_quit_pressed_again_asks_once(campaign_file, tmp_path) -> None:
    """ctrl+q pressed again while the unsaved-changes question is up (a habit: quit, quit) stacked a
    second question, then a third, each to answer before the editor came back (walk 18)."""
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "down", "right", "f", "ctrl+q", "ctrl+q", "ctrl+q")
        assert sum(isinstance(s, ConfirmScreen) for s in app.screen_stack) == 1
        await pilot.click("#answer-cancel")
        await settle(app, pilot)
        assert app.is_running and not isinstance(app.screen, ConfirmScreen) and app.doc.dirty


@run_async
async def test_recovery_offered_after_crash(campaign_file, tmp_path) -> None:
    rec = tmp_path / "recovery"
    crashed = make_app(campaign_file, tmp_path)
    async with crashed.run_test(size=SIZE) as pilot:
        await settle(crashed, pilot)
        await pilot.press("down", "right", "f")
        crashed.files.autosave()
        assert any(rec.iterdir())
    # the session "crashed": the recovery file stays; a new session offers it
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.click("#answer-recover")
        await pilot.pause()
        assert cell(app, 1, 1, 0).face_up and app.doc.dirty
        await pilot.press("ctrl+z")
        assert not cell(app, 1, 1, 0).face_up


@run_async
async def test_disk_change_warning(campaign_file, tmp_path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        campaign_file.write_text(campaign_file.read_text() + "\n")
        app.files.check_disk()
        await pilot.pause()
        assert app.files.disk_warned
        await pilot.press("down", "right", "f", "ctrl+s")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.click("#answer-cancel")
        assert app.doc.dirty


@run_async
async def test_a_file_rewritten_with_the_same_bytes_has_not_changed_on_disk(campaign_file, tmp_path) -> None:
    """walk 27: docs/authoring.md's tutorial records par (ctrl+p), saves, then runs `cardrogue solve --write-par`,
    which rewrote the very bytes the editor had saved: the editor said the file "changed on disk since it was
    opened", and the next ctrl+s asked to overwrite it. A file whose time changed but not its bytes is the same
    file; a real change is still told (test_disk_change_warning)."""
    app = make_app(campaign_file, tmp_path)
    said = notes(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.files.check_disk()  # a quiet check, as the 2 s interval makes (it dropped the digest: review 27)
        stat = campaign_file.stat()
        campaign_file.write_bytes(campaign_file.read_bytes())  # as --write-par does: the same text, a new mtime
        os.utime(campaign_file, ns=(stat.st_atime_ns, stat.st_mtime_ns + 2_000_000_000))
        app.files.check_disk()
        await pilot.pause()
        assert not app.files.disk_warned and not any("changed on disk" in n for n in said), said
        await pilot.press("down", "right", "f", "ctrl+s")
        await settle(app, pilot)
        assert not isinstance(app.screen, ConfirmScreen) and not app.doc.dirty
        app.files.check_disk()
        saved = campaign_file.stat()  # the editor's own save, rewritten as it was, is the same file too
        campaign_file.write_bytes(campaign_file.read_bytes())
        os.utime(campaign_file, ns=(saved.st_atime_ns, saved.st_mtime_ns + 2_000_000_000))
        app.files.check_disk()
        await pilot.pause()
        assert not app.files.disk_warned, said


@run_async
async def test_a_save_between_the_open_and_the_editors_first_look_is_told(campaign_file, tmp_path) -> None:
    """Review 27: the file was stamped as the editor started, after the document was read: another program's save
    in between was taken for the file opened, and ctrl+s overwrote it unasked. It is told as a change on disk."""
    from cardrogue.editor.app import EditorApp
    from cardrogue.editor.files import open_document

    doc = open_document(campaign_file)
    data = json.loads(campaign_file.read_text())
    data["title"] = "Their save"
    campaign_file.write_text(json.dumps(data, indent=2))  # another program's save, before the editor looks
    app = EditorApp(doc, recovery_dir=tmp_path / "recovery", autosave_seconds=3600, cursor_blink=False)
    said = notes(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.files.check_disk()
        await pilot.pause()
        assert app.files.disk_warned and any("changed on disk" in n for n in said), said
        await pilot.press("down", "right", "f", "ctrl+s")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmScreen)  # overwrite it? asked
    assert "Their save" in campaign_file.read_text()


def test_a_file_changed_while_it_is_read_is_told_as_changed(tmp_path, monkeypatch) -> None:
    """Review 27: the digest was of the bytes read, the time and size of the file after them: another program's
    atomic save in between gave a stamp of the new file with the old bytes' digest, and its change was never
    told (ctrl+s then overwrote it). A file that changed while read keeps no digest: its next change is told."""
    from cardrogue.editor import files

    path = tmp_path / "story.json"
    path.write_bytes(b"old bytes")
    real = files.read_limited

    def read_then_replaced(where, limit):
        data = real(where, limit)
        path.write_bytes(b"new bytes")  # a save between the read and the stat (of the same size)
        return data

    monkeypatch.setattr(files, "read_limited", read_then_replaced)
    stamp = files.DiskStamp.read(path)
    monkeypatch.setattr(files, "read_limited", real)
    assert stamp is not None and stamp.still(path) == stamp  # its time and size are the file's now
    stat = path.stat()
    path.write_bytes(b"old bytes")  # back to what was read, with a new time: not the bytes of the stamp's time
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 2_000_000_000))
    assert stamp.still(path) is None


@run_async
async def test_problems_panel_updates_and_jumps(campaign_file, tmp_path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert not any(d.severity.value == "error" for d in app.diagnostics)
        # remove the starting tile of level 3: an error the checks report at once
        await pilot.press("ctrl+l", "down", "down", "down")
        await pilot.pause()
        assert app.level_index == 2
        await press(app, pilot, "ctrl+g", "delete")
        errors = [d for d in app.diagnostics if d.severity.value == "error"]
        assert errors and any(d.level == 2 for d in errors)
        panel = app.query_one(ProblemsPanel)
        assert sorted(panel.diagnostics, key=repr) == sorted(app.diagnostics, key=repr)  # errors first, all of them
        # a problem on a cell: a card with no paths on the first level
        await pilot.press("ctrl+l", "down")
        await pilot.pause()
        assert app.level_index == 0
        await pilot.press("ctrl+g", "down", "down", "right", "right", "n")
        assert cell(app, 2, 2).paths == ""
        await settle(app, pilot)
        await pilot.press("ctrl+l", "down")
        await pilot.pause()
        assert app.level_index == 1
        target = next(i for i, d in enumerate(panel.diagnostics) if d.cell == (2, 2) and d.level == 0)
        await pilot.press("ctrl+k")
        app.query_one("#problems-list").highlighted = target
        await pilot.press("enter")
        await pilot.pause()
        d = panel.diagnostics[target]
        assert app.level_index == d.level and app.canvas.cursor == d.cell
        assert app.focused is app.canvas


@run_async
async def test_enter_on_a_storys_problem_opens_that_story(campaign_file, tmp_path) -> None:
    """A story's problem (CR228: a terminal escape the hub refuses) is fixed in the story's source:
    enter on it opens the Story tab on that story, the level's preface or the campaign's."""
    doc = json.loads(campaign_file.read_text())
    doc["story"] = "Bell \x07"
    doc["levels"][1]["story"] = "Red \x1b[31malert"
    campaign_file.write_text(json.dumps(doc))
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        for path, level, text in (("$.levels[1].story", 1, "Red \x1b[31malert"), ("$.story", None, "Bell \x07")):
            await pilot.press("f2", "ctrl+g")
            target = next(i for i, d in enumerate(app.query_one(ProblemsPanel).diagnostics)
                          if d.code == "CR228" and d.json_path == path)
            await pilot.press("ctrl+k")
            app.query_one("#problems-list").highlighted = target
            await pilot.press("enter")
            await pilot.pause()
            assert app.query_one(TabbedContent).active == "story", path
            assert app.story_level == level, path
            assert app.focused is app.query_one("#story-source")
            assert app.query_one("#story-source").text == text


def _without_exits(campaign_file):
    """The campaign file with no cell marked as the exit (CR220, an error: the worst problem)."""
    doc = json.loads(campaign_file.read_text())
    for level in doc["levels"]:
        for c in level["cells"]:
            c.pop("exit", None)
    campaign_file.write_text(json.dumps(doc))
    return campaign_file


@run_async
async def test_ctrl_k_then_enter_goes_to_the_worst_problem(campaign_file, tmp_path) -> None:
    """The panel's hint says "ctrl+k, enter: go to": ctrl+k highlights the first problem (errors first) when none
    is, so enter goes there at once (it did nothing until an arrow key picked a problem)."""
    app = make_app(_without_exits(campaign_file), tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.query_one(ProblemsPanel).diagnostics[0].code == "CR220"
        assert app.level_index == 0
        await pilot.press("ctrl+k", "enter")
        await pilot.pause()
        assert app.level_index == len(app.campaign.levels) - 1 and app.focused is app.canvas


@run_async
async def test_enter_on_no_exit_goes_to_the_last_level_not_a_form(campaign_file, tmp_path) -> None:
    """CR220 (the campaign has no exit: "mark a cell of the last level as the exit") belongs to no field of the
    metadata form: enter on it shows the last level's map, where the exit is to be marked."""
    app = make_app(_without_exits(campaign_file), tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        panel = app.query_one(ProblemsPanel)
        target = next(i for i, d in enumerate(panel.diagnostics) if d.code == "CR220")
        screen = app.screen
        await pilot.press("ctrl+k")
        app.query_one("#problems-list").highlighted = target
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen  # no form opened
        assert app.level_index == len(app.campaign.levels) - 1 and app.focused is app.canvas
        # the problem list names the key that fixes it here (the check's own message, the file's field)
        assert "press x" in str(app.query_one("#problems-list").get_option_at_index(target).prompt)
        await press(app, pilot, "x")
        assert "CR220" not in {d.code for d in app.query_one(ProblemsPanel).diagnostics}


def _with_recorded_par(campaign_file) -> None:
    """The fixture campaign's file with a par recorded: 11 turns, 9 health left."""
    doc = json.loads(campaign_file.read_text(encoding="utf-8"))
    doc["par"] = {"turns": 11, "health": 9}
    campaign_file.write_text(json.dumps(doc), encoding="utf-8")


async def _playtest(app, pilot):
    """F5: the play-test's PlayerScreen, the level's preface over it put away."""
    from cardrogue.editor.player import PlayerScreen

    await pilot.press("f5")
    await pilot.pause()
    player = next(s for s in app.screen_stack if isinstance(s, PlayerScreen))
    while app.screen is not player:  # the level's preface is shown over the board
        app.pop_screen()
        await pilot.pause()
    return player


@run_async
async def test_playtest_after_f6_shows_the_par_f6_proved(campaign_file, tmp_path) -> None:
    """F5 right after F6 on the last level (no ladder: the level's par is the run's): the end screen
    says that par, not "Par unknown". After an edit, or on a level with a ladder (F6's par ends at
    the ladder, the play-test goes on down it), the file's par is used, as before."""
    from cardrogue.editor.player import PlayerScreen
    from cardrogue.editor.player.screens import EndScreen
    from cardrogue.engine.rules.actions import Action

    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)

        async def playtest():
            return await _playtest(app, pilot)

        app.set_level(2)
        await press(app, pilot, "f6")
        solution = app.solving.solution
        assert solution.verdict == "solved" and not app.campaign.levels[2].ladders
        player = await playtest()
        assert player.par == solution.result.turns
        for action in solution.result.actions:
            player.play(Action.parse(action))
        await recorded(pilot)
        assert isinstance(app.screen, EndScreen)
        summary = str(app.screen.query_one("#end-summary").render())
        assert f"Par {solution.result.turns} (on par)" in summary, summary
        app.pop_screen()
        player.dismiss(None)
        await pilot.pause()
        app.canvas.move_to(1, 0)
        await pilot.press("f")  # an edit (the card turned over): F6's par no longer holds
        await settle(app, pilot)
        assert (await playtest()).par is None
        player = app.screen
        player.dismiss(None)
        await pilot.pause()
        app.set_level(0)
        await press(app, pilot, "f6")
        assert app.solving.solution.verdict == "solved" and app.campaign.levels[0].ladders
        assert (await playtest()).par is None


@run_async
async def test_playtest_after_an_edit_shows_no_par_the_edit_may_have_changed(campaign_file, tmp_path) -> None:
    """walk 26: a map with a recorded par of 3 turns, changed in the editor (its room turned face down: par
    at least 8), was play-tested with "Turn 1 (par 3)", the file's par for the version opened. The par the file
    records holds for the content it was recorded for: after an edit the play-test shows none and says why,
    until the edit is undone (or F6 proves the level's)."""
    import json

    from cardrogue.editor.player import PlayerScreen

    _with_recorded_par(campaign_file)
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)

        async def playtest():
            return await _playtest(app, pilot)

        player = await playtest()
        assert player.par == 11  # the version opened: the file's par
        player.dismiss(None)
        await pilot.pause()
        app.canvas.move_to(1, 1)
        await pilot.press("f")  # an edit: the file's par was recorded for another version
        await settle(app, pilot)
        player = await playtest()
        assert player.par is None
        assert player.no_par == ("none proven for this version: the campaign changed since its par (11 turns) "
                                 "was recorded; cardrogue solve --write-par story.json records this version's (its "
                                 "par runs down its ladders)"), player.no_par
        player.dismiss(None)
        await pilot.pause()
        await pilot.press("ctrl+z")  # the version opened again
        await settle(app, pilot)
        assert (await playtest()).par == 11


@run_async
async def test_a_new_title_author_or_story_keeps_the_recorded_par(campaign_file, tmp_path) -> None:
    """The file's par was taken for stale once the title alone was edited: the content hash that dated it includes
    the title, the author and the stories, which no rule reads (engine/rules). A par measures the game: after such
    edits the save says no more than that it saved, and the play-test shows the file's par."""
    _with_recorded_par(campaign_file)
    app = make_app(campaign_file, tmp_path)
    said = notes(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+e")
        app.screen.query_one("#form-title").value = "Another Descent"
        app.screen.query_one("#form-author").value = "A. N. Other"
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        app.edit(lambda c: replace(c, story="A new opening.", description="A new blurb."), "Story")
        app.canvas.focus()
        app.canvas.move_to(0, 1)
        await pilot.press("ctrl+t", *"Welcome", "enter", "ctrl+s")  # an inscription too
        await settle(app, pilot)
        assert (app.campaign.title, app.campaign.author) == ("Another Descent", "A. N. Other")
        assert app.campaign.levels[0].cell_at(0, 1).inscription == "Welcome"
        assert said[-1] == "Saved story.json", said
        player = await _playtest(app, pilot)
        assert player.par == 11


@run_async
async def test_f_turns_a_selection_all_one_way(campaign_file, tmp_path) -> None:
    """walk 26: a room selected and f pressed to turn it face down turned each card over on its own, so the
    one face-down card in it, the exit, came up (and par fell from 'at least 8' to 2). On a selection f turns
    every card face up, or face down when all are up already; one card is turned over as before."""
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.canvas.focus()
        app.canvas.move_to(2, 1)
        await pilot.press("f")  # one card: turned over
        assert cell(app, 2, 1).face_up
        app.canvas.move_to(1, 1)
        app.canvas.move_to(3, 1, extend=True)  # down, up, down
        await pilot.press("f")
        assert [cell(app, x, 1).face_up for x in (1, 2, 3)] == [True, True, True]
        await pilot.press("f")
        assert [cell(app, x, 1).face_up for x in (1, 2, 3)] == [False, False, False]
        await pilot.press("ctrl+z")  # one edit each
        assert [cell(app, x, 1).face_up for x in (1, 2, 3)] == [True, True, True]


@run_async
async def test_the_cell_panel_says_what_a_potion_is_in_this_campaign(campaign_file, tmp_path) -> None:
    """walk 26: a map of potions of teleportation and paralysis showed "Red Potion potion" on the map and in
    the Cell panel: which colour was which was only in F7's form. The panel says it, and whether the author
    set it (F7) or the seed did."""
    from dataclasses import replace

    from cardrogue.engine.model.potions import potion_identities

    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.canvas.move_to(2, 2)  # a red potion
        await settle(app, pilot)
        seeded = potion_identities(app.campaign.seed)["red"]
        summary = " ".join(str(app.query_one("#inspector-summary").render()).split())
        assert f"a potion of {seeded} here (seed {app.campaign.seed}; f7 sets it)" in summary, summary
        app.edit(lambda c: replace(c, potions={"red": "teleportation"}), "Potion colours")
        app.canvas.move_to(2, 2)
        await settle(app, pilot)
        summary = " ".join(str(app.query_one("#inspector-summary").render()).split())
        assert "a potion of teleportation here (f7)" in summary, summary


async def _record_par_refused(app, pilot, said: list[str]) -> None:
    """F6 on the level shown solves it, and Record par records nothing there, naming what records the campaign's."""
    assert app.campaign.par is None
    app.canvas.focus()
    await pilot.press("f6")
    await settle(app, pilot)
    assert app.solving.solution.verdict == "solved"
    app.action_record_par()
    assert said[-1].startswith("Record par: the file records the campaign's par, from level 1 to its exit"), said
    assert "cardrogue solve --write-par" in said[-1] and app.campaign.par is None


@run_async
async def test_record_par_writes_the_par_f6_proved_in_the_file(tmp_path) -> None:
    """walk 26: F6 proved a challenge map's par, but only `cardrogue solve --write-par` wrote it in the file, which
    the open editor then held an older version of ("changed on disk"; a save over it dropped the par again).
    *Record par* (command palette) records F6's par of a one-level map in the campaign, one undoable edit; the
    play-test shows it at once; on a level whose par is not the campaign's it says why it records nothing."""
    from cardrogue.editor.player import PlayerScreen

    path = tmp_path / "toll.json"
    doc = json.loads(default_campaign().read_text(encoding="utf-8"))
    doc["levels"] = [{"id": "toll", "width": 3, "height": 1, "cells": [
        {"at": [0, 0], "card": "starting-tile", "paths": "E", "face": "up"},
        {"at": [1, 0], "card": "pathing-tile", "paths": "EW", "face": "down"},
        {"at": [2, 0], "card": "pathing-tile", "paths": "W", "face": "down", "exit": True}]}]
    doc.pop("par", None)
    path.write_text(json.dumps(doc), encoding="utf-8")
    app = make_app(path, tmp_path)
    said = notes(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.action_record_par()  # nothing proved yet
        assert said[-1] == "Record par: F6 proves the level's par first", said
        await pilot.press("f6")
        await settle(app, pilot)
        result = app.solving.solution.result
        assert result.verdict == "solved"
        app.action_record_par()
        assert (app.campaign.par.turns, app.campaign.par.health) == (result.turns, result.health)
        assert said[-1] == f"Par recorded: {result.turns} turns, {result.health} health left (ctrl+s saves it)", said
        assert "Before the last edit" not in str(app.query_one("#solve-status").render())  # par is no content
        app.action_record_par()  # again: nothing to record, and F6's verdict kept (review 26)
        assert said[-1].startswith("Par already recorded") and app.solving.proven_par(0) == result.turns, said
        await pilot.press("f5")
        await pilot.pause()
        player = next(s for s in app.screen_stack if isinstance(s, PlayerScreen))
        assert player.par == result.turns
        player.dismiss(None)
        await pilot.pause()
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        assert json.loads(path.read_text(encoding="utf-8"))["par"] == {"turns": result.turns, "health": result.health}
        await pilot.press("ctrl+z")
        assert app.campaign.par is None
        await pilot.press("ctrl+l", "d")  # a copy after it: solved on its own, but no run starts there
        await settle(app, pilot)
        app.set_level(1)
        await _record_par_refused(app, pilot, said)


@run_async
async def test_record_par_on_a_first_level_with_a_ladder_records_nothing_and_says_what_does(campaign_file,
                                                                                          tmp_path) -> None:
    """review 26: level 1's par is the campaign's only when a run ends at its exit. On a first level with a ladder,
    F6 proves the level's par to the ladder taken, not the campaign's down it: Record par writes nothing and names
    `cardrogue solve --write-par`, which records the campaign's."""
    app = make_app(campaign_file, tmp_path)
    said = notes(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.level_index == 0 and app.campaign.levels[0].ladders
        await _record_par_refused(app, pilot, said)


@run_async
async def test_a_save_says_when_the_par_it_keeps_was_recorded_for_another_version(campaign_file, tmp_path) -> None:
    """walk 26: an edited map was saved with the par its file recorded before the edit (par 3 on a map of par 8
    and more), which `cardrogue play` then shows and `cardrogue check` (without --solve) does not question. The
    save keeps the file's par (it is the author's to replace) and says it was recorded for another version."""
    _with_recorded_par(campaign_file)
    app = make_app(campaign_file, tmp_path)
    said = notes(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.canvas.focus()
        app.canvas.move_to(1, 1)
        await pilot.press("f", "ctrl+s")  # its tile turned over: par unchanged, the game changed
        await settle(app, pilot)
        assert said[-1] == ("Saved story.json. Its par (11 turns) was recorded for the map before your edits: "
                            "cardrogue solve --write-par story.json records this version's (its par runs down its "
                            "ladders)"), said
        assert json.loads(campaign_file.read_text(encoding="utf-8"))["par"] == {"turns": 11, "health": 9}
        await pilot.press("ctrl+z", "ctrl+s")  # as opened again: the par measures it
        await settle(app, pilot)
        assert said[-1] == "Saved story.json", said


@run_async
async def test_playtest_opens_the_player_and_returns(campaign_file, tmp_path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+l", "down", "down")
        await pilot.pause()
        await pilot.press("ctrl+g", "f5")
        await pilot.pause()
        try:
            from cardrogue.editor.player import PlayerScreen
        except (ImportError, AttributeError):
            assert any("Play-test is not available" in n.message for n in app._notifications)
        else:
            player = next(s for s in app.screen_stack if isinstance(s, PlayerScreen))
            assert player.run is not None
            while app.screen is not player:  # the level's preface is shown over the board
                app.pop_screen()
                await pilot.pause()
            player.dismiss(None)
            await pilot.pause()
            assert app.screen is app.screen_stack[0] and app.focused is app.canvas
        assert not app.doc.dirty


@run_async
async def test_command_palette_lists_editor_commands(campaign_file, tmp_path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+p")
        await pilot.press(*"toggle face")
        for _ in range(500):  # the search runs in a worker: wait for its hit, 5 s at most
            await app.screen.workers.wait_for_complete()
            await pilot.pause()
            if app.screen.query_one("CommandList").option_count:
                break
            await pilot.pause(0.01)
        await pilot.press("enter")
        await pilot.pause()
        assert cell(app, 0, 0) is None  # cursor on an empty place: nothing to flip
        assert app.screen is app.screen_stack[0]


@run_async
async def test_help_screen(campaign_file, tmp_path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("f1")
        assert type(app.screen).__name__ == "HelpScreen"
        await pilot.press("escape")
        assert app.screen is app.screen_stack[0]


@run_async
async def test_usable_at_80x24(campaign_file, tmp_path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        canvas = app.query_one(MapCanvas)
        assert canvas.size.width >= 5 * CELL_W and canvas.size.height >= 3 * CELL_H
        assert write_recovery  # imported for the recovery tests


@run_async
async def test_level_properties_form_keeps_its_contract(campaign_file, tmp_path) -> None:
    """Bad sizes keep the form open with the reason under the field; a resize that removes cards asks
    first; columns and rows are added or removed on the side the author picks."""
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        before = app.campaign
        await pilot.press("ctrl+l", "p")
        for field, bad, why in (("width", "abc", "width is a whole number from 1 to 256, not 'abc'"),
                                ("width", "0", "not 0"), ("height", "300", "height is a whole number from 1 to 256"),
                                ("id", "", "is not a level id")):
            good = app.screen.query_one(f"#form-{field}").value
            app.screen.query_one(f"#form-{field}").value = bad
            await pilot.press("ctrl+s")
            assert isinstance(app.screen, FormScreen) and why in form_error(app, field)
            assert app.screen.focused is app.screen.query_one(f"#form-{field}")
            app.screen.query_one(f"#form-{field}").value = good
        assert app.campaign is before
        # A column added at the left moves every card one place right.
        app.screen.query_one("#form-width").value = "6"
        app.screen.query_one("#form-columns_at").value = "left"
        await pilot.press("ctrl+s")
        level = app.campaign.levels[0]
        assert level.width == 6 and level.cell_at(1, 1).card == "starting-tile" and level.cell_at(3, 2).card == "red-potion"
        # The empty top row removed: no question, the cards move up.
        await pilot.press("ctrl+l", "p")
        app.screen.query_one("#form-height").value = "2"
        app.screen.query_one("#form-rows_at").value = "top"
        await pilot.press("ctrl+s")
        level = app.campaign.levels[0]
        assert (level.height, level.cell_at(1, 0).card, level.cell_at(3, 1).card) == (2, "starting-tile", "red-potion")
        # Shrinking over cards asks first; cancel keeps them, and goes back to the form with what was typed
        # (a title typed beside the new width was dropped with it: tutor22), the size's reason under it.
        await pilot.press("ctrl+l", "p")
        app.screen.query_one("#form-width").value = "2"
        app.screen.query_one("#form-title").value = "The Narrow Hall"
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, ConfirmScreen) and "removes 5 cards from the grid: pathing-tile at (2, 0)," in app.screen.question
        await press(app, pilot, "escape")
        assert app.campaign.levels[0].width == 6 and isinstance(app.screen, FormScreen)
        assert (app.screen.query_one("#form-width").value, app.screen.query_one("#form-title").value) == ("2", "The Narrow Hall")
        assert "removes 5 cards" in form_error(app, "width") and app.screen.focused is app.screen.query_one("#form-width")
        await pilot.press("escape")  # the form's own escape drops it all
        assert app.campaign.levels[0].title != "The Narrow Hall" and not isinstance(app.screen, FormScreen)
        await pilot.press("ctrl+l", "p")
        app.screen.query_one("#form-width").value = "2"
        await pilot.press("ctrl+s", "enter")  # Resize
        assert app.campaign.levels[0].width == 2 and len(app.campaign.levels[0].cells) == 1
        await pilot.press("ctrl+z", "ctrl+z", "ctrl+z")
        assert app.campaign.levels[0] == before.levels[0]


@run_async
async def test_level_properties_set_the_levels_practice_hero(campaign_file, tmp_path) -> None:
    """docs/authoring.md "Practice scenarios: a level's hero": at 80x24 the level form sets the level's
    ``hero`` (each empty field: the campaign hero's), refuses what the loader refuses under its field,
    saves it, undoes it, and a tile he cannot stand on is a CR225 in the problem list."""
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+l", "p")
        assert isinstance(app.screen, FormScreen)
        for field, bad, why in (("health", "0", "health: 0 is less than the minimum of 1"),
                                ("health", "x", "health is a whole number, not 'x'"),
                                ("at", "1", "at is two whole numbers"),
                                ("items", "no-such-card", "no-such-card"),
                                ("equipped", "red-potion", "cannot be equipped")):
            app.screen.query_one(f"#form-{field}").value = bad
            await pilot.press("ctrl+s")
            assert isinstance(app.screen, FormScreen) and why in form_error(app, field), (field, form_error(app))
            app.screen.query_one(f"#form-{field}").value = ""
        app.screen.query_one("#form-at").value = "0 1"
        app.screen.query_one("#form-health").value = "3"
        app.screen.query_one("#form-equipped").value = "-"
        await press(app, pilot, "ctrl+s")
        await pilot.press("ctrl+s")  # save the file
        await settle(app, pilot)
        assert json.loads(campaign_file.read_text())["levels"][0]["hero"] == {"at": [0, 1], "health": 3, "equipped": []}
        await pilot.press("ctrl+z")
        assert app.campaign.levels[0].hero is None
        await pilot.press("ctrl+y")
        assert app.campaign.levels[0].hero is not None and app.campaign.levels[0].hero.health == 3
    app = make_app(campaign_file, tmp_path)  # reloaded: the form shows what the file says
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+l", "p")
        shown = {f: app.screen.query_one(f"#form-{f}").value for f in ("at", "health", "items", "equipped")}
        assert shown == {"at": "0 1", "health": "3", "items": "", "equipped": "-"}
        app.screen.query_one("#form-at").value = "1 1"  # a face-down pathing tile
        await press(app, pilot, "ctrl+s")
        problems = [d for d in app.query_one(ProblemsPanel).diagnostics if d.code == "CR225"]
        assert [d.cell for d in problems] == [(1, 1)]
        assert "Practice hero at: x y" in editor_message(problems[0])
        await pilot.press("ctrl+l", "p")
        for field in ("at", "health", "items", "equipped"):
            app.screen.query_one(f"#form-{field}").value = ""
        await press(app, pilot, "ctrl+s")
        await press(app, pilot, "ctrl+s")
        assert "hero" not in json.loads(campaign_file.read_text())["levels"][0]
        assert not [d for d in app.query_one(ProblemsPanel).diagnostics if d.code == "CR225"]


def test_a_resize_at_the_left_or_top_moves_the_practice_heros_tile(campaign_file) -> None:
    campaign = edits.set_level_hero(load_campaign(campaign_file).campaign, 0, LevelHero(at=(0, 1)))
    moved = edits.resize_level(campaign, 0, 6, 4, left=True, top=True)
    assert moved.levels[0].hero.at == (1, 2) and moved.levels[0].cell_at(1, 2).card == "starting-tile"
    assert edits.resize_level(campaign, 0, 6, 4).levels[0].hero.at == (0, 1)
    assert edits.set_level_hero(campaign, 0, LevelHero()).levels[0].hero is None  # no field set: no hero


@run_async
async def test_ctrl_c_says_how_to_quit_in_plain_words(campaign_file, tmp_path) -> None:
    """ctrl+c does not quit (Textual's rule); its hint reached the editor's plain-text notify with
    Textual's markup in it and read 'Press [b]ctrl+q[/b] to quit the app'."""
    app = make_app(campaign_file, tmp_path)
    messages = notes(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert "Press ctrl+q to quit the editor" in messages, messages
        assert not any("[b]" in m for m in messages)
        assert app.is_running


@run_async
async def test_refused_rolls_typed_stop_quit_and_save(campaign_file, tmp_path) -> None:
    """Rolls typed that are not d6 faces stop a quit or a save, and stay typed with the focus: ctrl+q
    quit and dropped them (only an error toast flashed), and ctrl+s saved without them."""
    from textual.widgets import Input

    before = campaign_file.read_bytes()
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("down", "right", "right", "right")
        await press(app, pilot, "ctrl+r", "2", "space", "9", "ctrl+q")
        assert app.is_running
        rolls = app.query_one("#inspector-rolls", Input)
        assert rolls.has_focus and rolls.value == "2 9"
        await press(app, pilot, "ctrl+s")
        assert campaign_file.read_bytes() == before
        await press(app, pilot, "backspace", "5", "ctrl+s")
        assert load_campaign(campaign_file).campaign.levels[app.level_index].cell_at(3, 1).rolls == (2, 5)


@run_async
async def test_quit_keeps_what_an_open_form_holds_typed(campaign_file, tmp_path) -> None:
    """ctrl+q over a form with a value typed (walk 18: the level properties form, a new title typed)
    quit at once when the campaign had no unsaved changes, and the title was gone; with unsaved
    changes its question's Save saved the campaign without it. The quit stops with the form open, its
    values kept, and says how to go on; an untouched form does not stop it."""
    from textual.widgets import Input

    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "ctrl+e", *"The Deep", "ctrl+q")
        assert app.is_running and isinstance(app.screen, FormScreen)
        assert app.screen.query_one("#form-title", Input).value == "The Deep"
        said = form_error(app)
        assert "not quit" in said.lower() and "escape" in said and "ctrl+s" in said, said
        await pilot.press("escape", "ctrl+e")  # dropped on purpose, then opened again untouched
        await settle(app, pilot)
        await press(app, pilot, "ctrl+q")
    assert app.return_value == 0


@run_async
async def test_story_typed_just_before_a_save_or_quit_is_kept(campaign_file, tmp_path) -> None:
    """Each key in the story source reaches the campaign as a message; a ctrl+s or ctrl+q pressed while
    the last ones were still queued (fast typing, a loaded machine) saved the story without its last
    words, or quit without asking and lost them."""
    from textual.widgets import TextArea

    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "f3")
        source = app.query_one("#story-source", TextArea)
        source.insert("Typed fast. ")  # its message is queued: the save below runs first
        app.action_save()
        await settle(app, pilot)
        saved = load_campaign(campaign_file).campaign.levels[app.level_index].story
        assert saved.startswith("Typed fast. ") and not app.doc.dirty
        source.insert("And more. ")
        await app.action_quit()  # asks, since the story changed
        await settle(app, pilot)
        assert app.is_running and isinstance(app.screen, ConfirmScreen)


@run_async
async def test_the_header_keeps_the_brush_through_edits_and_saves(campaign_file, tmp_path) -> None:
    """docs/editor.md: the header shows the file name, ● when unsaved, and the palette brush. The brush
    was shown only until the first edit, which rewrote the header without it."""
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.sub_title == f"{campaign_file.name}  brush: pathing-tile"
        await press(app, pilot, "ctrl+f", *"goblin", "enter", "ctrl+g", "down", "right", "enter")
        assert cell(app, 1, 1).card == "goblin" and app.sub_title == f"{campaign_file.name} ●  brush: goblin"
        await press(app, pilot, "ctrl+s")
        assert app.sub_title == f"{campaign_file.name}  brush: goblin"


@run_async
async def test_every_card_kind_looks_its_own_on_the_map(tmp_path) -> None:
    """docs/editor.md: the five letters of a card are "coloured by kind", and the legend (l) lists each card in
    that colour. Textual draws ANSI colours through its theme, and in the default one (Monokai) red, magenta
    and bright magenta are the very same colour (244, 0, 95): an enemy, a boss and an artifact looked alike
    (and a scroll's yellow, (253, 151, 31), was a hair from a trap's dark orange)."""
    from cardrogue.engine.format.catalog import default_catalog
    from cardrogue.engine.model.campaign import CardKind
    from helpers import FIXTURE

    catalog = default_catalog()
    one_of_each = {}
    for card in catalog.values():
        one_of_each.setdefault(card.kind, card.id)
    assert set(one_of_each) == set(CardKind)
    doc = json.loads(FIXTURE.read_text())
    level = doc["levels"][0]
    level["width"], level["height"] = 6, 3
    kinds = list(CardKind)
    level["cells"] = [{"at": [0, 0], "card": "starting-tile", "paths": "E", "face": "up"}] + [
        {"at": [k % 6, 1 + k // 6], "card": one_of_each[kind], "face": "up"} for k, kind in enumerate(kinds)]
    path = tmp_path / "kinds.json"
    path.write_text(json.dumps(doc))
    app = make_app(path, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        canvas = app.query_one(MapCanvas)
        assert canvas.cell_h == CELL_H
        colours = {}
        for k, kind in enumerate(kinds):
            x, y = k % 6, 1 + k // 6
            strip = canvas.render_line(y * canvas.cell_h + 1 - canvas.scroll_offset.y)
            colours[kind] = effective_colour(app, colour_at(strip, x * canvas.cell_w + 1 - canvas.scroll_offset.x))

        def apart(a, b):  # far enough apart to tell at a glance: some channel differs by 60 or more
            return max(abs(p - q) for p, q in zip(a, b)) >= 60
        for i, a in enumerate(kinds):
            for b in kinds[i + 1:]:
                assert apart(colours[a], colours[b]), (a.value, colours[a], b.value, colours[b])
