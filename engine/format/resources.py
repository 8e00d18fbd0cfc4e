"""Files shipped inside the package: schemas, the default catalog, bundled campaigns.

Found from the packages' own folders (what importlib.resources answers for a package
on disk, without importing it: a fiftieth of a second at every start), so the installed
command works from any working directory and never needs the source checkout.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.util import find_spec
from pathlib import Path

from .files import is_campaign_name

SCHEMA_BASE = "https://cardrogue-studio.dev/schema/"


@cache
def _folder(package: str) -> Path:
    spec = find_spec(package)
    assert spec is not None and spec.submodule_search_locations, f"{package} is installed as a folder"
    return Path(next(iter(spec.submodule_search_locations)))


def schema_path(name: str) -> Path:
    return _folder("cardrogue.schema") / name


@cache
def load_schema(name: str) -> dict:
    return json.loads(schema_path(name).read_text(encoding="utf-8"))


def catalog_path() -> Path:
    return _folder("cardrogue.engine") / "data" / "cards.json"


def campaigns_dir() -> Path:
    return _folder("cardrogue.campaigns")


def bundled_campaigns() -> list[Path]:
    return sorted(p for p in campaigns_dir().glob("*.json") if is_campaign_name(p.name))


def default_campaign() -> Path:
    return campaigns_dir() / "a-sons-descent.json"
