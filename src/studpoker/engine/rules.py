"""The table "sign": variant, stakes and every option of SPEC section 2, with the presets of section 12b.

>>> rules = Rules(Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=20)
>>> rules.raise_cap, rules.open_pair_double_bet, rules.min_buy_in
(3, True, 200)
>>> Rules.tournament(Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=20).raise_cap
4
>>> rules.replace(raise_cap=4).raise_cap
4
>>> Rules(Variant.STUD7, ante=1, bring_in=15, small_bet=10, big_bet=20)
Traceback (most recent call last):
    ...
studpoker.engine.errors.RulesError: bring_in 15 must be at most small_bet 10 (SPEC section 2)
"""

from __future__ import annotations

import dataclasses
import warnings
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ..variant import Variant
from .errors import RulesError, RulesWarning

__all__ = [
    "ChipsRequest",
    "CommunityFirstActor",
    "HeadsUpUncap",
    "OddChipRule",
    "Rules",
    "ShortDeckProcedure",
    "Stud5Opening",
    "Tiebreak",
    "Variant",
]


class HeadsUpUncap(Enum):
    """When the raise cap stops applying heads-up (R6.6)."""

    WHEN_HEADSUP_BEFORE_CAP = "WHEN_HEADSUP_BEFORE_CAP"
    ROUND_BEGINS_HEADSUP = "ROUND_BEGINS_HEADSUP"
    NEVER = "NEVER"


class Tiebreak(Enum):
    """Tie between equal boards on later streets (R7.4)."""

    POSITION = "POSITION"
    HIGH_CARD_BY_SUIT = "HIGH_CARD_BY_SUIT"


class ShortDeckProcedure(Enum):
    """What the dealer does when the stub cannot give everyone a last card (R8.2, R8.4)."""

    TDA = "TDA"
    RRoP = "RRoP"


class CommunityFirstActor(Enum):
    """Who acts first after a community card (R8.6)."""

    AS_ON_6TH = "AS_ON_6TH"
    HIGH_WITH_COMMUNITY = "HIGH_WITH_COMMUNITY"


class OddChipRule(Enum):
    """Who gets an odd chip of a split pot (R11.6)."""

    HIGH_CARD_IN_HAND = "HIGH_CARD_IN_HAND"
    ALL_CARDS_RRoP = "ALL_CARDS_RRoP"
    POSITION = "POSITION"


class Stud5Opening(Enum):
    """How the first round of five-card stud opens (R12.2)."""

    LOW_CARD_BRING_IN = "LOW_CARD_BRING_IN"
    HIGH_CARD_OPENS = "HIGH_CARD_OPENS"


class ChipsRequest(Enum):
    """A request for chips made during a hand (R3.4)."""

    QUEUE = "QUEUE"
    REJECT = "REJECT"


_OPTION_TYPES: dict[str, type[Enum]] = {
    "headsup_uncap": HeadsUpUncap,
    "later_street_tiebreak": Tiebreak,
    "short_deck_procedure": ShortDeckProcedure,
    "community_first_actor": CommunityFirstActor,
    "odd_chip_rule": OddChipRule,
    "stud5_opening": Stud5Opening,
    "chips_request_during_hand": ChipsRequest,
}
_BOOLS = (
    "open_pair_double_bet",
    "community_card_betting",
    "burn_before_first_deal",
    "reserve_bottom_card",
    "stud5_last_card_up",
    "allow_fold_when_check_available",
    "ante_side_pots",
)


def variant_of(variant: Variant | str) -> Variant:
    """The game any of its names stands for (:meth:`Variant.parse`); else a :class:`RulesError` saying so."""
    try:
        return Variant.parse(variant)
    except ValueError as error:
        raise RulesError(str(error)) from None


@dataclass(frozen=True, slots=True)
class Rules:
    """A table's rules: one variant, its stakes and the options of SPEC section 2.

    Stakes are integers in chips; ``chip_unit`` is the smallest chip (every stake
    is a multiple of it, odd chips are in it). Options left as ``None`` take the
    variant's default from SPEC section 2 (``open_pair_double_bet``: on in
    seven-card and five-card stud, off in stud hi/lo and razz; ``max_seats``: 8, or
    10 in five-card stud; ``min_buy_in``: 10 big bets). ``raise_cap=None`` means
    unlimited raises. ``ante_side_pots`` (True, R5.2): a short ante is an all-in like any
    other, so the others' ante chips above it make a side pot he cannot win; False: every
    ante is dead money in the main pot (what PHH's ``ante_trimming_status = false`` means).
    Invalid combinations raise :class:`RulesError` saying which value is wrong.
    """

    variant: Variant
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    chip_unit: int = 1
    min_buy_in: int | None = None
    max_buy_in: int | None = None
    max_seats: int | None = None
    raise_cap: int | None = 3
    headsup_uncap: HeadsUpUncap = HeadsUpUncap.WHEN_HEADSUP_BEFORE_CAP
    open_pair_double_bet: bool | None = None
    later_street_tiebreak: Tiebreak = Tiebreak.POSITION
    short_deck_procedure: ShortDeckProcedure = ShortDeckProcedure.TDA
    community_first_actor: CommunityFirstActor = CommunityFirstActor.AS_ON_6TH
    community_card_betting: bool = True
    burn_before_first_deal: bool = False
    reserve_bottom_card: bool = True
    odd_chip_rule: OddChipRule = OddChipRule.HIGH_CARD_IN_HAND
    stud5_opening: Stud5Opening = Stud5Opening.LOW_CARD_BRING_IN
    stud5_last_card_up: bool = True
    chips_request_during_hand: ChipsRequest = ChipsRequest.QUEUE
    allow_fold_when_check_available: bool = True
    ante_side_pots: bool = True
    preset: str = field(default="casino", compare=False)

    def __post_init__(self) -> None:
        self._coerce_options()
        v = self.variant
        if self.open_pair_double_bet is None:
            object.__setattr__(self, "open_pair_double_bet", v in (Variant.STUD7, Variant.STUD5))
        if self.max_seats is None:
            object.__setattr__(self, "max_seats", v.max_seats)
        if self.min_buy_in is None:
            object.__setattr__(self, "min_buy_in", 10 * self.big_bet if _is_int(self.big_bet) else None)
        self._validate()

    def _coerce_options(self) -> None:
        """Accept option values by name (``"NEVER"``) as well as enum members."""
        if (  # the usual case, checked without a loop: every option already of its type
            self.variant.__class__ is Variant
            and self.headsup_uncap.__class__ is HeadsUpUncap
            and self.later_street_tiebreak.__class__ is Tiebreak
            and self.short_deck_procedure.__class__ is ShortDeckProcedure
            and self.community_first_actor.__class__ is CommunityFirstActor
            and self.odd_chip_rule.__class__ is OddChipRule
            and self.stud5_opening.__class__ is Stud5Opening
            and self.chips_request_during_hand.__class__ is ChipsRequest
            and (self.open_pair_double_bet is None or self.open_pair_double_bet.__class__ is bool)
            and self.community_card_betting.__class__ is bool
            and self.burn_before_first_deal.__class__ is bool
            and self.reserve_bottom_card.__class__ is bool
            and self.stud5_last_card_up.__class__ is bool
            and self.allow_fold_when_check_available.__class__ is bool
            and self.ante_side_pots.__class__ is bool
        ):
            return
        if not isinstance(self.variant, Variant):
            object.__setattr__(self, "variant", variant_of(self.variant))
        for name, kind in _OPTION_TYPES.items():
            value = getattr(self, name)
            if isinstance(value, kind):
                continue
            try:
                object.__setattr__(self, name, kind(value))
            except ValueError:
                choices = ", ".join(m.value for m in kind)
                raise RulesError(f"{name} must be one of {choices}, got {value!r}") from None
        for name in _BOOLS:
            value = getattr(self, name)
            if value is not None and not isinstance(value, bool):
                raise RulesError(f"{name} must be true or false, got {value!r}")

    def _validate(self) -> None:
        if not (  # the usual case without a loop: plain ints (the loops below name the culprit)
            self.ante.__class__ is int
            and self.bring_in.__class__ is int
            and self.small_bet.__class__ is int
            and self.big_bet.__class__ is int
            and self.chip_unit.__class__ is int
            and self.min_buy_in.__class__ is int
            and self.max_seats.__class__ is int
            and (self.max_buy_in is None or self.max_buy_in.__class__ is int)
            and (self.raise_cap is None or self.raise_cap.__class__ is int)
        ):
            for name in ("ante", "bring_in", "small_bet", "big_bet", "chip_unit", "min_buy_in", "max_seats"):
                if not _is_int(getattr(self, name)):
                    raise RulesError(f"{name} must be a whole number, got {getattr(self, name)!r}")
            for name in ("max_buy_in", "raise_cap"):
                value = getattr(self, name)
                if value is not None and not _is_int(value):
                    raise RulesError(f"{name} must be a whole number or None, got {value!r}")
        if self.chip_unit <= 0:
            raise RulesError(f"chip_unit must be positive, got {self.chip_unit}")
        if self.ante <= 0:
            raise RulesError(f"ante must be positive, got {self.ante} (SPEC section 2)")
        if self.bring_in <= 0:
            raise RulesError(f"bring_in must be positive, got {self.bring_in} (SPEC section 2)")
        if self.small_bet <= 0:
            raise RulesError(f"small_bet must be positive, got {self.small_bet}")
        if self.bring_in > self.small_bet:
            raise RulesError(f"bring_in {self.bring_in} must be at most small_bet {self.small_bet} (SPEC section 2)")
        if self.big_bet < self.small_bet:
            raise RulesError(f"big_bet {self.big_bet} must be at least small_bet {self.small_bet}")
        unit = self.chip_unit
        if unit != 1 and (self.ante % unit or self.bring_in % unit or self.small_bet % unit or self.big_bet % unit):
            for name in ("ante", "bring_in", "small_bet", "big_bet"):
                if getattr(self, name) % unit:
                    raise RulesError(f"{name} {getattr(self, name)} is not a multiple of chip_unit {unit}")
        assert self.max_seats is not None and self.min_buy_in is not None
        if not 2 <= self.max_seats <= self.variant.max_seats:
            raise RulesError(
                f"max_seats {self.max_seats} is outside 2..{self.variant.max_seats} for {self.variant.title.lower()}"
                " (R3.1)"
            )
        if self.raise_cap is not None and self.raise_cap < 1:
            raise RulesError(f"raise_cap must be at least 1 (or None for unlimited), got {self.raise_cap}")
        if self.min_buy_in <= 0:
            raise RulesError(f"min_buy_in must be positive, got {self.min_buy_in}")
        if self.max_buy_in is not None and self.max_buy_in < self.min_buy_in:
            raise RulesError(f"max_buy_in {self.max_buy_in} is below min_buy_in {self.min_buy_in}")
        if self.variant is Variant.RAZZ and self.open_pair_double_bet:
            raise RulesError("razz has no open-pair double bet (R12a.4)")
        for caution in self.cautions():
            warnings.warn(caution, RulesWarning, stacklevel=4)

    def cautions(self) -> tuple[str, ...]:
        """What SPEC section 2 calls unusual about this sign (allowed, but worth a warning): a stud hi/lo bring-in
        below twice the ante (seed C). Made rules warn of these once (:class:`RulesWarning`); ask here to know
        every time (``Rules.from_preset`` hands out rules it has made before, which do not warn again)."""
        if self.variant is Variant.STUD7_HL8 and self.bring_in < 2 * self.ante:
            return (
                f"a stud hi/lo bring-in is usually twice the ante or more: {self.bring_in} is less than"
                f" 2 x {self.ante} (SPEC section 2, seed C)",
            )
        return ()

    # -- presets ---------------------------------------------------------------------------------

    @classmethod
    def casino(
        cls, variant: Variant | str, ante: int, bring_in: int, small_bet: int, big_bet: int, **overrides: Any
    ) -> Rules:
        """The ``casino`` preset (the defaults of SPEC section 2), with any options overridden."""
        variant = variant_of(variant)
        return cls(variant, ante, bring_in, small_bet, big_bet, **overrides)

    @classmethod
    def tournament(
        cls, variant: Variant | str, ante: int, bring_in: int, small_bet: int, big_bet: int, **overrides: Any
    ) -> Rules:
        """The ``tournament`` preset of SPEC 12b: cap 4, never uncapped heads-up, no open-pair
        double bet, board ties by suit in stud high (by position in stud hi/lo and razz)."""
        variant = variant_of(variant)
        settings: dict[str, Any] = {
            "raise_cap": 4,
            "headsup_uncap": HeadsUpUncap.NEVER,
            "open_pair_double_bet": False,
            "later_street_tiebreak": Tiebreak.HIGH_CARD_BY_SUIT
            if variant in (Variant.STUD7, Variant.STUD5)
            else Tiebreak.POSITION,
            "preset": "tournament",
        }
        settings.update(overrides)
        return cls(variant, ante, bring_in, small_bet, big_bet, **settings)

    @classmethod
    def from_preset(
        cls,
        preset: str,
        variant: Variant | str,
        ante: int,
        bring_in: int,
        small_bet: int,
        big_bet: int,
        **overrides: Any,
    ) -> Rules:
        """Rules from a preset name (``casino`` or ``tournament``) plus single-parameter overrides.

        Rules are immutable values, so recent results are remembered and handed out again (as
        ``re`` does with compiled patterns): reading thousands of hands at a few stakes builds
        each table's rules once.
        """
        if overrides and not overrides.keys() <= _OVERRIDABLE:
            unknown = sorted(overrides.keys() - _OVERRIDABLE)[0]
            raise RulesError(f"unknown rule parameter {unknown!r}: SPEC section 2 names {', '.join(_OPTION_NAMES)}")
        key: tuple[Any, ...] | None = None
        if ante.__class__ is int and bring_in.__class__ is int and small_bet.__class__ is int:
            # value types are part of the key: 1 and True (or 1.0) are equal, but only 1 is a valid stake
            key = (cls, preset, variant, ante, bring_in, small_bet, big_bet, big_bet.__class__)
            if overrides:
                key += tuple(sorted((name, value.__class__, value) for name, value in overrides.items()))
            try:
                made = _MADE.get(key)
            except TypeError:  # an unhashable value: its error comes from the constructor below
                made, key = None, None
            if made is not None:
                return made
        if preset == "casino":
            rules = cls.casino(variant, ante, bring_in, small_bet, big_bet, **overrides)
        elif preset == "tournament":
            rules = cls.tournament(variant, ante, bring_in, small_bet, big_bet, **overrides)
        else:
            raise RulesError(f"unknown preset {preset!r}: use 'casino' or 'tournament'")
        if key is not None:
            if len(_MADE) >= 512:
                _MADE.clear()
            _MADE[key] = rules
        return rules

    def replace(self, **overrides: Any) -> Rules:
        """A copy with some parameters changed (validated again)."""
        names = {f.name for f in dataclasses.fields(self)}
        unknown = sorted(set(overrides) - names)
        if unknown:
            raise RulesError(f"unknown rule parameter {unknown[0]!r}")
        return dataclasses.replace(self, **overrides)

    def changes(self) -> dict[str, Any]:
        """The options that differ from this preset's defaults, by name (stakes excluded)."""
        base = _preset_defaults(self.preset, self.variant)
        changed = {name: getattr(self, name) for name in _OPTION_NAMES if getattr(self, name) != getattr(base, name)}
        # the one default that depends on the stakes
        if self.min_buy_in != (10 * self.big_bet if _is_int(self.big_bet) else None):
            changed["min_buy_in"] = self.min_buy_in
        else:
            changed.pop("min_buy_in", None)
        return changed

    def with_preset(self, preset: str | None = None, **overrides: Any) -> Rules:
        """The same stakes under another preset (or this one), keeping this sign's own changes,
        then applying ``overrides``."""
        stakes = sorted(overrides.keys() & _STAKE_NAMES)
        if stakes:
            raise RulesError(f"{stakes[0]} is part of the stakes, not an option: it cannot be overridden here")
        options = {**self.changes(), **overrides}
        return Rules.from_preset(
            preset or self.preset, self.variant, self.ante, self.bring_in, self.small_bet, self.big_bet, **options
        )

    # -- derived values --------------------------------------------------------------------------

    @property
    def streets(self) -> int:
        """Betting rounds in a hand: 5 in seven-card games, 4 in five-card stud."""
        return 4 if self.variant is Variant.STUD5 else 5

    def bet_size(self, round_index: int) -> int:
        """The fixed bet of a betting round (0 = first): small bet on the first two, big bet after (R6.1)."""
        return self.small_bet if round_index < 2 else self.big_bet


_STAKE_NAMES = frozenset({"variant", "ante", "bring_in", "small_bet", "big_bet", "preset"})
_OPTION_NAMES = tuple(f.name for f in dataclasses.fields(Rules) if f.name not in _STAKE_NAMES)
_OVERRIDABLE = frozenset(_OPTION_NAMES)
_MADE: dict[tuple[Any, ...], Rules] = {}  # Rules.from_preset's recent results
_DEFAULTS: dict[tuple[str, str], Rules] = {}


def _preset_defaults(preset: str, variant: Variant) -> Rules:
    """A preset's options for a variant (a constant table, filled on first use)."""
    key = (preset, variant._value_)  # keyed by the code: hashing an Enum member runs Python code
    base = _DEFAULTS.get(key)
    if base is None:
        base = _DEFAULTS[key] = Rules.from_preset(preset, variant, 1, 2, 2, 2)  # stakes that warn of nothing
    return base


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
