"""Every editor command, for the command palette (ctrl+p) and the help screen.

One table: a command's title, what it does, the action it runs and its key.
"""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

# (title, help, action, key)
COMMANDS: list[tuple[str, str, str, str]] = [
    ("New campaign", "Start a new campaign from a template", "new", "ctrl+n"),
    ("Open campaign", "Open a campaign file", "open", "ctrl+o"),
    ("Save", "Save the campaign (atomic, canonical)", "save", "ctrl+s"),
    ("Save as", "Save the campaign to a new file", "save_as", "f12"),
    ("Undo", "Undo the last edit", "undo", "ctrl+z"),
    ("Redo", "Redo the last undone edit", "redo", "ctrl+y"),
    ("Play-test level", "Play the current level in the embedded player", "playtest", "f5"),
    ("Solve level", "Find the level's par with the solver, then step through the solution on the map", "solve", "f6"),
    ("Next solution step", "Show the solution one action later (while stepping)", "solution_step(1)", ". (map)"),
    ("Previous solution step", "Show the solution one action earlier (while stepping)", "solution_step(-1)", ", (map)"),
    ("Leave solution steps", "Hide the solution's marker (while stepping)", "leave_steps", "escape (map)"),
    ("Place card", "Put the palette card on the cursor (or the selection)", "place", "enter / space"),
    ("Rotate clockwise", "Turn the paths of the selected cards clockwise", "rotate(True)", "r"),
    ("Rotate anticlockwise", "Turn the paths of the selected cards anticlockwise", "rotate(False)", "R"),
    ("Toggle face", "Face up / face down", "toggle_face", "f"),
    ("Toggle north path", "Open or wall the north edge", "toggle_path('N')", "n"),
    ("Toggle east path", "Open or wall the east edge", "toggle_path('E')", "e"),
    ("Toggle south path", "Open or wall the south edge", "toggle_path('S')", "s"),
    ("Toggle west path", "Open or wall the west edge", "toggle_path('W')", "w"),
    ("Toggle exit", "Mark the card as the dungeon's exit", "toggle_exit", "x"),
    ("Shop stock / chest contents", "The cards a shop sells or a chest holds (the cell at the cursor)", "cell_items", "i"),
    ("Add goal", "Add a goal to this level: slay a card, open the chest, buy a card", "add_goal", "g"),
    ("Remove goal", "Remove one of this level's goals", "remove_goal", "G"),
    ("Delete cards", "Remove the selected cards", "delete", "delete"),
    ("Copy", "Copy the selected rectangle", "copy", "c"),
    ("Paste", "Paste at the cursor", "paste", "v"),
    ("Add level", "Insert a new level after this one", "add_level", "a (levels)"),
    ("Duplicate level", "Copy this level", "duplicate_level", "d (levels)"),
    ("Remove level", "Remove this level", "remove_level", "delete (levels)"),
    ("Move level up", "Move this level earlier", "move_level(-1)", "[ (levels)"),
    ("Move level down", "Move this level later", "move_level(1)", "] (levels)"),
    ("Level properties", "Id, title and size of this level: resize, add or remove rows and columns",
     "level_properties", "p (levels)"),
    ("Campaign metadata", "Title, author, seed, hero, ...", "metadata", "ctrl+e"),
    ("Card definition", "Add a card or override a catalog card (starts from the palette's card)", "card", "f4"),
    ("Remove card definition", "Remove one of the campaign's own cards (an override goes back to the catalog)",
     "remove_card", "palette"),
    ("Potion colours", "Set the effect of each potion colour (each effect at most once)", "potions", "f7"),
    ("Hero", "The hero's character, starting items and equipment", "hero", "f8"),
    ("Publish", "Publish the campaign to the configured hub (no errors, a proven par)", "publish", "f9"),
    ("Map", "Show the map", "show_tab('map')", "f2"),
    ("Story", "Edit the story and level prefaces", "show_tab('story')", "f3"),
    ("Focus map", "Move the focus to the map", "focus_map", "ctrl+g"),
    ("Focus levels", "Move the focus to the level list", "focus_levels", "ctrl+l"),
    ("Search cards", "Move the focus to the palette search", "focus_palette", "ctrl+f"),
    ("Problems", "Move the focus to the problems panel", "focus_problems", "ctrl+k"),
    ("Cell inscription", "Edit the inscription of the card at the cursor (tab: its other fields)",
     "focus_cell('inscription')", "ctrl+t"),
    ("Scripted rolls", "Edit the scripted rolls of the card at the cursor", "focus_cell('rolls')", "ctrl+r"),
    ("Find on map", "Go to a card on this level by id or name (again: the next one)", "find", "/ (map)"),
    ("Overview", "The whole level at a glance; pick a place to go to", "overview", "m (map)"),
    ("Legend", "What each short name and mark on the map means", "legend", "l (map)"),
    ("Zoom", "Five-letter names, or full names in bigger boxes", "zoom", "z (map)"),
    ("Open recent", "Open one of the files opened or saved last", "open_recent", "palette"),
    ("Help", "Keys and usage", "help", "f1 / ?"),
    ("Quit", "Quit (asks before losing changes)", "quit", "ctrl+q"),
]

MAP_KEYS = [
    ("arrows", "move the cursor"),
    ("shift+arrows", "select a rectangle"),
    ("home / end", "start / end of the row"),
    ("escape", "clear the selection (while stepping through a solution: leave the steps)"),
    ("mouse click", "select a cell (shift+click: select a rectangle)"),
    ("mouse drag", "paint the palette card"),
    (". / ,", "next / previous step of the solution (after f6)"),
    ("/", "find a card on the level by id or name (again: the next one)"),
    ("m", "overview of the whole level (for maps larger than the screen)"),
    ("l / z", "legend of the short names and marks / zoom to full names"),
]


def help_markdown() -> str:
    lines = ["# Card Rogue Story Studio: keys", "", "## Map", "", "| Key | Does |", "|---|---|"]
    lines += [f"| `{k}` | {d} |" for k, d in MAP_KEYS]
    lines += ["", "## Commands (also in the command palette, ctrl+p)", "", "| Key | Command |", "|---|---|"]
    lines += [f"| `{key}` | {title}: {help_text} |" for title, help_text, _, key in COMMANDS]
    lines += ["", "Map marks, in a box's top edge: **S** start, **▼** ladder, **X** exit, **!** error, **?** warning, "
              "**◆** note (a chokepoint); the five letters name the card (`l` lists them, `z` shows full names). Face-down cards are dim on a shaded ground. While stepping through a solution, "
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
}


class EditorCommands(Provider):
    """The editor's commands in the command palette (a title, or a word it is known by, finds it)."""

    async def discover(self) -> Hits:
        for title, help_text, action, _key in COMMANDS:
            yield DiscoveryHit(title, partial(self.app.run_action, action), help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, action, _key in COMMANDS:
            score = matcher.match(title)
            if score <= 0:
                words = f"{help_text} {KEYWORDS.get(action, '')}".lower()
                score = 0.5 if query.strip() and query.strip().lower() in words else 0
            if score > 0:
                yield Hit(score, matcher.highlight(title), partial(self.app.run_action, action), help=help_text)
