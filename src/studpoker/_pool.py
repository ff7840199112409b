"""Process pools whose workers die with their parent and leave Ctrl-C to it: the one way equity and simulate
start processes.

A plain :class:`~concurrent.futures.ProcessPoolExecutor` has two faults for a command line. Its workers outlive a
parent killed by SIGKILL (``timeout``, the OOM killer), holding memory and CPU until their queue breaks, which may
be never. And a terminal's Ctrl-C reaches every process of the group: a worker caught between its start and its
first task dies of it, and the pool can hang the parent for good. Here each worker

* starts with SIGINT blocked (the parent blocks it around every :func:`submit`, where processes are started, and a
  forkserver started then inherits the mask), ignores it and only then unblocks it: Ctrl-C is the parent's alone;
* asks Linux for SIGTERM when the process that started it dies (``PR_SET_PDEATHSIG``: immediate, but only where
  that process is ours and the thread that started the worker lives as long: ``fork`` or ``spawn`` from the main
  thread), and in every case runs a daemon thread that checks four times a second that the pool's owner still
  lives, and ends the worker if not (a ``forkserver`` worker is the server's child, and holds the server's
  lifeline itself, so neither dies of the owner's death by itself);

and :func:`stop_pool` ends the workers at once (terminate, then kill) instead of waiting for chunks nobody wants.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, ParamSpec, TypeVar

__all__ = ["owned_pool", "process_pool", "stop_pool", "submit"]

P = ParamSpec("P")
T = TypeVar("T")

#: How often a worker without ``PR_SET_PDEATHSIG`` checks that its parent lives (seconds).
WATCH_INTERVAL = 0.25
_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
_PROC = os.path.isdir("/proc/self")


def process_pool(
    workers: int,
    *,
    method: str | None = None,
    initializer: Callable[..., object] | None = None,
    initargs: tuple[Any, ...] = (),
) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes started by ``method`` (``fork``, ``forkserver``, ``spawn``; None: the
    platform's default) whose workers run ``initializer(*initargs)`` after :func:`_start_worker` made them die with
    their parent. Give it work with :func:`submit`; end it with ``shutdown`` when done, :func:`stop_pool` if not."""
    context = multiprocessing.get_context(method)
    on_main_thread = threading.current_thread() is threading.main_thread()
    # the death signal follows the thread that started the worker: ours only for fork and spawn, safe from the main
    deathsig = sys.platform == "linux" and on_main_thread and context.get_start_method() in ("fork", "spawn")
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=_start_worker,
        initargs=(os.getpid(), deathsig, initializer, initargs),
    )


@contextlib.contextmanager
def owned_pool(
    workers: int,
    *,
    method: str | None = None,
    initializer: Callable[..., object] | None = None,
    initargs: tuple[Any, ...] = (),
) -> Iterator[ProcessPoolExecutor]:
    """:func:`process_pool` for a ``with`` block: shut down (waiting for its work) when the block ends, ended at once
    by :func:`stop_pool` when it ends by an error, Ctrl-C or a generator's close."""
    pool = process_pool(workers, method=method, initializer=initializer, initargs=initargs)
    try:
        yield pool
    except BaseException:
        stop_pool(pool)
        raise
    pool.shutdown(wait=True)


def submit(pool: ProcessPoolExecutor, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
    """``pool.submit(fn, *args, **kwargs)`` with SIGINT blocked meanwhile: a process it starts inherits the block,
    so no Ctrl-C reaches a worker before it ignores Ctrl-C."""
    with _sigint_blocked():
        return pool.submit(fn, *args, **kwargs)


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and end the workers at once (SIGTERM, then SIGKILL for one that lingers): for an
    error or Ctrl-C, when the chunks running are not wanted."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)  # shutdown forgets it
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
                process.join(timeout=5)
    # The pool's manager thread closes its wake-up pipe as it ends; until then, the interpreter's exit may write to
    # the pipe while the thread closes it (concurrent.futures in Python 3.11 does not lock the two), which prints
    # "OSError: Bad file descriptor" after a Ctrl-C. Waiting for the thread here closes the race.
    if manager is not None:
        with contextlib.suppress(Exception):
            manager.join(timeout=10)


@contextlib.contextmanager
def _sigint_blocked() -> Iterator[None]:
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield  # another thread gets no SIGINT from Python's handler: nothing to block
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _start_worker(
    parent: int, deathsig: bool, initializer: Callable[..., object] | None, initargs: tuple[Any, ...]
) -> None:
    """A worker's first act: ignore Ctrl-C, tie its life to its parent's, then the pool's own initializer."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    started_by = os.getppid()
    if deathsig:
        _ask_for_deathsig()
    threading.Thread(target=_watch, args=(started_by, parent), name="studpoker-parent-watch", daemon=True).start()
    if not _alive(parent) or os.getppid() != started_by:  # the owner died before the tie was made
        os._exit(1)
    if initializer is not None:
        initializer(*initargs)


def _ask_for_deathsig() -> bool:
    """``prctl(PR_SET_PDEATHSIG, SIGTERM)``: Linux sends SIGTERM when the thread that started this process ends."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch(started_by: int, owner: int) -> None:
    """End this worker when the pool's owner is gone, or its own parent (it was given to another: it died)."""
    while os.getppid() == started_by and _alive(owner):
        time.sleep(WATCH_INTERVAL)
    os._exit(1)


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs: a zombie (dead, not yet reaped) does not, where /proc says so."""
    if _PROC:
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                return stat.read().rsplit(b")", 1)[1].split()[0] not in (b"Z", b"X")
        except OSError:
            return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
