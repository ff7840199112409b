"""Bots through tournaments: a 24-player, 3-table tournament played to the end with its tables broken and balanced,
and sit-and-go simulations (places, prizes, ROI, the same result from the same seed)."""

from __future__ import annotations

import math
import random

import pytest

from studpoker.bots import CallingStation, RandomBot, TightAggressive
from studpoker.bots.base import Bot
from studpoker.simulate import SimulateError
from studpoker.simulate.tournament import play_tournament, simulate_sit_and_goes
from studpoker.tournament import Move, Structure, Tournament


class Watched(Tournament):
    """A tournament that notes the tables after every rebalancing and the moves made."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.sizes: list[list[int]] = []
        self.moves: list[Move] = []

    def rebalance(self) -> tuple[Move, ...]:
        moves = super().rebalance()
        self.moves.extend(moves)
        self.sizes.append([len(seats) for _, seats in sorted(self.chart.items())])
        return moves


def test_a_24_player_tournament_of_bots_to_the_end() -> None:
    tournament = Watched(Structure.turbo(hands_per_level=6), buy_in=100, rng=random.Random(8))
    bots: dict[str, Bot] = {}
    for i in range(24):
        name = f"p{i:02}"
        tournament.register(name)
        bots[name] = (TightAggressive(seed=i), CallingStation(), RandomBot(seed=i))[i % 3]
    assert [len(seats) for seats in tournament.start().values()] == [8, 8, 8]
    rounds = play_tournament(tournament, bots, seed=4)  # checks the chips and the seats after every round
    assert tournament.is_over and rounds == len(tournament.sizes)
    for sizes in tournament.sizes[:-1]:  # after every round the tables are balanced, as few as hold everyone
        assert max(sizes) - min(sizes) <= 1 and len(sizes) == math.ceil(sum(sizes) / 8)
    assert {m.reason for m in tournament.moves} == {"break", "balance"}
    tables = [len(sizes) for sizes in tournament.sizes]
    assert 3 in tables and 2 in tables and tables[-2] == 1  # broken down to the final table
    finishes = tournament.finishes()
    covered = sorted(place for finish in finishes for place in finish.places)
    assert covered == list(range(1, 25))  # every place once, shared places covered by each tie
    for finish in finishes:
        assert sum(1 for f in finishes if f.place == finish.place) == finish.tied
    prizes = tournament.prizes()
    assert sum(prizes.values()) == tournament.prize_pool == 2_400 and len(prizes) == 3  # 24 entries: 3 paid
    assert tournament.total_chips == 24 * 2_000


def test_sit_and_goes_report_places_and_roi() -> None:
    result = simulate_sit_and_goes(["tag", "calling-station", "random", "random"], 6, seed=2, hands_per_level=5)
    assert result.sit_and_gos == 6 and result.names[0] == "1:tight-aggressive"
    for k in range(4):  # each place went to someone in each sit-and-go
        assert sum(row[k] for row in result.places) == pytest.approx(6)
    assert sum(result.prizes) == 6 * 4 * 100  # 4 entries: the winner takes all
    assert sum(result.roi(i) for i in range(4)) == pytest.approx(0)
    assert result == simulate_sit_and_goes(["tag", "calling-station", "random", "random"], 6, seed=2, hands_per_level=5)
    lines = result.summary().splitlines()
    assert lines[0].startswith("6 sit-and-gos of 4 bots, Seven-card stud, turbo, 5 hands a level; buy-in 100, seed 2")
    assert lines[2].split() == ["bot", "1st", "2nd", "3rd", "4th", "avg", "ROI"]
    assert result.to_dict()["bots"][0]["prizes"] == result.prizes[0]


def test_other_games() -> None:
    result = simulate_sit_and_goes(["tag", "calling-station"], 2, seed=1, variant="razz")
    assert result.variant == "Razz" and sum(result.prizes) == 400


@pytest.mark.parametrize(
    ("bots", "options", "message"),
    [
        (["tag", "nobody"], {}, "unknown bot 'nobody'"),
        (["tag"] * 9, {}, "a seven-card stud table has 2 to 8 seats, got 9"),
        (["tag"], {}, "2 to 8 seats, got 1"),
        (["tag", "random"], {"count": 0}, "number of sit-and-gos must be from 1"),
        (["tag", "random"], {"hands_per_level": 0}, "hands per level must be a whole number"),
        (["tag", "random"], {"variant": "holdem"}, "unknown game 'holdem'"),
        (["tag", "external:python x.py"], {}, "built-in bots only"),
    ],
)
def test_what_cannot_be_played_is_refused(bots: list[str], options: dict[str, object], message: str) -> None:
    count = options.pop("count", 1)
    with pytest.raises(SimulateError, match=message):
        simulate_sit_and_goes(bots, count, seed=1, **options)  # type: ignore[arg-type]
