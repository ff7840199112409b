"""Names people choose (usernames, table names): normalised, free of invisible tricks, unique ignoring case.

Text is normalised to Unicode NFKC (so a full-width ``ａｎｎ`` *is* ``ann``), runs of white space become one space,
and characters that display as something else or not at all are refused: controls (NUL...), format characters
(the right-to-left override U+202E, zero-width joiners...), private-use, surrogates and unassigned code points.
A name's **key** (case-folded) is what must be unique, so ``Ann`` and ``ANN`` are one name.

>>> table_name("  Friday   Razz ")
'Friday Razz'
>>> table_name("abc\\u202egnp.exe")
Traceback (most recent call last):
    ...
studpoker.server.names.BadNameError: a table name may not contain U+202E (RIGHT-TO-LEFT OVERRIDE)
>>> username("ａｎｎ"), name_key("Ann")
('ann', 'ann')
"""

from __future__ import annotations

import re
import unicodedata

from .limits import MAX_NAME

__all__ = ["RESERVED", "BadNameError", "name_key", "table_name", "username"]

_USERNAME = re.compile(r"[A-Za-z0-9_-]{3,20}")
#: Usernames nobody may take: the room's own voices, and anything that reads like one of its bots ("Bot 3").
RESERVED = frozenset({"admin", "administrator", "root", "house", "dealer", "floor", "system", "studpoker", "support"})
_BOTLIKE = re.compile(r"bot[\W_]*\d*", re.IGNORECASE)
_REFUSED_CATEGORIES = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}


class BadNameError(ValueError):
    """A name refused, with the reason in words."""


def _clean(text: object, what: str, longest: int) -> str:
    if not isinstance(text, str):
        raise BadNameError(f"a {what} is text")
    text = unicodedata.normalize("NFKC", text)
    for char in text:
        if unicodedata.category(char) in _REFUSED_CATEGORIES:
            name = unicodedata.name(char, "unnamed")
            raise BadNameError(f"a {what} may not contain U+{ord(char):04X} ({name})")
    text = " ".join(text.split())
    if not text:
        raise BadNameError(f"a {what} needs at least one visible character")
    if len(text) > longest:
        raise BadNameError(f"a {what} is at most {longest} characters, got {len(text)}")
    return text


def table_name(text: object) -> str:
    """A table's name as it will be shown: NFKC, single spaces, 1 to ``MAX_NAME`` visible characters."""
    return _clean(text, "table name", MAX_NAME)


def username(text: object) -> str:
    """A username: NFKC, then 3 to 20 letters, digits, ``_`` or ``-``, and not one of :data:`RESERVED` or a bot's."""
    name = _clean(text, "username", 40)
    if not _USERNAME.fullmatch(name):
        raise BadNameError("a username is 3 to 20 letters, digits, '_' or '-'")
    if name.lower() in RESERVED or _BOTLIKE.fullmatch(name):
        raise BadNameError(f"the username {name!r} is reserved")
    return name


def name_key(name: str) -> str:
    """What must be unique: the name case-folded (``Ann`` = ``ANN``)."""
    return name.casefold()
