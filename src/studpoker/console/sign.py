"""The table's sign as the dealer's console reads it: the game, the stakes, the minimum buy-in and the house's
odd-chip rule, checked once and turned into the engine's :class:`~studpoker.engine.Rules`.

>>> sign = Sign.of("razz", small_bet=10, big_bet=20, ante=1, bring_in=3)
>>> sign.game, sign.min_buy_in, sign.odd_chip.name, sign.rules().raise_cap
(<Variant.RAZZ: 'RAZZ'>, 200, 'HIGH_CARD_IN_HAND', 3)
>>> Sign.of("stud", small_bet=10, big_bet=20, ante=1, bring_in=30)
Traceback (most recent call last):
    ...
studpoker.console.sign.ConsoleError: the sign is not valid: bring_in 30 must be at most small_bet 10 (SPEC section 2)
>>> Sign.from_rules(Rules.tournament("STUD7", ante=1, bring_in=3, small_bet=10, big_bet=20)).rules().raise_cap
4
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any

from ..engine import OddChipRule, Rules, RulesError, RulesWarning, Variant

__all__ = ["ConsoleError", "Sign"]


class ConsoleError(ValueError):
    """A dealer's entry (or a sign) the console refuses; the session is left exactly as it was."""


#: The odd-chip rules by the names the house knows them (R11.6): seed A gives the odd chip to the highest card by
#: suit, seed C to the seat nearest the dealer's left.
ODD_CHIP_NAMES = {
    "high card": OddChipRule.HIGH_CARD_IN_HAND,
    "seat": OddChipRule.POSITION,
    "all cards": OddChipRule.ALL_CARDS_RRoP,
}

#: The house rules for a last (7th-street) card the dealer turns face up (``Sign.seventh_card``): ``"replace"``, the
#: spec's (SPEC R13.3, TDA RP-10B: the card is dead and replaced while betting remains), or ``"face up"``, the room
#: practice the forum threads describe (it plays face up; the first player's turns the others' up too).
SEVENTH_CARD_RULES = ("replace", "face up")


@dataclass(frozen=True, slots=True)
class Sign:
    """What the table's sign says. ``game`` is a :class:`~studpoker.engine.Variant` (:meth:`of` takes any of its
    names); ``min_buy_in`` defaults to 10 big bets; ``odd_chip`` is the house's odd-chip rule (an ``OddChipRule``;
    :meth:`of` also takes its name, or ``"high card"`` / ``"seat"``). ``preset`` and ``options`` carry any other
    rules of SPEC section 2 (``Sign.from_rules`` fills them: a tournament's hands are dealt under the ``tournament``
    preset). ``seventh_card`` is the house's ruling on a last card dealt face up by mistake (one of
    ``SEVENTH_CARD_RULES``): ``"replace"`` (the default, SPEC R13.3) or ``"face up"`` (the room practice); the
    console applies it, the engine's rules do not carry it.

    Raises :class:`ConsoleError` naming what is wrong."""

    game: Variant
    small_bet: int
    big_bet: int
    ante: int
    bring_in: int
    min_buy_in: int | None = None
    odd_chip: OddChipRule = OddChipRule.HIGH_CARD_IN_HAND
    preset: str = "casino"
    options: tuple[tuple[str, Any], ...] = field(default=())
    seventh_card: str = "replace"

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "game", Variant.parse(self.game) if isinstance(self.game, str) else self.game)
        except ValueError as error:
            raise ConsoleError(f"the sign's game: {error}") from None
        if not isinstance(self.game, Variant):
            raise ConsoleError(f"the sign's game must be a Variant or its name, got {self.game!r}")
        odd = self.odd_chip
        if isinstance(odd, str):
            named = ODD_CHIP_NAMES.get(odd.strip().lower())
            try:
                odd = named if named is not None else OddChipRule(odd)
            except ValueError:
                choices = ", ".join([*ODD_CHIP_NAMES, *(m.value for m in OddChipRule)])
                raise ConsoleError(f"the odd-chip rule must be one of {choices}; got {odd!r}") from None
            object.__setattr__(self, "odd_chip", odd)
        if not isinstance(self.odd_chip, OddChipRule):
            raise ConsoleError(f"the odd-chip rule must be an OddChipRule, got {self.odd_chip!r}")
        seventh = self.seventh_card.strip().lower() if isinstance(self.seventh_card, str) else None
        if seventh not in SEVENTH_CARD_RULES:
            choices = " or ".join(repr(c) for c in SEVENTH_CARD_RULES)
            raise ConsoleError(
                f"the sign's seventh_card (a last card exposed) must be {choices}; got {self.seventh_card!r}"
            )
        object.__setattr__(self, "seventh_card", seventh)
        for name in ("small_bet", "big_bet", "ante", "bring_in"):
            value = getattr(self, name)
            if type(value) is not int:
                raise ConsoleError(
                    f"the sign's {name.replace('_', ' ')} must be a whole number of chips, got {value!r}"
                )
        if self.min_buy_in is None:
            object.__setattr__(self, "min_buy_in", 10 * self.big_bet)
        elif type(self.min_buy_in) is not int:
            raise ConsoleError(f"the sign's minimum buy-in must be a whole number of chips, got {self.min_buy_in!r}")
        if not isinstance(self.options, tuple | list | dict):
            raise ConsoleError(f"the sign's options must be (name, value) pairs, got {self.options!r}")
        options = dict(self.options)
        for name in ("min_buy_in", "odd_chip_rule"):
            if name in options:
                raise ConsoleError(f"{name} is on the sign itself, not among its options")
        object.__setattr__(self, "options", tuple(sorted(options.items())))
        rules = self.rules()  # every other check is the engine's
        # the options as the engine reads them (enum members, not names): equal signs compare equal
        object.__setattr__(self, "options", tuple((name, getattr(rules, name)) for name, _ in self.options))

    @classmethod
    def of(
        cls,
        game: Variant | str,
        small_bet: int,
        big_bet: int,
        ante: int,
        bring_in: int,
        *,
        min_buy_in: int | None = None,
        odd_chip: OddChipRule | str = OddChipRule.HIGH_CARD_IN_HAND,
        seventh_card: str = "replace",
    ) -> Sign:
        """A casino sign with the game and the odd-chip rule given by name as well (``"stud8"``, ``"seat"``)."""
        return cls(
            game,  # type: ignore[arg-type]
            small_bet,
            big_bet,
            ante,
            bring_in,
            min_buy_in,
            odd_chip,  # type: ignore[arg-type]
            seventh_card=seventh_card,
        )

    @classmethod
    def from_rules(cls, rules: Rules) -> Sign:
        """The sign of a table dealt under ``rules`` (any preset and options)."""
        options = {k: v for k, v in rules.changes().items() if k not in ("min_buy_in", "odd_chip_rule")}
        return cls(
            rules.variant,
            rules.small_bet,
            rules.big_bet,
            rules.ante,
            rules.bring_in,
            rules.min_buy_in,
            rules.odd_chip_rule,
            rules.preset,
            tuple(options.items()),
        )

    def rules(self) -> Rules:
        """The engine's rules for this sign: its preset (``casino`` unless made from other rules) with the sign's
        minimum buy-in and odd-chip rule."""
        try:
            with warnings.catch_warnings():  # the sign was checked when made: its cautions are in rules().cautions()
                warnings.simplefilter("ignore", RulesWarning)
                return Rules.from_preset(
                    self.preset,
                    self.game,
                    self.ante,
                    self.bring_in,
                    self.small_bet,
                    self.big_bet,
                    min_buy_in=self.min_buy_in,
                    odd_chip_rule=self.odd_chip,
                    **dict(self.options),
                )
        except RulesError as error:
            raise ConsoleError(f"the sign is not valid: {error}") from None

    @property
    def max_seats(self) -> int:
        """Seats at the table: 8, or 10 in five-card stud (R3.1)."""
        return self.game.max_seats

    def to_json(self) -> dict[str, Any]:
        """The sign as JSON-ready data (the journal file's first line)."""
        return {
            "game": self.game.short_name,
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
            "ante": self.ante,
            "bring_in": self.bring_in,
            "min_buy_in": self.min_buy_in,
            "odd_chip": self.odd_chip.value,
            "preset": self.preset,
            "options": {k: v.value if hasattr(v, "value") else v for k, v in self.options},
            "seventh_card": self.seventh_card,
        }

    @classmethod
    def from_json(cls, data: object) -> Sign:
        """A sign from :meth:`to_json`'s data; :class:`ConsoleError` for anything else. A sign written before
        ``seventh_card`` was on it reads as ``"replace"``."""
        if not isinstance(data, dict):
            raise ConsoleError(f"a sign is a JSON object, got {data!r}")
        try:
            options = data.get("options", {})
            if not isinstance(options, dict):
                raise ConsoleError(f"the sign's options must be an object, got {options!r}")
            return cls(
                data["game"],
                data["small_bet"],
                data["big_bet"],
                data["ante"],
                data["bring_in"],
                data.get("min_buy_in"),
                data.get("odd_chip", OddChipRule.HIGH_CARD_IN_HAND.value),
                data.get("preset", "casino"),
                tuple(options.items()),
                data.get("seventh_card", "replace"),
            )
        except KeyError as error:
            raise ConsoleError(f"the sign has no {error.args[0]!r}") from None
