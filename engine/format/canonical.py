"""The canonical form of a campaign: how it is written, and how its content is hashed.

*Written form*: two-space indented JSON, keys in a fixed order, each cell and
each goal on one line, short lists of scalars inline. Loading a canonical file
and saving it gives the same bytes.

*Content hash*: SHA-256 of the compact, key-sorted JSON of the parsed content,
without ``$schema`` and ``par`` (publishing a par must not change the map it
describes), plus the resolved definition of every card the campaign uses, so a
change to the default catalog's numbers also makes a new campaign version and
old scores never carry over to a changed game.

*Play hash*: the same without the text written for readers (titles, author, stories, inscriptions), which
no rule reads: what a par measures (:func:`play_hash`).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ..model.campaign import Campaign, CardDef, Cell, Level, LevelHero, Unknown, row_major

_KEY_ORDER = [
    "$schema", "format", "id", "title", "author", "description", "kind", "rules", "seed",
    "allow_ladder_cycles", "par", "hero", "potions", "story", "note", "cards", "levels",
    # level
    "width", "height", "goals", "cells",
    # cell
    "at", "card", "paths", "face", "to", "exit", "stock", "contents", "rolls", "inscription",
    # card definition
    "name", "text", "attack", "health", "gold", "sellable", "tradable", "throwable", "cursed",
    "slot", "colour", "max_health", "victory_points", "abilities",
    # hero, par, goals
    "character", "items", "equipped", "turns", "slay", "open", "buy",
]
_RANK = {k: i for i, k in enumerate(_KEY_ORDER)}
_INLINE_LISTS = {"cells", "goals"}  # lists whose items are written one per line


def _ordered(obj: dict, sort_all: bool = False) -> list[tuple[str, Any]]:
    if sort_all:
        return sorted(obj.items())
    return sorted(obj.items(), key=lambda kv: (_RANK.get(kv[0], len(_RANK)), kv[0]))


def _one_line(value: Any) -> str:
    if isinstance(value, dict):
        inner = ", ".join(f"{json.dumps(k, ensure_ascii=False)}: {_one_line(v)}" for k, v in _ordered(value))
        return "{" + inner + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_one_line(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def _is_scalar_list(value: Any) -> bool:
    return isinstance(value, list) and all(not isinstance(v, (dict, list)) for v in value)


def _write(value: Any, indent: int, key: str | None, out: list[str]) -> None:
    pad = "  " * indent
    if isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        # Maps keyed by id (cards, potions) keep a sorted order; records use the field order.
        sort_all = key in ("cards", "potions")
        out.append("{\n")
        items = _ordered(value, sort_all)
        for i, (k, v) in enumerate(items):
            out.append(f"{pad}  {json.dumps(k, ensure_ascii=False)}: ")
            _write(v, indent + 1, k, out)
            out.append(",\n" if i < len(items) - 1 else "\n")
        out.append(pad + "}")
    elif isinstance(value, list):
        if not value or _is_scalar_list(value):
            out.append(_one_line(value))
            return
        out.append("[\n")
        for i, v in enumerate(value):
            out.append(pad + "  ")
            if key in _INLINE_LISTS:
                out.append(_one_line(v))
            else:
                _write(v, indent + 1, None, out)
            out.append(",\n" if i < len(value) - 1 else "\n")
        out.append(pad + "]")
    else:
        out.append(json.dumps(value, ensure_ascii=False))


def dumps(data: dict) -> str:
    """The canonical text of a campaign (or catalog) document."""
    out: list[str] = []
    _write(data, 0, None, out)
    out.append("\n")
    return "".join(out)


def cell_to_dict(cell: Cell, level_id: str) -> dict:
    d: dict[str, Any] = {"at": [cell.x, cell.y], "card": cell.card, "paths": cell.paths,
                         "face": cell.face_text}
    if cell.id and cell.id != default_cell_id(level_id, cell.x, cell.y):
        d["id"] = cell.id
    if cell.to is not None:
        d["to"] = cell.to
    if cell.exit is not False:  # a draft keeps a value the schema refuses, to be saved as it was
        d["exit"] = cell.exit
    if cell.stock:
        d["stock"] = list(cell.stock)
    if cell.contents:
        d["contents"] = list(cell.contents)
    if cell.rolls:
        d["rolls"] = list(cell.rolls)
    if cell.inscription:
        d["inscription"] = cell.inscription
    return _with_unknown(d, cell.unknown)


def _with_unknown(d: dict, unknown: Unknown) -> dict:
    """``d`` with a draft's properties the format does not know (its misspelt keys) back in it, as written."""
    for key, text in unknown:
        d.setdefault(key, json.loads(text))
    return d


def default_cell_id(level_id: str, x: int, y: int) -> str:
    return f"{level_id}@{x},{y}"


def level_to_dict(level: Level) -> dict:
    d: dict[str, Any] = {"id": level.id}
    if level.title:
        d["title"] = level.title
    if level.story:
        d["story"] = level.story
    d["width"] = level.width
    d["height"] = level.height
    if level.goals:
        d["goals"] = [{g.verb: g.card} for g in level.goals]
    if level.hero is not None:
        d["hero"] = level_hero_to_dict(level.hero)
    d["cells"] = [cell_to_dict(c, level.id) for c in sorted(level.cells, key=row_major)]
    return _with_unknown(d, level.unknown)


def level_hero_to_dict(hero: LevelHero) -> dict:
    d: dict[str, Any] = {}
    if hero.at is not None:
        d["at"] = list(hero.at)
    if hero.health is not None:
        d["health"] = hero.health
    if hero.items is not None:
        d["items"] = list(hero.items)
    if hero.equipped is not None:
        d["equipped"] = list(hero.equipped)
    return _with_unknown(d, hero.unknown)


def campaign_to_dict(campaign: Campaign, *, schema_ref: str | None = None) -> dict:
    d: dict[str, Any] = {}
    if schema_ref:
        d["$schema"] = schema_ref
    d.update(format=campaign.format, id=campaign.id, title=campaign.title)
    if campaign.author:
        d["author"] = campaign.author
    if campaign.description:
        d["description"] = campaign.description
    d["kind"] = campaign.kind
    d["rules"] = campaign.rules
    d["seed"] = campaign.seed
    if campaign.allow_ladder_cycles is not False:
        d["allow_ladder_cycles"] = campaign.allow_ladder_cycles
    if campaign.par is not None:
        d["par"] = {"turns": campaign.par.turns}
        if campaign.par.health is not None:
            d["par"]["health"] = campaign.par.health
        _with_unknown(d["par"], campaign.par.unknown)
    hero: dict[str, Any] = {"character": campaign.hero.character}
    if campaign.hero.items:
        hero["items"] = list(campaign.hero.items)
    if campaign.hero.equipped:
        hero["equipped"] = list(campaign.hero.equipped)
    d["hero"] = _with_unknown(hero, campaign.hero.unknown)
    if campaign.potions:
        d["potions"] = dict(campaign.potions)
    if campaign.story:
        d["story"] = campaign.story
    if campaign.card_entries:
        d["cards"] = {k: dict(v) for k, v in campaign.card_entries.items()}
    d["levels"] = [level_to_dict(lv) for lv in campaign.levels]
    return _with_unknown(d, campaign.unknown)


def card_to_dict(card: CardDef) -> dict:
    d: dict[str, Any] = {"name": card.name, "kind": card.kind.value}
    for attr in ("text", "attack", "health", "gold", "slot", "colour", "max_health"):
        value = getattr(card, attr)
        if value not in (None, ""):
            d[attr] = value
    for attr, default in (("sellable", True), ("tradable", True), ("throwable", False), ("cursed", False)):
        if getattr(card, attr) != default:
            d[attr] = getattr(card, attr)
    if card.victory_points:
        d["victory_points"] = card.victory_points
    if card.abilities:
        d["abilities"] = [str(a) for a in card.abilities]
    return d


def used_card_ids(campaign: Campaign) -> set[str]:
    used = {campaign.hero.character, *campaign.hero.items, *campaign.hero.equipped}
    for level in campaign.levels:
        if level.hero is not None:
            used.update(level.hero.items or ())
            used.update(level.hero.equipped or ())
        for cell in level.cells:
            used.add(cell.card)
            used.update(cell.stock)
            used.update(cell.contents)
    return used & set(campaign.cards)


def _content(campaign: Campaign) -> dict:
    content = campaign_to_dict(campaign)
    content.pop("par", None)
    content["resolved_cards"] = {cid: card_to_dict(campaign.cards[cid]) for cid in sorted(used_card_ids(campaign))}
    return content


def _digest(content: dict) -> str:
    blob = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def content_hash(campaign: Campaign) -> str:
    return _digest(_content(campaign))


# The text written for a reader that no rule reads (engine/rules reads none of it: a level's title is only
# named in the log's sentences, an inscription only shown): the campaign's id, title, author, description and
# story, a level's title and story, a cell's inscription.
_READERS_TEXT = ("id", "title", "author", "description", "story")
_LEVEL_READERS_TEXT = ("title", "story")


def play_hash(campaign: Campaign) -> str:
    """SHA-256 of what is played: the content hash's content without the text written for readers.

    For par staleness alone (the editor's *par recorded for this version*): a par measures the game, which a new
    title or story leaves as it was. A campaign's identity stays its :func:`content_hash`, over everything: a
    replay names it and verification checks it.
    """
    content = _content(campaign)
    for key in _READERS_TEXT:
        content.pop(key, None)
    for level in content["levels"]:
        for key in _LEVEL_READERS_TEXT:
            level.pop(key, None)
        for cell in level["cells"]:
            cell.pop("inscription", None)
    return _digest(content)
