"""Exact equity (``studpoker.equity.exact``) against the brute-force reference and a plain NumPy enumeration,
exact invariants (shares add up to one pot, symmetry between players and between suits), and spots worked out
by hand."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import permutations

import pytest

from studpoker.cards import Card
from studpoker.engine import Variant
from studpoker.equity import Spot, equity, exact
from studpoker.equity.result import Tally
from tests.equity.reference import Exact, exact_fractions, numpy_tally, reference_tally

VARIANTS = ("7stud", "7stud8", "razz", "5stud")


def fractions(tally: Tally, spot: Spot) -> Exact:
    return exact_fractions(tally, hilo=spot.variant is Variant.STUD7_HL8)


def assert_same(counted: Tally, expected: Tally, spot: Spot) -> None:
    """Two tallies of one spot say the same thing: the same counts, and the same pot shares as fractions (the
    scales may differ)."""
    assert counted.outcomes == expected.outcomes == spot.outcomes, spot
    assert counted.win.tolist() == expected.win.tolist(), spot
    if spot.variant is Variant.STUD7_HL8:
        assert counted.no_low == expected.no_low, spot
    else:
        assert counted.tie.tolist() == expected.tie.tolist(), spot
    assert fractions(counted, spot) == fractions(expected, spot), spot


def random_spot(rng: random.Random, limit: int = 20_000, players: tuple[int, int] = (2, 4)) -> Spot:
    """A random spot of a random game with at most ``limit`` outcomes: 2 to 4 players, each missing 0 to 3 cards
    (sometimes more when the others need none), sometimes dead cards."""
    while True:
        variant = rng.choice(VARIANTS)
        size = 5 if variant == "5stud" else 7
        n = rng.randint(*players)
        needs = [min(size, rng.choice((0, 0, 1, 1, 1, 2, 2, 3))) for _ in range(n)]
        if rng.random() < 0.1:
            needs = [0] * n
            needs[rng.randrange(n)] = rng.choice((3, 4, 5))
        deck = list(range(52))
        rng.shuffle(deck)
        hands = []
        for need in needs:
            hands.append([Card.from_index(c) for c in deck[: size - need]])
            deck = deck[size - need :]
        dead = [Card.from_index(c) for c in deck[: rng.choice((0, 0, 0, 1, 2, 4, 8))]]
        spot = Spot.parse(variant, hands, dead)
        if spot.outcomes <= limit:
            return spot


RANDOM_SPOTS = 120


@pytest.mark.parametrize("seed", range(RANDOM_SPOTS))
def test_exact_equals_reference_on_random_spots(seed: int) -> None:
    spot = random_spot(random.Random(seed))
    assert_same(exact.count(spot), reference_tally(spot), spot)


def test_random_spots_cover_every_case() -> None:
    """The random spots above include every game, 2 to 4 players, complete hands, dead cards, and hi/lo spots
    with and without lows."""
    spots = [random_spot(random.Random(seed)) for seed in range(RANDOM_SPOTS)]
    assert {s.variant for s in spots} == set(Variant)
    assert {s.n for s in spots} == {2, 3, 4}
    assert any(0 in s.needs for s in spots)
    assert any(set(s.needs) == {0} for s in spots)
    assert any(max(s.needs) >= 4 for s in spots)
    assert any(s.dead for s in spots)
    lows = [numpy_tally(s) for s in spots if s.variant is Variant.STUD7_HL8]
    assert any(t.no_low == t.outcomes for t in lows)
    assert any(t.no_low == 0 for t in lows)
    assert any(0 < t.no_low < t.outcomes for t in lows)


SPOTS = [
    # seven-card stud: a draw against a made hand, three-way, four-way with dead cards, everything known
    ("7stud", ["As Ad Kc Kd 7h 7s", "Qs Js Ts 9s 3h 3d"], ""),
    ("7stud", ["As Ad Kc Kd 7h 7s 2c", "Qs Js Ts 9s 3h"], "8s 8d"),
    ("7stud", ["Ah Kh Qh Jh 2c 3d", "Ac Kc Qc Jc 2d 3c", "As Ks Qs Js 2h 3h"], ""),
    ("7stud", ["9c 9d 4s 4h 2c", "Tc Jc Qc 8d 8h 3s 3c", "Kd Kh 5c 6d 7h 2s", "Ah 2h 3h 5h 6h 7d 8c"], "Jd Js"),
    ("7stud", ["2c 3c 4c 5c 7d 8d 9d", "2d 3d 4d 5d 7c 8c 9c"], ""),
    # razz: ties are common
    ("razz", ["As 2d 3c 4h 6s Kd", "Ac 2c 3d 4d Qs Qd"], ""),
    ("razz", ["Ah 2h 3h 4h 5h 6h", "Ad 2d 3d 4d 5d 6d", "Ac 2c 3c 4c 5c 6c"], "7c 7d 7h"),
    ("razz", ["Kc Kd Ks Qc Qd Qs", "Jc Jd Js Tc Td Ts", "9c 9d 9s 8c 8d 8s"], "Kh Qh Jh Th 9h 8h"),
    # stud hi/lo: no low possible, a low certain, split lows, three-way
    ("7stud8", ["9s Ts Js 2c 3c 4c", "Qh Kh Kd 3d 5d 6d"], ""),
    ("7stud8", ["As 2s 3s 4s 5s Kd", "Ac 2c 3c 4c 5c Kc"], ""),
    ("7stud8", ["Ah 2c 3d 4s Kc Kd", "Qs Qh Jc Jh Ts Td 9c"], ""),
    ("7stud8", ["Ah 2h 3h 7c 8c", "Ad 2d 4d 6s 8s Ks Kd", "As 3s 5s 7s Qc Qh Qd"], ""),
    ("7stud8", ["Ah 2h 3h 4h 6c 7c", "Ad 2d 3d 4d 6d 7d", "Kc Ks Qs Js 9s 9d"], "5c 5d"),
    # five-card stud: up to ten players
    ("5stud", ["As Ks Qs Js", "Ah Ad 2c 3c 4d"], ""),
    ("5stud", ["As Ks Qs", "Ah Ad 2c 3c 4d", "9c 9d 9h 8s"], "Tc Td"),
    ("5stud", ["Ac Kc Qc", "Ad Kd Qd Jd 3h", "Ah Kh Qh Jh 3c", "As Ks Qs Js 3d"], ""),
    # ten players, two of them with a card to come
    (
        "5stud",
        [
            *(
                f"{r}c {r}d {r}h {r}s {k}"
                for r, k in zip("23456789", ["Ac", "Ad", "Ah", "As", "Kc", "Kd", "Kh", "Ks"], strict=True)
            ),
            "Tc Td Th Ts",
            "Jc Jd Jh Qc",
        ],
        "",
    ),
]


@pytest.mark.parametrize(("variant", "hands", "dead"), SPOTS)
def test_exact_equals_reference_on_chosen_spots(variant: str, hands: list[str], dead: str) -> None:
    spot = Spot.parse(variant, hands, dead)
    assert spot.outcomes <= 50_000
    assert_same(exact.count(spot), reference_tally(spot), spot)


# --- the plain NumPy enumeration: bigger spots --------------------------------------------------------------------

MEDIUM = [
    # heads-up 5th street: 671,580 outcomes
    ("7stud", ["As Ad 7c 2h 9s", "Kh Qh Jh 3c 3d"], ""),
    ("razz", ["As 2d 5c Kd 7s", "3h 4h 6c Qc Qh"], ""),
    ("7stud8", ["As 2d 5c Kd 7s", "3h 4h 6c Qc Qh"], ""),
    ("7stud8", ["Ks Kd 5c 9d Ts", "3h 4h 6c 7c 8h"], "Ah 2h"),
    # four-way 6th street
    ("7stud", ["As Ad 7c 2h 9s 9d", "Kh Qh Jh 3c 3d 8h", "Tc Ts 5d 5s 6h 4c", "2c 2d 4s 8c 8d Qs"], ""),
    ("7stud8", ["As 2d 5c Kd 7s 8s", "3h 4h 6c Qc Qh 2s", "Ac 3c 4c 9h Th Jh", "6d 6s 7d 7h Ks Kh"], "5s"),
    ("razz", ["As 2d 5c Kd 7s 8s", "3h 4h 6c Qc Qh 2s", "Ac 3c 4c 9h Th Jh", "6d 6s 7d 7h Ks Kh"], ""),
    # three-way, two cards to come for two of them
    ("7stud", ["As Ad 7c 2h 9s", "Kh Qh Jh 3c 3d", "Tc Ts 5d 5s 6h 4c 4d"], "2d"),
    # five-card stud: heads-up 4th street, three-way 5th street
    ("5stud", ["As 7d 2c", "Kh Qh 8s"], ""),
    ("5stud", ["As 7d 2c 4c", "Kh Qh 8s 9s", "Tc Td 3c 3d"], ""),
]


@pytest.mark.parametrize(("variant", "hands", "dead"), MEDIUM)
def test_exact_equals_numpy_enumeration(variant: str, hands: list[str], dead: str) -> None:
    spot = Spot.parse(variant, hands, dead)
    assert 10_000 <= spot.outcomes <= 1_000_000
    assert_same(exact.count(spot), numpy_tally(spot), spot)


@pytest.mark.parametrize("seed", range(10))
def test_numpy_enumeration_equals_reference(seed: int) -> None:
    """The two independent enumerations agree with each other (so either is a fair judge of exact.count)."""
    spot = random_spot(random.Random(1000 + seed))
    expected = reference_tally(spot)
    vectorized = numpy_tally(spot)
    assert vectorized.scale == expected.scale
    for name in ("outcomes", "no_low"):
        assert getattr(vectorized, name) == getattr(expected, name)
    for name in ("win", "tie", "share", "high", "low"):
        assert getattr(vectorized, name).tolist() == getattr(expected, name).tolist(), name


# --- invariants -----------------------------------------------------------------------------------------------------


def check_sums(tally: Tally, spot: Spot) -> None:
    """Every outcome gives away exactly one pot; hi/lo gives half to the highs and half to the lows when there is
    a low, the whole pot to the highs when not."""
    unit = tally.outcomes * tally.scale
    assert tally.outcomes == spot.outcomes
    assert int(tally.share.sum()) == unit
    assert all(0 <= int(w) <= tally.outcomes for w in tally.win)
    if spot.variant is Variant.STUD7_HL8:
        assert (tally.share == tally.high + tally.low).all()
        with_low = tally.outcomes - tally.no_low
        assert Fraction(int(tally.low.sum()), unit) == Fraction(with_low, 2 * tally.outcomes)
        assert Fraction(int(tally.high.sum()), unit) == Fraction(tally.outcomes + tally.no_low, 2 * tally.outcomes)
        assert 0 <= tally.no_low <= tally.outcomes
        assert int(tally.win.sum()) <= tally.outcomes
    else:
        # each outcome has one winner or some tied players: wins plus tied outcomes cover every outcome
        assert int(tally.win.sum()) <= tally.outcomes
        assert int(tally.win.sum()) + int(tally.tie.sum()) >= tally.outcomes
        assert all(int(w) + int(t) <= tally.outcomes for w, t in zip(tally.win, tally.tie, strict=True))


@pytest.mark.parametrize("seed", range(40))
def test_shares_sum_to_one_pot_exactly(seed: int) -> None:
    spot = random_spot(random.Random(2000 + seed), limit=300_000)
    check_sums(exact.count(spot), spot)


@pytest.mark.parametrize(("variant", "hands", "dead"), MEDIUM[:4])
def test_shares_sum_to_one_pot_on_bigger_spots(variant: str, hands: list[str], dead: str) -> None:
    spot = Spot.parse(variant, hands, dead)
    check_sums(exact.count(spot), spot)


def reorder(spot: Spot, order: tuple[int, ...]) -> Spot:
    return Spot(spot.variant, tuple(spot.hands[i] for i in order), spot.dead)


@pytest.mark.parametrize("seed", range(30))
def test_swapping_two_players_swaps_their_results(seed: int) -> None:
    rng = random.Random(3000 + seed)
    spot = random_spot(rng, limit=200_000)
    i, j = rng.sample(range(spot.n), 2)
    order = list(range(spot.n))
    order[i], order[j] = j, i
    before, after = fractions(exact.count(spot), spot), fractions(exact.count(reorder(spot, tuple(order))), spot)
    for name in ("win", "tie", "share", "high", "low"):
        assert [getattr(after, name)[k] for k in order] == list(getattr(before, name)), name
    assert after.no_low == before.no_low


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_order_of_three_players(variant: str) -> None:
    hands = {
        "5stud": ["As 7d 2c", "Kh Qh 8s 9s", "Tc Td 3c 3d"],
    }.get(variant, ["As Ad 7c 2h 9s 4d", "Kh Qh Jh 3c 3d", "Tc Ts 5d 5s 6h 4c"])
    spot = Spot.parse(variant, hands)
    base = fractions(exact.count(spot), spot)
    for order in permutations(range(3)):
        got = fractions(exact.count(reorder(spot, order)), spot)
        for name in ("win", "tie", "share", "high", "low"):
            assert [getattr(got, name)[k] for k in range(3)] == [getattr(base, name)[i] for i in order], (order, name)


def relabel(spot: Spot, suits: tuple[int, ...]) -> Spot:
    """The same spot with suit s renamed suits[s] everywhere (card index = 4 * rank + suit)."""

    def card(c: Card) -> Card:
        return Card.from_index(c.index - c.index % 4 + suits[c.index % 4])

    return Spot(
        spot.variant, tuple(tuple(card(c) for c in hand) for hand in spot.hands), tuple(card(c) for c in spot.dead)
    )


@pytest.mark.parametrize("seed", range(20))
def test_suit_isomorphic_spots_have_equal_equity(seed: int) -> None:
    rng = random.Random(4000 + seed)
    spot = random_spot(rng, limit=200_000)
    suits = tuple(rng.sample(range(4), 4))
    other = relabel(spot, suits)
    assert_same(exact.count(other), exact.count(spot), other)


def test_suit_isomorphic_flush_draws() -> None:
    spot = Spot.parse("7stud", ["Ah Kh 7h 2h 9c", "Qs Qd Jc Js 3d 3s"])
    counted = exact.count(spot)
    for suits in permutations(range(4)):
        assert_same(exact.count(relabel(spot, suits)), counted, spot)


# --- spots worked out by hand ----------------------------------------------------------------------------------

ZERO, ONE = Fraction(0), Fraction(1)


def one_result(variant: str, hands: list[str], dead: str = "") -> Exact:
    spot = Spot.parse(variant, hands, dead)
    return fractions(exact.count(spot), spot)


def test_stud_seventh_street_by_hand() -> None:
    # Aces and kings against a straight-flush draw with a pair of threes; 39 unseen cards. The draw wins with
    # Kh Ks (straight), any eight (straight), any of the 7 unseen spades (flush) and 3c (trips): 12 cards.
    got = one_result("7stud", ["As Ad Kc Kd 7h 7s 2c", "Qs Js Ts 9s 3h 3d"])
    assert got.outcomes == 39
    assert got.share == (Fraction(27, 39), Fraction(12, 39))
    assert got.win == (Fraction(27, 39), Fraction(12, 39))
    assert got.tie == (ZERO, ZERO)


def test_stud_seventh_street_with_dead_outs_by_hand() -> None:
    # The same, with two eights and a spade dead: 36 unseen cards, outs Kh Ks 8c 8h 6s 5s 4s 3s 2s 3c (the 8s
    # was dead, as was the 6d): 10.
    got = one_result("7stud", ["As Ad Kc Kd 7h 7s 2c", "Qs Js Ts 9s 3h 3d"], dead="8s 8d 6d")
    assert got.outcomes == 36
    assert got.share == (Fraction(26, 36), Fraction(10, 36))


def test_razz_seventh_street_by_hand() -> None:
    # 6-4-3-2-A against A-2-3-4 with two queens; 39 unseen cards: a five (4) wins, a six (3) ties, all else loses.
    got = one_result("razz", ["As 2d 3c 4h 6s Kd Kh", "Ac 2c 3d 4d Qs Qd"])
    assert got.win == (Fraction(32, 39), Fraction(4, 39))
    assert got.tie == (Fraction(3, 39), Fraction(3, 39))
    assert got.share == (Fraction(32 * 2 + 3, 78), Fraction(4 * 2 + 3, 78))


def test_hilo_seventh_street_by_hand() -> None:
    # A-2-3-4 with two kings draws against queens and jacks (no low possible); 39 unseen cards.
    # A 5 (4 cards) makes the wheel: both halves. A 6, 7 or 8 (12) makes the low only: split.
    # An ace, deuce, trey, four (12) or king (2) beats two pair with no low: a scoop. The 9 others lose it all.
    got = one_result("7stud8", ["Ah 2c 3d 4s Kc Kd", "Qs Qh Jc Jh Ts Td 9c"])
    assert got.outcomes == 39
    assert got.win == (Fraction(4 + 14, 39), Fraction(9, 39))
    assert got.high == (Fraction(14 * 2 + 4, 78), Fraction(9 * 2 + 12, 78))
    assert got.low == (Fraction(4 + 12, 78), Fraction(0))
    assert got.share == (Fraction(24, 39), Fraction(15, 39))
    assert got.no_low == Fraction(23, 39)


def test_hilo_split_low_by_hand() -> None:
    # Both have the wheel (the low half is always quartered) and a five-high straight. Player 1's last card
    # wins the high half alone with a spade (flush; 9 unseen: 5s..Ks) or a six (six-high straight: 6c 6d 6h),
    # 12 cards, and splits it on the other 27 of the 39 unseen cards.
    got = one_result("7stud8", ["As 2s 3s 4s 5d Kd", "Ac 2c 3c 4d 5h Kc Qh"], "")
    assert got.outcomes == 39
    half, quarter = Fraction(1, 2), Fraction(1, 4)
    assert got.high == (Fraction(12, 39) * half + Fraction(27, 39) * quarter, Fraction(27, 39) * quarter)
    assert got.low == (quarter, quarter)
    assert got.win == (ZERO, ZERO)
    assert got.no_low == 0


def test_five_card_stud_by_hand() -> None:
    # A royal-flush draw against two aces: 43 unseen; any ten (4), any other spade (8), the last ace (1) win.
    got = one_result("5stud", ["As Ks Qs Js", "Ah Ad 2c 3c 4d"])
    assert got.share == (Fraction(13, 43), Fraction(30, 43))
    assert got.tie == (ZERO, ZERO)


def test_everything_known_is_one_outcome() -> None:
    got = one_result("7stud8", ["As 2s 3s 4s 5d Kd Kh", "Ac 2c 3c 4c 6h Kc Qh", "9d 9h 9s 9c Jd Jh Js"])
    assert got.outcomes == 1
    # quads take the high half; the wheel takes the low half
    assert got.high == (ZERO, ZERO, Fraction(1, 2))
    assert got.low == (Fraction(1, 2), ZERO, ZERO)
    assert got.win == (ZERO, ZERO, ZERO)
    tie = one_result("7stud", ["As Ks Qs Js 9d 2c 3c", "Ah Kh Qh Jh 9c 2d 3d", "4c 5c 6d 7d 9s Th 2h"])
    assert tie.share == (Fraction(1, 2), Fraction(1, 2), ZERO)
    assert tie.tie == (ONE, ONE, ZERO)
    assert tie.win == (ZERO, ZERO, ZERO)


# --- through equity() -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "hands", "dead"), SPOTS[::3])
def test_equity_result_of_an_exact_count(variant: str, hands: list[str], dead: str) -> None:
    spot = Spot.parse(variant, hands, dead)
    result = equity(hands, variant=variant, dead=dead, method="exact")
    assert result.method == "exact"
    assert result.exact
    assert result.outcomes == spot.outcomes
    assert result.spot == spot
    assert result.seed is None
    expected = fractions(reference_tally(spot), spot)
    hilo = spot.variant is Variant.STUD7_HL8
    for p, player in enumerate(result.players):
        assert player.hand == spot.hands[p]
        assert player.equity == pytest.approx(float(expected.share[p]), abs=1e-12)
        assert player.win == pytest.approx(float(expected.win[p]), abs=1e-12)
        assert player.scoop == player.win
        if hilo:
            assert player.tie is None
            assert player.high == pytest.approx(float(expected.high[p]), abs=1e-12)
            assert player.low == pytest.approx(float(expected.low[p]), abs=1e-12)
        else:
            assert player.tie == pytest.approx(float(expected.tie[p]), abs=1e-12)
            assert player.high is None
            assert player.low is None
        assert (player.equity_se, player.win_se, player.high_se, player.low_se) == (None, None, None, None)
    assert sum(player.equity for player in result.players) == pytest.approx(1, abs=1e-12)
    if hilo:
        assert result.no_low == pytest.approx(float(expected.no_low), abs=1e-12)
    else:
        assert result.no_low is None
    assert result.no_low_se is None


def test_equity_accepts_a_spot() -> None:
    spot = Spot.parse("razz", ["As 2d 3c 4h 6s Kd Kh", "Ac 2c 3d 4d Qs Qd"])
    assert (
        equity(spot, method="exact").players
        == equity(["As 2d 3c 4h 6s Kd Kh", "Ac 2c 3d 4d Qs Qd"], variant="razz", method="exact").players
    )


def test_progress_reports_reach_the_total() -> None:
    calls: list[tuple[int, int]] = []
    spot = Spot.parse(*MEDIUM[0])
    exact.count(spot, progress=lambda done, total: calls.append((done, total)))
    assert calls
    assert all(0 < done <= total for done, total in calls)
    assert calls[-1][0] == calls[-1][1]
