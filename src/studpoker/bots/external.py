"""A bot in another process, spoken to in JSON lines over its stdin and stdout (the stud analogue of UCI).

:class:`ExternalBot` starts the program, greets it (``hello`` -> ``ready``), sends it the seat's view at
every decision and reads one action back, with a time limit: a bot that crashes, hangs, or writes something
that is not a legal action raises :class:`~studpoker.bots.base.BotError` saying which bot, what happened and
the last lines it wrote on stderr. The messages are built by :mod:`studpoker.bots.protocol`; the protocol is
described in docs/bot-protocol.md.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import shlex
import subprocess
import threading
import time
import weakref
from collections import deque
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import IO, Any

from ..engine import Action, Rules, View
from .base import Bot, BotError
from .protocol import (
    PROTOCOL_VERSION,
    act_message,
    action_from_json,
    decode_line,
    encode_message,
    hand_over_message,
    hello_message,
    new_hand_message,
    quit_message,
)

__all__ = ["ExternalBot"]

#: Each line a bot writes on stderr is logged here (level INFO), with the bot's name.
logger = logging.getLogger(__name__)

_STDERR_LINES = 20  # kept for error messages
_SHOWN_STDERR = 5  # quoted in one


def _stop(process: subprocess.Popen[str]) -> None:
    """Kill ``process`` if it is still running (the finalizer of a bot nobody closed)."""
    if process.poll() is None:
        process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=5)


def _read_stderr(stream: IO[str], tail: deque[str], name: list[str]) -> None:
    """Keep the last lines of the bot's stderr in ``tail`` and log each one under ``name[0]``."""
    try:
        for line in stream:
            text = line.rstrip("\r\n")
            tail.append(text)
            logger.info("%s: %s", name[0], text)
    except (OSError, ValueError):
        pass
    finally:
        stream.close()


def _read_lines(stream: IO[str], sink: queue.Queue[str | None]) -> None:
    """Put every line of ``stream`` in ``sink``, then ``None`` at the end of the stream (the bot exited)."""
    try:
        for line in stream:
            sink.put(line)
    except (OSError, ValueError):  # the pipe was closed under us
        pass
    finally:
        sink.put(None)
        stream.close()


class ExternalBot(Bot):
    """A bot program in another process, playing through the JSON-lines protocol of docs/bot-protocol.md.

    ``command`` is the program and its arguments (a string is split like a shell would, with :mod:`shlex`; no
    shell runs it). The process starts at once; the ``hello`` handshake happens at the first message of a
    hand, or when :meth:`start` is called, so :attr:`rules` may be set after creating the bot. Each reply
    must come within ``timeout`` seconds. The bot's stderr is captured: its last lines are quoted in errors
    (:attr:`stderr_lines`) and every line is logged at INFO level on the ``studpoker.bots.external`` logger.
    Use it as a context manager, or call :meth:`close`, to stop the process.
    """

    tag = "external"

    def __init__(
        self,
        command: Sequence[str] | str,
        *,
        timeout: float = 10.0,
        name: str | None = None,
        rules: Rules | None = None,
        seed: int | None = None,
        cwd: str | os.PathLike[str] | None = None,
    ) -> None:
        try:
            argv = shlex.split(command) if isinstance(command, str) else [str(part) for part in command]
        except ValueError as error:  # an unclosed quote
            raise BotError(f"cannot read the command {command!r}: {error}") from None
        if not argv:
            raise BotError("an external bot needs a command to run, e.g. 'python examples/bots/caller.py'")
        if not timeout > 0:
            raise BotError(f"the time limit of an external bot must be positive, got {timeout!r}")
        self.command: tuple[str, ...] = tuple(argv)
        self.timeout = float(timeout)
        self.name = name
        self.rules = rules
        self.seed = seed
        #: The name the bot gave in its ``ready`` reply (``None`` before, or if it gave none).
        self.bot_name: str | None = None
        self._ready = False
        self._closed = False
        self._stderr: deque[str] = deque(maxlen=_STDERR_LINES)
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._log_name = [self.label]  # the stderr thread's name for the bot (updated by ready)
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}  # a Python bot that forgets to flush still answers
        try:
            self._process: subprocess.Popen[str] = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                env=env,
                cwd=cwd,
            )
        except OSError as error:
            raise BotError(f"cannot start the external bot {shlex.join(argv)!r}: {error}") from None
        self._finalizer = weakref.finalize(self, _stop, self._process)
        assert self._process.stdout is not None and self._process.stderr is not None
        self._stdout_thread = threading.Thread(
            target=_read_lines, args=(self._process.stdout, self._lines), name=f"bot-stdout-{self.pid}", daemon=True
        )
        self._stderr_thread = threading.Thread(  # given no reference to self, so that a lost bot is collected
            target=_read_stderr,
            args=(self._process.stderr, self._stderr, self._log_name),
            name=f"bot-stderr-{self.pid}",
            daemon=True,
        )
        self._stdout_thread.start()
        self._stderr_thread.start()

    # -- reading ---------------------------------------------------------------------------------------

    @property
    def label(self) -> str:
        """How errors name the bot: its name, else the name it gave, else its command."""
        return self.name or self.bot_name or shlex.join(self.command)

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def returncode(self) -> int | None:
        """The exit status once the process has ended (``None`` while it runs)."""
        return self._process.poll()

    @property
    def stderr_lines(self) -> tuple[str, ...]:
        """The last lines the bot wrote on stderr (up to 20)."""
        return tuple(self._stderr)

    def __repr__(self) -> str:
        return f"<ExternalBot {self.label!r} pid {self.pid}>"

    # -- the bot interface -----------------------------------------------------------------------------

    def start(self) -> None:
        """Greet the bot (``hello``, with :attr:`rules` and :attr:`seed`) and wait for its ``ready``; once only.
        The other methods call it when needed."""
        if self._closed:
            raise self._error("is closed", stderr=False)
        if self._ready:
            return
        self._send(hello_message(self.name, self.rules, self.seed), "hello")
        reply = self._receive("hello")
        if not isinstance(reply, dict) or reply.get("type") != "ready":
            raise self._error(f'answered hello with {_short(reply)}, not {{"type": "ready"}}')
        protocol = reply.get("protocol", PROTOCOL_VERSION)
        if protocol != PROTOCOL_VERSION:
            raise self._error(f"speaks protocol {protocol!r}; studpoker speaks protocol {PROTOCOL_VERSION}")
        name = reply.get("name")
        if isinstance(name, str) and name.strip():
            self.bot_name = name.strip()
            self._log_name[0] = self.label
        self._ready = True

    def new_hand(self, view: View) -> None:
        self.start()
        self._send(new_hand_message(view), "new_hand")

    def act(self, view: View) -> Action:
        self.start()
        self._check_nothing_pending()
        self._send(act_message(view), "act")
        reply = self._receive("act")
        try:
            return action_from_json(reply, view.legal_actions)
        except BotError as error:
            raise self._error(str(error), stderr=False) from None

    def hand_over(self, view: View) -> None:
        self.start()
        self._send(hand_over_message(view), "hand_over")

    def close(self) -> None:
        """Send ``quit`` and wait a moment for the process to exit; terminate it, then kill it, if it does not.
        Safe to call more than once."""
        self._shut_down(polite=True)

    def _shut_down(self, *, polite: bool) -> None:
        """Stop the process: with ``quit`` first if ``polite``, else terminate it at once (then kill it)."""
        if self._closed:
            return
        self._closed = True
        process = self._process
        grace = min(self.timeout, 1.0)
        if process.poll() is None:
            stdin = process.stdin
            try:
                if stdin is not None:
                    if polite:
                        stdin.write(encode_message(quit_message()) + "\n")
                    stdin.close()  # the end of its input, for a bot that reads to the end
            except (OSError, ValueError):
                pass
            for stop in (None, process.terminate, process.kill) if polite else (process.terminate, process.kill):
                if stop is not None:
                    stop()
                try:
                    process.wait(timeout=grace)
                    break
                except subprocess.TimeoutExpired:
                    continue
        try:
            if process.stdin is not None:
                process.stdin.close()
        except (OSError, ValueError):
            pass
        self._finalizer()  # kills it if it is somehow still running
        self._stdout_thread.join(timeout=grace)
        self._stderr_thread.join(timeout=grace)

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    # -- the conversation ------------------------------------------------------------------------------

    def _error(self, message: str, *, stderr: bool = True) -> BotError:
        """A :class:`BotError` naming this bot, with the last lines of its stderr."""
        text = f"external bot {self.label!r} ({_short(shlex.join(self.command), 80)}) {message}"
        if stderr:
            self._stderr_thread.join(timeout=0.2)  # its last words may still be on the way
            tail = list(self._stderr)[-_SHOWN_STDERR:]
            text += "; its last lines on stderr: " + " | ".join(tail) if tail else "; nothing on stderr"
        return BotError(text)

    def _exited(self, doing: str) -> BotError:
        try:
            status: int | None = self._process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            status = None
        how = "closed its output" if status is None else f"exited with status {status}"
        return self._error(f"{how} {doing}")

    def _send(self, message: Mapping[str, Any], what: str) -> None:
        if self._closed:
            raise self._error(f"is closed: {what} cannot be sent", stderr=False)
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(encode_message(message) + "\n")
            stdin.flush()
        except (OSError, ValueError):
            raise self._exited(f"before it could be sent {what}") from None

    def _receive(self, what: str) -> Any:
        """The next non-blank line the bot writes, as JSON, within the time limit."""
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                line = self._lines.get(timeout=max(deadline - time.monotonic(), 0.0))
            except queue.Empty:
                error = self._error(f"did not answer {what} within {self.timeout:g} s; it was stopped")
                self._shut_down(polite=False)  # a late answer would be taken for the next one
                raise error from None
            if line is None:
                self._lines.put(None)  # stays at the end for any later read
                raise self._exited(f"instead of answering {what}")
            if not line.strip():
                continue
            try:
                return decode_line(line)
            except BotError as error:
                raise self._error(f"answered {what} with a line that is not JSON: {_short(line.strip())}") from error

    def _check_nothing_pending(self) -> None:
        """A line written when no answer was due would be taken for the next answer: refuse it."""
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self._lines.put(None)
                raise self._exited("before it was asked to act")
            if line.strip():
                raise self._error(f"wrote {_short(line.strip())} when no answer was due")


def _short(value: object, limit: int = 200) -> str:
    """A received line or value for an error message (JSON values as JSON), shortened."""
    if isinstance(value, str):
        text = value
    else:
        try:
            text = json.dumps(value)
        except (TypeError, ValueError):
            text = repr(value)
    text = text.replace("\r", "\\r").replace("\n", "\\n")  # an error message is one line
    return text if len(text) <= limit else text[: limit - 3] + "..."
