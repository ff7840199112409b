"""The PettingZoo environment: PettingZoo's own API and seed tests for every game and several table sizes, the
action mask against the engine's legal actions, zero-sum rewards, rendering, options and errors."""

from __future__ import annotations

import math
import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from studpoker.engine import Variant
from studpoker.rl import NUM_ACTIONS, RAISE_BIG, StudEnv, env, make_config, raw_env
from studpoker.rl.encoding import action_slots

GAMES = [v.value.lower() for v in Variant]
SIZES = [(game, n) for game in GAMES for n in (2, 3, 6, 10 if game == "stud5" else 8)]


@pytest.mark.parametrize("name", ["7stud", "7stud8", "STUD7_HL8", "stud7", "FR", "Five-card stud", Variant.RAZZ])
def test_any_name_of_the_game(name: str | Variant) -> None:
    """``env(variant=...)`` takes every spelling Variant.parse does (``7stud`` failed before: issue 27)."""
    game = env(variant=name, players=3)
    game.reset(seed=1)
    assert game.unwrapped.config.rules.variant is Variant.parse(name)


@pytest.mark.parametrize(("variant", "players"), SIZES)
def test_pettingzoo_api_and_seed_tests(variant: str, players: int) -> None:
    with warnings.catch_warnings():
        # the tests warn that a dict observation is not one of their own games' arrays: the API's action-mask form
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(variant, players), num_cycles=200)
        seed_test(lambda: env(variant, players), num_cycles=200)


def play(game: StudEnv, rng: random.Random) -> list[tuple[list[int], object]]:
    """One hand with uniformly random legal actions; every decision's mask and legal set."""
    seen: list[tuple[list[int], object]] = []
    for agent in game.agent_iter():
        obs, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        assert game.hand is not None
        mask = obs["action_mask"]
        seen.append((mask.tolist(), game.hand.legal_actions()))
        for other in game.possible_agents:  # nobody else may act
            if other != agent:
                assert not game.observe(other)["action_mask"].any()
        game.step(rng.choice(np.flatnonzero(mask).tolist()))
    return seen


@pytest.mark.parametrize("variant", GAMES)
def test_the_mask_is_exactly_the_legal_actions_and_rewards_sum_to_zero(variant: str) -> None:
    rng = random.Random(5)
    big_used = False
    for hand_number in range(150):
        players = 2 + hand_number % 6
        game = raw_env(variant, players, stack=rng.choice([30, 200, 1000]))
        game.reset(seed=hand_number)
        for mask, legal in play(game, rng):
            slots = action_slots(legal)  # type: ignore[arg-type]
            masked = [slots[i] for i in range(NUM_ACTIONS) if mask[i]]
            assert all(a is not None for a in masked)  # every masked action is legal
            assert sorted(map(str, masked)) == sorted(map(str, legal))  # every legal action is in the mask
            big_used |= bool(mask[RAISE_BIG])
        assert game.hand is not None and game.hand.is_over and not game.agents
        chips = [game.hand.stacks[p] - game.config.stacks[p] for p in range(players)]
        assert sum(chips) == 0
    if variant in ("stud7", "stud5"):
        assert big_used  # the open-pair double bet came up and was offered as action 4


def test_rewards_are_chips_in_big_bets_and_sum_to_zero() -> None:
    game = raw_env("stud7_hl8", 4, big_bet=40, small_bet=20, bring_in=5, ante=2)
    rng = random.Random(1)
    for seed in range(30):
        game.reset(seed=seed)
        rewards = {}
        for agent in game.agent_iter():
            obs, reward, terminated, _, info = game.last()
            if terminated:
                rewards[agent] = reward
                assert reward == info["chips"] / 40
                game.step(None)
            else:
                game.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        assert len(rewards) == 4 and math.isclose(math.fsum(rewards.values()), 0.0, abs_tol=1e-9)


def test_same_seed_same_hands_and_reset_continues_the_sequence() -> None:
    def hands(seed: int) -> list[str]:
        game = raw_env("razz", 3)
        game.reset(seed=seed)
        out = []
        for _ in range(3):
            assert game.hand is not None
            out.append(str([game.hand.down_cards(p) + game.hand.up_cards(p) for p in range(3)]))
            game.reset()
        return out

    first = hands(11)
    assert first == hands(11) and first != hands(12) and len(set(first)) == 3


def test_illegal_and_out_of_turn_actions_raise() -> None:
    game = raw_env("razz", 2)
    game.reset(seed=3)
    obs = game.observe(game.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal now; legal:"):
        game.step(illegal)
    with pytest.raises(ValueError, match="outside"):
        game.step(7)
    with pytest.raises(ValueError, match="None is only for a terminated agent"):
        game.step(None)
    with pytest.raises(RuntimeError, match="reset"):
        raw_env("razz", 2).observe("player_0")


def test_options_reach_the_rules_and_stacks() -> None:
    game = raw_env("stud7", 3, preset="tournament", stacks=[100, 200, 300], raise_cap=5)
    assert game.rules.raise_cap == 5 and game.rules.preset == "tournament"
    game.reset(seed=1, options={"stacks": [50, 60, 70]})
    assert game.hand is not None and game.hand.starting_stacks == (50, 60, 70)
    game.reset(seed=1)
    assert game.hand.starting_stacks == (100, 200, 300)
    with pytest.raises(ValueError, match="more chips than"):
        game.reset(options={"stacks": [300, 300, 300]})
    with pytest.raises(ValueError, match="2 to 8 players"):
        raw_env("stud7", 9)
    assert make_config("stud5", 10).players == 10
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("razz", 2, render_mode="rgb_array")


def test_a_hand_nobody_can_decide_is_over_at_reset() -> None:
    game = raw_env("razz", 2, stack=1)  # each player is all-in for the ante
    game.reset(seed=2)
    assert all(game.terminations.values())
    assert math.isclose(sum(game._cumulative_rewards.values()), 0.0, abs_tol=1e-12)
    for _ in game.agent_iter():
        game.step(None)
    assert game.agents == []


def test_render_ansi_and_human(capsys: pytest.CaptureFixture[str]) -> None:
    game = raw_env("stud7", 3, render_mode="ansi")
    game.reset(seed=4)
    text = game.render()
    assert text is not None and text.startswith("Seven-card stud, 3rd street") and "legal: " in text
    assert text.count("??") == 6  # a spectator's view: two down cards a seat, none shown
    human = raw_env("razz", 2, render_mode="human")
    human.reset(seed=4)
    assert human.render() is None
    assert "Razz, 3rd street" in capsys.readouterr().out
