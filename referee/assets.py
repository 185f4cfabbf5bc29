"""Static files with their version in the URL, so phones keep them instead of asking again on every page.

Every `url_for('static', ...)` gets `?v=<hash of the file>`. A request carrying the file's current hash is
answered with a year-long, immutable cache lifetime; any other one (no hash, an old hash) with Flask's
default, which makes the browser check back. Without this, each page a phone opened re-validated the
stylesheet, the scripts and the icon: four small requests (each on a new connection with waitress, the
server before hypercorn, which closed the connection after a `304`; docs/performance.md).
"""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path
from typing import Any

from flask import Flask, Response, request

ONE_YEAR = 365 * 24 * 3600


class StaticVersions:
    """The short content hash of each static file, recomputed when the file changes on disk."""

    def __init__(self, folder: str):
        self.folder = Path(folder)
        self._known: dict[str, tuple[float, int, str]] = {}
        self._lock = threading.Lock()

    def version(self, filename: str) -> str | None:
        """Return the file's version (12 hex digits of its SHA-256), or None if there is no such file."""
        root = self.folder.resolve()
        path = (root / filename).resolve()
        if not path.is_relative_to(root):
            return None
        try:
            stat = path.stat()
        except OSError:
            return None
        # Keyed by the file, not by how the URL spelled it ("x/../app.css"): one entry per real file.
        key = path.relative_to(root).as_posix()
        with self._lock:
            known = self._known.get(key)
        if known is not None and known[:2] == (stat.st_mtime, stat.st_size):
            return known[2]
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
        with self._lock:
            self._known[key] = (stat.st_mtime, stat.st_size, digest)
        return digest


def init_app(app: Flask) -> None:
    """Add versions to static URLs and let browsers keep versioned files for a year."""
    assert app.static_folder is not None
    versions = StaticVersions(app.static_folder)

    @app.url_defaults
    def _add_version(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "v" not in values:
            version = versions.version(str(values.get("filename", "")))
            if version is not None:
                values["v"] = version

    @app.after_request
    def _cache_versioned(response: Response) -> Response:
        if request.endpoint != "static" or response.status_code not in (200, 304):
            return response
        filename = (request.view_args or {}).get("filename", "")
        wanted = request.args.get("v")
        if wanted and wanted == versions.version(os.fspath(filename)):
            response.cache_control.public = True
            response.cache_control.max_age = ONE_YEAR
            response.cache_control.immutable = True
            response.cache_control.no_cache = None
        return response
