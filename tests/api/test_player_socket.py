"""The player socket over the real server (docs/protocol.md, "The player socket"): a page
that keeps it hears at once that a pool seated its player (and where), of the computer
offer, that it left its pool, and of challenges made to it and answered; another player's
socket hears none of it; a bad token is refused with 4001."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.api.test_accounts import account
from tests.api.test_challenges_api import answer, challenge
from tests.api.test_pools_api import FAST
from tests.support import Api, live_server, settings_for

PATIENCE = 60.0
"""How long a frame may take to come (a generous bound for a busy machine)."""


class PlayerSocket:
    """One page's player socket."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.pings = 0

    @classmethod
    async def open(cls, base: str, token: str) -> PlayerSocket:
        """Connect and greet; the welcome is read."""
        socket = cls(await connect(f"ws://{base}/ws/players"))
        await socket.socket.send(json.dumps({"type": "hello", "token": token}))
        welcome = await socket.recv()
        assert welcome["type"] == "welcome", welcome
        return socket

    async def recv(self) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(await _within(self.socket.recv()))
        return frame

    async def until(self, kind: str) -> dict[str, Any]:
        """Frames until one of type ``kind`` (the others passed over)."""
        while (frame := await self.recv())["type"] != kind:
            pass
        return frame

    async def heard_nothing(self) -> None:
        """Nothing was queued for this socket before a ping's pong (frames go out in the
        order they were queued)."""
        self.pings += 1
        await self.socket.send(json.dumps({"type": "ping", "id": self.pings}))
        assert await self.recv() == {"type": "pong", "id": self.pings}


async def _within(waiting: Any) -> Any:
    return await asyncio.wait_for(waiting, PATIENCE)


@asynccontextmanager
async def site(database_url: str, **settings: Any) -> AsyncIterator[tuple[Api, str]]:
    """A REST client and the address of a server with fast pool waves."""
    async with (
        live_server(settings_for(database_url, **{**FAST, **settings})) as base,
        httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False) as http,
    ):
        yield Api(http), base


@asynccontextmanager
async def sockets(base: str, *players: dict[str, Any]) -> AsyncIterator[list[PlayerSocket]]:
    opened = [await PlayerSocket.open(base, player["token"]) for player in players]
    try:
        yield opened
    finally:
        for socket in opened:
            await socket.socket.close()


async def test_both_players_paired_in_a_pool_hear_their_table_and_nobody_else_does(
    database_url: str,
) -> None:
    async with site(database_url, pool_bot_after_seconds=3600) as (api, base):
        anna, bela, cili = [await api.player(name) for name in ("Anna", "Bela", "Cili")]
        async with sockets(base, anna, bela, cili) as (to_anna, to_bela, to_cili):
            for player in (anna, bela):  # only the sockets keep them online from here on
                await api.call("POST", "/api/pools/schnapsen-2/join", player["token"])
            seated = [await to_anna.until("pool_seated"), await to_bela.until("pool_seated")]
            assert seated[0] == seated[1]
            assert seated[0]["pool"] == "schnapsen-2"
            table = await api.call("GET", f"/api/tables/{seated[0]['table_id']}")
            holders = {seat["player_id"] for seat in table["seats"]}
            assert holders == {anna["id"], bela["id"]}
            await to_cili.heard_nothing()


async def test_a_waiting_player_hears_the_computer_offer_and_where_accepting_seats_it(
    database_url: str,
) -> None:
    async with site(database_url, pool_bot_after_seconds=0.5) as (api, base):
        anna, bela = await api.player("Anna"), await api.player("Bela")
        async with sockets(base, anna, bela) as (to_anna, to_bela):
            await api.call("POST", "/api/pools/four-hand-4/join", anna["token"])
            waiting = await to_anna.until("pool_waiting")
            assert waiting["pool"] == "four-hand-4" and waiting["status"] == "waiting"
            offer = await to_anna.until("pool_offer")
            assert offer == {"type": "pool_offer", "pool": "four-hand-4", "level": "medium"}
            entry = await api.call("POST", "/api/pools/entry/bots", anna["token"])
            seated = await to_anna.until("pool_seated")
            assert seated["table_id"] == entry["table"]["id"]
            await to_bela.heard_nothing()


async def test_leaving_a_pool_is_told_to_the_players_other_pages(database_url: str) -> None:
    async with site(database_url, pool_bot_after_seconds=3600) as (api, base):
        anna = await api.player("Anna")
        async with sockets(base, anna) as (to_anna,):
            await api.call("POST", "/api/pools/sixty-six-2/join", anna["token"])
            await to_anna.until("pool_waiting")
            await api.client.delete(
                "/api/pools/entry", headers={"Authorization": f"Bearer {anna['token']}"}
            )
            left = await to_anna.until("pool_left")
            assert left == {"type": "pool_left", "pool": "sixty-six-2", "reason": "left"}


async def test_a_challenge_is_heard_by_the_challenged_and_its_answers_by_the_challenger(
    database_url: str,
) -> None:
    async with site(database_url) as (api, base):
        anna, bela, cili = [await api.player(name) for name in ("Anna", "Bela", "Cili")]
        async with sockets(base, anna, bela, cili) as (to_anna, to_bela, to_cili):
            made = await challenge(api, bela, variant="sixty-six", player_id=anna["id"])
            received = await to_anna.until("challenge_received")
            assert received["challenge"]["id"] == made["id"]
            assert received["challenge"]["challenger"]["name"] == "Bela"
            accepted = await answer(api, anna, made, "accept")
            heard = await to_bela.until("challenge_accepted")
            assert heard["challenge"]["table_id"] == accepted["table_id"] is not None

            declined = await challenge(api, bela, variant="sixty-six", player_id=anna["id"])
            await answer(api, anna, declined, "decline")
            heard = await to_bela.until("challenge_declined")
            assert heard["challenge"]["id"] == declined["id"]

            cancelled = await challenge(api, anna, variant="sixty-six", player_id=bela["id"])
            assert (await to_bela.until("challenge_received"))["challenge"]["id"] == cancelled["id"]
            await answer(api, anna, cancelled, "cancel")
            heard = await to_bela.until("challenge_cancelled")
            assert heard["challenge"]["status"] == "cancelled"
            await to_cili.heard_nothing()


async def test_a_challenge_left_unanswered_is_told_expired_to_both(database_url: str) -> None:
    async with site(database_url, challenge_seconds=0.5) as (api, base):
        anna, bela = await api.player("Anna"), await api.player("Bela")
        async with sockets(base, anna, bela) as (to_anna, to_bela):
            made = await challenge(api, bela, variant="sixty-six", player_id=anna["id"])
            for socket in (to_anna, to_bela):
                expired = await socket.until("challenge_expired")
                assert expired["challenge"]["id"] == made["id"]
                assert expired["challenge"]["status"] == "expired"


@pytest.mark.parametrize("token", ["not-a-token", None])
async def test_a_socket_without_a_good_token_is_closed_with_4001(
    database_url: str, token: str | None
) -> None:
    async with site(database_url) as (_, base):
        socket = await connect(f"ws://{base}/ws/players")
        await socket.send(json.dumps({"type": "hello", "token": token}))
        frame = json.loads(await _within(socket.recv()))
        assert frame["type"] == "error"
        assert frame["code"] in ("bad_token", "missing_token")
        with pytest.raises(ConnectionClosed) as closed:
            await _within(socket.recv())
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4001


async def test_a_message_other_than_ping_is_answered_with_an_error_and_the_socket_stays(
    database_url: str,
) -> None:
    async with site(database_url) as (api, base):
        anna = await api.player("Anna")
        async with sockets(base, anna) as (to_anna,):
            await to_anna.socket.send("{not json")
            assert (await to_anna.recv())["code"] == "bad_json"
            await to_anna.socket.send(json.dumps({"type": "action", "action": {}}))
            assert (await to_anna.recv())["code"] == "unknown_type"
            await to_anna.heard_nothing()  # still open, and answering


async def test_signing_out_closes_the_player_socket_of_that_token_with_4001(
    database_url: str,
) -> None:
    async with site(database_url) as (api, base):
        anna = await account(api)
        socket = await PlayerSocket.open(base, anna["token"])
        headers = {"Authorization": f"Bearer {anna['token']}"}
        signed_out = await api.client.post("/api/accounts/sign-out", headers=headers)
        assert signed_out.status_code == 204, signed_out.text
        assert (await socket.recv())["code"] == "bad_token"
        with pytest.raises(ConnectionClosed) as closed:
            await socket.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4001
