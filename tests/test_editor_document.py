"""The editor's model (edits, document, files) without Textual."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardrogue.editor import edits
from cardrogue.editor.document import Document, Where
from cardrogue.editor.files import (
    OpenError,
    atomic_write,
    clear_recovery,
    default_document,
    document_for,
    is_protected,
    new_document,
    open_document,
    read_recovery,
    recover,
    save_document,
    template_document,
    write_recovery,
)
from cardrogue.engine.format.canonical import campaign_to_dict, dumps
from cardrogue.engine.format.loader import load_campaign, load_campaign_text
from cardrogue.engine.model.campaign import Direction
from cardrogue.engine.format.resources import default_campaign
from helpers import FIXTURE



@pytest.fixture
def doc(tmp_path: Path) -> Document:
    path = tmp_path / "story.json"
    path.write_bytes(FIXTURE.read_bytes())
    return open_document(path)


def test_model_modules_do_not_import_textual() -> None:
    code = ("import sys; import cardrogue.editor.document, cardrogue.editor.edits, cardrogue.editor.files, "
            "cardrogue.editor.solution, cardrogue.editor.player.run; "
            "print(any(m == 'textual' or m.startswith('textual.') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_place_on_empty_place_joins_the_card_it_was_painted_from(doc: Document) -> None:
    c = edits.place_card(doc.campaign, 0, 3, 0, "goblin", joined_to=(3, 1))
    level = c.levels[0]
    assert level.cell_at(3, 0).card == "goblin"
    assert level.cell_at(3, 0).paths == "S"
    assert level.cell_at(3, 1).has_path(Direction.N)
    assert level.neighbour(level.cell_at(3, 0), Direction.S) is level.cell_at(3, 1)
    assert not level.cell_at(3, 0).face_up


def test_place_joins_no_other_neighbour(doc: Document) -> None:
    """Painted from (1, 1), the card at (1, 2) opens no path to the potion at (2, 2) beside it."""
    c = edits.place_card(doc.campaign, 0, 1, 2, "pathing-tile", joined_to=(1, 1))
    level = c.levels[0]
    assert level.cell_at(1, 2).paths == "N" and level.cell_at(2, 2).paths == "N"
    assert level.cell_at(1, 1).paths == "ESW"
    alone = edits.place_card(doc.campaign, 0, 0, 0, "goblin")  # painted from nowhere: no paths
    assert alone.levels[0].cell_at(0, 0).paths == "" and alone.levels[0].cell_at(0, 1).paths == "E"
    far = edits.place_card(doc.campaign, 0, 0, 0, "goblin", joined_to=(3, 1))  # not a neighbour
    assert far.levels[0].cell_at(0, 0).paths == ""


def test_fill_joins_the_new_cards_to_each_other(doc: Document) -> None:
    c = edits.fill_cards(doc.campaign, 0, edits.Rect(0, 0, 4, 0), "pathing-tile", joined_to=(0, 1))
    level = c.levels[0]
    assert [level.cell_at(x, 0).paths for x in range(5)] == ["ES", "EW", "EW", "EW", "W"]
    assert level.cell_at(0, 1).paths == "NE" and level.cell_at(1, 1).paths == "EW"


def test_place_on_card_keeps_paths_and_face(doc: Document) -> None:
    c = edits.place_card(doc.campaign, 0, 1, 1, "goblin")
    cell = c.levels[0].cell_at(1, 1)
    assert (cell.card, cell.paths, cell.face_up) == ("goblin", "EW", False)
    assert edits.place_card(c, 0, 1, 1, "goblin") is c
    assert edits.place_card(c, 0, 99, 0, "goblin") is c


def test_a_ladder_placed_on_the_exit_does_not_become_the_exit(doc: Document) -> None:
    """Swapping the last level's exit for a descending ladder (making room for a level below) keeps
    the paths and face, but not the exit mark: an exit wins on arrival, so an exit ladder would end
    the campaign there and never lead down (CR218). Another card keeps the mark."""
    li = len(doc.campaign.levels) - 1
    (x, y), = [(c.x, c.y) for c in doc.campaign.levels[li].cells if c.exit]
    ladder = edits.place_card(doc.campaign, li, x, y, "descending-ladder").levels[li].cell_at(x, y)
    assert ladder.card == "descending-ladder" and not ladder.exit
    fountain = edits.place_card(doc.campaign, li, x, y, "fountain-of-healing").levels[li].cell_at(x, y)
    assert fountain.exit

def test_rotate_toggle_face_path_exit(doc: Document) -> None:
    c = edits.rotate(doc.campaign, 0, 2, 1)  # ESW -> NSW... clockwise: E->S, S->W, W->N
    assert c.levels[0].cell_at(2, 1).paths == "NSW"
    assert edits.rotate(c, 0, 2, 1, clockwise=False).levels[0].cell_at(2, 1).paths == "ESW"
    c = edits.toggle_face(doc.campaign, 0, 1, 1)
    assert c.levels[0].cell_at(1, 1).face_up
    c = edits.toggle_path(doc.campaign, 0, 1, 1, Direction.N)
    assert c.levels[0].cell_at(1, 1).paths == "NEW"
    c = edits.toggle_exit(doc.campaign, 0, 1, 1)
    assert c.levels[0].cell_at(1, 1).exit
    assert edits.rotate(doc.campaign, 0, 0, 0) is doc.campaign  # empty place


def test_delete_copy_paste(doc: Document) -> None:
    rect = edits.Rect.spanning((1, 1), (2, 2))
    clip = edits.copy_cells(doc.campaign, 0, rect)
    assert (clip.width, clip.height) == (2, 2)
    assert sorted(c.pos for c in clip.cells) == [(0, 0), (1, 0), (1, 1)]
    c = edits.delete_cells(doc.campaign, 0, rect)
    assert {cell.pos for cell in c.levels[0].cells} == {(0, 1), (3, 1), (4, 1)}
    c = edits.paste_cells(c, 0, 3, 0, clip)
    level = c.levels[0]
    assert level.cell_at(3, 0).card == "pathing-tile"
    assert level.cell_at(4, 0).card == "pathing-tile"
    assert level.cell_at(4, 1).card == "red-potion"  # overwrote the ladder
    assert all(cell.id == "" for cell in clip.cells)
    # pasted cells take the default instance id of their new place, so the file stays valid
    assert load_campaign_text(dumps(campaign_to_dict(c))).campaign is not None


def test_a_level_added_is_named_as_the_blank_campaigns_first_level() -> None:
    """`a` after the blank campaign's `level-1` adds `level-2`, then `level-3`; never a taken id."""
    from cardrogue.editor.files import BLANK_TEMPLATE

    c = load_campaign_text(BLANK_TEMPLATE).campaign
    assert [lv.id for lv in c.levels] == ["level-1"]
    c = edits.add_level(c, 1)
    c = edits.add_level(c, 2)
    assert [lv.id for lv in c.levels] == ["level-1", "level-2", "level-3"]
    c = edits.add_level(c, 1)  # a level put second, where level-2 is taken: the next free number
    assert [lv.id for lv in c.levels] == ["level-1", "level-4", "level-2", "level-3"]
    assert load_campaign_text(dumps(campaign_to_dict(c))).campaign is not None


def test_level_operations(doc: Document) -> None:
    c = edits.add_level(doc.campaign, 1)
    assert [lv.id for lv in c.levels] == ["the-cave-in", "level-2", "the-old-shop", "the-way-out"]
    c = edits.duplicate_level(c, 0)
    assert c.levels[1].id == "the-cave-in-copy" and len(c.levels[1].cells) == 6
    assert all(cell.id == "" for cell in c.levels[1].cells)
    c = edits.move_level(c, 1, 1)
    assert c.levels[2].id == "the-cave-in-copy"
    assert edits.move_level(c, 0, -1) is c
    c = edits.remove_level(c, 2)
    assert len(c.levels) == 4
    c = edits.resize_level(c, 0, 3, 2)
    assert (c.levels[0].width, c.levels[0].height) == (3, 2)
    assert all(cell.x < 3 and cell.y < 2 for cell in c.levels[0].cells)
    one = doc.campaign
    for _ in range(2):
        one = edits.remove_level(one, 0)
    assert edits.remove_level(one, 0) is one


def test_rename_level_follows_ladders(doc: Document) -> None:
    c = edits.set_level_meta(doc.campaign, 1, "shop", "The Shop")
    assert c.levels[1].id == "shop"
    assert c.levels[0].cell_at(4, 1).to == "shop"
    assert load_campaign_text(dumps(campaign_to_dict(c))).campaign is not None
    with pytest.raises(ValueError):
        edits.set_level_meta(doc.campaign, 1, "the-way-out", "x")


def test_metadata_hero_seed_story(doc: Document) -> None:
    c = edits.set_metadata(doc.campaign, title="T", seed=7, author="Me")
    assert (c.title, c.seed, c.author) == ("T", 7, "Me")
    c = edits.set_hero(c, "rogue", ("gold",))
    assert c.hero.character == "rogue" and c.hero.items == ("gold",)
    c = edits.set_story(c, None, "Once")
    c = edits.set_story(c, 1, "Twice")
    assert c.story == "Once" and c.levels[1].story == "Twice"
    with pytest.raises(ValueError):
        edits.set_metadata(c, levels=())


def test_undo_redo_and_dirty(doc: Document) -> None:
    original = doc.campaign
    assert not doc.dirty
    assert doc.apply(lambda c: edits.toggle_face(c, 0, 1, 1), "Face", Where(0, 1, 1))
    assert doc.dirty
    assert not doc.apply(lambda c: c, "nothing")
    step = doc.undo()
    assert step.label == "Face" and step.where == Where(0, 1, 1)
    assert doc.campaign is original and not doc.dirty
    doc.redo()
    assert doc.campaign.levels[0].cell_at(1, 1).face_up and doc.dirty
    assert doc.redo() is None


def test_merge_key_makes_one_step(doc: Document) -> None:
    for text in ("a", "ab", "abc"):
        doc.apply(lambda c, t=text: edits.set_story(c, None, t), "Story", merge_key="story-None")
    assert len(doc.undo_stack) == 1
    doc.undo()
    assert doc.campaign.story.startswith("Stories")


def test_save_is_atomic_and_canonical(doc: Document, tmp_path: Path) -> None:
    doc.apply(lambda c: edits.place_card(c, 0, 3, 0, "goblin"), "Place")
    target = tmp_path / "out.json"
    save_document(doc, target)
    assert target.read_text(encoding="utf-8") == dumps(campaign_to_dict(doc.campaign, schema_ref=doc.schema_ref))
    assert not doc.dirty and doc.path == target
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    again = load_campaign(target)
    assert again.campaign is not None
    assert again.campaign.levels[0].cell_at(3, 0).card == "goblin"


def test_unchanged_save_gives_the_same_bytes(doc: Document) -> None:
    before = doc.path.read_bytes()
    save_document(doc, doc.path)
    assert doc.path.read_bytes() == before


def test_atomic_write_keeps_old_file_on_failure(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "x.json"
    target.write_text("old")

    def boom(*_a):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        atomic_write(target, b"new")
    assert target.read_text() == "old"
    assert list(tmp_path.iterdir()) == [target]


def test_bundled_campaign_is_a_template_and_never_written() -> None:
    doc = default_document()
    assert doc.path is None and doc.template == default_campaign()
    assert is_protected(default_campaign())
    with pytest.raises(PermissionError):
        save_document(doc, default_campaign())
    assert open_document(default_campaign()).path is None


def test_blank_template_is_valid() -> None:
    doc = template_document()
    assert doc.path is None and not doc.dirty
    assert load_campaign_text(doc.text()).campaign is not None


def test_open_broken_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(OpenError):
        open_document(bad)


def test_recovery_round_trip(doc: Document, tmp_path: Path) -> None:
    rec = tmp_path / "rec"
    assert read_recovery(doc, rec) is None
    doc.apply(lambda c: edits.set_metadata(c, title="Changed"), "Title")
    write_recovery(doc, rec)
    fresh = open_document(doc.path)
    text = read_recovery(fresh, rec)
    assert text is not None and json.loads(text)["title"] == "Changed"
    recover(fresh, text)
    assert fresh.campaign.title == "Changed" and fresh.dirty
    clear_recovery(fresh, rec)
    assert read_recovery(fresh, rec) is None


def test_edit_a_new_file_starts_from_the_blank_template(tmp_path):
    """`cardrogue edit NEW.json`: a blank campaign named after the file, unsaved until ctrl+s."""
    path = tmp_path / "goblin-toll.json"
    doc = new_document(path)
    assert doc.path == path and doc.campaign.id == "goblin-toll" and doc.dirty and not path.exists()
    save_document(doc, path)
    assert not doc.dirty
    loaded = load_campaign(path)
    assert loaded.ok and loaded.campaign.id == "goblin-toll"
    # the canonical form, starting with the $schema line the authoring guide recommends
    schema = "https://cardrogue-studio.dev/schema/campaign.schema.json"
    assert path.read_text() == dumps(campaign_to_dict(loaded.campaign, schema_ref=schema))
    assert path.read_text().splitlines()[1] == f'  "$schema": "{schema}",'


def test_a_file_that_cannot_be_opened_says_where_its_recovered_work_waits(doc: Document, tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch,
                                                                         capsys: pytest.CaptureFixture) -> None:
    """The editor crashed with unsaved work, then the file was broken outside it (a merge's conflict
    markers): `cardrogue edit` named the JSON error only, and the recovered work looked lost."""
    from cardrogue.editor.app import run_editor
    from cardrogue.editor.files import recovery_note

    rec = tmp_path / "rec"
    monkeypatch.setenv("CARDROGUE_RECOVERY_DIR", str(rec))
    assert recovery_note(doc.path) == ""
    doc.apply(lambda c: edits.set_metadata(c, title="Unsaved work"), "Title")
    kept = write_recovery(doc)
    doc.path.write_text("<<<<<<< HEAD\n" + doc.path.read_text())
    assert run_editor(doc.path) == 2
    err = capsys.readouterr().err
    assert "CR001: invalid JSON" in err
    assert (f"unsaved changes to {doc.path.name} from a session that did not end cleanly are kept in {kept}: "
            "mend the file, or move it away, and open it again to recover them") in err
    doc.path.unlink()  # moved away: a new file there offers the recovery again
    assert read_recovery(document_for(doc.path), rec) is not None


def test_a_loop_of_symbolic_links_is_refused_not_an_internal_error(tmp_path: Path) -> None:
    """`cardrogue edit LOOP.json` (a symbolic link to itself) said "internal error: RuntimeError: Symlink loop":
    the path does not exist, so it was taken for a new file, and the test of the installed package's folders
    (``is_protected``, which the save-as dialog asks too) resolved it. It is refused by name now, exit 2."""
    from cardrogue.engine.errors import UnusableInput

    loop = tmp_path / "loop.json"
    loop.symlink_to(loop.name)
    assert is_protected(loop) is False
    with pytest.raises(UnusableInput, match="loop.json: .*symbolic links"):
        document_for(loop)
    done = subprocess.run([sys.executable, "-m", "cardrogue.cli.main", "edit", str(loop)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "internal error" not in done.stderr and "symbolic links" in done.stderr, done.stderr
