"""Snapshots of the editor's main screens (pytest-textual-snapshot).

Fixed terminal sizes, cursor blink off, a campaign copied to a fixed file name,
and the checks finished before the picture is taken, so runs are identical.
Update with ``pytest tests/test_editor_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardrogue.editor.app import EditorApp
from cardrogue.editor.files import open_document
from editor_support import burst, settle
from helpers import FIXTURE



@pytest.fixture
def app(tmp_path: Path) -> EditorApp:
    path = tmp_path / "a-sons-descent.json"
    path.write_bytes(FIXTURE.read_bytes())
    return EditorApp(open_document(path), recovery_dir=tmp_path / "recovery", autosave_seconds=3600,
                     cursor_blink=False)


def steps(*keys: str | tuple[str, ...]):
    """Before the picture: the checks of the opened file done, then each of ``keys`` typed and all it set
    going done (the checks, a solve) before the next: one settle a key, where a press, a pause, the
    workers and a pause took twice the waits for the same. A tuple of keys is typed in one burst, then
    settled: keys that set nothing going between them (a word typed into a field, tabs from field to
    field), handled one after the other all the same (``KeysInOrder``)."""
    async def run_before(pilot) -> None:
        await settle(pilot.app, pilot)
        for key in keys:
            burst(pilot.app, *((key,) if isinstance(key, str) else key))
            await settle(pilot.app, pilot)
        for widget in pilot.app.screen.query("Input, TextArea"):
            widget.cursor_blink = False
        await pilot.pause()

    return run_before


def test_main_screen(snap_compare, app) -> None:
    assert snap_compare(app, terminal_size=(110, 32), run_before=steps("down", "right", "right"))


def test_main_screen_80x24(snap_compare, app) -> None:
    assert snap_compare(app, terminal_size=(80, 24), run_before=steps("down"))


def test_selection_and_problem_marks(snap_compare, app) -> None:
    # a card with no paths (a warning mark) and a rectangle selected
    assert snap_compare(app, terminal_size=(110, 32),
                        run_before=steps("down", "down", "right", "right", "n", "up", "shift+right", "shift+up"))


def test_story_tab(snap_compare, app) -> None:
    assert snap_compare(app, terminal_size=(110, 32), run_before=steps("f3"))


def test_help_screen(snap_compare, app) -> None:
    assert snap_compare(app, terminal_size=(110, 32), run_before=steps("f1"))


def test_quit_guard_dialog(snap_compare, app) -> None:
    assert snap_compare(app, terminal_size=(110, 32), run_before=steps("down", "right", "f", "ctrl+q"))


def test_solution_steps(snap_compare, app) -> None:
    # F6 solves the first level; five steps on: the hero marker, the cards flipped so far, the par and the step
    assert snap_compare(app, terminal_size=(110, 32),
                        run_before=steps("f6", "full_stop", "full_stop", "full_stop", "full_stop", "full_stop"))


def test_unsolvable_verdict(snap_compare, app) -> None:
    # the exit of the last level walled off: the solver's reason in the problems panel
    assert snap_compare(app, terminal_size=(110, 32),
                        run_before=steps("ctrl+l", "down", "down", "down", "ctrl+g", "right", "right", "w", "f6"))


def test_card_form(snap_compare, app) -> None:
    assert snap_compare(app, terminal_size=(110, 40),
                        run_before=steps("ctrl+f", tuple("goblin"), "enter", "f4"))


def test_card_form_flags(snap_compare, app) -> None:
    # tabbed down to the flags (past the kind, slot and colour lists), "cursed" ticked
    assert snap_compare(app, terminal_size=(110, 40),
                        run_before=steps("ctrl+f", tuple("goblin"), "enter", "f4", *["tab"] * 13, "space"))


def test_card_form_ability_error(snap_compare, app) -> None:
    # tabbed to the first ability (past the numbers, lists, flags and text)
    assert snap_compare(app, terminal_size=(110, 40),
                        run_before=steps("ctrl+f", tuple("goblin"), "enter", "f4", *["tab"] * 15, *"FLIES", "enter"))


def test_potion_form(snap_compare, app) -> None:
    assert snap_compare(app, terminal_size=(110, 36), run_before=steps("f7"))


# The three sizes the walk-through is repeated at: everything fits, F1 Help first in the footer.

def test_main_screen_120x40(snap_compare, app) -> None:
    assert snap_compare(app, terminal_size=(120, 40), run_before=steps("ctrl+l", "down", "ctrl+g", "right"))


def test_main_screen_200x50(snap_compare, app) -> None:
    assert snap_compare(app, terminal_size=(200, 50), run_before=steps("ctrl+l", "down", "ctrl+g", "right"))


def test_solution_steps_80x24(snap_compare, app) -> None:
    # stepping through a solution at the smallest size: the step keys join the footer, Help stays first
    assert snap_compare(app, terminal_size=(80, 24), run_before=steps("f6", "full_stop", "full_stop"))


def test_zoomed_names_120x40(snap_compare, app) -> None:
    assert snap_compare(app, terminal_size=(120, 40), run_before=steps("ctrl+l", "down", "ctrl+g", "z"))


def test_legend_80x24(snap_compare, app) -> None:
    assert snap_compare(app, terminal_size=(80, 24), run_before=steps("ctrl+l", "down", "ctrl+g", "l"))


def test_form_footer_80x24(snap_compare, app) -> None:
    # a form shows its own keys in the footer, not the map's
    assert snap_compare(app, terminal_size=(80, 24), run_before=steps("ctrl+e"))


@pytest.fixture
def long_titles_app(tmp_path: Path) -> EditorApp:
    path = tmp_path / "long-titles.json"
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    data["title"] = "A Campaign Whose Title Runs Well Past the Sidebar"
    data["levels"][0]["title"] = "The Cave-In Beneath the Old Chapel of the Drowned Saints"
    path.write_text(json.dumps(data), encoding="utf-8")
    return EditorApp(open_document(path), recovery_dir=tmp_path / "recovery", autosave_seconds=3600,
                     cursor_blink=False)


def test_long_level_title_80x24(snap_compare, long_titles_app) -> None:
    # a long title ends in "…" on its own line; the level's size stays beside it, never a line of its own
    assert snap_compare(long_titles_app, terminal_size=(80, 24), run_before=steps("down"))


# A ladder's destination: a list of the other levels by title and id, opened from the map with t;
# above the footer at every size, each entry on one line.
LADDER_LIST = ("down", "right", "right", "right", "right", "t")


def test_ladder_list_80x24(snap_compare, app) -> None:
    assert snap_compare(app, terminal_size=(80, 24), run_before=steps(*LADDER_LIST))


def test_ladder_list_120x40(snap_compare, app) -> None:
    assert snap_compare(app, terminal_size=(120, 40), run_before=steps(*LADDER_LIST))


def test_ladder_list_200x50(snap_compare, app) -> None:
    assert snap_compare(app, terminal_size=(200, 50), run_before=steps(*LADDER_LIST))


@pytest.fixture
def long_file_app(tmp_path: Path) -> EditorApp:
    folder = tmp_path / "a folder with a rather long name" / "and another one inside it"
    folder.mkdir(parents=True)
    path = folder / "the-drowned-saints-of-the-old-chapel-beneath.json"
    path.write_bytes(FIXTURE.read_bytes())
    return EditorApp(open_document(path), recovery_dir=tmp_path / "recovery", autosave_seconds=3600,
                     cursor_blink=False)


def test_long_file_and_brush_header_80x24(snap_compare, long_file_app) -> None:
    # the header keeps the file's name (start and extension, no folder), the unsaved mark and the brush
    async def run_before(pilot) -> None:
        await steps()(pilot)
        pilot.app.query_one("Palette").choose("fountain-of-healing")
        await steps("enter")(pilot)

    assert snap_compare(long_file_app, terminal_size=(80, 24), run_before=run_before)


# A phone's browser in portrait (cardrogue web --editor, 390 x 844: 43 columns, 40 rows): the map the whole width,
# the problems under it, then Levels and Cards side by side and the Cell panel (editor.tcss, "-narrow").
def test_main_screen_43x40(snap_compare, app) -> None:
    assert snap_compare(app, terminal_size=(43, 40), run_before=steps("down", "right"))


def test_story_tab_43x40(snap_compare, app) -> None:
    assert snap_compare(app, terminal_size=(43, 40), run_before=steps("f3"))


def test_ladder_list_43x40(snap_compare, app) -> None:
    assert snap_compare(app, terminal_size=(43, 40), run_before=steps(*LADDER_LIST))
