"""Hostile text: whatever a file, a replay, a player or a file name holds is shown as text.

Markup (``[/]``, ``[@click=app.quit]``, ``[link=...]``) is shown as it is written, never read as
styles, actions or links, and control characters reach no terminal raw: ESC, C1 controls, bidi
overrides and newlines are shown escaped (``engine/printable.py``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_player_campaigns import duel_dict

from cardrogue.editor.player.app import PlayerApp
from cardrogue.editor.player.screens import EndScreen, PlayerScreen
from cardrogue.engine.format.loader import load_usable
from cardrogue.engine.printable import printable
from helpers import recorded, run_async, screen_text

SIZE = (120, 40)
CLICK = "[@click=app.quit]quit[/]"
LINK = "[link=https://example.invalid]here[/link]"
CLOSE = "Helm [/]"
ESC = "\x1b]52;c;aGk=\x07\x1b[2J\u009b2J\u202eevil"
WIN_KEYS = ("right", "a", "right", "full_stop", "right", "right")


def hostile_duel() -> dict:
    """The duel campaign with markup and control characters in every string an author writes."""
    doc = duel_dict(title=f"Bad [/] {CLICK} {ESC}")
    level = doc["levels"][0]
    level["title"] = f"The [/] Hall {LINK} {ESC}"
    level["story"] = f"# {CLICK}\n\nA story with [/] and {LINK} and {ESC}."
    level["cells"][0]["inscription"] = f"Carved: {CLICK} {ESC}"
    level["cells"][2]["inscription"] = f"Out {CLOSE}"
    doc["story"] = f"Intro [/] {ESC}"
    doc["cards"]["goblin"].update(name=f"Gob {CLOSE}", text=f"text {CLICK}")
    doc["cards"]["red-potion"] = {"name": f"Red {LINK}"}
    return doc


def assert_no_raw_controls(text: str) -> None:
    assert printable(text, lines=True) == text, [ch for ch in text if printable(ch, lines=True) != ch]


@run_async
async def test_player_shows_hostile_titles_names_and_inscriptions_as_text(tmp_path):
    campaign_path = tmp_path / "bad.json"
    campaign_path.write_text(json.dumps(hostile_duel()))
    campaign = load_usable(campaign_path)
    app = PlayerApp(campaign, replays_dir=tmp_path / "replays", scores_db=tmp_path / "scores.db",
                    player=f"x[/] {CLICK} {ESC}")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        shown = screen_text(app)
        assert "[@click=app.quit]" in shown and "[/]" in shown
        assert_no_raw_controls(shown)
        await pilot.press("enter")
        await pilot.press("right")
        await pilot.pause()
        shown = screen_text(app)
        assert "The [/] Hall [link=https://example.invalid]" in shown
        assert "Gob Helm [/]" in shown
        assert "\\x1b]52" in shown
        assert_no_raw_controls(shown)
        await pilot.press(*WIN_KEYS[1:])
        await recorded(pilot)
        assert isinstance(app.screen, EndScreen)
        assert app.screen.result.verified and app.screen.result.added
        shown = screen_text(app)
        assert "x[/] [@click=app.quit]quit[/]" in shown  # the player's name in the table
        assert_no_raw_controls(shown)
        await pilot.press("q")
    assert app.return_value is not None and app.return_value.outcome == "won"


@run_async
async def test_player_starts_and_plays_with_no_color(tmp_path, monkeypatch):
    """NO_COLOR turns on Textual's monochrome filter, which every segment of the board must survive."""
    monkeypatch.setenv("NO_COLOR", "1")
    app = PlayerApp(load_usable(_write(tmp_path, duel_dict())), replays_dir=tmp_path / "r",
                    scores_db=tmp_path / "s.db", player="p")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter", *WIN_KEYS)
        await recorded(pilot)
        assert isinstance(app.screen, EndScreen) and app.screen.result.outcome == "won"
        assert "Victory!" in screen_text(app)


def _write(tmp_path: Path, doc: dict, name: str = "map.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


@run_async
async def test_editor_shows_hostile_titles_and_names_as_text(tmp_path):
    from editor_support import make_app, settle

    path = _write(tmp_path, hostile_duel(), name="bad [b]x[@click=app.quit]q \x1b[2J\u202e.json")
    app = make_app(path, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        shown = screen_text(app)
        assert "Bad [/] [@click=app.quit]quit[/]" in shown or "The [/] Hall" in shown
        assert_no_raw_controls(shown)
        # The map, the cell with the goblin, the story tab, the solver's line, the metadata form.
        for key in ("right", "f3", "f2", "f6", "ctrl+e", "escape", "f4", "escape", "ctrl+s"):
            await pilot.press(key)
            await settle(app, pilot)
            assert_no_raw_controls(screen_text(app))
        assert app.is_running


# --------------------------------------------------------------------------- the command line


def cli(capsys, *args) -> tuple[int, str, str]:
    """``cardrogue ARGS`` in this process: exit status, standard output, standard error."""
    from cardrogue.cli.main import main

    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "internal error" not in err, err
    return status, out, err


def assert_printable_lines(*outputs: str) -> None:
    for output in outputs:
        for line in output.splitlines():
            assert printable(line) == line, line


HOSTILE_PLAYER = f"x[/] {CLICK} {ESC}"


def test_scores_shows_a_hostile_title_and_player_as_text(tmp_path, capsys):
    from test_player_campaigns import WIN, recorded

    campaign_path = _write(tmp_path, hostile_duel())
    db = tmp_path / "scores.db"
    status, out, err = cli(capsys, "scores", campaign_path, "--scores-db", db)  # an empty table
    assert status == 0 and "Bad [/] [@click=app.quit]quit[/]" in out and "no verified scores yet" in out
    assert_printable_lines(out, err)
    replay = tmp_path / f"run {ESC}.replay.json"
    replay.write_text(recorded(load_usable(campaign_path), WIN, player=HOSTILE_PLAYER).text())
    status, out, err = cli(capsys, "scores", campaign_path, "--import", replay, "--scores-db", db)
    assert status == 0 and "added" in out and "\\x1b]52" in out
    assert_printable_lines(out, err)
    status, out, err = cli(capsys, "scores", campaign_path, "--scores-db", db)
    assert status == 0 and "x[/] [@click=app.quit]quit[/]" in out and "\\u202eevil" in out
    assert_printable_lines(out, err)
    status, out, err = cli(capsys, "scores", campaign_path, "--scores-db", db, "--format", "json")
    assert json.loads(out)["scores"][0]["player"] == HOSTILE_PLAYER  # JSON stays exact


def test_verify_run_and_solve_show_hostile_names_as_text(tmp_path, capsys):
    from test_player_campaigns import WIN, recorded

    campaign_path = _write(tmp_path, hostile_duel(), name=f"map {ESC}.json")
    replay = tmp_path / f"run\n: verified.replay.json"
    replay.write_text(recorded(load_usable(campaign_path), WIN, player=HOSTILE_PLAYER).text())
    status, out, err = cli(capsys, "verify", replay, "--campaign", campaign_path)
    assert status == 0 and out.startswith(str(replay).replace("\n", "\\n") + ": verified")
    assert_printable_lines(out, err)
    status, out, err = cli(capsys, "run", campaign_path, *WIN)
    assert status == 0 and "Gob Helm [/]" in out
    assert_printable_lines(out, err)
    status, out, err = cli(capsys, "solve", campaign_path, "--max-seconds", "5")
    assert status == 0 and "Bad [/]" in out
    assert_printable_lines(out, err)
    status, out, err = cli(capsys, "run", tmp_path / f"missing {ESC}.json", "end")
    assert status == 2 and "missing \\x1b]52" in err
    assert_printable_lines(out, err)


def test_a_file_name_with_a_newline_cannot_forge_a_line_of_check(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    doc = hostile_duel()
    del doc["levels"][0]["cells"][2]["exit"]  # a problem, so check names the file in a diagnostic
    forged = _write(Path("."), doc, name="x.json\nok.json:1:1: CR000: all good\n\u202e")
    status, out, err = cli(capsys, "check", forged)
    assert status == 1 and "x.json\\nok.json:1:1: CR000: all good\\n\\u202e" in out
    assert not any(line.lstrip().startswith("ok.json") for line in out.splitlines())
    assert_printable_lines(out, err)
    status, out, _ = cli(capsys, "check", "--format", "json", forged)
    assert json.loads(out)["files"][0]["file"] == str(forged)  # JSON stays exact


@run_async
async def test_editor_notifications_are_plain_text(tmp_path):
    """A notification names files, levels and cards ("Could not save PATH: ..."): it is never read
    as markup, where `[/]` would raise a MarkupError when the toast is drawn."""
    from editor_support import make_app, settle

    app = make_app(_write(tmp_path, duel_dict()), tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.notify(f"Could not save {CLOSE} {CLICK}", title=f"t {CLOSE}")
        await settle(app, pilot)
        assert app.is_running
        shown = [n for n in app._notifications if CLOSE in n.message]
        assert shown and all(n.markup is False for n in shown)


@pytest.mark.parametrize("player, shown", [("אבג", "אבג"), ("\u202eعلي\u2066", "\\u202eعلي\\u2066")],
                         ids=["hebrew", "arabic-with-override-and-isolate"])
@run_async
async def test_a_right_to_left_name_in_the_end_screens_table_keeps_the_turns_after_it(tmp_path, player, shown):
    """`cardrogue scores` closes a right-to-left name by a LEFT-TO-RIGHT MARK (forge25: by the bidi algorithm, N1, the
    name drew the spaces and the turns after it into its run, so a bidi terminal drew the turns before the name). The
    player's end-screen table is the same table: its name is closed by the same mark, and the app's last guard
    (NoRawControls) lets that mark through while a name's own override and isolate stay escaped, none raw."""
    app = PlayerApp(load_usable(_write(tmp_path, duel_dict())), replays_dir=tmp_path / "r",
                    scores_db=tmp_path / "s.db", player=player)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter", *WIN_KEYS)
        await recorded(pilot)
        assert isinstance(app.screen, EndScreen) and app.screen.result.rank == 1
        row = next(line for line in screen_text(app).splitlines() if shown in line)
        assert f"{shown}\u200e " in row, row  # the mark right after the name, before the cell's padding
        assert_no_raw_controls(row.replace("\u200e", ""))
        assert row.count("\u200e") == 1
        await pilot.press("q")
