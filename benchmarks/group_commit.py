"""The group commit's own cost: the committer thread's CPU per stored action, in process.

A fresh SQLite file (migrated) holds ``--tables`` timed tables (with a preset's options, as
a table made by the service holds them), each with a live match; each batch stores one action
of ``--batch`` tables drawn at random, as the committer's thread does (``store_batch`` in a
transaction of the writer's engine: the version step with the turn clock, the action's row).
It prints the thread's CPU time per stored action. The defaults are what the server's
committer meets at 200 busy tables (one action in flight per table): about 30 actions a
batch on average, spread over every table's rows and the log's indexes. A quiet table
commits batches of one (``--batch 1``).

With ``--against TREE`` the Talon of another checkout (for example ``git archive`` of the
commit before a change, unpacked) is measured the same way, each in a process of its own,
alternating: old, new, old, new, ... Never asserts a timing.

    .venv/bin/python benchmarks/group_commit.py --tables 200 --batch 30 --batches 700 --rounds 5
    .venv/bin/python benchmarks/group_commit.py --rounds 5 --against /tmp/talon-before
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time

if __package__:  # imported as benchmarks.group_commit
    from benchmarks import side_by_side
else:  # run as a script: the sibling module
    import side_by_side

CLOCK = {"seat": 1, "left": [30.5, 29.0], "since": 12.25}  # a running turn clock's shape


def measure(tables: int, size: int, batches: int) -> float:
    """Microseconds of this thread's CPU per action stored, over ``batches`` batches of
    ``size`` tables' actions each (the ``app`` package is whichever tree is first on
    ``sys.path``)."""
    from app.engine import Rules
    from app.store import matches as match_store
    from app.store import players as player_store
    from app.store import tables as table_store
    from app.store.db import create_engine, create_writer_engine, session_factory
    from app.store.migrate import upgrade
    from app.tables.committer import Write, store_batch

    folder = tempfile.TemporaryDirectory()
    url = f"sqlite+aiosqlite:///{folder.name}/commits.db"
    upgrade(url)

    options = Rules.from_options("sixty-six").options()  # what a service-made table holds

    async def seed() -> list[tuple[str, int]]:
        engine = create_engine(url)
        async with session_factory(engine).begin() as session:
            await player_store.add_player(session, "p0", "Anna", "h0")
            await player_store.add_player(session, "p1", "Bela", "h1")
            live = []
            for number in range(tables):
                table_id = f"t{number}"
                await table_store.add_table(
                    session,
                    id=table_id,
                    invite_code="code",
                    variant="sixty-six",
                    options=options,
                    visibility="public",
                    seats=2,
                    created_by="p0",
                )
                match = await match_store.add_match(
                    session,
                    table_id=table_id,
                    variant="sixty-six",
                    rules={},
                    seed="s",
                    dealer=None,
                    base_version=0,
                    players=[(0, "p0"), (1, "p1")],
                )
                live.append((table_id, match.id))
        await engine.dispose()
        return live

    live = asyncio.run(seed())
    writer = create_writer_engine(url)
    assert writer is not None

    versions = [0] * tables
    draw = random.Random(66)

    def store() -> None:
        batch = []
        for number in draw.sample(range(tables), size):
            table_id, match_id = live[number]
            versions[number] += 1
            version = versions[number]
            write = Write(
                table_id=table_id,
                match_id=match_id,
                version=version,
                seat=version % 2,
                action={"type": "play", "card": "AS"},
                clock=(CLOCK, 1_000.0 + version),
            )
            batch.append(write)
        with writer.begin() as connection:
            store_batch(connection, batch)

    for _ in range(max(5, 2 * tables // size)):  # warm: most tables written once or more
        store()
    started = time.thread_time()
    for _ in range(batches):
        store()
    spent = time.thread_time() - started
    writer.dispose()
    folder.cleanup()
    return spent / (batches * size) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="tables in the file")
    parser.add_argument("--batch", type=int, default=30, help="actions per batch")
    parser.add_argument("--batches", type=int, default=700, help="batches per measurement")
    side_by_side.add_arguments(parser)
    args = parser.parse_args()
    if args.one is not None:
        sys.path.insert(0, str(args.one))
        print(f"{measure(args.tables, args.batch, args.batches):.2f}")
        return
    if not 1 <= args.batch <= args.tables:
        parser.error("--batch is between 1 and --tables")
    print(
        f"{args.tables} tables, batches of {args.batch} actions, "
        f"{args.batches} batches a measurement"
    )
    arguments = ["--tables", str(args.tables), "--batch", str(args.batch)]
    arguments += ["--batches", str(args.batches)]
    side_by_side.in_turns(__file__, arguments, args.rounds, args.against, "us per action")


if __name__ == "__main__":
    main()
