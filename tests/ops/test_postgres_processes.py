"""Server processes started separately on one PostgreSQL database (the hosted layout, several machines): a tap
through one reaches the phones streaming from another, with no setting to remember."""

from __future__ import annotations

import http.client
import json
import time
from pathlib import Path

from tools.harness import HOST, Client, LiveServer
from tools.pgcluster import PostgresCluster


def test_separate_processes_on_postgresql_hear_each_others_taps_by_default(
    cluster: PostgresCluster, tmp_path: Path
) -> None:
    url = cluster.url()
    first = LiveServer(url, logs=tmp_path / "a").start()
    second = LiveServer(url, logs=tmp_path / "b").start()
    try:
        with Client(first.port) as client:
            created = client.json("POST", "/api/v1/tables", {"players": ["Ann", "Bob"]}).json()
        listening = http.client.HTTPConnection(HOST, second.port, timeout=5)
        listening.request("GET", f"/t/{created['code']}/events")
        stream = listening.getresponse()
        assert stream.status == 200
        heard: list[int] = []

        def next_revision(until: float) -> int | None:
            while time.monotonic() < until:
                line = stream.readline().decode()
                if line.startswith("data:"):
                    return int(json.loads(line[5:])["revision"])
            return None

        first_said = next_revision(time.monotonic() + 5)
        assert first_said == 0
        with Client(first.port) as client:
            for version, (player, card) in enumerate((("Ann", "3"), ("Bob", "4"), ("Ann", "5")), start=1):
                sent = time.monotonic()
                body = {"type": "play", "player": player, "card": card}
                path = f"/api/v1/tables/{created['code']}/actions"
                assert client.json("POST", path, body, created["token"]).status == 200
                said = next_revision(sent + 2)
                heard.append(-1 if said is None else said)
                assert said == version, heard
                assert time.monotonic() - sent < 1.0
        listening.close()
    finally:
        first.stop()
        second.stop()
