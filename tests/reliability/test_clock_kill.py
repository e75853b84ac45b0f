"""A turn clock survives SIGKILL: the server dies with a deadline pending, comes back after
the deadline, and the consequence happens exactly once (and not again after another kill)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import pytest

from tests.api.test_durability import server_process, wait_healthy
from tests.support import free_port

MOVE_SECONDS = 2.0


async def record_once_over(base: str, match_id: int) -> dict:
    async with httpx.AsyncClient(base_url=f"http://{base}", timeout=5) as http:
        for _ in range(200):
            record = (await http.get(f"/api/matches/{match_id}")).json()
            if record["status"] == "finished":
                return record
            await asyncio.sleep(0.05)
    raise AssertionError("the match did not end")


async def test_a_deadline_pending_at_sigkill_is_applied_once_after_the_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLOCK_MOVE_SECONDS", str(MOVE_SECONDS))
    monkeypatch.setenv("CLOCK_BANK_SECONDS", "0")
    database, port = tmp_path / "talon.db", free_port()
    base = f"127.0.0.1:{port}"
    with server_process(database, port) as process:
        await wait_healthy(base)
        async with httpx.AsyncClient(base_url=f"http://{base}", timeout=5) as http:
            anna = (await http.post("/api/players", json={"name": "Anna"})).json()
            bela = (await http.post("/api/players", json={"name": "Bela"})).json()
            table = (
                await http.post(
                    "/api/tables",
                    headers={"Authorization": f"Bearer {anna['token']}"},
                    json={"visibility": "public", "clock": "move", "on_timeout": "forfeit"},
                )
            ).json()
            joined = await http.post(
                f"/api/tables/{table['id']}/join",
                headers={"Authorization": f"Bearer {bela['token']}"},
                json={},
            )
            started = time.monotonic()
            match_id = joined.json()["match_id"]
        process.kill()  # the deadline is still ahead: nobody has applied it
        process.wait(10)
        assert time.monotonic() - started < MOVE_SECONDS, "the kill came after the deadline"
    await asyncio.sleep(MOVE_SECONDS)  # the deadline passes while no server runs
    for _ in range(2):  # back: the consequence happens; once more: it does not happen again
        with server_process(database, port) as process:
            await wait_healthy(base)
            record = await record_once_over(base, match_id)
            async with httpx.AsyncClient(base_url=f"http://{base}", timeout=5) as http:
                log = (await http.get(f"/api/matches/{match_id}/log")).json()
            process.kill()
            process.wait(10)
        resigned = [a for a in log["actions"] if a["action"]["type"] == "resign"]
        assert len(resigned) == 1 and len(record["abandoned"]) == 1
        seat = record["abandoned"][0]["seat"]
        assert record["abandoned"][0]["consequence"] == "forfeit"
        assert resigned[0]["seat"] == seat and record["winner"] == 1 - seat
