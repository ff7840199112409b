"""A hand as a text table (the environments' ``ansi`` and ``human`` render modes, OpenSpiel's ``str(state)``).

Drawn from a view, so it shows what that viewer may see (a spectator: every up card and shown hands only).

>>> from studpoker.engine import HandState, Rules, Variant
>>> hand = HandState(Rules(Variant.RAZZ, ante=1, bring_in=3, small_bet=10, big_bet=20), [200, 200], seed=4)
>>> print(table_text(hand.view(None), ["player_0", "player_1"]))
Razz, 3rd street, pot 2, to act: player_1
seat       stack   bet  total  cards
player_0     199     0      1  ?? ?? 7h
player_1 >   199     0      1  ?? ?? Ts
legal: bring in 3, complete to 10
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import Phase, View
from .encoding import card_text

__all__ = ["table_text"]


def table_text(view: View, names: Sequence[str]) -> str:
    """One line per seat (stack, bet this round, total this hand, down cards then up cards), the pot, who acts
    and what he may do; folded seats are marked ``folded``, all-in ones ``all-in``."""
    street = f"{view.street}th" if view.street > 3 else {2: "2nd", 3: "3rd"}.get(view.street, str(view.street))
    actor = names[view.actor] if view.actor is not None else ("nobody (over)" if view.phase is Phase.OVER else "-")
    head = f"{view.variant.title}, {street} street, pot {view.pot}, to act: {actor}"
    if view.community is not None:
        head += f", community card {view.community}"
    width = max(len(name) for name in names)
    lines = [head, f"{'seat':<{width}}   {'stack':>5} {'bet':>5} {'total':>6}  cards"]
    for p, player in enumerate(view.players):
        mark = ">" if view.actor == p else " "
        cards = " ".join(card_text(c) for c in (*player.down, *player.up))
        status = "  folded" if player.folded else ("  all-in" if player.all_in else "")
        lines.append(
            f"{names[p]:<{width}} {mark} {player.stack:>5} {player.bet:>5} {player.total:>6}  {cards}{status}".rstrip()
        )
    if view.legal_actions:
        lines.append("legal: " + ", ".join(str(a) for a in view.legal_actions))
    return "\n".join(lines)
