"""Finishing places: who finished where, players out in the same hand ordered by the chips they started it with.

As [TDA] rules for players out in the same hand: the one who started that hand with more chips finishes higher;
with the same starting stack they tie and share the places (and their prizes). Places are counted from the bottom:
the first entry out of a field of *N* finishes *N*-th, so a place is final once registration has closed.

>>> outs = [Bust("Ann", 1, 300), Bust("Bob", 1, 500), Bust("Cid", 1, 300)]     # one hand, three players out
>>> [(f.player, f.place, f.tied) for f in finishing_places([outs], entries=5)]
[('Bob', 3, 1), ('Ann', 4, 2), ('Cid', 4, 2)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Bust", "Finish", "finishing_places"]


@dataclass(frozen=True, slots=True)
class Bust:
    """An entry out of the tournament: the player, his entry number (1, or more after re-entries) and the chips
    he started the hand he lost with."""

    player: str
    entry: int
    starting_stack: int


@dataclass(frozen=True, slots=True)
class Finish:
    """An entry's finishing place. ``tied`` players share places ``place`` to ``place + tied - 1`` (1: no tie)."""

    player: str
    entry: int
    place: int
    tied: int = 1

    @property
    def places(self) -> range:
        """The places this finish covers (one, or the shared ones)."""
        return range(self.place, self.place + self.tied)


def finishing_places(
    busts: Sequence[Sequence[Bust]], entries: int, winner: tuple[str, int] | None = None
) -> list[Finish]:
    """The places of every entry out, from ``busts`` (one group per hand, in the order the hands ended) in a
    field of ``entries``; ``winner`` (player, entry) adds the first place. Best place first.

    Within a group the larger starting stack finishes higher; equal stacks tie (listed in order of the group,
    which the tournament keeps in order of entry).
    """
    finishes: list[Finish] = []
    below = entries  # the worst place not yet given
    for group in busts:
        ordered = sorted(group, key=lambda b: -b.starting_stack)  # stable: ties keep the group's order
        top = below - len(ordered) + 1
        i = 0
        while i < len(ordered):
            same = [b for b in ordered[i:] if b.starting_stack == ordered[i].starting_stack]
            for bust in same:
                finishes.append(Finish(bust.player, bust.entry, top + i, len(same)))
            i += len(same)
        below -= len(ordered)
    if winner is not None:
        finishes.append(Finish(winner[0], winner[1], 1))
    finishes.sort(key=lambda f: f.place)
    return finishes
