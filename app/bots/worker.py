"""The bot worker processes' own side: they go when the server that started them goes.

A worker waits for its next decision on a pipe whose write end it also holds (the pool hands
both ends of its call queue to every worker), so it never reads end-of-file when the server
dies: a server killed with SIGKILL would leave its workers waiting forever. ``start_worker``
runs first in every worker and starts a thread that ends the worker as soon as its parent
process is no longer the server.

A worker also ignores SIGINT: Ctrl-C in a terminal reaches the server's whole process group,
and a worker dying of it broke the pool under the server's feet (tracebacks on every stop).
The server stops its workers itself when it shuts down. A worker starts with SIGINT blocked
(``WorkerContext``: the signal mask is inherited across fork and exec), so not even a Ctrl-C
while it is still importing reaches it before ``start_worker`` ignores the signal.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from multiprocessing.context import SpawnContext, SpawnProcess
from multiprocessing.process import BaseProcess
from typing import Any

CHECK_S = 0.5
"""How often a worker checks that the server is still its parent (seconds)."""


class _CtrlCBlockedProcess(SpawnProcess):
    """A spawned process that starts with SIGINT blocked."""

    @staticmethod
    def _Popen(process_obj: BaseProcess) -> Any:
        # Blocked, not ignored: a Ctrl-C meant for the server waits, and reaches it right after.
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            return SpawnProcess._Popen(process_obj)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)


class WorkerContext(SpawnContext):
    """The ``spawn`` start method, its processes starting with SIGINT blocked."""

    Process = _CtrlCBlockedProcess


def parent_gone(server_pid: int) -> bool:
    """True when this process's parent is no longer ``server_pid`` (the server died and the
    process was handed to another parent)."""
    return os.getppid() != server_pid


def start_worker(server_pid: int, check_s: float = CHECK_S, nice: int = 0) -> None:
    """Pool initializer: ignore Ctrl-C (the server stops its workers), lower the worker's CPU
    priority by ``nice`` (background work yields the processor to live decisions), exit at
    once if the server is already gone, else watch it from a daemon thread and exit within
    ``check_s`` seconds of its death."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if nice:
        os.nice(nice)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # a pending one is dropped
    if parent_gone(server_pid):
        os._exit(0)
    watcher = threading.Thread(
        target=_watch, args=(server_pid, check_s), name="follow-parent", daemon=True
    )
    watcher.start()


def _watch(server_pid: int, check_s: float) -> None:
    while not parent_gone(server_pid):
        time.sleep(check_s)
    # Nothing to save: a decision in flight is lost with the server that asked for it.
    os._exit(0)
