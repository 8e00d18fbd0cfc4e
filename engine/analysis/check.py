"""The whole check of a campaign, as ``cardrogue check`` and the editor's problems panel run it:
the loader's stages (syntax, schema, semantics), then the graph analysis and the gold count (CR309,
:mod:`.gold`: a buy goal no run can pay for)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..format.diagnostics import Diagnostic, Severity
from ..format.loader import LoadResult, collector_paused, load_campaign, load_campaign_text
from ..format.positions import PositionIndex
from ..model.campaign import Campaign
from .gold import gold_diagnostics
from .graph import analyse_campaign

_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


def check_campaign(campaign: Campaign) -> list[Diagnostic]:
    """Graph diagnostics for a loaded campaign, then the gold count's (CR309: a buy goal no run can
    pay for); JSON paths and cells, no file positions."""
    _, diagnostics = analyse_campaign(campaign)
    return diagnostics + gold_diagnostics(campaign)


ANALYSIS_WAITS = "CR3xx route checks wait until errors are fixed"
"""What ``cardrogue check`` and the editor's problem list say under a campaign whose errors hold the
graph checks back (:func:`analysis_waits`): fixing them may bring new problems, an unreachable exit."""


def analysis_waits(diagnostics: list[Diagnostic]) -> bool:
    """Whether the graph checks and the gold count (every ``CR3xx``) were left out of ``diagnostics``
    (:func:`_finish`): they run on a campaign the loader found no error in, because the graph assumes
    what the loader guarantees (one starting tile, known cards, ladders to levels that exist). A
    draft's rule error (a ladder that leads nowhere, CR208) hides them until it is fixed."""
    return any(d.severity is Severity.ERROR and not d.code.startswith("CR3") for d in diagnostics)


RULES_WAIT = "CR2xx rule checks and CR3xx route checks wait until the schema errors (CR1xx) are fixed"
"""What is said instead of :data:`ANALYSIS_WAITS` under a campaign whose schema errors hold the rule checks back
too (:func:`rules_wait`): fixing a seed of -1 may bring an unknown card to light."""


def rules_wait(diagnostics: list[Diagnostic]) -> bool:
    """Whether the rule checks (``CR2xx``) were left out of ``diagnostics`` as well: the loader runs them on a file
    the schema accepts, so a schema error (``CR1xx``: a value out of range, a misspelt key) holds them back."""
    return any(d.severity is Severity.ERROR and d.code.startswith("CR1") for d in diagnostics)


def checks_waiting(diagnostics: list[Diagnostic]) -> str | None:
    """The line said under a draft's problems about the checks its errors hold back (None: every check ran)."""
    if rules_wait(diagnostics):
        return RULES_WAIT
    return ANALYSIS_WAITS if analysis_waits(diagnostics) else None


def _finish(result: LoadResult) -> list[Diagnostic]:
    diagnostics = list(result.diagnostics)
    if result.campaign is not None:
        graph = check_campaign(result.campaign)
        if graph:
            index = PositionIndex(result.text)
            for d in graph:
                line, col = index.locate(d.path)
                diagnostics.append(replace(d, file=result.file, line=line, column=col))
    return sorted(diagnostics, key=lambda d: (d.line, d.column, _ORDER[d.severity], d.code))


def check_text(text: str, name: str = "<memory>") -> list[Diagnostic]:
    return check_loaded_text(text, name)[1]


def check_loaded_text(text: str, name: str = "<memory>") -> tuple[LoadResult, list[Diagnostic]]:
    """:func:`check_text`, with the load it checked (one load: the hub publishes from it)."""
    with collector_paused():  # see collector_paused: the load and the graphs make no cycles
        result = load_campaign_text(text, name)
        return result, _finish(result)


def check_file(path: str | Path) -> tuple[LoadResult, list[Diagnostic]]:
    with collector_paused():
        result = load_campaign(path)
        return result, _finish(result)
