"""The action counters on ``/metrics``: counted in plain numbers, exposed as Prometheus's
counter and histogram would expose them."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.parser import text_string_to_metric_families

from app.common.metrics import ActionCounts


def samples(counts: ActionCounts) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Each exposed sample by name and labels."""
    registry = CollectorRegistry()
    registry.register(counts)
    text = generate_latest(registry).decode()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def test_accepted_and_refused_actions_are_counted_by_code() -> None:
    counts = ActionCounts()
    assert samples(counts)[("talon_actions_total", (("code", "ok"), ("outcome", "accepted")))] == 0
    for _ in range(3):
        counts.accept(0.002)
    counts.refuse("not_your_turn")
    counts.refuse("not_your_turn")
    counts.refuse("stale_version")
    got = samples(counts)
    assert got[("talon_actions_total", (("code", "ok"), ("outcome", "accepted")))] == 3
    assert got[("talon_actions_total", (("code", "not_your_turn"), ("outcome", "rejected")))] == 2
    assert got[("talon_actions_total", (("code", "stale_version"), ("outcome", "rejected")))] == 1


def test_ack_times_fill_cumulative_buckets_bounded_from_above() -> None:
    counts = ActionCounts()
    for seconds in (0.0005, 0.001, 0.003, 0.01, 7.0):
        counts.accept(seconds)
    got = samples(counts)

    def bucket(le: str) -> float:
        return got[("talon_action_ack_seconds_bucket", (("le", le),))]

    # A bucket counts every observation up to and including its bound.
    assert bucket("0.001") == 2
    assert bucket("0.0025") == 2
    assert bucket("0.005") == 3
    assert bucket("0.01") == 4
    assert bucket("5.0") == 4
    assert bucket("+Inf") == 5
    assert got[("talon_action_ack_seconds_count", ())] == 5
    assert abs(got[("talon_action_ack_seconds_sum", ())] - 7.0145) < 1e-9
