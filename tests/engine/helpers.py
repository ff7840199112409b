"""Test helpers: a hand dealt from given cards (manual dealing), with actions written as text."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from studpoker.cards import CARDS, Card, parse_card
from studpoker.engine import Action, ActionKind, HandState, Phase, Rules, Variant

UNKNOWN = CARDS[0].__class__.__new__(CARDS[0].__class__)  # a marker for "??" (never dealt itself)
SPEC_STAKES = {"ante": 1, "bring_in": 3, "small_bet": 10, "big_bet": 20}


def rules(variant: Variant = Variant.STUD7, preset: str = "casino", **overrides: Any) -> Rules:
    """The SPEC section 15 setup: fixed limit 10/20, ante 1, bring-in 3."""
    stakes = {name: overrides.pop(name, value) for name, value in SPEC_STAKES.items()}
    return Rules.from_preset(preset, variant, **stakes, **overrides)


def parse_action(text: str) -> Action:
    """'fold', 'check', 'call 3', 'bring-in 3', 'complete 10', 'bet 10', 'raise 30', 'show', 'muck' (the SPEC's
    words; ``Action.parse`` reads them as well as what ``str(action)`` writes)."""
    return Action.parse(text)


def action_text(action: Action) -> str:
    word = {ActionKind.BRING_IN: "bring-in"}.get(action.kind, action.kind.value)
    return f"{word} {action.amount}" if action.amount else word


class Table:
    """A hand dealt by hand: ``cards[p]`` lists player p's cards in dealing order
    (down, down, door, 4th, ...); ``"??"`` is dealt as unknown; a missing card is dealt as
    unknown when face down and as a spare card when face up. ``community`` is the
    short-deck community card if one is asked for."""

    def __init__(
        self,
        rules: Rules,
        stacks: Sequence[int],
        cards: dict[int, str] | None = None,
        community: str | None = None,
        auto_show: bool = True,
    ) -> None:
        self.state = HandState(rules, stacks, manual=True, auto_show=auto_show)
        self.queues: dict[int, list[Card | None]] = {
            p: [UNKNOWN if c == "??" else parse_card(c) for c in text.split()] for p, text in (cards or {}).items()
        }
        self.community = parse_card(community) if community else None
        reserved = {c for q in self.queues.values() for c in q if c is not None and c is not UNKNOWN}
        reserved.add(self.community)
        # Up cards nobody specified come from the cards nobody asked for, highest first
        # (so that fillers rarely pair with the specified cards' low ranks).
        self.spare = [c for c in reversed(CARDS) if c not in reserved]
        self.feed()

    def feed(self) -> None:
        state = self.state
        while state.phase is Phase.DEAL:
            request = state.card_needed
            assert request is not None
            if request.player is None:
                state.deal(self.community)
                continue
            queue = self.queues.get(request.player, [])
            card = queue.pop(0) if queue else None
            if card is UNKNOWN:  # "??" given explicitly: dealt as unknown, face up or down
                card = None
            elif card is None and request.face_up:  # not given: any spare card
                card = self.spare.pop(0)
            state.deal(card)

    @property
    def actor(self) -> int | None:
        return self.state.actor

    def legal(self, with_check_fold: bool = False) -> set[str]:
        """The legal set as text; FOLD when a check is available is left out unless asked for
        (SPEC section 15 lists FOLD only when facing a bet)."""
        out = {action_text(a) for a in self.state.legal_actions()}
        if not with_check_fold and "check" in out:
            out.discard("fold")
        return out

    def act(self, *actions: str) -> None:
        for text in actions:
            self.state.apply(parse_action(text))
            self.feed()

    def play(self, plan: Iterable[tuple[int, str]]) -> None:
        """Apply (player, action) pairs, checking that each player is the one to act."""
        for player, text in plan:
            assert self.state.actor == player, f"expected player {player} to act, actor is {self.state.actor}"
            self.act(text)

    def passive_until(self, street: int, fold: Iterable[int] = ()) -> None:
        """Check or call (or fold the given players) until ``street`` begins."""
        folders = set(fold)
        state = self.state
        while state.street < street and not state.is_over:
            p = state.actor
            assert p is not None, "waiting for something other than an action"
            legal = {a.kind: a for a in state.legal_actions()}
            if p in folders and ActionKind.FOLD in legal:
                state.apply(legal[ActionKind.FOLD])
            elif ActionKind.BRING_IN in legal:
                state.apply(legal[ActionKind.BRING_IN])
            elif ActionKind.CHECK in legal:
                state.apply(legal[ActionKind.CHECK])
            else:
                state.apply(legal[ActionKind.CALL])
            self.feed()
