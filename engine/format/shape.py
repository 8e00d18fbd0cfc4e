"""The campaign's shape: what a document needs for the loader to build a model of it at all.

A document with schema errors still becomes a draft (the editor opens it, its problems
listed) when every value the model holds as a structure has that structure: levels of
cells placed at two whole numbers, card ids and level ids as text, the hero as an object,
... A value the model holds as written (a seed written as text, a title too long, paths out
of order, a roll of seven, a face written "upp", a card's kind "enemey", a goal's verb "slayy") does not stop it: it is
saved back as it was, and its schema error stays in the problems panel until it is fixed.

What stops it is what a draft cannot hold without losing it: a missing required property
(CR102), an unknown property where the model has no place for it (CR103; a misspelt key of the campaign, its
hero, par, a level, a cell or a card definition is kept as written), or a wrong type where the model needs a structure; and a grid side over :data:`DRAFT_SIDE`, which no editor could show.
"""

from __future__ import annotations

from typing import Any, Iterable

from .diagnostics import Diagnostic

# Schema codes a draft cannot hold: nothing to hold for a missing property. An unknown property (CR103, a
# misspelt key) is held as written where the model keeps an object's others (:func:`_holds_unknown`).
_UNREPRESENTABLE = frozenset({"CR102"})
_REQUIRED = ("format", "id", "title", "rules", "seed", "hero", "levels")
_TEXTS = ("$schema", "id", "title", "author", "description", "kind", "rules", "story")
# The longest grid side a draft holds: four times the format's largest (256, CR106), so a grid a
# little too large opens in the editor to be fixed, and one whose map could not be drawn in
# bounded time (100000 × 100000 places) is refused with its CR106.
DRAFT_SIDE = 1024


def has_campaign_shape(data: Any, schema_errors: Iterable[Diagnostic] = ()) -> bool:
    """True when :func:`.loader.build_draft` can build a model of ``data`` that keeps all of it."""
    if any(d.code in _UNREPRESENTABLE or (d.code == "CR103" and not _holds_unknown(d.path)) for d in schema_errors):
        return False
    if not isinstance(data, dict) or not all(k in data for k in _REQUIRED):
        return False
    if not all(isinstance(data[k], str) for k in _TEXTS if k in data):
        return False
    hero = data["hero"]
    if not (isinstance(hero, dict) and isinstance(hero.get("character"), str)
            and all(_texts(hero.get(k, [])) for k in ("items", "equipped"))):
        return False
    if not (_mapping_of(data.get("cards", {}), dict) and _mapping_of(data.get("potions", {}), str)):
        return False
    if not all(_card_shape(entry) for entry in data.get("cards", {}).values()):
        return False
    if "par" in data and not (isinstance(data["par"], dict) and "turns" in data["par"]):
        return False
    levels = data["levels"]
    return isinstance(levels, list) and bool(levels) and all(_level_shape(lv) for lv in levels)


def _holds_unknown(path: tuple) -> bool:
    """Whether the model keeps an unknown property at ``path`` (its key last) as written: one of the campaign,
    its hero or par, a level, a level's hero or a cell (:data:`.schema.KNOWN_KEYS`), or of a card definition
    or the potions (kept whole as written: a colour "redd" sets no colour)."""
    parent = path[:-1]
    if parent in ((), ("hero",), ("par",), ("potions",)):
        return True
    if len(parent) == 2 and parent[0] == "cards":
        return True
    return (parent[:1] == ("levels",) and (len(parent) == 2 or (len(parent) == 3 and parent[2] == "hero")
                                           or (len(parent) == 4 and parent[2] == "cells")))


def _level_shape(level: Any) -> bool:
    if not (isinstance(level, dict) and isinstance(level.get("id"), str) and _whole(level.get("width"))
            and _whole(level.get("height")) and isinstance(level.get("cells"), list)):
        return False
    if level["width"] > DRAFT_SIDE or level["height"] > DRAFT_SIDE:
        return False
    if not all(isinstance(level.get(k, ""), str) for k in ("title", "story")):
        return False
    goals = level.get("goals", [])
    # A goal's verb is kept as written: one misspelt ({"slayy": "golem"}) is held, saved back so and
    # listed (CR110) until the goal is mended; a goal of two verbs, or of none, has no one verb to hold.
    if not (isinstance(goals, list) and all(
            isinstance(g, dict) and len(g) == 1 and isinstance(next(iter(g.values())), str) for g in goals)):
        return False
    if "hero" in level and not _level_hero_shape(level["hero"]):
        return False
    return all(_cell_shape(c) for c in level["cells"])


def _card_shape(entry: dict) -> bool:
    """A card definition: its kind a text (one that is none of the kinds, "enemey", is kept in the entry
    as written and defines no card until fixed: its CR104 says why), its abilities texts."""
    if "kind" in entry and not isinstance(entry["kind"], str):
        return False
    return _texts(entry.get("abilities", []))


def _level_hero_shape(hero: Any) -> bool:
    """A level's practice hero: an object, his tile two whole numbers, his cards texts (his health is
    held as written, as the seed is)."""
    if not isinstance(hero, dict):
        return False
    at = hero.get("at", [0, 0])
    if not (isinstance(at, list) and len(at) == 2 and all(_whole(v) for v in at)):
        return False
    return all(_texts(hero.get(k, [])) for k in ("items", "equipped"))


def _cell_shape(cell: Any) -> bool:
    if not isinstance(cell, dict) or not isinstance(cell.get("card"), str):
        return False
    at = cell.get("at")
    if not (isinstance(at, list) and len(at) == 2 and all(_whole(v) for v in at)):
        return False
    if not all(isinstance(cell.get(k, ""), str) for k in ("paths", "face", "id", "to", "inscription")):
        return False
    return all(_texts(cell.get(k, [])) for k in ("stock", "contents")) and isinstance(cell.get("rolls", []), list)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _texts(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _mapping_of(value: Any, kind: type) -> bool:
    return isinstance(value, dict) and all(isinstance(v, kind) for v in value.values())
