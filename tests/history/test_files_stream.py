"""Reading a hand-history file a hand at a time (issue 27, item 5): the pieces a file is decoded in, the hands cut
from its lines, the cap on one hand, and memory that does not grow with the file."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from studpoker.history import files, phh, pokerstars, sites
from studpoker.history import text as file_text
from studpoker.history.files import HandWriter, iter_each, read_each
from studpoker.history.lines import lines_of, split_hands, stripped_hands
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
    assert list(lines_of(pieces, 1000, universal=True)) == text.splitlines(keepends=True)
    assert list(lines_of(pieces, 1000, universal=False)) == text.split("\n")


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
    monkeypatch.setattr(file_text, "CHUNK", size)
    assert "".join(files._decoded(path)) == decode(data)


def test_split_cuts_before_each_start_and_drops_a_part_over_the_cap() -> None:
    lines = ["head", "H 1", "a", "H 2", "b" * 50, "c", "H 3", "d"]
    found = list(split_hands(iter(lines), lambda line: line.startswith("H "), 40))
    assert found == [(0, ["head"], False), (1, ["H 1", "a"], True), (3, None, True), (6, ["H 3", "d"], True)]
    only = list(split_hands(iter(["H 1", "x"]), lambda line: line.startswith("H "), 40))
    assert only == [(0, ["H 1", "x"], True)]


def _stripped_by_parts(lines: list[str], limit: int) -> list[tuple[int, object, list[int]]]:
    """What ``stripped_hands`` must give, worked out the long way: the parts of ``split_hands``, then each part's
    non-blank lines stripped with their numbers."""
    out: list[tuple[int, object, list[int]]] = []
    for start, raw, _ in split_hands(lines, lambda line: line.strip().startswith("H "), limit):
        if raw is None:
            out.append((start + 1, "too long", []))
            continue
        numbers = [start + 1 + i for i, line in enumerate(raw) if line.strip()]
        if numbers:
            out.append((numbers[0], [raw[n - start - 1].strip() for n in numbers], numbers))
    return out


@pytest.mark.parametrize("seed", range(40))
def test_stripped_hands_are_the_parts_stripped(seed: int) -> None:
    """The PokerStars reader's one-pass cut (blank lines dropped, lines stripped, a part over the cap an error)
    gives what cutting into parts and then stripping them gives, on random texts."""
    rng = random.Random(seed)
    words = ["H 1\n", "  H 2 \n", "x\n", "  \n", "\n", "long line " * 3 + "\n", " y \r\n", "H\n"]
    lines = [rng.choice(words) for _ in range(rng.randrange(0, 30))]
    limit = rng.choice([10, 40, 1000])
    found = [
        (start, "too long" if isinstance(part, ValueError) else part, numbers)
        for start, part, numbers in stripped_hands(lines, lambda line: line.startswith("H "), limit, "too long")
    ]
    assert found == _stripped_by_parts(lines, limit)
    assert all(str(part) == "too long" for _, part, _ in stripped_hands(lines, bool, 1, "too long"))


def test_split_gives_a_hand_the_lines_above_its_start_that_lead_says() -> None:
    """PartyPoker: ``Game #2 starts.`` and the blank lines after it belong to the hand numbered below them."""
    lines = ["Game #1 starts.", "", "#Game No : 1", "x", "", "Game #2 starts.", "", "#Game No : 2", "y"]
    found = list(split_hands(iter(lines), partypoker.starts_hand, 1000, partypoker.lead))
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
    monkeypatch.setattr(file_text, "CHUNK", size)  # hands, lines and CRLF pairs cut between pieces
    for path in _variants(tmp_path, shared_data / STARS):
        whole = pokerstars.loads_each(decode(path.read_bytes()))
        hands = read_each(path)
        assert len(hands) == len(whole) == 11, path.name
        assert [(h.line, h.record) for h in hands] == [(line, hand) for line, hand in whole], path.name
    records = [h.record for h in hands if h.record is not None]
    tables = tmp_path / "hands.phhs"
    tables.write_text("\ufeff# written by hand\n" + phh.dumps(records).replace("\n", "\r\n"), encoding="utf-8")
    assert [h.record for h in read_each(tables)] == phh.loads(phh.dumps(records))


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
        expected = phh.dumps(chosen)
    assert path.read_text(encoding="utf-8") == expected
    with HandWriter(tmp_path / "left.phhs") as writer:
        writer.add(chosen[0])  # no commit: nothing is written
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


CHILD = textwrap.dedent(
    """
    import json, resource, sys
    from pathlib import Path
    from studpoker.history import files

    path, warm = Path(sys.argv[1]), [Path(name) for name in sys.argv[2:]]
    for small in warm:  # the modules imported by reading a small file of the room first
        for _ in files.iter_each(small):
            pass
    hands = None if warm else files.iter_each(path)  # else by finding the format
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    hands = hands or files.iter_each(path)
    count = errors = 0
    for hand in hands:
        count += 1
        errors += hand.error is not None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"count": count, "errors": errors, "base_kb": base, "peak_kb": peak}))
    """
)


@pytest.mark.slow
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
    monkeypatch.setattr(file_text, "CHUNK", 97)
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
    assert {"fulltilt", "partypoker", "winamax", "bovada", "ipoker", "merge"} <= rooms


#: A real hand of each XML room (in the shared data) and the id it is written with.
XML_HANDS = {
    "ipoker": (Path("sites") / "iPoker" / "cash" / "7-StudL-USD-0.05-0.10-201009.txt", 'gamecode="2418629537"'),
    "merge": (Path("sites") / "Merge" / "cash" / "7-Stud-USD-0.50-1.00-201102.Sample.txt", 'id="31423297-107"'),
}


def _whole(path: Path, room: str) -> list[files.FileHand]:
    """What the whole-text reader gives for the file at ``path``."""
    found = sites.loads_each(decode(path.read_bytes()), room)[1]
    return [files.FileHand(h.number, h.line, h.record, files._site_error(h.error), h.skipped) for h in found]


@pytest.mark.parametrize("size", [5, 97, 4096])
def test_xml_sessions_cut_between_pieces_read_as_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shared_data: Path, size: int
) -> None:
    """Every iPoker session of the shared data in one file (each with its XML declaration and header, CRLF, a
    byte-order mark), and every Merge file in one: tags, headers and line ends cut between pieces."""
    monkeypatch.setattr(file_text, "CHUNK", size)
    for room, folder in [("ipoker", "iPoker"), ("merge", "Merge")]:
        texts = [decode(p.read_bytes()) for p in sorted((shared_data / "sites" / folder).rglob("*")) if p.is_file()]
        path = tmp_path / f"{room}.xml"
        path.write_bytes(b"\xef\xbb\xbf" + "\n".join(texts).replace("\n", "\r\n").encode())
        hands = read_each(path)
        assert hands == _whole(path, room), room
        assert len(hands) == sum(len(sites.loads_each(text, room)[1]) for text in texts)  # each under its header
        assert sum(h.record is not None for h in hands) > len(hands) // 2


def test_a_hostile_xml_file_is_refused_before_any_hand_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shared_data: Path
) -> None:
    """A DOCTYPE after the first hand, its start cut between pieces: refused from the call, as the whole text is."""
    monkeypatch.setattr(file_text, "CHUNK", 3)
    text = decode((shared_data / XML_HANDS["ipoker"][0]).read_bytes())
    at = text.index("</game>") + 7
    path = tmp_path / "hostile.xml"
    path.write_text(text[:at] + '\n<!\n   doctype x [<!ENTITY a "b">]>' + text[at:], encoding="utf-8")
    with pytest.raises(files.HistoryFileError) as whole:
        files.read(path)
    with pytest.raises(files.HistoryFileError) as streamed:
        iter_each(path)
    line = 2 + text.count("\n", 0, at)
    assert (
        str(streamed.value)
        == str(whole.value)
        == (f"{path}: iPoker (line {line}): the file declares a DOCTYPE or an ENTITY: refused, not parsed")
    )


def test_an_xml_hand_over_the_cap_is_an_error_of_its_own(tmp_path: Path, shared_data: Path) -> None:
    """A hand bloated past the cap costs only itself; the hands after it read as in the whole text (a Merge hand's
    game is named by the ``<description>`` at the end of the bloated one); a bloated iPoker header costs its
    session's hands."""
    filler = "<!-- " + "x" * 60_000 + " -->"
    text = decode((shared_data / XML_HANDS["ipoker"][0]).read_bytes())
    at = text.index("<players>")  # in the first hand
    path = tmp_path / "ipoker.xml"
    path.write_text(text[:at] + filler + text[at:], encoding="utf-8")
    whole, hands = _whole(path, "ipoker"), list(iter_each(path, limit=50_000))
    assert hands[0].error == f"iPoker, line {hands[0].line}: {files._too_long(50_000)}"
    assert hands[1:] == whole[1:] and len(hands) == 2 and hands[1].record is not None
    header = tmp_path / "header.xml"
    header.write_text(text.replace("<general>", "<general>" + filler, 1), encoding="utf-8")
    assert [h.error for h in iter_each(header, "ipoker", limit=50_000)] == [
        f"iPoker, line 1: {files._too_long(50_000)}"
    ] * 2

    one = decode((shared_data / XML_HANDS["merge"][0]).read_bytes())
    end = one.index("</game>")
    path = tmp_path / "merge.xml"
    path.write_text(one[:end] + filler + one[end:] + "\n" + one.replace("31423297-107", "31423297-108"), "utf-8")
    whole, hands = _whole(path, "merge"), list(iter_each(path, limit=50_000))
    assert hands[0].error == f"Merge Gaming, line 2: {files._too_long(50_000)}"
    assert hands[1:] == whole[1:] and len(hands) == 2 and hands[1].record is not None


def _big_xml(shared_data: Path, room: str, path: Path, size: int) -> int:
    """A file of ``size`` bytes or more: a real hand of ``room`` written again and again under new ids (an iPoker
    session of them, each Merge hand after its description); the number of hands."""
    source, mark = XML_HANDS[room]
    text = decode((shared_data / source).read_bytes())
    count = 0
    with path.open("w", encoding="utf-8") as out:
        if room == "ipoker":
            start, end = text.index("<game "), text.index("</game>") + len("</game>")
            head, text = text[:start], text[start:end]
            out.write(head)
        while out.tell() < size:
            count += 1
            out.write(text.replace(mark, mark[:-1] + f'-{count}"') + "\n")
        if room == "ipoker":
            out.write("</session>\n")
    return count


@pytest.mark.slow
@pytest.mark.parametrize("room", ["ipoker", "merge"])
def test_reading_a_30_mb_xml_session_keeps_memory_bounded(tmp_path: Path, shared_data: Path, room: str) -> None:
    """The whole-text reader held the text, its bytes and every hand read: 70 to 100 MB more for 30 MB; a hand at a
    time, the peak does not move (the base is taken with the modules imported, a small file of the room read)."""
    path, small = tmp_path / f"{room}.xml", tmp_path / f"small-{room}.xml"
    count = _big_xml(shared_data, room, path, 30 * 2**20)
    _big_xml(shared_data, room, small, 1)
    run = subprocess.run(
        [sys.executable, "-c", CHILD, str(path), str(small)], capture_output=True, text=True, check=True, timeout=600
    )
    found = json.loads(run.stdout)
    assert found["count"] == count and found["errors"] == 0
    grown_mb = (found["peak_kb"] - found["base_kb"]) / 1024
    assert grown_mb < 20, f"reading 30 MB grew the peak RSS by {grown_mb:.0f} MB"


@pytest.mark.parametrize(
    "name", ["Winamax/7-StudHL-6max-EUR-25-50-201611._8games_.txt", "Merge/HORSE-Tournament-Freeroll.201107.xml"]
)
def test_a_files_encoding_is_found_once(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    # a UTF-8 file is checked whole before it is read (Windows-1252 otherwise): once for detecting its room and
    # reading it, not once for each (issue 30)
    found: list[Path] = []
    real = file_text.find_encoding

    def counted(path: Path) -> file_text.Encoding:
        found.append(path)
        return real(path)

    monkeypatch.setattr(file_text, "find_encoding", counted)
    path = Path(__file__).parent / "wild" / name
    hands = list(iter_each(path))
    assert hands and all(h.error is None for h in hands) and len(found) == 1
