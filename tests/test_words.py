"""Counts in words: "1 turn", never "1 turns" or "1 turn(s)", from one helper (engine/words.py)
that every command, hub page and screen uses; and the "did you mean" of a message (``nearest``)."""

from __future__ import annotations

import difflib
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cardrogue.engine.words import counted, level_span, nearest, plural

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "cardrogue.cli.main"]
# A count printed with a plural that does not follow it: "{n} turns", "{n} error(s)".
NOUNS = "turn|state|level|run|action|error|warning|note|file|card|checkpoint|map|item|argument"
FIXED_PLURAL = re.compile(rf"\}}\s+({NOUNS}|entrie)s\b|\b({NOUNS})\(s\)")


def test_counted_says_one_and_many():
    assert [counted(n, "turn") for n in (0, 1, 2)] == ["0 turns", "1 turn", "2 turns"]
    assert counted(12_500, "state") == "12,500 states"
    assert counted(1, "entry", "entries") == "1 entry" and counted(3, "entry", "entries") == "3 entries"
    assert plural(1, "turn") == "turn" and plural(7, "turn") == "turns"
    assert counted("?", "turn") == "? turns"  # a hub's answer may hold anything


def test_the_levels_a_campaign_has_are_said_as_a_span_or_one_level():
    """walk 27: `cardrogue play MAP --level 2` on a challenge map of one level said "the campaign has levels 1 to 1"."""
    assert [level_span(n) for n in (1, 2, 8)] == ["only level 1", "levels 1 to 2", "levels 1 to 8"]


def test_no_count_is_printed_with_a_fixed_plural():
    """The solver's own messages are its owners' (and count thousands of states)."""
    found = []
    for folder in ("cli", "editor", "hub", "engine"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "analysis/solver" in path.as_posix():
                continue
            for n, line in enumerate(path.read_text().splitlines(), 1):
                if FIXED_PLURAL.search(line) and not line.lstrip().startswith("#"):
                    found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not found, "\n".join(found)


def _cell(x, y, card, paths, **extra):
    return {"at": [x, y], "card": card, "paths": paths, "face": "up", **extra}


def _cardrogue(*args: str) -> subprocess.CompletedProcess:
    done = subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stderr + done.stdout
    return done


def test_verify_of_a_one_turn_run_says_one_turn(tmp_path: Path):
    doc = {"format": 1, "id": "step", "title": "Step", "rules": "1.1.2", "seed": 3, "hero": {"character": "warrior"},
           "levels": [{"id": "only", "width": 2, "height": 1,
                       "cells": [_cell(0, 0, "starting-tile", "E"), _cell(1, 0, "pathing-tile", "W", exit=True)]}]}
    campaign, replay = tmp_path / "step.json", tmp_path / "step.replay.json"
    campaign.write_text(json.dumps(doc))
    assert _cardrogue("solve", str(campaign), "-o", str(replay)).returncode == 0
    done = _cardrogue("verify", str(replay))
    assert done.returncode == 0 and "verified: won in 1 turn with 12 health\n" in done.stdout, done.stdout
    claimed = json.loads(replay.read_text())
    claimed["result"]["turns"] = 2  # a replay claiming more than it re-simulates to
    replay.write_text(json.dumps(claimed))
    done = _cardrogue("verify", str(replay))
    assert done.returncode == 1 and "claims won in 2 turns with 12 health, but re-simulates to won in 1 turn with" in done.stdout, done.stdout


def test_a_did_you_mean_is_difflibs_own_choice():
    """The quick bounds `nearest` takes before difflib never drop difflib's answer."""
    known = ["$schema", "allow_ladder_cycles", "author", "cards", "description", "format", "hero", "id", "kind",
             "levels", "par", "potions", "rules", "seed", "story", "title", "", "a", "zz"]
    rng = random.Random(14)
    for _ in range(20_000):
        word = "".join(rng.choice("abcdeilorstyz_$1") for _ in range(rng.randint(0, 14)))
        options = rng.sample(known, rng.randint(0, len(known)))
        cutoff = rng.choice([0.0, 0.3, 0.6, 0.75, 1.0])
        expected = difflib.get_close_matches(word, options, n=1, cutoff=cutoff)
        assert nearest(word, options, cutoff) == (expected[0] if expected else None), (word, options, cutoff)


@pytest.mark.parametrize("cutoff", [1.5, -0.1, float("nan")])
def test_a_cutoff_out_of_range_is_refused_as_difflib_refuses_it(cutoff):
    import difflib

    from cardrogue.engine.words import nearest

    with pytest.raises(ValueError):
        difflib.get_close_matches("abc", ["abc"], n=1, cutoff=cutoff)
    with pytest.raises(ValueError):
        nearest("abc", ["abc"], cutoff)
