"""The hub's HTML pages in a real headless Chromium (issue 15, point 7): every user string is
shown as text, the stylesheet loads under the Content-Security-Policy, screenshots are checked."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path

import pytest
from browser import Browser, pixels, render
from hub_support import FAST, call, map_text, register, running_hub, slower, solution
from polling import Pauses


def loaded_with_style(page, what: str, also: str = "true") -> None:
    """Wait, bounded (60 s: a wait for the page and its stylesheet, not a timing), until the page has loaded
    with the hub's stylesheet applied (its paper background) and the script ``also`` holds."""
    styled = "getComputedStyle(document.body).backgroundColor === 'rgb(253, 252, 248)'"
    deadline, pause = time.monotonic() + 60, Pauses()
    while not page.evaluate(f"document.readyState === 'complete' && {styled} && ({also})"):
        assert time.monotonic() < deadline, f"{what} did not load with its stylesheet"
        pause()


HOSTILE_STORY = ('The lamp flickers. <script>document.title="pwned"</script>'
                 '<img src=x onerror="document.title=\'pwned\'"> </div><b>bold?</b> [bold red]not rich[/]')


def _hostile_map() -> str:
    doc = json.loads(map_text("lamp", "The Lamp & the \"Ledger\""))
    doc["author"] = "O'Brien"
    doc["levels"][0]["story"] = HOSTILE_STORY
    doc["description"] = "<iframe src=\"/\"></iframe> a map"
    return json.dumps(doc, indent=2)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory):
    """A hub with two maps, runs on both, one competition still open."""
    db = tmp_path_factory.mktemp("pages") / "hub.sqlite3"
    with running_hub(str(db), replace(FAST, play_url="https://play.example.invalid/?map={hash}")) as hub:
        alice, bob = register(hub.base, "alice"), register(hub.base, "bob")
        lamp = call(hub.base, "POST", "/api/maps", {"campaign": _hostile_map(), "window_days": 0}, token=alice)[1]
        needle = call(hub.base, "POST", "/api/maps", {"campaign": map_text()}, token=bob)[1]
        call(hub.base, "POST", "/api/maps/lamp/runs", raw=solution(_hostile_map()).encode(), token=bob)
        call(hub.base, "POST", "/api/maps/lamp/runs", raw=slower(_hostile_map(), 3).encode(), token=alice)
        call(hub.base, "POST", "/api/maps/needle/runs", raw=solution(map_text()).encode(), token=alice)
        hub.maps = {"lamp": lamp, "needle": needle}
        yield hub


def _looks_drawn(shot: Path) -> None:
    """The page is drawn with the hub's stylesheet: its background colour, and text on it."""
    width, height, rows = pixels(shot)
    assert (width, height) == (900, 700)
    assert rows[height - 5][0:3] == bytes((0xfd, 0xfc, 0xf8))  # body background from /hub.css
    inked = sum(1 for row in rows[::4] for i in range(0, len(row), 12) if row[i] < 128)
    assert inked > 200  # dark text, not a blank or error page


def test_the_map_list_in_a_browser(site, tmp_path: Path) -> None:
    page = render(site.base + "/", tmp_path, "list", size=(900, 700))
    assert "The Lamp &amp; the \"Ledger\"" in page.dom and "The Needle" in page.dom
    assert "O'Brien" in page.dom
    assert "<title>Card Rogue community hub</title>" in page.dom
    _looks_drawn(page.screenshot)


def test_a_map_page_shows_prefaces_as_text_and_the_leaderboard(site, tmp_path: Path) -> None:
    page = render(site.base + "/maps/lamp", tmp_path, "lamp", size=(900, 700))
    dom = page.dom
    assert "<title>The Lamp &amp; the \"Ledger\" — Card Rogue community hub</title>" in dom  # not "pwned"
    assert "&lt;script&gt;document.title=\"pwned\"&lt;/script&gt;" in dom
    assert "&lt;img src=x" in dom and "<img" not in dom and "<script" not in dom and "<iframe" not in dom
    assert "[bold red]not rich[/]" in dom
    assert "The Old Shop" in dom and "A shopkeeper" in dom  # level 2's title and preface
    board = dom.split('id="leaderboard"', 1)[1]
    assert board.index("bob") < board.index("alice")  # 11 turns before 14
    assert "/runs/" in board and "replay" in board  # the window has ended: replays are linked
    assert 'href="https://play.example.invalid/?map=' in dom  # the web player's link, when configured
    _looks_drawn(page.screenshot)


def test_during_the_competition_replays_are_hidden(site, tmp_path: Path) -> None:
    page = render(site.base + "/maps/needle", tmp_path, "needle", size=(900, 700))
    assert "Competition open until" in page.dom
    board = page.dom.split('id="leaderboard"', 1)[1]
    assert "alice" in board and "/runs/" not in board and "hidden" in board


def test_a_map_without_an_author_names_its_publisher_once(site) -> None:
    """A map without an author: its page said `by alice · published by alice` in the walk of the product
    (the list's author column falls back to the publisher; the page said it twice). With an author, both."""
    from cardrogue.hub import pages

    detail = call(site.base, "GET", "/api/maps/needle")[1]
    authored = pages.map_page(detail, [])
    assert "<p>by <bdi>Card Rogue Story Studio</bdi> · published by <bdi>bob</bdi> on " in authored
    anonymous = pages.map_page(dict(detail, author=""), [])
    assert "<p>published by <bdi>bob</bdi> on " in anonymous and "by <bdi>bob</bdi> · published" not in anonymous


def test_no_play_link_unless_a_web_player_is_configured(tmp_path: Path) -> None:
    with running_hub(str(tmp_path / "hub.sqlite3")) as hub:
        token = register(hub.base, "alice")
        call(hub.base, "POST", "/api/maps", {"campaign": map_text()}, token=token)
        status, text, _ = call(hub.base, "GET", "/maps/needle")
        assert status == 200 and "Play in the browser" not in text
        assert "play_url" not in call(hub.base, "GET", "/api/maps/needle")[1]


def test_a_missing_map_is_an_escaped_html_404(site, tmp_path: Path) -> None:
    status, text, headers = call(site.base, "GET", "/maps/%3Cb%3Eno%22")
    assert status == 404 and "&lt;b&gt;no&quot;" in text and "<b>no" not in text
    assert headers["content-type"].startswith("text/html")


def test_search_from_the_page(site, tmp_path: Path) -> None:
    page = render(site.base + "/?q=needle", tmp_path, "search", size=(900, 700))
    assert "The Needle" in page.dom and "Ledger" not in page.dom
    assert 'value="needle"' in page.dom


def test_a_search_that_matches_nothing_shows_the_query_as_text(site) -> None:
    """The 'No map matches' line escapes the query as the search box does: a query of HTML tags was
    written into the page as HTML (the browser showed "No map matches '" and swallowed the rest)."""
    status, text, _ = call(site.base, "GET", "/?q=%3Cb%3Ex%3C%2Fb%3E%22")
    assert status == 200
    empty = text.split('id="empty">', 1)[1].split("</p>", 1)[0]
    assert "&lt;b&gt;x&lt;/b&gt;" in empty and "<b>" not in text


def test_the_pages_link_to_the_maps_and_runs_past_the_first_page(site, tmp_path: Path) -> None:
    """The list showed the newest 50 maps and a map page its best 50 runs, with no way on from the page:
    a link to the next page when there is one, and back (the address's limit and query kept)."""
    import html
    import re

    def links(text: str) -> dict[str, str]:
        return {rel: html.unescape(href) for rel, href in re.findall(r'<a rel="(prev|next)" href="([^"]+)"', text)}

    first = call(site.base, "GET", "/?limit=1")[1]
    assert first.count("<tr><td>") == 1 and links(first) == {"next": "/?offset=1&limit=1"}
    second = call(site.base, "GET", links(first)["next"])[1]
    assert second.count("<tr><td>") == 1 and links(second) == {"prev": "/?offset=0&limit=1"}
    assert (">The Needle<" in first) != (">The Needle<" in second)
    assert "this far down" in call(site.base, "GET", "/?offset=5")[1]
    board = call(site.base, "GET", "/maps/lamp?limit=1")[1]  # bob's run, then alice's
    path = f"/maps/{site.maps['lamp']['hash']}"
    ranked = board.split('id="leaderboard"', 1)[1]
    assert "bob" in ranked and "alice" not in ranked and links(board) == {"next": f"{path}?offset=1&limit=1"}
    lower = call(site.base, "GET", links(board)["next"])[1].split('id="leaderboard"', 1)[1]
    assert "alice" in lower and "bob" not in lower and "<td class=\"n\">2</td>" in lower
    assert links(lower) == {"prev": f"{path}?offset=0&limit=1"} and "next" not in links(lower)
    page = render(site.base + links(board)["next"], tmp_path, "lower", size=(900, 700))
    _looks_drawn(page.screenshot)


def test_a_map_page_reads_no_search_text_and_no_page_links_past_the_furthest_offset(site) -> None:
    """The hub takes an ``offset`` of at most 1,000,000 and a ``q`` of at most 200 characters. A map page has
    no search: a ``q`` of any length there is not read (it was, and answered 400); and no page links
    to an offset the hub would refuse with 400."""
    from cardrogue.hub import pages

    status, text = call(site.base, "GET", "/maps/lamp?q=" + "x" * 201)[:2]
    assert status == 200 and 'id="leaderboard"' in text
    assert call(site.base, "GET", "/?q=" + "x" * 201)[0] == 400  # the list's search still is bounded
    last = pages.map_list([], "", offset=pages.MAX_OFFSET - 10, count=50, more=True)
    assert 'rel="prev"' in last and 'rel="next"' not in last
    within = pages.map_list([], "", offset=pages.MAX_OFFSET - 50, count=50, more=True)
    assert "offset=1000000&amp;limit=50" in within
    assert call(site.base, "GET", f"/?offset={pages.MAX_OFFSET}&limit=50")[0] == 200


def test_a_long_word_does_not_push_the_pages_wider_than_the_window(tmp_path: Path) -> None:
    """A title may be 120 characters of one word (docs/authoring.md: `title` ≤ 120 chars): on the map list it
    pushed every map's author, par, runs, best and difficulty past the window's right edge, and on the map page
    the title, the description and the stories ran off it. Long words break now, nothing is wider than the window."""
    doc = json.loads(map_text("longword", "W" * 120))
    doc["description"], doc["story"] = "D" * 500, "S" * 800
    doc["levels"][0]["title"], doc["author"] = "L" * 120, "A" * 120
    with running_hub(str(tmp_path / "hub.sqlite3")) as hub:
        token = register(hub.base, "alice")
        assert call(hub.base, "POST", "/api/maps", {"campaign": map_text()}, token=token)[0] == 201
        status, m, _ = call(hub.base, "POST", "/api/maps", {"campaign": json.dumps(doc)}, token=token)
        assert status == 201, m
        with Browser(tmp_path / "browser", size=(1000, 800)) as browser:
            for path in ("/", f"/maps/{m['hash']}"):
                page = browser.open(hub.base + path)
                loaded_with_style(page, path)
                wide, window = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
                assert wide <= window, (path, wide, window)
                if path == "/":  # the other columns are on screen, beside the long title, their words whole
                    right = page.evaluate("document.querySelector('#maps th:last-child').getBoundingClientRect().right")
                    assert right <= window, right
                    lines = page.evaluate("[...document.querySelectorAll('#maps th, #maps td:nth-child(n+2)')]"
                                          ".filter(cell => !cell.textContent.includes(' ') && cell.textContent.length < 20)"
                                          ".map(cell => { const r = document.createRange(); r.selectNodeContents(cell);"
                                          " return [cell.textContent, new Set([...r.getClientRects()].map(b => b.top)).size]; })")
                    assert lines and all(count == 1 for _, count in lines), lines  # 'author', 'alice', '4': one line each


def test_on_a_narrow_window_the_map_list_keeps_its_words_whole(tmp_path: Path) -> None:
    """A phone's width (400 px): the list broke its titles mid-word ("Ope" / "n Toll") because a title cell
    could shrink to one letter (the rule that lets a 120-letter word break). A word of a title or an author
    breaks only when it is longer than the cell can be; the page is never wider than the window (the list
    scrolls sideways in its own box when its columns cannot fit)."""
    doc = json.loads(map_text("longword", "W" * 120))
    doc["author"] = "Bartholomew Quartermaine"
    with running_hub(str(tmp_path / "hub.sqlite3")) as hub:
        token = register(hub.base, "alice")
        assert call(hub.base, "POST", "/api/maps", {"campaign": map_text("toll", "Open Toll of the Quiet Mountain")},
                    token=token)[0] == 201
        assert call(hub.base, "POST", "/api/maps", {"campaign": json.dumps(doc)}, token=token)[0] == 201
        with Browser(tmp_path / "browser", size=(400, 800)) as browser:
            page = browser.open(hub.base + "/")
            loaded_with_style(page, "the list")
            wide, window = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert wide <= window, (wide, window)
            split = page.evaluate(
                "[...document.querySelectorAll('#maps td:nth-child(-n+2)')].flatMap(cell => {"
                " const node = (cell.querySelector('a, bdi') || cell).firstChild;"
                " return [...node.textContent.matchAll(/\\S+/g)].filter(m => m[0].length <= 12).map(m => {"
                "  const r = document.createRange(); r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);"
                "  return [m[0], new Set([...r.getClientRects()].map(b => Math.round(b.top))).size]; }); })")
            assert split and all(lines == 1 for _, lines in split), split
            assert {word for word, _ in split} >= {"Open", "Toll", "Quiet", "Mountain", "Bartholomew", "Quartermaine"}
            page.screenshot(tmp_path / "narrow.png")


def test_on_a_phone_the_map_page_is_no_wider_than_the_window(site, tmp_path: Path) -> None:
    """A phone's width (400 px): the leaderboard's six columns (#, player, turns, health, submitted, replay)
    ran past the window's right edge and made the whole page scroll sideways, its replay links off screen.
    The leaderboard scrolls sideways in its own box, as the map list does (checked here at a true 400 px too:
    the list's own test runs in headless Chromium's narrowest window, 500 px)."""
    with Browser(tmp_path / "browser", size=(400, 800)) as browser:
        page = browser.open("about:blank")
        # Headless Chromium's window is 500 px at the least, whatever --window-size says: the page is laid out
        # at a phone's 400 px by the DevTools' device metrics.
        page.command("Emulation.setDeviceMetricsOverride", width=400, height=800, deviceScaleFactor=1, mobile=False)
        page.navigate(site.base + "/maps/lamp")
        loaded_with_style(page, "the map page")
        wide, window = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        page.screenshot(tmp_path / "phone-map.png")
        assert window == 400 and wide <= window, (wide, window)
        assert page.evaluate("document.querySelectorAll('#leaderboard a[href*=\"/runs/\"]').length") == 2
        page.navigate(site.base + "/")  # the map list too, at the true 400 px
        loaded_with_style(page, "the map list", "!!document.querySelector('#maps')")
        wide, window = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert window == 400 and wide <= window, (wide, window)


def test_on_a_real_phone_the_pages_are_laid_out_at_its_width(site, tmp_path: Path) -> None:
    """A phone's browser (DevTools' mobile emulation, 400 px) lays out a page without a viewport meta tag at
    980 px and shrinks it to the screen: the hub's pages were drawn at 980 px, their text about 5 px high.
    Each page (the list, a map, an error) declares the device's width, so it is laid out at 400 px."""
    with Browser(tmp_path / "browser", size=(400, 800)) as browser:
        page = browser.open("about:blank")
        page.command("Emulation.setDeviceMetricsOverride", width=400, height=800, deviceScaleFactor=2, mobile=True)
        for path, what, ready in (("/", "the map list", "!!document.querySelector('#maps')"),
                                  ("/maps/lamp", "the map page", "!!document.querySelector('#leaderboard')"),
                                  ("/maps/nowhere", "an error page", "!!document.querySelector('#error')")):
            page.navigate(site.base + path)
            loaded_with_style(page, what, ready)
            wide, window = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
            assert window == 400 and wide <= window, (path, wide, window)
        page.screenshot(tmp_path / "phone-error.png")


def test_the_list_says_who_published_a_map_whose_author_is_another_name(tmp_path: Path) -> None:
    """A campaign's author is free text: a stranger published a copy of alice's map with the author 'alice',
    and the list (its author column, no publisher) showed the two rows alike (hub18, seen in Chromium). The
    publisher, the account the hub knows, is said beside an author that is not the publisher's name."""
    from cardrogue.hub import pages

    with running_hub(str(tmp_path / "hub.sqlite3")) as hub:
        alice, mallory = register(hub.base, "alice"), register(hub.base, "mallory")
        for token, campaign_id in ((alice, "needle"), (mallory, "needle-copy")):
            doc = json.loads(map_text(campaign_id, "The Needle Run"))
            doc["author"] = "alice"
            assert call(hub.base, "POST", "/api/maps", {"campaign": json.dumps(doc)}, token=token)[0] == 201
        page = render(hub.base + "/", tmp_path, "list", size=(900, 700))
        rows = page.dom.split("<tbody>", 1)[1].split("</tbody>", 1)[0].split("<tr>")[1:]
        shown = sorted(row.split("<td>", 2)[2].split("</td>", 1)[0] for row in rows)
        assert shown == ['<bdi>alice</bdi>', '<bdi>alice</bdi> <span class="muted">(published by <bdi>mallory</bdi>)</span>'], shown
        anonymous = dict(call(hub.base, "GET", "/api/maps/needle")[1], author="")
        assert "<td><bdi>alice</bdi></td>" in pages.map_list([anonymous], "")  # no author: the publisher, once


def _stacked(text: str) -> str:
    """``text`` with 8 combining marks on each letter, 4 above and 4 below: the most the text rule lets a map hold."""
    above, below = "\u0300\u0301\u0302\u0303", "\u0316\u0317\u0318\u0319"
    return "".join(ch + above + below if ch.isalpha() else ch for ch in text)


@pytest.mark.parametrize("field", ["title", "author", "description", "story", "level title", "level story"])
def test_stacked_marks_stay_in_the_box_of_their_own_text(tmp_path: Path, field: str) -> None:
    """The most combining marks the text rule lets a map hold (8 on a letter, 4 above and 4 below) reached over
    the lines above and below their text: the title's covered the by-line, a level title's its story. Drawn in a
    real Chromium beside the same page with the letters bare, the two differ only within the box of that text
    (and the clip margin the stylesheet gives legitimate stacks)."""
    from browser import Browser

    from cardrogue.hub import pages

    def page(text: str) -> str:
        m = {"id": "marks", "title": "A title", "author": "An author", "publisher": "alice", "published_at": "2026-11-28T00:00:00Z",
             "version": 1, "hash": "ab" * 32, "par": {"turns": 11, "health": 8}, "difficulty": None,
             "description": "A description.", "story": "A story.", "runs": 0, "players": 0, "competition": False,
             "window_ends": "2026-11-28T00:00:00Z", "versions": [],
             "levels_detail": [{"id": "one", "title": "Level one", "story": "A level's story."}]}
        key = {"level title": ("levels_detail", "title"), "level story": ("levels_detail", "story")}.get(field)
        if key:
            m["levels_detail"][0][key[1]] = text
        else:
            m[field] = text
        return pages.map_page(m, []).replace('href="/hub.css"', 'href="hub.css"')

    (tmp_path / "hub.css").write_text(pages.STYLESHEET)
    (tmp_path / "bare.html").write_text(page("Quietly here"))
    (tmp_path / "stacked.html").write_text(page(_stacked("Quietly here")))
    find = ("(() => { const e = [...document.querySelectorAll('h2,h3,p,div')].filter(e => e.textContent.includes("
            "'Quietly')).pop(); const r = e.getBoundingClientRect(); "
            "return [r.top, r.bottom, parseFloat(getComputedStyle(e).fontSize)]; })()")
    shots = {}
    with Browser(tmp_path / "browser", size=(1000, 900)) as browser:
        for name in ("bare", "stacked"):
            tab = browser.open((tmp_path / f"{name}.html").as_uri())
            loaded_with_style(tab, name, "document.body.textContent.includes('Quietly') || document.body.textContent.includes('Q')")
            top, bottom, size = tab.evaluate(find) if name == "bare" else (top, bottom, size)
            shots[name] = pixels(tab.screenshot(tmp_path / f"{name}.png"))[2]
    margin = 0.3 * size + 2
    differ = [y for y, (a, b) in enumerate(zip(shots["bare"], shots["stacked"])) if a != b]
    assert differ, "the marks are drawn"
    outside = [y for y in differ if y < top - margin or y > bottom + margin]
    assert outside == [], f"{field}: the marks drawn over rows {outside[:3]}...{outside[-3:]}, its box is {top:.0f} to {bottom:.0f}"


@pytest.mark.parametrize("title", [" ", "\u200b\u2060", "\u3164\u115f", "\u2800 \ufeff", "\u0301\u0302"])
def test_a_title_that_draws_nothing_is_shown_by_its_id(tmp_path: Path, title: str) -> None:
    """A title of spaces, format characters, blank fillers or marks on nothing drew nothing: the list's link to the
    map could be neither seen nor clicked, and a level's heading read 'Level 1: '. Such a title is shown by the id."""
    import html
    import re

    doc = json.loads(map_text("blank", "Blank"))
    doc["title"] = title
    doc["levels"][0]["title"] = title
    with running_hub(str(tmp_path / "hub.sqlite3")) as hub:
        status, body, _ = call(hub.base, "POST", "/api/maps", {"campaign": json.dumps(doc)}, token=register(hub.base, "alice"))
        assert status == 201, body
        listed = call(hub.base, "GET", "/")[1]
        link = re.search(r'<a href="/maps/[0-9a-f]{64}">(.*?)</a>', listed)
        assert link and html.unescape(link.group(1)) == "blank", listed
        page = call(hub.base, "GET", "/maps/blank")[1]
        assert '<h2 id="title">blank</h2>' in page and "<title>blank — " in page
        assert f"<h3>Level 1: {doc['levels'][0]['id']}</h3>" in page
        assert body["title"] == title  # the API says the title as it is


def test_a_description_keeps_its_line_breaks(tmp_path: Path) -> None:
    """A description may span lines (the text rule lets newlines through outside a title); the page ran them into
    one line ('First line. Second line.'), as it does not a story's."""
    from browser import Browser

    doc = json.loads(map_text("lines", "Lines"))
    doc["description"] = "First line.\nSecond line."
    lines = ("(() => { const e = [...document.querySelectorAll('p')].find(e => e.textContent.includes('First line.'));"
             " const r = document.createRange(); r.selectNodeContents(e);"
             " return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; })()")
    with running_hub(str(tmp_path / "hub.sqlite3")) as hub:
        assert call(hub.base, "POST", "/api/maps", {"campaign": json.dumps(doc)}, token=register(hub.base, "alice"))[0] == 201
        with Browser(tmp_path / "browser") as browser:
            tab = browser.open(f"{hub.base}/maps/lines")
            loaded_with_style(tab, "the map page", "document.body.textContent.includes('First line.')")
            assert tab.evaluate(lines) == 2


def test_a_right_to_left_name_inline_is_drawn_as_it_is_alone(tmp_path: Path) -> None:
    """An author (free text) or a publisher (an account name) sits inline in a sentence: 'by X · published by Y on
    DATE', the list's 'X (published by Y)'. Not isolated, a right-to-left name took its weak ends from the sentence
    around it: the author '42 שלום' was drawn '42' left of the Hebrew word (the name alone draws it on the right),
    the publisher '3דוד' likewise, as a stranger's digits joined to 'by' (seen in Chromium). Each name is a <bdi>,
    drawn in its own direction, escaped as text all the same. (The words around it kept their places in every case
    tried: each name is followed by neutrals then a left-to-right word.)"""
    from browser import Browser

    from cardrogue.hub import pages

    author, publisher = "42 שלום", "3דוד"
    m = {"id": "bidi", "title": "A title", "author": author, "publisher": publisher,
         "published_at": "2026-11-28T00:00:00Z", "version": 1, "hash": "ab" * 32, "par": {"turns": 11, "health": 8},
         "difficulty": None, "runs": 0, "players": 0, "competition": False, "window_ends": "2026-11-28T00:00:00Z",
         "versions": [], "best": None}
    (tmp_path / "hub.css").write_text(pages.STYLESHEET)
    for name, html in (("map", pages.map_page(m, [])), ("list", pages.map_list([m], ""))):
        assert f"<bdi>{author}</bdi>" in html and f"<bdi>{publisher}</bdi>" in html, html
        (tmp_path / f"{name}.html").write_text(html.replace('href="/hub.css"', 'href="hub.css"'))
    (tmp_path / "escaped.html").write_text(pages.map_page(dict(m, author="<b>x</b>", publisher="bob"), []))
    assert "<bdi>&lt;b&gt;x&lt;/b&gt;</bdi>" in (tmp_path / "escaped.html").read_text()
    # the left edge of the first ``text`` drawn after the first ``after`` in the element ``where``
    left = ("((where, after, text) => { const walk = document.createTreeWalker(document.querySelector(where), "
            "NodeFilter.SHOW_TEXT); let n, seen = false, all = ''; while ((n = walk.nextNode())) { let from = 0; "
            "if (!seen) { const a = n.data.indexOf(after); if (a < 0) continue; seen = true; from = a + after.length; } "
            "const i = n.data.indexOf(text, from); if (i >= 0) { const r = document.createRange(); r.setStart(n, i); "
            "r.setEnd(n, i + text.length); return r.getBoundingClientRect().left; } } return null; })")
    with Browser(tmp_path / "browser", size=(1000, 700)) as browser:
        for name, where in (("map", "h2 + p"), ("list", "#maps tbody td:nth-child(2)")):
            tab = browser.open((tmp_path / f"{name}.html").as_uri())
            loaded_with_style(tab, name)
            tab.screenshot(tmp_path / f"{name}.png")
            at = {word: tab.evaluate(f"{left}({where!r}, {after!r}, {word!r})")
                  for word, after in (("42", ""), ("שלום", ""), ("published", ""), ("3", "published"),
                                      ("דוד", "published"))}
            assert None not in at.values(), (name, at)
            assert at["שלום"] < at["42"] < at["published"], (name, at)  # '42' right of the Hebrew, as alone
            assert at["published"] < at["דוד"] < at["3"], (name, at)
