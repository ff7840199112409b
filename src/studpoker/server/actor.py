"""One live table: an asyncio task that is the only writer of its :class:`~studpoker.table.Table`.

Everything that changes the table (a WebSocket action, an HTTP buy-in, the clock running out, a bot's move,
the next deal) is a job put in the actor's inbox and run one at a time, so the engine never sees two writers and
every change is followed by its broadcast before the next one starts. Money moves (buy-ins, cash-outs, the end
of a hand) are written to the database in one transaction with the seat rows before the change is announced; the
seat and money operations are :class:`~studpoker.server.seating.Seating`'s.

Each connection gets only what its seat's ``view`` shows: the messages of a step are built from the spectators'
view and encoded once for every viewer when the step dealt no face-down card (the usual case), else once per viewer
(each player of the hand, and the spectators) from that viewer's event log, and queued to every connection.
A connection's own writer task sends them, so a slow client never blocks the table.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from ..bots import BotError
from ..engine import Action, ActionKind, EngineError, HandState, Phase, Rules, codec
from ..engine.codec import view_to_json
from ..engine.events import ActionTaken, Awarded, CardDealt, Event, Shown
from ..history import phh
from ..history.record import record_hand
from ..table import Table
from . import chat, wire
from .connection import Connection
from .db import HandRow, Runner, SeatRow, TableRow, utcnow
from .errors import ApiError
from .ledger import HOUSE, cash_out_kind, purse, table_account, transfer
from .limits import MAX_SHOWDOWN_SECONDS
from .seating import Seating, SeatMeta
from .showdown import UncalledShow, automatic_choice, uncalled_winner
from .waitlist import WaitingList

if TYPE_CHECKING:
    from .config import Settings
    from .room import Room

__all__ = ["TableActor", "showdown_pause", "table_info"]

log = logging.getLogger("studpoker.server")

Job = Callable[[], Awaitable[Any]]


class Sign(Protocol):
    """What a table's info is made of besides its rules: an actor's fields, or a table row's."""

    @property
    def id(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def preset(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def created_by(self) -> int | None: ...
    @property
    def showdown_seconds(self) -> float | None: ...
    @property
    def training(self) -> bool: ...


def showdown_pause(stored: float | None, settings: Settings) -> float:
    """A table's pause after a showdown: its stored one, bounded again, or the room's."""
    if stored is not None and math.isfinite(stored):
        return min(max(float(stored), 0.0), MAX_SHOWDOWN_SECONDS)
    return settings.showdown_seconds


def table_info(
    sign: Sign,
    rules: Rules,
    settings: Settings,
    *,
    seats_taken: int,
    hands_played: int,
    pots: Iterable[int],
    playing: bool,
    waiting: int = 0,
) -> dict[str, Any]:
    """The table object of the API (``TableInfo``), for an actor or, on a gateway, from a table's row."""
    pots = list(pots)
    return {
        "id": sign.id,
        "name": sign.name,
        "variant": rules.variant.value,
        "variant_name": rules.variant.title,
        "preset": sign.preset,
        "stakes": {
            "ante": rules.ante,
            "bring_in": rules.bring_in,
            "small_bet": rules.small_bet,
            "big_bet": rules.big_bet,
        },
        "stakes_text": wire.stakes_text(rules),
        "min_buy_in": rules.min_buy_in,
        "max_buy_in": rules.max_buy_in,
        "max_seats": rules.max_seats,
        "seats_taken": seats_taken,
        "hands_played": hands_played,
        "average_pot": round(sum(pots) / len(pots)) if pots else 0,
        "playing": playing,
        "status": sign.status,
        "created_by": sign.created_by,
        "clock": {"action": settings.action_seconds, "bank": settings.time_bank},
        "showdown_seconds": showdown_pause(sign.showdown_seconds, settings),
        "training": bool(sign.training),
        "waiting": waiting,
    }


class TableActor(Seating):
    """The actor of table ``table_id``: start with :meth:`start`, talk to it with the coroutine methods."""

    def __init__(
        self,
        room: Room,
        row: TableRow,
        table: Table,
        seats: dict[int, SeatMeta],
        pots: list[int],
        db: Runner | None = None,
    ) -> None:
        self.room = room
        self.settings = room.settings
        self.db: Runner = db or room.db  # a table worker's is fenced by its lease (studpoker.server.lease)
        self.id = row.id
        self.name = row.name
        self.preset = row.preset
        self.created_by = row.created_by
        self.status = row.status  # open, closing (no new hand; closes when the one in play ends) or closed
        self.showdown_seconds = showdown_pause(row.showdown_seconds, self.settings)
        self.training = bool(row.training)  # practice chips from the house; cards public after the hand
        self.table = table
        self.seats = seats
        self.hands_played = len(pots)
        self.pots: deque[int] = deque(pots[-100:], maxlen=100)
        self.connections: set[Connection] = set()
        self.inbox: asyncio.Queue[tuple[Job, asyncio.Future[Any] | None] | None] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.failed = False
        self.paused = False  # deal no new hand (a table worker that is draining before it stops)
        # the hand in play
        self.seq = 0  # the current turn number (0 between hands)
        self.hand_players: list[dict[str, Any]] = []  # the hand row's players when it was dealt
        self.hand_seats: tuple[int, ...] = ()
        self.auto: set[int] = set()
        self.auto_seats: set[int] = set()
        self.turn_started = 0.0
        self.turn_timer: asyncio.TimerHandle | None = None
        self.bot_timer: asyncio.TimerHandle | None = None
        self.start_timer: asyncio.TimerHandle | None = None
        self.not_before = 0.0  # the event loop's time before which no hand is dealt (the pause after a hand)
        # chat: in memory only (a restart forgets it), the last chat.HISTORY lines
        self.chat_log: deque[dict[str, Any]] = deque(maxlen=chat.HISTORY)
        self.chat_id = 0
        self.chat_limiter = chat.ChatLimiter()
        self.random = random.Random(None if self.settings.seed is None else self.settings.seed + self.id)
        self.uncalled: UncalledShow | None = None  # the last hand's winner who may still show it (nobody called)
        self.waiting = WaitingList(self.settings.seat_hold_seconds)
        self.hold_timer: asyncio.TimerHandle | None = None

    # -- running -------------------------------------------------------------------------------------

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"table-{self.id}")
        self._post(self._maybe_start)

    async def stop(self) -> None:
        """Stop the actor (the hand in play stays unfinished: the next start voids it)."""
        self._cancel_timers()
        self.inbox.put_nowait(None)
        if self.task is not None:
            await self.task
        for connection in list(self.connections):
            connection.close(1001)
        self._close_bots()

    def abandon(self) -> None:
        """Stop at once without another write or frame (a table worker that lost the table's lease, or gives it
        back: the next owner voids the hand in play and the sockets are attached to it)."""
        self._cancel_timers()
        self.failed = True
        self.connections.clear()
        self.inbox.put_nowait(None)
        self._close_bots()

    def _cancel_timers(self) -> None:
        for timer in (self.turn_timer, self.bot_timer, self.start_timer):
            if timer is not None:
                timer.cancel()

    def _close_bots(self) -> None:
        for meta in self.seats.values():
            if meta.bot is not None:
                meta.bot.close()

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
        """After every job: seats held for the waiting list that were let go, seats that are no longer free, and
        free seats to offer to the next names (whose sockets get a snapshot saying so)."""
        if self.status != "open":
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        free = self.table.free_seats
        gone = self.waiting.expire(now)
        touched = [o.account_id for o in (*gone, *self.waiting.withdraw_lost_seats(free))]
        offers = self.waiting.offer(free, now)
        touched += [o.account_id for o in offers]
        if gone:  # the names behind them moved up
            touched += self.waiting.accounts
        for offer in offers:  # the actor runs a job when a hold ends, and so reviews the list again
            loop.call_later(offer.until - now + 0.01, self._post, self._tick)
        for account in dict.fromkeys(touched):
            self._resnapshot(account)

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

    def _post(self, job: Job) -> None:
        if not self.stopped:
            self.inbox.put_nowait((job, None))

    @property
    def stopped(self) -> bool:
        return self.task is not None and self.task.done()

    async def call(self, job: Job) -> Any:
        """Run ``job`` on the actor and wait for its result (its :class:`ApiError` is raised here)."""
        if self.stopped or self.status == "closed":
            raise self._gone()
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.inbox.put_nowait((job, future))
        return await future

    # -- reading ---------------------------------------------------------------------------------------

    def info(self) -> dict[str, Any]:
        """The table object of the API."""
        return table_info(
            self,
            self.table.rules,
            self.settings,
            seats_taken=len(self.table.occupied),
            hands_played=self.hands_played,
            pots=self.pots,
            playing=self.table.hand is not None,
            waiting=len(self.waiting),
        )

    def seat_info(self, number: int, *, bank: bool = False) -> dict[str, Any]:
        seat = self.table.seat(number)
        meta = self.seats[number]
        out: dict[str, Any] = {
            "seat": number,
            "name": seat.name,
            "stack": seat.stack,
            "bot": meta.bot_tag is not None,
            "sitting_out": seat.sitting_out,
            "leaving": seat.leaving,
            "queued": seat.queued,
            "connected": meta.bot_tag is not None or self._connected(meta.account_id),
        }
        if bank:
            out["time_bank"] = round(meta.time_bank, 2)
        return out

    def seats_info(self, *, bank: bool = False) -> list[dict[str, Any]]:
        return [self.seat_info(s.number, bank=bank) for s in self.table.occupied]

    def seat_of(self, account_id: int | None) -> int | None:
        if account_id is None:
            return None
        for number, meta in self.seats.items():
            if meta.account_id == account_id:
                return number
        return None

    def _connected(self, account_id: int | None) -> bool:
        return any(c.account_id == account_id for c in self.connections) if account_id is not None else False

    def _viewer(self, connection: Connection) -> int | None:
        seat = self.seat_of(connection.account_id)
        return None if seat is None else self.table.player_of(seat)

    def _clock(self) -> dict[str, float]:
        """What is left of the actor's clock now."""
        seat = self.table.actor_seat
        if seat is None:
            return {"action": 0.0, "bank": 0.0}
        meta = self.seats[seat]
        elapsed = asyncio.get_running_loop().time() - self.turn_started
        action = self.settings.action_seconds - elapsed
        bank = meta.time_bank + min(action, 0.0)
        return {"action": round(max(action, 0.0), 2), "bank": round(max(bank, 0.0), 2)}

    def _waiting_of(self, account_id: int) -> dict[str, Any]:
        """``waiting``: the account's place on the waiting list (``None``: not on it); ``offer``: the seat held
        for it and the seconds left to take it (``None``: none)."""
        offer = self.waiting.offer_of(account_id)
        left = 0.0 if offer is None else max(0.0, offer.until - asyncio.get_running_loop().time())
        held = None if offer is None else {"seat": offer.seat, "seconds": round(left, 1)}
        return {"waiting": self.waiting.place(account_id), "offer": held}

    def snapshot(self, connection: Connection) -> dict[str, Any]:
        """The full state for one connection (what its seat may see)."""
        seat = self.seat_of(connection.account_id)
        you = (
            None
            if connection.account_id is None
            else {
                "account_id": connection.account_id,
                "username": connection.username,
                "seat": seat,
                **self._waiting_of(connection.account_id),
            }
        )
        hand: dict[str, Any] | None = None
        state = self.table.hand
        if state is not None:
            view = state.view(self._viewer(connection))
            names = [self.table.seat(s).name for s in self.hand_seats]
            data = view_to_json(view, seat_names=names)
            data["legal_actions"] = []
            for player in data["players"]:
                player["seat"] = self.hand_seats[player["player"]]
            hand = {
                "hand": self.table.hand_number,
                "seq": self.seq,
                "street": view.street,
                "pot": view.pot,
                "seats": list(self.hand_seats),
                "actor_seat": self.table.actor_seat,
                "clock": self._clock(),
                **wire.betting(state),
                "view": data,
            }
        return {
            "type": "snapshot",
            "table": self.info(),
            "you": you,
            "seats": self.seats_info(bank=True),
            "hand": hand,
            "chat": list(self.chat_log),
            "voided": list(self.room.voided.get(self.id, ())),
        }

    # -- sending ---------------------------------------------------------------------------------------

    def _broadcast(self, message: dict[str, Any]) -> None:
        text = wire.encode(message)
        for connection in self.connections:
            connection.push(text)

    def _send_account(self, account_id: int | None, message: dict[str, Any]) -> None:
        text = wire.encode(message)
        for connection in self.connections:
            if account_id is not None and connection.account_id == account_id:
                connection.push(text)

    def _send_snapshot(self, connection: Connection) -> None:
        connection.push(wire.encode(self.snapshot(connection)))
        actor = self.table.actor_seat
        if self.table.hand is not None and actor is not None and self.seat_of(connection.account_id) == actor:
            connection.push(wire.encode(self._your_turn()))

    def _resnapshot(self, account_id: int | None) -> None:
        for connection in self.connections:
            if account_id is not None and connection.account_id == account_id:
                self._send_snapshot(connection)

    def _your_turn(self) -> dict[str, Any]:
        state = self.table.hand
        seat = self.table.actor_seat
        assert state is not None and seat is not None
        player = self.table.player_of(seat)
        assert player is not None
        public = state.view(None)
        return {
            "type": "your_turn",
            "hand": self.table.hand_number,
            "seq": self.seq,
            "seat": seat,
            "street": state.street,
            "legal": wire.legal_entries(state),
            "to_call": public.to_call,
            "bet": public.players[player].bet,
            "stack": state.stacks[player],
            "pot": state.pot,
            **wire.betting(state),
            "clock": self._clock(),
        }

    def _publish(self, state: HandState, new: Sequence[Event]) -> None:
        """Send ``new``, the events the last step logged (what ``apply`` or ``deal`` returned; the whole log when a
        hand starts), to every viewer as each may see them, then the chips, then whose turn it is."""
        hand = self.table.hand_number if self.table.hand is state else self.table.hands[-1].number
        events = state.events
        start = len(events) - len(new)
        # each action's turn number: the actions before it in the hand, plus one
        turn = sum(1 for e in events[:start] if isinstance(e, ActionTaken))
        action_seqs = list(range(turn + 1, turn + 1 + sum(1 for e in new if isinstance(e, ActionTaken))))
        by_viewer: dict[int | None, list[Connection]] = {}
        for connection in self.connections:
            by_viewer.setdefault(self._viewer(connection), []).append(connection)
        keys: list[int | None] = [None, *range(len(self.hand_seats))]
        public = state.view(None)
        # What a player sees differs from what a spectator sees only in face-down cards dealt (and burned cards,
        # which have no message): a run of events without a face-down card is the same for every viewer, so its
        # messages are built from the spectator's view and encoded once for all (the usual step: one action).
        shared: list[str] | None = None
        for key in keys:
            receivers = by_viewer.get(key)
            if not receivers or not new:
                continue
            texts = shared
            if texts is None:
                run = public.events[start:]
                view = public
                if any(isinstance(e, CardDealt) and not e.face_up for e in run):
                    view = state.view(key)
                    run = view.events[start:]
                messages = wire.event_messages(run, view, self.hand_seats, hand, action_seqs, self.auto)
                texts = [wire.encode(m) for m in messages]
                if view is public:
                    shared = texts
            for connection in receivers:
                for text in texts:
                    connection.push(text)
        dealt = {p["seat"]: str(p["name"]) for p in self.hand_players}  # the names as the hand was dealt
        names = [dealt.get(seat, f"seat {seat}") for seat in self.hand_seats]
        for message in wire.dealer_messages(public.events, start, public, names, self.table.rules, hand):
            self._broadcast(message)
        self._broadcast(wire.pot_message(public, self.hand_seats, hand, state))

    def _announce_turn(self) -> None:
        seat = self.table.actor_seat
        if seat is None:
            return
        loop = asyncio.get_running_loop()
        self.turn_started = loop.time()
        meta = self.seats[seat]
        hand, seq = self.table.hand_number, self.seq
        self._broadcast({"type": "turn", "hand": hand, "seq": seq, "seat": seat, "clock": self._clock()})
        if meta.bot is not None:
            delay = self.settings.bot_delay * (0.5 + self.random.random())
            self.bot_timer = loop.call_later(delay, self._post, lambda: self._bot_act(hand, seq))
            return
        self._send_account(meta.account_id, self._your_turn())
        budget = self.settings.action_seconds + meta.time_bank
        self.turn_timer = loop.call_later(budget, self._post, lambda: self._timeout(hand, seq))

    # -- playing ---------------------------------------------------------------------------------------

    def _schedule_start(self, delay: float) -> None:
        """Try to deal in ``delay`` seconds, and not before the pause after the last hand is over."""
        if self.start_timer is None and not self.failed:
            loop = asyncio.get_running_loop()
            wait = max(delay, self.not_before - loop.time())
            self.start_timer = loop.call_later(wait, self._post, self._maybe_start)

    async def _maybe_start(self) -> None:
        self.start_timer = None
        if (
            self.failed
            or self.paused
            or self.status != "open"
            or self.table.hand is not None
            or not self.table.can_start
        ):
            return
        if asyncio.get_running_loop().time() < self.not_before - 0.001:  # the pause after the last hand
            self._schedule_start(0.0)
            return
        table = self.table
        number = table.hand_number + 1
        players = table.eligible()
        started = [
            {
                "seat": s,
                "name": table.seat(s).name,
                "start": table.seat(s).stack,
                "end": None,
                "account_id": self.seats[s].account_id,
            }
            for s in players
        ]

        def work(session: Session) -> None:
            session.add(HandRow(table_id=self.id, number=number, status="playing", players=started))
            session.execute(update(TableRow).where(TableRow.id == self.id).values(hand_number=number))

        await self.db.run(work)
        self.hand_players = started
        self.uncalled = None
        before = {s.number: s for s in table.occupied}
        state = table.start_hand()
        self.hand_seats = table.players if table.hand is not None else players
        self.seq = 1
        self.auto = set()
        self.auto_seats = set()
        self._broadcast(
            {
                "type": "hand_started",
                "hand": number,
                "players": [{"seat": p["seat"], "name": p["name"], "stack": p["start"]} for p in started],
            }
        )
        self._publish(state, state.events)
        await self._stepped(state, before)

    async def _stepped(self, state: HandState, before: dict[int, Any]) -> None:
        """After a step: the showdown decisions the room makes for the player (:mod:`~studpoker.server.showdown`),
        then the end of the hand or the next turn."""
        while state.phase is Phase.SHOWDOWN and self.table.actor_seat is not None:
            seat = self.table.actor_seat
            choice = automatic_choice(state, bot=self.seats[seat].bot is not None)
            if choice is None:
                break
            events = self.table.act(choice)
            self.seq += 1
            self._publish(state, events)
        if state.is_over:
            await self._finish(state, before)
        else:
            self._announce_turn()

    async def _apply(self, action: Action, *, auto: bool) -> None:
        table = self.table
        state = table.hand
        seat = table.actor_seat
        assert state is not None and seat is not None
        for timer in (self.turn_timer, self.bot_timer):
            if timer is not None:
                timer.cancel()
        self.turn_timer = self.bot_timer = None
        meta = self.seats[seat]
        if meta.bot is None:
            elapsed = asyncio.get_running_loop().time() - self.turn_started
            meta.time_bank = max(0.0, meta.time_bank - max(0.0, elapsed - self.settings.action_seconds))
            if auto:
                meta.time_bank = 0.0
        before = {s.number: s for s in table.occupied}
        events = table.act(action)  # the caller checked it is legal
        if auto:
            self.auto.add(self.seq)
            self.auto_seats.add(seat)
        self.seq += 1
        self._publish(state, events)
        await self._stepped(state, before)

    async def act(self, connection: Connection, hand: int, seq: int, action: str, amount: int | None) -> None:
        """A connection's ``act`` message (its own seat only); refusals go back to it as ``error``."""

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
        legal = self.table.legal_actions()
        kinds = {a.kind: a for a in legal}
        # a hand the room asks about at the showdown cannot win: its clock mucks it
        action = (
            kinds.get(ActionKind.MUCK)
            or kinds.get(ActionKind.CHECK)
            or kinds.get(ActionKind.FOLD)
            or min(legal, key=lambda a: a.amount)
        )
        await self._apply(action, auto=True)

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

    async def _finish(self, state: HandState, before: dict[int, Any]) -> None:
        """The hand is over: save it (PHH, stacks, cash-outs of leavers) in one transaction, then announce it."""
        table = self.table
        played = table.hands[-1]
        table.hands.clear()  # the database keeps them; a long-running table must not grow
        number = played.number
        players = list(played.seats)
        pot = sum(v.total for v in state.view(None).players)
        awarded = [e for e in state.events if isinstance(e, Awarded)]
        winners = sorted({played.seats[e.player] for e in awarded})
        awards = [{"seat": played.seats[e.player], "amount": e.amount, "pot": e.pot, "share": e.share} for e in awarded]
        record = record_hand(
            state,
            players=played.names,
            seats=played.seats,
            info={"table": self.name, "hand": number, "event": "studpoker card room"},
        )
        text = phh.dumps(record)
        accounts = {
            entry["seat"]: entry.get("account_id") for entry in self.hand_players
        }  # as dealt: a seat's account may have left since
        ended = [
            {
                "seat": s,
                "name": played.names[i],
                "start": state.starting_stacks[i],
                "end": state.stacks[i],
                "account_id": accounts.get(s),
            }
            for i, s in enumerate(players)
        ]
        # clock bookkeeping: refill banks, sit out players the server had to act for too often
        for i, seat in enumerate(players):
            meta = self.seats.get(seat)
            if meta is None or meta.bot is not None:
                continue
            meta.time_bank = min(self.settings.time_bank, meta.time_bank + self.settings.bank_refill)
            meta.timeouts = meta.timeouts + 1 if seat in self.auto_seats else 0
            if meta.timeouts >= self.settings.timeouts_to_sit_out and seat in {s.number for s in table.occupied}:
                table.sit_out(seat)
            del i
        left = [(n, s) for n, s in before.items() if n not in {o.number for o in table.occupied}]
        cashed: dict[int, int] = {}
        for n, seat_before in left:
            cashed[n] = state.stacks[players.index(n)] + seat_before.queued if n in players else seat_before.stack
        # bots that went broke buy again, from the house
        rebuys: list[tuple[int, int]] = []
        unit = table.rules.chip_unit
        for s in table.occupied:
            meta = self.seats[s.number]
            if meta.bot is not None and s.stack < unit and not s.leaving:
                amount = table.rules.min_buy_in or 10 * table.rules.big_bet
                table.top_up(s.number, amount)
                rebuys.append((s.number, amount))
        occupied = {s.number: s for s in table.occupied}
        leaving_meta = {n: self.seats[n] for n, _ in left}

        def work(session: Session) -> None:
            row = session.scalar(select(HandRow).where(HandRow.table_id == self.id, HandRow.number == number))
            if row is None:
                row = HandRow(table_id=self.id, number=number, status="finished", players=ended)
                session.add(row)
            row.status, row.players, row.pot, row.winners = "finished", ended, pot, winners
            row.phh, row.finished_at = text, utcnow()
            for seat, amount in rebuys:
                transfer(
                    session, HOUSE, table_account(self.id), amount, "bot_top_up", table_id=self.id, memo=f"seat {seat}"
                )
            for n, meta in leaving_meta.items():
                target = purse(meta.account_id, bot=meta.bot is not None, training=self.training)
                kind = cash_out_kind(bot=meta.bot is not None, training=self.training)
                transfer(
                    session,
                    table_account(self.id),
                    target,
                    cashed[n],
                    kind,
                    table_id=self.id,
                    hand_number=number,
                    memo=f"left {self.name} seat {n}",
                )
                session.execute(delete(SeatRow).where(SeatRow.table_id == self.id, SeatRow.seat == n))
            for n, s in occupied.items():
                session.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == self.id, SeatRow.seat == n)
                    .values(stack=s.stack, queued=s.queued, sitting_out=s.sitting_out, leaving=s.leaving)
                )

        try:
            await self.db.run(work)
        except Exception:
            self.failed = True  # the hand row stays "playing": the next start voids it and the books stay right
            log.exception("table %s: hand %s could not be saved; the table stops dealing", self.id, number)
            return
        self.hands_played += 1
        self.pots.append(pot)
        self.seq = 0
        # the pause before the next deal: longer after a showdown, so that the hands shown can be read
        pause = self.settings.between_hands
        if any(isinstance(e, Shown) for e in state.events):
            pause = max(pause, self.showdown_seconds)
        if self.start_timer is not None:  # asked for during the hand (someone sat down): the pause decides now
            self.start_timer.cancel()
            self.start_timer = None
        self.not_before = asyncio.get_running_loop().time() + pause
        next_in = None if self.status != "open" or not table.can_start else round(pause, 2)
        self._broadcast(
            {
                "type": "hand_over",
                "hand": number,
                "pot": pot,
                "stacks": [{"seat": e["seat"], "stack": e["end"]} for e in ended],
                "winners": awards,
                "next_in": next_in,
            }
        )
        self.uncalled = uncalled_winner(state, played.seats, number, accounts)
        for n, _ in left:
            meta = self.seats.pop(n)
            if meta.bot is not None:
                meta.bot.close()
            self._broadcast({"type": "left", "seat": n, "name": before[n].name, "cashed_out": cashed[n]})
            self._resnapshot(meta.account_id)
        for n in occupied:
            self._broadcast({"type": "seat", **self.seat_info(n, bank=True)})
        if self.status == "closing":
            await self._close_now()
            return
        self._schedule_start(pause)

    async def show(self, connection: Connection, hand: int) -> None:
        """A connection's ``show``: the winner of a hand nobody called shows it to the table (until the next
        deal; once). Refusals go back to the connection as ``error``."""

        async def job() -> None:
            shown = self.uncalled
            if shown is None or hand != shown.hand:
                problem = ("stale", f"hand {hand} cannot be shown now: only the last hand, won without a showdown")
            elif connection.account_id != shown.account_id:
                problem = ("not_allowed", "only the player who won the hand uncalled may show it")
            else:
                problem = None
            if problem is not None:
                connection.push(wire.encode(wire.error(*problem, hand=hand)))
                return
            assert shown is not None
            self.uncalled = None

            def work(session: Session) -> None:
                row = session.scalar(select(HandRow).where(HandRow.table_id == self.id, HandRow.number == hand))
                if row is not None:  # the history shows the cards from now on, as the table saw them
                    row.players = [{**p, "shown": True} if i == shown.player else p for i, p in enumerate(row.players)]

            await self.db.run(work)
            self._broadcast(
                wire.uncalled_show_message(shown.hand, shown.seat, shown.cards, shown.down, self.table.rules)
            )

        self._post(job)

    # -- connections -------------------------------------------------------------------------------------

    async def connect(self, connection: Connection) -> None:
        async def job() -> None:
            first = connection.account_id is not None and not self._connected(connection.account_id)
            self.connections.add(connection)
            self._send_snapshot(connection)
            seat = self.seat_of(connection.account_id)
            if first and seat is not None:
                self._broadcast({"type": "seat", **self.seat_info(seat, bank=True)})

        await self.call(job)

    def disconnect(self, connection: Connection) -> None:
        async def job() -> None:
            self.connections.discard(connection)
            seat = self.seat_of(connection.account_id)
            if seat is not None and not self._connected(connection.account_id):
                self._broadcast({"type": "seat", **self.seat_info(seat, bank=True)})

        self._post(job)

    def chat(self, connection: Connection, text: str) -> None:
        """A connection's chat line (already cleaned: :func:`studpoker.server.chat.clean_text`): counted against
        its account's limit at this table (every tab of the account shares it), then sent to every connection
        of the table and kept in the last :data:`~studpoker.server.chat.HISTORY` lines. Refusals go back to the
        connection as ``error``; a refused line is not counted."""

        async def job() -> None:
            account = connection.account_id
            if account is None:
                connection.push(wire.encode(wire.error("not_logged_in", "sign in to chat")))
                return
            try:
                self.chat_limiter.check(account, asyncio.get_running_loop().time())
            except chat.ChatRefusedError as refused:
                problem = wire.error(refused.code, str(refused), retry_after=refused.retry_after)
                connection.push(wire.encode(problem))
                return
            self.chat_id += 1
            line = {
                "type": "chat",
                "id": self.chat_id,
                "account_id": account,
                "name": connection.username,
                "seat": self.seat_of(account),
                "text": text,
                "at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            }
            self.chat_log.append(line)
            self._broadcast(line)

        self._post(job)

    def resend_snapshot(self, connection: Connection) -> None:
        async def job() -> None:
            self._send_snapshot(connection)

        self._post(job)

    def resend_now(self, connection: Connection) -> None:
        """The snapshot (and ``your_turn``) for ``connection`` now (from a job already on the actor)."""
        if connection in self.connections:
            self._send_snapshot(connection)
