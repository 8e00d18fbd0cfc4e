"""The reference sections of docs/authoring.md are generated from the schemas and the vocabulary."""

from pathlib import Path

from cardrogue.engine.format.reference import regenerate

AUTHORING = Path(__file__).resolve().parents[1] / "docs" / "authoring.md"


def test_authoring_guide_reference_is_in_sync_with_the_schema():
    text = AUTHORING.read_text(encoding="utf-8")
    assert "<!-- generated:format -->" in text and "<!-- generated:vocabulary -->" in text
    assert regenerate(text) == text, "run: python -m cardrogue.engine.format.reference docs/authoring.md"
