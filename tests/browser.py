"""A real browser for the tests: headless Chromium from Debian's package (scripts/system-deps).

:func:`render` loads a URL the way a visitor would (the page's own stylesheet, its
Content-Security-Policy enforced) and returns the DOM after parsing -- what the browser
built, not what the server sent -- and a screenshot, both from one Chromium run. Each
run has a profile of its own, so tests on several workers never share one.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

TIMEOUT_S = 90


@dataclass(frozen=True)
class Rendered:
    dom: str  # the serialized DOM after the page loaded
    screenshot: Path  # a PNG of the viewport
    console: str  # Chromium's own log (CSP violations are reported here)


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        raise RuntimeError("Chromium is not installed: run scripts/system-deps (Debian package chromium)")
    return found


def render(url: str, out_dir: Path, name: str = "page", size: tuple[int, int] = (1100, 900)) -> Rendered:
    """Load ``url`` in headless Chromium; the DOM text and a screenshot at ``out_dir/name.png``."""
    shot = out_dir / f"{name}.png"
    profile = out_dir / f"{name}.profile"
    done = subprocess.run(
        [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
         f"--user-data-dir={profile}", f"--window-size={size[0]},{size[1]}", f"--screenshot={shot}",
         "--enable-logging=stderr", "--v=0", "--dump-dom", url],
        capture_output=True, text=True, timeout=TIMEOUT_S)
    if done.returncode != 0 or not shot.exists():
        raise RuntimeError(f"chromium failed ({done.returncode}) on {url}: {done.stderr[-2000:]}")
    shutil.rmtree(profile, ignore_errors=True)
    return Rendered(done.stdout, shot, done.stderr)


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
    raw, stride, rows, prev = zlib.decompress(b"".join(idat)), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - bpp] if i >= bpp else 0
            up, corner = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        prev = line
        rows.append(bytes(line) if bpp == 3 else bytes(b for j in range(0, stride, 4) for b in line[j:j + 3]))
    return width, height, rows
