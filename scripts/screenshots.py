"""Take the README's screenshots (docs/screenshots/) with Debian's chromium: lobby, table, standings, display, and
the table and the rules panel on a French and a German phone.

Run: .venv/bin/python scripts/screenshots.py  (starts `referee serve` on a free port with a throwaway database)
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, Server  # noqa: E402
from tests.browser.table import choose, join  # noqa: E402
from tests.browser.test_game_over import finish_a_game  # noqa: E402

OUT = ROOT / "docs" / "screenshots"


def main() -> None:
    """Start a server, set up a lobby, a game in progress and a finished game, and photograph them."""
    server = Server(Path(tempfile.mkdtemp()) / "referee.sqlite3")
    server.start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            host = browser.new_page(viewport=PHONE)
            host.goto(server.url + "/")
            for index, name in enumerate(["Ann", "Bob", "Cy"]):
                host.locator(f"#name-{index}").fill(name)
            host.get_by_role("button", name="Start the table").click()
            host.wait_for_url("**/lobby")
            bob = browser.new_page(viewport=PHONE)
            join(bob, server.local(host.locator("a.join-link").get_attribute("href") or ""), "Bob")
            host.reload()
            host.screenshot(path=str(OUT / "lobby.png"))
            table = server.create_table(["Ann", "Bob", "Cy", "Dee"])
            code, token = table["code"], table["token"]
            server.act(code, token, type="play", player="Ann", card="7")
            server.act(code, token, type="play", player="Bob", card="bomb", zeros=["Cy"])
            dee = browser.new_page(viewport=PHONE)
            join(dee, server.local(table["join_url"]), "Dee")
            dee.screenshot(path=str(OUT / "table.png"))
            dee.set_viewport_size({"width": 844, "height": 390})
            dee.screenshot(path=str(OUT / "table-landscape.png"))
            display = browser.new_page(viewport={"width": 1024, "height": 600})
            display.goto(f"{server.url}/t/{code}/display")
            display.screenshot(path=str(OUT / "table-display.png"))
            finished = server.create_table(["Ann", "Bob", "Cy"])
            finish_a_game(server, finished["code"], finished["token"])
            standings = browser.new_page(viewport=PHONE)
            standings.goto(f"{server.url}/t/{finished['code']}")
            standings.locator("#standings").scroll_into_view_if_needed()
            standings.screenshot(path=str(OUT / "standings.png"))
            # The same table on a French and a German phone (each phone's browser asks for its language), and the
            # rules panel answering the question tables argue about most, typed as players there type it.
            for language, locale, question in (
                ("fr", "fr-FR", "la bombe peut etre la derniere carte ?"),
                ("de", "de-DE", "darf die bombe die letzte karte sein"),
            ):
                seated = server.create_table(["Ann", "Bob", "Cy", "Dee"])
                server.act(seated["code"], seated["token"], type="play", player="Ann", card="7")
                server.act(seated["code"], seated["token"], type="play", player="Bob", card="bomb", zeros=["Cy"])
                phone = browser.new_page(viewport=PHONE, locale=locale)
                choose(phone, server.local(seated["join_url"]), "Dee")
                phone.screenshot(path=str(OUT / f"table-{language}.png"))
                phone.goto(f"{server.url}/rules?q={question}&table={code}")
                phone.screenshot(path=str(OUT / f"rules-{language}.png"))
            browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
