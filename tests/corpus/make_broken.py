"""How tests/corpus/broken was made: each file is valid/tiny.json with one problem.

Run it after changing a case (``python tests/corpus/make_broken.py``): it rewrites the
files and expected.json and prints BAD for any case whose diagnostic is not exactly one,
with the code and JSON path given here, standing on the text given here. Line and column
come from the loader, so read the BAD lines before committing; the "at" text is the
hand-written check that they point at the offending token.
"""
import json
from pathlib import Path

from cardrogue.engine.format.loader import load_campaign

ROOT = Path(__file__).resolve().parent
BASE = (ROOT / "valid/tiny.json").read_text()

def rep(old, new, text=None):
    t = BASE if text is None else text
    assert t.count(old) == 1, (old, t.count(old))
    return t.replace(old, new)

LADDER = '{"at": [2, 0], "card": "descending-ladder", "paths": "W", "face": "down", "to": "bottom"}'
GOBLIN = '{"at": [1, 0], "card": "goblin", "paths": "EW", "face": "down"}'
EXIT = '{"at": [1, 0], "card": "pathing-tile", "paths": "W", "face": "down", "exit": true}'
START1 = '{"at": [0, 0], "card": "starting-tile", "paths": "E", "face": "up"},\n        {"at": [1, 0], "card": "goblin"'
START2 = '{"at": [0, 0], "card": "starting-tile", "paths": "E", "face": "up"},\n        {"at": [1, 0], "card": "pathing-tile"'
deep = "[" * 40 + "]" * 40

# name, content, code, json path, text expected at the reported line:col ("" = end of file), severity
CASES = [
    ("trailing-comma-object", rep('"items": ["dagger"]\n', '"items": ["dagger"],\n'), "CR001", "$", ",\n  },"),
    ("trailing-comma-array", rep(LADDER + "\n", LADDER + ",\n"), "CR001", "$", ",\n      ]"),
    ("missing-closing-quote", rep('"title": "Tiny",', '"title": "Tiny,'), "CR001", "$", '"Tiny,'),
    ("unquoted-key", rep('"title": "Tiny"', 'title: "Tiny"'), "CR001", "$", 'title:'),
    ("single-quotes", rep('"title": "Tiny"', "'title': 'Tiny'"), "CR001", "$", "'title'"),
    ("missing-comma", rep('"seed": 7,', '"seed": 7'), "CR001", "$", '"hero"'),
    ("truncated", BASE[: BASE.index('"id": "bottom"')], "CR001", "$", ""),
    ("nan", rep('"seed": 7', '"seed": NaN'), "CR001", "$", "NaN"),
    ("huge-number", rep('"seed": 7', '"seed": ' + "9" * 5000), "CR001", "$", "9999"),
    ("two-documents", BASE + "{}\n", "CR001", "$", "{}"),
    ("empty", "", "CR001", "$", ""),
    ("duplicate-key", rep('"seed": 7,', '"seed": 7,\n  "seed": 8,'), "CR002", "$.seed", '"seed": 8'),
    ("not-utf8", rep('"title": "Tiny"', '"title": "T\u00e9ny"').encode("latin-1"), "CR004", "$", "\ufffdny"),
    ("byte-order-mark", b"\xef\xbb\xbf" + BASE.encode(), "CR004", "$", "\ufeff{"),
    ("lone-surrogate", rep('"title": "Tiny"', '"title": "Tiny \\ud83d"'), "CR004", "$.title", '"Tiny \\ud83d"'),
    ("deep-nesting", rep('"seed": 7', '"seed": ' + deep), "CR005", "$", "[" * 8),
    ("top-level-list", "[]\n", "CR101", "$", "[]"),
    ("seed-is-string", rep('"seed": 7', '"seed": "7"'), "CR101", "$.seed", '"7"'),
    ("exit-is-string", rep('"exit": true', '"exit": "yes"'), "CR101", "$.levels[1].cells[1].exit", '"yes"'),
    ("missing-levels", rep('  "hero"', '  "heroes": [],\n  "hero"').replace(BASE[BASE.index(',\n  "levels"'):], "\n}\n").replace('  "heroes": [],\n', ''), "CR102", "$", "{"),
    ("cell-missing-card", rep(GOBLIN, '{"at": [1, 0], "paths": "EW", "face": "down"}'), "CR102", "$.levels[0].cells[1]", '{"at": [1, 0], "paths"'),
    ("unknown-top-level-property", rep('"title": "Tiny",', '"title": "Tiny",\n  "titel": "Tiny",'), "CR103", "$.titel", '"titel"'),
    ("unknown-cell-property", rep(GOBLIN, '{"at": [1, 0], "card": "goblin", "paths": "EW", "facing": "down"}'), "CR103", "$.levels[0].cells[1].facing", '"facing"'),
    ("face-sideways", rep(GOBLIN, '{"at": [1, 0], "card": "goblin", "paths": "EW", "face": "sideways"}'), "CR104", "$.levels[0].cells[1].face", '"sideways"'),
    ("format-2", rep('"format": 1', '"format": 2'), "CR104", "$.format", "2,"),
    ("rules-version", rep('"rules": "1.1.2"', '"rules": "2.0"'), "CR104", "$.rules", '"2.0"'),
    ("card-id-upper-case", rep('"card": "goblin"', '"card": "Goblin"'), "CR105", "$.levels[0].cells[1].card", '"Goblin"'),
    ("paths-out-of-order", rep('"paths": "EW", "face": "down"}', '"paths": "WE", "face": "down"}'), "CR105", "$.levels[0].cells[1].paths", '"WE"'),
    ("id-ends-in-newline", rep('"id": "tiny"', '"id": "tiny\\n"'), "CR105", "$.id", '"tiny\\n"'),
    ("grid-too-wide", rep('"width": 3', '"width": 300'), "CR106", "$.levels[0].width", "300"),
    ("negative-coordinate", rep('"at": [1, 0], "card": "goblin"', '"at": [-1, 0], "card": "goblin"'), "CR106", "$.levels[0].cells[1].at[0]", "-1"),
    ("roll-of-seven", rep(GOBLIN, GOBLIN[:-1] + ', "rolls": [3, 7]}'), "CR106", "$.levels[0].cells[1].rolls[1]", "7]"),
    ("no-levels", BASE[: BASE.index('"levels": [') + len('"levels": [')] + "]\n}\n", "CR107", "$.levels", "[]"),
    ("at-one-coordinate", rep('"at": [1, 0], "card": "goblin"', '"at": [1], "card": "goblin"'), "CR107", "$.levels[0].cells[1].at", "[1]"),
    ("title-too-long", rep('"title": "Tiny"', '"title": "' + "Tiny " * 30 + '"'), "CR108", "$.title", '"Tiny Tiny'),
    ("title-empty", rep('"title": "Tiny"', '"title": ""'), "CR108", "$.title", '""'),
    ("card-key-not-an-id", rep('"hero"', '"cards": {\n    "Big Rat": {"name": "Big Rat", "kind": "enemy", "attack": 1, "health": 2}\n  },\n  "hero"'), "CR109", "$.cards['Big Rat']", '"Big Rat": {'),
    ("goal-two-verbs", rep('"height": 1,', '"height": 1,\n      "goals": [\n        {"slay": "goblin", "open": "chest"}\n      ],'), "CR110", "$.levels[0].goals[0]", '{"slay"'),
    ("unknown-card", rep('"card": "goblin"', '"card": "goblinn"'), "CR201", "$.levels[0].cells[1].card", '"goblinn"'),
    ("duplicate-level-id", rep('"id": "bottom"', '"id": "top"', rep('"to": "bottom"', '"to": "top"')), "CR202", "$.levels[1].id", '"top"'),
    ("duplicate-instance-id", rep(EXIT, EXIT[:-1] + ', "id": "gob"}', rep(GOBLIN, GOBLIN[:-1] + ', "id": "gob"}')), "CR202", "$.levels[1].cells[1].id", '"gob"'),
    ("cell-outside-grid", rep('"at": [2, 0], "card": "descending-ladder"', '"at": [3, 0], "card": "descending-ladder"'), "CR203", "$.levels[0].cells[2].at", "[3, 0]"),
    ("two-cards-one-cell", rep('"at": [1, 0], "card": "goblin"', '"at": [0, 0], "card": "goblin"'), "CR204", "$.levels[0].cells[1].at", '[0, 0], "card": "goblin"'),
    ("ladder-to-missing-level", rep('"to": "bottom"', '"to": "botom"'), "CR205", "$.levels[0].cells[2].to", '"botom"'),
    ("no-starting-tile", rep(START2, START2.replace('"starting-tile"', '"pathing-tile"')), "CR206", "$.levels[1].cells", "[\n"),
    ("two-starting-tiles", rep(EXIT, '{"at": [1, 0], "card": "starting-tile", "paths": "W", "face": "up", "exit": true}'), "CR207", "$.levels[1].cells[1].card", '"starting-tile", "paths": "W"'),
    ("ladder-without-to", rep(', "to": "bottom"', ''), "CR208", "$.levels[0].cells[2]", '{"at": [2, 0]'),
    ("ability-not-in-vocabulary", rep('"hero"', '"cards": {\n    "goblin": {"abilities": ["FLIES AWAY"]}\n  },\n  "hero"'), "CR215", "$.cards.goblin.abilities[0]", '"FLIES AWAY"'),
    ("custom-card-without-kind", rep('"hero"', '"cards": {\n    "big-rat": {"name": "Big Rat"}\n  },\n  "hero"'), "CR216", "$.cards['big-rat']", '{"name": "Big Rat"}'),
    ("hero-is-a-goblin", rep('"character": "warrior"', '"character": "goblin"'), "CR217", "$.hero.character", '"goblin"'),
    ("stock-on-a-goblin", rep(GOBLIN, GOBLIN[:-1] + ', "stock": ["dagger"]}'), "CR218", "$.levels[0].cells[1].stock", '["dagger"]}'),
    ("starting-tile-face-down", rep(START1, START1.replace('"face": "up"', '"face": "down"')), "CR219", "$.levels[0].cells[0].face", '"down"'),
    ("no-exit", rep(', "exit": true', ''), "CR220", "$.levels", "[\n"),
    ("goal-card-not-on-level", rep('"height": 2,', '"height": 2,\n      "goals": [\n        {"slay": "troll"}\n      ],'), "CR221", "$.levels[1].goals[0].slay", '"troll"'),
    ("two-potions-one-effect", rep('"hero"', '"potions": {\n    "red": "healing",\n    "blue": "healing"\n  },\n  "hero"'), "CR222", "$.potions.blue", '"healing"\n  }'),
    ("card-without-paths", rep(GOBLIN, '{"at": [1, 0], "card": "goblin", "paths": "", "face": "down"}'), "CR223", "$.levels[0].cells[1]", '{"at": [1, 0], "card": "goblin", "paths": ""', "warning"),
    ("mage-in-rules-1-0", rep('"rules": "1.1.2",', '"rules": "1.0",', rep('"character": "warrior"', '"character": "mage"')).replace('"id": "tiny"', '"id": "mage-in-1-0"'), "CR224", "$.hero.character", '"mage"'),
    ("level-hero-on-a-goblin", rep(GOBLIN, GOBLIN.replace('"down"', '"up"'), rep('"height": 1,\n      "cells"', '"height": 1,\n      "hero": {"at": [1, 0], "health": 3},\n      "cells"')).replace('"id": "tiny"', '"id": "hero-on-a-goblin"'), "CR225", "$.levels[0].hero.at", "[1, 0]"),
    ("ladder-is-the-exit", rep(LADDER, LADDER[:-1] + ', "exit": true}'), "CR218", "$.levels[0].cells[2].exit", "true"),
    ("throwable-dagger", rep('"hero"', '"cards": {\n    "dagger": {"throwable": true}\n  },\n  "hero"'), "CR229", "$.cards.dagger.throwable", "true", "warning"),
    ("number-beyond-a-float", rep('"seed": 7', '"seed": 1e9997'), "CR001", "$", "1e9997"),
]

def main():
    out = {}
    for n, case in enumerate(CASES, 1):
        name, content, code, path, token, *sev = case
        fname = f"{n:02d}-{name}.json"
        p = ROOT / "broken" / fname
        if isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(content, encoding="utf-8", newline="")
        r = load_campaign(p)
        diags = [f"{d.line}:{d.column} {d.code} {d.json_path} {d.severity.value} | {d.message}" for d in r.diagnostics]
        d = r.diagnostics[0] if r.diagnostics else None
        raw = p.read_bytes().decode("utf-8", "replace")
        lines = raw.split("\n")
        at = "" if d is None else "\n".join(lines[d.line - 1:])[d.column - 1:][: max(len(token), 1)]
        ok = (len(r.diagnostics) == 1 and d.code == code and d.json_path == path and at.startswith(token) and (token or at == ""))
        print("OK " if ok else "BAD", fname, diags, repr(at) if not ok else "")
        out[fname] = {"code": code, "line": d.line if d else None, "column": d.column if d else None, "path": path,
                      "severity": sev[0] if sev else "error", "at": token}
    (ROOT / "broken" / "expected.json").write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

main()
