"""The play screen's layout (issue 13, point 10): board, hero and actions fit at 80x24, every key is
shown, large cards on a big terminal, and an arrow that does nothing says why."""

from __future__ import annotations

import pytest
from helpers import cell, new_state, play, recorded, run_async, screen_text, shown_lines
from test_player_campaigns import duel_dict, load
from textual.binding import Binding

from cardrogue.editor.player.app import PlayerApp
from cardrogue.editor.player.screens import PlayerScreen, StoryScreen, why_not
from cardrogue.editor.player.widgets import CELL_H, CELL_W, LARGE_H, LARGE_W, ActionMenu, BoardView, KeyBar
from cardrogue.engine.model.campaign import Direction


def app_for(tmp_path, **kw) -> PlayerApp:
    return PlayerApp(load(duel_dict(**kw)), replays_dir=None, scores_db=tmp_path / "scores.db", player="tester")


def shown_keys() -> list[Binding]:
    return [b for b in PlayerScreen.BINDINGS if b.show]


# The bundled shop level, played onto the shop beside the zombie: at 80x24 both the action list and
# the hero panel hold more than they show.
TO_THE_SHOP = ("enter", "right", "right", "full_stop", "up", "right")


def shop_level_app(tmp_path) -> PlayerApp:
    from cardrogue.engine.format.loader import load_usable
    from cardrogue.engine.format.resources import campaigns_dir

    game = load_usable(campaigns_dir() / "the-unpaid-ledger.json")
    return PlayerApp(game, replays_dir=None, scores_db=tmp_path / "s.db", player="tester")


def test_after_moving_an_arrow_toward_a_face_down_card_says_why():
    """Standard turn sequence: "1. Flip" comes before "2. Move": after moving, no card is flipped this turn."""
    s = new_state([cell(0, 0, "starting-tile", "E"), cell(1, 0, "pathing-tile", "EW"),
                   cell(2, 0, "pathing-tile", "W", face="down")])
    play(s, "move E")
    said = why_not(s.view(), Direction.E)
    assert said.startswith("Cards are flipped only before moving") and "end the turn (.)" in said
    assert "Nothing to do" not in said


@run_async
async def test_the_screen_says_why_when_the_arrow_does_nothing(tmp_path):
    app = app_for(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "right", "a", "right")  # flip E, attack (the goblin dies), move E
        screen = app.screen
        said: list[str] = []
        screen.notify = lambda message, **kw: said.append(message)
        await pilot.press("right")  # toward the face-down exit
        assert said and said[-1].startswith("Cards are flipped only before moving")


def test_the_key_bar_wraps_whole_keys():
    bar = KeyBar(PlayerScreen.BINDINGS)
    narrow, wide = bar.lines(78), bar.lines(198)
    assert len(narrow) == 2 and len(wide) == 1
    assert all(line.cell_length <= 78 for line in narrow)
    pieces = [f"{b.key_display or b.key} {b.description}" for b in shown_keys()]
    assert "  ".join(pieces) == wide[0].plain
    assert [p for line in narrow for p in line.plain.split("  ")] == pieces  # no key split over two lines


@run_async
async def test_at_80x24_board_hero_actions_and_every_key_fit(tmp_path):
    """Issue 13.4/13.10: at 80x24 the player loses no key (p, r, R and q included) and no panel is cut."""
    app = app_for(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "right")  # in combat: the enemy panel shows too
        screen = app.screen
        bar = screen.query_one(KeyBar)
        assert bar.region.bottom == 24 and bar.region.height == 2
        text = "  ".join(line.plain for line in bar.lines(bar.content_size.width))
        for binding in shown_keys():
            assert f"{binding.key_display or binding.key} {binding.description}" in text
        assert screen.query_one("#player-side").max_scroll_y == 0  # hero and enemy panels whole
        board = screen.query_one(BoardView)
        assert (board.max_scroll_x, board.max_scroll_y) == (0, 0)  # the whole level shows
        menu = screen.query_one(ActionMenu)
        assert menu.region.height >= 5 and menu.region.bottom <= bar.region.y
        assert menu.get_option_at_index(0).prompt.plain == "Attack roll on Goblin"  # one line, in words


@run_async
async def test_a_click_on_a_key_does_what_the_key_does(tmp_path):
    app = app_for(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("enter")
        bar = app.screen.query_one(KeyBar)
        line = bar.lines(bar.content_size.width)[0].plain
        # The bar has one cell of padding on the left.
        assert await pilot.click(KeyBar, offset=(1 + line.index("p Story"), 0))
        await pilot.pause()
        assert isinstance(app.screen, StoryScreen)


@run_async
async def test_a_big_terminal_shows_large_cards_and_a_wider_side(tmp_path):
    app = app_for(tmp_path)
    async with app.run_test(size=(200, 50)) as pilot:
        await pilot.press("enter", "right")
        await pilot.pause()
        screen = app.screen
        board = screen.query_one(BoardView)
        assert (board.cell_w, board.cell_h) == (LARGE_W, LARGE_H)
        assert screen.query_one("#player-side").size.width > 40
        # A card's first inner line holds the full name, the next the enemy's health and attack.
        assert "Goblin" in board.render_line(1).text and "♥4/4 ⚔2" in board.render_line(2).text
    app = app_for(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        board = app.screen.query_one(BoardView)
        assert (board.cell_w, board.cell_h) == (CELL_W, CELL_H)


@run_async
async def test_the_key_bar_leaves_out_a_key_the_screen_disables(tmp_path, monkeypatch):
    """The end screen's "h Submit to hub" shows only when a hub is configured (its check_action)."""
    monkeypatch.setattr("cardrogue.hub.client.configured", lambda: None)
    app = app_for(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "right", "a", "right", "full_stop", "right", "right")  # a won run
        await pilot.pause()
        bar = app.screen.query_one(KeyBar)
        text = " ".join(line.plain for line in bar.lines(80))
        assert "n New run" in text and "Submit to hub" not in text


def panel_text(widget) -> str:
    from rich.console import Console

    console = Console(width=60, record=True, file=open("/dev/null", "w"))
    console.print(widget.content)
    return console.export_text()


@run_async
async def test_a_bought_debt_leaves_the_shop_listing_that_turn_and_the_next(tmp_path):
    """Issue 13.8. THE SHOPKEEPER'S DEBT: "bought and removed from the game"; the shop lists only what is left."""
    from helpers import campaign as build

    from cardrogue.editor.player.widgets import HeroPanel

    shop = cell(1, 0, "shop", "W", stock=["shopkeepers-debt", "dagger"])
    game = build([cell(0, 0, "starting-tile", "E"), shop], items=["gold"] * 20)
    app = PlayerApp(game, replays_dir=None, scores_db=tmp_path / "scores.db", player="tester")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "right")  # onto the shop
        screen = app.screen
        hero, menu = screen.query_one(HeroPanel), screen.query_one(ActionMenu)
        assert "Shopkeeper's Debt" in panel_text(hero)
        screen.play(next(a for a in screen.view.legal_actions() if str(a) == "buy shopkeepers-debt"))
        await pilot.pause()
        for _ in range(2):  # this turn, then the next (the hero stays on the shop)
            assert "Shopkeeper's Debt" not in panel_text(hero) and "Dagger" in panel_text(hero)
            assert not any(menu.get_option_at_index(i).id == "buy shopkeepers-debt" for i in range(menu.option_count))
            await pilot.press("full_stop")
            await pilot.pause()
        assert screen.view.turn == 3


def test_a_replay_path_breaks_only_after_its_separators():
    """The end screen's replay path: whole, on lines that break after a "/" (a name wider than the line folds)."""
    from rich.console import Console

    from cardrogue.editor.player.screens import FoldedPath

    path = "/tmp/replays/some/deeper/folder/with-a-long-name/duel-20261123-123340-won.replay.json"
    console = Console(width=24, record=True, color_system=None)
    console.print(FoldedPath(path))
    lines = console.export_text().splitlines()
    assert "".join(lines) == path and all(len(line) <= 24 for line in lines)
    assert all(line.endswith("/") for line in lines[:-2])  # only the file name, 40 wide, folds
    assert lines[:3] == ["/tmp/replays/some/", "deeper/folder/", "with-a-long-name/"]


@run_async
async def test_actions_at_80x24_show_the_destination_whole(tmp_path):
    """A long action wraps onto a second row instead of being cut: the tile it goes to is named, and the exit
    is called the exit."""
    app = PlayerApp(load(duel_dict()), replays_dir=None, scores_db=tmp_path / "s.db", player="tester")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "right", "a")  # the goblin slain: its tile is a Pathing Tile
        menu = app.screen.query_one(ActionMenu)
        rows = [strip.text.strip() for strip in (menu.render_line(y) for y in range(menu.size.height))]
        assert rows[:3] == ["Move east to Pathing", "Tile", "End the turn"], rows
        await pilot.press("right", "full_stop", "right")  # move there, end the turn, flip the exit
        assert menu.size.width < len("Move east to Pathing Tile, the exit") + 2
        rows = [strip.text.strip() for strip in (menu.render_line(y) for y in range(menu.size.height))]
        assert rows[:4] == ["Move east to Pathing", "Tile, the exit", "Move west to", "Starting Tile"], rows


@run_async
async def test_an_action_as_wide_as_the_list_shows_whole_when_the_list_scrolls(tmp_path):
    """At 80x24 on the bundled shop level the list holds more than it shows (a scrollbar) and an entry is
    exactly as wide as the list's text: "Attack roll on Zombie". It once lost its last word (wrapped for a
    width without the scrollbar, drawn with it). The flip is named as the key bar, hints and log name it."""
    app = shop_level_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*TO_THE_SHOP)
        await pilot.pause()
        menu = app.screen.query_one(ActionMenu)
        assert menu.max_scroll_y > 0  # a scrollbar
        shown = " ".join(" ".join(line.strip("│ ▁▂▃▄▅▆▇█") for line in shown_lines(menu)).split())
        assert "Flip the card south" in shown and "Attack roll on Zombie" in shown, shown


def test_an_empty_filtered_list_says_why():
    """a, f, u, e, s with nothing to offer: the hint names the reason (docs/rules.md: "The shop before
    combat" -- the first attack or flee begins combat, and from then on the shop is closed)."""
    from cardrogue.editor.player.screens import why_no_menu

    alone = new_state([cell(0, 0, "starting-tile", "E"), cell(1, 0, "pathing-tile", "W")])
    view = alone.view()
    assert why_no_menu(view, "flee").startswith("Fleeing is for combat")
    assert why_no_menu(view, "attack").startswith("No enemy to attack")
    assert why_no_menu(view, "shop").startswith("No shop here")
    assert why_no_menu(view, "use").startswith("Nothing to use")
    assert why_no_menu(view, "equip") == "Nothing to equip: no weapon or armour in hand, and nothing worn."
    shop = new_state([cell(0, 0, "starting-tile", "E"), cell(1, 0, "shop", "SW", stock=["dagger"]),
                      cell(1, 1, "goblin", "N", face="up")], cards={"goblin": {"health": 60}})
    play(shop, "move E")
    assert shop.view().shopping_first  # the shop comes first, but with no gold and an empty hand:
    assert why_no_menu(shop.view(), "shop") == "Nothing here you can afford (0 gold) and nothing to sell."
    play(shop, "attack")
    assert shop.view().in_combat and why_no_menu(shop.view(), "shop").startswith("The shop is closed during combat")


@run_async
async def test_on_a_shop_with_nothing_to_do_the_hint_names_the_worn_equipment(tmp_path):
    """The bundled "The Unpaid Ledger": on the shop, the troll and the zombie slain, with 7 gold, a cursed idol in hand (unsellable) and a maul
    and a chestplate worn, s said only "No shop action is possible now." -- yet the way to the debt is to sell
    what is worn (docs/rules.md, SELL: "an equipped item is unequipped first"). The hint now says so."""
    from helpers import notes

    app = shop_level_app(tmp_path)
    said = notes(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*TO_THE_SHOP, "a", "a", "full_stop", "down", "a", "a")  # as its solution replay
        await pilot.pause()
        view = app.screen.view
        assert view.shop and not view.in_combat and view.hero.hand == ("cursed-idol",)
        assert not [a for a in view.legal_actions() if a.verb in ("buy", "sell")]
        await pilot.press("s")
        assert said[-1] == (f"Nothing here you can afford ({view.hero.gold} gold) and nothing in hand to sell: "
                            "worn equipment is sold once unequipped (e)."), said


@run_async
async def test_at_80x24_the_hero_panel_shows_the_hand_before_what_scrolls(tmp_path):
    """On the bundled shop level at 80x24 the hero panel holds more than fits: the hand (a cursed idol)
    and the potions known come before the goals, the shop's stock and the equipment, which scroll."""
    from cardrogue.editor.player.widgets import HeroPanel

    app = shop_level_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*TO_THE_SHOP)
        await pilot.pause()
        panel = app.screen.query_one(HeroPanel)
        shown = "\n".join(shown_lines(panel))
        assert "Cursed Idol" in shown and "Potions" in shown, shown
        assert panel.max_scroll_y > 0 or panel.parent.max_scroll_y > 0  # the stock and the equipment scroll


@run_async
async def test_the_level_goals_name_their_cards_as_the_board_and_the_shop_do(tmp_path):
    """A goal is written with a card id ("buy": "shopkeepers-debt"); the player names the card as the shop's
    stock and the log name it ("Buy Shopkeeper's Debt"), never by the id an author typed."""
    from cardrogue.editor.player.screens import why_not
    from cardrogue.editor.player.widgets import HeroPanel
    from cardrogue.engine.format.loader import load_usable
    from cardrogue.engine.format.resources import campaigns_dir

    game = load_usable(campaigns_dir() / "a-sons-descent.json")
    counter = next(i for i, lv in enumerate(game.levels) if any(g.verb == "buy" for g in lv.goals))
    app = PlayerApp(game, counter, replays_dir=None, scores_db=tmp_path / "s.db", player="tester")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        shown = " ".join(" ".join(shown_lines(app.screen.query_one(HeroPanel))).replace("│", " ").split())
        assert "Buy Shopkeeper's Debt" in shown, shown
        assert "shopkeepers-debt" not in shown, shown
    s = new_state([cell(0, 0, "starting-tile", "ES"), cell(1, 0, "pathing-tile", "W", face="up", exit=True),
                   cell(0, 1, "pathing-tile", "N", face="up"), cell(2, 1, "goblin", "", face="down")],
                  goals=[("slay", "goblin")])
    said = why_not(s.view(), Direction.E)
    assert said == "The level's goals come first (Slay Goblin).", said


@pytest.mark.parametrize("size", [(44, 38), (55, 33)], ids=["400px", "500px"])
@run_async
async def test_a_phone_wide_terminal_keeps_the_board_the_log_and_the_hero_whole(tmp_path, size):
    """`cardrogue web` in a phone's browser, 400 px wide, gives the player 44 columns (55 in headless
    Chromium's narrowest window, 500 px). The side panel stood 30 columns beside the board: the board was cut
    after two and a half cards and the log had one column. Narrower than 80 the hero and the enemies go under
    the log, full width; the log keeps the width it wraps at (nothing cut at its edge), every key shows, and
    the end screen's dialog fits the screen."""
    from cardrogue.editor.player.screens import EndScreen
    from cardrogue.editor.player.widgets import EnemyPanel, HeroPanel

    width, height = size
    app = app_for(tmp_path)
    async with app.run_test(size=size) as pilot:
        await pilot.press("enter", "right")  # in combat: the enemy panel shows too
        await pilot.pause()
        screen = app.screen
        bar = screen.query_one(KeyBar)
        text = "  ".join(line.plain for line in bar.lines(bar.content_size.width))
        for binding in shown_keys():
            assert f"{binding.key_display or binding.key} {binding.description}" in text
        board = screen.query_one(BoardView)
        assert (board.max_scroll_x, board.max_scroll_y) == (0, 0)  # the whole level shows
        log, menu = screen.query_one("#log"), screen.query_one(ActionMenu)
        assert log.scrollable_content_region.width >= log.min_width, (log.region, log.scrollable_content_region)
        assert menu.region.width >= 18 and menu.region.right <= log.region.x, (log.region, menu.region)
        assert min(log.region.height, menu.region.height) >= 5 and menu.region.bottom <= bar.region.y
        side = screen.query_one("#player-side")
        assert side.region.width == width and side.region.y >= log.region.bottom
        assert side.region.bottom <= bar.region.y
        enemy = screen.query_one(EnemyPanel)  # whole; the hero's most urgent rows, the rest scrolls as at 80x24
        assert enemy.region.width >= width - 1 and enemy.region.bottom <= side.region.bottom, screen_text(app)
        shown = "\n".join(shown_lines(screen.query_one(HeroPanel)))
        assert "Turn" in shown and "Health" in shown and "Attack" in shown, shown
        await pilot.press("a", "right", "full_stop", "right", "right")  # the goblin slain, the exit: won
        await recorded(pilot)
        assert isinstance(app.screen, EndScreen)
        box = app.screen.query_one("#end-box")
        assert box.region.x >= 0 and box.region.right <= width, (box.region, screen_text(app))
        assert "Turns" in screen_text(app) and "q leave" in screen_text(app), screen_text(app)


@run_async
async def test_80_columns_keep_the_side_panel_beside_the_board(tmp_path):
    app = app_for(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        side, left = app.screen.query_one("#player-side"), app.screen.query_one("#player-left")
        assert side.region.x == left.region.right and side.region.width == 30


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 50), (55, 33)])
@run_async
async def test_a_hint_leaves_the_key_bar_in_view(tmp_path, size, monkeypatch):
    """A hint names keys to press: at 80x24 its pop-up covered the key bar's right half for its 3 s, as Textual
    keeps notifications one line above the bottom (a one-line Footer) and the bar wraps onto two lines (left21)."""
    from textual.widgets._toast import Toast

    monkeypatch.setattr(PlayerScreen, "HINT_SECONDS", 600.0)  # still there however slow the machine
    app = app_for(tmp_path, rolls=(2,))
    async with app.run_test(size=size, notifications=True) as pilot:
        await pilot.press("enter", "right", "left")  # in combat, an arrow toward no enemy: a hint says why
        await pilot.pause()
        toasts = list(app.screen.query(Toast))
        bar = app.screen.query_one(KeyBar).region
        assert toasts and "In combat: attack (a)" in str(toasts[0].render())
        for toast in toasts:
            assert toast.region.bottom <= bar.y and toast.region.y >= 0, (toast.region, bar)


def shown_rows(widget) -> int:
    """How many rows of ``widget`` are on screen, as its containers (and the panels over it) leave them."""
    return widget.screen.find_widget(widget).visible_region.height if widget.display else 0


async def laid_out(pilot, done) -> None:
    """Wait until ``done()`` (the board fitted after a resize, which takes a refresh or two), 60 s at most (a loaded
    machine: 5 s ran out in a full run); the caller's asserts then say what was not laid out."""
    import time

    deadline = time.monotonic() + 60
    while not done() and time.monotonic() < deadline:
        await pilot.pause(0.02)


@pytest.mark.parametrize("size", [(60, 20), (79, 23), (60, 24), (40, 24), (100, 16)])
@run_async
async def test_a_short_terminal_keeps_the_actions_and_the_log_under_the_board(tmp_path, size):
    """At 79x23 the hero's panel under the board covered the action list's last entries, and at 60x20 it left the
    list one row (left24): the board gives up rows (it scrolls), the inscription stays in the log alone, and the hero's
    panel under a slim board keeps five rows."""
    app = shop_level_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await pilot.press("enter", "right")
        screen = app.screen
        board, actions, log = (screen.query_one(f"#{name}") for name in ("board", "actions", "log"))
        hero = screen.query_one("#hero")
        await laid_out(pilot, lambda: shown_rows(actions) >= 5)
        assert shown_rows(board) >= 5 and shown_rows(actions) >= 5 and shown_rows(log) >= 5, screen_text(app)
        assert shown_rows(hero) >= 5
        assert not screen.find_widget(actions).visible_region.overlaps(screen.find_widget(hero).visible_region)
        assert str(board.border_title) == "The Counting Room"


@pytest.mark.parametrize(("size", "needed"), [((60, 14), 18), ((79, 16), 17), ((80, 11), 12), ((40, 18), 19)])
@run_async
async def test_a_terminal_too_short_for_the_board_says_so_in_its_title_and_the_rows_that_show_it(tmp_path, size,
                                                                                                needed):
    app = shop_level_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await pilot.press("enter")
        board = app.screen.query_one("#board")
        # (the title is set as the board is fitted; its rows are cut at the next layout)
        await laid_out(pilot, lambda: "cut short" in str(board.border_title) and shown_rows(board) < 5)
        assert shown_rows(board) < 5
        assert str(board.border_title) == f"Board cut short: needs {needed} rows, this terminal has {size[1]}"
        await pilot.resize_terminal(size[0], needed)
        await laid_out(pilot, lambda: "cut short" not in str(board.border_title) and shown_rows(board) >= 5)
        assert shown_rows(board) >= 5 and str(board.border_title) == "The Counting Room"


@run_async
async def test_on_a_phone_the_story_takes_the_whole_width(tmp_path):
    """In a phone's browser (43 columns at 390 px) the story dialog kept 80% of the width: 34 columns, its text 28
    wide between wide margins and the title cut ("A Son's Descent · The Rope'…"), where the end screen's dialog
    takes the whole width. Narrower than 80 columns the story's dialog does too."""
    app = app_for(tmp_path)
    async with app.run_test(size=(43, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StoryScreen)
        assert app.screen.query_one("#story-box").region.width == 43, screen_text(app)
    app = app_for(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:  # a terminal keeps the dialog it had
        await pilot.pause()
        assert app.screen.query_one("#story-box").region.width == 80
