"""What the hub does, without HTTP: accounts, the clear check at publish, verified runs,
listings and leaderboards (docs/hub.md).

Nothing a client says about a map or a run is taken on trust: the server loads and
checks the campaign itself, finds its par with its own solver and estimates its
difficulty with its own Monte Carlo runs; a run counts only when the server's
re-simulation of its replay reaches exactly the claimed result. Every refusal is a
:class:`HubError` with an HTTP status and a reason, raised before anything is stored.
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from cardrogue.engine.format.checks.text import UnsafeText, unsafe_text
from cardrogue.engine.format.diagnostics import format_json_path
from cardrogue.engine.model.campaign import Campaign
from cardrogue.engine.words import counted

from .config import new_token
from .db import Database
from .folding import search_key, search_pattern
from .looks import look_key

DAY = 86_400.0
ESTIMATE_BATCH = 20  # Monte Carlo runs between two looks at the clock
MAX_NAME = 32  # characters of a player name, composed (NFC)
NAME_RULE = ("a player name is 1 to 32 letters (of any script, with their accents), digits, '_', '.' or '-', "
             "starting with a letter or digit")
HASH_RE = re.compile(r"[0-9a-f]{64}")
DEAD_TOKEN = "the API token is not known to this hub (a token revoked or rotated is dead)"  # a 401's reason
# A token a client makes (register, rotate): at least as long as the hub's own (config.new_token).
CLIENT_TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{43,512}")
# The start of a content hash as the listings show it (12 hex digits, `hub list`, the map pages) or longer.
HASH_START_RE = re.compile(r"[0-9a-f]{12,63}")
# A search for a hash: from 8 digits (fewer would match any map by chance as often as by its hash).
HASH_SEARCH_RE = re.compile(r"[0-9a-f]{8,64}")
# A campaign id as the schema writes it: anything else names no map, and is not asked of the database (a NUL,
# which PostgreSQL's text cannot hold, answered 500 there).
ID_RE = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
# A control character (Unicode Cc): no stored title, id or name holds one (the text rule refuses them).
CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f]")

# A refused map's answer lists this many of its diagnostics (or refused texts) at most; the reason counts them
# all. A 3 MB file of 250,000 unknown keys was answered with all of them: 75 MB.
MAX_LISTED = 100


def player_name(name: Any) -> str:
    """``name`` as the hub keeps and compares it: composed one way (NFC: an 'ë' typed as e and a combining
    diaeresis is the 'ë'), or :class:`HubError` 422 when it is not a name (:data:`NAME_RULE`). Letters of any
    script ('Zoë', 'Łukasz', '李雷'), their marks and decimal digits; no space, symbol, control or format
    character (a bidirectional control, a zero-width joiner), and no more marks on one letter than any text the
    hub takes (the text rule, CR228)."""
    if not isinstance(name, str):
        raise HubError(422, NAME_RULE, field="name")
    composed = unicodedata.normalize("NFC", name)
    if not 1 <= len(composed) <= MAX_NAME or not _name_start(composed[0]) or not all(map(_name_char, composed)):
        raise HubError(422, NAME_RULE, field="name")
    if why := unsafe_text(composed, title=True):
        raise HubError(422, f"{NAME_RULE}: {why}", field="name")
    return composed


def _name_start(ch: str) -> bool:
    return unicodedata.category(ch)[0] == "L" or unicodedata.category(ch) == "Nd"


def _name_char(ch: str) -> bool:
    return ch in "_.-" or _name_start(ch) or unicodedata.category(ch)[0] == "M"


def name_key(name: str) -> str:
    """What makes two names one name whatever their case: the name case-folded, composed (an ASCII name's
    ``casefold()``, as the names made before Unicode names were)."""
    return unicodedata.normalize("NFC", name.casefold())


def hex_digits(ref: str) -> str:
    """``ref`` in small letters when it is a content hash, a run id or a hash's start as the listings show
    it written in either case (``37E5CD3BB0EE``); any other text as it is."""
    lowered = ref.lower()
    return lowered if HASH_START_RE.fullmatch(lowered) or HASH_RE.fullmatch(lowered) else ref


# The maps whose content hash starts with a given run of hex digits: a range of the primary key, not LIKE
# (SQLite's LIKE ignores case, so no index serves it): every hash starting so lies in [start, start + "g"),
# "g" following every hex digit.
_HASH_STARTS = "m.hash >= ? AND m.hash < ?"


def _hash_range(start: str) -> tuple[str, str]:
    """The parameters of :data:`_HASH_STARTS` for the hashes starting with ``start`` (lower-case hex)."""
    return start, start + "g"


class HubError(Exception):
    """A refusal: an HTTP status, a one-line reason and optional details (diagnostics, ...)."""

    def __init__(self, status: int, message: str, *, headers: dict[str, str] | None = None, **details: Any) -> None:
        super().__init__(message)
        self.status, self.message, self.details = status, message, details
        self.headers = headers or {}  # of the answer (a 415's Accept-Encoding)

    def body(self) -> dict:
        return {"error": self.message, **self.details}


def id_taken(campaign_id: str, owner: str) -> HubError:
    """The refusal of a campaign id another player published first: whose it is, and the way on (every author who
    follows docs/authoring.md to the end publishes a map with the tutorial's id)."""
    return HubError(403, f"the campaign id {campaign_id!r} belongs to {owner}; publish your map under an id of your "
                         "own: change the file's \"id\" (in the editor, ctrl+e: Id) and publish it again (a replay "
                         "recorded before is of the old id: solve or play the map again for one to submit)")


BUSY = "the hub is busy checking other maps and runs; try again shortly"  # (a 503: no worker slot in time)


@dataclass(frozen=True)
class Settings:
    """How much the server spends on one request, and what it shows."""

    solve_states: int = 500_000  # the clear check's solver budget
    solve_seconds: float = 20.0
    estimate_runs: int = 200  # Monte Carlo runs for the difficulty estimate (0: none)
    estimate_seconds: float = 10.0  # past this the difficulty stays unknown (the map is still published)
    replay_seconds: float = 10.0  # re-simulation of one submitted run
    max_actions: int = 20_000
    max_replay_bytes: int = 1024 * 1024
    max_campaign_bytes: int = 4 * 1024 * 1024
    default_window_days: int = 7
    max_window_days: int = 365
    workers: int = 2  # clear checks and re-simulations at once in this process
    busy_seconds: float = 30.0  # how long a request waits for a worker before a 503
    # Where the web player (issue 16) plays a map: a template with {hash} and {id}; None: no link.
    play_url: str | None = None
    # The host names a request's Host header may give (`serve --allowed-host`: a hub reached through DNS rebinding, a
    # name of an attacker's pointed at it, is then refused); empty: any (the hub writes no URL from it either way).
    allowed_hosts: tuple[str, ...] = ()
    clock: Callable[[], float] = field(default=time.time, compare=False)


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    # The hash of the token the request was authenticated with ("" for the operator's own calls): a write made
    # after the slow part of a request (a re-simulation, a clear check) checks that this token still lives.
    token_hash: str = field(default="", compare=False, repr=False)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _tally(found: list, noun: str, said: str = "") -> str:
    """A refusal's headline count: ``150 errors; the first 100 listed`` (``said`` after the noun, the
    cut only when the list is cut at :data:`MAX_LISTED`)."""
    cut = f"; the first {MAX_LISTED} listed" if len(found) > MAX_LISTED else ""
    return f"{counted(len(found), noun)}{said}{cut}"


def _text_problems(unsafe: list[UnsafeText], text: str) -> list[dict]:
    """The first :data:`MAX_LISTED` texts of the file the hub refuses, each with its path, its line and
    column in ``text`` (the place `cardrogue check` names, so a client can name it in the file it sent)
    and why: what the walk ``cardrogue check`` warns by found (CR228, ``checks.text.unsafe_texts``, kept
    by the check's load as ``LoadResult.unsafe``), markup and escapes in the titles, control characters
    anywhere in the file, keys included (a refused key is placed at the key, not at its value)."""
    from cardrogue.engine.format.positions import PositionIndex

    listed = unsafe[:MAX_LISTED]
    index = PositionIndex(text, wanted=[u.path for u in listed])
    return [{"path": format_json_path(u.path), "line": line, "column": column, "code": "CR228", "message": u.refusal()}
            for u in listed for line, column in [index.locate(u.path, key=u.key)]]


class Hub:
    def __init__(self, db: Database, settings: Settings | None = None) -> None:
        self.db, self.settings = db, settings or Settings()
        self._workers = threading.BoundedSemaphore(max(1, self.settings.workers))
        self._campaigns: OrderedDict[str, Campaign] = OrderedDict()
        self._campaigns_lock = threading.Lock()

    def now(self) -> float:
        return self.settings.clock()

    # -- accounts

    def register(self, name: Any, token: Any = None) -> tuple[Account, str, bool]:
        """A new account and its token; (the account, the token, whether it is new). The client may make the token
        (``token``) and keep it before asking: a registration whose answer it never got (Ctrl+C, the network) is
        then finished by asking again with the same name and token (200, not new), since the hub holds the token's
        hash alone and could not give the token again."""
        name = player_name(name)
        token = self._token_given(token)
        digest = token_hash(token)
        with self.db.transaction(write=True) as tx:
            done = tx.execute("INSERT INTO accounts (name, name_key, look_key, token_hash, created_at)"
                              " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                              (name, name_key(name), look_key(name), "unused:" + name_key(name), self.now()))
            if done.rowcount != 1:
                mine = tx.one("SELECT a.id FROM tokens t JOIN accounts a ON a.id = t.account_id"
                              " WHERE t.hash = ? AND a.name = ?", (digest, name))
                if mine is not None:  # the same person, asking again with the token they made
                    return Account(mine[0], name), token, False
                taken = tx.one("SELECT name FROM accounts WHERE name_key = ? OR look_key = ?",
                               (name_key(name), look_key(name)))
                if taken is None or name_key(taken[0]) == name_key(name):
                    raise HubError(409, f"the name {name!r} is taken", field="name")
                raise HubError(409, f"the name {name!r} is taken: it reads as {taken[0]!r}, a player's name (a capital "
                                    "I, l and 1 read alike, as O and 0, rn and m, vv and w)", field="name")
            account_id = tx.one("SELECT id FROM accounts WHERE name = ?", (name,))[0]
            self._add_token(tx, account_id, digest)  # a refusal here takes the account back with it
        return Account(account_id, name), token, True

    @staticmethod
    def _token_given(token: Any) -> str:
        """The token a client made, checked; a new one when it made none."""
        if token is None:
            return new_token()
        if not isinstance(token, str) or not CLIENT_TOKEN_RE.fullmatch(token):
            raise HubError(422, "a token is 43 to 512 letters, digits, '-' or '_' (256 random bits: "
                                "secrets.token_urlsafe(32)); leave it out and the hub makes one", field="token")
        return token

    def _add_token(self, tx, account_id: int, digest: str) -> None:
        done = tx.execute("INSERT INTO tokens (hash, account_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                          (digest, account_id, self.now()))
        if done.rowcount != 1:
            raise HubError(409, "this token is in use already: make another", field="token")

    def account(self, token: str | None) -> Account:
        if not token:
            raise HubError(401, "this needs an API token: register with `cardrogue hub register NAME`")
        with self.db.transaction() as tx:
            row = tx.one("SELECT a.id, a.name FROM tokens t JOIN accounts a ON a.id = t.account_id WHERE t.hash = ?",
                         (token_hash(token),))
        if row is None:
            raise HubError(401, DEAD_TOKEN)
        return Account(*row, token_hash(token))

    def _still_authorised(self, tx, account: Account) -> None:
        """Refuse (401) a write for ``account`` whose token died since the request was authenticated: a run is
        re-simulated for up to 10 s and a map solved for 20 s between the two, and a token revoked by the operator,
        logged out or rotated away then still ranked a run or published a map. On PostgreSQL the account's row and
        then the token's are share-locked until this write commits, in the order a revocation locks them
        (:meth:`_lock_account`), so a revocation comes wholly before the write or after it, and never deadlocks
        with it. (SQLite's write transactions take their turns whole already.)"""
        if not account.token_hash:
            return  # (the operator's own calls, and tests on the service, carry no token)
        lock = ""
        if self.db.dialect == "postgresql":
            tx.one("SELECT id FROM accounts WHERE id = ? FOR KEY SHARE", (account.id,))
            lock = " FOR SHARE"
        if tx.one("SELECT 1 FROM tokens WHERE hash = ? AND account_id = ?" + lock,
                  (account.token_hash, account.id)) is None:
            raise HubError(401, DEAD_TOKEN + ": it died while the hub worked on this request, and nothing was stored")

    def _lock_account(self, tx, account_id: int) -> None:
        """The account's row locked for this transaction, before its tokens or best runs change. On PostgreSQL (READ COMMITTED)
        an operator's revoke waiting on a token row a rotation deleted passed over it and never saw the rotation's
        new token, which lived on; changes to one account's tokens now take their turns whole. So do its runs'
        submissions, each of which may mark another run its best (two at once could each mark their own). (SQLite's
        write transactions take their turns whole already.)"""
        if self.db.dialect == "postgresql":
            tx.one("SELECT id FROM accounts WHERE id = ? FOR UPDATE", (account_id,))

    def rotated_to(self, new: Any) -> Account | None:
        """The account whose live token is ``new``, a token a client made (None for anything else): a rotation to it
        sent again, once its old token is dead, is done already."""
        if not isinstance(new, str) or not CLIENT_TOKEN_RE.fullmatch(new):
            return None
        with self.db.transaction() as tx:
            row = tx.one("SELECT a.id, a.name FROM tokens t JOIN accounts a ON a.id = t.account_id WHERE t.hash = ?",
                         (token_hash(new),))
        return None if row is None else Account(*row, token_hash(new))

    def rotate(self, account: Account, old: str, new: Any = None) -> str:
        """A new token for the account in place of ``old``, which is dead from this transaction on."""
        new = self._token_given(new)
        if new == old:
            raise HubError(422, "the new token is the one in use: make another", field="token")
        with self.db.transaction(write=True) as tx:
            self._lock_account(tx, account.id)
            gone = tx.execute("DELETE FROM tokens WHERE hash = ? AND account_id = ?", (token_hash(old), account.id))
            if gone.rowcount != 1:  # revoked or rotated since the request was authenticated
                if tx.one("SELECT 1 FROM tokens WHERE hash = ? AND account_id = ?", (token_hash(new), account.id)):
                    return new  # by this same rotation, sent twice (its first answer lost) and both under way
                raise HubError(401, DEAD_TOKEN)
            self._add_token(tx, account.id, token_hash(new))
        return new

    def revoke(self, account: Account, token: str) -> int:
        """``token`` revoked at once; the account's tokens left."""
        with self.db.transaction(write=True) as tx:
            self._lock_account(tx, account.id)
            gone = tx.execute("DELETE FROM tokens WHERE hash = ? AND account_id = ?", (token_hash(token), account.id))
            if gone.rowcount != 1:
                raise HubError(401, DEAD_TOKEN)
            return tx.one("SELECT COUNT(*) FROM tokens WHERE account_id = ?", (account.id,))[0]

    def revoke_all(self, name: str, issue: bool = False) -> tuple[Account, int, str | None]:
        """The operator's revocation: every token of the player ``name`` (in any case) revoked at once, and with
        ``issue`` a new one made, to hand to its owner; (the account, the tokens revoked, the new token or None)."""
        with self.db.transaction(write=True) as tx:
            row = tx.one("SELECT id, name FROM accounts WHERE name_key = ?",
                         (name_key(unicodedata.normalize("NFC", name)),))
            if row is None:
                raise HubError(404, f"no player {name!r} on this hub")
            account = Account(*row)
            self._lock_account(tx, account.id)
            revoked = tx.execute("DELETE FROM tokens WHERE account_id = ?", (account.id,)).rowcount
            token = None
            if issue:
                token = new_token()
                self._add_token(tx, account.id, token_hash(token))
        return account, revoked, token

    # -- heavy work, bounded per process

    def _worker(self):
        hub = self

        class _Slot:
            def __enter__(self) -> None:
                if not hub._workers.acquire(timeout=hub.settings.busy_seconds):
                    raise HubError(503, BUSY)

            def __exit__(self, *exc: object) -> None:
                hub._workers.release()

        return _Slot()

    def _campaign(self, content_hash: str, content: str) -> Campaign:
        """The stored campaign, parsed once per process (a small cache: runs come in bursts)."""
        with self._campaigns_lock:
            hit = self._campaigns.get(content_hash)
            if hit is not None:
                self._campaigns.move_to_end(content_hash)
                return hit
        from cardrogue.engine.format.loader import load_campaign_text

        campaign = load_campaign_text(content, content_hash).campaign
        if campaign is None or campaign.content_hash != content_hash:
            # The hash holds the card catalog's numbers and the campaign's rules version (not the engine's reading
            # of the rules: docs/rules.md): a hub whose catalog changed since the map was published would
            # re-simulate its runs in another game than the one played.
            raise HubError(409, f"the map version {content_hash[:12]} no longer loads to its content hash on this hub "
                                "(the hub's card catalog or rules changed since it was published): its runs cannot be "
                                "re-simulated in the game they were played in; its author may publish it again")
        with self._campaigns_lock:
            self._campaigns[content_hash] = campaign
            while len(self._campaigns) > 64:
                self._campaigns.popitem(last=False)
        return campaign

    # -- publish

    def publish(self, account: Account, text: Any, window_days: Any = None) -> tuple[dict, bool]:
        """The clear check, then a new version of the campaign; (the map, whether it is new)."""
        from cardrogue.engine.analysis.check import check_loaded_text
        from cardrogue.engine.format.diagnostics import Severity, has_errors

        if not isinstance(text, str) or not text:
            raise HubError(400, "the body needs \"campaign\": the text of the campaign file", field="campaign")
        if len(text.encode("utf-8", "surrogatepass")) > self.settings.max_campaign_bytes:
            raise HubError(413, f"the campaign is larger than {self.settings.max_campaign_bytes:,} bytes")
        window = self.settings.default_window_days if window_days is None else window_days
        if isinstance(window, bool) or not isinstance(window, int) or not 0 <= window <= self.settings.max_window_days:
            raise HubError(422, f"window_days is a whole number of days from 0 to {self.settings.max_window_days}",
                           field="window_days")
        with self._worker():
            loaded, diagnostics = check_loaded_text(text, "campaign")
            if has_errors(diagnostics):
                errors = [d for d in diagnostics if d.severity is Severity.ERROR]
                raise HubError(422, f"the map does not pass the check ({_tally(errors, 'error')})",
                               diagnostics=[d.as_json() for d in errors[:MAX_LISTED]])
            campaign = loaded.campaign
            # A load without errors went through the semantic stage, whose text walk it kept: not walked again.
            if loaded.unsafe:
                problems = _text_problems(loaded.unsafe, text)
                cut = f" ({_tally(loaded.unsafe, 'text', ' refused')})" if len(loaded.unsafe) > MAX_LISTED else ""
                raise HubError(422, f"the map's text is refused: {problems[0]['path']}: {problems[0]['message']}{cut}",
                               problems=problems)
            existing = self._owned(account, campaign)
            if existing is not None:
                return existing, False
            par, estimate = self._clear_check(campaign)
        schema_ref = loaded.data.get("$schema")
        content = self._stored_text(campaign, par, schema_ref if isinstance(schema_ref, str) else None)
        return self._store(account, campaign, par, estimate, window, content)

    def _owned(self, account: Account, campaign: Campaign) -> dict | None:
        """Refuse another player's campaign id before the costly check; the map when already published."""
        with self.db.transaction() as tx:
            owner = tx.one("SELECT a.id, a.name FROM campaigns c JOIN accounts a ON a.id = c.owner_id WHERE c.id = ?",
                           (campaign.id,))
            if owner is not None and owner[0] != account.id:
                raise id_taken(campaign.id, owner[1])
            found = tx.one(_MAP_SELECT + " WHERE m.hash = ?", (campaign.content_hash,))
        if found is not None and found[5] != account.name:
            # stored by its owner since the read above (PostgreSQL reads each statement afresh): not this player's
            raise id_taken(campaign.id, found[5])
        return _map_row(found, self) if found else None

    def _clear_check(self, campaign: Campaign) -> tuple[Any, Any]:
        from cardrogue.engine.analysis.solver import QUICKER_TO_SOLVE, SOLVED, UNSOLVABLE, Budget, solve_campaign

        settings = self.settings
        result = solve_campaign(campaign, Budget(settings.solve_states, settings.solve_seconds), per_level=False)
        if result.verdict != SOLVED:
            if result.verdict == UNSOLVABLE:
                said = f"the solver proved the map unsolvable: {result.reason}"
            else:  # the author cannot raise the hub's budget (walk 26 read "raise the budget to decide" here)
                said = (f"the solver found no par within the hub's budget ({counted(settings.solve_states, 'state')}, "
                        f"{settings.solve_seconds:g} s): {result.reason}; the hub publishes a map only with a par "
                        f"proven within its budget: {QUICKER_TO_SOLVE}")
            raise HubError(422, said, verdict=result.verdict, reason=result.reason,
                           diagnostics=[{"code": "CR401" if result.verdict == UNSOLVABLE else "CR402",
                                         "severity": "error", "message": result.reason,
                                         "level": result.level}])
        return result, self._estimate(campaign)

    def _estimate(self, campaign: Campaign) -> tuple[float, int] | None:
        """(win rate, runs) of the Monte Carlo difficulty estimate; None when it is not done in time.

        The runs go in batches of :data:`ESTIMATE_BATCH`, each seeded from the content hash and
        its index, so the same map gets the same estimate on every server that finishes it; one
        that cannot finish within ``estimate_seconds`` leaves the difficulty unknown rather than
        publish a figure from fewer runs (each run is bounded by the Monte Carlo runner's turn cap).
        """
        from cardrogue.engine.analysis.montecarlo import solve_random

        total = self.settings.estimate_runs
        if total <= 0:
            return None
        deadline = time.monotonic() + self.settings.estimate_seconds
        base, wins, runs = int(campaign.content_hash[:16], 16), 0, 0
        for batch, start in enumerate(range(0, total, ESTIMATE_BATCH)):
            if time.monotonic() >= deadline:
                return None
            report = solve_random(campaign, min(ESTIMATE_BATCH, total - start), workers=1, seed=base + batch)
            wins, runs = wins + report.wins, runs + report.runs
        return wins / runs, runs

    @staticmethod
    def _stored_text(campaign: Campaign, par: Any, schema_ref: str | None) -> str:
        """The canonical file with the server's par (par is not part of the content hash)."""
        from cardrogue.engine.format.canonical import campaign_to_dict, dumps
        from cardrogue.engine.model.campaign import Par

        return dumps(campaign_to_dict(replace(campaign, par=Par(par.turns, par.health)), schema_ref=schema_ref))

    def _store(self, account: Account, campaign: Campaign, par: Any, estimate: Any, window: int,
               content: str) -> tuple[dict, bool]:
        now = self.now()
        lock = " FOR UPDATE" if self.db.dialect == "postgresql" else ""
        with self.db.transaction(write=True) as tx:
            self._still_authorised(tx, account)
            tx.execute("INSERT INTO campaigns (id, owner_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                       (campaign.id, account.id, now))
            owner, owner_name = tx.one("SELECT c.owner_id, a.name FROM campaigns c JOIN accounts a ON a.id = c.owner_id"
                                       " WHERE c.id = ?" + (lock and " FOR UPDATE OF c"), (campaign.id,))
            if owner != account.id:
                raise id_taken(campaign.id, owner_name)
            found = tx.one(_MAP_SELECT + " WHERE m.hash = ?", (campaign.content_hash,))
            if found is not None:
                return _map_row(found, self), False
            version = tx.one("SELECT COALESCE(MAX(version), 0) + 1 FROM maps WHERE campaign_id = ?", (campaign.id,))[0]
            tx.execute(
                "INSERT INTO maps (hash, campaign_id, version, title, author, publisher_id, published_at, window_ends,"
                " par_turns, par_health, par_exact, levels, win_rate, estimate_runs, content, search_key)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (campaign.content_hash, campaign.id, version, campaign.title, campaign.author, account.id, now,
                 now + window * DAY, par.turns, par.health, int(par.health_exact), len(campaign.levels),
                 None if estimate is None else estimate[0], 0 if estimate is None else estimate[1], content,
                 search_key(campaign.title, campaign.id, campaign.author, account.name)))
            row = tx.one(_MAP_SELECT + " WHERE m.hash = ?", (campaign.content_hash,))
        return _map_row(row, self), True

    # -- maps

    def find(self, ref: str, tx=None) -> dict:
        """A map version by its content hash; for 12 to 63 hex digits, the one map version whose content hash
        starts so (the short hash the listings show); else the latest version of a campaign id.

        The short hash comes before an id of the same text: anyone may publish a campaign whose id is another
        map's short hash, and that id must not take the map's page, file and leaderboard over (an id of 12 hex
        digits or more that starts a map's hash is still reached by its full hash).

        Hex digits are read in either case (a hash copied from a tool that writes them in capitals): a
        campaign id has no capital letter, so a hash or its start in capitals is no id, and in small
        letters it is read as it always was."""
        if tx is None:
            with self.db.transaction() as tx:
                return self.find(ref, tx)
        ref = hex_digits(ref)
        if not (HASH_RE.fullmatch(ref) or HASH_START_RE.fullmatch(ref) or ID_RE.fullmatch(ref)):
            raise HubError(404, f"no map on this hub has the id {ref!r}")
        if HASH_RE.fullmatch(ref):
            row = tx.one(_MAP_SELECT + " WHERE m.hash = ?", (ref,))
        else:
            row = None
            if HASH_START_RE.fullmatch(ref):  # the short hash `hub list` shows, copied
                rows = tx.all(_MAP_SELECT + f" WHERE {_HASH_STARTS} ORDER BY m.hash LIMIT 2", _hash_range(ref))
                if len(rows) > 1:
                    raise HubError(404, f"{ref!r} starts the content hash of more than one map on this hub: "
                                        "give more of the hash")
                row = rows[0] if rows else None
            if row is None:
                row = tx.one(_MAP_SELECT + " WHERE m.campaign_id = ? ORDER BY m.version DESC LIMIT 1", (ref,))
        if row is None:
            raise HubError(404, f"no map on this hub has the {'hash' if HASH_RE.fullmatch(ref) else 'id'} {ref!r}"
                                + (" (nor a content hash starting so)" if HASH_START_RE.fullmatch(ref) else ""))
        return _map_row(row, self)

    def content(self, ref: str) -> tuple[dict, str]:
        with self.db.transaction() as tx:
            found = self.find(ref, tx)
            return found, tx.one("SELECT content FROM maps WHERE hash = ?", (found["hash"],))[0]

    def detail(self, ref: str) -> dict:
        """A map with its version history, its levels' titles and story prefaces."""
        with self.db.transaction() as tx:
            found = self.find(ref, tx)
            content = tx.one("SELECT content FROM maps WHERE hash = ?", (found["hash"],))[0]
            versions = tx.all("SELECT version, hash, published_at, par_turns, par_health FROM maps"
                              " WHERE campaign_id = ? ORDER BY version DESC", (found["id"],))
        try:
            campaign = self._campaign(found["hash"], content)
        except HubError:  # no longer its hash here (its runs are refused): its text is still the map's to show
            from cardrogue.engine.format.loader import load_campaign_text

            campaign = load_campaign_text(content, found["hash"]).campaign
        found["story"] = campaign.story if campaign else ""
        found["description"] = campaign.description if campaign else ""
        found["levels_detail"] = [{"id": lv.id, "title": lv.title, "story": lv.story} for lv in campaign.levels] if campaign else []
        found["versions"] = [{"version": v, "hash": h, "published_at": _iso(t), "par": {"turns": pt, "health": ph}}
                             for v, h, t, pt, ph in versions]
        return found

    def list_maps(self, query: str = "", limit: int = 50, offset: int = 0) -> list[dict]:
        """The latest version of each campaign, newest first; ``query`` matches id, title and authors, and
        a content hash or its start (8 hex digits or more, in either case, as the pages and `hub list` show
        it, brackets and all) names the version of that hash, an older one too."""
        if found := CONTROL_RE.search(query):
            # PostgreSQL's text holds no NUL (a 500) and SQLite's LIKE ends its pattern there (every map listed)
            raise HubError(400, f"the search text holds the control character U+{ord(found.group()):04X}: "
                                "search for text as the maps show it")
        latest = "m.version = (SELECT MAX(m2.version) FROM maps m2 WHERE m2.campaign_id = m.campaign_id)"
        where, params = latest, ()
        if query:
            # Both sides folded in Python (hub/folding.py), the same on every database: the databases' LOWER lowered
            # A to Z alone (SQLite's) and composed nothing (a title in NFD was not found typed in NFC).
            where = f"({latest} AND m.search_key LIKE ? ESCAPE '\\')"
            params = (search_pattern(query),)
            if HASH_SEARCH_RE.fullmatch(start := query.strip().strip("[]").lower()):
                where += f" OR ({_HASH_STARTS})"
                params += _hash_range(start)
        with self.db.transaction() as tx:
            rows = tx.all(_MAP_SELECT + " WHERE " + where + " ORDER BY m.published_at DESC, m.hash LIMIT ? OFFSET ?",
                          (*params, limit, offset))
        return [_map_row(row, self) for row in rows]

    # -- runs

    def submit(self, account: Account, ref: str, text: str) -> tuple[dict, bool]:
        """Re-simulate a replay of the map ``ref`` and record it; (the run, whether it is new)."""
        from cardrogue.engine.records.replay import ReplayError, parse_replay, shared_text, verify_replay

        try:
            doc = parse_replay(text)
        except ReplayError as exc:
            raise HubError(422, f"the replay is refused: {exc}") from None
        text = shared_text(text)  # served to others later: not the path of the submitter's campaign file
        player = doc.get("player")
        if isinstance(player, str) and (why := unsafe_text(player, title=True)):
            # not used for credit (the token's owner is), but the file is served to others later
            raise HubError(422, f"the replay's player name {player!r} is refused: {why}", field="player")
        schema = doc.get("$schema")  # the one other free text of a replay, served as it is too
        if isinstance(schema, str) and (why := unsafe_text(schema, title=False)):
            shown = repr(schema) if len(schema) <= 120 else f"{schema[:120]!r}..."
            raise HubError(422, f"the replay's $schema {shown} is refused: {why}", field="$schema")
        if len(doc["actions"]) > self.settings.max_actions:
            raise HubError(422, f"the replay has {counted(len(doc['actions']), 'action')}; the hub takes at most "
                                f"{self.settings.max_actions:,}")
        with self.db.transaction() as tx:
            target = self.find(ref, tx)
            content = tx.one("SELECT content FROM maps WHERE hash = ?", (target["hash"],))[0]
        claimed = doc["campaign"]
        if claimed["hash"] != target["hash"]:
            raise HubError(422, f"the replay is for another map ({claimed['id']!r}, version {claimed['hash'][:12]}), "
                                f"not {target['id']!r} version {target['hash'][:12]}")
        campaign = self._campaign(target["hash"], content)
        with self._worker():
            verdict = verify_replay(text, campaign, max_seconds=self.settings.replay_seconds)
        if not verdict.ok:
            raise HubError(422, f"the replay is refused: {verdict.message}", action=verdict.action_index)
        run = verdict.run
        if not run.ranked:
            raise HubError(422, "the replay verifies but does not compete: only a won run of the whole map "
                                f"under its fated dice enters the leaderboard (this one: {run.outcome}, "
                                f"{run.dice_mode} dice, level {run.level + 1})")
        run_id = run.run_id
        with self.db.transaction(write=True) as tx:
            self._lock_account(tx, account.id)  # one player's runs take turns: one of them is marked best
            self._still_authorised(tx, account)
            # A run stored before a run was the states it passes through was re-keyed by migration 8 (hub/db.py,
            # _rekey_runs); one that did not re-verify then, or was changed by hand since, may still hold an id its
            # actions give (VerifiedRun.earlier_ids): that row is this run.
            row = None
            for earlier in run.earlier_ids:
                row = row or tx.one(_RUN_SELECT + " WHERE r.run_id = ?", (earlier,))
            created = False
            if row is None:
                done = tx.execute("INSERT INTO runs (run_id, map_hash, account_id, turns, health, submitted_at, replay)"
                                  " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                                  (run_id, target["hash"], account.id, run.turns, run.health, self.now(), text))
                created = done.rowcount == 1
                row = tx.one(_RUN_SELECT + " WHERE r.run_id = ?", (run_id,))
            if not created and row[2] != account.name:
                raise HubError(409, f"this run is already on the leaderboard, submitted by {row[2]} "
                                    f"on {_iso(row[5])}; one run is one row, whoever claims it", run_id=row[0])
            standing = self._standing(tx, row, account.id)
            if created:  # the mark set on the player's best run as read now, whatever an older writer left
                best_id = row[0] if standing["best"] else standing["player_best"]["run_id"]
                tx.execute("UPDATE runs SET best = CASE WHEN run_id = ? THEN 1 ELSE 0 END WHERE map_hash = ? AND"
                           " account_id = ? AND (best = 1 OR run_id = ?)", (best_id, row[1], account.id, best_id))
        return {**_run_row(row, standing["rank"]), **standing, "new_best": created and standing["best"],
                "map": target["hash"], "id": target["id"]}, created

    def _standing(self, tx, row: tuple, account_id: int) -> dict:
        """Where the run ``row`` of ``account_id`` stands: ``rank``, the player's rank among players (their best
        run's: the row the leaderboard lists for them); ``best``, whether this run is that best run; ``run_rank``,
        the run's rank among every run of the map (``?every=1``); and when it is not their best, ``player_best``,
        the score that stands for them."""
        best = tx.one(_RUN_SELECT + f" WHERE r.map_hash = ? AND r.account_id = ? ORDER BY {_board_order('r')} LIMIT 1",
                      (row[1], account_id))
        out = {"rank": self._rank(tx, best, account_id), "best": best[0] == row[0], "run_rank": self._rank(tx, row)}
        if not out["best"]:
            out["player_best"] = {"turns": best[3], "health": best[4], "run_id": best[0]}
        return out

    @staticmethod
    def _rank(tx, row: tuple, account_id: int | None = None) -> int:
        """The rank of the run ``row``: among every run of its map, or, given the account whose best run it is,
        among players (1 + the players other than that account with a run ranked before it: such a player's best
        run is ranked before it too). The order is the leaderboard's: fewest turns, then most health, then the
        earliest submitted, then the run id (:func:`_board_order`, spelled here as 'ranked before'); no two runs
        share a rank."""
        run_id, map_hash, _, turns, health, at = row[:6]
        # (a player with a run ranked before it has their best run, the one marked, ranked before it: runs_best)
        others = "" if account_id is None else " AND best = 1 AND account_id <> ?"
        # (``turns <= ?``, implied by the rest, is a range of runs_board, or runs_best, which reads the runs ranked
        # before alone)
        better = tx.one(
            f"SELECT COUNT(*) FROM runs WHERE map_hash = ? AND turns <= ?{others} AND (turns < ? OR (turns = ? AND"
            " health > ?) OR (turns = ? AND health = ? AND (submitted_at < ? OR (submitted_at = ? AND run_id < ?))))",
            (map_hash, turns, *(() if account_id is None else (account_id,)), turns, turns, health, turns, health, at,
             at, run_id))[0]
        return better + 1

    def leaderboard(self, ref: str, limit: int = 20, offset: int = 0, every: bool = False) -> dict:
        """A map's players, each once with their best run: fewest turns first, then most health, then the earliest
        submitted (then the run id); with ``every``, every run of the map in that order. A run's actions (its
        replay) are listed only after the competition window."""
        with self.db.transaction() as tx:
            target = self.find(ref, tx)
            # Each player's best run is marked (``best``, kept by submit) and indexed apart in the leaderboard's order
            # (runs_best, migration 7): a page, however deep, reads the entries of the players above it alone. The
            # page is cut from the index before the names are joined: joined first, PostgreSQL joined every row
            # above the page too (10 against 2 ms at offset 1,950 of 2,000 players).
            best_only = "" if every else " AND best = 1"
            rows = tx.all("SELECT r.run_id, r.map_hash, a.name, r.turns, r.health, r.submitted_at FROM (SELECT run_id,"
                          " map_hash, account_id, turns, health, submitted_at FROM runs r WHERE map_hash = ?" + best_only
                          + f" ORDER BY {_board_order('r')} LIMIT ? OFFSET ?) r JOIN accounts a ON a.id = r.account_id"
                          f" ORDER BY {_board_order('r')}", (target["hash"], limit, offset))
            # (here, not in every map row: the map list would count each map's players, a scan of its runs, for nothing)
            target["players"] = tx.one("SELECT COUNT(*) FROM runs WHERE map_hash = ? AND best = 1",
                                       (target["hash"],))[0]
        open_ = not target["competition"]
        runs = []
        for i, row in enumerate(rows):
            entry = _run_row(row, offset + i + 1)
            if open_:
                entry["replay"] = f"/api/maps/{target['hash']}/runs/{row[0]}/replay"
            runs.append(entry)
        return {"map": target, "every": every, "runs": runs}

    def replay(self, map_hash: str, run_id: str) -> str:
        """The replay of a run, naming the player the run is credited to: the name written in the file was the
        sender's word (not part of the run id, nor of what re-simulates), and a replay served naming another
        player put that player's name on a run they never played, in every table it was imported into."""
        from cardrogue.engine.records.replay import shared_text

        with self.db.transaction() as tx:
            target = self.find(map_hash, tx)
            row = tx.one("SELECT r.replay, a.name FROM runs r JOIN accounts a ON a.id = r.account_id"
                         " WHERE (r.run_id = ? OR r.earlier_id = ?) AND r.map_hash = ?",  # (earlier_id: migration 8)
                         (run_id, run_id, target["hash"]))
            if row is None:  # a run set apart by migration 10 (no longer re-verifies): off the boards, its file kept
                row = tx.one("SELECT r.replay, a.name FROM runs_set_apart r JOIN accounts a ON a.id = r.account_id"
                             " WHERE r.run_id = ? AND r.map_hash = ?", (run_id, target["hash"]))
        if row is None:
            raise HubError(404, f"no run {run_id!r} on this map")
        if target["competition"]:
            raise HubError(403, f"the competition on this map runs until {target['window_ends']}: "
                                "its runs' actions stay hidden until then", window_ends=target["window_ends"])
        return shared_text(row[0], row[1])


def _board_order(alias: str) -> str:
    """The leaderboard's order of the runs table ``alias``: fewest turns, then most health, then the earliest
    submitted, then the run id (the index runs_board's order; ``Hub._rank`` counts the runs before by it)."""
    return f"{alias}.turns, {alias}.health DESC, {alias}.submitted_at, {alias}.run_id"


_MAP_SELECT = (
    "SELECT m.hash, m.campaign_id, m.version, m.title, m.author, a.name, m.published_at, m.window_ends,"
    " m.par_turns, m.par_health, m.par_exact, m.levels, m.win_rate, m.estimate_runs,"
    " (SELECT COUNT(*) FROM runs r WHERE r.map_hash = m.hash),"
    " (SELECT b.turns FROM runs b WHERE b.map_hash = m.hash ORDER BY b.turns, b.health DESC LIMIT 1),"
    " (SELECT b.health FROM runs b WHERE b.map_hash = m.hash ORDER BY b.turns, b.health DESC LIMIT 1)"
    " FROM maps m JOIN accounts a ON a.id = m.publisher_id")
_RUN_SELECT = ("SELECT r.run_id, r.map_hash, a.name, r.turns, r.health, r.submitted_at"
               " FROM runs r JOIN accounts a ON a.id = r.account_id")


def _iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def _map_row(row: tuple, hub: Hub) -> dict:
    (hash_, cid, version, title, author, publisher, published, window_ends, par_turns, par_health, par_exact,
     levels, win_rate, estimate_runs, runs, best_turns, best_health) = row
    out = {"id": cid, "hash": hash_, "version": version, "title": title, "author": author, "publisher": publisher,
           "published_at": _iso(published), "window_ends": _iso(window_ends),
           "competition": hub.now() < window_ends, "levels": levels,
           "par": {"turns": par_turns, "health": par_health, "health_exact": bool(par_exact)},
           "runs": runs, "best": None if best_turns is None else {"turns": best_turns, "health": best_health},
           "difficulty": None if win_rate is None else {"win_rate": win_rate, "runs": estimate_runs,
                                                          "policy": "greedy"}}
    if hub.settings.play_url:
        out["play_url"] = hub.settings.play_url.format(hash=hash_, id=cid)
    return out


def _run_row(row: tuple, rank: int) -> dict:
    run_id, _, player, turns, health, at = row[:6]
    return {"rank": rank, "player": player, "turns": turns, "health": health, "submitted_at": _iso(at), "run_id": run_id}
