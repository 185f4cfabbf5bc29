"""Logs and health through the real server: one timestamped access line per request with secrets redacted,
`--log-level`, `/healthz` and `/readyz`."""

from __future__ import annotations

import logging
import re
import sqlite3
import time
from pathlib import Path

import pytest

from referee import create_app
from referee.web import health, logs
from tools.harness import Client, LiveServer

ACCESS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z INFO referee\.access: (\S+) (\S+) (\d{3}) (\d+\.\d)ms$")


def access_lines(server: LiveServer) -> list[tuple[str, str, str, float]]:
    """Every access-log line the server wrote: (method, path, status, milliseconds)."""
    found = []
    for line in server.output().splitlines():
        match = ACCESS.match(line)
        if match:
            found.append((match[1], match[2], match[3], float(match[4])))
    return found


def test_each_request_is_one_access_line_with_codes_and_secrets_redacted(tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "referee.sqlite3", logs=tmp_path / "logs").start()
    try:
        with Client(server.port) as client:
            created = client.json("POST", "/api/v1/tables", {"players": ["Ann", "Bob"]}).json()
            join_path = created["join_url"].split("://", 1)[1].split("/", 1)[1]
            assert client.request("GET", f"/{join_path}").status == 200
            assert client.request("GET", f"/t/{created['code']}").status == 200
            assert client.request("GET", "/no/such/page").status == 404
            assert client.request("GET", "/rules/search?q=can+a+bomb+end+it").status == 200
            assert client.request("GET", "/healthz").text() == "ok"
            assert client.request("GET", "/readyz").text() == "ready"
            assert client.json("POST", "/api/v1/tables/import", {"format": "?"}).status == 400
        # A live stream is answered by the server's front, before Flask: it is logged too, when it ends.
        with Client(server.port) as phone:
            stream = phone.request("HEAD", f"/t/{created['code']}/events")
            assert stream.status == 200
        time.sleep(0.2)  # the line is written once the answer is sent
    finally:
        server.stop()
    lines = access_lines(server)
    requests = [(method, path, status) for method, path, status, _ in lines]
    assert ("POST", "/api/v1/tables", "201") in requests
    assert ("GET", "/j/<code>/<secret>", "200") in requests
    assert ("GET", "/t/<code>", "200") in requests
    assert ("GET", "/no/such/page", "404") in requests
    assert ("GET", "/rules/search?…", "200") in requests  # a player's question stays out of the log
    assert ("GET", "/readyz", "200") in requests
    assert ("HEAD", "/t/<code>/events", "200") in requests
    assert ("POST", "/api/v1/tables/import", "400") in requests  # the endpoint's own name is not a code
    assert all(ms >= 0 for *_, ms in lines)
    output = server.output()
    secret = join_path.rsplit("/", 1)[1]
    assert created["code"] not in output and secret not in output and "bomb" not in output


def test_log_level_warning_leaves_out_the_access_log(tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "referee.sqlite3", env={"REFEREE_LOG_LEVEL": "warning"}).start()
    try:
        with Client(server.port) as client:
            assert client.request("GET", "/").status == 200
    finally:
        server.stop()
    assert access_lines(server) == []
    assert "referee.access" not in server.output()


def test_an_unexpected_error_is_logged_once_with_a_timestamp(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    previous = logging.getLogger().handlers[:], logging.getLogger().level
    logs.configure("info")  # what `referee serve` does, before the app is made
    try:
        app = create_app({"SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"})

        def broken(code: str) -> str:
            raise RuntimeError("a bug the tests made on purpose")

        app.add_url_rule("/t/<code>/broken", "broken", broken)
        response = app.test_client().get("/t/K7MP2X/broken")
        assert response.status_code == 500
    finally:
        logging.getLogger().handlers[:], _ = previous
        logging.getLogger().setLevel(previous[1])
    err = capsys.readouterr().err
    assert err.count("Traceback") == 1, err
    assert err.count("RuntimeError: a bug the tests made on purpose") == 1
    first = next(line for line in err.splitlines() if "ERROR" in line)
    assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z ERROR ", first), first
    assert "K7MP2X" not in err  # the table code in the path is redacted there too


def test_readyz_says_not_ready_after_a_failed_write_until_the_retry_after_has_passed(tmp_path: Path) -> None:
    app = create_app({"SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"})
    now = [1000.0]
    failures = health.WriteFailures(clock=lambda: now[0])
    app.extensions[health.WRITE_FAILURES] = failures
    client = app.test_client()
    created = client.post("/api/v1/tables", json={"players": ["Ann", "Bob"]}).get_json()
    referee = app.extensions["referee"]
    assert client.get("/readyz").status_code == 200

    def full(*args: object, **kwargs: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    real_append = referee.store.append_event
    referee.store.append_event = full
    now[0] += 1
    tap = {"type": "play", "player": "Ann", "card": "3"}
    auth = {"Authorization": f"Bearer {created['token']}"}
    refused = client.post(f"/api/v1/tables/{created['code']}/actions", json=tap, headers=auth)
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "30"
    referee.store.append_event = real_append  # room again: the readiness check's own write would get through
    now[0] += 29
    answer = client.get("/readyz")
    assert answer.status_code == 503 and "a write to the database failed 29 s ago" in answer.text
    now[0] += 1
    assert client.get("/readyz").status_code == 200
    # Failed again, then a tap wrote: ready at once.
    referee.store.append_event = full
    assert client.post(f"/api/v1/tables/{created['code']}/actions", json=tap, headers=auth).status_code == 503
    assert client.get("/readyz").status_code == 503
    referee.store.append_event = real_append
    now[0] += 1
    assert client.post(f"/api/v1/tables/{created['code']}/actions", json=tap, headers=auth).status_code == 200
    assert client.get("/readyz").status_code == 200
    # A page that only read and failed says nothing about writing.
    referee.store.append_event = full
    assert client.get(f"/api/v1/tables/{created['code']}").status_code == 200
    assert client.get("/readyz").status_code == 200
