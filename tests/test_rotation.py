"""Mixed games (issue 31): the rotation plan, where a table stands in it, and a table that deals it."""

from __future__ import annotations

from typing import Any

import pytest

from studpoker.bots import CallingStation, play_hand
from studpoker.engine import Rules, Variant
from studpoker.history.session import dumps_session, loads_session
from studpoker.rotation import Rotation, RotationError, Turn
from studpoker.table import Table, TableError


def variants(rotation: Rotation, players: list[int]) -> list[str]:
    """The game of each hand dealt to ``players[i]`` players, from the start."""
    turn, out = rotation.start, []
    for n in players:
        turn = rotation.deal(turn, n)
        out.append(rotation.game(turn).variant.short_name)
    return out


def test_every_n_hands_each_game_in_turn() -> None:
    rotation = Rotation.triple_stud(10, every=3)
    assert variants(rotation, [5] * 10) == ["7stud"] * 3 + ["razz"] * 3 + ["7stud8"] * 3 + ["7stud"]


def test_an_orbit_lasts_as_many_hands_as_players_were_dealt_its_first_hand() -> None:
    rotation = Rotation.triple_stud(10, every=0)
    # stud's first hand has 3 players: 3 hands, whoever comes and goes; razz starts with 2; stud/8 with 4
    dealt = [3, 5, 2, 2, 6, 4, 4, 4, 4, 7]
    assert variants(rotation, dealt) == ["7stud"] * 3 + ["razz"] * 2 + ["7stud8"] * 4 + ["7stud"]
    turn = rotation.start
    assert rotation.left(turn) is None and rotation.standing(turn) == (0, 1, None)
    turn = rotation.deal(turn, 3)
    assert rotation.left(turn) == 2 and rotation.standing(turn, in_hand=True) == (0, 1, 2)


def test_the_sign_before_and_during_the_last_hand_of_a_game() -> None:
    rotation = Rotation.of(["razz", "7stud"], 10, every=2)
    turn = rotation.deal(rotation.deal(rotation.start, 4), 4)  # the second razz hand, in play
    assert rotation.standing(turn, in_hand=True) == (0, 1, 0)  # razz now, no hand of it after this one
    assert rotation.standing(turn) == (1, 0, 2)  # between hands: stud next, two hands of it
    assert rotation.following(turn).variant is Variant.RAZZ


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: Rotation((Rules(Variant.RAZZ, 1, 2, 4, 8),)), "2 to 8 games"),
        (lambda: Rotation.of(["razz"] * 9, 10), "2 to 8 games"),
        (lambda: Rotation.of(["razz", "7stud"], 10, every=101), "every must be 1 to 100"),
        (lambda: Rotation.of(["razz", "7stud"], 10, every=-1), "every must be"),
        (lambda: Rotation.of(["razz", "7stud"], 10, every=True), "every must be"),
        (lambda: Rotation((Rules(Variant.RAZZ, 1, 2, 4, 8), "razz")), "game 2 of the rotation is a str"),
        (
            lambda: Rotation((Rules(Variant.RAZZ, 2, 4, 8, 16, chip_unit=2), Rules(Variant.STUD7, 1, 2, 4, 8))),
            "share one chip unit",
        ),
        (lambda: Rotation.of(["razz", "omaha"], 10), "unknown game"),
    ],
)
def test_a_rotation_that_cannot_be_played_says_why(make: Any, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        make()


def test_names_seats_and_buy_ins_come_from_the_games() -> None:
    assert Rotation.triple_stud(10).name == "Triple Stud"
    assert Rotation.of(["razz", "7stud8", "7stud"], 10).name == "Triple Stud"  # any order
    assert Rotation.of(["razz", "5stud"], 10, name="  ").name == "Razz / Five-card stud"
    assert Rotation.of(["razz", "5stud"], 10, name="Lowball night").name == "Lowball night"
    big = Rules(Variant.STUD7, 2, 5, 20, 40, max_buy_in=2000)
    mixed = Rotation((Rules(Variant.STUD5, 1, 2, 10, 20, max_buy_in=600), big))
    assert (mixed.max_seats, mixed.min_buy_in, mixed.max_buy_in) == (8, 400, 2000)
    assert Rotation((big, Rules(Variant.RAZZ, 1, 2, 4, 8))).max_buy_in is None  # razz has no maximum


def test_json_round_trip_keeps_every_option_and_refuses_junk() -> None:
    rotation = Rotation(
        (
            Rules.tournament(Variant.RAZZ, 1, 2, 4, 8),
            Rules.from_preset("casino", Variant.STUD7, 1, 3, 10, 20, raise_cap=None, max_buy_in=500),
            Rules.from_preset("casino", Variant.STUD5, 1, 2, 4, 8, stud5_opening="HIGH_CARD_OPENS"),
        ),
        every=0,
        name="Three",
    )
    data = rotation.to_json()
    assert "null" not in str(data) and "None" not in str(data)  # TOML has no null: a session file carries it
    assert Rotation.from_json(data) == rotation
    for junk, words in [
        ({}, "a list of games"),
        ({"games": [1, 2]}, "not an object"),
        ({"games": [{"variant": "RAZZ"}, {"variant": "RAZZ"}]}, "has no ante"),
        ({"games": [{**data["games"][0], "ante": "x"}, data["games"][1]]}, "game 1 of the rotation"),
        ({"games": [{**data["games"][0], "bogus": 1}, data["games"][1]]}, "bogus"),
        ({"games": data["games"] * 5}, "2 to 8 games"),
    ]:
        with pytest.raises(RotationError, match=words):
            Rotation.from_json(junk)
    for bad in [Turn(3, 0, 0), Turn(0, 2, 1), Turn(0, 1, 0), Turn(0, 0, 9)]:
        with pytest.raises(RotationError):
            rotation.check_turn(bad)
    with pytest.raises(RotationError, match="not a rotation turn"):
        Rotation.turn_from_json({"index": "0", "dealt": 0, "length": 0})


def seated(rules: Rules | Rotation, *stacks: int) -> Table:
    table = Table(rules, seed=11)
    for i, stack in enumerate(stacks):
        table.sit(f"P{i}", stack)
    return table


def play(table: Table, hands: int) -> list[str]:
    bots = {s.number: CallingStation() for s in table.occupied}
    out = []
    for _ in range(hands):
        play_hand(table, bots)
        out.append(table.hands[-1].state.rules.variant.short_name)
        table.check_conservation()
    return out


def test_a_mixed_table_deals_each_hand_in_its_game_and_shows_the_next_between_hands() -> None:
    table = seated(Rotation.triple_stud(4, every=2), 200, 200, 200)
    assert table.rules.variant is Variant.STUD7 and table.rotation is not None
    assert play(table, 5) == ["7stud", "7stud", "razz", "razz", "7stud8"]
    assert table.turn == Turn(2, 1, 2) and table.rules.variant is Variant.STUD7_HL8
    play(table, 1)
    assert table.rules.variant is Variant.STUD7  # between hands: the game the next hand deals


def test_a_mixed_table_takes_the_biggest_games_buy_in_limits() -> None:
    rotation = Rotation((Rules(Variant.RAZZ, 1, 2, 4, 8), Rules(Variant.STUD7, 1, 3, 10, 20, max_buy_in=500)))
    table = Table(rotation)
    with pytest.raises(TableError, match="below the minimum buy-in of 200"):
        table.sit("Ann", 80)  # enough for razz 4/8, not for stud 10/20
    table.sit("Ann", 200)
    assert table.rules.variant is Variant.RAZZ and table.max_buy_in is None  # razz sets no maximum


def test_a_hand_that_cannot_be_dealt_leaves_the_turn_where_it_was() -> None:
    table = seated(Rotation.triple_stud(4, every=2), 200)
    with pytest.raises(TableError, match="two players"):
        table.start_hand()
    assert table.turn == Turn() and table.hand_number == 0


def test_rules_change_between_hands_only_and_a_new_rotation_starts_at_its_first_game() -> None:
    table = seated(Rules(Variant.STUD7, 1, 2, 4, 8), 200, 200)
    play(table, 1)
    table.change_rules(Rotation.of(["razz", "7stud8"], 4, every=1))
    assert play(table, 3) == ["razz", "7stud8", "razz"]
    table.start_hand()
    with pytest.raises(TableError, match="only between hands"):
        table.change_rules(Rules(Variant.RAZZ, 1, 2, 4, 8))
    with pytest.raises(TableError, match="Rules or a Rotation"):
        Table("razz")  # type: ignore[arg-type]


def test_ten_seats_of_five_card_stud_do_not_fit_a_rotation_with_seven_card_stud() -> None:
    table = Table(Rules(Variant.STUD5, 1, 2, 4, 8))
    table.sit("Ann", 100, seat=10)
    with pytest.raises(TableError, match="a seat above 8 is occupied"):
        table.change_rules(Rotation.of(["5stud", "7stud"], 4))
    assert table.rotation is None and table.max_seats == 10


def test_a_mixed_session_file_names_each_hands_game_and_comes_back_at_its_turn() -> None:
    table = seated(Rotation.triple_stud(4, every=0), 200, 200, 200)
    played = play(table, 4)
    assert played == ["7stud"] * 3 + ["razz"]
    text = dumps_session(table)
    assert [line for line in text.splitlines() if line.startswith("variant")] == [
        "variant = 'F7S'",
        "variant = 'F7S'",
        "variant = 'F7S'",
        "variant = 'FR'",
    ]
    again = loads_session(text)
    assert again.rotation == table.rotation and again.turn == table.turn == Turn(1, 1, 3)
    assert play(again, 3) == ["razz", "razz", "7stud8"]
    broken = text.replace("index = 1", "index = 7")
    with pytest.raises(ValueError, match="names no game"):
        loads_session(broken)
