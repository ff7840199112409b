"""The terminal game's logic without a screen: setup errors, seats, bots, rebuys, top-ups, leaving."""

from __future__ import annotations

import pytest

from studpoker.bots import CallingStation
from studpoker.engine import Action, Rules, Variant
from studpoker.table import Table, TableError
from studpoker.tui.game import Game, PlayOptions, SetupError, default_bot_tag, parse_stakes


def test_defaults() -> None:
    game = Game.create(PlayOptions(seed=1, bots=("calling-station", "random")))
    table = game.table
    assert table.rules.variant is Variant.STUD7
    assert (table.rules.small_bet, table.rules.big_bet, table.rules.ante, table.rules.bring_in) == (10, 20, 1, 3)
    assert [s.number for s in table.occupied] == [1, 2, 3, 4, 5, 6]
    assert [s.stack for s in table.occupied] == [200] * 6
    assert [game.bots[s].tag for s in range(2, 7)] == ["calling-station", "random"] * 2 + ["calling-station"]
    assert table.seat(1).name == "You"
    assert default_bot_tag() in ("tight-aggressive", "calling-station")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (PlayOptions(stakes="10-20"), "--stakes takes SMALL/BIG"),
        (PlayOptions(bring_in=15), "bring_in 15 must be at most small_bet 10"),
        (PlayOptions(players=9), "--players must be 2 to 8"),
        (PlayOptions(variant="5stud", players=11), "--players must be 2 to 10"),
        (PlayOptions(bots=("nobody",)), "unknown bot 'nobody'"),
        (PlayOptions(buy_in=100, bots=("random",)), "below the minimum buy-in of 200"),
        (PlayOptions(variant="holdem"), "unknown game 'holdem'"),
    ],
)
def test_setup_errors(options: PlayOptions, message: str) -> None:
    with pytest.raises(SetupError, match=message):
        Game.create(options)


def test_parse_stakes() -> None:
    assert parse_stakes("2/4") == (2, 4)
    with pytest.raises(SetupError):
        parse_stakes("x/4")


def test_five_card_stud_with_ten_players() -> None:
    game = Game.create(PlayOptions(variant="5stud", players=10, seed=2, bots=("random",), name="Bob"))
    names = [s.name for s in game.table.occupied]
    assert len(set(names)) == 10 and names[0] == "Bob"


def _play_hand(game: Game) -> None:
    game.deal()
    while game.in_hand:
        if game.human_to_act:
            view = game.view()
            assert view is not None
            kinds = {a.kind.value: a for a in view.legal_actions}
            game.act(kinds.get("check") or kinds.get("call") or kinds.get("bring-in") or view.legal_actions[0])
        else:
            assert game.step_bot()


def test_hands_are_seen_from_seat_one_only() -> None:
    game = Game.create(PlayOptions(seed=5, players=4, bots=("calling-station",)))
    game.deal()
    hand = game.table.hand
    assert hand is not None
    for info in game.seat_infos():
        if info.you:
            assert info.down == tuple(hand.view(0).players[0].down) and None not in info.down
        else:
            assert info.down and all(c is None for c in info.down)
    while game.in_hand:
        if game.human_to_act:
            game.act(game.table.legal_actions()[-1])
        else:
            game.step_bot()
    assert game.view() is not None
    game.table.check_conservation()


def test_busted_bots_are_rebought() -> None:
    rules = Rules.from_preset("casino", Variant.STUD7, 1, 3, 10, 20, min_buy_in=20)
    table = Table(rules, seed=3)
    table.sit("You", 2000)
    table.sit("Bob", 20)
    game = Game(table, {2: CallingStation()})
    for _ in range(30):
        _play_hand(game)
        if any("rebuys" in n for n in game.notices):
            break
    assert "Bob rebuys for 20" in game.notices
    assert table.seat(2).stack >= 20
    table.check_conservation()


def test_top_up_between_hands_and_queued_during_one() -> None:
    game = Game.create(PlayOptions(seed=5, players=3, bots=("calling-station",)))
    assert game.top_up() == "Added 200 chips: your stack is 400"
    game.deal()
    assert "queued" in game.top_up(100)
    assert game.table.seat(1).queued == 100
    _play_rest(game)
    assert game.table.seat(1).queued == 0
    game.table.check_conservation()


def _play_rest(game: Game) -> None:
    while game.in_hand:
        if game.human_to_act:
            kinds = {a.kind.value: a for a in game.table.legal_actions()}
            game.act(kinds.get("check") or kinds.get("call") or game.table.legal_actions()[0])
        else:
            game.step_bot()


def test_sit_out_and_finish_hand() -> None:
    game = Game.create(PlayOptions(seed=8, players=3, bots=("calling-station",)))
    assert "sit out" in game.toggle_sit_out()
    game.deal()
    assert 1 not in game.table.players
    assert not game.human_to_act
    game.finish_hand()
    assert not game.in_hand
    assert "back in" in game.toggle_sit_out()
    game.deal()
    game.finish_hand()  # the human folds (or checks) and the bots play on
    assert not game.in_hand and len(game.table.hands) == 2
    with pytest.raises(TableError, match="not your turn"):
        game.act(Action.fold())


@pytest.mark.parametrize("variant", ["7stud", "7stud8", "razz", "5stud"])
def test_default_bots_play_every_variant(variant: str) -> None:
    pytest.importorskip("studpoker.bots.tag")
    game = Game.create(PlayOptions(seed=2, variant=variant))
    assert {bot.tag for bot in game.bots.values()} == {"tight-aggressive"}
    for _ in range(5):
        _play_hand(game)
        game.table.check_conservation()
    assert len(game.table.hands) == 5
    assert all(game.table.seat(s).stack > 0 for s in game.bots)  # busted bots were rebought
