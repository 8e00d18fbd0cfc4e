"""Budgets that are kept (issue 18.4): no command waits on a FIFO or a device, and a huge replay
is refused by its length before anything visits its items."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import tracemalloc
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


# --------------------------------------------------------------------------- the solver's clock


def _spin(*args, **kwargs):
    """A phase that never looks at the clock (as building a huge level's tables once did)."""
    while True:
        sum(range(1000))


def test_a_phase_that_never_looks_at_the_clock_is_stopped_at_the_deadline():
    from cardrogue.engine.analysis.solver.budget import Budget, OutOfTime, enforced

    deadline = Budget(max_seconds=0.2).start()
    with pytest.raises(OutOfTime):
        with enforced(deadline):
            _spin()
    assert deadline.expired()


def test_a_stop_set_ends_a_deadline_and_the_deadlines_cut_from_it():
    """The editor's F9 pressed again stops the proof of a par: a deadline started with a stop event expires
    once it is set, as do the ones each phase cuts from it (the dive's, the health tiebreak's)."""
    import threading

    from cardrogue.engine.analysis.solver.budget import Budget

    stop = threading.Event()
    deadline = Budget(max_seconds=3600).start(stop)
    cut = [deadline.short_of(1.0), deadline.within(60.0), deadline.within(None)]
    assert not deadline.expired() and not any(d.expired() for d in cut) and deadline.left() > 0
    stop.set()
    assert deadline.expired() and all(d.expired() for d in cut) and deadline.left() == 0.0


def test_a_solve_stopped_ends_unknown(monkeypatch):
    """A solve whose stop is set at its first progress report ends there (unknown, out of time), long before its
    budget of an hour: nothing else would stop it."""
    import threading

    from cardrogue.engine.analysis.solver import UNKNOWN, Budget, solve_campaign

    stop = threading.Event()
    campaign = load(json.loads(_gen().mixed_campaign_text(1, 9, 1, "all")))
    budget = Budget(max_states=10**9, max_seconds=3600)
    result = solve_campaign(campaign, budget, per_level=False, progress=lambda p: stop.set(),
                            deadline=budget.start(stop))
    assert stop.is_set() and result.verdict == UNKNOWN and result.stopped_by == "time", result


def _gen():
    sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
    import gen

    return gen


def test_the_search_set_up_counts_against_the_budget(monkeypatch):
    """`solve --max-seconds 2` on one open 256x256 level took 10 s: setting the search up had no
    budget. Now a set-up that overruns ends in `unknown`, saying so."""
    from cardrogue.engine.analysis.solver import UNKNOWN, Budget, par, solve_campaign

    monkeypatch.setattr(par, "static_proof", _spin)
    result = solve_campaign(load(duel_dict()), Budget(max_seconds=0.3))
    assert result.verdict == UNKNOWN and result.stopped_by == "time"
    assert "ran out while the search was being set up" in result.reason


def test_solve_counts_reading_the_campaign_against_its_budget(monkeypatch, duel, capsys):
    from cardrogue.cli import solve as solve_cli
    from cardrogue.cli.main import main

    monkeypatch.setattr(solve_cli, "load_usable", _spin)
    assert main(["solve", str(duel), "--max-seconds", "0.3"]) == 1
    out, err = capsys.readouterr()
    assert "unknown: the time budget (0.3 s) ran out while the campaign was being read and checked" in out
    assert err == ""
    # --format json: the report is JSON (it was the text line, on the standard output a tool parses)
    assert main(["solve", str(duel), "--max-seconds", "0.3", "--format", "json"]) == 1
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert (report["verdict"], report["stopped_by"], report["turns"], report["level_pars"]) == ("unknown", "time",
                                                                                               None, [])
    assert report["reason"].startswith("the time budget (0.3 s) ran out while the campaign was being read")
    assert err == ""
    assert main(["solve", str(duel), "--max-seconds", "0.3", "--format", "json", "--random", "9"]) == 1
    report = json.loads(capsys.readouterr()[0])  # the runs' report, with none played
    assert (report["runs"], report["runs_asked"], report["stopped_by"]) == (0, 9, "time")


def test_random_runs_keep_the_time_budget_and_draw_seeds_as_they_go():
    """`solve --random N` with N up to 10^9 once drew every seed first; now runs start only while
    time is left, and the report covers the runs played."""
    from cardrogue.engine.analysis.montecarlo import solve_random

    report = solve_random(load(duel_dict()), 10**9, workers=1, seed=1, max_seconds=0.3)
    assert 0 < report.runs < 10**9 and len(report.seeds) == report.runs
    assert solve_random(load(duel_dict()), 5, workers=1, seed=1) == solve_random(load(duel_dict()), 5, workers=1, seed=1,
                                                                              max_seconds=600)


def test_run_refuses_more_actions_than_a_replay_holds(tmp_path, duel, capsys):
    from cardrogue.cli.main import main

    actions = tmp_path / "actions.txt"
    actions.write_text("end\n" * (replay_module.MAX_LIST_ITEMS + 1))
    assert main(["run", str(duel), "--actions-file", str(actions)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and f"{actions}: 200,001 actions; at most 200,000" in err


@pytest.mark.parametrize("field", ["actions", "checkpoints"])
@pytest.mark.parametrize("value", [0, "move E", None, {"a": 1}])
def test_a_long_list_of_another_type_is_refused_by_the_schema(field, value):
    """Found by the fuzz test: `"actions": 0` passed the schema once the lists were checked first."""
    doc = json.loads(recorded(load(duel_dict()), WIN).text())
    doc[field] = value
    with pytest.raises(ReplayError) as caught:
        parse_replay(json.dumps(doc))
    assert str(caught.value).startswith(f"not a valid replay: $.{field}: ")


def _open_map(n: int, cards: list[str]) -> str:
    """A campaign of one n x n level, every tile open on every side, the cells' cards taken in turn from ``cards``."""
    sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
    import gen

    data = json.loads((Path(__file__).parent / "corpus" / "valid" / "tiny.json").read_text(encoding="utf-8"))
    cells = gen.open_cells(n, lambda x, y: cards[(x + y * n) % len(cards)])
    data["levels"] = [{"id": "open", "title": "Open", "width": n, "height": n, "cells": cells}]
    data.pop("par", None)
    return json.dumps(data)


def _work(fn) -> tuple[int, int]:
    """What ``fn`` does in the engine's own code, counted, not timed (the same on a busy machine as on an idle one):
    the lines of the engine it runs, and the bytes it allocates in blocks of more than 4 KiB in them (at each line
    run, the growth of the traced memory's peak over the line, tracemalloc, counted when it is over 4 KiB). A loop of
    Python over the cells of one card shows in the lines; a tuple made one item longer at each step of a loop
    allocates a block the length of the tuple at each step, quadratic in the steps, and shows in the bytes (a list
    grows in place: only its rare doublings count). A scan in C that allocates nothing (``x in a_list``) shows in
    neither: ``benchmarks/bench_greedy_look.py`` times the look on a 256x256 map."""
    import cardrogue.engine

    engine = str(Path(cardrogue.engine.__file__).parent)
    lines = allocated = before = 0

    def call(frame, event, arg):
        return line if frame.f_code.co_filename.startswith(engine) else None

    def line(frame, event, arg):
        nonlocal lines, allocated, before
        if event == "line":
            lines += 1
            grown = tracemalloc.get_traced_memory()[1] - before
            allocated += grown if grown > 4096 else 0
            tracemalloc.reset_peak()
            before = tracemalloc.get_traced_memory()[0]
        return line

    tracer = sys.gettrace()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    sys.settrace(call)
    try:
        fn()
    finally:
        sys.settrace(tracer)
        tracemalloc.stop()
    return lines, allocated


def test_the_greedy_policys_first_look_at_a_level_of_one_card_does_the_work_of_a_level_of_many():
    """`solve --max-seconds 8` of an open 256x256 map took 25 s, 13 s of them in the greedy policy's first look
    at the level (its playouts' and `solve --random`'s): the places of each card were gathered in a tuple made
    one cell longer each time, quadratic in the cells of one card. A level of one card now costs what a level
    of a dozen does: counted in the engine's lines run and big blocks allocated (:func:`_work`), on 32x32 maps."""
    from cardrogue.engine.analysis import montecarlo
    from cardrogue.engine.format.loader import load_campaign_text
    from cardrogue.engine.rules.state import GameState

    items = ["dagger", "sword", "shield", "helm", "boots", "maul", "battle-axe", "chestplate", "gold",
             "amulet-of-vigor", "ring-of-might", "scroll-of-identify"]
    work = []
    for cards in (["pathing-tile"], items):
        result = load_campaign_text(_open_map(32, cards))
        assert result.ok, result.errors[:3]
        view = GameState.new(result.campaign, 0).view()
        work.append(_work(lambda: montecarlo.GreedyPolicy(result.campaign).choose(view)))
    (one_lines, one_bytes), (many_lines, many_bytes) = work
    # The quadratic gathering (cfb15a6^) allocated 3.5 MB in big blocks for one card against 0.34 MB for twelve;
    # the lists, 0.35 MB against 0.34 MB.
    assert one_lines < 2 * many_lines and one_bytes < 2 * many_bytes, work


def test_the_look_for_a_run_counts_against_the_budget(monkeypatch):
    """`solve --max-seconds 10` of an open 256x256 map ran 15 s: once the search stops with no finish, the look
    for a run (``find_run``: playouts, a dive) began with the greedy policy's first look at the level, seconds on
    a map this big, which never asks the clock. The look is held to the deadline from outside now, as the
    search's set-up is: past it, the verdict is said without a run."""
    from cardrogue.engine.analysis.solver import UNKNOWN, Budget, par, solve_campaign

    def slow(*args, **kwargs):  # a look that never asks the clock, for 5 s
        started = time.perf_counter()
        while time.perf_counter() - started < 5:
            sum(range(1000))

    monkeypatch.setattr(par, "find_run", slow)
    started = time.perf_counter()
    result = solve_campaign(load(duel_dict()), Budget(max_states=1, max_seconds=0.5))
    assert time.perf_counter() - started < 2.5
    assert result.verdict == UNKNOWN and result.found is None and "no finish found" in result.reason, result.reason
