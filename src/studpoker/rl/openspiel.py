"""Stud as OpenSpiel games: registered Python games with explicit chance nodes for every card dealt.

Importing this module registers ``python_studpoker`` (parameter ``variant``: any name of a game, e.g. 7stud, razz)
and one game per variant, ``python_studpoker_stud7``, ``python_studpoker_stud7_hl8``, ``python_studpoker_stud5``
and ``python_studpoker_razz``, with the same parameters:

>>> import pyspiel
>>> import studpoker.rl.openspiel
>>> game = pyspiel.load_game("python_studpoker_razz", {"players": 3})
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(3, 5, 52)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())     # the first card, face down, to player 0
(True, 52)

One hand is one game. Chance deals each card (OpenSpiel's chance action = the card index, ``4 * rank + suit``),
uniformly from the cards no player has been dealt. Burn cards are never drawn: nobody sees one, so a burned card
and one left in the stub are alike to every player (the engine still counts the burns for the short-deck rules of
SPEC R8). Players' actions are the five discrete actions of :mod:`~studpoker.rl.encoding`; returns are the
chips won or lost in big bets. Observation and information-state strings and tensors are built from the seat's
:meth:`~studpoker.engine.HandState.view`; the information state adds the hand's action history (perfect recall).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, cast

import numpy as np
import numpy.typing as npt
import pyspiel  # type: ignore[import-not-found]

from ..cards import CARDS
from ..engine import Action, HandState, Phase, Variant, View
from ..engine.events import (
    ActionTaken,
    Burned,
    CardDealt,
    CommunityCard,
    Event,
    Reshuffled,
    Shown,
    StreetStarted,
)
from .config import TableConfig, make_config, parse_overrides, variant_of
from .encoding import ACTION_NAMES, NUM_ACTIONS, SEAT_FEATURES, Layout, action_slots, card_text, decision_bound
from .text import table_text

__all__ = ["DEFAULT_PARAMS", "GAME_NAME", "VARIANT_GAMES", "StudGame", "StudObserver", "StudState", "event_text"]

GAME_NAME = "python_studpoker"
#: The per-variant game names.
VARIANT_GAMES = {v: f"{GAME_NAME}_{v.value.lower()}" for v in Variant}
#: The parameters and their defaults: stakes of the casino preset, ``stack`` 0 = the rules' minimum buy-in (10
#: big bets), ``rules`` = more options as text (``"raise_cap=4 headsup_uncap=NEVER"``).
DEFAULT_PARAMS: dict[str, Any] = {
    "variant": "razz",
    "players": 2,
    "preset": "casino",
    "ante": 1,
    "bring_in": 3,
    "small_bet": 10,
    "big_bet": 20,
    "stack": 0,
    "rules": "",
}

_CHANCE, _TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)
_DEAL, _OVER = Phase.DEAL, Phase.OVER
_KIND_LETTERS = {"fold": "f", "check": "k", "call": "c", "bring-in": "b", "complete": "C", "bet": "B", "raise": "R"}


def _game_type(name: str, variant: Variant | None) -> Any:
    """The OpenSpiel description of one registered name (``variant`` None: the game with a variant parameter)."""
    players = variant.max_seats if variant is not None else 10
    title = variant.title if variant is not None else "stud (all four games)"
    params = dict(DEFAULT_PARAMS)
    if variant is not None:
        params["variant"] = variant.value.lower()
    return pyspiel.GameType(
        short_name=name,
        long_name=f"studpoker {title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=params,
    )


def config_from_params(params: dict[str, Any]) -> TableConfig:
    """The table the game parameters describe (see :data:`DEFAULT_PARAMS`)."""
    stack = int(params["stack"])
    options: dict[str, Any] = {name: int(params[name]) for name in ("ante", "bring_in", "small_bet", "big_bet")}
    options.update(parse_overrides(str(params["rules"])))
    return make_config(
        variant_of(params["variant"]),
        int(params["players"]),
        preset=str(params["preset"]),
        stack=stack if stack > 0 else None,
        **options,
    )


class StudGame(pyspiel.Game):  # type: ignore[misc]
    """One hand of fixed-limit stud for OpenSpiel (``python_studpoker``; subclasses fix the variant)."""

    game_type: ClassVar[Any] = _game_type(GAME_NAME, None)

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**self.game_type.parameter_specification, **(params or {})}
        self.config = config = config_from_params(merged)
        self.rules = config.rules
        n, big = config.players, config.rules.big_bet
        self.layout = layout_for(config)
        self.decisions = self.layout.decisions
        cards = min(52, n * config.rules.variant.cards + 1)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=52,
            num_players=n,
            min_utility=-max(config.stacks) / big,
            max_utility=(config.chips - min(config.stacks)) / big,
            utility_sum=0.0,
            max_game_length=self.decisions + cards,
        )
        super().__init__(self.game_type, info, merged)

    def new_initial_state(self) -> StudState:
        return StudState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> StudObserver:
        """The observer OpenSpiel asks for its tensors and strings (perfect recall: the information state)."""
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        return StudObserver(self.layout, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))

    # OpenSpiel works a Python game's tensor sizes out by observing a new state each time it is asked (once per
    # tensor from C++): Python callers get them here at once.

    def observation_tensor_size(self) -> int:
        return self.layout.size

    def observation_tensor_shape(self) -> list[int]:
        return [self.layout.size]

    def information_state_tensor_size(self) -> int:
        return self.layout.history_size

    def information_state_tensor_shape(self) -> list[int]:
        return [self.layout.history_size]


class Stud7Game(StudGame):
    """Seven-card stud (``python_studpoker_stud7``)."""

    game_type = _game_type(VARIANT_GAMES[Variant.STUD7], Variant.STUD7)


class Stud7HiLoGame(StudGame):
    """Seven-card stud hi/lo eight-or-better (``python_studpoker_stud7_hl8``)."""

    game_type = _game_type(VARIANT_GAMES[Variant.STUD7_HL8], Variant.STUD7_HL8)


class Stud5Game(StudGame):
    """Five-card stud (``python_studpoker_stud5``), up to 10 players."""

    game_type = _game_type(VARIANT_GAMES[Variant.STUD5], Variant.STUD5)


class RazzGame(StudGame):
    """Razz (``python_studpoker_razz``)."""

    game_type = _game_type(VARIANT_GAMES[Variant.RAZZ], Variant.RAZZ)


class _Deal:
    """The engine's hand with the cards still undealt, the OpenSpiel actions so far and the decision's discrete
    actions (worked out once a decision). OpenSpiel clones a state with ``copy.deepcopy`` (here:
    ``HandState.copy``) and serializes it with pickle (here: a replay of the actions)."""

    __slots__ = ("config", "hand", "legal", "moves", "slots", "undealt")

    def __init__(self, config: TableConfig, hand: HandState, undealt: list[int], moves: list[int]) -> None:
        self.config = config
        self.hand = hand
        self.undealt = undealt
        self.moves = moves
        self.slots: list[Action | None] | None = None  # this decision's engine action by discrete action
        self.legal: list[int] = []  # and the discrete actions legal in it

    @staticmethod
    def new(config: TableConfig) -> _Deal:
        return _Deal(config, HandState(config.rules, config.stacks, manual=True), list(range(52)), [])

    def __deepcopy__(self, memo: dict[int, Any]) -> _Deal:
        return _Deal(self.config, self.hand.copy(), self.undealt[:], self.moves[:])

    def __reduce__(self) -> tuple[Any, ...]:
        return (_replay, (self.config, tuple(self.moves)))

    def decision(self) -> tuple[list[Action | None], list[int]]:
        """The engine's action for each discrete action now, and the legal discrete actions."""
        slots = self.slots
        if slots is None:
            slots = self.slots = action_slots(self.hand.legal_actions())
            self.legal = [i for i, a in enumerate(slots) if a is not None]
        return slots, self.legal

    def play(self, move: int) -> None:
        """A card (in the deal phase) or a discrete action."""
        hand = self.hand
        if hand.phase is _DEAL:
            self.undealt.remove(move)  # ValueError for a card already dealt
            hand.deal(CARDS[move])
        else:
            chosen = self.decision()[0][move] if 0 <= move < NUM_ACTIONS else None
            if chosen is None:
                raise ValueError(f"action {move} is not legal now; legal: {_legal(hand.legal_actions())}")
            hand.apply(chosen)
            self.slots = None
        self.moves.append(move)


def _replay(config: TableConfig, moves: Sequence[int]) -> _Deal:
    deal = _Deal.new(config)
    for move in moves:
        deal.play(move)
    return deal


def _legal(legal: Sequence[Action]) -> str:
    return ", ".join(str(a) for a in legal) or "none"


class StudState(pyspiel.State):  # type: ignore[misc]
    """A hand in progress. :attr:`hand` is the engine's full state (for tools and tests, not for players)."""

    def __init__(self, game: StudGame) -> None:
        super().__init__(game)
        self._deal = _Deal.new(game.config)
        self._big = game.config.rules.big_bet

    @property
    def hand(self) -> HandState:
        return self._deal.hand

    def current_player(self) -> int:
        hand = self._deal.hand
        phase = hand.phase
        if phase is _DEAL:
            return _CHANCE
        if phase is _OVER:
            return _TERMINAL
        actor = hand.actor
        assert actor is not None
        return actor

    def _legal_actions(self, player: int) -> list[int]:
        deal = self._deal
        hand = deal.hand
        if hand.actor != player or hand.phase is _DEAL:
            return []
        return deal.decision()[1][:]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        undealt = self._deal.undealt
        p = 1.0 / len(undealt)
        return [(card, p) for card in undealt]

    def _apply_action(self, action: int) -> None:
        self._deal.play(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            return f"deal {CARDS[action]}"
        return ACTION_NAMES[action]

    def is_terminal(self) -> bool:
        return self._deal.hand.phase is _OVER

    def returns(self) -> list[float]:
        hand = self._deal.hand
        if hand.phase is not _OVER:
            return [0.0] * hand.n
        big = self._big
        return [(s - t) / big for s, t in zip(hand.stacks, hand.starting_stacks, strict=True)]

    # The observations, for Python callers (rl_environment, Python algorithms) without OpenSpiel's per-call
    # observer set-up; C++ callers reach the same observers through make_py_observer.

    def observation_tensor(self, player: int | None = None) -> list[float]:
        return cast("list[float]", self._observe(False, player).tensor.tolist())

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        return cast("list[float]", self._observe(True, player).tensor.tolist())

    def observation_string(self, player: int | None = None) -> str:
        return _observer(self._deal.config, False).string_from(self, self._player(player))

    def information_state_string(self, player: int | None = None) -> str:
        return _observer(self._deal.config, True).string_from(self, self._player(player))

    def _player(self, player: int | None) -> int:
        if player is None:
            player = self.current_player()
        if not 0 <= player < self._deal.hand.n:
            raise ValueError(f"player {player} is not at this table")
        return player

    def _observe(self, perfect_recall: bool, player: int | None) -> StudObserver:
        observer = _observer(self._deal.config, perfect_recall)
        observer.set_from(self, self._player(player))
        return observer

    def __str__(self) -> str:
        """The table (every card shown) and the full event log: the state, for debugging and as its key."""
        hand = self._deal.hand
        names = [f"p{p}" for p in range(hand.n)]
        downs = " | ".join(f"p{p} {' '.join(card_text(c) for c in hand.down_cards(p))}" for p in range(hand.n))
        return f"{table_text(hand.view(None), names)}\ndown: {downs}\n{event_text(hand.events)}"


class StudObserver:
    """OpenSpiel's observer: ``tensor`` and ``dict`` hold a seat's observation (or, with perfect recall, its
    information state: the observation and the action history), refilled by :meth:`set_from`."""

    def __init__(self, layout: Layout, iig_obs_type: Any) -> None:
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("studpoker observers show one seat's private cards or none (no ALL_PLAYERS)")
        self.layout = layout
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        size = layout.history_size if self.perfect_recall else layout.size
        self.tensor: npt.NDArray[np.float32] = np.zeros(size, dtype=np.float32)
        n = layout.players
        pieces: list[tuple[str, int, tuple[int, ...]]] = [
            ("seat_cards", layout.dead, (n, 7, 52)),
            ("dead", 52, (52,)),
            ("community", 52, (52,)),
            ("seats", len(SEAT_FEATURES) * n, (n, len(SEAT_FEATURES))),
            ("table", layout.size - layout.globals, (layout.size - layout.globals,)),
        ]
        if self.perfect_recall:
            pieces.append(("history", layout.decisions * layout.entry, (layout.decisions, layout.entry)))
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        at = 0
        for name, length, shape in pieces:
            self.dict[name] = self.tensor[at : at + length].reshape(shape)
            at += length

    def _view(self, state: StudState, player: int) -> View:
        return state.hand.view(player if self.private else None)

    def set_from(self, state: StudState, player: int) -> None:
        view = self._view(state, player)
        if self.perfect_recall:
            self.tensor[:] = self.layout.encode_history(view)
        else:
            self.layout.encode(view, out=self.tensor)

    def string_from(self, state: StudState, player: int) -> str:
        view = self._view(state, player)
        me = f"p{player}" if self.private else "public"
        if self.perfect_recall:
            return f"{me} {event_text(view.events)}"
        names = [f"p{p}" for p in range(len(view.players))]
        return f"{me}\n{table_text(view, names)}"


_LAYOUTS: dict[TableConfig, Layout] = {}
_OBSERVERS: dict[tuple[TableConfig, bool], StudObserver] = {}


def layout_for(config: TableConfig) -> Layout:
    """The observation layout of a table, with room for the longest action history its hands can have."""
    layout = _LAYOUTS.get(config)
    if layout is None:
        decisions = decision_bound(config.rules, config.stacks)
        layout = _LAYOUTS[config] = Layout(config.rules, config.players, chips=config.chips, decisions=decisions)
    return layout


def _observer(config: TableConfig, perfect_recall: bool) -> StudObserver:
    """A player's observer (his own cards) of a table, made once."""
    key = (config, perfect_recall)
    observer = _OBSERVERS.get(key)
    if observer is None:
        kind = pyspiel.IIGObservationType(perfect_recall=perfect_recall)
        observer = _OBSERVERS[key] = StudObserver(layout_for(config), kind)
    return observer


def event_text(events: Sequence[Event]) -> str:
    """An event log as one line of tokens: ``|3`` a street, ``d0:As`` / ``u0:As`` a down / up card to player 0
    (``??`` hidden), ``0:c10`` player 0 calls 10 (``f`` fold, ``k`` check, ``b`` bring-in, ``C`` complete, ``B``
    bet, ``R`` raise, amounts are round totals), ``*`` all-in, ``=Kd`` the community card, ``s1:...`` a shown
    hand, ``burn``, ``scramble``."""
    out: list[str] = []
    for event in events:
        if type(event) is CardDealt:
            out.append(f"{'u' if event.face_up else 'd'}{event.player}:{card_text(event.card)}")
        elif type(event) is ActionTaken:
            action = event.action
            amount = str(action.amount) if action.amount else ""
            out.append(f"{event.player}:{_KIND_LETTERS[action.kind.value]}{amount}{'*' if event.all_in else ''}")
        elif type(event) is StreetStarted:
            out.append(f"|{event.street}")
        elif type(event) is CommunityCard:
            out.append(f"={card_text(event.card)}")
        elif type(event) is Shown:
            out.append(f"s{event.player}:{''.join(card_text(c) for c in event.cards)}")
        elif type(event) is Burned:
            out.append("burn")
        elif type(event) is Reshuffled:
            out.append("scramble")
    return " ".join(out)


for _game in (StudGame, Stud7Game, Stud7HiLoGame, Stud5Game, RazzGame):
    pyspiel.register_game(_game.game_type, _game)
