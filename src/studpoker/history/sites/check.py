"""Every amount a room's file states, checked against the hand's replay through the engine.

:func:`check` lists each disagreement with its line; :func:`verify` replays a record read by a room reader
and raises :class:`~studpoker.history.sites.base.SiteError` (room, hand, the first line at fault) on the first.

**The rake.** The engine pays whole pots. A room takes its rake from the pots first: each pot pays a share
in proportion to its size (the cents left over to the largest remainders), and what is left is divided as
the rules divide the pot (R11.5, R11.6) among the same winners (:mod:`~studpoker.history.payout`). A room that
shows another way says so in its reader.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...engine import ActionKind, HandState, RulesError
from ...engine.events import ActionTaken, AntePosted, Returned, StreetStarted
from ..derived import Derived, derived, no_low, recorded_total
from ..model import Bet, HandRecord
from ..payout import raked_pots
from ..replay import ReplayError, ReplayResult, replay
from ..stated import Stated, StatedAmount
from .base import SiteError

__all__ = ["Replayed", "action_line", "check", "notes", "replayed", "verify"]

_GROUP = {
    ActionKind.FOLD: "fold",
    ActionKind.CHECK: "check",
    ActionKind.CALL: "call",
    ActionKind.BRING_IN: "bring-in",
    ActionKind.COMPLETE: "wager",
    ActionKind.BET: "wager",
    ActionKind.RAISE: "wager",
}
_STATED_GROUP = {"complete": "wager", "bet": "wager", "raise": "wager"}


@dataclass
class Replayed:
    """What the replay says of the amounts a file can state, after ``rake``."""

    antes: list[tuple[int, bool]]  # per player: (chips, all-in)
    actions: list[tuple[str, int, int, bool]]  # per Bet: (group, chips added, round total after, all-in)
    returned: list[int]  # per player
    gross: list[int]  # per pot, before the rake
    shares: list[int]  # per pot, the rake it pays
    payouts: list[dict[int, int]]  # per pot: player -> chips after the rake
    invested: list[int]  # per player, after returns
    won: list[int]  # per player, after the rake
    stacks: list[int]  # per player, after the rake
    folded_on: dict[int, int]  # player -> street
    derived: Derived | None = None  # what the room derives from the betting, where the file states any of it
    no_low: int = 0  # hi/lo pots at a showdown without a low


def replayed(record: HandRecord, state: HandState, rake: int) -> Replayed:
    """The :class:`Replayed` of a finished replay of ``record``, ``rake`` taken from its pots."""
    n = state.n
    record_bets = [a for a in record.actions if isinstance(a, Bet)]
    antes = [(0, False)] * n
    actions: list[tuple[str, int, int, bool]] = []
    returned = [0] * n
    invested = [0] * n
    bets = [0] * n
    folded_on: dict[int, int] = {}
    street = 0
    for event in state.events:
        if isinstance(event, AntePosted):
            antes[event.player] = (event.amount, event.all_in)
            invested[event.player] += event.amount
        elif isinstance(event, StreetStarted):
            street, bets = event.street, [0] * n
        elif isinstance(event, Returned):
            returned[event.player] += event.amount
            invested[event.player] -= event.amount
        elif isinstance(event, ActionTaken):
            kind = event.action.kind
            if kind in (ActionKind.SHOW, ActionKind.MUCK):
                continue
            p, group = event.player, _GROUP[kind]
            if group == "fold":
                folded_on[p] = street
                actions.append((group, 0, bets[p], False))
                continue
            to = bets[p] if group == "check" else event.action.amount
            k = len(actions)
            if group == "wager" and (excess := to - recorded_total(record_bets, k, to)):
                to -= excess  # the replay's smallest legal wager, more than the file says (recorded_total)
                invested[p] -= excess
                returned[p] -= excess
            actions.append((group, to - bets[p], to, event.all_in))
            invested[p] += to - bets[p]
            bets[p] = to
    stated = record.info.get("stated")
    shares: list[int] | None = None
    if isinstance(stated, Stated) and stated.pot_rakes:  # the file says what each pot pays
        shares = [0] * (max(a.pot or 0 for a in stated.pot_rakes) + 1)
        for paid in stated.pot_rakes:
            shares[paid.pot or 0] += paid.amount
    raked = raked_pots(
        state,
        rake,
        odd_chip_low=isinstance(stated, Stated) and stated.odd_chip_low,
        from_main=isinstance(stated, Stated) and stated.rake_from_main,
        shares=shares,
    )
    gross, shares = raked.gross, raked.shares
    payouts = [dict(pot) for pot in raked.payouts]
    won = [0] * n
    for pot in payouts:
        for player, chips in pot.items():
            won[player] += chips
    stacks = [state.starting_stacks[p] - invested[p] + won[p] for p in range(n)]
    found = None
    if isinstance(stated, Stated) and (
        stated.states_derived or stated.bets_open or any(a.by is not None for a in stated.actions)
    ):
        found = derived(record, state)
    lows = sum(no_low(state, raked)) if isinstance(stated, Stated) and stated.states_derived else 0
    return Replayed(antes, actions, returned, gross, shares, payouts, invested, won, stacks, folded_on, found, lows)


class _Check:
    def __init__(self, record: HandRecord, stated: Stated, account: Replayed) -> None:
        self.record, self.stated, self.account = record, stated, account
        self.problems: list[tuple[int, str]] = []

    def money(self, chips: int) -> str:
        return _money(self.record, chips)

    def differ(self, line: int, what: str, text: str, replay: str) -> None:
        self.problems.append((line, f"{what}: the file says {text}, the replay {replay}"))

    def name(self, player: int | None) -> str:
        return self.record.name(player) if player is not None else "?"

    def per_player(self, amounts: Sequence[StatedAmount], derived: Sequence[int], what: str) -> None:
        """Each player's stated amounts (summed when a file states several) against the replay's."""
        totals: dict[int, tuple[int, int]] = {}
        for a in amounts:
            assert a.player is not None
            chips, line = totals.get(a.player, (0, a.line))
            totals[a.player] = (chips + a.amount, line)
        for player, (chips, line) in sorted(totals.items(), key=lambda item: item[1][1]):
            if chips != derived[player]:
                self.differ(line, f"{what} {self.name(player)}", self.money(chips), self.money(derived[player]))

    def run(self) -> list[tuple[int, str]]:
        stated, account = self.stated, self.account
        for ante in stated.antes:
            assert ante.player is not None
            if ante.amount != account.antes[ante.player][0]:
                self.differ(
                    ante.line,
                    f"{self.name(ante.player)}'s ante",
                    self.money(ante.amount),
                    self.money(account.antes[ante.player][0]),
                )
            if ante.all_in is not None and ante.all_in != account.antes[ante.player][1]:
                posted = "all-in" if account.antes[ante.player][1] else "not all-in"
                self.differ(
                    ante.line, f"{self.name(ante.player)}'s ante", "all-in" if ante.all_in else "not all-in", posted
                )
        if stated.antes:  # a room that writes antes writes every one: a player dealt in without one is a change
            named = {a.player for a in stated.antes}
            for p, (chips, _) in enumerate(account.antes):
                if chips and p not in named:
                    self.differ(stated.line, f"{self.name(p)}'s ante", "nothing", self.money(chips))
        bets = [a for a in self.record.actions if isinstance(a, Bet)]
        for k, (said, got) in enumerate(zip(stated.actions, account.actions, strict=False)):
            group, added, to, all_in = got
            who = self.name(bets[k].player)
            said_group = _STATED_GROUP.get(said.kind, said.kind)
            if said_group != group:
                self.differ(said.line, f"{who}'s action", said.kind, group.replace("wager", "a bet or raise"))
            if said.added is not None and said.added != added:
                self.differ(said.line, f"what {who} puts in", self.money(said.added), self.money(added))
            if said.to is not None and said.to != to and group != "check":
                self.differ(said.line, f"{who}'s total for the round", self.money(said.to), self.money(to))
            if said.all_in is not None and said.all_in != all_in:
                self.differ(said.line, f"whether {who} is all-in", str(said.all_in), str(all_in))
            if account.derived is not None and k < len(account.derived.to_call) and group == "wager":
                faced = account.derived.to_call[k]
                if said.by is not None and said.by != to - faced:
                    self.differ(said.line, f"what {who} raises by", self.money(said.by), self.money(to - faced))
                if stated.bets_open and said.kind in ("bet", "raise") and (said.kind == "raise") != (faced > 0):
                    self.differ(said.line, f"{who}'s action", said.kind, "a raise" if faced else "a bet")
        if len(stated.actions) != len(account.actions):
            self.problems.append((stated.line, "the replay has a different number of betting actions"))
        if stated.states_derived:
            self.derived_lines()
        returned = {a.player for a in stated.returned}
        self.per_player(stated.returned, account.returned, "the uncalled bet returned to")
        for p, chips in enumerate(account.returned):
            if chips and p not in returned and stated.returns_stated:
                self.differ(stated.line, f"the uncalled bet returned to {self.name(p)}", "nothing", self.money(chips))
        self.collected()
        self.per_player(stated.won, account.won, "what is won by")
        self.per_player(stated.invested, account.invested, "what is put in by")
        self.per_player(stated.stacks, account.stacks, "the final stack of")
        net = [w - i for w, i in zip(account.won, account.invested, strict=True)]
        for a in stated.net:
            assert a.player is not None
            if a.amount != net[a.player]:
                self.differ(
                    a.line, f"the net result of {self.name(a.player)}", self.money(a.amount), self.money(net[a.player])
                )
        for a in stated.folds:
            assert a.player is not None
            fold = account.folded_on.get(a.player, 0)
            if fold != a.amount:
                self.differ(
                    a.line,
                    f"the street {self.name(a.player)} folded on",
                    str(a.amount or "no fold"),
                    str(fold or "no fold"),
                )
        gross, shares = account.gross, account.shares
        rake = sum(shares)
        if stated.total_pot is not None:
            total = sum(gross) if stated.total_includes_rake else sum(gross) - rake
            if stated.total_pot.amount != total:
                self.differ(
                    stated.total_pot.line, "the total pot", self.money(stated.total_pot.amount), self.money(total)
                )
        if stated.total_pot is not None and stated.rake is not None and stated.collected:
            total = stated.total_pot.amount - (stated.rake.amount if stated.total_includes_rake else 0)
            paid = sum(a.amount for a in stated.collected)
            if paid != total:
                self.problems.append(
                    (
                        stated.rake.line,
                        f"the players collect {self.money(paid)}, not the total pot less the rake"
                        f" ({self.money(total)})",
                    )
                )
        if stated.pot_rakes and stated.rake is not None:
            paid = sum(a.amount for a in stated.pot_rakes)
            if paid != stated.rake.amount:
                written = self.money(stated.rake.amount)
                self.differ(stated.rake.line, "the rake", written, f"the pots' {self.money(paid)}")
        for a in stated.pots:
            assert a.pot is not None
            if a.pot >= len(gross):
                self.problems.append((a.line, f"a pot {a.pot + 1} the replay does not have ({len(gross)} pots)"))
                continue
            chips = gross[a.pot] - (shares[a.pot] if stated.pots_after_rake else 0)
            if a.amount != chips:
                label = "the main pot" if a.pot == 0 else f"side pot {a.pot}"
                self.differ(a.line, label, self.money(a.amount), self.money(chips))
        return sorted(self.problems, key=lambda p: p[0])

    def derived_lines(self) -> None:
        """The lines a room derives from the betting (``Betting is capped``, ``Pair on board``, ``No low hand
        qualified``): each where the replay puts it, and none elsewhere."""
        stated, account = self.stated, self.account
        assert account.derived is not None
        for said, replayed, what in (
            (stated.capped, account.derived.capped, "'Betting is capped' (after betting actions)"),
            (stated.open_pair, account.derived.open_pair, "'Pair on board' (streets)"),
        ):
            written = [a.amount for a in said]
            if written != list(replayed):
                shown = [k + 1 for k in written] if said is stated.capped else written
                expected = [k + 1 for k in replayed] if said is stated.capped else list(replayed)
                line = said[0].line if said else stated.line
                self.differ(line, what, str(shown or "none"), str(expected or "none"))
        if len(stated.no_low) != account.no_low:
            line = stated.no_low[0].line if stated.no_low else stated.line
            self.differ(line, "the 'No low hand qualified' lines", str(len(stated.no_low)), str(account.no_low))

    def collected(self) -> None:
        stated, account = self.stated, self.account
        if not stated.collected:
            return
        if all(a.pot is not None for a in stated.collected):
            said: dict[tuple[int, int], tuple[int, int]] = {}
            for a in stated.collected:
                assert a.player is not None and a.pot is not None
                chips, line = said.get((a.player, a.pot), (0, a.line))
                said[a.player, a.pot] = (chips + a.amount, line)
            for (player, pot), (chips, line) in said.items():
                derived = account.payouts[pot].get(player, 0) if pot < len(account.payouts) else 0
                if chips != derived:
                    label = (
                        "the pot" if len(account.payouts) == 1 else ("the main pot" if pot == 0 else f"side pot {pot}")
                    )
                    self.differ(
                        line, f"what {self.name(player)} collects from {label}", self.money(chips), self.money(derived)
                    )
            winners = {(p, i) for i, pot in enumerate(account.payouts) for p, chips in pot.items() if chips}
            for player, pot in sorted(winners - set(said)):
                self.differ(
                    stated.line,
                    f"what {self.name(player)} collects",
                    "nothing",
                    self.money(account.payouts[pot][player]),
                )
        else:
            self.per_player(stated.collected, account.won, "what is collected by")
            named = {a.player for a in stated.collected}
            for p, chips in enumerate(account.won):
                if chips and p not in named:
                    self.differ(stated.line, f"what {self.name(p)} collects", "nothing", self.money(chips))


def _money(record: HandRecord, chips: int) -> str:
    if record.chip_value == 1:
        return f"{chips:,}"
    symbol = {"USD": "$", "EUR": "€", "GBP": "£"}.get(record.currency or "", "")
    sign = "-" if chips < 0 else ""
    return f"{sign}{symbol}{abs(chips) * record.chip_value:,.2f}"


def check(record: HandRecord, result: ReplayResult) -> list[tuple[int, str]]:
    """What a hand's file states that its replay contradicts: (line, sentence), in line order; empty if
    nothing. A record without stated amounts (``info["stated"]``) has nothing to compare."""
    stated = record.info.get("stated")
    if not isinstance(stated, Stated):
        return []
    state = result.state
    if not state.is_over:
        return [(stated.line, "the history stops before the end of the hand (missing cards or actions)")]
    rake = stated.rake.amount if stated.rake is not None else 0
    return _Check(record, stated, replayed(record, state, rake)).run()


def verify(record: HandRecord) -> ReplayResult:
    """Replay a record read from a room's file and :func:`check` it: :class:`SiteError` (room, hand, line)
    for a broken rule or for the first amount that disagrees (the message lists them all)."""
    stated = record.info.get("stated")
    room = stated.room if isinstance(stated, Stated) else str(record.info.get("room", ""))
    hand = stated.hand if isinstance(stated, Stated) else str(record.info.get("hand", ""))
    try:
        result = replay(record, f"{room} hand {hand}")
    except RulesError as error:  # stacks the engine cannot seat (a zero stack dealt in)
        raise SiteError(
            f"the hand cannot be played: {error}", room=room, hand=hand, line=_action_line(record, None)
        ) from None
    except ReplayError as error:
        line = _action_line(record, error.index)
        raise SiteError(str(error).split(": ", 1)[-1], room=room, hand=hand, line=line) from None
    problems = check(record, result)
    if problems:
        first, *others = problems
        message = "; ".join([first[1], *(f"line {line}: {text}" for line, text in others)])
        raise SiteError(message, room=room, hand=hand, line=first[0])
    result.notes.extend(notes(record))
    return result


def notes(record: HandRecord) -> list[str]:
    """What the reading of a room's file adds to its replay's notes: a rake the file does not state, implied."""
    stated = record.info.get("stated")
    if isinstance(stated, Stated) and stated.rake_implied and stated.rake is not None:
        rake = _money(record, stated.rake.amount)
        return [f"the rake, {rake}, is implied: the file does not state it (the pot less what the players take)"]
    return []


def action_line(record: HandRecord, index: int | None) -> int | None:
    """The file line of the record's action ``index`` (a room's builder keeps one per action); None if unknown."""
    lines = record.info.get("lines")
    if index is None or not isinstance(lines, tuple) or not 0 <= index < len(lines):
        return None
    line = lines[index]
    return line if isinstance(line, int) else None


def _action_line(record: HandRecord, index: int | None) -> int | None:
    """:func:`action_line`, else the line where the hand starts."""
    line = action_line(record, index)
    if line is None:
        stated = record.info.get("stated")
        return stated.line if isinstance(stated, Stated) else None
    return line
