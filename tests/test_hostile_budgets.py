"""Budgets that are kept (issue 18.4): no command waits on a FIFO or a device, and a huge replay
is refused by its length before anything visits its items."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_player_campaigns import WIN, duel_dict, load, recorded, write

from cardrogue.engine.format.resources import schema_path
from cardrogue.engine.records import replay as replay_module
from cardrogue.engine.records.replay import ReplayError, parse_replay, verify_replay

CLI = [sys.executable, "-m", "cardrogue.cli.main"]


@pytest.fixture
def duel(tmp_path: Path) -> Path:
    return write(duel_dict(), tmp_path / "duel.json")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("command", [
    ["check", "{fifo}"],
    ["verify", "{fifo}"],
    ["verify", "{fifo}", "--campaign", "{duel}"],
    ["solve", "{fifo}"],
    ["run", "{fifo}", "move E"],
    ["scores", "{duel}", "--scores-db", "{db}", "--import", "{fifo}"],
], ids=["check", "verify", "verify-campaign", "solve", "run", "scores-import"])
def test_a_fifo_with_no_writer_is_refused_at_once(tmp_path, duel, command):
    """`check` or `verify` on a FIFO with no writer used to block for ever: now every command
    refuses it, naming the file, without waiting (a hang fails the test by its timeout)."""
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    args = [part.format(fifo=fifo, duel=duel, db=tmp_path / "s.db") for part in command]
    done = subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "FIFO" in done.stdout + done.stderr and str(fifo) in done.stdout + done.stderr
    assert "Traceback" not in done.stderr


def test_a_device_is_refused_not_read_for_ever(tmp_path):
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero")
    done = subprocess.run([*CLI, "verify", "/dev/zero"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "device" in done.stderr


def test_a_million_actions_are_refused_by_their_count(duel):
    """`verify` of a replay with 10^6 actions took 17 s (the schema visited every item before the
    length limit) and quoted the whole list; now the count is checked first, in a short message."""
    doc = json.loads(recorded(load(duel_dict()), WIN).text())
    doc["actions"] = ["move E"] * 1_000_000
    with pytest.raises(ReplayError) as caught:
        parse_replay(json.dumps(doc))
    assert str(caught.value) == "not a valid replay: $.actions: 1,000,000 items; the limit is 200,000"
    doc["actions"], doc["checkpoints"] = ["move E"], ["0" * 16] * 300_000
    assert "$.checkpoints: 300,000 items" in verify_replay(json.dumps(doc), load(duel_dict())).message


@pytest.mark.parametrize("field, value, expected", [
    ("actions", ["move E", 7], "$.actions[1]: not a text of at most 80 characters"),
    ("actions", ["x" * 81], "$.actions[0]: not a text of at most 80 characters"),
    ("checkpoints", ["XYZ"], "$.checkpoints[0]: not 16 hexadecimal digits"),
    ("checkpoints", ["0123456789abcdef\n"], "$.checkpoints[0]: not 16 hexadecimal digits"),
])
def test_each_item_of_the_long_lists_is_still_checked(field, value, expected):
    doc = json.loads(recorded(load(duel_dict()), WIN).text())
    doc[field] = value
    with pytest.raises(ReplayError) as caught:
        parse_replay(json.dumps(doc))
    assert str(caught.value) == f"not a valid replay: {expected}"


def test_the_fast_checks_say_what_the_schema_says():
    """The limits checked before the schema are the schema's own."""
    schema = json.loads(schema_path("replay.schema.json").read_text(encoding="utf-8"))["properties"]
    assert schema["actions"]["maxItems"] == schema["checkpoints"]["maxItems"] == replay_module.MAX_LIST_ITEMS
    assert schema["actions"]["items"]["maxLength"] == replay_module.MAX_ACTION_CHARS


def test_a_long_schema_message_is_cut(duel):
    doc = json.loads(recorded(load(duel_dict()), WIN).text())
    doc["result"]["outcome"] = "y" * 5000  # the schema's message quotes the value
    with pytest.raises(ReplayError) as caught:
        parse_replay(json.dumps(doc))
    assert len(str(caught.value)) < 300
