"""Ctrl-C in any command: one line, ``stud CMD: interrupted``, exit status 130, never a traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.processes import wait_until

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="FIFOs and /proc")


@pytest.mark.parametrize(
    "command",
    [
        ["replay", "{fifo}"],
        ["convert", "{fifo}", "{out}"],
    ],
    ids=["replay", "convert"],
)
def test_ctrl_c_while_reading_a_hand_history(tmp_path: Path, command: list[str]) -> None:
    fifo = tmp_path / "hands.phh"
    os.mkfifo(fifo)
    words = [w.format(fifo=fifo, out=tmp_path / "out.phhs") for w in command]
    process = subprocess.Popen(
        [sys.executable, "-m", "studpoker", *words],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        # opening the FIFO for writing waits until the command opens it for reading; it then reads, for good. The
        # signal is sent once the command sleeps in that read (as a user's Ctrl-C comes): one sent just before the
        # read would only be seen when the read returns (CPython checks signals between bytecodes).
        writer = os.open(fifo, os.O_WRONLY)
        os.write(writer, b'variant = "7S"\n')
        wchan = Path(f"/proc/{process.pid}/wchan")
        wait_until(lambda: "pipe_read" in wchan.read_text(), "the command waits for more of the file", process)
        os.killpg(process.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
        _, err = process.communicate(timeout=120)
        os.close(writer)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert err.decode() == f"stud {command[0]}: interrupted\n"
    assert not (tmp_path / "out.phhs").exists()
