"""Challenges through the running server (docs/challenges.md): a challenge accepted opens a
live table with both players seated, declined or cancelled it opens none, expired (by the
stored time, the service's clock moved on here) it can no longer be accepted, two racing
acceptances open one table, and each limit answers with its own code."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from app.main import create_app
from app.services import Services
from tests.api.test_accounts import account
from tests.support import Api, live_server, settings_for

PENDING_MAX = 2
PER_MINUTE = 4
SECONDS = 120.0


class Clock:
    """The challenge service's clock, moved on by the test."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Site:
    api: Api
    clock: Clock


@pytest.fixture
async def site(database_url: str) -> AsyncIterator[Site]:
    settings = settings_for(
        database_url,
        challenge_seconds=SECONDS,
        challenges_pending=PENDING_MAX,
        challenges_per_minute=PER_MINUTE,
    )
    app = create_app(settings)
    clock = Clock()
    async with (
        live_server(settings, app) as base,
        httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False) as http,
    ):
        services: Services = app.state.services
        services.challenges.clock = clock
        yield Site(Api(http), clock)


async def challenge(api: Api, by: dict[str, Any], status: int = 201, **body: Any) -> Any:
    body.setdefault("clock", "none")
    return await api.call("POST", "/api/challenges", by["token"], json=body, status=status)


async def answer(api: Api, who: dict[str, Any], made: dict[str, Any], how: str, **kw: Any) -> Any:
    method, path = ("DELETE", "") if how == "cancel" else ("POST", f"/{how}")
    return await api.call(method, f"/api/challenges/{made['id']}{path}", who["token"], **kw)


def code(body: Any) -> str:
    return str(body["error"]["code"])


async def test_an_accepted_challenge_opens_a_live_table_with_both_seated(site: Site) -> None:
    api = site.api
    anna, bela = await api.player("Anna"), await api.player("Bela")
    made = await challenge(api, anna, player_id=bela["id"], variant="schnapsen")
    assert made["status"] == "pending" and made["challenged"]["id"] == bela["id"]
    theirs = await api.call("GET", "/api/challenges", bela["token"])
    assert [c["id"] for c in theirs["incoming"]] == [made["id"]] and theirs["outgoing"] == []
    mine = await api.call("GET", "/api/challenges", anna["token"])
    assert [c["id"] for c in mine["outgoing"]] == [made["id"]] and mine["incoming"] == []

    accepted = await answer(api, bela, made, "accept")
    assert accepted["status"] == "accepted" and accepted["table_id"]
    table = await api.call("GET", f"/api/tables/{accepted['table_id']}")
    assert table["status"] == "live" and table["match_id"] is not None
    assert table["variant"] == "schnapsen"
    assert {s["seat"]: s["player_id"] for s in table["seats"]} == {0: anna["id"], 1: bela["id"]}
    anna_tables = await api.call("GET", "/api/players/me/tables", anna["token"])
    assert [t["id"] for t in anna_tables["tables"]] == [accepted["table_id"]]
    # Answered: no longer listed, and not accepted twice.
    assert await api.call("GET", "/api/challenges", bela["token"]) == {
        "incoming": [],
        "outgoing": [],
    }
    again = await answer(api, bela, made, "accept", status=409)
    assert code(again) == "challenge_not_pending"


async def test_a_rated_challenge_by_handle_between_accounts_opens_a_rated_table(
    site: Site,
) -> None:
    api = site.api
    anna, bela = await account(api, "anna", "Anna"), await account(api, "bela", "Bela")
    made = await challenge(api, anna, handle="BELA", rated=True)
    assert made["challenged"]["id"] == bela["id"] and made["rated"] is True
    accepted = await answer(api, bela, made, "accept")
    assert accepted["table"]["rated"] is True and accepted["table"]["status"] == "live"
    guest = await api.player("Carl")
    refused = await challenge(api, anna, status=422, player_id=guest["id"], rated=True)
    assert code(refused) == "rated_needs_accounts"


async def test_a_declined_challenge_opens_no_table(site: Site) -> None:
    api = site.api
    anna, bela = await api.player("Anna"), await api.player("Bela")
    made = await challenge(api, anna, player_id=bela["id"])
    refused = await answer(api, anna, made, "decline", status=403)
    assert code(refused) == "not_your_challenge"
    declined = await answer(api, bela, made, "decline")
    assert declined["status"] == "declined" and declined["table_id"] is None
    late = await answer(api, bela, made, "accept", status=409)
    assert code(late) == "challenge_not_pending"
    seen = await api.call("GET", f"/api/challenges/{made['id']}", anna["token"])
    assert seen["status"] == "declined"
    assert (await api.call("GET", "/api/players/me/tables", anna["token"]))["tables"] == []


async def test_a_cancelled_challenge_cannot_be_accepted(site: Site) -> None:
    api = site.api
    anna, bela = await api.player("Anna"), await api.player("Bela")
    made = await challenge(api, anna, player_id=bela["id"])
    refused = await answer(api, bela, made, "cancel", status=403)
    assert code(refused) == "not_your_challenge"
    cancelled = await answer(api, anna, made, "cancel")
    assert cancelled["status"] == "cancelled"
    late = await answer(api, bela, made, "accept", status=409)
    assert code(late) == "challenge_not_pending"
    assert (await api.call("GET", "/api/challenges", bela["token"]))["incoming"] == []


async def test_an_expired_challenge_cannot_be_accepted(site: Site) -> None:
    api = site.api
    anna, bela = await api.player("Anna"), await api.player("Bela")
    made = await challenge(api, anna, player_id=bela["id"])
    site.clock.now += SECONDS - 1
    still = await api.call("GET", f"/api/challenges/{made['id']}", bela["token"])
    assert still["status"] == "pending" and still["expires_in"] == 1.0
    site.clock.now += 1
    seen = await api.call("GET", f"/api/challenges/{made['id']}", bela["token"])
    assert seen["status"] == "expired" and seen["expires_in"] == 0
    assert (await api.call("GET", "/api/challenges", bela["token"]))["incoming"] == []
    late = await answer(api, bela, made, "accept", status=409)
    assert code(late) == "challenge_expired"
    gone = await answer(api, anna, made, "cancel", status=409)
    assert code(gone) == "challenge_expired"
    assert (await api.call("GET", "/api/players/me/tables", bela["token"]))["tables"] == []


async def test_two_racing_acceptances_open_one_table(site: Site) -> None:
    api = site.api
    anna = await api.player("Anna")
    takers = [await api.player(name) for name in ("Bela", "Carl", "Dora", "Emil")]
    made = await challenge(api, anna)  # open: anyone but Anna may accept
    answers = await asyncio.gather(
        *(
            api.client.post(
                f"/api/challenges/{made['id']}/accept",
                headers={"Authorization": f"Bearer {taker['token']}"},
            )
            for taker in takers
        )
    )
    statuses = sorted(response.status_code for response in answers)
    assert statuses == [200, 409, 409, 409], [r.text for r in answers]
    for response in answers:
        if response.status_code == 409:
            assert response.json()["error"]["code"] == "challenge_not_pending"
    anna_tables = await api.call("GET", "/api/players/me/tables", anna["token"])
    assert len(anna_tables["tables"]) == 1
    winner = next(r.json() for r in answers if r.status_code == 200)
    assert anna_tables["tables"][0]["id"] == winner["table_id"]


async def test_an_open_challenge_is_accepted_by_a_guest_holding_its_link(site: Site) -> None:
    api = site.api
    anna, bela = await api.player("Anna"), await api.player("Bela")
    made = await challenge(api, anna)
    assert made["challenged"] is None and made["url"].endswith(f"?challenge={made['id']}")
    own = await answer(api, anna, made, "accept", status=403)
    assert code(own) == "not_your_challenge"
    shown = await api.call("GET", f"/api/challenges/{made['id']}", bela["token"])
    assert shown["challenger"] == {"id": anna["id"], "name": "Anna"}
    accepted = await answer(api, bela, made, "accept")
    table = accepted["table"]
    assert table["status"] == "live"
    assert {s["player_id"] for s in table["seats"]} == {anna["id"], bela["id"]}


async def test_a_named_challenge_is_hidden_from_others(site: Site) -> None:
    api = site.api
    anna, bela, carl = [await api.player(n) for n in ("Anna", "Bela", "Carl")]
    made = await challenge(api, anna, player_id=bela["id"])
    hidden = await api.call("GET", f"/api/challenges/{made['id']}", carl["token"], status=404)
    assert code(hidden) == "challenge_not_found"
    taken = await answer(api, carl, made, "accept", status=404)
    assert code(taken) == "challenge_not_found"


async def test_bad_challenges_are_refused_with_their_codes(site: Site) -> None:
    api = site.api
    anna = await api.player("Anna")
    myself = await challenge(api, anna, status=422, player_id=anna["id"])
    assert code(myself) == "cannot_challenge_self"
    nobody = await challenge(api, anna, status=404, player_id="nobody-at-all")
    assert code(nobody) == "unknown_player"
    no_handle = await challenge(api, anna, status=404, handle="ghost")
    assert code(no_handle) == "unknown_player"
    three = await challenge(api, anna, status=422, variant="three-hand")
    assert code(three) == "challenge_seats"
    missing = await api.call("GET", "/api/challenges/nothing-here", anna["token"], status=404)
    assert code(missing) == "challenge_not_found"


async def test_too_many_pending_challenges_are_refused(site: Site) -> None:
    api = site.api
    anna = await api.player("Anna")
    others = [await api.player(name) for name in ("Bela", "Carl", "Dora")]
    made = [await challenge(api, anna, player_id=p["id"]) for p in others[:PENDING_MAX]]
    refused = await challenge(api, anna, status=409, player_id=others[-1]["id"])
    assert code(refused) == "too_many_challenges"
    await answer(api, anna, made[0], "cancel")
    await challenge(api, anna, player_id=others[-1]["id"])


async def test_expired_challenges_no_longer_count_as_pending(site: Site) -> None:
    api = site.api
    anna = await api.player("Anna")
    for _ in range(PENDING_MAX):
        await challenge(api, anna)
    assert code(await challenge(api, anna, status=409)) == "too_many_challenges"
    site.clock.now += SECONDS
    await challenge(api, anna)


async def test_challenges_per_minute_are_limited(site: Site) -> None:
    api = site.api
    anna, bela = await api.player("Anna"), await api.player("Bela")
    for _ in range(PER_MINUTE):
        made = await challenge(api, anna, player_id=bela["id"])
        await answer(api, anna, made, "cancel")
    refused = await challenge(api, anna, status=429, player_id=bela["id"])
    assert code(refused) == "challenge_rate_limited"
    # Counted per player: Bela may still challenge.
    await challenge(api, bela, player_id=anna["id"])
