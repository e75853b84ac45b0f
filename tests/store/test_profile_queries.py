"""The store's queries behind a profile: marriages a player declared (from the action logs)
and its finished matches with the seat it held."""

from __future__ import annotations

from app.store import matches as match_store
from app.store.db import create_engine, session_factory
from tests.store.test_store import append, seed_match


async def test_marriages_are_counted_from_the_players_own_actions(database_url: str) -> None:
    engine = create_engine(database_url)
    sessions = session_factory(engine)
    try:
        async with sessions.begin() as session:
            match = await seed_match(session)
            played = [
                (0, {"type": "play", "card": "QH", "marriage": True}),
                (1, {"type": "play", "card": "KS", "marriage": True}),
                (0, {"type": "play", "card": "KD", "marriage": True}),
                (0, {"type": "play", "card": "QC"}),
                (1, {"type": "play", "card": "AH"}),
            ]
            rows = [
                {"table_id": "t1", "match_id": match.id, "version": v, "seat": s, "action": a}
                for v, (s, a) in enumerate(played, start=1)
            ]
            await append(session, rows)
        async with sessions() as session:
            assert await match_store.marriages_declared(session, "p0") == 2
            assert await match_store.marriages_declared(session, "p1") == 1
            assert await match_store.finished_seats_of(session, "p0") == []  # still live
    finally:
        await engine.dispose()
