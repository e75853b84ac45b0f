"""The server settles its interpreter once started (``app.common.runtime``)."""

from __future__ import annotations

import gc
import sys
from pathlib import Path

import pytest

from app.common.runtime import GC_THRESHOLDS, SWITCH_INTERVAL
from tests.support import in_thread, live_server, migrated_sqlite, settings_for


async def test_a_started_server_freezes_its_heap_and_sets_its_collector_and_lock(
    sqlite_template: Path, tmp_path: Path
) -> None:
    url = in_thread(lambda: migrated_sqlite(sqlite_template, tmp_path / "talon.db"))
    thresholds, interval = gc.get_threshold(), sys.getswitchinterval()
    # The interpreter's own settings first (an earlier server in this process settled it).
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    sys.setswitchinterval(0.001)
    try:
        async with live_server(settings_for(url)):
            assert gc.get_threshold() == GC_THRESHOLDS
            assert sys.getswitchinterval() == pytest.approx(SWITCH_INTERVAL)
            assert gc.get_freeze_count() > 0
    finally:
        gc.set_threshold(*thresholds)
        sys.setswitchinterval(interval)
