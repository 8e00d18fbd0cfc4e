"""Text that cannot be shown as it is to strangers (CR228, a warning): markup in a title, terminal
escapes and bidirectional controls anywhere in the campaign's file. A campaign plays with it (every
string is shown as text, never as markup), but the community hub refuses to publish it, so ``check``
says so first.

One rule and one walker serve both: :func:`unsafe_text` is the rule for one string, and
:func:`unsafe_texts` walks the file as parsed (every key and every string value, ``$schema`` and
anything else the campaign model does not keep), knowing which places are titles. ``check`` turns
what it finds into CR228 warnings (:func:`document_text_problems`, called by the loader on every
document it checks, which keeps the findings: ``LoadResult.unsafe``); the hub refuses the same
findings, named by the same paths, from the same walk (docs/hub.md, *Titles with markup are refused*). The editor checks the text a save would write, so its warnings
come from this walk too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any, Mapping

from ..diagnostics import Diagnostic, JsonPath
from .common import Findings

# Rich markup tags ([bold], [/], [link=...], [@click]) and HTML tags, comments, entities. A Rich tag
# starts with a lowercase letter, "#", "/" or "@" (rich.markup's RE_TAGS): "[II]" or "[1]" is plain text.
# An HTML tag opens with "<" right before a letter, "!", "/" or "?" (the HTML standard's tag open state):
# "a < b" is text to every browser, so it is not refused.
_RICH_TAG = re.compile(r"\[[a-z#@/][^\[\]]*\]")
_HTML = re.compile(r"<[A-Za-z!/?]|&(#\d+|#x[0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);")
# Bidirectional controls reorder what a reader sees ("Trojan Source"); refused everywhere.
_BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
# The characters refused: the Unicode categories Cc (control: U+0000-001F, U+007F-009F) and Cs (a lone
# surrogate, U+D800-DFFF), and the bidirectional controls; newline and tab only in a title.
_REFUSED_IN_TITLE = re.compile(f"[\x00-\x1f\x7f-\x9f\ud800-\udfff{_BIDI}]")
_REFUSED_IN_TEXT = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff{_BIDI}]")
# How a JSON text writes a character the rule for text refuses: the escapes \b, \f and \r, a \u escape of
# one (or of a newline or tab: more than needed), or the character itself. Matching more than needed
# (an escaped backslash before one of them) only costs the walk.
_ESCAPE = re.compile(r"(?i)\\(?:[bfr]|u(?:00[01]|007f|00[89]|d[89a-f]|061c|200[ef]|202[a-e]|206[6-9]))")
_RAW = re.compile(f"[\x7f-\x9f\ud800-\udfff{_BIDI}]")
# Combining marks (Unicode Mn and Me) stack on the character before them: written by the dozen ("Zalgo text")
# they cover the lines above and below on a page, and 60 on each letter of a story froze the web player's
# terminal (xterm.js) for minutes. No script writes more than a few on one letter (Vietnamese 2, pointed Hebrew
# with its cantillation 4 or 5, a Tibetan stack 6); a run of more is refused, anywhere.
MAX_MARKS = 8


# What goes on a cluster without ending it: a spacing mark (Mc) and the invisible format characters (Cf: the
# joiners ZWNJ and ZWJ, the tags U+E0020-E007F...). Marks written between them still stack on one letter ("a" + (8
# marks + ZWJ) x 10 is one cluster of 80 marks), so a run counts every Mn and Me up to the next other character.
_MARKS, _IN_CLUSTER = ("Mn", "Me"), ("Mn", "Me", "Mc", "Cf")


@cache
def _candidates() -> str:
    """A regular expression's class holding every combining mark (Mn, Me, Mc) and format character (Cf): the BMP's
    range by range, and beyond it the one span from the first mark to the last of plane 1, and plane 14's tags and
    variation selectors (a class of many ranges beyond the BMP is searched range by range, 60 times slower on a big
    file; the span leaves out the emoji, which lie past it). A superset that a search runs through fast, built at
    first use by a walk over the code points."""
    import unicodedata

    ranges: list[list[int]] = []
    astral: list[int] = []
    for code in range(0xA0, 0x20000):
        if unicodedata.category(chr(code)) not in _IN_CLUSTER:
            continue
        if code > 0xFFFF:
            astral.append(code)
        elif ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    if astral:
        ranges.append([astral[0], astral[-1]])
    ranges += [[0xE0001, 0xE007F], [0xE0100, 0xE01EF]]
    return "".join(re.escape(chr(a)) + ("-" + re.escape(chr(b)) if b > a else "") for a, b in ranges)


@cache
def _candidate_run() -> re.Pattern[str]:
    return re.compile(f"[{_candidates()}]{{{MAX_MARKS + 1},}}")


@cache
def _may_stack() -> re.Pattern[str]:
    """What may write a run of more than MAX_MARKS marks with \\u escapes in a JSON text (a superset, to spare the
    walk): more than MAX_MARKS candidates or escapes in a row. (Without an escape, :func:`_candidate_run` says it.)"""
    return re.compile(f"(?:[{_candidates()}]|\\\\u[0-9a-fA-F]{{4}}){{{MAX_MARKS + 1},}}")


def _stacked(value: str) -> tuple[str, int] | None:
    """The first cluster of more than :data:`MAX_MARKS` combining marks (Unicode Mn and Me) on one character in
    ``value`` (spacing marks and format characters between them keep it going): its text and its count of marks; or None."""
    import unicodedata

    for found in _candidate_run().finditer(value):
        run = found.group(0)
        start, marks = 0, 0
        for i, ch in enumerate(run + "."):
            category = unicodedata.category(ch) if i < len(run) else ""
            if category in _MARKS:
                marks += 1
            elif i == len(run) or category not in _IN_CLUSTER:
                if marks > MAX_MARKS:
                    return run[start:i], marks
                start, marks = i + 1, 0
    return None


def unsafe_text(value: str, *, title: bool) -> str | None:
    """Why ``value`` cannot be shown as it is, or None. Titles are one line and take no markup."""
    if found := (_REFUSED_IN_TITLE if title else _REFUSED_IN_TEXT).search(value):
        ch = found.group(0)
        if ch in _BIDI:
            return f"it holds the bidirectional control U+{ord(ch):04X}"
        if "\ud800" <= ch <= "\udfff":
            return f"it holds a lone UTF-16 surrogate U+{ord(ch):04X}, which is not a character"
        return f"it holds the control character U+{ord(ch):04X}" + (" (a terminal escape)" if ch == "\x1b" else "")
    if not value.isascii() and (stack := _stacked(value)):
        return (f"it stacks {stack[1]} combining marks on one character (U+{ord(stack[0][0]):04X}...): "
                f"more than {MAX_MARKS} cover the text around it")
    if title:
        if found := _HTML.search(value):
            return f"it looks like HTML markup ({found.group(0)!r})"
        if found := _RICH_TAG.search(value):
            return f"it looks like Rich markup ({found.group(0)!r})"
    return None


@dataclass(frozen=True, slots=True)
class UnsafeText:
    """A text of the file that the rule refuses: where, what, why; ``key`` when the text is the
    last key of ``path`` (an object's member name) rather than the value there."""

    path: JsonPath
    text: str
    why: str
    title: bool = False
    key: bool = False

    def refusal(self, verb: str = "is refused") -> str:
        """``the text 'Red \\x1b[31m' is refused: it holds ...``: the text as a Python literal (escapes
        shown), its start only when it is long (a story)."""
        text = repr(self.text) if len(self.text) <= 120 else f"{self.text[:120]!r}..."
        return f"the {'key' if self.key else 'text'} {text} {verb}: {self.why}"


def title_paths(data: Any) -> list[JsonPath]:
    """The places of the file that are titles, one line of plain text: the campaign's title and
    author, each level's title."""
    if not isinstance(data, Mapping):
        return []
    paths: list[JsonPath] = [("title",), ("author",)]
    levels = data.get("levels")
    if isinstance(levels, list):
        paths += [("levels", i, "title") for i in range(len(levels))]
    return paths


def unsafe_texts(data: Any, text: str | None = None) -> list[UnsafeText]:
    """Every key and string of the parsed document ``data`` that :func:`unsafe_text` refuses, in the
    order of the file: the titles (:func:`title_paths`) by the rule for titles, every other key and
    string by the rule for text.

    ``text``, the JSON text ``data`` was parsed from, when given, spares the walk of a file whose text
    cannot write a character refused outside a title (:func:`_may_write_refused`): the same answer.
    """
    titles = title_paths(data)
    found = [UnsafeText(path, value, why, title=True) for path in titles
             if isinstance(value := _at(data, path), str) and (why := unsafe_text(value, title=True))]
    if text is None or _may_write_refused(text):
        found += _walk(data, set(titles))
    return sorted(found, key=lambda unsafe: (_place(data, unsafe.path), not unsafe.key))


def _walk(data: Any, titles: set[JsonPath]) -> list[UnsafeText]:
    """Every key and string of ``data`` outside ``titles`` that the rule for text refuses. A path is
    built only for what is found: the walk goes over every cell of a big campaign."""
    found = []
    refused, stacked = _REFUSED_IN_TEXT.search, _candidate_run().search

    def search(text: str) -> bool:  # (a candidate run of marks is judged by unsafe_text)
        return bool(refused(text)) or (not text.isascii() and bool(stacked(text)))

    def judge(path: JsonPath, value: str, key: bool) -> None:
        if (key or path not in titles) and (why := unsafe_text(value, title=False)):
            found.append(UnsafeText(path, value, why, key=key))

    if isinstance(data, str) and search(data):
        judge((), data, False)
    stack: list[tuple[JsonPath, Any]] = [((), data)]
    while stack:
        path, value = stack.pop()
        kind = type(value)
        if kind is dict or (kind is not list and isinstance(value, Mapping)):
            items: Any = value.items()
        elif kind is list or isinstance(value, tuple):
            items = enumerate(value)
        else:
            continue
        for name, item in items:
            if type(name) is str and search(name):
                judge(path + (name,), name, True)
            kind = type(item)
            if kind is str:
                if search(item):
                    judge(path + (name,), item, False)
            elif kind is dict or kind is list:
                stack.append((path + (name,), item))
            elif kind is not int and kind is not bool and item is not None:
                if isinstance(item, str):
                    if search(item):
                        judge(path + (name,), item, False)
                elif isinstance(item, (Mapping, list, tuple)):
                    stack.append((path + (name,), item))
    return found


def _may_write_refused(text: str) -> bool:
    """Whether the JSON text ``text`` can write, in a key or string, a character the rule for text
    refuses. JSON refuses the characters below U+0020 written as they are (``json.loads`` does, unless
    told ``strict=False``, which the loader never is), so it needs the character
    itself (U+007F and above, ``_RAW``) or an escape (``_ESCAPE``); a newline or tab is refused only
    in a title, which is looked at in any case. Long ASCII stretches are passed over at C speed."""
    if _ESCAPE.search(text) or "\x7f" in text:
        return True
    ascii_only = text.isascii()
    if (not ascii_only and _candidate_run().search(text)) or ("\\u" in text and _may_stack().search(text)):
        return True
    if ascii_only:
        return False
    step = 1 << 14
    return any(not text[i:i + step].isascii() and _RAW.search(text, i, i + step) for i in range(0, len(text), step))


def document_text_problems(data: Any, unsafe: list[UnsafeText]) -> list[Diagnostic]:
    """CR228 for every text of the file that the hub would refuse (``unsafe``, what :func:`unsafe_texts`
    found in ``data``), placed on its level and cell when it is in one."""
    found = Findings()
    for unsafe in unsafe:
        found.warning("CR228", unsafe.refusal("would be refused by a hub"), unsafe.path, **_where(data, unsafe.path))
    return found.items


def _at(data: Any, path: JsonPath) -> Any:
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _place(data: Any, path: JsonPath) -> tuple[int, ...]:
    """Where ``path`` comes in the file: the index of each of its keys among its object's, and list indexes."""
    place = []
    for part in path:
        place.append(part if isinstance(part, int) else list(data).index(part))
        data = data[part]
    return tuple(place)


def _where(data: Any, path: JsonPath) -> dict:
    """The level (and cell) a path inside ``levels`` points into, for the editor to jump to."""
    if len(path) < 2 or path[0] != "levels" or not isinstance(path[1], int):
        return {}
    where: dict[str, Any] = {"level": path[1]}
    if len(path) >= 4 and path[2] == "cells" and isinstance(path[3], int):
        at = _at(data, path[:4] + ("at",))
        if isinstance(at, list) and len(at) == 2 and all(type(v) is int for v in at):
            where["cell"] = (at[0], at[1])
    return where
