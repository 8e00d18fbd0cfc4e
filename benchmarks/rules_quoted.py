"""The rules audit's list: every rulebook v1.1.2 sentence from TURNS to the end, and whether a test quotes it.

Run ``python benchmarks/rules_quoted.py [WORDS] [--missing]`` from the repository: one line per sentence under its
section (``Y`` quoted, ``-`` not; ``--missing``: the unquoted ones only), and at the end the count of sentences and
of quoted ones. A sentence is quoted when WORDS (default 5) of its words in a row, or the whole sentence if shorter,
appear as whole words in ``tests/*.py`` (lower-cased; punctuation but ``,.'+-`` dropped, and a comma or full stop
that ends a word too, so a quote may be cut, wrapped or stop short of the full stop). The rulebook's worked sums are
read as printed without their ``$`` signs ("He will deal $2 + X$ to ..." is quoted by "He will deal 2 + X to ...";
the list stripped them until the fourth audit, so no quote could match those sentences), and a list item without its
bullet (a ``-`` that no quote holds). Sentences of fewer than four words and cross-references ("See ...", "Read the
...") are not listed; neither are the rulebook's sections before TURNS (the story, setting up the table).

The audits' counts, of 480 sentences (benchmarks/RESULTS.md): 218 after the second audit (branch ``rules20``, by
the same list matched as any substring, full stops kept); 227 by this script on the tests the third audit started
from, 357 after it (branch ``rules22``); 359 on the same tests with the sums kept (branch ``rules24``), and 359 of 479
without the bullets ("- Several small clarifications." was four words with its bullet, three without); 408 after the
fourth audit (``rules24``).

Five words in a row may be a common phrase ("at the start of the", "a player may attempt to"): ``rules_quoted.py 8
--missing`` lists the sentences no test quotes eight words of (main at the fourth audit's start: 309 of 479 quoted so;
after it, 383, the rest classic play's, the table's, or pointers).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOOK = "001_08245cdec2f4e879.txt"
SKIP = ("read the", "see ", "read ", "one of the six")


def book_path() -> Path:
    """The rulebook: /work/shared/seeds beside the worktrees (``/work/main`` or ``/work/wt/NAME``)."""
    for base in (ROOT.parent, ROOT.parent.parent):
        path = base / "shared" / "seeds" / BOOK
        if path.exists():
            return path
    raise SystemExit(f"rulebook not found: {BOOK} under shared/seeds beside {ROOT}")


def norm(text: str) -> str:
    text = re.sub(r"\[([^\]]*)\]\(#\)", r"\1", text)
    text = text.replace("*", "").lower()
    text = re.sub(r"[^a-z0-9,.'+-]+", " ", text)
    text = re.sub(r"[,.]+(?= |$)", "", text)  # a quote may stop at a comma or leave out the full stop
    return re.sub(r"\s+", " ", text).strip()


def sentences(book: str) -> list[tuple[str, str]]:
    """(section, sentence) for every listed sentence, in the rulebook's order."""
    book = re.sub(r"\$([^$\n]*)\$", r"\1", book[book.index("# TURNS"):])  # the math as printed, without its $
    section, rows = "", []
    for line in book.splitlines():
        text = line.strip()
        if not text:
            continue
        if text.startswith("#"):
            section = text.strip("# ").strip("*")
            continue
        term = re.match(r"\*\*([^*]+)\*\*(.*)", text)
        if term and term.group(1).isupper():
            section, text = term.group(1).strip(), term.group(2)
        text = re.sub(r"^-\s+", "", text)  # a list item's bullet is no word
        for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z\[])", text):
            n = norm(sentence)
            if len(n.split()) >= 4 and not n.startswith(SKIP):
                rows.append((section, sentence))
    return rows


def quoted(sentence: str, tests: str, k: int) -> bool:
    words = norm(sentence).split()
    k = min(k, len(words))
    return any(f" {' '.join(words[i:i + k])} " in tests for i in range(len(words) - k + 1))


def main(argv: list[str]) -> int:
    k = int(next((a for a in argv if a.isdigit()), 5))
    missing = "--missing" in argv
    text = " ".join(p.read_text() for p in sorted((ROOT / "tests").glob("*.py")))
    tests = " " + norm(text.replace("\\n", " ")) + " "  # a wrapped string's "\n" is a space
    rows = [(section, sentence, quoted(sentence, tests, k)) for section, sentence in sentences(book_path().read_text())]
    current = None
    for section, sentence, hit in rows:
        if missing and hit:
            continue
        if section != current:
            print("##", section)
            current = section
        print(("  Y " if hit else "  - ") + sentence)
    print(f"{len(rows)} sentences, {sum(hit for _, _, hit in rows)} quoted by a test ({k} words in a row)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
