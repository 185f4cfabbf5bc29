"""Export, import and backup: a game leaves as one JSON document and comes back with the same state; the
commands work on the configured database, the backup while the real server is serving."""

from __future__ import annotations

import json
import os
import random
import re
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from conftest import Api
from flask import Flask
from flask.testing import FlaskClient

from referee import create_app
from referee.engine import Action, SetHand, Status, apply, make_setup, new_game
from referee.service import MAX_ACTIONS, codec
from tools.harness import Client, LiveServer, random_action

REFEREE = str(Path(sys.executable).with_name("referee"))


def play_a_little(api: Api) -> None:
    """A few cards, a hand size, and an undo, so the game has a redo tail too."""
    api.create(["Ann", "Bob", "Cy"], house_rules={"over_21": "bust"})
    current = api.state()["current"]
    api.play(current, "7")
    current = api.state()["current"]
    api.play(current, "5")
    api.act(type="hand", player="Ann", cards=6)
    api.act(type="undo")


def exported(api: Api, **headers: str) -> Any:
    response = api.client.get(f"/api/v1/tables/{api.code}/export", headers=headers)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def without_code_and_version(state: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in state.items() if key not in ("code", "version")}


def test_an_imported_game_has_the_same_state_undo_and_redo_included(api: Api, client: FlaskClient) -> None:
    play_a_little(api)
    original = api.state()
    document = exported(api, Authorization=f"Bearer {api.token}")
    assert document["format"] == "five-alive-referee/1"
    assert document["setup"]["players"] == ["Ann", "Bob", "Cy"]
    assert document["setup"]["house_rules"]["over_21"] == "bust"
    assert len(document["actions"]) == 3 and document["undone"] == 1
    response = client.post("/api/v1/tables/import", json=document)
    assert response.status_code == 201, response.get_json()
    made = response.get_json()
    assert made["code"] != api.code and made["token"] and "/j/" + made["code"] in made["join_url"]
    assert without_code_and_version(made["state"]) == without_code_and_version(original)
    assert made["state"]["can_redo"] is True
    # The copy plays on: its redo puts back the hand size, as the original's would.
    copy = Api(client)
    copy.code, copy.token = made["code"], made["token"]
    assert copy.act(type="redo")["can_redo"] is False
    assert without_code_and_version(copy.state()) == without_code_and_version(api.act(type="redo"))


def test_a_phone_that_joined_may_export_others_may_not(api: Api, app: Flask) -> None:
    api.create(["Ann", "Bob"])
    stranger = app.test_client()
    refused = stranger.get(f"/api/v1/tables/{api.code}/export")
    assert refused.status_code == 401
    assert refused.get_json()["error"]["code"] == "no_token"
    wrong = stranger.get(f"/api/v1/tables/{api.code}/export", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 403
    assert stranger.get("/api/v1/tables/ZZZZZZ/export").status_code == 404
    phone = app.test_client()
    join = urlsplit(api.created["join_url"]).path
    page = phone.get(join).get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)
    assert csrf is not None
    assert phone.post(join, data={"csrf": csrf[1], "who": "player:Bob"}).status_code == 303
    assert phone.get(f"/api/v1/tables/{api.code}/export").get_json()["setup"]["players"] == ["Ann", "Bob"]


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda d: d.update(format="something-else/9"), "format must be 'five-alive-referee/1'"),
        (lambda d: d.pop("actions"), "actions must be a list"),
        (lambda d: d["setup"].update(players=["Ann"]), "setup:"),
        (lambda d: d["setup"].update(players=["Ann", "Bob", "B\u043eb"]), "setup: Bob and B\u043eb look alike"),
        (lambda d: d["setup"].update(players=["Ann", "\u2800"]), "setup: Every player needs a name you can see."),
        (lambda d: d["actions"].append({"type": "play", "player": "Nobody", "card": "3"}), "action 4:"),
        (lambda d: d["actions"].insert(0, {"type": "undo"}), "action 1: undo and redo are not actions"),
        (lambda d: d.update(undone=7), "undone must be a whole number"),
        (lambda d: d.update(extra=1), "Unknown field 'extra'"),
        (lambda d: d["setup"].update(colour="red"), "Unknown field 'colour' in the exported game's setup."),
    ],
)
def test_a_bad_document_is_a_400_with_the_reason_and_stores_nothing(
    api: Api, client: FlaskClient, app: Flask, change: Any, reason: str
) -> None:
    play_a_little(api)
    document = exported(api, Authorization=f"Bearer {api.token}")
    change(document)
    database = app.config["DATABASE_URL"].removeprefix("sqlite:///")
    with sqlite3.connect(database) as db:
        before = db.execute("SELECT COUNT(*) FROM tables").fetchone()[0]
    response = client.post("/api/v1/tables/import", json=document)
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error["code"] == "bad_document" and reason in error["message"], error
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT COUNT(*) FROM tables").fetchone()[0] == before


def run(*args: str, database: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("REFEREE_")}
    env["DATABASE_URL"] = f"sqlite:///{database}"
    env.update(settings)
    return subprocess.run([REFEREE, *args], capture_output=True, text=True, timeout=60, env=env)


def test_export_import_and_backup_commands_while_the_server_serves(tmp_path: Path) -> None:
    database = tmp_path / "referee.sqlite3"
    server = LiveServer(database, logs=tmp_path / "logs").start()
    try:
        with Client(server.port) as client:
            made = client.json("POST", "/api/v1/tables", {"players": ["Ann", "Bob"]}).json()
            code, token = made["code"], made["token"]
            client.json("POST", f"/api/v1/tables/{code}/actions", {"type": "hand", "player": "Bob", "cards": 4}, token)
            state = client.json("GET", f"/api/v1/tables/{code}").json()
            done = run("export", code, "-o", str(tmp_path / "game.json"), database=database)
            assert done.returncode == 0, done.stderr
            assert json.loads((tmp_path / "game.json").read_text())["actions"] == [
                {"type": "hand", "player": "Bob", "cards": 4}
            ]
            done = run("import", str(tmp_path / "game.json"), database=database)
            assert done.returncode == 0, done.stderr
            new_code = re.search(r"table ([A-Z0-9]{6})", done.stdout)
            assert new_code is not None
            copy = client.json("GET", f"/api/v1/tables/{new_code[1]}").json()
            assert without_code_and_version(copy) == without_code_and_version(state)
            # An imported table has no host phone: the command gives its join link (the code alone would only let
            # a phone watch and ask a host who is not there). The link's path works on this server.
            link = re.search(r"Phones join with its link: (\S+)", done.stdout)
            assert link is not None
            joined = client.request("GET", urlsplit(link[1]).path)
            assert joined.status == 200 and "Who are you?" in joined.text()
            assert "this machine's address and the default port" in done.stdout
            # Behind a proxy the link is the public one, and nothing is to be changed in it.
            public = run(
                "import", str(tmp_path / "game.json"), database=database, REFEREE_PUBLIC_URL="https://cards.example.org"
            )
            assert public.returncode == 0, public.stderr
            assert re.search(r"Phones join with its link: https://cards\.example\.org/j/", public.stdout), public.stdout
            assert "default port" not in public.stdout
            # A mistyped data folder: no empty database made there and backed up as if it were the server's.
            typo = tmp_path / "typo"
            wrong = run(
                "backup", str(tmp_path / "b.sqlite3"), database=typo / "referee.sqlite3", REFEREE_DATA_DIR=str(typo)
            )
            assert wrong.returncode == 1, wrong.stdout
            assert wrong.stderr == (
                f"referee: there is no database at {typo / 'referee.sqlite3'}: give the server's --data-dir or "
                "--database (nothing was backed up)\n"
            )
            assert not typo.exists() and not (tmp_path / "b.sqlite3").exists()
            done = run("backup", str(tmp_path / "backup.sqlite3"), database=database)
            assert done.returncode == 0, done.stderr
            assert done.stdout == f"Backed up the database {database} to {tmp_path / 'backup.sqlite3'}.\n"
            assert oct((tmp_path / "backup.sqlite3").stat().st_mode & 0o777) == "0o600"
            again = run("backup", str(tmp_path / "backup.sqlite3"), database=database)
            assert again.returncode == 1 and again.stderr.startswith("referee: ") and "already exists" in again.stderr
            missing = run("export", "ZZZZZZ", database=database)
            assert missing.returncode == 1 and missing.stderr.count("\n") == 1
    finally:
        server.stop()
    with sqlite3.connect(tmp_path / "backup.sqlite3") as db:
        codes = {row[0] for row in db.execute("SELECT code FROM tables")}
    assert {code, new_code[1]} <= codes


def test_a_long_games_export_imports_through_the_real_server(tmp_path: Path) -> None:
    """An export of 1,150 actions (66 KB) imports into the server that made it (it was once refused with a bare 413)."""
    server = LiveServer(tmp_path / "referee.sqlite3", logs=tmp_path / "logs").start()
    try:
        with Client(server.port) as client:
            made = client.json("POST", "/api/v1/tables", {"players": ["Ann", "Bob"]}).json()
            code, token = made["code"], made["token"]
            document = client.json("GET", f"/api/v1/tables/{code}/export", None, token).json()
            # 2,000 hand corrections: a long evening's worth of entries, some 80 KB.
            document["actions"] = [{"type": "hand", "player": "Ann", "cards": 5 + n % 3} for n in range(2000)]
            assert len(json.dumps(document)) > 64 * 1024
            imported = client.json("POST", "/api/v1/tables/import", document)
            assert imported.status == 201, imported.text()[:300]
            assert imported.json()["state"]["players"][0]["hand"] == 5 + 1999 % 3
    finally:
        server.stop()


# --- a whole game at once: what it stores, what it costs ------------------------------------------------------


def random_game(rng: random.Random, players: list[str], count: int) -> list[Action]:
    """`count` legal actions: random cards, with hand corrections that keep the game from ending (so that a game
    may be as long as a table keeps)."""
    state = new_game(make_setup(players))
    actions: list[Action] = []
    while len(actions) < count:
        low = [player for player in state.players if not player.out and player.hand <= 2]
        action = SetHand(low[0].name, 6) if low and rng.random() < 0.9 else random_action(rng, state, draw_boost=3)
        after = apply(state, action)
        if after.status is Status.FINISHED:
            playing = next(player for player in state.players if not player.out)
            action = SetHand(playing.name, 5 if playing.hand != 5 else 6)
            after = apply(state, action)
        state = after
        actions.append(action)
    return actions


def full_document(undone: int = 0) -> dict[str, Any]:
    """An export of a table at its cap of MAX_ACTIONS actions, the newest `undone` of them undone."""
    players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    actions = random_game(random.Random(1), players, MAX_ACTIONS)
    return {
        "format": "five-alive-referee/1",
        "setup": json.loads(codec.setup_to_json(make_setup(players))),
        "entry": "joined",
        "actions": [json.loads(codec.action_to_json(action)) for action in actions],
        "undone": undone,
    }


def stored(app: Flask, code: str) -> tuple[int, list[tuple[Any, ...]]]:
    """The table's stored version and log: each event's seq, action, status, line and rulings."""
    referee = app.extensions["referee"]
    with app.app_context():
        view = referee.view(code)
        events = referee.store.events(referee.store.read(), view.id)
    return view.version, [(e.seq, e.action, e.status, e.text, e.rule, e.note_rule) for e in events]


def test_an_imported_game_stores_the_same_log_and_version_as_the_game_entered_by_hand(
    api: Api, app: Flask, client: FlaskClient, database_url: str
) -> None:
    """The log's lines, rulings, numbers and undone entries, and the version, are those of the same game entered
    action by action and then undone (no redo, so that no version was spent on one)."""
    api.create(["Ann", "Bob", "Cy", "Dee"])
    actions = random_game(random.Random(4), ["Ann", "Bob", "Cy", "Dee"], 160)
    for action in actions:
        api.act(**json.loads(codec.action_to_json(action)))
    for _ in range(3):
        api.act(type="undo")
    document = exported(api, Authorization=f"Bearer {api.token}")
    response = client.post("/api/v1/tables/import", json=document)
    assert response.status_code == 201, response.get_json()
    made = response.get_json()
    version, log = stored(app, api.code)
    assert version == len(actions) + 3
    assert stored(app, made["code"]) == (version, log)
    assert [status for *_, status, _text, _rule, _note in log[-4:]] == ["active", "undone", "undone", "undone"]
    assert {key: value for key, value in made["state"].items() if key != "code"} == {
        key: value for key, value in api.state().items() if key != "code"
    }
    # What the pages show of it: the log and its round headings, as another process reads them from the database.
    fresh = create_app({"TESTING": True, "SECRET_KEY": "test-secret", "DATABASE_URL": database_url})
    try:
        with app.app_context():
            original = app.extensions["referee"].view(api.code)
            imported = app.extensions["referee"].view(made["code"])
        with fresh.app_context():
            reread = fresh.extensions["referee"].view(made["code"])
        for view in (imported, reread):
            assert view.state == original.state
            assert [(e.seq, e.text, e.rule, e.note_rule, e.undone) for e in view.log] == [
                (e.seq, e.text, e.rule, e.note_rule, e.undone) for e in original.log
            ]
            assert view.history == original.history and view.history.rounds == original.history.rounds
            assert view.history.checkpoints == original.history.checkpoints
    finally:
        fresh.extensions["referee"].store.close()


@pytest.mark.sqlite
def test_the_largest_table_imports_in_well_under_a_second_of_cpu(client: FlaskClient, app: Flask) -> None:
    """The game is replayed once: about 0.5 s on a development machine. Recording it action by action (a replay
    from the last checkpoint and a copy of the whole log each time), then replaying it again to store it, costs
    4.6-5.8 s for a legal 10,000-action document, 12-14 s with its actions undone."""
    made = client.post("/api/v1/tables/import", json=full_document(undone=2000))
    assert made.status_code == 201, made.get_json()
    token = made.get_json()["token"]
    export = client.get(
        f"/api/v1/tables/{made.get_json()['code']}/export", headers={"Authorization": f"Bearer {token}"}
    )
    document = export.get_json()
    assert len(document["actions"]) == MAX_ACTIONS and document["undone"] == 2000
    started = time.process_time()
    copy = client.post("/api/v1/tables/import", json=document)
    spent = time.process_time() - started
    assert copy.status_code == 201, copy.get_json()
    assert copy.get_json()["state"] == {**made.get_json()["state"], "code": copy.get_json()["code"]}
    assert spent < 1.5, f"importing the largest table took {spent:.2f} s of CPU"


@pytest.mark.sqlite
def test_an_illegal_last_action_is_refused_fast_and_stores_nothing(client: FlaskClient, app: Flask) -> None:
    """The rules refuse the document's 10,000th action: said after one replay (about 0.3 s of CPU; checking by
    recording action by action costs 3.9-5.1 s)."""
    document = full_document()
    document["actions"][-1] = {"type": "play", "player": "Nobody", "card": "3"}
    database = app.config["DATABASE_URL"].removeprefix("sqlite:///")
    started = time.process_time()
    response = client.post("/api/v1/tables/import", json=document)
    spent = time.process_time() - started
    assert response.status_code == 400
    assert response.get_json()["error"] == {
        "code": "bad_document",
        "message": "action 10000: Nobody called Nobody is playing at this table.",
    }
    assert spent < 1.0, f"refusing the document took {spent:.2f} s of CPU"
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT COUNT(*) FROM tables").fetchone()[0] == 0
        assert db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 0


@pytest.mark.sqlite
def test_a_tap_on_another_table_during_the_largest_import_answers_within_a_second(tmp_path: Path) -> None:
    """The real server on SQLite, one writer at a time: the import writes its log in one short batch (about 0.1 s).
    Writing each event, and undoing each undone one, with statements of its own holds the lock for 18-23 s for this
    document, all of its actions undone, and a tap on another table waits as long."""
    document = json.dumps(full_document(undone=MAX_ACTIONS)).encode()
    server = LiveServer(tmp_path / "referee.sqlite3", logs=tmp_path / "logs").start()
    try:
        with Client(server.port, source="127.0.0.2") as phone:
            table = phone.json("POST", "/api/v1/tables", {"players": ["Ann", "Bob"]}).json()
            path = f"/api/v1/tables/{table['code']}/actions"
            phone.json("POST", path, {"type": "hand", "player": "Ann", "cards": 4}, table["token"])
            with Client(server.port, timeout=60) as importer:
                cpu = server.cpu_seconds()
                answers: list[int] = []
                thread = threading.Thread(
                    target=lambda: answers.append(
                        importer.request(
                            "POST", "/api/v1/tables/import", document, {"Content-Type": "application/json"}
                        ).status
                    )
                )
                thread.start()
                taps: list[tuple[int, float]] = []
                while thread.is_alive():
                    started = time.perf_counter()
                    cards = 5 + len(taps) % 2  # 5, 6, 5, ...: each a change
                    reply = phone.json("POST", path, {"type": "hand", "player": "Ann", "cards": cards}, table["token"])
                    taps.append((reply.status, time.perf_counter() - started))
                thread.join()
                spent = server.cpu_seconds() - cpu
        assert answers == [201]
        assert taps and all(status == 200 for status, _ in taps), taps
        slowest = max(seconds for _, seconds in taps)
        assert slowest < 1.0, f"a tap waited {slowest:.2f} s during the import"
        # The server's CPU for the import and the taps together (the import alone was 12-13 s).
        assert spent < 2.5, f"the import cost the server {spent:.2f} s of CPU"
    finally:
        server.stop()


@pytest.mark.sqlite
def test_imports_from_many_addresses_at_once_go_one_at_a_time_and_other_tables_stay_quick(tmp_path: Path) -> None:
    """Eight imports of the largest table from eight addresses at once held every request thread: /healthz from
    elsewhere waited 3-5 s. One import runs at a time per process; the others are told to come back shortly."""
    document = json.dumps(full_document()).encode()
    server = LiveServer(tmp_path / "referee.sqlite3", logs=tmp_path / "logs").start()
    try:
        answers: list[tuple[int, str, str]] = []

        def send(number: int) -> None:
            with Client(server.port, source=f"127.0.0.{10 + number}", timeout=60) as importer:
                reply = importer.request(
                    "POST", "/api/v1/tables/import", document, {"Content-Type": "application/json"}
                )
                answers.append((reply.status, reply.headers.get("retry-after", ""), reply.text()))

        threads = [threading.Thread(target=send, args=(number,)) for number in range(8)]
        for thread in threads:
            thread.start()
        waits: list[float] = []
        with Client(server.port, source="127.0.0.2", timeout=10) as phone:
            while any(thread.is_alive() for thread in threads):
                started = time.perf_counter()
                assert phone.request("GET", "/healthz").status == 200
                waits.append(time.perf_counter() - started)
        for thread in threads:
            thread.join()
    finally:
        server.stop()
    made = [answer for answer in answers if answer[0] == 201]
    busy = [answer for answer in answers if answer[0] == 503]
    assert made and len(made) + len(busy) == 8, answers
    assert all(retry == "2" and "busy_importing" in text for _, retry, text in busy), busy
    assert max(waits) < 1.0, f"/healthz waited {max(waits):.2f} s while the imports ran"
