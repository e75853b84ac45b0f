"""schemathesis against the app's own OpenAPI schema: every REST route, in process.

Each operation gets generated requests (valid and invalid bodies, queries, paths and bearer
tokens). Every request is sent twice: as generated, and again with a real player's token and,
where the route names a table or a match, one that exists (an open table, a live one and a
finished one), so that the handlers behind the 401s and 404s are reached too. Every answer must
be no 5xx, a documented status, and a body that conforms to the schema.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode, checks
from schemathesis.python import asgi

from app.engine import legal_actions
from app.main import create_app
from app.services import Services
from tests.support import migrated_sqlite, settings_for

EXAMPLES = 30
# Not checked here: that a schema-valid body is accepted (a name must also be printable, a seat
# must exist at that table: rules a JSON schema does not carry; they answer 422 with a code),
# and schemathesis's guess at authentication (GET routes take a token optionally, and the
# second request carries a real one); tests/reliability/test_identity_and_limits.py checks who
# may do what.
NOT_CHECKED = [checks.positive_data_acceptance, checks.ignored_auth]


class Known:
    """Real players, tables and matches to aim the generated requests at."""

    def __init__(self) -> None:
        self.tokens: list[str] = []
        self.table_ids: list[str] = []
        self.match_ids: list[int] = []


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[FastAPI, Known]]:
    folder: Path = tmp_path_factory.mktemp("openapi")
    url = migrated_sqlite(folder / "template.db", folder / "talon.db")
    app = create_app(
        settings_for(
            url,
            players_per_minute=1_000_000,
            tables_per_minute=1_000_000,
            bot_workers=0,
            bot_pause=0.0,
            bot_expert_pause=0.0,
            bot_expert_budget=0.05,
            expose_api_docs=True,
        )
    )
    known = Known()
    with asgi.get_client(app) as client:
        players = [client.post("/api/players", json={"name": n}).json() for n in "ABCD"]
        known.tokens = [p["token"] for p in players]
        auth = [{"Authorization": f"Bearer {t}"} for t in known.tokens]
        # An open table, a live one and one whose match is over.
        open_table = client.post("/api/tables", json={}, headers=auth[0]).json()
        live = client.post("/api/tables", json={"options": {"target": 1}}, headers=auth[1]).json()
        live = client.post(f"/api/tables/{live['id']}/join", json={}, headers=auth[2]).json()
        over = client.post("/api/tables", json={"options": {"target": 1}}, headers=auth[2]).json()
        over = client.post(f"/api/tables/{over['id']}/join", json={}, headers=auth[3]).json()
        assert live["status"] == over["status"] == "live"
        asgi._get_portal().call(play_out, app.state.services, over["id"])
        known.table_ids = [open_table["id"], live["id"], over["id"]]
        known.match_ids = [live["match_id"], over["match_id"]]
        finished = client.get(f"/api/matches/{over['match_id']}/log")
        assert finished.status_code == 200, finished.text
    yield app, known
    asgi.shutdown_lifespans()


async def play_out(services: Services, table_id: str) -> None:
    """Random legal moves through the table's authority until the match is over."""
    authority = await services.tables.authority(table_id)
    rng = random.Random(1)
    while authority.state is not None and not authority.state.match_over:
        seat = authority.state.to_move
        assert seat is not None
        choices = [
            a for a in legal_actions(authority.state, seat) if a.to_json()["type"] != "resign"
        ]
        action = rng.choice(choices).to_json()
        await authority.act(authority.seats[seat].player_id, authority.version, action)
    await asyncio.sleep(0)


def operation_labels() -> list[str]:
    """``METHOD /path`` of every route in the schema (building the app touches no database)."""
    settings = settings_for("sqlite+aiosqlite:///unused.db", expose_api_docs=True)
    paths = create_app(settings).openapi()["paths"]
    return [f"{method.upper()} {path}" for path, item in paths.items() for method in item]


@pytest.fixture(scope="module")
def api_schema(world: tuple[FastAPI, Known]) -> Any:
    app, _ = world
    return schemathesis.openapi.from_asgi("/openapi.json", app)


@pytest.mark.parametrize("label", operation_labels())
def test_every_rest_route_answers_within_its_schema(
    label: str, api_schema: Any, world: tuple[FastAPI, Known]
) -> None:
    _, known = world
    operation = api_schema.find_operation_by_label(label)
    assert operation is not None
    cases = st.one_of(
        operation.as_strategy(GenerationMode.POSITIVE),
        operation.as_strategy(GenerationMode.NEGATIVE),
    )

    @given(case=cases)
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
    )
    def answers_within_schema(case: schemathesis.Case) -> None:
        case.call_and_validate(excluded_checks=NOT_CHECKED)
        # The same request from a real player, at a table or match that exists.
        rng = random.Random(repr(case.path_parameters) + repr(case.body) + repr(case.query))
        if case.path_parameters:
            if "table_id" in case.path_parameters:
                case.path_parameters["table_id"] = rng.choice(known.table_ids)
            if "match_id" in case.path_parameters:
                case.path_parameters["match_id"] = rng.choice(known.match_ids)
        token = rng.choice(known.tokens)
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
        case.call_and_validate(excluded_checks=NOT_CHECKED)

    answers_within_schema()
