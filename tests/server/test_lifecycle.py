"""The one start-up and shut-down sequence of the room's forms: parts start in order and stop in reverse; a part
that fails to start stops those already started; one that fails to stop does not keep the others running."""

from __future__ import annotations

import asyncio
import logging

import pytest

pytest.importorskip("sqlalchemy")

from studpoker.server.lifecycle import Lifecycle, Loop, Step, Tasks


def _steps(done: list[str], *names: str, failing: str = "") -> list[Step]:
    def part(name: str) -> Step:
        async def start() -> None:
            if name == failing + ".start":
                raise RuntimeError(name)
            done.append(f"start {name}")

        async def stop() -> None:
            if name == failing + ".stop":
                raise RuntimeError(name)
            done.append(f"stop {name}")

        return Step(name, start, stop)

    return [part(name) for name in names]


def test_parts_start_in_order_and_stop_in_reverse() -> None:
    done: list[str] = []
    life = Lifecycle("test", _steps(done, "a", "b", "c"))
    asyncio.run(life.start())
    asyncio.run(life.stop())
    assert done == ["start a", "start b", "start c", "stop c", "stop b", "stop a"]
    asyncio.run(life.stop())  # stopped once: nothing more
    assert len(done) == 6


def test_a_part_that_fails_to_start_stops_the_started_ones() -> None:
    done: list[str] = []
    steps = _steps(done, "a", "b", "c")
    steps[1] = Step("b", lambda: _fail("b"), lambda: _note(done, "stop b"))
    life = Lifecycle("test", steps)
    with pytest.raises(RuntimeError, match="b"):
        asyncio.run(life.start())
    assert done == ["start a", "stop a"]  # b never started: not stopped; c never reached


@pytest.mark.allow_server_errors(r"did not stop cleanly")
def test_a_part_that_fails_to_stop_is_logged_and_the_others_stop(caplog: pytest.LogCaptureFixture) -> None:
    done: list[str] = []
    steps = _steps(done, "a", "c")
    life = Lifecycle("test", [steps[0], Step("b", None, lambda: _fail("b")), steps[1]])
    caplog.set_level(logging.ERROR, logger="studpoker.server")
    asyncio.run(life.start())
    asyncio.run(life.stop())
    assert done == ["start a", "start c", "stop c", "stop a"]
    assert any("did not stop cleanly" in r.getMessage() for r in caplog.records)


def test_loops_and_tasks_are_cancelled_at_the_stop() -> None:
    async def check() -> None:
        ran = asyncio.Event()

        async def forever() -> None:
            ran.set()
            await asyncio.sleep(3600)

        tasks, loop = Tasks(), Loop("forever", forever)
        life = Lifecycle("test", [loop, tasks])
        await life.start()
        spawned = tasks.spawn(asyncio.sleep(3600))
        await asyncio.wait_for(ran.wait(), 1.0)
        assert loop.task is not None and spawned in tasks.running
        await life.stop()
        assert loop.task is None and spawned.cancelled() and tasks.running == set()

    asyncio.run(check())


async def _fail(name: str) -> None:
    raise RuntimeError(name)


async def _note(done: list[str], what: str) -> None:
    done.append(what)
