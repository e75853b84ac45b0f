"""Passwords cost the server little for a stranger: easy ones are refused, every route that
hashes one is limited per address, cheap refusals come before any hash, the hashing pool
refuses past its queue, and an account's password sign-ins are limited across addresses
without locking its owner out of a passkey sign-in.

Each test runs the real application under uvicorn; the guesses come from several loopback
addresses (127.0.0.2, 127.0.0.3, ...), which Linux routes to the server on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from app.players import passwords
from tests.api.test_accounts import PASSWORD, account
from tests.api.test_api_rest import assert_error
from tests.api.test_passkeys import ORIGIN, RP_ID, register, sign_in
from tests.authenticator import SoftAuthenticator
from tests.support import Api, live_server, settings_for

SIGN_IN = "/api/accounts/sign-in"


@contextlib.asynccontextmanager
async def site(database_url: str, **settings: Any) -> AsyncIterator[tuple[str, Api]]:
    """A server with ``settings``, and a client from 127.0.0.1."""
    async with (
        live_server(settings_for(database_url, **settings)) as base,
        httpx.AsyncClient(base_url=f"http://{base}", timeout=30, verify=False) as http,
    ):
        yield base, Api(http)


def from_address(base: str, number: int) -> httpx.AsyncClient:
    """A client whose connections come from 127.0.0.``number``."""
    transport = httpx.AsyncHTTPTransport(local_address=f"127.0.0.{number}")
    return httpx.AsyncClient(base_url=f"http://{base}", timeout=30, transport=transport)


WEAK = ["password", "12345678", " " * 8, "iloveyou1", "qwertyuiop", "anna2024", "Anna_K-1"]


async def test_common_and_trivial_passwords_are_refused(database_url: str) -> None:
    async with site(database_url) as (_, api):
        guest = await api.player("Anna")
        for weak in WEAK:
            body = {"handle": "Anna_K", "password": weak}
            refused = await api.call("POST", "/api/accounts", guest["token"], json=body, status=422)
            assert_error(refused, "weak_password")
            assert refused["error"]["message"].startswith("This password is too easy to guess")
        me = await api.call("GET", "/api/players/me", guest["token"])
        assert me["handle"] is None  # still a guest
        body = {"handle": "Anna_K", "password": "plum ferry lantern"}
        await api.call("POST", "/api/accounts", guest["token"], json=body, status=201)


class CountingHasher:
    """Argon2's hasher, counting its hashes and checks."""

    def __init__(self, slow: float = 0.0) -> None:
        self.inner = passwords.HASHER
        self.slow = slow
        self.calls = 0
        self.lock = threading.Lock()

    def _count(self) -> None:
        with self.lock:
            self.calls += 1
        time.sleep(self.slow)

    def hash(self, password: str) -> str:
        self._count()
        return self.inner.hash(password)

    def verify(self, stored: str, password: str) -> bool:
        self._count()
        return self.inner.verify(stored, password)


async def test_an_account_that_cannot_be_made_costs_no_hash(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with site(database_url) as (_, api):
        anna = await account(api)
        bela = await api.player("Bela")
        hasher = CountingHasher()
        monkeypatch.setattr(passwords, "HASHER", hasher)
        body = {"handle": "anna2", "password": PASSWORD}
        again = await api.call("POST", "/api/accounts", anna["token"], json=body, status=409)
        assert_error(again, "already_account")
        taken = {"handle": "ANNA", "password": PASSWORD}
        refused = await api.call("POST", "/api/accounts", bela["token"], json=taken, status=409)
        assert_error(refused, "handle_taken")
        # Nor a sign-in, or a deletion, with a password no account can have.
        for password in ("short", "x" * 300):
            body = {"handle": "anna", "password": password}
            assert_error(await api.call("POST", SIGN_IN, json=body, status=401), "bad_credentials")
        wrong = {"password": "x" * 300}
        me = "/api/players/me"
        forbidden = await api.call("DELETE", me, anna["token"], json=wrong, status=403)
        assert_error(forbidden, "bad_credentials")
        assert hasher.calls == 0


async def test_every_route_that_hashes_a_password_is_limited_per_address(
    database_url: str,
) -> None:
    async with site(database_url, sign_ins_per_minute=4) as (_, api):
        anna = await account(api)  # the first of the four
        body = {"handle": "anna2", "password": PASSWORD}
        await api.call("POST", "/api/accounts", anna["token"], json=body, status=409)
        wrong = {"password": "not the password"}
        await api.call("DELETE", "/api/players/me", anna["token"], json=wrong, status=403)
        await api.call("POST", SIGN_IN, json={"handle": "anna", "password": PASSWORD}, status=201)
        for method, path, token, sent in (
            ("POST", "/api/accounts", anna["token"], body),
            ("DELETE", "/api/players/me", anna["token"], wrong),
            ("POST", SIGN_IN, None, {"handle": "anna", "password": PASSWORD}),
        ):
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            refused = await api.client.request(method, path, headers=headers, json=sent)
            assert refused.status_code == 429, (path, refused.text)
            assert_error(refused.json(), "rate_limited")
            assert 1 <= int(refused.headers["Retry-After"]) <= 60


async def test_the_hashing_pool_refuses_past_its_queue(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    generous = {"sign_ins_per_minute": 1000, "sign_ins_per_account": 1000}
    async with site(database_url, **generous) as (_, api):
        await account(api)
        monkeypatch.setattr(passwords, "HASHER", CountingHasher(slow=0.5))
        monkeypatch.setattr(passwords, "QUEUE", 2)
        body = {"handle": "anna", "password": "not the password"}
        answers = await asyncio.gather(*(api.client.post(SIGN_IN, json=body) for _ in range(8)))
        statuses = sorted(a.status_code for a in answers)
        assert statuses.count(503) >= 4, statuses  # at most two of the eight at once
        assert set(statuses) <= {401, 503}, statuses
        busy = next(a for a in answers if a.status_code == 503)
        assert_error(busy.json(), "passwords_busy")
        assert busy.headers["Retry-After"] == "1"
        # Once the queue has drained, passwords are checked again.
        right = {"handle": "anna", "password": PASSWORD}
        assert (await api.client.post(SIGN_IN, json=right)).status_code == 201


async def test_password_sign_ins_are_limited_per_account_across_addresses(
    database_url: str,
) -> None:
    async with site(database_url, sign_ins_per_account=3) as (base, api):
        anna = await account(api)
        await account(api, "bela", "Bela")
        # Three wrong guesses, each from another address; the fourth is the right password.
        for number in (2, 3, 4):
            async with from_address(base, number) as guesser:
                body = {"handle": "anna", "password": f"guess number {number}"}
                assert (await guesser.post(SIGN_IN, json=body)).status_code == 401
        refused = await api.client.post(SIGN_IN, json={"handle": "Anna", "password": PASSWORD})
        assert refused.status_code == 429, refused.text
        assert_error(refused.json(), "rate_limited")
        assert 60 <= int(refused.headers["Retry-After"]) <= 15 * 60
        # Another account, and an unknown handle counted apart, are not held up.
        bela = {"handle": "bela", "password": PASSWORD}
        assert (await api.client.post(SIGN_IN, json=bela)).status_code == 201
        # The owner's passkey still signs in.
        phone = SoftAuthenticator(RP_ID, ORIGIN)
        await register(api, anna["token"], phone)
        assert (await sign_in(api, phone, "anna"))["id"] == anna["id"]


async def test_a_successful_sign_in_starts_the_account_count_again(database_url: str) -> None:
    async with site(database_url, sign_ins_per_account=3) as (_, api):
        await account(api)
        right, wrong = PASSWORD, "not the password"
        for password in (wrong, wrong, right, wrong, wrong, right):
            expected = 201 if password == right else 401
            body = {"handle": "anna", "password": password}
            assert (await api.client.post(SIGN_IN, json=body)).status_code == expected
