"""The embedded player: story mode in the terminal.

``PlayerScreen(campaign, level=None)`` can be pushed onto any Textual app; it
dismisses itself with a :class:`~.run.RunResult` (or None). ``cardrogue play``
runs it in :class:`~.app.PlayerApp` through :func:`~.app.run_player`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .run import RunResult
    from .screens import PlayerScreen

__all__ = ["PlayerScreen", "RunResult"]


def __getattr__(name: str):
    # Imported lazily so `cardrogue --help` does not pay for Textual.
    if name == "PlayerScreen":
        from .screens import PlayerScreen

        return PlayerScreen
    if name == "RunResult":
        from .run import RunResult

        return RunResult
    raise AttributeError(name)
