"""pokenum, poker-eval's C equity tool, as a peer for ``bench/equity.py``: find or build it, run it on a spot,
read its answer.

:func:`find` runs the shared build script (``$STUDPOKER_PEERS/build-pokenum``, else
``<repository>/../shared/peers/build-pokenum``; it builds poker-eval once and prints the path of ``pokenum``, a
libtool wrapper script that can be executed like the binary). :func:`command` writes a spot as pokenum's
arguments (``[-mc N] -7s|-7s8|-r <cards of player 1> - <cards of player 2> ... [/ <dead cards>]``),
:func:`run` runs it and times the process (wall clock, one cold process per call), and :func:`parse` turns its
output into per-player counts. :func:`cannot` says beforehand why pokenum cannot answer a spot: it hangs, rather
than failing, when the players need more cards than the deck holds, and its outcome counters are 32-bit.

pokenum prints, for seven-card stud and razz (razz counts the low pot, in the same columns)::

    7-card Stud Hi: 121041360 enumerated outcomes
    cards                    win   %win      lose  %lose       tie   %tie        EV
    As 2s 7c Ad 7h       76304684  63.04   44736676  36.96         0   0.00     0.630

and for stud hi/lo a scoop count (outcomes in which the player takes the whole pot), then win, lose and tie
counts for the high and for the low (a player counts for a side only in outcomes where he has a hand for it: no
qualifying low, no low count), then EV, the player's average share of the pot, to three decimals. With
``-mc N`` the first line says "sampled" and counts N sampled deals. It prints each player's cards in its own
order, not the order given; the players' order is kept.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "GAME_FLAGS",
    "MAX_OUTCOMES",
    "PokenumError",
    "PokenumPlayer",
    "PokenumResult",
    "cannot",
    "command",
    "find",
    "outcomes",
    "parse",
    "run",
]

#: pokenum's game flag for each of our variant names (it has no five-card stud).
GAME_FLAGS = {"7stud": "-7s", "7stud8": "-7s8", "razz": "-r"}
#: pokenum's outcome counter is an ``unsigned int``: an exact count beyond this wraps around, silently.
MAX_OUTCOMES = 2**32 - 1
#: The fewest and most cards pokenum takes for one player in a seven-card game (a "pocket").
MIN_POCKET, MAX_POCKET = 3, 7
#: The most players pokenum takes (``ENUM_MAXPLAYERS``).
MAX_PLAYERS = 12
#: Cards per seven-card stud hand.
HAND_CARDS = 7

_CARD = re.compile(r"([2-9TJQKA])([cdhs])", re.IGNORECASE)
_TITLE = re.compile(r"^(?P<game>.+): (?P<count>-?\d+) (?P<kind>sampled|enumerated) (?:outcome|board)s?\b")


class PokenumError(RuntimeError):
    """pokenum could not be run, refused the spot, or printed something this module does not read."""


@dataclass(frozen=True, slots=True)
class PokenumPlayer:
    """One row of pokenum's table. High-only games and razz fill ``win``, ``lose`` and ``tie`` (counts of
    outcomes: alone best, beaten, tied best); stud hi/lo fills ``scoop`` and the ``hi_*`` and ``lo_*`` counts
    and leaves ``win``, ``lose``, ``tie`` as ``None``. ``ev`` is the average pot share, as printed (three
    decimals)."""

    cards: tuple[str, ...]
    ev: float
    win: int | None = None
    lose: int | None = None
    tie: int | None = None
    scoop: int | None = None
    hi_win: int | None = None
    hi_lose: int | None = None
    hi_tie: int | None = None
    lo_win: int | None = None
    lo_lose: int | None = None
    lo_tie: int | None = None


@dataclass(frozen=True, slots=True)
class PokenumResult:
    """pokenum's whole answer: ``game`` is its own title ("7-card Stud Hi"), ``outcomes`` the outcomes
    enumerated or the deals sampled (``sampled``), ``seconds`` the wall time of the process (0 when parsed from
    text)."""

    game: str
    outcomes: int
    sampled: bool
    players: tuple[PokenumPlayer, ...]
    seconds: float = 0.0

    @property
    def hilo(self) -> bool:
        return bool(self.players) and self.players[0].scoop is not None


# -- finding it ------------------------------------------------------------------------------------


def peers_dir() -> Path:
    """``$STUDPOKER_PEERS``, else ``shared/peers`` beside the repository."""
    env = os.environ.get("STUDPOKER_PEERS")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[1].parent / "shared" / "peers"


def find(timeout: float = 600.0) -> tuple[Path | None, str]:
    """(pokenum's path, how it was found), or (None, why not): the build script is absent, gcc or make is
    missing, or the build failed. Building takes about 10 s the first time, nothing afterwards."""
    script = peers_dir() / "build-pokenum"
    if not script.is_file():
        return None, f"no build script at {script} (set STUDPOKER_PEERS to the folder that has build-pokenum)"
    missing = [tool for tool in ("gcc", "make") if shutil.which(tool) is None]
    if missing:
        return None, f"{' and '.join(missing)} not found, needed to build poker-eval (apt-get install gcc make)"
    try:
        done = subprocess.run(["bash", str(script)], capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return None, f"{script} did not finish in {timeout:g} s"
    if done.returncode != 0:
        why = (done.stderr.strip() or done.stdout.strip() or "no output").splitlines()[-1]
        return None, f"{script} failed (exit status {done.returncode}): {why}"
    lines = done.stdout.strip().splitlines()
    path = Path(lines[-1]) if lines else None
    if path is None or not path.is_file() or not os.access(path, os.X_OK):
        return None, f"{script} printed {lines[-1] if lines else 'nothing'!r}, which is not an executable"
    return path, f"built by {script}"


# -- running it -----------------------------------------------------------------------------------


def cards_of(text: str | Sequence[str]) -> list[str]:
    """``"As Ad 7c"``, ``"AsAd7c"`` or ``["As", "Ad"]`` as pokenum's card words (rank upper case, suit lower)."""
    joined = text if isinstance(text, str) else " ".join(text)
    squeezed = re.sub(r"\s+", "", joined)
    found = _CARD.findall(squeezed)
    if "".join(rank + suit for rank, suit in found).lower() != squeezed.lower():
        raise ValueError(f"not a list of cards: {joined!r}")
    return [rank.upper() + suit.lower() for rank, suit in found]


def outcomes(hands: Sequence[str], dead: str = "") -> int:
    """How many ways the players' missing cards can fall in a seven-card game: what an exact count visits."""
    pockets = [cards_of(hand) for hand in hands]
    total, left = 1, 52 - sum(len(p) for p in pockets) - len(cards_of(dead))
    for pocket in pockets:
        need = HAND_CARDS - len(pocket)
        total *= math.comb(left, need) if 0 <= need <= left else 0
        left -= need
    return total


def cannot(game: str, hands: Sequence[str], dead: str = "", trials: int | None = None) -> str | None:
    """Why pokenum cannot answer this spot (exactly, or with ``trials`` sampled deals), or None if it can; every
    reason that applies, joined by "; ".

    Checked before running it, because pokenum does not always say: with more cards to deal than the deck
    holds it loops forever, and an exact count beyond 2^32 - 1 outcomes wraps around.
    """
    if game not in GAME_FLAGS:
        return f"pokenum has no {game} (it plays {', '.join(GAME_FLAGS)})"
    pockets = [cards_of(hand) for hand in hands]
    reasons = []
    if len(pockets) > MAX_PLAYERS:
        reasons.append(f"{len(pockets)} players: pokenum takes at most {MAX_PLAYERS}")
    short = [(i, len(p)) for i, p in enumerate(pockets, 1) if not MIN_POCKET <= len(p) <= MAX_POCKET]
    if short:
        who = ", ".join(str(i) for i, _ in short)
        sizes = sorted({n for _, n in short})
        many = f"players {who} have {' or '.join(map(str, sizes))} known card(s)"
        reasons.append(
            (many if len(short) > 1 else f"player {who} has {sizes[0]} known card(s)")
            + f": pokenum takes {MIN_POCKET} to {MAX_POCKET} per player"
        )
    left = 52 - sum(len(p) for p in pockets) - len(cards_of(dead))
    needed = sum(HAND_CARDS - len(p) for p in pockets)
    if needed > left:
        reasons.append(
            f"the players need {needed} more cards and the deck has {left}: pokenum has no community card"
            " (and loops forever on such a spot)"
        )
    elif trials is None and (count := outcomes(hands, dead)) > MAX_OUTCOMES:
        reasons.append(f"{count:,} outcomes: pokenum counts at most 2^32 - 1 (its counters would wrap around)")
    return "; ".join(reasons) or None


def command(
    pokenum: Path | str, game: str, hands: Sequence[str], dead: str = "", trials: int | None = None
) -> list[str]:
    """pokenum's argument list for a spot: ``[pokenum, (-mc N), flag, cards, -, cards, ..., (/ dead)]``."""
    if game not in GAME_FLAGS:
        raise ValueError(f"pokenum has no {game}: use one of {', '.join(GAME_FLAGS)}")
    argv = [str(pokenum)]
    if trials is not None:
        argv += ["-mc", str(trials)]
    argv.append(GAME_FLAGS[game])
    for i, hand in enumerate(hands):
        pocket = cards_of(hand)
        if not pocket:
            raise ValueError(f"player {i + 1} has no known card: pokenum cannot take an empty pocket")
        argv += (["-"] if i else []) + pocket
    dead_cards = cards_of(dead)
    if dead_cards:
        argv += ["/", *dead_cards]
    return argv


def run(
    pokenum: Path | str,
    game: str,
    hands: Sequence[str],
    dead: str = "",
    trials: int | None = None,
    timeout: float = 900.0,
) -> PokenumResult:
    """Run pokenum once on the spot and read its answer; ``seconds`` is the wall time of the process.

    Raises :class:`PokenumError` if :func:`cannot` refuses the spot, pokenum fails or times out, or its answer
    does not have one row per player or the outcomes expected.
    """
    why = cannot(game, hands, dead, trials)
    if why:
        raise PokenumError(why)
    argv = command(pokenum, game, hands, dead, trials)
    start = time.perf_counter()
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise PokenumError(f"{' '.join(argv)} did not finish in {timeout:g} s") from None
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        first = (done.stdout.strip() or done.stderr.strip() or "no output").splitlines()[0]
        raise PokenumError(f"{' '.join(argv)} failed (exit status {done.returncode}): {first}")
    result = parse(done.stdout)
    if len(result.players) != len(hands):
        raise PokenumError(f"pokenum answered for {len(result.players)} players, asked about {len(hands)}")
    expected = trials if trials is not None else outcomes(hands, dead)
    if result.outcomes != expected:
        raise PokenumError(f"pokenum counted {result.outcomes:,} outcomes, expected {expected:,}")
    return PokenumResult(result.game, result.outcomes, result.sampled, result.players, seconds)


# -- reading its answer ---------------------------------------------------------------------------


def parse(text: str) -> PokenumResult:
    """pokenum's table (see the module docstring) as a :class:`PokenumResult`; a count printed negative (it
    prints its unsigned counter as signed) is read back modulo 2^32. Raises :class:`PokenumError` on anything
    else, such as its usage message or "enumeration function failed"."""
    lines = [line for line in text.splitlines() if line.strip()]
    title = _TITLE.match(lines[0]) if lines else None
    if title is None:
        first = lines[0].strip() if lines else "nothing"
        raise PokenumError(f"not pokenum's answer: it printed {first!r}")
    if len(lines) < 2 or not lines[1].split() or lines[1].split()[0] != "cards":
        raise PokenumError(f"pokenum's answer has no table header after {lines[0]!r}")
    columns = lines[1].split()[1:]
    hilo = columns == ["scoop", "HIwin", "HIlos", "HItie", "LOwin", "LOlos", "LOtie", "EV"]
    if not hilo and columns != ["win", "%win", "lose", "%lose", "tie", "%tie", "EV"]:
        raise PokenumError(f"unknown pokenum columns: {' '.join(columns)}")
    players = [_row(line, hilo) for line in lines[2:]]
    if not players:
        raise PokenumError("pokenum's answer has no player rows")
    return PokenumResult(
        game=title["game"],
        outcomes=int(title["count"]) % 2**32,
        sampled=title["kind"] == "sampled",
        players=tuple(players),
    )


def _row(line: str, hilo: bool) -> PokenumPlayer:
    words = line.split()
    cards = tuple(word for word in words if _CARD.fullmatch(word))
    numbers = words[len(cards) :]
    if not cards or len(numbers) != (8 if hilo else 7):
        raise PokenumError(f"not a pokenum player row: {line!r}")
    try:
        ev = float(numbers[-1])
        if hilo:
            scoop, hi_win, hi_lose, hi_tie, lo_win, lo_lose, lo_tie = (int(n) % 2**32 for n in numbers[:7])
            return PokenumPlayer(
                cards,
                ev,
                scoop=scoop,
                hi_win=hi_win,
                hi_lose=hi_lose,
                hi_tie=hi_tie,
                lo_win=lo_win,
                lo_lose=lo_lose,
                lo_tie=lo_tie,
            )
        win, lose, tie = (int(numbers[i]) % 2**32 for i in (0, 2, 4))
    except ValueError:
        raise PokenumError(f"not a pokenum player row: {line!r}") from None
    return PokenumPlayer(cards, ev, win=win, lose=lose, tie=tie)
