"""What handling keys in order (editor/key_order.py) costs: the app's CPU for a burst of keys.

    python benchmarks/bench_key_bursts.py [--chars 300] [--arrows 101] [--rounds 2] [--paced]

A burst is every key posted at once, as the terminal's driver posts the keys of one read (a paste
without bracketed paste, ``tmux send-keys``). Measured: the process CPU time until the app has handled
them, for characters typed into the campaign metadata form's title and for arrows on the map of the
three-level fixture, with KeysInOrder (each key waits for the one before) and without it (Textual's own
dispatch, which loses keys: the burst's text is checked and said). Rounds alternate the two.

``--paced`` sends the arrows one every 30 ms instead (a held key's repeat, or brisk typing) and measures
the CPU of the whole stretch: what each key costs when it is handled before the next one comes anyway.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "corpus" / "valid" / "three-levels.json"


def post_keys(app, keys: list[str]) -> None:
    from textual import events

    for key in keys:
        char = " " if key == "space" else key if len(key) == 1 else None
        event = events.Key(key, char)
        event.set_sender(app)
        app.post_message(event)


async def paced(app, arrows: int) -> float:
    """The CPU of ``arrows`` arrows on the map, one every 30 ms (the app idles in between)."""
    start = time.process_time()
    for i in range(arrows):
        post_keys(app, ["right" if i % 2 == 0 else "left"])
        await asyncio.sleep(0.03)
    await asyncio.sleep(0.3)
    return time.process_time() - start


async def measure(in_order: bool, chars: int, arrows: int, pace: bool = False) -> tuple[float, float, bool]:
    from textual.app import App

    from cardrogue.editor.app import EditorApp
    from cardrogue.editor.files import open_document
    from cardrogue.editor.key_order import KeysInOrder

    saved = KeysInOrder.on_event
    if not in_order:
        KeysInOrder.on_event = App.on_event  # type: ignore[method-assign]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "story.json"
            path.write_bytes(FIXTURE.read_bytes())
            app = EditorApp(open_document(path), recovery_dir=Path(tmp) / "recovery", autosave_seconds=3600,
                            cursor_blink=False)
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                await app.workers.wait_for_complete()
                if pace:
                    return 0.0, await paced(app, arrows), True
                await pilot.press("ctrl+e")
                await pilot.pause()
                text = ("abcdefghi " * (chars // 10 + 1))[:chars]
                title = app.screen.query_one("#form-title")
                start = time.process_time()
                post_keys(app, ["ctrl+u", *["space" if c == " " else c for c in text]])
                deadline = time.monotonic() + 60
                while title.value != text and time.monotonic() < deadline:
                    await asyncio.sleep(0.001)
                typing = time.process_time() - start
                kept = title.value == text
                await pilot.press("escape")
                await pilot.pause()
                start = time.process_time()
                post_keys(app, ["right", "left"] * (arrows // 2) + ["right"] * (arrows % 2))
                want = (arrows % 2, 0)
                deadline = time.monotonic() + 60
                while (app.canvas.cursor != want or app.keys_on_their_way) and time.monotonic() < deadline:
                    await asyncio.sleep(0.001)
                moving = time.process_time() - start
                return typing, moving, kept
    finally:
        KeysInOrder.on_event = saved  # type: ignore[method-assign]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chars", type=int, default=300)
    parser.add_argument("--arrows", type=int, default=101)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--paced", action="store_true", help="arrows 30 ms apart, not a burst")
    args = parser.parse_args()
    for round_ in range(1, args.rounds + 1):
        for in_order in (False, True):
            typing, moving, kept = asyncio.run(measure(in_order, args.chars, args.arrows, args.paced))
            name = "in order (KeysInOrder)" if in_order else "Textual's own dispatch"
            if args.paced:
                print(f"round {round_} {name:24} {args.arrows} arrows 30 ms apart: {moving:.2f} s CPU "
                      f"({1000 * moving / args.arrows:.1f} ms/key)")
                continue
            print(f"round {round_} {name:24} {args.chars} chars: {typing:.2f} s CPU ({1000 * typing / args.chars:.1f} ms/key, "
                  f"text {'kept' if kept else 'LOST'});  {args.arrows} arrows: {moving:.2f} s CPU "
                  f"({1000 * moving / args.arrows:.1f} ms/key)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
