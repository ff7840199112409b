"""The dealer's web console (``stud dealer``) through its HTTP API: whole hands, the state's fields, the journal
file kept entry by entry, the card reader, hostile requests refused without a change, and the command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from studpoker.cards import RANK_CHARS
from studpoker.console import journal
from studpoker.console.app import create_app
from studpoker.console.schemas import MAX_BODY
from studpoker.history import phh, verify

ORIGIN = {"Origin": "http://testserver"}
TOKEN = "a-reader-token-for-the-tests"
SIGN = {"game": "stud", "small_bet": 10, "big_bet": 20, "ante": 1, "bring_in": 3}
DECK = [rank + suit for suit in "shdc" for rank in reversed(RANK_CHARS)]  # As Ks Qs ... 2c
# Three-handed, dealt in order: two down cards and the door card round the table; seat 3's door 2c brings in.
ORDER_3 = ["Kh", "9d", "5h", "Kd", "8s", "6h", "Ks", "Jd", "2c", "Qh", "Td", "7h", "4c", "3d", "8h", "9c", "4d", "Jh"]
ORDER_3 += ["Ah", "Ad", "Tc"]


def client(tmp_path: Path, **options: Any) -> TestClient:
    """A console on ``tmp_path/session.jsonl`` answering the test client's ``Host: testserver``."""
    options.setdefault("static", tmp_path / "static")
    app = create_app(tmp_path / "session.jsonl", allowed_hosts=["testserver"], **options)
    return TestClient(app)


def post(c: TestClient, path: str, body: Any = None, status: int = 200, **headers: str) -> dict[str, Any]:
    response = c.post(path, json={} if body is None else body, headers={**ORIGIN, **headers})
    assert response.status_code == status, response.text
    data: dict[str, Any] = response.json()
    return data


def state(c: TestClient) -> dict[str, Any]:
    response = c.get("/api/state")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def seated(c: TestClient, *stacks: int, sign: dict[str, Any] | None = None) -> None:
    """The sign, then a player with each stack in seats 1, 2, 3..."""
    post(c, "/api/sign", sign or SIGN)
    for seat, chips in enumerate(stacks, 1):
        post(c, "/api/buy-in", {"seat": seat, "name": ["Ann", "Bob", "Cy", "Dee", "Eve"][seat - 1], "chips": chips})


def deal_street(c: TestClient, cards: list[str]) -> dict[str, Any]:
    """Deal cards while cards are asked for, from the front of ``cards``."""
    current = state(c)
    while current["needed"]["kind"] == "card":
        current = post(c, "/api/card", {"card": cards.pop(0)})["state"]
    return current


def passive(current: dict[str, Any]) -> dict[str, Any]:
    """The most passive legal action of ``actions``: check, call or bring in."""
    by_kind = {a["action"]: a for a in current["actions"]}
    for kind in ("check", "call", "bring-in"):
        if kind in by_kind:
            return {"action": kind, "amount": by_kind[kind]["amount"]}
    raise AssertionError(f"no passive action in {current['actions']}")


def play_out(c: TestClient, cards: list[str]) -> dict[str, Any]:
    """Deal and act passively until the hand is over."""
    current = state(c)
    while current["playing"]:
        if current["needed"]["kind"] == "card":
            current = deal_street(c, cards)
        else:
            current = post(c, "/api/action", passive(current))["state"]
    return current


def journal_of(tmp_path: Path) -> list[dict[str, Any]]:
    return journal.load(tmp_path / "session.jsonl")[1]


# -- a whole hand ----------------------------------------------------------------------------------------------


def test_a_whole_hand_through_the_api(tmp_path: Path) -> None:
    c = client(tmp_path)
    assert state(c)["sign"] is None and state(c)["needed"]["kind"] == "sign"
    answer = post(c, "/api/sign", SIGN)
    assert answer["state"]["sign"]["game"] == "STUD7" and answer["state"]["sign"]["min_buy_in"] == 200
    assert answer["state"]["needed"]["kind"] == "seats" and answer["ruling"] is None
    post(c, "/api/buy-in", {"seat": 1, "name": "Ann", "chips": 200})
    post(c, "/api/buy-in", {"seat": 3, "name": "Bob", "chips": 300})
    started = post(c, "/api/start")["state"]
    assert started["playing"] and started["hand"] == 1 and started["needed"]["text"].startswith("deal seat 1 (Ann)")
    cards = ["Ah", "Kd", "Qs", "Jc", "9s", "2c"]
    current = deal_street(c, cards)
    assert current["needed"]["kind"] == "action" and current["needed"]["seat"] == 3
    assert [a["label"] for a in current["actions"]] == ["bring in 3", "complete to 10"]
    answer = post(c, "/api/action", {"action": "bring-in", "amount": 3})
    assert answer["said"] == ["Bob brings in for 3"]
    assert [a["action"] for a in answer["state"]["actions"]] == ["fold", "call", "complete"]
    post(c, "/api/action", {"action": "call"})  # the amount may be left out: one call is legal
    final = play_out(c, ["8d", "7d", "6d", "5d", "4d", "3d", "Th", "Td", "2h", "3h"])
    assert final["needed"]["kind"] == "start" and not final["playing"]
    assert final["pushes"] and sum(p["amount"] for p in final["pushes"]) == 2 + 3 + 3  # the antes, bring-in and call
    assert any("wins" in line for line in final["said"])
    report = c.get("/api/report").json()
    assert report["balanced"] and report["hands"] == 1 and {p["name"] for p in report["players"]} == {"Ann", "Bob"}
    assert sum(p["result"] for p in report["players"]) == 0
    every = c.get("/api/hands.phh")
    assert every.status_code == 200 and every.headers["content-type"].startswith("text/plain")
    assert "attachment" in every.headers["content-disposition"]
    verify(phh.loads_hand(every.text))
    one = c.get("/api/hands/1.phh")
    assert one.status_code == 200 and one.text == every.text
    missing = c.get("/api/hands/2.phh")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    # every entry is in the file, in order
    assert len(journal_of(tmp_path)) == final["journal"]


def test_the_state_as_the_contract_says(tmp_path: Path) -> None:
    c = client(tmp_path)
    seated(c, 200, 200, 200)
    post(c, "/api/start")
    first = post(c, "/api/card", {"card": None})["state"]  # seat 1's first card, dealt unseen
    assert first["seats"][0]["down"] == ["??"] and first["last"] == "deal an unseen card to seat 1"
    cards = ORDER_3[1:]
    current = deal_street(c, cards)
    ann, _, cy = current["seats"]
    assert ann["up"] == ["Ks"] and ann["down"] == ["??", "Kd"] and cy["up"] == ["2c"] and cy["down"] == ["5h", "6h"]
    assert ann["chips"] == 199 and current["pot"] == 3 and current["burns"] == 0 and not current["burn_first"]
    assert cy["to_act"] and not ann["to_act"] and not any(s["high_on_board"] for s in current["seats"])
    assert current["street"] == 3 and current["street_name"] == "3rd street"
    post(c, "/api/action", {"action": "bring-in", "amount": 3})
    post(c, "/api/action", {"action": "complete", "amount": 10})
    current = post(c, "/api/action", {"action": "call", "amount": 10})["state"]
    assert current["seats"][0]["bet"] == 10 and current["seats"][1]["bet"] == 10
    current = post(c, "/api/action", {"action": "call", "amount": 10})["state"]
    # 4th street: the engine burned a card before its first; the page says so for that card only
    assert current["street"] == 4 and current["burns"] == 1 and current["burn_first"]
    assert current["needed"]["kind"] == "card" and current["needed"]["face_up"]
    current = post(c, "/api/card", {"card": cards.pop(0)})["state"]
    assert current["burns"] == 1 and not current["burn_first"]
    current = deal_street(c, cards)
    high = [s["seat"] for s in current["seats"] if s["high_on_board"]]
    assert high == [1] and current["seats"][0]["to_act"]  # a pair of kings showing
    assert any("high" in line for line in current["said"])
    assert current["pots"] == [{"name": "main pot", "amount": 33, "seats": [1, 2, 3]}]
    assert {c_["case"] for c_ in current["cases"]} >= {"misdeal", "premature card"}
    assert current["max_seats"] == 8 and current["reader"] is False


def test_side_pots_in_a_three_way_all_in(tmp_path: Path) -> None:
    c = client(tmp_path)
    seated(c, 11, 21, 200, sign={**SIGN, "min_buy_in": 10})
    post(c, "/api/start")
    cards = ORDER_3.copy()
    current = deal_street(c, cards)
    assert current["needed"]["seat"] == 3
    post(c, "/api/action", {"action": "bring-in", "amount": 3})
    current = post(c, "/api/action", {"action": "complete", "amount": 10})["state"]  # seat 1: all in
    assert current["seats"][0]["all_in"] and current["seats"][0]["chips"] == 0
    current = post(c, "/api/action", {"action": "raise", "amount": 20})["state"]  # seat 2: all in
    current = post(c, "/api/action", {"action": "call", "amount": 20})["state"]
    assert current["pots"] == [
        {"name": "main pot", "amount": 33, "seats": [1, 2, 3]},
        {"name": "side pot 1", "amount": 20, "seats": [2, 3]},
    ]
    assert current["pot"] == 53
    final = play_out(c, cards)
    assert sum(p["amount"] for p in final["pushes"]) == 53
    assert [p["text"] for p in final["pushes"]] == ["push Bob 33 (main pot)", "push Bob 20 (side pot 1)"]
    assert c.get("/api/report").json()["balanced"]


def test_irregularity_and_its_ruling(tmp_path: Path) -> None:
    c = client(tmp_path)
    seated(c, 200, 200, 200)
    post(c, "/api/start")
    post(c, "/api/card", {"card": "Kh"})
    answer = post(c, "/api/irregularity", {"case": "misdeal", "seat": None, "card": None})
    ruling = answer["ruling"]
    assert ruling["case"] == "misdeal" and "misdeal" in ruling["ruling"] and ruling["rule"] and ruling["next"]
    assert ruling["text"].startswith(ruling["what"])
    assert answer["state"]["seats"][0]["down"] == [] and answer["state"]["last"] == "irregularity: misdeal"
    assert journal_of(tmp_path)[-1] == {"entry": "irregularity", "case": "misdeal", "seat": None, "card": None}
    refused = post(c, "/api/irregularity", {"case": "absent player", "seat": 2}, status=409)
    assert refused["error"]["code"] == "refused" and "when the action is on him" in refused["error"]["message"]


# -- the journal file ------------------------------------------------------------------------------------------


def test_a_new_console_on_the_journal_picks_up_mid_hand(tmp_path: Path) -> None:
    c = client(tmp_path)
    seated(c, 200, 200, 200)
    post(c, "/api/start")
    cards = ORDER_3.copy()
    deal_street(c, cards)
    post(c, "/api/action", {"action": "bring-in", "amount": 3})
    before = state(c)
    again = client(tmp_path)  # the tablet switched off and on
    assert state(again) == before
    assert before["journal"] == len(journal_of(tmp_path)) == 3 + 1 + 9 + 1  # buy-ins, start, cards, the bring-in


def test_undo_takes_back_the_last_entry_and_rewrites_the_file(tmp_path: Path) -> None:
    c = client(tmp_path)
    seated(c, 200, 200)
    post(c, "/api/start")
    before = state(c)
    file_before = (tmp_path / "session.jsonl").read_bytes()
    post(c, "/api/card", {"card": "Ah"})
    assert len(journal_of(tmp_path)) == before["journal"] + 1
    answer = post(c, "/api/undo")
    assert answer["state"] == before and answer["said"] == [] and answer["ruling"] is None
    assert (tmp_path / "session.jsonl").read_bytes() == file_before
    assert not (tmp_path / "session.jsonl.tmp").exists()
    assert state(client(tmp_path)) == before
    for _ in range(before["journal"]):
        post(c, "/api/undo")
    refused = post(c, "/api/undo", status=409)
    assert "nothing to undo" in refused["error"]["message"]


def test_an_entry_the_file_cannot_take_is_undone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    c = client(tmp_path)
    seated(c, 200, 200)
    before, file_before = state(c), (tmp_path / "session.jsonl").read_bytes()

    def full(path: object, entry: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(journal, "append", full)
    error = post(c, "/api/start", status=503)["error"]
    assert error["code"] == "refused" and "No space left on device" in error["message"]
    assert state(c) == before and (tmp_path / "session.jsonl").read_bytes() == file_before
    monkeypatch.undo()
    assert post(c, "/api/start")["state"]["playing"]


def test_the_sign_only_while_the_journal_is_empty(tmp_path: Path) -> None:
    c = client(tmp_path)
    post(c, "/api/sign", SIGN)
    post(c, "/api/sign", {**SIGN, "game": "razz"})  # no entry yet: the sign may be put right
    assert state(c)["sign"]["game"] == "RAZZ"
    bad = post(c, "/api/sign", {**SIGN, "bring_in": 30}, status=409)  # a sign the engine refuses: still razz
    assert bad["error"]["code"] == "refused" and "bring_in 30" in bad["error"]["message"]
    assert state(c)["sign"]["game"] == "RAZZ"
    post(c, "/api/buy-in", {"seat": 1, "name": "Ann", "chips": 200})
    refused = post(c, "/api/sign", SIGN, status=409)
    assert refused["error"]["code"] == "refused" and state(c)["sign"]["game"] == "RAZZ"
    assert journal.load(tmp_path / "session.jsonl")[0].game.name == "RAZZ"


def test_the_house_rules_on_the_sign(tmp_path: Path) -> None:
    """The odd chip and the last card exposed are the house's: the sign carries them into the journal."""
    c = client(tmp_path)
    post(c, "/api/sign", {**SIGN, "odd_chip": "seat", "seventh_card": "face up"})
    sign = state(c)["sign"]
    assert (sign["odd_chip"], sign["seventh_card"]) == ("seat", "face up")
    assert journal.load(tmp_path / "session.jsonl")[0].seventh_card == "face up"
    bad = post(c, "/api/sign", {**SIGN, "seventh_card": "burn it"}, status=409)
    assert "seventh_card" in bad["error"]["message"] and state(c)["sign"]["seventh_card"] == "face up"
    post(c, "/api/sign", SIGN)
    assert state(c)["sign"]["seventh_card"] == "replace"  # the spec's ruling unless the house says otherwise


def test_entries_before_the_sign_are_refused(tmp_path: Path) -> None:
    c = client(tmp_path)
    refused = post(c, "/api/buy-in", {"seat": 1, "name": "Ann", "chips": 200}, status=409)
    assert refused["error"]["code"] == "refused" and "sign" in refused["error"]["message"]
    assert not (tmp_path / "session.jsonl").exists()


# -- the card reader --------------------------------------------------------------------------------------------


def reader(c: TestClient, cards: list[str], token: str | None = TOKEN) -> Any:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    return c.post("/api/reader", json={"cards": cards}, headers=headers)


def test_the_reader_needs_its_token(tmp_path: Path) -> None:
    closed = client(tmp_path)
    seated(closed, 200, 200)
    post(closed, "/api/start")
    refused = reader(closed, ["Ah"])
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
    assert state(closed)["reader"] is False
    c = client(tmp_path, token=TOKEN)
    assert state(c)["reader"] is True
    for token in (None, "wrong", TOKEN + "x"):
        response = reader(c, ["Ah"], token)
        assert response.status_code == 403 and response.json()["error"]["code"] == "forbidden"
    basic = c.post("/api/reader", json={"cards": ["Ah"]}, headers={"Authorization": f"Basic {TOKEN}"})
    assert basic.status_code == 403
    assert state(c)["journal"] == 3


def test_the_reader_deals_in_turn_and_stops_at_the_first_refused(tmp_path: Path) -> None:
    c = client(tmp_path, token=TOKEN)
    seated(c, 200, 200)
    post(c, "/api/start")
    dealt = reader(c, ["Ah", "Kd", "Qs"])  # no Origin: a reader is not a browser
    assert dealt.status_code == 200
    seats = dealt.json()["state"]["seats"]
    assert seats[0]["down"] == ["Ah", "Qs"] and seats[1]["down"] == ["Kd"]
    refused = reader(c, ["Jc", "Ah", "9s"])  # Ah is already out: Jc stays, 9s is not dealt
    assert refused.status_code == 409
    error = refused.json()["error"]
    assert error["code"] == "refused" and error["dealt"] == 1 and "card 2 of 3 (Ah)" in error["message"]
    current = state(c)
    assert current["seats"][1]["down"] == ["Kd", "Jc"] and current["last"] == "deal Jc to seat 2"
    assert len(journal_of(tmp_path)) == current["journal"]


# -- hostile requests --------------------------------------------------------------------------------------------


def unchanged(c: TestClient, tmp_path: Path, before: dict[str, Any], file_before: bytes) -> None:
    assert state(c) == before
    assert (tmp_path / "session.jsonl").read_bytes() == file_before


@pytest.fixture
def table(tmp_path: Path) -> tuple[TestClient, dict[str, Any], bytes]:
    c = client(tmp_path, token=TOKEN)
    seated(c, 200, 200)
    return c, state(c), (tmp_path / "session.jsonl").read_bytes()


BAD_BODIES = [
    ("/api/buy-in", {"seat": 99, "name": "Eve", "chips": 200}, "seat"),
    ("/api/buy-in", {"seat": 0, "name": "Eve", "chips": 200}, "seat"),
    ("/api/buy-in", {"seat": 3, "name": "Eve", "chips": -5}, "chips"),
    ("/api/buy-in", {"seat": 3, "name": "Eve", "chips": 10**12}, "chips"),
    ("/api/buy-in", {"seat": 3, "name": "E" * 1000, "chips": 200}, "name"),
    ("/api/buy-in", {"seat": 3, "name": "   ", "chips": 200}, "name"),
    ("/api/buy-in", {"seat": True, "name": "Eve", "chips": 200}, "seat"),
    ("/api/buy-in", {"seat": "3", "name": "Eve", "chips": 200}, "seat"),
    ("/api/buy-in", {"seat": {"a": [1, {"b": None}]}, "name": ["x"], "chips": {}}, "seat"),
    ("/api/buy-in", {"seat": 3, "name": "Eve", "chips": 200, "admin": True}, "admin"),
    ("/api/buy-in", [1, 2, 3], "body"),
    ("/api/top-up", {"seat": 1}, "chips"),
    ("/api/card", {"card": "Zz"}, "card"),
    ("/api/card", {"card": "A" * 50}, "card"),
    ("/api/card", {}, "card"),
    ("/api/reveal", {"seat": 1, "cards": ["Ah"] * 8}, "cards"),
    ("/api/irregularity", {"case": "the dealer sneezed"}, "case"),
    ("/api/irregularity", {"case": "premature card", "card": "Xx"}, "card"),
    ("/api/action", {"action": "call", "amount": -1}, "amount"),
    ("/api/start", {"hand": 7}, "hand"),
    ("/api/sign", {**SIGN, "ante": -1}, "ante"),
]


@pytest.mark.parametrize(("path", "body", "field"), BAD_BODIES)
def test_a_body_that_does_not_fit_is_refused_and_changes_nothing(
    tmp_path: Path, table: tuple[TestClient, dict[str, Any], bytes], path: str, body: Any, field: str
) -> None:
    c, before, file_before = table
    error = post(c, path, body, status=422)["error"]
    assert error["code"] == "invalid" and field in error["message"]
    assert "Traceback" not in error["message"]
    unchanged(c, tmp_path, before, file_before)


def test_a_reader_body_too_long_is_refused(tmp_path: Path, table: tuple[TestClient, dict[str, Any], bytes]) -> None:
    c, before, file_before = table
    response = reader(c, ["Ah"] * 17)
    assert response.status_code == 422 and response.json()["error"]["code"] == "invalid"
    unchanged(c, tmp_path, before, file_before)


@pytest.mark.parametrize("raw", [b"{", b"not json", b'{"seat": 1, "name": "Ann", "chips": 2', b"\xff\xfe", b""])
def test_malformed_json_is_refused(tmp_path: Path, table: tuple[TestClient, dict[str, Any], bytes], raw: bytes) -> None:
    c, before, file_before = table
    response = c.post("/api/buy-in", content=raw, headers={**ORIGIN, "Content-Type": "application/json"})
    assert response.status_code == 422 and response.json()["error"]["code"] == "invalid"
    unchanged(c, tmp_path, before, file_before)


def test_a_refused_entry_changes_nothing(tmp_path: Path, table: tuple[TestClient, dict[str, Any], bytes]) -> None:
    c, before, file_before = table
    for path, body in (
        ("/api/buy-in", {"seat": 1, "name": "Cy", "chips": 200}),  # seat taken
        ("/api/buy-in", {"seat": 3, "name": "Cy", "chips": 5}),  # below the minimum
        ("/api/card", {"card": "Ah"}),  # no hand
        ("/api/action", {"action": "call"}),
        ("/api/leave", {"seat": 5}),
    ):
        error = post(c, path, body, status=409)["error"]
        assert error["code"] == "refused" and error["message"]
        unchanged(c, tmp_path, before, file_before)


def test_a_body_over_16_kb_is_refused(tmp_path: Path, table: tuple[TestClient, dict[str, Any], bytes]) -> None:
    c, before, file_before = table
    body = {"seat": 3, "name": "Eve", "chips": 200, "junk": "x" * 20_000}
    response = c.post("/api/buy-in", json=body, headers=ORIGIN)
    assert response.status_code == 413 and response.json()["error"]["code"] == "too_large"

    def chunks() -> Any:  # no Content-Length: the body is counted as it comes
        yield b'{"seat": 3, "name": "Eve", "chips": 200, "junk": "'
        for _ in range(MAX_BODY // 1000 + 1):
            yield b"x" * 1000
        yield b'"}'

    streamed = c.post("/api/buy-in", content=chunks(), headers={**ORIGIN, "Content-Type": "application/json"})
    assert streamed.status_code == 413 and streamed.json()["error"]["code"] == "too_large"
    unchanged(c, tmp_path, before, file_before)


@pytest.mark.parametrize(
    "headers",
    [
        {},  # no Origin
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Origin": "https://testserver"},
        {"Origin": "http://testserver.evil.example"},
    ],
)
def test_a_post_from_another_origin_is_refused(
    tmp_path: Path, table: tuple[TestClient, dict[str, Any], bytes], headers: dict[str, str]
) -> None:
    c, before, file_before = table
    response = c.post("/api/buy-in", json={"seat": 3, "name": "Eve", "chips": 200}, headers=headers)
    assert response.status_code == 403 and response.json()["error"]["code"] == "forbidden"
    unchanged(c, tmp_path, before, file_before)


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8765", "127.0.0.1:9999", "localhost", ""])
def test_a_request_for_another_host_is_refused(
    tmp_path: Path, table: tuple[TestClient, dict[str, Any], bytes], host: str
) -> None:
    c, before, file_before = table
    for response in (
        c.get("/api/state", headers={"Host": host}),
        c.post("/api/buy-in", json={"seat": 3, "name": "Eve", "chips": 200}, headers={**ORIGIN, "Host": host}),
        c.post("/api/reader", json={"cards": ["Ah"]}, headers={"Authorization": f"Bearer {TOKEN}", "Host": host}),
    ):
        assert response.status_code == 403 and response.json()["error"]["code"] == "forbidden"
    unchanged(c, tmp_path, before, file_before)


def test_a_header_given_twice_is_refused(tmp_path: Path, table: tuple[TestClient, dict[str, Any], bytes]) -> None:
    c, before, file_before = table
    body = json.dumps({"seat": 3, "name": "Eve", "chips": 200}).encode()
    for twice in ([("Host", "testserver"), ("Host", "evil.example")], [("Origin", "http://testserver")] * 2):
        headers = [("Content-Type", "application/json"), *twice]
        if twice[0][0] == "Host":
            headers.append(("Origin", "http://testserver"))
        response = c.post("/api/buy-in", content=body, headers=headers)
        assert response.status_code == 403 and response.json()["error"]["code"] == "forbidden"
    unchanged(c, tmp_path, before, file_before)


def test_the_served_host_and_its_loopback_names(tmp_path: Path) -> None:
    c = TestClient(create_app(tmp_path / "session.jsonl", port=8765), base_url="http://127.0.0.1:8765")
    for host in ("127.0.0.1:8765", "localhost:8765", "[::1]:8765"):
        assert c.get("/api/state", headers={"Host": host}).status_code == 200
        origin = {"Host": host, "Origin": f"http://{host}"}
        assert c.post("/api/sign", json=SIGN, headers=origin).status_code == 200
    other = {"Host": "127.0.0.1:8765", "Origin": "http://localhost:8765"}  # an alias of the same console
    assert c.post("/api/sign", json=SIGN, headers=other).status_code == 200
    assert c.get("/api/state", headers={"Host": "testserver"}).status_code == 403
    lan = TestClient(create_app(tmp_path / "lan.jsonl", host="0.0.0.0", port=8765))
    assert lan.get("/api/state", headers={"Host": "192.168.1.20:8765"}).status_code == 200
    assert lan.get("/api/state", headers={"Host": "localhost:8765"}).status_code == 200
    assert lan.get("/api/state", headers={"Host": "rebound.example:8765"}).status_code == 403
    own = {"Host": "192.168.1.20:8765", "Origin": "http://192.168.1.20:8765"}
    assert lan.post("/api/sign", json=SIGN, headers=own).status_code == 200
    foreign = {"Host": "192.168.1.20:8765", "Origin": "http://192.168.1.21:8765"}
    assert lan.post("/api/sign", json=SIGN, headers=foreign).status_code == 403


def test_security_headers_and_errors_in_one_shape(tmp_path: Path) -> None:
    folder = tmp_path / "static"
    folder.mkdir()
    (folder / "dealer.html").write_text("<!doctype html><title>dealer</title>\n")
    c = client(tmp_path, static=folder)
    for response in (c.get("/"), c.get("/static/dealer.html"), c.get("/api/state"), c.get("/api/nothing")):
        assert "default-src 'self'" in response.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "no-referrer"
    assert c.get("/").headers["content-type"].startswith("text/html") and "dealer" in c.get("/").text
    assert c.get("/api/nothing").json() == {"error": {"code": "not_found", "message": "no such page"}}
    assert c.get("/api/state").headers["cache-control"] == "no-store"
    wrong_method = c.get("/api/buy-in")
    assert wrong_method.status_code == 405 and set(wrong_method.json()["error"]) == {"code", "message"}
    assert c.get("/api/report").json()["error"]["code"] == "refused"  # no session yet
    empty = client(tmp_path / "none")
    assert empty.get("/").status_code == 404 and empty.get("/").json()["error"]["code"] == "not_found"


# -- the command and the import --------------------------------------------------------------------------------


def test_importing_the_console_does_not_import_fastapi() -> None:
    code = "import sys, studpoker.console; print([m for m in ('fastapi', 'starlette', 'pydantic') if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_stud_dealer_help(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.cli.helpers import stud

    code, out, _ = stud(capsys, "dealer", "--help")
    assert code == 0
    for option in ("--journal", "--host", "--port", "--reader-token", "--reader", "--no-browser"):
        assert option in out
    code, out, _ = stud(capsys, "--help")
    assert "dealer" in out


def test_stud_dealer_refuses_a_bad_journal_on_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.cli.helpers import stud

    bad = tmp_path / "session.jsonl"
    bad.write_text(json.dumps({"sign": {**SIGN, "game": "7stud"}}) + "\n" + '{"entry": "buy-in", "seat": 1,\n')
    code, out, err = stud(capsys, "dealer", "--journal", bad, "--no-browser")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("stud dealer: error: ") and "line 2" in err
    code, _, err = stud(capsys, "dealer", "--journal", bad, "--reader-token", "short", "--no-browser")
    assert code == 2 and "--reader-token" in err


def test_stud_dealer_says_where_it_serves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn

    from tests.cli.helpers import stud

    served: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: served.append(options))
    path = tmp_path / "folder" / "session.jsonl"
    code, out, err = stud(capsys, "dealer", "--journal", path, "--port", 18767, "--reader", "--no-browser")
    assert code == 0 and out == "" and served[0]["host"] == "127.0.0.1" and served[0]["port"] == 18767
    assert "http://127.0.0.1:18767/" in err and "Authorization: Bearer " in err and "warning" not in err
    assert path.parent.is_dir() and not path.exists()  # the file is written with the sign
    code, _, err = stud(capsys, "dealer", "--journal", path, "--host", "0.0.0.0", "--port", 18767, "--no-browser")
    assert code == 0 and "warning: listening on 0.0.0.0: anyone on the network" in err and "Bearer" not in err
    code, _, err = stud(capsys, "dealer", "--journal", path, "--port", 0, "--no-browser")
    assert code == 2 and err == "stud dealer: error: no port 0\n"


def test_the_default_journal_is_in_the_users_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from studpoker.cli.dealer import default_journal

    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_journal() == tmp_path / "studpoker" / "dealer" / "session.jsonl"


def test_stud_dealer_without_fastapi_names_the_server_extra(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    from tests.cli.helpers import stud

    find = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "fastapi" else find(name, *a))
    code, out, err = stud(capsys, "dealer", "--no-browser")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("stud dealer needs the web server's packages") and "server" in err
