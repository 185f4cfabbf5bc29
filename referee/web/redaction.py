"""What no log line may carry: join secrets and table codes in paths, bearer tokens, session cookies.

Every logger of the app is made by `redacted_logger`, and `referee serve` also redacts at its log handler
(referee/web/logs.py), so a library's log lines (hypercorn's, asyncio's) are redacted too.
"""

from __future__ import annotations

import logging
import re

# The import endpoint's own word is not a table code: an operator reading the log needs to see it.
_REDACTIONS = (
    (re.compile(r"(/j/)[^/\s?#\"']+/[^/\s?#\"']+"), r"\1<code>/<secret>"),
    (re.compile(r"(/t/|/api/v1/tables/)(?!import(?:[/?#\s\"']|$))[A-Za-z0-9]+"), r"\1<code>"),
    (re.compile(r"(?i)(bearer\s+)[^\s\"',;]+"), r"\1<token>"),
    (re.compile(r"(referee=)[^\s\"';]+"), r"\1<cookie>"),
)


def redact(text: str) -> str:
    """Return `text` with join secrets, table codes, tokens and cookies replaced by placeholders."""
    for pattern, placeholder in _REDACTIONS:
        text = pattern.sub(placeholder, text)
    return text


class RedactSecrets(logging.Filter):
    """A log filter that keeps secrets out of a record's message and traceback.

    Flask logs an unhandled error as "Exception on /j/CODE/SECRET [POST]", and a storage failure names the
    request's path: both quote secrets unless redacted.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        """Redact the record in place; never drop it."""
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, ()
        if record.exc_info and not record.exc_text:
            record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
        return True


def keep_secrets_out_of_logs(*loggers: logging.Logger) -> None:
    """Install the redacting filter on these loggers (once each)."""
    for logger in loggers:
        if not any(isinstance(existing, RedactSecrets) for existing in logger.filters):
            logger.addFilter(RedactSecrets())


def redacted_logger(name: str) -> logging.Logger:
    """The logger `name`, redacting what it is given (whatever handler, and whatever server, writes it out)."""
    logger = logging.getLogger(name)
    keep_secrets_out_of_logs(logger)
    return logger
