"""The card room's documented maximums: every number a client may send is checked against one of these first.

They keep every amount far from what the database's integers hold (PostgreSQL ``bigint`` and SQLite integers:
9.2 x 10^18), so no sum the room or the books compute can overflow, and they keep one request from creating a
table no balance could ever sit at. docs/server.md lists them.

>>> MAX_STAKE * 2 <= MAX_CHIPS < MAX_BALANCE < 2**63 // 10**3
True
"""

from __future__ import annotations

__all__ = [
    "MAX_BALANCE",
    "MAX_CHIPS",
    "MAX_ID",
    "MAX_JSON_DEPTH",
    "MAX_NAME",
    "MAX_NAME_KEY",
    "MAX_SHOWDOWN_SECONDS",
    "MAX_STAKE",
    "json_depth",
]

#: The largest small bet, big bet, ante or bring-in of a table.
MAX_STAKE = 1_000_000
#: The largest buy-in, top-up, minimum or maximum buy-in, starting balance or bot count of chips in one request.
MAX_CHIPS = 1_000_000_000
#: The largest balance an account may hold (a ``CHECK`` in the database; a credit past it is refused).
MAX_BALANCE = 10**15
#: The largest id or number in a path or query (tables, hands, accounts): PostgreSQL's ``integer``.
MAX_ID = 2**31 - 1
#: How deeply a JSON body or WebSocket message may nest arrays and objects.
MAX_JSON_DEPTH = 32
#: The longest table name, in characters (after normalisation).
MAX_NAME = 40
#: The longest key of a table name (:func:`studpoker.server.names.name_key`, ``look_key``), in characters: no
#: character's key is longer than 8 (tested over every character a name may hold), so 8 per character of the name.
MAX_NAME_KEY = 8 * MAX_NAME
#: The longest pause after a showdown a table may have, in seconds.
MAX_SHOWDOWN_SECONDS = 30.0


def json_depth(text: str | bytes, limit: int = MAX_JSON_DEPTH) -> int:
    """How deeply ``text`` nests ``[`` and ``{`` outside strings, counting no further than ``limit + 1``: a cheap
    scan before ``json.loads``, whose recursion a body of thousands of ``[`` would exhaust.

    (With few brackets the answer is their count, an upper bound of the depth that is exact enough here.)

    >>> json_depth('{"a": [1, {"b": "' + "[" * 40 + '"}]}'), json_depth(b"[" * 5000)
    (3, 33)
    """
    data = text.encode() if isinstance(text, str) else text
    opened = data.count(b"[") + data.count(b"{")
    if opened <= limit:  # the usual message: a few brackets, no scan needed
        return opened
    depth = deepest = 0
    in_string = escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # closing quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return deepest
