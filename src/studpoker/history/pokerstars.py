"""PokerStars text hand histories for stud: read them, check them against a replay, write any hand in their form.

* :func:`loads` / :func:`load` read every hand of a text (the PokerStars export of 7 Card Stud, 7 Card
  Stud Hi/Lo and Razz, fixed limit; 5 Card Stud as we write it) into :class:`HandRecord` objects;
* :func:`check` compares a record's replay with what its text says (every amount, the pots, the rake),
  :func:`verify` replays and checks in one call;
* :func:`dumps` writes hands as PokerStars text; a hand read from PokerStars comes out line for line.

>>> from studpoker.history import replay
>>> text = '''PokerStars Hand #1:  Razz Limit ($0.04/$0.08 USD) - 2009/11/26 10:24:42 ET
... Table 'Gotha II' 8-max
... Seat 1: Ann ($1 in chips)
... Seat 3: Bob ($1 in chips)
... Ann: posts the ante $0.01
... Bob: posts the ante $0.01
... *** 3rd STREET ***
... Dealt to Ann [Kd]
... Dealt to Bob [Ah 2h 3h]
... Ann: brings in for $0.02
... Bob: raises $0.02 to $0.04
... Ann: folds
... Uncalled bet ($0.02) returned to Bob
... Bob collected $0.06 from pot
... *** SUMMARY ***
... Total pot $0.06 | Rake $0
... Seat 1: Ann folded on the 3rd Street
... Seat 3: Bob collected ($0.06)
... '''
>>> [hand] = loads(text)
>>> hand.players, hand.seats, hand.starting_stacks, hand.chip_value
(('Ann', 'Bob'), (1, 3), (100, 100), 0.01)
>>> hand.actions[1]
Deal(player=1, cards=(Card('Ah'), Card('2h'), Card('3h')), comment='')
>>> hand.actions[3]
Bet(player=1, verb='cbr', amount=4, comment='')
>>> result = replay(hand)
>>> result.state.stacks, check(hand, result)
((97, 103), [])
>>> dumps(hand) == text
True

**Reading.** A text holds hands one after another, each from its header (``PokerStars Game #`` or
``PokerStars Hand #``, cash, 8-Game and tournament forms) to its ``*** SUMMARY ***``; a UTF-8
byte-order mark is skipped. Dollar (euro, pound) amounts become cents (``chip_value=0.01``,
``currency`` from the header); amounts without a currency sign (tournament or play chips) are
chips (``chip_value=1``). The players are those who post the ante, in seat order: PokerStars deals
stud from the lowest occupied seat up (every hand of the files does), so that is the position order
of SPEC D1.3, and the ``Dealt to`` lines must follow it; ``seats`` are the PokerStars seat numbers.
The cards dealt on a street to a player are one :class:`Deal`; a card the text does not show (other
players' down cards) is ``None``, except that a hand the summary shows as ``mucked [...]`` completes
its deals (a muck cannot carry cards, and an all-in showdown needs them, R9.2). ``shows [...]`` is a
:class:`ShowMuck` with the cards shown, ``mucks hand`` and ``doesn't show hand`` one without. Betting
lines become :class:`Bet` actions (``bets X``: complete/bet to X; ``raises X to Y``: to Y; ``calls``
and ``checks``: ``cc``; ``brings in``: ``pb``), the community card ``*** RIVER *** [Xx]`` a
:class:`Board`. Lines about the table rather than the hand (joins, leaves, chat, sitting out,
time-outs, connections, and any line PokerStars may add that does not look like an action) are kept
as :class:`Comment` actions with their text, where they stand; a line that looks like an action but
cannot be read is an error. What PokerStars derives from the hand (``Uncalled bet``, ``collected``,
``Pair on board``, ``Betting is capped``, ``No low hand qualified``, the summary) is kept in
``record.info["pokerstars"]`` for :func:`check`, with what :func:`dumps` needs to write the hand back:

``hand_id``, ``header``, ``game``, ``date``, ``table``, ``max_seats``, ``table_rest``
    the header and table lines (``table_rest``: text after ``N-max``);
``hero``, ``shown_down``
    the player whose down cards the text shows (PokerStars' "Hero"; None if nobody or several),
    and all such players;
``antes``, ``wagers``
    each player's ante line and each betting line, as ``[amount, all-in]`` and
    ``[verb, amount named, all-in]`` (a call names what it adds, ``raises X to Y`` its X);
``returned``, ``collected``, ``collections``
    ``Uncalled bet`` lines ``[player, chips]``, each player's total collected, every ``collected``
    line ``[player, chips, "pot" | "main pot" | "side pot" | "side pot-N"]``;
``total_pot``, ``rake``, ``pots``
    the summary's amounts (``pots``: ``[label, chips]`` of ``Main pot``/``Side pot`` when written);
``summary``
    per player ``[kind, amount]`` of his summary line (``folded``: the street; ``collected``,
    ``won``: the amount; ``lost``, ``mucked``);
``capped``, ``open_pair``, ``no_low``
    where the derived lines stand (after which betting line, on which street, how many);
``seat_rest``, ``seated_out``, ``bring_in``
    text after each seat line, seats not dealt in, and where the bring-in amount came from.

The record also gets PHH's optional fields ``hand``, ``table``, ``seat_count``, ``year``, ``month``,
``day``, ``time`` and ``time_zone_abbreviation``, so that a PHH copy keeps them, and the
format-neutral ``winnings`` (what each player collected, after the rake) and ``rake``, which PHH
carries as ``winnings`` and our user field ``_rake``.

**Rules.** The stakes come from the hand: small and big bet from the header, the ante from the
``posts the ante`` lines, the bring-in from ``brings in for`` (the $0.04/$0.08 games have a $0.01 ante
and a $0.02 bring-in, the $400/$800 8-Game a $60 ante and a $120 bring-in). A hand in which the
bring-in is never posted (the low card completes at once) takes it from another hand of the same text
at the same stakes, else assumes twice the ante (below the small bet); its value changes nothing in
such a hand. The options are :data:`POKERSTARS_OPTIONS`, found by replaying every hand of the files
and checking it against its text (the evidence is given there).

**Writing.** :func:`dumps` replays each hand to know what every line says. A hand read from
PokerStars keeps its header, table line, seats, hand id, date, rake and who saw which cards.
Any other hand gets ``PokerStars Hand #<hand or number>:  <game> Limit (<small>/<big> <currency>)
- <date>`` (the record's PHH date fields, else :data:`DEFAULT_DATE`), table ``'studpoker'`` unless
the record names one, the record's ``rake`` (``Rake $0`` for our own hands) taken from the pots as
:func:`check` describes, and ``Dealt to`` lines with the down cards of every player whose
down cards are all known (PokerStars shows only the hero's; the line form is the same, and reading
it back keeps the cards). Our own extensions, written as PokerStars writes its nearest cases:

* the short-deck community card (R8) as PokerStars writes it in its own 8-handed games:
  ``*** RIVER *** [Ad]`` instead of 7th-street cards, ``Board [Ad]`` in the summary; a show lists the
  player's own cards, its words count the community card;
* five-card stud as ``5 Card Stud Limit``, streets ``*** 2nd STREET ***`` to ``*** 4th STREET ***``
  and ``*** RIVER ***`` for the 5th, folds ``on the 2nd Street``; ``Pair on board`` on 3rd street;
* amounts without a currency (chips) are written bare, as PokerStars writes tournament chips.

What the format cannot say: the rule options of a hand of ours (it reads back with PokerStars' rules:
replay it under its own with ``record.with_rules(...)``); a hand id that is not a number (another room's:
the hand's place in the text is written instead); seat numbers that do not increase in
position order (PokerStars deals from the lowest seat; :func:`dumps` refuses them); shows made at an
all-in before the last cards are dealt (PokerStars shows hands in the showdown only: they are written
there and read back after the last cards); and comments that would read back as something else (left
out). Player names must be unique, without colons or line breaks.
"""

from __future__ import annotations

import datetime as dt
import re
import warnings
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from ..cards import CARDS, Card, Rank
from ..engine import (
    ActionKind,
    HandState,
    HeadsUpUncap,
    OddChipRule,
    Rules,
    RulesError,
    RulesWarning,
    Tiebreak,
    Variant,
)
from ..engine.events import ActionTaken, AntePosted, CardDealt, Returned, StreetStarted
from ..evaluation import HandCategory, evaluate_high, evaluate_low8, evaluate_razz
from .model import Bet, Board, Comment, Deal, HandRecord, HistoryAction, ShowMuck
from .payout import raked_pots
from .replay import ReplayError, ReplayResult, replay

__all__ = [
    "DEFAULT_DATE",
    "GAMES",
    "POKERSTARS_OPTIONS",
    "NotStudError",
    "PokerStarsError",
    "check",
    "dump",
    "dumps",
    "is_header",
    "load",
    "loads",
    "loads_each",
    "pokerstars_rules",
    "read_each",
    "verify",
]


class PokerStarsError(ValueError):
    """A text that is not a PokerStars stud hand history we can read, a hand that contradicts its
    replay (:func:`verify`), or a hand that cannot be written (:func:`dumps`).

    The message names the hand (its number in the text and its PokerStars id) and the line at fault.
    """


class NotStudError(PokerStarsError):
    """A hand of a game outside the four (Hold'em in an 8-Game or HORSE file...): ``game`` names it."""

    def __init__(self, message: str, game: str) -> None:
        super().__init__(message)
        self.game = game


#: The table rules of PokerStars stud, as SPEC section 2 options on top of the ``casino`` preset.
#: Each value was found by replaying the 29 hands of the PokerStars files (2009-2017) and checking
#: every line against the replay (:func:`check`):
#:
#: ``raise_cap=3``
#:     ``Betting is capped`` follows the third raise after the bet (#35874289931 on 5th street,
#:     #35874780027 on the river); with a cap of 4, or none, the replay says the betting is still open.
#: ``headsup_uncap=NEVER``
#:     both capped rounds are heads-up: in #35874780027 the river begins with two players, in
#:     #35874289931 the third folds before the raises. Either casino rule (R6.6) would uncap them.
#: ``open_pair_double_bet=None`` (the variant's default)
#:     stud high offers the double bet: ``Pair on board - a double bet is allowed`` on 4th street
#:     whenever a live hand shows a pair, and two hands bet the big bet there (#35874334277,
#:     #60974484959); stud hi/lo does not: #35874789183 has two open pairs, no such line, and a
#:     small bet. (Razz never has it, R12a.4.)
#: ``allow_fold_when_check_available=True``
#:     in #35874676388 denny501 folds on 4th street when everybody before him had checked.
#: ``later_street_tiebreak=POSITION``
#:     in razz #35874817957 kobreli (seat 1, As 6s) acts before manga130 (seat 3, Ac 6h) on 4th and
#:     5th street; by suit, manga130 would. No tie of boards in stud high or hi/lo tells them apart.
#: ``odd_chip_rule=HIGH_CARD_IN_HAND``
#:     the casino default: no pot of the files is split between tied hands, so they do not show
#:     PokerStars' odd-chip rule. (The odd chip between the high and low halves goes high: R11.5.)
#:
#: The short-deck procedure (R8) and the community card are not exercised by the files either: the
#: casino defaults stand.
POKERSTARS_OPTIONS: Final[Mapping[str, Any]] = MappingProxyType(
    {
        "raise_cap": 3,
        "headsup_uncap": HeadsUpUncap.NEVER,
        "open_pair_double_bet": None,
        "allow_fold_when_check_available": True,
        "later_street_tiebreak": Tiebreak.POSITION,
        "odd_chip_rule": OddChipRule.HIGH_CARD_IN_HAND,
    }
)


def pokerstars_rules(
    variant: Variant, ante: int, bring_in: int, small_bet: int, big_bet: int, *, max_seats: int | None = None
) -> Rules:
    """The rules of a PokerStars stud table with these stakes (:data:`POKERSTARS_OPTIONS`)."""
    options = dict(POKERSTARS_OPTIONS)
    if max_seats is not None:
        options["max_seats"] = max_seats
    with warnings.catch_warnings():  # the room's own sign: nothing to warn a reader of (``rules.cautions()`` says it)
        warnings.simplefilter("ignore", RulesWarning)
        return Rules.from_preset("casino", variant, ante, bring_in, small_bet, big_bet, **options)


#: PokerStars' game names and our variants.
GAMES: Final[Mapping[str, Variant]] = MappingProxyType(
    {
        "7 Card Stud": Variant.STUD7,
        "7 Card Stud Hi/Lo": Variant.STUD7_HL8,
        "Razz": Variant.RAZZ,
        "5 Card Stud": Variant.STUD5,
    }
)
#: The date written for a hand whose record has none (PokerStars' form: ``YYYY/MM/DD H:MM:SS ET``).
DEFAULT_DATE: Final = "2000/01/01 0:00:00 ET"

_GAME_NAMES = {v: k for k, v in GAMES.items()}
_GAMES_FOLDED = {k.lower(): v for k, v in GAMES.items()}
_CURRENCIES = {"$": "USD", "€": "EUR", "£": "GBP"}
_SYMBOLS = {v: k for k, v in _CURRENCIES.items()}
_ORDINAL = {2: "nd", 3: "rd", 4: "th", 5: "th", 6: "th", 7: "th"}

# -- the lines of a hand ------------------------------------------------------------------------------------

_HEADER = re.compile(
    r"^PokerStars (?:Game|Hand|Home Game Hand|Zoom Hand) #(?P<id>\d+): +(?P<body>.*?) - "
    r"(?P<date>\d{4}/\d{1,2}/\d{1,2} .*)$"
)
# PokerStars writes "7 Card Stud Hi/Lo Limit"; PokerTracker 2's exports of its hands "7 CARD STUD HI/LO LIMIT"
_GAME = re.compile(
    r"(?P<game>7 Card Stud Hi/Lo|7 Card Stud|5 Card Stud|Razz) (?P<limit>Limit|Pot Limit|No Limit)", re.IGNORECASE
)
#: Any game a PokerStars header can name (for saying which one a hand outside the four is).
_ANY_GAME = re.compile(
    r"(?<![\w$€£+.])(?P<game>[A-Za-z0-9][\w'/ .-]*?) (?:Fixed Limit|Pot Limit|No Limit|Limit)\b", re.IGNORECASE
)
_AMOUNT = r"[$€£]?\d+(?:\.\d+)?"
_CASH_STAKES = re.compile(rf"(?P<small>{_AMOUNT})/(?P<big>{_AMOUNT})(?: (?P<code>[A-Z]{{3}}))?\)")
_LEVEL_STAKES = re.compile(r"Level [IVXLCDM]+ \((?P<small>\d+)/(?P<big>\d+)\)", re.IGNORECASE)
_TABLE = re.compile(r"^Table '(?P<table>.*)' (?P<max>\d+)-max(?P<rest>.*)$")
_SEAT = re.compile(rf"^Seat (?P<seat>\d+): (?P<name>.+) \((?P<stack>{_AMOUNT}) in chips(?:, [^()]*)?\)(?P<rest>.*)$")
_SECTION = re.compile(r"^\*\*\* (?P<name>[^*]+?) \*\*\*(?: \[(?P<cards>[^\]]*)\])?$")
_STREETS = {"2nd STREET": 2, "3rd STREET": 3, "4th STREET": 4, "5th STREET": 5, "6th STREET": 6, "7th STREET": 7}
_DEALT = re.compile(r"^\[(?P<old>[^\]]*)\](?: \[(?P<new>[^\]]*)\])?$")
_UNCALLED = re.compile(rf"^Uncalled bet \((?P<amount>{_AMOUNT})\) returned to (?P<name>.+)$")
_COLLECTED = re.compile(rf"^ collected (?P<amount>{_AMOUNT}) from (?P<pot>pot|main pot|side pot(?:-\d+)?)$")
_ALL_IN = r"(?P<all_in> and is all-in)?"
_ACTIONS = {
    "ante": re.compile(rf"^posts the ante (?P<amount>{_AMOUNT}){_ALL_IN}$"),
    "pb": re.compile(rf"^brings in for (?P<amount>{_AMOUNT}){_ALL_IN}$"),
    "call": re.compile(rf"^calls (?P<amount>{_AMOUNT}){_ALL_IN}$"),
    "bet": re.compile(rf"^bets (?P<amount>{_AMOUNT}){_ALL_IN}$"),
    "raise": re.compile(rf"^raises (?P<amount>{_AMOUNT}) to (?P<to>{_AMOUNT}){_ALL_IN}$"),
    "check": re.compile(r"^checks$"),
    "fold": re.compile(r"^folds(?: \[[^\]]*\])?$"),
    "show": re.compile(r"^shows \[(?P<cards>[^\]]*)\](?: \(.*\))?$"),
    "muck": re.compile(r"^mucks hand$"),
    "no show": re.compile(r"^doesn't show hand$"),
}
#: The first word of an action, and its pattern's name in :data:`_ACTIONS`.
_ACTION_WORDS = {
    "posts": "ante",
    "brings": "pb",
    "calls": "call",
    "bets": "bet",
    "raises": "raise",
    "checks": "check",
    "folds": "fold",
    "shows": "show",
    "mucks": "muck",
    "doesn't": "no show",
}
#: ``NAME: ...`` lines about the player, not the hand.
_COLON_INFO = re.compile(r"^(?:is sitting out|sits out|is back|has returned|is connected|is disconnected)$")
#: Lines PokerStars derives from the hand itself (written again from the replay).
_CAPPED, _PAIR, _NO_LOW = "Betting is capped", "Pair on board - a double bet is allowed", "No low hand qualified"
_LOOKS_LIKE_ACTION = re.compile(
    r"^.+?: (?:posts|brings in|calls|bets|raises|checks|folds|shows|mucks|doesn't show)\b"
    r"|^Dealt to |^Uncalled bet |^Seat \d+:|^\*\*\*|^.+ collected [$€£]?\d|^Total pot "
)
_CHAT = re.compile(r'^.+ said, ".*"$')
_TOTAL = re.compile(
    rf"^Total pot (?P<total>{_AMOUNT})(?P<pots>(?: (?:Main pot|Side pot(?:-\d+)?) {_AMOUNT}\.)*)"
    rf" \| Rake (?P<rake>{_AMOUNT})$"
)
_POT_PART = re.compile(rf"(?P<label>Main pot|Side pot(?:-\d+)?) (?P<amount>{_AMOUNT})\.")
_SUMMARY_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<rest>.*)$")
_SUMMARY_KINDS = {
    "folded": re.compile(r"^folded on the (?P<street>[2-7](?:nd|rd|th) Street|River)(?: \(didn't bet\))?$"),
    "collected": re.compile(rf"^collected \((?P<amount>{_AMOUNT})\)$"),
    "won": re.compile(rf"^showed \[(?P<cards>[^\]]*)\] and won \((?P<amount>{_AMOUNT})\) with .*$"),
    "lost": re.compile(r"^showed \[(?P<cards>[^\]]*)\] and lost with .*$"),
    "mucked": re.compile(r"^mucked(?: \[(?P<cards>[^\]]*)\])?$"),
}
#: A card as PokerStars writes it (``Ah``, ``Tc``), and the card.
_CARD_OF: dict[str, Card] = {str(card): card for card in CARDS}
_DATE = re.compile(r"^(?P<y>\d{4})/(?P<m>\d{1,2})/(?P<d>\d{1,2}) (?P<H>\d{1,2}):(?P<M>\d{2}):(?P<S>\d{2}) (?P<tz>\w+)")


# -- reading ------------------------------------------------------------------------------------------------


def load(path: str | Path) -> list[HandRecord]:
    """Every hand of the PokerStars text file at ``path`` (UTF-8, with or without a byte-order mark)."""
    from .files import read_text

    return loads(read_text(path, PokerStarsError))


def loads(text: str) -> list[HandRecord]:
    """Every hand of a PokerStars stud hand-history text, in order (an empty text has none).

    Raises :class:`PokerStarsError` for text that is not such a history, naming the hand and the
    line (:class:`NotStudError` for a hand of another game). Reading checks what the text says of
    itself (players, cards, sections, amounts); whether the hand obeys the rules and adds up is for
    :func:`replay` and :func:`check` (both in :func:`verify`). :func:`loads_each` reads what it can.
    """
    hands = []
    for _line, hand in loads_each(text):
        if isinstance(hand, PokerStarsError):
            raise hand
        hands.append(hand)
    return hands


def loads_each(text: str) -> list[tuple[int, HandRecord | PokerStarsError]]:
    """Every hand of a text, each read on its own: the line its header is on, and its record or why it could not
    be read (a :class:`NotStudError` for a hand of another game, to skip). One bad hand spoils no other.

    >>> [(line, type(hand).__name__) for line, hand in loads_each("PokerStars Hand #1:  Hold'em Limit ($1/$2)"
    ...  " - 2017/01/21 16:58:03 ET\\nTable 'T' 6-max")]
    [(1, 'NotStudError')]
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    return list(read_each(_split_hands(text)))


#: How many hands :func:`read_each` holds back, at most, waiting for a bring-in their own text does not state.
LOOKAHEAD = 1000


def read_each(
    hands: Iterable[tuple[int, list[str] | ValueError, list[int]]], lookahead: int = LOOKAHEAD
) -> Iterator[tuple[int, HandRecord | PokerStarsError]]:
    """:func:`loads_each` of hands already split, one at a time: each is the line it starts on, its lines (stripped,
    blank ones dropped; or the error that kept them from being read) and their line numbers.

    A hand that states no bring-in takes the first one stated at its stakes in the file, so it waits for one, up to
    ``lookahead`` hands (then the bring-in is assumed); the hands come out in order, and memory does not grow with
    the file."""
    bring_ins: dict[tuple[object, ...], int] = {}
    waiting: deque[tuple[int, _Parsed | PokerStarsError]] = deque()
    for number, (start, lines, numbers) in enumerate(hands, 1):
        read: _Parsed | PokerStarsError
        if isinstance(lines, ValueError):
            read = PokerStarsError(str(lines))
        elif not is_header(lines[0]):
            read = PokerStarsError(f"line {start} ({lines[0][:60]!r}) comes before any 'PokerStars Hand #' header")
        else:
            try:
                read = _HandText(lines, number, numbers).parse()
            except PokerStarsError as error:  # kept without its traceback: a file of junk has one a hand
                read = _bare(error)
        if isinstance(read, _Parsed) and read.bring_in is not None:
            bring_ins.setdefault(read.stakes, read.bring_in)
        waiting.append((start, read))
        while waiting and (len(waiting) > lookahead or _ready(waiting[0][1], bring_ins)):
            yield _built(*waiting.popleft(), bring_ins)
    while waiting:
        yield _built(*waiting.popleft(), bring_ins)


def is_header(line: str) -> bool:
    """Whether a (stripped) line starts a hand: ``PokerStars Hand #...``, ``PokerStars Game #...``."""
    return line.startswith("PokerStars ") and " #" in line


def _ready(hand: _Parsed | PokerStarsError, bring_ins: Mapping[tuple[object, ...], int]) -> bool:
    """Whether a hand can be built now: an error, or a hand whose stakes have a known bring-in."""
    return isinstance(hand, PokerStarsError) or hand.bring_in is not None or hand.stakes in bring_ins


def _built(
    start: int, hand: _Parsed | PokerStarsError, bring_ins: Mapping[tuple[object, ...], int]
) -> tuple[int, HandRecord | PokerStarsError]:
    """A parsed hand as a record (under the first bring-in of its stakes), or the error that stops it."""
    if isinstance(hand, PokerStarsError):
        return start, hand
    try:
        return start, _Builder(hand, bring_ins.get(hand.stakes)).build()
    except PokerStarsError as error:
        return start, _bare(error)


def _split_hands(text: str) -> Iterator[tuple[int, list[str], list[int]]]:
    """The hands of a text: the line each starts on, its lines (stripped: PokerStars pads some lines with a space;
    blank lines dropped) and their line numbers. Text before the first header comes as a hand of its own."""
    current: list[str] | None = None
    numbers: list[int] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if is_header(line):
            if current is not None:
                yield numbers[0], current, numbers
            current, numbers = [line], [number]
        elif current is None:  # text before the first header: a "hand" of its own, which cannot be read
            current, numbers = [line], [number]
        else:
            current.append(line)
            numbers.append(number)
    if current is not None:
        yield numbers[0], current, numbers


@dataclass
class _Item:
    """One thing the text says happened, in its order."""

    kind: str  # street, deal, bet, show, muck, comment, showdown
    player: str = ""
    street: int = 0
    verb: str = ""  # bet: pb, cc, f or cbr
    amount: int = 0  # bet: the round total of a cbr
    stated: tuple[str, int, bool] = ("", 0, False)  # bet: the line's verb, the amount it names, all-in
    cards: tuple[Card, ...] = ()
    old: tuple[Card, ...] | None = None  # deal: the cards in the first brackets of a later street
    board: Card | None = None
    text: str = ""


@dataclass
class _Parsed:
    """A hand as its text tells it, before it becomes a :class:`HandRecord`."""

    number: int
    hand_id: str
    header: str
    date: str
    game: str
    variant: Variant
    small_bet: int
    big_bet: int
    chip_value: float
    currency: str | None
    table: str
    max_seats: int
    table_rest: str
    seats: list[tuple[int, str, int, str]]  # seat, name, stack, what follows "(... in chips)"
    antes: dict[str, tuple[int, bool]]
    items: list[_Item]
    returned: list[tuple[str, int]]
    collected: list[tuple[str, int, str]]
    total_pot: int
    rake: int
    pots: list[tuple[str, int]]
    board: Card | None
    summary: dict[str, tuple[str, tuple[Card, ...] | None, int]]  # name: kind, cards, amount (folded: street)
    bring_in: int | None
    capped: list[int]  # "Betting is capped" after these betting lines (0-based)
    open_pair: list[int]  # streets with "Pair on board - a double bet is allowed"
    no_low: int  # "No low hand qualified" lines

    @property
    def stakes(self) -> tuple[object, ...]:
        return (self.variant, self.small_bet, self.big_bet, self.currency, self.chip_value)

    def fail(self, message: str) -> PokerStarsError:
        return PokerStarsError(f"hand {self.number} (#{self.hand_id}): {message}")


class _HandText:
    """Reads the lines of one hand into a :class:`_Parsed`, checking each line on its own."""

    def __init__(self, lines: list[str], number: int, line_numbers: list[int] | None = None) -> None:
        self.lines = lines
        self.number = number
        self.line_numbers = line_numbers
        self.hand_id = "?"
        self.currency: str | None = None
        self.scale = 1
        self.names: list[str] = []

    def fail(self, message: str, line: str | None = None) -> PokerStarsError:
        where = f"hand {self.number} (#{self.hand_id})"
        if line is not None:
            if self.line_numbers is not None and line in self.lines:
                where += f", line {self.line_numbers[self.lines.index(line)]} ({line[:80]!r})"
            else:
                where += f", line {line[:80]!r}"
        return PokerStarsError(f"{where}: {message}")

    def chips(self, text: str, line: str) -> int:
        """An amount in chips (the cents of a cash game, tournament chips as they are): the digits of
        :data:`_AMOUNT`, read without a ``Fraction`` (a hand has a hundred of them)."""
        symbol = text[0] if text[0] in _CURRENCIES else ""
        if symbol and self.currency != _CURRENCIES[symbol]:
            raise self.fail(f"{text} is not in the hand's currency", line)
        whole, _, fraction = text[len(symbol) :].partition(".")
        fraction = fraction.rstrip("0")
        places = 2 if self.scale == 100 else 0
        if len(fraction) > places:
            raise self.fail(f"{text} is not a whole number of chips", line)
        return int(whole) * self.scale + (int(fraction.ljust(places, "0")) if fraction else 0)

    def cards(self, text: str, line: str) -> tuple[Card, ...]:
        out: list[Card] = []
        for token in text.split():
            card = _CARD_OF.get(token)
            if card is None:
                raise self.fail(f"{token!r} is not a card", line)
            out.append(card)
        if len(set(out)) != len(out):
            raise self.fail("the same card twice", line)
        return tuple(out)

    def player(self, text: str) -> tuple[str, str] | None:
        """The seated player whose name begins ``text`` (the longest that fits), and the rest."""
        for name in self.names:
            if text.startswith(name) and (len(text) == len(name) or text[len(name)] in ": "):
                return name, text[len(name) :]
        return None

    # -- the hand ----------------------------------------------------------------------------------------

    def parse(self) -> _Parsed:
        header = self.lines[0]
        self.parse_header(header)
        table = _TABLE.match(self.lines[1]) if len(self.lines) > 1 else None
        if table is None:
            raise self.fail(
                "the second line must be \"Table '...' N-max\"", self.lines[1] if len(self.lines) > 1 else None
            )
        index = 2
        seats: list[tuple[int, str, int, str]] = []
        while index < len(self.lines) and (seat := _SEAT.match(self.lines[index])):
            line = self.lines[index]
            if any(s[0] == int(seat["seat"]) or s[1] == seat["name"] for s in seats):
                raise self.fail("a seat or a name appears twice", line)
            seats.append((int(seat["seat"]), seat["name"], self.chips(seat["stack"], line), seat["rest"]))
            index += 1
        if not seats:
            raise self.fail("no seat lines")
        self.seats = seats
        self.names = sorted((s[1] for s in seats), key=len, reverse=True)
        self.antes: dict[str, tuple[int, bool]] = {}
        self.items: list[_Item] = []
        self.returned: list[tuple[str, int]] = []
        self.collected: list[tuple[str, int, str]] = []
        self.summary: dict[str, tuple[str, tuple[Card, ...] | None, int]] = {}
        self.total: tuple[int, int, list[tuple[str, int]]] | None = None
        self.board: Card | None = None
        self.street = 0
        self.bring_in: int | None = None
        self.contributions: dict[str, int] = {}
        self.folded: set[str] = set()
        self.section = "antes"  # antes, street, showdown, summary
        self.capped: list[int] = []
        self.open_pair: list[int] = []
        self.no_low = 0
        self.hand_won = False  # a pot was collected
        for line in self.lines[index:]:
            self.parse_line(line)
        if self.section != "summary" or self.total is None:
            raise self.fail("the hand is truncated: no '*** SUMMARY ***' with its 'Total pot ... | Rake ...' line")
        if not self.antes:
            raise self.fail("nobody posts the ante")
        if self.street == 0:
            raise self.fail("no cards are dealt (no '*** 3rd STREET ***')")
        total, rake, pots = self.total
        return _Parsed(
            number=self.number,
            hand_id=self.hand_id,
            header=header,
            date=self.date,
            game=self.game,
            variant=self.variant,
            small_bet=self.small_bet,
            big_bet=self.big_bet,
            chip_value=1 / self.scale if self.scale != 1 else 1.0,
            currency=self.currency,
            table=table["table"],
            max_seats=int(table["max"]),
            table_rest=table["rest"],
            seats=seats,
            antes=self.antes,
            items=self.items,
            returned=self.returned,
            collected=self.collected,
            total_pot=total,
            rake=rake,
            pots=pots,
            board=self.board,
            summary=self.summary,
            bring_in=self.bring_in,
            capped=self.capped,
            open_pair=self.open_pair,
            no_low=self.no_low,
        )

    def parse_header(self, header: str) -> None:
        match = _HEADER.match(header)
        if match is None:
            raise self.fail("not a PokerStars hand header ('PokerStars Hand #N: GAME (STAKES) - DATE')", header)
        self.hand_id = match["id"]
        self.date = match["date"]
        body = match["body"]
        game = _GAME.search(body)
        if game is None:
            other = _ANY_GAME.search(body)
            name = other.group(0).strip() if other else "a game studpoker does not play"
            error = self.fail(f"{name} is not one of the four stud games (7 Card Stud, Hi/Lo, Razz, 5 Card)", header)
            raise NotStudError(str(error), name)
        if game["limit"].lower() != "limit":
            name = f"{game['game']} {game['limit']}"
            error = self.fail(f"{game['limit']} stud: studpoker plays fixed-limit stud only", header)
            raise NotStudError(str(error), name)
        variant = _GAMES_FOLDED[game["game"].lower()]
        self.game = f"{_GAME_NAMES[variant]} Limit"  # PokerStars' spelling, whatever the case of the text
        self.variant = variant
        tournament = body.lower().startswith("tournament #")
        stakes = (_LEVEL_STAKES if tournament else _CASH_STAKES).search(body, game.end())
        if stakes is None:
            raise self.fail("the header names no stakes (small bet/big bet)", header)
        small, big = stakes["small"], stakes["big"]
        symbol = small[0] if small[0] in _CURRENCIES else ""
        if (big[0] if big[0] in _CURRENCIES else "") != symbol:
            raise self.fail("the stakes mix currencies", header)
        if symbol:
            self.currency = stakes.groupdict().get("code") or _CURRENCIES[symbol]
            self.scale = 100
        self.small_bet = self.chips(small, header)
        self.big_bet = self.chips(big, header)
        if not 0 < self.small_bet <= self.big_bet:
            raise self.fail("the stakes must be a small bet and a big bet at least as large", header)

    def parse_line(self, line: str) -> None:
        if self.section == "summary":
            self.parse_summary(line)
            return
        section = _SECTION.match(line) if line.startswith("*** ") else None
        if section is not None:
            self.parse_section(section["name"], section["cards"], line)
        elif line in (_CAPPED, _PAIR, _NO_LOW):
            if line == _CAPPED:
                self.capped.append(sum(1 for i in self.items if i.kind == "bet") - 1)
            elif line == _NO_LOW:
                self.no_low += 1
            elif self.street not in self.open_pair:
                self.open_pair.append(self.street)
        elif line.startswith("Dealt to "):
            self.parse_dealt(line)
        elif (uncalled := _UNCALLED.match(line)) is not None:
            name = uncalled["name"]
            if name not in self.antes:
                raise self.fail(f"chips returned to {name!r}, who is not in the hand", line)
            amount = self.chips(uncalled["amount"], line)
            self.returned.append((name, amount))
            self.contributions[name] = self.contributions.get(name, 0) - amount
        elif 'said, "' in line and _CHAT.match(line) and not any(line.startswith(n + ":") for n in self.names):
            self.items.append(_Item("comment", text=line))
        else:
            found = self.player(line)
            collected = _COLLECTED.match(found[1]) if found is not None else None
            if found is not None and collected is not None:
                if found[0] not in self.antes or self.street == 0:
                    raise self.fail(f"{found[0]} collects without being in the hand", line)
                self.collected.append((found[0], self.chips(collected["amount"], line), collected["pot"]))
                self.hand_won = True
            elif found is not None and found[1].startswith(": "):
                self.parse_action(found[0], found[1][2:], line)
            elif (found is not None and found[1].startswith(":")) or _LOOKS_LIKE_ACTION.search(line):
                # "Name:..." is how every action of a seated player starts
                raise self.fail("a line that looks like an action but cannot be read", line)
            else:
                self.items.append(_Item("comment", text=line))

    def parse_section(self, name: str, cards: str | None, line: str) -> None:
        if name == "SUMMARY":
            self.section = "summary"
            return
        if name == "SHOW DOWN":
            if self.street == 0 or self.section == "showdown":
                raise self.fail("a showdown out of place", line)
            self.section = "showdown"
            self.items.append(_Item("showdown"))
            return
        first, last = (2, 5) if self.variant is Variant.STUD5 else (3, 7)
        street = last if name == "RIVER" else _STREETS.get(name)
        if street is None:
            raise self.fail(f"an unknown section {name!r}", line)
        expected = first if self.street == 0 else self.street + 1
        if street != expected or self.section == "showdown" or self.hand_won:
            raise self.fail(f"a street out of order (street {expected} is next)", line)
        board = None
        if cards is not None:
            dealt = self.cards(cards, line)
            if street != last or len(dealt) != 1:
                raise self.fail("only the last street may show one community card", line)
            board = self.board = dealt[0]
        self.street = street
        self.section = "street"
        self.contributions = {}
        self.items.append(_Item("street", street=street, board=board))

    def parse_dealt(self, line: str) -> None:
        found = self.player(line[len("Dealt to ") :])
        if found is None or not found[1].startswith(" ["):
            raise self.fail("cards dealt to somebody who is not seated here", line)
        name, rest = found
        dealt = _DEALT.match(rest[1:])
        if dealt is None or self.section != "street" or self.hand_won:
            raise self.fail("a 'Dealt to' line out of place or unreadable", line)
        if name not in self.antes or name in self.folded:
            raise self.fail(f"{name} is dealt cards without being in the hand", line)
        if dealt["new"] is None:
            old, new = None, self.cards(dealt["old"], line)
        else:
            old, new = self.cards(dealt["old"], line), self.cards(dealt["new"], line)
        self.items.append(_Item("deal", player=name, street=self.street, cards=new, old=old, text=line))

    def parse_action(self, name: str, text: str, line: str) -> None:
        kind_of = _ACTION_WORDS.get(text.partition(" ")[0])  # the verb says which pattern to try
        matched = _ACTIONS[kind_of].match(text) if kind_of is not None else None
        found = (kind_of, matched.groupdict()) if kind_of is not None and matched is not None else None
        if found is None:
            if _COLON_INFO.match(text):
                self.items.append(_Item("comment", text=line))
                return
            raise self.fail("an action that cannot be read", line)
        kind, groups = found
        all_in = bool(groups.get("all_in"))
        amount = self.chips(groups["amount"], line) if groups.get("amount") else 0
        if kind == "ante":
            if self.street != 0 or name in self.antes:
                raise self.fail("an ante out of place", line)
            self.antes[name] = (amount, all_in)
            return
        if name not in self.antes:
            raise self.fail(f"{name} acts without being dealt in", line)
        if kind in ("show", "muck", "no show"):
            if self.section != "showdown" and not self.hand_won:
                raise self.fail("a show or muck before the betting is over", line)
            shown = self.cards(groups["cards"], line) if kind == "show" else ()
            self.items.append(_Item("show" if kind == "show" else "muck", player=name, cards=shown, text=line))
            return
        if self.section != "street" or self.hand_won:
            raise self.fail("a betting action outside a betting round", line)
        if name in self.folded:
            raise self.fail(f"{name} acts after folding", line)
        mine = self.contributions.get(name, 0)
        if kind == "pb":
            if any(i.kind == "bet" and i.street == self.street for i in self.items) or self.street > 3:
                raise self.fail("a bring-in that is not the first action of the first street", line)
            if not all_in:
                self.bring_in = amount
            verb, total, stated = "pb", amount, ("brings in", amount, all_in)
        elif kind == "call":
            verb, total, stated = "cc", mine + amount, ("calls", amount, all_in)
        elif kind == "check":
            verb, total, stated = "cc", mine, ("checks", 0, False)
        elif kind == "fold":
            verb, total, stated = "f", mine, ("folds", 0, False)
            self.folded.add(name)
        elif kind == "bet":
            verb, total, stated = "cbr", mine + amount, ("bets", amount, all_in)
        else:
            verb, total, stated = "cbr", self.chips(groups["to"], line), ("raises", amount, all_in)
        if verb == "cbr" and total <= 0:
            raise self.fail("a wager of nothing", line)
        self.contributions[name] = total
        self.items.append(
            _Item("bet", player=name, street=self.street, verb=verb, amount=total, stated=stated, text=line)
        )

    def parse_summary(self, line: str) -> None:
        total = _TOTAL.match(line)
        if total is not None:
            if self.total is not None:
                raise self.fail("two 'Total pot' lines", line)
            pots = [(m["label"], self.chips(m["amount"], line)) for m in _POT_PART.finditer(total["pots"])]
            self.total = (self.chips(total["total"], line), self.chips(total["rake"], line), pots)
            return
        if line.startswith("Board [") and line.endswith("]"):
            board = self.cards(line[len("Board [") : -1], line)
            if len(board) != 1 or board[0] != self.board:
                raise self.fail("the summary's board is not the community card dealt", line)
            return
        seat = _SUMMARY_SEAT.match(line)
        if seat is None:
            return  # other summary lines say nothing we use
        entry = next((s for s in self.seats if s[0] == int(seat["seat"])), None)
        if entry is None or entry[1] not in self.antes or not seat["rest"].startswith(entry[1] + " "):
            raise self.fail("a summary line for a seat that is not in the hand", line)
        name, rest = entry[1], seat["rest"][len(entry[1]) + 1 :]
        found = _first_match(_SUMMARY_KINDS, rest)
        if found is None:
            raise self.fail("a summary line that cannot be read", line)
        kind, groups = found
        cards = self.cards(groups["cards"], line) if groups.get("cards") else None
        value = self.chips(groups["amount"], line) if groups.get("amount") else 0
        if kind == "folded":
            street = groups["street"]
            value = (5 if self.variant is Variant.STUD5 else 7) if street == "River" else int(street[0])
        if name in self.summary:
            raise self.fail(f"two summary lines for {name}", line)
        self.summary[name] = (kind, cards, value)


def _first_match(patterns: Mapping[str, re.Pattern[str]], text: str) -> tuple[str, dict[str, Any]] | None:
    """The first pattern that matches ``text``: its name and its groups."""
    for kind, pattern in patterns.items():
        match = pattern.match(text)
        if match is not None:
            return kind, match.groupdict()
    return None


@dataclass
class _Dealt:
    """A deal whose cards are not final yet: the player and his card slots (see :class:`_Builder`)."""

    player: int
    slots: list[int]


class _Builder:
    """Turns a :class:`_Parsed` hand into a :class:`HandRecord`: players in position order, the cards
    of each player in dealing order (completed by the summary's mucked hands), actions, rules."""

    def __init__(self, parsed: _Parsed, bring_in: int | None) -> None:
        self.p = parsed
        self.bring_in = bring_in
        five = parsed.variant is Variant.STUD5
        self.first, self.last = (2, 5) if five else (3, 7)
        self.downs = 1 if five else 2

    def fail(self, message: str) -> PokerStarsError:
        return self.p.fail(message)

    def build(self) -> HandRecord:
        p = self.p
        self.order_players()
        rules = self.rules()
        actions = self.actions()
        self.fill_from_summary()
        self.check_showdown()
        self.check_duplicates()
        final = tuple(
            Deal(a.player, tuple(self.slots[a.player][i][0] for i in a.slots)) if isinstance(a, _Dealt) else a
            for a in actions
        )
        index = self.index
        collected = [0] * len(self.players)
        for name, amount, _ in p.collected:
            collected[index[name]] += amount
        shown_down = sorted(index[n] for n in self.shown_down)
        data: dict[str, Any] = {
            "hand_id": p.hand_id,
            "header": p.header,
            "game": p.game,
            "date": p.date,
            "table": p.table,
            "max_seats": p.max_seats,
            "table_rest": p.table_rest,
            "hero": shown_down[0] if len(shown_down) == 1 else None,
            "shown_down": shown_down,
            "antes": [list(p.antes[n]) for n in self.players],
            "wagers": [list(i.stated) for i in p.items if i.kind == "bet"],
            "returned": [[index[n], a] for n, a in p.returned],
            "collected": collected,
            "collections": [[index[n], a, label] for n, a, label in p.collected],
            "total_pot": p.total_pot,
            "rake": p.rake,
            "pots": [[label, a] for label, a in p.pots],
            "summary": [[p.summary[n][0], p.summary[n][2]] if n in p.summary else None for n in self.players],
            "capped": p.capped,
            "open_pair": p.open_pair,
            "no_low": p.no_low,
            "seat_rest": [self.seat_of[n][3] for n in self.players],
            "seated_out": [list(s) for s in p.seats if s[1] not in index],
            "bring_in": self.bring_in_source,
        }
        info = {"hand": int(p.hand_id), "table": p.table, "seat_count": p.max_seats, **_date_fields(p.date)}
        info["pokerstars"] = data
        return HandRecord(
            rules=rules,
            starting_stacks=tuple(self.seat_of[n][2] for n in self.players),
            actions=final,
            players=tuple(self.players),
            seats=tuple(self.seat_of[n][0] for n in self.players),
            winnings=tuple(collected),
            rake=p.rake,
            currency=p.currency,
            chip_value=p.chip_value,
            info=info,
        )

    def order_players(self) -> None:
        """Position order (D1.3): PokerStars deals stud from the lowest occupied seat up, so player 0
        is the first seat dealt in (the player who posts an ante); the ``Dealt to`` lines must agree."""
        p = self.p
        self.seat_of = {s[1]: s for s in p.seats}
        self.players = [s[1] for s in sorted(p.seats) if s[1] in p.antes]
        self.index = {name: i for i, name in enumerate(self.players)}
        if len(self.players) < 2:
            raise self.fail("a hand needs at least two players dealt in")
        dealt = [i.player for i in p.items if i.kind == "deal" and i.street == self.first]
        if dealt != [n for n in self.players if n in dealt]:
            raise self.fail("the first street is not dealt in seat order (PokerStars deals from the lowest seat)")

    def rules(self) -> Rules:
        p = self.p
        full = [a for a, all_in in p.antes.values() if not all_in]
        ante = max(full) if full else max(a for a, _ in p.antes.values())
        if self.bring_in is not None:
            bring_in = self.bring_in
            self.bring_in_source = "hand" if p.bring_in is not None else "text"
        else:  # never posted in this text: twice the ante, below the small bet (it changes nothing here)
            bring_in = 2 * ante if 2 * ante < p.small_bet else max(1, p.small_bet // 2)
            self.bring_in_source = "assumed"
        try:
            rules = pokerstars_rules(p.variant, ante, bring_in, p.small_bet, p.big_bet, max_seats=p.max_seats)
        except RulesError as error:
            raise self.fail(f"not the stakes of a stud table: {error}") from None
        if len(self.players) > (rules.max_seats or 0):
            raise self.fail(f"{len(self.players)} players dealt in at a {p.max_seats}-max table")
        for name in self.players:
            if self.seat_of[name][2] < rules.chip_unit:
                raise self.fail(f"{name} is dealt in without chips")
        return rules

    def actions(self) -> list[HistoryAction | _Dealt]:
        """The record's actions in the order of the text; deals as :class:`_Dealt` until the summary
        has completed the cards."""
        index = self.index
        self.slots: list[list[tuple[Card | None, bool]]] = [[] for _ in self.players]  # (card, face up)
        self.shown_down: set[str] = set()
        self.shows: list[tuple[int, tuple[Card, ...]]] = []
        out: list[HistoryAction | _Dealt] = []
        live = set(self.players)
        street = block = 0  # block: where the street's actions begin in ``out``
        dealt: set[str] = set()
        open_deal = False  # the street's dealing is not closed yet

        def close() -> None:
            """The street's dealing is over: a live player without a ``Dealt to`` line got cards nobody
            saw, placed among the street's deals in position order."""
            nonlocal open_deal
            if not open_deal:
                return
            open_deal = False
            for name in self.players:
                if name not in live or name in dealt:
                    continue
                player = index[name]
                deals = [k for k in range(block, len(out)) if isinstance(out[k], _Dealt)]
                later = [k for k in deals if getattr(out[k], "player", -1) > player]
                at = later[0] if later else (deals[-1] + 1 if deals else len(out))
                out.insert(at, _Dealt(player, self.deal(name, street, None)))

        for item in self.p.items:
            if item.kind == "street":
                close()
                street, block, dealt = item.street, len(out), set()
                if item.board is not None:
                    out.append(Board(item.board))
                else:
                    open_deal = True
                continue
            if item.kind == "deal":
                if not open_deal or item.player in dealt or item.player not in live:
                    raise self.fail(f"{item.player} is dealt cards out of place: {item.text!r}")
                dealt.add(item.player)
                out.append(_Dealt(index[item.player], self.deal(item.player, street, item)))
                continue
            close()
            if item.kind == "bet":
                out.append(Bet(index[item.player], item.verb, item.amount if item.verb == "cbr" else 0))
                if item.verb == "f":
                    live.discard(item.player)
            elif item.kind == "show":
                out.append(ShowMuck(index[item.player], item.cards))
                self.shows.append((index[item.player], item.cards))
            elif item.kind == "muck":
                out.append(ShowMuck(index[item.player], None))
            elif item.kind == "comment":
                out.append(Comment(item.text))
        close()
        return out

    def deal(self, name: str, street: int, item: _Item | None) -> list[int]:
        """Record one street's cards of ``name`` (``item`` None: cards nobody saw); their slots."""
        slots = self.slots[self.index[name]]
        start = len(slots)
        if street == self.first:
            cards: list[Card | None]
            if item is None:
                cards = [None] * (self.downs + 1)
            elif len(item.cards) == self.downs + 1:
                cards = list(item.cards)
                self.shown_down.add(name)
            elif len(item.cards) == 1:
                cards = [None] * self.downs + [item.cards[0]]
            else:
                raise self.fail(f"{name} is dealt {len(item.cards)} cards on the first street: {item.text!r}")
            slots += [(c, i == self.downs) for i, c in enumerate(cards)]
            return list(range(start, len(slots)))
        face_up = street != self.last or self.p.variant is Variant.STUD5
        if item is None:
            slots.append((None, face_up))
            return [start]
        if item.old is None or len(item.cards) != 1:
            raise self.fail(f"a later street deals one new card after the earlier ones: {item.text!r}")
        visible = [i for i, (_, up) in enumerate(slots) if up or name in self.shown_down]
        if len(item.old) != len(visible):
            raise self.fail(f"{name}'s earlier cards are not {_card_text(item.old)}: {item.text!r}")
        for i, card in zip(visible, item.old, strict=True):
            known, up = slots[i]
            if known is not None and known != card:
                raise self.fail(f"{name}'s earlier cards are not {_card_text(item.old)}: {item.text!r}")
            slots[i] = (card, up)
        slots.append((item.cards[0], face_up))
        return [start]

    def fill_from_summary(self) -> None:
        """Hands the summary shows must agree with the cards dealt; a mucked hand's cards complete the
        deals (a muck cannot carry them, and a replay may need them: R9.2)."""
        for name, (kind, cards, _) in self.p.summary.items():
            if cards is None:
                continue
            slots = self.slots[self.index[name]]
            if len(cards) != len(slots):
                if kind == "mucked":
                    raise self.fail(f"the summary shows {len(cards)} cards for {name}, who was dealt {len(slots)}")
                continue  # a show of part of the hand
            for i, card in enumerate(cards):
                known, up = slots[i]
                if known is not None and known != card:
                    raise self.fail(f"the summary shows {name} holding {card} where {known} was dealt")
                if kind == "mucked":
                    slots[i] = (card, up)

    def check_showdown(self) -> None:
        """The summary says ``showed [...]`` of exactly the players who show in the showdown, with the
        cards they show there."""
        shown: dict[str, tuple[Card, ...]] = {}
        showdown = False
        for item in self.p.items:
            showdown = showdown or item.kind == "showdown"
            if showdown and item.kind == "show":
                shown[item.player] = item.cards
        for name in self.players:
            kind, cards, _ = self.p.summary.get(name, ("", None, 0))
            if (kind in ("won", "lost")) != (name in shown) or (name in shown and cards != shown[name]):
                raise self.fail(f"the summary and the showdown disagree on what {name} showed")

    def check_duplicates(self) -> None:
        """No card may be in two places (the deals, the community card, the hands shown)."""
        where: dict[Card, str] = {}
        if self.p.board is not None:
            where[self.p.board] = "the board"
        for player, slots in enumerate(self.slots):
            cards = [c for c, _ in slots]
            for shown_by, shown in self.shows:
                if shown_by == player and len(shown) == len(cards):
                    cards = [c if c is not None else s for c, s in zip(cards, shown, strict=True)]
            for card in cards:
                if card is not None and card in where:
                    raise self.fail(f"{card} is dealt twice ({where[card]} and {self.players[player]})")
                if card is not None:
                    where[card] = self.players[player]


def _date_fields(text: str) -> dict[str, Any]:
    """The hand's date and time (the first written) as PHH's optional fields."""
    match = _DATE.match(text)
    if match is None:
        return {}
    try:
        y, m, d, hh, mm, ss = (int(match[k]) for k in "ymdHMS")
        when = dt.datetime(y, m, d, hh, mm, ss)
    except ValueError:
        return {}
    return {
        "year": when.year,
        "month": when.month,
        "day": when.day,
        "time": when.time(),
        "time_zone_abbreviation": match["tz"],
    }


# -- the replay as PokerStars accounts for it -----------------------------------------------------------------


@dataclass
class _Account:
    """What a replay says PokerStars writes: every betting line's verb and amount, the uncalled bets,
    where the betting is capped and the double bet offered, and who collects what from which pot once
    the rake is taken.

    ``wagers[k]`` belongs to the record's k-th :class:`Bet`: (verb, amount named, all-in); a call
    names what it adds, a raise what it adds to the amount to call (``raises X to Y``), a bet or a
    bring-in its amount. ``returned[k]``: the uncalled chips returned after it.
    """

    antes: list[tuple[int, bool]]
    wagers: list[tuple[str, int, bool]]
    returned: list[list[tuple[int, int]]]
    capped: list[int]  # betting lines after which the betting is capped
    open_pair: list[int]  # streets whose betting round offers the double bet
    gross: list[int]  # each pot before the rake
    rake: list[int]  # the rake taken from each pot
    payouts: list[list[tuple[int, int]]]  # per pot: (player, chips) in the order of the awards
    eligible: list[tuple[int, ...]]  # per pot: who can win it
    folded_on: dict[int, int]  # player: the street of his fold
    voluntary: set[int]  # players who put chips in on the first street (bring-in included)
    showdown: bool  # two or more hands reached the end
    no_low: list[bool]  # per pot: a contested stud hi/lo pot without a qualifying low


def _account(record: HandRecord, state: HandState, rake: int) -> _Account:
    """The :class:`_Account` of a finished replay, with ``rake`` taken from its pots."""
    rules = state.rules
    small, big, n = rules.small_bet, rules.big_bet, state.n
    record_bets = [a for a in record.actions if isinstance(a, Bet)]
    antes: list[tuple[int, bool]] = [(0, False)] * n
    wagers: list[tuple[str, int, bool]] = []
    returned: list[list[tuple[int, int]]] = []
    capped: list[int] = []
    open_pair: list[int] = []
    folded_on: dict[int, int] = {}
    voluntary: set[int] = set()
    pair_street = 3 if rules.variant is Variant.STUD5 else 4
    up: list[list[Card | None]] = [[] for _ in range(n)]
    folded = [False] * n
    stacks = list(state.starting_stacks)
    bets, excess = [0] * n, [0] * n  # excess: what the replayer put in beyond the record (see below)
    street = to_call = full = raises = active_start = 0
    opened = big_wager = pair = pair_known = False
    inc = small
    for event in state.events:
        if isinstance(event, AntePosted):
            antes[event.player] = (event.amount, event.all_in)
            stacks[event.player] -= event.amount
        elif isinstance(event, StreetStarted):
            street, bets, excess = event.street, [0] * n, [0] * n
            to_call = full = raises = 0
            opened = big_wager = pair = pair_known = False
            inc = small if street - state.first_street < 2 else big
            active_start = sum(1 for p in range(n) if not folded[p] and stacks[p] > 0)
        elif isinstance(event, CardDealt) and event.face_up:
            up[event.player].append(event.card)
        elif isinstance(event, Returned):
            stacks[event.player] += event.amount
            chips = event.amount - excess[event.player]
            excess[event.player] = 0
            if returned and chips > 0:
                returned[-1].append((event.player, chips))
        elif isinstance(event, ActionTaken) and event.action.kind not in (ActionKind.SHOW, ActionKind.MUCK):
            p, kind, amount = event.player, event.action.kind, event.action.amount
            if not pair_known:  # by its first action the round's cards are all dealt (R6.14)
                pair_known = True
                pair = (
                    street == pair_street
                    and bool(rules.open_pair_double_bet)
                    and any(_paired(u) for q, u in enumerate(up) if not folded[q])
                )
                if pair:
                    open_pair.append(street)
            before = bets[p]
            if kind is ActionKind.FOLD:
                wagers.append(("folds", 0, False))
                folded[p] = True
                folded_on[p] = street
            elif kind is ActionKind.CHECK:
                wagers.append(("checks", 0, False))
            elif kind is ActionKind.CALL:
                wagers.append(("calls", amount - before, event.all_in))
            elif kind is ActionKind.BRING_IN:
                wagers.append(("brings in", amount, event.all_in))
                to_call = max(to_call, rules.bring_in)
                if rules.bring_in == small and amount == small:
                    opened, full = True, amount
            else:
                k = len(wagers)
                if k < len(record_bets) and record_bets[k].verb == "cbr" and record_bets[k].amount < amount:
                    # A wager for less than a full raise that covers every opponent is replayed as the
                    # smallest legal one (replay.py; data README, 85_FR.phh): the text says what the
                    # record says, and the replay's extra chips are not returned in it.
                    excess[p] = amount - record_bets[k].amount
                    amount = record_bets[k].amount
                wagers.append(("bets" if to_call == 0 else "raises", amount - (to_call or before), event.all_in))
                start = full if opened else 0
                if 2 * (amount - start) >= (small if street == state.first_street and not opened else inc):
                    if opened:  # a full raise (R6.5, R6.12)
                        raises += 1
                        if raises == rules.raise_cap and _cap_binds(rules, active_start, stacks, folded):
                            capped.append(k)
                    opened, full = True, amount
                    if pair and not big_wager and amount - start >= big > small:
                        big_wager, inc = True, big
                to_call = max(to_call, amount)
            if kind not in (ActionKind.FOLD, ActionKind.CHECK):
                if street == state.first_street:
                    voluntary.add(p)
                stacks[p] -= amount + excess[p] - before
                bets[p] = amount
            returned.append([])
    live = [not state.folded(p) for p in range(n)]
    pots, gross, by_pot, shares, payouts = raked_pots(state, rake)
    count = len(gross)
    everyone = tuple(p for p in range(n) if live[p])
    eligible = [pots[i].eligible if i < len(pots) else everyone for i in range(count)]
    showdown = len(everyone) >= 2
    no_low = [
        rules.variant is Variant.STUD7_HL8
        and showdown
        and len(eligible[i]) > 1
        and not any(share in ("low", "split") for _, _, share in by_pot[i])
        for i in range(count)
    ]
    return _Account(
        antes,
        wagers,
        returned,
        capped,
        open_pair,
        gross,
        shares,
        payouts,
        eligible,
        folded_on,
        voluntary,
        showdown,
        no_low,
    )


def _paired(up: Sequence[Card | None]) -> bool:
    """A board whose first two up cards pair (the 4th-street open pair, R6.14)."""
    return len(up) >= 2 and up[0] is not None and up[1] is not None and up[0].rank == up[1].rank


def _cap_binds(rules: Rules, active_start: int, stacks: Sequence[int], folded: Sequence[bool]) -> bool:
    """Whether the raise cap, once reached, stops the raising (R6.6)."""
    if rules.headsup_uncap is HeadsUpUncap.NEVER:
        return True
    if rules.headsup_uncap is HeadsUpUncap.ROUND_BEGINS_HEADSUP:
        return active_start != 2
    return sum(1 for p, s in enumerate(stacks) if not folded[p] and s > 0) >= 3


# -- checking -------------------------------------------------------------------------------------------------


def check(record: HandRecord, result: ReplayResult) -> list[str]:
    """What a hand's text says that its replay contradicts, one sentence each; empty if nothing.

    ``result`` is ``replay(record)``. Compared with the text (``record.info["pokerstars"]``): each
    ante; what every betting line says (check or call and how much, the bring-in, what a bet or a
    raise adds, all-ins); the uncalled bets returned; where the text says ``Betting is capped``,
    ``Pair on board - a double bet is allowed`` and ``No low hand qualified``; every ``collected``
    line (who, how much, from which pot); the total pot, the rake, the main and side pots; and each
    summary seat line (the street of a fold, the amount won). A record without PokerStars data has
    nothing to compare: ``[]``.

    **The rake.** The engine knows nothing of it. PokerStars takes it from the pots before paying
    them, so that the total pot less the rake is exactly what the players collect. Which pot pays
    what is our reading of the files: each pot pays a share of the rake in proportion to its size,
    the cents left over going to the largest remainders (the main pot first on a tie); what is left
    of a pot is then divided as the rules divide it (R11.5: the high half rounded up; odd chips by
    R11.6) among the same winners. The evidence: every split hi/lo pot of the files is divided after
    the rake ($0.76 with $0.03 rake pays $0.37 high and $0.36 low; $0.84 with $0.04 pays $0.40 and
    $0.40), and the one hand with a side pot (#60974484959: $0.44 main, $0.64 side, $0.05 rake) pays
    $0.42 and $0.61. The files do not pin the side-pot rule down: "the main pot at 5%, the side pot
    the rest" gives the same cents, and no hand has two side pots, a tie for the leftover cent, or a
    side pot won by another player than the main pot.
    """
    data = record.info.get("pokerstars")
    if not isinstance(data, Mapping):
        return []
    state = result.state
    if not state.is_over:
        return ["the replay stops before the end of the hand (unknown cards or missing actions)"]
    try:
        return _Check(record, state, data).run()
    except (LookupError, TypeError, ValueError) as error:  # data in info that is not what loads() writes
        return [f"the PokerStars data of this record cannot be read: {error!r}"]


def verify(record: HandRecord, label: str = "") -> ReplayResult:
    """Replay a hand read from PokerStars text and :func:`check` it: :class:`ReplayError` if it breaks a
    rule, :class:`PokerStarsError` listing every difference if its text says otherwise."""
    hand = record.info.get("pokerstars", {}).get("hand_id", "?")
    label = label or f"hand #{hand}"
    result = replay(record, label)
    problems = check(record, result)
    if problems:
        raise PokerStarsError(f"{label} does not match its replay: " + "; ".join(problems))
    return result


class _Check:
    """The comparisons of :func:`check`."""

    def __init__(self, record: HandRecord, state: HandState, data: Mapping[str, Any]) -> None:
        self.record, self.data = record, data
        self.names = [record.name(p) for p in range(record.n)]
        self.money = _Money(record.currency, record.chip_value)
        self.account = _account(record, state, int(data.get("rake", 0)))
        self.problems: list[str] = []

    def differ(self, what: str, text: object, replayed: object) -> None:
        self.problems.append(f"{what}: the text says {text}, the replay {replayed}")

    def run(self) -> list[str]:
        self.lines()
        self.money_lines()
        self.summary()
        return self.problems

    def lines(self) -> None:
        """Antes, betting lines, uncalled bets and the lines PokerStars derives from them."""
        data, account, names, money = self.data, self.account, self.names, self.money
        for p, (ante, posted) in enumerate(zip(data.get("antes", []), account.antes, strict=False)):
            if tuple(ante) != posted:
                self.differ(f"{names[p]}'s ante", _ante_words(ante, money), _ante_words(posted, money))
        bets = [a for a in self.record.actions if isinstance(a, Bet)]
        wagers = [tuple(w) for w in data.get("wagers", [])]
        if len(wagers) != len(account.wagers):
            self.differ("the number of betting lines", len(wagers), len(account.wagers))
        for k, (stated, derived) in enumerate(zip(wagers, account.wagers, strict=False)):
            if stated != derived and k < len(bets):
                to = bets[k].amount
                self.differ(
                    f"betting line {k + 1} ({names[bets[k].player]})",
                    _wager_words(stated, to, money),
                    _wager_words(derived, to, money),
                )
        stated_returns = [(int(p), int(a)) for p, a in data.get("returned", [])]
        derived_returns = [r for rs in account.returned for r in rs]
        if stated_returns != derived_returns:
            self.differ(
                "the uncalled bets", _returns(stated_returns, names, money), _returns(derived_returns, names, money)
            )
        if list(data.get("capped", [])) != account.capped:
            stated_capped = [k + 1 for k in data.get("capped", [])]
            self.differ("'Betting is capped' (after betting lines)", stated_capped, [k + 1 for k in account.capped])
        if list(data.get("open_pair", [])) != account.open_pair:
            self.differ("'Pair on board' (streets)", list(data.get("open_pair", [])), account.open_pair)
        if int(data.get("no_low", 0)) != sum(account.no_low):
            self.differ("the 'No low hand qualified' lines", int(data.get("no_low", 0)), sum(account.no_low))

    def money_lines(self) -> None:
        """Who collects what from which pot, the total pot, the rake and the pots of the summary."""
        data, account, names, money = self.data, self.account, self.names, self.money
        total, rake = int(data.get("total_pot", 0)), int(data.get("rake", 0))
        if total != sum(account.gross):
            self.differ("the total pot", money(total), money(sum(account.gross)))
        collections = [(int(p), int(a), str(label)) for p, a, label in data.get("collections", [])]
        paid = sum(a for _, a, _ in collections)
        if total - rake != paid:
            self.problems.append(
                f"the players collect {money(paid)}, not the total pot less the rake ({money(total - rake)})"
            )
        derived: dict[tuple[int, int], int] = {}
        for pot, payouts in enumerate(account.payouts):
            for player, chips in payouts:
                derived[player, pot] = chips
        stated: dict[tuple[int, int], int] = {}
        for player, chips, label in collections:
            index = _pot_index(label)
            if index is None or (label == "pot") != (len(account.gross) == 1):
                self.problems.append(
                    f"{names[player]} collects from the {label}, but the replay has {len(account.gross)} pots"
                )
                continue
            stated[player, index] = stated.get((player, index), 0) + chips
        if stated != derived:
            self.differ("the pots collected", _collections(stated, names, money), _collections(derived, names, money))
        stated_pots = [(str(label), int(a)) for label, a in data.get("pots", [])]
        if stated_pots:
            derived_pots = [
                (_pot_label(i, len(account.gross)), g - r)
                for i, (g, r) in enumerate(zip(account.gross, account.rake, strict=True))
            ]
            if stated_pots != derived_pots:
                self.differ("the pots", _pot_words(stated_pots, money), _pot_words(derived_pots, money))

    def summary(self) -> None:
        """Each summary seat line: the street of a fold, what a player won."""
        account, names, money = self.account, self.names, self.money
        won = [0] * self.record.n
        for payouts in account.payouts:
            for player, chips in payouts:
                won[player] += chips
        for p, entry in enumerate(self.data.get("summary", [])):
            if entry is None:
                self.problems.append(f"the summary has no line for {names[p]}")
                continue
            kind, value = str(entry[0]), int(entry[1])
            fold = account.folded_on.get(p)
            if kind == "folded" and fold != value:
                self.differ(f"the street {names[p]} folded on", value, fold if fold is not None else "no fold")
            elif kind != "folded" and fold is not None:
                self.differ(f"{names[p]}'s summary", repr(kind), f"a fold on street {fold}")
            elif kind in ("collected", "won") and value != won[p]:
                self.differ(f"what {names[p]} won (summary)", money(value), money(won[p]))
            elif kind in ("lost", "mucked") and won[p]:
                self.differ(f"what {names[p]} won (summary)", f"nothing ({kind})", money(won[p]))


def _pot_index(label: str) -> int | None:
    if label in ("pot", "main pot"):
        return 0
    if label == "side pot":
        return 1
    if label.startswith("side pot-") and label[len("side pot-") :].isdigit():
        return int(label[len("side pot-") :])
    return None


def _pot_label(pot: int, count: int) -> str:
    """``Main pot``, ``Side pot`` (there is one), ``Side pot-N`` (there are several)."""
    if pot == 0:
        return "Main pot"
    return "Side pot" if count == 2 else f"Side pot-{pot}"


def _ante_words(ante: Sequence[Any], money: _Money) -> str:
    return money(int(ante[0])) + (" (all-in)" if ante[1] else "")


def _wager_words(wager: Sequence[Any], to: int, money: _Money) -> str:
    verb, amount, all_in = str(wager[0]), int(wager[1]), bool(wager[2])
    if verb in ("checks", "folds"):
        words = verb
    elif verb == "raises":
        words = f"raises {money(amount)} to {money(to)}"
    else:
        words = f"{verb}{' for' if verb == 'brings in' else ''} {money(amount)}"
    return repr(words + (" and is all-in" if all_in else ""))


def _returns(returns: Sequence[tuple[int, int]], names: Sequence[str], money: _Money) -> str:
    return ", ".join(f"{money(a)} to {names[p]}" for p, a in returns) or "none"


def _collections(pots: Mapping[tuple[int, int], int], names: Sequence[str], money: _Money) -> str:
    return ", ".join(f"{names[p]} {money(a)} from pot {pot + 1}" for (p, pot), a in sorted(pots.items())) or "none"


def _pot_words(pots: Sequence[tuple[str, int]], money: _Money) -> str:
    return ", ".join(f"{label} {money(a)}" for label, a in pots)


# -- hands in words -------------------------------------------------------------------------------------------

_WORD = ("Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace")
_WORDS = tuple(w + ("es" if w == "Six" else "s") for w in _WORD)
_LOW_CHARS = "23456789TJQKA"


def _high_words(cards: Sequence[Card]) -> str:
    """A high hand as PokerStars words it: ``a pair of Tens``, ``a straight, Ten to Ace``,
    ``a full house, Fives full of Aces``; fewer than five cards by their pairs (``three of a kind, Aces``)."""
    if len(cards) >= 5:
        hand = evaluate_high(cards)
        ranks, category = hand.ranks, hand.category
        if category is HandCategory.STRAIGHT_FLUSH:
            if ranks[0] == Rank.ACE:
                return "a Royal Flush"
            return f"a straight flush, {_WORD[ranks[4]]} to {_WORD[ranks[0]]}"
        if category is HandCategory.FULL_HOUSE:
            return f"a full house, {_WORDS[ranks[0]]} full of {_WORDS[ranks[3]]}"
        if category is HandCategory.FLUSH:
            return f"a flush, {_WORD[ranks[0]]} high"
        if category is HandCategory.STRAIGHT:
            return f"a straight, {_WORD[ranks[4]]} to {_WORD[ranks[0]]}"
        counted = list(ranks)
    else:
        counted = [card.rank for card in cards]
    groups = sorted({r: counted.count(r) for r in counted}.items(), key=lambda kv: (-kv[1], -kv[0]))
    if not groups:
        return "nothing"
    (top, count), rest = groups[0], groups[1:]
    if count == 4:
        return f"four of a kind, {_WORDS[top]}"
    if count == 3:
        return f"three of a kind, {_WORDS[top]}"
    if count == 2 and rest and rest[0][1] == 2:
        return f"two pair, {_WORDS[top]} and {_WORDS[rest[0][0]]}"
    if count == 2:
        return f"a pair of {_WORDS[top]}"
    return f"high card {_WORD[top]}"


def _describe(variant: Variant, cards: Sequence[Card]) -> str:
    """The words after a shown hand: ``a flush, Queen high``; hi/lo ``HI: ...`` and ``; LO: 8,7,5,4,2``
    when there is a low; razz ``Lo: 6,4,3,2,A`` (fewer than five cards: their ranks as shown)."""
    if variant is Variant.RAZZ:
        played = evaluate_razz(cards).cards if len(cards) >= 5 else cards
        return "Lo: " + ",".join(_LOW_CHARS[c.rank] for c in played)
    high = _high_words(cards)
    if variant is not Variant.STUD7_HL8:
        return high
    low = evaluate_low8(cards) if len(cards) >= 5 else None
    return f"HI: {high}" + (f"; LO: {','.join(_LOW_CHARS[c.rank] for c in low.cards)}" if low is not None else "")


# -- writing --------------------------------------------------------------------------------------------------


def dump(records: HandRecord | Iterable[HandRecord], path: str | Path) -> None:
    """Write :func:`dumps` of ``records`` to the file at ``path`` (UTF-8)."""
    from .files import write_text

    write_text(path, dumps(records), PokerStarsError)


def dumps(records: HandRecord | Iterable[HandRecord], first: int = 1) -> str:
    """PokerStars text for one hand or several, separated as PokerStars separates them.

    Each hand is replayed (it must finish: :class:`PokerStarsError` otherwise, or if it cannot be
    written, see the module documentation) to know what each line says: checks and calls, bets,
    raises and completions, all-ins, uncalled bets, the showdown, who collects what. ``first`` is the number of
    the first hand (where one is written apart from the hands before it).
    """
    if isinstance(records, HandRecord):
        records = [records]
    return "\n\n\n".join(_Writer(record, number).text() for number, record in enumerate(records, first))


class _Money:
    """Chips as PokerStars writes amounts: ``$0.04``, ``$1``, ``$51125.64``; chips without a currency bare."""

    def __init__(self, currency: str | None, chip_value: float) -> None:
        self.currency = currency
        self.symbol = _SYMBOLS.get(currency, "$") if currency else ""
        self.value = Fraction(str(chip_value))

    def __call__(self, chips: int) -> str:
        value = chips * self.value
        if value.denominator == 1:
            return f"{self.symbol}{value.numerator}"
        cents = value * 100
        if cents.denominator == 1:
            return f"{self.symbol}{int(cents) // 100}.{int(cents) % 100:02d}"
        return f"{self.symbol}{float(value)}"


class _Writer:
    """Writes one hand: the head (header, table, seats, antes), the body, the summary."""

    def __init__(self, record: HandRecord, number: int) -> None:
        self.record = record
        self.number = number
        try:
            self.state = replay(record, f"hand {number}").state
        except ReplayError as error:
            raise PokerStarsError(f"hand {number} cannot be written: {error}") from None
        if not self.state.is_over:
            raise self.fail("the history stops before the hand is over")
        data = record.info.get("pokerstars")
        self.data: Mapping[str, Any] = data if isinstance(data, Mapping) and self.data_fits(data) else {}
        rake = int(self.data["rake"]) if self.data else record.rake
        if not 0 <= rake <= sum(a.amount for a in self.state.awards):
            raise self.fail(f"a rake of {rake} chips is more than the pot")
        self.account = _account(record, self.state, rake)
        self.money = _Money(record.currency, record.chip_value)
        self.names = [record.name(p) for p in range(record.n)]
        self.seats = list(record.seats) if len(record.seats) == record.n else list(range(1, record.n + 1))
        for name in self.names:
            if not name or name != name.strip() or ":" in name or "\n" in name or "\r" in name:
                raise self.fail(f"the name {name!r} cannot be written (empty, spaces around it, a colon, a line break)")
        if len(set(self.names)) != len(self.names):
            raise self.fail("two players have the same name")
        if min(self.seats) < 1 or any(a >= b for a, b in zip(self.seats, self.seats[1:], strict=False)):
            raise self.fail(
                f"seats {self.seats}: PokerStars deals from the lowest seat, so they must increase in position order"
            )
        self.lines: list[str] = []

    def fail(self, message: str) -> PokerStarsError:
        return PokerStarsError(f"hand {self.number} cannot be written: {message}")

    def data_fits(self, data: Mapping[str, Any]) -> bool:
        """PokerStars data kept from a text is used only while it still describes this hand."""
        try:
            n = self.record.n
            total = sum(a.amount for a in self.state.awards)
            return (
                len(data["seat_rest"]) == n
                and all(0 <= int(p) < n for p in data["shown_down"])
                and int(data["total_pot"]) == total
                and 0 <= int(data["rake"]) <= total
                and not {int(s[0]) for s in data["seated_out"]} & set(self.record.seats)
            )
        except (LookupError, TypeError, ValueError):
            return False

    def text(self) -> str:
        self.head()
        self.body()
        self.summary()
        return "\n".join(self.lines) + "\n"

    # -- the head -----------------------------------------------------------------------------------------

    def head(self) -> None:
        record, rules, money, data = self.record, self.state.rules, self.money, self.data
        header = data.get("header")
        if not (isinstance(header, str) and self.header_fits(header)):
            hand = data.get("hand_id") or record.info.get("hand") or self.number
            if not str(hand).isdigit():  # another room's id (``R5-82086688-607``) is no PokerStars hand number
                hand = self.number
            stakes = f"{money(rules.small_bet)}/{money(rules.big_bet)}" + (
                f" {money.currency}" if money.currency else ""
            )
            header = f"PokerStars Hand #{hand}:  {_GAME_NAMES[rules.variant]} Limit ({stakes}) - {self.date()}"
        self.lines.append(header)
        table = data.get("table") or record.info.get("table") or "studpoker"
        seats = data.get("max_seats") or record.info.get("seat_count") or rules.max_seats
        self.lines.append(f"Table '{table}' {seats}-max{data.get('table_rest', '')}")
        rest = data.get("seat_rest") or [""] * record.n
        entries = [(seat, self.names[p], record.starting_stacks[p], str(rest[p])) for p, seat in enumerate(self.seats)]
        entries += [(int(s[0]), str(s[1]), int(s[2]), str(s[3])) for s in data.get("seated_out", [])]
        for seat, name, stack, tail in sorted(entries):
            self.lines.append(f"Seat {seat}: {name} ({money(stack)} in chips){tail}")
        for p, (amount, all_in) in enumerate(self.account.antes):
            self.lines.append(f"{self.names[p]}: posts the ante {money(amount)}" + (" and is all-in" if all_in else ""))

    def header_fits(self, header: str) -> bool:
        """A header kept from the text still names this hand's game and stakes."""
        reader = _HandText([header], 0)
        try:
            reader.parse_header(header)
        except PokerStarsError:
            return False
        rules = self.state.rules
        return (
            reader.variant is rules.variant
            and (reader.small_bet, reader.big_bet) == (rules.small_bet, rules.big_bet)
            and reader.currency == self.record.currency
            and (1 / reader.scale if reader.scale != 1 else 1.0) == self.record.chip_value
        )

    def date(self) -> str:
        text = self.data.get("date")
        if isinstance(text, str):
            return text
        info = self.record.info
        try:
            day = dt.date(int(info["year"]), int(info["month"]), int(info["day"]))
        except (LookupError, TypeError, ValueError):
            return DEFAULT_DATE
        time = info.get("time")
        clock = f"{time.hour}:{time.minute:02d}:{time.second:02d}" if isinstance(time, dt.time) else "0:00:00"
        return f"{day:%Y/%m/%d} {clock} {info.get('time_zone_abbreviation') or 'ET'}"

    # -- the body -----------------------------------------------------------------------------------------

    def body(self) -> None:
        """The streets and the showdown, in the order of the record's actions.

        Derived lines stand where PokerStars puts them: a street header before its first card,
        ``Pair on board`` before the round's first action, ``Betting is capped`` and ``Uncalled bet``
        after the action, ``*** SHOW DOWN ***`` after the last card and action. A pot's ``collected``
        lines come once every player who can win it has shown or mucked (side pots first), after any
        comment that follows, before the next show or muck. Shows and mucks the record makes before
        the last cards (at an all-in) are written in the showdown, the only place PokerStars shows.
        """
        record = self.record
        actions = _first_street_in_seat_order(record.actions)
        ends = max((i for i, a in enumerate(actions) if isinstance(a, (Deal, Board, Bet))), default=-1)
        self.held: list[list[tuple[Card | None, bool]]] = [[] for _ in range(record.n)]
        self.shows: dict[int, tuple[Card, ...]] = {}
        self.street = self.bet_index = 0
        self.pair_pending = False
        self.decided: set[int] = set()
        self.pending: list[int] = []  # pots whose collected lines are due
        self.flushed: set[int] = set()
        shown_down = self.data.get("shown_down")
        if isinstance(shown_down, list):
            self.visible = {int(p) for p in shown_down}
        else:
            self.visible = {p for p in range(record.n) if self.downs_known(p)}
        early: list[ShowMuck] = []
        for i, action in enumerate(actions):
            if isinstance(action, ShowMuck) and i < ends:
                early.append(action)
            elif isinstance(action, Comment):
                if _is_comment(action.text, [*self.names, *(str(s[1]) for s in self.data.get("seated_out", []))]):
                    self.lines.append(action.text)
            else:
                self.step(action)
            if i == ends and self.account.showdown:
                self.lines.append("*** SHOW DOWN ***")
            if i == ends or (ends < 0 and i == len(actions) - 1):
                for decision in early:
                    self.step(decision)
        self.flush(everything=True)

    def downs_known(self, player: int) -> bool:
        """Every down card of ``player`` is known (then our ``Dealt to`` lines show them)."""
        cards = [c for a in self.record.actions if isinstance(a, Deal) and a.player == player for c in a.cards]
        return bool(cards) and None not in cards

    def step(self, action: Deal | Board | Bet | ShowMuck) -> None:
        if self.pair_pending and not isinstance(action, (Deal, Board)):
            self.lines.append(_PAIR)
            self.pair_pending = False
        if not isinstance(action, Deal) and not (isinstance(action, ShowMuck) and action.player in self.decided):
            self.flush()
        if isinstance(action, Deal):
            self.deal(action)
        elif isinstance(action, Board):
            self.new_street(self.state.last_street, action.card)
        elif isinstance(action, Bet):
            self.bet(action)
        else:
            self.decide(action)

    def new_street(self, number: int, board: Card | None = None) -> None:
        self.street = number
        name = "RIVER" if number == self.state.last_street else f"{number}{_ORDINAL.get(number, 'th')} STREET"
        self.lines.append(f"*** {name} ***" + (f" [{board}]" if board is not None else ""))
        self.pair_pending = number in self.account.open_pair

    def deal(self, action: Deal) -> None:
        """The ``Dealt to`` lines of a deal. A record may deal a street's cards one at a time (another room's
        reader does), so each card's face and street come from its place in the player's hand."""
        state = self.state
        rules = state.rules
        five = rules.variant is Variant.STUD5
        held = self.held[action.player]
        downs, first_count = (1, 2) if five else (2, 3)
        start = len(held)
        number = state.first_street if start < first_count else state.first_street + start - first_count + 1
        if number != self.street:
            self.new_street(number)
        last_up = five and rules.stud5_last_card_up
        faces = [
            k >= downs and (k < first_count or state.first_street + k - first_count + 1 != state.last_street or last_up)
            for k in range(start, start + len(action.cards))
        ]
        new = list(zip(action.cards, faces, strict=True))
        name = self.names[action.player]
        visible = action.player in self.visible
        if start < first_count:
            hand = (held + new)[:first_count]
            shown = [c for c, up in hand if up or visible]
            if start + len(new) >= first_count and shown and None not in shown:
                self.lines.append(f"Dealt to {name} [{_card_text(shown)}]")
        elif len(new) == 1:
            card, up = new[0]
            old = [c for c, was_up in held if was_up or visible]
            if card is not None and (up or visible) and None not in old:
                self.lines.append(f"Dealt to {name} [{_card_text(old)}] [{card}]")
        held += new

    def bet(self, action: Bet) -> None:
        account = self.account
        verb, amount, all_in = account.wagers[self.bet_index]
        name = self.names[action.player]
        if verb in ("folds", "checks"):
            line = f"{name}: {verb}"
        elif verb == "raises":
            line = f"{name}: raises {self.money(amount)} to {self.money(action.amount)}"
        else:
            line = f"{name}: {verb}{' for' if verb == 'brings in' else ''} {self.money(amount)}"
        self.lines.append(line + (" and is all-in" if all_in else ""))
        if self.bet_index in account.capped:
            self.lines.append(_CAPPED)
        for player, chips in account.returned[self.bet_index]:
            self.lines.append(f"Uncalled bet ({self.money(chips)}) returned to {self.names[player]}")
        self.bet_index += 1
        if not account.showdown and self.bet_index == len(account.wagers):
            self.pending.append(0)  # the last fold: the pot is won

    def decide(self, action: ShowMuck) -> None:
        name = self.names[action.player]
        shown = None if action.cards is None else tuple(c for c in action.cards if c is not None)
        if shown is not None:
            self.lines.append(f"{name}: shows [{_card_text(shown)}] ({self.describe(shown)})")
        if not self.account.showdown:
            if shown is None:
                self.lines.append(f"{name}: doesn't show hand")
            return
        if shown is None:
            self.lines.append(f"{name}: mucks hand")
        else:
            self.shows[action.player] = shown
        self.decided.add(action.player)
        for pot, players in enumerate(self.account.eligible):
            if set(players) <= self.decided and pot not in self.flushed and pot not in self.pending:
                self.pending.append(pot)

    def flush(self, everything: bool = False) -> None:
        """Write the collected lines of the pots that are due (at the end, of all that are left)."""
        account = self.account
        pots = range(len(account.gross)) if everything else self.pending
        for pot in sorted(set(pots) - self.flushed, reverse=True):
            self.flushed.add(pot)
            where = _pot_label(pot, len(account.gross)).lower() if len(account.gross) > 1 else "pot"
            for player, chips in account.payouts[pot]:
                self.lines.append(f"{self.names[player]} collected {self.money(chips)} from {where}")
            if account.no_low[pot]:
                self.lines.append(_NO_LOW)
        self.pending.clear()

    def describe(self, cards: Sequence[Card]) -> str:
        community = self.state.community_card
        return _describe(self.state.rules.variant, [*cards, community] if community is not None else cards)

    # -- the summary --------------------------------------------------------------------------------------

    def summary(self) -> None:
        account, money, state = self.account, self.money, self.state
        self.lines.append("*** SUMMARY ***")
        total = f"Total pot {money(sum(account.gross))}"
        if len(account.gross) > 1:
            for pot, (gross, rake) in enumerate(zip(account.gross, account.rake, strict=True)):
                total += f" {_pot_label(pot, len(account.gross))} {money(gross - rake)}."
        self.lines.append(f"{total} | Rake {money(sum(account.rake))}")
        if state.community_card is not None:
            self.lines.append(f"Board [{state.community_card}]")
        won = [0] * self.record.n
        for payouts in account.payouts:
            for player, chips in payouts:
                won[player] += chips
        for seat, p in sorted(zip(self.seats, range(self.record.n), strict=True)):
            head = f"Seat {seat}: {self.names[p]} "
            if p in account.folded_on:
                street = account.folded_on[p]
                where = (
                    "the River" if street == state.last_street else f"the {street}{_ORDINAL.get(street, 'th')} Street"
                )
                quiet = street == state.first_street and p not in account.voluntary
                self.lines.append(f"{head}folded on {where}" + (" (didn't bet)" if quiet else ""))
            elif p in self.shows:
                words = self.describe(self.shows[p])
                outcome = f"won ({money(won[p])}) with {words}" if won[p] else f"lost with {words}"
                self.lines.append(f"{head}showed [{_card_text(self.shows[p])}] and {outcome}")
            elif won[p]:
                self.lines.append(f"{head}collected ({money(won[p])})")
            else:
                held = [c for c, _ in self.held[p]]
                self.lines.append(f"{head}mucked" + (f" [{_card_text(held)}]" if held and None not in held else ""))


def _first_street_in_seat_order(actions: Sequence[HistoryAction]) -> Sequence[HistoryAction]:
    """The record's actions with the deals before the first wager in position order (PokerStars deals from the
    lowest seat, and its reader insists): another room may list them in another order, which changes nothing
    (each player's cards are his own)."""
    first_bet = next((i for i, a in enumerate(actions) if isinstance(a, Bet)), len(actions))
    deals = [a for a in actions[:first_bet] if isinstance(a, Deal)]
    ordered = iter(sorted(deals, key=lambda a: a.player))  # stable: a player's own deals keep their order
    if deals == sorted(deals, key=lambda a: a.player):
        return actions
    return [next(ordered) if isinstance(a, Deal) else a for a in actions[:first_bet]] + list(actions[first_bet:])


def _card_text(cards: Iterable[Card | None]) -> str:
    return " ".join(str(c) for c in cards if c is not None)


def _is_comment(text: str, names: Sequence[str]) -> bool:
    """Whether ``text`` can stand as a line of its own and read back as the same comment (the tests
    of :meth:`_HandText.parse_line`, in its order)."""
    if not text or text != text.strip() or "\n" in text or "\r" in text or text in (_CAPPED, _PAIR, _NO_LOW):
        return False
    if text.startswith(("PokerStars ", "Dealt to ")) or _SECTION.match(text) or _UNCALLED.match(text):
        return False
    if any(text.startswith(n + ":") for n in names):
        return False
    if _CHAT.match(text):
        return True
    if any(text.startswith(n + " ") and _COLLECTED.match(text[len(n) :]) for n in names):
        return False
    return not _LOOKS_LIKE_ACTION.search(text)


def _bare(error: PokerStarsError) -> PokerStarsError:
    """``error`` without its traceback and the exceptions it came from, which hold every frame they passed through:
    a file of junk lines has an error a hand, and must not keep a traceback a hand."""
    error.__traceback__ = error.__context__ = error.__cause__ = None
    return error
