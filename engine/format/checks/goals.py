"""Level goals: slay a named enemy, open the chest (or a named card), buy a card from a shop."""

from __future__ import annotations

from typing import Any, Mapping

from ...model.campaign import CHEST, CardDef, Goal, Level, level_name
from ..diagnostics import Diagnostic, JsonPath
from .cards import known_card
from .common import Findings, a, nearest


def goal_card_problems(goal: Goal, cards: Mapping[str, CardDef], path: JsonPath, **where: Any) -> list[Diagnostic]:
    """CR201 and CR217: the goal names a known card, and only an enemy can be slain."""
    found = Findings()
    if known_card(found, goal.card, cards, path) and goal.verb == "slay" and not cards[goal.card].is_enemy:
        found.error("CR217", f"{goal.card!r} is {a(cards[goal.card].kind.value)}; only enemies can be slain", path, **where)
    return found.items


def goal_problems(level: Level, li: int, gi: int, goal: Goal, cards: Mapping[str, CardDef]) -> list[Diagnostic]:
    """The goal's card (:func:`goal_card_problems`); CR221 when the level holds nothing that meets it."""
    path = ("levels", li, "goals", gi, goal.verb)
    problems = goal_card_problems(goal, cards, path, level=li)
    if problems:
        return problems
    found = Findings()
    card_id, name = goal.card, level_name(level, li)
    if _misspelt_on_level(level, goal, cards):
        return []  # its CR201 ("did you mean" this card) is the one to fix, and meets the goal
    on_level = any(c.card == card_id for c in level.cells)
    # Said "on this level" beside the level's name (the editor's problems list, whose place says "goal" too), and
    # "goal: ... on level 1 "The Niche" (the-niche)" away from it (check's output, a hub's): Diagnostic.named.
    if goal.verb == "slay" and not on_level:
        said = lambda it: f"slay {card_id!r}, but no {card_id!r} is on {it}"  # noqa: E731
    elif goal.verb == "open" and card_id != CHEST and not on_level:
        said = lambda it: f"open {card_id!r}, but it is not on {it}"  # noqa: E731
    elif goal.verb == "open" and not on_level:
        said = lambda it: f"open the chest, but {it} has no chest"  # noqa: E731
    elif goal.verb == "buy" and not any(card_id in c.stock for c in level.cells):
        said = lambda it: f"buy {card_id!r}, but no shop on {it} sells it"  # noqa: E731
    else:
        return []
    found.error("CR221", said("this level"), path, level=li, named=f"goal: {said(name)}")
    return found.items


def _misspelt_on_level(level: Level, goal: Goal, cards: Mapping[str, CardDef]) -> bool:
    """Whether what the goal needs is on the level misspelt: an unknown card there (for buy, in a shop's stock) that
    its CR201 takes for the goal's card ("shopkeepers-dept" for "shopkeepers-debt"). The goal's CR221 ("no shop
    sells it") only followed from that one, and was listed before it (walk25)."""
    ids = {item for c in level.cells for item in c.stock} if goal.verb == "buy" else {c.card for c in level.cells}
    return any(card not in cards and nearest(card, cards) == goal.card for card in ids)
