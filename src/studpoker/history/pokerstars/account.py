"""A replay as PokerStars accounts for it: what each betting line says, the uncalled bets, where the betting is
capped and the double bet offered, and who collects what from which pot once the rake is taken."""

from __future__ import annotations

from dataclasses import dataclass

from ...engine import ActionKind, HandState
from ...engine.events import ActionTaken, AntePosted, Returned, StreetStarted
from ..derived import derived, no_low, recorded_total
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
    n = state.n
    lines = derived(record, state)
    record_bets = [a for a in record.actions if isinstance(a, Bet)]
    antes: list[tuple[int, bool]] = [(0, False)] * n
    wagers: list[tuple[str, int, bool]] = []
    returned: list[list[tuple[int, int]]] = []
    folded_on: dict[int, int] = {}
    voluntary: set[int] = set()
    bets, excess = [0] * n, [0] * n  # excess: what the replayer put in beyond the record (see below)
    street = 0
    for event in state.events:
        if isinstance(event, AntePosted):
            antes[event.player] = (event.amount, event.all_in)
        elif isinstance(event, StreetStarted):
            street, bets, excess = event.street, [0] * n, [0] * n
        elif isinstance(event, Returned):
            chips = event.amount - excess[event.player]
            excess[event.player] = 0
            if returned and chips > 0:
                returned[-1].append((event.player, chips))
        elif isinstance(event, ActionTaken) and event.action.kind not in (ActionKind.SHOW, ActionKind.MUCK):
            p, kind, amount = event.player, event.action.kind, event.action.amount
            before = bets[p]
            if kind is ActionKind.FOLD:
                wagers.append(("folds", 0, False))
                folded_on[p] = street
            elif kind is ActionKind.CHECK:
                wagers.append(("checks", 0, False))
            elif kind is ActionKind.CALL:
                wagers.append(("calls", amount - before, event.all_in))
            elif kind is ActionKind.BRING_IN:
                wagers.append(("brings in", amount, event.all_in))
            else:
                k = len(wagers)
                recorded = recorded_total(record_bets, k, amount)  # the text says what the record says
                if recorded < amount:  # and the replay's extra chips are not returned in it
                    excess[p], amount = amount - recorded, recorded
                to_call = lines.to_call[k]
                wagers.append(("bets" if to_call == 0 else "raises", amount - (to_call or before), event.all_in))
            if kind not in (ActionKind.FOLD, ActionKind.CHECK):
                if street == state.first_street:
                    voluntary.add(p)
                bets[p] = amount
            returned.append([])
    live = [not state.folded(p) for p in range(n)]
    raked = raked_pots(state, rake)
    count = len(raked.gross)
    everyone = tuple(p for p in range(n) if live[p])
    eligible = [raked.pots[i].eligible if i < len(raked.pots) else everyone for i in range(count)]
    return _Account(
        antes,
        wagers,
        returned,
        list(lines.capped),
        list(lines.open_pair),
        raked.gross,
        raked.shares,
        raked.payouts,
        eligible,
        folded_on,
        voluntary,
        len(everyone) >= 2,
        no_low(state, raked),
    )
