"""Which files are campaigns: the one rule ``cardrogue check``, the editor's file picker and the
bundled campaigns' list share.

A campaign file is a ``*.json`` that is neither a replay (``*.replay.json``, which lies beside its
campaign) nor hidden (``.vscode/settings.json`` and whatever ``.venv`` or ``.git`` hold are a map
repository's tools, not its campaigns).
"""

from __future__ import annotations

import os
from pathlib import Path

REPLAY_SUFFIX = ".replay.json"


def is_campaign_name(name: str) -> bool:
    """Whether a file of this name is taken for a campaign."""
    return name.endswith(".json") and not name.endswith(REPLAY_SUFFIX) and not name.startswith(".")


def campaign_files_in(folder: Path) -> list[Path]:
    """The campaign files in ``folder`` and its folders, sorted; hidden folders are not entered (a
    ``.venv`` or ``.git`` is never read), nor links to folders (no loop)."""
    found: list[Path] = []
    for root, folders, names in os.walk(folder):
        folders[:] = [name for name in folders if not name.startswith(".")]
        found.extend(Path(root, name) for name in names if is_campaign_name(name))
    return sorted(found)


def json_meant(path: str | Path) -> str:
    """``"; did you mean mymap.json?"`` when ``path`` is not there and the same name with ``.json`` is
    (``cardrogue edit mymap`` saves ``mymap.json``), else ``""``: for the message of a missing file."""
    meant = Path(f"{path}.json")
    try:
        return f"; did you mean {meant}?" if not Path(path).exists() and meant.is_file() else ""
    except (OSError, ValueError):  # a name the system cannot look up (a NUL byte, too long): no hint
        return ""
