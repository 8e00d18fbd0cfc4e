"""A property-based fuzz of every command and both apps (issue 18.9).

Structure-aware mutations of the bundled campaigns and their replays (a value replaced by a
hostile string, a huge or negative number, another type, a deleted or duplicated entry, an action
respelled, the file cut short) and hostile strings (markup, escape sequences, C1 controls, bidi
overrides, other digits) are fed to `check`, `run`, `verify`, `scores --import` and `solve`, and
to the player and the editor. Each must end with exit status 0, 1 or 2, never a traceback or an
"internal error", with every text line free of raw control characters (markup and escapes are
shown, never interpreted), JSON output that parses, and a failure that names its file or action.
A fixed example budget keeps the suite fast; the solver runs under a tiny budget.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardrogue.cli.main import main
from cardrogue.engine.printable import printable
from helpers import screen_text

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = sorted(p for p in (ROOT / "campaigns").glob("*.json") if not p.name.endswith(".replay.json"))
SMALL = [p for p in BUNDLED if p.stat().st_size < 60_000] or BUNDLED[:2]

HOSTILE = [
    "[/]", "Bad [/] title", "[@click=app.quit]quit[/]", "[link=https://example.invalid]here[/link]", "[b]bold",
    "\x1b]52;c;aGk=\x07", "\x1b[2J\x1b[H", "\u009b2J", "\u202eevil", "line\nCR000: all good", "tab\there",
    "nul\x00", "\ud800", "", " ", "x" * 300, "ÿ" * 50, "💥", "\\", '"', "{}", "move  E", "move\tE", "MOVE E",
    "teleport \u0663,\u0660", "teleport \uff13,\uff10", "teleport \u00b2,0", "teleport " + "9" * 5000 + ",0",
    "flip E\n", "attack [/]", "ROLLING A 1-6: ATTACK AGAIN", "PARALYZE FOR 99999999999999999999 TURNS",
]
NUMBERS = [0, -1, 1, 6, 7, 255, 256, 65536, 2**63, 2**64, -(2**64), 10**30, 1.5, 1e308, True, False]
FUZZ = settings(max_examples=40, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def paths(value, prefix=()):
    """Every place in a JSON document, as a tuple of keys and indexes."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, prefix + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from paths(item, prefix + (i,))


VALUES = (st.sampled_from(HOSTILE) | st.sampled_from(NUMBERS) | st.none() | st.just([]) | st.just({})
          | st.text(max_size=12) | st.lists(st.sampled_from(HOSTILE), max_size=3))


@st.composite
def mutated(draw, doc: dict) -> dict:
    """``doc`` with one to three places changed: replaced, deleted or duplicated."""
    doc = copy.deepcopy(doc)
    places = [p for p in paths(doc) if p]
    for _ in range(draw(st.integers(1, 3))):
        place = draw(st.sampled_from(places))
        node = doc
        try:
            for part in place[:-1]:
                node = node[part]
            key = place[-1]
            op = draw(st.sampled_from(["replace", "replace", "delete", "duplicate"]))
            if op == "replace":
                node[key] = draw(VALUES)
            elif op == "delete":
                del node[key]
            elif isinstance(node, list):
                node.insert(key, copy.deepcopy(node[key]))
            else:
                node[key] = [node[key], node[key]]
        except (KeyError, IndexError, TypeError):
            continue
    return doc


@st.composite
def hostile_campaign(draw) -> tuple[str, str, list[str]]:
    """(the file's text, its name, actions to play): a bundled campaign, mutated."""
    source = draw(st.sampled_from(SMALL))
    doc = json.loads(source.read_text(encoding="utf-8"))
    text = json.dumps(draw(mutated(doc)))
    if draw(st.integers(0, 9)) == 0:
        text = text[: draw(st.integers(0, len(text)))]  # cut short
    replay = source.with_name(source.stem + ".replay.json")
    actions = json.loads(replay.read_text(encoding="utf-8"))["actions"][:6] if replay.exists() else ["end"]
    name = draw(st.sampled_from(["map.json", "map [b]x[@click=app.quit] \x1b[2J.json", "map\n: CR000: all good.json", "\u202emap.json"]))
    return text, name, actions


@st.composite
def hostile_replay(draw) -> tuple[str, Path]:
    """(the replay's text, its campaign): a bundled replay, mutated or with respelled actions."""
    source = draw(st.sampled_from(SMALL))
    replay = source.with_name(source.stem + ".replay.json")
    doc = json.loads(replay.read_text(encoding="utf-8"))
    if draw(st.booleans()) and doc["actions"]:
        i = draw(st.integers(0, len(doc["actions"]) - 1))
        doc["actions"][i] = draw(st.sampled_from(HOSTILE) | st.just(doc["actions"][i].replace(" ", "  ")))
    else:
        doc = draw(mutated(doc))
    text = json.dumps(doc)
    if draw(st.integers(0, 9)) == 0:
        text = text[: draw(st.integers(0, len(text)))]
    return text, source


def cardrogue(*args) -> tuple[int, str, str]:
    """``cardrogue ARGS`` in this process: exit status, standard output, standard error."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main([str(a) for a in args])
    return status, out.getvalue(), err.getvalue()


def held(status: int, out: str, err: str, *, names: tuple[str, ...] = (), json_out: bool = False) -> None:
    """What every command promises, on any input."""
    assert status in (0, 1, 2), (status, out, err)
    assert "Traceback" not in out + err and "internal error" not in out + err, out + err
    lines = err.splitlines() + ([] if json_out else out.splitlines())
    assert all(printable(line) == line for line in lines), [line for line in lines if printable(line) != line]
    if json_out and out:
        json.loads(out)
    if status != 0 and names:
        assert any(printable(name) in out + err for name in names), (names, out, err)


@contextlib.contextmanager
def folder():
    where = Path(tempfile.mkdtemp(prefix="cardrogue-fuzz-"))
    try:
        yield where
    finally:
        shutil.rmtree(where, ignore_errors=True)


@FUZZ
@given(hostile_campaign())
def test_hostile_campaigns_never_break_a_command(case):
    text, name, actions = case
    with folder() as where:
        path = where / name
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        held(*cardrogue("check", path), names=(str(path),))
        held(*cardrogue("check", "--format", "json", path), json_out=True)
        held(*cardrogue("run", path, *actions), names=(str(path), "action "))
        held(*cardrogue("run", "--format", "json", path, *actions), json_out=True)
        held(*cardrogue("solve", path, "--max-seconds", "1", "--max-states", "300"), names=(str(path), "unknown", "unsolvable"))
        replay = next((p.with_name(p.stem + ".replay.json") for p in SMALL), None)
        if replay is not None and replay.exists():
            held(*cardrogue("verify", replay, "--campaign", path), names=(str(replay), str(path)))


@settings(FUZZ, max_examples=30)
@given(hostile_replay())
def test_hostile_replays_never_break_verify_or_scores(case):
    text, campaign = case
    with folder() as where:
        replay = where / "shared [b] \x1b]52;c;aGk=\x07.replay.json"
        replay.write_text(text, encoding="utf-8", errors="surrogatepass")
        held(*cardrogue("verify", replay), names=(str(replay),))
        held(*cardrogue("verify", replay, "--campaign", campaign), names=(str(replay),))
        good = campaign.with_name(campaign.stem + ".replay.json")
        status, out, err = cardrogue("scores", campaign, "--scores-db", where / "s.db", "--import", replay, good)
        held(status, out, err, names=(str(replay),))
        assert printable(str(good)) + ":" in out  # one bad replay never stops the ones after it
        held(*cardrogue("scores", campaign, "--scores-db", where / "s.db"))
        held(*cardrogue("scores", campaign, "--scores-db", where / "s.db", "--format", "json"), json_out=True)


# --------------------------------------------------------------------------- both apps


STRINGS = st.lists(st.sampled_from(HOSTILE[:12]) | st.text(max_size=8), min_size=4, max_size=4)


def _hostile_duel(strings: list[str]) -> dict:
    from test_player_campaigns import duel_dict

    doc = duel_dict(title=("T " + strings[0])[:120])
    doc["levels"][0]["title"] = ("L " + strings[1])[:120]
    doc["levels"][0]["cells"][0]["inscription"] = strings[2][:2000]
    doc["cards"]["goblin"]["name"] = ("G " + strings[3])[:64]
    return doc


APPS = settings(FUZZ, max_examples=3)  # an app's run is slow: a few examples, each a new mix


@APPS
@given(STRINGS)
def test_hostile_strings_never_break_the_player(strings):
    import asyncio

    from cardrogue.editor.player.app import PlayerApp
    from cardrogue.engine.format.loader import load_campaign_text

    campaign = load_campaign_text(json.dumps(_hostile_duel(strings)), "duel.json").campaign
    if campaign is None:
        return  # a string the format refuses (check reports it; the fuzz above covers that)

    async def play() -> None:
        with folder() as where:
            app = PlayerApp(campaign, replays_dir=where / "replays", scores_db=where / "s.db", player=strings[0][:80])
            async with app.run_test(size=(100, 34)) as pilot:
                for key in ("enter", "right", "a", "right"):
                    await pilot.press(key)
                    await pilot.pause()
                    shown = screen_text(app)
                    assert printable(shown, lines=True) == shown
                assert app.is_running

    asyncio.run(play())


@settings(APPS, max_examples=2)
@given(STRINGS)
def test_hostile_strings_never_break_the_editor(strings):
    import asyncio

    from editor_support import make_app, settle

    async def edit() -> None:
        with folder() as where:
            path = where / "duel.json"
            path.write_text(json.dumps(_hostile_duel(strings)), encoding="utf-8", errors="surrogatepass")
            app = make_app(path, where)
            async with app.run_test(size=(100, 34)) as pilot:
                for key in ("right", "f3", "f2", "escape"):
                    await pilot.press(key)
                    await settle(app, pilot)
                    shown = screen_text(app)
                    assert printable(shown, lines=True) == shown
                assert app.is_running

    asyncio.run(edit())
