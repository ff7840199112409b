"""Showing and mucking at the card room's tables, where the rules let a player choose (R9.3, R9.4).

The room's hands are dealt with ``auto_show=False``: at a showdown without an all-in, each live hand in turn is
shown or mucked. The room decides for the player whenever there is nothing to choose, as the online rooms do:

* a hand that can still win something against the hands shown so far (the first to show always can) is shown:
  cards speak (R9.1), and nobody gives up a pot by a slip of the finger;
* a bot mucks a hand that cannot win.

Only a person whose hand cannot win is asked (``your_turn`` with ``show`` and ``muck``); his clock runs out to a
muck, and the page's auto-muck preference answers at once. With an all-in every hand is turned up (R9.2).

After a hand won without a showdown, its winner may show his cards to the table until the next deal
(:class:`UncalledShow`): the room tells everyone, and the hand's history shows them from then on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from ..cards import Card
from ..engine import Action, HandState, Phase
from ..engine.events import Awarded, Shown
from . import wire

if TYPE_CHECKING:
    from ..table import Table
    from .books import Books
    from .connection import Connection
    from .viewers import Viewers

__all__ = ["ShowingTable", "UncalledShow", "automatic_choice", "show_uncalled", "uncalled_winner"]


def automatic_choice(state: HandState, bot: bool) -> Action | None:
    """The showdown decision the room makes for the player to act, or ``None`` when he must be asked: show a hand
    that can win a share against the hands shown so far, muck a bot's that cannot."""
    player = state.actor
    if state.phase is not Phase.SHOWDOWN or player is None:
        return None
    if state.can_win(player):
        return Action.show()
    return Action.muck() if bot else None


@dataclass(frozen=True, slots=True)
class UncalledShow:
    """The winner of a hand nobody called may show it (until the next deal): his seat, his cards in dealing
    order (down cards, then up cards, as a ``showdown`` message has them), and how many are down."""

    hand: int
    seat: int
    account_id: int
    player: int
    cards: tuple[Card, ...]
    down: int


def uncalled_winner(
    state: HandState, seats: tuple[int, ...], number: int, accounts: dict[int, int | None]
) -> UncalledShow | None:
    """The player who won hand ``number`` without a showdown and may show it, if a person won it."""
    if any(isinstance(e, Shown) for e in state.events):
        return None
    winners = {e.player for e in state.events if isinstance(e, Awarded)}
    if len(winners) != 1:
        return None
    player = winners.pop()
    account = accounts.get(seats[player])
    if account is None:
        return None
    mine = state.view(player).players[player]
    down = tuple(c for c in mine.down if c is not None)
    up = tuple(c for c in mine.up if c is not None)
    return UncalledShow(number, seats[player], account, player, down + up, len(down))


class ShowingTable(Protocol):
    """What :func:`show_uncalled` uses of a table's actor."""

    uncalled: UncalledShow | None
    books: Books
    viewers: Viewers
    table: Table


async def show_uncalled(actor: ShowingTable, connection: Connection, hand: int) -> None:
    """A connection's ``show`` (a job on the actor): the winner of a hand nobody called shows it to the table (until
    the next deal; once), and the history shows it from then on. Refusals go back to the connection as ``error``."""
    shown = actor.uncalled
    if shown is None or hand != shown.hand:
        problem = ("stale", f"hand {hand} cannot be shown now: only the last hand, won without a showdown")
    elif connection.account_id != shown.account_id:
        problem = ("not_allowed", "only the player who won the hand uncalled may show it")
    else:
        problem = None
    if problem is not None:
        connection.push(wire.encode(wire.error(*problem, hand=hand)))
        return
    assert shown is not None
    actor.uncalled = None
    await actor.books.mark_shown(hand, shown.player)
    actor.viewers.broadcast(
        wire.uncalled_show_message(shown.hand, shown.seat, shown.cards, shown.down, actor.table.rules)
    )
