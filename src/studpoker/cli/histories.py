"""``stud replay`` and ``stud convert``: hand-history files through the rules engine."""

from __future__ import annotations

import argparse
import json
import re
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..engine import RulesError, RulesWarning
from ..history import HandRecord, ReplayError, ReplayResult, replay
from ..history.audit import after_rake, check, notes, won
from ..history.files import SOURCES, FileHand, HandWriter, HistoryFileError, iter_each
from ..history.sites.check import action_line
from .options import UsageError  # defined there (light to import), used and re-exported here

__all__ = ["add_commands"]


def add_commands(sub: Any) -> None:
    """Register ``replay`` and ``convert`` on the ``stud`` sub-parser collection."""
    rp = sub.add_parser(
        "replay",
        help="replay hand histories through the rules engine and check them",
        description=(
            "Replay every hand of each file (PHH .phh/.phhs, or the export of any of twelve rooms, detected from the "
            "file: PokerStars, Full Tilt, iPoker, ...), checking every card and action against the rules and every "
            "amount the file states (antes, bets, uncalled bets, pots, side pots, rake, winnings, finishing stacks) "
            "against the replay, under the room's own table rules. Prints a short summary a hand; hands of games "
            "other than the "
            "four stud games are skipped and counted; a hand that cannot be read is reported with its line and the "
            "others are still replayed. Exits 1 if any hand breaks a rule, does not match its file, or cannot be "
            "read, or if a file has no stud hand to replay (no hand, or hands of other games only)."
        ),
        epilog="example: stud replay ../shared/data/phh/wsop-2023-43-5/*.phh --preset tournament",
    )
    rp.add_argument("files", nargs="+", metavar="FILE", type=Path, help="hand-history files: PHH or a room's export")
    rp.add_argument(
        "--from",
        dest="source_format",
        choices=SOURCES,
        metavar="FORMAT",
        help=f"format or room of the files: {', '.join(SOURCES)} (default: .phh/.phhs are PHH, any other file's room "
        "is detected)",
    )
    rp.add_argument("--preset", choices=["casino", "tournament"], help="the rules preset (default: the file's)")
    rp.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override one parameter of SPEC section 2, e.g. --rule raise_cap=4 (repeatable)",
    )
    rp.add_argument("--json", action="store_true", help="print one JSON document with every hand")
    rp.set_defaults(run=_replay)

    cv = sub.add_parser(
        "convert",
        help="convert hand histories: any room's export or PHH to PHH or PokerStars text",
        description=(
            "Read IN (every hand; PHH, or any room's export, its room detected) and write OUT as PHH (.phh, .phhs) "
            "or PokerStars text (.txt), chosen by extension or --to. Only hands that replay are written."
        ),
        epilog="example: stud convert hands.txt hands.phhs",
    )
    cv.add_argument("source", metavar="IN", type=Path, help="the hand-history file to read: PHH or a room's export")
    cv.add_argument("target", metavar="OUT", type=Path, help="the file to write: .phh (one hand), .phhs or .txt")
    cv.add_argument("--from", dest="source_format", choices=SOURCES, metavar="FORMAT", help="format or room of IN")
    cv.add_argument("--to", dest="target_format", choices=["phh", "pokerstars"], help="format of OUT")
    cv.set_defaults(run=_convert)


def _value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "unlimited"):
        return None
    try:
        return int(text)
    except ValueError:
        return text


def _overrides(pairs: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"--rule takes KEY=VALUE, got {pair!r}")
        out[key.strip()] = _value(value.strip())
    return out


def _label(path: Path, record: HandRecord, index: int, count: int) -> str:
    hand = record.info.get("hand") or record.info.get("pokerstars", {}).get("hand_id")
    if hand is None and count > 1:
        hand = index + 1
    return f"{path.name} hand {hand}" if hand is not None else path.name


def _money(record: HandRecord, chips: int) -> str:
    sign = "-" if chips < 0 else ""
    if record.chip_value == 1:
        return f"{sign}{abs(chips):,}"
    symbol = {"USD": "$", "EUR": "€", "GBP": "£"}.get(record.currency or "USD", "")
    amount = f"{abs(chips) * record.chip_value:,.2f}"
    return f"{sign}{symbol}{amount}" if symbol else f"{sign}{amount} {record.currency}"


def _check(record: HandRecord, result: ReplayResult) -> list[str]:
    """What in the file the replay contradicts (:func:`studpoker.history.audit.check`), as lines to print."""
    return [str(problem) for problem in check(record, result)]


def _summary(label: str, record: HandRecord, result: ReplayResult, problems: list[str]) -> dict[str, Any]:
    state = result.state
    paid, stacks = after_rake(record, result) if not problems else (won(result, record.n), state.stacks)
    return {
        "hand": label,
        "variant": state.rules.variant.value,
        "complete": state.is_over,
        "pot": sum(a.amount for a in state.awards),
        "rake": record.rake if not problems else 0,
        "winners": [{"player": record.name(p), "amount": amount} for p, amount in enumerate(paid) if amount],
        "net": {record.name(p): stacks[p] - record.starting_stacks[p] for p in range(record.n)},
        "finishing_stacks": "absent"
        if record.finishing_stacks is None
        else ("match" if tuple(stacks) == record.finishing_stacks else "mismatch"),
        "notes": result.notes,
        "problems": problems,
    }


def _line(record: HandRecord, summary: dict[str, Any]) -> str:
    if not summary["complete"]:
        text = f"{summary['hand']}: replayed as far as the history goes (the hand is not over)"
    else:
        winners = ", ".join(
            f"{w['player']} {'win' if w['player'] == 'You' else 'wins'} {_money(record, w['amount'])}"
            for w in summary["winners"]
        )  # `stud play` names its player "You"
        rake = f", rake {_money(record, summary['rake'])}" if summary["rake"] else ""
        text = f"{summary['hand']}: pot {_money(record, summary['pot'])}{rake}; {winners}"
    net = ", ".join(f"{name} {'+' if v > 0 else ''}{_money(record, v)}" for name, v in summary["net"].items() if v)
    text += f"; net: {net or 'no change'}"
    if summary["finishing_stacks"] == "match":
        text += "; finishing stacks match"
    for note in summary["notes"]:
        text += f"\n  note: {note}"
    return text


def _hands(path: Path, fmt: str | None, errors: _Errors) -> Iterator[FileHand]:
    """The hands of a file, read one at a time; the errors of the file itself, or of its hands that cannot be read
    (with the hand's place in the file and its line), go to ``errors``, as does a file with no hand."""
    seen = False
    try:
        for hand in iter_each(path, fmt):
            seen = True
            if hand.error:  # the line is made only to be listed: a file of junk has an error a hand
                errors.add(
                    f"{path} hand {hand.number} (line {hand.line}): {_without_hand(hand.error)}"
                    if errors.count < MAX_LISTED
                    else ""
                )
            yield hand
    except HistoryFileError as error:
        errors.add(str(error))
        return
    if not seen:
        errors.add(f"{path}: no hand in it")


_READER_PREFIX = re.compile(r"^hand \d+ \(#[^)]*\)(?:, |: )|^hand \[[^\]]*\]: ")


def _without_hand(message: str | None) -> str:
    """A reader's message without its own "hand 2 (#id)" or "hand [2]" prefix (the CLI names the hand itself)."""
    return _READER_PREFIX.sub("", message or "", count=1)


def _caution(record: HandRecord) -> None:
    """Warn of what is unusual in a sign the user made with ``--rule`` (``stud`` shows each warning once); a file's
    own sign is what was played there, and no warning is the user's to act on."""
    for caution in record.rules.cautions():
        warnings.warn(caution, RulesWarning, stacklevel=2)


def _skipped_line(skipped: dict[str, int]) -> str:
    games = ", ".join(f"{game} {count}" for game, count in sorted(skipped.items()))
    total = sum(skipped.values())
    return f"{total} hand{'s' if total != 1 else ''} of other games skipped ({games})"


#: Error lines listed for one file; the rest are counted in one line (a file of junk has an error a hand).
MAX_LISTED = 20


class _Errors:
    """A file's error lines: the first :data:`MAX_LISTED` kept (or printed as they come, ``now``), the rest
    counted, so that a file of junk costs neither a line nor memory a hand."""

    def __init__(self, command: str, path: Path, *, now: bool) -> None:
        self.command, self.path, self.now = command, path, now
        self.listed: list[str] = []
        self.count = 0

    def add(self, error: str) -> None:
        """One more error."""
        self.count += 1
        if self.count <= MAX_LISTED:
            if self.now:
                print(f"stud {self.command}: error: {error}", file=sys.stderr)
            else:
                self.listed.append(error)

    def close(self) -> None:
        """Print what is kept, then how many more there were."""
        for error in self.listed:
            print(f"stud {self.command}: error: {error}", file=sys.stderr)
        self.listed = []
        if self.count > MAX_LISTED:
            more = self.count - MAX_LISTED
            print(
                f"stud {self.command}: error: {self.path}: and {more:,} more error{'s' if more != 1 else ''}"
                f" (the first {MAX_LISTED} are listed)",
                file=sys.stderr,
            )


class _Document:
    """``stud replay --json``'s document, ``json.dumps({"hands": [...], ...}, indent=2)`` to the letter, printed a
    hand at a time so that it is not held whole."""

    def __init__(self) -> None:
        self.count = 0
        self.started = False  # nothing is printed before the first hand (a bad --rule fails before it)

    def add(self, hand: dict[str, Any]) -> None:
        """One more entry of ``hands``."""
        text = json.dumps(hand, indent=2).replace("\n", "\n    ")
        sys.stdout.write(f"{self._start()}{',' if self.count else ''}\n    {text}")
        self.count += 1

    def close(self, rest: dict[str, Any]) -> None:
        """The end of ``hands``, then the other keys."""
        parts = [self._start(), "\n  ]" if self.count else "]"]
        for key, value in rest.items():
            parts.append(f",\n  {json.dumps(key)}: {json.dumps(value, indent=2).replace(chr(10), chr(10) + '  ')}")
        print("".join(parts) + "\n}")

    def _start(self) -> str:
        """The document's opening, the first time only."""
        if self.started:
            return ""
        self.started = True
        return '{\n  "hands": ['


def _replay(args: argparse.Namespace) -> int:
    overrides = _overrides(args.rule)
    failures = 0
    document = _Document() if args.json else None  # printed a hand at a time
    replayed = 0
    skipped: dict[str, int] = {}
    unreadable = 0

    def one(path: Path, original: HandRecord, index: int, many: bool) -> None:
        nonlocal failures, replayed
        label = _label(path, original, index, 2 if many else 1)
        record = original
        try:
            if args.preset or overrides:
                with warnings.catch_warnings():  # the file's sign, under a preset: said below if the user's
                    warnings.simplefilter("ignore", RulesWarning)
                    record = original.with_rules(record.rules.with_preset(args.preset, **overrides))
        except (RulesError, TypeError) as error:
            raise UsageError(f"{label}: {error}") from None
        if overrides:
            _caution(record)
        replayed += 1
        try:
            result = replay(record, label)
        except ReplayError as error:
            rule = f" (broken rule: {error.rule})" if error.rule else ""
            line = action_line(record, error.index)
            where = f" (line {line})" if line else ""
            print(f"stud replay: error: {error}{rule}{where}", file=sys.stderr)
            if document is not None:
                document.add({"hand": label, "error": str(error), "rule": error.rule, "line": line})
            failures += 1
            return
        problems = _check(record, result)
        result.notes.extend(notes(record))
        summary = _summary(label, record, result, problems)
        if document is not None:
            document.add(summary)
        else:
            print(_line(record, summary))
        for problem in problems:
            print(f"stud replay: error: {label}: {problem}", file=sys.stderr)
            failures += 1

    for path in args.files:
        errors = _Errors("replay", path, now=True)
        held: HandRecord | None = None  # a hand is replayed once the next is read: is it the file's only one?
        index = 0
        others: dict[str, int] = {}  # this file's hands of other games
        for hand in _hands(path, args.source_format, errors):
            unreadable += hand.error is not None
            if hand.skipped is not None:
                skipped[hand.skipped] = skipped.get(hand.skipped, 0) + 1
                others[hand.skipped] = others.get(hand.skipped, 0) + 1
            if hand.record is not None:
                if held is not None:
                    one(path, held, index, True)
                    index += 1
                held = hand.record
        if held is not None:
            one(path, held, index, index > 0)
        elif others and not errors.count:  # a file of other games only: nothing replayed is no success
            errors.add(f"{path}: no stud hand replayed: {_skipped_line(others)}")
        errors.close()
        failures += errors.count
    if document is not None:
        document.close({"failures": failures, "unreadable": unreadable, "skipped": skipped})
    elif skipped or unreadable:
        parts = [f"{replayed:,} hand{'s' if replayed != 1 else ''} replayed"]
        if unreadable:
            parts.append(f"{unreadable:,} could not be read")
        if skipped:
            parts.append(_skipped_line(skipped))
        print("; ".join(parts))
    return 1 if failures else 0


def _convert(args: argparse.Namespace) -> int:
    errors = _Errors("convert", args.source, now=False)
    broken: str | None = None  # the first hand that does not replay: the others are not replayed
    skipped_games: dict[str, int] = {}
    found = written = 0
    try:
        writer = HandWriter(args.target, args.target_format)
    except HistoryFileError as error:
        print(f"stud convert: error: {error}", file=sys.stderr)
        return 1
    with writer:
        held: HandRecord | None = None  # a hand is written once the next is read: is it the file's only one?
        index = 0
        for hand in _hands(args.source, args.source_format, errors):
            found += 1
            if hand.skipped is not None:
                skipped_games[hand.skipped] = skipped_games.get(hand.skipped, 0) + 1
            if hand.record is None:
                continue
            if held is not None:
                broken = broken or _convert_one(writer, args.source, held, index, True, errors.count == 0)
                index += 1
            held = hand.record
        if held is not None:
            broken = broken or _convert_one(writer, args.source, held, index, index > 0, errors.count == 0)
            written = index + 1
        if broken is not None:
            errors.add(broken)
        if errors.count:
            errors.close()
            print("stud convert: nothing written", file=sys.stderr)
            return 1
        if not written:  # every hand is of another game
            print(
                f"stud convert: error: {args.source}: no stud hand to write (its {found} are of other games)",
                file=sys.stderr,
            )
            return 1
        try:
            writer.commit()
        except HistoryFileError as error:
            print(f"stud convert: error: {error}", file=sys.stderr)
            return 1
    note = f"; {_skipped_line(skipped_games)}" if skipped_games else ""
    print(f"{written} hand{'s' if written != 1 else ''} written to {args.target}{note}")
    return 0


def _convert_one(writer: HandWriter, path: Path, record: HandRecord, index: int, many: bool, write: bool) -> str | None:
    """Replay one hand of ``stud convert`` (only hands that replay are written) and write it while nothing has
    failed; what breaks it, if anything."""
    try:
        replay(record, _label(path, record, index, 2 if many else 1))
    except ReplayError as broken:
        return str(broken)
    if write:
        try:
            writer.add(record)
        except ValueError as error:  # the target format cannot say it (a PokerStars name with a colon)
            return str(error)
    return None
