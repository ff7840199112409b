"""The dealer's words: short lines a stud dealer says, built from the public events of a hand (the card room's
``dealer`` messages, docs/server-protocol.md, and the terminal game's log and status line).

Pure functions, no I/O. They read only what everyone sees (the spectators' view: up cards, actions, hands shown
at the showdown, awards), so a line can never tell a hidden card. Three kinds of line:

* the bring-in on the first street: ``"ann brings in for 3"``, or ``"ann completes to 10"`` when the low card
  completes;
* before the first action of every later street (and of five-card stud's first street when the high card opens):
  who acts first and why, ``"bob is high with a pair of kings showing and acts first"``;
* each award: ``"ann wins 120 from the main pot with three of a kind, sevens"``, ``"bob wins 60 from the main pot
  for low with an eight-seven low"``, or ``"ann wins 40 (no showdown)"``.

>>> from studpoker.cards import parse_cards
>>> from studpoker.evaluation import evaluate_high, evaluate_low8
>>> spoken_high(evaluate_high(parse_cards("7c 7d 7h Kd 2s"))), spoken_low(evaluate_low8(parse_cards("8c 7d 4h 2d As")))
('three of a kind, sevens', 'an eight-seven low')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from ..cards import Card, Rank
from ..evaluation import (
    HandCategory,
    LowCategory,
    evaluate_high,
    evaluate_low8,
    evaluate_razz,
    high_board_value,
    low_board_value,
)
from ..evaluation.high import HighHand
from ..evaluation.low import LowHand
from .actions import ActionKind
from .events import ActionTaken, Awarded, CardDealt, CommunityCard, Event, Mucked, Returned, Shown, StreetStarted
from .rules import Rules, Stud5Opening, Variant
from .state import Phase, View
from .words import describe_board

__all__ = [
    "FirstToAct",
    "dealer_lines",
    "first_actors",
    "first_to_act",
    "first_to_act_line",
    "first_to_act_of",
    "spoken_high",
    "spoken_low",
]


def _article(word: str) -> str:
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


def spoken_high(hand: HighHand) -> str:
    """A high hand as a dealer says it: ``"a full house, kings full of sevens"``, ``"ace high"``.

    >>> from studpoker.cards import parse_cards
    >>> [spoken_high(evaluate_high(parse_cards(c))) for c in ("As Ks Qs Js Ts", "5d 4c 3h 2s Ah", "Ad Kc 9h 7s 2d")]
    ['a royal flush', 'a straight, five high', 'ace high']
    """
    ranks = [Rank(r) for r in hand.ranks]
    category = hand.category
    if category is HandCategory.STRAIGHT_FLUSH:
        return "a royal flush" if ranks[0] is Rank.ACE else f"a straight flush, {ranks[0].noun} high"
    if category is HandCategory.FOUR_OF_A_KIND:
        return f"four of a kind, {ranks[0].plural}"
    if category is HandCategory.FULL_HOUSE:
        return f"a full house, {ranks[0].plural} full of {ranks[3].plural}"
    if category is HandCategory.FLUSH:
        return f"a flush, {ranks[0].noun} high"
    if category is HandCategory.STRAIGHT:
        return f"a straight, {ranks[0].noun} high"
    if category is HandCategory.THREE_OF_A_KIND:
        return f"three of a kind, {ranks[0].plural}"
    if category is HandCategory.TWO_PAIR:
        return f"two pair, {ranks[0].plural} and {ranks[2].plural}"
    if category is HandCategory.ONE_PAIR:
        return f"a pair of {ranks[0].plural}"
    return f"{ranks[0].noun} high"


def spoken_low(hand: LowHand) -> str:
    """A low as a dealer says it, by its two highest cards: ``"an eight-seven low"``, ``"a six-four low"``; a
    paired razz hand by its pairs: ``"a pair of twos"``.

    >>> from studpoker.cards import parse_cards
    >>> [spoken_low(evaluate_razz(parse_cards(cards))) for cards in ("Ks Kd 9c 7h 2s", "5c 4d 3h 2s Ac")]
    ['a pair of kings', 'a five-four low']
    """
    ranks = [Rank(r) for r in hand.ranks]
    if hand.category is LowCategory.NO_PAIR:
        return _article(f"{ranks[0].noun}-{ranks[1].noun} low")
    counts: dict[Rank, int] = {}
    for rank in ranks:
        counts[rank] = counts.get(rank, 0) + 1
    groups = sorted(counts, key=lambda r: (counts[r], -1 if r is Rank.ACE else int(r)), reverse=True)
    top = groups[0]
    if hand.category is LowCategory.FOUR_OF_A_KIND:
        return f"four of a kind, {top.plural}"
    if hand.category is LowCategory.FULL_HOUSE:
        return f"a full house, {top.plural} full of {groups[1].plural}"
    if hand.category is LowCategory.THREE_OF_A_KIND:
        return f"three of a kind, {top.plural}"
    if hand.category is LowCategory.TWO_PAIR:
        return f"two pair, {groups[0].plural} and {groups[1].plural}"
    return f"a pair of {top.plural}"


def _street_start(events: Sequence[Event], before: int) -> int:
    """The index of the last ``StreetStarted`` before ``before`` (0 if none)."""
    for index in range(before - 1, -1, -1):
        if isinstance(events[index], StreetStarted):
            return index
    return 0


def _bring_in_line(events: Sequence[Event], index: int, names: Sequence[str]) -> str | None:
    """The line for the action at ``index`` if it is the first street's first wager (the bring-in, or the
    completion of the player to bring in)."""
    event = events[index]
    assert isinstance(event, ActionTaken)
    kind = event.action.kind
    if kind not in (ActionKind.BRING_IN, ActionKind.COMPLETE):
        return None
    start = _street_start(events, index)
    for i in range(start, index):
        earlier = events[i]
        if isinstance(earlier, ActionTaken) and earlier.action.kind is not ActionKind.FOLD:
            taken_back = any(isinstance(e, Returned) and e.player == earlier.player for e in events[i + 1 : index])
            if not taken_back:  # a wrong bring-in corrected (R13.2) is no wager
                return None  # not the first wager of the street: a completion after the bring-in is no news
    name = names[event.player]
    if kind is ActionKind.BRING_IN:
        return f"{name} brings in for {event.action.amount}"
    return f"{name} completes to {event.action.amount}"


class FirstToAct(NamedTuple):
    """Who acts first on a street after the first, and why: ``high`` is the player with the best board (razz: the
    lowest), ``board`` that board in words, ``side`` ``"high"`` or ``"low"``. ``high`` is ``None`` when no board
    decides (the short deck's community card, R8.6, or up cards not known); it differs from ``actor`` when the best
    board is all in (R7.5: the next player acts)."""

    actor: int
    high: int | None
    board: str
    side: str


def first_to_act(
    actor: int, boards: Mapping[int, Sequence[Card | None]], variant: Variant, community: bool = False
) -> FirstToAct:
    """The facts of :class:`FirstToAct` from the first actor and the up cards of every player still in."""
    if community:
        return FirstToAct(actor, None, "", "")
    razz = variant is Variant.RAZZ
    value = low_board_value if razz else high_board_value
    known = {p: [c for c in cards if c is not None] for p, cards in boards.items()}
    worth = {p: value(cards) for p, cards in known.items() if 1 <= len(cards) <= 4}
    if actor not in worth:
        return FirstToAct(actor, None, "", "")
    best = max(worth.values())
    top = actor if worth[actor] == best else next(p for p in known if worth.get(p) == best)
    return FirstToAct(actor, top, describe_board(known[top], variant), "low" if razz else "high")


def first_to_act_of(view: View) -> FirstToAct | None:
    """:func:`first_to_act` for the player to act in ``view`` (``None`` when nobody is to act)."""
    if view.actor is None:
        return None
    boards = {p.player: p.up for p in view.players if not p.folded}
    return first_to_act(view.actor, boards, view.variant, view.community is not None)


def first_to_act_line(view: View, names: Sequence[str]) -> str | None:
    """Who acts first on the street just dealt, and with what showing: ``"bob is high with a pair of kings showing
    and acts first"``, ``"ann is high with three nines showing, all in; bob acts first"``."""
    facts = first_to_act_of(view)
    if facts is None:
        return None
    actor = names[facts.actor]
    if facts.high is None:
        return f"{actor} acts first"
    if facts.high == facts.actor:
        return f"{actor} is {facts.side} with {facts.board} showing and acts first"
    return f"{names[facts.high]} is {facts.side} with {facts.board} showing, all in; {actor} acts first"


def first_actors(events: Sequence[Event], variant: Variant, *, bring_in: bool = True) -> dict[int, FirstToAct]:
    """For every street opened by the boards in a hand's event log (every street after the first, and the first
    too without a bring-in: five-card stud when the high card opens), who acted first and why, by the index of that
    ``ActionTaken``: the boards as they stood then (up cards dealt, folded hands out). The terminal game's log says
    it; the card room's dealer says it as the street begins (:func:`first_to_act_line`)."""
    no_bring_in = not bring_in
    out: dict[int, FirstToAct] = {}
    up: dict[int, list[Card | None]] = {}
    folded: set[int] = set()
    community = False
    first_street = 2 if variant is Variant.STUD5 else 3
    street_open = False
    for index, event in enumerate(events):
        if isinstance(event, StreetStarted):
            street_open = event.street != first_street or no_bring_in
        elif isinstance(event, CardDealt):
            if event.face_up:
                up.setdefault(event.player, []).append(event.card)
            else:
                up.setdefault(event.player, [])
        elif isinstance(event, CommunityCard):
            community = True
        elif isinstance(event, ActionTaken):
            if street_open:
                boards = {p: cards for p, cards in up.items() if p not in folded}
                out[index] = first_to_act(event.player, boards, variant, community)
                street_open = False
            if event.action.kind is ActionKind.FOLD:
                folded.add(event.player)
    return out


def _shown_cards(events: Sequence[Event], view: View) -> dict[int, list[Card]]:
    community = [view.community] if view.community is not None else []
    return {e.player: [c for c in e.cards if c is not None] + community for e in events if isinstance(e, Shown)}


def _hand_words(cards: Sequence[Card], variant: Variant, share: str) -> str:
    """The words for what won this share of a pot."""
    if not 5 <= len(cards) <= 7:
        return ""
    if variant is Variant.RAZZ:
        return spoken_low(evaluate_razz(cards))
    high = spoken_high(evaluate_high(cards))
    low = evaluate_low8(cards) if variant is Variant.STUD7_HL8 else None
    if share == "low" and low is not None:
        return spoken_low(low)
    if share == "split" and low is not None:
        return f"{high} and {spoken_low(low)}"
    return high


def _award_lines(awards: Sequence[Awarded], events: Sequence[Event], view: View, names: Sequence[str]) -> list[str]:
    shown = _shown_cards(events, view)
    if not shown:  # nobody showed: the last player in takes every pot
        totals: dict[int, int] = {}
        for award in awards:
            totals[award.player] = totals.get(award.player, 0) + award.amount
        return [f"{names[p]} wins {amount} (no showdown)" for p, amount in totals.items()]
    lines = []
    for award in awards:
        pot = "the main pot" if award.pot == 0 else f"side pot {award.pot}"
        share = {"high": " for high", "low": " for low", "split": ", high and low,"}.get(award.share, "")
        words = _hand_words(shown.get(award.player, []), view.variant, award.share)
        line = f"{names[award.player]} wins {award.amount} from {pot}{share}"
        lines.append(f"{line} with {words}" if words else f"{line} (uncontested)")
    return lines


#: The actions of a showdown, and the wagers that make a player the last aggressor of a betting round.
_SHOWDOWN_KINDS = (ActionKind.SHOW, ActionKind.MUCK)
_AGGRESSIVE = (ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE)


def _showdown_line(events: Sequence[Event], start: int, view: View, names: Sequence[str]) -> str | None:
    """Who shows first at a showdown that begins in ``events[start:]``, and why (R9.3): the last to bet or raise on
    the last round, else the high board (razz: the low board); every hand turned up at once with an all-in.
    ``"showdown: bob shows first (last to bet), then ann and cy"``."""

    def showdown_event(event: Event) -> bool:
        return isinstance(event, (Shown, Mucked)) or (
            isinstance(event, ActionTaken) and event.action.kind in _SHOWDOWN_KINDS
        )

    if any(showdown_event(e) for e in events[:start]):
        return None  # begun before this run: said then
    shown = [e.player for e in events[start:] if isinstance(e, Shown)]
    if view.phase is Phase.SHOWDOWN and view.actor is not None and not shown:
        first = view.actor  # the first to decide, show or muck
        together = False
    elif len(shown) >= 2 and not any(isinstance(e, ActionTaken) and e.action.kind in _SHOWDOWN_KINDS for e in events):
        first = shown[0]  # every hand turned up at once
        together = True
    else:
        return None
    live = [p.player for p in view.players if not p.folded]
    if first not in live or len(live) < 2:
        return None
    n = len(view.players)
    others = [names[p] for p in sorted(live, key=lambda p: (p - first) % n)[1:]]
    last_round = view.street  # the last street dealt: its betting round (none after an all-in)
    aggressor = next(
        (
            e.player
            for e in reversed(events)
            if isinstance(e, ActionTaken) and e.street == last_round and e.action.kind in _AGGRESSIVE
        ),
        None,
    )
    board = "low on board" if view.variant is Variant.RAZZ else "high on board"
    why = "last to bet" if aggressor == first else board
    rest = others[0] if len(others) == 1 else ", ".join(others[:-1]) + f" and {others[-1]}"
    if together:
        return f"showdown, every hand turned up: {names[first]} first ({why}), then {rest}"
    return f"showdown: {names[first]} shows first ({why}), then {rest}"


def dealer_lines(events: Sequence[Event], start: int, view: View, names: Sequence[str], rules: Rules) -> list[str]:
    """The dealer's lines for the public events ``events[start:]`` (``events``: the spectators' whole log so far,
    ``view``: the spectators' view after them, ``names[p]``: engine player ``p``'s name).

    The bring-in (or the low card's completion) is said after it is made, the first actor of a later street once
    the street is dealt and before anyone acts, and the awards as they are made."""
    lines: list[str] = []
    first_street = 2 if view.variant is Variant.STUD5 else 3
    awards: list[Awarded] = []
    for index in range(start, len(events)):
        event = events[index]
        if isinstance(event, ActionTaken) and event.street == first_street:
            line = _bring_in_line(events, index, names)
            if line is not None:
                lines.append(line)
        elif isinstance(event, Awarded):
            awards.append(event)
    line = _showdown_line(events, start, view, names)
    if line is not None:
        lines.append(line)
    if awards:
        lines += _award_lines(awards, events, view, names)
    # a street dealt in this run, betting open, nobody has acted yet: who acts first (the run is looked through
    # from its end, not the hand's log: a step is a few events)
    street = next((i for i in range(len(events) - 1, start - 1, -1) if isinstance(events[i], StreetStarted)), -1)
    dealt_now = street >= 0
    no_bring_in = view.variant is Variant.STUD5 and rules.stud5_opening is Stud5Opening.HIGH_CARD_OPENS
    if (
        dealt_now
        and view.phase is Phase.BET
        and (view.street != first_street or no_bring_in)
        and not any(isinstance(e, ActionTaken) for e in events[street:])
    ):
        line = first_to_act_line(view, names)
        if line is not None:
            lines.append(line)
    return lines
