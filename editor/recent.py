"""Recent files: the campaigns the editor opened or saved last, newest first.

``recent.json`` in the user's config directory (``$CARDROGUE_CONFIG_DIR`` when set, as the hub
settings), written atomically. A damaged or unreadable list is treated as empty: it is a
convenience, never a reason to refuse to open the editor.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from cardrogue.engine.records.atomic import atomic_write

KEEP = 10


def recent_path() -> Path:
    if env := os.environ.get("CARDROGUE_CONFIG_DIR"):
        return Path(env) / "recent.json"
    from platformdirs import user_config_dir

    return Path(user_config_dir("cardrogue-studio", appauthor=False)) / "recent.json"


def recent_files() -> list[Path]:
    """The remembered files that still exist, newest first."""
    try:
        data = json.loads(recent_path().read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return []
    if not isinstance(data, list):
        return []
    return [Path(p) for p in data if isinstance(p, str) and Path(p).is_file()][:KEEP]


def remember(path: Path) -> None:
    """Put ``path`` first in the list (a failure to write it is ignored: the list is a convenience)."""
    path = path.expanduser().absolute()
    paths = [str(path)] + [str(p) for p in recent_files() if p != path]
    try:
        where = recent_path()
        where.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(where, json.dumps(paths[:KEEP], indent=1).encode("utf-8"))
    except OSError:
        pass
