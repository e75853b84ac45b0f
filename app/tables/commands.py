"""Every change a table accepts, as a value: the messages of its actor's inbox.

A table changes only through these commands, processed one at a time by its actor
(``TableAuthority.process``, one ``match`` over the types below). The lobby's commands
(``LOBBY``) can cross between workers: a worker that does not own the table sends the command's
JSON to the owner (``to_json`` / ``from_json``), which processes it and answers. A command of
no known type is refused with ``unknown_command`` and changes nothing.

This module imports nothing of the actor's: the actor, presence, rematch offers and the relay
all import it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar

from app.common.errors import Invalid
from app.tables.hub import Subscriber


class Command:
    """One entry of a table's inbox."""

    kind: ClassVar[str] = "command"


# -- play -----------------------------------------------------------------------------------


@dataclass
class Act(Command):
    """A seated player's action at ``version``; answers the new version. ``reply``, when
    given, gets the ``ack`` (echoing ``ref``) right behind its update."""

    player_id: str | None
    version: Any
    action: Any
    reply: Subscriber | None = None
    ref: Any = None
    kind: ClassVar[str] = "act"


class BotTurn(Act):
    """A bot's action: the same path as a player's, without a connection to ack."""

    kind: ClassVar[str] = "bot_turn"


@dataclass
class Greet(Command):
    """A viewer arrives (``since`` None) or resumes from ``since``: bring it up to date and
    subscribe it, with no update slipping in between; answers its seat."""

    subscriber: Subscriber
    player_id: str | None
    since: int | None
    max_replay: int = 128
    kind: ClassVar[str] = "greet"


@dataclass
class Timeout(Command):
    """The turn clock set at ``version`` rang: if the table is still there and the time is
    really up, apply the table's consequence (``tables.clocks``)."""

    version: int
    kind: ClassVar[str] = "timeout"


@dataclass
class PresenceDue(Command):
    """An away seat's grace has ended: look at every seat's presence again."""

    seat: int
    kind: ClassVar[str] = "presence"


@dataclass
class ExpireRematch(Command):
    """A rematch offer's time is up: it ends, if that same offer (``number``) still stands."""

    number: int
    kind: ClassVar[str] = "rematch_expiry"


# -- the lobby: these cross between workers --------------------------------------------------


@dataclass
class Join(Command):
    """A player takes a seat (``seat`` None: the first free one), with its ``contribution`` to
    the match seed; the match starts when every seat is then taken."""

    player_id: str
    name: str
    invite_code: str | None = None
    seat: int | None = None
    contribution: str | None = None
    kind: ClassVar[str] = "join"


@dataclass
class Leave(Command):
    """A player gives up its seat before the match starts; an emptied table is closed."""

    player_id: str
    kind: ClassVar[str] = "leave"


@dataclass
class AddBot(Command):
    """A seated player gives an empty seat (None: the first) to a computer player."""

    player_id: str
    seat: int | None
    level: str
    kind: ClassVar[str] = "add_bot"


@dataclass
class StartFull(Command):
    """Start the match of a table opened with every seat taken (its creator and bots)."""

    kind: ClassVar[str] = "start"


@dataclass
class OfferRematch(Command):
    """Offer a rematch, or accept the standing offer, with a contribution to its seed."""

    player_id: str
    contribution: str | None = None
    kind: ClassVar[str] = "rematch"


@dataclass
class DeclineRematch(Command):
    """Decline the standing rematch offer (its offerer withdraws it)."""

    player_id: str
    kind: ClassVar[str] = "decline_rematch"


@dataclass
class Reclaim(Command):
    """A player takes back the seat a computer player took over from it."""

    player_id: str
    name: str
    kind: ClassVar[str] = "reclaim"


@dataclass
class ClaimVictory(Command):
    """A seated player acts against a ``gone`` seat of the other side: it resigns (``win``)
    or a computer player takes it (``bot``)."""

    player_id: str
    seat: int
    remedy: str = "win"
    kind: ClassVar[str] = "claim_victory"


@dataclass
class Abort(Command):
    """A seated player aborts the match before every seat has acted in its first deal
    (``tables.aborts``): no winner, the table waits again; ``leave``: it gives up its seat."""

    player_id: str
    leave: bool = False
    kind: ClassVar[str] = "abort"


@dataclass
class Rename(Command):
    """A seated player's new name, shown at the table."""

    player_id: str
    name: str
    kind: ClassVar[str] = "rename"


LOBBY: dict[str, type[Command]] = {
    kind.kind: kind
    for kind in (
        Join,
        Leave,
        AddBot,
        StartFull,
        OfferRematch,
        DeclineRematch,
        Reclaim,
        ClaimVictory,
        Abort,
        Rename,
    )
}
"""The commands another worker may send to a table's owner, by their ``kind``."""

ALL: tuple[type[Command], ...] = (
    Act,
    BotTurn,
    Greet,
    Timeout,
    PresenceDue,
    ExpireRematch,
    *LOBBY.values(),
)
"""Every command a table accepts (its actor's ``process`` handles each)."""


def unknown(kind: object) -> Invalid:
    """The refusal of a command no table knows (``kind``: what it said it was)."""
    return Invalid("unknown_command", f"A table has no command {str(kind)[:40]!r}.")


def to_json(command: Command) -> dict[str, Any]:
    """A lobby command as it crosses between workers."""
    if LOBBY.get(command.kind) is not type(command):
        raise unknown(command.kind)
    return {"kind": command.kind, **asdict(command)}  # type: ignore[call-overload]


def from_json(body: Any) -> Command:
    """The lobby command ``body`` stands for; ``unknown_command`` for any other."""
    kind = LOBBY.get(str(body.get("kind"))) if isinstance(body, dict) else None
    if kind is None:
        raise unknown(body.get("kind") if isinstance(body, dict) else body)
    names = {f.name for f in fields(kind)}  # type: ignore[arg-type]
    try:
        return kind(**{k: v for k, v in body.items() if k in names})
    except TypeError:
        raise Invalid("bad_command", f"A {kind.kind!r} command with the wrong fields.") from None
