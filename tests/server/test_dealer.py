"""The dealer's lines (studpoker.engine.dealer, sent as the ``dealer`` messages of studpoker.server.wire): built
from the spectators' events of hands dealt by hand, so every line is known in advance; and the words for shown
hands (``wire.shown_hand``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from studpoker.cards import parse_cards
from studpoker.engine import Action, ActionKind, HandState, Rules, Stud5Opening, Variant
from studpoker.engine.dealer import dealer_lines, spoken_high, spoken_low
from studpoker.evaluation import evaluate_high, evaluate_low8, evaluate_razz
from studpoker.server.wire import dealer_messages, shown_hand
from tests.engine.helpers import Table, rules

S1, S2, S3 = range(3)
NAMES = ["ann", "bob", "cid"]

Policy = Callable[[HandState], Action]


def passive(state: HandState) -> Action:
    legal = {a.kind: a for a in state.legal_actions()}
    return legal.get(ActionKind.BRING_IN) or legal.get(ActionKind.CHECK) or legal[ActionKind.CALL]


def play(table: Table, rules_: Rules, policy: Policy = passive, names: list[str] = NAMES) -> list[str]:
    """Every line the dealer says while the hand is played out, step by step as the card room publishes it."""
    said: list[str] = []
    start = 0

    def step() -> None:
        nonlocal start
        view = table.state.view(None)
        said.extend(dealer_lines(view.events, start, view, names, rules_))
        start = len(view.events)

    step()
    while not table.state.is_over and table.state.actor is not None:  # (unknown down cards stop it at showdown)
        table.state.apply(policy(table.state))
        table.feed()
        step()
    return said


CARDS = {S1: "9c 9d As Ah Kd Kc 2h", S2: "Jc Jd 5d 6c 8s 9h 3h", S3: "Qc Qd 4c Tc 2s 3d 7h"}


def test_a_hand_checked_down() -> None:
    r = rules()
    said = play(Table(r, [504] * 3, CARDS), r)
    assert said == [
        "cid brings in for 3",  # the lowest door, 4♣
        "ann is high with a pair of aces showing and acts first",
        "ann is high with a pair of aces showing and acts first",
        "ann is high with two pair, aces and kings showing and acts first",
        "ann is high with two pair, aces and kings showing and acts first",
        "showdown, every hand turned up: ann first (high on board), then bob and cid",
        "ann wins 12 from the main pot with two pair, aces and kings",
    ]


def test_the_low_card_completes_and_a_hand_won_without_showdown() -> None:
    r = rules()

    def policy(state: HandState) -> Action:
        legal = {a.kind: a for a in state.legal_actions()}
        if ActionKind.COMPLETE in legal and state.actor == S3:
            return legal[ActionKind.COMPLETE]
        return legal.get(ActionKind.FOLD) or passive(state)

    said = play(Table(r, [504] * 3, CARDS), r, policy)
    assert said == ["cid completes to 10", "cid wins 3 (no showdown)"]  # the antes: the uncalled 10 went back


def test_a_completion_after_the_bring_in_is_not_announced() -> None:
    r = rules()

    def policy(state: HandState) -> Action:
        legal = {a.kind: a for a in state.legal_actions()}
        if state.actor == S1 and ActionKind.COMPLETE in legal:
            return legal[ActionKind.COMPLETE]
        return passive(state)

    said = play(Table(r, [504] * 3, CARDS), r, policy)
    assert said[0] == "cid brings in for 3" and not any("completes" in line for line in said)


def test_razz_boards_and_lows() -> None:
    r = rules(Variant.RAZZ)
    cards = {S1: "9c 9d Kc 4h 2d Jd Qh", S2: "Ac 2c 7d 3s 5h 8c 6d", S3: "Tc Td Qc Jc Kd 9h Ks"}
    said = play(Table(r, [504] * 3, cards), r)
    assert said[0] == "ann brings in for 3"  # razz: the highest door brings in (K♣)
    assert said[1] == "bob is low with 7-3 low showing and acts first"
    assert said[-1] == "bob wins 12 from the main pot with a six-five low"


def test_the_showdown_order_is_said() -> None:
    """Who shows first (R9.3): the last to bet on the last round, else the high board (razz: the low board); said
    once, as the showdown begins, with every hand turned up or one decision at a time."""
    r = rules()

    def bob_bets_the_river(state: HandState) -> Action:
        legal = {a.kind: a for a in state.legal_actions()}
        if state.street == 7 and state.actor == S2 and ActionKind.BET in legal:
            return legal[ActionKind.BET]
        return passive(state)

    said = play(Table(r, [504] * 3, CARDS), r, bob_bets_the_river)
    assert said[-2] == "showdown, every hand turned up: bob first (last to bet), then cid and ann"
    razz = rules(Variant.RAZZ)
    cards = {S1: "9c 9d Kc 4h 2d Jd Qh", S2: "Ac 2c 7d 3s 5h 8c 6d", S3: "Tc Td Qc Jc Kd 9h Ks"}
    said = play(Table(razz, [504] * 3, cards), razz)
    assert said[-2] == "showdown, every hand turned up: bob first (low on board), then cid and ann"

    def show(state: HandState) -> Action:
        legal = {a.kind: a for a in state.legal_actions()}
        return legal.get(ActionKind.SHOW) or passive(state)

    said = play(Table(r, [504] * 3, CARDS, auto_show=False), r, show)
    assert said.count("showdown: ann shows first (high on board), then bob and cid") == 1


def test_hi_lo_halves() -> None:
    r = rules(Variant.STUD7_HL8)
    cards = {S1: "Kc Kd Ks Qh Qd 9c 9h", S2: "Ac 2c 7d 3s 5h 8c 6d", S3: "Tc Td Qc Jc Kh Js Ts"}
    said = play(Table(r, [504] * 3, cards), r)
    assert said[-2:] == [
        "ann wins 6 from the main pot for high with a full house, kings full of queens",
        "bob wins 6 from the main pot for low with a six-five low",
    ]


def test_hi_lo_scoop() -> None:
    r = rules(Variant.STUD7_HL8)
    cards = {S1: "Kc Kd 8s Qh Jd 9c 2h", S2: "Ac 2c 7d 3s 5h 4c 6d", S3: "Tc Td Qc Jc 8h Js 3d"}
    said = play(Table(r, [504] * 3, cards), r)
    assert said[-1] == "bob wins 12 from the main pot, high and low, with a straight, seven high and a five-four low"


def test_the_high_board_all_in_and_side_pots() -> None:
    r = rules()
    cards = {S1: "9c 9d As Ah Kd Kc 2h", S2: "Jc Jd 5d 6c 8s 9h 3h", S3: "Qc Qd 4c Tc 2s 3d 7h"}
    said = play(Table(r, [4, 504, 504], cards), r)  # ann: all in for her last chips on third street
    assert said[1] == "ann is high with a pair of aces showing, all in; bob acts first"


def test_five_card_stud_when_the_high_card_opens() -> None:
    r = rules(Variant.STUD5, stud5_opening=Stud5Opening.HIGH_CARD_OPENS)
    cards = {S1: "9c As Ah Kd Kc", S2: "Jc 5d 6c 8s 9h", S3: "Qc Kh Tc 2s 3d"}
    said = play(Table(r, [504] * 3, cards), r)
    assert said[0] == "ann is high with ace high showing and acts first"


def test_messages() -> None:
    r = rules()
    view = Table(r, [504] * 3, CARDS).state.view(None)
    assert dealer_messages(view.events, 0, view, NAMES, r, 7) == [
        {"type": "dealer", "hand": 7, "text": line} for line in dealer_lines(view.events, 0, view, NAMES, r)
    ]
    assert dealer_lines(view.events, len(view.events), view, NAMES, r) == []  # nothing new: nothing said


def test_after_a_community_card_the_dealer_names_the_first_actor_only() -> None:
    """Eight players reach seventh street on a short deck (SPEC TC-25): the community card is dealt, and who acts
    first is not a matter of boards alone (R8.6)."""
    from tests.engine.test_spec_scenarios import TC25_BOARDS

    r = rules()
    names = [f"p{i}" for i in range(8)]
    cards = {p: "?? ?? " + board for p, board in enumerate(TC25_BOARDS)}
    said = play(Table(r, [501] * 8, cards, community="Ad"), r, names=names)
    assert said[0] == "p7 brings in for 3"  # the lowest door, 7♥
    assert "p0 acts first" in said  # seventh street: AS_ON_6TH, the pair of kings of sixth street


@pytest.mark.parametrize(
    ("cards", "words"),
    [
        ("As Ks Qs Js Ts", "a royal flush"),
        ("9s 8s 7s 6s 5s", "a straight flush, nine high"),
        ("7c 7d 7h 7s 2d", "four of a kind, sevens"),
        ("Kc Kd Kh 7s 7d", "a full house, kings full of sevens"),
        ("Ac 9c 7c 4c 2c", "a flush, ace high"),
        ("5d 4c 3h 2s Ah", "a straight, five high"),
        ("7c 7d 7h Kd 2s", "three of a kind, sevens"),
        ("Ac Ad 7h 7s 2d", "two pair, aces and sevens"),
        ("Qc Qd 7h 5s 2d", "a pair of queens"),
        ("Ad Kc 9h 7s 2d", "ace high"),
    ],
)
def test_spoken_high(cards: str, words: str) -> None:
    assert spoken_high(evaluate_high(parse_cards(cards))) == words


def test_spoken_low() -> None:
    assert spoken_low(evaluate_low8(parse_cards("8c 7d 4h 2d As"))) == "an eight-seven low"  # type: ignore[arg-type]
    assert spoken_low(evaluate_razz(parse_cards("6c 4d 3h 2d As"))) == "a six-four low"
    assert spoken_low(evaluate_razz(parse_cards("Kc Kd 2h 2d 7s"))) == "two pair, kings and twos"
    assert spoken_low(evaluate_razz(parse_cards("9c 9d 9h 2d 7s"))) == "three of a kind, nines"


def test_shown_hand_in_every_game() -> None:
    cards = parse_cards("Ah 2c 3d 6s 7h Qd Qh")
    assert shown_hand(cards, Variant.STUD7) == {
        "best": ["Qh", "Qd", "Ah", "7h", "6s"],
        "low": None,
        "high_description": "Pair of queens",
        "low_description": None,
    }
    assert shown_hand(cards, Variant.STUD7_HL8) == {
        "best": ["Qh", "Qd", "Ah", "7h", "6s"],
        "low": ["7h", "6s", "3d", "2c", "Ah"],
        "high_description": "Pair of queens",
        "low_description": "7-6-3-2-A low",
    }
    no_low = shown_hand(parse_cards("Ah Kc Td 9s 9h Qd Qh"), Variant.STUD7_HL8)
    assert no_low["low"] is None and no_low["low_description"] is None and len(no_low["best"]) == 5
    assert shown_hand(cards, Variant.RAZZ) == {
        "best": ["7h", "6s", "3d", "2c", "Ah"],
        "low": None,
        "high_description": None,
        "low_description": "7-6-3-2-A low",
    }
    five = shown_hand(parse_cards("Kd 9c 9h 4s 2d"), Variant.STUD5)
    assert sorted(five["best"]) == sorted(["Kd", "9c", "9h", "4s", "2d"])
    assert five["high_description"] == "Pair of nines"
    assert shown_hand(parse_cards("Kd 9c"), Variant.STUD7)["best"] == []


def test_a_community_card_plays_in_the_shown_hand() -> None:
    """The short deck's community card is part of every hand: it is in ``best`` when it plays."""
    own = parse_cards("Kd 9c 9h 4s 2d 3c")
    community = parse_cards("9s")
    shown = shown_hand(own + community, Variant.STUD7)
    assert "9s" in shown["best"] and shown["high_description"] == "Three of a kind, nines"
