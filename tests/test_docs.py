"""The reference sections of docs/authoring.md are generated from the schemas and the vocabulary."""

import json
from pathlib import Path

from cardrogue.engine.format.reference import regenerate

AUTHORING = Path(__file__).resolve().parents[1] / "docs" / "authoring.md"


def test_authoring_guide_reference_is_in_sync_with_the_schema():
    text = AUTHORING.read_text(encoding="utf-8")
    assert "<!-- generated:format -->" in text and "<!-- generated:vocabulary -->" in text
    assert regenerate(text) == text, "run: python -m cardrogue.engine.format.reference docs/authoring.md"


def _cardrogue(capsys, *args) -> tuple[int, str]:
    from cardrogue.cli.main import main

    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out + err


def test_the_map_by_hand_works_as_written(tmp_path, capsys, monkeypatch) -> None:
    """docs/authoring.md, *The same map by hand, in JSON*: its files, built from its own code blocks,
    say what the section says they say (the editor's tutorial has tests/test_editor_tutorial.py)."""
    import json
    import re

    text = AUTHORING.read_text(encoding="utf-8")
    section = text[text.index("## The same map by hand, in JSON"):text.index("## Publishing a map")]
    blocks = re.findall(r"```json\n(.*?)```", section, flags=re.S)
    monkeypatch.chdir(tmp_path)
    campaign = Path("goblin-toll.json")

    # 1. A corridor to the exit; the mistake on purpose, then put back.
    campaign.write_text(blocks[0], encoding="utf-8")
    code, said = _cardrogue(capsys, "check", campaign)
    assert code == 0 and said.startswith("✓ goblin-toll.json") and "`✓ goblin-toll.json`" in section, said
    assert '`"paths": "W"` on the exit to `"N"`' in section
    campaign.write_text(blocks[0].replace('"paths": "W", "face": "down", "exit": true', '"paths": "N", "face": "down", "exit": true'))
    code, said = _cardrogue(capsys, "check", campaign)
    assert code == 1 and "CR301: the exit at (1, 0) cannot be reached from the starting tile" in said, said
    assert "`CR301 the exit ... cannot be reached from the starting tile`" in section
    first, second = [line.split(": ", 2)[1:] for line in said.splitlines() if ": CR3" in line]
    assert first[0] == "CR311" and second[0] == "CR301" and "(see CR301)" in first[1], said
    assert f"`CR311 {first[1].split(':')[0]}`" in section and "(`see CR301`)" in section

    # 2 and 3. The bridge with its goblin, then the lower road: the strict check passes.
    campaign.write_text(_goblin_toll_by_hand(text), encoding="utf-8")
    assert _cardrogue(capsys, "check", "--strict", "-v", campaign)[0] == 0

    # 4. Par, with its replay; -o never writes over the campaign.
    turns, health = map(int, re.search(r"par is \*\*(\d+) turns with (\d+) health\*\*", section).groups())
    code, said = _cardrogue(capsys, "solve", campaign, "-o", "goblin-toll.replay.json")
    assert code == 0 and f"par {turns} turns, {health} health left" in said, said
    assert _cardrogue(capsys, "solve", campaign, "-o", campaign)[0] == 2

    # 5. Publish: the par recorded by --write-par, then the checklist's check and verify.
    assert f'"par": {{"turns": {turns}, "health": {health}}}' in section
    assert _cardrogue(capsys, "solve", campaign, "--write-par", "-o", "goblin-toll.replay.json")[0] == 0
    assert json.loads(campaign.read_text(encoding="utf-8"))["par"] == {"turns": turns, "health": health}
    assert _cardrogue(capsys, "check", "--strict", "--solve", campaign)[0] == 0
    code, said = _cardrogue(capsys, "verify", "goblin-toll.replay.json")
    verdict, verified_on = said.strip().split("\n")
    assert code == 0 and verdict.endswith(f"verified: won in {turns} turns with {health} health"), said
    assert verified_on.strip().startswith("on ") and "goblin-toll.json (The Goblin Toll, version " in verified_on, said
    assert f"`verified: won in {turns} turns with {health} health`" in text

    # Reformatted, the file is the same version (the replay verifies); a story's word changed, another.
    words = " ".join(section.split())
    assert "reformatting the file (spaces, line breaks, the order of keys) changes nothing" in words
    reformatted = json.loads(campaign.read_text(encoding="utf-8"))
    campaign.write_text(json.dumps(reformatted, indent=4, sort_keys=True), encoding="utf-8")
    assert _cardrogue(capsys, "verify", "goblin-toll.replay.json")[0] == 0
    reformatted["levels"][0]["story"] += " Quickly."
    campaign.write_text(json.dumps(reformatted), encoding="utf-8")
    code, said = _cardrogue(capsys, "verify", "goblin-toll.replay.json")
    assert code == 1 and "another version" in said and "a story's word included, is another version" in words


def test_publishing_a_map_on_a_hub_works_as_written(tmp_path, capsys, monkeypatch) -> None:
    """docs/authoring.md, *Publishing a map*: its hub step, run as written against a hub on loopback. The
    checklist ended at a verified replay and never said how a map reaches a hub (tutor22): a new author
    following the guide had to find `cardrogue hub publish` in another document."""
    import re

    from hub_support import running_hub

    from cardrogue.hub.config import DEFAULT_HUB

    text = AUTHORING.read_text(encoding="utf-8")
    section = text[text.index("## Publishing a map"):]
    commands = [line.split("#")[0].split() for line in
                re.search(r"```sh\n(.*?)```", section, flags=re.S).group(1).strip().splitlines()]
    assert [c[:3] for c in commands] == [["cardrogue", "hub", "register"], ["cardrogue", "hub", "publish"],
                                         ["cardrogue", "hub", "submit"], ["cardrogue", "hub", "leaderboard"]]
    assert DEFAULT_HUB in commands[0] and "`F9`" in section
    monkeypatch.chdir(tmp_path)
    Path("goblin-toll.json").write_text(_goblin_toll_by_hand(text), encoding="utf-8")
    assert _cardrogue(capsys, "solve", "goblin-toll.json", "--write-par", "-o", "goblin-toll.replay.json")[0] == 0
    with running_hub(str(tmp_path / "hub.sqlite3")) as hub:
        said = []
        for command in commands:
            code, out = _cardrogue(capsys, *[hub.base if word == DEFAULT_HUB else word for word in command[1:]])
            assert code == 0, (command, out)
            said.append(out)
        # Another author publishing the guide's map: refused, and told how to go on.
        monkeypatch.setenv("CARDROGUE_CONFIG_DIR", str(tmp_path / "another"))
        assert _cardrogue(capsys, "hub", "register", "another", "--hub", hub.base)[0] == 0
        code, refused = _cardrogue(capsys, "hub", "publish", "goblin-toll.json")
        # ...who does as told: an id of their own, the map published, solved again for a replay of it, submitted
        # (the old replay, of the old id, would be refused: review22c)
        mine = json.loads(Path("goblin-toll.json").read_text(encoding="utf-8")) | {"id": "another-toll"}
        Path("another-toll.json").write_text(json.dumps(mine), encoding="utf-8")
        assert _cardrogue(capsys, "hub", "publish", "another-toll.json")[0] == 0
        assert _cardrogue(capsys, "verify", "goblin-toll.replay.json", "--campaign", "another-toll.json")[0] == 1
        assert _cardrogue(capsys, "solve", "another-toll.json", "-o", "another-toll.replay.json")[0] == 0
        code_after, submitted = _cardrogue(capsys, "hub", "submit", "another-toll.replay.json")
        assert code_after == 0 and "ranked #1" in submitted, submitted
    assert code == 1 and "the campaign id 'goblin-toll' belongs to YOUR-NAME" in refused, refused
    assert "solve or play the map again" in refused and "run step 5's `solve ... -o` again" in " ".join(section.split())
    assert "change the file's \"id\" (in the editor, ctrl+e: Id)" in refused, refused
    assert "(`the campaign id 'goblin-toll' belongs to ...`)" in " ".join(section.split())
    assert "published as goblin-toll version 1" in said[1] and "ranked #1" in said[2], said
    assert re.search(r"1\. YOUR-NAME +3 turns +10 health", said[3]), said[3]


def _goblin_toll_by_hand(text: str) -> str:
    """The finished map of *The same map by hand, in JSON*: its first file, with the cells of steps 2 and 3."""
    import json
    import re

    section = text[text.index("## The same map by hand, in JSON"):text.index("## Publishing a map")]
    blocks = re.findall(r"```json\n(.*?)```", section, flags=re.S)
    doc = json.loads(blocks[0])
    doc["levels"][0]["cells"] = json.loads("{" + blocks[1] + "}")["cells"] + json.loads("[" + blocks[2] + "]")
    return json.dumps(doc, indent=2)


def test_the_plain_score_line_in_the_player_guide_is_the_one_written() -> None:
    """docs/player.md shows a piped `scores` line; it had other spacing than the command writes."""
    import re

    from cardrogue.cli.common import score_line

    guide = (AUTHORING.parent / "player.md").read_text(encoding="utf-8")
    shown = re.search(r"plain lines, one a\s+score \(`([^`]*)`", guide).group(1)
    assert shown == score_line(1, "ada", 2, 12), (shown, score_line(1, "ada", 2, 12))
