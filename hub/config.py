"""The client's hub settings: the hub's URL, the player's name and API token.

One JSON file, ``hub.json`` in the user's config directory (``$CARDROGUE_CONFIG_DIR``
when set), written atomically with mode 0600 in a folder of mode 0700: the token is a
password and no other user may read it.

A token the client is about to give the hub (``register``, ``token rotate``) is saved first,
as ``pending``, beside the account, with the command that sent it (its ``kind``): should the
answer never arrive (Ctrl+C, the network), the hub may hold it already, and the same command
run again finishes with it.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path

from cardrogue.engine.errors import UnusableInput
from cardrogue.engine.records.atomic import atomic_write

ENV_VAR = "CARDROGUE_CONFIG_DIR"
DEFAULT_HUB = "http://127.0.0.1:8765"
TOKEN = re.compile(r"[!-~]{1,512}")  # sent in a header: printable ASCII, no space, no line break
REGISTER = "register"
ROTATE = "rotate"


@dataclass(frozen=True)
class Pending:
    """A token sent to a hub whose answer has not come back yet: for the account ``name`` on ``hub``, by the
    command ``kind`` (REGISTER or ROTATE), which is the one to run again."""

    hub: str
    name: str
    token: str
    kind: str

    def of(self, hub: str, name: str | None) -> bool:
        return self.hub.rstrip("/") == hub.rstrip("/") and self.name == name


@dataclass(frozen=True)
class ClientConfig:
    hub: str | None = None
    name: str | None = None
    token: str | None = None
    pending: Pending | None = None


def new_token() -> str:
    """A token for the client to give the hub: 256 random bits, in the characters a hub takes (43 of them)."""
    import secrets

    return secrets.token_urlsafe(32)


def config_path() -> Path:
    if env := os.environ.get(ENV_VAR):
        return Path(env) / "hub.json"
    from platformdirs import user_config_dir

    return Path(user_config_dir("cardrogue-studio", appauthor=False)) / "hub.json"


def load_config() -> ClientConfig:
    """The saved settings; empty when there are none. A damaged file is reported, not ignored."""
    path = config_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return ClientConfig()
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise UnusableInput(f"{path}: cannot read the hub settings: {exc}") from None
    if not isinstance(data, dict) or not all(isinstance(data.get(k), (str, type(None))) for k in ("hub", "name", "token")):
        raise UnusableInput(f"{path}: the hub settings are not in the expected form; register again")
    if data.get("token") and not TOKEN.fullmatch(data["token"]):
        raise UnusableInput(f"{path}: the saved token is not one a hub gives (printable ASCII without spaces); "
                            "register again")
    pending = data.get("pending")
    if pending is not None and not (isinstance(pending, dict) and all(isinstance(pending.get(k), str) for k in
                                                                      ("hub", "name", "token"))
                                    and TOKEN.fullmatch(pending["token"])
                                    and pending.get("kind", REGISTER) in (REGISTER, ROTATE)):
        raise UnusableInput(f"{path}: the token waiting for a hub's answer (\"pending\") is not in the expected form; "
                            "remove it, or register again")
    config = ClientConfig(data.get("hub"), data.get("name"), data.get("token"))
    if pending is None:
        return config
    # A file saved before the kind was recorded: a token of the saved account was its rotation's (a register of it
    # is refused as taken, which drops the token), another account's a registration's.
    kept = Pending(pending["hub"], pending["name"], pending["token"], pending.get("kind", REGISTER))
    if "kind" not in pending and config.token and kept.of(config.hub or "", config.name):
        kept = replace(kept, kind=ROTATE)
    return replace(config, pending=kept)


def player_name() -> str:
    """The name a run is recorded under when none is given (``--player``; docs/player.md): the account registered
    with a hub on this machine (``hub register``: the name its leaderboard shows the runs under), else the login
    name; at most 80 characters (a replay's player), and "" (anonymous) when the name is one a hub would refuse in a
    replay (markup, control characters: docs/hub.md), as ``--player`` is. A damaged settings file is the hub
    commands' to report: here the login name is used."""
    import getpass

    from cardrogue.engine.format.checks.text import unsafe_text

    try:
        config = load_config()
    except UnusableInput:
        config = ClientConfig()
    if config.hub and config.token and config.name:
        name = config.name
    else:
        try:
            name = getpass.getuser()
        except Exception:  # no login name in this environment: scores stay anonymous
            return ""
    name = name[:80]
    return "" if unsafe_text(name, title=True) else name


def save_config(config: ClientConfig) -> Path:
    path = config_path()
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        data: dict = {"hub": config.hub, "name": config.name, "token": config.token}
        if config.pending is not None:
            data["pending"] = {"hub": config.pending.hub, "name": config.pending.name, "token": config.pending.token,
                               "kind": config.pending.kind}
        text = json.dumps(data, indent=2) + "\n"
        atomic_write(path, text.encode("utf-8"), mode=0o600)
    except OSError as exc:
        raise UnusableInput(f"{path}: cannot save the hub settings: {exc.strerror or exc}") from None
    return path
