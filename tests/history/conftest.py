"""Where the shared real hand histories are: ``$STUDPOKER_DATA`` or ``../shared/data`` from the repository."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

DATA = Path(os.environ.get("STUDPOKER_DATA", Path(__file__).resolve().parents[2] / ".." / "shared" / "data"))


@pytest.fixture
def shared_data() -> Path:
    if not DATA.is_dir():
        pytest.skip(f"the shared hand histories are not at {DATA} (set STUDPOKER_DATA)")
    return DATA
