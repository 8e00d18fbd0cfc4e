"""Shared fixtures: a writable copy of the fixed fixture campaign."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import FIXTURE


@pytest.fixture
def campaign_file(tmp_path: Path) -> Path:
    """A writable copy of the fixture campaign."""
    path = tmp_path / "story.json"
    path.write_bytes(FIXTURE.read_bytes())
    return path
