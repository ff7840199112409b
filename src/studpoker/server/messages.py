"""Every message between the processes of the distributed room: gateways and table workers, over the bus.

The set is closed: one frozen type per message, grouped by the channel it travels on (:mod:`studpoker.server.bus`):

* :data:`ToWorker`, on ``table:<id>``, from a gateway to the table's worker: a socket's :class:`Attach`,
  :class:`Detach`, :class:`Resync`, :class:`Snapshot`, :class:`Act`, :class:`Show`, :class:`Chat`, and
  :class:`Call`, an HTTP operation (:data:`Operation`: :class:`Sit`, :class:`Leave`, :class:`TopUp`,
  :class:`SetSittingOut`, :class:`JoinWaitingList`, :class:`LeaveWaitingList`, :class:`AddBots`,
  :class:`RemoveBots`, :class:`CloseTable`);
* :data:`ToGateway`, on ``gateway:<id>``, from a worker to one gateway: the :class:`Answer` to a call, and
  :class:`Gone` (sockets the worker does not know: attach them again); besides these, the frame batches
  (:mod:`studpoker.server.frames`), which start with ``{"t"`` and are told apart by that alone (the hot path);
* :data:`ToRoom`, on ``room``, to everyone: :class:`Claim` (a table wants an owner), :class:`Owner` (a table has a
  new one), :class:`SessionEnded` (close that session's sockets).

Besides the channels, a table's lobby entry, which its worker keeps in Redis for the gateways: :class:`TableEntry`
(:func:`decode_entry`).

One codec: :func:`encode` writes compact JSON with an ``"op"``; :func:`decode` takes the text and what the
channel may carry (:data:`TO_WORKER`, :data:`TO_GATEWAY`, :data:`TO_ROOM`) and gives the message, or raises
:class:`BadMessage` saying what is wrong: text too long or nested too deep, not JSON, an unknown op, a missing,
unknown or ill-typed field (a ``bool`` is no integer), a string or list too long, an integer out of range. A
process drops what does not decode, with a log line (:func:`studpoker.server.bus.dropped`), and never answers it.

The bounds are the room's: an action name at most 20 characters, a chat line 400, a username 40, a session 64,
a gateway's name 80; the socket's checks of a player's ``act`` and ``show`` are these same ones
(:func:`act_fields`, :func:`show_hand`), so the browser's message and the bus's cannot be held to different rules.

Why Pydantic models rather than dataclasses: measured on ``act``, the message of every action (``python
bench/messages.py``: Python 3.11, pydantic 2.14, best of five, over five runs on a shared 2-core machine), a
strict frozen model decodes (text to a checked message) in 2.7 to 4.4 µs and encodes in 1.6 to 2.6 µs, where a
frozen slotted dataclass with the same checks written out by hand after ``json.loads`` takes 4.8 to 7.9 µs and
3.5 to 5.7 µs: Pydantic parses and checks in one pass, in Rust. Building a model costs more (2.7 to 4.0 µs
against 1.1 to 1.4 µs: it is checked then too), so a message that crosses (build, encode, decode) costs somewhat
less in all (about 8 µs against 10), and the receiving end, where the check matters, about half as much. The
frame batches, the hot path, stay plain JSON, their code unchanged (pack and unpack of 20 sockets' frames measure
the same as before, 16 to 24 µs and 14 to 21 µs on that machine).
"""

from __future__ import annotations

from typing import Annotated, Any, Generic, Literal, TypeAlias, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    TypeAdapter,
    ValidationError,
    model_serializer,
    model_validator,
)
from pydantic_core import PydanticCustomError

from .clientmessages import MAX_ACTION, ActFields, ActionName, Amount, Hand, Seq, act_fields, show_hand
from .limits import MAX_CHIPS, MAX_ID, MAX_NAME, json_depth
from .protocol import SeatState, TableSummary

__all__ = [
    "MAX_ACTION",
    "MAX_CHAT",
    "MAX_DEPTH",
    "MAX_GATEWAY",
    "MAX_SESSION",
    "MAX_TEXT",
    "MAX_USERNAME",
    "TO_GATEWAY",
    "TO_ROOM",
    "TO_WORKER",
    "Act",
    "ActFields",
    "AddBots",
    "Answer",
    "Attach",
    "BadMessage",
    "Call",
    "Chat",
    "Claim",
    "CloseTable",
    "Detach",
    "ErrorBody",
    "Gone",
    "HoldSeat",
    "JoinWaitingList",
    "JsonObject",
    "Kind",
    "Leave",
    "LeaveWaitingList",
    "Message",
    "MoveIn",
    "MoveOut",
    "Operation",
    "Owner",
    "RemoveBots",
    "Resync",
    "SessionEnded",
    "SetSittingOut",
    "Show",
    "Sit",
    "Snapshot",
    "TableEntry",
    "ToGateway",
    "ToRoom",
    "ToWorker",
    "TopUp",
    "act_fields",
    "decode",
    "decode_entry",
    "encode",
    "show_hand",
]


#: A JSON object, as ``json.loads`` gives it (what an operation returns, carried by :class:`Answer`).
JsonObject: TypeAlias = dict[str, JsonValue]

#: The longest chat line, username, session (a token's SHA-256, in hex) and gateway name (an action name's:
#: :data:`~studpoker.server.clientmessages.MAX_ACTION`).
MAX_CHAT = 400
MAX_USERNAME = 40
MAX_SESSION = 64
MAX_GATEWAY = 80
#: The longest call id, bot tag, error code, error message, reason for closing a session.
MAX_CALL_ID = 64
MAX_TAG = 40
MAX_CODE = 80
MAX_MESSAGE = 2000
MAX_REASON = 400
#: The most headers an answer carries, and the longest name or value of one.
MAX_HEADERS = 16
MAX_HEADER = 200
#: The most sockets one :class:`Gone` names, and seats a :class:`TableEntry` lists.
MAX_SOCKETS = 10_000
MAX_ENTRY_SEATS = 64
#: The longest message text, in characters, and how deeply it may nest arrays and objects.
MAX_TEXT = 64 * 1024
MAX_DEPTH = 16
#: The largest socket or attachment number (counters of a gateway that only grow) and lease generation.
MAX_COUNTER = 2**63 - 1


class BadMessage(ValueError):  # noqa: N818 (a message, bad: not an error of the code)
    """A text that is no message of the channel it came on; ``str(error)`` says what is wrong."""


# -- fields ----------------------------------------------------------------------------------------------------

Id = Annotated[int, Field(ge=0, le=MAX_ID)]
Chips = Annotated[int, Field(ge=0, le=MAX_CHIPS)]
Counter = Annotated[int, Field(ge=0, le=MAX_COUNTER)]
Username = Annotated[str, Field(max_length=MAX_USERNAME)]
Session = Annotated[str, Field(max_length=MAX_SESSION)]
CallId = Annotated[str, Field(max_length=MAX_CALL_ID)]
Gateway = Annotated[str, Field(max_length=MAX_GATEWAY, validation_alias="gw", serialization_alias="gw")]
Header = Annotated[str, Field(max_length=MAX_HEADER)]


class _Message(BaseModel):
    """Frozen, strict (no ``bool`` for an ``int``, no ``"3"`` for a ``3``), nothing but the fields; a field with
    a wire name of its own (``gw``, ``s``, ``a``) is built by its Python name."""

    model_config = ConfigDict(
        frozen=True,
        strict=True,
        extra="forbid",
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
    )


class _Op(_Message):
    op: str  # each message's own ``Literal``: the first key of its JSON, and the channel's discriminator


class _Socket(_Op):
    """A message about one of a gateway's sockets, in its current attachment."""

    gateway: Gateway
    socket: Counter = Field(validation_alias="s", serialization_alias="s")
    attachment: Counter = Field(validation_alias="a", serialization_alias="a")


# -- gateway -> worker, on the table's channel --------------------------------------------------------------


class Attach(_Socket):
    """A new attachment of a socket, and who it speaks for (``None``: a watcher not logged in). The worker
    answers with a snapshot, frame 1 of the attachment."""

    op: Literal["attach"] = "attach"
    account_id: Id | None = None
    username: Username | None = None
    session: Session | None = None
    batch: bool = False  # the client asked for batches (``?batch=1``): its frames are JSON arrays of messages


class Detach(_Socket):
    """The socket closed."""

    op: Literal["detach"] = "detach"


class Resync(_Socket):
    """A gap in the socket's frames: number them again, as attachment ``attachment``. With ``resume``
    (``[attachment, number]``: the gateway has every frame of that attachment before that number), the worker sends
    again the frames from there on if it still keeps them all (:data:`~studpoker.server.relay.HISTORY`), else (and
    without ``resume``) it starts from a snapshot."""

    op: Literal["resync"] = "resync"
    resume: tuple[Counter, Annotated[int, Field(ge=1, le=MAX_COUNTER)]] | None = Field(
        default=None, validation_alias="from", serialization_alias="from"
    )


class Snapshot(_Socket):
    """The browser asked for a snapshot (within the current attachment)."""

    op: Literal["snapshot"] = "snapshot"


class Act(_Socket):
    """A player's action (:class:`ActFields`)."""

    op: Literal["act"] = "act"
    hand: Hand
    seq: Seq
    action: ActionName
    amount: Amount | None = None


class Show(_Socket):
    """A player shows the cards of hand ``hand`` after the showdown."""

    op: Literal["show"] = "show"
    hand: Hand


class Chat(_Socket):
    """A chat line (cleaned by the gateway already)."""

    op: Literal["chat"] = "chat"
    text: Annotated[str, Field(max_length=MAX_CHAT)]


# the operations a call carries; on the wire, a call's ``"name"`` and ``"args"``


class Sit(_Message):
    name: Literal["sit"] = "sit"
    account_id: Id
    username: Username
    buy_in: Chips
    seat: Id | None = None


class Leave(_Message):
    name: Literal["leave"] = "leave"
    account_id: Id


class TopUp(_Message):
    name: Literal["top_up"] = "top_up"
    account_id: Id
    amount: Chips


class SetSittingOut(_Message):
    name: Literal["set_sitting_out"] = "set_sitting_out"
    account_id: Id
    out: bool


class JoinWaitingList(_Message):
    name: Literal["join_waiting_list"] = "join_waiting_list"
    account_id: Id
    username: Username


class LeaveWaitingList(_Message):
    name: Literal["leave_waiting_list"] = "leave_waiting_list"
    account_id: Id


class AddBots(_Message):
    """``count`` bots (``None``: one on every free seat) of kind ``tag`` (``None``: the default)."""

    name: Literal["add_bots"] = "add_bots"
    count: Id | None = None
    tag: Annotated[str, Field(max_length=MAX_TAG)] | None = None


class RemoveBots(_Message):
    name: Literal["remove_bots"] = "remove_bots"


class CloseTable(_Message):
    name: Literal["close"] = "close"


# a player moved between tables with his chips (studpoker.server.moves): the three steps


class HoldSeat(_Message):
    name: Literal["hold_seat"] = "hold_seat"
    account_id: Id
    username: Username
    seat: Id | None = None


class MoveOut(_Message):
    name: Literal["move_out"] = "move_out"
    account_id: Id
    to_table: Id
    to_name: Annotated[str, Field(min_length=1, max_length=MAX_NAME)]
    to_seat: Id


class MoveIn(_Message):
    name: Literal["move_in"] = "move_in"
    account_id: Id
    seat: Id


Operation: TypeAlias = (
    Sit
    | Leave
    | TopUp
    | SetSittingOut
    | JoinWaitingList
    | LeaveWaitingList
    | AddBots
    | RemoveBots
    | CloseTable
    | HoldSeat
    | MoveOut
    | MoveIn
)


class Call(_Op):
    """An HTTP operation on the table, from gateway ``gateway``; the worker answers :class:`Answer` ``id``.

    On the wire the operation's name and arguments are the call's ``"name"`` and ``"args"``:
    ``{"op":"call","gw":...,"id":...,"name":"sit","args":{"account_id":...}}``."""

    op: Literal["call"] = "call"
    id: CallId
    gateway: Gateway
    operation: Annotated[Operation, Field(discriminator="name")]

    @model_validator(mode="before")
    @classmethod
    def _from_wire(cls, data: Any) -> Any:
        if type(data) is dict and "operation" not in data:
            data = dict(data)
            name, args = data.pop("name", None), data.pop("args", {})
            if type(args) is not dict or "name" in args:
                raise PydanticCustomError("call_args", "the arguments must be an object, without a name")
            data["operation"] = {**args, "name": name}
        return data

    @model_serializer(mode="wrap")
    def _to_wire(self, handler: Any) -> dict[str, JsonValue]:
        data: dict[str, JsonValue] = handler(self)
        args = data.pop("operation")
        assert isinstance(args, dict)
        data["name"] = args.pop("name")
        data["args"] = args
        return data


# -- worker -> gateway, on the gateway's channel --------------------------------------------------------------


class ErrorBody(_Message):
    """A refused call, as the HTTP error it becomes (docs/server-protocol.md)."""

    status: Annotated[int, Field(ge=100, le=599)]
    code: Annotated[str, Field(max_length=MAX_CODE)]
    message: Annotated[str, Field(max_length=MAX_MESSAGE)]


class Answer(_Op):
    """The answer to call ``id``: what the operation returned (``ok``), or why it was refused (``error``, with the
    HTTP ``headers`` to send, such as ``Retry-After``). Exactly one of ``ok`` and ``error``."""

    op: Literal["answer"] = "answer"
    id: CallId
    ok: JsonObject | None = None
    error: ErrorBody | None = None
    headers: Annotated[dict[Header, Header], Field(max_length=MAX_HEADERS)] | None = None

    @model_validator(mode="after")
    def _one(self) -> Answer:
        if (self.ok is None) == (self.error is None):
            raise PydanticCustomError("answer", "an answer holds exactly one of ok and error")
        return self


class Gone(_Op):
    """The worker does not know these sockets (it is new, or forgot them): the gateway attaches them again."""

    op: Literal["gone"] = "gone"
    table: Id
    sockets: Annotated[tuple[Counter, ...], Field(max_length=MAX_SOCKETS)] = Field(
        validation_alias="s", serialization_alias="s"
    )


ToGateway: TypeAlias = Answer | Gone


# -- to everyone, on the room's channel ---------------------------------------------------------------------


class Claim(_Op):
    """A table wants an owner (a new table, a worker stopping): workers claim at once."""

    op: Literal["claim"] = "claim"


class Owner(_Op):
    """Table ``table`` has a new owner, under lease ``generation``: gateways attach its sockets again."""

    op: Literal["owner"] = "owner"
    table: Id
    generation: Counter


class SessionEnded(_Op):
    """A session ended (logout, expiry...): every gateway closes its sockets, saying ``reason``."""

    op: Literal["session_ended"] = "session_ended"
    session: Session
    reason: Annotated[str, Field(max_length=MAX_REASON)]


# -- a table's lobby entry, in Redis (not on a channel) ---------------------------------------------------------


class TableEntry(_Message):
    """A table's lobby entry, as its worker writes it to Redis every second (``info:<id>``,
    :func:`studpoker.server.worker.table_entry`) and a gateway reads it (:func:`decode_entry`): the table's info,
    whose ``id`` and ``created_by`` are checked as ids, and its seats, each as the protocol has them."""

    info: TableSummary
    seats: Annotated[list[SeatState], Field(max_length=MAX_ENTRY_SEATS)]

    @model_validator(mode="after")
    def _named(self) -> TableEntry:
        if not 0 <= self.info["id"] <= MAX_ID:
            raise PydanticCustomError("entry", "info.id must be a table's id")
        creator = self.info["created_by"]
        if creator is not None and not 0 <= creator <= MAX_ID:
            raise PydanticCustomError("entry", "info.created_by must be an account's id or null")
        return self

    @property
    def id(self) -> int:
        return self.info["id"]

    @property
    def name(self) -> str:
        return self.info["name"]

    @property
    def created_by(self) -> int | None:
        return self.info["created_by"]


def decode_entry(text: str) -> TableEntry:
    """The lobby entry ``text`` holds; :class:`BadMessage` if it holds none."""
    _bound(text)
    try:
        return TableEntry.model_validate_json(text)
    except ValidationError as error:
        raise BadMessage(_say(error, _ENTRY)) from None


ToWorker: TypeAlias = Attach | Detach | Resync | Snapshot | Act | Show | Chat | Call
ToRoom: TypeAlias = Claim | Owner | SessionEnded
Message: TypeAlias = ToWorker | ToGateway | ToRoom
M = TypeVar("M", bound=_Op)


class Kind(Generic[M]):
    """What one channel may carry, and its decoder."""

    def __init__(self, name: str, adapter: TypeAdapter[M]) -> None:
        self.name = name
        self.adapter = adapter

    def __repr__(self) -> str:
        return f"<messages {self.name}>"


TO_WORKER: Kind[ToWorker] = Kind("to a worker", TypeAdapter(Annotated[ToWorker, Field(discriminator="op")]))
TO_GATEWAY: Kind[ToGateway] = Kind("to a gateway", TypeAdapter(Annotated[ToGateway, Field(discriminator="op")]))
TO_ROOM: Kind[ToRoom] = Kind("to the room", TypeAdapter(Annotated[ToRoom, Field(discriminator="op")]))
_ENTRY: Kind[Any] = Kind("in the lobby's cache", TypeAdapter(TableEntry))


# -- the codec -------------------------------------------------------------------------------------------------


def encode(message: Message) -> str:
    """A message as compact JSON text, its ``"op"`` first; ``None`` fields are left out."""
    return message.model_dump_json(exclude_none=True)


def decode(text: str, expected: Kind[M]) -> M:
    """The message ``text`` holds, one of ``expected``'s; :class:`BadMessage` if it holds none."""
    _bound(text)
    try:
        return expected.adapter.validate_json(text)
    except ValidationError as error:
        raise BadMessage(_say(error, expected)) from None


def _bound(text: str) -> None:
    """:class:`BadMessage` unless ``text`` is text within the bounds of size and depth."""
    if type(text) is not str:
        raise BadMessage(f"a message is text, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise BadMessage(f"a message is at most {MAX_TEXT} characters, not {len(text)}")
    if text.count("{") + text.count("[") > MAX_DEPTH and json_depth(text, MAX_DEPTH) > MAX_DEPTH:
        raise BadMessage(f"a message nests arrays and objects at most {MAX_DEPTH} deep")


def _say(error: ValidationError, expected: Kind[Any]) -> str:
    """The first thing wrong, in a line: where (``act.hand``), what, and what was given."""
    first = error.errors(include_url=False)[0]
    where = ".".join(str(part) for part in first["loc"])
    given = repr(first.get("input"))
    given = given if len(given) <= 40 else given[:40] + "..."
    more = f" (and {error.error_count() - 1} more)" if error.error_count() > 1 else ""
    kind = first["type"]
    if kind == "json_invalid":
        return f"not JSON: {first['msg']}"
    if not where and kind == "union_tag_invalid":
        context = first.get("ctx", {})
        return f"unknown op {context.get('tag')!r} for a message {expected.name}: one of {context.get('expected_tags')}"
    if not where and kind == "union_tag_not_found":
        return f"a message {expected.name} needs an op"
    if not where and kind in ("model_type", "model_attributes_type", "dict_type"):
        return f"a message is a JSON object, given {given}"
    return f"{where or 'the message'}: {first['msg']}, given {given}{more}"
