"""The live stream (/t/<code>/events) and the board endpoint the pages poll or re-fetch."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from conftest import Api
from flask import Flask
from flask.testing import FlaskClient

from .conftest import Phone, parse


def messages(client: FlaskClient, code: str) -> tuple[Any, Iterator[str]]:
    """Open the stream; return the response and an iterator over its messages as text."""
    response = client.get(f"/t/{code}/events")
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    assert "no-cache" in response.headers["Cache-Control"]
    chunks = (chunk.decode() if isinstance(chunk, bytes) else chunk for chunk in response.response)
    return response, chunks


def changed(message: str) -> dict[str, int]:
    """The data of a "changed" message."""
    lines = message.strip().splitlines()
    assert "event: changed" in lines, message
    data = next(line for line in lines if line.startswith("data: "))
    body = json.loads(data.removeprefix("data: "))
    assert isinstance(body, dict)
    return body


def test_first_message_is_changed_with_the_current_version(api: Api, client: FlaskClient) -> None:
    api.create(["Ann", "Bob"])
    api.play("Ann", "7")
    api.play("Bob", "3")
    response, stream = messages(client, api.code)
    try:
        first = next(stream)
        assert changed(first)["version"] == 2
        assert "retry:" in first  # the browser reconnects quickly after a drop
    finally:
        response.close()


def test_keep_alive_when_idle(api: Api, client: FlaskClient, app: Flask) -> None:
    api.create(["Ann", "Bob"])
    response, stream = messages(client, api.code)
    try:
        next(stream)
        started = time.monotonic()
        comment = next(stream)
        waited = time.monotonic() - started
        assert comment.startswith(":")
        assert comment.endswith("\n\n")
        assert waited < app.config["STREAM_MAX_SECONDS"]
    finally:
        response.close()


def test_an_action_makes_the_next_message_carry_the_new_version(api: Api, client: FlaskClient) -> None:
    api.create(["Ann", "Bob"])
    response, stream = messages(client, api.code)
    try:
        assert changed(next(stream))["version"] == 0
        api.play("Ann", "7")  # published to the open stream after its commit
        message = next(stream)
        assert changed(message)["version"] == 1
        api.act(type="undo")
        assert changed(next(stream))["version"] == 2
    finally:
        response.close()


def test_the_stream_ends_and_releases_its_slot(api: Api, client: FlaskClient, app: Flask) -> None:
    api.create(["Ann", "Bob"])
    bus = app.extensions["referee"].bus
    response, stream = messages(client, api.code)
    assert bus.open_streams == 1
    started = time.monotonic()
    rest = list(stream)  # STREAM_MAX_SECONDS is 1 s in tests
    assert time.monotonic() - started < 3
    assert all(item.startswith(":") or "event: changed" in item for item in rest)
    response.close()
    assert bus.open_streams == 0


def test_too_many_streams_get_503(api: Api, app: Flask) -> None:
    api.create(["Ann", "Bob"])
    bus = app.extensions["referee"].bus
    held = [bus.subscribe(api.code, 0) for _ in range(bus.max_listeners - bus.open_streams)]
    try:
        response = app.test_client().get(f"/t/{api.code}/events")
        assert response.status_code == 503
        assert response.headers["Retry-After"]
    finally:
        for listener in held:
            assert listener is not None
            bus.unsubscribe(listener)


def test_stream_of_an_unknown_table_is_404(client: FlaskClient) -> None:
    assert client.get("/t/NOSUCH/events").status_code == 404


def test_board_answers_204_when_unchanged_and_the_board_otherwise(api: Api, phone: Phone) -> None:
    api.create(["Ann", "Bob"])
    phone.open(f"/t/{api.code}")
    refresh = phone.page.by_id("refresh")
    url = refresh["hx-get"]
    assert "since=" in url
    assert "sse:changed" in refresh["hx-trigger"]
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
    assert live["hx-ext"] == "sse"
    assert live["sse-connect"] == f"/t/{api.code}/events"


def test_head_requests_to_the_stream_do_not_use_up_its_places(api: Api, app: Flask) -> None:
    # Anyone on the Wi-Fi could otherwise fill the 200 places with HEADs and turn off live updates.
    api.create(["Ann", "Bob"])
    bus = app.extensions["referee"].bus
    client = app.test_client()
    for _ in range(bus.max_listeners + 5):
        response = client.head(f"/t/{api.code}/events")
        response.close()
        assert response.status_code == 200
    assert bus.open_streams == 0
    response, chunks = messages(client, api.code)
    assert changed(next(chunks))["version"] == 0
    response.close()


def test_a_stopping_server_opens_no_new_streams(api: Api, app: Flask) -> None:
    api.create(["Ann", "Bob"])
    app.extensions["referee"].bus.close_all()
    response = app.test_client().get(f"/t/{api.code}/events")
    assert response.status_code == 503
