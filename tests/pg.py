"""A throwaway PostgreSQL cluster for the storage and API tests.

Started once per test session with ``initdb`` and ``pg_ctl`` on a free port in a temporary
folder (as an unprivileged user when run as root) and stopped afterwards. Each test gets its
own database, copied from a migrated template. Never uses a running service.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.support import free_port

PG_BIN = Path(os.environ.get("TALON_PG_BIN", "/usr/lib/postgresql/15/bin"))
TEMPLATE = "talon_template"


class PostgresCluster:
    """One cluster in a temporary folder, reachable over TCP on 127.0.0.1."""

    def __init__(self) -> None:
        if not (PG_BIN / "initdb").exists():
            raise RuntimeError(
                f"PostgreSQL binaries not found in {PG_BIN}; scripts/test installs them "
                "(apt-get install postgresql), or set TALON_PG_BIN"
            )
        self.user = self._unprivileged_user()
        self.root = Path(tempfile.mkdtemp(prefix="talon-pg-"))
        self.port = free_port()
        self.data = self.root / "data"
        self.listen = "127.0.0.1"  # listen_addresses ("*" for containers on a bridge)
        self._count = 0

    @staticmethod
    def _unprivileged_user() -> str | None:
        if os.geteuid() != 0:
            return None
        for name in ("postgres", "nobody"):
            try:
                pwd.getpwnam(name)
                return name
            except KeyError:
                continue
        raise RuntimeError("running as root and no 'postgres' or 'nobody' user to run initdb")

    def _run(self, *args: str) -> None:
        command = [str(PG_BIN / args[0]), *args[1:]]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        """initdb and start the server; returns once it accepts connections."""
        if self.user is not None:
            shutil.chown(self.root, self.user)
        self._run("initdb", "-D", str(self.data), "-U", "talon", "--auth=trust", "-E", "UTF8")
        self.serve()

    def serve(self) -> None:
        """Start the server on the existing data folder (again, after ``halt``)."""
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses='{self.listen}' "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        log = str(self.root / "server.log")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", log, "-w", "start")

    def halt(self) -> None:
        """Stop the server as an operator would (fast shutdown: open sessions are cut off),
        keeping its data for ``serve``."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def stop(self) -> None:
        """Stop the server and delete its folder."""
        try:
            with contextlib.suppress(subprocess.CalledProcessError):  # already halted
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str) -> str:
        """An asyncpg URL for ``database`` on this cluster."""
        return f"postgresql+asyncpg://talon@127.0.0.1:{self.port}/{database}"

    async def execute(self, sql: str) -> None:
        """Run one statement outside a transaction, on the maintenance database."""
        import asyncpg

        connection = await asyncpg.connect(
            host="127.0.0.1", port=self.port, user="talon", database="postgres"
        )
        try:
            await connection.execute(sql)
        finally:
            await connection.close()

    async def fresh_database(self) -> str:
        """A new database copied from the migrated template; its URL."""
        self._count += 1
        name = f"talon_test_{self._count}"
        await self.execute(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE}")
        return self.url(name)
