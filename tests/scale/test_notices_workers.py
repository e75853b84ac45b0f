"""A notice reaches the player's socket on whichever worker it is open: a challenge made on
one worker is heard at once by the challenged player's page on another, and its acceptance
there by the challenger's page on the first (the notices travel over Redis)."""

from __future__ import annotations

import contextlib
from pathlib import Path

from tests.api.test_challenges_api import answer, challenge
from tests.api.test_player_socket import PlayerSocket
from tests.scale.cluster import RedisServer, two_in_process_workers


async def test_a_challenge_and_its_answer_are_heard_on_the_other_worker(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    async with contextlib.AsyncExitStack() as stack:
        bases, (one, two) = await two_in_process_workers(stack, redis_server.url, tmp_path)
        anna, bela, cili = [await one.player(name) for name in ("Anna", "Bela", "Cili")]
        to_anna = await PlayerSocket.open(bases[1], anna["token"])  # Anna's page: worker 2
        to_bela = await PlayerSocket.open(bases[0], bela["token"])  # Bela's page: worker 1
        to_cili = await PlayerSocket.open(bases[1], cili["token"])
        for socket in (to_anna, to_bela, to_cili):
            stack.push_async_callback(socket.socket.close)
        made = await challenge(one, bela, variant="sixty-six", player_id=anna["id"])
        received = await to_anna.until("challenge_received")
        assert received["challenge"]["id"] == made["id"]
        accepted = await answer(two, anna, made, "accept")
        heard = await to_bela.until("challenge_accepted")
        assert heard["challenge"]["table_id"] == accepted["table_id"]
        await to_cili.heard_nothing()
