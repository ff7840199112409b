"""The dealer's console (issue 33): the pure core a house dealer's tablet runs at a physical stud table.

The dealer enters what happens at the table (buy-ins, top-ups, players leaving, each card dealt, each action) and
the console keeps the table's books and the rules: what is needed next, what the dealer says, who is pushed what at
the end of a hand, and a journal of every entry from which the whole session can be rebuilt.

* :mod:`~studpoker.console.sign`: :class:`Sign`, what the table's sign says, and :class:`ConsoleError`.
* :mod:`~studpoker.console.session`: :class:`DealerSession`, the table session as the dealer runs it.
* :mod:`~studpoker.console.journal`: the entries, and the journal file (JSON lines, one fsync'd line an entry).
* :mod:`~studpoker.console.records`: what the session hands back (:class:`Needed`, :class:`Step`, :class:`Push`,
  :class:`Report`).
* :mod:`~studpoker.console.irregularities`: the irregularities the dealer reports, and :class:`Ruling`.
* :mod:`~studpoker.console.rulings`: the console's rulings on them, which the session applies.
"""

from .irregularities import CASES, Ruling
from .journal import Entry, JournalError, append, load, save
from .session import DealerSession, Needed, PlayerResult, Push, Report, Step
from .sign import ConsoleError, Sign

__all__ = [
    "CASES",
    "ConsoleError",
    "DealerSession",
    "Entry",
    "JournalError",
    "Needed",
    "PlayerResult",
    "Push",
    "Report",
    "Ruling",
    "Sign",
    "Step",
    "append",
    "load",
    "save",
]
