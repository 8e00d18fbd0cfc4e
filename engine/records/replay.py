"""Replays: the proof of a run ("DESIGN: Replays are the proof").

A replay holds the format version, the rules version, the campaign id and the
SHA-256 of its canonical content, the dice mode and seed, the actions in their
text form, a state-hash checkpoint every ``every`` actions, the final state hash
and the claimed result. :func:`verify_replay` re-simulates it and accepts only an
exact match; it is the only maker of :class:`VerifiedRun`, the only thing the
high-score table takes.

State hashes are the first 16 hex digits of SHA-256 over a stable JSON rendering
of ``GameState.key()`` (bytes as hex, callables by qualified name), so they are
the same on every platform and Python version. Its last field, ``waiting`` (keyed
after replays were first recorded), is left out while empty, so older
checkpoints keep their hashes.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..chance.resolvers import FatedResolver
from ..format.schema import is_valid, reference_validator
from ..model.campaign import Campaign
from ..rules.actions import Action, ActionError
from ..rules.events import LevelRestarted
from ..rules.state import GameState
from ..words import counted

FORMAT = 1
CHECKPOINT_EVERY = 16
_SCHEMA_REF = "https://cardrogue-studio.dev/schema/replay.schema.json"
_AUTHENTIC = object()  # held only by VerifiedRun values that verify_replay made


def _leaf(value: Any) -> Any:
    """A value of a state's key that JSON has no form for, as the state hash writes it (``json.dumps``'s
    ``default``): bytes as hex, a callable by its qualified name, anything else by its repr."""
    if isinstance(value, (bytes, bytearray)):
        return value.hex()
    if callable(value):
        return getattr(value, "__qualname__", repr(value))
    return repr(value)


def _state_digest(state: GameState) -> str:
    """SHA-256 (hex) of the stable JSON rendering of the state's key: :func:`state_hash` is its first 16 digits.

    The key holds tuples, whole numbers, texts, booleans, None, bytes and callables (no dictionary, no fraction), so
    ``json.dumps`` with :func:`_leaf` writes the very text the hashes were first made of (a recursive rendering, four
    times slower; a run's id takes the state at the end of every turn): tests/test_replay.py holds the two equal."""
    key = state.key()
    if not key[-1]:
        key = key[:-1]  # ``waiting``, keyed last after replays were recorded: hashed only when an enemy waits
    blob = json.dumps(key, separators=(",", ":"), default=_leaf, check_circular=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def state_hash(state: GameState) -> str:
    return _state_digest(state)[:16]


def _turn_digest(state: GameState, memo: dict[int, tuple[bytes, str]]) -> str:
    """SHA-256 (hex) of the state's key as a run's id takes it at the end of a turn (:func:`_path_id`): the key's
    rendering of :func:`_state_digest` with each of its byte strings (a byte a cell: the faces, four the dice drawn)
    written as its own SHA-256, not as hex, and that one kept in ``memo`` (by the field's place in the key) while the
    bytes stay the same, as they mostly do from one turn to the next: a 200 by 200 map's state took 2.2 ms so, 0.1 ms
    now."""
    key = state.key()
    if not key[-1]:
        key = key[:-1]
    flat = list(key)
    for i, value in enumerate(flat):
        if isinstance(value, (bytes, bytearray)):
            held = memo.get(i)
            if held is None or held[0] != value:
                held = memo[i] = (value, hashlib.sha256(value).hexdigest())
            flat[i] = held[1]
    blob = json.dumps(flat, separators=(",", ":"), default=_leaf, check_circular=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def outcome_name(state: GameState) -> str:
    return state.outcome or "unfinished"


class Recorder:
    """Plays a run through the engine and records it as a replay."""

    def __init__(self, campaign: Campaign, *, level: int = 0, mode: str = "fated", seed: int | None = None,
                 player: str = "", every: int = CHECKPOINT_EVERY, file: str | None = None) -> None:
        if mode not in ("fated", "random"):
            raise ValueError("dice mode is fated or random")
        if mode == "fated" and seed not in (None, campaign.seed):
            raise ValueError("fated dice use the campaign's seed")
        self.campaign, self.level, self.mode, self.player, self.every = campaign, level, mode, player, every
        self.file = file  # the campaign file played from, recorded so `cardrogue verify` finds it
        self.resolver = FatedResolver(campaign, seed)
        self.state = GameState.new(campaign, level)
        self.state.resolve(self.resolver)
        self.actions: list[str] = []
        self.checkpoints: list[str] = []

    def play(self, action: Action | str) -> None:
        self.state.step(action, self.resolver)
        self.actions.append(str(action if isinstance(action, Action) else Action.parse(action)))
        if len(self.actions) % self.every == 0:
            self.checkpoints.append(state_hash(self.state))

    def rewound(self, kept: int) -> Recorder:
        """The run back to its first ``kept`` actions under the same dice, re-simulated (a level replayed,
        not re-rolled), its log saying the level was restarted. The replay records only the actions kept."""
        seed = None if self.mode == "fated" else self.resolver.seed
        again = Recorder(self.campaign, level=self.level, mode=self.mode, seed=seed, player=self.player,
                         every=self.every, file=self.file)
        for action in self.actions[:kept]:
            again.play(action)
        if again.state.log is not None:
            again.state.log.append(LevelRestarted(again.state.turn))
        return again

    def document(self) -> dict:
        turns, health = self.state.score
        doc: dict[str, Any] = {
            "$schema": _SCHEMA_REF, "format": FORMAT, "rules": self.campaign.rules,
            "campaign": {"id": self.campaign.id, "hash": self.campaign.content_hash, "level": self.level},
            "dice": {"mode": self.mode, "seed": self.resolver.seed},
        }
        if self.file is not None:
            doc["campaign"]["file"] = self.file
        if self.player:
            doc["player"] = self.player
        doc.update(every=self.every, actions=list(self.actions), checkpoints=list(self.checkpoints),
                   final=state_hash(self.state),
                   result={"outcome": outcome_name(self.state), "turns": turns, "health": health})
        return doc

    def text(self) -> str:
        return dumps_replay(self.document())


def dumps_replay(doc: dict) -> str:
    """A replay a person can read: one action per line."""
    lines = ["{"]
    items = list(doc.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if key in ("actions", "checkpoints") and value:
            inner = ",\n".join(f"    {json.dumps(v)}" for v in value)
            lines.append(f'  "{key}": [\n{inner}\n  ]{comma}')
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def recorded_file(path: Path) -> str:
    """How a replay records the campaign file it was played from (``campaign.file``): absolute, and
    as ``~/...`` when under the home folder, so a replay shared by other ways than a hub does not name
    the player's login (:func:`played_from` reads it back)."""
    full = path.expanduser().absolute()
    try:
        inside = full.relative_to(Path.home())
    except (ValueError, RuntimeError, KeyError):  # elsewhere, or no home folder known
        return str(full)
    return str(Path("~") / inside) if inside.parts else str(full)


def played_from(text: str) -> Path:
    """The path a replay's ``campaign.file`` names, a ``~/...`` one under this machine's home folder
    (:func:`recorded_file`); any other ``~`` is taken as written."""
    if text.startswith(("~/", "~\\")):
        try:
            return Path.home() / text[2:]
        except (RuntimeError, KeyError):
            return Path(text)
    return Path(text)


def shared_text(text: str, player: str | None = None, unnamed: bool = False) -> str:
    """The replay as it is sent to others (a hub): without the campaign file it was played from, a
    path on the player's machine that names their folders, and naming ``player`` when given (the account
    a hub credits the run to); ``unnamed``: naming no player (a replay a browser player downloads from `cardrogue web`,
    whose recorded name is the server's user's, not theirs). The rest is kept as it is; a replay with nothing to
    change, or one that is not a replay, is returned unchanged."""
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        return text
    campaign = doc.get("campaign") if isinstance(doc, dict) else None
    if not isinstance(campaign, dict) or ("file" not in campaign and (player is None or doc.get("player") == player)
                                          and not (unnamed and "player" in doc)):
        return text
    doc["campaign"] = {k: v for k, v in campaign.items() if k != "file"}
    if unnamed:
        doc.pop("player", None)
    elif player is not None:
        # (the player's place in a recorded replay: after the dice)
        doc = {k: v for k, v in doc.items() if k != "player"}
        at = list(doc).index("dice") + 1 if "dice" in doc else len(doc)
        doc = dict([*list(doc.items())[:at], ("player", player), *list(doc.items())[at:]])
    return dumps_replay(doc)


def _run_id(doc: dict) -> str:
    """The id the actions of a replay document give (the schema's shape, every action legal text): a run's id before
    a run was the states it passes through (:attr:`VerifiedRun.earlier_ids`)."""
    dice = {"mode": doc["dice"]["mode"], "seed": doc["dice"]["seed"]}
    actions = [str(Action.parse(text)) for text in doc["actions"]]
    same = [doc["campaign"]["hash"], doc["campaign"].get("level", 0), dice, actions]
    return hashlib.sha256(json.dumps(same, separators=(",", ":"), sort_keys=True).encode("utf-8")).hexdigest()


def _path_id(doc: dict, turn_ends: list[str]) -> str:
    """:attr:`VerifiedRun.run_id`: the campaign version, the start, the dice, and the digest of the state at the end
    of each turn and at the end of the run (``turn_ends``, :func:`_turn_digest`), in order."""
    dice = {"mode": doc["dice"]["mode"], "seed": doc["dice"]["seed"]}
    same = ["states", doc["campaign"]["hash"], doc["campaign"].get("level", 0), dice, turn_ends]
    return hashlib.sha256(json.dumps(same, separators=(",", ":"), sort_keys=True).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class VerifiedRun:
    """A run whose replay re-simulated to exactly its claimed result."""

    campaign_id: str
    campaign_title: str
    content_hash: str
    level: int
    dice_mode: str
    player: str
    outcome: str
    turns: int
    health: int
    replay_text: str
    # Not __init__ fields, so dataclasses.replace() (a copy with an edited score) drops them.
    _token: object = field(default=None, init=False, repr=False, compare=False)
    _twins: tuple[tuple[int, str], ...] = field(default=(), init=False, repr=False, compare=False)
    _path: str = field(default="", init=False, repr=False, compare=False)

    @property
    def run_id(self) -> str:
        """What makes two replays the same run: the campaign version, the start, the dice and the state the game is
        in at the end of each turn and at the end of the run (``verify_replay`` takes them) -- not the player's name,
        the formatting or the checkpoint spacing, nor how the player got from one turn's end to the next.

        A copy of a run with an action swapped for another that leads to the very same state (under fated dice a
        failed flee can end as a missed attack does), with actions inserted that lead back to the state they left
        (``unequip maul``, ``equip maul``), or with two actions of a turn played the other way round is the same
        run: each was a run of its own when the id was the actions (:attr:`earlier_ids`)."""
        return self._path or self.twin_id

    @property
    def twin_id(self) -> str:
        """The run id of the actions as parsed, each action that has a twin (another legal action leading to the very
        same state) written as the twin whose text sorts first: :attr:`run_id` before a run was its states."""
        doc = json.loads(self.replay_text)
        for index, text in self._twins:
            doc["actions"][index] = text
        return _run_id(doc)

    @property
    def recorded_id(self) -> str:
        """The run id its actions as written give (:attr:`run_id` before twins were one run)."""
        return _run_id(json.loads(self.replay_text))

    @property
    def earlier_ids(self) -> tuple[str, ...]:
        """The ids a row stored before may hold for this run, other than :attr:`run_id`: :attr:`twin_id` (before a
        run was its states), :attr:`recorded_id` (before twins were one run). Such a row is this run."""
        return tuple(i for i in dict.fromkeys((self.twin_id, self.recorded_id)) if i != self.run_id)

    def is_authentic(self) -> bool:
        return self._token is _AUTHENTIC

    @property
    def ranked(self) -> bool:
        """Only a won whole-campaign run under the map's fated dice competes for the high score."""
        return self.outcome == "won" and self.dice_mode == "fated" and self.level == 0


@dataclass(frozen=True)
class Verdict:
    ok: bool
    message: str
    run: VerifiedRun | None = None
    action_index: int | None = None  # 0-based index of the action the verdict is about
    out_of_time: bool = False  # rejected only because the re-simulation passed ``max_seconds``: not disproved


class ReplayError(ValueError):
    pass


class ReplayNotJson(ReplayError):
    """A replay file that is not JSON at all: where it stops being JSON (``line`` and ``column``,
    from 1) and what is there (``detail``), in the words ``cardrogue check`` uses for a campaign."""

    def __init__(self, line: int, column: int, detail: str) -> None:
        self.line, self.column, self.detail = line, column, detail
        super().__init__(f"not JSON: line {line}, column {column}: {detail}")


class _Fraction:
    """A number written with a decimal point or an exponent, as parsed: every number in a replay is
    whole (``16.0`` would pass the schema's "integer" but is no index), so it is refused, with its path,
    once the parse is done (:func:`_fraction_path`)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _fraction_path(doc: Any) -> tuple[tuple, _Fraction] | None:
    """The path and value of the first fraction in ``doc`` (document order), if any."""
    stack: list[tuple[tuple, Any]] = [((), doc)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, _Fraction):
            return path, value
        if isinstance(value, dict):
            stack.extend((path + (k,), v) for k, v in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend((path + (i,), v) for i, v in reversed(list(enumerate(value))))
    return None


def _not_json(text: str, exc: Exception) -> ReplayNotJson:
    from ..format.loader import CONSTANT_OR_NUMBER, LONG_NUMBER, json_syntax_error
    from ..format.positions import LineIndex

    if isinstance(exc, json.JSONDecodeError):
        return ReplayNotJson(*json_syntax_error(exc, text, "a replay", "actions"))
    if isinstance(exc, RecursionError) and (too_deep := _too_deep(text)) is not None:
        return too_deep
    # Python refuses an integer of more than 4,300 digits
    found = next((m for m in CONSTANT_OR_NUMBER.finditer(text) if m.group(1) and m.group(1)[-1].isdigit()), None)
    offset = found.start(1) if found else 0
    return ReplayNotJson(*LineIndex(text).position(offset), LONG_NUMBER)


def _too_deep(text: str) -> ReplayNotJson | None:
    """A replay nested deeper than a campaign may be (``MAX_DEPTH``): refused as such, as ``check`` refuses a
    campaign, whether Python's parser gave up on it or not (a replay needs 2 levels); None when it is not."""
    from ..format.loader import MAX_DEPTH
    from ..format.positions import LineIndex, max_depth

    depth, offset = max_depth(text, MAX_DEPTH)
    if depth <= MAX_DEPTH:
        return None
    detail = f"brackets are nested {counted(depth, 'level')} deep; the limit is {MAX_DEPTH}: a replay needs 2"
    return ReplayNotJson(*LineIndex(text).position(offset), detail)


def _duplicate_key(text: str, key: str) -> ReplayError:
    from ..format.diagnostics import format_json_path
    from ..format.positions import PositionIndex

    index = PositionIndex(text)
    path, offset = index.duplicates[0] if index.duplicates else ((key,), 0)
    line, column = index.lines.position(offset)
    return ReplayError(f"not a valid replay: {format_json_path(path)}: duplicate key {path[-1]!r} at line {line}, "
                       f"column {column}: an object names each property once; remove one")


def parse_replay(text: str) -> dict:
    """The replay document, or :class:`ReplayError` naming what is wrong and where
    (:class:`ReplayNotJson` for text that is not JSON at all)."""
    from ..format.diagnostics import format_json_path
    from ..format.loader import SURROGATE, SURROGATE_ESCAPE, DuplicateKey, lone_surrogate, pairs_no_duplicates

    if len(text) > MAX_REPLAY_CHARS:
        # (before the parse: 200 MiB of actions took 27 s and 3.4 GB to read before the list's limit was met)
        raise ReplayError(f"not a valid replay: it is longer than {MAX_REPLAY_CHARS:,} characters (a replay of "
                          f"{counted(MAX_LIST_ITEMS, 'action')} with a checkpoint after each is some 22 million)")
    fractions: list[_Fraction] = []

    def fraction(text: str) -> _Fraction:
        fractions.append(_Fraction(text))
        return fractions[-1]

    try:
        # Duplicate keys are refused, as in a campaign (CR002): a replay is served to others (a hub's, after its
        # window), and a reader keeping the first of two keys would read another run, score or player than this
        # one, which keeps the last. The replay's few objects make the hook cheap.
        doc = json.loads(text, parse_float=fraction, object_pairs_hook=pairs_no_duplicates)
    except DuplicateKey as exc:
        raise _duplicate_key(text, exc.key) from None
    except (json.JSONDecodeError, RecursionError, ValueError) as exc:  # ValueError: an integer too long to read
        raise _not_json(text, exc) from None
    if fractions:
        path, found = _fraction_path(doc) or ((), fractions[0])  # (a fraction is always in the document)
        raise ReplayError(f"not a valid replay: {format_json_path(path)}: {found.text} is not a whole number "
                          "(write numbers without a decimal point or exponent)")
    # A lone surrogate (only a \u escape writes one) is no character: no file or database can hold it.
    if SURROGATE_ESCAPE.search(text) and (bad := lone_surrogate(doc)) is not None:
        raise ReplayError(f"not a valid replay: {format_json_path(bad)}: {SURROGATE}")
    # The two long lists are checked here, lengths first: the schema would visit every item of a
    # million-action file before its length limit, and quote the whole list in its message.
    shallow = doc
    if isinstance(doc, dict):
        # Lists already checked stand empty for the schema; anything else is the schema's to refuse.
        shallow = dict(doc, **{name: [] for name in ("actions", "checkpoints") if isinstance(doc.get(name), list)})
        _check_list(doc.get("actions", []), "actions", lambda a: isinstance(a, str) and len(a) <= MAX_ACTION_CHARS,
                    f"a text of at most {MAX_ACTION_CHARS} characters")
        _check_list(doc.get("checkpoints", []), "checkpoints", lambda c: isinstance(c, str) and _HASH.fullmatch(c) is not None,
                    "16 hexadecimal digits")
    if is_valid(shallow, "replay.schema.json"):  # the compiled fast path; jsonschema only for the message
        return doc
    if (too_deep := _too_deep(text)) is not None:  # (a valid replay is 2 deep: counted only for an invalid one)
        raise too_deep
    if isinstance(doc, dict) and "levels" in doc and "actions" not in doc:
        # the campaign given where its replay belongs: say so, not which of its keys a replay lacks
        raise ReplayError("not a replay: this looks like a campaign file (it has \"levels\" and no \"actions\"); "
                          "give the replay of a run, a .replay.json file")
    errors = sorted(reference_validator("replay.schema.json").iter_errors(shallow), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        from jsonschema.exceptions import best_match

        err = best_match(errors)
        message = err.message if len(err.message) <= 200 else err.message[:200] + "..."
        raise ReplayError(f"not a valid replay: {format_json_path(err.absolute_path)}: {message}")
    return doc


MAX_LIST_ITEMS = 200_000  # the replay schema's maxItems for actions and checkpoints
MAX_ACTION_CHARS = 80  # and its maxLength for one action
# The longest replay text read: the longest the recorder writes (MAX_LIST_ITEMS actions of MAX_ACTION_CHARS, a
# checkpoint after each: 22 MB), with room to spare.
MAX_REPLAY_CHARS = 32 * 2**20
_HASH = re.compile(r"[0-9a-f]{16}")


def _check_list(items, name: str, good, what: str) -> None:
    """A list of the replay (the schema checks every other field): its length, then each item."""
    if not isinstance(items, list):
        return  # the schema says it is not an array
    if len(items) > MAX_LIST_ITEMS:
        raise ReplayError(f"not a valid replay: $.{name}: {counted(len(items), 'item')}; the limit is {MAX_LIST_ITEMS:,}")
    for i, item in enumerate(items):
        if not good(item):
            raise ReplayError(f"not a valid replay: $.{name}[{i}]: not {what}")


PROGRESS_EVERY = 1000
"""Actions re-simulated between two calls of :func:`verify_replay`'s ``progress``."""


def verify_replay(text: str, campaign: Campaign, *, max_seconds: float | None = None,
                  progress: Callable[[int, int], None] | None = None) -> Verdict:
    """Re-simulate a replay against ``campaign``; accept only an exact match.

    ``max_seconds`` bounds the re-simulation (the hub's server, `cardrogue verify` and `scores --import`); past it
    the replay is rejected as :attr:`Verdict.out_of_time`, naming the action reached. ``progress`` is called with
    (actions done, actions in all) every :data:`PROGRESS_EVERY` actions (a command's progress bar).
    """
    try:
        doc = parse_replay(text)
    except ReplayError as exc:
        return Verdict(False, str(exc))
    claimed = doc["campaign"]
    if claimed["id"] != campaign.id:
        return Verdict(False, f"the replay is for campaign {claimed['id']!r}, not {campaign.id!r}")
    if claimed["hash"] != campaign.content_hash:
        return Verdict(False, f"the replay was recorded on another version of {campaign.id!r} "
                              f"(content hash {claimed['hash'][:12]}…, this file is {campaign.content_hash[:12]}…)")
    if doc["rules"] != campaign.rules:
        return Verdict(False, f"the replay uses rules {doc['rules']}, the campaign rules {campaign.rules}")
    dice = doc["dice"]
    if dice["mode"] == "fated" and dice["seed"] != campaign.seed:
        return Verdict(False, f"fated dice must use the campaign's seed {campaign.seed}, not {dice['seed']}")
    level = claimed.get("level", 0)
    if level >= len(campaign.levels):
        return Verdict(False, f"the replay starts on level {level}, but the campaign has {counted(len(campaign.levels), 'level')}")
    every = doc.get("every", CHECKPOINT_EVERY)
    actions, checkpoints = doc["actions"], doc["checkpoints"]
    if len(checkpoints) != len(actions) // every:
        return Verdict(False, f"{counted(len(actions), 'action')} {'needs' if len(actions) == 1 else 'need'} {counted(len(actions) // every, 'checkpoint')}, "
                              f"the replay has {len(checkpoints)} (truncated or edited)")

    resolver = FatedResolver(campaign, dice["seed"])
    state = GameState.new(campaign, level, log=False)
    state.resolve(resolver)
    deadline = None if max_seconds is None else time.monotonic() + max_seconds

    def stopped(i: int) -> Verdict:
        return Verdict(False, f"re-simulation stopped after {max_seconds:g} s at action {i + 1} of {len(actions)}",
                       action_index=i, out_of_time=True)

    twins: list[tuple[int, str]] = []
    turn_ends: list[str] = []  # the state at the end of each turn (the run's id, VerifiedRun.run_id)
    memo: dict[int, tuple[bytes, str]] = {}  # (_turn_digest's)
    for i, text_action in enumerate(actions):
        if deadline is not None and time.monotonic() > deadline:
            return stopped(i)
        if progress is not None and i % PROGRESS_EVERY == 0 and i:
            progress(i, len(actions))
        try:
            action = Action.parse(text_action)
            if state.is_terminal():
                return Verdict(False, f"action {i + 1} ({text_action!r}) comes after the run ended", action_index=i)
            before = state.clone()
            state.step(action, resolver)
        except ActionError as exc:
            return Verdict(False, f"action {i + 1} ({text_action!r}) is not legal: {exc}", action_index=i)
        try:
            twin = _first_twin(before, text_action, state, resolver, deadline)
        except _CutShort:  # (the run's id is unsure without it)
            return stopped(i)
        if twin is not None:
            twins.append((i, twin))
        if state.turn != before.turn:
            turn_ends.append(_turn_digest(state, memo))
        if (i + 1) % every == 0 and state_hash(state) != checkpoints[(i + 1) // every - 1]:
            return Verdict(False, f"desync at action {i + 1} ({text_action!r}): the checkpoint after it differs "
                                  f"(the run diverged within actions {i + 2 - every}..{i + 1})", action_index=i)
    turns, health = state.score
    result = doc["result"]
    actual = {"outcome": outcome_name(state), "turns": turns, "health": health}
    if state_hash(state) != doc["final"]:
        why = "the final state differs from the replay's final state hash"
        if result != actual:  # say what the run was claimed to be and what it is
            why += (f": it claims {_run_text(result)}, the re-simulation ends {_run_text(actual)}")
        return Verdict(False, why, action_index=len(actions) - 1)
    if result != actual:
        return Verdict(False, f"the replay claims {_run_text(result)}, but re-simulates to {_run_text(actual)}")
    run = VerifiedRun(campaign.id, campaign.title, campaign.content_hash, level, dice["mode"], doc.get("player", ""),
                      actual["outcome"], turns, health, text)
    object.__setattr__(run, "_token", _AUTHENTIC)
    object.__setattr__(run, "_twins", tuple(twins))
    object.__setattr__(run, "_path", _path_id(doc, [*turn_ends, _turn_digest(state, memo)]))
    return Verdict(True, f"verified: {_run_text(actual)}", run)


class _CutShort(Exception):
    """The search for a twin action passed the re-simulation's deadline."""


def _first_twin(before: GameState, taken: str, after: GameState, resolver: FatedResolver,
                deadline: float | None = None) -> str | None:
    """The legal action whose text sorts before ``taken`` and first that leads from ``before`` to the very state
    ``taken`` led to (``after``), if any: the one that stands for both in a run's id (:attr:`VerifiedRun.run_id`).

    Two teleports are never twins (what they move lands on other tiles), and a choice of where to teleport offers
    every tile revealed: they are not tried, or one action of a big map would cost as many steps as its tiles.
    Raises :class:`_CutShort` past ``deadline``."""
    teleport = taken.startswith("teleport ")
    earlier = sorted(text for a in before.legal_actions()
                     if (text := str(a)) < taken and not (teleport and text.startswith("teleport ")))
    if not earlier:
        return None
    reached = after.key()
    for text in earlier:
        if deadline is not None and time.monotonic() > deadline:
            raise _CutShort
        other = before.clone()
        try:
            other.step(text, resolver)
        except ActionError:
            continue
        if other.key() == reached:
            return text
    return None


def _run_text(result: dict) -> str:
    """``won in 1 turn with 5 health``: a run's result in words."""
    return f"{result['outcome']} in {counted(result['turns'], 'turn')} with {result['health']} health"
