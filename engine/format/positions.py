"""Where each value of a JSON document stands: JSON path -> line and column.

The loader parses with the standard library's C parser (fast) and only builds
this index when it has a problem to report, so locating errors costs nothing on
a clean file. The index records, for every value, the offset of the value and,
for object members, the offset of the member's key.
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass
from typing import Callable, Iterable

from .diagnostics import JsonPath

# A JSON string, its runs of plain characters and its escapes taken possessively: a group repeated once per
# character keeps a backtracking frame per character (a 15 MB story took 2 GB and 5 s to skip).
STRING = r'"[^"\\]*+(?:\\.[^"\\]*+)*+"'
_TOKEN = re.compile(
    r"""
    (?P<ws>[ \t\r\n]+)
  | (?P<string>"[^"\\\x00-\x1f]*+(?:\\.[^"\\\x00-\x1f]*+)*+")
  | (?P<number>-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)
  | (?P<literal>true|false|null)
  | (?P<punct>[{}\[\]:,])
    """,
    re.VERBOSE,
)


class LineIndex:
    """Offsets to 1-based (line, column) in characters."""

    def __init__(self, text: str) -> None:
        self._starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self._starts, offset) - 1
        return line + 1, offset - self._starts[line] + 1


@dataclass(frozen=True)
class Located:
    value_offset: int
    key_offset: int | None


class PositionIndex:
    """JSON path -> :class:`Located`, for a text the C parser already accepted.

    Given ``wanted``, the paths to be located, the walk of the text stops once it has met every one of
    them: a problem early in a big file (a list of a million scripted rolls, 64 allowed) is located
    without indexing the rest. A path that is not in the text (a missing property) is looked for to
    the end, and :meth:`locate` falls back to its nearest ancestor as always; ``duplicates`` is whole
    only without ``wanted``."""

    def __init__(self, text: str, wanted: Iterable[JsonPath] | None = None) -> None:
        self.lines = LineIndex(text)
        self._where: dict[JsonPath, Located] = {}
        # (path of the repeated member, offset of its second key), in document order
        self.duplicates: list[tuple[JsonPath, int]] = []
        self._index(text, None if wanted is None else {tuple(p) for p in wanted})

    def _index(self, text: str, wanted: set[JsonPath] | None) -> None:
        # Explicit stack instead of recursion: depth is bounded only by the input.
        # Each frame: [path, "object"] or [path, "array", index of the current item].
        stack: list[list] = []
        self._keys_seen: list[set[str]] = []
        if wanted is not None and not wanted:
            return
        # Given ``wanted``, a list or object on no wanted path is passed over whole by the C parser (a problem
        # in the last cell of a 15 MB file cost 8 s of tokens walked one by one in Python).
        on_the_way = None if wanted is None else {path[:n] for path in wanted for n in range(len(path))}
        scan = json.JSONDecoder().scan_once
        expect_value_at: JsonPath | None = ()
        key_offset: int | None = None
        # One walk of the tokens as the regular expression finds them: a walk that stops early (``wanted``
        # all met) never tokenizes the rest of a big file, and a whole walk holds no list of them.
        tokens = _TOKEN.finditer(text)
        while True:
            for match in tokens:
                kind = match.lastgroup
                if kind == "ws":
                    continue
                tok = match.group()
                if expect_value_at is not None and not (kind == "punct" and tok in "]}:,"):
                    self._where[expect_value_at] = Located(match.start(), key_offset)
                    if wanted is not None:
                        wanted.discard(expect_value_at)
                        if not wanted:
                            return
                    value_path = expect_value_at
                    expect_value_at = None
                    if tok in "{[" and on_the_way is not None and value_path not in on_the_way:
                        end = _end_of_value(scan, text, match.start())
                        if end is not None:
                            tokens = _TOKEN.finditer(text, end)
                            break
                    if tok == "{":
                        stack.append([value_path, "object"])
                        self._keys_seen.append(set())
                    elif tok == "[":
                        stack.append([value_path, "array", 0])
                        expect_value_at = value_path + (0,)
                        key_offset = None
                    continue
                if kind == "punct":  # the colon after a key is passed over here
                    if tok in "]}":
                        # The index also serves texts that failed to parse after a
                        # duplicate key, so a stray closing bracket is skipped, not fatal.
                        if stack and stack.pop()[1] == "object":
                            self._keys_seen.pop()
                        expect_value_at = None
                    elif tok == "," and stack and stack[-1][1] == "array":
                        frame = stack[-1]
                        frame[2] += 1
                        expect_value_at = frame[0] + (frame[2],)
                        key_offset = None
                    continue
                if kind == "string" and stack and stack[-1][1] == "object":
                    key = _decode_string(tok)
                    key_offset = match.start()
                    if key in self._keys_seen[-1]:
                        self.duplicates.append((stack[-1][0] + (key,), key_offset))
                    self._keys_seen[-1].add(key)
                    expect_value_at = stack[-1][0] + (key,)
            else:
                return

    def locate(self, path: JsonPath, *, key: bool = False) -> tuple[int, int]:
        """Line and column of the value at ``path`` (or of its key, when asked).

        A path that does not exist (a missing property) falls back to its
        nearest existing ancestor, which is where the author must add it.
        """
        probe = tuple(path)
        while probe not in self._where and probe:
            probe = probe[:-1]
        located = self._where.get(probe)
        if located is None:
            return 1, 1
        offset = located.key_offset if key and located.key_offset is not None else located.value_offset
        return self.lines.position(offset)


def _end_of_value(scan: Callable[[str, int], tuple], text: str, offset: int) -> int | None:
    """The offset just past the JSON value that starts at ``offset``, found by ``scan`` (a decoder's C
    scanner); None when it refuses the value there (the walk then goes on token by token)."""
    try:
        return scan(text, offset)[1]
    except (StopIteration, ValueError, RecursionError):
        return None


def _decode_string(token: str) -> str:
    if "\\" not in token:  # no escape: the text between the quotes (a json.loads each cost a file of 300,000 keys 1 s)
        return token[1:-1]
    try:
        return json.loads(token)
    except ValueError:  # an invalid escape, in a text the parser refused further on
        return token[1:-1]


def max_depth(text: str, limit: int | None = None) -> tuple[int, int]:
    """The deepest nesting of brackets in ``text``, and an offset: where it is reached,
    or, given a ``limit`` the text exceeds, the first bracket beyond the limit.

    Counted over the raw text, skipping strings, so it works on input the C
    parser refuses for being too deep.
    """
    depth = best = 0
    best_offset = 0
    beyond: int | None = None
    for m in re.finditer(STRING + r"|[\[\]{}]", text):
        tok = m.group()
        if tok in "[{":
            depth += 1
            if depth > best:
                best, best_offset = depth, m.start()
            if limit is not None and beyond is None and depth > limit:
                beyond = m.start()
        elif tok in "]}":
            depth -= 1
    return best, best_offset if beyond is None else beyond
