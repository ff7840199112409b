"""The card room's server package keeps its shape: no import circle, parts of the table actor that know no room,
no module too long to read; and the actor's parts work on their own, without a room."""

from __future__ import annotations

import ast
import asyncio
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")

from studpoker.engine import Rules, Variant
from studpoker.server.clock import Clock
from studpoker.server.config import Settings
from studpoker.server.connection import Connection
from studpoker.server.context import SeatMeta, TableContext
from studpoker.server.viewers import Viewers
from studpoker.server.waitlist import WaitingList
from studpoker.table import Table

SERVER = Path(__file__).resolve().parents[2] / "src" / "studpoker" / "server"

#: The table actor's parts (studpoker.server.actor wires them): none of them may know the room.
PARTS = ("context", "viewers", "clock", "books", "cashier", "tableinfo")

#: The longest a module of studpoker.server may be, and the modules still longer (each to be split).
MAX_LINES = 600
TOO_LONG: dict[str, str] = {}  # e.g. "worker.py": "issue 29: to split"


def _modules() -> dict[str, Path]:
    """Every module of the server package by dotted name (a package by its own name)."""
    mods = {}
    for path in SERVER.rglob("*.py"):
        parts = path.relative_to(SERVER.parent.parent).with_suffix("").parts
        name = ".".join(parts)
        mods[name.removesuffix(".__init__")] = path
    return mods


def _imports(mods: dict[str, Path]) -> dict[str, set[str]]:
    """What each module imports of the package: anywhere in it (under ``TYPE_CHECKING`` or in a function too)."""
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                target = node.module or ""
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                for alias in node.names:
                    child = f"{target}.{alias.name}"
                    found = child if child in mods else target
                    if found in mods and found != name:
                        graph[name].add(found)
            elif isinstance(node, ast.Import):
                graph[name].update(a.name for a in node.names if a.name in mods)
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles, each as the path that closes it."""
    found: list[list[str]] = []
    seen: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        for target in sorted(graph[module]):
            if target in path:
                found.append([*path[path.index(target) :], target])
            elif target not in seen:
                seen.add(target)
                visit(target, [*path, target])

    for module in sorted(graph):
        if module not in seen:
            seen.add(module)
            visit(module, [module])
    return found


def test_the_server_package_has_no_import_circle() -> None:
    circles = _circles(_imports(_modules()))
    assert circles == [], "\n".join(" -> ".join(c) for c in circles)


def test_the_circle_check_sees_a_circle() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("part", PARTS)
def test_the_actors_parts_know_no_room(part: str) -> None:
    graph = _imports(_modules())
    name = f"studpoker.server.{part}"
    assert name in graph, f"{part}.py is gone: update PARTS"
    assert "studpoker.server.room" not in graph[name]
    assert "studpoker.server.actor" not in graph[name]  # nor the actor that holds them


def test_no_server_module_is_too_long() -> None:
    lengths = {
        p.relative_to(SERVER).as_posix(): len(p.read_text(encoding="utf-8").splitlines()) for p in SERVER.rglob("*.py")
    }
    too_long = {name: n for name, n in lengths.items() if n > MAX_LINES and name not in TOO_LONG}
    assert too_long == {}, f"over {MAX_LINES} lines: split them (or name them in TOO_LONG, with the issue)"
    fixed = [name for name in TOO_LONG if lengths.get(name, 0) <= MAX_LINES]
    assert fixed == [], "short enough now: take them off TOO_LONG"


#: Server classes that may subclass another server class, by dotted name: (subclass, base). Besides these, a class
#: may extend a server class that is an exception, a Protocol, a Pydantic model or an SQLAlchemy model's base.
SUBCLASSES_ALLOWED = {("studpoker.server.relay.RemoteConnection", "studpoker.server.connection.Connection")}


def _server_classes() -> list[type]:
    """Every class defined in a module of the server package (its migrations aside)."""
    import importlib
    import inspect

    classes = []
    for name, path in sorted(_modules().items()):
        if "migrations" in path.relative_to(SERVER).parts:
            continue
        module = importlib.import_module(name)
        classes += [c for c in vars(module).values() if inspect.isclass(c) and c.__module__ == name]
    return classes


def _models(base: type) -> bool:
    """Whether ``base`` is a base that models, exceptions or protocols share (subclassing it is how they work)."""
    from pydantic import BaseModel
    from sqlalchemy.orm import DeclarativeBase

    return issubclass(base, (BaseException, BaseModel, DeclarativeBase)) or bool(getattr(base, "_is_protocol", False))


def test_no_server_class_subclasses_another() -> None:
    """The room's forms are composed of parts (docs/architecture.md, "The room's parts"), not built by inheritance:
    no class of the server package extends another, but for models, exceptions, protocols and the allow-list."""
    found = []
    for cls in _server_classes():
        for base in cls.__bases__:
            if base.__module__.startswith("studpoker.server") and not _models(base):
                pair = (f"{cls.__module__}.{cls.__qualname__}", f"{base.__module__}.{base.__qualname__}")
                if pair not in SUBCLASSES_ALLOWED:
                    found.append(pair)
    assert found == [], f"compose these instead of subclassing: {found}"
    names = {f"{c.__module__}.{c.__qualname__}" for c in _server_classes()}
    assert {n for pair in SUBCLASSES_ALLOWED for n in pair} <= names, "SUBCLASSES_ALLOWED names a class now gone"


#: What only a process that answers browsers has: its socket registry and its front (throttles, password hashing,
#: equity desk).
FRONT_ONLY = ("sockets", "front")
#: The front's parts, reached through it only (``room.front.passwords``): no form forwards them.
FRONT_PARTS = (
    "passwords",
    "login_failures_by_account",
    "login_failures_by_address",
    "signups",
    "signup_failures",
    "table_openings",
    "equity_desk",
    "sockets_by_address",
    "sweep_sessions",
)


def test_each_form_of_the_room_has_only_its_parts(tmp_path: Path) -> None:
    """A table worker has no sockets, throttles or password hashing; a gateway runs no table; the one-process room
    has all of it."""
    from studpoker.server.auth import Passwords
    from studpoker.server.front import Front
    from studpoker.server.gateway import GatewayRoom
    from studpoker.server.room import Room
    from studpoker.server.sockets import Sockets
    from studpoker.server.tablehost import TableHost
    from studpoker.server.throttle import Throttle
    from studpoker.server.training import EquityDesk
    from studpoker.server.worker import WorkerRoom

    settings = Settings(db_url=f"sqlite:///{tmp_path / 'room.db'}")
    distributed = replace(settings, redis_url="redis://127.0.0.1:1/0")
    front_types = (Sockets, Front, Passwords, Throttle, EquityDesk)

    async def check() -> None:  # never opened: no Redis, nothing started
        worker, gateway, room = WorkerRoom(distributed), GatewayRoom(distributed), Room(settings)
        try:
            assert [name for name in FRONT_ONLY if hasattr(worker, name)] == []
            assert [name for name, value in vars(worker).items() if isinstance(value, front_types)] == []
            assert [name for name, value in vars(worker.keeper).items() if isinstance(value, front_types)] == []
            assert isinstance(worker.host, TableHost) and not hasattr(worker, "maker")
            assert [name for name, value in vars(gateway).items() if isinstance(value, TableHost)] == []
            assert not hasattr(gateway, "actors") and not hasattr(gateway, "host")
            for name in FRONT_ONLY:
                assert hasattr(gateway, name) and hasattr(room, name), name
            for name in FRONT_PARTS:  # one way to each: no alias to keep in step
                assert not hasattr(gateway, name) and not hasattr(room, name), name
                assert not hasattr(worker, name), name
        finally:
            for form in (worker, gateway, room):
                form.db.close()
                if hasattr(form, "front"):
                    form.front.equity_desk.close()

    asyncio.run(check())


# -- the parts on their own ------------------------------------------------------------------------------------


class _NoDatabase:
    async def run(self, work: Any) -> Any:
        raise AssertionError("the clock and the viewers write nothing")


def _context(**settings: Any) -> TableContext:
    """Two players at a stud table, with no room and no database."""
    table = Table(Rules(Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=20), seed=7)
    table.sit("ann", 200, 1)
    table.sit("bob", 200, 2)
    seats = {1: SeatMeta(1, None, None, 10.0), 2: SeatMeta(2, None, None, 10.0)}
    base = Settings(db_url="sqlite://", action_seconds=5.0, time_bank=10.0, bank_refill=2.0, timeouts_to_sit_out=2)
    return TableContext(1, "Test", False, replace(base, **settings), _NoDatabase(), table, seats)


def _frames(connection: Connection) -> list[dict[str, Any]]:
    return [json.loads(f) for f in connection.frames if isinstance(f, str)]


def test_the_clock_counts_a_turn_and_its_time_bank() -> None:
    async def check() -> None:
        context = _context()
        clock = Clock(context, showdown_seconds=3.0)
        assert clock.left() == {"action": 0.0, "bank": 0.0}  # no hand: nobody to time
        context.table.start_hand()
        clock.start_turn()
        clock.turn_started -= 7.0  # the player thought 7 s: the 5 s of the clock, then 2 s of his bank
        assert clock.left() == {"action": 0.0, "bank": 8.0}
        seat = context.table.actor_seat
        assert seat is not None
        fired: list[str] = []
        clock.arm_turn(context.seats[seat], fired.append, "timeout")
        clock.end_turn(context.seats[seat], auto=False)  # he acted: the timer stops, the bank pays
        assert clock.turn_timer is None and round(context.seats[seat].time_bank, 1) == 8.0
        await asyncio.sleep(0)
        assert fired == []
        # after the hand the banks refill (up to the room's 10 s); two hands in a row timed out: sit out
        assert clock.hand_over([1, 2], auto_seats={seat}) == []
        assert clock.hand_over([1, 2], auto_seats={seat}) == [seat]
        assert context.seats[seat].time_bank == 10.0 and context.seats[3 - seat].timeouts == 0

    asyncio.run(check())


def test_the_clock_waits_for_the_pause_after_a_hand() -> None:
    async def check() -> None:
        context = _context(between_hands=0.05)
        clock = Clock(context, showdown_seconds=0.2)
        state = context.table.start_hand()
        assert clock.pause_after(state) == 0.05  # no showdown
        assert clock.too_soon()
        dealt = asyncio.Event()
        clock.schedule_start(0.0, dealt.set)
        clock.schedule_start(0.0, pytest.fail, "a second deal")  # one deal scheduled at a time
        loop = asyncio.get_running_loop()
        began = loop.time()
        await asyncio.wait_for(dealt.wait(), 2.0)
        assert loop.time() - began >= 0.04 and not clock.too_soon()

    asyncio.run(check())


def test_the_viewers_show_each_connection_what_its_seat_may_see() -> None:
    async def check() -> None:
        context = _context()
        waiting = WaitingList(30.0)
        viewers = Viewers(context, Clock(context, 0.0), waiting, lambda: {"id": 1}, lambda: ())
        ann, visitor = Connection(1, "ann"), Connection(None, None)
        viewers.connections.update((ann, visitor))
        table = context.table
        state = table.start_hand()
        context.hand_seats = table.players
        context.seq = 1
        viewers.publish(state, state.events)

        def down_cards(connection: Connection) -> list[Any]:
            dealt = [c for m in _frames(connection) if m["type"] == "dealt" for c in m["cards"]]
            return [c["card"] for c in dealt if not c["face_up"]]

        assert sorted(c is None for c in down_cards(ann)) == [False, False, True, True]  # hers, not bob's
        assert down_cards(visitor) == [None] * 4  # a spectator sees no hole card
        snapshot = viewers.snapshot(visitor)
        assert snapshot["you"] is None and snapshot["table"] == {"id": 1} and snapshot["voided"] == []
        assert [s["seat"] for s in snapshot["seats"]] == [1, 2]
        assert snapshot["seats"][0]["connected"] and not snapshot["seats"][1]["connected"]  # bob has no socket
        viewers.say(visitor, "hello")  # a visitor may read the chat, not write in it
        assert _frames(visitor)[-1]["code"] == "not_logged_in"
        viewers.say(ann, "hello")
        assert _frames(visitor)[-1]["text"] == "hello" and len(viewers.chat_log) == 1

    asyncio.run(check())
