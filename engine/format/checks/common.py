"""What every check shares: the list it reports into, and the words of its messages."""

from __future__ import annotations

from typing import Any, Iterable

from ... import words
from ..diagnostics import Diagnostic, JsonPath, Severity


class Findings:
    """The diagnostics a check found, in the order it found them."""

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []

    def error(self, code: str, message: str, path: JsonPath, **where: Any) -> None:
        self.items.append(Diagnostic(code, message, Severity.ERROR, path, **where))

    def warning(self, code: str, message: str, path: JsonPath, **where: Any) -> None:
        self.items.append(Diagnostic(code, message, Severity.WARNING, path, **where))

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.items.extend(diagnostics)


def a(noun: str) -> str:
    return f"an {noun}" if noun[:1] in "aeiou" else f"a {noun}"


def nearest(name: str, options: Iterable[str]) -> str | None:
    """The option ``name`` was most likely meant to be (a "did you mean"), or None."""
    return words.nearest(name, options, cutoff=0.75)
