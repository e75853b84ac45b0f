"""A revoked token stops playing at once: signing out closes the table sockets that token
opened, deleting a player closes every socket of the player, each with 4001 after a
``bad_token`` error; an action sent after the revocation was answered is never taken. The
player's other devices play on."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from websockets.exceptions import ConnectionClosed

from tests.api.test_accounts import PASSWORD, account
from tests.support import Api, Client


async def accounts_table(api: Api) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """A live table between the accounts Anna (seat 0) and Bela, and Anna's second device
    (a token of its own from signing in)."""
    anna, bela = await account(api), await account(api, "bela", "Bela")
    table = await api.table(anna["token"])
    joined = await api.join(bela["token"], table["id"])
    assert joined["status"] == "live"
    body = {"handle": "anna", "password": PASSWORD}
    phone = await api.call("POST", "/api/accounts/sign-in", json=body, status=201)
    return joined, anna, phone


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def act_then_closed(client: Client, version: int) -> tuple[list[dict[str, Any]], int | None]:
    """Resign (an action always legal for a seated player), then read until the server
    closes, or acknowledges the action; the frames read (since the welcome) and the close
    code (None: still open)."""
    message = {"type": "action", "id": "late", "version": version, "action": {"type": "resign"}}
    frames = []
    with contextlib.suppress(ConnectionClosed):  # closed already: its frames are still read
        await client.socket.send(json.dumps(message))
    try:
        while not [f for f in frames if f["type"] == "ack"]:  # taken: the test fails
            frames.append(await client.recv_any())
        return frames, None
    except ConnectionClosed as closed:
        assert closed.rcvd is not None, "the server did not close the socket"
        return frames, closed.rcvd.code


def assert_refused(frames: list[dict[str, Any]], code: int | None) -> None:
    assert not [f for f in frames if f["type"] in ("ack", "update")], frames
    assert code == 4001
    assert [f["code"] for f in frames if f["type"] == "error"] == ["bad_token"], frames


async def test_signing_out_closes_the_sockets_of_that_token_only(api: Api, server: str) -> None:
    table, anna, phone = await accounts_table(api)
    laptop, welcome = await Client.open(server, table["id"], anna["token"])
    handheld, _ = await Client.open(server, table["id"], phone["token"])
    version = welcome["version"]
    signed_out = await api.client.post("/api/accounts/sign-out", headers=bearer(phone["token"]))
    assert signed_out.status_code == 204
    frames, code = await act_then_closed(handheld, version)
    assert_refused(frames, code)
    assert (await api.call("GET", f"/api/tables/{table['id']}"))["version"] == version
    # The laptop's token was not revoked: it still plays.
    await laptop.send({"type": "ping", "id": 1})
    assert (await laptop.recv_until("pong"))["id"] == 1
    await laptop.close()


async def test_deleting_a_player_closes_every_socket_it_has_open(api: Api, server: str) -> None:
    table, anna, phone = await accounts_table(api)
    laptop, welcome = await Client.open(server, table["id"], anna["token"])
    handheld, _ = await Client.open(server, table["id"], phone["token"])
    version = welcome["version"]
    body = {"password": PASSWORD}
    response = await api.client.request(
        "DELETE", "/api/players/me", json=body, headers=bearer(anna["token"])
    )
    assert response.status_code == 204
    for client in (handheld, laptop):
        frames, code = await act_then_closed(client, version)
        assert_refused(frames, code)
    assert (await api.call("GET", f"/api/tables/{table['id']}"))["version"] == version
