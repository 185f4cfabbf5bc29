"""Static files as phones get them: our own CSS and JS minified, every URL with the served bytes' version.

Every `url_for('static', ...)` gets `?v=<hash of the bytes served>`. A request carrying the current hash is
answered with a year-long, immutable cache lifetime; any other one (no hash, an old hash) with Flask's
default, which makes the browser check back. Without this, each page a phone opened re-validated the
stylesheet, the scripts and the icon: four small requests (each on a new connection with waitress, the
server before hypercorn, which closed the connection after a `304`; docs/performance.md).

Our own stylesheets and scripts (`*.css`, `*.js` at the top of `static/`) keep their comments in the
repository, as the team's standard asks, but a phone never needs them: they are served minified (rcssmin,
rjsmin): 29 % fewer gzipped bytes of our CSS and JS (docs/performance.md). Third-party files (`vendor/`,
already minified by their authors) and everything else are served byte for byte as they are on disk.
Each file is read, minified and hashed once per version on disk (its mtime and size), never per request.

The pages' own script is written as one small file per concern in `static/js/` (the live stream, one tap one
card, focus kept across a swap, registering the service worker, ...) but goes to a phone as one file, `app.js`: the
parts joined in the order `BUNDLES` lists and minified together. Each script is a request for a cheap phone and its
headers on the wire, and a part under 1 KB is not worth gzip: loaded one by one, fourteen parts put a host's first
load at 52.6 KB (22 requests) against a budget of 40 KB (docs/performance.md). htmx and its live-stream extension,
which every page loads together, go out the same way as one file, joined byte for byte as vendored, never
minified. A part fetched on its own goes out as it is on disk, like every file below the top of `static/`; no page
links one.
"""

from __future__ import annotations

import hashlib
import io
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

import rcssmin
import rjsmin
from flask import Flask, Response, current_app, request, send_file
from werkzeug.wrappers import Response as BaseResponse

from .compress import gzips

ONE_YEAR = 365 * 24 * 3600
EXTENSION = "referee.static_files"


def _minify_css(text: str) -> str:
    return str(rcssmin.cssmin(text))


def _minify_js(text: str) -> str:
    return str(rjsmin.jsmin(text))


MINIFIERS: dict[str, Callable[[str], str]] = {".css": _minify_css, ".js": _minify_js}

# Files made of parts, each part a concern of its own (see the module's docstring). The order is the order the parts
# run in, which is the order their listeners hear an event in: common.js first (the others use what it defines), and
# the others as each relies on the one before (focus.js puts the focus somewhere before fix.js may move it to the
# Fix being typed; refusals.js looks for an alert in view before notentered.js puts its note back).
BUNDLES: dict[str, tuple[str, ...]] = {
    "app.js": (
        "js/common.js",
        "js/morph.js",
        "js/sheets.js",
        "js/bomb.js",
        "js/sync.js",
        "js/onetap.js",
        "js/sending.js",
        "js/focus.js",
        "js/rematch.js",
        "js/fix.js",
        "js/announce.js",
        "js/more.js",
        "js/speech.js",
        "js/refusals.js",
        "js/notentered.js",
        "js/turn.js",
        "js/wakelock.js",
        "js/pwa.js",
    ),
    # htmx and its live-stream extension, which every page loads together and in this order: joined byte for byte
    # as vendored (nothing under vendor/ is minified), one request instead of two (docs/performance.md).
    "vendor/htmx-2.0.11-sse-2.2.4.js": ("vendor/htmx-2.0.11.min.js", "vendor/htmx-ext-sse-2.2.4.min.js"),
}


def minifier_for(key: str) -> Callable[[str], str] | None:
    """The minifier for a static file (its path inside static/), or None if it is served as it is on disk."""
    # Only the files at the top of static/ are minified on their own: vendor/ holds third-party files, kept as
    # vendored, and js/ the parts of a bundle, minified together (BUNDLES).
    if "/" in key:
        return None
    return MINIFIERS.get(PurePosixPath(key).suffix.lower())


Stamp = tuple[tuple[float, int], ...]


def _stamp(paths: list[Path]) -> Stamp:
    """Each file's modification time and size: a change of either is a new version."""
    stats = [path.stat() for path in paths]
    return tuple((stat.st_mtime, stat.st_size) for stat in stats)


@dataclass(frozen=True)
class Served:
    """One version of a static file (or of a bundle of parts), as phones get it."""

    stamp: Stamp  # the source files' modification times and sizes when they were read
    digest: str  # 32 hex digits of the SHA-256 of the bytes served: their strong ETag
    minified: bytes | None  # the bytes served when they are not a file's as on disk (our CSS and JS, a bundle)

    @property
    def version(self) -> str:
        """The version in the file's URL: 12 hex digits of the served bytes' SHA-256."""
        return self.digest[:12]

    @property
    def mtime(self) -> float:
        """When the newest of its sources changed: the Last-Modified of the bytes served."""
        return max(mtime for mtime, _ in self.stamp)

    @property
    def size(self) -> int:
        """The size of its sources on disk."""
        return sum(size for _, size in self.stamp)


def _read(path: Path, key: str, stamp: Stamp) -> Served:
    data = path.read_bytes()
    minify = minifier_for(key)
    minified = None
    if minify is not None:
        try:
            minified = minify(data.decode("utf-8")).encode("utf-8")
        except UnicodeDecodeError:
            minified = None  # not text we can read: serve it untouched rather than guess
    return Served(stamp, _digest(data if minified is None else minified), minified)


def _read_bundle(parts: list[Path], key: str, stamp: Stamp) -> Served:
    # Minified together, not part by part: the same bytes as one file written in that order (third-party parts are
    # joined as they are). A part that is not UTF-8 is a mistake in the repository: the bundle is then not served
    # at all (a 404), rather than half of it.
    source = "\n".join(part.read_text(encoding="utf-8") for part in parts)
    minify = minifier_for(key)
    joined = (source if minify is None else minify(source)).encode("utf-8")
    return Served(stamp, _digest(joined), joined)


def _digest(served: bytes) -> str:
    # 128 bits tell two versions of a file apart as surely as 256, in 32 fewer bytes on every response.
    return hashlib.sha256(served).hexdigest()[:32]


class StaticVersions:
    """Each static file as served (minified or not) and its version, recomputed when the file changes on disk."""

    def __init__(self, folder: str, bundles: dict[str, tuple[str, ...]] | None = None):
        self.folder = Path(folder)
        self.bundles = BUNDLES if bundles is None else bundles
        self._known: dict[str, Served] = {}
        self._lock = threading.Lock()

    def served(self, filename: str) -> Served | None:
        """Return the file's current served form, or None if there is no such file (or bundle) inside the folder."""
        try:
            root = self.folder.resolve()
            path = (root / filename).resolve()
            if not path.is_relative_to(root):
                return None
            # Keyed by the file, not by how the URL spelled it ("x/../app.css"): one entry per real file.
            key = path.relative_to(root).as_posix()
            parts = [root / part for part in self.bundles.get(key, ())]
            sources = parts or [path]
            if not all(source.is_file() for source in sources):
                return None
            stamp = _stamp(sources)
            with self._lock:
                known = self._known.get(key)
            if known is not None and known.stamp == stamp:
                return known
            served = _read_bundle(parts, key, stamp) if parts else _read(path, key, stamp)
        except (OSError, ValueError):  # ValueError: a name no file can have ("a\x00b")
            return None
        with self._lock:
            self._known[key] = served
        return served

    def version(self, filename: str) -> str | None:
        """Return the file's version (12 hex digits of the served bytes' SHA-256), or None if there is no such file."""
        served = self.served(filename)
        return None if served is None else served.version

    def text(self, filename: str) -> str:
        """The file's text as served (minified if it is one of ours); OSError if it cannot be read."""
        served = self.served(filename)
        if served is None:
            raise FileNotFoundError(filename)
        if served.minified is not None:
            return served.minified.decode("utf-8")
        return (self.folder / filename).read_text(encoding="utf-8")


def static_files() -> StaticVersions:
    """Return the running app's static files."""
    files = current_app.extensions[EXTENSION]
    assert isinstance(files, StaticVersions)
    return files


def _send_static(versions: StaticVersions, filename: str) -> BaseResponse:
    """Flask's static view, except that our own CSS and JS go out minified (same headers, ETag of the bytes sent)."""
    served = versions.served(filename)
    if served is None or served.minified is None:
        response = current_app.send_static_file(filename)
    else:
        # send_file gives the minified bytes the same treatment as a file: Content-Length, Last-Modified, the
        # app's cache lifetime, and conditional answers (304 for a matching If-None-Match, 206 for a Range).
        response = send_file(
            io.BytesIO(served.minified),
            download_name=PurePosixPath(filename).name,
            etag=served.digest,
            last_modified=served.mtime,
            max_age=current_app.get_send_file_max_age(filename),
        )
    if served is not None and response.status_code == 304:
        _etag_of_the_200(response, len(served.minified) if served.minified is not None else served.size)
    # The server dates every response; Werkzeug's conditional handling adds a Date field of its own, and the phone
    # got two (RFC 9110, 5.3: a field that is not a list is sent once).
    response.headers.pop("Date", None)
    # send_file names the file for a download ("inline; filename=app.css"): a page's file is never downloaded,
    # and the name cost 40 bytes on each file of a phone's first load.
    response.headers.pop("Content-Disposition", None)
    return response


def _etag_of_the_200(response: BaseResponse, length: int) -> None:
    # A 304 must carry the ETag its 200 would (RFC 9110, 15.4.5): a gzipped 200's is weak (compress.py).
    etag, weak = response.get_etag()
    if etag and not weak and gzips(response.headers.get("Content-Type", ""), length, request):
        response.set_etag(etag, weak=True)


def init_app(app: Flask) -> None:
    """Serve our CSS and JS minified, add versions to static URLs and let browsers keep versioned files for a year."""
    assert app.static_folder is not None
    versions = StaticVersions(app.static_folder)
    app.extensions[EXTENSION] = versions
    app.view_functions["static"] = lambda filename: _send_static(versions, filename)

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
