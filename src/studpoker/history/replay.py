"""Replaying a hand history through the rules engine: every card and action checked, the result computed.

>>> from studpoker.history import phh
>>> record = phh.loads_hand('''
... variant = 'F7S'
... antes = [1, 1]
... bring_in = 3
... small_bet = 10
... big_bet = 20
... starting_stacks = [100, 100]
... actions = ['d dh p1 AsKs2c', 'd dh p2 QdQc9h', 'p1 pb', 'p2 f']
... ''')
>>> replay(record).state.stacks
(101, 99)
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field

from ..cards import Card, CardError, format_cards
from ..engine import Action, ActionKind, HandState, Phase
from ..engine.errors import EngineError, IllegalActionError
from .model import Bet, Board, Comment, Deal, HandRecord, HistoryAction, ShowMuck

__all__ = ["ReplayError", "ReplayResult", "action_text", "replay"]


_RULE = re.compile(r"\bR\d+(?:\.\d+)*")
_KINDS: dict[str, tuple[ActionKind, ...]] = {
    "pb": (ActionKind.BRING_IN,),
    "f": (ActionKind.FOLD,),
    "cc": (ActionKind.CHECK, ActionKind.CALL),
    "cbr": (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE),
}


class ReplayError(ValueError):
    """A history that the rules do not allow, or that contradicts itself.

    ``index`` is the 0-based position of the offending action (``None`` for the hand as a
    whole), ``rule`` the SPEC rule broken when there is one.
    """

    def __init__(self, message: str, *, hand: str = "", index: int | None = None, action: str = "", rule: str = ""):
        where = hand or "hand"
        if index is not None:
            where += f", action {index + 1} ({action!r})"
        super().__init__(f"{where}: {message}")
        self.hand, self.index, self.action, self.rule, self.detail = hand, index, action, rule, message


@dataclass
class ReplayResult:
    """The replayed hand: the engine's final state, and notes on anything the replayer had to
    interpret (for instance a raise for less than the rules allow that changes no chip outcome)."""

    state: HandState
    notes: list[str] = field(default_factory=list)


def action_text(action: HistoryAction, record: HandRecord | None = None) -> str:
    """The action in PHH notation, e.g. ``p2 cbr 20`` (for messages)."""
    if isinstance(action, Deal):
        return f"d dh p{action.player + 1} {_cards(action.cards)}"
    if isinstance(action, Board):
        return f"d db {action.card}"
    if isinstance(action, Bet):
        return f"p{action.player + 1} {action.verb}" + (f" {action.amount}" if action.verb == "cbr" else "")
    if isinstance(action, Comment):
        return f"# {action.text}"
    return f"p{action.player + 1} sm" + (f" {_cards(action.cards)}" if action.cards is not None else "")


def _cards(cards: tuple[Card | None, ...]) -> str:
    return "".join("??" if c is None else str(c) for c in cards)


class _Replayer:
    def __init__(self, record: HandRecord, label: str) -> None:
        self.record = record
        self.label = label
        self.state = HandState(record.rules, list(record.starting_stacks), manual=True, auto_show=False)
        self.n = record.n
        self.queues: list[deque[Card | None]] = [deque() for _ in range(self.n)]
        self.board: deque[Card] = deque()
        self.decisions: dict[int, tuple[Card | None, ...] | None] = {}  # showdown decisions not yet due
        self.notes: list[str] = []
        self.index: int | None = None
        self.wrong_bring_in: int | None = record.wrong_bring_in  # until the replay makes it (R13.2)
        for player in record.dead_hands:  # killed at the showdown by the dealer: mucked as it begins
            self.state.declare_dead(player)

    def fail(self, message: str, rule: str = "") -> ReplayError:
        action = action_text(self.record.actions[self.index]) if self.index is not None else ""
        return ReplayError(message, hand=self.label, index=self.index, action=action, rule=rule)

    def run(self) -> ReplayResult:
        for index, action in enumerate(self.record.actions):
            self.index = index
            try:
                self.step(action)
            except (EngineError, CardError) as error:
                message = str(error)
                found = _RULE.search(message)
                raise self.fail(message, found.group(0) if found else "") from None
        self.index = None
        try:
            self.pump()
            self.finish_showdown()
        except (EngineError, CardError) as error:
            raise self.fail(str(error)) from None
        if self.wrong_bring_in is not None and self.state.is_over:
            raise self.fail(f"_wrong_bring_in names {self.who(self.wrong_bring_in)}, but nobody brought in", "R13.2")
        return ReplayResult(self.state, self.notes)

    # -- cards ------------------------------------------------------------------------------------

    def pump(self) -> None:
        """Give the dealer every card it asks for that the history has already dealt."""
        state = self.state
        while state.phase is Phase.DEAL:
            request = state.card_needed
            assert request is not None
            if request.player is None:
                if not self.board:
                    return
                state.deal(self.board.popleft())
                continue
            queue = self.queues[request.player]
            if not queue:
                return
            state.deal(queue.popleft())

    def step(self, action: HistoryAction) -> None:
        state = self.state
        if isinstance(action, Deal):
            self.check_player(action.player)
            if state.is_over or state.folded(action.player):
                raise self.fail(f"cards dealt to {self.who(action.player)}, who is no longer in the hand", "R4.3")
            self.queues[action.player].extend(action.cards)
            self.pump()
        elif isinstance(action, Board):
            self.board.append(action.card)
            self.pump()
            if self.board:
                raise self.fail("a community card the dealer does not deal here (R8)", "R8.2")
        elif isinstance(action, Bet):
            self.check_player(action.player)
            self.pump()
            self.bet(action)
        elif isinstance(action, Comment):
            return
        else:
            self.check_player(action.player)
            self.show(action)

    def check_player(self, player: int) -> None:
        if not 0 <= player < self.n:
            raise self.fail(f"there is no player p{player + 1} in a hand of {self.n}")

    def who(self, player: int) -> str:
        return f"p{player + 1} ({self.record.name(player)})" if self.record.players else f"p{player + 1}"

    # -- betting ----------------------------------------------------------------------------------

    def bet(self, action: Bet) -> None:
        state = self.state
        if state.phase is Phase.DEAL:
            request = state.card_needed
            assert request is not None
            missing = "the community card" if request.player is None else f"a card for {self.who(request.player)}"
            raise self.fail(f"an action before the dealing is complete: {missing} is missing", "R4.3")
        if self.wrong_bring_in is not None:
            self.misdesignate(action, self.wrong_bring_in)
            return
        if state.first_actor_needed:  # an unknown up card leaves it open: the history says who
            state.set_first_actor(action.player)
        if state.phase is not Phase.BET or state.actor is None:
            raise self.fail(f"{self.who(action.player)} acts after the betting is over", "R6.13")
        if state.actor != action.player:
            raise self.fail(f"{self.who(action.player)} acts out of turn: {self.who(state.actor)} is to act", "R6.7")
        legal = state.legal_actions()
        chosen = self.match(action, legal)
        if chosen is None:
            raise self.fail(self.refusal(action, legal), self.rule_of(action, legal))
        state.apply(chosen)

    def misdesignate(self, action: Bet, wrong: int) -> None:
        """The hand's first wager, when the history says (``_wrong_bring_in``) that the dealer told the wrong player
        to bring in and the wager stood (R13.2): it must be that player's ``pb``, and he must not be the low card."""
        state = self.state
        self.wrong_bring_in = None
        named = f"_wrong_bring_in names {self.who(wrong)}"
        if action.verb != "pb" or action.player != wrong:
            raise self.fail(f"{named}, but the first wager is not his bring-in ('p{wrong + 1} pb')", "R13.2")
        if state.first_actor_needed:
            raise self.fail(f"{named}, but an unknown door card hides who has the low card", "R13.2")
        if state.actor == wrong:
            raise self.fail(
                f"{named}, who has the low card and brings in by rule (R5.3): the field is for a player wrongly told"
                " to bring in",
                "R13.2",
            )
        try:
            state.misdesignate_bring_in(wrong)
        except EngineError as error:
            raise self.fail(f"{named}, who cannot bring in here: {error}", "R13.2") from None

    def match(self, action: Bet, legal: tuple[Action, ...]) -> Action | None:
        verb = action.verb
        wanted = _KINDS[verb]
        if verb != "cbr":
            for candidate in legal:
                if candidate.kind in wanted:
                    return candidate
            return None
        candidates = [a for a in legal if a.kind in wanted]
        exact = next((a for a in candidates if a.amount == action.amount), None)
        if exact is None and candidates and self.hidden_open_pair(action):
            return self.match(action, self.state.legal_actions())
        if exact is not None or not candidates:
            return exact
        # A wager for less than the rules allow that still covers every opponent's whole stack
        # changes no chip outcome (the excess could never be called): replay it as the smallest
        # legal wager and say so (data README: 85_FR.phh).
        state, p = self.state, action.player
        reach = [state.bets[q] + state.stacks[q] for q in state.live_players() if q != p]
        smallest = min(candidates, key=lambda a: a.amount)
        if state.to_call < action.amount < smallest.amount and action.amount >= max(reach, default=0):
            self.notes.append(
                f"action {(self.index or 0) + 1} ({action_text(action)}): a wager to {action.amount} is less than "
                f"the rules allow ({smallest}), but it covers every opponent's stack; replayed as {smallest}, "
                "which changes no chip outcome"
            )
            return smallest
        return None

    def hidden_open_pair(self, action: Bet) -> bool:
        """A big bet on the double-bet street where unknown up cards could show the open pair (a history that
        does not show them): declare the pair (R6.14), if that allows this wager, and say so in the notes."""
        trial = self.state.copy()
        try:
            trial.declare_open_pair()
        except IllegalActionError:
            return False
        if not any(a.kind.aggressive and a.amount == action.amount for a in trial.legal_actions()):
            return False  # the pair would not allow it either: the caller reports the wager
        self.state.declare_open_pair()
        self.notes.append(
            f"action {(self.index or 0) + 1} ({action_text(action)}): the big bet of the double-bet street, where"
            " unknown up cards may show a pair: replayed with the open pair declared (R6.14)"
        )
        return True

    def refusal(self, action: Bet, legal: tuple[Action, ...]) -> str:
        allowed = ", ".join(str(a) for a in legal)
        return f"{self.who(action.player)} may not {action_text(action).split(' ', 1)[1]} now; legal: {allowed}"

    def rule_of(self, action: Bet, legal: tuple[Action, ...]) -> str:
        kind = {"pb": ActionKind.BRING_IN, "f": ActionKind.FOLD, "cc": ActionKind.CALL}.get(action.verb)
        if kind is None:
            kinds = [a.kind for a in legal if a.kind.aggressive]
            kind = kinds[0] if kinds else ActionKind.RAISE
        if action.verb == "cc" and not any(a.kind in (ActionKind.CHECK, ActionKind.CALL) for a in legal):
            kind = ActionKind.CHECK
        found = _RULE.search(self.state.why_illegal(Action(kind, action.amount)))
        return found.group(0) if found else ""

    # -- showdown ---------------------------------------------------------------------------------

    def show(self, action: ShowMuck) -> None:
        state, p = self.state, action.player
        if action.cards is not None:
            known = [c for c in action.cards if c is not None]
            mine = {c for c in (*state.down_cards(p), *state.up_cards(p)) if c is not None}
            hidden = sum(1 for c in state.down_cards(p) if c is None)
            new = [c for c in known if c not in mine]
            if len(new) > hidden:
                raise self.fail(
                    f"{self.who(p)} shows {format_cards(new)}, which are not the cards dealt to him", "R9.1"
                )
            if new and len(new) == hidden:
                state.reveal(p, new)
            elif new:  # a partial show (cash games, "??Ad"): not enough to complete the hand
                self.notes.append(f"{self.who(p)} showed only part of his hand: {format_cards(new)}")
        if state.is_over:
            return
        self.decisions[p] = action.cards
        self.apply_due_decisions()

    def apply_due_decisions(self) -> None:
        state = self.state
        while state.phase is Phase.SHOWDOWN and state.actor in self.decisions:
            cards = self.decisions.pop(state.actor)
            state.apply(Action.muck() if cards is None else Action.show())
        if state.phase is Phase.REVEAL:
            return

    def finish_showdown(self) -> None:
        """After the last history action: players the history did not mention at the showdown show
        their hands if they are known, and muck them otherwise."""
        state = self.state
        self.apply_due_decisions()
        while state.phase is Phase.SHOWDOWN and state.actor is not None:
            p = state.actor
            known = None not in state.down_cards(p)
            state.apply(Action.show() if known else Action.muck())
            self.apply_due_decisions()


def replay(record: HandRecord, label: str = "") -> ReplayResult:
    """Replay ``record`` through the engine; :class:`ReplayError` names the action and the rule if it
    breaks one. A history may stop before the hand is over (then so does the state)."""
    return _Replayer(record, label).run()
