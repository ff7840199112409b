"""A PokerStars hand as its lines were parsed (:class:`_Parsed`) made into a record: the players in position
order, the cards each was dealt, the actions, and what :mod:`.checker` and :mod:`.writer` need of the text."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from ..._compile import mypyc_attr
from ...cards import Card
from ...engine import Rules, RulesError, Variant
from ..model import Bet, Board, Comment, Deal, HandRecord, HistoryAction, ShowMuck
from ..stated import Stated, StatedAction, StatedAmount
from .vocabulary import _DATE, PokerStarsError, _card_text, _pot_index, pokerstars_rules


@mypyc_attr(acyclic=True)
class _Item:
    """One thing the text says happened, in its order (many a hand: made cheaply, and never in a reference cycle)."""

    def __init__(
        self,
        kind: str,  # street, deal, bet, show, muck, comment, showdown
        player: str = "",
        street: int = 0,
        verb: str = "",  # bet: pb, cc, f or cbr
        amount: int = 0,  # bet: the round total of a cbr
        said: str = "",  # bet: the line's action (pb, call, check, fold, bet, raise), as the reader's patterns say
        said_amount: int = 0,  # bet: the amount the line names (a raise: X of "raises X to Y")
        all_in: bool = False,  # bet: the line says "and is all-in"
        cards: tuple[Card, ...] = (),
        old: tuple[Card, ...] | None = None,  # deal: the cards in the first brackets of a later street
        board: Card | None = None,
        text: str = "",
        line: int = 0,  # in the file
    ) -> None:
        self.kind = kind
        self.player = player
        self.street = street
        self.verb = verb
        self.amount = amount
        self.said = said
        self.said_amount = said_amount
        self.all_in = all_in
        self.cards = cards
        self.old = old
        self.board = board
        self.text = text
        self.line = line


@dataclass
class _Parsed:
    """A hand as its text tells it, before it becomes a :class:`HandRecord`."""

    number: int
    hand_id: str
    header: str
    line: int  # the header's, in the file
    total_line: int  # the summary's "Total pot" line
    ante_lines: dict[str, int]
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
    returned: list[tuple[str, int, int]]  # name, chips, line
    collected: list[tuple[str, int, str, int]]  # name, chips, pot label, line
    total_pot: int
    rake: int
    pots: list[tuple[str, int]]
    board: Card | None
    # name: kind, cards, amount (folded: the street), line
    summary: dict[str, tuple[str, tuple[Card, ...] | None, int, int]]
    bring_in: int | None
    capped: list[tuple[int, int]]  # "Betting is capped" after this betting line (0-based), and its line
    open_pair: list[tuple[int, int]]  # "Pair on board - a double bet is allowed": the street, the line
    no_low: list[int]  # the lines of "No low hand qualified"

    @property
    def stakes(self) -> tuple[object, ...]:
        """The hand's game and stakes, as a key (the game by its name, one a variant: a :class:`Variant` hashes, and
        gives its value, in Python code)."""
        return (self.game, self.small_bet, self.big_bet, self.currency, self.chip_value)

    def fail(self, message: str) -> PokerStarsError:
        return PokerStarsError(f"hand {self.number} (#{self.hand_id}): {message}")


@mypyc_attr(acyclic=True)
class _Dealt:
    """A deal whose cards are not final yet: the player and his card slots (see :class:`_Builder`)."""

    def __init__(self, player: int, slots: list[int]) -> None:
        self.player = player
        self.slots = slots


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
            [
                _deal(a.player, [self.slots[a.player][i][0] for i in a.slots]) if isinstance(a, _Dealt) else a
                for a in actions
            ]
        )
        index = self.index
        collected = [0] * len(self.players)
        for name, amount, _, _ in p.collected:
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
            "total_pot": p.total_pot,
            "rake": p.rake,
            "seat_rest": [self.seat_of[n][3] for n in self.players],
            "seated_out": [list(s) for s in p.seats if s[1] not in index],
            "bring_in": self.bring_in_source,
        }
        info = {"hand": int(p.hand_id), "table": p.table, "seat_count": p.max_seats, **_date_fields(p.date)}
        info["pokerstars"] = data
        info["stated"] = self.stated()
        info["lines"] = tuple(self.lines)
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
        self.lines: list[int] = []  # the file line of each action of ``out``
        live = set(self.players)
        street = block = street_line = 0  # block: where the street's actions begin in ``out``
        dealt: set[str] = set()
        open_deal = False  # the street's dealing is not closed yet

        for item in self.p.items:
            if item.kind == "street":
                if open_deal:
                    self.deal_unseen(out, live, dealt, street, block, street_line)
                    open_deal = False
                street, block, dealt, street_line = item.street, len(out), set(), item.line
                if item.board is not None:
                    out.append(Board(item.board))
                    self.lines.append(item.line)
                else:
                    open_deal = True
                continue
            if item.kind == "deal":
                if not open_deal or item.player in dealt or item.player not in live:
                    raise self.fail(f"{item.player} is dealt cards out of place: {item.text!r}")
                dealt.add(item.player)
                out.append(_Dealt(index[item.player], self.deal(item.player, street, item)))
                self.lines.append(item.line)
                continue
            if open_deal:
                self.deal_unseen(out, live, dealt, street, block, street_line)
                open_deal = False
            if item.kind != "showdown":
                self.lines.append(item.line)
            if item.kind == "bet":
                out.append(_bet(index[item.player], item.verb, item.amount))
                if item.verb == "f":
                    live.discard(item.player)
            elif item.kind == "show":
                out.append(ShowMuck(index[item.player], item.cards))
                self.shows.append((index[item.player], item.cards))
            elif item.kind == "muck":
                out.append(ShowMuck(index[item.player], None))
            elif item.kind == "comment":
                out.append(Comment(item.text))
        if open_deal:
            self.deal_unseen(out, live, dealt, street, block, street_line)
        return out

    def deal_unseen(
        self, out: list[HistoryAction | _Dealt], live: set[str], dealt: set[str], street: int, block: int, line: int
    ) -> None:
        """The street's dealing is over: a live player without a ``Dealt to`` line got cards nobody saw, placed
        among the street's deals (from ``block`` in ``out``) in position order."""
        for name in self.players:
            if name not in live or name in dealt:
                continue
            player = self.index[name]
            deals = [k for k in range(block, len(out)) if isinstance(out[k], _Dealt)]
            later = [k for k in deals if getattr(out[k], "player", -1) > player]
            at = later[0] if later else (deals[-1] + 1 if deals else len(out))
            out.insert(at, _Dealt(player, self.deal(name, street, None)))
            self.lines.insert(at, line)

    def stated(self) -> Stated:
        """Every amount the text states, with its line, for the check of :mod:`~studpoker.history.sites.check`: the
        antes, the betting lines, the uncalled bets, what each player collects from which pot, the summary's
        pots and seat lines, and the lines PokerStars derives from the betting."""
        p, index = self.p, self.index
        stated = Stated(
            "PokerStars",
            p.hand_id,
            p.line,
            antes=[StatedAmount(p.antes[n][0], p.ante_lines[n], index[n], all_in=p.antes[n][1]) for n in self.players],
            actions=[_stated_action(item) for item in p.items if item.kind == "bet"],
            returned=[StatedAmount(chips, line, index[n]) for n, chips, line in p.returned],
            total_pot=StatedAmount(p.total_pot, p.total_line),
            rake=StatedAmount(p.rake, p.total_line),
            pots_after_rake=True,
            returns_stated=True,
            bets_open=True,
            states_derived=True,
            capped=[StatedAmount(k, line) for k, line in p.capped],
            open_pair=[StatedAmount(street, line) for street, line in p.open_pair],
            no_low=[StatedAmount(1, line) for line in p.no_low],
        )
        for name, chips, label, line in p.collected:
            # "collected ... from pot" names no pot: the pot, if there is one; checked against the player's winnings
            pot = None if label == "pot" else _pot_index(label)
            stated.collected.append(StatedAmount(chips, line, index[name], pot))
        for label, chips in p.pots:
            pot = _pot_index(label.lower())
            if pot is None:
                raise self.fail(f"the summary names a pot {label!r}")
            stated.pots.append(StatedAmount(chips, p.total_line, pot=pot))
        for name in self.players:
            if name not in p.summary:
                raise self.fail(f"the summary has no line for {name}")
            kind, _, value, line = p.summary[name]
            stated.folds.append(StatedAmount(value if kind == "folded" else 0, line, index[name]))
            if kind != "folded":
                stated.won.append(StatedAmount(value if kind in ("collected", "won") else 0, line, index[name]))
        return stated

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
            if known is not None and known.index != card.index:  # by index: no call into Card's __eq__
                raise self.fail(f"{name}'s earlier cards are not {_card_text(item.old)}: {item.text!r}")
            slots[i] = (card, up)
        slots.append((item.cards[0], face_up))
        return [start]

    def fill_from_summary(self) -> None:
        """Hands the summary shows must agree with the cards dealt; a mucked hand's cards complete the
        deals (a muck cannot carry them, and a replay may need them: R9.2)."""
        for name, (kind, cards, _, _) in self.p.summary.items():
            if cards is None:
                continue
            slots = self.slots[self.index[name]]
            if len(cards) != len(slots):
                if kind == "mucked":
                    raise self.fail(f"the summary shows {len(cards)} cards for {name}, who was dealt {len(slots)}")
                continue  # a show of part of the hand
            for i, card in enumerate(cards):
                known, up = slots[i]
                if known is not None and known.index != card.index:
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
            kind, cards, _, _ = self.p.summary.get(name, ("", None, 0, 0))
            if (kind in ("won", "lost")) != (name in shown) or (name in shown and cards != shown[name]):
                raise self.fail(f"the summary and the showdown disagree on what {name} showed")

    def check_duplicates(self) -> None:
        """No card may be in two places (the deals, the community card, the hands shown)."""
        where: dict[int, str] = {}  # by the card's index: a Card hashes in Python code
        if self.p.board is not None:
            where[self.p.board.index] = "the board"
        for player, slots in enumerate(self.slots):
            cards = [c for c, _ in slots]
            for shown_by, shown in self.shows:
                if shown_by == player and len(shown) == len(cards):
                    cards = [c if c is not None else s for c, s in zip(cards, shown, strict=True)]
            for card in cards:
                if card is not None and card.index in where:
                    raise self.fail(f"{card} is dealt twice ({where[card.index]} and {self.players[player]})")
                if card is not None:
                    where[card.index] = self.players[player]


#: The actions without an amount (``pb``, ``cc``, ``f``) of each player: immutable, shared by every hand.
_PLAIN_BETS: dict[tuple[int, str], Bet] = {}


def _bet(player: int, verb: str, amount: int) -> Bet:
    """A :class:`Bet`; one without an amount is shared, not made again."""
    if verb == "cbr":
        return Bet(player, verb, amount)
    found = _PLAIN_BETS.get((player, verb))
    if found is None:
        found = _PLAIN_BETS[player, verb] = Bet(player, verb)
    return found


#: The deals that show at most their last card (one card, or the first street's hole cards unseen): shared by every
#: hand, as most deals are these (fewer objects to make, and to keep).
_PLAIN_DEALS: dict[int, Deal] = {}


def _deal(player: int, cards: list[Card | None]) -> Deal:
    """A :class:`Deal`; one whose cards, but perhaps the last, are unknown is shared, not made again."""
    last = cards[-1]
    if len(cards) > 7 or any(card is not None for card in cards[:-1]):
        return Deal(player, tuple(cards))
    key = (player * 8 + len(cards)) * 53 + (52 if last is None else last.index)
    found = _PLAIN_DEALS.get(key)
    if found is None:
        found = _PLAIN_DEALS[key] = Deal(player, tuple(cards))
    return found


def _stated_action(item: _Item) -> StatedAction:
    """What a betting line says: a call what it adds, ``bets X`` a bet of X, ``raises X to Y`` X more than the bet
    faced to a round total of Y, ``brings in for X`` X."""
    said, chips, all_in = item.said, item.said_amount, item.all_in
    if said == "call":
        return StatedAction("call", item.line, added=chips, all_in=all_in)
    if said == "bet":
        return StatedAction("bet", item.line, added=chips, to=item.amount, all_in=all_in)
    if said == "raise":
        return StatedAction("raise", item.line, to=item.amount, by=chips, all_in=all_in)
    if said == "pb":
        return StatedAction("bring-in", item.line, added=chips, to=chips, all_in=all_in)
    return StatedAction(said, item.line)


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
