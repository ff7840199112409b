"""Table sessions (SPEC section 3): seats, buy-ins, top-ups between hands, sitting out, leaving, hand after hand.

A :class:`Table` runs hands of one :class:`~studpoker.engine.Rules` one after another. It owns the
money: every chip that comes to the table is a buy-in or top-up, every chip that leaves it goes with a
player who leaves, so ``money_in == chips_on_table + queued + money_out`` at all times
(:meth:`Table.check_conservation`).

>>> from studpoker.engine import Rules, Variant
>>> table = Table(Rules(Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=20), seed=1)
>>> table.sit("Ann", 200), table.sit("Bob", 300, seat=5)
(1, 5)
>>> table.sit("Cid", 150)
Traceback (most recent call last):
    ...
studpoker.table.TableError: a first buy-in of 150 is below the minimum buy-in of 200 (R3.3)
>>> hand = table.start_hand()
>>> table.players, table.actor_seat          # seat 5 has the low door card: the bring-in
((1, 5), 5)
>>> table.top_up(5, 100)                     # during the hand: queued (R3.4)
False
>>> _ = table.act(table.legal_actions()[0])  # bring in 3 (act returns the events it logged)
>>> _ = table.act(table.legal_actions()[0])  # Ann folds: the hand is over
>>> [(s.number, s.stack) for s in table.occupied], table.hands[-1].number
([(1, 199), (5, 401)], 1)
>>> table.check_conservation()

Seats are numbered from 1, clockwise from the dealer; the cards go to the eligible seats in seat order
(R4.2), so the lowest occupied seat is player 0 of the hand. The table is pure: no I/O and no clock.
Saving a session as a hand-history file is :mod:`studpoker.history.session`'s job.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from .cards import Card
from .engine import Action, ChipsRequest, HandState, Rules, View
from .engine.errors import EngineError
from .engine.events import Event
from .rotation import Rotation, RotationError, Turn

__all__ = ["PlayedHand", "Seat", "Table", "TableError"]


class TableError(ValueError):
    """A request the table's rules do not allow (a short buy-in, a top-up over the maximum, no free seat...);
    the table is unchanged."""


@dataclass(frozen=True, slots=True)
class Seat:
    """One occupied seat as the table sees it between actions.

    ``queued`` chips were bought during a hand the player is in; they are added once it is over (R3.4).
    ``leaving`` and ``sitting_out`` take effect when the current hand ends.
    """

    number: int
    name: str
    stack: int
    sitting_out: bool = False
    queued: int = 0
    leaving: bool = False


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """A finished hand: the engine state at its end (with its event log) and who sat where."""

    number: int
    state: HandState
    seats: tuple[int, ...]
    names: tuple[str, ...]


class Table:
    """A stud table: up to ``rules.max_seats`` seats (8; 10 in five-card stud), one hand at a time.

    ``rules`` is one game's, or a :class:`~studpoker.rotation.Rotation` of games for a mixed table: each hand is
    then dealt in the game the rotation has come to (:attr:`turn`). ``seed`` makes the session reproducible (each
    hand's deck is shuffled from the seed and the hand number); without it decks are shuffled by the operating
    system's CSPRNG.
    """

    def __init__(self, rules: Rules | Rotation, *, seed: int | None = None, name: str = "studpoker") -> None:
        self._rotation: Rotation | None = None
        self._turn = Turn()
        self._rules = self._game_rules(rules)
        self.name = name
        #: Every live hand is shown at the showdown (cards speak; the default). ``False``: each live player in turn
        #: shows or mucks (R9.3, R9.4; ``Phase.SHOWDOWN``), as a card room asks a hand that cannot win. Read when
        #: a hand is dealt, so it may be set between hands.
        self.auto_show = True
        self.seed = seed
        self._seats: dict[int, Seat] = {}
        self._hand: HandState | None = None
        self._players: tuple[int, ...] = ()
        self.hands: list[PlayedHand] = []
        self.hand_number = 0
        self.money_in = 0
        self.money_out = 0

    # -- reading ------------------------------------------------------------------------------------

    @staticmethod
    def _check_rules(rules: object) -> Rules | Rotation:
        if not isinstance(rules, Rules | Rotation):
            raise TableError(f"rules must be a Rules or a Rotation, got {type(rules).__name__}")
        return rules

    def _game_rules(self, rules: Rules | Rotation, turn: Turn | None = None) -> Rules:
        """Take ``rules`` (a rotation starts at ``turn``, its first game by default) and return the next hand's."""
        rules = self._check_rules(rules)
        if isinstance(rules, Rules):
            self._rotation, self._turn = None, Turn()
            return rules
        try:
            self._turn = rules.check_turn(turn or rules.start)
        except RotationError as error:
            raise TableError(str(error)) from None
        self._rotation = rules
        return rules.game(rules.upcoming(self._turn))

    @property
    def rules(self) -> Rules:
        """The rules of the hand in play, or of the next hand between hands (at a mixed table, the game the rotation
        deals next)."""
        return self._rules

    @property
    def rotation(self) -> Rotation | None:
        """The games a mixed table deals in turn (``None``: one game)."""
        return self._rotation

    @property
    def turn(self) -> Turn:
        """Where a mixed table stands in its rotation (after the last hand dealt)."""
        return self._turn

    @property
    def max_seats(self) -> int:
        if self._rotation is not None:
            return self._rotation.max_seats
        seats = self._rules.max_seats
        assert seats is not None
        return seats

    @property
    def min_buy_in(self) -> int:
        """The least a first buy-in may be: the rules', or at a mixed table the biggest of its games'."""
        if self._rotation is not None:
            return self._rotation.min_buy_in
        return self._rules.min_buy_in or 0

    @property
    def max_buy_in(self) -> int | None:
        """The most a stack may be bought up to (``None``: no maximum); at a mixed table, the biggest of its games'."""
        if self._rotation is not None:
            return self._rotation.max_buy_in
        return self._rules.max_buy_in

    @property
    def occupied(self) -> tuple[Seat, ...]:
        """The occupied seats, by number."""
        return tuple(self._seats[n] for n in sorted(self._seats))

    def seat(self, number: int) -> Seat:
        """The player in seat ``number``; :class:`TableError` if it is empty."""
        try:
            return self._seats[number]
        except KeyError:
            raise TableError(f"seat {number} is empty") from None

    @property
    def free_seats(self) -> tuple[int, ...]:
        return tuple(n for n in range(1, self.max_seats + 1) if n not in self._seats)

    @property
    def hand(self) -> HandState | None:
        """The hand in progress, or ``None`` between hands."""
        return self._hand

    @property
    def players(self) -> tuple[int, ...]:
        """The seats dealt into the current hand, in position order (player 0 first)."""
        return self._players

    def player_of(self, seat: int) -> int | None:
        """The seat's player index in the current hand (``None`` if not dealt in)."""
        return self._players.index(seat) if seat in self._players else None

    @property
    def actor_seat(self) -> int | None:
        """The seat whose turn it is, or ``None``."""
        hand = self._hand
        if hand is None or hand.actor is None:
            return None
        return self._players[hand.actor]

    def legal_actions(self) -> tuple[Action, ...]:
        if self._hand is None:
            return ()
        return self._hand.legal_actions()

    def view(self, seat: int | None) -> View | None:
        """The current hand as ``seat`` may see it (``None``: a spectator; a seat not dealt in sees what a
        spectator sees). ``None`` between hands."""
        if self._hand is None:
            return None
        return self._hand.view(self.player_of(seat) if seat is not None else None)

    def eligible(self) -> tuple[int, ...]:
        """The seats that would be dealt in now (R3.6): chips, not sitting out, not leaving."""
        unit = self._rules.chip_unit
        return tuple(s.number for s in self.occupied if s.stack >= unit and not s.sitting_out and not s.leaving)

    def chips_behind(self, seat: int) -> int:
        """The chips the player in ``seat`` holds now, queued top-ups included: his stack in the current hand if
        he is dealt in (chips in the pot are not his), else his seat's stack."""
        current = self.seat(seat)
        if self._hand is not None and seat in self._players:
            return self._hand.stacks[self._players.index(seat)] + current.queued
        return current.stack + current.queued

    @property
    def chips_on_table(self) -> int:
        """Every chip in front of a player or in the pot."""
        stacks = sum(s.stack for s in self._seats.values())
        if self._hand is not None:
            stacks += sum(self._hand.stacks) + self._hand.pot - sum(self._seats[s].stack for s in self._players)
        return stacks

    @property
    def queued(self) -> int:
        return sum(s.queued for s in self._seats.values())

    def check_conservation(self) -> None:
        """Raise :class:`AssertionError` unless every chip that came in is on the table, queued, or went out."""
        if self.money_in != self.chips_on_table + self.queued + self.money_out:
            raise AssertionError(
                f"money in {self.money_in} != on table {self.chips_on_table} + queued {self.queued}"
                f" + out {self.money_out}"
            )

    # -- seats and money ------------------------------------------------------------------------------

    def sit(self, name: str, buy_in: int, seat: int | None = None) -> int:
        """Seat a new player with ``buy_in`` chips (at least ``min_buy_in``, R3.3); returns the seat number.
        A player who sits down during a hand is dealt in from the next one (R3.2, R3.6).

        Raises :class:`TableError` (and changes nothing) for what :meth:`check_sit` refuses.
        """
        seat = self.check_sit(name, buy_in, seat)
        self._seats[seat] = Seat(seat, name.strip(), buy_in)
        self.money_in += buy_in
        return seat

    def check_sit(self, name: str, buy_in: int, seat: int | None = None) -> int:
        """The seat :meth:`sit` would give, without seating anyone: :class:`TableError` for a missing or
        duplicate name, a taken or nonexistent seat, a full table, or a buy-in outside the table's limits.
        (A card room checks first, then pays, then seats.)"""
        seat = self._check_place(name, seat)
        self._check_amount(buy_in, "buy-in")
        low = self.min_buy_in
        if buy_in < low:
            raise TableError(f"a first buy-in of {buy_in} is below the minimum buy-in of {low} (R3.3)")
        high = self.max_buy_in
        if high is not None and buy_in > high:
            raise TableError(f"a buy-in of {buy_in} is above the maximum buy-in of {high}")
        return seat

    def _check_place(self, name: object, seat: int | None) -> int:
        """The seat a new player named ``name`` would take (``None``: the first free one), or :class:`TableError`."""
        if not isinstance(name, str) or not name.strip():
            raise TableError("a player needs a name")
        name = name.strip()
        if any(s.name == name for s in self._seats.values()):
            raise TableError(f"{name!r} is already seated at this table")
        if seat is None:
            if not self.free_seats:
                raise TableError(f"the table is full ({self.max_seats} seats)")
            return self.free_seats[0]
        if type(seat) is not int or not 1 <= seat <= self.max_seats:
            raise TableError(f"there is no seat {seat!r}: seats are 1 to {self.max_seats}")
        if seat in self._seats:
            raise TableError(f"seat {seat} is taken by {self._seats[seat].name}")
        return seat

    def seat_moved(self, name: str, stack: int, seat: int | None = None) -> int:
        """Seat a player moved here from another table with his ``stack`` (a floor's table change, a tournament's
        balancing): the buy-in limits do not apply, the chips are his already. Returns the seat; :class:`TableError`
        (and nothing changes) for what :meth:`check_seat_moved` refuses."""
        seat = self.check_seat_moved(name, stack, seat)
        self._seats[seat] = Seat(seat, name.strip(), stack)
        self.money_in += stack
        return seat

    def check_seat_moved(self, name: str, stack: int, seat: int | None = None) -> int:
        """The seat :meth:`seat_moved` would give: :class:`TableError` for a missing or duplicate name, a taken or
        nonexistent seat, a full table, or a stack that is not a whole number of chips."""
        seat = self._check_place(name, seat)
        self._check_amount(stack, "stack")
        return seat

    def top_up(self, seat: int, amount: int) -> bool:
        """Add ``amount`` chips to a seated player's stack (a top-up, or a rebuy after busting, R3.4).

        Between hands, or for a player not in the current hand, the chips are added at once (``True``).
        During a hand the player is dealt in, the request is queued until the pot is awarded (``False``)
        or rejected, per ``rules.chips_request_during_hand``. Raises :class:`TableError` (and changes
        nothing) for what :meth:`check_top_up` refuses.
        """
        current = self.seat(seat)
        if self.check_top_up(seat, amount):
            self._seats[seat] = replace(current, stack=current.stack + amount)
            self.money_in += amount
            return True
        self._seats[seat] = replace(current, queued=current.queued + amount)
        self.money_in += amount
        return False

    def check_top_up(self, seat: int, amount: int) -> bool:
        """Whether :meth:`top_up` would add the chips at once (``True``) or queue them (``False``), without
        adding anything: :class:`TableError` for an empty seat, a bad amount, a rebuy below the minimum, a
        stack above the maximum buy-in, or a hand in play where the rules reject requests."""
        current = self.seat(seat)
        self._check_amount(amount, "top-up")
        stack = self.chips_behind(seat)
        in_hand = self._hand is not None and seat in self._players
        low = self.min_buy_in
        if stack == 0 and amount < low:
            raise TableError(f"a rebuy with no chips must be at least the minimum buy-in of {low} (R3.4)")
        high = self.max_buy_in
        if high is not None and stack + amount > high:
            raise TableError(
                f"a top-up of {amount} would bring the stack to {stack + amount}, above the maximum buy-in of {high}"
            )
        if in_hand and self._rules.chips_request_during_hand is ChipsRequest.REJECT:
            raise TableError(
                f"{current.name} is in a hand: chips can be added only between hands (R3.4, rejected by the rules)"
            )
        return not in_hand

    def sit_out(self, seat: int) -> None:
        """Not dealt in from the next hand on (the seat and chips stay)."""
        self._seats[seat] = replace(self.seat(seat), sitting_out=True)

    def sit_in(self, seat: int) -> None:
        """Dealt in again from the next hand."""
        self._seats[seat] = replace(self.seat(seat), sitting_out=False)

    def leave(self, seat: int) -> int | None:
        """The player leaves with his chips (returned). During a hand he is dealt in, he leaves when it is
        over (``None`` now; fold to leave sooner): chips in play stay in play (R3.5)."""
        current = self.seat(seat)
        if self._hand is not None and seat in self._players:
            self._seats[seat] = replace(current, leaving=True)
            return None
        return self._remove(seat)

    def _remove(self, seat: int) -> int:
        current = self._seats.pop(seat)
        taken = current.stack + current.queued
        self.money_out += taken
        return taken

    def _check_amount(self, amount: object, what: str) -> None:
        unit = self._rules.chip_unit
        if type(amount) is not int or amount < unit:
            raise TableError(f"a {what} must be a whole number of chips of at least {unit}, got {amount!r}")
        if amount % unit:
            raise TableError(f"a {what} of {amount} is not a multiple of the chip unit {unit}")

    def change_rules(self, rules: Rules | Rotation) -> None:
        """New rules for the hands to come, one game's or a rotation's (which starts at its first game); never during
        a hand (SPEC section 2)."""
        if self._hand is not None:
            raise TableError("the rules of a table change only between hands (SPEC section 2)")
        rules = self._check_rules(rules)
        seats = rules.max_seats
        if seats is not None and any(n > seats for n in self._seats):
            raise TableError(f"a seat above {seats} is occupied")
        self._rules = self._game_rules(rules)

    # -- hands ------------------------------------------------------------------------------------------

    @property
    def can_start(self) -> bool:
        return self._hand is None and len(self.eligible()) >= 2

    def start_hand(self, *, deck: Any = None, manual: bool = False) -> HandState:
        """Deal the next hand to the eligible seats (R3.6); at least two are needed (R3.1).

        ``manual=True`` deals by hand (a live dealer's table): the hand waits for each card (:meth:`deal`) instead
        of shuffling a deck."""
        if self._hand is not None:
            raise TableError(f"hand {self.hand_number} is still being played")
        players = self.eligible()
        if len(players) < 2:
            raise TableError(f"a hand needs two players with chips who are not sitting out; {len(players)} here (R3.1)")
        seed = None if self.seed is None else self.seed * 1_000_003 + self.hand_number + 1
        rules, turn = self._rules, self._turn
        if self._rotation is not None:  # a mixed table: this hand's game
            turn = self._rotation.deal(turn, len(players))
            rules = self._rotation.game(turn)
        try:
            stacks = [self._seats[s].stack for s in players]
            if manual:
                hand = HandState(rules, stacks, manual=True, auto_show=self.auto_show)
            else:
                hand = HandState(rules, stacks, seed=seed, deck=deck, auto_show=self.auto_show)
        except EngineError as error:
            raise TableError(str(error)) from None
        self.hand_number += 1
        self._hand, self._players = hand, players
        self._rules, self._turn = rules, turn
        if hand.is_over:  # everyone all-in for the ante: nothing to decide
            self._finish()
        return hand

    def act(self, action: Action) -> tuple[Event, ...]:
        """Apply the actor's ``action`` to the current hand (:class:`~studpoker.engine.IllegalActionError`
        if it is not legal; nothing changes then) and return the events it logged. When the hand ends, the table
        settles it."""
        hand = self._hand
        if hand is None:
            raise TableError("no hand is being played: start one first")
        events = hand.apply(action)
        if hand.is_over:
            self._finish()
        return events

    def deal(self, card: Card | str | None) -> tuple[Event, ...]:
        """Give the current hand, dealt by hand (``start_hand(manual=True)``), the card it asks for
        (``hand.card_needed``) and return the events it logged. Raises
        :class:`~studpoker.engine.errors.CardSupplyError` for a card that cannot be dealt (nothing changes then).
        When the hand ends, the table settles it."""
        hand = self._hand
        if hand is None:
            raise TableError("no hand is being played: start one first")
        events = hand.deal(card)
        if hand.is_over:
            self._finish()
        return events

    def reveal(self, seat: int, cards: Sequence[Card | str]) -> None:
        """Fill in the unknown cards of ``seat``'s hand with the cards he shows (a hand dealt by hand whose down
        cards the dealer entered as unknown; ``HandState.reveal``). Raises
        :class:`~studpoker.engine.errors.CardSupplyError` for cards that do not fit (nothing changes then), and
        :class:`TableError` for a seat not dealt in. When the pots can then be awarded, the table settles the hand."""
        hand = self._hand
        if hand is None or seat not in self._players:
            raise TableError(f"seat {seat} is not in a hand being played")
        hand.reveal(self._players.index(seat), cards)
        if hand.is_over:
            self._finish()

    def _finish(self) -> None:
        hand = self._hand
        assert hand is not None and hand.is_over
        names = tuple(self._seats[s].name for s in self._players)
        self.hands.append(PlayedHand(self.hand_number, hand, self._players, names))
        for p, s in enumerate(self._players):
            current = self._seats[s]
            self._seats[s] = replace(current, stack=hand.stacks[p] + current.queued, queued=0)
        self._hand, self._players = None, ()
        if self._rotation is not None:  # between hands the table shows the next hand's game
            self._rules = self._rotation.game(self._rotation.upcoming(self._turn))
        for s in [s.number for s in self.occupied if s.leaving]:
            self._remove(s)

    # -- sessions -------------------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The table between hands as plain JSON-ready data (seats and the money counters), for saving."""
        if self._hand is not None:
            raise TableError("a table is saved between hands")
        mixed = {} if self._rotation is None else {"rotation": self._rotation.to_json(), "turn": self._turn.to_json()}
        return {
            **mixed,
            "name": self.name,
            "seed": self.seed,
            "hand_number": self.hand_number,
            "money_in": self.money_in,
            "money_out": self.money_out,
            "seats": [
                {"seat": s.number, "name": s.name, "stack": s.stack, "sitting_out": s.sitting_out}
                for s in self.occupied
            ],
        }

    @classmethod
    def restore(cls, rules: Rules | Rotation, snapshot: dict[str, Any], hands: list[PlayedHand] | None = None) -> Table:
        """A table from :meth:`snapshot`'s data (``hands``: the hands already played, if kept). A mixed table's
        snapshot carries its rotation and turn: they are read back (``rules`` given as one game's are then only the
        last hand's)."""
        try:
            mixed = snapshot.get("rotation")
            if mixed is not None and isinstance(rules, Rules):
                rules = Rotation.from_json(mixed)
            table = cls(rules, seed=snapshot.get("seed"), name=str(snapshot.get("name", "studpoker")))
            if table._rotation is not None and "turn" in snapshot:
                table._rules = table._game_rules(table._rotation, Rotation.turn_from_json(snapshot["turn"]))
            table.hand_number = int(snapshot["hand_number"])
            table.money_in, table.money_out = int(snapshot["money_in"]), int(snapshot["money_out"])
            for entry in snapshot["seats"]:
                number, stack = int(entry["seat"]), int(entry["stack"])
                if not 1 <= number <= table.max_seats or number in table._seats or stack < 0:
                    raise TableError(f"seat entry {entry!r} is not valid at this table")
                table._seats[number] = Seat(number, str(entry["name"]), stack, bool(entry.get("sitting_out", False)))
        except (KeyError, TypeError, ValueError) as error:
            if isinstance(error, TableError):
                raise
            if isinstance(error, RotationError):
                raise TableError(f"the snapshot's rotation: {error}") from None
            raise TableError(f"not a table snapshot: {error!r}") from None
        table.hands = list(hands or [])
        table.check_conservation_or_fail()
        return table

    def check_conservation_or_fail(self) -> None:
        """:meth:`check_conservation` as a :class:`TableError` (for data read from a file)."""
        try:
            self.check_conservation()
        except AssertionError as error:
            raise TableError(f"the session's chips do not add up: {error}") from None
