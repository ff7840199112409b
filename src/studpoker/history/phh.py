"""PHH, the open Poker Hand History format (TOML): read and write single hands (``.phh``) and
multi-hand files (``.phhs``).

Variants: ``F7S`` (seven-card stud), ``F7S/8`` (stud hi/lo), ``FR`` (razz) and, as our
extension, ``F5S`` (five-card stud). Rules PHH has no field for travel in the user-defined
field ``_rules``, an inline table with an optional ``preset`` and any parameter of SPEC
section 2 by its name; without it the ``casino`` preset applies. ``_wrong_bring_in``
(``'p2'``) names the player whose bring-in, posted when the dealer wrongly told him to, stood
(SPEC R13.2; :attr:`HandRecord.wrong_bring_in`). Other fields starting with ``_`` are kept
unchanged on a round trip.

>>> text = dumps(loads_hand('''
... variant = 'FR'
... antes = [1, 1]
... bring_in = 2
... small_bet = 4
... big_bet = 8
... starting_stacks = [50, 50]
... actions = ['d dh p1 Ks9d8c', 'd dh p2 2c3dAh', 'p1 pb', 'p2 f']
... _rules = { preset = "tournament" }
... '''))
>>> print(text.splitlines()[0], text.splitlines()[-1], sep="\\n")
variant = 'FR'
_rules = { preset = "tournament" }

The verbs are those of every format studpoker reads (:mod:`studpoker.history`): :func:`loads` and :func:`load` give a
list of hands (one for a ``.phh``, each table of a ``.phhs``), :func:`dumps` and :func:`dump` write one hand as a
``.phh`` or several as a ``.phhs``; :func:`loads_hand` reads exactly one.
"""

from __future__ import annotations

import datetime as dt
import math
import re
import tomllib
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import fields
from enum import Enum
from fractions import Fraction
from typing import Any

from ..cards import CARDS, Card, CardError, parse_card
from ..engine import Rules, RulesError, RulesWarning, Variant
from ..engine.events import Mucked, Shown
from .model import Bet, Board, Comment, Deal, HandRecord, HistoryAction, ShowMuck
from .replay import ReplayError, replay
from .text import read_text, write_text

__all__ = [
    "VARIANT_CODES",
    "PHHError",
    "dump",
    "dumps",
    "dumps_all",
    "load",
    "loads",
    "loads_all",
    "loads_each",
    "loads_hand",
    "read_tables",
    "starts_table",
]

VARIANT_CODES = {v.phh_code: v for v in Variant}  # the game codes of PHH, as Variant spells them
_CODES = {v: k for k, v in VARIANT_CODES.items()}

#: Optional PHH fields kept as descriptive information (PHH spec, optional fields).
INFO_FIELDS = (
    "author", "event", "url", "venue", "address", "city", "region", "postal_code", "country", "time",
    "time_zone", "time_zone_abbreviation", "day", "month", "year", "hand", "level", "seat_count", "table",
    "currency_symbol", "time_limit", "time_banks",
)  # fmt: skip
_REQUIRED = ("variant", "antes", "bring_in", "small_bet", "big_bet", "starting_stacks", "actions")
_KNOWN = {*_REQUIRED, *INFO_FIELDS, "players", "seats", "finishing_stacks", "winnings", "currency"}
_KNOWN |= {"ante_trimming_status", "_rules"}
_OURS = ("_rules", "_rake", "_wrong_bring_in", "_dead_hands")  # the user-defined fields studpoker reads itself
_FIELD_NAMES = frozenset(_KNOWN | set(_OURS))  # bare TOML keys, known without looking at them
_RULE_NAMES = {f.name for f in fields(Rules)} - {"variant", "ante", "bring_in", "small_bet", "big_bet", "preset"}


class PHHError(ValueError):
    """A PHH text that is not valid TOML, or not a valid stud hand history; the message names the
    field (and the action, by its 1-based number) at fault."""


# -- reading -----------------------------------------------------------------------------------------


def loads(text: str, *, preset: str | None = None, rules: Mapping[str, Any] | None = None) -> list[HandRecord]:
    """Every hand of a PHH text: the one of a ``.phh`` file, or each table (``[1]``, ``[2]``...) of a ``.phhs``;
    ``preset`` and ``rules`` as for :func:`loads_hand`. Stops at the first hand it cannot read (:class:`PHHError`);
    :func:`loads_each` reads each hand on its own."""
    if any(starts_table(line) for line in text.splitlines()):
        return _loads_tables(text, preset, rules)
    return [loads_hand(text, preset=preset, rules=rules)]


def load(path: Any, *, preset: str | None = None, rules: Mapping[str, Any] | None = None) -> list[HandRecord]:
    """:func:`loads` of the file at ``path`` (a ``.phh`` or ``.phhs``; its encoding detected)."""
    return loads(read_text(path, PHHError), preset=preset, rules=rules)


def loads_hand(text: str, *, preset: str | None = None, rules: Mapping[str, Any] | None = None) -> HandRecord:
    """Read one hand (the contents of a ``.phh`` file).

    ``preset`` and ``rules`` set house rules the file does not state: ``preset`` replaces the
    file's preset (``_rules.preset``, else ``casino``) and ``rules`` (parameters of SPEC section 2
    by name) override the file's own. The same as ``record.rules.with_preset(preset, **rules)``
    afterwards, without building the file's rules first.
    """
    return _record(_toml(text), "", preset, rules or {})


def loads_all(text: str, *, preset: str | None = None, rules: Mapping[str, Any] | None = None) -> list[HandRecord]:
    """Deprecated: :func:`loads` reads every hand of a ``.phhs`` text (and the one of a ``.phh``)."""
    warnings.warn("phh.loads_all is deprecated: phh.loads reads every hand", DeprecationWarning, stacklevel=2)
    return _loads_tables(text, preset, rules)


def _loads_tables(text: str, preset: str | None, rules: Mapping[str, Any] | None) -> list[HandRecord]:
    """Every hand of a ``.phhs`` file (tables ``[1]``, ``[2]``, ... each holding one hand)."""
    document = _toml(text)
    hands = []
    for key, value in document.items():
        if not isinstance(value, dict):
            raise PHHError(f"a .phhs file holds one table per hand; {key!r} is not a table")
        hands.append(_record(value, f"hand [{key}]: ", preset, rules or {}))
    return hands


def loads_each(
    text: str, *, preset: str | None = None, rules: Mapping[str, Any] | None = None
) -> list[tuple[int, HandRecord | PHHError]]:
    """Every hand of a ``.phhs`` text, each read on its own: the line its table (``[1]``, ``[2]``...) starts on,
    and its record or why it could not be read. A hand that is not valid TOML, or breaks PHH, spoils no other
    (:func:`loads_all` stops at the first). ``preset`` and ``rules`` as for :func:`loads`."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if starts_table(line)]
    marks = [0, *starts] if not starts or starts[0] > 0 else starts
    chunks = [
        (start, "".join(lines[start : marks[k + 1] if k + 1 < len(marks) else len(lines)]))
        for k, start in enumerate(marks)
    ]
    return list(read_tables(chunks, preset=preset, rules=rules))


def starts_table(line: str) -> bool:
    """Whether a line of a ``.phhs`` text opens a hand's table (``[1]``, ``[2]``...)."""
    return _HEADER.fullmatch(line.strip()) is not None


def read_tables(
    chunks: Iterable[tuple[int, str]], *, preset: str | None = None, rules: Mapping[str, Any] | None = None
) -> Iterator[tuple[int, HandRecord | PHHError]]:
    """:func:`loads_each` of a text already cut before each table header: each chunk is its 0-based first line and
    its text; a first chunk that is not a table is what stands before the first, only comments allowed. One at a
    time, so that a file is read a hand at a time."""
    for start, chunk in chunks:
        if not chunk or not starts_table(chunk.splitlines()[0]):
            if any(line.strip() and not line.lstrip().startswith("#") for line in chunk.splitlines()):
                yield 1, PHHError("a .phhs file holds one table a hand ([1], [2]...); text stands before the first")
            continue
        try:
            document = _toml(chunk)
            for key, value in document.items():
                if not isinstance(value, dict):
                    raise PHHError(f"a .phhs file holds one table per hand; {key!r} is not a table")
                yield start + 1, _record(value, f"hand [{key}]: ", preset, rules or {})
        except PHHError as error:  # a new one, without the traceback and context: a file of junk has one a hand
            yield start + 1, PHHError(str(error))
        except ValueError as error:  # a sign the rules refuse, and the like
            yield start + 1, PHHError(f"hand at line {start + 1}: {error}")


def _toml(text: str) -> dict[str, Any]:
    if text.startswith("\ufeff"):
        text = text[1:]
    fast = _simple_toml(text)
    if fast is not None:
        return fast
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PHHError(f"not valid TOML: {error}") from None


# The TOML that PHH files are made of in practice (one `key = value` a line, strings, numbers,
# booleans, one-line arrays and inline tables, `[n]` hand headers, comments) is read by a small
# parser of our own, several times faster than tomllib; anything else, and anything it is not
# sure of, goes to tomllib, so the result is always tomllib's.
_KEY_LINE = re.compile(r"([A-Za-z0-9_-]+)[ \t]*=[ \t]*")
_COMMENT = r"(?:#[^\x00-\x08\x0a-\x1f\x7f]*)?"  # TOML allows no control character but tab in a comment
_HEADER = re.compile(rf"\[[ \t]*([A-Za-z0-9_-]+)[ \t]*\][ \t]*{_COMMENT}")
_INT = re.compile(r"[+-]?(?:0|[1-9][0-9]*)")
_FLOAT = re.compile(r"[+-]?(?:0|[1-9][0-9]*)(?:\.[0-9]+(?:[eE][+-]?[0-9]+)?|[eE][+-]?[0-9]+)")
_LITERAL = re.compile(r"'([^'\x00-\x08\x0a-\x1f\x7f]*)'")
_BASIC = re.compile(r'"([^"\\\x00-\x08\x0a-\x1f\x7f]*)"')
_SPACE = re.compile(r"[ \t]*")
_END = re.compile(rf"[ \t]*{_COMMENT}")
_TIME = re.compile(r"([01][0-9]|2[0-3]):([0-5][0-9]):([0-5][0-9])(?:\.([0-9]+))?")


class _NotSimpleError(Exception):
    """The text uses TOML beyond the simple subset: let tomllib read it."""


def _simple_toml(text: str) -> dict[str, Any] | None:
    document: dict[str, Any] = {}
    table = document
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if "\r" in text:
            return None
    for raw in text.split("\n"):
        line = raw.strip(" \t")  # TOML's whitespace only
        if not line:
            continue
        if line[0] == "#":
            if not _END.fullmatch(line):
                return None
            continue
        try:
            if line[0] == "[":
                header = _HEADER.fullmatch(line)
                if header is None or header[1] in document:
                    return None
                table = document[header[1]] = {}
                continue
            key, equals, rest = line.partition("=")
            key, rest = key.rstrip(" \t"), rest.lstrip(" \t")
            if (
                equals
                and key not in table
                and (key in _FIELD_NAMES or (key.isascii() and key.replace("_", "a").replace("-", "a").isalnum()))
            ):
                # strings and whole numbers with string methods alone: most lines of a PHH file
                quote = rest[:1]
                if (
                    quote in ("'", '"')
                    and rest.find(quote, 1) == len(rest) - 1
                    and rest.isprintable()
                    and (quote == "'" or "\\" not in rest)
                ):
                    table[key] = rest[1:-1]
                    continue
                if rest.isdigit() and rest.isascii() and (rest[0] != "0" or rest == "0"):
                    table[key] = int(rest)
                    continue
                if quote == "[" and rest[-1] == "]":
                    array = _plain_array(rest[1:-1])
                    if array is not None:
                        table[key] = array
                        continue
            common = _COMMON_LINE.fullmatch(line)
            if common is not None:
                key = common[1]
                if key in table:
                    return None
                kind = common.lastindex
                found: str = common[kind or 1]
                if kind in (2, 3):
                    table[key] = found
                elif kind == 4:
                    table[key] = int(found)
                elif kind == 5:
                    table[key] = found == "true"
                elif kind == 6:
                    table[key] = [single or double for single, double in _STRING_ITEM.findall(found)]
                else:
                    table[key] = [int(item) for item in found.split(",") if item.strip()]
                continue
            key_match = _KEY_LINE.match(line)
            if key_match is None or key_match[1] in table:
                return None
            parsed, end = _simple_value(line, key_match.end())
            if _END.fullmatch(line, end) is None:
                return None
            table[key_match[1]] = parsed
        except _NotSimpleError:
            return None
    return document


# Whole one-line arrays of plain strings or integers (the actions, stacks and names of every
# PHH file) in one regular-expression step each.
_STRING = r"""(?:'[^'\x00-\x08\x0a-\x1f\x7f]*'|"[^"\\\x00-\x08\x0a-\x1f\x7f]*")"""
_STRING_ARRAY = re.compile(rf"\[[ \t]*((?:{_STRING}[ \t]*,[ \t]*)*(?:{_STRING})?)[ \t]*\]")
_STRING_ITEM = re.compile(r"'([^'\x00-\x08\x0a-\x1f\x7f]*)'|" + r'"([^"\\\x00-\x08\x0a-\x1f\x7f]*)"')
_INT_TEXT = r"[+-]?(?:0|[1-9][0-9]*)"
# One whole `key = value` line of the commonest kinds (string, integer, boolean, array of
# strings, array of integers), in one step; groups 2-7 tell which kind matched.
_COMMON_LINE = re.compile(
    r"([A-Za-z0-9_-]+)[ \t]*=[ \t]*"
    rf"""(?:'([^'\x00-\x08\x0a-\x1f\x7f]*)'|"([^"\\\x00-\x08\x0a-\x1f\x7f]*)"|({_INT_TEXT})|(true|false)"""
    rf"|\[[ \t]*((?:{_STRING}[ \t]*,[ \t]*)*(?:{_STRING})?)[ \t]*\]"
    rf"|\[[ \t]*((?:{_INT_TEXT}[ \t]*,[ \t]*)*(?:{_INT_TEXT})?)[ \t]*\])"
    rf"[ \t]*{_COMMENT}"
)
_INT_ARRAY = re.compile(r"\[[ \t]*((?:[+-]?(?:0|[1-9][0-9]*)[ \t]*,[ \t]*)*(?:[+-]?(?:0|[1-9][0-9]*))?)[ \t]*\]")


def _plain_array(inner: str) -> list[Any] | None:
    """The items between ``[`` and ``]`` if they are all plain strings (one quote style, no
    escapes) or all whole numbers; None for anything else (the regular expressions decide)."""
    quote = inner.lstrip(" \t")[:1]
    if quote in ("'", '"'):
        parts = inner.split(quote)
        if len(parts) % 2 == 0 or parts[0].strip(" \t") or parts[-1].strip(" \t") not in ("", ","):
            return None
        for i in range(2, len(parts) - 1, 2):
            if parts[i].strip(" \t") != ",":
                return None
        items = parts[1::2]
        for item in items:
            if not item.isprintable() or (quote == '"' and "\\" in item):
                return None
        return items
    if not inner.strip(" \t"):
        return []
    items = inner.split(",")
    if items[-1].strip(" \t") == "" and len(items) > 1:
        items.pop()  # a trailing comma
    numbers: list[Any] = []
    for raw in items:
        item = raw.strip(" \t")
        if not (item.isdigit() and item.isascii() and (item[0] != "0" or item == "0")):
            return None
        numbers.append(int(item))
    return numbers


def _simple_value(line: str, at: int) -> tuple[Any, int]:
    char = line[at : at + 1]
    if char == "[":
        array = _STRING_ARRAY.match(line, at)
        if array is not None:
            return [single or double for single, double in _STRING_ITEM.findall(array[1])], array.end()
        array = _INT_ARRAY.match(line, at)
        if array is not None:
            return [int(item) for item in array[1].split(",") if item.strip()], array.end()
    if char == "'":
        match = _LITERAL.match(line, at)
        if match is None:
            raise _NotSimpleError
        return match[1], match.end()
    if char == '"':
        match = _BASIC.match(line, at)
        if match is None:
            raise _NotSimpleError
        return match[1], match.end()
    if char in ("[", "{"):
        closing = "]" if char == "[" else "}"
        items: list[Any] = []
        table: dict[str, Any] = {}
        at = _SPACE.match(line, at + 1).end()  # type: ignore[union-attr]
        while line[at : at + 1] != closing:
            if char == "{":
                key = _KEY_LINE.match(line, at)
                if key is None or key[1] in table:
                    raise _NotSimpleError
                value, at = _simple_value(line, key.end())
                table[key[1]] = value
            else:
                value, at = _simple_value(line, at)
                items.append(value)
            at = _SPACE.match(line, at).end()  # type: ignore[union-attr]
            if line[at : at + 1] == ",":
                at = _SPACE.match(line, at + 1).end()  # type: ignore[union-attr]
                if char == "{" and line[at : at + 1] == closing:
                    raise _NotSimpleError  # TOML allows no trailing comma in an inline table
            elif line[at : at + 1] != closing:
                raise _NotSimpleError
        return (items if char == "[" else table), at + 1
    if line.startswith("true", at):
        return True, at + 4
    if line.startswith("false", at):
        return False, at + 5
    clock = _TIME.match(line, at)  # a local time (PHH's ``time``), before a number could take its hours
    if clock is not None:
        fraction = (clock[4] or "")[:6].ljust(6, "0")
        return dt.time(int(clock[1]), int(clock[2]), int(clock[3]), int(fraction)), clock.end()
    number = _FLOAT.match(line, at)
    if number is not None:
        return float(number[0]), number.end()
    number = _INT.match(line, at)
    if number is not None:
        return int(number[0]), number.end()
    raise _NotSimpleError


def _record(doc: Mapping[str, Any], where: str, preset: str | None, overrides: Mapping[str, Any]) -> HandRecord:
    def fail(message: str) -> PHHError:
        return PHHError(where + message)

    for name in _REQUIRED:
        if name not in doc:
            raise fail(f"the required field {name!r} is missing")
    unknown = [k for k in doc if k not in _KNOWN and not k.startswith("_")]
    if unknown:
        raise fail(f"unknown field {unknown[0]!r} (PHH fields are listed in the specification)")
    code = doc["variant"]
    if code not in VARIANT_CODES:
        raise fail(f"variant {code!r} is not a stud game studpoker plays (F7S, F7S/8, FR, F5S)")
    if "blinds_or_straddles" in doc or "min_bet" in doc:
        raise fail("stud has no blinds or min_bet")
    antes, stacks = _numbers(doc, "antes", fail), _numbers(doc, "starting_stacks", fail)
    n = len(stacks)
    if len(antes) != n:
        raise fail(f"antes has {len(antes)} entries for {n} players")
    if len(set(antes)) != 1:
        raise fail("studpoker plays uniform antes only: every entry of antes must be equal")
    stakes = [antes[0], _number(doc, "bring_in", fail), _number(doc, "small_bet", fail), _number(doc, "big_bet", fail)]
    finishing = _numbers(doc, "finishing_stacks", fail) if "finishing_stacks" in doc else None
    winnings = _numbers(doc, "winnings", fail) if "winnings" in doc else None
    rake = _number(doc, "_rake", fail) if "_rake" in doc else 0
    scale = _scale([*stakes, *stacks, *(finishing or []), *(winnings or []), rake])
    ante, bring_in, small, big = (_chips(v, scale) for v in stakes)
    chips = tuple(_chips(v, scale) for v in stacks)
    trimming = doc.get("ante_trimming_status", False)  # PHH's default: antes are gathered as dead money
    if not isinstance(trimming, bool):
        raise fail(f"ante_trimming_status must be true or false, got {trimming!r}")
    options = {"ante_side_pots": trimming, **overrides}
    rules = _rules(doc.get("_rules", {}), VARIANT_CODES[code], (ante, bring_in, small, big), preset, options, fail)
    actions = tuple(_actions(doc["actions"], n, scale, fail))
    players = _strings(doc, "players", n, fail)
    seats = tuple(doc.get("seats", ()))
    if seats and (len(seats) != n or not all(isinstance(s, int) for s in seats)):
        raise fail(f"seats must be {n} integers")
    info = {k: doc[k] for k in INFO_FIELDS if k in doc}
    wrong = _wrong_bring_in(doc["_wrong_bring_in"], n, fail) if "_wrong_bring_in" in doc else None
    dead = _dead_hands(doc["_dead_hands"], n, fail) if "_dead_hands" in doc else ()
    extra = {k: v for k, v in doc.items() if k.startswith("_") and k not in _OURS}
    return HandRecord(
        rules=rules,
        starting_stacks=chips,
        actions=actions,
        players=players,
        seats=seats,
        finishing_stacks=None if finishing is None else tuple(_chips(v, scale) for v in finishing),
        winnings=None if winnings is None else tuple(_chips(v, scale) for v in winnings),
        rake=_chips(rake, scale),
        currency=doc.get("currency"),
        chip_value=1 / scale if scale != 1 else 1.0,
        info=info,
        extra=extra,
        wrong_bring_in=wrong,
        dead_hands=dead,
    )


def _dead_hands(value: Any, n: int, fail: Any) -> tuple[int, ...]:
    """``_dead_hands``: the players (``['p2']``) whose hands the dealer killed at the showdown; 0-based."""
    players: list[int] = []
    if isinstance(value, list) and value:
        for item in value:
            if not isinstance(item, str):
                break
            try:
                player = _player(item.strip(), n)
            except ValueError:
                break
            if player in players:
                break
            players.append(player)
        else:
            return tuple(sorted(players))
    raise fail(
        f"_dead_hands must list players of this hand as the actions do (p1..p{n}), each once: the hands found"
        f" foul and killed at the showdown; got {value!r}"
    )


def _wrong_bring_in(value: Any, n: int, fail: Any) -> int:
    """``_wrong_bring_in``: the player (``'p2'``) who posted the bring-in the dealer wrongly told him to post, a
    wager that stood (SPEC R13.2); 0-based. Whether he is not the low card is for the replay to say."""
    if isinstance(value, str):
        try:
            return _player(value.strip(), n)
        except ValueError:
            pass
    raise fail(
        f"_wrong_bring_in must name a player of this hand as the actions do (p1..p{n}): the one wrongly told to"
        f" bring in, whose bring-in stood (SPEC R13.2); got {value!r}"
    )


def _number(doc: Mapping[str, Any], name: str, fail: Any) -> int | float:
    value = doc[name]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise fail(f"{name} must be a non-negative number, got {value!r}")
    return value


def _numbers(doc: Mapping[str, Any], name: str, fail: Any) -> list[int | float]:
    values = doc[name]
    if not isinstance(values, list) or not values:
        raise fail(f"{name} must be an array of numbers")
    for value in values:
        if value.__class__ is not int or value < 0:  # not the usual whole chips: check each
            return [_number({name: v}, name, fail) for v in values]
    return list(values)


def _strings(doc: Mapping[str, Any], name: str, n: int, fail: Any) -> tuple[str, ...]:
    values = doc.get(name, [])
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values) or (values and len(values) != n):
        raise fail(f"{name} must be {n} strings")
    return tuple(values)


def _scale(values: Iterable[int | float]) -> int:
    """The power of ten that makes every amount a whole number of chips (cents, say)."""
    values = list(values)
    if all(type(v) is int for v in values):
        return 1
    for scale in (1, 10, 100, 1000, 10000):
        if all(Fraction(str(v)) * scale == int(Fraction(str(v)) * scale) for v in values):
            return scale
    raise PHHError("amounts with more than four decimals are not supported")


def _chips(value: int | float, scale: int) -> int:
    if scale == 1 and type(value) is int:
        return value
    return int(Fraction(str(value)) * scale)


def _rules(
    table: Any,
    variant: Variant,
    stakes: tuple[int, int, int, int],
    preset: str | None,
    overrides: Mapping[str, Any],
    fail: Any,
) -> Rules:
    if not isinstance(table, dict):
        raise fail('_rules must be an inline table, e.g. _rules = { preset = "tournament" }')
    options = dict(table)
    file_preset = options.pop("preset", "casino")
    for name, value in list(options.items()):
        if name not in _RULE_NAMES:
            raise fail(f"_rules: unknown parameter {name!r} (SPEC section 2)")
        if name == "raise_cap" and value == "UNLIMITED":
            options[name] = None
    for name in overrides:
        if name not in _RULE_NAMES:
            raise RulesError(f"unknown rule parameter {name!r} (SPEC section 2)")
    options.update(overrides)
    try:
        with warnings.catch_warnings():  # a history records the sign a room dealt: nothing to warn its reader of
            warnings.simplefilter("ignore", RulesWarning)
            return Rules.from_preset(preset or file_preset, variant, *stakes, **options)
    except RulesError as error:
        raise fail(f"the rules are not valid: {error}") from None


_ACTION = re.compile(r"^\s*(?:(?P<actor>d|p\d+)\s+(?P<verb>\S+)(?:\s+(?P<args>[^#]*?))?)?\s*(?:#\s?(?P<note>.*))?$")


# "p3 cc" and the like, the commonest actions, as shared immutable values
_PLAIN_BETS = {f"p{p + 1} {verb}": Bet(p, verb, 0, "") for p in range(10) for verb in ("pb", "cc", "f")}


def _actions(raw: Any, n: int, scale: int, fail: Any) -> list[HistoryAction]:
    if not isinstance(raw, list) or not all(isinstance(a, str) for a in raw):
        raise fail("actions must be an array of strings")
    out: list[HistoryAction] = []
    for number, text in enumerate(raw, 1):
        bet = _PLAIN_BETS.get(text)
        if bet is not None and bet.player < n:
            out.append(bet)
            continue
        if "#" not in text:  # the common case, without a regular expression
            parts = text.split(None, 2)
            if len(parts) >= 2 and (parts[0] == "d" or parts[0][:1] == "p"):
                try:
                    out.append(_action(parts[0], parts[1], parts[2].strip() if len(parts) == 3 else "", "", n, scale))
                except (CardError, ValueError) as error:
                    raise fail(f"action {number} ({text!r}): {error}") from None
                continue
        match = _ACTION.match(text)
        if match is None:
            raise fail(f"action {number} ({text!r}) is not PHH action notation")
        actor, verb, args, note = match["actor"], match["verb"], (match["args"] or "").strip(), match["note"] or ""
        if actor is None:
            lone = _LONE_SHOW.fullmatch(note.strip())
            if lone is not None and _players_in(out, n) < 2:  # what dumps wrote of the one player left in
                try:
                    out.append(_action(lone["actor"], "sm", lone["args"] or "", (lone["note"] or "").strip(), n, scale))
                except (CardError, ValueError) as error:
                    raise fail(f"action {number} ({text!r}): {error}") from None
                continue
            out.append(Comment(note.strip()))
            continue
        try:
            out.append(_action(actor, verb, args, note.strip(), n, scale))
        except (CardError, ValueError) as error:
            raise fail(f"action {number} ({text!r}): {error}") from None
    return out


#: The comment :func:`dumps` makes of a show or muck by the one player left in (PHH has no showdown there).
_LONE_SHOW = re.compile(r"(?P<actor>p\d+) sm(?: (?P<args>[^\s#]+))?(?: # (?P<note>.*))?")


def _players_in(actions: list[HistoryAction], n: int) -> int:
    """How many of the ``n`` players have not folded in ``actions``."""
    return n - len({a.player for a in actions if isinstance(a, Bet) and a.verb == "f"})


def _action(actor: str, verb: str, args: str, note: str, n: int, scale: int) -> HistoryAction:
    if actor == "d":
        if verb == "dh":
            who, _, text = args.partition(" ")
            return Deal(_player(who, n), _cards(text.strip()), note)
        if verb == "db":
            board = _cards(args)
            if len(board) != 1 or board[0] is None:
                raise ValueError("the community card must be one known card")
            return Board(board[0], note)
        raise ValueError(f"unknown dealer action {verb!r}")
    player = _player(actor, n)
    if verb in ("pb", "cc", "f"):
        if args:
            raise ValueError(f"{verb} takes no argument")
        return Bet(player, verb, 0, note)
    if verb == "cbr":
        if scale == 1 and args.isdigit():
            if int(args) <= 0:
                raise ValueError(f"cbr needs a positive amount in whole chips, got {args!r}")
            return Bet(player, "cbr", int(args), note)
        try:
            amount = Fraction(args)
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"cbr needs an amount, got {args!r}") from None
        chips = amount * scale
        if chips <= 0 or chips != int(chips):
            raise ValueError(f"cbr needs a positive amount in whole chips, got {args!r}")
        return Bet(player, "cbr", int(chips), note)
    if verb == "sm":
        if not args:
            return ShowMuck(player, None, note)
        return ShowMuck(player, () if args == "-" else _cards(args), note)
    if verb == "sd":
        raise ValueError("stand pat/discard is a draw-game action")
    raise ValueError(f"unknown action {verb!r}")


def _player(text: str, n: int) -> int:
    digits = text[1:]
    if text[:1] != "p" or not digits.isascii() or not digits.isdigit() or not 1 <= int(digits) <= n:
        raise ValueError(f"{text!r} is not a player of this hand (p1..p{n})")
    return int(text[1:]) - 1


def _cards(text: str) -> tuple[Card | None, ...]:
    if not text or len(text) % 2:
        raise ValueError(f"{text!r} is not a list of cards (two characters each, ?? for unknown)")
    out: list[Card | None] = []
    for i in range(0, len(text), 2):
        piece = text[i : i + 2]
        card = _CARD_TEXT.get(piece)
        out.append(card if card is not None else None if piece == "??" else parse_card(piece))
    return tuple(out)


_CARD_TEXT: dict[str, Card] = {str(card): card for card in CARDS}  # "As": the spelling PHH uses


# -- writing -----------------------------------------------------------------------------------------


def dumps(records: HandRecord | Iterable[HandRecord]) -> str:
    """PHH text: one hand (a record) as a ``.phh``, several (any iterable of records, even of one) as a ``.phhs`` of
    tables ``[1]``, ``[2]``..."""
    if isinstance(records, HandRecord):
        return _hand_text(records)
    return "\n".join(f"[{i}]\n{_hand_text(record)}" for i, record in enumerate(records, 1))


def dump(records: HandRecord | Iterable[HandRecord], path: Any) -> None:
    """Write :func:`dumps` of ``records`` to the file at ``path`` (UTF-8)."""
    write_text(path, dumps(records), PHHError)


def dumps_all(records: Iterable[HandRecord]) -> str:
    """Deprecated: :func:`dumps` of several records writes a ``.phhs``."""
    warnings.warn("phh.dumps_all is deprecated: phh.dumps(records) writes a .phhs", DeprecationWarning, stacklevel=2)
    return dumps(list(records))


def _hand_text(record: HandRecord) -> str:
    """One hand as PHH text (a ``.phh`` file's contents)."""
    return "".join(f"{key} = {_toml_value(value)}\n" for key, value in _fields(record))


def _fields(record: HandRecord) -> list[tuple[str, Any]]:
    rules = record.rules
    scale = round(1 / record.chip_value) if record.chip_value != 1 else 1

    def amount(chips: int) -> int | float:
        return chips if scale == 1 else float(Fraction(chips, scale))

    out: list[tuple[str, Any]] = [
        ("variant", _CODES[rules.variant]),
        ("ante_trimming_status", rules.ante_side_pots),
        ("antes", [amount(rules.ante)] * record.n),
        ("bring_in", amount(rules.bring_in)),
        ("small_bet", amount(rules.small_bet)),
        ("big_bet", amount(rules.big_bet)),
        ("starting_stacks", [amount(s) for s in record.starting_stacks]),
        ("actions", _actions_text(record, scale)),
    ]
    out += [(k, record.info[k]) for k in INFO_FIELDS if k in record.info]
    if record.players:
        out.append(("players", list(record.players)))
    if record.seats:
        out.append(("seats", list(record.seats)))
    if record.currency:
        out.append(("currency", record.currency))
    if record.winnings is not None:
        out.append(("winnings", [amount(s) for s in record.winnings]))
    if record.finishing_stacks is not None:
        out.append(("finishing_stacks", [amount(s) for s in record.finishing_stacks]))
    if record.rake:
        out.append(("_rake", amount(record.rake)))
    if record.wrong_bring_in is not None:
        out.append(("_wrong_bring_in", f"p{record.wrong_bring_in + 1}"))
    if record.dead_hands:
        out.append(("_dead_hands", [f"p{p + 1}" for p in record.dead_hands]))
    out += sorted(record.extra.items())
    table = _rules_table(rules)
    if table:
        out.append(("_rules", table))
    return out


def _rules_table(rules: Rules) -> dict[str, Any]:
    """``_rules``: the preset (unless casino) and the options that differ from it, by name."""
    table: dict[str, Any] = {"preset": rules.preset} if rules.preset != "casino" else {}
    for name, value in sorted(rules.changes().items()):
        if (name == "min_buy_in" and value == 10 * rules.big_bet) or name == "ante_side_pots":
            continue  # the default minimum; the gathering of antes is PHH's own ante_trimming_status
        if value is None:
            if name == "raise_cap":
                table[name] = "UNLIMITED"
            continue  # max_buy_in None: no cap, the default
        table[name] = value
    return table


def _actions_text(record: HandRecord, scale: int) -> list[str]:
    """The ``actions`` lines. PHH has a showdown only between two players or more: a show or muck by the one player
    left in (a room's "collected, did not show") would stop PHH readers (PokerKit cannot repair such a hand), so it
    is written as a comment, which keeps what the room said. A showdown the record leaves to the replay is written
    out (:func:`_showdown_left`): in PHH a hand without its showdown actions has not ended."""
    folded: set[int] = set()
    lines: list[str] = []
    for action in record.actions:
        if isinstance(action, Bet) and action.verb == "f":
            folded.add(action.player)
        if isinstance(action, ShowMuck) and record.n - len(folded) < 2:  # read back as the action by loads
            lines.append(f"# {_action_text(action, scale)}")
        else:
            lines.append(_action_text(action, scale))
    lines += [_action_text(action, scale) for action in _showdown_left(record, folded)]
    return lines


def _showdown_left(record: HandRecord, folded: set[int]) -> list[ShowMuck]:
    """The shows and mucks :func:`replay` makes at the end of ``record`` for players at the showdown the record does
    not mention (a room that prints no showdown; our replay shows known hands and mucks the rest): PHH says them,
    and PokerKit, reading a hand whose showdown is missing, mucks every hand and pays nobody. They follow the last
    action, after the last card even at an all-in (the standard also allows the shows as the players go all-in, but
    the seventh card is dealt face down after them, and PokerKit then kills both hands for want of a second show).
    Empty when the record cannot be replayed (it is written as it is) or needs nothing."""
    decided = {a.player: a.cards is None for a in record.actions if isinstance(a, ShowMuck)}  # mucked?
    undecided = [p for p in range(record.n) if p not in folded and p not in decided]
    if record.n - len(folded) < 2 or not undecided:
        return []  # no showdown, or every player in it has his decision: no replay needed
    if len(undecided) == 1 and all(decided.values()):
        return []  # everyone else mucked: the last hand wins unseen (R9.4)
    try:
        state = replay(record).state
    except ReplayError:
        return []
    if not state.is_over:
        return []
    cards: dict[int, list[Card | None]] = {}
    for action in record.actions:
        if isinstance(action, Deal):
            cards.setdefault(action.player, []).extend(action.cards)
    out: list[ShowMuck] = []
    for event in state.events:
        if isinstance(event, (Shown, Mucked)) and event.player not in decided:
            decided[event.player] = isinstance(event, Mucked)
            shown = isinstance(event, Shown) and bool(cards.get(event.player))
            out.append(ShowMuck(event.player, tuple(cards[event.player]) if shown else None))
    return out


def _action_text(action: HistoryAction, scale: int) -> str:
    if isinstance(action, Comment):
        return f"# {action.text}" if action.text else ""
    if isinstance(action, Deal):
        text = f"d dh p{action.player + 1} {_card_text(action.cards)}"
    elif isinstance(action, Board):
        text = f"d db {action.card}"
    elif isinstance(action, Bet):
        text = f"p{action.player + 1} {action.verb}"
        if action.verb == "cbr":
            value = Fraction(action.amount, scale)
            text += f" {value.numerator if value.denominator == 1 else float(value)}"
    else:
        text = f"p{action.player + 1} sm"
        if action.cards is not None:
            text += " " + (_card_text(action.cards) if action.cards else "-")
    return f"{text} # {action.comment}" if action.comment else text


def _card_text(cards: Sequence[Card | None]) -> str:
    return "".join("??" if c is None else str(c) for c in cards)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Enum):
        return _toml_value(value.value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, str):
        if "'" not in value and "\n" not in value and value.isprintable():
            return f"'{value}'"
        return _toml_string(value)
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        inner = ", ".join(f"{_toml_key(k)} = {_toml_inline(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    raise PHHError(f"cannot write {value!r} as TOML")


def _toml_inline(value: Any) -> str:
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, str):
        return _toml_string(value)
    return _toml_value(value)


def _toml_string(value: str) -> str:
    """A TOML basic string: quotes and backslashes escaped, and every control character (which TOML forbids
    raw, and which a name typed by anyone may hold) as an escape, so whatever the text, the file reads back."""
    out = []
    for char in value:
        if char in _TOML_ESCAPES:
            out.append(_TOML_ESCAPES[char])
        elif char < " " or "\x7f" <= char <= "\x9f":
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


_TOML_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\b": "\\b", "\f": "\\f"}


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _toml_inline(key)
