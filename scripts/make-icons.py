"""Draw the PNG app icons from static/icon.svg with Debian's chromium (through Playwright, a test dependency).

Phones want PNGs to install the app (the manifest's 192 and 512 px icons, a "maskable" one whose artwork
keeps to the middle 80% so any mask shape can crop it, and the 180 px apple-touch-icon). The PNGs are
committed; run this only after changing the SVG:  .venv/bin/python scripts/make-icons.py
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parent.parent
SVG = REPO / "static" / "icon.svg"
OUT = REPO / "static" / "icons"
# (file, size in px, maskable): a maskable icon fills its whole square and shrinks the artwork into the safe zone.
ICONS = (
    ("icon-192.png", 192, False),
    ("icon-512.png", 512, False),
    ("icon-maskable-512.png", 512, True),
    ("apple-touch-icon.png", 180, True),  # iOS rounds the corners itself and shows transparency as black
)


def page_for(svg: str, size: int, maskable: bool) -> str:
    """An HTML page showing the SVG at `size` px (for a maskable icon: on a full square, artwork at 70%)."""
    background = re.search(r'<rect[^>]*fill="([^"]+)"', svg)
    colour = background.group(1) if background else "#14213d"
    if maskable:
        inner = int(size * 0.7)
        body = f'<div style="width:{size}px;height:{size}px;background:{colour};display:grid;place-items:center">'
        body += svg.replace("<svg ", f'<svg width="{inner}" height="{inner}" ', 1) + "</div>"
    else:
        body = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
    return f"<!doctype html><html><body style='margin:0;background:transparent'>{body}</body></html>"


def main() -> None:
    svg = SVG.read_text(encoding="utf-8")
    OUT.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for name, size, maskable in ICONS:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(page_for(svg, size, maskable))
            page.screenshot(
                path=str(OUT / name), omit_background=True, clip={"x": 0, "y": 0, "width": size, "height": size}
            )
            page.close()
            print(f"wrote static/icons/{name} ({size}x{size})")
        browser.close()


if __name__ == "__main__":
    main()
