"""Every room at once: each file of ``../shared/data/sites/`` is listed by its room's tests with what it must
give; detection, ``--from`` forcing; and damaged copies of every file give only our errors, never a hand
accepted with an amount the damage changed."""

from __future__ import annotations

import importlib
import random
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studpoker.history import Bet, ReplayError, sites
from studpoker.history.files import SOURCES, HistoryFileError, format_of, read_each
from studpoker.history.sites.base import Stated

from ...conftest import DATA
from .helpers import Expected, outcome


def _expected() -> dict[str, Expected]:
    table: dict[str, Expected] = {}
    for room in sites.ROOMS:
        module = importlib.import_module(f"{__package__}.test_{room}")
        for name, expected in module.EXPECTED.items():
            assert name not in table, f"{name} is listed twice"
            assert expected.room == room, (name, expected.room)
            table[name] = expected
    return table


EXPECTED = _expected()
FILES = sorted(EXPECTED)


def test_every_file_of_the_data_is_listed(shared_data: Path) -> None:
    folder = shared_data / "sites"
    found = {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and p.name != "README.md"}
    assert found == set(EXPECTED)


def test_the_counts_add_up() -> None:
    """The whole data in one line: how many hands replay with every amount matching, are skipped, are refused."""
    replayed = sum(e.replayed for e in EXPECTED.values())
    skipped = sum(sum(e.skipped.values()) for e in EXPECTED.values())
    refused = sum(len(e.refused) for e in EXPECTED.values())
    assert replayed > 10 * (skipped + refused)
    assert {e.room for e in EXPECTED.values()} == set(sites.ROOMS)


@pytest.mark.parametrize("name", FILES)
def test_detected_and_read_through_files(shared_data: Path, name: str) -> None:
    """``files.read_each`` (what ``stud replay`` uses) finds the room without being told, and forcing the room
    gives the same hands."""
    path = shared_data / "sites" / name
    expected = EXPECTED[name]
    assert format_of(path) == expected.room
    hands = read_each(path)
    forced = read_each(path, expected.room)
    assert [(h.number, h.line, h.skipped) for h in hands] == [(h.number, h.line, h.skipped) for h in forced]
    assert sum(1 for h in hands if h.skipped) == sum(expected.skipped.values())


@pytest.mark.parametrize("room", [r for r in sites.ROOMS if r != "pokerstars"])
def test_the_wrong_room_forced_is_refused_clearly(shared_data: Path, room: str) -> None:
    """Every file read as another room's: per-hand errors or a file error, never a crash or a wrong hand."""
    for name in FILES:
        if EXPECTED[name].room == room:
            continue
        path = shared_data / "sites" / name
        try:
            hands = read_each(path, room)
        except HistoryFileError:
            continue
        for hand in hands:
            if hand.record is not None:
                with pytest.raises((sites.SiteError, ReplayError)):
                    sites.verify(hand.record)


def test_unknown_text_says_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "hands.txt"
    path.write_text("Some other room's export\nSeat 1: Ann\n")
    with pytest.raises(HistoryFileError, match="say it with --from"):
        format_of(path)
    assert "ipoker" in SOURCES and "phh" in SOURCES


@pytest.mark.parametrize(
    ("data", "text"),
    [
        (b"\xef\xbb\xbfStage #1", "Stage #1"),
        ("Stage #1\r\n".encode("utf-16"), "Stage #1\n"),
        ("Stage #1".encode("utf-16-le"), "Stage #1"),
        ("Stage #1".encode("utf-16-be"), "Stage #1"),
        ("Seat 1 - Jörg\r\n".encode("cp1252"), "Seat 1 - Jörg\n"),
        ("Seat 1 - Jörg €".encode(), "Seat 1 - Jörg €"),
    ],
)
def test_encodings_are_detected(data: bytes, text: str) -> None:
    assert sites.decode(data) == text


# -- damaged copies -------------------------------------------------------------------------------------------


def _load(name: str) -> bytes:
    return (DATA / "sites" / name).read_bytes()


#: Each original hand's players and seats, by hand id: a damaged copy's players are matched to them by name, else
#: by seat (a digit changed in a name or a seat number moves no chip).
_REFERENCE: dict[tuple[str, Any], tuple[tuple[str, ...], tuple[int, ...]]] = {}


def _outcome(text: str, room: str, reference: str = "") -> list[tuple[Any, ...]]:
    """Per hand: ("ok", its amounts) for a hand that replays and checks, else ("refused",) — only our errors."""
    out: list[tuple[Any, ...]] = []
    try:
        _, hands = sites.loads_each(text, room)
    except sites.SiteError:
        return [("refused",)]
    for hand in hands:
        if hand.record is None:
            out.append(("refused",))
            continue
        try:
            sites.verify(hand.record)
        except (sites.SiteError, ReplayError):
            out.append(("refused",))
        else:
            record = hand.record
            hand_id = record.info.get("hand")
            if not reference:
                _REFERENCE[room, hand_id] = (record.players, record.seats)
            out.append(("ok", hand_id, _amounts(record, _REFERENCE.get((room, hand_id)))))
    return out


def _amounts(record: Any, reference: tuple[tuple[str, ...], tuple[int, ...]] | None) -> tuple[Any, ...]:
    """Every amount read from a hand's text, by player, but its seat stacks (a changed stack is seen only where the
    room states the final stacks, or where it makes a bet impossible)."""

    def who(player: int) -> str:
        own = str(record.name(player))
        if reference is None or own in reference[0]:
            return own
        seat = record.seats[player] if player < len(record.seats) else None
        return reference[0][reference[1].index(seat)] if seat in reference[1] else own

    stated = record.info.get("stated")
    bets = tuple((who(a.player), a.amount) for a in record.actions if isinstance(a, Bet))
    if isinstance(stated, Stated):  # by player name: a changed seat number that reorders the players is no change
        named = tuple(
            sorted((who(a.player) if a.player is not None else "", a.amount, a.pot) for a in amounts)
            for amounts in (
                stated.antes,
                stated.returned,
                stated.collected,
                stated.won,
                stated.invested,
                stated.net,
                stated.stacks,
                stated.pots,
            )
        )
        said = tuple((a.kind, a.added, a.to, a.all_in) for a in stated.actions)
        total = (stated.total_pot and stated.total_pot.amount, stated.rake and stated.rake.amount)
        return (bets, named, said, total)
    data = record.info.get("pokerstars", {})
    name = who
    per_player = tuple(
        sorted((name(p), repr(x)) for p, x in enumerate(data.get(key, []))) for key in ("antes", "summary")
    )
    moves = tuple(
        sorted((name(int(e[0])), repr(e[1:])) for e in data.get(key, [])) for key in ("returned", "collections")
    )
    winnings = sorted((who(p), w) for p, w in enumerate(record.winnings or ()))
    same = repr([data.get(key) for key in ("wagers", "total_pot", "rake", "pots")])
    return (bets, per_player, moves, winnings, same, record.rake)


_ORIGINAL: dict[str, list[tuple[Any, ...]]] = {}


def _original(name: str) -> list[tuple[Any, ...]]:
    if name not in _ORIGINAL:
        _ORIGINAL[name] = _outcome(sites.decode(_load(name)), EXPECTED[name].room)
    return _ORIGINAL[name]


#: The fuzzed files: all but the 290 KB iPoker tournament (its hands are fuzzed through a 12-hand cut).
SMALL = [n for n in FILES if n != "iPoker/tour/7-StudHi-USD-STT-5-201103.txt"]
_DIGIT = re.compile(r"\d")


_FIXTURE = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]  # shared_data: the same folder every example


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=_FIXTURE)
@given(name=st.sampled_from(SMALL), where=st.integers(0, 10**6), bump=st.integers(1, 9))
def test_a_changed_digit_is_never_a_good_hand_with_other_amounts(
    shared_data: Path, name: str, where: int, bump: int
) -> None:
    """Change one digit anywhere in a file: every hand still reads or is refused with our errors, and a hand
    accepted as good has exactly the amounts of the original (the digit was a seat, a time, a name...)."""
    text = sites.decode(_load(name))
    digits = [m.start() for m in _DIGIT.finditer(text)]
    at = digits[where % len(digits)]
    changed = text[:at] + str((int(text[at]) + bump) % 10) + text[at + 1 :]
    before = {h[1]: h[2] for h in _original(name) if h[0] == "ok"}
    for hand in _outcome(changed, EXPECTED[name].room, reference=name):
        if hand[0] == "ok" and hand[1] in before:
            assert hand[2] == before[hand[1]], f"{name}: a changed digit at {at} was accepted as another good hand"


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=_FIXTURE)
@given(
    name=st.sampled_from(SMALL),
    seed=st.integers(0, 2**32),
    damage=st.sampled_from(["drop", "repeat", "cut", "swap", "bytes"]),
)
def test_damaged_files_give_only_our_errors(shared_data: Path, name: str, seed: int, damage: str) -> None:
    """Lines dropped, repeated, cut short or swapped, bytes broken: only SiteError / ReplayError, per hand."""
    rng = random.Random(seed)
    data = _load(name)
    if damage == "bytes":
        broken = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            broken[rng.randrange(len(broken))] = rng.randrange(256)
        text = sites.decode(bytes(broken))
    else:
        lines = sites.decode(data).split("\n")
        k = rng.randrange(len(lines))
        if damage == "drop":
            del lines[k]
        elif damage == "repeat":
            lines.insert(k, lines[k])
        elif damage == "cut":
            lines[k] = lines[k][: rng.randrange(len(lines[k]) + 1)]
        else:
            j = rng.randrange(len(lines))
            lines[k], lines[j] = lines[j], lines[k]
        text = "\n".join(lines)
    _outcome(text, EXPECTED[name].room)  # raises anything but our errors


@pytest.mark.slow
def test_a_cut_of_the_big_tournament_is_fuzzed_too(shared_data: Path) -> None:
    """The iPoker tournament file, damaged line by line at random places (a seeded sample)."""
    name = "iPoker/tour/7-StudHi-USD-STT-5-201103.txt"
    lines = sites.decode(_load(name)).split("\n")
    rng = random.Random(15)
    for _ in range(20):
        damaged = list(lines)
        k = rng.randrange(len(damaged))
        damaged[k] = damaged[k][: rng.randrange(len(damaged[k]) + 1)]
        _outcome("\n".join(damaged), "ipoker")


@pytest.mark.parametrize("name", FILES)
def test_every_room_converts_to_phh_and_back(shared_data: Path, name: str) -> None:
    """Each hand that replays is written as PHH and read back: the same text again, the same players, seats and
    rules, and the same money at the end when replayed (PHH scales amounts by the smallest power of ten that
    makes them whole: a $3/$6 game with $0.50 antes comes back in dimes)."""
    from studpoker.history import phh, replay

    for record in outcome(shared_data / "sites" / name).records:
        text = phh.dumps(record)
        back = phh.loads_hand(text)
        assert phh.dumps(back) == text
        assert (back.players, back.seats, back.rules.variant, back.currency) == (
            record.players,
            record.seats,
            record.rules.variant,
            record.currency,
        )
        scale = Fraction(str(record.chip_value)) / Fraction(str(back.chip_value))  # 1/10: cents came back as dimes

        def scaled(chips: int, scale: Fraction = scale) -> int:
            assert (chips * scale).denominator == 1
            return int(chips * scale)

        r, b = record.rules, back.rules
        assert (b.ante, b.bring_in, b.small_bet, b.big_bet) == tuple(
            scaled(x) for x in (r.ante, r.bring_in, r.small_bet, r.big_bet)
        )
        options = (
            "raise_cap",
            "headsup_uncap",
            "open_pair_double_bet",
            "later_street_tiebreak",
            "odd_chip_rule",
            "allow_fold_when_check_available",
            "ante_side_pots",
            "preset",
        )
        assert [getattr(b, o) for o in options] == [getattr(r, o) for o in options]
        assert back.rake == scaled(record.rake)
        assert back.winnings == (None if record.winnings is None else tuple(scaled(w) for w in record.winnings))
        assert replay(back).state.stacks == tuple(scaled(s) for s in replay(record).state.stacks)


#: What PokerStars text cannot carry: play money in hundredths without a currency (PokerStars writes chips whole).
NOT_POKERSTARS_TEXT = {"8835086-564-1465760198": "is not a whole number of chips"}


@pytest.mark.parametrize("name", FILES)
def test_every_room_writes_as_pokerstars_text(shared_data: Path, name: str) -> None:
    """Each hand that replays is written as PokerStars text and read back: under the room's rules (PokerStars text
    cannot say them) it replays to the same stacks."""
    from studpoker.history import pokerstars, replay

    for record in outcome(shared_data / "sites" / name).records:
        text = pokerstars.dumps(record)
        hand = str(record.info.get("hand"))
        if hand in NOT_POKERSTARS_TEXT:
            with pytest.raises(pokerstars.PokerStarsError, match=NOT_POKERSTARS_TEXT[hand]):
                pokerstars.loads(text)
            continue
        [back] = pokerstars.loads(text)
        assert back.players == record.players
        assert replay(back.with_rules(record.rules)).state.stacks == replay(record).state.stacks


@pytest.mark.parametrize("name", FILES)
def test_every_file_reads_the_same_in_every_encoding(shared_data: Path, name: str) -> None:
    """Each file written again as UTF-8, UTF-8 with a byte-order mark, UTF-16 (with one, both byte orders, and
    without), and Windows-1252 where its characters allow, with LF or CRLF line ends: detected, and the same hands
    with the same amounts."""
    text = sites.decode(_load(name))
    room = EXPECTED[name].room
    expected = _outcome(text, room)
    encodings = ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be"]
    try:
        text.encode("cp1252")
        encodings.append("cp1252")
    except UnicodeEncodeError:
        pass
    for encoding in encodings:
        for ending in ("\n", "\r\n"):
            data = text.replace("\n", ending).encode(encoding)
            again = sites.decode(data)
            assert again == text, (encoding, ending)
            assert sites.detect(again) == room
    assert _outcome(text, room) == expected
