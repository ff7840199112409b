"""The irregularities a live stud dealer reports, and their rulings (SPEC section 13, issue 33).

The dealer reports what went wrong with :meth:`DealerSession.irregularity
<studpoker.console.session.DealerSession.irregularity>`; the console checks that the report fits the hand, rules on
it, applies the ruling, and journals it as an ``irregularity`` entry (so :meth:`~studpoker.console.DealerSession.undo`
and :meth:`~studpoker.console.DealerSession.from_journal` keep working). A report that does not fit is refused with
the reason, and the session is exactly as it was. This module holds the cases, their rule citations and the
:class:`Ruling` record; the session applies them.

>>> sorted(CASES)[:3]
['absent player', 'correct bring-in', 'dead hand']
>>> CASES["premature card"].rule
"SPEC R13.3; TDA RP-5D; Robert's Rules of Poker, irregularities (premature cards)"
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CASES", "FACE_UP_RULE", "Case", "Ruling"]

#: What a ruling on a last card exposed cites under the sign's house option ``seventh_card="face up"``: the practice
#: the TDA's forum and card rooms describe. No rulebook's text was found for it: cited without a number
#: (docs/console.md).
FACE_UP_RULE = (
    "house rule (the sign's seventh_card 'face up'): Robert's Rules of Poker, seven-card stud irregularities, and TDA"
    " practice (cited without a number: no rule text was found; see docs/console.md)"
)


@dataclass(frozen=True, slots=True)
class Case:
    """One kind of irregularity: its name (the journal's ``case``), whether it names a seat and a card, and the
    rules cited for its ruling."""

    name: str
    seat: bool
    card: bool
    rule: str


@dataclass(frozen=True, slots=True)
class Ruling:
    """The console's ruling on a reported irregularity: ``what`` happened, the ``ruling`` in words, the ``rule``
    cited, and ``next``, what the dealer does now (as the console will ask for it)."""

    case: str
    what: str
    ruling: str
    rule: str
    next: str

    def __str__(self) -> str:
        return f"{self.what}: {self.ruling} ({self.rule}). Next: {self.next}"


#: Every case the dealer can report, by name.
CASES: dict[str, Case] = {
    case.name: case
    for case in (
        # One hole card turned up by the dealer on the first street: it plays as the up card (R13.1).
        Case(
            "exposed hole card",
            True,
            True,
            "SPEC R13.1; Robert's Rules of Poker, seven-card stud rule 5; TDA RP-10A",
        ),
        # Two or more hole cards turned up on the first street: a misdeal while it can still be called (R13.1, R13.4).
        Case("exposed hole cards", False, False, "SPEC R13.1, R13.4; Robert's Rules of Poker, misdeals rule 1"),
        # Any other misdeal (wrong number of cards, a seat dealt out...): all cards back, antes stay, redeal (R13.4).
        Case("misdeal", False, False, "SPEC R13.4; Robert's Rules of Poker, misdeals rule 1; WSOP live action 105"),
        # The dealer told the wrong player to bring in, and he posted it (R13.2).
        Case("wrong bring-in", True, False, "SPEC R13.2; Robert's Rules of Poker, seven-card stud rule 9"),
        # The wrong bring-in taken back, the next player not having acted (R13.2).
        Case("correct bring-in", False, False, "SPEC R13.2; Robert's Rules of Poker, seven-card stud rule 9"),
        # A card dealt before the betting round was over (R13.3).
        Case(
            "premature card",
            False,
            True,
            "SPEC R13.3; TDA RP-5D; Robert's Rules of Poker, irregularities (premature cards)",
        ),
        # A player not at his seat: his hand is dead (his ante, and a bring-in he was dealt, stay in the pot).
        Case(
            "absent player",
            True,
            False,
            "TDA rules, at your seat (a player must be at his seat by the last card of the initial deal)",
        ),
        # A hand with the wrong number of cards: dead (Robert's Rules, dead hands rule 1(d)).
        Case("dead hand", True, False, "Robert's Rules of Poker, dead hands rule 1 (the proper number of cards)"),
        # The same found at the showdown: the dead hand cannot win, the best live hand takes the pot.
        Case(
            "dead hand at showdown",
            True,
            False,
            "Robert's Rules of Poker, dead hands rule 1 (the proper number of cards) and showdown rule 1 (all the"
            " cards shown to win)",
        ),
        # The last (7th-street) card, to be dealt down, turned face up by the dealer: replaced while betting remains
        # (R13.3), else it plays. The sign's house option seventh_card="face up" rules by the room practice instead,
        # cited as FACE_UP_RULE.
        Case("seventh card exposed", True, True, "SPEC R13.3; TDA RP-10B"),
    )
}
