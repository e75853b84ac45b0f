"""Sign-ups with forged ``X-Forwarded-For`` headers, as a client trying to pass as many."""

from __future__ import annotations

import asyncio
import contextlib

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

ATTEMPTS = 40


async def forged_signups(base: str, attempts: int = ATTEMPTS) -> list[int]:
    """``attempts`` sign-ups through ``base``, each claiming another client address in
    ``X-Forwarded-For``; the status of each answer, in order."""
    statuses = []
    async with httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False) as http:
        for number in range(attempts):
            forged = f"203.0.113.{number + 1}, 198.51.100.{number + 1}"
            response = await http.post(
                "/api/players",
                json={"name": f"Forger {number}"},
                headers={"X-Forwarded-For": forged},
            )
            statuses.append(response.status_code)
            if response.status_code == 429:
                assert response.json()["error"]["code"] == "rate_limited", response.text
    return statuses


async def forged_sockets(base: str, count: int) -> int | None:
    """``count`` table sockets opened through ``base`` and kept open (none greets), each
    claiming another client address in ``X-Forwarded-For``; the close code of the last one
    (4029 when the cap on one address's sockets counted all of them as one address; else it
    waits for its greeting until the server gives up on it, 4000)."""
    async with contextlib.AsyncExitStack() as stack:
        for number in range(count):
            socket = await stack.enter_async_context(
                connect(
                    f"ws://{base}/ws/tables/any",
                    additional_headers={"X-Forwarded-For": f"203.0.113.{number + 1}"},
                )
            )
        try:
            while True:
                await asyncio.wait_for(socket.recv(), 30)
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None
