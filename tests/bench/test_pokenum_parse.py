"""``bench/_pokenum.py``: reading pokenum's output, writing its command lines, knowing what it cannot do.

The samples are pokenum's output, copied verbatim from real runs (poker-eval at ea919d1, built by
``shared/peers/build-pokenum``); the command that printed each is above it. pokenum itself is not needed.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

_SOURCE = Path(__file__).resolve().parents[2] / "bench" / "_pokenum.py"
_spec = importlib.util.spec_from_file_location("_pokenum", _SOURCE)
assert _spec is not None and _spec.loader is not None
pokenum = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("_pokenum", pokenum)  # dataclasses look their module up while the class is built
_spec.loader.exec_module(pokenum)

# pokenum -7s As Ad 7c 7h 2s - Kh Kd Qs Jc 9c - 8s 8d 4c 4h Th / 3c 5d 6s
STUD_EXACT = """\
7-card Stud Hi: 121041360 enumerated outcomes
cards                    win   %win      lose  %lose       tie   %tie        EV
As 2s 7c Ad 7h       76304684  63.04   44736676  36.96         0   0.00     0.630
Qs Jc 9c Kd Kh       22695679  18.75   98345681  81.25         0   0.00     0.188
8s 4c 8d Th 4h       22040997  18.21   99000363  81.79         0   0.00     0.182
"""

# pokenum -7s8 As Ad 7c 7h 2s - Kh Kd Qs Jc 9c - 8s 8d 4c 4h Th / 3c 5d 6s
HILO_EXACT = """\
7-card Stud Hi/Low 8-or-better: 121041360 enumerated outcomes
cards                  scoop     HIwin   HIlos   HItie     LOwin   LOlos   LOtie      EV
As 2s 7c Ad 7h       76304684   76304684 44736676       0   14455920       0       0   0.658
Qs Jc 9c Kd Kh       18954957   22695679 98345681       0         0       0       0   0.172
8s 4c 8d Th 4h       19209426   22040997 99000363       0         0       0       0   0.170
"""

# pokenum -mc 100000 -7s8 As 2d 5c - Kh Ks 4d / 7c 9h Js Ts
HILO_SAMPLED = """\
7-card Stud Hi/Low 8-or-better: 100000 sampled outcomes
cards                  scoop     HIwin   HIlos   HItie     LOwin   LOlos   LOtie      EV
As 5c 2d               29314     30438   69557       5     50940     482      14   0.489
Ks 4d Kh               31610     69557   30438       5      2580    1540      14   0.511
"""

# pokenum -mc 100000 -7s As 2d 5c - Kh Ks 4d - Qd Jd 9d - 8c 8s 2h - Ac 3c 6h - Th Td 4s - 7s 7h 3d
SEVEN_SAMPLED = """\
7-card Stud Hi: 100000 sampled outcomes
cards                    win   %win      lose  %lose       tie   %tie        EV
As 5c 2d                6475   6.47     93519  93.52         6   0.01     0.065
Ks 4d Kh               21030  21.03     78969  78.97         1   0.00     0.210
Qd Jd 9d               21016  21.02     78977  78.98         7   0.01     0.210
8s 8c 2h               13777  13.78     86219  86.22         4   0.00     0.138
Ac 3c 6h                8993   8.99     90997  91.00        10   0.01     0.090
4s Td Th               15957  15.96     84034  84.03         9   0.01     0.160
7s 3d 7h               12730  12.73     87263  87.26         7   0.01     0.127
"""

# pokenum -mc 20000 -r As 2d 5c - Kh Ks 4d / 7c 9h Js Ts
RAZZ_SAMPLED = """\
Razz (7-card Stud A-5 Low): 20000 sampled outcomes
cards                    win   %win      lose  %lose       tie   %tie        EV
As 5c 2d               17774  88.87      2222  11.11         4   0.02     0.889
Ks 4d Kh                2222  11.11     17774  88.87         4   0.02     0.111
"""

# pokenum -7s As Ad 7c 7h 2s Kd - Kh Ks Qs Jc 9c 8h / 3c 5d
SEVENTH_EXACT = """\
7-card Stud Hi: 1406 enumerated outcomes
cards                    win   %win      lose  %lose       tie   %tie        EV
As 2s 7c Ad Kd 7h       1241  88.26       165  11.74         0   0.00     0.883
Ks Qs Jc 9c Kh 8h        165  11.74      1241  88.26         0   0.00     0.117
"""

# pokenum -7s As Ad 7c 2s - Kh 9c   (a pocket of two cards: refused, exit status 1)
USAGE = """\
single usage: /tmp/studpoker-peers/poker-eval/poker-eval/examples/.libs/pokenum [-t] [-O] [-mc niter]
\t[-h|-h8|-o|-o8|-7s|-7s8|-7snsq|-r|-5d|-5d8|-5dnsq|-l|-l27]
\t<pocket1> - <pocket2> - ... [ -- <board> ] [ / <dead> ] ]
streaming usage: /tmp/studpoker-peers/poker-eval/poker-eval/examples/.libs/pokenum -i < argsfile
"""

# pokenum -t -mc 100000 -7s As 2d 5c - Kh Ks 4d / 7c 9h Js Ts   (terse: EV only; not what the bench reads)
TERSE = "EV 2: 0.304405 0.695595\n"

SPOT_A = (["As Ad 7c 7h 2s", "Kh Kd Qs Jc 9c", "8s 8d 4c 4h Th"], "3c 5d 6s")


def test_stud_exact() -> None:
    result = pokenum.parse(STUD_EXACT)
    assert (result.game, result.outcomes, result.sampled, result.hilo) == ("7-card Stud Hi", 121_041_360, False, False)
    hero, kings, eights = result.players
    assert hero.cards == ("As", "2s", "7c", "Ad", "7h")  # pokenum's own order, not the order given
    assert (hero.win, hero.lose, hero.tie, hero.ev) == (76_304_684, 44_736_676, 0, 0.630)
    assert (kings.win, eights.win, eights.ev) == (22_695_679, 22_040_997, 0.182)
    assert hero.scoop is None and hero.hi_win is None
    for player in result.players:
        assert player.win + player.lose + player.tie == result.outcomes


def test_hilo_exact() -> None:
    result = pokenum.parse(HILO_EXACT)
    assert (result.game, result.outcomes, result.sampled, result.hilo) == (
        "7-card Stud Hi/Low 8-or-better",
        121_041_360,
        False,
        True,
    )
    hero, kings, eights = result.players
    assert (hero.scoop, hero.hi_win, hero.hi_lose, hero.hi_tie) == (76_304_684, 76_304_684, 44_736_676, 0)
    assert (hero.lo_win, hero.lo_lose, hero.lo_tie, hero.ev) == (14_455_920, 0, 0, 0.658)
    assert (kings.scoop, kings.ev, eights.scoop, eights.ev) == (18_954_957, 0.172, 19_209_426, 0.170)
    assert hero.win is None and hero.tie is None
    # the high counts cover every outcome; a side's counts only the outcomes where the player has a hand for it
    assert all(p.hi_win + p.hi_lose + p.hi_tie == result.outcomes for p in result.players)


def test_hilo_sampled() -> None:
    result = pokenum.parse(HILO_SAMPLED)
    assert (result.outcomes, result.sampled, result.hilo) == (100_000, True, True)
    hero, kings = result.players
    assert (hero.scoop, hero.lo_win, hero.lo_lose, hero.lo_tie, hero.ev) == (29_314, 50_940, 482, 14, 0.489)
    assert (kings.scoop, kings.lo_win, kings.lo_lose, kings.ev) == (31_610, 2_580, 1_540, 0.511)


def test_seven_players_sampled() -> None:
    result = pokenum.parse(SEVEN_SAMPLED)
    assert (result.outcomes, result.sampled, len(result.players)) == (100_000, True, 7)
    assert [p.cards[0] for p in result.players] == ["As", "Ks", "Qd", "8s", "Ac", "4s", "7s"]
    assert [p.win for p in result.players] == [6475, 21030, 21016, 13777, 8993, 15957, 12730]
    assert [p.tie for p in result.players] == [6, 1, 7, 4, 10, 9, 7]
    assert sum(p.ev for p in result.players) == pytest.approx(1.0, abs=0.004)  # seven rounded EVs


def test_razz_and_six_card_pockets() -> None:
    razz = pokenum.parse(RAZZ_SAMPLED)
    assert razz.game == "Razz (7-card Stud A-5 Low)" and not razz.hilo  # the low pot, in the win/lose/tie columns
    assert [(p.win, p.lose, p.tie, p.ev) for p in razz.players] == [(17774, 2222, 4, 0.889), (2222, 17774, 4, 0.111)]
    seventh = pokenum.parse(SEVENTH_EXACT)
    assert seventh.outcomes == 1406 and not seventh.sampled
    assert [len(p.cards) for p in seventh.players] == [6, 6]
    assert [p.win for p in seventh.players] == [1241, 165]


def test_what_is_not_an_answer() -> None:
    for text in (USAGE, TERSE, "", "enumeration function failed err=1\n"):
        with pytest.raises(pokenum.PokenumError):
            pokenum.parse(text)
    with pytest.raises(pokenum.PokenumError, match="not a pokenum player row"):
        pokenum.parse(STUD_EXACT.replace("     0.630", ""))
    with pytest.raises(pokenum.PokenumError, match="no player rows"):
        pokenum.parse("\n".join(STUD_EXACT.splitlines()[:2]))


def test_command_lines() -> None:
    hands, dead = SPOT_A
    assert pokenum.command("pokenum", "7stud", hands, dead) == [
        "pokenum", "-7s", "As", "Ad", "7c", "7h", "2s", "-", "Kh", "Kd", "Qs", "Jc", "9c",
        "-", "8s", "8d", "4c", "4h", "Th", "/", "3c", "5d", "6s",
    ]  # fmt: skip
    assert pokenum.command("/x/pokenum", "7stud8", ["as2D5c", "Kh Ks 4d"], "", 1000) == [
        "/x/pokenum", "-mc", "1000", "-7s8", "As", "2d", "5c", "-", "Kh", "Ks", "4d",
    ]  # fmt: skip
    assert pokenum.command("p", "razz", ["As 2d 5c", "Kh Ks 4d"], "7c9h")[1] == "-r"
    with pytest.raises(ValueError, match="no 5stud"):
        pokenum.command("p", "5stud", ["As 2d", "Kh Ks"])
    with pytest.raises(ValueError, match="not a list of cards"):
        pokenum.command("p", "7stud", ["As 2x 5c", "Kh Ks 4d"])


def test_what_pokenum_cannot() -> None:
    hands, dead = SPOT_A
    assert pokenum.outcomes(hands, dead) == 121_041_360
    assert pokenum.cannot("7stud", hands, dead) is None
    heads_up = ["As 2d 5c", "Kh Ks 4d"]
    assert pokenum.outcomes(heads_up, "7c 9h Js Ts") == 8_262_112_950
    assert "2^32" in (pokenum.cannot("7stud", heads_up, "7c 9h Js Ts") or "")
    assert pokenum.cannot("7stud", heads_up, "7c 9h Js Ts", trials=1000) is None  # sampling has no such limit
    assert "player 2 has 2 known card(s)" in (pokenum.cannot("7stud", ["As Ad 7c 2s", "Kh 9c"]) or "")
    eight = ["As Ad 7c", "Kh", "Qd", "9s", "8c", "5h", "Th", "4d"]
    why = pokenum.cannot("7stud", eight, trials=1000) or ""
    assert "players 2, 3, 4, 5, 6, 7, 8 have 1 known card(s)" in why and "no community card" in why
    full = ["As 2d 5c", "Kh Ks 4d", "Qd Jd 9d", "8c 8s 2h", "Ac 3c 6h", "Th Td 4s", "7s 7h 3d", "Kc Qc Jc"]
    assert "need 32 more cards and the deck has 28" in (pokenum.cannot("7stud", full, trials=1000) or "")
    assert "no 5stud" in (pokenum.cannot("5stud", heads_up) or "")
