"""How many cores this process may run on: what ``workers=None`` / ``--workers auto`` spreads work over."""

from __future__ import annotations

import os

__all__ = ["usable_cores"]


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system has one, else every core), at least 1:
    a container or ``taskset`` limits the first, which ``os.cpu_count()`` does not see."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1
