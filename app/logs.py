"""Logs on standard error: one JSON object per line in production, plain lines in a terminal
(``LOG_FORMAT``: ``auto``, the default, picks by whether standard error is a terminal).

Every line about a table carries ``table_id`` and ``version`` (pass them as ``extra``), so
the lines of one table can be followed across workers. Nothing secret is logged: tokens,
invite codes, seeds and hands never reach a log call, SQL parameters are hidden by the
database engine, and request lines (which hold paths and query strings) are left to the
reverse proxy's access log.
"""

from __future__ import annotations

import json
import logging
import logging.config
import sys
from datetime import UTC, datetime
from typing import Any, TextIO

# Extra fields copied from a log record when present.
FIELDS = ("table_id", "version", "match_id", "worker")


class JsonLines(logging.Formatter):
    """Formats a record as one JSON object: time, level, logger, message and known extras."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in FIELDS:
            if hasattr(record, name):
                entry[name] = getattr(record, name)
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, separators=(",", ":"))


class NoRequestLines(logging.Filter):
    """Drops uvicorn's per-connection lines ('"WebSocket /ws/tables/..." [accepted]',
    'connection open'): paths and query strings belong in the proxy's access log."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = str(record.msg)
        return not (message.startswith('%s - "WebSocket') or message.startswith("connection "))


def resolve(log_format: str, stream: TextIO | None = None) -> str:
    """``text`` or ``json``: ``auto`` is ``text`` when ``stream`` (standard error) is a
    terminal, where a person reads it, and ``json`` elsewhere (a service, a container)."""
    if log_format != "auto":
        return log_format
    stream = stream or sys.stderr
    return "text" if stream.isatty() else "json"


def config(log_format: str, level: str) -> dict[str, Any]:
    """A ``logging.config.dictConfig`` mapping for the application and uvicorn."""
    formatter = (
        {"()": JsonLines}
        if log_format == "json"
        else {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    )
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"default": formatter},
        "filters": {"no_request_lines": {"()": NoRequestLines}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "default",
                "filters": ["no_request_lines"],
                "stream": "ext://sys.stderr",
            }
        },
        "loggers": {
            "uvicorn": {"handlers": ["stderr"], "level": level.upper(), "propagate": False},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
        },
        "root": {"handlers": ["stderr"], "level": level.upper()},
    }


def configure(log_format: str, level: str) -> None:
    """Install the configuration for this process."""
    logging.config.dictConfig(config(log_format, level))
