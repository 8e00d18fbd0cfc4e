"""A real browser for the tests: headless Chromium from Debian's package (scripts/system-deps).

Two ways in, one Chromium:

- :func:`render` loads a URL the way a visitor would (the page's own stylesheet, its
  Content-Security-Policy enforced) and returns the DOM after parsing -- what the browser
  built, not what the server sent -- and a screenshot, both from one tab.
- :class:`Browser` keeps Chromium running and drives tabs (:class:`Page`) over the DevTools
  protocol with aiohttp's client (aiohttp comes with textual-serve, so the driver adds no
  dependency): key presses, the text of a textual-serve terminal, screenshots.

Each Chromium has a profile of its own, so tests on several workers never share one. A test
process keeps its Chromium from one test to the next, each :class:`Browser` a browser context of
its own in it (no cookie, storage or cache of another test). Every wait of the driver is
bounded: a page that never shows what a test waits for fails the test with what it did show.

The terminal text is read back from xterm.js, the terminal textual-serve draws the app in, through
its public buffer API (``buffer.active.getLine(i).translateToString()``). The page keeps its
terminal in a closure, so a script installed before the page loads notes the terminal object when
the page assigns it (``window.__xterm``); nothing else on the page changes.
"""

from __future__ import annotations

import asyncio
import atexit
import base64
import itertools
import json
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import aiohttp
from polling import Pauses

TIMEOUT_S = 90


@dataclass(frozen=True)
class Rendered:
    dom: str  # the serialized DOM after the page loaded
    screenshot: Path  # a PNG of the viewport


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        raise RuntimeError("Chromium is not installed: run scripts/system-deps (Debian package chromium)")
    return found


def render(url: str, out_dir: Path, name: str = "page", size: tuple[int, int] = (1100, 900)) -> Rendered:
    """Load ``url`` in headless Chromium, in a tab of a browser context of its own laid out at ``size`` (the viewport,
    by DevTools' device metrics: a Chromium started for each page cost 2.5 s), scrollbars hidden; the DOM once the page
    has loaded, and a screenshot of the viewport at ``out_dir/name.png``."""
    shot = out_dir / f"{name}.png"
    with Browser(size=None) as browser:
        page = browser.open("about:blank")
        page.command("Emulation.setDeviceMetricsOverride", width=size[0], height=size[1], deviceScaleFactor=1,
                     mobile=False)
        page.command("Emulation.setScrollbarsHidden", hidden=True)
        page.command("Page.navigate", url=url)
        deadline, pause = time.monotonic() + TIMEOUT_S, Pauses()
        while not page.evaluate("document.readyState === 'complete' && location.href !== 'about:blank'"):
            if time.monotonic() > deadline:
                raise BrowserError(f"{url} did not load within {TIMEOUT_S} s")
            pause()
        dom = page.evaluate("document.documentElement.outerHTML")
        page.screenshot(shot)
    return Rendered(dom, shot)


def pixels(png: Path) -> tuple[int, int, list[bytes]]:
    """Width, height and RGB rows of an 8-bit, non-interlaced PNG (what Chromium writes)."""
    import struct
    import zlib

    data = png.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{png}: not a PNG")
    pos, idat, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat.append(chunk)
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"{png}: only 8-bit RGB(A) non-interlaced PNGs are read here")
    bpp = 3 if colour == 2 else 4
    raw, stride, rows, prev = zlib.decompress(b"".join(idat)), width * bpp, [], bytes(width * bpp)
    # Byte by byte in Python, a 1000x813 screenshot took 0.7 s to read; the filters most rows use (none, up, sub)
    # are whole-row operations here: up adds the row above byte-wise in one big-integer sum, sub a running sum.
    low, high = int.from_bytes(b"\x7f" * stride, "big"), int.from_bytes(b"\x80" * stride, "big")
    for y in range(height):
        kind, line = raw[y * (stride + 1)], raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)]
        if kind == 2:  # up: each byte plus the one above, modulo 256 (no carry from one byte into the next)
            a, b = int.from_bytes(line, "big"), int.from_bytes(prev, "big")
            line = (((a & low) + (b & low)) ^ ((a ^ b) & high)).to_bytes(stride, "big")
        elif kind == 1:  # sub: a running sum of each channel along the row
            out = bytearray(stride)
            for c in range(bpp):
                out[c::bpp] = bytes(itertools.accumulate(line[c::bpp], lambda s, v: (s + v) & 255))
            line = bytes(out)
        elif kind in (3, 4):  # average, paeth
            line = bytearray(line)
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                up, corner = prev[i], prev[i - bpp] if i >= bpp else 0
                if kind == 3:
                    line[i] = (line[i] + (left + up) // 2) & 255
                else:
                    p = left + up - corner
                    pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                    line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
            line = bytes(line)
        prev = line
        if bpp == 4:
            rgb = bytearray(width * 3)
            rgb[0::3], rgb[1::3], rgb[2::3] = line[0::4], line[1::4], line[2::4]
            line = bytes(rgb)
        rows.append(line)
    return width, height, rows


# ------------------------------------------------------------ a browser kept running, driven over DevTools

WAIT = 60.0  # seconds any single wait may take before the test fails (the machine may be busy)

# Notes the xterm.js Terminal when the page stores it as `this.terminal`, then gets out of the way.
_NOTE_TERMINAL = """
Object.defineProperty(Object.prototype, "terminal", {
  configurable: true,
  get() { return undefined; },
  set(value) {
    Object.defineProperty(this, "terminal", {value, writable: true, configurable: true, enumerable: true});
    if (value && value.buffer && value.buffer.active) { window.__xterm = value; }
  },
});
// DevTools' device emulation (Emulation.setDeviceMetricsOverride, deviceScaleFactor 3) reports a ResizeObserver's
// device-pixel box at the real screen's scale (1), not the emulated one: xterm.js sized its canvas from that box
// (383 px) and drew its glyphs at devicePixelRatio (3), so a phone's screenshot was the terminal's top-left third,
// three times too big. Without the box xterm.js sizes the canvas as its CSS size times devicePixelRatio, as a real
// phone's box gives it (at a scale of 1, the same canvas as before).
if (window.devicePixelRatio !== 1) { delete ResizeObserverEntry.prototype.devicePixelContentBoxSize; }
"""

# Read once xterm.js has parsed all it was given: it parses a large write in slices, between which the buffer
# holds a frame half drawn (a write's callback runs once everything written before it is parsed).
_SCREEN_TEXT = """(async () => {
  const t = window.__xterm;
  if (!t) return null;
  await new Promise((done) => t.write("", done));
  const b = t.buffer.active, rows = [];
  for (let i = 0; i < t.rows; i++) {
    const line = b.getLine(b.viewportY + i);
    rows.push(line ? line.translateToString(true) : "");
  }
  return rows.join("\\n");
})()"""

# The RGB foreground of the cell where a text begins (xterm.js's public buffer API: IBufferCell).
_TEXT_COLOUR = """(async (needle) => {
  const t = window.__xterm;
  if (!t) return null;
  await new Promise((done) => t.write("", done));
  const b = t.buffer.active;
  for (let i = 0; i < t.rows; i++) {
    const line = b.getLine(b.viewportY + i);
    const at = line ? line.translateToString(false).indexOf(needle) : -1;
    if (at >= 0) {
      const cell = line.getCell(at);
      return cell && cell.isFgRGB() ? cell.getFgColor() : null;
    }
  }
  return null;
})(%s)"""

# Input.dispatchKeyEvent fields for the keys a test presses by name.
_KEYS = {
    "up": ("ArrowUp", "ArrowUp", 38, ""),
    "down": ("ArrowDown", "ArrowDown", 40, ""),
    "left": ("ArrowLeft", "ArrowLeft", 37, ""),
    "right": ("ArrowRight", "ArrowRight", 39, ""),
    "enter": ("Enter", "Enter", 13, "\r"),
    "escape": ("Escape", "Escape", 27, ""),
    "tab": ("Tab", "Tab", 9, "\t"),
}

_PUNCTUATION = {".": ("Period", 190), ",": ("Comma", 188), "/": ("Slash", 191), "-": ("Minus", 189)}


class BrowserError(AssertionError):
    pass


class _Chromium:
    """A headless Chromium process, its DevTools address and its own temporary folder (profile, log)."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size
        self.users = 0  # the Browsers open on it
        self.workdir = Path(tempfile.mkdtemp(prefix="chromium-"))
        self.log = self.workdir / "chromium.log"
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [chromium(), "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                 "--disable-extensions", "--disable-background-networking", "--disable-component-update",
                 f"--user-data-dir={self.workdir / 'profile'}", "--remote-debugging-address=127.0.0.1",
                 "--remote-debugging-port=0", f"--window-size={size[0]},{size[1]}", "about:blank"],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log,
            )
        self.devtools = self._devtools_address()

    def _devtools_address(self) -> str:
        """Chromium logs ``DevTools listening on ws://127.0.0.1:PORT/...`` when it is ready."""
        deadline, pause = time.monotonic() + WAIT, Pauses()
        text = ""
        while time.monotonic() < deadline:
            text = self.log.read_text(encoding="utf-8", errors="replace")
            found = re.search(r"DevTools listening on ws://([^/\s]+)/", text)
            if found:
                return found.group(1)
            if self.process.poll() is not None:
                break
            pause()
        self.close()
        raise BrowserError("Chromium did not start:\n" + text[-3000:])

    def alive(self) -> bool:
        return self.process.poll() is None

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.workdir, ignore_errors=True)


_kept: _Chromium | None = None  # this test process's Chromium, kept from one test to the next


def _chromium_for(size: tuple[int, int] | None) -> tuple[_Chromium, bool]:
    """A Chromium of this window size (None: of any), and whether it is the kept one (else the caller's alone, to
    close). The kept one is started again when it died or a test asks another size (its windows are the size it was
    started with)."""
    global _kept
    if _kept is not None and _kept.alive() and (size is None or _kept.size == size):
        return _kept, True
    size = size or (1280, 800)
    if _kept is not None and _kept.users:  # busy at another size: one of the caller's own
        return _Chromium(size), False
    if _kept is not None:
        _kept.close()
    _kept = _Chromium(size)
    return _kept, True


@atexit.register
def close_kept() -> None:
    """Stop the kept Chromium (at the end of the test session: conftest; at the latest when the process exits)."""
    global _kept
    if _kept is not None:
        _kept.close()
        _kept = None


class Browser:
    """Headless Chromium as a test sees it: a browser context of its own (cookies, storage and cache apart from every
    other test's, as a fresh profile's), whose tabs :meth:`open` gives (:class:`Page`). Starting Chromium took a
    second a test: one is kept per test process and window size, each Browser a context in it, closed with it."""

    def __init__(self, workdir: Path | None = None, size: tuple[int, int] | None = (1280, 800)) -> None:
        """``size``: the window's (None: any, for a caller that sets the viewport by DevTools' device metrics)."""
        if workdir is not None:
            workdir.mkdir(parents=True, exist_ok=True)
        self.chromium, self._kept = _chromium_for(size)
        self.chromium.users += 1
        self.devtools = self.chromium.devtools
        self.loop = asyncio.new_event_loop()
        self.pages: list[Page] = []
        self.session: aiohttp.ClientSession | None = None
        self.root: _Connection | None = None
        self.context: str | None = None
        try:
            self.session = self.run(self._session())
            version = self.run(self._get_json("/json/version"))
            self.root = _Connection(self, version["webSocketDebuggerUrl"])
            self.context = self.root.command("Target.createBrowserContext")["browserContextId"]
        except BaseException:
            self.close()
            raise

    async def _session(self) -> aiohttp.ClientSession:
        return aiohttp.ClientSession()

    async def _get_json(self, path: str):
        async with self.session.get(f"http://{self.devtools}{path}") as response:
            return await response.json(content_type=None)

    def run(self, coroutine):
        return self.loop.run_until_complete(asyncio.wait_for(coroutine, WAIT))

    def open(self, url: str) -> "Page":
        """A new tab showing ``url``; the terminal hook is installed before the page's scripts run."""
        target = self.root.command("Target.createTarget", url="about:blank", browserContextId=self.context)["targetId"]
        page = Page(self, {"id": target, "webSocketDebuggerUrl": f"ws://{self.devtools}/devtools/page/{target}"})
        self.pages.append(page)
        page.navigate(url)
        return page

    def close(self) -> None:
        for page in self.pages:
            page.close()
        if self.root is not None:
            if self.context is not None and self.chromium.alive():
                try:
                    self.root.command("Target.disposeBrowserContext", browserContextId=self.context)
                except (BrowserError, aiohttp.ClientError, asyncio.TimeoutError):
                    pass
            self.root.close()
        if self.session is not None:
            self.run(self.session.close())
        self.loop.close()
        self.chromium.users -= 1
        if not self._kept:
            self.chromium.close()

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class _Connection:
    """A DevTools websocket (the browser's or a tab's) and its commands."""

    def __init__(self, browser: Browser, url: str) -> None:
        self.browser = browser
        self.ws = browser.run(browser.session.ws_connect(url, max_msg_size=0))
        self._next = 0
        self.events: list[dict] = []

    def command(self, method: str, **params) -> dict:
        return self.browser.run(self._command(method, params))

    async def _command(self, method: str, params: dict) -> dict:
        self._next += 1
        ident = self._next
        await self.ws.send_str(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = await self.ws.receive()
            if message.type != aiohttp.WSMsgType.TEXT:
                raise BrowserError(f"the DevTools connection closed during {method}")
            data = json.loads(message.data)
            if data.get("id") == ident:
                if "error" in data:
                    raise BrowserError(f"{method}: {data['error']}")
                return data.get("result", {})
            self.events.append(data)

    def close(self) -> None:
        if not self.ws.closed:
            self.browser.run(self.ws.close())


class Page(_Connection):
    """A tab, driven by DevTools commands over its websocket."""

    def __init__(self, browser: Browser, target: dict) -> None:
        super().__init__(browser, target["webSocketDebuggerUrl"])
        self.target_id = target["id"]

    def navigate(self, url: str) -> None:
        self.command("Page.enable")
        self.command("Page.addScriptToEvaluateOnNewDocument", source=_NOTE_TERMINAL)
        self.command("Page.navigate", url=url)

    def evaluate(self, expression: str):
        result = self.command("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression[:60]}...: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def screen_text(self) -> str:
        """The terminal's text, one line a row ('' before the terminal exists)."""
        return self.evaluate(_SCREEN_TEXT) or ""

    def wait_for_text(self, predicate: Callable[[str], bool] | str, what: str | None = None) -> str:
        """Poll the terminal text until ``predicate`` holds (a string: until it appears)."""
        test = (lambda text: predicate in text) if isinstance(predicate, str) else predicate
        deadline, pause = time.monotonic() + WAIT, Pauses()
        text = ""
        while time.monotonic() < deadline:
            text = self.screen_text()
            if text and test(text):
                return text
            pause()
        raise BrowserError(f"waited {WAIT:.0f} s for {what or predicate!r}; the terminal shows:\n{text}")

    def text_colour(self, needle: str) -> tuple[int, int, int] | None:
        """The colour xterm.js draws the first character of ``needle`` in (its first occurrence on screen), as
        RGB; None when the text is not shown or its colour is the terminal's default or a palette index."""
        found = self.evaluate(_TEXT_COLOUR % json.dumps(needle))
        return None if found is None else ((found >> 16) & 255, (found >> 8) & 255, found & 255)

    def focus_terminal(self) -> None:
        self.evaluate("window.__xterm && window.__xterm.focus()")

    def press(self, *keys: str) -> None:
        """Press keys by name (``right``, ``enter``, ...) or as single characters, as a person would."""
        for key in keys:
            if key in _KEYS:
                name, code, vk, text = _KEYS[key]
            elif len(key) == 1 and key.isalnum():
                name, code, vk, text = key, (f"Key{key.upper()}" if key.isalpha() else f"Digit{key}"), ord(key.upper()), key
            elif key in _PUNCTUATION:
                name, (code, vk), text = key, _PUNCTUATION[key], key
            else:
                raise ValueError(f"unknown key {key!r}")
            down = {"type": "keyDown" if text else "rawKeyDown", "key": name, "code": code,
                    "windowsVirtualKeyCode": vk, "nativeVirtualKeyCode": vk}
            if text:
                down["text"] = text
            self.command("Input.dispatchKeyEvent", **down)
            self.command("Input.dispatchKeyEvent", type="keyUp", key=name, code=code,
                         windowsVirtualKeyCode=vk, nativeVirtualKeyCode=vk)

    def screenshot(self, path: Path) -> Path:
        # A tab behind another of its window draws no frames, and its screenshot waits for one: in a full run, a test
        # of two tabs waited 60 s for the first's (the tab in front is the one shot).
        self.command("Page.bringToFront")
        data = self.command("Page.captureScreenshot", format="png")["data"]
        path.write_bytes(base64.b64decode(data))
        return path

    def close(self) -> None:
        if not self.ws.closed:
            self.browser.run(self.ws.close())
            try:
                self.browser.run(self._close_target())
            except (aiohttp.ClientError, asyncio.TimeoutError):
                pass

    async def _close_target(self) -> None:
        async with self.browser.session.get(f"http://{self.browser.devtools}/json/close/{self.target_id}") as response:
            await response.read()
