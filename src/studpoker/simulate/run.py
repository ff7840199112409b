"""Running a simulation: :func:`simulate` plays the chunks here, in worker processes or as Ray tasks, and merges
them in chunk order, so the result is the same whichever way it ran.

Workers get chunks a few at a time (at most two in flight per worker), so a run of any length holds only a few
chunk results in memory; histories are written to their file as their chunks come in, and the file appears
only when the run is complete.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import secrets
import signal
import socket
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from .._cores import usable_cores
from .._extras import install_hint
from .._pool import owned_pool, submit
from . import chunk as chunk_module
from .chunk import ChunkResult, play_chunk
from .result import SimulationResult, Totals
from .spec import SimulateError, SimulationSpec

__all__ = ["IN_FLIGHT_PER_WORKER", "Progress", "auto_workers", "simulate"]

#: ``progress(hands done, hands in all, each bot's bb/100 so far)``, called after each chunk is merged.
Progress = Callable[[int, int, tuple[float, ...]], None]

#: Chunks submitted ahead per worker process or Ray CPU.
IN_FLIGHT_PER_WORKER = 2


def auto_workers(spec: SimulationSpec) -> int:
    """``workers=None``: every core this process may run on (``os.sched_getaffinity``) when there are at least two
    chunks to share, never more workers than chunks; else 1 (played in this process)."""
    cores = usable_cores()
    return max(1, min(cores, spec.chunks)) if spec.chunks >= 2 else 1


def simulate(
    spec: SimulationSpec | None = None,
    /,
    *,
    workers: int | None = None,
    ray: str | None = None,
    progress: Progress | None = None,
    histories: str | os.PathLike[str] | None = None,
    **fields: Any,
) -> SimulationResult:
    """Play a simulation and return its :class:`~studpoker.simulate.SimulationResult`.

    ``spec`` is a :class:`~studpoker.simulate.SimulationSpec`, or its fields are given as keywords (``bots=``,
    ``hands=``, ``variant=``...; with a spec, keywords replace its fields). A seed left ``None`` is drawn at
    random and is in the result's spec. ``workers``: processes to play the chunks on (``None``: see
    :func:`auto_workers`; 1: in this process). ``ray``: a Ray cluster's address (``"auto"``, ``"HOST:PORT"``,
    ``"ray://HOST:PORT"``) or ``"local"`` to start one in this process (with ``workers`` CPUs if given); a Ray
    session already initialised is used as it is. ``histories``: a ``.phhs`` file for the hands the spec's
    ``sample`` keeps. :class:`SimulateError` for what cannot run; ``KeyboardInterrupt`` stops every worker and
    reports nothing. Worker processes start with ``forkserver`` (or ``spawn``), so a script using them guards its
    entry point with ``if __name__ == "__main__":``.
    """
    try:
        if spec is None:
            spec = SimulationSpec(**fields)
        elif fields:
            spec = spec.replace(**fields)
    except TypeError as error:  # a field that does not exist, or one missing
        raise SimulateError(str(error)) from None
    if spec.seed is None:
        spec = spec.replace(seed=secrets.randbits(63))
    if workers is not None and (type(workers) is not int or workers < 1):
        raise SimulateError(f"workers must be a whole number of at least 1, got {workers!r}")
    if histories is not None and spec.sample == 0:
        raise SimulateError("saving histories needs a sample rate above 0 (1 keeps every hand)")
    chunks: Iterator[ChunkResult]
    if ray is not None:
        chunks = _on_ray(spec, ray, workers)
    else:
        count = auto_workers(spec) if workers is None else min(workers, spec.chunks)
        chunks = _here(spec) if count == 1 else _in_processes(spec, count)
    totals = Totals(spec)
    with _HistoryFile(histories) as sink:
        try:
            for chunk in chunks:
                totals.add(chunk)
                sink.write(chunk.histories)
                if progress is not None:
                    progress(totals.hands, spec.played_hands, totals.running())
        finally:
            close = getattr(chunks, "close", None)
            if close is not None:
                close()  # stops the workers if the loop ended early
        return totals.result()


# -- where the chunks are played --------------------------------------------------------------------------------


def _here(spec: SimulationSpec) -> Iterator[ChunkResult]:
    for k in range(spec.chunks):
        yield play_chunk(spec, k)


def _terminated(signum: int, _frame: object) -> None:
    """SIGTERM in a worker: close the bots of the chunk being played (external programs), then exit at once."""
    for bot in list(chunk_module.running_bots):
        with contextlib.suppress(Exception):
            bot.close()
    os._exit(128 + signum)


def _worker_started() -> None:
    """A worker process ignores Ctrl-C (the parent stops it: the terminal sends SIGINT to them all) and closes its
    bots when the parent terminates it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _terminated)


def _in_processes(spec: SimulationSpec, workers: int) -> Iterator[ChunkResult]:
    """The chunks on ``workers`` processes (forkserver where there is one, else spawn: nothing inherited)."""
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    pending: dict[int, Future[ChunkResult]] = {}
    submitted = 0
    with owned_pool(workers, method=method, initializer=_worker_started) as pool:  # stopped at once if not finished
        for k in range(spec.chunks):
            while submitted < spec.chunks and submitted < k + IN_FLIGHT_PER_WORKER * workers:
                pending[submitted] = submit(pool, play_chunk, spec, submitted)
                submitted += 1
            yield pending.pop(k).result()


def _check_reachable(address: str) -> None:
    """Refuse at once a ``HOST:PORT`` nobody listens on (Ray would wait for minutes)."""
    where = address.removeprefix("ray://")
    host, sep, port = where.rpartition(":")
    if not sep or not port.isdigit():
        return
    try:
        with socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)), timeout=3):
            pass
    except OSError as error:
        raise SimulateError(f"cannot reach a Ray cluster at {address}: {error.strerror or error}") from None


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise SimulateError(f"--ray needs Ray, which is not installed: {install_hint('ray')}") from None
    return ray


def _on_ray(spec: SimulationSpec, address: str, workers: int | None) -> Iterator[ChunkResult]:
    """The chunks as Ray tasks on the cluster at ``address`` (``local``: a cluster started here)."""
    ray = _import_ray()
    started = False
    if not ray.is_initialized():
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.ERROR}
        try:
            if address == "local":
                ray.init(address="local", num_cpus=workers, **options)  # a new one, whatever else runs here
            else:
                _check_reachable(address)
                ray.init(address=address, **options)
        except SimulateError:
            raise
        except Exception as error:  # Ray's ConnectionError, RuntimeError, ValueError...
            first = (str(error).strip().splitlines() or [type(error).__name__])[0]
            raise SimulateError(f"cannot start Ray at {address}: {first}") from None
        started = True
    task = ray.remote(num_cpus=1, max_retries=0)(play_chunk)
    pending: dict[int, Any] = {}
    finished = False
    try:
        window = IN_FLIGHT_PER_WORKER * max(1, int(ray.cluster_resources().get("CPU", 1)))
        submitted = 0
        for k in range(spec.chunks):
            while submitted < spec.chunks and submitted < k + window:
                pending[submitted] = task.remote(spec, submitted)
                submitted += 1
            try:
                result: ChunkResult = ray.get(pending.pop(k))
            except ray.exceptions.RayTaskError as error:
                cause = getattr(error, "cause", None)
                if isinstance(cause, Exception):
                    raise cause from None
                raise
            yield result
        finished = True
    finally:
        if not finished:
            for ref in pending.values():
                with contextlib.suppress(Exception):
                    ray.cancel(ref, force=True)
        if started:
            ray.shutdown()


# -- histories ---------------------------------------------------------------------------------------------------


class _HistoryFile:
    """The ``.phhs`` being written: sections ``[1]``, ``[2]``... as :func:`studpoker.history.phh.dumps` writes
    them, into a temporary file beside the target, renamed onto it when the run is complete, removed otherwise."""

    def __init__(self, path: str | os.PathLike[str] | None) -> None:
        self.path = None if path is None else Path(path)
        self.count = 0
        self._file: Any = None
        self._partial: Path | None = None

    def __enter__(self) -> _HistoryFile:
        if self.path is not None:
            self._partial = self.path.with_name(f".{self.path.name}.partial")
            try:
                self._file = self._partial.open("w", encoding="utf-8")
            except OSError as error:
                raise SimulateError(f"cannot write {self.path}: {error.strerror or error}") from None
        return self

    def write(self, hands: Iterable[tuple[int, str]]) -> None:
        if self._file is None:
            return
        for _number, text in hands:
            self.count += 1
            self._file.write(f"{'' if self.count == 1 else chr(10)}[{self.count}]\n{text}")

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, traceback: Any) -> None:
        if self._file is None or self._partial is None or self.path is None:
            return
        self._file.close()
        if kind is None:
            os.replace(self._partial, self.path)
        else:
            with contextlib.suppress(OSError):
                self._partial.unlink()
