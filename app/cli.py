"""The ``talon`` command: ``talon migrate`` and ``talon serve``.

Settings come from the environment (``DATABASE_URL``, ``HOST``, ``PORT``, ...); the flags
below override host and port.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import resource
import sys

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


def serve(settings: Settings, host: str, port: int, apply_migrations: bool = True) -> None:
    """Apply migrations (unless told not to), then run the server until interrupted."""
    import uvicorn

    from app.main import create_app

    logging.getLogger(__name__).info("open-file limit: %d", raise_open_file_limit())
    if apply_migrations:
        migrate(settings)
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        log_level=settings.log_level,
        log_config=logs.config(settings.log_format, settings.log_level),
        access_log=False,
        ws_max_size=settings.ws_max_frame_bytes * 4,
        # Table frames are a few hundred bytes: compressing them costs more CPU on both
        # ends than it saves on the wire.
        ws_per_message_deflate=False,
        ws_ping_interval=settings.ws_ping_interval,
        ws_ping_timeout=settings.ws_ping_timeout,
    )


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
    args = parser.parse_args(argv)
    settings = get_settings()
    logs.configure(settings.log_format, "info")
    if args.command == "migrate":
        migrate(settings)
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
