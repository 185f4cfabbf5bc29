"""The stylesheet a phone gets is minified (referee/web/assets.py), yet every page element looks exactly as the
commented stylesheet in the repository draws it, in the light and the dark theme."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Route

import referee

from .conftest import Phones, Server
from .table import start_from_home

STYLESHEET = Path(referee.__file__).parent / "static" / "app.css"
# Every property the browser computed for every element and its ::before/::after, keyed by the element's place.
COMPUTED_STYLES = """() => {
  const styles = {};
  document.querySelectorAll("*").forEach((element, index) => {
    for (const pseudo of [null, "::before", "::after"]) {
      const style = getComputedStyle(element, pseudo);
      if (pseudo && style.content === "none") continue;  // no such pseudo-element: nothing drawn
      const values = {};
      for (const name of style) values[name] = style.getPropertyValue(name);
      styles[`${index} ${element.tagName}#${element.id}${pseudo || ""}`] = values;
    }
  });
  return styles;
}"""


def styles(page: Page, url: str) -> dict[str, Any]:
    """Load `url` and return every computed style on it, once the page has settled."""
    page.goto(url, wait_until="load")
    # Transitions would catch a value half-way; the reduced-motion theme has none.
    page.wait_for_timeout(100)
    computed: dict[str, Any] = page.evaluate(COMPUTED_STYLES)
    return computed


def commented_stylesheet(route: Route) -> None:
    """Answer the stylesheet's request with the file as it is in the repository, comments and all."""
    route.fulfill(body=STYLESHEET.read_bytes(), content_type="text/css; charset=utf-8")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_minified_stylesheet_draws_the_table_page_exactly_as_the_commented_one(
    server: Server, phones: Phones, scheme: str
) -> None:
    # The service worker would answer the second load from its cache, past the route below.
    page = phones.new(service_workers="block")
    assert "/*" in STYLESHEET.read_text()  # the repository's copy keeps its comments
    page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
    start_from_home(page, server.url, ["Ann", "Bob", "Cy"])
    url = page.url
    served = page.request.get(server.url + (page.locator("link[rel=stylesheet]").get_attribute("href") or ""))
    assert "/*" not in served.text() and len(served.body()) < len(STYLESHEET.read_bytes())
    minified = styles(page, url)
    page.route("**/static/app.css*", commented_stylesheet)
    commented = styles(page, url)
    assert len(minified) > 200  # a whole table page: pad, players, log, sheets
    different = [key for key in minified if minified[key] != commented.get(key)]
    assert minified.keys() == commented.keys() and not different, different[:5]
