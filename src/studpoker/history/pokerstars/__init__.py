"""PokerStars text hand histories for stud: read them, check them against a replay, write any hand in their form.

* :func:`loads` / :func:`load` read every hand of a text (the PokerStars export of 7 Card Stud, 7 Card
  Stud Hi/Lo and Razz, fixed limit; 5 Card Stud as we write it) into :class:`HandRecord` objects;
* :func:`check` compares a record's replay with what its text says (every amount, the pots, the rake),
  :func:`verify` replays and checks in one call;
* :func:`dumps` writes hands as PokerStars text; a hand read from PokerStars comes out line for line.

>>> from studpoker.history import replay
>>> text = '''PokerStars Hand #1:  Razz Limit ($0.04/$0.08 USD) - 2009/11/26 10:24:42 ET
... Table 'Gotha II' 8-max
... Seat 1: Ann ($1 in chips)
... Seat 3: Bob ($1 in chips)
... Ann: posts the ante $0.01
... Bob: posts the ante $0.01
... *** 3rd STREET ***
... Dealt to Ann [Kd]
... Dealt to Bob [Ah 2h 3h]
... Ann: brings in for $0.02
... Bob: raises $0.02 to $0.04
... Ann: folds
... Uncalled bet ($0.02) returned to Bob
... Bob collected $0.06 from pot
... *** SUMMARY ***
... Total pot $0.06 | Rake $0
... Seat 1: Ann folded on the 3rd Street
... Seat 3: Bob collected ($0.06)
... '''
>>> [hand] = loads(text)
>>> hand.players, hand.seats, hand.starting_stacks, hand.chip_value
(('Ann', 'Bob'), (1, 3), (100, 100), 0.01)
>>> hand.actions[1]
Deal(player=1, cards=(Card('Ah'), Card('2h'), Card('3h')), comment='')
>>> hand.actions[3]
Bet(player=1, verb='cbr', amount=4, comment='')
>>> result = replay(hand)
>>> result.state.stacks, check(hand, result)
((97, 103), [])
>>> dumps(hand) == text
True

**Reading.** A text holds hands one after another, each from its header (``PokerStars Game #`` or
``PokerStars Hand #``, cash, 8-Game and tournament forms) to its ``*** SUMMARY ***``; a UTF-8
byte-order mark is skipped. Dollar (euro, pound) amounts become cents (``chip_value=0.01``,
``currency`` from the header); amounts without a currency sign (tournament or play chips) are
chips (``chip_value=1``). The players are those who post the ante, in seat order: PokerStars deals
stud from the lowest occupied seat up (every hand of the files does), so that is the position order
of SPEC D1.3, and the ``Dealt to`` lines must follow it; ``seats`` are the PokerStars seat numbers.
The cards dealt on a street to a player are one :class:`Deal`; a card the text does not show (other
players' down cards) is ``None``, except that a hand the summary shows as ``mucked [...]`` completes
its deals (a muck cannot carry cards, and an all-in showdown needs them, R9.2). ``shows [...]`` is a
:class:`ShowMuck` with the cards shown, ``mucks hand`` and ``doesn't show hand`` one without. Betting
lines become :class:`Bet` actions (``bets X``: complete/bet to X; ``raises X to Y``: to Y; ``calls``
and ``checks``: ``cc``; ``brings in``: ``pb``), the community card ``*** RIVER *** [Xx]`` a
:class:`Board`. Lines about the table rather than the hand (joins, leaves, chat, sitting out,
time-outs, connections, and any line PokerStars may add that does not look like an action) are kept
as :class:`Comment` actions with their text, where they stand; a line that looks like an action but
cannot be read is an error. Every amount the text states (antes, betting lines, ``Uncalled bet``, ``collected``,
``Pair on board``, ``Betting is capped``, ``No low hand qualified``, the summary) is kept with its line in
``record.info["stated"]`` (:class:`~studpoker.history.sites.Stated`, as every room's reader keeps them) for
:func:`check`, and the line of each action in ``record.info["lines"]``. ``record.info["pokerstars"]`` keeps what
:func:`dumps` needs to write the hand back:

``hand_id``, ``header``, ``game``, ``date``, ``table``, ``max_seats``, ``table_rest``
    the header and table lines (``table_rest``: text after ``N-max``);
``hero``, ``shown_down``
    the player whose down cards the text shows (PokerStars' "Hero"; None if nobody or several),
    and all such players;
``total_pot``, ``rake``
    the summary's total pot and rake;
``seat_rest``, ``seated_out``, ``bring_in``
    text after each seat line, seats not dealt in, and where the bring-in amount came from.

The record also gets PHH's optional fields ``hand``, ``table``, ``seat_count``, ``year``, ``month``,
``day``, ``time`` and ``time_zone_abbreviation``, so that a PHH copy keeps them, and the
format-neutral ``winnings`` (what each player collected, after the rake) and ``rake``, which PHH
carries as ``winnings`` and our user field ``_rake``.

**Rules.** The stakes come from the hand: small and big bet from the header, the ante from the
``posts the ante`` lines, the bring-in from ``brings in for`` (the $0.04/$0.08 games have a $0.01 ante
and a $0.02 bring-in, the $400/$800 8-Game a $60 ante and a $120 bring-in). A hand in which the
bring-in is never posted (the low card completes at once) takes it from another hand of the same text
at the same stakes, else assumes twice the ante (below the small bet); its value changes nothing in
such a hand. The options are :data:`POKERSTARS_OPTIONS`, found by replaying every hand of the files
and checking it against its text (the evidence is given there).

**Writing.** :func:`dumps` replays each hand to know what every line says. A hand read from
PokerStars keeps its header, table line, seats, hand id, date, rake and who saw which cards.
Any other hand gets ``PokerStars Hand #<hand or number>:  <game> Limit (<small>/<big> <currency>)
- <date>`` (the record's PHH date fields, else :data:`DEFAULT_DATE`), table ``'studpoker'`` unless
the record names one, the record's ``rake`` (``Rake $0`` for our own hands) taken from the pots as
:func:`check` describes, and ``Dealt to`` lines with the down cards of every player whose
down cards are all known (PokerStars shows only the hero's; the line form is the same, and reading
it back keeps the cards). Our own extensions, written as PokerStars writes its nearest cases:

* the short-deck community card (R8) as PokerStars writes it in its own 8-handed games:
  ``*** RIVER *** [Ad]`` instead of 7th-street cards, ``Board [Ad]`` in the summary; a show lists the
  player's own cards, its words count the community card;
* five-card stud as ``5 Card Stud Limit``, streets ``*** 2nd STREET ***`` to ``*** 4th STREET ***``
  and ``*** RIVER ***`` for the 5th, folds ``on the 2nd Street``; ``Pair on board`` on 3rd street;
* amounts without a currency (chips) are written bare, as PokerStars writes tournament chips.

What the format cannot say: the rule options of a hand of ours (it reads back with PokerStars' rules:
replay it under its own with ``record.with_rules(...)``); a hand id that is not a number (another room's:
the hand's place in the text is written instead); seat numbers that do not increase in
position order (PokerStars deals from the lowest seat; :func:`dumps` refuses them); shows made at an
all-in before the last cards are dealt (PokerStars shows hands in the showdown only: they are written
there and read back after the last cards); and comments that would read back as something else (left
out). Player names must be unique, without colons or line breaks.
"""

from __future__ import annotations

from .checker import check, verify
from .reader import is_header, load, loads, loads_each, read_each
from .vocabulary import DEFAULT_DATE, GAMES, POKERSTARS_OPTIONS, NotStudError, PokerStarsError, pokerstars_rules
from .writer import dump, dumps

__all__ = [
    "DEFAULT_DATE",
    "GAMES",
    "POKERSTARS_OPTIONS",
    "NotStudError",
    "PokerStarsError",
    "check",
    "dump",
    "dumps",
    "is_header",
    "load",
    "loads",
    "loads_each",
    "pokerstars_rules",
    "read_each",
    "verify",
]
