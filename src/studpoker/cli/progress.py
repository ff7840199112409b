"""What the long-running ``stud`` commands share on the terminal: a progress display that waits before it shows,
and the check that an output file can be written before any work starts.

:class:`Progress` shows nothing for ``delay`` seconds (no flicker on quick answers), then a bar: ``rich.progress``
when rich is installed (it comes with the ``tui`` extra), else one ``\\r``-rewritten line at most ten times a
second. A command gives it its label and, for each update, a line of text of its own (time left, hands/s).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from .options import UsageError

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["Progress", "check_writable", "is_terminal", "seconds_text"]


def seconds_text(seconds: float) -> str:
    """A duration as the commands print it: ``0.25 s``, ``3.4 s``, ``1,234 s``."""
    if seconds < 1:
        return f"{seconds:.2f} s"
    return f"{seconds:.1f} s" if seconds < 100 else f"{seconds:,.0f} s"


class Progress:
    """A delayed progress bar on ``stream`` labelled ``label`` (``"stud equity"``); :meth:`show` updates it,
    :meth:`close` takes it off the screen again, so the answer prints on a clean terminal."""

    def __init__(self, stream: TextIO, label: str, *, delay: float, use_rich: bool = True) -> None:
        self.stream, self.label, self.delay, self.use_rich = stream, label, delay, use_rich
        self.start = time.perf_counter()
        self._update: Callable[[int, int, str], None] | None = None
        self._stop: Callable[[], None] | None = None
        self._last = 0.0

    def due(self, done: int, total: int) -> bool:
        """Whether an update now would be shown (the delay is over, and plain text is not updated more than ten
        times a second): lets a caller skip building the update's text."""
        now = time.perf_counter()
        if self._update is None:
            return now - self.start >= self.delay
        return self._stop is not None or now - self._last >= 0.1 or done >= total

    def show(self, done: int, total: int, info: str = "") -> None:
        """Show ``done`` of ``total`` with ``info`` beside the bar (once :meth:`due`)."""
        if not self.due(done, total):
            return
        if self._update is None:
            self._open(done, total)
        self._last = time.perf_counter()
        assert self._update is not None
        self._update(done, total, info)

    def _open(self, done: int, total: int) -> None:
        if self.use_rich:
            try:
                from rich import progress as bar_parts
                from rich.console import Console
            except ImportError:  # without rich, plain text
                pass
            else:
                bar = bar_parts.Progress(
                    bar_parts.TextColumn(self.label),
                    bar_parts.BarColumn(),
                    bar_parts.TaskProgressColumn(),
                    bar_parts.TimeRemainingColumn(),
                    bar_parts.TextColumn("{task.fields[info]}"),
                    console=Console(file=self.stream),
                    transient=True,
                )
                task = bar.add_task(self.label, total=total, completed=done, info="")

                def update(done: int, total: int, info: str) -> None:
                    bar.update(task, completed=done, total=total, info=info)

                bar.start()
                self._update, self._stop = update, bar.stop
                return

        def text(done: int, total: int, info: str) -> None:
            share = done / total if total else 0.0
            elapsed = time.perf_counter() - self.start
            left = f", about {seconds_text(elapsed * (1 - share) / share)} left" if 0 < share < 1 else ""
            extra = f"  {info}" if info else ""
            self.stream.write(f"\r{self.label}: {100 * share:5.1f}%{left}{extra}   ")
            self.stream.flush()

        self._update = text

    def close(self) -> None:
        """Take the display off the screen (idempotent)."""
        if self._stop is not None:
            self._stop()
        elif self._update is not None:
            self.stream.write("\r\033[K")
            self.stream.flush()
        self._update = self._stop = None
        self.start = float("inf")  # closed: never opens again


def is_terminal(stream: TextIO) -> bool:
    """Whether ``stream`` is a terminal (a closed or detached stream is not)."""
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if isatty is not None else False
    except (OSError, ValueError):
        return False


def check_writable(path: Path, where: str, *, example: str = "") -> None:
    """Refuse (:class:`UsageError`, the message starting with ``where``) a file that could not be written when
    the command is done: its directory must exist and take new files; the file itself may exist (it is replaced)
    if it is a writable file. Nothing is left behind: the directory is tried with a temporary file, an existing
    file is opened to append and closed unchanged. ``example``: a file name to suggest when ``path`` is a
    directory."""
    import tempfile  # here: with pathlib, most of this module's import time, and only writers need it

    parent = path.parent
    if not parent.exists():
        raise UsageError(f"{where}: there is no directory {parent}")
    if not parent.is_dir():
        raise UsageError(f"{where}: {parent} is not a directory")
    if path.is_dir():
        hint = f"; name a file in it, e.g. {path / example}" if example else ""
        raise UsageError(f"{where}: it is a directory{hint}")
    try:
        descriptor, probe = tempfile.mkstemp(prefix=".studpoker-", suffix=".probe", dir=parent)
    except OSError as error:
        raise UsageError(f"{where}: cannot write in {parent} ({error.strerror or error})") from None
    os.close(descriptor)
    os.unlink(probe)
    if path.exists():
        try:
            with path.open("ab"):
                pass
        except OSError as error:
            raise UsageError(f"{where}: cannot write to it ({error.strerror or error})") from None
