"""Settings: the defaults below, then `REFEREE_*` environment variables, then the caller's overrides; read once.

Flask's own loader reads the environment (`REFEREE_MAX_STREAMS=300` sets `MAX_STREAMS` to the number 300);
`finish()` then fills in what depends on the instance folder (the database, the cookie-signing key) and
normalises the few settings a person types as text (comma-separated lists of proxies and host names).
"""

from __future__ import annotations

import logging
import os
import secrets
import stat
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

ENV_PREFIX = "REFEREE"
log = logging.getLogger(__name__)


class Defaults:
    """Every setting and its default; `REFEREE_<NAME>` overrides one (see docs/deploy.md)."""

    MAX_CONTENT_LENGTH = 64 * 1024
    SESSION_COOKIE_NAME = "referee"
    SESSION_COOKIE_HTTPONLY = True
    SESSION_COOKIE_SAMESITE = "Lax"
    PERMANENT_SESSION_LIFETIME = timedelta(days=365)
    # Send the cookie only when it changes: refreshing it put ~280 bytes on every response, static
    # files and 204 polls included (docs/performance.md). It still lasts a year from the last change.
    SESSION_REFRESH_EACH_REQUEST = False
    # Live streams are coroutines under `referee serve` (referee/asgi.py): a few KB each, so thousands fit. The
    # per-address caps keep one client (or one broken script) from taking them all; past a cap the page polls.
    MAX_STREAMS = 2000
    MAX_STREAMS_PER_ADDRESS = 24
    MAX_REQUESTS_PER_ADDRESS = 32
    # Seconds a connection may sit without a request, before its first as well as between them: this is what
    # closes idle and slow-header connections (a header line every few seconds does not keep one open).
    KEEP_ALIVE_SECONDS = 10.0
    # The address phones should open, when the server sits behind a proxy (`referee serve --public-url`):
    # join links and QR codes use it instead of the address a request came in on. Empty: work it out.
    PUBLIC_URL = ""
    # The address `referee serve --host` listens on (it sets this); empty: every interface, or not known.
    LISTEN_HOST = ""
    STREAM_KEEPALIVE = 15.0
    STREAM_MAX_SECONDS = 300.0
    TABLES_PER_MINUTE = 60
    JOINS_PER_MINUTE = 60
    # Generous: a script replaying a whole game at 20 actions a second never meets it; a runaway loop does.
    TOKEN_ACTIONS_PER_MINUTE = 1200
    MAX_ACTIONS_PER_TABLE = 10_000
    # On when more than one server process shares the database (`referee serve --workers N`, or processes on
    # several machines sharing one PostgreSQL): each tells the others of its changes (docs/scaling.md).
    CROSS_PROCESS_UPDATES = False
    TRUST_PROXY = True
    # Only these peers may set X-Forwarded-* (a reverse proxy on this machine); see docs/security.md.
    TRUSTED_PROXIES: tuple[str, ...] = ("127.0.0.1", "::1")
    # Host names answered besides IP addresses, localhost and this machine's own names: the public name
    # behind a proxy ("cards.example.org"; ".example.org" allows its subdomains). Others get a 400, the
    # defence against DNS rebinding (docs/security.md).
    ALLOWED_HOSTS: tuple[str, ...] = ()


def finish(config: dict[str, Any], instance: Path, environ: Mapping[str, str] = os.environ) -> None:
    """Fill in the settings that depend on the instance folder and normalise typed-in lists."""
    instance.mkdir(parents=True, exist_ok=True)
    # DATABASE_URL without the prefix too: it is the name hosting platforms and the README use.
    config.setdefault("DATABASE_URL", environ.get("DATABASE_URL") or f"sqlite:///{instance / 'referee.sqlite3'}")
    for name in ("TRUSTED_PROXIES", "ALLOWED_HOSTS"):
        if isinstance(config[name], str):
            config[name] = tuple(part.strip() for part in config[name].split(",") if part.strip())
    if not config.get("SECRET_KEY"):
        config["SECRET_KEY"] = secret_key(instance / "secret_key")


def secret_key(path: Path) -> str:
    """Return the key that signs cookies, kept in `path`; create it readable by this user only."""
    try:
        # O_EXCL: two processes starting at once cannot both write a key; 0600 from the first byte.
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        if path.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO):
            log.warning("%s can be read by other users of this machine: chmod 600 it", path)
        return path.read_text().strip()
    key = secrets.token_hex(32)
    with os.fdopen(descriptor, "w") as file:
        file.write(key)
    return key
