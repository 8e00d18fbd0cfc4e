"""A progress bar for long work (`solve`, `solve --random`, `check`): rich's, on standard error, and only
when standard error is a terminal. Piped or redirected, the command writes exactly what it did without
one; the bar never touches standard output, so `--format json` stays clean either way.

The bar is transient: it is drawn while the work runs and erased when it ends, leaving the report;
Ctrl+C erases it too (the `with` ends on the interrupt) and `cardrogue: interrupted` is the one line
left (cli/main.py). The bar's line stops :data:`SPARE` columns short of the terminal's edge: a line that
filled the width would leave the cursor at the edge, and the terminal's echo of Ctrl+C (``^C``) would
wrap it onto a new line, stranding the bar above where rich's erasing could not reach it.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import IO, Iterator

SPARE = 2
"""Columns the bar leaves free at the right edge: room for the terminal's ``^C`` echo (see above)."""


class Bar:
    """What a command updates; does nothing when no bar is shown."""

    def __init__(self, progress=None, task=None) -> None:
        self._progress, self._task = progress, task

    @property
    def shown(self) -> bool:
        return self._progress is not None

    def update(self, *, completed: float | None = None, total: float | None = None, advance: float | None = None,
               description: str | None = None) -> None:
        if self._progress is None:
            return
        fields = {k: v for k, v in (("completed", completed), ("total", total), ("advance", advance)) if v is not None}
        if description is not None:
            fields["description"] = as_text(description)
        self._progress.update(self._task, **fields)


def as_text(description: str) -> str:
    """A description as Rich should print it: a file name or title is text, not markup."""
    from rich.markup import escape

    from cardrogue.engine.printable import printable

    return escape(printable(description))


def is_plain(stream: IO[str]) -> bool:
    """Whether Rich would surely treat ``stream`` as no terminal (no colour, no bar), decided without
    importing Rich (a twentieth of a second): not a tty, and neither ``TTY_COMPATIBLE`` nor
    ``FORCE_COLOR`` set (rich.console.Console.is_terminal). False leaves the answer to Rich."""
    if "TTY_COMPATIBLE" in os.environ or "FORCE_COLOR" in os.environ:
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return isatty is None or not isatty()
    except ValueError:  # a closed stream
        return True


def on_terminal() -> bool:
    import sys

    if is_plain(sys.stderr):
        return False
    from rich.console import Console

    return Console(stderr=True).is_terminal


@contextmanager
def progress_bar(description: str, total: float | None = None, counted: bool = False) -> Iterator[Bar]:
    """A bar for ``description`` on a terminal, else a no-op. ``total`` None: a bar without an end;
    ``counted``: the bar counts things (files, runs) and shows "done/total"."""
    if not on_terminal():
        yield Bar()
        return
    from rich.console import Console, ConsoleDimensions
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    class Spared(Console):  # the terminal's size, read afresh at each draw (a resize is followed), less SPARE
        @property
        def size(self) -> ConsoleDimensions:
            width, height = Console.size.fget(self)
            return ConsoleDimensions(max(1, width - SPARE), height)

    columns = [TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn()]
    if counted:
        columns.insert(2, MofNCompleteColumn())
    with Progress(*columns, console=Spared(stderr=True), transient=True) as progress:
        # The task is born with its description: the refresh thread may draw it at once (a task added
        # blank and named after could be drawn, and erased at the end, without its name).
        yield Bar(progress, progress.add_task(as_text(description), total=total))
