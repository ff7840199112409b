"""A played hand, street by street: each player's equity when that street's cards had been dealt, two ways.

* **Against the actual cards**: every live player's cards as dealt, the folded players' cards dead; what an
  onlooker who saw every card would compute.
* **Against the ranges**: what the player himself could compute at the table: his own cards against every other
  live player's up cards with any down cards (the range ``(XX)`` before his up cards, with card removal by every
  visible card), the folded players' up cards dead and their down cards unknown.

The gap between the two is what the down cards were worth: the lesson a training table's replayer shows (the
card room's training mode, docs/server.md). Each equity is exact when its spot has at most :data:`EXACT_OUTCOMES`
outcomes, else Monte Carlo with :data:`TRIALS` trials (a standard error of at most 0.36 percentage points), seeded
from the street and the player, so the same hand always gives the same answers.

>>> from studpoker.engine import HandState, Rules, Variant
>>> state = HandState(Rules(Variant.RAZZ, ante=1, bring_in=2, small_bet=4, big_bet=8), [50, 50], seed=3)
>>> while not state.is_over:
...     _ = state.apply(state.legal_actions()[1 if len(state.legal_actions()) > 1 else 0])
>>> streets = hand_streets(state)
>>> [s.street for s in streets]
[3, 4, 5, 6, 7]
>>> last = streets[-1].players
>>> sorted(p.actual for p in last)  # the river: the actual cards decide
[0.0, 1.0]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import Card
from ..engine import ActionKind, HandState, Variant
from ..engine.events import ActionTaken, CardDealt, CommunityCard, HandEnded, StreetStarted
from .api import equity
from .spot import Spot

__all__ = ["EXACT_OUTCOMES", "TRIALS", "PlayerStreet", "StreetEquity", "hand_streets"]

#: A spot with at most this many outcomes is counted exactly; a larger one is sampled.
EXACT_OUTCOMES = 2_000_000
#: Monte Carlo trials for a sampled spot (standard error at most 0.5 / sqrt(TRIALS)).
TRIALS = 20_000

_NAMES = {2: "2nd street", 3: "3rd street", 4: "4th street", 5: "5th street", 6: "6th street", 7: "7th street"}


@dataclass(frozen=True, slots=True)
class PlayerStreet:
    """One live player on one street: his cards so far in dealing order (``up`` says which were face up), his
    equity against the others' actual cards and against their ranges (shares of the pot, 0 to 1)."""

    player: int
    cards: tuple[Card, ...]
    up: tuple[bool, ...]
    actual: float
    ranged: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: cards as text."""
        return {
            "player": self.player,
            "cards": [str(c) for c in self.cards],
            "up": list(self.up),
            "actual": self.actual,
            "ranged": self.ranged,
        }


@dataclass(frozen=True, slots=True)
class StreetEquity:
    """The players still in when ``street``'s cards had been dealt (only streets with two or more)."""

    street: int
    name: str
    players: tuple[PlayerStreet, ...]
    community: Card | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "street": self.street,
            "name": self.name,
            "community": None if self.community is None else str(self.community),
            "players": [p.to_dict() for p in self.players],
        }


class _Street:
    """What had been dealt and folded when a street's cards were out (the walk's snapshot)."""

    def __init__(self, street: int, cards: dict[int, list[tuple[Card, bool]]], folded: set[int]) -> None:
        self.street = street
        self.cards = {p: list(c) for p, c in cards.items()}
        self.folded = set(folded)


def hand_streets(state: HandState) -> list[StreetEquity]:
    """Every street of a finished (or replayed) hand with two or more players in, and each one's equity then.
    Every card must be known (a complete record: :func:`studpoker.history.replay` of a full PHH)."""
    variant = state.rules.variant
    cards: dict[int, list[tuple[Card, bool]]] = {}
    folded: set[int] = set()
    snapshots: list[_Street] = []
    community: Card | None = None
    street: int | None = None
    for event in state.events:
        if isinstance(event, CardDealt):
            if event.card is None:
                raise ValueError(f"player {event.player + 1}'s card on street {event.street} is unknown")
            cards.setdefault(event.player, []).append((event.card, event.face_up))
            continue
        if isinstance(event, CommunityCard):
            community = event.card
            continue
        if street is not None and isinstance(event, (ActionTaken, StreetStarted, HandEnded)):
            snapshots.append(_Street(street, cards, folded))
            street = None
        if isinstance(event, StreetStarted):
            street = event.street
        elif isinstance(event, ActionTaken) and event.action.kind is ActionKind.FOLD:
            folded.add(event.player)
    if street is not None:
        snapshots.append(_Street(street, cards, folded))
    last = max((s.street for s in snapshots), default=0)
    out = []
    for snap in snapshots:
        live = sorted(p for p in snap.cards if p not in snap.folded)
        if len(live) < 2:
            continue
        shared = community if snap.street == last and community is not None else None
        out.append(_street_equity(variant, snap, live, shared, community is not None))
    return out


def _street_equity(
    variant: Variant, snap: _Street, live: list[int], shared: Card | None, had_community: bool
) -> StreetEquity:
    dead_all = [card for p, held in snap.cards.items() if p in snap.folded for card, _ in held]
    dead_up = [card for p, held in snap.cards.items() if p in snap.folded for card, up in held if up]
    # the community card: dealt (a card); to come (True) when this hand was dealt one later, for the dealer had
    # too few cards then and had as few or fewer before; else auto, as the dealer would decide
    community: Card | bool | None = shared if shared is not None else (True if had_community else None)
    hands = [[card for card, _ in snap.cards[p]] for p in live]
    actual = _equities(variant, hands, dead_all, community, seed=snap.street * 64)
    players = []
    for i, p in enumerate(live):
        seen = [hands[i]] + [[card for card, up in snap.cards[q] if up] for q in live if q != p]
        ranged = _equities(variant, seen, dead_up, community, seed=snap.street * 64 + 1 + p)[0]
        held = snap.cards[p]
        players.append(PlayerStreet(p, tuple(c for c, _ in held), tuple(u for _, u in held), actual[i], ranged))
    return StreetEquity(snap.street, _NAMES.get(snap.street, f"street {snap.street}"), tuple(players), shared)


def _equities(
    variant: Variant, hands: list[list[Card]], dead: list[Card], community: Card | bool | None, seed: int
) -> list[float]:
    """Each hand's share of the pot: exact when small, else :data:`TRIALS` seeded trials."""
    spot = Spot(variant, tuple(tuple(h) for h in hands), tuple(dead), community)
    if spot.outcomes <= EXACT_OUTCOMES:
        result = equity(spot, method="exact")
    else:
        result = equity(spot, method="montecarlo", trials=TRIALS, seed=seed)
    return [p.equity for p in result.players]
