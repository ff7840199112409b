"""External bots: whole hands against the example bot in another process, and bad bots that must fail clearly
and never hang."""

from __future__ import annotations

import gc
import json
import logging
import shlex
import sys
import time
from pathlib import Path

import pytest

from studpoker.bots import BotError, CallingStation, ExternalBot, RandomBot, make_bot, play_hand
from studpoker.engine import HandState, Rules, Variant, View
from studpoker.table import Table

CALLER = Path(__file__).resolve().parents[2] / "examples" / "bots" / "caller.py"
RULES = {v: Rules(v, ante=1, bring_in=2, small_bet=5, big_bet=10, min_buy_in=100) for v in Variant}

# The start of the small inline bots below: a reply is one JSON line, flushed.
PRELUDE = "import json, sys, time\ndef send(m): print(json.dumps(m), flush=True)\n"
READY = PRELUDE + "sys.stdin.readline(); send({'type': 'ready'})\n"


def inline(code: str, *args: str) -> list[str]:
    """A bot program given as Python source, run by this interpreter."""
    return [sys.executable, "-c", code, *args]


def a_view(variant: Variant = Variant.STUD7) -> View:
    """The first decision of a hand: the bring-in's view."""
    hand = HandState(RULES[variant], [100, 100, 100], seed=4)
    assert hand.actor is not None
    return hand.view(hand.actor)


def play(table: Table, bots: dict[int, object], hands: int) -> int:
    played = 0
    while played < hands and table.can_start:
        play_hand(table, bots)  # type: ignore[arg-type]
        played += 1
    table.check_conservation()
    return played


# -- the example bot ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", list(Variant), ids=lambda v: v.value)
def test_the_example_bot_plays_every_variant(variant: Variant) -> None:
    table = Table(RULES[variant], seed=7)
    for name in ("Ext", "Rnd", "Cal", "Rn2"):
        table.sit(name, 200)
    with ExternalBot([sys.executable, str(CALLER)], rules=RULES[variant], timeout=5) as bot:
        bots = {1: bot, 2: RandomBot(seed=1), 3: CallingStation(), 4: RandomBot(seed=2)}
        assert play(table, bots, 12) >= 5
        assert bot.bot_name == "caller" and bot.label == "caller"
    assert bot.returncode == 0  # it exited on "quit"
    acted = [
        e
        for h in table.hands
        for e in h.state.events
        if type(e).__name__ == "ActionTaken" and h.seats[e.player] == 1  # type: ignore[union-attr]
    ]
    assert acted, "the external bot never acted"


def test_make_bot_runs_a_command() -> None:
    bot = make_bot("external:" + shlex.join([sys.executable, str(CALLER)]), seed=5)
    try:
        assert isinstance(bot, ExternalBot) and bot.seed == 5 and bot.rules is None
        table = Table(RULES[Variant.STUD7], seed=2)
        table.sit("Ext", 150)
        table.sit("Cal", 150)
        assert play(table, {1: bot, 2: CallingStation()}, 4) == 4  # without rules the bot calls anything
    finally:
        bot.close()
    assert make_bot("random").tag == "random"
    with pytest.raises(BotError, match=r"unknown bot 'nobody': choose from random, .*or external:COMMAND"):
        make_bot("nobody")


def test_what_the_bot_is_sent(tmp_path: Path) -> None:
    """A recording bot: every message is one JSON line, hello carries the rules, views never show an
    opponent's face-down card before the hand is over."""
    recorder = PRELUDE + (
        "log = open(sys.argv[1], 'w')\n"
        "for line in sys.stdin:\n"
        "    log.write(line); log.flush()\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello': send({'type': 'ready', 'name': 'recorder', 'protocol': 1})\n"
        "    elif m['type'] == 'act':\n"
        "        legal = m['view']['legal_actions']\n"
        "        send(legal[len(m['view']['events']) % len(legal)])\n"
        "    elif m['type'] == 'quit': break\n"
    )
    log = tmp_path / "messages.jsonl"
    table = Table(RULES[Variant.STUD7_HL8], seed=11)
    for name in ("Ann", "Rec", "Cid"):
        table.sit(name, 150)
    with ExternalBot(inline(recorder, str(log)), name="Rec", rules=table.rules, seed=9, timeout=5) as bot:
        played = play(table, {1: RandomBot(seed=3), 2: bot, 3: CallingStation()}, 6)
    lines = log.read_text().splitlines()
    messages = [json.loads(line) for line in lines]
    assert [m["type"] for m in messages[:2]] == ["hello", "new_hand"] and messages[-1] == {"type": "quit"}
    hello = messages[0]
    assert (hello["protocol"], hello["name"], hello["seed"]) == (1, "Rec", 9)
    assert hello["rules"]["variant"] == "STUD7_HL8" and hello["rules"]["big_bet"] == 10
    assert sum(m["type"] == "new_hand" for m in messages) == played
    assert sum(m["type"] == "hand_over" for m in messages) == played
    hand = -1
    for line, message in zip(lines, messages, strict=True):
        if message["type"] == "new_hand":
            hand += 1
        if message["type"] not in ("new_hand", "act"):
            continue
        state, viewer = table.hands[hand].state, message["view"]["viewer"]
        assert table.hands[hand].names[viewer] == "Rec"
        for other in range(len(state.stacks)):
            if other != viewer:
                for card in state.down_cards(other):
                    assert f'"{card}"' not in line, (hand, other, card)
        if message["type"] == "act":
            assert message["view"]["actor"] == viewer and message["view"]["legal_actions"]


# -- bad bots -----------------------------------------------------------------------------------------------


def test_a_bot_that_writes_garbage() -> None:
    with (
        ExternalBot(inline(PRELUDE + "sys.stdin.readline(); print('hi there!', flush=True); sys.stdin.read()")) as bot,
        pytest.raises(BotError, match=r"answered hello with a line that is not JSON: hi there!"),
    ):
        bot.start()
    with (
        ExternalBot(inline(READY + "sys.stdin.readline(); print('raise!!', flush=True)"), name="loud") as bot,
        pytest.raises(BotError, match=r"external bot 'loud' \(.*\) answered act with a line that is not JSON"),
    ):
        bot.act(a_view())


def test_a_bot_that_does_not_say_ready() -> None:
    with (
        ExternalBot(inline(PRELUDE + "sys.stdin.readline(); send({'action': 'fold'})")) as bot,
        pytest.raises(BotError, match=r'answered hello with \{"action": "fold"\}, not \{"type": "ready"\}'),
    ):
        bot.start()
    with (
        ExternalBot(inline(PRELUDE + "sys.stdin.readline(); send({'type': 'ready', 'protocol': 7})")) as bot,
        pytest.raises(BotError, match=r"speaks protocol 7; studpoker speaks protocol 1"),
    ):
        bot.start()


def test_a_bot_that_answers_an_illegal_action() -> None:
    view = a_view()
    code = READY + "sys.stdin.readline(); send({'action': 'raise', 'amount': 999})\nsys.stdin.readline()"
    with ExternalBot(inline(code), name="wild") as bot, pytest.raises(BotError) as caught:
        bot.act(view)
    message = str(caught.value)
    assert "external bot 'wild'" in message and 'received {"action": "raise", "amount": 999}' in message
    assert message.endswith("legal: bring in 2, complete to 5")


def test_an_illegal_action_stops_play_hand() -> None:
    table = Table(RULES[Variant.RAZZ], seed=1)
    table.sit("A", 100)
    table.sit("B", 100)
    code = READY + "for line in sys.stdin:\n    send({'action': 'check'}) if 'act' in line[:20] else None\n"
    with ExternalBot(inline(code)) as bot, pytest.raises(BotError, match="check is not legal now"):
        for _ in range(20):  # the bot is bound to meet a bet it cannot check
            play_hand(table, {1: bot, 2: RandomBot(seed=1)})


def test_a_bot_that_exits_at_once() -> None:
    code = "import sys; sys.stderr.write('loading...\\nboom: no model file\\n'); sys.exit(3)"
    with ExternalBot(inline(code), name="quitter") as bot, pytest.raises(BotError) as caught:
        bot.new_hand(a_view())
    assert bot.returncode == 3
    message = str(caught.value)
    assert "external bot 'quitter'" in message and "exited with status 3" in message
    assert message.endswith("its last lines on stderr: loading... | boom: no model file")


def test_a_bot_that_exits_during_the_hand() -> None:
    with ExternalBot(inline(READY + "sys.stdin.readline(); sys.exit(0)")) as bot:
        bot.new_hand(a_view())
        with pytest.raises(BotError, match=r"exited with status 0 .*; nothing on stderr"):
            bot.act(a_view())
        with pytest.raises(BotError, match="exited with status 0"):  # and stays dead
            bot.act(a_view())


def test_a_bot_too_slow_to_answer() -> None:
    code = READY + "sys.stdin.readline(); sys.stderr.write('thinking hard\\n'); sys.stderr.flush(); time.sleep(60)"
    bot = ExternalBot(inline(code), timeout=0.5, name="slow")
    began = time.monotonic()
    with pytest.raises(BotError) as caught:
        bot.act(a_view())
    assert time.monotonic() - began < 30  # far below the 60 s the bot would take
    assert bot.returncode is not None  # stopped: a late answer would be read as the next one
    message = str(caught.value)
    assert "external bot 'slow'" in message and "did not answer act within 0.5 s; it was stopped" in message
    assert "thinking hard" in message
    with pytest.raises(BotError, match="is closed"):
        bot.act(a_view())
    bot.close()


def test_a_bot_that_says_nothing_at_all() -> None:
    began = time.monotonic()
    with (
        ExternalBot(inline("import time; time.sleep(60)"), timeout=0.5) as bot,
        pytest.raises(BotError, match=r"did not answer hello within 0.5 s"),
    ):
        bot.start()
    assert time.monotonic() - began < 30  # far below the 60 s the bot would take


def test_a_line_when_no_answer_is_due() -> None:
    code = PRELUDE + "sys.stdin.readline(); print(json.dumps({'type': 'ready'}) + '\\n\\n\"fold\"', flush=True)\n"
    with ExternalBot(inline(code + "sys.stdin.read()"), timeout=2) as bot:
        bot.start()
        time.sleep(0.3)
        with pytest.raises(BotError, match=r'wrote "fold" when no answer was due'):
            bot.act(a_view())


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_close_kills_a_stuck_bot() -> None:
    code = "import signal; signal.signal(signal.SIGTERM, signal.SIG_IGN)\n" + READY + "while True: time.sleep(1)"
    bot = ExternalBot(inline(code), timeout=0.5)
    bot.start()  # the bot now ignores SIGTERM and the quit message
    began = time.monotonic()
    bot.close()
    assert time.monotonic() - began < 30  # far below the 60 s the bot would take
    assert bot.returncode == -9
    bot.close()  # a second close does nothing


def test_a_program_that_does_not_exist(tmp_path: Path) -> None:
    with pytest.raises(BotError, match=r"cannot start the external bot '.*no-such-bot'"):
        ExternalBot([str(tmp_path / "no-such-bot")])
    with pytest.raises(BotError, match="needs a command"):
        ExternalBot("  ")
    with pytest.raises(BotError, match=r"cannot read the command 'python \"bot': No closing quotation"):
        make_bot('external:python "bot')
    with pytest.raises(BotError, match="must be positive"):
        ExternalBot([sys.executable, str(CALLER)], timeout=0)


def test_stderr_is_captured_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    code = PRELUDE + (
        "sys.stdin.readline(); print('warming up', file=sys.stderr, flush=True); send({'type': 'ready'})\n"
        "for line in sys.stdin: pass\n"
    )
    with caplog.at_level(logging.INFO, logger="studpoker.bots.external"):
        with ExternalBot(inline(code), name="chatty") as bot:
            bot.start()
            deadline = time.monotonic() + 30
            while not bot.stderr_lines and time.monotonic() < deadline:
                time.sleep(0.01)
            assert bot.stderr_lines == ("warming up",)
        assert bot.returncode == 0
    assert "chatty: warming up" in caplog.text


def test_a_bot_nobody_closed_is_killed_when_collected() -> None:
    bot = ExternalBot([sys.executable, str(CALLER)])
    bot.start()
    process = bot._process
    del bot
    gc.collect()
    process.wait(timeout=5)  # killed by the finalizer
    assert process.returncode is not None
