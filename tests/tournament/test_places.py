"""Finishing places: counted from the bottom, players out in the same hand ordered by starting stack, ties shared."""

from __future__ import annotations

from studpoker.tournament import Bust, Finish, finishing_places


def test_one_out_per_hand_counts_down_from_the_field() -> None:
    busts = [[Bust("Ann", 1, 100)], [Bust("Bob", 1, 900)], [Bust("Cid", 1, 50)]]
    places = finishing_places(busts, entries=4, winner=("Dan", 1))
    assert [(f.player, f.place) for f in places] == [("Dan", 1), ("Cid", 2), ("Bob", 3), ("Ann", 4)]


def test_the_larger_starting_stack_finishes_higher_and_equal_stacks_share() -> None:
    busts = [[Bust("Ann", 1, 300), Bust("Bob", 1, 500), Bust("Cid", 1, 300), Bust("Dan", 1, 100)]]
    places = finishing_places(busts, entries=6)
    assert places == [
        Finish("Bob", 1, 3),
        Finish("Ann", 1, 4, tied=2),
        Finish("Cid", 1, 4, tied=2),
        Finish("Dan", 1, 6),
    ]
    assert list(places[1].places) == [4, 5]


def test_re_entries_are_entries_of_their_own() -> None:
    busts = [[Bust("Ann", 1, 100)], [Bust("Ann", 2, 100)]]
    places = finishing_places(busts, entries=3, winner=("Bob", 1))
    assert [(f.player, f.entry, f.place) for f in places] == [("Bob", 1, 1), ("Ann", 2, 2), ("Ann", 1, 3)]
