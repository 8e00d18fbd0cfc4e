"""Text that cannot be shown as it is to strangers (CR228, a warning): markup in a title, terminal
escapes and bidirectional controls anywhere in the campaign (``$schema`` too, which the model does not
keep: :func:`document_text_problems`). A campaign plays with it (every string is shown as
text, never as markup), but the community hub refuses to publish it, so ``check`` says so first.

:func:`unsafe_text` is the rule itself, one home for the hub's refusal and the check's warning.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Mapping

from ...model.campaign import Campaign
from ..diagnostics import Diagnostic
from .common import Findings

# Rich markup tags ([bold], [/], [link=...], [@click]) and HTML tags, comments, entities. A Rich tag
# starts with a lowercase letter, "#", "/" or "@" (rich.markup's RE_TAGS): "[II]" or "[1]" is plain text.
_RICH_TAG = re.compile(r"\[[a-z#@/][^\[\]]*\]")
_HTML = re.compile(r"<\s*[A-Za-z!/?]|&(#\d+|#x[0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);")
# Bidirectional controls reorder what a reader sees ("Trojan Source"); refused everywhere.
_BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


def unsafe_text(value: str, *, title: bool) -> str | None:
    """Why ``value`` cannot be shown as it is, or None. Titles are one line and take no markup."""
    for ch in value:
        if ch in _BIDI:
            return f"it holds the bidirectional control U+{ord(ch):04X}"
        if unicodedata.category(ch) == "Cs":
            return f"it holds a lone UTF-16 surrogate U+{ord(ch):04X}, which is not a character"
        if unicodedata.category(ch) == "Cc" and (title or ch not in "\n\t"):
            return f"it holds the control character U+{ord(ch):04X}" + (" (a terminal escape)" if ch == "\x1b" else "")
    if title:
        if found := _HTML.search(value):
            return f"it looks like HTML markup ({found.group(0)!r})"
        if found := _RICH_TAG.search(value):
            return f"it looks like Rich markup ({found.group(0)!r})"
    return None


def text_problems(campaign: Campaign) -> list[Diagnostic]:
    """CR228 for every text of the campaign that the hub would refuse: markup or a control character
    in the campaign's title and author and a level's title; a control character (newline and tab
    aside) or a bidirectional control in any other text (description, stories, inscriptions, the
    campaign's own cards), as the hub walks the whole file."""
    found = Findings()

    def check(path: tuple, value: Any, *, title: bool = False, **where: Any) -> None:
        if isinstance(value, str):
            _refused(found, path, value, title=title, **where)
        elif isinstance(value, Mapping):  # a card entry, as written
            for key, item in value.items():
                check(path + (key,), item)
        elif isinstance(value, (list, tuple)):
            for i, item in enumerate(value):
                check(path + (i,), item)

    check(("title",), campaign.title, title=True)
    check(("author",), campaign.author, title=True)
    check(("description",), campaign.description)
    check(("story",), campaign.story)
    for card_id, entry in campaign.card_entries.items():
        check(("cards", card_id), entry)
    for li, level in enumerate(campaign.levels):
        check(("levels", li, "title"), level.title, title=True, level=li)
        check(("levels", li, "story"), level.story, level=li)
        for ci, cell in enumerate(level.cells):
            if cell.inscription:
                check(("levels", li, "cells", ci, "inscription"), cell.inscription, level=li, cell=(cell.x, cell.y))
    return found.items


def document_text_problems(data: Any) -> list[Diagnostic]:
    """CR228 for the texts of the file that the campaign model does not keep, which the hub walks
    all the same: ``$schema`` (written back on save, stored by the hub as it is)."""
    found = Findings()
    ref = data.get("$schema") if isinstance(data, Mapping) else None
    if isinstance(ref, str):
        _refused(found, ("$schema",), ref, title=False)
    return found.items


def _refused(found: Findings, path: tuple, value: str, *, title: bool, **where: Any) -> None:
    """CR228 at ``path`` when the hub would refuse ``value``."""
    if value and (why := unsafe_text(value, title=title)):
        found.warning("CR228", f"the text {_quoted(value)} would be refused by a hub: {why}", path, **where)


def _quoted(value: str, limit: int = 120) -> str:
    """The text as a Python literal (escapes shown), its start only when it is long (a story)."""
    return repr(value) if len(value) <= limit else f"{value[:limit]!r}..."
