"""A PokerStars hand checked against its replay: every line its text states, compared with :mod:`.account`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...engine import HandState
from ..model import Bet, HandRecord
from ..replay import ReplayResult, replay
from .account import _account
from .vocabulary import PokerStarsError, _Money, _pot_index, _pot_label


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
