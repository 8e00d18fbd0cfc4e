"""The editor's header line, fitted to the terminal: what is cut first is what matters least.

Textual's header cuts its line at the end, so at 80 columns a long file name pushed the brush
out and the file's name was cut before its end. :func:`fit_header` keeps, most important first:
the file's name (its start and its extension; never a folder, the document names only the file),
the unsaved mark, the brush's name; and gives up, in order, the app's title, the middle of the
file's name, then the end of the brush's name.
"""

from __future__ import annotations

from pathlib import PurePath

ELLIPSIS = "…"
HEADER_CHROME = 18
"""Columns of the header that are not its title: Textual's icon (8) and clock space (10)."""

MIN_NAME = 12  # a file name is cut no shorter than this while something else can give way


def middle_cut(name: str, width: int) -> str:
    """``name`` in at most ``width`` columns: its start and its extension kept, the middle cut."""
    if len(name) <= width:
        return name
    if width <= 1:
        return ELLIPSIS[:width]
    suffix = PurePath(name).suffix if " " not in name else ""
    tail = suffix if len(suffix) < width // 2 else ""
    keep = width - 1 - len(tail)
    return name[:keep] + ELLIPSIS + tail


def end_cut(text: str, width: int) -> str:
    if len(text) <= width:
        return text
    return text[:max(0, width - 1)] + ELLIPSIS if width > 0 else ""


def header_text(name: str, dirty: bool, brush: str) -> str:
    """The header's sub-title whole: ``"name ●  brush: id"`` (no mark when saved, no brush when none)."""
    return f"{name}{' ●' if dirty else ''}{'  brush: ' + brush if brush else ''}"


def fit_header(width: int, app_title: str, name: str, dirty: bool, brush: str) -> tuple[str, str]:
    """The header's ``(title, sub_title)`` for ``width`` columns of title: the app's title and
    :func:`header_text`, the least important parts given up first (see the module's doc)."""
    mark = " ●" if dirty else ""
    label = "  brush: " if brush else ""

    def sub(shown_name: str, shown_brush: str) -> str:
        return header_text(shown_name, dirty, shown_brush)

    full = sub(name, brush)
    if len(app_title) + 3 + len(full) <= width:
        return app_title, full
    if len(full) <= width:
        return "", full
    # the name's middle, down to MIN_NAME columns, so the brush stays whole
    room = width - len(mark) - (len(label) + len(brush) if brush else 0)
    if room >= min(MIN_NAME, len(name)):
        return "", sub(middle_cut(name, room), brush)
    shown_name = middle_cut(name, min(len(name), MIN_NAME, max(1, width - len(mark))))
    brush_room = width - len(shown_name) - len(mark) - len(label)
    if brush and brush_room >= 4:
        return "", sub(shown_name, end_cut(brush, brush_room))
    if width < len(mark) + 1:
        return "", middle_cut(name, max(0, width))  # the mark gives way only where the name has no room left
    return "", middle_cut(name, width - len(mark)) + mark
