"""One set of verbs for every format (issue 28, item 3): ``loads``/``load`` give a list of hands and
``dumps``/``dump`` write them, for PHH, PokerStars text and every room (a room's export is read, not written), at
the package level with the format told from the file or text, and module by module."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from studpoker import history
from studpoker.engine import HandState, Rules
from studpoker.history import FileHand, HandRecord, HistoryFileError, phh, pokerstars, record_hand, sites
from studpoker.history.sites import SiteError


def _played(seed: int, variant: str = "razz") -> HandRecord:
    state = HandState(Rules.casino(variant, 1, 3, 10, 20), [200, 200, 200], seed=seed)
    while not state.is_over:
        legal = state.legal_actions()
        _ = state.apply(legal[1] if len(legal) > 1 and seed % 2 else legal[0])
    return record_hand(state, players=["Ann", "Bob", "Cid"])


RECORDS = [_played(seed, variant) for seed, variant in ((1, "razz"), (2, "7stud"), (3, "7stud8"), (4, "5stud"))]


def test_phh_verbs_one_hand_and_several() -> None:
    one = phh.dumps(RECORDS[0])
    several = phh.dumps(RECORDS)
    assert not one.startswith("[1]") and several.startswith("[1]\n")
    assert phh.loads(one) == [RECORDS[0]] and phh.loads_hand(one) == RECORDS[0]
    assert phh.loads(several) == RECORDS
    assert phh.loads(phh.dumps(RECORDS[:1])) == RECORDS[:1]  # a list of one is a .phhs of one table


def test_phh_old_names_warn_and_give_the_same() -> None:
    with pytest.warns(DeprecationWarning, match="phh.loads reads every hand"):
        assert phh.loads_all(phh.dumps(RECORDS)) == RECORDS
    with pytest.warns(DeprecationWarning, match="phh.dumps"):
        assert phh.dumps_all(RECORDS) == phh.dumps(RECORDS)


@pytest.mark.parametrize(("module", "suffix"), [(phh, ".phhs"), (pokerstars, ".txt")])
def test_each_writing_format_has_the_four_verbs(module: object, suffix: str, tmp_path: Path) -> None:
    path = tmp_path / f"hands{suffix}"
    module.dump(RECORDS, path)  # type: ignore[attr-defined]
    text = path.read_text(encoding="utf-8")
    assert text == module.dumps(RECORDS)  # type: ignore[attr-defined]
    loaded = module.load(path)  # type: ignore[attr-defined]
    assert loaded == module.loads(text)  # type: ignore[attr-defined]
    assert [r.rules.variant for r in loaded] == [r.rules.variant for r in RECORDS]
    assert [r.players for r in loaded] == [r.players for r in RECORDS]


@pytest.mark.parametrize("fmt", ["phh", "pokerstars"])
def test_the_package_verbs_round_trip_and_detect_the_format(fmt: str, tmp_path: Path) -> None:
    text = history.dumps(RECORDS, fmt)
    assert [r.players for r in history.loads(text)] == [r.players for r in RECORDS]  # told from the text
    assert history.loads(text, fmt) == history.loads(text)
    path = tmp_path / ("hands.phhs" if fmt == "phh" else "hands.txt")
    history.dump(RECORDS, path)
    assert history.load(path) == history.read(path) == history.loads(path.read_text(encoding="utf-8"))
    each = list(history.load_each(path))
    assert all(isinstance(h, FileHand) for h in each) and [h.record for h in each] == history.load(path)
    history.dump(RECORDS[0], tmp_path / "one.phh")
    assert history.load(tmp_path / "one.phh") == [RECORDS[0]]


def test_a_rooms_export_is_read_not_written(tmp_path: Path) -> None:
    for room in sites.ROOMS:
        if room == "pokerstars":
            continue
        title = sites.title(room)
        with pytest.raises(SiteError, match=f"reads {title} hand histories but does not write them"):
            history.dumps(RECORDS, room)
        with pytest.raises(SiteError, match="does not write them"):
            history.dump(RECORDS, tmp_path / "x.txt", room)
        with pytest.raises(SiteError, match="does not write them"):
            sites.dumps(RECORDS, room)
    assert not (tmp_path / "x.txt").exists()


def test_unknown_formats_are_named() -> None:
    with pytest.raises(HistoryFileError, match="unknown format 'xml': use phh, pokerstars, absolute"):
        history.loads("", "xml")
    with pytest.raises(HistoryFileError, match="unknown format 'xml'"):
        history.dumps(RECORDS, "xml")


def test_every_room_file_reads_the_same_through_every_door(shared_data: Path) -> None:
    """For each shared room file that reads whole: ``history.load`` (detected), ``history.loads`` of its text
    (detected), the room's ``sites.load`` and the stud hands ``load_each`` finds are one list."""
    checked = 0
    for path in sorted((shared_data / "sites").rglob("*")):
        if not path.is_file() or path.suffix.lower() not in (".txt", ".xml"):
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                records = history.load(path)
        except (HistoryFileError, ValueError):
            continue  # a file with a hand that cannot be read: load_each's business (tests/history/sites)
        room = sites.detect(history.files.read_text(path))
        assert room is not None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert history.loads(history.files.read_text(path)) == records, path
            assert sites.load(path, room) == records or room == "pokerstars", path
            each = [h.record for h in history.load_each(path) if h.record is not None]
        assert each == records, path
        checked += 1
    assert checked >= 20
