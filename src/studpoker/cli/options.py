"""Argument types shared by the ``stud`` commands, checked by argparse while it parses (``type=``).

One rule for a seed, in every command that takes one: a whole number from 0 to 2**63-1 (``7``, ``1_000``,
``1,000`` and ``1e6`` are whole numbers too).

>>> seed("7"), seed("1_000"), seed("1e6"), seed(str(2**63 - 1)) == MAX_SEED
(7, 1000, 1000000, True)
>>> seed("-1")
Traceback (most recent call last):
argparse.ArgumentTypeError: --seed must be at least 0 (a whole number from 0 to 2**63-1), got '-1'

argparse reports such a mistake as ``argument --seed: --seed must be ...`` under a usage line;
:func:`one_line_errors` makes a command say it on one line instead, as every other ``stud`` error is said:
``stud play: error: --seed must be at least 0 (...)``.
"""

from __future__ import annotations

import argparse
from decimal import Decimal, InvalidOperation
from typing import NoReturn

from ..variant import Variant

__all__ = ["MAX_SEED", "UsageError", "WholeNumber", "one_line_errors", "seed", "variant"]


class UsageError(ValueError):
    """A command-line option that cannot be used (exit status 2)."""


#: The largest seed: 2**63-1, the largest signed 64-bit integer.
MAX_SEED = 2**63 - 1


class WholeNumber:
    """An argparse ``type=``: the option's text as a whole number from ``least`` to ``most``, or an
    :class:`argparse.ArgumentTypeError` whose message starts with the option's name (``--seed must be ...``)."""

    def __init__(self, option: str, least: int, most: int, most_text: str | None = None) -> None:
        self.option, self.least, self.most = option, least, most
        self.most_text = most_text or str(most)
        self.__name__ = f"whole number from {least} to {self.most_text}"  # argparse names a type by __name__

    @property
    def rule(self) -> str:
        return f"a whole number from {self.least} to {self.most_text}"

    def __call__(self, text: str) -> int:
        cleaned = text.strip().replace("_", "").replace(",", "")
        try:
            number = Decimal(cleaned)
        except InvalidOperation:
            number = Decimal("NaN")
        if not number.is_finite() or number != number.to_integral_value():
            raise argparse.ArgumentTypeError(f"{self.option} takes {self.rule}, got {text!r}")
        if number < self.least:
            raise argparse.ArgumentTypeError(f"{self.option} must be at least {self.least} ({self.rule}), got {text!r}")
        if number > self.most:  # compared before int(): 1e999999 is refused without being written out
            most = self.most_text if self.most_text == str(self.most) else f"{self.most_text} = {self.most}"
            raise argparse.ArgumentTypeError(f"{self.option} must be at most {most}, got {text!r}")
        return int(number)


#: The help of every ``--variant``.
VARIANT_HELP = "the game: 7stud, 7stud8, 5stud or razz, or any of its names such as STUD7_HL8 or Razz (default: 7stud)"

#: ``--seed S``: a whole number from 0 to 2**63-1.
seed = WholeNumber("--seed", 0, MAX_SEED, "2**63-1")


def variant(text: str) -> str:
    """``--variant GAME``: any name of a game (:meth:`studpoker.variant.Variant.parse`: ``razz``, ``STUD7_HL8``,
    ``F7S``, ``"Seven-card stud"``), given on as its short name (``7stud``, ``7stud8``, ``5stud``, ``razz``)."""
    try:
        return Variant.parse(text).short_name
    except ValueError as error:
        names = str(error).partition(": ")[2]
        raise argparse.ArgumentTypeError(f"--variant must name a game, got {text!r}: {names}") from None


variant.__name__ = "game"  # argparse names a type by __name__


def one_line_errors(parser: argparse.ArgumentParser) -> None:
    """Make ``parser`` report a mistake caught by a type of this module (its message starts with the option's
    name) on one line, ``PROG: error: MESSAGE`` with exit status 2, without argparse's usage line and without
    naming the option twice. argparse's own messages (an unknown option, an invalid choice) are left as they are.
    """
    usual = parser.error

    def error(message: str) -> NoReturn:
        head, sep, rest = message.partition(": ")
        option = head.removeprefix("argument ")
        if sep and head.startswith("argument ") and rest.startswith(f"{option.split('/')[0]} "):
            parser.exit(2, f"{parser.prog}: error: {rest}\n")
        usual(message)

    parser.error = error  # type: ignore[method-assign]
