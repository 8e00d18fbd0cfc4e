"""Small campaigns for the player and score tests, with scripted rolls so every fight is certain.

Also imported by ``test_player.py``, ``test_player_snapshots.py`` and
``test_scores.py``; the tests here pin the scripted runs those tests rely on.
"""

from __future__ import annotations

import json
from pathlib import Path

from cardrogue.engine.format.loader import load_campaign_text
from cardrogue.engine.model.campaign import Campaign
from cardrogue.engine.records.replay import Recorder, verify_replay


def _cell(x: int, y: int, card: str, paths: str, face: str = "down", **extra) -> dict:
    return {"at": [x, y], "card": card, "paths": paths, "face": face, **extra}


def duel_dict(*, goblin_attack: int = 2, rolls=(6,), title: str = "The Duel") -> dict:
    """One level, a row of three: start, a goblin (scripted attack rolls), the exit.

    Won in 2 turns by: flip E, attack, move E, end, flip E, move E.
    """
    cells = [
        _cell(0, 0, "starting-tile", "E", face="up", inscription="Scratched on the wall: strike first."),
        _cell(1, 0, "goblin", "EW", rolls=list(rolls)),
        _cell(2, 0, "pathing-tile", "W", exit=True, inscription="Daylight."),
        _cell(1, 1, "red-potion", "N"),
    ]
    doc = {
        "format": 1, "id": "duel", "title": title, "rules": "1.1.2", "seed": 11,
        "story": "A test of nerve.",
        "hero": {"character": "warrior", "items": ["gold", "gold"], "equipped": []},
        "levels": [{"id": "duel", "title": "The Duel", "width": 3, "height": 2, "cells": cells,
                    "story": "# The Duel\n\nA goblin blocks the **only** way out."}],
        "cards": {"goblin": {"attack": goblin_attack}},
        "potions": {"red": "healing"},
        "par": {"turns": 2},
    }
    return doc


def ladder_dict() -> dict:
    """Two levels: a ladder east of the start, then an exit east of the second start."""
    first = [_cell(0, 0, "starting-tile", "E", face="up"), _cell(1, 0, "descending-ladder", "W", to="below")]
    second = [_cell(0, 0, "starting-tile", "E", face="up"),
              _cell(1, 0, "pathing-tile", "W", exit=True, inscription="The way out.")]
    return {
        "format": 1, "id": "ladder", "title": "Down and Out", "rules": "1.1.2", "seed": 5,
        "hero": {"character": "warrior"},
        "levels": [
            {"id": "above", "title": "Above", "width": 2, "height": 1, "cells": first, "story": "The **first** level."},
            {"id": "below", "title": "Below", "width": 2, "height": 1, "cells": second, "story": "The *second* level."},
        ],
    }


def load(doc: dict) -> Campaign:
    result = load_campaign_text(json.dumps(doc))
    assert result.campaign is not None, [d.render() for d in result.diagnostics]
    return result.campaign


def write(doc: dict, path: Path) -> Path:
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return path


WIN = ("flip E", "attack", "move E", "end", "flip E", "move E")
LOSE = ("flip E", "attack")


def recorded(campaign: Campaign, actions, player: str = "tester", extra_turns: int = 0) -> Recorder:
    """A recorded run; ``extra_turns`` ends the first turn early that many times (a distinct, slower win)."""
    rec = Recorder(campaign, player=player)
    for _ in range(extra_turns):
        rec.play("end")
    for action in actions:
        rec.play(action)
    return rec


def test_duel_is_won_in_two_turns():
    rec = recorded(load(duel_dict()), WIN)
    assert rec.state.outcome == "won" and rec.state.score == (2, 12)
    verdict = verify_replay(rec.text(), rec.campaign)
    assert verdict.ok and verdict.run.ranked


def test_duel_is_lost_to_a_strong_goblin():
    rec = recorded(load(duel_dict(goblin_attack=12, rolls=(1,))), LOSE)
    assert rec.state.outcome == "dead" and rec.state.turn == 1


def test_waiting_first_makes_a_distinct_slower_win():
    campaign = load(duel_dict())
    rec = recorded(campaign, WIN, extra_turns=3)
    assert rec.state.outcome == "won" and rec.state.turn == 5
