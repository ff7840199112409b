"""The short deck's community card (SPEC R8) in equity: how a spot resolves it (auto, yes, no, a dealt card) and
the errors, the outcome count, exact counting and Monte Carlo against a brute-force reference that deals the
community card itself, agreement with the engine's own decision, and ``stud equity --community``."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from fractions import Fraction
from math import comb, prod
from typing import Any

import pytest

from studpoker.cards import Card, parse_cards
from studpoker.engine import ActionKind, HandState, Rules, ShortDeckProcedure, Variant
from studpoker.engine.events import CommunityCard
from studpoker.equity import EquityError, Spot, equity, exact, small
from studpoker.equity import montecarlo as mc
from studpoker.equity.result import EquityResult, Tally
from tests.cli.helpers import stud
from tests.equity.reference import Exact, exact_fractions, outcomes, reference_tally

#: The eight-handed third-street spot of the issue: 8 x 7 = 56 cards, so the 7th street is a community card.
EIGHT = ["As Ad 7c", "Kh", "Qd", "9s", "8c", "5h", "Th", "4d"]
#: Heads-up, six cards each: with the community card to come, 40 outcomes (the 40 unseen cards).
SIXTH = ["As Ad 7c 7h 2s Kd", "Kh Ks Qs Jc 9c 8h"]


def raises(match: str, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(EquityError, match=match) as info:
        Spot.parse(*args, **kwargs)
    return str(info.value)


# --- resolving the community card ----------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["7stud", "7stud8", "razz"])
def test_auto_eight_players_on_third_street_share_the_seventh_card(variant: str) -> None:
    spot = Spot.parse(variant, EIGHT)
    assert spot.community is True and spot.community_to_come and spot.community_card is None
    assert spot.needs == (3, 5, 5, 5, 5, 5, 5, 5)  # own cards: 4th to 6th street, and all of them for the others
    assert len(spot.pool) == 42
    own = comb(42, 3) * prod(comb(39 - 5 * i, 5) for i in range(7))  # the hero's 3, then 5 each for the others
    assert spot.outcomes == own * 4  # and the community card: one of the 4 cards left
    assert spot.known == spot.hands  # nothing shared is known yet
    assert Spot.parse(variant, EIGHT, community=True) == spot  # auto stores what it resolved to
    assert Spot.parse(variant, [""] * 8).community is True  # nobody's card known: still 56 cards needed


def test_auto_eight_players_on_every_street() -> None:
    deck = [Card.from_index(i) for i in range(52)]
    for known in range(7):  # 0 to 6 cards each: always 56 > 52 and 49 <= 52
        spot = Spot(Variant.STUD7, tuple(tuple(deck[p * 6 : p * 6 + known]) for p in range(8)))
        assert spot.community is True, known
        assert spot.needs == (6 - known,) * 8
        assert spot.outcomes >= 4


def test_auto_seven_players_get_their_own_cards() -> None:
    spot = Spot.parse("7stud", EIGHT[:7])
    assert spot.community is False and not spot.community_to_come
    assert spot.needs == (4, 6, 6, 6, 6, 6, 6)
    assert Spot.parse("razz", [""] * 7).community is False  # 49 cards fit in 52
    forced = Spot.parse("7stud", EIGHT[:7], community=True)  # the caller knows better (folded players)
    assert forced.community is True and forced.needs == (3, 5, 5, 5, 5, 5, 5)


def test_auto_in_five_card_stud() -> None:
    assert Spot.parse("5stud", [""] * 10).community is False  # 10 x 5 = 50 fits (SPEC R8.7)
    spot = Spot.parse("5stud", [""] * 10, dead="2c 2d 2h")  # 50 > 49, and 10 x 4 + 1 = 41 fits
    assert spot.community is True and spot.needs == (4,) * 10
    assert Spot.parse("5stud", ["As Kd", "Qc"], community=True).needs == (2, 3)


def test_explicit_community() -> None:
    spot = Spot.parse("7stud", SIXTH, community=True)
    assert spot.community is True and spot.needs == (0, 0) and spot.outcomes == 40
    assert Spot.parse("7stud", SIXTH).community is False and Spot.parse("7stud", SIXTH).outcomes == 40 * 39
    with pytest.raises(EquityError, match=re.escape("the players still need 46 cards and only 42 are left")):
        Spot.parse("7stud", EIGHT, community=False)


@pytest.mark.parametrize("card", ["3d", Card.parse("3d"), " 3D "])
def test_a_dealt_community_card(card: Card | str) -> None:
    spot = Spot.parse("7stud", SIXTH, community=card)
    assert spot.community == Card.parse("3d") and spot.community_card == Card.parse("3d")
    assert not spot.community_to_come
    assert spot.needs == (0, 0) and spot.outcomes == 1
    assert Card.parse("3d").index not in spot.pool and len(spot.pool) == 39
    assert spot.known == tuple((*hand, Card.parse("3d")) for hand in spot.hands)
    assert spot.hands == tuple(parse_cards(hand) for hand in SIXTH)  # the hands stay the players' own cards
    assert Spot(Variant.STUD7, spot.hands, (), "3d") == spot  # type: ignore[arg-type]  # text, converted
    assert Spot.parse("7stud", SIXTH, community=True).with_community("3d") == spot
    assert Spot.parse("7stud", SIXTH, community=True).with_community(Card.parse("3d").index) == spot


def test_community_card_errors() -> None:
    raises(
        "^" + re.escape("hand 2 has 7 cards: with a community card a seven-card stud hand has 6 of its own") + "$",
        "7stud",
        ["As Ad", "Kh Ks Qs Jc 9c 8h 2d"],
        community=True,
    )
    raises(
        re.escape("hand 1 has 5 cards: with a community card a five-card stud hand has 4 of its own"),
        "5stud",
        ["As Ad Kd Kc 2d", "Qh"],
        community="7s",
    )
    raises(
        "^" + re.escape("As is in hand 1 and is the community card: a card can be in one place only") + "$",
        "razz",
        ["As Ad", "Kh"],
        community="As",
    )
    raises(re.escape("2c is in the dead cards and is the community card"), "7stud8", ["As", "Kh"], "2c", "2c")
    message = raises("^the community card: 'Xx' is not a card", "7stud", ["As", "Kh"], community="Xx")
    assert "e.g. 'As'" in message
    raises("the community card: 'Kd Qd' is not a card", "7stud", ["As", "Kh"], community="Kd Qd")
    with pytest.raises(EquityError, match=re.escape("community must be True, False, None (auto) or a card, got 3")):
        Spot(Variant.STUD7, ((Card.parse("As"),), ()), (), 3)  # type: ignore[arg-type]
    # a full hand leaves auto no community card: the old message
    raises("the players still need 49 cards and only 45 are left", "7stud", ["As Ad Kd Kc 2d 3d 4d", *[""] * 7])
    # four dead cards: even with a community card 8 x 6 + 1 = 49 > 48
    raises(
        re.escape("the players still need 56 cards and only 48 are left in the deck"), "7stud", [""] * 8, "2c 3c 4c 5c"
    )
    message = raises(
        re.escape("the players still need 49 cards (48 of their own and the community card) and only 48 are left"),
        "7stud",
        [""] * 8,
        "2c 3c 4c 5c",
        community=True,
    )
    assert message.endswith("in the deck: too many players or dead cards for one deck")
    with pytest.raises(EquityError, match="is the community card"):
        equity(["As Kd", "Qs Qd"], community="Kd")


# --- the outcomes ----------------------------------------------------------------------------------------------


SMALL_SPOTS = [
    ("7stud", ["As Ad 7c 7h 2s", "Kh Ks Qs Jc 9c"], "2c 2d 3c 3d 3h 3s 4c 4d 4h 4s 5c 5d 5h 5s 6c 6d 6h 6s 7d 7s"),
    ("7stud8", ["As 2d 3c 4h Kd", "5h 6h Qc Qs", "Jd Jh Js 9d 9h 8s"], "2c 2h 2s 3d 3h 3s 4c 4d 4s 5c 5d 5s 6c 6d"),
    ("razz", ["As 2d 3c 4h 6s Kd", "Ac 2c 3d 4d Qs Qd", "5h 6h 7h 8h 9h Th", "Js Jd Jh Kc Ks Kh"], ""),
    ("5stud", ["As Ks Qs", "Ah Ad 2c 3c", "7d 7s"], "8c 8d 8h 8s 9c 9d 9h 9s Tc Td Th Ts Jc Jd Jh Js Qc Qd Qh 2d 2h"),
]


def _eight_on_sixth(rng: random.Random, variant: str, short: int) -> Spot:
    """Eight players on sixth street (six cards each) or with ``short`` of them on fifth (five cards)."""
    deck = [Card.from_index(i) for i in range(52)]
    rng.shuffle(deck)
    hands = []
    for p in range(8):
        size = 5 if p < short else 6
        hands.append(deck[:size])
        deck = deck[size:]
    return Spot.parse(variant, hands)


def _small_spots() -> Iterator[Spot]:
    for variant, hands, dead in SMALL_SPOTS:
        yield Spot.parse(variant, hands, dead, community=True)
    rng = random.Random(5)
    for short in (0, 1, 2):
        yield _eight_on_sixth(rng, rng.choice(["7stud", "7stud8", "razz"]), short)
    yield Spot.parse("7stud", SIXTH, community="Tc")


@pytest.mark.parametrize("spot", list(_small_spots()), ids=lambda s: f"{s.variant.name}-{s.n}-{s.needs}")
def test_outcomes_counts_every_deal_with_the_community_card(spot: Spot) -> None:
    every = [tuple(tuple(hand) for hand in hands) for hands in outcomes(spot)]
    assert len(every) == spot.outcomes
    assert len(set(every)) == len(every)
    for hands in every:
        dealt = [c for hand in hands for c in hand]
        if spot.community is not False:  # one card in every hand
            shared = set.intersection(*(set(hand) for hand in hands))
            assert len(shared) == 1
            assert len(set(dealt)) == len(dealt) - (spot.n - 1)
        assert all(len(hand) == spot.variant.cards for hand in hands)


def test_outcomes_formula() -> None:
    spot = Spot.parse(*SMALL_SPOTS[0], community=True)
    m = len(spot.pool)
    assert spot.needs == (1, 1) and spot.outcomes == m * (m - 1) * (m - 2)
    eight = _eight_on_sixth(random.Random(1), "7stud", 2)
    assert eight.community is True and eight.needs == (1, 1, 0, 0, 0, 0, 0, 0) and len(eight.pool) == 6
    assert eight.outcomes == 6 * 5 * 4


# --- exact counting against the reference ----------------------------------------------------------------------


def fractions(tally: Tally, spot: Spot) -> Exact:
    return exact_fractions(tally, hilo=spot.variant is Variant.STUD7_HL8)


def assert_same(counted: Tally, expected: Tally, spot: Spot) -> None:
    assert counted.outcomes == expected.outcomes == spot.outcomes, spot
    assert [int(x) for x in counted.win] == [int(x) for x in expected.win], spot
    if spot.variant is Variant.STUD7_HL8:
        assert counted.no_low == expected.no_low, spot
    else:
        assert [int(x) for x in counted.tie] == [int(x) for x in expected.tie], spot
    assert fractions(counted, spot) == fractions(expected, spot), spot


def community_spot(rng: random.Random, limit: int = 4_000) -> Spot:
    """A random spot of 7stud, 7stud8, razz or 5stud with a community card to come (sometimes already dealt) and at
    most ``limit`` outcomes: 2 to 8 players (10 in five-card stud) missing 0 to 2 of their own cards, dead cards
    to keep the pool small."""
    while True:
        variant = rng.choice(("7stud", "7stud8", "razz", "7stud", "7stud8", "razz", "5stud"))
        size = 5 if variant == "5stud" else 7
        n = rng.choice((2, 2, 3, 3, 4, 8)) if variant != "5stud" else rng.choice((2, 3, 10))
        needs = [rng.choice((0, 0, 1, 1, 2)) for _ in range(n)]
        deck = list(range(52))
        rng.shuffle(deck)
        hands = []
        for need in needs:
            hands.append([Card.from_index(c) for c in deck[: size - 1 - need]])
            deck = deck[size - 1 - need :]
        dealt = rng.random() < 0.2
        community: bool | Card = Card.from_index(deck.pop()) if dealt else True
        spare = len(deck) - sum(needs) - 1
        dead = [Card.from_index(c) for c in deck[: rng.randint(max(0, spare - 12), max(0, spare))]]
        try:
            spot = Spot.parse(variant, hands, dead, community=community)
        except EquityError:
            continue
        if spot.outcomes <= limit:
            return spot


RANDOM_SPOTS = 60


@pytest.mark.parametrize("seed", range(RANDOM_SPOTS))
def test_exact_with_community_equals_reference(seed: int) -> None:
    spot = community_spot(random.Random(seed))
    expected = reference_tally(spot)
    assert_same(exact.count(spot), expected, spot)
    assert_same(small.count(spot), expected, spot)
    result = equity(spot, method="exact")
    assert result.method == "exact" and result.outcomes == spot.outcomes


def test_random_spots_cover_the_cases() -> None:
    spots = [community_spot(random.Random(seed)) for seed in range(RANDOM_SPOTS)]
    assert {s.variant for s in spots} == set(Variant)
    assert sum(s.community_to_come for s in spots) >= RANDOM_SPOTS // 2
    assert any(s.community_card is not None for s in spots)
    assert any(s.n == 8 for s in spots) and any(s.n == 2 for s in spots)
    assert any(set(s.needs) == {0} for s in spots) and any(max(s.needs) == 2 for s in spots)
    assert any(s.dead for s in spots)


def test_eight_players_exactly() -> None:
    for short in (0, 1, 2, 3):
        spot = _eight_on_sixth(random.Random(short), ["7stud", "7stud8", "razz", "7stud"][short], short)
        assert spot.community_to_come
        expected = reference_tally(spot)
        assert_same(exact.count(spot), expected, spot)
        assert_same(small.count(spot), expected, spot)


def test_a_worked_spot() -> None:
    """Aces and sevens against kings with a straight draw, the last card shared: the kings win with the last king
    and the four tens (a straight), 5 of the 40 unseen cards; a known ten wins for them outright."""
    result = equity(SIXTH, community=True)
    assert result.method == "exact" and result.outcomes == 40
    assert [p.equity for p in result.players] == [35 / 40, 5 / 40]
    spot = Spot.parse("7stud", SIXTH, community=True)
    assert fractions(exact.count(spot), spot).share == (Fraction(7, 8), Fraction(1, 8))
    assert [p.equity for p in equity(SIXTH, community="Tc").players] == [0.0, 1.0]
    assert [p.equity for p in equity(SIXTH, community="7s").players] == [1.0, 0.0]


def test_plan_counts_the_community_card() -> None:
    spot = Spot.parse("7stud", ["As Ad 7c 7h 2s", "Kh Ks Qs Jc 9c"], community=True)
    how = exact.plan(spot)
    each = exact.plan(spot.with_community(spot.pool[0]))
    assert how.spot is spot and how.repeats == len(spot.pool) == 42 and each.repeats == 1
    assert how.work == each.work * 42 and how.keys == each.keys
    assert exact.feasible(spot)
    assert not exact.feasible(Spot.parse("7stud", EIGHT))
    third = Spot.parse("7stud", ["As Ad 7c", "Kh Ks Qs"], community=True)
    assert exact.plan(third.with_community(third.pool[0])).feasible
    assert exact.plan(third).work == exact.plan(third.with_community(third.pool[0])).work * 46


def test_too_large_to_count_names_the_whole_spot() -> None:
    spot = Spot.parse("7stud8", ["As", "", ""], community=True)
    with pytest.raises(EquityError, match=re.escape(f"too large to count exactly ({spot.outcomes:,} outcomes)")):
        exact.count(spot)


def test_exact_progress_runs_over_every_community_card() -> None:
    spot = Spot.parse("7stud", ["As Ad 7c 7h 2s", "Kh Ks Qs Jc 9c"], "2c 3c 4c 5c 6c 8c", community=True)
    seen: list[tuple[int, int]] = []
    tally = exact.count(spot, progress=lambda done, total: seen.append((done, total)))
    assert tally.outcomes == spot.outcomes
    assert seen and seen[-1][0] == seen[-1][1]
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)
    assert len({total for _, total in seen}) == 1


# --- Monte Carlo ------------------------------------------------------------------------------------------------


def _close(got: float, want: float, se: float | None, label: str) -> None:
    assert se is not None, label
    if want in (0.0, 1.0):  # certain: every trial says so
        assert got == want, label
    assert abs(got - want) <= 4 * se + 1e-9, f"{label}: {got:.5f} vs exact {want:.5f} (se {se:.5f})"


MC_SPOTS = [
    ("7stud", ["As Ad 7c 7h 2s", "Kh Ks Qs Jc 9c"], "2c 2d 3c 3d"),
    ("7stud8", ["As 2d 3c 4h Kd", "5h 6h Qc Qs", "Jd Jh Js 9d 9h 8s"], "Tc Th"),
    ("razz", ["As 2d 3c 9h Kd", "Ac 2c 3d 4d Qs", "5h 6h 7h 8h 9c Th"], ""),
    ("5stud", ["As Ks Qs", "Ah Ad 2c", "7d 7s 7h"], "8c 8d 8h 8s 9c"),
]


def _kernels() -> list[str]:
    return ["numpy", "compiled"] if getattr(mc, "_sample", None) is not None else ["numpy"]


@pytest.mark.parametrize("path", _kernels())
@pytest.mark.parametrize(("variant", "hands", "dead"), MC_SPOTS, ids=[s[0] for s in MC_SPOTS])
def test_monte_carlo_agrees_with_exact(
    variant: str, hands: list[str], dead: str, path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if path == "numpy":
        monkeypatch.setattr(mc, "_sample", None, raising=False)
    spot = Spot.parse(variant, hands, dead, community=True)
    assert mc.choose_sampler(spot, 200_000) == "shuffle"
    assert mc._plan(spot, "shuffle").community
    truth = equity(spot, method="exact")
    sampled = equity(spot, method="montecarlo", trials=200_000, seed=11)
    assert sampled.method == "montecarlo" and sampled.outcomes == 200_000
    for p, (got, want) in enumerate(zip(sampled.players, truth.players, strict=True)):
        _close(got.equity, want.equity, got.equity_se, f"equity {p}")
        _close(got.win, want.win, got.win_se, f"win {p}")
        if got.high is not None:
            assert want.high is not None and want.low is not None and got.low is not None
            _close(got.high, want.high, got.high_se, f"high {p}")
            _close(got.low, want.low, got.low_se, f"low {p}")
    if truth.no_low is not None:
        assert sampled.no_low is not None and 0 < truth.no_low < 1
        _close(sampled.no_low, truth.no_low, sampled.no_low_se, "no low")


@pytest.mark.parametrize("path", _kernels())
def test_monte_carlo_with_eight_players(path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Eight players, two of them on fifth street: the shuffle deals their two cards, then the community card."""
    if path == "numpy":
        monkeypatch.setattr(mc, "_sample", None, raising=False)
    spot = _eight_on_sixth(random.Random(3), "razz", 2)
    truth = equity(spot, method="exact")
    sampled = equity(spot, method="montecarlo", trials=100_000, seed=2)
    for p, (got, want) in enumerate(zip(sampled.players, truth.players, strict=True)):
        if want.equity in (0.0, 1.0):
            assert got.equity == want.equity, p
        else:
            _close(got.equity, want.equity, got.equity_se, f"equity {p}")


def test_monte_carlo_with_a_dealt_community_card_uses_either_sampler() -> None:
    spot = Spot.parse(*MC_SPOTS[0], community="Tc")
    truth = equity(spot, method="exact")
    for sampler in ("completions", "shuffle"):
        tally = mc.sample(spot, 100_000, seed=4, sampler=sampler)  # type: ignore[arg-type]
        result = EquityResult.from_tally(spot, "montecarlo", tally, 0, 4)
        for got, want in zip(result.players, truth.players, strict=True):
            _close(got.equity, want.equity, got.equity_se, sampler)


def test_the_completions_sampler_cannot_deal_a_community_card() -> None:
    spot = Spot.parse("7stud", SIXTH, community=True)
    with pytest.raises(EquityError, match="the completions sampler cannot deal a community card"):
        mc.sample(spot, 1000, seed=1, sampler="completions")
    assert mc.sample(spot, 1000, seed=1, sampler="shuffle").outcomes == 1000


@pytest.mark.parametrize("path", _kernels())
def test_the_eight_handed_third_street_spot(path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if path == "numpy":
        monkeypatch.setattr(mc, "_sample", None, raising=False)
    result = equity(EIGHT, trials=20_000, seed=1)
    assert result.method == "montecarlo" and result.outcomes == 20_000
    assert result.spot.community_to_come
    assert sum(p.equity for p in result.players) == pytest.approx(1)
    hero, *others = result.players
    assert all(hero.equity > p.equity for p in others)  # aces against single up cards
    assert all(0.05 < p.equity < 0.2 for p in others)
    document = result.as_dict()
    assert document["community"] == "to come"
    assert equity(EIGHT, trials=20_000, seed=1).as_dict()["players"] == document["players"]  # seeded


def test_as_dict_names_the_community_card() -> None:
    assert "community" not in equity(SIXTH).as_dict()
    assert equity(SIXTH, community=True).as_dict()["community"] == "to come"
    assert equity(SIXTH, community="tc").as_dict()["community"] == "Tc"


# --- the engine: does it deal a community card when Spot(auto) says so? -----------------------------------------


def _rules(variant: Variant, procedure: ShortDeckProcedure) -> Rules:
    return Rules.from_preset(
        "casino", variant, ante=1, bring_in=3, small_bet=10, big_bet=20, short_deck_procedure=procedure
    )


def _play(state: HandState, folds: dict[int, int], spots: list[Spot], hero: int) -> None:
    """Check, call or bring in to the end (``folds``: player -> the street he folds on). At the start of every street
    before the last, the spot as the hero sees it: his own cards, the others' up cards, the folded up cards dead."""
    variant, looked = state.rules.variant, set()
    while not state.is_over:
        if state.street < state.last_street and state.street not in looked:
            looked.add(state.street)
            live = [p for p in range(state.n) if not state.folded(p)]
            hands = [(*state.down_cards(p), *state.up_cards(p)) if p == hero else state.up_cards(p) for p in live]
            dead = [c for p in range(state.n) if state.folded(p) for c in state.up_cards(p)]
            spots.append(Spot.parse(variant, hands, dead))  # type: ignore[arg-type]
        legal = {a.kind: a for a in state.legal_actions()}
        p = state.actor
        if p is not None and folds.get(p) == state.street and ActionKind.FOLD in legal:
            state.apply(legal[ActionKind.FOLD])
        else:
            state.apply(legal.get(ActionKind.BRING_IN) or legal.get(ActionKind.CHECK) or legal[ActionKind.CALL])


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("players", [7, 8])
@pytest.mark.parametrize("procedure", list(ShortDeckProcedure))
@pytest.mark.parametrize("variant", [Variant.STUD7, Variant.STUD7_HL8, Variant.RAZZ])
def test_the_engine_deals_a_community_card_exactly_when_auto_says_so(
    variant: Variant, procedure: ShortDeckProcedure, players: int, seed: int
) -> None:
    stacks = [501] * players
    stacks[seed % players] = 25  # one player all in early: still in the hand
    state = HandState(_rules(variant, procedure), stacks, seed=1000 * players + seed)
    spots: list[Spot] = []
    _play(state, {}, spots, hero=seed % players)
    dealt = [e for e in state.events if isinstance(e, CommunityCard)]
    assert len(spots) == 4  # streets 3 to 6, everyone still in
    assert all(s.n == players for s in spots)
    assert [s.community_to_come for s in spots] == [players == 8] * 4
    assert len(dealt) == (players == 8)
    # the whole hand as a spot: every card known, and the engine's community card (if any) as dealt
    card = state.community_card
    hands = [(*state.down_cards(p), *state.up_cards(p)) for p in range(players)]
    final = Spot.parse(variant, hands, community=card if card is not None else False)  # type: ignore[arg-type]
    assert final.outcomes == 1 and all(len(hand) == (6 if card else 7) for hand in final.hands)


@pytest.mark.parametrize("procedure", list(ShortDeckProcedure))
def test_five_card_stud_ten_players_never(procedure: ShortDeckProcedure) -> None:
    for seed in range(3):
        state = HandState(_rules(Variant.STUD5, procedure), [501] * 10, seed=seed)
        spots: list[Spot] = []
        _play(state, {}, spots, hero=0)
        assert len(spots) == 3 and not any(s.community_to_come for s in spots)
        assert not any(isinstance(e, CommunityCard) for e in state.events)


def _weight(folds: dict[int, int], state: HandState) -> int:
    """The docs' rule for eight dealt in: 4 per player who folded on 3rd street, 3 on 4th, 2 on 5th, 1 on 6th."""
    return sum(7 - street for p, street in folds.items() if state.folded(p) and street < 7)


@pytest.mark.parametrize("procedure", list(ShortDeckProcedure))
def test_folded_players_the_case_auto_cannot_see(procedure: ShortDeckProcedure) -> None:
    """Eight dealt in and some fold: the folded down cards are unseen but no longer in the deck. Auto never
    calls for a community card the engine does not deal, but the engine may deal one auto does not see; the
    docs' rule (TDA: weight below 6, RRoP: below 4) says when."""
    rng = random.Random(7)
    missed = 0
    for seed in range(120):
        folds = {p: rng.choice((3, 4, 5, 6)) for p in rng.sample(range(8), rng.choice((1, 1, 2, 3)))}
        state = HandState(_rules(Variant.STUD7, procedure), [501] * 8, seed=seed)
        spots: list[Spot] = []
        hero = next(p for p in range(8) if p not in folds)
        _play(state, folds, spots, hero)
        if state.street < 7:
            continue
        dealt = any(isinstance(e, CommunityCard) for e in state.events)
        assert dealt == (_weight(folds, state) < (6 if procedure is ShortDeckProcedure.TDA else 4)), folds
        last = spots[-1]
        assert not last.community_to_come or dealt  # auto's yes is always right
        if dealt and not last.community_to_come:
            missed += 1
            forced = Spot(last.variant, last.hands, last.dead, True)  # what the caller passes then
            assert forced.community_to_come
    assert missed > 0


def test_tc27_one_fold_on_third_street() -> None:
    """SPEC TC-27: eight start, one folds on 3rd street. TDA turns a community card, RRoP does not; auto (seeing
    only the folded door card) says no, so with TDA the caller passes community=True."""
    for procedure, expected in ((ShortDeckProcedure.TDA, True), (ShortDeckProcedure.RRoP, False)):
        state = HandState(_rules(Variant.STUD7, procedure), [501] * 8, seed=27)
        folder = (state.actor + 1) % 8 if state.actor is not None else 1
        spots: list[Spot] = []
        _play(state, {folder: 3}, spots, hero=(folder + 1) % 8)
        assert any(isinstance(e, CommunityCard) for e in state.events) is expected
        assert spots[-1].n == 7 and not spots[-1].community_to_come


# --- stud equity --community --------------------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    return stud(capsys, "equity", *args)


def test_cli_eight_hands(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *EIGHT, "--trials", "20000", "--seed", "1")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert re.fullmatch(
        r"Seven-card stud, community card to come; Monte Carlo: 20,000 trials, seed 1, in [\d.]+ s;"
        r" ± is one standard error",
        lines[0],
    ), lines[0]
    assert len(lines) == 10 and lines[2].split()[:3] == ["As", "Ad", "7c"]
    code, out, _ = run(capsys, *EIGHT, "--trials", "20000", "--seed", "1", "--json")
    assert code == 0 and json.loads(out)["community"] == "to come"


def test_cli_community_values(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *SIXTH, "--community", "yes")
    assert code == 0
    assert re.fullmatch(r"Seven-card stud, community card to come; exact: 40 outcomes in [\d.]+ s", out.splitlines()[0])
    assert out.splitlines()[2].split()[-1] == "87.50"
    code, out, _ = run(capsys, *SIXTH, "--community", "no", "--dead", "3c")
    assert code == 0 and out.splitlines()[0].startswith("Seven-card stud, dead 3c; exact: 1,482 outcomes")
    code, out, _ = run(capsys, *SIXTH, "--community", "Kc")
    assert code == 0 and out.splitlines()[0].startswith("Seven-card stud, community card Kc; exact: 1 outcomes")
    assert out.splitlines()[3].split()[-1] == "100.00"  # trip kings
    code, out, _ = run(capsys, *SIXTH, "--community", "AUTO")
    assert code == 0 and "community" not in out and "1,560 outcomes" in out
    code, out, _ = run(capsys, *SIXTH, "--community", "kc", "--json")
    assert code == 0 and json.loads(out)["community"] == "Kc"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--community", "maybe"], "--community takes auto, yes, no or one card such as Kd, got 'maybe'"),
        (["--community", "Kd Qd"], "--community takes auto, yes, no or one card such as Kd, got 'Kd Qd'"),
        (["--community", "As"], "As is in hand 1 and is the community card: a card can be in one place only"),
        (["--community", "yes", "--variant", "5stud"], "hand 1 has 6 cards: a five-card stud hand has 5"),
    ],
)
def test_cli_bad_community(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    code, out, err = run(capsys, *SIXTH, *args)
    assert code == 2 and out == ""
    assert err.startswith("stud equity: error: ") and message in err, err
    assert err.count("\n") == 1


def test_cli_full_hand_with_a_community_card(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "As Ad 7c 7h 2s Kd 3c", "Kh", "--community", "yes")
    assert code == 2
    assert "hand 1 has 7 cards: with a community card a seven-card stud hand has 6 of its own" in err


def test_cli_help_documents_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    assert "--community auto|yes|no|CARD" in out
    text = " ".join(out.split())
    assert "auto (the default)" in text and "8 players" in text
