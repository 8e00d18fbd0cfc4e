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

A bare web address is its text (markdown-it's linkify off: it took 2 s over a story of "http://a" written 2,500 times);
``[words](https://...)`` and ``<https://...>`` are links. markdown-it takes up to 30 µs a character of some texts
(``[*`` or ``![`` repeated, a table of empty rows: 0.5 s a story of 20,000), so a map's stories are parsed as Markdown
up to :data:`MARKDOWN_CHARS` characters together (:func:`stories_html`): a story past that is shown as its text.
"""

from __future__ import annotations

import html
import threading
from collections import OrderedDict
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
# The characters of one map's stories (its own and its levels' prefaces) parsed as Markdown, all together: 1.2 s at
# most of markdown-it's time (its slowest texts), ten times the longest of the bundled campaigns' (4,408).
MARKDOWN_CHARS = 40_000


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


@lru_cache(maxsize=1)
def _parser():
    from markdown_it import MarkdownIt

    # The player's rules (editor/shown.py), raw HTML as text, and no linkify: a bare web address is its text (linkify
    # took seconds over a story of 20,000 characters like "http://a" repeated, quadratic); [words](http://...) and
    # <http://...> are links still.
    return MarkdownIt("gfm-like", {"html": False, "linkify": False}).disable("linkify")


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


def stories_html(texts: list[str], budget: int = MARKDOWN_CHARS) -> list[str]:
    """The HTML of each of a map's stories, in the order given (the map's own first): each drawn as Markdown while the
    stories so drawn hold ``budget`` characters at most together, one that would pass it shown as its text
    (``<p class="source">``, pre-wrapped by the page's stylesheet)."""
    out = []
    for text in texts:
        if len(text) <= budget:
            out.append(story_html(text))
            budget -= len(text)
        else:
            out.append(story_text(text))
    return out


# The characters of stories' HTML a hub process keeps (StoryCache): 32 Mi, a few hundred MB at most.
CACHE_CHARS = 32 * 1024 * 1024


class StoryCache:
    """The HTML of each map's stories (:func:`stories_html`) by the map's content hash, whose content never changes:
    a map page draws its stories once, not at every request. The least recently used are dropped past ``max_chars``
    characters of HTML in all (a map's larger than that is drawn every time). Safe across threads (the pages are drawn
    on worker threads)."""

    def __init__(self, max_chars: int = CACHE_CHARS) -> None:
        self.max_chars = max_chars
        self._kept: OrderedDict[str, list[str]] = OrderedDict()
        self._chars = 0
        self._lock = threading.Lock()

    def stories(self, content_hash: str, texts: list[str]) -> list[str]:
        """The HTML of ``texts``, the stories of the map ``content_hash``: kept, or drawn and kept."""
        with self._lock:
            if (kept := self._kept.get(content_hash)) is not None:
                self._kept.move_to_end(content_hash)
                return kept
        drawn = stories_html(texts)  # (outside the lock: two threads may draw one map at once, and keep it once)
        size = sum(map(len, drawn))
        with self._lock:
            if content_hash not in self._kept and size <= self.max_chars:
                self._kept[content_hash] = drawn
                self._chars += size
                while self._chars > self.max_chars:
                    self._chars -= sum(map(len, self._kept.popitem(last=False)[1]))
        return drawn


def story_text(text: str) -> str:
    """A story shown as the text it is written as (its lines kept by the stylesheet's ``.story .source``)."""
    return f"<p class=\"source\">{_e(text)}</p>"


def story_html(text: str) -> str:
    """The HTML of a story's Markdown ``text``: the tags of the safe subset (the module's doc), every text escaped."""
    out: list[str] = []
    tokens = _parser().parse(text)
    deepest = _parser().options["maxNesting"] - 1
    if any(t.nesting == 1 and t.level >= deepest and t.type not in _LEAVES for t in tokens):
        return story_text(text)  # (its inmost blocks were dropped: the whole as text)
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
