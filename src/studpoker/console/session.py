"""The table session as a house dealer runs it: seats and money, each hand dealt by hand card by card, what the
rules need next, what the dealer says, and who is pushed what.

Every entry is checked before anything changes, and a refused entry leaves the session exactly as it was. Each
accepted entry is appended to :attr:`DealerSession.journal`; the session is a pure function of its sign and
journal (:meth:`DealerSession.from_journal`), which is how :meth:`~DealerSession.undo` works.

>>> session = DealerSession(Sign.of("stud", small_bet=10, big_bet=20, ante=1, bring_in=3))
>>> _ = session.buy_in(1, "Ann", 200); _ = session.buy_in(2, "Bob", 200)
>>> _ = session.start_hand()
>>> str(session.needed())
'deal seat 1 (Ann) a card face down (3rd street)'
>>> for card in ("Ah", "Kd", "Qs", "Jc", "9s", "2c"):
...     _ = session.deal(card)
>>> str(session.needed())
'seat 2 (Bob) to act: bring in 3, complete to 10'
>>> session.act("bring in").said
('Bob brings in for 3',)
>>> session.act("fold").said
('Bob wins 2 (no showdown)',)
>>> [str(push) for push in session.pushes()]
['push Bob 3 (uncalled, returned)', 'push Bob 2 (main pot)']
>>> session.deal("Ah")
Traceback (most recent call last):
    ...
studpoker.console.sign.ConsoleError: no card is needed now: no hand is being played (start hand 2)
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card, parse_card
from ..engine import Action, HandState, Phase, Rules, Stud5Opening, Variant
from ..engine.codec import action_from_json, action_to_json
from ..engine.dealer import dealer_lines, first_to_act_line
from ..engine.errors import EngineError
from ..engine.events import ActionTaken, CardDealt, CommunityCard, Returned, StreetStarted
from ..engine.words import action_words
from ..history import phh, record_hand
from ..table import PlayedHand, Table, TableError
from . import journal, rulings
from .irregularities import Ruling
from .journal import Entry, JournalError, check_entry
from .records import (
    Needed,
    PlayerResult,
    Push,
    Report,
    Step,
    street_name,  # noqa: F401 - importable from here, where it was first
)
from .sign import ConsoleError, Sign

__all__ = ["DealerSession", "Needed", "PlayerResult", "Push", "Report", "Step"]

_UNKNOWN = "??"
#: Said when the deck cannot give every player his last card (SPEC R8; Robert's Rules of Poker, seven-card stud).
_SHORT_DECK = "not enough cards for everyone: one community card is turned for all (R8)"
_PLAYER = re.compile(r"\bplayer (\d+)")


@dataclass(frozen=True, slots=True)
class _Checkpoint:
    """The session between hands, as a hand was started: ``entries`` journal entries in (undo starts from here
    instead of the first entry)."""

    entries: int
    table: dict[str, Any]
    hands: tuple[PlayedHand, ...]
    money: dict[str, tuple[int, int, int]]
    said: tuple[str, ...]


def _hidden_character(name: object) -> str | None:
    """The first character of ``name`` that does not print as itself (a control character, a line break, an
    invisible or direction-changing mark such as a zero-width space), named; ``None`` if there is none."""
    if not isinstance(name, str):
        return None  # the table says what is wrong with a name that is not text
    for char in name:
        if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            return f"U+{ord(char):04X} ({unicodedata.name(char, 'a control character').lower()})"
    return None


class DealerSession:
    """A stud table's session as its dealer enters it (SPEC section 3): seats 1 to 8 (10 in five-card stud), hands
    dealt by hand. ``sign`` is a :class:`Sign` or the engine's :class:`~studpoker.engine.Rules` (any preset: a
    tournament's hands are dealt under ``Rules.tournament``).

    Every method that changes the session checks first and raises :class:`ConsoleError` (nothing changed) or
    returns a :class:`Step`."""

    def __init__(self, sign: Sign | Rules) -> None:
        if isinstance(sign, Rules):
            sign = Sign.from_rules(sign)
        if not isinstance(sign, Sign):
            raise ConsoleError(f"a session needs a Sign or Rules, got {type(sign).__name__}")
        self._sign = sign
        self._rules = sign.rules()
        self._table = Table(self._rules, name="dealer")
        self._journal: list[Entry] = []
        self._said: list[str] = []
        self._money: dict[str, list[int]] = {}  # name -> [bought in, topped up, cashed out]
        self._checkpoint: _Checkpoint | None = None  # the session as the last hand was started, for undo
        self._exposed: dict[int, Card] = {}  # seat -> his hole card exposed on the deal, to be his up card (R13.1)
        self._held: set[Card] = set()  # the exposed cards whose down card was dealt unseen in their place
        self._seventh_up = False  # the first last card was dealt face up: the others are too (rulings)
        self._dead: set[Card] = set()  # cards out of play in this hand: an exposed last card replaced (R13.3)
        # the last cards entered after one that was replaced: dealt again as their seats' turns come (rulings)
        self._pending: list[tuple[int, Card | None]] = []

    @classmethod
    def from_journal(cls, sign: Sign | Rules, entries: Iterable[Entry]) -> DealerSession:
        """The session after ``entries`` (each entered again, in order); :class:`JournalError` naming the first
        entry that is not well formed or not allowed where it stands."""
        session = cls(sign)
        for number, entry in enumerate(entries, 1):
            try:
                session.enter(entry)
            except ConsoleError as error:
                raise JournalError(f"journal entry {number} ({entry!r}): {error}") from None
        return session

    def enter(self, entry: Entry) -> Step:
        """Make one journal entry again (what :meth:`from_journal` does for each)."""
        entry = check_entry(entry)
        kind = entry["entry"]
        if kind == "buy-in":
            return self.buy_in(entry["seat"], entry["name"], entry["chips"])
        if kind == "top-up":
            return self.top_up(entry["seat"], entry["chips"])
        if kind == "leave":
            return self.leave(entry["seat"])
        if kind == "start":
            if entry["hand"] != self._table.hand_number + 1:
                raise ConsoleError(f"the next hand is hand {self._table.hand_number + 1}, not {entry['hand']}")
            return self.start_hand()
        if kind == "card":
            wanted = self.needed()
            if wanted.kind == "card" and wanted.seat != entry["seat"]:
                raise ConsoleError(f"the card is for {'seat ' + str(wanted.seat) if wanted.seat else 'the board'}")
            return self.deal(entry["card"])
        if kind == "action":
            hand = self._hand_or_fail("no action is needed now")
            seat = self._table.actor_seat
            if seat != entry["seat"]:
                raise ConsoleError(f"seat {seat} is to act, not seat {entry['seat']}")
            try:
                action = action_from_json({"action": entry["action"], "amount": entry["amount"]}, hand.legal_actions())
            except EngineError as error:
                raise ConsoleError(str(error)) from None
            return self.act(action)
        if kind == "irregularity":
            return self.irregularity(entry["case"], entry["seat"], entry["card"])
        return self.reveal(entry["seat"], entry["cards"])

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the sign and the whole journal to ``path`` (:func:`studpoker.console.journal.save`); after that,
        :func:`~studpoker.console.journal.append` each new :attr:`Step.entry` to it."""
        journal.save(path, self._sign, self._journal)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> DealerSession:
        """The session a journal file records (:class:`JournalError` naming the line that is not right)."""
        sign, entries = journal.load(path)
        return cls.from_journal(sign, entries)

    def undo(self) -> Entry:
        """Drop the last entry: the session is exactly as it was before it, rebuilt from the journal (from the table as
        the last hand was started, with the public ``Table.snapshot``, when the entry came after it). Returns the
        entry dropped; :class:`ConsoleError` if there is none."""
        if not self._journal:
            raise ConsoleError("nothing to undo: the journal is empty")
        last = self._journal[-1]
        keep = self._journal[:-1]
        checkpoint = self._checkpoint
        if checkpoint is None or checkpoint.entries > len(keep):
            before = DealerSession.from_journal(self._sign, keep)
        else:  # from the start of this hand (or the last): the hands before it are not played again
            before = self._from_checkpoint(keep[checkpoint.entries :])
        self.__dict__.update(before.__dict__)
        return last

    def _from_checkpoint(self, entries: Iterable[Entry] = ()) -> DealerSession:
        """A new session as this one was when its current (or last) hand was started, the table restored with the
        public ``Table.snapshot``, and then ``entries`` (journal entries after that point) entered again. The table
        shows its hands down as this one's does (``auto_show``)."""
        checkpoint = self._checkpoint
        assert checkpoint is not None  # set by start_hand
        again = DealerSession(self._sign)
        again._table = Table.restore(self._rules, checkpoint.table, list(checkpoint.hands))
        again._table.auto_show = self._table.auto_show
        again._journal = self._journal[: checkpoint.entries]
        again._money = {name: list(m) for name, m in checkpoint.money.items()}
        again._said = list(checkpoint.said)
        for number, entry in enumerate(entries, checkpoint.entries + 1):
            try:
                again.enter(entry)
            except ConsoleError as error:  # pragma: no cover - entries accepted once are accepted again
                raise JournalError(f"journal entry {number} ({entry!r}): {error}") from None
        return again

    def _copy_money(self) -> dict[str, tuple[int, int, int]]:
        return {name: (m[0], m[1], m[2]) for name, m in self._money.items()}

    # -- reading ------------------------------------------------------------------------------------------

    @property
    def sign(self) -> Sign:
        return self._sign

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def journal(self) -> tuple[Entry, ...]:
        """Every accepted entry, in order (copies: the journal cannot be changed through them)."""
        return tuple(dict(e) for e in self._journal)

    @property
    def seats(self) -> dict[int, tuple[str, int]]:
        """The occupied seats: number -> (name, chips in front of him between hands)."""
        return {s.number: (s.name, s.stack) for s in self._table.occupied}

    @property
    def hand(self) -> HandState | None:
        """The hand being dealt (a copy: read it, do not play it), or ``None``."""
        hand = self._table.hand
        return None if hand is None else hand.copy()

    @property
    def hand_number(self) -> int:
        """The number of the hand being dealt, or of the last hand."""
        return self._table.hand_number

    @property
    def players(self) -> tuple[int, ...]:
        """The seats dealt into the hand being dealt, in the hand's player order (``()`` between hands)."""
        return tuple(self._table.players) if self._table.hand is not None else ()

    @property
    def announcements(self) -> tuple[str, ...]:
        """The dealer's lines of the hand being dealt, or of the last hand once it is over."""
        return tuple(self._said)

    def needed(self) -> Needed:
        """What the dealer must do next (see :class:`Needed`)."""
        table = self._table
        hand = table.hand
        if hand is None:
            if table.can_start:
                return Needed("start", hand=table.hand_number + 1)
            return Needed("seats", hand=table.hand_number + 1)
        number = table.hand_number
        players = table.players
        if hand.phase is Phase.DEAL:
            request = hand.card_needed
            assert request is not None
            if request.player is None:
                return Needed("card", None, "", True, request.street, hand=number)
            seat = players[request.player]
            up = request.face_up or (self._seventh_up and request.street == hand.last_street)
            return Needed("card", seat, self._name(seat), up, request.street, hand=number)
        if hand.phase is Phase.REVEAL:
            return Needed("reveal", seats=tuple(players[p] for p in hand.unknown), hand=number)
        actor = table.actor_seat
        assert actor is not None
        options = tuple(action_words(a, hand.cost(a)) for a in hand.legal_actions())
        note = ""
        if hand.phase is Phase.BET:
            if hand.capped:
                note = "cap reached"
            elif hand.uncapped and hand.raises >= (self._rules.raise_cap or 0):
                note = "heads-up: no cap"
        return Needed("action", actor, self._name(actor), False, hand.street, options, note, hand=number)

    def _name(self, seat: int) -> str:
        return self._table.seat(seat).name

    def _hand_or_fail(self, what: str) -> HandState:
        hand = self._table.hand
        if hand is None:
            raise ConsoleError(f"{what}: no hand is being played (start hand {self._table.hand_number + 1})")
        return hand

    # -- seats and money -----------------------------------------------------------------------------------

    def _between_hands(self, what: str, why: str = "R3.4: more chips only between hands") -> None:
        if self._table.hand is not None:
            raise ConsoleError(f"{what} only between hands: hand {self._table.hand_number} is being dealt ({why})")

    def buy_in(self, seat: int, name: str, chips: int) -> Step:
        """Seat ``name`` in ``seat`` with ``chips`` (at least the sign's minimum buy-in); between hands only."""
        self._between_hands("a player sits down")
        if type(seat) is not int:
            raise ConsoleError(f"a buy-in names its seat, 1 to {self._table.max_seats}; got {seat!r}")
        hidden = _hidden_character(name)
        if hidden is not None:
            raise ConsoleError(f"a player's name may not hold {hidden}: it would not print as it reads")
        try:
            self._table.sit(name, chips, seat)
        except TableError as error:
            raise ConsoleError(str(error)) from None
        self._money.setdefault(name.strip(), [0, 0, 0])[0] += chips
        return self._record({"entry": "buy-in", "seat": seat, "name": name.strip(), "chips": chips})

    def top_up(self, seat: int, chips: int) -> Step:
        """Add ``chips`` to ``seat``'s stack; between hands only (the seeds: more chips only between hands)."""
        self._between_hands("chips are added")
        try:
            self._table.top_up(seat, chips)
        except TableError as error:
            raise ConsoleError(str(error)) from None
        self._money[self._name(seat)][1] += chips
        return self._record({"entry": "top-up", "seat": seat, "chips": chips})

    def leave(self, seat: int) -> Step:
        """``seat`` leaves with his chips; between hands only."""
        self._between_hands("a player leaves", "a player in the hand leaves once it is over")
        try:
            name = self._name(seat)
            chips = self._table.leave(seat)
        except TableError as error:
            raise ConsoleError(str(error)) from None
        assert chips is not None
        self._money[name][2] += chips
        return self._record({"entry": "leave", "seat": seat})

    # -- a hand --------------------------------------------------------------------------------------------

    def start_hand(self) -> Step:
        """Start the next hand, dealt by hand, to every seated player with chips (R3.6); at least two (R3.1)."""
        if self._table.hand is not None:
            raise ConsoleError(f"hand {self._table.hand_number} is still being dealt")
        checkpoint = _Checkpoint(
            len(self._journal), self._table.snapshot(), tuple(self._table.hands), self._copy_money(), tuple(self._said)
        )
        try:
            self._table.start_hand(manual=True)
        except TableError as error:
            raise ConsoleError(str(error)) from None
        self._checkpoint = checkpoint
        self._said = []
        self._exposed, self._held, self._seventh_up = {}, set(), False
        self._dead, self._pending = set(), []
        return self._record({"entry": "start", "hand": self._table.hand_number})

    def deal(self, card: Card | str | None) -> Step:
        """Deal the card the hand needs next (:meth:`needed`): a :class:`~studpoker.cards.Card`, its text
        (``"Ah"``), or ``None`` / ``"??"`` for a down card the dealer does not see. A card already dealt, an
        unknown up card, or no card needed now: :class:`ConsoleError`, nothing changes."""
        hand = self._table.hand
        wanted = self.needed()
        if hand is None or wanted.kind != "card":
            raise ConsoleError(f"no card is needed now: {self._waiting(wanted)}")
        if isinstance(card, str):
            text = card.strip()
            try:
                card = None if text == _UNKNOWN else parse_card(text)
            except ValueError as error:
                raise ConsoleError(f"not a card: {error}") from None
        if card is None and wanted.face_up:
            raise ConsoleError("an up card must be known: the whole table sees it")
        if card is not None and not isinstance(card, Card):
            raise ConsoleError(f"a card is a Card, text such as 'Ah', or '??', got {card!r}")
        given = card
        if (
            card is not None
            and wanted.seat is not None
            and not wanted.face_up
            and self._exposed.get(wanted.seat) == card
            and card not in self._held
        ):
            card = None  # his exposed hole card: held back to be his up card, his down card there is unseen (R13.1)
        elif card is not None:
            holder = self._holder(hand, card)
            if holder is not None:
                raise ConsoleError(f"{card} is already dealt ({holder}) in this hand: check the card")
        start = len(hand.events)
        try:
            self._table.deal(card)
        except EngineError as error:
            raise ConsoleError(str(error)) from None
        if given is not None and card is None:
            self._held.add(given)
        self._deal_exposed()
        self._deal_pending()
        entry = {"entry": "card", "seat": wanted.seat, "card": _UNKNOWN if given is None else str(given)}
        return self._record(entry, self._lines(hand, start))

    def _deal_exposed(self) -> None:
        """Deal each exposed hole card as its player's up card when the hand asks for that card (R13.1): the dealer
        gives the player a down card there instead, unseen."""
        while True:
            wanted, hand = self.needed(), self._table.hand
            if hand is None or wanted.kind != "card" or not wanted.face_up or wanted.seat not in self._exposed:
                return
            if hand.street != hand.first_street:
                return
            self._table.deal(self._exposed[wanted.seat])

    def _deal_pending(self) -> None:
        """Deal again the last cards entered after one that was replaced (R13.3), each when its seat's turn comes:
        the replacement was dealt after them, the console asked for it first."""
        while self._pending:
            wanted = self.needed()
            if wanted.kind != "card" or wanted.seat != self._pending[0][0]:
                return
            self._table.deal(self._pending.pop(0)[1])

    def _holder(self, hand: HandState, card: Card) -> str | None:
        """Where ``card`` already is in ``hand`` (a seat, or the board, or out of play), if it was dealt."""
        if hand.community_card == card:
            return "on the board"
        if card in self._dead:
            return "out of play: the last card exposed and replaced, dead"
        for seat, pending in self._pending:
            if pending == card:
                return f"to seat {seat}"
        for seat, exposed in self._exposed.items():
            if exposed == card:
                return f"to seat {seat}, exposed"
        for p, seat in enumerate(self._table.players):
            if card in hand.down_cards(p) or card in hand.up_cards(p):
                return f"to seat {seat}"
        return None

    def act(self, action: Action | str) -> Step:
        """The player to act does ``action``: an :class:`~studpoker.engine.Action`, one of the options of
        :meth:`needed` as it is (``"call 7"``: the call by what it costs), or what he says (``"call"``,
        ``"raise to 40"``, ``"complete"``...). An action that is not legal now: :class:`ConsoleError` naming the
        legal ones, nothing changes."""
        hand = self._table.hand
        wanted = self.needed()
        if hand is None or wanted.kind != "action":
            raise ConsoleError(f"no action is needed now: {self._waiting(wanted)}")
        who = f"seat {wanted.seat} ({wanted.name})"
        if not isinstance(action, Action | str):
            raise ConsoleError(f"an action is an Action or what the player says ('call'), got {action!r}")
        try:
            if isinstance(action, str):
                # the options of needed() as they are (a call by what it costs), else what the player says
                said = {action_words(a, hand.cost(a)): a for a in hand.legal_actions()}
                text = " ".join(action.split()).lower()
                chosen = said[text] if text in said else hand.parse_action(action)
            else:
                chosen = action
            if not hand.is_legal(chosen):
                raise ConsoleError(
                    f"{who} may not {chosen} now ({hand.why_illegal(chosen)}); legal: {', '.join(wanted.options)}"
                )
        except EngineError as error:
            raise ConsoleError(f"{who}: {self._in_seats(str(error))}") from None
        start = len(hand.events)
        self._table.act(chosen)
        json = action_to_json(chosen)
        entry = {"entry": "action", "seat": wanted.seat, "action": json["action"], "amount": json["amount"]}
        return self._record(entry, self._lines(hand, start))

    def reveal(self, seat: int, cards: Sequence[Card | str]) -> Step:
        """``seat`` shows his cards: fills in the down cards the dealer entered as unknown (his whole hand in
        dealing order, or just the unknown cards); the pots are awarded once they can be."""
        hand = self._hand_or_fail("no cards to show")
        try:
            parsed = [c if isinstance(c, Card) else parse_card(c) for c in cards]
        except (TypeError, ValueError) as error:
            raise ConsoleError(f"not a card: {error}") from None
        dead = [str(c) for c in parsed if c in self._dead]
        if dead:
            raise ConsoleError(f"{', '.join(dead)} is out of play in this hand (the last card exposed and replaced)")
        start = len(hand.events)
        try:
            self._table.reveal(seat, parsed)
        except (EngineError, TableError) as error:
            raise ConsoleError(self._in_seats(str(error))) from None
        return self._record(
            {"entry": "reveal", "seat": seat, "cards": [str(c) for c in parsed]}, self._lines(hand, start)
        )

    # -- irregularities (SPEC section 13) -------------------------------------------------------------------

    def irregularity(self, case: str, seat: int | None = None, card: Card | str | None = None) -> Step:
        """Report an irregularity (one of :data:`~studpoker.console.irregularities.CASES`, naming a ``seat`` and a
        ``card`` where the case needs them): the console rules on it, applies the ruling and journals it; the
        :attr:`Step.ruling` says what to do next. A report that does not fit the hand: :class:`ConsoleError` with the
        reason, nothing changes. The rulings are :mod:`studpoker.console.rulings`."""
        return rulings.rule(self, case, seat, card)

    def _in_seats(self, message: str) -> str:
        """An engine message with its player numbers said as the table's seats (``player 0`` -> ``seat 1``)."""
        players = self._table.players
        return _PLAYER.sub(lambda m: f"seat {players[int(m[1])]}" if int(m[1]) < len(players) else m[0], message)

    def _waiting(self, wanted: Needed) -> str:
        if wanted.kind == "start":
            return f"no hand is being played ({wanted})"
        return str(wanted)

    def _lines(self, hand: HandState, start: int) -> tuple[str, ...]:
        """The dealer's lines for the hand's events from ``start`` on (the public events only)."""
        table = self._table
        names = table.hands[-1].names if hand.is_over else tuple(self._name(s) for s in table.players)
        events, view = hand.events_seen_by(None), hand.view(None)
        lines = dealer_lines(events, start, view, names, self._rules)
        # Dealt by hand, a street starts with its first card and betting opens with its last: who is high and acts
        # first is said once the last card is down and before anyone acts.
        if view.phase is Phase.BET and start < len(events) and isinstance(events[start], CardDealt | CommunityCard):
            began = next(i for i in range(len(events) - 1, -1, -1) if isinstance(events[i], StreetStarted))
            opening = hand.street != hand.first_street or (
                self._rules.variant is Variant.STUD5 and self._rules.stud5_opening is Stud5Opening.HIGH_CARD_OPENS
            )
            if opening and not any(isinstance(e, ActionTaken) for e in events[began:]):
                line = first_to_act_line(view, names)
                if line is not None and line not in lines:
                    lines.append(line)
        request = hand.card_needed
        if request is not None and request.player is None and _SHORT_DECK not in self._said + lines:
            lines.append(_SHORT_DECK)
        return tuple(lines)

    def _record(self, entry: Entry, said: tuple[str, ...] = (), ruling: Ruling | None = None) -> Step:
        self._journal.append(entry)
        self._said += said
        return Step(dict(entry), said, ruling)

    # -- after a hand --------------------------------------------------------------------------------------

    def _played(self, number: int | None) -> PlayedHand:
        hands = self._table.hands
        if not hands:
            raise ConsoleError("no hand has been finished yet")
        if number is None:
            return hands[-1]
        for played in hands:
            if played.number == number:
                return played
        raise ConsoleError(f"hand {number} is not a finished hand: finished hands are 1 to {hands[-1].number}")

    def pushes(self, number: int | None = None) -> tuple[Push, ...]:
        """What the dealer pushed to whom at the end of hand ``number`` (the last finished hand by default): the
        uncalled bets returned, then each pot's shares, main pot first."""
        played = self._played(number)
        state, seats, names = played.state, played.seats, played.names
        out = [
            Push(seats[e.player], names[e.player], e.amount, None, "returned")
            for e in state.events
            if isinstance(e, Returned) and e.amount > 0
        ]
        awards, unit = state.awards, state.rules.chip_unit
        for award in awards:
            units = sum(a.amount for a in awards if a.pot == award.pot) // unit
            winners = sum(1 for a in awards if a.pot == award.pot and a.share == award.share)
            half = award.share in ("high", "low")  # a hi/lo pot split high and low: each half is half the pot
            even = (units // 2 if half else units) // winners * unit
            odd = (award.amount - even) // unit
            out.append(Push(seats[award.player], names[award.player], award.amount, award.pot, award.share, odd))
        return tuple(out)

    def hand_phh(self, number: int) -> str:
        """Finished hand ``number`` as PHH text (seats and names with it), replayable by ``stud replay``."""
        played = self._played(number)
        record = record_hand(played.state, players=played.names, seats=played.seats, info={"hand": played.number})
        return phh.dumps(record)

    def hands_phh(self) -> str:
        """Every finished hand as PHH text, one after another."""
        return "".join(self.hand_phh(p.number) for p in self._table.hands)

    def report(self) -> Report:
        """The session report (:class:`Report`)."""
        table = self._table
        on_table = {s.name: (s.number, s.stack) for s in table.occupied}
        hand = table.hand
        if hand is not None:  # in a hand: a seat's chips are his stack in the hand (the pot is on the table)
            for p, seat in enumerate(table.players):
                on_table[self._name(seat)] = (seat, hand.stacks[p])
        players = tuple(
            PlayerResult(name, on_table.get(name, (None, 0))[0], m[0], m[1], m[2], on_table.get(name, (None, 0))[1])
            for name, m in self._money.items()
        )
        return Report(len(table.hands), players, table.money_in, table.chips_on_table, table.money_out)
