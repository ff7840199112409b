"""Hand histories gathered from public repositories (``tests/history/wild/``, each with its source in
``SOURCES.tsv``): every stud hand replays with its amounts checked, or is refused for a reason of its own, named here.

They are other files of the twelve rooms than ``../shared/data`` holds: older or newer formats, other games of a
mixed game, other stakes (see docs/histories.md, "Hand histories in the wild").
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from studpoker.history import sites

from .sites.helpers import Expected, assert_path

WILD = Path(__file__).parent / "wild"

#: What each file gives: its room, the hands that replay with every amount matching, the games skipped, and the
#: hands refused (the hand's id, or its place in the file, and a phrase of the reason).
EXPECTED: dict[str, Expected] = {
    "Bovada/7-StudHL-USD - RING - $5-$10, $1.25 Ante - 201404.txt": Expected("bovada", 1),
    "Everleaf/7-Stud-EUR-0.05-0.10.201108-new-format.txt": Expected("everleaf", 6),
    "FTP/10Game-6max-USD-2.50-5.201104.Sample.txt": Expected(
        "fulltilt",
        30,
        skipped={
            "Limit Omaha H/L": 1,
            "No Limit 2-7 Single Draw": 10,
            "Limit Badugi": 10,
            "Limit Hold'em": 10,
            "Pot Limit Omaha Hi": 10,
            "Limit 2-7 Triple Draw": 10,
            "No Limit Hold'em": 3,
        },
    ),
    "FTP/7-Stud-USD-3-6-20106.Steal.from.Button.Failure.v3.txt": Expected("fulltilt", 1),
    "FTP/7-Stud-USD-3-6-20106.Steal.from.CO.Success.v3.txt": Expected("fulltilt", 1),
    "FTP/7-Stud-USD-3-6-20106.Steal.from.HJ.Failure-3bet.by.button.txt": Expected("fulltilt", 1),
    "FTP/7-Stud-USD-3-6-20106.Steal.from.HJ.Failure-3bet.by.button.v3.txt": Expected("fulltilt", 1),
    "FTP/7-Stud-USD-3-6-20106.Steal.from.HJ.Failure.v3.txt": Expected("fulltilt", 1),
    "FTP/7-Stud-USD-3-6-20106.Steal.from.HJ.Success.v3.txt": Expected("fulltilt", 1),
    "FTP/7-StudHL-USD-2-4-201006.Steal.examples.v3.txt": Expected("fulltilt", 12),
    "FTP/Razz-USD-HUSNG-200-201211.all.in.ante.txt": Expected("fulltilt", 1),
    "FTP/ftp-stud-hilo-ring-001.txt": Expected("fulltilt", 1),
    "KingsClub/7-StudHL-USD-44-88-202203.fixed.streets.txt": Expected("kingsclub", 1),
    "KingsClub/Razz-USD-40-80-202101.txt": Expected("kingsclub", 1),
    "Merge/HORSE-8max-USD-0.25-0.50-201409.new.format.txt": Expected("merge", 3),
    "Merge/HORSE-Tournament-Freeroll.201107.xml": Expected(
        "merge", 14, skipped={"HORSE Tournament (Hold'em) Limit": 10, "HORSE Tournament (Omaha Hi/Lo) Limit": 4}
    ),
    "Merge/Razz-USD-0.50-1.00-201111.allIn.txt": Expected("merge", 1),
    "OnGame/7-StudHL-USD-0.25-0.50-201008.All.streets.txt": Expected("ongame", 1),
    "PartyPoker/7-StudHL-USD-10-20.201202.wins.lo.pot.txt": Expected("partypoker", 1),
    "PokerStars/7-Stud-USD-0.04-0.08-200907.Missing.Showdown.Card.v4.txt": Expected("pokerstars", 1),
    "PokerStars/7-Stud-USD-0.04-0.08-200911.v3.txt": Expected("pokerstars", 11),
    "PokerStars/7-Stud-USD-0.04-0.08-201205.tablecrab-embedded.txt": Expected("pokerstars", 1),
    "PokerStars/7-StudHL-USD-0.04-0.08-200911.Cardtest.txt": Expected("pokerstars", 1),
    "PokerStars/7-StudHL-USD-0.04-0.08-200911.Cardtest.v3.txt": Expected("pokerstars", 1),
    "PokerStars/7-StudHL-USD-0.04-0.08-200911.v3.txt": Expected("pokerstars", 7),
    "PokerStars/7-StudHL-USD-0.98-0.12-202302.allin.ante.txt": Expected("pokerstars", 1),
    "PokerStars/7-StudHL-USD-10-1-200906.PT2.export.txt": Expected("pokerstars", 1),
    "PokerStars/8-Game-2max-STT-play-100-201306.homeGame.shootout.txt": Expected(
        "pokerstars",
        53,
        skipped={
            "Triple Draw 2-7 Lowball Limit": 18,
            "Hold'em Limit": 24,
            "Omaha Hi/Lo Limit": 17,
            "Hold'em No Limit": 24,
            "Omaha Pot Limit": 1,
        },
    ),
    "PokerStars/Razz-8max-USD-200-15-201009.bracket.in.alias.txt": Expected("pokerstars", 1),
    "PokerStars/Razz-USD-0.04-0.08-200911.v3.txt": Expected("pokerstars", 9),
    # the river card of Hero is written "[of]", and his show lists three cards: the hand cannot be dealt
    "PokerStars/Triple-Stud-USD-2.00-0.20-MTT-201301.txt": Expected(
        "pokerstars", 0, refused={"1": "line 46 ('Dealt to Hero [Ah 3c Ac 8h Qd As] [of]'): 'of' is not a card"}
    ),
    "PokerStars/ps-studhilo-ring-showdown.txt": Expected("pokerstars", 2),
    "PokerStars/ps-studhilo-ring-showdown.v2.txt": Expected("pokerstars", 1),
    "PokerStars/scott-ad-riley.7cardStud.txt": Expected("pokerstars", 1),
    "PokerStars/scott-ad-riley.7cardStudPre.txt": Expected("pokerstars", 1),
    "PokerStars/scott-ad-riley.razz.txt": Expected("pokerstars", 1),
    "PokerStars/scott-ad-riley.stud.txt": Expected("pokerstars", 1),
    "Winamax/20220220_Munich 02_real_razz_fixed-limit.txt": Expected("winamax", 27),
    "Winamax/20220307_Malmö_real_7stud8_fixed-limit.txt": Expected("winamax", 2),
    "Winamax/7-StudHL-6max-EUR-25-50-201611._8games_.txt": Expected("winamax", 1),
    "Winning/7Stud-8max-USD-0.04-0.08-201907.CASHID-TN-Gorham GAMETYPE.txt": Expected("winning", 1),
    "Winning/7Stud-HL-8max-USD-0.04-0.08-202602.pokervector.txt": Expected("winning", 1),
    "Winning/7Stud-HL-8max-USD-0.10-0.20-202310.acr.txt": Expected("winning", 1),
    "iPoker/7-StudHL-EUR-0.05-0.10-201405.txt": Expected("ipoker", 5),
    "iPoker/7-StudHL-USD-0.05-0.10-201009.txt": Expected("ipoker", 2),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_hand_replays_or_is_refused_for_its_reason(name: str) -> None:
    assert_path(WILD / name, EXPECTED[name])


def test_every_file_has_its_source() -> None:
    with (WILD / "SOURCES.tsv").open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    listed = {row["path"] for row in rows}
    held = {str(p.relative_to(WILD)) for p in WILD.rglob("*") if p.is_file() and p.name != "SOURCES.tsv"}
    assert listed == held == set(EXPECTED)
    for row in rows:
        assert len(row["commit"]) == 40 and row["repo"].count("/") == 1 and row["license"], row


def test_a_rake_the_file_does_not_write_is_implied_and_said() -> None:
    # Bovada's hi/lo hand of 2014 writes "Total Pot($150)" and two halves of $73.50: $3 of rake, written nowhere
    _, [hand] = sites.load_each(WILD / "Bovada/7-StudHL-USD - RING - $5-$10, $1.25 Ante - 201404.txt")
    assert hand.record is not None and hand.record.rake == 300
    assert sites.verify(hand.record).notes == [
        "the rake, $3.00, is implied: the file does not state it (the pot less what the players take)"
    ]


def test_full_tilt_takes_its_rake_from_the_main_pot() -> None:
    # "Total pot $95.10 Main pot $85.10. Side pot $10. | Rake $3": $41.05 high and low, $5 and $5
    _, hands = sites.load_each(WILD / "FTP/10Game-6max-USD-2.50-5.201104.Sample.txt")
    [hand] = [h for h in hands if h.record is not None and h.record.info["hand"] == "29705138396"]
    assert hand.record is not None and hand.record.winnings is not None
    assert sorted(w for w in hand.record.winnings if w) == [500, 4105, 4105 + 500]
    sites.verify(hand.record)
    changed = hand.record.info["stated"]
    changed.rake_from_main = False  # the proportional share would take 31 cents of the side pot
    with pytest.raises(sites.SiteError, match=r"collects from side pot 1: the file says \$5\.00, the replay \$4\.84"):
        sites.verify(hand.record)


def test_a_line_about_a_player_that_moves_no_chips_is_a_comment() -> None:
    # Full Tilt's emotes ("allie3911 is feeling confused") and chat lines are kept, never fail a hand
    _, hands = sites.load_each(WILD / "FTP/10Game-6max-USD-2.50-5.201104.Sample.txt")
    comments = [
        str(a.text) for h in hands if h.record is not None for a in h.record.actions if type(a).__name__ == "Comment"
    ]
    assert "allie3911 is feeling confused" in comments
    text = (WILD / "FTP/10Game-6max-USD-2.50-5.201104.Sample.txt").read_bytes().decode("utf-16")
    stud = text.index("Full Tilt Poker Game #29705794645")  # the emote in a stud hand (the first is in a draw hand)
    broken = text[:stud] + text[stud:].replace("allie3911 is feeling confused", "allie3911 callz $5", 1)
    refused = [h for h in sites.loads_each(broken, "fulltilt")[1] if h.error is not None]
    assert len(refused) == 1 and "cannot read the line 'allie3911 callz $5'" in str(refused[0].error)
