"""``talon serve``: invite links and allowed origins follow the address served, and logs are
plain lines in a terminal and JSON elsewhere.

``scripts/serve --port 9000`` used to hand out invite links to port 8000.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import httpx
import pytest

from app import cli, logs
from app.settings import Settings
from tests.reliability.server import served, wait_healthy
from tests.support import free_port


def test_invite_links_follow_the_port_and_host_served() -> None:
    settings = cli.served_at(Settings(), "127.0.0.1", 9000)
    assert settings.public_url == "http://localhost:9000"  # a name: passkeys work there
    assert settings.relying_party_id == "localhost"
    assert "http://127.0.0.1:9000" in settings.allowed_origins
    assert "http://localhost:9000" in settings.allowed_origins
    named = cli.served_at(Settings(), "talon.lan", 8080)
    assert named.public_url == "http://talon.lan:8080"


def test_all_interfaces_give_the_local_network_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "lan_address", lambda: "192.168.1.20")
    settings = cli.served_at(Settings(), "0.0.0.0", 8000)
    assert settings.public_url == "http://192.168.1.20:8000"
    assert settings.allowed_origins[0] == "http://192.168.1.20:8000"


def test_an_address_set_by_the_operator_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUBLIC_URL", "https://cards.example")
    monkeypatch.setenv("ALLOWED_ORIGINS", '["https://cards.example"]')
    settings = cli.served_at(Settings(), "0.0.0.0", 9000)
    assert settings.public_url == "https://cards.example"
    assert settings.allowed_origins == ["https://cards.example"]


def test_the_local_network_address_is_an_address() -> None:
    assert cli.lan_address().count(".") == 3


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_logs_are_plain_in_a_terminal_and_json_elsewhere() -> None:
    assert logs.resolve("auto", Terminal()) == "text"
    assert logs.resolve("auto", io.StringIO()) == "json"
    assert logs.resolve("json", Terminal()) == "json"
    assert logs.resolve("text", io.StringIO()) == "text"


async def test_a_server_on_another_port_hands_out_invite_links_to_that_port(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("PUBLIC_URL", "ALLOWED_ORIGINS", "LOG_FORMAT"):
        monkeypatch.delenv(name, raising=False)
    port = free_port()
    log = tmp_path / "server.log"
    with served(tmp_path / "talon.db", port, log):
        await wait_healthy(f"127.0.0.1:{port}")
        async with httpx.AsyncClient(
            base_url=f"http://127.0.0.1:{port}", timeout=10, verify=False
        ) as http:
            player = (await http.post("/api/players", json={"name": "Anna"})).json()
            headers = {"Authorization": f"Bearer {player['token']}"}
            table = (await http.post("/api/tables", json={}, headers=headers)).json()
    assert table["invite_url"].startswith(f"http://localhost:{port}/t/")
    # Not a terminal: one JSON object per line.
    lines = [line for line in log.read_text().splitlines() if line.strip()]
    assert lines and all(json.loads(line)["message"] for line in lines)
