"""The OpenSpiel games: OpenSpiel's own random-simulation test (with serialization) for every game and several
table sizes, its RL environment, an MCCFR solver, clones, parameters, and what the tensors and strings hold."""

from __future__ import annotations

import math
import pickle
import random

import numpy as np
import pytest

pytest.importorskip("pyspiel")

import pyspiel
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import outcome_sampling_mccfr, random_agent

from studpoker.engine import Variant
from studpoker.rl import NUM_ACTIONS
from studpoker.rl.openspiel import GAME_NAME, VARIANT_GAMES, StudGame, StudState

SIZES = [(v, n) for v in Variant for n in (2, 5, v.max_seats)]


@pytest.mark.parametrize(("variant", "players"), SIZES)
def test_openspiel_random_simulations(variant: Variant, players: int) -> None:
    game = pyspiel.load_game(VARIANT_GAMES[variant], {"players": players})
    pyspiel.random_sim_test(game, num_sims=8, serialize=True, verbose=False)


def test_the_generic_game_takes_the_variant_and_the_rules() -> None:
    params = {"variant": "stud5", "players": 4, "preset": "tournament", "stack": 500, "rules": "raise_cap=2"}
    game = pyspiel.load_game(GAME_NAME, params)
    assert isinstance(game, StudGame)
    rules = game.rules
    assert (rules.variant, rules.raise_cap, rules.preset, game.config.stacks) == (
        Variant.STUD5,
        2,
        "tournament",
        (500,) * 4,
    )
    assert game.num_distinct_actions() == NUM_ACTIONS and game.max_chance_outcomes() == 52
    assert game.min_utility() == -25.0 and game.max_utility() == 75.0
    assert {VARIANT_GAMES[v] for v in Variant} | {GAME_NAME} <= set(pyspiel.registered_names())
    with pytest.raises(ValueError, match="unknown game"):
        pyspiel.load_game(GAME_NAME, {"variant": "holdem"})


@pytest.mark.parametrize("name", ["7stud", "STUD7", "stud7", "F7S", "Seven-card stud"])
def test_the_variant_parameter_takes_any_name_of_the_game(name: str) -> None:
    game = pyspiel.load_game(GAME_NAME, {"variant": name})
    assert isinstance(game, StudGame) and game.rules.variant is Variant.STUD7


def test_rl_environment_episodes_are_zero_sum() -> None:
    game = pyspiel.load_game(VARIANT_GAMES[Variant.STUD7_HL8], {"players": 3})
    env = rl_environment.Environment(game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=3))
    agents = [random_agent.RandomAgent(player_id=p, num_actions=NUM_ACTIONS) for p in range(3)]
    np.random.seed(3)
    size = game.information_state_tensor_size()
    for _ in range(30):
        time_step = env.reset()
        while not time_step.last():
            player = time_step.observations["current_player"]
            assert len(time_step.observations["info_state"][player]) == size
            time_step = env.step([agents[player].step(time_step).action])
        assert math.isclose(sum(time_step.rewards), 0.0, abs_tol=1e-9)


def test_outcome_sampling_mccfr_runs_on_razz() -> None:
    game = pyspiel.load_game(VARIANT_GAMES[Variant.RAZZ], {"players": 2, "stack": 60})
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    np.random.seed(0)
    for _ in range(40):
        solver.iteration()
    policy = solver.average_policy()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    probs = policy.action_probabilities(state)
    assert set(probs) == set(state.legal_actions()) and math.isclose(sum(probs.values()), 1.0)


def test_clones_are_independent_and_pickles_replay() -> None:
    game = pyspiel.load_game(VARIANT_GAMES[Variant.STUD7], {"players": 4})
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(30):
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(rng.choice(actions))
    clone = state.clone()
    assert str(clone) == str(state) and clone.history() == state.history()
    while not clone.is_terminal():
        actions = [a for a, _ in clone.chance_outcomes()] if clone.is_chance_node() else clone.legal_actions()
        clone.apply_action(rng.choice(actions))
    assert len(state.history()) == 30 and not state.is_terminal()
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, clone))[1]
    assert str(again) == str(clone) and again.returns() == clone.returns()
    assert isinstance(pickle.loads(pickle.dumps(clone)), StudState)


def test_chance_deals_each_card_once_and_illegal_moves_raise() -> None:
    game = pyspiel.load_game(VARIANT_GAMES[Variant.RAZZ], {"players": 2})
    state = game.new_initial_state()
    state.apply_action(12)
    outcomes = state.chance_outcomes()
    assert 12 not in [a for a, _ in outcomes] and math.isclose(sum(p for _, p in outcomes), 1.0)
    with pytest.raises(ValueError):
        state.apply_action(12)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.action_to_string(state.current_player(), 2) == "bring-in"
    illegal = next(a for a in range(NUM_ACTIONS) if a not in state.legal_actions())
    with pytest.raises(ValueError, match="not legal now"):
        state.apply_action(illegal)


def test_information_states_are_per_player_and_perfect_recall() -> None:
    game = pyspiel.load_game(VARIANT_GAMES[Variant.STUD7], {"players": 3})
    state = game.new_initial_state()
    rng = random.Random(8)
    seen: dict[str, str] = {}
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        player = state.current_player()
        strings = [state.information_state_string(p) for p in range(3)]
        assert len(set(strings)) == 3 and strings[player].startswith(f"p{player} ")
        tensor = state.information_state_tensor(player)
        key = str(tensor)
        assert seen.setdefault(key, strings[player]) == strings[player]  # one tensor, one information state
        assert len(state.observation_tensor(player)) == game.observation_tensor_size()
        # the Python shortcuts and OpenSpiel's C++ path (what its C++ algorithms call) give the same answers
        assert pyspiel.State.observation_tensor(state, player) == state.observation_tensor(player)
        assert pyspiel.State.information_state_tensor(state, player) == tensor
        assert pyspiel.State.information_state_string(state, player) == strings[player]
        assert pyspiel.State.observation_string(state, player) == state.observation_string(player)
        state.apply_action(rng.choice(state.legal_actions()))
    shape = game.observation_tensor_shape()
    assert shape == [game.observation_tensor_size()]
