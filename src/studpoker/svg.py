"""Cards, hands and stud tables drawn as SVG, for notebooks and documents.

Every function returns :class:`Svg`, a ``str`` holding one whole ``<svg>`` element. Its ``_repr_svg_`` and
``_repr_html_`` return the text itself, so a Jupyter cell that ends with one draws it; ``str(...)`` or writing
it to a file gives the SVG. The drawing is a pure function of its arguments (the same state gives the same
bytes), uses the card room's colours (red hearts and diamonds, black clubs and spades, blue backs, the green
felt) and never writes a card it is not told to show: a hidden down card is drawn as a back, with nothing in the
text that names it.

>>> from studpoker.svg import card, cards
>>> ace = card("Ah", size=40)
>>> ace.startswith("<svg") and ace.endswith("</svg>"), ace._repr_svg_() == ace
(True, True)
>>> "<title>A♥</title>" in ace, 'fill="#c0191f"' in ace  # the card's name, in the card room's red
(True, True)
>>> row = cards(["Ks", None], label="King & a card")  # None: a face-down card
>>> "K♠" in row, "King &amp; a card" in row
(True, True)

:func:`table` draws a :class:`~studpoker.engine.HandState` (``HandState._repr_svg_`` calls it for a spectator).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .cards import SUIT_SYMBOLS, Card, Rank, Suit, parse_card

if TYPE_CHECKING:
    from .engine.state import HandState

__all__ = ["Svg", "card", "cards", "table"]

# The card room's colours (server/static/common.css and table.css).
_RED = "#c0191f"
_BLACK = "#161616"
_FACE = "#fff"
_FACE_EDGE = "#888"
_DOWN_FACE = "#fff8d6"  # a face-down card the viewer may see: told apart from up cards
_BACK = "#2f56b8"
_BACK_STRIPE = "#233f8f"
_BACK_EDGE = "#1a2e66"
_FELT = ("#0b4f2f", "#116b40", "#1f8a55")  # edge to centre
_RIM = "#6b3e1f"
_SEAT_EDGE = "#555"
_ACTING = "#f0b400"
_ME = "#1f5fbf"
_WINNER, _WINNER_GLOW = "#0b5d3b", "#2fbf71"
_ALL_IN = "#a11d1d"
_FOLDED = "#595959"
_INK = "#1d1d1b"
_FONT = "system-ui, -apple-system, Segoe UI, Roboto, DejaVu Sans, sans-serif"
_RATIO = 1.45  # a card's height over its width, as the card room draws them


class Svg(str):
    """SVG text (a ``str``) that notebooks draw: ``_repr_svg_`` and ``_repr_html_`` both return it."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        return str(self)


# -- text --------------------------------------------------------------------------------------------------


def _clean(text: str) -> str:
    """``text`` with the characters XML 1.0 forbids replaced, then escaped for content and attributes alike."""
    kept = "".join(
        ch
        if ch in "\t\n\r" or 0x20 <= ord(ch) <= 0xD7FF or 0xE000 <= ord(ch) <= 0xFFFD or ord(ch) >= 0x10000
        else "\ufffd"
        for ch in text
    )
    return kept.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _n(x: float) -> str:
    """A coordinate, short and the same on every machine: at most two decimals, no trailing zeros."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _text(x: float, y: float, text: str, *, size: float, fill: str, anchor: str = "start", bold: bool = False) -> str:
    weight = ' font-weight="700"' if bold else ""
    return (
        f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" fill="{fill}" text-anchor="{anchor}"{weight}>'
        f"{_clean(text)}</text>"
    )


def _width(text: str, size: float) -> float:
    """A rough width of ``text`` at ``size`` (no font metrics without I/O): enough to size a tag around it."""
    return len(text) * size * 0.6


def _document(width: float, height: float, body: Iterable[str], *, scale: float = 1.0) -> Svg:
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width * scale)}" height="{_n(height * scale)}" '
        f'viewBox="0 0 {_n(width)} {_n(height)}" font-family="{_FONT}">',
        *body,
        "</svg>",
    ]
    return Svg("".join(parts))


# -- cards -------------------------------------------------------------------------------------------------

CardLike = Card | str | None


def _as_card(value: CardLike) -> Card | None:
    if value is None or isinstance(value, Card):
        return value
    return parse_card(value)


def _back(x: float, y: float, w: float, h: float) -> str:
    """A face-down card: the card room's blue back, its diagonal stripes computed here (no ids to collide)."""
    r = w * 0.1
    inset = w * 0.1
    left, top, right, bottom = x + inset, y + inset, x + w - inset, y + h - inset
    step = max(w / 6, 3.0)
    lines = []
    # lines y - x = c (down to the right), clipped to the inner rectangle
    c = (top - right) + step
    while c < bottom - left:
        x1, y1 = max(left, top - c), max(top, left + c)
        x2, y2 = min(right, bottom - c), min(bottom, right + c)
        if x2 > x1:
            lines.append(f"M{_n(x1)} {_n(y1)}L{_n(x2)} {_n(y2)}")
        c += step
    stripes = "".join(lines)
    return (
        f'<g><rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="{_n(r)}" fill="{_BACK}" '
        f'stroke="{_BACK_EDGE}"/>'
        f'<path d="{stripes}" stroke="{_BACK_STRIPE}" stroke-width="{_n(max(step / 2.5, 1.0))}"/></g>'
    )


def _face(x: float, y: float, w: float, h: float, c: Card, *, down: bool = False) -> str:
    """A face-up card: rank over suit, centred, as the card room draws them; ``down``: a down card seen."""
    colour = _RED if c.suit in (Suit.HEARTS, Suit.DIAMONDS) else _BLACK
    r = w * 0.1
    edge = f'stroke="{_FACE_EDGE}" stroke-dasharray="{_n(w / 8)} {_n(w / 12)}"' if down else f'stroke="{_FACE_EDGE}"'
    size = w * 0.56
    cx = x + w / 2
    rank = "10" if c.rank is Rank.TEN else c.rank.char
    squeeze = f' textLength="{_n(size * 0.95)}" lengthAdjust="spacingAndGlyphs"' if c.rank is Rank.TEN else ""
    return (
        f"<g><title>{c.symbol}</title>"
        f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="{_n(r)}" '
        f'fill="{_DOWN_FACE if down else _FACE}" {edge}/>'
        f'<text x="{_n(cx)}" y="{_n(y + h * 0.45)}" font-size="{_n(size)}" font-weight="700" fill="{colour}" '
        f'text-anchor="middle"{squeeze}>{rank}</text>'
        f'<text x="{_n(cx)}" y="{_n(y + h * 0.86)}" font-size="{_n(size * 1.05)}" fill="{colour}" '
        f'text-anchor="middle">{SUIT_SYMBOLS[c.suit]}</text></g>'
    )


def _card_at(x: float, y: float, w: float, c: Card | None, *, down: bool = False) -> str:
    h = w * _RATIO
    return _back(x, y, w, h) if c is None else _face(x, y, w, h, c, down=down)


def card(card: CardLike, *, size: float = 60) -> Svg:
    """One card ``size`` pixels wide (``None``: its back). Text such as ``"Th"`` is parsed (``CardError`` if not a
    card)."""
    c = _as_card(card)
    pad = 2.0
    w, h = size, size * _RATIO
    return _document(w + 2 * pad, h + 2 * pad, [_card_at(pad, pad, w, c)])


def cards(items: Iterable[CardLike], *, size: float = 60, gap: float | None = None, label: str | None = None) -> Svg:
    """A row of cards ``size`` pixels wide, ``gap`` apart (a tenth of a card by default); ``None`` is a face-down
    card. ``label`` is a line of text under the row (escaped), e.g. a hand's description."""
    row = [_as_card(c) for c in items]
    space = size * 0.1 if gap is None else gap
    pad = 2.0
    w, h = size, size * _RATIO
    body = [_card_at(pad + i * (w + space), pad, w, c) for i, c in enumerate(row)]
    width = pad * 2 + max(len(row) * w + (len(row) - 1) * space, 0)
    height = h + 2 * pad
    if label is not None:
        font = max(size * 0.24, 10.0)
        width = max(width, _width(label, font) + 2 * pad)
        body.append(_text(pad, height + font, label, size=font, fill=_INK))
        height += font * 1.4
    return _document(width, height, body)


# -- the table ---------------------------------------------------------------------------------------------

_W, _H = 1000.0, 660.0
_CX, _CY = 500.0, 330.0
_FELT_RX, _FELT_RY = 390.0, 220.0
_SEAT_RX, _SEAT_RY = 395.0, 240.0
_SEAT_W, _SEAT_H = 178.0, 92.0
_SEAT_CARD = 26.0
_ANGLES = {n: tuple(90.0 + 360.0 * k / n for k in range(n)) for n in range(1, 11)}


_SUFFIX = {1: "st", 2: "nd", 3: "rd"}


def _ordinal(street: int) -> str:
    """``3rd street``, ``4th street``: as the terminal game and the card room say it."""
    return f"{street}{_SUFFIX.get(street, 'th')} street"


def _point(slot: int, n: int, rx: float, ry: float) -> tuple[float, float]:
    """Where seat ``slot`` of ``n`` sits: the bottom first, then clockwise (to the dealer's left, as cards go)."""
    angle = math.radians(_ANGLES[n][slot])
    return _CX + rx * math.cos(angle), _CY + ry * math.sin(angle)


def _pill(x: float, y: float, text: str, *, fill: str, ink: str, size: float = 11.0) -> tuple[str, float]:
    """A rounded tag whose left end is at ``x``, its text's baseline at ``y``; returns it and its width."""
    w = _width(text, size) + 10
    h = size + 5
    return (
        f'<rect x="{_n(x)}" y="{_n(y - size)}" width="{_n(w)}" height="{_n(h)}" rx="{_n(h / 2)}" fill="{fill}"/>'
        + _text(x + w / 2, y, text, size=size, fill=ink, anchor="middle", bold=True),
        w,
    )


def _bring_in(state: HandState) -> int | None:
    """The player who brought in (or was due to, and completed instead), from the log and the legal actions."""
    first = state.first_street
    for event in state.events:  # the first action of the hand (ActionTaken: read by its fields, the engine's own)
        action = getattr(event, "action", None)
        if action is not None and getattr(event, "street", None) == first:
            player: int = getattr(event, "player")  # noqa: B009  (events are a union; only ActionTaken has both)
            return player if action.kind.name in ("BRING_IN", "COMPLETE") else None
    due = state.street == first and state.actor is not None
    if due and any(a.kind.name == "BRING_IN" for a in state.legal_actions()):
        return state.actor
    return None


def _visible_downs(state: HandState, viewer: int | None, reveal: bool) -> list[tuple[Card | None, ...]]:
    """Each player's down cards as this drawing may show them: all of them with ``reveal``, else what ``viewer``
    (a spectator if ``None``) may see, the view the engine gives players: hidden cards are ``None``."""
    if reveal:
        return [state.down_cards(p) for p in range(state.n)]
    return [p.down for p in state.view(viewer).players]


def _seat(
    state: HandState,
    p: int,
    x: float,
    y: float,
    name: str,
    downs: tuple[Card | None, ...],
    *,
    viewer: int | None,
    bring_in: int | None,
    won: int,
) -> str:
    """One seat's box, its top-left corner at (``x``, ``y``): name, stack, cards, tags."""
    folded = state.folded(p)
    acting = state.actor == p
    out: list[str] = []
    if acting:
        edge, glow = _ACTING, _ACTING
    elif won:
        edge, glow = _WINNER, _WINNER_GLOW
    else:
        edge, glow = (_ME if p == viewer else _SEAT_EDGE), None
    out.append("<g>")
    if glow is not None:
        out.append(
            f'<rect x="{_n(x - 3)}" y="{_n(y - 3)}" width="{_n(_SEAT_W + 6)}" height="{_n(_SEAT_H + 6)}" rx="12" '
            f'fill="none" stroke="{glow}" stroke-width="4"/>'
        )
    out.append(
        f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(_SEAT_W)}" height="{_n(_SEAT_H)}" rx="9" '
        f'fill="{"#ebebeb" if folded else "#fff"}" stroke="{edge}" stroke-width="2"/>'
    )
    out.append('<g opacity="0.5">' if folded else "<g>")  # a folded player's box stays opaque, its contents dim
    shown_name = name if len(name) <= 16 else name[:15] + "…"
    out.append(_text(x + 8, y + 17, shown_name, size=13, fill=_INK, bold=True))
    out.append(_text(x + _SEAT_W - 8, y + 17, str(state.stacks[p]), size=13, fill=_INK, anchor="end"))
    # the cards in dealing order: the first down cards, the up cards, then the last down card (7th street)
    first_downs = state.first_street - 1
    row: list[tuple[Card | None, bool]] = [(c, True) for c in downs[:first_downs]]
    row += [(c, False) for c in state.up_cards(p)]
    row += [(c, True) for c in downs[first_downs:]]
    if row:
        room = _SEAT_W - 16
        step = _SEAT_CARD + 3 if len(row) == 1 else min(_SEAT_CARD + 3, (room - _SEAT_CARD) / (len(row) - 1))
        for i, (c, down) in enumerate(row):
            out.append(_card_at(x + 8 + i * step, y + 23, _SEAT_CARD, c, down=down))
    tags: list[tuple[str, str, str]] = []
    if p == bring_in and state.street == state.first_street:
        tags.append(("Bring-in", _ACTING, _INK))
    if state.all_in(p):
        tags.append(("All-in", _ALL_IN, "#fff"))
    if folded:
        tags.append(("Folded", _FOLDED, "#fff"))
    if won:
        tags.append((f"Wins {won}", _WINNER, "#fff"))
    tx = x + 8
    base = y + _SEAT_H - 8
    for label, fill, ink in tags:
        pill, w = _pill(tx, base, label, fill=fill, ink=ink)
        out.append(pill)
        tx += w + 4
    out.append(_text(tx, base, f"In pot {state.totals[p]}", size=11, fill="#333"))
    out.append("</g></g>")
    return "".join(out)


def _chip(x: float, y: float, amount: int) -> str:
    """A bet in front of a seat: a chip and the amount on a dark tag, centred on (``x``, ``y``)."""
    label = str(amount)
    w = _width(label, 12) + 28
    left = x - w / 2
    return (
        f'<g class="bet"><rect x="{_n(left)}" y="{_n(y - 10)}" width="{_n(w)}" height="20" rx="10" fill="{_INK}"/>'
        f'<circle cx="{_n(left + 10)}" cy="{_n(y)}" r="7" fill="#c62828" stroke="#fff" stroke-width="2" '
        f'stroke-dasharray="3 2"/>' + _text(left + 21, y + 4.5, label, size=12, fill="#fff", bold=True) + "</g>"
    )


def _status(state: HandState, name: Sequence[str]) -> list[str]:
    """What the hand waits for, or how it ended: the centre's last lines."""
    phase = state.phase.value
    if state.is_over:
        pots = len({a.pot for a in state.awards})
        lines = []
        for a in state.awards:
            pot = "" if pots == 1 else (" the main pot" if a.pot == 0 else f" side pot {a.pot}")
            share = "" if a.share in ("pot", "split") else f" ({a.share})"
            lines.append(f"{name[a.player]} wins {a.amount}{pot}{share}")
        if len(lines) > 4:
            lines = [*lines[:3], f"and {len(lines) - 3} more awards"]
        return lines
    if state.actor is not None:
        return [f"{name[state.actor]} to {'act' if phase == 'bet' else 'show or muck'}"]
    if phase == "deal":
        return ["Waiting for a card"]
    if phase == "reveal":
        return ["Waiting for unknown cards to be shown"]
    return []


def table(
    state: HandState,
    *,
    viewer: int | None = None,
    reveal: bool = False,
    names: Sequence[str] | None = None,
    width: float = 800,
) -> Svg:
    """A stud table: each seat around the felt, the pot (and side pots), the street, whose turn it is.

    Down cards are drawn as ``viewer`` may see them (``None``, the default: a spectator, who sees only the hands
    shown at the showdown); ``reveal=True`` turns every down card up (a replay, a teaching notebook). ``viewer``'s
    seat is at the bottom, the others clockwise in dealing order. ``names`` labels the seats (escaped; ``Player
    0`` ... by default, the engine's numbers). Folded players are dimmed; the player to act has a gold ring, the
    winners a green one once the hand is over. ``width`` is the drawn width in pixels.
    """
    n = state.n
    if viewer is not None and not 0 <= viewer < n:
        raise ValueError(f"no player {viewer} at this table of {n}")
    if names is None:
        label = [f"Player {p}" for p in range(n)]
    else:
        label = [str(s) for s in names]
        if len(label) != n:
            raise ValueError(f"{len(label)} names for {n} players")
    downs = _visible_downs(state, viewer, reveal)
    bring_in = _bring_in(state)
    won = [0] * n
    for a in state.awards:
        won[a.player] += a.amount
    body = [
        f'<rect width="{_n(_W)}" height="{_n(_H)}" fill="#f4f1ea"/>',
        f'<ellipse cx="{_n(_CX)}" cy="{_n(_CY)}" rx="{_n(_FELT_RX)}" ry="{_n(_FELT_RY)}" fill="{_FELT[0]}" '
        f'stroke="{_RIM}" stroke-width="14"/>',
        f'<ellipse cx="{_n(_CX)}" cy="{_n(_CY)}" rx="{_n(_FELT_RX * 0.93)}" ry="{_n(_FELT_RY * 0.9)}" '
        f'fill="{_FELT[1]}"/>',
        f'<ellipse cx="{_n(_CX)}" cy="{_n(_CY)}" rx="{_n(_FELT_RX * 0.6)}" ry="{_n(_FELT_RY * 0.55)}" '
        f'fill="{_FELT[2]}" opacity="0.6"/>',
    ]
    # the centre: the game and street, the pot, side pots, the community card, the status
    variant = state.rules.variant
    street = _ordinal(state.street) if state.street else ""
    title = f"{variant.title} · {street}" if street else variant.title
    body.append(_text(_CX, _CY - 62, title, size=16, fill="#fff", anchor="middle"))
    pots = state.pots
    in_pots = sum(p.amount for p in pots) if pots else state.pot
    pot_text = f"Pot {in_pots}"
    pw = _width(pot_text, 20) + 24
    body.append(
        f'<rect x="{_n(_CX - pw / 2)}" y="{_n(_CY - 50)}" width="{_n(pw)}" height="30" rx="15" fill="{_FELT[0]}"/>'
    )
    body.append(_text(_CX, _CY - 28, pot_text, size=20, fill="#fff", anchor="middle", bold=True))
    y = _CY - 2
    if len(pots) > 1:
        parts = ["Main " + str(pots[0].amount)] + [f"Side {i} {p.amount}" for i, p in enumerate(pots[1:], 1)]
        body.append(_text(_CX, y, " · ".join(parts), size=13, fill="#fff", anchor="middle"))
        y += 20
    if bring_in is not None and state.street == state.first_street:
        body.append(
            _text(_CX, y, f"Bring-in {state.rules.bring_in}: {label[bring_in]}", size=13, fill="#fff", anchor="middle")
        )
        y += 20
    for line in _status(state, label):
        body.append(_text(_CX, y, line, size=14, fill="#fff", anchor="middle", bold=True))
        y += 20
    community = state.community_card
    if community is not None or any(type(e).__name__ == "CommunityCard" for e in state.events):
        cw = 34.0
        body.append(_card_at(_CX - cw / 2, y - 4, cw, community))
        body.append(_text(_CX + cw / 2 + 6, y + cw * _RATIO / 2, "community", size=11, fill="#fff"))
    # the seats, the viewer's (or player 0's) at the bottom, and each bet in front of its seat
    bottom = viewer if viewer is not None else 0
    bets = state.bets
    for p in range(n):
        slot = (p - bottom) % n
        sx, sy = _point(slot, n, _SEAT_RX, _SEAT_RY)
        if bets[p]:
            bx, by = _point(slot, n, _SEAT_RX * 0.58, _SEAT_RY * 0.5)
            body.append(_chip(bx, by, bets[p]))
        body.append(
            _seat(
                state,
                p,
                sx - _SEAT_W / 2,
                sy - _SEAT_H / 2,
                label[p],
                downs[p],
                viewer=viewer,
                bring_in=bring_in,
                won=won[p],
            )
        )
    return _document(_W, _H, body, scale=width / _W)
