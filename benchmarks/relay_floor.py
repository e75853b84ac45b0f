"""The floor under Talon's cost per move: a bare WebSocket relay measured beside ``talon serve``.

The relay is a FastAPI application with one WebSocket route, run by uvicorn with the options
``talon serve`` uses (``app.cli.uvicorn_options``: the same event loop, HTTP and WebSocket
implementations, frame limit, pings and no compression). It has the traffic shape of a
table and nothing else: two seats per table; an ``action`` is answered with an ``update`` to
both seats and an ``ack`` to the sender, and the seat on move alternates. No rules, no
storage, no redaction, no clock. Its frames are about the size of Talon's.

Both servers are driven by the same lean players (``players.py``, as ``load.py`` drives
Talon), one action in flight per table, and both are measured the same way: the server
process's CPU time over the run, divided by the round trips it answered. The runs alternate
(Talon, relay, Talon, relay, ...) so that both meet the same load from other processes on a
shared machine; each pair's ratio is printed, then the median. Never asserts a timing.
With ``--against TREE`` each round also runs the Talon of another checkout (for example
``git archive`` of the commit before a change, unpacked), so that old and new alternate too:
the other tree first in odd rounds, this one first in even rounds (a round's first run tends
to measure lower), then the relay.

    .venv/bin/python benchmarks/relay_floor.py --tables 200 --duration 20 --rounds 3
    .venv/bin/python benchmarks/relay_floor.py --rounds 3 --against /tmp/talon-before

``--idle N`` measures the relay's memory instead: N sockets opened and greeted, two to a
table, then held idle; it prints the relay's RSS per connection, the floor under
``connections.py``'s figure for Talon (docs/architecture.md, "Performance").

    .venv/bin/python benchmarks/relay_floor.py --idle 2000
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx
import orjson
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

if __package__:  # imported as benchmarks.relay_floor (by the tests)
    from benchmarks import load
else:  # run as a script: the sibling module
    import load

# What the relay offers the seat on move: a hand of plays, as Talon's ``legal`` lists them.
LEGAL = [{"type": "play", "card": card} for card in ("AH", "TH", "KS", "QS", "JD", "9C")]


class RelayTable:
    """A table to the relay: its version, the seat on move and each seat's socket."""

    def __init__(self) -> None:
        self.version = 0
        self.to_move = 0
        self.sockets: dict[int, Any] = {}

    def view(self, seat: int) -> dict[str, Any]:
        return {"to_move": self.to_move, "legal": LEGAL if seat == self.to_move else []}

    def update(self, seat: int, mover: int, action: Any) -> str:
        """The ``update`` frame ``seat`` gets after ``mover``'s action (about Talon's size)."""
        frame = {
            "type": "update",
            "match_id": 1,
            "version": self.version,
            "events": [{"type": "played", "seat": mover, "action": action}],
            "to_move": self.to_move,
            "abortable": False,
            "legal": LEGAL if seat == self.to_move else [],
            "unplayable": {},
            "declarable": [],
            "clock": {"mode": "move", "seat": self.to_move, "remaining": [60.0, 60.0]},
        }
        return orjson.dumps(frame).decode()


def relay_app() -> FastAPI:
    """The relay: ``/ws/tables/{id}`` (seat 0 or 1 from the hello's token) and ``/healthz``."""
    app = FastAPI()
    tables: dict[str, RelayTable] = {}

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        table = tables.setdefault(table_id, RelayTable())
        seat: int | None = None
        try:
            while True:
                message = orjson.loads(await websocket.receive_text())
                kind = message.get("type")
                if kind == "hello":
                    seat = int(message["token"])
                    table.sockets[seat] = websocket
                    view = table.view(seat)
                    welcome = {"type": "welcome", "version": table.version, "view": view}
                    await websocket.send_text(orjson.dumps(welcome).decode())
                elif kind == "action" and seat is not None:
                    if message.get("version") != table.version or seat != table.to_move:
                        error = {"type": "error", "id": message.get("id"), "code": "stale_version"}
                        await websocket.send_text(orjson.dumps(error).decode())
                        continue
                    table.version += 1
                    table.to_move = 1 - seat
                    for viewer, socket in list(table.sockets.items()):
                        await socket.send_text(table.update(viewer, seat, message.get("action")))
                    ack = {"type": "ack", "id": message.get("id"), "version": table.version}
                    await websocket.send_text(orjson.dumps(ack).decode())
        except WebSocketDisconnect:
            pass
        finally:
            if seat is not None and table.sockets.get(seat) is websocket:
                del table.sockets[seat]
            if not table.sockets:
                tables.pop(table_id, None)

    return app


def serve(port: int) -> None:
    """Run the relay on ``port`` as ``talon serve`` runs Talon."""
    import uvicorn

    sys.path.insert(0, str(load.ROOT))
    from app.cli import served_at, uvicorn_options
    from app.settings import Settings

    settings = served_at(Settings(), "127.0.0.1", port)
    uvicorn.run(relay_app(), **uvicorn_options(settings))


def start_relay(port: int, database: Path) -> subprocess.Popen[bytes]:
    """The relay in a process of its own, with the environment a benchmarked Talon gets."""
    return subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--serve", str(port)],
        cwd=load.ROOT,
        env=load.server_environment(database),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


async def measure_relay(args: argparse.Namespace) -> load.Run:
    """One run against the relay: ``args.tables`` tables played as ``load.py`` plays them."""
    port = load.free_port()
    base = f"127.0.0.1:{port}"
    tmp = tempfile.TemporaryDirectory(prefix="talon-relay-")
    process = start_relay(port, Path(tmp.name) / "unused.db")
    try:
        async with httpx.AsyncClient(base_url=f"http://{base}", timeout=30, verify=False) as http:
            await load.wait_healthy(http)
        tables = [(f"t{n}", ["0", "1"]) for n in range(args.tables)]
        return await load.drive(tables, base, process.pid, args)
    finally:
        load.stop_server(process)
        tmp.cleanup()


async def measure_idle(count: int) -> None:
    """Print the relay's server memory per idle connection: ``count`` sockets opened and
    greeted (two seats a table), held for two seconds, then closed."""
    from soak import raise_open_file_limit
    from websockets.asyncio.client import connect

    raise_open_file_limit()
    port = load.free_port()
    base = f"127.0.0.1:{port}"
    tmp = tempfile.TemporaryDirectory(prefix="talon-relay-")
    process = start_relay(port, Path(tmp.name) / "unused.db")
    sockets = []
    try:
        async with httpx.AsyncClient(base_url=f"http://{base}", timeout=30, verify=False) as http:
            await load.wait_healthy(http)
        await asyncio.sleep(1)
        before = load.rss_mib(process.pid) or float("nan")
        gate = asyncio.Semaphore(100)

        async def open_one(number: int) -> None:
            async with gate:
                url = f"ws://{base}/ws/tables/t{number // 2}"
                socket = await connect(url, compression=None, ping_interval=None)
                sockets.append(socket)
                hello = {"type": "hello", "token": str(number % 2)}
                await socket.send(orjson.dumps(hello).decode())
                await socket.recv()  # the welcome

        await asyncio.gather(*(open_one(number) for number in range(count)))
        await asyncio.sleep(2)
        held = load.rss_mib(process.pid) or float("nan")
        per = (held - before) * 1024 / max(len(sockets), 1)
        print(
            f"the bare relay: {len(sockets)} idle connections, RSS {before:.0f} MiB before and"
            f" {held:.0f} MiB holding them: {per:.1f} KiB per connection"
        )
    finally:
        for socket in sockets:
            await socket.close()
        load.stop_server(process)
        tmp.cleanup()


async def measure_other(args: argparse.Namespace, number: int) -> load.Run:
    """One run of the Talon of ``--against``."""
    print(f"--- round {number} of {args.rounds}: Talon of {args.against}", flush=True)
    run = await load.measure(args, args.against)
    load.report(run)
    return run


async def main(args: argparse.Namespace) -> None:
    if args.idle:
        await measure_idle(args.idle)
        return
    ratios = []
    earlier: list[float] = []  # --against: the other tree's ratio, each round
    for number in range(1, args.rounds + 1):
        # --against: the two Talons take turns at going first (the first run of a round
        # measured lower more often than not), then the relay.
        other_first = args.against is not None and number % 2 == 1
        if other_first:
            before = await measure_other(args, number)
        print(f"--- round {number} of {args.rounds}: Talon (talon serve, SQLite)", flush=True)
        talon = await load.measure(args)
        load.report(talon)
        if args.against is not None and not other_first:
            before = await measure_other(args, number)
        print(f"--- round {number} of {args.rounds}: the bare relay", flush=True)
        relay = await measure_relay(args)
        load.report(relay, "round trips", "round trip")
        ratio = talon.server_us_per_move / relay.server_us_per_move
        ratios.append(ratio)
        if args.against is not None:
            earlier.append(before.server_us_per_move / relay.server_us_per_move)
            print(
                f"=== round {number}: Talon of {args.against} {before.server_us_per_move:.0f}"
                f" us per move: ratio {earlier[-1]:.2f}",
                flush=True,
            )
        print(
            f"=== round {number}: Talon {talon.server_us_per_move:.0f} us per move,"
            f" relay {relay.server_us_per_move:.0f} us per round trip: ratio {ratio:.2f}",
            flush=True,
        )
    print(
        f"server CPU per move over the relay's, each round: "
        f"{', '.join(f'{r:.2f}' for r in ratios)}; median {statistics.median(ratios):.2f}"
    )
    if earlier:
        print(
            f"the same for {args.against}: "
            f"{', '.join(f'{r:.2f}' for r in earlier)}; median {statistics.median(earlier):.2f}"
        )


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200, choices=range(1, 2001), metavar="T")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds per run, at most 300")
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        choices=range(1, 11),
        metavar="R (1-10)",
        help="Talon then the relay, R times",
    )
    parser.add_argument("--max-moves", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--against",
        type=Path,
        metavar="TREE",
        help="also run the Talon of another checkout (such as the commit before a change)"
        " first in each round, against the same relay run",
    )
    parser.add_argument(
        "--idle",
        type=int,
        default=0,
        choices=range(0, 20_001),
        metavar="N",
        help="instead: the relay's memory per connection, N idle sockets held",
    )
    parser.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.duration = min(max(args.duration, 1.0), 300.0)
    # What load.measure reads: a server started here, the default clock, no pace, no profile.
    args.url, args.clock, args.pace, args.profile = None, None, 0.0, None
    args.count_greetings = False  # both are measured from the moment every table is greeted
    return args


if __name__ == "__main__":
    arguments = parse()
    if arguments.serve is not None:
        serve(arguments.serve)
    else:
        try:
            import uvloop
        except ImportError:
            asyncio.run(main(arguments))
        else:
            uvloop.run(main(arguments))
