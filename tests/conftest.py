"""Checks over the whole test run: no bot worker process outlives it.

Every process the tests start inherits ``TALON_TEST_RUN``; when the run ends, a bot worker
still carrying this run's mark (a server that died without its workers following) fails it.
"""

from __future__ import annotations

import os
import signal
import time
import uuid

import pytest

from tests.processes import marked

RUN_MARK = f"TALON_TEST_RUN={uuid.uuid4().hex}"
os.environ["TALON_TEST_RUN"] = RUN_MARK.split("=", 1)[1]
LEFT_WITHIN_S = 15.0


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run if bot workers it started are still running shortly after it ends."""
    deadline = time.monotonic() + LEFT_WITHIN_S
    left = marked(RUN_MARK)
    while left and time.monotonic() < deadline:
        time.sleep(0.2)
        left = marked(RUN_MARK)
    if not left:
        return
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"bot worker processes left behind by the tests (killed): {left}")
    session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Files holding a ``slow`` test run first (otherwise in the order collected): parallel
    workers take whole files in this order, so a long file begun last would keep one worker
    busy alone at the end of the run."""
    slow = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow)
