"""Sliding-window throttles: how many times something happened per key (a username, an address) lately.

The room counts failed logins per username and per address, and sign-ups per address; when a key has reached its
limit inside the window, the request is answered ``429 Too Many Requests`` with ``Retry-After`` (the seconds until
the oldest counted event leaves the window). Counts live in the process (a restart forgets them).

An attempt is counted *before* the slow work it guards (argon2, a new account) and forgiven after if it turned out
well: counted after, a burst of parallel attempts would all pass the check while none had been counted yet.

>>> clock = [0.0]
>>> throttle = Throttle(limit=2, window=60, clock=lambda: clock[0])
>>> first = throttle.add("ann"); second = throttle.add("ann"); throttle.retry_after("ann")
60
>>> clock[0] = 30.5; throttle.retry_after("ann"), throttle.retry_after("bob")
(30, 0)
>>> throttle.forgive("ann", second); throttle.retry_after("ann")    # it went well after all
0
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable

__all__ = ["Throttle"]


class Throttle:
    """At most ``limit`` events per key in any ``window`` seconds."""

    #: Keys kept before the expired ones are swept out (so a flood of addresses cannot grow memory forever).
    SWEEP_AT = 10_000

    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock
        self._events: dict[str, deque[float]] = {}

    def _recent(self, key: str, now: float) -> deque[float] | None:
        events = self._events.get(key)
        if events is None:
            return None
        while events and events[0] <= now - self.window:
            events.popleft()
        if not events:
            del self._events[key]
            return None
        return events

    def retry_after(self, key: str) -> int:
        """Whole seconds until ``key`` may try again (0: now)."""
        now = self._clock()
        events = self._recent(key, now)
        if events is None or len(events) < self.limit:
            return 0
        return max(1, math.ceil(events[0] + self.window - now))

    def add(self, key: str) -> float:
        """Count one event for ``key``; returns its time, to :meth:`forgive` it later."""
        now = self._clock()
        if len(self._events) >= self.SWEEP_AT:
            for old in list(self._events):
                self._recent(old, now)
        events = self._events.setdefault(key, deque(maxlen=self.limit))
        events.append(now)
        return now

    def forgive(self, key: str, stamp: float) -> None:
        """Uncount the event :meth:`add` counted at ``stamp`` (an attempt that turned out well)."""
        events = self._events.get(key)
        if events is not None and stamp in events:
            events.remove(stamp)
            if not events:
                del self._events[key]

    def clear(self, key: str) -> None:
        """Forget ``key``'s events (a successful login clears its username's failures)."""
        self._events.pop(key, None)
