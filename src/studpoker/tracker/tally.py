"""Counting one hand for the tracker: one pass over a replayed hand's events gives each player's row of counts
(:class:`~studpoker.tracker.counts.PlayerHand`'s fields, in order, as a plain tuple: what the store writes and what
crosses between the import's processes).

Compiled with mypyc where it can be (setup.py), as the readers are: an import counts every hand it reads.
:mod:`studpoker.tracker.counts` defines each count and gives the rows as :class:`~studpoker.tracker.counts.PlayerHand`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import Card, Rank
from ..engine import ActionKind, HandState, Variant
from ..engine.events import ActionTaken, AntePosted, Awarded, CardDealt, CommunityCard, Returned, StreetStarted
from ..engine.rules import Stud5Opening
from ..history.audit import after_rake
from ..history.model import HandRecord
from ..history.replay import ReplayResult

__all__ = ["ALLIN_TRIALS", "EXACT_OUTCOMES", "allin_equity", "count_rows"]


#: An all-in spot is counted exactly when it has at most this many outcomes (7th street, or heads-up on 6th: cheap
#: even in pure Python); a larger one is sampled with :data:`ALLIN_TRIALS` deals and a fixed seed, so that a hand
#: always counts the same (on one build: the compiled and the pure-Python samplers draw different deals).
EXACT_OUTCOMES = 50_000
ALLIN_TRIALS = 100_000
ALLIN_SEED = 20_231

_FOLD, _CHECK, _CALL, _BRING_IN = ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN
_COMPLETE, _BET, _RAISE = ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE
_AGGRESSIVE = frozenset({_COMPLETE, _BET, _RAISE})
_BETTING = frozenset({_FOLD, _CHECK, _CALL, _BRING_IN, _COMPLETE, _BET, _RAISE})
_NEVER = 99  # the street index of a player who never folded


def _door_key(card: Card, razz: bool) -> int:
    """Door cards compare by this key, larger is better: rank then suit (clubs lowest) in the high games; in razz the
    lower rank (aces low), and between equal ranks the lower suit, the reverse of the order the bring-in goes by."""
    if razz:
        low = 0 if card.rank == Rank.ACE else card.rank + 1
        return -(4 * low + card.suit)
    return card.index


def count_rows(record: HandRecord, result: ReplayResult) -> list[tuple[Any, ...]]:
    """The rows of one verified hand (``result`` is :func:`studpoker.history.verify` of ``record``), one per player
    in the record's order, each a tuple of :class:`~studpoker.tracker.counts.PlayerHand`'s fields in order; one pass
    over the engine's event log (plus an equity calculation for a shown all-in)."""
    state = result.state
    rules = record.rules
    n = record.n
    first = state.first_street
    razz = rules.variant is Variant.RAZZ
    has_bring_in = not (rules.variant is Variant.STUD5 and rules.stud5_opening is Stud5Opening.HIGH_CARD_OPENS)

    folded = [_NEVER] * n  # the street index each player folded on
    reached = [0] * n
    door: list[Card | None] = [None] * n
    put = [0] * n
    gross = [0] * n
    allin_k = [-1] * n  # the street index of the player's all-in (0 for an ante all-in), -1: none
    ante_allin = [False] * n
    acted = [False] * n  # had a decision on the first round
    bets = [0] * (5 * n)  # per street index k and player p: [k * n + p]
    calls = [0] * (5 * n)
    faced = [0] * (5 * n)
    fold_bet = [0] * (5 * n)
    vpip = [0] * n
    three_chance = [0] * n
    three = [0] * n
    seat_chance = [0] * n
    door_chance = [0] * n
    pot_awards: dict[int, set[int]] = {}

    k = 0
    level = 0  # complete, bets and raises so far this round
    ref = -1  # the first player to act on the first round: the bring-in (or the opener in five-card high opens)
    bring = -1
    bring_done = False  # the bring-in's second decision is counted
    bring_completed = bring_faced = bring_folded = bring_defended = 0
    opened = False  # somebody besides the bring-in's post acted with chips (or checked) on the first round
    stealer = -1
    steal_by_seat = steal_by_door = steal_spoiled = False

    for event in state.events:
        if isinstance(event, CardDealt):
            if not k and event.face_up and door[event.player] is None:
                door[event.player] = event.card
            continue
        if isinstance(event, ActionTaken):
            p, action, _, all_in, added = event
            kind = action.kind
            if kind not in _BETTING:
                continue
            put[p] += added
            if all_in:
                allin_k[p] = k
            i = k * n + p
            if level:
                faced[i] = 1
            if kind is _FOLD:
                folded[p] = k
                if level:
                    fold_bet[i] = 1
            elif kind is _CALL:
                calls[i] += 1
            elif kind in _AGGRESSIVE:
                bets[i] += 1
                if k:
                    level += 1
                    continue
            elif k:
                continue
            if k:
                continue
            # the first betting round
            aggressive = kind in _AGGRESSIVE
            if kind is _CALL or aggressive:
                vpip[p] = 1
            if level == 2:
                three_chance[p] = 1
                if aggressive:
                    three[p] = 1
            if stealer >= 0 and p != stealer and kind is not _FOLD:
                steal_spoiled = True
            if not acted[p]:
                acted[p] = True
                if ref < 0:
                    ref = p
                    if has_bring_in and kind is _BRING_IN:
                        bring = p
                    elif has_bring_in and kind is _COMPLETE:
                        bring, bring_completed, bring_done = p, 1, True
                elif kind is _BRING_IN:  # the player who must open for a bring-in all-in from the ante
                    bring = p
                elif not opened:
                    # the last three to act before the bring-in (fpdb's stud steal positions 2, 1, 0)
                    after = 0
                    q = (p + 1) % n
                    while q != ref and after < 3:
                        if not ante_allin[q]:
                            after += 1
                        q = (q + 1) % n
                    seat_chance[p] = int(after <= 2)
                    mine = door[p]
                    if mine is not None:
                        key = _door_key(mine, razz)
                        beats = True
                        for q in range(n):
                            if q != p and folded[q] == _NEVER:
                                theirs = door[q]
                                if theirs is None or _door_key(theirs, razz) > key:
                                    beats = False
                                    break
                        door_chance[p] = int(beats)
                    if aggressive:
                        stealer = p
                        steal_by_seat, steal_by_door = bool(seat_chance[p]), bool(door_chance[p])
            elif p == bring and not bring_done:
                bring_done = True
                if level:
                    bring_faced = 1
                    bring_folded = int(kind is _FOLD)
                    bring_defended = int(kind is not _FOLD)
            if kind is not _FOLD and kind is not _BRING_IN:
                opened = True
            if aggressive:
                level += 1
        elif isinstance(event, StreetStarted):
            k = event.street - first
            level = 0
            for p in range(n):
                if folded[p] == _NEVER:
                    reached[p] = k
        elif isinstance(event, AntePosted):
            p = event.player
            put[p] += event.amount
            if event.all_in:
                ante_allin[p] = True
                allin_k[p] = 0
        elif isinstance(event, Awarded):
            p = event.player
            gross[p] += event.amount
            pot_awards.setdefault(event.pot, set()).add(p)
        elif isinstance(event, Returned):
            put[event.player] -= event.amount

    won, stacks = after_rake(record, result)
    live = [p for p in range(n) if folded[p] == _NEVER]
    at_showdown = len(live) >= 2
    hilo = rules.variant is Variant.STUD7_HL8
    pots = state.pots if hilo and at_showdown else []
    big_bet = max(1, rules.big_bet)
    players, seats = record.players, record.seats
    out: list[tuple[Any, ...]] = []
    for p in range(n):
        net = stacks[p] - record.starting_stacks[p]
        sd = int(at_showdown and folded[p] == _NEVER)
        saw = reached[p] + 3
        called5 = int(calls[2 * n + p] > 0)
        scoop = 0
        if sd and hilo and gross[p]:
            scoop = int(all(pot_awards.get(j) == {p} for j, pot in enumerate(pots) if p in pot.eligible))
        steal_ok = p == stealer and not steal_spoiled and len(live) == 1 and live[0] == p and reached[p] == 0
        ev, shown_allin = float(net), 0
        if allin_k[p] >= 0 and sd:
            equity_ev = allin_equity(record, state, p, allin_k[p], folded, put)
            if equity_ev is not None:
                ev, shown_allin = equity_ev - (gross[p] - won[p]), 1  # less the rake he paid, as net is
        card = door[p]
        out.append(
            (  # every field of PlayerHand, in its order
                players[p] if p < len(players) and players[p] else f"p{p + 1}",
                seats[p] if p < len(seats) else p + 1,
                "" if card is None else str(card),
                1,
                int(acted[p]),
                vpip[p],
                int(bets[p] > 0),
                three_chance[p],
                three[p],
                seat_chance[p],
                int(p == stealer and steal_by_seat),
                int(steal_ok and steal_by_seat),
                door_chance[p],
                int(p == stealer and steal_by_door),
                int(steal_ok and steal_by_door),
                int(p == bring),
                bring_completed if p == bring else 0,
                bring_faced if p == bring else 0,
                bring_folded if p == bring else 0,
                bring_defended if p == bring else 0,
                int(saw >= 4),
                int(saw >= 5),
                int(saw >= 6),
                int(saw >= 7),
                sd,
                int(sd and gross[p] > 0),
                int(saw >= 4 and gross[p] > 0),
                bets[p],
                bets[n + p],
                bets[2 * n + p],
                bets[3 * n + p],
                bets[4 * n + p],
                calls[p],
                calls[n + p],
                calls[2 * n + p],
                calls[3 * n + p],
                calls[4 * n + p],
                faced[p],
                faced[n + p],
                faced[2 * n + p],
                faced[3 * n + p],
                faced[4 * n + p],
                fold_bet[p],
                fold_bet[n + p],
                fold_bet[2 * n + p],
                fold_bet[3 * n + p],
                fold_bet[4 * n + p],
                int(sd and hilo),
                scoop,
                called5,
                called5 & sd,
                shown_allin,
                ev,
                ev / big_bet,
                (p - ref) % n if ref >= 0 else 0,
                saw,
                won[p],
                net,
                net / big_bet,
            )
        )
    return out


def allin_equity(
    record: HandRecord, state: HandState, player: int, street: int, folded: Sequence[int], put: Sequence[int]
) -> float | None:
    """What ``player``'s share of the pots was worth when he was all-in: the chips he can win, each side pot times
    his equity in it, at the end of the betting round (street index ``street``, 0 = the first) on which his last chip
    went in; ``None`` unless every player still in the hand then went to the showdown with every card known.

    ``folded`` gives the street index each player folded on (99: never), ``put`` the chips each put in the pot in
    all (uncalled chips returned). Dead cards are the up cards of the players who had folded by then; a community
    card already dealt is known, else the equity engine decides whether one is to come (from the live players and
    those dead cards). A pot is a layer of the players' contributions up to the all-in player's total: its amount
    comes from everyone, folded players included, and it is contested by the live players who put at least its top;
    the player's equity in it is counted among those, the other live players' cards being dead cards.
    """
    from ..equity import EquityError, Spot, equity

    n = record.n
    live = [q for q in range(n) if folded[q] > street]
    if len(live) < 2 or any(folded[q] != _NEVER for q in live):
        return None
    hands: dict[int, list[Card]] = {}
    for q in live:
        down, up = state.down_cards(q), state.up_cards(q)
        if any(c is None for c in down) or any(c is None for c in up):
            return None
        hands[q] = []
    # the cards each live player held at the end of that round, in dealing order; the folded players' up cards
    first = state.first_street
    downs = {q: iter(state.down_cards(q)) for q in live}
    ups = {q: iter(state.up_cards(q)) for q in live}
    dead: list[Card] = []
    community: Card | None = None
    for event in state.events:
        if isinstance(event, StreetStarted) and event.street - first > street:
            break
        if isinstance(event, CardDealt):
            q = event.player
            if q in hands:
                card = next(ups[q]) if event.face_up else next(downs[q])
                hands[q].append(card)  # type: ignore[arg-type]
            elif event.face_up and event.card is not None and folded[q] <= street:
                dead.append(event.card)
        elif isinstance(event, CommunityCard) and event.card is not None:
            community = event.card
    mine = put[player]
    levels = sorted({put[q] for q in live if put[q] < mine} | {mine})
    value, bottom = 0.0, 0
    cache: dict[tuple[int, ...], float] = {}
    for top in levels:
        amount = sum(min(c, top) - min(c, bottom) for c in put)
        eligible = tuple(q for q in live if put[q] >= top)
        if amount:
            share = cache.get(eligible)
            if share is None:
                if len(eligible) == 1:
                    share = 1.0
                else:
                    others = [c for q in live if q not in eligible for c in hands[q]]
                    try:
                        spot = Spot.parse(
                            record.rules.variant,
                            [hands[q] for q in eligible],
                            dead=dead + others,
                            community=community,
                        )
                    except EquityError:  # a history whose cards contradict each other: not valued
                        return None
                    if spot.outcomes <= EXACT_OUTCOMES:
                        answer = equity(spot, method="exact")
                    else:
                        answer = equity(spot, method="montecarlo", trials=ALLIN_TRIALS, seed=ALLIN_SEED)
                    share = answer.players[eligible.index(player)].equity
                cache[eligible] = share
            value += share * amount
        bottom = top
    return value - mine
