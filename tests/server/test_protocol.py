"""The table socket's closed set of messages: what the room sends (studpoker.server.protocol), what a browser may
send (studpoker.server.clientmessages), and the protocol's page saying the same.

Every frame every test socket of tests/server and tests/cluster receives is checked against the set too
(``in_protocol`` in tests/server/conftest.py): this file checks that the check itself refuses what it must."""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pydantic")

from pydantic import ValidationError

from studpoker.server import clientmessages, protocol
from studpoker.server.clientmessages import Act, AskSnapshot, Chat, Ping, Refused, Show, decode

DOC = (Path(__file__).resolve().parents[2] / "docs" / "server-protocol.md").read_text(encoding="utf-8")


def _section(start: str, end: str) -> str:
    return DOC[DOC.index(start) : DOC.index(end, DOC.index(start))]


def _types_sent() -> set[str]:
    """The ``type`` of every message of :data:`protocol.ToBrowser`."""
    found = set()
    for message in typing.get_args(protocol.ToBrowser):
        hints = typing.get_type_hints(message)
        (kind,) = typing.get_args(hints["type"])
        found.add(kind)
    return found


def test_the_page_names_every_message_the_room_sends_and_no_other() -> None:
    section = _section("### Server → client messages", "### Client → server messages")
    named = set(re.findall(r"^\*\*`([a-z_]+)`\*\*", section, re.MULTILINE))
    named |= set(re.findall(r'\{"type": "([a-z_]+)"', section))
    named.add("snapshot")  # its own section, "On connect"
    assert _types_sent() == named


def test_the_page_names_every_message_a_browser_may_send() -> None:
    section = _section("### Client → server messages", "### Limits and close codes")
    named = set(re.findall(r"^\*\*`([a-z_]+)`\*\*", section, re.MULTILINE))
    sent = {
        "act": '{"type":"act","hand":1,"seq":1,"action":"fold"}',
        "show": '{"type":"show","hand":1}',
        "chat": '{"type":"chat","text":"hi"}',
        "ping": '{"type":"ping"}',
        "snapshot": '{"type":"snapshot"}',
    }
    assert named == set(sent)
    assert all(not isinstance(decode(text), Refused) for text in sent.values())


ACTION = {
    "type": "action",
    "hand": 42,
    "seq": 3,
    "seat": 3,
    "action": "call",
    "amount": 3,
    "added": 3,
    "label": "call 3",
    "all_in": False,
    "street": 3,
    "auto": False,
}


def test_a_message_of_the_set_passes_as_it_is() -> None:
    assert protocol.TO_BROWSER.validate_python(ACTION) == ACTION
    shown = {**ACTION, "action": "show", "cards": ["As", "Kd"]}  # a showdown's show names its cards
    assert protocol.TO_BROWSER.validate_python(shown) == shown
    assert protocol.TO_BROWSER.validate_python({"type": "pong"}) == {"type": "pong"}


@pytest.mark.parametrize(
    ("message", "said"),
    [
        ({**ACTION, "type": "acted"}, "does not match any of the expected tags"),
        ({k: v for k, v in ACTION.items() if k != "type"}, "Unable to extract tag"),
        ({**ACTION, "secret": "Ah"}, "Extra inputs are not permitted"),
        ({k: v for k, v in ACTION.items() if k != "label"}, "Field required"),
        ({**ACTION, "seat": True}, "Input should be a valid integer"),
        ({**ACTION, "seat": "3"}, "Input should be a valid integer"),
        ({**ACTION, "all_in": 0}, "Input should be a valid boolean"),
        ({"type": "pot", "hand": 1}, "Field required"),
        ({"type": "turn", "hand": 1, "seq": 1, "seat": 1, "clock": {"action": 1.0}}, "clock.bank"),
        ({"type": "pong", "hand": 1}, "Extra inputs are not permitted"),
        ([ACTION], "Input should be a valid dictionary"),
    ],
)
def test_anything_else_is_refused(message: Any, said: str) -> None:
    with pytest.raises(ValidationError) as refused:
        protocol.TO_BROWSER.validate_python(message)
    assert said in str(refused.value)


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ('{"type":"act","hand":4,"seq":2,"action":"call","amount":10}', Act(4, 2, "call", 10)),
        ('{"type":"act","hand":4,"seq":2,"action":"fold"}', Act(4, 2, "fold", None)),
        ('{"type":"show","hand":9}', Show(9)),
        ('{"type":"chat","text":"gg"}', Chat("gg")),
        ('{"type":"chat"}', Chat(None)),  # clean_text says what is wrong with it
        ('{"type":"ping","extra":1}', Ping()),
        ('{"type":"snapshot"}', AskSnapshot()),
    ],
)
def test_a_browsers_message_is_read(text: str, wanted: object) -> None:
    assert decode(text) == wanted


@pytest.mark.parametrize(
    ("text", "code", "close"),
    [
        ("not json", "bad_json", 1008),
        ("[1, 2]", "bad_json", 1008),
        ('{"kind":"act"}', "bad_json", 1008),
        ('{"type":7}', "bad_json", 1008),
        ('{"type":"ping","x":' + "[" * 40 + "]" * 40 + "}", "bad_json", 1008),
        ('{"type":"fold"}', "unknown_type", None),
        ('{"type":"act","hand":true,"seq":1,"action":"fold"}', "bad_message", None),
        ('{"type":"act","hand":1,"seq":"1","action":"fold"}', "bad_message", None),
        ('{"type":"act","hand":1,"seq":1,"action":"f' + "o" * 30 + 'ld"}', "bad_message", None),
        ('{"type":"act","hand":1,"seq":1,"action":"bet","amount":-5}', "bad_message", None),
        ('{"type":"act","hand":1,"seq":1,"action":"bet","amount":1e3}', "bad_message", None),
        ('{"type":"act","hand":1,"seq":1,"action":"bet","amount":' + "9" * 40 + "}", "bad_message", None),
        ('{"type":"show","hand":"1"}', "bad_message", None),
        ('{"type":"show"}', "bad_message", None),
    ],
)
def test_a_bad_message_is_refused_saying_why(text: str, code: str, close: int | None) -> None:
    refused = decode(text)
    assert isinstance(refused, Refused)
    assert (refused.code, refused.close) == (code, close)
    assert refused.message


def test_an_unknown_type_is_quoted_cut_short() -> None:
    refused = decode(json.dumps({"type": "x" * 1000}))
    assert isinstance(refused, Refused) and refused.code == "unknown_type"
    assert len(refused.message) < 100


def test_the_bus_holds_an_act_to_the_browsers_rule() -> None:
    from studpoker.server import messages

    assert messages.ActFields is clientmessages.ActFields
    assert messages.act_fields is clientmessages.act_fields


@pytest.mark.allow_server_errors(r"a worker answered SitResult")
def test_a_workers_answer_that_is_not_the_operations_result_is_a_bad_gateway(caplog: pytest.LogCaptureFixture) -> None:
    """A gateway checks a worker's answer against the operation's model: a wrong one is a 502, logged, never a
    traceback, and a right one is the model."""
    import asyncio

    from studpoker.server.errors import ApiError
    from studpoker.server.messages import Operation, TableEntry
    from studpoker.server.remote import RemoteTable
    from studpoker.server.schemas import SitResult

    answers: list[Any] = [{"seat": "3", "stack": 400, "balance": 600}, {"seat": 3, "stack": 400, "balance": 600}]

    class Link:
        def attach(self, connection: Any, table_id: int) -> None: ...
        def detach(self, connection: Any) -> None: ...
        def to_table(self, connection: Any, message: Any) -> None: ...

        async def call(self, table_id: int, operation: Operation) -> Any:
            return answers.pop(0)

    table = RemoteTable(Link(), TableEntry.model_construct(info={"id": 1, "name": "One", "created_by": None}))
    with pytest.raises(ApiError) as refused:
        asyncio.run(table.sit(1, "ann", 400, None))
    assert (refused.value.status, refused.value.code) == (502, "bad_gateway")
    assert "SitResult" in caplog.text
    assert asyncio.run(table.sit(1, "ann", 400, None)) == SitResult(seat=3, stack=400, balance=600)


def test_the_table_and_its_seats_are_the_apis_objects_field_for_field() -> None:
    """The snapshot's table and seats are what ``GET /api/tables/{id}`` answers (schemas.TableInfo, TableSeat): two
    definitions of one object (a TypedDict for the hot path, a model for the API's schema) kept alike here."""
    from studpoker.server.schemas import TableInfo, TableSeat

    assert set(typing.get_type_hints(protocol.TableSummary)) == set(TableInfo.model_fields)
    assert set(typing.get_type_hints(protocol.SeatState)) == set(TableSeat.model_fields) | {"time_bank"}
