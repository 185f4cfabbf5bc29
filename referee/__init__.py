"""5 Alive Referee: a phone-first web app that referees a real game of 5 Alive."""

from __future__ import annotations

import logging
import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask, current_app

from . import assets, compress
from .live import Bus
from .security import RateLimiter, TrustedProxyFix, add_security_headers, keep_secrets_out_of_logs
from .service import Referee
from .store import Store

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def _secret_key(instance: Path) -> str:
    """Return the key that signs cookies: from the environment, or kept in the instance folder."""
    from_env = os.environ.get("REFEREE_SECRET_KEY")
    if from_env:
        return from_env
    path = instance / "secret_key"
    if path.exists():
        return path.read_text().strip()
    key = secrets.token_hex(32)
    path.write_text(key)
    path.chmod(0o600)
    return key


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Create the referee app; `config` overrides settings (tests pass a temporary database)."""
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(PROJECT_ROOT / "templates"),
        static_folder=str(PROJECT_ROOT / "static"),
    )
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        DATABASE_URL=os.environ.get("DATABASE_URL", f"sqlite:///{instance / 'referee.sqlite3'}"),
        MAX_CONTENT_LENGTH=64 * 1024,
        SESSION_COOKIE_NAME="referee",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=timedelta(days=365),
        # Send the cookie only when it changes: refreshing it put ~280 bytes on every response, static
        # files and 204 polls included (docs/performance.md). It still lasts a year from the last change.
        SESSION_REFRESH_EACH_REQUEST=False,
        MAX_STREAMS=200,
        STREAM_KEEPALIVE=15.0,
        STREAM_MAX_SECONDS=300.0,
        TABLES_PER_MINUTE=60,
        JOINS_PER_MINUTE=60,
        TRUST_PROXY=True,
        # Only these peers may set X-Forwarded-* (a reverse proxy on this machine); see docs/security.md.
        TRUSTED_PROXIES=tuple(os.environ.get("REFEREE_TRUSTED_PROXIES", "127.0.0.1,::1").split(",")),
    )
    if config:
        app.config.update(config)
    # JSON keys in the order the code writes them (the API's documented order), and no sorting cost.
    app.json.sort_keys = False  # type: ignore[attr-defined]
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance)

    store = Store(app.config["DATABASE_URL"])
    # Each request's database connection goes back to the pool when the request ends.
    app.teardown_appcontext(lambda _error: store.release())
    bus = Bus(max_listeners=int(app.config["MAX_STREAMS"]))
    app.extensions["referee"] = Referee(store, bus)
    app.extensions["referee.table_limit"] = RateLimiter(int(app.config["TABLES_PER_MINUTE"]), 60.0)
    app.extensions["referee.join_limit"] = RateLimiter(int(app.config["JOINS_PER_MINUTE"]), 60.0)

    if app.config["TRUST_PROXY"]:
        # Behind a reverse proxy the join link must use the address the phones see (X-Forwarded-*).
        app.wsgi_app = TrustedProxyFix(app.wsgi_app, app.config["TRUSTED_PROXIES"])  # type: ignore[method-assign]

    from . import api, stream, web

    app.register_blueprint(web.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(stream.bp)
    app.after_request(add_security_headers)
    # Join links and codes travel in URLs, which error logs quote: redact them (docs/security.md).
    keep_secrets_out_of_logs(app.logger, logging.getLogger("waitress"))
    compress.init_app(app)
    assets.init_app(app)
    # A bare endpoint (no database, no template) for health checks and as the benchmark's baseline.
    app.add_url_rule("/healthz", "healthz", _healthz)
    return app


def _healthz() -> tuple[str, int, dict[str, str]]:
    """Answer "ok" without touching the database."""
    return "ok", 200, {"Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"}


def get_referee() -> Referee:
    """Return the service of the running app."""
    referee = current_app.extensions["referee"]
    assert isinstance(referee, Referee)
    return referee
