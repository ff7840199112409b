"""PokerStars text: the real files (read, replayed, checked, written back line for line), the rules and the rake
they show, round trips of engine hands, and malformed input."""

from __future__ import annotations

import contextlib
import dataclasses
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studpoker.cards import parse_card
from studpoker.engine import HandState, Rules, Variant
from studpoker.history import Bet, Board, Comment, Deal, HandRecord, ReplayError, ShowMuck, phh, pokerstars, replay
from studpoker.history.pokerstars import (
    POKERSTARS_OPTIONS,
    NotStudError,
    PokerStarsError,
    check,
    dumps,
    load,
    loads,
    verify,
    vocabulary,
)
from studpoker.history.record import record_hand

from .sites.helpers import said
from .test_stated import HAND


def without_stated(record: HandRecord) -> HandRecord:
    """``record`` without what its text states and on which lines (compared apart, with :func:`said`)."""
    info = {k: v for k, v in record.info.items() if k not in ("stated", "lines")}
    return dataclasses.replace(record, info=info)


FILES = {  # file name: hands
    "7-Stud-USD-0.04-0.08-200911.txt": 11,
    "HH20110417-Salm-IX-7-Stud-USD-0.04-0.08-sidepot.txt": 1,
    "7-StudHL-USD-0.04-0.08-200911.txt": 7,
    "7-StudHL-USD-400-800-201701.3bet.fix.txt": 1,
    "Razz-USD-0.04-0.08-200911.txt": 9,
}
SIDE_POT = "HH20110417-Salm-IX-7-Stud-USD-0.04-0.08-sidepot.txt"


@pytest.fixture
def pokerstars_data(shared_data: Path) -> Path:
    """The shared data folder, if it holds the PokerStars files (else the test is skipped)."""
    if not (shared_data / "pokerstars").is_dir():
        pytest.skip(f"the PokerStars hand histories are not in {shared_data / 'pokerstars'} (set STUDPOKER_DATA)")
    return shared_data


def texts(data: Path) -> dict[str, str]:
    """Each PokerStars file's text (without its byte-order mark)."""
    folder = data / "pokerstars"
    return {name: (folder / name).read_text(encoding="utf-8-sig") for name in FILES}


def all_hands(data: Path) -> dict[str, HandRecord]:
    """Every hand of the files by its PokerStars id."""
    return {r.info["pokerstars"]["hand_id"]: r for text in texts(data).values() for r in loads(text)}


def hand_texts(data: Path) -> list[str]:
    return [hand + "\n" for text in texts(data).values() for hand in text.rstrip("\n").split("\n\n\n\n")]


# -- the real files ------------------------------------------------------------------------------------------


def test_every_hand_of_every_file_parses_replays_and_matches_its_text(pokerstars_data: Path) -> None:
    count = 0
    for name, text in texts(pokerstars_data).items():
        records = load(pokerstars_data / "pokerstars" / name)
        assert len(records) == FILES[name], name
        assert records == loads(text)
        for record in records:
            result = replay(record, name)
            assert result.state.is_over and result.notes == [], record.info["hand"]
            assert check(record, result) == [], record.info["hand"]
            verify(record)
            count += 1
    assert count == 29


def test_every_file_is_written_back_line_for_line(pokerstars_data: Path) -> None:
    for name, text in texts(pokerstars_data).items():
        records = loads(text)
        written = dumps(records)
        assert written == text, name
        assert loads(written) == records


def test_what_a_record_holds(pokerstars_data: Path) -> None:
    hands = all_hands(pokerstars_data)
    first = hands["35874004239"]
    assert first.players == ("Hero", "Nikolay Zem", "totof51", "trs2758", "MasterTrini1")
    assert first.seats == (1, 3, 4, 5, 8)  # seat order is position order: the deal starts at seat 1
    assert first.starting_stacks == (160, 184, 134, 176, 249)
    assert (first.chip_value, first.currency) == (0.01, "USD")
    assert (first.rules.variant, first.rules.ante, first.rules.bring_in) == (Variant.STUD7, 1, 2)
    assert (first.rules.small_bet, first.rules.big_bet, first.rules.max_seats) == (4, 8, 8)
    assert first.actions[0] == Deal(0, tuple(map(parse_card, ["3d", "Th", "As"])))
    assert first.actions[1] == Deal(1, (None, None, parse_card("9s")))
    assert Comment("RoadDevil joins the table at seat #6") in first.actions
    data, stated = first.info["pokerstars"], first.info["stated"]
    assert (data["hero"], data["total_pot"], data["rake"], first.winnings) == (0, 67, 3, (0, 0, 0, 64, 0))
    assert [(a.player, a.amount) for a in stated.returned] == [(3, 8)]
    assert first.info["hand"] == 35874004239 and first.info["table"] == "Atalante II"
    assert (first.info["year"], first.info["month"], first.info["day"]) == (2009, 11, 26)

    # The 8-Game hand: a "PokerStars Hand #" header, stud hi/lo at $400/$800, completion as "raises X to Y".
    mixed = hands["164954571644"]
    assert mixed.rules.variant is Variant.STUD7_HL8
    assert (mixed.rules.ante, mixed.rules.bring_in, mixed.rules.small_bet, mixed.rules.big_bet) == (
        6000,
        12000,
        40000,
        80000,
    )
    assert mixed.starting_stacks == (5112564, 3676521) and mixed.rules.max_seats == 6
    bets = [a for a in mixed.actions if isinstance(a, Bet)]
    assert [(b.verb, b.amount) for b in bets[:3]] == [("pb", 0), ("cbr", 40000), ("cbr", 80000)]
    completion = mixed.info["stated"].actions[1]  # "raises 28,000 to 40,000": 28,000 over the 12,000 bring-in
    assert (completion.kind, completion.by, completion.to, completion.all_in) == ("raise", 28000, 40000, False)

    # The bring-in player completes at once ("bets $0.04"): the bring-in comes from the other hands.
    completes = hands["35874081088"]
    assert completes.rules.bring_in == 2 and completes.info["pokerstars"]["bring_in"] == "text"

    # A hand shown after winning without a showdown, and a hand mucked but listed in the summary.
    razz = hands["35874664176"]
    assert razz.actions[-1] == ShowMuck(3, tuple(map(parse_card, ["3d", "3s", "5h", "4h"])))
    side = hands["60974484959"]
    assert side.info["pokerstars"]["hero"] == 5  # steffen780, whose down cards the text shows
    tumim = side.players.index("Tumim")
    downs = [a.cards for a in side.actions if isinstance(a, Deal) and a.player == tumim]
    assert downs[0][:2] == (parse_card("5c"), parse_card("6c")) and downs[-1] == (parse_card("8d"),)


def test_the_side_pot_and_its_rake(pokerstars_data: Path) -> None:
    record = all_hands(pokerstars_data)["60974484959"]
    stated = record.info["stated"]
    assert [(a.pot, a.amount) for a in stated.pots] == [(0, 42), (1, 61)] and stated.rake.amount == 5
    ranchim = record.players.index("ranchim")
    assert [(a.player, a.amount, a.pot) for a in stated.collected] == [(ranchim, 61, 1), (ranchim, 42, 0)]
    text = texts(pokerstars_data)[SIDE_POT]
    # The rake taken from the main pot only would pay $0.39 + $0.64: the replay disagrees.
    other = text.replace("$0.61 from side pot", "$0.64 from side pot").replace(
        "$0.42 from main pot", "$0.39 from main pot"
    )
    other = other.replace("Main pot $0.42. Side pot $0.61.", "Main pot $0.39. Side pot $0.64.")
    [changed] = loads(other)
    problems = check(changed, replay(changed))
    assert any("what ranchim collects from side pot 1: the file says $0.64, the replay $0.61" in p for p in problems)


def test_split_pots_are_raked_before_they_are_split(pokerstars_data: Path) -> None:
    hands = all_hands(pokerstars_data)
    split = hands["35874576282"].info["stated"]  # $0.76 pot, $0.03 rake: $0.37 high, $0.36 low
    assert (split.total_pot.amount, split.rake.amount) == (76, 3)
    assert sorted(a.amount for a in split.collected) == [36, 37]
    assert check(hands["35874576282"], replay(hands["35874576282"])) == []


# -- the rules PokerStars plays ------------------------------------------------------------------------------


def problems_with(record: HandRecord, **options: object) -> list[str]:
    """What goes wrong when ``record`` is replayed with other option values."""
    changed = record.with_rules(record.rules.replace(**options))
    try:
        return check(changed, replay(changed))
    except ReplayError as error:
        return [f"{error} ({error.rule})"]


def test_pokerstars_options_are_the_only_ones_the_files_allow(pokerstars_data: Path) -> None:
    hands = all_hands(pokerstars_data)
    assert POKERSTARS_OPTIONS["raise_cap"] == 3 and POKERSTARS_OPTIONS["headsup_uncap"].value == "NEVER"
    # "Betting is capped" after three raises in two heads-up rounds.
    for hand in ("35874289931", "35874780027"):
        for options in ({"raise_cap": 4}, {"raise_cap": None}, {"headsup_uncap": "WHEN_HEADSUP_BEFORE_CAP"}):
            assert any("Betting is capped" in p for p in problems_with(hands[hand], **options)), (hand, options)
    assert any(
        "Betting is capped" in p for p in problems_with(hands["35874780027"], headsup_uncap="ROUND_BEGINS_HEADSUP")
    )
    # The open-pair double bet: taken in stud, not offered in stud hi/lo.
    for hand in ("35874334277", "60974484959"):
        assert "R6.2" in problems_with(hands[hand], open_pair_double_bet=False)[0]
    assert any("Pair on board" in p for p in problems_with(hands["35874789183"], open_pair_double_bet=True))
    # A fold when a check is available; board ties by position.
    assert "R6.8" in problems_with(hands["35874676388"], allow_fold_when_check_available=False)[0]
    assert "R6.7" in problems_with(hands["35874817957"], later_street_tiebreak="HIGH_CARD_BY_SUIT")[0]
    for record in hands.values():  # and the options as found pass everywhere
        assert problems_with(record) == []


# -- check: a text that says something else ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ("Hero: calls $0.02", "Hero: calls $0.03", "line 20: what Hero puts in: the file says $0.03, the replay $0.02"),
        ("trs2758 collected $0.64", "trs2758 collected $0.65", "not the total pot less the rake"),
        (
            "Uncalled bet ($0.08) returned to trs2758",
            "Uncalled bet ($0.07) returned to trs2758",
            "the uncalled bet returned to trs2758: the file says $0.07, the replay $0.08",
        ),
        ("Total pot $0.67 | Rake $0.03", "Total pot $0.68 | Rake $0.04", "the total pot"),
        ("Nikolay Zem folded on the 6th Street", "Nikolay Zem folded on the 5th Street", "folded on"),
        ("Hero: posts the ante $0.01", "Hero: posts the ante $0.01 and is all-in", "Hero's ante"),
        (
            "MasterTrini1: bets $0.04",
            "MasterTrini1: raises $0.04 to $0.04",
            "line 34: MasterTrini1's action: the file says raise, the replay a bet",
        ),
        ("Hero: checks", "Hero: checks\nBetting is capped", "line 31: 'Betting is capped' (after betting actions)"),
    ],
)
def test_check_names_what_the_text_says_otherwise(pokerstars_data: Path, old: str, new: str, problem: str) -> None:
    text = hand_texts(pokerstars_data)[0]
    assert old in text
    [record] = loads(text.replace(old, new, 1))
    assert any(problem in p for p in check(record, replay(record)))
    with pytest.raises(PokerStarsError, match="does not match its replay"):
        verify(record)


def test_records_without_pokerstars_data_have_nothing_to_check() -> None:
    state = HandState(Rules(Variant.RAZZ, 1, 2, 4, 8), [50, 50], seed=1)
    state.apply(state.legal_actions()[0])
    record = record_hand(state)
    assert check(record, replay(record)) == []


# -- malformed input -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        (lambda t: t[: t.index("*** SUMMARY ***")], PokerStarsError, "truncated"),
        (lambda t: t[: t.index("*** 4th STREET ***")], PokerStarsError, "truncated"),
        (lambda t: t[:200], PokerStarsError, "truncated|cannot be read|out of place"),
        (lambda t: "garbage\n" + t, PokerStarsError, "before any 'PokerStars Hand #' header"),
        (lambda t: t.replace("[3d Th As]", "[3d Th Zs]"), PokerStarsError, "'Zs' is not a card"),
        (lambda t: t.replace("Dealt to totof51 [Td]", "Dealt to totof51 [9s]"), PokerStarsError, "9s is dealt twice"),
        (lambda t: t.replace("Dealt to Hero [3d Th As]", "Dealt to Hero [3d 3d As]"), PokerStarsError, "same card"),
        (
            lambda t: t.replace("Hero: checks\nNikolay Zem: checks", "Nikolay Zem: checks\nHero: checks"),
            ReplayError,
            "out of turn",
        ),
        (lambda t: t.replace("MasterTrini1: bets $0.04", "MasterTrini1: bets $0.05"), ReplayError, "may not cbr 5"),
        (lambda t: t.replace("Hero: calls $0.02", "Hero: calls $0.02 now"), PokerStarsError, "cannot be read"),
        (lambda t: t.replace("Hero: calls $0.02", "Nobody: calls $0.02"), PokerStarsError, "looks like an action"),
        (lambda t: t.replace("7 Card Stud Limit", "Hold'em No Limit"), NotStudError, "Hold'em No Limit is not one"),
        (lambda t: t.replace("7 Card Stud Limit", "7 Card Stud Pot Limit"), PokerStarsError, "fixed-limit"),
        (lambda t: t.replace("*** 4th STREET ***", "*** 5th STREET ***"), PokerStarsError, "out of order"),
        (lambda t: t.replace("$0.01\nNikolay", "$0.011\nNikolay"), PokerStarsError, "whole number of chips"),
        (
            lambda t: t.replace("Seat 8: MasterTrini1 folded on the River", "Seat 8: MasterTrini1 danced"),
            PokerStarsError,
            "summary line",
        ),
    ],
)
def test_malformed_hands_raise_clear_errors(
    pokerstars_data: Path, change: Callable[[str], str], error: type[Exception], message: str
) -> None:
    text = hand_texts(pokerstars_data)[0]
    changed = change(text)
    assert changed != text
    with pytest.raises(error, match=message):
        for record in loads(changed):
            verify(record)


def test_files_that_are_not_there_or_not_text(tmp_path: Path) -> None:
    with pytest.raises(PokerStarsError, match="No such file"):
        load(tmp_path / "missing.txt")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xef\xbb\xbfgarbage \xff\xfe")  # a UTF-8 byte-order mark, then bytes that are not UTF-8
    with pytest.raises(PokerStarsError, match=r"line 1 \('garbage \ufffd\ufffd'\) comes before any"):
        load(binary)
    assert loads("") == [] and loads("\n\n") == []


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_random_text_never_crashes(text: str) -> None:
    for candidate in (text, "PokerStars Hand #1:  Razz Limit ($0.04/$0.08 USD) - 2009/11/26 10:24:42 ET\n" + text):
        with contextlib.suppress(PokerStarsError, ReplayError):
            for record in loads(candidate):
                verify(record)


MUTATION = st.tuples(
    st.integers(0, 5), st.integers(0, 10**6), st.integers(0, 10**6), st.text("$0123456789.: []()'sdhcAKT\n", max_size=3)
)


def mutate(text: str, mutations: list[tuple[int, int, int, str]]) -> str:
    """Delete, repeat, swap or edit lines, or change a number, as a damaged file might."""
    lines = text.split("\n")
    for op, a, b, insert in mutations:
        if not lines:
            break
        i, j = a % len(lines), b % len(lines)
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[j])
        elif op == 2:
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 3:
            k = b % (len(lines[i]) + 1)
            lines[i] = lines[i][:k] + insert + lines[i][k + 1 :]
        elif op == 4:
            number = re.search(r"\d+", lines[i])
            if number is not None:
                bumped = str(int(number.group()) + 1 + b % 3)
                lines[i] = lines[i][: number.start()] + bumped + lines[i][number.end() :]
        else:
            lines[i] = lines[i][: b % (len(lines[i]) + 1)]
    return "\n".join(lines)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_damaged_real_hands_raise_only_our_errors_and_what_passes_round_trips(
    pokerstars_data: Path, data: st.DataObject
) -> None:
    hands = hand_texts(pokerstars_data)
    text = mutate(data.draw(st.sampled_from(hands)), data.draw(st.lists(MUTATION, min_size=1, max_size=3)))
    try:
        records = loads(text)
        for record in records:
            verify(record)
    except (PokerStarsError, ReplayError):
        return
    back = loads(dumps(records))
    assert [without_stated(r) for r in back] == [without_stated(r) for r in records]
    assert [said(r) for r in back] == [said(r) for r in records]


# -- our own hands -------------------------------------------------------------------------------------------


def random_hand(seed: int, variant: Variant, players: int, rules: Rules) -> HandState:
    rnd = random.Random(seed)
    state = HandState(
        rules, [rnd.choice([3, 10, 30, 60, 200]) for _ in range(players)], seed=seed, auto_show=seed % 3 != 0
    )
    while not state.is_over:
        state.apply(rnd.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("house", ["pokerstars", "casino"])
def test_engine_hands_export_and_read_back(variant: Variant, house: str) -> None:
    for seed in range(40):
        players = 2 + seed % 7  # 2 to 8
        if house == "pokerstars":
            rules = pokerstars.pokerstars_rules(variant, 1, 2, 4, 8)
        else:
            rules = Rules(variant, ante=1, bring_in=2, small_bet=4, big_bet=8)
        state = random_hand(seed, variant, players, rules)
        cash = seed % 2 == 0
        record = record_hand(
            state,
            players=[f"Player {i}" for i in range(players)],
            currency="USD" if cash else None,
            chip_value=0.01 if cash else 1.0,
        )
        text = dumps(record)
        [back] = loads(text)
        assert back.actions == record.actions, seed
        assert (back.players, back.starting_stacks, back.chip_value) == (
            record.players,
            record.starting_stacks,
            record.chip_value,
        )
        assert back.seats == tuple(range(1, players + 1))
        if house == "pokerstars":
            assert back.rules == rules
        ours = back.with_rules(rules)  # PokerStars text does not carry our other options
        result = replay(ours)
        assert result.state.stacks == state.stacks, seed
        assert check(ours, result) == [], seed
        assert dumps(ours) == text, seed
        assert ("$" in text) == cash
        assert f"| Rake {'$' if cash else ''}0\n" in text


def call_down(rules: Rules, players: int, seed: int) -> HandState:
    """Everyone calls to the end (eight of them make the short deck turn a community card)."""
    state = HandState(rules, [500] * players, seed=seed)
    while not state.is_over:
        legal = {a.kind.value: a for a in state.legal_actions()}
        state.apply(legal.get("bring-in") or legal.get("check") or legal["call"])
    return state


def test_the_community_card_is_written_as_pokerstars_writes_it() -> None:
    state = call_down(pokerstars.pokerstars_rules(Variant.STUD7, 1, 2, 4, 8), 8, seed=4)
    assert state.community_card is not None
    record = record_hand(state, players=[f"p{i}" for i in range(8)], currency="USD", chip_value=0.01)
    text = dumps(record)
    assert f"*** RIVER *** [{state.community_card}]\n" in text and f"\nBoard [{state.community_card}]\n" in text
    [back] = loads(text)
    assert Board(state.community_card) in back.actions and back.actions == record.actions
    assert replay(back).state.stacks == state.stacks and check(back, replay(back)) == []


def test_five_card_stud_streets() -> None:
    state = call_down(pokerstars.pokerstars_rules(Variant.STUD5, 1, 2, 4, 8), 4, seed=2)
    text = dumps(record_hand(state, players=["Ann", "Bob", "Cy", "Di"]))
    assert text.splitlines()[0].startswith("PokerStars Hand #1:  5 Card Stud Limit (4/8) - ")
    headers = [line for line in text.splitlines() if line.startswith("*** ")]
    assert headers == [
        "*** 2nd STREET ***",
        "*** 3rd STREET ***",
        "*** 4th STREET ***",
        "*** RIVER ***",
        "*** SHOW DOWN ***",
        "*** SUMMARY ***",
    ]
    assert "Dealt to Ann [" in text and "Ann: posts the ante 1" in text
    [back] = loads(text)
    assert back.rules.variant is Variant.STUD5 and replay(back).state.stacks == state.stacks


def test_a_tournament_header_is_read_in_chips() -> None:
    text = dumps(
        record_hand(
            call_down(pokerstars.pokerstars_rules(Variant.RAZZ, 10, 15, 50, 100), 3, 5), players=["A", "B", "C"]
        )
    )
    _, rest = text.split("\n", 1)
    tournament = (
        "PokerStars Hand #9: Tournament #77, $10+$1 USD Razz Limit - Level IV (50/100) - 2010/09/09 18:27:23 ET"
    )
    [record] = loads(tournament + "\n" + rest)
    assert (record.chip_value, record.currency, record.rules.small_bet, record.rules.bring_in) == (1.0, None, 50, 15)
    assert verify(record).state.is_over and dumps(record).startswith(tournament + "\n")


@pytest.mark.filterwarnings("ignore::studpoker.engine.RulesWarning")  # with_preset makes the hi/lo sign anew
def test_wsop_phh_hands_convert_to_pokerstars_and_back(shared_data: Path) -> None:
    folder = shared_data / "phh" / "wsop-2023-43-5"
    if not folder.is_dir():
        pytest.skip(f"the WSOP PHH hands are not in {folder} (set STUDPOKER_DATA)")
    for path in sorted(folder.glob("*.phh")):
        record = phh.loads_hand(path.read_text())
        record = record.with_rules(record.rules.with_preset("tournament"))
        [back] = loads(dumps(record))
        if path.name == "85_FR.phh":  # shows made at the all-in are written in the showdown

            def later(actions: tuple[object, ...]) -> list[object]:
                return [a for a in actions if not isinstance(a, ShowMuck)] + [
                    a for a in actions if isinstance(a, ShowMuck)
                ]

            assert later(back.actions) == later(record.actions)
        else:
            assert back.actions == record.actions, path.name
        assert back.players == record.players
        result = replay(back.with_rules(record.rules))
        assert tuple(result.state.stacks) == record.finishing_stacks, path.name


def test_what_cannot_be_written() -> None:
    state = HandState(pokerstars.pokerstars_rules(Variant.STUD7, 1, 2, 4, 8), [50, 50, 50], seed=3)
    unfinished = record_hand(state)
    with pytest.raises(PokerStarsError, match="before the hand is over"):
        dumps(unfinished)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    with pytest.raises(PokerStarsError, match="must increase"):
        dumps(record_hand(state, seats=[5, 2, 7]))
    with pytest.raises(PokerStarsError, match="cannot be written"):
        dumps(record_hand(state, players=["Ann", "Bob: the second", "Cy"]))
    with pytest.raises(PokerStarsError, match="same name"):
        dumps(record_hand(state, players=["Ann", "Ann", "Cy"]))
    record = record_hand(state, players=["Ann", "Bob", "Cy"], seats=[2, 5, 7])
    text = dumps([record, record])
    assert text.count("PokerStars Hand #") == 2 and "\n\n\n\nPokerStars Hand #2:" in text
    assert [r.seats for r in loads(text)] == [(2, 5, 7), (2, 5, 7)]


def test_pokerstars_to_phh_and_back_keeps_every_action_and_amount(pokerstars_data: Path) -> None:
    for original in all_hands(pokerstars_data).values():
        through_phh = phh.loads_hand(phh.dumps(original))
        assert (through_phh.winnings, through_phh.rake) == (original.winnings, original.rake)
        [back] = loads(dumps(through_phh))
        assert back.actions == original.actions and back.starting_stacks == original.starting_stacks
        assert (back.players, back.seats, back.rules) == (original.players, original.seats, original.rules)
        assert (back.winnings, back.rake) == (original.winnings, original.rake)
        for key in ("total_pot", "rake"):
            assert back.info["pokerstars"][key] == original.info["pokerstars"][key], key
        assert said(back) == said(original)


# -- hostile lines -------------------------------------------------------------------------------------------------

#: What PokerStars chat lines matched before: a regular expression that is quadratic on a hostile line.
CHAT_AS_WRITTEN = re.compile(r'^.+ said, ".*"$')


@given(st.lists(st.sampled_from(["x", " ", '"', " said, ", ' said, "', "a b", ":"]), max_size=12).map("".join))
def test_a_chat_line_is_what_the_regular_expression_said(line: str) -> None:
    assert vocabulary._is_chat(line) == (CHAT_AS_WRITTEN.match(line) is not None)


def test_a_long_line_of_said_is_read_in_linear_time() -> None:
    """A 512 KB line of `` said, "`` without a closing quote: a comment, read at once (the regular expression it
    replaces took seconds on a tenth of it: quadratic)."""
    text = HAND.replace("*** 4th STREET ***", "x" + ' said, "' * 65_536 + "y\n*** 4th STREET ***")
    (record,) = pokerstars.loads(text)
    assert any(isinstance(a, Comment) and a.text.startswith('x said, "') for a in record.actions)
