"""The journal file: JSON lines, the sign first, an fsync'd line an entry; a malformed file is refused by line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studpoker.console import DealerSession, JournalError, Sign, append, load, save
from studpoker.console.journal import check_entry

SIGN = Sign.of("stud", small_bet=10, big_bet=20, ante=1, bring_in=3, odd_chip="seat")


def a_session_mid_hand() -> DealerSession:
    session = DealerSession(SIGN)
    session.buy_in(1, "Ann", 200)
    session.buy_in(4, "Bob", 250)
    session.start_hand()
    for card in ("??", "??", "??", "??", "Kh", "2c"):
        session.deal(card)
    session.act("bring in")
    return session


def test_a_session_saved_and_loaded_is_the_same_session(tmp_path: Path) -> None:
    session = a_session_mid_hand()
    path = tmp_path / "table.jsonl"
    session.save(path)
    again = DealerSession.load(path)
    assert again.journal == session.journal and again.sign == SIGN
    assert str(again.needed()) == str(session.needed()) == "seat 1 (Ann) to act: fold, call 3, complete to 10"
    assert again.hand is not None and session.hand is not None and again.hand.events == session.hand.events


def test_each_entry_is_appended_as_it_is_made(tmp_path: Path) -> None:
    """What a tablet does: save once, then append each step's entry; switched off mid-hand, it loses nothing."""
    path = tmp_path / "table.jsonl"
    session = DealerSession(SIGN)
    save(path, SIGN, ())
    for step in (session.buy_in(1, "Ann", 200), session.buy_in(2, "Bob", 200), session.start_hand()):
        append(path, step.entry)
    for card in ("Ah", "Kd", "Qs", "Jc", "9s", "2c"):
        append(path, session.deal(card).entry)
    lines = path.read_text().splitlines()
    assert len(lines) == 10 and json.loads(lines[0])["sign"]["odd_chip"] == "POSITION"
    assert json.loads(lines[-1]) == {"entry": "card", "seat": 2, "card": "2c"}
    sign, entries = load(path)
    assert sign == SIGN and tuple(entries) == session.journal
    assert str(DealerSession.from_journal(sign, entries).needed()) == "seat 2 (Bob) to act: bring in 3, complete to 10"


def test_a_last_line_cut_short_is_refused_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "table.jsonl"
    a_session_mid_hand().save(path)
    text = path.read_text()
    path.write_text(text[: len(text) - 9])  # the last line cut in the middle, no newline
    count = text.count("\n")
    with pytest.raises(JournalError, match=rf"table.jsonl line {count} is not JSON \(cut short\?\)"):
        load(path)


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([], "table.jsonl is empty: a journal begins with the table's sign"),
        (['{"entry": "start", "hand": 1}'], "table.jsonl line 1: it must be the table's sign"),
        (
            ['{"sign": {"game": "chess", "small_bet": 4, "big_bet": 8, "ante": 1, "bring_in": 2}}'],
            "line 1: the sign's game",
        ),
        (["SIGN", '{"entry": "buy-in", "seat": 1, "name": "Ann"}'], "line 2: a buy-in entry needs 'chips'"),
        (["SIGN", '{"entry": "leave", "seat": 0}'], "line 2: a leave entry's 'seat' must be a seat number from 1"),
        (["SIGN", '{"entry": "leave", "seat": 2, "why": "tired"}'], "line 2: a leave entry has no field 'why'"),
        (["SIGN", "{}", "nonsense"], "line 2: unknown entry None"),
        (["SIGN", "[1]"], r"line 2: an entry is a JSON object, got \[1\]"),
        (["SIGN", "nonsense", "{}"], "line 2 is not JSON: Expecting value"),
    ],
)
def test_a_malformed_journal_is_refused_naming_the_line(tmp_path: Path, lines: list[str], message: str) -> None:
    path = tmp_path / "table.jsonl"
    sign_line = json.dumps({"sign": SIGN.to_json()})
    path.write_text("".join(("\n" if line == "" else (sign_line if line == "SIGN" else line) + "\n") for line in lines))
    with pytest.raises(JournalError, match=message):
        load(path)


def test_a_journal_that_does_not_replay_is_refused_naming_the_entry(tmp_path: Path) -> None:
    path = tmp_path / "table.jsonl"
    save(path, SIGN, [{"entry": "buy-in", "seat": 1, "name": "Ann", "chips": 200}, {"entry": "start", "hand": 1}])
    with pytest.raises(JournalError, match=r"journal entry 2 .*a hand needs two players"):
        DealerSession.load(path)


def test_an_entry_is_checked_before_it_is_written(tmp_path: Path) -> None:
    path = tmp_path / "table.jsonl"
    save(path, SIGN, ())
    with pytest.raises(JournalError, match="a card entry's 'card' must be text such as 'Ah'"):
        append(path, {"entry": "card", "seat": 1, "card": 14})
    assert len(path.read_text().splitlines()) == 1
    assert check_entry({"entry": "card", "seat": None, "card": "Ah"})["seat"] is None


def test_append_needs_a_journal_begun_by_save(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match=r"no journal at table\.jsonl \(moved or deleted\?\)"):
        append(tmp_path / "table.jsonl", {"entry": "leave", "seat": 1})
    assert not (tmp_path / "table.jsonl").exists()


def test_save_replaces_a_journal_whole(tmp_path: Path) -> None:
    path = tmp_path / "table.jsonl"
    a_session_mid_hand().save(path)
    save(path, SIGN, [{"entry": "buy-in", "seat": 1, "name": "Ann", "chips": 200}])
    assert load(path) == (SIGN, [{"entry": "buy-in", "seat": 1, "name": "Ann", "chips": 200}])
    assert [p.name for p in tmp_path.iterdir()] == ["table.jsonl"]
