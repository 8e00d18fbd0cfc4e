"""The header at 80 columns keeps what matters: the file's name (its start and extension, never
its folder), the unsaved mark and the brush's name; the app's title goes first, then the middle
of the file's name, then the end of the brush's name."""

from __future__ import annotations

import pytest

from cardrogue.editor.header import fit_header, middle_cut
from editor_support import make_app, settle
from helpers import FIXTURE, run_async, screen_text

LONG = "the-drowned-saints-of-the-old-chapel-beneath.json"


def test_the_app_title_goes_first_then_the_names_middle_then_the_brushs_end() -> None:
    assert fit_header(100, "Studio", "a.json", False, "goblin") == ("Studio", "a.json  brush: goblin")
    assert fit_header(30, "Card Rogue Story Studio", "a.json", True, "goblin") == ("", "a.json ●  brush: goblin")
    title, sub = fit_header(62, "Card Rogue Story Studio", LONG, True, "fountain-of-healing")
    assert title == "" and sub.endswith(".json ●  brush: fountain-of-healing") and sub.startswith("the-drowned")
    title, sub = fit_header(30, "Card Rogue Story Studio", LONG, False, "fountain-of-healing")
    assert sub == "the-dr….json  brush: fountain…" and len(sub) == 30
    assert middle_cut(LONG, 20) == "the-drowned-sa….json"
    assert middle_cut("untitled", 20) == "untitled"


@pytest.mark.parametrize("width", range(1, 90))
def test_the_header_never_runs_past_its_width(width: int) -> None:
    for name, brush in ((LONG, "fountain-of-healing"), ("a.json", ""), ("x" * 80, "y" * 40)):
        title, sub = fit_header(width, "Card Rogue Story Studio", name, True, brush)
        shown = f"{title} — {sub}" if title else sub
        assert len(shown) <= width, (width, shown)


@run_async
async def test_a_long_file_in_a_long_folder_at_80x24(tmp_path) -> None:
    folder = tmp_path / "a folder with a rather long name" / "and another one inside it"
    folder.mkdir(parents=True)
    path = folder / LONG
    path.write_bytes(FIXTURE.read_bytes())
    app = make_app(path, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        app.query_one("Palette").choose("fountain-of-healing")
        await pilot.press("enter")  # an edit: the unsaved mark
        await settle(app, pilot)
        header = screen_text(app).splitlines()[0]
        assert "folder" not in header and "the-drowned" in header and ".json ●" in header, header
        assert "brush: fountain-of-healing" in header, header
        assert len(header.rstrip()) <= 80 - 10  # clear of the clock's corner
