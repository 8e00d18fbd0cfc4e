"""Small campaigns built in code, for the rules tests (and anyone else's tests).

``cell(x, y, card, paths, ...)`` writes one cell; ``campaign(cells, ...)``
writes a one-level campaign dict and loads it through the real loader
(``load_campaign_text``), so tests exercise the same model the game uses.
Scripted rolls (a cell's ``rolls``) make the fated dice of a test explicit.
"""

from __future__ import annotations

import asyncio
import functools
import json
from pathlib import Path
from typing import Any

from cardrogue.engine.format.loader import load_campaign_text
from cardrogue.engine.model.campaign import Campaign
from cardrogue.engine.chance.resolvers import FatedResolver
from cardrogue.engine.rules.state import GameState

# A fixed three-level campaign (the first bundled draft): editor and engine tests that must not
# move with the bundled content use it.
FIXTURE = Path(__file__).parent / "corpus" / "valid" / "three-levels.json"


def run_async(test):
    """Run an async test without an async pytest plugin (the project does not depend on one)."""

    @functools.wraps(test)
    def wrapper(*args, **kwargs):
        return asyncio.run(test(*args, **kwargs))

    return wrapper


async def recorded(pilot, seconds: float = 60.0) -> None:
    """Wait until the player's end screen shows its run recorded: the run is saved, verified and scored in a worker
    thread while the screen stays live (PlayerScreen._finish), so a pause after the last key may come before it."""
    import time

    from cardrogue.editor.player.screens import EndScreen

    deadline = time.monotonic() + seconds
    while any(isinstance(s, EndScreen) and s.recording for s in pilot.app.screen_stack):
        assert time.monotonic() < deadline, "the run was not recorded in time"
        await pilot.pause(0.01)
    await pilot.pause()


def shown_lines(widget) -> list[str]:
    """What ``widget`` shows on screen, line after line: its lines as the screen renders them, cut where
    its containers clip it (``Screen.find_widget``: its region and clip), as a person sees it."""
    from textual.geometry import Region

    geometry = widget.screen.find_widget(widget)
    region, visible = geometry.region, geometry.visible_region
    crop = Region(visible.x - region.x, visible.y - region.y, visible.width, visible.height)
    return [strip.text for strip in widget.render_lines(crop)]


def screen_text(app) -> str:
    """Every character the app shows now, line after line: every layer (toasts, tooltips, the screens
    behind a dialog) as the terminal gets it.

    Textual's private compositor, read on purpose: Textual offers no public way to read the composed
    screen as text (``App.export_screenshot`` gives SVG, its characters escaped, which would hide the
    raw control characters the hostile-text tests look for; a widget's public ``render_lines`` is that
    widget alone, without what lies over it)."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def notes(app) -> list[str]:
    """Every message the Textual ``app`` is told to notify from now on, in order (each still shown)."""
    said: list[str] = []
    shown = app.notify

    def notify(message, **kwargs):
        said.append(message)
        return shown(message, **kwargs)

    app.notify = notify
    return said


def cell(x: int, y: int, card: str, paths: str, face: str = "up", **extra: Any) -> dict:
    return {"at": [x, y], "card": card, "paths": paths, "face": face, **extra}


def open_grid(w: int, h: int, cards: dict, up=frozenset({(0, 0)})) -> list[dict]:
    """The cells of an open ``w`` x ``h`` level: every path open, the start at (0, 0), the exit at the far corner, the
    ``cards`` ({(x, y): card}) where named and pathing tiles elsewhere, the tiles ``up`` face up and the rest face
    down."""
    out = []
    for y in range(h):
        for x in range(w):
            paths = "".join(d for d, ok in (("N", y > 0), ("E", x < w - 1), ("S", y < h - 1), ("W", x > 0)) if ok)
            card = "starting-tile" if (x, y) == (0, 0) else cards.get((x, y), "pathing-tile")
            extra = {"exit": True} if (x, y) == (w - 1, h - 1) else {}
            out.append(cell(x, y, card, paths, face="up" if (x, y) in up else "down", **extra))
    return out


def campaign_dict(cells: list[dict], *, character: str = "warrior", items=(), equipped=(), rules: str = "1.1.2",
                  goals=(), potions=None, cards=None, seed: int = 7, levels: list[dict] | None = None) -> dict:
    """A campaign dict with one level holding ``cells`` (plus more ``levels``).

    When no cell is an exit, an unreachable exit is added in a column of its own.
    """
    width = max(c["at"][0] for c in cells) + 2
    height = max(c["at"][1] for c in cells) + 1
    cells = list(cells)
    all_cells = cells + [c for lv in levels or () for c in lv["cells"]]
    if not any(c.get("exit") for c in all_cells):
        cells.append(cell(width - 1, 0, "pathing-tile", "", face="down", exit=True))
    d = {
        "format": 1, "id": "test", "title": "Test", "rules": rules, "seed": seed,
        "hero": {"character": character, "items": list(items), "equipped": list(equipped)},
        "levels": [{"id": "one", "title": "One", "width": width, "height": height, "cells": cells,
                    "goals": [dict([g]) for g in goals]}] + list(levels or ()),
    }
    if potions:
        d["potions"] = potions
    if cards:
        d["cards"] = cards
    return d


def load(d: dict) -> Campaign:
    result = load_campaign_text(json.dumps(d))
    assert result.campaign is not None, [str(x) for x in result.diagnostics]
    return result.campaign


def campaign(cells: list[dict], **kw: Any) -> Campaign:
    return load(campaign_dict(cells, **kw))


def same_par_as_the_reference(c: Campaign, budget) -> None:
    """Solved, with the par (turns and health) of the reference search (uniform cost: no bound, no static
    proof, no dominance), both within ``budget``."""
    from cardrogue.engine.analysis.solver import SOLVED, solve_campaign
    from cardrogue.engine.analysis.solver.par import solve

    r = solve_campaign(c, budget, per_level=False)
    ref = solve(c, 0, True, budget, reference=True)
    assert r.verdict == ref.verdict == SOLVED, (r, ref)
    assert (r.turns, r.health) == (ref.turns, ref.health)


def started(c: Campaign) -> tuple[GameState, FatedResolver]:
    """The game of ``c`` at its start, its first chance points answered by the fated dice, and those dice."""
    resolver = FatedResolver(c)
    s = GameState.new(c, log=False)
    s.resolve(resolver)
    return s, resolver


def after(c: Campaign, actions: list[str]) -> GameState:
    """The game of ``c`` after ``actions`` from its start, under the fated dice."""
    s, resolver = started(c)
    for action in actions:
        s.step(action, resolver)
    return s


def turns_left(c: Campaign, s: GameState, budget) -> int | None:
    """The fewest turns after ``s.turn`` to win from ``s``, by the plain uniform-cost search (the reference: no
    bound, no static proof, no dominance) within ``budget``; None when it finds no win."""
    from cardrogue.engine.analysis.solver import SOLVED
    from cardrogue.engine.analysis.solver.search import Search

    search = Search(c, 0, True, budget, reference=True)
    search.root = s.clone()
    verdict, _, turns, _, _ = search.run()
    return turns - s.turn if verdict == SOLVED else None


def turns_left_below(c: Campaign, s: GameState, turns: float, budget) -> float | None:
    """``min(turns_left(c, s, ...), turns)``: the fewest turns after ``s.turn`` to win from ``s`` where fewer than
    ``turns``, else ``turns`` (no win comes sooner); None when undecided within ``budget``.

    The same plain uniform-cost search as :func:`turns_left`, its lines cut where they reach turn ``s.turn +
    turns``: ``bound <= turns_left_below(c, s, bound, ...)`` says exactly what ``bound <= turns_left(...)`` says
    (a win in fewer turns than the bound is found, and is the fewest: uniform cost), without the search of the turns
    at and past the bound, most of what a full search expands (benchmarks/RESULTS.md, sweeps27). A state whose full
    search ran out of ``budget`` may be decided so."""
    from cardrogue.engine.analysis.solver import SOLVED, UNSOLVABLE
    from cardrogue.engine.analysis.solver import search as searching
    from cardrogue.engine.analysis.solver.result import INF

    cut = s.turn + turns
    plain = searching._no_bound  # the reference's heuristic: 0 everywhere

    def cut_at(x: GameState, campaign_mode: bool, mask=None, hint=None) -> float:
        return INF if x.turn >= cut else 0  # no line on from there: every win below it comes sooner

    searching._no_bound = cut_at
    try:
        search = searching.Search(c, 0, True, budget, reference=True)
        search.root = s.clone()
        verdict, _, found, _, _ = search.run()
    finally:
        searching._no_bound = plain
    if verdict == SOLVED:
        return min(found - s.turn, turns)
    return turns if verdict == UNSOLVABLE else None


def bound(c: Campaign, s: GameState) -> float:
    """The solver's heuristic at ``s``: turns after ``s.turn`` it says are at least left."""
    from cardrogue.engine.analysis.solver.bounds import relaxation

    return relaxation(c, s.d).bound(s, True)


def par_line_holds(c: Campaign, turns: int, budget) -> list[str]:
    """The reference search (uniform cost) proves par ``turns``, the solver gives the same verdict, turns and health,
    and the bound stays within the turns left at every state of the reference's line: its actions."""
    from cardrogue.engine.analysis.solver import SOLVED
    from cardrogue.engine.analysis.solver.par import solve

    slow = solve(c, 0, True, budget, reference=True)
    assert (slow.verdict, slow.turns) == (SOLVED, turns)
    fast = solve(c, 0, True, budget)
    assert (fast.verdict, fast.turns, fast.health) == (slow.verdict, slow.turns, slow.health)
    s, resolver = started(c)
    for action in slow.actions:
        assert bound(c, s) <= slow.turns - s.turn, (s.turn, action)
        s.step(action, resolver)
    assert (s.outcome, s.turn) == ("won", turns)
    return slow.actions


def new_state(cells: list[dict], **kw: Any) -> GameState:
    """A fresh game on a one-level campaign, hero on the starting tile."""
    return GameState.new(campaign(cells, **kw))


def play(state: GameState, *actions: str) -> GameState:
    """Apply actions, answering every chance point with the campaign's fated (or scripted) dice."""
    resolver = FatedResolver(state.campaign)
    for text in actions:
        state.step(text, resolver)
    return state


def legal(state: GameState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def effective_colour(app, style) -> tuple[int, int, int]:
    """The colour a style's text is drawn in on screen: an ANSI name (red, magenta) through the app's ANSI
    theme, as Textual draws it; any other colour as it is."""
    colour = style.color
    return tuple(colour.triplet if colour.triplet is not None else colour.get_truecolor(app.ansi_theme))


def colour_at(strip, x: int):
    """The style of the character in column ``x`` of a strip."""
    for segment in strip:
        if x < segment.cell_length:
            return segment.style
        x -= segment.cell_length
    raise IndexError(x)


def ledger_solution() -> tuple[str, list[str]]:
    """The Unpaid Ledger, a bundled map whose shipped solution holds a twin action (:func:`twin_copy`): the
    campaign's text and the solution's actions."""
    from cardrogue.engine.format.resources import campaigns_dir

    text = (campaigns_dir() / "the-unpaid-ledger.json").read_text(encoding="utf-8")
    return text, json.loads((campaigns_dir() / "the-unpaid-ledger.replay.json").read_text(encoding="utf-8"))["actions"]


def ledger_run(player: str):
    """The Unpaid Ledger's shipped solution played by ``player``: (the campaign, its recorder)."""
    from cardrogue.engine.records.replay import Recorder

    text, actions = ledger_solution()
    campaign = load_campaign_text(text).campaign
    recorder = Recorder(campaign, player=player)
    for action in actions:
        recorder.play(action)
    return campaign, recorder


def twin_copy(campaign, text: str, player: str) -> tuple[str, int, str]:
    """``text`` with one action replaced by another legal action that leads to the very same state (the fated
    dice make a failed flee and a missed attack end alike): (the copy, the action's index, what it became)."""
    from cardrogue.engine.records.replay import Recorder

    actions = json.loads(text)["actions"]
    dice = FatedResolver(campaign)
    state = GameState.new(campaign, 0, log=False)
    state.resolve(dice)
    for i, action in enumerate(actions):
        after = state.clone()
        after.step(action, dice)
        for other in state.legal_actions():
            twin = state.clone()
            twin.step(other, dice)
            if str(other) != action and twin.key() == after.key():
                copy = Recorder(campaign, player=player)
                for played in actions[:i] + [str(other)] + actions[i + 1:]:
                    copy.play(played)
                return copy.text(), i, str(other)
        state = after
    raise AssertionError("no action of the run has a twin")


def detour_copies(campaign, text: str, player: str) -> dict[str, str]:
    """Copies of the run ``text`` that pass through the very same state at the end of each of its turns: ``loop``,
    with two actions inserted that lead back to the state they left (``unequip X``, ``equip X``); ``swap``, with two
    consecutive actions played the other way round to the same state. Each verifies with the run's score."""
    from cardrogue.engine.records.replay import Recorder

    actions = json.loads(text)["actions"]
    dice = FatedResolver(campaign)
    state = GameState.new(campaign, 0, log=False)
    state.resolve(dice)
    found: dict[str, list[str]] = {}
    for i, action in enumerate(actions):
        for first in state.legal_actions() if "loop" not in found else ():
            there = state.clone()
            there.step(first, dice)
            for back in there.legal_actions():
                again = there.clone()
                again.step(back, dice)
                if again.key() == state.key():
                    found["loop"] = actions[:i] + [str(first), str(back)] + actions[i:]
                    break
            if "loop" in found:
                break
        if "swap" not in found and i + 1 < len(actions) and action != actions[i + 1]:
            ahead = state.clone()
            ahead.step(action, dice)
            ahead.step(actions[i + 1], dice)
            other = state.clone()
            try:
                other.step(actions[i + 1], dice)
                other.step(action, dice)
            except ValueError:
                pass
            else:
                if other.key() == ahead.key():
                    found["swap"] = actions[:i] + [actions[i + 1], action] + actions[i + 2:]
        state.step(action, dice)
    assert set(found) == {"loop", "swap"}, found
    copies = {}
    for name, played in found.items():
        copy = Recorder(campaign, player=player)
        for action in played:
            copy.play(action)
        copies[name] = copy.text()
    return copies
