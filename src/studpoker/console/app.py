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
import hmac
import ipaddress
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..engine import Phase, Stud5Opening, Variant
from ..engine.codec import action_from_json, action_to_json
from ..engine.dealer import first_actors, first_to_act_of
from ..engine.errors import EngineError
from ..engine.events import ActionTaken, Burned, CardDealt, CommunityCard, StreetStarted
from . import journal
from .irregularities import CASES, Ruling
from .schemas import (
    MAX_BODY,
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
from .session import DealerSession, Needed, Step
from .sign import ODD_CHIP_NAMES, ConsoleError, Sign

__all__ = ["DEFAULT_PORT", "STATIC", "create_app", "served_hosts"]

#: The port ``stud dealer`` listens on unless told.
DEFAULT_PORT = 8765
#: The page's folder: dealer.html, dealer.js, dealer.css.
STATIC = Path(__file__).parent / "static"
#: Every answer carries these: no inline script, no framing, no sniffing, no referrer.
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}
_LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class RefusedError(Exception):
    """An HTTP refusal in the contract's shape: ``status``, ``code`` and the message."""

    def __init__(self, status: int, code: str, message: str, **extra: object) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra


def _error(status: int, code: str, message: str, **extra: object) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, **extra}}, status_code=status)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _is_wildcard(host: str) -> bool:
    return host in ("0.0.0.0", "::", "[::]", "")


def served_hosts(host: str, port: int) -> tuple[str, ...]:
    """The Host headers the console answers when bound to ``host``:``port``: that host with the port (and without
    it on port 80), and every loopback name when bound to loopback or to every address. A wildcard bind (0.0.0.0)
    also answers any IP address with the port (:func:`create_app`): a DNS rebinding attack needs a name.

    >>> served_hosts("127.0.0.1", 8765)
    ('127.0.0.1:8765', 'localhost:8765', '[::1]:8765')
    >>> served_hosts("192.168.1.20", 80)
    ('192.168.1.20:80', '192.168.1.20')
    """
    name = f"[{host}]" if ":" in host and not host.startswith("[") else host
    names = list(_LOOPBACK_NAMES) if _is_loopback(host) or _is_wildcard(host) else [name]
    if name not in names:
        names.insert(0, name)
    out = [f"{n}:{port}" for n in names]
    if port == 80:
        out += names
    return tuple(out)


def _ip_host(value: str, port: int) -> bool:
    """Whether a Host header is an IP address with ``port`` (what a wildcard bind answers)."""
    address, _, given = value.rpartition(":")
    if not address or given != str(port):
        return False
    try:
        ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return False
    return True


class _Guard:
    """The ASGI layer in front of the app: the Host check (DNS rebinding), the Origin check of every POST but the
    card reader's, the body-size cap, and the security headers on every answer (the refusals' too)."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str], wildcard_port: int | None, token: str | None) -> None:
        self.app, self.hosts, self.wildcard_port, self.token = app, hosts, wildcard_port, token
        self.origins = frozenset(f"http://{h}" for h in hosts)

    def _reader_refusal(self, authorization: str) -> RefusedError | None:
        """Why a card reader's post is refused (no token set, or not the right one), or ``None``; the token is
        compared in constant time."""
        if self.token is None:
            return RefusedError(403, "forbidden", "no card reader is set up: start stud dealer with --reader")
        scheme, _, value = authorization.partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(value.strip().encode(), self.token.encode()):
            return RefusedError(403, "forbidden", "the card reader's token is missing or wrong")
        return None

    def _host_ok(self, host: str) -> bool:
        if host in self.hosts:
            return True
        return self.wildcard_port is not None and _ip_host(host, self.wildcard_port)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                for name, value in SECURITY_HEADERS.items():
                    if name.encode() not in present:
                        headers.append((name.encode(), value.encode()))
                if scope["path"].startswith("/api/"):
                    headers.append((b"cache-control", b"no-store"))
                message["headers"] = headers
            await send(message)

        headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]}
        host = headers.get("host", "").lower()
        refusal: RefusedError | None = None
        named = sum(1 for name, _ in scope["headers"] if name.lower() in (b"host", b"origin", b"authorization"))
        if named > sum(1 for name in ("host", "origin", "authorization") if name in headers):
            refusal = RefusedError(403, "forbidden", "a request names its Host, Origin and Authorization once each")
        elif not self._host_ok(host):
            refusal = RefusedError(403, "forbidden", f"this console does not serve the host {host[:100]!r}")
        elif scope["path"] == "/api/reader":
            refusal = self._reader_refusal(headers.get("authorization", ""))
        elif scope["method"] not in ("GET", "HEAD"):
            origin = headers.get("origin")
            if origin is None:
                refusal = RefusedError(403, "forbidden", "a change must come from the console's own page (no Origin)")
            elif origin.lower() not in self.origins and origin.lower() != f"http://{host}":
                refusal = RefusedError(
                    403, "forbidden", f"a change must come from the console's own page, not {origin[:100]!r}"
                )
        if refusal is None:
            size = headers.get("content-length", "0")
            if not size.isdigit() or int(size) > MAX_BODY:
                refusal = RefusedError(413, "too_large", f"a request body is at most {MAX_BODY} bytes")
        if refusal is None and scope["method"] not in ("GET", "HEAD"):
            body, more = b"", True
            while more:  # the whole body first (a chunked one has no Content-Length): at most MAX_BODY bytes
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                body += message.get("body", b"")
                more = message.get("more_body", False)
                if len(body) > MAX_BODY:
                    refusal = RefusedError(413, "too_large", f"a request body is at most {MAX_BODY} bytes")
                    break
            if refusal is None:
                sent = False

                async def replay() -> Message:
                    nonlocal sent
                    if sent:
                        return await receive()
                    sent = True
                    return {"type": "http.request", "body": body, "more_body": False}

                await self.app(scope, replay, secured)
                return
        if refusal is not None:
            response = _error(refusal.status, refusal.code, refusal.message)
            await response(scope, receive, secured)
            return
        await self.app(scope, receive, secured)


# -- the state, as the page reads it ------------------------------------------------------------------------


def _street_name(street: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(street, "th")
    return f"{street}{suffix} street"


def _sign_json(sign: Sign) -> dict[str, Any]:
    odd = next((name for name, rule in ODD_CHIP_NAMES.items() if rule is sign.odd_chip), sign.odd_chip.value)
    text = (
        f"{sign.game.title}: {sign.small_bet}/{sign.big_bet}, ante {sign.ante}, bring-in {sign.bring_in},"
        f" minimum buy-in {sign.min_buy_in}, odd chip: {odd}"
    )
    return {
        "game": sign.game.name,
        "title": sign.game.title,
        "text": text,
        "small_bet": sign.small_bet,
        "big_bet": sign.big_bet,
        "ante": sign.ante,
        "bring_in": sign.bring_in,
        "min_buy_in": sign.min_buy_in,
        "odd_chip": odd,
    }


def _card_text(card: object) -> str:
    return "??" if card is None else str(card)


def describe(entry: dict[str, Any]) -> str:
    """A journal entry in words (what Undo would take back)."""
    kind = entry.get("entry")
    seat = entry.get("seat")
    if kind == "buy-in":
        return f"{entry['name']} buys in for {entry['chips']} in seat {seat}"
    if kind == "top-up":
        return f"seat {seat} tops up {entry['chips']}"
    if kind == "leave":
        return f"seat {seat} leaves"
    if kind == "start":
        return f"start hand {entry['hand']}"
    if kind == "card":
        card = entry["card"]
        if seat is None:
            return f"turn {card} as the community card"
        return f"deal an unseen card to seat {seat}" if card == "??" else f"deal {card} to seat {seat}"
    if kind == "action":
        amount = f" {entry['amount']}" if entry.get("amount") else ""
        return f"seat {seat}: {entry['action']}{amount}"
    if kind == "reveal":
        return f"seat {seat} shows {' '.join(entry['cards'])}"
    if kind == "irregularity":
        about = ", ".join(x for x in (f"seat {seat}" if seat else "", entry.get("card") or "") if x)
        return f"irregularity: {entry['case']}{f' ({about})' if about else ''}"
    return str(kind)


def _players(session: DealerSession) -> tuple[int, ...]:
    """The seats dealt into the hand being played, in position order: every seat with chips as it was started
    (R3.6; the seats' chips change only between hands)."""
    unit = session.rules.chip_unit
    return tuple(seat for seat, (_, chips) in sorted(session.seats.items()) if chips >= unit)


def _high_on_board(session: DealerSession) -> int | None:
    """The player (index) whose board is high (razz: low) and made him first to act on this street, if a board
    decided it; ``None`` on a first street with a bring-in and before the street's last card is down."""
    hand = session.hand
    if hand is None:
        return None
    events = hand.events
    began = max((i for i, e in enumerate(events) if isinstance(e, StreetStarted)), default=0)
    rules = session.rules
    bring_in = not (rules.variant is Variant.STUD5 and rules.stud5_opening is Stud5Opening.HIGH_CARD_OPENS)
    first = next((i for i in range(began, len(events)) if isinstance(events[i], ActionTaken)), None)
    if first is not None:
        facts = first_actors(events, rules.variant, bring_in=bring_in).get(first)
    elif hand.phase is Phase.BET and (hand.street != hand.first_street or not bring_in):
        facts = first_to_act_of(hand.view(None))
    else:
        facts = None
    return None if facts is None else facts.high


def _burn_first(session: DealerSession, needed: Needed) -> bool:
    """Whether the card asked for follows a burn card the engine took (a street's first card: R4.4)."""
    hand = session.hand
    if hand is None or needed.kind != "card":
        return False
    for event in reversed(hand.events):
        if isinstance(event, Burned):
            return True
        if isinstance(event, CardDealt | CommunityCard):
            return False
    return False


def _needed_json(needed: Needed) -> dict[str, Any]:
    return {
        "kind": needed.kind,
        "text": str(needed),
        "seat": needed.seat,
        "name": needed.name,
        "face_up": needed.face_up,
        "street": needed.street,
        "note": needed.note,
        "seats": list(needed.seats),
    }


def _no_session(reader: bool) -> dict[str, Any]:
    return {
        "sign": None,
        "max_seats": 0,
        "seats": [],
        "hand": 0,
        "playing": False,
        "street": 0,
        "street_name": "",
        "burns": 0,
        "burn_first": False,
        "community": None,
        "needed": {
            "kind": "sign",
            "text": "enter the table's sign",
            "seat": None,
            "name": "",
            "face_up": False,
            "street": 0,
            "note": "",
            "seats": [],
        },
        "actions": [],
        "pot": 0,
        "pots": [],
        "said": [],
        "pushes": [],
        "journal": 0,
        "last": None,
        "cases": _cases(),
        "reader": reader,
    }


def _cases() -> list[dict[str, Any]]:
    return [{"case": c.name, "seat": c.seat, "card": c.card, "rule": c.rule} for c in CASES.values()]


def state_json(session: DealerSession | None, *, reader: bool) -> dict[str, Any]:
    """The ``State`` of the contract: everything the page shows."""
    if session is None:
        return _no_session(reader)
    hand = session.hand
    needed = session.needed()
    players = _players(session) if hand is not None else ()
    if hand is not None and len(players) != hand.n:  # pragma: no cover - the seats' chips change between hands only
        raise RuntimeError(f"the hand has {hand.n} players but {len(players)} seats have chips")
    high = _high_on_board(session)
    seats = []
    for seat, (name, chips) in sorted(session.seats.items()):
        row: dict[str, Any] = {
            "seat": seat,
            "name": name,
            "chips": chips,
            "in_hand": False,
            "folded": False,
            "all_in": False,
            "up": [],
            "down": [],
            "bet": 0,
            "to_act": needed.kind == "action" and needed.seat == seat,
            "high_on_board": False,
        }
        if hand is not None and seat in players:
            p = players.index(seat)
            row.update(
                chips=hand.stacks[p],
                in_hand=True,
                folded=hand.folded(p),
                all_in=hand.all_in(p),
                up=[_card_text(c) for c in hand.up_cards(p)],
                down=[_card_text(c) for c in hand.down_cards(p)],
                bet=hand.bets[p],
                high_on_board=high == p,
            )
        seats.append(row)
    actions: list[dict[str, Any]] = []
    if hand is not None and needed.kind == "action":
        for label, action in zip(needed.options, hand.legal_actions(), strict=True):
            coded = action_to_json(action)
            actions.append({"label": label, "action": coded["action"], "amount": coded["amount"]})
    pots = []
    if hand is not None:
        for number, pot in enumerate(hand.pots):
            pots.append(
                {
                    "name": "main pot" if number == 0 else f"side pot {number}",
                    "amount": pot.amount,
                    "seats": [players[p] for p in pot.eligible],
                }
            )
    pushes: list[dict[str, Any]] = []
    if hand is None and session.hand_number > 0:
        try:
            pushes = [
                {"seat": push.seat, "name": push.name, "amount": push.amount, "text": str(push)}
                for push in session.pushes()
            ]
        except ConsoleError:  # no hand finished yet
            pushes = []
    entries = session.journal
    return {
        "sign": _sign_json(session.sign),
        "max_seats": session.sign.max_seats,
        "seats": seats,
        "hand": session.hand_number,
        "playing": hand is not None,
        "street": hand.street if hand is not None else 0,
        "street_name": _street_name(hand.street) if hand is not None else "",
        "burns": sum(1 for e in hand.events if isinstance(e, Burned)) if hand is not None else 0,
        "burn_first": _burn_first(session, needed),
        "community": None if hand is None or hand.community_card is None else str(hand.community_card),
        "needed": _needed_json(needed),
        "actions": actions,
        "pot": hand.pot if hand is not None else 0,
        "pots": pots,
        "said": list(session.announcements),
        "pushes": pushes,
        "journal": len(entries),
        "last": describe(entries[-1]) if entries else None,
        "cases": _cases(),
        "reader": reader,
    }


def _ruling_json(ruling: Ruling | None) -> dict[str, Any] | None:
    if ruling is None:
        return None
    return {
        "case": ruling.case,
        "what": ruling.what,
        "ruling": ruling.ruling,
        "rule": ruling.rule,
        "next": ruling.next,
        "text": str(ruling),
    }


# -- the app ------------------------------------------------------------------------------------------------


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
        return {"state": self.state(), "said": list(said), "ruling": _ruling_json(ruling)}

    def keep(self, step: Step) -> Step:
        """Append an accepted entry to the journal file (fsync'd); if the file cannot take it, the entry is
        undone and refused, so the session and the file agree."""
        session = self.need()
        try:
            journal.append(self.path, step.entry)
        except OSError as error:
            session.undo()
            with contextlib.suppress(OSError):  # a line half written is replaced by the whole journal
                session.save(self.path)
            raise RefusedError(
                503, "refused", f"the journal file could not be written ({error.strerror}): the entry was not taken"
            ) from None
        return step

    def sign(self, body: SignIn) -> dict[str, Any]:
        if self.session is not None and self.session.journal:
            raise RefusedError(409, "refused", "the session has begun: a new sign only while the journal is empty")
        odd = body.odd_chip if body.odd_chip is not None else "high card"
        sign = Sign.of(
            body.game, body.small_bet, body.big_bet, body.ante, body.bring_in, min_buy_in=body.min_buy_in, odd_chip=odd
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
        return _error(409, "refused", str(error))

    @app.exception_handler(RefusedError)
    async def _refusal(request: Request, error: RefusedError) -> JSONResponse:
        return _error(error.status, error.code, error.message, **error.extra)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = []
        for item in error.errors()[:5]:
            where = ".".join(str(part) for part in item.get("loc", ()) if part != "body") or "body"
            problems.append(f"{where}: {str(item.get('msg', 'not valid'))[:200]}")
        return _error(422, "invalid", "; ".join(problems) or "the body does not fit")

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, error: StarletteHTTPException) -> JSONResponse:
        code = {403: "forbidden", 404: "not_found", 413: "too_large"}.get(error.status_code, "invalid")
        message = "no such page" if error.status_code == 404 else str(error.detail)
        return _error(error.status_code, code, message)

    @app.exception_handler(Exception)
    async def _internal(request: Request, error: Exception) -> JSONResponse:  # pragma: no cover - a bug of ours
        return _error(500, "internal", f"the console failed: {type(error).__name__}")

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
    return _Guard(app, hosts, port if _is_wildcard(host) else None, token)
