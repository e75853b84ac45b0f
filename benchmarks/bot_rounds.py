"""How long the computer players take at tables of three and four: each computer turn, and
each round of computer turns between two moves of the human (who answers at once), with the
server's own pacing settings and bot worker process. Printed, not asserted.

    python -m benchmarks.bot_rounds [--deals 2] [--level medium]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from app.engine import view
from app.services import Services
from app.settings import Settings
from app.store.migrate import upgrade


async def measure(variant: str, level: str, deals: int, database: Path) -> None:
    url = f"sqlite+aiosqlite:///{database}"
    await asyncio.to_thread(upgrade, url)
    settings = Settings(database_url=url)
    services = Services.build(settings)
    await services.start()
    try:
        anna, _ = await services.tables.create_player("Anna")
        seats = {3: 2, 4: 3}[3 if variant == "three-hand" else 4]
        bots = {seat: level for seat in range(1, seats + 1)}
        table = await services.tables.create_table(anna, variant, {"target": 100}, "private", bots)
        authority = await services.tables.authority(table["id"])
        rng = random.Random(1)
        turns: list[float] = []
        rounds: list[float] = []
        version = authority.version
        since = round_start = time.monotonic()
        in_round = False
        while True:
            state = authority.state
            assert state is not None
            if state.deal_no > deals or state.match_over:
                break
            if authority.version != version:  # a computer moved
                now = time.monotonic()
                turns.append(now - since)
                since, version = now, authority.version
                in_round = True
            if state.to_move == 0:
                if in_round:
                    rounds.append(time.monotonic() - round_start)
                    in_round = False
                legal = view(state, 0)["legal"]
                await authority.act(anna.id, authority.version, rng.choice(legal))
                version = authority.version
                since = round_start = time.monotonic()
                continue
            await asyncio.sleep(0.002)
    finally:
        await services.close()

    def line(name: str, values: list[float]) -> str:
        return (
            f"  {name:<18} n={len(values):3d}  median {statistics.median(values):.2f} s"
            f"  mean {statistics.fmean(values):.2f} s  max {max(values):.2f} s"
        )

    print(f"{variant}, {level} computers, {deals} deal(s):")
    print(line("a computer turn", turns))
    print(line("a round of turns", rounds))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1)
    parser.add_argument("--level", default="medium")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for variant in ("three-hand", "four-hand"):
            database = Path(folder) / f"{variant}.db"
            asyncio.run(measure(variant, args.level, args.deals, database))


if __name__ == "__main__":
    main()
