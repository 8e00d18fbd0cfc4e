"""docs/authoring.md's editor tutorial, walked key by key: the problems and the par it documents."""

from __future__ import annotations

import json
import re
from pathlib import Path

from textual.widgets import Input, Select

from cardrogue.editor.app import EditorApp
from cardrogue.editor.files import new_document, open_document
from cardrogue.editor.widgets.dialogs import FormScreen
from cardrogue.editor.widgets.palette import Palette
from cardrogue.cli.main import main
from editor_support import press, settle
from helpers import run_async

AUTHORING = Path(__file__).resolve().parents[1] / "docs" / "authoring.md"


def tutorial_steps() -> dict[int, str]:
    """The tutorial's numbered steps, by number."""
    text = AUTHORING.read_text(encoding="utf-8")
    section = text[text.index("## Tutorial: a first challenge map in the editor"):text.index("## The same map by hand")]
    parts = re.split(r"^(\d+)\. ", section, flags=re.M)
    return {int(parts[i]): " ".join(parts[i + 1].split()) for i in range(1, len(parts), 2)}


def codes(app: EditorApp) -> set[str]:
    return {d.code for d in app.diagnostics}


def documented(step: str) -> set[str]:
    return set(re.findall(r"CR\d{3}", step))


async def press_at(pilot, app: EditorApp, x: int, y: int, *keys: str) -> None:
    """Walk the map's cursor to (x, y) with the arrows, then press ``keys``."""
    cx, cy = app.canvas.cursor
    moves = ["right" if x > cx else "left"] * abs(x - cx) + ["down" if y > cy else "up"] * abs(y - cy)
    await press(app, pilot, *moves, *keys)


@run_async
async def test_the_editor_tutorial_works_as_written(tmp_path) -> None:
    steps = tutorial_steps()
    assert sorted(steps) == list(range(1, 9))
    path = tmp_path / "goblin-toll.json"
    app = EditorApp(new_document(path), recovery_dir=tmp_path / "recovery", autosave_seconds=3600,
                    cursor_blink=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        # 1. The blank map: three chokepoint notes.
        level = app.campaign.levels[0]
        assert (level.width, level.height, level.cell_at(0, 1).card, level.cell_at(4, 1).exit) == (5, 3, "starting-tile", True)
        assert codes(app) == documented(steps[1]) == {"CR307"}
        assert sum(d.code == "CR307" for d in app.diagnostics) == 3 and "three notes" in steps[1]

        # 2. Name it.
        await pilot.press("ctrl+e")
        form = app.screen
        assert isinstance(form, FormScreen)
        form.query_one("#form-title", Input).value = "The Goblin Toll"
        form.query_one("#form-kind", Select).value = "challenge"
        form.query_one("#form-seed", Input).value = "7"
        await press(app, pilot, "ctrl+s")
        assert (app.campaign.title, app.campaign.kind, app.campaign.seed) == ("The Goblin Toll", "challenge", 7)

        # 3. The goblin on the third corridor card.
        await press(app, pilot, "ctrl+f", *"goblin", "enter")
        assert app.query_one(Palette).brush == "goblin"
        await pilot.press("ctrl+g")
        await press_at(pilot, app, 3, 1, "enter")
        goblin = app.campaign.levels[0].cell_at(3, 1)
        assert (goblin.card, goblin.paths, goblin.face_up) == ("goblin", "EW", False)
        await settle(app, pilot)
        assert codes(app) == {"CR307"}

        # 4. Scripted rolls, from the keyboard.
        await pilot.press("ctrl+r")
        assert app.focused is not None and app.focused.id == "inspector-rolls"
        await press(app, pilot, *"2 5", "enter")
        assert app.campaign.levels[0].cell_at(3, 1).rolls == (2, 5)

        # 5. The lower road, painted from the starting tile; the trap; face up; joined to the exit.
        await press(app, pilot, "ctrl+f", *"pathing-tile", "enter", "ctrl+g")
        assert app.query_one(Palette).brush == "pathing-tile"
        await press_at(pilot, app, 0, 1)
        for x in range(5):
            await press_at(pilot, app, x, 2, "enter")
        level = app.campaign.levels[0]
        assert [level.cell_at(x, 2).paths for x in range(5)] == ["NE", "EW", "EW", "EW", "W"]
        assert [level.cell_at(x, 1).paths for x in range(5)] == ["ES", "EW", "EW", "EW", "W"]
        await press(app, pilot, "ctrl+f", *"spike-trap", "enter", "ctrl+g")
        await press_at(pilot, app, 2, 2, "enter")
        await press_at(pilot, app, 0, 2)
        await press(app, pilot, *["shift+right"] * 4, "f", "escape")
        level = app.campaign.levels[0]
        assert level.cell_at(2, 2).card == "spike-trap"
        assert all(level.cell_at(x, 2).face_up for x in range(5))
        await settle(app, pilot)
        assert codes(app) == {"CR307"}  # a dead end: the corridor is still the only way
        await press_at(pilot, app, 4, 1, "s")
        await press_at(pilot, app, 4, 2, "n")
        await settle(app, pilot)
        assert codes(app) == set() and "notes disappear" in steps[5]

        # 6. Wall the exit's west edge, then its south edge; undo both.
        await press_at(pilot, app, 4, 1, "w")
        await settle(app, pilot)
        assert codes(app) == {"CR307"}
        await press(app, pilot, "s")
        assert codes(app) == documented(steps[6]) - {"CR307"} == {"CR301", "CR311", "CR223"}
        assert app.canvas.markers[(4, 1)].name == "ERROR"
        # The walled map saved as a draft; F5 waits for the errors to be fixed, F6 says why there is no par.
        await press(app, pilot, "ctrl+s")
        draft = path.read_bytes()
        saved = list(app._notifications)[-1].message
        assert saved.startswith("Saved goblin-toll.json with 2 errors: it cannot be played or published until they are fixed")
        assert f"`{saved.split(' (first')[0]}`" in steps[6]
        await press(app, pilot, "f5")
        assert list(app._notifications)[-1].message.startswith("Not played: the campaign has 2 errors")
        assert "F5 says why it waits" in steps[6]
        await press(app, pilot, "f6")
        status = str(app.query_one("#solve-status").render())
        assert status.startswith("Unsolvable: no way out can be reached: the exit at (4, 1) cannot be reached")
        assert "`Unsolvable: no way out can be reached ...`" in steps[6]
        await press(app, pilot, "ctrl+z", "ctrl+z")
        assert codes(app) == set()

        # 7. The par.
        await press(app, pilot, "f6")
        result = app.solving.solution.result
        turns, health = map(int, re.search(r"par \*\*(\d+) turns, (\d+) health left\*\*", steps[7]).groups())
        assert (result.verdict, result.turns, result.health) == ("solved", turns, health) == ("solved", 4, 10)
        await pilot.press("escape")

        # 8. Record the par and save; the strict check, with the solver, passes.
        assert "`ctrl+p`, then *Record par*" in steps[8]
        await _palette_command(app, pilot, "record par", "Record par")
        await press(app, pilot, "ctrl+s")
        assert path.exists() and not app.doc.dirty
        assert json.loads(path.read_text(encoding="utf-8"))["par"] == {"turns": 4, "health": 10}
    assert "check --strict --solve" in steps[8] and main(["check", "--strict", "--solve", str(path)]) == 0

    # 6, reopened: the walled draft opened again has no undo history; `w` and `s` on the exit open the edges.
    assert "press `w` and `s` again" in steps[6]
    reopened = tmp_path / "reopened" / "goblin-toll.json"
    reopened.parent.mkdir()
    reopened.write_bytes(draft)
    app = EditorApp(open_document(reopened), recovery_dir=tmp_path / "recovery-2", autosave_seconds=3600,
                    cursor_blink=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert codes(app) == {"CR301", "CR311", "CR223"}
        await press(app, pilot, "ctrl+z")
        assert codes(app) == {"CR301", "CR311", "CR223"}  # nothing to undo
        await press_at(pilot, app, 4, 1, "w", "s")
        await settle(app, pilot)
        assert codes(app) == set() and app.campaign.levels[0].cell_at(4, 1).paths == "SW"


async def _palette_command(app, pilot, typed: str, title: str) -> None:
    """ctrl+p, the words ``typed``, and Enter on the command ``title`` once the palette's search lists it."""
    from textual.command import CommandPalette

    await pilot.press("ctrl+p")
    await pilot.pause()
    assert isinstance(app.screen, CommandPalette)
    await pilot.press(*typed)
    for _ in range(500):  # the search runs in a worker: wait for its list
        await app.screen.workers.wait_for_complete()
        await pilot.pause()
        titles = [str(option.prompt).split("\n")[0] for option in app.screen.query_one("CommandList")._options]
        if titles and titles[0].startswith(title):
            break
        await pilot.pause(0.01)
    assert titles and titles[0].startswith(title), titles
    await pilot.press("enter")
    await settle(app, pilot)
