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
>>> table_name("\\u0405tud 10/20")             # a Cyrillic capital DZE for the S
Traceback (most recent call last):
    ...
studpoker.server.names.BadNameError: a table name may not mix scripts (Cyrillic and Latin)
>>> username("ａｎｎ"), name_key("Ann"), name_key("Cafe\\u0301")
('ann', 'ann', 'cafe')
"""

from __future__ import annotations

import re
import unicodedata

from .limits import MAX_NAME

__all__ = ["RESERVED", "BadNameError", "has_visible_text", "name_key", "table_name", "unshowable", "username"]

_USERNAME = re.compile(r"[A-Za-z0-9_-]{3,20}")
#: Usernames nobody may take, nor with digits or separators around them ("Admin_", "dealer-1", "adm1n"): the
#: room's own voices. Anything that reads like one of its bots ("Bot 3", "B0t_3", "bot3x") is refused too.
RESERVED = frozenset(
    {"admin", "administrator", "root", "house", "dealer", "floor", "system", "studpoker", "support", "moderator"}
)
_BOTLIKE = re.compile(r"b[o0]t(\d|$)")
_LOOKALIKES = (
    str.maketrans({"0": "o", "1": "l", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g"}),
    str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g"}),
)
_REFUSED_CATEGORIES = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}
#: Letters that draw nothing (Hangul fillers, the Braille blank, Khmer's inherent vowels): a name of them, or
#: ending in them, would look like another name or like none.
_BLANK = frozenset("\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")
#: Scripts a name may not mix (a Cyrillic "Ѕ" in "Ѕtud 10/20" would pass for the Latin table).
_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC")


class BadNameError(ValueError):
    """A name refused, with the reason in words."""


def unshowable(char: str) -> bool:
    """A character no name or chat line may hold: control and format characters (bidi overrides, zero-width
    joiners, NUL), surrogates, private-use and unassigned code points, line and paragraph separators, and letters
    that draw nothing."""
    return unicodedata.category(char) in _REFUSED_CATEGORIES or char in _BLANK


def has_visible_text(text: str) -> bool:
    """Whether ``text`` holds a letter, digit, punctuation or symbol (not only spaces and marks)."""
    return any(unicodedata.category(c)[0] in "LNPS" for c in text)


def _clean(text: object, what: str, longest: int) -> str:
    if not isinstance(text, str):
        raise BadNameError(f"a {what} is text")
    text = unicodedata.normalize("NFKC", text)
    scripts: set[str] = set()
    for char in text:
        if unshowable(char):
            name = unicodedata.name(char, "unnamed")
            raise BadNameError(f"a {what} may not contain U+{ord(char):04X} ({name})")
        if char.isalpha():
            script = unicodedata.name(char, "").split(" ", 1)[0]
            if script in _SCRIPTS:
                scripts.add(script)
    if len(scripts) > 1:
        raise BadNameError(f"a {what} may not mix scripts ({' and '.join(sorted(s.title() for s in scripts))})")
    text = " ".join(text.split())
    if not has_visible_text(text):
        raise BadNameError(f"a {what} needs at least one visible character")
    if unicodedata.category(text[0]).startswith("M"):
        raise BadNameError(f"a {what} may not begin with a combining mark")
    if len(text) > longest:
        raise BadNameError(f"a {what} is at most {longest} characters, got {len(text)}")
    return text


def table_name(text: object) -> str:
    """A table's name as it will be shown: NFKC, single spaces, 1 to ``MAX_NAME`` visible characters."""
    return _clean(text, "table name", MAX_NAME)


def username(text: object) -> str:
    """A username: NFKC, then 3 to 20 letters, digits, ``_`` or ``-``, and not one of :data:`RESERVED` (with or
    without digits and separators around it, or digits for look-alike letters) nor a bot's."""
    name = _clean(text, "username", 40)
    if not _USERNAME.fullmatch(name):
        raise BadNameError("a username is 3 to 20 letters, digits, '_' or '-'")
    bare = name.lower().replace("-", "").replace("_", "")
    readings = {form.translate(table) for form in (bare, bare.rstrip("0123456789")) for table in _LOOKALIKES}
    if _BOTLIKE.match(bare) or readings & RESERVED:
        raise BadNameError(f"the username {name!r} is reserved")
    return name


def name_key(name: str) -> str:
    """What must be unique: the name case-folded and without its combining marks (``Ann`` = ``ANN``, and a
    ``Stud 10/20`` with a stroke over its zero is still ``Stud 10/20``)."""
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(c for c in decomposed if not unicodedata.category(c).startswith("M")).casefold()
