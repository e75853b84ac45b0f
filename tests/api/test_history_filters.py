"""History filters (opponent, result, rated or casual, dates) with cursor pages, and the NDJSON
export of a player's matches."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from tests.api.test_accounts import account
from tests.api.test_api_rest import assert_error
from tests.api.test_ratings import resigned_match
from tests.support import Api


async def ids(api: Api, **params: object) -> list[int]:
    """Every matching match id, newest first, gathered page by page (two per page)."""
    found: list[int] = []
    before = None
    while True:
        query = {**params, "limit": 2, **({"before": before} if before else {})}
        page = await api.call("GET", "/api/matches", params=query)
        found += [m["id"] for m in page["matches"]]
        before = page["next"]
        if before is None:
            return found


async def test_history_filters_by_opponent_result_rated_and_dates(api: Api, server: str) -> None:
    anna, bela = await account(api, "anna"), await account(api, "bela", "Bela")
    cili = await api.player("Cili")
    first = await resigned_match(server, api, anna, bela, rated=True)  # anna won, rated
    second = await resigned_match(server, api, bela, anna)  # bela won, casual
    third = await resigned_match(server, api, anna, cili)  # anna won against a guest
    fourth = await resigned_match(server, api, anna, bela, rated=True)
    a = anna["id"]
    assert await ids(api, player=a) == [fourth["id"], third["id"], second["id"], first["id"]]
    assert await ids(api, player=a, opponent=bela["id"]) == [
        fourth["id"],
        second["id"],
        first["id"],
    ]
    assert await ids(api, player=a, result="won") == [fourth["id"], third["id"], first["id"]]
    assert await ids(api, player=a, result="lost") == [second["id"]]
    assert await ids(api, player=a, rated="true") == [fourth["id"], first["id"]]
    assert await ids(api, player=a, rated="false") == [third["id"], second["id"]]
    assert await ids(api, player=bela["id"], result="won", rated="false") == [second["id"]]
    now = datetime.now(UTC)
    assert await ids(api, player=a, since=(now + timedelta(minutes=1)).isoformat()) == []
    assert len(await ids(api, player=a, until=(now + timedelta(minutes=1)).isoformat())) == 4
    assert await ids(api, player=a, until=(now - timedelta(days=1)).isoformat()) == []
    refused = await api.call("GET", "/api/matches", params={"result": "won"}, status=422)
    assert_error(refused, "bad_filter")
    refused = await api.call("GET", "/api/matches", params={"result": "drawn"}, status=422)
    assert_error(refused, "validation_error")


async def test_a_players_matches_export_as_ndjson(api: Api, server: str) -> None:
    anna, bela = await account(api, "anna"), await account(api, "bela", "Bela")
    played = [await resigned_match(server, api, anna, bela, rated=True) for _ in range(3)]
    live, _ = await api.live_table()  # someone else's live match is not in it
    response = await api.client.get(f"/api/players/{anna['id']}/matches.ndjson")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/x-ndjson")
    lines = response.text.splitlines()
    records = [json.loads(line) for line in lines]
    assert [r["id"] for r in records] == [m["id"] for m in reversed(played)]
    assert records[0] == await api.call("GET", f"/api/matches/{played[-1]['id']}")
    assert live["match_id"] not in [r["id"] for r in records]
    missing = await api.call("GET", "/api/players/nobody/matches.ndjson", status=404)
    assert_error(missing, "player_not_found")
