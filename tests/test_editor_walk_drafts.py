"""A new author's two-level draft at 80x24 (walk 13): a ladder to nowhere, an unknown enemy, a
practice hero on an empty place of the second level. Every problem is found and read whole from the
editor alone: ``enter`` on a problem shows its place on the map, the Cell panel of an empty place
names the problem there, the problems list shows the entry it highlights whole, and the draft's
notifications give the first error in the editor's words."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import OptionList

from cardrogue.editor.phrasing import editor_message
from cardrogue.editor.widgets.problems import ProblemsPanel
from editor_support import app_on, make_app, press, settle
from helpers import notes, run_async, shown_lines


def walk_draft(tmp_path: Path) -> Path:
    """Level 1: a corridor to a ladder that leads nowhere (CR208). Level 2, 5x5: an unknown
    'gobblin' (CR201), the exit, and a practice hero standing at (4, 4), where no card is (CR225)."""
    corridor = [{"at": [x, 1], "card": "pathing-tile", "paths": "EW", "face": "down"} for x in (1, 2, 3)]
    data = {
        "format": 1, "id": "crypt", "title": "The Crypt", "rules": "1.1.2", "seed": 1,
        "hero": {"character": "warrior"},
        "levels": [
            {"id": "level-1", "title": "The First Room", "width": 5, "height": 3, "cells": [
                {"at": [0, 1], "card": "starting-tile", "paths": "E", "face": "up"}, *corridor,
                {"at": [4, 1], "card": "descending-ladder", "paths": "W", "face": "down"}]},
            {"id": "level-2", "title": "New level", "hero": {"at": [4, 4]}, "width": 5, "height": 5, "cells": [
                {"at": [0, 0], "card": "starting-tile", "paths": "E", "face": "up"},
                {"at": [1, 0], "card": "gobblin", "paths": "EW", "face": "down"},
                {"at": [2, 0], "card": "pathing-tile", "paths": "EW", "face": "down"},
                {"at": [3, 0], "card": "pathing-tile", "paths": "W", "face": "down", "exit": True}]},
        ],
    }
    path = tmp_path / "crypt.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def story_app(tmp_path: Path, story: str):
    """The editor on the walk's draft with ``story`` as its first level's story."""
    data = json.loads(walk_draft(tmp_path).read_text(encoding="utf-8"))
    data["levels"][0]["story"] = story
    return app_on(data, tmp_path / "story.json", tmp_path)


async def opened_story(app, pilot) -> None:
    """The Story tab opened (F3) and settled."""
    await settle(app, pilot)
    await press(app, pilot, "f3")


def words(lines: list[str]) -> str:
    return " ".join(" ".join(lines).split())


def highlight(app, code: str) -> None:
    panel, options = app.query_one(ProblemsPanel), app.query_one("#problems-list", OptionList)
    options.highlighted = next(i for i, d in enumerate(panel.diagnostics) if d.code == code)


@run_async
async def test_enter_on_a_problem_of_another_level_scrolls_the_map_to_its_place(tmp_path) -> None:
    """The first level is shown (3 rows); CR225 is at (4, 4) of the 5x5 second level: the map shows
    that place, not the second level's first rows with the cursor below the panel's edge."""
    app = make_app(walk_draft(tmp_path), tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert app.level_index == 0
        await pilot.press("ctrl+k")
        highlight(app, "CR225")
        await press(app, pilot, "enter")
        canvas = app.canvas
        assert app.level_index == 1 and canvas.cursor == (4, 4)
        top = 4 * canvas.cell_h
        assert canvas.scroll_y <= top and top + canvas.cell_h <= canvas.scroll_y + canvas.scrollable_content_region.height, (
            canvas.scroll_y, canvas.scrollable_content_region)


@run_async
async def test_the_cell_panel_of_an_empty_place_names_the_problem_there(tmp_path) -> None:
    """CR225 is placed at an empty place (the practice hero stands where no card is): the Cell panel
    there says so, with the editor's way to fix it, as it does on a card."""
    app = make_app(walk_draft(tmp_path), tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        app.set_level(1)
        app.canvas.move_to(4, 4)
        await settle(app, pilot)
        summary = str(app.query_one("#inspector-summary").render())
        assert "empty" in summary and "CR225" in summary and "press p in the Levels panel" in summary, summary


@run_async
async def test_the_problem_highlighted_is_read_whole_at_80x24(tmp_path) -> None:
    """A problem with its editor fix runs to several lines at 80 columns: with the list focused, the
    panel grows so the highlighted entry is shown whole (it showed its first two lines, the fix cut)."""
    app = make_app(walk_draft(tmp_path), tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        options = app.query_one("#problems-list", OptionList)
        await pilot.press("ctrl+k")
        for code in ("CR225", "CR201", "CR208"):
            highlight(app, code)
            await settle(app, pilot)
            entry = " ".join(str(options.highlighted_option.prompt).split())
            assert entry in words(shown_lines(options)), (code, entry, shown_lines(options))
        await pilot.press("ctrl+g")  # the map again: the panel gives its rows back
        await settle(app, pilot)
        assert app.query_one(ProblemsPanel).outer_size.height <= 7


@run_async
async def test_a_drafts_notifications_give_its_first_error_in_the_editors_words(tmp_path) -> None:
    """Opening, saving and play-testing the draft name its first error as the problems panel does
    (CR208: press t on it), not in the file's terms ('"to"') that send the author to a text editor."""
    app = make_app(walk_draft(tmp_path), tmp_path)
    told = notes(app)  # every one raised: a toast's seconds may be over by the time a loaded machine gets here
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        panel = app.query_one(ProblemsPanel)
        first = next(d for d in panel.diagnostics if d.code == "CR208")
        await press(app, pilot, "ctrl+s")
        await press(app, pilot, "f5")
        for start in ("crypt.json opens as a draft", "Saved crypt.json with", "Not played: "):
            said = next(n for n in told if n.startswith(start))
            assert f"(first: CR208 The First Room (4, 1): {editor_message(first)})" in said and '("to")' not in said, said


@run_async
async def test_a_drafts_notifications_name_the_place_of_an_error_the_schema_found(tmp_path) -> None:
    """A card id written 'Goblin' (CR105, found by the schema, whose diagnostics carry only a JSON path):
    the problems panel said 'The Toll (2, 0)', but opening, saving, F5 and F6 said '(first: CR105: card
    "Goblin" ...)' with no place (tutor22). The file lists its cells out of the map's order, so the
    place comes from the cell the error is on, not from its index."""
    cells = [{"at": [1, 0], "card": "Goblin", "paths": "EW", "face": "down"},
             {"at": [0, 0], "card": "starting-tile", "paths": "E", "face": "up"},
             {"at": [2, 0], "card": "pathing-tile", "paths": "W", "face": "down", "exit": True}]
    data = {"format": 1, "id": "toll", "title": "The Toll", "rules": "1.1.2", "seed": 1,
            "hero": {"character": "warrior"},
            "levels": [{"id": "the-toll", "title": "The Toll", "width": 3, "height": 1, "cells": cells}]}
    path = tmp_path / "toll.json"
    app = app_on(data, path, tmp_path)
    told = notes(app)  # every one raised: a toast's seconds may be over by the time a loaded machine gets here
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert any(" CR105 The Toll (1, 0): " in line for line in shown_lines(app.query_one("#problems-list", OptionList)))
        await press(app, pilot, "ctrl+s")
        await press(app, pilot, "f5")
        await press(app, pilot, "f6")
        told.append(str(app.query_one("#solve-status").render()))
        for start in ("toll.json opens as a draft", "Saved toll.json with", "Not played: ", "the campaign has 1 error"):
            said = " ".join(next(n for n in told if start in n).split())
            assert '(first: CR105 The Toll (1, 0): card "Goblin" is not a valid id' in said, said


def test_a_drafts_note_names_the_form_field_of_an_error_off_the_map(tmp_path) -> None:
    """An unknown card in the hero's hand: the note names 'hero, items' as the problems panel does."""
    from cardrogue.editor.files import draft_note, open_document

    data = json.loads(walk_draft(tmp_path).read_text(encoding="utf-8"))
    data["hero"]["items"] = ["red-poton"]
    data["levels"][0]["cells"][-1]["to"] = "level-2"
    data["levels"][1]["cells"][1]["card"] = "goblin"
    del data["levels"][1]["hero"]
    path = tmp_path / "hero.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    doc = open_document(path)
    assert draft_note(list(doc.opened_errors)).startswith(
        "1 error: it cannot be played or published until it is fixed (first: CR201 hero, items: unknown card 'red-poton'")


@run_async
async def test_an_edit_on_the_map_leaves_the_story_preview_as_it_is(tmp_path) -> None:
    """Each edit showed the level's story again, its Markdown preview parsed and laid out anew: with a
    story over the limit (a 5 MB string typed by hand, CR108) every key on the map took a minute. The
    preview is rendered when its text changes, not on every edit of the campaign."""
    from cardrogue.editor.shown import StoryMarkdown

    app = story_app(tmp_path, "A story. " * 10)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        preview = app.query_one(StoryMarkdown)
        rendered: list[str] = []
        shown = preview.update

        def update(text: str):
            rendered.append(text)
            return shown(text)

        preview.update = update
        app.canvas.focus()
        app.canvas.move_to(0, 0)
        await pilot.press("enter", "right", "enter", "n")  # two cards placed, a path opened
        await settle(app, pilot)
        assert app.doc.dirty and rendered == []
        await pilot.press("f3")  # the story itself edited: the preview follows
        await settle(app, pilot)
        app.query_one("#story-source").insert("More. ")
        await settle(app, pilot)
        assert rendered and rendered[-1].startswith("More. A story."), rendered


@run_async
async def test_a_story_over_the_limit_is_kept_whole_and_previewed_up_to_the_limit(tmp_path) -> None:
    """A story far over the schema's limit (CR108) is kept whole in the source to be cut by the author,
    and its preview renders the first STORY_LIMIT characters and says it is cut (a 5 MB preview took
    14 s of CPU to lay out each time the Story tab showed it)."""
    from cardrogue.editor.shown import StoryMarkdown
    from cardrogue.editor.widgets.story import STORY_LIMIT
    from cardrogue.engine.format.resources import load_schema

    limits = {p["maxLength"] for p in _stories(load_schema("campaign.schema.json"))}
    assert limits == {STORY_LIMIT}
    story = "B" * (STORY_LIMIT + 5000)
    app = story_app(tmp_path, story)
    async with app.run_test(size=(80, 24)) as pilot:
        await opened_story(app, pilot)
        assert app.query_one("#story-source").text == story
        source = app.query_one(StoryMarkdown).source
        assert source.startswith("B" * STORY_LIMIT) and "B" * (STORY_LIMIT + 1) not in source
        assert "25,000 characters" in source and "20,000" in source, source[-200:]


def _stories(schema: dict):
    """Every ``story`` property of the campaign schema."""
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "story" and isinstance(value, dict) and "maxLength" in value:
                yield value
            else:
                yield from _stories(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from _stories(item)


@run_async
async def test_enter_on_a_practice_hero_outside_the_grid_opens_the_field_that_places_him(tmp_path) -> None:
    """CR225 for a practice hero at (9, 9) of the 5x5 second level: no place of the map is his, so
    enter does not land on the nearest edge place (whose Cell panel did not list the problem); it opens
    that level's properties form with the problem under "Practice hero at", the field that fixes it."""
    from cardrogue.editor.widgets.dialogs import FormScreen
    from editor_support import form_error

    path = walk_draft(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["levels"][1]["hero"]["at"] = [9, 9]
    app = app_on(data, path, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+k")
        highlight(app, "CR225")
        await press(app, pilot, "enter")
        assert app.level_index == 1
        assert isinstance(app.screen, FormScreen) and app.screen.title_text == "Level 2", app.screen
        said = form_error(app, "at")
        assert "CR225" in said and "outside the level's 5×5 grid" in said, said
        assert app.screen.focused is app.screen.query_one("#form-at")
        await pilot.press("ctrl+u", *"0 0", "enter")  # the starting tile: fixed
        await settle(app, pilot)
        assert not isinstance(app.screen, FormScreen)
        assert not [d for d in app.query_one(ProblemsPanel).diagnostics if d.code == "CR225"]


@run_async
async def test_a_story_far_over_the_limit_opens_its_first_part_without_a_freeze(tmp_path) -> None:
    """A story of 5 MB (a hostile or pasted file): the source loaded it whole, 14 s of CPU before the
    Story tab answered (about 3 µs a character). Beyond SOURCE_LIMIT the source holds the first
    STORY_LIMIT characters and says so; the story is kept whole until the author edits there (an edit
    keeps the part shown, and ctrl+z on the map brings the rest back); a save without an edit keeps it whole."""
    from cardrogue.editor.widgets.story import SOURCE_LIMIT, STORY_LIMIT

    story = "C" * (SOURCE_LIMIT + 1)
    app = story_app(tmp_path, story)
    async with app.run_test(size=(80, 24)) as pilot:
        await opened_story(app, pilot)
        source = app.query_one("#story-source")
        assert source.text == story[:STORY_LIMIT]
        said = " ".join(str(app.query_one("#story-cut").render()).split())
        assert f"{SOURCE_LIMIT + 1:,} characters" in said and f"first {STORY_LIMIT:,}" in said, said
        assert app.campaign.levels[0].story == story and not app.doc.dirty
        await press(app, pilot, "ctrl+s")
        assert json.loads(app.doc.path.read_text(encoding="utf-8"))["levels"][0]["story"] == story
        source.focus()
        await press(app, pilot, "home", "D")
        assert app.campaign.levels[0].story == "D" + story[:STORY_LIMIT]
        app.canvas.focus()
        await press(app, pilot, "ctrl+z")
        assert app.campaign.levels[0].story == story and source.text == story[:STORY_LIMIT]


@run_async
async def test_a_notification_leaves_the_problem_being_read_uncovered_at_80x24(tmp_path) -> None:
    """While the problems list has the focus its panel grows to show the highlighted problem whole, up
    to the map's top rows: a notification at the top right (an 8 s draft note, an undo) covered the
    top of that problem for seconds. While the panel is grown the notifications sit over the sidebar."""
    app = make_app(walk_draft(tmp_path), tmp_path)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+k")
        highlight(app, "CR225")
        await settle(app, pilot)
        app.notify("Saved crypt.json with 3 errors: it cannot be played or published until they are fixed "
                   "(first: CR208 The First Room (4, 1): this ladder leads nowhere)", timeout=8)
        await settle(app, pilot)
        panel = app.query_one(ProblemsPanel).region
        toasts = [toast.region for toast in app.screen.query("Toast")]
        assert toasts and not any(toast.overlaps(panel) for toast in toasts), (toasts, panel)
        await pilot.press("ctrl+g")  # the map again: the panel gives its rows back, the notes their place
        await settle(app, pilot)
        toasts = [toast.region for toast in app.screen.query("Toast")]
        assert toasts and all(toast.x > 28 for toast in toasts), toasts  # the top right, over the map


@run_async
async def test_a_notification_over_the_sidebar_is_read_whole_at_80x24(tmp_path) -> None:
    """Seen in tmux at 80x24 (walk20): ctrl+s with the problems list focused put the 'Saved ... with 1 error'
    note over the sidebar with the last letter of each line hidden ('unti', 'CR31'): the toast was as wide
    as the rack, whose scrollbar gutter took two columns of it. Every column of the toast is shown."""
    app = make_app(walk_draft(tmp_path), tmp_path)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "ctrl+k")
        app.notify("Saved crypt.json with 3 errors: it cannot be played or published until they are fixed", timeout=8)
        await settle(app, pilot)
        toasts = list(app.screen.query("Toast"))
        assert toasts
        for toast in toasts:
            right = toast.region.right - 1
            shown, _ = app.screen.get_widget_at(right, toast.region.y + 1)
            assert shown is toast, (toast.region, shown)
