"""The benchmarks' map generator (benchmarks/gen.py): the open maps' text is pinned, the mixes are valid.

benchmarks/RESULTS.md's figures were measured on ``campaign_text``'s output, so it must never change;
``mixed_campaign_text`` makes held-out-style challenge maps (benchmarks/bench_mix.py), and a map it makes
that `cardrogue check` refuses is a bug of the generator.
"""

import hashlib
import sys
from pathlib import Path

import pytest

from cardrogue.engine.analysis.check import check_text
from cardrogue.engine.format.diagnostics import Severity

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import gen  # noqa: E402

# sha256 of the texts below, made by gen.py as of 9a8392a (before the mixes were added)
OPEN_MAPS = "f19dd44b4151b11511c693636e20cb6ef8b6b83fbe33beea6a2ac880a3078098"


def _open_maps_digest() -> str:
    h = hashlib.sha256()
    for levels, size, seeds in ((1, 8, range(1, 31)), (2, 4, range(4)), (1, 32, [1]), (1, 64, [1])):
        for seed in seeds:
            h.update(gen.campaign_text(levels, size, seed).encode())
    return h.hexdigest()


def test_the_open_maps_text_is_unchanged():
    assert _open_maps_digest() == OPEN_MAPS


@pytest.mark.parametrize("mix", sorted(gen.MIXES))
def test_every_mix_makes_campaigns_the_check_accepts(mix):
    for size, seed in ((3, 0), (4, 1), (5, 2), (7, 3), (16, 4)):
        levels = 1 + seed % 3 if "ladders" in gen.MIXES[mix] else 1
        text = gen.mixed_campaign_text(levels, size, seed, mix)
        assert text == gen.mixed_campaign_text(levels, size, seed, mix)  # deterministic
        errors = [d.render() for d in check_text(text) if d.severity is Severity.ERROR]
        assert errors == [], (mix, size, seed)


def test_the_mixes_cover_every_feature_and_card_kind():
    """Between them, the mixes place every card of the catalog a map may hold and every feature."""
    assert set().union(*gen.MIXES.values()) == set(gen.FEATURES)
    placed = set()
    for mix in gen.MIXES:
        for seed in range(12):
            doc = gen.mixed_campaign(3 if "ladders" in gen.MIXES[mix] else 1, 8, seed, mix)
            placed.add(doc["hero"]["character"])
            for level in doc["levels"]:
                for cell in level["cells"]:
                    placed.add(cell["card"])
                    placed.update(cell.get("stock", ()), cell.get("contents", ()))
    wanted = set(gen.ENEMIES + gen.BOSSES + gen.TRAPS + gen.POTIONS + gen.WEAPONS + gen.ARMOUR + gen.SCROLLS
                 + gen.ARTIFACTS + gen.CHARACTERS) | {"shop", "chest", "key", "gold", "fountain-of-healing",
                                                      "descending-ladder", "shopkeepers-debt", "cave-lurker"}
    assert wanted <= placed, wanted - placed
