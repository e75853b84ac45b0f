"""Browser tests: the real server in a subprocess, Debian's Chromium driven by Playwright.

Every page is watched: a console error, an uncaught exception, a failed request or an HTTP
error response fails the test (``Watch.check``), except in a window a test opens on purpose
while it has killed the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from tests.api.test_durability import server_process, wait_healthy
from tests.support import free_port, in_thread

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
TIMEOUT_MS = 15_000

expect.set_options(timeout=TIMEOUT_MS)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/e2e/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.browser)


@dataclass
class Server:
    """A running ``talon serve`` on a free loopback port; ``kill`` and ``start`` again."""

    database: Path
    port: int
    host: str = "127.0.0.1"  # the name pages reach it by (it listens on 127.0.0.1)
    stack: contextlib.ExitStack = field(default_factory=contextlib.ExitStack)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self) -> None:
        self.process = self.stack.enter_context(server_process(self.database, self.port))
        in_thread(lambda: asyncio.run(wait_healthy(f"127.0.0.1:{self.port}")))

    def kill(self) -> None:
        """SIGKILL: no shutdown, no goodbye to the sockets."""
        assert self.process is not None
        self.process.kill()
        self.process.wait(10)


def serve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, host: str) -> Iterator[Server]:
    """A server whose PUBLIC_URL names it ``host`` (pages reach it that way), until closed."""
    port = free_port()
    monkeypatch.setenv("PUBLIC_URL", f"http://{host}:{port}")
    running = Server(tmp_path / "talon.db", port, host)
    with running.stack:
        running.start()
        yield running


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    yield from serve(tmp_path, monkeypatch, "127.0.0.1")


# Package scope, not session: Playwright's sync API keeps an event loop running in this thread
# while it is open, which would break every asyncio test collected after tests/e2e.
@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium package (scripts/test does)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield launched
        launched.close()


class Watch:
    """Collects everything that went wrong on the pages of a test."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.tolerate = False
        self.tolerated: list[str] = []

    def note(self, problem: str) -> None:
        (self.tolerated if self.tolerate else self.problems).append(problem)

    def page(self, page: Page, who: str) -> Page:
        def console(message: Any) -> None:
            if message.type == "error":
                self.note(f"{who}: console error: {message.text}")

        def response(reply: Any) -> None:
            if reply.status >= 400:
                self.note(f"{who}: HTTP {reply.status} for {reply.url}")

        page.on("console", console)
        page.on("pageerror", lambda error: self.note(f"{who}: uncaught: {error}"))

        def failed(request: Any) -> None:
            # A read the page dropped because it went to another page is no failure.
            left = request.method == "GET" and request.failure == "net::ERR_ABORTED"
            if not left:
                self.note(f"{who}: failed request {request.url} ({request.failure})")

        page.on("requestfailed", failed)
        page.on("response", response)
        page.set_default_timeout(TIMEOUT_MS)
        return page

    def check(self) -> None:
        assert not self.problems, "problems in the browser:\n" + "\n".join(self.problems)


@pytest.fixture
def watch() -> Iterator[Watch]:
    watching = Watch()
    yield watching
    watching.check()


@pytest.fixture
def new_page(browser: Browser, server: Server, watch: Watch) -> Iterator[Any]:
    """``new_page(who, locale=..., viewport=...)``: a page in a fresh context, watched."""
    contexts: list[BrowserContext] = []

    def make(who: str, locale: str = "en-GB", width: int = 1280, height: int = 860) -> Page:
        context = browser.new_context(
            base_url=server.url, locale=locale, viewport={"width": width, "height": height}
        )
        contexts.append(context)
        return watch.page(context.new_page(), who)

    yield make
    for context in contexts:
        context.close()


def shot(page: Page, name: str, full_page: bool = True) -> None:
    """Save a screenshot under test-artifacts/ for people to look at (``full_page=False``: only
    what the window shows, to see what is below the fold)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)
