"""Rematch by consent: one player's request is an offer, the new match starts when every seat
has accepted (computer seats at once), a decline ends it, and it expires on its own after
``REMATCH_SECONDS`` on the table's clock. Time here is a clock the test moves."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.common.errors import Conflict, Forbidden
from app.engine.dealing import match_seed
from app.services import Services
from app.store import Player
from app.tables.authority import TableAuthority
from tests.tables.helpers import ManualTime, Recorder, started_table

ANNA, BELA = "a1" * 16, "b2" * 16


@pytest.fixture
def clock(services: Services) -> ManualTime:
    clock = ManualTime()
    services.tables.clock = clock
    services.tables.timekeeper = clock
    return clock


async def finished_table(services: Services) -> tuple[TableAuthority, list[Player], Recorder]:
    """Anna and Bela's table after Bela resigned, watched by a spectator."""
    authority, players = await started_table(services)
    await authority.act(players[1].id, authority.version, {"type": "resign"})
    assert authority.status == "finished"
    watcher = Recorder(None)
    await authority.attach(watcher, None, None)
    return authority, players, watcher


def offers(recorder: Recorder) -> list[dict[str, Any]]:
    return [frame for frame in recorder.frames if frame["type"] == "rematch"]


async def test_one_request_is_an_offer_and_the_second_acceptance_starts_the_match(
    services: Services, clock: ManualTime
) -> None:
    services.tables.new_seed = lambda: "server seed"
    authority, (anna, bela), watcher = await finished_table(services)
    finished = authority.match_id
    offered = await services.tables.rematch(anna, authority.table_id, ANNA)
    assert offered["status"] == "finished" and authority.match_id == finished
    assert offered["rematch"] == {
        "offered_by": 0,
        "accepted": [0],
        "seconds_left": 60,
        "outcome": "pending",
        "declined_by": None,
    }
    await clock.advance(10)
    again = await services.tables.rematch(anna, authority.table_id, "ff" * 8)
    assert again["rematch"]["accepted"] == [0]  # asking again changes nothing
    late = Recorder(None)  # a viewer arriving while the offer stands sees it after its welcome
    await authority.attach(late, None, None)
    assert [f["type"] for f in late.frames] == ["welcome", "rematch"]
    assert late.frames[1]["seconds_left"] == 50

    started = await services.tables.rematch(bela, authority.table_id, BELA)
    assert started["status"] == "live" and started["match_id"] != finished
    assert started["rematch"]["outcome"] == "started"
    assert started["rematch"]["accepted"] == [0, 1]
    assert authority.rematch is None
    assert authority.state is not None  # both acceptors' parts made the new match's seed
    assert authority.state.seed == match_seed("server seed", [ANNA, BELA])
    assert [(f["outcome"], f["accepted"]) for f in offers(watcher)] == [
        ("pending", [0]),
        ("started", [0, 1]),
    ]
    await clock.advance(120)  # the started offer's timer is gone: nothing expires
    assert len(offers(watcher)) == 2


async def test_a_decline_withdraws_the_offer_for_everyone(
    services: Services, clock: ManualTime
) -> None:
    authority, (anna, bela), watcher = await finished_table(services)
    stranger, _ = await services.tables.create_player("Cili")
    with pytest.raises(Conflict) as none:
        await services.tables.decline_rematch(bela, authority.table_id)
    assert none.value.code == "no_rematch_offer"
    with pytest.raises(Forbidden) as spectator:
        await services.tables.rematch(stranger, authority.table_id)
    assert spectator.value.code == "not_seated"
    await services.tables.rematch(anna, authority.table_id)
    with pytest.raises(Forbidden) as spectator:
        await services.tables.decline_rematch(stranger, authority.table_id)
    assert spectator.value.code == "not_seated"
    declined = await services.tables.decline_rematch(bela, authority.table_id)
    assert declined["status"] == "finished"
    assert declined["rematch"]["outcome"] == "declined"
    assert declined["rematch"]["declined_by"] == 1
    assert authority.rematch is None
    # Bela's request now is a new offer of his own, which Anna must accept.
    renewed = await services.tables.rematch(bela, authority.table_id)
    assert renewed["status"] == "finished"
    assert renewed["rematch"]["offered_by"] == 1 and renewed["rematch"]["accepted"] == [1]
    assert [f["outcome"] for f in offers(watcher)] == ["pending", "declined", "pending"]
    await clock.advance(60)  # the declined offer's timer never fires; the new one's does
    assert [f["outcome"] for f in offers(watcher)] == ["pending", "declined", "pending", "expired"]


async def test_an_offer_expires_on_its_own_exactly_once(
    services: Services, clock: ManualTime
) -> None:
    authority, (anna, bela), watcher = await finished_table(services)
    await services.tables.rematch(anna, authority.table_id)
    await clock.advance(59.5)
    assert authority.rematch is not None and len(offers(watcher)) == 1
    await clock.advance(0.5)
    assert authority.rematch is None
    assert offers(watcher)[-1] == {
        "type": "rematch",
        "offered_by": 0,
        "accepted": [0],
        "seconds_left": 0,
        "outcome": "expired",
        "declined_by": None,
    }
    await clock.advance(600)
    assert [f["outcome"] for f in offers(watcher)] == ["pending", "expired"]
    # Bela's acceptance came too late: it is a new offer, and no match started.
    late = await services.tables.rematch(bela, authority.table_id)
    assert late["status"] == "finished" and late["rematch"]["offered_by"] == 1


async def test_computer_players_accept_at_once(services: Services, clock: ManualTime) -> None:
    anna, _ = await services.tables.create_player("Anna")
    table = await services.tables.create_table(anna, "sixty-six", {}, "public", bots={1: "easy"})
    authority = await services.tables.authority(table["id"])
    await authority.act(anna.id, authority.version, {"type": "resign"})
    finished = authority.match_id
    started = await services.tables.rematch(anna, table["id"])
    assert started["status"] == "live" and started["match_id"] != finished
    assert started["rematch"]["outcome"] == "started"
    assert started["rematch"]["accepted"] == [0, 1]


async def test_the_default_timer_runs_on_the_loop_and_the_monotonic_clock(
    services: Services,
) -> None:
    services.tables.rematches.seconds = 0.05  # no fake clock: the server's own timer
    authority, (anna, _), watcher = await finished_table(services)
    await services.tables.rematch(anna, authority.table_id)
    for _ in range(100):
        if authority.rematch is None:
            break
        await asyncio.sleep(0.01)
    assert [f["outcome"] for f in offers(watcher)] == ["pending", "expired"]


async def test_a_table_stays_in_memory_while_an_offer_stands(
    services: Services, clock: ManualTime
) -> None:
    services.tables.idle_seconds = 10
    authority, (anna, _), watcher = await finished_table(services)
    authority.detach(watcher)
    await services.tables.rematch(anna, authority.table_id)
    await clock.advance(30)
    assert services.tables.evict_idle() == 0
    await clock.advance(30)  # the offer expires
    assert authority.rematch is None
    await clock.advance(10)
    assert services.tables.evict_idle() == 1
