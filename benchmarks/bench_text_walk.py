"""The text rule's walk (CR228, engine/format/checks/text.py) inside the check of a big campaign.

Run: .venv/bin/python benchmarks/bench_text_walk.py [--rounds N]
(run it with another checkout's interpreter, e.g. main's ``.venv/bin/python``, to compare: it uses only
``check_text``). The check of the generated 50-level 32x32 campaign (benchmarks/bench_check.py's), in
process, best CPU time of N rounds, for four writings of it: plain ASCII (the walk is spared: the text
cannot write a refused character), a title with non-ASCII letters (the text's non-ASCII stretches are
searched), every non-ASCII letter as a \\u escape (json.dumps), and a story holding a \\r (the whole file
is walked, and the CR228 found is placed by line and column).

``--hub``: the hub's work on a published text before its solve instead (the check, the load, the texts
it refuses): ``check_loaded_text`` where the checkout has it (one load, whose text walk the hub refuses
by), else what the hub did before it (``check_text``, ``load_campaign_text`` again, ``unsafe_texts``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from gen import campaign_text  # noqa: E402

import cardrogue.engine.analysis.check as check  # noqa: E402
from cardrogue.engine.analysis.check import check_text  # noqa: E402


def hub_work(text: str) -> list:
    """What the hub does with a published text before its solve; the CR228 codes of the texts it refuses."""
    if hasattr(check, "check_loaded_text"):
        return ["CR228"] * len(check.check_loaded_text(text, "campaign")[0].unsafe)
    from cardrogue.engine.format.checks.text import unsafe_texts
    from cardrogue.engine.format.loader import load_campaign_text

    check_text(text, "campaign")
    return ["CR228"] * len(unsafe_texts(load_campaign_text(text, "campaign").data, text))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--hub", action="store_true", help="the hub's work before its solve, not the check alone")
    args = parser.parse_args(argv)
    plain = campaign_text(50, 32)
    accented = plain.replace('"title": "Generated"', '"title": "Généré — à lire"')
    variants = {
        "ascii": plain,
        "non-ascii title": accented,
        "\\u escapes": json.dumps(json.loads(accented)),
        "a \\r in a story": plain.replace('"story": "Deeper."', '"story": "Deeper.\\r\\n"', 1),
    }
    for name, text in variants.items():
        best, codes = float("inf"), []
        for _ in range(args.rounds):
            start = time.process_time()
            codes = hub_work(text) if args.hub else [d.code for d in check_text(text) if d.severity.value != "info"]
            best = min(best, time.process_time() - start)
        print(f"{name:18} {best * 1000:7.0f} ms CPU  {codes}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
