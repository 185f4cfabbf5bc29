"""Static files carry their version in the URL, so phones keep them instead of asking again on every page."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import rjsmin
from flask import Flask, url_for
from flask.testing import FlaskClient

from referee.web import assets
from referee.web.assets import StaticVersions

ASSET = re.compile(r'(?:href|src)="(/static/[^"]+)"')


def static_urls(client: FlaskClient, path: str) -> list[str]:
    """The static files a page links to."""
    return ASSET.findall(client.get(path).get_data(as_text=True))


def test_pages_link_versioned_files_that_phones_may_keep_for_a_year(client: FlaskClient) -> None:
    urls = static_urls(client, "/") + static_urls(client, "/rules")
    assert {url.partition("?")[0] for url in urls} >= {"/static/app.css", "/static/app.js", "/static/icon.svg"}
    for url in urls:
        assert re.search(r"\?v=[0-9a-f]{12}$", url), url
        response = client.get(url, headers={"Accept-Encoding": "gzip"})
        response.close()
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable", url


def test_an_unversioned_or_outdated_url_is_checked_again(client: FlaskClient) -> None:
    # A page cached before an upgrade may still ask for an old version: it must not be kept for a year.
    for url in ("/static/app.css", "/static/app.css?v=000000000000"):
        response = client.get(url)
        response.close()
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == "no-cache"


def test_a_changed_file_gets_a_new_version(tmp_path: Path) -> None:
    versions = StaticVersions(str(tmp_path))
    (tmp_path / "app.css").write_text("body { color: black; }")
    first = versions.version("app.css")
    (tmp_path / "app.css").write_text("body { color: darkred; }")
    second = versions.version("app.css")
    assert first is not None and second is not None and first != second
    assert versions.version("app.css") == second
    # However a URL spells the file, it is one file with one version (and one entry to remember).
    assert versions.version("x/../app.css") == versions.version("./app.css") == second
    assert len(versions._known) == 1


def test_no_version_for_missing_files_or_paths_outside_the_folder(tmp_path: Path) -> None:
    (tmp_path / "static").mkdir()
    (tmp_path / "secret.txt").write_text("not static")
    versions = StaticVersions(str(tmp_path / "static"))
    assert versions.version("nothing.css") is None
    assert versions.version("../secret.txt") is None


def test_a_changed_script_gets_a_new_version_and_its_new_text_minified(tmp_path: Path) -> None:
    # The server notices an edited file without a restart: a new version in the URL and the new bytes.
    app = Flask("edited", static_folder=str(tmp_path))
    assets.init_app(app)
    client = app.test_client()
    script = tmp_path / "page.js"
    script.write_text("// Say hello.\nvar greeting = 'hello';\n")
    with app.test_request_context():
        first = url_for("static", filename="page.js")
    assert client.get(first).data == b"var greeting='hello';"
    script.write_text("// Say hello, louder.\nvar greeting = 'HELLO';\n")
    with app.test_request_context():
        second = url_for("static", filename="page.js")
    assert second != first
    again = client.get(second)
    assert again.data == b"var greeting='HELLO';"
    assert again.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert again.headers["ETag"] == f'"{hashlib.sha256(again.data).hexdigest()[:32]}"'
    # A page cached before the edit asks for the old version: it gets the new bytes, not to be kept a year.
    old = client.get(first)
    assert old.data == b"var greeting='HELLO';" and old.headers["Cache-Control"] == "no-cache"


def test_only_our_own_css_and_js_are_minified(tmp_path: Path) -> None:
    (tmp_path / "vendor").mkdir()
    for name in ("app.css", "vendor/lib.js", "notes.txt"):
        (tmp_path / name).write_text("/* a comment */ body { color : red ; }\n")
    versions = StaticVersions(str(tmp_path))
    minified = versions.served("app.css")
    assert minified is not None and minified.minified == b"body{color:red}"
    for name in ("vendor/lib.js", "notes.txt"):
        kept = versions.served(name)
        assert kept is not None and kept.minified is None
        assert kept.version == hashlib.sha256((tmp_path / name).read_bytes()).hexdigest()[:12]


def test_the_page_script_is_every_concern_file_joined_in_order_and_minified(client: FlaskClient) -> None:
    # Written as one file per concern (static/js/), sent as one: a request for each would cost a cheap phone
    # 14 KB of its 40 KB first load (docs/performance.md).
    folder = Path(assets.__file__).parent.parent / "static"
    parts = assets.BUNDLES["app.js"]
    # A file added to static/js/ but not listed would never reach a phone.
    assert {f"js/{path.name}" for path in (folder / "js").glob("*.js")} == set(parts)
    assert parts[0] == "js/common.js"  # what the others use is defined first
    page = client.get("/").get_data(as_text=True)
    scripts = re.findall(r'<script src="/static/([^"?]+)', page)
    assert scripts.count("app.js") == 1 and not [name for name in scripts if name.startswith("js/")]
    served = client.get("/static/app.js").data
    joined = "\n".join((folder / part).read_text(encoding="utf-8") for part in parts)
    assert served == rjsmin.jsmin(joined).encode()
    assert served.count(b'(function(){"use strict";') == len(parts)  # each part its own closure


def test_a_changed_part_gives_its_bundle_a_new_version_and_a_missing_part_no_bundle(tmp_path: Path) -> None:
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "first.js").write_text("// One.\nvar one = 1;\n")
    (tmp_path / "js" / "second.js").write_text("// Two.\nvar two = one + 1;\n")
    versions = StaticVersions(str(tmp_path), bundles={"all.js": ("js/first.js", "js/second.js")})
    first = versions.served("all.js")
    assert first is not None and first.minified == b"var one=1;var two=one+1;"
    assert first.version == hashlib.sha256(first.minified).hexdigest()[:12]
    # However a URL spells it, it is one bundle with one version.
    assert versions.version("js/../all.js") == first.version
    (tmp_path / "js" / "second.js").write_text("// Two, as a constant.\nvar two = 2;\n")
    second = versions.served("all.js")
    assert second is not None and second.minified == b"var one=1;var two=2;" and second.version != first.version
    # A part fetched on its own is a file below the top of the folder: as it is on disk.
    alone = versions.served("js/first.js")
    assert alone is not None and alone.minified is None
    (tmp_path / "js" / "first.js").unlink()
    assert versions.version("all.js") is None
