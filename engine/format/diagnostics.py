"""Diagnostics: one problem found in a file, with its place.

Every check in the project (syntax, schema, semantics, graph) reports through
:class:`Diagnostic`, so the CLI, the editor's problems panel and the tests all
see the same codes, messages and locations.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Iterable

JsonPath = tuple[str | int, ...]


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


def format_json_path(path: Iterable[str | int]) -> str:
    """``("levels", 0, "cells", 3)`` -> ``$.levels[0].cells[3]`` (check-jsonschema style), ``$.$schema``
    as the hub names it; any other key that is not a name in brackets, ``$.cards['cave-bat']``.

    A character of a key that cannot be shown as it is -- a control character, a bidirectional control,
    a lone surrogate (which no UTF-8 output can even hold) -- is written as its escape (``$['\\ud800']``),
    so a path is always one line of text a terminal, a file and a JSON answer can carry."""
    out = ["$"]
    for part in path:
        if isinstance(part, int):
            out.append(f"[{part}]")
        elif part.removeprefix("$").isidentifier():
            out.append(f".{part}")
        else:
            escaped = part.replace("\\", "\\\\").replace("'", "\\'")
            if not escaped.isprintable():
                escaped = "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
                                  for ch in escaped)
            out.append(f"['{escaped}']")
    return "".join(out)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    message: str
    severity: Severity = Severity.ERROR
    path: JsonPath = ()
    file: str = ""
    line: int = 0
    column: int = 0
    # Where the problem sits on a map, for the editor to jump to: (level index, x, y).
    level: int | None = None
    cell: tuple[int, int] | None = None
    hint: str = field(default="", compare=False)
    # The message as read away from its level (check's output, a hub's answer), for one that says "this level"
    # beside the level's name in the editor's problems list: the level named as its author knows it there.
    named: str = field(default="", compare=False)

    @property
    def json_path(self) -> str:
        return format_json_path(self.path)

    @property
    def standalone(self) -> str:
        """The message as ``render`` and ``as_json`` give it, read with no level beside it."""
        return self.named or self.message

    def render(self) -> str:
        """``file:line:col: CODE: message [$.json.path]``."""
        where = f"{self.file}:{self.line}:{self.column}"
        text = f"{where}: {self.code}: {self.standalone}"
        if self.path:
            text += f" [{self.json_path}]"
        return text

    def as_json(self) -> dict:
        data = {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "code": self.code,
            "severity": self.severity.value,
            "message": self.standalone,
            "path": self.json_path,
        }
        if self.level is not None:
            data["level"] = self.level
        if self.cell is not None:
            data["cell"] = list(self.cell)
        if self.hint:
            data["hint"] = self.hint
        return data


def has_errors(diagnostics: Iterable[Diagnostic], strict: bool = False) -> bool:
    failing = {Severity.ERROR, Severity.WARNING} if strict else {Severity.ERROR}
    return any(d.severity in failing for d in diagnostics)
