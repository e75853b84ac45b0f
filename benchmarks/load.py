"""Load benchmark: simulated players on real WebSockets over loopback.

Starts ``talon serve`` on a free loopback port with a fresh SQLite file (or uses ``--url``),
seats two players at each of ``--tables`` tables, and lets every table play random legal
moves as fast as it can until ``--duration`` seconds or ``--max-moves`` accepted moves.
Prints accepted moves per second, p50/p99 from action to ack and from action to the
opponent's update, the server's resident memory, the CPU time the server and this load
generator spent per accepted move, the group commit's transactions (how many actions each,
their wall time and the commit thread's CPU time in them, from the server's ``/metrics``),
and how busy the machine's cores were otherwise (other processes skew every figure). Never
asserts a timing.

    .venv/bin/python benchmarks/load.py --tables 200 --duration 20
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
from prometheus_client.parser import text_string_to_metric_families

if __package__:  # imported as benchmarks.load (by the tests)
    from benchmarks.players import Figures, Start, play_tables, refusals
else:  # run as a script: the sibling module
    from players import Figures, Start, play_tables, refusals

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def rss_mib(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def cpu_seconds(pid: int) -> float | None:
    """User plus system CPU time a process has used so far (all its threads)."""
    return cpu_seconds_of(Path(f"/proc/{pid}/stat"))


def loop_thread_cpu_seconds(pid: int) -> float | None:
    """CPU time of a process's main thread (the server's event loop) so far; the rest of its
    CPU time is its other threads' (the committer's, the checkpointer's, executors')."""
    return cpu_seconds_of(Path(f"/proc/{pid}/task/{pid}/stat"))


def cpu_seconds_of(stat: Path) -> float | None:
    try:
        fields = stat.read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_busy_seconds() -> float:
    """CPU time all cores have spent busy so far (from /proc/stat)."""
    try:
        fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return float("nan")
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def set_up_table(
    http: httpx.AsyncClient, n: int, target: int = 100, clock: str | None = None
) -> tuple[str, list[str]]:
    """A live two-player public table (match to ``target`` game points; ``clock``: its turn
    clock, the server's default for a public table when None) and its players' tokens."""
    tokens = []
    for name in (f"A{n}", f"B{n}"):
        response = await http.post("/api/players", json={"name": name})
        tokens.append(response.json()["token"])
    headers = {"Authorization": f"Bearer {tokens[0]}"}
    body: dict[str, object] = {"variant": "sixty-six", "options": {"target": target}}
    if clock is not None:
        body["clock"] = clock
    table = (await http.post("/api/tables", json=body, headers=headers)).json()
    headers = {"Authorization": f"Bearer {tokens[1]}"}
    await http.post(f"/api/tables/{table['id']}/join", json={}, headers=headers)
    return table["id"], tokens


def start_server(
    port: int, database: Path, root: Path = ROOT, profile: Path | None = None
) -> subprocess.Popen[bytes]:
    """``talon serve`` of the tree at ``root`` (this one by default) on ``port``; with
    ``profile``, ready to be profiled (``profiled_serve.py``: SIGUSR1 starts pyinstrument,
    SIGUSR2 writes its report there)."""
    command = [sys.executable, "-m", "app.cli"]
    if profile is not None:
        command = [sys.executable, str(Path(__file__).with_name("profiled_serve.py")), str(profile)]
    return subprocess.Popen(
        [*command, "serve", "--port", str(port)],
        cwd=root,
        env=server_environment(database),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def server_environment(database: Path) -> dict[str, str]:
    """The environment of a benchmarked server: its database, quiet logs, no rate limit
    (every simulated player comes from one address and moves as fast as it can) and its
    ``/metrics``, read once the players stop (the group commit's figures)."""
    return {
        **os.environ,
        "DATABASE_URL": f"sqlite+aiosqlite:///{database}",
        "LOG_LEVEL": "warning",
        "PLAYERS_PER_MINUTE": "1000000",
        "TABLES_PER_MINUTE": "1000000",
        "WS_MESSAGES_PER_SECOND": "1000000",
        "WS_CONNECTIONS_PER_ADDRESS": "1000000",
        "EXPOSE_METRICS": "true",
    }


async def wait_healthy(http: httpx.AsyncClient) -> None:
    for _ in range(600):
        try:
            if (await http.get("/healthz")).status_code == 200:
                return
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.05)
    raise SystemExit("the server did not start")


@dataclass
class Commits:
    """The server's group commit over a run, from its ``/metrics`` (since it started: the
    greetings store no action, so these are the moves')."""

    batches: int
    actions: int
    seconds: float  # the transactions' wall time, in all
    cpu: float  # the commit thread's CPU time in them

    @classmethod
    def parse(cls, text: str) -> Commits | None:
        """From the Prometheus text, or None when the server has no such metrics (an older
        tree)."""
        samples = {
            sample.name: sample.value
            for family in text_string_to_metric_families(text)
            for sample in family.samples
        }
        try:
            return cls(
                int(samples["talon_commit_batch_actions_count"]),
                int(samples["talon_commit_batch_actions_sum"]),
                samples["talon_commit_batch_seconds_sum"],
                samples["talon_commit_thread_cpu_seconds_total"],
            )
        except KeyError:
            return None


async def read_commits(base: str) -> Commits | None:
    """The group commit's figures of the server at ``base``."""
    async with httpx.AsyncClient(base_url=f"http://{base}", timeout=30, verify=False) as http:
        response = await http.get("/metrics")
    return Commits.parse(response.text) if response.status_code == 200 else None


@dataclass
class Run:
    """What one run measured: the players' figures, how long they played, and the CPU time
    the server (None when it was not started here), this load generator and the whole
    machine spent meanwhile (seconds)."""

    tables: int
    figures: Figures
    elapsed: float
    server_cpu: float | None
    own_cpu: float
    busy: float
    rss: float | None
    loop_cpu: float | None = None  # the server's event loop thread's share of ``server_cpu``
    commits: Commits | None = None  # the group commit's figures (Talon only)

    @property
    def server_us_per_move(self) -> float:
        """The server's CPU time per accepted move (or round trip), in microseconds."""
        if self.server_cpu is None:
            return float("nan")
        return self.server_cpu * 1e6 / max(self.figures.moves, 1)


async def drive(
    tables: list[tuple[str, list[str]]],
    base: str,
    pid: int | None,
    args: argparse.Namespace,
    figures: Figures | None = None,
) -> Run:
    """Let the lean players play ``tables`` on the server at ``base`` (process ``pid``, whose
    CPU time is read before and after) for ``args.duration`` seconds or ``args.max_moves``,
    counting in ``figures`` (new ones unless given). The window opens once every table is
    greeted (``Start``): the greetings' CPU is not counted as moves' (``--count-greetings``
    opens it before the sockets connect, as earlier versions of this benchmark did)."""
    figures = Figures() if figures is None else figures
    before: dict[str, float | None] = {}

    def read_counters() -> None:
        before["server"] = cpu_seconds(pid) if pid is not None else None
        before["loop"] = loop_thread_cpu_seconds(pid) if pid is not None else None
        before["own"] = own_cpu_seconds()
        before["busy"] = machine_busy_seconds()
        before["started"] = time.perf_counter()

    start = None
    if args.count_greetings:
        read_counters()
    else:
        start = Start(len(tables), args.duration, read_counters)
    deadline = time.perf_counter() + args.duration
    await play_tables(
        tables,
        [base],
        figures,
        deadline,
        args.max_moves,
        args.seed,
        pace=args.pace / 1000,
        start=start,
    )
    elapsed = time.perf_counter() - (before["started"] or 0.0)
    if start is not None and start.greeted_at is not None:
        print(f"every table greeted after {start.greeted_at:.1f} s", file=sys.stderr, flush=True)
    own_cpu = own_cpu_seconds() - (before["own"] or 0.0)
    busy = machine_busy_seconds() - (before["busy"] or 0.0)
    rss = rss_mib(pid) if pid is not None else None
    server_cpu = loop_cpu = None
    if pid is not None and before["server"] is not None:
        now = cpu_seconds(pid)
        server_cpu = None if now is None else now - before["server"]
    if pid is not None and before["loop"] is not None:
        now = loop_thread_cpu_seconds(pid)
        loop_cpu = None if now is None else now - before["loop"]
    return Run(len(tables), figures, elapsed, server_cpu, own_cpu, busy, rss, loop_cpu)


def stop_server(process: subprocess.Popen[bytes]) -> None:
    """Interrupt the server as Ctrl-C would (it finishes what it holds), killing it if it
    does not stop within 10 s."""
    process.send_signal(signal.SIGINT)
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


async def measure(args: argparse.Namespace, root: Path = ROOT) -> Run:
    """One run against ``talon serve`` (started here on a fresh SQLite file, or ``--url``),
    of the tree at ``root`` (this one by default)."""
    process = None
    tmp = tempfile.TemporaryDirectory(prefix="talon-load-")
    if args.url:
        base = args.url.removeprefix("http://").rstrip("/")
    else:
        port = free_port()
        base = f"127.0.0.1:{port}"
        process = start_server(port, Path(tmp.name) / "load.db", root, profile=args.profile)
        print(f"server pid: {process.pid}", file=sys.stderr, flush=True)
    try:
        limits = httpx.Limits(max_connections=50)
        async with httpx.AsyncClient(
            base_url=f"http://{base}", timeout=30, limits=limits, verify=False
        ) as http:
            await wait_healthy(http)
            tables = await asyncio.gather(
                *(set_up_table(http, n, clock=args.clock) for n in range(args.tables))
            )
        print(f"{len(tables)} tables set up; playing", file=sys.stderr, flush=True)
        if process is None or args.profile is None:
            run = await drive(tables, base, process.pid if process else None, args)
        else:
            run = await profile_play(process, tables, base, args)
        run.commits = await read_commits(base)
        return run
    finally:
        if process is not None:
            stop_server(process)
        tmp.cleanup()


async def profile_play(
    process: subprocess.Popen[bytes],
    tables: list[tuple[str, list[str]]],
    base: str,
    args: argparse.Namespace,
) -> Run:
    """``drive`` with the server's profiler running once every table plays (after the
    sockets' greetings, about five moves a table) until the players stop; then its report."""
    args.profile.unlink(missing_ok=True)
    figures = Figures()

    async def start_when_playing() -> None:
        while figures.moves < 5 * len(tables):
            await asyncio.sleep(0.05)
        process.send_signal(signal.SIGUSR1)

    starter = asyncio.create_task(start_when_playing())
    run = await drive(tables, base, process.pid, args, figures)
    started = starter.done()
    starter.cancel()
    process.send_signal(signal.SIGUSR2)
    for _ in range(1200 if started else 0):  # rendering a long profile takes a while
        if args.profile.exists() and args.profile.stat().st_size:
            break
        await asyncio.sleep(0.05)
    said = f"written to {args.profile}" if started else "not taken (too few moves)"
    print(f"profile of the play {said}", file=sys.stderr, flush=True)
    return run


def report(run: Run, what: str = "accepted moves", per: str = "accepted move") -> None:
    """Print a run's figures (``what`` the players counted, ``per`` one of them)."""
    figures, elapsed = run.figures, run.elapsed
    ms = 1000
    print(f"tables: {run.tables}  players: {2 * run.tables}  duration: {elapsed:.1f} s")
    rate = f"{figures.moves / elapsed:.0f} {what.removeprefix('accepted ')}/s"
    print(f"{what}: {figures.moves}  ({rate})  refused: {figures.errors}{refusals(figures)}")
    for label, values in (
        ("action -> ack:            ", figures.ack),
        ("action -> opponent update:", figures.opponent),
    ):
        print(
            f"{label} p50 {percentile(values, 0.5) * ms:.1f} ms"
            f"  p90 {percentile(values, 0.9) * ms:.1f} ms"
            f"  p99 {percentile(values, 0.99) * ms:.1f} ms"
            f"  max {max(values, default=float('nan')) * ms:.1f} ms"
        )
    print(f"server RSS: {run.rss:.0f} MiB" if run.rss is not None else "server RSS: n/a (--url)")
    moves = max(figures.moves, 1)
    if run.server_cpu is not None:
        print(
            f"server CPU: {run.server_us_per_move:.0f} us per {per}"
            f"  ({100 * run.server_cpu / elapsed:.0f}% of one core)"
        )
        if run.loop_cpu is not None:
            others = max(0.0, run.server_cpu - run.loop_cpu)  # clock ticks: never below 0
            print(
                f"  of which the event loop's thread: {run.loop_cpu * 1e6 / moves:.0f} us,"
                f" other threads (commits): {others * 1e6 / moves:.0f} us"
            )
    else:
        print("server CPU: n/a (--url)")
    if run.commits is not None and run.commits.batches:
        commits = run.commits
        batches = commits.batches
        print(
            f"group commit: {batches} transactions, {commits.actions} actions"
            f" ({commits.actions / batches:.1f} a transaction); each transaction"
            f" {commits.seconds * ms / batches:.2f} ms of wall time,"
            f" {commits.cpu * ms / batches:.2f} ms of the commit thread's CPU"
        )
    print(
        f"load generator CPU: {run.own_cpu * 1e6 / moves:.0f} us per {per}"
        f"  ({100 * run.own_cpu / elapsed:.0f}% of one core)"
    )
    others = run.busy - run.own_cpu - (run.server_cpu or 0.0)
    print(
        f"other processes: {100 * others / elapsed:.0f}% of one core"
        f" ({os.cpu_count()} cores on this machine)"
    )


async def main(args: argparse.Namespace) -> None:
    report(await measure(args))


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tables", type=int, default=200, choices=range(1, 2001), metavar="T (1-2000)"
    )
    parser.add_argument("--duration", type=float, default=15.0, help="seconds, at most 300")
    parser.add_argument("--max-moves", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--pace",
        type=float,
        default=0.0,
        metavar="MS",
        help="each move's mean think time in ms (default 0: moves as fast as the server answers)",
    )
    parser.add_argument(
        "--clock",
        choices=("none", "move", "correspondence"),
        help="the tables' turn clock (default: the server's for a public table, a per-move one)",
    )
    parser.add_argument(
        "--count-greetings",
        action="store_true",
        help="count the sockets' greetings in the measured window (by default it opens once "
        "every table is greeted, so that the CPU per move is the moves' own)",
    )
    parser.add_argument("--url", help="an already running server (loopback only)")
    parser.add_argument(
        "--profile",
        type=Path,
        metavar="REPORT",
        help="profile the server with pyinstrument while the tables play and write the report "
        "to REPORT (.html, or .txt for text); the CPU figures then include the profiler's cost",
    )
    # Scaling out (benchmarks/scale.py): throwaway PostgreSQL and Redis, several workers.
    parser.add_argument("--workers", type=int, default=1, choices=range(1, 9), metavar="W")
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--redis", action="store_true", help="workers talk through redis-server")
    parser.add_argument(
        "--placement",
        choices=("split", "owner"),
        default="split",
        help="several workers: a table's players on different workers, or both on its owner",
    )
    parser.add_argument(
        "--compare",
        action="store_true",
        help="one worker on PostgreSQL, then --workers on PostgreSQL + Redis: CPU per move",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        choices=range(1, 11),
        metavar="R (1-10)",
        help="--compare: run the pair R times, alternating, and print each ratio and the median",
    )
    args = parser.parse_args(argv)
    args.duration = min(max(args.duration, 1.0), 300.0)
    if args.url and not any(h in args.url for h in ("127.0.0.1", "localhost", "[::1]")):
        parser.error("--url must be a loopback address")
    return args


def run(args: argparse.Namespace) -> None:
    """Run on uvloop when it is installed: the simulated players must not be the bottleneck."""
    if args.compare:
        import scale

        args.database = "postgres"
        args.workers = max(args.workers, 2)
        scale.compare(args)
        return
    if args.workers > 1 or args.database != "sqlite" or args.redis:
        import scale

        scale.main(args)
        return
    try:
        import uvloop
    except ImportError:
        asyncio.run(main(args))
    else:
        uvloop.run(main(args))


if __name__ == "__main__":
    run(parse())
