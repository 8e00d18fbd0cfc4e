"""The fields of a :class:`~.state.GameState`, written once.

Each field says how a clone gets it, how ``key()`` sees it and how the solver
stores it while it waits in the search's queue. This one list drives the
state's ``__slots__``, ``clone()``, ``key()``, the solver's signature
(:func:`key_function`) and its packed states (:func:`pack_functions`), so a
field added here is cloned, keyed, told apart and stored by the solver without
a second edit anywhere.

The functions are generated as plain code (one assignment per field, one tuple
of expressions): the solver clones and keys once per generated state, and a
loop over the list there would cost a third of its speed.
"""

from __future__ import annotations

import re
from typing import NamedTuple


class Field(NamedTuple):
    """One field: ``clone``, ``key`` and ``pack`` are Python expressions over the source state ``x``
    (``None`` for ``key``: the field does not affect the future, so it is not part of the key);
    ``unpack`` rebuilds the field from ``v``, what ``pack`` stored (``None`` for ``pack``: nothing is
    stored, ``unpack`` is then an expression over the arguments of ``unpack(packed, d)``)."""

    name: str
    clone: str = ""  # "" : shared as it is (an immutable value)
    key: str | None = ""  # "" : the value itself
    pack: str | None = ""  # "" : the value itself
    unpack: str = ""  # "" : the stored value itself


def _keyed(name: str) -> Field:
    return Field(name)


_MAP_CLONE = "x.{0}.copy() if x.{0} else {{}}"
_MAP_KEY = "tuple(sorted(x.{0}.items())) if x.{0} else ()"
_MAP_PACK = "tuple(x.{0}.items()) if x.{0} else None"  # no empty dictionary kept per stored state
_MAP_UNPACK = "dict(v) if v else {}"

# The order of the keyed fields is the order of ``key()``, which replay checkpoints hash: never reorder.
FIELDS: tuple[Field, ...] = (
    Field("d", key=None, pack=None, unpack="d"),  # the campaign's compiled tables (tables.Dungeon), shared by every state of a run
    Field("log", clone="x.log[:] if x.log is not None else None", key=None,
          pack=None, unpack="None"),  # events.Event, or None: no log (a stored state keeps none)
    _keyed("level"),  # index of the level the hero is on
    _keyed("pos"),  # the hero's cell (global cell index)
    _keyed("health"),
    _keyed("gold"),
    _keyed("turn"),
    _keyed("hand"),  # sorted tuple of card ids
    _keyed("equip"),  # card id per slot (tables.SLOTS), "" for an empty slot
    Field("stats", key=None),  # hero.Stats of this equipment and hand (derived)
    _keyed("atk_bonus"),  # potions of strength and weakness drunk
    _keyed("max_bonus"),  # +X / -X TO MAX HEALTH from scrolls
    _keyed("poison"),  # turns of poison left
    _keyed("antidote"),  # POISON INSTEAD HEALS +X while this poison lasts
    _keyed("paralysed"),  # turns to skip
    _keyed("cooldown"),  # turns before the mage's spell is ready
    # A byte per cell: DOWN, UP, CLEARED. Stored as the immutable bytes the solver's table already holds.
    Field("faces", clone="x.faces[:]", key="bytes(x.faces)", pack="faces", unpack="bytearray(v)"),
    # ((cell, dice drawn from its card's stream), ...) in cell order, cells with none left out.
    Field("draws", key="x._draw_counts()"),
    # enemy cell -> (health, poison, paralysed, attack), enemies at full health with no condition left out.
    Field("foes", clone=_MAP_CLONE.format("foes"), key=_MAP_KEY.format("foes"), pack=_MAP_PACK.format("foes"),
          unpack=_MAP_UNPACK),
    # cell -> enemy cell, for enemies a potion of teleportation moved.
    Field("visitors", clone=_MAP_CLONE.format("visitors"), key=_MAP_KEY.format("visitors"),
          pack=_MAP_PACK.format("visitors"), unpack=_MAP_UNPACK),
    _keyed("bought"),  # sorted ((shop cell, stock index), ...)
    _keyed("identified"),  # bit i: POTION_COLOURS[i] is known
    _keyed("phase"),  # phases.STEP1 ... CHOOSE_TELEPORT
    _keyed("moves"),  # moves left this turn
    _keyed("pure"),  # only moved so far this turn (the v1.1.2 repeat)
    _keyed("repeated"),  # the repeat was used
    _keyed("moved"),  # the hero moved this turn
    _keyed("pending_level"),  # a ladder taken: the level entered at the next turn (-1: none)
    _keyed("deferred"),  # relocated at the end of the turn: the tile acts next turn
    _keyed("subject"),  # who a potion of teleportation moves (-1: the hero)
    _keyed("todo"),  # pending rule steps (a stack of (function, *args))
    _keyed("awaiting"),  # the step a due die continues
    Field("chance", key=None),  # actions.Chance due now, or None (derived from awaiting)
    _keyed("fight"),  # the combat turn under way
    _keyed("outcome"),  # None, phases.WON or phases.DEAD
)

NAMES: tuple[str, ...] = tuple(f.name for f in FIELDS)


def _key_expr(f: Field) -> str:
    return f.key or f"x.{f.name}"


def clone_function(cls: type):
    """``clone(x)``: a new ``cls`` with every field copied as its :data:`FIELDS` entry says."""
    lines = ["def clone(x):", "    s = new(cls)"]
    lines += [f"    s.{f.name} = {f.clone or 'x.' + f.name}" for f in FIELDS]
    lines.append("    return s")
    return _compile("\n".join(lines), "clone", {"new": object.__new__, "cls": cls})


def key_function(name: str = "key", omit: tuple[str, ...] = (), plain: tuple[str, ...] = (),
                 given: tuple[str, ...] = (), extra: tuple[str, ...] = ()):
    """A function of a state giving the tuple of its keyed fields, in :data:`FIELDS` order.

    ``omit``: keyed fields left out; ``plain``: fields taken as they are rather than by their key
    expression (cheaper where the encoding needs not be canonical); ``given``: fields the caller
    may pass already encoded, as keyword arguments defaulting to None; ``extra``: positional
    arguments appended to the tuple.
    """
    names = {f.name for f in FIELDS if f.key is not None}
    unknown = (set(omit) | set(plain) | set(given)) - names
    if unknown:
        raise ValueError(f"not keyed fields of the state: {', '.join(sorted(unknown))}")
    parts = []
    for f in FIELDS:
        if f.key is None or f.name in omit:
            continue
        expr = f"x.{f.name}" if f.name in plain else _key_expr(f)
        if f.name in given:
            expr = f"(({expr}) if {f.name} is None else {f.name})"
        parts.append(expr)
    parts += extra
    args = ", ".join(["x", *extra, *(f"{g}=None" for g in given)])
    source = f"def {name}({args}):\n    return ({', '.join(parts)},)"
    return _compile(source, name, {})


_STORED = re.compile(r"\bv\b")


def pack_functions(cls: type):
    """``(pack(x, faces), unpack(packed, d))``: a state as one flat tuple of the fields :data:`FIELDS`
    stores (``faces``: ``bytes(x.faces)``, passed in so a copy the caller holds is shared), and the
    state back (without a log) on the compiled dungeon ``d``. Written out as plain code, one
    expression per field: the search packs every state it queues and unpacks every state it pops."""
    stored = [f for f in FIELDS if f.pack is not None]
    pack_source = "def pack(x, faces):\n    return ({},)".format(
        ", ".join(f.pack or f"x.{f.name}" for f in stored))
    lines = ["def unpack(p, d):", "    s = new(cls)"]
    index = {f.name: i for i, f in enumerate(stored)}
    for f in FIELDS:
        if f.pack is None:
            lines.append(f"    s.{f.name} = {f.unpack}")
        elif f.unpack:
            expr = _STORED.sub(f"p[{index[f.name]}]", f.unpack)  # v: the stored value
            lines.append(f"    s.{f.name} = {expr}")
        else:
            lines.append(f"    s.{f.name} = p[{index[f.name]}]")
    lines.append("    return s")
    return (_compile(pack_source, "pack", {}),
            _compile("\n".join(lines), "unpack", {"new": object.__new__, "cls": cls}))


def _compile(source: str, name: str, namespace: dict):
    exec(compile(source, f"<GameState {name}>", "exec"), namespace)  # code built from FIELDS above, no outside text
    return namespace[name]
