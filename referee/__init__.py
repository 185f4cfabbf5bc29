"""5 Alive Referee: a phone-first web app that referees a real game of 5 Alive.

`create_app` is the app factory: settings, the store and the change bus, then the faces (pages, JSON API, live
streams) as blueprints. Templates and static files live inside this package (the repository's top-level
`templates/` and `static/` are linked in), so an installed wheel finds them wherever it is.
"""

from __future__ import annotations

import os
from importlib import metadata
from pathlib import Path
from typing import Any

from flask import Flask, current_app, request
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response as BaseResponse

from . import config
from .engine.words import N_
from .web import api, assets, compress, extensions, health, i18n, logs, pages, pwa
from .web import live as stream
from .web.redaction import keep_secrets_out_of_logs, redacted_logger
from .web.security import BAD_HOST_MESSAGE, CheckedCookieSessions, TrustedProxyFix, add_security_headers, host_allowed
from .web.worded_templates import WordedEnvironment

# The heading of the page that refuses a host name this server does not answer to.
UNKNOWN_ADDRESS = N_("Unknown address")
# The name the package is installed under (pyproject.toml), whose metadata holds the version.
DISTRIBUTION = "five-alive-referee"


def version() -> str:
    """This release's version number (CHANGELOG.md), as the installed package's metadata says."""
    return metadata.version(DISTRIBUTION)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Create the referee app; `test_config` overrides settings (tests pass a temporary database)."""
    overrides = test_config or {}
    # The instance folder is the data folder (config.data_dir): never inside an installed package.
    instance = Path(overrides.get("DATA_DIR") or config.data_dir())
    app = Flask(__name__, instance_path=str(instance.resolve()), instance_relative_config=True)
    # Templates compiled once per language, their plain sentences written in (web/worded_templates.py).
    app.jinja_environment = WordedEnvironment
    app.config.from_mapping(config.APP_DEFAULTS)
    app.config.from_prefixed_env(config.ENV_PREFIX)
    # DATABASE_URL, the name hosting platforms set, wins over REFEREE_DATABASE_URL: the order `referee serve` reads
    # them in (config.SETTINGS), so both ways of starting the app use one database.
    if os.environ.get("DATABASE_URL"):
        app.config["DATABASE_URL"] = os.environ["DATABASE_URL"]
    if test_config:
        app.config.update(test_config)
    config.finish(app.config, Path(app.instance_path))
    # JSON keys in the order the code writes them (the API's documented order), and no sorting cost.
    app.json.sort_keys = False  # type: ignore[attr-defined]

    app.session_interface = CheckedCookieSessions()
    extensions.init_app(app)
    if app.config["TRUST_PROXY"]:
        # Behind a reverse proxy the join link must use the address the phones see (X-Forwarded-*).
        app.wsgi_app = TrustedProxyFix(app.wsgi_app, app.config["TRUSTED_PROXIES"])  # type: ignore[method-assign]

    app.before_request(_check_host)
    # The rules panel names the release whose rulings it shows (CHANGELOG.md says what each one changed).
    app.jinja_env.globals["app_version"] = version()
    i18n.init_app(app)
    pages.init_app(app)
    app.register_blueprint(api.bp)
    app.register_blueprint(stream.bp)
    app.register_blueprint(pwa.bp)
    app.register_error_handler(HTTPException, _http_error)
    app.after_request(add_security_headers)
    # Join links and codes travel in URLs, which error logs quote: redact them (docs/security.md).
    keep_secrets_out_of_logs(app.logger, redacted_logger("hypercorn.error"))
    compress.init_app(app)
    assets.init_app(app)
    # /healthz: a bare endpoint (no database, no template), also the benchmark's baseline; /readyz: the database.
    health.init_app(app, api.PREFIX)
    logs.init_app(app)
    return app


def _http_error(error: HTTPException) -> Any:
    """Answer an HTTP error in the caller's language: JSON under the API's prefix, an HTML page elsewhere."""
    if api.is_api_request(request.path):
        return api.http_error(error)
    return pages.http_error_page(error)


def _check_host() -> BaseResponse | tuple[str, int] | None:
    """Refuse a request for a host name this server does not answer to (DNS rebinding), in the caller's language."""
    if host_allowed(request.host, current_app.config["ALLOWED_HOSTS"]):
        return None
    if api.is_api_request(request.path):
        return api.error_response(400, "bad_host", BAD_HOST_MESSAGE)
    return pages.error_page(UNKNOWN_ADDRESS, BAD_HOST_MESSAGE, 400)
