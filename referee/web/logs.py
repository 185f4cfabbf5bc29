"""Logging: one format with UTC timestamps for every line, the level from `--log-level`, and the access log.

The access log is WSGI middleware, so it works under any server: one line per request when its answer is done,
with the path redacted (table codes, join secrets) as `security.redact` does for every other log line.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from flask import Flask
from flask.logging import default_handler

from .redaction import RedactSecrets, redact, redacted_logger

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

ACCESS_LOGGER = "referee.access"
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
access_log = redacted_logger(ACCESS_LOGGER)


class _UTCFormatter(logging.Formatter):
    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802 (logging's name)
        """Return the record's time as 2026-11-22T20:41:07.123Z."""
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        return f"{stamp}.{int(record.msecs):03d}Z"


def configure(level: str) -> None:
    """Send every log line to stderr, timestamped, secrets redacted, at `level` and above (debug, info, warning,
    error)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_UTCFormatter(FORMAT))
    # On the handler, not on chosen loggers: a logger's filter sees only what is logged to that logger itself,
    # so a new module's logger (or a library's) would write table codes and join secrets as they are.
    handler.addFilter(RedactSecrets())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())


def init_app(app: Flask) -> None:
    """Log each request once through the access log and each error once (through the root logger only)."""
    # Flask's own handler printed every traceback a second time, untimed, beside the root logger's copy.
    app.logger.removeHandler(default_handler)
    app.wsgi_app = AccessLog(app.wsgi_app)  # type: ignore[method-assign]


class AccessLog:
    """WSGI middleware: after each answer, log "METHOD PATH STATUS MS" (path redacted) at info level."""

    def __init__(self, app: WSGIApplication):
        self.app = app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        started = time.perf_counter()
        status: list[str] = []

        def recording_start_response(code: str, headers: Any, exc_info: Any = None) -> Any:
            status[:] = [code.split(" ", 1)[0]]
            return start_response(code, headers, exc_info)

        try:
            body = self.app(environ, recording_start_response)
        except BaseException:
            self._log(environ, "500", started)
            raise
        return self._logged(body, environ, status, started)

    def _logged(
        self, body: Iterable[bytes], environ: WSGIEnvironment, status: list[str], started: float
    ) -> Iterator[bytes]:
        try:
            yield from body
        finally:
            close = getattr(body, "close", None)
            if close is not None:
                close()
            self._log(environ, status[0] if status else "-", started)

    def _log(self, environ: WSGIEnvironment, status: str, started: float) -> None:
        path = environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "")
        log_request(environ.get("REQUEST_METHOD", "-"), path, bool(environ.get("QUERY_STRING")), status, started)


def log_request(method: str, path: str, has_query: bool, status: str, started: float) -> None:
    """Write one access-log line: "METHOD PATH STATUS MS", the path redacted (also for the ASGI front's answers)."""
    if not access_log.isEnabledFor(logging.INFO):
        return
    # The query is left out: a rules search is a player's words, and nothing in it helps an operator.
    shown = redact(path) + ("?…" if has_query else "")
    elapsed = (time.perf_counter() - started) * 1000
    access_log.info("%s %s %s %.1fms", method, shown, status, elapsed)
