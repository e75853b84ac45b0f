"""Debian's nginx running the shipped ``deploy/nginx.conf`` in front of test workers.

The file is used as shipped except for two things a test must choose: the upstream servers
(``app1:8000`` and ``app2:8000`` in the compose network) and the listening port. Each is
replaced where the file has it, and a file whose shape changed fails loudly here rather than
being tested half.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "deploy" / "nginx.conf"


def nginx_binary() -> str:
    """The nginx program (``TALON_NGINX`` or the PATH, then Debian's /usr/sbin)."""
    found = os.environ.get("TALON_NGINX") or shutil.which("nginx")
    if found is None and Path("/usr/sbin/nginx").exists():
        found = "/usr/sbin/nginx"
    if found is None:
        raise RuntimeError("nginx not found; scripts/test installs it (apt-get install nginx)")
    return found


def render(
    config: str, port: int, upstreams: tuple[str, str], tls: tuple[int, Path] | None = None
) -> str:
    """The shipped server block listening on 127.0.0.1:``port``, its two upstream servers
    replaced by ``upstreams`` (host:port each); with ``tls`` (a port and a folder holding
    ``cert.pem`` and ``key.pem``), also on that port over HTTPS, as the comment in the file
    says to add."""
    for name, target in zip(("app1:8000", "app2:8000"), upstreams, strict=True):
        config, found = re.subn(
            rf"(\n\s*server\s+){re.escape(name)}(\s)", rf"\g<1>{target}\2", config
        )
        # One line in each upstream block: any request, and a table's WebSockets.
        assert found == 2, f"deploy/nginx.conf has not two upstream lines for {name}"
    config, found = re.subn(r"(\n\s*listen\s+)80;", rf"\g<1>127.0.0.1:{port};", config)
    assert found == 1, "deploy/nginx.conf has no 'listen 80;' line"
    if tls is not None:
        tls_port, folder = tls
        lines = (
            f"listen 127.0.0.1:{tls_port} ssl;",
            f"ssl_certificate {folder / 'cert.pem'};",
            f"ssl_certificate_key {folder / 'key.pem'};",
        )
        added = "".join(f"\n    {line}" for line in lines)
        config = config.replace(f"listen 127.0.0.1:{port};", f"listen 127.0.0.1:{port};{added}")
    return config


def self_signed(folder: Path) -> None:
    """A self-signed certificate for 127.0.0.1 in ``folder`` (``cert.pem``, ``key.pem``)."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .sign(key, hashes.SHA256())
    )
    (folder / "cert.pem").write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    (folder / "key.pem").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    (folder / "key.pem").chmod(0o644)  # read by nginx's master, which runs as this user


class Nginx:
    """One nginx master in a temporary folder, serving the rendered shipped config."""

    def __init__(self, port: int, upstreams: tuple[str, str], tls_port: int | None = None) -> None:
        self.port = port
        self.base = f"127.0.0.1:{port}"
        self.root = Path(tempfile.mkdtemp(prefix="talon-nginx-"))
        self.root.chmod(0o755)  # the worker processes run as an unprivileged user under root
        tls = None
        if tls_port is not None:
            self_signed(self.root)
            tls = (tls_port, self.root)
        config = render(SHIPPED.read_text(), port, upstreams, tls)
        (self.root / "talon.conf").write_text(config)
        temp = "\n".join(
            f"    {kind}_temp_path {self.root}/{kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        (self.root / "nginx.conf").write_text(
            f"pid {self.root}/nginx.pid;\n"
            f"error_log {self.root}/error.log;\n"
            "worker_processes 1;\n"
            "events { worker_connections 1024; }\n"
            "http {\n"
            f"    access_log {self.root}/access.log;\n"
            f"{temp}\n"
            f"    include {self.root}/talon.conf;\n"
            "}\n"
        )
        self.process: subprocess.Popen[bytes] | None = None

    def _command(self, *extra: str) -> list[str]:
        return [
            nginx_binary(),
            "-p", str(self.root),
            "-e", str(self.root / "error.log"),
            "-c", str(self.root / "nginx.conf"),
            *extra,
        ]  # fmt: skip

    def check(self) -> str:
        """``nginx -t`` on the rendered config; its report (raises when it fails)."""
        result = subprocess.run(self._command("-t"), capture_output=True, text=True, timeout=30)
        if result.returncode != 0:
            raise RuntimeError(f"nginx -t failed: {result.stderr}")
        return result.stderr.strip()

    def start(self) -> None:
        """Check the config, start nginx and wait until it accepts connections."""
        self.check()
        log = (self.root / "stderr.log").open("ab")
        self.process = subprocess.Popen(
            self._command("-g", "daemon off;"), stdout=log, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx exited: {self.error_log()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("nginx did not start listening")

    def error_log(self) -> str:
        path = self.root / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        """Stop nginx (its workers follow the master) and delete its folder."""
        try:
            if self.process is not None and self.process.poll() is None:
                self.process.terminate()
                try:
                    self.process.wait(10)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait(10)
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
