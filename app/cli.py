"""The ``talon`` command: ``talon migrate``, ``talon serve``, and for operators
``talon chat-reports`` and ``talon chat-mute``.

Settings come from the environment (``DATABASE_URL``, ``HOST``, ``PORT``, ...); the flags
below override host and port. Unless ``PUBLIC_URL`` and ``ALLOWED_ORIGINS`` are set, they
follow the address served, so invite links point where the server really is.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import resource
import socket
import sys
from typing import Any

from app import logs
from app.settings import Settings, get_settings
from app.store.migrate import upgrade


def migrate(settings: Settings) -> None:
    """Bring the database up to the newest schema."""
    upgrade(settings.database_url)


def raise_open_file_limit() -> int:
    """Raise the soft open-file limit to the hard one (every WebSocket holds a descriptor, and
    the usual soft limit of 1,024 would refuse connections long before memory runs out)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        with contextlib.suppress(ValueError, OSError):  # an unlimited hard limit is refused
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


ANY_ADDRESS = ("0.0.0.0", "::", "")
LOOPBACK = ("127.0.0.1", "::1")


def lan_address() -> str:
    """This machine's address on its local network, as another machine would reach it (the
    interface a packet to a private address would leave by; nothing is sent)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.255.255.255", 1))
        return str(probe.getsockname()[0])
    return "127.0.0.1"


def served_at(settings: Settings, host: str, port: int) -> Settings:
    """``settings`` for serving on ``host``:``port``: ``PUBLIC_URL`` and ``ALLOWED_ORIGINS``
    follow that address unless they were set (all interfaces: the local network address; the
    loopback address: ``localhost``, the name browsers accept for passkeys, which they refuse
    at a numeric address)."""
    update: dict[str, object] = {"host": host, "port": port}
    if "public_url" not in settings.model_fields_set:
        shown = lan_address() if host in ANY_ADDRESS else host
        shown = "localhost" if shown in LOOPBACK else shown
        shown = f"[{shown}]" if ":" in shown else shown
        update["public_url"] = f"http://{shown}:{port}"
    if "allowed_origins" not in settings.model_fields_set:
        public = str(update.get("public_url", settings.public_url)).rstrip("/")
        local = [f"http://127.0.0.1:{port}", f"http://localhost:{port}"]
        update["allowed_origins"] = list(dict.fromkeys([public, *local]))
    return settings.model_copy(update=update)


def serve(settings: Settings, host: str, port: int, apply_migrations: bool = True) -> None:
    """Apply migrations (unless told not to), then run the server until interrupted."""
    import uvicorn

    from app.main import create_app

    settings = served_at(settings, host, port)
    log = logging.getLogger(__name__)
    log.info("open-file limit: %d", raise_open_file_limit())
    log.info("invite links point to %s (PUBLIC_URL)", settings.public_url)
    if apply_migrations:
        migrate(settings)
    uvicorn.run(create_app(settings), **uvicorn_options(settings))


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """How ``talon serve`` runs uvicorn (the benchmarks' bare relay, ``relay_floor.py``, runs
    its application with the same options, so the two are measured on one footing)."""
    from app.api.socket_protocol import SocketProtocol

    return {
        "host": settings.host,
        "port": settings.port,
        "log_level": settings.log_level,
        "log_config": logs.config(logs.resolve(settings.log_format), settings.log_level),
        "access_log": False,
        # One frame limit (WS_MAX_FRAME_BYTES): the WebSocket layer refuses a larger frame
        # before reading it whole, with the close the application would send (app/api/ws.py).
        "ws_max_size": settings.ws_max_frame_bytes,
        # Table frames are a few hundred bytes: compressing them costs more CPU on both
        # ends than it saves on the wire.
        "ws_per_message_deflate": False,
        # uvicorn's sans-I/O WebSocket protocol, holding less per open socket.
        "ws": SocketProtocol,
        "ws_ping_interval": settings.ws_ping_interval,
        "ws_ping_timeout": settings.ws_ping_timeout,
        "timeout_keep_alive": settings.keep_alive_seconds,
        # X-Forwarded-For only from the proxies named (uvicorn's own default trusts loopback,
        # where anyone on the machine, or a proxy that passes a client's header on, connects).
        "proxy_headers": bool(settings.forwarded_allow_ips.strip()),
        "forwarded_allow_ips": settings.forwarded_allow_ips.strip() or None,
        # No "server: uvicorn" on every response: nothing to learn about what answers.
        "server_header": False,
    }


async def chat_command(settings: Settings, args: argparse.Namespace) -> int:
    """``chat-reports``: print the latest reported chat lines, one JSON object a line;
    ``chat-mute``: mute a player in every table's chat (``--lift``: unmute). The exit status."""
    import json

    from app.chat import operators as chat
    from app.common.errors import ServiceError
    from app.store.db import create_engine, session_factory

    engine = create_engine(settings.database_url)
    try:
        sessions = session_factory(engine)
        if args.command == "chat-reports":
            for report in await chat.latest_reports(sessions, args.limit):
                print(json.dumps(report, ensure_ascii=False))
        else:
            await chat.operator_mute(sessions, args.player_id, not args.lift)
    except ServiceError as exc:
        print(f"{exc.code}: {exc.message}", file=sys.stderr)
        return 1
    finally:
        await engine.dispose()
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``talon`` console script."""
    parser = argparse.ArgumentParser(prog="talon", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("migrate", help="apply database migrations")
    serve_parser = commands.add_parser("serve", help="apply migrations and run the server")
    serve_parser.add_argument("--host", default=None)
    serve_parser.add_argument("--port", type=int, default=None)
    serve_parser.add_argument(
        "--no-migrate", action="store_true", help="skip migrations (a separate step applies them)"
    )
    reports = commands.add_parser("chat-reports", help="print the latest reported chat lines")
    reports.add_argument("--limit", type=int, default=100)
    mute = commands.add_parser("chat-mute", help="mute a player in every table's chat")
    mute.add_argument("player_id")
    mute.add_argument("--lift", action="store_true", help="unmute instead")
    args = parser.parse_args(argv)
    settings = get_settings()
    logs.configure(logs.resolve(settings.log_format), "info")
    if args.command == "migrate":
        migrate(settings)
    elif args.command in ("chat-reports", "chat-mute"):
        import asyncio

        return asyncio.run(chat_command(settings, args))
    else:
        serve(
            settings,
            args.host or settings.host,
            args.port if args.port is not None else settings.port,
            apply_migrations=not args.no_migrate,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
