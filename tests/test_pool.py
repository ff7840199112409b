"""studpoker._pool: workers die with their parent (SIGKILLed, whichever way they were started) and Ctrl-C is the
parent's alone; the commands built on it (equity, simulate) end every worker on Ctrl-C and on SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.processes import alive, descendants, wait_until

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

#: A script that starts a pool of two workers (a start method, from the main thread or another), gives each a task
#: that sleeps, says "ready" when both run it, and waits to be killed.
SCRIPT = textwrap.dedent(
    """
    import sys, threading, time
    from concurrent.futures import wait
    from studpoker._pool import process_pool, submit

    def main():
        pool = process_pool(2, method=sys.argv[1])
        futures = [submit(pool, time.sleep, 600) for _ in range(2)]
        print("ready", flush=True)
        wait(futures)

    if sys.argv[2] == "thread":
        thread = threading.Thread(target=main)
        thread.start()
        thread.join()
    else:
        main()
    """
)


@pytest.mark.parametrize("where", ["main", "thread"])
@pytest.mark.parametrize("method", ["fork", "forkserver", "spawn"])
def test_workers_die_with_a_killed_parent(tmp_path: Path, method: str, where: str) -> None:
    script = tmp_path / "pool.py"
    script.write_text(SCRIPT)
    process = subprocess.Popen(
        [sys.executable, str(script), method, where], stdout=subprocess.PIPE, start_new_session=True
    )
    try:
        assert process.stdout is not None and process.stdout.readline() == b"ready\n"
        # two workers (and, for forkserver, the server; for spawn and forkserver, a resource tracker)
        wait_until(lambda: len(descendants(process.pid)) >= 2, "the workers started", process)
        workers = descendants(process.pid)
        process.kill()  # SIGKILL: the parent cannot clean up
        process.wait()
        wait_until(lambda: not any(alive(pid) for pid in workers), f"every worker of {workers} ended")
    finally:
        with_group = os.getpgid(process.pid) if alive(process.pid) else None
        if with_group is not None:
            os.killpg(with_group, signal.SIGKILL)


def _stud(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "studpoker", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # a process group of its own, as a terminal gives a command
    )


#: Commands that run for minutes on two worker processes.
LONG = {
    "equity-exact": ["equity", "As Ad 7c", "Kh Kd Qs", "8s 8d 4c", "--exact", "--workers", "2"],
    "equity-monte-carlo": ["equity", "As Ad 7c", "Kh Kd Qs", "--trials", "2000000000", "--workers", "2"],
    "simulate": [
        *("simulate", "--variant", "7stud", "--bots", "tag,calling-station"),
        *("--hands", "1e8", "--chunk", "1000", "--workers", "2"),
    ],
}


@pytest.mark.parametrize("name", sorted(LONG))
def test_a_killed_command_leaves_no_worker(name: str) -> None:
    process = _stud(*LONG[name])
    wait_until(lambda: len(descendants(process.pid)) >= 2, "the workers started", process)
    workers = descendants(process.pid)
    os.kill(process.pid, signal.SIGKILL)  # as `timeout -s KILL` or the OOM killer would
    process.wait()  # reaped, as a shell would (the workers may hold its output pipes till they end)
    wait_until(lambda: not any(alive(pid) for pid in workers), f"every worker of {workers} ended")


@pytest.mark.parametrize("name", sorted(LONG))
def test_ctrl_c_as_the_workers_start_stops_the_command(name: str) -> None:
    """Ctrl-C to the whole group the moment the first worker exists (the race the review hit once in 25 tries),
    five times: the command says it was interrupted, exits 130 and leaves no process behind."""
    for _ in range(5):
        process = _stud(*LONG[name])
        wait_until(lambda: bool(descendants(process.pid)), "a worker started", process)  # noqa: B023
        seen = descendants(process.pid)
        os.killpg(process.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
        try:
            _, err = process.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            pytest.fail(f"stud {name} did not stop on Ctrl-C")
        assert process.returncode == 130, err
        assert b"interrupted" in err and b"Traceback" not in err, err
        wait_until(lambda: not any(alive(pid) for pid in seen | descendants(process.pid)), "every worker ended")  # noqa: B023
