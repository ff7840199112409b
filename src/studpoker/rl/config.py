"""The table an environment plays: variant, players, a preset's rules and the starting stacks.

Both environments (PettingZoo and OpenSpiel) are built from one :class:`TableConfig`, so the same options
mean the same game in either:

>>> config = make_config("razz", 3, small_bet=20, big_bet=40, bring_in=5, ante=2)
>>> config.rules.variant.name, config.rules.big_bet, config.stacks
('RAZZ', 40, (400, 400, 400))
>>> make_config("7stud", 2, preset="tournament", stack=1000).rules.raise_cap
4
>>> make_config("stud7_hl8", 2).rules.variant is make_config("F7S/8", 2).rules.variant
True
>>> make_config("holdem", 2)
Traceback (most recent call last):
    ...
ValueError: unknown game 'holdem': use 7stud, 7stud8, 5stud or razz (or a name such as STUD7_HL8, F7S or Razz)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine import Rules, Variant

__all__ = ["CASINO_STAKES", "TableConfig", "make_config", "parse_overrides", "variant_of"]

#: The stakes every environment defaults to: the casino preset at 1/3/10/20 (ante, bring-in, small, big bet).
CASINO_STAKES: Mapping[str, int] = {"ante": 1, "bring_in": 3, "small_bet": 10, "big_bet": 20}


@dataclass(frozen=True, slots=True)
class TableConfig:
    """One hand's table: the rules (the sign) and every player's starting stack, in position order."""

    rules: Rules
    stacks: tuple[int, ...]

    @property
    def players(self) -> int:
        return len(self.stacks)

    @property
    def chips(self) -> int:
        """All the chips at the table (the most any amount in a hand can be)."""
        return sum(self.stacks)


def variant_of(variant: Variant | str) -> Variant:
    """A :class:`Variant` from itself or any of its names (:meth:`Variant.parse`: ``"razz"``, ``"7stud8"``,
    ``"STUD7_HL8"``, ``"stud7_hl8"``, ``"F7S"``)."""
    return Variant.parse(variant)


def make_config(
    variant: Variant | str = "razz",
    players: int = 2,
    *,
    rules: Rules | None = None,
    preset: str = "casino",
    stack: int | None = None,
    stacks: Sequence[int] | None = None,
    **options: Any,
) -> TableConfig:
    """The table for ``players`` seats of ``variant``.

    ``rules``: a ready :class:`~studpoker.engine.Rules` (then ``variant``, ``preset`` and stakes are not read).
    Otherwise ``preset`` (``casino`` or ``tournament``) with the stakes ``ante``, ``bring_in``, ``small_bet``,
    ``big_bet`` (default 1/3/10/20) and any option of SPEC section 2 by name (``raise_cap=4``). ``stack``: every
    player's chips (default the rules' minimum buy-in, 10 big bets); ``stacks``: one per player instead.
    """
    if rules is None:
        stakes = {name: options.pop(name, default) for name, default in CASINO_STAKES.items()}
        rules = Rules.from_preset(preset, variant_of(variant), **stakes, **options)
    elif options:
        raise ValueError(f"give either rules or options, not both (got {', '.join(sorted(options))})")
    if not isinstance(players, int) or isinstance(players, bool):
        raise ValueError(f"players must be a whole number, got {players!r}")
    assert rules.max_seats is not None
    if not 2 <= players <= rules.max_seats:
        raise ValueError(f"{rules.variant.title} is played by 2 to {rules.max_seats} players, got {players}")
    if stacks is not None:
        if stack is not None:
            raise ValueError("give either stack or stacks, not both")
        chips = tuple(int(s) for s in stacks)
        if len(chips) != players:
            raise ValueError(f"stacks has {len(chips)} entries for {players} players")
    else:
        each = stack if stack is not None else (rules.min_buy_in or 10 * rules.big_bet)
        chips = (int(each),) * players
    if any(s < rules.chip_unit or s % rules.chip_unit for s in chips):
        raise ValueError(f"every stack must be a positive multiple of the chip unit {rules.chip_unit}, got {chips}")
    return TableConfig(rules, chips)


def parse_overrides(text: str) -> dict[str, Any]:
    """Rule options written as ``"raise_cap=4 headsup_uncap=NEVER open_pair_double_bet=false"`` (OpenSpiel game
    parameters are plain values, so its ``rules`` parameter carries them as text): ints, ``none``, ``true`` and
    ``false`` become values, anything else stays a name for :class:`~studpoker.engine.Rules` to read.

    >>> parse_overrides("raise_cap=none  headsup_uncap=NEVER burn_before_first_deal=true min_buy_in=100")
    {'raise_cap': None, 'headsup_uncap': 'NEVER', 'burn_before_first_deal': True, 'min_buy_in': 100}
    """
    out: dict[str, Any] = {}
    for item in text.split():
        name, sep, raw = item.partition("=")
        if not sep or not name:
            raise ValueError(f"a rule option is written name=value, got {item!r}")
        word = raw.lower()
        value: Any
        if word in ("none", "null"):
            value = None
        elif word in ("true", "false"):
            value = word == "true"
        elif raw.lstrip("-").isdigit():
            value = int(raw)
        else:
            value = raw
        out[name] = value
    return out
