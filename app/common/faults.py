"""Crash points for the durability tests: ``TALON_CRASH_AT=name[,name]`` makes the process
kill itself with SIGKILL when it reaches a point of that name, exactly as a crash would.

Unset (always, outside those tests) a point costs one environment look-up, and points sit only
on rare paths (a match's end). The points: ``before_rating`` and ``after_rating`` (inside the
transaction that stores a match's result, before and after its rating update) and
``after_result_commit`` (that transaction committed, nobody told yet).
"""

from __future__ import annotations

import os
import signal

VARIABLE = "TALON_CRASH_AT"


def crash_point(name: str) -> None:
    """Die here, at once and uncleanly, when ``TALON_CRASH_AT`` names this point."""
    wanted = os.environ.get(VARIABLE)
    if wanted and name in wanted.split(","):
        os.kill(os.getpid(), signal.SIGKILL)
