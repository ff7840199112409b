"""From a played hand to a hand history: :func:`record_hand` reads a :class:`HandState`'s event log, and
:func:`seen_by` gives a history as one seat (or a spectator) saw the hand: unseen cards unknown (``??``).

>>> from studpoker.engine import HandState, Rules, Variant
>>> from studpoker.history import phh
>>> state = HandState(Rules(Variant.RAZZ, ante=1, bring_in=2, small_bet=4, big_bet=8), [50, 50], seed=3)
>>> while not state.is_over:
...     _ = state.apply(state.legal_actions()[-1])
>>> record = record_hand(state, players=["Ann", "Bob"])
>>> replay(phh.loads_hand(phh.dumps(record))).state.stacks == state.stacks
True

A hand where nobody showed: the table saw only the door cards, Bob also saw his own.

>>> state = HandState(Rules(Variant.RAZZ, ante=1, bring_in=2, small_bet=4, big_bet=8), [50, 50], seed=3)
>>> _ = state.apply(state.legal_actions()[0]); _ = state.apply(state.legal_actions()[0])  # Bob brings in, Ann folds
>>> record = record_hand(state, players=["Ann", "Bob"])
>>> phh.dumps(seen_by(record, None)).splitlines()[7]
"actions = ['d dh p1 ????Ad', 'd dh p2 ????2h', 'p2 pb', 'p1 f']"
>>> phh.dumps(seen_by(record, 1)).splitlines()[7]
"actions = ['d dh p1 ????Ad', 'd dh p2 3h3s2h', 'p2 pb', 'p1 f']"
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from ..cards import Card
from ..engine import ActionKind, HandState
from ..engine.events import ActionTaken, CardDealt, CommunityCard, Event, Returned, Shown
from .model import Bet, Board, Deal, HandRecord, HistoryAction, ShowMuck
from .replay import replay

__all__ = ["record_hand", "replay", "seen_by"]

_VERBS = {
    ActionKind.BRING_IN: "pb",
    ActionKind.FOLD: "f",
    ActionKind.CHECK: "cc",
    ActionKind.CALL: "cc",
    ActionKind.COMPLETE: "cbr",
    ActionKind.BET: "cbr",
    ActionKind.RAISE: "cbr",
}


def record_hand(
    state: HandState,
    *,
    players: Sequence[str] = (),
    seats: Sequence[int] = (),
    info: dict[str, Any] | None = None,
    currency: str | None = None,
    chip_value: float = 1.0,
) -> HandRecord:
    """The hand so far as a :class:`HandRecord` (a finished hand gets its finishing stacks).

    Cards dealt to a player on one street become one :class:`Deal` (PHH writes the first
    street's three cards together); showdown shows carry the player's whole hand in
    dealing order; cards the engine does not know stay unknown. A wrong bring-in taken back
    (R13.2) is left out; one that stood is kept, and ``wrong_bring_in`` names its player.
    """
    actions: list[HistoryAction] = []
    street_cards: dict[int, list[Card | None]] = {}
    order: list[int] = []
    faces: dict[int, list[bool]] = {}  # each player's cards in dealing order: face up?

    def flush() -> None:
        for p in order:
            actions.append(Deal(p, tuple(street_cards[p])))
        street_cards.clear()
        order.clear()

    events = state.events
    taken_back = _corrected_bring_ins(events)
    for index, event in enumerate(events):
        if index in taken_back:
            continue
        if isinstance(event, CardDealt):
            if event.player not in street_cards:
                street_cards[event.player] = []
                order.append(event.player)
            street_cards[event.player].append(event.card)
            faces.setdefault(event.player, []).append(event.face_up)
            continue
        if street_cards:
            flush()
        if isinstance(event, CommunityCard):
            assert event.card is not None
            actions.append(Board(event.card))
        elif isinstance(event, ActionTaken):
            kind = event.action.kind
            if kind in _VERBS:
                amount = event.action.amount if _VERBS[kind] == "cbr" else 0
                actions.append(Bet(event.player, _VERBS[kind], amount))
            elif kind is ActionKind.MUCK:
                actions.append(ShowMuck(event.player, None))
        elif isinstance(event, Shown):
            actions.append(ShowMuck(event.player, _shown(state, event.player, faces.get(event.player, []))))
    if street_cards:
        flush()
    return HandRecord(
        rules=state.rules,
        starting_stacks=state.starting_stacks,
        actions=tuple(actions),
        players=tuple(players),
        seats=tuple(seats),
        finishing_stacks=tuple(state.stacks) if state.is_over else None,
        currency=currency,
        chip_value=chip_value,
        info=dict(info or {}),
        wrong_bring_in=state.misdesignated_bring_in,
        dead_hands=state.dead_hands,
    )


def _corrected_bring_ins(events: Sequence[Event]) -> set[int]:
    """The log positions of each wrong bring-in taken back (``HandState.correct_bring_in``, R13.2) and of its return:
    the hand is recorded as it stands, the true low card bringing in. A wrong bring-in that stood is recorded as it
    was made, with ``wrong_bring_in`` naming its player (PHH ``_wrong_bring_in``), so that the replay makes it too."""
    out: set[int] = set()
    for i in range(len(events) - 2):
        made, back, then = events[i], events[i + 1], events[i + 2]
        if (
            isinstance(made, ActionTaken)
            and made.action.kind is ActionKind.BRING_IN
            and isinstance(back, Returned)
            and back.player == made.player
            and isinstance(then, ActionTaken)
        ):
            out.update((i, i + 1))
    return out


def _shown(state: HandState, player: int, faces: list[bool]) -> tuple[Card | None, ...]:
    """The cards a show reveals: the hand in dealing order, as known at the end of the hand."""
    down, up = iter(state.down_cards(player)), iter(state.up_cards(player))
    return tuple(next(up) if face_up else next(down) for face_up in faces)


def seen_by(record: HandRecord, viewer: int | None, shown_after: Iterable[int] = ()) -> HandRecord:
    """The hand as player ``viewer`` (0-based; ``None``: a spectator) saw it at the table: every card dealt face
    up, the whole hand of every player who showed it (at the showdown, or after it: ``shown_after``, a winner
    nobody called who showed his cards), and the viewer's own down cards; every other card is unknown (``None``,
    written ``??`` in PHH). Everything else (actions, stacks, names, fields) is unchanged.

    This is what a card room may publish of a finished hand: the record is replayed to learn which cards were
    dealt face up and who showed, so it must be a complete, legal hand (:class:`ReplayError` otherwise).
    """
    state = replay(record).state
    faces: dict[int, list[bool]] = {}
    shown: set[int] = set(shown_after)
    for event in state.events:
        if isinstance(event, CardDealt):
            faces.setdefault(event.player, []).append(event.face_up)
        elif isinstance(event, Shown):
            shown.add(event.player)
    dealt: dict[int, int] = {}
    actions: list[HistoryAction] = []
    for action in record.actions:
        if not isinstance(action, Deal):
            actions.append(action)
            continue
        start = dealt.get(action.player, 0)
        dealt[action.player] = start + len(action.cards)
        if action.player == viewer or action.player in shown:
            actions.append(action)
            continue
        up = faces.get(action.player, [])
        cards = tuple(card if start + k < len(up) and up[start + k] else None for k, card in enumerate(action.cards))
        actions.append(Deal(action.player, cards, action.comment))
    return replace(record, actions=tuple(actions))
