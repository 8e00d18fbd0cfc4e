"""A story on the hub's map page is drawn as the Markdown it is (docs/authoring.md: ``story``, "The campaign's opening
story (Markdown)"), as the player and the editor's preview draw it, in a safe subset: a stranger's story never
becomes markup of its choosing (docs/hub.md, "Every string is shown as text")."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrogue.hub import pages
LINK_REL = "nofollow noopener noreferrer"  # (hub/story.py: a story's links tell no search engine, opener or referrer)

# The tags a story may produce on the page (hub/story.py), and the only attributes: a link's address and rel, a
# numbered list's start.
STORY_TAGS = {"p", "br", "h4", "h5", "h6", "em", "strong", "s", "code", "pre", "ul", "ol", "li", "blockquote", "hr",
              "a", "table", "thead", "tbody", "tr", "th", "td"}


class _Walk(HTMLParser):
    """The tags, attributes and text of a page as a browser's parser reads them (entities decoded)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.text: list[str] = []
        self.comments: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        self.tags.append((tag, attrs))

    def handle_startendtag(self, tag, attrs) -> None:
        self.tags.append((tag, attrs))

    def handle_data(self, data) -> None:
        self.text.append(data)

    def handle_comment(self, data) -> None:
        self.comments.append(data)

    def handle_decl(self, decl) -> None:
        self.comments.append(decl)

    def unknown_decl(self, data) -> None:
        self.comments.append(data)


def _story_of(page: str) -> str:
    """The HTML inside the map's story box on ``page``."""
    return page.split('<div class="story">', 1)[1].split("</div>", 1)[0]


def _page(story: str) -> str:
    m = {"id": "tale", "title": "A tale", "author": "alice", "publisher": "alice", "published_at": "2026-11-28T00:00:00Z",
         "version": 1, "hash": "ab" * 32, "par": {"turns": 11, "health": 8}, "difficulty": None, "story": story,
         "runs": 0, "players": 0, "competition": False, "window_ends": "2026-11-28T00:00:00Z", "versions": [],
         "levels_detail": [{"id": "one", "title": "Level one", "story": story}]}
    return pages.map_page(m, [])


def _only_safe_markup(story: str) -> _Walk:
    """The story's box on the map page holds no tag, attribute or declaration but the safe subset's; its walk."""
    page = _page(story)
    if not story:
        return _Walk()
    assert page.count('<div class="story">') == (2 if story else 0), "the story closed its box or opened another"
    walk = _Walk()
    walk.feed(_story_of(page))
    walk.close()
    for tag, attrs in walk.tags:
        assert tag in STORY_TAGS, (tag, attrs)
        names = [name for name, _ in attrs]
        if tag == "a":
            assert names == ["href", "rel"] and dict(attrs)["rel"] == LINK_REL, attrs
            assert dict(attrs)["href"].lower().startswith(("http://", "https://")), attrs
        elif tag == "p" and attrs:  # a story nested past the parser's depth, shown as its text (the hub's class)
            assert attrs == [("class", "source")], attrs
        elif tag == "ol":
            assert names in ([], ["start"]) and (not attrs or dict(attrs)["start"].isdigit()), attrs
        else:
            assert attrs == [], (tag, attrs)
    assert walk.comments == []
    return walk


def test_a_story_is_drawn_as_markdown_paragraphs_emphasis_lists_and_headings() -> None:
    """The page showed a story's Markdown as its source text (``**`` and ``#`` and all) in one pre-wrapped box."""
    story = ("# The Ledger\n\nThe lamp *flickers*; the **door** is shut.\nThe same paragraph.\n\n"
             "- a key\n- a `lamp`\n\n2. second\n3. third\n\n> Said the clerk.\n\n[The rules](https://example.org/rules)")
    box = _story_of(_page(story))
    assert box == ("<h4>The Ledger</h4><p>The lamp <em>flickers</em>; the <strong>door</strong> is shut.\n"
                   "The same paragraph.</p><ul><li>a key</li><li>a <code>lamp</code></li></ul>"
                   "<ol start=\"2\"><li>second</li><li>third</li></ol><blockquote><p>Said the clerk.</p></blockquote>"
                   f"<p><a href=\"https://example.org/rules\" rel=\"{LINK_REL}\">The rules</a></p>")
    assert ".story pre" in pages.STYLESHEET and ".story, .description" not in pages.STYLESHEET  # no pre-wrap


HOSTILE = {
    "a script": ("<script>document.title='pwned'</script>", "<script>document.title='pwned'</script>"),
    "a tag's handler": ('<img src=x onerror="alert(1)">', '<img src=x onerror="alert(1)">'),
    "a block of HTML": ("<div>\n<iframe src=\"/\"></iframe>\n</div>", '<iframe src="/"></iframe>'),
    "a style": ("<style>body{display:none}</style>", "<style>body{display:none}</style>"),
    "a comment": ("<!-- hidden --> shown", "<!-- hidden --> shown"),
    "a javascript link": ("[click](javascript:alert(1))", "[click](javascript:alert(1))"),
    "a javascript link in capitals": ("[click](JaVaScRiPt:alert(1))", "click"),
    "a javascript autolink": ("<javascript:alert(1)>", "<javascript:alert(1)>"),
    "a data link": ("[x](data:text/html;base64,PHNjcmlwdD4=)", "[x](data:text/html;base64,PHNjcmlwdD4=)"),
    "a vbscript link": ("[x](vbscript:msgbox)", "[x](vbscript:msgbox)"),
    "a file link": ("[x](file:///etc/passwd)", "x"),
    "a link without a scheme": ("[x](//evil.example/)", "x"),
    "a reference link to javascript": ("[x][r]\n\n[r]: javascript:alert(1)", "[x][r]"),
    "an entity-written javascript link": ("[x](&#106;avascript:alert(1))", "x"),
    "an entity-written script": ("&lt;script&gt;alert(1)&lt;/script&gt;", "<script>alert(1)</script>"),
    "numeric entities": ("&#60;b&#62;bold?&#60;/b&#62;", "<b>bold?</b>"),
    "a quote out of the address": ('[x](https://a.example/"onmouseover="alert(1))', "x"),
    "a link's title": ('[x](https://a.example/ "t\\" onclick=\\"alert(1)")', "x"),
    "an image": ("![<b>alt</b>](https://evil.example/track.png)", "<b>alt</b>"),
    "an image's handler": ('![x](x" onerror="alert(1))', "x"),
    "a closing div": ("</div><h1>fake heading</h1>", "</div><h1>fake heading</h1>"),
    "a table's alignment": ("| a |\n|:-:|\n| <i>b</i> |", "<i>b</i>"),
    "a fenced block's language": ('```"><script>x</script>\ncode\n```', "code"),
    "Rich markup": ("[bold red]not rich[/] [link=https://x]y[/link]", "[bold red]not rich[/]"),
}


@pytest.mark.parametrize("story, shown", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_story_becomes_no_markup(story: str, shown: str) -> None:
    """Raw HTML, links to anything but a web address, entities that spell markup, quotes that would end an
    attribute: each is text on the page (``shown``, read back as a browser reads it), never a tag or an attribute."""
    walk = _only_safe_markup(story)
    assert shown in "".join(walk.text), (story, walk.text)


def test_a_web_link_opens_with_no_follow_and_no_opener() -> None:
    walk = _only_safe_markup("[the rules](https://example.org/a?b=1&c=\"2\") and <http://auto.example/x>")
    assert [dict(attrs) for tag, attrs in walk.tags if tag == "a"] == [
        {"href": "https://example.org/a?b=1&c=%222%22", "rel": LINK_REL},
        {"href": "http://auto.example/x", "rel": LINK_REL}]


def test_a_bare_web_address_is_its_text() -> None:
    """markdown-it's linkify is off on the pages: it took 2 s over a story of "http://a" written 2,500 times (and
    a 22-level map of them 49 s, every other request waiting). A bare address is its text; the story is all there."""
    from cardrogue.hub import story

    assert story._parser().options["linkify"] is False
    walk = _only_safe_markup("the rules: http://bare.example/x and www.bare.example")
    assert [tag for tag, _ in walk.tags if tag == "a"] == []
    assert "".join(walk.text) == "the rules: http://bare.example/x and www.bare.example"
    hostile = ("http://a" * 2500)[:20_000]
    walk = _only_safe_markup(hostile)
    assert [tag for tag, _ in walk.tags if tag == "a"] == [] and "".join(walk.text) == hostile


def _parsed(monkeypatch) -> list[int]:
    """The length of each text handed to the pages' Markdown parser from now on."""
    from cardrogue.hub import story

    parser, sizes = story._parser(), []
    parse = parser.parse

    def counted(text, *args, **kwargs):
        sizes.append(len(text))
        return parse(text, *args, **kwargs)

    monkeypatch.setattr(parser, "parse", counted)
    return sizes


def test_a_maps_stories_are_parsed_as_markdown_up_to_a_bound(monkeypatch) -> None:
    """markdown-it takes up to 30 µs a character of some texts (``[*`` repeated: 0.5 s a story of 20,000): a map's
    stories are parsed up to MARKDOWN_CHARS characters together, and the rest shown as the text they are written as.
    (The reviewer's map: 22 levels, each story 20,000 characters, 460,000 parsed.)"""
    from cardrogue.hub import story

    sizes = _parsed(monkeypatch)
    tale = "[*" * 10_000
    m = {"id": "tale", "title": "A tale", "author": "alice", "publisher": "alice", "published_at": "2026-11-28",
         "version": 1, "hash": "ab" * 32, "par": {"turns": 11, "health": 8}, "difficulty": None, "story": tale,
         "runs": 0, "players": 0, "competition": False, "window_ends": "2026-11-28", "versions": [],
         "levels_detail": [{"id": f"l{i}", "title": f"Level {i}", "story": tale} for i in range(22)]}
    page = pages.map_page(m, [])
    assert sum(sizes) <= story.MARKDOWN_CHARS and len(sizes) == story.MARKDOWN_CHARS // len(tale)
    assert page.count('<div class="story">') == 23 and page.count('<p class="source">' + tale) == 23 - len(sizes)
    sizes.clear()
    m["story"] = "The lamp *flickers*."  # (a short story after a long one is drawn as Markdown: it fits)
    m["levels_detail"][5]["story"] = "The *door*."
    page = pages.map_page(m, [])
    assert "<p>The lamp <em>flickers</em>.</p>" in page and "<p>The <em>door</em>.</p>" in page
    assert sum(sizes) <= story.MARKDOWN_CHARS


def test_a_map_page_is_drawn_on_a_worker_thread_and_its_stories_once(tmp_path, monkeypatch) -> None:
    """The pages are drawn off the event loop (a map page drawn on it held every other request for its seconds of
    Markdown), and a map's stories once for its content hash, not at every request."""
    import asyncio

    from hub_support import call, map_text, register, running_hub

    def on_the_loop() -> bool:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return False
        return True

    drawn_on_loop = []

    def watched(real):
        def draw(*args, **kwargs):
            drawn_on_loop.append(on_the_loop())
            return real(*args, **kwargs)
        return draw

    for name in ("map_page", "map_list"):
        monkeypatch.setattr(pages, name, watched(getattr(pages, name)))
    doc = json.loads(map_text("tale", "A tale"))
    doc["story"] = "The lamp *flickers*."
    for level in doc["levels"]:
        level["story"] = f"The *{level['id']}*."
    with running_hub(str(tmp_path / "hub.sqlite3")) as hub:
        alice = register(hub.base, "alice")
        assert call(hub.base, "POST", "/api/maps", {"campaign": json.dumps(doc)}, token=alice)[0] == 201
        sizes = _parsed(monkeypatch)
        first = call(hub.base, "GET", "/maps/tale")[1]
        assert len(sizes) == 1 + len(doc["levels"])
        assert call(hub.base, "GET", "/maps/tale?every=1")[1] == first and call(hub.base, "GET", "/")[0] == 200
        assert len(sizes) == 1 + len(doc["levels"])  # (drawn once)
    assert "<p>The lamp <em>flickers</em>.</p>" in first
    assert drawn_on_loop == [False, False, False]


def test_a_huge_hostile_story_becomes_no_markup() -> None:
    """The longest story a file may hold (20,000 characters, the schema's bound) of markup, brackets, stars and
    quotes nested deep: only the safe subset's tags, and every character of its text is there to read."""
    pieces = ["<script>", "*", "**", "[", "](javascript:x)", "> ", "- ", "`", "&lt;", "\"", "'", "\n", "#", "|", "~~"]
    story = "".join(pieces[i * 7 % len(pieces)] for i in range(4000))[:20_000]
    walk = _only_safe_markup(story)
    assert "<script>" in "".join(walk.text)
    nested = "> " * 200 + "- " * 200 + "[" * 2000 + "<b>" * 1000
    walk = _only_safe_markup(nested)
    assert "<b>" * 1000 in "".join(walk.text)


@pytest.mark.parametrize("story", ["> " * 20 + "the inmost line", "- " * 10 + "the inmost line",
                                   "> - " * 10 + "the inmost line", "1. " * 10 + "the inmost line"])
def test_a_story_nested_deeper_than_the_parser_goes_loses_nothing(story: str) -> None:
    """markdown-it drops the blocks nested past its 20th level: the story is shown as the text it is written as."""
    walk = _only_safe_markup(story)
    assert "".join(walk.text).endswith("the inmost line")
    shallow = _only_safe_markup("> " * 19 + "the inmost line")  # the deepest drawn as Markdown
    assert [t for t, _ in shallow.tags].count("blockquote") == 19 and "".join(shallow.text) == "the inmost line"


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("<>/&#;\"'=`*_[]()!:\n\\-~|ajvscriptx ")), max_size=80))
def test_no_story_becomes_markup_of_its_own(story: str) -> None:
    """Whatever the story (the characters of Markdown and HTML, entities and scripts), its box holds only the safe
    subset's tags."""
    _only_safe_markup(story)


def test_the_api_still_gives_the_story_as_written(tmp_path) -> None:
    """Only the page draws it: the API's detail holds the Markdown source (the pages are tested on SQLite)."""
    from hub_support import call, map_text, register, running_hub

    doc = json.loads(map_text("tale", "A tale"))
    doc["story"] = "The lamp *flickers*. <b>raw</b>"
    with running_hub(str(tmp_path / "hub.sqlite3")) as hub:
        alice = register(hub.base, "alice")
        assert call(hub.base, "POST", "/api/maps", {"campaign": json.dumps(doc)}, token=alice)[0] == 201
        assert call(hub.base, "GET", "/api/maps/tale")[1]["story"] == "The lamp *flickers*. <b>raw</b>"
        page = call(hub.base, "GET", "/maps/tale")[1]
    assert "<p>The lamp <em>flickers</em>. &lt;b&gt;raw&lt;/b&gt;</p>" in page
