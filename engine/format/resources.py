"""Files shipped inside the package: schemas, the default catalog, bundled campaigns.

Found through importlib.resources, so the installed command works from any
working directory and never needs the source checkout.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from pathlib import Path

SCHEMA_BASE = "https://cardrogue-studio.dev/schema/"


def schema_path(name: str) -> Path:
    return Path(str(files("cardrogue.schema").joinpath(name)))


@cache
def load_schema(name: str) -> dict:
    return json.loads(schema_path(name).read_text(encoding="utf-8"))


def catalog_path() -> Path:
    return Path(str(files("cardrogue.engine").joinpath("data", "cards.json")))


def campaigns_dir() -> Path:
    return Path(str(files("cardrogue.campaigns")))


def bundled_campaigns() -> list[Path]:
    return sorted(p for p in campaigns_dir().glob("*.json") if not p.name.endswith(".replay.json"))


def default_campaign() -> Path:
    return campaigns_dir() / "a-sons-descent.json"
