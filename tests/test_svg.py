"""Cards, hands and tables drawn as SVG (studpoker.svg): well-formed, deterministic, escaped, and never showing a
card the viewer may not see."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable

import pytest

from studpoker import svg
from studpoker.cards import CARDS, Card, CardError, Suit
from studpoker.engine import Action, ActionKind, HandState, Phase, Rules, Variant
from studpoker.engine.events import Burned, CardDealt
from studpoker.evaluation import evaluate_high, evaluate_low8, evaluate_razz

NS = "{http://www.w3.org/2000/svg}"
AGGRESSIVE = (ActionKind.RAISE, ActionKind.BET, ActionKind.COMPLETE)
PASSIVE = (ActionKind.CALL, ActionKind.CHECK, ActionKind.BRING_IN, ActionKind.SHOW)


def parse(text: str) -> ET.Element:
    """The SVG as XML (fails the test if it is not well-formed), checked to be one <svg> element."""
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    assert root.get("viewBox") is not None
    return root


def texts(root: ET.Element) -> list[str]:
    """Every text node the drawing shows, unescaped, in document order."""
    return [t.text or "" for t in root.iter(f"{NS}text")]


def titles(root: ET.Element) -> list[str]:
    """The names of the cards drawn face up (each face-up card carries its name as a <title>)."""
    return [t.text or "" for t in root.iter(f"{NS}title")]


def rules_for(variant: Variant) -> Rules:
    return Rules(variant, ante=1, bring_in=3, small_bet=10, big_bet=20)


def drive(
    state: HandState, *, folder: int | None = None, aggressive: bool = True, until: Callable[[HandState], bool]
) -> HandState:
    """Play until ``until`` holds or nobody is to act: ``folder`` folds when he can, the others raise (or call)."""
    for _ in range(1000):
        if until(state) or state.actor is None:
            return state
        legal = {a.kind: a for a in state.legal_actions()}
        if state.actor == folder and ActionKind.FOLD in legal:
            state.apply(legal[ActionKind.FOLD])
            continue
        order = (*AGGRESSIVE, *PASSIVE) if aggressive else PASSIVE
        state.apply(next(legal[k] for k in order if k in legal))
    raise AssertionError("the hand did not end")


def mid_hand(variant: Variant, seed: int = 4) -> HandState:
    """A hand with a fold (player 2) and a short stack (player 1) all in behind a side pot, still being played."""
    state = HandState(rules_for(variant), [200, 30, 200, 200], seed=seed)
    drive(state, folder=2, until=lambda s: len(s.pots) > 1 and s.folded(2) and s.actor is not None)
    assert len(state.pots) > 1 and state.folded(2) and state.all_in(1) and not state.is_over
    return state


def showdown(variant: Variant, seed: int = 4) -> HandState:
    state = HandState(rules_for(variant), [200, 30, 200, 200], seed=seed)
    drive(state, folder=2, until=lambda s: False)
    assert state.is_over and state.awards
    return state


def hidden_symbols(state: HandState, viewer: int | None) -> set[str]:
    """The names of the down cards ``viewer`` may not see (the engine's own view decides)."""
    view = state.view(viewer)
    return {
        c.symbol
        for p in range(state.n)
        for c, seen in zip(state.down_cards(p), view.players[p].down, strict=True)
        if c is not None and seen is None
    }


# -- cards ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("card", CARDS, ids=str)
def test_each_card_is_well_formed_and_in_its_suits_colour(card: Card) -> None:
    drawn = svg.card(card)
    root = parse(drawn)
    assert titles(root) == [card.symbol]
    shown = texts(root)
    assert shown == ["10" if card.rank == 8 else card.rank.char, card.suit.symbol]
    colour = "#c0191f" if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else "#161616"
    fills = {t.get("fill") for t in root.iter(f"{NS}text")}
    assert fills == {colour}
    assert drawn == svg.card(str(card)) == card._repr_svg_() == card._repr_html_()


def test_a_card_back_names_no_card() -> None:
    root = parse(svg.card(None))
    assert titles(root) == [] and texts(root) == []


def test_card_text_that_is_not_a_card_is_refused() -> None:
    with pytest.raises(CardError, match="'Zz' is not a card"):
        svg.card("Zz")


def test_size_sets_the_drawn_width() -> None:
    small, large = parse(svg.card("As", size=30)), parse(svg.card("As", size=90))
    assert float(small.get("width") or 0) < float(large.get("width") or 0)


def test_a_row_of_cards_draws_backs_for_none_and_escapes_its_label() -> None:
    row = svg.cards(["As", None, Card("Td"), None], label='<b>"Aces" & tens</b>')
    root = parse(row)
    assert titles(root) == ["A♠", "T♦"]
    assert texts(root)[-1] == '<b>"Aces" & tens</b>'
    assert "<b>" not in row
    assert parse(svg.cards([])) is not None


def test_svg_objects_draw_themselves_in_notebooks() -> None:
    drawn = svg.cards(["2c", "3d"])
    assert isinstance(drawn, str)
    assert drawn._repr_svg_() == drawn._repr_html_() == str(drawn)


@pytest.mark.parametrize(
    ("hand", "description"),
    [
        (evaluate_high("As Ad 7c 7h 2s Kd 9c"), "Two pair, aces and sevens"),
        (evaluate_razz("As 2d 3c 4h 6s Kd Kh"), "6-4-3-2-A low"),
        (evaluate_low8("As 2d 3c 4h 8s Kd Kh"), "8-4-3-2-A low"),
    ],
)
def test_evaluated_hands_draw_their_five_cards(hand: object, description: str) -> None:
    drawn = hand._repr_svg_()  # type: ignore[attr-defined]
    root = parse(drawn)
    assert titles(root) == [c.symbol for c in hand.cards]  # type: ignore[attr-defined]
    assert len(titles(root)) == 5
    assert texts(root)[-1] == description
    assert hand._repr_html_() == drawn  # type: ignore[attr-defined]


# -- tables --------------------------------------------------------------------------------------------------

POINTS: dict[str, Callable[[Variant], HandState]] = {
    "start": lambda v: HandState(rules_for(v), [200, 30, 200, 200], seed=4),
    "mid-hand": mid_hand,
    "showdown": showdown,
}


@pytest.mark.parametrize("point", POINTS)
@pytest.mark.parametrize("variant", list(Variant), ids=lambda v: v.value)
def test_every_variant_draws_at_every_point(variant: Variant, point: str) -> None:
    state = POINTS[point](variant)
    for viewer in (None, 0, 3):
        drawn = svg.table(state, viewer=viewer)
        root = parse(drawn)
        shown = texts(root)
        for p in range(state.n):
            assert f"Player {p}" in shown
            assert str(state.stacks[p]) in shown
            assert f"In pot {state.totals[p]}" in shown
        assert f"Pot {sum(p.amount for p in state.pots)}" in shown
        assert any(variant.title in t for t in shown)
        up = {c.symbol for p in range(state.n) for c in state.up_cards(p) if c is not None}
        assert up <= set(titles(root))
        assert not hidden_symbols(state, viewer) & set(titles(root))
        assert not any(symbol in drawn for symbol in hidden_symbols(state, viewer))
    if point == "start":
        assert "Bring-in" in shown and f"Player {state.actor} to act" in shown
    if point == "mid-hand":
        assert "Folded" in shown and "All-in" in shown
        pots = state.pots
        assert f"Main {pots[0].amount} · Side 1 {pots[1].amount}" in shown
        assert f"Player {state.actor} to act" in shown
    if point == "showdown":
        for a in state.awards:
            assert any(t.startswith(f"Player {a.player} wins {a.amount}") for t in shown)
            assert any(t.startswith("Wins ") for t in shown)


def test_bets_of_the_round_are_drawn_in_front_of_the_seats() -> None:
    state = HandState(rules_for(Variant.STUD7), [200, 200, 200], seed=7)
    state.apply(Action.bring_in(3))
    state.apply(Action.complete(10))
    root = parse(svg.table(state))
    bets = [texts(g) for g in root.iter(f"{NS}g") if g.get("class") == "bet"]
    assert state.bets == (0, 3, 10)
    assert bets == [["3"], ["10"]]


def test_hidden_down_cards_leave_no_trace() -> None:
    """Two hands that differ only in two hidden down cards draw the same for a spectator, byte for byte."""
    shuffled = HandState(rules_for(Variant.STUD7), [200, 200, 200, 200], seed=9)
    first, second = shuffled.down_cards(0)[0], shuffled.down_cards(1)[0]
    assert first is not None and second is not None
    # the deck as dealt (burns too) then the rest in order; and the same deck but for the two cards swapped
    dealt = [e.card for e in shuffled.events if isinstance(e, CardDealt | Burned) and e.card is not None]
    deck = [*dealt, *(c for c in CARDS if c not in dealt)]
    swapped = [second if c == first else first if c == second else c for c in deck]
    state = HandState(rules_for(Variant.STUD7), [200, 200, 200, 200], deck=deck)
    other = HandState(rules_for(Variant.STUD7), [200, 200, 200, 200], deck=swapped)
    assert state.down_cards(0)[0] == first and state.down_cards(1)[0] == second
    assert other.down_cards(0)[0] == second and other.down_cards(1)[0] == first
    for hand in (state, other):
        drive(hand, folder=3, aggressive=False, until=lambda s: s.street == 5)
    assert svg.table(state) == svg.table(other)
    assert svg.table(state, viewer=2) == svg.table(other, viewer=2)
    assert svg.table(state, viewer=0) != svg.table(other, viewer=0)
    assert svg.table(state, reveal=True) != svg.table(other, reveal=True)


def test_the_viewer_sees_his_own_down_cards_and_reveal_shows_all() -> None:
    state = mid_hand(Variant.STUD7)
    mine = {c.symbol for c in state.down_cards(0) if c is not None}
    others = {c.symbol for p in range(1, state.n) for c in state.down_cards(p) if c is not None}
    assert mine and others
    seen = set(titles(parse(svg.table(state, viewer=0))))
    assert mine <= seen and not others & seen
    spectator = set(titles(parse(svg.table(state))))
    assert not (mine | others) & spectator
    revealed = set(titles(parse(svg.table(state, reveal=True))))
    assert mine | others <= revealed


def test_a_folded_hand_stays_hidden_at_the_showdown() -> None:
    state = showdown(Variant.STUD7)
    folded = {c.symbol for c in state.down_cards(2) if c is not None}
    shown = {c.symbol for p in (0, 1, 3) for c in state.down_cards(p) if c is not None}
    drawn = svg.table(state)
    assert folded and not any(s in drawn for s in folded)
    assert shown <= set(titles(parse(drawn)))  # the hands shown down, with an all-in: every live hand (R9.2)


@pytest.mark.parametrize(("variant", "players"), [(Variant.STUD7, 8), (Variant.STUD5, 10), (Variant.RAZZ, 2)])
def test_full_tables(variant: Variant, players: int) -> None:
    state = HandState(rules_for(variant), [300] * players, seed=1)
    drive(state, folder=players - 1, aggressive=False, until=lambda s: s.street == s.first_street + 1)
    root = parse(svg.table(state, viewer=players // 2))
    shown = texts(root)
    assert [t for t in shown if t.startswith("Player ") and t[7:].isdigit()] == [f"Player {p}" for p in range(players)]
    seats = [r for r in root.iter(f"{NS}rect") if r.get("width") == "178"]
    assert len(seats) == players


def test_the_community_card_is_drawn() -> None:
    """Eight players to the river: the stub cannot give everyone a seventh card, so one is dealt face up in the
    middle for all (R8.3)."""
    state = HandState(rules_for(Variant.STUD7), [500] * 8, seed=2)
    drive(state, aggressive=False, until=lambda s: s.community_card is not None)
    community = state.community_card
    assert community is not None
    root = parse(svg.table(state))
    assert community.symbol in titles(root) and "community" in texts(root)
    before = HandState(rules_for(Variant.STUD7), [500] * 8, seed=2)
    assert "community" not in texts(parse(svg.table(before)))


def test_tables_are_deterministic() -> None:
    one, two = mid_hand(Variant.STUD7_HL8), mid_hand(Variant.STUD7_HL8)
    assert one is not two
    assert svg.table(one, viewer=1) == svg.table(two, viewer=1) == svg.table(one, viewer=1)
    assert svg.table(one, reveal=True, width=500) == svg.table(two, reveal=True, width=500)
    assert svg.table(one) != svg.table(one, viewer=1)


def test_names_are_escaped() -> None:
    state = HandState(rules_for(Variant.STUD7), [200, 200, 200], seed=7)
    names = ['<script>alert("x")</script>', "Tom & Jerry", "bell\x07 ]]>"]
    drawn = svg.table(state, names=names)
    root = parse(drawn)
    shown = texts(root)
    assert "<script>" not in drawn and "Tom &amp; Jerry" in drawn
    assert any(t.startswith("<script>alert") for t in shown)  # shortened, but intact once parsed
    assert "Tom & Jerry" in shown and "bell\ufffd ]]>" in shown


def test_bad_arguments_are_refused() -> None:
    state = HandState(rules_for(Variant.STUD7), [200, 200, 200], seed=7)
    with pytest.raises(ValueError, match="no player 3"):
        svg.table(state, viewer=3)
    with pytest.raises(ValueError, match="2 names for 3 players"):
        svg.table(state, names=["a", "b"])


def test_a_hand_state_draws_itself_for_a_spectator() -> None:
    state = mid_hand(Variant.RAZZ)
    assert state._repr_svg_() == state._repr_html_() == svg.table(state)
    assert state.phase is Phase.BET


def test_importing_studpoker_does_not_import_the_drawing() -> None:
    code = (
        "import sys, studpoker, studpoker.engine, studpoker.evaluation\n"
        "assert 'studpoker.svg' not in sys.modules\n"
        "from studpoker.cards import Card\n"
        "Card('As')._repr_svg_()\n"
        "assert 'studpoker.svg' in sys.modules\n"
        "print('ok')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.stdout == "ok\n", result.stderr


def test_a_manual_hand_with_unknown_cards_draws_backs() -> None:
    """Manual dealing (hand histories): an unknown card is drawn as a back, and the table says it waits for cards."""
    state = HandState(rules_for(Variant.STUD7), [200, 200], manual=True)
    state.deal(None)
    assert state.phase is Phase.DEAL
    root = parse(svg.table(state, reveal=True))
    assert titles(root) == [] and "Waiting for a card" in texts(root)
    cards = ["Ah", "Kd", "2c", None, "7s"]
    while state.phase is Phase.DEAL and cards:
        state.deal(cards.pop(0))
    shown = set(titles(parse(svg.table(state, reveal=True))))
    assert {"A♥", "K♦", "2♣", "7♠"} <= shown
