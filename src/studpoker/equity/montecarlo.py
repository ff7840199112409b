"""Monte Carlo equity: deal the missing cards at random many times and count who wins each deal.

Two samplers, both exactly uniform over the real deals (every way the pool can fill the players' hands is equally
likely), chosen by :func:`choose_sampler`:

* ``"completions"``: every completion of each player (each set of cards he can still get from the pool) is listed
  once, with its value and a 52-bit mask of its cards. A trial picks one completion per player, in seat order,
  uniformly among those listed, and picks again for a player whose completion shares a card with the ones already
  picked in the same trial. Picking again until it fits is the same as picking uniformly among the completions
  disjoint from the earlier players', which is the conditional law of that player's cards in a real deal; the
  product of these conditionals is the uniform law over deals. When only two players get cards, a trial whose
  second pick clashes is thrown away instead (and more trials are drawn until the chunk has its number): uniform
  independent picks conditioned on being disjoint are uniform over the deals too, and heads-up this is quicker.
  A trial then costs a few random integers and table lookups, with no hand evaluated. Used when each player's
  list is short enough to build and a pick fits often enough (:data:`MAX_ROWS`, :data:`MAX_PICKS`).
* ``"shuffle"``: a partial Fisher-Yates shuffle of the pool, one row per trial, done for all the trials of a
  block at once; the first cards go to the players in seat order and the hands go through the batch evaluators.
  Used for everything else (many players, a player with no known card), and always when a community card is to
  come (SPEC R8): after every player's own cards, the next card of the shuffle is the community card, part of
  every hand (in a real deal too, every unseen card is as likely as any other to be the community card).

Each trial becomes a small code (who has the best high hand, and in stud hi/lo who has the best qualifying low),
and a chunk of trials is summarised by how often each code came up; the :class:`~.result.Tally` is computed from
those exact counts. Trials come in chunks of :data:`CHUNK`, each with its own random stream
(``SeedSequence(seed, spawn_key=(chunk,))``), so the answer for a seed does not depend on how many processes
share the chunks.
"""

from __future__ import annotations

import secrets
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from math import comb
from types import ModuleType
from typing import TYPE_CHECKING, Literal

from .._cores import usable_cores
from ..engine import Variant
from .result import Tally
from .spot import MAX_SEED, MAX_TRIALS, EquityError, Spot, check_trials

if TYPE_CHECKING:
    from concurrent.futures import Future

    import numpy as np
    import numpy.typing as npt

_sample: ModuleType | None
try:
    from . import _sample
except ImportError:  # built without a C compiler (or STUDPOKER_PURE=1): the NumPy samplers below
    _sample = None
_kernel: ModuleType | None
try:
    from ..evaluation import _kernel
except ImportError:  # the evaluation kernel is optional too: without it the tables go through NumPy
    _kernel = None

__all__ = [
    "CHUNK",
    "MAX_PICKS",
    "MAX_ROWS",
    "MAX_SEED",
    "MAX_TRIALS",
    "Sampler",
    "acceptance",
    "choose_sampler",
    "deal",
    "sample",
]

#: Trials per chunk: each chunk has its own random stream, so this fixes the answer for a seed.
CHUNK = 1 << 18
#: The completions sampler lists at most this many completions per player.
MAX_ROWS = 3_000_000
#: ... and at most this many picks per trial on average (the sum over players of 1 / acceptance); beyond it the
#: shuffle is quicker.
MAX_PICKS = 6.0

Sampler = Literal["auto", "completions", "shuffle"]

_BLOCK = {"completions": 1 << 16, "shuffle": 1 << 14}  # trials at a time within a chunk: arrays stay in cache
_DROP_ABOVE = 0.25  # see _plan
_LOW_BITS = 6  # stud hi/lo values are packed as high << 6 | low (the low is 0..56)
_LOW_MASK = (1 << _LOW_BITS) - 1

if TYPE_CHECKING:
    Values = npt.NDArray[np.int32]
    #: A player's range for :func:`sample`: every combination of his down cards (rows of card indices) and its
    #: weight.
    Combos = tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]
    Counts = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class _Plan:
    """Everything a process needs to run chunks of one spot: the sampler, and its tables or the pool."""

    sampler: str
    players: int
    hilo: bool
    needs: tuple[int, ...]
    known: tuple[npt.NDArray[np.uint8], ...]
    pool: npt.NDArray[np.uint8]
    variant: Variant
    masks: tuple[npt.NDArray[np.uint64], ...] = ()
    values: tuple[Values, ...] = ()  # per player: one value per completion (packed high and low in hi/lo)
    drop: float = 0.0  # > 0: throw away the trials whose last pick clashes; the chance that it fits
    entries: tuple[bytes, ...] = ()  # for the compiled sampler: per player, 16 bytes a completion (mask, value)
    community: bool = False  # a community card to come: after the players' own cards, one more, part of every hand
    # per player: None, or his range (down-card combinations as card bytes, cards in each, cumulative weights)
    ranges: tuple[tuple[bytes, int, npt.NDArray[np.float64]] | None, ...] = ()

    @property
    def codes(self) -> int:
        """How many trial codes there are: a set of players for the high, and one for the low in hi/lo."""
        return 1 << (2 * self.players if self.hilo else self.players)


def acceptance(spot: Spot) -> tuple[float, ...]:
    """For each player in seat order, the chance that a completion picked uniformly fits with the earlier players'
    (shares no card): C(m - k_before, k) / C(m, k) for a pool of m cards. The completions sampler draws
    1/acceptance picks per player and trial on average."""
    m, before, out = len(spot.pool), 0, []
    for k in spot.needs:
        out.append(comb(m - before, k) / comb(m, k))
        before += k
    return tuple(out)


def choose_sampler(spot: Spot, trials: int) -> str:
    """``"completions"`` when its tables are small (each player's at most :data:`MAX_ROWS` rows, all of them
    together at most half as many as the trials they serve) and a trial takes at most :data:`MAX_PICKS` picks on
    average; ``"shuffle"`` otherwise, and always with a community card to come (only the shuffle deals one)."""
    if spot.community_to_come:
        return "shuffle"
    m = len(spot.pool)
    rows = [comb(m, k) for k in spot.needs]
    if max(rows) > MAX_ROWS or 2 * sum(rows) > trials:
        return "shuffle"
    picks = sum(1 / a for a, need in zip(acceptance(spot), spot.needs, strict=True) if need)
    return "completions" if picks <= MAX_PICKS else "shuffle"


def sample(
    spot: Spot,
    trials: int,
    *,
    seed: int | None = None,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
    sampler: Sampler = "auto",
    ranges: Sequence[Combos | None] | None = None,
    plain: bool = False,
) -> Tally:
    """Deal the missing cards ``trials`` times at random and total each player's results (see :class:`Tally`).

    The same ``seed`` gives the same tally for any ``workers``; ``seed=None`` draws fresh entropy from the OS.
    ``workers`` > 1 shares the chunks among that many processes. ``progress(done, trials)`` is called after each
    chunk. ``sampler`` forces a method (see the module documentation); ``"auto"`` is :func:`choose_sampler`'s.
    ``ranges``: per player, None or his range as ``(combos, weights)``, every combination of his down cards (rows
    of card indices, none of them known anywhere) and its weight; his hand in ``spot`` is then his up cards only.
    Each trial picks every ranged player's down cards with probability proportional to their weight (the whole
    assignment again while two share a card), then deals the rest by the shuffle. ``plain=True`` lets a heads-up
    spot that the compiled completions sampler answers in this process go without NumPy (not imported at all); the
    tally then holds plain lists (as :class:`Tally` ``plain=True``) with the very numbers the arrays would hold.
    """
    check_trials(trials)
    if type(workers) is not int or workers < 1:
        raise EquityError(f"workers must be a positive whole number, got {workers!r}")
    _check_seed(seed)
    if sampler not in ("auto", "completions", "shuffle"):
        raise EquityError(f"unknown sampler {sampler!r}: use auto, completions or shuffle")
    if sampler == "completions" and spot.community_to_come:
        raise EquityError("the completions sampler cannot deal a community card: use the shuffle sampler (or auto)")
    if ranges is not None and sampler == "completions":
        raise EquityError("the completions sampler cannot deal ranges: use the shuffle sampler (or auto)")
    entropy = secrets.randbits(128) if seed is None else seed  # fresh entropy as NumPy's SeedSequence draws it
    chosen = "shuffle" if ranges is not None else choose_sampler(spot, trials) if sampler == "auto" else sampler
    chunks = -(-trials // CHUNK)
    sizes = ((index, min(CHUNK, trials - index * CHUNK)) for index in range(chunks))  # lazily: trials may be many
    done = 0
    processes = min(workers, chunks, usable_cores())
    if plain and processes <= 1 and chosen == "completions" and spot.n == 2 and None not in (_sample, _kernel):
        return _lean_sample(spot, trials, entropy, progress)
    import numpy as np

    if ranges is not None:
        plan = replace(_plan(spot, "shuffle"), ranges=tuple(_range(spot, p, r) for p, r in enumerate(ranges)))
    else:
        plan = _plan(spot, chosen)
    counts = np.zeros(plan.codes, dtype=np.int64)
    if processes <= 1:
        for index, size in sizes:
            counts += _chunk(plan, entropy, index, size)
            done += size
            if progress is not None:
                progress(done, trials)
        return _tally(plan, counts)
    import multiprocessing

    from .._pool import owned_pool, submit

    methods = multiprocessing.get_all_start_methods()
    method = "fork" if "fork" in methods else None
    # on an error or Ctrl-C the workers are ended at once, their chunks not waited for
    with owned_pool(processes, method=method, initializer=_start_worker, initargs=(plan,)) as executor:
        pending: dict[Future[Counts], int] = {}
        for index, size in sizes:  # a few chunks ahead of the processes, not all of them at once
            pending[submit(executor, _worker_chunk, entropy, index, size)] = size
            while len(pending) >= 4 * processes:
                for came in _collect(pending, counts):
                    done += came
                    if progress is not None:
                        progress(done, trials)
        while pending:
            for came in _collect(pending, counts):
                done += came
                if progress is not None:
                    progress(done, trials)
    return _tally(plan, counts)


def deal(
    spot: Spot, trials: int, *, seed: int | None = None, ranges: Sequence[Combos | None] | None = None
) -> Iterator[npt.NDArray[np.uint8]]:
    """Deal ``trials`` random deals of ``spot`` by the shuffle, in blocks: arrays of shape (trials in the block,
    players, cards in a final hand), each player's whole final hand (known cards, a range's down cards, the cards
    dealt, the community card). The deals are those :func:`sample` makes with the shuffle (the same chunks and
    random streams for a seed); ``ranges`` as for :func:`sample`. For questions about each hand on its own (the
    distribution of final hand categories), where no showdown is needed."""
    import numpy as np

    check_trials(trials)
    _check_seed(seed)
    entropy: int = np.random.SeedSequence().entropy if seed is None else seed  # type: ignore[assignment]
    plan = _plan(spot, "shuffle")
    if ranges is not None:
        plan = replace(plan, ranges=tuple(_range(spot, p, r) for p, r in enumerate(ranges)))
    width, needs, block = plan.variant.cards, _own_needs(plan), _BLOCK["shuffle"]
    hands = tuple(known.tobytes() for known in plan.known)
    for index in range(-(-trials // CHUNK)):
        size = min(CHUNK, trials - index * CHUNK)
        sequence = np.random.SeedSequence(entropy, spawn_key=(index,))
        if _sample is not None:
            state = _chunk_state(entropy, index)
            for start in range(0, size, block):
                rows = np.empty((min(block, size - start), plan.players, width), dtype=np.uint8)
                _sample.deal(
                    plan.pool.tobytes(),
                    hands,
                    needs,
                    plan.community,
                    state,
                    len(rows),
                    width,
                    rows,
                    plan.ranges or None,
                )
                yield rows
            continue
        rng = np.random.default_rng(sequence)
        for start in range(0, size, block):
            count = min(block, size - start)
            cards, first, chosen = _shuffled(plan, rng, count)
            rows = np.empty((count, plan.players, width), dtype=np.uint8)
            at, shared = first, first + sum(needs)
            for p, (known, need) in enumerate(zip(plan.known, needs, strict=True)):
                parts = [np.broadcast_to(known, (count, len(known)))]
                if p in chosen:
                    parts.append(chosen[p])
                parts.append(cards[:, at : at + need])
                if plan.community:
                    parts.append(cards[:, shared : shared + 1])
                rows[:, p, :] = np.concatenate(parts, axis=1)
                at += need
            yield rows


def _check_seed(seed: object) -> None:
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < MAX_SEED):
        raise EquityError(f"seed must be a whole number from 0 to 2**128 - 1, got {seed!r}")


def _collect(pending: dict[Future[Counts], int], counts: Counts) -> list[int]:
    """Wait for at least one pending chunk, add the counts of every finished one, and return their sizes (one
    entry per chunk, so that progress is told per chunk even when several finish together)."""
    from concurrent.futures import FIRST_COMPLETED, wait

    finished, _ = wait(pending, return_when=FIRST_COMPLETED)
    sizes = []
    for future in finished:
        counts += future.result()
        sizes.append(pending.pop(future))
    return sizes


def _range(spot: Spot, player: int, given: Combos | None) -> tuple[bytes, int, npt.NDArray[np.float64]] | None:
    """A player's range as the plan keeps it: combination bytes, cards in each, cumulative weights."""
    import numpy as np

    if given is None:
        return None
    combos, weights = np.ascontiguousarray(given[0], dtype=np.uint8), np.asarray(given[1], dtype=np.float64)
    if combos.ndim != 2 or len(combos) != len(weights) or not len(combos) or combos.shape[1] > spot.needs[player]:
        raise EquityError(f"hand {player + 1}: a range needs one weight per combination and at least one of each")
    if not np.all(np.isfinite(weights)) or np.any(weights < 0) or not weights.sum() > 0:
        raise EquityError(f"hand {player + 1}: range weights must be finite, at least 0, and not all 0")
    if not set(combos.ravel().tolist()) <= set(spot.pool):
        raise EquityError(f"hand {player + 1}: a range's down cards must be cards nobody is known to hold")
    return combos.tobytes(), int(combos.shape[1]), np.cumsum(weights)


def _plan(spot: Spot, sampler: str) -> _Plan:
    """The plan for ``spot``: for the completions sampler, every player's completions with masks and values."""
    import numpy as np

    from . import _deal

    pool = np.asarray(spot.pool, dtype=np.uint8)
    # each player's known cards, a dealt community card included
    known = tuple(np.array([c.index for c in hand], dtype=np.uint8) for hand in spot.known)
    hilo = spot.variant is Variant.STUD7_HL8
    base = _Plan(sampler, spot.n, hilo, spot.needs, known, pool, spot.variant, community=spot.community_to_come)
    if sampler == "shuffle":
        return base
    table_masks, table_values = [], []
    for cards, need in zip(known, spot.needs, strict=True):
        extra = _deal.completions(spot.pool, need)
        table_masks.append(_deal.masks(extra))
        table_values.append(_pack(*_deal.hand_values(spot.variant, cards.tolist(), extra)))
    # Heads-up, throwing a clashing trial away is cheaper than picking again (no loop over the clashes); with more
    # players picking again is, as it keeps the earlier players' picks.
    fits = [a for a, rows in zip(acceptance(spot), table_masks, strict=True) if len(rows) > 1]
    drop = fits[-1] if len(fits) == 2 and fits[-1] >= _DROP_ABOVE else 0.0
    entries: tuple[bytes, ...] = ()
    if _sample is not None:
        entries = tuple(_entries(m, v) for m, v in zip(table_masks, table_values, strict=True))
    return _Plan(
        sampler,
        spot.n,
        hilo,
        spot.needs,
        known,
        pool,
        spot.variant,
        tuple(table_masks),
        tuple(table_values),
        drop,
        entries,
        community=spot.community_to_come,
    )


def _entries(table_masks: npt.NDArray[np.uint64], values: Values) -> bytes:
    """One player's completions for the compiled sampler: 16 bytes each, the card mask then the value, so that
    a pick reads one cache line."""
    import numpy as np

    out = np.zeros(len(values), dtype=[("mask", "<u8"), ("value", "<i4"), ("pad", "<i4")])
    out["mask"] = table_masks
    out["value"] = values
    return out.tobytes()


def _pack(high: Values, low: Values | None) -> Values:
    """One int32 per hand: the value, or in hi/lo ``high << 6 | low`` (one lookup per player and trial)."""
    import numpy as np

    if low is None:
        return np.ascontiguousarray(high, dtype=np.int32)
    return ((high.astype(np.int32) << _LOW_BITS) | low).astype(np.int32)


def _chunk(plan: _Plan, entropy: int, index: int, size: int) -> Counts:
    """How often each trial code came up in chunk ``index`` (``size`` trials, its own random stream)."""
    import numpy as np

    if _sample is not None:
        return _compiled_chunk(plan, entropy, index, size)
    rng = np.random.default_rng(np.random.SeedSequence(entropy, spawn_key=(index,)))
    draw = _draw_completions if plan.sampler == "completions" else _draw_shuffle
    counts = np.zeros(plan.codes, dtype=np.int64)
    block = _BLOCK[plan.sampler]
    for start in range(0, size, block):
        counts += np.bincount(_codes(plan, draw(plan, rng, min(block, size - start))), minlength=plan.codes)
    return counts


def _compiled_chunk(plan: _Plan, entropy: int, index: int, size: int) -> Counts:
    """:func:`_chunk` with the compiled kernel: the same law of trials, its own random numbers (xoshiro256**
    seeded from the chunk's ``SeedSequence``), so a seed repeats exactly on a build with the kernel."""
    import numpy as np

    from . import _deal

    assert _sample is not None
    state = _chunk_state(entropy, index)
    counts = np.zeros(plan.codes, dtype=np.int64)
    if plan.sampler == "completions":
        _sample.completions(plan.entries, state, size, plan.drop > 0, plan.hilo, counts)
        return counts
    width = plan.variant.cards
    hands = tuple(known.tobytes() for known in plan.known)
    needs = _own_needs(plan)
    block = _BLOCK["shuffle"]
    for start in range(0, size, block):
        trials = min(block, size - start)
        rows = np.empty((trials, plan.players, width), dtype=np.uint8)
        _sample.deal(plan.pool.tobytes(), hands, needs, plan.community, state, trials, width, rows, plan.ranges or None)
        values = np.empty((trials, plan.players), dtype=np.int32)
        for p in range(plan.players):
            values[:, p] = _pack(*_deal.whole_values(plan.variant, rows[:, p, :]))
        _sample.tally(values, plan.players, plan.hilo, counts)
    return counts


def _own_needs(plan: _Plan) -> tuple[int, ...]:
    """The cards each player is dealt from the shuffle: his cards to come less a range's down cards."""
    if not plan.ranges:
        return plan.needs
    return tuple(need - (r[1] if r is not None else 0) for need, r in zip(plan.needs, plan.ranges, strict=True))


_WORKER_PLAN: _Plan | None = None


def _start_worker(plan: _Plan) -> None:
    """Process pool initializer: keep the plan (inherited at the fork, not pickled, where fork is used)."""
    global _WORKER_PLAN
    _WORKER_PLAN = plan


def _worker_chunk(entropy: int, index: int, size: int) -> Counts:
    """One chunk in a worker process."""
    assert _WORKER_PLAN is not None
    return _chunk(_WORKER_PLAN, entropy, index, size)


def _draw_completions(plan: _Plan, rng: np.random.Generator, size: int) -> list[Values]:
    """``size`` trials by picking completions: each player's values, one per trial. With :attr:`_Plan.drop` the
    trials whose last pick clashes are thrown away and more are drawn until there are ``size``."""
    import numpy as np

    if plan.drop <= 0:
        picks, _ = _pick(plan, rng, size, drop=False)
        return [table.take(rows) if rows is not None else np.full(size, table[0]) for table, rows in picks]
    parts: list[list[Values]] = []
    need = size
    while need:
        picks, keep = _pick(plan, rng, int(need / plan.drop * 1.03) + 64, drop=True)
        keep = keep[:need]
        parts.append(
            [table.take(rows.take(keep)) if rows is not None else np.full(len(keep), table[0]) for table, rows in picks]
        )
        need -= len(keep)
    return [np.concatenate(column) for column in zip(*parts, strict=True)] if len(parts) > 1 else parts[0]


def _pick(
    plan: _Plan, rng: np.random.Generator, size: int, *, drop: bool
) -> tuple[list[tuple[Values, npt.NDArray[np.intp] | None]], npt.NDArray[np.intp]]:
    """One completion per player for ``size`` trials, in seat order, picked again while it clashes with the
    earlier players' (the last player's too unless ``drop``). Returns each player's (values table, rows picked, or
    None for a player with nothing left to get) and, with ``drop``, the trials whose last pick fits."""
    import numpy as np

    last = max((p for p, need in enumerate(plan.needs) if need), default=-1)
    taken: npt.NDArray[np.uint64] | None = None  # the cards picked so far in each trial
    picked: list[tuple[Values, npt.NDArray[np.intp] | None]] = []
    keep = np.empty(0, dtype=np.intp)
    for p, (table, table_values) in enumerate(zip(plan.masks, plan.values, strict=True)):
        rows = len(table)
        if rows == 1:  # nothing left to deal him
            picked.append((table_values, None))
            continue
        picks = rng.integers(0, rows, size=size)
        mine = table.take(picks)
        picked.append((table_values, picks))
        if taken is None:
            taken = mine
            continue
        if p == last and drop:
            keep = np.flatnonzero((mine & taken) == 0)
            continue
        redo = np.flatnonzero((mine & taken) != 0)
        others = taken[redo]  # the cards already picked in the trials to pick again
        while redo.size:
            again = rng.integers(0, rows, size=redo.size)
            again_masks = table.take(again)
            picks[redo] = again
            if p != last:
                mine[redo] = again_masks
            clash = np.flatnonzero((again_masks & others) != 0)
            redo, others = redo.take(clash), others.take(clash)
        if p != last:
            taken |= mine
    return picked, keep


def _draw_shuffle(plan: _Plan, rng: np.random.Generator, size: int) -> list[Values]:
    """``size`` trials by a partial Fisher-Yates shuffle of the pool: each player's values, one per trial. The
    players' own cards come first, in seat order; with :attr:`_Plan.community` the next card is the community
    card, added to every hand."""
    import numpy as np

    from . import _deal

    needs = _own_needs(plan)
    cards, first, chosen = _shuffled(plan, rng, size)
    dealt = first + sum(needs) + plan.community
    values: list[Values] = []
    start = first
    for p, (known, need) in enumerate(zip(plan.known, needs, strict=True)):
        extra = cards[:, start : start + need]
        if p in chosen:
            extra = np.concatenate([chosen[p], extra], axis=1)
        if plan.community:
            extra = np.concatenate([extra, cards[:, dealt - 1 : dealt]], axis=1)
        values.append(_pack(*_deal.hand_values(plan.variant, known.tolist(), extra)))
        start += need
    return values


def _shuffled(
    plan: _Plan, rng: np.random.Generator, size: int
) -> tuple[npt.NDArray[np.uint8], int, dict[int, npt.NDArray[np.uint8]]]:
    """``size`` shuffles of the pool (NumPy), one row per trial: the ranged players' down cards first (see
    :func:`_draw_ranges`), then the cards dealt in seat order and the community card, each uniform among the cards
    left (a partial Fisher-Yates shuffle). Returns the rows, how many range cards lead each row, and each ranged
    player's down cards (trials x cards)."""
    import numpy as np

    m = len(plan.pool)
    deck = np.tile(plan.pool, size)  # trial t's pool at deck[t * m : (t + 1) * m]
    rows = np.arange(size, dtype=np.intp) * m
    first, chosen = _draw_ranges(plan, rng, deck, rows)
    dealt = first + sum(_own_needs(plan)) + plan.community
    for j in range(first, dealt):  # swap position j with a uniform position in j..m-1
        here = rows + j
        there = rows + rng.integers(j, m, size=size)
        card = deck[there]
        deck[there] = deck[here]
        deck[here] = card
    return deck.reshape(size, m), first, chosen


def _draw_ranges(
    plan: _Plan, rng: np.random.Generator, deck: npt.NDArray[np.uint8], rows: npt.NDArray[np.intp]
) -> tuple[int, dict[int, npt.NDArray[np.uint8]]]:
    """The ranged players' down cards for each trial (picked by weight, each assignment again while two picks
    share a card), moved to the front of each trial's deck. Returns how many cards that is per trial, and each
    ranged player's down cards (trials x cards)."""
    import numpy as np

    from . import _deal

    ranged = [(p, r) for p, r in enumerate(plan.ranges) if r is not None]
    if not ranged:
        return 0, {}
    size = len(rows)
    tables = {p: np.frombuffer(r[0], dtype=np.uint8).reshape(-1, r[1]) for p, r in ranged}
    picks = {p: np.zeros(size, dtype=np.intp) for p, _ in ranged}
    redo = np.arange(size)
    for _ in range(1000):
        taken = np.zeros(len(redo), dtype=np.uint64)
        clash = np.zeros(len(redo), dtype=bool)
        for p, (_, _, cumulative) in ranged:
            index = np.searchsorted(cumulative, rng.random(len(redo)) * cumulative[-1], side="right")
            index = np.minimum(index, len(cumulative) - 1)
            picks[p][redo] = index
            bits = _deal.masks(tables[p][index])
            clash |= (taken & bits) != 0
            taken |= bits
        redo = redo[clash]
        if not len(redo):
            break
    else:
        raise EquityError("no assignment of the ranges' down cards has no card twice")
    where = np.zeros((size, 52), dtype=np.intp)  # each card's place in each trial's deck
    where[np.repeat(np.arange(size), len(plan.pool)), np.tile(plan.pool, size)] = np.tile(
        np.arange(len(plan.pool)), size
    )
    chosen = {p: tables[p][picks[p]] for p, _ in ranged}
    first, trial = 0, np.arange(size)
    for p, _ in ranged:
        for column in chosen[p].T:  # swap each chosen card with the card at the front
            at, other = where[trial, column], deck[rows + first]
            deck[rows + at], deck[rows + first] = other, column
            where[trial, other], where[trial, column] = at, first
            first += 1
    return first, chosen


def _codes(plan: _Plan, values: Sequence[Values]) -> npt.NDArray[np.intp]:
    """Each trial's code: bit p set when player p has the best high hand; in hi/lo, shifted up by the number of
    players, and below it bit p set when player p has the best qualifying low (no bit when no low qualifies)."""
    import numpy as np

    highs = [v >> _LOW_BITS for v in values] if plan.hilo else list(values)
    best = highs[0]
    for v in highs[1:]:
        best = np.maximum(best, v)
    code: npt.NDArray[np.intp] = (highs[0] == best).astype(np.intp)
    for p, v in enumerate(highs[1:], 1):
        code |= (v == best).astype(np.intp) << p
    if not plan.hilo:
        return code
    lows = [v & _LOW_MASK for v in values]
    best_low = lows[0]
    for v in lows[1:]:
        best_low = np.maximum(best_low, v)
    low_code: npt.NDArray[np.intp] = np.zeros_like(code)
    for p, v in enumerate(lows):
        low_code |= (v == best_low).astype(np.intp) << p
    low_code *= best_low > 0
    out: npt.NDArray[np.intp] = (code << plan.players) | low_code
    return out


def _tally(plan: _Plan, counts: Counts) -> Tally:
    """The tally of the trials summarised by ``counts`` (how often each code came up)."""
    import numpy as np

    n = plan.players
    tally = Tally(n, scale=1, floats=True)
    codes = np.flatnonzero(counts)
    weight = counts[codes].astype(np.float64)
    bits = 1 << np.arange(n)
    tally.outcomes = int(counts.sum())
    if plan.hilo:
        high_set, low_set = codes >> n, codes & ((1 << n) - 1)
    else:
        high_set, low_set = codes, np.zeros_like(codes)
    in_high = (high_set[:, None] & bits) != 0  # (codes, players)
    in_low = (low_set[:, None] & bits) != 0
    n_high = in_high.sum(axis=1, keepdims=True)
    n_low = in_low.sum(axis=1, keepdims=True)
    has_low = n_low > 0
    high = np.where(has_low, 0.5, 1.0) * in_high / n_high
    low = np.where(has_low, 0.5 * in_low / np.maximum(n_low, 1), 0.0)
    share = high + low
    alone_high = in_high & (n_high == 1)
    if plan.hilo:
        win = alone_high & (~has_low | (in_low & (n_low == 1)))
        tally.high = weight @ high
        tally.low = weight @ low
        tally.high_sq = weight @ (high * high)
        tally.low_sq = weight @ (low * low)
        tally.no_low = int(counts[codes][~has_low[:, 0]].sum())
    else:
        win = alone_high
        tally.tie = counts[codes] @ (in_high & (n_high > 1)).astype(np.int64)
    tally.win = counts[codes] @ win.astype(np.int64)
    tally.share = weight @ share
    tally.share_sq = weight @ (share * share)
    return tally


# -- the heads-up completions sampler without NumPy ---------------------------------------------------------

# SeedSequence's constants (NumPy's ``bit_generator.pyx``, after Melissa O'Neill's seed_seq design).
_INIT_A, _MULT_A, _INIT_B, _MULT_B = 0x43B0D7E5, 0x931E8875, 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R, _MASK32 = 0xCA01F9DD, 0x4973F715, 0xFFFFFFFF
_POOL_WORDS = 4


def _words(value: int) -> list[int]:
    """A non-negative integer as 32-bit words, least significant first (``[0]`` for 0), as SeedSequence reads it."""
    words = [value & _MASK32]
    value >>= 32
    while value:
        words.append(value & _MASK32)
        value >>= 32
    return words


def _chunk_state(entropy: int, index: int) -> bytearray:
    """The 32-byte xoshiro256** state of chunk ``index``: exactly the bytes of NumPy's
    ``SeedSequence(entropy, spawn_key=(index,)).generate_state(4, np.uint64)``, computed without NumPy (a cold
    Monte Carlo run then need not import it; the tests compare the two)."""
    run, spawn = _words(entropy), _words(index)
    run += [0] * (_POOL_WORDS - len(run))  # a spawn key follows: the entropy is padded out to the pool size
    assembled = run + spawn
    hash_const = _INIT_A

    def hashmix(value: int) -> int:
        nonlocal hash_const
        value ^= hash_const
        hash_const = (hash_const * _MULT_A) & _MASK32
        value = (value * hash_const) & _MASK32
        return value ^ (value >> 16)

    def mix(x: int, y: int) -> int:
        result = (_MIX_L * x - _MIX_R * y) & _MASK32
        return result ^ (result >> 16)

    pool = [hashmix(assembled[i] if i < len(assembled) else 0) for i in range(_POOL_WORDS)]
    for src in range(_POOL_WORDS):
        for dst in range(_POOL_WORDS):
            if src != dst:
                pool[dst] = mix(pool[dst], hashmix(pool[src]))
    for word in assembled[_POOL_WORDS:]:
        for dst in range(_POOL_WORDS):
            pool[dst] = mix(pool[dst], hashmix(word))
    out = array("I")
    hash_const = _INIT_B
    for i in range(2 * 4):  # 4 uint64 = 8 uint32 words, little-endian halves
        value = pool[i % _POOL_WORDS] ^ hash_const
        hash_const = (hash_const * _MULT_B) & _MASK32
        value = (value * hash_const) & _MASK32
        out.append(value ^ (value >> 16))
    if out.itemsize != 4:  # pragma: no cover - every platform CPython runs on has a 4-byte "I"
        raise RuntimeError("array('I') is not 32-bit here")
    if array("H", [1]).tobytes() != b"\x01\x00":  # pragma: no cover - big-endian machines
        out.byteswap()
    return bytearray(out.tobytes())


def _lean_entries(spot: Spot, player: int) -> bytes:
    """One player's completions table for the compiled sampler (16-byte entries, as :func:`_entries` makes them
    from :func:`_plan`'s arrays), listed and evaluated in C: the evaluation kernel reads the hands as bytes."""
    assert _sample is not None and _kernel is not None
    from ..evaluation import high as scalar

    pool, need = bytes(spot.pool), spot.needs[player]
    known = bytes(card.index for card in spot.known[player])
    hands = _sample.combos(pool, known, need)
    width = len(known) + need

    def values(kind: str) -> array[int]:
        out = array("i", bytes(4 * (len(hands) // width)))
        if _kernel.batch(out, hands, width, scalar.KIND_IDS[kind], False) != _kernel.OK:
            scalar.load_kernel(width, kind)
            if _kernel.batch(out, hands, width, scalar.KIND_IDS[kind], False) != _kernel.OK:
                raise EquityError(f"the evaluation kernel refused {width}-card hands")  # pragma: no cover
        return out

    if spot.variant is Variant.RAZZ:
        table: bytes = _sample.entries(pool, need, values("razz"), None)
    else:
        lows = values("low8") if spot.variant is Variant.STUD7_HL8 else None
        table = _sample.entries(pool, need, values("high"), lows)
    return table


def _lean_sample(spot: Spot, trials: int, entropy: int, progress: Callable[[int, int], None] | None) -> Tally:
    """:func:`sample` heads-up by the compiled completions sampler in this process, without NumPy: the same
    tables, chunks, random streams and tally as the NumPy-assisted path, so the same answer for a seed."""
    assert _sample is not None and spot.n == 2
    entries = tuple(_lean_entries(spot, p) for p in range(2))
    hilo = spot.variant is Variant.STUD7_HL8
    fits = [a for a, need in zip(acceptance(spot), spot.needs, strict=True) if comb(len(spot.pool), need) > 1]
    drop = len(fits) == 2 and fits[-1] >= _DROP_ABOVE
    counts = array("q", bytes(8 << (4 if hilo else 2)))
    done = 0
    for index in range(-(-trials // CHUNK)):
        size = min(CHUNK, trials - index * CHUNK)
        _sample.completions(entries, _chunk_state(entropy, index), size, drop, hilo, counts)
        done += size
        if progress is not None:
            progress(done, trials)
    return _lean_tally(hilo, counts)


def _lean_tally(hilo: bool, counts: array[int]) -> Tally:
    """:func:`_tally` for two players in plain Python. Every share is 0, 1/4, 1/2, 3/4 or 1 of a pot and every
    count below 2**53, so each sum is exact in floating point and equals NumPy's, whatever its order."""
    tally = Tally(2, plain=True)
    win, tie, no_low = [0, 0], [0, 0], 0
    share, high, low = [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]
    share_sq, high_sq, low_sq = [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]
    for code, count in enumerate(counts):
        if not count:
            continue
        high_set, low_set = (code >> 2, code & 3) if hilo else (code, 0)
        n_high, n_low = bin(high_set).count("1"), bin(low_set).count("1")
        for p in range(2):
            in_high, in_low = high_set >> p & 1, low_set >> p & 1
            h = (0.5 if n_low else 1.0) * in_high / n_high
            lo = 0.5 * in_low / max(n_low, 1) if n_low else 0.0
            s = h + lo
            alone = in_high and n_high == 1
            win[p] += count if alone and (not n_low or (in_low and n_low == 1)) else 0
            tie[p] += count if in_high and n_high > 1 and not hilo else 0
            share[p] += count * s
            share_sq[p] += count * (s * s)
            high[p] += count * h
            high_sq[p] += count * (h * h)
            low[p] += count * lo
            low_sq[p] += count * (lo * lo)
        no_low += count if not n_low else 0
    # the float lists stand where Tally keeps NumPy arrays; EquityResult.from_tally reads both alike
    tally.outcomes = sum(counts)
    tally.win, tally.tie, tally.share = win, tie, share  # type: ignore[assignment]
    if hilo:
        tally.high, tally.low, tally.no_low = high, low, no_low  # type: ignore[assignment]
        tally.high_sq, tally.low_sq = high_sq, low_sq  # type: ignore[assignment]
    tally.share_sq = share_sq  # type: ignore[assignment]
    return tally
