"""Who a pool takes out as offline: the rule ``GET /api/online`` counts by (no table socket
open, no sign of life for the window), on one worker."""

from __future__ import annotations

from app.players.online import Online


async def test_a_player_is_offline_past_the_window_unless_a_socket_is_open() -> None:
    now = [1000.0]
    online = Online(clock=lambda: now[0], window=60, refresh=10)
    online.seen("anna")
    online.connected("bela")
    assert await online.offline({"anna", "bela", "cili"}) == {"cili"}
    now[0] += 59
    assert await online.offline({"anna", "bela"}) == set()
    now[0] += 1
    assert await online.offline({"anna", "bela"}) == {"anna"}
    online.disconnected("bela")  # online for the window from now
    now[0] += 59
    assert await online.offline({"bela"}) == set()
    now[0] += 1
    assert await online.offline({"bela"}) == {"bela"}
