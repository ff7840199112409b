"""Reinforcement-learning speed: studpoker's OpenSpiel game against OpenSpiel's PokerKit wrapper, and the PettingZoo
environment's steps per second, in one process.

    python bench/rl.py                        # about two and a half minutes
    python bench/rl.py --seconds 2 --rounds 3

What is measured: random playouts, one whole hand from ``game.new_initial_state()`` to a terminal state, through
OpenSpiel's Python API in one thread: at a chance node a uniform draw among ``state.chance_outcomes()`` (both games
deal uniformly from the cards left; the bench checks it on its warm-up hands), at a decision a uniform choice among
``state.legal_actions()``, then ``state.apply_action``. The same loop drives both games:

* ours: ``python_studpoker`` (``studpoker.rl.openspiel``) with ``variant`` stud7 or razz;
* theirs: ``python_pokerkit_wrapper`` (``open_spiel.python.games.pokerkit_wrapper``, PokerKit underneath) with
  ``FixedLimitSevenCardStud`` or ``FixedLimitRazz``.

Same table for both: ante 1, bring-in 3, 10/20, 200 chips each, 2 and 6 players. Our rules are set to PokerKit's
where they differ (three raises after the opening bet even heads-up, no open-pair double bet, no fold when a check
is possible, antes as dead money): ``rules="headsup_uncap=NEVER open_pair_double_bet=false
allow_fold_when_check_available=false ante_side_pots=false"``. The wrapper has no stud hi/lo or five-card stud.

The games alternate in ``--rounds`` blocks of ``--seconds`` each (the order swapped every other round), so a burst
of load lands on both; the table gives min/median/max playouts/s over the blocks, and the ratio is the median of
the per-round ratios (range in brackets). Target (issue 18): ours at least 20x theirs.

Then the PettingZoo environment (``studpoker.rl.env``, wrapped as ``env()`` returns it, casino rules): hands with
uniformly random legal actions read from the action mask; steps/s counts the decisions (``step`` with an action,
``last()`` and the observation included), not the terminated agents' final ``step(None)``.
"""

from __future__ import annotations

import argparse
import logging
import platform
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyspiel

import studpoker.rl.openspiel
from studpoker.engine import state as engine_state
from studpoker.rl import env as pettingzoo_env

TARGET = 20.0
PLAYERS = (2, 6)
GAMES = {"stud7": "FixedLimitSevenCardStud", "razz": "FixedLimitRazz"}
SAME_RULES = "headsup_uncap=NEVER open_pair_double_bet=false allow_fold_when_check_available=false ante_side_pots=false"
WARM_UP = 10


def ours(variant: str, players: int) -> Any:
    params = {"variant": variant, "players": players, "stack": 200, "rules": SAME_RULES}
    return pyspiel.load_game(studpoker.rl.openspiel.GAME_NAME, params)


def theirs(variant: str, players: int) -> Any | None:
    """OpenSpiel's PokerKit wrapper game, or None where this OpenSpiel has none."""
    try:
        from open_spiel.python.games import pokerkit_wrapper  # noqa: F401  (registers the game)
    except ImportError:
        return None
    params = {
        "variant": GAMES[variant],
        "num_players": players,
        "bring_in": 3,
        "small_bet": 10,
        "big_bet": 20,
        "antes": " ".join(["1"] * players),
        "stack_sizes": " ".join(["200"] * players),
    }
    return pyspiel.load_game("python_pokerkit_wrapper", params)


def playout(game: Any, rng: random.Random, check: bool = False) -> tuple[int, int]:
    """One random hand; (decisions, chance nodes). ``check``: assert each chance node is uniform."""
    state = game.new_initial_state()
    decisions = chances = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            if check:
                assert max(p for _, p in outcomes) - min(p for _, p in outcomes) < 1e-12, "not uniform"
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            chances += 1
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            decisions += 1
    assert abs(sum(state.returns())) < 1e-6
    return decisions, chances


@dataclass
class Runner:
    """One game, played block after block; rates per block."""

    name: str
    play: Callable[[random.Random], tuple[int, int]]
    rng: random.Random
    hands: int = 0
    decisions: int = 0
    chances: int = 0
    seconds: float = 0.0
    rates: list[float] = field(default_factory=list)

    def block(self, seconds: float) -> None:
        hands = decisions = chances = 0
        start = time.perf_counter()
        while True:
            d, c = self.play(self.rng)
            hands, decisions, chances = hands + 1, decisions + d, chances + c
            if time.perf_counter() - start >= seconds:
                break
        elapsed = time.perf_counter() - start
        self.hands += hands
        self.decisions += decisions
        self.chances += chances
        self.seconds += elapsed
        self.rates.append(hands / elapsed)


def pettingzoo_block(game: Any, rng: random.Random, seconds: float) -> tuple[int, int, float]:
    """Random hands for ``seconds``: (hands, decisions, elapsed)."""
    hands = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game.reset()
        for _ in game.agent_iter():
            obs, _, terminated, truncated, _ = game.last()
            if terminated or truncated:
                game.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            game.step(int(legal[rng.randrange(len(legal))]))
            decisions += 1
        hands += 1
    return hands, decisions, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per block (default 3)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating blocks per game (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    logging.getLogger("absl").setLevel(logging.ERROR)  # the wrapper warns about its own parameter defaults
    print(f"Python {platform.python_version()}, OpenSpiel {_version('open_spiel')}, PokerKit {_version('pokerkit')}")
    build = "compiled with mypyc" if not (engine_state.__file__ or "").endswith(".py") else "pure Python"
    print(f"studpoker engine: {build}; {args.rounds} alternating blocks of {args.seconds:g} s per game")
    print()
    print(
        f"{'game':<6} {'players':>7} {'engine':<10} {'playouts':>9} {'playouts/s: min':>16} {'median':>8}"
        f" {'max':>8} {'decisions':>10} {'chance':>7}"
    )
    summary = []
    for variant in GAMES:
        for players in PLAYERS:
            games = [("studpoker", ours(variant, players))]
            other = theirs(variant, players)
            if other is not None:
                games.append(("pokerkit", other))
            runners = []
            for name, game in games:
                rng = random.Random(args.seed)
                for _ in range(WARM_UP):
                    playout(game, rng, check=True)
                runners.append(Runner(name, lambda r, g=game: playout(g, r), random.Random(args.seed)))
            for r in range(args.rounds):
                for runner in runners if r % 2 == 0 else runners[::-1]:
                    runner.block(args.seconds)
            for run in runners:
                print(
                    f"{variant:<6} {players:>7} {run.name:<10} {run.hands:>9,} {min(run.rates):>16,.0f}"
                    f" {statistics.median(run.rates):>8,.0f} {max(run.rates):>8,.0f}"
                    f" {run.decisions / run.hands:>10.1f} {run.chances / run.hands:>7.1f}",
                    flush=True,
                )
            if len(runners) == 2:
                ratios = [a / b for a, b in zip(runners[0].rates, runners[1].rates, strict=True)]
                summary.append((variant, players, statistics.median(ratios), min(ratios), max(ratios)))
    print()
    for variant, players, ratio, low, high in summary:
        verdict = "met" if ratio >= TARGET else "NOT met"
        print(
            f"{variant:<6} {players} players: ours/pokerkit = {ratio:.1f}x [{low:.1f}-{high:.1f}]"
            f" (target >= {TARGET:g}x: {verdict})"
        )
    if not summary:
        print("this OpenSpiel has no python_pokerkit_wrapper game: studpoker timed alone")
    print()
    print(
        f"{'PettingZoo env':<16} {'players':>7} {'hands':>8} {'steps/s: min':>13} {'median':>8} {'max':>8}"
        f" {'hands/s':>8}"
    )
    for variant in ("stud7", "razz"):
        for players in PLAYERS:
            game = pettingzoo_env(variant, players)
            game.reset(seed=args.seed)
            rng = random.Random(args.seed)
            rates, hands, seconds = [], 0, 0.0
            for _ in range(args.rounds):
                h, d, elapsed = pettingzoo_block(game, rng, args.seconds / 2)
                rates.append(d / elapsed)
                hands, seconds = hands + h, seconds + elapsed
            print(
                f"{variant:<16} {players:>7} {hands:>8,} {min(rates):>13,.0f} {statistics.median(rates):>8,.0f}"
                f" {max(rates):>8,.0f} {hands / seconds:>8,.0f}",
                flush=True,
            )


def _version(name: str) -> str:
    from importlib import metadata

    try:
        return metadata.version(name.replace("_", "-"))
    except metadata.PackageNotFoundError:
        return "not installed"


if __name__ == "__main__":
    main()
