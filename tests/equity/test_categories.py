"""The distribution of final hand categories: exact answers equal a plain brute force (every assignment of the
ranges' down cards and every completion, valued by the scalar evaluators) on random small spots of every game,
Monte Carlo agrees with them, the published counts of all 7-card and 5-card hands come out, and bad questions are
errors."""

from __future__ import annotations

import json
import math
import random
from collections import defaultdict
from functools import cache
from itertools import combinations, product
from typing import Any

import numpy as np
import pytest

from studpoker.cards import CARDS, RANK_CHARS, Card, format_cards, parse_cards
from studpoker.engine import Variant
from studpoker.equity import EquityError, Spot, _final_hands, equity, montecarlo
from studpoker.equity.categories import (
    HIGH_KEYS,
    LOW8_KEYS,
    NO_LOW,
    RAZZ_PAIRED,
    RAZZ_TOPS,
    CategoryResult,
    PlayerCategories,
    estimate,
    final_categories,
)
from studpoker.equity.ranges import Range, RangeError
from studpoker.evaluation import (
    HandCategory,
    LowCategory,
    evaluate_low8,
    evaluate_razz,
    high_category,
    high_value,
    low8_value,
    razz_value,
)
from tests.evaluation.test_exhaustive import FIVE_CARD_CATEGORIES, SEVEN_CARD_CATEGORIES

GAMES = ["7stud", "7stud8", "razz", "5stud"]


def _keys(variant: Variant, hand: list[Card]) -> list[tuple[str, object]]:
    """What the brute force tallies for one final hand: its high category, its low's top card or shape."""
    out: list[tuple[str, object]] = []
    if variant is Variant.RAZZ:
        assert razz_value(hand) >= 1
        low = evaluate_razz(hand)
        if low.category == LowCategory.NO_PAIR:
            out.append(("low", RANK_CHARS[low.ranks[0]]))
        else:
            out.append(("paired", LowCategory(low.category)))
        return out
    out.append(("high", high_category(high_value(hand))))
    if variant is Variant.STUD7_HL8:
        low8 = evaluate_low8(hand)
        assert (low8 is None) == (low8_value(hand) == 0)
        out.append(("low", NO_LOW if low8 is None else RANK_CHARS[low8.ranks[0]]))
    return out


def brute_force(
    game: str, hands: list[str], dead: str = "", community: Any = None
) -> list[dict[str, dict[Any, float]]]:
    """Each player's distribution, by dealing every assignment of the ranges' down cards (weighted) and every set of
    cards each player can still get from what is left (itertools), valued one hand at a time."""
    variant = Spot.parse(game, [""] * 2).variant
    ranges = [Range.parse(h, variant) if "(" in h else None for h in hands]
    known_text = [format_cards(r.up) if r is not None else h for h, r in zip(hands, ranges, strict=True)]
    spot = Spot.parse(game, known_text, dead, community)  # the community card: resolved as the engine deals it
    known = [list(hand) for hand in spot.known]
    visible = [c for hand in known for c in hand] + list(spot.dead)
    pool = [c for c in CARDS if c not in visible]
    options = [r.combos(visible) if r is not None else [((), 1.0)] for r in ranges]
    valued: dict[frozenset[Card], list[tuple[str, object]]] = {}  # a final hand recurs under many assignments
    out = []
    for p in range(len(hands)):
        tally: dict[str, dict[Any, float]] = defaultdict(lambda: defaultdict(float))
        total = 0.0
        for assignment in product(*options):
            cards = [c for down, _ in assignment for c in down]
            if len(set(cards)) < len(cards):
                continue
            weight = math.prod(w for _, w in assignment)
            mine = known[p] + list(assignment[p][0])
            rest = [c for c in pool if c not in cards]
            for extra in combinations(rest, variant.cards - len(mine)):
                hand = frozenset(mine).union(extra)
                if hand not in valued:
                    valued[hand] = _keys(variant, mine + list(extra))
                for name, key in valued[hand]:
                    tally[name][key] += weight
                total += weight
        out.append({name: {k: v / total for k, v in d.items()} for name, d in tally.items()})
    return out


@cache
def _brute_removal(game: str, hands: tuple[str, ...], dead: str) -> list[dict[str, dict[Any, float]]]:
    """The brute force of a :data:`REMOVAL` spot, once per test run (two tests compare with it)."""
    return brute_force(game, list(hands), dead)


def _as_brute(player: PlayerCategories) -> dict[str, dict[Any, float]]:
    out: dict[str, dict[Any, float]] = {}
    for name in ("high", "low", "paired"):
        dist = getattr(player, name)
        if dist is not None and max(dist.values()) > 1e-15:
            out[name] = {k: v for k, v in dist.items() if v > 1e-15}
    if player.paired is not None and player.low is not None:  # razz: one distribution over both dicts
        total = sum(player.low.values()) + sum(player.paired.values())
        assert total == pytest.approx(1.0, abs=1e-12)
    return out


def _assert_same(result: CategoryResult, expected: list[dict[str, dict[Any, float]]]) -> None:
    for player, wanted in zip(result.players, expected, strict=True):
        got = _as_brute(player)
        assert set(got) == set(wanted)
        for name, dist in wanted.items():
            assert set(got[name]) == {k for k, v in dist.items() if v > 1e-15}, name
            for key, value in dist.items():
                assert got[name].get(key, 0.0) == pytest.approx(value, abs=1e-12), (name, key)


#: Spots with card removal by ranges, small enough for the brute force.
REMOVAL = [
    # a known hand against a narrow range: the kings are gone from the deck
    ("7stud", ["Ah Kd 7c 7s 2h", "(KK),(QQ):0.5 Qs 9h 3d"], "2c 3c 4c 5c 6c 8c 9c Tc Jc Qc"),
    # a ranged player himself, and two ranged opponents taking cards from the same deck
    ("7stud8", ["(A2),(A3):0.5 4h 5h 9s", "(KK),(K9s) Kd 8s 2h", "7d 7h 6s 6d 5s"], "2c 3c 4c Tc Jc Qc Td Jd"),
    (
        "razz",
        ["As 2s 3d 4d 9c Tc", "(XX),!(KK) Kh Qd Jd 9h", "(A2),(33):0.5 5c 6c 7h Ks"],
        "8c 8d 8h Th Ts Jc Js 9s",
    ),
    ("5stud", ["As Kd 3h", "(T+),(5):0.5 Ts Qh", "(X) 9c 4d"], "2c 3c 4c 5c 6c 7c 8c 9h Tc Jc 2d 3d 4h 5d"),
    # third street against two ranges: removal tables of four cards (sorted codes, not a dense table)
    (
        "7stud",
        ["As Ad 7c", "(KK),(QQ) Ks 9h 3d 2s", "(99),(88):0.5 9c 8h 4d 5s"],
        "2c 3c 4c 5c 6c 8c Tc Jc Qc 2d 5d 6d 8d Td Jd 2h 3h 4h 5h 6h",
    ),
    # two known cards against three ranges (removal by up to six cards, five at a time)
    (
        "7stud8",
        ["As Ad", "(KK),(QQ) Ks 9h 3d 2s", "(99),(88):0.5 9c 8h 4d 5s", "(A2),(76) 3c 4c 5c 6c"],
        "2c 7c 8c Tc Jc Qc 2d 5d 6d 8d Td Jd 2h 3h 4h 5h 6h Th Jh",
    ),
]


def _random_spot(rnd: random.Random, game: str) -> tuple[list[str], str]:
    """A late street with many dead cards (so the brute force is quick): 2 or 3 hands, some of them ranges (at
    most one wide one)."""
    stud5 = game == "5stud"
    cards = rnd.sample(CARDS, 52)
    hands: list[str] = []
    at, wide = 0, False
    for i in range(rnd.choice([2, 3])):
        if rnd.random() < (0.5 if i == 0 else 0.4):
            up = rnd.randint(2, 3) if stud5 else 4
            if stud5:
                patterns = ["(A),(K):0.5", "(9+):0.25,(T)"] + ([] if wide else ["(X)", "(T+)"])
            else:
                patterns = ["(AA),(KK):0.5", "(99+):0.25,(A2s)", "(QQ),(AKs)"]
                patterns += [] if wide else ["(XX)", "(AX),(KX):0.5", "(pair+)", "(XX),!(KK)", "(low3)"]
            pattern = rnd.choice(patterns)
            wide = wide or "X" in pattern or "+)" in pattern or "3)" in pattern
            hands.append(pattern + " " + format_cards(cards[at : at + up]))
            at += up
        else:
            size = rnd.randint(3, 4) if stud5 else rnd.randint(5, 6)
            hands.append(format_cards(cards[at : at + size]))
            at += size
    dead = format_cards(cards[at : at + rnd.randint(16, 24)])
    return hands, dead


@pytest.mark.parametrize("game", GAMES)
def test_exact_equals_the_brute_force_on_random_spots(game: str) -> None:
    rnd = random.Random(f"categories {game}")
    ranged = 0
    for _ in range(12):
        hands, dead = _random_spot(rnd, game)
        try:
            result = final_categories(hands, variant=game, dead=dead, method="exact")
        except EquityError as error:  # a narrow range with nothing left beside the cards in view
            assert any(why in str(error) for why in ("no combination", "no assignment", "too long"))
            continue
        assert result.method == "exact"
        _assert_same(result, brute_force(game, hands, dead))
        ranged += any("(" in h for h in hands)
    assert ranged >= 3


@pytest.mark.parametrize(("game", "hands", "dead"), REMOVAL)
def test_card_removal_by_ranges(game: str, hands: list[str], dead: str) -> None:
    result = final_categories(hands, variant=game, dead=dead)
    assert result.method == "exact"
    _assert_same(result, _brute_removal(game, tuple(hands), dead))


def test_the_listing_in_prefixes_and_tails(monkeypatch: pytest.MonkeyPatch) -> None:
    """With small blocks every final hand is a prefix and a tail from a shared table, and the weights are split
    into within-prefix, within-tail and across parts: each subset is still listed once, the answers unchanged."""
    monkeypatch.setattr(_final_hands, "_BLOCK", 40)
    listing = _final_hands.Listing((51,), (1, 4, 9, 16, 20, 30, 33, 40, 41, 47), 5)
    assert listing.r < 5
    rows = np.vstack([hands for hands, _ in listing.blocks()])
    assert rows.shape == (math.comb(10, 5), 6) and (rows[:, 0] == 51).all()
    assert len({tuple(row) for row in rows.tolist()}) == len(rows) and (np.diff(rows[:, 1:], axis=1) > 0).all()
    for game, hands, dead in REMOVAL:
        expected = _brute_removal(game, tuple(hands), dead)
        _assert_same(final_categories(hands, variant=game, dead=dead, method="exact"), expected)


def test_card_removal_changes_the_answer() -> None:
    """Against a range of kings the kings are out of the deck: fewer full houses for a pair of kings up than
    against unknown down cards, and exactly the brute force's numbers."""
    dead = "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc"
    mine = "Kh Ks Qd 8h 2d"
    kings = final_categories([mine, "(KK),(AA) 9h 9d 4s"], dead=dead).players[0].high
    anything = final_categories([mine, "(XX) 9h 9d 4s"], dead=dead).players[0].high
    unknown = final_categories([mine, "9h 9d 4s"], dead=dead).players[0].high
    assert kings is not None and anything is not None and unknown is not None
    assert kings[HandCategory.THREE_OF_A_KIND] < unknown[HandCategory.THREE_OF_A_KIND]
    assert anything == pytest.approx(unknown, abs=1e-12)  # a range of everything is the same as no range


def test_community_cards() -> None:
    """Eight players in seven-card stud share the last card, dealt or to come, and each hand counts it."""
    rnd = random.Random(8)
    cards = rnd.sample(CARDS, 52)
    hands = [format_cards(cards[6 * i : 6 * i + 6]) for i in range(8)]  # 48 cards: the 7th is shared
    result = final_categories(hands)
    assert result.spot.community_to_come and result.method == "exact"
    assert [p.outcomes for p in result.players] == [4] * 8
    _assert_same(result, brute_force("7stud", hands))
    dealt = final_categories(hands, community=str(cards[49]))
    assert [p.outcomes for p in dealt.players] == [1] * 8
    assert all(max(p.high.values()) == 1.0 for p in dealt.players if p.high)
    # razz on fifth street, eight players, one of them a range: one card of their own each, then the shared one
    fifth = [format_cards(cards[5 * i : 5 * i + 5]) for i in range(7)] + [
        "(A2),(XX):0.25 " + format_cards(cards[35:38])
    ]
    shared = final_categories(fifth, variant="razz", dead=format_cards(cards[38:40]))
    assert shared.spot.community_to_come and shared.method == "exact"
    _assert_same(shared, brute_force("razz", fifth, format_cards(cards[38:40])))


@pytest.mark.parametrize("game", ["7stud", "7stud8", "razz"])
def test_a_complete_hand_is_a_point_mass(game: str) -> None:
    result = final_categories(["As Ad 7c 7h 2s Kd 9c", "3h 4h 5h 6h 7d 8s Ks"], variant=game)
    assert result.method == "exact" and result.outcomes == 2
    first, second = result.players
    if game == "razz":
        assert first.low is not None and second.paired is not None
        assert first.low["K"] == 1.0 and sum(first.low.values()) == 1.0
        assert second.low is not None and second.low["7"] == 1.0
        return
    assert first.high is not None and second.high is not None
    assert first.high[HandCategory.TWO_PAIR] == 1.0 and second.high[HandCategory.STRAIGHT] == 1.0
    assert sum(first.high.values()) == 1.0
    if game == "7stud8":
        assert first.low == {"5": 0.0, "6": 0.0, "7": 0.0, "8": 0.0, NO_LOW: 1.0} and first.makes_low == 0.0
        assert second.low is not None and second.low["7"] == 1.0 and second.makes_low == 1.0


def test_every_five_card_hand() -> None:
    """Five-card stud with no card known: each player's final hand is any of the 2,598,960 hands."""
    result = final_categories(["", ""], variant="5stud")
    assert result.method == "exact"
    player = result.players[0]
    assert player.outcomes == 2_598_960 and player.high is not None
    counts = {k: round(v * player.outcomes) for k, v in player.high.items()}
    assert counts == FIVE_CARD_CATEGORIES
    assert result.players[1] == player


@pytest.mark.slow
def test_every_seven_card_hand() -> None:
    """Seven-card stud with no card known: every one of the 133,784,560 seven-card hands, counted exactly (the
    published category counts, as tests/evaluation/test_exhaustive.py has them)."""
    spot = Spot.parse("7stud", ["", ""])
    assert estimate(spot) > 2.0  # auto would sample this one
    result = final_categories(spot, method="exact")
    player = result.players[0]
    assert player.outcomes == 133_784_560 and player.high is not None
    assert {k: round(v * player.outcomes) for k, v in player.high.items()} == SEVEN_CARD_CATEGORIES
    assert result.players[1] == player


def _within(exact: CategoryResult, sampled: CategoryResult, sigmas: float = 4.0) -> None:
    for mine, theirs in zip(exact.players, sampled.players, strict=True):
        for name in ("high", "low", "paired"):
            want, got, se = getattr(mine, name), getattr(theirs, name), getattr(theirs, f"{name}_se")
            if want is None:
                assert got is None
                continue
            for key in want:
                floor = 1 / math.sqrt(sampled.outcomes)  # a category the sample never saw has SE 0
                assert abs(got[key] - want[key]) <= sigmas * max(se[key], floor), (name, key)


@pytest.mark.parametrize(
    ("game", "hands", "dead"),
    [
        ("7stud", ["As Ad 7c", "(KK),(QQ):0.5 Kh", "9s 9d 3c"], "2c 5d"),
        ("7stud8", ["As 2d 3c 4h", "(XX) Kd Qd", "(A2),(A3),(23) 6s"], ""),
        ("razz", ["(A2),(A3) 4s 5d", "(XX) Kd 9s", "8c 7d 6h"], "Qs"),
        ("5stud", ["As Kd", "(X) Qh", "(T+) 9c"], "2c"),
    ],
)
def test_monte_carlo_agrees_with_the_exact_count(game: str, hands: list[str], dead: str) -> None:
    exact = final_categories(hands, variant=game, dead=dead, method="exact")
    sampled = final_categories(hands, variant=game, dead=dead, trials=200_000, seed=11)
    assert (exact.method, sampled.method, sampled.outcomes, sampled.seed) == ("exact", "montecarlo", 200_000, 11)
    assert sampled.trials == 200_000 and exact.trials is None
    _within(exact, sampled)
    again = final_categories(hands, variant=game, dead=dead, trials=200_000, seed=11)
    assert [p.high for p in again.players] == [p.high for p in sampled.players]
    assert [p.low for p in again.players] == [p.low for p in sampled.players]


def test_a_seed_deals_what_the_equity_deals() -> None:
    """Monte Carlo deals as equity() does with the shuffle (ranges always use it): with the same seed, the deals
    in which nobody makes a low are the same ones (the kings never make one)."""
    hands = ["As 2d 3c", "(KK) Ks"]
    sampled = equity(hands, variant="7stud8", trials=50_000, seed=9)
    categories = final_categories(hands, variant="7stud8", trials=50_000, seed=9)
    assert categories.players[1].low is not None and categories.players[1].low[NO_LOW] == 1.0
    assert categories.players[0].low is not None and categories.players[0].low[NO_LOW] == sampled.no_low


def test_monte_carlo_without_the_compiled_sampler(monkeypatch: pytest.MonkeyPatch) -> None:
    hands, dead = ["As 2d 3c", "(KK),(AA):0.5 Kh", "Qs", "Qd Jd"], "7c 8h"
    exact = final_categories(hands, variant="7stud8", dead=dead, method="exact")
    monkeypatch.setattr(montecarlo, "_sample", None)
    sampled = final_categories(hands, variant="7stud8", dead=dead, trials=40_000, seed=3)
    _within(exact, sampled)
    again = final_categories(hands, variant="7stud8", dead=dead, trials=40_000, seed=3)
    assert sampled.players[0].low == again.players[0].low
    community = final_categories(["As", "Kd", "Qc", "Js", "Th", "9d", "8c", "7h"], trials=20_000, seed=1)
    assert community.spot.community_to_come and all(p.outcomes == 20_000 for p in community.players)


def test_auto_counts_when_quick_and_samples_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    assert final_categories(["As Ad 7c", "Kh"]).method == "exact"
    monkeypatch.setattr("studpoker.equity.categories.DEFAULT_TRIALS", 10_000)
    big = final_categories(["(XX) Ks", "(XX) Qd", "(XX) 9c"])  # 1,275^3 assignments: no exact count
    assert big.method == "montecarlo" and big.outcomes == 10_000 and big.seed is None
    with pytest.raises(EquityError, match="too many assignments"):
        final_categories(["(XX) Ks", "(XX) Qd", "(XX) 9c"], method="exact")
    monkeypatch.setattr("studpoker.equity.categories.MAX_EXACT_SECONDS", 0.1)
    with pytest.raises(EquityError, match=r"would take too long \(about 0 s; at most 0 s\)"):
        final_categories(["As Ad 7c", "Kh"], method="exact")
    assert final_categories(["As Ad 7c", "Kh"], trials=1000, seed=1).method == "montecarlo"


def test_the_result_as_data_and_text() -> None:
    result = final_categories(["As 2d 3c 4h 5h 6d", "(KK) Kh Qd Jc 9c"], variant="7stud8", dead="Ks")
    data = json.loads(json.dumps(result.to_dict()))
    assert data == result.as_dict()
    assert data["method"] == "exact" and data["variant"] == "STUD7_HL8" and data["dead"] == "Ks"
    first, second = data["players"]
    assert first["hand"] == "As 2d 3c 4h 5h 6d" and "range" not in first
    assert second["range"] == "(KK) Kh Qd Jc 9c" and second["hand"] == "Kh Qd Jc 9c"
    assert set(first["high"]) == {c.name.lower() for c in HandCategory}
    assert list(first["low"]) == list(LOW8_KEYS) and first["makes_low"] == 1.0
    assert first["high"]["straight"] + first["high"]["straight_flush"] == 1.0
    assert "high_se" not in first
    text = str(result)
    lines = text.splitlines()
    assert lines[0].startswith("Final hand categories (%); exact: ")
    assert lines[1].split() == ["final", "hand", "As", "2d", "3c", "4h", "5h", "6d", "(KK)", "Kh", "Qd", "Jc", "9c"]
    assert [line.split("   ")[0].strip() for line in lines[2:]][:2] == ["straight flush", "four of a kind"]
    assert any(line.strip().startswith("wheel") for line in lines) and lines[-1].strip().startswith("no low")
    razz = final_categories(["As 2d 3c", "Kh"], variant="razz", trials=2000, seed=5)
    assert razz.players[0].high is None and razz.players[0].paired_se is not None
    assert list(razz.players[0].low or {}) == list(RAZZ_TOPS) and list(razz.players[0].paired or {}) == list(
        RAZZ_PAIRED
    )
    assert "± is one standard error" in str(razz).splitlines()[0] and "10 low" in str(razz)
    assert json.loads(json.dumps(razz.as_dict()))["trials"] == 2000
    assert HIGH_KEYS[0] is HandCategory.STRAIGHT_FLUSH


@pytest.mark.parametrize(
    ("hands", "options", "message"),
    [
        (["As Ad Zc", "Kh"], {}, "hand 1"),
        (["As Ad 7c", "As Kd"], {}, "a card can be in one place only"),
        (["As Ad 7c"], {}, "at least two hands"),
        ("As Ad", {}, "hands must be a list"),
        (["As", "Kd"], {"trials": 0}, "trials must be a whole number"),
        (["As", "Kd"], {"trials": 10**13}, "trials must be a whole number"),
        (["As", "Kd"], {"trials": 1.5}, "trials must be a whole number"),
        (["As", "Kd"], {"trials": True}, "trials must be a whole number"),
        (["As", "Kd"], {"trials": 10, "method": "exact"}, "trials are for Monte Carlo"),
        (["As", "Kd"], {"seed": -1}, "seed must be"),
        (["As", "Kd"], {"seed": 2**128}, "seed must be"),
        (["As", "Kd"], {"method": "quick"}, "unknown method"),
        (["As", "Kd"], {"variant": "holdem"}, "unknown game"),
        (["As", "Kd"], {"dead": "As"}, "one place only"),
        (["As Ad 7c 7h 2s Kd 9c 3c", "Kd"], {}, "hand 1 has 8 cards"),
        (["(KK) Ks", "Kh Kd Kc"], {}, "no combination"),
    ],
)
def test_errors(hands: Any, options: dict[str, Any], message: str) -> None:
    with pytest.raises(EquityError, match=message):
        final_categories(hands, **options)


def test_range_errors_are_range_errors() -> None:
    with pytest.raises(RangeError, match="unknown rank 'Z'"):
        final_categories(["As Ad 7c", "(KZ) Ks"])
    with pytest.raises(EquityError, match="a range for Razz"):
        final_categories(["As Ad 7c", Range.parse("(KK) Ks", "razz")])
    assert final_categories(["As Ad 7c", Range.parse("(KK) Ks")]).players[1].range == "(KK) Ks"
    assert parse_cards("Ks") == final_categories(["As Ad 7c", "(KK)Ks"]).players[1].hand
