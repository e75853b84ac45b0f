"""A match rates exactly once even when the server is killed (SIGKILL) around the rating
update: before it, after it but before the commit, or right after the commit.

The real ``talon serve`` is told to kill itself at one crash point (``TALON_CRASH_AT``, see
``app/common/faults.py``) when a rated match ends by resignation; it is restarted, the loser
resigns again if the result was lost with the crash, and both ratings must equal one
openskill update: never none, never two.
"""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import httpx
import pytest
from openskill.models import PlackettLuce

from tests.api.test_accounts import account
from tests.reliability.server import served, wait_healthy
from tests.support import Api, Client, free_port

LIBRARY = PlackettLuce(mu=1500.0, sigma=500.0, beta=250.0, tau=5.0)


async def resign(base: str, table_id: str, token: str) -> dict[str, Any] | None:
    """The player resigns; the ack, or None when the server died first."""
    client, welcome = await Client.open(base, table_id, token)
    message = {"type": "action", "id": "r", "version": welcome["version"]}
    await client.send({**message, "action": {"type": "resign"}})
    try:
        return await client.recv_until_any(("ack", "error"))
    except Exception:  # the connection dropped: the server is gone
        return None


@pytest.mark.slow
@pytest.mark.parametrize("point", ["before_rating", "after_rating", "after_result_commit"])
async def test_a_crash_around_the_rating_update_rates_the_match_once(
    tmp_path: Path, point: str
) -> None:
    database, log = tmp_path / "talon.db", tmp_path / "server.log"
    port = free_port()
    base = f"127.0.0.1:{port}"
    with served(database, port, log, TALON_CRASH_AT=point) as first:
        await wait_healthy(base)
        async with httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False) as http:
            api = Api(http)
            anna, bela = await account(api, "anna"), await account(api, "bela", "Bela")
            table = await api.table(anna["token"], rated=True)
            table = await api.join(bela["token"], table["id"], invite_code=table["invite_code"])
        assert await resign(base, table["id"], bela["token"]) is None
        assert first.wait(10) == -signal.SIGKILL

    with served(database, port, log):
        await wait_healthy(base)
        async with httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False) as http:
            api = Api(http)
            match = await api.call("GET", f"/api/matches/{table['match_id']}")
            if point == "after_result_commit":
                assert match["status"] == "finished"  # stored before the crash
            else:
                assert match["status"] == "live"  # result and rating went together
            answer = await resign(base, table["id"], bela["token"])
            assert answer is not None
            assert answer["type"] == ("error" if point == "after_result_commit" else "ack")
            match = await api.call("GET", f"/api/matches/{table['match_id']}")
            profiles = [await api.call("GET", f"/api/players/{p['id']}") for p in (anna, bela)]

    assert match["status"] == "finished" and match["winner"] == 0 and match["rated"]
    [[won], [lost]] = LIBRARY.rate([[LIBRARY.rating()], [LIBRARY.rating()]], ranks=[0, 1])
    for profile, expected in zip(profiles, (won, lost), strict=True):
        [rating] = profile["ratings"]
        assert rating["matches"] == 1
        assert (rating["rating"], rating["deviation"]) == (
            round(expected.mu),
            round(expected.sigma),
        )
        assert len(rating["trend"]) == 1
