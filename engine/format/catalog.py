"""Cards from their file entries: the default catalog, and a campaign's overrides and new cards."""

from __future__ import annotations

import json
from functools import cache
from types import MappingProxyType
from typing import Any

from ..model.abilities import parse_ability
from ..model.campaign import CardDef, CardKind
from .resources import catalog_path


@cache
def default_catalog() -> MappingProxyType:
    """The default card catalog, parsed once per process."""
    data = json.loads(catalog_path().read_text(encoding="utf-8"))
    return MappingProxyType({cid: card_from_dict(cid, entry) for cid, entry in data["cards"].items()})


def card_from_dict(card_id: str, entry: dict, base: CardDef | None = None) -> CardDef:
    """Build a card from its file entry; with ``base``, the entry overrides only what it gives."""
    fields: dict[str, Any] = {}
    if base is not None:
        fields = {f: getattr(base, f) for f in base.__slots__}
    fields["id"] = card_id
    for key, value in entry.items():
        if key == "kind":
            fields["kind"] = CardKind(value)
        elif key == "abilities":
            fields["abilities"] = tuple(parse_ability(a) for a in value)
        else:
            fields[key] = value
    return CardDef(**fields)
