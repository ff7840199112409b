"""Everleaf Gaming text hand histories.

A hand starts ``Everleaf Gaming Game #<id>``, then ``***** Hand history for game #<id> *****``, the stakes,
game and date (``$0.05/$0.10 7 Card Stud - 2011/07/08 - 00:08:53``), ``Table <name>``, and the seats
(``Seat 1: Player1 (  $ 0.54 USD )``). Antes are ``NAME: posts ante [$ 0.01 USD]``; ``** Dealing down cards **``
opens the first street and ``**** dealing 4th street ****`` ... ``**** dealing river ****`` the others. The
file of July 2011 names no card until the showdown (``NAME shows [ 5d, 8d, Kd, 7d, 9d, Jh, Qc ]``, the seven
cards in dealing order; ``NAME does not show cards`` is a muck): every card is dealt unknown, and who brings in
and who opens each street is whoever the file says acts first. The file of August 2011 (``** Dealing 4th
Street **``) writes the cards the saver saw dealt on each street, one line a player (``Dealt to NAME [ Ah ].``:
an opponent's up card; ``Dealt to NAME [ 5d, Qs, 7s ].``: the saver's own three), and shows a hand in no set
order (the known cards must be among those shown). Bets and calls give the chips they add
(``NAME: bets [$ 0.10 USD]``, ``NAME calls [$ 0.03 USD]``); the bring-in and the completion give the total
(``posts bring-in $0.02.``, ``completes to $0.05.``). The result is ``NAME wins $ 0.98 USD from main pot``,
after the rake; there is no summary, no rake line, no final stack and no returned bet.

**Rules** (:data:`OPTIONS`, the ``casino`` preset otherwise), from the file's 19 hands of 2011:

* the seats are listed from the lowest up, and a reader insists on it (a changed seat number could
  otherwise turn the table's order around unseen: nothing else in a hand names a seat);
* players act clockwise from the lowest seat (every street's order in the file is the seat order from its
  first actor, e.g. #285998238: Player1 brings in, then Player2, Player3, Player4);
* **the rake is not written**: it is what the players put in less what the winners take, implied and checked
  not to be negative. The file of July 2011 shows two cents for each whole 25 cents of the pot
  (:func:`rake_of`: pots of $0.02-$0.24 pay nothing, #285998978's $0.24 goes whole to Player3, and his next
  stack, $2.40, says so; #286000360 $0.26 pays $0.02, #285997876 $1.06 $0.08), but the file of August 2011
  takes otherwise (€0.02 of €0.52, #295679998), so no formula is imposed;
* the bring-in is fixed by the stakes: $0.02 at $0.05/$0.10 in all 19 hands (so a bring-in that nobody
  calls, which comes back, is still checked against it: #285999807, #286000221);
* ``Player raises [$ 0.20 USD]`` is read as the chips the raise adds, as the brackets of bets and calls are;
  every raise of the file is made by a player with nothing in yet on that street, where the two readings
  agree (#285997876, #285998238, #285998708, #285999596);
* the open-pair double bet of stud high (the casino default) is played: in #285999989 Player3 bets $0.10,
  the big bet, on 4th street. The file shows no card, so the replay declares the open pair the hidden up
  cards may show (``HandState.declare_open_pair``, R6.14) and says so in its notes;
* nothing shows a raise cap, a tie of boards or an odd chip, so those stay the casino defaults.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from ...cards import Card
from ...engine import Variant
from ..model import HandRecord
from .base import HandBuilder, NotStudGameError, SiteError, read_hands

__all__ = ["OPTIONS", "TITLE", "detect", "loads_each", "rake_of", "read_hand", "starts_hand"]

TITLE: Final = "Everleaf Gaming"

#: Everleaf's table rules on top of the ``casino`` preset: nothing in its file differs from it.
OPTIONS: Final[Mapping[str, Any]] = MappingProxyType({})

#: The bring-in of the stakes the file shows (small bet, big bet in cents): posted in every hand that has one;
#: at stakes not listed, the bring-in a hand posts.
_BRING_INS: Final = {(5, 10): 2}
_START = "Everleaf Gaming Game #"
_GAMES: Final = {
    "7 card stud": Variant.STUD7,
    "7 card stud hi/lo": Variant.STUD7_HL8,
    "7 card stud hi-lo": Variant.STUD7_HL8,
    "razz": Variant.RAZZ,
    "5 card stud": Variant.STUD5,
}
_HEADER = re.compile(r"^Everleaf Gaming Game #(?P<id>\d+)$")
_STAKES = re.compile(
    r"^(?P<small>[$€]?\s?[\d.,]+)/(?P<big>[$€]?\s?[\d.,]+)\s+(?P<game>.+?) - "
    r"(?P<year>\d{4})/(?P<month>\d\d)/(?P<day>\d\d) - (?P<time>\d\d:\d\d:\d\d)$"
)
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \(\s*(?P<stack>[$€]?\s?[\d.,]+)(?: \w+)?\s*\)$")
_ANTE = re.compile(r"^(?P<name>.+?): posts ante \[(?P<amount>[^\]]+)\]$")
_STREET = re.compile(  # "** Dealing down cards **", "**** dealing 4th street ****" (2011: "** Dealing 4th Street **")
    r"^\*\*+ dealing (?:(?P<street>down cards|\d)(?:th|rd)? ?(?:street)?|river) ?\*\*+$", re.IGNORECASE
)
_BRING = re.compile(r"^(?P<name>.+?) posts bring-in (?P<amount>[$€]?\s?[\d.,]+?)\.?$")
_COMPLETE = re.compile(r"^(?P<name>.+?) completes to (?P<amount>[$€]?\s?[\d.,]+?)\.?$")
_WAGER = re.compile(r"^(?P<name>.+?):? (?P<verb>bets|calls|raises) \[(?P<amount>[^\]]+)\](?P<rest>.*)$")
_SIMPLE = re.compile(r"^(?P<name>.+?) (?P<verb>folds|checks|does not show cards)$")
_SHOWS = re.compile(r"^(?P<name>.+?) shows \[(?P<cards>[^\]]*)\]")
_DEALT = re.compile(r"^Dealt to (?P<name>.+?) \[(?P<cards>[^\]]*)\]\.?$")
_WINS = re.compile(r"^(?P<name>.+?) wins (?P<amount>[$€]?\s?[\d.,]+)(?: \w+)? from (?P<pot>main pot|side pot(?: \d+)?)")


def rake_of(pot: int) -> int:
    """Everleaf's rake, in cents, of a pot of ``pot`` cents: two for each whole 25 (see the module)."""
    return pot // 25 * 2


def detect(text: str) -> bool:
    """An Everleaf export starts with ``Everleaf Gaming Game #``."""
    return text.startswith(_START)


def starts_hand(line: str) -> bool:
    """Whether a line of the text begins a hand."""
    return line.startswith(_START)


def read_hand(lines: list[str], first: int) -> HandRecord:
    """One hand: its lines (the first begins it) and the 1-based line of the file it starts on."""
    return _Hand(lines, first).read()


def loads_each(text: str) -> list[tuple[int, HandRecord | SiteError]]:
    """Every hand of the text, each read on its own."""
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if starts_hand(line)]
    return read_hands(text, starts, _Hand)


def settled(spent: Mapping[str, int]) -> int:
    """The pot of a hand whose players put in ``spent``: the part of the largest sum no one matched goes back."""
    amounts = sorted(spent.values(), reverse=True)
    if len(amounts) < 2:
        return sum(amounts)
    return sum(amounts) - (amounts[0] - amounts[1])


class _Hand:
    def __init__(self, lines: list[str], first: int) -> None:
        self.lines, self.first = lines, first
        self.folded: set[str] = set()
        self.spent: dict[str, int] = {}
        self.players: tuple[int, int] | None = None  # the count the file gives, and its line

    def read(self) -> HandRecord:
        header = _HEADER.match(self.lines[0].strip())
        if header is None:
            raise SiteError("the hand's first line is not an Everleaf header", room=TITLE, line=self.first)
        hand = header["id"]
        stakes = next(
            ((k, m) for k, line in enumerate(self.lines[1:4], 1) if (m := _STAKES.match(line.strip())) is not None),
            None,
        )
        if stakes is None:
            raise SiteError("the hand names no stakes and game", room=TITLE, hand=hand, line=self.first)
        at, found = stakes
        game = found["game"].strip()
        variant = _GAMES.get(game.lower())
        if variant is None:
            raise NotStudGameError(game, room=TITLE, hand=hand, line=self.first + at)
        cents = any(sign in found["small"] for sign in "$€")
        b = HandBuilder(TITLE, hand, self.first, cents=cents)
        small, big = b.chips(found["small"], self.first + at), b.chips(found["big"], self.first + at)
        b.info.update(
            {
                "year": int(found["year"]),
                "month": int(found["month"]),
                "day": int(found["day"]),
                "time": found["time"],
            }
        )
        section = "seats"
        last = self.first
        for offset, raw in enumerate(self.lines[1:], 1):
            line = raw.strip()
            number = self.first + offset
            b.line = number
            if not line or offset == at:
                continue
            if line.startswith("*****"):
                if line != f"***** Hand history for game #{hand} *****":
                    raise b.fail(f"the line {line!r} does not name the hand #{hand}", number)
                continue
            if line.startswith("Table "):
                b.info["table"] = line[6:].strip()
                continue
            if (players := re.fullmatch(r"Total number of players: (\d+)", line)) is not None:
                self.players = (int(players.group(1)), number)
                continue
            street = _STREET.match(line)
            if street is not None:
                self.street(b, variant, street["street"], number)
                section = "play"
                continue
            if section == "seats" and (seat := _SEAT.match(line)) is not None:
                if b.seats and int(seat["seat"]) <= max(s for s, _, _ in b.seats.values()):
                    raise b.fail("the seats are not listed in order", number)
                b.seat(seat["name"], int(seat["seat"]), b.chips(seat["stack"], number), number)
                continue
            if section == "seats" and (ante := _ANTE.match(line)) is not None:
                amount = b.chips(ante["amount"], number)
                b.ante(ante["name"], amount, number)
                self.spent[ante["name"]] = amount
                continue
            if (wins := _WINS.match(line)) is not None:
                pot = 0 if wins["pot"] == "main pot" else int(wins["pot"].split()[-1] or 1)
                b.collected(wins["name"], b.chips(wins["amount"], number), number, pot)
                last = number
                continue
            if section == "play":
                self.action(b, line, number)
                continue
            raise b.fail(f"cannot read the line {line!r}", number)
        self.close_round(b)
        if self.players is not None and self.players[0] != len(b.seats):
            raise b.fail(f"the hand says {self.players[0]} players, but seats {len(b.seats)}", self.players[1])
        for name, (_, stack, seat_line) in b.seats.items():
            if name in b.anted and stack <= 0:
                raise b.fail(f"{name} is dealt in with no chips", seat_line)
        if variant is None or not self.spent:
            raise b.fail("no player is dealt in", self.first)
        if last == self.first:
            raise b.fail("the hand names no winner (truncated?)", self.first + len(self.lines) - 1)
        # the rake is not written: it is what the players put in less what the winners take (rake_of is the rule
        # the first files show; it is not imposed, and a later file's hands take otherwise)
        paid = sum(amount.amount for kind, _, amount in b.results if kind == "collected")
        pot = settled(self.spent)
        rake = pot - paid
        if rake < 0:
            sign = "€" if "€" in found["small"] else "$"
            raise b.fail(f"the winners take {b.money(paid, sign)}, more than the {b.money(pot, sign)} pot", last)
        b.implied_rake(rake, last)
        return b.build(
            variant,
            ante=None,
            bring_in=_BRING_INS.get((small, big)) if cents else None,
            small_bet=small,
            big_bet=big,
            options=OPTIONS,
            currency=("EUR" if "€" in found["small"] else "USD") if cents else None,
        )

    def close_round(self, b: HandBuilder) -> None:
        for name, chips in b.round.items():
            self.spent[name] = self.spent.get(name, 0) + chips

    def street(self, b: HandBuilder, variant: Variant, which: str, number: int) -> None:
        self.close_round(b)
        if which == "down cards":
            if b.street:
                raise b.fail("the first street is dealt twice", number)
            street, count = (2, 2) if variant is Variant.STUD5 else (3, 3)
            players = b.dealt_in() or list(b.seats)
        else:
            street, count = (int(which) if which else 7), 1
            if street <= b.street:
                raise b.fail(f"street {street} comes after street {b.street}", number)
            players = [name for name in b.dealt_in() if name not in self.folded]
        b.new_street(street, number)
        for name in sorted(players, key=lambda n: b.seats[n][0]):
            b.deal(name, [None] * count, number)

    def action(self, b: HandBuilder, line: str, number: int) -> None:
        if (found := _BRING.match(line)) is not None:
            b.bet(found["name"], "bring-in", number, added=b.chips(found["amount"], number))
        elif (found := _COMPLETE.match(line)) is not None:
            b.bet(found["name"], "complete", number, to=b.chips(found["amount"], number))
        elif (found := _WAGER.match(line)) is not None:
            name, verb = found["name"], found["verb"]
            chips = b.chips(found["amount"], number)
            all_in = True if "all-in" in found["rest"].lower() else None
            if verb == "calls":
                b.bet(name, "call", number, added=chips, all_in=all_in)
            else:
                b.bet(name, "bet" if verb == "bets" else "raise", number, added=chips, all_in=all_in)
        elif (found := _SIMPLE.match(line)) is not None:
            name, verb = found["name"], found["verb"]
            if verb == "folds":
                b.bet(name, "fold", number)
                self.folded.add(name)
            elif verb == "checks":
                b.bet(name, "check", number)
            else:
                b.show(name, None, number)
        elif (found := _SHOWS.match(line)) is not None:
            name, cards = b.known(found["name"], number), _cards(b, found["cards"], number)
            if any(card is not None for card in b.cards.get(name, [])):  # the newer files: not in dealing order
                b.reveal_in_any_order(name, [c for c in cards if c is not None], number)
                cards = list(b.cards[name])
            b.show(name, cards, number)
        elif (found := _DEALT.match(line)) is not None:
            # the newer files (August 2011) list the cards the saver saw dealt on the street: his own, and the others'
            # up cards; they are the last ones the street dealt (the street's line dealt them unknown)
            name = b.known(found["name"], number)
            cards = _cards(b, found["cards"], number)
            held = b.cards.get(name, [])
            if not cards or len(cards) > self.dealt_now(b, name):
                raise b.fail(f"{name} is shown {len(cards)} cards, not those of this street", number)
            b.reveal(name, [None] * (len(held) - len(cards)) + cards, number)
        else:
            raise b.fail(f"cannot read the line {line!r}", number)

    def dealt_now(self, b: HandBuilder, name: str) -> int:
        """How many cards the current street dealt ``name``."""
        return sum(1 for street in b.street_of.get(name, []) if street == b.street)


def _cards(b: HandBuilder, text: str, line: int) -> list[Card | None]:
    return [b.card(token.strip(), line) for token in text.split(",") if token.strip()]
