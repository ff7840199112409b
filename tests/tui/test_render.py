"""The pure text of the terminal game: labels, keys, seats, pots, the log and the showdown."""

from __future__ import annotations

from dataclasses import replace

from studpoker.cards import parse_cards
from studpoker.engine import Action, HandState, Rules, Variant
from studpoker.engine.events import ActionTaken, Awarded, Shown
from studpoker.tui.render import (
    HIDDEN,
    SeatInfo,
    action_keys,
    action_label,
    bring_in_player,
    button_label,
    card_spans,
    card_text,
    describe_hand,
    door_cards,
    game_title,
    log_lines,
    pot_text,
    result_lines,
    screen_size,
    seat_rows,
    showdown_lines,
    shown_hands,
    status_lines,
    street_name,
    winning_cards,
)
from tests.engine.helpers import Table, rules

CASINO = Rules(Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=20)
NAMES = ("You", "Bob", "Cid")


def test_action_labels_and_keys() -> None:
    actions = [Action.bring_in(3), Action.complete(10)]
    assert [action_label(a, a.amount) for a in actions] == ["Bring in 3", "Complete to 10"]
    assert action_keys(actions) == ["b", "r"]
    # having brought in for 3, facing a completion to 10: calling costs 7, and the Call button says 7
    facing = [Action.fold(), Action.call(10), Action.raise_to(20)]
    costs = [0, 7, 17]
    assert [action_label(a, c) for a, c in zip(facing, costs, strict=True)] == ["Fold", "Call 7", "Raise to 20"]
    assert action_keys(facing) == ["f", "c", "r"]
    keys = action_keys(facing)
    assert [button_label(a, c, i, k) for i, (a, c, k) in enumerate(zip(facing, costs, keys, strict=True), 1)] == [
        "1 Fold (f)",
        "2 Call 7 (c)",
        "3 Raise to 20 (r)",
    ]


def test_open_pair_offers_both_bet_sizes() -> None:
    actions = [Action.check(), Action.bet(10), Action.bet(20)]
    assert [action_label(a, a.amount) for a in actions] == ["Check", "Bet 10", "Bet 20"]
    assert action_keys(actions) == ["c", "b", "r"]
    raises = [Action.fold(), Action.call(10), Action.raise_to(20), Action.raise_to(30)]
    assert action_keys(raises) == ["f", "c", "r", ""]
    assert button_label(raises[3], 30, 4, "") == "4 Raise to 30"


def test_cards_and_names() -> None:
    card = parse_cards("Th")[0]
    assert card_text(card) == "T♥"
    assert card_text(card, symbols=False) == "Th"
    assert card_text(None) == HIDDEN
    assert street_name(3) == "3rd street"
    assert street_name(7) == "7th street"
    assert game_title(Variant.RAZZ, 10, 20, 1, 3, "casino") == "Razz 10/20, ante 1, bring-in 3 (casino)"


def test_describe_hand_by_variant() -> None:
    cards = parse_cards("As Ad 7c 7h 2s Kd 3c")
    assert describe_hand(cards, Variant.STUD7) == "Two pair, aces and sevens"
    assert describe_hand(cards, Variant.STUD7_HL8) == "Two pair, aces and sevens; low: none"
    assert describe_hand(parse_cards("Ah 2c 3d 6s 7h Qd Qh"), Variant.STUD7_HL8).endswith("low: 7-6-3-2-A low")
    assert describe_hand(cards, Variant.RAZZ) == "K-7-3-2-A low"
    assert describe_hand([*cards[:4], None], Variant.STUD7) == ""  # fewer than five known cards


def test_seat_rows_hide_what_the_view_hides() -> None:
    ks, qd, seven = parse_cards("Ks Qd 7h")
    mine = SeatInfo(1, "You", 196, you=True, player=0, bet=3, down=(ks, qd), up=(seven,), to_act=True)
    theirs = SeatInfo(2, "Bob", 199, tag="random", player=1, down=(None, None), up=(seven,), bring_in=True)
    busted = SeatInfo(3, "Cid", 0)
    queued = SeatInfo(4, "Dee", 10, queued=200, sitting_out=True)
    rows = [lines[0] for lines in seat_rows([mine, theirs, busted, queued])]
    assert rows == [
        "1 You (you)     Stack 196  Bet 3        Down K♠ Q♦  Up 7♥  >> TO ACT",
        f"2 Bob · random  Stack 199               Down {HIDDEN} {HIDDEN}  Up 7♥  BRING-IN",
        "3 Cid           Stack   0                                  busted",  # not dealt in: no cards
        "4 Dee           Stack  10  +200 queued                     sitting out",
    ]
    assert seat_rows([busted]) == [["3 Cid  Stack 0  busted"]]  # before the first hand


def test_seat_rows_fit_the_width_without_losing_a_card_or_a_marker() -> None:
    cards = parse_cards("9d 9h 7s Jd Kc 6s 6h")
    seats = [
        SeatInfo(1, "You", 196, you=True, player=0, down=cards[:3], up=cards[3:], bring_in=True, folded=True),
        SeatInfo(2, "Bob", 1960, tag="tight-aggressive", player=1, bet=20, down=(None,) * 3, up=cards[3:]),
    ]
    wide = seat_rows(seats, 120)
    assert [len(lines) for lines in wide] == [1, 1]
    assert "Bob · tight-aggressive" in wide[1][0] and "Stack 1960" in wide[1][0]
    narrow = seat_rows(seats, 70)
    assert narrow == [
        ["1 You (you)   196          9♦ 9♥ 7♠ │ J♦ K♣ 6♠ 6♥  BRING-IN · folded"],
        ["2 Bob        1960  Bet 20  ## ## ## │ J♦ K♣ 6♠ 6♥"],
    ]
    assert seat_rows(seats, 40) == narrow  # too narrow even so: the rows wrap on the screen, nothing is left out


def test_shown_hands_go_on_the_row_or_under_it() -> None:
    cards = parse_cards("As Ad 7c 7h 2s Kd 3c")
    words = "Two pair, aces and sevens; low: none"
    seat = SeatInfo(1, "You", 196, you=True, player=0, down=cards[:3], up=cards[3:], winnings=40, words=words)
    assert seat_rows([seat], 100) == [["1 You (you)  Stack 196  Down A♠ A♦ 7♣  Up 7♥ 2♠ K♦ 3♣  won 40  " + words]]
    two = seat_rows([seat], 60)
    assert two == [["1 You (you)  196  A♠ A♦ 7♣ │ 7♥ 2♠ K♦ 3♣  won 40", "                  " + words]]
    long_name = replace(seat, name="Alexander the Magnificent of Macedon")
    rows = seat_rows([long_name], 60)
    assert rows[0][0].startswith("1 Alexander the Magnificent of Macedon (you)") and rows[0][1] == "  " + words


def test_screen_size() -> None:
    assert screen_size(6) == (80, 20)
    assert screen_size(8) == (80, 24)  # the classic terminal holds a full seven-card stud table
    assert screen_size(10) == (80, 28)


def test_a_view_through_the_render_functions() -> None:
    hand = HandState(CASINO, [201, 201, 201], seed=11)
    view = hand.view(0)
    assert bring_in_player(view) == 1  # the lowest door card, before anyone acted
    assert set(door_cards(view)) == {0, 1, 2}
    assert pot_text(view) == "Pot 3"
    status = status_lines(view, NAMES, 1)
    assert status[0] == "Hand #1 · 3rd street · Pot 3"
    assert status[1] == "Bob to act"
    assert status[2] == "Bring-in: Bob"
    assert status[3].startswith("Door cards: You ")
    lines = log_lines(view.events, NAMES, Variant.STUD7)
    assert lines[0] == "Antes: 1 from each of 3 players"
    assert lines[1] == "*** 3rd street ***"
    own = " ".join(card_text(c) for c in hand.view(0).players[0].down)
    assert lines[2].startswith(f"  You: [{own}] ")
    assert lines[3].startswith(f"  Bob: [{HIDDEN} {HIDDEN}] ")
    hand.apply(Action.complete(10))  # the bring-in player completes: still marked as the bring-in
    assert bring_in_player(hand.view(0)) == 1
    assert log_lines(hand.view(0).events, NAMES, Variant.STUD7)[-1] == "Bob completes to 10"
    assert status_lines(None, (), 0) == ["No hand yet: press n (Deal) to deal the first hand."]


def test_side_pots_are_shown() -> None:
    view = HandState(CASINO, [201, 201, 201], seed=11).view(0)
    players = tuple(replace(p, total=t) for p, t in zip(view.players, (40, 60, 60), strict=True))
    assert pot_text(replace(view, players=players, pot=160)) == "Pot 160"  # player 0 may still call: one pot
    players = (replace(players[0], all_in=True, stack=0), *players[1:])
    assert pot_text(replace(view, players=players, pot=160)) == "Pot 160: main 120, side pot 1 40"
    players = tuple(replace(p, total=t) for p, t in zip(view.players, (1, 1, 4), strict=True))
    assert pot_text(replace(view, players=players, pot=6)) == "Pot 6"  # an uncalled bring-in is no side pot


def test_log_and_showdown_name_hands_and_winners() -> None:
    hand = HandState(CASINO, [201, 201, 201], seed=11)
    while not hand.is_over:
        legal = {a.kind.value: a for a in hand.legal_actions()}
        hand.apply(legal.get("check") or legal["call"] if "call" in legal or "check" in legal else legal["bring-in"])
    view = hand.view(0)
    shown = [e for e in view.events if isinstance(e, Shown)]
    awards = [e for e in view.events if isinstance(e, Awarded)]
    assert len(shown) == 3 and awards
    lines = showdown_lines(view, NAMES)
    assert lines[0] == "Showdown"
    for event in shown:
        words = describe_hand(event.cards, Variant.STUD7)
        assert any(line.startswith(f"  {NAMES[event.player]}: ") and line.endswith(words) for line in lines)
    winner = NAMES[awards[0].player]
    assert f"Winner: {winner}" in lines
    assert any(line.startswith(winner) and f"{awards[0].amount} from the main pot" in line for line in lines)
    assert shown_hands(view) == {e.player: describe_hand(e.cards, Variant.STUD7) for e in shown}
    assert result_lines(view, NAMES) == lines[1 + len(shown) :]
    log = log_lines(view.events, NAMES, Variant.STUD7)
    assert log[-1] == "Hand over"
    assert any(" show " in line or " shows " in line for line in log)
    assert pot_text(view) == "Pot awarded"
    assert status_lines(view, NAMES, 1) == ["Hand #1 is over"]  # the door cards are in the log by now


def test_grammar_for_you() -> None:
    hand = HandState(CASINO, [201, 201, 201], seed=11)
    hand.apply(Action.bring_in(3))
    hand.apply(Action.call(3))
    events = hand.view(None).events
    assert [e.player for e in events if isinstance(e, ActionTaken)] == [1, 2]
    lines = log_lines(events, ("Ann", "You", "Bob"), Variant.STUD7)
    assert lines[-2:] == ["You bring in 3", "Bob calls 3"]


def test_hi_lo_showdown_names_both_halves() -> None:
    rules = Rules(Variant.STUD7_HL8, ante=1, bring_in=3, small_bet=10, big_bet=20)
    for seed in range(40):
        hand = HandState(rules, [201, 201, 201], seed=seed)
        while not hand.is_over:
            legal = {a.kind.value: a for a in hand.legal_actions()}
            hand.apply(legal.get("check") or legal.get("call") or legal["bring-in"])
        view = hand.view(None)
        if any(isinstance(e, Awarded) and e.share == "low" for e in view.events):
            break
    lines = showdown_lines(view, NAMES)
    summary = next(line for line in lines if line.startswith("High: "))
    assert " · Low: " in summary and "no qualifying low" not in summary
    assert any(line.endswith("(low)") for line in lines)


def _faced_with_a_raise() -> Table:
    """You (door 2c) brought in for 3, Bob (door Kd) completed to 10, Cid (door 9s) raised to 20."""
    table = Table(rules(), [500, 500, 500], {0: "Ah Ad 2c 3h", 1: "Qs Js Kd Kh", 2: "4d 5d 9s 8c"})
    for text in ("bring-in 3", "complete 10", "raise 20"):
        table.act(text)
    return table


def test_a_call_says_what_it_costs_not_the_street_total() -> None:
    table = _faced_with_a_raise()
    view = table.state.view(0)
    assert status_lines(view, NAMES, 1)[1] == "You to act · 17 to call"  # 20 less the 3 already in
    call = next(a for a in view.legal_actions if a.kind.value == "call")
    assert call == Action.call(20) and view.cost(call) == 17
    assert button_label(call, view.cost(call), 2, "c") == "2 Call 17 (c)"
    table.act("call 20")  # you
    assert status_lines(table.state.view(0), NAMES, 1)[1] == "Bob to act · 10 to call"  # 20 less his 10
    table.act("call 20")  # Bob
    log = log_lines(table.state.view(0).events, NAMES, Variant.STUD7)
    third = log[log.index("You bring in 3") : log.index("*** 4th street ***")]
    assert third == ["You bring in 3", "Bob completes to 10", "Cid raises to 20", "You call 17", "Bob calls 10"]


def test_who_is_high_and_acts_first_is_said_on_the_status_line_and_in_the_log() -> None:
    table = _faced_with_a_raise()
    table.act("call 20")
    table.act("call 20")  # 4th street: Bob shows a pair of kings
    view = table.state.view(0)
    assert view.street == 4 and view.actor == 1
    assert "Bob is high with a pair of kings showing and acts first" in status_lines(view, NAMES, 1)
    table.act("check")  # the line is in the log before Bob's first action, and leaves the status line
    view = table.state.view(0)
    assert not any("acts first" in line for line in status_lines(view, NAMES, 1))
    log = log_lines(view.events, NAMES, Variant.STUD7)
    assert log[-2:] == ["Bob is high with a pair of kings showing and acts first", "Bob checks"]
    # the viewer's own high board, and a board that is all in: the grammar and the rule of R7.5
    you = Table(rules(), [500, 500], {0: "Ah Ad Kc Ks", 1: "Qs Js 2d 3h"})
    you.act("bring-in 3")
    you.act("call 3")
    assert "You are high with a pair of kings showing and act first" in status_lines(you.state.view(0), NAMES, 1)


def test_the_five_cards_that_won_are_found_on_the_winners_row() -> None:
    table = Table(rules(), [500, 500], {0: "Ah Ad 2c 2h 7s 9d Jc", 1: "Qs Js 3d 4h 8s Tc 6h"})
    while not table.state.is_over:
        legal = {a.kind.value: a for a in table.state.legal_actions()}
        table.state.apply(legal.get("bring-in") or legal.get("check") or legal["call"])
        table.feed()
    view = table.state.view(None)
    won = winning_cards(view)
    assert list(won) == [0] and sorted(str(c) for c in won[0]) == sorted(["Ah", "Ad", "2c", "2h", "Jc"])
    you = SeatInfo(1, "You", 520, you=True, player=0, down=view.players[0].down, up=view.players[0].up, best=won[0])
    row = seat_rows([you])[0][0]
    spans = card_spans(row, row.index("You") + 3, won[0])
    assert sorted(row[a:b] for a, b in spans) == sorted(c.symbol for c in won[0])
    # stud hi/lo: a split pot marks the high five and the low five
    hilo = Table(rules(Variant.STUD7_HL8), [500, 500], {0: "Ah 2d 3c 4h 5s Kd Kc", 1: "Qs Qh 9d 9h Ts Jc Jd"})
    while not hilo.state.is_over:
        legal = {a.kind.value: a for a in hilo.state.legal_actions()}
        hilo.state.apply(legal.get("bring-in") or legal.get("check") or legal["call"])
        hilo.feed()
    won = winning_cards(hilo.state.view(None))
    assert sorted(str(c) for c in won[0]) == sorted(["Ah", "2d", "3c", "4h", "5s"])  # a wheel: high and low
