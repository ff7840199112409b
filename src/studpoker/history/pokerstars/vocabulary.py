"""The words of PokerStars' text that its reader, checker and writer share: the game names, the currencies,
the grammar of its lines, its money and its pots' labels; the errors and the table rules."""

from __future__ import annotations

import functools
import re
import warnings
from collections.abc import Iterable, Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Final

from ...cards import CARDS, Card
from ...engine import HeadsUpUncap, OddChipRule, Rules, RulesWarning, Tiebreak, Variant


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


@functools.lru_cache(maxsize=256)  # a file's hands share a few stakes: one Rules each, not one a hand
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
_DEALT = re.compile(r"\[(?P<old>[^\]]*)\](?: \[(?P<new>[^\]]*)\])?$")
_UNCALLED = re.compile(rf"^Uncalled bet \((?P<amount>{_AMOUNT})\) returned to (?P<name>.+)$")
_COLLECTED = re.compile(rf" collected (?P<amount>{_AMOUNT}) from (?P<pot>pot|main pot|side pot(?:-\d+)?)$")
_ALL_IN = r"(?P<all_in> and is all-in)?"
_ACTIONS = {
    "ante": re.compile(rf"posts the ante (?P<amount>{_AMOUNT}){_ALL_IN}$"),
    "pb": re.compile(rf"brings in for (?P<amount>{_AMOUNT}){_ALL_IN}$"),
    "call": re.compile(rf"calls (?P<amount>{_AMOUNT}){_ALL_IN}$"),
    "bet": re.compile(rf"bets (?P<amount>{_AMOUNT}){_ALL_IN}$"),
    "raise": re.compile(rf"raises (?P<amount>{_AMOUNT}) to (?P<to>{_AMOUNT}){_ALL_IN}$"),
    "check": re.compile(r"checks$"),
    "fold": re.compile(r"folds(?: \[[^\]]*\])?$"),
    "show": re.compile(r"shows \[(?P<cards>[^\]]*)\](?: \(.*\))?$"),
    "muck": re.compile(r"mucks hand$"),
    "no show": re.compile(r"doesn't show hand$"),
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
_COLON_INFO = re.compile(r"(?:is sitting out|sits out|is back|has returned|is connected|is disconnected)$")
#: Lines PokerStars derives from the hand itself (written again from the replay).
_CAPPED, _PAIR, _NO_LOW = "Betting is capped", "Pair on board - a double bet is allowed", "No low hand qualified"
_LOOKS_LIKE_ACTION = re.compile(
    r"^.+?: (?:posts|brings in|calls|bets|raises|checks|folds|shows|mucks|doesn't show)\b"
    r"|^Dealt to |^Uncalled bet |^Seat \d+:|^\*\*\*|^.+ collected [$€£]?\d|^Total pot "
)
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


def _card_text(cards: Iterable[Card | None]) -> str:
    return " ".join(str(c) for c in cards if c is not None)


def _is_chat(line: str) -> bool:
    """Whether a line is a player's chat (``NAME said, "..."``). Not a regular expression: ``^.+ said, ".*"$``
    backtracks to every ``said, "`` of a line and scans to its end from each, quadratic on a hostile line.

    >>> _is_chat('Ann said, "nh"'), _is_chat('Ann said, "'), _is_chat(' said, "x"'), _is_chat('Ann said, "a" b')
    (True, False, False, False)
    """
    at = line.find(' said, "', 1)  # the name: one character at least
    return at > 0 and len(line) > at + len(' said, "') and line.endswith('"')
