"""Process logging: text on a terminal, JSON lines otherwise (``OMOIDE_LOG_FORMAT``).

A JSON line carries ``ts``, ``level``, ``logger``, ``message`` and the record's structured
fields (the request log adds method, route, status, duration_ms, persona). Nothing here ever
sees a key or a memory's content: callers log only what they pass.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any

__all__ = ["LOG_FORMATS", "JsonFormatter", "configure_logging"]

LOG_FORMATS = ("auto", "json", "text")

_TEXT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
# Attributes every LogRecord has; anything else was passed through ``extra=``.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update({k: v for k, v in vars(record).items() if k not in _STANDARD})
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def configure_logging(*, level: int = logging.INFO, fmt: str = "auto") -> None:
    """Log to stderr: JSON lines unless ``fmt`` is text, or auto and stderr is a terminal.

    Like :func:`logging.basicConfig`, it leaves a root logger that already has handlers (a host
    program's, a test runner's) alone.
    """
    root = logging.getLogger()
    if root.handlers:
        return
    handler = logging.StreamHandler(sys.stderr)
    as_json = fmt == "json" or (fmt == "auto" and not sys.stderr.isatty())
    handler.setFormatter(JsonFormatter() if as_json else logging.Formatter(_TEXT))
    root.addHandler(handler)
    root.setLevel(level)
