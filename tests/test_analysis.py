"""Graph analysis: "Walls and paths" and "ADJACENT TILE" decide the edges; the checks name the tile."""

from __future__ import annotations

import json

import pytest

from cardrogue.engine.analysis.check import check_text
from cardrogue.engine.format.diagnostics import Severity


def cell(x, y, card, paths, face="down", **extra):
    return {"at": [x, y], "card": card, "paths": paths, "face": face, **extra}


def campaign(*levels, **top):
    doc = {"format": 1, "id": "t", "title": "T", "rules": "1.1.2", "seed": 1, "hero": {"character": "warrior"},
           "levels": list(levels)}
    doc.update(top)
    return doc


def level(level_id, width, height, cells, **extra):
    return {"id": level_id, "width": width, "height": height, "cells": cells, **extra}


def run(doc) -> list:
    text = json.dumps(doc, indent=1)
    return check_text(text, "t.json")


def codes(diags, severity=None):
    return [d.code for d in diags if severity is None or d.severity is severity]


CORRIDOR = [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "pathing-tile", "EW"), cell(2, 0, "pathing-tile", "W", exit=True)]


def test_clean_corridor_has_only_chokepoint_notes():
    diags = run(campaign(level("a", 3, 1, CORRIDOR)))
    assert codes(diags, Severity.ERROR) == [] and codes(diags, Severity.WARNING) == []
    assert [d.cell for d in diags if d.code == "CR307"] == [(1, 0)]


def test_wall_on_one_side_blocks_the_edge():
    """Walls and paths: a path that meets a wall is a wall, so the exit is cut off."""
    cells = [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "pathing-tile", "E"), cell(2, 0, "pathing-tile", "W", exit=True)]
    diags = run(campaign(level("a", 3, 1, cells)))
    exit_diag = next(d for d in diags if d.code == "CR301")
    assert exit_diag.severity is Severity.ERROR and exit_diag.cell == (2, 0) and exit_diag.level == 0
    assert exit_diag.json_path == "$.levels[0].cells[2]"
    assert exit_diag.line > 1


def test_unreachable_ladder_is_an_error():
    cells = CORRIDOR[:2] + [cell(1, 0, "pathing-tile", "EW")][:0] + [
        cell(2, 0, "pathing-tile", "W", exit=True), cell(0, 1, "descending-ladder", "E", to="b")]
    b = level("b", 2, 1, [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "pathing-tile", "W", exit=True)])
    diags = run(campaign(level("a", 3, 2, cells), b))
    assert "CR302" in codes(diags, Severity.ERROR)
    # and level b is then reached by no reachable ladder
    assert "CR310" in codes(diags, Severity.ERROR)


def test_unreachable_tile_is_a_warning():
    cells = CORRIDOR + [cell(0, 1, "goblin", "E")]
    diags = run(campaign(level("a", 3, 2, cells)))
    assert codes(diags, Severity.WARNING) == ["CR303"]
    assert next(d for d in diags if d.code == "CR303").cell == (0, 1)


def test_key_only_behind_its_own_chest():
    cells = [cell(0, 0, "starting-tile", "ES", "up"), cell(1, 0, "chest", "EW"), cell(2, 0, "key", "SW"),
             cell(2, 1, "pathing-tile", "N"), cell(0, 1, "pathing-tile", "N", exit=True)]
    diags = run(campaign(level("a", 3, 2, cells)))
    key_diag = next(d for d in diags if d.code == "CR304")
    assert key_diag.cell == (2, 0) and key_diag.severity is Severity.ERROR


def test_chest_with_no_key():
    cells = [cell(0, 0, "starting-tile", "ES", "up"), cell(1, 0, "chest", "W"), cell(0, 1, "pathing-tile", "N", exit=True)]
    diags = run(campaign(level("a", 2, 2, cells)))
    assert next(d for d in diags if d.code == "CR305").cell == (1, 0)


def test_key_carried_by_the_hero_opens_the_chest():
    cells = [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "chest", "EW"), cell(2, 0, "pathing-tile", "W", exit=True)]
    doc = campaign(level("a", 3, 1, cells))
    doc["hero"]["items"] = ["key"]
    assert codes(run(doc), Severity.ERROR) == []


def test_exit_behind_a_locked_chest_without_key_is_unreachable():
    cells = [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "chest", "EW"), cell(2, 0, "pathing-tile", "W", exit=True)]
    assert {"CR305", "CR301"} <= set(codes(run(campaign(level("a", 3, 1, cells))), Severity.ERROR))


def test_chokepoints_are_the_cells_every_route_passes():
    # start (0,1) -> a loop through (1,0)/(1,2) -> (2,1) is the only way to the exit (3,1)
    cells = [
        cell(0, 1, "starting-tile", "NS", "up"),
        cell(0, 0, "pathing-tile", "ES"), cell(1, 0, "pathing-tile", "SW"),
        cell(0, 2, "pathing-tile", "NE"), cell(1, 2, "pathing-tile", "NW"),
        cell(1, 1, "pathing-tile", "NES"), cell(2, 1, "pathing-tile", "EW"), cell(3, 1, "pathing-tile", "W", exit=True),
    ]
    diags = run(campaign(level("a", 4, 3, cells)))
    assert codes(diags, Severity.ERROR) == []
    assert sorted(d.cell for d in diags if d.code == "CR307") == [(1, 1), (2, 1)]


def test_level_that_cannot_reach_the_end():
    a = level("a", 2, 1, [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "descending-ladder", "W", to="b")])
    b = level("b", 2, 1, [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "pathing-tile", "W")])
    c = level("c", 1, 1, [cell(0, 0, "starting-tile", "", "up", exit=True)])
    diags = run(campaign(a, b, c))
    assert "CR311" in codes(diags, Severity.ERROR)  # from b nothing leads on
    # c is reached by no ladder: said at the cause, b, whose way down is gone (not as a CR310 of its own)
    assert "CR310" not in codes(diags, Severity.ERROR)
    assert [d.message for d in diags if d.code == "CR306"] == [
        "this level has neither a descending ladder nor an exit, so no ladder path from the first level reaches level 3 (c)"]


def test_no_way_on_says_what_to_do_about_the_level_it_names():
    """CR311's advice fits the level: a level without a way out is told to add one; one whose exit is
    walled off (CR301 beside it) to connect it; one whose ladders lead only to dead ends is told so. Before,
    every one was told `add a ladder or an exit`, which puzzled the walk of the tutorial (step 6): its
    level has an exit, walled off."""
    a = level("a", 2, 1, [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "descending-ladder", "W", to="b")])
    b = level("b", 2, 1, [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "pathing-tile", "W")])
    c = level("c", 1, 1, [cell(0, 0, "starting-tile", "", "up", exit=True)])  # the campaign's exit, out of reach
    said = {d.level: d.message for d in run(campaign(a, b, c)) if d.code == "CR311"}
    # a, whose ladders lead only to b, is said with b's (the dead end it leads to), not in one of its own
    assert said == {1: "no exit can be reached from this level: add a ladder or an exit; nor from level 1 (a), whose "
                       "ladders lead only to levels without one"}
    walled = {d.message for d in run(campaign(level("one", 2, 2, WALLED))) if d.code == "CR311"}
    assert walled == {"no exit can be reached from this level: its exit cannot be reached from the starting tile "
                      "(see CR301)"}


@pytest.mark.parametrize("allowed", [False, True])
def test_ladder_cycles_are_rejected_unless_allowed(allowed):
    a = level("a", 3, 1, [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "descending-ladder", "EW", to="b"),
                          cell(2, 0, "pathing-tile", "W", exit=True)])
    b = level("b", 2, 1, [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "descending-ladder", "W", to="a")])
    doc = campaign(a, b, allow_ladder_cycles=allowed) if allowed else campaign(a, b)
    diags = run(doc)
    assert ("CR312" in codes(diags, Severity.ERROR)) is not allowed
    if not allowed:
        d = next(d for d in diags if d.code == "CR312")
        assert "level 1 (a) -> level 2 (b) -> level 1 (a)" in d.message and d.json_path.endswith(".to")


def test_goal_card_out_of_reach():
    cells = CORRIDOR + [cell(0, 1, "goblin", "")]
    diags = run(campaign(level("a", 3, 2, cells, goals=[{"slay": "goblin"}])))
    assert "CR308" in codes(diags, Severity.ERROR)


# A wall between the start and the exit: the exit has no paths at all.
WALLED = [cell(0, 0, "starting-tile", "S", "up"), cell(0, 1, "pathing-tile", "N"), cell(1, 0, "pathing-tile", "", exit=True)]


def test_a_wall_blocks_a_hero_who_cannot_cross_it():
    diags = run(campaign(level("one", 2, 2, WALLED)))
    assert {"CR301", "CR311"} <= set(codes(diags, Severity.ERROR)) and "CR223" in codes(diags, Severity.WARNING)


def test_the_mages_spell_crosses_walls_so_no_reach_error_is_claimed():
    """The mage's SPELL (MOVE TO ANY ADJACENT TILE, project entry): any orthogonal neighbour, paths or not.
    The graph checks over-approximate his reach; the solver then decides (here: par 2, "spell E")."""
    doc = campaign(level("one", 2, 2, WALLED), hero={"character": "mage"})
    diags = run(doc)
    assert codes(diags, Severity.ERROR) == [] and "CR223" not in codes(diags)


def test_a_potion_of_teleportation_to_be_had_reaches_every_tile():
    """POTION OF TELEPORTATION: any revealed pathing tile of the level; a warrior who can get one is
    not told that a walled-off tile is unreachable."""
    cells = [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "purple-potion", "W"), cell(3, 0, "pathing-tile", "", exit=True),
             cell(3, 1, "goblin", "")]
    teleport = campaign(level("one", 4, 2, cells), potions={"purple": "teleportation"})
    assert codes(run(teleport), Severity.ERROR) == [] and "CR223" not in codes(run(teleport))
    healing = campaign(level("one", 4, 2, cells), potions={"purple": "healing"})
    assert "CR301" in codes(run(healing), Severity.ERROR) and codes(run(healing)).count("CR223") == 2


def test_pathless_warning_follows_wall_crossing_even_beside_an_error():
    """CR223 is decided from the hero's cards even when another error stops the campaign building."""
    broken = WALLED + [cell(1, 1, "no-such-card", "N")]
    warrior = run(campaign(level("one", 2, 2, broken)))
    assert "CR201" in codes(warrior, Severity.ERROR) and "CR223" in codes(warrior, Severity.WARNING)
    mage = run(campaign(level("one", 2, 2, broken), hero={"character": "mage"}))
    assert "CR201" in codes(mage, Severity.ERROR) and "CR223" not in codes(mage)


def test_a_starting_tile_without_paths_is_one_the_hero_cannot_leave():
    """CR223 on the starting tile (a level just added in the editor holds one, without paths): the hero
    stands there from the first turn, so it is not "never reached"; he can never leave it."""
    lonely = [cell(0, 0, "starting-tile", "", "up"), cell(1, 0, "pathing-tile", "", exit=True)]
    warnings = {(d.cell, d.message) for d in run(campaign(level("one", 2, 1, lonely))) if d.code == "CR223"}
    assert warnings == {((0, 0), "'starting-tile' has no paths: the hero can never leave it"),
                        ((1, 0), "'pathing-tile' has no paths: it can never be reached")}


def test_a_proof_from_another_level_names_that_level():
    """CR306, CR310 and CR311 say "this level" (their place names it): the solver's reason for a campaign
    that a later level blocks names that level, where "this level" would mean the one solved."""
    from cardrogue.engine.analysis.solver import Budget, solve_campaign, solve_level
    from cardrogue.engine.format.loader import load_campaign_text

    a = level("a", 2, 1, [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "descending-ladder", "W", to="b")])
    b = level("b", 2, 1, [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "pathing-tile", "W")])
    c = level("c", 1, 1, [cell(0, 0, "starting-tile", "", "up", exit=True)])
    loaded = load_campaign_text(json.dumps(campaign(a, b, c)), "blocked.json").campaign
    whole = solve_campaign(loaded, Budget(max_states=5000, max_seconds=3600))
    assert whole.verdict == "unsolvable" and whole.reason == (
        "no way out can be reached: on level 2 (b): this level has neither a descending ladder nor an exit, so no "
        "ladder path from the first level reaches level 3 (c)"), whole.reason
    alone = solve_level(loaded, 1, Budget(max_states=5000, max_seconds=3600))
    assert alone.reason == ("no way out can be reached: this level has neither a descending ladder nor an exit, so no "
                            "ladder path from the first level reaches level 3 (c)")


def test_level_messages_name_the_level_as_the_author_knows_it():
    """CR302, CR311 and CR312 named a level by its id alone ('crypt'), which the editor's level list does not
    show when the level has a title: they name it by its number, title and id, `level 2 "The Crypt" (crypt)`,
    and an untitled level by its number and id."""
    hall = level("hall", 3, 2, [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "pathing-tile", "W"),
                                cell(2, 1, "descending-ladder", "W", to="crypt")], title="The Hall")
    crypt = level("crypt", 2, 1, [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "pathing-tile", "W", exit=True)],
                  title="The Crypt")
    said = {d.code: d.message for d in run(campaign(hall, crypt))}
    assert said["CR302"] == ('the ladder at (2, 1) to level 2 "The Crypt" (crypt) cannot be reached from the starting '
                             "tile at (0, 0); connect their paths")
    back = level("hall", 2, 1, [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "descending-ladder", "W", to="crypt")],
                 title="The Hall")
    crypt_out = level("crypt", 3, 1, [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "descending-ladder", "EW", to="hall"),
                                      cell(2, 0, "pathing-tile", "W", exit=True)])
    said = {d.code: d.message for d in run(campaign(back, crypt_out))}
    assert said["CR312"].startswith('ladders form a cycle (level 1 "The Hall" (hall) -> level 2 (crypt) -> '
                                    'level 1 "The Hall" (hall))')
    dead = level("crypt", 2, 1, [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "pathing-tile", "W")], title="The Crypt")
    walled = level("walled", 1, 1, [cell(0, 0, "starting-tile", "", "up", exit=True)])  # the campaign's exit, out of reach
    said = [d.message for d in run(campaign(back, dead, walled)) if d.code == "CR311"]
    assert said == ['no exit can be reached from this level: add a ladder or an exit; nor from level 1 "The Hall" '
                    '(hall), whose ladders lead only to levels without one']


def test_an_unreachable_ladder_says_what_to_do_and_its_level_where_it_is():
    """Seen in the editor at 120x40 (walk20): a ladder placed with no paths was told only that it 'cannot be
    reached from the starting tile' (CR301 says 'connect their paths'), and the level it leads to was told
    'no ladder path from the first level leads to it' (CR310), and the editor's 'press t on a descending
    ladder and choose this level', though a ladder led there already: CR310 now names that ladder."""
    cells = CORRIDOR + [cell(1, 1, "descending-ladder", "", to="crypt")]
    crypt = level("crypt", 2, 1, [cell(0, 0, "starting-tile", "E", "up"), cell(1, 0, "pathing-tile", "W", exit=True)],
                  title="The Crypt")
    said = {d.code: d.message for d in run(campaign(level("hall", 3, 2, cells, title="The Hall"), crypt))}
    assert said["CR302"] == ('the ladder at (1, 1) to level 2 "The Crypt" (crypt) cannot be reached from the starting '
                             "tile at (0, 0); connect their paths")
    assert said["CR310"] == ('this level cannot be reached: the ladder to it at (1, 1) on level 1 "The Hall" (hall) '
                             "cannot be reached (see CR302)")
