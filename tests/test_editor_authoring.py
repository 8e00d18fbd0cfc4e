"""Authoring beyond the map: goals, stock and contents, potions, cards, the hero, the file
picker, and the solver's par with its solution stepped through on the map (Pilot)."""

from __future__ import annotations


from pathlib import Path

import pytest
from textual.widgets import Select

from cardrogue.editor import edits
from cardrogue.editor.app import EditorApp
from cardrogue.editor.document import Document
from cardrogue.editor.solution import trace_steps
from cardrogue.editor.widgets.dialogs import ChoiceScreen, FileScreen, FormScreen
from cardrogue.editor.widgets.map_canvas import CELL_H, CELL_W
from cardrogue.editor.widgets.palette import Palette
from cardrogue.engine.format.loader import load_campaign, load_campaign_text
from cardrogue.engine.model.campaign import CardKind
from cardrogue.engine.chance.resolvers import FatedResolver
from cardrogue.engine.analysis.solver import Budget, solve_level
from cardrogue.engine.rules.state import GameState
from editor_support import SIZE, form_error, make_app, press, settle
from helpers import FIXTURE, run_async, shown_lines


@pytest.fixture
def campaign():
    return load_campaign(FIXTURE).campaign


async def fill(app: EditorApp, pilot, **values: str) -> None:
    """Fill the open form's fields and press OK."""
    assert isinstance(app.screen, FormScreen)
    for name, value in values.items():
        app.screen.query_one(f"#form-{name}").value = value
    await pilot.press("ctrl+s")  # the form's OK
    await pilot.pause()


def reloads(app: EditorApp):
    """The saved text loads without errors (what a save writes is a valid campaign)."""
    result = load_campaign_text(app.doc.text(), "<saved>")
    return result


# --------------------------------------------------------------------------- pure edits


def test_goal_edits(campaign) -> None:
    c = edits.add_goal(campaign, 1, "slay", "cave-bat")
    assert [g.text() for g in c.levels[1].goals] == ["Slay goblin", "Slay cave-bat"]
    assert edits.add_goal(c, 1, "slay", "cave-bat") is c  # already a goal
    with pytest.raises(ValueError, match="slay, open or buy"):
        edits.add_goal(campaign, 1, "kill", "goblin")
    with pytest.raises(ValueError, match="CR217: .dagger. is a weapon; only enemies can be slain"):
        edits.add_goal(campaign, 1, "slay", "dagger")
    with pytest.raises(ValueError, match="CR201: unknown card"):
        edits.add_goal(campaign, 1, "slay", "gobln")
    assert edits.remove_goal(c, 1, 1).levels[1].goals == campaign.levels[1].goals
    assert edits.remove_goal(c, 1, 5) is c


def test_a_goal_the_level_cannot_meet_is_refused(campaign) -> None:
    # a troll is a known enemy, but the level holds none; the first level has no shop and no chest
    with pytest.raises(ValueError, match='CR221: goal: slay .troll., but no .troll. is on level 2 "The Old Shop" \\(the-old-shop\\)'):
        edits.add_goal(campaign, 1, "slay", "troll")
    with pytest.raises(ValueError, match='CR221: goal: buy .dagger., but no shop on level 1 "The Cave-In" \\(the-cave-in\\) sells it'):
        edits.add_goal(campaign, 0, "buy", "dagger")
    with pytest.raises(ValueError, match='CR221: goal: open the chest, but level 1 "The Cave-In" \\(the-cave-in\\) has no chest'):
        edits.add_goal(campaign, 0, "open", "chest")


def test_goal_targets_are_what_the_level_holds(campaign) -> None:
    # the old shop: a goblin (already a goal) and a cave bat; a shop selling three cards; no chest
    assert edits.goal_targets(campaign, 1) == {
        "slay": ("cave-bat",), "open": (), "buy": ("dagger", "helm", "shopkeepers-debt")}
    assert edits.goal_targets(campaign, 2) == {"slay": (), "open": (), "buy": ()}


# --------------------------------------------------------------------------- the app


@run_async
async def test_add_and_remove_goals(campaign_file, tmp_path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.set_level(1)
        await pilot.press("g")
        form = app.screen
        assert isinstance(form, FormScreen)
        verb, card = form.query_one("#form-verb", Select), form.query_one("#form-card", Select)
        # the kinds the level can meet, and for each what the level holds: no chest here, so no "open"
        assert [str(option) for option, _ in verb._options] == ["slay", "buy"]
        assert verb.value == "slay" and card.value == "cave-bat"  # the one enemy not yet a goal
        verb.value = "buy"
        await pilot.pause()
        assert [value for _, value in card._options if value is not Select.NULL] == [
            "dagger", "helm", "shopkeepers-debt"]
        assert card.value is Select.NULL  # three to choose from: the author picks
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, FormScreen) and "pick what the goal is about" in form_error(app, "card")
        card.value = "shopkeepers-debt"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, FormScreen), form_error(app)
        assert [g.text() for g in app.campaign.levels[1].goals] == ["Slay goblin", "Buy shopkeepers-debt"]
        await pilot.press("G")
        assert isinstance(app.screen, ChoiceScreen)
        app.screen.query_one("#choice-list").highlighted = 0
        await pilot.press("enter")
        await pilot.pause()
        assert [g.text() for g in app.campaign.levels[1].goals] == ["Buy shopkeepers-debt"]
        await pilot.press("ctrl+z", "ctrl+z")
        assert [g.text() for g in app.campaign.levels[1].goals] == ["Slay goblin"]
        assert not app.doc.dirty
        app.set_level(2)  # nothing on the last level can be a goal: no form, a note saying why
        await pilot.press("g")
        await pilot.pause()
        assert not isinstance(app.screen, FormScreen)
        assert any("Nothing on this level can be a new goal" in str(n.message) for n in app._notifications)


@run_async
async def test_shop_stock_form(campaign_file, tmp_path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("i")  # the starting tile: neither shop nor chest
        assert not isinstance(app.screen, FormScreen)
        app.set_level(1)
        app.canvas.move_to(1, 0)
        await pilot.press("i")
        assert app.screen.query_one("#form-items").value == "dagger helm shopkeepers-debt"
        await fill(app, pilot, items="dagger goblin")
        assert "CR217: 'goblin' is an enemy, not an item" in form_error(app)
        await fill(app, pilot, items="helm, dagger")
        assert not isinstance(app.screen, FormScreen)
        assert app.campaign.levels[1].cell_at(1, 0).stock == ("helm", "dagger")
        await pilot.press("ctrl+z")
        assert app.campaign.levels[1].cell_at(1, 0).stock == ("dagger", "helm", "shopkeepers-debt")


@run_async
async def test_potion_colours(campaign_file, tmp_path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("f7")
        await fill(app, pilot, red="healing", blue="healing")
        assert "each colour has a different effect" in form_error(app)
        await fill(app, pilot, red="healing", blue="poison")
        assert dict(app.campaign.potions) == {"red": "healing", "blue": "poison"}
        assert '"potions"' in app.doc.text()
        assert reloads(app).campaign is not None
        await pilot.press("ctrl+z")
        assert dict(app.campaign.potions) == {}


@run_async
async def test_potion_colour_labels_follow_the_choices_made_in_the_form(campaign_file, tmp_path) -> None:
    """walk 26: F7's labels said what the seed makes each colour not set ("Green potion (not set: seed 7 makes
    it weakness)") for the colours as they were when the form opened; choosing red and blue changes what the
    seed gives the others (green became poison), which the labels said only once the form was opened again."""
    from cardrogue.engine.model.potions import potion_identities

    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("f7")
        await settle(app, pilot)
        seed = app.campaign.seed
        chosen = {"red": "teleportation", "blue": "paralysis"}
        for colour, effect in chosen.items():
            app.screen.query_one(f"#form-{colour}", Select).value = effect
        await settle(app, pilot)
        seeded = potion_identities(seed, chosen)
        for colour in ("green", "yellow", "purple", "orange"):
            label = str(app.screen.query_one(f"#form-label-{colour}").render())
            assert label == f"{colour.capitalize()} potion (not set: seed {seed} makes it {seeded[colour]})", label
        assert str(app.screen.query_one("#form-label-red").render()) == "Red potion"


@run_async
async def test_card_definitions(campaign_file, tmp_path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.query_one(Palette).choose("goblin")
        await pilot.press("f4")
        assert app.screen.query_one("#form-name").value == "Goblin"
        await fill(app, pilot, attack="5")
        assert app.campaign.cards["goblin"].attack == 5
        assert dict(app.campaign.card_entries) == {"goblin": {"attack": 5}}
        await pilot.press("f4")
        await fill(app, pilot, id="rat-king", name="Rat King", kind="boss", attack="2", health="9", gold="",
                   ability0="FLIES AWAY", ability1="", ability2="", ability3="")
        assert "FLIES AWAY" in form_error(app) and "vocabulary" in form_error(app)
        await fill(app, pilot, ability0="-1 DAMAGE TAKEN")
        assert app.campaign.cards["rat-king"].kind.value == "boss"
        assert "rat-king" in app.query_one(Palette).cards and app.query_one(Palette).brush == "rat-king"
        assert reloads(app).campaign.cards["rat-king"].health == 9
        # remove: the new card, then the override (back to the catalog)
        await app.run_action("remove_card")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        options = app.screen.query_one("#choice-list")
        options.highlighted = [options.get_option_at_index(i).id for i in range(options.option_count)].index("rat-king")
        await pilot.press("enter")
        await pilot.pause()
        assert "rat-king" not in app.campaign.cards
        await pilot.press("ctrl+z")
        assert "rat-king" in app.campaign.cards
        await pilot.press("ctrl+z", "ctrl+z")
        assert not app.doc.dirty


@run_async
async def test_card_form_by_keyboard(campaign_file, tmp_path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.query_one(Palette).choose("helm")
        await pilot.press("f4")
        form = app.screen
        assert isinstance(form, FormScreen)
        assert (form.query_one("#form-kind").value, form.query_one("#form-slot").value) == ("armour", "head")
        assert form.query_one("#form-colour").is_blank() and form.query_one("#form-sellable").value is True
        form.query_one("#form-id").value = "thorn-crown"
        form.query_one("#form-name").value = "Thorn Crown"
        await pilot.press("tab", "tab")  # id, name, kind
        await pilot.press("enter", "w", "enter")  # open the list, type to find weapon, pick it
        await pilot.press("tab", "tab", "tab", "tab", "tab", "tab")  # attack, health, gold, victory points, max health, slot
        await pilot.press("space", "b", "enter")  # both-hands
        await pilot.press("tab", "tab", "tab", "tab", "tab", "space")  # colour, the flags: tick cursed
        assert form.values()["cursed"] is True and form.values()["kind"] == "weapon"
        await pilot.press("tab", "enter")  # enter in a text field is OK
        await pilot.pause()
        assert not isinstance(app.screen, FormScreen), form_error(app)
        card = app.campaign.cards["thorn-crown"]
        assert (card.kind, card.slot, card.cursed, card.sellable) == (CardKind.WEAPON, "both-hands", True, True)
        assert dict(app.campaign.card_entries["thorn-crown"]) == {
            "name": "Thorn Crown", "kind": "weapon", "gold": 3, "slot": "both-hands", "cursed": True,
            "abilities": ["-1 DAMAGE TAKEN"]}
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not app.doc.dirty
        # escape closes an open list first, then cancels the form
        await pilot.press("f4", "tab", "tab", "enter")
        assert app.screen.query_one("#form-kind").expanded
        await pilot.press("escape")
        assert isinstance(app.screen, FormScreen) and not app.screen.query_one("#form-kind").expanded
        await pilot.press("escape")
        assert not isinstance(app.screen, FormScreen) and not app.doc.dirty
    assert load_campaign(campaign_file).campaign.cards["thorn-crown"] == card


@run_async
async def test_hero_form(campaign_file, tmp_path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("f8")
        assert app.screen.query_one("#form-items").value == "gold gold"
        [choice] = [value for name, _, value in app.screen.fields if name == "character"]
        characters = {c.id for c in app.campaign.cards.values() if c.kind is CardKind.CHARACTER}
        assert set(choice.options) == characters and "goblin" not in choice.options  # only characters to pick
        with pytest.raises(ValueError, match="not a character"):
            edits.set_hero_checked(app.campaign, "goblin", ["gold"], [])
        await fill(app, pilot, character="rogue", items="gold dagger", equipped="helm")
        hero = app.campaign.hero
        assert (hero.character, hero.items, hero.equipped) == ("rogue", ("gold", "dagger"), ("helm",))
        assert reloads(app).campaign is not None


@run_async
async def test_file_picker_opens_and_saves(campaign_file, tmp_path) -> None:
    other = tmp_path / "other.json"
    other.write_bytes(FIXTURE.read_bytes().replace(b"A Son's Descent", b"Another Tale"))
    (tmp_path / "notes.txt").write_text("not a campaign")
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+o")
        assert isinstance(app.screen, FileScreen)
        tree = await loaded_tree(app, pilot)
        names = [node.data.path.name for node in tree.root.children]
        assert "other.json" in names and "story.json" in names and "notes.txt" not in names
        tree.focus()
        node = next(n for n in tree.root.children if n.data.path.name == "other.json")
        tree.move_cursor(node)
        await press(app, pilot, "enter")
        assert app.doc.path == other and app.campaign.title == "Another Tale"
        # save as: a folder chosen in the tree keeps the typed file name
        (tmp_path / "out").mkdir()
        await pilot.press("f12")
        assert isinstance(app.screen, FileScreen)
        app.screen.query_one("#path-input").value = str(tmp_path / "copy.json")
        tree = await loaded_tree(app, pilot)
        folder = next(n for n in tree.root.children if n.data.path.name == "out")
        tree.focus()
        tree.move_cursor(folder)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.query_one("#path-input").value == str(tmp_path / "out" / "copy.json")
        app.screen.query_one("#path-input").focus()
        await press(app, pilot, "enter")
        assert app.doc.path == tmp_path / "out" / "copy.json" and (tmp_path / "out" / "copy.json").exists()


@run_async
async def test_file_picker_shows_a_hostile_file_name_as_it_is_written(campaign_file, tmp_path) -> None:
    """A file name is shown as text, control characters escaped as everywhere else (docs/editor.md,
    *Files*): the tree showed `nl\\nx.json` as `nl` (its first line) and dropped the escape of
    `esc\\x1b[31mred.json`, so two names could not be told apart from what was drawn."""
    names = ["nl\nx.json", "esc\x1b[31mred.json", "[bold red]evil.json"]
    for name in names:
        (tmp_path / name).write_bytes(FIXTURE.read_bytes())
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+o")
        tree = await loaded_tree(app, pilot)
        await pilot.pause()
        shown = "\n".join(shown_lines(tree))
        for name in ("nl\\nx.json", "esc\\x1b[31mred.json", "[bold red]evil.json"):
            assert name in shown, shown


async def loaded_tree(app: EditorApp, pilot):
    """The file picker's tree once its folder is read (its loader worker never completes: no settle here)."""
    tree = app.screen.query_one("#file-tree")
    for _ in range(200):
        await pilot.pause(0.02)
        if tree.root.children:
            return tree
    raise AssertionError("the folder tree did not load")


def canvas_text(app: EditorApp, x: int, y: int) -> str:
    """The middle line of the grid place (x, y) as drawn (the map is at scroll 0)."""
    line = app.canvas.render_line(y * CELL_H + 1)
    return line.text[x * CELL_W:(x + 1) * CELL_W]


@run_async
async def test_solve_and_step_through_the_solution(campaign_file, tmp_path, campaign) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "f6")
        solution = app.solving.solution
        assert solution is not None and solution.verdict == "solved"
        status = str(app.query_one("#solve-status").render())
        assert "Par: 4 turns, 8 health" in status and "Step 0/11" in status
        assert app.canvas.overlay.marker == (0, 1) and "@" in canvas_text(app, 0, 1)
        # replay the same actions in the engine: marker, turn and flips follow it
        state, resolver = GameState.new(campaign, 0), FatedResolver(campaign)
        state.resolve(resolver)
        for k, action in enumerate(solution.result.actions[:6], 1):
            turn = state.turn
            state.step(action, resolver)
            await pilot.press("full_stop")
            assert app.solving.step_index == k
            assert app.canvas.overlay.marker == state.position
            status = str(app.query_one("#solve-status").render())
            assert f"Step {k}/11, turn {turn}: {action}" in status
        assert app.canvas.overlay.flipped == {(1, 1), (2, 1)}
        assert "@" in canvas_text(app, 2, 1) and "@" not in canvas_text(app, 0, 1)
        await pilot.press("comma", "comma")
        assert app.solving.step_index == 4 and app.canvas.overlay.marker == (1, 1)
        assert "Step 4/11, turn 2: flip E" in str(app.query_one("#solve-status").render())
        for _ in range(20):
            await pilot.press("full_stop")
        assert app.solving.step_index == 11 and app.canvas.overlay.marker == (4, 1)
        assert "takes the ladder" in str(app.query_one("#solve-status").render())
        await pilot.press("escape")
        assert app.canvas.overlay is None and app.solving.step_index is None
        assert "@" not in canvas_text(app, 4, 1)
        assert "Par: 4 turns" in str(app.query_one("#solve-status").render())
        await pilot.press("full_stop")  # not stepping: nothing happens
        assert app.solving.step_index is None


@run_async
async def test_every_step_line_shows_what_the_engine_logged_at_80x24(campaign_file, tmp_path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "f6")
        steps = app.solving.solution.steps
        assert len(steps) == 12 and any(len(" ".join(step.log)) > 50 for step in steps)
        for k, step in enumerate(steps):
            # read off the screen as a person sees it
            shown = " ".join(" ".join(shown_lines(app.query_one("#solve-status"))).split())
            assert f"Step {k}/11" in shown and f"health {step.health}" in shown, shown
            assert " ".join(" ".join(step.log).split()) in shown, (k, shown)
            await press(app, pilot, "full_stop")


@run_async
async def test_solve_verdicts_and_edits_end_the_steps(campaign_file, tmp_path) -> None:
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.set_level(2)
        app.canvas.move_to(2, 0)
        await pilot.press("w")  # wall the exit off
        await settle(app, pilot)
        await press(app, pilot, "f6")
        status = str(app.query_one("#solve-status").render())
        assert "Unsolvable" in status and "cannot be reached" in status and app.canvas.overlay is None
        await pilot.press("ctrl+z")
        app.solving.budget = Budget(2, 5.0)
        app.set_level(1)
        await press(app, pilot, "f6")
        assert "Unknown" in str(app.query_one("#solve-status").render())
        app.solving.budget = Budget(200_000, 3600.0)  # states only: a loaded machine must not change it
        await press(app, pilot, "f6")
        assert app.solving.step_index == 0 and app.canvas.overlay is not None
        await pilot.press("full_stop", "f")  # an edit: the solution no longer fits the map
        assert app.canvas.overlay is None and app.solving.step_index is None
        assert "Before the last edit" in str(app.query_one("#solve-status").render())


@run_async
async def test_a_verdict_before_an_edit_is_not_shown_on_another_level(campaign_file, tmp_path) -> None:
    """F6 on the first level, then a level added (an edit that also shows the new level): the first
    level's verdict, 'Before the last edit: ... the exit at (4, 1) ...', stayed above the new level's
    problems, naming places of a level no longer shown (walk 18); moving to another level without an
    edit already forgot it."""
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "f6")
        assert "Par:" in str(app.query_one("#solve-status").render())
        await pilot.press("down", "right", "f")  # an edit on the level solved: its verdict kept, as before it
        await settle(app, pilot)
        assert "Before the last edit" in str(app.query_one("#solve-status").render())
        await pilot.press("ctrl+l", "a")  # a level added after this one, and shown
        await settle(app, pilot)
        assert app.level_index == 1
        assert str(app.query_one("#solve-status").render()) == ""


@run_async
async def test_a_verdict_before_an_edit_goes_with_its_level_removed_or_moved(campaign_file, tmp_path) -> None:
    """F6 on the first of two levels, an edit, then that level removed: the next level, now first, showed
    'Before the last edit: Par: ...' of the level gone (review); moving the level with ] does the same; an
    edit of the level itself (or a rename) keeps the verdict, as before."""
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "ctrl+l", "a")
        for leave in (app.action_remove_level, lambda: app.action_move_level(1)):
            app.set_level(0)
            await settle(app, pilot)
            app.canvas.focus()
            await press(app, pilot, "f6")
            assert "Par:" in str(app.query_one("#solve-status").render())
            await press(app, pilot, "down", "right", "f")
            assert "Before the last edit" in str(app.query_one("#solve-status").render())
            leave()
            await settle(app, pilot)
            assert str(app.query_one("#solve-status").render()) == ""
            await pilot.press("ctrl+z")  # the level back where it was
            await settle(app, pilot)


@run_async
async def test_an_unknown_par_with_a_run_found_shows_its_bounds_and_steps_through_the_run(tmp_path) -> None:
    """F6 on a map the budget cannot decide: the line says par lies between the floor and the run found
    (docs/solver.md, *Verdicts*), and the map steps through that run as through a solution."""
    import sys

    sys.path.insert(0, str(FIXTURE.parents[3] / "benchmarks"))
    import gen

    path = tmp_path / "walls.json"
    path.write_text(gen.mixed_campaign_text(1, 6, 1, "walls"))
    app = make_app(path, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.solving.budget = Budget(5, 3600.0)  # a state budget only: a loaded machine must not change it
        await press(app, pilot, "f6")
        result = app.solving.solution.result
        assert result.verdict == "unknown" and result.found is not None
        status = " ".join(str(app.query_one("#solve-status").render()).split())
        assert f"Unknown par: {result.turns_at_least} to {result.found.turns} turns" in status
        assert "F6's budget (5 states, 3600 s) ran out; a run of" in status and "Step 0/" in status
        assert app.solving.step_index == 0 and app.canvas.overlay is not None
        await press(app, pilot, "full_stop")
        assert app.solving.step_index == 1


@run_async
async def test_an_unknown_par_says_what_the_author_can_do_about_it(tmp_path) -> None:
    """walk 26: F6's unknown verdict named no next step ("the budget ran out before par was proven", and
    after escape "F6: solve and step again", which meets the same budget), and F9 then refused the map
    with "raise the budget to decide", a budget no author can raise. The line says which budget ran out,
    that publishing needs a proven par, and what makes a map quicker to solve, whole at 80x24."""
    import sys

    sys.path.insert(0, str(FIXTURE.parents[3] / "benchmarks"))
    import gen

    path = tmp_path / "walls.json"
    path.write_text(gen.mixed_campaign_text(1, 6, 1, "walls"))
    app = make_app(path, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        for budget in (Budget(5, 3600.0), Budget(1, 3600.0, find_share=0)):  # a run found; none looked for
            app.solving.budget = budget
            await pilot.press("f6")
            await settle(app, pilot)
            label = app.query_one("#solve-status")
            status = " ".join(str(label.render()).split())
            assert app.solving.solution.result.verdict == "unknown", status
            assert "raise the budget" not in status, status
            assert ("To publish it, its par must be proven in 20 s: make the map smaller, script its fights "
                    "(ctrl+r) or cut detours that lead nowhere.") in status, status
            assert label.size.height >= len(label.render().wrap(label.content_region.width)), "cut at 80x24"


def _walls_app(tmp_path):
    import sys

    sys.path.insert(0, str(FIXTURE.parents[3] / "benchmarks"))
    import gen

    path = tmp_path / "walls.json"
    path.write_text(gen.mixed_campaign_text(1, 6, 1, "walls"))
    return make_app(path, tmp_path)


@run_async
async def test_the_steps_of_an_unknown_par_run_are_read_at_80x24(tmp_path) -> None:
    """At 80x24 an unknown par's budget and what to do about it took six of the solver line's seven lines: past
    the start a step's log was cut away unseen ("Attacks Zombie. ..." never shown). Past the start the verdict is
    its bounds on one line, the step and its log follow, and a log longer than the line ends in "…"; the map
    keeps two rows of boxes."""
    app = _walls_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        app.solving.budget = Budget(5, 3600.0)  # a state budget only: a loaded machine must not change it
        await press(app, pilot, "f6")
        solution = app.solving.solution
        assert solution.result.verdict == "unknown" and solution.steps
        label = app.query_one("#solve-status")
        cut = 0
        for step in solution.steps[1:]:
            await press(app, pilot, "full_stop")
            shown = shown_lines(label)
            result = solution.result
            assert shown[0].strip() == f"Unknown par: {result.turns_at_least} to {result.found.turns} turns (the run found)"
            said = " ".join(line.strip() for line in shown[1:])
            assert said.startswith(f"Step {step.index}/{len(solution.steps) - 1}, turn {step.turn}: "), shown
            assert step.log and step.log[0] in said, (step.index, shown)
            whole = " ".join(" ".join(step.log).split())
            if whole not in " ".join(said.split()):
                cut += 1
                assert shown[-1].rstrip().endswith("…"), (step.index, shown)
            assert app.canvas.content_region.height >= 2 * CELL_H, app.canvas.content_region
        assert cut, "no step's log was longer than the line: the test shows nothing"


@run_async
async def test_an_unknown_par_shown_leaves_the_map_two_rows_of_boxes(tmp_path) -> None:
    """An unknown par's seven lines, the summary and a problem under them left the map one row of boxes on a
    terminal a little shorter than 24 rows (80x22: five rows): the problem row gives way first."""
    app = _walls_app(tmp_path)
    async with app.run_test(size=(80, 22)) as pilot:
        await settle(app, pilot)
        app.solving.budget = Budget(5, 3600.0)
        await press(app, pilot, "f6")
        await press(app, pilot, "escape")
        assert not app.solving.stepping
        label = app.query_one("#solve-status")
        assert label.size.height >= len(label.render().wrap(label.content_region.width)), "cut"
        assert app.canvas.content_region.height >= 2 * CELL_H, app.canvas.content_region


@run_async
async def test_open_keeps_the_dialog_for_a_folder_or_a_path_that_is_not_there(campaign_file, tmp_path) -> None:
    """Enter on a folder in the Open dialog's path field (its starting value is one) goes into that
    folder, and a mistyped name is refused under the field: the dialog stays, with what was typed."""
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "inner.json").write_bytes(FIXTURE.read_bytes())
    (tmp_path / "maps" / "inner.replay.json").write_text("{}")  # a replay is not offered as a campaign
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+o")
        await loaded_tree(app, pilot)
        field = app.screen.query_one("#path-input")
        assert app.focused is field and field.value == f"{tmp_path}/"
        await pilot.press("enter")  # the folder it shows: nothing to open, the dialog stays
        await pilot.pause()
        assert isinstance(app.screen, FileScreen) and not app._notifications
        await pilot.press(*"maps")  # typed on: into the folder shown, not over it
        assert field.value == f"{tmp_path}/maps"
        await pilot.press("enter")  # another folder: the tree shows it
        tree = await loaded_tree(app, pilot)
        assert isinstance(app.screen, FileScreen) and field.value == f"{tmp_path / 'maps'}/"
        assert [node.data.path.name for node in tree.root.children] == ["inner.json"]
        field.value = str(tmp_path / "maps" / "iner.json")
        await pilot.press("enter")  # a typo: refused under the field, the typed path kept
        await pilot.pause()
        assert isinstance(app.screen, FileScreen) and field.value == str(tmp_path / "maps" / "iner.json")
        assert "no such file" in str(app.screen.query_one("#file-error.-shown").render())
        field.value = str(tmp_path / "maps" / "inner.json")  # the author corrects the name...
        await pilot.pause()
        assert not app.screen.query("#file-error.-shown")  # ...and the refusal goes with the old value
        await press(app, pilot, "enter")
        assert app.doc.path == tmp_path / "maps" / "inner.json"


@run_async
async def test_save_as_refuses_a_folder_that_is_not_there_under_the_field(campaign_file, tmp_path) -> None:
    """Save as into a folder that does not exist closed the dialog and then said 'Could not save ...:
    No such file or directory' (the OS's words): the path typed was lost. It is refused under the field."""
    (tmp_path / "plain").write_text("not a folder")
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("f12")
        await loaded_tree(app, pilot)
        field = app.screen.query_one("#path-input")
        for typed, says in ((tmp_path / "nodir" / "sub" / "x.json", "does not exist: create it first"),
                            (tmp_path / "plain" / "x.json", "is not a folder")):
            field.value = str(typed)
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, FileScreen) and field.value == str(typed)
            shown = str(app.screen.query_one("#file-error.-shown").render())
            assert str(typed.parent) in shown and says in shown, shown
        field.value = str(tmp_path / "x.json")
        await press(app, pilot, "enter")
        assert app.doc.path == tmp_path / "x.json" and (tmp_path / "x.json").exists()


@run_async
async def test_save_as_refuses_a_place_inside_the_package_under_the_field(tmp_path) -> None:
    """docs/editor.md: the editor never writes inside the installed package. Saving the bundled
    template there closed the dialog with a notification: the path typed was lost, and the keys typed
    next (a corrected path) went to the map as commands. It is refused under the field, as a folder
    that is not there is."""
    from cardrogue.editor.files import default_document
    from cardrogue.engine.format.resources import default_campaign

    bundled = Path(default_campaign())
    before = bundled.read_bytes()
    app = EditorApp(default_document(), recovery_dir=tmp_path / "recovery", autosave_seconds=3600, cursor_blink=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+s")  # a template: saving asks where
        await loaded_tree(app, pilot)
        field = app.screen.query_one("#path-input")
        for typed in (bundled, bundled.parent / "mine.json", bundled.parent):
            field.value = str(typed)
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, FileScreen) and field.value == str(typed), typed
            shown = str(app.screen.query_one("#file-error.-shown").render())
            assert "inside the installed package" in shown, shown
        field.value = str(tmp_path / "mine.json")
        await press(app, pilot, "enter")
        assert app.doc.path == tmp_path / "mine.json" and (tmp_path / "mine.json").exists()
    assert bundled.read_bytes() == before and not (bundled.parent / "mine.json").exists()
