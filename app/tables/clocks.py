"""Turn clocks: how long the seat on move may think, and what happens when it runs out.

A table chooses its clock when it is opened (``MODES``):

- ``none``: nobody is timed (friends who want to think);
- ``move``: each move has ``per_move`` seconds, and a seat that takes longer draws on its
  time bank of ``bank`` seconds, which is full again at the start of every deal;
- ``correspondence``: ``per_move`` is hours, for play across days; no bank.

Only a human seat's clock runs: a computer player on move stops it. The running clock
(``TurnClock``) is part of the table's durable state: it is stored with every action, in the
same transaction, so that a restart or a new owner finds the same deadline. It belongs to
one version of the table: an action moves the table to the next version and the old deadline
can no longer fire. When it does run out, the table's owner applies the table's consequence
(``CONSEQUENCES``) through its inbox, like an action: ``takeover`` (a computer player of
``TAKEOVER_LEVEL`` plays the seat until its player reclaims it) or ``forfeit`` (the seat
resigns the match).

Everything here is pure: the table's owner sets the alarm (``app.tables.alarms``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from app.engine import State

MODES = ("none", "move", "correspondence")
CONSEQUENCES = ("takeover", "forfeit")
TAKEOVER_LEVEL = "medium"
"""The computer player that takes a seat whose clock ran out."""


@dataclass(frozen=True)
class ClockRules:
    """A table's clock: seconds per move and a bank per deal (0: none)."""

    mode: str
    per_move: float
    bank: float

    def to_json(self) -> dict[str, Any]:
        """The clock as the lobby and the ``clock`` frame show it."""
        return {"mode": self.mode, "per_move": self.per_move, "bank": self.bank}


@dataclass(frozen=True)
class ClockSettings:
    """The server's lengths for each mode (``CLOCK_MOVE_SECONDS``, ``CLOCK_BANK_SECONDS``,
    ``CLOCK_CORRESPONDENCE_HOURS``)."""

    move_seconds: float = 30.0
    bank_seconds: float = 60.0
    correspondence_hours: float = 24.0

    def rules(self, mode: str) -> ClockRules | None:
        """The clock of ``mode`` (None for ``none``)."""
        if mode == "move":
            return ClockRules(mode, self.move_seconds, self.bank_seconds)
        if mode == "correspondence":
            return ClockRules(mode, self.correspondence_hours * 3600.0, 0.0)
        return None


def default_mode(visibility: str, bots: int, seats: int) -> str:
    """A public table that waits for strangers gets a per-move clock; a private table, or
    one where the creator plays only computer players, none unless it asks."""
    return "move" if visibility == "public" and bots < seats - 1 else "none"


@dataclass(frozen=True)
class TurnClock:
    """The running clock at one version of a table: whose it is (None: nobody's, a computer
    player is on move or the match is over), when that turn began (seconds since the epoch),
    the deal it belongs to and every seat's time bank left in that deal."""

    seat: int | None
    version: int
    started: float
    deal_no: int
    banks: tuple[float, ...]

    def deadline(self, rules: ClockRules) -> float | None:
        """When the seat on move runs out of time, or None."""
        if self.seat is None:
            return None
        return self.started + rules.per_move + self.banks[self.seat]

    def to_json(self) -> dict[str, Any]:
        """The stored form (the ``turn_clock`` column)."""
        return {
            "seat": self.seat,
            "version": self.version,
            "started": self.started,
            "deal_no": self.deal_no,
            "banks": list(self.banks),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TurnClock:
        """The clock back from its stored form."""
        return cls(
            seat=data["seat"],
            version=int(data["version"]),
            started=float(data["started"]),
            deal_no=int(data["deal_no"]),
            banks=tuple(float(b) for b in data["banks"]),
        )


def start_clock(
    rules: ClockRules, state: State, version: int, now: float, humans: Iterable[int]
) -> TurnClock:
    """The clock of a match just started (or of a table whose seats just changed): full
    banks, the turn of the seat on move beginning ``now``."""
    banks = tuple(rules.bank for _ in range(state.rules.players))
    return TurnClock(_timed_seat(state, humans), version, now, state.deal_no, banks)


def after_move(
    rules: ClockRules,
    clock: TurnClock,
    state: State,
    version: int,
    now: float,
    humans: Iterable[int],
) -> TurnClock:
    """The clock once an action took the table to ``version`` (``state``) at ``now``: the
    seat that moved pays what it took beyond ``per_move`` from its bank, a new deal fills
    every bank again, and the next seat's turn begins."""
    banks = list(clock.banks)
    if clock.seat is not None:
        over = max(0.0, now - clock.started - rules.per_move)
        banks[clock.seat] = max(0.0, banks[clock.seat] - over)
    if state.deal_no != clock.deal_no:
        banks = [rules.bank] * len(banks)
    return TurnClock(_timed_seat(state, humans), version, now, state.deal_no, tuple(banks))


def restarted(clock: TurnClock, state: State, now: float, humans: Iterable[int]) -> TurnClock:
    """The same version's clock after the seats changed (a takeover or a reclaim): the seat
    on move, if human, starts its turn ``now`` with the bank it had."""
    return TurnClock(_timed_seat(state, humans), clock.version, now, clock.deal_no, clock.banks)


def clock_frame(rules: ClockRules, clock: TurnClock, now: float) -> dict[str, Any]:
    """The ``clock`` frame: the clock's lengths, the seat whose time runs, the seconds each
    seat has left (the seat on move: to its deadline; the others: their bank) and the
    server's time of the frame, so that a client can draw it without trusting its clock."""
    remaining = list(clock.banks)
    deadline = clock.deadline(rules)
    if clock.seat is not None and deadline is not None:
        remaining[clock.seat] = max(0.0, deadline - now)
    return {
        "type": "clock",
        **rules.to_json(),
        "seat": clock.seat,
        "version": clock.version,
        "remaining": [millis(r) for r in remaining],
        "server_time": millis(now),
    }


def millis(seconds: float) -> float:
    """``seconds`` to the millisecond: ``round(seconds, 3)`` at a third of its cost (an update
    carries three such numbers). On a tie (half a millisecond, once the float is rounded) the
    two may differ by one millisecond."""
    return round(seconds * 1000) / 1000


def _timed_seat(state: State, humans: Iterable[int]) -> int | None:
    if state.match_over or state.to_move is None:
        return None
    return state.to_move if state.to_move in set(humans) else None
