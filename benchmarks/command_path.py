"""A move's cost on the event loop's thread, in process: the table's command without sockets.

``--tables`` two-player tables (matches to 100 game points, as ``load.py`` plays them, and a
per-move turn clock unless ``--clock none``) are opened
through the table service on a fresh SQLite file; each seat's viewer is a subscriber that
keeps the last frame it is given, as a connection queues it. Every table keeps one action in
flight: a random legal action of the seat on move, through ``TableAuthority.act`` as a
socket's message goes (the ack queued on the actor's viewer), so the committer meets the
batches it meets in the server. It prints the event loop thread's CPU time per accepted
action (``time.thread_time``: the commit thread's share is not in it), which covers the
command (rules, rendering for each viewer, the clock, the commit's hand-off, the fan-out)
and this benchmark's own choice of a legal action, the same for every tree. Once the tables
are seated it settles the interpreter as the server does once started (``settle_runtime``:
the cycle collector's thresholds, the heap so far frozen, the switch interval), and it runs
on uvloop when installed, as uvicorn does: with the defaults, the collector's walks over the
unfrozen heap added tens of µs per action that the server does not pay.

The server's other costs on that thread (reading and parsing frames, writing them to the
sockets) are ``relay_floor.py``'s; this one measures a change to the command alone, side by
side, with less noise than a whole server. ``--against TREE`` measures another checkout
(``git archive`` of the commit before a change, unpacked) in turns with this one. Never
asserts a timing.

``--instructions`` counts instead of timing: each measurement runs under valgrind's callgrind
with its counting switched on only while the actions are measured, and prints the thousands of
instructions the loop's thread ran per action. Those moved by 2% at most from run to run where
the CPU time moves by 10-20%, so a change of a few microseconds shows; they leave out the
kernel's work and the cost of cache misses, so a change worth keeping is timed too. Under
callgrind everything runs some fifty times slower: use a few tables and a few thousand moves.

    .venv/bin/python benchmarks/command_path.py --tables 200 --moves 20000 --rounds 5
    .venv/bin/python benchmarks/command_path.py --rounds 5 --against /tmp/talon-before
    .venv/bin/python benchmarks/command_path.py --instructions --tables 20 --moves 3000 \\
        --rounds 2 --against /tmp/talon-before
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__:  # imported as benchmarks.command_path
    from benchmarks import side_by_side
else:  # run as a script: the sibling module
    import side_by_side


class Viewer:
    """A seat's subscriber: keeps the last frame, as a connection's queue takes it."""

    def __init__(self) -> None:
        self.seat: int | None = None  # kept right by the table
        self.last: Any = None

    def deliver(self, frame: Any) -> None:
        self.last = frame


# Set in the process callgrind runs (``count_instructions``): it switches counting on and off.
UNDER_CALLGRIND = "TALON_UNDER_CALLGRIND"

Window = Callable[[bool], None]  # told True when the measured actions start, False at the end


def measure(
    tables: int, moves: int, clock: str, seed: int, window: Window | None = None
) -> tuple[float, int, int]:
    """Microseconds of the loop thread's CPU per accepted action over ``moves`` actions, how
    many actions were refused and how many were measured (the ``app`` package is whichever
    tree is first on ``sys.path``); ``window`` hears when the measured actions start and
    end."""
    from app.store.migrate import upgrade

    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{folder}/commands.db"
        upgrade(url)
        try:  # the server's event loop (uvicorn picks uvloop when it is installed)
            import uvloop
        except ImportError:
            return asyncio.run(play_tables(url, tables, moves, clock, seed, window))
        return uvloop.run(play_tables(url, tables, moves, clock, seed, window))


async def play_tables(
    url: str, tables: int, moves: int, clock: str, seed: int, window: Window | None = None
) -> tuple[float, int, int]:
    """See ``measure``."""
    from app.engine import legal_actions
    from app.services import Services
    from app.settings import Settings

    try:
        from app.common.runtime import settle_runtime
    except ImportError:  # a tree from before it had a module of its own
        from app.main import settle_runtime

    services = Services.build(Settings(database_url=url, bot_workers=0, log_level="warning"))
    await services.start()
    rng = random.Random(seed)
    played = refused = 0
    counting = False
    try:
        seated = []
        for number in range(tables):
            anna, _ = await services.tables.create_player(f"Anna {number}")
            bela, _ = await services.tables.create_player(f"Bela {number}")
            table = await services.tables.create_table(
                anna, "sixty-six", {"target": 100}, "public", clock=clock
            )
            await services.tables.join(bela, table["id"], None, None)
            authority = await services.tables.authority(table["id"])
            viewers = []
            for player in (anna, bela):
                viewer = Viewer()
                await authority.attach(viewer, player.id, None)
                viewers.append(viewer)
            seated.append((authority, [anna.id, bela.id], viewers))
        settle_runtime()  # as the server does once started: its collector, its switch interval

        async def play(authority: Any, players: list[str], viewers: list[Viewer]) -> None:
            nonlocal played, refused
            while played < moves:
                state = authority.state
                if state is None or state.match_over or state.to_move is None:
                    return  # this table's match is over
                seat = state.to_move
                choices = [a for a in legal_actions(state, seat) if a.type != "resign"]
                action = rng.choice(choices).to_json()
                try:
                    await authority.act(
                        players[seat], authority.version, action, reply=viewers[seat]
                    )
                except Exception:  # a refusal: counted, never expected
                    refused += 1
                    return
                if counting:
                    played += 1

        warm = [asyncio.create_task(play(*table)) for table in seated]
        await asyncio.sleep(0.5)  # every table under way, the committer's batches formed
        counting = True
        if window is not None:
            window(True)
        started = time.thread_time()
        await asyncio.gather(*warm)
        spent = time.thread_time() - started
        if window is not None:
            window(False)
    finally:
        await services.close()
    return spent / max(played, 1) * 1e6, refused, played


def callgrind_counts(counting: bool) -> None:
    """Switch callgrind's counting on or off in this process (``measure``'s window)."""
    switch = "on" if counting else "off"
    subprocess.run(
        ["callgrind_control", "-i", switch, str(os.getpid())],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def count_instructions(arguments: list[str]) -> float:
    """Run this ``--one`` measurement (``arguments``) again under callgrind and return the
    thousands of instructions its loop thread ran per measured action."""
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        raise SystemExit("--instructions needs valgrind (Debian's package: valgrind)")
    with tempfile.TemporaryDirectory() as folder:
        command = [
            *("valgrind", "--tool=callgrind", "--instr-atstart=no", "--separate-threads=yes"),
            f"--callgrind-out-file={folder}/callgrind.%p",
            *(sys.executable, __file__, *arguments),
        ]
        environment = {**os.environ, UNDER_CALLGRIND: "1"}
        done = subprocess.run(command, capture_output=True, text=True, env=environment)
        if done.returncode != 0:
            raise SystemExit(f"the run under callgrind failed:\n{done.stderr[-3000:]}")
        played = int(done.stdout.split()[-1])
        # A report per thread; the first thread's (``-01``) is the event loop's.
        (loop_thread,) = Path(folder).glob("callgrind.*-01")
        return counted(loop_thread.read_text()) / max(played, 1) / 1000


def counted(report: str) -> int:
    """The instructions a callgrind report (of one thread) counted: its ``totals:`` line."""
    found = re.search(r"^totals: (\d+)", report, re.MULTILINE)
    if found is None:
        raise ValueError("a callgrind report without its totals line")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--moves", type=int, default=20_000, help="actions measured")
    parser.add_argument("--clock", choices=("move", "none"), default="move")
    parser.add_argument("--seed", type=int, default=66)
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count the loop thread's instructions per action under callgrind (valgrind)",
    )
    side_by_side.add_arguments(parser)
    args = parser.parse_args()
    if args.one is not None:
        if args.instructions and UNDER_CALLGRIND not in os.environ:
            print(f"{count_instructions(sys.argv[1:]):.1f}")
            return
        sys.path.insert(0, str(args.one))
        window = callgrind_counts if args.instructions else None
        per_move, refused, played = measure(args.tables, args.moves, args.clock, args.seed, window)
        if refused:
            raise SystemExit(f"{refused} actions were refused")
        print(played if args.instructions else f"{per_move:.2f}")
        return
    print(f"{args.tables} tables ({args.clock} clock), {args.moves} actions a measurement")
    arguments = ["--tables", str(args.tables), "--moves", str(args.moves)]
    arguments += ["--clock", args.clock, "--seed", str(args.seed)]
    unit = "us per action"
    if args.instructions:
        arguments.append("--instructions")
        unit = "k instructions per action (loop thread)"
    side_by_side.in_turns(__file__, arguments, args.rounds, args.against, unit)


if __name__ == "__main__":
    main()
