"""A tight-aggressive bot for all four stud games: few starting hands, played hard; it reads the boards.

The policy (documented in docs/bots.md) is a set of rules, not a search: a starting-hand score on the first
street, then on later streets a *level* from 0 (nothing) to 4 (very strong) from the made hand compared with
the opponents' up cards, plus the chance of completing a draw, compared with the pot odds. One decision costs
tens of microseconds, so thousands of hands run in seconds.

>>> from studpoker.engine import HandState, Rules, Variant
>>> hand = HandState(Rules(Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=20), [200, 200], seed=3)
>>> TightAggressive(seed=1).act(hand.view(hand.actor)) in hand.legal_actions()
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..engine import Action, ActionKind, Variant, View
from ..engine.events import ActionTaken, StreetStarted
from .base import Bot

__all__ = ["TightAggressive", "high_key"]

# High-hand categories, as in studpoker.evaluation.HandCategory.
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
_ACE = 12

# Intents, turned into a legal action by _pick.
_FOLD, _CALL, _RAISE, _RAISE_BIG = range(4)

# Rough share of the pot a made hand of each level wins against one opponent, for pot-odds calls.
_LEVEL_EQUITY = (0.0, 0.3, 0.45, 0.65, 0.85)

# First-street score thresholds: raise (and re-raise), open (complete), call the bring-in, steal.
_RAISE_SCORE, _OPEN_SCORE, _CALL_RAISE_SCORE, _CALL_SCORE, _LIMP_SCORE, _STEAL_SCORE = 70, 58, 64, 52, 48, 44


def _straight_top(ranks: set[int]) -> int:
    """The top rank of the best straight in ``ranks`` (the ace plays low in 5-4-3-2-A), or -1."""
    mask = 0
    for r in ranks:
        mask |= 2 << r  # bit r + 1; bit 0 is the ace playing low
    if mask & (2 << _ACE):
        mask |= 1
    for top in range(_ACE, 2, -1):
        if (mask >> (top - 3)) & 0x1F == 0x1F:
            return top
    return -1


def high_key(cards: Sequence[int]) -> tuple[int, ...]:
    """``(category, ranks...)`` of the best high hand in 1 to 7 cards (indices); larger tuples are better hands.

    Straights and flushes count only with five cards or more, so for 1 to 4 up cards this is the board
    order of R7.3 and a board's key compares directly with a whole hand's key.

    >>> high_key([51, 50, 20, 21, 0])   # As Ah 7c 7d 2c: two pair, aces and sevens, deuce kicker
    (2, 12, 5, 0)
    >>> high_key([44, 40]) < high_key([44, 45])   # K-Q is below a pair of kings
    True
    """
    counts = [0] * 13
    suits: list[list[int]] = [[], [], [], []]
    for c in cards:
        counts[c >> 2] += 1
        suits[c & 3].append(c >> 2)
    flush: list[int] = []
    if len(cards) >= 5:
        for ranks in suits:
            if len(ranks) >= 5:
                top = _straight_top(set(ranks))
                if top >= 0:
                    return (STRAIGHT_FLUSH, top)
                flush = sorted(ranks, reverse=True)[:5]
    groups = sorted(((n, r) for r, n in enumerate(counts) if n), reverse=True)
    size, rank = groups[0]
    rest = sorted((r for n, r in groups[1:] for _ in range(n)), reverse=True)
    if size == 4:
        return (QUADS, rank, *rest[:1])
    if size == 3 and len(groups) > 1 and groups[1][0] >= 2:
        return (FULL_HOUSE, rank, max(r for n, r in groups[1:] if n >= 2))
    if flush:
        return (FLUSH, *flush)
    if len(cards) >= 5:
        top = _straight_top({r for _, r in groups})
        if top >= 0:
            return (STRAIGHT, top)
    if size == 3:
        return (TRIPS, rank, *rest[:2])
    if size == 2 and len(groups) > 1 and groups[1][0] == 2:
        second = groups[1][1]
        kickers = sorted((r for n, r in groups[1:] for _ in range(n) if r != second), reverse=True)
        return (TWO_PAIR, rank, second, *kickers[:1])
    if size == 2:
        return (PAIR, rank, *rest[:3])
    return (HIGH_CARD, rank, *rest[:4])


def _low_rank(card: int) -> int:
    """Ace-to-five rank: ace 1, deuce 2, ..., king 13."""
    rank = card >> 2
    return 1 if rank == _ACE else rank + 2


def _hit_chance(outs: int, unseen: int, draws: int) -> float:
    """The chance that at least one of ``outs`` cards comes among ``draws`` cards from ``unseen``."""
    if outs <= 0 or draws <= 0 or unseen <= 0:
        return 0.0
    miss = 1.0
    for i in range(draws):
        if unseen - i <= 0:
            break
        miss *= max(0.0, (unseen - outs - i) / (unseen - i))
    return 1.0 - miss


def _need_chance(need: int, draws: int, outs: float, unseen: int, per_rank: float) -> float:
    """The chance of catching ``need`` new ranks in ``draws`` cards (each rank caught removes its ``per_rank``
    outs): low draws that need two or more cards."""
    if need <= 0:
        return 1.0
    if need > draws or outs <= 0 or unseen <= 0:
        return 0.0
    hit = min(1.0, outs / unseen)
    return hit * _need_chance(need - 1, draws - 1, outs - per_rank, unseen - 1, per_rank) + (1 - hit) * _need_chance(
        need, draws - 1, outs, unseen - 1, per_rank
    )


@dataclass(slots=True)
class _Read:
    """What the bot takes from a view for one decision."""

    variant: Variant
    cards: list[int]  # mine: down, up and the community card
    door: int  # my first up card
    doors: list[int]  # live opponents' first up cards
    boards: list[list[int]]  # live opponents' up cards (with the community card)
    dead: list[int]  # every visible card that is not mine (folded players' up cards too)
    unseen: int  # cards I have not seen
    to_come: int  # cards still to be dealt to me
    owe: int
    pot: int
    wagers: int  # completions, bets and raises made on this street
    live: int  # live opponents


class TightAggressive(Bot):
    """Tight-aggressive: plays a small set of strong or live starting hands, bets and raises its good hands,
    folds when the boards beat it, and calls with draws only at the right price (stud, stud/8, five-card stud
    and razz). ``seed`` drives the little mixing it does (steals and semi-bluffs)."""

    tag = "tight-aggressive"

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)

    # -- the decision ------------------------------------------------------------------------------------

    def act(self, view: View) -> Action:
        legal = view.legal_actions
        for action in legal:
            if action.kind is ActionKind.SHOW:
                return action
        if len(legal) == 1:
            return legal[0]
        read = _read(view)
        if read is None:  # not our turn in a normal betting round: stay passive
            return _pick(legal, _CALL)
        first = len(read.cards) == (2 if read.variant is Variant.STUD5 else 3)
        intent = self._first_street(read) if first else self._later_street(read)
        return _pick(legal, intent)

    def _first_street(self, read: _Read) -> int:
        """Third street (five-card stud: second): a starting-hand score against the wagers so far."""
        variant = read.variant
        if variant is Variant.RAZZ:
            score = _razz_start(read)
        elif variant is Variant.STUD5:
            score = _stud5_start(read)
        elif variant is Variant.STUD7_HL8:
            score = _hilo_start(read)
        else:
            score = _high_start(read)
        if score >= _RAISE_SCORE:
            return _RAISE
        if read.wagers == 0:  # only the bring-in so far (or we are the bring-in)
            if score >= _OPEN_SCORE:
                return _RAISE
            if score >= _STEAL_SCORE and self._steal_spot(read) and self._random.random() < 0.6:
                return _RAISE
            return _CALL if score >= _LIMP_SCORE else _FOLD
        if read.wagers == 1:
            return _CALL if score >= _CALL_SCORE else _FOLD
        return _CALL if score >= _CALL_RAISE_SCORE else _FOLD

    def _steal_spot(self, read: _Read) -> bool:
        """Our door card is the best showing: a completion may take the antes and bring-in at once."""
        if read.variant is Variant.RAZZ:
            return all(_low_rank(read.door) < _low_rank(d) for d in read.doors)
        return all(read.door >> 2 > d >> 2 for d in read.doors)

    def _later_street(self, read: _Read) -> int:
        """Later streets: bet and raise by level, call by pot odds (with draws), fold the rest."""
        variant = read.variant
        if variant is Variant.RAZZ:
            level, draw = _razz_level(read)
        elif variant is Variant.STUD7_HL8:
            level, draw = _hilo_level(read)
        else:
            level, draw = _high_level(read)
        if read.owe == 0:
            if level >= 4:
                return _RAISE_BIG
            if level == 3 or (level == 2 and read.live <= 3):
                return _RAISE
            if draw >= 0.35 and read.to_come >= 2 and self._random.random() < 0.4:
                return _RAISE  # a semi-bluff with a big draw
            return _FOLD  # a check: _pick never folds when checking is free
        if level >= 4:
            return _RAISE_BIG
        if level == 3:
            return _RAISE if read.wagers < 2 or read.live <= 2 else _CALL
        if level == 2:
            return _CALL
        implied = read.owe * max(0, read.to_come - 1)  # roughly one more bet won per street to come
        price = read.owe / (read.pot + read.owe + implied)
        equity = max(_LEVEL_EQUITY[level] / read.live, draw)
        return _CALL if equity >= price else _FOLD


def _read(view: View) -> _Read | None:
    """The decision's facts from the view (the viewer's own cards are visible to him)."""
    me = view.viewer
    if me is None or view.actor != me:
        return None
    mine = view.players[me]
    cards = [c.index for c in mine.down if c is not None] + [c.index for c in mine.up if c is not None]
    if not cards or not mine.up or mine.up[0] is None:
        return None
    community = view.community.index if view.community is not None else None
    boards: list[list[int]] = []
    doors: list[int] = []
    dead: list[int] = []
    for p in view.players:
        if p.player == me:
            continue
        up = [c.index for c in p.up if c is not None]
        dead.extend(up)
        if not p.folded and up:
            doors.append(up[0])
            boards.append([*up, community] if community is not None else up)
    if community is not None:
        cards.append(community)
    final = view.variant.cards
    mine_dealt = len(mine.down) + len(mine.up) + (1 if community is not None else 0)
    wagers = 0
    for event in reversed(view.events):
        if isinstance(event, StreetStarted):
            break
        if isinstance(event, ActionTaken) and event.action.kind.aggressive:
            wagers += 1
    return _Read(
        variant=view.variant,
        cards=cards,
        door=mine.up[0].index,
        doors=doors,
        boards=boards,
        dead=dead,
        unseen=52 - len(cards) - len(dead),
        to_come=max(0, final - mine_dealt),
        owe=max(0, min(view.to_call - mine.bet, mine.stack)),
        pot=view.pot,
        wagers=wagers,
        live=max(1, len(boards)),
    )


def _pick(legal: Sequence[Action], intent: int) -> Action:
    """The legal action closest to ``intent``; a fold becomes a check when checking is free."""
    by_kind = {a.kind: a for a in legal}
    if intent in (_RAISE, _RAISE_BIG):
        wagers = [a for a in legal if a.kind.aggressive]
        if wagers:
            return wagers[-1] if intent == _RAISE_BIG else wagers[0]
        intent = _CALL
    if intent == _FOLD:
        if ActionKind.CHECK in by_kind:
            return by_kind[ActionKind.CHECK]
        if ActionKind.FOLD in by_kind:
            return by_kind[ActionKind.FOLD]
    for kind in (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN):
        if kind in by_kind:
            return by_kind[kind]
    return legal[0]  # e.g. a completion forced on the player after an all-in bring-in (R5.6)


# -- first street -----------------------------------------------------------------------------------------


def _rank_counts(cards: Sequence[int]) -> list[int]:
    counts = [0] * 13
    for c in cards:
        counts[c >> 2] += 1
    return counts


def _high_start(read: _Read) -> float:
    """Seven-card stud starting hands: trips, pairs (rank, liveness, kicker), live flush and straight draws,
    high cards over the boards."""
    cards = read.cards
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    dead_ranks = _rank_counts(read.dead)
    door_ranks = [d >> 2 for d in read.doors]
    top_door = max(door_ranks, default=-1)
    counts = _rank_counts(cards)
    if max(counts) == 3:
        return 100.0
    score = 20.0 + ranks[0]
    if max(counts) == 2:
        pair = counts.index(2)
        kicker = next(r for r in ranks if r != pair)
        pair_score = 36.0 + 3 * pair
        if read.door >> 2 != pair:
            pair_score += 4  # a concealed pair
        pair_score -= (0, 8, 18)[min(dead_ranks[pair], 2)]
        if kicker > top_door:
            pair_score += 4
        if kicker == _ACE:
            pair_score += 3
        pair_score -= 3 * min(3, sum(1 for r in door_ranks if r > pair))
        score = max(score, pair_score)
    else:
        if ranks[1] >= 10:  # two of A, K, Q
            score = max(score, 38.0 + ranks[0] / 2 + (4 if ranks[2] > top_door else 0))
        score = max(score, _draw_start(read, cards))
    return score


def _draw_start(read: _Read, cards: Sequence[int]) -> float:
    """Three to a flush or a straight, scored by height and by how many needed cards are still live."""
    score = 0.0
    suits = {c & 3 for c in cards}
    ranks = sorted({c >> 2 for c in cards})
    if len(suits) == 1:
        suit = cards[0] & 3
        dead = sum(1 for c in read.dead if c & 3 == suit)
        score = 50.0 + (4 if ranks[-1] >= 8 else 0) - 3 * dead
        if dead >= 4:
            score = min(score, 40.0)
    if len(ranks) == 3:
        low_ace = sorted(-1 if r == _ACE else r for r in ranks)
        for seq in (ranks, low_ace):
            span = seq[-1] - seq[0]
            if span <= 4:
                window = {r % 13 for r in range(seq[0] - (4 - span), seq[-1] + (4 - span) + 1)} - {r % 13 for r in seq}
                dead = sum(1 for c in read.dead if c >> 2 in window)
                straight = 44.0 + (4 if span == 2 else 0) + (3 if seq[-1] >= 9 else 0) - 2 * dead
                if len(suits) == 1:
                    straight += 8
                score = max(score, min(straight, 40.0) if dead >= 5 else straight)
    return score


def _hilo_start(read: _Read) -> float:
    """Stud/8: the better of the high score (middle pairs marked down, aces up) and a low score (three
    cards 8 or under, the lower the better, the ace best; fewer points when many low cards are out)."""
    high = _high_start(read)
    counts = _rank_counts(read.cards)
    if max(counts) == 2 and 7 <= counts.index(2) < _ACE:
        high -= 6
    if counts[_ACE]:
        high += 4
    lows = sorted({_low_rank(c) for c in read.cards if _low_rank(c) <= 8})
    low = 0.0
    if len(lows) == 3:
        low = 50.0 + 4 * (8 - lows[-1]) + (6 if lows[0] == 1 else 0)
        if len({c & 3 for c in read.cards}) == 1:
            low += 4
        if lows[-1] - lows[0] <= 4:
            low += 3
        dead_lows = sum(1 for c in read.dead if _low_rank(c) <= 8)
        low -= 1.5 * max(0, dead_lows - 3)
    return max(high, low)


def _razz_start(read: _Read) -> float:
    """Razz: three different low cards, scored by the highest (A-2-3 best); a pair or a picture card is bad."""
    lows = sorted({_low_rank(c) for c in read.cards})
    if len(lows) < 3:
        return 25.0 if lows[-1] <= 5 else 15.0
    top = lows[-1]
    score = {3: 85.0, 4: 82.0, 5: 78.0, 6: 72.0, 7: 64.0, 8: 55.0, 9: 45.0, 10: 35.0}.get(top, 20.0)
    if lows[0] == 1:
        score += 2
    dead_lows = sum(1 for c in read.dead if _low_rank(c) <= 8)
    score -= max(0, dead_lows - 3)
    worse_doors = sum(1 for d in read.doors if _low_rank(d) > top)
    return score + min(3, worse_doors)  # doors above our whole hand are likely rough hands


def _stud5_start(read: _Read) -> float:
    """Five-card stud: a pair, or a hand that beats every board showing (big cards above all door cards)."""
    first, second = sorted((c >> 2 for c in read.cards), reverse=True)
    if first == second:
        return 70.0 + first
    top_door = max((d >> 2 for d in read.doors), default=-1)
    dead = _rank_counts(read.dead)[first]
    if first > top_door:
        score = 50.0 + first
    elif first == _ACE:
        score = 52.0
    else:
        score = 30.0 + first
    if second >= 8:
        score += 3
    return score - (5 if dead >= 2 else 0)


# -- later streets ----------------------------------------------------------------------------------------


def _unseen_outs(read: _Read, wanted: set[int]) -> int:
    """How many unseen cards have one of the ``wanted`` indices."""
    known = set(read.cards) | set(read.dead)
    return len(wanted - known)


def _high_draw(read: _Read) -> float:
    """The chance of making a straight or a flush by the river (seven-card games, 4th to 6th street)."""
    if read.to_come == 0 or read.variant is Variant.STUD5:
        return 0.0
    cards = read.cards
    suits = [0, 0, 0, 0]
    for c in cards:
        suits[c & 3] += 1
    outs: set[int] = set()
    draws = read.to_come
    for suit, n in enumerate(suits):
        if n == 4:  # four to a flush (backdoor draws are not counted)
            outs.update(4 * r + suit for r in range(13))
    ranks = {c >> 2 for c in cards}
    if _straight_top(ranks) < 0:
        for r in range(13):
            if r not in ranks and _straight_top(ranks | {r}) >= 0:
                outs.update(4 * r + s for s in range(4))
    return _hit_chance(_unseen_outs(read, outs), read.unseen, draws)


def _high_level(read: _Read) -> tuple[int, float]:
    """Level 0-4 of a high hand against the boards, and its draw chance (seven-card stud, five-card stud)."""
    key = high_key(read.cards)
    keys = [high_key(b) for b in read.boards]
    draw = _high_draw(read)
    if any(k > key for k in keys):  # an opponent's up cards alone beat our whole hand
        return 0, draw
    category = key[0]
    top_up = max((c >> 2 for b in read.boards for c in b), default=-1)
    board_pair = max((k[1] for k in keys if k[0] >= PAIR), default=-1)
    n = len(read.cards)
    if read.variant is Variant.STUD5:
        if category >= TWO_PAIR:
            return 4, 0.0
        if category == PAIR:
            return (3 if key[1] > top_up else 2 if read.live == 1 else 1), 0.0
        return (1 if all(key > k for k in keys) else 0), 0.0
    if category >= STRAIGHT:
        return 4, draw
    if category == TRIPS:
        scare = n >= 6 and any(len(b) >= 3 and _suited_or_connected(b) for b in read.boards)
        return (3 if scare else 4), draw
    if category == TWO_PAIR:
        if board_pair > key[1]:
            return 1, draw
        return (3 if n <= 5 or key[1] >= top_up else 2), draw
    if category == PAIR:
        if board_pair > key[1] or key[1] < top_up:
            return 1, draw
        if n == 4:
            return (3 if key[1] >= 10 else 2), draw
        return (2 if n == 5 or read.live <= 2 else 1), draw
    return 0, draw


def _suited_or_connected(board: Sequence[int]) -> bool:
    """Three or more up cards of one suit, or three within a straight's reach: a board that may be made."""
    suits = [0, 0, 0, 0]
    for c in board:
        suits[c & 3] += 1
    if max(suits) >= 3:
        return True
    ranks = sorted({c >> 2 for c in board})
    return any(ranks[i + 2] - ranks[i] <= 4 for i in range(len(ranks) - 2))


def _low_outs(read: _Read, have: set[int], limit: int) -> tuple[int, int]:
    """Unseen cards of a low rank (``<= limit``) we do not hold yet, and how many such ranks there are."""
    wanted = {c for c in range(52) if _low_rank(c) <= limit and _low_rank(c) not in have}
    ranks = {_low_rank(c) for c in wanted}
    return _unseen_outs(read, wanted), len(ranks)


def _hilo_level(read: _Read) -> tuple[int, float]:
    """Stud/8: the high level and the low (made or drawing) combined; scoop hands and two-way hands rank up."""
    high, high_draw = _high_level(read)
    lows = sorted({_low_rank(c) for c in read.cards if _low_rank(c) <= 8})
    low_level, low_draw = 0, 0.0
    if len(lows) >= 5:
        top = lows[4]
        low_level = 3 if top <= 6 else 2 if top == 7 else 1
        for board in read.boards:
            board_lows = sorted({_low_rank(c) for c in board if _low_rank(c) <= 8})
            if len(board_lows) >= 3 and len(board_lows) == len(board) and board_lows[-1] < top:
                low_level = max(1, low_level - 1)  # a better low is showing
                break
    else:
        need = 5 - len(lows)
        outs, ranks = _low_outs(read, set(lows), 8)
        if ranks:
            low_draw = _need_chance(need, read.to_come, outs, read.unseen, outs / ranks)
            if lows and lows[-1] <= 6:
                low_draw *= 1.1
    rivals_low = any(_may_make_low(b, len(read.cards)) for b in read.boards)
    if not rivals_low and high >= 2:
        high += 1  # nobody showing can make a low: the high hand scoops
    if high >= 3 and (low_level >= 1 or low_draw >= 0.5):
        return 4, max(high_draw, low_draw)  # a scoop hand
    if low_level == 3 or (low_level == 2 and high >= 2):
        return 4 if high >= 2 else 3, high_draw
    level = max(min(high, 4), low_level)
    if high >= 1 and low_draw >= 0.3:
        level = max(level, 2)  # a two-way hand
    return level, max(high_draw, low_draw * 0.6)  # a low draw wins at most half the pot


def _may_make_low(board: Sequence[int], cards: int) -> bool:
    """Could the player behind this board still have an eight-or-better low?"""
    lows = {_low_rank(c) for c in board if _low_rank(c) <= 8}
    return len(lows) + (cards - len(board)) >= 5


def _razz_level(read: _Read) -> tuple[int, float]:
    """Razz: the low we hold (or draw to) by its highest card, compared with each opponent's board."""
    ranks = [_low_rank(c) for c in read.cards]
    distinct = sorted(set(ranks))
    n = len(read.cards)
    if len(distinct) >= 5:
        top = distinct[4]
        level = 4 if top <= 6 else 3 if top == 7 else 2 if top == 8 else 1 if top <= 10 else 0
    else:
        good = [r for r in distinct if r <= 8]
        if n == 4:
            level = (3 if good[-1] <= 7 else 2) if len(good) == 4 else 1 if len(good) == 3 else 0
        elif n == 5:
            level = (2 if good[-1] <= 7 else 1) if len(good) == 4 else 0
        else:
            level = 1 if len(good) >= 4 and read.to_come else 0
    draw = 0.0
    good_set = {r for r in distinct if r <= 8}
    if len(good_set) < 5 and read.to_come:
        outs, out_ranks = _low_outs(read, good_set, 8)
        if out_ranks:
            draw = _need_chance(5 - len(good_set), read.to_come, outs, read.unseen, outs / out_ranks)
    worse = 0
    for board in read.boards:
        board_ranks = sorted({_low_rank(c) for c in board}, reverse=True)
        if len(board_ranks) < len(board):
            worse += 1  # a paired board
            continue
        k = len(board)
        mine = sorted(distinct)[: k + 1]
        if len(mine) < k + 1 or board_ranks[0] < mine[-1]:
            level = min(level, 1)  # his board is ahead of our hand
            if k >= 3 and len(distinct) >= k and tuple(board_ranks) < tuple(sorted(distinct)[:k][::-1]):
                return 0, draw if read.to_come else 0.0  # clearly beaten on board
        elif board_ranks[0] > (distinct[4] if len(distinct) >= 5 else mine[-1]):
            worse += 1
    if worse == len(read.boards) and 1 <= level < 4:
        level += 1  # every board showing is worse than ours
    return level, draw
