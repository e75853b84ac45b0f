"""The analysis's worker process: background work that yields the processor to live tables."""

from __future__ import annotations

import os

from app.history.analysis import NICE
from app.services import Services
from tests.support import settings_for


async def test_the_analysis_worker_runs_below_the_server_s_priority(database_url: str) -> None:
    services = Services.build(settings_for(database_url, bot_workers=1))
    pool = services.analysis.make_executor()
    try:
        worker = pool.submit(os.nice, 0).result(timeout=60)  # its niceness, unchanged
    finally:
        pool.shutdown()
        await services.engine.dispose()
    assert worker == min(19, os.nice(0) + NICE)
