"""The editor's problem list says a fix in the editor's terms (the key, the form field) where the
file's terms would send the author to a text editor; ``cardrogue check`` keeps the file's terms.
A table keyed by diagnostic code, and one by code and part for a problem fixed elsewhere than the map
(editor/phrasing.py); every key and field they name is checked here against the editor's real bindings,
panels and forms."""

from __future__ import annotations

import json
import re

import pytest
from textual.widgets import Checkbox, Label

from cardrogue.editor.app import EditorApp
from cardrogue.editor.phrasing import PHRASES, PLACED_PHRASES, editor_message
from cardrogue.editor.widgets.dialogs import FormScreen
from cardrogue.editor.widgets.inspector import Inspector
from cardrogue.editor.widgets.level_list import LevelList
from cardrogue.editor.widgets.map_canvas import MapCanvas
from cardrogue.editor.widgets.palette import CardOptions, Palette
from cardrogue.editor.widgets.problems import ProblemsPanel
from cardrogue.engine.analysis.check import check_text
from cardrogue.engine.format.diagnostics import Diagnostic
from editor_support import app_on, make_app, press, settle, three_level_app
from helpers import FIXTURE, run_async

BROKEN = FIXTURE.parent.parent / "broken"

EVERY_PHRASE = {**PHRASES, **{f"{code} {part}": phrase for (code, part), phrase in PLACED_PHRASES.items()}}

BOUND = [binding for owner in (EditorApp, MapCanvas, LevelList, Palette, CardOptions) for binding in owner.BINDINGS]

# The codes a newcomer meets first (docs/authoring.md's tutorial: the exit, the starting tile, a
# ladder's level, a card's paths, a goal): each has an editor phrasing.
NEWCOMER_CODES = ("CR220", "CR206", "CR207", "CR208", "CR205", "CR219", "CR223", "CR221")


def bound(key: str, action: str) -> bool:
    return any(key in binding.key.split(",") and binding.action == action for binding in BOUND)


def test_the_newcomers_codes_have_editor_phrasings() -> None:
    assert set(NEWCOMER_CODES) <= set(PHRASES)


@pytest.mark.parametrize("code", sorted(EVERY_PHRASE))
def test_every_key_a_phrasing_names_is_bound_to_its_action(code: str) -> None:
    phrase = EVERY_PHRASE[code]
    assert phrase.keys or phrase.fields, f"{code}: names neither a key nor a field"
    for key, action in phrase.keys:
        assert re.search(rf"(?<![\w+]){re.escape(key)}(?![\w+])", phrase.text), f"{code}: {key!r} is not said"
        assert bound(key, action), f"{code}: {key!r} is not bound to {action!r}"
    for _, label in phrase.fields:
        assert label in phrase.text, f"{code}: {label!r} is not said"


@run_async
async def test_every_field_a_phrasing_names_is_shown_where_it_says(tmp_path) -> None:
    app = three_level_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        seen: dict[str, list[str]] = {}  # each form opened once: escape leaves the campaign as it was
        for code, phrase in sorted(EVERY_PHRASE.items()):
            for where, label in phrase.fields:
                if where == "cell":
                    shown = [str(w.render()) for w in app.query_one(Inspector).query(Label)]
                elif where in seen:
                    shown = seen[where]
                else:
                    await app.run_action(where)
                    await settle(app, pilot)
                    assert isinstance(app.screen, FormScreen), f"{code}: {where} opens no form"
                    shown = [str(w.render()) for w in app.screen.query(Label)]
                    shown += [str(box.label) for box in app.screen.query(Checkbox)]  # a checkbox's own label
                    seen[where] = shown
                    await press(app, pilot, "escape")
                    assert not isinstance(app.screen, FormScreen), f"{code}: escape leaves {where} open"
                assert any(label == text.strip() for text in shown), f"{code}: no field {label!r} in {where}"


@pytest.mark.parametrize("path", sorted(BROKEN.glob("*.json")), ids=lambda p: p.name)
def test_the_checks_speak_the_files_terms_never_the_editors(path) -> None:
    """The engine knows no UI: a check's message says the fix in the format's words ("exit": true);
    the editor's keys are said by its phrasing table alone."""
    for diag in check_text(path.read_text(encoding="utf-8", errors="replace"), str(path)):
        assert "editor" not in diag.message and "press " not in diag.message, (diag.code, diag.message)


def test_a_phrase_replaces_or_follows_the_message() -> None:
    no_exit = Diagnostic("CR220", 'the campaign has no exit: mark a cell ("exit": true)', path=("levels",))
    assert editor_message(no_exit) == PHRASES["CR220"].text and '"exit"' not in editor_message(no_exit)
    pathless = Diagnostic("CR223", "'goblin' has no paths: it can never be reached", level=0, cell=(1, 1))
    assert editor_message(pathless).startswith("'goblin' has no paths") and "n, e, s and w" in editor_message(pathless)
    other = Diagnostic("CR301", "something else", level=0)
    assert editor_message(other) == "something else"
    # after a question, the phrase is a sentence of its own: "...'goblin'? Replace it", not "'goblin'?; replace it"
    hinted = Diagnostic("CR201", "unknown card 'gobln'; did you mean 'goblin'?", level=0, cell=(1, 1))
    assert editor_message(hinted).startswith("unknown card 'gobln'; did you mean 'goblin'? Replace it with")
    plain = Diagnostic("CR201", "unknown card 'xyzzy'", level=0, cell=(1, 1))
    assert editor_message(plain).startswith("unknown card 'xyzzy'; replace it with")


@run_async
async def test_the_problem_list_says_the_key_and_check_keeps_the_file_terms(tmp_path) -> None:
    data = json.loads(FIXTURE.read_text())
    for cell in data["levels"][-1]["cells"]:
        cell.pop("exit", None)
    ladder = next(c for c in data["levels"][0]["cells"] if c.get("to"))
    del ladder["to"]
    path = tmp_path / "draft.json"
    path.write_text(json.dumps(data))
    codes = {d.code: d.message for d in check_text(path.read_text(), str(path))}
    assert '"exit": true' in codes["CR220"] and '("to")' in codes["CR208"]  # the CLI's words: the file's
    app = make_app(path, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        options = app.query_one("#problems-list")
        shown = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        no_exit = next(line for line in shown if "CR220" in line)
        assert "press x" in no_exit and '"exit"' not in no_exit
        ladder_line = next(line for line in shown if "CR208" in line)
        assert "Ladder leads to" in ladder_line and '("to")' not in ladder_line
        app.canvas.move_to(*ladder["at"])  # the Cell panel says it the same way
        await settle(app, pilot)
        assert "Ladder leads to" in str(app.query_one("#inspector-summary").render())
        assert app.query_one(ProblemsPanel).diagnostics  # the diagnostics themselves keep their messages
        assert all(d.message == codes[d.code] for d in app.query_one(ProblemsPanel).diagnostics if d.code in ("CR220", "CR208"))


# The codes of a draft written in a text editor and opened in the editor (an unknown card id, a field
# of another card, a level's hero on a tile he cannot stand on): each phrase, followed by a person, fixes
# it. (file, code, the keys the phrase says, pressed after enter on the problem took the map there)
FOLLOWED = [
    ("39-unknown-card.json", "CR201", ("ctrl+f", *"goblin", "enter", "ctrl+g", "enter")),
    ("51-stock-on-a-goblin.json", "CR218", ("i", "home", "ctrl+k", "ctrl+s")),
    ("59-ladder-is-the-exit.json", "CR218", ("x",)),
    ("58-level-hero-on-a-goblin.json", "CR225", ("enter",)),  # the brush, a pathing tile, over the goblin
    ("43-two-cards-one-cell.json", "CR204", ("delete", "ctrl+f", *"starting", "enter", "ctrl+g", "enter")),
]


def test_the_codes_of_a_hand_written_draft_have_editor_phrasings() -> None:
    assert {code for _, code, _ in FOLLOWED} <= set(PHRASES)


@pytest.mark.parametrize("name,code,keys", FOLLOWED, ids=[f"{c}-{n}" for n, c, _ in FOLLOWED])
@run_async
async def test_following_the_phrase_fixes_the_problem(tmp_path, name, code, keys) -> None:
    path = tmp_path / name
    path.write_bytes((BROKEN / name).read_bytes())
    app = make_app(path, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        panel = app.query_one(ProblemsPanel)
        target = next(i for i, d in enumerate(panel.diagnostics) if d.code == code)
        options = app.query_one("#problems-list")
        shown = " ".join(str(options.get_option_at_index(target).prompt).split())
        assert PHRASES[code].text[1:] in shown and editor_message(panel.diagnostics[target]) in shown
        await pilot.press("ctrl+k")
        options.highlighted = target
        await pilot.press("enter")  # to the problem's cell
        await settle(app, pilot)
        assert app.focused is app.canvas
        for key in keys:
            await press(app, pilot, key)
        assert code not in {d.code for d in panel.diagnostics}, [d.render() for d in panel.diagnostics]


@run_async
async def test_an_unknown_card_in_the_heros_hand_says_his_form_and_the_form_fixes_it(tmp_path) -> None:
    """'red-poton' typed in the hero's items was told 'on the map: ctrl+f to choose one, enter to place it;
    a shop's stock or a chest's contents: i' (tutor22): no key on the map reaches the hero's hand. The
    campaign hero's card says F8 and his form's field; a level's practice hero's, p and its fields."""
    from textual.widgets import Input

    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    data["hero"]["items"] = ["red-poton"]
    data["levels"][0]["hero"] = {"items": ["dager"]}
    path = tmp_path / "hand.json"
    app = app_on(data, path, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        panel = app.query_one(ProblemsPanel)
        said = {d.path[0]: editor_message(d) for d in panel.diagnostics if d.code == "CR201"}
        assert said["hero"].endswith(PLACED_PHRASES["CR201", "hero"].text[1:]) and "ctrl+f" not in said["hero"]
        assert said["levels"].endswith(PLACED_PHRASES["CR201", "level hero"].text[1:]), said
        await press(app, pilot, "f8")
        app.screen.query_one("#form-items", Input).value = "red-potion"
        await press(app, pilot, "ctrl+s")
        assert [d.path[0] for d in panel.diagnostics if d.code == "CR201"] == ["levels"]


@run_async
async def test_a_level_no_ladder_reaches_says_t_and_t_fixes_it(tmp_path) -> None:
    """CR310 (a level no ladder leads to) and CR306 (a level with neither a ladder nor an exit), met
    while adding a level (seen in tmux): the phrase names the keys, and they fix it."""
    data = json.loads(FIXTURE.read_text())
    next(c for c in data["levels"][0]["cells"] if c.get("to"))["to"] = "the-way-out"  # the old shop skipped
    path = tmp_path / "skipped.json"
    app = app_on(data, path, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        options = app.query_one("#problems-list")
        panel = app.query_one(ProblemsPanel)
        target = next(i for i, d in enumerate(panel.diagnostics) if d.code == "CR310")
        assert "press t on a descending ladder" in str(options.get_option_at_index(target).prompt)
        app.canvas.move_to(4, 1)  # the first level's ladder
        await pilot.press("t", "up", "enter")  # from The Way Out up to The Old Shop
        await settle(app, pilot)
        assert "CR310" not in {d.code for d in panel.diagnostics}
        await pilot.press("ctrl+l", "a", "ctrl+g")  # a new level: a starting tile, no way out
        await settle(app, pilot)
        target = next(i for i, d in enumerate(panel.diagnostics) if d.code == "CR306")
        assert "place a Descending Ladder" in str(options.get_option_at_index(target).prompt)
        await press(app, pilot, "ctrl+f", *"descending", "enter", "ctrl+g", "right", "enter")
        assert app.campaign.levels[1].cell_at(1, 0).card == "descending-ladder"
        assert "CR306" not in {d.code for d in panel.diagnostics}


@run_async
async def test_a_ladder_cycle_is_fixed_in_the_editor(tmp_path) -> None:
    """CR312 (ladders that lead back up) said 'set "allow_ladder_cycles": true if this is intended', a
    field no form of the editor held (walk 18): the author had to leave for a text editor. The
    campaign metadata form holds it now, and the problem says where."""
    data = json.loads(FIXTURE.read_text())
    back = next(c for c in data["levels"][1]["cells"] if c["at"] == [2, 1])
    back.update(card="descending-ladder", to="the-cave-in")  # The Old Shop leads back to The Cave-In
    path = tmp_path / "cycle.json"
    app = app_on(data, path, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        panel = app.query_one(ProblemsPanel)
        cycle = next(d for d in panel.diagnostics if d.code == "CR312")
        said = editor_message(cycle)
        assert "allow_ladder_cycles" not in said and "ctrl+e" in said and "Allow ladder cycles" in said, said
        await press(app, pilot, "ctrl+e")
        box = app.screen.query_one("#form-allow_ladder_cycles")
        box.value = True
        await press(app, pilot, "ctrl+s")
        assert app.campaign.allow_ladder_cycles
        assert "CR312" not in {d.code for d in panel.diagnostics}
        await press(app, pilot, "ctrl+z")
        assert "CR312" in {d.code for d in panel.diagnostics}


def test_two_cards_on_one_cell_name_the_card_hidden_under_the_other() -> None:
    """CR204 said 'two cards on cell (0, 0): cells[0] is there already' (walk 18): the editor shows the
    second card there, and cells[0] (the file's list index) named nothing an author sees; the card's id
    does, the file's line and column stay with the check."""
    diags = check_text((BROKEN / "43-two-cards-one-cell.json").read_text(), "43.json")
    two = next(d for d in diags if d.code == "CR204")
    assert "'starting-tile' is there already" in two.message and "cells[" not in two.message, two.message
    said = editor_message(two)
    assert "cells[" not in said and "delete" in said, said


@run_async
async def test_a_card_outside_the_grid_is_brought_back_with_the_level_size(tmp_path) -> None:
    """CR203 said 'move it, or make the level larger' (walk 18): the map shows no place outside the
    grid, so the card could not be moved there; the problem names the level properties' size fields,
    and a larger width brings the card onto the map."""
    path = tmp_path / "outside.json"
    path.write_bytes((BROKEN / "42-cell-outside-grid.json").read_bytes())
    app = make_app(path, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        panel = app.query_one(ProblemsPanel)
        said = editor_message(next(d for d in panel.diagnostics if d.code == "CR203"))
        assert "move it" not in said and "p in the Levels panel" in said and "Width (1 to 256)" in said, said
        await press(app, pilot, "ctrl+l", "p")
        app.screen.query_one("#form-width").value = "4"
        await press(app, pilot, "ctrl+s")
        assert "CR203" not in {d.code for d in panel.diagnostics}
        assert app.campaign.levels[0].cell_at(3, 0) is not None


def test_a_buy_goal_no_run_can_pay_for_says_where_the_gold_amount_is_set() -> None:
    """CR309 says 'lower the card's gold amount': in the editor that is the card form's Gold (f4, from the
    card chosen in the Cards panel), which the problem did not say (walk 18)."""
    data = json.loads(FIXTURE.read_text())
    data["levels"][1]["goals"] = [{"buy": "shopkeepers-debt"}]
    data["hero"] = {"character": "warrior"}
    unpaid = next(d for d in check_text(json.dumps(data), "x.json") if d.code == "CR309")
    said = editor_message(unpaid)
    assert "f4" in said and '"Gold"' in said and "ctrl+f" in said, said



def test_a_duplicate_card_instance_id_is_not_sent_to_the_level_id() -> None:
    """CR202 on a card's own id was phrased as the duplicate level id's fix (the Levels panel's "Id"), which
    cannot change a card's id; the card placed anew takes its place's."""
    from cardrogue.engine.format.diagnostics import Diagnostic

    card = Diagnostic("CR202", "duplicate card instance id 'spike' (the card at (1, 0) has it too): each card on the "
                      "map needs its own id", path=("levels", 0, "cells", 5, "id"), level=0, cell=(3, 0))
    level = Diagnostic("CR202", "duplicate level id 'pit' (level 2 has it too): each level needs its own id",
                       path=("levels", 2, "id"), level=2)
    assert editor_message(card).endswith(PLACED_PHRASES["CR202", "card id"].text) and "Levels panel" not in editor_message(card)
    assert editor_message(level).endswith(PHRASES["CR202"].text)




def _tutorial() -> dict:
    from cardrogue.engine.format.resources import bundled_campaigns

    path = next(p for p in bundled_campaigns() if p.name == "a-sons-descent.json")
    return json.loads(path.read_text(encoding="utf-8"))


@run_async
async def test_a_misspelt_hero_character_says_his_character_list_and_it_fixes_it(tmp_path) -> None:
    """A hero character typed "warior" was told to correct it in the hero's "Starting items" or "Equipped" (the
    phrase of an unknown card in his hand): it says his form's "Character" list, and choosing there fixes it."""
    from textual.widgets import Select

    data = _tutorial()
    data["hero"]["character"] = "warior"
    app = app_on(data, tmp_path / "hero.json", tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        said = [editor_message(d) for d in app.query_one(ProblemsPanel).diagnostics if d.code == "CR201"]
        assert said == ["unknown card 'warior'; did you mean 'warrior'? Press f8 and choose his \"Character\" (a list "
                        "of the character cards)"], said
        await press(app, pilot, "f8")
        app.screen.query_one("#form-character", Select).value = "warrior"
        await press(app, pilot, "ctrl+s")
        assert not [d for d in app.query_one(ProblemsPanel).diagnostics if d.code == "CR201"]


@run_async
async def test_a_roll_of_seven_says_the_cell_panels_rolls_and_ctrl_r_fixes_it(tmp_path) -> None:
    """A scripted roll of 7 was told only "rolls[1] is 7; the largest allowed is 6": the editor names the field that
    holds them and the key to it, and typing the rolls again there fixes it."""
    data = _tutorial()
    cell = next(c for c in data["levels"][2]["cells"] if c["card"] == "goblin")
    cell["rolls"] = [4, 7]
    app = app_on(data, tmp_path / "rolls.json", tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        said = [editor_message(d) for d in app.query_one(ProblemsPanel).diagnostics if d.code == "CR106"]
        assert said == ["rolls[1] is 7; the largest allowed is 6; each is a die face, 1 to 6: ctrl+r on the card types "
                        "them again in the Cell panel's \"Scripted rolls\""], said
        app.set_level(2)
        app.canvas.cursor = tuple(cell["at"])
        app.canvas.focus()
        await press(app, pilot, "ctrl+r")
        assert app.focused.id == "inspector-rolls" and app.focused.value == "4 7"
        app.focused.value = "4 6"
        await press(app, pilot, "enter")
        assert not [d for d in app.query_one(ProblemsPanel).diagnostics if d.code == "CR106"]


@run_async
async def test_paths_out_of_order_say_the_maps_keys_and_one_fixes_them(tmp_path) -> None:
    """Paths typed "ENE" were told the letters allowed, in the file's words only: the editor names n, e, s and w,
    and pressing two of them (wall, then open again) leaves the card's edges as they were, written in order."""
    data = _tutorial()
    cell = data["levels"][1]["cells"][0]
    assert cell["card"] == "starting-tile" and cell["paths"] == "E"
    cell["paths"] = "ENE"
    app = app_on(data, tmp_path / "paths.json", tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(app, pilot)
        said = [editor_message(d) for d in app.query_one(ProblemsPanel).diagnostics if d.code == "CR105"]
        assert len(said) == 1 and said[0].endswith("; on the map, n, e, s and w open or wall its edges, and write its "
                                                   "paths in order"), said
        app.set_level(1)
        app.canvas.cursor = tuple(cell["at"])
        app.canvas.focus()
        await press(app, pilot, "n", "n")
        assert not [d for d in app.query_one(ProblemsPanel).diagnostics if d.code == "CR105"]
        assert app.doc.campaign.levels[1].cell_at(*cell["at"]).paths == "NE"
