"""Presence at a table (connected, away, gone) with the table's clock driven by the test, and
claiming a match against a gone player."""

from __future__ import annotations

from typing import Any

import pytest

from app.common.errors import ServiceError
from app.players.online import WINDOW, Online
from app.services import Services
from app.settings import Settings
from app.store import Player
from app.store import matches as match_store
from app.tables.authority import TableAuthority
from tests.tables.helpers import ManualTime, Recorder, started_table

GRACE = 60.0


@pytest.fixture
def clock(services: Services) -> ManualTime:
    made = ManualTime()
    services.tables.clock = made
    services.tables.timekeeper = made
    return made


def presence(recorder: Recorder) -> dict[int, dict[str, Any]]:
    """The seats of the last presence frame ``recorder`` got."""
    assert recorder.presence, "no presence frame"
    return {entry["seat"]: entry for entry in recorder.presence[-1]["seats"]}


def states(recorder: Recorder) -> dict[int, str]:
    return {seat: entry["state"] for seat, entry in presence(recorder).items()}


async def seated_pair(services: Services) -> tuple[TableAuthority, list[Player], list[Recorder]]:
    """A live table with each player's connection attached."""
    table, players = await started_table(services)
    recorders = [Recorder(seat) for seat in (0, 1)]
    for recorder, player in zip(recorders, players, strict=True):
        await table.attach(recorder, player.id, None)
    return table, players, recorders


async def test_a_player_who_leaves_is_away_then_gone_when_the_grace_runs_out(
    services: Services, clock: ManualTime
) -> None:
    table, _, (anna, bela) = await seated_pair(services)
    assert states(anna) == {0: "connected", 1: "connected"}
    assert bela.kinds[:2] == ["welcome", "presence"], "the presence comes right after the welcome"
    table.detach(bela)
    away = presence(anna)[1]
    assert away == {"seat": 1, "state": "away", "remaining": GRACE}
    await clock.advance(GRACE - 1)
    assert presence(anna)[1]["state"] == "away"
    await clock.advance(1)  # nobody asks: the table's timer flips the seat
    assert states(anna) == {0: "connected", 1: "gone"}
    assert table.presence.state_of(1) == "gone"


async def test_coming_back_within_the_grace_calls_off_the_flip(
    services: Services, clock: ManualTime
) -> None:
    table, players, (anna, bela) = await seated_pair(services)
    table.detach(bela)
    await clock.advance(30)
    back = Recorder(1)
    await table.attach(back, players[1].id, 7)
    assert states(anna) == {0: "connected", 1: "connected"}
    assert states(back) == {0: "connected", 1: "connected"}
    assert clock.pending() == 0
    await clock.advance(GRACE)
    assert table.presence.state_of(1) == "connected"


async def test_spectators_do_not_make_a_seat_connected_and_a_second_tab_does(
    services: Services, clock: ManualTime
) -> None:
    table, players, (anna, bela) = await seated_pair(services)
    stranger, _ = await services.tables.create_player("Cili")
    for player_id in (None, stranger.id):
        await table.attach(Recorder(None), player_id, None)
    second_tab = Recorder(0)
    await table.attach(second_tab, players[0].id, None)
    table.detach(bela)
    table.detach(anna)  # Anna's other tab is still open
    assert states(second_tab) == {0: "connected", 1: "away"}
    await clock.advance(GRACE)
    assert states(second_tab) == {0: "connected", 1: "gone"}


async def claim(services: Services, player: Player, table_id: str, seat: int) -> str:
    """The code a refused claim answers with."""
    with pytest.raises(ServiceError) as refused:
        await services.tables.claim_victory(player, table_id, seat)
    return refused.value.code


async def test_a_match_is_claimed_only_against_a_gone_player_and_replays_as_a_resignation(
    services: Services, clock: ManualTime, database_url: str
) -> None:
    table, (anna, bela), (_, bela_socket) = await seated_pair(services)
    cili, _ = await services.tables.create_player("Cili")
    assert await claim(services, anna, table.table_id, 1) == "player_not_gone"
    table.detach(bela_socket)
    await clock.advance(GRACE)
    assert await claim(services, cili, table.table_id, 1) == "not_seated"
    assert await claim(services, anna, table.table_id, 0) == "bad_seat"
    assert await claim(services, bela, table.table_id, 1) == "bad_seat"
    answer = await services.tables.claim_victory(anna, table.table_id, 1)
    assert answer["status"] == "finished"
    assert table.state is not None and table.state.match_over
    assert table.state.match_winner == 0
    assert await claim(services, anna, table.table_id, 1) == "no_match"
    async with services.tables.sessions() as session:
        logged = await match_store.actions_of_match(session, table.match_id or 0)
    assert [(row.seat, row.action) for row in logged] == [(1, {"type": "resign"})]
    record = await services.history.get_match(table.match_id or 0)
    assert [(a["seat"], a["consequence"]) for a in record["abandoned"]] == [(1, "claimed")]
    again = Services.build(Settings(database_url=database_url))
    try:
        await again.start()
        rebuilt = await again.tables.authority(table.table_id)
        assert rebuilt.state is not None and rebuilt.state.match_winner == 0
        assert rebuilt.state.deal_results[-1].resigned == 1
    finally:
        await again.close()


async def test_a_gone_players_seat_can_be_handed_to_a_computer_player_and_reclaimed(
    services: Services, clock: ManualTime
) -> None:
    table, (anna, bela), (anna_socket, bela_socket) = await seated_pair(services)
    table.detach(bela_socket)
    await clock.advance(GRACE)
    answer = await services.tables.claim_victory(anna, table.table_id, 1, "bot")
    assert answer["status"] == "live"  # the match goes on
    assert answer["seats"][1]["name"] == "Computer (medium)"
    assert answer["abandoned"] == [{"seat": 1, "player_id": bela.id, "name": "Bela"}]
    assert 1 not in states(anna_socket)  # a computer player's seat has no presence
    record = await services.history.get_match(table.match_id or 0)
    assert [(a["seat"], a["consequence"]) for a in record["abandoned"]] == [(1, "handed_over")]
    back = await services.tables.reclaim(bela, table.table_id)
    assert back["seats"][1]["player_id"] == bela.id and back["abandoned"] == []
    assert states(anna_socket)[1] == "away"  # Bela holds the seat again, not yet connected


async def test_players_are_online_with_a_socket_open_or_for_a_minute_after_a_request() -> None:
    now = [1000.0]
    online = Online(clock=lambda: now[0])
    online.seen("anna")
    online.connected("bela")
    online.connected("bela")  # a second tab
    online.seen("anna")
    assert await online.count() == 2
    now[0] += WINDOW - 1
    online.disconnected("bela")  # one tab is still open
    assert await online.count() == 2
    now[0] += 1
    assert await online.count() == 1, "Anna's last request was a minute ago"
    online.disconnected("bela")
    now[0] += WINDOW - 1
    assert await online.count() == 1, "Bela closed the page less than a minute ago"
    now[0] += 1
    assert await online.count() == 0
