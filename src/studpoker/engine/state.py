"""The hand state machine: one hand of stud from the antes to the last chip awarded (SPEC sections 4-12a).

>>> from studpoker.engine import HandState, Rules, Variant, Action
>>> rules = Rules(Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=20)
>>> hand = HandState(rules, [200, 200, 200], seed=7)
>>> hand.street, hand.actor, [str(a) for a in hand.legal_actions()]
(3, 1, ['bring in 3', 'complete to 10'])
>>> hand.apply(Action.bring_in(3))
(ActionTaken(player=1, action=Action('bring-in', 3), street=3, all_in=False, added=3),)
>>> [str(a) for a in hand.legal_actions()]
['fold', 'call 3', 'complete to 10']
>>> hand.parse_action("call"), hand.is_legal(Action.call(10))
(Action('call', 3), False)

A state is created from the rules, the players' stacks in position order (player
0 sits at the dealer's left and gets cards first) and either a deck (shuffled
here with a seed or the OS's CSPRNG, or stacked by the caller) or, with
``manual=True``, cards the caller supplies one at a time with :meth:`deal`
(hand histories, live dealing); a card the caller does not know is dealt as
``None`` and can be revealed later. Between decisions the state deals, posts and
settles by itself; it stops only when someone must decide (:attr:`actor` and
:meth:`legal_actions`), when a card must be supplied (:attr:`card_needed`), when
an unknown card must be revealed (:attr:`unknown`), or when the hand is over.
:meth:`apply` changes the state only if the action is legal, and raises
:class:`IllegalActionError` saying why otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, NamedTuple, cast

from ..cards import CARDS, Card, Deck, Rank, format_cards, parse_card, shuffle_in_place
from ..evaluation import high_board_value, high_value, low_board_value, razz_value
from ..evaluation.board import best_board, board_automaton, board_tiebreak
from .actions import Action, ActionKind, words
from .codec import resolve_action
from .errors import ActionError, CardSupplyError, IllegalActionError, RulesError
from .events import (
    ActionTaken,
    AntePosted,
    Awarded,
    Burned,
    CardDealt,
    CommunityCard,
    Event,
    HandEnded,
    Mucked,
    Reshuffled,
    Returned,
    Shown,
    StreetStarted,
)
from .pots import Pot, build_pots, current_pots, uncalled
from .rules import (
    CommunityFirstActor,
    HeadsUpUncap,
    Rules,
    ShortDeckProcedure,
    Stud5Opening,
    Tiebreak,
    Variant,
)
from .settle import Award, Contender, award

__all__ = ["CardRequest", "HandState", "Phase", "PlayerView", "View"]


class Phase(Enum):
    """What the hand is waiting for."""

    DEAL = "deal"  # a card from the caller (manual dealing)
    BET = "bet"  # a player's betting decision
    SHOWDOWN = "showdown"  # a player's show-or-muck decision (auto_show=False)
    REVEAL = "reveal"  # unknown cards that decide a pot
    OVER = "over"


class CardRequest(NamedTuple):
    """The card the dealer needs next in manual dealing: to ``player`` (face up or down), or the
    community card (``player`` is None). A named tuple: asked for before every card, it must be cheap."""

    player: int | None
    face_up: bool
    street: int


_SHOWDOWN, _BET, _DEAL = Phase.SHOWDOWN, Phase.BET, Phase.DEAL

_REQUESTS: dict[tuple[int, int, int], CardRequest] = {}  # HandState.card_needed's answers, by (op, player, street)


def _known(card: Card | None) -> Card:
    """A card the caller has checked is known."""
    assert card is not None
    return card


def _rank(card: Card | None) -> int:
    return _known(card).rank


def _board_worth(low: bool) -> tuple[int, ...]:
    """Board values by automaton state: high boards, or razz boards with ``low``."""
    _, high, razz = board_automaton()
    return razz if low else high


def _board_steps() -> tuple[tuple[int, ...], ...]:
    return board_automaton()[0]


# _CLOCKWISE[n][p]: the players after p around a table of n, ending with p itself.
_CLOCKWISE = {n: tuple(tuple((p + i) % n for i in range(1, n + 1)) for p in range(n)) for n in range(2, 11)}
# Hot events are built with tuple.__new__ directly: a named tuple's generated __new__ is a
# Python function, and a hand logs a few dozen cards and actions.
_tuple = tuple.__new__

# Dealing operations, executed in order for each street.
_BURN, _DOWN, _UP, _COMMUNITY, _SCRAMBLE, _RROP = range(6)


_K_FOLD, _K_CHECK, _K_CALL, _K_BRING_IN = ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN
_K_COMPLETE, _K_BET, _K_RAISE = ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE
#: The actions that put chips in.
_WAGERS = frozenset({_K_CALL, _K_BRING_IN, _K_COMPLETE, _K_BET, _K_RAISE})
_ACTIONS: dict[ActionKind, dict[int, Action]] = {kind: {} for kind in ActionKind}
_CALLS = _ACTIONS[ActionKind.CALL]
_FOLD, _CHECK = Action.fold(), Action.check()


def _action(kind: ActionKind, amount: int) -> Action:
    """Actions are immutable: one object per (kind, amount), so legal sets cost no allocations."""
    cache = _ACTIONS[kind]
    action = cache.get(amount)
    if action is None:
        action = cache[amount] = Action(kind, amount)
    return action


def _low_key(card: Card) -> tuple[int, int]:
    """Razz bring-in order: ace lowest (R12a.2)."""
    return (0 if card.rank == Rank.ACE else card.rank + 1, card.suit)


_BLANK = object()

# Every attribute of a hand state (its __slots__; copy() and the irregularity undo walk them).
_SLOTS = (
    "_acted",
    "_aggressor",
    "_antes",
    "_auto_show",
    "_bet",
    "_bid",
    "_choosing",
    "_big_wager",
    "_burns",
    "_capped",
    "_community",
    "_completion",
    "_dead",
    "_dealt",
    "_deck",
    "_down",
    "_duty",
    "_first_actor",
    "_first_street",
    "_folded",
    "_full",
    "_h_start",
    "_inc",
    "_last_street",
    "_legal",
    "_manual",
    "_min_reach",
    "_misdesignated",
    "_mucked",
    "_n_active",
    "_n_live",
    "_open_pair",
    "_opened",
    "_ops",
    "_raises",
    "_seed",
    "_showdown_order",
    "_shown",
    "_start",
    "_targets",
    "_to_call",
    "_total",
    "_up",
    "_used",
    "_views",
    "_awards",
    "_events",
    "_stacks",
    "actor",
    "n",
    "phase",
    "rules",
    "street",
)


class HandState:
    """One hand of stud. See the module docstring for the life cycle.

    Everything a caller reads is read-only: ``stacks``, ``events``, ``awards``, ``totals`` and ``bets`` are tuples
    made for the caller; ``rules``, ``n``, ``street``, ``phase`` and ``actor`` are plain attributes that only the
    state itself sets (setting one from outside is not supported and breaks the hand). Change a hand only through
    :meth:`apply`, :meth:`deal`, :meth:`reveal`, :meth:`set_first_actor` and the misdesignation methods.
    """

    __slots__ = _SLOTS

    # -- creation ---------------------------------------------------------------------------------

    def __init__(
        self,
        rules: Rules,
        stacks: Sequence[int],
        *,
        seed: int | None = None,
        deck: Deck | Sequence[Card] | None = None,
        manual: bool = False,
        auto_show: bool = True,
    ) -> None:
        """Post the antes and deal until the first decision.

        ``deck``: cards in dealing order (top first), for stacked decks; otherwise a
        deck is shuffled with ``seed`` (reproducible) or, without a seed, with the
        CSPRNG. ``seed`` also drives the scramble of the short-deck procedure.
        ``auto_show``: at showdown every live hand is shown (cards speak); with
        ``False`` each player in turn decides to show or muck (R9.3, R9.4).
        """
        if rules is _BLANK:  # an empty shell for copy() to fill in
            return
        if not isinstance(rules, Rules):
            raise RulesError(f"rules must be a Rules, got {type(rules).__name__}")
        n = len(stacks)
        if not 2 <= n <= rules.max_seats:  # type: ignore[operator]
            raise RulesError(f"{rules.variant.title} is played by 2 to {rules.max_seats} players, got {n}")
        unit = rules.chip_unit
        given: list[object] = list(cast("Sequence[object]", stacks))  # checked before they are used as ints
        for p, s in enumerate(given):
            if type(s) is not int or s < unit:  # bool is not accepted either
                raise RulesError(f"player {p}'s stack must be a whole number of chips >= {unit}, got {s!r}")
            if s % unit:
                raise RulesError(f"player {p}'s stack {s} is not a multiple of chip_unit {unit}")
        self.rules = rules
        self.n = n
        self._stacks = list(stacks)
        self._start = tuple(stacks)
        self._total = [0] * n
        self._bet = [0] * n
        self._folded = [False] * n
        self._mucked = [False] * n
        self._dead = [False] * n  # hands declared dead, mucked as the showdown begins (declare_dead)
        self._shown = [False] * n
        self._down: list[list[Card | None]] = [[] for _ in range(n)]
        self._bid = [0] * n  # each board as a state of evaluation.board.board_automaton()
        self._up: list[list[Card | None]] = [[] for _ in range(n)]  # None: dealt up, unknown (manual dealing)
        self._community: Card | None = None
        self._burns: list[Card | None] = []
        self._dealt = 0  # bit i: card index i dealt by hand (manual dealing), to refuse duplicates
        self._manual = manual
        self._auto_show = auto_show
        if manual:
            if deck is not None:
                raise RulesError("give either a deck or manual=True, not both")
            self._deck: list[Card] = []
        else:
            if deck is None:
                cards = list(CARDS)
                shuffle_in_place(cards, seed)
            else:
                cards = list(deck.cards if isinstance(deck, Deck) else deck)
                if len(set(cards)) != len(cards) or not all(isinstance(c, Card) for c in cards):
                    raise RulesError("a stacked deck must hold distinct Card objects")
            self._deck = cards[::-1]  # top of the deck at the end: pop() deals
        self._seed = seed
        self._used = 0  # cards dealt or burned (the stub is 52 - used in manual dealing)
        five = rules.variant is Variant.STUD5
        self._first_street, self._last_street = (2, 5) if five else (3, 7)
        self._events: list[Event] = []
        # view()'s event logs, by viewer (-1: a spectator): events seen, who had shown, the log then
        self._views: dict[int, tuple[int, tuple[bool, ...], tuple[Event, ...]]] = {}
        self._awards: list[Award] = []
        self._ops: list[tuple[int, int]] = []
        self.street = 0
        self.phase = Phase.BET
        self.actor: int | None = None
        self._legal: tuple[Action, ...] | None = None
        self._min_reach = 0
        self._choosing = False  # the first actor depends on an unknown up card: the caller names him
        self._misdesignated: tuple[HandState, int] | None = None
        self._showdown_order: list[int] = []
        self._reset_round()
        ante, log, stacks_now, total = rules.ante, self._events.append, self._stacks, self._total
        for p in range(n):
            amount = ante if stacks_now[p] > ante else stacks_now[p]
            stacks_now[p] -= amount
            total[p] = amount
            log(_tuple(AntePosted, (p, amount, not stacks_now[p])))
        # antes as dead money in the main pot (ante_side_pots off), else part of each total like any chip (R5.2)
        self._antes: tuple[int, ...] | None = None if rules.ante_side_pots else tuple(total)
        self._n_live = n  # kept up to date: counting on every decision would be slow
        self._n_active = n - stacks_now.count(0)
        self._begin_street(3 if rules.variant is not Variant.STUD5 else 2)
        self._advance()

    def _reset_round(self) -> None:
        self._bet = [0] * self.n
        self._acted: list[int | None] = [None] * self.n
        self._to_call = 0
        self._full = 0
        self._opened = False
        self._raises = 0
        self._capped = False
        self._big_wager = False
        self._open_pair = False
        self._aggressor: int | None = None
        self._first_actor: int | None = None
        self._targets: tuple[ActionKind, tuple[int, ...], tuple[Action, ...]] | None = None
        self._duty = 0  # 1: the bring-in must post; 2: the bring-in is all-in, the next player must open (R5.6)
        self._completion = False
        self._inc = self.rules.small_bet
        self._h_start = 0

    # -- public read-only state -----------------------------------------------------------------

    @property
    def first_street(self) -> int:
        """3 (third street), or 2 in five-card stud."""
        return self._first_street

    @property
    def last_street(self) -> int:
        """7 (the river), or 5 in five-card stud."""
        return self._last_street

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def pot(self) -> int:
        """All chips put in so far (antes and bets, before any are returned or awarded)."""
        return sum(self._total)

    @property
    def stacks(self) -> tuple[int, ...]:
        """Each player's chips behind (not in the pot), in position order."""
        return tuple(self._stacks)

    @property
    def events(self) -> tuple[Event, ...]:
        """The hand's full event log so far (every card: not for players; see :meth:`view`)."""
        return tuple(self._events)

    @property
    def awards(self) -> tuple[Award, ...]:
        """What each pot paid to whom, once the hand is over (empty before)."""
        return tuple(self._awards)

    @property
    def totals(self) -> tuple[int, ...]:
        """Each player's total contribution to the pot this hand."""
        return tuple(self._total)

    @property
    def bets(self) -> tuple[int, ...]:
        """Each player's contribution in the current betting round."""
        return tuple(self._bet)

    @property
    def to_call(self) -> int:
        """The amount every active player must have in this round to stay (D1.8)."""
        return self._to_call

    def cost(self, action: Action) -> int:
        """The chips ``action`` puts in for the player to act (``0`` for a fold, a check, a show or a muck, or with
        nobody to act): a call's cost is what ``call N`` says at the table (:func:`~studpoker.engine.action_words`).

        >>> rules = Rules(Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=20)
        >>> hand = HandState(rules, [200, 200, 200], seed=7)
        >>> _ = hand.apply(Action.bring_in(3)); _ = hand.apply(Action.complete(10)); _ = hand.apply(Action.call(10))
        >>> hand.actor, hand.cost(Action.call(10)), hand.cost(Action.raise_to(20))
        (1, 7, 17)
        """
        if self.actor is None or action.kind not in _WAGERS:
            return 0
        return action.amount - self._bet[self.actor]

    @property
    def raises(self) -> int:
        """Raises on the current street after its opening bet or completion (R6.4): what the raise cap counts.

        The bring-in, the opening bet (or completion) and short all-ins that do not re-open the betting are not
        raises. Between streets and after the hand it is the last betting round's count; 0 once a new round
        begins."""
        return self._raises

    @property
    def capped(self) -> bool:
        """True when the raise cap now bars another raise on this street (R6.4, R6.6): the betting is opened,
        ``rules.raise_cap`` is set, :attr:`raises` has reached it, and the cap still applies (heads-up play may
        lift it, as ``rules.headsup_uncap`` says). This is the condition :meth:`legal_actions` uses, so while it
        is True nobody is offered a raise."""
        rules = self.rules
        cap = rules.raise_cap
        return self._opened and cap is not None and self._raises >= cap and self._cap_bars()

    @property
    def uncapped(self) -> bool:
        """True when the table has a raise cap that does not apply now because the betting is heads-up (R6.6, as
        ``rules.headsup_uncap`` says): raises go on until the stacks run out, and a table says so ("cap off
        heads-up") rather than show a cap that :meth:`legal_actions` does not enforce."""
        return self.rules.raise_cap is not None and not self._cap_bars()

    @property
    def starting_stacks(self) -> tuple[int, ...]:
        return self._start

    def folded(self, player: int) -> bool:
        return self._folded[player]

    def all_in(self, player: int) -> bool:
        return not self._folded[player] and self._stacks[player] == 0

    def up_cards(self, player: int) -> tuple[Card | None, ...]:
        """The player's face-up cards in the order dealt (his board, R4.6)."""
        return tuple(self._up[player])

    def down_cards(self, player: int) -> tuple[Card | None, ...]:
        """The player's face-down cards (``None`` for a card dealt as unknown). Not for players: use view()."""
        return tuple(self._down[player])

    @property
    def community_card(self) -> Card | None:
        return self._community

    @property
    def card_needed(self) -> CardRequest | None:
        """In manual dealing, the card the dealer must supply next with :meth:`deal`."""
        if self.phase is not Phase.DEAL:
            return None
        op, p = self._ops[-1]
        key = (op, p, self.street)
        request = _REQUESTS.get(key)
        if request is None:  # a handful of distinct requests: each is made once, then shared
            community = op == _COMMUNITY
            request = _REQUESTS[key] = CardRequest(None if community else p, community or op == _UP, self.street)
        return request

    @property
    def unknown(self) -> tuple[int, ...]:
        """Players whose unknown cards must be revealed before the pots can be awarded."""
        if self.phase is not Phase.REVEAL:
            return ()
        return tuple(p for p in self._contenders() if None in self._down[p] or None in self._up[p])

    @property
    def pots(self) -> list[Pot]:
        """Main and side pots as they stand: a side pot only behind an all-in player (bets not yet called
        are in the last pot until they are called or returned)."""
        live = [not self._folded[p] and not self._mucked[p] for p in range(self.n)]
        all_in = [live[p] and self._stacks[p] == 0 for p in range(self.n)]
        return current_pots(self._total, live, all_in, self.phase is Phase.OVER, self._antes)

    def can_win(self, player: int) -> bool:
        """Whether ``player``'s hand would take at least a share of a pot against the hands shown so far (True
        before any is shown, and for a hand the engine does not know whole). At the showdown a hand that cannot
        may be mucked without giving anything up (R9.4): a card room asks its owner whether to show, or mucks it
        for him, and shows every other hand (cards speak).

        >>> rules = Rules(Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=20)
        >>> hand = HandState(rules, [200, 200], seed=7, auto_show=False)
        >>> while hand.phase is not Phase.SHOWDOWN:
        ...     _ = hand.apply(next(a for a in hand.legal_actions() if a.kind.value in ("check", "call", "bring-in")))
        >>> first = hand.actor
        >>> hand.can_win(first)                     # nothing shown yet: the first hand shows
        True
        >>> _ = hand.apply(Action.show())
        >>> hand.can_win(hand.actor), hand.can_win(first)
        (False, True)
        """
        own = (*self._down[player], *self._up[player])
        if None in own:
            return True
        shown = [q for q in range(self.n) if q != player and self._shown[q] and not self._mucked[q]]
        if not shown:
            return True

        def known(q: int) -> tuple[Card, ...]:
            return tuple(c for c in (*self._down[q], *self._up[q]) if c is not None)

        entries = [Contender(q, known(q), self._community) for q in (*shown, player)]
        nominal = Pot(self.rules.chip_unit * 4 * self.n, tuple(sorted((*shown, player))))
        return any(a.player == player and a.amount for a in award(self.rules, [nominal], entries))

    def live_players(self) -> list[int]:
        """Players still in the hand (not folded, not mucked), in position order."""
        return [p for p in range(self.n) if not self._folded[p] and not self._mucked[p]]

    def active_players(self) -> list[int]:
        """Live players who can still act (not all-in)."""
        return [p for p in range(self.n) if not self._folded[p] and self._stacks[p] > 0]

    # -- dealing ----------------------------------------------------------------------------------

    def _begin_street(self, street: int) -> None:
        self.street = street
        self._events.append(_tuple(StreetStarted, (street,)))
        rules = self.rules
        live = [p for p in range(self.n) if not self._folded[p]]
        ops: list[tuple[int, int]] = []
        if street == self._first_street and not self._manual and not rules.burn_before_first_deal:
            pop, log, up, down = self._deck.pop, self._events.append, self._up, self._down
            for _ in range(1 if rules.variant is Variant.STUD5 else 2):  # down cards, one round at a time
                for p in live:
                    card = pop()
                    down[p].append(card)
                    log(_tuple(CardDealt, (p, card, False, street)))
            bid, step = self._bid, _board_steps()
            for p in live:  # then the door cards
                card = pop()
                up[p].append(card)
                bid[p] = step[bid[p]][card.index >> 2]
                log(_tuple(CardDealt, (p, card, True, street)))
            self._used += len(down[live[0]]) * len(live) + len(live)
        elif street == self._first_street:
            if rules.burn_before_first_deal:
                ops.append((_BURN, -1))
            downs = 1 if rules.variant is Variant.STUD5 else 2
            for _ in range(downs):
                ops += [(_DOWN, p) for p in live]
            ops += [(_UP, p) for p in live]
        elif street == self._last_street:
            face = _UP if rules.variant is Variant.STUD5 and rules.stud5_last_card_up else _DOWN
            ops = self._last_street_plan(len(live))
            if ops[-1][0] != _COMMUNITY:
                ops += [(face, p) for p in live]
        elif not self._manual:  # a middle street from the deck: burn one, one up card each
            pop, log, up = self._deck.pop, self._events.append, self._up
            burned = pop()
            self._burns.append(burned)
            log(_tuple(Burned, (burned,)))
            bid, step = self._bid, _board_steps()
            for p in live:
                card = pop()
                up[p].append(card)
                bid[p] = step[bid[p]][card.index >> 2]
                log(_tuple(CardDealt, (p, card, True, street)))
            self._used += 1 + len(live)
        else:
            ops = [(_BURN, -1)] + [(_UP, p) for p in live]
        ops.reverse()  # the next operation is at the end: pop() takes it
        self._ops = ops
        self.phase = Phase.DEAL

    def _stub(self) -> int:
        return 52 - self._used

    def _last_street_plan(self, live: int) -> list[tuple[int, int]]:
        """Burn-and-deal, scramble, or community card for the last street (R8)."""
        stub, burns = self._stub(), len(self._burns)
        if self.rules.short_deck_procedure is ShortDeckProcedure.TDA:
            required = live + 1 + (1 if self.rules.reserve_bottom_card else 0)
            if stub >= required:
                return [(_BURN, -1)]
            if stub + burns >= required:
                return [(_SCRAMBLE, -1), (_BURN, -1)]
            if stub >= 3:
                return [(_BURN, -1), (_COMMUNITY, -1)]
            return [(_SCRAMBLE, -1), (_BURN, -1), (_COMMUNITY, -1)]
        # RRoP: everyone gets his own card iff stub + burns >= live hands (R8.4).
        if stub + burns >= live:  # the stub's last card is never dealt straight: it is mixed with the burns
            return [(_BURN, -1)] if stub >= live + 2 else [(_RROP, live)]
        if stub >= 2:
            return [(_BURN, -1), (_COMMUNITY, -1)]
        return [(_SCRAMBLE, -1), (_BURN, -1), (_COMMUNITY, -1)]

    def _run_ops(self) -> bool:
        """Execute dealing operations; False if waiting for a card from the caller."""
        ops = self._ops
        deck, events, street, manual = self._deck, self._events, self.street, self._manual
        while ops:
            op, p = ops[-1]
            if op in (_UP, _DOWN) and not manual:  # the common case, inlined
                card = deck.pop()
                if op == _UP:
                    self._up[p].append(card)
                    self._bid[p] = _board_steps()[self._bid[p]][card.index >> 2]
                else:
                    self._down[p].append(card)
                events.append(_tuple(CardDealt, (p, card, op == _UP, street)))
                self._used += 1
            elif op == _BURN:
                burned = self._deck.pop() if not self._manual else None
                self._burns.append(burned)
                self._used += 1
                self._events.append(Burned(burned))
            elif op == _SCRAMBLE:
                self._scramble()
            elif op == _RROP:
                self._rrop(p)
            elif self._manual:
                self.phase = Phase.DEAL
                return False
            else:
                self._place(op, p, self._deck.pop())
            ops.pop()
            deck = self._deck  # a scramble replaces the deck
        return True

    def _scramble(self) -> None:
        """Scramble the stub with every burn card and cut (R8.2 steps 2 and 4)."""
        count = self._stub() + len(self._burns)
        if not self._manual:
            pool: list[Card] = self._deck + [c for c in self._burns if c is not None]
            shuffle_in_place(pool, self._scramble_seed())
            self._deck = pool
        self._used -= len(self._burns)
        self._burns = []
        self._events.append(Reshuffled(count))

    def _scramble_seed(self) -> int | None:
        """Seed of the short-deck scramble: derived from the hand's seed (the same in every copy),
        or None for the CSPRNG."""
        return None if self._seed is None else (self._seed << 8) | self._used

    def _rrop(self, live: int) -> None:
        """RRoP (R8.4): burn, deal the stub down to its last card, mix it with the burns, scramble,
        cut, burn again unless that leaves too few cards, and go on dealing."""
        stub = self._stub()
        if not self._manual:
            top_first = self._deck[::-1]
            burn = top_first[:1] if stub >= 2 else []
            dealt = top_first[len(burn) : stub - 1]
            pool = top_first[stub - 1 :] + [c for c in self._burns if c is not None] + burn
            shuffle_in_place(pool, self._scramble_seed())
            missing = live - len(dealt)
            second = pool[:1] if len(pool) - 1 >= missing else []
            pool = pool[len(second) :]
            for c in burn:
                self._events.append(Burned(c))
            self._events.append(Reshuffled(len(pool) + len(second)))
            for c in second:
                self._events.append(Burned(c))
            self._burns = []
            self._deck = (dealt + pool)[::-1]
            self._used = 52 - len(self._deck)
        else:  # the same steps with unseen cards: the same events and counts as from the deck
            burns = 1 if stub >= 2 else 0
            straight = max(stub - 1 - burns, 0)  # dealt from the stub before the scramble
            mixed = min(stub, 1) + len(self._burns) + burns
            again = 1 if mixed - 1 >= live - straight else 0
            if burns:
                self._events.append(Burned(None))
            self._events.append(Reshuffled(mixed))
            if again:
                self._events.append(Burned(None))
            self._burns = []
            self._used = 52 - (straight + mixed - again)

    def _place(self, op: int, p: int, card: Card | None) -> None:
        self._used += 1
        if op == _COMMUNITY:
            self._community = card
            self._events.append(CommunityCard(card))
        elif op == _UP:
            self._up[p].append(card)
            bid = self._bid[p]
            self._bid[p] = -1 if card is None or bid < 0 else _board_steps()[bid][card.index >> 2]
            self._events.append(CardDealt(p, card, True, self.street))
        else:
            self._down[p].append(card)
            self._events.append(CardDealt(p, card, False, self.street))

    def deal(self, card: Card | str | None) -> tuple[Event, ...]:
        """Supply the next card in manual dealing (see :attr:`card_needed`); ``None`` = unknown down card. Returns
        the events it logged (the card, and what followed by itself until the next card or decision)."""
        start = len(self._events)
        if self.phase is not Phase.DEAL:
            raise CardSupplyError("no card is needed now: the hand is not waiting for the dealer")
        op, p = self._ops[-1]
        if isinstance(card, str):
            card = parse_card(card)
        if card is None:
            if op == _COMMUNITY:
                raise CardSupplyError("the community card must be known, got an unknown card")
        elif not isinstance(card, Card):
            raise CardSupplyError(f"expected a Card, card text or None, got {card!r}")
        elif self._dealt >> card.index & 1:
            raise CardSupplyError(f"{card} has already been dealt in this hand")
        self._ops.pop()
        if card is not None:
            self._dealt |= 1 << card.index
        self._place(op, p, card)
        self._advance()
        return tuple(self._events[start:])

    def _known_cards(self) -> set[Card]:
        known: set[Card] = set()
        for p in range(self.n):
            known.update(c for c in self._down[p] if c is not None)
            known.update(c for c in self._up[p] if c is not None)
        if self._community is not None:
            known.add(self._community)
        return known

    # -- the main loop ----------------------------------------------------------------------------

    def _advance(self) -> None:
        """Deal, start and end rounds until someone must decide or the hand is over."""
        self._legal = None
        while True:
            phase = self.phase
            if phase is _BET:
                if self.actor is not None or self._choosing:
                    return
                self._end_round()
                continue
            if phase is _DEAL:
                if self._ops and not self._run_ops():
                    self.actor = None
                    return
                self._begin_round()
                continue
            if phase is _SHOWDOWN:
                if self.actor is not None:
                    return
                self._settle()
                return
            return

    # -- betting rounds ---------------------------------------------------------------------------

    def _begin_round(self) -> None:
        rules, n = self.rules, self.n
        # A fresh betting round (what _reset_round does, inlined: this runs on every street).
        self._bet = [0] * n
        self._acted = [None] * n
        self._to_call = self._full = self._raises = self._duty = 0
        self._opened = self._capped = self._big_wager = self._open_pair = self._completion = False
        self._aggressor = self._first_actor = None
        self._targets = None
        self._inc = rules.small_bet if self.street - self._first_street < 2 else rules.big_bet
        self.phase = _BET
        self._h_start = active = self._n_active
        stacks, folded = self._stacks, self._folded
        self._min_reach = min([stacks[q] for q in range(n) if not folded[q] and stacks[q]], default=0)
        if self.street == self._last_street and self._community is not None and not rules.community_card_betting:
            self.actor = None  # no betting after a community card (R8.5, seed doc C)
            return
        if active <= 1:  # R4.7: nobody to bet against
            self.actor = None
            return
        first_round = self.street == self._first_street
        if first_round and not (rules.variant is Variant.STUD5 and rules.stud5_opening is Stud5Opening.HIGH_CARD_OPENS):
            self._completion = True
            bring_in = self._bring_in_player()
            if bring_in is None:  # an unknown door card decides it: the caller says who (set_first_actor)
                self._choosing, self.actor = True, None
                return
            if self._stacks[bring_in] > 0:
                self._duty = 1
                self._first_actor = bring_in
                self.actor = bring_in
            else:  # R5.6: the bring-in is all-in for the ante
                self._duty = 2
                self.actor = self._next_active(bring_in)
                self._first_actor = self.actor
            return
        first: int | None
        if first_round:  # five-card stud, HIGH_CARD_OPENS: highest door, ties by position (R7.7)
            live = self.live_players()
            doors = [self._up[p][0] for p in live]
            first = None if None in doors else max(live, key=lambda p: (_rank(self._up[p][0]), -p))
        else:
            if self.street == 4 and rules.open_pair_double_bet and rules.variant is not Variant.STUD5:
                self._open_pair = self._any_open_pair()
            if self.street == 3 and rules.open_pair_double_bet and rules.variant is Variant.STUD5:
                self._open_pair = self._any_open_pair()
            first = self._high_board_player()
        if first is None:  # an unknown up card decides it: the caller says who (set_first_actor)
            self._choosing, self.actor = True, None
            return
        self._first_actor = first
        self.actor = first if self._stacks[first] > 0 else self._next_active(first)  # R7.5

    def _any_open_pair(self) -> bool:
        return any(
            len(u) >= 2 and u[0] is not None and u[1] is not None and u[0].rank == u[1].rank
            for p, u in enumerate(self._up)
            if not self._folded[p]
        )

    def _bring_in_player(self) -> int | None:
        """Lowest door card, suits breaking ties (R5.3); razz: highest door, ace low (R12a.2).
        None if an unknown door card could decide it."""
        live = self.live_players()
        if any(self._up[p][0] is None for p in live):
            return None
        if self.rules.variant is Variant.RAZZ:
            return max(live, key=lambda p: _low_key(_known(self._up[p][0])))
        # Index order is rank, then suit; folded players (none on the first street) sort last.
        doors = [99 if self._folded[p] else _known(up[0]).index for p, up in enumerate(self._up)]
        return doors.index(min(doors))

    def set_first_actor(self, player: int) -> None:
        """Name the first player to act when an unknown up card decides it (manual dealing, e.g. a hand
        history that does not show every door card): the bring-in on the first street, else the best board.

        The choice must agree with the cards that are known: a player whose known door (board) is
        beaten by another player's known door (board) cannot be named.
        """
        if not self._choosing:
            raise IllegalActionError("the first player to act is already known")
        live = self.live_players()
        if player not in live:
            raise IllegalActionError(f"player {player} is not in the hand")
        if self.street == self._first_street and self._completion:
            door = self._up[player][0]
            if door is not None:
                razz = self.rules.variant is Variant.RAZZ
                for q in live:
                    other = self._up[q][0]
                    if (
                        other is not None
                        and q != player
                        and (_low_key(other) > _low_key(door) if razz else other.index < door.index)
                    ):
                        raise IllegalActionError(
                            f"R5.3: player {q} shows {other}, so player {player} does not bring in"
                        )
            self._choosing = False
            if self._stacks[player] > 0:
                self._duty, self._first_actor, self.actor = 1, player, player
            else:  # R5.6
                self._duty = 2
                self.actor = self._first_actor = self._next_active(player)
        else:
            table, bid = _board_worth(self.rules.variant is Variant.RAZZ), self._bid
            if bid[player] >= 0:
                for q in live:
                    if bid[q] >= 0 and table[bid[q]] > table[bid[player]]:
                        raise IllegalActionError(f"R7.2: player {q}'s board is better than player {player}'s")
            self._choosing = False
            self._first_actor = player
            self.actor = player if self._stacks[player] > 0 else self._next_active(player)
        self._legal = None
        if self.actor is None:
            self._advance()

    def declare_open_pair(self) -> None:
        """Say that an open pair shows on the double-bet street when unknown up cards hide it (manual dealing,
        e.g. a hand history that does not show the up cards), so that the big bet may be made (R6.14).

        Refused unless the rule is on, this is that street's betting, and some live player's first two up
        cards are not both known (known cards that show no pair cannot be contradicted)."""
        rules = self.rules
        street = 3 if rules.variant is Variant.STUD5 else 4
        if not self._manual or not rules.open_pair_double_bet or self.street != street or self.actor is None:
            raise IllegalActionError(
                "R6.14: an open pair can be declared only in the double-bet round of a manual deal"
            )
        if self._open_pair:
            return
        hidden = any(
            len(u) >= 2 and (u[0] is None or u[1] is None) for p, u in enumerate(self._up) if not self._folded[p]
        )
        if not hidden:
            raise IllegalActionError("R6.14: every live up card is known, and no pair shows")
        self._open_pair = True
        self._legal = self._targets = None

    @property
    def first_actor_needed(self) -> bool:
        """True while an unknown up card leaves the first actor open (see :meth:`set_first_actor`)."""
        return self._choosing

    def _high_board_player(self) -> int | None:
        """The best board among live hands acts first (R7.2-R7.4, R8.6, R12a.3)."""
        rules = self.rules
        folded, mucked = self._folded, self._mucked
        live = [p for p in range(self.n) if not folded[p] and not mucked[p]]
        if any(self._bid[p] < 0 for p in live):
            return None  # an unknown up card could decide it
        low = rules.variant is Variant.RAZZ
        by_suit = rules.later_street_tiebreak is Tiebreak.HIGH_CARD_BY_SUIT
        if (
            self._community is not None
            and self.street == self._last_street
            and rules.community_first_actor is CommunityFirstActor.HIGH_WITH_COMMUNITY
        ):
            community = self._community
            if len(self._up[live[0]]) >= 4:  # a full five-card poker hand: straights and flushes count
                value: Any = razz_value if low else high_value
            else:  # five-card stud: three up cards and the community card are a four-card board
                value = low_board_value if low else high_board_value

            def key(p: int) -> tuple[Any, ...]:
                up = [_known(c) for c in self._up[p]]
                tie = board_tiebreak(up, low=low) if by_suit else ()
                return (value([*up, community]), tie, -p)

            return max(live, key=key)
        table, bid = _board_worth(low), self._bid
        values = [table[bid[p]] for p in live]
        top = max(values)
        if not by_suit or values.count(top) == 1:
            return live[values.index(top)]  # ties: the earliest position (R7.4 POSITION)
        boards = [[_known(c).index for c in self._up[p]] for p in live]
        return live[best_board(boards, low=low, by_suit=True)]

    def _next_active(self, after: int) -> int | None:
        n = self.n
        for i in range(1, n + 1):
            q = (after + i) % n
            if not self._folded[q] and self._stacks[q] > 0:
                return q
        return None

    def _end_round(self) -> None:
        """Close the betting round: return uncalled chips (R11.2), then settle, show down or deal on."""
        self._duty = 0
        who, excess = uncalled(self._wagered())
        if excess:  # at the end of a round, chips nobody matched can no longer be matched
            self._refund(who, excess)
        if self._n_live == 1:
            self._settle()
        elif self.street == self._last_street:
            self._start_showdown()
        else:
            self._begin_street(self.street + 1)

    def _wagered(self) -> list[int]:
        """What each player put in that can be uncalled: everything (R11.2), antes aside when they are dead money."""
        antes = self._antes
        if antes is None:
            return self._total
        return [t - a for t, a in zip(self._total, antes, strict=True)]

    def _refund(self, player: int, amount: int) -> None:
        if self._stacks[player] == 0 and not self._folded[player]:
            self._n_active += 1
        self._total[player] -= amount
        self._bet[player] = max(0, self._bet[player] - amount)
        self._stacks[player] += amount
        self._events.append(Returned(player, amount))

    # -- legal actions ----------------------------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """Everything the player to act may do now, with amounts (round totals); empty if nobody is to act."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def _compute_legal(self) -> tuple[Action, ...]:
        p = self.actor
        if p is None:
            return ()
        if self.phase is _SHOWDOWN:
            return (Action.show(), Action.muck())
        rules = self.rules
        stack, mine, to_call = self._stacks[p], self._bet[p], self._to_call
        if self._duty:  # the bring-in (R5.4, R5.5, R5.7) or the player who must open for him (R5.6)
            b, small = rules.bring_in, rules.small_bet
            out = [] if self._duty == 1 else [_FOLD]
            out.append(_action(ActionKind.BRING_IN, min(b, stack)))
            if b < small and stack > b:
                out.append(_action(ActionKind.COMPLETE, min(small, stack)))
            return tuple(out)
        reach = mine + stack
        if mine < to_call:
            call = _CALLS.get(to_call if to_call < reach else reach) or _action(_K_CALL, min(to_call, reach))
            out = [_FOLD, call]
        elif rules.allow_fold_when_check_available:
            out = [_FOLD, _CHECK]
        else:
            out = [_CHECK]
        # An aggressive action (R6.8.4) needs chips beyond the call and aggression open (R6.9).
        # Inlined (this runs at every decision): re-opening (R6.9), the cap (R6.4, R6.6), an answer.
        if reach <= to_call or self._n_active < 2:
            return tuple(out)
        acted = self._acted[p]
        if acted is not None:
            half = rules.small_bet if self._completion and not self._opened else self._inc
            if 2 * (to_call - acted) < half:
                return tuple(out)
        if self._opened and rules.raise_cap is not None and self._raises >= rules.raise_cap and self._cap_bars():
            return tuple(out)
        # Someone can answer a wager (all can while the amount to call is below the smallest stack
        # the round started with: folds only remove players).
        if to_call >= self._min_reach and not self._can_be_answered(p):
            return tuple(out)
        cached = self._targets
        if cached is None:  # the same for every player until the next wager or round
            kind, targets = self._aggressive_targets()
            cached = self._targets = (kind, targets, tuple(_action(kind, t) for t in targets))
        kind, targets, actions = cached
        # Targets ascend and all exceed the amount to call; one the player cannot reach becomes an
        # all-in for his whole stack, and so would every larger one.
        for target, action in zip(targets, actions):  # noqa: B905 - same length by construction
            if target < reach:
                out.append(action)
            else:
                out.append(_action(kind, reach))
                break
        return tuple(out)

    def _cap_bars(self) -> bool:
        """The raise cap is reached: does it still apply (R6.4, R6.6)?"""
        mode = self.rules.headsup_uncap
        if mode is HeadsUpUncap.NEVER:
            return True
        if mode is HeadsUpUncap.ROUND_BEGINS_HEADSUP:
            return self._h_start != 2
        return self._n_active >= 3 or self._capped

    def _aggressive_targets(self) -> tuple[ActionKind, tuple[int, ...]]:
        """The kind and the target totals of a full wager now (R6.8; two sizes under R6.14)."""
        if not self._opened:
            if self._completion:
                return _K_COMPLETE, (self.rules.small_bet,)
            kind = _K_COMPLETE if self._to_call > 0 else _K_BET
            if self._open_pair and not self._big_wager and self.rules.big_bet > self.rules.small_bet:
                return kind, (self.rules.small_bet, self.rules.big_bet)
            return kind, (self._inc,)
        if self._open_pair and not self._big_wager and self.rules.big_bet > self.rules.small_bet:
            return _K_RAISE, (self._full + self.rules.small_bet, self._full + self.rules.big_bet)
        return _K_RAISE, (self._full + self._inc,)

    def _can_be_answered(self, p: int) -> bool:
        """Some opponent could put in more than the amount to call (else a wager is pointless)."""
        to_call, folded, stacks, bet = self._to_call, self._folded, self._stacks, self._bet
        return any(q != p and not folded[q] and stacks[q] and bet[q] + stacks[q] > to_call for q in range(self.n))

    def _half_base(self) -> int:
        """The bet whose half re-opens the betting or makes an all-in a full wager (R6.9, R6.12, R6.14.4)."""
        if self._completion and not self._opened:
            return self.rules.small_bet
        return self._inc

    # -- applying actions -------------------------------------------------------------------------

    def apply(self, action: Action) -> tuple[Event, ...]:
        """Take an action for the player to act and return the events it logged: the action, then what followed
        by itself (cards dealt, a street begun, the showdown, the pots awarded). Illegal actions raise
        :class:`IllegalActionError` and change nothing."""
        start = len(self._events)
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        for candidate in legal:  # the legal set's own objects (what bots pass) by identity: no __eq__ calls
            if candidate is action:
                break
        else:
            self._check_legal(action, legal)
        p: int = self.actor  # type: ignore[assignment]  # a legal action means someone is to act
        if self.phase is _SHOWDOWN:
            self._showdown_decision(p, action)
        else:
            self._bet_action(p, action)
        return tuple(self._events[start:])

    def is_legal(self, action: object) -> bool:
        """Whether the player to act may take ``action`` now (``action in legal_actions()``; anything that is not
        an :class:`Action` is not legal)."""
        return action in self.legal_actions()

    def parse_action(self, text: object) -> Action:
        """The legal action ``text`` names, as a player says it: ``call``, ``check``, ``fold``, ``bring in``,
        ``complete``, ``bet``, ``raise``, ``show``, ``muck``, with the round total where it is not the only one
        (``raise to 40``, ``call 7`` and ``complete 10`` are read too). :class:`ActionError` for text that is no
        action, :class:`IllegalActionError` (listing the legal actions) for one not legal now."""
        if not isinstance(text, str):
            raise ActionError(f"an action is text such as 'call' or 'raise to 40', got {text!r}")
        said = words(text) if len(text) <= 60 else None
        if said is None:
            raise ActionError(
                f"not an action: {text[:40]!r}; say fold, check, call, bring in, complete, bet, raise (to N),"
                " show or muck"
            )
        kind, amount = said
        return resolve_action(kind, amount, self.legal_actions(), repr(text))

    def _check_legal(self, action: Action, legal: tuple[Action, ...]) -> None:
        """Raise unless ``action`` equals one of the legal actions."""
        if action not in legal:
            if not isinstance(action, Action):
                raise IllegalActionError(f"expected an Action, got {action!r}")
            if self.actor is None:
                raise IllegalActionError(f"nobody is to act: the hand is {self._waiting_for()}")
            allowed = ", ".join(str(a) for a in legal)
            raise IllegalActionError(
                f"player {self.actor} may not {action} now ({self.why_illegal(action)}); legal: {allowed}"
            )

    def why_illegal(self, action: Action) -> str:
        """The SPEC rule that forbids ``action`` for the player to act now, in words ("R6.4: ...").

        Meant for error messages; an action that is legal gets ``"legal"``.
        """
        legal = self.legal_actions()
        if action in legal:
            return "legal"
        if self.actor is None:
            return f"nobody is to act: the hand is {self._waiting_for()}"
        kind, kinds = action.kind, {a.kind for a in legal}
        p, rules = self.actor, self.rules
        if self.phase is _SHOWDOWN:
            return "R9.3-R9.4: at the showdown each player in turn shows or mucks"
        if kind in (ActionKind.SHOW, ActionKind.MUCK):
            return "R9.3: hands are shown or mucked at the showdown, after the last betting round"
        if self._duty == 1:
            if kind in (ActionKind.BRING_IN, ActionKind.COMPLETE):
                return "R5.4: the bring-in posts " + " or ".join(str(a) for a in legal)
            return "R5.4: the bring-in must post the bring-in or complete, and cannot fold or check first"
        if self._duty == 2 and kind in (ActionKind.CHECK, ActionKind.CALL):
            return "R5.6: the bring-in is all-in for the ante: the next player must fold, bring in or complete"
        if kind is ActionKind.BRING_IN:
            return "R5.3: only the lowest door card brings in, once, on the first round"
        if kind is ActionKind.FOLD:
            return "R6.8: this table does not allow folding when a check is available"
        if kind is ActionKind.CHECK:
            return f"R6.8: there is a bet to call ({self._to_call - self._bet[p]} more)"
        if kind is ActionKind.CALL:
            call = next((a for a in legal if a.kind is ActionKind.CALL), None)
            return "R6.8: there is nothing to call" if call is None else f"R6.8: calling means putting in {call.amount}"
        aggressive = [a for a in legal if a.kind.aggressive]
        if not aggressive:
            if self._bet[p] + self._stacks[p] <= self._to_call:
                return "R6.8: the player has no chips beyond a call"
            acted = self._acted[p]
            if acted is not None and 2 * (self._to_call - acted) < self._half_base():
                return "R6.9: the betting was not re-opened to this player (less than half a bet since he acted)"
            if self._opened and rules.raise_cap is not None and self._raises >= rules.raise_cap:
                return f"R6.4, R6.6: the betting is capped ({self._raises} raises after the opening bet)"
            return "R6.8: no opponent could call a wager (docs/engine.md)"
        allowed = " or ".join(f"{a.kind.value} to {a.amount}" for a in aggressive)
        if kind not in kinds:
            return f"R6.3, R6.8: the wager here is {allowed}"
        return f"R6.2: bets and raises come in fixed steps: {allowed}"

    # -- live-dealer irregularity: the wrong bring-in (R13.2, TC-45) ------------------------------

    def misdesignate_bring_in(self, player: int) -> None:
        """The dealer wrongly told ``player`` to bring in, and he posted it (live dealing, R13.2).

        Until the next player acts, :meth:`correct_bring_in` takes the chips back and the
        true low card must bring in; once anyone acts, the wager stands and the true low
        card has no obligation.
        """
        true_player = self.actor
        if self.phase is not Phase.BET or self._duty != 1 or true_player is None:
            raise IllegalActionError("a bring-in can only be misdesignated before the bring-in is posted")
        if not 0 <= player < self.n or player == true_player or self._folded[player] or self._stacks[player] == 0:
            raise IllegalActionError(f"player {player} cannot be designated to bring in")
        before = self.copy()
        self.actor = player
        self._legal = None
        self._bet_action(player, _action(ActionKind.BRING_IN, min(self.rules.bring_in, self._stacks[player])))
        self._misdesignated = (before, len(self._events))

    def declare_dead(self, player: int) -> None:
        """``player``'s hand is dead (a live dealer finds it foul: the wrong number of cards, Robert's Rules' dead
        hands): it plays on as dealt, but as the showdown begins it is mucked before any hand is shown, so it
        cannot win and its chips stay in the pot, with an all-in too (where every other hand is turned up). Declared
        before the showdown; a console deals the hand again with it declared."""
        if type(player) is not int or not 0 <= player < self.n:
            raise IllegalActionError(f"there is no player {player!r} in this hand of {self.n}")
        if self.phase in (Phase.SHOWDOWN, Phase.REVEAL, Phase.OVER):
            raise IllegalActionError("a hand is declared dead before the showdown begins")
        if self._folded[player]:
            raise IllegalActionError(f"player {player} has folded: his hand is out already")
        self._dead[player] = True

    @property
    def dead_hands(self) -> tuple[int, ...]:
        """The players whose hands were declared dead (:meth:`declare_dead`)."""
        return tuple(p for p in range(self.n) if self._dead[p])

    @property
    def misdesignated_bring_in(self) -> int | None:
        """The player whose wrong bring-in (:meth:`misdesignate_bring_in`) was not taken back: his wager stands
        once the next player acts (R13.2). ``None`` when the dealer designated nobody wrongly, or corrected it."""
        if self._misdesignated is None:
            return None
        made = self._events[self._misdesignated[1] - 1]
        assert isinstance(made, ActionTaken)
        return made.player

    def correct_bring_in(self) -> None:
        """Undo a misdesignated bring-in if nobody has acted since (R13.2): the chips go back and
        the true low card must bring in (or complete)."""
        if self._misdesignated is None or len(self._events) != self._misdesignated[1]:
            raise IllegalActionError("no misdesignated bring-in to correct: the next player has already acted")
        before, _ = self._misdesignated
        wrong = next(e.player for e in reversed(self._events) if isinstance(e, ActionTaken))
        amount = self._bet[wrong]
        events = self._events
        restored = before.copy()  # fresh lists: a copy of this hand corrected too must not share them
        for name in _SLOTS:
            if name != "_events":
                setattr(self, name, getattr(restored, name))
        self._events = events
        self._events.append(Returned(wrong, amount))
        self._misdesignated = None

    def _waiting_for(self) -> str:
        if self.phase is Phase.DEAL:
            return "waiting for a card (deal())"
        if self.phase is Phase.REVEAL:
            return f"waiting for unknown cards of players {list(self.unknown)} (reveal())"
        return "over"

    def _pay(self, p: int, total: int) -> None:
        chips = total - self._bet[p]
        self._stacks[p] -= chips
        self._bet[p] = total
        self._total[p] += chips
        if self._stacks[p] == 0 and chips:
            self._n_active -= 1

    def _bet_action(self, p: int, action: Action) -> None:
        kind = action.kind
        stacks = self._stacks
        before = self._bet[p]
        if kind is _K_CALL:
            bet = self._bet
            chips = action.amount - bet[p]
            stacks[p] -= chips
            bet[p] = action.amount
            self._total[p] += chips
            if not stacks[p]:
                self._n_active -= 1
            self._acted[p] = self._to_call
        elif kind is _K_CHECK:
            self._acted[p] = self._to_call
        elif kind is _K_FOLD:
            self._folded[p] = True
            self._n_live -= 1
            self._n_active -= 1
        elif kind is _K_BRING_IN:
            amount = action.amount
            self._pay(p, amount)
            self._to_call = max(self._to_call, self.rules.bring_in)  # R6.10: others owe the full bring-in
            if self.rules.bring_in >= self.rules.small_bet:
                # R5.7: a bring-in of the small bet is the opening bet, with no completion after it; posted short
                # (R5.5) it still is, since the others owe the full bring-in (R6.10): they call it or raise
                self._opened, self._full = True, self.rules.bring_in
            self._duty = 0
            self._acted[p] = self._to_call
            self._aggressor = p if self._opened else self._aggressor
            self._targets = None
        else:
            self._wager(p, kind, action.amount)
        added = self._bet[p] - before
        self._events.append(_tuple(ActionTaken, (p, action, self.street, not stacks[p] and not self._folded[p], added)))
        self._legal = None
        # The next player clockwise who must still act (R6.7, R6.13); after a fold under R5.6 the
        # next player has the same options. Inlined: it runs after every action.
        actor = None
        if self._n_live > 1:
            folded, acted, bet, to_call = self._folded, self._acted, self._bet, self._to_call
            for q in _CLOCKWISE[self.n][p]:
                if folded[q] or not stacks[q] or (acted[q] is not None and bet[q] >= to_call):
                    continue
                if not self._duty and self._n_active == 1:  # R6.13(c): alone, and nobody has more in
                    most = max((bet[o] for o in range(self.n) if o != q and not folded[o]), default=0)
                    if bet[q] >= most:
                        continue
                actor = q
                break
        self.actor = actor
        if actor is None:  # the round is over: deal on, show down or settle
            self._advance()

    def _wager(self, p: int, kind: ActionKind, amount: int) -> None:
        """Complete, bet or raise to ``amount`` (R6.3-R6.5, R6.12, R6.14)."""
        rules = self.rules
        small, big = rules.small_bet, rules.big_bet
        before = self._full if self._opened else 0
        cached = self._targets
        regular = amount in (cached[1] if cached is not None else self._aggressive_targets()[1])
        stacks, bet = self._stacks, self._bet
        chips = amount - bet[p]
        stacks[p] -= chips
        bet[p] = amount
        self._total[p] += chips
        if not stacks[p]:
            self._n_active -= 1
        if regular or 2 * (amount - before) >= self._half_base():  # a full bet, completion or raise
            if self._opened:
                self._raises += 1
            elif self._completion:  # the completion is the round's first full bet: it re-opens the
                acted = self._acted  # betting for whoever only posted or called the bring-in (R6.3)
                for q in range(self.n):
                    if acted[q] is not None:
                        acted[q] = 0
            self._opened = True
            self._full = amount
            if self._open_pair and not self._big_wager and amount - before >= big > small:
                self._big_wager = True
                self._inc = big
        self._to_call = max(self._to_call, amount)
        self._duty = 0
        self._aggressor = p
        self._targets = None
        self._acted[p] = self._to_call
        cap = rules.raise_cap
        if cap is not None and self._raises >= cap and self._n_active >= 3:
            self._capped = True

    # -- showdown and settlement ------------------------------------------------------------------

    def _contenders(self) -> list[int]:
        return [p for p in range(self.n) if not self._folded[p] and not self._mucked[p]]

    def _start_showdown(self) -> None:
        for p in range(self.n):  # dead hands first: mucked, they cannot win (declare_dead)
            if self._dead[p] and not self._folded[p] and not self._mucked[p]:
                self._mucked[p] = True
                self._events.append(Mucked(p))
        live = self.live_players()
        if len(live) == 1:  # every other hand dead: the last wins unseen (R9.4)
            self._showdown_order = live
            self.phase = Phase.SHOWDOWN
            self.actor = None
            return
        first = self._aggressor if self._aggressor is not None else self._first_actor
        if first is None or first not in live:  # no betting on the final round: the high board (R9.3)
            first = self._high_board_player()
            if first is None:  # unknown up cards: show down from the first live player
                first = live[0]
        order = sorted(live, key=lambda p: (p - first) % self.n)  # clockwise from the first to show (R9.3)
        self._showdown_order = order
        all_in = any(self._stacks[p] == 0 for p in live)
        self.phase = Phase.SHOWDOWN
        if self._auto_show or all_in:  # R9.2: with an all-in, every hand is turned up
            for p in order:
                self._show(p)
            self.actor = None
        else:
            self.actor = order[0]

    def _show(self, p: int) -> None:
        self._shown[p] = True
        self._events.append(Shown(p, (*self._down[p], *self._up[p])))

    def _showdown_decision(self, p: int, action: Action) -> None:
        if action.kind is ActionKind.SHOW:
            if action.cards:
                self.reveal(p, action.cards, _advance=False)
            self._show(p)
            self._events.append(ActionTaken(p, action, self.street, False))
        else:
            self._mucked[p] = True
            self._events.append(ActionTaken(p, action, self.street, False))
            self._events.append(Mucked(p))
        remaining = [q for q in self._showdown_order if not self._shown[q] and not self._mucked[q]]
        undecided = [q for q in remaining if q != p]
        alive = [q for q in self._showdown_order if not self._mucked[q]]
        if len(alive) == 1:
            self.actor = None  # everyone else mucked: the last hand wins unseen (R9.4)
        else:
            self.actor = undecided[0] if undecided else None
        self._legal = None
        if self.actor is None:
            self._settle()

    def reveal(self, player: int, cards: Sequence[Card | str], *, _advance: bool = True) -> None:
        """Fill in a player's unknown cards with the cards now shown.

        ``cards`` is either the player's whole hand in dealing order (as PHH writes a show:
        known cards must match, unknown ones are filled in place), or just the cards that
        were unknown, in the order they were dealt.
        """
        parsed = [parse_card(c) if isinstance(c, str) else c for c in cards]
        slots = self._dealing_order(player)
        current = [self._down[player][i] if down else self._up[player][i] for down, i in slots]
        hidden = [k for k, c in enumerate(current) if c is None]
        if len(parsed) == len(slots) and len(parsed) != len(hidden):  # the whole hand, in order
            for k, (card, shown) in enumerate(zip(current, parsed, strict=True)):
                if card is not None and card != shown:
                    raise CardSupplyError(f"player {player}'s card {k + 1} is {card}, not {shown}")
            new = [parsed[k] for k in hidden]
        else:
            mine = {c for c in current if c is not None}
            new = [c for c in parsed if c not in mine]
            if len(new) != len(hidden):
                raise CardSupplyError(
                    f"player {player} has {len(hidden)} unknown card(s); got {len(new)} new card(s): "
                    f"{format_cards(parsed)}"
                )
        taken = self._known_cards() - {c for c in current if c is not None}
        for c in new:
            if c in taken:
                raise CardSupplyError(f"{c} is already in another hand or on the board")
        if len(set(new)) != len(new):
            raise CardSupplyError(f"the same card twice in {format_cards(new)}")
        for k, c in zip(hidden, new, strict=True):
            down, i = slots[k]
            (self._down if down else self._up)[player][i] = c
            self._dealt |= 1 << c.index
        if any(not down for down, _ in (slots[k] for k in hidden)):
            self._rebuild_board(player)
        if _advance and self.phase is Phase.REVEAL:
            self._settle()

    def _dealing_order(self, player: int) -> list[tuple[bool, int]]:
        """The player's cards in dealing order, as (face down?, index in the down or up list)."""
        order: list[tuple[bool, int]] = []
        downs = ups = 0
        for event in self._events:
            if type(event) is CardDealt and event.player == player:
                if event.face_up:
                    order.append((False, ups))
                    ups += 1
                else:
                    order.append((True, downs))
                    downs += 1
        return order

    def _rebuild_board(self, player: int) -> None:
        bid = 0
        for card in self._up[player]:
            bid = -1 if card is None or bid < 0 else board_automaton()[0][bid][card.index >> 2]
        self._bid[player] = bid

    def _settle(self) -> None:
        """Return uncalled chips, build the pots and award them (R11)."""
        who, excess = uncalled(self._wagered())
        if excess:
            self._refund(who, excess)
        contenders = self._contenders()
        if len(contenders) == 1:  # everyone else folded or mucked: one award, no evaluation
            self._awards = [Award(contenders[0], sum(self._total), 0, "pot")]
        else:
            live = [not self._folded[p] and not self._mucked[p] for p in range(self.n)]
            pots = build_pots(self._total, live, self._antes)
            contested = any(len(pot.eligible) > 1 for pot in pots)
            if contested and any(None in self._down[p] or None in self._up[p] for p in contenders):
                self.phase = Phase.REVEAL
                self.actor = None
                return
            entries = [
                Contender(p, tuple(c for c in (*self._down[p], *self._up[p]) if c is not None), self._community)
                for p in contenders
            ]
            self._awards = award(self.rules, pots, entries)
        for a in self._awards:
            self._stacks[a.player] += a.amount
            self._events.append(Awarded(*a))
        self.phase = Phase.OVER
        self.actor = None
        self._events.append(HandEnded(tuple(self._stacks)))

    # -- copies and views -------------------------------------------------------------------------

    def copy(self) -> HandState:
        """An independent copy (cheap: lists of small values are copied, immutable parts shared)."""
        new = HandState(cast(Rules, _BLANK), ())
        for name in _SLOTS:
            value = getattr(self, name)
            if type(value) is list:
                value = [v[:] if type(v) is list else v for v in value]
            elif name == "_views":  # a copy's log grows on its own
                value = {}
            elif name == "_misdesignated" and value is not None:  # the state to go back to: its own too
                value = (value[0].copy(), value[1])
            setattr(new, name, value)
        return new

    def view(self, viewer: int | None) -> View:
        """What ``viewer`` may know (``None``: a spectator). Hidden cards are ``None``; nothing else leaks."""
        events = self.events_seen_by(viewer)  # which refuses a viewer who is no player here
        # built at every step of a served hand: locals, and no generator per player
        stacks, bets, totals, folded, ups, downs, shown = (
            self._stacks,
            self._bet,
            self._total,
            self._folded,
            self._up,
            self._down,
            self._shown,
        )
        players: list[PlayerView] = []
        for p in range(self.n):
            down: tuple[Card | None, ...] = tuple(downs[p]) if p == viewer or shown[p] else (None,) * len(downs[p])
            out = folded[p]
            players.append(
                PlayerView(p, stacks[p], bets[p], totals[p], out, not out and stacks[p] == 0, tuple(ups[p]), down)
            )
        return View(
            viewer=viewer,
            variant=self.rules.variant,
            street=self.street,
            phase=self.phase,
            players=tuple(players),
            community=self._community,
            pot=self.pot,
            to_call=self._to_call,
            actor=self.actor,
            legal_actions=self.legal_actions(),
            events=events,
        )

    def events_seen_by(self, viewer: int | None) -> tuple[Event, ...]:
        """The event log as ``viewer`` sees it (``None``: a spectator), as :meth:`view` has it, without building
        the rest of the view. The log only grows and what a viewer may see changes only when a hand is shown, so
        the last answer is extended rather than rebuilt (bots and servers ask at every turn).

        >>> state = HandState(Rules(Variant.RAZZ, ante=1, bring_in=2, small_bet=4, big_bet=8), [50, 50], seed=3)
        >>> sorted({(e.face_up, e.card is None) for e in state.events_seen_by(None) if isinstance(e, CardDealt)})
        [(False, True), (True, False)]
        >>> state.events_seen_by(0) == state.view(0).events
        True
        """
        if viewer is not None and not 0 <= viewer < self.n:
            raise IllegalActionError(f"no player {viewer} at this table")
        key = -1 if viewer is None else viewer
        shown = tuple(self._shown)
        events = self._events
        cached = self._views.get(key)
        if cached is not None and cached[1] == shown and cached[0] <= len(events):
            seen, log = cached[0], cached[2]
            if seen < len(events):
                log += tuple(self._visible(e, viewer) for e in events[seen:])
        else:
            log = tuple(self._visible(e, viewer) for e in events)
        self._views[key] = (len(events), shown, log)
        return log

    def _visible(self, event: Event, viewer: int | None) -> Event:
        if isinstance(event, CardDealt) and not event.face_up and event.player != viewer:
            if not self._shown[event.player]:
                return CardDealt(event.player, None, False, event.street)  # not _replace: built at every step
        elif isinstance(event, Burned) and event.card is not None:
            return Burned(None)
        return event

    def __repr__(self) -> str:
        return (
            f"<HandState {self.rules.variant.value} street={self.street} phase={self.phase.value} "
            f"actor={self.actor} pot={self.pot} stacks={self._stacks}>"
        )

    def _repr_svg_(self) -> str:
        """The table as a spectator sees it (:func:`studpoker.svg.table`: hidden down cards stay face down)."""
        from ..svg import table  # imported here: drawing is for notebooks, and the engine does not need it

        return str(table(self))

    def _repr_html_(self) -> str:
        return self._repr_svg_()


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One player as a viewer sees him: chips, bets, and cards (``None`` where hidden)."""

    player: int
    stack: int
    bet: int
    total: int
    folded: bool
    all_in: bool
    up: tuple[Card | None, ...]
    down: tuple[Card | None, ...]


@dataclass(frozen=True, slots=True)
class View:
    """What one seat (or a spectator, ``viewer=None``) may know about the hand."""

    viewer: int | None
    variant: Variant
    street: int
    phase: Phase
    players: tuple[PlayerView, ...]
    community: Card | None
    pot: int
    to_call: int
    actor: int | None
    legal_actions: tuple[Action, ...]
    events: tuple[Event, ...]

    def cost(self, action: Action) -> int:
        """The chips ``action`` puts in for the player to act, as :meth:`HandState.cost` says it."""
        if self.actor is None or action.kind not in _WAGERS:
            return 0
        return action.amount - self.players[self.actor].bet
