"""The table authority: deltas fold into snapshots, one action at a time, durable, restartable."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from app.common.errors import Unavailable
from app.engine import view
from app.services import Services
from app.settings import Settings
from app.store import matches as match_store
from app.tables import presenter
from app.tables.authority import ActionRejected, TableAuthority
from tests.engine.reducer import fold
from tests.tables.helpers import Recorder, play_random, started_table


@pytest.mark.parametrize("match_no", range(12))
async def test_a_snapshot_plus_folded_updates_equals_a_fresh_snapshot(
    services: Services, match_no: int
) -> None:
    """For both seats and a spectator, at every version, over whole random matches."""
    rng = random.Random(match_no)
    services.tables.new_seed = lambda: f"reducer-{match_no}"
    options = {"target": 3, "claim": "manual"} if match_no % 3 == 2 else {"target": 3}
    authority, players = await started_table(services, options)
    viewers = [Recorder(0), Recorder(1), Recorder(None)]
    folded = []
    for viewer in viewers:
        await authority.attach(
            viewer, players[viewer.seat].id if viewer.seat is not None else None, None
        )
        welcome = viewer.frames.pop()
        folded.append(welcome["view"])
    while not authority.state.match_over:
        await play_random(authority, players, rng, 1)
        for index, viewer in enumerate(viewers):
            (update,) = viewer.frames
            viewer.frames.clear()
            assert update["version"] == authority.version
            folded[index] = fold(folded[index], update)
            assert folded[index] == view(authority.state, viewer.seat), (
                match_no,
                authority.version,
            )


async def test_spectators_never_receive_a_hidden_card(services: Services) -> None:
    services.tables.new_seed = lambda: "spectator"
    authority, players = await started_table(services, {"target": 2})
    spectator = Recorder(None)
    await authority.attach(spectator, None, None)
    await play_random(authority, players, random.Random(1), 400)
    assert authority.state.match_over
    for frame in spectator.frames[1:]:
        for event in frame["events"]:
            if event["type"] == "card_drawn":
                assert "card" not in event or event.get("trump_card")
            assert not (event["type"] == "hand_dealt" and "cards" in event)
        assert frame["legal"] == []


async def test_racing_on_one_version_exactly_one_wins(services: Services) -> None:
    authority, players = await started_table(services)
    seat = authority.state.to_move
    legal = presenter.welcome(authority, seat)["view"]["legal"]
    results = await asyncio.gather(
        *(authority.act(players[seat].id, 0, action) for action in legal[:2]),
        return_exceptions=True,
    )
    assert sorted(map(type, results), key=str) == sorted([int, ActionRejected], key=str)
    rejected = next(r for r in results if isinstance(r, ActionRejected))
    assert rejected.code == "stale_version" and rejected.extra == {"version": 1}
    async with services.tables.sessions() as session:
        log = await match_store.actions_of_match(session, authority.match_id)
    assert [row.version for row in log] == [1]


async def test_a_resignation_is_taken_at_an_earlier_version_of_the_match(
    services: Services,
) -> None:
    authority, players = await started_table(services)
    seat = authority.state.to_move
    legal = presenter.welcome(authority, seat)["view"]["legal"]
    await authority.act(players[seat].id, 0, legal[0])  # the other seat's picture is now old
    other = 1 - seat
    with pytest.raises(ActionRejected) as future:
        await authority.act(players[other].id, 5, {"type": "resign"})
    assert future.value.code == "stale_version"
    with pytest.raises(ActionRejected) as stale_play:
        await authority.act(players[other].id, 0, {"type": "play", "card": "AH"})
    assert stale_play.value.code == "stale_version"
    assert await authority.act(players[other].id, 0, {"type": "resign"}) == 2
    assert authority.state.match_over


async def test_a_failed_commit_changes_nothing_and_publishes_nothing(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    authority, players = await started_table(services)
    watcher = Recorder(None)
    await authority.attach(watcher, None, None)
    before = (authority.version, authority.state)

    def broken(*args: object, **kwargs: object) -> None:
        raise OperationalError("INSERT", {}, Exception("disk full"))

    monkeypatch.setattr(match_store, "append_actions", broken)
    seat = authority.state.to_move
    with pytest.raises(Unavailable):
        await authority.act(
            players[seat].id, 0, presenter.welcome(authority, seat)["view"]["legal"][0]
        )
    assert (authority.version, authority.state) == before
    assert len(watcher.frames) == 1  # just the welcome
    monkeypatch.undo()
    assert (
        await authority.act(
            players[seat].id, 0, presenter.welcome(authority, seat)["view"]["legal"][0]
        )
        == 1
    )


async def test_a_restart_rebuilds_live_tables_from_the_log(
    services: Services, database_url: str
) -> None:
    services.tables.new_seed = lambda: "restart"
    authority, players = await started_table(services, {"target": 20})
    assert await play_random(authority, players, random.Random(3), 30) == 30
    views = [view(authority.state, seat) for seat in (0, 1, None)]
    records = authority.records
    again = Services.build(Settings(database_url=database_url))
    try:
        assert await again.start() == 1
        rebuilt = await again.tables.authority(authority.table_id)
        assert rebuilt.version == authority.version == 30
        assert [view(rebuilt.state, seat) for seat in (0, 1, None)] == views
        assert [r.version for r in rebuilt.records] == [r.version for r in records]
        head, *updates = presenter.resume(rebuilt, 25, 0)
        assert head["version"] == 25
        assert [json.loads(f)["version"] for f in updates] == [26, 27, 28, 29, 30]
        assert updates == [r.frame_for(0) for r in records[25:]]
    finally:
        await again.close()


async def test_an_action_by_someone_not_seated_is_refused(services: Services) -> None:
    authority, _ = await started_table(services)
    stranger, _ = await services.tables.create_player("Cili")
    for player_id in (None, stranger.id):
        with pytest.raises(ActionRejected) as info:
            await authority.act(player_id, 0, {"type": "resign"})
        assert info.value.code == "not_seated"
    assert authority.version == 0


async def test_a_watcher_who_takes_a_seat_is_given_it_by_the_table(services: Services) -> None:
    anna, _ = await services.tables.create_player("Anna")
    bela, _ = await services.tables.create_player("Bela")
    table = await services.tables.create_table(anna, "sixty-six", {}, "public")
    authority = await services.tables.authority(table["id"])
    watcher = Recorder(None)
    assert await authority.attach(watcher, bela.id, None) is None
    await services.tables.join(bela, table["id"], None, None)
    assert watcher.seat == 1  # set by the table, not read from a frame
    welcome = [frame for frame in watcher.frames if frame["type"] == "welcome"][-1]
    assert welcome["seat"] == 1 and welcome["view"] == view(authority.state, 1)


def first_legal(authority: TableAuthority, seat: int) -> Any:
    """The first legal action of ``seat`` in its welcome's view."""
    return presenter.welcome(authority, seat)["view"]["legal"][0]
