"""The tables' per-user cache file: what it holds equals a fresh build, and a bad file is never trusted.

No timings here: the cold-start target lives in ``bench/coldstart.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from studpoker.evaluation import _tables

Tables = dict[str, list[int]]


@pytest.fixture(scope="module")
def fresh() -> Tables:
    """Every table built from first principles, once for this module."""
    return _tables.build_tables()


def _decoded(stored: _tables.Stored) -> Tables:
    out = {}
    for name, (code, raw) in stored.items():
        out[name] = np.frombuffer(raw, dtype=_tables._DTYPE[code]).tolist()
    return out


def _file(directory: Path) -> Path:
    key = _tables.version_key()
    assert key is not None
    return directory / f"tables-{key[:16]}.bin"


def _run(code: str, cache: Path | str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("STUDPOKER_CACHE", "XDG_CACHE_HOME")}
    environ.update({"STUDPOKER_CACHE": str(cache), **env})
    return subprocess.run([sys.executable, "-c", code], env=environ, capture_output=True, text=True, check=False)


def test_a_written_file_reads_back_as_the_fresh_build(tmp_path: Path, fresh: Tables) -> None:
    path = str(_file(tmp_path))
    written, how = _tables.load_tables(path)
    assert how == "written" and os.path.isfile(path)
    read, how = _tables.load_tables(path)
    assert how == "read"
    assert _decoded(read) == _decoded(written) == fresh
    assert [name for name, _, _ in _tables._LAYOUT] == list(fresh)
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]  # no temporary file left behind


@pytest.mark.slow
def test_the_tables_a_process_reads_from_its_cache_equal_fresh_ones(tmp_path: Path, fresh: Tables) -> None:
    # A first process fills the cache; a second one reads it (and says so) and dumps what every table function
    # returns, which must be exactly what the generator builds.
    assert _run("import studpoker; studpoker.high_value('As Kd Qc Jh 9s')", tmp_path).returncode == 0
    code = (
        "import json\n"
        "from studpoker.evaluation import _tables as t\n"
        "assert t.load_tables(t.cache_file())[1] == 'read'\n"
        "out = {'high_classes': [[int(c.category), *c.ranks] for c in t.high_classes()],\n"
        "       'razz_classes': [[int(c.category), *c.ranks] for c in t.razz_classes()],\n"
        "       'low8_classes': [[int(c.category), *c.ranks] for c in t.low8_classes()],\n"
        "       'flush_values': list(t.flush_values())}\n"
        "for n in (5, 6, 7):\n"
        "    r = t.rank_table(n)\n"
        "    out[f'rank{n}'] = [list(r.keys), list(r.high), list(r.low8), list(r.razz)]\n"
        "    for kind in ('high', 'low8', 'razz'):\n"
        "        d, d16 = t.dense_table(n, kind), t.dense_table16(n, kind)\n"
        "        assert str(d.dtype) == 'int32' and str(d16.dtype) == 'uint16' and (d == d16).all()\n"
        "        assert not d.flags.writeable and not d16.flags.writeable\n"
        "        out[f'dense{n}{kind}'] = [len(d), d.nonzero()[0].tolist(), d[d.nonzero()[0]].tolist()]\n"
        "print(json.dumps(out))\n"
    )
    result = _run(code, tmp_path)
    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout)

    def rows(flat: list[int]) -> list[list[int]]:
        return [flat[i : i + 6] for i in range(0, len(flat), 6)]

    assert got["high_classes"] == rows(fresh["high_classes"])
    assert got["razz_classes"] == rows(fresh["razz_classes"])
    assert got["low8_classes"] == [[int(c.category), *c.ranks] for c in _tables._low8_of(_tables._build_razz_classes())]
    assert got["flush_values"] == fresh["flush_values"]
    for n in (5, 6, 7):
        keys = fresh[f"keys{n}"]
        assert got[f"rank{n}"] == [keys, fresh[f"high{n}"], fresh[f"low8{n}"], fresh[f"razz{n}"]]
        for kind in ("high", "low8", "razz"):
            pairs = sorted((k, v) for k, v in zip(keys, fresh[f"{kind}{n}"], strict=True) if v)
            assert got[f"dense{n}{kind}"] == [max(keys) + 1, [k for k, _ in pairs], [v for _, v in pairs]]


def test_the_classes_built_in_this_process_equal_the_generators() -> None:
    assert _tables.high_classes() == _tables._build_high_classes()
    assert _tables.razz_classes() == _tables._build_razz_classes()
    assert all(type(c.category) is _tables.HandCategory for c in _tables.high_classes())
    assert all(type(c.category) is _tables.LowCategory for c in _tables.razz_classes())


def _flip_a_table_byte(blob: bytes) -> bytes:
    at = len(blob) - 1000
    return blob[:at] + bytes([blob[at] ^ 1]) + blob[at + 1 :]


def _other_key(blob: bytes) -> bytes:
    # A whole, self-consistent file from another version of the generator: only its key differs.
    head, _, rest = blob.partition(b"\nkey ")
    _, _, rest = rest.partition(b"\n")
    return head + b"\nkey " + b"0" * 64 + b"\n" + rest


DAMAGE: dict[str, Callable[[bytes], bytes]] = {
    "empty": lambda blob: b"",
    "truncated": lambda blob: blob[: len(blob) // 2],
    "one byte short": lambda blob: blob[:-1],
    "one byte more": lambda blob: blob + b"\0",
    "a table byte flipped": _flip_a_table_byte,
    "the checksum changed": lambda blob: blob.replace(b"sha256 ", b"sha256 0", 1)[: len(blob)],
    "another version's file": _other_key,
    "another format": lambda blob: blob.replace(b"tables 1", b"tables 9", 1),
    "garbage": lambda blob: os.urandom(len(blob)),
}


@pytest.mark.parametrize("damage", DAMAGE.values(), ids=DAMAGE.keys())
def test_a_damaged_file_is_rebuilt_never_trusted(
    tmp_path: Path, fresh: Tables, damage: Callable[[bytes], bytes]
) -> None:
    path = _file(tmp_path)
    _tables.load_tables(str(path))
    path.write_bytes(damage(path.read_bytes()))
    tables, how = _tables.load_tables(str(path))
    assert how == "written" and _decoded(tables) == fresh
    assert _tables.load_tables(str(path))[1] == "read"  # the rebuilt file is whole again


def test_a_changed_generator_does_not_read_an_old_file(
    tmp_path: Path, fresh: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = str(tmp_path / "tables.bin")
    monkeypatch.setattr(_tables, "version_key", lambda: "a" * 64)
    assert _tables.load_tables(path)[1] == "written"
    assert _tables.load_tables(path)[1] == "read"
    monkeypatch.setattr(_tables, "version_key", lambda: "b" * 64)  # the generator's source changed
    tables, how = _tables.load_tables(path)
    assert how == "written" and _decoded(tables) == fresh


def test_the_version_key_follows_the_generators_source() -> None:
    key = _tables.version_key()
    assert key is not None and len(key) == 64
    assert _tables.cache_file() is None or key[:16] in os.path.basename(str(_tables.cache_file()))


def test_an_unwritable_cache_directory_still_works(tmp_path: Path, fresh: Tables) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    path = str(blocker / "studpoker" / "tables.bin")  # cannot be created, even by root
    tables, how = _tables.load_tables(path)
    assert how == "built" and _decoded(tables) == fresh
    result = _run("import studpoker; print(studpoker.high_value('As Kd Qc Jh 9s'))", blocker / "studpoker")
    assert result.returncode == 0 and result.stdout.strip().isdigit(), result.stderr


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes into read-only directories")
def test_a_read_only_cache_directory_still_works(tmp_path: Path) -> None:
    tmp_path.chmod(0o500)
    try:
        result = _run("import studpoker; print(studpoker.high_value('As Kd Qc Jh 9s'))", tmp_path)
        assert result.returncode == 0 and result.stdout.strip().isdigit(), result.stderr
        assert list(tmp_path.iterdir()) == []
    finally:
        tmp_path.chmod(0o700)


def test_no_cache_at_all() -> None:
    assert _tables.load_tables(None)[1] == "built"


def test_the_cache_directory_comes_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STUDPOKER_CACHE", str(tmp_path / "mine"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert _tables.cache_dir() == str(tmp_path / "mine")
    monkeypatch.setenv("STUDPOKER_CACHE", "")  # set but empty: no cache
    assert _tables.cache_dir() is None and _tables.cache_file() is None
    monkeypatch.delenv("STUDPOKER_CACHE")
    assert _tables.cache_dir() == str(tmp_path / "xdg" / "studpoker")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/dir")  # ignored, as the XDG specification says
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert _tables.cache_dir() == str(tmp_path / "home" / ".cache" / "studpoker")


def test_a_process_writes_where_the_environment_says_and_the_scalar_path_needs_no_numpy(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    code = (
        "import sys, studpoker\n"
        "from studpoker.evaluation import _tables as t\n"
        "studpoker.evaluate_high('As Kd Qc Jh 9s 2c 3d'); studpoker.evaluate_razz('As 2d 3c 4h 6s')\n"
        "print(t.cache_file(), 'numpy' in sys.modules)\n"
    )
    first = _run(code, cache)
    assert first.returncode == 0, first.stderr
    assert [p.name for p in cache.iterdir()] == [_file(cache).name]
    assert first.stdout.split()[0] == str(_file(cache))
    second = _run(code, cache)
    assert second.returncode == 0, second.stderr
    assert second.stdout.split()[1] == "False"  # read from the cache: the scalar path never imported NumPy
    off = _run(code, "")
    assert off.returncode == 0 and off.stdout.split()[0] == "None", off.stderr


@pytest.mark.slow
def test_two_processes_filling_the_cache_at_once(tmp_path: Path, fresh: Tables) -> None:
    code = (
        "import sys, time\n"
        "from studpoker.evaluation import _tables as t\n"
        "while time.time() < float(sys.argv[1]): time.sleep(0.001)\n"  # both start their first use together
        "tables, how = t.load_tables(t.cache_file())\n"
        "import studpoker; studpoker.high_value('As Kd Qc Jh 9s')\n"
        "print(how)\n"
    )
    environ = {k: v for k, v in os.environ.items() if k != "STUDPOKER_CACHE"}
    environ["STUDPOKER_CACHE"] = str(tmp_path)
    import time

    start = str(time.time() + 1.0)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, start], env=environ, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    outputs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), outputs
    assert {out.strip() for out, _ in outputs} <= {"written", "read"}
    assert [p.name for p in tmp_path.iterdir()] == [_file(tmp_path).name]  # one whole file, no temporary left
    tables, how = _tables.load_tables(str(_file(tmp_path)))
    assert how == "read" and _decoded(tables) == fresh
