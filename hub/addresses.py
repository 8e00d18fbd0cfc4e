"""Whether a text is the address of a server: the one check a hub client, ``cardrogue hub`` and
``cardrogue web --public-url`` share (standard library only, no network: a command that needs no hub
or UI imports nothing more for it)."""

from __future__ import annotations

import urllib.parse

MAX_LABEL = 63  # characters in one label of a host name (RFC 1035, section 2.3.4)


def url_problem(url: str) -> str | None:
    """Why ``url`` is not the address of a server, ``http://host:port`` or ``https://...``; None when it is.
    urllib's own refusals of such an address (a port that is not a number, an IPv6 address left open, a
    space, a host name IDNA cannot encode such as ``a..b`` or a label over 63 characters) were reported
    as internal errors."""
    if any(ch.isspace() or ord(ch) < 32 or 127 <= ord(ch) < 160 for ch in url):
        return "an address holds no spaces or control characters"
    try:
        parts = urllib.parse.urlsplit(url)
        parts.port  # noqa: B018 (read for its check: a port that is not a number from 0 to 65535 raises)
    except ValueError:
        return "its host or port cannot be read: a port is a number from 0 to 65535, an IPv6 host is in brackets"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "give the whole address, http://host:port or https://..."
    if ":" not in parts.hostname:  # a name, not an IPv6 address: the resolver encodes it as IDNA
        try:
            parts.hostname.encode("idna")
        except UnicodeError:
            return (f"its host name cannot be used: no empty part between two dots, at most {MAX_LABEL} "
                    "characters from one dot to the next")
    return None
