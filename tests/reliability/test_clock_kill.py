"""A turn clock survives SIGKILL: the server dies with a deadline pending, comes back after
the deadline, and the consequence happens exactly once (and not again after another kill)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import httpx
import pytest

from tests.api.test_durability import server_process, wait_healthy
from tests.support import every_seat_acts, free_port

# A move's time, longer on each try: the test needs the kill to come before the deadline,
# which the store shows afterwards; a loaded machine that was slower than that gets a longer
# clock rather than a failure.
MOVE_SECONDS = (2.0, 6.0, 18.0)


async def record_once_over(base: str, match_id: int) -> dict:
    async with httpx.AsyncClient(base_url=f"http://{base}", timeout=30, verify=False) as http:
        for _ in range(600):
            record = (await http.get(f"/api/matches/{match_id}")).json()
            if record["status"] == "finished":
                return record
            await asyncio.sleep(0.05)
    raise AssertionError("the match did not end")


def still_pending(database: Path, match_id: int) -> bool:
    """Whether the stored match is live with no resignation: the deadline was not applied."""
    with sqlite3.connect(database) as connection:
        (status,) = connection.execute(
            "SELECT status FROM matches WHERE id = ?", (match_id,)
        ).fetchone()
        actions = [
            row[0]
            for row in connection.execute(
                "SELECT action FROM actions WHERE match_id = ?", (match_id,)
            )
        ]
    return status == "live" and not any('"resign"' in action for action in actions)


async def start_timed_match(database: Path, port: int) -> int | None:
    """A timed two-player match, the server killed at once; its id if the deadline was still
    pending at the kill (None if the server applied it first)."""
    base = f"127.0.0.1:{port}"
    with server_process(database, port) as process:
        await wait_healthy(base)
        async with httpx.AsyncClient(base_url=f"http://{base}", timeout=30, verify=False) as http:
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
            match_id: int = joined.json()["match_id"]
        # Before every seat has acted, a clock that runs out aborts the match instead.
        acted = await every_seat_acts(base, table["id"], [anna["token"], bela["token"]])
        process.kill()
        process.wait(10)
    return match_id if acted is not None and still_pending(database, match_id) else None


async def test_a_deadline_pending_at_sigkill_is_applied_once_after_the_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLOCK_BANK_SECONDS", "0")
    port = free_port()
    base = f"127.0.0.1:{port}"
    for attempt, move_seconds in enumerate(MOVE_SECONDS):
        monkeypatch.setenv("CLOCK_MOVE_SECONDS", str(move_seconds))
        database = tmp_path / f"talon-{attempt}.db"
        match_id = await start_timed_match(database, port)
        if match_id is not None:
            break
    else:
        raise AssertionError("every kill came after its match's deadline had been applied")
    await asyncio.sleep(move_seconds)  # the deadline passes while no server runs
    for _ in range(2):  # back: the consequence happens; once more: it does not happen again
        with server_process(database, port) as process:
            await wait_healthy(base)
            record = await record_once_over(base, match_id)
            async with httpx.AsyncClient(
                base_url=f"http://{base}", timeout=30, verify=False
            ) as http:
                log = (await http.get(f"/api/matches/{match_id}/log")).json()
            process.kill()
            process.wait(10)
        resigned = [a for a in log["actions"] if a["action"]["type"] == "resign"]
        assert len(resigned) == 1 and len(record["abandoned"]) == 1
        seat = record["abandoned"][0]["seat"]
        assert record["abandoned"][0]["consequence"] == "forfeit"
        assert resigned[0]["seat"] == seat and record["winner"] == 1 - seat
