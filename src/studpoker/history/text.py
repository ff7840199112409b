"""A hand-history file's text: its encoding found, never assumed, the text read whole or a piece at a time, and
written back.

The bottom of :mod:`studpoker.history`: every format's reader and writer (PHH, PokerStars, the rooms of
:mod:`~studpoker.history.sites`) and :mod:`~studpoker.history.files` above them read and write through it, and it
imports none of them.
"""

from __future__ import annotations

import codecs
from collections.abc import Generator
from pathlib import Path

__all__ = [
    "CHUNK",
    "Encoding",
    "HistoryFileError",
    "decode",
    "decoded",
    "encoding_of",
    "find_encoding",
    "read_text",
    "write_text",
]

#: How many bytes of a file are decoded at a time.
CHUNK = 1 << 18


class HistoryFileError(ValueError):
    """A file that cannot be read or written as a hand history; the message names the file."""


def decode(data: bytes) -> str:
    """The text of a hand-history file, its encoding detected, never assumed: a byte-order mark (UTF-8,
    UTF-16 LE/BE) first; then UTF-16 without one (every other byte zero); then UTF-8; then Windows-1252,
    the rooms' single-byte encoding (a superset of Latin-1's printable characters). Line ends become ``\\n``."""
    if data.startswith(b"\xef\xbb\xbf"):
        text = data[3:].decode("utf-8", errors="replace")  # a broken byte costs its hand, not the file
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        # the mark says the byte order and is dropped; an odd last byte (half a character, cut off) is dropped too
        text = data[: len(data) // 2 * 2].decode("utf-16", errors="replace")
    elif (order := _utf16_order(data)) is not None:
        text = data[: len(data) // 2 * 2].decode(order, errors="replace")
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("cp1252", errors="replace")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _utf16_order(data: bytes) -> str | None:
    """UTF-16 without a byte-order mark: in text of the rooms' characters (Latin letters, digits, punctuation),
    one byte of each pair is zero; which one says the byte order. None when the first bytes do not look so."""
    sample = data[:400]
    pairs = len(sample) // 2
    if pairs < 2:
        return None
    odd, even = sample[1 : 2 * pairs : 2].count(0), sample[0 : 2 * pairs : 2].count(0)
    if odd * 4 >= pairs * 3 and even * 4 < pairs:
        return "utf-16-le"
    if even * 4 >= pairs * 3 and odd * 4 < pairs:
        return "utf-16-be"
    return None


def read_text(path: str | Path, error: type[ValueError] = ValueError) -> str:
    """The text of ``path``, its encoding detected (:func:`decode`: a byte-order mark,
    UTF-16, UTF-8, else Windows-1252); ``error`` names the file when it cannot be read."""
    try:
        data = Path(path).read_bytes()
    except OSError as failure:
        raise error(f"{path}: {failure.strerror or failure}") from None
    try:
        return decode(data)
    except UnicodeDecodeError as failure:
        raise error(
            f"{path}: its text cannot be decoded ({failure.encoding}: {failure.reason} at byte {failure.start})"
        ) from None


def write_text(path: str | Path, text: str, error: type[ValueError] = ValueError) -> None:
    """Write ``text`` to ``path`` (UTF-8), the counterpart of :func:`read_text`; ``error`` names the file when it
    cannot be written."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as failure:
        raise error(f"{path}: {failure.strerror or failure}") from None


#: How a file is decoded: its codec, the bytes to skip (a UTF-8 byte-order mark) and the bytes to read.
Encoding = tuple[str, int, int]


def encoding_of(path: Path) -> Encoding:
    """How :func:`decode` would decode the file at ``path``, without reading it whole: the
    codec, how many bytes to skip (a UTF-8 byte-order mark) and how many to read (UTF-16: whole pairs).
    :class:`HistoryFileError` names the file when it cannot be read."""
    try:
        return find_encoding(path)
    except OSError as failure:
        raise HistoryFileError(f"{path}: {failure.strerror or failure}") from None


def find_encoding(path: Path) -> Encoding:
    """:func:`encoding_of`, letting ``OSError`` through."""
    with path.open("rb") as file:
        start = file.read(400)
        size = file.seek(0, 2)
        if start.startswith(b"\xef\xbb\xbf"):
            return "utf-8", 3, size
        if start.startswith((b"\xff\xfe", b"\xfe\xff")):
            return "utf-16", 0, size // 2 * 2
        if (order := _utf16_order(start)) is not None:
            return order, 0, size // 2 * 2
        file.seek(0)
        check = codecs.getincrementaldecoder("utf-8")()
        try:
            while block := file.read(CHUNK):
                check.decode(block)
            check.decode(b"", final=True)
        except UnicodeDecodeError:
            return "cp1252", 0, size
    return "utf-8", 0, size


def decoded(path: Path, encoding: Encoding | None = None) -> Generator[str, None, None]:
    """The text of the file at ``path`` a piece at a time, decoded as :func:`decode`
    decodes it whole (its ``encoding`` detected unless given, every line end ``\n``); :class:`HistoryFileError`
    names the file when it cannot be read."""
    codec, skip, end = encoding or encoding_of(path)
    try:
        file = path.open("rb")
    except OSError as failure:
        raise HistoryFileError(f"{path}: {failure.strerror or failure}") from None
    decoder = codecs.getincrementaldecoder(codec)(errors="replace")
    held = ""  # a "\r" at the end of a piece: the next may start with its "\n"
    with file:
        file.seek(skip)
        left = end - skip
        while left > 0 and (block := file.read(min(CHUNK, left))):
            left -= len(block)
            text = held + decoder.decode(block)
            held = "\r" if text.endswith("\r") else ""
            text = text[:-1] if held else text
            yield text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text
        text = held + decoder.decode(b"", final=True)
        if text:
            yield text.replace("\r\n", "\n").replace("\r", "\n")
