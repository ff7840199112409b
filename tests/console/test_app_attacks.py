"""``stud dealer`` against what a hostile tester found: each attack as it was made, and what the console must do
instead (the journal and the session agree, a second console is refused, nothing half-dealt, no traceback)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from studpoker.cli.dealer import hold_journal
from studpoker.console import ConsoleError, DealerSession, JournalError, Sign, journal

from .test_app import ORIGIN, SIGN, TOKEN, client, journal_of, post, seated, state


def test_a_journal_moved_away_refuses_the_entry_and_is_written_again(tmp_path: Path) -> None:
    """The file gone (moved, deleted) mid-session: the entry is refused and not kept, and the whole journal is
    written again where it was, so the next entry is taken and the file and the session agree."""
    c = client(tmp_path)
    seated(c, 200, 200)
    path = tmp_path / "session.jsonl"
    path.rename(tmp_path / "moved.jsonl")
    refused = post(c, "/api/start", status=503)
    assert "moved or deleted" in refused["error"]["message"] and "not taken" in refused["error"]["message"]
    assert state(c)["journal"] == 2 and not state(c)["playing"]
    assert len(journal_of(tmp_path)) == 2  # written again from the session
    post(c, "/api/start")
    assert state(c)["playing"] and len(journal_of(tmp_path)) == 3


def test_a_second_console_on_the_same_journal_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    with hold_journal(path), pytest.raises(ConsoleError, match="in use by another stud dealer"), hold_journal(path):
        pass
    with hold_journal(path):  # let go when the first one stops
        pass


def test_stud_dealer_refuses_a_journal_in_use(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.cli.helpers import stud

    path = tmp_path / "session.jsonl"
    with hold_journal(path):
        code, out, err = stud(capsys, "dealer", "--journal", path, "--no-browser")
    assert code == 2 and out == ""
    assert err == f"stud dealer: error: the journal {path} is in use by another stud dealer\n"


def test_stud_dealer_refuses_a_reader_token_not_in_ascii(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An HTTP header is read as Latin-1: a token in other letters could never be matched."""
    from tests.cli.helpers import stud

    code, _, err = stud(capsys, "dealer", "--journal", tmp_path / "j.jsonl", "--reader-token", "jeton-élevé-0123456789")
    assert code == 2 and "ASCII" in err


def test_a_reader_list_with_a_card_that_is_not_one_deals_nothing(tmp_path: Path) -> None:
    c = client(tmp_path, token=TOKEN)
    seated(c, 200, 200)
    post(c, "/api/start")
    before = state(c)
    auth = {"Authorization": f"Bearer {TOKEN}"}
    for cards in (["Ah", "Kd", "Zz", "Qs"], ["??"]):
        answer = c.post("/api/reader", json={"cards": cards}, headers=auth)
        assert answer.status_code == 422 and "not a card" in answer.json()["error"]["message"]
    assert state(c) == before and len(journal_of(tmp_path)) == 3


@pytest.mark.parametrize(
    "name",
    ["C\u0000\u001b[31m", "\u200b", "Ann\u200b", "Bob\u202eevil", "Bob\nEve (seat 3): took 999", "Tab\tbed"],
)
def test_a_name_with_a_character_that_does_not_print_is_refused(tmp_path: Path, name: str) -> None:
    c = client(tmp_path)
    seated(c, 200)
    refused = post(c, "/api/buy-in", {"seat": 2, "name": name, "chips": 200}, status=409)
    assert "may not hold U+" in refused["error"]["message"]
    assert len(state(c)["seats"]) == 1 and len(journal_of(tmp_path)) == 1
    session = DealerSession(Sign.of("stud", 10, 20, 1, 3))
    with pytest.raises(ConsoleError, match="may not hold"):
        session.buy_in(1, name, 200)
    assert session.seats == {} and session.journal == ()


def test_a_sign_nobody_could_buy_into_is_refused(tmp_path: Path) -> None:
    c = client(tmp_path)
    refused = post(c, "/api/sign", {**SIGN, "small_bet": 10**9, "big_bet": 10**9, "bring_in": 1}, status=409)
    assert "minimum buy-in 10000000000" in refused["error"]["message"] and state(c)["sign"] is None


@pytest.mark.parametrize("body", [b"[" * 2000, b'{"seat": ' + b"9" * 5000 + b"}"])
def test_a_body_that_does_not_parse_is_invalid(tmp_path: Path, body: bytes) -> None:
    c = client(tmp_path)
    seated(c, 200)
    answer = c.post("/api/leave", content=body, headers={**ORIGIN, "Content-Type": "application/json"})
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "invalid"
    assert len(state(c)["seats"]) == 1


@pytest.mark.parametrize("line", ["[" * 100_000, '{"entry": "leave", "seat": ' + "9" * 5000 + "}"])
def test_a_journal_line_nested_too_deep_or_a_huge_number_names_its_line(tmp_path: Path, line: str) -> None:
    path = tmp_path / "session.jsonl"
    journal.save(path, Sign.of("stud", 10, 20, 1, 3), [])
    with open(path, "a", encoding="utf-8") as out:
        out.write(line + "\n")
    with pytest.raises(JournalError, match=r"session\.jsonl line 2 cannot be read"):
        journal.load(path)


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links here")
def test_a_journal_behind_a_link_keeps_its_link_through_an_undo(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    real = tmp_path / "real" / "session.jsonl"
    link = tmp_path / "session.jsonl"
    link.symlink_to(real)
    c = client(tmp_path)
    seated(c, 200, 200)
    post(c, "/api/undo")
    post(c, "/api/buy-in", {"seat": 3, "name": "Cy", "chips": 200})
    assert link.is_symlink()
    assert [e.get("name") for e in journal.load(real)[1]] == ["Ann", "Cy"]
