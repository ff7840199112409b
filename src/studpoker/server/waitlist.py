"""A full table's waiting list: who is next for a seat, and the seat held for him while he takes it.

A card room's floor keeps a list for a full game and calls the next name when a seat opens; online rooms hold the
seat for the player a short while. Here: a signed-in player may put his name down at a full table he does not sit
at (at most :data:`MAX_WAITING` names a table). When a seat is free and nobody holds it, the first name on the list
is offered it: the seat is held for him for ``hold_seconds`` (nobody else may sit there meanwhile), and his sockets
at the table are told (``seat_offered``). Sitting down anywhere at the table takes him off the list; letting the
time pass does too (he may put his name down again), and the next name gets the seat.

Pure bookkeeping: the actor calls it on its own steps and keeps the timers. The list lives in the table's memory
(a restart or a table moving to another worker forgets it; players put their names down again).

>>> waiting = WaitingList(hold_seconds=30)
>>> waiting.join(1, "ann"), waiting.join(2, "bob"), waiting.place(2)
(1, 2, 2)
>>> waiting.offer(free_seats=[4], now=100.0)
[Offer(account_id=1, username='ann', seat=4, until=130.0)]
>>> waiting.held_for(4), waiting.offer(free_seats=[4], now=101.0)   # one offer at a time for one free seat
(1, [])
>>> waiting.expire(now=131.0)                                       # ann let it pass: bob is next
[Offer(account_id=1, username='ann', seat=4, until=130.0)]
>>> waiting.offer(free_seats=[4], now=131.0)[0].username
'bob'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["MAX_WAITING", "Offer", "WaitingList"]

#: Names a table's list may hold (a bound on what one table keeps for anyone who asks).
MAX_WAITING = 50


@dataclass(frozen=True, slots=True)
class Offer:
    """Seat ``seat`` held for the account until ``until`` (the actor's clock, seconds)."""

    account_id: int
    username: str
    seat: int
    until: float


class WaitingList:
    """The names waiting for a seat at one table, in order, and the seats held for the first of them."""

    def __init__(self, hold_seconds: float) -> None:
        self.hold_seconds = hold_seconds
        self._names: list[tuple[int, str]] = []
        self._offers: dict[int, Offer] = {}  # by account

    def __len__(self) -> int:
        return len(self._names)

    @property
    def names(self) -> list[str]:
        return [name for _, name in self._names]

    @property
    def accounts(self) -> list[int]:
        return [account for account, _ in self._names]

    def place(self, account_id: int) -> int | None:
        """The account's place on the list (1 is next), or ``None``."""
        for index, (account, _) in enumerate(self._names):
            if account == account_id:
                return index + 1
        return None

    def join(self, account_id: int, username: str) -> int:
        """Put the account's name down (once); its place. :class:`ValueError` when the list is full."""
        place = self.place(account_id)
        if place is not None:
            return place
        if len(self._names) >= MAX_WAITING:
            raise ValueError(f"the waiting list is full ({MAX_WAITING} names)")
        self._names.append((account_id, username))
        return len(self._names)

    def leave(self, account_id: int) -> bool:
        """Take the account off the list (and give back a seat held for it); whether it was on it."""
        before = len(self._names)
        self._names = [(a, n) for a, n in self._names if a != account_id]
        self._offers.pop(account_id, None)
        return len(self._names) != before

    def saved(self) -> list[list[Any]]:
        """The names in order, as ``[account id, username]`` pairs: what a table carries to its next worker (a seat
        held is not: the next worker offers the free seats again)."""
        return [[account, name] for account, name in self._names]

    def restore(self, saved: Iterable[Any], seated: Iterable[int | None] = ()) -> None:
        """The names a table carried (:meth:`saved`), after those already down; what is not such a pair, a name
        already down, an account of ``seated`` (it sat down since) and any past :data:`MAX_WAITING` are left out.

        >>> waiting = WaitingList(30)
        >>> waiting.restore([[7, "ann"], [8, "bob"], ["x", 1], [7, "ann"], None, [9, "cy"]], seated=[9])
        >>> waiting.names
        ['ann', 'bob']
        """
        left_out = set(seated)
        for entry in saved:
            if not (isinstance(entry, list | tuple) and len(entry) == 2):
                continue
            account, name = entry
            if type(account) is not int or not isinstance(name, str) or self.place(account) is not None:
                continue
            if account in left_out:
                continue
            if len(self._names) >= MAX_WAITING:
                break
            self._names.append((account, name[:64]))

    def offer_of(self, account_id: int) -> Offer | None:
        return self._offers.get(account_id)

    def held_for(self, seat: int) -> int | None:
        """The account a seat is held for, or ``None``."""
        for offer in self._offers.values():
            if offer.seat == seat:
                return offer.account_id
        return None

    def offer(self, free_seats: Iterable[int], now: float) -> list[Offer]:
        """Hold each free seat that nobody holds for the next name without an offer; the new offers."""
        held = {o.seat for o in self._offers.values()}
        waiting = [(a, n) for a, n in self._names if a not in self._offers]
        made = []
        for seat in free_seats:
            if seat in held or not waiting:
                continue
            account, name = waiting.pop(0)
            offer = Offer(account, name, seat, now + self.hold_seconds)
            self._offers[account] = offer
            made.append(offer)
        return made

    def expire(self, now: float) -> list[Offer]:
        """Offers whose time has passed: their names leave the list, their seats are free for the next."""
        gone = [o for o in self._offers.values() if o.until <= now]
        for offer in gone:
            self.leave(offer.account_id)
        return gone

    def seated(self, account_id: int) -> None:
        """The account sat down: off the list, its offer taken."""
        self.leave(account_id)

    def withdraw_lost_seats(self, free_seats: Iterable[int]) -> list[Offer]:
        """Offers of seats that are no longer free (taken meanwhile): they go back to waiting, first in line."""
        free = set(free_seats)
        lost = [o for o in self._offers.values() if o.seat not in free]
        for offer in lost:
            del self._offers[offer.account_id]
        return lost
