"""``equity()``: the one call that answers an equity question, exactly when that is quick, by sampling otherwise."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, cast

from .._cores import usable_cores
from ..cards import Card
from ..engine import Variant
from .result import EquityResult
from .spot import CommunityLike, EquityError, Spot, check_method

if TYPE_CHECKING:
    from .ranges import Range

__all__ = ["DEFAULT_TRIALS", "LONG_JOB", "Progress", "auto_workers", "equity"]

#: Monte Carlo trials when none are asked for: a standard error of at most 0.05 percentage points of equity.
DEFAULT_TRIALS = 1_000_000

#: Seconds of estimated work from which ``workers=None`` uses every core: below it, starting the processes costs
#: about as much as they save.
LONG_JOB = 0.5

#: ``progress(done, total)``: called now and then by long calculations (units are the method's own).
Progress = Callable[[int, int], None]


def equity(
    hands: Sequence[str | Iterable[Card | str] | Range] | Spot,
    *,
    variant: str | Variant = "7stud",
    dead: str | Iterable[Card | str] | None = (),
    community: CommunityLike = None,
    method: str = "auto",
    trials: int | None = None,
    seed: int | None = None,
    workers: int | None = 1,
    progress: Progress | None = None,
) -> EquityResult:
    """Each player's equity: ``hands`` holds every player's known cards (``"As Ad 7c"``), ``dead`` the cards out of
    play, ``community`` whether the last street is a community card (``True``: to come; ``False``: everyone gets his
    own; ``None``: auto, a community card exactly when the deck is short without one; a card such as ``"Kd"``:
    already dealt; see :class:`Spot`). ``variant``, ``dead`` and ``community`` are the spot's when ``hands`` is a
    :class:`Spot`. ``method``: ``"exact"`` counts every outcome, ``"montecarlo"`` samples ``trials`` deals (reproducibly
    with ``seed``), ``"auto"`` counts when :func:`studpoker.equity.exact.feasible` says it is quick and samples
    otherwise. ``workers`` > 1 spreads the work over processes; the answer does not depend on it. ``workers=None``
    lets :func:`auto_workers` choose (the command line's default): every core for a job long enough to gain, else
    one process; the default stays 1 so that a library call never starts processes unasked.
    """
    check_method(method, trials, seed)
    if progress is not None and not callable(progress):
        raise EquityError(f"progress must be a function progress(done, total), got {progress!r}")
    if workers is not None and (type(workers) is not int or workers < 1):
        raise EquityError(f"workers must be a positive whole number or None (auto), got {workers!r}")
    if not isinstance(hands, (Spot, str)) and isinstance(hands, Sequence) and _has_range(hands):
        from . import ranged

        return ranged.range_equity(
            hands,
            variant=variant,
            dead=dead,
            community=community,
            method=method,
            trials=trials,
            seed=seed,
            workers=workers if workers is not None else 1,
            progress=progress,
            default_trials=DEFAULT_TRIALS,
        )
    spot = hands if isinstance(hands, Spot) else Spot.parse(variant, cast(Sequence[str], hands), dead, community)
    start = time.perf_counter()
    if method == "exact" or (method == "auto" and trials is None):
        from . import small

        if small.suitable(spot):  # a handful of outcomes: counted one by one, without NumPy
            tally = small.count(spot)
            if progress is not None:
                progress(1, 1)
            return EquityResult.from_tally(spot, "exact", tally, time.perf_counter() - start)
    if method == "auto" and trials is not None:
        method = "montecarlo"
    if method != "montecarlo":
        # here, not at the top: counting pulls in NumPy and the batch tables (sampling heads-up need not)
        from . import exact

        if method == "auto":
            method = "exact" if exact.feasible(spot) else "montecarlo"
    if workers is None:
        workers = auto_workers(spot, method, trials or DEFAULT_TRIALS)
    if method == "exact":
        from . import exact

        tally = exact.count(spot, workers=workers, progress=progress)
        return EquityResult.from_tally(spot, "exact", tally, time.perf_counter() - start)
    from . import montecarlo

    tally = montecarlo.sample(spot, trials or DEFAULT_TRIALS, seed=seed, workers=workers, progress=progress, plain=True)
    return EquityResult.from_tally(spot, "montecarlo", tally, time.perf_counter() - start, seed)


def _has_range(hands: Sequence[object]) -> bool:
    """Whether a hand is a range, without importing the range modules for the plain questions (they cost a cold
    ``stud equity`` 40 ms): range text has a parenthesis, and a :class:`Range` exists only once its module is."""
    ranges = sys.modules.get("studpoker.equity.ranges")
    return any((isinstance(h, str) and "(" in h) or (ranges is not None and isinstance(h, ranges.Range)) for h in hands)


def auto_workers(spot: Spot, method: str, trials: int = DEFAULT_TRIALS) -> int:
    """How many processes ``workers=None`` uses for ``spot`` by ``method`` (``"exact"`` or ``"montecarlo"``):
    the cores this process may run on when the work is estimated at :data:`LONG_JOB` seconds or more, else 1.
    The estimate is a rate per unit of work measured on the reference machine (compiled kernel, or NumPy without
    it): inclusion-exclusion terms for the exact tuple counter, trials (times players when dealing by shuffle)
    for Monte Carlo; the heads-up sweep is one pass and always runs in one process."""
    cores = usable_cores()
    if cores < 2:
        return 1
    from . import montecarlo

    if method == "exact":
        from . import exact, sweep

        if sweep.suitable(spot):
            return 1
        seconds = exact.plan(spot).work / (75e6 if exact._count is not None else 15e6)
    else:
        sampler = montecarlo.choose_sampler(spot, trials)
        per_trial = 15e-9 if sampler == "completions" else 22e-9 * spot.n
        seconds = trials * per_trial * (1 if montecarlo._sample is not None else 5)
    return cores if seconds >= LONG_JOB else 1
