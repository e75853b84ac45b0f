"""A long match keeps only its newest version records: memory stays flat, resuming still works.

A viewer at most ``RECORDS_KEPT`` versions behind gets a short welcome and exactly the updates
it missed; one further behind gets a full welcome, which is always correct.
"""

from __future__ import annotations

import json
import random

from app.services import Services
from app.tables import presenter
from app.tables.authority import RECORDS_KEPT, RECORDS_SLACK
from tests.tables.helpers import play_random, started_table


async def test_a_long_match_keeps_only_its_newest_records(services: Services) -> None:
    authority, players = await started_table(services, {"target": 100})
    moves = 3 * RECORDS_KEPT
    assert await play_random(authority, players, random.Random(5), moves) == moves
    assert RECORDS_KEPT <= len(authority.records) <= RECORDS_KEPT + RECORDS_SLACK
    assert [r.version for r in authority.records] == list(
        range(authority.version - len(authority.records) + 1, authority.version + 1)
    )

    since = authority.version - RECORDS_KEPT
    resumed = presenter.resume(authority, since, 0, max_replay=RECORDS_KEPT)
    assert resumed[0]["resumed"] and resumed[0]["version"] == since
    missed = [json.loads(frame)["version"] for frame in resumed[1:]]
    assert missed == list(range(since + 1, authority.version + 1))

    too_old = presenter.resume(
        authority, authority.version - len(authority.records) - 1, 0, max_replay=10**6
    )
    assert [f["type"] for f in too_old] == ["welcome"]
    assert too_old[0]["view"] is not None and too_old[0]["version"] == authority.version
