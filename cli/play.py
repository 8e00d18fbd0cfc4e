"""`cardrogue edit`, `play` and `run`: the two apps, and scripted actions for authors and testers."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cardrogue.engine.words import counted, place_text

from .common import (
    lines_of,
    EXIT_OK,
    EXIT_PROBLEMS,
    UnusableInput,
    check_player,
    check_writable,
    complain,
    level_index,
    load_usable,
    make_replays_folder,
    open_scores,
    read_stdin_text,
    read_text,
    refused,
    say,
    seed,
)


def register(sub) -> None:
    edit = sub.add_parser("edit", help="open the editor (no argument: the bundled campaign, as a template)")
    edit.add_argument("campaign", nargs="?", type=Path, help="campaign file to edit (a new one starts from the blank template; none: the bundled campaign, as a template)")
    edit.set_defaults(func=cmd_edit)
    play = sub.add_parser("play", help="play a campaign (no argument: the bundled campaign)")
    play.add_argument("campaign", nargs="?", type=Path, help="campaign file (default: the bundled campaign)")
    play.add_argument("--level", type=int, default=None, metavar="N", help="practise level N (1-based); not scored")
    play.add_argument("--scores-db", type=Path, default=None, help="high-score database (default: user data dir, or $CARDROGUE_SCORES_DB)")
    play.add_argument("--replays", type=Path, default=None, help="folder for replay files (default: user data dir)")
    play.add_argument("--player", default=None,
                      help="the name on your scores (default: your hub account's name when registered, else your login name)")
    play.add_argument("--random-dice", action="store_true",
                      help="practise with random dice: a fresh seed, recorded in the replay; not scored")
    play.add_argument("--seed", type=seed, default=None,
                      help="random dice from this seed (to meet a practice run's dice again); implies --random-dice")
    play.set_defaults(func=cmd_play)
    run = sub.add_parser("run", help="play a scripted list of actions and print what the rules did")
    run.add_argument("campaign", type=Path, help="campaign file")
    run.add_argument("actions", nargs="*", metavar="ACTION", help='actions in their text form, e.g. "flip E" "move E"')
    run.add_argument("--actions-file", type=Path, default=None, metavar="FILE", help="more actions, one per line (- for stdin)")
    run.add_argument("--level", type=int, default=None, metavar="N", help="start on level N (1-based)")
    run.add_argument("--seed", type=seed, default=None, help="random dice: per-card streams from this seed instead of the fated ones")
    run.add_argument("-o", "--output", type=Path, default=None, metavar="REPLAY", help="save the run as a replay file")
    run.add_argument("--player", default=None,
                     help="the name in the replay (default: your hub account's name when registered, else your login name)")
    run.add_argument("--format", choices=("text", "json"), default="text",
                     help="text (default) or JSON: every step's log, the failure, the final state, the legal actions")
    run.set_defaults(func=cmd_run)


def cmd_edit(args: argparse.Namespace) -> int:
    from cardrogue.editor.app import run_editor

    return run_editor(args.campaign)


def cmd_play(args: argparse.Namespace) -> int:
    from cardrogue.editor.player.app import playable, require_player_terminal, run_player

    try:
        # In this order: what the user typed (the name, the campaign, --level) is said first; then a
        # missing terminal is refused before any file is made (the score database, the replays folder).
        check_player(args.player)
        path, campaign = playable(args.campaign, args.level)
        require_player_terminal()
        open_scores(args.scores_db).close()
        make_replays_folder(args.replays)
    except UnusableInput as exc:
        complain(*lines_of(exc))
        return exc.exit_code
    from cardrogue.editor.player.run import fresh_seed

    dice_seed = args.seed if args.seed is not None else (fresh_seed() if args.random_dice else None)
    return run_player(path, level=args.level, scores_db=args.scores_db, replays_dir=args.replays,
                      player=args.player, dice_seed=dice_seed, campaign=campaign)


_ECHOED = 60  # characters of a refused action repeated in the text report (JSON keeps it whole)


def _echoed(action: str) -> str:
    """A refused action as the text report repeats it: quoted, and cut after ``_ECHOED`` characters with its
    length said (an action typed or piped may be of any length; the rules refuse one over 160 characters)."""
    if len(action) <= _ECHOED:
        return repr(action)
    return f"{action[:_ECHOED]!r}... ({len(action):,} characters)"


def cmd_run(args: argparse.Namespace) -> int:
    from cardrogue.engine.records.replay import MAX_LIST_ITEMS, Recorder
    from cardrogue.engine.rules.actions import Action, ActionError

    try:
        check_player(args.player)
        campaign = load_usable(args.campaign)
        level = level_index(campaign, args.level, args.campaign)
        if args.output is not None:
            check_writable(args.output, campaign=args.campaign)
        texts = list(args.actions)
        if args.actions_file is not None:
            body = (read_stdin_text("the actions file") if str(args.actions_file) == "-"
                    else read_text(args.actions_file, "the actions file"))
            texts += [ln.strip() for ln in body.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
        if len(texts) > MAX_LIST_ITEMS:  # bounded time and memory: no more than a replay may hold
            where = args.actions_file if args.actions_file is not None else "ACTION"
            raise UnusableInput(f"{where}: {counted(len(texts), 'action')}; at most {MAX_LIST_ITEMS:,} (as many as a replay holds)")
    except UnusableInput as exc:
        return refused(exc, args.format == "json", campaign=str(args.campaign))
    from cardrogue.hub.config import player_name

    recorder = Recorder(campaign, level=level, mode="fated" if args.seed is None else "random", seed=args.seed,
                        player=player_name() if args.player is None else args.player)
    state = recorder.state
    steps: list[dict] = [{"action": None, "log": [str(e) for e in state.log]}]
    failure = None
    for i, text in enumerate(texts):
        seen = len(state.log)
        try:
            if state.is_terminal():
                raise ActionError("the run is over")
            recorder.play(Action.parse(text))
        except ActionError as exc:
            failure = {"index": i, "action": text, "reason": str(exc)}
            break
        steps.append({"action": text, "log": [str(e) for e in state.log[seen:]]})
    legal = [str(a) for a in state.legal_actions()]
    if args.output is not None:
        from cardrogue.engine.records.atomic import atomic_write

        try:
            atomic_write(args.output, recorder.text().encode("utf-8"))
        except OSError as exc:
            return refused(UnusableInput(f"cannot write {args.output}: {exc.strerror or exc}"), args.format == "json",
                           campaign=str(args.campaign))
    if args.format == "json":
        json.dump({"steps": steps, "failure": failure, "state": state.summary(), "legal": legal}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for step in steps:
            if step["action"] is not None:
                say(f"> {step['action']}")
            for line in step["log"]:
                say(f"  {line}")
        if failure:
            say(f"action {failure['index'] + 1} ({_echoed(failure['action'])}) is not legal: {failure['reason']}")
        summary = state.summary()
        say(f"turn {summary['turn']}, health {summary['health']}/{summary['max_health']}, gold {summary['gold']}, "
              f"{campaign.level_name(state.view().level_index)} at {place_text(*summary['at'])}, "
              f"outcome: {summary['outcome'] or 'unfinished'}")
        if legal:
            say("legal now: " + ", ".join(legal))
    return EXIT_PROBLEMS if failure else EXIT_OK
