"""The editor's forms: level properties, campaign metadata, goals, stock, potions, the hero, cards.

Each form lists its fields, turns the author's values into one undoable edit (:mod:`.edits`) and
stays open with the reason under the form while the values are refused (a ``ValueError`` from the
edit or from reading the values).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from cardrogue.engine.model.campaign import CHEST, POTION_COLOURS, POTION_EFFECTS, SHOP, Campaign, CardDef, CardKind

from . import edits
from .document import Where
from .widgets.dialogs import Choice, ChoiceScreen, FieldValue, FormScreen
from .widgets.palette import Palette

if TYPE_CHECKING:
    from .app import EditorApp

Change = Callable[[dict], Callable[[Campaign], Campaign]]


def whole_number(text: str, what: str) -> int:
    """A form field's whole number, or a ValueError naming the field."""
    text = text.strip()
    if not text.lstrip("-").isdigit() or not text.isascii():
        raise ValueError(f"{what} is a whole number")
    return int(text)


class Forms:
    """The forms of one editor app; each ends in one edit applied through the app's document."""

    def __init__(self, app: EditorApp) -> None:
        self.app = app

    @property
    def campaign(self) -> Campaign:
        return self.app.campaign

    def open(self, title: str, fields: list[tuple[str, str, FieldValue]], change: Change, label: str,
             where: Where | None = None, note: str = "", after: Callable[[dict], None] | None = None) -> None:
        """A form whose values make an edit; an edit that refuses (ValueError) keeps the form open with why."""

        def validate(values: dict) -> str | None:
            try:
                change(values)(self.campaign)
            except ValueError as exc:
                return str(exc)
            return None

        def done(values: dict | None) -> None:
            if values is not None and self.app.edit(change(values), label, where) and after is not None:
                after(values)

        self.app.push_screen(FormScreen(title, fields, validate=validate, note=note), done)

    # ------------------------------------------------------------------ levels and the campaign

    def level_properties(self) -> None:
        li = self.app.level_index
        level = self.campaign.levels[li]
        fields: list[tuple[str, str, FieldValue]] = [
            ("id", "Id", level.id), ("title", "Title", level.title),
            ("width", "Width", str(level.width)), ("height", "Height", str(level.height))]

        def change(values: dict) -> Callable[[Campaign], Campaign]:
            width, height = whole_number(values["width"], "width"), whole_number(values["height"], "height")

            def apply(c: Campaign) -> Campaign:
                c = edits.set_level_meta(c, li, values["id"].strip(), values["title"].strip())
                return edits.resize_level(c, li, width, height)

            return apply

        self.open(f"Level {li + 1}", fields, change, "Level properties")

    def metadata(self) -> None:
        c = self.campaign
        chars = tuple(sorted(card.id for card in c.cards.values() if card.kind is CardKind.CHARACTER))
        fields: list[tuple[str, str, FieldValue]] = [
            ("title", "Title", c.title), ("id", "Id", c.id), ("author", "Author", c.author),
            ("description", "Description", c.description),
            ("kind", "Kind", Choice(c.kind, ("campaign", "challenge"))),
            ("rules", "Rules version", Choice(c.rules, ("1.1.2", "1.0"))), ("seed", "Seed (fated dice)", str(c.seed)),
            ("character", "Hero character", Choice(c.hero.character, chars)),
            ("items", "Hero items (space separated)", " ".join(c.hero.items)),
            ("equipped", "Hero equipped (space separated)", " ".join(c.hero.equipped))]

        def change(values: dict) -> Callable[[Campaign], Campaign]:
            text = values["seed"].strip()
            if not (text.isascii() and text.isdigit()):
                raise ValueError("the seed is a whole number from 0 to 18446744073709551615")
            meta = {k: values[k].strip() for k in ("title", "id", "author", "description", "kind", "rules")}

            def apply(camp: Campaign) -> Campaign:
                camp = edits.set_metadata(camp, seed=int(text), **meta)
                return edits.set_hero_checked(camp, values["character"], values["items"].split(), values["equipped"].split())

            return apply

        self.open("Campaign", fields, change, "Campaign metadata", Where(None))

    # ------------------------------------------------------------------ goals, stock and contents

    def add_goal(self) -> None:
        li = self.app.level_index
        level = self.campaign.levels[li]
        have = ", ".join(g.text() for g in level.goals) or "none"
        self.open(f"Add a goal to {level.title or level.id}",
                  [("verb", "Goal: slay, open or buy", "slay"), ("card", "Card id (an enemy, the chest, the shop's card)", "")],
                  lambda v: lambda c: edits.add_goal(c, li, v["verb"], v["card"]), "Add goal", Where(li),
                  note=f"Goals now: {have}. The player must meet every goal before leaving the level.")

    def remove_goal(self) -> None:
        li = self.app.level_index
        goals = self.campaign.levels[li].goals
        if not goals:
            self.app.notify("This level has no goals (g adds one)", severity="warning", timeout=3)
            return

        def chosen(value: str | None) -> None:
            if value is not None:
                self.app.edit(lambda c: edits.remove_goal(c, li, int(value)), "Remove goal", Where(li))

        self.app.push_screen(ChoiceScreen("Remove which goal?", [(str(i), g.text()) for i, g in enumerate(goals)]),
                             chosen)

    def cell_items(self) -> None:
        li, (x, y) = self.app.level_index, self.app.canvas.cursor
        cell = self.campaign.levels[li].cell_at(x, y)
        if cell is None or cell.card not in (SHOP, CHEST):
            self.app.notify("Put the cursor on a shop (its stock) or a chest (its contents)", severity="warning",
                            timeout=3)
            return
        what, now = ("Stock", cell.stock) if cell.card == SHOP else ("Contents", cell.contents)
        self.open(f"{what} of the {cell.card} at ({x}, {y})",
                  [("items", f"{what}: card ids, space separated", " ".join(now))],
                  lambda v: lambda c: edits.set_cell_items(c, li, x, y, v["items"].replace(",", " ").split()),
                  f"Set {what.lower()}", note="Items only: weapons, armour, scrolls, potions, artifacts, items.")

    # ------------------------------------------------------------------ potions, the hero, cards

    def potions(self) -> None:
        fields: list[tuple[str, str, FieldValue]] = [
            (colour, f"{colour.capitalize()} potion",
             Choice(self.campaign.potions.get(colour, ""), POTION_EFFECTS, optional=True))
            for colour in POTION_COLOURS]
        self.open("Potion colours", fields,
                  lambda v: lambda c: edits.set_potions(c, {k: val.strip().lower() for k, val in v.items()}),
                  "Potion colours", Where(None),
                  note="The effect of each colour, each effect at most once. "
                       "A colour left not set is fixed from the seed.")

    def hero(self) -> None:
        hero = self.campaign.hero
        chars = sorted(c.id for c in self.campaign.cards.values() if c.kind is CardKind.CHARACTER)
        self.open("The hero", [("character", "Character", Choice(hero.character, tuple(chars))),
                               ("items", "Starting items (card ids, space separated)", " ".join(hero.items)),
                               ("equipped", "Equipped (weapons and armour)", " ".join(hero.equipped))],
                  lambda v: lambda c: edits.set_hero_checked(c, v["character"].strip(), v["items"].split(),
                                                             v["equipped"].split()),
                  "Hero", Where(None))

    def card(self, card_id: str | None = None) -> None:
        """Add or override a card definition: the palette's card to start from, a new id for a new card."""
        palette = self.app.query_one(Palette)
        card_id = card_id or palette.brush
        known = self.campaign.cards.get(card_id)
        card = known or CardDef(card_id, "", CardKind.ITEM)  # an unknown id: a card's defaults, the kind to choose
        abilities = [str(a) for a in card.abilities]
        number = lambda v: "" if v is None else str(v)  # noqa: E731
        points = "Victory points ({} to {})".format(*edits.card_number_bounds()["victory_points"])
        fields: list[tuple[str, str, FieldValue]] = [
            ("id", "Card id (catalog id: an override; new id: a new card)", card_id),
            ("name", "Name", card.name),
            ("kind", "Kind", Choice(known.kind.value if known else "", tuple(k.value for k in CardKind))),
            ("attack", "Attack", number(card.attack)),
            ("health", "Health", number(card.health)),
            ("gold", "Gold", number(card.gold)),
            ("victory_points", points, str(card.victory_points)),
            ("max_health", "Max health (characters)", number(card.max_health)),
            ("slot", "Equipment slot (weapons and armour)", Choice(card.slot or "", edits.SLOTS, optional=True)),
            ("colour", "Potion colour", Choice(card.colour or "", POTION_COLOURS, optional=True)),
            ("sellable", "Sellable (its gold amount not crossed out)", card.sellable),
            ("tradable", "Tradable (its trade symbol not crossed out)", card.tradable),
            ("throwable", "Throwable (shows the throw symbol)", card.throwable),
            ("cursed", "Cursed (cannot leave the hand)", card.cursed),
            ("text", "Text", card.text)]
        fields += [(f"ability{i}", f"Ability {i + 1} (rulebook text)", abilities[i] if i < len(abilities) else "")
                   for i in range(min(8, max(4, len(abilities) + 1)))]

        def change(values: dict) -> Callable[[Campaign], Campaign]:
            new_id = values["id"].strip()
            parsed: dict[str, object] = {k: values[k].strip() for k in ("name", "kind", "slot", "colour", "text")}
            parsed.update({k: values[k] for k in edits.CARD_FLAGS})
            for key in ("attack", "health", "gold", "victory_points", "max_health"):
                text = values[key].strip()
                parsed[key] = whole_number(text, key.replace("_", " ")) if text else None
            parsed["abilities"] = [values[k].strip() for k in values if k.startswith("ability") and values[k].strip()]

            def apply(c: Campaign) -> Campaign:
                return edits.set_card(c, new_id, edits.card_entry(c, new_id, parsed))

            return apply

        self.open("Card definition", fields, change, "Card definition", Where(None),
                  note="A campaign card overrides the catalog's (only the fields that differ are saved) "
                       "or adds a new one. Abilities use the rulebook's words, e.g. -1 DAMAGE TAKEN.",
                  after=lambda v: palette.choose(v["id"].strip()))

    def remove_card(self) -> None:
        entries = self.campaign.card_entries
        if not entries:
            self.app.notify("The campaign defines no cards of its own (F4 adds one)", severity="warning", timeout=3)
            return
        from cardrogue.engine.format.loader import default_catalog

        catalog = default_catalog()
        choices = [(cid, f"{cid} ({'override: back to the catalog' if cid in catalog else 'new card'})")
                   for cid in sorted(entries)]

        def chosen(value: str | None) -> None:
            if value is not None:
                self.app.edit(lambda c: edits.remove_card(c, value), f"Remove card {value}", Where(None))

        self.app.push_screen(ChoiceScreen("Remove which card definition?", choices), chosen)
