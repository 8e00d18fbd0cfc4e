"""One home for each rule of the format (issue 12): every semantic check (CR2xx) is one function
in ``engine/format/checks/``, which the loader and the editor's edits both call, so a rule has
one code and one message wherever it is broken."""

from __future__ import annotations

import ast
import functools
import json
import re
from collections import defaultdict
from pathlib import Path

import pytest

from cardrogue.editor import edits
from cardrogue.engine.format.checks import RuleError
from cardrogue.engine.format.loader import load_campaign_text
from cardrogue.engine.model.campaign import LevelHero

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = [p for folder in ("engine", "cli", "editor") for p in sorted((ROOT / folder).rglob("*.py"))]
CHECKS = ROOT / "engine" / "format" / "checks"
TINY = json.loads((ROOT / "tests" / "corpus" / "valid" / "tiny.json").read_text(encoding="utf-8"))
SEMANTIC_CODE = re.compile(r"CR2\d\d")


def _template(node: ast.expr) -> str | None:
    """A message as written: a string, or an f-string with ``{}`` for each value."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def _string_parts(tree: ast.AST) -> set[str]:
    """Every literal piece of text in a module, f-strings split at their values."""
    parts = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            parts.add(node.value)
    return parts


@functools.cache
def _tree(path: Path) -> ast.Module:
    """The module at ``path``, parsed once for this process (the scans below only read it; the sources do not change
    while the tests run)."""
    return ast.parse(path.read_text(encoding="utf-8"))


def _code_sites() -> dict[tuple[str, str], list[str]]:
    """(code, message template) -> where it is written, for every CR2xx code in the package."""
    sites: dict[tuple[str, str], list[str]] = defaultdict(list)
    for path in PACKAGE:
        tree = _tree(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and SEMANTIC_CODE.fullmatch(node.value):
                sites[(node.value, "")].append(f"{path.relative_to(ROOT)}:{node.lineno}")
            if isinstance(node, ast.Call) and len(node.args) >= 2:
                code = node.args[0]
                if isinstance(code, ast.Constant) and isinstance(code.value, str) and SEMANTIC_CODE.fullmatch(code.value):
                    message = _template(node.args[1])
                    sites[(code.value, message or "?")].append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return sites


def _phrased_sites() -> set[str]:
    """Where ``editor/phrasing.py`` names codes as the keys of ``PHRASES`` and ``PLACED_PHRASES`` (code and
    part): the editor's own words for a problem the checks find (it says how to fix it with the editor's
    keys), not a rule of the format."""
    path = ROOT / "editor" / "phrasing.py"
    tables = [node for node in ast.walk(_tree(path))
              if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", None) in ("PHRASES", "PLACED_PHRASES")]
    if len(tables) != 2:
        raise AssertionError("editor/phrasing.py has no PHRASES and PLACED_PHRASES tables: the scan is broken")
    return {f"{path.relative_to(ROOT)}:{key.lineno}" for table in tables for key in table.value.keys}


def test_every_semantic_code_is_written_only_in_the_checks() -> None:
    sites = _code_sites()
    assert sites, "no CR2xx code found: the scan is broken"
    checks, phrased = str(CHECKS.relative_to(ROOT)), _phrased_sites()
    outside = [where for places in sites.values() for where in places
               if not where.startswith(checks) and where not in phrased]
    assert outside == [], f"a CR2xx code outside engine/format/checks: {outside}"


def _graph_codes() -> set[str]:
    """The CR3xx codes the route checks write (``Diagnostic("CR3..", ...)`` in engine/analysis/graph.py, and the
    gold count's CR309 in engine/analysis/gold.py)."""
    codes = set()
    for name in ("graph.py", "gold.py"):
        tree = _tree(ROOT / "engine" / "analysis" / name)
        codes |= {node.args[0].value for node in ast.walk(tree)
                  if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Diagnostic" and node.args
                  and isinstance(node.args[0], ast.Constant) and re.fullmatch(r"CR3\d\d", str(node.args[0].value))}
    return codes


def test_the_editor_phrases_only_codes_the_checks_write() -> None:
    """A phrase is for a code some check writes: the format's (CR2xx, engine/format/checks) or the route checks'
    (CR3xx, engine/analysis/graph.py, such as CR306 and CR310 after a level is added, and gold.py's CR309)."""
    from cardrogue.editor.phrasing import PHRASES, PLACED_PHRASES

    graph = _graph_codes()
    assert {"CR301", "CR306", "CR309", "CR310"} <= graph, "the scan of the route checks is broken"
    written = {code for (code, _), places in _code_sites().items() if any(p.startswith(str(CHECKS.relative_to(ROOT)))
                                                                      for p in places)} | graph
    from cardrogue.engine.format.schema import KEYWORD_CODES

    # the schema's misspelt key and goal verb (a draft's, mended by enter and g), a roll out of 1 to 6, paths out of order
    written |= {"CR103", "CR105", "CR106", "CR110"} & set(KEYWORD_CODES.values())
    phrased = set(PHRASES) | {code for code, _ in PLACED_PHRASES}
    assert phrased <= written, sorted(phrased - written)


def test_no_semantic_message_is_defined_twice() -> None:
    messages = {key: places for key, places in _code_sites().items() if key[1]}
    twice = {key: places for key, places in messages.items() if len(places) > 1}
    assert twice == {}, f"a CR2xx message written in more than one place: {twice}"
    # Nor copied without its code: no other module holds a piece of a rule's text.
    pieces = {part.strip() for (_, message) in messages for part in message.split("{}") if len(part.strip()) >= 16}
    assert len(pieces) > 20
    for path in PACKAGE:
        if CHECKS in path.parents:
            continue
        copied = pieces & {p.strip() for p in _string_parts(_tree(path))}
        assert not copied, f"{path.relative_to(ROOT)} repeats the text of a rule: {sorted(copied)}"


def test_the_scan_finds_a_copied_message(tmp_path: Path) -> None:
    """The test above can fail: a module repeating a rule's text is caught."""
    messages = {key for key in _code_sites() if key[1]}
    piece = next(part for (code, message) in messages if code == "CR216"
                 for part in message.split("{}") if len(part.strip()) >= 16).strip()
    copy = ast.parse(f"raise ValueError(f'new card {{x}}{piece}')")
    assert piece in {p.strip() for p in _string_parts(copy)}


def _loaded(change) -> list:
    data = json.loads(json.dumps(TINY))
    change(data)
    return [(d.code, d.message) for d in load_campaign_text(json.dumps(data), "t.json").diagnostics]


def _refused(edit) -> tuple[str, str]:
    campaign = load_campaign_text(json.dumps(TINY), "t.json").campaign
    with pytest.raises(RuleError) as caught:
        edit(campaign)
    return caught.value.diagnostic.code, caught.value.diagnostic.message


@pytest.mark.parametrize("name", ["new enemy", "ability", "kind change", "potions", "hero", "level hero", "goal",
                                  "stock"])
def test_loader_and_edit_report_a_rule_alike(name: str) -> None:
    cases = {
        "new enemy": (lambda d: d.setdefault("cards", {}).update({"rat": {"name": "Rat", "kind": "enemy"}}),
                      lambda c: edits.card_entry(c, "rat", {"name": "Rat", "kind": "enemy"})),
        "ability": (lambda d: d.setdefault("cards", {}).update({"goblin": {"abilities": ["FLIES AWAY"]}}),
                    lambda c: edits.card_entry(c, "goblin", {"abilities": ["FLIES AWAY"]})),
        "kind change": (lambda d: d.setdefault("cards", {}).update({"goblin": {"kind": "weapon"}}),
                        lambda c: edits.card_entry(c, "goblin", {"kind": "weapon"})),
        "potions": (lambda d: d.update(potions={"red": "healing", "blue": "healing"}),
                    lambda c: edits.set_potions(c, {"red": "healing", "blue": "healing"})),
        "hero": (lambda d: d["hero"].update(character="goblin"),
                 lambda c: edits.set_hero_checked(c, "goblin", (), ())),
        "level hero": (lambda d: d["levels"][0].update(hero={"equipped": ["red-potion"]}),
                       lambda c: edits.set_level_hero(c, 0, LevelHero(equipped=("red-potion",)))),
        "goal": (lambda d: d["levels"][0].update(goals=[{"slay": "dagger"}]),
                 lambda c: edits.add_goal(c, 0, "slay", "dagger")),
        "stock": (lambda d: d["levels"][1]["cells"].append({"at": [1, 1], "card": "shop", "paths": "N",
                                                             "face": "down", "stock": ["goblin"]}),
                  lambda c: edits.set_cell_items(edits.place_card(c, 1, 1, 1, "shop"), 1, 1, 1, ["goblin"])),
    }
    change, edit = cases[name]
    assert _refused(edit) in _loaded(change)


def test_a_card_entry_only_warned_of_is_kept_by_the_loader_and_the_edit() -> None:
    """CR229 (throwable on a card that is not a potion) is a warning: the card entry still defines its card in the
    loader, and the card form's edit is not refused; both list the warning. (The loader dropped an entry with any
    diagnostic, so a new throwable item was an unknown card, CR201, wherever it was named.)"""
    doc = json.loads(json.dumps(TINY))
    doc["cards"] = {"net": {"name": "Net", "kind": "item", "gold": 2, "throwable": True}}
    doc["hero"]["items"] = ["dagger", "net"]
    result = load_campaign_text(json.dumps(doc), "net.json")
    assert result.campaign is not None and [d.code for d in result.diagnostics] == ["CR229"]
    assert result.campaign.cards["net"].throwable
    entry = edits.card_entry(result.campaign, "net", {"name": "Net", "kind": "item", "gold": 2, "throwable": True})
    assert entry["throwable"] is True
