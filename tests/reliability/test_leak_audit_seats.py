"""The leak audit at tables of three and four, and in manual claim mode (``leak_audit.py`` says
what every frame is checked for). Apart from the thousand matches at two so that parallel
workers can share the audit."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.reliability.leak_audit import MATCHES, MORE_SEATS, run_audit


@pytest.mark.slow
async def test_no_frame_leaks_a_card_at_tables_of_three_and_four(tmp_path: Path) -> None:
    """Partners included: a seat never sees its partner's hand, nor a spectator anyone's."""
    await run_audit(tmp_path, MATCHES // 50, {"target": 1}, seed=34, games=MORE_SEATS)


@pytest.mark.slow
async def test_manual_claim_mode_sends_no_running_score(tmp_path: Path) -> None:
    await run_audit(tmp_path, 200, {"target": 1, "claim": "manual"}, seed=20)
