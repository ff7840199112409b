"""What an agent sees and does: the discrete actions and the NumPy encoding of a seat's view.

Everything here is computed from :meth:`HandState.view(seat) <studpoker.engine.HandState.view>` (what that seat
may know) and the public rules, never from the state itself, so an encoding cannot hold a card its seat may not
see. Both environments share it; docs/rl.md lists every index.

>>> from studpoker.engine import HandState, Rules, Variant
>>> rules = Rules(Variant.RAZZ, ante=1, bring_in=3, small_bet=10, big_bet=20)
>>> hand = HandState(rules, [200, 200], seed=4)
>>> layout = Layout(rules, 2)
>>> view = hand.view(hand.actor)
>>> [str(a) for a in view.legal_actions], action_mask(view.legal_actions).tolist()
(['bring in 3', 'complete to 10'], [0, 0, 1, 1, 0])
>>> obs = layout.encode(view)
>>> obs.shape, layout.decode_cards(obs) == {c.index for c in view.players[hand.actor].down + hand.up_cards(0)
...                                         + hand.up_cards(1)}
((867,), True)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..cards import Card
from ..engine import Action, ActionKind, Phase, Rules, Variant, View
from ..engine.events import ActionTaken, StreetStarted

__all__ = [
    "ACTION_NAMES",
    "BRING_IN",
    "CALL",
    "FOLD",
    "GLOBAL_FEATURES",
    "HISTORY_KINDS",
    "NUM_ACTIONS",
    "RAISE",
    "RAISE_BIG",
    "SEAT_FEATURES",
    "Layout",
    "action_mask",
    "action_slots",
    "card_text",
    "decision_bound",
]

#: The discrete actions: fold; check or call; post the bring-in; complete, bet or raise (the only size, or the
#: smaller of two); the bigger size where the open-pair double bet offers two (R6.14: 4th street in stud).
FOLD, CALL, BRING_IN, RAISE, RAISE_BIG = range(5)
NUM_ACTIONS = 5
ACTION_NAMES = ("fold", "check/call", "bring-in", "complete/bet/raise", "bet/raise the big bet")

#: The per-seat scalars, in order (each at ``Layout.seat_offset(r) + i``).
SEAT_FEATURES = ("stack", "bet", "total", "folded", "all_in", "to_act", "bring_in", "last_aggressor")
#: The table's scalars after the seats (the street takes five places, the variant four).
GLOBAL_FEATURES = (
    *(f"street_{i}" for i in range(5)),
    "pot",
    "to_call",
    "owed",
    "bet_size",
    "wagers",
    "raises",
    "raise_cap",
    "my_turn",
    "over",
    "live",
    *(f"variant_{v.value.lower()}" for v in Variant),
)
#: The kinds an action-history entry distinguishes (information-state tensors).
HISTORY_KINDS = (
    ActionKind.FOLD,
    ActionKind.CHECK,
    ActionKind.CALL,
    ActionKind.BRING_IN,
    ActionKind.COMPLETE,
    ActionKind.BET,
    ActionKind.RAISE,
)

_UP_SLOTS, _DOWN_SLOTS = 4, 3  # the most up and down cards a player holds in any of the four games
_SEAT_CARDS = (_UP_SLOTS + _DOWN_SLOTS) * 52
_KIND_INDEX = {kind: i for i, kind in enumerate(HISTORY_KINDS)}
_VARIANTS = tuple(Variant)
_STUD5, _OVER = Variant.STUD5, Phase.OVER
_BRING = ActionKind.BRING_IN
_SLOT_OF = {
    ActionKind.FOLD: FOLD,
    ActionKind.CHECK: CALL,
    ActionKind.CALL: CALL,
    ActionKind.BRING_IN: BRING_IN,
    ActionKind.COMPLETE: RAISE,
    ActionKind.BET: RAISE,
    ActionKind.RAISE: RAISE,
}


def action_slots(legal: Sequence[Action]) -> list[Action | None]:
    """The engine's action for each discrete action (``None`` where it is not legal now)."""
    slots: list[Action | None] = [None] * NUM_ACTIONS
    for action in legal:
        slot = _SLOT_OF.get(action.kind)
        if slot is None:  # show or muck: the environments deal with auto_show on, so no seat is ever asked
            raise ValueError(f"no discrete action for {action}")
        other = slots[slot]
        if other is not None and slot == RAISE:  # two sizes (R6.14): the bigger is RAISE_BIG
            small, big = (action, other) if action.amount < other.amount else (other, action)
            slots[RAISE], slots[RAISE_BIG] = small, big
        else:
            slots[slot] = action
    return slots


def action_mask(legal: Sequence[Action]) -> npt.NDArray[np.int8]:
    """1 for each discrete action that is legal now, else 0 (int8, length :data:`NUM_ACTIONS`)."""
    return np.array([a is not None for a in action_slots(legal)], dtype=np.int8)


def decision_bound(rules: Rules, stacks: Sequence[int]) -> int:
    """An upper bound on the decisions in one hand (the action history's length).

    A player acts again in a betting round only after the amount to call went up, and it goes up at most by the
    bring-in, one completion a round, one short all-in a player, and full bets and raises, each lifting the
    biggest contribution by a small bet or more (so at most ``max(stacks) // small_bet`` of them in a hand).
    """
    n, rounds = len(stacks), rules.streets
    rises = 1 + rounds + n + max(stacks) // rules.small_bet
    return n * (rounds + rises)


class Layout:
    """The flat float32 observation of one seat at a table of ``players``, and its action-history extension.

    Cards are one-hot blocks of 52 (card index ``4 * rank + suit``), seats are relative to the observer (``r =
    (seat - observer) % players``: 0 is the observer, 1 the next seat clockwise); chip amounts are in big bets.
    """

    def __init__(self, rules: Rules, players: int, chips: int | None = None, decisions: int = 0) -> None:
        self.rules = rules
        self.players = players
        self.big = rules.big_bet
        chips = chips if chips is not None else players * (rules.min_buy_in or 10 * rules.big_bet)
        self.chips = chips
        self.dead = _SEAT_CARDS * players
        self.community = self.dead + 52
        self.cards_end = self.community + 52
        self.seats = self.cards_end
        self.globals = self.seats + len(SEAT_FEATURES) * players
        self.size = self.globals + len(GLOBAL_FEATURES)
        # the action history (information-state tensors): street one-hot, seat one-hot, kind, amount, all-in
        self.decisions = decisions
        self.entry = 5 + players + len(HISTORY_KINDS) + 2
        self.history_size = self.size + decisions * self.entry
        wagers = 2 + rules.streets + players + chips // rules.small_bet
        high = np.ones(self.size, dtype=np.float32)
        for r in range(players):
            base = self.seat_offset(r)
            high[base : base + 3] = chips / self.big
        g = self.globals
        high[g + 5 : g + 9] = chips / self.big
        high[g + 9 : g + 11] = wagers
        high[g + 11] = rules.raise_cap or 0
        if rules.raise_cap is None or rules.raise_cap == 0:
            high[g + 11] = 1  # a bound equal to the low bound would make the Box degenerate there
        #: The upper bound of every observation entry (the lower bound is 0), for the Box space.
        self.high = high

    def seat_offset(self, r: int) -> int:
        """Where relative seat ``r``'s scalars (:data:`SEAT_FEATURES`) begin."""
        return self.seats + len(SEAT_FEATURES) * r

    def up_offset(self, r: int, slot: int) -> int:
        """Relative seat ``r``'s ``slot``-th up card (in the order dealt): 52 entries from here."""
        return _SEAT_CARDS * r + 52 * slot

    def down_offset(self, r: int, slot: int) -> int:
        """Relative seat ``r``'s ``slot``-th down card as the observer knows it (his own, or a shown hand's)."""
        return _SEAT_CARDS * r + 52 * (_UP_SLOTS + slot)

    def encode(self, view: View, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """The observation of ``view.viewer`` (a spectator's view gives seat 0's perspective with no own cards)."""
        obs = np.zeros(self.size, dtype=np.float32) if out is None else out
        if out is not None:
            obs.fill(0.0)
        self._fill(view, obs)
        return obs

    def encode_history(self, view: View) -> npt.NDArray[np.float32]:
        """The observation followed by the hand's actions so far (a perfect-recall information state)."""
        obs = np.zeros(self.history_size, dtype=np.float32)
        self._fill(view, obs)
        n, me = self.players, view.viewer or 0
        first = 2 if view.variant is Variant.STUD5 else 3
        at = self.size
        end = self.history_size
        ones: list[int] = []
        for event in view.events:
            if type(event) is ActionTaken:
                if at >= end:
                    raise ValueError(f"more than {self.decisions} decisions in a hand: the bound is wrong")
                action = event.action
                ones.append(at + event.street - first)
                ones.append(at + 5 + (event.player - me) % n)
                ones.append(at + 5 + n + _KIND_INDEX[action.kind])
                obs[at + self.entry - 2] = action.amount / self.big
                if event.all_in:
                    ones.append(at + self.entry - 1)
                at += self.entry
        obs[ones] = 1.0
        return obs

    def _fill(self, view: View, obs: npt.NDArray[np.float32]) -> None:
        n = self.players
        me = view.viewer if view.viewer is not None else 0
        big = self.big
        dead = self.dead
        ones: list[int] = []
        at: list[int] = []  # the other entries, with their values in `values`
        values: list[float] = []
        players = view.players
        actor = view.actor
        live = 0
        for p in range(n):
            player = players[p]
            r = p - me if p >= me else p - me + n
            base = _SEAT_CARDS * r
            folded = player.folded
            for j, card in enumerate(player.up):
                if card is not None:
                    ones.append(base + 52 * j + card.index)
                    if folded:
                        ones.append(dead + card.index)
            base += 52 * _UP_SLOTS
            for j, card in enumerate(player.down):
                if card is not None:
                    ones.append(base + 52 * j + card.index)
            s = self.seats + 8 * r
            at += (s, s + 1, s + 2)
            values += (player.stack / big, player.bet / big, player.total / big)
            if folded:
                ones.append(s + 3)
            else:
                live += 1
            if player.all_in:
                ones.append(s + 4)
            if actor == p:
                ones.append(s + 5)
        if view.community is not None:
            ones.append(self.community + view.community.index)
        opener, aggressor, wagers = _betting(view, self.rules)
        if opener is not None:
            ones.append(self.seats + 8 * ((opener - me) % n) + 6)
        if aggressor is not None:
            ones.append(self.seats + 8 * ((aggressor - me) % n) + 7)
        g = self.globals
        round_index = max(0, view.street - (2 if view.variant is _STUD5 else 3))
        ones.append(g + min(round_index, 4))
        owed = max(0, view.to_call - players[me].bet) / big if view.viewer is not None else 0.0
        at += range(g + 5, g + 12)
        values += (
            view.pot / big,
            view.to_call / big,
            owed,
            self.rules.bet_size(round_index) / big,
            wagers,
            max(0, wagers - 1),
            self.rules.raise_cap or 0,
        )
        if view.viewer is not None and actor == view.viewer:
            ones.append(g + 12)
        if view.phase is _OVER:
            ones.append(g + 13)
        at.append(g + 14)
        values.append(live / n)
        ones.append(g + 15 + _VARIANTS.index(view.variant))
        obs[ones] = 1.0
        obs[at] = values

    def decode_cards(self, obs: npt.NDArray[np.floating] | Sequence[float]) -> set[int]:
        """Every card index an observation (or an information-state tensor) holds, in any card block."""
        cards = np.asarray(obs)[: self.cards_end]
        return {int(i) % 52 for i in np.flatnonzero(cards)}

    def cards_by_seat(self, obs: npt.NDArray[np.floating]) -> dict[int, tuple[set[int], set[int]]]:
        """Relative seat -> (up card indices, down card indices) as the observation shows them."""
        out: dict[int, tuple[set[int], set[int]]] = {}
        for r in range(self.players):
            block = np.asarray(obs)[_SEAT_CARDS * r : _SEAT_CARDS * (r + 1)]
            up = {int(i) % 52 for i in np.flatnonzero(block[: 52 * _UP_SLOTS])}
            down = {int(i) % 52 for i in np.flatnonzero(block[52 * _UP_SLOTS :])}
            out[r] = (up, down)
        return out


def _betting(view: View, rules: Rules) -> tuple[int | None, int | None, int]:
    """From the view's events: who opened the first street (the bring-in), the street's last aggressor, and how
    many wagers the street has had (completions, bets and raises, and a bring-in of a full small bet, R5.7)."""
    events = view.events
    opener: int | None = None
    for event in events:
        if type(event) is ActionTaken:
            opener = event.player
            break
    else:
        if view.actor is not None:
            opener = view.actor  # nobody has acted: the player to act is the bring-in (or opens, R12.2)
    aggressor: int | None = None
    wagers = 0
    full_bring_in = rules.bring_in >= rules.small_bet
    for event in reversed(events):
        if type(event) is StreetStarted:
            break
        if type(event) is ActionTaken:
            kind = event.action.kind
            if kind.aggressive or (full_bring_in and kind is _BRING):
                wagers += 1
                if aggressor is None:
                    aggressor = event.player
    return opener, aggressor, wagers


def card_text(card: Card | None) -> str:
    """A card as two characters, ``??`` for one the viewer may not see."""
    return "??" if card is None else str(card)
