"""One check of a replayed hand against everything its history states, whatever the format it was read from.

:func:`check` compares a :class:`~studpoker.history.HandRecord` with its replay: the finishing stacks and winnings
any record may state (PHH's ``finishing_stacks`` and ``winnings``), and, for a hand read from a room's file, every
amount that file states (:func:`studpoker.history.sites.check`, the same for every room). :func:`verify` replays
the record and checks it; :func:`after_rake` gives the winnings and stacks once a room's rake is taken, as a
summary reports them. ``stud replay`` only prints what these say.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import HandRecord
from .replay import ReplayResult, replay
from .sites.check import check as check_stated
from .sites.check import notes as stated_notes

__all__ = ["MismatchError", "Problem", "after_rake", "check", "notes", "verify", "won"]


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing a hand's history states that its replay contradicts, and the line of the file that states it
    (``None``: the record does not know its lines)."""

    line: int | None
    text: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.text}" if self.line else self.text


class MismatchError(ValueError):
    """A hand whose history states what its replay contradicts: ``problems`` lists each disagreement."""

    def __init__(self, label: str, problems: list[Problem]) -> None:
        self.label, self.problems = label, problems
        super().__init__(f"{label} does not match its history: " + "; ".join(str(p) for p in problems))


def won(result: ReplayResult, n: int) -> list[int]:
    """What each of the ``n`` players won in the replay, before any rake."""
    out = [0] * n
    for award in result.state.awards:
        out[award.player] += award.amount
    return out


def after_rake(record: HandRecord, result: ReplayResult) -> tuple[list[int], list[int]]:
    """Each player's winnings and stack once the room has taken its rake: the engine pays whole pots, so with a rake
    the record's winnings (after it) say who paid how much of it."""
    gross, stacks = won(result, record.n), list(result.state.stacks)
    if record.rake and record.winnings is not None and len(record.winnings) == record.n:
        for p in range(record.n):
            stacks[p] -= gross[p] - record.winnings[p]
        return list(record.winnings), stacks
    return gross, stacks


def check(record: HandRecord, result: ReplayResult) -> list[Problem]:
    """What ``record`` states that ``result`` (its replay) contradicts, in the file's order where lines are known;
    empty when nothing does."""
    problems: list[Problem] = []
    state = result.state
    _, stacks = after_rake(record, result)
    read_from_a_room = "stated" in record.info
    # a room's final stacks are checked with their lines below, with everything else its file states
    if record.finishing_stacks is not None and "stated" not in record.info and tuple(stacks) != record.finishing_stacks:
        problems.append(
            Problem(
                None,
                f"finishing stacks differ: the file says {list(record.finishing_stacks)}, the replay gives {stacks}",
            )
        )
    if record.winnings is not None and state.is_over and not read_from_a_room:
        gross = won(result, record.n)
        if len(record.winnings) != record.n:
            problems.append(Problem(None, f"winnings has {len(record.winnings)} entries for {record.n} players"))
        elif record.rake:
            taken = [g - w for g, w in zip(gross, record.winnings, strict=True)]
            if sum(taken) != record.rake or min(taken) < 0:
                problems.append(
                    Problem(
                        None,
                        f"winnings differ: the file says {list(record.winnings)} after a rake of {record.rake},"
                        f" the replay pays {gross} before it",
                    )
                )
        elif list(record.winnings) != gross:
            problems.append(
                Problem(None, f"winnings differ: the file says {list(record.winnings)}, the replay gives {gross}")
            )
    if read_from_a_room:
        problems += [Problem(line, text) for line, text in check_stated(record, result)]
    return problems


def notes(record: HandRecord) -> list[str]:
    """What the reading of the history adds to its replay's notes (a room's rake it does not state, implied)."""
    return stated_notes(record)


def verify(record: HandRecord, label: str = "") -> ReplayResult:
    """Replay ``record`` and :func:`check` it: :class:`~studpoker.history.ReplayError` for a broken rule,
    :class:`MismatchError` listing every disagreement with its history."""
    label = label or "the hand"
    result = replay(record, label)
    problems = check(record, result)
    if problems:
        raise MismatchError(label, problems)
    result.notes.extend(notes(record))
    return result
