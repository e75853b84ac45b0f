"""A table opened for an event (``tournament`` set): the event decides its match, so no
computer player takes a gone player's seat, the match is never abortable (by a player, or by
a clock that runs out before every seat has acted: that is a forfeit like any other), and the
table plays that one match, with no rematch. Each refusal has its stable code. Time is a
manual clock: nothing here sleeps for a deadline."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.common.errors import ServiceError
from app.services import Services
from app.store import Player
from app.store import tables as table_store
from app.store.db import AsyncSession
from app.tables import presenter
from app.tables.authority import TableAuthority
from app.tables.service import SeatedTable
from tests.tables.helpers import ManualTime, Recorder
from tests.tables.test_aborts import stored_match
from tests.tables.test_turn_clocks import legal_move, running

EVENT = "e" * 32
GRACE = 60.0


async def claimed(session: AsyncSession, table_id: str) -> bool:
    return True


async def event_table(
    services: Services, clock: str = "none", tournament: str | None = EVENT
) -> tuple[TableAuthority, list[Player]]:
    """Anna and Bela seated at a table opened for an event, as its owner opens one; the
    match started."""
    anna, _ = await services.tables.create_player("Anna")
    bela, _ = await services.tables.create_player("Bela")
    table_id = await services.tables.open_seated_table(
        [anna.id, bela.id],
        "sixty-six",
        claimed,
        rated=False,
        clock=clock,
        on_timeout="forfeit",
        tournament=tournament,
    )
    assert table_id is not None
    authority = await services.tables.authority(table_id)
    assert authority.status == "live"
    return authority, [anna, bela]


async def refused(work: Any) -> str:
    with pytest.raises(ServiceError) as refusal:
        await work
    assert refusal.value.message
    return refusal.value.code


async def test_an_event_table_refuses_an_abort_and_its_frames_never_offer_one(
    services: Services,
) -> None:
    authority, (anna, bela) = await event_table(services)
    table_id = authority.table_id
    watcher = Recorder(0)
    await authority.attach(watcher, anna.id, None)
    welcome = watcher.frames[0]
    assert welcome["type"] == "welcome" and welcome["table"]["tournament"] == EVENT
    assert welcome["abortable"] is False and not authority.abortable  # nobody has acted yet
    assert await refused(services.tables.abort(anna, table_id)) == "event_no_abort"
    mover = authority.state.to_move if authority.state else None
    assert mover is not None
    player = (anna, bela)[mover]
    await authority.act(player.id, authority.version, await legal_move(authority, mover))
    update = next(f for f in watcher.frames if f["type"] == "update")
    assert update["abortable"] is False
    assert await refused(services.tables.abort(bela, table_id)) == "event_no_abort"
    assert authority.status == "live" and authority.match_id is not None
    # Loaded again from the store, the table still knows its event.
    services.tables._authorities.pop(table_id)
    reloaded = await services.tables.authority(table_id)
    assert reloaded.tournament == EVENT and not reloaded.abortable
    assert presenter.welcome(reloaded, 0)["abortable"] is False
    assert json.loads(reloaded.records[-1].frame_for(0))["abortable"] is False
    assert (await services.tables.get_table(table_id, None))["tournament"] == EVENT


async def test_a_gone_players_seat_at_an_event_table_is_not_handed_to_a_computer(
    services: Services,
) -> None:
    time = ManualTime()
    services.tables.clock = time
    services.tables.timekeeper = time
    authority, (anna, bela) = await event_table(services)
    table_id = authority.table_id
    anna_socket, bela_socket = Recorder(0), Recorder(1)
    await authority.attach(anna_socket, anna.id, None)
    await authority.attach(bela_socket, bela.id, None)
    authority.detach(bela_socket)
    await time.advance(GRACE)
    assert authority.presence.state_of(1) == "gone"
    code = await refused(services.tables.claim_victory(anna, table_id, 1, "bot"))
    assert code == "event_no_computer"
    assert authority.seats[1].player_id == bela.id and not authority.abandoned
    # The victory may be claimed: the gone player's side loses the match by forfeit.
    answer = await services.tables.claim_victory(anna, table_id, 1)
    assert answer["status"] == "finished"
    assert authority.state is not None and authority.state.match_winner == 0
    # The table plays one match: no rematch, whoever asks.
    assert await refused(services.tables.rematch(anna, table_id)) == "event_no_rematch"
    assert authority.status == "finished"


@pytest.mark.parametrize("tournament", [EVENT, None])
async def test_a_clock_that_runs_out_before_the_first_move_forfeits_an_event_match(
    database_url: str, tournament: str | None
) -> None:
    time = ManualTime()
    async with running(database_url, time) as services:
        authority, players = await event_table(services, "move", tournament)
        watcher = Recorder(None)
        await authority.attach(watcher, None, None)
        match_id = authority.match_id
        late = authority.state.to_move if authority.state else None
        assert late is not None and match_id is not None
        await time.advance(3600, authority)  # nobody acts: the first mover's clock runs out
        match, actions = await stored_match(services, match_id)
        if tournament is None:  # elsewhere the rule is lichess's: the match is aborted
            assert (match.status, match.winner) == ("aborted", None)
            assert authority.status == "open" and authority.seat_of(players[late].id) is None
            return
        # At an event's table the late player resigns: the match is over and counts.
        assert (match.status, match.winner) == ("finished", 1 - late)
        assert [(a["seat"], a["consequence"]) for a in match.abandoned] == [(late, "forfeit")]
        assert [(row.seat, row.action) for row in actions] == [(late, {"type": "resign"})]
        assert not any(f["type"] == "aborted" for f in watcher.frames)
        # The table is finished, with both players still in their seats, and plays no more.
        assert authority.status == "finished" and authority.seat_of(players[late].id) == late
        assert authority.deadline() is None
        code = await refused(services.tables.rematch(players[1 - late], authority.table_id))
        assert code == "event_no_rematch"
        async with services.tables.sessions() as session:
            row = await table_store.get_table(session, authority.table_id)
        assert row is not None and row.status == "finished" and row.tournament_id == EVENT


async def test_a_waves_tables_are_opened_in_one_transaction_or_not_at_all(
    services: Services,
) -> None:
    people = [(await services.tables.create_player(name))[0] for name in "ABCDEF"]

    async def refused_claim(session: AsyncSession, table_id: str) -> bool:
        return False

    def wave(last_claim: Any) -> list[SeatedTable]:
        return [
            SeatedTable([people[0].id, people[1].id], {}, claimed),
            SeatedTable([people[2].id], {1: "easy"}, claimed),
            SeatedTable([people[4].id, people[5].id], {}, last_claim),
        ]

    async def tables_stored() -> int:
        async with services.tables.sessions() as session:
            return len(await table_store.list_tables(session, "open"))

    before = await tables_stored()
    opened = await services.tables.open_seated_tables(
        wave(refused_claim), "sixty-six", rated=False, clock="none", tournament=EVENT
    )
    assert opened is None and await tables_stored() == before  # the first two were not kept
    opened = await services.tables.open_seated_tables(
        wave(claimed), "sixty-six", rated=False, clock="none", tournament=EVENT
    )
    assert opened is not None and len(set(opened)) == 3
    assert await tables_stored() == before + 3
    stored = [await services.tables.get_table(t, None) for t in opened]
    seats = [table["seats"] for table in stored]
    assert [[s["player_id"] for s in table] for table in seats][:1] == [
        [people[0].id, people[1].id]
    ]
    assert seats[1][0]["player_id"] == people[2].id and seats[1][1]["name"].startswith("Computer")
    assert all(table["tournament"] == EVENT for table in stored)
