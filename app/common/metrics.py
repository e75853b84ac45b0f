"""Prometheus metrics of one worker process (served at ``/metrics``).

Counters and histograms are process-wide, as Prometheus client libraries expect; the gauges
(connections, live tables) are read from the running services when scraped.
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CONTENT_TYPE_LATEST as CONTENT_TYPE
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

REGISTRY = CollectorRegistry(auto_describe=True)

ACTIONS = Counter(
    "talon_actions_total",
    "Actions answered, by outcome (accepted or rejected) and code (ok or the refusal's code).",
    ["outcome", "code"],
    registry=REGISTRY,
)
ACK_SECONDS = Histogram(
    "talon_action_ack_seconds",
    "From an action reaching its table's authority to its acknowledgement (stored, published).",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
    registry=REGISTRY,
)
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
COMMIT_ACTIONS = Histogram(
    "talon_commit_batch_actions",
    "Actions stored by one group-commit transaction.",
    buckets=(1, 2, 5, 10, 20, 50, 100, 200, 512),
    registry=REGISTRY,
)
COMMIT_SECONDS = Histogram(
    "talon_commit_batch_seconds",
    "Wall time of one group-commit transaction in the commit thread.",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0),
    registry=REGISTRY,
)
COMMIT_CPU = Counter(
    "talon_commit_thread_cpu_seconds",
    "CPU time the commit thread spent on its transactions; the rest of their wall time it "
    "waited (for the database, or for Python's interpreter lock).",
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

# Every accepted action counts here: the labelled child is looked up once, not per action.
ACCEPTED = ACTIONS.labels("accepted", "ok")


def accepted(seconds: float) -> None:
    """Count an accepted action and how long it took to acknowledge."""
    ACCEPTED.inc()
    ACK_SECONDS.observe(seconds)


def committed(actions: int, seconds: float, cpu_seconds: float) -> None:
    """Count one group-commit transaction: its actions, its wall time and the commit
    thread's CPU time in it."""
    COMMIT_ACTIONS.observe(actions)
    COMMIT_SECONDS.observe(seconds)
    COMMIT_CPU.inc(cpu_seconds)


def refused(code: str, *, database: bool = False) -> None:
    """Count a refused action by its code (and a database error when storage failed)."""
    ACTIONS.labels("rejected", code).inc()
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
