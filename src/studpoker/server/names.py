"""Names people choose (usernames, table names): normalised, free of invisible tricks, unique by their look.

Text is normalised to Unicode NFKC (so a full-width ``ａｎｎ`` *is* ``ann``), runs of white space become one space,
and characters that display as something else or not at all are refused: controls (NUL...), format characters
(the right-to-left override U+202E, zero-width joiners...), private-use, surrogates and unassigned code points.

Two names are one when they look alike: each name has two **keys**, both built on the UTS #39 *skeleton* (each
character replaced by the prototype Unicode's confusables data gives it: ``1``, ``I`` and ``l`` are ``l``, ``0`` is
``O``, ``m`` is ``rn``, a Lisu ``ꓢ`` is ``S``, the division slash ``∕`` is ``/``), and neither may be another
name's. :func:`name_key` folds the case first (``Ann``, ``ANN`` and ``AnN`` are one name, and so are ``paypal`` and
``PAYPA1``); :func:`look_key` takes the skeleton of the name as written (a capital ``I`` draws like ``l``: ``Ian``
is ``lan``). Both then ignore case and combining marks (``Café`` is ``Cafe``).

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
>>> username("ａｎｎ"), name_key("Ann"), name_key("Cafe\\u0301"), name_key("paypa1"), look_key("Ian")
('ann', 'ann', 'cafe', 'paypal', 'lan')
>>> name_key("\\ua4e2tud 10\\u221520") == name_key("Stud 10/20") != name_key("Stud 20/40")
True
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import cache
from importlib import resources

from .limits import MAX_NAME

__all__ = [
    "RESERVED",
    "BadNameError",
    "has_visible_text",
    "look_alike",
    "look_key",
    "name_key",
    "skeleton",
    "table_name",
    "unshowable",
    "username",
]

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


@cache
def _prototypes() -> dict[int, str]:
    """Unicode's confusables data (package data made by tools/gen_confusables.py): code point to prototype."""
    text = resources.files(__package__).joinpath("confusables.txt").read_text(encoding="utf-8")
    table: dict[int, str] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            source, prototype = line.split("\t")
            table[int(source, 16)] = "".join(chr(int(point, 16)) for point in prototype.split())
    return table


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text``: NFD, each character replaced by its prototype, NFD again. Two strings
    with one skeleton look alike (it is a key to compare, never a text to show).

    >>> skeleton("paypa1"), skeleton("Stud 10\\u204420"), skeleton("rn") == skeleton("m")
    ('paypal', 'Stud lO/2O', True)
    """
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", decomposed.translate(_prototypes()))


def _folded(text: str) -> str:
    """``text`` case-folded, without its combining marks."""
    decomposed = unicodedata.normalize("NFD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.category(c).startswith("M"))


def name_key(name: str) -> str:
    """A name's key in any case: the skeleton of the name case-folded, case-folded again and without combining
    marks (``Ann`` = ``ANN``, ``paypal`` = ``PAYPA1``, ``Stud 10/20`` = ``ꓢtud 10∕20``, and a ``Stud 10/20``
    with a stroke over its zero is still ``Stud 10/20``). No other name may have it."""
    return _folded(skeleton(name.casefold()))


def look_key(name: str) -> str:
    """A name's key as drawn: the skeleton of the name as written, then case-folded and without combining marks
    (so a capital ``I`` reads as the ``l`` it looks like: ``Ian`` = ``lan``, ``Stud I0/20`` = ``Stud 10/20``,
    while ``Kai`` and ``Kal`` stay two names). No other name may have it."""
    return _folded(skeleton(name))


def look_alike(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` that looks like ``name`` (has its :func:`name_key` or its :func:`look_key`), or
    ``None``.

    >>> look_alike("Stud I0/20", ["Razz 2/4", "Stud 10/20"]), look_alike("Stud 20/40", ["Stud 10/20"])
    ('Stud 10/20', None)
    """
    key, look = name_key(name), look_key(name)
    return next((other for other in others if name_key(other) == key or look_key(other) == look), None)
