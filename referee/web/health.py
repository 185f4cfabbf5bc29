"""Health probes (`/healthz`: the process answers; `/readyz`: the database can be read and written) and the
answer when storage fails mid-request (disk full, read-only file): a 503 with a sentence, logged once.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, current_app, jsonify, render_template, request

from ..engine.words import N_
from ..service import OutcomeUnknown, one_line, storage_errors
from .extensions import get_referee
from .i18n import worded
from .redaction import redacted_logger

log = redacted_logger(__name__)
WRITE_FAILURES = "referee.write_failures"
# After a request's write failed, /readyz says "not ready" until a request writes again, or this long, even if
# its own small write gets through: a full disk often still takes the readiness check's one page when a tap's
# several no longer fit, and a monitor that read "ready" there would send players back to a server that cannot
# save their cards. It is the Retry-After the failed write answered with, so a client told to come back then
# finds the server ready if it has room again.
NOT_READY_AFTER_FAILURE = 30.0
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
PLAIN = {"Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"}
# A write and a read fail for the same causes, but a page that only read must not say it "could not save".
STORAGE_MESSAGE = N_(
    "The referee could not save that: it cannot use its database just now (full, read-only or out of reach). "
    "Nothing was changed. Try again in a moment; if it lasts, tell whoever runs the referee."
)
# The database went away just as it saved something: neither "saved" nor "nothing was changed" would be true.
UNKNOWN_MESSAGE = N_(
    "The referee lost its database just as it was saving that, so it cannot tell whether it was saved. "
    "Look at the table before you try again: if it is there, it counts once."
)
READ_MESSAGE = N_(
    "The referee cannot read its database just now (out of reach or unreadable). "
    "Try again in a moment; if it lasts, tell whoever runs the referee."
)
# The headings of the page that says so. /readyz's answers stay in English: they are read by monitors.
TITLES = {"unknown": N_("Not sure it was saved"), "reading": N_("Could not load"), "writing": N_("Could not save")}


class WriteFailures:
    """When this process's requests last failed to write to the database, and last wrote (None: never)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.failed: float | None = None
        self.wrote: float | None = None

    def record(self) -> None:
        """A request's write just failed."""
        self.failed = self.clock()

    def record_success(self) -> None:
        """A request just wrote."""
        self.wrote = self.clock()

    def seconds_ago(self) -> float | None:
        """Seconds since the newest request's write failed, if none wrote since and it was not long ago."""
        if self.failed is None or (self.wrote is not None and self.wrote > self.failed):
            return None
        ago = self.clock() - self.failed
        return ago if ago < NOT_READY_AFTER_FAILURE else None


def init_app(app: Flask, api_prefix: str) -> None:
    """Add the probes and the storage-failure answer to the app."""
    app.add_url_rule("/healthz", "healthz", healthz)
    app.add_url_rule("/readyz", "readyz", readyz)
    app.extensions[WRITE_FAILURES] = WriteFailures()

    def wrote(response: Response) -> Response:
        if request.method in WRITES and response.status_code < 400:
            current_app.extensions[WRITE_FAILURES].record_success()
        return response

    app.after_request(wrote)

    def storage_failed(error: Exception) -> Any:
        # One line, no traceback: the cause (full disk, read-only file) is in SQLite's message.
        log.error("storage failed during %s %s: %s", request.method, request.path, one_line(error))
        reading = request.method in ("GET", "HEAD")
        if not reading:
            current_app.extensions[WRITE_FAILURES].record()
        unknown = isinstance(error, OutcomeUnknown)
        message = UNKNOWN_MESSAGE if unknown else READ_MESSAGE if reading else STORAGE_MESSAGE
        if request.path.startswith(f"{api_prefix}/") or request.path == api_prefix:
            code = "outcome_unknown" if unknown else "storage_unavailable"
            response = jsonify({"error": {"code": code, "message": worded(message)}})
            response.status_code = 503
        else:
            title = TITLES["unknown" if unknown else "reading" if reading else "writing"]
            retry = request.full_path.rstrip("?") if reading else None
            page = render_template("error.html", title=worded(title), message=worded(message), retry=retry)
            response = Response(page, status=503)
        response.headers["Retry-After"] = str(int(NOT_READY_AFTER_FAILURE))
        return response

    for kind in storage_errors():
        app.register_error_handler(kind, storage_failed)


def healthz() -> tuple[str, int, dict[str, str]]:
    """Answer "ok" without touching the database: the process is up."""
    return "ok", 200, PLAIN


def readyz() -> tuple[str, int, dict[str, str]]:
    """Answer "ready" if the database can be read and written, else 503 with the reason."""
    failures: WriteFailures = current_app.extensions[WRITE_FAILURES]
    ago = failures.seconds_ago()
    if ago is not None:
        return f"not ready: a write to the database failed {ago:.0f} s ago (the server's log says why)", 503, PLAIN
    try:
        get_referee().store.check_writable()
    except storage_errors() as error:
        # The driver's words (host, port, user) go to the log only: /readyz answers anyone who asks.
        log.error("readiness check failed: %s", one_line(error))
        return "not ready: the database cannot be written (the server's log says why)", 503, PLAIN
    return "ready", 200, PLAIN
