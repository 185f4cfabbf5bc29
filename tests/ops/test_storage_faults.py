"""Storage faults through the real server: a disk that fills up answers 503 with a sentence (JSON and page),
loses nothing already acknowledged, and the server goes on once there is room again."""

from __future__ import annotations

import re
from pathlib import Path

from tools import harness
from tools.harness import Browser, Client, LiveServer

PLAYERS = ["Ann", "Bob", "Cy"]
# The server may write this much per file (ulimit -f, in KB): the database's write-ahead log reaches it after a
# few dozen taps, as a full disk would stop it. Writes beyond it fail with EFBIG, which SQLite reports as full.
FILE_LIMIT_KB = 400


def csrf_from(html: str) -> str:
    """The CSRF token the page carries."""
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found is not None, "no CSRF token on the page"
    return found.group(1)


def _tap(client: Client, code: str, token: str, number: int) -> harness.Reply:
    body = {"type": "hand", "player": PLAYERS[number % 3], "cards": 6 - (number // 3) % 2}
    return client.json("POST", f"/api/v1/tables/{code}/actions", body, token=token)


def _on_a_small_disk(host: str, port: int) -> list[str]:
    """`referee serve` allowed to write at most FILE_LIMIT_KB per file, as if the disk were full beyond it."""
    return ["bash", "-c", f'ulimit -f {FILE_LIMIT_KB} && exec "$@"', "bash", *harness.serve_command(host, port)]


def test_a_full_disk_answers_503_and_loses_nothing_acknowledged(tmp_path: Path) -> None:
    database = tmp_path / "referee.sqlite3"
    server = LiveServer(database, logs=tmp_path / "logs", command=_on_a_small_disk).start()
    try:
        with Client(server.port) as client:
            created = client.json("POST", "/api/v1/tables", {"players": PLAYERS}).json()
            code, token = created["code"], created["token"]
            acknowledged = 0
            for number in range(2000):
                reply = _tap(client, code, token, number)
                if reply.status != 200:
                    break
                acknowledged = reply.json()["version"]
            assert reply.status == 503, reply.text()
            error = reply.json()["error"]
            assert error["code"] == "storage_unavailable"
            assert "could not save" in error["message"] and "Nothing was changed" in error["message"]
            assert acknowledged > 5
            # The server is still up, says it is not ready, and shows every acknowledged tap.
            assert client.request("GET", "/healthz").status == 200
            # /readyz commits one small write (one page, where a tap needs several), which may still fit: it says
            # not ready all the same, from the first failed write on.
            ready = [client.request("GET", "/readyz") for _ in range(12)]
            assert [reply.status for reply in ready] == [503] * 12
            assert "not ready" in ready[0].text()
            assert client.json("GET", f"/api/v1/tables/{code}").json()["version"] == acknowledged
        browser = Browser(server.port)
        home = browser.request("GET", "/").text()
        form = [("csrf", csrf_from(home)), ("op", "start"), ("variant", "standard"), ("entry", "joined")]
        page = browser.request("POST", "/", form=[*form, *(("name", name) for name in PLAYERS)])
        assert page.status == 503
        assert "Could not save" in page.text() and "Nothing was changed" in page.text()
        # Joining through the link writes too: its failure is logged without the link's code and secret.
        join_path = "/" + created["join_url"].split("://", 1)[1].split("/", 1)[1]
        join_page = browser.request("GET", join_path)
        joined = browser.request("POST", join_path, form=[("csrf", csrf_from(join_page.text())), ("who", "watch")])
        browser.close()
        assert joined.status == 503
    finally:
        server.stop()
    errors = server.output()
    assert "Traceback" not in errors
    # Each failure is one timestamped line (the tap, the readiness checks, the two pages), not a traceback each.
    failures = [line for line in errors.splitlines() if "ERROR" in line]
    assert len(failures) == 3, failures
    assert all(line[:4].isdigit() and "Z " in line[:30] for line in failures)
    assert "storage failed during POST /j/<code>/<secret>" in errors
    assert "storage failed during POST /api/v1/tables/<code>/actions" in errors
    for secret in (code, token, join_path.rsplit("/", 1)[1]):
        assert secret not in errors

    again = LiveServer(database, logs=tmp_path / "logs-again").start()
    try:
        with Client(again.port) as client:
            assert client.json("GET", f"/api/v1/tables/{code}").json()["version"] == acknowledged
            assert _tap(client, code, token, acknowledged).status == 200
            assert client.request("GET", "/readyz").status == 200
    finally:
        again.stop()
