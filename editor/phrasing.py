"""The editor's words for a problem: what to press or which field to fill, where the file's words
(``"exit": true``, ``"to"``) would send the author to a text editor.

One table, :data:`PHRASES`, keyed by diagnostic code (and :data:`PLACED_PHRASES`, by code and part of
the campaign, for a code fixed in a form there rather than on the map): the checks keep their messages
(``cardrogue check`` says them in the file's terms) and the editor's problem list and Cell panel show
:func:`editor_message`. A phrase either replaces the message (its fix was in file terms only) or
follows it (the message is in plain words; the phrase adds the editor's action). Every key and
field a phrase names is listed with it, and ``tests/test_editor_phrasing.py`` checks that each is
really bound to that action, or really a field of that panel or form.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardrogue.engine.format.diagnostics import Diagnostic


@dataclass(frozen=True, slots=True)
class Phrase:
    """The editor's action for one diagnostic code.

    ``keys``: ``(key, action)`` pairs, each key named in ``text`` and bound to ``action`` on the
    editor, its map, its level list or its cards panel. ``fields``: ``(where, label)`` pairs, each
    label named in ``text`` and shown by ``where`` (``"cell"``: the Cell panel; otherwise the action
    that opens the form holding it).
    """

    text: str
    keys: tuple[tuple[str, str], ...] = ()
    fields: tuple[tuple[str, str], ...] = ()
    replaces: bool = False  # the message's fix is in file terms: the phrase is said instead of it
    cut: str = ""  # the message's own fix, in file terms, begins here: it gives way to the phrase


PHRASES: dict[str, Phrase] = {
    "CR220": Phrase("the campaign has no exit: on the last level, put the map's cursor on a card and press x "
                    "(mark the exit)", keys=(("x", "app.toggle_exit"),), replaces=True),
    "CR206": Phrase("this level has no starting tile: choose Starting Tile in the Cards panel (ctrl+f) and press "
                    "enter on the map to place it", keys=(("ctrl+f", "focus_palette"), ("enter", "app.place")),
                    replaces=True),
    "CR203": Phrase("the map shows no place outside the grid: press p in the Levels panel and make the level's "
                    "\"Width (1 to 256)\" or \"Height (1 to 256)\" larger, and the card shows on the map (to move "
                    "or delete)", keys=(("p", "app.level_properties"),),
                    fields=(("app.level_properties", "Width (1 to 256)"), ("app.level_properties", "Height (1 to 256)")),
                    cut=": move it, or make the level larger"),
    "CR204": Phrase("on the map, delete on the cell removes both, then place the one to keep (ctrl+f to choose it, "
                    "enter on the map)", keys=(("delete", "app.delete"), ("ctrl+f", "focus_palette"),
                                               ("enter", "app.place"))),
    "CR207": Phrase("on the map, put the cursor on the extra ones and press delete",
                    keys=(("delete", "app.delete"),)),
    "CR208": Phrase("this ladder leads nowhere: press t on it and choose its level (the Cell panel's \"Ladder leads "
                    "to\" list)", keys=(("t", "app.choose_destination"),), fields=(("cell", "Ladder leads to"),),
                    replaces=True),
    "CR205": Phrase("press t on it and choose one (the Cell panel's \"Ladder leads to\" list)",
                    keys=(("t", "app.choose_destination"),), fields=(("cell", "Ladder leads to"),)),
    "CR306": Phrase("place a Descending Ladder (ctrl+f to choose it, enter on the map), or press x on a card to "
                    "make it the exit", keys=(("ctrl+f", "focus_palette"), ("enter", "app.place"),
                                              ("x", "app.toggle_exit"))),
    "CR310": Phrase("on a level before it, press t on a descending ladder and choose this level",
                    keys=(("t", "app.choose_destination"),)),
    "CR201": Phrase("replace it with a known card (on the map: ctrl+f to choose one, enter to place it; a shop's "
                    "stock or a chest's contents: i), or press f4 to define a card of that id",
                    keys=(("ctrl+f", "focus_palette"), ("enter", "app.place"), ("i", "app.cell_items"),
                          ("f4", "card"))),
    "CR218": Phrase("on the map, on this card: t and \"none\" leave no level to lead to, x unmarks the exit, i "
                    "empties a stock or contents", keys=(("t", "app.choose_destination"), ("x", "app.toggle_exit"),
                                                         ("i", "app.cell_items"))),
    "CR225": Phrase("press p in the Levels panel and change the level's \"Practice hero at: x y (empty: the "
                    "starting tile)\", or make the card there one he can stand on: f turns it face up, x unmarks "
                    "the exit, enter places the Cards panel's card (ctrl+f)",
                    keys=(("p", "app.level_properties"), ("f", "app.toggle_face"), ("x", "app.toggle_exit"),
                          ("enter", "app.place"), ("ctrl+f", "focus_palette")),
                    fields=(("app.level_properties", "Practice hero at: x y (empty: the starting tile)"),)),
    "CR219": Phrase("press f on it to turn it face up", keys=(("f", "app.toggle_face"),)),
    "CR223": Phrase("on the map, n, e, s and w open its paths", keys=(
        ("n", "app.toggle_path('N')"), ("e", "app.toggle_path('E')"), ("s", "app.toggle_path('S')"),
        ("w", "app.toggle_path('W')"))),
    "CR221": Phrase("place what the goal names, or press G on the map to remove the goal",
                    keys=(("G", "app.remove_goal"),)),
    "CR202": Phrase("press p in the Levels panel and change the level's \"Id (ladders name it)\"",
                    keys=(("p", "app.level_properties"),), fields=(("app.level_properties", "Id (ladders name it)"),)),
    "CR216": Phrase("f4 opens the card's form", keys=(("f4", "card"),)),
    "CR222": Phrase("f7 sets the potion colours", keys=(("f7", "potions"),)),
    "CR309": Phrase("the card's gold amount is its form's \"Gold\": choose the card in the Cards panel (ctrl+f), "
                    "then f4", keys=(("ctrl+f", "focus_palette"), ("f4", "card")), fields=(("app.card", "Gold"),)),
    "CR229": Phrase("the mark does nothing: choose the card in the Cards panel (ctrl+f), then f4, and untick its "
                    "\"Throwable (shows the throw symbol)\"", keys=(("ctrl+f", "focus_palette"), ("f4", "card")),
                    fields=(("app.card", "Throwable (shows the throw symbol)"),),
                    cut=", so \"throwable\": true does nothing here; remove it"),
    "CR312": Phrase("press t on a ladder of the cycle and choose another level, or tick \"Allow ladder cycles "
                    "(ladders that lead back to earlier levels)\" in the campaign metadata (ctrl+e) if this is "
                    "intended", keys=(("t", "app.choose_destination"), ("ctrl+e", "metadata")),
                    fields=(("app.metadata", "Allow ladder cycles (ladders that lead back to earlier levels)"),),
                    cut="; set \"allow_ladder_cycles\""),
    # A misspelt key ("inscripton") a draft keeps as written: its problem renames it to the key meant, or removes it.
    "CR103": Phrase("enter on this problem (ctrl+k focuses the list) renames it to the key meant, or removes it",
                    keys=(("ctrl+k", "focus_problems"),)),
    "CR224": Phrase("ctrl+e opens the campaign's \"Rules version\" and \"Hero character\"",
                    keys=(("ctrl+e", "metadata"),),
                    fields=(("app.metadata", "Rules version"), ("app.metadata", "Hero character"))),
}


_HERO_ITEMS = "Starting items (card ids, space separated)"
_HERO_EQUIPPED = "Equipped (weapons and armour)"
_PRACTICE_ITEMS = "Practice hero items (empty: the hero's; -: none)"
_PRACTICE_EQUIPPED = "Practice hero equipped (empty: the hero's; -: none)"

PLACED_PHRASES: dict[tuple[str, str], Phrase] = {
    # An unknown card in the hero's hand is no card on the map: his form holds it (a hand-typed "red-poton"
    # was told to use the Cards panel and the map, where nothing can fix it).
    ("CR201", "hero"): Phrase(f"press f8 and correct it in the hero's \"{_HERO_ITEMS}\" or \"{_HERO_EQUIPPED}\", "
                              "or press f4 to define a card of that id", keys=(("f8", "hero"), ("f4", "card")),
                              fields=(("app.hero", _HERO_ITEMS), ("app.hero", _HERO_EQUIPPED))),
    # The hero's character is a list of the character cards in his form: not his items (a typed "warior" was sent
    # to "Starting items" and "Equipped").
    ("CR201", "hero character"): Phrase("press f8 and choose his \"Character\" (a list of the character cards)",
                                        keys=(("f8", "hero"),), fields=(("app.hero", "Character"),)),
    # A roll out of a die's range is typed again in the Cell panel (the file's words, "rolls[1] is 7", named no field).
    ("CR106", "rolls"): Phrase("each is a die face, 1 to 6: ctrl+r on the card types them again in the Cell panel's "
                               "\"Scripted rolls\"", keys=(("ctrl+r", "focus_cell('rolls')"),),
                               fields=(("cell", "Scripted rolls"),)),
    # Paths written out of order or twice ("ENE"): the file's words say which letters; the map's keys write them.
    ("CR105", "paths"): Phrase("on the map, n, e, s and w open or wall its edges, and write its paths in order",
                               keys=(("n", "app.toggle_path('N')"), ("e", "app.toggle_path('E')"),
                                     ("s", "app.toggle_path('S')"), ("w", "app.toggle_path('W')"))),
    ("CR201", "level hero"): Phrase(f"press p in the Levels panel and correct it in the level's \"{_PRACTICE_ITEMS}\" "
                                    f"or \"{_PRACTICE_EQUIPPED}\", or press f4 to define a card of that id",
                                    keys=(("p", "app.level_properties"), ("f4", "card")),
                                    fields=(("app.level_properties", _PRACTICE_ITEMS),
                                            ("app.level_properties", _PRACTICE_EQUIPPED))),
    # A card's own instance id has no field in the editor (the level's id has, which CR202's phrase names): a card
    # placed anew takes its place's id.
    # A goal whose verb is misspelt ({"slayy": "golem"}) is kept in a draft: g mends it from lists.
    ("CR110", "goal"): Phrase("press g on the map to mend it (its verb and card chosen from lists), or G to remove it",
                              keys=(("g", "app.add_goal"), ("G", "app.remove_goal"))),
    ("CR202", "card id"): Phrase("on the map, delete the card and place it again (ctrl+f to choose it, enter to place "
                                 "it): a card placed anew takes its place's own id; n, e, s and w reopen its paths",
                                 keys=(("delete", "app.delete"), ("ctrl+f", "focus_palette"), ("enter", "app.place"),
                                       ("n", "app.toggle_path('N')"), ("e", "app.toggle_path('E')"),
                                       ("s", "app.toggle_path('S')"), ("w", "app.toggle_path('W')"))),
}
"""Phrases for a code where it is: ``(code, part)``, the part as :func:`part_of` names it; before :data:`PHRASES`."""


def part_of(path: tuple) -> str:
    """The part of the campaign a problem's JSON path is in, as :data:`PLACED_PHRASES` keys it."""
    if path[:2] == ("hero", "character"):
        return "hero character"
    if path[:1] == ("hero",):
        return "hero"
    if len(path) >= 3 and path[0] == "levels" and path[2] == "hero":
        return "level hero"
    if len(path) >= 5 and path[0] == "levels" and path[2] == "cells" and path[4] in ("rolls", "paths"):
        return path[4]
    if len(path) == 4 and path[0] == "levels" and path[2] == "goals":
        return "goal"
    if len(path) == 5 and path[0] == "levels" and path[2] == "cells" and path[4] == "id":
        return "card id"
    return ""


def editor_message(diag: Diagnostic) -> str:
    """The diagnostic's message in the editor's terms: its phrase, instead of the message or after
    it, or the message as ``cardrogue check`` says it when the code has no phrase."""
    phrase = PLACED_PHRASES.get((diag.code, part_of(diag.path))) or PHRASES.get(diag.code)
    if phrase is None:
        return diag.message
    if phrase.replaces:
        return phrase.text
    if phrase.cut and phrase.cut in diag.message:
        return f"{diag.message[:diag.message.index(phrase.cut)]}; {phrase.text}"
    if diag.message.endswith("?"):  # a question ("did you mean 'goblin'?") ends its sentence
        return f"{diag.message} {phrase.text[:1].upper()}{phrase.text[1:]}"
    return f"{diag.message}; {phrase.text}"
