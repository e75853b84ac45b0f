"""Ratings through the running server: a rated two-player match between accounts changes both
ratings by openskill's own numbers (a resignation is a loss); casual tables, guests and
computer players never rate; profiles show it all and the leaderboard pages through it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from openskill.models import PlackettLuce

from tests.api.test_accounts import account
from tests.api.test_api_rest import assert_error
from tests.support import Api, Client, live_server, settings_for

LIBRARY = PlackettLuce(mu=1500.0, sigma=500.0, beta=250.0, tau=5.0)


@pytest.fixture
async def site(database_url: str) -> AsyncIterator[tuple[str, Api]]:
    """A server whose leaderboard lists players from their first rated match."""
    settings = settings_for(database_url, leaderboard_min_matches=1)
    async with (
        live_server(settings) as base,
        httpx.AsyncClient(base_url=f"http://{base}", verify=False) as http,
    ):
        yield base, Api(http)


async def signed_up(api: Api, handle: str) -> dict[str, Any]:
    return await account(api, handle, handle.title())


async def resigned_match(
    base: str, api: Api, winner: dict[str, Any], loser: dict[str, Any], **table: Any
) -> dict[str, Any]:
    """``winner`` opens a table, ``loser`` joins and resigns at once; the finished match."""
    opened = await api.table(winner["token"], **table)
    joined = await api.join(loser["token"], opened["id"], invite_code=opened["invite_code"])
    client, welcome = await Client.open(base, opened["id"], loser["token"])
    message = {"type": "action", "id": "r", "version": welcome["version"]}
    await client.send({**message, "action": {"type": "resign"}})
    await client.recv_until("ack")
    await client.close()
    return await api.call("GET", f"/api/matches/{joined['match_id']}")


def family_rating(profile: dict[str, Any], family: str = "sixty-six") -> dict[str, Any] | None:
    return next((r for r in profile["ratings"] if r["family"] == family), None)


async def test_a_rated_match_between_accounts_rates_both_as_openskill_says(
    site: tuple[str, Api],
) -> None:
    base, api = site
    anna, bela = await signed_up(api, "anna"), await signed_up(api, "bela")
    match = await resigned_match(base, api, anna, bela, rated=True)
    assert match["rated"] is True and match["winner"] == 0

    [[won], [lost]] = LIBRARY.rate([[LIBRARY.rating()], [LIBRARY.rating()]], ranks=[0, 1])
    for player, expected in ((anna, won), (bela, lost)):
        profile = await api.call("GET", f"/api/players/{player['id']}")
        rating = family_rating(profile)
        assert rating is not None
        assert rating["rating"] == round(expected.mu) and rating["deviation"] == round(
            expected.sigma
        )
        assert rating["matches"] == 1 and rating["provisional"] is True
        assert rating["trend"] == [{"match_id": match["id"], "rating": round(expected.mu)}]
        assert rating["last_change"] == round(expected.mu - 1500)
    profile = await api.call("GET", f"/api/players/{bela['id']}")
    stats = profile["statistics"]
    assert (stats["matches"], stats["won"], stats["lost"], stats["abandoned"]) == (1, 0, 1, 1)
    assert stats["favourite_game"] == "sixty-six"
    assert [m["id"] for m in profile["recent"]] == [match["id"]]
    assert profile["handle"] == "bela" and profile["computer"] is None


async def test_casual_tables_guests_and_computer_players_never_rate(site: tuple[str, Api]) -> None:
    base, api = site
    anna, bela = await signed_up(api, "anna"), await signed_up(api, "bela")
    guest = await api.player("Gast")
    casual = await resigned_match(base, api, anna, bela)  # rated defaults to false
    with_guest = await resigned_match(base, api, anna, guest, rated=True)
    bot_table = await api.table(anna["token"], rated=True, bots={"1": "easy"})
    assert bot_table["rated"] is True and bot_table["status"] == "live"
    bot_match = await api.call("GET", f"/api/matches/{bot_table['match_id']}")
    assert [m["rated"] for m in (casual, with_guest, bot_match)] == [False, False, False]
    for player in (anna, bela, guest):
        assert (await api.call("GET", f"/api/players/{player['id']}"))["ratings"] == []


async def test_a_computer_players_profile_shows_its_published_rating(site: tuple[str, Api]) -> None:
    _, api = site
    anna = await signed_up(api, "anna")
    table = await api.table(anna["token"], bots={"1": "hard"})
    bot_id = table["seats"][1]["player_id"]
    profile = await api.call("GET", f"/api/players/{bot_id}")
    assert profile["computer"] == {
        "level": "hard",
        "rating": 1820,
        "family": "sixty-six",
        "fixed": True,
    }
    assert_error(await api.call("GET", "/api/players/nobody", status=404), "player_not_found")


async def test_the_leaderboard_ranks_best_first_and_pages_with_a_cursor(
    site: tuple[str, Api],
) -> None:
    base, api = site
    players = [await signed_up(api, handle) for handle in ("anna", "bela", "cili", "dora")]
    anna, bela, cili, dora = players
    # anna beats everyone, bela beats cili and dora, cili beats dora.
    for winner, loser in ((anna, bela), (anna, cili), (anna, dora), (bela, cili), (bela, dora)):
        await resigned_match(base, api, winner, loser, rated=True)
    await resigned_match(base, api, cili, dora, rated=True)

    whole = await api.call("GET", "/api/leaderboard", params={"game": "sixty-six", "limit": 10})
    assert [p["handle"] for p in whole["players"]] == ["anna", "bela", "cili", "dora"]
    ratings = [p["rating"] for p in whole["players"]]
    assert ratings == sorted(ratings, reverse=True)
    assert [p["rank"] for p in whole["players"]] == [1, 2, 3, 4]
    assert whole["next"] is None and whole["min_matches"] == 1

    pages, after = [], None
    while True:
        params = {"game": "sixty-six", "limit": 3, **({"after": after} if after else {})}
        page = await api.call("GET", "/api/leaderboard", params=params)
        pages += page["players"]
        after = page["next"]
        if after is None:
            break
    assert pages == whole["players"]
    assert_error(
        await api.call("GET", "/api/leaderboard", params={"game": "chess"}, status=422),
        "unknown_game",
    )
    assert_error(
        await api.call("GET", "/api/leaderboard", params={"after": "nonsense!"}, status=422),
        "bad_cursor",
    )
    schnapsen = await api.call("GET", "/api/leaderboard", params={"game": "schnapsen"})
    assert schnapsen["players"] == []


async def test_the_leaderboard_leaves_out_players_below_the_minimum(api: Api, server: str) -> None:
    anna, bela = await signed_up(api, "anna"), await signed_up(api, "bela")
    await resigned_match(server, api, anna, bela, rated=True)
    board = await api.call("GET", "/api/leaderboard")
    assert board["min_matches"] == 20 and board["players"] == []
