"""Bad input never reaches a 500 and stores nothing; rate limits; the last-resort handler
(issue 15, point 8). Every case runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import http.client
import json
import logging
import urllib.request
from dataclasses import replace

import pytest
from hub_support import (FAST, UNLIMITED, call, campaign_of, map_text, register, running_hub, replay_of, slower, solution,
                         solution_actions)

from cardrogue.cli.main import main
from cardrogue.engine.records.replay import Recorder
from cardrogue.hub.app import Limits
from cardrogue.hub.ratelimit import Rate
from cardrogue.engine.format.checks.text import unsafe_text


def _counts(app) -> tuple[int, ...]:
    with app.state.hub.db.transaction() as tx:
        return tuple(tx.one(f"SELECT COUNT(*) FROM {t}")[0] for t in ("accounts", "campaigns", "maps", "runs"))


def _forged_replays(text: str) -> dict[str, str]:
    good = json.loads(solution(text))
    out = {}
    doc = json.loads(json.dumps(good))
    doc["result"]["turns"] = 3
    out["a claimed score it does not reach"] = json.dumps(doc)
    doc = json.loads(json.dumps(good))
    doc["result"]["health"] += 1
    out["a claimed health it does not keep"] = json.dumps(doc)
    doc = json.loads(json.dumps(good))
    doc["actions"][5] = "move W"
    out["an edited action"] = json.dumps(doc)
    doc = json.loads(json.dumps(good))
    doc["actions"] = doc["actions"][:17]
    doc["checkpoints"] = doc["checkpoints"][:1]
    out["a run cut short"] = json.dumps(doc)
    doc = json.loads(json.dumps(good))
    doc["checkpoints"] = doc["checkpoints"][:-1]
    out["a missing checkpoint"] = json.dumps(doc)
    doc = json.loads(json.dumps(good))
    doc["actions"].append("end")
    out["an action after the victory"] = json.dumps(doc)
    doc = json.loads(json.dumps(good))
    doc["dice"]["seed"] += 1
    out["fated dice from another seed"] = json.dumps(doc)
    doc = json.loads(json.dumps(good))
    doc["final"] = "0" * 16
    out["a forged final state"] = json.dumps(doc)
    doc = json.loads(json.dumps(good))
    doc["dice"] = {"mode": "random", "seed": 1}
    out["other dice"] = json.dumps(doc)
    doc = json.loads(json.dumps(good))
    doc["actions"] = ["end"] * 20_001
    out["too many actions"] = json.dumps(doc)
    doc = json.loads(json.dumps(good))
    del doc["final"]
    out["not a replay"] = json.dumps(doc)
    out["a replay of another map"] = solution(map_text("other", "Another Map"))
    out["a terminal escape in the player's name"] = solution(text, player="mallory\x1b]0;owned\x07")
    doc = json.loads(json.dumps(good))
    doc["player"] = "mallory\ud800"
    out["a lone surrogate in the player's name"] = json.dumps(doc)
    out["markup in the player's name"] = solution(text, player="[link=https://example.invalid]mallory[/link]")
    out.update(_two_faced_replays(good))
    return out


def _two_faced_replays(good: dict) -> dict[str, str]:
    """Replays that read one way to the hub's parser and another way to a reader that keeps the first of
    two equal keys, or that hold text no file can: the hub serves the file to others after the window."""
    body = json.dumps(good)[1:]
    out = {"a duplicate key hiding a claimed score": '{"result": {"outcome": "won", "turns": 1, "health": 99}, ' + body,
           "a duplicate key hiding markup in the player's name":
               '{"player": "[link=https://example.invalid]mallory[/link]", ' + body[:-1] + ', "player": "mallory"}'}
    doc = json.loads(json.dumps(good))
    doc["$schema"] = "\ud800"
    doc["campaign"]["file"] = "/home/mallory/needle.json"  # the hub rewrites the file without it
    out["a lone surrogate in a text the hub keeps"] = json.dumps(doc)
    doc = json.loads(json.dumps(good))
    doc["$schema"] = "https://cardrogue-studio.dev/schema/replay.schema.json\x1b]0;owned\x07"
    out["a terminal escape in the replay's $schema"] = json.dumps(doc)
    out["a lone surrogate in a key"] = "{" + body[:-1] + ', "\\ud800": 1}'
    out["a key with a lone surrogate written twice"] = "{" + body[:-1] + ', "\\udfff": 1, "\\udfff": 2}'
    turns = good["result"]["turns"]
    out["a fraction for a whole number"] = json.dumps(good).replace(f'"turns": {turns}', f'"turns": {turns}.0')
    return out


def test_hostile_requests_get_a_4xx_with_a_reason_and_store_nothing(hub_db: str) -> None:
    with running_hub(hub_db) as hub:
        alice = register(hub.base, "alice")
        text = map_text()
        status, published, _ = call(hub.base, "POST", "/api/maps", {"campaign": text, "window_days": 0}, token=alice)
        assert status == 201
        before = _counts(hub)
        runs = f"/api/maps/{published['hash']}/runs"
        cases = {
            "an oversized replay": ("POST", runs, dict(raw=b" " * (1024 * 1024 + 1), token=alice), 413),
            "an oversized registration": ("POST", "/api/accounts", dict(raw=b"{" + b" " * 20_000 + b"}"), 413),
            "malformed JSON (register)": ("POST", "/api/accounts", dict(raw=b'{"name": '), 400),
            "malformed JSON (publish)": ("POST", "/api/maps", dict(raw=b'{"campaign": "x",}', token=alice), 400),
            "malformed JSON (submit)": ("POST", runs, dict(raw=solution(text)[:-40].encode(), token=alice), 400),
            "NaN in JSON": ("POST", "/api/accounts", dict(raw=b'{"name": NaN}'), 400),
            "a key written twice (register)": ("POST", "/api/accounts", dict(raw=b'{"name": "eve", "name": "zed"}'), 400),
            "a key written twice (publish)": ("POST", "/api/maps", dict(raw=json.dumps(
                {"campaign": text, "window_days": 0})[:-1].encode() + b', "window_days": 365}', token=alice), 400),
            "deep nesting": ("POST", "/api/accounts", dict(raw=b"[" * 5000 + b"]" * 5000), 400),
            "not UTF-8": ("POST", "/api/accounts", dict(raw=b'{"name": "\xff"}'), 400),
            "a JSON array": ("POST", "/api/maps", dict(body=[text], token=alice), 400),
            "a campaign that is not text": ("POST", "/api/maps", dict(body={"campaign": 7}, token=alice), 400),
            "a campaign that is not JSON": ("POST", "/api/maps", dict(body={"campaign": "{"}, token=alice), 422),
            "no token (publish)": ("POST", "/api/maps", dict(body={"campaign": text}), 401),
            "no token (submit)": ("POST", runs, dict(raw=solution(text).encode()), 401),
            "a wrong token": ("POST", runs, dict(raw=solution(text).encode(), token="x" * 43), 401),
            "a truncated token": ("POST", runs, dict(raw=solution(text).encode(), token=alice[:-1]), 401),
            "not a bearer token": ("GET", "/api/me", dict(headers={"Authorization": f"Basic {alice}"}), 401),
            "a duplicate name": ("POST", "/api/accounts", dict(body={"name": "alice"}), 409),
            "a bad name": ("POST", "/api/accounts", dict(body={"name": "<b>al"}), 422),
            "a name that is not text": ("POST", "/api/accounts", dict(body={"name": ["a"]}), 422),
            "an unknown map": ("GET", "/api/maps/nowhere/leaderboard", {}, 404),
            "an unknown hash": ("POST", "/api/maps/" + "0" * 64 + "/runs", dict(raw=solution(text).encode(), token=alice), 404),
            "a bad run id": ("GET", runs + "/zzz/replay", {}, 404),
            "a bad limit": ("GET", "/api/maps?limit=0", {}, 400),
            "a huge offset": ("GET", "/api/maps?offset=99999999999", {}, 400),
            "a limit in superscript digits": ("GET", "/api/maps?limit=%C2%B2", {}, 400),
            "an offset in full-width digits": ("GET", "/api/maps/needle/leaderboard?offset=%EF%BC%91", {}, 400),
            "a long search": ("GET", "/api/maps?q=" + "a" * 201, {}, 400),
            "malformed JSON (rotate)": ("POST", "/api/me/token", dict(raw=b'{"token": ', token=alice), 400),
            "a key written twice (rotate)": ("POST", "/api/me/token", dict(
                raw=b'{"token": "' + b"a" * 43 + b'", "token": "' + b"b" * 43 + b'"}', token=alice), 400),
            "a new token that is not text": ("POST", "/api/me/token", dict(body={"token": 5}, token=alice), 422),
            "a new token with a NUL": ("POST", "/api/me/token", dict(body={"token": "a" * 43 + "\x00"}, token=alice), 422),
            "a new token that is the old": ("POST", "/api/me/token", dict(body={"token": alice}, token=alice), 422),
            "no token (rotate)": ("POST", "/api/me/token", dict(body={}), 401),
            "no token (revoke)": ("DELETE", "/api/me/token", {}, 401),
            "a wrong token (revoke)": ("DELETE", "/api/me/token", dict(token="x" * 43), 401),
            "a client's token too short (register)": ("POST", "/api/accounts", dict(body={"name": "zed", "token": "x"}), 422),
            "a client's token in use (register)": ("POST", "/api/accounts", dict(body={"name": "zed", "token": alice}), 409),
            "a wrong method": ("DELETE", "/api/maps", {}, 405),
            "no such route": ("GET", "/api/nothing", {}, 404),
        }
        for forged_name, replay in _forged_replays(text).items():
            cases[f"forged: {forged_name}"] = ("POST", runs, dict(raw=replay.encode(), token=alice), 422)
        for title in ("<script>alert(1)</script>", "[bold red]Winner[/]", "Red \x1b[31mtext", "Evil\u202etxt.exe",
                      "Tom &amp; Jerry", "A\nB"):
            doc = json.loads(text)
            doc["title"] = title
            cases[f"title {title!r}"] = ("POST", "/api/maps", dict(body={"campaign": json.dumps(doc)}, token=alice), 422)
        doc = json.loads(text)
        doc["levels"][1]["title"] = "[link=https://example.invalid]click[/link]"
        cases["Rich markup in a level title"] = ("POST", "/api/maps", dict(body={"campaign": json.dumps(doc)}, token=alice), 422)
        doc = json.loads(text)
        doc["levels"][0]["\ud800"] = 1
        cases["a lone surrogate in a key of the map"] = ("POST", "/api/maps", dict(body={"campaign": json.dumps(doc)}, token=alice), 422)
        doc = json.loads(text)
        doc["levels"][0]["story"] = "The lamp \x1b]0;owned\x07 flickers."
        cases["a terminal escape in a story"] = ("POST", "/api/maps", dict(body={"campaign": json.dumps(doc)}, token=alice), 422)

        for name, (method, path, kwargs, expected) in cases.items():
            status, body, headers = call(hub.base, method, path, **kwargs)
            assert status == expected, (name, status, body)
            assert isinstance(body, dict) and body.get("error"), (name, body)
            assert "Traceback" not in json.dumps(body), name
            if expected == 405:  # RFC 9110 15.5.6: a 405 "MUST generate an Allow header field"
                allowed = {m.strip() for m in (headers.get("allow") or headers.get("Allow") or "").split(",")}
                assert allowed == {"GET", "HEAD", "POST"}, (name, headers)
        assert _counts(hub) == before
        assert hub.state.internal_errors == 0


def test_a_replay_that_verifies_but_does_not_compete_is_refused(tmp_path) -> None:
    """Only a won run of the whole map under its fated dice is ranked (docs/hub.md)."""
    text = map_text()
    campaign = campaign_of(text)
    practice = Recorder(campaign, level=1)  # a practice start at the second level
    practice.play("end")
    random_dice = Recorder(campaign, mode="random", seed=5)
    random_dice.play("end")
    cases = {
        "an unfinished run": (replay_of(text, solution_actions(text)[:5]), "unfinished"),
        "a practice run from a later level": (practice.text(), "level 2"),
        "random dice": (random_dice.text(), "random dice"),
    }
    with running_hub(str(tmp_path / "hub.sqlite3")) as hub:
        alice = register(hub.base, "alice")
        call(hub.base, "POST", "/api/maps", {"campaign": text}, token=alice)
        for name, (replay, says) in cases.items():
            status, body, _ = call(hub.base, "POST", "/api/maps/needle/runs", raw=replay.encode(), token=alice)
            assert status == 422 and "does not compete" in body["error"] and says in body["error"], (name, body)
        assert call(hub.base, "GET", "/api/maps/needle/leaderboard")[1]["runs"] == []


def test_a_body_sent_in_chunks_is_cut_off_at_the_limit(tmp_path) -> None:
    with running_hub(str(tmp_path / "hub.sqlite3")) as hub:
        alice = register(hub.base, "alice")
        host, port = hub.base.removeprefix("http://").split(":")
        conn = http.client.HTTPConnection(host, int(port), timeout=30)
        chunks = (b" " * 65536 for _ in range(40))  # 2.5 MiB, no Content-Length
        conn.request("POST", "/api/maps/needle/runs", body=chunks, encode_chunked=True,
                     headers={"Authorization": f"Bearer {alice}", "Content-Type": "application/json"})
        response = conn.getresponse()
        assert response.status == 413 and "larger than" in json.loads(response.read())["error"]
        conn.close()


def test_a_body_that_never_arrives_is_answered_408_at_the_deadline(tmp_path, monkeypatch) -> None:
    """A client that announces a body and then sends it a byte at a time, or not at all, held its
    request open for ever (and any number of them). Now the body has a deadline: 408, with the reason."""
    import socket

    import cardrogue.hub.app as hub_app

    monkeypatch.setattr(hub_app, "BODY_SECONDS", 0.5, raising=False)
    with running_hub(str(tmp_path / "hub.sqlite3")) as hub:
        alice = register(hub.base, "alice")
        host, port = hub.base.removeprefix("http://").split(":")
        for path in ("/api/accounts", "/api/maps", "/api/maps/needle/runs"):
            with socket.create_connection((host, int(port)), timeout=30) as raw:
                raw.sendall(f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                            f"Authorization: Bearer {alice}\r\nContent-Length: 1000\r\n\r\n{{\"name\"".encode())
                answer = b""
                while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
                    got = raw.recv(65536)  # the socket's 30 s timeout ends a wait that would never end
                    if not got:
                        break
                    answer += got
            head, _, body = answer.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 408 ") and b"did not arrive within 0.5 s" in body, (path, answer)
        assert call(hub.base, "GET", "/api/maps")[1]["maps"] == []


def test_malformed_json_is_answered_with_the_place_and_what_to_do(tmp_path) -> None:
    """A malformed body gets the words ``check`` gives a malformed file, not the parser's own."""
    with running_hub(str(tmp_path / "hub.sqlite3")) as hub:
        alice = register(hub.base, "alice")
        cases = {
            ("/api/accounts", b'{"name": '): "line 1 column 10: the body ends before the JSON is complete",
            ("/api/accounts", b'{"name": "bob",}'): "line 1 column 15: trailing comma before '}'",
            ("/api/accounts", b"{name: 1}"): 'expected a property name in double quotes, like "name"',
            ("/api/maps", b"{'campaign': 1}"): 'like "campaign"',
            ("/api/maps/needle/runs", b'{"actions": [] } }'): "a replay is one object { ... }",
            ("/api/accounts", b""): "the body is empty",
            # Python's own words were passed on: 'Exceeds the limit (4300 digits) for integer string conversion:
            # value has 5000 digits; use sys.set_int_max_str_digits() to increase the limit' (hub18)
            ("/api/accounts", b'{"name":\n  ' + b"9" * 5000 + b"}"): "line 2 column 3: a number with thousands of digits",
            ("/api/maps/needle/runs", b'{"turns": -' + b"1" * 4400 + b"}"): "line 1 column 11: a number with thousands",
        }
        for (path, raw), says in cases.items():
            status, body, _ = call(hub.base, "POST", path, raw=raw, token=alice)
            assert status == 400 and body["error"].startswith("malformed JSON at line "), (raw, body)
            assert says in body["error"] and "Expecting" not in body["error"], (raw, body)
            assert "sys." not in body["error"], body


def test_a_two_faced_replay_is_refused_naming_its_field(tmp_path) -> None:
    """A duplicate key or a lone surrogate is refused with the field's path and place, never stored nor a 500."""
    text = map_text()
    says = {"a duplicate key hiding a claimed score": ("$.result", "duplicate key 'result'", "line 1"),
            "a duplicate key hiding markup in the player's name": ("$.player", "duplicate key 'player'", "line 1"),
            "a lone surrogate in a text the hub keeps": ("$.$schema", "lone UTF-16 surrogate"),
            "a fraction for a whole number": ("$.result.turns", "is not a whole number"),
            "a terminal escape in the replay's $schema": ("$schema", "control character U+001B"),
            "a lone surrogate in a key": ("$['\\ud800']", "lone UTF-16 surrogate"),
            "a key with a lone surrogate written twice": ("$['\\udfff']", "duplicate key")}
    with running_hub(str(tmp_path / "hub.sqlite3")) as hub:
        alice = register(hub.base, "alice")
        call(hub.base, "POST", "/api/maps", {"campaign": text}, token=alice)
        for name, replay in _two_faced_replays(json.loads(solution(text))).items():
            status, body, _ = call(hub.base, "POST", "/api/maps/needle/runs", raw=replay.encode(), token=alice)
            assert status == 422 and all(part in body["error"] for part in says[name]), (name, status, body)
        assert call(hub.base, "GET", "/api/maps/needle/leaderboard")[1]["runs"] == []
        assert hub.state.internal_errors == 0


def test_a_replay_that_takes_too_long_to_re_simulate_is_refused(tmp_path) -> None:
    with running_hub(str(tmp_path / "hub.sqlite3"), replace(FAST, replay_seconds=1e-9)) as hub:
        alice = register(hub.base, "alice")
        call(hub.base, "POST", "/api/maps", {"campaign": map_text()}, token=alice)
        status, body, _ = call(hub.base, "POST", "/api/maps/needle/runs", raw=solution(map_text()).encode(), token=alice)
        assert status == 422 and "re-simulation stopped" in body["error"]


def test_rate_limits_are_per_token_and_say_when_to_retry(tmp_path) -> None:
    limits = Limits(register=Rate(3, 0.01), submit=Rate(2, 0.01))
    with running_hub(str(tmp_path / "hub.sqlite3"), limits=limits) as hub:
        alice, bob = register(hub.base, "alice"), register(hub.base, "bob")
        call(hub.base, "POST", "/api/maps", {"campaign": map_text()}, token=alice)
        replays = [slower(map_text(), k).encode() for k in range(4)]
        assert [call(hub.base, "POST", "/api/maps/needle/runs", raw=r, token=alice)[0] for r in replays[:3]] == [201, 201, 429]
        status, body, headers = call(hub.base, "POST", "/api/maps/needle/runs", raw=replays[3], token=alice)
        assert status == 429 and "too many submit" in body["error"] and int(headers["retry-after"]) > 0
        assert call(hub.base, "POST", "/api/maps/needle/runs", raw=replays[3], token=bob)[0] == 201  # bob has his own
        register(hub.base, "carol")
        assert call(hub.base, "POST", "/api/accounts", {"name": "dave"})[0] == 429



def test_token_rotations_are_rate_limited_per_account(tmp_path) -> None:
    with running_hub(str(tmp_path / "hub.sqlite3"), limits=replace(UNLIMITED, token=Rate(2, 0.01))) as hub:
        alice, bob = register(hub.base, "alice"), register(hub.base, "bob")
        for _ in range(2):
            alice = call(hub.base, "POST", "/api/me/token", {}, token=alice)[1]["token"]
        status, body, headers = call(hub.base, "POST", "/api/me/token", {}, token=alice)
        assert status == 429 and "too many token" in body["error"] and int(headers["retry-after"]) > 0
        assert call(hub.base, "GET", "/api/me", token=alice)[0] == 200  # the refused rotation changed nothing
        assert call(hub.base, "DELETE", "/api/me/token", token=bob)[0] == 200  # bob has his own


def test_the_last_resort_turns_an_unexpected_error_into_a_logged_500(tmp_path, caplog) -> None:
    with running_hub(str(tmp_path / "hub.sqlite3")) as hub:
        def broken(*args):
            raise RuntimeError("a bug, with a secret path /srv/x")

        hub.state.hub.list_maps = broken
        with caplog.at_level(logging.ERROR, logger="cardrogue.hub"):
            status, body, headers = call(hub.base, "GET", "/api/maps")
        assert status == 500 and body == {"error": "internal error"}
        assert "content-security-policy" in {k.lower() for k in headers}
        assert hub.state.internal_errors == 1
        assert any("a bug" in (r.exc_text or "") or r.exc_info for r in caplog.records if r.name == "cardrogue.hub")


@pytest.mark.parametrize("path", ["/", "/maps/needle", "/api/maps", "/api/maps/nowhere", "/hub.css"])
def test_every_response_carries_the_security_headers(tmp_path, path: str) -> None:
    with running_hub(str(tmp_path / "hub.sqlite3")) as hub:
        _, _, headers = call(hub.base, "GET", path)
        lowered = {k.lower(): v for k, v in headers.items()}
        assert "script-src" not in lowered["content-security-policy"]
        assert lowered["content-security-policy"].startswith("default-src 'none'")
        assert lowered["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("title", ["Chapter [II] The Toll", "[A] New Hope", "Act [1]", "The [Lost] Key", "[  ] Gap"])
def test_bracketed_titles_are_text_not_rich_markup(title):
    """A Rich tag starts with a lowercase letter, "#", "/" or "@" (Rich's console markup): other brackets stay."""
    assert unsafe_text(title, title=True) is None


@pytest.mark.parametrize("title", ["[red]Win", "[b]Bold[/b]", "Close[/]", "[bold red]Alert", "[link=https://x.invalid]x",
                                   "[@click=app.quit]Go", "[#ff0000]Red", "[italic]a"])
def test_rich_markup_titles_are_refused(title):
    assert "Rich markup" in unsafe_text(title, title=True)


def test_check_warns_of_the_titles_a_hub_refuses():
    """CR228 (engine/format/checks/text.py): the rule the hub refuses titles by is the check's too, as a
    warning (the campaign plays: every string is shown as text), so an author hears it before publishing."""
    from cardrogue.engine.analysis.check import check_text

    doc = json.loads(map_text())
    doc["levels"][0]["title"] = "Hall <of> Doom"
    doc["title"] = "Chapter [II] The Toll"  # brackets that are no Rich tag: no warning
    [warning] = [d for d in check_text(json.dumps(doc)) if d.code == "CR228"]
    assert warning.severity.value == "warning" and warning.json_path == "$.levels[0].title"
    assert "'Hall <of> Doom' would be refused by a hub: it looks like HTML markup ('<o')" in warning.message


def test_check_warns_of_every_text_a_hub_refuses(tmp_path):
    """CR228 beyond the titles: the hub refuses a control character anywhere in the file (docs/hub.md,
    *Titles with markup are refused*), so `cardrogue check --strict` must fail on the same text, at
    the same place, or an author whose map passes the check meets the refusal only when publishing."""
    from cardrogue.engine.analysis.check import check_text

    places = {
        "$.description": lambda doc: doc.__setitem__("description", "A toll \x1b[31mred\x1b[0m road."),
        "$.story": lambda doc: doc.__setitem__("story", "The lamp \x1b]0;owned\x07 flickers."),
        "$.levels[0].story": lambda doc: doc["levels"][0].__setitem__("story", "Bell\x07"),
        "$.levels[1].cells[2].inscription": lambda doc: doc["levels"][1]["cells"][2].__setitem__("inscription", "a\x1b[2Jb"),
        "$.cards.goblin.name": lambda doc: doc.setdefault("cards", {}).__setitem__("goblin", {"name": "Gob\x1b[5m"}),
        "$.cards.goblin.text": lambda doc: doc.setdefault("cards", {}).__setitem__("goblin", {"text": "Evil\u202etxt"}),
        # the model does not keep $schema, but the file does, and the hub walks the file
        "$.$schema": lambda doc: doc.__setitem__("$schema", "https://cardrogue-studio.dev/schema/campaign.schema.json\x07"),
    }
    with running_hub(str(tmp_path / "hub.sqlite3")) as hub:
        alice = register(hub.base, "alice")
        for path, spoil in places.items():
            doc = json.loads(map_text())
            spoil(doc)
            text = json.dumps(doc, indent=2)
            found = [d for d in check_text(text) if d.code == "CR228"]
            assert [(d.severity.value, d.json_path) for d in found] == [("warning", path)], path
            assert "would be refused by a hub" in found[0].message
            status, body, _ = call(hub.base, "POST", "/api/maps", body={"campaign": text}, token=alice)
            assert status == 422 and path in json.dumps(body), (path, status, body)


def test_a_refused_map_lists_its_first_hundred_problems_and_counts_them_all(tmp_path, monkeypatch) -> None:
    """A 3 MB file of 250,000 unknown keys was answered with every one of them (75 MB); now the first
    hundred, the reason counting them all. The same for the texts a hub refuses."""
    from cardrogue.hub import service

    with running_hub(str(tmp_path / "hub.sqlite3")) as hub:
        alice = register(hub.base, "alice")
        doc = json.loads(map_text())
        doc.update({f"extra-{i}": 0 for i in range(service.MAX_LISTED + 50)})
        status, body, _ = call(hub.base, "POST", "/api/maps", {"campaign": json.dumps(doc)}, token=alice)
        assert status == 422 and len(body["diagnostics"]) == service.MAX_LISTED == 100
        assert body["error"] == "the map does not pass the check (150 errors; the first 100 listed)"
        assert body["diagnostics"][0]["path"] == "$['extra-0']"
        monkeypatch.setattr(service, "MAX_LISTED", 2)
        doc = json.loads(map_text())
        doc["story"] = doc["description"] = doc["levels"][0]["story"] = "\x1b[31m"
        status, body, _ = call(hub.base, "POST", "/api/maps", {"campaign": json.dumps(doc)}, token=alice)
        assert status == 422 and len(body["problems"]) == 2, body
        assert body["error"].endswith("(3 texts refused; the first 2 listed)"), body["error"]


def test_a_nul_in_a_maps_address_or_a_search_is_a_4xx_on_either_backend(hub_db: str) -> None:
    """PostgreSQL's text holds no NUL: a map address or a search with one (``/api/maps/a%00b``, ``?q=%00``)
    reached the database and answered 500; SQLite's LIKE read ``q=%00`` as the empty pattern's start and
    listed every map. No map has such a name, and no stored text holds a control character (docs/hub.md)."""
    with running_hub(hub_db) as hub:
        alice = register(hub.base, "alice")
        text = map_text()
        assert call(hub.base, "POST", "/api/maps", {"campaign": text}, token=alice)[0] == 201
        for ref in ("a%00b", "needle%00", "%00", "needle%01", "needle%7F"):
            for method, path, kwargs in [("GET", f"/api/maps/{ref}", {}), ("GET", f"/api/maps/{ref}/file", {}),
                                         ("GET", f"/api/maps/{ref}/leaderboard", {}), ("GET", f"/maps/{ref}", {}),
                                         ("GET", f"/api/maps/{ref}/runs/{'0' * 64}/replay", {}),
                                         ("POST", f"/api/maps/{ref}/runs", dict(raw=solution(text).encode(), token=alice))]:
                status, body, _ = call(hub.base, method, path, **kwargs)
                assert status == 404, (path, status, body)
        for query in ("%00", "needle%00", "%00needle", "%1B%5B31m"):
            status, body, _ = call(hub.base, "GET", f"/api/maps?q={query}")
            assert status == 400 and "control character" in body["error"], (query, status, body)
            status, page, _ = call(hub.base, "GET", f"/?q={query}")
            assert status == 400 and "control character" in page, (query, status)
        assert hub.state.internal_errors == 0


def test_a_body_sent_as_another_type_than_json_is_refused_415(tmp_path) -> None:
    """A body declared text/plain, a form or multipart was read as JSON all the same (hub18): a page of any site
    may send those across sites without asking (no CORS preflight), so a form's enctype=text/plain registered
    accounts on a hub its visitor can reach, eating that visitor's registrations a minute. A declared type
    other than JSON is refused; no type at all is read as JSON, as before."""
    with running_hub(str(tmp_path / "hub.sqlite3")) as hub:
        alice = register(hub.base, "alice")
        text = map_text()
        assert call(hub.base, "POST", "/api/maps", {"campaign": text}, token=alice)[0] == 201
        before = _counts(hub)
        bodies = {"/api/accounts": (json.dumps({"name": "csrf"}).encode(), None),
                  "/api/maps": (json.dumps({"campaign": map_text("other", "Other")}).encode(), alice),
                  "/api/maps/needle/runs": (solution(text).encode(), alice)}
        for kind in ("text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
                     "multipart/form-data; boundary=x", "application/jsonp", "text/json-but-not"):
            for path, (raw, token) in bodies.items():
                status, body, _ = call(hub.base, "POST", path, raw=raw, token=token, headers={"Content-Type": kind})
                assert status == 415 and "application/json" in body["error"], (kind, path, status, body)
        assert _counts(hub) == before
        for kind in ("application/json; charset=utf-8", "Application/JSON", "application/vnd.cardrogue+json"):
            status, body, _ = call(hub.base, "POST", "/api/accounts", raw=json.dumps({"name": f"ok{len(kind)}"}).encode(),
                                   headers={"Content-Type": kind})
            assert status == 201, (kind, status, body)
        request = urllib.request.Request(hub.base + "/api/accounts", data=b'{"name": "untyped"}', method="POST")
        request.remove_header("Content-type")  # urllib would add the form type: none at all here
        assert _raw_status(request) == 201
        assert hub.state.internal_errors == 0


def _raw_status(request) -> int:
    """The status of a request sent as built (no Content-Type unless it has one)."""
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(request.full_url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    try:
        connection.request(request.get_method(), parts.path, body=request.data, headers=dict(request.header_items()))
        return connection.getresponse().status
    finally:
        connection.close()


def test_no_cache_keeps_an_answer_that_holds_a_token_or_needs_one(hub_db: str) -> None:
    """A registration's and a rotation's answers hold the account's token; /api/me says whose a token is; every
    answer to a request with a token is that account's. No cache (a proxy's, the browser's) may keep them:
    ``Cache-Control: no-store`` (RFC 6749, 5.1, for an answer with a token). The public listings stay cacheable."""
    with running_hub(hub_db) as hub:
        status, body, headers = call(hub.base, "POST", "/api/accounts", {"name": "alice"})
        answers = {"register": (status, headers)}
        token = body["token"]
        answers["me"] = call(hub.base, "GET", "/api/me", token=token)[::2]
        answers["me refused"] = call(hub.base, "GET", "/api/me", token="x" * 43)[::2]
        answers["publish refused"] = call(hub.base, "POST", "/api/maps", {"campaign": "{"}, token=token)[::2]
        answers["map with a token"] = call(hub.base, "GET", "/api/maps", token=token)[::2]
        rotated = call(hub.base, "POST", "/api/me/token", {}, token=token)
        answers["rotate"] = rotated[::2]
        answers["revoke"] = call(hub.base, "DELETE", "/api/me/token", token=rotated[1]["token"])[::2]
        for what, (status, headers) in answers.items():
            assert {k.lower(): v for k, v in headers.items()}.get("cache-control") == "no-store", (what, status, headers)
        for path in ("/api/maps", "/", "/api/maps/nowhere"):
            assert "no-store" not in call(hub.base, "GET", path)[2].get("cache-control", ""), path


def test_a_body_in_a_content_encoding_other_than_identity_is_refused_415(tmp_path) -> None:
    """A body labelled `Content-Encoding: gzip` (or any coding) was read as it came, undecoded: plain JSON so labelled
    registered an account, which a proxy or a log reader decoding the label would read as another body (or as none).
    The hub decodes no coding (no decompression bomb to bound): any coding but identity is refused, 415 naming the
    header, with `Accept-Encoding: identity` (RFC 9110, 15.5.16), and nothing stored. The hub's client sends none."""
    import gzip

    with running_hub(str(tmp_path / "hub.sqlite3")) as hub:
        alice = register(hub.base, "alice")
        text = map_text()
        assert call(hub.base, "POST", "/api/maps", {"campaign": text}, token=alice)[0] == 201
        before = _counts(hub)
        bodies = {"/api/accounts": (json.dumps({"name": "zipped"}).encode(), None),
                  "/api/maps": (json.dumps({"campaign": map_text("other", "Other")}).encode(), alice),
                  "/api/maps/needle/runs": (solution(text).encode(), alice),
                  "/api/me/token": (b"{}", alice)}
        for coding in ("gzip", "deflate", "br", "x-gzip", "identity, gzip", "GZIP", "zstd"):
            for path, (raw, token) in bodies.items():
                for sent in (raw, gzip.compress(raw)):
                    status, body, headers = call(hub.base, "POST", path, raw=sent, token=token,
                                                 headers={"Content-Encoding": coding})
                    assert status == 415 and "Content-Encoding" in body["error"], (coding, path, status, body)
                    assert headers.get("accept-encoding") == "identity", headers
        assert _counts(hub) == before
        assert call(hub.base, "GET", "/api/me", token=alice)[0] == 200  # (not rotated away)
        for i, coding in enumerate(("identity", "Identity", " identity ")):
            status, body, _ = call(hub.base, "POST", "/api/accounts", raw=json.dumps({"name": f"ok{i}"}).encode(),
                                   headers={"Content-Encoding": coding})
            assert status == 201, (coding, status, body)
        assert hub.state.internal_errors == 0


def _raw_answer(base: str, method: str, path: str, headers: dict) -> tuple[int, dict, bytes]:
    """One request sent as written (``Host`` too), its redirect not followed: (status, headers, body)."""
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    try:
        connection.putrequest(method, path, skip_host="Host" in headers)
        for name, value in headers.items():
            connection.putheader(name, value)
        connection.endheaders()
        answer = connection.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        connection.close()


def test_a_content_encoding_sent_twice_is_read_whole(tmp_path) -> None:
    """`Content-Encoding: identity` then `Content-Encoding: gzip`, two header lines: the hub read the first alone and
    registered the account (201), where a proxy joining the lines reads the body as gzip, the mismatch the 415 is for
    (review25b). Every line is read."""
    import http.client
    from urllib.parse import urlsplit

    with running_hub(str(tmp_path / "hub.sqlite3")) as hub:
        parts = urlsplit(hub.base)
        before = _counts(hub)
        for lines in (("identity", "gzip"), ("gzip", "identity"), ("", "br")):
            body = json.dumps({"name": "twice"}).encode()
            connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
            try:
                connection.putrequest("POST", "/api/accounts")
                connection.putheader("Content-Type", "application/json")
                connection.putheader("Content-Length", str(len(body)))
                for coding in lines:
                    connection.putheader("Content-Encoding", coding)
                connection.endheaders(body)
                answer = connection.getresponse()
                status, said = answer.status, json.loads(answer.read())
            finally:
                connection.close()
            assert status == 415 and "Content-Encoding" in said["error"], (lines, status, said)
        assert _counts(hub) == before
        assert hub.state.internal_errors == 0


def test_a_hostile_host_header_is_never_echoed_into_a_redirect_or_a_link(tmp_path) -> None:
    """Starlette's trailing-slash redirect wrote its Location from the request's Host header: `GET /api/maps/` with
    `Host: evil.example` was sent to http://evil.example/api/maps (host header injection; a cache in front keeps
    the redirect for every visitor). The hub's redirect is relative now (the path and query alone, 308: the method
    and body kept), and nothing the hub writes, pages and API answers, holds the Host it was asked with."""
    hostile = "evil.example"
    with running_hub(str(tmp_path / "hub.sqlite3"), settings=replace(FAST, play_url="https://play.example/map/{hash}")) as hub:
        alice = register(hub.base, "alice")
        text = map_text()
        status, published, _ = call(hub.base, "POST", "/api/maps", {"campaign": text}, token=alice)
        assert status == 201
        for path, where in [("/api/maps/?q=needle", "/api/maps?q=needle"), ("/maps/needle/", "/maps/needle"),
                            ("/api/maps/needle/leaderboard/", "/api/maps/needle/leaderboard"),
                            ("/maps/needle//?every=1", "/maps/needle?every=1")]:
            for host in (hostile, "evil.example:443", "127.0.0.1@evil.example"):
                status, headers, _ = _raw_answer(hub.base, "GET", path, {"Host": host})
                assert status == 308 and headers["location"] == where, (path, host, status, headers)
        status, headers, _ = _raw_answer(hub.base, "GET", "/maps/needle", {"Host": hostile})
        assert status == 200
        for path in ("//evil.example/", "///evil.example//", "/\\evil.example/", "/nowhere/"):
            status, headers, _ = _raw_answer(hub.base, "GET", path, {"Host": hostile})
            assert status == 404 and "location" not in headers, (path, status, headers)
        submitted = call(hub.base, "POST", "/api/maps/needle/runs", raw=solution(text).encode(), token=alice)
        assert submitted[0] == 201
        for path in ("/", "/maps/needle", f"/maps/{published['hash']}?every=1", "/api/maps", "/api/maps/needle",
                     "/api/maps/needle/leaderboard", "/api/maps/needle/file", "/nowhere", "/api/nowhere"):
            status, headers, body = _raw_answer(hub.base, "GET", path, {"Host": hostile})
            assert hostile.encode() not in body and all(hostile not in v for v in headers.values()), (path, status)
            assert status in (200, 404), (path, status)
        status, headers, body = _raw_answer(hub.base, "GET", "/maps/needle", {"Host": hostile})
        assert b"https://play.example/map/" + published["hash"].encode() in body  # (the operator's --play-url)
        assert hub.state.internal_errors == 0


def test_a_hub_given_allowed_hosts_answers_no_other_host(tmp_path, capsys) -> None:
    """`serve --allowed-host NAME`: a request whose Host names another host (a name of an attacker's pointed at a
    hub on 127.0.0.1, DNS rebinding, making a page of theirs same-origin with it) is refused, 400, with the hub's
    headers and without repeating the header; the names given are answered whatever their case or port. Without
    the option every host is answered (nothing the hub writes is built from it)."""
    with running_hub(str(tmp_path / "hub.sqlite3"),
                     settings=replace(FAST, allowed_hosts=("hub.example", "127.0.0.1", "[::1]"))) as hub:
        for host in ("hub.example", "HUB.example:8765", "127.0.0.1:80", "[::1]:8765"):
            status, headers, _ = _raw_answer(hub.base, "GET", "/api/maps", {"Host": host})
            assert status == 200, (host, status)
        for host in ("evil.example", "hub.example.evil.example", "evil.example:443", "", "hub.example@evil.example"):
            status, headers, body = _raw_answer(hub.base, "POST", "/api/accounts", {"Host": host,
                                                                                    "Content-Length": "0"})
            assert status == 400 and b"Host header" in body and b"evil" not in body, (host, status, body)
            assert headers["x-frame-options"] == "DENY", headers
        assert hub.state.internal_errors == 0
    for bad in ("http://hub.example", "hub.example:8765", "hub.example/x", ""):
        code = main(["hub", "serve", "--db", str(tmp_path / "hub.sqlite3"), "--port", "1", "--allowed-host", bad])
        assert code == 2 and "--allowed-host" in capsys.readouterr().err, bad
