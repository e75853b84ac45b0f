"""The podman commands the container check runs, each recorded so that it can be undone.

Podman runs as an operator would run Docker (``podman`` takes the same arguments), with
``--runtime runc``. ``TALON_PODMAN_ARGS`` adds arguments to ``podman build`` (for example
read-only mounts of pip's configuration on a machine whose package index is set up
locally); nothing machine-specific is written here.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def podman(
    *args: str, check: bool = True, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run one podman command; its result (raises with its output when it fails)."""
    result = subprocess.run(
        ["podman", "--runtime", "runc", *args], capture_output=True, text=True, timeout=timeout
    )
    if check and result.returncode != 0:
        raise RuntimeError(f"podman {' '.join(args)} failed: {result.stderr.strip()[-2000:]}")
    return result


def base_image() -> str:
    """The image the Dockerfile starts from."""
    for line in (ROOT / "Dockerfile").read_text().splitlines():
        if line.startswith("FROM "):
            return line.split()[1]
    raise RuntimeError("the Dockerfile has no FROM line")


def build(tag: str, log: Path) -> None:
    """Build the project's Dockerfile as ``tag``, never pulling (the base must be present)."""
    extra = shlex.split(os.environ.get("TALON_PODMAN_ARGS", ""))
    command = ["build", "--pull=never", "--format", "docker", *extra, "-t", tag, str(ROOT)]
    with log.open("w") as out:
        result = subprocess.run(
            ["podman", "--runtime", "runc", *command],
            stdout=out,
            stderr=subprocess.STDOUT,
            timeout=900,
        )
    if result.returncode != 0:
        tail = log.read_text(errors="replace").splitlines()[-20:]
        raise RuntimeError("podman build failed:\n" + "\n".join(tail))


class Podman:
    """Networks and containers started by one check; ``cleanup`` removes all of them."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.containers: list[str] = []
        self.networks: list[str] = []

    def network(self) -> tuple[str, str, str]:
        """A new bridge network: its name, subnet and gateway (the host as containers see it)."""
        name = f"{self.prefix}-net"
        podman("network", "create", name)
        self.networks.append(name)
        info: dict[str, Any] = json.loads(podman("network", "inspect", name).stdout)[0]
        subnet = info["subnets"][0]
        return name, subnet["subnet"], subnet["gateway"]

    def run(self, name: str, image: str, network: str, env: dict[str, str], *command: str) -> str:
        """Start a detached container; its address on ``network``."""
        full = f"{self.prefix}-{name}"
        self.containers.append(full)
        settings = [item for key, value in env.items() for item in ("-e", f"{key}={value}")]
        podman("run", "-d", "--name", full, "--network", network, *settings, image, *command)
        info = json.loads(podman("inspect", full).stdout)[0]
        return str(info["NetworkSettings"]["Networks"][network]["IPAddress"])

    def once(
        self, image: str, network: str, env: dict[str, str], *command: str
    ) -> subprocess.CompletedProcess[str]:
        """Run a command in a container that is removed when it ends (raises if it fails)."""
        settings = [item for key, value in env.items() for item in ("-e", f"{key}={value}")]
        return podman("run", "--rm", "--network", network, *settings, image, *command, timeout=300)

    def kill(self, name: str) -> None:
        """SIGKILL a container's processes, as a crash would."""
        podman("kill", "--signal", "KILL", f"{self.prefix}-{name}")

    def logs(self, name: str) -> str:
        result = podman("logs", f"{self.prefix}-{name}", check=False)
        return result.stdout + result.stderr

    def established(self, name: str, port: int = 8000) -> int:
        """How many TCP connections to ``port`` are open in the container (its WebSockets:
        the proxy keeps no idle connections to the workers)."""
        read = "cat /proc/net/tcp /proc/net/tcp6 2>/dev/null; true"
        table = podman("exec", f"{self.prefix}-{name}", "sh", "-c", read).stdout
        local = f":{port:04X}"
        return sum(
            1
            for row in table.splitlines()[1:]
            if len(parts := row.split()) > 3 and parts[1].endswith(local) and parts[3] == "01"
        )

    def cleanup(self) -> None:
        """Remove every container and network this check made (whatever state they are in)."""
        for name in reversed(self.containers):
            with contextlib.suppress(Exception):
                podman("rm", "--force", "--time", "0", name, check=False)
        for name in reversed(self.networks):
            with contextlib.suppress(Exception):
                podman("network", "rm", "--force", name, check=False)
