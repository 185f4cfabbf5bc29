"""Export, import and backup: a game leaves as one JSON document and comes back with the same state; the
commands work on the configured database, the backup while the real server is serving."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from conftest import Api
from flask import Flask
from flask.testing import FlaskClient

from referee.harness import Client, LiveServer

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
            # An imported table has no host phone: the command gives its join link (play test 7b: only the code,
            # which lets a phone watch and ask a host who is not there). The link's path works on this server.
            link = re.search(r"Phones join with its link: (\S+)", done.stdout)
            assert link is not None
            joined = client.request("GET", urlsplit(link[1]).path)
            assert joined.status == 200 and "Who are you?" in joined.text()
            assert "this machine's address and the default port" in done.stdout
            # Behind a proxy the link is the public one, and nothing is to be changed in it (play test 8b).
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
    """Play test 7c: an export of 1,150 actions (66 KB) was refused with a bare 413 by the server that made it."""
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
