"""PostgreSQL going away under a running referee: a restart, connections cut, a database user with
fewer rights. Each test starts its own throwaway cluster (Debian's packages), so it can stop and cut it freely.

Players must get a sentence, never a cut-off answer, and everything must come back by itself.
"""

from __future__ import annotations

import http.client
import os
import subprocess
import time
from contextlib import closing
from pathlib import Path
from urllib.parse import quote

import psycopg

from tools.harness import HOST, Client, LiveServer, free_port, serve_command
from tools.pgcluster import PostgresCluster

SHARED = {"REFEREE_CROSS_PROCESS_UPDATES": "true"}
# The `referee` program itself, as the README installs it.
REFEREE = serve_command(HOST, 1)[: -len(("serve", "--host", HOST, "--port", "1"))]


def run_referee(database_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run `referee ARGS` on `database_url`; what it printed and its exit status."""
    env = {**os.environ, "DATABASE_URL": database_url}
    return subprocess.run([*REFEREE, *args], env=env, capture_output=True, text=True, timeout=60)


def cut_every_connection(cluster: PostgresCluster) -> int:
    """End every other session on the cluster, as a database restart or an idle timeout would; how many.

    Returns once those sessions are gone: pg_terminate_backend only signals them, and a request sent in between
    would meet a session still ending, which is not what a restart leaves behind.
    """
    with psycopg.connect(cluster.url(), autocommit=True) as admin:
        pids = [
            row[0]
            for row in admin.execute(
                "SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"
            ).fetchall()
        ]
        for pid in pids:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            left = admin.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s)", (pids,)).fetchone()
            if left is not None and left[0] == 0:
                break
            time.sleep(0.02)
    return len(pids)


def new_table(server: LiveServer) -> tuple[str, str]:
    """A three-player table made through the API: its code and token."""
    with Client(server.port) as client:
        created = client.json("POST", "/api/v1/tables", {"players": ["Ann", "Bob", "Cy"]}).json()
    return created["code"], created["token"]


def test_connections_cut_under_a_running_server_cost_no_request_and_streams_hear_the_tap_made_meanwhile(
    cluster: PostgresCluster, tmp_path: Path
) -> None:
    """After a database restart, each process's old connections must not break a request each (a cut-off answer,
    however long after: they once did), and a tap made while a process re-opens its LISTEN must reach its phones."""
    url = cluster.url()
    first = LiveServer(url, logs=tmp_path / "a", env=SHARED).start()
    second = LiveServer(url, logs=tmp_path / "b", env=SHARED).start()
    try:
        code, token = new_table(first)
        with Client(first.port) as client:  # fill the first server's pool with a few connections
            for _ in range(4):
                assert client.json("GET", f"/api/v1/tables/{code}").status == 200
        # Closed however the test ends: a socket left open warns in whichever test the collector runs next.
        listening = http.client.HTTPConnection(HOST, second.port, timeout=10)
        with closing(listening):
            listening.request("GET", f"/t/{code}/events")
            stream = listening.getresponse()
            assert stream.status == 200
            assert stream.readline().decode() == "retry: 2000\n"

            assert cut_every_connection(cluster) >= 2  # the pooled ones and the second server's LISTEN
            with Client(first.port) as client:
                body = {"type": "play", "player": "Ann", "card": "5"}
                reply = client.json("POST", f"/api/v1/tables/{code}/actions", body, token)
                assert reply.status == 200, reply.text()
                statuses = [client.json("GET", f"/api/v1/tables/{code}").status for _ in range(6)]
            assert statuses == [200] * 6
            # The second server's phone hears of the tap made while it had nobody listening.
            heard = ""
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and '"version": 1,' not in heard:
                heard += stream.readline().decode()
            assert '"version": 1,' in heard, heard
    finally:
        first.stop()
        second.stop()
    for server in (first, second):
        assert "Traceback" not in server.output()
        assert "Error in ASGI" not in server.output()


def test_a_database_restart_answers_sentences_meanwhile_and_the_server_goes_on_by_itself(
    cluster: PostgresCluster, tmp_path: Path
) -> None:
    server = LiveServer(cluster.url(), logs=tmp_path / "logs", env=SHARED).start()
    try:
        code, token = new_table(server)
        cluster.stop()
        with Client(server.port) as client:
            body = {"type": "play", "player": "Ann", "card": "5"}
            tap = client.json("POST", f"/api/v1/tables/{code}/actions", body, token)
            assert tap.status == 503
            assert tap.json()["error"]["code"] == "storage_unavailable"
            assert "could not save" in tap.json()["error"]["message"]
            read = client.json("GET", f"/api/v1/tables/{code}")
            assert read.status == 503
            # Nothing was being saved: a read does not say it could not save.
            assert read.json()["error"]["message"].startswith("The referee cannot read its database just now")
            page = client.request("GET", f"/t/{code}")
            assert page.status == 503 and "Could not load" in page.text()
            # Tried again where it was, not only "Go to the start page", which would lose the player's table.
            assert f'<a class="button primary" href="/t/{code}">Try again</a>' in page.text()
            stream = client.request("GET", f"/t/{code}/events")
            assert stream.status == 503 and "this page will poll instead" in stream.text()
            ready = client.request("GET", "/readyz")
            # /readyz answers anyone: the driver's words (socket path, user) stay in the server's log.
            assert ready.status == 503 and quote(str(cluster.folder)) not in ready.text()
            assert str(cluster.folder) not in ready.text()
        cluster.resume()
        with Client(server.port) as client:
            body = {"type": "play", "player": "Ann", "card": "5"}
            statuses = [client.json("POST", f"/api/v1/tables/{code}/actions", body, token).status]
            statuses += [client.json("GET", f"/api/v1/tables/{code}").status for _ in range(5)]
            statuses.append(client.request("GET", "/readyz").status)
            assert statuses == [200] * 7
            assert client.json("GET", f"/api/v1/tables/{code}").json()["total"] == 5
        deadline = time.monotonic() + 10  # the relay tries again every second
        while time.monotonic() < deadline and "changes again" not in server.output():
            time.sleep(0.1)
    finally:
        server.stop()
    output = server.output()
    assert "Traceback" not in output and "Error in ASGI" not in output
    # Each failure is one line of the log, however many lines PostgreSQL's message has.
    logged = "".join(path.read_text() for path in server.log_paths() if "stderr" in path.name)
    assert all(line[:4].isdigit() for line in logged.splitlines() if line.strip()), logged
    # The relay says it lost the database once, and once that it hears again: not a line every second.
    assert output.count("lost the connection that hears other processes' changes") == 1, output
    assert output.count("hears other processes' changes again") == 1, output


def test_a_database_user_without_create_rights_is_told_in_one_line_and_one_with_only_data_rights_serves(
    cluster: PostgresCluster, tmp_path: Path
) -> None:
    """A hosted service's usual least privilege: the schema made once by its owner, the server's user may only read
    and write rows. It used to get a traceback (no CREATE on schema public), or not start at all."""
    with psycopg.connect(cluster.url(), autocommit=True) as admin:
        admin.execute("CREATE DATABASE shop")
        admin.execute("CREATE ROLE player LOGIN")
    folder = quote(str(cluster.folder))
    owner, player = (f"postgresql:///shop?host={folder}&user={user}" for user in ("postgres", "player"))

    refused = run_referee(player, "serve", "--host", HOST, "--port", str(free_port()))
    assert refused.returncode == 1
    assert refused.stderr.strip().count("\n") == 0, refused.stderr
    assert "permission denied for schema public" in refused.stderr

    LiveServer(owner, logs=tmp_path / "owner").start().stop()  # the owner makes the schema
    with psycopg.connect(owner, autocommit=True) as admin:
        admin.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO player")
        admin.execute("GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO player")
        # As after an upgrade whose new table nobody granted: unchecked, the server would start, pass /readyz, then
        # answer new tables and joins with a 500.
        admin.execute("REVOKE INSERT ON rate_events FROM player")
    refused = run_referee(player, "serve", "--host", HOST, "--port", str(free_port()))
    assert refused.returncode == 1 and refused.stderr.strip().count("\n") == 0, refused.stderr
    assert "the database user may not INSERT on rate_events" in refused.stderr
    with psycopg.connect(owner, autocommit=True) as admin:
        admin.execute("GRANT INSERT ON rate_events TO player")
    server = LiveServer(player, logs=tmp_path / "player").start()
    try:
        with Client(server.port) as client:
            assert client.request("GET", "/readyz").status == 200
            created = client.json("POST", "/api/v1/tables", {"players": ["Ann", "Bob"]})
            assert created.status == 201, created.text()
    finally:
        server.stop()


def test_referee_backup_on_postgresql_says_pg_dump_in_one_line_and_leaves_no_file(
    cluster: PostgresCluster, tmp_path: Path
) -> None:
    """No traceback and no empty file named like a backup, which would pass for one (both once happened)."""
    target = tmp_path / "nightly.sqlite3"
    done = run_referee(cluster.url(), "backup", "--data-dir", str(tmp_path), str(target))
    assert done.returncode == 1
    assert done.stderr.strip() == (
        "referee: referee backup copies a SQLite database; back PostgreSQL up with pg_dump (docs/deploy.md)"
    )
    assert not target.exists() and done.stdout == ""
