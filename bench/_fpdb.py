"""fpdb-3's importer, run headless beside ``stud import`` (bench/tracker.py ``--fpdb``).

fpdb-3 (github.com/jejellyroll-fr/fpdb-3) is the one open tracker that reads stud. It is not on PyPI and needs Qt's
libraries (PySide6), so it runs in a venv of its own, as a separate program: its command-line bulk importer
(``python -m fpdb_3_legacy.GuiBulkImport -x -q -C CONFIG -c PokerStars -f FOLDER``) imports PySide6 but opens no
window (``QT_QPA_PLATFORM=offscreen``). :func:`setup` makes the venv from a clone at a fixed commit, :func:`run`
imports files into a new SQLite database and reads back what fpdb stored and its own timer.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = "https://github.com/jejellyroll-fr/fpdb-3"
COMMIT = "73e75ffe74697fa3965174caeab6787f32695271"  # 2026-08-20, fpdb 3.7.0
#: What its import path needs (not the GUI's charts, not a database server).
PACKAGES = (
    "PySide6-Essentials==6.12.0",
    "pyzmq==27.3.0",
    "numpy==2.4.6",
    "pytz==2024.1",
    "xlrd==2.0.1",
    "defusedxml==0.7.1",
    "colorlog==6.9.0",
    "psutil==7.2.2",
    "cachetools==5.5.0",
    "beautifulsoup4==4.12.3",
)
#: The Debian libraries Qt's wheels link against.
APT = ("libgl1", "libegl1", "libxkbcommon0", "libfontconfig1", "libglib2.0-0", "libdbus-1-3")
_SUMMARY = re.compile(
    r"(?:Total stored|Stored): (?P<stored>[\d,.]+), Duplicates: (?P<dups>[\d,.]+), Partial: (?P<partial>[\d,.]+), "
    r"Skipped: (?P<skipped>[\d,.]+), Errors: (?P<errors>[\d,.]+),.*?Time: (?P<seconds>[\d,.]+)s",
    re.DOTALL,
)


def setup(folder: Path, repository: Path | None = None) -> Path:
    """fpdb's source (at :data:`COMMIT`, from ``repository``, a clone or a bare mirror, else cloned from GitHub) and
    venv under ``folder``, made once; its interpreter. The Debian libraries of :data:`APT` must be installed
    (``apt-get install``); everything else comes from PyPI."""
    source, venv = folder / "fpdb", folder / "venv"
    python = venv / "bin" / "python"
    if not (source / "fpdb_3_legacy").is_dir():
        if repository is None:
            repository = folder / "clone"
            if not repository.is_dir():
                subprocess.run(["git", "clone", "-q", "--bare", REPO, str(repository)], check=True)
        source.mkdir(parents=True, exist_ok=True)
        where = ["--git-dir", str(repository)] if (repository / "objects").is_dir() else ["-C", str(repository)]
        archive = subprocess.run(["git", *where, "archive", COMMIT], check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", str(source)], input=archive.stdout, check=True)
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", *PACKAGES], check=True)
    return python


def _config(folder: Path) -> Path:
    """The smallest configuration that imports PokerStars files into ``folder/db/fpdb.db3``: the PokerStars site and
    converter, a SQLite database, the HUD off, English numbers."""
    (folder / "db").mkdir(parents=True, exist_ok=True)
    path = folder / "fpdb_config.xml"
    path.write_text(
        '<?xml version="1.0" ?><FreePokerToolsConfig>\n'
        '<general version="83" config_wrap_len="-1" day_start="5" ui_language="en" config_difficulty="expert"/>\n'
        '<import callFpdbHud="False" interval="5" fastStoreHudCache="False" saveActions="True" cacheSessions="False"'
        ' sessionTimeout="30" publicDB="False"/>\n'
        '<supported_sites><site site_name="PokerStars" enabled="True" screen_name="Hero" site_path="" HH_path=""'
        ' TS_path="" aux_enabled="False"/></supported_sites>\n'
        '<supported_databases><database db_server="sqlite" db_name="fpdb.db3"'
        f' db_path="{folder / "db"}" db_ip="localhost" db_user="fpdb" db_pass="fpdb"/></supported_databases>\n'
        '<hhcs><hhc site="PokerStars" converter="PokerStarsToFpdb" summaryImporter="PokerStarsSummary"/></hhcs>\n'
        "</FreePokerToolsConfig>\n",
        encoding="utf-8",
    )
    return path


def run(python: Path, files: list[Path], folder: Path) -> dict[str, Any]:
    """Import ``files`` with fpdb into a new database under ``folder``: hands stored, fpdb's errors, the seconds
    of its own timer around the import (``seconds``) and of the whole command, and each player's profit in chips
    (its ``totalProfit``, in hundredths, summed)."""
    folder = folder.resolve()
    for old in ("db", "input", "home"):
        shutil.rmtree(folder / old, ignore_errors=True)
    config = _config(folder)
    inputs = folder / "input"
    inputs.mkdir()
    for i, path in enumerate(files):  # one folder: fpdb imports it in one call
        (inputs / f"{i:04d}-{path.name}").symlink_to(path.resolve())
    (folder / "home").mkdir()
    env = dict(os.environ, HOME=str(folder / "home"), QT_QPA_PLATFORM="offscreen", LC_ALL="C.UTF-8")
    env.update(PYTHONPATH=str(python.parents[2] / "fpdb"), PYTHONDONTWRITEBYTECODE="1")
    env.pop("DISPLAY", None)
    command = [str(python), "-m", "fpdb_3_legacy.GuiBulkImport", "-x", "-q", "-C", str(config), "-c", "PokerStars"]
    start = time.perf_counter()
    done = subprocess.run(
        [*command, "-f", str(inputs)], cwd=env["PYTHONPATH"], env=env, capture_output=True, text=True, check=False
    )
    whole = time.perf_counter() - start
    found = _SUMMARY.search(done.stdout)
    if found is None:
        raise RuntimeError(f"fpdb printed no summary (exit {done.returncode}): {done.stderr[-2000:]}")
    number = {key: float(value.replace(",", "")) for key, value in found.groupdict().items()}
    with sqlite3.connect(folder / "db" / "fpdb.db3") as db:
        profits = dict(
            db.execute(
                "SELECT p.name, SUM(hp.totalProfit) FROM HandsPlayers hp JOIN Players p ON p.id = hp.playerId"
                " GROUP BY p.name"
            ).fetchall()
        )
    return {
        "stored": int(number["stored"]),
        "errors": int(number["errors"] + number["partial"] + number["skipped"]),
        "seconds": number["seconds"],
        "command_seconds": whole,
        "profits": {name: round(value / 100) for name, value in profits.items()},
    }
