"""A story's Markdown as the hub's pages show it: a safe subset drawn as HTML, everything else as text.

A map's story and its levels' prefaces are Markdown (docs/authoring.md), drawn so by the player and the editor's
preview (editor/shown.py, ``StoryMarkdown``: markdown-it's "gfm-like" rules with raw HTML off). The pages parse them
with the same rules and write the HTML themselves from the parsed tokens, a tag at a time from a fixed list:
paragraphs, line breaks, headings, emphasis, strong, strikethrough, code, lists, quotes, rules and tables. The text of
every token is escaped (:func:`hub.pages.e`); no attribute of the author's is written but a link's address, and that
only for a web address (``http``/``https`` with a host, as the player opens), with ``rel="nofollow noopener
noreferrer"``. Raw HTML is text (markdown-it's ``html`` off), an image is its alternative text (no request to another
site), a link to anything else (``javascript:``, ``data:``, ``file:``) is its words alone. A story comes from a
stranger: nothing in it becomes markup of its choosing. A story nested deeper than the parser goes (quotes or lists 20
deep), whose inmost text markdown-it drops, is shown as the text it is written as instead: nothing of it is lost.
"""

from __future__ import annotations

import html
from functools import lru_cache
from urllib.parse import urlsplit

# The block and inline tokens drawn as a tag of their own: the token's type without _open/_close, and the tag.
# (a heading's level goes down three: the page's own headings are h1 to h3; the rest of a token's tag is never used)
_TAGS = {"paragraph": "p", "bullet_list": "ul", "ordered_list": "ol", "list_item": "li", "blockquote": "blockquote",
         "em": "em", "strong": "strong", "s": "s", "table": "table", "thead": "thead", "tbody": "tbody", "tr": "tr",
         "th": "th", "td": "td"}
_HEADINGS = {"h1": "h4", "h2": "h5", "h3": "h6", "h4": "h6", "h5": "h6", "h6": "h6"}
# The blocks whose inside is a line of text: at the parser's deepest level it is parsed still; another's is dropped.
_LEAVES = frozenset({"paragraph_open", "heading_open", "th_open", "td_open"})
LINK_REL = "nofollow noopener noreferrer"


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


@lru_cache(maxsize=1)
def _parser():
    from markdown_it import MarkdownIt

    return MarkdownIt("gfm-like", {"html": False})  # the player's rules (editor/shown.py), raw HTML as text


def web_address(href: str) -> bool:
    """Whether a story's link is written as a link: a web address (``http``/``https``) with a host, and nothing in it
    that ``urlsplit`` would read past (spaces, control characters), as the player opens (editor/shown.py, ``opens``)."""
    if not href.isprintable() or any(c.isspace() for c in href):
        return False
    try:
        parts = urlsplit(href)
    except ValueError:  # a malformed address ("http://[") is not a link
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.netloc)


def story_html(text: str) -> str:
    """The HTML of a story's Markdown ``text``: the tags of the safe subset (the module's doc), every text escaped."""
    out: list[str] = []
    tokens = _parser().parse(text)
    deepest = _parser().options["maxNesting"] - 1
    if any(t.nesting == 1 and t.level >= deepest and t.type not in _LEAVES for t in tokens):
        return f"<p class=\"source\">{_e(text)}</p>"  # (its inmost blocks were dropped: the whole as text)
    for token in tokens:
        if token.type == "inline":
            _inline(token.children or (), out)
        elif token.hidden:  # a tight list's paragraphs: their text alone
            continue
        elif token.type in ("heading_open", "heading_close"):
            out.append(f"<{'/' if token.nesting < 0 else ''}{_HEADINGS.get(token.tag, 'h6')}>")
        elif token.type in ("fence", "code_block"):
            out.append(f"<pre><code>{_e(token.content)}</code></pre>")
        elif token.type == "hr":
            out.append("<hr>")
        elif token.type == "ordered_list_open" and isinstance(token.attrs.get("start"), int):
            out.append(f"<ol start=\"{int(token.attrs['start'])}\">")
        elif token.nesting and token.type.rpartition("_")[0] in _TAGS:
            out.append(f"<{'/' if token.nesting < 0 else ''}{_TAGS[token.type.rpartition('_')[0]]}>")
        elif token.content:  # a block of another kind (raw HTML, were it on): its text
            out.append(f"<p>{_e(token.content)}</p>")
    return "".join(out)


def _inline(children, out: list[str]) -> None:
    linked: list[bool] = []  # each open link: whether it was written as one
    for token in children:
        kind = token.type
        if kind == "text":
            out.append(_e(token.content))
        elif kind == "softbreak":
            out.append("\n")
        elif kind == "hardbreak":
            out.append("<br>")
        elif kind == "code_inline":
            out.append(f"<code>{_e(token.content)}</code>")
        elif kind == "link_open":
            href = str(token.attrs.get("href", ""))
            linked.append(web_address(href))
            if linked[-1]:
                out.append(f"<a href=\"{_e(href)}\" rel=\"{LINK_REL}\">")
        elif kind == "link_close":
            if linked and linked.pop():
                out.append("</a>")
        elif kind == "image":  # its words, never a request for a picture
            out.append(_e("".join(c.content for c in token.children or () if c.type == "text") or token.content))
        elif token.nesting and kind.rpartition("_")[0] in _TAGS:
            out.append(f"<{'/' if token.nesting < 0 else ''}{_TAGS[kind.rpartition('_')[0]]}>")
        elif token.content:  # another kind (raw HTML, were it on): its text
            out.append(_e(token.content))
