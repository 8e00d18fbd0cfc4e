"""The campaign's own cards (overrides of the catalog and new cards), and naming a card anywhere."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from ...model.abilities import AbilityError, parse_ability
from ...model.campaign import POTION_COLOURS, POTION_EFFECTS, CardDef, CardKind
from ..catalog import default_catalog
from ..diagnostics import Diagnostic, JsonPath
from .abilities import endless_roll_problems, number_problems
from .common import Findings, a, nearest

KINDS = frozenset(kind.value for kind in CardKind)


def card_entry_problems(card_id: str, entry: Mapping[str, Any]) -> list[Diagnostic]:
    """CR215, CR216, CR226, CR227 and CR229 for one entry of the campaign's ``cards``: a new card needs a name
    and a kind, and the numbers its kind plays with; an override keeps the catalog card's kind; every
    ability is written in the Clarifications' vocabulary; only a potion is marked ``throwable``."""
    found = Findings()
    path: JsonPath = ("cards", card_id)
    base = default_catalog().get(card_id)
    if base is None and not {"name", "kind"} <= entry.keys():
        found.error("CR216", f"new card {card_id!r} needs a name and a kind (or use a catalog id to override one)", path)
        return found.items
    parsed = []
    for i, text in enumerate(entry.get("abilities", [])):
        try:
            ability = parse_ability(text)
        except AbilityError as exc:
            said = str(exc)  # a "did you mean" is the example to give; else two of the rulebook's words
            found.error("CR215", said if said.endswith("?") else f"{said}: write it in the rulebook's words, for example "
                        "\"ROLL A DIE: IF 6: DODGES PLAYER'S ATTACK\" or \"-1 DAMAGE TAKEN\"", path + ("abilities", i))
            continue
        found.extend(number_problems(ability, path + ("abilities", i)))
        parsed.append((ability, path + ("abilities", i)))
    found.extend(endless_roll_problems(parsed))
    if "kind" in entry and entry["kind"] not in KINDS:
        return found.items  # a misspelt kind ("enemey"): the schema's CR104 says so; the entry defines no card yet
    kind = CardKind(entry["kind"]) if "kind" in entry else base.kind
    if base is not None and kind is not base.kind:
        found.error("CR216", f"an override cannot change {card_id!r} from {base.kind.value} to {kind.value}", path + ("kind",))
    elif kind in (CardKind.ENEMY, CardKind.BOSS) and base is None and not {"attack", "health"} <= entry.keys():
        found.error("CR216", f"new {kind.value} {card_id!r} needs attack and health", path)
    elif kind in (CardKind.WEAPON, CardKind.ARMOUR) and base is None and "slot" not in entry:
        found.error("CR216", f"new {kind.value} {card_id!r} needs a slot", path)
    elif kind is CardKind.POTION and base is None and "colour" not in entry:
        found.error("CR216", f"new potion {card_id!r} needs a colour", path)
    if entry.get("throwable") is True and kind is not CardKind.POTION:
        # docs/rules.md, "The throw symbol on a card that is not a potion": only the potions have terms for
        # being thrown (THROW: "See the individual items' terms"), so the mark would silently do nothing.
        found.warning("CR229", f"{card_id!r} is {a(kind.value)}, and only a potion can be thrown: the rulebook gives "
                      "no terms for throwing anything else, so \"throwable\": true does nothing here; remove it",
                      path + ("throwable",))
    return found.items


def named(card_id: str, cards: Mapping[str, CardDef]) -> str | None:
    """The card an unknown id most likely meant when spelling is not the trouble: the card whose
    printed name it spells (``the-golem`` -> ``golem``, "The Golem"), or the one id it ends or
    starts with at a hyphen (``big-troll`` -> ``troll``; of two as long, the first of ``cards``).

    A file may hold 200,000 unknown ids: the names are spelled once per set of cards, and the ids an
    unknown one ends or starts with are its own pieces at its hyphens, looked up (a scan of every card
    for each id took 57 s of a check's 107)."""
    wanted = card_id.lower()
    spelled = _spelled_names(cards)
    if wanted in spelled:
        return spelled[wanted]
    hyphens = [i for i, ch in enumerate(wanted) if ch == "-"]
    parts = {piece for i in hyphens for piece in (wanted[:i], wanted[i + 1:]) if piece in cards}
    longest = max(map(len, parts), default=0)
    parts = {key for key in parts if len(key) == longest}
    if len(parts) <= 1:
        return next(iter(parts), None)
    return next(key for key in cards if key in parts)


# The last set of cards whose names were spelled, and their spellings: a campaign's cards are a read-only
# mapping made once per load or edit, so the same object is the same cards.
_spelled: tuple[Mapping[str, CardDef], dict[str, str]] | None = None


def _spelled_names(cards: Mapping[str, CardDef]) -> dict[str, str]:
    """Each card's printed name spelled as an id ("The Golem" -> ``the-golem``) -> the first card of that name."""
    global _spelled
    last = _spelled
    if last is not None and last[0] is cards:
        return last[1]
    spelled: dict[str, str] = {}
    for key, card in cards.items():
        spelled.setdefault("-".join(card.name.lower().replace("'", "").split()), key)
    _spelled = (cards, spelled)
    return spelled


def known_card(found: Findings, card_id: str, cards: Mapping[str, CardDef], path: JsonPath, *,
               kinds: Iterable[CardKind] | None = None, what: str = "card", **where: Any) -> bool:
    """CR201 (a card id that is neither in the catalog nor the campaign's cards) and, given
    ``kinds``, CR217 (a card of another kind); True when the card may be used here."""
    card = cards.get(card_id)
    if card is None:
        near = nearest(card_id, cards) or named(card_id, cards)
        hint = f"; did you mean {near!r}?" if near else _potion_hint(card_id, cards)
        found.error("CR201", f"unknown card {card_id!r}{hint}", path, **where)
        return False
    if kinds is not None and card.kind not in kinds:
        found.error("CR217", f"{card_id!r} is {a(card.kind.value)}, not {a(what)}", path, **where)
        return False
    return True


def _potion_hint(card_id: str, cards: Mapping[str, CardDef]) -> str:
    """For a potion asked for by its effect (``teleportation-potion``, ``healing``): potions are cards by
    colour, and which colour does what is the campaign's ("Potions > Properties of a potion")."""
    words = card_id.split("-")
    if "potion" not in words and "potions" not in words and len(words) > 1:  # a poison-dart is not a potion
        return ""
    effect = next((e for e in POTION_EFFECTS if any(len(w) >= 4 and e.startswith(w) for w in words)), None)
    if effect is None and len(words) == 1:
        return ""
    order = {colour: i for i, colour in enumerate(POTION_COLOURS)}
    potions = sorted((key for key, card in cards.items() if card.kind is CardKind.POTION),
                     key=lambda key: (order.get(cards[key].colour or "", len(order)), key))
    if not potions:
        return ""
    listed = ", ".join(potions[:-1]) + f" or {potions[-1]}" if len(potions) > 1 else potions[0]
    which = f"which one is {effect}" if effect else "what each one does"
    return f"; a potion is named by its colour ({listed}), and the campaign's potion colours say {which}"


def item_problems(ids: Iterable[str], cards: Mapping[str, CardDef], path: JsonPath, **where: Any) -> list[Diagnostic]:
    """CR201 and CR217 for a list of cards that go into the hero's hand (a shop's stock, a chest's
    contents): each a known card, and an item."""
    found = Findings()
    for i, item in enumerate(ids):
        if known_card(found, item, cards, path + (i,), **where) and not cards[item].is_item:
            found.error("CR217", f"{item!r} is {a(cards[item].kind.value)}, not an item", path + (i,), **where)
    return found.items
