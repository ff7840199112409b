"""The dealer's web console (``stud dealer``): the HTTP backend of the tablet page over a :class:`DealerSession`.

The contract is docs/console.md (the web console): ``GET /api/state`` and the other readings, one ``POST`` for each
kind of entry, errors as ``{"error": {"code", "message"}}``. The session is kept in a journal file: every accepted
entry is appended and fsync'd before the answer, an undo rewrites the file, and a new app on the same file picks up
where the last one stopped, so a tablet switched off mid-hand loses nothing.

It is a local app, but any web page open on the same device could send it requests: every POST must come from the
console's own origin, every request must name the host it serves (DNS rebinding), the card reader's endpoint needs
a bearer token, and the page may not be framed or run inline script. Only the CLI and the tests import this module
(it needs FastAPI, the ``server`` extra); ``import studpoker.console`` does not.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..engine.codec import action_from_json
from ..engine.errors import EngineError
from . import journal
from .guard import ASGIApp, Guard, RefusedError, error_response, is_wildcard, served_hosts
from .irregularities import Ruling
from .journal import JournalError
from .schemas import (
    MAX_CHIPS,
    ActionIn,
    BuyIn,
    CardIn,
    Empty,
    IrregularityIn,
    Leave,
    ReaderIn,
    RevealIn,
    SignIn,
    TopUp,
)
from .session import DealerSession, Step
from .sign import ConsoleError, Sign
from .view import ruling_json, state_json

__all__ = ["DEFAULT_PORT", "STATIC", "create_app", "served_hosts"]

#: The port ``stud dealer`` listens on unless told.
DEFAULT_PORT = 8765
#: The page's folder: dealer.html, dealer.js, dealer.css.
STATIC = Path(__file__).parent / "static"


class Console:
    """The session behind the app and its journal file; every change goes through :meth:`change` under one
    lock, and is on disk before it is answered."""

    def __init__(self, path: Path, token: str | None) -> None:
        self.path = path
        self.token = token
        self.lock = asyncio.Lock()
        self.session: DealerSession | None = DealerSession.load(path) if path.exists() else None

    def need(self) -> DealerSession:
        if self.session is None:
            raise ConsoleError("no session yet: enter the table's sign first")
        return self.session

    def state(self) -> dict[str, Any]:
        return state_json(self.session, reader=self.token is not None)

    def answer(self, said: Iterable[str] = (), ruling: Ruling | None = None) -> dict[str, Any]:
        return {"state": self.state(), "said": list(said), "ruling": ruling_json(ruling)}

    def keep(self, step: Step) -> Step:
        """Append an accepted entry to the journal file (fsync'd); if the file cannot take it, the entry is
        undone and refused, so the session and the file agree."""
        session = self.need()
        try:
            journal.append(self.path, step.entry)
        except (OSError, JournalError) as error:  # JournalError: the file is gone (moved, deleted)
            session.undo()
            with contextlib.suppress(OSError):  # a line half written (or the file gone) is replaced by the journal
                session.save(self.path)
            why = error.strerror if isinstance(error, OSError) else str(error)
            raise RefusedError(
                503, "refused", f"the journal file could not be written ({why}): the entry was not taken"
            ) from None
        return step

    def sign(self, body: SignIn) -> dict[str, Any]:
        if self.session is not None and self.session.journal:
            raise RefusedError(409, "refused", "the session has begun: a new sign only while the journal is empty")
        odd = body.odd_chip if body.odd_chip is not None else "high card"
        sign = Sign.of(
            body.game,
            body.small_bet,
            body.big_bet,
            body.ante,
            body.bring_in,
            min_buy_in=body.min_buy_in,
            odd_chip=odd,
            seventh_card=body.seventh_card or "replace",
        )
        if sign.min_buy_in is not None and sign.min_buy_in > MAX_CHIPS:
            raise RefusedError(
                409, "refused", f"the minimum buy-in {sign.min_buy_in} is above the largest buy-in taken, {MAX_CHIPS}"
            )
        session = DealerSession(sign)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            journal.save(self.path, sign, [])
        except OSError as error:
            raise RefusedError(503, "refused", f"the journal file could not be written ({error.strerror})") from None
        self.session = session
        return self.answer()

    def act(self, body: ActionIn) -> Step:
        session = self.need()
        hand = session.hand
        if hand is None or session.needed().kind != "action":
            return session.act(body.action)  # refused, saying what is needed
        reply: dict[str, Any] = {"action": body.action, "amount": body.amount}
        try:
            action = action_from_json(reply, hand.legal_actions())
        except EngineError as error:
            raise ConsoleError(str(error)) from None
        return session.act(action)

    def undo(self) -> dict[str, Any]:
        session = self.need()
        dropped = session.undo()
        try:
            session.save(self.path)
        except OSError as error:
            session.enter(dropped)
            raise RefusedError(503, "refused", f"the journal file could not be written ({error.strerror})") from None
        return self.answer()

    def reader(self, body: ReaderIn) -> dict[str, Any]:
        session = self.need()
        said: list[str] = []
        for number, card in enumerate(body.cards, 1):
            try:
                step = self.keep(session.deal(card))
            except ConsoleError as error:
                raise RefusedError(
                    409,
                    "refused",
                    f"card {number} of {len(body.cards)} ({card}): {error}; {number - 1} dealt before it",
                    dealt=number - 1,
                ) from None
            said += step.said
        return self.answer(said)


def create_app(
    journal_path: Path,
    *,
    token: str | None = None,
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    allowed_hosts: Iterable[str] = (),
    static: Path | None = None,
) -> ASGIApp:
    """The console's ASGI app over the journal at ``journal_path`` (loaded if it exists: a
    :class:`~studpoker.console.JournalError` naming the line if it is not right; else the session begins with
    ``POST /api/sign``). ``token``: the card reader's bearer token (no reader without one). ``host`` and ``port``:
    where it is served, for the Host and Origin checks; ``allowed_hosts`` adds Host values (the tests'
    ``testserver``). ``static``: the page's folder (:data:`STATIC`)."""
    console = Console(Path(journal_path), token)
    folder = STATIC if static is None else Path(static)
    app = FastAPI(title="stud dealer", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.console = console

    @app.exception_handler(ConsoleError)
    async def _refused(request: Request, error: ConsoleError) -> JSONResponse:
        return error_response(409, "refused", str(error))

    @app.exception_handler(RefusedError)
    async def _refusal(request: Request, error: RefusedError) -> JSONResponse:
        return error_response(error.status, error.code, error.message, **error.extra)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = []
        for item in error.errors()[:5]:
            where = ".".join(str(part) for part in item.get("loc", ()) if part != "body") or "body"
            problems.append(f"{where}: {str(item.get('msg', 'not valid'))[:200]}")
        return error_response(422, "invalid", "; ".join(problems) or "the body does not fit")

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, error: StarletteHTTPException) -> JSONResponse:
        code = {403: "forbidden", 404: "not_found", 413: "too_large"}.get(error.status_code, "invalid")
        message = "no such page" if error.status_code == 404 else str(error.detail)
        status = 422 if error.status_code == 400 else error.status_code  # a body that does not parse: invalid
        return error_response(status, code, message)

    @app.exception_handler(Exception)
    async def _internal(request: Request, error: Exception) -> JSONResponse:  # pragma: no cover - a bug of ours
        return error_response(500, "internal", f"the console failed: {type(error).__name__}")

    # -- reading

    @app.get("/")
    async def page() -> FileResponse:
        html = folder / "dealer.html"
        if not html.is_file():
            raise StarletteHTTPException(404)
        return FileResponse(html, media_type="text/html; charset=utf-8")

    @app.get("/api/state")
    async def state() -> dict[str, Any]:
        return console.state()

    @app.get("/api/report")
    async def report() -> dict[str, Any]:
        result = console.need().report()
        players = [
            {
                "name": p.name,
                "seat": p.seat,
                "bought_in": p.bought_in,
                "topped_up": p.topped_up,
                "cashed_out": p.cashed_out,
                "stack": p.stack,
                "result": p.result,
            }
            for p in result.players
        ]
        return {
            "text": str(result),
            "hands": result.hands,
            "balanced": result.balanced,
            "players": players,
            "money_in": result.money_in,
            "chips_on_table": result.chips_on_table,
            "money_out": result.money_out,
        }

    @app.get("/api/hands.phh")
    async def hands_phh() -> PlainTextResponse:
        text = console.need().hands_phh()
        return PlainTextResponse(text, headers={"content-disposition": 'attachment; filename="hands.phh"'})

    @app.get("/api/hands/{number}.phh")
    async def hand_phh(number: int) -> PlainTextResponse:
        session = console.need()
        try:
            text = session.hand_phh(number)
        except ConsoleError as error:
            raise RefusedError(404, "not_found", str(error)) from None
        return PlainTextResponse(text, headers={"content-disposition": f'attachment; filename="hand-{number}.phh"'})

    # -- changing

    @app.post("/api/sign")
    async def sign(body: SignIn) -> dict[str, Any]:
        async with console.lock:
            return console.sign(body)

    async def entry(make: Callable[[DealerSession], Step]) -> dict[str, Any]:
        async with console.lock:
            step = console.keep(make(console.need()))
            return console.answer(step.said, step.ruling)

    @app.post("/api/buy-in")
    async def buy_in(body: BuyIn) -> dict[str, Any]:
        return await entry(lambda s: s.buy_in(body.seat, body.name, body.chips))

    @app.post("/api/top-up")
    async def top_up(body: TopUp) -> dict[str, Any]:
        return await entry(lambda s: s.top_up(body.seat, body.chips))

    @app.post("/api/leave")
    async def leave(body: Leave) -> dict[str, Any]:
        return await entry(lambda s: s.leave(body.seat))

    @app.post("/api/start")
    async def start(body: Empty) -> dict[str, Any]:
        return await entry(lambda s: s.start_hand())

    @app.post("/api/card")
    async def card(body: CardIn) -> dict[str, Any]:
        return await entry(lambda s: s.deal(body.card))

    @app.post("/api/action")
    async def action(body: ActionIn) -> dict[str, Any]:
        return await entry(lambda s: console.act(body))

    @app.post("/api/reveal")
    async def reveal(body: RevealIn) -> dict[str, Any]:
        return await entry(lambda s: s.reveal(body.seat, body.cards))

    @app.post("/api/irregularity")
    async def irregularity(body: IrregularityIn) -> dict[str, Any]:
        return await entry(lambda s: s.irregularity(body.case, body.seat, body.card))

    @app.post("/api/undo")
    async def undo(body: Empty) -> dict[str, Any]:
        async with console.lock:
            return console.undo()

    @app.post("/api/reader")
    async def reader(body: ReaderIn) -> dict[str, Any]:
        """The card reader's cards (its token was checked by the guard, before the body was read)."""
        async with console.lock:
            return console.reader(body)

    if folder.is_dir():
        app.mount("/static", StaticFiles(directory=folder), name="static")

    hosts = frozenset(h.lower() for h in (*served_hosts(host, port), *allowed_hosts))
    return Guard(app, hosts, port if is_wildcard(host) else None, token)
