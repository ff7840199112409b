"""The user's data folder, where studpoker keeps what it writes for him between runs (the tracker's hand database,
the dealer's journal): ``$XDG_DATA_HOME/studpoker`` or ``~/.local/share/studpoker``; ``%LOCALAPPDATA%\\studpoker``
on Windows; ``~/Library/Application Support/studpoker`` on macOS."""

from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = ["data_folder"]


def data_folder() -> Path:
    """The folder (not made here: whoever writes in it makes it)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "studpoker"
