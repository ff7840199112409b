"""What a hand's file states, beside its record: every amount, with its line (:class:`Stated`).

A room's reader keeps apart what the text says of each ante, betting line, uncalled bet, pot and seat, so that
:func:`~studpoker.history.sites.check.check` can compare it with the replay and name the line that disagrees.

A hand states dozens of amounts and a tracker reads millions of hands, so :class:`StatedAmount` and
:class:`StatedAction` are small read-only values that cannot hold anything else: where the module is compiled
(mypyc), making one costs little more than a tuple, assigning to one raises ``AttributeError``, and the garbage
collector does not look at them (they hold only numbers and words: they can be in no reference cycle).

>>> StatedAmount(40, 12, player=1)
StatedAmount(amount=40, line=12, player=1, pot=None, all_in=None)
>>> StatedAction("raise", 14, to=80, by=40) == StatedAction("raise", 14, to=80, by=40)
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Final

from .._compile import mypyc_attr

__all__ = ["BET_KINDS", "Stated", "StatedAction", "StatedAmount"]

#: The betting verbs a reader tells the builder, and the engine's classes they must match when replayed.
BET_KINDS = ("bring-in", "complete", "bet", "raise", "call", "check", "fold")


@mypyc_attr(acyclic=True)
class _Value:
    """What the two values share: equality, hash, repr and pickling by their fields (``__match_args__``)."""

    __slots__ = ()
    __match_args__: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[object, ...]:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self) or not isinstance(other, _Value):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in zip(self.__match_args__, self._values(), strict=True))
        return f"{type(self).__name__}({fields})"

    def __reduce__(self) -> tuple[type[_Value], tuple[object, ...]]:
        return (type(self), self._values())


@mypyc_attr(acyclic=True)
class StatedAmount(_Value):
    """One amount a file states about a player (``player`` None: about the hand), and its line."""

    __slots__ = ("all_in", "amount", "line", "player", "pot")
    __match_args__: ClassVar[tuple[str, ...]] = ("amount", "line", "player", "pot", "all_in")

    def __init__(
        self, amount: int, line: int, player: int | None = None, pot: int | None = None, all_in: bool | None = None
    ) -> None:
        self.amount: Final = amount
        self.line: Final = line
        self.player: Final = player
        self.pot: Final = pot  # 0 the main pot, 1... side pots; None: not said
        self.all_in: Final = all_in  # an ante: whether the line says it puts the player all-in; None: not said

    def _values(self) -> tuple[object, ...]:
        return (self.amount, self.line, self.player, self.pot, self.all_in)


@mypyc_attr(acyclic=True)
class StatedAction(_Value):
    """What a betting line says, beside the record's :class:`~studpoker.history.model.Bet`: its verb (one of
    :data:`BET_KINDS`), the chips it puts in (``added``), the player's total for the round after it (``to``), what a
    raise adds to the bet he faced (``by``: PokerStars' ``raises X to Y`` says X) and whether it puts him all-in,
    each ``None`` where the line does not say."""

    __slots__ = ("added", "all_in", "by", "kind", "line", "to")
    __match_args__: ClassVar[tuple[str, ...]] = ("kind", "line", "added", "to", "all_in", "by")

    def __init__(
        self,
        kind: str,
        line: int,
        added: int | None = None,
        to: int | None = None,
        all_in: bool | None = None,
        by: int | None = None,
    ) -> None:
        self.kind: Final = kind
        self.line: Final = line
        self.added: Final = added
        self.to: Final = to
        self.all_in: Final = all_in
        self.by: Final = by

    def _values(self) -> tuple[object, ...]:
        return (self.kind, self.line, self.added, self.to, self.all_in, self.by)


@dataclass
class Stated:
    """Every amount a hand's text states, with its line, for :func:`~studpoker.history.sites.check.check`.

    ``actions`` runs beside the record's :class:`~studpoker.history.model.Bet` actions (one each, in order).
    ``collected``: what a player takes from a pot after the rake; ``won``: his total (summary); ``invested``: all he
    put in (antes included, uncalled chips returned taken off); ``net``: won less invested; ``stacks``: his stack
    after the hand. ``pots`` are after the rake when ``pots_after_rake``; ``total_pot`` is before it when
    ``total_includes_rake``.
    """

    room: str
    hand: str
    line: int
    antes: list[StatedAmount] = field(default_factory=list)
    actions: list[StatedAction] = field(default_factory=list)
    returned: list[StatedAmount] = field(default_factory=list)
    collected: list[StatedAmount] = field(default_factory=list)
    won: list[StatedAmount] = field(default_factory=list)
    invested: list[StatedAmount] = field(default_factory=list)
    net: list[StatedAmount] = field(default_factory=list)
    stacks: list[StatedAmount] = field(default_factory=list)
    pots: list[StatedAmount] = field(default_factory=list)
    total_pot: StatedAmount | None = None
    rake: StatedAmount | None = None
    pots_after_rake: bool = False
    total_includes_rake: bool = True
    # amount: the street a summary says he folded on; 0: the summary says he did not fold (he won, lost, mucked)
    folds: list[StatedAmount] = field(default_factory=list)
    returns_stated: bool = False  # the room writes every uncalled bet returned (a missing one is an error)
    odd_chip_low: bool = False  # the room gives a hi/lo split's odd chip to the low half (Winning), not the high
    rake_from_main: bool = False  # the room takes the whole rake from the main pot (Full Tilt), not from each pot
    rake_implied: bool = False  # the file does not state the rake: it is the total pot less what the players take
    pot_rakes: list[StatedAmount] = field(default_factory=list)  # the rake each pot pays, where the file says it
    bets_open: bool = False  # the room writes "bet" only with nothing to call and "raise" only over a bet or bring-in
    # Lines a room derives from the betting and writes wherever they apply (PokerStars), so that a missing one is an
    # error too: "Betting is capped" (amount: the betting action after which), "Pair on board - a double bet is
    # allowed" (amount: the street) and "No low hand qualified" (one a pot without a low).
    states_derived: bool = False
    capped: list[StatedAmount] = field(default_factory=list)
    open_pair: list[StatedAmount] = field(default_factory=list)
    no_low: list[StatedAmount] = field(default_factory=list)
