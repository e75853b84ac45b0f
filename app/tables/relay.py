"""Connections on a worker that does not own their table: commands to the owner, frames back.

With several workers, each live table has one owner (``leases.py``). A connection (or a
lobby request) that reaches another worker is served through the owner: this worker forwards
its greeting, its actions and its goodbye over Redis to the owner's channel
(``talon:worker:<owner>``), and the owner, which holds the table, answers with the frames it
has already rendered and redacted for that viewer on this worker's channel. Only the owner
applies actions, renders frames and moves bots; a relaying worker runs no engine code.

Two halves, one per side:

- ``RemoteTable`` (on the relaying worker) stands in for the table on one connection:
  ``attach``, ``act`` and ``detach`` like a ``TableAuthority``, and what chat needs to know
  (``table_id``, ``status``, ``seat_of``), learned from the ``table`` and ``welcome`` frames
  that pass through.
- ``RemoteViewer`` (on the owner) stands in for that connection: the table subscribes it
  like a local one; the frames it is given in one turn of the event loop travel together,
  numbered, so that the relaying worker notices a lost one.

Everything one worker sends another in one turn of the event loop (frames for many
connections, many actions) leaves as one Redis message (``post``): under load the cost of
the relay is paid per turn, not per frame.

When anything may have been lost (a gap in the numbers, Redis gone, the owner's lease moved
or run out), the relaying worker closes its connection with ``hand_over``: the client
reconnects with ``since`` and is brought up to date exactly, by whichever worker owns the
table then. Each relaying worker lists its connections to each owner every ``interval``
seconds; the owner drops remote viewers that are no longer listed, or whose worker went
silent, so a dead worker's viewers do not keep a table in memory.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from app.common import metrics
from app.common.bus import Message, RedisBus
from app.common.errors import (
    Conflict,
    Elsewhere,
    Forbidden,
    Invalid,
    NotFound,
    ServiceError,
    TableMoving,
    Unauthorized,
    Unavailable,
    table_moving,
)
from app.tables import presenter
from app.tables.authority import TableAuthority
from app.tables.hub import Frame, Subscriber
from app.tables.presenter import SeatHolder
from app.tables.snapshot import StoredTable

log = logging.getLogger(__name__)

WORKERS = "talon:worker:"
SILENT_AFTER = 3  # intervals without a listing after which a relaying worker counts as gone


class Owner(Protocol):
    """What the owner's side needs from the table registry."""

    async def authority(self, table_id: str) -> TableAuthority:
        """The table, loaded if needed; ``Elsewhere`` if another worker owns it."""
        ...

    async def run_command(self, body: Mapping[str, Any]) -> Any:
        """Run a lobby command forwarded by another worker (``tables.commands``)."""
        ...


class Connection(Subscriber, Protocol):
    """A relayed WebSocket connection, as the relay sees it."""

    player_id: str | None

    def hand_over(self) -> None:
        """Close it with the code that tells the client to reconnect with ``since``."""
        ...


# -- the owner's side ---------------------------------------------------------------------


class RemoteViewer:
    """On the owner: a connection held by another worker (``origin``), subscribed to the
    table like a local one."""

    def __init__(self, relay: Relay, origin: str, conn: str, player_id: str | None) -> None:
        self.relay, self.origin, self.conn = relay, origin, conn
        self.player_id = player_id
        self.table: TableAuthority | None = None
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._seat: int | None = None
        self._frames: list[Frame] = []
        self._number = 0

    @property
    def seat(self) -> int | None:
        """The seat its player holds (set by the table; the other worker is told)."""
        return self._seat

    @seat.setter
    def seat(self, seat: int | None) -> None:
        if seat != self._seat and self.ready.done():
            self.flush()
            self._send({"kind": "seat", "seat": seat})
        self._seat = seat

    def deliver(self, frame: Frame) -> None:
        """Queue a frame; the frames of one loop turn leave together."""
        if not self._frames:
            self.relay.dirty(self)
        self._frames.append(frame)

    def flush(self) -> None:
        """Post the queued frames now, numbered, behind whatever was posted before."""
        if not self._frames:
            return
        frames, self._frames = self._frames, []
        self._number += 1
        self._send({"kind": "frames", "n": self._number, "frames": frames})

    def hand_over(self) -> None:
        """The table leaves this worker: the other worker closes the connection, and its
        client reconnects to whichever worker owns the table next."""
        self.flush()
        self._send({"kind": "moved"})

    def _send(self, body: Message) -> None:
        body["conn"] = self.conn
        self.relay.post(self.origin, body)


# -- the relaying worker's side -----------------------------------------------------------


@dataclass(eq=False)
class RemoteTable:
    """On a worker that does not own the table: the table as one relayed connection uses
    it. Its seats and status follow the frames that pass through."""

    relay: Relay
    owner: str
    table_id: str
    status: str
    seats: dict[int, SeatHolder]
    version: int
    # Who may watch (checked on this worker before greeting the owner).
    spectators: bool
    visibility: str
    invite_code: str
    abandoned: dict[int, SeatHolder] = field(default_factory=dict)
    """The seats computer players took over, with their former holders (who may watch)."""
    conn: str = field(default_factory=lambda: secrets.token_hex(8))
    connection: Connection | None = None
    greeted: asyncio.Future[int | None] | None = None
    _expected: int = 1

    def seat_of(self, player_id: str | None) -> int | None:
        """The seat this player holds, as the table last said."""
        return presenter.seat_held(self.seats, player_id)

    async def attach(
        self,
        subscriber: Connection,
        player_id: str | None,
        since: int | None,
        max_replay: int = 128,
    ) -> int | None:
        """Greet the owner for ``subscriber``; its seat. ``Unavailable`` when the owner does
        not answer within ``relay.patience`` seconds (it may have died)."""
        self.connection = subscriber
        self.greeted = asyncio.get_running_loop().create_future()
        self.relay.relayed[self.conn] = self
        self._send(
            {
                "kind": "greet",
                "table_id": self.table_id,
                "player_id": player_id,
                "since": since,
                "max_replay": max_replay,
            }
        )
        try:
            return await asyncio.wait_for(asyncio.shield(self.greeted), self.relay.patience)
        except TimeoutError:
            self.detach(subscriber)  # should the owner answer after all, it lets go
            raise table_moving() from None
        except BaseException:
            self.detach(subscriber)
            raise

    async def act(
        self,
        player_id: str | None,
        version: Any,
        action: Any,
        reply: Subscriber | None = None,
        ref: Any = None,
    ) -> None:
        """Forward an action; its ack or its refusal comes back as a frame."""
        self._send({"kind": "act", "version": version, "action": action, "ref": ref})

    def detach(self, subscriber: Subscriber) -> None:
        """The connection closed: the owner stops sending to it."""
        if self.relay.relayed.pop(self.conn, None) is not None:
            self._send({"kind": "bye"})

    def hand_over(self) -> None:
        """Close the connection so that its client reconnects (nothing more comes); while
        it is still being greeted, the greeting is refused instead (and tried again)."""
        self.relay.relayed.pop(self.conn, None)
        if self.greeted is not None and not self.greeted.done():
            self.greeted.set_exception(table_moving())
        elif self.connection is not None:
            self.connection.hand_over()

    def take(self, body: Message) -> None:
        """Frames from the owner, in order; a gap hands the connection over."""
        if body.get("n") != self._expected or self.connection is None:
            log.info("a relayed frame was lost; the client resumes", extra=self._fields())
            self.hand_over()
            return
        self._expected += 1
        for frame in body.get("frames") or ():
            if isinstance(frame, dict):
                self._learn(frame)
            self.connection.deliver(frame)

    def _learn(self, frame: dict[str, Any]) -> None:
        info = frame.get("table") if frame.get("type") in ("table", "welcome") else None
        if not isinstance(info, dict):
            return
        self.status = str(info.get("status", self.status))
        self.version = int(info.get("version", self.version))
        self.seats = {
            int(s["seat"]): SeatHolder(str(s["player_id"]), str(s.get("name")))
            for s in info.get("seats", ())
            if isinstance(s, dict) and s.get("player_id") is not None
        }

    def _send(self, body: Message) -> None:
        body["conn"] = self.conn
        self.relay.post(self.owner, body)

    def _fields(self) -> dict[str, Any]:
        return {"table_id": self.table_id, "version": self.version}


class Relay:
    """This worker's channel: commands for tables it owns come in, frames for connections it
    relays come back, and lobby requests it forwards are answered (``call``)."""

    def __init__(
        self,
        url: str,
        worker: str,
        owner: Owner,
        patience: float,
        interval: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.worker = worker
        self.clock = clock
        self.owner = owner
        self.patience = patience  # how long to wait for an owner's answer
        self.interval = interval  # how often connections are listed to their owners
        self.bus = RedisBus(
            url,
            self._receive,
            lambda: None,
            channel=WORKERS,
            listen=WORKERS + worker,
            on_lost=self._lost,
            origin=worker,
        )
        self.relayed: dict[str, RemoteTable] = {}  # by connection id, on this worker
        self.viewers: dict[tuple[str, str], RemoteViewer] = {}  # (worker, conn), as owner
        self._heard: dict[str, float] = {}  # when each relaying worker last listed its own
        self._calls: dict[str, asyncio.Future[Any]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._posted: dict[str, list[Message]] = {}  # this turn's messages, by worker
        self._dirty: list[RemoteViewer] = []  # remote viewers with frames this turn

    async def start(self) -> None:
        """Connect to Redis and subscribe to this worker's channel."""
        await self.bus.start()

    async def close(self) -> None:
        """Stop listening; every relayed connection is handed over."""
        for table in list(self.relayed.values()):
            table.hand_over()
        for task in list(self._tasks):
            task.cancel()
        await self.bus.close()

    def remote_table(self, owner: str, table: StoredTable) -> RemoteTable:
        """A stand-in for a table that ``owner`` holds, for one connection of this worker."""
        return RemoteTable(
            self,
            owner,
            table.table_id,
            table.status,
            dict(table.seats),
            table.version,
            table.spectators,
            table.visibility,
            table.invite_code,
            dict(table.abandoned),
        )

    def post(self, worker: str, body: Message) -> None:
        """Queue ``body`` for ``worker``; everything queued in one loop turn leaves as one
        Redis message, in order."""
        if not self._posted and not self._dirty:
            asyncio.get_running_loop().call_soon(self._send_posted)
        self._posted.setdefault(worker, []).append(body)

    def dirty(self, viewer: RemoteViewer) -> None:
        """``viewer`` has frames to send at the end of this loop turn."""
        if not self._posted and not self._dirty:
            asyncio.get_running_loop().call_soon(self._send_posted)
        self._dirty.append(viewer)

    def _send_posted(self) -> None:
        dirty, self._dirty = self._dirty, []
        for viewer in dirty:
            viewer.flush()
        posted, self._posted = self._posted, {}
        for worker, items in posted.items():
            self.bus.send(WORKERS + worker, {"kind": "batch", "items": items})

    async def call(self, owner: str, args: Mapping[str, Any]) -> Any:
        """Run a lobby command (``tables.commands``: its JSON in ``args``) on the table's
        owner; its answer, or its ``ServiceError``. ``TableMoving`` when the owner does not
        answer."""
        call = secrets.token_hex(8)
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._calls[call] = answer
        self.post(owner, {"kind": "command", "call": call, "args": args})
        try:
            return await asyncio.wait_for(answer, self.patience)
        except TimeoutError:
            raise table_moving() from None
        finally:
            self._calls.pop(call, None)

    async def check(self, holders: Callable[[list[str]], Awaitable[dict[str, str]]]) -> int:
        """Hand over every relayed connection whose table's owner has changed or lost its
        lease, list the others to their owners, and drop remote viewers whose worker went
        silent; how many connections were handed over."""
        asked = list(self.relayed.values())
        tables = sorted({t.table_id for t in asked})
        owners = await holders(tables) if tables else {}
        # Judged only for the connections asked about: one that arrived during the lookup
        # found its owner itself, and one that left needs nothing.
        moved = [
            t for t in asked if self.relayed.get(t.conn) is t and owners.get(t.table_id) != t.owner
        ]
        for table in moved:
            log.info("a relayed table's owner moved; the client resumes", extra=table._fields())
            table.hand_over()
        listed: dict[str, list[str]] = {}
        for table in self.relayed.values():
            listed.setdefault(table.owner, []).append(table.conn)
        for owner, conns in listed.items():
            self.post(owner, {"kind": "viewers", "conns": conns})
        silent = self.clock() - SILENT_AFTER * self.interval
        for origin in [o for o, at in self._heard.items() if at < silent]:
            self._forget(origin, keep=set())
        return len(moved)

    # -- receiving ------------------------------------------------------------------------

    def _receive(self, message: Message) -> None:
        origin, items = str(message.get("origin")), message.get("items")
        if message.get("kind") != "batch" or not isinstance(items, list):
            return
        sent = message.get("at")
        for body in items:
            if isinstance(body, dict):
                self._take(origin, body, sent)

    def _take(self, origin: str, body: Message, sent: Any) -> None:
        kind, conn = body.get("kind"), str(body.get("conn"))
        if kind == "frames":
            relayed = self.relayed.get(conn)
            if relayed is not None:
                relayed.take(body)
                if isinstance(sent, (int, float)):
                    metrics.FANOUT_LAG.observe(max(0.0, time.time() - sent))
        elif kind in ("greeted", "refused", "seat", "moved"):
            self._answer_relayed(kind, conn, body)
        elif kind == "answer":
            self._answer_call(body)
        elif kind == "greet":
            self._greet(origin, conn, body)
        elif kind == "act":
            self._act(origin, conn, body)
        elif kind == "bye":
            self._bye(origin, conn)
        elif kind == "viewers":
            self._heard[origin] = self.clock()
            self._forget(origin, keep=set(body.get("conns") or ()))
        elif kind == "command":
            self._spawn(self._run_command(origin, body))

    def _answer_relayed(self, kind: str, conn: str, body: Message) -> None:
        relayed = self.relayed.get(conn)
        if relayed is None:
            return
        greeted = relayed.greeted
        if kind == "greeted" and greeted is not None and not greeted.done():
            seat = body.get("seat")
            greeted.set_result(seat if isinstance(seat, int) else None)
        elif kind == "refused" and greeted is not None and not greeted.done():
            greeted.set_exception(refusal(body))
        elif kind == "seat" and relayed.connection is not None:
            seat = body.get("seat")
            relayed.connection.seat = seat if isinstance(seat, int) else None
        elif kind == "moved":
            relayed.hand_over()

    def _answer_call(self, body: Message) -> None:
        answer = self._calls.get(str(body.get("call")))
        if answer is None or answer.done():
            return
        if "error" in body:
            answer.set_exception(refusal(body["error"]))
        else:
            answer.set_result(body.get("result"))

    def _greet(self, origin: str, conn: str, body: Message) -> None:
        player_id = body.get("player_id")
        viewer = RemoteViewer(self, origin, conn, player_id if isinstance(player_id, str) else None)
        self.viewers[(origin, conn)] = viewer
        self._heard[origin] = self.clock()
        self._spawn(self._attach(viewer, body))

    async def _attach(self, viewer: RemoteViewer, body: Message) -> None:
        since, most = body.get("since"), body.get("max_replay")
        try:
            table = await self.owner.authority(str(body.get("table_id")))
            viewer.table = table
            seat = await table.attach(
                viewer,
                viewer.player_id,
                since if isinstance(since, int) else None,
                most if isinstance(most, int) else 128,
            )
        except Elsewhere:  # it lost the table meanwhile: the greeting is tried again
            self.viewers.pop((viewer.origin, viewer.conn), None)
            viewer._send({"kind": "refused", **error_body(table_moving())})
        except ServiceError as exc:
            self.viewers.pop((viewer.origin, viewer.conn), None)
            viewer._send({"kind": "refused", **error_body(exc)})
        else:
            viewer._seat = seat
            viewer.flush()  # the welcome first
            viewer._send({"kind": "greeted", "seat": seat})
        finally:
            viewer.ready.set_result(None)

    def _act(self, origin: str, conn: str, body: Message) -> None:
        viewer = self.viewers.get((origin, conn))
        if viewer is not None:
            self._spawn(self._act_for(viewer, body))

    async def _act_for(self, viewer: RemoteViewer, body: Message) -> None:
        await viewer.ready  # tasks waiting here resume in the order they came
        if viewer.table is None:
            return
        ref = body.get("ref")
        try:
            await viewer.table.act(
                viewer.player_id, body.get("version"), body.get("action"), reply=viewer, ref=ref
            )
        except ServiceError as exc:
            viewer.deliver(presenter.error(exc.code, exc.message, ref, **exc.extra))

    def _bye(self, origin: str, conn: str) -> None:
        viewer = self.viewers.pop((origin, conn), None)
        if viewer is not None and viewer.table is not None:
            viewer.table.detach(viewer)

    def _forget(self, origin: str, keep: set[str]) -> None:
        """Drop ``origin``'s remote viewers that are not in ``keep`` (closed, or their
        worker died). Each is told it moved: should its worker still hold it after all, the
        connection is closed and its client resumes."""
        if not keep:
            self._heard.pop(origin, None)
        for key in [k for k in self.viewers if k[0] == origin and k[1] not in keep]:
            viewer = self.viewers[key]
            if viewer.ready.done():
                viewer.hand_over()
                self._bye(*key)

    async def _run_command(self, origin: str, body: Message) -> None:
        reply: Message = {"kind": "answer", "call": body.get("call")}
        args = body.get("args")
        try:
            reply["result"] = await self.owner.run_command(args if isinstance(args, dict) else {})
        except ServiceError as exc:
            reply["error"] = error_body(exc)
        self.post(origin, reply)

    def _lost(self) -> None:
        """Redis failed: frames for relayed connections may be lost; hand them all over."""
        for table in list(self.relayed.values()):
            table.hand_over()

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a relayed command failed", exc_info=task.exception())


def error_body(exc: ServiceError) -> Message:
    """A refusal as it crosses between workers."""
    body = {"status": exc.status, "code": exc.code, "message": exc.message, "extra": exc.extra}
    return body | {"moving": True} if isinstance(exc, TableMoving) else body


def refusal(body: Any) -> ServiceError:
    """The ``ServiceError`` a refusal from another worker stands for (same class, status and
    code)."""
    if not isinstance(body, dict):
        return Unavailable("internal", "The table's server gave an unreadable answer.")
    kinds: dict[Any, type[ServiceError]] = {
        kind.status: kind
        for kind in (ServiceError, Invalid, Unauthorized, Forbidden, NotFound, Conflict)
    }
    kind = TableMoving if body.get("moving") else kinds.get(body.get("status"), Unavailable)
    extra = body.get("extra") or {}
    return kind(str(body.get("code")), str(body.get("message")), **extra)
