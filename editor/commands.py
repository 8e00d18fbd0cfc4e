"""Every editor command, for the command palette (ctrl+p) and the help screen.

One table of commands (title, what it does, the action it runs), and one of keys: the
bindings of the app, the map and the level list, where Textual reads them. The help
screen and the palette take each command's keys from those bindings (:func:`keys_for`),
so a key changed in a binding changes everywhere, and no key is written twice.
"""

from __future__ import annotations

from functools import partial
from typing import Iterable

from textual.binding import Binding, BindingType
from textual.command import DiscoveryHit, Hit, Hits, Provider

from .widgets.level_list import LevelList
from .widgets.map_canvas import MapCanvas

# (title, help, action): the keys come from the bindings (see keys_for)
COMMANDS: list[tuple[str, str, str]] = [
    ("New campaign", "Start a new campaign from a template", "new"),
    ("Open campaign", "Open a campaign file", "open"),
    ("Save", "Save the campaign (atomic, canonical)", "save"),
    ("Save as", "Save the campaign to a new file", "save_as"),
    ("Undo", "Undo the last edit", "undo"),
    ("Redo", "Redo the last undone edit", "redo"),
    ("Play-test level", "Play the current level in the embedded player", "playtest"),
    ("Solve level", "Find the level's par with the solver, then step through the solution on the map", "solve"),
    ("Record par", "Write the par F6 proved in the campaign (a map of one level: its par is the campaign's)",
     "record_par"),
    ("Next solution step", "Show the solution one action later (while stepping)", "solution_step(1)"),
    ("Previous solution step", "Show the solution one action earlier (while stepping)", "solution_step(-1)"),
    ("Leave solution steps", "Hide the solution's marker (while stepping)", "leave_steps"),
    ("Hide publish answer", "Take the hub's answer to the last publish (F9) off the line above the problems",
     "hide_published"),
    ("Place card", "Put the brush (the Cards panel's card) on the cursor (or the selection)", "place"),
    ("Rotate clockwise", "Turn the paths of the selected cards clockwise", "rotate(True)"),
    ("Rotate anticlockwise", "Turn the paths of the selected cards anticlockwise", "rotate(False)"),
    ("Toggle face", "Face up / face down", "toggle_face"),
    ("Toggle north path", "Open or wall the north edge", "toggle_path('N')"),
    ("Toggle east path", "Open or wall the east edge", "toggle_path('E')"),
    ("Toggle south path", "Open or wall the south edge", "toggle_path('S')"),
    ("Toggle west path", "Open or wall the west edge", "toggle_path('W')"),
    ("Toggle exit", "Mark the card as the dungeon's exit", "toggle_exit"),
    ("Ladder destination", "Choose the level the descending ladder at the cursor leads to", "choose_destination"),
    ("Shop stock / chest contents", "The cards a shop sells or a chest holds (the cell at the cursor)", "cell_items"),
    ("Add goal", "Add a goal to this level: slay a card, open the chest, buy a card", "add_goal"),
    ("Remove goal", "Remove one of this level's goals", "remove_goal"),
    ("Delete cards", "Remove the selected cards", "delete"),
    ("Copy", "Copy the selected rectangle", "copy"),
    ("Paste", "Paste at the cursor", "paste"),
    ("Add level", "Insert a new level after this one", "add_level"),
    ("Duplicate level", "Copy this level", "duplicate_level"),
    ("Remove level", "Remove this level", "remove_level"),
    ("Move level up", "Move this level earlier", "move_level(-1)"),
    ("Move level down", "Move this level later", "move_level(1)"),
    ("Level properties", "Id, title and size of this level (resize, add or remove rows and columns), and its "
     "practice hero", "level_properties"),
    ("Campaign metadata", "Title, author, seed, hero, ...", "metadata"),
    ("Card definition", "Add a card or override a catalog card (starts from the brush)", "card"),
    ("Remove card definition", "Remove one of the campaign's own cards (an override goes back to the catalog)",
     "remove_card"),
    ("Potion colours", "Set the effect of each potion colour (each effect at most once)", "potions"),
    ("Hero", "The hero's character, starting items and equipment", "hero"),
    ("Publish", "Publish the campaign to the configured hub (no errors, a proven par; again while its par is "
     "proven: stop)", "publish"),
    ("Map", "Show the map", "show_tab('map')"),
    ("Story", "Edit the story and level prefaces", "show_tab('story')"),
    ("Focus map", "Move the focus to the map", "focus_map"),
    ("Focus levels", "Move the focus to the level list", "focus_levels"),
    ("Search cards", "Move the focus to the Cards panel's search", "focus_palette"),
    ("Problems", "Move the focus to the problems panel", "focus_problems"),
    ("Cell inscription", "Edit the inscription of the card at the cursor (tab: its other fields)",
     "focus_cell('inscription')"),
    ("Scripted rolls", "Edit the scripted rolls of the card at the cursor", "focus_cell('rolls')"),
    ("Find on map", "Go to a card on this level by id or name (again: the next one)", "find"),
    ("Overview", "The whole level at a glance; pick a place to go to", "overview"),
    ("Legend", "What each short name and mark on the map means", "legend"),
    ("Zoom", "Five-letter names, or full names in bigger boxes", "zoom"),
    ("Open recent", "Open one of the files opened or saved last", "open_recent"),
    ("Help", "Keys and usage", "help"),
    ("Quit", "Quit (asks before losing changes)", "quit"),
]

MAP_KEYS = [
    ("arrows", "move the cursor"),
    ("shift+arrows", "select a rectangle"),
    ("home / end", "start / end of the row"),
    ("escape", "clear the selection (while stepping through a solution: leave the steps)"),
    ("mouse click", "select a cell (shift+click: select a rectangle)"),
    ("mouse drag", "paint the brush"),
    (". / ,", "next / previous step of the solution (after f6)"),
    ("/", "find a card on the level by id or name (again: the next one)"),
    ("m", "overview of the whole level (for maps larger than the screen)"),
    ("l / z", "legend of the short names and marks / zoom to full names"),
]


# Where a binding lives, as the help names it ("" for the whole editor).
_KEY_NAMES = {"full_stop": ".", "comma": ",", "left_square_bracket": "[", "right_square_bracket": "]",
              "question_mark": "?", "slash": "/"}
# Commands with no key of their own: what does them instead.
_NO_KEY = {"leave_steps": "escape (map)", "hide_published": "escape (map)", "remove_card": "ctrl+p",
           "open_recent": "ctrl+p", "record_par": "ctrl+p"}


def _bindings(app_bindings: Iterable[BindingType]) -> list[tuple[Binding, str]]:
    """Every editor binding with the panel it works in."""
    tables = (("", app_bindings), ("map", MapCanvas.BINDINGS), ("levels", LevelList.BINDINGS))
    return [(b, where) for where, table in tables for b in table if isinstance(b, Binding)]


def keys_for(action: str, app_bindings: Iterable[BindingType]) -> str:
    """The keys that run ``action``, from the bindings: ``f1 / ?``, ``r (map)``."""
    found = []
    for binding, where in _bindings(app_bindings):
        if binding.action.removeprefix("app.") == action:
            keys = " / ".join(_KEY_NAMES.get(k.strip(), k.strip()) for k in binding.key.split(","))
            found.append(f"{keys} ({where})" if where else keys)
    return " / ".join(found) or _NO_KEY.get(action, "")


def help_markdown(app_bindings: Iterable[BindingType]) -> str:
    """The help screen: the map's keys, then every command with its keys (``app_bindings``: the app's)."""
    app_bindings = list(app_bindings)
    lines = ["# Card Rogue Story Studio: keys", "", "## Map", "", "| Key | Does |", "|---|---|"]
    lines += [f"| `{k}` | {d} |" for k, d in MAP_KEYS]
    lines += ["", "## Commands (also in the command palette, ctrl+p)", "", "| Key | Command |", "|---|---|"]
    lines += [f"| `{keys_for(action, app_bindings)}` | {title}: {help_text} |" for title, help_text, action in COMMANDS]
    lines += ["", "Map marks, in a box's top edge: **S** start, **▼** ladder, **X** exit, **!** error, "
              "**?** warning, **◆** note (a chokepoint); the five letters name the card (`l` lists them, "
              "`z` shows full names). Face-down cards are dim on a shaded ground. While stepping through a solution, "
              "**@** on green is the hero and the cards flipped so far are shown revealed.", "", "Press escape to close."]
    return "\n".join(lines)


# Words an author may look for that a command's title does not hold.
KEYWORDS = {
    "level_properties": "resize size width height rows columns rename",
    "metadata": "title author seed rules settings",
    "potions": "colours colors seed",
    "find": "search locate where",
    "overview": "minimap map whole",
    "legend": "key glyphs symbols abbreviations",
    "zoom": "names bigger",
    "open_recent": "history files",
    "add_goal": "objective target",
    "cell_items": "shop stock chest contents",
    "choose_destination": "ladder leads to level next down descend",
    "record_par": "write save par verdict solution",
}


class EditorCommands(Provider):
    """The editor's commands in the command palette (a title, or a word it is known by, finds it)."""

    def _help(self, help_text: str, action: str) -> str:
        keys = keys_for(action, self.app.BINDINGS)
        return f"{help_text} ({keys})" if keys and keys != "ctrl+p" else help_text

    async def discover(self) -> Hits:
        for title, help_text, action in COMMANDS:
            yield DiscoveryHit(title, partial(self.app.run_action, action), help=self._help(help_text, action))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, action in COMMANDS:
            score = matcher.match(title)
            if score <= 0:
                words = f"{help_text} {KEYWORDS.get(action, '')}".lower()
                score = 0.5 if query.strip() and query.strip().lower() in words else 0
            if score > 0:
                yield Hit(score, matcher.highlight(title), partial(self.app.run_action, action),
                          help=self._help(help_text, action))
