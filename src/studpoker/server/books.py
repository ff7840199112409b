"""A table's books: the hand rows of the hands it deals, and a finished hand written in one transaction (its PHH
text and result, the ledger's transfers of the bots' rebuys and of the players who left, the seats' stacks and time
banks, the chat's last lines and the waiting list if they changed): what a table carries to its next worker
(:meth:`Books.keep`).

The books only write: the actor decides when, and announces what was written afterwards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from ..engine import HandState
from ..engine.events import Awarded
from ..history import phh
from ..history.record import record_hand
from ..table import PlayedHand, Seat
from .context import SeatMeta, TableContext
from .db import EntryRow, HandRow, SeatRow, utcnow
from .driversql import DriverStatement, DriverTransaction, json_text
from .hud import add_counts, hand_counts
from .ledger import HOUSE, cash_out_kind, purse, table_account, transfer
from .protocol import Award, ChatLine

__all__ = ["Books", "FinishedHand", "Leaver"]

Where: TypeAlias = Session | DriverTransaction  # what a hand's writing runs in (see Books.close_hand)

# The books write what every hand writes on the driver's cursor (studpoker.server.driversql): a table writes after
# every hand, and SQLAlchemy's own work per statement (and before that, the ORM's bookkeeping) cost a table worker
# more CPU than the rest of the hand's writing. What is rare (the ledger's transfers of rebuys and cash-outs, a
# leaver's seat row, a shown hand) stays on SQLAlchemy.
_HAND_OPENED = DriverStatement(
    "INSERT INTO hands (table_id, number, status, started_at, players, pot, winners) "
    "VALUES (:table, :number, 'playing', :started, :players, 0, '[]')"
)
_HAND_NUMBER = DriverStatement("UPDATE tables SET hand_number = :number WHERE id = :table")
_HAND_FINISHED = DriverStatement(
    "UPDATE hands SET status = 'finished', players = :players, pot = :pot, winners = :winners, phh = :phh, "
    "finished_at = :finished WHERE table_id = :table AND number = :number"
)
#: every kept seat's row after a hand, run for all of them at once
_SEAT_AFTER = DriverStatement(
    "UPDATE seats SET stack = :stack, queued = :queued, sitting_out = :out, leaving = :leaving, time_bank = :bank "
    "WHERE table_id = :table AND seat = :seat"
)
_SEAT_BANK = DriverStatement("UPDATE seats SET time_bank = :bank WHERE table_id = :table AND seat = :seat")
#: a finished hand whose row was never written (the database was away at the deal)
_HAND_INSERTED = DriverStatement(
    "INSERT INTO hands (table_id, number, status, started_at, finished_at, players, pot, winners, phh) "
    "VALUES (:table, :number, 'finished', :finished, :finished, :players, :pot, :winners, :phh)"
)
_TABLE_CHAT = DriverStatement("UPDATE tables SET chat = :chat WHERE id = :table")
_TABLE_WAITING = DriverStatement("UPDATE tables SET waiting = :waiting WHERE id = :table")
_TABLE_TURN = DriverStatement("UPDATE tables SET turn = :turn WHERE id = :table")


@dataclass(frozen=True)
class FinishedHand:
    """A finished hand as the books write it and the table is told of it."""

    number: int
    seats: tuple[int, ...]  # the seat of each player of the hand
    pot: int
    winners: list[int]  # the seats that won a share
    awards: list[Award]  # ``hand_over``'s ``winners``
    ended: list[dict[str, Any]]  # the hand row's players, with their stacks at the end
    accounts: dict[int, int | None]  # each seat's account as the hand was dealt (it may have left since)
    phh: str


@dataclass(frozen=True)
class Leaver:
    """A seat whose player left during the hand, cashed out now that it is over."""

    seat: int
    name: str
    meta: SeatMeta
    cashed: int  # what goes back to his purse (or the house's, a bot's)


class Books:
    """The books of the table of ``context``; ``chat`` is its chat's history (saved with each hand when it changed)."""

    def __init__(
        self,
        context: TableContext,
        chat: Iterable[ChatLine] = (),
        waiting: Callable[[], list[list[Any]]] = list,
    ) -> None:
        self.context = context
        self.chat = chat
        self.waiting = waiting  # the waiting list as it is carried (WaitingList.saved)
        self.waiting_saved: list[list[Any]] | None = None  # as this worker last wrote it (None: not yet)
        self.chat_saved = self._chat_mark()  # the last line saved (the lines loaded are saved already)

    def _chat_mark(self) -> Any:
        last = None
        for last in self.chat:  # noqa: B007 - the newest line is the last
            pass
        return None if last is None else last.get("id")

    def _carried(self, *, banks: bool, chat: bool, waiting: list[list[Any]] | None = None) -> Callable[[Where], None]:
        """The writing of (``banks``) the seats' time banks and (``chat``) the chat's last lines, as they are now,
        and of the waiting list ``waiting`` (``None``: not written)."""
        table_id = self.context.id
        kept = {n: round(meta.time_bank, 3) for n, meta in self.context.seats.items()} if banks else {}
        lines = list(self.chat) if chat else None

        def work(where: Where) -> None:
            if kept:
                _SEAT_BANK.run_many(where, [{"table": table_id, "seat": n, "bank": b} for n, b in kept.items()])
            if lines is not None:
                _TABLE_CHAT.run(where, {"table": table_id, "chat": json_text(lines)})
            if waiting is not None:
                _TABLE_WAITING.run(where, {"table": table_id, "waiting": json_text(waiting)})

        return work

    async def keep(self) -> None:
        """Write what the table carries to its next worker besides its chips: the seats' time banks, the chat's
        last lines and the waiting list (a table worker handing the table over, once its actor has stopped)."""
        mark, names = self._chat_mark(), self.waiting()
        await self.context.db.run_driver(self._carried(banks=True, chat=True, waiting=names))
        self.chat_saved, self.waiting_saved = mark, names

    async def open_hand(self, number: int, players: Sequence[int]) -> list[dict[str, Any]]:
        """Hand ``number`` is about to be dealt to the seats ``players``: its row, ``playing`` (a stop voids it).
        Returns the row's players (seat, name, stack at the start, account)."""
        table_id, table = self.context.id, self.context.table
        started = [
            {
                "seat": s,
                "name": table.seat(s).name,
                "start": table.seat(s).stack,
                "end": None,
                "account_id": self.context.seats[s].account_id,
            }
            for s in players
        ]

        row = {"table": table_id, "number": number, "started": utcnow(), "players": json_text(started)}

        def work(where: DriverTransaction) -> None:
            _HAND_OPENED.run(where, row)
            _HAND_NUMBER.run(where, row)

        await self.context.db.run_driver(work)
        return started

    def summarize(self, state: HandState, played: PlayedHand) -> FinishedHand:
        """What the books keep of a finished hand (``played``, the table's record of it)."""
        pot = sum(v.total for v in state.view(None).players)
        awarded = [e for e in state.events if isinstance(e, Awarded)]
        winners = sorted({played.seats[e.player] for e in awarded})
        awards: list[Award] = [
            {"seat": played.seats[e.player], "amount": e.amount, "pot": e.pot, "share": e.share} for e in awarded
        ]
        record = record_hand(
            state,
            players=played.names,
            seats=played.seats,
            info={"table": self.context.name, "hand": played.number, "event": "studpoker card room"},
        )
        accounts = {entry["seat"]: entry.get("account_id") for entry in self.context.hand_players}
        ended = [
            {
                "seat": s,
                "name": played.names[i],
                "start": state.starting_stacks[i],
                "end": state.stacks[i],
                "account_id": accounts.get(s),
            }
            for i, s in enumerate(played.seats)
        ]
        return FinishedHand(
            played.number, tuple(played.seats), pot, winners, awards, ended, accounts, phh.dumps(record)
        )

    async def close_hand(
        self,
        hand: FinishedHand,
        rebuys: list[tuple[int, int]],
        leavers: list[Leaver],
        occupied: dict[int, Seat],
    ) -> None:
        """Write the finished hand in one transaction: its row, the bots' rebuys from the house (``(seat,
        amount)``), the leavers' cash-outs and seat rows gone, the other seats' stacks and time banks, the chat's last
        lines if they changed, a mixed table's turn in its rotation, the seated accounts' HUD counts
        (:mod:`studpoker.server.hud`: its PHH replayed on the database thread, not on the table's actor)."""
        context = self.context
        table_id, number = context.id, hand.number
        mark, names = self._chat_mark(), self.waiting()
        changed = None if names == self.waiting_saved else names
        carried = self._carried(banks=False, chat=mark != self.chat_saved, waiting=changed)  # banks: with the stacks
        banks = {n: round(meta.time_bank, 3) for n, meta in context.seats.items()}
        ledger = bool(rebuys or leavers)  # chips move in or out of the table: the transfers need a session
        turn = None if context.table.rotation is None else json_text(context.table.turn.to_json())

        def work(where: Where) -> None:
            counts = hand_counts(hand.phh, hand.ended)  # before the first write: SQLite's lock is not held yet
            finished = utcnow()
            result = {"players": json_text(hand.ended), "winners": json_text(hand.winners), "pot": hand.pot}
            result |= {"phh": hand.phh, "finished": finished, "table": table_id, "number": number}
            if _HAND_FINISHED.run(where, result) == 0:  # its row was never written (the database was away)
                _HAND_INSERTED.run(where, result)
            if ledger:
                assert isinstance(where, Session)
                _transfers(where, context, number, rebuys, leavers)
            after = [
                {
                    "table": table_id,
                    "seat": n,
                    "stack": s.stack,
                    "queued": s.queued,
                    "out": s.sitting_out,
                    "leaving": s.leaving,
                    "bank": banks.get(n),
                }
                for n, s in occupied.items()
            ]
            _SEAT_AFTER.run_many(where, after)
            if turn is not None:  # a mixed table: where its rotation stands (a voided hand does not count)
                _TABLE_TURN.run(where, {"table": table_id, "turn": turn})
            carried(where)
            add_counts(where, counts)

        await (context.db.run(work) if ledger else context.db.run_driver(work))
        self.chat_saved, self.waiting_saved = mark, names

    async def mark_shown(self, number: int, player: int) -> None:
        """The winner of hand ``number`` (player ``player``) showed it: the history shows his cards from now on,
        as the table saw them."""
        table_id = self.context.id

        def work(session: Session) -> None:
            row = session.scalar(select(HandRow).where(HandRow.table_id == table_id, HandRow.number == number))
            if row is not None:
                row.players = [{**p, "shown": True} if i == player else p for i, p in enumerate(row.players)]

        await self.context.db.run(work)


def _transfers(
    session: Session, context: TableContext, number: int, rebuys: list[tuple[int, int]], leavers: list[Leaver]
) -> None:
    """The ledger's side of hand ``number``: the bots' rebuys from the house (``(seat, amount)``), and each
    leaver's cash-out, his seat's row gone."""
    table_id = context.id
    for seat, amount in rebuys:
        transfer(session, HOUSE, table_account(table_id), amount, "bot_top_up", table_id=table_id, memo=f"seat {seat}")
    tournament = context.tournament
    for leaver in leavers:
        bot = leaver.meta.bot is not None
        transfer(
            session,
            table_account(table_id),
            purse(leaver.meta.account_id, bot=bot, training=context.training, tournament=tournament),
            leaver.cashed,
            cash_out_kind(bot=bot, training=context.training, tournament=tournament),
            table_id=table_id,
            hand_number=number,
            memo=f"left {context.name} seat {leaver.seat}",
        )
        session.execute(delete(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == leaver.seat))
        if tournament is not None:  # out of the tournament, in this hand: the runner gives him his place
            start = next((p["start"] for p in context.hand_players if p["seat"] == leaver.seat), 0)
            out = {"out_table": table_id, "out_hand": number, "out_round": context.hand_round, "out_at": utcnow()}
            session.execute(
                update(EntryRow)
                .where(EntryRow.tournament_id == tournament, EntryRow.name == leaver.name, EntryRow.status == "playing")
                .values(status="out", busted_from=start, **out)
            )
