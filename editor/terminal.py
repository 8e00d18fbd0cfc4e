"""Whether the editor and the player have a terminal to run on.

Both draw on the terminal (Textual writes to standard error) and read its keys (standard input).
Without one, say with input from ``/dev/null`` or a script's pipe, the app would wait for ever on
keys that never come; it is refused at the start instead (exit 2), with what to run.
"""

from __future__ import annotations

import os
import sys


def require_terminal(what: str, instead: str) -> None:
    """Raise :class:`UnusableInput` unless standard input and standard error are a terminal, or a
    Textual driver of its own is named (``TEXTUAL_DRIVER``: textual-serve's, a browser session)."""
    from cardrogue.engine.errors import UnusableInput

    if os.environ.get("TEXTUAL_DRIVER"):
        return
    streams = (sys.__stdin__, sys.__stderr__)
    if all(stream is not None and stream.isatty() for stream in streams):
        return
    raise UnusableInput(f"{what} needs a terminal: it reads keys from standard input and draws on standard "
                        f"error, and one of them is not a terminal (redirected, or run by a script); run it in a "
                        f"terminal, or {instead}")
