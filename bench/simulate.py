"""Hand-simulation speed: studpoker's rules engine against PokerKit, in one process; and ``stud simulate`` on one
process, two processes and a two-node Ray cluster (``--part parallel``).

    python bench/simulate.py                   # about a minute: 14 s for each engine and policy
    python bench/simulate.py --seconds 5
    python bench/simulate.py --hands 2000      # a fixed number of hands for each engine and policy
    python bench/simulate.py --part parallel   # about 4 minutes: 100,000 bot hands three ways (see parallel_part)

What is measured: complete hands of 8-handed fixed-limit seven-card stud (ante 1,
bring-in 3, 10/20), every player starting with 1,000 chips, played one after the
other in a single thread. One timed hand is everything from creating the hand to the
last chip awarded:

* studpoker: ``HandState(rules, stacks, seed=i)`` shuffles a deck with seed ``i``
  (the hand's number), posts the antes and deals; then the policy takes every
  decision (``legal_actions()``, then ``apply()``) until the hand is over. The engine
  deals every street, returns uncalled chips, shows down (``auto_show``) and awards
  the pots by itself. The short-deck procedure of R8 applies when all eight players
  reach 7th street (a community card).
* PokerKit: ``FixedLimitSevenCardStud.create_state`` with every automation on (antes,
  bet collection, burning, hole and board dealing, runout count, showing or mucking,
  hand killing, chips pushing and pulling) and PokerKit's own shuffled deck (the
  ``random`` module, seeded once per run); the policy takes every decision, reading
  the legal options from ``can_fold``, ``can_check_or_call``, ``can_post_bring_in`` and
  ``can_complete_bet_or_raise_to`` with the min/max completion amounts. PokerKit deals
  a board card instead of a 7th-street card when its deck runs short.

The two policies, the same for both engines:

* random: a uniform choice from the engine's own list of legal actions. For PokerKit
  that list is: fold if ``can_fold()``, check-or-call if ``can_check_or_call()``,
  bring-in if ``can_post_bring_in()``, and complete/bet/raise to the minimum amount
  and (if different) to the maximum amount if ``can_complete_bet_or_raise_to()``.
* always-call: check when possible, otherwise call; the bring-in player posts the
  bring-in. Every hand goes to a showdown with all eight players.

Both engines play by the same rules where they can: three raises after the opening
bet or completion, also heads-up; no open-pair double bet; no fold when a check is
available (PokerKit in its default tournament mode). Not timed: imports, and a few
warm-up hands per engine before each run (studpoker builds its evaluation tables on
first use). The clock is ``time.perf_counter``; a run stops after ``--hands`` hands or,
by default, at the first hand that ends after ``--seconds`` seconds. Each hand's chips
are checked for conservation (a negligible cost for both engines).

The engines alternate: each one's time (or hands) is cut into ``--rounds`` blocks (default 7),
studpoker and PokerKit taking turns block by block (the order swapped every other round), so a
burst of load on the machine lands on both. Each block gives a rate; the table prints the
min/median/max of hands/s, and the ratio is the median of the per-round ratios (range in brackets).

Targets (from the issue): at least 20x PokerKit's hands/s on both policies; the issue
quotes about 575 random-action and 110 always-call hands/s for PokerKit on this machine.
The ratio is taken against PokerKit as measured in the same run.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studpoker.engine import Action, ActionKind, HandState, HeadsUpUncap, Rules, Variant
from studpoker.engine import state as engine_state

PLAYERS = 8
STACK = 1_000
ANTE, BRING_IN, SMALL_BET, BIG_BET = 1, 3, 10, 20
TARGET_RATIO = 20.0
ISSUE_POKERKIT_RATES = {"random": 575.0, "always-call": 110.0}
POLICIES = ("random", "always-call")
WARM_UP_HANDS = 20

RULES = Rules(
    Variant.STUD7,
    ante=ANTE,
    bring_in=BRING_IN,
    small_bet=SMALL_BET,
    big_bet=BIG_BET,
    raise_cap=3,
    headsup_uncap=HeadsUpUncap.NEVER,
    open_pair_double_bet=False,
    allow_fold_when_check_available=False,
)
STACKS = [STACK] * PLAYERS
CHIPS = STACK * PLAYERS

# A hand player: (hand number, policy randomness) -> decisions taken in the hand.
HandPlayer = Callable[[int, random.Random], int]


# -- studpoker ------------------------------------------------------------------------------------


def ours_random(hand: int, rng: random.Random) -> int:
    state = HandState(RULES, STACKS, seed=hand)
    decisions = 0
    while state.actor is not None:
        state.apply(rng.choice(state.legal_actions()))
        decisions += 1
    assert state.is_over and sum(state.stacks) == CHIPS
    return decisions


_PASSIVE = (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN)


def _passive(legal: tuple[Action, ...]) -> Action:
    for action in legal:
        if action.kind in _PASSIVE:
            return action
    raise AssertionError(f"nothing to check, call or bring in: {legal}")


def ours_always_call(hand: int, rng: random.Random) -> int:
    state = HandState(RULES, STACKS, seed=hand)
    decisions = 0
    while state.actor is not None:
        state.apply(_passive(state.legal_actions()))
        decisions += 1
    assert state.is_over and sum(state.stacks) == CHIPS
    return decisions


# -- PokerKit -------------------------------------------------------------------------------------


def pokerkit_players() -> dict[str, HandPlayer] | None:
    """PokerKit's hand players, or None if PokerKit is not installed."""
    try:
        import pokerkit
    except ImportError:
        return None
    automations = tuple(pokerkit.Automation)  # everything but the players' decisions
    game = pokerkit.FixedLimitSevenCardStud
    stacks = tuple(STACKS)

    def new_state() -> Any:
        return game.create_state(automations, True, ANTE, BRING_IN, SMALL_BET, BIG_BET, stacks, PLAYERS)

    def random_hand(hand: int, rng: random.Random) -> int:
        state = new_state()
        decisions = 0
        while state.status:
            legal: list[tuple[str, int]] = []
            if state.can_fold():
                legal.append(("fold", 0))
            if state.can_check_or_call():
                legal.append(("check-or-call", 0))
            if state.can_post_bring_in():
                legal.append(("bring-in", 0))
            if state.can_complete_bet_or_raise_to():
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                legal.append(("raise", low))
                if high != low:
                    legal.append(("raise", high))
            kind, amount = rng.choice(legal)
            if kind == "fold":
                state.fold()
            elif kind == "check-or-call":
                state.check_or_call()
            elif kind == "bring-in":
                state.post_bring_in()
            else:
                state.complete_bet_or_raise_to(amount)
            decisions += 1
        assert sum(state.stacks) == CHIPS
        return decisions

    def always_call_hand(hand: int, rng: random.Random) -> int:
        state = new_state()
        decisions = 0
        while state.status:
            if state.can_post_bring_in():
                state.post_bring_in()
            else:
                state.check_or_call()
            decisions += 1
        assert sum(state.stacks) == CHIPS
        return decisions

    return {"random": random_hand, "always-call": always_call_hand}


# -- timing ---------------------------------------------------------------------------------------


@dataclass
class Runner:
    """One engine playing one policy, block after block; its hand numbers and randomness carry on between blocks."""

    engine: str
    policy: str
    play: HandPlayer
    rng: random.Random
    played: int = 0
    decisions: int = 0
    seconds: float = 0.0
    rates: list[float] = field(default_factory=list)

    def warm_up(self) -> None:
        for i in range(WARM_UP_HANDS):
            self.play(-1 - i, self.rng)

    def block(self, hands: int | None, seconds: float) -> None:
        """Play ``hands`` hands, or until ``seconds`` have passed if ``hands`` is None; record the block's rate."""
        played = decisions = 0
        start = time.perf_counter()
        while True:
            decisions += self.play(self.played + played, self.rng)
            played += 1
            if hands is not None:
                if played >= hands:
                    break
            elif time.perf_counter() - start >= seconds:
                break
        elapsed = time.perf_counter() - start
        self.played += played
        self.decisions += decisions
        self.seconds += elapsed
        self.rates.append(played / elapsed)


def run_policy(players: list[tuple[str, HandPlayer]], policy: str, args: argparse.Namespace) -> list[Runner]:
    """The engines in alternating blocks, ``args.rounds`` rounds, the order swapped every other round."""
    random.seed(args.seed)  # PokerKit shuffles with the random module (studpoker seeds each deck itself)
    runners = [Runner(engine, policy, play, random.Random(args.seed)) for engine, play in players]
    for runner in runners:
        runner.warm_up()
    per_block_hands = None if args.hands is None else max(1, args.hands // args.rounds)
    for r in range(args.rounds):
        for runner in runners if r % 2 == 0 else runners[::-1]:
            runner.block(per_block_hands, args.seconds / args.rounds)
    return runners


# -- the parallel part: stud simulate on 1 process, 2 processes and a 2-node Ray cluster ------------------------------

TARGET_SPEED_UP = 1.8
TARGET_RAY_OVERHEAD = 0.10


def _wait_for_port(port: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.5)
    raise SystemExit(f"the Ray head did not open port {port} within {seconds:g} s")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _start_ray_cluster(port: int) -> list[subprocess.Popen[bytes]]:
    """Two Ray nodes of one CPU each on this machine: ``ray start --head`` and ``ray start --address``, each with
    ``--block`` so that it stays our child process and stops its node's processes when it is terminated."""
    ray_command = str(Path(sys.executable).with_name("ray"))
    common = ["--num-cpus", "1", "--disable-usage-stats", "--block"]
    head = subprocess.Popen(
        [ray_command, "start", "--head", "--port", str(port), "--include-dashboard=false", *common],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    nodes = [head]
    try:
        _wait_for_port(port, 90)
        nodes.append(
            subprocess.Popen(
                [ray_command, "start", "--address", f"127.0.0.1:{port}", *common],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
    except BaseException:
        _stop_ray_cluster(nodes, port)
        raise
    return nodes


def _stop_ray_cluster(nodes: list[subprocess.Popen[bytes]], port: int) -> None:
    """Terminate the ``ray start --block`` processes we started (the worker node first), by their handles, and
    remove the cluster's address file they leave behind (``ray.init()`` would try to join the dead cluster)."""
    for node in reversed(nodes):
        if node.poll() is None:
            node.terminate()
            try:
                node.wait(timeout=30)
            except subprocess.TimeoutExpired:
                node.kill()
                node.wait(timeout=10)
    current = Path(tempfile.gettempdir()) / "ray" / "ray_current_cluster"
    try:
        if current.read_text().strip().endswith(f":{port}"):
            current.unlink()
    except OSError:
        pass


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min)"


def _connect_ray(ray: Any, port: int) -> None:
    ray.init(address=f"127.0.0.1:{port}", include_dashboard=False, log_to_driver=False)
    deadline = time.monotonic() + 90
    while ray.cluster_resources().get("CPU", 0) < 2 and time.monotonic() < deadline:
        time.sleep(0.5)
    if ray.cluster_resources().get("CPU", 0) < 2:
        raise SystemExit("the second Ray node did not join within 90 s")


def parallel_part(args: argparse.Namespace) -> None:
    """``studpoker.simulate.simulate`` on the same spec three ways, each timed from the call to the result: in this
    process (``workers=1``), on a pool of 2 worker processes (``workers=2``, the pool's start included), and as Ray
    tasks on a 2-node cluster started here before the clock (two ``ray start`` processes of one CPU each; the
    driver connects before the clock too; in the first round Ray also starts its worker processes, in the timed
    run). ``--rounds`` rounds (default 3), the order reversed every other round, so a burst of other work lands on
    all three. Every result must be identical (``to_dict()``) before a ratio is printed. Per round: the speed-up
    (one process's time over two processes') and Ray's overhead (its time over the 2-process pool's, minus 1: the
    same 2 cores, the same chunks); printed: their medians over the rounds, and the first round's Ray overhead
    (cold workers) apart. The load average is printed before and after: other work on the machine skews all."""
    from studpoker.simulate import SimulationSpec, simulate

    hands = args.hands or 100_000
    rounds = max(1, args.rounds or 3)
    bots = tuple(tag.strip() for tag in args.bots.split(","))
    spec = SimulationSpec(bots=bots, variant=args.variant, hands=hands, chunk=args.chunk, seed=args.seed)
    print(
        f"stud simulate: {spec.rules().variant.title} (casino 10/20), bots {', '.join(spec.names)};"
        f" {spec.played_hands:,} hands in {spec.chunks} chunks of {spec.chunk_hands:,}, seed {args.seed};"
        f" {rounds} rounds"
    )
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {len(os.sched_getaffinity(0))} cores; {_load()}"
    )
    ray: Any = None
    os.environ.setdefault("RAY_AUTH_MODE", "token")  # Ray's token auth, for the nodes and this driver: before import
    try:
        ray = importlib.import_module("ray")
        print(f"Ray {ray.__version__}")
    except ImportError:
        print("Ray is not installed (pip install 'studpoker[ray]'): no Ray runs")
    port = args.ray_port or _free_port()
    runs: dict[str, dict[str, Any]] = {"1 process": {"workers": 1}, "2 processes": {"workers": 2}}
    if ray is not None:
        runs["Ray, 2 nodes x 1 CPU"] = {"ray": f"127.0.0.1:{port}"}
    nodes = _start_ray_cluster(port) if ray is not None else []
    times: dict[str, list[float]] = {name: [] for name in runs}
    first: dict[str, Any] | None = None
    try:
        if ray is not None:
            _connect_ray(ray, port)
        print()
        for r in range(rounds):
            for name in list(runs) if r % 2 == 0 else list(runs)[::-1]:
                start = time.perf_counter()
                result = simulate(spec, **runs[name]).to_dict()
                seconds = time.perf_counter() - start
                first = first or result
                if result != first:
                    raise SystemExit(f"the result of {name!r} differs from the first run's: no ratio printed")
                times[name].append(seconds)
                print(f"round {r + 1}  {name:<22} {seconds:>8.2f} s {hands / seconds:>10,.0f} hands/s", flush=True)
    finally:
        if ray is not None:
            ray.shutdown()
        _stop_ray_cluster(nodes, port)
    print(_load())
    print(f"every result identical ({sum(map(len, times.values()))} runs)")
    print()
    for name, spans in times.items():
        print(
            f"{name:<22} median {statistics.median(spans):>7.2f} s ({min(spans):.2f}-{max(spans):.2f}),"
            f" {hands / statistics.median(spans):>8,.0f} hands/s"
        )
    speed_ups = [a / b for a, b in zip(times["1 process"], times["2 processes"], strict=True)]
    speed_up = statistics.median(speed_ups)
    verdict = "met" if speed_up >= TARGET_SPEED_UP else "NOT met"
    print(
        f"2 processes: {speed_up:.2f}x one process, median of the rounds [{min(speed_ups):.2f}-{max(speed_ups):.2f}]"
        f" (target >= {TARGET_SPEED_UP:g}x: {verdict})"
    )
    if ray is not None:
        on_ray = times["Ray, 2 nodes x 1 CPU"]
        overheads = [a / b - 1 for a, b in zip(on_ray, times["2 processes"], strict=True)]
        overhead = statistics.median(overheads)
        verdict = "met" if overhead < TARGET_RAY_OVERHEAD else "NOT met"
        print(
            f"Ray overhead at chunks of {spec.chunk_hands:,} hands: {100 * overhead:+.1f}% against 2 processes, median"
            f" of the rounds [{100 * min(overheads):+.1f}% to {100 * max(overheads):+.1f}%]"
            f" (target < {100 * TARGET_RAY_OVERHEAD:g}%: {verdict}); first round, Ray starting its workers:"
            f" {100 * overheads[0]:+.1f}%"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--part", choices=("engine", "parallel"), default="engine", help="what to measure")
    parser.add_argument("--bots", default="tight-aggressive,calling-station,random", help="--part parallel: bot tags")
    parser.add_argument("--variant", default="7stud", help="--part parallel: the game (default 7stud)")
    parser.add_argument("--chunk", type=int, default=10_000, help="--part parallel: hands per chunk (default 10,000)")
    parser.add_argument("--ray-port", type=int, help="--part parallel: the Ray head's port (default: a free one)")
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--seconds", type=float, default=14.0, help="seconds per engine and policy (default 14)")
    limit.add_argument(
        "--hands", type=int, help="a fixed number of hands per engine and policy instead (--part parallel: 100,000)"
    )
    parser.add_argument(
        "--rounds", type=int, help="alternating blocks per engine and policy (default 7; --part parallel: 3 rounds)"
    )
    parser.add_argument("--policy", choices=POLICIES, action="append", help="run only this policy (repeatable)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the policies and of PokerKit's shuffles")
    args = parser.parse_args()
    if args.part == "parallel":
        parallel_part(args)
        return
    args.rounds = max(1, 7 if args.rounds is None else args.rounds)
    policies = args.policy or list(POLICIES)
    warnings.filterwarnings("ignore", category=UserWarning, module="pokerkit")  # its short-deck notices

    ours: dict[str, HandPlayer] = {"random": ours_random, "always-call": ours_always_call}
    theirs = pokerkit_players()
    limit_text = f"{args.hands:,} hands" if args.hands is not None else f"{args.seconds:g} s"
    print(
        f"Seven-card stud, {PLAYERS} players, ante {ANTE}, bring-in {BRING_IN}, {SMALL_BET}/{BIG_BET},"
        f" stacks {STACK:,}; {limit_text} per engine and policy, in {args.rounds} alternating blocks"
    )
    print(f"Python {platform.python_version()} on {platform.machine()} ({platform.processor() or platform.system()})")
    build = "compiled with mypyc" if not (engine_state.__file__ or "").endswith(".py") else "pure Python"
    print(f"studpoker engine: {build} ({engine_state.__file__})")
    if theirs is None:
        print("PokerKit is not installed (pip install pokerkit): timing studpoker only")
    print()
    print(
        f"{'policy':<12} {'engine':<10} {'hands':>8} {'seconds':>8}"
        f" {'hands/s: min':>13} {'median':>8} {'max':>8} {'decisions/hand':>15}"
    )
    results: dict[str, list[Runner]] = {}
    for policy in policies:
        players = [("studpoker", ours[policy])] + ([("pokerkit", theirs[policy])] if theirs else [])
        results[policy] = run_policy(players, policy, args)
        for r in results[policy]:
            print(
                f"{policy:<12} {r.engine:<10} {r.played:>8,} {r.seconds:>8.2f} {min(r.rates):>13,.0f}"
                f" {statistics.median(r.rates):>8,.0f} {max(r.rates):>8,.0f} {r.decisions / r.played:>15.1f}",
                flush=True,
            )
    if theirs is None:
        return
    print()
    for policy in policies:
        mine, pokerkit = results[policy]
        ratios = [a / b for a, b in zip(mine.rates, pokerkit.rates, strict=True)]  # block by block, same round
        ratio = statistics.median(ratios)
        quoted = ISSUE_POKERKIT_RATES[policy]
        verdict = "met" if ratio >= TARGET_RATIO else "NOT met"
        print(
            f"{policy:<12} ours/pokerkit = {ratio:5.1f}x [{min(ratios):.1f}-{max(ratios):.1f}] (median of the rounds;"
            f" target >= {TARGET_RATIO:g}x: {verdict}); against the issue's {quoted:g} hands/s for PokerKit:"
            f" {statistics.median(mine.rates) / quoted:.1f}x"
        )


if __name__ == "__main__":
    main()
