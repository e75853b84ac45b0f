"""The image tested as an operator would run it: ``scripts/container-test``.

Builds the project's Dockerfile with podman, then on one bridge network: a throwaway
PostgreSQL cluster and redis-server on the host, ``talon migrate`` in a one-off container,
two app containers, and Debian's nginx on the host running the shipped ``deploy/nginx.conf``
(``nginx -t`` first) in front of both. Through nginx: ``/healthz``, a whole match over
WebSockets (two players and a spectator), the app container of the first player killed with
SIGKILL while that player's action is in flight, the match finished through the other one
with every version seen exactly once by every viewer, then 40 sign-ups with forged
``X-Forwarded-For`` headers against the sign-up limit of 30, through nginx and straight to the
surviving container from another container (not trusted as a proxy). Every container, network,
process and folder it starts is removed on the way out, also when a step fails.

Run: ``scripts/container-test`` (``--keep-work`` keeps the folder with the build and
container logs). The built image is tagged ``localhost/talon:local`` and kept for the next
build's cache; the one it replaces is removed.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import random
import secrets
import signal
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

if "TALON_PG_BIN" not in os.environ:  # as scripts/test finds it
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        os.environ["TALON_PG_BIN"] = str(Path(found[-1]).parent)

import httpx

from tests.deploy.forged import ATTEMPTS, forged_signups
from tests.deploy.nginx import Nginx
from tests.deploy.podman import Podman, base_image, build, podman
from tests.pg import PostgresCluster
from tests.scale.cluster import RedisServer
from tests.scale.test_two_workers import Viewer, check_every_version_once, play, send_action
from tests.support import Api, free_port

IMAGE = "localhost/talon:local"
LIMIT = 30  # PLAYERS_PER_MINUTE's default, left as shipped
APPS = ("app1", "app2")


def say(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


@contextlib.contextmanager
def terminated_cleanly() -> Iterator[None]:
    """SIGTERM and SIGHUP unwind like Ctrl-C, so the clean-up below still runs."""

    def stop(signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


async def wait_healthy(http: httpx.AsyncClient, url: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        with contextlib.suppress(httpx.TransportError):
            if (await http.get(url)).status_code == 200:
                return
        if time.monotonic() > deadline:
            raise AssertionError(f"{url} did not answer 200 within {seconds:.0f} s")
        await asyncio.sleep(0.2)


async def database_revision(cluster: PostgresCluster) -> str:
    import asyncpg

    connection = await asyncpg.connect(
        host="127.0.0.1", port=cluster.port, user="talon", database="talon"
    )
    try:
        return str(await connection.fetchval("SELECT version_num FROM alembic_version"))
    finally:
        await connection.close()


class Check:
    """One run; ``figures`` collects what is printed at the end."""

    def __init__(self, work: Path, stack: contextlib.ExitStack) -> None:
        self.work = work
        self.stack = stack
        self.pods = Podman(f"talon-check-{os.getpid()}")
        stack.callback(self.pods.cleanup)
        self.figures: dict[str, Any] = {}

    def services(self) -> dict[str, str]:
        """Network, PostgreSQL, Redis; the settings every app container gets."""
        network, subnet, gateway = self.pods.network()
        self.network = network
        say(f"network {network}: {subnet}, the host (and so nginx) is {gateway}")
        cluster = PostgresCluster()
        cluster.listen = "*"  # the containers reach it through the bridge's gateway
        self.stack.callback(cluster.stop)
        cluster.start()
        with (cluster.data / "pg_hba.conf").open("a") as hba:
            hba.write(f"host all all {subnet} trust\n")
        asyncio.run(cluster.execute("SELECT pg_reload_conf()"))
        asyncio.run(cluster.execute("CREATE DATABASE talon"))
        self.cluster = cluster
        redis = RedisServer(bind="0.0.0.0", password=secrets.token_hex(16))
        self.stack.callback(redis.cleanup)
        redis.start()
        say(f"PostgreSQL on port {cluster.port}, redis-server on port {redis.port}")
        self.proxy_port = free_port()
        public = f"http://127.0.0.1:{self.proxy_port}"
        return {
            "DATABASE_URL": f"postgresql+asyncpg://talon@{gateway}:{cluster.port}/talon",
            "REDIS_URL": redis.url_at(gateway),
            "PUBLIC_URL": public,
            "ALLOWED_ORIGINS": f'["{public}"]',
            # nginx runs on the host: the containers see it at the gateway, and only there.
            "FORWARDED_ALLOW_IPS": gateway,
            # A killed worker's tables move once their leases run out: keep that short here.
            "LEASE_SECONDS": "2",
            "SYNC_INTERVAL": "0.5",
        }

    def start_apps(self, env: dict[str, str]) -> None:
        migrated = self.pods.once(IMAGE, self.network, env, "talon", "migrate")
        output = migrated.stdout + migrated.stderr
        revision = asyncio.run(database_revision(self.cluster))
        self.figures["migration"] = revision
        say(f"talon migrate: database at revision {revision}")
        if output.strip():
            (self.work / "migrate.log").write_text(output)
        self.addresses = {name: self.pods.run(name, IMAGE, self.network, env) for name in APPS}
        say(f"app containers: {self.addresses}")

    async def healthy(self) -> None:
        async with httpx.AsyncClient(timeout=5, verify=False) as http:
            for name, address in self.addresses.items():
                await wait_healthy(http, f"http://{address}:8000/healthz")
                health = podman("healthcheck", "run", f"{self.pods.prefix}-{name}", check=False)
                assert health.returncode == 0, f"{name}: HEALTHCHECK failed: {health.stderr}"
            say("both app containers answer /healthz; the image's HEALTHCHECK passes in each")
            answer = await http.get(f"http://{self.proxy.base}/healthz")
            assert answer.status_code == 200, answer.text
            page = await http.get(f"http://{self.proxy.base}/")
            assert page.status_code == 200 and "<html" in page.text.lower(), page.status_code
            say(f"through nginx: /healthz {answer.json()}, / serves the client")

    def start_proxy(self) -> None:
        upstreams = (f"{self.addresses['app1']}:8000", f"{self.addresses['app2']}:8000")
        self.proxy = Nginx(self.proxy_port, upstreams)
        self.stack.callback(self.proxy.stop)
        say(f"nginx -t: {self.proxy.check()}")
        self.proxy.start()
        say(f"nginx (deploy/nginx.conf) on {self.proxy.base} in front of {upstreams}")

    def worker_of(self, before: dict[str, int]) -> tuple[str, dict[str, int]]:
        """Which app container took the WebSocket opened since ``before`` was counted."""
        after = {name: self.pods.established(name) for name in APPS}
        grown = [name for name in APPS if after[name] > before[name]]
        assert len(grown) == 1, (before, after)
        return grown[0], after

    async def match(self) -> None:
        base = self.proxy.base
        through = SimpleNamespace(base=base)
        rng = random.Random(66)
        started = time.monotonic()
        async with httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False) as http:
            api = Api(http)
            anna, bela = await api.player("Anna"), await api.player("Bela")
            table = await api.table(anna["token"], options={"target": 7})
            joined = await api.join(bela["token"], table["id"], invite_code=table["invite_code"])
            assert joined["status"] == "live", joined
        everyone = [
            Viewer("A", anna["token"], 0),
            Viewer("B", bela["token"], 1),
            Viewer("spectator", None, None),
        ]
        counts = {name: self.pods.established(name) for name in APPS}
        where = {}
        for viewer in everyone:
            await viewer.connect(through, table["id"], None)  # type: ignore[arg-type]
            where[viewer.name], counts = self.worker_of(counts)
        say(f"WebSockets through nginx landed on: {where}")
        a, b, _ = everyone
        seats = [a, b]
        assert await play(seats, everyone, rng, 12) == 12
        while a.view["to_move"] != 0:
            assert await play(seats, everyone, rng, 1) == 1
        victim = where["A"]
        survivor = next(name for name in APPS if name != victim)
        await send_action(a, rng, "in-flight")
        self.pods.kill(victim)
        killed_at = a.version
        say(f"killed {victim} (SIGKILL) at version {killed_at}, A's action in flight")
        recovered = time.monotonic()
        async with httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False) as http:
            now = (await Api(http).call("GET", f"/api/tables/{table['id']}"))["version"]
        assert now in (killed_at, killed_at + 1), (now, killed_at)
        for viewer in everyone:
            if where[viewer.name] == victim:
                await viewer.resume(base)  # greeted once the survivor holds the lease
                where[viewer.name] = survivor
        for viewer in everyone:
            await viewer.catch_up(now)
        self.figures["recovery_s"] = time.monotonic() - recovered
        say(
            f"through nginx on {survivor}: table at version {now} (the in-flight action "
            f"{'was' if now > killed_at else 'was not'} stored); every viewer caught up "
            f"in {self.figures['recovery_s']:.2f} s"
        )
        await play(seats, everyone, rng, 10_000)
        assert a.view["match_over"], a.view
        async with httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False) as http:
            log = await Api(http).call("GET", f"/api/matches/{joined['match_id']}/log")
        for viewer in everyone:
            await viewer.nothing_more()
        check_every_version_once(log, everyone)
        for viewer in everyone:
            assert viewer.client is not None
            await viewer.client.close()
        self.figures.update(
            versions=len(log["actions"]),
            killed_at=killed_at,
            match_s=time.monotonic() - started,
            victim=victim,
        )
        say(
            f"match over after {len(log['actions'])} versions in {self.figures['match_s']:.1f} s; "
            "every viewer saw every stored version once, with exactly its own events"
        )

    async def forged(self) -> None:
        statuses = await forged_signups(self.proxy.base)
        accepted = statuses.count(201)
        # Two sign-ups (Anna and Bela) came from this address before, on one worker or the
        # other; the rest of the limit is left, and nothing past it.
        assert LIMIT - 2 <= accepted <= LIMIT, statuses
        assert statuses == [201] * accepted + [429] * (ATTEMPTS - accepted), statuses
        self.figures["forged"] = (accepted, ATTEMPTS - accepted)
        say(
            f"{ATTEMPTS} sign-ups with forged X-Forwarded-For through nginx: {accepted} "
            f"accepted, then {ATTEMPTS - accepted} refused with 429 rate_limited"
        )

    def forged_past_the_proxy(self) -> None:
        """The same sign-ups sent straight to the surviving worker from another container
        on the network: its forged headers are not trusted (it is not the proxy), so its own
        address meets the limit."""
        survivor = next(name for name in APPS if name != self.figures["victim"])
        answered = self.pods.once(
            IMAGE,
            self.network,
            {"TARGET": f"http://{self.addresses[survivor]}:8000", "ATTEMPTS": str(ATTEMPTS)},
            "python",
            "-c",
            DIRECT_SIGNUPS,
        )
        statuses = [int(word) for word in answered.stdout.split()]
        assert statuses == [201] * LIMIT + [429] * (ATTEMPTS - LIMIT), statuses
        self.figures["forged_direct"] = (LIMIT, ATTEMPTS - LIMIT)
        say(
            f"{ATTEMPTS} forged sign-ups straight to {survivor} from another container: "
            f"{LIMIT} accepted, then {ATTEMPTS - LIMIT} refused (its header was not trusted)"
        )


# Run in a container on the network: sign-ups with forged X-Forwarded-For, statuses printed.
DIRECT_SIGNUPS = """
import json, os, urllib.error, urllib.request
for number in range(int(os.environ["ATTEMPTS"])):
    request = urllib.request.Request(
        os.environ["TARGET"] + "/api/players",
        data=json.dumps({"name": f"Forger {number}"}).encode(),
        headers={"Content-Type": "application/json", "X-Forwarded-For": f"192.0.2.{number + 1}"},
    )
    try:
        status = urllib.request.urlopen(request, timeout=10).status
    except urllib.error.HTTPError as error:
        status = error.code
    print(status)
"""


def run(keep_work: bool) -> None:
    with contextlib.ExitStack() as stack:
        work = Path(tempfile.mkdtemp(prefix="talon-container-check-"))
        if not keep_work:
            stack.callback(lambda: __import__("shutil").rmtree(work, ignore_errors=True))
        check = Check(work, stack)
        base = base_image()
        if podman("image", "exists", base, check=False).returncode != 0:
            raise SystemExit(
                f"the base image {base} is not here and is never pulled by this check: "
                "pull it, or build a stand-in (README, 'Running with Docker')"
            )
        about = "\n".join(
            [
                ". /etc/os-release; echo $PRETTY_NAME",
                "python --version",
                "command -v python",
            ]
        )
        described = podman("run", "--rm", base, "sh", "-c", about).stdout.split("\n")
        check.figures["base"] = f"{base}: {', '.join(line for line in described if line)}"
        previous = podman("image", "inspect", "--format", "{{.Id}}", IMAGE, check=False).stdout
        started = time.monotonic()
        build(IMAGE, work / "build.log")
        check.figures["build_s"] = time.monotonic() - started
        say(f"built {IMAGE} in {check.figures['build_s']:.0f} s on {check.figures['base']}")
        now = podman("image", "inspect", "--format", "{{.Id}}", IMAGE).stdout
        if previous.strip() and previous != now:  # the last build's image, now untagged
            podman("rmi", previous.strip(), check=False)
        env = check.services()
        check.start_apps(env)
        check.start_proxy()
        asyncio.run(check.healthy())
        try:
            asyncio.run(check.match())
            asyncio.run(check.forged())
            check.forged_past_the_proxy()
        except BaseException:
            for name in APPS:
                log = check.pods.logs(name)
                (work / f"{name}.log").write_text(log)
                print(f"--- {name} (last lines)\n" + "\n".join(log.splitlines()[-15:]))
            print("--- nginx error log (last lines)\n" + check.proxy.error_log()[-3000:])
            raise
        say(f"passed: {check.figures}")


def main() -> int:
    keep_work = "--keep-work" in sys.argv[1:]
    with terminated_cleanly():
        run(keep_work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
