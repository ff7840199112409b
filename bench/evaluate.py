"""Hand-evaluation speed: studpoker against phevaluator, eval7, treys, PokerKit and sval+numba.

    python bench/evaluate.py                 # about two minutes (the numbers for the README)
    python bench/evaluate.py --quick         # well under a minute, fewer hands and rounds
    python bench/evaluate.py --seconds 0.5 --rounds 7 --sizes 7

What is measured, warm (in one process, after a warm-up):

* Inputs: one fixed-seed set of random hands per size (``--hands``, default 1,000,000; 7 cards, and 6 and 5
  cards for the high hands, ``--sizes``), the same hands for every library, each converted to the library's own
  card type before any clock starts. Slow libraries get the first ``--treys`` (treys) or ``--slow`` (PokerKit)
  hands of the same set; every library times its part of the set in calls short enough to fit a block.
* studpoker, every input path: the NumPy batch (``high_batch``/``low8_batch``/``razz_batch`` on a ``uint8``
  array, with the duplicate check and with ``check=False``), the same batch from Python lists of lists of ints,
  and one hand at a time (``high_value``/``low8_value``/``razz_value`` in a Python loop over the same lists).
* phevaluator's C extension two ways: ``itertools.starmap(evaluate_7cards, lists)`` (its fastest path from
  Python) and one call per hand in a Python loop (like for like with our scalar path); eval7 ``evaluate`` on
  ``eval7.Card`` lists; treys ``Evaluator.evaluate``; PokerKit's ``StandardHighHand``, ``EightOrBetterLowHand``
  and ``RegularLowHand``; sval (7 cards only) through a numba batch loop written here, over the same ``uint8``
  hands (cards ORed into sval's 64-bit card mask inside the loop) and over sval's own masks built beforehand.
* Checks before any timing: every library's answers on its hands are compared with ours (``high_batch``,
  checked): phevaluator's and sval's values exactly (they use the same 1..7462 scale), the others by ranking
  (hands equal for them are equal for us, and their order is ours; for PokerKit by comparing its hand objects).
  Our own paths must agree with each other, and the checked batch paths must reject a hand holding a card twice.
  A library that fails is reported as CHECK FAILED and left out of the timing (the script then exits with 1).
* Timing: the libraries of a table run in short alternating blocks (``--seconds`` each, default 0.3) for
  ``--rounds`` rounds (default 5), the order rotated each round, so a burst of load on the machine hits every
  library alike. Each block gives one rate; the table prints min/median/max in hands per second, and each ratio
  is the median of the per-round ratios (the range in brackets). The low tables time ``high_batch`` on their
  hands too, in the same rounds, for the lows' target.

Cold (``--cold-rounds``, default 3): a fresh Python process per library and round (alternating) that has NumPy
imported and the hands made (``--cold-hands`` 7-card hands), then imports the library, converts the hands and
evaluates them once: the time to the first answer, by the child's clock (so numba's compilation of the sval loop
counts, as do our tables built on first use), and the whole process's wall time.

Dtypes (``--dtypes-only`` runs just this table): ``high_batch`` (checked) on the same 7-card hands as every integer
dtype, C-contiguous, and three strided layouts (a Fortran-order ``int64`` copy, an ``int32`` view of 7 of 8 columns,
a reversed-column ``uint8`` view), plus a big-endian ``>i4`` copy; each rate is set against ``uint8`` (C-contiguous)
timed in the same rounds. Every one must give the ``uint8`` values before it is timed.

Targets (issue 16): batch 7-card high, uint8, duplicates checked: >= 20x phevaluator (starmap) and >= sval+numba
(same uint8 hands); low8 and razz batch >= the rate of the high batch; from Python lists >= 2x phevaluator
(starmap over the same lists); scalar >= 1x phevaluator (one call per hand, both in a Python loop). Issue 27, item 12:
every integer dtype and layout within 1.3x of uint8 (its rate at least 1/1.3 of uint8's).
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

RANKS = "23456789TJQKA"
SUITS = "cdhs"
Hands = npt.NDArray[np.uint8]
# Checks a library's answers against ours (both for the same hands): None if they agree, else what is wrong.
Checker = Callable[[npt.NDArray[np.int64], Any], str | None]


def random_hands(n: int, k: int, seed: int) -> Hands:
    """``n`` random hands of ``k`` distinct cards (0..51), the same for a given seed."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, k), dtype=np.uint8)
    for a in range(0, n, 100_000):
        b = min(n, a + 100_000)
        out[a:b] = np.argsort(rng.random((b - a, 52)), axis=1)[:, :k]
    return out


def card_text(card: int) -> str:
    return RANKS[card >> 2] + SUITS[card & 3]


# -- checking answers ---------------------------------------------------------------------------------------------


def same_values(ours: npt.NDArray[np.int64], theirs: Any) -> str | None:
    theirs = np.asarray(theirs, dtype=np.int64)
    bad = np.flatnonzero(theirs != ours)
    if len(bad):
        i = int(bad[0])
        return f"{len(bad):,} of {len(ours):,} values differ (hand {i}: ours {ours[i]}, theirs {theirs[i]})"
    return None


def same_order(ours: npt.NDArray[np.int64], theirs: Sequence[Any]) -> str | None:
    """Ranking check: ``theirs`` (numbers or comparable hand objects, larger = better) orders the hands as ours.

    Sorted by their key, neighbours equal for them must be equal for us and the others strictly increasing for
    us: so their equivalence classes are ours and their order is ours.
    """
    if len(theirs) and isinstance(theirs[0], int | np.integer):
        return same_order_numbers(ours, np.asarray(theirs, dtype=np.int64))
    order = sorted(range(len(theirs)), key=theirs.__getitem__)
    for a, b in itertools.pairwise(order):
        if theirs[a] == theirs[b]:
            if ours[a] != ours[b]:
                return f"hands {a} and {b} are equal for them, {ours[a]} and {ours[b]} for us"
        elif not ours[a] < ours[b]:
            return f"hand {a} is below hand {b} for them, {ours[a]} against {ours[b]} for us"
    return None


def same_order_numbers(ours: npt.NDArray[np.int64], theirs: npt.NDArray[np.int64]) -> str | None:
    """``same_order`` for numbers, in NumPy."""
    order = np.lexsort((ours, theirs))
    t, o = theirs[order], ours[order]
    tied = t[1:] == t[:-1]
    wrong = np.flatnonzero(np.where(tied, o[1:] != o[:-1], o[1:] <= o[:-1]))
    if len(wrong):
        a, b = int(order[wrong[0]]), int(order[wrong[0] + 1])
        how = "equal" if tied[wrong[0]] else "in order"
        return f"hands {a} and {b} are {how} for them ({t[wrong[0]]}, {t[wrong[0] + 1]}), {ours[a]}, {ours[b]} for us"
    return None


def negated(check: Checker) -> Checker:
    """For libraries whose smaller values are better hands."""
    return lambda ours, theirs: check(ours, [-v for v in theirs])


class Low:
    """PokerKit's answer for a hand that may have no qualifying low: below every low, equal to another none."""

    __slots__ = ("hand",)

    def __init__(self, hand: Any) -> None:
        self.hand = hand

    def __lt__(self, other: Low) -> bool:
        if self.hand is None or other.hand is None:
            return self.hand is None and other.hand is not None
        return bool(self.hand < other.hand)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Low):
            return NotImplemented
        if self.hand is None or other.hand is None:
            return self.hand is None and other.hand is None
        return bool(self.hand == other.hand)

    __hash__ = None


# -- the contenders -----------------------------------------------------------------------------------------------


@dataclass
class Contender:
    """One library and input path: how to build its input from the hands (not timed) and how to evaluate it."""

    name: str
    prepare: Callable[[Hands], Any]
    run: Callable[[Any], Any]
    check: Checker
    limit: int | None = None  # at most this many hands (slow libraries)
    exact: bool = False  # checked value for value (else by ranking)
    chunk: Any = None  # the input one timed call evaluates
    chunk_hands: int = 0
    rates: list[float] = field(default_factory=list)


def ours(kind: str, k: int) -> list[Contender]:
    from studpoker.evaluation import high_batch, high_value, low8_batch, low8_value, razz_batch, razz_value

    batch = {"high": high_batch, "low8": low8_batch, "razz": razz_batch}[kind]
    scalar = {"high": high_value, "low8": low8_value, "razz": razz_value}[kind]

    def tolist(hands: Hands) -> list[list[int]]:
        return hands.tolist()

    return [
        Contender(
            f"studpoker {batch.__name__}, uint8 array, checked", np.ascontiguousarray, batch, same_values, exact=True
        ),
        Contender(
            f"studpoker {batch.__name__}(check=False), uint8 array",
            np.ascontiguousarray,
            lambda h: batch(h, check=False),
            same_values,
            exact=True,
        ),
        Contender(f"studpoker {batch.__name__}, from lists", tolist, batch, same_values, exact=True),
        Contender(
            f"studpoker {scalar.__name__}, one hand at a time",
            tolist,
            lambda hands: [scalar(h) for h in hands],
            same_values,
            exact=True,
        ),
    ]


HIGH_BESIDE = "studpoker high_batch, uint8, checked (same hands)"
DTYPE_BASE = "uint8, C-contiguous"
DTYPE_GOAL = 1.3  # issue 27, item 12: every dtype within 1.3x of uint8


def wide_view(dtype: str) -> Callable[[Hands], Any]:
    """Hands as the first k of k + 1 columns of a wider array: rows strided, columns contiguous."""

    def make(hands: Hands) -> Any:
        n, k = hands.shape
        wide = np.zeros((n, k + 1), dtype=dtype)
        wide[:, :k] = hands
        return wide[:, :k]

    return make


def dtype_layouts() -> list[tuple[str, Callable[[Hands], Any]]]:
    """(label, hands -> the same hands in that dtype and layout) for the dtype table; uint8 first."""
    layouts: list[tuple[str, Callable[[Hands], Any]]] = [(DTYPE_BASE, np.ascontiguousarray)]
    for name in ("int8", "int16", "uint16", "int32", "uint32", "int64", "uint64"):
        layouts.append((f"{name}, C-contiguous", lambda h, name=name: np.ascontiguousarray(h, dtype=name)))
    layouts += [
        ("int64, Fortran order", lambda h: np.asfortranarray(h, dtype=np.int64)),
        ("int32, 7 of 8 columns (strided rows)", wide_view("int32")),
        ("uint8, columns reversed (negative stride)", lambda h: np.ascontiguousarray(h[:, ::-1])[:, ::-1]),
        (">i4 big-endian, C-contiguous", lambda h: np.ascontiguousarray(h, dtype=">i4")),
    ]
    return layouts


def dtype_section(hands: Hands) -> Section:
    """high_batch (checked) on the same hands in every integer dtype and a few layouts, against uint8."""
    from studpoker.evaluation import high_batch

    began = time.perf_counter()
    title = f"7-card high_batch by dtype ({len(hands):,} random hands, checked)"
    print(f"\n{title}: checking", flush=True)
    reference = high_batch(hands).astype(np.int64)
    kept: list[Contender] = []
    for label, make in dtype_layouts():
        contender = Contender(label, make, high_batch, same_values, exact=True)
        data = make(hands)
        problem = same_values(reference, high_batch(data))
        if problem is not None:
            fail(f"{title}, {label}: {problem}: left out")
            continue
        contender.chunk, contender.chunk_hands = data, len(hands)  # the whole set per call, as for uint8
        high_batch(data)  # warm-up
        print(f"  ok  {label:<52} {len(hands):,} hands checked, value for value", flush=True)
        kept.append(contender)
    gc.collect()
    print(f"  (checked and warmed up in {time.perf_counter() - began:.1f} s)")
    return Section(title, "dtype", 7, kept)


def show_dtypes(section: Section) -> None:
    """The dtype table: rates and each rate as a fraction of uint8's, per round."""
    base = find(section, DTYPE_BASE)
    print(f"\n{section.title}, M hands/s over {len(section.contenders[0].rates)} rounds of alternating blocks")
    print(f"  {'dtype and layout':<52} {'min':>10} {'median':>10} {'max':>10} {'x uint8':>24}")
    for c in section.contenders:
        cell = ratio_text(ratios(c, base)) if base is not None else "-"
        low, mid, high = min(c.rates), statistics.median(c.rates), max(c.rates)
        print(f"  {c.name:<52} {rate_text(low):>10} {rate_text(mid):>10} {rate_text(high):>10} {cell:>24}")


PHE_STARMAP = "phevaluator starmap(evaluate_{k}cards, lists)"
PHE_LOOP = "phevaluator evaluate_{k}cards, one hand at a time"
SVAL_HANDS = "sval+numba, uint8 array (numba loop)"
SVAL_MASKS = "sval+numba, its int64 masks (built untimed)"


def phevaluator(k: int) -> list[Contender]:
    from phevaluator import _pheval

    evaluate = {5: _pheval.evaluate_5cards, 6: _pheval.evaluate_6cards, 7: _pheval.evaluate_7cards}[k]

    def check(ours: npt.NDArray[np.int64], theirs: Any) -> str | None:
        return same_values(ours, 7463 - np.asarray(theirs, dtype=np.int64))  # theirs: 1 = royal flush

    def tolist(hands: Hands) -> list[list[int]]:
        return hands.tolist()

    return [
        Contender(
            PHE_STARMAP.format(k=k), tolist, lambda hands: list(itertools.starmap(evaluate, hands)), check, exact=True
        ),
        Contender(PHE_LOOP.format(k=k), tolist, lambda hands: [evaluate(*h) for h in hands], check, exact=True),
    ]


def eval7_contender(k: int) -> list[Contender]:
    import eval7

    deck = [eval7.Card(card_text(c)) for c in range(52)]
    evaluate = eval7.evaluate
    return [
        Contender(
            "eval7 evaluate",
            lambda hands: [[deck[c] for c in h] for h in hands.tolist()],
            lambda hands: [evaluate(h) for h in hands],
            same_order,
        )
    ]


def treys_contender(k: int, limit: int) -> list[Contender]:
    from treys import Card, Evaluator

    deck = [Card.new(card_text(c)) for c in range(52)]
    evaluate = Evaluator().evaluate  # (two hole cards, a board of 3 to 5 cards); smaller is better

    def prepare(hands: Hands) -> list[tuple[list[int], list[int]]]:
        return [([deck[c] for c in h[:2]], [deck[c] for c in h[2:]]) for h in hands.tolist()]

    return [
        Contender(
            "treys Evaluator.evaluate",
            prepare,
            lambda hands: [evaluate(h, b) for h, b in hands],
            negated(same_order),
            limit,
        )
    ]


def pokerkit_contender(kind: str, limit: int) -> list[Contender]:
    import pokerkit

    deck = [next(iter(pokerkit.Card.parse(card_text(c)))) for c in range(52)]

    def prepare(hands: Hands) -> list[list[Any]]:
        return [[deck[c] for c in h] for h in hands.tolist()]

    if kind == "high":
        name, evaluate = "PokerKit StandardHighHand.from_game", pokerkit.StandardHighHand.from_game
        return [Contender(name, prepare, lambda hands: [evaluate(h) for h in hands], same_order, limit)]
    if kind == "low8":
        low8 = pokerkit.EightOrBetterLowHand.from_game_or_none
        name = "PokerKit EightOrBetterLowHand.from_game_or_none"
        return [Contender(name, prepare, lambda hands: [Low(low8(h)) for h in hands], same_order, limit)]
    razz = pokerkit.RegularLowHand.from_game
    name = "PokerKit RegularLowHand.from_game"
    return [Contender(name, prepare, lambda hands: [razz(h) for h in hands], same_order, limit)]


def sval_functions() -> tuple[Callable[[Hands], Any], Callable[[Any], Any], Callable[[Hands], Any]]:
    """sval's 7-card evaluator in numba batch loops: (from uint8 hands, from sval's masks, hands to masks).

    sval names a card by bit ``4 * rank + suit`` of an int64 (suits c, d, h, s: our card indices), and a hand by
    the OR of its cards; ``rank_lookup[calculate_index(mask)]`` is its value, 1..7462, larger is better.
    """
    import numba
    from sval.hand_strengths import calculate_index, rank_lookup

    bits = np.array([1 << c for c in range(52)], dtype=np.int64)

    @numba.njit
    def from_hands(hands: Hands, bits: Any, lookup: Any) -> Any:
        out = np.empty(hands.shape[0], dtype=np.int16)
        for i in range(hands.shape[0]):
            mask = np.int64(0)
            for j in range(hands.shape[1]):
                mask |= bits[hands[i, j]]
            out[i] = lookup[calculate_index(mask)]
        return out

    @numba.njit
    def from_masks(masks: Any, lookup: Any) -> Any:
        out = np.empty(masks.shape[0], dtype=np.int16)
        for i in range(masks.shape[0]):
            out[i] = lookup[calculate_index(masks[i])]
        return out

    def masks(hands: Hands) -> Any:
        return np.bitwise_or.reduce(bits[hands], axis=1)

    return (lambda h: from_hands(h, bits, rank_lookup)), (lambda m: from_masks(m, rank_lookup)), masks


def sval_contender() -> list[Contender]:
    from_hands, from_masks, masks = sval_functions()
    return [
        Contender(SVAL_HANDS, np.ascontiguousarray, from_hands, same_values, exact=True),
        Contender(SVAL_MASKS, masks, from_masks, same_values, exact=True),
    ]


def peers(kind: str, k: int, args: argparse.Namespace) -> list[Contender]:
    """The other libraries that evaluate this kind of hand of ``k`` cards; a missing one is skipped, saying so."""
    makers: list[tuple[str, Callable[[], list[Contender]]]] = []
    if kind == "high":
        makers += [
            ("phevaluator", lambda: phevaluator(k)),
            ("eval7", lambda: eval7_contender(k)),
            ("treys", lambda: treys_contender(k, args.treys)),
        ]
    makers.append(("pokerkit", lambda: pokerkit_contender(kind, args.slow)))
    if kind == "high" and k == 7:
        makers.append(("sval", sval_contender))
    found: list[Contender] = []
    for package, make in makers:
        try:
            found += make()
        except ImportError as error:
            extra = "pip install sval numba" if package == "sval" else "pip install -e '.[bench]'"
            print(f"  {package} is not installed ({error}): skipped; {extra}")
    return found


# -- timing -------------------------------------------------------------------------------------------------------


def block_rate(contender: Contender, seconds: float) -> float:
    """Hands per second over one block: the contender's chunk evaluated again and again for ``seconds``."""
    run, chunk = contender.run, contender.chunk
    calls = 0
    start = time.perf_counter()
    while True:
        run(chunk)
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return calls * contender.chunk_hands / elapsed


@dataclass
class Section:
    title: str
    kind: str
    size: int
    contenders: list[Contender]


FAILURES: list[str] = []


def fail(what: str) -> None:
    FAILURES.append(what)
    print(f"  CHECK FAILED: {what}", flush=True)


def prepare_section(kind: str, k: int, hands: Hands, args: argparse.Namespace) -> Section:
    """Check every contender on the hands (warming it up) and size its timed calls to fit a block."""
    from studpoker.evaluation import high_batch, low8_batch, razz_batch

    began = time.perf_counter()
    n = len(hands)
    title = f"{k}-card {dict(high='high', low8='eight-or-better low', razz='razz')[kind]} ({n:,} random hands)"
    print(f"\n{title}: checking", flush=True)
    batch = {"high": high_batch, "low8": low8_batch, "razz": razz_batch}[kind]
    reference = batch(hands).astype(np.int64)
    duplicate = hands[:1].copy()
    duplicate[0, 1] = duplicate[0, 0]
    try:
        batch(duplicate)
        fail(f"{batch.__name__} accepts a hand holding a card twice: the 'checked' rows are not checked")
    except ValueError:
        pass
    kept: list[Contender] = []
    contenders = ours(kind, k) + peers(kind, k, args)
    if kind != "high":  # the lows' target is the high batch's rate: timed in the same rounds, on the same hands
        high, high_values = ours("high", k)[0], high_batch(hands).astype(np.int64)
        beside = Contender(HIGH_BESIDE, high.prepare, high.run, lambda _, theirs: same_values(high_values, theirs))
        beside.exact = True
        contenders.append(beside)
    for contender in contenders:
        m = min(n, contender.limit or n)
        try:
            data = contender.prepare(hands[:m])
            problem = contender.check(reference[:m], contender.run(data))
        except Exception as error:  # any failure of a peer leaves it out, loudly
            problem = f"raised {type(error).__name__}: {error}"
        if problem is not None:
            fail(f"{title}, {contender.name}: {problem}: left out")
            continue
        # warmed up now (numba has compiled): one timed call takes at most a fifth of a block, at least 1,000 hands
        probe = data[: min(m, 20_000)]
        start = time.perf_counter()
        contender.run(probe)
        per_hand = (time.perf_counter() - start) / len(probe)
        contender.chunk_hands = min(m, max(1_000, int(args.seconds / 5 / max(per_hand, 1e-12))))
        contender.chunk = data[: contender.chunk_hands]
        contender.run(contender.chunk)  # warm-up at the timed size
        checked = f"{m:,} hands checked" + (", value for value" if contender.exact else ", by ranking")
        print(f"  ok  {contender.name:<52} {checked}", flush=True)
        kept.append(contender)
    gc.collect()
    print(f"  (checked and warmed up in {time.perf_counter() - began:.1f} s)")
    return Section(title, kind, k, kept)


def run_rounds(section: Section, args: argparse.Namespace) -> None:
    contenders = section.contenders
    for r in range(args.rounds):
        shift = r % len(contenders)
        for contender in contenders[shift:] + contenders[:shift]:
            contender.rates.append(block_rate(contender, args.seconds))


def rate_text(rate: float) -> str:
    if rate >= 1e6:
        return f"{rate / 1e6:.2f} M"
    if rate >= 1e3:
        return f"{rate / 1e3:.1f} k"
    return f"{rate:.0f}"


def ratios(a: Contender, b: Contender) -> list[float]:
    """Per-round ratios of a's rate to b's (the two ran in the same round, close in time)."""
    return [x / y for x, y in zip(a.rates, b.rates, strict=True)]


def ratio_text(values: list[float]) -> str:
    def number(x: float) -> str:
        return f"{x:,.0f}" if x >= 100 else f"{x:.2f}" if x >= 0.1 else f"{x:.3f}"

    if statistics.median(values) < 0.001:
        return "<0.001x"
    return f"{number(statistics.median(values))}x [{number(min(values))}-{number(max(values))}]"


def find(section: Section, name: str) -> Contender | None:
    return next((c for c in section.contenders if c.name == name), None)


def show(section: Section) -> None:
    print(f"\n{section.title}, M hands/s over {len(section.contenders[0].rates)} rounds of alternating blocks")
    references = [
        find(section, PHE_STARMAP.format(k=section.size)),
        find(section, SVAL_HANDS),
        find(section, "PokerKit EightOrBetterLowHand.from_game_or_none") if section.kind == "low8" else None,
        find(section, "PokerKit RegularLowHand.from_game") if section.kind == "razz" else None,
        find(section, HIGH_BESIDE),
    ]
    refs = [r for r in references if r is not None]
    labels = {
        PHE_STARMAP.format(k=section.size): "x phe starmap",
        SVAL_HANDS: "x sval (uint8)",
        HIGH_BESIDE: "x high_batch",
    }
    head = "".join(f" {labels.get(r.name, 'x PokerKit'):>24}" for r in refs)
    print(f"  {'library and path':<52} {'per call':>9} {'min':>10} {'median':>10} {'max':>10}{head}")
    for c in section.contenders:
        cells = "".join(f" {ratio_text(ratios(c, r)):>24}" for r in refs)
        low, mid, high = min(c.rates), statistics.median(c.rates), max(c.rates)
        print(
            f"  {c.name:<52} {c.chunk_hands:>9,} {rate_text(low):>10} {rate_text(mid):>10} {rate_text(high):>10}{cells}"
        )


# -- targets ------------------------------------------------------------------------------------------------------


def dtype_targets(section: Section) -> None:
    """Issue 27, item 12: every dtype and layout within DTYPE_GOAL times uint8's time per hand."""
    base = find(section, DTYPE_BASE)
    if base is None:
        print("\n  dtypes: not measured (uint8 failed its check)")
        return
    print(f"\nTarget (issue 27, item 12): within {DTYPE_GOAL}x of uint8, median of per-round ratios [min-max]")
    for c in section.contenders:
        if c is base:
            continue
        values = ratios(c, base)
        verdict = "met" if statistics.median(values) >= 1 / DTYPE_GOAL else "NOT met"
        goal = f"target within {DTYPE_GOAL}x of uint8 (>= {1 / DTYPE_GOAL:.2f}x): {verdict}"
        print(f"  {c.name + ' vs uint8':<52} {ratio_text(values):>24}  {goal}")


def targets(sections: dict[tuple[str, int], Section]) -> None:
    print("\nTargets (issue 16), median of per-round ratios [min-max]")
    high = sections.get(("high", 7))
    lines: list[tuple[str, Contender | None, Contender | None, float]] = []
    if high is not None:
        checked = find(high, "studpoker high_batch, uint8 array, checked")
        lines += [
            ("batch 7-card high, uint8, checked vs phevaluator", checked, find(high, PHE_STARMAP.format(k=7)), 20),
            ("batch 7-card high, uint8, checked vs sval+numba", checked, find(high, SVAL_HANDS), 1),
            ("  (informative) vs sval+numba on its own masks", checked, find(high, SVAL_MASKS), 1),
            (
                "from lists vs phevaluator starmap over lists",
                find(high, "studpoker high_batch, from lists"),
                find(high, PHE_STARMAP.format(k=7)),
                2,
            ),
            (
                "scalar vs phevaluator, one call per hand",
                find(high, "studpoker high_value, one hand at a time"),
                find(high, PHE_LOOP.format(k=7)),
                1,
            ),
            (
                "  (informative) scalar vs phevaluator starmap",
                find(high, "studpoker high_value, one hand at a time"),
                find(high, PHE_STARMAP.format(k=7)),
                1,
            ),
        ]
    for kind in ("low8", "razz"):
        low = sections.get((kind, 7))
        if low is not None:
            mine = find(low, f"studpoker {kind}_batch, uint8 array, checked")
            lines.append((f"{kind} batch vs high batch (uint8, checked)", mine, find(low, HIGH_BESIDE), 1))
    for label, a, b, goal in lines:
        if a is None or b is None:
            print(f"  {label:<52} not measured (a library is missing or failed its check)")
            continue
        values = ratios(a, b)
        verdict = "met" if statistics.median(values) >= goal else "NOT met"
        goal_text = "(not a target)" if label.startswith("  (informative)") else f"target >= {goal}x: {verdict}"
        print(f"  {label:<52} {ratio_text(values):>24}  {goal_text}")


# -- cold: a fresh process ----------------------------------------------------------------------------------------


def cold_studpoker_high_batch(hands: Hands) -> Any:
    from studpoker.evaluation import high_batch

    return high_batch(hands)


def cold_studpoker_low8_batch(hands: Hands) -> Any:
    from studpoker.evaluation import low8_batch

    return low8_batch(hands)


def cold_studpoker_high_value(hands: Hands) -> Any:
    from studpoker.evaluation import high_value

    return [high_value(h) for h in hands.tolist()]


def cold_phevaluator(hands: Hands) -> Any:
    from phevaluator import _pheval

    return list(itertools.starmap(_pheval.evaluate_7cards, hands.tolist()))


def cold_eval7(hands: Hands) -> Any:
    (contender,) = eval7_contender(7)
    return contender.run(contender.prepare(hands))


def cold_treys(hands: Hands) -> Any:
    (contender,) = treys_contender(7, len(hands))
    return contender.run(contender.prepare(hands))


def cold_pokerkit(hands: Hands) -> Any:
    (contender,) = pokerkit_contender("high", len(hands))
    return contender.run(contender.prepare(hands))


def cold_sval(hands: Hands) -> Any:
    from_hands, _, _ = sval_functions()
    return from_hands(hands)


COLD: dict[str, tuple[str, Callable[[Hands], Any]]] = {
    "studpoker-high-batch": ("studpoker high_batch, uint8 array", cold_studpoker_high_batch),
    "studpoker-low8-batch": ("studpoker low8_batch, uint8 array", cold_studpoker_low8_batch),
    "studpoker-high-value": ("studpoker high_value, one hand at a time", cold_studpoker_high_value),
    "phevaluator": ("phevaluator starmap(evaluate_7cards)", cold_phevaluator),
    "eval7": ("eval7 evaluate (cards converted)", cold_eval7),
    "treys": ("treys Evaluator.evaluate (cards converted)", cold_treys),
    "pokerkit": ("PokerKit StandardHighHand (cards converted)", cold_pokerkit),
    "sval": ("sval+numba loop (numba compiles it)", cold_sval),
}


def cold_child(name: str, n: int, seed: int) -> None:
    """In a fresh process: import the library, evaluate the hands once, print the seconds to the answer."""
    hands = random_hands(n, 7, seed)
    start = time.perf_counter()
    try:
        answer = COLD[name][1](hands)
    except ImportError as error:
        print(json.dumps({"missing": str(error)}))
        return
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "answers": len(answer)}))


def cold(args: argparse.Namespace) -> None:
    print(
        f"\nCold: a fresh process per library and round ({args.cold_rounds} rounds, alternating), NumPy imported and"
        f" {args.cold_hands:,} 7-card hands made, then: import, convert, evaluate once"
    )
    times: dict[str, list[float]] = {name: [] for name in COLD}
    walls: dict[str, list[float]] = {name: [] for name in COLD}
    missing: set[str] = set()
    for _ in range(args.cold_rounds):
        for name in COLD:
            if name in missing:
                continue
            command = [sys.executable, __file__, "--cold-child", name, "--cold-hands", str(args.cold_hands)]
            command += ["--seed", str(args.seed)]
            start = time.perf_counter()
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            wall = time.perf_counter() - start
            if done.returncode != 0:
                missing.add(name)
                fail(f"cold {name}: the child process failed: {done.stderr.strip().splitlines()[-1:]}")
                continue
            result = json.loads(done.stdout.strip().splitlines()[-1])
            if "missing" in result:
                missing.add(name)
                print(f"  {name} is not installed: skipped ({result['missing']})")
                continue
            times[name].append(result["seconds"])
            walls[name].append(wall)
    head = f"{'first answer, ms: min':>22} {'median':>8} {'max':>8} {'process, ms: median':>20}"
    print(f"  {'library and path':<46} {head}")
    for name, (label, _) in COLD.items():
        if times[name]:
            t = [s * 1e3 for s in times[name]]
            print(
                f"  {label:<46} {min(t):>22.0f} {statistics.median(t):>8.0f} {max(t):>8.0f}"
                f" {statistics.median(walls[name]) * 1e3:>20.0f}"
            )


# -- main ---------------------------------------------------------------------------------------------------------


def versions() -> str:
    from importlib import metadata

    found = []
    for package in ("studpoker", "numpy", "phevaluator", "eval7", "treys", "pokerkit", "sval", "numba"):
        try:
            found.append(f"{package} {metadata.version(package)}")
        except metadata.PackageNotFoundError:
            found.append(f"{package} (not installed)")
    return ", ".join(found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a short run: 100,000 hands, 0.1 s blocks, 3 rounds")
    parser.add_argument("--hands", type=int, help="random hands per size (default 1,000,000; --quick 100,000)")
    parser.add_argument("--seconds", type=float, help="seconds per timed block (default 0.3; --quick 0.1)")
    parser.add_argument("--rounds", "--repeat", type=int, help="alternating rounds (default 5; --quick 3)")
    parser.add_argument("--sizes", default="7,6,5", help="hand sizes for the high hands (default 7,6,5)")
    parser.add_argument("--slow", type=int, help="hands given to PokerKit (default 2,000; --quick 500)")
    parser.add_argument("--treys", type=int, help="hands given to treys (default 50,000; --quick 10,000)")
    parser.add_argument("--cold-rounds", type=int, help="fresh processes per library (default 3; --quick 1)")
    parser.add_argument("--cold-hands", type=int, default=1_000, help="hands of a cold run (default 1,000)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the random hands (default 7)")
    parser.add_argument("--dtypes-only", action="store_true", help="only the dtype table (7-card high_batch)")
    parser.add_argument("--cold-child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cold_child:
        cold_child(args.cold_child, args.cold_hands, args.seed)
        return
    quick = args.quick
    defaults = {
        "hands": (1_000_000, 100_000),
        "seconds": (0.3, 0.1),
        "rounds": (5, 3),
        "slow": (2_000, 500),
        "treys": (50_000, 10_000),
        "cold_rounds": (3, 1),
    }
    for option, (normal, short) in defaults.items():
        if getattr(args, option) is None:
            setattr(args, option, short if quick else normal)
    sizes = [int(s) for s in args.sizes.split(",")]

    import studpoker.evaluation

    print(f"Python {platform.python_version()} on {platform.machine()} ({platform.processor() or platform.system()})")
    print(versions())
    print(f"studpoker from {os.path.dirname(studpoker.evaluation.__file__)}")
    print(
        f"warm: {args.hands:,} hands per size, blocks of {args.seconds:g} s, {args.rounds} rounds;"
        f" PokerKit {args.slow:,} hands, treys {args.treys:,}"
    )
    sections: dict[tuple[str, int], Section] = {}
    plan = [] if args.dtypes_only else [("high", k) for k in sizes] + [("low8", 7), ("razz", 7)]
    hands_by_size: dict[int, Hands] = {7: random_hands(args.hands, 7, seed=args.seed + 7)}
    for kind, k in plan:
        if k not in hands_by_size:
            hands_by_size[k] = random_hands(args.hands, k, seed=args.seed + k)
        section = prepare_section(kind, k, hands_by_size[k], args)
        if section.contenders:
            run_rounds(section, args)
            show(section)
            sections[kind, k] = section
    dtypes = dtype_section(hands_by_size[7])
    if dtypes.contenders:
        run_rounds(dtypes, args)
        show_dtypes(dtypes)
    if not args.dtypes_only:
        targets(sections)
    if dtypes.contenders:
        dtype_targets(dtypes)
    if args.cold_rounds > 0 and not args.dtypes_only:
        cold(args)
    if FAILURES:
        print(f"\n{len(FAILURES)} CHECK FAILURE(S), left out of the timing:")
        for what in FAILURES:
            print(f"  {what}")
        sys.exit(1)


if __name__ == "__main__":
    main()
