"""Strings from a campaign, a replay, a player or a file name, ready for a widget as plain text.

Textual reads a ``str`` handed to a label, a border title, an option or a notification as
markup, and Rich reads one in a table cell the same way: a title ``The [/] Hall`` would crash
the app and ``[@click=app.quit]`` would become an action. Every such string goes through
:func:`text` (a Rich ``Text``) or :func:`content` (a Textual ``Content``), which show it as
it is written, with control characters escaped (:func:`~cardrogue.engine.printable.printable`).
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from rich.segment import Segment
from rich.text import Text
from textual.color import Color
from textual.content import Content
from textual.filter import LineFilter
from textual.widgets import Markdown

from cardrogue.engine.printable import closed_to_the_right, printable, without_controls


def text(value: str, style: str = "", *, lines: bool = False) -> Text:
    """``value`` as a Rich ``Text``: never markup, no raw control characters."""
    return Text(printable(value, lines=lines), style)


def name_cell(value: str, style: str = "") -> Text:
    """A player's name as a cell of a table (:func:`text`), closed by a LEFT-TO-RIGHT MARK when it holds a
    right-to-left letter (:func:`~cardrogue.engine.printable.closed_to_the_right`, as ``cardrogue scores`` writes it):
    the turns after it stay in their column."""
    return Text(closed_to_the_right(printable(value)), style)


def content(value: str, style: str = "") -> Content:
    """``value`` as a Textual ``Content`` (border titles, options): never markup, one line."""
    shown = Content(printable(value))
    return shown.stylize(style) if style else shown


def markup(template: str, **values: object) -> Content:
    """Our own markup with the strings from outside as template variables (``$name``).

    Textual inserts a variable as text, never as markup; ``textual.markup.escape`` is not
    enough on its own (``[$x]`` and ``[ b]`` pass through it and are read as markup).
    """
    return Content.from_markup(template, **{name: printable(str(value)) for name, value in values.items()})


class NoRawControls(LineFilter):
    """The last guard of both apps: no control or bidi character in any line reaches the terminal.

    The helpers above show such characters escaped where the app shows a name or a title; text
    an author edits (the story, an inscription) is shown as it is, minus these characters, which
    take no cell. An app returns this filter from ``get_line_filters``.

    One such character passes: the LEFT-TO-RIGHT MARK (U+200E) that :func:`name_cell` puts after a right-to-left
    name, so the next column of a table keeps its place on a terminal that lays out bidirectional text (as
    ``cardrogue scores`` does). A name brings none raw (:func:`text` escapes its marks too), and the overrides and
    isolates (U+202A-202E, U+2066-2069) and the right-to-left marks are still dropped
    (:func:`~cardrogue.engine.printable.without_controls`).
    """

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [Segment(without_controls(text, left_to_right_marks=True), style, control) if not control
                else Segment(text, style, control) for text, style, control in segments]


NO_RAW_CONTROLS = NoRawControls()


WEB_SCHEMES = frozenset({"http", "https"})
"""The links a story may open: a story comes from strangers (a hub's maps), and a click on ``smb://``,
``file:`` or a bare path would hand it to the operating system's opener."""


def opens(href: str) -> bool:
    """Whether a link in a story opens when clicked: a web address (``http``/``https``) with a host, and
    nothing in it that ``urlsplit`` would read past (spaces, control characters), so the address checked
    is the address opened."""
    from urllib.parse import urlsplit

    if not href.isprintable() or any(c.isspace() for c in href):
        return False
    try:
        parts = urlsplit(href)
    except ValueError:  # a malformed address ("http://[") is not opened
        return False
    return parts.scheme.lower() in WEB_SCHEMES and bool(parts.netloc)


def _no_raw_html() -> MarkdownIt:
    """Textual's "gfm-like" parser with raw HTML off: a terminal cannot draw ``<b>`` or ``<div>``, and
    Textual's Markdown drops HTML tokens, so a story's ``<b>bold</b>`` lost its tags and a ``<div>`` block
    its text. With HTML off they are text, shown as written (as the hub's pages show them)."""
    return MarkdownIt("gfm-like", {"html": False})


# The styles of inline Markdown's spans in one line of an author's text (the rest is text as written).
_INLINE = {"em": "italic", "strong": "bold", "s": "strike", "link": "underline"}


def inline_markdown(value: str, style: str = "") -> Text:
    """One line of an author's Markdown (an inscription) as a Rich ``Text``, never markup: emphasis, strong,
    strikethrough and code drawn, their marks gone, a link's words kept (nothing opens from a line); a block's
    marks (a heading's ``#``) and raw HTML show as written, as in a story."""
    shown = Text(style=style)
    styles: list[str] = []
    for token in _no_raw_html().parseInline(printable(value))[0].children or ():
        kind, _, edge = token.type.rpartition("_")
        if kind in _INLINE and edge == "open":
            styles.append(_INLINE[kind])
        elif kind in _INLINE and edge == "close":
            styles.pop()
        elif token.type in ("softbreak", "hardbreak"):
            shown.append(" ")
        else:  # text, code (bold), an image's words
            shown.append(token.content, " ".join([*styles, "bold"] if token.type == "code_inline" else styles))
    return shown


class StoryMarkdown(Markdown):
    """Markdown of a story or a help page whose links open only if :func:`opens` says so; any other link
    is named in a warning instead (docs/player.md). Raw HTML in it is shown as text."""

    def __init__(self, markdown: str | None = None, **kwargs) -> None:
        super().__init__(markdown, open_links=False, parser_factory=_no_raw_html, **kwargs)

    def on_markdown_link_clicked(self, event: Markdown.LinkClicked) -> None:
        event.stop()
        if opens(event.href):
            self.app.open_url(event.href)
        else:
            self.notify(markup("Not opened: [b]$href[/b] (only http and https links open)", href=event.href),
                        severity="warning")
