"""Aborting a match at the table's actor: at three- and four-seat tables with computer players
(who never abort: their moves leave the match abortable until the people have acted too), a
person aborts at the start, and is refused once every seat has acted; a turn clock that runs
out before every seat has acted aborts the match instead of handing the seat to a computer
player or forfeiting it. Time is a manual clock: nothing here sleeps for a deadline."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from app.common.errors import ServiceError
from app.players.bot_players import bot_level
from app.services import Services
from app.store import Player
from app.store import matches as match_store
from app.tables import presenter
from app.tables.authority import TableAuthority
from tests.tables.helpers import ManualTime, Recorder, instant_bot_services  # noqa: F401
from tests.tables.test_turn_clocks import running, timed_table

GAMES = [
    ("three-hand", {"target": 7}, 3),
    ("four-hand", {"target": 7}, 4),
]


async def mixed_table(
    services: Services, variant: str, options: dict[str, Any], seats: int
) -> tuple[TableAuthority, list[Player]]:
    """Anna in seat 0 and Bela in seat 1, computer players in the others; the match started."""
    anna, _ = await services.tables.create_player("Anna")
    bela, _ = await services.tables.create_player("Bela")
    bots = {seat: "easy" for seat in range(2, seats)}
    table = await services.tables.create_table(anna, variant, options, "public", bots, clock="none")
    await services.tables.join(bela, table["id"], None, None)
    authority = await services.tables.authority(table["id"])
    assert authority.status == "live"
    return authority, [anna, bela]


async def a_persons_turn(services: Services, authority: TableAuthority) -> int:
    """Wait while the computer players move; the seat of the person on move."""
    bots = services.tables.bots
    assert bots is not None
    for _ in range(3000):
        state = authority.state
        assert state is not None and not state.match_over
        seat = state.to_move
        if (
            seat is not None
            and bot_level(authority.seats[seat].player_id) is None
            and not authority.busy
            and not bots.pending(authority)
        ):
            return seat
        await asyncio.sleep(0.01)
    raise AssertionError("no person came on move")


def legal_for(authority: TableAuthority, seat: int) -> dict[str, Any]:
    if authority.records:
        legal = json.loads(authority.records[-1].frame_for(seat))["legal"]
    else:
        legal = presenter.welcome(authority, seat)["view"]["legal"]
    choices = [a for a in legal if a["type"] != "resign"]
    # A card, or a pass, rather than a bid that could end the match at once (a Luna).
    return next((a for a in choices if a["type"] in ("play", "pass")), choices[0])


async def stored_match(services: Services, match_id: int) -> Any:
    async with services.tables.sessions() as session:
        match = await match_store.get_match(session, match_id)
        actions = await match_store.actions_of_match(session, match_id)
    return match, actions


async def refused(code: str, work: Any) -> None:
    with pytest.raises(ServiceError) as info:
        await work
    assert info.value.code == code


async def a_computer_acts_first(
    services: Services, authority: TableAuthority, players: list[Player]
) -> bool:
    """The people play until a computer player has acted: True if the match may still be
    aborted then (False when both people had to act first and the computers' moves ended
    the window: the dealer decides who leads)."""
    computers = {s for s, h in authority.seats.items() if bot_level(h.player_id) is not None}
    while True:
        seat = await a_persons_turn(services, authority)  # the computers move meanwhile
        if authority.acted & computers or not authority.abortable:
            return authority.abortable
        await authority.act(players[seat].id, authority.version, legal_for(authority, seat))


@pytest.mark.parametrize(("variant", "options", "seats"), GAMES)
async def test_a_person_aborts_at_the_start_while_computer_players_never_do(
    services: Services, variant: str, options: dict[str, Any], seats: int
) -> None:
    for _ in range(20):  # a table where a computer player acts while the match may be aborted
        authority, (anna, bela) = await mixed_table(services, variant, options, seats)
        watcher = Recorder(None)
        await authority.attach(watcher, None, None)
        if await a_computer_acts_first(services, authority, [anna, bela]):
            break
    else:
        raise AssertionError("the people always had to act before any computer player")
    # The computer players' moves left the match live and abortable: they never abort.
    assert authority.status == "live" and authority.abortable
    match_id, version = authority.match_id, authority.version
    assert match_id is not None
    stranger, _ = await services.tables.create_player("Cleo")
    await refused("not_seated", services.tables.abort(stranger, authority.table_id))
    await services.tables.abort(bela, authority.table_id)
    match, actions = await stored_match(services, match_id)
    assert (match.status, match.winner) == ("aborted", None)
    assert len(actions) == version  # the log stays as it was: nothing was added
    assert authority.status == "open" and authority.state is None and authority.match_id is None
    assert authority.version == version  # no action was stored
    assert [h.player_id for _, h in sorted(authority.seats.items())][:2] == [anna.id, bela.id]
    assert len(authority.seats) == seats  # the computer players keep their seats
    aborted = next(f for f in watcher.frames if f["type"] == "aborted")
    assert (aborted["match_id"], aborted["seat"], aborted["reason"]) == (match_id, 1, "player")
    assert watcher.frames[-1]["type"] == "welcome" and watcher.frames[-1]["view"] is None
    # Loaded again from the store, the table waits with no match.
    services.tables._authorities.pop(authority.table_id)
    reloaded = await services.tables.authority(authority.table_id)
    assert (reloaded.status, reloaded.state, reloaded.version) == ("open", None, version)
    await refused("no_match", services.tables.abort(anna, authority.table_id))


@pytest.mark.parametrize(("variant", "options", "seats"), GAMES)
async def test_once_every_seat_has_acted_in_the_first_deal_abort_is_refused(
    services: Services, variant: str, options: dict[str, Any], seats: int
) -> None:
    authority, players = await mixed_table(services, variant, options, seats)
    while authority.abortable:
        seat = await a_persons_turn(services, authority)
        await authority.act(players[seat].id, authority.version, legal_for(authority, seat))
    # Every seat has acted, or the first deal ended first (a Luna's bidder plays without
    # its partner, who never acts in that deal).
    state = authority.state
    assert state is not None and authority.status == "live"
    assert authority.acted == frozenset(range(seats)) or state.deal_results
    version, match_id = authority.version, authority.match_id
    assert match_id is not None
    await refused("abort_too_late", services.tables.abort(players[0], authority.table_id))
    # Nothing was aborted (the computer players may play on meanwhile).
    match, _ = await stored_match(services, match_id)
    assert match.status in ("live", "finished") and authority.match_id == match_id
    assert authority.version >= version and authority.status in ("live", "finished")


async def test_the_last_person_leaving_by_abort_finishes_a_table_of_computer_players(
    services: Services,
) -> None:
    anna, _ = await services.tables.create_player("Anna")
    bots = {1: "easy", 2: "easy"}
    table = await services.tables.create_table(
        anna, "three-hand", {"target": 2}, "public", bots, clock="none"
    )
    authority = await services.tables.authority(table["id"])
    await a_persons_turn(services, authority)
    answer = await services.tables.abort(anna, table["id"], leave=True)
    assert answer["status"] == "finished" and authority.seat_of(anna.id) is None


@pytest.mark.parametrize("on_timeout", ["takeover", "forfeit"])
async def test_a_clock_that_runs_out_before_every_seat_has_acted_aborts_the_match(
    database_url: str, on_timeout: str
) -> None:
    time = ManualTime()
    async with running(database_url, time) as services:
        authority, players = await timed_table(services, on_timeout)
        watcher = Recorder(None)
        await authority.attach(watcher, None, None)
        match_id = authority.match_id
        first = authority.state.to_move if authority.state else None
        assert first is not None and match_id is not None
        # The first player plays a card; the other's clock then runs out before it acts.
        await time.advance(10, authority)
        await authority.act(players[first].id, authority.version, legal_for(authority, first))
        while authority.state is not None and authority.state.to_move == first:
            await authority.act(players[first].id, authority.version, legal_for(authority, first))
        late = 1 - first
        assert authority.abortable and authority.turn_clock is not None
        assert authority.turn_clock.seat == late
        await time.advance(89.9, authority)
        assert authority.status == "live"  # not yet
        await time.advance(0.2, authority)
        match, actions = await stored_match(services, match_id)
        assert (match.status, match.winner, match.abandoned) == ("aborted", None, None)
        assert {row.seat for row in actions} == {first}  # no resignation was stored
        # Nobody took the seat over: it was given up, and the table waits for a player.
        assert authority.status == "open" and authority.seat_of(players[late].id) is None
        assert all(bot_level(h.player_id) is None for h in authority.seats.values())
        assert authority.turn_clock is None and not authority.abandoned
        assert authority.deadline() is None  # no turn clock runs at a waiting table
        aborted = next(f for f in watcher.frames if f["type"] == "aborted")
        assert (aborted["seat"], aborted["reason"], aborted["left"]) == (late, "clock", True)
        # The player whose time ran out may sit down again: a new match starts.
        await services.tables.join(players[late], authority.table_id, None, None)
        assert authority.status == "live" and authority.match_id != match_id
