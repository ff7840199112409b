"""A replay as PokerStars accounts for it: what each betting line says, the uncalled bets, where the betting is
capped and the double bet offered, and who collects what from which pot once the rake is taken."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...cards import Card
from ...engine import ActionKind, HandState, HeadsUpUncap, Rules, Variant
from ...engine.events import ActionTaken, AntePosted, CardDealt, Returned, StreetStarted
from ..model import Bet, HandRecord
from ..payout import raked_pots


@dataclass
class _Account:
    """What a replay says PokerStars writes: every betting line's verb and amount, the uncalled bets,
    where the betting is capped and the double bet offered, and who collects what from which pot once
    the rake is taken.

    ``wagers[k]`` belongs to the record's k-th :class:`Bet`: (verb, amount named, all-in); a call
    names what it adds, a raise what it adds to the amount to call (``raises X to Y``), a bet or a
    bring-in its amount. ``returned[k]``: the uncalled chips returned after it.
    """

    antes: list[tuple[int, bool]]
    wagers: list[tuple[str, int, bool]]
    returned: list[list[tuple[int, int]]]
    capped: list[int]  # betting lines after which the betting is capped
    open_pair: list[int]  # streets whose betting round offers the double bet
    gross: list[int]  # each pot before the rake
    rake: list[int]  # the rake taken from each pot
    payouts: list[list[tuple[int, int]]]  # per pot: (player, chips) in the order of the awards
    eligible: list[tuple[int, ...]]  # per pot: who can win it
    folded_on: dict[int, int]  # player: the street of his fold
    voluntary: set[int]  # players who put chips in on the first street (bring-in included)
    showdown: bool  # two or more hands reached the end
    no_low: list[bool]  # per pot: a contested stud hi/lo pot without a qualifying low


def _account(record: HandRecord, state: HandState, rake: int) -> _Account:
    """The :class:`_Account` of a finished replay, with ``rake`` taken from its pots."""
    rules = state.rules
    small, big, n = rules.small_bet, rules.big_bet, state.n
    record_bets = [a for a in record.actions if isinstance(a, Bet)]
    antes: list[tuple[int, bool]] = [(0, False)] * n
    wagers: list[tuple[str, int, bool]] = []
    returned: list[list[tuple[int, int]]] = []
    capped: list[int] = []
    open_pair: list[int] = []
    folded_on: dict[int, int] = {}
    voluntary: set[int] = set()
    pair_street = 3 if rules.variant is Variant.STUD5 else 4
    up: list[list[Card | None]] = [[] for _ in range(n)]
    folded = [False] * n
    stacks = list(state.starting_stacks)
    bets, excess = [0] * n, [0] * n  # excess: what the replayer put in beyond the record (see below)
    street = to_call = full = raises = active_start = 0
    opened = big_wager = pair = pair_known = False
    inc = small
    for event in state.events:
        if isinstance(event, AntePosted):
            antes[event.player] = (event.amount, event.all_in)
            stacks[event.player] -= event.amount
        elif isinstance(event, StreetStarted):
            street, bets, excess = event.street, [0] * n, [0] * n
            to_call = full = raises = 0
            opened = big_wager = pair = pair_known = False
            inc = small if street - state.first_street < 2 else big
            active_start = sum(1 for p in range(n) if not folded[p] and stacks[p] > 0)
        elif isinstance(event, CardDealt) and event.face_up:
            up[event.player].append(event.card)
        elif isinstance(event, Returned):
            stacks[event.player] += event.amount
            chips = event.amount - excess[event.player]
            excess[event.player] = 0
            if returned and chips > 0:
                returned[-1].append((event.player, chips))
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
            before = bets[p]
            if kind is ActionKind.FOLD:
                wagers.append(("folds", 0, False))
                folded[p] = True
                folded_on[p] = street
            elif kind is ActionKind.CHECK:
                wagers.append(("checks", 0, False))
            elif kind is ActionKind.CALL:
                wagers.append(("calls", amount - before, event.all_in))
            elif kind is ActionKind.BRING_IN:
                wagers.append(("brings in", amount, event.all_in))
                to_call = max(to_call, rules.bring_in)
                if rules.bring_in == small and amount == small:
                    opened, full = True, amount
            else:
                k = len(wagers)
                if k < len(record_bets) and record_bets[k].verb == "cbr" and record_bets[k].amount < amount:
                    # A wager for less than a full raise that covers every opponent is replayed as the
                    # smallest legal one (replay.py; data README, 85_FR.phh): the text says what the
                    # record says, and the replay's extra chips are not returned in it.
                    excess[p] = amount - record_bets[k].amount
                    amount = record_bets[k].amount
                wagers.append(("bets" if to_call == 0 else "raises", amount - (to_call or before), event.all_in))
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
            if kind not in (ActionKind.FOLD, ActionKind.CHECK):
                if street == state.first_street:
                    voluntary.add(p)
                stacks[p] -= amount + excess[p] - before
                bets[p] = amount
            returned.append([])
    live = [not state.folded(p) for p in range(n)]
    pots, gross, by_pot, shares, payouts = raked_pots(state, rake)
    count = len(gross)
    everyone = tuple(p for p in range(n) if live[p])
    eligible = [pots[i].eligible if i < len(pots) else everyone for i in range(count)]
    showdown = len(everyone) >= 2
    no_low = [
        rules.variant is Variant.STUD7_HL8
        and showdown
        and len(eligible[i]) > 1
        and not any(share in ("low", "split") for _, _, share in by_pot[i])
        for i in range(count)
    ]
    return _Account(
        antes,
        wagers,
        returned,
        capped,
        open_pair,
        gross,
        shares,
        payouts,
        eligible,
        folded_on,
        voluntary,
        showdown,
        no_low,
    )


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
