"""The installable app's files: every page links the manifest and the home-screen icon, the icons are the PNG
sizes the manifest claims, and the service worker precaches the shell only (never a page of a table)."""

from __future__ import annotations

import re
import struct

from conftest import Api
from flask.testing import FlaskClient


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_every_page_links_the_manifest_and_the_home_screen_icon(api: Api, client: FlaskClient) -> None:
    api.create(["Ann", "Bob"])
    for path in ("/", f"/t/{api.code}", "/rules", "/no/such/page"):
        html = client.get(path).get_data(as_text=True)
        assert re.search(r'<link rel="manifest" href="/manifest.webmanifest">', html), path
        assert 'rel="apple-touch-icon"' in html and "data-service-worker=" in html, path
        assert html.count('name="theme-color"') == 2, path  # one for the light theme, one for the dark


def test_the_manifest_icons_are_pngs_of_the_sizes_it_claims(client: FlaskClient) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.mimetype == "application/manifest+json"
    manifest = response.get_json()
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        size = tuple(int(part) for part in icon["sizes"].split("x"))
        assert png_size(client.get(icon["src"]).data) == size
    home = client.get("/").get_data(as_text=True)
    apple = re.search(r'rel="apple-touch-icon" href="([^"]+)"', home)
    assert apple is not None and png_size(client.get(apple[1]).data) == (180, 180)


def test_the_service_worker_keeps_the_shell_and_never_a_table(client: FlaskClient) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert "no-cache" in response.headers["Cache-Control"]
    script = response.get_data(as_text=True)
    shell = re.search(r"var SHELL ?= ?\[(.*?)\];", script)
    assert shell is not None
    urls = re.findall(r'"([^"]+)"', shell[1])
    assert urls[0] == "/offline.html" and all(url.startswith("/static/") for url in urls[1:])
    assert re.search(r'var OFFLINE ?= ?"/offline.html";', script)  # spaces or not: the worker goes out minified
    for url in urls:
        assert client.get(url).status_code == 200, url
    offline = client.get("/offline.html").get_data(as_text=True)
    assert "Can't reach the table — are you on the same Wi-Fi?" in offline
    assert "<script>" not in offline  # the Content-Security-Policy allows no inline script
    # What the offline page loads is what the worker keeps (no ?v=, which would miss the kept copy).
    for link in re.findall(r'(?:href|src)="([^"]+)"', offline):
        assert link in urls, link
    assert 'data-health-url="/healthz"' in offline
    assert "__" not in script  # every placeholder filled in


def test_under_a_proxy_path_prefix_the_offline_page_and_the_worker_name_prefixed_urls(client: FlaskClient) -> None:
    # A proxy on this machine serves the app under /referee and strips it (X-Forwarded-Prefix says so).
    prefixed = {"X-Forwarded-Prefix": "/referee"}
    script = client.get("/sw.js", headers=prefixed).get_data(as_text=True)
    shell = re.search(r"var SHELL ?= ?\[(.*?)\];", script)
    assert shell is not None
    urls = re.findall(r'"([^"]+)"', shell[1])
    assert urls[0] == "/referee/offline.html" and all(url.startswith("/referee/static/") for url in urls[1:])
    offline = client.get("/offline.html", headers=prefixed).get_data(as_text=True)
    links = re.findall(r'(?:href|src)="([^"]+)"', offline)
    assert links and all(link in urls for link in links), links
    assert 'data-health-url="/referee/healthz"' in offline
