"""The dealer's web console's state as its page reads it (``GET /api/state``): the sign, the seats with their cards
and bets, what is needed next, the legal actions, the pots, the lines said and the pushes, all from the session's
public API and a copy of the hand.
"""

from __future__ import annotations

from typing import Any

from ..engine import Phase, Stud5Opening, Variant
from ..engine.codec import action_to_json
from ..engine.dealer import first_actors, first_to_act_of
from ..engine.events import ActionTaken, Burned, CardDealt, CommunityCard, StreetStarted
from .irregularities import CASES, Ruling
from .records import street_name
from .session import DealerSession, Needed
from .sign import ODD_CHIP_NAMES, ConsoleError, Sign

__all__ = ["describe", "ruling_json", "state_json"]


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
        "seventh_card": sign.seventh_card,
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
    players = session.players
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
        "street_name": street_name(hand.street) if hand is not None else "",
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


def ruling_json(ruling: Ruling | None) -> dict[str, Any] | None:
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
