"""The leak audit over a thousand matches at tables of two (``leak_audit.py`` says what every
frame is checked for)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.reliability.leak_audit import MATCHES, run_audit


@pytest.mark.slow
async def test_no_frame_leaks_a_card_over_a_thousand_matches(tmp_path: Path) -> None:
    await run_audit(tmp_path, MATCHES, {"target": 1}, seed=66)
