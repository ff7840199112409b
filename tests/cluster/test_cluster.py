"""The room on several processes: table workers and gateways as real processes over real Redis and PostgreSQL.

Each test starts its own processes (tests/cluster/conftest.py), plays hands between test players whose sockets
are on gateways while the table lives on a worker, and breaks something on purpose: a worker killed or frozen
past its lease, a gateway killed, Redis restarted. What must hold every time: a player sees his own down cards and
never another's before the showdown, a table changes hands within its lease's bound, the hand cut short is void
(every chip back, ``void`` ledger rows), a worker that lost its lease writes nothing and reaches no client, and the
books balance (``check_invariants``).
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from typing import Any

import pytest

from tests.server.conftest import cards_in

from .conftest import (
    LEASE,
    Account,
    Books,
    Cluster,
    Player,
    Process,
    Proxy,
    choose,
    skip_reason,
    wait_for,
)

if skip_reason() is not None:
    pytest.skip(skip_reason() or "", allow_module_level=True)

BUY_IN = 400
#: The bound on a takeover after the owner died: the lease runs out, then the next lease pass of another worker
#: (every lease / 5) takes the table; the rest is margin for a loaded 2-core machine.
TAKEOVER_BOUND = LEASE * 1.2 + 2.0


# -- helpers ------------------------------------------------------------------------------------------------------


def open_table(gateway: Process, account: Account, name: str) -> int:
    with gateway.http(account) as http:
        response = http.post("/api/tables", json={"name": name, "variant": "STUD7", "small_bet": 10})
    assert response.status_code == 201, response.text
    return int(response.json()["id"])


def sit(gateway: Process, account: Account, table_id: int, seat: int, buy_in: int = BUY_IN) -> dict[str, Any]:
    with gateway.http(account) as http:
        response = http.post(f"/api/tables/{table_id}/sit", json={"buy_in": buy_in, "seat": seat})
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def play(
    players: list[Player],
    stop: Callable[[], bool],
    timeout: float = 30,
    answer: Callable[[Player, dict[str, Any]], bool] = lambda _p, _t: True,
    what: str = "",
) -> None:
    """Read every socket and answer each ``your_turn`` that ``answer`` accepts (check or call), until ``stop()``.
    The turns not answered are kept in ``held`` (see :func:`release`)."""
    deadline = time.monotonic() + timeout
    while not stop():
        if time.monotonic() > deadline:
            tails = {p.name: p.log[-4:] for p in players}
            raise AssertionError(f"not within {timeout} s: {what or 'the play'}; last messages: {tails}")
        for player in players:
            player.poll(0.02)
            fresh, player.handled = player.log[player.handled :], len(player.log)
            for message in fresh:
                if message["type"] != "your_turn":
                    continue
                if answer(player, message):
                    player.send(choose(message))
                else:
                    held.setdefault(player.name, []).append(message)


held: dict[str, list[dict[str, Any]]] = {}


def release(player: Player) -> None:
    """Answer the last turn ``play`` held back for ``player`` (a refusal as ``stale`` if it has passed)."""
    turns = held.pop(player.name, [])
    if turns:
        player.send(choose(turns[-1]))


def hand_over(players: list[Player], hand: int) -> Callable[[], bool]:
    return lambda: all(any(m["type"] == "hand_over" and m["hand"] == hand for m in p.log) for p in players)


def waiting_on(players: list[Player], hand: int, seq: int) -> Callable[[], bool]:
    """Somebody has been given turn ``seq`` (or a later one) of ``hand`` and ``play`` held it back."""
    return lambda: any(t["hand"] == hand and t["seq"] >= seq for p in players for t in held.get(p.name, []))


def snapshot_after(player: Player, start: int, predicate: Callable[[dict[str, Any]], bool]) -> dict[str, Any] | None:
    return next((m for m in player.log[start:] if m["type"] == "snapshot" and predicate(m)), None)


def actions(player: Player, hand: int) -> list[tuple[Any, ...]]:
    return [
        (m["hand"], m["seq"], m["seat"], m["action"], m["amount"])
        for m in player.log
        if m["type"] == "action" and m["hand"] == hand
    ]


def down_cards(books: Books, table_id: int, hand: int) -> dict[int, set[str]]:
    """Every seat's down cards in a finished hand, from the full PHH the room stored (what only an admin sees)."""
    from studpoker.history import phh
    from studpoker.history.replay import replay

    rows = books.rows("SELECT phh, players FROM hands WHERE table_id = :t AND number = :n", t=table_id, n=hand)
    assert rows and rows[0][0], f"hand {hand} has no PHH"
    text, players = rows[0]
    state = replay(phh.loads_hand(text)).state
    return {int(p["seat"]): {str(c) for c in state.down_cards(i)} for i, p in enumerate(players)}


def check_hidden_cards(books: Books, table_id: int, hand: int, players: dict[int, Player]) -> None:
    """Scan every frame each player got up to the end of ``hand``: his own down cards are there, an opponent's
    never before that opponent shows them at the showdown (and never at all if he does not)."""
    down = down_cards(books, table_id, hand)
    assert set(down) == set(players)
    for me, player in players.items():
        end = next(i for i, m in enumerate(player.log) if m["type"] == "hand_over" and m["hand"] == hand)
        start = next(i for i, m in enumerate(player.log) if _hand_of(m) == hand)  # a snapshot may come first
        frames = player.log[start : end + 1]
        everything = set().union(*(cards_in(m) for m in frames))
        assert down[me] <= everything, f"{player.name} did not see his own down cards"
        for seat, cards in down.items():
            if seat == me:
                continue
            shown_at = next(
                (i for i, m in enumerate(frames) if m["type"] == "showdown" and m["seat"] == seat), len(frames)
            )
            before = set().union(*(cards_in(m) for m in frames[:shown_at]))
            assert not cards & before, f"{player.name} saw seat {seat}'s down cards {cards & before} before showdown"
            if shown_at == len(frames):
                assert not cards & everything, f"{player.name} saw seat {seat}'s mucked cards"


def _hand_of(message: dict[str, Any]) -> int | None:
    if message["type"] == "snapshot":
        return message["hand"]["hand"] if message["hand"] is not None else None
    hand = message.get("hand")
    return hand if isinstance(hand, int) else None


def assert_books(books: Books, table_id: int) -> None:
    """The ledger's invariant, and a table's hands: numbered 1, 2, ... with no gap, none half-written (each is
    finished with its PHH, voided with ``void`` rows, or the one in play now), the table's counter at the last."""
    books.invariants()
    # the table's counter and its hands read in one statement (one snapshot): the table goes on dealing meanwhile,
    # and a hand dealt between two reads would show a counter one past the hands read
    rows = books.rows(
        "SELECT t.hand_number, h.number, h.status FROM tables t LEFT JOIN hands h ON h.table_id = t.id"
        " WHERE t.id = :t ORDER BY h.number",
        t=table_id,
    )
    counter = int(rows[0][0])
    hands = [(int(n), str(s)) for _, n, s in rows if n is not None]
    numbers = [n for n, _ in hands]
    assert numbers == list(range(1, len(numbers) + 1)), hands
    assert counter == (numbers[-1] if numbers else 0)
    for _number, status in hands[:-1]:
        assert status in ("finished", "voided"), hands
    for number, status in hands:
        phh_text = books.one("SELECT phh FROM hands WHERE table_id = :t AND number = :n", t=table_id, n=number)
        voids = books.one(
            "SELECT count(*) FROM ledger WHERE kind = 'void' AND table_id = :t AND hand_number = :n",
            t=table_id,
            n=number,
        )
        if status == "finished":
            assert phh_text and voids == 0, (number, status, voids)
        elif status == "voided":
            players = books.one(
                "SELECT json_array_length(players::json) FROM hands WHERE table_id = :t AND number = :n",
                t=table_id,
                n=number,
            )
            assert phh_text is None and voids == players, (number, status, voids, players)


def seated_game(
    cluster: Cluster, books: Books, gateways: list[Process], name: str
) -> tuple[int, Account, Account, Player, Player]:
    """Ann and Bob at a new table (opened through the first gateway), Ann's socket on the first gateway, Bob's on
    the last; both have their first snapshot and hand 1 has been dealt."""
    ann, bob = books.account("ann"), books.account("bob")
    table_id = open_table(gateways[0], ann, name)
    a = Player(ann, gateways[0], table_id).connect()
    b = Player(bob, gateways[-1], table_id).connect()
    for player in (a, b):
        player.until(lambda m: m["type"] == "snapshot", what="the first snapshot")
    sit(gateways[0], ann, table_id, 1)
    sit(gateways[-1], bob, table_id, 2)
    for player in (a, b):
        player.until(lambda m: m["type"] == "hand_started" and m["hand"] == 1, what="hand 1")
    return table_id, ann, bob, a, b


@pytest.fixture(autouse=True)
def _no_held_turns() -> None:
    held.clear()


def takeover(books: Books, table_id: int, old: tuple[str, int], bound: float, started: float) -> float:
    """Seconds from ``started`` until another worker holds the table's lease (asserted within ``bound``)."""

    def taken() -> bool:
        lease = books.live_lease(table_id)
        return lease is not None and lease[0] != old[0] and lease[1] > old[1]

    wait_for(taken, bound + 10, f"another worker takes table {table_id}", every=0.02)
    seconds = time.monotonic() - started
    return seconds


# -- the tests ----------------------------------------------------------------------------------------------------


def test_a_hand_across_two_gateways_and_a_worker(cluster: Cluster, books: Books) -> None:
    """Two players on two gateways, the table on a third process: the same actions in the same order for both,
    each his own down cards and never the other's before the showdown."""
    worker = cluster.worker()
    g1, g2 = cluster.gateway(), cluster.gateway()
    table_id, _ann, _bob, a, b = seated_game(cluster, books, [g1, g2], "Across")
    assert cluster.owner(table_id, books) is worker
    play([a, b], hand_over([a, b], 1), what="hand 1 to the end")
    play([a, b], hand_over([a, b], 2), what="hand 2 to the end")
    for hand in (1, 2):
        assert actions(a, hand) == actions(b, hand) != []
        check_hidden_cards(books, table_id, hand, {1: a, 2: b})
    a_over = [m for m in a.log if m["type"] == "hand_over"][:2]
    b_over = [m for m in b.log if m["type"] == "hand_over"][:2]
    assert a_over == b_over
    assert_books(books, table_id)
    for player in (a, b):
        player.close()


def test_a_batching_socket_gets_through_a_gateway_what_one_by_one_gets(cluster: Cluster, books: Books) -> None:
    """Ann's second socket asks for batches (``?batch=1``): the worker joins each step's frames into one, the
    gateway passes it on, and the messages are Ann's first socket's, in the same order, in fewer frames."""
    cluster.worker()
    gateway = cluster.gateway()
    table_id, ann, _bob, a, b = seated_game(cluster, books, [gateway], "Batches")
    batching = Player(ann, gateway, table_id, batch=True).connect()
    batching.until(lambda m: m["type"] == "snapshot", what="the first snapshot")
    play([a, b, batching], hand_over([a, b, batching], 2), answer=lambda p, _t: p is not batching, what="hand 2")
    first = [m for m in a.log if _hand_of(m) == 2 and m["type"] != "snapshot"]
    second = [m for m in batching.log if _hand_of(m) == 2 and m["type"] != "snapshot"]
    cut = next(i for i, m in enumerate(second) if m["type"] == "hand_over") + 1
    assert second[:cut] == first[: first.index(second[cut - 1]) + 1] != []
    assert batching.frames * 2 < len(batching.log)
    for player in (a, b, batching):
        player.close()


def test_a_killed_worker_s_table_is_taken_over_and_its_hand_voided(cluster: Cluster, books: Books) -> None:
    first = cluster.worker()
    gateway = cluster.gateway()
    table_id, ann, bob, a, b = seated_game(cluster, books, [gateway], "Killed")
    second = cluster.worker()
    owner = cluster.owner(table_id, books)
    other = second if owner is first else first
    # hand 1 in play, waiting on a player's third decision
    play([a, b], waiting_on([a, b], 1, 3), answer=lambda _p, t: t["seq"] < 3, what="hand 1 to turn 3")
    assert books.hands(table_id) == [(1, "playing")]
    lease = books.live_lease(table_id)
    assert lease is not None
    marks = (len(a.log), len(b.log))
    started = time.monotonic()
    owner.kill()
    seconds = takeover(books, table_id, lease, TAKEOVER_BOUND, started)
    print(f"takeover after kill -9: {seconds:.2f} s (bound {TAKEOVER_BOUND:.1f} s)")
    assert seconds <= TAKEOVER_BOUND
    assert cluster.owner(table_id, books) is other
    # the hand is void: every chip back, one void row per player, the books balance
    wait_for(lambda: books.hands(table_id)[0] == (1, "voided"), 10, "hand 1 voided")
    books.invariants()
    voids = books.rows(
        "SELECT amount FROM ledger WHERE kind = 'void' AND table_id = :t AND hand_number = 1", t=table_id
    )
    assert sorted(voids) == [(BUY_IN,), (BUY_IN,)]
    # each client gets a snapshot that tells of the voided hand, with the stacks given back, then plays on
    for player, mark in ((a, marks[0]), (b, marks[1])):
        player.until(
            lambda m: m["type"] == "snapshot" and any(v["hand"] == 1 for v in m["voided"]), what="the voided snapshot"
        )
        snap = snapshot_after(player, mark, lambda m: bool(m["voided"]))
        assert snap is not None
        voided = next(v for v in snap["voided"] if v["hand"] == 1)
        assert sorted((p["seat"], p["stack"]) for p in voided["players"]) == [(1, BUY_IN), (2, BUY_IN)]
    held.clear()  # the turns of the voided hand are gone
    play([a, b], hand_over([a, b], 2), what="hand 2 to the end")
    assert books.hands(table_id)[:2] == [(1, "voided"), (2, "finished")]
    check_hidden_cards(books, table_id, 2, {1: a, 2: b})
    assert actions(a, 2) == actions(b, 2)
    assert_books(books, table_id)
    del ann, bob


def test_a_killed_gateway_s_client_resumes_on_the_other(cluster: Cluster, books: Books) -> None:
    cluster.worker()
    g1, g2 = cluster.gateway(), cluster.gateway()
    table_id, _ann, _bob, a, b = seated_game(cluster, books, [g1, g2], "Gateways")
    play([a, b], waiting_on([a, b], 1, 3), answer=lambda _p, t: t["seq"] < 3, what="hand 1 to turn 3")
    g1.kill()
    wait_for(lambda: a.poll(0.05) is not None and a.closed, 10, "ann's socket closes with her gateway")
    mark = len(a.log)
    a.connect(g2)
    snap = a.until(lambda m: m["type"] == "snapshot", what="a snapshot from the other gateway")
    assert snap["you"]["seat"] == 1
    b.send({"type": "snapshot"})
    bob_snap = b.until(lambda m: m["type"] == "snapshot", what="bob's fresh snapshot")
    stacks = {s["seat"]: s["stack"] for s in snap["seats"]}
    assert stacks == {s["seat"]: s["stack"] for s in bob_snap["seats"]}
    assert snap["hand"] is not None and snap["hand"]["hand"] == 1  # the hand in play, where it was
    assert snap["hand"]["seq"] == bob_snap["hand"]["seq"] >= 3
    # whoever was to act acts now (ann's turn comes again after her snapshot; bob's was held)
    release(b)
    held.clear()
    play([a, b], hand_over([a, b], 1), what="hand 1 to the end")
    assert any(m["type"] == "your_turn" for m in a.log[mark:]), "ann never acted after reconnecting"
    assert actions(a, 1)[-3:] == actions(b, 1)[-3:]
    play([a, b], hand_over([a, b], 2), what="hand 2 to the end")
    assert actions(a, 2) == actions(b, 2)
    check_hidden_cards(books, table_id, 2, {1: a, 2: b})
    assert_books(books, table_id)


def test_a_worker_that_lost_its_lease_writes_nothing_and_reaches_nobody(cluster: Cluster, books: Books) -> None:
    first = cluster.worker()
    g1, g2 = cluster.gateway(), cluster.gateway()
    table_id, _ann, _bob, a, b = seated_game(cluster, books, [g1, g2], "Frozen")
    second = cluster.worker()
    owner = cluster.owner(table_id, books)
    other = second if owner is first else first
    play([a, b], waiting_on([a, b], 1, 3), answer=lambda _p, t: t["seq"] < 3, what="hand 1 to turn 3")
    ((name, turns),) = held.items()
    stalled = next(p for p in (a, b) if p.name == name)
    turn = turns[-1]
    lease = books.live_lease(table_id)
    assert lease is not None
    started = time.monotonic()
    owner.signal(signal.SIGSTOP)
    try:
        seconds = takeover(books, table_id, lease, TAKEOVER_BOUND, started)
        print(f"takeover of a frozen worker's table: {seconds:.2f} s (bound {TAKEOVER_BOUND:.1f} s)")
        assert seconds <= TAKEOVER_BOUND
        assert cluster.owner(table_id, books) is other
        # both clients get the new owner's snapshot, and hand 2 is dealt: the new owner waits on a player
        firsts = {}
        for player in (a, b):
            new = player.until(
                lambda m: m["type"] == "snapshot" and any(v["hand"] == 1 for v in m["voided"]), what="voided snapshot"
            )
            firsts[player.name] = player.log.index(new)
        held.clear()
        play([a, b], waiting_on([a, b], 2, 1), answer=lambda _p, _t: False, what="hand 2's first turn")
        before = books.state()
        # the stalled player answers the old hand's turn: the new owner refuses it (stale); the frozen worker gets
        # it too, once it runs again, before it learns that its lease is gone
        stalled.send(choose(turn))
        stalled.until(lambda m: m["type"] == "error" and m["hand"] == 1, what="the stale answer refused")
    finally:
        owner.signal(signal.SIGCONT)
    wait_for(lambda: f"dropped table {table_id}" in owner.log(), 15, "the old owner drops the table")
    assert owner.alive()
    # it wrote nothing: every row a table writes is as it was before it ran again
    assert books.state() == before
    # the game goes on at the new owner
    release(a)
    release(b)
    play([a, b], hand_over([a, b], 2), what="hand 2 to the end")
    play([a, b], hand_over([a, b], 3), what="hand 3 to the end")
    assert books.hands(table_id)[:3] == [(1, "voided"), (2, "finished"), (3, "finished")]
    # nothing of the old owner reached a client after the new owner's snapshot: no frame of hand 1, and every
    # snapshot since tells of hand 1 as voided
    for player in (a, b):
        for message in player.log[firsts[player.name] :]:
            if message["type"] == "snapshot":
                assert any(v["hand"] == 1 for v in message["voided"]), message
                assert message["hand"] is None or message["hand"]["hand"] != 1
            elif message["type"] != "error":
                assert message.get("hand") != 1, message
    assert actions(a, 2) == actions(b, 2)
    check_hidden_cards(books, table_id, 3, {1: a, 2: b})
    assert_books(books, table_id)
    # and it can still work: it is alive, and its log says why it dropped the table: whichever it noticed first
    # once it ran again (its own renewal lapsed, the lease another's, or a write refused)
    reasons = ("its lease passed to another worker", "a write found its lease gone", "no lease renewal for")
    assert any(reason in owner.log() for reason in reasons), owner.log()[-2000:]


def test_redis_restarted(cluster: Cluster, books: Books) -> None:
    cluster.worker()
    g1, g2 = cluster.gateway(), cluster.gateway()
    table_id, _ann, _bob, a, b = seated_game(cluster, books, [g1, g2], "Restart")
    play([a, b], waiting_on([a, b], 1, 3), answer=lambda _p, t: t["seq"] < 3, what="hand 1 to turn 3")
    lease = books.live_lease(table_id)
    marks = {a.name: len(a.log), b.name: len(b.log)}
    cluster.redis.stop()
    time_away = time.monotonic()
    for process in cluster.processes:
        wait_for(lambda process=process: "lost Redis" in process.log(), 15, f"the {process.role} notices")
    # while Redis is away: the lobby answers from the database, a table operation is refused (503) and changes
    # nothing, the sockets stay open, and the worker keeps the table (its lease is PostgreSQL's)
    with g1.http(_ann) as http:
        assert [t["id"] for t in http.get("/api/tables").json()["tables"]] == [table_id]
        refused = http.post(f"/api/tables/{table_id}/top-up", json={"amount": 100})
        assert refused.status_code == 503, refused.text
    assert books.one("SELECT balance FROM accounts WHERE id = :a", a=_ann.id) == 10_000 - BUY_IN
    assert not a.closed and not b.closed
    assert books.live_lease(table_id) == lease
    cluster.redis.start()
    print(f"Redis was away {time.monotonic() - time_away:.2f} s")
    for player in (a, b):
        player.until(lambda m: m["type"] == "snapshot", timeout=20, what="a snapshot after Redis came back")
        snap = snapshot_after(player, marks[player.name], lambda m: True)
        assert snap is not None
        # the hand in play is still in play (the worker never lost the table): it is not voided
        assert snap["hand"] is not None and snap["hand"]["hand"] == 1 and not snap["voided"]
    release(a)
    release(b)
    play([a, b], hand_over([a, b], 1), what="hand 1 to the end after the restart")
    play([a, b], hand_over([a, b], 2), what="hand 2 to the end")
    assert books.hands(table_id)[:2] == [(1, "finished"), (2, "finished")]
    assert actions(a, 2) == actions(b, 2)
    check_hidden_cards(books, table_id, 2, {1: a, 2: b})
    assert books.live_lease(table_id) == lease  # the same owner all along
    for process in cluster.processes:
        assert "connected to Redis again" in process.log(), process.role
    assert_books(books, table_id)


def test_lobby_tables_and_money_through_gateways(cluster: Cluster, books: Books) -> None:
    cluster.worker()
    g1 = cluster.gateway(default_table=True)
    g2 = cluster.gateway()

    # a fresh database gets the room's table with its bots once a worker has it; both lobbies list it
    def listed(gateway: Process, name: str) -> dict[str, Any] | None:
        with gateway.http() as http:
            tables = http.get("/api/tables").json()["tables"]
        return next((t for t in tables if t["name"] == name), None)

    default = wait_for(lambda: (t := listed(g1, "Stud 10/20")) and t["seats_taken"] == 5 and t, 20, "the bots' table")
    again = wait_for(lambda: listed(g2, "Stud 10/20"), 10, "the default table on the other gateway")
    assert again["id"] == default["id"]
    # a table opened through a gateway is taken by a worker and listed by both
    ann = books.account("ann")
    table_id = open_table(g2, ann, "Lobby")
    assert books.live_lease(table_id) is not None
    for gateway in (g1, g2):
        assert wait_for(lambda gateway=gateway: listed(gateway, "Lobby"), 10, "the new table listed")["id"] == table_id
    # a name that looks like an open table's is refused through either gateway (issue 26, item 9)
    for gateway, twin in ((g1, "L0bby"), (g2, "\ua4e2tud 10\u221520")):
        with gateway.http(ann) as http:
            answer = http.post("/api/tables", json={"name": twin, "variant": "STUD7", "small_bet": 10})
        assert answer.status_code == 409, answer.text
        like = "Lobby" if twin == "L0bby" else "Stud 10/20"
        assert answer.json()["error"]["message"] == (
            f"the name {twin!r} looks like the open table {like!r}: choose another name, such as {twin + ' #2'!r}"
        )
    # sit, top up and leave through either gateway: the money moves, the books balance
    seated = sit(g1, ann, table_id, 3, buy_in=500)
    assert seated == {"seat": 3, "stack": 500, "balance": 9_500}
    assert books.one("SELECT balance FROM accounts WHERE id = :a", a=ann.id) == 9_500
    assert books.one("SELECT stack FROM seats WHERE table_id = :t AND seat = 3", t=table_id) == 500
    books.invariants()
    with g2.http(ann) as http:
        topped = http.post(f"/api/tables/{table_id}/top-up", json={"amount": 250}).json()
        assert topped == {"queued": False, "stack": 750, "queued_chips": 0, "balance": 9_250}
        with g1.http(ann) as other:  # the other gateway's view is the workers' lobby cache: seconds old at most

            def stack() -> bool:
                seats = other.get(f"/api/tables/{table_id}").json()["seats"]
                return [(s["seat"], s["stack"]) for s in seats] == [(3, 750)]

            wait_for(stack, 5, "the top-up seen through the other gateway")
        left = http.post(f"/api/tables/{table_id}/leave", json={}).json()
    assert left == {"left": True, "cashed_out": 750, "balance": 10_000}
    assert books.one("SELECT count(*) FROM seats WHERE table_id = :t", t=table_id) == 0
    kinds = books.rows("SELECT kind, amount FROM ledger WHERE table_id = :t ORDER BY id", t=table_id)
    assert kinds == [("buy_in", 500), ("top_up", 250), ("cash_out", 750)]
    assert books.invariants().balances == 10_000
    # the bots' table plays on at a worker meanwhile: hands are finished and the books still balance
    wait_for(lambda: any(s == "finished" for _, s in books.hands(default["id"])), 20, "a hand of the bots")
    books.invariants()


def test_a_password_change_and_signing_out_everywhere_close_sockets_on_every_gateway(
    cluster: Cluster, books: Books
) -> None:
    """Issue 26, item 12: the sessions a change or "sign out everywhere" ends are told to every gateway (the bus's
    ``session_ended``), which closes their table sockets with the logged-out code, wherever they were opened."""
    from studpoker.server.auth import new_session

    cluster.worker()
    g1, g2 = cluster.gateway(), cluster.gateway()
    ann = books.account("ann")
    table_id = open_table(g1, ann, "Sessions")

    def session_of(account: Account) -> Account:
        return Account(account.name, account.id, books.db.transaction(lambda s: new_session(s, account.id)))

    phone, laptop = session_of(ann), session_of(ann)
    here, there, other = (Player(a, g, table_id).connect() for a, g in ((ann, g1), (phone, g2), (laptop, g1)))
    for player in (here, there, other):
        player.until(lambda m: m["type"] == "snapshot", what="the snapshot")
    with g2.http(ann) as http:
        answer = http.post("/api/me/password", json={"current": "cluster-password", "new": "purple monkey dishwasher"})
    assert answer.status_code == 200 and answer.json() == {"ended": 2}, answer.text
    for player in (there, other):  # the phone's socket is on the other gateway than the change
        error = player.until(lambda m: m["type"] == "error", what="the logged-out error")
        assert error["code"] == "logged_out" and "password was changed" in error["message"]
        wait_for(lambda player=player: player.poll() == [] and player.closed, 10, "the socket closed")
        assert player.ws.close_code == 4401
    here.send({"type": "ping"})
    here.until(lambda m: m["type"] == "pong", what="this session's socket still open")
    with g1.http(ann) as http:
        answer = http.post("/api/me/sessions/end", json={})
    assert answer.status_code == 200 and answer.json() == {"ended": 1}
    here.until(lambda m: m["type"] == "error" and m["code"] == "logged_out", what="signed out everywhere")
    wait_for(lambda: here.poll() == [] and here.closed, 10, "the last socket closed")
    for account, gateway in ((ann, g1), (phone, g2), (laptop, g1)):
        with gateway.http(account) as http:
            assert http.get("/api/me").status_code == 401
    for player in (here, there, other):
        player.close()


def test_a_worker_cut_off_from_postgresql_gives_up_its_tables(
    cluster: Cluster, books: Books, pg_proxy: tuple[Proxy, str]
) -> None:
    """The owner loses PostgreSQL (a partition: its connections through a proxy are cut, new ones refused) while
    Redis still reaches it. After a lease without a renewal it drops its tables on its own; the other worker
    takes the table, voids the hand, and the players play on with the new owner only."""
    proxy, through_proxy = pg_proxy
    first = cluster.worker(env={"STUDPOKER_DB_URL": through_proxy})
    gateway = cluster.gateway()
    table_id, ann, bob, a, b = seated_game(cluster, books, [gateway], "Partition")
    second = cluster.worker()
    assert cluster.owner(table_id, books) is first
    play([a, b], waiting_on([a, b], 1, 2), answer=lambda _p, t: t["seq"] < 2, what="hand 1 to turn 2")
    lease = books.live_lease(table_id)
    assert lease is not None
    started = time.monotonic()
    proxy.cut()
    seconds = takeover(books, table_id, lease, TAKEOVER_BOUND, started)
    print(f"takeover after a partition from PostgreSQL: {seconds:.2f} s (bound {TAKEOVER_BOUND:.1f} s)")
    assert cluster.owner(table_id, books) is second
    wait_for(lambda: "no lease renewal" in first.log(), LEASE * 3 + 5, "the cut-off worker gives up its tables")
    assert "dropped table" in first.log() and first.alive()
    wait_for(lambda: books.hands(table_id)[0] == (1, "voided"), 10, "hand 1 voided")
    for player in (a, b):
        player.until(
            lambda m: m["type"] == "snapshot" and any(v["hand"] == 1 for v in m["voided"]), what="the voided snapshot"
        )
    held.clear()
    play([a, b], hand_over([a, b], 2), what="hand 2 to the end")
    # the partition heals: the old worker's tables are not its own any more, and nothing of it is written
    proxy.mend()
    play([a, b], hand_over([a, b], 3), what="hand 3 to the end")
    assert cluster.owner(table_id, books) is second
    assert_books(books, table_id)
    del ann, bob


def started_workers(process: Process) -> list[int]:
    """The pids of the table workers a supervising ``stud serve`` has started (their lines are in its log)."""
    import re

    return [int(pid) for pid in re.findall(r"table worker \S+?-(\d+)-[0-9a-f]+ started", process.log())]


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie has ended: only its exit status is left)."""
    try:
        os.kill(pid, 0)
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except (ProcessLookupError, FileNotFoundError):
        return False


def test_the_default_table_waits_for_a_worker_that_comes_late(cluster: Cluster, books: Books) -> None:
    """A gateway that comes up before any worker makes the default table; the first worker starts after the
    gateway has given up waiting for a claim (10 s): the gateway keeps asking, the bots sit, a hand is dealt."""
    cluster.gateway(default_table=True)
    wait_for(lambda: books.one("SELECT count(*) FROM tables") == 1, 30, "the gateway makes the default table")
    time.sleep(11)  # past the gateway's wait for a claim: the seating of the bots was refused (503) at least once
    assert not any(s == "finished" for _, s in books.hands(1))
    cluster.worker()
    wait_for(lambda: any(s == "finished" for _, s in books.hands(1)), 90, "the bots finish a hand")


def test_role_all_runs_a_gateway_with_workers_it_restarts_and_stops(cluster: Cluster, books: Books) -> None:
    """``stud serve --role all --workers 2``: one command, a gateway here and two table workers as children; a
    child that dies is started again; SIGTERM stops them all (each worker drains first)."""
    from .conftest import free_port

    process = cluster._start("all", ["--workers", "2"], port=free_port())

    def workers() -> list[int]:
        return started_workers(process)

    try:
        cluster.wait_gateway(process)
        wait_for(lambda: len(workers()) == 2, 60, "two table workers start")
        first = workers()
        assert process.pid not in first and all(alive(pid) for pid in first)
        # the default table (the gateway makes it) is taken by one of them, and its bots deal
        wait_for(lambda: books.live_lease(1), 30, "a worker holds the default table")
        wait_for(lambda: any(s == "finished" for _, s in books.hands(1)), 60, "the bots finish a hand")
        os.kill(first[0], signal.SIGKILL)
        wait_for(lambda: len(workers()) == 3, 30, "the supervisor starts another worker")
        assert "starting another" in process.log()
        process.signal(signal.SIGTERM)
        assert process.popen.wait(60) == 0
        children = workers()
        wait_for(lambda: not any(alive(pid) for pid in children), 30, "every worker has stopped")
        assert "drained" in process.log()  # they drained: SIGTERM, not SIGKILL
        books.invariants()
    finally:
        for pid in workers():
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_the_workers_of_a_killed_supervisor_stop_too(cluster: Cluster, books: Books) -> None:
    """``stud serve --role worker --workers 2`` killed with SIGKILL: its workers get SIGTERM from Linux (they
    asked for it when they started) and stop, so no orphan keeps driving tables."""
    process = cluster._start("worker", ["--workers", "2"])

    def workers() -> list[int]:
        return started_workers(process)

    try:
        wait_for(lambda: len(workers()) == 2, 60, "two table workers start")
        children = workers()
        process.kill()
        wait_for(lambda: not any(alive(pid) for pid in children), 30, "the orphaned workers stop")
        books.invariants()
    finally:
        for pid in workers():
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_issue26_11_the_urls_are_on_no_command_line(cluster: Cluster, books: Books, tmp_path: Any) -> None:
    """Both URLs hold passwords. ``stud serve --role worker --workers 2`` reads them from files (``--db-file``,
    ``--redis-file``, as from Docker secrets; nothing in its environment); its workers get them in their
    environment (``/proc/PID/environ``: readable by this user only), and neither they nor it on the command line
    (``/proc/PID/cmdline``: what ``ps`` shows every user of the host)."""
    secrets = tmp_path / "secrets"
    secrets.mkdir(mode=0o700)
    (secrets / "db_url").write_text(books.url + "\n")
    (secrets / "redis_url").write_text(cluster.redis.url + "\n")
    flags = ["--workers", "2", "--db-file", str(secrets / "db_url"), "--redis-file", str(secrets / "redis_url")]
    process = cluster._start("worker", flags, env={"STUDPOKER_DB_URL": None, "STUDPOKER_REDIS_URL": None})

    def workers() -> list[int]:
        return started_workers(process)

    try:
        wait_for(lambda: len(workers()) == 2, 60, "two table workers start")
        for pid in [process.pid, *workers()]:
            with open(f"/proc/{pid}/cmdline", "rb") as file:
                command = file.read().decode()
            for secret in (books.url, cluster.redis.url, cluster.redis.password, "postgresql", "redis://"):
                assert secret not in command, (pid, command.split("\0"))
        for pid in workers():
            with open(f"/proc/{pid}/environ", "rb") as file:
                environment = dict(v.split("=", 1) for v in file.read().decode().split("\0") if "=" in v)
            assert environment["STUDPOKER_DB_URL"] == books.url
            assert environment["STUDPOKER_REDIS_URL"] == cluster.redis.url
    finally:
        for pid in workers():
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
