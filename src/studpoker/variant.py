"""The four games and every name studpoker accepts for them: one vocabulary for the library, the command line,
PHH, the rooms' hand histories, the card room and the RL environments.

>>> Variant.parse("7stud8") is Variant.parse("STUD7_HL8") is Variant.parse("F7S/8") is Variant.STUD7_HL8
True
>>> Variant.parse("Seven-card stud hi/lo"), Variant.parse("stud7"), Variant.parse(" 7 Card Stud ")
(<Variant.STUD7_HL8: 'STUD7_HL8'>, <Variant.STUD7: 'STUD7'>, <Variant.STUD7: 'STUD7'>)
>>> [(v.short_name, v.phh_code, v.title) for v in (Variant.RAZZ, Variant.STUD5)]
[('razz', 'FR', 'Razz'), ('5stud', 'F5S', 'Five-card stud')]
>>> Variant.parse("holdem")
Traceback (most recent call last):
    ...
ValueError: unknown game 'holdem': use 7stud, 7stud8, 5stud or razz (or a name such as STUD7_HL8, F7S or Razz)

This module imports nothing, so a command-line parser can check a ``--variant`` without loading the engine.
"""

from __future__ import annotations

from enum import Enum

__all__ = ["MAX_NAME", "Variant"]

#: Longer text is no game's name (a bound for what a network client may send).
MAX_NAME = 64


class Variant(Enum):
    """The four games (SPEC: STUD7, STUD7_HL8, STUD5, and razz, R12a). The value is the engine's name."""

    STUD7 = "STUD7"
    STUD7_HL8 = "STUD7_HL8"
    STUD5 = "STUD5"
    RAZZ = "RAZZ"

    @classmethod
    def parse(cls, name: Variant | str) -> Variant:
        """The game any accepted spelling names, in any case, with spaces, ``-``, ``_`` and ``/`` ignored: the
        short name (``7stud``), the engine's (``STUD7_HL8``, ``stud7_hl8``), the PHH code (``F7S/8``), the title
        (``Seven-card stud hi/lo``), or a room's name for it (``7 Card Stud Hi/Lo``); else a ``ValueError``."""
        if isinstance(name, Variant):
            return name
        if isinstance(name, str) and len(name) <= MAX_NAME:
            found = _SPELLINGS.get(_key(name))
            if found is not None:
                return found
        shown = repr(name) if not isinstance(name, str) or len(name) <= MAX_NAME else f"{name[:MAX_NAME]!r}..."
        short = [v.short_name for v in cls]
        raise ValueError(
            f"unknown game {shown}: use {', '.join(short[:-1])} or {short[-1]}"
            " (or a name such as STUD7_HL8, F7S or Razz)"
        )

    @classmethod
    def spellings(cls) -> dict[str, Variant]:
        """Every spelling :meth:`parse` knows, as written (it also takes them in any case and spacing)."""
        return {text: variant for variant, texts in _NAMES.items() for text in texts}

    @property
    def short_name(self) -> str:
        """The command line's name: ``7stud``, ``7stud8``, ``razz`` or ``5stud``."""
        return _NAMES[self][0]

    @property
    def phh_code(self) -> str:
        """The game's code in PHH (Poker Hand History): ``F7S``, ``F7S/8``, ``FR`` or ``F5S``."""
        return _NAMES[self][1]

    @property
    def title(self) -> str:
        """The game's name as players say it: ``"Seven-card stud"``, ``"Seven-card stud hi/lo"``,
        ``"Five-card stud"``, ``"Razz"`` (messages use it, not the code)."""
        return _NAMES[self][2]

    @property
    def cards(self) -> int:
        """Cards each player ends with: 7, or 5 in five-card stud."""
        return 5 if self is Variant.STUD5 else 7

    @property
    def max_seats(self) -> int:
        """The hard upper bound on players (R3.1)."""
        return 10 if self is Variant.STUD5 else 8

    @property
    def low(self) -> bool:
        """Razz: the low hand wins, the highest door brings in, the lowest board acts first."""
        return self is Variant.RAZZ


#: Each game's names: the short name, the PHH code and the title first (the properties read them), then the other
#: spellings people and rooms use (every room's name for the game that its hand histories print, as the readers of
#: studpoker.history take them: a test checks that each reader's names are here). The engine's name is accepted too.
_NAMES: dict[Variant, tuple[str, ...]] = {
    Variant.STUD7: (
        "7stud",
        "F7S",
        "Seven-card stud",
        "7-card stud",
        "Stud",
        "Stud hi",
        "7 card stud hi",
        "Seven cards stud",
        "7CARD",
    ),
    Variant.STUD7_HL8: (
        "7stud8",
        "F7S/8",
        "Seven-card stud hi/lo",
        "7-card stud hi/lo",
        "Seven-card stud hi/lo eight-or-better",
        "Seven-card stud eight-or-better",
        "7stud hi/lo",
        "Stud hi/lo",
        "Stud h/l",
        "Stud8",
        "Stud/8",
        "7-stud h/l8",
        "7-stud h/l",
        "Seven card hi/lo",
        "Seven cards stud hilow",
        "7CARD HI/LO",
    ),
    Variant.STUD5: ("5stud", "F5S", "Five-card stud", "5-card stud", "Five cards stud"),
    Variant.RAZZ: ("razz", "FR", "Razz", "7 card razz", "Seven-card razz"),
}


def _key(text: str) -> str:
    """A spelling as :meth:`Variant.parse` compares it: lower case, without spaces, ``-``, ``_`` or ``/``."""
    return "".join(c for c in text.casefold() if c not in " \t-_/")


def _spellings() -> dict[str, Variant]:
    """Each spelling's key and its game; a key shared by two games would be a mistake in :data:`_NAMES`."""
    found: dict[str, Variant] = {}
    for variant, texts in _NAMES.items():
        for text in (variant.value, *texts):
            if found.setdefault(_key(text), variant) is not variant:
                raise AssertionError(f"{text!r} names two games")
    return found


_SPELLINGS = _spellings()
