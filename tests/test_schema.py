"""The published schemas (issue: "the schemas against the Draft 2020-12 metaschema and an
independent validator, which must agree with the project's verdicts").

The project decides validity with fastjsonschema (compiled, fast) and reports with
jsonschema's Draft 2020-12 implementation; here jsonschema also plays the
independent validator, checked against the project's verdict on every corpus file,
on the valid samples and on random variations of a valid campaign.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import fastjsonschema
import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from referencing import Registry, Resource

from helpers import FIXTURE

from cardrogue.engine.format.loader import valid_draft, build_draft, load_campaign
from cardrogue.engine.format.resources import SCHEMA_BASE, catalog_path, default_campaign, load_schema, schema_path
from cardrogue.engine.format.schema import (SCHEMAS, campaign_validators, fast_validator, is_plain_cell, is_valid,
                                            reference_validator, schema_diagnostics)

CORPUS = Path(__file__).parent / "corpus"
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"


def _independent(name: str) -> jsonschema.Draft202012Validator:
    """A plain Draft 2020-12 validator over the shipped files, sharing nothing with the project's."""
    schemas = {n: json.loads(schema_path(n).read_text(encoding="utf-8")) for n in SCHEMAS}
    registry = Registry().with_resources((SCHEMA_BASE + n, Resource.from_contents(s)) for n, s in schemas.items())
    return jsonschema.Draft202012Validator(schemas[name], registry=registry)


INDEPENDENT = {name: _independent(name) for name in SCHEMAS}


# --------------------------------------------------------------------------- the schemas themselves


@pytest.mark.parametrize("name", SCHEMAS)
def test_schema_is_valid_draft_2020_12(name: str) -> None:
    schema = load_schema(name)
    assert schema["$schema"] == DRAFT_2020_12
    jsonschema.Draft202012Validator.check_schema(schema)
    assert jsonschema.validators.validator_for(schema) is jsonschema.Draft202012Validator


@pytest.mark.parametrize("name", SCHEMAS)
def test_schema_has_id_title_and_description(name: str) -> None:
    schema = load_schema(name)
    assert schema["$id"] == SCHEMA_BASE + name
    assert schema["title"].strip() and schema["description"].strip()
    for def_name, definition in schema.get("$defs", {}).items():
        assert definition.get("description", "").strip(), f"$defs/{def_name} has no description"


def _properties(node: Any, where: str = "#") -> Iterator[tuple[str, Any]]:
    """Every entry of every "properties" object anywhere in a schema, with its JSON pointer."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                for prop, sub in value.items():
                    yield f"{where}/properties/{prop}", sub
            yield from _properties(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _properties(value, f"{where}/{i}")


@pytest.mark.parametrize("name", SCHEMAS)
def test_every_property_has_a_description(name: str) -> None:
    props = list(_properties(load_schema(name)))
    assert len(props) > 10
    missing = [where for where, sub in props if not (isinstance(sub, dict) and str(sub.get("description", "")).strip())]
    assert missing == []


def test_default_catalog_follows_its_schema() -> None:
    catalog = json.loads(catalog_path().read_text(encoding="utf-8"))
    assert is_valid(catalog, "cards.schema.json")
    assert INDEPENDENT["cards.schema.json"].is_valid(catalog)


# --------------------------------------------------------------------------- verdicts agree


def _documents() -> list[tuple[str, str]]:
    """The corpus files that are JSON (the others never reach a schema), and the valid samples."""
    files = sorted((CORPUS / "broken").glob("[0-9]*.json")) + [CORPUS / "valid" / "tiny.json", default_campaign()]
    return [(p.name, str(p)) for p in files if load_campaign(p).data is not None]


@pytest.mark.parametrize("name, path", _documents(), ids=[n for n, _ in _documents()])
def test_fast_reference_and_independent_validators_agree(name: str, path: str) -> None:
    result = load_campaign(path)
    data = result.data
    fast = _fast_verdict(data)
    independent = INDEPENDENT["campaign.schema.json"].is_valid(data)
    assert independent == (not any(INDEPENDENT["campaign.schema.json"].iter_errors(data)))
    project = reference_validator("campaign.schema.json").is_valid(data)
    refused = any(d.code.startswith("CR1") or d.code == "CR005" for d in result.diagnostics)
    # Includes 29-id-ends-in-newline.json: the schema's patterns end in "(?![\s\S])", which
    # Python and ECMA-262 regular expressions read alike (a "$" would not).
    assert fast == project == independent == (not refused) == _split_verdict(data)


def _split_verdict(data: Any) -> bool:
    """The loader's verdict: the document apart from its cells, then each cell as it is built."""
    draft = valid_draft(data)
    if draft is not None:
        assert draft == build_draft(data)
    return draft is not None


def _fast_verdict(data: Any) -> bool:
    try:
        fast_validator("campaign.schema.json")(data)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def test_the_corpus_exercises_both_verdicts() -> None:
    verdicts = {INDEPENDENT["campaign.schema.json"].is_valid(r.data)
                for _, p in _documents() for r in [load_campaign(p)]}
    assert verdicts == {True, False}


_TINY = json.loads((CORPUS / "valid" / "tiny.json").read_text(encoding="utf-8"))
_LEAVES = (st.none() | st.booleans() | st.integers(-2, 300) | st.floats(allow_nan=False, allow_infinity=False)
           | st.sampled_from(["", "top", "Top", "goblin", "NESW", "WE", "up", "1.0", "x" * 130, "healing"]))
_VALUES = st.recursive(_LEAVES, lambda inner: st.lists(inner, max_size=3)
                       | st.dictionaries(st.sampled_from(["slay", "open", "at", "card", "x", "Big Rat", "name"]),
                                         inner, max_size=2), max_leaves=5)


def _paths(value: Any, prefix: tuple = ()) -> Iterator[tuple]:
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


_PLACES = [p for p in _paths(_TINY) if p] + [("cards", "goblin"), ("cards", "Big Rat"), ("potions",),
                                             ("levels", 0, "goals"), ("par",)]


@st.composite
def _variant(draw) -> Any:
    data = json.loads(json.dumps(_TINY))
    path = draw(st.sampled_from(_PLACES))
    node = data
    for part in path[:-1]:
        node = node.setdefault(part, {}) if isinstance(node, dict) else node[part]
    node[path[-1]] = draw(_VALUES)
    return data


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_variant())
def test_validators_agree_on_random_variants(data: Any) -> None:
    independent = INDEPENDENT["campaign.schema.json"].is_valid(data)
    assert _fast_verdict(data) == independent == is_valid(data, "campaign.schema.json") == _split_verdict(data)
    assert reference_validator("campaign.schema.json").is_valid(data) == independent


_COORDINATES = st.sampled_from([0, 1, 2, 255, 256, -1, 0.0, 3.0, 2.5, True, False, None, "1"]) | st.integers(-300, 300)
# Cells at the edges of the loader's own acceptance of plain cells (PLAIN_CELL_KEYS) and of the schema.
_CELL_VALUES = {
    "at": st.lists(_COORDINATES, min_size=2, max_size=2) | st.lists(_COORDINATES, max_size=3)
          | st.sampled_from(["10", None, {"x": 1}]),
    "card": st.sampled_from(["goblin", "pathing-tile", "Goblin", "-goblin", "goblin\n", "a" * 64, "a" * 65, "", "0",
                             "gob lin", "é", 7, None, ["goblin"], True]),
    "paths": st.sampled_from(["", "N", "NE", "EN", "NESW", "NESWN", "W", "SW", "WS", "n", "N\n", None, 1, ["N"], True]),
    "face": st.sampled_from(["up", "down", "Up", "", None, True, 1, ["up"]]),
    "id": st.sampled_from(["a-b", "A", "x" * 65]),
    "to": st.sampled_from(["bottom", "Bottom", 3]),
    "exit": st.sampled_from([True, 1, "true"]),
    "rolls": st.sampled_from([[1, 6], [0], [7], []]),
    "stock": st.sampled_from([["dagger"], ["Dagger"], []]),
    "contents": st.sampled_from([["dagger"], [1]]),
    "inscription": st.sampled_from(["hi", 1]),
    "colour": st.just("red"),
}


@st.composite
def _cell_variant(draw) -> Any:
    """The tiny campaign with one cell replaced: mostly plain keys, sometimes more, sometimes not a cell."""
    data = json.loads(json.dumps(_TINY))
    keys = draw(st.lists(st.sampled_from(["at", "card", "paths", "face"]), unique=True, min_size=0, max_size=4))
    if draw(st.integers(0, 4)) == 0:
        keys += draw(st.lists(st.sampled_from(sorted(_CELL_VALUES)), unique=True, max_size=2))
    cell = {"at": [1, 0], "card": "goblin"}
    cell.update({k: draw(_CELL_VALUES[k]) for k in keys})
    if draw(st.integers(0, 9)) == 0:
        cell = draw(st.sampled_from([None, [], "cell", 1, [cell]]))
    level = draw(st.sampled_from([0, 1]))
    data["levels"][level]["cells"][1] = cell
    return data


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_cell_variant())
def test_the_loaders_cell_by_cell_verdict_is_the_schemas(data: Any) -> None:
    """The loader validates cells while it builds them (a plain cell by its own test, any other by the
    compiled cell validator) and the rest of the document with a validator that skips the cells:
    the verdict is the whole schema's, and the model the one built from a valid document."""
    independent = INDEPENDENT["campaign.schema.json"].is_valid(data)
    assert _split_verdict(data) == independent == _fast_verdict(data)


_CELL_REFERENCE = jsonschema.Draft202012Validator(json.loads(schema_path("campaign.schema.json").read_text())["$defs"]["cell"])


@st.composite
def _cell(draw) -> Any:
    """A cell that is mostly plain and mostly valid, wrong in one or two places."""
    keys = [k for k in ("at", "card") if draw(st.integers(0, 9))]  # each missing one time in ten
    keys += draw(st.lists(st.sampled_from(["paths", "face"]), unique=True))
    if draw(st.integers(0, 5)) == 0:
        keys += draw(st.lists(st.sampled_from(sorted(_CELL_VALUES)), unique=True, max_size=2))
    good = {"at": [3, 4], "card": "goblin", "paths": "NE", "face": "up"}
    return {k: draw(_CELL_VALUES[k]) if k not in good or draw(st.booleans()) else good[k] for k in keys}


# The edges of the loader's own acceptance, each once for certain.
_EDGE_CELLS = [{"at": at, "card": "goblin"} for at in ([255, 255], [256, 0], [0, 256], [-1, 0], [0, -1], [True, 0],
                                                      [0, False], [0.0, 0], [1, 2, 3], [1], [], "1,2", None)]
_EDGE_CELLS += [{"at": [0, 0], "card": card} for card in ("a" * 64, "a" * 65, "goblin\n", "-x", "Goblin", "", 1, None)]
_EDGE_CELLS += [{"at": [0, 0], "card": "goblin", "paths": p} for p in ("", "NESW", "EN", "NN", "N\n", None, ["N"])]
_EDGE_CELLS += [{"at": [0, 0], "card": "goblin", "face": f} for f in ("up", "down", None, "Up", True)]
_EDGE_CELLS += [{"at": [0, 0]}, {"card": "goblin"}, {"at": [0, 0], "card": "goblin", "id": "x"}, [], "cell", None]


@pytest.mark.parametrize("cell", _EDGE_CELLS, ids=[json.dumps(c)[:40] for c in _EDGE_CELLS])
def test_the_loaders_own_acceptance_at_its_edges(cell: Any) -> None:
    _hold_cell_to_the_schema(cell)


@settings(max_examples=1500, deadline=None)
@given(_cell())
def test_a_cell_the_loader_accepts_by_itself_follows_the_schema(cell: dict) -> None:
    """The loader's own acceptance of plain cells is a subset of the cell's schema, and with the compiled
    cell validator for the rest its verdict is the schema's; a valid plain cell never needs the validator."""
    _hold_cell_to_the_schema(cell)


def _hold_cell_to_the_schema(cell: Any) -> None:
    from cardrogue.engine.format import loader
    from cardrogue.engine.format.schema import PLAIN_CELL_KEYS

    document, cell_validator = campaign_validators()
    asked = []

    def validate_cell(value: Any) -> Any:
        asked.append(value)
        return cell_validator(value)

    doc = json.loads(json.dumps(_TINY))
    doc["levels"][0]["cells"][1] = cell  # the document is valid exactly when this cell is
    original = loader.campaign_validators
    loader.campaign_validators = lambda: (document, validate_cell)
    try:
        accepted = loader.valid_draft(doc) is not None
    finally:
        loader.campaign_validators = original
    valid = _CELL_REFERENCE.is_valid(cell)
    assert accepted == valid
    plain = isinstance(cell, dict) and cell.keys() <= PLAIN_CELL_KEYS and valid and _plainly_valid(cell)
    assert any(a is cell for a in asked) == (not plain)
    assert is_plain_cell(cell) == plain  # the report's walk passes over the cells the loader accepts by itself


def _plainly_valid(cell: dict) -> bool:
    """What the loader accepts by itself, spelled out for a valid cell: whole numbers that are no booleans."""
    return all(type(v) is int for v in cell["at"])


def test_the_split_validators_are_the_schema() -> None:
    """The document part accepts anything in a level's cell list and refuses the rest as the whole schema
    does; the cell part is the cell's definition."""
    document, cell = campaign_validators()
    doc = json.loads(json.dumps(_TINY))
    doc["levels"][0]["cells"] = [1, "x", {"at": "anywhere"}]
    assert document(doc) is doc
    with pytest.raises(fastjsonschema.JsonSchemaException):
        document({**_TINY, "format": 2})
    with pytest.raises(fastjsonschema.JsonSchemaException):
        document({**_TINY, "levels": [{**_TINY["levels"][0], "cells": "none"}]})
    good = {"at": [0, 0], "card": "goblin", "paths": "NESW", "face": "up", "inscription": "hi", "exit": True}
    assert cell(good) is good
    for bad in ({"at": [0, 256], "card": "goblin"}, {"card": "goblin"}, {**good, "colour": "red"}, [good]):
        with pytest.raises(fastjsonschema.JsonSchemaException):
            cell(bad)
    assert _split_verdict(_TINY) and not _split_verdict({**_TINY, "format": 2})


# ------------------------------------------------------------------------------------------ start-up


def test_a_valid_campaign_is_checked_without_importing_jsonschema():
    """jsonschema (a tenth of a second to import) is for the report on an invalid file only."""
    code = ("import sys; from cardrogue.engine.format.loader import load_campaign; "
            "from cardrogue.engine.format.resources import default_campaign; "
            "r = load_campaign(default_campaign()); assert r.campaign is not None; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('jsonschema', 'referencing')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_compiled_validator_is_kept_between_processes(tmp_path, monkeypatch):
    """The first process compiles the schema and keeps it; the next loads it without compiling; a
    damaged cache file is compiled again, with the same verdicts."""
    monkeypatch.setenv("CARDROGUE_CACHE", str(tmp_path))
    valid = json.loads(FIXTURE.read_text(encoding="utf-8"))
    fast_validator.cache_clear()
    first = fast_validator("campaign.schema.json")
    [kept] = tmp_path.glob("campaign.schema-*.marshal")

    def no_compiling(*args, **kwargs):
        raise AssertionError("compiled again although the cache holds it")

    fast_validator.cache_clear()
    with monkeypatch.context() as m:
        m.setattr(fastjsonschema, "compile_to_code", no_compiling)
        second = fast_validator("campaign.schema.json")
    assert second is not first and second(valid) == valid
    kept.write_bytes(b"not marshal data")
    fast_validator.cache_clear()
    third = fast_validator("campaign.schema.json")
    assert third(valid) == valid and not is_valid({"format": "one"}, "campaign.schema.json")
    fast_validator.cache_clear()


def test_a_changed_schema_file_is_compiled_again(tmp_path, monkeypatch):
    """The cache is keyed by the schema files' bytes (read, not parsed, at every start): a schema
    edited by a single byte has no compiled validator yet."""
    from cardrogue.engine.format import schema as schema_module

    monkeypatch.setenv("CARDROGUE_CACHE", str(tmp_path / "cache"))
    fast_validator.cache_clear()
    fast_validator("campaign.schema.json")
    copies = tmp_path / "schemas"
    copies.mkdir()
    for name in SCHEMAS:
        (copies / name).write_bytes(schema_path(name).read_bytes())
    (copies / "cards.schema.json").write_bytes(schema_path("cards.schema.json").read_bytes() + b"\n")
    monkeypatch.setattr(schema_module, "schema_path", lambda name: copies / name)
    fast_validator.cache_clear()
    fast_validator("campaign.schema.json")
    assert len(list((tmp_path / "cache").glob("campaign.schema-*.marshal"))) == 2
    fast_validator.cache_clear()


def test_one_wrong_cell_among_many_is_reported_without_the_reference_walking_the_others() -> None:
    """A 15 MB campaign of 196,000 cells with one wrong cell took `check` 39 s of CPU (the clean file 1.7 s):
    the reference validator, which words the report, walked every cell. It passes over the cells the loader
    accepts by itself now (each checked there all the same): the report costs what the document's load does."""
    data = json.loads(json.dumps(_TINY))
    level = data["levels"][0]
    level["width"] = level["height"] = 200
    taken = {tuple(c["at"]) for c in level["cells"]}
    level["cells"] += [{"at": [x, y], "card": "pathing-tile", "paths": "NESW", "face": "down"}
                       for y in range(200) for x in range(150) if (x, y) not in taken]
    assert valid_draft(data) is not None
    level["cells"][-1]["paths"], level["cells"][-2]["face"] = "SN", "sideways"
    # Counted in the reference's steps into a value (its ``descend``), not in seconds: a timed assert is at the
    # mercy of a loaded machine's clocks and collector.
    descents = [0]

    def count(frame, event, arg) -> None:
        if event == "call" and frame.f_code.co_name == "descend":
            descents[0] += 1

    sys.setprofile(count)
    try:
        found = list(schema_diagnostics(data, "campaign.schema.json"))
    finally:
        sys.setprofile(None)
    last = len(level["cells"]) - 1
    assert [(d.code, d.path) for d in found] == [("CR104", ("levels", 0, "cells", last - 1, "face")),
                                                 ("CR105", ("levels", 0, "cells", last, "paths"))]
    # The two wrong cells and their fields, the levels and the document's other members: not 196,000 cells.
    assert descents[0] < 1000, descents[0]


def test_the_known_keys_a_draft_holds_others_beside_are_the_schemas() -> None:
    """engine/format/schema.py's KNOWN_KEYS (what a draft keeps a misspelt key beside, as written) are the
    schema's properties of each object."""
    from cardrogue.engine.format.resources import load_schema
    from cardrogue.engine.format.schema import KNOWN_KEYS

    schema = load_schema("campaign.schema.json")
    level = schema["$defs"]["level"]["properties"]
    assert KNOWN_KEYS == {
        "campaign": set(schema["properties"]), "par": set(schema["properties"]["par"]["properties"]),
        "hero": set(schema["properties"]["hero"]["properties"]), "level": set(level),
        "level hero": set(level["hero"]["properties"]), "cell": set(schema["$defs"]["cell"]["properties"])}
