"""A descending ladder's destination is chosen from the campaign's other levels, shown as
"title (id)" (the level list shows titles: an author typing an id did not know which to type),
with "none" to leave it empty; a draft's value that names no level stays as it is, openable,
savable and still named by the check (CR205), until the author chooses."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import OptionList, Select

from cardrogue.editor.widgets.inspector import destination_options
from editor_support import make_app, settle
from helpers import FIXTURE, run_async


def test_destinations_are_titles_and_ids_and_keep_an_unknown_value() -> None:
    levels = (("the-old-shop", "The Old Shop"), ("untitled", ""))
    assert destination_options("the-old-shop", levels) == [
        ("The Old Shop (the-old-shop)", "the-old-shop"), ("untitled", "untitled")]
    assert destination_options("", levels)[0] == ("The Old Shop (the-old-shop)", "the-old-shop")
    assert destination_options("nowhere", levels)[0] == ("nowhere (no such level)", "nowhere")


def labels(select: Select) -> list[str]:
    """The entries the list offers, as its drop-down shows them."""
    return [str(option.prompt) for option in select.query_one(OptionList).options]


async def choose(app, pilot, index: int) -> None:
    """Open the ladder's list from the keyboard and choose its ``index``-th entry (0: none)."""
    select = app.query_one("#inspector-to", Select)
    select.focus()
    await pilot.press("enter")
    await pilot.pause()
    await pilot.press("home", *["down"] * index, "enter")
    await settle(app, pilot)


@run_async
async def test_the_ladder_list_chooses_another_level_or_none(tmp_path) -> None:
    path = tmp_path / "three.json"
    path.write_bytes(FIXTURE.read_bytes())
    app = make_app(path, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        app.canvas.move_to(4, 1)  # the first level's ladder, to the-old-shop
        await pilot.pause()
        select = app.query_one("#inspector-to", Select)
        assert select.display and select.value == "the-old-shop"
        assert labels(select) == ["none (choose a level)", "The Old Shop (the-old-shop)", "The Way Out (the-way-out)"]
        await choose(app, pilot, 2)
        assert app.campaign.levels[0].cell_at(4, 1).to == "the-way-out"
        await choose(app, pilot, 0)  # none: the ladder leads nowhere yet, and the check says so
        assert app.campaign.levels[0].cell_at(4, 1).to is None
        assert any(d.code == "CR208" and d.cell == (4, 1) for d in app.diagnostics)
        await pilot.press("ctrl+z")
        await settle(app, pilot)
        assert app.campaign.levels[0].cell_at(4, 1).to == "the-way-out" and select.value == "the-way-out"
        app.canvas.move_to(0, 1)  # not a ladder: no list
        await pilot.pause()
        assert not select.display


@run_async
async def test_a_draft_naming_no_level_opens_keeps_it_and_saves_it(tmp_path) -> None:
    data = json.loads(FIXTURE.read_text())
    data["levels"][0]["cells"] = [dict(c, to="the-old-shpo") if c.get("to") else c for c in data["levels"][0]["cells"]]
    path = tmp_path / "draft.json"
    path.write_text(json.dumps(data))
    app = make_app(path, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        app.canvas.move_to(4, 1)
        await settle(app, pilot)
        select = app.query_one("#inspector-to", Select)
        assert select.value == "the-old-shpo" and labels(select)[1] == "the-old-shpo (no such level)"
        assert any(d.code == "CR205" and "the-old-shpo" in d.message for d in app.diagnostics)
        app.canvas.move_to(0, 1)  # the list is left alone: moving on changes nothing
        await settle(app, pilot)
        app.action_toggle_face()  # another edit, then save: the draft's value is written back as it was
        await settle(app, pilot)
        await pilot.press("ctrl+s")
        await settle(app, pilot)
    saved = json.loads(Path(path).read_text())
    assert [c["to"] for c in saved["levels"][0]["cells"] if "to" in c] == ["the-old-shpo"]
