"""What a phone downloads of our static files from the real server: our own CSS and JS without their comments
(the repository keeps them), third-party files byte for byte, and caching headers that fit the bytes sent."""

from __future__ import annotations

import gzip
import hashlib
import re
from email.utils import parsedate_to_datetime
from pathlib import Path

import pytest

import referee
from referee.web.assets import BUNDLES
from tools.harness import BROWSER_HEADERS, Client, LiveServer, Reply

STATIC = Path(referee.__file__).parent / "static"  # what the server serves (the repository's static/, linked)
OURS = ("app.css", "app.js", "offline.js", "sw.js")
BLOCK_COMMENT = re.compile(r"/\*(.*?)\*/", re.S)
LINE_COMMENT = re.compile(r"^\s*//(.*)$|\s//\s(.*)$", re.M)  # how our scripts write them (no "//" in strings)
PLAIN = {"Accept-Encoding": "identity"}


def comments(text: str) -> list[str]:
    """The words of every comment in a stylesheet or script, as written in the repository."""
    found = [match.group(1) for match in BLOCK_COMMENT.finditer(text)]
    found += [match.group(1) or match.group(2) for match in LINE_COMMENT.finditer(text)]
    return [words.strip() for words in found if words.strip()]


def source(name: str) -> bytes:
    """The repository's copy of a file phones get: the file itself, or the parts a bundle is made of (app.js)."""
    return b"\n".join((STATIC / part).read_bytes() for part in BUNDLES.get(name, (name,)))


def get(server: LiveServer, path: str, headers: dict[str, str] | None = None) -> Reply:
    with Client(server.port) as client:
        return client.request("GET", path, headers=headers or BROWSER_HEADERS)


def unzipped(reply: Reply) -> bytes:
    return gzip.decompress(reply.body) if reply.headers.get("content-encoding") == "gzip" else reply.body


@pytest.mark.parametrize("name", OURS)
def test_our_css_and_js_reach_the_phone_without_their_comments_and_smaller(live_server: LiveServer, name: str) -> None:
    on_disk = source(name)
    written = comments(on_disk.decode())
    assert len(written) >= 2, "the repository's copy keeps its comments"
    plain = get(live_server, f"/static/{name}", PLAIN)
    assert plain.status == 200 and "content-encoding" not in plain.headers
    served = plain.body.decode()
    assert int(plain.headers["content-length"]) == len(plain.body) < len(on_disk) * 0.9
    assert "/*" not in served and not LINE_COMMENT.search(served)
    assert not [words for words in written if words in served]
    zipped = get(live_server, f"/static/{name}")
    if len(plain.body) >= 1024:  # smaller ones are not worth gzip (referee/web/compress.py)
        assert zipped.headers["content-encoding"] == "gzip"
        assert int(zipped.headers["content-length"]) == len(zipped.body) < len(gzip.compress(on_disk, 9))
    assert unzipped(zipped) == plain.body


def test_the_service_worker_script_is_minified_too(live_server: LiveServer) -> None:
    reply = get(live_server, "/sw.js", PLAIN)
    assert reply.status == 200
    script = reply.body.decode()
    assert 'var CACHE="referee-' in script and "/*" not in script and not LINE_COMMENT.search(script)
    assert not [words for words in comments((STATIC / "sw.js").read_text()) if words in script]


def test_vendored_and_other_files_are_served_byte_for_byte(live_server: LiveServer) -> None:
    files = [path for path in STATIC.rglob("*") if path.is_file() and path.parent != STATIC]
    assert any(path.suffix == ".js" for path in files) and any(path.suffix == ".png" for path in files)
    for path in files:
        url = "/static/" + path.relative_to(STATIC).as_posix()
        for headers in (PLAIN, BROWSER_HEADERS):
            reply = get(live_server, url, headers)
            assert reply.status == 200 and unzipped(reply) == path.read_bytes(), url
            again = get(live_server, url, {**headers, "If-None-Match": reply.headers["etag"]})
            assert again.status == 304 and again.headers["etag"] == reply.headers["etag"], url


def test_a_page_loads_htmx_and_its_extension_as_vendored_in_one_file_then_its_own_script(
    live_server: LiveServer,
) -> None:
    """Two scripts, not four: each is a request for a cheap phone and its headers on the wire (docs/performance.md).
    The vendored files reach the phone byte for byte, in the order they must run, before the page's own script."""
    page = get(live_server, "/").text()
    scripts = re.findall(r'<script src="(/static/[^"?]+)\?v=[0-9a-f]{12}"', page)
    assert scripts == ["/static/vendor/htmx-2.0.11-sse-2.2.4.js", "/static/app.js"]
    vendored = (STATIC / "vendor/htmx-2.0.11.min.js").read_bytes() + b"\n"
    vendored += (STATIC / "vendor/htmx-ext-sse-2.2.4.min.js").read_bytes()
    for headers in (PLAIN, BROWSER_HEADERS):
        reply = get(live_server, scripts[0], headers)
        assert reply.status == 200 and reply.headers["content-type"].startswith("text/javascript")
        assert unzipped(reply) == vendored
    assert get(live_server, scripts[0]).headers["content-encoding"] == "gzip"


def test_the_version_and_etag_are_of_the_bytes_sent_and_a_revalidation_gets_a_304(live_server: LiveServer) -> None:
    page = get(live_server, "/").text()
    for name in ("app.css", "app.js"):
        found = re.search(rf'"(/static/{re.escape(name)}\?v=([0-9a-f]{{12}}))"', page)
        assert found is not None, name
        url, version = found.groups()
        plain = get(live_server, url, PLAIN)
        digest = hashlib.sha256(plain.body).hexdigest()[:32]
        assert digest.startswith(version) and plain.headers["etag"] == f'"{digest}"'
        assert plain.headers["cache-control"] == "public, max-age=31536000, immutable"
        zipped = get(live_server, url)
        assert zipped.headers["etag"] == f'W/"{digest}"'  # gzip changes the bytes: a weak ETag (compress.py)
        for headers, etag in ((PLAIN, plain.headers["etag"]), (BROWSER_HEADERS, zipped.headers["etag"])):
            again = get(live_server, url, {**headers, "If-None-Match": etag})
            # The 304 names the ETag its 200 would have: strong for the plain bytes, weak for the gzipped.
            assert again.status == 304 and again.body == b"" and again.headers["etag"] == etag, (url, headers)
        stale = get(live_server, url, {**PLAIN, "If-None-Match": '"an-old-version"'})
        assert stale.status == 200 and stale.body == plain.body
        since = get(live_server, url, {**PLAIN, "If-Modified-Since": plain.headers["last-modified"]})
        assert since.status == 304
        part = get(live_server, url, {**PLAIN, "Range": "bytes=0-9"})
        assert part.status == 206 and part.body == plain.body[:10]


@pytest.mark.parametrize("url", ["/static/app.css", "/static/vendor/htmx-2.0.11.min.js", "/", "/healthz"])
def test_every_answer_carries_one_date(live_server: LiveServer, url: str) -> None:
    # The server dates every response; a static file's conditional handling used to add a second Date field.
    for headers in (PLAIN, BROWSER_HEADERS):
        reply = get(live_server, url, headers)
        assert reply.status == 200
        assert reply.headers["date"].count("GMT") == 1, reply.headers["date"]
        assert parsedate_to_datetime(reply.headers["date"]).year >= 2026
