"""Fixtures of the browser tests: the card room served by uvicorn in a thread, and Debian's chromium.

The server runs on 127.0.0.1 with a free port and a temporary SQLite database, with a short clock and quick bots
so that a few hands take seconds. Chromium is the system's (``apt-get install chromium``, done by ``.ci/run``):
Playwright's own browser downloads are not used. As in tests/server, an ERROR record of the ``studpoker.server``
logger while a test runs fails it (the room serves in this process).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import _fail_on_server_errors  # noqa: F401 (the autouse fixture, here too)
from tests.server.live import serve

#: This folder: its tests are marked ``browser`` (below).
HERE = Path(__file__).resolve().parent

CHROMIUM = Path("/usr/bin/chromium")
#: The bound of any one wait, in ms: the default of every page, context and ``expect`` the tests make. A busy
#: machine may take seconds to show what a test waits for; a bug never shows it, so the bound is generous.
TIMEOUT = 60_000
#: Screenshots of every major step and the axe-core reports (tests/browser/axe.py) go here (gitignored).
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture(scope="module")
def room_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a fresh card room (no tables, no accounts)."""
    from studpoker.server.config import Settings

    db = tmp_path_factory.mktemp("room") / "room.db"
    settings = Settings(
        db_url=f"sqlite:///{db}",
        action_seconds=6.0,  # long enough for a click, short enough that a stuck turn does not stall the run
        time_bank=2.0,
        bank_refill=0.0,
        bot_delay=0.05,
        between_hands=0.4,
        showdown_seconds=1.0,  # the showdown stays a second (tests/browser/test_client.py checks the pause)
        default_table=False,
        seed=20250131,
        password_time_cost=1,
        password_memory_kib=1024,
        signups_per_address=1000,  # every browser context signs up from 127.0.0.1
        signup_failures_per_address=1000,
        max_connections_per_address=1000,
    )
    with serve(settings) as url:
        yield url


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """``test-artifacts/`` (tests/conftest.py empties it of the last run's files once per run, before any worker)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


class _Recorder:
    """What each page of a test saw: its WebSocket frames (both ways) and its console, the last :data:`KEPT` of
    each page, written to test-artifacts/ when the test fails (did the server send it, or did the page not show
    it?)."""

    KEPT = 400

    def __init__(self) -> None:
        self.pages: list[tuple[str, deque[str]]] = []
        self.started = time.monotonic()

    def clear(self) -> None:
        self.pages.clear()
        self.started = time.monotonic()

    def watch(self, page: Any) -> None:
        lines: deque[str] = deque(maxlen=self.KEPT)
        self.pages.append((f"page {len(self.pages) + 1}", lines))

        def note(what: str) -> None:
            lines.append(f"{time.monotonic() - self.started:9.3f} {what[:1500]}")

        def on_socket(socket: Any) -> None:
            note(f"socket open {socket.url}")
            socket.on("framereceived", lambda payload: note(f"<< {payload}"))
            socket.on("framesent", lambda payload: note(f">> {payload}"))
            socket.on("close", lambda _socket: note("socket closed"))

        page.on("websocket", on_socket)
        page.on("console", lambda message: note(f"console {message.type}: {message.text}"))
        page.on("pageerror", lambda error: note(f"page error: {error}"))
        page.on("framenavigated", lambda frame: note(f"navigated {frame.url}") if frame == page.main_frame else None)

    def write(self, path: Path) -> None:
        with path.open("w") as out:
            for name, lines in self.pages:
                out.write(f"== {name}\n")
                out.writelines(line + "\n" for line in lines)


class _Browser:
    """The browser, with :data:`TIMEOUT` the default wait of every context and page it opens, and a
    :class:`_Recorder` of what its pages see."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser
        self.recorder = _Recorder()

    def new_context(self, **options: Any) -> Any:
        context = self._browser.new_context(**options)
        context.set_default_timeout(TIMEOUT)
        context.set_default_navigation_timeout(TIMEOUT)
        context.on("page", self.recorder.watch)
        return context

    def new_page(self, **options: Any) -> Any:
        page = self._browser.new_page(**options)  # its own context, whose "page" event has fired already
        self.recorder.watch(page)
        page.set_default_timeout(TIMEOUT)
        page.set_default_navigation_timeout(TIMEOUT)
        return page

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@pytest.fixture(scope="module")
def browser(artifacts: Path) -> Iterator[object]:
    """Headless Debian chromium driven by Playwright; every wait is bounded by :data:`TIMEOUT`."""
    if not CHROMIUM.exists():
        pytest.fail(
            f"the browser tests need Debian's chromium at {CHROMIUM}: install it with `apt-get install chromium` "
            "(.ci/run does); Playwright's own browser downloads are not used",
            pytrace=False,
        )
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        pytest.fail("the browser tests need Playwright for Python: pip install -e '.[test]'", pytrace=False)
    with sync_playwright() as playwright:
        expect.set_options(timeout=TIMEOUT)
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        yield _Browser(chromium)
        chromium.close()


@pytest.fixture(autouse=True)
def _record_pages(request: pytest.FixtureRequest) -> Iterator[None]:
    """A failed browser test leaves test-artifacts/frames-<test>.txt: each page's socket frames and console."""
    if "browser" not in request.fixturenames:
        yield
        return
    recorder: _Recorder = request.getfixturevalue("browser").recorder
    recorder.clear()
    yield
    report = getattr(request.node, "studpoker_call_report", None)
    if report is not None and report.failed:
        name = "".join(c if c.isalnum() or c in "-_." else "_" for c in request.node.name)
        recorder.write(ARTIFACTS / f"frames-{name}.txt")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    if call.when == "call":
        item.studpoker_call_report = outcome.get_result()  # type: ignore[attr-defined]


@pytest.hookimpl(tryfirst=True)  # before pytest's own hook deselects by ``-m``
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test of this folder ``browser`` (pyproject.toml registers it), so that ``-m "not browser"`` leaves
    them out (``make test-fast``). The hook sees the whole session's items: only this folder's are marked."""
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.browser)


def wait_until(condition: Any, what: str, timeout: float = 120.0) -> Any:
    """Poll ``condition`` until it returns something true (a generous bound, not a guess of how long it takes)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, f"not within {timeout} s: {what}"
        time.sleep(0.05)
