"""Who watches a table, and what each of them is sent.

Each connection gets only what its seat's ``view`` shows: the messages of a step are built from the spectators'
view and encoded once for every viewer when the step dealt no face-down card (the usual case), else once per viewer
(each player of the hand, and the spectators) from that viewer's event log, and queued to every connection.
A connection's own writer task sends them, so a slow client never blocks the table.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from pydantic import TypeAdapter, ValidationError

from ..engine import HandState
from ..engine.codec import view_to_json
from ..engine.events import ActionTaken, CardDealt, Event
from . import chat, wire
from .clock import Clock
from .connection import Connection
from .context import TableContext
from .protocol import ChatLine, HandNow, SeatState, Snapshot, TableSummary, ToBrowser, VoidedHand, You, YourTurn
from .waitlist import WaitingList

__all__ = ["Viewers"]

_CHAT_LINE: TypeAdapter[ChatLine] = TypeAdapter(ChatLine)


class Viewers:
    """The connections of the table of ``context``, and the frames and snapshots they get.

    ``info`` gives the table object of the API, ``voided`` the hands a stop voided (both for the snapshot)."""

    def __init__(
        self,
        context: TableContext,
        clock: Clock,
        waiting: WaitingList,
        info: Callable[[], TableSummary],
        voided: Callable[[], Iterable[VoidedHand]],
    ) -> None:
        self.context = context
        self.clock = clock
        self.waiting = waiting
        self.info = info
        self.voided = voided
        self.connections: set[Connection] = set()
        # chat: the last chat.HISTORY lines (the books save them with each hand and when the table changes worker)
        self.chat_log: deque[ChatLine] = deque(maxlen=chat.HISTORY)
        self.chat_id = 0
        self.chat_limiter = chat.ChatLimiter()

    def restore_chat(self, lines: Iterable[Any]) -> None:
        """The chat's last lines as the table saved them (a table loaded again): its history, and the numbering of
        the lines goes on after theirs. A line that is not a ``chat`` message is left out."""
        for saved in lines:
            try:
                line = _CHAT_LINE.validate_python(saved)
            except ValidationError:
                continue
            self.chat_log.append(line)
            self.chat_id = max(self.chat_id, line["id"])

    # -- who ---------------------------------------------------------------------------------------------

    def connected(self, account_id: int | None) -> bool:
        return any(c.account_id == account_id for c in self.connections) if account_id is not None else False

    def viewer(self, connection: Connection, seats: Mapping[int, int] | None = None) -> int | None:
        """The player of the hand in play whose cards ``connection`` sees (``None``: a spectator's view).
        ``seats``: :meth:`TableContext.seats_by_account`, made once by a caller that asks for many connections."""
        if seats is None:
            seats = self.context.seats_by_account()
        seat = None if connection.account_id is None else seats.get(connection.account_id)
        return None if seat is None else self.context.table.player_of(seat)

    # -- what ------------------------------------------------------------------------------------------------

    def seat_info(self, number: int, *, bank: bool = False) -> SeatState:
        seat = self.context.table.seat(number)
        meta = self.context.seats[number]
        out: SeatState = {
            "seat": number,
            "name": seat.name,
            "stack": seat.stack,
            "bot": meta.bot_tag is not None,
            "sitting_out": seat.sitting_out,
            "leaving": seat.leaving,
            "queued": seat.queued,
            "connected": meta.bot_tag is not None or self.connected(meta.account_id),
        }
        if bank:
            out["time_bank"] = round(meta.time_bank, 2)
        return out

    def seat_changed(self, number: int) -> None:
        """Tell everyone seat ``number``'s state now (``seat``, its time bank too)."""
        state = self.seat_info(number, bank=True)
        self.broadcast({"type": "seat", **state})

    def seats_info(self, *, bank: bool = False) -> list[SeatState]:
        return [self.seat_info(s.number, bank=bank) for s in self.context.table.occupied]

    def you(self, account_id: int, username: str | None) -> You:
        """Who a socket speaks for: its account, its seat, ``waiting`` its place on the waiting list (``None``: not
        on it), ``offer`` the seat held for it and the seconds left to take it (``None``: none)."""
        offer = self.waiting.offer_of(account_id)
        left = 0.0 if offer is None else max(0.0, offer.until - self.clock.now())
        return {
            "account_id": account_id,
            "username": username,
            "seat": self.context.seat_of(account_id),
            "waiting": self.waiting.place(account_id),
            "offer": None if offer is None else {"seat": offer.seat, "seconds": round(left, 1)},
        }

    def snapshot(self, connection: Connection) -> Snapshot:
        """The full state for one connection (what its seat may see)."""
        context, table = self.context, self.context.table
        account = connection.account_id
        you = None if account is None else self.you(account, connection.username)
        hand: HandNow | None = None
        state = table.hand
        if state is not None:
            view = state.view(self.viewer(connection))
            names = [table.seat(s).name for s in context.hand_seats]
            data = view_to_json(view, seat_names=names)
            data["legal_actions"] = []
            for player in data["players"]:
                player["seat"] = context.hand_seats[player["player"]]
            hand = {
                "hand": table.hand_number,
                "seq": context.seq,
                "street": view.street,
                "pot": view.pot,
                "seats": list(context.hand_seats),
                "actor_seat": table.actor_seat,
                "clock": self.clock.left(),
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
            "voided": list(self.voided()),
        }

    def your_turn(self) -> YourTurn:
        """``your_turn`` for the player to act: his legal actions and what they cost."""
        table = self.context.table
        state = table.hand
        seat = table.actor_seat
        assert state is not None and seat is not None
        player = table.player_of(seat)
        assert player is not None
        return {
            "type": "your_turn",
            "hand": table.hand_number,
            "seq": self.context.seq,
            "seat": seat,
            "street": state.street,
            "legal": wire.legal_entries(state),
            "to_call": state.to_call,
            "bet": state.bets[player],
            "stack": state.stacks[player],
            "pot": state.pot,
            **wire.betting(state),
            "clock": self.clock.left(),
        }

    def say(self, connection: Connection, text: str) -> None:
        """A connection's chat line (see :meth:`~studpoker.server.actor.TableActor.chat`): checked against its
        account's limit, then sent to every connection and kept in the history."""
        account = connection.account_id
        if account is None:
            connection.push(wire.encode(wire.error("not_logged_in", "sign in to chat")))
            return
        try:
            self.chat_limiter.check(account, self.clock.now())
        except chat.ChatRefusedError as refused:
            problem = wire.error(refused.code, str(refused), retry_after=refused.retry_after)
            connection.push(wire.encode(problem))
            return
        self.chat_id += 1
        line: ChatLine = {
            "type": "chat",
            "id": self.chat_id,
            "account_id": account,
            "name": connection.username,
            "seat": self.context.seat_of(account),
            "text": text,
            "at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        }
        self.chat_log.append(line)
        self.broadcast(line)

    # -- sending ---------------------------------------------------------------------------------------

    def broadcast(self, message: ToBrowser) -> None:
        text = wire.encode(message)
        for connection in self.connections:
            connection.push(text)

    def send_account(self, account_id: int | None, message: ToBrowser) -> None:
        text = wire.encode(message)
        for connection in self.connections:
            if account_id is not None and connection.account_id == account_id:
                connection.push(text)

    def send_snapshot(self, connection: Connection) -> None:
        """The snapshot for ``connection``, and ``your_turn`` if its seat is to act."""
        connection.push(wire.encode(self.snapshot(connection)))
        table = self.context.table
        actor = table.actor_seat
        if table.hand is not None and actor is not None and self.context.seat_of(connection.account_id) == actor:
            connection.push(wire.encode(self.your_turn()))

    def resnapshot(self, account_id: int | None) -> None:
        """A new snapshot for every connection of ``account_id``."""
        for connection in self.connections:
            if account_id is not None and connection.account_id == account_id:
                self.send_snapshot(connection)

    def publish(self, state: HandState, new: Sequence[Event]) -> None:
        """Send ``new``, the events the last step logged (what ``apply`` or ``deal`` returned; the whole log when a
        hand starts), to every viewer as each may see them, then the chips, then whose turn it is."""
        context, table = self.context, self.context.table
        hand = table.hand_number if table.hand is state else table.hands[-1].number
        events = state.events
        start = len(events) - len(new)
        # each action's turn number: the turn now (one past the last action, context.seq) counts the actions before
        # and in this step; no need to count through the whole hand at every step
        acted = sum(1 for e in new if type(e) is ActionTaken)
        action_seqs = list(range(context.seq - acted, context.seq))
        # each connection's viewer, with the seats looked up once for the whole step
        seats = context.seats_by_account()
        by_viewer: dict[int | None, list[Connection]] = {}
        for connection in self.connections:
            by_viewer.setdefault(self.viewer(connection, seats), []).append(connection)
        public = state.view(None)
        # the dealer's lines and the chips: public, the same for everyone, encoded once
        dealt = {p["seat"]: str(p["name"]) for p in context.hand_players}  # the names as the hand was dealt
        names = [dealt.get(seat, f"seat {seat}") for seat in context.hand_seats]
        after = [wire.encode(m) for m in wire.dealer_messages(public.events, start, public, names, table.rules, hand)]
        after.append(wire.encode(wire.pot_message(public, context.hand_seats, hand, state)))
        # What a player sees differs from what a spectator sees only in face-down cards dealt (and burned cards,
        # which have no message): a run of events without a face-down card is the same for every viewer, so its
        # messages are built from the spectator's view and encoded once for all (the usual step: one action).
        shared: list[str] | None = None
        viewers = range(len(context.hand_seats))
        for key, receivers in by_viewer.items():
            texts = after
            if new and (key is None or key in viewers):
                events_texts = shared
                if events_texts is None:
                    run = public.events[start:]
                    private = any(type(e) is CardDealt and not e.face_up for e in run)
                    if private:  # the viewer's own log, without the rest of his view: what it adds is public
                        run = state.events_seen_by(key)[start:]
                    messages = wire.event_messages(run, public, context.hand_seats, hand, action_seqs, context.auto)
                    events_texts = [wire.encode(m) for m in messages]
                    if not private:
                        shared = events_texts
                texts = events_texts + after
            # a batching client takes the step as one piece of its frame, joined once for all who see it alike
            piece: str | None = None
            for connection in receivers:
                if connection.batch:
                    if piece is None:
                        piece = ",".join(texts)
                    connection.push(piece)
                else:
                    for text in texts:
                        connection.push(text)
