"""One run in the player: the recorded game, restarts, and what happens when it ends.

No Textual here: the screens drive a :class:`PlayRun` and show its state.
Scored play has no undo ("DESIGN: Replays are the proof"); a player restarts
the level (the run is re-simulated up to the action that entered it) or the
whole campaign. A finished run is saved as a replay file (atomically, with the
editor's ``atomic_write``), verified by re-simulation, and only then offered to
the high-score table.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, replace
from pathlib import Path

from cardrogue.engine.records.atomic import atomic_write
from cardrogue.engine.rules.actions import Action
from cardrogue.engine.model.campaign import Campaign
from cardrogue.engine.records.replay import Recorder, recorded_file, verify_replay
from cardrogue.engine.records.scores import Score, ScoreStore
from cardrogue.engine.words import counted


def default_replays_dir() -> Path:
    """``replays`` in the user's data directory (next to the score database)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("cardrogue-studio", appauthor=False)) / "replays"


def default_player() -> str:
    """The name on a run played without ``--player``: the hub account registered here, else the login name
    (:func:`cardrogue.hub.config.player_name`, as `cardrogue run -o` records it)."""
    from cardrogue.hub.config import player_name

    return player_name()


@dataclass(frozen=True)
class RunResult:
    """What the end screen shows and :class:`PlayerScreen` returns."""

    outcome: str  # "won" or "dead"
    turns: int
    health: int
    par: int | None
    practice: bool  # started on a chosen level or with random dice: saved, never scored
    replay_path: Path | None = None
    verified: bool = False
    message: str = ""  # what happened to the replay and the score, in one sentence
    added: bool = False
    table: tuple[Score, ...] = ()
    rank: int | None = None  # this run's place in ``table`` (equal scores share a place)
    run_id: str = ""  # this run's row in ``table``


def fresh_seed() -> int:
    """A seed for a practice run with random dice (recorded in its replay, so it re-simulates)."""
    return secrets.randbelow(2**32)


class PlayRun:
    """A recorded run of a campaign (from level ``start``) with level restarts.

    ``dice_seed`` set: practice with random dice (DESIGN: Fated dice), every card's stream drawn
    from that seed instead of the map's; scripted rolls stay, they are part of the map.
    ``campaign_file``: the file the campaign was read from, recorded in the replay (``cardrogue
    verify`` then needs only the replay).
    """

    def __init__(self, campaign: Campaign, start: int = 0, player: str = "", dice_seed: int | None = None,
                 campaign_file: Path | None = None) -> None:
        self.campaign, self.start, self.player, self.dice_seed = campaign, start, player, dice_seed
        self.campaign_file = campaign_file
        self.recorder = self._recorder()
        self.level_marks = {start: 0}  # level -> number of actions played before it began

    def _recorder(self) -> Recorder:
        file = None if self.campaign_file is None else recorded_file(self.campaign_file)
        if self.dice_seed is None:
            return Recorder(self.campaign, level=self.start, player=self.player, file=file)
        return Recorder(self.campaign, level=self.start, player=self.player, mode="random", seed=self.dice_seed,
                        file=file)

    @property
    def state(self):
        return self.recorder.state

    @property
    def actions(self) -> list[str]:
        return self.recorder.actions

    def play(self, action: Action | str) -> None:
        """Apply one legal action, rolling every die it needs from the fated streams."""
        level = self.state.level
        self.recorder.play(action)
        if self.state.level != level:
            self.level_marks[self.state.level] = len(self.actions)

    def restart_level(self) -> None:
        """Back to the turn the current level began: the run so far is re-simulated to that point."""
        mark = self.level_marks.get(self.state.level, 0)
        self.recorder = self.recorder.rewound(mark)
        self.level_marks = {lv: m for lv, m in self.level_marks.items() if m <= mark}

    def restart_campaign(self) -> None:
        """A new run from the start; with random dice, new dice too."""
        self.__init__(self.campaign, self.start, self.player, None if self.dice_seed is None else fresh_seed(),
                      self.campaign_file)


def replay_name(campaign: Campaign, outcome: str, when: float | None = None) -> str:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(when if when is not None else time.time()))
    return f"{campaign.id}-{stamp}-{outcome}.replay.json"


def _unique(folder: Path, name: str) -> Path:
    path = folder / name
    stem = name.removesuffix(".replay.json")
    n = 2
    while path.exists():
        path = folder / f"{stem}-{n}.replay.json"
        n += 1
    return path


def campaign_par(campaign: Campaign, level: int | None, dice_seed: int | None = None) -> int | None:
    """The campaign's par when it measures this run: a run from the first level (the whole campaign, or
    ``level`` 0 practised: the same run down every ladder to the exit) under the map's own dice. A run from a
    later level has none: the file records no par of a level (a level's own par, as the editor's F6 finds it,
    ends at its ladder); nor has a run with random dice (``dice_seed``): par is the fewest turns under the
    map's fated dice, and other dice make another game, which a lucky run could finish in fewer."""
    if campaign.par is None or (level is not None and level != 0) or dice_seed is not None:
        return None
    return campaign.par.turns


def no_par(campaign: Campaign, level: int | None, dice_seed: int | None = None) -> str:
    """Why a run has no par, after the word "Par" on the end screen (``campaign_par`` gave None): the campaign
    file records one par, the whole campaign's from its first level under its own dice, and none from a later
    level or for other dice."""
    if campaign.par is None:
        return "none recorded in the campaign"
    if dice_seed is not None:
        return f"none for random dice (the campaign's par, {counted(campaign.par.turns, 'turn')}, holds for its own dice)"
    return (f"none for a run from level {(level or 0) + 1} (the campaign's par, {counted(campaign.par.turns, 'turn')}, "
            "counts from level 1)")


RECORDING = "Verifying the run by re-simulation and recording it…"


def ended(run: PlayRun, *, practice: bool, par: int | None = None) -> RunResult:
    """What the end screen shows at once, while :func:`finish` saves, verifies and scores the run: the score, the
    par, and that it is being recorded."""
    turns, health = run.state.score
    # (below zero is dead all the same: the hero panel shows 0 too)
    return RunResult(outcome=run.state.outcome or "unfinished", turns=turns, health=max(health, 0), par=par,
                     practice=practice, message=RECORDING)


def finish(run: PlayRun, *, practice: bool, replays_dir: Path | None, scores_db: Path | None,
           par: int | None = None) -> RunResult:
    """Save the replay, verify it by re-simulation, and enter a ranked run in the high-score table.

    ``par``: the par shown beside the result (None: unknown for this run). It takes a while (the re-simulation, and
    the table's tied rows re-verified once each): the player calls it in a worker thread."""
    state, campaign = run.state, run.campaign
    text = run.recorder.text()
    notes: list[str] = []
    path = None
    if replays_dir is not None:
        try:
            replays_dir.mkdir(parents=True, exist_ok=True)
            path = _unique(replays_dir, replay_name(campaign, state.outcome or "unfinished"))
            atomic_write(path, text.encode("utf-8"))
            notes.append(f"Replay saved to {path}.")
        except OSError as exc:
            path = None
            notes.append(f"The replay could not be saved ({exc.strerror or exc}).")
    verdict = verify_replay(text, campaign)
    base = replace(ended(run, practice=practice, par=par), replay_path=path, verified=verdict.ok)
    if not verdict.ok:
        notes.append(f"The replay did not verify ({verdict.message}); no score is recorded.")
        return replace(base, message=" ".join(notes))
    kept = "saved" if path is not None else "not saved" if replays_dir is not None else "no replay kept"
    if run.dice_seed is not None:
        notes.append(f"A practice run with random dice (seed {run.dice_seed}): {kept}, not scored.")
        return replace(base, message=" ".join(notes))
    if practice:
        notes.append(f"A practice run: {kept}, not scored.")
        return replace(base, message=" ".join(notes))
    if not verdict.run.ranked:
        notes.append("Only a won run enters the high-score table.")
        return replace(base, message=" ".join(notes))
    if scores_db is None:
        notes.append("Verified; no high-score table in this session.")
        return replace(base, message=" ".join(notes))
    try:
        with ScoreStore(scores_db) as store:
            added = store.add(verdict.run, campaign)
            table = tuple(store.table(campaign, limit=10))
    except Exception as exc:  # sqlite3.Error, OSError: the run stays saved as a replay
        notes.append(f"Verified, but the high-score table could not be updated ({exc}).")
        return replace(base, message=" ".join(notes))
    # (a row stored before a run was its states holds an id its actions give: earlier_ids)
    entry = next((s for s in table if s.run_id in (verdict.run.run_id, *verdict.run.earlier_ids)), None)
    notes.append("Verified and entered in the high-score table." if added else "Verified; already in the table.")
    return replace(base, message=" ".join(notes), added=added, table=table, rank=entry and entry.rank,
                   run_id=entry.run_id if entry else verdict.run.run_id)
