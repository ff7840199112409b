"""``studpoker.simulate``: the same result on any number of workers, sound statistics, duplicate mode's deal and
its gain, chips conserved, histories that replay."""

from __future__ import annotations

import math
import shlex
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from studpoker.engine import Variant
from studpoker.history import phh, replay
from studpoker.history.model import Deal
from studpoker.simulate import (
    SeatDealer,
    SimulateError,
    SimulationSpec,
    Totals,
    auto_workers,
    play_chunk,
    simulate,
)
from studpoker.simulate.result import Z95

CALLER = Path(__file__).resolve().parents[2] / "examples" / "bots" / "caller.py"

THREE = SimulationSpec(bots=("tag", "calling-station", "random"), variant="razz", hands=2_400, chunk=400, seed=11)


@pytest.fixture(scope="module")
def serial() -> dict[str, object]:
    return simulate(THREE, workers=1).to_dict()


def test_the_same_result_on_one_and_two_workers(serial: dict[str, object]) -> None:
    assert simulate(THREE, workers=2).to_dict() == serial


def test_a_chunk_is_a_pure_function_of_spec_and_number() -> None:
    assert play_chunk(THREE, 3) == play_chunk(THREE, 3)
    assert play_chunk(THREE, 3) != play_chunk(THREE, 2)
    assert play_chunk(THREE, 0) != play_chunk(THREE.replace(seed=12), 0)
    with pytest.raises(ValueError, match="not one of the 6 chunks"):
        play_chunk(THREE, 6)


def test_chunks_merge_only_in_order_and_a_partial_run_is_not_a_result() -> None:
    totals = Totals(THREE)
    with pytest.raises(ValueError, match="chunk 1 came when chunk 0 was expected"):
        totals.add(play_chunk(THREE, 1))
    totals.add(play_chunk(THREE, 0))
    with pytest.raises(ValueError, match="1 of 6 chunks played"):
        totals.result()


def test_chips_are_conserved_in_every_chunk_and_seats_add_up_to_bots() -> None:
    spec = THREE.replace(hands=1_200)
    for k in range(spec.chunks):
        chunk = play_chunk(spec, k)
        assert sum(chunk.net) == 0 and chunk.hands == 400
        for i in range(spec.players):
            assert sum(chunk.seat_net[i]) == chunk.net[i]
            assert sum(chunk.seat_squares[i]) == chunk.squares[i]
            assert sum(chunk.seat_hands[i]) == chunk.hands
    result = simulate(spec, workers=1)
    rows = result.to_dict()
    assert sum(bot["net"] for bot in rows["bots"]) == 0 == sum(seat["net"] for seat in rows["seats"])
    for i, bot in enumerate(rows["bots"]):
        assert sum(seat["net"] for seat in bot["seats"]) == bot["net"] == result.net[i]
        assert sum(seat["hands"] for seat in bot["seats"]) == bot["hands"] == 1_200
        assert [seat["hands"] for seat in bot["seats"]] == [400, 400, 400]  # the seats rotate every hand
    for s, seat in enumerate(rows["seats"]):
        assert seat["net"] == sum(bot["seats"][s]["net"] for bot in rows["bots"])


def test_the_standard_error_is_the_sample_sd_over_root_n() -> None:
    spec = SimulationSpec(bots=("tag", "random"), variant="7stud", hands=300, chunk=300, seed=2, sample=1.0)
    chunk = play_chunk(spec, 0)
    per_hand: dict[int, list[int]] = defaultdict(list)
    for number, text in chunk.histories:
        record = phh.loads_hand(text)
        assert sum(record.finishing_stacks or ()) == sum(record.starting_stacks)  # every hand conserves chips
        for p, name in enumerate(record.players):
            bot = int(name.split(":")[0]) - 1
            assert p == (bot + number - 1) % 2  # hand h (from 0): bot i in seat (i + h) mod n
            per_hand[bot].append((record.finishing_stacks or ())[p] - record.starting_stacks[p])
    result = simulate(spec, workers=1)
    for i, line in enumerate(result.bots):
        xs = per_hand[i]
        mean = sum(xs) / len(xs)
        sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1))
        assert line.bb_per_100 == pytest.approx(100 * mean / 20)
        assert line.se is not None and line.se == pytest.approx(100 * sd / math.sqrt(len(xs)) / 20)
        assert line.low == pytest.approx(line.bb_per_100 - Z95 * line.se)


def test_the_tight_aggressive_bot_wins_with_its_whole_interval_above_zero() -> None:
    result = simulate(bots=["tight-aggressive", "calling-station", "random"], hands=3_000, chunk=1_000, seed=1)
    tag, _station, rand = result.bots
    assert tag.low is not None and tag.low > 0
    assert rand.high is not None and rand.high < 0


def test_duplicate_agrees_with_plain_and_has_the_smaller_standard_error() -> None:
    bots = ("tight-aggressive", "calling-station")
    plain = simulate(bots=bots, variant="razz", hands=4_000, chunk=1_000, seed=21)
    duplicate = simulate(bots=bots, variant="razz", hands=4_000, chunk=1_000, seed=21, duplicate=True)
    assert duplicate.deals == 2_000 and duplicate.hands == 4_000
    gains = duplicate.duplicate
    assert gains is not None and plain.duplicate is None
    for i in range(2):
        p, d = plain.bots[i], duplicate.bots[i]
        assert p.se is not None and d.se is not None
        assert abs(p.bb_per_100 - d.bb_per_100) <= Z95 * math.hypot(p.se, d.se)  # the same win rate
        assert d.se < p.se  # duplicate is the more precise at the same number of hands
        gain = gains[i]
        assert gain.se == d.se and gain.plain_se is not None and d.se < gain.plain_se
        assert gain.plain_se == pytest.approx(p.se, rel=0.15)  # the per-hand spread is plain mode's
        assert gain.variance_reduction is not None and gain.variance_reduction > 1.2
    document = duplicate.to_dict()["duplicate"]
    assert document["deals"] == 2_000 and document["bots"][0]["variance_reduction"] == gains[0].variance_reduction


def _cards_by_seat(text: str) -> list[list[str]]:
    record = phh.loads_hand(text)
    cards: list[list[str]] = [[] for _ in range(record.n)]
    for action in record.actions:
        if isinstance(action, Deal):
            cards[action.player] += [str(c) for c in action.cards]
    return cards


@pytest.mark.parametrize(("variant", "players", "same"), [("razz", 3, 7), ("7stud", 8, 6), ("5stud", 10, 5)])
def test_duplicate_gives_each_seat_the_same_cards_in_every_rotation(variant: str, players: int, same: int) -> None:
    bots = ("random", "calling-station", "tight-aggressive") * 4
    spec = SimulationSpec(bots=bots[:players], variant=variant, hands=players * 12, seed=5, duplicate=True, sample=1)
    histories = play_chunk(spec, 0).histories
    assert len(histories) == players * 12
    for deal in range(12):
        rotations = [_cards_by_seat(text) for _, text in histories[deal * players : (deal + 1) * players]]
        for seat in range(players):
            dealt = [r[seat][:same] for r in rotations]  # the first `same` cards (all of them up to 7 players)
            longest = max(dealt, key=len)
            assert all(cards == longest[: len(cards)] for cards in dealt)
        assert len({card for r in rotations[:1] for seat in r for card in seat}) == sum(map(len, rotations[0]))


def test_the_seat_dealer_deals_each_seat_its_own_cards() -> None:
    dealer = SeatDealer(list(range(52)), players=8, cards=7)
    assert [len(cards) for cards in dealer._seats] == [6] * 8 and len(dealer._reserve) == 4


def test_histories_are_saved_sampled_replayable_and_the_same_on_two_workers(tmp_path: Path) -> None:
    spec = THREE.replace(hands=1_200, sample=0.25)
    one, two = tmp_path / "one.phhs", tmp_path / "two.phhs"
    first = simulate(spec, workers=1, histories=one)
    second = simulate(spec, workers=2, histories=two)
    text = one.read_text(encoding="utf-8")
    assert text == two.read_text(encoding="utf-8") and first.to_dict() == second.to_dict()
    records = phh.loads(text)
    assert len(records) == first.sampled and 200 < first.sampled < 400
    assert phh.dumps(records) == text  # the sections dumps_all writes
    numbers = [record.info["hand"] for record in records]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)
    for record in records:
        state = replay(record).state
        assert state.is_over and state.stacks == record.finishing_stacks
    assert not list(tmp_path.glob(".*partial"))


def test_a_run_that_fails_leaves_no_history_file(tmp_path: Path) -> None:
    target = tmp_path / "h.phhs"
    with pytest.raises(Exception, match="exited"):
        simulate(bots=["tag", f"external:{sys.executable} -c pass"], hands=10, seed=1, sample=1, histories=target)
    assert not target.exists() and not list(tmp_path.iterdir())


def test_external_bots_start_their_program_in_every_chunk() -> None:
    command = f"external:{shlex.quote(sys.executable)} {shlex.quote(str(CALLER))}"
    spec = SimulationSpec(bots=("calling-station", command), variant="razz", hands=120, chunk=60, seed=3)
    assert spec.names == ("1:calling-station", "2:external")
    result = simulate(spec, workers=2)
    assert result.hands == 120 and sum(result.net) == 0
    assert simulate(spec, workers=1).to_dict() == result.to_dict()


def test_duplicate_mode_plays_whole_deals_and_chunks() -> None:
    spec = SimulationSpec(bots=("tag", "random", "random"), hands=1_000, chunk=100, seed=1, duplicate=True)
    assert (spec.played_hands, spec.chunk_hands, spec.chunks) == (1_002, 102, 10)
    assert spec.chunk_range(9) == range(918, 1_002)
    plain = spec.replace(duplicate=False)
    assert (plain.played_hands, plain.chunk_hands, plain.chunks) == (1_000, 100, 10)


def test_auto_workers_uses_every_core_only_for_two_chunks_or_more() -> None:
    assert auto_workers(THREE.replace(hands=400)) == 1
    assert auto_workers(THREE) >= 1
    assert auto_workers(THREE.replace(hands=800)) == min(2, auto_workers(THREE))


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"bots": ("tag", "nobody")}, "unknown bot 'nobody'"),
        ({"bots": ("tag",)}, "seats 2 to 8 bots, got 1"),
        ({"bots": ("tag",) * 11, "variant": "5stud"}, "seats 2 to 10 bots, got 11"),
        ({"hands": 0}, "hands must be 1 to"),
        ({"hands": 10**10 + 1}, "hands must be 1 to"),
        ({"chunk": 0}, "chunk must be 1 to"),
        ({"hands": 10**9, "chunk": 10}, "use chunks of at least 1,000 hands"),
        ({"sample": 1.5}, "sample rate must be a number from 0 to 1"),
        ({"hands": 10**8, "sample": 0.1}, "more than 1,000,000"),
        ({"variant": "holdem"}, "unknown game 'holdem'"),
        ({"preset": "home"}, "unknown preset 'home'"),
        ({"big_bet": 5}, "big_bet 5 must be at least small_bet 10"),
        ({"seed": -1}, "seed must be"),
        ({"bots": "tag,random"}, "bots must be a list"),
        ({"bots": ("tag", "external:/no/such/program")}, "there is no program"),
    ],
)
def test_a_spec_that_cannot_run_is_refused(fields: dict[str, object], message: str) -> None:
    values: dict[str, object] = {"bots": ("tag", "random"), "hands": 100, **fields}
    with pytest.raises(SimulateError, match=message):
        SimulationSpec(**values)  # type: ignore[arg-type]


def test_simulate_refuses_bad_arguments(tmp_path: Path) -> None:
    with pytest.raises(SimulateError, match="workers must be"):
        simulate(THREE, workers=0)
    with pytest.raises(SimulateError, match="sample rate above 0"):
        simulate(THREE, histories=tmp_path / "h.phhs")
    with pytest.raises(SimulateError, match="unexpected keyword"):
        simulate(bots=["tag", "random"], hands=10, colour="red")


def test_a_random_seed_is_drawn_and_reported() -> None:
    result = simulate(bots=["random", "random"], hands=20, variant=Variant.RAZZ.value)
    assert result.spec.seed is not None and result.to_dict()["spec"]["seed"] == result.spec.seed
