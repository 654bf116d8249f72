"""Structured logging on top of the standard ``logging`` module.

``JsonFormatter`` renders each record as one JSON object per line: time,
level, logger, message, any ``extra`` fields and the fields a ``ContextLogger``
bound (a request id, a job name).  ``configure_logging`` sets up one named
logger and never touches the root logger, so it coexists with the host
application's own logging setup.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Any, TextIO

_RESERVED = set(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    """One JSON object per record; keys sorted for stable output."""

    def __init__(self, static_fields: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        self.static_fields = dict(static_fields or {})

    def format(self, record: logging.LogRecord) -> str:
        payload: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            **self.static_fields,
        }
        for key, value in vars(record).items():
            if key not in _RESERVED and not key.startswith("_"):
                payload[key] = value
        if record.exc_info:
            payload["exception"] = self.formatException(record.exc_info)
        return json.dumps(payload, sort_keys=True, default=str)


class ContextLogger:
    """A logger with fields bound once and sent with every record."""

    def __init__(self, logger: logging.Logger, context: Mapping[str, Any] | None = None) -> None:
        self.logger = logger
        self.context = dict(context or {})
        clash = set(self.context) & _RESERVED
        if clash:
            raise ValueError(f"field names reserved by logging: {', '.join(sorted(clash))}")

    def bind(self, **fields: Any) -> ContextLogger:
        """A new logger with ``fields`` added to the bound context."""
        return ContextLogger(self.logger, {**self.context, **fields})

    def _log(self, level: int, message: str, fields: Mapping[str, Any], exc_info: bool = False) -> None:
        extra = {**self.context, **fields}
        clash = set(extra) & _RESERVED
        if clash:
            raise ValueError(f"field names reserved by logging: {', '.join(sorted(clash))}")
        self.logger.log(level, message, extra=extra, exc_info=exc_info)

    def debug(self, message: str, **fields: Any) -> None:
        self._log(logging.DEBUG, message, fields)

    def info(self, message: str, **fields: Any) -> None:
        self._log(logging.INFO, message, fields)

    def warning(self, message: str, **fields: Any) -> None:
        self._log(logging.WARNING, message, fields)

    def error(self, message: str, **fields: Any) -> None:
        self._log(logging.ERROR, message, fields)

    def exception(self, message: str, **fields: Any) -> None:
        self._log(logging.ERROR, message, fields, exc_info=True)


def configure_logging(settings: Mapping[str, object], stream: TextIO | None = None) -> ContextLogger:
    """The named logger of the ``logging`` section, writing JSON lines to ``stream`` (stderr)."""
    section = settings.get("logging", {}) or {}
    logger = logging.getLogger(str(section.get("logger", "app")))
    logger.setLevel(str(section.get("level", "INFO")).upper())
    logger.propagate = False
    for handler in list(logger.handlers):
        if getattr(handler, "_structured", False):
            logger.removeHandler(handler)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter(section.get("static_fields", {"service": "app"})))
    handler._structured = True  # type: ignore[attr-defined]
    logger.addHandler(handler)
    return ContextLogger(logger)
