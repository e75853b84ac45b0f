"""Sign-ups with forged ``X-Forwarded-For`` headers, as a client trying to pass as many."""

from __future__ import annotations

import httpx

ATTEMPTS = 40


async def forged_signups(base: str, attempts: int = ATTEMPTS) -> list[int]:
    """``attempts`` sign-ups through ``base``, each claiming another client address in
    ``X-Forwarded-For``; the status of each answer, in order."""
    statuses = []
    async with httpx.AsyncClient(base_url=f"http://{base}", timeout=10) as http:
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
