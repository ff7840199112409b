"""The bus's messages (studpoker.server.messages): every one goes through the codec and back; what is no message
of its channel is refused with one error, BadMessage, that says what is wrong; and the socket holds a player's
``act`` to the same rule as the bus."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from studpoker.server import messages
from studpoker.server.frames import pack_frames, unpack_frames
from studpoker.server.limits import MAX_CHIPS, MAX_ID
from studpoker.server.messages import (
    MAX_DEPTH,
    MAX_TEXT,
    TO_GATEWAY,
    TO_ROOM,
    TO_WORKER,
    Act,
    AddBots,
    Answer,
    Attach,
    BadMessage,
    Call,
    Chat,
    Claim,
    CloseTable,
    Detach,
    ErrorBody,
    Gone,
    HoldSeat,
    JoinWaitingList,
    Kind,
    Leave,
    LeaveWaitingList,
    Message,
    MoveIn,
    MoveOut,
    Owner,
    RemoveBots,
    Resync,
    SessionEnded,
    SetSittingOut,
    Show,
    Sit,
    Snapshot,
    TopUp,
    decode,
    encode,
)

GW = "host-1234-a1b2c3"
AT = {"gateway": GW, "socket": 5, "attachment": 2}

OPERATIONS = [
    Sit(account_id=3, username="ann", buy_in=400, seat=2),
    Sit(account_id=3, username="ann", buy_in=400),
    Leave(account_id=3),
    TopUp(account_id=3, amount=100),
    SetSittingOut(account_id=3, out=True),
    JoinWaitingList(account_id=3, username="ann"),
    LeaveWaitingList(account_id=3),
    AddBots(count=2, tag="tight-aggressive"),
    AddBots(),
    RemoveBots(),
    CloseTable(),
    HoldSeat(account_id=3, username="ann", seat=4),
    HoldSeat(account_id=3, username="ann"),
    MoveOut(account_id=3, to_table=9, to_name="Stud West", to_seat=4),
    MoveIn(account_id=3, seat=4),
]
TO_WORKERS: list[Message] = [
    Attach(**AT, account_id=3, username="ann", session="ab" * 32),
    Attach(**AT),
    Detach(**AT),
    Resync(**AT),
    Snapshot(**AT),
    Act(**AT, hand=12, seq=4, action="raise", amount=40),
    Act(**AT, hand=12, seq=4, action="fold"),
    Show(**AT, hand=12),
    Chat(**AT, text="nice hand"),
    *(Call(id="c0ffee", gateway=GW, operation=operation) for operation in OPERATIONS),
]
TO_GATEWAYS: list[Message] = [
    Answer(id="c0ffee", ok={"seat": 2, "stack": 400, "balance": 9600}),
    Answer(id="c0ffee", ok={"closed": True, "cashed_out": [{"seat": 1, "amount": 5}]}),
    Answer(id="c0ffee", error=ErrorBody(status=409, code="conflict", message="seat 2 is taken")),
    Answer(id="c0ffee", error=ErrorBody(status=503, code="unavailable", message="later"), headers={"Retry-After": "3"}),
    Gone(table=7, sockets=(5, 6)),
]
TO_ROOMS: list[Message] = [Claim(), Owner(table=7, generation=3), SessionEnded(session="ab" * 32, reason="logged out")]
EVERY = [(m, TO_WORKER) for m in TO_WORKERS] + [(m, TO_GATEWAY) for m in TO_GATEWAYS] + [(m, TO_ROOM) for m in TO_ROOMS]


@pytest.mark.parametrize(("message", "kind"), EVERY, ids=lambda x: type(x).__name__ if isinstance(x, Message) else "")
def test_every_message_goes_there_and_back(message: Message, kind: Kind[Any]) -> None:
    text = encode(message)
    assert text.startswith('{"op":"') and "\n" not in text
    assert decode(text, kind) == message


def test_every_message_type_is_in_the_round_trip() -> None:
    types = {type(m) for m, _ in EVERY} | {type(o) for o in OPERATIONS}
    wanted = {t for t in vars(messages).values() if isinstance(t, type) and issubclass(t, messages._Message)}
    rest = {messages._Message, messages._Op, messages._Socket, ErrorBody, messages.TableEntry}
    assert wanted - types == rest  # parts of messages, and the lobby entry (below)


_GAME = {"variant": "RAZZ", "variant_name": "Razz", "stakes_text": "10/20, ante 1, bring-in 3"}
_GAME |= {"stakes": {"ante": 1, "bring_in": 3, "small_bet": 10, "big_bet": 20}}
#: a mixed table's sign in its lobby entry (issue 31)
MIX = {"name": "Razz / Razz", "every": 8, "games": [_GAME, _GAME], "now": 0, "next": 1, "hands_left": 8}


def test_a_lobby_entry_is_read_back_or_refused() -> None:
    """A table's lobby entry as a worker writes it to Redis (worker.table_entry), and what a gateway refuses
    (then it asks the database): the table and its seats as the protocol has them, field for field."""
    info = {
        "id": 7,
        "name": "Seven",
        "variant": "STUD7",
        "variant_name": "Seven-card stud",
        "preset": "casino",
        "stakes": {"ante": 1, "bring_in": 3, "small_bet": 10, "big_bet": 20},
        "stakes_text": "10/20, ante 1, bring-in 3",
        "min_buy_in": 200,
        "max_buy_in": None,
        "max_seats": 8,
        "seats_taken": 1,
        "hands_played": 0,
        "average_pot": 0,
        "playing": False,
        "status": "open",
        "created_by": None,
        "clock": {"action": 20.0, "bank": 30.0},
        "showdown_seconds": 3.0,
        "training": False,
        "waiting": 0,
        "mix": None,
        "tournament_id": None,
    }
    seat = {"seat": 1, "name": "ann", "stack": 400, "bot": False, "sitting_out": False, "leaving": False}
    seat |= {"queued": 0, "connected": True, "time_bank": 30.0}
    text = json.dumps({"info": info, "seats": [seat]})
    entry = messages.decode_entry(text)
    assert (entry.id, entry.name, entry.created_by, entry.info, entry.seats[0]["stack"]) == (
        7,
        "Seven",
        None,
        info,
        400,
    )

    mixed = messages.decode_entry(json.dumps({"info": {**info, "mix": MIX}, "seats": []}))
    assert mixed.info["mix"] == MIX

    def entry_with(**changes: object) -> str:
        return json.dumps({"info": {**info, **changes}, "seats": []})

    for junk, said in [
        (entry_with(id="7"), "info.id: Input should be a valid integer"),
        (entry_with(id=-1), "info.id must be a table's id"),
        (
            json.dumps({"info": {k: v for k, v in info.items() if k != "name"}, "seats": []}),
            "info.name: Field required",
        ),
        (entry_with(created_by=True), "info.created_by: Input should be a valid integer"),
        (entry_with(stakes={"ante": 1}), "info.stakes.bring_in: Field required"),
        (entry_with(extra=1), "info.extra: Extra inputs are not permitted"),
        (json.dumps({"info": info}), "seats: Field required"),
        (json.dumps({"info": info, "seats": [1]}), "seats.0: Input should be an object"),
        ("null", "a message is a JSON object, given None"),
        ("{" * 40, "at most 16 deep"),
        (entry_with(mix={**MIX, "games": MIX["games"] * 5}), "info.mix.games: List should have at most 8 items"),
        (entry_with(mix={**MIX, "now": "0"}), "info.mix.now: Input should be a valid integer"),
    ]:
        with pytest.raises(BadMessage) as refused:
            messages.decode_entry(junk)
        assert said in str(refused.value)


def test_the_wire_is_what_it_was() -> None:
    """The keys the gateways and workers exchanged before the messages were typed (a table's channel still
    hears a hand-made ``call``, as the hostile tests publish)."""
    assert json.loads(encode(Act(**AT, hand=12, seq=4, action="call"))) == {
        "op": "act",
        "gw": GW,
        "s": 5,
        "a": 2,
        "hand": 12,
        "seq": 4,
        "action": "call",
    }
    sit = {"op": "call", "gw": "g", "id": "x", "name": "sit", "args": {"account_id": 1, "username": "bob"}}
    sit["args"] |= {"buy_in": 9000, "seat": 2}
    assert decode(json.dumps(sit), TO_WORKER) == Call(
        id="x", gateway="g", operation=Sit(account_id=1, username="bob", buy_in=9000, seat=2)
    )
    assert json.loads(encode(Call(id="x", gateway="g", operation=RemoveBots()))) == {
        "op": "call",
        "gw": "g",
        "id": "x",
        "name": "remove_bots",
        "args": {},
    }
    assert json.loads(encode(Gone(table=7, sockets=(5,)))) == {"op": "gone", "table": 7, "s": [5]}
    answer = json.loads(encode(Answer(id="x", ok={"left": True})))
    assert answer == {"op": "answer", "id": "x", "ok": {"left": True}}  # no "error" key: an old gateway looks


def _act(**fields: object) -> str:
    data: dict[str, object] = {"op": "act", "gw": "g", "s": 1, "a": 1, "hand": 3, "seq": 2, "action": "call"}
    data.update(fields)
    return json.dumps({k: v for k, v in data.items() if v is not ...})


@pytest.mark.parametrize(
    ("text", "kind", "said"),
    [
        (_act(hand="3"), TO_WORKER, "act.hand: Input should be a valid integer, given '3'"),
        (_act(hand=True), TO_WORKER, "act.hand: Input should be a valid integer, given True"),
        (_act(seq=1.0), TO_WORKER, "act.seq: Input should be a valid integer, given 1.0"),
        (_act(hand=-1), TO_WORKER, "act.hand: Input should be greater than or equal to 0, given -1"),
        (_act(hand=MAX_ID + 1), TO_WORKER, f"act.hand: Input should be less than or equal to {MAX_ID}"),
        (_act(amount=MAX_CHIPS + 1), TO_WORKER, f"act.amount: Input should be less than or equal to {MAX_CHIPS}"),
        (_act(action="r" * 21), TO_WORKER, "act.action: String should have at most 20 characters"),
        (_act(gw="g" * 81), TO_WORKER, "act.gw: String should have at most 80 characters"),
        (_act(hand=...), TO_WORKER, "act.hand: Field required"),
        (_act(hand=None), TO_WORKER, "act.hand: Input should be a valid integer, given None"),
        (_act(extra=1), TO_WORKER, "act.extra: Extra inputs are not permitted, given 1"),
        (_act(op="fly"), TO_WORKER, "unknown op 'fly' for a message to a worker: one of 'attach', 'detach'"),
        (_act(op=None), TO_WORKER, "unknown op 'None' for a message to a worker"),
        (_act(op=...), TO_WORKER, "a message to a worker needs an op"),
        (_act(), TO_GATEWAY, "unknown op 'act' for a message to a gateway: one of 'answer', 'gone'"),
        (_act(), TO_ROOM, "unknown op 'act' for a message to the room: one of 'claim', 'owner', 'session_ended'"),
        ('{"op":"chat","gw":"g","s":1,"a":1,"text":"' + "x" * 401 + '"}', TO_WORKER, "at most 400 characters"),
        ('{"op":"attach","gw":"g","s":1,"a":1,"username":"' + "u" * 41 + '"}', TO_WORKER, "at most 40 characters"),
        ('{"op":"attach","gw":"g","s":1,"a":1,"session":"' + "s" * 65 + '"}', TO_WORKER, "at most 64 characters"),
        ('{"op":"attach","gw":"g","s":1,"a":true}', TO_WORKER, "attach.a: Input should be a valid integer"),
        ('{"op":"detach","gw":"g","s":1', TO_WORKER, "not JSON: Invalid JSON: EOF while parsing an object"),
        ("", TO_WORKER, "not JSON: Invalid JSON: EOF while parsing a value"),
        ("[1, 2]", TO_WORKER, "a message is a JSON object, given [1, 2]"),
        ('"claim"', TO_ROOM, "a message is a JSON object, given 'claim'"),
        ("[" * 17 + "]" * 17, TO_WORKER, f"a message nests arrays and objects at most {MAX_DEPTH} deep"),
        ('{"op":"claim","x":' + "[" * 40 + "]" * 40 + "}", TO_ROOM, "at most 16 deep"),
        ('{"op":"chat","text":"' + "x" * MAX_TEXT + '"}', TO_WORKER, f"a message is at most {MAX_TEXT} characters"),
        ('{"op":"call","gw":"g","id":"x","name":"__init__","args":{}}', TO_WORKER, "call.operation: Input tag"),
        ('{"op":"call","gw":"g","id":"x","name":"sit","args":[1]}', TO_WORKER, "the arguments must be an object"),
        (
            '{"op":"call","gw":"g","id":"x","name":"leave","args":{"account_id":1,"name":"sit"}}',
            TO_WORKER,
            "the arguments must be an object, without a name",
        ),
        (
            '{"op":"call","gw":"g","id":"x","name":"sit","args":{"account_id":1}}',
            TO_WORKER,
            "call.operation.sit.username: Field required",
        ),
        (
            '{"op":"call","gw":"g","id":"x","name":"set_sitting_out","args":{"account_id":1,"out":1}}',
            TO_WORKER,
            "call.operation.set_sitting_out.out: Input should be a valid boolean, given 1",
        ),
        ('{"op":"answer","id":"x"}', TO_GATEWAY, "an answer holds exactly one of ok and error"),
        (
            '{"op":"answer","id":"x","ok":{},"error":{"status":500,"code":"c","message":"m"}}',
            TO_GATEWAY,
            "an answer holds exactly one of ok and error",
        ),
        ('{"op":"answer","id":"x","ok":[1]}', TO_GATEWAY, "answer.ok: Input should be an object, given [1]"),
        (
            '{"op":"answer","id":"x","error":{"status":99,"code":"c","message":"m"}}',
            TO_GATEWAY,
            "answer.error.status: Input should be greater than or equal to 100",
        ),
        ('{"op":"gone","table":1,"s":[1,"2"]}', TO_GATEWAY, "gone.s.1: Input should be a valid integer"),
        ('{"op":"owner","table":1,"generation":false}', TO_ROOM, "owner.generation: Input should be a valid integer"),
    ],
)
def test_what_is_no_message_is_refused_saying_why(text: str, kind: Kind[Any], said: str) -> None:
    with pytest.raises(BadMessage) as refused:
        decode(text, kind)
    assert said in str(refused.value)
    assert isinstance(refused.value, ValueError)


def _junk(rng: random.Random, depth: int = 0) -> object:
    choice = rng.randrange(9 if depth < 4 else 6)
    if choice == 0:
        return None
    if choice == 1:
        return rng.choice([True, False])
    if choice == 2:
        return rng.choice([0, -1, 1, 2**31, 2**63, 2**64, -(2**70), MAX_ID, MAX_CHIPS + 1])
    if choice == 3:
        return rng.choice([0.5, 1e308, -0.0, 3.0])
    if choice == 4:
        return "".join(rng.choice('ab\x00"\\é{}[]😀 ') for _ in range(rng.choice([0, 1, 5, 30, 500])))
    if choice == 5:
        return rng.choice(["act", "call", "sit", "answer", "claim", "gone", "op", "gw", "s", "a", "name", "args"])
    if choice == 6:
        return [_junk(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ["op", "gw", "s", "a", "hand", "seq", "action", "amount", "id", "name", "args", "ok", "error", "text"]
    return {rng.choice(keys): _junk(rng, depth + 1) for _ in range(rng.randrange(6))}


def test_junk_raises_nothing_but_bad_message() -> None:
    """Random values, valid messages with one field changed, and texts cut or scrambled: each decodes (to a
    message of the channel) or raises BadMessage, never anything else."""
    rng = random.Random(20261203)
    valid = [encode(m) for m, _ in EVERY]
    kinds: list[Kind[Any]] = [TO_WORKER, TO_GATEWAY, TO_ROOM]
    refused = decoded = 0
    for _ in range(4000):
        way = rng.randrange(4)
        if way == 0:
            text = json.dumps(_junk(rng))
        elif way == 1:
            data = json.loads(rng.choice(valid))
            key = rng.choice([*data, "args", "extra"])
            data[key] = _junk(rng)
            text = json.dumps(data)
        elif way == 2:
            text = rng.choice(valid)
            cut = rng.randrange(len(text) + 1)
            text = text[:cut] + rng.choice(["", "}", "]", '"', "\\", "\x00", ",", "{", "[" * 100]) + text[cut + 1 :]
        else:
            text = "".join(rng.choice('{}[]":,0123456789truefalsnop \\') for _ in range(rng.randrange(60)))
        for kind in kinds:
            try:
                decode(text, kind)
            except BadMessage:
                refused += 1
            else:
                decoded += 1
    assert refused > 1000 and decoded > 100


def test_frames_that_do_not_unpack_are_bad_messages() -> None:
    good = pack_frames(7, 2, [(1, 1, 1, '{"type":"x"}'), (2, 1, 1, 1000)])
    assert unpack_frames(good) == (7, 2, [(1, 1, 1, '{"type":"x"}'), (2, 1, 1, 1000)])
    for junk in ['{"t":1}', '{"t":1,"g":2,"m":[[1,1,1,5]]}', '{"t":"x","g":1,"m":[]}', '{"t"', '{"t":1,"g":1,"m":7}']:
        with pytest.raises(BadMessage, match="not a batch of frames"):
            unpack_frames(junk)


def test_frames_in_utf8_keep_one_text_a_line() -> None:
    """Frames are UTF-8 as orjson writes them (no ``\\u`` escapes for letters): a text with a newline, a line
    separator or a letter outside ASCII in a string is still one line of a batch, and comes back the same."""
    from studpoker.server import wire

    chat = wire.encode(
        {"type": "chat", "id": 1, "account_id": 2, "name": "Åsa", "seat": None, "text": "rad\nett\u2028två", "at": ""}
    )
    assert "Åsa" in chat and "\n" not in chat and json.loads(chat)["text"] == "rad\nett\u2028två"
    packed = pack_frames(3, 1, [(1, 1, 1, chat), (2, 1, 1, chat), (3, 1, 1, '{"type":"pong"}')])
    assert len(packed.split("\n")) == 3  # the header, then each text once
    assert unpack_frames(packed) == (3, 1, [(1, 1, 1, chat), (2, 1, 1, chat), (3, 1, 1, '{"type":"pong"}')])


@pytest.mark.parametrize(
    ("hand", "seq", "action", "amount"),
    [
        (1, 2, "call", None),
        (1, 2, "raise", 40),
        (0, 0, "", 0),
        (MAX_ID, MAX_ID, "x" * 20, MAX_CHIPS),
        (True, 2, "call", None),
        (1, False, "call", None),
        (1, 2, "call", True),
        (1, 2, "x" * 21, None),
        (1, 2, 7, None),
        (1, 2, None, None),
        (-1, 2, "call", None),
        (MAX_ID + 1, 2, "call", None),
        (1, 2, "call", MAX_CHIPS + 1),
        (1, 2, "call", 2.0),
        ("1", 2, "call", None),
        (None, 2, "call", None),
    ],
)
def test_the_socket_and_the_bus_hold_an_act_to_one_rule(hand: Any, seq: Any, action: Any, amount: Any) -> None:
    """What the socket passes on (act_fields) is exactly what a worker takes (an Act decoded from the bus)."""
    fields = messages.act_fields(hand, seq, action, amount)
    text = json.dumps({"op": "act", "gw": "g", "s": 1, "a": 1, "hand": hand, "seq": seq, "action": action})
    text = text[:-1] + f',"amount":{json.dumps(amount)}}}'
    try:
        act: Act | None = decode(text, TO_WORKER)  # type: ignore[assignment]
    except BadMessage:
        act = None
    assert (fields is None) == (act is None)
    if fields is not None and act is not None:
        assert (fields.hand, fields.seq, fields.action, fields.amount) == (act.hand, act.seq, act.action, act.amount)
    assert (messages.show_hand(hand) is None) == (messages.act_fields(hand, 1, "call", None) is None)
