"""No observation tells a seat a card it may not see: many random hands of every game, every observation of
every seat (PettingZoo) and every tensor and string of every player (OpenSpiel), decoded and compared with the
full hand state."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("pyspiel")

import pyspiel

from studpoker.cards import CARDS
from studpoker.engine import HandState, Variant
from studpoker.rl import Layout, raw_env
from studpoker.rl.openspiel import VARIANT_GAMES, StudState

GAMES = [v.value.lower() for v in Variant]


def hidden_from(hand: HandState, seat: int) -> set[int]:
    """Every down card of another player that has not been shown (a spectator's view shows what was)."""
    public = hand.view(None)
    hidden: set[int] = set()
    for p in range(hand.n):
        if p == seat:
            continue
        for real, seen in zip(hand.down_cards(p), public.players[p].down, strict=True):
            if real is not None and seen is None:
                hidden.add(real.index)
    return hidden


def check(layout: Layout, obs: np.ndarray, hand: HandState, seat: int) -> None:
    cards = layout.decode_cards(obs)
    assert not cards & hidden_from(hand, seat)
    # and each card is where it belongs: own down cards at relative seat 0, others' up cards at theirs
    for r, (up, down) in layout.cards_by_seat(obs).items():
        p = (seat + r) % hand.n
        assert up == {c.index for c in hand.up_cards(p) if c is not None}
        shown = hand.view(None).players[p].down
        expected = hand.down_cards(p) if p == seat else shown
        assert down == {c.index for c in expected if c is not None}


@pytest.mark.parametrize("variant", GAMES)
def test_pettingzoo_observations_hold_no_hidden_card(variant: str) -> None:
    rng = random.Random(variant)
    for episode in range(40):
        players = 2 + episode % (9 if variant == "stud5" else 7)
        game = raw_env(variant, players, stack=rng.choice([20, 200]))
        game.reset(seed=episode)
        for _ in game.agent_iter():
            hand = game.hand
            assert hand is not None
            for seat, other in enumerate(game.possible_agents):
                if other in game.agents:
                    check(game.layout, game.observe(other)["observation"], hand, seat)
            obs, _, terminated, truncated, _ = game.last()
            game.step(None if terminated or truncated else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))


@pytest.mark.parametrize("variant", list(Variant))
def test_openspiel_tensors_and_strings_hold_no_hidden_card(variant: Variant) -> None:
    rng = random.Random(variant.value)
    for episode in range(16):
        players = 2 + episode % 7
        game = pyspiel.load_game(VARIANT_GAMES[variant], {"players": players})
        layout = game.layout
        state = game.new_initial_state()
        while True:
            if not state.is_chance_node():  # a decision, or the end: what each player is told
                assert isinstance(state, StudState)
                hand = state.hand
                for p in range(players):
                    check(layout, np.array(state.observation_tensor(p)), hand, p)
                    check(layout, np.array(state.information_state_tensor(p)), hand, p)
                    texts = state.observation_string(p) + state.information_state_string(p)
                    assert not [c for c in hidden_from(hand, p) if str(CARDS[c]) in texts]
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            else:
                state.apply_action(rng.choice(state.legal_actions()))


def test_importing_studpoker_loads_no_rl_library() -> None:
    code = (
        "import sys, studpoker, studpoker.engine, studpoker.bots, studpoker.table\n"
        "bad = [m for m in ('studpoker.rl', 'pettingzoo', 'pyspiel', 'gymnasium') if m in sys.modules]\n"
        "assert not bad, bad\n"
        "import studpoker.rl.openspiel\n"
        "assert 'pettingzoo' not in sys.modules\n"
        "print('ok')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.stdout == "ok\n", result.stderr
