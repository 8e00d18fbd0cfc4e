"""Snapshots of the player at a fixed terminal size (update with `pytest --snapshot-update` after a deliberate change)."""

from __future__ import annotations

from helpers import recorded
from test_player_campaigns import duel_dict, load

from cardrogue.editor.player.app import PlayerApp
from cardrogue.editor.player.screens import PlayerScreen

WIN_KEYS = ("right", "a", "right", "full_stop", "right", "right")


def app(tmp_path, **kw) -> PlayerApp:
    """No replay folder: the end screen then names no temporary path, so it is the same on every machine."""
    return PlayerApp(load(duel_dict(**kw)), replays_dir=None, scores_db=tmp_path / "scores.db", player="tester")


def test_story_preface(snap_compare, tmp_path):
    assert snap_compare(app(tmp_path), terminal_size=(80, 24))


def test_play_screen_in_combat_80x24(snap_compare, tmp_path):
    assert snap_compare(app(tmp_path, rolls=(2,)), press=["enter", "right"], terminal_size=(80, 24))


def test_play_screen_after_the_fight_80x24(snap_compare, tmp_path):
    """A small terminal: the move to the exit wraps in the action list, nothing of it cut."""
    assert snap_compare(app(tmp_path), press=["enter", "right", "a"], terminal_size=(80, 24))


def test_play_screen_after_the_fight_120x40(snap_compare, tmp_path):
    assert snap_compare(app(tmp_path), press=["enter", "right", "a", "right"], terminal_size=(120, 40))


def test_play_screen_in_combat_200x50(snap_compare, tmp_path):
    """A big terminal: large cards with full names, a wider hero panel, every key on one line."""
    assert snap_compare(app(tmp_path, rolls=(2,)), press=["enter", "right"], terminal_size=(200, 50))


def ended_by(*keys: str):
    """Press ``keys``, which end the run, then wait for the end screen to show it recorded (a worker thread)."""

    async def run_before(pilot) -> None:
        await pilot.press(*keys)
        await recorded(pilot)

    return run_before


def test_victory_screen(snap_compare, tmp_path):
    assert snap_compare(app(tmp_path), run_before=ended_by("enter", *WIN_KEYS), terminal_size=(80, 24))


def test_defeat_screen(snap_compare, tmp_path):
    assert snap_compare(app(tmp_path, goblin_attack=12, rolls=(1,)), run_before=ended_by("enter", "right", "a"),
                        terminal_size=(80, 24))


def test_a_hint_sits_above_the_key_bar_80x24(snap_compare, tmp_path, monkeypatch):
    """An arrow toward no enemy in combat: the hint says why, above the two lines of keys, not over them."""
    monkeypatch.setattr(PlayerScreen, "HINT_SECONDS", 600.0)  # still there however slow the machine
    assert snap_compare(app(tmp_path, rolls=(2,)), press=["enter", "right", "left"], terminal_size=(80, 24))
