"""Helpers for tests that start commands with worker processes: their descendants read from /proc, and waits on
what the processes do (never a guess at how long they take)."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: A bound for a wait that should end in a second or two; a busy machine may take many times longer.
PATIENCE = 120.0


def descendants(pid: int) -> set[int]:
    """Every living process under ``pid`` (children of any of its threads, theirs, ...), from /proc."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:  # the thread or the process ended meanwhile
                continue
            for child in map(int, children):
                if child not in found and alive(child):
                    found.add(child)
                    todo.append(child)
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped by its new parent, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def wait_until(condition: Callable[[], bool], what: str, process: subprocess.Popen[Any] | None = None) -> None:
    """Poll ``condition`` until it holds; fail saying ``what`` did not happen (or that ``process`` ended first)."""
    deadline = time.monotonic() + PATIENCE
    while not condition():
        if process is not None and process.poll() is not None:
            raise AssertionError(f"the command ended (exit {process.returncode}) before {what}")
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {PATIENCE:.0f} s")
        time.sleep(0.02)
