"""Simulated players for the load benchmarks, lean enough not to be what is measured.

Each seat is a plain asyncio protocol driving the ``websockets`` sans-I/O client: frames are
parsed as their bytes arrive, timed there, and the next move goes out from the same callback.
No task, queue or lock per message, so a burst of frames from the server is not held up
behind the players' own bookkeeping (a task-per-socket client added several milliseconds to
every figure at 200 tables).

A table keeps exactly one action in flight: the player to move sends it, and the next move
waits until the actor has its ``ack`` and both seats have the new ``update``. With a ``pace``
the player to move first thinks for a random time (uniform, ``pace`` seconds on average), so
the server sees a steady offered load instead of moves as fast as it can take them.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from websockets.client import ClientProtocol
from websockets.frames import Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri


@dataclass
class Figures:
    """What a run measured (seconds)."""

    moves: int = 0
    ack: list[float] = field(default_factory=list)
    opponent: list[float] = field(default_factory=list)
    errors: int = 0
    refusals: Counter[str] = field(default_factory=Counter)  # error frames by their code


NO_ANSWER_GRACE = 30.0
"""Seconds past the run's deadline that a table still waits for its move's answers."""

GREETING_PATIENCE = 120.0
"""Seconds a run waits for every table's two welcomes before it starts with those it has."""


class Start:
    """Holds every table's first move until all tables are greeted, so that the measured
    window holds moves only (greeting hundreds of sockets costs the server as much CPU as
    thousands of moves, and on a loaded machine it spreads into the first seconds of play).
    When the last table is greeted (or after ``GREETING_PATIENCE``), ``begin`` runs
    ``on_start`` (where the caller reads its CPU counters), sets the deadline ``duration``
    seconds on and lets every greeted table move."""

    def __init__(self, tables: int, duration: float, on_start: Any = None) -> None:
        self.waiting = tables
        self.duration = duration
        self.on_start = on_start
        self.deadline: float | None = None
        self.greeted_at: float | None = None  # seconds from creation to the start
        self.created = time.perf_counter()
        self.held: list[TablePlay] = []
        self.patience = asyncio.get_running_loop().call_later(GREETING_PATIENCE, self.begin)

    def greeted(self, table: TablePlay) -> None:
        """``table`` has both welcomes: it moves once every table has them."""
        if self.deadline is not None:
            table.deadline = self.deadline
            table.move()
            return
        self.held.append(table)
        self.waiting -= 1
        if self.waiting <= 0:
            self.begin()

    def begin(self) -> None:
        """Start the measured play (once)."""
        if self.deadline is not None:
            return
        self.patience.cancel()
        if self.on_start is not None:
            self.on_start()
        now = time.perf_counter()
        self.greeted_at = now - self.created
        self.deadline = now + self.duration
        for table in self.held:
            table.deadline = self.deadline
            table.move()
        self.held.clear()

    async def started(self) -> None:
        """Wait until the play has started."""
        while self.deadline is None:
            await asyncio.sleep(0.05)


class SeatSocket(asyncio.Protocol):
    """One player's WebSocket: hands every server frame to its table as it arrives."""

    def __init__(self, table: TablePlay, seat: int, url: str, token: str) -> None:
        self.table, self.seat, self.token = table, seat, token
        self.ws = ClientProtocol(parse_uri(url), max_size=2**22)
        self.transport: Any = None  # uvloop's transports are not asyncio.Transport
        self.closed = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        self.ws.send_request(self.ws.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        self.ws.receive_data(data)
        for event in self.ws.events_received():
            if isinstance(event, Response):
                if event.status_code != 101:
                    self.table.fail(f"handshake refused: {event.status_code}")
                    return
                self.send({"type": "hello", "token": self.token, "since": None})
            elif event.opcode is Opcode.TEXT:
                self.table.received(self.seat, json.loads(event.data), now)
        self._flush()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed.done():
            self.closed.set_result(None)
        self.table.lost(self.seat)

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_text(json.dumps(message).encode())
        self._flush()

    def close(self) -> None:
        if self.transport is None or self.transport.is_closing() or self.ws.close_sent:
            return
        self.ws.send_close(1000)
        self._flush()
        self.transport.close()

    def _flush(self) -> None:
        data = self.ws.data_to_send()
        if data and self.transport is not None and not self.transport.is_closing():
            self.transport.write(b"".join(data))


class TablePlay:
    """Two seats playing random legal moves at one table until the deadline or the limit."""

    def __init__(
        self,
        figures: Figures,
        deadline: float,
        limit: int,
        rng: random.Random,
        pace: float = 0.0,
        start: Start | None = None,
    ) -> None:
        self.figures, self.deadline, self.limit, self.rng = figures, deadline, limit, rng
        self.pace = pace
        self.start = start
        self.sockets: list[SeatSocket] = []
        self.done = asyncio.get_running_loop().create_future()
        self.version = -1
        self.to_move: int | None = None
        self.legal: list[list[dict[str, Any]]] = [[], []]
        self.greeted: set[int] = set()
        self.sent_at = 0.0
        self.acked: float | None = None
        self.updated: dict[int, float] = {}

    async def open(self, urls: list[str], tokens: list[str]) -> None:
        loop = asyncio.get_running_loop()
        for seat, (url, token) in enumerate(zip(urls, tokens, strict=True)):
            uri = parse_uri(url)
            _, socket = await loop.create_connection(
                lambda seat=seat, url=url, token=token: SeatSocket(self, seat, url, token),
                uri.host,
                uri.port,
            )
            self.sockets.append(socket)

    def received(self, seat: int, frame: dict[str, Any], now: float) -> None:
        if self.done.done():
            return
        kind = frame["type"]
        if kind == "welcome":
            self.greeted.add(seat)
            self.version = frame["version"]
            self.to_move = frame["view"]["to_move"]
            self.legal[seat] = frame["view"]["legal"]
            if len(self.greeted) == 2:
                if self.start is None:
                    self.move()
                else:
                    self.start.greeted(self)
        elif kind == "update":
            self.legal[seat] = frame["legal"]
            self.to_move = frame["to_move"]
            self.version = frame["version"]
            self.updated[seat] = now
            self.settle()
        elif kind == "ack":
            self.acked = now
            self.settle()
        elif kind == "error":
            self.figures.errors += 1
            self.figures.refusals[str(frame.get("code"))] += 1
            self.finish()

    def move(self) -> None:
        """Send a random legal move for the player on move (after its think time), or stop."""
        if self.pace > 0:
            think = self.rng.uniform(0.0, 2 * self.pace)
            asyncio.get_running_loop().call_later(think, self.send_move)
        else:
            self.send_move()

    def send_move(self) -> None:
        """Send a random legal move for the player on move now, or stop."""
        if self.done.done():
            return
        over = self.figures.moves >= self.limit or time.perf_counter() >= self.deadline
        if self.to_move is None or over:
            self.finish()
            return
        choices = [a for a in self.legal[self.to_move] if a["type"] != "resign"]
        self.acked, self.updated = None, {}
        self.sent_at = time.perf_counter()
        action = self.rng.choice(choices)
        self.mover = self.to_move
        self.sockets[self.mover].send(
            {"type": "action", "id": str(self.version), "version": self.version, "action": action}
        )

    def settle(self) -> None:
        """Once the ack and both updates are in: count the move and make the next one."""
        if self.acked is None or len(self.updated) < 2:
            return
        self.figures.moves += 1
        self.figures.ack.append(self.acked - self.sent_at)
        self.figures.opponent.append(self.updated[1 - self.mover] - self.sent_at)
        self.move()

    def fail(self, why: str) -> None:
        self.figures.errors += 1
        self.finish()

    def lost(self, seat: int) -> None:
        self.finish()

    def finish(self) -> None:
        for socket in self.sockets:
            socket.close()
        if not self.done.done():
            self.done.set_result(None)


async def run_table(
    bases: list[str],
    table_id: str,
    tokens: list[str],
    figures: Figures,
    deadline: float,
    limit: int,
    rng: random.Random,
    pace: float = 0.0,
    start: Start | None = None,
) -> None:
    """Play one table (each seat on its own ``host:port``) until it stops."""
    table = TablePlay(figures, deadline, limit, rng, pace, start)
    await table.open([f"ws://{b}/ws/tables/{table_id}" for b in bases], tokens)
    if start is not None:
        await start.started()
        deadline = table.deadline = start.deadline or deadline
    # A move that is never answered would hold the table (and the run) forever: past the
    # deadline and a grace, the table stops and counts it as ``no_answer``.
    wait = max(0.0, deadline - time.perf_counter()) + NO_ANSWER_GRACE
    try:
        await asyncio.wait_for(asyncio.shield(table.done), wait)
    except TimeoutError:
        figures.errors += 1
        figures.refusals["no_answer"] += 1
        table.finish()
    await asyncio.gather(*(socket.closed for socket in table.sockets))


async def play_tables(
    tables: list[tuple[str, list[str]]],
    bases: list[str],
    figures: Figures,
    deadline: float,
    limit: int,
    seed: int,
    split: bool = True,
    pace: float = 0.0,
    start: Start | None = None,
) -> None:
    """Play every ``(table id, tokens)`` at once. Table n seats its players on servers n and
    n + 1 of ``bases`` (with one server, both on it), or both on server n unless ``split``.
    ``pace``: each move's mean think time in seconds (0: as fast as the server answers).
    ``start``: no table moves until every table is greeted, and ``deadline`` counts from
    then (see ``Start``)."""
    rng = random.Random(seed)
    step = 1 if split else 0
    await asyncio.gather(
        *(
            run_table(
                [bases[n % len(bases)], bases[(n + step) % len(bases)]],
                table_id,
                tokens,
                figures,
                deadline,
                limit,
                random.Random(rng.random()),
                pace,
                start,
            )
            for n, (table_id, tokens) in enumerate(tables)
        )
    )


def refusals(figures: Figures) -> str:
    """The refused actions by error code, for a report line ("" when none were refused)."""
    return f" {dict(figures.refusals)}" if figures.refusals else ""
