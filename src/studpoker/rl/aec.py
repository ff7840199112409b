"""Stud as a PettingZoo AEC environment: one hand of fixed-limit stud per episode, rewards in big bets.

>>> from studpoker.rl import env
>>> game = env(variant="razz", players=3)
>>> game.reset(seed=7)
>>> game.agent_selection, game.observation_space("player_0")["observation"].shape
('player_0', (1239,))
>>> for agent in game.agent_iter():
...     observation, reward, termination, truncation, info = game.last()
...     if termination or truncation:
...         action = None
...     else:                                   # a seat that always takes the first legal action
...         action = int(observation["action_mask"].argmax())
...     game.step(action)
>>> game.unwrapped.hand.is_over, game.agents
(True, [])

Agents are ``player_0`` .. ``player_{n-1}``, the engine's positions (``player_0`` sits at the dealer's left).
The agent to act is :attr:`agent_selection`; every other agent's mask is all zeros. When the hand ends every agent
is terminated with its reward, the chips it won or lost divided by the big bet (they sum to zero), and steps once
more with ``None``, as the AEC API wants. A new :meth:`reset` deals the next hand from the same starting stacks.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from ..engine import Action, HandState, Variant
from .config import TableConfig, make_config
from .encoding import ACTION_NAMES, NUM_ACTIONS, Layout, action_mask, action_slots
from .text import table_text

__all__ = ["StudEnv", "env", "raw_env"]

Observation = dict[str, npt.NDArray[Any]]
RENDER_MODES = ("ansi", "human")


def env(variant: Variant | str = "razz", players: int = 2, *, render_mode: str | None = None, **options: Any) -> Any:
    """The environment inside PettingZoo's usual wrappers (actions checked against the space, calls in order).

    ``options``: those of :func:`~studpoker.rl.config.make_config` (``preset``, the stakes ``ante``,
    ``bring_in``, ``small_bet``, ``big_bet``, ``stack`` or ``stacks``, any rule option such as ``raise_cap``, or
    ``rules=``). ``render_mode``: ``"ansi"`` (``render()`` returns the table as text) or ``"human"`` (prints it
    after every step)."""
    game = raw_env(variant, players, render_mode=render_mode, **options)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(game))


def raw_env(
    variant: Variant | str = "razz", players: int = 2, *, render_mode: str | None = None, **options: Any
) -> StudEnv:
    """The environment without wrappers (see :func:`env`)."""
    return StudEnv(make_config(variant, players, **options), render_mode=render_mode)


class StudEnv(AECEnv):  # type: ignore[misc]
    """One hand of stud for ``config.players`` agents. Observations come from each seat's view only."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "studpoker_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(self, config: TableConfig, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None, got {render_mode!r}")
        self.config = config
        self.rules = config.rules
        self.render_mode = render_mode
        n = config.players
        self.possible_agents: list[str] = [f"player_{i}" for i in range(n)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        self.layout = Layout(config.rules, n, chips=config.chips)
        low = np.zeros(self.layout.size, dtype=np.float32)
        self.observation_spaces: dict[str, spaces.Dict] = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low, self.layout.high, dtype=np.float32),
                    "action_mask": spaces.MultiBinary(NUM_ACTIONS),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces: dict[str, spaces.Discrete] = {
            agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents
        }
        self._random = random.Random()
        self._stacks = config.stacks
        #: The hand being played (its full state: for tests and tools, never for the agents).
        self.hand: HandState | None = None
        self._no_moves = np.zeros(NUM_ACTIONS, dtype=np.int8)

    # -- the PettingZoo API ----------------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand. ``seed`` makes this and the following hands reproducible; ``options={"stacks": [...]}``
        plays this hand from other stacks, with no more chips in all than the environment was made with (the
        observation space's bounds); other keys are ignored."""
        if seed is not None:
            self._random.seed(seed)
        stacks = self._stacks
        if options and options.get("stacks") is not None:
            stacks = tuple(int(s) for s in options["stacks"])
            if len(stacks) != self.config.players:
                raise ValueError(f"stacks has {len(stacks)} entries for {self.config.players} players")
            if sum(stacks) > self.config.chips:  # the observation space's bounds are the table's chips
                raise ValueError(f"stacks {stacks} hold more chips than the {self.config.chips} this env was made for")
        self._start = stacks
        self.hand = HandState(self.rules, stacks, seed=self._random.getrandbits(64))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        if self.hand.is_over:  # stacks so short that the antes put everyone all-in: nobody decides
            self.agent_selection = self.agents[0]
            self._finish()
        else:
            assert self.hand.actor is not None
            self.agent_selection = self.agents[self.hand.actor]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> Observation:
        """``{"observation": float32 array (docs/rl.md), "action_mask": int8 array}`` for ``agent``'s seat."""
        hand = self._hand()
        seat = self._seat[agent]
        view = hand.view(seat)
        mask = action_mask(view.legal_actions) if view.actor == seat else self._no_moves.copy()
        return {"observation": self.layout.encode(view), "action_mask": mask}

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Play ``action`` (an index of :data:`~studpoker.rl.encoding.ACTION_NAMES`) for :attr:`agent_selection`;
        an action the mask forbids raises ``ValueError``. Terminated agents step with ``None``."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        hand = self._hand()
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for a terminated agent")
        chosen = self.engine_action(int(action))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        hand.apply(chosen)
        if hand.is_over:
            self._finish()
        else:
            assert hand.actor is not None
            self.agent_selection = self.agents[hand.actor]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text, as a spectator sees it (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (use 'ansi' or 'human')")
            return None
        text = table_text(self._hand().view(None), self.possible_agents)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    # -- helpers ---------------------------------------------------------------------------------------------

    def engine_action(self, index: int) -> Action:
        """The engine's action for discrete action ``index`` now; ``ValueError`` when the mask forbids it."""
        hand = self._hand()
        if not 0 <= index < NUM_ACTIONS:
            raise ValueError(f"action {index} is outside 0..{NUM_ACTIONS - 1}")
        chosen = action_slots(hand.legal_actions())[index]
        if chosen is None:
            legal = ", ".join(str(a) for a in hand.legal_actions())
            raise ValueError(f"action {index} ({ACTION_NAMES[index]}) is not legal now; legal: {legal}")
        return chosen

    def _hand(self) -> HandState:
        if self.hand is None:
            raise RuntimeError("call reset() before using the environment")
        return self.hand

    def _finish(self) -> None:
        """The hand is over: every agent's reward (chips won or lost, in big bets) and termination."""
        hand = self._hand()
        big = self.rules.big_bet
        for p, agent in enumerate(self.agents):
            chips = hand.stacks[p] - self._start[p]
            self.rewards[agent] = chips / big
            self.terminations[agent] = True
            self.infos[agent] = {"chips": chips}
        self._accumulate_rewards()
        self._deads_step_first()
