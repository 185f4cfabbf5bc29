"""A board's render stays cheap for the server: no garbage that only the collector can free, the same HTML.

With a thousand phones a full garbage collection stops every request for a quarter of a second or more
(docs/performance.md); it ran often because every board render left reference cycles behind.
"""

from __future__ import annotations

import gc

from flask import Flask

from .conftest import Phone, drive


def test_showing_boards_leaves_no_garbage_for_the_collector(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    drive(app, code, "Ann 7", "Bob 3")
    client = app.test_client()
    client.get(f"/t/{code}/board", headers={"HX-Request": "true"})  # first render: templates compiled
    gc.collect()
    gc.disable()
    try:
        for _ in range(20):
            assert client.get(f"/t/{code}/board", headers={"HX-Request": "true"}).status_code == 200
        found = gc.collect()
    finally:
        gc.enable()
    # Werkzeug's test client leaves about 14 objects a request of its own; the board's render left about 150
    # more (the engine's refusals kept their tracebacks, and with them frames and the whole game state).
    assert found < 20 * 40, found


def test_a_log_line_shown_again_after_undo_is_drawn_anew(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    drive(app, code, "Ann 7")
    phone.open(f"/t/{code}")
    first = phone.page.by_id("log").find_all("li")[1].text()  # under the "Round 1" heading
    assert first.startswith("Ann played 7")
    phone.press("Undo")
    phone.open(f"/t/{code}")
    assert phone.page.by_id("log").find_all("li")[1].text().startswith("Undone")


def test_a_board_behind_a_proxy_prefix_links_under_it_and_one_without_does_not(phone: Phone, app: Flask) -> None:
    # The app remembers the URLs it builds: the prefix a proxy serves it under (X-Forwarded-Prefix) is part of
    # what it remembers them by, so the same table reached both ways links each way correctly, in either order.
    code = phone.start(["Ann", "Bob", "Cy"])
    client = app.test_client()
    board = {"HX-Request": "true"}
    for _ in range(2):
        direct = client.get(f"/t/{code}/board", headers=board).get_data(as_text=True)
        prefixed = client.get(f"/t/{code}/board", headers={**board, "X-Forwarded-Prefix": "/referee"})
        html = prefixed.get_data(as_text=True)
        assert f'hx-get="/referee/t/{code}/board?' in html and f'hx-get="/t/{code}/board?' not in html
        assert f'hx-get="/t/{code}/board?' in direct and "/referee/" not in direct
