"""Bot-against-bot simulations: many independent hands, on every core or a Ray cluster, with the same result
whichever way they ran (``stud simulate``; docs/simulate.md).

* :class:`SimulationSpec`: the game, the bots (one a seat), the hands, the seed, the chunk size, duplicate mode.
* :func:`simulate`: play it (here, on worker processes, or as Ray tasks) and get a :class:`SimulationResult`:
  each bot's and each seat's bb/100 with standard errors and 95 % intervals, duplicate mode's gain, the curve.
* :func:`play_chunk`: one chunk, a pure function of (spec, chunk number): the unit of work everywhere.
* :func:`save_plot`: the cumulative big bets of each bot with their 95 % band (matplotlib, optional).
* :func:`simulate_sit_and_goes`: many sit-and-gos of the same bots, each bot's finishing places and ROI
  (:class:`SitAndGoResult`); :func:`play_tournament` plays any started tournament of bots to its end
  (docs/tournaments.md).

>>> from studpoker.simulate import simulate
>>> result = simulate(bots=["tight-aggressive", "calling-station"], variant="razz", hands=400, chunk=200, seed=5,
...                   workers=1)
>>> result.hands, sum(result.net), [line.label for line in result.bots]
(400, 0, ['1:tight-aggressive', '2:calling-station'])
>>> [line.hands for line in result.bot_seats(0)]       # the seats rotate: half the hands in each
[200, 200]
>>> result.to_dict() == simulate(result.spec, workers=2).to_dict()    # the same on two processes
True
"""

from .chunk import ChunkResult, SeatDealer, play_chunk
from .plot import save_plot
from .result import DuplicateEstimate, Estimate, SimulationResult, Totals
from .run import Progress, auto_workers, simulate
from .spec import DEFAULT_STACK_BIG_BETS, MAX_HANDS, MAX_SAVED_HANDS, SimulateError, SimulationSpec
from .tournament import SitAndGoResult, play_tournament, simulate_sit_and_goes

__all__ = [
    "DEFAULT_STACK_BIG_BETS",
    "MAX_HANDS",
    "MAX_SAVED_HANDS",
    "ChunkResult",
    "DuplicateEstimate",
    "Estimate",
    "Progress",
    "SeatDealer",
    "SimulateError",
    "SimulationResult",
    "SimulationSpec",
    "SitAndGoResult",
    "Totals",
    "auto_workers",
    "play_chunk",
    "play_tournament",
    "save_plot",
    "simulate",
    "simulate_sit_and_goes",
]
