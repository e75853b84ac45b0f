"""The table registry stays bounded: reads come from store rows, idle tables are evicted and
load again to the same state, replays are computed once."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import orjson

from app.history import service as history_module
from app.history.byte_cache import ByteCache
from app.history.replay import PIECE
from app.services import Services
from app.store.models import Table, TableSeat
from app.tables import presenter
from tests.tables.helpers import Recorder, play_random, started_table


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def on_clock(services: Services) -> Clock:
    clock = Clock()
    services.tables.clock = clock
    return clock


async def finished_tables(services: Services, count: int) -> list[str]:
    """``count`` finished tables written straight into the store (as after their matches)."""
    anna, _ = await services.tables.create_player("Anna")
    bela, _ = await services.tables.create_player("Bela")
    ids = [f"finished{n:05d}" for n in range(count)]
    async with services.tables.sessions.begin() as session:
        for table_id in ids:
            session.add(
                Table(
                    id=table_id,
                    invite_code="code",
                    variant="sixty-six",
                    options={},
                    visibility="public",
                    status="finished",
                    seats=2,
                    version=40,
                    created_by=anna.id,
                )
            )
        await session.flush()
        for table_id in ids:
            session.add(TableSeat(table_id=table_id, seat=0, player_id=anna.id))
            session.add(TableSeat(table_id=table_id, seat=1, player_id=bela.id))
    return ids


async def test_walking_two_thousand_finished_tables_keeps_the_registry_bounded(
    services: Services,
) -> None:
    clock = on_clock(services)
    ids = await finished_tables(services, 2000)
    for table_id in ids:  # what GET /api/tables/{id} answers: read from the store rows
        info = await services.tables.get_table(table_id, None)
        assert info["status"] == "finished" and info["seats"][1]["name"] == "Bela"
    assert services.tables.loaded() == 0
    for table_id in ids[:100]:  # a viewer greets each table and leaves again
        authority = await services.tables.authority(table_id)
        viewer = Recorder(None)
        await authority.attach(viewer, None, None)
        assert viewer.frames[0]["type"] == "welcome"
        authority.detach(viewer)
        clock.now += services.tables.idle_seconds
        services.tables.evict_idle()
        assert services.tables.loaded() <= 1


async def test_an_idle_table_is_evicted_and_reloads_to_the_identical_state(
    services: Services,
) -> None:
    clock = on_clock(services)
    authority, players = await started_table(services, {"target": 20})
    await play_random(authority, players, random.Random(7), 25)
    watcher = Recorder(None)
    await authority.attach(watcher, None, None)
    clock.now += services.tables.idle_seconds
    assert services.tables.evict_idle() == 0  # watched
    authority.detach(watcher)
    clock.now += services.tables.idle_seconds - 1
    assert services.tables.evict_idle() == 0  # not idle long enough
    before = snapshot_of(authority)
    clock.now += 1
    assert services.tables.evict_idle() == 1 and services.tables.loaded() == 0

    again = await services.tables.authority(authority.table_id)
    assert again is not authority
    assert snapshot_of(again) == before
    await play_random(again, players, random.Random(8), 3)  # and it plays on
    assert again.version == 28


def snapshot_of(authority: Any) -> dict[str, Any]:
    """Everything a viewer could learn from the table, and its match state."""
    return {
        "version": authority.version,
        "state": authority.state,
        "seats": authority.seats,
        "records": [(r.version, r.texts) for r in authority.records],
        "welcomes": [presenter.welcome(authority, seat) for seat in (0, 1, None)],
        "resume": presenter.resume(authority, authority.version - 5, 1),
    }


async def test_a_finished_match_loads_without_its_version_records(services: Services) -> None:
    clock = on_clock(services)
    authority, players = await started_table(services, {"target": 1})
    await play_random(authority, players, random.Random(3), 400)
    assert authority.state is not None and authority.state.match_over
    final = presenter.welcome(authority, None)["view"]
    clock.now += services.tables.idle_seconds
    assert services.tables.evict_idle() == 1
    again = await services.tables.authority(authority.table_id)
    assert again.records == [] and again.status == "finished"
    assert presenter.welcome(again, None)["view"] == final


async def test_a_replay_is_computed_once(services: Services, monkeypatch: Any) -> None:
    authority, players = await started_table(services, {"target": 1})
    await play_random(authority, players, random.Random(4), 400)
    assert authority.match_id is not None
    calls: list[tuple[str, int]] = []
    real_starts, real_steps = history_module.piece_starts, history_module.piece_steps

    def starts(log: dict[str, Any]) -> Any:
        calls.append(("starts", log["id"]))
        return real_starts(log)

    def steps(log: dict[str, Any], k: int, start: Any) -> Any:
        calls.append(("steps", k))
        return real_steps(log, k, start)

    monkeypatch.setattr(history_module, "piece_starts", starts)
    monkeypatch.setattr(history_module, "piece_steps", steps)
    first = orjson.loads(await services.history.replay(authority.match_id))
    second = orjson.loads(await services.history.replay(authority.match_id))
    assert first == second and len(first["steps"]) == authority.version + 1
    pieces = authority.version // PIECE + 1
    assert calls == [("starts", authority.match_id)] + [("steps", k) for k in range(pieces)]
    # The log, the pieces' starts and every piece are kept.
    assert services.history.replays_cached() == 2 + pieces


async def test_replay_pages_agree_with_the_whole_and_the_cache_keeps_to_its_bytes(
    services: Services,
) -> None:
    authority, players = await started_table(services, {"target": 40})
    await play_random(authority, players, random.Random(6), 2000)
    assert authority.match_id is not None and authority.version > PIECE
    history = services.history
    history.replay_cache = ByteCache(30_000)  # a few pieces at most
    whole = orjson.loads(await history.replay(authority.match_id))
    assert whole["next"] is None and len(whole["steps"]) == whole["total_steps"]
    paged: list[dict[str, Any]] = []
    start: int | None = 0
    while start is not None:
        page = orjson.loads(await history.replay(authority.match_id, start=start, limit=37))
        assert history.replay_cache.used <= 30_000
        assert len(page["steps"]) <= 37 and page["total_steps"] == whole["total_steps"]
        paged += page["steps"]
        start = page["next"]
    assert paged == whole["steps"]
    steps = [s["deals_done"] for s in paged]
    assert steps == sorted(steps) and steps[-1] == len(whole["deals"])


async def test_a_slow_load_holds_up_only_its_own_table(services: Services) -> None:
    first, second = await finished_tables(services, 2)
    real_load = services.tables._load
    release = asyncio.Event()
    loads: list[str] = []

    async def slow_for_first(table_id: str, *rest: Any) -> Any:
        loads.append(table_id)
        if table_id == first:
            await release.wait()
        return await real_load(table_id, *rest)

    services.tables._load = slow_for_first  # type: ignore[method-assign]
    waiting = [asyncio.ensure_future(services.tables.authority(first)) for _ in range(2)]
    other = await asyncio.wait_for(services.tables.authority(second), 5)
    assert other.table_id == second and not any(w.done() for w in waiting)
    release.set()
    loaded = await asyncio.gather(*waiting)
    assert loaded[0] is loaded[1] and loads == [first, second]
