#!/usr/bin/env python3
"""Train a tabular Q-learning agent (OpenSpiel's ``QLearner``) to beat the calling station at heads-up razz.

    python examples/train_razz_agent.py                 # 30,000 training hands, then 20,000 hands of evaluation
    python examples/train_razz_agent.py --hands 2000 --eval-hands 2000 --seed 3

The game is studpoker's OpenSpiel razz (``python_studpoker_razz``, casino 1/3/10/20, 200-chip stacks), stepped
through OpenSpiel's ``rl_environment``. A table of Q-values keyed by the 867-float observation would meet almost
every key once, so the agent sees a small abstraction of its view instead of the tensor: the street, its equity
against a random hand given every card it can see (10 buckets, ``studpoker.equity`` Monte Carlo, 300 deals),
whether it faces a wager, and which actions are legal. Against a player who calls everything and never bets,
that is all there is to know: bet when ahead, check when behind, leave the worst hands at the bring-in. The
opponent in training is the same ``CallingStation`` logic; the evaluation plays the greedy policy against
``studpoker.bots.CallingStation`` with ``run_match`` (seats rotating) and reports big bets per 100 hands with the
95% interval. Needs the ``rl`` extra (open_spiel). Measured result and time: docs/rl.md.
"""

from __future__ import annotations

import argparse
import functools
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]
from open_spiel.python import rl_environment  # type: ignore[import-not-found]
from open_spiel.python.algorithms.tabular_qlearner import QLearner  # type: ignore[import-not-found]
from open_spiel.python.rl_tools import LinearSchedule  # type: ignore[import-not-found]

import studpoker.rl.openspiel  # noqa: F401  (registers the games)
from studpoker.bots import Bot, CallingStation, MatchResult, run_match
from studpoker.engine import Action, View
from studpoker.equity import equity
from studpoker.rl import BRING_IN, CALL, NUM_ACTIONS
from studpoker.rl.encoding import action_slots

GAME = "python_studpoker_razz"
BUCKETS = 10
TRIALS = 300


@functools.lru_cache(maxsize=200_000)
def _equity(mine: str, theirs: str) -> float:
    """My razz equity against a random hand holding ``theirs`` face up (seeded: the same spot, the same number)."""
    return equity([mine, theirs], variant="razz", method="montecarlo", trials=TRIALS, seed=7).players[0].equity


def abstraction(view: View) -> str:
    """What the agent knows of a decision: street, equity bucket, facing a wager, and the legal actions."""
    me = view.viewer
    assert me is not None
    mine = [c for c in view.players[me].down + view.players[me].up if c is not None]
    other = view.players[1 - me]
    theirs = [c for c in other.up if c is not None]
    strength = _equity(" ".join(sorted(map(str, mine))), " ".join(sorted(map(str, theirs))))
    bucket = min(BUCKETS - 1, int(strength * BUCKETS))
    facing = view.to_call > view.players[me].bet
    mask = "".join("1" if a is not None else "0" for a in action_slots(view.legal_actions))
    return f"{view.street}:{bucket}:{int(facing)}:{mask}"


def station_move(legal: Sequence[int]) -> int:
    """The calling station on discrete actions: check or call, else post the bring-in."""
    return CALL if CALL in legal else BRING_IN if BRING_IN in legal else legal[0]


class Dealer:
    """Chance for ``rl_environment``: a uniform draw among the outcomes (every studpoker card is equally likely;
    OpenSpiel's default sampler, ``numpy.random.choice`` with probabilities, costs more than the hand)."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def __call__(self, state: Any) -> int:
        outcomes = state.chance_outcomes()
        return int(outcomes[self.random.randrange(len(outcomes))][0])


def _time_step(template: Any, key: str, player: int) -> Any:
    """The environment's time step with the player's information state replaced by its abstraction."""
    observations = dict(template.observations)
    info = list(observations["info_state"])
    info[player] = key
    observations["info_state"] = info
    return template._replace(observations=observations)


def train(hands: int, seed: int, step_size: float = 0.02) -> tuple[QLearner, set[str], float]:
    """Q-learning for ``hands`` hands as player 0 against the station: the learner, the abstract states it met
    and the seconds it took."""
    np.random.seed(seed)  # QLearner explores with NumPy's global generator
    game = pyspiel.load_game(GAME, {"players": 2})
    env = rl_environment.Environment(
        game,
        chance_event_sampler=Dealer(seed),
        observation_type=rl_environment.ObservationType.OBSERVATION,
    )
    schedule = LinearSchedule(0.5, 0.02, max(1, int(hands * 2.5)))
    agent = QLearner(player_id=0, num_actions=NUM_ACTIONS, step_size=step_size, epsilon_schedule=schedule)
    seen: set[str] = set()
    start = time.perf_counter()
    for _ in range(hands):
        time_step = env.reset()
        while not time_step.last():
            player = time_step.observations["current_player"]
            legal = time_step.observations["legal_actions"][player]
            if player == 0:
                key = abstraction(env.get_state.hand.view(0))
                seen.add(key)
                action = agent.step(_time_step(time_step, key, 0)).action
            else:
                action = station_move(legal)
            time_step = env.step([action])
        agent.step(_time_step(time_step, "end", 0))  # the hand's result: the last update
    return agent, seen, time.perf_counter() - start


class QBot(Bot):
    """The trained agent as a studpoker bot: the greedy action of its Q-table on the abstraction of its view."""

    tag = "q-learner"

    def __init__(self, agent: QLearner) -> None:
        self.agent = agent

    def act(self, view: View) -> Action:
        slots = action_slots(view.legal_actions)
        legal = [i for i, a in enumerate(slots) if a is not None]
        assert view.viewer is not None
        observations = {"info_state": [None, None], "legal_actions": [[], []], "current_player": view.viewer}
        observations["info_state"][0] = abstraction(view)
        observations["legal_actions"][0] = legal
        step = rl_environment.TimeStep(observations, None, None, rl_environment.StepType.MID)
        chosen = slots[self.agent.step(step, is_evaluation=True).action]
        assert chosen is not None
        return chosen


@dataclass(frozen=True)
class Outcome:
    """A run of the example: training and evaluation sizes, times and the evaluation's result."""

    hands: int
    train_seconds: float
    eval_seconds: float
    states: int
    result: MatchResult

    def report(self) -> str:
        low, high = self.result.interval(0)
        return (
            f"trained {self.hands:,} hands in {self.train_seconds:.1f} s ({self.states} abstract states seen)\n"
            f"evaluated {self.result.hands:,} hands against the calling station in {self.eval_seconds:.1f} s:\n"
            f"  {self.result.bb_per_100(0):+.1f} bb/100, 95% interval [{low:+.1f}, {high:+.1f}]"
        )


def run(hands: int, eval_hands: int, seed: int) -> Outcome:
    """Train, then evaluate the greedy policy heads-up against ``CallingStation`` (the same game's rules)."""
    agent, seen, train_seconds = train(hands, seed)
    game = pyspiel.load_game(GAME, {"players": 2})
    np.random.seed(seed + 1)
    start = time.perf_counter()
    result = run_match(game.rules, [QBot(agent), CallingStation()], eval_hands, seed=seed + 1, rotate=True)
    return Outcome(hands, train_seconds, time.perf_counter() - start, len(seen), result)


def main(argv: Sequence[str] | None = None) -> Outcome:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=30_000, help="training hands (default 30,000)")
    parser.add_argument("--eval-hands", type=int, default=20_000, help="evaluation hands (default 20,000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    outcome = run(args.hands, args.eval_hands, args.seed)
    print(outcome.report())
    return outcome


if __name__ == "__main__":
    main()
