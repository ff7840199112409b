"""One chunk of a simulation: :func:`play_chunk` plays hands ``k * chunk`` on, a pure function of (spec, k).

Everything random in chunk ``k`` comes from ``numpy.random.SeedSequence(seed, spawn_key=(k, j))``: the deals
(``j = 0``), the bots' seeds (``j = 1``, fresh bots for every chunk) and which hands' histories are kept
(``j = 2``). So the same chunk gives the same :class:`ChunkResult` in any process, on any machine of a Ray
cluster, in any order: merged in chunk order, a run is identical however many workers played it.

The hands are driven directly on :class:`~studpoker.engine.HandState`, the way
:func:`~studpoker.bots.play_hand` drives a table's hand: every hand starts afresh from the same stacks (no
buy-ins, top-ups or busts to keep), and duplicate mode deals by hand (``manual=True``), which a table does not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..bots import Bot, BotError
from ..cards import CARDS, Card
from ..engine import HandState, Phase
from .spec import SimulationSpec

__all__ = ["ChunkResult", "SeatDealer", "play_chunk", "running_bots"]

_DEAL, _OVER = Phase.DEAL, Phase.OVER

#: Hands whose seeds (plain mode) and sampling draws are taken from their streams at once.
_BLOCK = 4096

#: The bots of the chunk this process is playing, so that a worker told to stop mid-chunk can close them first
#: (their programs, for external bots); empty between chunks.
running_bots: list[Bot] = []


@dataclass(frozen=True, slots=True)
class ChunkResult:
    """What a chunk played, as exact integer sums (so merging is exact and order-free), by bot ``i`` and seat ``s``.

    ``net[i]``, ``squares[i]``: the sum of bot ``i``'s result per hand (chips) and of its squares.
    ``seat_net[i][s]``, ``seat_squares[i][s]``, ``seat_hands[i][s]``: the same for bot ``i`` in seat ``s``.
    Duplicate mode: ``deals``, ``deal_squares[i]`` (the sum over deals of the square of bot ``i``'s total in the
    deal's rotations) and ``seat_deal_squares[s]`` (the same for seat ``s``'s total). ``histories``: the kept
    hands as (hand number from 1, PHH text).
    """

    index: int
    first: int
    hands: int
    net: tuple[int, ...]
    squares: tuple[int, ...]
    seat_net: tuple[tuple[int, ...], ...]
    seat_squares: tuple[tuple[int, ...], ...]
    seat_hands: tuple[tuple[int, ...], ...]
    deals: int
    deal_squares: tuple[int, ...]
    seat_deal_squares: tuple[int, ...]
    histories: tuple[tuple[int, str], ...]


class SeatDealer:
    """Cards for a hand dealt by hand from one shuffled deck, by seat: seat ``p`` always gets the cards
    ``order[p * L : (p + 1) * L]`` in turn, whoever else is dealt in or folds, so each rotation of a deal gives
    each seat the same cards. ``L`` is the cards a player may get (7, or 5 in five-card stud) when they all fit
    in the deck, otherwise ``52 // seats`` (6 for eight players of a seven-card game). The rest of the deck is a
    reserve for the community card and, past a seat's ``L`` cards, its last card; when the reserve is used up,
    the undealt cards of folded seats follow. Cards are distinct within a hand.

    >>> from studpoker.engine import Rules, Variant
    >>> rules = Rules(Variant.RAZZ, ante=1, bring_in=3, small_bet=10, big_bet=20)
    >>> dealer = SeatDealer(list(range(52)), players=3, cards=7)
    >>> state = HandState(rules, [200, 200, 200], manual=True)
    >>> dealer.start()
    >>> while state.phase is Phase.DEAL:
    ...     dealer.deal(state)
    >>> [str(c) for c in state.down_cards(1) + state.up_cards(1)]    # seat 2's first three cards: indices 7, 8, 9
    ['3s', '4c', '4d']
    """

    __slots__ = ("_given", "_reserve", "_seats", "_spare", "_width")

    def __init__(self, order: Sequence[int], players: int, cards: int) -> None:
        width = min(cards, 52 // players)
        deck = [CARDS[i] for i in order]
        self._width = width
        self._seats = [deck[p * width : (p + 1) * width] for p in range(players)]
        self._reserve = deck[players * width :]
        self._given = [0] * players
        self._spare = 0

    def start(self) -> None:
        """A new hand from the same deal (the next rotation)."""
        self._given = [0] * len(self._seats)
        self._spare = 0

    def deal(self, state: HandState) -> None:
        """Deal the card ``state`` asks for (its :attr:`~studpoker.engine.HandState.card_needed`)."""
        request = state.card_needed
        assert request is not None
        p = request.player
        if p is not None and self._given[p] < self._width:
            card = self._seats[p][self._given[p]]
            self._given[p] += 1
        else:
            card = self._spare_card(state)
        state.deal(card)

    def _spare_card(self, state: HandState) -> Card:
        if self._spare < len(self._reserve):
            self._spare += 1
            return self._reserve[self._spare - 1]
        for q, cards in enumerate(self._seats):  # the undealt cards of folded seats, in seat order
            if state.folded(q) and self._given[q] < self._width:
                self._given[q] += 1
                return cards[self._given[q] - 1]
        raise AssertionError("the deck ran out of cards")  # the engine never asks for more than the deck holds


def _play_hand(state: HandState, seated: Sequence[Bot], hooks: Sequence[bool], dealer: SeatDealer | None) -> None:
    """Play ``state`` to the end with ``seated[p]`` deciding for player ``p``. ``hooks[p]``: that bot overrides
    ``new_hand``/``hand_over`` (the others are not handed views they would ignore: a view costs more than a
    built-in bot's decision). An action that is not legal raises :class:`~studpoker.bots.BotError`."""
    if dealer is not None:
        dealer.start()
        while state.phase is _DEAL:
            dealer.deal(state)
    if any(hooks):
        for p, bot in enumerate(seated):
            if hooks[p]:
                bot.new_hand(state.view(p))
    while True:
        if state.phase is _DEAL:
            assert dealer is not None
            dealer.deal(state)
            continue
        actor = state.actor
        if actor is None:
            break
        view = state.view(actor)
        bot = seated[actor]
        action = bot.act(view)
        if action not in view.legal_actions:
            raise BotError(
                f"{bot!r} in seat {actor + 1} chose {action}, which is not legal;"
                f" legal: {', '.join(str(a) for a in view.legal_actions)}"
            )
        state.apply(action)
    if state.phase is not _OVER:
        raise AssertionError(f"the hand stopped in phase {state.phase.value}")
    if any(hooks):
        for p, bot in enumerate(seated):
            if hooks[p]:
                bot.hand_over(state.view(p))


def _overrides(bot: Bot) -> bool:
    """Whether ``bot`` does something on ``new_hand`` or ``hand_over``."""
    kind = type(bot)
    return kind.new_hand is not Bot.new_hand or kind.hand_over is not Bot.hand_over


def _history(state: HandState, names: Sequence[str], number: int) -> str:
    from ..history import phh, record_hand

    seats = tuple(range(1, len(names) + 1))
    record = record_hand(state, players=names, seats=seats, info={"hand": number, "table": "stud simulate"})
    return phh.dumps(record)


def play_chunk(spec: SimulationSpec, k: int) -> ChunkResult:
    """Play chunk ``k`` of ``spec`` (whose seed must be set): a pure function of its arguments.

    In hand ``h`` bot ``i`` sits in seat ``(i + h) % n`` and every bot starts with ``spec.stack_chips``. The
    chips of every hand are checked (the results sum to zero). External bots start their program here and are
    closed at the end, also on an error.
    """
    import numpy as np

    if spec.seed is None:
        raise ValueError("play_chunk needs a spec with its seed set")
    if not 0 <= k < spec.chunks:
        raise ValueError(f"chunk {k} is not one of the {spec.chunks} chunks of this simulation")
    rules = spec.rules()
    n, stack, hands = spec.players, spec.stack_chips, spec.chunk_range(k)

    def stream(j: int) -> np.random.Generator:
        return np.random.Generator(np.random.PCG64(np.random.SeedSequence(spec.seed, spawn_key=(k, j))))

    deals, sampling = stream(0), stream(2)
    seeds = tuple(int(x) >> 1 for x in np.random.SeedSequence(spec.seed, spawn_key=(k, 1)).generate_state(n, np.uint64))
    hand_seeds: list[int] = []
    keep: list[bool] = []

    net, squares = [0] * n, [0] * n
    seat_net, seat_squares, seat_hands = ([[0] * n for _ in range(n)] for _ in range(3))
    deal_total, deal_squares, seat_total, seat_deal_squares = [0] * n, [0] * n, [0] * n, [0] * n
    histories: list[tuple[int, str]] = []
    bots = spec.make_bots(seeds, rules)
    running_bots[:] = bots
    try:
        hooks = [_overrides(bot) for bot in bots]
        starting = [stack] * n
        dealer: SeatDealer | None = None
        for h in hands:
            j = (h - hands.start) % _BLOCK  # the streams are read a block at a time, whatever the chunk's size
            if j == 0:
                size = min(_BLOCK, hands.stop - h)
                if not spec.duplicate:
                    hand_seeds = deals.integers(0, 2**63, size=size, dtype=np.int64).tolist()
                if spec.sample > 0:
                    keep = (sampling.random(size) < spec.sample).tolist()
            rotation = h % n
            if spec.duplicate:
                if rotation == 0:
                    dealer = SeatDealer(deals.permutation(52).tolist(), n, rules.variant.cards)
                state = HandState(rules, starting, manual=True)
            else:
                state = HandState(rules, starting, seed=hand_seeds[j])
            order = [(p - h) % n for p in range(n)]  # the bot in each seat
            _play_hand(state, [bots[i] for i in order], [hooks[i] for i in order], dealer)
            results = [s - stack for s in state.stacks]
            if sum(results) != 0:
                raise AssertionError(f"hand {h + 1}: the chips do not add up ({results})")
            for p, x in enumerate(results):
                i = order[p]
                net[i] += x
                squares[i] += x * x
                seat_net[i][p] += x
                seat_squares[i][p] += x * x
                seat_hands[i][p] += 1
            if spec.duplicate:
                for p, x in enumerate(results):
                    deal_total[order[p]] += x
                    seat_total[p] += x
                if rotation == n - 1:
                    for j in range(n):
                        deal_squares[j] += deal_total[j] ** 2
                        seat_deal_squares[j] += seat_total[j] ** 2
                    deal_total, seat_total = [0] * n, [0] * n
            if spec.sample > 0 and keep[j]:
                histories.append((h + 1, _history(state, [spec.names[i] for i in order], h + 1)))
    finally:
        running_bots.clear()
        for bot in bots:
            bot.close()
    return ChunkResult(
        index=k,
        first=hands.start,
        hands=len(hands),
        net=tuple(net),
        squares=tuple(squares),
        seat_net=tuple(map(tuple, seat_net)),
        seat_squares=tuple(map(tuple, seat_squares)),
        seat_hands=tuple(map(tuple, seat_hands)),
        deals=len(hands) // n if spec.duplicate else 0,
        deal_squares=tuple(deal_squares) if spec.duplicate else (),
        seat_deal_squares=tuple(seat_deal_squares) if spec.duplicate else (),
        histories=tuple(histories),
    )
