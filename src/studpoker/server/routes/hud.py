"""The HUD (docs/server.md "HUD"): the statistics one may choose, and at a table where the asker sits, the chosen
statistics of each other account seated there, from the room's own hands in the table's game now.

The HUD is opt-in (the ``hud`` preference, off by default) and shows sums of counts only (:mod:`..hud`): never a
card, never a hand, nothing of an account but the name the table shows and its statistics; nothing of a table the
asker does not sit at. Reads are counted per account (``Settings.hud_reads_per_minute``, then 429).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends
from sqlalchemy import select
from sqlalchemy.orm import Session

from ...tracker.stats import STATS, Stat, ratios
from ..db import Account, SeatRow
from ..deps import CurrentAccount, OpenTable, RoomDep, check_csrf
from ..errors import ApiError
from ..hud import totals_of
from ..hudschemas import DEFAULT_HUD_STATS, MAX_HUD_STATS, Hud, HudStats
from ..protocol import TableSummary
from . import errors
from .auth import stored_preferences

router = APIRouter(prefix="/api", tags=["hud"], dependencies=[Depends(check_csrf)])


def _stat(stat: Stat) -> dict[str, Any]:
    return {"key": stat.key, "label": stat.label, "percent": stat.percent, "doc": stat.doc}


def shown(stat: Stat, value: float | None) -> str:
    """A statistic as the HUD writes it: ``34%`` (a percentage), ``1.5`` (another number), ``-`` (not seen yet).

    >>> shown(STATS["vpip"], 0.3449), shown(STATS["af"], 1.5), shown(STATS["net"], 57.0), shown(STATS["vpip"], None)
    ('34%', '1.5', '57', '-')
    """
    if value is None:
        return "-"
    if stat.percent:
        return f"{round(value * 100)}%"
    return f"{value:.1f}".removesuffix(".0")


def game_now(info: TableSummary) -> str:
    """The table's game now (a mixed table's is the one of the hand in play, else of the next hand)."""
    mix = info["mix"]
    return mix["games"][mix["now"]]["variant"] if mix is not None else info["variant"]


@router.get("/hud/stats")
async def hud_stats() -> HudStats:
    """The statistics the HUD offers (choose some with ``POST /api/me/preferences`` ``hud_stats``). No sign-in
    needed."""
    return HudStats.model_validate(
        {"stats": [_stat(s) for s in STATS.values()], "max": MAX_HUD_STATS, "default": DEFAULT_HUD_STATS}
    )


@router.get("/tables/{table_id}/hud", responses=errors(401, 403, 404, 429))
async def table_hud(who: CurrentAccount, room: RoomDep, actor: OpenTable) -> Hud:
    """The HUD of a table the asker sits at: each other account seated there (not bots), with the statistics he
    chose and the hands counted, in the table's game now. With the HUD off, nobody (``on`` false)."""
    throttle = room.front.hud_reads
    wait = throttle.retry_after(str(who.id))
    if wait:
        raise ApiError(
            429, "rate_limited", f"the HUD was read too often: try again in {wait} s", {"Retry-After": str(wait)}
        )
    throttle.add(str(who.id))
    table_id, variant = actor.id, game_now(actor.info())

    def work(session: Session) -> dict[str, Any]:
        seats = session.execute(
            select(SeatRow.seat, SeatRow.name, SeatRow.account_id).where(SeatRow.table_id == table_id)
        ).all()
        if not any(account == who.id for _, _, account in seats):
            raise ApiError(403, "forbidden", "the HUD shows the players of a table you sit at: sit down first")
        prefs = stored_preferences(session.scalar(select(Account.preferences).where(Account.id == who.id)))
        chosen = [STATS[k] for k in prefs.hud_stats]
        answer: dict[str, Any] = {"table_id": table_id, "variant": variant, "on": prefs.hud, "players": []}
        answer["stats"] = [_stat(s) for s in chosen]
        if not prefs.hud:
            return answer
        others = [(seat, name, account) for seat, name, account in seats if account is not None and account != who.id]
        totals = totals_of(session, [account for _, _, account in others], variant)
        for seat, name, account in sorted(others):
            counts = totals.get(account, {})
            values = ratios(counts)
            answer["players"].append(
                {
                    "seat": seat,
                    "name": name,
                    "hands": int(counts.get("hands", 0)),
                    "stats": [
                        {"key": s.key, "value": values.get(s.key), "text": shown(s, values.get(s.key))} for s in chosen
                    ],
                }
            )
        return answer

    return Hud.model_validate(await room.db.run(work))
