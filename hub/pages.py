"""The hub's HTML pages: the map list and a map with its story prefaces and leaderboard.

Plain HTML, no script. Every string that came from a map, a player or a request goes
through :func:`e` (``html.escape`` with quotes), including inside attributes; the
response's Content-Security-Policy (see :mod:`.app`) forbids scripts and inline styles
even if something slipped through. A story and the levels' prefaces are Markdown in the file, drawn as the player
draws them: a safe subset written as HTML by :func:`.story.story_html`, everything else as text.
"""

from __future__ import annotations

import html
import unicodedata
from urllib.parse import quote, urlencode

from cardrogue.engine.words import counted

from .story import stories_html

STYLESHEET = """\
body { font-family: "DejaVu Sans", sans-serif; margin: 2em auto; max-width: 60em; padding: 0 1em;
       color: #222; background: #fdfcf8; overflow-wrap: break-word; }
h1 a { color: inherit; text-decoration: none; }
table { border-collapse: collapse; width: 100%; margin: 1em 0; }
th, td { text-align: left; padding: 0.3em 0.6em; border-bottom: 1px solid #ddd; }
td.n, th.n { text-align: right; }
#maps td:nth-child(-n+2) { overflow-wrap: anywhere; min-width: 8em; }
.rows { overflow-x: auto; }
.description, .story pre, .story .source { white-space: pre-wrap; }
.story { background: #f3efe4; padding: 0.6em 1em; border-left: 3px solid #b59f6b; }
.story > :first-child { margin-top: 0; }
.story > :last-child { margin-bottom: 0; }
.story blockquote { margin: 0.6em 0 0.6em 1em; padding-left: 0.8em; border-left: 2px solid #cbbd98; }
.muted { color: #666; }
form.search input[type=search] { width: 20em; }
.play { font-weight: bold; }
/* A stranger's text draws in its own box: combining marks stacked on a letter (the text rule lets 8 through) are
   cut at its edge, with room for a script's own stacks, and never cover the lines around it. */
h2, h3, h4, h5, h6, p, td, th, li, pre, blockquote, .story { overflow: clip; overflow-clip-margin: 0.3em; }
"""


def e(value: object) -> str:
    """Text made safe for HTML content and quoted attributes."""
    return html.escape(str(value), quote=True)


# Characters that draw nothing though Unicode calls some of them letters (the Hangul fillers, the braille blank):
# a title of them alone, or of spaces, made a link no one could see or click in the list.
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u180e\u034f")


def _named(title: str | None, fallback: str) -> str:
    """``title`` when it draws something; ``fallback`` (an id, which always does) when it is only spaces, format
    characters (U+200B, U+FEFF, ...), marks on nothing or blank fillers."""
    for ch in title or "":
        if not (ch.isspace() or ch in _BLANKS or unicodedata.category(ch) in ("Cf", "Cc", "Mn", "Me", "Zs")):
            return title  # type: ignore[return-value]
    return fallback


def _page(title: str, body: str) -> str:
    # (the viewport: a phone's browser lays a page without one out at 980 px and shrinks it to the screen)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{e(title)}</title><link rel=\"stylesheet\" href=\"/hub.css\"></head>"
            f"<body><h1><a href=\"/\">Card Rogue community hub</a></h1>\n{body}\n</body></html>\n")


def _map_href(m: dict) -> str:
    return "/maps/" + quote(m["hash"], safe="")


def _who(name: str) -> str:
    """A stranger's name (an author's free text, an account's name) inline in a sentence, escaped and isolated: drawn
    in its own direction, a right-to-left name's weak ends (leading digits, trailing punctuation) are not taken from
    the words around it ('by 42 שלום' drew the 42 left of the Hebrew, the name alone draws it on the right)."""
    return f"<bdi>{e(name)}</bdi>"


def _by(m: dict) -> str:
    """Who made a map, for the list: its author (free text in the file: anyone may write another's name), and
    the publisher (the account) beside an author that is not the publisher's name; no author: the publisher."""
    if not m["author"] or m["author"] == m["publisher"]:
        return _who(m["publisher"] if not m["author"] else m["author"])
    return f"{_who(m['author'])} <span class=\"muted\">(published by {_who(m['publisher'])})</span>"


def _score(best: dict | None) -> str:
    return "—" if best is None else f"{counted(best['turns'], 'turn')}, {best['health']} health"


def _difficulty(d: dict | None) -> str:
    return "—" if d is None else f"{100 * d['win_rate']:.0f}% won ({counted(d['runs'], 'random-dice run')})"


MAX_OFFSET = 1_000_000  # the furthest ``offset`` a page or the API takes (hub/app.py answers 400 past it)


def _pager(path: str, params: dict[str, object], offset: int, count: int, more: bool, labels: tuple[str, str]) -> str:
    """Links to the page before and after this one (``offset`` and ``count`` as the address gave them), or "".
    No link past :data:`MAX_OFFSET`, which would answer 400."""
    links = []
    if offset > 0:
        back = urlencode({**params, "offset": max(0, offset - count), "limit": count})
        links.append(f"<a rel=\"prev\" href=\"{e(path + '?' + back)}\">← {e(labels[0])}</a>")
    if more and offset + count <= MAX_OFFSET:
        on = urlencode({**params, "offset": offset + count, "limit": count})
        links.append(f"<a rel=\"next\" href=\"{e(path + '?' + on)}\">{e(labels[1])} →</a>")
    return f"<p class=\"pager\">{' · '.join(links)}</p>" if links else ""


def _none_listed(query: str, offset: int) -> str:
    if offset > 0:
        return "No maps this far down the list" + (" for " + e(repr(query)) if query else "")
    return "No map matches " + e(repr(query)) if query else "No maps yet"


def map_list(maps: list[dict], query: str, offset: int = 0, count: int = 50, more: bool = False) -> str:
    """The maps from ``offset`` on (``count`` a page); ``more``: later pages hold more."""
    rows = "".join(
        f"<tr><td><a href=\"{e(_map_href(m))}\">{e(_named(m['title'], m['id']))}</a></td><td>{_by(m)}</td>"
        f"<td class=\"n\">{m['par']['turns']}</td><td class=\"n\">{m['runs']}</td><td>{e(_score(m['best']))}</td>"
        f"<td>{e(_difficulty(m['difficulty']))}</td></tr>"
        for m in maps)
    table = ("<div class=\"rows\"><table id=\"maps\"><thead><tr><th>map</th><th>author</th><th class=\"n\">par</th><th class=\"n\">runs</th>"
             f"<th>best</th><th>difficulty</th></tr></thead><tbody>{rows}</tbody></table></div>"
             if maps else f"<p class=\"muted\" id=\"empty\">{_none_listed(query, offset)}.</p>")
    form = (f"<form class=\"search\" method=\"get\" action=\"/\"><input type=\"search\" name=\"q\" value=\"{e(query)}\" "
            "placeholder=\"title, id, author or hash\"> <button>Search</button></form>")
    pager = _pager("/", {"q": query} if query else {}, offset, count, more, ("newer maps", "older maps"))
    return _page("Card Rogue community hub", form + table + pager)


def story_texts(m: dict) -> list[str]:
    """A map's stories in the order its page shows them: its own, then each level's preface."""
    return [m.get("story") or "", *(level["story"] or "" for level in m.get("levels_detail", ()))]


def map_page(m: dict, runs: list[dict], offset: int = 0, count: int = 50, every: bool = False,
             stories: list[str] | None = None) -> str:
    """A map, its leaderboard from ``offset`` on (``count`` a page): each player once, with their best run
    (``m["players"]`` counts them), or with ``every`` every run (``m["runs"]`` counts them). ``stories``: the HTML of
    :func:`story_texts` drawn already (:class:`.story.StoryCache`); None, drawn here."""
    drawn = stories_html(story_texts(m)) if stories is None else stories
    parts = [f"<h2 id=\"title\">{e(_named(m['title'], m['id']))}</h2>",
             f"<p>{'by ' + _who(m['author']) + ' · ' if m['author'] else ''}"  # no author: the publisher, once
             f"published by {_who(m['publisher'])} on {e(m['published_at'])} · "
             f"version {m['version']} · <code>{e(m['hash'][:12])}</code> · "
             f"<a href=\"/api/maps/{e(m['hash'])}/file\">download</a></p>"]
    if m.get("play_url"):
        parts.append(f"<p class=\"play\"><a href=\"{e(m['play_url'])}\">Play in the browser</a></p>")
    parts.append(f"<p>Par {counted(m['par']['turns'], 'turn')} with {m['par']['health']} health (the hub's solver). "
                 f"Difficulty: {e(_difficulty(m['difficulty']))}.</p>")
    if m.get("description"):
        parts.append(f"<p class=\"description\">{e(m['description'])}</p>")
    if m.get("story"):
        parts.append(f"<div class=\"story\">{drawn[0]}</div>")
    for i, level in enumerate(m.get("levels_detail", ())):
        parts.append(f"<h3>Level {i + 1}: {e(_named(level['title'], level['id']))}</h3>")
        if level["story"]:
            parts.append(f"<div class=\"story\">{drawn[i + 1]}</div>")
    parts.append("<h3>Leaderboard</h3>")
    if m["runs"]:
        other = _map_href(m) + ("" if every else "?every=1")
        shown = "every run" if every else "each player's best run"
        players = "" if m.get("players") is None else counted(m["players"], "player") + ", "
        parts.append(f"<p id=\"board-kind\">{e(players + counted(m['runs'], 'run'))}: "
                     f"{e(shown)} · <a href=\"{e(other)}\">{'best runs only' if every else 'every run'}</a></p>")
    if m["competition"]:
        parts.append(f"<p id=\"window\">Competition open until {e(m['window_ends'])}: the runs' actions stay hidden "
                     "until then.</p>")
    else:
        parts.append("<p id=\"window\">The competition window has ended: every run's replay can be downloaded and "
                     "checked with <code>cardrogue verify</code>.</p>")
    if runs:
        rows = "".join(
            f"<tr><td class=\"n\">{r['rank']}</td><td>{e(r['player'])}</td><td class=\"n\">{r['turns']}</td>"
            f"<td class=\"n\">{r['health']}</td><td>{e(r['submitted_at'])}</td><td>"
            + (f"<a href=\"{e(r['replay'])}\">replay</a>" if r.get("replay") else "hidden") + "</td></tr>"
            for r in runs)
        # In a box of its own that scrolls sideways, as the map list: on a phone its six columns made the page wider.
        parts.append("<div class=\"rows\"><table id=\"leaderboard\"><thead><tr><th class=\"n\">#</th><th>player</th>"
                     "<th class=\"n\">turns</th><th class=\"n\">health</th><th>submitted</th><th>replay</th></tr></thead>"
                     f"<tbody>{rows}</tbody></table></div>")
    else:
        parts.append("<p class=\"muted\">No verified runs yet.</p>" if offset == 0 else
                     "<p class=\"muted\">No runs this far down the leaderboard.</p>")
    listed = m["runs"] if every or m.get("players") is None else m["players"]
    parts.append(_pager(_map_href(m), {"every": 1} if every else {}, offset, count, offset + count < listed,
                        ("higher ranks", "lower ranks")))
    if len(m.get("versions", ())) > 1:
        items = "".join(f"<li><a href=\"/maps/{e(v['hash'])}\">version {v['version']}</a> ({e(v['published_at'])}, "
                        f"par {v['par']['turns']})</li>" for v in m["versions"])
        parts.append(f"<h3>Versions</h3><ul>{items}</ul>")
    return _page(f"{_named(m['title'], m['id'])} — Card Rogue community hub", "\n".join(parts))


def error_page(status: int, message: str) -> str:
    return _page(f"{status} — Card Rogue community hub", f"<p id=\"error\">{status}: {e(message)}</p>")

