"""Service-level helpers: recording subscribers and a started two-player table."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from app.services import Services, presenter
from app.services.authority import TableAuthority
from app.services.hub import Frame, viewer_key
from app.store import Player


@dataclass(eq=False)
class Recorder:
    """A subscriber that keeps every frame it is given: ``presence`` frames (unversioned, sent
    whenever a viewer comes or goes) apart from the others, and the order of every type."""

    seat: int | None
    frames: list[Frame] = field(default_factory=list)
    presence: list[dict[str, Any]] = field(default_factory=list)
    kinds: list[str | None] = field(default_factory=list)

    @property
    def viewer(self) -> str:
        return viewer_key(self.seat)

    def deliver(self, frame: Frame) -> None:
        read = json.loads(frame) if isinstance(frame, str) else frame
        kind = read.get("type")
        self.kinds.append(kind)
        (self.presence if kind == "presence" else self.frames).append(read)


async def started_table(
    services: Services, options: dict[str, Any] | None = None, clock: str = "none"
) -> tuple[TableAuthority, list[Player]]:
    """A two-player table whose match has started (untimed unless ``clock`` says)."""
    anna, _ = await services.tables.create_player("Anna")
    bela, _ = await services.tables.create_player("Bela")
    table = await services.tables.create_table(
        anna, "sixty-six", options or {}, "public", clock=clock
    )
    await services.tables.join(bela, table["id"], None, None)
    return await services.tables.authority(table["id"]), [anna, bela]


async def play_random(
    authority: TableAuthority, players: list[Player], rng: random.Random, moves: int
) -> int:
    """Play up to ``moves`` random legal actions (never resigning); how many were played."""
    played = 0
    while played < moves and authority.state is not None and not authority.state.match_over:
        seat = authority.state.to_move
        assert seat is not None
        if authority.records:
            legal = json.loads(authority.records[-1].frame_for(seat))["legal"]
        else:
            legal = presenter.welcome(authority, seat)["view"]["legal"]
        await authority.act(players[seat].id, authority.version, rng.choice(legal))
        played += 1
    return played
