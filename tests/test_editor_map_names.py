"""Readable maps (issue 13.5): short names a reader recognises, a legend, and a zoom with full names."""

from __future__ import annotations

from cardrogue.editor.widgets.legend import LegendScreen, legend_lines
from cardrogue.editor.widgets.map_canvas import short_name, squeeze, wrapped_name
from cardrogue.engine.format.catalog import default_catalog
from cardrogue.engine.format.loader import load_campaign
from editor_support import SIZE, make_app, settle
from helpers import FIXTURE, run_async


def test_short_names() -> None:
    cards = default_catalog()
    names = {card_id: short_name(cards.get(card_id), card_id) for card_id in
             ("goblin", "troll", "imp", "cave-bat", "starting-tile", "spike-trap", "red-potion", "pathing-tile",
              "shop", "descending-ladder")}
    assert names == {"goblin": "Gobln", "troll": "Troll", "imp": "Imp  ", "cave-bat": "CBat ",
                     "starting-tile": "Start", "spike-trap": "STrap", "red-potion": "RPotn", "pathing-tile": "  +  ",
                     "shop": "Shop ", "descending-ladder": "Laddr"}
    assert all(len(n) == 5 for n in names.values())
    assert squeeze("Kobold", 5) == "Kobld" and squeeze("Imp", 5) == "Imp"
    assert short_name(None, "the-golem") == "Golem"  # an unknown card: from its id, "the" left out
    assert short_name(None, "basilisk-of-stone") == "BSton"


def test_wrapped_full_names() -> None:
    cards = default_catalog()
    assert [s.strip() for s in wrapped_name(cards["descending-ladder"], "descending-ladder", 14, 2)] == [
        "Descending", "Ladder"]
    assert [s.strip() for s in wrapped_name(cards["goblin"], "goblin", 14, 2)] == ["Goblin", ""]
    long = wrapped_name(None, "a-very-long-card-name-without-spaces", 14, 2)
    assert all(len(line) == 14 for line in long) and long[0].strip().endswith("…")


def test_legend_names_every_card_on_the_level() -> None:
    campaign = load_campaign(FIXTURE).campaign
    lines = [line.plain for line in legend_lines(campaign.levels[1], campaign.cards)]
    assert any(line.startswith("Gobln  Goblin  goblin, enemy, ×1") for line in lines)
    assert any(line.startswith("CBat   Cave Bat  cave-bat, enemy") for line in lines)
    assert any("the starting tile" in line for line in lines) and any("a warning" in line for line in lines)


def middle(app, x: int, y: int, line: int = 1) -> str:
    canvas = app.canvas
    strip = canvas._render_row(y)[line]  # noqa: SLF001
    return strip.text[x * canvas.cell_w:(x + 1) * canvas.cell_w]


@run_async
async def test_zoom_shows_full_names_and_l_shows_the_legend(campaign_file, tmp_path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.set_level(1)
        await pilot.pause()
        assert middle(app, 1, 1) == "│Gobln═"  # a path east
        assert middle(app, 3, 1) == "═Laddr│"
        assert app.canvas._render_row(1)[0].text[3 * 7:4 * 7] == "┌▼────┐"  # noqa: SLF001  the ladder's mark
        await pilot.press("z")
        await pilot.pause()
        assert (app.canvas.cell_w, app.canvas.cell_h) == (16, 4)
        assert middle(app, 3, 1, 1).strip("│═ ") == "Descending"
        assert middle(app, 3, 1, 2).strip("│═ ") == "Ladder"
        assert "full names" in str(app.canvas.border_title)
        await pilot.press("right")  # the cursor still moves one card at a time
        assert app.canvas.cursor == (1, 0)
        await pilot.press("z")
        await pilot.pause()
        assert (app.canvas.cell_w, app.canvas.cell_h) == (7, 3)
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, LegendScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, LegendScreen)
