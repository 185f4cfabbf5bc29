"""Crash: `kill -9` the real server while taps stream in; after a restart every acknowledged tap is there.

Four clients each play their own table through the API (random legal cards, undos and redos), and the
server is killed at a random moment, several times over on the same database. After each restart, each
table's state must be exactly the replay of the actions the server acknowledged, plus at most the one
that was in flight when it died (committed but never answered): never half of one, never one fewer.
"""

from __future__ import annotations

import http.client
import json
import random
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.engine import History, Status, make_setup
from referee.service import codec
from referee.service.codec import Command, Redo, Undo
from referee.store import Store, database_path
from tools.harness import Client, LiveServer, random_action

PLAYERS = ["Ann", "Bob", "Cy"]
CLIENTS = 4
CRASHES = 3


@dataclass
class Stream:
    """One client's table: what the server acknowledged, and what was in flight when it died."""

    code: str
    token: str
    acknowledged: list[Command] = field(default_factory=list)
    in_flight: Command | None = None
    errors: list[str] = field(default_factory=list)


def history_of(commands: list[Command]) -> History:
    """The history these commands build from a fresh table."""
    history = History(make_setup(PLAYERS, "standard"))
    for command in commands:
        match command:
            case Undo():
                history = history.undo()
            case Redo():
                history = history.redo()
            case _:
                history, _ = history.record(command)
    return history


def expected_state(code: str, commands: list[Command]) -> dict[str, Any]:
    """The API State that replaying exactly `commands` gives."""
    history = history_of(commands)
    return codec.state_json(code, len(commands), history.state(), can_undo=history.can_undo, can_redo=history.can_redo)


def next_command(rng: random.Random, history: History) -> Command:
    """Mostly a random legal card; now and then an undo or a redo (finished games can only undo)."""
    state = history.state()
    roll = rng.random()
    if history.can_redo and roll < 0.05:
        return Redo()
    if history.can_undo and (roll < 0.12 or state.status is Status.FINISHED):
        return Undo()
    return random_action(rng, state)


def body_of(command: Command, version: int) -> dict[str, Any]:
    """The API body for a command, made on `version`."""
    match command:
        case Undo():
            body: dict[str, Any] = {"type": "undo"}
        case Redo():
            body = {"type": "redo"}
        case _:
            body = json.loads(codec.action_to_json(command))
    body["expected_version"] = version
    return body


def tap_until_killed(port: int, stream: Stream, seed: int) -> None:
    """Send commands one after another until the connection dies; keep what was acknowledged."""
    rng = random.Random(seed)
    history = history_of(stream.acknowledged)
    with Client(port, timeout=10) as client:
        while True:
            command = next_command(rng, history)
            stream.in_flight = command
            try:
                reply = client.json(
                    "POST",
                    f"/api/v1/tables/{stream.code}/actions",
                    body_of(command, len(stream.acknowledged)),
                    stream.token,
                )
            except (OSError, http.client.HTTPException):
                return  # the server is gone; `in_flight` may or may not have been committed
            if reply.status != 200:
                stream.errors.append(f"{command} -> {reply.status} {reply.body[:200]!r}")
                stream.in_flight = None
                return
            stream.acknowledged.append(command)
            stream.in_flight = None
            if isinstance(command, Undo | Redo):
                history = history_of(stream.acknowledged)
            else:
                history, _ = history.record(command)


def stored_rows(database_url: str, code: str) -> tuple[int, int, list[tuple[int, str]]]:
    """The table's stored version and its events (seq, status), straight from the database."""
    if database_url.startswith("sqlite:///"):
        with sqlite3.connect(database_path(database_url)) as check:
            assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    store = Store(database_url)
    try:
        db = store.read()
        table_id, version = db.execute("SELECT id, version FROM tables WHERE code = ?", (code,)).fetchone()
        events = db.execute(
            "SELECT seq, status FROM events WHERE table_id = ? AND status != 'dropped' ORDER BY seq", (table_id,)
        ).fetchall()
        return table_id, version, [(seq, status) for seq, status in events]
    finally:
        store.close()


def test_kill_9_mid_stream_loses_nothing_acknowledged(tmp_path: Path, database_url: str) -> None:
    server = LiveServer(database_url, logs=tmp_path / "logs")
    server.start()
    try:
        streams = []
        for index in range(CLIENTS):
            with Client(server.port, source=f"127.0.0.{index + 2}") as client:
                reply = client.json("POST", "/api/v1/tables", {"players": PLAYERS})
                assert reply.status == 201
                body = reply.json()
                streams.append(Stream(body["code"], body["token"]))
        rng = random.Random(6)
        for crash in range(CRASHES):
            threads = [
                threading.Thread(target=tap_until_killed, args=(server.port, stream, crash * 10 + index), daemon=True)
                for index, stream in enumerate(streams)
            ]
            before = sum(len(stream.acknowledged) for stream in streams)
            for thread in threads:
                thread.start()
            # Let a random number of taps through, then pull the plug in the middle of the stream.
            target = before + rng.randint(40, 120)
            deadline = time.monotonic() + 20
            while sum(len(stream.acknowledged) for stream in streams) < target and time.monotonic() < deadline:
                time.sleep(0.001)
            server.kill()
            for thread in threads:
                thread.join(15)
                assert not thread.is_alive()
            for stream in streams:
                assert not stream.errors, stream.errors

            server.start()  # same database, as after a power-on
            for stream in streams:
                with Client(server.port) as client:
                    reply = client.json("GET", f"/api/v1/tables/{stream.code}")
                assert reply.status == 200
                served = reply.json()
                acknowledged = stream.acknowledged
                if served["version"] == len(acknowledged) + 1 and stream.in_flight is not None:
                    # The tap in flight was committed but its answer never left: it counts, whole.
                    acknowledged.append(stream.in_flight)
                assert served["version"] == len(acknowledged), (crash, served["version"], len(acknowledged))
                assert served == expected_state(stream.code, acknowledged)
                stream.in_flight = None
                # Nothing half-applied in the database either: version and event log agree with the replay.
                _, version, events = stored_rows(server.database_url, stream.code)
                history = history_of(acknowledged)
                assert version == len(acknowledged)
                assert len(events) == len(history.actions)
                assert [status for _, status in events].count("undone") == history.undone
        assert sum(len(stream.acknowledged) for stream in streams) >= CRASHES * 40
    finally:
        server.stop()
    # The server said nothing alarming while it ran (waitress logs unhandled errors to stderr).
    assert "Traceback" not in server.output()
