"""REST: players, tables, seats, rematch, history; every error in the one error shape."""

from __future__ import annotations

from typing import Any

from tests.support import Api


def assert_error(body: dict[str, Any], code: str) -> None:
    assert set(body) == {"error"}
    assert body["error"]["code"] == code
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]


# -- players -------------------------------------------------------------------------------


async def test_a_guest_gets_an_id_a_trimmed_name_and_a_long_token(api: Api) -> None:
    player = await api.call("POST", "/api/players", json={"name": "  Zsófi  "}, status=201)
    assert player["name"] == "Zsófi"
    assert len(player["token"]) >= 32
    me = await api.call("GET", "/api/players/me", player["token"])
    assert me == {"id": player["id"], "name": "Zsófi", "handle": None}


async def test_names_must_have_1_to_24_printable_characters(api: Api) -> None:
    for name in ("", "   ", "x" * 25, "bad\x00name"):
        body = await api.call("POST", "/api/players", json={"name": name}, status=422)
        assert_error(body, "bad_name")
    assert (await api.call("POST", "/api/players", json={"name": "x" * 24}, status=201))["id"]


async def test_names_that_look_blank_or_like_a_computer_player_are_refused(api: Api) -> None:
    refused = {"\u3164": "name_blank", "a\u0301\u0301\u0301": "name_marks"}
    refused["Computer (hard)"] = "name_reserved"
    for name, code in refused.items():
        body = await api.call("POST", "/api/players", json={"name": name}, status=422)
        assert_error(body, code)
    full_width = "\uff21\uff4e\uff4e\uff41"
    player = await api.call("POST", "/api/players", json={"name": full_width}, status=201)
    assert player["name"] == "Anna"


async def test_a_missing_name_is_a_validation_error_naming_the_field(api: Api) -> None:
    body = await api.call("POST", "/api/players", json={}, status=422)
    assert_error(body, "validation_error")
    assert "name" in body["error"]["message"]


async def test_a_wrong_or_missing_token_is_401(api: Api) -> None:
    assert_error(await api.call("GET", "/api/players/me", status=401), "missing_token")
    assert_error(await api.call("GET", "/api/players/me", "nope", status=401), "bad_token")


# -- tables --------------------------------------------------------------------------------


async def test_creating_a_table_seats_the_creator(api: Api) -> None:
    anna = await api.player()
    table = await api.table(anna["token"], variant="sixty-six", options={"target": 10})
    assert table["status"] == "open"
    assert table["options"]["target"] == 10
    assert table["seats"][0]["player_id"] == anna["id"]
    assert table["seats"][1]["player_id"] is None
    assert table["invite_code"] and table["invite_code"] in table["invite_url"]


async def test_tables_of_three_and_four_seat_everyone_and_refuse_a_fifth(api: Api) -> None:
    tokens = [(await api.player(name))["token"] for name in ("Anna", "Bela", "Cora", "Dora")]
    three = await api.table(tokens[0], variant="german-32", options={"players": 3})
    assert [s["seat"] for s in three["seats"]] == [0, 1, 2]
    assert three["options"]["hand_size"] == 7
    for token in tokens[1:3]:
        three = await api.call("POST", f"/api/tables/{three['id']}/join", token, json={})
    assert three["status"] == "live"
    full = await api.call("POST", f"/api/tables/{three['id']}/join", tokens[3], status=409, json={})
    assert_error(full, "table_not_open")
    four = await api.table(tokens[0], variant="four-hand", bots={"1": "easy", "3": "easy"})
    assert len(four["seats"]) == 4 and four["status"] == "open"
    bad_seat = await api.call(
        "POST",
        "/api/tables",
        tokens[0],
        status=422,
        json={"variant": "four-hand", "bots": {"4": "easy"}},
    )
    assert_error(bad_seat, "bad_bots")
    bad_count = await api.call(
        "POST",
        "/api/tables",
        tokens[0],
        status=422,
        json={"variant": "german-32", "options": {"players": 4}},
    )
    assert_error(bad_count, "bad_options")
    assert "players" in bad_count["error"]["message"]


async def test_unknown_variants_and_options_are_422_naming_them(api: Api) -> None:
    token = (await api.player())["token"]
    body = await api.call("POST", "/api/tables", token, json={"variant": "poker"}, status=422)
    assert_error(body, "unknown_variant")
    assert "poker" in body["error"]["message"]
    bad = {"variant": "sixty-six", "options": {"trumps": 3}}
    body = await api.call("POST", "/api/tables", token, json=bad, status=422)
    assert_error(body, "bad_options")
    assert "trumps" in body["error"]["message"]
    bad = {"variant": "sixty-six", "options": {"target": 0}}
    body = await api.call("POST", "/api/tables", token, json=bad, status=422)
    assert "target" in body["error"]["message"]
    body = await api.call("POST", "/api/tables", token, json={"visibility": "x"}, status=422)
    assert_error(body, "validation_error")
    assert "visibility" in body["error"]["message"]


async def test_creating_a_table_needs_a_token(api: Api) -> None:
    assert_error(await api.call("POST", "/api/tables", json={}, status=401), "missing_token")


async def test_open_and_live_public_tables_are_listed_private_ones_are_not(api: Api) -> None:
    anna, bela = await api.player("Anna"), await api.player("Bela")
    public = await api.table(anna["token"])
    private = await api.table(anna["token"], visibility="private")
    open_ids = [t["id"] for t in (await api.call("GET", "/api/tables?status=open"))["tables"]]
    assert public["id"] in open_ids and private["id"] not in open_ids
    await api.join(bela["token"], public["id"])
    live = (await api.call("GET", "/api/tables?status=live"))["tables"]
    assert [t["id"] for t in live] == [public["id"]]
    assert live[0]["invite_code"] is None  # only seated players see it
    body = await api.call("GET", "/api/tables?status=finished", status=422)
    assert_error(body, "validation_error")


async def test_the_match_starts_when_the_last_seat_is_taken(api: Api) -> None:
    table, (anna, _) = await api.live_table()
    assert table["match_id"] is not None and table["version"] == 0
    seen = await api.call("GET", f"/api/tables/{table['id']}", anna["token"])
    assert seen["status"] == "live"


async def test_join_errors(api: Api) -> None:
    anna, bela, cili = [await api.player(n) for n in ("Anna", "Bela", "Cili")]
    private = await api.table(anna["token"], visibility="private")
    path = f"/api/tables/{private['id']}/join"
    assert_error(
        await api.call("POST", path, bela["token"], json={}, status=403), "bad_invite_code"
    )
    wrong = {"invite_code": "wrong"}
    assert_error(
        await api.call("POST", path, bela["token"], json=wrong, status=403), "bad_invite_code"
    )
    assert_error(await api.call("POST", path, anna["token"], json={}, status=409), "already_seated")
    bad_seat = {"invite_code": private["invite_code"], "seat": 5}
    assert_error(await api.call("POST", path, bela["token"], json=bad_seat, status=422), "bad_seat")
    taken = {"invite_code": private["invite_code"], "seat": 0}
    assert_error(await api.call("POST", path, bela["token"], json=taken, status=409), "seat_taken")
    await api.join(bela["token"], private["id"], invite_code=private["invite_code"], seat=1)
    body = await api.call("POST", path, cili["token"], json=taken, status=409)
    assert_error(body, "table_not_open")
    missing = await api.call("POST", "/api/tables/nope/join", cili["token"], json={}, status=404)
    assert_error(missing, "table_not_found")


async def test_leaving_frees_the_seat_only_before_the_match(api: Api) -> None:
    anna, bela = await api.player("Anna"), await api.player("Bela")
    table = await api.table(anna["token"])
    await api.join(bela["token"], (second := await api.table(anna["token"]))["id"])
    path = f"/api/tables/{table['id']}/leave"
    assert_error(await api.call("POST", path, bela["token"], status=409), "not_seated")
    left = await api.call("POST", path, anna["token"])
    assert left["seats"][0]["player_id"] is None and left["status"] == "finished"
    body = await api.call("POST", f"/api/tables/{second['id']}/leave", bela["token"], status=409)
    assert_error(body, "match_started")


async def test_rematch_needs_a_finished_match_and_a_seat(api: Api) -> None:
    table, (anna, bela) = await api.live_table()
    stranger = await api.player("Cili")
    path = f"/api/tables/{table['id']}/rematch"
    assert_error(await api.call("POST", path, stranger["token"], status=403), "not_seated")
    assert_error(await api.call("POST", path, anna["token"], status=409), "match_live")
    decline = f"{path}/decline"
    assert_error(await api.call("POST", decline, anna["token"], status=409), "no_rematch_offer")
    assert_error(await api.call("POST", decline, stranger["token"], status=403), "not_seated")
    fresh = await api.table(bela["token"])
    body = await api.call("POST", f"/api/tables/{fresh['id']}/rematch", bela["token"], status=409)
    assert_error(body, "no_match_to_replay")


# -- history -------------------------------------------------------------------------------


async def test_a_live_match_shows_its_players_but_hides_its_log(api: Api) -> None:
    table, (anna, bela) = await api.live_table()
    match = await api.call("GET", f"/api/matches/{table['match_id']}")
    assert match["status"] == "live"
    assert [p["player_id"] for p in match["players"]] == [anna["id"], bela["id"]]
    body = await api.call("GET", f"/api/matches/{table['match_id']}/log", status=409)
    assert_error(body, "match_live")
    assert_error(await api.call("GET", "/api/matches/999999", status=404), "match_not_found")
    assert_error(await api.call("GET", "/api/matches/abc", status=422), "validation_error")


async def test_history_is_newest_first_with_a_cursor_and_filters(api: Api) -> None:
    started = []
    for _ in range(3):
        table, players = await api.live_table()
        started.append((table["match_id"], players))
    page = await api.call("GET", "/api/matches?limit=2")
    assert [m["id"] for m in page["matches"]] == [started[2][0], started[1][0]]
    rest = await api.call("GET", f"/api/matches?limit=2&before={page['next']}")
    assert [m["id"] for m in rest["matches"]] == [started[0][0]] and rest["next"] is None
    mine = await api.call("GET", f"/api/matches?player={started[1][1][0]['id']}")
    assert [m["id"] for m in mine["matches"]] == [started[1][0]]
    none = await api.call("GET", "/api/matches?variant=schnapsen")
    assert none["matches"] == []
    assert_error(await api.call("GET", "/api/matches?limit=0", status=422), "bad_limit")


# -- health and the error shape ------------------------------------------------------------


async def test_health(api: Api) -> None:
    assert await api.call("GET", "/healthz") == {"status": "ok", "database": "ok"}


async def test_unknown_routes_and_bad_json_use_the_error_shape(api: Api) -> None:
    assert_error(await api.call("GET", "/api/nothing-here", status=404), "not_found")
    token = (await api.player())["token"]
    response = await api.client.post(
        "/api/tables",
        content=b"{not json",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    assert response.status_code == 422
    assert_error(response.json(), "validation_error")
    assert "Traceback" not in response.text


async def test_variants_come_from_the_engine(api: Api) -> None:
    body = await api.call("GET", "/api/variants")
    by_name = {v["variant"]: v for v in body["variants"]}
    assert list(by_name) == [
        "sixty-six",
        "schnapsen",
        "german-32",
        "three-hand",
        "four-hand",
        "german-48",
    ]
    assert by_name["german-32"]["seats"] == [2, 3]
    assert by_name["four-hand"]["seats"] == [4] and by_name["four-hand"]["partners"] is True
    assert by_name["schnapsen"]["defaults"]["exchange_rank"] == "J"
    assert by_name["sixty-six"]["options"]["claim"] == {
        "kind": "choice",
        "values": ["auto", "manual"],
    }
    assert "claim" in by_name["four-hand"]["fixed"]
    # Every value the catalog offers for an option is accepted by table creation.
    token = (await api.player())["token"]
    for value in by_name["schnapsen"]["options"]["close_fail"]["values"]:
        await api.table(token, variant="schnapsen", options={"close_fail": value})
