"""A write whose answer was lost after its COMMIT was sent (docs/hub.md, When the database goes away): the 503 may
hide a stored write, and the client sends the same request again. Every write of the hub must then answer as done
(200, with what was stored) or a 409 saying it is there already: never a second row, never a confusing refusal.

The fault is injected at the commit boundary deterministically: a :class:`Database` whose next write transaction
commits, then fails as the database not answering (what the watchdog does when COMMIT's answer never comes)."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from hub_support import call, map_text, register, running_hub, solution

from cardrogue.hub.config import new_token
from cardrogue.hub.db import Database, DatabaseError, Tx

UNAVAILABLE = {"error": "the hub's database is unavailable; try again later"}


class AnswerLost(Database):
    """A database whose next ``lose`` write transactions commit, then fail as unanswered."""

    lose = 0

    @contextmanager
    def transaction(self, write: bool = False, bounded: bool = True) -> Iterator[Tx]:
        with super().transaction(write, bounded) as tx:
            yield tx
        if write and self.lose:
            self.lose -= 1
            raise DatabaseError("(test) the answer to COMMIT never came: the write is stored")


def _sent_twice(db: AnswerLost, base: str, *request, **kwargs) -> tuple[int, dict]:
    """The request sent with its commit's answer lost (a 503), then again: the second answer."""
    db.lose = 1
    status, body, headers = call(base, *request, **kwargs)
    assert (status, body) == (503, UNAVAILABLE) and db.lose == 0, (request, status, body)
    return call(base, *request, **kwargs)[:2]


def _count(db: Database, sql: str, params: tuple = ()) -> int:
    with db.transaction() as tx:
        return tx.one(sql, params)[0]


def test_every_write_sent_again_after_its_commits_answer_was_lost_answers_as_done(hub_db: str) -> None:
    db = AnswerLost(hub_db)
    with running_hub(db) as hub:
        # registration with the client's own token: the same name and token again is the account (200)
        token = new_token()
        status, body = _sent_twice(db, hub.base, "POST", "/api/accounts", {"name": "alice", "token": token})
        assert (status, body) == (200, {"name": "alice", "token": token}), (status, body)
        assert call(hub.base, "GET", "/api/me", token=token)[:2] == (200, {"name": "alice"})
        # registration with a token the hub made: that token was never seen, so the name is said taken (409)
        status, body = _sent_twice(db, hub.base, "POST", "/api/accounts", {"name": "bob"})
        assert status == 409 and "taken" in body["error"] and body["field"] == "name", (status, body)
        assert _count(db, "SELECT COUNT(*) FROM accounts") == 2

        # publish: the map already published (200, not new), one version
        text = map_text()
        status, body = _sent_twice(db, hub.base, "POST", "/api/maps", {"campaign": text}, token=token)
        assert status == 200 and body["created"] is False and body["version"] == 1, (status, body)
        assert _count(db, "SELECT COUNT(*) FROM maps") == 1 and _count(db, "SELECT COUNT(*) FROM campaigns") == 1

        # a run: already yours (200, not new), one row, marked best once
        status, body = _sent_twice(db, hub.base, "POST", "/api/maps/needle/runs", raw=solution(text).encode(), token=token)
        assert status == 200 and body["created"] is False and body["best"] is True and body["rank"] == 1, (status, body)
        assert _count(db, "SELECT COUNT(*) FROM runs") == 1 and _count(db, "SELECT COUNT(*) FROM runs WHERE best = 1") == 1

        # a rotation to the client's own token: sent again with the old token (dead since the lost commit), done (200)
        rotated = new_token()
        status, body = _sent_twice(db, hub.base, "POST", "/api/me/token", {"token": rotated}, token=token)
        assert (status, body) == (200, {"name": "alice", "token": rotated}), (status, body)
        assert call(hub.base, "GET", "/api/me", token=token)[0] == 401
        assert call(hub.base, "GET", "/api/me", token=rotated)[:2] == (200, {"name": "alice"})
        assert _count(db, "SELECT COUNT(*) FROM tokens t JOIN accounts a ON a.id = t.account_id WHERE a.name = ?",
                      ("alice",)) == 1

        # a revocation: sent again, the token is dead already (401 says so)
        status, body = _sent_twice(db, hub.base, "DELETE", "/api/me/token", token=rotated)
        assert status == 401 and "revoked or rotated is dead" in body["error"], (status, body)
        assert call(hub.base, "GET", "/api/me", token=rotated)[0] == 401
        assert hub.state.internal_errors == 0


def test_a_rotation_sent_again_is_not_taken_by_a_token_that_is_not_the_new_one(hub_db: str) -> None:
    """The rotation's retry is answered as done only for a new token that lives: a dead old token with any other
    new token is still a 401."""
    with running_hub(hub_db) as hub:
        token = register(hub.base, "alice")
        other = register(hub.base, "bob")
        assert call(hub.base, "DELETE", "/api/me/token", token=token)[0] == 200
        for new in (new_token(), "short", None):
            status, body, _ = call(hub.base, "POST", "/api/me/token", {} if new is None else {"token": new}, token=token)
            assert status == 401, (new, status, body)
        status, body, _ = call(hub.base, "POST", "/api/me/token", {"token": other}, token=token)
        assert (status, body) == (200, {"name": "bob", "token": other}), (status, body)  # (bob's own: no news to him)
