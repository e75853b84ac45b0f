"""Table chat: two rooms per table, quick phrases, free text, mutes and reports.

``players`` is read and written by the seated players only. ``spectators`` is written by
everyone watching; a seated player reads it only when the match is not live, or live when
that player asked for it (``chat_options``): spectators cannot coach a player who did not ask.

Chat travels on the table's socket as its own frames (docs/protocol.md, "Chat") with its own
sequence (``seq``, the stored line's id: increasing, never a table version). A connection
joins with ``chat_join`` and gets the recent lines it may read; each line is stored before it
is sent. Workers tell each other about new lines on a Redis channel of their own
(``talon:chat:<table>``), and each worker hands them to its own readers.

Nothing here reads the game: a line holds what its sender typed or the code of a quick
phrase, the sender's name and seat, and its time; no line is ever written by the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import async_sessionmaker

from app.chat.operators import EVERYWHERE
from app.chat.text import WordFilter, line_content
from app.common.bus import Message, RedisBus
from app.common.errors import Conflict, Forbidden, Invalid, NotFound, ServiceError, shown
from app.store import chat as chat_store
from app.store import players as player_store
from app.store.db import AsyncSession
from app.store.models import ChatMessage

PLAYERS = "players"
SPECTATORS = "spectators"
ROOMS = (PLAYERS, SPECTATORS)
CHANNEL = "talon:chat:"


class Table(Protocol):
    """What chat needs to know of a table: who sits where and whether its match is live."""

    @property
    def table_id(self) -> str:
        """The table's id."""
        ...

    @property
    def status(self) -> str:
        """``open``, ``live`` or ``finished``."""
        ...

    def seat_of(self, player_id: str | None) -> int | None:
        """The seat this player holds, or None."""
        ...


class Reader(Protocol):
    """A table connection: who it is, its current seat, and a non-blocking send."""

    @property
    def player_id(self) -> str | None:
        """The connection's player (None: an anonymous spectator)."""
        ...

    @property
    def seat(self) -> int | None:
        """Its seat now (follows seat changes), None for a spectator."""
        ...

    def send(self, frame: dict[str, Any]) -> None:
        """Queue one frame for this connection only; never blocks."""
        ...


class Counter(Protocol):
    """A shared per-key rate limit (``app.api.limits.AddressLimit``)."""

    async def take(self, key: str) -> float:
        """0 when one more hit is allowed (and counted), else the seconds to wait."""
        ...


@dataclass(eq=False)
class Listener:
    """One connection that joined a table's chat."""

    connection: Reader
    table: Table
    name: str | None
    muted: set[str] = field(default_factory=set)
    # The player's choice about the spectators' room: None follows the match (shown when it
    # is not live), True shows it even during a live match, False hides it.
    show_spectators: bool | None = None

    @property
    def seated(self) -> bool:
        """True while the connection holds a seat at the table."""
        return self.connection.seat is not None

    def reads_room(self, room: str) -> bool:
        """Whether lines of ``room`` reach this connection now."""
        if room == PLAYERS:
            return self.seated
        if not self.seated:
            return True
        if self.show_spectators is not None:
            return self.show_spectators
        return self.table.status != "live"

    def reads(self, frame: dict[str, Any]) -> bool:
        """Whether this line reaches this connection (its room, and no mute of its sender)."""
        return self.reads_room(frame["room"]) and frame["sender"]["player_id"] not in self.muted


def line_frame(message: ChatMessage, seat: int | None) -> dict[str, Any]:
    """The ``chat`` frame of a stored line (the sender's seat as it was when sent)."""
    frame: dict[str, Any] = {
        "type": "chat",
        "seq": message.id,
        "room": message.room,
        "sender": {"player_id": message.sender_id, "name": message.sender_name, "seat": seat},
        "at": message.sent_at.isoformat(),
    }
    if message.phrase is not None:
        frame["phrase"] = message.phrase
    else:
        frame["text"] = message.text
    return frame


class ChatService:
    """Every table's chat in this worker: the readers it serves and the store behind them."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        limit: Counter,
        *,
        mutes: Counter | None = None,
        reports: Counter | None = None,
        max_length: int = 300,
        history: int = 50,
    ) -> None:
        """``limit`` counts each player's lines, ``mutes`` its mutes and unmutes, ``reports``
        its reports (each its own count; none when not given)."""
        self.sessions = sessions
        self.limit = limit
        self.mutes = mutes
        self.reports = reports
        self.max_length = max_length
        self.history = history
        self.bus: RedisBus | None = None
        self.word_filter = WordFilter()
        self._listeners: dict[str, set[Listener]] = defaultdict(set)
        self._joined: dict[Reader, Listener] = {}
        self._filtered: dict[str, bool] = {}

    def connect_bus(self, redis_url: str) -> RedisBus:
        """Share lines with the other workers through Redis (started by the caller)."""
        self.bus = RedisBus(redis_url, self.on_bus_message, lambda: None, channel=CHANNEL)
        return self.bus

    def count(self, table_id: str) -> int:
        """How many connections of this worker read the table's chat."""
        return len(self._listeners.get(table_id, ()))

    # -- joining and leaving -------------------------------------------------------------

    def listener_of(self, connection: Reader) -> Listener | None:
        """The chat membership of a connection, if it joined."""
        return self._joined.get(connection)

    async def join(self, connection: Reader, table: Table) -> Listener:
        """Add ``connection`` to the table's chat and send it the recent lines it may read
        (joining again only sends them again)."""
        joined = self._joined.get(connection)
        if joined is not None:
            await self.send_history(joined)
            return joined
        player_id = connection.player_id
        async with self.sessions() as session:
            name = None
            muted: set[str] = set()
            if player_id is not None:
                player = await player_store.get_player(session, player_id)
                name = player.name if player is not None else None
                muted = await chat_store.muted_by(session, table.table_id, player_id)
            if table.table_id not in self._filtered:
                self._filtered[table.table_id] = await chat_store.word_filter(
                    session, table.table_id
                )
        if self._filtered[table.table_id]:
            await self.load_word_filter()
        listener = Listener(connection, table, name, muted)
        await self.send_history(listener)
        self._listeners[table.table_id].add(listener)
        self._joined[connection] = listener
        return listener

    def leave(self, connection: Reader) -> None:
        """Stop sending chat to this connection (nothing if it never joined)."""
        listener = self._joined.pop(connection, None)
        if listener is None:
            return
        listeners = self._listeners.get(listener.table.table_id)
        if listeners is not None:
            listeners.discard(listener)
            if not listeners:
                del self._listeners[listener.table.table_id]

    async def send_history(self, listener: Listener) -> None:
        """Send ``chat_history``: the last lines of the rooms this connection reads now."""
        rooms = [room for room in ROOMS if listener.reads_room(room)]
        async with self.sessions() as session:
            lines = await chat_store.recent_messages(
                session, listener.table.table_id, rooms, self.history
            )
        seat_of = listener.table.seat_of
        frames = [line_frame(line, seat_of(line.sender_id)) for line in lines]
        listener.connection.send(
            {
                "type": "chat_history",
                "rooms": rooms,
                "messages": [f for f in frames if f["sender"]["player_id"] not in listener.muted],
                "muted": sorted(listener.muted),
                "show_spectators": listener.show_spectators,
                "word_filter": self._filtered.get(listener.table.table_id, False),
                "max_length": self.max_length,
            }
        )

    # -- client messages -----------------------------------------------------------------

    async def handle(
        self, listener: Listener | None, message: dict[str, Any], ref: str | int | None = None
    ) -> None:
        """Answer one ``chat*`` message (``chat_ack`` echoing ``ref``); a refusal raises
        ``ServiceError`` (its code)."""
        kind = message["type"]
        if listener is None:
            raise Conflict("chat_not_joined", "Send chat_join before any other chat message.")
        if kind == "chat":
            seq = await self.say(listener, message)
        elif kind == "chat_mute":
            await self.mute(listener, message.get("player_id"), message.get("muted", True))
            seq = None
        elif kind == "chat_report":
            await self.report(listener, message.get("seq"))
            seq = None
        elif kind == "chat_options":
            await self.options(listener, message.get("spectators"))
            seq = None
        else:
            raise Invalid("unknown_type", f"Unexpected message type {shown(kind)}.")
        listener.connection.send({"type": "chat_ack", "id": ref, "seq": seq})

    async def say(self, listener: Listener, message: dict[str, Any]) -> int:
        """Store and send one line; its sequence number."""
        player_id = listener.connection.player_id
        if player_id is None or listener.name is None:
            raise Forbidden("chat_needs_player", "Watch as a player to write in the chat.")
        room = message.get("room")
        if room not in ROOMS:
            raise Invalid("bad_room", "room must be 'players' or 'spectators'.")
        self._check_room(listener, room)
        phrase, text = line_content(message, self.max_length)
        await self._take(self.limit, player_id, "chat lines")  # before any database read
        async with self.sessions() as session:
            muted = await chat_store.is_muted(session, EVERYWHERE, EVERYWHERE, player_id)
        if muted:
            raise Forbidden("chat_muted", "An operator has muted you; your line was not sent.")
        table_id = listener.table.table_id
        # The word filter runs last, on a line within every limit (its cost is bounded per
        # line: app/chat/text.py).
        if text is not None and self._filtered.get(table_id):
            text = self.word_filter(text)
        async with self.sessions.begin() as session:
            line = await chat_store.add_message(
                session, table_id, room, player_id, listener.name, phrase=phrase, text=text
            )
        frame = line_frame(line, listener.connection.seat)
        self.deliver(table_id, frame)
        if not listener.reads(frame):  # a writer always sees its own line
            listener.connection.send(frame)
        if self.bus is not None:
            self.bus.publish(table_id, {"kind": "chat", "frame": frame})
        return line.id

    @staticmethod
    async def _take(counter: Counter | None, player_id: str, what: str) -> None:
        """Count one more of ``what`` for this player; ``chat_rate_limited`` past its limit."""
        wait = await counter.take(player_id) if counter is not None else 0.0
        if wait:
            seconds = max(1, math.ceil(wait))
            raise ServiceError(
                "chat_rate_limited",
                f"Too many {what}; the next one is taken in {seconds} s.",
                retry_after=seconds,
            )

    def _check_room(self, listener: Listener, room: str) -> None:
        if room == PLAYERS and not listener.seated:
            raise Forbidden("chat_not_allowed", "Only the seated players write in this room.")
        if room == SPECTATORS and listener.seated and listener.table.status == "live":
            raise Forbidden(
                "chat_not_allowed", "Players write to the spectators only once the match is over."
            )

    async def mute(self, listener: Listener, muted_id: Any, muted: Any) -> None:
        """Mute (or unmute) a sender for this player at this table: its lines stop reaching
        the player's connections (kept across reconnects). Counted by ``mutes``."""
        player_id = listener.connection.player_id
        if player_id is None:
            raise Forbidden("chat_needs_player", "Watch as a player to mute someone.")
        if not isinstance(muted_id, str) or not muted_id or len(muted_id) > 32:
            raise Invalid("bad_chat", "player_id must be a player's id.")
        if not isinstance(muted, bool):
            raise Invalid("bad_chat", "muted must be true or false.")
        if muted_id == player_id:
            raise Invalid("bad_chat", "You cannot mute yourself.")
        await self._take(self.mutes, player_id, "mutes")
        table_id = listener.table.table_id
        async with self.sessions.begin() as session:
            if await player_store.get_player(session, muted_id) is None:
                raise NotFound("player_not_found", "There is no such player.")
            await chat_store.set_mute(session, table_id, player_id, muted_id, muted)
        for other in self._listeners.get(table_id, ()):
            if other.connection.player_id == player_id:
                (other.muted.add if muted else other.muted.discard)(muted_id)

    async def report(self, listener: Listener, seq: Any) -> None:
        """Keep a copy of line ``seq`` for an operator (a line this reader may read). Counted
        by ``reports``, reports of a line already reported too."""
        player_id = listener.connection.player_id
        if player_id is None:
            raise Forbidden("chat_needs_player", "Watch as a player to report a line.")
        if not isinstance(seq, int) or isinstance(seq, bool):
            raise Invalid("bad_chat", "seq must be the number of a chat line.")
        await self._take(self.reports, player_id, "reports")
        async with self.sessions.begin() as session:
            line = await chat_store.get_message(session, seq) if 0 < seq < 2**31 else None
            if (
                line is None
                or line.table_id != listener.table.table_id
                or not listener.reads_room(line.room)
            ):
                raise NotFound("chat_line_not_found", "There is no such line at this table.")
            await chat_store.add_report(session, line, player_id)

    async def options(self, listener: Listener, spectators: Any) -> None:
        """A player shows (True), hides (False) or leaves to the match (None) the
        spectators' room; the history is sent again for the rooms now read."""
        if spectators is not None and not isinstance(spectators, bool):
            raise Invalid("bad_chat", "spectators must be true, false or null.")
        listener.show_spectators = spectators
        await self.send_history(listener)

    # -- fan-out -------------------------------------------------------------------------

    def deliver(self, table_id: str, frame: dict[str, Any]) -> None:
        """Send a line to this worker's connections that read it."""
        for listener in list(self._listeners.get(table_id, ())):
            if listener.reads(frame):
                listener.connection.send(frame)

    def on_bus_message(self, message: Message) -> None:
        """Another worker stored a line: hand it to this worker's readers."""
        frame = message.get("frame")
        table_id = message.get("table_id")
        if message.get("kind") != "chat" or not isinstance(frame, dict):
            return
        if isinstance(table_id, str) and frame.get("room") in ROOMS:
            with contextlib.suppress(KeyError, TypeError):
                self.deliver(table_id, frame)

    # -- table options and operators -----------------------------------------------------

    async def set_word_filter(self, table_id: str, on: bool) -> None:
        """Turn a table's word filter on or off (a table option chosen when it is opened)."""
        async with self.sessions.begin() as session:
            await chat_store.set_word_filter(session, table_id, on)
        if on:
            await self.load_word_filter()
        self._filtered[table_id] = on

    async def load_word_filter(self) -> None:
        """Build the word filter (half a second, once) in a thread, before a table needs it:
        built on a line, it would hold every table's messages meanwhile."""
        if not self.word_filter.loaded:
            await asyncio.to_thread(self.word_filter.load)
