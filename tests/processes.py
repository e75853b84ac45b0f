"""Processes on this machine as the kernel lists them (``/proc``): a server's children, its
bot workers, and whether a process is still running."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

PROC = Path("/proc")
BOT_WORKER = "multiprocessing.spawn"
"""Found in the command line of every bot worker process (started with ``spawn``)."""


def _stat_fields(pid: int) -> list[str] | None:
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # The command name (2nd field) is in parentheses and may hold spaces.
    return text[text.rindex(")") + 2 :].split()


def running(pid: int) -> bool:
    """True while the process exists and is not a zombie waiting to be reaped."""
    fields = _stat_fields(pid)
    return fields is not None and fields[0] not in ("Z", "X")


def command_line(pid: int) -> str:
    """The process's arguments joined by spaces ('' once it is gone)."""
    try:
        raw = (PROC / str(pid) / "cmdline").read_bytes()
    except OSError:
        return ""
    return raw.replace(b"\0", b" ").decode(errors="replace")


def children(pid: int) -> list[int]:
    """The running processes whose parent is ``pid``."""
    found = []
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        fields = _stat_fields(int(entry.name))
        if fields is not None and fields[1] == str(pid) and running(int(entry.name)):
            found.append(int(entry.name))
    return found


def bot_workers(server_pid: int) -> list[int]:
    """The bot worker processes a server has started."""
    return [pid for pid in children(server_pid) if BOT_WORKER in command_line(pid)]


def marked(marker: str) -> list[int]:
    """Running bot worker processes (other than this one) whose environment holds ``marker``."""
    found = []
    for entry in PROC.iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        pid = int(entry.name)
        try:
            environment = (entry / "environ").read_bytes()
        except OSError:
            continue
        if marker.encode() in environment and BOT_WORKER in command_line(pid) and running(pid):
            found.append(pid)
    return found


def signal_bits(pid: int, field: str) -> int:
    """A process's signal mask from ``/proc`` (``SigBlk``: blocked, ``SigIgn``: ignored)."""
    for line in (PROC / str(pid) / "status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1], 16)
    raise LookupError(field)


def blocked_signals(answer: Any) -> None:
    """Run in a child process: put the signals it started with blocked on ``answer``."""
    answer.put(sorted(int(s) for s in signal.pthread_sigmask(signal.SIG_BLOCK, set())))
