"""``stud serve``: its options, and the one-line error without the server extra."""

from __future__ import annotations

import importlib.util

import pytest

from studpoker.cli import main
from studpoker.cli.serve import _db_url


def test_serve_without_the_extra(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "fastapi" else real(name, *a))
    assert main(["serve"]) == 2
    assert capsys.readouterr().err == "stud serve needs the server extra: pip install 'studpoker[server]'\n"


def test_serve_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    assert "--db URL" in capsys.readouterr().out
    assert _db_url(None) == "sqlite:///./studpoker.db"
    assert _db_url("room.db") == "sqlite:///room.db"
    assert _db_url("postgresql+psycopg://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert main(["serve", "--clock", "0"]) == 2
    assert "action_seconds" in capsys.readouterr().err
