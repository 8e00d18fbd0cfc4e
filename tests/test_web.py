"""`cardrogue web` (issue 16): the player and the editor served to a real headless Chromium.

The server is the real command in a subprocess; the browser is Debian's Chromium (installed by
``scripts/system-deps``) driven by ``tests/browser.py``. Screenshots are saved under each test's
tmp dir; the terminal's text is read back from the page.
"""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
from ports import free_port
from browser import Browser
from polling import Pauses

from cardrogue.editor.player.widgets import describe, in_filter
from cardrogue.engine.chance.resolvers import FatedResolver
from cardrogue.engine.format.loader import load_usable
from cardrogue.engine.rules.actions import Action
from cardrogue.engine.rules.state import GameState
from cardrogue.engine.records.replay import verify_replay
from cardrogue.engine.records.scores import ScoreStore

ROOT = Path(__file__).resolve().parents[1]
NEEDLE = ROOT / "campaigns" / "the-needle-run.json"
WAIT = 60.0


def _get(url: str, headers: dict | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8")


@contextmanager
def web_server(tmp_path: Path, *args: str, port: int | None = None):
    """``cardrogue web ARGS --port P`` running; yields (base url, process); stopped with SIGTERM."""
    port = port or free_port()
    log = (tmp_path / "server.log").open("w")
    process = subprocess.Popen([sys.executable, "-m", "cardrogue", "web", *args, "--port", str(port)],
                               stdout=log, stderr=subprocess.STDOUT, cwd=tmp_path)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline, pause = time.monotonic() + WAIT, Pauses()
        while True:
            try:
                if _get(url + "/")[0] == 200:
                    break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError("the server did not start:\n" + (tmp_path / "server.log").read_text())
            pause()
        yield url, process
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(WAIT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def session_processes(server: subprocess.Popen) -> list[int]:
    """The pids of the sessions the server runs (its `cardrogue play|edit` descendants)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if b"cardrogue" in cmdline and (b"play" in cmdline or b"edit" in cmdline) and parent != 1:
            if _descends_from(int(entry.name), server.pid):
                found.append(int(entry.name))
    return found


def _descends_from(pid: int, ancestor: int) -> bool:
    for _ in range(10):
        try:
            pid = int((Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except OSError:
            return False
        if pid == ancestor:
            return True
        if pid <= 1:
            return False
    return False


def wait_until(predicate, what: str):
    deadline, pause = time.monotonic() + WAIT, Pauses()
    while time.monotonic() < deadline:
        if predicate():
            return
        pause()
    raise AssertionError(f"waited {WAIT:.0f} s for {what}")


@pytest.fixture
def browser(tmp_path: Path):
    with Browser(tmp_path / "browser") as b:
        yield b


# --------------------------------------------------------------------------- playing by key presses

_ARROWS = {"N": "up", "S": "down", "E": "right", "W": "left"}
_FILTER = {"read": ("u", "use"), "drink": ("u", "use"), "throw": ("u", "use"), "spell": ("u", "use"),
           "equip": ("e", "equip"), "unequip": ("e", "equip"), "buy": ("s", "shop"), "sell": ("s", "shop")}


def turn_of(text: str) -> int:
    return int(re.search(r"Turn\s+(\d+)", text).group(1))


def log_lines(text: str) -> list[str]:
    """The log panel's lines (the right-hand box titled Log); none when a screen covers it (the end)."""
    lines = text.splitlines()
    top = next((i for i, line in enumerate(lines) if "─ Log ─" in line), None)
    if top is None:
        return []
    start = lines[top].index("─ Log ─") - 1
    return [line[start + 1:].rstrip(" │▄▃▂▁▅▆▇█") for line in lines[top + 1:] if line[start:start + 1] == "│"]


def actions_panel(text: str) -> str:
    """The action list's lines (the box titled Actions), joined: entries may wrap onto a second row."""
    lines = text.splitlines()
    top = next(i for i, line in enumerate(lines) if "─ Actions" in line)
    start = lines[top].index("─ Actions") - 1
    inside = []
    for line in lines[top + 1:]:
        if line[start:start + 1] != "│":
            break
        inside.append(line[start + 1:].split("│", 1)[0].strip())
    return " ".join(inside)


class Shadow:
    """The same run in the engine, by the same fated dice: which entry of the player's action list
    (filtered as by its key) an action is, and the words the player shows for it."""

    def __init__(self, path: Path) -> None:
        self.campaign = load_usable(path)
        self.state = GameState.new(self.campaign)
        self.resolver = FatedResolver(self.campaign)

    def entry(self, action: str, filter_name: str) -> tuple[int, str]:
        view = self.state.view()
        listed = [a for a in dict.fromkeys(view.legal_actions()) if in_filter(a, filter_name)]
        chosen = Action.parse(action)
        words = describe(chosen, view)
        return listed.index(chosen), words[:1].upper() + words[1:]

    def step(self, action: str) -> None:
        self.state.step(action, self.resolver)


def play_action(page, shadow: Shadow, action: str) -> str:
    """Play one action in its text form by the keys a person presses; the screen after it."""
    before = page.screen_text()
    verb, _, rest = action.partition(" ")
    if verb in ("move", "flip") and rest in _ARROWS:
        page.press(_ARROWS[rest])
    elif action == "end":
        page.press(".")
    elif action == "attack":
        page.press("a")
    else:
        key, filter_name = _FILTER[verb]
        index, words = shadow.entry(action, filter_name)
        page.press(key)
        page.wait_for_text(lambda t: words in actions_panel(t), f"{words!r} in the action list")
        page.press(*["down"] * index, "enter")
    told = len(shadow.state.view().log)
    shadow.step(action)
    said = " ".join(str(shadow.state.view().log[-1]).split()) if len(shadow.state.view().log) > told else ""

    def shown(text: str) -> bool:
        # The log went on with this action's own last sentence, not merely moved: under a loaded suite the
        # rest of the previous action's drawing once passed for this one's, and the test went on a move behind.
        now = log_lines(text)
        if text == before or now == log_lines(before):
            return False
        return not now or said in " ".join(" ".join(new_log_lines(log_lines(before), now)).split())

    return page.wait_for_text(shown, f"the log to go on with {said!r} after {action!r}")


def new_log_lines(before: list[str], now: list[str]) -> list[str]:
    """The log lines ``now`` shows below those ``before`` showed (a full log scrolls up by the lines it gains)."""
    before, now = _unpadded(before), _unpadded(now)
    for shift in range(len(before) + 1):
        kept = before[shift:]
        if now[:len(kept)] == kept:
            return now[len(kept):]
    return now


def _unpadded(lines: list[str]) -> list[str]:
    end = len(lines)
    while end and not lines[end - 1].strip():
        end -= 1
    return lines[:end]


def test_a_browser_plays_a_bundled_level_to_its_end_and_the_score_is_verified(tmp_path: Path, browser) -> None:
    """Issue 16.1-16.3: the page opens, the first key presses change the board, the level is won by
    keys alone, and the run goes through the player's verified path into the local score table."""
    scores, replays = tmp_path / "scores.sqlite3", tmp_path / "replays"
    solution = json.loads((ROOT / "campaigns" / "the-needle-run.replay.json").read_text())["actions"]
    with web_server(tmp_path, str(NEEDLE), "--scores-db", str(scores), "--replays", str(replays), "--player", "web tester") as (url, _):
        page = browser.open(url + "/")
        page.wait_for_text(lambda t: "Enter: begin" in t and "The Gallery" in t, "the level's story, drawn whole")
        page.screenshot(tmp_path / "0-story.png")
        page.focus_terminal()
        page.press("enter")
        start = page.wait_for_text(lambda t: "Enter: begin" not in t and "Turn" in t and "q Quit" in t, "the board")
        page.screenshot(tmp_path / "1-start.png")
        assert "@ Start" in start and turn_of(start) == 1

        screen, shadow = start, Shadow(NEEDLE)
        for action in solution[:3]:  # read the scroll, move S, move E (onto the boots)
            screen = play_action(page, shadow, action)
        page.screenshot(tmp_path / "2-first-moves.png")
        assert screen != start
        assert "@ Start" not in screen and "│ Start │" in screen  # the hero left the start
        assert any(" Hand " in line and "Hasty Boots" in line for line in screen.splitlines())  # picked up
        assert any("Moves E" in line for line in log_lines(screen))

        for action in solution[3:]:
            screen = play_action(page, shadow, action)
        page.wait_for_text(lambda t: "Victory!" in t and "Rank 1 in the high-score table." in t, "the end of the run")
        page.screenshot(tmp_path / "3-victory.png")  # (the score store is read below)

    campaign = load_usable(NEEDLE)
    with ScoreStore(scores) as store:
        (entry,) = store.table(campaign)
    assert (entry.player, entry.turns, entry.health) == ("web tester", 4, 8)
    (replay,) = replays.glob("*.replay.json")
    assert verify_replay(replay.read_text(), campaign).ok
    assert all((tmp_path / f).stat().st_size > 10_000 for f in ("0-story.png", "2-first-moves.png", "3-victory.png"))


def test_in_the_browser_an_inscription_is_not_drawn_in_the_colour_of_a_wound(tmp_path: Path, browser) -> None:
    """Seen in the browser: every inscription in the log (magenta, docs/player.md) was drawn in the very red of
    "loses 2 health", as was a teleport target's outline in that of the enemy fought (Textual's default theme
    draws ANSI magenta as its red). The colours xterm.js draws, read from its buffer, now differ."""
    from test_player_campaigns import duel_dict, write

    duel = write(duel_dict(rolls=(2,)), tmp_path / "duel.json")
    with web_server(tmp_path, str(duel), "--scores-db", str(tmp_path / "s.db"), "--replays", str(tmp_path / "r")) as (url, _):
        page = browser.open(url + "/")
        start_of_play(page)
        page.press("right", "a")  # the goblin: it survives the blow and strikes back for 2
        page.wait_for_text("loses 2 health", "the goblin's blow in the log")
        page.screenshot(tmp_path / "wound-and-inscription.png")
        inscription, wound = page.text_colour("Inscription at"), page.text_colour("loses 2 health")
        assert inscription is not None and wound is not None, (inscription, wound)
        assert inscription != wound, (inscription, wound)


def start_of_play(page) -> str:
    """From the level's story to the board: Enter, then the first turn, drawn whole (its key bar shown, and the
    same text for 0.2 s, the step the polls once had). A board taken half-drawn let a first key read the rest of the
    drawing as its effect: under a loaded suite the test went on with the key lost."""
    page.wait_for_text("Enter: begin", "the level's story")
    page.focus_terminal()
    page.press("enter")
    last = ["", 0.0]  # the text, and since when it is shown

    def settled(text: str) -> bool:
        if text != last[0]:
            last[:] = [text, time.monotonic()]
            return False
        steady = time.monotonic() - last[1] >= 0.2
        return steady and "Enter: begin" not in text and "Turn" in text and "q Quit" in text

    return page.wait_for_text(settled, "the board, drawn whole")


# --------------------------------------------------------------------------- sessions and guards


def test_each_browser_tab_is_its_own_session(tmp_path: Path, browser) -> None:
    """Issue 16.1: two tabs, two processes; a key in one tab leaves the other as it was; closing a tab
    ends its process."""
    # no campaign named: the bundled one, as `cardrogue web` on a fresh clone
    with web_server(tmp_path, "--scores-db", str(tmp_path / "s.sqlite3"), "--replays", str(tmp_path / "r")) as (url, server):
        first, second = browser.open(url + "/"), browser.open(url + "/")
        from cardrogue.engine.format.resources import default_campaign

        first_level = load_usable(default_campaign()).levels[0].title
        first.wait_for_text(lambda t: "Enter: begin" in t and first_level in t, "the first tab's story, drawn whole")
        second.wait_for_text("Enter: begin", "the second tab's story")
        wait_until(lambda: len(session_processes(server)) == 2, "two session processes")
        board = start_of_play(first)
        assert turn_of(board) == 1
        first.press(".")  # end the turn
        moved = first.wait_for_text(lambda t: turn_of(t) == 2, "the first tab's turn 2")
        assert moved != board
        first.screenshot(tmp_path / "first-tab.png")
        assert "Enter: begin" in second.screen_text()  # the second tab is still on its story
        second.screenshot(tmp_path / "second-tab.png")
        first.close()
        wait_until(lambda: len(session_processes(server)) == 1, "the closed tab's process to end")


def test_on_a_real_phone_the_player_is_laid_out_at_the_phones_width(tmp_path: Path, browser) -> None:
    """A phone's browser (DevTools' mobile emulation, 390 x 844) lays out a page without a viewport meta tag at
    980 px and shrinks it to the screen: the player was drawn 108 columns wide with its text about 4 px high,
    where docs/player.md promises the narrow layout of a phone (about 44 columns). The page declares the
    device's width, as the hub's pages do, so the terminal gets the phone's own columns."""
    with web_server(tmp_path, "--scores-db", str(tmp_path / "s.sqlite3"), "--replays", str(tmp_path / "r")) as (url, _):
        page = browser.open("about:blank")
        page.command("Emulation.setDeviceMetricsOverride", width=390, height=844, deviceScaleFactor=3, mobile=True)
        page.navigate(url + "/")
        page.wait_for_text("Enter: begin", "the level's story")
        page.screenshot(tmp_path / "phone.png")
        window, wide, columns = page.evaluate(
            "[window.innerWidth, document.documentElement.scrollWidth, window.__xterm.cols]")
        assert window == 390 and wide <= window and columns < 80, (window, wide, columns)


def test_the_editor_in_a_browser(tmp_path: Path, browser, campaign_file: Path) -> None:
    """Issue 16.1 ``--editor``: the editor, on the given file, in the page."""
    with web_server(tmp_path, str(campaign_file), "--editor") as (url, _):
        page = browser.open(url + "/")
        # ready: the file's name in the title, its first level, and the first check's report
        # (the cursor on the first cell)
        page.wait_for_text(lambda t: all(shown in t for shown in ("story.json", "0 errors, 0 warnings", "The Cave-In", "│(0, 0) empty")),
                           "the editor, checked")
        page.focus_terminal()
        page.press("right")
        page.wait_for_text("│(1, 0) empty", "the cell panel to follow the cursor east")
        page.press("down")
        moved = page.wait_for_text("│(1, 1) paths EW", "the cell panel to follow the cursor south, onto a card")
        page.screenshot(tmp_path / "editor.png")
        assert "│(0, 0)" not in moved


def test_on_a_real_phone_the_editor_puts_its_panels_under_a_map_as_wide_as_the_phone(tmp_path: Path, browser,
                                                                                     campaign_file: Path) -> None:
    """walk25: the editor in a 390 x 844 phone's browser got 43 columns and kept its 28-column sidebar beside the map,
    which was left two boxes. Held upright, the map takes the whole width and the panels go under it (docs/web.md)."""
    with web_server(tmp_path, str(campaign_file), "--editor") as (url, _):
        page = browser.open("about:blank")
        page.command("Emulation.setDeviceMetricsOverride", width=390, height=844, deviceScaleFactor=1, mobile=True)
        page.navigate(url + "/")
        shown = page.wait_for_text(lambda t: "0 errors, 0" in t and "Cell" in t, "the editor, checked")
        page.screenshot(tmp_path / "phone-editor.png")
        columns = page.evaluate("window.__xterm.cols")
        lines = shown.splitlines()
        assert columns < 80, columns
        # the map's box spans the terminal's width, and the Cell panel's box comes under it
        top = next(i for i, line in enumerate(lines) if "─ Map " in line)
        assert lines[top].startswith("╭─ Map ") and len(lines[top].rstrip()) == columns, shown
        assert any("─ Cell " in line for line in lines[top + 1:]), shown


def _listening(port: int) -> list[str]:
    """The local addresses (hex, as /proc/net/tcp* writes them) listening on ``port``."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            address, state = fields[1], fields[3]
            if state == "0A" and int(address.rsplit(":", 1)[1], 16) == port:  # 0A: LISTEN
                found.append(address.rsplit(":", 1)[0])
    return found


def _websocket(url: str, origin: str | None, host: str | None = None) -> int | str:
    """Open the session websocket (with the Host header ``host`` when given); 'open' or the HTTP status the
    handshake was refused with."""
    import asyncio

    import aiohttp

    async def attempt():
        headers = ({"Origin": origin} if origin else {}) | ({"Host": host} if host else {})
        async with aiohttp.ClientSession() as session:
            try:
                ws = await session.ws_connect(url.replace("http:", "ws:") + "/ws?width=80&height=24", headers=headers)
            except aiohttp.WSServerHandshakeError as exc:
                return exc.status
            await ws.close()
            return "open"

    return asyncio.run(asyncio.wait_for(attempt(), WAIT))


def test_the_server_listens_on_loopback_only_and_refuses_foreign_pages(tmp_path: Path) -> None:
    """Issue 16.1: nothing is reachable beyond 127.0.0.1; a page from another site cannot open a session."""
    with web_server(tmp_path, str(NEEDLE), "--scores-db", str(tmp_path / "s.sqlite3")) as (url, _):
        port = int(url.rsplit(":", 1)[1])
        assert _listening(port) == ["0100007F"]  # 127.0.0.1, and no other address
        assert _websocket(url, "http://evil.example") == 403
        assert _websocket(url, url) == "open"
        status, text = _get(url + "/map/whatever")
        assert status == 404 and "--hub" in text
        # every reply names its type for good (a 404 may quote a stranger's map reference): no sniffing
        for path, status in (("/", 200), ("/map/%3Cscript%3E", 404)):
            try:
                reply = urllib.request.urlopen(url + path, timeout=10)
            except urllib.error.HTTPError as exc:
                reply = exc
            assert (reply.status, reply.headers.get("X-Content-Type-Options")) == (status, "nosniff")


def test_a_page_of_a_name_rebound_to_this_machine_cannot_open_a_session(tmp_path: Path) -> None:
    """DNS rebinding (hub18): a site's page whose name is made to resolve to 127.0.0.1 sends its own name as Host
    and as Origin, which matched 'the address the request came to', and opened a session (with --editor: files
    read and written as the user). A session is opened only under the server's own names: its public URL's and,
    listening on loopback, 127.0.0.1, localhost and [::1] at its port."""
    with web_server(tmp_path, str(NEEDLE), "--scores-db", str(tmp_path / "s.sqlite3")) as (url, _):
        port = int(url.rsplit(":", 1)[1])
        for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1.evil.example:{port}", f"127.0.0.1:{port + 1}"):
            assert _websocket(url, f"http://{host}", host=host) == 403, host
            assert _websocket(url, None, host=host) == 403, host
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}"):
            assert _websocket(url, f"http://{host}", host=host) == "open", host


def test_the_own_names_include_a_proxys_host_without_the_public_port_and_port_80_without_one() -> None:
    """README's nginx sends `Host $host`: the public name without its port. With --public-url on another port than
    the scheme's (https://play.example.org:8443) every session was refused 403 (review); and a server on port 80
    reached as http://localhost/ sends `localhost`. Another site's name stays refused."""
    from cardrogue.editor.web import own_hosts

    names = own_hosts("127.0.0.1", 8000, "https://play.example.org:8443")
    assert {"play.example.org:8443", "play.example.org", "127.0.0.1:8000", "localhost:8000"} <= names
    assert "evil.example" not in names and "play.example.org:443" not in names
    assert {"localhost", "127.0.0.1", "localhost:80"} <= own_hosts("127.0.0.1", 80, "http://127.0.0.1")
    assert "localhost" not in own_hosts("127.0.0.1", 8000, "http://127.0.0.1:8000")


def test_sessions_beyond_the_limit_are_refused(tmp_path: Path) -> None:
    import asyncio

    import aiohttp

    async def two_sessions(url: str) -> list:
        async with aiohttp.ClientSession() as session:
            first = await session.ws_connect(url.replace("http:", "ws:") + "/ws?width=80&height=24")
            try:
                await session.ws_connect(url.replace("http:", "ws:") + "/ws?width=80&height=24")
                return ["open", "open"]
            except aiohttp.WSServerHandshakeError as exc:
                return ["open", exc.status]
            finally:
                await first.close()

    with web_server(tmp_path, str(NEEDLE), "--scores-db", str(tmp_path / "s.sqlite3"), "--max-sessions", "1") as (url, _):
        assert asyncio.run(asyncio.wait_for(two_sessions(url), WAIT)) == ["open", 503]


@pytest.mark.parametrize("args, message", [
    (["missing.json"], "missing.json"),
    ([str(NEEDLE), "--level", "9"], "level"),
    ([str(NEEDLE), "--editor", "--player", "x"], "for the player"),
    ([str(NEEDLE), "--public-url", "play.example.org"], "--public-url"),
    ([str(NEEDLE), "--hub", "ftp://hub"], "--hub"),
    ([str(NEEDLE), "--hub", "http://[::1"], "--hub 'http://[::1': its host or port cannot be read"),
    ([str(NEEDLE), "--public-url", "http://[::1"], "--public-url 'http://[::1': its host or port cannot be read"),
    ([str(NEEDLE), "--public-url", "http://a..b/"], "--public-url 'http://a..b/': its host name cannot be used"),
    ([str(NEEDLE), "--port", "0"], "port"),
])
def test_bad_options_exit_2_before_serving(args: list[str], message: str, capsys, tmp_path: Path, monkeypatch) -> None:
    from cardrogue.cli.main import main

    monkeypatch.chdir(tmp_path)
    try:
        code = main(["web", *args, "--scores-db", str(tmp_path / "s.sqlite3")])
    except SystemExit as exc:  # a usage error, from the parser
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and message in err and "Traceback" not in err


# --------------------------------------------------------------------------- the hub's play link


def test_the_hub_map_page_links_to_the_map_in_the_web_player(tmp_path: Path, browser) -> None:
    """Issue 16.4 and 16.2: the hub (``--play-url``) links each map page to ``cardrogue web --hub``, which
    plays that very map (downloaded, its content hash checked); a won run there goes to the local table, and
    the end screen's h downloads its replay, never submitted with the hub account of the server's user (who is not
    the browser's player): submitted by the player, under their own account, it is theirs on the hub."""
    from dataclasses import replace

    from hub_support import FAST, register, running_hub

    from cardrogue.hub.client import HubClient
    from cardrogue.hub.config import ClientConfig, save_config

    web_port = free_port()
    settings = replace(FAST, play_url=f"http://127.0.0.1:{web_port}/map/{{hash}}")
    solution = json.loads((ROOT / "campaigns" / "the-needle-run.replay.json").read_text())["actions"]
    with running_hub(str(tmp_path / "hub.sqlite3"), settings) as hub:
        published = HubClient(hub.base, register(hub.base, "author")).publish(NEEDLE.read_text())
        # the server's user has a hub account (its config folder is this test's: conftest)
        save_config(ClientConfig(hub.base, "webplayer", register(hub.base, "webplayer")))
        scores = tmp_path / "scores.sqlite3"
        with web_server(tmp_path, "--hub", hub.base, "--scores-db", str(scores), "--replays", str(tmp_path / "r"),
                        "--player", "webplayer", port=web_port) as (url, _):
            page = browser.open(f"{hub.base}/maps/{published['id']}")
            link = None
            deadline, pause = time.monotonic() + WAIT, Pauses()
            while link is None and time.monotonic() < deadline:
                link = page.evaluate("(document.querySelector('p.play a') || {}).href || null")
                pause()
            assert link == f"{url}/map/{published['hash']}"
            page.screenshot(tmp_path / "hub-map-page.png")
            page.evaluate("document.querySelector('p.play a').click()")
            page.wait_for_text(lambda t: "The Gallery" in t and "Enter: begin" in t, "the hub's map in the web player")
            board, shadow = start_of_play(page), Shadow(NEEDLE)
            screen = play_action(page, shadow, solution[0])
            screen = play_action(page, shadow, solution[1])
            page.screenshot(tmp_path / "hub-map-played.png")
            assert screen != board and "@ Start" not in screen
            for action in solution[2:]:
                screen = play_action(page, shadow, action)
            # the local table, as ever
            page.wait_for_text(lambda t: "h download this run's replay" in t and "Rank 1 in the high-score table." in t,
                               "the end screen's offer of the replay")
            downloads = tmp_path / "downloads"
            downloads.mkdir()
            page.command("Page.setDownloadBehavior", behavior="allow", downloadPath=str(downloads))
            page.press("h")
            page.wait_for_text("under your own hub account", "the end screen's word on the download")
            page.screenshot(tmp_path / "hub-downloaded.png")
            deadline, pause = time.monotonic() + WAIT, Pauses()
            while not list(downloads.glob("*.json")) and time.monotonic() < deadline:
                pause()
            (replay,) = downloads.glob("*.json")
            assert HubClient(hub.base).leaderboard(published["hash"])["runs"] == []  # not under the server's account
            HubClient(hub.base, register(hub.base, "bea")).submit(published["id"], replay.read_text())
            status, text = _get(f"{url}/map/{'0' * 64}")
            assert status == 404 and "no map" in text
        board = HubClient(hub.base).leaderboard(published["hash"])
    assert [(r["player"], r["turns"], r["health"]) for r in board["runs"]] == [("bea", 4, 8)]
    with ScoreStore(scores) as store:
        assert [(e.player, e.turns, e.health) for e in store.table(load_usable(NEEDLE))] == [("webplayer", 4, 8)]


def test_a_session_runs_the_terminal_command_with_the_servers_options(tmp_path: Path, monkeypatch) -> None:
    """What each tab runs: `cardrogue play` (or `edit`) with the web command's options, paths made
    absolute (the server may be started anywhere); a hub map is played from its saved copy, without
    --level (that is checked against CAMPAIGN only)."""
    from cardrogue.cli.main import build_parser
    from cardrogue.cli.web import session_command

    monkeypatch.chdir(tmp_path)
    args = build_parser().parse_args(["web", "maps/a.json", "--level", "2", "--scores-db", "s.sqlite3", "--player", "p q"])
    assert session_command(args)[1:] == ["-m", "cardrogue", "play", str(tmp_path / "maps/a.json"), "--level", "2",
                                         "--scores-db", str(tmp_path / "s.sqlite3"), "--player", "p q"]
    hub_map = tmp_path / "cache" / f"{'a' * 64}.json"
    assert session_command(args, hub_map)[3:] == ["play", str(hub_map), "--scores-db", str(tmp_path / "s.sqlite3"),
                                                  "--player", "p q"]
    editor = build_parser().parse_args(["web", "--editor", "b.json"])
    assert session_command(editor)[3:] == ["edit", str(tmp_path / "b.json")]


def test_the_page_makes_no_request_to_another_site(tmp_path: Path) -> None:
    """A private or offline server: the page loads its scripts, styles and font from this server only
    (textual-serve's template links Google Fonts; the font is served from /static/fonts/ instead)."""
    import asyncio

    from aiohttp.test_utils import TestClient, TestServer

    from cardrogue.editor.web import SessionServer

    async def page() -> tuple[str, int]:
        server = SessionServer(lambda campaign: "true", host="127.0.0.1", port=8000, title="Card Rogue",
                               public_url="http://127.0.0.1:8000", max_sessions=1)
        async with TestClient(TestServer(await server._make_app())) as client:
            response = await client.get("/")
            html = await response.text()
            font = await client.get("/static/fonts/RobotoMono-VariableFont_wght.ttf")
            return html, font.status

    html, font_status = asyncio.run(asyncio.wait_for(page(), WAIT))
    addresses = re.findall(r"""(?:href|src)\s*=\s*["']?([^"'\s>]+)|url\(\s*["']?([^"')]+)""", html)
    addresses = [a or b for a, b in addresses]
    addresses = [a for a in addresses if "//" in a or a.startswith("/")]  # not script text (`href = f();`)
    assert addresses and all(a.startswith("http://127.0.0.1:8000/") for a in addresses), addresses
    assert "googleapis" not in html and "fonts/RobotoMono-VariableFont_wght.ttf" in html
    assert font_status == 200


def test_the_web_guide_says_the_font_is_served_by_the_server_itself() -> None:
    """docs/web.md is held to the behaviour above: it said the page loads Roboto Mono from Google Fonts."""
    guide = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
    assert "loads the Roboto Mono font from Google Fonts" not in guide
    assert "makes no request to another site" in guide and "/static/fonts/" in guide


def test_a_port_in_use_is_one_line_before_any_banner(tmp_path: Path) -> None:
    """The address is taken before textual-serve's banner: it said 'Serving ... on http://...' and
    'Press Ctrl+C to quit', and only then that the port was in use."""
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "cardrogue", "web", "--port", str(port)], capture_output=True,
                              text=True, cwd=tmp_path, timeout=WAIT)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == "" and "Serving" not in done.stderr, done.stdout + done.stderr
    assert done.stderr.startswith(f"cardrogue: cannot listen on 127.0.0.1 port {port}: ") and "in use" in done.stderr
    assert done.stderr.count("\n") == 1


def test_the_server_still_serves_and_stops_on_the_socket_it_took(tmp_path: Path) -> None:
    with web_server(tmp_path) as (url, process):
        assert _get(url + "/")[0] == 200
    assert process.returncode == 0
    assert "Serving" in (tmp_path / "server.log").read_text()


def test_ctrl_c_stops_the_server_with_status_130_and_says_interrupted(tmp_path: Path) -> None:
    """README: Ctrl+C stops any command with exit status 130 and `cardrogue: interrupted` (as `hub
    serve` does); `web` ended with status 0 and said nothing, as for a stop asked by SIGTERM."""
    with web_server(tmp_path) as (url, process):
        assert _get(url + "/")[0] == 200
        process.send_signal(signal.SIGINT)
        process.wait(WAIT)
    assert process.returncode == 130, (tmp_path / "server.log").read_text()
    said = [line for line in (tmp_path / "server.log").read_text().splitlines() if line.strip()]
    assert said[-1] == "cardrogue: interrupted", said


# Notes how the page's websocket was closed (its close event's code and reason); the page is otherwise unchanged.
_NOTE_WEBSOCKET_CLOSE = """
window.WebSocket = class extends window.WebSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener("close", (event) => { window.__websocketClosed = [event.code, event.reason]; });
  }
};
"""


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_stopping_server_ends_its_sessions_at_once_and_the_page_says_so(tmp_path: Path, browser, stop) -> None:
    """A player mid-run when the server stops sees textual-serve's "Session ended." at once. The server used
    to wait for every tab's websocket to give up (about 23 s with one tab open): the page showed a live
    board that took no key, then the dialog, and the server's stop took as long. The page's websocket is now
    closed by the server itself, as going away (1001, 'the server is stopping'); one left to aiohttp's shutdown to
    give up on was dropped without a close frame (1006). No clock is read: the close says which happened."""
    with web_server(tmp_path, "--scores-db", str(tmp_path / "s.sqlite3"), "--replays", str(tmp_path / "r"),
                    "--player", "walker", str(NEEDLE)) as (url, server):
        page = browser.open("about:blank")
        page.command("Page.addScriptToEvaluateOnNewDocument", source=_NOTE_WEBSOCKET_CLOSE)
        page.navigate(url + "/")
        start_of_play(page)
        server.send_signal(stop)
        server.wait(WAIT)
        wait_until(lambda: "-closed" in page.evaluate("document.body.className"), "the page's 'Session ended.'")
        page.screenshot(tmp_path / "session-ended.png")
        assert "Session ended." in page.evaluate("document.body.innerText")
        closed = page.evaluate("window.__websocketClosed || null")
    assert closed == [1001, "the server is stopping"], (closed, (tmp_path / "server.log").read_text()[-3000:])
    assert server.returncode == (130 if stop == signal.SIGINT else 0)
    log = (tmp_path / "server.log").read_text()
    assert "Traceback" not in log and "Exception ignored" not in log, log[-3000:]


def test_the_server_runs_where_the_loop_has_no_signal_handlers(monkeypatch) -> None:
    """textual-serve's ``serve`` goes on when the event loop cannot take signal handlers (Windows' loop
    raises NotImplementedError); the copy for a socket taken first stopped there with a traceback."""
    import asyncio

    from cardrogue.editor import web
    from cardrogue.editor.web import SessionServer

    class NoSignals(asyncio.SelectorEventLoop):
        def add_signal_handler(self, sig, callback, *args):
            raise NotImplementedError

    loops, served = [], []
    monkeypatch.setattr(web.asyncio, "new_event_loop", lambda: loops.append(NoSignals()) or loops[-1])
    monkeypatch.setattr(web.web, "run_app", lambda app, **kw: (app.close(), served.append(kw)))
    server = SessionServer(lambda campaign: "true", host="127.0.0.1", port=0, title="Card Rogue",
                           public_url="http://127.0.0.1:0", max_sessions=1)
    with socket.socket() as sock:
        server.serve(sock=sock)
    try:
        assert len(served) == 1 and served[0]["loop"] is loops[0] and served[0]["sock"] is sock
    finally:
        asyncio.set_event_loop(None)
        loops[0].close()


@pytest.mark.parametrize("ref", ["needle/file", "needle/leaderboard", "..%2F..", "é", "a" * 5000],
                         ids=["file", "leaderboard", "dots", "accent", "long"])
def test_a_map_page_named_in_no_form_a_hub_reads_is_a_404_without_asking_the_hub(tmp_path: Path, ref: str) -> None:
    """`/map/REF` takes what the hub takes: a campaign id or a content hash (or its start). A '/' in REF (sent as
    %2F, unquoted by the hub's server) reached another address of the hub's API, whose answer of another form was a
    502 blaming the hub ('is it a Card Rogue hub?'); a 5,000-letter REF was asked of the hub and said back whole."""
    from hub_support import register, running_hub

    from cardrogue.editor.web import HubMaps, MapUnavailable
    from cardrogue.hub.client import HubClient

    with running_hub(str(tmp_path / "hub.sqlite3")) as hub:
        HubClient(hub.base, register(hub.base, "author")).publish(NEEDLE.read_text())
        maps = HubMaps(hub.base, tmp_path / "maps")
        with pytest.raises(MapUnavailable) as refused:
            maps.fetch(ref)
        assert refused.value.status == 404 and "names no map" in str(refused.value), refused.value
        assert len(str(refused.value)) < 300
        assert maps.fetch("the-needle-run")[1] == "The Needle Run"  # an id still plays


def test_a_hub_map_whose_text_a_hub_refuses_now_is_not_played(tmp_path: Path, monkeypatch) -> None:
    """A map published before the text rule refused stacked combining marks (60 on each letter of a level's story
    froze the web player's terminal for minutes) is still on its hub: `/map/REF` answers 502 with the reason,
    never a session on it."""
    from hub_support import register, running_hub

    import cardrogue.engine.format.checks.text as text_rule
    from cardrogue.editor.web import HubMaps, MapUnavailable
    from cardrogue.hub.client import HubClient

    doc = json.loads(NEEDLE.read_text())
    doc["levels"][0]["story"] = "".join(ch + "\u0300\u0316" * 30 for ch in "Level story")
    with running_hub(str(tmp_path / "hub.sqlite3")) as hub:
        monkeypatch.setattr(text_rule, "_stacked", lambda value: None)  # the hub before the rule
        published = HubClient(hub.base, register(hub.base, "author")).publish(json.dumps(doc))
        monkeypatch.undo()
        with pytest.raises(MapUnavailable) as refused:
            HubMaps(hub.base, tmp_path / "maps").fetch(published["id"])
        assert refused.value.status == 502 and "$.levels[0].story: it stacks 60 combining marks" in str(refused.value)
        assert not (tmp_path / "maps" / f"{published['hash']}.json").exists()


def test_no_page_of_another_site_shows_the_player_in_a_frame(tmp_path: Path) -> None:
    """A page of any site could frame the player (or the editor, which writes files) under buttons of its own and
    have a visitor's clicks and keys land in the session; the hub's pages refused frames, these did not."""
    with web_server(tmp_path, str(NEEDLE), "--scores-db", str(tmp_path / "s.sqlite3")) as (url, _):
        for path, status in (("/", 200), ("/map/whatever", 404), ("/static/css/xterm.css", 200)):
            try:
                reply = urllib.request.urlopen(url + path, timeout=10)
            except urllib.error.HTTPError as exc:
                reply = exc
            assert reply.status == status
            assert reply.headers.get("X-Frame-Options") == "DENY", path
            assert reply.headers.get("Content-Security-Policy") == "frame-ancestors 'none'", path


def test_the_editor_keys_a_browser_keeps_are_in_its_command_palette() -> None:
    """A browser never gives a page ctrl+n, ctrl+t or ctrl+w (a new window, a new tab, close the tab): in
    `cardrogue web --editor`, ctrl+n (new campaign) and ctrl+t (the Cell panel's inscription) opened a
    window and a tab instead (tutor22), and docs/web.md said every key works as in a terminal. Each editor
    action on such a key is in the command palette, and the guide names it."""
    from cardrogue.editor.app import EditorApp
    from cardrogue.editor.commands import COMMANDS
    from cardrogue.editor.widgets.level_list import LevelList
    from cardrogue.editor.widgets.map_canvas import MapCanvas

    kept = ("ctrl+n", "ctrl+t", "ctrl+w")
    bound = {key: binding.action for owner in (EditorApp, MapCanvas, LevelList) for binding in owner.BINDINGS
             for key in binding.key.split(",") if key in kept}
    assert set(bound) == {"ctrl+n", "ctrl+t"}, bound
    guide = " ".join((Path(__file__).resolve().parents[1] / "docs" / "web.md").read_text(encoding="utf-8").split())
    titles = {action: title for title, _, action in COMMANDS}
    assert all(f"`{key}`" in guide for key in kept)
    for key, action in bound.items():
        assert action in titles and f"*{titles[action]}*" in guide, (key, action)
