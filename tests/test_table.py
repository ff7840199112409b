"""Table sessions (SPEC section 3): seating, buy-ins, top-ups, sitting out, leaving, chip conservation."""

from __future__ import annotations

import contextlib
import random
from pathlib import Path

import pytest

from studpoker.bots import CallingStation, RandomBot, play_hand
from studpoker.engine import Action, IllegalActionError, Rules, Variant
from studpoker.history.files import HistoryFileError
from studpoker.history.session import dumps_session, load_session, loads_session, save_session
from studpoker.table import Table, TableError

RULES = Rules(Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=20, min_buy_in=200)


def table_with(*stacks: int, rules: Rules = RULES, seed: int = 1) -> Table:
    table = Table(rules, seed=seed)
    for i, stack in enumerate(stacks):
        table.sit(f"P{i + 1}", max(stack, rules.min_buy_in or 0))
    return table


def state_of(table: Table) -> tuple[object, ...]:
    return (table.occupied, table.money_in, table.money_out, table.hand_number, len(table.hands), table.players)


# -- seats and buy-ins ----------------------------------------------------------------------------------------


def test_seats_are_numbered_from_one_and_filled_in_order() -> None:
    table = table_with(200, 200)
    assert [s.number for s in table.occupied] == [1, 2]
    assert table.sit("Cid", 250, seat=7) == 7
    assert table.free_seats == (3, 4, 5, 6, 8)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("Cid", 150), "below the minimum buy-in of 200 (R3.3)"),
        (("Cid", 200, 9), "there is no seat 9: seats are 1 to 8"),
        (("Cid", 200, 0), "there is no seat 0"),
        (("Cid", 200, 1), "seat 1 is taken by P1"),
        (("P1", 200), "'P1' is already seated"),
        (("", 200), "a player needs a name"),
        (("Cid", 200.0), "a buy-in must be a whole number of chips"),
        (("Cid", True), "a buy-in must be a whole number of chips"),
    ],
)
def test_bad_seating_requests_are_refused_and_change_nothing(args: tuple[object, ...], message: str) -> None:
    table = table_with(200, 300)
    before = state_of(table)
    with pytest.raises(TableError, match=message.replace("(", r"\(").replace(")", r"\)")):
        table.sit(*args)  # type: ignore[arg-type]
    assert state_of(table) == before


def test_a_table_has_eight_seats_and_ten_in_five_card_stud() -> None:
    table = table_with(*[200] * 8)
    with pytest.raises(TableError, match="the table is full"):
        table.sit("Ninth", 200)
    five = Table(Rules(Variant.STUD5, ante=1, bring_in=2, small_bet=5, big_bet=10))
    for i in range(10):
        five.sit(f"P{i}", 100)
    assert five.max_seats == 10 and len(five.eligible()) == 10
    five.start_hand()
    assert len(five.players) == 10


def test_max_buy_in_caps_buy_ins_and_top_ups() -> None:
    table = Table(RULES.replace(max_buy_in=400))
    with pytest.raises(TableError, match="above the maximum buy-in of 400"):
        table.sit("Ann", 401)
    table.sit("Ann", 300)
    with pytest.raises(TableError, match="bring the stack to 450, above the maximum buy-in of 400"):
        table.top_up(1, 150)
    assert table.top_up(1, 100) and table.seat(1).stack == 400


def test_a_moved_player_brings_his_stack_whatever_the_buy_in_limits() -> None:
    rules = Rules(Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=20, min_buy_in=200, max_buy_in=400)
    table = table_with(200, rules=rules)
    assert table.seat_moved("Short", 37, 4) == 4 and table.seat_moved("Deep", 1_250) == 2
    assert table.seat(4).stack == 37 and table.seat(2).stack == 1_250
    table.check_conservation()
    before = state_of(table)
    for args, message in [
        (("Short", 50, 5), "already seated"),
        (("New", 50, 4), "taken by Short"),
        (("New", 0, 5), "stack must be a whole number"),
        (("New", 50, 9), "no seat 9"),
        (("", 50, 5), "needs a name"),
    ]:
        with pytest.raises(TableError, match=message):
            table.seat_moved(*args)  # type: ignore[arg-type]
    assert state_of(table) == before


def test_a_hand_needs_two_players_with_chips_who_are_not_sitting_out() -> None:
    table = table_with(200)
    with pytest.raises(TableError, match="a hand needs two players"):
        table.start_hand()
    table.sit("Bob", 200)
    table.sit_out(2)
    assert not table.can_start
    with pytest.raises(TableError, match="1 here"):
        table.start_hand()
    table.sit_in(2)
    assert table.can_start
    table.start_hand()
    with pytest.raises(TableError, match="hand 1 is still being played"):
        table.start_hand()


# -- TC-44 and R3.4: chips only between hands ----------------------------------------------------------------


def short_stack_hand(request: str) -> Table:
    """S2 has 30 chips behind in a hand (TC-44): 31 before the ante (a table restored from a session)."""
    seats = [{"seat": 1, "name": "S1", "stack": 500}, {"seat": 2, "name": "S2", "stack": 31}]
    seats.append({"seat": 3, "name": "S3", "stack": 500})
    snapshot = {"hand_number": 0, "money_in": 1031, "money_out": 0, "seats": seats, "seed": 3}
    table = Table.restore(RULES.replace(chips_request_during_hand=request), snapshot)
    table.start_hand()
    assert table.hand is not None and table.hand.stacks[1] == 30
    return table


def test_tc44_a_top_up_during_a_hand_is_queued_until_the_pot_is_awarded() -> None:
    table = short_stack_hand("QUEUE")
    behind = table.hand.stacks[1]  # type: ignore[union-attr]
    assert table.top_up(2, 200) is False
    assert table.seat(2).queued == 200
    assert table.hand.stacks[1] == behind  # type: ignore[union-attr]  # not in play in this hand (R3.2)
    table.check_conservation()
    while table.hand is not None:
        legal = {a.kind.value: a for a in table.legal_actions()}
        table.act(legal.get("check") or legal.get("call") or table.legal_actions()[0])
    final = table.hands[-1].state.stacks[1]
    assert table.seat(2).stack == final + 200 and table.seat(2).queued == 0
    table.check_conservation()


def test_tc44_with_reject_the_request_is_refused() -> None:
    table = short_stack_hand("REJECT")
    before = state_of(table)
    with pytest.raises(TableError, match=r"chips can be added only between hands \(R3.4"):
        table.top_up(2, 200)
    assert state_of(table) == before


def test_tc44_a_busted_player_must_rebuy_the_minimum_to_be_dealt_in() -> None:
    table = Table(RULES, seed=2)
    table.sit("Ann", 200)
    table.sit("Bob", 1000)
    while all(s.stack for s in table.occupied):
        play_hand(table, {1: CallingStation(), 2: CallingStation()})
    busted = next(s for s in table.occupied if s.stack == 0)
    assert busted.number not in table.eligible()
    with pytest.raises(TableError, match="a rebuy with no chips must be at least the minimum buy-in of 200"):
        table.top_up(busted.number, 199)
    assert table.top_up(busted.number, 200)
    assert busted.number in table.eligible()
    table.check_conservation()


def test_a_player_not_in_the_hand_gets_chips_at_once() -> None:
    table = table_with(200, 200)
    table.start_hand()
    table.sit("Late", 200)  # sits down during the hand (R3.2): not dealt in
    assert table.player_of(3) is None
    assert table.top_up(3, 50) is True and table.seat(3).stack == 250
    assert table.view(3) == table.view(None)  # sees what a spectator sees


# -- leaving, sitting out --------------------------------------------------------------------------------------


def test_leaving_between_hands_takes_the_chips_and_during_a_hand_after_it() -> None:
    table = table_with(200, 300, 400)
    assert table.leave(3) == 400
    assert table.money_out == 400 and table.free_seats[0] == 3
    table.start_hand()
    assert table.leave(2) is None and table.seat(2).leaving
    assert 2 not in table.eligible()
    while table.hand is not None:
        legal = {a.kind.value: a for a in table.legal_actions()}
        table.act(legal.get("check") or legal.get("call") or table.legal_actions()[0])
    with pytest.raises(TableError, match="seat 2 is empty"):
        table.seat(2)
    table.check_conservation()
    assert table.money_out == 400 + table.hands[-1].state.stacks[1]


def test_rules_change_only_between_hands() -> None:
    table = table_with(200, 200)
    table.start_hand()
    with pytest.raises(TableError, match="only between hands"):
        table.change_rules(RULES.replace(raise_cap=4))
    while table.hand is not None:
        table.act(table.legal_actions()[0])
    table.change_rules(RULES.replace(raise_cap=4))
    assert table.rules.raise_cap == 4


def test_an_illegal_action_changes_nothing() -> None:
    table = table_with(200, 200)
    table.start_hand()
    before = (state_of(table), table.hand.stacks[:], len(table.hand.events))  # type: ignore[union-attr]
    with pytest.raises(IllegalActionError):
        table.act(Action.raise_to(999))
    assert (state_of(table), table.hand.stacks[:], len(table.hand.events)) == before  # type: ignore[union-attr]
    with pytest.raises(TableError, match="no hand is being played"):
        Table(RULES).act(Action.fold())


def test_a_seed_makes_the_session_reproducible() -> None:
    def session(seed: int) -> list[list[int]]:
        table = table_with(200, 300, 400, seed=seed)
        bots = {s: RandomBot(seed=s) for s in (1, 2, 3)}
        for _ in range(20):
            play_hand(table, bots)
        return [h.state.stacks for h in table.hands]

    assert session(9) == session(9) != session(10)


# -- chips are conserved over thousands of hands -----------------------------------------------------------------


@pytest.mark.parametrize("variant", list(Variant))
def test_money_in_equals_money_on_the_table_plus_money_taken_out(variant: Variant) -> None:
    rules = Rules.from_preset("casino", variant, 1, 2, 4, 8, min_buy_in=40, max_buy_in=400)
    rnd = random.Random(variant.value)
    table = Table(rules, seed=7)
    names = iter(f"Player {i}" for i in range(10_000))
    bots = {}
    for _ in range(4):
        bots[table.sit(next(names), rnd.randrange(40, 200))] = RandomBot(seed=rnd.randrange(1000))
    hands = 0
    while hands < 1500:
        # between hands: people come, go, top up, sit out and back in
        for seat in list(bots):
            s = table.seat(seat)
            roll = rnd.random()
            if s.stack == 0 and roll < 0.5:
                table.top_up(seat, 40)
            elif roll < 0.03:
                table.leave(seat)
                del bots[seat]
            elif roll < 0.08:
                with pytest.raises(TableError) if s.stack + 100 > 400 else contextlib.nullcontext():
                    table.top_up(seat, 100)
            elif roll < 0.12:
                (table.sit_in if s.sitting_out else table.sit_out)(seat)
        if table.free_seats and rnd.random() < 0.1:
            bots[table.sit(next(names), rnd.randrange(40, 400))] = RandomBot(seed=rnd.randrange(1000))
        table.check_conservation()
        if not table.can_start:
            for seat in bots:
                table.sit_in(seat)
                if table.seat(seat).stack == 0:
                    table.top_up(seat, 40)
            if not table.can_start:
                bots[table.sit(next(names), 100)] = RandomBot(seed=hands)
            continue
        table.start_hand()
        # during the hand: requests are queued (R3.4), leaves wait for the end of the hand
        while table.hand is not None:
            if rnd.random() < 0.02:
                seat = rnd.choice(list(bots))
                stack = table.seat(seat).stack
                if stack and stack + table.seat(seat).queued + 200 <= 400 and table.player_of(seat) is None:
                    table.top_up(seat, 20)
            seat = table.actor_seat
            view = table.view(seat)
            assert view is not None and seat is not None
            table.act(bots[seat].act(view))
            table.check_conservation()
        hands += 1
        table.check_conservation()
        assert all(s.stack >= 0 and s.queued == 0 for s in table.occupied)
    assert len(table.hands) == 1500
    for seat in list(bots):
        table.leave(seat)
    assert table.chips_on_table == 0 and table.money_in == table.money_out


# -- sessions --------------------------------------------------------------------------------------------------


def test_a_session_is_saved_and_loaded(tmp_path: Path) -> None:
    table = table_with(200, 300, 400, seed=4)
    bots = {s: RandomBot(seed=s) for s in (1, 2, 3)}
    for _ in range(10):
        play_hand(table, bots)
    busted = [s.number for s in table.occupied if s.stack == 0]
    table.top_up(1, 200 if 1 in busted else 100)
    table.sit_out(3)
    path = tmp_path / "session.phhs"
    save_session(table, path)
    again = load_session(path)
    assert again.occupied == table.occupied
    assert (again.money_in, again.money_out, again.hand_number) == (table.money_in, table.money_out, 10)
    assert [h.state.stacks for h in again.hands] == [h.state.stacks for h in table.hands]
    assert [h.names for h in again.hands] == [h.names for h in table.hands]
    assert again.rules == table.rules
    for s in again.occupied:
        if s.stack == 0:
            again.top_up(s.number, 200)
    play_hand(again, {1: CallingStation(), 2: CallingStation()})  # and the session goes on
    assert again.hand_number == 11
    again.check_conservation()
    # a standard .phhs: any PHH reader sees ten hands
    from studpoker.history import phh

    assert len(phh.loads(path.read_text())) == 10


def test_bad_session_files_give_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(TableError, match="nothing to save"):
        dumps_session(table_with(200, 200))
    with pytest.raises(HistoryFileError, match="No such file"):
        load_session(tmp_path / "missing.phhs")
    table = table_with(200, 200)
    play_hand(table, {1: CallingStation(), 2: CallingStation()})
    text = dumps_session(table)
    with pytest.raises(HistoryFileError, match="no _session table"):
        loads_session(text.replace("_session", "_other"))
    with pytest.raises(HistoryFileError, match="do not add up"):
        loads_session(text.replace("money_in = 400", "money_in = 401"))
    with pytest.raises(HistoryFileError, match=r"hand \[1\], action 3 \('p1 cbr 99'\): p1 \(P1\) acts out of turn"):
        loads_session(text.replace("'p1 pb'", "'p1 cbr 99'").replace("'p2 pb'", "'p1 cbr 99'"))


def test_top_ups_must_be_whole_chips_of_the_unit() -> None:
    """Every amount a top-up may be refused for (the review's mutation run deleted the check unnoticed)."""
    rules = Rules(Variant.STUD7, ante=5, bring_in=5, small_bet=10, big_bet=20, chip_unit=5, max_buy_in=1000)
    table = Table(rules, seed=1)
    table.sit("Ann", 200)
    for bad in (-5, 0, 3, 12, 2.5, "5", True):
        with pytest.raises(TableError, match="top-up"):
            table.top_up(1, bad)  # type: ignore[arg-type]
        with pytest.raises(TableError, match="top-up"):
            table.check_top_up(1, bad)  # type: ignore[arg-type]
    assert table.seat(1).stack == 200 and table.money_in == 200


def test_queued_top_ups_count_against_the_maximum_buy_in() -> None:
    """During his hand a player's chips behind include what he has queued: two queued top-ups may not together
    pass the maximum buy-in."""
    rules = Rules(Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=20, max_buy_in=400)
    table = Table(rules, seed=2)
    table.sit("Ann", 300)
    table.sit("Bob", 300)
    table.start_hand()
    behind = table.chips_behind(1)
    assert table.top_up(1, 400 - behind - 50) is False  # queued
    assert table.chips_behind(1) == 350
    with pytest.raises(TableError, match="above the maximum buy-in of 400"):
        table.top_up(1, 60)
    assert table.top_up(1, 50) is False and table.chips_behind(1) == 400


def test_a_hand_dealt_by_hand_waits_for_each_card_and_is_settled_by_the_table() -> None:
    """``start_hand(manual=True)``: a live dealer's table; the hand asks for its cards and the table settles it."""
    table = table_with(200, 200)
    hand = table.start_hand(manual=True)
    assert hand.card_needed is not None and hand.card_needed.player == 0 and not hand.card_needed.face_up
    for card in ("2c", "3c", "4c", "5c", "Kh"):
        table.deal(card)
    with pytest.raises(ValueError, match="already been dealt"):
        table.deal("2c")
    table.deal("Ah")
    assert table.actor_seat == 1  # seat 1's door card, the king, is the low card
    _ = table.act(table.legal_actions()[0])  # the bring-in
    _ = table.act(Action.fold())
    assert table.hand is None and [s.stack for s in table.occupied] == [201, 199]
    table.check_conservation()


def test_deal_needs_a_hand() -> None:
    with pytest.raises(TableError, match="no hand is being played"):
        table_with(200, 200).deal("Ah")


def test_unknown_down_cards_dealt_by_hand_are_revealed_at_the_showdown() -> None:
    """A dealer who does not see the down cards deals them as unknown; the hands shown settle the pot."""
    table = table_with(200, 200)
    table.start_hand(manual=True)
    for card in (None, None, None, None, "Kh", "Ah"):
        table.deal(card)
    up_cards = iter(["2c", "3d", "4h", "5s", "7c", "8d"])
    while table.hand is not None and not table.hand.unknown:
        if table.hand.card_needed is not None:
            table.deal(next(up_cards) if table.hand.card_needed.face_up else None)
        else:
            _ = table.act(next(a for a in table.legal_actions() if a.kind.value in ("check", "call", "bring-in")))
    assert table.hand is not None and table.hand.unknown
    with pytest.raises(TableError, match="seat 7 is not in a hand"):
        table.reveal(7, ["2s"])
    table.reveal(1, ["As", "Ad", "Ac"])
    table.reveal(2, ["2s", "2d", "2h"])
    assert table.hand is None and table.occupied[0].stack > 200
    table.check_conservation()
