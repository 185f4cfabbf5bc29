"""Installing the app on a phone: the web app manifest and the service worker, both at the site's root.

The service worker must be served from the root to control every page (a script under /static/ could only
control /static/). It keeps the app shell and static files for when the Wi-Fi drops, never a table's state,
and shows its own offline page instead of the browser's error. Every URL here comes from `url_for`, so all of
it works under a proxy's path prefix (X-Forwarded-Prefix) too.
"""

from __future__ import annotations

import hashlib

from flask import Blueprint, Response, jsonify, render_template, request, url_for

from ..engine.words import N_
from .assets import static_files
from .i18n import LANGUAGES, catalog_wording, language

bp = Blueprint("pwa", __name__)

# Precached at install (with the offline page itself): what the offline page needs, and what every page loads.
SHELL = (
    "offline.js",
    "app.css",
    "icon.svg",
    "icons/icon-192.png",
)
MANIFEST_ICONS = (
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/icon-maskable-512.png", "512x512", "maskable"),
)
THEME_LIGHT = "#14213d"  # the top bar's colour in the light theme (static/app.css --fg)
BACKGROUND = "#f6f4ee"  # the page's background in the light theme (--bg): the splash screen's


def shell_url(name: str) -> str:
    """A shell file's URL as the service worker keeps it: with the site's path prefix, without ?v=."""
    return url_for("static", filename=name).split("?")[0]


def _offline_page() -> str:
    return render_template("offline.html", shell_url=shell_url)


@bp.get("/offline.html")
def offline() -> Response:
    """The page the service worker shows when the server cannot be reached (it links the shell by its URLs)."""
    response = Response(_offline_page(), mimetype="text/html")
    response.cache_control.no_cache = True
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest: name, start page, standalone display, colours, icons; its words in the language the
    page's link names (?lang=), else the browser's."""
    start = url_for("home.index")
    asked = request.args.get("lang", "")
    said_in = asked if asked in LANGUAGES else language()
    description = catalog_wording(said_in).gettext(
        N_("Keeps the total, the turns, the lives and the rules for a real game of 5 Alive.")
    )
    body = {
        "id": start,
        "name": "5 Alive Referee",
        "short_name": "5 Alive",
        "description": description,
        "lang": said_in,
        "start_url": start,
        "scope": start,
        "display": "standalone",
        "orientation": "portrait",
        "theme_color": THEME_LIGHT,
        "background_color": BACKGROUND,
        "icons": [
            {"src": url_for("static", filename=name), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for name, sizes, purpose in MANIFEST_ICONS
        ],
    }
    response = jsonify(body)
    response.mimetype = "application/manifest+json"
    return response


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, with the list of shell files and a version that changes whenever any of them does."""
    files = static_files()
    # Minified like our other scripts; its placeholders are string literals, which the minifier keeps.
    script = files.text("sw.js")
    digest = hashlib.sha256(script.encode())
    digest.update(_offline_page().encode())
    for name in SHELL:
        # The version of the bytes the worker will keep: it changes whenever what a phone gets does.
        digest.update(str(files.version(name)).encode())
    offline_url = url_for("pwa.offline")
    urls = ", ".join(f'"{url}"' for url in (offline_url, *(shell_url(name) for name in SHELL)))
    script = script.replace("__VERSION__", digest.hexdigest()[:12]).replace('"__SHELL__"', urls)
    script = script.replace("__OFFLINE__", offline_url)
    response = Response(script, mimetype="text/javascript")
    # Browsers check for a new service worker on each visit; never let a cache answer for it.
    response.cache_control.no_cache = True
    return response
