"""The bus codec (``studpoker.server.messages``, Pydantic models) against frozen dataclasses, on ``act``.

``python bench/messages.py`` prints the microseconds to build an ``act``, to encode it, to decode it (text to a
checked message), with the module's Pydantic model and with a frozen, slotted dataclass checked by hand with the
same bounds (the fastest way with dataclasses: ``json.loads``, then each field's checks written out, no loop);
then the frame batches' pack and unpack, which stay plain JSON.
"""

from __future__ import annotations

import json
import timeit
from collections.abc import Callable
from dataclasses import dataclass

from studpoker.server.frames import pack_frames, unpack_frames
from studpoker.server.limits import MAX_CHIPS, MAX_ID
from studpoker.server.messages import TO_WORKER, Act, BadMessage, decode, encode

_ENCODER = json.JSONEncoder(separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class DAct:
    gw: str
    s: int
    a: int
    hand: int
    seq: int
    action: str
    amount: int | None = None


def _int(value: object, high: int) -> int:
    if type(value) is not int or not 0 <= value <= high:
        raise BadMessage("not an integer in range")
    return value


def dataclass_encode(message: DAct) -> str:
    m = message
    data = {"op": "act", "gw": m.gw, "s": m.s, "a": m.a, "hand": m.hand, "seq": m.seq, "action": m.action}
    if m.amount is not None:
        data["amount"] = m.amount
    return _ENCODER.encode(data)


def dataclass_decode(text: str) -> DAct:
    data = json.loads(text)
    if type(data) is not dict or data.get("op") != "act":
        raise BadMessage("not an act")
    gw, action, amount = data.get("gw"), data.get("action"), data.get("amount")
    if type(gw) is not str or len(gw) > 80 or type(action) is not str or len(action) > 20:
        raise BadMessage("bad string")
    if len(data) > 8:
        raise BadMessage("unknown field")
    return DAct(
        gw,
        _int(data.get("s"), 2**63 - 1),
        _int(data.get("a"), 2**63 - 1),
        _int(data.get("hand"), MAX_ID),
        _int(data.get("seq"), MAX_ID),
        action,
        None if amount is None else _int(amount, MAX_CHIPS),
    )


def per_call(job: Callable[[], object], number: int = 100_000) -> float:
    """Microseconds per call of ``job``, the best of five runs."""
    return min(timeit.repeat(job, number=number, repeat=5)) / number * 1e6


def main() -> None:
    gateway = "host-12345-abcdef"
    act = Act(gateway=gateway, socket=17, attachment=3, hand=123456, seq=42, action="raise", amount=200)
    text = encode(act)
    assert decode(text, TO_WORKER) == act
    plain = DAct(gateway, 17, 3, 123456, 42, "raise", 200)
    assert json.loads(dataclass_encode(plain)) == json.loads(text)
    assert dataclass_decode(text) == plain
    rows = [
        (
            "build",
            lambda: Act(gateway=gateway, socket=17, attachment=3, hand=123456, seq=42, action="raise", amount=200),
            lambda: DAct(gateway, 17, 3, 123456, 42, "raise", 200),
        ),
        ("encode", lambda: encode(act), lambda: dataclass_encode(plain)),
        ("decode", lambda: decode(text, TO_WORKER), lambda: dataclass_decode(text)),
    ]
    print(f"act, {len(text)} characters: {text}")
    print(f"{'':8}{'pydantic':>10}{'dataclass':>11}   (µs per call)")
    for name, ours, theirs in rows:
        print(f"{name:8}{per_call(ours):10.2f}{per_call(theirs):11.2f}")
    frame = json.dumps({"type": "action", "hand": 1, "seq": 2, "seat": 3, "action": "call", "amount": 20})
    entries: list[tuple[int, int, int, str | int]] = [(s, 1, 5, frame) for s in range(20)]
    batch = pack_frames(7, 3, entries)
    packing = per_call(lambda: pack_frames(7, 3, entries), 20_000)
    unpacking = per_call(lambda: unpack_frames(batch), 20_000)
    print(f"frames to 20 sockets: pack {packing:.2f} µs, unpack {unpacking:.2f} µs")


if __name__ == "__main__":
    main()
