"""How a table worker's tables are spread over the live workers: which tables a worker gives up, and how many
it claims.

The policy is pure (:func:`fair_share`, :func:`claim_limit`, :func:`surplus`: numbers in, table ids out), so it is
tested without Redis or a database. A worker's fair share is ``ceil(open tables / live workers)``. It claims
tables without an owner up to one more than that (so that an orphaned table finds a worker even while the count
of workers is a moment behind), but only up to its share for a while after it handed tables over, so that it does
not take back what it just gave. It gives up tables only when it holds more than its share, at most
:data:`MOST_PER_PASS` at a time: a worker that joins a running room gets tables at once, and two workers never
trade a table back and forth.

A table given up stops at the end of its hand, never during one (:func:`stop_between_hands`): no new hand is
dealt, and once none is in play its actor stops between two of its jobs. The worker then saves what the table
carries to its next worker (:meth:`~studpoker.server.books.Books.keep`), releases the lease and asks the others
to claim (:mod:`studpoker.server.worker`). Nothing is voided.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import ApiError

if TYPE_CHECKING:
    from .actor import TableActor

__all__ = ["MOST_PER_PASS", "Load", "claim_limit", "fair_share", "loads", "stop_between_hands", "surplus"]

log = logging.getLogger("studpoker.server")

#: The most tables a worker gives up in one pass of its lease loop (the next pass gives up more if need be).
MOST_PER_PASS = 3
#: How often a table to give up is looked at until its hand is over (seconds).
POLL = 0.1


@dataclass(frozen=True)
class Load:
    """One of a worker's tables as the balance sees it."""

    table_id: int
    playing: bool  # a hand is in play
    viewers: int  # connections (players' and spectators' sockets)


def fair_share(total: int, workers: int) -> int:
    """The most tables one of ``workers`` live workers should hold of ``total`` open tables.

    >>> fair_share(10, 3), fair_share(0, 2), fair_share(5, 0)
    (4, 0, 5)
    """
    return math.ceil(total / max(1, workers))


def claim_limit(held: int, total: int, workers: int, *, handed_over_lately: bool = False) -> int:
    """How many tables without an owner a worker holding ``held`` may claim now: up to its fair share plus one,
    or up to its fair share only if it ``handed_over_lately`` (it would take back what it just gave)."""
    share = fair_share(total, workers) + (0 if handed_over_lately else 1)
    return max(0, share - held)


def surplus(loads: Sequence[Load], total: int, workers: int, most: int = MOST_PER_PASS) -> list[int]:
    """The tables a worker holding ``loads`` should give up now, by id: those beyond its fair share (none with a
    single live worker), at most ``most``; first those with no hand in play, then those with the fewest viewers,
    then the lowest ids (the same inputs give the same choice)."""
    if workers <= 1:
        return []
    excess = min(len(loads) - fair_share(total, workers), most)
    if excess <= 0:
        return []
    ranked = sorted(loads, key=lambda load: (load.playing, load.viewers, load.table_id))
    return sorted(load.table_id for load in ranked[:excess])


def loads(actors: Mapping[int, TableActor], held: Collection[int]) -> list[Load]:
    """The loads of the tables of ``actors`` that may be handed over: open, dealing, and in ``held`` (the worker
    holds their leases)."""
    movable = [(t, a) for t, a in actors.items() if t in held and a.status == "open" and not a.failed]
    return [Load(t, a.table.hand is not None, len(a.connections)) for t, a in movable]


async def stop_between_hands(actor: TableActor, stopping: Callable[[], object]) -> bool:
    """Stop ``actor`` at the end of its hand, for a hand-over: from now on it deals no new hand; once none is in
    play, between two of its jobs, ``stopping()`` is called (the worker stops routing messages to the table; it may
    abandon the actor) and the actor is abandoned (no frame or write after). Once its task has ended, what the
    table carries to its next worker besides its chips is saved (chat, time banks:
    :meth:`~studpoker.server.books.Books.keep`) and ``True`` returned. ``False``: it stopped otherwise first (it
    lost its lease, a hand could not be saved, it closed), and nothing was done."""
    actor.paused = True

    async def stop() -> bool:
        if actor.table.hand is not None or actor.status != "open" or actor.failed:
            return False  # a hand was dealt before the pause was seen: wait for its end
        stopping()
        if not actor.failed:  # ``stopping`` may have abandoned it already
            actor.abandon()
        return True

    while not actor.failed and not actor.stopped and actor.status == "open":
        if actor.table.hand is None:
            try:
                if await actor.call(stop):
                    if actor.task is not None:
                        await actor.task  # the jobs queued before the stop run (their writes are still fenced)
                    await keep(actor)
                    return True
            except ApiError:
                return False
        await asyncio.sleep(POLL)
    return False


async def keep(actor: TableActor) -> None:
    """Save what ``actor``'s table carries to its next worker (its chips are saved already: no hand is in play)."""
    try:
        await actor.books.keep()
    except Exception as error:  # only the chat's last lines and the time banks are lost: the next owner starts afresh
        log.warning("table %s: its chat and time banks could not be saved (%s)", actor.id, error)
