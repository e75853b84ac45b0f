"""Test servers forked from a process that has already imported the server.

A ``talon serve`` started with ``python -m`` spends a few seconds importing FastAPI,
SQLAlchemy, the bots and the rest before it listens; a suite that starts a server for each
browser test pays that a hundred times. Here a fork server (``multiprocessing``'s
``forkserver``, one per test process) imports the server once; each test server is a fork of
it that reads its environment afresh and runs ``talon serve`` exactly as the command line
does. ``ServerProcess`` answers the part of ``subprocess.Popen`` the tests use.

The fork server imports the starting process's main module too (as ``multiprocessing``
does), so a script run as ``python script.py`` that uses ``ServerProcess`` must keep its work
under ``if __name__ == "__main__":``.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from functools import cache
from pathlib import Path

import uvicorn  # noqa: F401

import app.cli
import app.main
from tests.support import in_thread, migrated_sqlite

ROOT = Path(__file__).resolve().parents[1]

_context = multiprocessing.get_context("forkserver")
_context.set_forkserver_preload([__name__])


def _serve(argv: list[str], env: dict[str, str], log: str | None, own_group: bool) -> None:
    """The forked child: the environment it was given, output to ``log`` (else stderr kept,
    stdout dropped), then ``talon`` with ``argv``, as ``python -m app.cli`` would run it."""
    if own_group:
        os.setsid()
    os.chdir(ROOT)
    os.environ.clear()
    os.environ.update(env)
    app.cli.get_settings.cache_clear()
    null = os.open(os.devnull, os.O_WRONLY)
    if log is not None:
        sink = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        os.dup2(sink, 1)
        os.dup2(sink, 2)
    else:
        os.dup2(null, 1)
    sys.exit(app.cli.main(argv))


@cache
def _template() -> Path:
    """A SQLite database with every migration applied, made once per test process."""
    folder = Path(tempfile.mkdtemp(prefix="talon-template-"))
    atexit.register(shutil.rmtree, folder, True)
    in_thread(lambda: migrated_sqlite(folder / "template.db", folder / "unused.db"))
    return folder / "template.db"


def fresh_sqlite(database: Path) -> None:
    """A SQLite database about to be served for the first time starts as a copy of a migrated
    one: its server's own migration step then finds nothing to do, and starts sooner."""
    if not database.exists():
        shutil.copyfile(_template(), database)


class ServerProcess:
    """A forked ``talon`` process, with the ``Popen`` methods the tests call."""

    def __init__(
        self,
        argv: list[str],
        env: Mapping[str, str],
        log: Path | None = None,
        own_group: bool = False,
    ) -> None:
        self.args = argv
        self._process = _context.Process(
            target=_serve, args=(argv, dict(env), str(log) if log else None, own_group)
        )
        self._process.start()
        assert self._process.pid is not None
        self.pid: int = self._process.pid

    @property
    def returncode(self) -> int | None:
        return self._process.exitcode

    def poll(self) -> int | None:
        return self._process.exitcode

    def wait(self, timeout: float | None = None) -> int:
        self._process.join(timeout)
        code = self._process.exitcode
        if code is None:
            raise subprocess.TimeoutExpired(self.args, timeout or 0)
        return code

    def send_signal(self, signal: int) -> None:
        if self._process.exitcode is None:
            os.kill(self.pid, signal)

    def terminate(self) -> None:
        self._process.terminate()

    def kill(self) -> None:
        self._process.kill()
