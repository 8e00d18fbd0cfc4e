"""Every value of a campaign given a wrong type is a located problem, never an exception.

A level's ``"hero": "x"``, a card ``"kind": "enemey"`` or abilities ``3`` once made ``check``, the editor and
every command fail with ``internal error: AttributeError`` / ``ValueError`` (the loader built its model from
a shape the schema had not vouched for). This sweep sets each value of a bundled campaign (with a practice
hero added to its first level) in turn to ten values of other types, and holds the check to its promise:
no exception, and every problem placed on a line of the file."""

from __future__ import annotations

import copy
import json
from importlib.resources import files
from pathlib import Path

from cardrogue.engine.analysis.check import check_text
from cardrogue.engine.format.diagnostics import Severity

WRONG = (None, True, 0, -1, 1.5, "x", [], [1], {}, {"a": 1})


def _paths(value, path=()):
    """Every place in a JSON document: its objects' keys and its lists' items, the root aside."""
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return
    for key, item in items:
        yield (*path, key)
        yield from _paths(item, (*path, key))


def _set(doc, path, value):
    for key in path[:-1]:
        doc = doc[key]
    doc[path[-1]] = value


def _campaign() -> dict:
    doc = json.loads((Path(str(files("cardrogue.campaigns"))) / "two-knives.json").read_text())
    start = next(cell["at"] for cell in doc["levels"][0]["cells"] if cell["card"] == "starting-tile")
    doc["levels"][0]["hero"] = {"at": start, "health": 5, "items": [], "equipped": []}
    return doc


def test_every_value_of_a_wrong_type_is_a_located_problem_never_an_exception() -> None:
    base = _campaign()
    assert not [d for d in check_text(json.dumps(base, indent=2)) if d.severity is Severity.ERROR]
    paths = list(_paths(base))
    assert len(paths) > 100  # the sweep reaches the hero, the cards, their abilities, the cells
    swept = 0
    for path in paths:
        original = base
        for key in path:
            original = original[key]
        for wrong in WRONG:
            if type(wrong) is type(original) and wrong == original:
                continue
            doc = copy.deepcopy(base)
            _set(doc, path, wrong)
            text = json.dumps(doc, indent=2)
            try:
                found = check_text(text, "swept.json")
            except Exception as exc:  # the promise under test: no command ever shows this
                raise AssertionError(f"{path} = {wrong!r}: {type(exc).__name__}: {exc}") from exc
            assert all(d.line >= 1 for d in found), (path, wrong, [d.render() for d in found if d.line < 1])
            swept += 1
    assert swept > 1000
