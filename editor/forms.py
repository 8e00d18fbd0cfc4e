"""The editor's forms: level properties, campaign metadata, goals, stock, potions, the hero, cards.

Each form lists its fields, turns the author's values into one undoable edit (:mod:`.edits`) and
stays open with the reason under the form while the values are refused (a ``ValueError`` from the
edit or from reading the values).
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import TYPE_CHECKING, Callable, Mapping

from cardrogue.engine.format.checks import RuleError
from cardrogue.engine.format.diagnostics import Diagnostic
from cardrogue.engine.model.abilities import AbilityError
from cardrogue.engine.model.potions import seeded_identities
from cardrogue.engine.model.campaign import (CHEST, POTION_COLOURS, POTION_EFFECTS, SHOP, Campaign, CardDef, CardKind,
                                             LevelHero)
from cardrogue.engine.model.versions import RULES_VERSIONS
from cardrogue.engine.words import counted, nearest, place_text

from . import edits
from .document import Where
from .edits import MAX_SIZE, FieldError
from .widgets.dialogs import Choice, ChoiceScreen, ConfirmScreen, FieldValue, FormScreen
from .widgets.palette import Palette

if TYPE_CHECKING:
    from .app import EditorApp

Change = Callable[[dict], Callable[[Campaign], Campaign]]


def fields_of(path: tuple) -> tuple[str, ...]:
    """The form fields a rule's JSON path may be about, the most precise first.

    ``("hero", "items", 2)`` -> ``("items", "hero")``; ``("cards", "x", "abilities", 1)`` -> the
    ``ability1`` field first.
    """
    names: list[str] = []
    for i, part in enumerate(path):
        if part == "abilities" and i + 1 < len(path) and isinstance(path[i + 1], int):
            names.append(f"ability{path[i + 1]}")
        if isinstance(part, str):
            names.append(part)
    return tuple(reversed(names))


def whole_number(text: str, field: str, low: int | None = None, high: int | None = None) -> int:
    """A form field's whole number (within ``low``..``high``), or a FieldError naming the field."""
    text, what = text.strip(), field.replace("_", " ")
    bounds = f" from {low} to {high}" if low is not None and high is not None else ""
    if not text.lstrip("-").isdigit() or not text.isascii():
        raise FieldError(field, f"{what} is a whole number{bounds}, not {text!r}")
    value = int(text)
    if (low is not None and value < low) or (high is not None and value > high):
        raise FieldError(field, f"{what} is a whole number{bounds}, not {value}")
    return value


ALLOW_LADDER_CYCLES = "Allow ladder cycles (ladders that lead back to earlier levels)"
NO_CARDS = "-"  # a practice hero's empty hand or equipment, where an empty field keeps the campaign hero's


def level_hero_fields(hero: LevelHero | None) -> list[tuple[str, str, FieldValue]]:
    """A level's practice hero as form fields: empty keeps the campaign hero's."""
    hero = hero or LevelHero()
    cards = lambda ids: "" if ids is None else (" ".join(ids) or NO_CARDS)  # noqa: E731
    return [("at", "Practice hero at: x y (empty: the starting tile)",
             "" if hero.at is None else f"{hero.at[0]} {hero.at[1]}"),
            ("health", "Practice hero health (empty: his max health)", "" if hero.health is None else str(hero.health)),
            ("items", f"Practice hero items (empty: the hero's; {NO_CARDS}: none)", cards(hero.items)),
            ("equipped", f"Practice hero equipped (empty: the hero's; {NO_CARDS}: none)", cards(hero.equipped))]


def level_hero_of(values: dict) -> LevelHero:
    """The practice hero the form's fields give (each empty field: the campaign hero's)."""
    at_text, health = values["at"].replace(",", " ").split(), values["health"].strip()
    if at_text and len(at_text) != 2:
        raise FieldError("at", f"at is two whole numbers, x and y (e.g. 1 0), not {values['at'].strip()!r}")
    at = tuple(whole_number(t, "at") for t in at_text) or None

    def cards(key: str) -> tuple[str, ...] | None:
        text = values[key].replace(",", " ").strip()
        return None if not text else () if text == NO_CARDS else tuple(text.split())

    return LevelHero(whole_number(health, "health") if health else None, cards("items"), cards("equipped"), at)


def typed_value(value: FieldValue, typed: str | None) -> FieldValue:
    """A form field's value as the author typed or chose it (``None``: the field's own)."""
    if typed is None:
        return value
    return replace(value, value=typed) if isinstance(value, Choice) else typed


class Forms:
    """The forms of one editor app; each ends in one edit applied through the app's document."""

    def __init__(self, app: EditorApp) -> None:
        self.app = app

    @property
    def campaign(self) -> Campaign:
        return self.app.campaign

    def open(self, title: str, fields: list[tuple[str, str, FieldValue]], change: Change, label: str,
             where: Where | None = None, note: str = "", after: Callable[[dict], None] | None = None,
             relabel: Callable[[dict], dict[str, str]] | None = None) -> None:
        """A form whose values make an edit; an edit that refuses (ValueError) keeps the form open with why.
        ``relabel``: the fields' labels for the values chosen so far, kept up to date while the form is open."""

        def done(values: dict | None) -> None:
            if values is not None and self.app.edit(change(values), label, where) and after is not None:
                after(values)

        self.app.push_screen(FormScreen(title, fields, validate=self._validator(change), note=note, relabel=relabel),
                             done)

    def _validator(self, change: Change) -> Callable[[dict], tuple[str, tuple[str, ...]] | None]:
        """A form's check: the edit its values make, tried on the campaign; a refusal and its field."""

        def validate(values: dict) -> tuple[str, tuple[str, ...]] | None:
            try:
                change(values)(self.campaign)
            except FieldError as exc:
                return str(exc), (exc.field,)
            except RuleError as exc:
                return str(exc), fields_of(exc.diagnostic.path)
            except ValueError as exc:
                return str(exc), ()
            return None

        return validate

    # ------------------------------------------------------------------ levels and the campaign

    def level_properties(self, problem: tuple[str, tuple[str, ...]] | None = None, typed: dict | None = None) -> None:
        """Id, title, size and the practice hero; a resize that removes cards asks first, and its Cancel
        comes back here with what was ``typed`` (the size to change, the other fields kept). ``problem``:
        a reason shown under a field from the start (:class:`FormScreen`)."""
        li = self.app.level_index
        level = self.campaign.levels[li]
        fields: list[tuple[str, str, FieldValue]] = [
            ("id", "Id (ladders name it)", level.id), ("title", "Title", level.title),
            ("width", f"Width (1 to {MAX_SIZE})", str(level.width)),
            ("columns_at", "Columns added or removed at the", Choice("right", ("right", "left"))),
            ("height", f"Height (1 to {MAX_SIZE})", str(level.height)),
            ("rows_at", "Rows added or removed at the", Choice("bottom", ("bottom", "top")))]
        fields += level_hero_fields(level.hero)
        if typed is not None:
            fields = [(key, label, typed_value(value, typed.get(key))) for key, label, value in fields]

        def size(values: dict) -> tuple[int, int, bool, bool]:
            return (whole_number(values["width"], "width", 1, MAX_SIZE),
                    whole_number(values["height"], "height", 1, MAX_SIZE),
                    values["columns_at"] == "left", values["rows_at"] == "top")

        def change(values: dict) -> Callable[[Campaign], Campaign]:
            width, height, left, top = size(values)

            hero = level_hero_of(values)

            def apply(c: Campaign) -> Campaign:
                c = edits.set_level_meta(c, li, values["id"].strip(), values["title"].strip())
                c = edits.set_level_hero(c, li, hero)  # before the resize: his tile moves with the grid
                return edits.resize_level(c, li, width, height, left=left, top=top)

            return apply

        def done(values: dict | None) -> None:
            if values is None:
                return
            width, height, left, top = size(values)
            cut = edits.cut_by_resize(self.campaign.levels[li], width, height, left=left, top=top)
            if not cut:
                self.app.edit(change(values), "Level properties")
                return
            names = ", ".join(f"{c.card} at {place_text(c.x, c.y)}" + (" (the exit)" if c.exit else "") for c in cut[:4])
            names += f" and {len(cut) - 4} more" if len(cut) > 4 else ""
            removes = f"The new size removes {counted(len(cut), 'card')} from the grid: {names}."
            question = f"{removes} Resize anyway? (ctrl+z brings them back)"

            def answered(answer: str | None) -> None:
                if answer == "resize":
                    self.app.edit(change(values), "Level properties")
                else:  # back to the form, nothing typed lost: the size to change, or escape to drop it all
                    self.level_properties(problem=(removes, ("width", "height")), typed=values)

            self.app.push_screen(ConfirmScreen(question, [("Resize", "resize", "error"), ("Cancel", "cancel", "default")]),
                                 answered)

        self.app.push_screen(FormScreen(f"Level {li + 1}", fields, validate=self._validator(change),
                                        note="A smaller grid removes the cards outside it; you are asked first. The practice "
                                             "hero: how a run that starts on this level finds the hero.",
                                        problem=problem),
                             done)

    def metadata(self) -> None:
        c = self.campaign
        chars = tuple(sorted(card.id for card in c.cards.values() if card.kind is CardKind.CHARACTER))
        fields: list[tuple[str, str, FieldValue]] = [
            ("title", "Title", c.title), ("id", "Id", c.id), ("author", "Author", c.author),
            ("description", "Description", c.description),
            ("kind", "Kind", Choice(c.kind, ("campaign", "challenge"))),
            ("rules", "Rules version", Choice(c.rules, RULES_VERSIONS)), ("seed", "Seed (fated dice)", str(c.seed)),
            ("character", "Hero character", Choice(c.hero.character, chars)),
            ("items", "Hero items (space separated)", " ".join(c.hero.items)),
            ("equipped", "Hero equipped (space separated)", " ".join(c.hero.equipped)),
            ("allow_ladder_cycles", ALLOW_LADDER_CYCLES, c.allow_ladder_cycles)]

        def change(values: dict) -> Callable[[Campaign], Campaign]:
            text = values["seed"].strip()
            if not (text.isascii() and text.isdigit()):
                raise FieldError("seed", "the seed is a whole number from 0 to 18446744073709551615")
            meta = {k: values[k].strip() for k in ("title", "id", "author", "description", "kind", "rules")}

            def apply(camp: Campaign) -> Campaign:
                camp = edits.set_metadata(camp, seed=int(text), allow_ladder_cycles=values["allow_ladder_cycles"], **meta)
                return edits.set_hero_checked(camp, values["character"], values["items"].split(), values["equipped"].split())

            return apply

        self.open("Campaign", fields, change, "Campaign metadata", Where(None))

    # ------------------------------------------------------------------ goals, stock and contents

    def add_goal(self) -> None:
        """A goal picked from lists: its kind, then one of the things of that kind the level holds."""
        li = self.app.level_index
        level = self.campaign.levels[li]
        misspelt = next((i for i, g in enumerate(level.goals) if g.verb not in edits.GOAL_VERBS), None)
        if misspelt is not None:  # a draft's goal the schema refuses is mended first
            self.mend_goal(li, misspelt)
            return
        targets = edits.goal_targets(self.campaign, li)
        kinds = tuple(verb for verb in edits.GOAL_VERBS if targets[verb])
        if not kinds:
            self.app.notify("Nothing on this level can be a new goal: place an enemy, the chest or a shop with "
                            "stock first", severity="warning", timeout=5)
            return
        have = ", ".join(g.text() for g in level.goals) or "none"
        first = kinds[0]
        fields: list[tuple[str, str, FieldValue]] = [
            ("verb", "Goal", Choice(first, kinds)),
            ("card", "What (the enemies, chest and stock on this level)",
             Choice(targets[first][0] if len(targets[first]) == 1 else "", targets[first],
                    follows="verb", options_by=tuple(targets.items())))]
        self.open(f"Add a goal to {level.title or level.id}", fields,
                  lambda v: lambda c: edits.add_goal(c, li, v["verb"], v["card"]), "Add goal", Where(li),
                  note=f"Goals now: {have}. The player must meet every goal before leaving the level.")

    def mend_goal(self, li: int, index: int) -> None:
        """A draft's goal whose verb is none of the verbs (``{"slayy": "golem"}``, CR110): its verb and card
        picked from lists, starting from the verb it is most like and the card it names."""
        level = self.campaign.levels[li]
        goal = level.goals[index]
        targets = edits.goal_targets(self.campaign, li)
        meant = nearest(goal.verb.lower(), edits.GOAL_VERBS, 0.5) or goal.verb
        fields: list[tuple[str, str, FieldValue]] = [
            ("verb", "Goal", Choice(meant, edits.GOAL_VERBS)),
            ("card", "What (the enemies, chest and stock on this level)",
             Choice(goal.card, targets.get(meant, ()), follows="verb", options_by=tuple(targets.items())))]
        written = json.dumps({goal.verb: goal.card}, ensure_ascii=False)
        self.open(f"Mend a goal of {level.title or level.id}", fields,
                  lambda v: lambda c: edits.mend_goal(c, li, index, v["verb"], v["card"]), "Mend goal", Where(li),
                  note=f"The file has {written}: a goal is slay, open or buy. OK writes the goal chosen in its place.")

    def stale_key(self, diag: Diagnostic) -> bool:
        """Whether a misspelt key's problem (CR103) no longer leads to the key its check found (edits.key_unchanged):
        if so, said (the campaign checked again) and True."""
        checked = self.app.checker.checked
        if checked is not None and edits.key_unchanged(checked, self.campaign, diag.path):
            return False
        self.app.problems_out_of_date(f"{str(diag.path[-1])!r} is no longer where the last check found it")
        return True

    def mend_key(self, diag: Diagnostic) -> None:
        """A draft's property the format does not know (CR103, a misspelt key kept as written): renamed to the key
        its message says is meant, removed with its value, or kept as it is."""
        key = str(diag.path[-1])
        checked = self.app.checker.checked
        if self.stale_key(diag):
            return
        meant = re.search(r"did you mean '([^']+)'\?", diag.message)
        to = meant.group(1) if meant else None
        choices = ([("rename", f"Rename {key!r} to {to!r}, keeping its value")] if to else [])
        choices += [("remove", f"Remove {key!r} and its value"), ("keep", "Keep it as it is, for now")]

        def chosen(value: str | None) -> None:
            if value in ("rename", "remove"):
                target = to if value == "rename" else None
                self.app.edit(lambda c: edits.mend_key(c, diag.path, target, checked),
                              f"Rename {key}" if target else f"Remove {key}", Where(diag.level))

        self.app.push_screen(ChoiceScreen(f"{key!r} is not a property the format knows here", choices), chosen)

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
        stray = cell is not None and cell.card not in (SHOP, CHEST) and bool(cell.stock or cell.contents)
        if cell is None or (cell.card not in (SHOP, CHEST) and not stray):
            self.app.notify("Put the cursor on a shop (its stock) or a chest (its contents)", severity="warning",
                            timeout=3)
            return
        if stray:  # a draft's stock or contents on another card (CR218): shown, to be emptied
            what, now = ("Stock", cell.stock) if cell.stock else ("Contents", cell.contents)
            note = f"Only a shop has stock and only a chest has contents: empty the field to remove them from the {cell.card}."
        else:
            what, now = ("Stock", cell.stock) if cell.card == SHOP else ("Contents", cell.contents)
            note = "Items only: weapons, armour, scrolls, potions, artifacts, items."
        self.open(f"{what} of the {cell.card} at {place_text(x, y)}",
                  [("items", f"{what}: card ids, space separated", " ".join(now))],
                  lambda v: lambda c: edits.set_cell_items(c, li, x, y, v["items"].replace(",", " ").split()),
                  f"Set {what.lower()}", note=note)

    # ------------------------------------------------------------------ potions, the hero, cards

    def potions(self) -> None:
        chosen, seed = self.campaign.potions, self.campaign.seed

        def labels(chosen: Mapping[str, str]) -> dict[str, str]:
            # What the seed makes each colour not set depends on the effects the others are set to (walk 26: the
            # labels kept the form's first values while red and blue were chosen): said again at each choice.
            chosen = {colour: effect for colour, effect in chosen.items() if effect}
            seeded = seeded_identities(seed, chosen)
            return {colour: f"{colour.capitalize()} potion" + (
                "" if colour in chosen else f" (not set: seed {seed} makes it {seeded[colour]})" if seeded else
                f" (not set: no seed gives it an effect until the seed is a whole number from 0 to 2**64 - 1)")
                for colour in POTION_COLOURS}

        first = labels(chosen)
        fields: list[tuple[str, str, FieldValue]] = [
            (colour, first[colour], Choice(chosen.get(colour, ""), POTION_EFFECTS, optional=True))
            for colour in POTION_COLOURS]
        self.open("Potion colours", fields,
                  lambda v: lambda c: edits.set_potions(c, {k: val.strip().lower() for k, val in v.items()}),
                  "Potion colours", Where(None),
                  note="The effect of each colour, each effect at most once. A colour left not set is "
                       "fixed from the seed, as each label says (the player finds out by drinking).",
                  relabel=labels)

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
        kind = known.kind.value if known else ""
        written = self.campaign.card_entries.get(card_id, {}).get("kind")
        if isinstance(written, str) and written not in {k.value for k in CardKind}:
            card, kind = _misspelt_kind(card_id, self.campaign.card_entries[card_id], card), written
        abilities = [str(a) for a in card.abilities]
        number = lambda v: "" if v is None else str(v)  # noqa: E731
        points = "Victory points ({} to {})".format(*edits.card_number_bounds()["victory_points"])
        fields: list[tuple[str, str, FieldValue]] = [
            ("id", "Card id (catalog id: an override; new id: a new card)", card_id),
            ("name", "Name", card.name),
            ("kind", "Kind", Choice(kind, tuple(k.value for k in CardKind))),
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
                parsed[key] = whole_number(text, key) if text else None
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


def _misspelt_kind(card_id: str, entry: Mapping, card: CardDef) -> CardDef:
    """A draft's card definition whose kind is misspelt ("enemey") defines no card: the form starts from
    its entry as written (with the catalog card's kind, or item, for the rest), so OK keeps what it says."""
    from cardrogue.engine.format.catalog import card_from_dict
    from cardrogue.engine.format.loader import default_catalog

    base = default_catalog().get(card_id)
    try:
        return card_from_dict(card_id, {**entry, "kind": (base.kind if base else CardKind.ITEM).value}, base)
    except (AbilityError, TypeError, ValueError):
        return card
