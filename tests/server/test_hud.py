"""The HUD in the card room: each account's counts summed in the room database as hands finish (equal to the
tracker's counts of every stored PHH), the opt-in preference and its chooser's bounds, and the table's HUD, which
shows the other accounts seated there and nothing else: no card, nothing private, no other table, no stranger."""

from __future__ import annotations

import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect, select

from studpoker.cli import main
from studpoker.history import phh
from studpoker.history.audit import verify
from studpoker.server.db import HandRow, make_engine, migrate
from studpoker.server.hud import hand_counts, hud_counts, rebuild_counts
from studpoker.server.hudschemas import MAX_HUD_STATS
from studpoker.tracker.counts import COUNT_FIELDS, player_hands
from studpoker.tracker.importer import import_paths
from studpoker.tracker.stats import STATS
from studpoker.tracker.store import Filters, Store

from .conftest import User, cards_in, create_table, drain, make_settings, room_client, signup


def act(turn: dict[str, Any], fold: bool) -> dict[str, Any]:
    kinds = {a["action"]: a for a in turn["legal"]}
    order = ("fold",) if fold and "fold" in kinds else ()
    pick = next(
        kinds[k] for k in (*order, "check", "call", "bring-in", "complete", "bet", "raise", "show") if k in kinds
    )
    return {"type": "act", "hand": turn["hand"], "seq": turn["seq"], **pick}


def play(users: list[User], table_id: int, hands: int) -> None:
    """Deal ``hands`` hands to ``users`` (seated): the first never folds, the others fold in turn (so that their
    counts differ)."""
    sockets = [u.socket(table_id).__enter__() for u in users]
    try:
        over: set[int] = set()
        deadline = time.monotonic() + 120
        while len(over) < hands and time.monotonic() < deadline:
            for i, ws in enumerate(sockets):
                for message in drain(ws, 0.01):
                    if message["type"] == "your_turn":
                        fold = i > 0 and message["hand"] % len(users) == i
                        ws.send_text(json.dumps(act(message, fold)))
                    elif message["type"] == "hand_over":
                        over.add(message["hand"])
        assert len(over) >= hands, f"{len(over)} hands in 120 s"
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)


def run(client: TestClient, work: Any) -> Any:
    room = client.app.state.room  # type: ignore[attr-defined]
    assert client.portal is not None
    return client.portal.call(room.db.run, work)


def stored_counts(client: TestClient) -> dict[tuple[int, str], dict[str, float]]:
    rows = run(client, lambda s: s.execute(select(hud_counts)).all())
    return {(r.account_id, r.variant): {f: getattr(r, f) for f in COUNT_FIELDS} for r in rows}


def expected_counts(client: TestClient) -> dict[tuple[int, str], dict[str, float]]:
    """The tracker's counts of every finished hand the room stored (its full PHH), summed per account and game."""
    hands = run(
        client, lambda s: s.execute(select(HandRow.phh, HandRow.players).where(HandRow.status == "finished")).all()
    )
    sums: dict[tuple[int, str], dict[str, float]] = defaultdict(lambda: dict.fromkeys(COUNT_FIELDS, 0))
    for text, players in hands:
        record = phh.loads_hand(text)
        accounts = {p["seat"]: p["account_id"] for p in players}
        for row in player_hands(record, verify(record)):
            if accounts[row.seat] is not None:
                total = sums[accounts[row.seat], record.rules.variant.value]
                for field in COUNT_FIELDS:
                    total[field] += getattr(row, field)
    return dict(sums)


def hud(user: User, table_id: int) -> Any:
    return user.get(f"/api/tables/{table_id}/hud")


def test_counts_are_the_trackers_of_the_stored_hands_and_the_hud_shows_only_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = make_settings(tmp_path)
    with room_client(settings) as client:
        ann, bob, cid, dan = (signup(client, n) for n in ("ann", "bob", "cid", "dan"))
        table_id = create_table(ann)
        for seat, user in enumerate((ann, bob, cid), 1):
            assert user.post(f"/api/tables/{table_id}/sit", {"buy_in": 400, "seat": seat}).status_code == 200
        assert ann.post(f"/api/tables/{table_id}/bots", {"count": 1}).status_code == 200
        # bob's private data: a note, muted names; none of it may reach ann's HUD
        bob.client.put("/api/me/notes/cid", json={"text": "secret-note-xyz"}, headers=bob.headers)
        bob.post("/api/me/preferences", {"muted": ["zed"], "hud": True})
        play([ann, bob, cid], table_id, 4)

        counted = stored_counts(client)
        assert counted == expected_counts(client)
        assert set(counted) == {(u.id, "STUD7") for u in (ann, bob, cid)}  # the bot's seat counts nothing
        assert counted[ann.id, "STUD7"]["hands"] >= 4
        # summing every stored hand again gives the same rows
        assert run(client, rebuild_counts) >= 4 and stored_counts(client) == counted
        # the same, from the command line (the URL from the environment: --db refuses one with a password)
        monkeypatch.setenv("STUDPOKER_DB_URL", settings.db_url)
        assert main(["admin", "recount-hud"]) == 0
        assert stored_counts(client) == counted

        # opt-in: off until the account turns it on
        assert ann.get("/api/me/preferences").json()["hud"] is False
        off = hud(ann, table_id)
        assert off.status_code == 200 and off.json()["on"] is False and off.json()["players"] == []
        change = ann.post("/api/me/preferences", {"hud": True, "hud_stats": ["vpip", "wtsd", "vpip"]})
        assert change.status_code == 200 and change.json()["hud_stats"] == ["vpip", "wtsd"]  # repeats dropped

        answer = hud(ann, table_id)
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["on"] is True and body["variant"] == "STUD7"
        assert [s["key"] for s in body["stats"]] == ["vpip", "wtsd"]
        assert [(p["seat"], p["name"]) for p in body["players"]] == [(2, "bob"), (3, "cid")]  # not ann, not the bot
        for player, user in zip(body["players"], (bob, cid), strict=True):
            assert set(player) == {"seat", "name", "hands", "stats"}
            counts = counted[user.id, "STUD7"]
            assert player["hands"] == counts["hands"]
            vpip = counts["vpip"] / counts["vpip_chance"]
            assert player["stats"][0] == {"key": "vpip", "value": vpip, "text": f"{round(vpip * 100)}%"}
        # no card (the counts were taken from every card), nothing private of bob's
        text = answer.text
        assert cards_in(body) == set()
        for private in ("secret-note-xyz", "zed", "muted", "preferences", "password", "email", "account_id"):
            assert private not in text

        # a table he does not sit at, a table that is not open, no session
        assert dan.post("/api/me/preferences", {"hud": True}).status_code == 200
        refused = hud(dan, table_id)
        assert refused.status_code == 403 and "bob" not in refused.text
        assert hud(ann, table_id + 100).status_code == 404
        assert client.get(f"/api/tables/{table_id}/hud").status_code == 401

        # the tracker imports the room's hands: one PHH file of the table's hands, each as the asker may see it
        finished = run(client, lambda s: s.scalars(select(HandRow.number).where(HandRow.status == "finished")).all())
        export = ann.get(f"/api/tables/{table_id}/hands/export.phhs")
        assert export.status_code == 200 and "attachment" in export.headers["content-disposition"]
        public = client.get(f"/api/tables/{table_id}/hands/export.phhs").text
        singles = [client.get(f"/api/tables/{table_id}/hands/{n}.phh").text for n in sorted(finished)]
        assert public == "\n".join(f"[{i}]\n{text}" for i, text in enumerate(singles, 1))  # no card more than each
        (tmp_path / "room.phhs").write_text(export.text, encoding="utf-8")
        with Store(tmp_path / "tracker.db") as store:
            first = import_paths(store, [tmp_path / "room.phhs"], workers=1)
            again = import_paths(store, [tmp_path / "room.phhs"], workers=1)
            assert (first.added.imported, first.added.refused, again.added.duplicates) == (
                len(finished),
                0,
                len(finished),
            )
            [ann_total] = store.totals(Filters(players=("ann",)))
            assert ann_total["hands"] == counted[ann.id, "STUD7"]["hands"]
        assert client.get(f"/api/tables/{table_id}/hands/export.phhs?limit=1001").status_code == 400


def test_the_chooser_refuses_unknown_long_and_hostile_lists(client: TestClient) -> None:
    ann = signup(client, "ann")

    def change(body: object) -> Any:
        return client.post("/api/me/preferences", json=body, headers=ann.headers)

    unknown = change({"hud_stats": ["vpip", "hole_cards"]})
    assert unknown.status_code == 400 and "'hole_cards' is not a statistic" in unknown.text
    assert change({"hud_stats": ["vpip"] * (MAX_HUD_STATS + 1)}).status_code == 400  # too many, even as repeats
    assert change({"hud_stats": ["x" * 33]}).status_code == 400
    assert change({"hud_stats": ["VPIP"]}).status_code == 400
    assert change({"hud_stats": ["<script>"]}).status_code == 400
    assert change({"hud_stats": "vpip"}).status_code == 400
    assert change({"hud_stats": None}).status_code == 400
    assert change({"hud_stats": [1]}).status_code == 400
    assert change({"hud": "yes"}).status_code == 400
    assert change({"hud_stats": ["vpip"] * 100_000}).status_code == 413  # past the body's bound: never parsed
    assert change({"hud_stats": []}).json()["hud_stats"] == []  # n alone
    prefs = ann.get("/api/me/preferences").json()
    assert prefs["hud"] is False and prefs["hud_stats"] == []
    assert client.post("/api/me/preferences", json={"hud": True}).status_code == 401
    offered = client.get("/api/hud/stats").json()
    assert [s["key"] for s in offered["stats"]] == list(STATS) and offered["max"] == MAX_HUD_STATS


def test_hud_reads_are_rate_limited(tmp_path: Path) -> None:
    with room_client(make_settings(tmp_path, hud_reads_per_minute=3)) as client:
        ann = signup(client, "ann")
        table_id = create_table(ann)
        assert [hud(ann, table_id).status_code for _ in range(3)] == [403, 403, 403]
        limited = hud(ann, table_id)
        assert limited.status_code == 429 and int(limited.headers["retry-after"]) >= 1


def test_a_hand_that_does_not_replay_counts_nothing_and_voided_hands_are_never_read(tmp_path: Path) -> None:
    assert hand_counts("not a hand", [{"seat": 1, "account_id": 1}]) == []
    engine = make_engine(f"sqlite:///{tmp_path / 'hud.db'}")
    migrate(engine)
    columns = {c["name"] for c in inspect(engine).get_columns("hud_counts")}
    assert {"account_id", "variant", *COUNT_FIELDS} <= columns  # a new count field needs a revision
    engine.dispose()
    with room_client(make_settings(tmp_path)) as client:
        ann = signup(client, "ann")
        table_id = create_table(ann)

        def voided(session: Any) -> int:
            session.add(HandRow(table_id=table_id, number=1, status="voided", players=[], phh=None))
            return rebuild_counts(session)

        assert run(client, voided) == 0 and stored_counts(client) == {}
