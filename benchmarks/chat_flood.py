"""What filtered chat costs the server: per line, and for a table next to a flood.

Part one times the word filter on the lines that cost it most, in this process: the library's
own ``censor`` (what the filter called before: it compares each word and each run of up to
five words with every entry of its list in turn) against ``WordFilter`` (the same library's
words, stand-ins and way of cutting a line, looked up in one expression). It prints the
median of ``--repeat`` runs per line, and the lines found worst for the new filter among the
periodic 300-character lines of a small alphabet.

Part two starts ``talon serve`` (a fresh SQLite file each time) from this checkout and, with
``--old``, from another checkout of the project (the code before the change), alternating
``--rounds`` times. At each: a table with the word filter on, whose two players write
``--lines`` lines of ``"a." * 150`` from each of ``--sockets`` sockets (two per player) as fast
as they are answered, while a guest at another table pings every 20 ms. It prints the lines
taken and refused, the server's CPU seconds during the flood, and the other table's median
and worst ping during the flood (and its worst ping in the two seconds before, for the
machine's own noise). Never asserts anything.

    .venv/bin/python benchmarks/chat_flood.py --old ../old-checkout
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from load import free_port, start_server, wait_healthy
from websockets.asyncio.client import ClientConnection, connect

from app.chat.text import WordFilter

ROOT = Path(__file__).resolve().parents[1]

LINES = {
    '"a." * 150': "a." * 150,
    '"a " * 150': "a " * 150,
    '"*." * 150': "*." * 150,
    '"@ ." * 100': "@ ." * 100,
    '"sh*t " * 60': "sh*t " * 60,
    '"a" * 300': "a" * 300,
}
ALPHABET = "a*@1l. -"


def median_ms(censor: Any, line: str, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        censor(line)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def per_line(repeat: int) -> None:
    from better_profanity import Profanity  # type: ignore[import-untyped]

    library, word_filter = Profanity(), WordFilter()
    word_filter("warm up")
    found = []
    for size in (2, 3):
        for period in itertools.product(ALPHABET, repeat=size):
            line = ("".join(period) * 300)[:300]
            found.append((median_ms(word_filter, line, 3), line))
    worst = sorted(found, reverse=True)[:3]
    lines = {**LINES, **{f"{line[:12]!r}... (worst found)": line for _, line in worst}}
    print(f"per line, median of {repeat} runs (ms)       library  new filter  same output")
    for name, line in lines.items():
        old = median_ms(library.censor, line, repeat)
        new = median_ms(word_filter, line, repeat)
        same = library.censor(line) == word_filter(line)
        print(f"  {name:38} {old:9.1f} {new:11.2f}  {same}")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def greeted(base: str, table_id: str, token: str) -> ClientConnection:
    socket = await connect(f"ws://{base}/ws/tables/{table_id}", max_size=2**22)
    await socket.send(json.dumps({"type": "hello", "token": token}))
    while json.loads(await socket.recv())["type"] != "welcome":
        pass
    return socket


async def writer(socket: ClientConnection, lines: int, answers: dict[str, int]) -> None:
    await socket.send(json.dumps({"type": "chat_join"}))
    for n in range(lines):
        line = {"type": "chat", "id": n, "room": "players", "text": "a." * 150}
        await socket.send(json.dumps(line))
        while True:
            frame = json.loads(await socket.recv())
            if frame.get("id") == n and frame["type"] in ("chat_ack", "error"):
                kind = "taken" if frame["type"] == "chat_ack" else frame["code"]
                answers[kind] = answers.get(kind, 0) + 1
                break


async def pinger(socket: ClientConnection, stop: asyncio.Event, pings: list[float]) -> None:
    n = 0
    while not stop.is_set():
        n += 1
        sent = time.perf_counter()
        await socket.send(json.dumps({"type": "ping", "id": n}))
        while json.loads(await socket.recv()).get("id") != n:
            pass
        pings.append((time.perf_counter() - sent) * 1000)
        await asyncio.sleep(0.02)


async def flood(root: Path, sockets: int, lines: int) -> str:
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="talon-chat-flood-") as folder:
        process = start_server(port, Path(folder) / "talon.db", root)
        base = f"127.0.0.1:{port}"
        try:
            async with httpx.AsyncClient(
                base_url=f"http://{base}", timeout=60, verify=False
            ) as http:
                await wait_healthy(http)

                async def post(path: str, token: str | None, body: Any) -> Any:
                    headers = {"Authorization": f"Bearer {token}"} if token else {}
                    return (await http.post(path, json=body, headers=headers)).json()

                anna, bela, vera = [
                    await post("/api/players", None, {"name": n}) for n in ("Anna", "Bela", "Vera")
                ]
                body = {"clock": "none", "chat_filter": True}
                chatty = await post("/api/tables", anna["token"], body)
                await post(f"/api/tables/{chatty['id']}/join", bela["token"], {})
                quiet = await post("/api/tables", vera["token"], {"clock": "none"})
            tokens = [anna["token"], bela["token"]] * (sockets // 2)
            writers = [await greeted(base, chatty["id"], t) for t in tokens]
            watcher = await greeted(base, quiet["id"], vera["token"])
            idle: list[float] = []
            stop = asyncio.Event()
            ping_task = asyncio.create_task(pinger(watcher, stop, idle))
            await asyncio.sleep(2.0)  # the other table's pings before the flood
            stop.set()
            await ping_task
            pings: list[float] = []
            stop = asyncio.Event()
            ping_task = asyncio.create_task(pinger(watcher, stop, pings))
            answers: dict[str, int] = {}
            cpu = cpu_seconds(process.pid)
            began = time.perf_counter()
            await asyncio.gather(*(writer(w, lines, answers) for w in writers))
            wall = time.perf_counter() - began
            cpu = cpu_seconds(process.pid) - cpu
            stop.set()
            await ping_task
            for socket in (*writers, watcher):
                await socket.close()
        finally:
            process.terminate()
            process.wait(30)
    quantiles = statistics.quantiles(pings, n=100)
    taken = answers.get("taken", 0)
    return (
        f"taken {taken:3}, refused {sum(answers.values()) - taken:3}"
        f" | flood {wall:5.1f} s wall, {cpu:5.1f} s server CPU"
        f" | other table's ping: median {quantiles[49]:6.1f} ms, worst {max(pings):7.1f} ms"
        f" ({len(pings)} pings; before the flood: worst {max(idle):5.1f} ms)"
    )


async def main(args: argparse.Namespace) -> None:
    sides = [("new", ROOT)] + ([("old", Path(args.old).resolve())] if args.old else [])
    print(f'\n{args.sockets} sockets x {args.lines} lines of "a." * 150 at a filtered table')
    for round_ in range(args.rounds):
        for name, root in sides if round_ % 2 else reversed(sides):
            print(f"  round {round_ + 1} {name}: {await flood(root, args.sockets, args.lines)}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", help="another checkout of the project to compare with")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--sockets", type=int, default=4)
    parser.add_argument("--lines", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--skip-lines", action="store_true", help="only the server part")
    arguments = parser.parse_args()
    if not arguments.skip_lines:
        per_line(arguments.repeat)
    asyncio.run(main(arguments))
