"""The board endpoint the pages poll or re-fetch, and what a page without a live stream is told.

The live stream itself runs only in `referee serve`'s ASGI front: tests/reliability/test_live_stream.py.
"""

from __future__ import annotations

from conftest import Api
from flask.testing import FlaskClient

from .conftest import Phone, parse


def test_board_answers_204_when_unchanged_and_the_board_otherwise(api: Api, phone: Phone) -> None:
    api.create(["Ann", "Bob"])
    phone.open(f"/t/{api.code}")
    refresh = phone.page.by_id("refresh")
    url = refresh["hx-get"]
    assert "since=" in url
    assert refresh["hx-trigger"] == "refresh"  # static/js/sync.js asks, only while the board is behind the stream
    response = phone.client.get(url, headers={"HX-Request": "true"})
    assert response.status_code == 204
    assert response.get_data() == b""
    api.play("Ann", "6")
    response = phone.client.get(url, headers={"HX-Request": "true"})
    assert response.status_code == 200
    board = parse(response.get_data(as_text=True)).by_id("board")
    assert board["data-version"] == "1"
    output = board.find(aria_label="Running total")
    assert output is not None and output.text() == "6"
    # The fresh board asks for changes after its own revision.
    fresh = board.find(id="refresh")
    assert fresh is not None
    assert phone.client.get(fresh["hx-get"]).status_code == 204
    response = phone.client.get(f"/t/{api.code}/board")
    assert response.status_code == 200
    assert phone.client.get("/t/NOSUCH/board?since=0").status_code == 404


def test_the_table_page_connects_to_its_stream(api: Api, phone: Phone) -> None:
    api.create(["Ann", "Bob"])
    phone.open(f"/t/{api.code}")
    live = phone.page.by_id("live")
    assert "sse" in [name.strip() for name in live["hx-ext"].split(",")]
    assert live["sse-connect"] == f"/t/{api.code}/events"


def test_a_plain_wsgi_server_says_it_has_no_stream_so_the_page_polls(api: Api, client: FlaskClient) -> None:
    """Under another WSGI server (wsgi.py) the route answers 503 in words: static/js/sync.js then polls."""
    api.create(["Ann", "Bob"])
    response = client.get(f"/t/{api.code}/events")
    assert response.status_code == 503 and response.headers["Retry-After"]
    assert "poll" in response.get_data(as_text=True)
