"""The compiled equity kernels (``_sample``, ``_count``): the heads-up sweep counts exactly what the tuple counter
counts, the compiled samplers agree with exact answers, a seed repeats, and the kernels refuse malformed calls."""

from __future__ import annotations

import random
import struct
from itertools import combinations

import numpy as np
import pytest

from studpoker.cards import CARDS
from studpoker.equity import Spot, equity, exact, montecarlo, sweep
from studpoker.equity.result import Tally

sample = pytest.importorskip("studpoker.equity._sample", reason="built without a C compiler: the NumPy path only")
count = pytest.importorskip("studpoker.equity._count", reason="built without a C compiler: the NumPy path only")


def _tuple_count(spot: Spot, compiled: bool = True) -> Tally:
    """The spot counted by the tuple counter of :mod:`exact` (the sweep bypassed), compiled or in NumPy."""
    counter = exact._Counter(exact.plan(spot))
    tally = counter.empty()
    saved = exact._count
    try:
        if not compiled:
            exact._count = None
        for chunk in counter.chunks():
            tally.add(counter.count(chunk))
    finally:
        exact._count = saved
    return tally


def _same(a: Tally, b: Tally) -> None:
    assert a.outcomes == b.outcomes
    assert list(a.win) == list(b.win) and list(a.tie) == list(b.tie)
    assert [int(x) * b.scale for x in a.share] == [int(x) * a.scale for x in b.share]
    assert [int(x) * b.scale for x in a.high] == [int(x) * a.scale for x in b.high]
    assert [int(x) * b.scale for x in a.low] == [int(x) * a.scale for x in b.low]
    assert a.no_low == b.no_low


def test_the_compiled_tuple_counter_counts_what_numpy_counts() -> None:
    rnd = random.Random(5)
    compared = 0
    while compared < 40:
        game = rnd.choice(["7stud", "razz", "5stud", "7stud8", "7stud8"])
        size = 5 if game == "5stud" else 7
        players = rnd.randint(2, 4)
        cards = rnd.sample(range(52), 8 * players)
        hands, at = [], 0
        for _ in range(players):
            known = rnd.randint(size - 3, size - 1)
            hands.append([CARDS[i] for i in cards[at : at + known]])
            at += known
        spot = Spot.parse(game, hands, [CARDS[i] for i in cards[at : at + rnd.randint(0, 3)]])
        if exact.plan(spot).work > 300_000:
            continue
        compiled, plain = _tuple_count(spot), _tuple_count(spot, compiled=False)
        _same(compiled, plain)
        assert compiled.outcomes == spot.outcomes
        compared += 1


@pytest.mark.slow
def test_the_sweep_counts_what_the_tuple_counter_counts() -> None:
    rnd = random.Random(11)
    compared = 0
    while compared < 40:
        game = rnd.choice(["7stud", "razz", "5stud", "7stud8"])
        size = 5 if game == "5stud" else 7
        cards = rnd.sample(range(52), 14)
        a, b = rnd.randint(2 if size == 5 else 3, size - 1), rnd.randint(1, size - 1)
        dead = rnd.randint(0, 4)
        spot = Spot.parse(
            game,
            [[CARDS[i] for i in cards[:a]], [CARDS[i] for i in cards[a : a + b]]],
            [CARDS[i] for i in cards[a + b : a + b + dead]],
        )
        if not sweep.suitable(spot) or not exact.plan(spot).feasible:
            continue
        mine, theirs = sweep.count(spot), _tuple_count(spot, compiled=False)
        assert mine.outcomes == spot.outcomes
        _same(mine, theirs)
        compared += 1


def test_the_sweep_counts_unknown_down_cards_heads_up() -> None:
    spot = Spot.parse("7stud", ["As Ad 7c 2s", "Kh 9c"])  # 4th street, the opponent's down cards unknown
    assert sweep.suitable(spot) and exact.feasible(spot) and not exact.plan(spot).feasible
    result = equity(spot)
    assert result.method == "exact" and result.outcomes == spot.outcomes == 14_612_237_640
    sampled = equity(spot, trials=2_000_000, seed=3)
    for exact_player, sampled_player in zip(result.players, sampled.players, strict=True):
        assert sampled_player.equity_se is not None
        assert abs(exact_player.equity - sampled_player.equity) < 4.5 * sampled_player.equity_se


def test_the_hilo_sweep_counts_unknown_down_cards_heads_up() -> None:
    spot = Spot.parse("7stud8", ["As 2d 7c 3s", "Kh 4c"])
    assert sweep.suitable(spot) and exact.feasible(spot)
    result = equity(spot)
    assert result.method == "exact" and result.outcomes == spot.outcomes
    sampled = equity(spot, trials=2_000_000, seed=4)
    assert result.no_low is not None and sampled.no_low is not None and sampled.no_low_se is not None
    assert abs(result.no_low - sampled.no_low) < 4.5 * sampled.no_low_se
    for t, s in zip(result.players, sampled.players, strict=True):
        for name in ("equity", "win", "high", "low"):
            assert abs(getattr(t, name) - getattr(s, name)) < 4.5 * getattr(s, f"{name}_se") + 1e-12, name


def test_the_sweep_is_not_offered_for_more_players() -> None:
    assert not sweep.suitable(Spot.parse("7stud", ["As Ad 7c", "Kh 9c 2d", "Qs Qd 3c"]))
    with pytest.raises(ValueError, match="heads-up"):
        sweep.count(Spot.parse("7stud8", ["As Ad 7c", "Kh 9c 2d", "Qs Qd 3c"]))


@pytest.mark.parametrize("game", ["7stud", "7stud8", "razz"])
@pytest.mark.parametrize(
    ("hands", "dead", "sampler"),
    [
        (["As 2d 5c", "Kh Ks 4d"], "7c 9h Js Ts", "completions"),  # heads-up: clashing trials thrown away
        (["As 2d 5c 9d 3h", "Kh Ks 4d 4c Jc", "Qd Jd 9h 2c 6s"], "7c", "completions"),  # three: picked again
        (["As 2d 5c 9d 3h Jh", "Kh Ks 4d 7c Jc 8h", "Qd Jd 9h 2c 6s 7d", "Th Tc 3s 5s 6c 2h"], "", "shuffle"),
    ],
)
def test_the_compiled_samplers_agree_with_the_exact_count(game: str, hands: list[str], dead: str, sampler: str) -> None:
    spot = Spot.parse(game, hands, dead)
    truth = equity(spot, method="exact")
    tally = montecarlo.sample(spot, 400_000, seed=5, sampler=sampler)  # type: ignore[arg-type]
    sampled = type(truth).from_tally(spot, "montecarlo", tally, 0.0, 5)
    for t, s in zip(truth.players, sampled.players, strict=True):
        assert s.equity_se is not None
        assert abs(t.equity - s.equity) <= 4.5 * s.equity_se + 1e-12  # a decided spot has no spread


def test_a_seed_repeats_for_any_number_of_workers() -> None:
    spot = Spot.parse("7stud", ["As 2d 5c", "Kh Ks 4d", "Qd Jd 9d", "8c 8s 2h"])
    one = equity(spot, trials=600_000, seed=9)
    two = equity(spot, trials=600_000, seed=9, workers=2)
    assert [p.equity for p in one.players] == [p.equity for p in two.players]
    other = equity(spot, trials=600_000, seed=10)
    assert [p.equity for p in one.players] != [p.equity for p in other.players]


def test_the_numpy_samplers_still_answer_without_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    spot = Spot.parse("7stud", ["As 2d 5c", "Kh Ks 4d"], "7c 9h Js Ts")
    compiled = equity(spot, trials=300_000, seed=2)
    monkeypatch.setattr(montecarlo, "_sample", None)
    plain = equity(spot, trials=300_000, seed=2)
    for a, b in zip(compiled.players, plain.players, strict=True):
        assert a.equity_se is not None and b.equity_se is not None
        assert abs(a.equity - b.equity) < 5 * (a.equity_se**2 + b.equity_se**2) ** 0.5


def test_combinations_are_itertools_order() -> None:
    for m, k in [(5, 1), (9, 4), (12, 6), (7, 7)]:
        rows = np.empty((len(list(combinations(range(m), k))), k), dtype=np.uint8)
        count.combinations(m, k, rows)
        assert [tuple(r) for r in rows.tolist()] == list(combinations(range(m), k))


def test_the_kernel_refuses_malformed_calls() -> None:
    counts = np.zeros(4, dtype=np.int64)
    table = np.zeros(2, dtype=[("mask", "<u8"), ("value", "<i4"), ("pad", "<i4")]).tobytes()
    with pytest.raises(ValueError, match="32 bytes"):
        sample.completions((table, table), bytearray(8), 10, True, False, counts)
    with pytest.raises(ValueError, match="one int64 per trial code"):
        sample.completions((table, table), bytearray(32), 10, True, False, np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="16-byte entry"):
        sample.completions((table, b"123"), bytearray(32), 10, True, False, counts)
    with pytest.raises(ValueError, match="C\\(m, k\\)"):
        count.combinations(5, 2, np.empty(3, dtype=np.uint8))
    with pytest.raises(ValueError, match="at most 4 cards"):
        count.sweep(20, b"", 5, b"", b"", 5, b"")
    with pytest.raises(ValueError, match=r"0\.\.8191"):
        count.sweep(5, b"\x00", 1, np.array([9000], dtype=np.int32), b"\x01", 1, np.array([1], dtype=np.int32))
    with pytest.raises(ValueError, match="ascending, distinct positions in the pool"):
        count.sweep(5, b"\x07", 1, np.array([1], dtype=np.int32), b"\x01", 1, np.array([1], dtype=np.int32))
    with pytest.raises(ValueError, match="more cards to deal"):
        sample.deal(b"\x00\x01", (b"", b""), (7, 7), False, bytearray(32), 1, 7, np.empty(14, dtype=np.uint8), None)


def _entries(*items: tuple[int, int]) -> bytes:
    """Completions for the sampler: (card mask, value) pairs as its 16-byte entries."""
    return b"".join(struct.pack("<Qii", mask, value, 0) for mask, value in items)


def test_the_kernels_refuse_what_used_to_crash_or_hang() -> None:
    """Malformed calls found by a hostile test: each crashed the interpreter or never returned."""
    counts = np.zeros(4, dtype=np.int64)
    # heads-up dropping with only one player who has a choice: falls back to picking again
    sample.completions((_entries((0, 5)), _entries((1, 1), (2, 2))), bytearray(32), 1000, True, False, counts)
    assert counts.sum() == 1000
    # no pick can ever fit: an error instead of an endless loop
    with pytest.raises(ValueError, match="no completion fits"):
        sample.completions(
            (_entries((1, 5), (1, 6)), _entries((1, 1), (1, 2))), bytearray(32), 10, False, False, counts
        )
    with pytest.raises(ValueError, match="no completion fits"):
        sample.completions((_entries((1, 5), (1, 6)), _entries((1, 1), (1, 2))), bytearray(32), 10, True, False, counts)
    # a size that overflows when multiplied out
    with pytest.raises(ValueError, match="trials x players x width"):
        sample.deal(
            bytes(range(40)), (b"\0\1\2", b"\3\4\5"), (1, 1), False, bytearray(32), 2**61, 4, bytearray(0), None
        )
    with pytest.raises(ValueError, match="m <= 52"):
        count.combinations(63, 61, bytearray(19337))
    # rows with a repeated position
    repeated = np.full((2000, 4), 51, np.uint8)
    with pytest.raises(ValueError, match="ascending, distinct"):
        count.sweep(
            52, np.array([[0, 1, 2, 3]], np.uint8), 4, np.array([5], np.int32), repeated, 4, np.zeros(2000, np.int32)
        )
    zeros = np.zeros(2000, np.int32)
    with pytest.raises(ValueError, match="ascending, distinct"):
        count.sweep_hilo(
            52,
            np.array([[0, 1, 2, 3]], np.uint8),
            4,
            np.array([5], np.int32),
            np.array([0], np.int32),
            repeated,
            4,
            zeros,
            zeros,
        )
    # tuples whose masks do not match their rows
    players = tuple(
        (np.array([[51]], np.uint8), 1, np.array([1 << bit], np.uint64), np.array([3], np.int32), None)
        for bit in range(4)
    )
    keys, starts = np.zeros(1, np.int64), np.zeros(60, np.int64)
    with pytest.raises(ValueError, match="each mask the bits of its row"):
        count.tuples(52, 0, 1, players, keys, starts, 1, 1, 24, None, np.zeros((5, 5), np.int64))


def test_the_compiled_tables_refuse_malformed_calls() -> None:
    assert sample.combos(bytes([0, 1, 2, 3]), bytes([9]), 2) == bytes(
        [9, 0, 1, 9, 0, 2, 9, 0, 3, 9, 1, 2, 9, 1, 3, 9, 2, 3]
    )
    with pytest.raises(ValueError, match="52 card indices"):
        sample.combos(bytes([0, 52]), b"", 1)
    with pytest.raises(ValueError, match="52 card indices"):
        sample.combos(bytes(range(10)), b"", 8)
    with pytest.raises(ValueError, match="at most 7 known"):
        sample.combos(bytes([0, 1]), bytes(8), 1)
    with pytest.raises(ValueError, match="one int32 value"):
        sample.entries(bytes([0, 1, 2]), 2, np.zeros(2, dtype=np.int32), None)
