"""Reference documentation generated from the schemas and the ability vocabulary.

``docs/authoring.md`` carries generated sections between markers; a test
regenerates them and fails when they differ, so the reference cannot drift from
the schema. Regenerate with::

    python -m cardrogue.engine.format.reference docs/authoring.md
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from ..model.abilities import VOCABULARY
from .resources import load_schema


def _type_of(prop: dict) -> str:
    if "$ref" in prop:
        return prop["$ref"].rsplit("/", 1)[-1]
    if "enum" in prop:
        return " \\| ".join(f"`{v}`" for v in prop["enum"])
    if "const" in prop:
        return f"`{prop['const']}`"
    t = prop.get("type", "")
    if t == "array":
        items = prop.get("items", {})
        return f"list of {_type_of(items)}"
    if t == "object" and isinstance(prop.get("additionalProperties"), dict):
        return f"map of {_type_of(prop['additionalProperties'])}"
    bounds = []
    if "minimum" in prop or "maximum" in prop:
        bounds.append(f"{prop.get('minimum', '')}..{prop.get('maximum', '')}")
    if "maxLength" in prop:
        bounds.append(f"≤ {prop['maxLength']} chars")
    return t + (f" ({', '.join(bounds)})" if bounds else "")


def _table(title: str, schema: dict) -> list[str]:
    required = set(schema.get("required", ()))
    lines = [f"### {title}", "", schema.get("description", ""), "", "| field | type | required | description |", "|---|---|---|---|"]
    for name, prop in schema.get("properties", {}).items():
        desc = prop.get("description", "").replace("|", "\\|").replace("\n", " ")
        lines.append(f"| `{name}` | {_type_of(prop)} | {'yes' if name in required else ''} | {desc} |")
    lines.append("")
    return lines


def format_reference() -> str:
    campaign = load_schema("campaign.schema.json")
    cards = load_schema("cards.schema.json")
    out = _table("Campaign (top level)", campaign)
    for name in ("hero", "par", "potions"):
        out += _table(name, campaign["properties"][name])
    out += _table("level", campaign["$defs"]["level"])
    out += _table("level hero", campaign["$defs"]["level"]["properties"]["hero"])
    out += _table("cell", campaign["$defs"]["cell"])
    out += ["### goal", "", campaign["$defs"]["goal"]["description"], ""]
    for option in campaign["$defs"]["goal"]["oneOf"]:
        (key, prop), = option["properties"].items()
        out.append(f"- `{{\"{key}\": \"<card id>\"}}`: {prop['description']}")
    out.append("")
    out += _table("card", cards["$defs"]["card"])
    return "\n".join(out).rstrip() + "\n"


def vocabulary_reference() -> str:
    out = ["| ability | rulebook entry | example |", "|---|---|---|"]
    for effect in VOCABULARY:
        origin = "" if effect.project else "Clarifications: "
        shown = effect.template.replace("{x:+d}", "±X").format(x="X", y="Y")
        out.append(f"| {shown} | {origin}{effect.section} | `{effect.example}` |")
    return "\n".join(out) + "\n"


SECTIONS = {"format": format_reference, "vocabulary": vocabulary_reference}
_MARKED = re.compile(r"(<!-- generated:(\w+) -->\n)(.*?)(<!-- end:\2 -->)", re.S)


def regenerate(text: str) -> str:
    """``text`` with every generated section replaced by its current content."""
    return _MARKED.sub(lambda m: m.group(1) + SECTIONS[m.group(2)]() + m.group(4), text)


def main(argv: list[str]) -> int:
    for name in argv:
        path = Path(name)
        path.write_text(regenerate(path.read_text(encoding="utf-8")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
