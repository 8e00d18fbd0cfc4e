"""A descending ladder's destination is chosen from the campaign's other levels, shown as
"title (id)" (the level list shows titles: an author typing an id did not know which to type),
with "none" to leave it empty; a draft's value that names no level stays as it is, openable,
savable and still named by the check (CR205), until the author chooses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import OptionList, Select

from cardrogue.editor.app import EditorApp
from cardrogue.editor.commands import help_markdown
from cardrogue.editor.widgets.footer import EditorFooter
from cardrogue.editor.widgets.inspector import destination_options
from editor_support import app_on, make_app, press, settle, three_level_app
from helpers import FIXTURE, notes, run_async, screen_text, shown_lines


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
    await press(app, pilot, "home", *["down"] * index, "enter")


@run_async
async def test_the_ladder_list_chooses_another_level_or_none(tmp_path) -> None:
    app = three_level_app(tmp_path)
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
        await press(app, pilot, "ctrl+z")
        assert app.campaign.levels[0].cell_at(4, 1).to == "the-way-out" and select.value == "the-way-out"
        app.canvas.move_to(0, 1)  # not a ladder: no list
        await pilot.pause()
        assert not select.display


@run_async
async def test_a_draft_naming_no_level_opens_keeps_it_and_saves_it(tmp_path) -> None:
    data = json.loads(FIXTURE.read_text())
    data["levels"][0]["cells"] = [dict(c, to="the-old-shpo") if c.get("to") else c for c in data["levels"][0]["cells"]]
    path = tmp_path / "draft.json"
    app = app_on(data, path, tmp_path)
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
        await press(app, pilot, "ctrl+s")
    saved = json.loads(Path(path).read_text())
    assert [c["to"] for c in saved["levels"][0]["cells"] if "to" in c] == ["the-old-shpo"]


def many_levels(tmp_path: Path, count: int) -> Path:
    """The three-level campaign with ``count`` more levels after its first, each a copy of its last
    without its exit."""
    data = json.loads(FIXTURE.read_text())
    last = data["levels"][-1]
    data["levels"][1:1] = [dict(last, id=f"side-room-{i}", title=f"Side Room {i}") for i in range(count)]
    for level in data["levels"][1:-1]:  # one exit, on the last level
        level["cells"] = [{k: v for k, v in c.items() if k != "exit"} for c in level["cells"]]
    path = tmp_path / "many.json"
    path.write_text(json.dumps(data))
    return path


def footer_line(app) -> str:
    return screen_text(app).splitlines()[-1]


@pytest.mark.parametrize("extra", [0, 20])
@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 50)])
@run_async
async def test_the_open_list_fits_the_screen_and_scrolls_inside_it(tmp_path, size, extra) -> None:
    """At 80x24 the open list ran over the footer (the Cell panel's list sits on its last row): it
    stays above the footer at every size, each entry on one line, and a long list scrolls inside it."""
    app = make_app(many_levels(tmp_path, extra), tmp_path)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        closed_footer = footer_line(app)
        app.canvas.move_to(4, 1)
        await settle(app, pilot)
        await press(app, pilot, "ctrl+r", "tab", "enter")  # the Cell panel's last field (t opens it too: below)
        select = app.query_one("#inspector-to", Select)
        overlay = select.query_one("SelectOverlay")
        assert select.expanded and overlay.has_focus
        footer = app.screen.query_one(EditorFooter).region
        assert not overlay.region.overlaps(footer), (overlay.region, footer)
        assert app.screen.region.contains_region(overlay.region)
        text = screen_text(app)
        assert "The Way Out (the-way-out)" in text  # "title (id)" on one line, not wrapped in the sidebar
        assert footer_line(app).split()[:2] == closed_footer.split()[:2] == ["f1", "Help"], footer_line(app)
        assert "the-way-out" not in footer_line(app) and footer_line(app).rstrip().endswith("Commands")
        if extra:
            assert overlay.max_scroll_y > 0  # more levels than rows: it scrolls, in its own place
            await press(app, pilot, "end")
            assert "The Way Out (the-way-out)" in screen_text(app) and not overlay.region.overlaps(footer)


@run_async
async def test_t_opens_the_list_from_the_map_and_gives_the_focus_back(tmp_path) -> None:
    """t on a ladder opens its list (no ctrl+r, tab, enter); a choice or escape returns to the map.
    The footer offers t on a ladder, and only there; the help lists it."""
    app = three_level_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        app.canvas.move_to(0, 1)  # the starting tile: no list, no t in the footer
        await settle(app, pilot)
        assert "t Leads to" not in footer_line(app)
        await press(app, pilot, "t")
        assert app.focused is app.canvas
        app.canvas.move_to(4, 1)
        await settle(app, pilot)
        assert "t Leads to" in footer_line(app)
        await press(app, pilot, "t")
        assert app.query_one("#inspector-to", Select).expanded
        await pilot.press("down", "enter")  # from the-old-shop to the next entry
        await settle(app, pilot)
        assert app.campaign.levels[0].cell_at(4, 1).to == "the-way-out"
        assert app.focused is app.canvas and not app.query_one("#inspector-to", Select).expanded
        await press(app, pilot, "t", "escape")
        assert app.focused is app.canvas and app.campaign.levels[0].cell_at(4, 1).to == "the-way-out"
        await press(app, pilot, "ctrl+z")
        assert app.campaign.levels[0].cell_at(4, 1).to == "the-old-shop"
    assert "`t (map)` | Ladder destination:" in help_markdown(EditorApp.BINDINGS)


@run_async
async def test_a_drafts_to_on_another_card_is_shown_to_be_cleared(tmp_path) -> None:
    """A draft's "to" on a pathing tile (CR218) had no field in the editor: the list shows on that
    card too, with t in the footer, and "none" clears it."""
    data = json.loads(FIXTURE.read_text())
    data["levels"][0]["cells"][1]["to"] = "the-old-shop"  # the pathing tile at (1, 1)
    path = tmp_path / "draft.json"
    app = app_on(data, path, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert any(d.code == "CR218" and d.cell == (1, 1) for d in app.diagnostics)
        app.canvas.move_to(1, 1)
        await settle(app, pilot)
        assert app.query_one("#inspector-to", Select).display and "t Leads to" in footer_line(app)
        await press(app, pilot, "t", "home", "enter")
        assert app.campaign.levels[0].cell_at(1, 1).to is None
        assert not any(d.code == "CR218" for d in app.diagnostics)
        assert not app.query_one("#inspector-to", Select).display and "t Leads to" not in footer_line(app)


@run_async
async def test_a_click_elsewhere_closes_the_list_and_keeps_the_focus_there(tmp_path) -> None:
    app = three_level_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        app.canvas.move_to(4, 1)
        await settle(app, pilot)
        await press(app, pilot, "t")
        assert app.query_one("#inspector-to", Select).expanded
        await pilot.click("#levels")
        await settle(app, pilot)
        assert not app.query_one("#inspector-to", Select).expanded
        assert app.focused is app.query_one("#levels") and app.campaign.levels[0].cell_at(4, 1).to == "the-old-shop"


@run_async
async def test_t_off_a_ladder_says_why_it_does_nothing(tmp_path) -> None:
    """t on another card (and the palette's "Ladder destination") did nothing and said nothing, where i
    and ctrl+r say why: it says where to put the cursor, and the footer still offers t on a ladder alone."""
    app = three_level_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        said = notes(app)
        app.canvas.move_to(0, 1)  # the starting tile
        await settle(app, pilot)
        await press(app, pilot, "t")
        assert said == ["Put the cursor on a descending ladder (the level it leads to)"]
        assert app.focused is app.canvas and "t Leads to" not in footer_line(app)
        await app.run_action("choose_destination")  # the command palette's way
        assert len(said) == 2
        app.canvas.move_to(4, 1)
        await settle(app, pilot)
        await press(app, pilot, "t")
        assert app.query_one("#inspector-to", Select).expanded and len(said) == 2


@run_async
async def test_the_chosen_destination_fits_one_line_of_the_cell_panel(tmp_path) -> None:
    """At 80x24 "The Old Shop (the-old-shop)" wrapped onto two lines of the 26-column Cell panel: it
    is cut to one, ended by "…" (as the level list cuts a title), and the open list shows it whole."""
    app = three_level_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        app.canvas.move_to(4, 1)
        await settle(app, pilot)
        app.query_one("#inspector").scroll_end(animate=False)
        await settle(app, pilot)
        select = app.query_one("#inspector-to", Select)
        assert select.region.height == 1, select.region
        row = screen_text(app).splitlines()[select.region.y][select.region.x:select.region.right]
        assert row.startswith("The Old Shop (") and "…" in row, row
        await press(app, pilot, "t")
        assert "The Old Shop (the-old-shop)" in screen_text(app)


WAIT = "CR3xx route checks wait until errors are fixed"


@run_async
async def test_the_problem_list_says_why_the_route_notes_are_gone_while_a_ladder_leads_nowhere(tmp_path) -> None:
    """The graph checks (CR3xx: routes, chokepoints, the gold count) run on a campaign the loader found
    no error in: they assume what it guarantees (one starting tile, known cards, ladders to levels), so
    a draft's rule error such as CR208 leaves them out. The CR307 notes went without a word: the list
    ends with one line that says they wait, gone again with the error."""
    app = three_level_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        options = app.query_one("#problems-list", OptionList)

        def lines() -> list[str]:
            return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]

        assert any("CR307" in line for line in lines()) and not any(WAIT in line for line in lines())
        app.canvas.move_to(4, 1)
        await settle(app, pilot)
        await choose(app, pilot, 0)  # none: CR208
        assert any(d.code == "CR208" for d in app.diagnostics)
        assert not any(d.code.startswith("CR3") for d in app.diagnostics)
        assert lines()[-1].endswith(WAIT) and not any("CR307" in line for line in lines())
        # the summary's counts are not all there will be: it says so rather than "0 notes"
        assert "0 notes before the route checks" in " ".join(" ".join(shown_lines(app.query_one("#problems-summary"))).split())
        waiting = options.get_option_at_index(options.option_count - 1)
        assert waiting.disabled  # not a problem: enter goes nowhere from it
        options.scroll_end(animate=False)  # the panel is four lines at 80x24: its last one, in view
        await settle(app, pilot)
        assert WAIT in screen_text(app)  # on one line of the panel
        await press(app, pilot, "ctrl+z")
        assert any("CR307" in line for line in lines()) and not any(WAIT in line for line in lines())
        assert "before the route checks" not in " ".join(" ".join(shown_lines(app.query_one("#problems-summary"))).split())


@run_async
async def test_the_problem_list_says_the_rule_checks_wait_for_a_schema_error(tmp_path) -> None:
    """walk 27: a seed of -1 (CR106) left out the rule checks (CR2xx) as well as the route checks, and the list
    said only that the route checks wait: an unknown card came to light once the seed was mended."""
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    data["seed"] = -1
    data["levels"][0]["cells"][1]["card"] = "goblinn"
    path = tmp_path / "seed.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    app = make_app(path, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        options = app.query_one("#problems-list", OptionList)
        lines = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert [d.code for d in app.diagnostics] == ["CR106"], app.diagnostics
        assert lines[-1] == "CR2xx rule checks and CR3xx route checks wait until the schema errors (CR1xx) are fixed"
        summary = str(app.query_one("#problems-summary").render())
        assert "before the rule and route checks" in summary, summary
