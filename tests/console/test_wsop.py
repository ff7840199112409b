"""The 30 WSOP hands re-dealt through the dealer's console, card by card and action by action, as a dealer enters
them: the console's own ``needed()`` says which seat gets each card and who acts; each hand must end on its PHH's
finishing stacks with the same actions, and its PHH record must replay and verify."""

from __future__ import annotations

import subprocess
import sys
import warnings
from collections import deque
from pathlib import Path

import pytest

from studpoker.console import DealerSession, Sign
from studpoker.engine import RulesWarning, Variant
from studpoker.history import Bet, Board, Deal, HandRecord, ShowMuck, files, phh, verify

WSOP = Path("phh") / "wsop-2023-43-5"


def wsop_records(data: Path) -> list[tuple[str, HandRecord]]:
    """The 30 hands, read with ``files.iter_each`` as the history tests read them."""
    paths = sorted((data / WSOP).glob("*.phh"))
    assert len(paths) == 30
    out = []
    for path in paths:
        (hand,) = list(files.iter_each(path))
        assert isinstance(hand.record, HandRecord), hand
        out.append((path.name, hand.record))
    return out


def tournament_sign(record: HandRecord) -> Sign:
    """The sign of a tournament hand (SPEC 12b's ``tournament`` preset); stacks there are whatever the tournament
    left, so any buy-in is accepted."""
    with warnings.catch_warnings():  # a room's sign (the WSOP's stud hi/lo bring-in) is not the dealer's choice
        warnings.simplefilter("ignore", RulesWarning)
        rules = record.rules.with_preset("tournament").replace(min_buy_in=1)
    return Sign.from_rules(rules)


def option_for(bet: Bet, options: tuple[str, ...], session: DealerSession) -> str:
    """What the dealer enters for a history's betting action, in the words of the console's options."""
    if bet.verb == "pb":
        return "bring in"
    if bet.verb == "f":
        return "fold"
    if bet.verb == "cc":
        return "check" if "check" in options else "call"
    aggressive = [o for o in options if o.split()[0] in ("complete", "bet", "raise")]
    exact = [o for o in aggressive if o.endswith(f" {bet.amount}")]
    if exact:
        return exact[0]
    # 85_FR.phh: a raise to exactly the opponent's stack, less than a full raise (data README): the dealer makes
    # it the smallest legal raise, which changes no chip outcome.
    return aggressive[0]


def stand_in_cards(record: HandRecord) -> deque[str]:
    """Cards for the door cards the annotator did not record (five hands, all players who fold on the first
    street): the dealer saw them. Each is a card not in the hand that cannot bring in (an ace, a king in stud, a
    deuce in razz)."""
    used = {str(c) for a in record.actions if isinstance(a, Deal) for c in a.cards if c is not None}
    used |= {str(c) for a in record.actions if isinstance(a, ShowMuck) and a.cards for c in a.cards if c is not None}
    ranks = "A2" if record.rules.variant is Variant.RAZZ else "AK"
    candidates = [rank + suit for rank in ranks for suit in "shdc"]
    return deque(c for c in candidates if c not in used)


def redeal(name: str, record: HandRecord) -> DealerSession:
    session = DealerSession(tournament_sign(record))
    names = [record.name(p) for p in range(record.n)]
    for p, stack in enumerate(record.starting_stacks):
        session.buy_in(p + 1, names[p], stack)
    session.start_hand()
    cards: dict[int, deque[str]] = {p: deque() for p in range(record.n)}
    board: deque[str] = deque()
    bets: deque[Bet] = deque()
    shown: dict[int, list[str]] = {}
    for action in record.actions:
        if isinstance(action, Deal):
            cards[action.player].extend("??" if c is None else str(c) for c in action.cards)
        elif isinstance(action, Board):
            board.append(str(action.card))
        elif isinstance(action, Bet):
            bets.append(action)
        elif isinstance(action, ShowMuck) and action.cards is not None:
            shown[action.player] = ["??" if c is None else str(c) for c in action.cards]
    stand_ins = stand_in_cards(record)
    # PHH writes the first street's three cards as down, down, door; the dealer deals them round the table in
    # that order, and the console asks for them one by one.
    while True:
        wanted = session.needed()
        if wanted.kind == "card":
            if wanted.seat is None:
                session.deal(board.popleft())
            else:
                card = cards[wanted.seat - 1].popleft()
                session.deal(stand_ins.popleft() if card == "??" and wanted.face_up else card)
        elif wanted.kind == "action":
            bet = bets.popleft()
            assert bet.player == wanted.seat - 1 if wanted.seat else False, (name, bet, wanted)
            session.act(option_for(bet, wanted.options, session))
        elif wanted.kind == "reveal":
            for seat in wanted.seats:
                session.reveal(seat, shown[seat - 1])
        else:
            break
    assert not bets and not board and all(not c for c in cards.values()), name
    return session


@pytest.mark.filterwarnings("ignore::studpoker.engine.RulesWarning")
def test_the_30_wsop_hands_redealt_through_the_console(shared_data: Path) -> None:
    for name, record in wsop_records(shared_data):
        session = redeal(name, record)
        assert session.needed().kind in ("start", "seats"), name  # "seats": a player was knocked out
        stacks = tuple(stack for _, stack in session.seats.values())
        assert stacks == record.finishing_stacks, name
        assert session.report().balanced, name
        # the console's record of the hand: the same betting, and it replays and verifies
        text = session.hand_phh(1)
        again = phh.loads_hand(text)  # its rules with it: the tournament preset, any buy-in
        assert again.rules == tournament_sign(record).rules(), name
        verify(again)
        ours = [(a.player, a.verb, a.amount) for a in again.actions if isinstance(a, Bet)]
        theirs = [(a.player, a.verb, a.amount) for a in record.actions if isinstance(a, Bet)]
        if name == "85_FR.phh":  # the short raise, entered as the smallest legal raise
            assert len(ours) == len(theirs) and sum(o != t for o, t in zip(ours, theirs, strict=True)) == 1
        else:
            assert ours == theirs, name
        assert again.finishing_stacks == record.finishing_stacks, name


@pytest.mark.filterwarnings("ignore::studpoker.engine.RulesWarning")
def test_a_wsop_hand_says_the_bring_in_who_is_high_and_the_winners(shared_data: Path) -> None:
    """48_F7S-8.phh, stud hi/lo: Rast brings in, who is high acts first, and the pot is split high and low."""
    name, record = next(r for r in wsop_records(shared_data) if r[0] == "48_F7S-8.phh")
    session = redeal(name, record)
    said = session.announcements
    assert said[0] == "Brian Rast brings in for 75000"
    assert any(line.startswith("James Obst is high with") and line.endswith("acts first") for line in said)
    assert said[-2:] == (
        "James Obst wins 2412500 from the main pot for high with two pair, aces and tens",
        "Kristopher Tong wins 2412500 from the main pot for low with an eight-seven low",
    )
    assert [str(p) for p in session.pushes()] == [
        "push James Obst 2412500 (main pot, high half)",
        "push Kristopher Tong 2412500 (main pot, low half)",
    ]


@pytest.mark.filterwarnings("ignore::studpoker.engine.RulesWarning")
def test_stud_replay_reads_the_consoles_record(shared_data: Path, tmp_path: Path) -> None:
    name, record = next(r for r in wsop_records(shared_data) if r[0] == "48_F7S-8.phh")
    path = tmp_path / "hand.phh"
    path.write_text(redeal(name, record).hands_phh())
    run = subprocess.run(
        [sys.executable, "-m", "studpoker", "replay", str(path)], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    assert "finishing stacks match" in run.stdout
