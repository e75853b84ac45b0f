"""Accounts over REST: a guest becomes an account and keeps everything, signs in on another
device, signs out, renames itself and deletes itself; handles are unique however spelt."""

from __future__ import annotations

import logging
from typing import Any

import httpx
import pytest

from tests.api.test_api_rest import assert_error
from tests.support import Api, live_server, settings_for

PASSWORD = "correct horse battery"


async def account(api: Api, handle: str = "anna", name: str = "Anna") -> dict[str, Any]:
    """A guest upgraded to an account; its guest record (with the token) and the account."""
    guest = await api.player(name)
    body = {"handle": handle, "password": PASSWORD}
    upgraded = await api.call("POST", "/api/accounts", guest["token"], json=body, status=201)
    return {**guest, **upgraded}


async def test_a_guest_becomes_an_account_and_keeps_its_id_and_matches(api: Api) -> None:
    table, (anna, _) = await api.live_table()
    body = {"handle": "Anna_K", "password": PASSWORD}
    upgraded = await api.call("POST", "/api/accounts", anna["token"], json=body, status=201)
    assert upgraded == {"id": anna["id"], "name": "Anna", "handle": "Anna_K"}
    me = await api.call("GET", "/api/players/me", anna["token"])
    assert me == upgraded
    mine = await api.call("GET", "/api/matches", params={"player": anna["id"]})
    assert [m["id"] for m in mine["matches"]] == [table["match_id"]]
    assert (await api.call("GET", f"/api/tables/{table['id']}", anna["token"]))["invite_code"]
    again = await api.call("POST", "/api/accounts", anna["token"], json=body, status=409)
    assert_error(again, "already_account")


async def test_an_account_signs_in_on_another_device_and_signs_out_there(api: Api) -> None:
    anna = await account(api)
    device = await api.call(
        "POST", "/api/accounts/sign-in", json={"handle": "ANNA", "password": PASSWORD}, status=201
    )
    assert device["id"] == anna["id"] and device["token"] != anna["token"]
    for token in (anna["token"], device["token"]):
        assert (await api.call("GET", "/api/players/me", token))["id"] == anna["id"]
    response = await api.client.post(
        "/api/accounts/sign-out", headers={"Authorization": f"Bearer {device['token']}"}
    )
    assert response.status_code == 204
    assert_error(await api.call("GET", "/api/players/me", device["token"], status=401), "bad_token")
    assert (await api.call("GET", "/api/players/me", anna["token"]))["id"] == anna["id"]


async def test_a_wrong_password_or_handle_is_refused_alike(api: Api) -> None:
    await account(api)
    for handle, password in (("anna", "wrong password"), ("nobody", PASSWORD)):
        body = await api.call(
            "POST",
            "/api/accounts/sign-in",
            json={"handle": handle, "password": password},
            status=401,
        )
        assert_error(body, "bad_credentials")


@pytest.mark.parametrize("taken", ["anna", "ANNA", "Änna", "An.na", "anna_", "a-n-n-a"])
async def test_a_handle_that_looks_like_anothers_is_taken(api: Api, taken: str) -> None:
    await account(api, "Anna")
    guest = await api.player("Someone")
    body = {"handle": taken, "password": PASSWORD}
    refused = await api.call("POST", "/api/accounts", guest["token"], json=body, status=409)
    assert_error(refused, "handle_taken")


async def test_bad_handles_and_passwords_are_refused_with_codes(api: Api) -> None:
    guest = await api.player("Someone")
    cases = [
        ({"handle": "ab", "password": PASSWORD}, "bad_handle"),
        ({"handle": "Computer", "password": PASSWORD}, "name_reserved"),
        ({"handle": "\u3164\u3164\u3164", "password": PASSWORD}, "name_blank"),
        ({"handle": "Кирилл", "password": PASSWORD}, "bad_handle"),
        ({"handle": "someone", "password": "short"}, "bad_password"),
    ]
    for body, code in cases:
        refused = await api.call("POST", "/api/accounts", guest["token"], json=body, status=422)
        assert_error(refused, code)
    assert (await api.call("GET", "/api/players/me", guest["token"]))["handle"] is None


async def test_renaming_keeps_the_player_and_its_history(api: Api) -> None:
    table, (anna, _) = await api.live_table()
    renamed = await api.call("PATCH", "/api/players/me", anna["token"], json={"name": "Anni"})
    assert renamed == {"id": anna["id"], "name": "Anni", "handle": None}
    match = await api.call("GET", f"/api/matches/{table['match_id']}")
    assert match["players"][0] == {"seat": 0, "player_id": anna["id"], "name": "Anni"}
    shown = await api.call("GET", f"/api/tables/{table['id']}")
    assert shown["seats"][0]["name"] == "Anni"  # the table in memory too
    refused = await api.call(
        "PATCH", "/api/players/me", anna["token"], json={"handle": "anni"}, status=409
    )
    assert_error(refused, "not_account")


async def test_an_account_changes_its_handle_to_a_free_one_only(api: Api) -> None:
    await account(api, "bela", "Bela")
    anna = await account(api)
    refused = await api.call(
        "PATCH", "/api/players/me", anna["token"], json={"handle": "BELA"}, status=409
    )
    assert_error(refused, "handle_taken")
    changed = await api.call("PATCH", "/api/players/me", anna["token"], json={"handle": "Anna2"})
    assert changed["handle"] == "Anna2"
    signed_in = await api.call(
        "POST", "/api/accounts/sign-in", json={"handle": "anna2", "password": PASSWORD}, status=201
    )
    assert signed_in["id"] == anna["id"]


async def test_a_deleted_account_leaves_its_matches_public_as_deleted_player(api: Api) -> None:
    table, (anna, _) = await api.live_table()
    body = {"handle": "anna", "password": PASSWORD}
    await api.call("POST", "/api/accounts", anna["token"], json=body, status=201)
    waiting = await api.table(anna["token"])  # nobody else there yet
    wrong = await api.call(
        "DELETE", "/api/players/me", anna["token"], json={"password": "not it!!"}, status=403
    )
    assert_error(wrong, "bad_credentials")
    await api.client.request(
        "DELETE",
        "/api/players/me",
        headers={"Authorization": f"Bearer {anna['token']}"},
        json={"password": PASSWORD},
    )
    assert_error(await api.call("GET", "/api/players/me", anna["token"], status=401), "bad_token")
    match = await api.call("GET", f"/api/matches/{table['match_id']}")
    assert match["players"][0] == {"seat": 0, "player_id": anna["id"], "name": "deleted player"}
    assert (await api.call("GET", f"/api/tables/{waiting['id']}"))["status"] == "finished"
    # The handle is free again.
    assert (await account(api, "anna"))["handle"] == "anna"


async def test_the_password_is_never_logged_or_returned(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    secret = "Tr0ub4dor&3-never-shown"
    seen: list[str] = []
    settings = settings_for(database_url, log_level="debug")
    async with (
        live_server(settings) as base,
        httpx.AsyncClient(base_url=f"http://{base}", verify=False) as client,
    ):
        api = Api(client)
        guest = await api.player("Anna")
        auth = {"Authorization": f"Bearer {guest['token']}"}
        calls = [
            ("POST", "/api/accounts", {"handle": "anna", "password": secret}),
            ("POST", "/api/accounts", {"handle": "anna", "password": secret}),  # 409
            ("POST", "/api/accounts/sign-in", {"handle": "anna", "password": secret}),
            ("POST", "/api/accounts/sign-in", {"handle": "anna", "password": secret + "x"}),
            ("POST", "/api/accounts/sign-in", {"handle": "anna", "password": [secret]}),
            ("POST", "/api/accounts/sign-in", {"handle": "anna", "password": secret * 100}),
            ("DELETE", "/api/players/me", {"password": secret + "y"}),
        ]
        for method, path, body in calls:
            response = await client.request(method, path, headers=auth, json=body)
            seen.append(f"{response.status_code} {response.headers} {response.text}")
        me = await api.call("GET", "/api/players/me", guest["token"])
    statuses = [int(line.split()[0]) for line in seen]
    assert statuses == [201, 409, 201, 401, 422, 422, 403]
    assert me["handle"] == "anna"
    assert caplog.records, "the test must capture the server's log"
    for text in [*seen, caplog.text]:
        assert secret not in text
        assert "argon2" not in text  # nor its hash
