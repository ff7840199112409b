"""The irregularities a dealer reports, each a scenario with its ruling: applied as a journal entry (undo and
from_journal give the same session), and refused with the reason, nothing changed, where the rules say no."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from studpoker.cards import Card
from studpoker.console import ConsoleError, DealerSession, Sign
from studpoker.console.irregularities import CASES, FACE_UP_RULE, Ruling

from .test_session import ORDER_3, SIGN, seated, snapshot


def report(session: DealerSession, case: str, seat: int | None = None, card: str | None = None) -> Ruling:
    """Report an irregularity and check its entry: from_journal rebuilds the same session, undo restores the
    session before it (then it is reported again)."""
    before = snapshot(session)
    step = session.irregularity(case, seat, card)
    after = snapshot(session)
    assert step.entry == {"entry": "irregularity", "case": case, "seat": seat, "card": card}
    assert session.journal[-1] == step.entry
    assert snapshot(DealerSession.from_journal(session.sign, session.journal)) == after
    assert session.undo() == step.entry
    assert snapshot(session) == before
    again = session.irregularity(case, seat, card)
    assert snapshot(session) == after and again.ruling == step.ruling
    face_up = case == "seventh card exposed" and session.sign.seventh_card == "face up"
    assert step.ruling is not None and step.ruling.case == case
    assert step.ruling.rule == (FACE_UP_RULE if face_up else CASES[case].rule)
    return step.ruling


def refused(session: DealerSession, case: str, seat: int | None = None, card: str | None = None, *, match: str) -> None:
    """The report is refused with ``match`` in the reason, and the session is exactly as it was."""
    before = snapshot(session)
    with pytest.raises(ConsoleError, match=match):
        session.irregularity(case, seat, card)
    assert snapshot(session) == before


def deal(session: DealerSession, cards: Iterable[str]) -> None:
    for card in cards:
        session.deal(card)


def third_street(stacks: tuple[int, ...] = (200, 200, 200)) -> DealerSession:
    """Three-handed, 3rd street dealt from ORDER_3: seat 3 (2c) must bring in."""
    session = seated(*stacks)
    session.start_hand()
    deal(session, ORDER_3[:9])
    return session


def test_one_hole_card_exposed_becomes_the_up_card_and_the_door_card_is_dealt_down() -> None:
    session = seated(200, 200, 200)
    session.start_hand()
    session.deal("2d")  # seat 1's first hole card, turned up by the dealer
    ruling = report(session, "exposed hole card", 1, "2d")
    assert ruling.what == "seat 1 (Ann)'s hole card 2d exposed on the deal"
    assert "plays as his up card" in ruling.ruling and "dealt face down" in ruling.ruling
    assert ruling.next.endswith("deal seat 2 (Bob) a card face down (3rd street)")
    deal(session, ["9d", "5h", "Kd", "8s", "6h"])
    # the door round: seat 1 gets a down card the console does not ask for; his up card is the 2d
    assert str(session.needed()) == "deal seat 2 (Bob) a card face up (3rd street)"
    session.deal("Jd")
    step = session.deal("5c")
    assert step.said == ("Ann brings in for 3",) or session.needed().seat == 1
    hand = session.hand
    assert hand is not None
    assert hand.up_cards(0) == (Card.parse("2d"),) and hand.down_cards(0) == (None, Card.parse("Kd"))
    assert str(session.needed()) == "seat 1 (Ann) to act: bring in 3, complete to 10"
    assert snapshot(DealerSession.from_journal(SIGN, session.journal)) == snapshot(session)
    session.act("bring in")
    assert session.hand is not None and session.hand.stacks[0] == 196


def test_an_exposed_hole_card_refused_where_it_does_not_fit() -> None:
    session = seated(200, 200, 200)
    session.start_hand()
    deal(session, ["Kh", "9d"])
    refused(session, "exposed hole card", 1, "As", match="not one of seat 1 \\(Ann\\)'s hole cards")
    refused(session, "exposed hole card", None, "Kh", match="names seat")
    refused(session, "exposed hole card", 1, None, match="names card")
    refused(session, "exposed hole card", 9, "Kh", match="not dealt in this hand")
    refused(session, "juggling", match="unknown irregularity")
    session.irregularity("exposed hole card", 1, "Kh")
    refused(session, "exposed hole card", 1, "Kh", match="already has a hole card exposed")
    deal(session, ["5h", "Kd", "8s", "6h", "Jd", "2c"])  # seat 1's door card (the Kh) came by itself
    refused(session, "exposed hole card", 2, "8s", match="reported while 3rd street is dealt")


def test_an_exposed_hole_card_after_his_door_card_is_dealt_points_to_the_misdeal() -> None:
    session = seated(200, 200, 200)
    session.start_hand()
    deal(session, ORDER_3[:7])  # seat 1's door card Ks is out
    refused(session, "exposed hole card", 1, "Kh", match="up card is already dealt.*misdeal")


def test_a_misdeal_before_substantial_action_deals_the_hand_again_with_the_antes_in() -> None:
    session = third_street()
    session.act("bring in")
    session.act("call")  # one player after the forced bet
    ruling = report(session, "misdeal")
    assert ruling.ruling.startswith("misdeal: every card comes back, the antes stay in")
    assert ruling.next == "shuffle, cut and deal hand 1 again: deal seat 1 (Ann) a card face down (3rd street)"
    hand = session.hand
    assert hand is not None and hand.stacks == (199, 199, 199) and hand.pot == 3 and session.hand_number == 1
    assert session.announcements == ()
    deal(session, ORDER_3[:9])
    assert str(session.needed()) == "seat 3 (Cy) to act: bring in 3, complete to 10"


def test_two_hole_cards_exposed_is_a_misdeal() -> None:
    session = seated(200, 200, 200)
    session.start_hand()
    deal(session, ORDER_3[:4])
    ruling = report(session, "exposed hole cards")
    assert ruling.what == "two or more hole cards exposed on the deal"
    assert session.needed().seat == 1 and session.hand is not None and session.hand.down_cards(0) == ()


def test_a_misdeal_after_substantial_action_is_refused() -> None:
    session = third_street()
    session.act("bring in")
    session.act("complete")
    session.act("call")  # two players after the forced bet
    refused(session, "misdeal", match="2 players have acted after the forced bet.*R13.4")
    refused(session, "exposed hole cards", match="cannot be called now")
    session.act("call")
    deal(session, ORDER_3[9:12])
    refused(session, "misdeal", match="4th street")


def test_a_wrong_bring_in_is_corrected_before_the_next_player_acts() -> None:
    session = third_street()
    ruling = report(session, "wrong bring-in", 2)
    assert ruling.what == "seat 2 (Bob) brought in by mistake; seat 3 (Cy) has the low card"
    assert session.hand is not None and session.hand.stacks == (199, 196, 199)
    ruling = report(session, "correct bring-in")
    assert ruling.next == "seat 3 (Cy) to act: bring in 3, complete to 10"
    assert session.hand is not None and session.hand.stacks == (199, 199, 199)
    assert session.act("bring in").said == ("Cy brings in for 3",)
    assert session.hand is not None and session.hand.stacks == (199, 199, 196)


def test_a_wrong_bring_in_stands_once_the_next_player_acts() -> None:
    session = third_street()
    session.irregularity("wrong bring-in", 2)
    session.act("call")  # seat 3, the true low card, calls: the wrong bring-in stands
    refused(session, "correct bring-in", match="cannot be corrected.*stands")
    refused(session, "wrong bring-in", 1, match="only be misdesignated before the bring-in")


def play_out(session: DealerSession) -> None:
    """Deal the rest of ORDER_3 and check or call every bet to the end of the hand."""
    cards = iter(ORDER_3[9:])
    while (wanted := session.needed()).kind in ("card", "action"):
        if wanted.kind == "card":
            session.deal(next(cards))
        else:
            session.act("check" if "check" in wanted.options else "call")


def test_a_hand_whose_wrong_bring_in_stood_records_it_and_replays() -> None:
    from studpoker.history import ReplayError, phh, replay, verify

    session = third_street()
    session.irregularity("wrong bring-in", 2)
    session.act("call")  # seat 3, the true low card, calls: the wrong bring-in stands
    play_out(session)
    text = session.hand_phh(1)
    assert "'p2 pb', 'p3 cc'" in text and "_wrong_bring_in = 'p2'\n" in text
    record = phh.loads_hand(text)
    assert record.wrong_bring_in == 1
    assert verify(record).state.stacks == tuple(session.seats[s][1] for s in (1, 2, 3)) == (196, 208, 196)
    assert phh.loads_hand(phh.dumps(record)) == record
    with pytest.raises(ReplayError, match="p2 \\(Bob\\) acts out of turn"):  # without the field: out of turn
        replay(phh.loads_hand(text.replace("_wrong_bring_in = 'p2'\n", "")))


def test_a_premature_card_does_not_play_and_the_round_goes_on() -> None:
    session = third_street()
    session.act("bring in")
    ruling = report(session, "premature card", None, "Qh")
    assert ruling.what == "Qh dealt before the betting on 3rd street was over"
    assert ruling.next == "finish the betting round: seat 1 (Ann) to act: fold, call 3, complete to 10"
    refused(session, "premature card", None, "Ks", match="Ks is already dealt \\(to seat 1\\)")
    session.act("call")
    session.act("call")
    refused(session, "premature card", None, "Qh", match="only while a betting round is on")
    session.deal("Qh")  # the same card, shuffled back into the stub, may come again


def test_an_absent_players_hand_is_killed_at_his_turn() -> None:
    session = third_street()
    refused(session, "absent player", 3, match="must post the bring-in he was dealt")
    session.act("bring in")
    refused(session, "absent player", 2, match="report it when the action is on him")
    ruling = report(session, "absent player", 1)
    assert ruling.what == "seat 1 (Ann) is not at his seat" and "dead" in ruling.ruling
    hand = session.hand
    assert hand is not None and hand.folded(0) and hand.stacks[0] == 199


def test_a_dead_hand_with_the_wrong_number_of_cards_is_killed() -> None:
    session = seated(200, 200)
    session.start_hand()
    deal(session, ["Kh", "9d", "Kd", "8s", "Ks", "2c"])
    session.act("bring in")
    ruling = report(session, "dead hand", 1)
    assert ruling.what == "seat 1 (Ann) has the wrong number of cards"
    assert ruling.next == "the hand is over (start hand 2)"
    assert session.seats == {1: ("Ann", 199), 2: ("Bob", 201)}


def test_irregularities_need_a_hand() -> None:
    session = seated(200, 200)
    refused(session, "misdeal", match="no hand is being played")


def test_the_ruling_reads_as_one_line() -> None:
    session = third_street()
    step = session.irregularity("premature card", None, "Qh")
    assert step.ruling is not None
    assert str(step.ruling).startswith("Qh dealt before the betting on 3rd street was over: the Qh does not play")
    assert "(SPEC R13.3; TDA RP-5D" in str(step.ruling)


def test_a_session_with_every_irregularity_saves_and_loads(tmp_path: Any) -> None:
    session = third_street()
    session.irregularity("wrong bring-in", 2)
    session.irregularity("correct bring-in")
    session.act("bring in")
    session.irregularity("misdeal")
    session.deal("Kh")
    session.irregularity("exposed hole card", 1, "Kh")
    deal(session, [*ORDER_3[1:6], "Jd", "2c"])
    session.act("bring in")
    session.irregularity("premature card", None, "Qh")
    session.irregularity("absent player", 1)
    path = tmp_path / "table.jsonl"
    session.save(path)
    assert snapshot(DealerSession.load(path)) == snapshot(session)
    sign: Sign = SIGN
    assert snapshot(DealerSession.from_journal(sign, session.journal)) == snapshot(session)


def test_a_hand_with_an_exposed_hole_card_and_an_absent_player_records_and_verifies() -> None:
    from studpoker.history import phh, verify

    session = seated(200, 200, 200)
    session.start_hand()
    session.deal("Kh")
    session.irregularity("exposed hole card", 1, "Kh")
    deal(session, [*ORDER_3[1:6], "Jd", "2c"])
    cards = iter(ORDER_3[9:])
    while (wanted := session.needed()).kind in ("card", "action"):
        if wanted.kind == "card":
            session.deal(next(cards))
        elif wanted.seat == 1 and wanted.street == 4:
            session.irregularity("absent player", 1)
        else:
            options = wanted.options
            session.act("check" if "check" in options else "bring in" if "bring in 3" in options else "call")
    verify(phh.loads_hand(session.hand_phh(1)))
    assert session.report().balanced


def test_a_hand_with_a_corrected_bring_in_records_as_it_stands_and_verifies() -> None:
    from studpoker.history import phh, verify

    session = third_street()
    session.irregularity("wrong bring-in", 2)
    session.irregularity("correct bring-in")
    session.act("bring in")
    session.act("fold")
    session.act("fold")
    record = phh.loads_hand(session.hand_phh(1))
    verify(record)
    assert "p2 pb" not in session.hand_phh(1) and "p3 pb" in session.hand_phh(1)
