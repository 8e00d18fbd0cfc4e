"""API tokens: revoked, rotated, stored as hashes, a registration finished after a lost answer (hub20).

The API on both backends (SQLite and a real PostgreSQL, tests/pgserver.py); the commands `hub register`,
`hub login`, `hub logout`, `hub token rotate` and the operator's `hub revoke` against a real hub on loopback.
"""

from __future__ import annotations

import hashlib
import json
import io
import stat

import pytest
from hub_support import FAST, call, map_text, register, running_hub, solution

from cardrogue.cli.main import main
from cardrogue.hub.client import HubClient
from cardrogue.hub.config import config_path, load_config
from cardrogue.hub.db import MIGRATIONS, Database

A_TOKEN = "A" * 20 + "b-_" + "c" * 20  # 43 characters a hub takes as a client's token


@pytest.fixture
def hub(hub_db: str):
    with running_hub(hub_db) as app:
        yield app


def me(hub, token: str) -> int:
    return call(hub.base, "GET", "/api/me", token=token)[0]


def interrupt_after_the_answer(monkeypatch, method: str):
    """``HubClient.<method>`` met by a Ctrl+C while the hub's answer was on its way: the hub did it, the client never
    heard. The real method, to put back."""
    real = getattr(HubClient, method)

    def answered_then_interrupted(self, *args, **kwargs):
        real(self, *args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(HubClient, method, answered_then_interrupted)
    return real


def cardrogue(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- the API, on both backends


def test_rotate_gives_a_new_token_and_the_old_one_is_dead_at_once(hub) -> None:
    old = register(hub.base, "alice")
    status, body, _ = call(hub.base, "POST", "/api/me/token", raw=b"", token=old)  # no body: the hub makes one
    assert status == 200 and body["name"] == "alice" and body["token"] != old, body
    new = body["token"]
    assert me(hub, old) == 401 and me(hub, new) == 200
    status, body, _ = call(hub.base, "POST", "/api/maps", {"campaign": map_text()}, token=old)
    assert status == 401 and "not known" in body["error"]
    status, body, _ = call(hub.base, "POST", "/api/me/token", {"token": A_TOKEN}, token=new)  # one the client made
    assert status == 200 and body["token"] == A_TOKEN and me(hub, new) == 401 and me(hub, A_TOKEN) == 200
    assert call(hub.base, "POST", "/api/me/token", {}, token=old)[0] == 401  # a dead token rotates nothing


def test_revoke_kills_the_token_sent(hub) -> None:
    token = register(hub.base, "alice")
    status, body, _ = call(hub.base, "DELETE", "/api/me/token", token=token)
    assert status == 200 and body == {"name": "alice", "revoked": True, "tokens_left": 0}, body
    assert me(hub, token) == 401
    assert call(hub.base, "DELETE", "/api/me/token", token=token)[0] == 401
    assert call(hub.base, "POST", "/api/me/token", {}, token=token)[0] == 401
    status, body, _ = call(hub.base, "POST", "/api/accounts", {"name": "alice"})
    assert status == 409  # the name stays its account's: its maps and runs keep it


@pytest.mark.parametrize(("request_", "status"), [
    (("DELETE", None, None), 401),  # no token
    (("POST", {}, "not-a-token"), 401),
    (("POST", {"token": "short"}, "OWN"), 422),
    (("POST", {"token": 12}, "OWN"), 422),
    (("POST", {"token": "x" * 42 + " "}, "OWN"), 422),
    (("POST", {"token": "x" * 513}, "OWN"), 422),
    (("POST", {"token": "OWN"}, "OWN"), 422),  # the token in use is no new token
    (("POST", [], "OWN"), 400),
    (("GET", None, "OWN"), 405),
])
def test_bad_token_requests_are_4xx(hub, request_, status: int) -> None:
    own = register(hub.base, "alice")
    method, body, token = request_
    if isinstance(body, dict) and body.get("token") == "OWN":
        body = {"token": own}
    got, answer, _ = call(hub.base, method, "/api/me/token", body, token=own if token == "OWN" else token)
    assert got == status and isinstance(answer["error"], str), answer
    assert me(hub, own) == 200  # a refused rotation leaves the token alive


def test_rotations_racing_with_one_token_leave_one_live_token(hub) -> None:
    """Eight clients rotate one token at once (a thief and its owner): one wins, the others are 401, and the
    account is left with the winner's token alone (the deletion of the old token is what each one waits on)."""
    from concurrent.futures import ThreadPoolExecutor

    token = register(hub.base, "alice")
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: call(hub.base, "POST", "/api/me/token", {}, token=token)[:2], range(8)))
    won = [body["token"] for status, body in answers if status == 200]
    assert len(won) == 1 and sorted(status for status, _ in answers) == [200] + [401] * 7, answers
    assert me(hub, won[0]) == 200 and me(hub, token) == 401
    with hub.state.hub.db.transaction() as tx:
        assert tx.one("SELECT COUNT(*) FROM tokens")[0] == 1


def test_the_operators_revoke_racing_a_rotation_leaves_no_live_token_of_the_thief(hub_db: str, monkeypatch) -> None:
    """On PostgreSQL (READ COMMITTED) the operator's revoke waited on the old token's row a rotation had deleted,
    then passed over it, and never saw the rotation's new token: a thief rotating while the operator revoked kept a
    working token, beside the operator's new one (review20). The account's row is locked first now."""
    import threading

    from cardrogue.hub.service import Hub

    hub = Hub(Database(hub_db))
    account, old, _ = hub.register("alice")
    inside, release = threading.Event(), threading.Event()
    add = Hub._add_token

    def held(self, tx, account_id, digest):  # the rotation, its old token deleted, held before its new one and commit
        if not release.is_set():
            inside.set()
            release.wait(30)
        return add(self, tx, account_id, digest)

    monkeypatch.setattr(Hub, "_add_token", held)
    done: dict = {}
    thief = threading.Thread(target=lambda: done.setdefault("thief", hub.rotate(account, old, A_TOKEN)))
    thief.start()
    assert inside.wait(30)
    operator = threading.Thread(target=lambda: done.setdefault("operator", hub.revoke_all("alice", issue=True)))
    operator.start()
    operator.join(1.0)  # the operator's revoke is under way, waiting on the rotation
    release.set()
    thief.join(30)
    operator.join(30)
    assert done["thief"] == A_TOKEN and done["operator"][1] == 1, done
    with pytest.raises(Exception, match="not known"):
        hub.account(A_TOKEN)
    assert hub.account(done["operator"][2]).name == "alice"
    hub.db.close()


def test_a_rotation_to_a_token_in_use_is_refused_and_keeps_the_old_one(hub) -> None:
    alice, bob = register(hub.base, "alice"), register(hub.base, "bob")
    status, body, _ = call(hub.base, "POST", "/api/me/token", {"token": bob}, token=alice)
    assert status == 409 and body["field"] == "token"
    assert me(hub, alice) == 200 and me(hub, bob) == 200  # the deletion of alice's token was taken back


def test_a_registration_asked_again_with_its_token_is_finished_not_refused(hub) -> None:
    """A client makes the token and keeps it before asking: when the answer is lost (Ctrl+C), asking again with
    the same name and token is answered 200 with the account, since the hub could not give the token again."""
    status, body, _ = call(hub.base, "POST", "/api/accounts", {"name": "alice", "token": A_TOKEN})
    assert (status, body) == (201, {"name": "alice", "token": A_TOKEN})
    status, body, _ = call(hub.base, "POST", "/api/accounts", {"name": "alice", "token": A_TOKEN})
    assert (status, body) == (200, {"name": "alice", "token": A_TOKEN})
    assert call(hub.base, "POST", "/api/accounts", {"name": "alice", "token": "Z" * 43})[0] == 409
    assert call(hub.base, "POST", "/api/accounts", {"name": "ALICE", "token": A_TOKEN})[0] == 409  # the name as made
    status, body, _ = call(hub.base, "POST", "/api/accounts", {"name": "bob", "token": A_TOKEN})
    assert status == 409 and body["field"] == "token"
    assert call(hub.base, "POST", "/api/accounts", {"name": "bob"})[0] == 201  # the refusal made no account
    for bad in ("short", 7, [], "é" * 43, "a" * 42 + "\n"):
        status, body, _ = call(hub.base, "POST", "/api/accounts", {"name": "carol", "token": bad})
        assert status == 422 and body["field"] == "token", (bad, body)


def test_tokens_are_stored_as_their_hashes_alone(hub) -> None:
    token = register(hub.base, "alice")
    rotated = call(hub.base, "POST", "/api/me/token", {}, token=token)[1]["token"]
    with hub.state.hub.db.transaction() as tx:
        rows = tx.all("SELECT hash FROM tokens")
        every_text = " ".join(str(value) for table in ("accounts", "tokens")
                              for row in tx.all(f"SELECT * FROM {table}") for value in row)
    assert rows == [(hashlib.sha256(rotated.encode()).hexdigest(),)]
    assert token not in every_text and rotated not in every_text


def test_the_tokens_migration_keeps_every_account_working(hub_db: str, monkeypatch) -> None:
    """Accounts made under schema 4 held their token's hash in accounts.token_hash: migration 5 moves it into the
    tokens table, so every token made before works, and can be rotated and revoked."""
    import cardrogue.hub.db as db_module

    tokens = {"alice": "a" * 43, "bob": "b" * 43}
    with monkeypatch.context() as patched:
        patched.setattr(db_module, "MIGRATIONS", MIGRATIONS[:4])
        old = Database(hub_db)
        with old.transaction(write=True) as tx:
            for name, token in tokens.items():
                tx.execute("INSERT INTO accounts (name, name_key, look_key, token_hash, created_at) VALUES (?, ?, ?, ?, 0)",
                           (name, name, name, hashlib.sha256(token.encode()).hexdigest()))
        old.close()
    with running_hub(hub_db) as app:
        assert call(app.base, "GET", "/api/me", token=tokens["alice"])[1] == {"name": "alice"}
        assert call(app.base, "DELETE", "/api/me/token", token=tokens["bob"])[0] == 200
        assert call(app.base, "GET", "/api/me", token=tokens["bob"])[0] == 401
        with app.state.hub.db.transaction() as tx:
            assert {row[0] for row in tx.all("SELECT token_hash FROM accounts")} == {"unused:alice", "unused:bob"}
        assert call(app.base, "POST", "/api/accounts", {"name": "carol"})[0] == 201


def test_the_operator_revokes_a_players_tokens_and_gives_a_new_one(hub, hub_db: str, capsys) -> None:
    token = register(hub.base, "alice")
    code, out, err = cardrogue(capsys, "hub", "revoke", "ALICE", "--db", hub_db)
    assert code == 0 and out == "revoked 1 token of alice: it no longer works\n", (out, err)
    assert me(hub, token) == 401
    code, out, err = cardrogue(capsys, "hub", "revoke", "alice", "--db", hub_db, "--new-token")
    assert code == 0 and out.startswith("alice had no token\na new token for alice, shown this once"), out
    given = out.splitlines()[-1]
    assert me(hub, given) == 200
    code, out, err = cardrogue(capsys, "hub", "revoke", "nobody", "--db", hub_db)
    assert code == 1 and err == "cardrogue: no player 'nobody' on this hub\n", err


def test_the_operator_revoke_refuses_a_database_that_is_not_there(tmp_path, capsys) -> None:
    missing = tmp_path / "nothing.sqlite3"
    code, out, err = cardrogue(capsys, "hub", "revoke", "alice", "--db", str(missing))
    assert code == 2 and "no hub database there" in err and not missing.exists()


# -- the commands (SQLite: the API above runs on both)


@pytest.fixture
def sqlite_hub(tmp_path):
    with running_hub(str(tmp_path / "hub.sqlite3")) as app:
        yield app


def test_token_rotate_saves_the_new_token_privately_and_kills_the_old(sqlite_hub, capsys) -> None:
    hub = sqlite_hub
    assert cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)[0] == 0
    old = load_config().token
    code, out, err = cardrogue(capsys, "hub", "token", "rotate")
    new = load_config()
    assert code == 0 and "rotated the token of alice" in out and "old one no longer works" in out, (out, err)
    assert new.token != old and new.pending is None and new.name == "alice" and new.token not in out
    assert stat.S_IMODE(config_path().stat().st_mode) == 0o600
    assert me(hub, old) == 401 and me(hub, new.token) == 200


def test_a_rotation_whose_answer_is_lost_is_finished_by_running_it_again(sqlite_hub, capsys, monkeypatch) -> None:
    """Ctrl+C after the hub rotated: the old token is dead, and the new one is the one saved as pending first."""
    hub = sqlite_hub
    assert cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)[0] == 0
    old = load_config().token
    real = interrupt_after_the_answer(monkeypatch, "rotate")
    code, out, err = cardrogue(capsys, "hub", "token", "rotate")
    assert code == 130 and "run `cardrogue hub token rotate` again to finish" in err, err
    saved = load_config()
    assert saved.token == old and me(hub, old) == 401 and me(hub, saved.pending.token) == 200
    monkeypatch.setattr(HubClient, "rotate", real)
    code, out, err = cardrogue(capsys, "hub", "token", "rotate")
    assert code == 0 and "finishing the rotation interrupted before" in out, (out, err)
    assert load_config().token == saved.pending.token and load_config().pending is None


def _a_rotation_interrupted_on_its_way(hub, capsys, monkeypatch) -> tuple:
    """alice registered, then her `token rotate` stopped by Ctrl+C before its request reached the hub (it may still):
    (her old token, the pending token kept, the real HubClient.rotate)."""
    assert cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)[0] == 0
    old = load_config().token
    real = HubClient.rotate

    def interrupted_on_the_way(self, token):
        raise KeyboardInterrupt

    monkeypatch.setattr(HubClient, "rotate", interrupted_on_the_way)
    assert cardrogue(capsys, "hub", "token", "rotate")[0] == 130
    return old, load_config().pending, real


def test_a_rotation_retried_while_the_first_is_still_on_its_way_keeps_the_token_that_lands(sqlite_hub, capsys,
                                                                                            monkeypatch) -> None:
    """Ctrl+C before the hub took the rotation, whose request still reached it while `token rotate` ran again: the
    second made another token, was refused (the old one died under it) and dropped the kept one, which the hub had
    made live: both tokens were lost. The rotation is sent again with its own kept token, and a refusal then checks
    whether that token came to life."""
    hub = sqlite_hub
    old, kept, real = _a_rotation_interrupted_on_its_way(hub, capsys, monkeypatch)
    assert me(hub, old) == 200 and me(hub, kept.token) == 401  # the hub has not heard of it yet

    def the_first_lands_just_before(self, token):
        real(HubClient(hub.base, old), kept.token)  # the first command's request, late
        return real(self, token)

    monkeypatch.setattr(HubClient, "rotate", the_first_lands_just_before)
    code, out, err = cardrogue(capsys, "hub", "token", "rotate")
    assert code == 0 and "finishing the rotation interrupted before" in out, (out, err)
    assert load_config().token == kept.token and load_config().pending is None and me(hub, kept.token) == 200


def test_a_rotation_retried_into_the_rate_limit_keeps_its_token_for_the_first_request_on_its_way(
        sqlite_hub, capsys, monkeypatch) -> None:
    """The retry of an interrupted rotation met by the rate limit (429, unread) dropped the kept token, though the
    first request was still on its way and made it live when it landed: the account's token was lost (review22c)."""
    from cardrogue.hub.client import HubRefused

    hub = sqlite_hub
    old, kept, real = _a_rotation_interrupted_on_its_way(hub, capsys, monkeypatch)

    def limited(self, token):
        raise HubRefused(429, {"error": "too many token requests: try again in 6 s"})

    monkeypatch.setattr(HubClient, "rotate", limited)
    code, out, err = cardrogue(capsys, "hub", "token", "rotate")
    assert code == 75 and "run `cardrogue hub token rotate` again to finish" in err, (code, err)
    assert load_config().pending == kept
    real(HubClient(hub.base, old), kept.token)  # the first command's request lands, late
    monkeypatch.setattr(HubClient, "rotate", real)
    code, out, err = cardrogue(capsys, "hub", "token", "rotate")
    assert code == 0 and "finishing the rotation interrupted before" in out, (out, err)
    assert load_config().token == kept.token and me(hub, kept.token) == 200


def test_a_login_with_the_old_token_keeps_a_rotation_still_on_its_way(sqlite_hub, capsys, monkeypatch) -> None:
    """After a rotation interrupted on its way, `login` with the account's old token (as the refusal offers, should
    the hub refuse the kept one) dropped the kept token; the late request then made it live and the old one dead:
    the account's token was lost (review22b). The kept rotation stays, and `token rotate` finishes it."""
    hub = sqlite_hub
    old, kept, real = _a_rotation_interrupted_on_its_way(hub, capsys, monkeypatch)
    monkeypatch.setattr(HubClient, "rotate", real)
    monkeypatch.setattr("sys.stdin", io.StringIO(old + "\n"))
    code, out, _ = cardrogue(capsys, "hub", "login", "--hub", hub.base)
    assert code == 0 and "`cardrogue hub token rotate` finishes it" in out, out
    assert load_config().token == old and load_config().pending == kept
    real(HubClient(hub.base, old), kept.token)  # the first request lands, late
    code, out, err = cardrogue(capsys, "hub", "token", "rotate")
    assert code == 0 and "finishing the rotation interrupted before" in out, (out, err)
    assert load_config().token == kept.token and me(hub, kept.token) == 200


def test_a_refused_rotation_keeps_the_saved_token(sqlite_hub, capsys) -> None:
    hub = sqlite_hub
    assert cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)[0] == 0
    saved = load_config()
    call(hub.base, "DELETE", "/api/me/token", token=saved.token)  # revoked elsewhere
    code, out, err = cardrogue(capsys, "hub", "token", "rotate")
    assert code == 1 and "the hub refused (401)" in err and load_config() == saved, err


def test_register_interrupted_after_the_hub_made_the_account_keeps_its_token(sqlite_hub, capsys, monkeypatch) -> None:
    """Ctrl+C while the hub's answer was on its way lost the token of an account the hub had made: the name was taken
    for good. The token is made and saved before asking now, and the same command finishes the registration."""
    hub = sqlite_hub
    real = interrupt_after_the_answer(monkeypatch, "register")
    code, out, err = cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)
    assert code == 130 and f"run `cardrogue hub register alice --hub {hub.base}` again to finish" in err, err
    pending = load_config().pending
    assert load_config().token is None and me(hub, pending.token) == 200
    monkeypatch.setattr(HubClient, "register", real)
    code, out, err = cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)
    assert code == 0 and "finishing the registration interrupted before" in out, (out, err)
    assert load_config().token == pending.token and load_config().pending is None


def test_a_rate_limited_retry_of_an_interrupted_registration_keeps_its_live_token(tmp_path, capsys, monkeypatch) -> None:
    """The retry the message asks for met the registration limit (429) and dropped the pending token, which the hub
    had made the account's only one: the next retry was 'taken' and the account lost (review20)."""
    from cardrogue.hub.app import Limits, Rate

    with running_hub(str(tmp_path / "hub.sqlite3"), limits=Limits(register=Rate(burst=1, per_minute=1))) as hub:
        real = interrupt_after_the_answer(monkeypatch, "register")
        assert cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)[0] == 130
        live = load_config().pending.token
        monkeypatch.setattr(HubClient, "register", real)
        code, out, err = cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)
        assert code == 75 and "429" in err and "again to finish" in err, (out, err)
        assert load_config().pending.token == live and me(hub, live) == 200


def test_a_first_registration_or_a_rotation_refused_for_too_many_requests_keeps_no_token(tmp_path, capsys,
                                                                                          monkeypatch) -> None:
    """A first try refused by the rate limit was never read by the hub: its token is no account's, and keeping it
    blocked registering any other name (review21). A rotation refused so is dropped too."""
    from cardrogue.hub.app import Limits, Rate

    limits = Limits(register=Rate(burst=1, per_minute=1), token=Rate(burst=1, per_minute=1))
    with running_hub(str(tmp_path / "hub.sqlite3"), limits=limits) as hub:
        zed = register(hub.base, "zed")  # the limit's one registration spent
        code, out, err = cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)
        assert code == 75 and "429" in err and load_config().pending is None, (out, err)
        monkeypatch.setattr("sys.stdin", io.StringIO(zed + "\n"))
        assert cardrogue(capsys, "hub", "login", "--hub", hub.base)[0] == 0
        assert cardrogue(capsys, "hub", "token", "rotate", "--hub", hub.base)[0] == 0  # the limit's one rotation
        code, out, err = cardrogue(capsys, "hub", "token", "rotate", "--hub", hub.base)
        assert code == 75 and "429" in err and load_config().pending is None and me(hub, load_config().token) == 200


def test_commands_that_save_a_token_keep_an_interrupted_registration_of_another_name(sqlite_hub, capsys,
                                                                                      monkeypatch) -> None:
    """A registration of bob interrupted, then alice's login, rotation, logout or another registration: each wrote
    the settings without bob's pending token, which may be the only one of bob's account (review20)."""
    hub = sqlite_hub
    alice = register(hub.base, "alice")
    monkeypatch.setattr("sys.stdin", io.StringIO(alice + "\n"))
    assert cardrogue(capsys, "hub", "login", "--hub", hub.base)[0] == 0
    real = interrupt_after_the_answer(monkeypatch, "register")
    assert cardrogue(capsys, "hub", "register", "bob", "--hub", hub.base, "--force")[0] == 130
    bob = load_config().pending
    assert bob.name == "bob" and me(hub, bob.token) == 200 and load_config().token == alice
    monkeypatch.setattr(HubClient, "register", real)
    code, out, err = cardrogue(capsys, "hub", "token", "rotate", "--hub", hub.base)
    assert code == 2 and "a token of bob" in err and "hub register bob" in err, (out, err)
    code, out, err = cardrogue(capsys, "hub", "register", "carol", "--hub", hub.base, "--force")
    assert code == 2 and "a token of bob" in err, (out, err)
    monkeypatch.setattr("sys.stdin", io.StringIO(alice + "\n"))
    assert cardrogue(capsys, "hub", "login", "--hub", hub.base)[0] == 0 and load_config().pending == bob
    assert cardrogue(capsys, "hub", "logout", "--hub", hub.base)[0] == 0 and load_config().pending == bob
    code, out, err = cardrogue(capsys, "hub", "register", "bob", "--hub", hub.base, "--force")
    assert code == 0 and "finishing the registration" in out and load_config().token == bob.token, (out, err)


def test_a_refused_registration_drops_its_pending_token(sqlite_hub, capsys) -> None:
    hub = sqlite_hub
    register(hub.base, "alice")
    code, out, err = cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)
    assert code == 1 and "taken" in err and load_config().pending is None


def test_logout_revokes_the_token_on_the_hub_and_forgets_it(sqlite_hub, capsys) -> None:
    hub = sqlite_hub
    assert cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)[0] == 0
    token = load_config().token
    code, out, err = cardrogue(capsys, "hub", "logout")
    assert code == 0 and "logged out alice: the token is revoked on the hub" in out and "--new-token" in out, out
    assert me(hub, token) == 401
    assert load_config().token is None and load_config().hub == hub.base and token not in config_path().read_text()
    code, out, err = cardrogue(capsys, "hub", "logout")
    assert code == 2 and "no account for" in err
    assert cardrogue(capsys, "hub", "register", "bob")[0] == 0  # no --force: nothing is saved to lose


def test_logout_after_a_rotation_whose_answer_was_lost_revokes_the_new_token_too(sqlite_hub, capsys, monkeypatch) -> None:
    """The saved token is dead once the hub rotated it; the live one is the pending token: logout revokes it, rather
    than forget a live token."""
    hub = sqlite_hub
    assert cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)[0] == 0
    interrupt_after_the_answer(monkeypatch, "rotate")
    assert cardrogue(capsys, "hub", "token", "rotate")[0] == 130
    live = load_config().pending.token
    assert me(hub, live) == 200
    code, out, err = cardrogue(capsys, "hub", "logout")
    assert code == 0 and "revoked on the hub" in out and me(hub, live) == 401, (out, err)
    assert load_config().token is None and load_config().pending is None


def test_logout_of_a_token_dead_already_forgets_it(sqlite_hub, capsys) -> None:
    hub = sqlite_hub
    assert cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)[0] == 0
    call(hub.base, "DELETE", "/api/me/token", token=load_config().token)
    code, out, err = cardrogue(capsys, "hub", "logout")
    assert code == 0 and "dead on the hub already" in out and load_config().token is None, (out, err)


def test_logout_with_no_hub_answering_keeps_the_token(capsys) -> None:
    from cardrogue.hub.config import ClientConfig, save_config

    save_config(ClientConfig("http://127.0.0.1:9", "alice", "t" * 43))  # port 9 (discard): nothing listens
    code, out, err = cardrogue(capsys, "hub", "logout")
    assert code == 75 and "cannot reach the hub" in err and load_config().token == "t" * 43, err


def test_login_saves_a_token_the_hub_knows(sqlite_hub, capsys, monkeypatch) -> None:
    hub = sqlite_hub
    token = register(hub.base, "alice")
    monkeypatch.setattr("sys.stdin", io.StringIO("not-a-token-of-this-hub\n"))
    code, out, err = cardrogue(capsys, "hub", "login", "--hub", hub.base)
    assert code == 1 and "401" in err and not config_path().exists(), err
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, out, err = cardrogue(capsys, "hub", "login", "--hub", hub.base)
    assert code == 2 and "no token read" in err
    monkeypatch.setattr("sys.stdin", io.StringIO(token + "\n"))
    code, out, err = cardrogue(capsys, "hub", "login", "--hub", hub.base)
    assert code == 0 and "logged in as alice" in out and token not in out, (out, err)
    assert load_config().token == token and stat.S_IMODE(config_path().stat().st_mode) == 0o600
    bob = register(hub.base, "bob")
    monkeypatch.setattr("sys.stdin", io.StringIO(bob + "\n"))
    code, out, err = cardrogue(capsys, "hub", "login", "--hub", hub.base)
    assert code == 2 and "--force" in err and load_config().token == token
    monkeypatch.setattr("sys.stdin", io.StringIO(bob + "\n"))
    assert cardrogue(capsys, "hub", "login", "--hub", hub.base, "--force")[0] == 0 and load_config().name == "bob"
    given = call(hub.base, "POST", "/api/me/token", {}, token=bob)[1]["token"]  # the saved token dead: bob's new one
    monkeypatch.setattr("sys.stdin", io.StringIO(given + "\n"))
    assert cardrogue(capsys, "hub", "login", "--hub", hub.base)[0] == 0 and load_config().token == given


def test_login_makes_a_missing_config_folder_private(sqlite_hub, capsys, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("CARDROGUE_CONFIG_DIR", str(tmp_path / "fresh" / "config"))
    monkeypatch.setattr("sys.stdin", io.StringIO(register(sqlite_hub.base, "alice") + "\n"))
    assert cardrogue(capsys, "hub", "login", "--hub", sqlite_hub.base)[0] == 0
    assert stat.S_IMODE(config_path().parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(config_path().stat().st_mode) == 0o600


def test_a_damaged_pending_token_is_refused_with_the_files_path(capsys) -> None:
    config_path().parent.mkdir(parents=True, exist_ok=True)
    config_path().write_text('{"hub": null, "name": null, "token": null, "pending": {"hub": "h"}}')
    code, out, err = cardrogue(capsys, "hub", "register", "alice")
    assert code == 2 and str(config_path()) in err and "pending" in err, err


def test_a_lost_rotation_kept_past_a_login_as_another_account_is_named_a_rotation(sqlite_hub, capsys,
                                                                                  monkeypatch) -> None:
    """alice's rotation lost its answer, then `login --force` saved bob: the refusal asked to `register alice`, which
    alice's account, made long ago, is not (left21). The pending token says whether a register or a rotate kept it."""
    hub = sqlite_hub
    assert cardrogue(capsys, "hub", "register", "alice", "--hub", hub.base)[0] == 0
    old = load_config().token
    real = interrupt_after_the_answer(monkeypatch, "rotate")
    assert cardrogue(capsys, "hub", "token", "rotate")[0] == 130
    monkeypatch.setattr(HubClient, "rotate", real)
    kept = load_config().pending
    assert kept.kind == "rotate" and me(hub, old) == 401 and me(hub, kept.token) == 200
    monkeypatch.setattr("sys.stdin", io.StringIO(register(hub.base, "bob") + "\n"))
    assert cardrogue(capsys, "hub", "login", "--hub", hub.base, "--force")[0] == 0 and load_config().pending == kept
    for argv in (("token", "rotate"), ("register", "alice", "--hub", hub.base, "--force")):
        code, out, err = cardrogue(capsys, "hub", *argv)
        assert code == 2 and "interrupted `token rotate`" in err and "hub register alice" not in err, (argv, err)
        assert f"`cardrogue hub login --force --hub {hub.base}` as alice" in err and load_config().pending == kept
    monkeypatch.setattr("sys.stdin", io.StringIO(kept.token + "\n"))  # as the refusal says: the kept token
    assert cardrogue(capsys, "hub", "login", "--hub", hub.base, "--force")[0] == 0
    assert load_config().name == "alice" and load_config().token == kept.token and load_config().pending is None


def test_a_pending_token_saved_before_its_kind_was_recorded_still_reads(capsys) -> None:
    """A `hub.json` from before the kind: a token of the saved account is its rotation's, another one a register's."""
    config_path().parent.mkdir(parents=True, exist_ok=True)
    for pending, kind in (("alice", "rotate"), ("bob", "register")):
        config_path().write_text(json.dumps({"hub": "http://h", "name": "alice", "token": "t" * 43,
                                             "pending": {"hub": "http://h", "name": pending, "token": "p" * 43}}))
        assert load_config().pending.kind == kind
    code, out, err = cardrogue(capsys, "hub", "token", "rotate")
    assert code == 2 and "`cardrogue hub register bob --hub http://h`" in err, err
    config_path().write_text('{"hub": null, "name": null, "token": null, '
                             '"pending": {"hub": "h", "name": "a", "token": "p", "kind": "guess"}}')
    code, out, err = cardrogue(capsys, "hub", "register", "alice")
    assert code == 2 and "pending" in err and "Traceback" not in err, err


# -- a token revoked while its request is under way


@pytest.mark.parametrize("stop", ["operator", "logout", "rotate"])
def test_a_run_whose_token_dies_during_its_re_simulation_is_not_recorded(hub_db: str, monkeypatch, stop: str) -> None:
    """A submission is authenticated, then re-simulated (up to 10 s on the hub), then stored: a token revoked by the
    operator, logged out or rotated away in between ranked the run all the same, after "every token stopped at
    once" (forge22). The write that records the run checks the token again; the run is refused with a 401."""
    from cardrogue.engine.records import replay as replays
    from cardrogue.hub.service import Hub, HubError

    hub = Hub(Database(hub_db), FAST)
    alice, token, _ = hub.register("alice")
    text = map_text()
    published, _ = hub.publish(hub.account(token), text)
    verify = replays.verify_replay

    def verified_while_the_token_dies(*args, **kwargs):
        verdict = verify(*args, **kwargs)
        if stop == "operator":
            hub.revoke_all("alice")
        elif stop == "logout":
            hub.revoke(alice, token)
        else:
            hub.rotate(alice, token, A_TOKEN)
        return verdict

    monkeypatch.setattr(replays, "verify_replay", verified_while_the_token_dies)
    with pytest.raises(HubError) as refused:
        hub.submit(hub.account(token), published["hash"], solution(text))
    assert refused.value.status == 401 and "not known" in refused.value.message
    with hub.db.transaction() as tx:
        assert tx.one("SELECT COUNT(*) FROM runs")[0] == 0
    hub.db.close()


def test_a_map_whose_token_dies_during_its_clear_check_is_not_published(hub_db: str, monkeypatch) -> None:
    """As a run (above): the clear check solves the map for up to 20 s after the request was authenticated."""
    from cardrogue.hub.service import Hub, HubError

    hub = Hub(Database(hub_db), FAST)
    _, token, _ = hub.register("alice")
    check = Hub._clear_check

    def checked_while_the_token_dies(self, campaign):
        found = check(self, campaign)
        hub.revoke_all("alice")
        return found

    monkeypatch.setattr(Hub, "_clear_check", checked_while_the_token_dies)
    with pytest.raises(HubError) as refused:
        hub.publish(hub.account(token), map_text())
    assert refused.value.status == 401
    with hub.db.transaction() as tx:
        assert tx.one("SELECT COUNT(*) FROM maps")[0] == 0 and tx.one("SELECT COUNT(*) FROM campaigns")[0] == 0
    hub.db.close()


def test_a_revocation_racing_a_runs_write_waits_for_it_and_neither_deadlocks(hub_db: str, monkeypatch) -> None:
    """The write of a run holds its account's and token's rows (PostgreSQL) in the order a revocation takes them: the
    operator's revoke arriving while a run is being written waits for it, then stops the token; no deadlock."""
    import threading

    from cardrogue.hub.service import Hub

    hub = Hub(Database(hub_db), FAST)
    _, token, _ = hub.register("alice")
    text = map_text()
    published, _ = hub.publish(hub.account(token), text)
    inside, release = threading.Event(), threading.Event()
    check = Hub._still_authorised

    def held(self, tx, account):
        check(self, tx, account)
        inside.set()
        release.wait(30)

    monkeypatch.setattr(Hub, "_still_authorised", held)
    done: dict = {}
    runner = threading.Thread(target=lambda: done.setdefault("run", hub.submit(hub.account(token), published["hash"],
                                                                                solution(text))))
    runner.start()
    assert inside.wait(60)
    operator = threading.Thread(target=lambda: done.setdefault("operator", hub.revoke_all("alice")))
    operator.start()
    operator.join(1.0)
    assert operator.is_alive()  # the revoke waits for the run's write
    release.set()
    runner.join(60)
    operator.join(60)
    assert done["run"][1] is True and done["operator"][1] == 1, done
    with pytest.raises(Exception, match="not known"):
        hub.account(token)
    hub.db.close()


class _AnswerLost:
    """A proxy on loopback in front of ``hub``: it hands each request to the hub whole, and for the ``drop``-th (1 the
    first) closes the client's connection instead of passing the hub's answer on (a connection dropped once the hub
    had done the work, as a proxy's timeout or a mobile network does)."""

    def __init__(self, hub, drop: int) -> None:
        import socket
        import threading

        self.hub, self.drop, self.done = hub, drop, []
        self.server = socket.create_server(("127.0.0.1", 0))
        self.base = f"http://127.0.0.1:{self.server.getsockname()[1]}"
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        import http.client

        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:  # (closed: the test is over)
                return
            with conn:
                head = b""
                while b"\r\n\r\n" not in head:
                    head += conn.recv(65536)
                head, body = head.split(b"\r\n\r\n", 1)
                lines = head.decode("latin-1").split("\r\n")
                method, path, _ = lines[0].split(" ", 2)
                headers = dict(line.split(": ", 1) for line in lines[1:])
                length = int(next((v for k, v in headers.items() if k.lower() == "content-length"), "0"))
                while len(body) < length:
                    body += conn.recv(65536)
                upstream = http.client.HTTPConnection(self.hub.base.removeprefix("http://"))
                upstream.request(method, path, body=body or None,
                                 headers={k: v for k, v in headers.items() if k.lower() != "host"})
                answer = upstream.getresponse()
                raw = answer.read()
                self.done.append((method, path, answer.status))
                if len(self.done) == self.drop:
                    continue  # the hub answered; the client never hears it
                reply = f"HTTP/1.1 {answer.status} {answer.reason}\r\n" + "".join(
                    f"{k}: {v}\r\n" for k, v in answer.getheaders() if k.lower() not in ("connection", "content-length"))
                conn.sendall(reply.encode("latin-1") + f"content-length: {len(raw)}\r\nconnection: close\r\n\r\n".encode()
                             + raw)

    def close(self) -> None:
        self.server.close()


@pytest.mark.parametrize("command", ["register", "rotate"])
def test_a_token_made_whose_answer_the_connection_lost_is_finished_by_the_same_command(sqlite_hub, capsys,
                                                                                      command: str) -> None:
    """The hub made the account (or rotated the token) and the connection dropped before its answer came back: the
    same command run again finishes it with the token kept, never a name taken or a dead token. A rotation's
    message said only that the connection was lost, not that the new token waits and the command finishes it."""
    hub = sqlite_hub
    proxy = _AnswerLost(hub, drop=1 if command == "register" else 2)
    try:
        if command == "rotate":
            assert cardrogue(capsys, "hub", "register", "alice", "--hub", proxy.base)[0] == 0
        old = load_config().token
        argv = ("hub", "register", "alice") if command == "register" else ("hub", "token", "rotate")
        code, out, err = cardrogue(capsys, *argv, "--hub", proxy.base)
        again = f"run `cardrogue hub {' '.join(argv[1:])}" + (f" --hub {proxy.base}`" if command == "register" else "`")
        assert code != 0 and f"{again} again to finish" in err, err
        kept = load_config().pending.token
        assert me(hub, kept) == 200 and (old is None or me(hub, old) == 401)  # done on the hub
        code, out, err = cardrogue(capsys, *argv, "--hub", proxy.base)
        assert code == 0 and "interrupted before" in out, (out, err)
        assert load_config().token == kept and load_config().pending is None and me(hub, kept) == 200
        assert proxy.done[proxy.drop - 1][2] in (200, 201)  # the answer lost said it was done
    finally:
        proxy.close()
