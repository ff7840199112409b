"""What the dealer's console hands back: what is needed next (:class:`Needed`), what an entry did (:class:`Step`),
the chips pushed at the end of a hand (:class:`Push`), and the session report (:class:`Report`,
:class:`PlayerResult`). :mod:`studpoker.console.session` makes them (and exports them too).

>>> str(Needed("card", 3, "Cy", True, 4))
'deal seat 3 (Cy) a card face up (4th street)'
>>> str(Push(2, "Bob", 12, 0, "pot"))
'push Bob 12 (main pot)'
"""

from __future__ import annotations

from dataclasses import dataclass

from .irregularities import Ruling
from .journal import Entry

__all__ = ["Needed", "PlayerResult", "Push", "Report", "Step", "street_name"]


def street_name(street: int) -> str:
    """``3rd street``, ``7th street``... (five-card stud's streets are 2nd to 5th)."""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(street, "th")
    return f"{street}{suffix} street"


@dataclass(frozen=True, slots=True)
class Needed:
    """What the dealer must do next. ``kind`` is one of:

    * ``"seats"``: fewer than two players can be dealt in (buy-ins first);
    * ``"start"``: start the next hand;
    * ``"card"``: deal a card to ``seat``, face up or down, on ``street`` (``seat`` is ``None`` for the short deck's
      community card, which the engine asks for when the deck cannot give every player his last card);
    * ``"action"``: ``seat`` acts; ``options`` are his legal actions in words (``"call 10"``, ``"complete to 20"``,
      ``"raise to 40"``) and ``note`` says ``"cap reached"`` or ``"heads-up: no cap"`` when it matters;
    * ``"reveal"``: ``seats`` must show the cards the dealer entered as unknown, to settle the pots.
    """

    kind: str
    seat: int | None = None
    name: str = ""
    face_up: bool = False
    street: int = 0
    options: tuple[str, ...] = ()
    note: str = ""
    seats: tuple[int, ...] = ()
    hand: int = 0

    def __str__(self) -> str:
        who = f"seat {self.seat} ({self.name})"
        if self.kind == "seats":
            return "seat at least two players with chips"
        if self.kind == "start":
            return f"start hand {self.hand}"
        if self.kind == "card":
            if self.seat is None:
                return f"turn the community card ({street_name(self.street)})"
            return f"deal {who} a card face {'up' if self.face_up else 'down'} ({street_name(self.street)})"
        if self.kind == "reveal":
            return f"seats {', '.join(map(str, self.seats))} must show their cards (reveal)"
        note = f" ({self.note})" if self.note else ""
        return f"{who} to act: {', '.join(self.options)}{note}"


@dataclass(frozen=True, slots=True)
class Step:
    """What one accepted entry did: the entry as journalled, and the dealer's lines it brought (the bring-in, who
    is high and acts first, the winners of each pot), and the :class:`~studpoker.console.irregularities.Ruling` of a
    reported irregularity."""

    entry: Entry
    said: tuple[str, ...] = ()
    ruling: Ruling | None = None


@dataclass(frozen=True, slots=True)
class Push:
    """Chips the dealer pushes to one seat at the end of a hand: from ``pot`` (0 the main pot, 1... the side pots;
    ``None``: an uncalled bet returned), ``share`` ``"pot"``, ``"high"``, ``"low"``, ``"split"`` or
    ``"returned"``. ``odd_chips``: the odd chips (of the sign's smallest chip) above an even division of that share
    among its winners (R11.6), the high half's odd chip of a hi/lo pot split high and low included (R11.5.2)."""

    seat: int
    name: str
    amount: int
    pot: int | None
    share: str
    odd_chips: int = 0

    def __str__(self) -> str:
        if self.pot is None:
            return f"push {self.name} {self.amount} (uncalled, returned)"
        pot = "main pot" if self.pot == 0 else f"side pot {self.pot}"
        share = {"high": ", high half", "low": ", low half", "split": ", high and low"}.get(self.share, "")
        odd = f", {self.odd_chips} odd chip{'s' if self.odd_chips > 1 else ''}" if self.odd_chips else ""
        return f"push {self.name} {self.amount} ({pot}{share}{odd})"


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One player's session: what he bought in and topped up, took away, and holds now (``seat`` ``None`` once he
    has left); ``result`` is his win (+) or loss (-)."""

    name: str
    seat: int | None
    bought_in: int
    topped_up: int
    cashed_out: int
    stack: int

    @property
    def result(self) -> int:
        return self.stack + self.cashed_out - self.bought_in - self.topped_up


@dataclass(frozen=True, slots=True)
class Report:
    """The session report: hands dealt, each player's money, and the table's books, where
    ``money_in == chips_on_table + money_out`` always."""

    hands: int
    players: tuple[PlayerResult, ...]
    money_in: int
    chips_on_table: int
    money_out: int

    @property
    def balanced(self) -> bool:
        return self.money_in == self.chips_on_table + self.money_out

    def __str__(self) -> str:
        lines = [f"{self.hands} hand{'s' if self.hands != 1 else ''} dealt"]
        for p in self.players:
            where = f"seat {p.seat}" if p.seat is not None else "left"
            lines.append(
                f"{p.name} ({where}): bought in {p.bought_in}, topped up {p.topped_up}, took {p.cashed_out},"
                f" has {p.stack}: {p.result:+d}"
            )
        check = "balanced" if self.balanced else "DOES NOT BALANCE"
        lines.append(
            f"money in {self.money_in} = on the table {self.chips_on_table} + money out {self.money_out} ({check})"
        )
        return "\n".join(lines)
