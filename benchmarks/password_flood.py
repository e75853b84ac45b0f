"""Password flood benchmark: what hashing requests cost everyone else.

Starts ``talon serve`` on a free loopback port with a fresh SQLite file, makes an account,
then measures a normal password sign-in (from its own loopback address) alone, and while a
flood of ``--flood`` concurrent requests that each make the server check or hash a password
is under way: account creations from one guest token that is already an account (one
address), and wrong-password sign-ins spread over ``--flood`` loopback addresses (127.0.0.x).
Prints the sign-in's time, how the flood was answered and the server's CPU time. Never
asserts a timing. ``--root`` runs another checkout's server (to compare before and after).

    .venv/bin/python benchmarks/password_flood.py --flood 80
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx

if __package__:
    from benchmarks.load import cpu_seconds, free_port, wait_healthy
else:
    from load import cpu_seconds, free_port, wait_healthy

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "plum ferry lantern"


def start_server(root: Path, port: int, database: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite+aiosqlite:///{database}",
        "LOG_LEVEL": "warning",
        "PLAYERS_PER_MINUTE": "1000000",
        "PYTHONPATH": str(root),
    }
    command = [sys.executable, "-m", "app.cli", "serve", "--port", str(port)]
    return subprocess.Popen(
        command, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def client(base: str, address: int) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=f"127.0.0.{address}")
    return httpx.AsyncClient(base_url=base, timeout=120, transport=transport)


async def timed_sign_in(base: str, address: int) -> tuple[float, int]:
    async with client(base, address) as http:
        started = time.perf_counter()
        answer = await http.post(
            "/api/accounts/sign-in", json={"handle": "owner", "password": PASSWORD}
        )
        return time.perf_counter() - started, answer.status_code


async def flood_creations(base: str, token: str, count: int) -> list[int]:
    """``count`` concurrent account creations with one token (already an account)."""
    headers = {"Authorization": f"Bearer {token}"}
    async with client(base, 2) as http:
        answers = await asyncio.gather(
            *(
                http.post(
                    "/api/accounts",
                    json={"handle": f"flood{n}", "password": f"{PASSWORD} {n}"},
                    headers=headers,
                )
                for n in range(count)
            )
        )
    return [a.status_code for a in answers]


async def flood_guesses(base: str, count: int) -> list[int]:
    """``count`` concurrent wrong-password sign-ins, each from its own address, each for
    another handle (so no per-account limit applies)."""

    async def guess(n: int) -> int:
        async with client(base, 10 + n) as http:
            body = {"handle": f"guess{n}", "password": f"wrong guess {n}"}
            return (await http.post("/api/accounts/sign-in", json=body)).status_code

    return list(await asyncio.gather(*(guess(n) for n in range(count))))


async def during(flood: asyncio.Future[list[int]], base: str) -> tuple[float, int, list[int]]:
    await asyncio.sleep(0.05)  # the flood's requests are in
    took, status = await timed_sign_in(base, 250)
    return took, status, await flood


async def main(args: argparse.Namespace) -> None:
    root = Path(args.root).resolve()
    with tempfile.TemporaryDirectory(prefix="talon-pwflood-") as folder:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = start_server(root, port, Path(folder) / "talon.db")
        try:
            async with httpx.AsyncClient(base_url=base, timeout=60, verify=False) as http:
                await wait_healthy(http)
                guest = (await http.post("/api/players", json={"name": "Owner"})).json()
                headers = {"Authorization": f"Bearer {guest['token']}"}
                body = {"handle": "owner", "password": PASSWORD}
                made = await http.post("/api/accounts", json=body, headers=headers)
                assert made.status_code == 201, made.text
            alone = [(await timed_sign_in(base, 200 + n))[0] for n in range(5)]
            cpu_before = cpu_seconds(server.pid) or 0.0
            creations = asyncio.ensure_future(flood_creations(base, guest["token"], args.flood))
            took_c, status_c, answered_c = await during(creations, base)
            guesses = asyncio.ensure_future(flood_guesses(base, args.flood))
            took_g, status_g, answered_g = await during(guesses, base)
            cpu_after = cpu_seconds(server.pid) or 0.0
        finally:
            server.terminate()
            server.wait(10)
    print(f"server: {root}")
    print(f"sign-in alone: median {statistics.median(alone) * 1000:.0f} ms over 5")
    print(
        f"{args.flood} account creations from one account's token: "
        f"{dict(sorted(Counter(answered_c).items()))}; a sign-in meanwhile: "
        f"{took_c * 1000:.0f} ms (status {status_c})"
    )
    print(
        f"{args.flood} wrong sign-ins from {args.flood} addresses: "
        f"{dict(sorted(Counter(answered_g).items()))}; a sign-in meanwhile: "
        f"{took_g * 1000:.0f} ms (status {status_g})"
    )
    print(f"server CPU during both floods: {cpu_after - cpu_before:.1f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flood", type=int, default=80)
    parser.add_argument("--root", default=str(ROOT), help="the checkout whose server runs")
    asyncio.run(main(parser.parse_args()))
