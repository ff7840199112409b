"""The dealer's session: seats and money between hands only, what is needed next, refusals that change nothing,
undo, announcements, pushes and the report."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from studpoker.cards import RANK_CHARS, Card
from studpoker.console import ConsoleError, DealerSession, JournalError, Sign
from studpoker.engine import Action, Rules

DECK = [rank + suit for suit in "shdc" for rank in reversed(RANK_CHARS)]  # As Ks Qs ... 2c
SIGN = Sign.of("stud", small_bet=10, big_bet=20, ante=1, bring_in=3)

# Three-handed seven-card stud, dealt in order: two down cards and the door card round the table, then 4th to 6th
# up and 7th down. Seat 1 makes kings, seat 2 nothing, seat 3 (door 2c) brings in.
ORDER_3 = ["Kh", "9d", "5h", "Kd", "8s", "6h", "Ks", "Jd", "2c", "Qh", "Td", "7h", "4c", "3d", "8h", "9c", "4d", "Jh"]
ORDER_3 += ["Ah", "Ad", "Tc"]


def snapshot(session: DealerSession) -> tuple[Any, ...]:
    """Everything a dealer (or a test) can read of a session."""
    hand = session.hand
    return (
        session.journal,
        str(session.needed()),
        session.needed(),
        session.seats,
        session.announcements,
        session.report(),
        session.hand_number,
        None if hand is None else (hand.events, hand.stacks, hand.totals, hand.phase),
    )


def seated(*stacks: int, sign: Sign = SIGN) -> DealerSession:
    session = DealerSession(sign)
    for i, stack in enumerate(stacks):
        session.buy_in(i + 1, ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo"][i], stack)
    return session


def deal_while_needed(session: DealerSession, cards: Iterator[str]) -> None:
    while session.needed().kind == "card":
        session.deal(next(cards))


def check_down(session: DealerSession, cards: Iterator[str]) -> None:
    """Deal the rest of the hand from ``cards``, every player checking, to its end."""
    while session.needed().kind != "start":
        if session.needed().kind == "card":
            session.deal(next(cards))
        else:
            session.act("check")


def test_a_hand_is_dealt_card_by_card_and_the_console_says_who_gets_each() -> None:
    session = seated(200, 200, 200)
    assert str(session.needed()) == "start hand 1"
    session.start_hand()
    asked = []
    cards = iter(ORDER_3)
    while session.needed().kind == "card":
        wanted = session.needed()
        asked.append((wanted.seat, wanted.face_up, wanted.street))
        session.deal(next(cards))
    assert asked == [(1, False, 3), (2, False, 3), (3, False, 3)] * 2 + [(1, True, 3), (2, True, 3), (3, True, 3)]
    wanted = session.needed()
    assert (wanted.kind, wanted.seat, wanted.options) == ("action", 3, ("bring in 3", "complete to 10"))
    assert str(wanted) == "seat 3 (Cy) to act: bring in 3, complete to 10"
    assert session.act("bring in").said == ("Cy brings in for 3",)
    assert session.needed().options == ("fold", "call 3", "complete to 10")
    session.act("call")
    session.act(Action.call(3))
    step = session.deal(next(cards))  # 4th street: seat 1 first
    assert step.entry == {"entry": "card", "seat": 1, "card": "Qh"}
    step = session.deal(next(cards))
    assert step.said == ()
    step = session.deal(next(cards))
    assert step.said == ("Ann is high with king-queen high showing and acts first",)
    assert session.needed().options == ("fold", "check", "bet 10")  # a fold when a check is free is allowed


def test_a_seat_needs_the_minimum_buy_in_and_seats_are_one_to_eight() -> None:
    session = DealerSession(SIGN)
    with pytest.raises(ConsoleError, match="below the minimum buy-in of 200"):
        session.buy_in(1, "Ann", 199)
    with pytest.raises(ConsoleError, match="there is no seat 9: seats are 1 to 8"):
        session.buy_in(9, "Ann", 200)
    assert DealerSession(Sign.of("5stud", small_bet=10, big_bet=20, ante=1, bring_in=3)).buy_in(10, "Ann", 200)
    assert session.journal == ()
    assert str(session.needed()) == "seat at least two players with chips"


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (lambda s: s.buy_in(4, "Di", 200), "a player sits down only between hands: hand 1 is being dealt"),
        (lambda s: s.top_up(1, 100), "chips are added only between hands"),
        (lambda s: s.leave(2), "a player leaves only between hands"),
        (lambda s: s.start_hand(), "hand 1 is still being dealt"),
    ],
)
def test_seats_and_money_change_only_between_hands(entry: Any, message: str) -> None:
    session = seated(200, 200, 200)
    session.start_hand()
    before = snapshot(session)
    with pytest.raises(ConsoleError, match=message):
        entry(session)
    assert snapshot(session) == before


def started(stacks: tuple[int, ...] = (200, 200, 200), cards: int = 9) -> DealerSession:
    session = seated(*stacks)
    session.start_hand()
    for card in ORDER_3[:cards]:
        session.deal(card)
    return session


@pytest.mark.parametrize(
    ("cards", "entry", "message"),
    [
        (3, lambda s: s.deal("Kh"), r"Kh is already dealt \(to seat 1\) in this hand: check the card"),
        (3, lambda s: s.deal("Kx"), "not a card"),
        (3, lambda s: s.deal(Card.parse("Kh")), r"Kh is already dealt \(to seat 1\)"),
        (3, lambda s: s.deal(42), "a card is a Card"),
        (6, lambda s: s.deal("??"), "an up card must be known"),
        (3, lambda s: s.act("call"), "no action is needed now: deal seat 1 a card|no action is needed now: deal"),
        (9, lambda s: s.deal("Ah"), r"no card is needed now: seat 3 \(Cy\) to act"),
        (9, lambda s: s.act("call"), r"seat 3 \(Cy\).*legal: bring in 3, complete to 10"),
        (9, lambda s: s.act("raise to 40"), r"seat 3 \(Cy\)"),
        (9, lambda s: s.act(Action.complete(20)), r"seat 3 \(Cy\) may not complete to 20 now"),
        (9, lambda s: s.act("dance"), "not an action"),
        (9, lambda s: s.reveal(1, ["Kh", "9d", "Ks"]), r"seat 1's card 2 is Kd, not 9d"),
        (9, lambda s: s.reveal(7, ["Ah"]), "seat 7 is not in a hand"),
    ],
)
def test_a_wrong_entry_leaves_the_session_exactly_as_it_was(cards: int, entry: Any, message: str) -> None:
    session = started(cards=cards)
    before = snapshot(session)
    with pytest.raises(ConsoleError, match=message):
        entry(session)
    assert snapshot(session) == before


def test_undo_of_every_kind_of_entry_restores_the_exact_state() -> None:
    session = DealerSession(SIGN)
    streets_4_to_6 = [("deal", (c,)) for c in ORDER_3[9:11]] + [("act", ("check",))] * 2
    streets_4_to_6 += [("deal", (c,)) for c in ORDER_3[11:13]] + [("act", ("check",))] * 2
    streets_4_to_6 += [("deal", (c,)) for c in ORDER_3[13:15]] + [("act", ("check",))] * 2
    steps: list[tuple[str, tuple[Any, ...]]] = [
        ("buy_in", (1, "Ann", 200)),
        ("buy_in", (2, "Bob", 300)),
        ("buy_in", (3, "Cy", 200)),
        ("top_up", (2, 50)),
        ("start_hand", ()),
        *[("deal", ("??",))] * 6,  # the dealer does not see the down cards
        *[("deal", (c,)) for c in ORDER_3[6:9]],
        ("act", ("bring in",)),
        ("act", ("complete",)),
        ("act", ("call",)),
        ("act", ("fold",)),
        *streets_4_to_6,
        ("deal", ("??",)),
        ("deal", ("??",)),
        ("act", ("check",)),
        ("act", ("check",)),
        ("reveal", (1, ["Kh", "Kd", "Ks", "Qh", "7h", "3d", "Ah"])),  # the hands are shown
        ("reveal", (2, ["9d", "8s", "Jd", "Td", "4c", "8h", "Ad"])),
        ("leave", (3,)),
    ]
    kinds = set()
    for name, args in steps:
        before = snapshot(session)
        done = getattr(session, name)(*args)
        kinds.add(done.entry["entry"])
        after = snapshot(session)
        assert session.undo() == done.entry
        assert snapshot(session) == before
        getattr(session, name)(*args)
        assert snapshot(session) == after
    assert kinds == {"buy-in", "top-up", "leave", "start", "card", "action", "reveal"}
    assert session.seats == {1: ("Ann", 215), 2: ("Bob", 339)}
    assert DealerSession.from_journal(SIGN, session.journal).report() == session.report()


def test_undo_with_nothing_to_undo() -> None:
    with pytest.raises(ConsoleError, match="nothing to undo"):
        DealerSession(SIGN).undo()


def test_a_journal_entry_out_of_place_is_refused_naming_it() -> None:
    with pytest.raises(JournalError, match=r"journal entry 2 .*no card is needed now"):
        DealerSession.from_journal(
            SIGN,
            [{"entry": "buy-in", "seat": 1, "name": "A", "chips": 200}, {"entry": "card", "seat": 1, "card": "Ah"}],
        )
    with pytest.raises(JournalError, match=r"journal entry 1 .*unknown entry 'dance'"):
        DealerSession.from_journal(SIGN, [{"entry": "dance"}])
    with pytest.raises(JournalError, match="the next hand is hand 1, not 2"):
        DealerSession.from_journal(SIGN, [{"entry": "start", "hand": 2}])


def test_the_cap_is_said_and_heads_up_there_is_none() -> None:
    session = started()
    for said in ("bring in", "complete", "raise", "raise"):
        session.act(said)
    assert session.needed().options == ("fold", "call 20", "raise to 40") and session.needed().note == ""
    session.act("raise")
    wanted = session.needed()
    assert (wanted.options, wanted.note) == (("fold", "call 20"), "cap reached")
    assert str(wanted) == "seat 2 (Bob) to act: fold, call 20 (cap reached)"
    heads_up = started((200, 200), cards=6)
    for said in ("bring in", "complete", "raise", "raise", "raise"):
        heads_up.act(said)
    assert heads_up.needed().note == "heads-up: no cap" and "raise to 50" in heads_up.needed().options


def test_the_short_deck_community_card_is_asked_for() -> None:
    """Eight players to 7th street need 56 cards: the engine turns one community card, and the console asks
    the dealer for it."""
    session = seated(*[200] * 8)
    session.start_hand()
    deck = iter(DECK)
    community = []
    while (wanted := session.needed()).kind in ("card", "action"):
        if wanted.kind == "card":
            if wanted.seat is None:
                community.append(str(wanted))
            session.deal(next(deck))
        else:
            session.act(
                "check" if "check" in wanted.options else "bring in" if "bring in 3" in wanted.options else "call"
            )
    assert community == ["turn the community card (7th street)"]
    assert session.announcements.count("not enough cards for everyone: one community card is turned for all (R8)") == 1
    assert session.hand_number == 1 and session.report().balanced


def test_a_hi_lo_split_with_the_odd_chip_is_said_and_pushed() -> None:
    """Stud hi/lo, three players, a pot of 9: kings win 5 for high (the odd chip goes high, R11.5.2), an
    eight-seven low wins 4."""
    sign = Sign.of("stud8", small_bet=4, big_bet=8, ante=1, bring_in=2, min_buy_in=40)
    session = seated(40, 40, 40, sign=sign)
    session.start_hand()
    # seat 1: Kh Kd Ks..., seat 2: 8s 7d 2c 3h 4s 9c Qd (8-7 low), seat 3: door Td, no low, no pair
    first = ["Kh", "8s", "Jc", "Kd", "7d", "9h", "Ks", "2c", "Td"]  # seat 2's door 2c brings in
    later = ["Qh", "3h", "5d", "6c", "4s", "Jh", "Ac", "9c", "Tc", "Kc", "Qd", "Qs"]
    cards = iter(first + later)
    deal_while_needed(session, cards)
    session.act("bring in")
    session.act("call")
    session.act("call")
    check_down(session, cards)
    pushes = session.pushes()
    assert [str(p) for p in pushes] == [
        "push Ann 5 (main pot, high half, 1 odd chip)",
        "push Bob 4 (main pot, low half)",
    ]
    assert session.announcements[-2:] == (
        "Ann wins 5 from the main pot for high with four of a kind, kings",
        "Bob wins 4 from the main pot for low with an eight-seven low",
    )
    assert session.seats == {1: ("Ann", 42), 2: ("Bob", 41), 3: ("Cy", 37)}


@pytest.mark.parametrize(("odd_chip", "winner"), [("seat", "Ann"), ("high card", "Bob")])
def test_the_house_odd_chip_rule_decides_who_gets_the_odd_chip(odd_chip: str, winner: str) -> None:
    """Razz, Ann and Bob tie with 7-5-4-3-2 and the pot is 9: seed C's rule gives the odd chip to the seat nearest
    the dealer's left (Ann), seed A's to the highest card by suit (Bob's 7 of spades over Ann's 7 of clubs)."""
    sign = Sign.of("razz", small_bet=4, big_bet=8, ante=1, bring_in=2, min_buy_in=40, odd_chip=odd_chip)
    session = seated(40, 40, 40, sign=sign)
    session.start_hand()
    first = ["2c", "2d", "Kc", "3c", "3d", "Qc", "4c", "4d", "Kd"]  # Cy's king brings in (razz: the highest door)
    later = ["5c", "5d", "Jc", "7c", "7s", "Jd", "Qh", "Qs", "Jh", "Kh", "Ks", "Js"]
    cards = iter(first + later)
    deal_while_needed(session, cards)
    for said in ("bring in", "call", "call"):
        session.act(said)
    check_down(session, cards)
    amounts = {p.name: (p.amount, p.odd_chips) for p in session.pushes()}
    loser = "Bob" if winner == "Ann" else "Ann"
    assert amounts == {winner: (5, 1), loser: (4, 0)}


def test_the_report_balances_and_the_results_sum_to_nothing() -> None:
    session = seated(200, 300, 250)
    session.top_up(1, 100)
    for _ in range(3):
        session.start_hand()
        cards = iter(DECK)
        while (wanted := session.needed()).kind in ("card", "action"):
            if wanted.kind == "card":
                session.deal(next(cards))
            else:
                session.act(
                    wanted.options[-1]
                    if "bet" in wanted.options[-1]
                    else wanted.options[min(1, len(wanted.options) - 1)]
                )
        assert session.report().balanced
    session.leave(2)
    report = session.report()
    assert report.hands == 3 and report.balanced
    assert report.money_in == 850 and report.money_out == next(p.cashed_out for p in report.players if p.name == "Bob")
    assert sum(p.result for p in report.players) == 0
    assert str(report).splitlines()[0] == "3 hands dealt"
    assert str(report).splitlines()[-1].endswith("(balanced)")
    assert [p.seat for p in report.players] == [1, None, 3]


def test_a_session_takes_the_engines_rules_for_a_tournament() -> None:
    rules = Rules.tournament("STUD7", ante=1, bring_in=3, small_bet=10, big_bet=20, min_buy_in=50)
    session = DealerSession(rules)
    assert session.rules.raise_cap == 4 and session.sign.preset == "tournament" and session.rules == rules


@pytest.mark.parametrize("game", ["stud", "stud8", "razz", "5stud"])
def test_any_option_the_console_offers_is_taken_as_it_is_written(game: str) -> None:
    """Hands played by picking the console's own option words at random (a dealer tapping them): every one is
    accepted, the books balance after every hand, an undo anywhere is the journal rebuilt without its last entry,
    and the journal rebuilds the same session."""
    rng = random.Random(game)
    sign = Sign.of(game, small_bet=10, big_bet=20, ante=1, bring_in=3)
    session = seated(*[300] * (10 if game == "5stud" else 6), sign=sign)
    for _ in range(12):
        for seat, (_, stack) in session.seats.items():
            if stack < 200:
                session.top_up(seat, 200)
        session.start_hand()
        deck = list(DECK)
        rng.shuffle(deck)
        cards = iter(deck)
        while (wanted := session.needed()).kind in ("card", "action"):
            if wanted.kind == "card":
                session.deal(next(cards))
            else:
                session.act(rng.choice(wanted.options))
            if rng.random() < 0.1:  # undo (from the hand's start) is the journal rebuilt without the last entry
                rebuilt = DealerSession.from_journal(sign, session.journal[:-1])
                entry = session.undo()
                assert snapshot(session) == snapshot(rebuilt)
                session.enter(entry)
        assert session.report().balanced
        if rng.random() < 0.5:  # undo the hand's last entry, then the start of the next hand
            entry = session.undo()
            assert snapshot(session) == snapshot(DealerSession.from_journal(sign, session.journal))
            session.enter(entry)
    again = DealerSession.from_journal(sign, session.journal)
    assert snapshot(again) == snapshot(session)
    assert [str(p) for p in again.pushes()] == [str(p) for p in session.pushes()]


def test_a_reveal_is_asked_for_by_seat() -> None:
    session = seated(200, 200)
    session.start_hand()
    for card in ("??", "??", "??", "??", "Kh", "2c", "3c", "4c", "5c", "6c", "7c", "8c", "??", "??"):
        while session.needed().kind == "action":
            options = session.needed().options
            session.act("bring in 3" if "bring in 3" in options else "check" if "check" in options else options[1])
        session.deal(card)
    while session.needed().kind == "action":
        session.act("check")
    assert str(session.needed()) == "seats 1, 2 must show their cards (reveal)"
    session.reveal(1, ["As", "Ad", "Kh", "3c", "5c", "7c", "Ac"])
    assert str(session.needed()) == "seats 2 must show their cards (reveal)"


def test_a_short_stack_all_in_makes_a_side_pot_and_the_pushes_say_so() -> None:
    """Cy (20 chips) is all in: the main pot is three times what he put in, the rest a side pot; Bob's diamond flush
    takes both (over Cy's hearts and Ann's kings)."""
    sign = Sign.of("stud", small_bet=10, big_bet=20, ante=1, bring_in=3, min_buy_in=20)
    session = seated(200, 200, 20, sign=sign)
    session.start_hand()
    cards = iter(ORDER_3)
    while (wanted := session.needed()).kind in ("card", "action"):
        if wanted.kind == "card":
            session.deal(next(cards))
        elif wanted.seat == 1:
            session.act(wanted.options[-1])  # Ann bets or raises all the way
        else:
            session.act("bring in 3" if "bring in 3" in wanted.options else wanted.options[1])  # call
    pushes = session.pushes()
    assert {(p.name, p.pot) for p in pushes if p.pot is not None} == {("Bob", 0), ("Bob", 1)}
    main = next(p.amount for p in pushes if p.pot == 0)
    assert main == 3 * 20
    assert any(line == "Bob wins 122 from side pot 1 with a flush, ace high" for line in session.announcements)
    assert session.seats[3] == ("Cy", 0) and session.report().balanced
    assert session.needed().kind == "start"  # Cy, busted, is not dealt in until he buys chips


def test_undo_again_and_again_walks_the_journal_back_to_the_start() -> None:
    session = seated(200, 200, 200)
    for _ in range(2):
        session.start_hand()
        cards = iter(ORDER_3)
        while (wanted := session.needed()).kind in ("card", "action"):
            if wanted.kind == "card":
                session.deal(next(cards))
            else:
                session.act(wanted.options[1] if wanted.options[0] == "fold" else wanted.options[0])
    journal = session.journal
    while session.journal:
        session.undo()
        assert snapshot(session) == snapshot(DealerSession.from_journal(SIGN, journal[: len(session.journal)]))
    assert snapshot(session) == snapshot(DealerSession(SIGN))


def test_odd_chips_are_counted_in_the_signs_smallest_chip() -> None:
    """Stakes in chips of 5: a hi/lo pot of 45 (9 chips) splits 25 high (with the odd chip) and 20 low."""
    rules = Rules.casino("STUD7_HL8", ante=5, bring_in=10, small_bet=20, big_bet=40, chip_unit=5, min_buy_in=200)
    session = seated(200, 200, 200, sign=Sign.from_rules(rules))
    session.start_hand()
    cards = iter(["Kh", "8s", "Jc", "Kd", "7d", "9h", "Ks", "2c", "Td", "Qh", "3h", "5d", "6c", "4s", "Jh"])
    cards = iter([*cards, "Ac", "9c", "Tc", "Kc", "Qd", "Qs"])
    deal_while_needed(session, cards)
    for said in ("bring in", "call", "call"):
        session.act(said)
    check_down(session, cards)
    assert [(p.name, p.amount, p.odd_chips) for p in session.pushes()] == [("Ann", 25, 1), ("Bob", 20, 0)]
