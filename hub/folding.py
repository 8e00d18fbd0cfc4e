"""The text a map search compares (docs/hub.md, `hub list --search`), folded here in Python and stored with the map.

The databases' own ``LOWER`` differed: SQLite's lowers A to Z only ('é' did not find 'É'), a C-locale
PostgreSQL's too, and neither composes: a title stored with its accents as combining marks (NFD) was not
found by the same title typed composed (NFC). Both sides are now folded by :func:`fold`, the same on
every database, and compared with a plain ``LIKE``.

The look-alike folding of player names (``looks.look_key``: a capital I as an l, rn as m) is not used:
it does not fit a search for part of a text ('n' would no longer find 'barn', folded to 'bam', and
'illinois' would not find 'ILLINOIS', its capital I read as an l).
"""

from __future__ import annotations

import unicodedata

# Between the fields of a search key: a search holding a control character is refused (400), so no match
# spans two fields.
SEPARATOR = "\n"


def fold(text: str) -> str:
    """``text`` as a search compares it: compatibility forms as their plain letters (NFKC: 'ﬁ' is 'fi', a
    full-width 'Ａ' is 'a'), case aside (casefold: 'É' is 'é', 'ß' is 'ss'), composed one way (an 'é' typed as
    e and a combining accent is the 'é'), and the dot a capital İ leaves on its small i dropped ('İstanbul' is
    found by 'istanbul', as by 'İSTANBUL')."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    return folded.replace("i\u0307", "i")


def search_key(title: str, campaign_id: str, author: str | None, publisher: str) -> str:
    """What a search of the maps matches for one map version: its title, id, author and publisher, folded."""
    return SEPARATOR.join(fold(field or "") for field in (title, campaign_id, author, publisher))


def search_pattern(query: str) -> str:
    """A ``LIKE ... ESCAPE '\\'`` pattern matching the search keys that hold ``query``, folded, as text
    (``%`` and ``_`` are searched as themselves)."""
    text = fold(query)
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
