"""The irregularities of the end of a hand: the last card dealt face up ("seventh card exposed": replaced while
betting remains, or the house option "face up"), and a hand found foul at the showdown ("dead hand at
showdown"). Each a scenario with its ruling, applied as a journal entry (undo
and from_journal give the same session), refused with the reason and nothing changed where it does not fit."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import pytest

from studpoker.cards import Card
from studpoker.console import ConsoleError, DealerSession, Sign
from studpoker.console.irregularities import FACE_UP_RULE
from studpoker.history import phh, verify

from .test_irregularities import deal, refused, report
from .test_session import DECK, ORDER_3, SIGN, seated, snapshot

# Heads-up, dealt in order: seat 1 makes kings, seat 2 (door 2c) brings in and makes nothing.
ORDER_2 = ["Kh", "9d", "Kd", "8s", "Ks", "2c", "Qh", "Td", "4c", "3d", "9c", "4d", "Ah", "Jh"]


def play(session: DealerSession, cards: Iterable[str], *, stop_at_seventh: bool = False) -> None:
    """Deal ``cards`` as asked and act (bring in, call, check) until the hand ends or, with ``stop_at_seventh``,
    the last street's first card is to be dealt."""
    cards = iter(cards)
    while (wanted := session.needed()).kind in ("card", "action"):
        if wanted.kind == "card":
            if stop_at_seventh and wanted.street == 7:
                return
            session.deal(next(cards))
        else:
            options = wanted.options
            session.act("bring in" if "bring in 3" in options else "check" if "check" in options else "call")


def to_seventh(players: int = 3, sign: Sign = SIGN) -> DealerSession:
    session = seated(*([200] * players), sign=sign)
    session.start_hand()
    order = ORDER_3 if players == 3 else ORDER_2
    play(session, order, stop_at_seventh=True)
    return session


def seventh(players: int = 3) -> list[str]:
    return ORDER_3[-3:] if players == 3 else ORDER_2[-2:]


def replays(session: DealerSession) -> None:
    """The finished hand's record replays as ``stud replay`` reads it (load, replay, check against its stated
    finishing stacks) and the books balance."""
    record = phh.loads_hand(session.hand_phh(1))
    result = verify(record)
    assert list(result.state.stacks) == [session.seats[seat][1] for seat in record.seats or ()]
    assert session.report().balanced
    assert snapshot(DealerSession.from_journal(session.sign, session.journal)) == snapshot(session)


def undone(session: DealerSession, card: str) -> None:
    """Deal ``card`` and check that undo and from_journal give the session before and after it."""
    before = snapshot(session)
    session.deal(card)
    after = snapshot(session)
    assert snapshot(DealerSession.from_journal(session.sign, session.journal)) == after
    session.undo()
    assert snapshot(session) == before
    session.deal(card)
    assert snapshot(session) == after


def refused_card(session: DealerSession, card: str, match: str) -> None:
    before = snapshot(session)
    with pytest.raises(ConsoleError, match=match):
        session.deal(card)
    assert snapshot(session) == before


def down_cards(session: DealerSession, seat: int) -> list[str]:
    """``seat``'s down cards in the finished hand's record."""
    record = phh.loads_hand(session.hand_phh(1))
    played = verify(record).state
    assert record.seats is not None
    return [str(c) for c in played.down_cards(list(record.seats).index(seat))]


# -- the last card dealt face up: replaced while betting remains (SPEC R13.3, TDA RP-10B) ---------------------------


def test_the_first_players_last_card_exposed_is_dead_and_replaced_face_down() -> None:
    session = to_seventh()
    session.deal("Ah")  # seat 1's last card, turned up by the dealer
    ruling = report(session, "seventh card exposed", 1, "Ah")
    assert ruling.what == "seat 1 (Ann)'s last card Ah dealt face up"
    assert ruling.ruling.startswith("betting remains: the Ah is dead (out of play like a burn card")
    assert "seat 1 (Ann) is dealt the next card face down in its place" in ruling.ruling
    assert ruling.rule == "SPEC R13.3; TDA RP-10B"
    assert str(session.needed()) == "deal seat 1 (Ann) a card face down (7th street)"
    assert ruling.next == "deal seat 1 (Ann) his card face down: deal seat 1 (Ann) a card face down (7th street)"
    assert session.hand is not None and len(session.hand.down_cards(0)) == 2  # the Ah is no longer his
    refused_card(session, "Ah", r"Ah is already dealt \(out of play: the last card exposed and replaced")
    undone(session, "Qc")  # the replacement
    assert str(session.needed()) == "deal seat 2 (Bob) a card face down (7th street)"
    refused_card(session, "Ah", "out of play")
    session.deal("Ad")
    refused_card(session, "Ah", "out of play")
    session.deal("Tc")
    assert session.needed().kind == "action"
    play(session, [])
    assert session.hand is None and session.pushes()
    assert down_cards(session, 1) == ["Kh", "Kd", "Qc"]
    assert "Ah" not in session.hand_phh(1)
    replays(session)


def test_a_card_replaced_after_the_others_were_dealt_theirs_comes_first() -> None:
    """Seat 1's exposed card reported after seat 2's was dealt: the console asks for seat 1's replacement, then
    deals seat 2's card (already entered) again itself."""
    session = to_seventh()
    deal(session, ["Ah", "Ad"])
    report(session, "seventh card exposed", 1, "Ah")
    assert str(session.needed()) == "deal seat 1 (Ann) a card face down (7th street)"
    refused_card(session, "Ad", r"Ad is already dealt \(to seat 2\)")
    undone(session, "Qc")
    assert str(session.needed()) == "deal seat 3 (Cy) a card face down (7th street)"
    hand = session.hand
    assert hand is not None and hand.down_cards(1)[-1] == Card.parse("Ad")
    session.deal("Tc")
    play(session, [])
    assert down_cards(session, 1)[-1] == "Qc" and down_cards(session, 2)[-1] == "Ad"
    replays(session)


def test_heads_up_the_second_players_last_card_exposed_is_replaced() -> None:
    session = to_seventh(2)
    deal(session, seventh(2))
    ruling = report(session, "seventh card exposed", 2, "Jh")
    assert ruling.ruling.startswith("betting remains: the Jh is dead")
    assert str(session.needed()) == "deal seat 2 (Bob) a card face down (7th street)"
    refused_card(session, "Jh", "out of play")
    undone(session, "??")  # the replacement, unseen
    assert session.needed().kind == "action"
    play(session, [])
    assert str(session.needed()) == "seats 2 must show their cards (reveal)"
    with pytest.raises(ConsoleError, match="Jh is out of play in this hand"):
        session.reveal(2, ["Jh"])
    session.reveal(2, ["Qc"])
    assert down_cards(session, 2)[-1] == "Qc"
    replays(session)


def test_a_replacement_exposed_too_is_replaced_again() -> None:
    session = to_seventh(2)
    session.deal("Ah")
    report(session, "seventh card exposed", 1, "Ah")
    session.deal("Qc")
    report(session, "seventh card exposed", 1, "Qc")
    refused_card(session, "Ah", "out of play")
    refused_card(session, "Qc", "out of play")
    deal(session, ["Qd", "Jh"])
    play(session, [])
    assert down_cards(session, 1)[-1] == "Qd"
    replays(session)


def test_one_player_all_in_two_still_betting_the_card_is_replaced() -> None:
    session = seated(200, 200, 11, sign=Sign.of("stud", small_bet=10, big_bet=20, ante=1, bring_in=3, min_buy_in=10))
    session.start_hand()
    deal(session, ORDER_3[:9])
    session.act("bring in")
    session.act("complete")
    session.act("call")
    session.act("call")  # seat 3 all in: seats 1 and 2 still bet
    play(session, ORDER_3[9:], stop_at_seventh=True)
    session.deal("Ah")
    ruling = report(session, "seventh card exposed", 1, "Ah")
    assert ruling.ruling.startswith("betting remains: the Ah is dead")
    deal(session, ["Qc", "Ad", "Tc"])
    play(session, [])
    assert down_cards(session, 1)[-1] == "Qc"
    replays(session)


def all_in_to_seventh() -> DealerSession:
    session = seated(200, 11, sign=Sign.of("stud", small_bet=10, big_bet=20, ante=1, bring_in=3, min_buy_in=10))
    session.start_hand()
    deal(session, ORDER_2[:6])
    session.act("bring in")
    session.act("complete")
    session.act("call")  # seat 2 all in: no betting remains
    play(session, ORDER_2[6:], stop_at_seventh=True)
    return session


def test_no_betting_remains_the_exposed_card_plays_face_up() -> None:
    session = all_in_to_seventh()
    session.deal("Ah")
    ruling = report(session, "seventh card exposed", 1, "Ah")
    assert ruling.ruling == (
        "no betting remains (every player but at most one is all in): the Ah plays face up as dealt, the other"
        " players get their last card face down as usual, and the hand goes on"
    )
    assert ruling.rule == "SPEC R13.3; TDA RP-10B"
    assert str(session.needed()) == "deal seat 2 (Bob) a card face down (7th street)"
    session.deal("Jh")
    assert session.hand is None
    assert down_cards(session, 1)[-1] == "Ah"
    record = phh.loads_hand(session.hand_phh(1))
    assert list(verify(record).state.stacks) == [session.seats[seat][1] for seat in record.seats or ()]
    assert snapshot(DealerSession.from_journal(session.sign, session.journal)) == snapshot(session)


def test_no_betting_remains_the_last_card_dealt_plays() -> None:
    session = all_in_to_seventh()
    session.deal("Ah")
    session.deal("Jh")  # the hand is over: nothing to rule on
    refused(session, "seventh card exposed", 2, "Jh", match="no hand is being played")


# -- the house option "face up": the room practice -------------------------------------------------------------------

FACE_UP = Sign.of("stud", small_bet=10, big_bet=20, ante=1, bring_in=3, seventh_card="face up")


def test_the_first_players_last_card_exposed_turns_the_others_up_too() -> None:
    session = to_seventh(sign=FACE_UP)
    session.deal("Ah")  # seat 1's last card, turned up by the dealer
    ruling = report(session, "seventh card exposed", 1, "Ah")
    assert ruling.what == "seat 1 (Ann)'s last card Ah dealt face up"
    assert "every other player still to be dealt gets his last card face up too" in ruling.ruling
    assert ruling.rule == FACE_UP_RULE
    assert ruling.next == "deal seat 2 (Bob) a card face up (7th street)"
    assert str(session.needed()) == "deal seat 2 (Bob) a card face up (7th street)"
    refused_card(session, "??", "must be known")
    undone(session, "Ad")
    assert str(session.needed()) == "deal seat 3 (Cy) a card face up (7th street)"
    session.deal("Tc")
    # the first to act is who was high on the board before the last cards: seat 1, king high
    assert session.needed().seat == 1 and session.needed().kind == "action"
    play(session, [])
    assert down_cards(session, 1)[-1] == "Ah"
    replays(session)


def test_another_players_last_card_exposed_leaves_the_rest_face_down() -> None:
    session = to_seventh(sign=FACE_UP)
    deal(session, ["Ah", "Ad"])
    ruling = report(session, "seventh card exposed", 2, "Ad")
    assert ruling.what == "seat 2 (Bob)'s last card Ad dealt face up"
    assert "still to be dealt get their last card face down as usual" in ruling.ruling
    assert str(session.needed()) == "deal seat 3 (Cy) a card face down (7th street)"
    session.deal("??")  # face down: the dealer need not see it
    assert session.needed().seat == 1
    session.act("check")
    session.act("check")
    session.act("check")
    assert session.needed().kind == "reveal"
    session.reveal(3, ["Tc"])
    replays(session)


def test_the_last_players_last_card_exposed_plays_and_the_betting_goes_on() -> None:
    session = to_seventh(sign=FACE_UP)
    deal(session, seventh())
    ruling = report(session, "seventh card exposed", 3, "Tc")
    assert ruling.ruling == "the Tc plays face up; the betting goes on as usual"
    assert ruling.next == "seat 1 (Ann) to act: fold, check, bet 20"
    play(session, [])
    replays(session)


def test_heads_up_the_first_players_last_card_exposed_turns_the_opponents_up() -> None:
    session = to_seventh(2, sign=FACE_UP)
    session.deal("Ah")
    ruling = report(session, "seventh card exposed", 1, "Ah")
    assert "face up too" in ruling.ruling
    assert str(session.needed()) == "deal seat 2 (Bob) a card face up (7th street)"
    refused(session, "seventh card exposed", 1, "Ah", match="already being dealt face up")
    session.deal("Jh")
    play(session, [])
    replays(session)


def test_heads_up_the_second_players_last_card_exposed_plays() -> None:
    session = to_seventh(2, sign=FACE_UP)
    deal(session, seventh(2))
    ruling = report(session, "seventh card exposed", 2, "Jh")
    assert ruling.ruling == "the Jh plays face up; the betting goes on as usual"
    play(session, [])
    replays(session)


# -- the house option on the sign ------------------------------------------------------------------------------------


def test_the_signs_seventh_card_option_is_checked_and_kept_in_the_journal(tmp_path: Path) -> None:
    assert SIGN.seventh_card == "replace" and FACE_UP.seventh_card == "face up"
    assert Sign.of("stud", 10, 20, 1, 3, seventh_card=" Face Up ").seventh_card == "face up"
    for bad in ("down", 1, None):
        with pytest.raises(ConsoleError, match=r"the sign's seventh_card .* must be 'replace' or 'face up'; got"):
            Sign.of("stud", 10, 20, 1, 3, seventh_card=bad)  # type: ignore[arg-type]
    with pytest.raises(ConsoleError, match="seventh_card"):
        Sign.from_json({**SIGN.to_json(), "seventh_card": "burn"})
    assert SIGN.to_json()["seventh_card"] == "replace"
    assert Sign.from_json(FACE_UP.to_json()) == FACE_UP
    session = to_seventh(sign=FACE_UP)
    path = tmp_path / "table.jsonl"
    session.save(path)
    assert DealerSession.load(path).sign == FACE_UP


def test_an_old_journal_without_the_option_loads_as_replace(tmp_path: Path) -> None:
    session = to_seventh()
    session.deal("Ah")
    session.irregularity("seventh card exposed", 1, "Ah")
    path = tmp_path / "table.jsonl"
    session.save(path)
    lines = path.read_text().splitlines()
    first = json.loads(lines[0])
    del first["sign"]["seventh_card"]
    path.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    again = DealerSession.load(path)
    assert again.sign == SIGN and again.sign.seventh_card == "replace"
    assert snapshot(again) == snapshot(session)


def test_a_last_card_exposed_refused_where_it_does_not_fit() -> None:
    session = to_seventh()
    refused(session, "seventh card exposed", 1, "Ah", match="has not been dealt his last card yet")
    session.deal("Ah")
    refused(session, "seventh card exposed", 1, "As", match="seat 1 \\(Ann\\)'s last card is Ah, not As")
    refused(session, "seventh card exposed", 2, "Ad", match="has not been dealt his last card yet")
    refused(session, "seventh card exposed", 1, None, match="names card")
    session.deal("??")
    refused(session, "seventh card exposed", 2, "Ad", match="entered as unknown")
    session.deal("Tc")
    session.act("check")
    refused(session, "seventh card exposed", 3, "Tc", match="before anyone acts on the last street")
    early = seated(200, 200)
    early.start_hand()
    deal(early, ORDER_2[:6])
    refused(early, "seventh card exposed", 1, "Ks", match="reported on 7th street")
    five = seated(200, 200, sign=Sign.of("stud5", small_bet=10, big_bet=20, ante=1, bring_in=3))
    five.start_hand()
    refused(five, "seventh card exposed", 1, "Ah", match="seven-card stud")


def test_the_short_decks_community_card_is_up_for_all_nothing_to_rule() -> None:
    """Eight players to 7th street: the last card is one community card, face up for everyone."""
    session = seated(*[200] * 8)
    session.start_hand()
    deck = iter(DECK)
    while (wanted := session.needed()).kind in ("card", "action"):
        if wanted.kind == "card":
            community = wanted.seat is None
            card = next(deck)
            session.deal(card)
            if community:
                break
        else:
            options = wanted.options
            session.act("check" if "check" in options else "bring in" if "bring in 3" in options else "call")
    refused(session, "seventh card exposed", 1, card, match="the community card, dealt face up for all")


# -- a dead hand at the showdown --------------------------------------------------------------------------------------


def showdown(players: int = 3) -> DealerSession:
    session = seated(*([200] * players))
    session.start_hand()
    play(session, ORDER_3 if players == 3 else ORDER_2)
    return session


def test_a_dead_hand_at_the_showdown_cannot_win_the_best_live_hand_takes_the_pot() -> None:
    session = showdown()
    # seat 2's diamond flush wins; then his hand is found foul (the wrong number of cards)
    assert [str(p) for p in session.pushes()] == ["push Bob 12 (main pot)"]
    ruling = report(session, "dead hand at showdown", 2)
    assert ruling.what == "seat 2 (Bob)'s hand is found foul at the showdown (the wrong number of cards)"
    assert ruling.ruling == (
        "his hand is dead: it cannot win, his chips stay in the pot, and the pots go to the best live hands"
    )
    assert ruling.next == "push the pots again: start hand 2"
    # Cy's heart flush beats Ann's kings
    assert [str(p) for p in session.pushes()] == ["push Cy 12 (main pot)"]
    assert session.seats == {1: ("Ann", 196), 2: ("Bob", 196), 3: ("Cy", 208)}
    assert any("Cy wins 12" in line for line in session.announcements)
    replays(session)
    ruled = snapshot(session)
    session.start_hand()  # the next hand is dealt as usual: every hand shown at its showdown
    session.undo()
    assert snapshot(session) == ruled
    session.start_hand()
    play(session, ORDER_3)
    assert [str(p) for p in session.pushes()] == ["push Bob 12 (main pot)"]
    assert snapshot(DealerSession.from_journal(SIGN, session.journal)) == snapshot(session)


def test_heads_up_a_dead_hand_at_the_showdown_gives_the_other_player_the_pot_uncontested() -> None:
    session = showdown(2)
    assert [str(p) for p in session.pushes()] == ["push Ann 8 (main pot)"]
    ruling = report(session, "dead hand at showdown", 1)
    assert "the other player wins the pot uncontested" in ruling.ruling
    assert [str(p) for p in session.pushes()] == ["push Bob 8 (main pot)"]
    assert session.seats == {1: ("Ann", 196), 2: ("Bob", 204)}
    replays(session)


def test_a_dead_hand_reported_while_the_showdown_waits_for_his_cards() -> None:
    session = seated(200, 200, 200)
    session.start_hand()
    order = list(ORDER_3)
    order[1] = order[4] = order[19] = "??"  # seat 2's down cards, unseen
    play(session, order)
    assert str(session.needed()) == "seats 2 must show their cards (reveal)"
    ruling = report(session, "dead hand at showdown", 2)
    assert ruling.next == "push the pots again: start hand 2"
    assert [str(p) for p in session.pushes()] == ["push Cy 12 (main pot)"]
    replays(session)


def test_a_dead_hand_at_the_showdown_refused_where_it_does_not_fit() -> None:
    session = to_seventh()
    refused(session, "dead hand at showdown", 1, match="reported at the showdown")
    session = showdown()
    refused(session, "dead hand at showdown", 5, match="was not dealt in this hand")
    session.top_up(1, 10)
    refused(session, "dead hand at showdown", 2, match="at the showdown or right after it")
    folded = seated(200, 200)
    folded.start_hand()
    deal(folded, ORDER_2[:6])
    folded.act("bring in")
    folded.act("fold")
    refused(folded, "dead hand at showdown", 2, match="there is no showdown")
    refused(folded, "dead hand at showdown", 1, match="not in the showdown")
    empty = seated(200, 200)
    refused(empty, "dead hand at showdown", 1, match="at the showdown or right after it")


def test_a_dead_hand_at_an_all_in_showdown() -> None:
    """With a player all in every hand is turned up at once: the hand is dealt again with the dead one declared to
    the engine (``HandState.declare_dead``), mucked as the showdown begins; its record says so (``_dead_hands``)
    and replays."""
    sign = Sign.of("stud", small_bet=10, big_bet=20, ante=1, bring_in=3, min_buy_in=10)
    for dead, winner, seats in ((1, "Bob", {1: ("Ann", 189), 2: ("Bob", 22)}), (2, "Ann", {1: ("Ann", 211)})):
        session = seated(200, 11, sign=sign)
        session.start_hand()
        deal(session, ORDER_2[:6])
        session.act("bring in")
        session.act("complete")
        session.act("call")  # seat 2 all in
        play(session, ORDER_2[6:])
        assert session.hand is None and [str(p) for p in session.pushes()] == ["push Ann 22 (main pot)"]
        ruling = report(session, "dead hand at showdown", dead)
        assert "the other player wins the pot uncontested" in ruling.ruling
        assert [str(p) for p in session.pushes()] == [f"push {winner} 22 (main pot)"]
        assert {s: v for s, v in session.seats.items() if v[1]} == seats
        assert f"_dead_hands = ['p{dead}']" in session.hand_phh(1)
        replays(session)
        assert snapshot(DealerSession.from_journal(sign, session.journal)) == snapshot(session)
        refused(session, "dead hand at showdown", dead, match="already dead")


def test_the_dead_hand_elsewhere_points_to_the_showdown_case() -> None:
    session = seated(200, 200, 200)
    session.start_hand()
    order = list(ORDER_3)
    order[1] = "??"
    play(session, order)
    refused(session, "dead hand", 2, match="report 'dead hand at showdown'")
    assert session.hand is not None and session.hand.down_cards(1)[0] is None
    assert Card.parse("Kh") in session.hand.down_cards(0)


def test_two_dead_hands_at_the_showdown_leave_the_last_live_hand_the_pot() -> None:
    session = showdown()
    report(session, "dead hand at showdown", 2)
    refused(session, "dead hand at showdown", 2, match="already dead")
    ruling = report(session, "dead hand at showdown", 3)
    assert ruling.what.startswith("seat 3 (Cy)'s hand is found foul")
    assert [str(p) for p in session.pushes()] == ["push Ann 12 (main pot)"]
    replays(session)
