"""Running ``stud`` in-process for the CLI tests."""

from __future__ import annotations

import pytest

from studpoker.cli import main


def stud(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    """``stud ARGS...`` in this process: (exit status, stdout, stderr); argparse's exits are caught."""
    try:
        code = main([str(a) for a in args])
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err
