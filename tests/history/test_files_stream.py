"""Reading a hand-history file a hand at a time (issue 27, item 5): the pieces a file is decoded in, the hands cut
from its lines, the cap on one hand, and memory that does not grow with the file."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from studpoker.history import files, phh, pokerstars, sites
from studpoker.history.files import HandWriter, iter_each, read_each
from studpoker.history.sites import decode, partypoker

STARS = Path("pokerstars") / "7-Stud-USD-0.04-0.08-200911.txt"  # in the shared data
TEXTS = [
    "a\nb\n",
    "a\r\nb\r\n\r\nc",
    "\n\nx\ry\r\n",
    "one line, no end",
    "form\x0cfeed\u2028sep\x85next\n\n",
    "",
]


def _pieces(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("size", [1, 2, 3, 7, 100])
def test_lines_split_across_pieces_as_the_whole_text_splits(text: str, size: int) -> None:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    pieces = _pieces(text, size)
    assert list(files._lines(pieces, 1000, universal=True)) == text.splitlines(keepends=True)
    assert list(files._lines(pieces, 1000, universal=False)) == text.split("\n")


@pytest.mark.parametrize("size", [1, 2, 5, 64])
@pytest.mark.parametrize(
    "data",
    [
        b"a\r\nb\r\n\r\nc",  # CRLF, a pair maybe split between two pieces, no line end at the end
        b"\xef\xbb\xbfPokerStars\r\nx\r",  # UTF-8 byte-order mark, a lone CR at the end
        "caf\u00e9 \u20ac\r\n".encode("utf-16"),  # UTF-16 with its mark: two bytes a character
        "h\u00e9ro\n".encode("cp1252") * 3,  # not UTF-8: Windows-1252
        "m\u00e9lange \u20ac\n".encode() + b"\xff",  # UTF-8 but for its last byte: Windows-1252, as decode says
    ],
)
def test_pieces_decode_as_the_whole_file_decodes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data: bytes, size: int
) -> None:
    path = tmp_path / "hands.txt"
    path.write_bytes(data)
    monkeypatch.setattr(files, "CHUNK", size)
    assert "".join(files._decoded(path)) == decode(data)


def test_split_cuts_before_each_start_and_drops_a_part_over_the_cap() -> None:
    lines = ["head", "H 1", "a", "H 2", "b" * 50, "c", "H 3", "d"]
    found = list(files._split(iter(lines), lambda line: line.startswith("H "), 40))
    assert found == [(0, ["head"], False), (1, ["H 1", "a"], True), (3, None, True), (6, ["H 3", "d"], True)]
    only = list(files._split(iter(["H 1", "x"]), lambda line: line.startswith("H "), 40))
    assert only == [(0, ["H 1", "x"], True)]


def test_split_gives_a_hand_the_lines_above_its_start_that_lead_says() -> None:
    """PartyPoker: ``Game #2 starts.`` and the blank lines after it belong to the hand numbered below them."""
    lines = ["Game #1 starts.", "", "#Game No : 1", "x", "", "Game #2 starts.", "", "#Game No : 2", "y"]
    found = list(files._split(iter(lines), partypoker.starts_hand, 1000, partypoker.lead))
    assert found == [(0, lines[:5], True), (5, lines[5:], True)]
    assert [s for s, _ in partypoker.loads_each("\n".join(lines))] == [1, 6]


def _variants(tmp_path: Path, stars: Path) -> list[Path]:
    """The shared PokerStars file as CRLF, with a byte-order mark, and without its last line end."""
    data = stars.read_bytes().removeprefix(b"\xef\xbb\xbf").replace(b"\r\n", b"\n")
    out = []
    for name, variant in [
        ("crlf.txt", data.replace(b"\n", b"\r\n")),
        ("bom.txt", b"\xef\xbb\xbf" + data),
        ("no-end.txt", data.rstrip(b"\n")),
    ]:
        out.append(tmp_path / name)
        out[-1].write_bytes(variant)
    return out


@pytest.mark.parametrize("size", [13, 4096])
def test_hands_split_across_pieces_read_as_the_whole_text_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shared_data: Path, size: int
) -> None:
    monkeypatch.setattr(files, "CHUNK", size)  # hands, lines and CRLF pairs cut between pieces
    for path in _variants(tmp_path, shared_data / STARS):
        whole = pokerstars.loads_each(decode(path.read_bytes()))
        hands = read_each(path)
        assert len(hands) == len(whole) == 11, path.name
        assert [(h.line, h.record) for h in hands] == [(line, hand) for line, hand in whole], path.name
    records = [h.record for h in hands if h.record is not None]
    tables = tmp_path / "hands.phhs"
    tables.write_text("\ufeff# written by hand\n" + phh.dumps_all(records).replace("\n", "\r\n"), encoding="utf-8")
    assert [h.record for h in read_each(tables)] == phh.loads_all(phh.dumps_all(records))


def test_a_hand_over_the_cap_is_an_error_of_its_own(tmp_path: Path, shared_data: Path) -> None:
    text = decode((shared_data / STARS).read_bytes())
    lines = text.split("\n")
    second = next(i for i, line in enumerate(lines) if line.startswith("PokerStars ") and i > 0)
    bloated = lines[:second] + ['Player said, "' + "x" * 5000 + '"'] * 30 + lines[second:]
    path = tmp_path / "bloated.txt"
    path.write_text("\n".join(bloated), encoding="utf-8")
    hands = list(iter_each(path, limit=50_000))
    assert len(hands) == 11 and all(h.record is not None for h in hands[1:])
    assert hands[0].error == (
        "the hand runs past 50,000 characters, the most one hand may hold (a file is read a hand at a time):"
        " skipped up to the next hand"
    )
    one_line = tmp_path / "one-line.phhs"
    one_line.write_text("[1]\n" + "y" * 200_000, encoding="utf-8")  # no line end at all: the line is cut too
    [hand] = iter_each(one_line, limit=50_000)
    assert hand.number == 1 and hand.error is not None and "runs past 50,000 characters" in hand.error


@pytest.mark.parametrize("name", ["one.phh", "many.phhs", "many.txt"])
def test_the_writer_writes_what_write_wrote_and_nothing_until_committed(
    tmp_path: Path, shared_data: Path, name: str
) -> None:
    records = [h.record for h in read_each(shared_data / STARS) if h.record is not None]
    chosen = records[:1] if name == "one.phh" else records
    path = tmp_path / name
    with HandWriter(path) as writer:
        for record in chosen:
            writer.add(record)
        assert not path.exists()
        writer.commit()
    expected = pokerstars.dumps(chosen) if name.endswith(".txt") else None
    if name == "one.phh":
        expected = phh.dumps(chosen[0])
    elif name == "many.phhs":
        expected = phh.dumps_all(chosen)
    assert path.read_text(encoding="utf-8") == expected
    with HandWriter(tmp_path / "left.phhs") as writer:
        writer.add(chosen[0])  # no commit: nothing is written
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


CHILD = textwrap.dedent(
    """
    import json, resource, sys
    from pathlib import Path
    from studpoker.history import files

    path = Path(sys.argv[1])
    hands = files.iter_each(path)  # the format found, the modules imported
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    count = errors = 0
    for hand in hands:
        count += 1
        errors += hand.error is not None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"count": count, "errors": errors, "base_kb": base, "peak_kb": peak}))
    """
)


def test_reading_a_30_mb_file_of_junk_hands_keeps_memory_bounded(tmp_path: Path) -> None:
    """The whole-text reader held the text, its lines and an error a hand: hundreds of MB for 30 MB of junk."""
    path = tmp_path / "junk.txt"
    hand = "PokerStars Hand #{}: 7 Card Stud junk\ngarbage\n\n\n"
    with path.open("w", encoding="utf-8") as out:
        written = number = 0
        while written < 30 * 2**20:
            number += 1
            written += out.write(hand.format(number))
    run = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, check=True, timeout=600
    )
    found = json.loads(run.stdout)
    assert found["count"] == found["errors"] == number
    grown_mb = (found["peak_kb"] - found["base_kb"]) / 1024
    assert grown_mb < 60, f"reading 30 MB grew the peak RSS by {grown_mb:.0f} MB"


def test_every_shared_room_file_reads_a_hand_at_a_time_as_whole(
    shared_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each room's export, decoded in pieces of 97 bytes and cut into hands as its lines come (PartyPoker's hands
    begin above their number line), gives what its whole text gives."""
    monkeypatch.setattr(files, "CHUNK", 97)
    paths = sorted(p for p in (shared_data / "sites").rglob("*") if p.is_file())
    rooms = set()
    for path in paths:
        room = files.format_of(path)
        if room == "pokerstars":  # the PokerStars format, not the room: tested above
            continue
        rooms.add(room)
        whole = sites.loads_each(decode(path.read_bytes()), room)[1]
        expected = [files.FileHand(h.number, h.line, h.record, files._site_error(h.error), h.skipped) for h in whole]
        assert read_each(path) == expected, path
    assert {"fulltilt", "partypoker", "winamax", "bovada", "ipoker"} <= rooms
