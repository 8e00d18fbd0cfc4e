"""Panels that fit (issue 13.4): the problems panel scrolls to every entry, problems cite the cell
or the form field (the CLI keeps the file's line), counts in words, the Cell panel wraps and
scrolls to its fields, focus shows, every field is reached from the keyboard, and the footer
fits at 80 and 120 columns with F1 Help first (a dialog shows its own keys)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import OptionList

from cardrogue.editor.widgets.dialogs import FormScreen
from cardrogue.editor.widgets.footer import EditorFooter
from cardrogue.editor.widgets.inspector import Inspector
from cardrogue.editor.widgets.problems import ProblemsPanel, field_name, location
from cardrogue.engine.format.diagnostics import Diagnostic, Severity
from cardrogue.engine.words import counted
from editor_support import make_app, settle, three_level_app
from helpers import FIXTURE, run_async, screen_text, shown_lines


def many_problems(tmp_path: Path) -> Path:
    """The fixture with a row of cards without paths: a dozen warnings on the first level."""
    data = json.loads(FIXTURE.read_text())
    level = data["levels"][0]
    level["height"] = 6
    level["cells"] += [{"at": [x, 4], "card": "goblin"} for x in range(5)]
    level["cells"] += [{"at": [x, 5], "card": "cave-bat"} for x in range(5)]
    path = tmp_path / "many.json"
    path.write_text(json.dumps(data))
    return path


def test_field_names_not_lines() -> None:
    assert field_name(("cards", "goblin", "attack")) == "card goblin, attack"
    assert field_name(("cards", "goblin", "abilities", 1)) == "card goblin, ability 2"
    assert field_name(("hero", "items", 2)) == "hero, items"
    assert field_name(("potions", "red")) == "potion red"
    assert field_name(("title",)) == "campaign, title"
    assert field_name(()) == "campaign"
    titles = ["The Cave-In", "The Old Shop"]
    at_line = Diagnostic("CR201", "unknown card", path=("hero", "items", 0), line=17)
    assert location(at_line, titles) == "hero, items"
    assert "17" in at_line.render()  # the CLI keeps the line
    goal = Diagnostic("CR221", "x", path=("levels", 1, "goals", 0, "slay"), level=1)
    assert location(goal, titles) == "The Old Shop, goal"
    assert location(Diagnostic("CR301", "x", level=0, cell=(2, 1)), titles) == "The Cave-In (2, 1)"


def test_a_level_wide_problem_names_the_level_not_its_id_field() -> None:
    """CR310 and CR311 are about a whole level (no ladder reaches it, no way out of it): the editor
    names the level, not "The Cave-In, id" as if the id were wrong (the tutorial's step 6)."""
    from cardrogue.engine.analysis.check import check_text

    data = json.loads(FIXTURE.read_text())
    for cell in data["levels"][-1]["cells"]:
        if cell.get("exit"):
            cell["paths"] = ""
    titles = [lv.get("title") or lv["id"] for lv in data["levels"]]
    found = [d for d in check_text(json.dumps(data)) if d.code == "CR311"]
    assert found and all(location(d, titles) == titles[d.level] for d in found)
    assert all(d.json_path == f"$.levels[{d.level}]" for d in found)


def test_a_level_wide_problem_names_its_level_once_by_the_name_the_editor_shows() -> None:
    """CR306, CR310 and CR311 are placed on their level, as CR301-CR308 are: the message does not name
    that level again by its id, where the editor has just named it by its title ("The Cave-In: from level
    'the-cave-in' no exit...", the newcomer's walk); the levels a ladder leads to keep their ids, as CR302
    and CR312 name them (the ladder's "to" holds the id)."""
    from cardrogue.engine.analysis.check import check_text

    data = json.loads(FIXTURE.read_text())
    for cell in data["levels"][-1]["cells"]:
        if cell.get("exit"):
            cell["paths"] = ""
    data["levels"].append({**data["levels"][1], "id": "lost", "title": "Lost Room",
                           "cells": [c for c in data["levels"][1]["cells"] if c["card"] != "descending-ladder"]})
    found = [d for d in check_text(json.dumps(data)) if d.code in ("CR306", "CR310", "CR311")]
    assert {d.code for d in found} == {"CR306", "CR310", "CR311"}, found
    for d in found:
        assert data["levels"][d.level]["id"] not in d.message, d.message


def test_counts_in_words() -> None:
    assert [counted(n, "warning") for n in (0, 1, 2)] == ["0 warnings", "1 warning", "2 warnings"]


@run_async
async def test_problems_panel_scrolls_to_every_entry(tmp_path) -> None:
    app = make_app(many_problems(tmp_path), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        panel, options = app.query_one("#problems"), app.query_one("#problems-list", OptionList)
        assert options.option_count > 6
        # the list fits inside its panel (it scrolls, it is not cut off by the panel's edge)
        assert panel.content_region.contains_region(options.region)
        await pilot.press("ctrl+k")
        for index in range(options.option_count):
            options.highlighted = index
            await pilot.pause()
            # the whole entry is in view: every word of it on the list's lines as the screen shows them
            entry = " ".join(str(options.highlighted_option.prompt).split())
            assert entry in " ".join(" ".join(shown_lines(options)).split()), (index, entry)
        assert options.scroll_y > 0
        assert "warning" in str(app.query_one("#problems-summary").render())


@run_async
async def test_an_entry_as_wide_as_the_problems_list_takes_one_line_whether_the_list_scrolled_before(tmp_path) -> None:
    """An entry that fits the list only without its scrollbar (seen at 120 columns with CR208): no
    empty line after it once the scrollbar goes, and no line of it cut when the scrollbar comes; the
    entry highlighted stays highlighted when the list lays its entries out again."""
    app = make_app(many_problems(tmp_path), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        panel, options = app.query_one(ProblemsPanel), app.query_one("#problems-list", OptionList)
        titles = ["The First Room"]
        many = [Diagnostic("CR223", f"a card without paths {i}", Severity.WARNING, level=0, cell=(i, 1)) for i in range(12)]
        panel.show(many, titles)
        await pilot.pause()
        assert options.show_vertical_scrollbar
        # codes the editor shows as the check says them (no editor phrasing: editor/phrasing.py)
        head = 'E CR301 The First Room (1, 1): a descending ladder must name the level it leads to ("to")'
        width = options.size.width  # the list's width without a scrollbar
        message = head.split(": ", 1)[1] + "!" * (width - len(head))
        wide = Diagnostic("CR301", message, level=0, cell=(1, 1))
        short = Diagnostic("CR311", "a card without paths", Severity.WARNING, level=0, cell=(2, 1))
        panel.show([wide, short], titles)  # the scrollbar goes
        await pilot.pause()
        lines = [options.render_line(y).text.rstrip() for y in range(3)]
        assert not options.show_vertical_scrollbar and len(lines[0]) == width, lines
        assert lines[1] == "W CR311 The First Room (2, 1): a card without paths" and lines[2] == "", lines
        panel.show([wide, *many], titles)  # the scrollbar comes: the wide entry takes two lines, both shown
        await pilot.pause()
        lines = [options.render_line(y).text.rstrip() for y in range(3)]
        assert options.show_vertical_scrollbar and " ".join(lines[:2]).endswith(message[-20:]), lines
        assert lines[2].startswith("W CR223"), lines
        options.highlighted = 3
        panel.styles.height = panel.styles.max_height = 30  # the scrollbar goes again: the entry chosen stays chosen
        await settle(app, pilot)
        assert not options.show_vertical_scrollbar and options.highlighted == 3


@run_async
async def test_cell_panel_wraps_and_every_field_is_reached_by_keys(tmp_path) -> None:
    app = make_app(many_problems(tmp_path), tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        app.canvas.move_to(0, 4)  # a goblin with no paths: a long warning in the Cell panel
        await pilot.pause()
        inspector = app.query_one(Inspector)
        summary = app.query_one("#inspector-summary")
        assert summary.size.height > 5  # wrapped onto as many lines as it needs, none cut
        assert summary.size.width <= inspector.scrollable_content_region.width
        # ctrl+t reaches the inscription; tab goes on to the scripted rolls, scrolled into view
        await pilot.press("ctrl+t")
        assert app.focused is app.query_one("#inspector-inscription")
        await pilot.press("tab")
        rolls = app.query_one("#inspector-rolls")
        assert app.focused is rolls
        await pilot.pause()
        assert inspector.region.contains_region(rolls.region)
        await pilot.press(*"6 1", "enter")
        await pilot.pause()
        assert app.campaign.levels[0].cell_at(0, 4).rolls == (6, 1)
        # the focus shows: the panel holding it has the accent border, the map (not focused) does not
        await pilot.press("ctrl+t")
        await pilot.pause()
        accent = inspector.styles.border_top[1]
        assert accent != app.query_one("#canvas").styles.border_top[1]
        await pilot.press("ctrl+g")
        await pilot.pause()
        assert app.query_one("#canvas").styles.border_top[1] == accent


def footer_keys(app) -> list[tuple[str, str]]:
    footer = app.screen.query_one(EditorFooter)
    return [(key.key, key.description) for key in footer.query("FooterKey")]


async def footer_fits(app, width: int, first: str = "f1") -> None:
    footer = app.screen.query_one(EditorFooter)
    keys = list(footer.query("FooterKey"))
    assert keys[0].key == first  # on the main screen Help first, always seen
    assert keys[-1].region.right <= width  # nothing cut off at the right edge


@run_async
async def test_footer_fits_with_help_first_and_a_dialog_shows_its_own_keys(tmp_path) -> None:
    for width, height in ((80, 24), (120, 40)):
        app = make_app(many_problems(tmp_path), tmp_path)
        async with app.run_test(size=(width, height)) as pilot:
            await settle(app, pilot)
            await footer_fits(app, width)
            keys = footer_keys(app)
            assert ("r", "Rotate") in keys and ("ctrl+p", "Commands") in keys
            await pilot.press("ctrl+e")  # a form: its keys, not the map's behind it
            await pilot.pause()
            assert isinstance(app.screen, FormScreen)
            await footer_fits(app, width, first="escape")
            keys = footer_keys(app)
            assert ("escape", "Cancel") in keys and ("ctrl+s", "OK") in keys
            assert ("r", "Rotate") not in keys and ("ctrl+z", "Undo") not in keys


def shown_text(app, widget_id: str) -> str:
    """What a widget shows on screen (words joined), as a person sees it (:func:`helpers.shown_lines`)."""
    return " ".join(" ".join(shown_lines(app.query_one(widget_id))).split())


@run_async
async def test_the_solver_verdict_is_shown_whole_at_80x24(tmp_path) -> None:
    """F6's verdict without steps (unsolvable: its reason; cannot solve: the draft's first error) is
    read whole above the problems at 80x24, not cut after two lines."""
    data = json.loads(FIXTURE.read_text())
    exit_cell = next(c for c in data["levels"][-1]["cells"] if c.get("exit"))
    exit_cell["paths"] = ""  # walled off: F6 says why there is no par
    walled = tmp_path / "walled.json"
    walled.write_text(json.dumps(data))
    del exit_cell["exit"]
    data["levels"][0]["cells"][0]["face"] = "down"  # a loader draft: F6 cannot solve it
    draft = tmp_path / "draft.json"
    draft.write_text(json.dumps(data))
    for path, level, expected in ((walled, len(data["levels"]) - 1, "Unsolvable: "), (draft, 0, "Cannot solve: ")):
        app = make_app(path, tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            app.set_level(level)
            await pilot.press("f6")
            await settle(app, pilot)
            status = " ".join(str(app.query_one("#solve-status").render()).split())
            assert status.startswith(expected) and len(status) > 100, status  # longer than two lines
            assert status in shown_text(app, "#solve-status"), (status, shown_text(app, "#solve-status"))
            # the summary of the problems stays in sight below it
            assert shown_text(app, "#problems-summary").split()[0].isdigit()


@run_async
async def test_the_footer_fits_80_columns_whatever_has_the_focus(tmp_path) -> None:
    """Every area's keys fit at 80 columns with F1 Help first and Commands last: the level list's
    (add, duplicate, remove, move, properties) were cut at 'p Proper' and the app's keys were lost."""
    app = make_app(many_problems(tmp_path), tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        for key, area in (("ctrl+l", "levels"), ("ctrl+f", "cards"), ("ctrl+t", "cell"), ("ctrl+k", "problems"),
                          ("ctrl+g", "map")):
            await pilot.press(key)
            await settle(app, pilot)
            await footer_fits(app, 80)
            keys = footer_keys(app)
            assert keys[-1] == ("ctrl+p", "Commands"), (area, keys)
            shown = list(app.screen.query_one(EditorFooter).query("FooterKey"))
            palette = shown[-1].region
            for key in shown[:-1]:  # none runs under Commands, which sits at the right edge
                assert key.region.right <= palette.x, (area, key.key, key.description, key.region, palette)
            if area == "levels":
                assert ("p", "Properties") in keys and ("a", "Add") in keys, keys


@run_async
async def test_the_cell_panel_shows_each_new_card_from_its_name(tmp_path) -> None:
    """At 80x24 the Cell panel is a few rows high and scrolls: once a field low in it had the focus
    (a ladder's list, the rolls), every card shown after kept that scroll, its name and kind out of
    sight. A card the cursor moves to is shown from its first line."""
    app = three_level_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        app.canvas.move_to(4, 1)
        await settle(app, pilot)
        await pilot.press("t", "down", "enter")  # a ladder's level chosen: the panel scrolled to its list
        await settle(app, pilot)
        assert app.focused is app.canvas and app.query_one(Inspector).scroll_y > 0
        await pilot.press("left")
        await settle(app, pilot)
        region = app.query_one(Inspector).region
        panel = [line[region.x:region.right] for line in screen_text(app).splitlines()[region.y:region.bottom]]
        assert "Spike Trap" in "\n".join(panel), panel
        await pilot.press("ctrl+r")  # a field focused keeps the panel where the field is
        await settle(app, pilot)
        assert app.query_one("#inspector-rolls").region.height == 1
        assert app.query_one(Inspector).region.contains_region(app.query_one("#inspector-rolls").region)


def shown_rows(app, selector: str) -> int:
    """How many rows of the widget are on screen (0: hidden), as its containers clip it."""
    widget = app.query_one(selector)
    if not widget.display:
        return 0
    return widget.screen.find_widget(widget).visible_region.height


@pytest.mark.parametrize("size", [(60, 20), (79, 23), (80, 24)])
@run_async
async def test_a_short_terminal_keeps_the_sidebars_three_panels(tmp_path, size) -> None:
    """Below 80x24 the Cell panel was dropped without a word (left24): the Levels panel gives up rows (it scrolls)
    and the Cards and Cell panels keep their least heights, down to 20 rows (CELL_PANEL_ROWS)."""
    app = three_level_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        assert shown_rows(app, "#levels") >= 5 and shown_rows(app, "#palette") >= 6
        assert shown_rows(app, "#inspector") >= 7, screen_text(app)
        assert shown_rows(app, "#room") == 0


@run_async
async def test_a_terminal_too_short_for_the_cell_panel_says_so_and_the_size_that_shows_it(tmp_path) -> None:
    app = three_level_app(tmp_path)
    async with app.run_test(size=(60, 19)) as pilot:
        await settle(app, pilot)
        said = "Cell panel hidden: needs 20 rows, this terminal has 19"
        assert shown_rows(app, "#inspector") == 0 and shown_lines(app.query_one("#room")) == [f" {said}".ljust(60)]
        await pilot.press("ctrl+t")  # a key to a field of the panel says why nothing happens, not "put the cursor on a card"
        await pilot.pause()
        assert said in screen_text(app)
        await pilot.resize_terminal(60, 20)
        await settle(app, pilot)
        assert shown_rows(app, "#inspector") >= 7 and shown_rows(app, "#room") == 0


@run_async
async def test_the_footer_mounts_its_keys_again_only_when_they_change(tmp_path) -> None:
    """The bindings change with every move of the focus; the footer's keys were unmounted and mounted
    again each time, the same keys as often as not. The same keys stay mounted; other keys replace them."""
    app = three_level_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        footer = app.screen.query_one(EditorFooter)
        keys, line = list(footer.children), " ".join(str(key.render()) for key in footer.children)
        assert "Help" in line and "Commands" in line
        app.screen.refresh_bindings()  # the bindings "changed": the same keys
        await settle(app, pilot)
        assert list(footer.children) == keys
        await pilot.press("ctrl+l")  # the level list has its own keys
        await settle(app, pilot)
        assert app.focused is app.query_one("#levels")
        other = " ".join(str(key.render()) for key in footer.children)
        assert other != line and not set(footer.children) & set(keys)
        assert other.split()[:2] == ["f1", "Help"] and other.endswith("Commands")
