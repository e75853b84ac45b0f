"""How the server's interpreter runs once it has started: the cycle collector's thresholds and
how soon a waiting thread gets the interpreter lock. The server settles them after its start
(``app.main``); benchmarks that play in process settle them the same way, so that they
measure what the server runs."""

from __future__ import annotations

import gc
import sys

# Young-generation threshold and the two older ones (the interpreter's default: 700, 10, 10).
GC_THRESHOLDS = (20_000, 20, 50)


# How long the event loop may hold the interpreter lock while another thread waits for it:
# Python's default, 5 ms, set explicitly. The group commit's writer thread needs the lock for
# a moment at each step of a batch. 1 ms (tried to shorten those waits) made the two threads
# hand the lock over more often, and cost more CPU per move than it saved in waiting:
# 11-16% more in side-by-side runs, with no better p99 (docs/architecture.md, "Performance").
SWITCH_INTERVAL = 0.005


def settle_runtime() -> None:
    """Once started: take everything alive now (modules, routes, rebuilt tables) out of the
    cycle collector's sight and run it less often, and set how soon a waiting thread gets the
    interpreter lock (``SWITCH_INTERVAL``). Play allocates mostly short-lived objects
    that reference counting frees; with the defaults, full collections over the growing heap
    stalled every table for tens to hundreds of milliseconds under load."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    sys.setswitchinterval(SWITCH_INTERVAL)
