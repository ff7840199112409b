"""The tight-aggressive bot: always legal, clearly better than the simple bots, and sensible in known spots."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from studpoker.bots import Bot, CallingStation, RandomBot, TightAggressive, make_bot, run_match
from studpoker.bots.tag import high_key
from studpoker.cards import CARDS, Card, parse_cards
from studpoker.engine import Action, ActionKind, HandState, Phase, Rules, Variant

STAKES = {"ante": 1, "bring_in": 3, "small_bet": 10, "big_bet": 20}
Z99 = 2.576


def casino(variant: Variant, **options: object) -> Rules:
    return Rules(variant, **STAKES, **options)  # type: ignore[arg-type]


# -- always legal -------------------------------------------------------------------------------------


def _rules_for(variant: Variant, rng: random.Random) -> Rules:
    options: dict[str, object] = {}
    if rng.random() < 0.5:
        options["raise_cap"] = rng.choice([1, 3, 4, None])
    if variant in (Variant.STUD7, Variant.STUD5) and rng.random() < 0.5:
        options["open_pair_double_bet"] = rng.random() < 0.5
    if rng.random() < 0.3:
        options["allow_fold_when_check_available"] = True
    return casino(variant, **options)


@pytest.mark.parametrize("variant", list(Variant))
def test_only_legal_actions_and_no_fold_when_a_check_is_free(variant: Variant) -> None:
    """Random tables of 2 to 8 players (short stacks included, for all-ins and forced completions), the
    showdown by choice: every TAG decision is legal, and it never folds when it could check."""
    rng = random.Random(f"tag-legal-{variant.value}")
    decisions = 0
    for number in range(300):
        rules = _rules_for(variant, rng)
        players = rng.randint(2, 8)
        stacks = [rng.choice([1, 2, 4, 9, 25, 60, 200, 500]) for _ in range(players)]
        bots: list[Bot] = [
            TightAggressive(seed=number * 10 + p)
            if rng.random() < 0.6
            else rng.choice([RandomBot(p), CallingStation()])
            for p in range(players)
        ]
        hand = HandState(rules, stacks, seed=number, auto_show=rng.random() < 0.5)
        while hand.actor is not None:
            view = hand.view(hand.actor)
            bot = bots[hand.actor]
            action = bot.act(view)
            legal = hand.legal_actions()
            assert action in legal, (number, hand.actor, action, legal)
            if isinstance(bot, TightAggressive):
                decisions += 1
                if any(a.kind is ActionKind.CHECK for a in legal):
                    assert action.kind is not ActionKind.FOLD
                if hand.phase is Phase.SHOWDOWN:
                    assert action.kind is ActionKind.SHOW
            hand.apply(action)
        assert hand.is_over and sum(hand.stacks) == sum(stacks)
    assert decisions > 300


def test_make_bot_builds_it() -> None:
    bot = make_bot("tight-aggressive", seed=3)
    assert isinstance(bot, TightAggressive) and bot.tag == "tight-aggressive"


# -- it wins, by a statistically significant margin --------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "opponent", "hands"),
    [
        (Variant.STUD7, "calling-station", 2500),
        (Variant.STUD7, "random", 2500),
        (Variant.STUD7_HL8, "calling-station", 1500),
        (Variant.STUD7_HL8, "random", 1500),
        (Variant.STUD5, "calling-station", 1500),
        (Variant.STUD5, "random", 1500),
        (Variant.RAZZ, "calling-station", 1500),
        (Variant.RAZZ, "random", 1500),
    ],
)
def test_beats_the_simple_bots(variant: Variant, opponent: str, hands: int) -> None:
    """One TAG against five copies of a simple bot, fixed seeds (not chosen for the outcome): the whole 99 %
    confidence interval of its bb/100 lies above zero."""
    bots = [TightAggressive(seed=1)] + [make_bot(opponent, seed=100 + i) for i in range(5)]
    result = run_match(casino(variant), bots, hands, seed=1)
    low, _high = result.interval(0, Z99)
    assert low > 0, f"{variant.value} vs {opponent}: {result.bb_per_100(0):.1f} bb/100, 99% CI from {low:.1f}"
    assert all(result.bb_per_100(i) < result.bb_per_100(0) for i in range(1, 6))


# -- the policy in known spots ------------------------------------------------------------------------


def _deal(hand: HandState, plan: dict[int, list[Card]], spare: list[Card]) -> None:
    """Deal by hand until the next decision: each player's planned cards first, then spare cards."""
    while hand.phase is Phase.DEAL:
        request = hand.card_needed
        assert request is not None
        player = request.player
        if player is not None and plan.get(player):
            hand.deal(plan[player].pop(0))
        else:
            hand.deal(spare.pop(0))


def stacked(rules: Rules, hands: Sequence[str], stacks: Sequence[int] | None = None) -> HandState:
    """A hand in which player ``p`` is dealt ``hands[p]`` in order (down cards first, then up cards)."""
    plan = {p: list(parse_cards(text)) for p, text in enumerate(hands)}
    used = {c for cards in plan.values() for c in cards}
    spare = [c for c in CARDS if c not in used]
    hand = HandState(rules, list(stacks or [500] * len(hands)), manual=True)
    _deal(hand, plan, spare)
    return hand


def _act_until(hand: HandState, player: int, others: Sequence[Action | None]) -> Action:
    """Let the others play the given actions (None: call/check) until ``player`` acts; return his choice."""
    moves = list(others)
    while hand.actor != player:
        legal = hand.legal_actions()
        wanted = moves.pop(0) if moves else None
        if wanted is None:
            kinds = {a.kind: a for a in legal}
            wanted = kinds.get(ActionKind.CHECK) or kinds.get(ActionKind.CALL) or kinds[ActionKind.BRING_IN]
        hand.apply(wanted)
    return TightAggressive(seed=0).act(hand.view(player))


def test_rolled_up_aces_raise_a_completion() -> None:
    hand = stacked(casino(Variant.STUD7), ["Ac Ad Ah", "9c 9d 2c", "Kc Qs Ks"])
    assert hand.actor == 1  # the deuce brings in
    hand.apply(Action.complete(10))
    choice = _act_until(hand, 0, [])
    assert choice.kind is ActionKind.RAISE


def test_rolled_up_aces_complete_when_unopened() -> None:
    hand = stacked(casino(Variant.STUD7), ["Ac Ad Ah", "9c 9d 2c", "Kc Qs Js"])
    hand.apply(Action.bring_in(3))
    choice = _act_until(hand, 0, [])
    assert choice.kind is ActionKind.COMPLETE


def test_garbage_folds_to_a_completion() -> None:
    hand = stacked(casino(Variant.STUD7), ["7c 2d 3h", "9c 9d 2c", "Kc Qs Ks"])
    hand.apply(Action.bring_in(3))  # the deuce
    hand.apply(Action.complete(10))  # 3h: the TAG (player 0) acts after
    assert TightAggressive(seed=0).act(hand.view(0)).kind is ActionKind.FOLD


def test_garbage_bring_in_does_not_complete() -> None:
    hand = stacked(casino(Variant.STUD7), ["7c 9d 2c", "Jc 8d Kh", "Kc Qs Ks"])
    assert hand.actor == 0
    assert TightAggressive(seed=0).act(hand.view(0)).kind is ActionKind.BRING_IN


def test_razz_plays_wheel_cards_and_folds_kings() -> None:
    rules = casino(Variant.RAZZ)
    hand = stacked(rules, ["Ac 2d 3h", "Kc Qd Js", "9c 5d Kh"])
    assert hand.actor == 2  # the king brings in
    hand.apply(Action.bring_in(3))
    assert TightAggressive(seed=0).act(hand.view(0)).kind is ActionKind.COMPLETE
    hand.apply(Action.complete(10))
    assert TightAggressive(seed=0).act(hand.view(1)).kind is ActionKind.FOLD


def test_checks_instead_of_folding_and_bets_a_made_hand() -> None:
    # Player 0 holds garbage, player 1 a set of nines; on 4th street nobody has bet yet.
    rules = casino(Variant.STUD7)
    hand = stacked(rules, ["7c 2d 3h 5s", "9c 9d 9h Ks"], [500, 500])
    hand.apply(Action.bring_in(3))  # the three brings in
    hand.apply(Action.call(3))
    plan: dict[int, list[Card]] = {0: [Card.parse("5s")], 1: [Card.parse("Ks")]}
    _deal(hand, plan, [c for c in CARDS if c not in parse_cards("7c 2d 3h 5s 9c 9d 9h Ks")])
    assert hand.actor == 1  # the king shows
    assert TightAggressive(seed=0).act(hand.view(1)).kind is ActionKind.BET
    hand.apply(Action.check())
    assert TightAggressive(seed=0).act(hand.view(0)).kind is ActionKind.CHECK


def test_five_card_stud_folds_when_the_board_beats_it() -> None:
    rules = casino(Variant.STUD5)
    hand = stacked(rules, ["2c 7d", "Ac Kd"], [500, 500])
    hand.apply(Action.bring_in(3))  # the seven
    hand.apply(Action.complete(10))  # the king showing beats the seven-high hand
    assert TightAggressive(seed=0).act(hand.view(0)).kind is ActionKind.FOLD


def test_high_key_orders_hands_and_boards() -> None:
    def key(text: str) -> tuple[int, ...]:
        return high_key([c.index for c in parse_cards(text)])

    assert key("As Ks Qs Js Ts") > key("9c 9d 9h 9s 2c") > key("Kc Kd Kh 2c 2d") > key("2h 7h 9h Jh Kh")
    assert key("5c 4d 3h 2s Ac") < key("6c 5d 4h 3s 2s") and key("Ac Ad Ah 2c 3d Kh") < key("5c 4d 3h 2s Ac")
    assert key("Qc Qd") > key("Ac Kd") and key("Qc Qd") < key("Qc Qd 2h")
    assert key("8c 8d 5h 5s") > key("8h 8s 4h 4s") and key("Ac Ad Ah Kc Kd Ks 2c")[0] == 6
