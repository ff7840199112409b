"""What a room derives from a replay's betting and writes beside it: the bet each action faces, where the
raising is capped (R6.6), which rounds offer the open-pair double bet (R6.14) and which hi/lo pots have no low.

PokerStars writes all of them (``raises X to Y``, ``Betting is capped``, ``Pair on board - a double bet is
allowed``, ``No low hand qualified``): its writer says them where the replay puts them, and the check of any room's
file (:mod:`~studpoker.history.sites.check`) compares what a file says with them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import Card
from ..engine import ActionKind, HandState, HeadsUpUncap, Rules, Variant
from ..engine.events import ActionTaken, AntePosted, CardDealt, Returned, StreetStarted
from .model import Bet, HandRecord
from .payout import RakedPots

__all__ = ["Derived", "derived", "no_low", "recorded_total"]


@dataclass(frozen=True, slots=True)
class Derived:
    """Beside a record's :class:`Bet` actions: ``to_call[k]``, the bet the k-th faces (a bring-in counts as a
    bet of the full bring-in); ``capped``, the actions after which the raising is capped; ``open_pair``, the
    streets whose round offers the double bet."""

    to_call: tuple[int, ...]
    capped: tuple[int, ...]
    open_pair: tuple[int, ...]


def derived(record: HandRecord, state: HandState) -> Derived:
    """The :class:`Derived` of ``record`` replayed into the finished ``state``.

    A wager for less than a full raise that covers every opponent is replayed as the smallest legal one
    (:mod:`~studpoker.history.replay`): what it faces next is what the record says it wagered."""
    rules = state.rules
    small, big, n = rules.small_bet, rules.big_bet, state.n
    record_bets = [a for a in record.actions if isinstance(a, Bet)]
    to_calls: list[int] = []
    capped: list[int] = []
    open_pair: list[int] = []
    pair_street = 3 if rules.variant is Variant.STUD5 else 4
    up: list[list[Card | None]] = [[] for _ in range(n)]
    folded = [False] * n
    stacks = list(state.starting_stacks)
    bets = [0] * n
    street = to_call = full = raises = active_start = 0
    opened = big_wager = pair = pair_known = False
    inc = small
    for event in state.events:
        if isinstance(event, AntePosted):
            stacks[event.player] -= event.amount
        elif isinstance(event, StreetStarted):
            street, bets = event.street, [0] * n
            to_call = full = raises = 0
            opened = big_wager = pair = pair_known = False
            inc = small if street - state.first_street < 2 else big
            active_start = sum(1 for p in range(n) if not folded[p] and stacks[p] > 0)
        elif isinstance(event, CardDealt) and event.face_up:
            up[event.player].append(event.card)
        elif isinstance(event, Returned):
            stacks[event.player] += event.amount
        elif isinstance(event, ActionTaken) and event.action.kind not in (ActionKind.SHOW, ActionKind.MUCK):
            p, kind, amount = event.player, event.action.kind, event.action.amount
            if not pair_known:  # by its first action the round's cards are all dealt (R6.14)
                pair_known = True
                pair = (
                    street == pair_street
                    and bool(rules.open_pair_double_bet)
                    and any(_paired(u) for q, u in enumerate(up) if not folded[q])
                )
                if pair:
                    open_pair.append(street)
            k = len(to_calls)
            to_calls.append(to_call)
            if kind is ActionKind.FOLD:
                folded[p] = True
                continue
            if kind is ActionKind.CHECK:
                continue
            spent = amount - bets[p]
            if kind is ActionKind.BRING_IN:
                to_call = max(to_call, rules.bring_in)
                if rules.bring_in == small and amount == small:
                    opened, full = True, amount
            elif kind is not ActionKind.CALL:
                amount = recorded_total(record_bets, k, amount)
                start = full if opened else 0
                if 2 * (amount - start) >= (small if street == state.first_street and not opened else inc):
                    if opened:  # a full raise (R6.5, R6.12)
                        raises += 1
                        if raises == rules.raise_cap and _cap_binds(rules, active_start, stacks, folded):
                            capped.append(k)
                    opened, full = True, amount
                    if pair and not big_wager and amount - start >= big > small:
                        big_wager, inc = True, big
                to_call = max(to_call, amount)
            stacks[p] -= spent
            bets[p] = event.action.amount
    return Derived(tuple(to_calls), tuple(capped), tuple(open_pair))


def recorded_total(record_bets: Sequence[Bet], k: int, replayed: int) -> int:
    """The round total the record's ``k``-th betting action makes, where the replay made ``replayed``: the record's
    own wager where it is smaller. A wager for less than a full raise that covers every opponent is replayed as the
    smallest legal one (:mod:`~studpoker.history.replay`; the data README's 85_FR.phh), and a file says what the
    record says: its extra chips are neither put in nor returned in the file.

    >>> recorded_total([Bet(0, "cbr", 30)], 0, 40), recorded_total([Bet(0, "cbr", 30)], 0, 30)
    (30, 30)
    """
    if k < len(record_bets):
        bet = record_bets[k]
        if bet.verb == "cbr" and bet.amount < replayed:
            return bet.amount
    return replayed


def no_low(state: HandState, raked: RakedPots) -> list[bool]:
    """Per pot of ``raked``: a contested stud hi/lo pot at a showdown that no low qualifies for (PokerStars
    writes ``No low hand qualified`` for each)."""
    if state.rules.variant is not Variant.STUD7_HL8:
        return [False] * len(raked.gross)
    live = tuple(p for p in range(state.n) if not state.folded(p))
    showdown = len(live) >= 2
    out = []
    for i, awards in enumerate(raked.awards):
        eligible = raked.pots[i].eligible if i < len(raked.pots) else live
        out.append(showdown and len(eligible) > 1 and not any(share in ("low", "split") for _, _, share in awards))
    return out


def _paired(up: Sequence[Card | None]) -> bool:
    """A board whose first two up cards pair (the 4th-street open pair, R6.14)."""
    return len(up) >= 2 and up[0] is not None and up[1] is not None and up[0].rank == up[1].rank


def _cap_binds(rules: Rules, active_start: int, stacks: Sequence[int], folded: Sequence[bool]) -> bool:
    """Whether the raise cap, once reached, stops the raising (R6.6)."""
    if rules.headsup_uncap is HeadsUpUncap.NEVER:
        return True
    if rules.headsup_uncap is HeadsUpUncap.ROUND_BEGINS_HEADSUP:
        return active_start != 2
    return sum(1 for p, s in enumerate(stacks) if not folded[p] and s > 0) >= 3
