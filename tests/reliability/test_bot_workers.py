"""Bot worker processes die with their server, however it dies.

A worker waits on a pipe whose write end it holds itself, so it never notices the server's
death by itself: a server killed with SIGKILL used to leave every worker running (about
90 MB each), and a supervisor restarting the server piled them up.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from pathlib import Path

import httpx

from app.bots.worker import WorkerContext
from app.tables.bots import process_pool
from tests.processes import blocked_signals, bot_workers, children, running, signal_bits
from tests.reliability.server import served, wait_healthy
from tests.support import Api, Client, free_port, pick

GONE_WITHIN_S = 10.0


async def start_bot_workers(base: str, server_pid: int, want: int) -> list[int]:
    """Play against computer players until the server has started ``want`` bot workers."""
    async with httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False) as http:
        api = Api(http)
        rng = random.Random(8)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            anna = await api.player("Anna")
            table = await api.table(anna["token"], variant="schnapsen", bots={"1": "hard"})
            client, welcome = await Client.open(base, table["id"], anna["token"])
            try:
                version, legal = welcome["version"], welcome["view"]["legal"]
                for _ in range(6):
                    workers = bot_workers(server_pid)
                    if len(workers) >= want:
                        return workers
                    if legal:
                        action = pick(legal, rng)
                        await client.send({"type": "action", "version": version, "action": action})
                    frame = await client.recv_until("update", timeout=30)
                    version, legal = frame["version"], frame["legal"]
            finally:
                await client.close()
        raise AssertionError(f"the server started only {bot_workers(server_pid)} bot workers")


async def test_bot_workers_exit_when_their_server_is_killed(tmp_path: Path) -> None:
    port = free_port()
    base = f"127.0.0.1:{port}"
    settings = {"BOT_WORKERS": "2", "BOT_PAUSE": "0", "BOT_PAUSE_JITTER": "0", "BOT_BUDGET": "0.05"}
    with served(tmp_path / "talon.db", port, tmp_path / "server.log", **settings) as server:
        await wait_healthy(base)
        # Two tables at once would be needed for the pool to start its second worker; one
        # worker is enough to show the fault, every child of the server must go.
        workers = await start_bot_workers(base, server.pid, want=1)
        family = children(server.pid)
        assert set(workers) <= set(family)
        os.kill(server.pid, signal.SIGKILL)
        server.wait(10)
        deadline = time.monotonic() + GONE_WITHIN_S
        while time.monotonic() < deadline and any(running(pid) for pid in family):
            await asyncio.sleep(0.1)
        left = [pid for pid in family if running(pid)]
        for pid in left:  # never leave them behind, even when the test fails
            os.kill(pid, signal.SIGKILL)
        assert not left, f"still running {GONE_WITHIN_S} s after the server was killed: {left}"


async def test_ctrl_c_stops_the_server_and_its_workers_cleanly(tmp_path: Path) -> None:
    """Ctrl-C in a terminal reaches the server and its workers alike: the workers used to die
    of it mid-decision, breaking the pool and filling the log with tracebacks."""
    port = free_port()
    base = f"127.0.0.1:{port}"
    log = tmp_path / "server.log"
    settings = {
        **{"BOT_WORKERS": "2", "BOT_PAUSE": "0", "BOT_PAUSE_JITTER": "0", "BOT_BUDGET": "1"},
        "LOG_FORMAT": "text",
    }
    with served(tmp_path / "talon.db", port, log, own_group=True, **settings) as server:
        await wait_healthy(base)
        await start_bot_workers(base, server.pid, want=1)
        family = children(server.pid)
        os.killpg(server.pid, signal.SIGINT)
        assert server.wait(30) == 0
    deadline = time.monotonic() + GONE_WITHIN_S
    while time.monotonic() < deadline and any(running(pid) for pid in family):
        await asyncio.sleep(0.1)
    assert not [pid for pid in family if running(pid)]
    text = log.read_text(errors="replace")
    for noise in ("Traceback", "KeyboardInterrupt", "BrokenProcessPool", "leaked semaphore"):
        assert noise not in text, text[-3000:]
    assert "Finished server process" in text


def test_bot_workers_start_deaf_to_ctrl_c_and_stay_so() -> None:
    """A Ctrl-C while a worker is still importing used to kill it with a traceback: workers
    start with SIGINT blocked, then ignore it once they run."""
    context = WorkerContext()
    answer = context.SimpleQueue()
    starting = context.Process(target=blocked_signals, args=(answer,))
    starting.start()
    assert signal.SIGINT in answer.get()
    starting.join(10)
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())  # not here
    pool = process_pool(1)
    try:
        worker = pool.submit(os.getpid).result(timeout=60)
        sigint = 1 << (signal.SIGINT - 1)
        assert signal_bits(worker, "SigIgn") & sigint
        assert not signal_bits(worker, "SigBlk") & sigint
    finally:
        pool.shutdown()
