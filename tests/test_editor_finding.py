"""Finding things (issue 13.6): the command palette by the words an author uses, Quit listed once,
find on the map, an overview of a big level, recent files, "did you mean" for unknown card ids,
new files with the $schema line, and the potion colours the seed makes."""

from __future__ import annotations

import json
from pathlib import Path

from textual.command import CommandPalette

from cardrogue.editor.files import new_document, open_document
from cardrogue.editor.recent import recent_files, remember
from cardrogue.editor.widgets.dialogs import ChoiceScreen, FormScreen
from cardrogue.editor.widgets.finding import (FindScreen, OverviewScreen, blocks_text, matching_cells, next_place,
                                                overview_text)
from cardrogue.engine.format.loader import load_campaign, load_campaign_text
from cardrogue.engine.model.potions import potion_identities
from editor_support import SIZE, burst, make_app, settle
from helpers import FIXTURE, run_async


def big_level(tmp_path: Path, size: int = 60) -> Path:
    data = json.loads(FIXTURE.read_text())
    cells = [{"at": [0, 0], "card": "starting-tile", "paths": "E", "face": "up"}]
    cells += [{"at": [x, 0], "card": "pathing-tile", "paths": "EW"} for x in range(1, size - 1)]
    cells += [{"at": [size - 1, 0], "card": "goblin", "paths": "SW"},
              {"at": [size - 1, size - 1], "card": "goblin", "paths": "N", "exit": True}]
    data["levels"] = [{"id": "big", "title": "Big", "width": size, "height": size, "cells": cells}]
    path = tmp_path / "big.json"
    path.write_text(json.dumps(data))
    return path


def test_matching_cells_by_id_or_name() -> None:
    campaign = load_campaign(FIXTURE).campaign
    level = campaign.levels[1]
    assert matching_cells(level, campaign.cards, "goblin") == [(1, 1)]
    assert matching_cells(level, campaign.cards, "Cave Bat") == [(2, 0)]
    assert matching_cells(level, campaign.cards, "tile") == [(0, 0), (2, 1)]  # starting and pathing tile
    assert matching_cells(level, campaign.cards, "troll") == []
    assert next_place([(0, 0), (2, 1)], (0, 0)) == (2, 1)
    assert next_place([(0, 0), (2, 1)], (3, 1)) == (0, 0)  # wraps round


def test_unknown_card_ids_suggest_the_card_meant() -> None:
    data = json.loads(FIXTURE.read_text())
    data["levels"][1]["cells"][3]["card"] = "the-golem"
    result = load_campaign_text(json.dumps(data), "x.json")
    assert any(d.code == "CR201" and "did you mean 'golem'?" in d.message for d in result.diagnostics)


def test_new_files_start_with_the_schema_line(tmp_path) -> None:
    doc = new_document(tmp_path / "fresh.json")
    text = doc.text()
    assert text.splitlines()[1].strip() == '"$schema": "https://cardrogue-studio.dev/schema/campaign.schema.json",'


def test_recent_files_newest_first(tmp_path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text("{}")
    b.write_text("{}")
    remember(a)
    remember(b)
    remember(a)
    assert recent_files() == [a, b]
    b.unlink()
    assert recent_files() == [a]  # a file gone is left out


def test_overview_shows_the_whole_level_in_a_few_characters(tmp_path) -> None:
    campaign = load_campaign(big_level(tmp_path)).campaign
    level = campaign.levels[0]
    text = overview_text(level, campaign.cards, {}, 20, 10, (0, 0, 5, 5), (0, 0)).plain.splitlines()
    assert len(text) == 10 and all(len(line) == 20 for line in text)
    assert text[0][0] == "S" and text[0][1:] == "■" * 19 and set(text[5]) == {"·"} and text[-1][-1] == "X"  # the exit


def test_the_overview_works_its_blocks_out_once_for_every_pick(tmp_path) -> None:
    """An arrow in the overview moves the pick: the blocks (the cards under each) are the same, so they are
    worked out once when it opens, not again for each arrow (60 arrows on a 60x60 level took seconds)."""
    campaign = load_campaign(big_level(tmp_path)).campaign
    level = campaign.levels[0]
    screen = OverviewScreen(level, campaign.cards, {}, (0, 0, 5, 5), (59, 0), (20, 10))
    assert (screen.bw, screen.bh, screen.pick) == (3, 6, (19, 0)) and len(screen.blocks) == 10
    for pick in ((19, 0), (0, 0), (7, 9)):
        shown = blocks_text(screen.blocks, screen.bw, screen.bh, screen.view, pick)
        assert shown == overview_text(level, campaign.cards, {}, 20, 10, (0, 0, 5, 5), pick)
        reversed_at = [i for i in range(len(shown.plain)) if any(span.style.reverse for span in shown[i].spans)]
        assert reversed_at == [pick[1] * 21 + pick[0]]  # 20 blocks and a newline a row


def test_the_alike_blocks_of_a_row_are_one_span(tmp_path) -> None:
    """The overview is drawn again at every arrow: a row's blocks that look alike are one span of the text (one a
    block made 60 arrows on a 60x60 level seconds of drawing), each block still in its own style."""
    campaign = load_campaign(big_level(tmp_path)).campaign
    screen = OverviewScreen(campaign.levels[0], campaign.cards, {}, (0, 0, 5, 5), (59, 0), (20, 10))
    shown = blocks_text(screen.blocks, screen.bw, screen.bh, screen.view, (19, 9))
    row = 5 * 21  # 20 blocks and a newline a row: the sixth, empty
    assert shown.plain[row:row + 20] == "·" * 20
    assert [(s.start, s.end) for s in shown.spans if s.start < row + 20 and s.end > row] == [(row, row + 20)]
    top = [(s.start, s.end) for s in shown.spans if s.end <= 20]  # the start, then the corridor under the view
    assert top == [(0, 1), (1, 2), (2, 20)], top


@run_async
async def test_an_arrow_in_the_overview_draws_the_map_again_without_a_layout(tmp_path) -> None:
    """The pick moved by an arrow restyles two characters of the overview: the map is drawn again with the pick
    where it went, and the dialog, whose size is the same, is not laid out again (each arrow cost a layout of the
    whole screen: 60 arrows on a 60x60 level, seconds)."""
    from textual.widgets import Static

    app = make_app(big_level(tmp_path), tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("m")
        overview = app.screen
        assert isinstance(overview, OverviewScreen)
        shown = overview.query_one("#overview-map", Static)
        before = overview.pick
        overview.action_pick(1, 1)
        assert overview.pick == (before[0] + 1, before[1] + 1)
        assert not shown._layout_required and not overview._layout_required
        await pilot.pause()
        assert shown.content == blocks_text(overview.blocks, overview.bw, overview.bh, overview.view, overview.pick)


@run_async
async def test_palette_finds_resize_and_lists_quit_once(campaign_file, tmp_path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        for query, wanted in (("resize", "Level properties"), ("size", "Level properties"), ("quit", "Quit"),
                              ("minimap", "Overview")):
            await pilot.press("ctrl+p")
            await pilot.pause()
            assert isinstance(app.screen, CommandPalette)
            await pilot.press(*query)
            for _ in range(500):  # the search runs in a worker: wait for its list, 5 s at most
                await app.screen.workers.wait_for_complete()
                await pilot.pause()
                titles = [str(option.prompt).split("\n")[0] for option in app.screen.query_one("CommandList")._options]
                if any(t.startswith(wanted) for t in titles):
                    break
                await pilot.pause(0.01)
            assert any(t.startswith(wanted) for t in titles), titles
            if query == "quit":
                assert sum(t.startswith("Quit") for t in titles) == 1, titles
            await pilot.press("escape")
            await pilot.pause()


@run_async
async def test_find_on_map_cycles_and_overview_jumps(tmp_path) -> None:
    app = make_app(big_level(tmp_path), tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        assert isinstance(app.screen, FindScreen)
        await pilot.press(*"goblin", "enter")
        await pilot.pause()
        assert app.canvas.cursor == (59, 0)
        await pilot.press("slash")  # the last words come back: enter goes to the next one
        assert app.screen.query_one("#find-input").value == "goblin"
        await pilot.press("enter")
        await pilot.pause()
        assert app.canvas.cursor == (59, 59)
        assert app.canvas.scroll_y > 0  # the map scrolled to it
        await pilot.press("slash", "enter")
        await pilot.pause()
        assert app.canvas.cursor == (59, 0)  # round again
        await pilot.press("m")
        await pilot.pause()
        assert isinstance(app.screen, OverviewScreen)
        overview = app.screen
        assert overview.pick[0] > 2  # the block of the cursor, far from the left edge
        burst(app, *["left"] * (overview.pick[0] + 2))  # past the left edge: the pick stops at the first column
        await settle(app, pilot)
        assert overview.pick[0] == 0
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, OverviewScreen)
        assert app.canvas.cursor[0] < overview.bw and app.canvas.cursor[1] < overview.bh


@run_async
async def test_recent_files_in_the_editor(campaign_file, tmp_path) -> None:
    other = tmp_path / "other.json"
    other.write_bytes(FIXTURE.read_bytes())
    remember(other)
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert recent_files()[:2] == [campaign_file.absolute(), other]  # the open file remembered first
        await app.run_action("open_recent")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("enter")
        await pilot.pause()
        await settle(app, pilot)
        assert app.doc.path == other


@run_async
async def test_potion_form_shows_the_colours_the_seed_makes(campaign_file, tmp_path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        seeded = potion_identities(app.campaign.seed, app.campaign.potions)
        await pilot.press("f7")
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        labels = [str(label.render()) for label in app.screen.query(".field-label")]
        assert f"Red potion (not set: seed {app.campaign.seed} makes it {seeded['red']})" in labels
        assert not any(label.endswith("not set") for label in labels)


@run_async
async def test_the_map_dialogs_show_their_keys_whole_at_80x24(tmp_path) -> None:
    """The overview's line of keys ended 'enter: go there   esca' at 80x24 (tutor22): the dialog, as wide as
    its widest line, was cut at 95% of the screen, and 'escape: close' was lost. Every line of the overview,
    the legend and the find dialog is shown whole."""
    from textual.widgets import Label

    from helpers import shown_lines

    app = make_app(big_level(tmp_path), tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        for key in ("m", "l", "slash"):
            await pilot.press(key)
            await settle(app, pilot)
            for label in app.screen.query(Label):
                wanted = " ".join(str(label.render()).split())
                shown = " ".join(" ".join(shown_lines(label)).split())
                assert shown == wanted, (key, shown, wanted)
            await pilot.press("escape")
            await settle(app, pilot)


@run_async
async def test_the_palette_makes_each_cards_line_once(tmp_path, monkeypatch) -> None:
    """Every file opened, template and undo that changes the cards fills the palette again: a card's line
    (colour, name, ``*`` for the campaign's own) was parsed from markup each time; it is made once."""
    from cardrogue.editor.widgets import palette as palette_module
    from cardrogue.editor.widgets.palette import Palette

    made: list[str] = []
    shown = palette_module.markup
    monkeypatch.setattr(palette_module, "markup", lambda template, **values: made.append(values["name"]) or shown(
        template, **values))
    palette_module.card_label.cache_clear()
    app = make_app(FIXTURE, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        palette = app.query_one(Palette)
        lines = palette.query_one("#palette-list").option_count
        assert lines > 20 and len(made) == lines and "Goblin" in made
        palette.show(app.campaign.cards, set(app.campaign.card_entries) | {"goblin"})  # goblin now the campaign's own
        await settle(app, pilot)
        assert made[lines:] == ["Goblin"] and palette.query_one("#palette-list").option_count == lines
        prompt = palette.query_one("#palette-list").get_option("goblin").prompt
        assert str(prompt).startswith("● Goblin") and str(prompt).endswith("*")
