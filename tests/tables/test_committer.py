"""The group commit counts its transactions in the metrics: how many, how many actions each,
their wall time and the commit thread's CPU time in them."""

from __future__ import annotations

import random

from app.common import metrics
from app.services import Services
from tests.tables.helpers import play_random, started_table


def commit_figures() -> tuple[float, float, float, float]:
    """Transactions, actions, wall seconds and CPU seconds counted so far (this process)."""
    registry = metrics.REGISTRY
    return tuple(  # type: ignore[return-value]
        registry.get_sample_value(name) or 0.0
        for name in (
            "talon_commit_batch_actions_count",
            "talon_commit_batch_actions_sum",
            "talon_commit_batch_seconds_sum",
            "talon_commit_thread_cpu_seconds_total",
        )
    )


async def test_every_stored_action_is_counted_in_a_transaction(services: Services) -> None:
    authority, players = await started_table(services)
    before = commit_figures()
    played = await play_random(authority, players, random.Random(3), 6, marriages=False)
    after = commit_figures()
    batches, actions, seconds, cpu = (a - b for a, b in zip(after, before, strict=True))
    assert played == 6
    # One action in flight at a time here: each action is a transaction of its own.
    assert (batches, actions) == (6, 6)
    assert seconds > 0 and cpu > 0
