"""Measure a host's first load of a table page, as `python -m tools.bench` does and in a real Chromium; print JSON.

`python -m tools.bench` has no option that runs only its page-weight part (row 4 of docs/performance.md), and the
whole benchmark takes minutes; this runs that same part (`measure_page_weight`) on a fresh `referee serve`,
then loads a host's table page in Debian's chromium (Playwright, phone size, empty cache, service worker
blocked so that every file comes from the server) and adds up the encoded bytes of every response: status
line and headers plus the body as sent. Android's Chrome also fetches the web app manifest, which a headless
Chromium does not: it is fetched from the page afterwards and reported on its own. Needs the test extra.

    .venv/bin/python scripts/measure-first-load.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import urllib.parse
from pathlib import Path
from typing import Any

# Run as a file (python scripts/…), the checkout's top is not on the path: tools/ is found from there.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import Page, Request, sync_playwright  # noqa: E402

from tools.bench.http import Addresses, measure_page_weight  # noqa: E402
from tools.harness import LiveServer  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
PHONE = {"width": 390, "height": 844}


def encoded(request: Request) -> int:
    """Bytes of one response on the wire: headers and the (compressed) body as the server sent them."""
    sizes = request.sizes()
    return int(sizes["responseHeadersSize"]) + int(sizes["responseBodySize"])


def host_table_path(page: Page, base: str) -> str:
    """Start a 4-player table with the home page's form (through the context's cookies, not the page's cache)."""
    home = page.context.request.get(f"{base}/")
    csrf = home.text().split('name="csrf" value="', 1)[1].split('"', 1)[0]
    names = [("name", name) for name in ("Ann", "Bob", "Cy", "Dee")]
    # The form repeats the "name" field, which Playwright's `form=` (a dict) cannot: send it url-encoded.
    body = urllib.parse.urlencode([("csrf", csrf), *names, ("variant", "standard"), ("entry", "joined")])
    body += "&first=0&op=start"
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    started = page.context.request.post(f"{base}/", data=body, headers=headers, max_redirects=0)
    assert started.status == 303, started.status
    return started.headers["location"].removesuffix("/lobby")


def chromium_first_load(base: str) -> dict[str, Any]:
    """One real first load of a host's table page; every response's encoded bytes, then the manifest's."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport=PHONE, service_workers="block")
        page = context.new_page()
        path = host_table_path(page, base)
        rows: list[dict[str, Any]] = []
        page.on("requestfinished", lambda r: rows.append({"url": r.url.split("?")[0], "wire": encoded(r)}))
        page.goto(base + path, wait_until="networkidle")
        load = list(rows)
        with page.expect_request_finished(lambda r: "manifest" in r.url) as fetched:
            page.evaluate("fetch(document.querySelector('link[rel=manifest]').href).then(r => r.text())")
        manifest = encoded(fetched.value)
        browser.close()
    total = sum(row["wire"] for row in load)
    return {"requests": len(load), "wire_bytes": total, "manifest_wire_bytes": manifest, "resources": load}


def main() -> None:
    """Measure `--runs` times on one fresh server; print every run and the medians."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory(prefix="referee-first-load-") as folder,
        LiveServer(Path(folder) / "first-load.sqlite3") as server,
    ):
        addresses = Addresses()
        bench = [measure_page_weight(server.port, addresses)["first_load"] for _ in range(args.runs)]
        real = [chromium_first_load(server.url) for _ in range(args.runs)]
    kib = 1024
    summary = {
        "bench_first_load_kb": statistics.median(run["wire_bytes"] for run in bench) / kib,
        "bench_requests": bench[0]["requests"],
        "chromium_first_load_kib": statistics.median(run["wire_bytes"] for run in real) / kib,
        "chromium_requests": real[0]["requests"],
        "chromium_with_manifest_kib": statistics.median(r["wire_bytes"] + r["manifest_wire_bytes"] for r in real) / kib,
    }
    resources = {row["url"]: row["wire"] for row in real[0]["resources"]}
    print(json.dumps({"summary": summary, "bench": bench[0]["resources"], "chromium": resources}, indent=2))


if __name__ == "__main__":
    main()
