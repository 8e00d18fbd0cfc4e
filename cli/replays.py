"""Which campaign a replay was played on: the file it names, the files beside it, the bundled campaigns.

``verify``, ``scores --import`` and ``hub submit`` read a replay that may come from anyone: the file it says it
was played from is where to look, never proof (the content hash decides), and the files beside it are read
within a budget.
"""

from __future__ import annotations

import json
from pathlib import Path

from cardrogue.engine.errors import RejectedReplay, UnusableInput
from cardrogue.engine.format.files import is_campaign_name
from cardrogue.engine.format.loader import MAX_FILE_BYTES, load_usable
from cardrogue.engine.printable import printable
from cardrogue.engine.reading import read_limited
from cardrogue.engine.words import counted


class NotJson(UnusableInput):
    """A replay file that is not JSON at all (exit 2): ``where`` is ``file:line:col``, ``detail``
    what is there, in the words ``cardrogue check`` uses for a campaign."""

    def __init__(self, path: Path | str, line: int, column: int, detail: str) -> None:
        self.where, self.detail = f"{path}:{line}:{column}", f"not JSON: {detail}"
        super().__init__(f"{self.where}: {self.detail}")


def replay_document(text: str, path: Path | str) -> dict:
    """The replay document of ``path``'s ``text``: :class:`NotJson` (unusable input, exit 2) when it
    is not JSON, :class:`RejectedReplay` (exit 1) when it is JSON but not a valid replay."""
    from cardrogue.engine.records.replay import ReplayError, ReplayNotJson, parse_replay

    try:
        return parse_replay(text)
    except ReplayNotJson as exc:
        raise NotJson(path, exc.line, exc.column, exc.detail) from None
    except ReplayError as exc:
        raise RejectedReplay(str(exc)) from None


BESIDE_LIMIT = 200  # campaign files looked at beside a replay, at most
# and the bytes read of them in all (the last file read may pass it): a folder of 200 campaigns of up to 16 MB
# with the replay's id, each loaded whole, took `verify` 53 s. A file at the size limit, or hundreds of ordinary ones.
BESIDE_BYTES = MAX_FILE_BYTES


def _beside(replay_path: Path, campaign_id: str) -> list[Path]:
    """Campaign files that may lie beside a replay, most likely first: ``X.json`` for
    ``X.replay.json``, ``ID.json``, then the folder's other ``.json`` files (not replays)."""
    folder = replay_path.expanduser().absolute().parent
    name = replay_path.name
    stem = name[: -len(".replay.json")] if name.endswith(".replay.json") else replay_path.stem
    first = [folder / f"{stem}.json", folder / f"{campaign_id}.json"]
    try:
        others = sorted(p for p in folder.iterdir() if is_campaign_name(p.name))
    except OSError:
        others = []
    found: list[Path] = []
    for path in first + others[:BESIDE_LIMIT]:
        if path not in found and path.is_file():
            found.append(path)
    return found


def _has_id(path: Path, campaign_id: str) -> tuple[bool, int]:
    """A quick look: is ``path`` a JSON object with this campaign id? (the full load comes after), and the
    bytes read. Only a regular file is read (opened without blocking, its kind taken from the open file, so a
    FIFO swapped in after a look is not waited on) and never more than the size limit of a campaign
    file plus one byte: the size a file claims is not trusted (``/proc/self/pagemap`` claims 0)."""
    try:
        raw = read_limited(path, MAX_FILE_BYTES)
    except OSError:
        return False, 0
    try:
        data = json.loads(raw.decode("utf-8")) if len(raw) <= MAX_FILE_BYTES else None
    except (UnicodeDecodeError, ValueError, RecursionError):
        return False, len(raw)
    return isinstance(data, dict) and data.get("id") == campaign_id, len(raw)


def _recorded_file(campaign: dict) -> Path | None:
    """The campaign file a replay says it was played from (``campaign.file``), when it may be looked
    at: an absolute path (``~/...`` is under the home folder) whose name is a campaign file's (:func:`is_campaign_name`: ``.json``, not a
    replay, not hidden), and not on a network share (a ``\\\\server\\share`` or ``//server/share``
    path). The replay may come from anyone; the path is where to look, never proof."""
    from pathlib import PureWindowsPath

    from cardrogue.engine.records.replay import played_from

    text = campaign.get("file")
    if not isinstance(text, str) or not text:
        return None
    if text.startswith(("//", "\\\\")) or PureWindowsPath(text).drive.startswith("\\\\"):
        return None
    path = played_from(text)
    if not path.is_absolute() or not is_campaign_name(path.name):
        return None
    return path


def campaign_for_replay(text: str, campaign_path: Path | None, replay_path: Path | None = None):
    """The campaign a replay is checked against: ``--campaign`` when given; else the first file with
    the replay's campaign id among the file the replay was played from (``campaign.file``, which the
    player records), the files beside the replay, then the bundled campaigns -- one of the replay's
    very version (content hash) when there is one, else the first with its id (so the verdict can say
    the versions differ). When only the recorded file has the id and it has changed since the run, the
    replay is :class:`RejectedReplay` saying so: the hash decides, never the path. A replay that is
    not JSON is :class:`NotJson` (exit 2), one that is not a valid replay :class:`RejectedReplay`
    (exit 1; with ``--campaign``, the verdict's).

    Returns the campaign and the file it was loaded from: a verdict names them, since the file found may be
    one shared with the replay -- a look-alike with the same id and title is another version, and a score
    on it is not a score on the map the reader knows."""
    from cardrogue.engine.format.resources import bundled_campaigns

    name = replay_path if replay_path is not None else "the replay"
    if campaign_path is not None:
        campaign = load_usable(campaign_path)
        try:
            replay_document(text, name)  # text that is not JSON is unusable input, the campaign named or not
        except RejectedReplay:
            pass  # rejected by verify_replay, against the campaign named
        return campaign, campaign_path
    doc = replay_document(text, name)
    campaign_id, content_hash = doc["campaign"]["id"], doc["campaign"]["hash"]
    recorded = _recorded_file(doc["campaign"])
    beside = _beside(replay_path, campaign_id) if replay_path is not None else []
    candidates = ([recorded] if recorded is not None else []) + beside + list(bundled_campaigns())
    same_id, same_id_path, trouble = None, None, None
    spent = 0  # bytes read of the files beside the replay (BESIDE_BYTES)
    unread = 0  # files beside it not looked at, the budget spent
    for path in candidates:
        near = path in beside and path != recorded
        if near and spent >= BESIDE_BYTES:
            unread += 1
            continue
        has_id, size = _has_id(path, campaign_id)
        spent += size if near else 0
        if not has_id:
            continue
        try:
            campaign = load_usable(path)
        except UnusableInput as exc:  # a draft with this id: reported if nothing better is found
            trouble = trouble or exc
            continue
        if campaign.content_hash == content_hash:
            return campaign, path
        if same_id is None:
            same_id, same_id_path = campaign, path
    if same_id is not None and same_id_path == recorded:
        raise RejectedReplay(f"the campaign file it was played from, {printable(str(recorded))}, has changed since "
                             f"(the run was played on version {content_hash[:12]}…, the file is now version "
                             f"{same_id.content_hash[:12]}…); a replay verifies only on the version it was played "
                             "on: name that version's file with --campaign FILE")
    if same_id is not None:
        return same_id, same_id_path
    if trouble is not None:
        raise trouble
    where = f"beside the replay (in {replay_path.expanduser().absolute().parent}) or " if replay_path is not None else ""
    gone = (f"the file it was played from, {printable(str(recorded))}, is not there or is not that campaign; "
            if recorded is not None else "")
    if unread:
        gone += (f"{counted(unread, 'file')} beside it {'was' if unread == 1 else 'were'} not read (the files beside a "
                 f"replay are read up to {BESIDE_BYTES // 2**20} MiB in all); ")
    raise UnusableInput(f"no campaign with the id {campaign_id!r} {where}among the bundled campaigns; "
                        f"{gone}name the campaign file with --campaign FILE")


def verified_on(path: Path | str, campaign) -> str:
    """``PATH (Title, version 53e33d3b88f8)``: the file and the version a replay was verified on."""
    return f"{path} ({campaign.title}, version {campaign.content_hash[:12]})"
