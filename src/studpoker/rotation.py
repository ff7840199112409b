"""Mixed games: a table that deals several stud games in turn (Triple Stud, or any list of the four games).

A :class:`Rotation` is the plan: the games in order, each with its own stakes and options, and how long each lasts:
``every`` hands (8 by default, as mixed-game cash tables change), or an orbit (``every=0``). Stud has no button, so
an orbit is counted in hands: as many hands as players were dealt the game's first hand. A :class:`Turn` is where a
table stands in the plan. The :class:`~studpoker.table.Table` moves it on as it deals; both are pure values.

>>> rotation = Rotation.triple_stud(10, every=2)
>>> rotation.name, [g.variant.short_name for g in rotation.games]
('Triple Stud', ['7stud', 'razz', '7stud8'])
>>> turn = rotation.start
>>> games = []
>>> for hand in range(7):
...     turn = rotation.deal(turn, players=6)
...     games.append(rotation.game(turn).variant.short_name)
>>> games
['7stud', '7stud', 'razz', 'razz', '7stud8', '7stud8', '7stud']
>>> rotation.left(turn), rotation.game(rotation.upcoming(turn)).variant.title
(1, 'Seven-card stud')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .engine import Rules, RulesError
from .variant import Variant

__all__ = ["MAX_GAMES", "MAX_HANDS_PER_GAME", "Rotation", "RotationError", "Turn"]

#: The most games a rotation lists, and the most hands one game may last (bounds for what a client may ask).
MAX_GAMES, MAX_HANDS_PER_GAME = 8, 100


class RotationError(RulesError):
    """A rotation that cannot be played (too few games, games whose tables differ...): the message says why."""


@dataclass(frozen=True, slots=True)
class Turn:
    """Where a table stands in its rotation: the game ``index`` (into :attr:`Rotation.games`), the hands of it dealt
    since it began (``dealt``) and the hands it lasts this time (``length``; an orbit's is fixed at its first hand)."""

    index: int = 0
    dealt: int = 0
    length: int = 0

    def to_json(self) -> dict[str, int]:
        return {"index": self.index, "dealt": self.dealt, "length": self.length}


@dataclass(frozen=True, slots=True)
class Rotation:
    """The games a mixed table deals in turn, each ``every`` hands (``0``: an orbit), under a ``name`` for the sign.

    Every game keeps its own stakes and options (a razz hand is brought in by the highest card, a stud/8 hand splits
    the pot). The games must share the chip unit, so a stack is made of the same chips whatever is dealt.
    """

    games: tuple[Rules, ...]
    every: int = 8
    name: str = ""

    def __post_init__(self) -> None:
        games = tuple(self.games)
        object.__setattr__(self, "games", games)
        if not 2 <= len(games) <= MAX_GAMES:
            raise RotationError(f"a rotation deals 2 to {MAX_GAMES} games, got {len(games)}")
        for i, game in enumerate(games):
            if not isinstance(game, Rules):
                raise RotationError(f"game {i + 1} of the rotation is a {type(game).__name__}, not Rules")
        if type(self.every) is not int or not 0 <= self.every <= MAX_HANDS_PER_GAME:
            raise RotationError(
                f"every must be 1 to {MAX_HANDS_PER_GAME} hands a game, or 0 for an orbit; got {self.every!r}"
            )
        units = {g.chip_unit for g in games}
        if len(units) > 1:
            raise RotationError(f"the games of a rotation share one chip unit; these have {sorted(units)}")
        if not isinstance(self.name, str):
            raise RotationError("a rotation's name is text")
        object.__setattr__(self, "name", self.name.strip() or self.default_name(games))

    @staticmethod
    def default_name(games: Iterable[Rules]) -> str:
        """The sign of a list of games: ``Triple Stud`` for stud, razz and stud/8 (in any order), else the titles."""
        variants = [g.variant for g in games]
        if sorted(v.value for v in variants) == sorted(v.value for v in TRIPLE_STUD) and len(variants) == 3:
            return "Triple Stud"
        return " / ".join(v.title for v in variants)

    @classmethod
    def triple_stud(
        cls,
        small_bet: int,
        big_bet: int | None = None,
        ante: int | None = None,
        bring_in: int | None = None,
        *,
        preset: str = "casino",
        every: int = 8,
        **options: Any,
    ) -> Rotation:
        """Triple Stud: seven-card stud, razz and stud hi/lo in turn, at the same stakes (defaults as the card room
        sets them: a big bet of two small bets, an ante of a tenth, a bring-in of a third)."""
        return cls.of(TRIPLE_STUD, small_bet, big_bet, ante, bring_in, preset=preset, every=every, **options)

    @classmethod
    def of(
        cls,
        variants: Iterable[Variant | str],
        small_bet: int,
        big_bet: int | None = None,
        ante: int | None = None,
        bring_in: int | None = None,
        *,
        preset: str = "casino",
        every: int = 8,
        name: str = "",
        **options: Any,
    ) -> Rotation:
        """Any list of the four games at the same stakes under one preset."""
        big = 2 * small_bet if big_bet is None else big_bet
        ante = max(1, small_bet // 10) if ante is None else ante
        bring_in = min(small_bet, max(2 * ante, small_bet // 3)) if bring_in is None else bring_in
        games = tuple(Rules.from_preset(preset, v, ante, bring_in, small_bet, big, **options) for v in variants)
        return cls(games, every, name)

    # -- the plan -----------------------------------------------------------------------------------------

    @property
    def max_seats(self) -> int:
        """The seats of the table: those of the game with the fewest (a five-card stud table seats ten, the others
        eight)."""
        return min(g.max_seats or Variant.STUD7.max_seats for g in self.games)

    @property
    def min_buy_in(self) -> int:
        """The least a player brings: the biggest of the games' minimums (he must be able to play each)."""
        return max(g.min_buy_in or 0 for g in self.games)

    @property
    def max_buy_in(self) -> int | None:
        """The most: the biggest of the games' maximums (``None`` if a game has none)."""
        highs = [g.max_buy_in for g in self.games]
        return None if any(h is None for h in highs) else max(h for h in highs if h is not None)

    @property
    def chip_unit(self) -> int:
        return self.games[0].chip_unit

    @property
    def start(self) -> Turn:
        """The turn before the first hand: the first game, not yet begun."""
        return Turn(0, 0, 0)

    def game(self, turn: Turn) -> Rules:
        """The rules of the game ``turn`` is in."""
        return self.games[turn.index]

    def upcoming(self, turn: Turn) -> Turn:
        """The turn of the next hand's game, before it is dealt: this game if it has hands left, else the next one
        (not begun: its length is set when it deals)."""
        if turn.length == 0 or turn.dealt < turn.length:
            return turn
        return Turn((turn.index + 1) % len(self.games), 0, 0)

    def following(self, turn: Turn) -> Rules:
        """The game after the one the next hand deals (what the sign shows as *next*)."""
        return self.games[(self.upcoming(turn).index + 1) % len(self.games)]

    def deal(self, turn: Turn, players: int) -> Turn:
        """The turn after one more hand is dealt to ``players`` players (an orbit's length is the players of its
        first hand)."""
        current = self.upcoming(turn)
        length = current.length or (self.every or max(2, players))
        return Turn(current.index, current.dealt + 1, length)

    def left(self, turn: Turn) -> int | None:
        """The hands the game ``turn`` is in has left after it (``None``: an orbit not yet begun)."""
        current = self.upcoming(turn)
        if current.length == 0:
            return self.every or None
        return current.length - current.dealt

    def standing(self, turn: Turn, *, in_hand: bool = False) -> tuple[int, int, int | None]:
        """What a mixed table's sign says: the game now (the hand in play's if ``in_hand``, else the next hand's), the
        game after it (indexes into :attr:`games`), and the hands of the game now still to be dealt (``None``: an
        orbit not yet begun, whose length its first hand sets).

        >>> rotation = Rotation.triple_stud(10, every=8)
        >>> turn = rotation.deal(rotation.start, players=5)
        >>> rotation.standing(turn, in_hand=True), rotation.standing(turn)
        ((0, 1, 7), (0, 1, 7))
        """
        current = turn if in_hand else self.upcoming(turn)
        left = current.length - current.dealt if current.length else (self.every or None)
        return current.index, (current.index + 1) % len(self.games), left

    def check_turn(self, turn: Turn) -> Turn:
        """``turn`` if it can be a turn of this rotation, else :class:`RotationError` (a saved turn read back)."""
        if not isinstance(turn, Turn) or not 0 <= turn.index < len(self.games):
            raise RotationError(f"turn {turn!r} names no game of this rotation of {len(self.games)}")
        top = self.every or self.max_seats
        if not (0 <= turn.dealt <= turn.length <= top and (turn.length > 0 or turn.dealt == 0)):
            raise RotationError(f"turn {turn!r} is not a count of hands this rotation deals")
        return turn

    # -- as data ------------------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The games (each its preset, variant, stakes and the options that differ from the preset, by name),
        ``every`` and ``name``: JSON- and TOML-ready (no ``null``), what :meth:`from_json` reads back."""
        return {"name": self.name, "every": self.every, "games": [_game_json(g) for g in self.games]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Rotation:
        """A rotation from :meth:`to_json`'s data; :class:`RotationError` says what is wrong with it."""
        if not isinstance(data, Mapping) or not isinstance(data.get("games"), list):
            raise RotationError("a rotation is an object with a list of games")
        games = []
        for i, game in enumerate(data["games"][: MAX_GAMES + 1]):
            if not isinstance(game, Mapping):
                raise RotationError(f"game {i + 1} of the rotation is not an object of rules")
            options = dict(game)
            try:
                stakes = [options.pop(k) for k in _STAKES]
                variant, preset = options.pop("variant"), options.pop("preset", "casino")
                if options.get("raise_cap") == "UNLIMITED":
                    options["raise_cap"] = None
                games.append(Rules.from_preset(preset, variant, *stakes, **options))
            except KeyError as error:
                raise RotationError(f"game {i + 1} of the rotation has no {error.args[0]}") from None
            except (TypeError, ValueError) as error:
                raise RotationError(f"game {i + 1} of the rotation: {error}") from None
        return cls(tuple(games), data.get("every", 8), data.get("name", ""))

    @staticmethod
    def turn_from_json(data: object) -> Turn:
        """A :class:`Turn` from :meth:`Turn.to_json`'s data (unchecked against a rotation: see :meth:`check_turn`)."""
        if not isinstance(data, Mapping) or any(type(data.get(k)) is not int for k in ("index", "dealt", "length")):
            raise RotationError(f"not a rotation turn: {data!r}"[:200])
        return Turn(data["index"], data["dealt"], data["length"])


_STAKES = ("ante", "bring_in", "small_bet", "big_bet")


def _game_json(rules: Rules) -> dict[str, Any]:
    game: dict[str, Any] = {"variant": rules.variant.value, "preset": rules.preset}
    game.update((k, getattr(rules, k)) for k in _STAKES)
    for name, value in sorted(rules.changes().items()):
        if value is None:
            if name == "raise_cap":
                game[name] = "UNLIMITED"
            continue  # max_buy_in None: no maximum, the default
        game[name] = value.name if isinstance(value, Enum) else value
    return game


#: The games of Triple Stud, in the order the rooms deal them.
TRIPLE_STUD = (Variant.STUD7, Variant.RAZZ, Variant.STUD7_HL8)
