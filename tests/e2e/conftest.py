"""Browser tests: the real server in a subprocess, Debian's Chromium driven by Playwright.

Every page is watched: a console error, an uncaught exception, a failed request or an HTTP
error response fails the test (``Watch.check``), except in a window a test opens on purpose
while it has killed the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from tests.api.test_durability import server_process, wait_healthy
from tests.forked import ServerProcess
from tests.support import free_port, in_thread

CHROMIUM = Path(os.environ.get("TALON_CHROMIUM", "/usr/bin/chromium-headless-shell"))
"""Debian's headless build of Chromium (the package ``chromium-headless-shell``, from the same
sources as ``chromium``). The browser tests' pages use 60% less processor there than in the full
browser run headless (measured: 12.4 against 31.1 s of browser CPU for the lobby's and the first
visit's tests), in a suite bound by its two cores. ``TALON_CHROMIUM=/usr/bin/chromium`` runs
them in the full browser."""
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
STILL: Final = "reduce"
"""The pages' motion preference, unless a test chooses one (tests/e2e/test_motion.py tests
both). Headless Chromium without a GPU draws every frame of an endless animation on the
processor: three pages with the turn's pulse took most of a core, measured, in a suite that
shares two."""

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
    process: ServerProcess | None = None

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
        pytest.fail(
            f"{CHROMIUM} is missing: install Debian's chromium-headless-shell (scripts/test does)"
        )
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield launched
        launched.close()


STATIC = ("js/", "css/", "favicon")  # a timeline leaves out the pages' static files


def short_path(url: str) -> str:
    """The path of a page's ``url`` (shortened), for a timeline."""
    return url.split("/", 3)[-1][:80]


def frame_type(payload: Any) -> str:
    """The ``type`` of a socket frame and the table version it names, for a timeline (never
    its content): a page that stays behind shows which versions it was sent."""
    try:
        frame = json.loads(payload)
        kind = str(frame.get("type"))
    except (ValueError, TypeError, AttributeError):
        return "?"
    version = frame.get("version")
    return kind if version is None else f"{kind} v{version}"


class Watch:
    """Collects everything that went wrong on the pages of a test, and a timeline of each
    page's requests and socket frames (printed when the test fails, to tell a request that
    never came back from a page that did not draw what it had)."""

    KEPT = 60  # timeline entries kept per page

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.tolerate = False
        self.tolerated: list[str] = []
        self.started = time.monotonic()
        self.timelines: dict[str, deque[str]] = {}

    def note(self, problem: str) -> None:
        (self.tolerated if self.tolerate else self.problems).append(problem)

    def mark(self, who: str, what: str) -> None:
        """One entry of ``who``'s timeline, stamped with the seconds since the test began."""
        timeline = self.timelines.setdefault(who, deque(maxlen=self.KEPT))
        timeline.append(f"{time.monotonic() - self.started:7.2f} s  {what}")

    def timeline(self) -> str:
        """Every page's timeline, for a failed test's report."""
        return "\n".join(
            f"-- {who}\n" + "\n".join(entries) for who, entries in self.timelines.items()
        )

    def follow(self, page: Page, who: str) -> None:
        """Put ``page``'s calls (not its static files), their answers and its socket frames
        (their types only) on the timeline of ``who``."""

        def request(r: Any, arrow: str) -> None:
            if not short_path(r.url).startswith(STATIC):
                self.mark(who, f"{arrow} {r.method} /{short_path(r.url)}")

        page.on("request", lambda r: request(r, "->"))
        page.on("requestfinished", lambda r: request(r, "<-"))
        page.on("requestfailed", lambda r: request(r, f"failed ({r.failure})"))

        def socket(ws: Any) -> None:
            self.mark(who, f"ws open /{short_path(ws.url)}")
            ws.on("framesent", lambda f: self.mark(who, f"ws sent {frame_type(f)}"))
            ws.on("framereceived", lambda f: self.mark(who, f"ws got {frame_type(f)}"))
            ws.on("close", lambda _: self.mark(who, "ws closed"))
            ws.on("socketerror", lambda e: self.mark(who, f"ws error {e}"))

        page.on("websocket", socket)

    def page(self, page: Page, who: str) -> Page:
        self.follow(page, who)

        def console(message: Any) -> None:
            self.mark(who, f"console {message.type}: {message.text[:200]}")
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


CALL_FAILED = pytest.StashKey[bool]()  # whether a test's own body failed


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Keep whether the test's body failed, for its ``watch`` to print the timelines."""
    report = yield
    if report.when == "call":
        item.stash[CALL_FAILED] = report.failed
    return report


@pytest.fixture
def watch(request: pytest.FixtureRequest) -> Iterator[Watch]:
    watching = Watch()
    yield watching
    if request.node.stash.get(CALL_FAILED, False):
        print(f"the pages' timelines:\n{watching.timeline()}")
    watching.check()


@pytest.fixture
def new_page(browser: Browser, server: Server, watch: Watch) -> Iterator[Any]:
    """``new_page(who, locale=..., viewport=...)``: a page in a fresh context, watched."""
    contexts: list[BrowserContext] = []

    def make(who: str, locale: str = "en-GB", width: int = 1280, height: int = 860) -> Page:
        context = browser.new_context(
            base_url=server.url,
            locale=locale,
            viewport={"width": width, "height": height},
            reduced_motion=STILL,
        )
        contexts.append(context)
        return watch.page(context.new_page(), who)

    yield make
    for context in contexts:
        context.close()


def boxes(page: Page, *selectors: str) -> list[dict[str, float] | None]:
    """The bounding boxes (in the viewport, as Playwright gives them) of the first element of
    each selector, all read in one moment of the page (None for a missing one). Read one call
    at a time, they could meet a redraw in between, which replaces the elements: the box of a
    replaced element is None."""
    return list(
        page.evaluate(
            """(selectors) => selectors.map((s) => {
              const e = document.querySelector(s);
              if (!e) return null;
              const r = e.getBoundingClientRect();
              return { x: r.x, y: r.y, width: r.width, height: r.height };
            })""",
            list(selectors),
        )
    )


def shot(page: Page, name: str, full_page: bool = True) -> None:
    """Save a screenshot under test-artifacts/ for people to look at (``full_page=False``: only
    what the window shows, to see what is below the fold)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)
