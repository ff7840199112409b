"""The table actor's inbox: letters in order, a waiting actor woken, a cancelled wait losing nothing."""

from __future__ import annotations

import asyncio

import pytest

from studpoker.server.inbox import Inbox


async def _nothing() -> None:
    return None


def test_letters_come_out_in_the_order_they_went_in() -> None:
    async def main() -> list[object]:
        inbox = Inbox()
        first, second = (_nothing, None), (_nothing, None)
        inbox.put(first)
        inbox.put(second)
        inbox.put(None)
        return [await inbox.get(), await inbox.get(), await inbox.get(), inbox.empty(), len(inbox)]

    letters = asyncio.run(main())
    assert letters[2:] == [None, True, 0]
    assert letters[0] is not letters[1]


def test_a_waiting_actor_is_woken_by_the_next_letter() -> None:
    async def main() -> tuple[bool, object]:
        inbox = Inbox()
        waiting = asyncio.ensure_future(inbox.get())
        for _ in range(3):
            await asyncio.sleep(0)
        still_waiting = not waiting.done()
        inbox.put(None)
        return still_waiting, await asyncio.wait_for(waiting, 30)

    assert asyncio.run(main()) == (True, None)


def test_a_cancelled_wait_loses_no_letter() -> None:
    async def main() -> object:
        inbox = Inbox()
        waiting = asyncio.ensure_future(inbox.get())
        await asyncio.sleep(0)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        letter = (_nothing, None)
        inbox.put(letter)
        return await asyncio.wait_for(inbox.get(), 30)

    assert asyncio.run(main()) == (_nothing, None)


def test_get_nowait_on_an_empty_inbox_raises() -> None:
    with pytest.raises(IndexError):
        Inbox().get_nowait()
