"""The editor on a narrow, tall screen (a phone's browser in portrait, `cardrogue web --editor`): the map takes the
whole width and the sidebar's panels go under it (editor.tcss, "-narrow"; app.NARROW_COLUMNS, NARROW_ROWS).

Seen in a 390 x 844 phone emulation (walk25): the editor got 43 columns and kept its 28-column sidebar beside the
map, which was left 15 columns, two boxes of a level. Shorter terminals keep the sidebar beside the map
(tests/test_editor_panels.py: 60x20, 79x23): their rows, not their columns, are what is short."""

from __future__ import annotations

import pytest

from cardrogue.editor.app import NARROW_COLUMNS, NARROW_ROWS
from cardrogue.editor.widgets.problems import ProblemsPanel
from editor_support import make_app, settle, three_level_app
from helpers import run_async, screen_text, shown_lines
from test_editor_walk_drafts import highlight, walk_draft

PHONE = (43, 40)  # the columns and rows xterm.js gives textual-serve's page in a 390 x 844 phone's browser


def shown_region(app, selector: str):
    widget = app.query_one(selector)
    return widget.screen.find_widget(widget).visible_region


@pytest.mark.parametrize("size", [PHONE, (NARROW_COLUMNS - 1, NARROW_ROWS), (60, 32)])
@run_async
async def test_a_narrow_tall_screen_puts_the_sidebar_under_a_map_as_wide_as_the_screen(tmp_path, size) -> None:
    app = three_level_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        width = size[0]
        canvas = shown_region(app, "#canvas")
        problems = shown_region(app, "#problems")
        assert canvas.width == width and problems.width == width, (canvas, screen_text(app))
        assert canvas.height >= 7, screen_text(app)  # a row of boxes and its borders, and more
        levels, cards, cell = (shown_region(app, f"#{name}") for name in ("levels", "palette", "inspector"))
        # Levels and Cards side by side under the problems, the Cell panel the whole width under them
        assert levels.y == cards.y > problems.bottom - 1 and levels.right <= cards.x, (levels, cards, problems)
        assert cell.y >= levels.bottom and cell.width == width, (cell, levels)
        assert min(levels.height, cards.height) >= 5 and cell.height >= 6, (levels, cards, cell)
        assert "Cell panel hidden" not in screen_text(app)


@pytest.mark.parametrize("size", [(80, 40), (NARROW_COLUMNS - 1, NARROW_ROWS - 1)])
@run_async
async def test_a_wide_or_short_screen_keeps_the_sidebar_beside_the_map(tmp_path, size) -> None:
    app = three_level_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        sidebar, canvas = shown_region(app, "#sidebar"), shown_region(app, "#canvas")
        assert sidebar.width == 28 and canvas.x >= sidebar.right, (sidebar, canvas)


@run_async
async def test_on_a_narrow_screen_the_story_source_is_above_its_preview(tmp_path) -> None:
    app = three_level_app(tmp_path)
    async with app.run_test(size=PHONE) as pilot:
        await settle(app, pilot)
        await pilot.press("f3")
        await settle(app, pilot)
        source, preview = shown_region(app, "#story-source"), shown_region(app, "#story-preview-box")
        assert source.width == preview.width == PHONE[0], (source, preview)
        assert preview.y >= source.bottom, (source, preview)


@run_async
async def test_on_a_narrow_screen_a_problem_read_whole_leaves_the_map_a_row_and_no_note_covers_it(tmp_path) -> None:
    """The problems panel grows to show the highlighted problem whole, up to the map's top rows: beside the
    sidebar that was the screen less ten rows, which under a narrow screen's map (the sidebar under it)
    would have pushed the map out. And a notification sits over the sidebar, never over the problem read."""
    app = make_app(walk_draft(tmp_path), tmp_path)
    async with app.run_test(size=PHONE, notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+k")
        highlight(app, "CR225")
        await settle(app, pilot)
        app.notify("Saved crypt.json with 3 errors: it cannot be played or published until they are fixed", timeout=8)
        await settle(app, pilot)
        panel = app.query_one(ProblemsPanel)
        assert panel.has_class("-stepping") or panel.region.height > 6, screen_text(app)  # it grew
        assert shown_region(app, "#canvas").height >= 6, screen_text(app)
        toasts = [toast.region for toast in app.screen.query("Toast")]
        assert toasts and not any(toast.overlaps(panel.region) for toast in toasts), (toasts, panel.region, screen_text(app))


@run_async
async def test_on_a_phone_a_forms_line_of_keys_wraps_whole(tmp_path) -> None:
    """The metadata form's line of keys was cut at the dialog's edge on 43 columns: "space: open a list, ti"."""
    app = three_level_app(tmp_path)
    async with app.run_test(size=PHONE) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+e")
        await settle(app, pilot)
        said = " ".join(" ".join(shown_lines(app.screen.query_one("#form-keys"))).split())
        assert said == "tab: next space: open a list, tick a box ctrl+s: OK", said
