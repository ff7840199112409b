"""Cutting a text into lines as it is read a piece at a time, and the lines into hands, with a cap on what one hand
may hold: how :mod:`studpoker.history.files` reads a file of any size in flat memory.

Compiled with mypyc where it can be (setup.py): the tracker imports millions of hands, and these loops see every
line of every file.

>>> list(lines_of(["Poker", "Stars Hand #1\\r\\nSeat 1", "\\n\\nPokerStars Hand #2\\n"], 100, universal=True))
['PokerStars Hand #1\\r\\n', 'Seat 1\\n', '\\n', 'PokerStars Hand #2\\n']
>>> lines = ["intro\\n", "PokerStars Hand #1\\n", "  Seat 1 \\n", "\\n", "PokerStars Hand #2\\n"]
>>> list(stripped_hands(lines, lambda line: line.startswith("PokerStars"), 100, "too long"))
[(1, ['intro'], [1]), (2, ['PokerStars Hand #1', 'Seat 1'], [2, 3]), (5, ['PokerStars Hand #2'], [5])]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

__all__ = ["lines_of", "split_hands", "stripped_hands", "without_bom"]


def without_bom(lines: Iterable[str]) -> Iterator[str]:
    """``lines``, a byte-order mark left at the start of the first dropped (as the text readers drop it)."""
    it = iter(lines)
    for line in it:
        yield line.removeprefix("\ufeff")
        break
    yield from it


def lines_of(pieces: Iterable[str], limit: int, *, universal: bool) -> Iterator[str]:
    """The lines of a text given a piece at a time, split as ``str.splitlines(keepends=True)`` splits it
    (``universal``) or as ``str.split("\\n")`` (without the ends; the last line too, even empty). A line longer than
    ``limit`` is cut just past it (its hand is over the cap anyway), so that no line held grows without end."""
    pending = ""
    cut = False  # the pending line was cut: what follows, up to its end, is dropped
    for given in pieces:
        piece = given
        if not piece:
            continue
        if cut:
            if universal:
                head = piece.splitlines(keepends=True)[0]
                body = head.splitlines()[0]
                if body == head:
                    continue  # no line end in this piece either
                yield pending + head[len(body) :]
                piece = piece[len(head) :]
            else:
                at = piece.find("\n")
                if at < 0:
                    continue
                yield pending
                piece = piece[at + 1 :]
            pending, cut = "", False
        text = pending + piece
        if universal:
            parts = text.splitlines(keepends=True)
            pending = parts.pop() if parts and parts[-1].splitlines()[0] == parts[-1] else ""
        else:
            parts = text.split("\n")
            pending = parts.pop()
        yield from parts
        if len(pending) > limit:
            pending, cut = pending[: limit + 1], True
    if pending or not universal:
        yield pending


def split_hands(
    lines: Iterable[str],
    starts: Callable[[str], bool],
    limit: int,
    lead: Callable[[list[str]], int] | None = None,
) -> Iterator[tuple[int, list[str] | None, bool]]:
    """``lines`` cut before each line that ``starts`` a hand (and the last ``lead(part)`` lines of the part before
    it, where a hand's first lines come before the one that tells: PartyPoker): the 0-based index of each part's
    first line, its lines (or None for a part over ``limit`` characters, whose lines are dropped as they come), and
    whether it is a hand (else it is what comes before the first)."""
    first, size, hand = 0, 0, False
    part: list[str] = []
    over = False
    for index, line in enumerate(lines):
        if starts(line):
            moved = lead(part) if lead is not None and not over else 0
            carried, part = (part[len(part) - moved :], part[: len(part) - moved]) if moved else ([], part)
            if over or part:
                yield first, None if over else part, hand
            first, part, hand, over = index - moved, carried, True, False
            size = sum(map(len, carried))
        if over:
            continue
        size += len(line)
        if size > limit:
            part, over = [], True
        else:
            part.append(line)
    if over or part:
        yield first, None if over else part, hand


def stripped_hands(
    lines: Iterable[str], starts: Callable[[str], bool], limit: int, too_long: str
) -> Iterator[tuple[int, list[str] | ValueError, list[int]]]:
    """``lines`` cut before each line whose stripped text ``starts`` a hand, as the PokerStars reader takes them:
    each part's first line number (from 1), its non-blank lines stripped, and their numbers; a part with no such
    line is passed by, and a part over ``limit`` characters is ``ValueError(too_long)`` (its lines dropped as they
    come). The text before the first hand is a part like the others (the reader says it is not a hand)."""
    first, size, over = 1, 0, False
    kept: list[str] = []
    numbers: list[int] = []
    index = 0
    for line in lines:
        index += 1
        text = line.strip()
        if starts(text):
            if over:
                yield first, ValueError(too_long), []
            elif kept:
                yield numbers[0], kept, numbers
            first, size, over, kept, numbers = index, 0, False, [], []
        if over:
            continue
        size += len(line)
        if size > limit:
            over, kept, numbers = True, [], []
        elif text:
            kept.append(text)
            numbers.append(index)
    if over:
        yield first, ValueError(too_long), []
    elif kept:
        yield numbers[0], kept, numbers
