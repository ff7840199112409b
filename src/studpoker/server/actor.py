"""One live table: an asyncio task that is the only writer of its :class:`~studpoker.table.Table`.

Everything that changes the table (a WebSocket action, an HTTP buy-in, the clock running out, a bot's move,
the next deal) is a job put in the actor's inbox and run one at a time, so the engine never sees two writers and
every change is followed by its broadcast before the next one starts.

The actor keeps the hand loop and its inbox, and wires the parts that do the rest, each knowing only the table's
:class:`~studpoker.server.context.TableContext` (none knows the room):

* :class:`~studpoker.server.viewers.Viewers`: the connections, their frames and snapshots (what each may see);
* :class:`~studpoker.server.clock.Clock`: the action clock, the time banks, the pause between hands, the timers;
* :class:`~studpoker.server.books.Books`: the hand rows, and a finished hand written in one transaction;
* :class:`~studpoker.server.cashier.Cashier`: buy-ins, cash-outs, top-ups, sitting out, the waiting list, bots,
  closing. Money moves are written to the database with the seat rows before the change is announced.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from pydantic import BaseModel

from ..bots import BotError
from ..engine import Action, EngineError, HandState, Phase, codec
from ..table import Seat, Table
from . import schemas, wire
from .books import Books, FinishedHand, Leaver
from .cashier import Cashier
from .clock import Clock, timed_out_action
from .connection import Connection
from .context import SeatMeta, TableContext
from .db import Runner, TableRow
from .errors import ApiError
from .inbox import Inbox, Job
from .moves import Moves
from .protocol import HandStarted, SeatState, Snapshot, TableSummary, VoidedHand
from .showdown import UncalledShow, automatic_choice, show_uncalled, uncalled_winner
from .tableinfo import showdown_pause, table_info
from .tournamenttable import TournamentSide
from .viewers import Viewers
from .waitlist import WaitingList

if TYPE_CHECKING:
    from .config import Settings

__all__ = ["RoomSide", "TableActor", "showdown_pause", "table_info"]

log = logging.getLogger("studpoker.server")

Result = TypeVar("Result", bound=BaseModel)  # what an operation returns (studpoker.server.schemas)


class RoomSide(Protocol):
    """What an actor needs of its room: the table host (:class:`~studpoker.server.tablehost.TableHost`) meets it."""

    @property
    def settings(self) -> Settings: ...
    @property
    def db(self) -> Runner: ...
    @property
    def voided(self) -> Mapping[int, Iterable[VoidedHand]]: ...

    def forget(self, table_id: int) -> None: ...


class TableActor:
    """The actor of table ``table_id``: start with :meth:`start`, talk to it with the coroutine methods."""

    def __init__(
        self,
        room: RoomSide,
        row: TableRow,
        table: Table,
        seats: dict[int, SeatMeta],
        pots: list[int],
        db: Runner | None = None,
        tournament: TournamentSide | None = None,
    ) -> None:
        self.settings = room.settings
        self.db: Runner = db or room.db  # a table worker's is fenced by its lease (studpoker.server.lease)
        self.id = row.id
        self.name = row.name
        self.preset = row.preset
        self.created_by = row.created_by
        self.showdown_seconds = showdown_pause(row.showdown_seconds, self.settings)
        self.training = bool(row.training)  # practice chips from the house; cards public after the hand
        self.tournament_id = row.tournament_id  # a tournament's table
        self.table = table
        self.seats = seats
        self.context = TableContext(self.id, self.name, self.training, self.settings, self.db, table, seats, row.status)
        #: a tournament's table: its part (the level's stakes, breaks, hand-for-hand, busted players out)
        self.tournament = tournament
        self.context.tournament = None if tournament is None else tournament.id
        self.hands_played = len(pots)
        self.pots: deque[int] = deque(pots[-100:], maxlen=100)
        self.inbox = Inbox()
        self.task: asyncio.Task[None] | None = None
        self.failed = False
        self.paused = False  # deal no new hand (a table worker that is draining before it stops)
        self.random = random.Random(None if self.settings.seed is None else self.settings.seed + self.id)
        self.uncalled: UncalledShow | None = None  # the last hand's winner who may still show it (nobody called)
        self.waiting = WaitingList(self.settings.seat_hold_seconds)
        voided = room.voided  # the hands a stop voided, by table: read at each snapshot
        self._forget = room.forget  # a closed table leaves the room
        self.clock = Clock(self.context, self.showdown_seconds)
        self.viewers = Viewers(self.context, self.clock, self.waiting, self.info, lambda: voided.get(self.id, ()))
        self.connections = self.viewers.connections
        self.chat_log = self.viewers.chat_log  # the last chat.HISTORY lines, saved with each hand (books)
        self.books = Books(self.context, self.chat_log, self.waiting.saved)
        self.cashier = Cashier(self.context, self.waiting, self.viewers, self.clock, self._schedule_start, self._closed)
        self.moves = Moves(self.context, self.viewers, self._later, self._schedule_start)

    @property
    def status(self) -> str:
        """open, closing (no new hand; closes when the one in play ends) or closed."""
        return self.context.status

    @status.setter
    def status(self, value: str) -> None:
        self.context.status = value

    @property
    def seq(self) -> int:
        """The current turn number (0 between hands)."""
        return self.context.seq

    @property
    def hand_seats(self) -> tuple[int, ...]:
        """The seats of the players of the hand in play, by player."""
        return self.context.hand_seats

    # -- running -------------------------------------------------------------------------------------

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"table-{self.id}")
        self._post(self._maybe_start)

    async def stop(self) -> None:
        """Stop the actor (the hand in play stays unfinished: the next start voids it)."""
        self.clock.cancel_all()
        self.inbox.put(None)
        if self.task is not None:
            await self.task
        for connection in list(self.connections):
            connection.close(1001)
        self._close_bots()

    def abandon(self) -> None:
        """Stop at once without another write or frame (a table worker that lost the table's lease, or gives it
        back: the next owner voids the hand in play and the sockets are attached to it)."""
        self.clock.cancel_all()
        self.failed = True
        self.connections.clear()
        self.inbox.put(None)
        self._close_bots()

    def _close_bots(self) -> None:
        for meta in self.seats.values():
            if meta.bot is not None:
                meta.bot.close()

    def _closed(self) -> None:
        """The cashier closed the table: it leaves the room, and the actor stops after this job."""
        self._forget(self.id)
        self.inbox.put(None)

    def run_soon(self, job: Job) -> None:
        """Run ``job`` on the actor, between two of its steps, without waiting for it."""
        self._post(job)

    async def _run(self) -> None:
        while True:
            item = await self.inbox.get()
            if item is None:
                self._refuse_queued()
                return
            job, future = item
            try:
                result = await job()
            except Exception as exc:
                if future is not None and not future.done():
                    future.set_exception(exc)
                elif not isinstance(exc, ApiError):
                    log.exception("table %s: a job failed", self.id)
            else:
                if future is not None and not future.done():
                    future.set_result(result)
            if len(self.waiting) and not self.stopped:
                self._review_waiting()

    def _review_waiting(self) -> None:
        """After every job: the cashier reviews the waiting list; the actor runs a job when a hold it offered
        ends, and so reviews the list again."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        for until in self.cashier.review_waiting(now):
            loop.call_later(until - now + 0.01, self._post, self._tick)

    async def _tick(self) -> None:
        """A job that does nothing: what follows every job (the waiting list's review) is the point."""

    def _refuse_queued(self) -> None:
        """The actor has stopped: whoever still waits on a job is told the table is gone."""
        while not self.inbox.empty():
            item = self.inbox.get_nowait()
            if item is not None and item[1] is not None and not item[1].done():
                item[1].set_exception(self._gone())

    def _gone(self) -> ApiError:
        return ApiError(404, "not_found", f"table {self.id} is closed")

    def _later(self, delay: float, job: Job) -> None:
        asyncio.get_running_loop().call_later(delay, self._post, job)

    def _post(self, job: Job) -> None:
        if not self.stopped:
            self.inbox.put((job, None))

    @property
    def stopped(self) -> bool:
        return self.task is not None and self.task.done()

    async def call(self, job: Job) -> Any:
        """Run ``job`` on the actor and wait for its result (its :class:`ApiError` is raised here)."""
        if self.stopped or self.status == "closed":
            raise self._gone()
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.inbox.put((job, future))
        return await future

    # -- reading ---------------------------------------------------------------------------------------

    def info(self) -> TableSummary:
        """The table object of the API."""
        table = self.table
        return table_info(
            self,
            table.rules if table.rotation is None else table.rotation,
            self.settings,
            seats_taken=len(self.table.occupied),
            hands_played=self.hands_played,
            pots=self.pots,
            playing=self.table.hand is not None,
            waiting=len(self.waiting),
            turn=table.turn,
        )

    def seat_info(self, number: int, *, bank: bool = False) -> SeatState:
        return self.viewers.seat_info(number, bank=bank)

    def seats_info(self, *, bank: bool = False) -> list[SeatState]:
        return self.viewers.seats_info(bank=bank)

    def seat_of(self, account_id: int | None) -> int | None:
        return self.context.seat_of(account_id)

    def snapshot(self, connection: Connection) -> Snapshot:
        """The full state for one connection (what its seat may see)."""
        return self.viewers.snapshot(connection)

    # -- the cashier's operations, each a job on the actor (studpoker.server.cashier) ---------------------------

    async def _cash(self, job: Callable[[], Awaitable[Result]]) -> Result:
        result: Result = await self.call(job)
        return result

    async def sit(self, account_id: int, username: str, buy_in: int, seat: int | None) -> schemas.SitResult:
        """Seat the account with ``buy_in`` chips from its balance (:meth:`Cashier.sit`)."""
        return await self._cash(lambda: self.cashier.sit(account_id, username, buy_in, seat))

    async def leave(self, account_id: int) -> schemas.LeaveResult:
        return await self._cash(lambda: self.cashier.leave(account_id))

    async def top_up(self, account_id: int, amount: int) -> schemas.TopUpResult:
        """Add ``amount`` chips from the balance to the account's seat (queued during its hand); checked first."""
        return await self._cash(lambda: self.cashier.top_up(account_id, amount))

    async def set_sitting_out(self, account_id: int, out: bool) -> schemas.SittingOut:
        return await self._cash(lambda: self.cashier.set_sitting_out(account_id, out))

    async def join_waiting_list(self, account_id: int, username: str) -> schemas.WaitingPlace:
        """Put the account's name on the table's waiting list (the table must be full to it); its place."""
        return await self._cash(lambda: self.cashier.join_waiting_list(account_id, username))

    async def leave_waiting_list(self, account_id: int) -> schemas.WaitingLeft:
        """Take the account's name off the waiting list (a seat held for it goes to the next name)."""
        return await self._cash(lambda: self.cashier.leave_waiting_list(account_id))

    async def add_bots(self, count: int | None, tag: str | None) -> schemas.BotsAdded:
        """Seat up to ``count`` bots (every free seat if ``None``) with the minimum buy-in, from the house."""
        known = self.cashier.bot_tag(tag)
        return await self._cash(lambda: self.cashier.add_bots(count, known))

    async def remove_bots(self) -> schemas.BotsRemoved:
        return await self._cash(self.cashier.remove_bots)

    async def close(self) -> schemas.CloseResult:
        """Close the table (its creator or an admin asked): no new hand is dealt; at once between hands, or as
        soon as the hand in play is over, every seat is cashed out through the ledger (players to their
        balances, bots to the house), the table is marked closed, and its sockets get ``closed``."""
        return await self._cash(self.cashier.close)

    # a player moved between tables with his chips (studpoker.server.moves): the three steps

    async def hold_seat(self, account_id: int, username: str, seat: int | None) -> schemas.SeatHeld:
        return await self._cash(lambda: self.moves.hold(account_id, username, seat))

    async def move_out(self, account_id: int, to_table: int, to_name: str, to_seat: int) -> schemas.MovedOut:
        return await self._cash(lambda: self.moves.move_out(account_id, to_table, to_name, to_seat))

    async def move_in(self, account_id: int, seat: int) -> schemas.Arrived:
        return await self._cash(lambda: self.moves.move_in(account_id, seat))

    # -- playing ---------------------------------------------------------------------------------------

    def _announce_turn(self) -> None:
        seat = self.table.actor_seat
        if seat is None:
            return
        self.clock.start_turn()
        meta = self.seats[seat]
        hand, seq = self.table.hand_number, self.seq
        self.viewers.broadcast({"type": "turn", "hand": hand, "seq": seq, "seat": seat, "clock": self.clock.left()})
        if meta.bot is not None:
            delay = self.settings.bot_delay * (0.5 + self.random.random())
            self.clock.arm_bot(delay, self._post, lambda: self._bot_act(hand, seq))
            return
        self.viewers.send_account(meta.account_id, self.viewers.your_turn())
        if self.tournament is not None and not self.viewers.connected(meta.account_id):
            # away at a tournament: dealt in, and folded (or checked) when his turn comes, at once
            self.clock.arm_bot(0.0, self._post, lambda: self._timeout(hand, seq))
            return
        self.clock.arm_turn(meta, self._post, lambda: self._timeout(hand, seq))

    def _schedule_start(self, delay: float) -> None:
        """Try to deal in ``delay`` seconds, and not before the pause after the last hand is over."""
        if not self.failed:
            self.clock.schedule_start(delay, self._post, self._maybe_start)

    async def _maybe_start(self) -> None:
        self.clock.start_timer = None
        if (
            self.failed
            or self.paused
            or self.status != "open"
            or self.table.hand is not None
            or not self.table.can_start
        ):
            return
        if self.clock.too_soon():  # the pause after the last hand
            self._schedule_start(0.0)
            return
        if self.tournament is not None:  # the level's stakes; no hand on a break or before its round
            wait = await self.tournament.before_deal(self.table, self.id)
            if wait is not None or self.table.hand is not None or not self.table.can_start:
                if wait is not None:
                    self._schedule_start(wait)
                return
            self.context.hand_round = self.tournament.dealt_round
        table, context = self.table, self.context
        number = table.hand_number + 1
        players = table.eligible()
        started = await self.books.open_hand(number, players)
        context.hand_players = started
        self.uncalled = None
        before = {s.number: s for s in table.occupied}
        state = table.start_hand()
        context.hand_seats = table.players if table.hand is not None else players
        context.seq = 1
        context.auto = set()
        context.auto_seats = set()
        message: HandStarted = {
            "type": "hand_started",
            "hand": number,
            "players": [{"seat": p["seat"], "name": p["name"], "stack": p["start"]} for p in started],
        }
        if table.rotation is not None:  # a mixed table: the sign as this hand is dealt (its game, the next)
            message["table"] = self.info()
        self.viewers.broadcast(message)
        self.viewers.publish(state, state.events)
        await self._stepped(state, before)

    async def _stepped(self, state: HandState, before: dict[int, Seat]) -> None:
        """After a step: the showdown decisions the room makes for the player (:mod:`~studpoker.server.showdown`),
        then the end of the hand or the next turn."""
        while state.phase is Phase.SHOWDOWN and self.table.actor_seat is not None:
            seat = self.table.actor_seat
            choice = automatic_choice(state, bot=self.seats[seat].bot is not None)
            if choice is None:
                break
            events = self.table.act(choice)
            self.context.seq += 1
            self.viewers.publish(state, events)
        if state.is_over:
            await self._finish(state, before)
        else:
            self._announce_turn()

    async def _apply(self, action: Action, *, auto: bool) -> None:
        table, context = self.table, self.context
        state = table.hand
        seat = table.actor_seat
        assert state is not None and seat is not None
        self.clock.end_turn(self.seats[seat], auto=auto)
        before = {s.number: s for s in table.occupied}
        events = table.act(action)  # the caller checked it is legal
        if auto:
            context.auto.add(context.seq)
            context.auto_seats.add(seat)
        context.seq += 1
        self.viewers.publish(state, events)
        await self._stepped(state, before)

    def act(self, connection: Connection, hand: int, seq: int, action: str, amount: int | None) -> None:
        """A connection's ``act`` message (its own seat only), played by a job on the actor; refusals go back to it
        as ``error``."""

        async def job() -> None:
            problem = self._refusal(connection, hand, seq)
            if problem is not None:
                connection.push(wire.encode(wire.error(*problem, hand=hand, seq=seq)))
                return
            legal = self.table.legal_actions()
            reply: dict[str, Any] = {"action": action}
            if amount is not None and action.strip().lower() not in ("fold", "check"):
                reply["amount"] = amount
            try:
                chosen = codec.action_from_json(reply, legal)
            except EngineError as error:
                connection.push(wire.encode(wire.error("illegal", str(error), hand=hand, seq=seq)))
                return
            self.seats[self.table.actor_seat or 0].timeouts = 0
            await self._apply(chosen, auto=False)

        self._post(job)

    def _refusal(self, connection: Connection, hand: int, seq: int) -> tuple[str, str] | None:
        seat = self.seat_of(connection.account_id)
        if seat is None:
            return ("not_seated", "you have no seat at this table: spectators cannot act")
        if self.table.hand is None or hand != self.table.hand_number or seq != self.seq:
            now = f"hand {self.table.hand_number} turn {self.seq}" if self.table.hand is not None else "no hand"
            return ("stale", f"hand {hand} turn {seq} is not the current turn ({now}): too late or sent twice")
        if self.table.actor_seat != seat:
            return ("not_your_turn", f"it is seat {self.table.actor_seat}'s turn, not yours (seat {seat})")
        return None

    async def _timeout(self, hand: int, seq: int) -> None:
        if self.table.hand is None or hand != self.table.hand_number or seq != self.seq:
            return
        await self._apply(timed_out_action(self.table.legal_actions()), auto=True)

    async def _bot_act(self, hand: int, seq: int) -> None:
        if self.table.hand is None or hand != self.table.hand_number or seq != self.seq:
            return
        seat = self.table.actor_seat
        assert seat is not None
        bot = self.seats[seat].bot
        view = self.table.view(seat)
        assert bot is not None and view is not None
        try:
            action = bot.act(view)
            if action not in view.legal_actions:
                raise BotError(f"{bot!r} chose {action}, which is not legal")
        except Exception:
            log.exception("table %s: the bot in seat %s failed; it checks or folds", self.id, seat)
            await self._timeout(hand, seq)
            return
        await self._apply(action, auto=False)

    async def _finish(self, state: HandState, before: dict[int, Seat]) -> None:
        """The hand is over: save it (PHH, stacks, cash-outs of leavers) in one transaction, then announce it."""
        played = self.table.hands[-1]
        self.table.hands.clear()  # the database keeps them; a long-running table must not grow
        hand = self.books.summarize(state, played)
        if self.tournament is None:
            self._sit_out_timed_out(played.seats)
        else:  # nobody sits out (the time banks refill); no chip left: out (the runner gives him his place)
            self.clock.hand_over(played.seats, self.context.auto_seats)
            for number in self.tournament.busted(self.table):
                self.table.leave(number)
        leavers = self.cashier.leavers(state, before, played.seats)
        rebuys = self.cashier.rebuy_bots() if self.tournament is None else []
        occupied = {s.number: s for s in self.table.occupied}
        if not await self._save(hand, rebuys, leavers, occupied):
            return
        pause = self.clock.pause_after(state)
        self._announce_end(state, hand, leavers, occupied, pause)
        if self.status == "closing":
            await self.cashier.close_now()
            return
        self._schedule_start(pause)

    def _sit_out_timed_out(self, players: Iterable[int]) -> None:
        """The time banks refill; players the server had to act for too often sit out."""
        occupied = {s.number for s in self.table.occupied}
        for seat in self.clock.hand_over(players, self.context.auto_seats):
            if seat in occupied:
                self.table.sit_out(seat)

    async def _save(
        self, hand: FinishedHand, rebuys: list[tuple[int, int]], leavers: list[Leaver], occupied: dict[int, Seat]
    ) -> bool:
        """Write the hand to the books (``occupied``: the seats kept, their stacks now); if it cannot be, the table
        stops dealing (``False``)."""
        try:
            await self.books.close_hand(hand, rebuys, leavers, occupied)
        except Exception:
            self.failed = True  # the hand row stays "playing": the next start voids it and the books stay right
            log.exception("table %s: hand %s could not be saved; the table stops dealing", self.id, hand.number)
            return False
        self.hands_played += 1
        self.pots.append(hand.pot)
        self.context.seq = 0
        return True

    def _announce_end(
        self, state: HandState, hand: FinishedHand, leavers: list[Leaver], occupied: dict[int, Seat], pause: float
    ) -> None:
        """``hand_over``, then the seats that left (cashed out) and every seat's chips now."""
        next_in = None if self.status != "open" or not self.table.can_start else round(pause, 2)
        self.viewers.broadcast(
            {
                "type": "hand_over",
                "hand": hand.number,
                "pot": hand.pot,
                "stacks": [{"seat": e["seat"], "stack": e["end"]} for e in hand.ended],
                "winners": hand.awards,
                "next_in": next_in,
            }
        )
        self.uncalled = uncalled_winner(state, hand.seats, hand.number, hand.accounts)
        for leaver in leavers:
            meta = self.seats.pop(leaver.seat)
            if meta.bot is not None:
                meta.bot.close()
            self.viewers.broadcast(
                {"type": "left", "seat": leaver.seat, "name": leaver.name, "cashed_out": leaver.cashed}
            )
            self.viewers.resnapshot(meta.account_id)
        for n in occupied:
            self.viewers.seat_changed(n)

    def show(self, connection: Connection, hand: int) -> None:
        """A connection's ``show``: the winner of a hand nobody called shows it (:func:`show_uncalled`)."""
        self._post(lambda: show_uncalled(self, connection, hand))

    # -- connections -------------------------------------------------------------------------------------

    async def connect(self, connection: Connection) -> None:
        async def job() -> None:
            first = connection.account_id is not None and not self.viewers.connected(connection.account_id)
            self.connections.add(connection)
            self.viewers.send_snapshot(connection)
            seat = self.seat_of(connection.account_id)
            if first and seat is not None:
                self.viewers.seat_changed(seat)

        await self.call(job)

    def disconnect(self, connection: Connection) -> None:
        async def job() -> None:
            self.connections.discard(connection)
            seat = self.seat_of(connection.account_id)
            if seat is not None and not self.viewers.connected(connection.account_id):
                self.viewers.seat_changed(seat)

        self._post(job)

    def chat(self, connection: Connection, text: str) -> None:
        """A connection's chat line (already cleaned: :func:`studpoker.server.chat.clean_text`): counted against
        its account's limit at this table (every tab of the account shares it), then sent to every connection
        of the table and kept in the last :data:`~studpoker.server.chat.HISTORY` lines. Refusals go back to the
        connection as ``error``; a refused line is not counted."""

        async def job() -> None:
            self.viewers.say(connection, text)

        self._post(job)

    def resend_snapshot(self, connection: Connection) -> None:
        async def job() -> None:
            self.viewers.send_snapshot(connection)

        self._post(job)

    def resend_now(self, connection: Connection) -> None:
        """The snapshot (and ``your_turn``) for ``connection`` now (from a job already on the actor)."""
        if connection in self.connections:
            self.viewers.send_snapshot(connection)
