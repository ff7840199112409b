"""Full Tilt Poker text hand histories (2010-2013 exports; some files UTF-16 with a byte-order mark).

A hand starts ``Full Tilt Poker Game #<id>: Table <name> - $3/$6 Ante $0.50 - Limit Stud Hi - 12:18:37 ET -
2010/06/11`` (a tournament names itself first: ``Big Game of the Week (251332389), Table 1 - 800/1600 Ante 150
- Limit 5 Card Stud - ...``; a table abroad writes its own time first and ET in brackets: ``17:10:10 CCT -
2010/12/07 [04:10:10 ET - 2010/12/07]``). Then ``Seat N: NAME ($31)`` (``, is sitting out`` after some),
``NAME antes $0.50``, and the streets, ``*** 3RD STREET ***`` (five-card stud: ``*** 2ND STREET ***``; in
tournaments followed by ``(Total Pot: 1,050, 7 Players, 1 All-In)``). Each street deals ``Dealt to NAME [up
cards so far] [the new card]`` (the hero: ``[his whole hand so far] [the new card]``; nobody else's 7th-street
card is written). Betting lines say ``brings in for $1``, ``completes it to $3``, ``bets $3``, ``raises to $8``,
``calls $2`` (the chips added), ``checks``, ``folds``, all-ins ``, and is all in``; then ``Uncalled bet of $3
returned to NAME``, ``NAME shows [cards] <hand>`` / ``NAME mucks`` and ``NAME wins the pot ($9.50)`` (``the
main pot``, ``the side pot``). The summary says ``Total pot $42.80 | Rake $2`` (``Main pot 5,335. Side pot
6,910.`` between them) and per seat ``folded on 3rd St.``, ``collected ($9.50), mucked``, ``showed [...] and
won ($40.80) with ...``, ``showed [...] and lost with ...``, ``mucked [...] - <hand>``, ``is sitting out``.

Every amount is handed to the builder as a claim; the street headers' running totals (pot, players, all-ins)
are checked here, against the amounts of the lines before them.

**Rules** (:data:`OPTIONS`): Full Tilt's files show nothing that differs from the ``casino`` preset, cash and
tournament alike; each option's evidence is given at :data:`OPTIONS`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final

from ...cards import Card
from ...engine import Variant
from ..model import HandRecord
from .base import HandBuilder, NotStudGameError, SiteError, moves_chips, read_hands

__all__ = ["OPTIONS", "TITLE", "detect", "loads_each", "read_hand", "read_head", "starts_hand"]

TITLE: Final = "Full Tilt Poker"

#: Full Tilt's table rules on top of the ``casino`` preset, for cash games and tournaments alike: each was
#: looked for in the 21 hands of the files (cash 2010-2011: stud $3/$6, stud $2/$4, stud hi/lo $2/$4, razz
#: $0.10/$0.20; tournaments: a 5-card stud MTT of 2013, a razz heads-up sit & go of 2011), and none differs:
#:
#: ``raise_cap`` (casino 3)
#:     no round of the files reaches a cap: the most raises in a round is two (#32412111030, 5-card stud 2nd
#:     street: complete to 800, a short all-in raise to 1,345, a raise to 2,145), so the files cannot tell
#:     3 from 4 and the casino value stands; the ``tournament`` preset is not chosen for the same reason.
#: ``headsup_uncap`` (casino WHEN_HEADSUP_BEFORE_CAP)
#:     no round is capped, heads-up or not: each file replays the same with NEVER; it stands.
#: ``stud5_opening`` (LOW_CARD_BRING_IN), ``stud5_last_card_up`` (True)
#:     #32412111030: ``Player5 is low with [2c]`` and brings in for 250; every player's 5th card is written
#:     as an up card (``Dealt to Player4 [Js 9h 4c] [2d]``), not only the hero's.
#: half-bet rule (R6.12)
#:     in #32412111030 Player4's all-in raise to 1,345 over a completion to 800 (545, more than half of 800)
#:     lets Player0, who had completed, raise again to 2,145: an all-in of half a bet or more is a full
#:     raise, as the engine rules it.
#: ``later_street_tiebreak`` (casino POSITION), first seat
#:     players are taken from the lowest seat (the deal lines run from seat 1). No later street of the files
#:     starts with two equal boards: every hand replays the same by suit, so neither is shown.
#: ``open_pair_double_bet`` (the variant's default: stud high offers it)
#:     on 4th street an open pair lets the first bettor bet the big bet: Player4 (``[9c] [9d]``) bets $4 at
#:     $2/$4 in #11111111813, Hero4 (``[Kc] [Kh]``) $4 in #11111112277; without the option both bets are
#:     refused (only $2 is legal), which also rules out the ``tournament`` preset for these cash games. No
#:     hi/lo, razz or five-card stud hand of the files has an open pair.
#: ``allow_fold_when_check_available`` (casino True)
#:     every fold of the files faces a bet (or the bring-in): the files cannot tell; it stands.
#: ``odd_chip_rule`` (casino HIGH_CARD_IN_HAND); the rake
#:     no pot of the files is split. The rake is taken from the whole pot (#11111112961: ``Total pot $42.80
#:     | Rake $2``, the winner collects $40.80; razz #26190453000: $1.17, $0.05, $1.12), and with a side pot,
#:     from the main pot alone, the summary's pots written before it: 10-Game stud hi/lo #29705138396,
#:     ``Total pot $95.10 Main pot $85.10. Side pot $10. | Rake $3``, pays $41.05 high and low from the main pot
#:     ($82.10) and $5 and $5 from the side pot (fpdb's regression file ``10Game-6max-USD-2.50-5.201104``).
#: the bring-in
#:     posted by the low card (razz: ``is high with``, the high card), as the engine deals it; the header
#:     names no bring-in, so it is taken from the ``brings in for`` line. In #28333847000 Villain brings in
#:     all-in for 9 chips (the 24 he sat with, less a 15 ante): the table's bring-in is not shown, and 9 is
#:     used (nothing after it depends on it).
OPTIONS: Final[Mapping[str, Any]] = MappingProxyType({})

_GAMES: Final = {
    "stud hi": Variant.STUD7,
    "7 card stud": Variant.STUD7,
    "stud h/l": Variant.STUD7_HL8,
    "stud hi/lo": Variant.STUD7_HL8,
    "razz": Variant.RAZZ,
    "5 card stud": Variant.STUD5,
}
_CURRENCIES: Final = {"$": "USD", "€": "EUR", "£": "GBP"}
_START: Final = "Full Tilt Poker Game #"
_AMT: Final = r"[$€£]?\d+(?:,\d{3})*(?:\.\d+)?"
_ALLIN: Final = r"(?P<allin>, and is all in)?"

_HEADER = re.compile(
    r"^Full Tilt Poker Game #(?P<id>\d+): (?P<where>.+?) - "
    rf"(?P<small>{_AMT})/(?P<big>{_AMT})(?: Ante (?P<ante>{_AMT}))? - "
    r"(?P<limit>Limit|Pot Limit|No Limit) (?P<game>.+?) - "
    r"(?P<time>\d{1,2}:\d\d:\d\d) (?P<tz>[A-Z]{1,5}) - (?P<date>\d{4}/\d\d/\d\d)(?: \[.*\])?$"
)
_LOOSE_HEADER = re.compile(r" - (?P<limit>Limit|Pot Limit|No Limit) (?P<game>[^-]+?) - ")
_TOURNAMENT = re.compile(r"^(?P<name>.+) \((?P<id>\d+)\), Table (?P<table>.+)$")
_SEAT = re.compile(rf"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<stack>{_AMT})\)(?P<out>, is sitting out)?$")
_ANTE = re.compile(rf"^(?P<name>.+?) antes (?P<amount>{_AMT}){_ALLIN}$")
_STREET = re.compile(
    r"^\*\*\* (?P<n>\d)(?P<suffix>ST|ND|RD|TH) STREET \*\*\*"
    rf"(?: \(Total Pot: (?P<pot>{_AMT}), (?P<players>\d+) Players?(?:, (?P<allins>\d+) All-In)?\))?$"
)
_SUFFIX: Final = {2: "ND", 3: "RD", 4: "TH", 5: "TH", 6: "TH", 7: "TH"}
_DEALT = re.compile(r"^Dealt to (?P<name>.+?) \[(?P<a>[^\]]*)\](?: \[(?P<b>[^\]]*)\])?$")
_ACTIONS: Final = (
    ("bring-in", re.compile(rf"^(?P<name>.+?) brings in for (?P<amount>{_AMT}){_ALLIN}$")),
    ("complete", re.compile(rf"^(?P<name>.+?) completes it to (?P<amount>{_AMT}){_ALLIN}$")),
    ("bet", re.compile(rf"^(?P<name>.+?) bets (?P<amount>{_AMT}){_ALLIN}$")),
    ("raise", re.compile(rf"^(?P<name>.+?) raises to (?P<amount>{_AMT}){_ALLIN}$")),
    ("call", re.compile(rf"^(?P<name>.+?) calls (?P<amount>{_AMT}){_ALLIN}$")),
    ("check", re.compile(r"^(?P<name>.+?) checks$")),
    ("fold", re.compile(r"^(?P<name>.+?) folds$")),
)
_SHOWS = re.compile(r"^(?P<name>.+?) shows \[(?P<cards>[^\]]*)\](?: .*)?$")
_MUCKS = re.compile(r"^(?P<name>.+?) mucks$")
_WINS = re.compile(
    r"^(?P<name>.+?) (?:wins|ties for) (?:the )?(?:(?:high|low) )?(?P<pot>main pot|side pot(?: #?\d+)?|pot)"
    rf" \((?P<amount>{_AMT})\)(?: with .*)?$"
)
_UNCALLED = re.compile(rf"^Uncalled bet of (?P<amount>{_AMT}) returned to (?P<name>.+)$")
_LOW = re.compile(r"^(?P<name>.+?) is (?:low|high) with \[(?P<cards>[^\]]*)\]$")
#: Lines about the table, not the hand (a seated player's, or anybody's): kept as comments.
_TABLE_TALK = re.compile(
    r"^(?:(?P<name>.+?) (?:has \d+ seconds? left to act|has timed out|has returned|has reconnected|is disconnected"
    r"|is sitting out|stands up|sits down|adds .+|has been disconnected|is connected)"
    r"|\d+ seconds? left to act|(?!\*\*\* )(?P<speaker>[^:]+): .*)$"  # a street's "(Total Pot: 12" is no chat
)
_TOTAL = re.compile(rf"^Total pot (?P<total>{_AMT})(?P<pots>(?: (?:Main|Side) pot(?: #?\d+)? {_AMT}\.)*)"
                    rf" \| Rake (?P<rake>{_AMT})$")  # fmt: skip
_POT = re.compile(rf"(?P<kind>Main|Side) pot(?: #?(?P<n>\d+))? (?P<amount>{_AMT})\.")
_SUMMARY_SEAT = re.compile(
    r"^Seat (?P<seat>\d+): (?P<name>.+?) (?P<rest>(?:folded|collected|showed|mucked|is sitting out)\b.*)$"
)
_FOLDED = re.compile(r"^folded on (?P<n>\d)(?P<suffix>st|nd|rd|th) St\.$")
_COLLECTED = re.compile(rf"^collected \((?P<amount>{_AMT})\)(?:, mucked)?$")
_SHOWED = re.compile(r"^showed \[(?P<cards>[^\]]*)\] and (?P<rest>(?:won|lost) .*)$")
_WON = re.compile(rf"\bwon \((?P<amount>{_AMT})\)")
_MUCKED = re.compile(r"^mucked(?: \[(?P<cards>[^\]]*)\](?: - .*)?)?$")  # the cards, or none (2008)


def detect(text: str) -> bool:
    """A Full Tilt export starts with ``Full Tilt Poker Game #``."""
    return text.lstrip("\ufeff \t\n").startswith(_START)


def starts_hand(line: str) -> bool:
    """Whether a line of the text begins a hand."""
    return line.lstrip("\ufeff ").startswith(_START)


def read_hand(lines: list[str], first: int) -> HandRecord:
    """One hand: its lines (the first begins it) and the 1-based line of the file it starts on."""
    return _Hand(lines, first).read()


def loads_each(text: str) -> list[tuple[int, HandRecord | SiteError]]:
    """Every hand of the text, each read on its own (text before the first hand is an error of its own)."""
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if starts_hand(line)]
    out: list[tuple[int, HandRecord | SiteError]] = []
    head = read_head(lines[: starts[0] if starts else len(lines)])
    if head is not None:
        out.append((head.line or 1, head))
    return out + read_hands(text, starts, _Hand)


def read_head(lines: list[str]) -> SiteError | None:
    """The error of the text before the first hand (its lines, from the file's first), unless it is blank."""
    head = [i for i, line in enumerate(lines) if line.strip("\ufeff \t")]
    if not head:
        return None
    return SiteError("not a Full Tilt hand (no hand header)", room=TITLE, line=head[0] + 1)


class _Hand:
    """One hand's lines, read into a :class:`HandBuilder`."""

    def __init__(self, lines: list[str], first: int) -> None:
        self.lines, self.first = lines, first
        self.section = "seats"
        self.street = 0
        self.pending = False  # a street's deal lines are being read: players not dealt yet get a card or fail
        self.dealt_now: set[str] = set()
        self.in_hand: list[str] = []
        self.folded: set[str] = set()
        self.all_in: set[str] = set()
        self.pot = 0

    def read(self) -> HandRecord:
        header = _HEADER.match(self.lines[0].lstrip("\ufeff ").rstrip())
        if header is None:
            loose = _LOOSE_HEADER.search(self.lines[0])
            if loose is not None and _GAMES.get(loose["game"].strip().lower()) is None:
                digits = re.match(r"\D*(\d*)", self.lines[0])
                raise NotStudGameError(
                    f"{loose['limit']} {loose['game'].strip()}",
                    room=TITLE,
                    hand=digits.group(1) if digits else "",
                    line=self.first,
                )
            raise SiteError("the hand's first line is not a Full Tilt header", room=TITLE, line=self.first)
        hand = header["id"]
        game = header["game"].strip()
        variant = _GAMES.get(game.lower())
        if variant is None or header["limit"] != "Limit":
            raise NotStudGameError(f"{header['limit']} {game}", room=TITLE, hand=hand, line=self.first)
        self.variant = variant
        self.hole = 1 if variant is Variant.STUD5 else 2
        self.first_street = 2 if variant is Variant.STUD5 else 3
        self.last_street = 5 if variant is Variant.STUD5 else 7
        where = header["where"]
        tournament = _TOURNAMENT.match(where)
        symbol = header["small"][0] if header["small"][0] in _CURRENCIES else ""
        cents = tournament is None and symbol != ""
        b = HandBuilder(TITLE, hand, self.first, cents=cents)
        self.b = b
        small, big = b.chips(header["small"]), b.chips(header["big"])
        ante = b.chips(header["ante"]) if header["ante"] is not None else None
        date = header["date"]
        b.info.update(
            {
                "year": int(date[:4]),
                "month": int(date[5:7]),
                "day": int(date[8:10]),
                "time": header["time"],
                "time_zone_abbreviation": header["tz"],
            }
        )
        if tournament is not None:
            level = f"{header['small']}/{header['big']}" + (f" Ante {header['ante']}" if header["ante"] else "")
            b.info.update(
                {
                    "table": tournament["table"],
                    "tournament": tournament["id"],
                    "tournament_name": tournament["name"],
                    "level": level,
                }
            )
        else:
            b.info["table"] = where[6:] if where.startswith("Table ") else where
            if not symbol:
                b.info["money"] = "play"
        b.stated.returns_stated = True  # every uncalled bet is written
        b.stated.rake_from_main = True  # the rake comes from the main pot; the summary's pots are before it
        for offset, raw in enumerate(self.lines[1:], 1):
            number = self.first + offset
            b.line = number
            line = raw.strip()
            if line:
                self.line(line, number)
        self.fill(self.first + len(self.lines) - 1)
        if not self.in_hand:
            raise b.fail("no cards are dealt", self.first)
        for name in self.in_hand:
            if b.seats[name][1] <= 0:
                raise b.fail(f"{name} is dealt in with no chips", b.seats[name][2])
        return b.build(
            variant,
            ante=ante,
            bring_in=None,
            small_bet=small,
            big_bet=big,
            options=OPTIONS,
            currency=_CURRENCIES[symbol] if cents else None,
        )

    # -- the lines ------------------------------------------------------------------------------------

    def line(self, line: str, number: int) -> None:
        b = self.b
        dealt = _DEALT.match(line)
        if dealt is not None and self.pending:
            self.deal(dealt["name"], dealt["a"], dealt["b"], number)
            return
        if self.pending and _TABLE_TALK.match(line) and not any(p.match(line) for _, p in _ACTIONS):
            b.comment(line, number)  # a player sits down between the deal lines: they go on
            return
        self.fill(number)
        if line.startswith("*** "):
            self.header(line, number)
        elif self.section == "summary":
            self.summary(line, number)
        elif dealt is not None:
            raise b.fail(f"a deal line outside the deal of a street: {line!r}", number)
        elif self.section == "seats":
            self.seat_or_ante(line, number)
        else:
            self.play(line, number)

    def header(self, line: str, number: int) -> None:
        b = self.b
        if line == "*** SHOW DOWN ***" and self.street:
            self.section = "showdown"
            return
        if line == "*** SUMMARY ***" and self.section != "summary":
            self.section = "summary"
            return
        street = _STREET.match(line)
        if street is None or self.section not in ("seats", "street"):
            raise b.fail(f"cannot read the line {line!r} here", number)
        n = int(street["n"])
        expected = self.street + 1 if self.street else self.first_street
        if n != expected or _SUFFIX.get(n) != street["suffix"] or n > self.last_street:
            raise b.fail(f"street {line!r} where {expected} was due", number)
        if street["pot"] is not None:
            live = [p for p in (self.in_hand if self.street else b.anted) if p not in self.folded]
            if b.chips(street["pot"], number) != self.pot:
                raise b.fail(f"the pot is {street['pot']}, but the lines before put in {self.pot}", number)
            if int(street["players"]) != len(live) or int(street["allins"] or 0) != len(self.all_in & set(live)):
                raise b.fail(f"{line!r}: the lines before leave {len(live)} players, {len(self.all_in)} all-in", number)
        self.section, self.street, self.pending, self.dealt_now = "street", n, True, set()
        b.new_street(n, number)

    def seat_or_ante(self, line: str, number: int) -> None:
        b = self.b
        seat = _SEAT.match(line)
        if seat is not None:
            b.seat(seat["name"], int(seat["seat"]), b.chips(seat["stack"], number), number)
            return
        ante = _ANTE.match(line)
        if ante is not None:
            amount = b.chips(ante["amount"], number)
            b.ante(ante["name"], amount, number, True if ante["allin"] else None)
            self.pot += amount
            if ante["allin"]:
                self.all_in.add(ante["name"])
            return
        uncalled = _UNCALLED.match(line)
        if uncalled is not None:  # an ante nobody can match, after an all-in ante: given back before the deal
            amount = b.chips(uncalled["amount"], number)
            b.returned(uncalled["name"], amount, number)
            self.pot -= amount
            return
        self.talk(line, number)

    def talk(self, line: str, number: int) -> None:
        """A line about the table (chat, an emote: ``NAME is feeling confused``); a seated player's line of another
        form that may move chips is an error."""
        b = self.b
        if _TABLE_TALK.match(line) is None and any(
            line.startswith(name + " ") and moves_chips(line[len(name) + 1 :]) for name in b.seats
        ):
            raise b.fail(f"cannot read the line {line!r}", number)
        b.comment(line, number)

    def deal(self, name: str, a: str, new: str | None, number: int) -> None:
        b = self.b
        b.known(name, number)
        if (
            name in self.dealt_now
            or name in self.folded
            or (self.street > self.first_street and name not in self.in_hand)
        ):
            raise b.fail(f"{name} is dealt twice, or after leaving the hand", number)
        self.dealt_now.add(name)
        first = self.cards(a, number)
        if self.street == self.first_street:
            if new is None:
                hidden: list[Card | None] = [None] * self.hole
                cards = hidden + first
            else:
                cards = [*first, *self.cards(new, number)]
            if len(cards) != self.hole + 1 or (new is not None and len(first) != self.hole):
                raise b.fail(f"{name} is dealt {len(cards)} cards on the first street", number)
            self.in_hand.append(name)
            b.deal(name, cards, number)
            return
        if new is None:
            fresh, first = first, []
        else:
            fresh = self.cards(new, number)
            self.match(name, first, number, whole_only=False)
        if len(fresh) != 1:
            raise b.fail(f"{name} is dealt {len(fresh)} cards on street {self.street}", number)
        b.deal(name, fresh, number)

    def fill(self, number: int) -> None:
        """The end of a street's deal lines: a 7th-street card nobody's line shows is dealt down unseen; any other
        card missing is an error."""
        if not self.pending:
            return
        self.pending = False
        for name in self.in_hand:
            if name in self.folded or name in self.dealt_now:
                continue
            if self.street == 7 and self.variant is not Variant.STUD5:
                self.b.deal(name, [None], number)
            else:
                raise self.b.fail(f"no card is dealt to {name} on street {self.street}", number)

    def cards(self, text: str, number: int) -> list[Card | None]:
        return [self.b.card(token, number) for token in text.split()]

    def match(self, name: str, shown: Sequence[Card | None], number: int, *, whole_only: bool) -> list[Card | None]:
        """``shown`` against the cards dealt to ``name``: his whole hand (in any order: the room lists the down
        cards as it pleases), filled in where unknown; or (``whole_only`` False) his up cards so far, in order."""
        b = self.b
        held = b.cards.get(name, [])
        if len(shown) == len(held):
            b.reveal_in_any_order(name, [card for card in shown if card is not None], number)
            return list(b.cards[name])
        ups = [held[i] for i in range(len(held)) if self.hole <= i < self.hole + 4]
        if whole_only or list(shown) != ups:
            raise b.fail(f"the cards listed for {name} are not the {len(held)} dealt to him", number)
        return list(held)

    def play(self, line: str, number: int) -> None:
        b = self.b
        for kind, pattern in _ACTIONS:
            found = pattern.match(line)
            if found is None or (found["name"] not in b.seats and _TABLE_TALK.match(line)):
                continue
            self.bet(kind, found, number)
            return
        if (shows := _SHOWS.match(line)) is not None:
            name = b.known(shows["name"], number)
            b.show(name, self.match(name, self.cards(shows["cards"], number), number, whole_only=True), number)
        elif (mucks := _MUCKS.match(line)) is not None:
            b.show(b.known(mucks["name"], number), None, number)
        elif (wins := _WINS.match(line)) is not None:
            which = wins["pot"]
            side = re.search(r"\d+", which)
            pot = None if which == "pot" else 0 if which == "main pot" else int(side.group(0)) if side else 1
            b.collected(wins["name"], b.chips(wins["amount"], number), number, pot)
        elif (uncalled := _UNCALLED.match(line)) is not None:
            amount = b.chips(uncalled["amount"], number)
            b.returned(uncalled["name"], amount, number)
            self.pot -= amount
        elif (low := _LOW.match(line)) is not None:
            b.known(low["name"], number)
            b.comment(line, number)
        else:
            self.talk(line, number)

    def bet(self, kind: str, found: re.Match[str], number: int) -> None:
        b = self.b
        name = b.known(found["name"], number)
        if name not in self.in_hand or name in self.folded:
            raise b.fail(f"{name} acts but is not in the hand", number)
        all_in = True if "allin" in found.groupdict() and found["allin"] else None
        before = b.round.get(name, 0)
        if kind in ("fold", "check"):
            b.bet(name, kind, number)
            if kind == "fold":
                self.folded.add(name)
            return
        amount = b.chips(found["amount"], number)
        if kind in ("complete", "raise"):
            b.bet(name, kind, number, to=amount, all_in=all_in)
            self.pot += amount - before
        else:
            b.bet(name, kind, number, added=amount, all_in=all_in)
            self.pot += amount
        if all_in:
            self.all_in.add(name)

    def summary(self, line: str, number: int) -> None:
        b = self.b
        total = _TOTAL.match(line)
        if total is not None:
            b.total_pot(b.chips(total["total"], number), number)
            b.rake(b.chips(total["rake"], number), number)
            sides = 0
            for pot in _POT.finditer(total["pots"]):
                if pot["kind"] == "Main":
                    index = 0
                else:
                    sides += 1
                    index = int(pot["n"]) if pot["n"] else sides
                b.pot(index, b.chips(pot["amount"], number), number)
            return
        seat = _SUMMARY_SEAT.match(line)
        if seat is None:
            raise b.fail(f"cannot read the summary line {line!r}", number)
        name, rest = b.known(seat["name"], number), seat["rest"]
        if b.seats[name][0] != int(seat["seat"]):
            raise b.fail(f"{name} sits in seat {b.seats[name][0]}, not {seat['seat']}", number)
        if rest == "is sitting out":
            if name in self.in_hand:
                raise b.fail(f"{name} was dealt in, not sitting out", number)
        elif (folded := _FOLDED.match(rest)) is not None:
            n = int(folded["n"])
            if _SUFFIX.get(n, "").lower() != folded["suffix"]:
                raise b.fail(f"cannot read the street of {line!r}", number)
            b.folded_on(name, n, number)
        elif (collected := _COLLECTED.match(rest)) is not None:
            b.won(name, b.chips(collected["amount"], number), number)
        elif (showed := _SHOWED.match(rest)) is not None:
            self.match(name, self.cards(showed["cards"], number), number, whole_only=True)
            won = [b.chips(w["amount"], number) for w in _WON.finditer(showed["rest"])]
            if won:
                b.won(name, sum(won), number)
            elif not showed["rest"].startswith("lost"):
                raise b.fail(f"cannot read the summary line {line!r}", number)
        elif (mucked := _MUCKED.match(rest)) is not None:
            if mucked["cards"] is not None:
                self.match(name, self.cards(mucked["cards"], number), number, whole_only=True)
        else:
            raise b.fail(f"cannot read the summary line {line!r}", number)
