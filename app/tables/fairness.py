"""Match seeds that no one alone decides (docs/fairness.md).

The server draws its seed for a table's next match before anyone can contribute and shows
only its SHA-256 (the table's ``next_commitment``); for a table not opened yet, a player first
asks for an offered seed's commitment and names it when it opens the table with its part.
Each player sends a random contribution when it takes a seat, opens a table or asks for a
rematch; a computer player's contribution is drawn from the committed server seed, and a seat
that sent none adds the documented default. The match seed is the engine's ``match_seed`` of
all of them, so the server cannot pick a deal and a player, not knowing the server's seed,
cannot steer one. The server seed and the contributions stay secret until the match is over.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from app.common.errors import Conflict, Invalid
from app.engine import seed_commitment
from app.engine.dealing import MISSING_CONTRIBUTION, bot_contribution, match_seed
from app.store import seeds as seed_store
from app.store.db import AsyncSession

CONTRIBUTION = re.compile(r"[0-9a-f]{16,128}")


def check_contribution(value: str | None) -> str | None:
    """A contribution as sent (None: none); ``Invalid`` unless 16 to 128 hex digits."""
    if value is not None and not CONTRIBUTION.fullmatch(value):
        raise Invalid(
            "bad_contribution",
            "A contribution is 16 to 128 lower-case hexadecimal characters.",
        )
    return value


def commitment_of(server_seed: str | None) -> str | None:
    """The published commitment of a server seed (None for none)."""
    return None if server_seed is None else seed_commitment(server_seed)


@dataclass(frozen=True)
class SeedParts:
    """A new match's seed and what it was made of."""

    seed: str
    server_seed: str
    contributions: list[dict[str, Any]]
    """``{"seat", "source": "player" | "bot" | "missing", "value"}`` in seat order."""


async def draw_next_seed(session: AsyncSession, table_id: str, new_seed: Callable[[], str]) -> str:
    """Draw and keep the server's seed for the table's next match; its commitment."""
    seed = new_seed()
    await seed_store.set_next_seed(session, table_id, seed)
    return seed_commitment(seed)


async def offer_seed(session: AsyncSession, player_id: str, new_seed: Callable[[], str]) -> str:
    """Draw a server seed for the next table this player opens; its commitment."""
    seed = new_seed()
    await seed_store.offer_seed(session, player_id, seed)
    return seed_commitment(seed)


async def seed_new_table(
    session: AsyncSession,
    table_id: str,
    player_id: str,
    commitment: str | None,
    new_seed: Callable[[], str],
) -> None:
    """Give a table being opened its first server seed: the one offered to its creator under
    ``commitment`` (``Conflict`` ``unknown_commitment`` when that is not the offer), or a new
    one when no commitment is named."""
    if commitment is None:
        await draw_next_seed(session, table_id, new_seed)
        return
    seed = await seed_store.take_offered_seed(session, player_id)
    if seed is None or seed_commitment(seed) != commitment:
        raise Conflict(
            "unknown_commitment",
            "That commitment is not the server seed offered to you; ask for a new one.",
        )
    await seed_store.set_next_seed(session, table_id, seed)


async def contribute(session: AsyncSession, table_id: str, seat: int, value: str | None) -> None:
    """Keep a seated player's contribution for the next match (None: nothing sent)."""
    if value is not None:
        await seed_store.set_contribution(session, table_id, seat, value)


async def seed_new_match(
    session: AsyncSession,
    table_id: str,
    seats: int,
    bots: Collection[int],
    new_seed: Callable[[], str],
) -> SeedParts:
    """The seed of the match starting now from the committed server seed and the stored
    contributions, which are used up. A table without a committed seed (opened before
    seeds were committed) draws one now."""
    server_seed = await seed_store.next_seed(session, table_id) or new_seed()
    stored = await seed_store.contributions_of(session, table_id)
    parts: list[dict[str, Any]] = []
    for seat in range(seats):
        if seat in bots:
            source, value = "bot", bot_contribution(server_seed, seat)
        elif seat in stored:
            source, value = "player", stored[seat]
        else:
            source, value = "missing", MISSING_CONTRIBUTION
        parts.append({"seat": seat, "source": source, "value": value})
    await seed_store.clear_contributions(session, table_id)
    seed = match_seed(server_seed, [part["value"] for part in parts])
    return SeedParts(seed, server_seed, parts)


async def record_match_parts(session: AsyncSession, match_id: int, parts: SeedParts) -> None:
    """Keep, with the stored match, what its seed was made of (shown once it is over)."""
    await seed_store.set_match_parts(session, match_id, parts.server_seed, parts.contributions)
