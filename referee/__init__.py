"""5 Alive Referee: a phone-first web app that referees a real game of 5 Alive."""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask, current_app
from werkzeug.middleware.proxy_fix import ProxyFix

from .live import Bus
from .security import RateLimiter, add_security_headers
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
        MAX_STREAMS=200,
        STREAM_KEEPALIVE=15.0,
        STREAM_MAX_SECONDS=300.0,
        TABLES_PER_MINUTE=60,
        JOINS_PER_MINUTE=60,
        TRUST_PROXY=True,
    )
    if config:
        app.config.update(config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance)

    store = Store(app.config["DATABASE_URL"])
    bus = Bus(max_listeners=int(app.config["MAX_STREAMS"]))
    app.extensions["referee"] = Referee(store, bus)
    app.extensions["referee.table_limit"] = RateLimiter(int(app.config["TABLES_PER_MINUTE"]), 60.0)
    app.extensions["referee.join_limit"] = RateLimiter(int(app.config["JOINS_PER_MINUTE"]), 60.0)

    if app.config["TRUST_PROXY"]:
        # Behind a reverse proxy the join link must use the address the phones see (X-Forwarded-*).
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1, x_port=1)  # type: ignore[method-assign]

    from . import api, stream, web

    app.register_blueprint(web.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(stream.bp)
    app.after_request(add_security_headers)
    return app


def get_referee() -> Referee:
    """Return the service of the running app."""
    referee = current_app.extensions["referee"]
    assert isinstance(referee, Referee)
    return referee
