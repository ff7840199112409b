"""The irregularities of the end of a hand: the last card dealt face up ("seventh card exposed"), and a hand found
foul at the showdown ("dead hand at showdown"). Each a scenario with its ruling, applied as a journal entry (undo
and from_journal give the same session), refused with the reason and nothing changed where it does not fit."""

from __future__ import annotations

from collections.abc import Iterable

from studpoker.cards import Card
from studpoker.console import DealerSession, Sign
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


def to_seventh(players: int = 3) -> DealerSession:
    session = seated(*([200] * players))
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
    assert snapshot(DealerSession.from_journal(SIGN, session.journal)) == snapshot(session)


# -- the last card dealt face up ------------------------------------------------------------------------------------


def test_the_first_players_last_card_exposed_turns_the_others_up_too() -> None:
    session = to_seventh()
    session.deal("Ah")  # seat 1's last card, turned up by the dealer
    ruling = report(session, "seventh card exposed", 1, "Ah")
    assert ruling.what == "seat 1 (Ann)'s last card Ah dealt face up"
    assert "every other player still to be dealt gets his last card face up too" in ruling.ruling
    assert ruling.next == "deal seat 2 (Bob) a card face up (7th street)"
    assert str(session.needed()) == "deal seat 2 (Bob) a card face up (7th street)"
    refused_deal = snapshot(session)
    try:
        session.deal("??")
    except Exception as error:  # an up card must be known
        assert "must be known" in str(error)
    assert snapshot(session) == refused_deal
    session.deal("Ad")
    assert str(session.needed()) == "deal seat 3 (Cy) a card face up (7th street)"
    session.deal("Tc")
    # the first to act is who was high on the board before the last cards: seat 1, king high
    assert session.needed().seat == 1 and session.needed().kind == "action"
    play(session, [])
    replays(session)


def test_another_players_last_card_exposed_leaves_the_rest_face_down() -> None:
    session = to_seventh()
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
    session = to_seventh()
    deal(session, seventh())
    ruling = report(session, "seventh card exposed", 3, "Tc")
    assert ruling.ruling == "the Tc plays face up; the betting goes on as usual"
    assert ruling.next == "seat 1 (Ann) to act: fold, check, bet 20"
    play(session, [])
    replays(session)


def test_heads_up_the_first_players_last_card_exposed_turns_the_opponents_up() -> None:
    session = to_seventh(2)
    session.deal("Ah")
    ruling = report(session, "seventh card exposed", 1, "Ah")
    assert "face up too" in ruling.ruling
    assert str(session.needed()) == "deal seat 2 (Bob) a card face up (7th street)"
    session.deal("Jh")
    play(session, [])
    replays(session)


def test_heads_up_the_second_players_last_card_exposed_plays() -> None:
    session = to_seventh(2)
    deal(session, seventh(2))
    ruling = report(session, "seventh card exposed", 2, "Jh")
    assert ruling.ruling == "the Jh plays face up; the betting goes on as usual"
    play(session, [])
    replays(session)


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


def test_a_dead_hand_at_an_all_in_showdown_is_refused() -> None:
    session = seated(200, 11, sign=Sign.of("stud", small_bet=10, big_bet=20, ante=1, bring_in=3, min_buy_in=10))
    session.start_hand()
    deal(session, ORDER_2[:6])
    session.act("bring in")
    session.act("complete")
    session.act("call")  # seat 2 all in
    play(session, ORDER_2[6:])
    assert session.hand is None
    refused(session, "dead hand at showdown", 1, match="all in")


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
