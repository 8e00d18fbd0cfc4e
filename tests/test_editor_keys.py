"""The editor's keys in one place (issue 11, point 3): the bindings. The help screen and the
command palette read each command's keys from them; every key has a help entry."""

from cardrogue.editor.app import EditorApp
from cardrogue.editor.commands import COMMANDS, MAP_KEYS, help_markdown, keys_for
from cardrogue.editor.widgets.level_list import LevelList
from cardrogue.editor.widgets.map_canvas import MapCanvas

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


def test_a_key_changed_in_a_binding_changes_in_the_help():
    from textual.binding import Binding

    moved = [Binding("f10", "help", "Help") if b.key == "f1" else b for b in EditorApp.BINDINGS]
    assert "`f10 / ?` | Help:" in help_markdown(moved) and "`f1 / ?` | Help:" not in help_markdown(moved)
