"""Table chat: who may chat, what a line may hold, how often, and what every connection of the table gets."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from studpoker.server import chat
from studpoker.server.chat import ChatLimiter, ChatRefusedError, clean_text

from .conftest import User, create_table, drain, signup, until

# -- the rules of a line (pure) -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cleaned"),
    [
        ("gg", "gg"),
        ("  nice hand  ", "nice hand"),
        ("Cafe\u0301", "Caf\u00e9"),  # NFC
        ("<b>hi</b> & 'bye'", "<b>hi</b> & 'bye'"),  # verbatim: the server never escapes
        ("ｆｕｌｌ", "ｆｕｌｌ"),  # NFC, not NFKC: the line is what was typed
        ("x" * 200, "x" * 200),
        ("  " + "y" * 200 + "  ", "y" * 200),  # stripped first
        ("\u05e9\u05dc\u05d5\u05dd", "\u05e9\u05dc\u05d5\u05dd"),  # right-to-left text itself is fine
        ("a\u00a0b", "a\u00a0b"),  # a no-break space is a space
    ],
)
def test_lines_that_pass(text: str, cleaned: str) -> None:
    assert clean_text(text) == cleaned


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "needs some text"),
        ("   ", "needs some text"),
        ("x" * 201, "at most 200"),
        ("x" * 5000, "at most 200"),
        ("one\ntwo", "one line"),
        ("one\r\ntwo", "one line"),
        ("one\u2028two", "one line"),
        ("one\u2029two", "one line"),
        ("tab\there", "U+0009"),
        ("nul\x00", "U+0000"),
        ("bell\x07", "U+0007"),
        ("abc\u202egnp.exe", "U+202E (RIGHT-TO-LEFT OVERRIDE)"),
        ("\u2066isolate\u2069", "U+2066"),
        ("zero\u200bwidth", "U+200B"),
        ("joi\u200dner", "U+200D"),
        ("bom\ufeff", "U+FEFF"),
        ("lone \ud800 surrogate", "U+D800"),
        ("\x85next line", "one line"),
    ],
)
def test_lines_refused(text: str, why: str) -> None:
    with pytest.raises(ChatRefusedError, match=re.escape(why)) as refused:
        clean_text(text)
    assert refused.value.code == "bad_message"


@pytest.mark.parametrize("value", [None, 5, ["hi"], {"text": "hi"}, True])
def test_text_must_be_a_string(value: object) -> None:
    with pytest.raises(ChatRefusedError, match="string"):
        clean_text(value)


def test_the_limit_five_in_ten_seconds_and_one_per_half_second() -> None:
    limiter = ChatLimiter()
    limiter.check(1, 100.0)
    with pytest.raises(ChatRefusedError) as refused:
        limiter.check(1, 100.2)  # too soon after the last
    assert refused.value.code == "chat_rate_limited" and refused.value.retry_after == 0.3
    assert "try again in 0.3 s" in str(refused.value)
    limiter.check(2, 100.2)  # another account is counted apart
    for now in (100.5, 101.0, 101.5, 102.0):
        limiter.check(1, now)
    with pytest.raises(ChatRefusedError) as refused:
        limiter.check(1, 105.0)  # five in the last ten seconds already
    assert refused.value.retry_after == 5.0
    with pytest.raises(ChatRefusedError):
        limiter.check(1, 109.9)
    limiter.check(1, 110.0)  # the first one has left the window
    assert len(limiter.sent[1]) == chat.BURST  # never more than five times per account


def test_the_limiter_forgets_accounts_that_went_quiet() -> None:
    limiter = ChatLimiter()
    for account in range(1000):
        limiter.check(account, float(account))  # one new account a second
    assert len(limiter.sent) <= 64 + int(chat.WINDOW) + 1  # only the last ten seconds' accounts are kept


# -- over the table socket -----------------------------------------------------------------------------------


def send(ws: Any, **message: Any) -> None:
    ws.send_text(json.dumps({"type": "chat", **message}))


def chats(ws: Any) -> list[dict[str, Any]]:
    return [m for m in drain(ws, 0.1) if m["type"] in ("chat", "error")]


def table_with(client: TestClient) -> tuple[User, User, int]:
    ann, bob = signup(client, "ann"), signup(client, "bob")
    table_id = create_table(ann)
    assert ann.post(f"/api/tables/{table_id}/sit", {"buy_in": 400, "seat": 3}).status_code == 200
    return ann, bob, table_id


def test_a_line_goes_to_every_connection_verbatim(client: TestClient) -> None:
    ann, bob, table_id = table_with(client)
    with ann.socket(table_id) as a, bob.socket(table_id) as b, client.websocket_connect(f"/ws/table/{table_id}") as v:
        for ws in (a, b, v):
            until(ws, "snapshot")
        send(a, text="  <script>alert('hi')</script> &amp; \u00e9  ")
        got = [until(ws, "chat") for ws in (a, b, v)]
        assert got[0] == got[1] == got[2]
        line = got[0]
        assert set(line) == {"type", "id", "account_id", "name", "seat", "text", "at"}
        assert line["text"] == "<script>alert('hi')</script> &amp; \u00e9"  # stripped, never escaped
        assert (line["account_id"], line["name"], line["seat"]) == (ann.id, "ann", 3)
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", line["at"])
        time.sleep(0.55)
        send(b, text="hello")  # a spectator who is signed in may chat: his seat is null
        second = until(a, "chat")
        assert (second["name"], second["seat"], second["id"]) == ("bob", None, line["id"] + 1)


def test_a_visitor_may_not_chat(client: TestClient) -> None:
    ann, _bob, table_id = table_with(client)
    with ann.socket(table_id) as a, client.websocket_connect(f"/ws/table/{table_id}") as v:
        until(a, "snapshot")
        until(v, "snapshot")
        send(v, text="hi all")
        error = until(v, "error")
        assert error["code"] == "not_logged_in"
        assert chats(a) == []  # nothing broadcast
        v.send_text('{"type": "ping"}')
        assert until(v, "pong") == {"type": "pong"}  # the visitor's socket stays open


@pytest.mark.parametrize(
    "message",
    [
        {"text": "x" * 201},
        {"text": "line one\nline two"},
        {"text": "evil\u202etxt.exe"},
        {"text": "\x00"},
        {"text": ""},
        {"text": "   "},
        {"text": 42},
        {"text": None},
        {"text": ["hi"]},
        {},
    ],
)
def test_refused_lines_reach_nobody(client: TestClient, message: dict[str, Any]) -> None:
    ann, bob, table_id = table_with(client)
    with ann.socket(table_id) as a, bob.socket(table_id) as b:
        until(a, "snapshot")
        until(b, "snapshot")
        send(a, **message)
        error = until(a, "error")
        assert error["code"] == "bad_message" and error["message"]
        assert chats(b) == []
        assert until_snapshot(a)["chat"] == []  # and the history is untouched
        send(a, text="fine")  # at once: a refused line was not counted against the limit (one per 0.5 s)
        assert until(b, "chat")["text"] == "fine"


def until_snapshot(ws: Any) -> dict[str, Any]:
    ws.send_text('{"type": "snapshot"}')
    return until(ws, "snapshot")


def test_the_rate_limit_is_per_account_over_every_tab(client: TestClient) -> None:
    ann, bob, table_id = table_with(client)
    with ann.socket(table_id) as tab1, ann.socket(table_id) as tab2, bob.socket(table_id) as b:
        for ws in (tab1, tab2, b):
            until(ws, "snapshot")
        send(tab1, text="one")
        send(tab2, text="two")  # at once from the other tab: too soon for the account
        error = until(tab2, "error")
        assert error["code"] == "chat_rate_limited" and 0 < error["retry_after"] <= 0.5
        assert "try again in" in error["message"]
        got = [m["text"] for m in chats(b) if m["type"] == "chat"]
        assert got == ["one"]
        for i in range(4):
            time.sleep(0.52)
            send(tab1 if i % 2 else tab2, text=f"line {i}")
        time.sleep(0.52)
        send(tab1, text="sixth")  # five lines in the last ten seconds: refused whichever tab sends it
        error = until(tab1, "error")
        assert error["code"] == "chat_rate_limited" and error["retry_after"] > 5
        got = [m["text"] for m in chats(b) if m["type"] == "chat"]
        assert got == ["line 0", "line 1", "line 2", "line 3"]
        send(b, text="bob is counted apart")
        assert until(tab1, "chat")["name"] == "bob"


def test_the_snapshot_carries_the_last_fifty_lines(client: TestClient) -> None:
    ann, bob, table_id = table_with(client)
    room = client.app.state.room  # type: ignore[attr-defined]
    actor = room.actor(table_id)
    actor.viewers.chat_limiter = ChatLimiter(burst=1000, window=1.0, interval=0.0)  # this test is about the history
    with ann.socket(table_id) as a:
        until(a, "snapshot")
        for i in range(60):
            if i and i % 15 == 0:
                time.sleep(1.05)  # a connection may send 20 frames a second
            send(a, text=f"line {i}")
        for _ in range(60):
            until(a, "chat")
        with bob.socket(table_id) as b:
            history = until(b, "snapshot")["chat"]
        assert [m["text"] for m in history] == [f"line {i}" for i in range(10, 60)]
        assert [m["id"] for m in history] == list(range(11, 61))
        assert len(actor.chat_log) == chat.HISTORY == 50  # what the table keeps, whatever was said
    with client.websocket_connect(f"/ws/table/{table_id}") as visitor:
        assert len(until(visitor, "snapshot")["chat"]) == 50  # visitors read it too


def test_a_longest_line_fits_a_frame(client: TestClient) -> None:
    ann, bob, table_id = table_with(client)
    with ann.socket(table_id) as a, bob.socket(table_id) as b:
        until(a, "snapshot")
        until(b, "snapshot")
        send(a, text="\U0001f0a1" * 200)  # 200 playing-card characters: 800 bytes of UTF-8, 2,400 as JSON escapes
        assert until(b, "chat")["text"] == "\U0001f0a1" * 200
