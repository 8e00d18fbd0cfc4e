"""The editor's keys in one place (issue 11, point 3): the bindings. The help screen and the
command palette read each command's keys from them; every key has a help entry."""

from pathlib import Path

from cardrogue.editor.app import EditorApp
from cardrogue.editor.commands import COMMANDS, MAP_KEYS, help_markdown, keys_for
from cardrogue.editor.widgets.level_list import LevelList
from cardrogue.editor.widgets.map_canvas import MapCanvas
from editor_support import SIZE, make_app, settle
from helpers import run_async

CURSOR = {"move", "extend", "jump", "clear_selection"}  # the map's cursor keys: MAP_KEYS describes them


def test_every_command_has_its_keys_from_the_bindings():
    missing = [title for title, _, action in COMMANDS if not keys_for(action, EditorApp.BINDINGS)]
    assert missing == []
    assert keys_for("help", EditorApp.BINDINGS) == "f1 / ?"
    assert keys_for("rotate(True)", EditorApp.BINDINGS) == "r (map)"
    assert keys_for("move_level(-1)", EditorApp.BINDINGS) == "[ (levels)"


def test_every_key_is_in_the_help():
    """A binding runs a command of the table (so the help lists its key), or moves the map's cursor."""
    actions = {action for _, _, action in COMMANDS}
    stray = []
    for binding in [*EditorApp.BINDINGS, *MapCanvas.BINDINGS, *LevelList.BINDINGS]:
        action = binding.action.removeprefix("app.")
        if action not in actions and action.split("(")[0] not in CURSOR:
            stray.append(f"{binding.key} -> {binding.action}")
    assert stray == []
    text = help_markdown(EditorApp.BINDINGS)
    assert all(f"`{keys_for(action, EditorApp.BINDINGS)}` | {title}:" in text for title, _, action in COMMANDS)
    assert all(f"`{key}`" in text for key, _ in MAP_KEYS)


DOCS = Path(__file__).resolve().parents[1] / "docs" / "editor.md"
# docs/editor.md's words for keys, as Textual names them
_DOC_KEYS = {"arrows": ("up", "down", "left", "right"),
             "shift+arrows": ("shift+up", "shift+down", "shift+left", "shift+right"),
             ".": ("full_stop",), ",": ("comma",), "/": ("slash",), "?": ("question_mark",),
             "[": ("left_square_bracket",), "]": ("right_square_bracket",)}


def doc_keys(table: str) -> set[str]:
    """The keys a key table of docs/editor.md names (the table after the line ``table``), as Textual
    names them; the mouse's rows left out."""
    lines = DOCS.read_text(encoding="utf-8").split("\n")
    start = lines.index(table)
    keys: set[str] = set()
    for line in lines[start + 4:]:
        if not line.startswith("| "):
            break
        cell = line.split("|")[1].strip()
        if cell.startswith("mouse"):
            continue
        for word in cell.replace(" / ", " ").replace(", ", " ").split():
            keys.update(_DOC_KEYS.get(word, (word,)))
    return keys


def test_docs_editor_md_names_every_key_of_each_place_and_no_other():
    """The key tables of docs/editor.md (Map, Level list, Everywhere) against the bindings: a key the
    guide names does something there, and a bound key is in the guide (the level list's m, the
    metadata, was bound and not written). ctrl+p is Textual's own command palette key."""
    bound = {table: {k.strip() for b in bindings for k in b.key.split(",")}
             for table, bindings in (("Map (when the map has the focus):", MapCanvas.BINDINGS),
                                     ("Level list:", LevelList.BINDINGS), ("Everywhere:", EditorApp.BINDINGS))}
    bound["Everywhere:"].add("ctrl+p")
    for table, keys in bound.items():
        assert doc_keys(table) == keys, (table, "named, not bound:", doc_keys(table) - keys,
                                         "bound, not named:", keys - doc_keys(table))


def test_a_key_changed_in_a_binding_changes_in_the_help():
    from textual.binding import Binding

    moved = [Binding("f10", "help", "Help") if b.key == "f1" else b for b in EditorApp.BINDINGS]
    assert "`f10 / ?` | Help:" in help_markdown(moved) and "`f1 / ?` | Help:" not in help_markdown(moved)


@run_async
async def test_the_arrow_keys_move_between_a_dialogs_buttons(campaign_file, tmp_path) -> None:
    """A dialog's buttons took the focus only from tab (Textual's default): left and right, what a
    row of buttons invites, did nothing. They move it now, stopping at the row's ends; enter presses
    the button reached."""
    from textual.widgets import Button

    from cardrogue.editor.widgets.dialogs import ConfirmScreen, FormScreen

    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        answers: list[str] = []
        app.push_screen(ConfirmScreen("Leave?", [("Save", "save", "primary"), ("Discard", "discard", "error"),
                                                 ("Cancel", "cancel", "default")]), answers.append)
        await pilot.pause()
        focused = lambda: app.screen.focused.id  # noqa: E731
        assert focused() == "answer-save"
        seen = []
        for key in ("right", "right", "right", "left"):
            await pilot.press(key)
            seen.append(focused())
        assert seen == ["answer-discard", "answer-cancel", "answer-cancel", "answer-discard"]
        await pilot.press("enter")
        await pilot.pause()
        assert answers == ["discard"]
        app.push_screen(FormScreen("Title", [("title", "Title", "A title")]), answers.append)
        await pilot.pause()
        await pilot.press("left")  # in a field the arrows move the cursor, as ever
        assert focused() == "form-title"
        app.screen.query_one("#form-ok", Button).focus()
        await pilot.press("right")
        assert focused() == "form-cancel"
        await pilot.press("left", "enter")
        await pilot.pause()
        assert answers[-1] == {"title": "A title"}


@run_async
async def test_the_brush_is_never_called_the_palettes_card(campaign_file, tmp_path) -> None:
    """The Cards panel's card is the brush (the header says "brush:"); "palette" is the command palette's
    word (ctrl+p), and "the palette card" sent an author looking there."""
    words = [help_text for _, help_text, _ in COMMANDS] + [does for _, does in MAP_KEYS]
    assert [w for w in words if "palette" in w.replace("command palette", "")] == []
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        empty = next((x, y) for y in range(app.campaign.levels[0].height) for x in range(app.campaign.levels[0].width)
                     if app.campaign.levels[0].cell_at(x, y) is None)
        app.canvas.move_to(*empty)
        await settle(app, pilot)
        shown = str(app.query_one("#inspector-summary").render())
        assert "empty" in shown and "brush" in shown and "palette" not in shown


@run_async
async def test_enter_on_a_level_or_a_card_goes_back_to_the_map(campaign_file, tmp_path) -> None:
    """docs/editor.md, Levels: `enter` on a level, or on a card of the Cards list, goes back to the map (each list
    asks the app with a message; it owns the focus)."""
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        app.query_one(LevelList).focus()
        await pilot.press("down", "enter")
        await settle(app, pilot)
        assert isinstance(app.screen.focused, MapCanvas) and app.level_index == 1
        app.query_one("#palette-list").focus()
        await pilot.press("down", "enter")
        await settle(app, pilot)
        assert isinstance(app.screen.focused, MapCanvas)
