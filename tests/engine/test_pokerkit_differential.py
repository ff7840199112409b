"""Differential test: our engine against PokerKit on thousands of random fixed-limit stud hands.

Seven-card stud (PokerKit's ``FixedLimitSevenCardStud``), stud hi/lo eight-or-better
(``FixedLimitSevenCardStudHighLowSplitEightOrBetter``) and razz (``FixedLimitRazz``) are
played in both engines with the same cards and the same actions, 2 to 8 players. With 7 or 8
players the deck can run short on 7th street: PokerKit has no procedure for that (SPEC R8 has),
so such a hand is compared up to the moment our engine starts its short-deck procedure (a
scramble or a community card), and counted; every hand that ends before it, as most do, is
compared to the end. Most hands use the SPEC stakes (ante 1, bring-in 3, 10/20); a smaller
share uses ante 2, bring-in 5, 10/20 (short antes, a bring-in of exactly half a bet) and
ante 1, bring-in 4, 5/10 (odd half bets, a bring-in above half a bet). Stacks are random:
very short (all-in for the ante, all-in calls and wagers for less, side pots), mixed, and deep.

The rules are set where the two rule books coincide: ``raise_cap=3`` with
``headsup_uncap=NEVER`` (PokerKit allows the opening bet or completion plus three raises
in every round, heads-up too), no open-pair double bet, board ties and odd chips by seat
order (``later_street_tiebreak=POSITION``, ``odd_chip_rule=POSITION``), and PokerKit's
antes trimmed like bets (so that a short ante makes a side pot, R5.2); one more run has them untrimmed
against our ``ante_side_pots=False`` (every ante dead money in the main pot). PokerKit runs in
tournament mode, where it refuses a fold when a check is available, against
``allow_fold_when_check_available=False``, and in cash-game mode, where it accepts that
fold (with a warning), against ``True``.

What is compared, hand by hand:

* dealing: our engine is dealt by hand (``manual=True``) and PokerKit with explicit
  ``deal_hole``/``burn_card`` cards, both from one shuffled deck; at every card both must
  ask for the same player and the same face (up or down);
* at every decision: the player to act, the street, every stack, every bet of the round,
  every player's total contribution, and the complete legal set in one representation:
  fold / check / call N / bring-in N / complete-bet-raise to N (round totals; PokerKit's
  min..max range of completion amounts is one amount, possibly an all-in, in limit play);
* the main and side pots (amounts and eligible players) when each betting round starts
  and at the showdown;
* the chips PokerKit pushes from each of its pots, and the final stacks;
* and the chips our engine pays from each pot, against SPEC's division (R10.3, R11.4-R11.6)
  applied to the winners it found (which PokerKit's payments confirm, difference 6).

One seeded random policy picks an action from the common legal set (weighted toward checks
and calls, so that most hands reach the showdown) and applies it to both engines. At the
showdown everybody shows (``auto_show=True`` here, an explicit "show" for each player in
PokerKit). In all, 3,750 random hands, about 30 seconds.

Known differences: PokerKit follows another rule than SPEC.md. Each is handled narrowly
where it arises and counted, and a ``test_known_difference_*`` test pins it down in a
minimal hand, so that a PokerKit release that changes the behaviour is noticed.

1. Short bring-in (R5.4, R5.5, R6.10). A bring-in player with fewer chips than the bring-in
   posts them all, his only option (PokerKit also offers a "completion" to his stack); SPEC
   still makes everybody else enter for the full bring-in, PokerKit only for the chips posted.
   Avoided: a hand whose bring-in would be short is dealt with that player's stack raised by
   one bring-in.
2. Bring-in player with exactly the bring-in left (R5.5). SPEC: he posts it, all-in, and has
   no other option; PokerKit also offers a "completion" to the same amount, which it would
   count as the opening bet. Filtered: that PokerKit option is dropped.
3. Bring-in player all-in for the ante (R5.6). SPEC lets the next player fold, bring in or
   complete; PokerKit has no fold there. Filtered: our FOLD is dropped at that decision.
4. All-in wagers for less than a full completion, bet or raise (R6.4, R6.5, R6.9, R6.12).
   SPEC: an all-in of at least half a bet is a full wager, re-opens the betting and counts
   toward the cap; a smaller one does neither; the next raise goes to the last full level
   plus one bet. PokerKit: only an all-in raise at least as big as the previous raise
   re-opens (and any all-in opening bet does, however small, see TC-20), every all-in counts
   toward the cap, and the next raise goes to the all-in amount plus one bet. Filtered:
   after such an all-in, the rest of that betting round compares and plays fold, check and
   call only (the all-in itself, everything before it and every later round are compared in
   full).
5. (Formerly a difference.) A wager that nobody can call: PokerKit refuses a completion, bet
   or raise when every other live player has at most the current bet in chips. SPEC is
   silent; our engine takes the same decision (docs/engine.md), and it is compared as is.
6. Pot division at the showdown. PokerKit first kills (mucks) the hands that win nothing and
   rebuilds its pots, merging neighbouring pots whose remaining contenders are the same
   (R11.3 awards each pot separately, so the odd chips of two split pots can differ); gives
   every odd chip of a split to the first winner in seat order (R11.6: one chip each, in
   order); splits a hi/lo pot won both ways by the same players half by half (R11.5.3: one
   even split of the whole pot); and, when some contender has a qualifying low, halves every
   pot even if none of its contenders has one, the "low" half going to all of them (R10.3,
   R11.5.1: the best high hand scoops). Translated, not filtered: the winners our engine
   found in each pot are divided by PokerKit's convention, and that must be exactly what
   PokerKit pushes from each of its pots; the final stacks are checked the same way.
7. One player left who can bet (R6.13c). After a fold (with a check available, cash-game
   mode) leaves a single player with chips and nobody to bet against, SPEC ends the round;
   PokerKit still asks him to act. Handled: he checks in PokerKit only.
8. (Formerly a difference.) A completion that adds less than half a bet to the bring-in (only
   with a bring-in above half the small bet): the completion, the round's first full bet
   (R6.3), re-opens the betting for those who posted or called the bring-in, in both engines
   (our decision, docs/engine.md), and it is compared as is.
"""

from __future__ import annotations

import random
import time
import warnings
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import pytest

from studpoker.cards import CARDS, Card, parse_cards
from studpoker.engine import (
    Action,
    ActionKind,
    Award,
    HandState,
    HeadsUpUncap,
    OddChipRule,
    Phase,
    Rules,
    Tiebreak,
    Variant,
)
from studpoker.engine.events import Reshuffled

if TYPE_CHECKING:
    from pokerkit import State as PkState

pk = pytest.importorskip("pokerkit")


class Stakes(NamedTuple):
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int


SPEC_STAKES = Stakes(1, 3, 10, 20)
VARIANTS = [Variant.STUD7, Variant.STUD7_HL8, Variant.RAZZ]
HANDS_SPEC_STAKES = 400  # per variant and PokerKit mode: 6 x 400 = 2,400 hands
HANDS_OTHER_STAKES = 150  # per variant and stakes: 6 x 150 = 900 hands
SEED = 20240611

PK_GAMES: dict[Variant, Any] = {
    Variant.STUD7: pk.FixedLimitSevenCardStud,
    Variant.STUD7_HL8: pk.FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    Variant.RAZZ: pk.FixedLimitRazz,
}
# Everything except the cards, the burns, the players' decisions and the showdown, which we drive.
PK_AUTOMATIONS = (
    pk.Automation.ANTE_POSTING,
    pk.Automation.BET_COLLECTION,
    pk.Automation.HAND_KILLING,
    pk.Automation.CHIPS_PUSHING,
    pk.Automation.CHIPS_PULLING,
    pk.Automation.RUNOUT_COUNT_SELECTION,
)
PK_CHECK_FOLD_WARNING = "There is no reason for this player to fold"

# The common representation of a legal action: (kind, round total). "raise" stands for
# complete, bet and raise alike (one PokerKit operation).
Option = tuple[str, int]
FOLD: Option = ("fold", 0)
CHECK: Option = ("check", 0)
PASSIVE = frozenset({"fold", "check", "call"})
POLICY_WEIGHTS = {"fold": 1.0, "check": 3.0, "call": 4.0, "bring-in": 3.0, "raise": 2.5}

# Counters of what the random hands went through (keys of Duo.seen).
SHOWDOWN = "showdowns"
SIDE_POTS = "showdowns with side pots"
ALL_IN = "all-in calls and full all-in wagers"
SHORT_ALL_IN = "short all-in wagers (difference 4)"


def table_rules(variant: Variant, stakes: Stakes, check_fold: bool, trim: bool = True) -> Rules:
    """The rules on which SPEC.md and PokerKit agree (see the module docstring)."""
    return Rules(
        variant,
        *stakes,
        raise_cap=3,
        headsup_uncap=HeadsUpUncap.NEVER,
        open_pair_double_bet=False,
        later_street_tiebreak=Tiebreak.POSITION,
        odd_chip_rule=OddChipRule.POSITION,
        allow_fold_when_check_available=check_fold,
        ante_side_pots=trim,
    )


def pokerkit_state(
    variant: Variant, stakes: Stakes, stacks: Sequence[int], check_fold: bool, trim: bool = True
) -> PkState:
    """PokerKit's hand: tournament mode refuses a fold when a check is available, cash-game mode accepts it."""
    mode = pk.Mode.CASH_GAME if check_fold else pk.Mode.TOURNAMENT
    ante, bring_in, small_bet, big_bet = stakes
    state: PkState = PK_GAMES[variant].create_state(
        PK_AUTOMATIONS, trim, ante, bring_in, small_bet, big_bet, tuple(stacks), len(stacks), mode=mode
    )
    return state


# -- legal sets in the common representation --------------------------------------------------------


def our_option(action: Action) -> Option:
    kind = action.kind
    if kind is ActionKind.FOLD:
        return FOLD
    if kind is ActionKind.CHECK:
        return CHECK
    if kind is ActionKind.CALL:
        return ("call", action.amount)
    if kind is ActionKind.BRING_IN:
        return ("bring-in", action.amount)
    assert kind.aggressive, f"unexpected action {action} in a betting round"
    return ("raise", action.amount)


def our_options(state: HandState) -> set[Option]:
    return {our_option(a) for a in state.legal_actions()}


def pk_options(state: PkState) -> set[Option]:
    player = state.actor_index
    assert player is not None
    out: set[Option] = set()
    if state.can_fold():
        out.add(FOLD)
    if state.can_check_or_call():
        amount = state.checking_or_calling_amount
        assert amount is not None
        out.add(CHECK if amount == 0 else ("call", state.bets[player] + amount))
    if state.can_post_bring_in():
        bring_in = state.effective_bring_in_amount
        assert bring_in is not None
        out.add(("bring-in", bring_in))
    if state.can_complete_bet_or_raise_to():
        low = state.min_completion_betting_or_raising_to_amount
        high = state.max_completion_betting_or_raising_to_amount
        assert low is not None and low == high, f"a limit game offers one amount, got {low}..{high}"
        out.add(("raise", low))
    return out


def apply_pk(state: PkState, option: Option) -> None:
    kind, amount = option
    if kind == "fold":
        state.fold()
    elif kind in ("check", "call"):
        state.check_or_call()
    elif kind == "bring-in":
        state.post_bring_in()
    else:
        state.complete_bet_or_raise_to(amount)


# -- pots ----------------------------------------------------------------------------------------

PotKey = tuple[int, tuple[int, ...]]


def normalized(pots: Iterable[tuple[int, Iterable[int]]]) -> list[PotKey]:
    """Pots as (amount, eligible players): empty pots dropped, neighbours with the same players merged."""
    out: list[PotKey] = []
    for amount, players in pots:
        eligible = tuple(sorted(players))
        if amount == 0:
            continue
        if out and out[-1][1] == eligible:
            out[-1] = (out[-1][0] + amount, eligible)
        else:
            out.append((amount, eligible))
    return out


def our_pots(state: HandState) -> list[PotKey]:
    return normalized((pot.amount, pot.eligible) for pot in state.pots)


def pk_pots(state: PkState) -> list[PotKey]:
    return normalized((pot.amount, pot.player_indices) for pot in state.pots)


@dataclass
class PkPot:
    """A pot as PokerKit divides it, after the hands that win nothing are killed (difference 6)."""

    amount: int
    contenders: tuple[int, ...]
    high: tuple[int, ...]  # the winners our engine found, in seat order
    low: tuple[int, ...]


def pk_pots_after_killing(pots: Sequence[PotKey], awards: Sequence[Award]) -> list[PkPot]:
    """Our pots with the hands that win nothing removed and neighbours with the same contenders merged.

    A merged pot has the same winners in each of its parts: its contenders are the same,
    and the hands removed win nothing anywhere.
    """
    winning = {a.player for a in awards}
    out: list[PkPot] = []
    for index, (amount, eligible) in enumerate(pots):
        shares = [a for a in awards if a.pot == index]
        high = tuple(sorted({a.player for a in shares if a.share in ("pot", "high", "split")}))
        low = tuple(sorted({a.player for a in shares if a.share in ("low", "split")}))
        contenders = tuple(p for p in eligible if p in winning)
        if out and out[-1].contenders == contenders:
            if len(contenders) > 1:  # (a lone contender takes a pot unevaluated)
                assert (out[-1].high, out[-1].low) == (high, low), "merged pots with different winners"
            out[-1].amount += amount
        else:
            out.append(PkPot(amount, contenders, high, low))
    return out


def spec_split(amount: int, winners: Sequence[int]) -> Counter[int]:
    """R11.4, R11.6 with ``odd_chip_rule=POSITION``: equal shares, odd chips one each in seat order."""
    share, odd = divmod(amount, len(winners))
    return Counter({p: share + (1 if i < odd else 0) for i, p in enumerate(winners)})


def spec_division(amount: int, high: Sequence[int], low: Sequence[int]) -> Counter[int]:
    """What SPEC pays from one pot to its high and low winners (R10.3, R11.5)."""
    if not low or set(low) == set(high):  # a scoop, or the same winners both ways: one split
        return spec_split(amount, high)
    half = amount // 2  # the odd chip goes to the high half
    return spec_split(amount - half, high) + spec_split(half, low)


def pk_split(amount: int, winners: Sequence[int]) -> Counter[int]:
    """PokerKit's split: equal shares, every odd chip to the first winner in seat order."""
    share, odd = divmod(amount, len(winners))
    out = Counter(dict.fromkeys(winners, share))
    out[winners[0]] += odd
    return out


def pk_division(variant: Variant, pot: PkPot, low_in_hand: bool) -> Counter[int]:
    """The chips PokerKit pays from one of its pots to the winners our engine found (difference 6)."""
    if len(pot.contenders) == 1:
        return Counter({pot.contenders[0]: pot.amount})
    if variant is not Variant.STUD7_HL8 or not low_in_hand:
        return pk_split(pot.amount, pot.high)
    # Some contender has a low: every pot is halved, the high half taking the odd chip; with no
    # low among this pot's contenders the "low" half goes to all of them.
    half = pot.amount // 2
    return pk_split(pot.amount - half, pot.high) + pk_split(half, pot.low or pot.contenders)


# -- one hand in both engines ---------------------------------------------------------------------


class Duo:
    """One hand dealt from one deck and played in lockstep in our engine and in PokerKit."""

    def __init__(
        self,
        variant: Variant,
        stakes: Stakes,
        stacks: Sequence[int],
        deck: Sequence[Card],
        *,
        check_fold: bool = False,
        seen: Counter[str] | None = None,
        trim: bool = True,
    ) -> None:
        self.variant = variant
        self.stakes = stakes
        self.rules = table_rules(variant, stakes, check_fold, trim)
        self.ours = HandState(self.rules, stacks, manual=True)
        self.pk = pokerkit_state(variant, stakes, stacks, check_fold, trim)
        self.short_deck = False  # our engine began the short-deck procedure (R8): compared up to there
        self.deck = iter(deck)
        self.seen: Counter[str] = Counter() if seen is None else seen
        self.log = [
            f"{variant.value} {stakes} check_fold={check_fold} stacks={list(stacks)}",
            f"deck (deal order, burns included): {' '.join(map(str, deck))}",
        ]
        self.round_checked: int | None = None  # the street whose opening pots were compared
        self.short_all_in_street: int | None = None  # difference 4: passive play for the rest of that round
        self.showdown_pots: list[PotKey] | None = None

    def fail(self, message: str) -> str:
        return "\n".join([message, *self.log])

    # -- dealing and PokerKit's bookkeeping

    def advance(self) -> bool:
        """Deal and show until a player must decide; False when the hand is over (or, with the deck short, when
        our engine begins SPEC's short-deck procedure, which PokerKit does not have)."""
        while True:
            self._pk_bookkeeping()
            if self.ours.phase is Phase.DEAL:
                request = self.ours.card_needed
                if (request is not None and request.player is None) or any(
                    isinstance(e, Reshuffled) for e in self.ours.events[-4:]
                ):
                    self.short_deck = True
                    return False
                self._deal()
            elif self.ours.is_over:
                assert not self.pk.status, self.fail("our hand is over, PokerKit's is not")
                return False
            else:
                self._check_table()
                return True

    def _pk_bookkeeping(self) -> None:
        """PokerKit's burns, its showdown and its extra check (our engine does these by itself)."""
        state = self.pk
        while True:
            if state.can_burn_card():
                state.burn_card(str(next(self.deck)))
            elif state.actor_index is not None and self.ours.actor is None:
                # Difference 7 (R6.13c): PokerKit asks the one player left who can bet to act.
                options = pk_options(state)
                can_bet = [p for p in range(self.ours.n) if state.statuses[p] and state.stacks[p] > 0]
                assert can_bet == [state.actor_index] and CHECK in options <= {CHECK, FOLD}, self.fail(
                    f"PokerKit asks player {state.actor_index} to act ({sorted(options)}), our engine does not"
                )
                state.check_or_call()
                self.seen["PokerKit's extra check by the last player who can bet (difference 7)"] += 1
            elif state.showdown_index is not None:
                if self.showdown_pots is None:
                    self.showdown_pots = pk_pots(state)
                    assert self.showdown_pots == our_pots(self.ours), self.fail(
                        f"pots at the showdown: ours {our_pots(self.ours)}, PokerKit {self.showdown_pots}"
                    )
                state.show_or_muck_hole_cards(True)
            else:
                return

    def _deal(self) -> None:
        request = self.ours.card_needed
        assert request is not None and request.player is not None, self.fail("a community card was asked for")
        player = request.player
        assert self.pk.hole_dealee_index == player, self.fail(
            f"next card to player {player} (ours), {self.pk.hole_dealee_index} (PokerKit)"
        )
        assert self.pk.hole_dealing_statuses[player][0] is request.face_up, self.fail(f"face of {player}'s card")
        card = next(self.deck)
        self.ours.deal(card)
        self.pk.deal_hole(str(card), player)

    def _check_table(self) -> None:
        ours, state = self.ours, self.pk
        assert state.actor_index == ours.actor, self.fail(f"actor: ours {ours.actor}, PokerKit {state.actor_index}")
        assert state.street_index is not None and state.street_index + 3 == ours.street, self.fail("street")
        assert tuple(state.stacks) == ours.stacks, self.fail(f"stacks: ours {ours.stacks}, PokerKit {state.stacks}")
        assert tuple(state.bets) == ours.bets, self.fail(f"bets: ours {ours.bets}, PokerKit {state.bets}")
        totals = tuple(-payoff for payoff in state.payoffs)
        assert totals == ours.totals, self.fail(f"contributions: ours {ours.totals}, PokerKit {totals}")
        if self.round_checked != ours.street:  # the first decision of a betting round
            self.round_checked = ours.street
            assert pk_pots(state) == our_pots(ours), self.fail(
                f"pots: ours {our_pots(ours)}, PokerKit {pk_pots(state)}"
            )

    # -- decisions

    def full_target(self) -> int:
        """The next full completion, bet or raise (R6.8; no open-pair option, no short all-in so far)."""
        ours, stakes = self.ours, self.stakes
        if ours.street == 3:
            return stakes.small_bet if ours.to_call < stakes.small_bet else ours.to_call + stakes.small_bet
        return ours.to_call + (stakes.small_bet if ours.street == 4 else stakes.big_bet)

    def raw_options(self) -> tuple[set[Option], set[Option]]:
        """Our legal set and PokerKit's, before any known difference is filtered."""
        return our_options(self.ours), pk_options(self.pk)

    def options(self) -> list[Option]:
        """The legal set, the same in both engines once the known differences are filtered out."""
        ours = self.ours
        player = ours.actor
        assert player is not None
        bet, stack = ours.bets[player], ours.stacks[player]
        mine, theirs = self.raw_options()
        bring_in = [amount for kind, amount in mine if kind == "bring-in"]
        if bring_in and FOLD in mine:  # difference 3 (R5.6)
            mine.discard(FOLD)
            self.seen["our fold for an all-in bring-in player dropped (difference 3)"] += 1
        if bring_in and stack == bring_in[0] and ("raise", bet + stack) in theirs:  # difference 2 (R5.5)
            theirs.discard(("raise", bet + stack))
            self.seen["PokerKit's completion to the bring-in amount dropped (difference 2)"] += 1
        if self.short_all_in_street == ours.street:  # difference 4 (R6.9, R6.12)
            mine = {o for o in mine if o[0] in PASSIVE}
            theirs = {o for o in theirs if o[0] in PASSIVE}
            self.seen["decisions played passively after a short all-in wager (difference 4)"] += 1
        else:  # the amounts of R6.8: also what tells a short all-in wager apart below
            for kind, amount in mine:
                assert kind != "raise" or amount == min(self.full_target(), bet + stack), self.fail(
                    f"player {player} may raise to {amount}; R6.8 says {min(self.full_target(), bet + stack)}"
                )
        assert mine == theirs, self.fail(
            f"player {player} on street {ours.street}: ours {sorted(mine)}, PokerKit {sorted(theirs)}"
        )
        self.seen["decisions"] += 1
        return sorted(mine)

    def apply(self, option: Option) -> None:
        ours = self.ours
        player = ours.actor
        assert player is not None
        kind, amount = option
        everything = ours.bets[player] + ours.stacks[player]
        self.log.append(f"  street {ours.street}, player {player}: {kind} {amount}")
        if kind == "raise" and amount == everything and amount < self.full_target():
            self.short_all_in_street = ours.street
            self.seen[SHORT_ALL_IN] += 1
        elif kind in ("call", "raise", "bring-in") and amount == everything:
            self.seen[ALL_IN] += 1
        [action] = [a for a in ours.legal_actions() if our_option(a) == option]
        ours.apply(action)
        apply_pk(self.pk, option)

    # -- the end of the hand

    def check_settlement(self) -> None:
        """The chips from each pot and the final stacks (difference 6 translated)."""
        ours, state = self.ours, self.pk
        final = list(state.stacks)
        if len(ours.live_players()) == 1:
            assert final == list(ours.stacks), self.fail(f"final stacks: ours {ours.stacks}, PokerKit {final}")
            return
        pots = our_pots(ours)
        assert len(pots) == len(ours.pots), "our pots are never empty nor mergeable"
        assert self.showdown_pots == pots, self.fail(f"pots: ours {pots}, PokerKit {self.showdown_pots}")
        self.seen[SHOWDOWN] += 1
        if len(pots) > 1:
            self.seen[SIDE_POTS] += 1
        pushed: dict[int, Counter[int]] = {}
        for operation in state.operations:
            if isinstance(operation, pk.ChipsPushing):
                pushed.setdefault(operation.pot_index, Counter()).update(dict(enumerate(operation.amounts)))
        won: Counter[int] = Counter()
        for index, (amount, _) in enumerate(pots):  # our chips per pot, given our winners
            shares = [a for a in ours.awards if a.pot == index]
            high = sorted({a.player for a in shares if a.share in ("pot", "high", "split")})
            low = sorted({a.player for a in shares if a.share in ("low", "split")})
            paid: Counter[int] = Counter()
            for a in shares:
                paid[a.player] += a.amount
            assert +paid == +spec_division(amount, high, low), self.fail(f"our pot {index}: {shares}")
            won += paid
        low_in_hand = any(a.share in ("low", "split") for a in ours.awards)
        divided: Counter[int] = Counter()
        for index, pot in enumerate(pk_pots_after_killing(pots, ours.awards)):
            expected = +pk_division(self.variant, pot, low_in_hand)
            paid = +pushed.get(index, Counter())
            assert paid == expected, self.fail(
                f"PokerKit's pot {index} {pot}: PokerKit paid {dict(paid)}, its convention applied to our"
                f" winners {dict(expected)}; our awards {ours.awards}"
            )
            divided += expected
        if divided != +won:
            self.seen[f"{self.variant.value} hands whose pots PokerKit divides differently (difference 6)"] += 1
        expected_stacks = [ours.stacks[p] - won[p] + divided[p] for p in range(ours.n)]
        assert final == expected_stacks, self.fail(f"final stacks: PokerKit {final}, expected {expected_stacks}")


# -- random hands --------------------------------------------------------------------------------


def random_stacks(rng: random.Random, n: int) -> list[int]:
    style = rng.random()
    if style < 0.2:  # deep: rarely anybody all-in
        return [rng.randint(800, 3000) for _ in range(n)]
    if style < 0.6:  # short: all-ins, short all-ins and side pots on most streets
        return [rng.choice([1, rng.randint(2, 30), rng.randint(2, 90)]) for _ in range(n)]
    return [rng.choice([1, rng.randint(2, 60), rng.randint(40, 400)]) for _ in range(n)]


def bring_in_poster(rules: Rules, stacks: Sequence[int], deck: Sequence[Card]) -> tuple[int, int] | None:
    """Who posts the bring-in with these cards and how much (R5.3, R5.6: our engine decides);
    None if nobody can bet (everybody but one is all-in for the ante)."""
    state = HandState(rules, stacks, manual=True)
    cards = iter(deck)
    while state.phase is Phase.DEAL and state.street == 3:
        state.deal(next(cards))
    if state.actor is None:
        return None
    [bring_in] = [a for a in state.legal_actions() if a.kind is ActionKind.BRING_IN]
    return state.actor, bring_in.amount


SHORT_DECK = "hands compared up to our short-deck procedure (R8; PokerKit has none)"
CROWDED = "hands of 7 or 8 players compared to the end"


def play_random_hands(
    variant: Variant, stakes: Stakes, check_fold: bool, hands: int, seed: str, trim: bool = True
) -> Counter[str]:
    rng = random.Random(seed)
    rules = table_rules(variant, stakes, check_fold, trim)
    seen: Counter[str] = Counter()
    with warnings.catch_warnings():
        warnings.filterwarnings("error", category=UserWarning)  # e.g. PokerKit dealt a card it did not expect
        warnings.filterwarnings("ignore", PK_CHECK_FOLD_WARNING, UserWarning)  # the later filter wins
        for _ in range(hands):
            stacks = random_stacks(rng, rng.choice([2, 3, 4, 5, 6, 7, 8, 8]))
            deck = list(CARDS)
            rng.shuffle(deck)
            poster = bring_in_poster(rules, stacks, deck)
            if poster is not None and poster[1] < stakes.bring_in:  # difference 1 (R5.5, R6.10)
                stacks[poster[0]] += stakes.bring_in
                seen["short bring-in avoided (difference 1)"] += 1
            duo = Duo(variant, stakes, stacks, deck, check_fold=check_fold, seen=seen, trim=trim)
            while duo.advance():
                options = duo.options()
                duo.apply(rng.choices(options, weights=[POLICY_WEIGHTS[kind] for kind, _ in options])[0])
            seen["hands"] += 1
            if duo.short_deck:
                seen[SHORT_DECK] += 1
                continue
            duo.check_settlement()
            if len(stacks) >= 7:
                seen[CROWDED] += 1
    for what in ("hands", SHOWDOWN, SIDE_POTS, ALL_IN, SHORT_ALL_IN, CROWDED):
        assert seen[what] > 0, f"no {what} in {hands} hands: the comparison would miss them"
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("check_fold", [False, True], ids=["tournament-mode", "cash-game-mode"])
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.value)
def test_random_hands_agree_with_pokerkit(variant: Variant, check_fold: bool) -> None:
    start = time.perf_counter()
    seen = play_random_hands(
        variant, SPEC_STAKES, check_fold, HANDS_SPEC_STAKES, f"{SEED}-{variant.value}-{check_fold}"
    )
    print(f"\n{variant.value} {SPEC_STAKES} check_fold={check_fold}: {time.perf_counter() - start:.1f}s {dict(seen)}")


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.value)
def test_random_hands_agree_with_pokerkit_with_dead_antes(variant: Variant) -> None:
    """Antes gathered as dead money (PokerKit untrimmed, our ante_side_pots=False), with short antes common."""
    seen = play_random_hands(variant, Stakes(2, 5, 10, 20), False, HANDS_OTHER_STAKES, f"{SEED}-{variant}-dead", False)
    print(f"\n{variant.value} dead antes: {dict(seen)}")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("stakes", "check_fold"),
    [(Stakes(2, 5, 10, 20), True), (Stakes(1, 4, 5, 10), False)],
    ids=["ante2-bring5-10-20", "ante1-bring4-5-10"],
)
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.value)
def test_random_hands_agree_with_pokerkit_other_stakes(variant: Variant, stakes: Stakes, check_fold: bool) -> None:
    start = time.perf_counter()
    seen = play_random_hands(variant, stakes, check_fold, HANDS_OTHER_STAKES, f"{SEED}-{variant.value}-{stakes}")
    print(f"\n{variant.value} {stakes} check_fold={check_fold}: {time.perf_counter() - start:.1f}s {dict(seen)}")


# -- the known differences, one minimal hand each -------------------------------------------------


def stacked_deck(holes: Sequence[str]) -> list[Card]:
    """A deck in dealing order for hands in which nobody folds: ``holes[p]`` lists player p's cards as
    dealt (down, down, door, 4th, 5th, 6th, 7th); missing cards and the burns are high spare cards."""
    wanted = [list(parse_cards(h)) for h in holes]
    taken = {c for cards in wanted for c in cards}
    spare = [c for c in reversed(CARDS) if c not in taken]

    def card(p: int, i: int) -> Card:
        return wanted[p][i] if i < len(wanted[p]) else spare.pop(0)

    n = len(holes)
    deck = [card(p, i) for i in range(3) for p in range(n)]
    for i in range(3, 7):
        deck.append(spare.pop(0))  # the burn
        deck += [card(p, i) for p in range(n)]
    return deck


def duo(
    holes: Sequence[str],
    stacks: Sequence[int],
    *,
    variant: Variant = Variant.STUD7,
    stakes: Stakes = SPEC_STAKES,
    check_fold: bool = False,
) -> Duo:
    hand = Duo(variant, stakes, stacks, stacked_deck(holes), check_fold=check_fold)
    assert hand.advance()
    return hand


def play(hand: Duo, *options: Option) -> None:
    for option in options:
        hand.apply(option)
        assert hand.advance()


def test_known_difference_1_short_bring_in() -> None:
    """R5.5, R6.10: after an all-in bring-in of 2, the others still owe the full bring-in of 3."""
    hand = duo(["Ks Kh 2c", "Qs Qh 9d", "Js Jh Td"], [3, 50, 50])
    play(hand, ("bring-in", 2))
    ours, theirs = hand.raw_options()
    assert ("call", 3) in ours and ("call", 2) not in ours
    assert ("call", 2) in theirs and ("call", 3) not in theirs


def test_known_difference_1_a_short_bring_in_player_may_only_bring_in() -> None:
    """R5.4, R5.5: with 2 chips behind (less than the bring-in of 3) the bring-in player posts them all, and that is
    his only option; PokerKit also offers a "completion" to his stack, which it would count as the opening bet."""
    hand = duo(["Ks Kh 2c", "Qs Qh 9d", "Js Jh Td"], [3, 50, 50])
    ours, theirs = hand.raw_options()
    assert ours == {("bring-in", 2)}
    assert theirs == {("bring-in", 2), ("raise", 2)}


def test_known_difference_2_bring_in_of_exactly_the_stack() -> None:
    """R5.5: with exactly the bring-in behind, posting it is the only option."""
    hand = duo(["Ks Kh 2c", "Qs Qh 9d", "Js Jh Td"], [4, 50, 50])
    ours, theirs = hand.raw_options()
    assert ours == {("bring-in", 3)}
    assert theirs == {("bring-in", 3), ("raise", 3)}
    assert hand.options() == [("bring-in", 3)]


def test_known_difference_3_no_fold_for_an_all_in_bring_in_player() -> None:
    """R5.6: the bring-in player is all-in for the ante; the next player may fold, bring in or complete."""
    hand = duo(["Ks Kh 2c", "Qs Qh 9d", "Js Jh Td", "Ts Th 8d"], [1, 50, 50, 50])
    ours, theirs = hand.raw_options()
    assert ours == {FOLD, ("bring-in", 3), ("raise", 10)}
    assert theirs == {("bring-in", 3), ("raise", 10)}


def test_known_difference_4_short_all_in_raise() -> None:
    """R6.12: an all-in raise from 10 to 13 (less than half a bet) is not a full raise; the next raise
    goes to 10 + 10, not 13 + 10. It re-opens the betting for the bring-in player (R6.9: 13 - 3 >= 5)."""
    hand = duo(["Ks Kh 2c", "Qs Qh 9d", "Js Jh Td"], [51, 51, 14])
    play(hand, ("bring-in", 3), ("raise", 10), ("raise", 13))
    ours, theirs = hand.raw_options()
    assert ours == {FOLD, ("call", 13), ("raise", 20)}
    assert theirs == {FOLD, ("call", 13), ("raise", 23)}


def test_known_difference_4_short_all_in_bet_does_not_reopen() -> None:
    """TC-20 on 5th street: a check, an all-in bet of 8 (less than half of 20), a call; the player
    who checked may only fold or call 8 (R6.9). PokerKit lets him raise, to 8 + 20."""
    hand = duo(["Ks Kh 2c 5d 6d", "Qs Qh 9d 7h 8h", "Js Jh Td 3s 4s"], [12, 51, 51])
    play(hand, ("bring-in", 3), ("call", 3), ("call", 3))
    play(hand, CHECK, CHECK, CHECK)  # 4th street: T-4 high
    assert hand.ours.street == 5 and hand.ours.actor == 2  # T-4-3 is the high board
    play(hand, CHECK, ("raise", 8), ("call", 8))
    ours, theirs = hand.raw_options()
    assert hand.ours.actor == 2
    assert ours == {FOLD, ("call", 8)}
    assert theirs == {FOLD, ("call", 8), ("raise", 28)}


def test_no_wager_that_nobody_can_call() -> None:
    """Formerly difference 5: the bring-in player has 5 more and the completer is all-in for 10, so
    nobody could call a raise by the third player; neither engine offers one."""
    hand = duo(["Ks Kh 2c", "Qs Qh 9d", "Js Jh Td"], [9, 11, 100])
    play(hand, ("bring-in", 3), ("raise", 10))
    ours, theirs = hand.raw_options()
    assert ours == theirs == {FOLD, ("call", 10)}


def test_known_difference_6_hi_lo_split_both_ways() -> None:
    """TC-29 (R11.5.3): the same two players win high and low; pot 102 is split 51/51, not 52/50."""
    holes = ["6s 5d 4c 3h 2s Kd Qc", "6h 5c 4d 3c 2d Kc Qh"]  # equal boards: player 0 acts first
    hand = duo(holes, [200, 200], variant=Variant.STUD7_HL8)
    play(hand, ("raise", 10), ("call", 10))  # the 4c brings in by completing
    play(hand, ("raise", 10), ("raise", 20), ("call", 20))
    play(hand, ("raise", 20), ("call", 20), CHECK, CHECK, CHECK)
    hand.apply(CHECK)
    assert not hand.advance()
    assert list(hand.ours.stacks) == [200 - 51 + 51, 200 - 51 + 51]
    assert list(hand.pk.stacks) == [200 - 51 + 52, 200 - 51 + 50]
    hand.check_settlement()  # the translation of difference 6 accounts for it


def test_known_difference_7_lone_player_asked_to_check() -> None:
    """R6.13c: player 0 is all-in for the ante; on 4th street player 1 folds though he could check,
    which leaves player 2 nobody to bet against: the round is over for us, PokerKit asks him to act."""
    hand = duo(["Ks Kh 2c Ad", "Qs Qh 9d 3c", "Js Jh Td 4c"], [1, 50, 50], check_fold=True)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", PK_CHECK_FOLD_WARNING, UserWarning)
        play(hand, ("bring-in", 3), ("call", 3))
        assert hand.ours.street == 4 and hand.ours.actor == 1  # the high board is all-in (R7.5)
        hand.apply(FOLD)
        assert hand.ours.actor is None and hand.pk.actor_index == 2
        assert pk_options(hand.pk) == {CHECK, FOLD}
        assert not hand.advance()  # Duo plays PokerKit's extra check
    assert hand.seen["PokerKit's extra check by the last player who can bet (difference 7)"] == 1
    hand.check_settlement()


def test_completion_reopens_the_betting_for_the_bring_in() -> None:
    """Formerly difference 8: with bring-in 4 and small bet 5 the completion to 5 adds only 1, yet it
    is the round's first full bet, so the bring-in player (and whoever called the 4) may raise."""
    hand = duo(["Ks Kh 2c", "Qs Qh 9d", "Js Jh Td"], [50, 50, 50], stakes=Stakes(1, 4, 5, 10))
    play(hand, ("bring-in", 4), ("raise", 5), ("call", 5))
    ours, theirs = hand.raw_options()
    assert ours == theirs == {FOLD, ("call", 5), ("raise", 10)}
