"""Text that cannot be shown as it is to strangers (CR228, a warning): markup in a title, terminal
escapes and bidirectional controls anywhere. A campaign plays with it (every string is shown as
text, never as markup), but the community hub refuses to publish it, so ``check`` says so first.

:func:`unsafe_text` is the rule itself, one home for the hub's refusal and the check's warning.
"""

from __future__ import annotations

import re
import unicodedata

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


def title_problems(campaign: Campaign) -> list[Diagnostic]:
    """CR228 for the campaign's title and author and each level's title that the hub would refuse."""
    found = Findings()
    titles = [(("title",), campaign.title, None), (("author",), campaign.author, None)]
    titles += [(("levels", i, "title"), level.title, i) for i, level in enumerate(campaign.levels)]
    for path, value, level in titles:
        if value and (why := unsafe_text(value, title=True)):
            where = {} if level is None else {"level": level}
            found.warning("CR228", f"the text {value!r} would be refused by a hub: {why}", path, **where)
    return found.items
