"""What a terminal too small for a panel says: the panel hidden and the size that shows it.

Textual lays panels out in the rows there are and cuts what does not fit without a word: the editor's
Cell panel was gone below 24 rows. The apps give rows up where a panel can spare them (editor.tcss,
player.tcss) and, below the size that shows every panel, say which is hidden or cut and the rows it needs.
No Textual here: the line is plain text.
"""

from __future__ import annotations


def too_short(what: str, rows_needed: int, rows: int) -> str:
    """The notice of a panel hidden or cut (``what``: "Cell panel hidden") on a terminal of ``rows`` rows, which
    shows it from ``rows_needed``; "" when it has them."""
    if rows >= rows_needed:
        return ""
    return f"{what}: needs {rows_needed} rows, this terminal has {rows}"
