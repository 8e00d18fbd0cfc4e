"""Big maps stay responsive (issue 13.7): a big campaign is checked in a separate process, edits
made while a check runs are checked together afterwards, and only the newest answer is shown.
How long the UI stalls is measured in benchmarks/bench_editor.py --check, not here."""

from __future__ import annotations

import asyncio

from cardrogue.editor import checking, edits
from cardrogue.editor.checking import check_campaign
from cardrogue.engine.format.loader import load_campaign
from editor_support import SIZE, make_app, settle
from helpers import FIXTURE, run_async


def test_a_campaign_travels_to_the_checking_process_whole() -> None:
    import pickle

    campaign = load_campaign(FIXTURE).campaign
    copy = pickle.loads(pickle.dumps(campaign))
    assert copy == campaign and copy.levels[1].cell_at(1, 1).card == "goblin"
    assert check_campaign(copy, None, "x.json") == check_campaign(campaign, None, "x.json")


def test_a_campaign_is_sent_in_small_pieces(monkeypatch) -> None:
    monkeypatch.setattr(checking, "CHUNK", 2)
    campaign = load_campaign(FIXTURE).campaign
    skeleton, pieces = checking.packed(campaign)
    assert [len(chunks) for chunks in pieces] == [3, 3, 2]  # 6, 6 and 3 cards, two at a time
    copy = checking.unpacked(skeleton, pieces)
    assert copy == campaign and copy.levels[1].cell_at(1, 1).card == "goblin"
    assert checking.check_packed(skeleton, pieces, None, "x.json") == check_campaign(campaign, None, "x.json")


async def wait_checked(app, pilot) -> None:
    for _ in range(600):  # a fresh process imports the engine first: give it time, bounded
        await settle(app, pilot)
        if not app.checker._running and "checking" not in str(app.query_one("#problems-summary").render()):  # noqa: SLF001
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the check never finished")


@run_async
async def test_big_campaigns_are_checked_in_a_process(campaign_file, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(checking, "PROCESS_CELLS", 0)  # every campaign counts as big
    app = make_app(campaign_file, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_checked(app, pilot)
        assert app.checker._pool is not None  # noqa: SLF001
        in_thread = check_campaign(app.campaign, app.doc.schema_ref, app.doc.name)
        assert app.diagnostics == in_thread and any(d.code == "CR307" for d in app.diagnostics)
        # three quick edits while a check runs: the last campaign's problems are what is shown
        app.set_level(1)
        for x, y in ((3, 0), (0, 2), (1, 2)):
            app.edit(lambda c, x=x, y=y: edits.place_card(c, 1, x, y, "goblin", None), "Place")
        await wait_checked(app, pilot)
        assert app.diagnostics == check_campaign(app.campaign, app.doc.schema_ref, app.doc.name)
        assert sum(d.code == "CR223" and d.level == 1 for d in app.diagnostics) == 3  # three goblins with no paths
    assert app.checker._pool is None  # noqa: SLF001  closed with the app


def test_an_unsaved_draft_is_walked_for_cr228_as_a_save_would_write_it() -> None:
    """The editor checks the text a save writes (Document.text), so the text rule is the one walk of
    the file the hub refuses by (CR228, engine/format/checks/text.py): the draft's cards, inscriptions
    and its ``$schema`` reference too, with the level and cell to jump to."""
    import json
    from dataclasses import replace

    from cardrogue.editor.document import Document
    from cardrogue.engine.format.checks.text import unsafe_texts

    campaign = load_campaign(FIXTURE).campaign
    level = campaign.levels[1]
    cell = replace(level.cells[2], inscription="Red \x1b[31malert")
    draft = replace(campaign, title="[bold]Loud", card_entries={"cave-bat": {"text": "Flap\u202e"}},
                    levels=(campaign.levels[0], replace(level, cells=level.cells[:2] + (cell,) + level.cells[3:]),
                            *campaign.levels[2:]))
    found = [d for d in check_campaign(draft, "schema\x07", "x.json") if d.code == "CR228"]
    assert sorted(d.json_path for d in found) == sorted(
        ["$.$schema", "$.title", "$.cards['cave-bat'].text", "$.levels[1].cells[2].inscription"])
    [inscription] = [d for d in found if d.path[-1:] == ("inscription",)]
    assert inscription.level == 1 and inscription.cell == cell.pos
    text = Document(draft, schema_ref="schema\x07").text()
    assert sorted(u.path for u in unsafe_texts(json.loads(text), text)) == sorted(d.path for d in found)
