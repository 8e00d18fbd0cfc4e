"""The fields of a :class:`~.state.GameState`, written once.

Each field says how a clone gets it, how ``key()`` sees it and how the solver
stores it while it waits in the search's queue. This one list drives the
state's ``__slots__``, ``clone()``, ``key()``, the solver's signature
and its packed states (:func:`signature_functions`), so a
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
    _keyed("subject"),  # in CHOOSE_TELEPORT, who a potion of teleportation moves (-1: the hero); else -1
    _keyed("todo"),  # pending rule steps (a stack of (function, *args))
    _keyed("awaiting"),  # the step a due die continues
    Field("chance", key=None),  # actions.Chance due now, or None (derived from awaiting)
    _keyed("fight"),  # the combat turn under way
    _keyed("outcome"),  # None, phases.WON or phases.DEAD
    # Keyed last, after replays were first recorded: a replay's hash leaves it out while empty (records/replay.py).
    _keyed("waiting"),  # sorted enemy cells a thrown potion of teleportation set beside the hero this combat turn
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


def signature_functions(cls: type, omit: tuple[str, ...] = (), plain: tuple[str, ...] = (),
                        given: tuple[str, ...] = (), extra: tuple[str, ...] = ()):
    """``(signature, pack, unpack)``: how a search files a state and how it queues it.

    ``signature(x, *extra, **given)`` is :func:`key_function` with these arguments (``given``
    fields are passed in their stored form, e.g. ``faces`` as ``bytes``). ``pack(x, sig)`` is the
    state as a short flat tuple: ``sig`` (the signature the caller already holds, shared, not a
    second copy) and the fields the signature does not hold as they are (those it omits, those it
    keeps only encoded, like ``foes`` as sorted items, and those ``key()`` ignores, like ``stats``).
    ``unpack(packed, d)`` rebuilds the state (without a log) on the compiled dungeon ``d``. All three
    are written out as plain code from :data:`FIELDS`, one expression per field: the search signs
    every state it generates, packs every state it queues and unpacks every state it pops.
    """
    signature = key_function("signature", omit, plain, given, extra)
    in_sig = []  # per signature position: the field it holds as it is, or None
    for f in FIELDS:
        if f.key is None or f.name in omit:
            continue
        if f.name in given:
            if f.pack != f.name:
                raise ValueError(f"given field {f.name} must be stored as the caller gives it")
            in_sig.append(f)
        else:
            in_sig.append(f if f.name in plain or not f.key else None)
    in_sig += [None] * len(extra)
    kept = {f.name for f in in_sig if f is not None}
    rest = [f for f in FIELDS if f.pack is not None and f.name not in kept]
    pack_source = "def pack(x, sig):\n    return (sig, {},)".format(", ".join(f.pack or f"x.{f.name}" for f in rest))

    def target(f: Field | None, k: int) -> str:
        if f is None:
            return "_"
        return f"v{k}" if f.unpack else f"s.{f.name}"

    names = [f"v{k}" if f.unpack else f"s.{f.name}" for k, f in enumerate(rest)]
    lines = ["def unpack(p, d):", "    s = new(cls)",
             f"    (sig, {', '.join(names)},) = p",
             f"    ({', '.join(target(f, len(rest) + k) for k, f in enumerate(in_sig))},) = sig"]
    stored = {f.name: (f"v{k}" if f.unpack else None) for k, f in enumerate(rest)}
    stored.update({f.name: f"v{len(rest) + k}" if f.unpack else None for k, f in enumerate(in_sig) if f is not None})
    for f in FIELDS:
        if f.pack is None:
            lines.append(f"    s.{f.name} = {f.unpack}")
        elif f.unpack:
            lines.append(f"    s.{f.name} = {_STORED.sub(stored[f.name], f.unpack)}")
    lines.append("    return s")
    return (signature, _compile(pack_source, "pack", {}),
            _compile("\n".join(lines), "unpack", {"new": object.__new__, "cls": cls}))


def _compile(source: str, name: str, namespace: dict):
    exec(compile(source, f"<GameState {name}>", "exec"), namespace)  # code built from FIELDS above, no outside text
    return namespace[name]
