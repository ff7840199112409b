"""Table chat: what a line may hold, and how often an account may send one (docs/server-protocol.md, ``chat``).

Pure parts only (the table's actor keeps the history and broadcasts). A line is one line of visible text:
NFC-normalised and stripped, 1 to :data:`MAX_CHARS` characters, without control or format characters (the
bidi overrides such as U+202E, zero-width joiners, NUL, tabs), private-use or unassigned code points, letters that
draw nothing (U+3164...) or more than :data:`MAX_MARKS` combining marks in a row, with at least one visible
character, and without line breaks of any kind. The server never
escapes it for HTML: it is JSON text, and clients must show it as text.

>>> clean_text("  gg  ")
'gg'
>>> clean_text("abc\\u202edef")
Traceback (most recent call last):
    ...
studpoker.server.chat.ChatRefusedError: a chat line may not contain U+202E (RIGHT-TO-LEFT OVERRIDE)
"""

from __future__ import annotations

import math
import unicodedata
from collections import deque

from .names import has_visible_text, unshowable

__all__ = [
    "BURST",
    "HISTORY",
    "INTERVAL",
    "MAX_CHARS",
    "MAX_MARKS",
    "WINDOW",
    "ChatLimiter",
    "ChatRefusedError",
    "clean_text",
]

#: The longest chat line, in characters (after normalisation and stripping).
MAX_CHARS = 200
#: At most ``BURST`` lines in any ``WINDOW`` seconds, and one per ``INTERVAL`` seconds, per account and table.
BURST = 5
WINDOW = 10.0
INTERVAL = 0.5
#: The lines a table remembers (and sends in its snapshot).
HISTORY = 50
#: The most combining marks in a row on one character (scripts need two or three; "Zalgo" text stacks dozens,
#: which draw over the lines above and below).
MAX_MARKS = 4


class ChatRefusedError(ValueError):
    """A chat line refused: ``code`` for programs (``bad_message``, ``chat_rate_limited``), the reason in words,
    and for the rate limit ``retry_after`` seconds."""

    def __init__(self, code: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.retry_after = retry_after


def clean_text(text: object) -> str:
    """The chat line to send, or :class:`ChatRefusedError` (``bad_message``) saying why not."""
    if not isinstance(text, str):
        raise ChatRefusedError("bad_message", 'chat needs a "text" string')
    if len(text) > 4 * MAX_CHARS:  # a frame is at most 4 KiB anyway: no need to normalise more than this
        raise ChatRefusedError("bad_message", f"a chat line is at most {MAX_CHARS} characters")
    text = unicodedata.normalize("NFC", text)
    marks = 0
    for char in text:
        category = unicodedata.category(char)
        if unshowable(char):  # the characters names may not hold either
            if char in "\n\r\u2028\u2029\x85\x0b\x0c":
                raise ChatRefusedError("bad_message", "a chat line is one line: no line breaks")
            name = unicodedata.name(char, "a control character" if category == "Cc" else "unassigned")
            raise ChatRefusedError("bad_message", f"a chat line may not contain U+{ord(char):04X} ({name})")
        marks = marks + 1 if category in ("Mn", "Me") else 0
        if marks > MAX_MARKS:
            raise ChatRefusedError("bad_message", f"a chat line may stack at most {MAX_MARKS} combining marks")
    text = text.strip()
    if not text or not has_visible_text(text):
        raise ChatRefusedError("bad_message", "a chat line needs some text")
    if unicodedata.category(text[0]) in ("Mn", "Me"):
        raise ChatRefusedError("bad_message", "a chat line may not begin with a combining mark")
    if len(text) > MAX_CHARS:
        raise ChatRefusedError("bad_message", f"a chat line is at most {MAX_CHARS} characters, got {len(text)}")
    return text


class ChatLimiter:
    """How often each account may chat (at one table): at most ``burst`` lines in any ``window`` seconds and one
    per ``interval``. Only lines let through count. Memory: ``burst`` times per account that chatted in the last
    ``window`` seconds (older accounts are forgotten as new ones come)."""

    def __init__(self, burst: int = BURST, window: float = WINDOW, interval: float = INTERVAL) -> None:
        self.burst, self.window, self.interval = burst, window, interval
        self.sent: dict[int, deque[float]] = {}

    def wait(self, account: int, now: float) -> float:
        """Seconds ``account`` must wait before its next line (0: it may send one now)."""
        times = self.sent.get(account)
        if not times:
            return 0.0
        wait = times[-1] + self.interval - now
        if len(times) >= self.burst:
            wait = max(wait, times[0] + self.window - now)
        return max(wait, 0.0)

    def check(self, account: int, now: float) -> None:
        """Count a line of ``account`` at ``now``, or :class:`ChatRefusedError` (``chat_rate_limited``) if it must
        wait (then nothing is counted)."""
        wait = self.wait(account, now)
        if wait > 0:
            seconds = max(0.1, math.ceil(wait * 10) / 10)
            raise ChatRefusedError(
                "chat_rate_limited",
                f"too many chat lines (at most {self.burst} in {self.window:g} s, one per {self.interval:g} s):"
                f" try again in {seconds:g} s",
                seconds,
            )
        if len(self.sent) >= 64 and account not in self.sent:
            for stale in [a for a, t in self.sent.items() if t[-1] + self.window <= now]:
                del self.sent[stale]
        self.sent.setdefault(account, deque(maxlen=self.burst)).append(now)
