"""Passkeys over REST, answered by a software authenticator that signs for real: an account
registers passkeys, signs in with one by handle or without naming itself, lists and removes
them; used, foreign and mismatched challenges, unknown credentials, forged signatures and
replayed counters are refused with their codes."""

from __future__ import annotations

from typing import Any

from tests.api.test_accounts import PASSWORD, account
from tests.api.test_api_rest import assert_error
from tests.authenticator import SoftAuthenticator
from tests.support import Api

RP_ID, ORIGIN = "testserver", "http://testserver"  # PUBLIC_URL of the servers under test
OPTIONS, SIGN_IN = "/api/accounts/passkeys/sign-in/options", "/api/accounts/passkeys/sign-in"


async def register(api: Api, token: str, device: SoftAuthenticator) -> dict[str, Any]:
    """Ask for registration options and answer them with ``device``."""
    options = await api.call("POST", "/api/accounts/passkeys/options", token)
    answer = device.create(options)
    body = {"credential": answer}
    return dict(await api.call("POST", "/api/accounts/passkeys", token, json=body, status=201))


async def sign_in(
    api: Api, device: SoftAuthenticator, handle: str | None = None, status: int = 201
) -> Any:
    options = await api.call("POST", OPTIONS, json={"handle": handle})
    return await api.call("POST", SIGN_IN, json={"credential": device.get(options)}, status=status)


async def test_an_account_registers_passkeys_and_signs_in_with_them(api: Api) -> None:
    anna = await account(api)
    phone, key = SoftAuthenticator(RP_ID, ORIGIN), SoftAuthenticator(RP_ID, ORIGIN, 0)
    options = await api.call("POST", "/api/accounts/passkeys/options", anna["token"])
    assert options["rp"] == {"id": RP_ID, "name": "Talon"}
    assert options["authenticatorSelection"]["userVerification"] == "required"
    added = await register(api, anna["token"], phone)
    assert added["id"] == phone.id and added["last_used_at"] is None
    await register(api, anna["token"], key)
    again = await api.call("POST", "/api/accounts/passkeys/options", anna["token"])
    assert [c["id"] for c in again["excludeCredentials"]] == [phone.id, key.id]

    # By handle (in any spelling): the challenge lists that account's passkeys.
    named = await api.call("POST", OPTIONS, json={"handle": "ANNA"})
    assert {c["id"] for c in named["allowCredentials"]} == {phone.id, key.id}
    answer = phone.get(named)
    device = await api.call("POST", SIGN_IN, json={"credential": answer}, status=201)
    assert device["id"] == anna["id"] and device["handle"] == "anna"
    assert device["token"] not in (anna["token"], "")
    assert (await api.call("GET", "/api/players/me", device["token"]))["id"] == anna["id"]

    # Without a handle (a discoverable passkey names its account), twice with a counter that
    # moves, and with a key that keeps no counter at all.
    for used in (phone, phone, key, key):
        assert (await sign_in(api, used))["id"] == anna["id"]
    listed = await api.call("GET", "/api/accounts/passkeys", anna["token"])
    assert [p["id"] for p in listed] == [phone.id, key.id]
    assert all(p["last_used_at"] for p in listed)

    # Removed: the passkey no longer signs in, and only its owner can remove it.
    bela = await account(api, "bela", "Bela")
    gone = f"/api/accounts/passkeys/{phone.id}"
    assert_error(await api.call("DELETE", gone, bela["token"], status=404), "passkey_not_found")
    response = await api.client.delete(gone, headers={"Authorization": f"Bearer {anna['token']}"})
    assert response.status_code == 204
    assert_error(await sign_in(api, phone, status=401), "passkey_unknown")
    listed = await api.call("GET", "/api/accounts/passkeys", anna["token"])
    assert [p["id"] for p in listed] == [key.id]


async def test_a_challenge_answers_once_and_only_for_whom_it_was_made(api: Api) -> None:
    anna, bela = await account(api), await account(api, "bela", "Bela")
    phone = SoftAuthenticator(RP_ID, ORIGIN)
    await register(api, anna["token"], phone)

    # A sign-in answer sent twice: the second finds its challenge used.
    options = await api.call("POST", OPTIONS, json={})
    answer = phone.get(options)
    await api.call("POST", SIGN_IN, json={"credential": answer}, status=201)
    replay = await api.call("POST", SIGN_IN, json={"credential": answer}, status=401)
    assert_error(replay, "passkey_bad_challenge")

    # A challenge no server made, and a registration challenge answered to sign in.
    made_up = phone.get({"challenge": "bm90LWEtY2hhbGxlbmdl"})
    refused = await api.call("POST", SIGN_IN, json={"credential": made_up}, status=401)
    assert_error(refused, "passkey_bad_challenge")
    registering = await api.call("POST", "/api/accounts/passkeys/options", anna["token"])
    crossed = phone.get(registering)
    refused = await api.call("POST", SIGN_IN, json={"credential": crossed}, status=401)
    assert_error(refused, "passkey_bad_challenge")

    # Anna's registration challenge, answered by Bela.
    options = await api.call("POST", "/api/accounts/passkeys/options", anna["token"])
    stolen = {"credential": SoftAuthenticator(RP_ID, ORIGIN).create(options)}
    refused = await api.call(
        "POST", "/api/accounts/passkeys", bela["token"], json=stolen, status=401
    )
    assert_error(refused, "passkey_bad_challenge")

    # A challenge bound to Bela's handle, answered by Anna's passkey.
    options = await api.call("POST", OPTIONS, json={"handle": "bela"})
    assert options.get("allowCredentials", []) == []
    answer = phone.get(options)
    assert_error(
        await api.call("POST", SIGN_IN, json={"credential": answer}, status=401), "passkey_unknown"
    )


async def test_forged_replayed_and_unknown_answers_are_refused(api: Api) -> None:
    anna = await account(api)
    phone = SoftAuthenticator(RP_ID, ORIGIN)
    await register(api, anna["token"], phone)
    await sign_in(api, phone)

    # The counter goes back to where it was: a copy of an earlier signature's state.
    phone.sign_count -= 1
    assert_error(await sign_in(api, phone, status=401), "passkey_replayed")
    phone.sign_count += 5
    assert (await sign_in(api, phone))["id"] == anna["id"]

    # Signed by another key under the same credential id; claimed from another site.
    forger = SoftAuthenticator(RP_ID, ORIGIN)
    forger.credential_id, forger.user_id, forger.sign_count = (
        phone.credential_id,
        phone.user_id,
        phone.sign_count + 10,
    )
    assert_error(await sign_in(api, forger, status=401), "passkey_invalid")
    elsewhere = SoftAuthenticator(RP_ID, "http://evil.example")
    elsewhere.key, elsewhere.credential_id, elsewhere.user_id = (
        phone.key,
        phone.credential_id,
        phone.user_id,
    )
    elsewhere.sign_count = phone.sign_count + 20
    assert_error(await sign_in(api, elsewhere, status=401), "passkey_invalid")
    assert_error(
        await sign_in(api, SoftAuthenticator(RP_ID, ORIGIN), status=401), "passkey_unknown"
    )
    junk = await api.call("POST", SIGN_IN, json={"credential": {"id": "x"}}, status=422)
    assert_error(junk, "passkey_invalid")

    # A registration from another site, the same passkey twice, and a guest.
    options = await api.call("POST", "/api/accounts/passkeys/options", anna["token"])
    body = {"credential": SoftAuthenticator(RP_ID, "http://evil.example").create(options)}
    refused = await api.call("POST", "/api/accounts/passkeys", anna["token"], json=body, status=422)
    assert_error(refused, "passkey_invalid")
    options = await api.call("POST", "/api/accounts/passkeys/options", anna["token"])
    body = {"credential": phone.create(options)}
    refused = await api.call("POST", "/api/accounts/passkeys", anna["token"], json=body, status=409)
    assert_error(refused, "passkey_taken")
    guest = await api.player("Cleo")
    refused = await api.call("POST", "/api/accounts/passkeys/options", guest["token"], status=409)
    assert_error(refused, "not_account")

    # A deleted account's passkeys are gone with it.
    headers = {"Authorization": f"Bearer {anna['token']}"}
    deleted = await api.client.request(
        "DELETE", "/api/players/me", headers=headers, json={"password": PASSWORD}
    )
    assert deleted.status_code == 204
    assert_error(await sign_in(api, phone, status=401), "passkey_unknown")
