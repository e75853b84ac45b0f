"""Prometheus metrics of one worker process (served at ``/metrics``).

Counters and histograms are process-wide, as Prometheus client libraries expect; the gauges
(connections, live tables) are read from the running services when scraped.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator

from prometheus_client import CONTENT_TYPE_LATEST as CONTENT_TYPE
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString

REGISTRY = CollectorRegistry(auto_describe=True)

ACK_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class ActionCounts(Collector):
    """Answered actions by outcome and code, and how long accepted ones took to acknowledge.

    Counted in plain numbers on the event loop's thread, where every action is answered (a
    Prometheus counter and histogram take a lock per call, about 9 µs per move together), and
    turned into ``talon_actions_total`` and ``talon_action_ack_seconds`` when scraped."""

    def __init__(self) -> None:
        self.answers: dict[tuple[str, str], int] = {}
        self.accepted = 0
        self.buckets = [0] * (len(ACK_BUCKETS) + 1)  # per bucket, not cumulative; then +Inf
        self.seconds = 0.0

    def accept(self, seconds: float) -> None:
        self.accepted += 1
        self.buckets[bisect_left(ACK_BUCKETS, seconds)] += 1
        self.seconds += seconds

    def refuse(self, code: str) -> None:
        key = ("rejected", code)
        self.answers[key] = self.answers.get(key, 0) + 1

    def collect(self) -> Iterator[Metric]:
        actions = CounterMetricFamily(
            "talon_actions",
            "Actions answered, by outcome (accepted or rejected) and code (ok or the"
            " refusal's code).",
            labels=["outcome", "code"],
        )
        actions.add_metric(["accepted", "ok"], self.accepted)
        for (outcome, code), count in sorted(self.answers.items()):
            actions.add_metric([outcome, code], count)
        yield actions
        ack = HistogramMetricFamily(
            "talon_action_ack_seconds",
            "From an action reaching its table's authority to its acknowledgement (stored,"
            " published).",
        )
        cumulative, total = [], 0
        bounds = [*map(floatToGoString, ACK_BUCKETS), "+Inf"]
        for bound, count in zip(bounds, self.buckets, strict=True):
            total += count
            cumulative.append((bound, float(total)))
        ack.add_metric([], cumulative, self.seconds)
        yield ack


ACTION_COUNTS = ActionCounts()
REGISTRY.register(ACTION_COUNTS)
FANOUT_LAG = Histogram(
    "talon_fanout_lag_seconds",
    "From a table's owner sending frames to the worker that relays them to its connections.",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
    registry=REGISTRY,
)
DATABASE_ERRORS = Counter(
    "talon_database_errors_total",
    "Database operations that failed, by where they failed.",
    ["where"],
    registry=REGISTRY,
)
BUS_ERRORS = Counter(
    "talon_bus_errors_total",
    "Redis publish or subscribe failures (viewers then catch up from the database).",
    ["direction"],
    registry=REGISTRY,
)
CONNECTIONS = Gauge(
    "talon_connections", "WebSocket connections watching a table.", registry=REGISTRY
)
LIVE_TABLES = Gauge(
    "talon_live_tables",
    "Tables with a match under way, as this worker knows them.",
    registry=REGISTRY,
)
CHAT_FILTERED = Counter(
    "talon_chat_filtered_lines_total",
    "Chat lines passed through a table's word filter (only lines within every chat limit are).",
    registry=REGISTRY,
)


def accepted(seconds: float) -> None:
    """Count an accepted action and how long it took to acknowledge."""
    ACTION_COUNTS.accept(seconds)


def refused(code: str, *, database: bool = False) -> None:
    """Count a refused action by its code (and a database error when storage failed)."""
    ACTION_COUNTS.refuse(code)
    if database:
        DATABASE_ERRORS.labels("action").inc()


def database_error(where: str) -> None:
    """Count a failed database operation."""
    DATABASE_ERRORS.labels(where).inc()


def watch(connections: Callable[[], int], live_tables: Callable[[], int]) -> None:
    """Read the gauges from the running services at each scrape."""
    CONNECTIONS.set_function(connections)
    LIVE_TABLES.set_function(live_tables)


def exposition() -> bytes:
    """Every metric in the Prometheus text format."""
    return generate_latest(REGISTRY)


__all__ = ["CONTENT_TYPE", "exposition"]
