"""Text from a file, a replay, a player or the file system, made safe to show on a terminal.

A terminal acts on what it is sent: ESC starts an escape sequence (clear the screen,
write the clipboard with OSC 52, retitle the window), a C1 control such as U+009B is
a one-character CSI, a carriage return or a newline lets a file name forge a line of
its own, and a bidi override (U+202E) makes text read in another order than it is
stored. :func:`printable` shows each such character as a visible escape instead, so
every text output prints exactly what is there and nothing more. JSON output needs
none of this: ``json.dumps`` already escapes control characters.
"""

from __future__ import annotations

import re
import unicodedata

# Bidirectional formatting characters (Unicode Bidirectional Algorithm, "Explicit
# Directional" embeddings, overrides, isolates and marks) and the two separators some
# terminals break lines at.
_BIDI_AND_BREAKS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2028\u2029"
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _unsafe_class() -> str:
    ranges = [r"\x00-\x1f", r"\x7f-\x9f", r"\ud800-\udfff"]  # C0, DEL and C1, lone surrogates
    return "[" + "".join(ranges) + re.escape(_BIDI_AND_BREAKS) + "]"


_UNSAFE = re.compile(_unsafe_class())
_UNSAFE_BUT_MARKS = re.compile(_unsafe_class().replace("\u200e", ""))
_UNSAFE_KEEP_LINES = re.compile(_unsafe_class().replace(r"\x00-\x1f", r"\x00-\x09\x0b-\x1f"))


def _escape(match: re.Match[str]) -> str:
    ch = match.group()
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, *, lines: bool = False) -> str:
    """``text`` with every control, bidi and lone-surrogate character shown as a visible escape.

    ``\\x1b`` for ESC, ``\\u202e`` for RIGHT-TO-LEFT OVERRIDE, ``\\n`` for a newline (kept as a
    line break when ``lines`` is true, for text that is meant to span lines, such as a story).
    Everything else, backslashes included, prints unchanged.
    """
    pattern = _UNSAFE_KEEP_LINES if lines else _UNSAFE
    if not pattern.search(text):
        return text
    return pattern.sub(_escape, text)


def without_controls(text: str, *, left_to_right_marks: bool = False) -> str:
    """``text`` with the characters :func:`printable` escapes dropped (they take no cell on a
    terminal, so the text keeps its width) and a lone surrogate shown as U+FFFD: the last guard
    of a screen, for text an author is editing and must not see rewritten.

    With ``left_to_right_marks`` a LEFT-TO-RIGHT MARK (U+200E) stays: the mark :func:`closed_to_the_right`
    puts after a right-to-left name so the next column keeps its place. It overrides, embeds or isolates
    nothing (the overrides U+202A-202E and isolates U+2066-2069 are still dropped, and so are the right-to-left
    marks U+200F and U+061C): it is a left-to-right letter of no width, so at most it lays the neutral characters
    beside it out left to right, the direction of the whole screen. A name or a title from outside never brings
    one raw: :func:`printable` shows its marks as ``\\u200e``."""
    pattern = _UNSAFE_BUT_MARKS if left_to_right_marks else _UNSAFE
    if not pattern.search(text):
        return text
    return pattern.sub(lambda m: "\ufffd" if "\ud800" <= m.group() <= "\udfff" else "", text)



LEFT_TO_RIGHT_MARK = "\u200e"


def closed_to_the_right(shown: str) -> str:
    """``shown`` (text already made :func:`printable`) followed by a LEFT-TO-RIGHT MARK when it holds a right-to-left
    letter (Hebrew, Arabic, ...) or an Arabic-Indic digit, else as it is: the text of one column of a line, so that the
    next column keeps its place on a terminal that lays out bidirectional text (GNOME Terminal, Konsole).

    By the Unicode Bidirectional Algorithm a right-to-left letter draws the spaces and the number after it into its
    own run (rule N1: "European and Arabic numbers act as if they were R"), and the line ``1. אבג   11 turns`` was
    drawn ``1. 11   גבא turns``: the turns before the name. The mark is a left-to-right letter that takes no cell: what
    follows it is laid out left to right. A name of Latin letters is left as it is (a script reading the table reads
    the same bytes)."""
    if any(unicodedata.bidirectional(ch) in ("R", "AL", "AN") for ch in shown):
        return shown + LEFT_TO_RIGHT_MARK
    return shown
