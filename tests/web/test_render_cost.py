"""A board's render stays cheap for the server: no garbage that only the collector can free, the same HTML.

With a thousand phones a full garbage collection stops every request for a quarter of a second or more
(docs/performance.md); it ran often because every board render left reference cycles behind.
"""

from __future__ import annotations

import gc
from dataclasses import replace

from flask import Flask
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.service.tableview import LogEntry, undone_or_redone_last

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


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["enter", "undo", "redo"]), max_size=40))
def test_the_newest_undo_or_redo_is_found_without_reading_the_whole_log(steps: list[str]) -> None:
    # Every tap and refresh asks what the newest change was ("Undone: …" on the board, "That Undo is already done"
    # for a double tap). It looks at three entries of the log, not all of them, and must still find the entry the
    # last Undo or Redo changed. The log is kept as the store keeps it: a new action drops the undone entries.
    log: list[LogEntry] = []
    last_undo_or_redo: int | None = None  # the seq of the entry the newest change undid or put back, if any
    for now, step in enumerate(steps, start=1):
        active = [entry for entry in log if not entry.undone]
        undone = [entry for entry in log if entry.undone]
        if step == "enter":
            log = [*active, LogEntry(len(log) + 1, "a card", None, None, False, None, changed_at=now)]
            last_undo_or_redo = None
        elif step == "undo" and active:
            log = [*active[:-1], replace(active[-1], undone=True, changed_at=now, status_changed=True), *undone]
            last_undo_or_redo = active[-1].seq
        elif step == "redo" and undone:
            log = [*active, replace(undone[0], undone=False, changed_at=now, status_changed=True), *undone[1:]]
            last_undo_or_redo = undone[0].seq
    found = undone_or_redone_last(tuple(log))
    assert (found and found.seq) == last_undo_or_redo
