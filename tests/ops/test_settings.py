"""Settings: every one by flag and by REFEREE_* variable, all in `referee serve --help` and docs/deploy.md; a bad
value or an unusable database is one clear line and a non-zero exit, from the real command."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from flask import Flask

from referee.config import APP_DEFAULTS, SERVE_FLAGS, SETTINGS, SettingError, data_dir, finish, resolve

REPO = Path(__file__).resolve().parents[2]
REFEREE = str(Path(sys.executable).with_name("referee"))


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    clean = {key: value for key, value in os.environ.items() if not key.startswith("REFEREE_")}
    clean.pop("DATABASE_URL", None)
    return subprocess.run([REFEREE, *args], capture_output=True, text=True, timeout=60, env={**clean, **(env or {})})


def test_a_flag_wins_over_its_variable_which_wins_over_the_default(tmp_path: Path) -> None:
    env = {"REFEREE_PORT": "9001", "REFEREE_MAX_STREAMS": "50", "REFEREE_DATA_DIR": str(tmp_path)}
    settings = resolve({"port": "9002"}, env)
    assert settings.port == 9002
    assert settings.max_streams == 50
    assert settings.threads == 4
    assert settings.workers == 1
    assert settings.data_dir == tmp_path
    assert settings.database == f"sqlite:///{tmp_path / 'referee.sqlite3'}"
    assert resolve({}, {"DATABASE_URL": "sqlite:////srv/x.sqlite3"}).database == "sqlite:////srv/x.sqlite3"
    proxies = resolve({"trusted_proxies": "10.0.0.2, ::1"}, {}).trusted_proxies
    assert proxies == ("10.0.0.2", "::1")


def test_database_url_wins_over_referee_database_url_for_serve_and_for_wsgi_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An operator who sets both (a platform's DATABASE_URL, an old REFEREE_DATABASE_URL) gets one database, whichever
    way the app is started: `referee serve` and a WSGI server (wsgi.py, create_app) read them in the same order."""
    platform, old = f"sqlite:///{tmp_path / 'platform.sqlite3'}", f"sqlite:///{tmp_path / 'old.sqlite3'}"
    both = {"DATABASE_URL": platform, "REFEREE_DATABASE_URL": old, "REFEREE_DATA_DIR": str(tmp_path)}
    assert resolve({}, both).database == platform
    for key, value in both.items():
        monkeypatch.setenv(key, value)
    from referee import create_app

    assert create_app().config["DATABASE_URL"] == platform
    monkeypatch.delenv("DATABASE_URL")
    assert create_app().config["DATABASE_URL"] == old


def test_every_default_is_a_value_its_flag_or_variable_accepts() -> None:
    for setting in SETTINGS:
        if setting.typed_default is not None:
            assert setting.parse(setting.typed_default) == setting.default, setting.name


def test_workers_started_by_workers_n_get_the_settings_their_parent_was_given(tmp_path: Path) -> None:
    given = {
        "host": "127.0.0.1",
        "threads": "2",
        "workers": "3",
        "keep_alive_seconds": "7.5",
        "trusted_proxies": "10.0.0.2,::1",
        "allowed_hosts": "cards.example.org",
        "public_url": "https://cards.example.org",
        "log_level": "warning",
        "data_dir": str(tmp_path),
    }
    parent = resolve(given, {})
    assert resolve({}, parent.environ()) == parent


def test_the_data_folder_of_an_installed_copy_is_the_users_data_folder(tmp_path: Path) -> None:
    assert data_dir({"REFEREE_DATA_DIR": str(tmp_path / "d")}) == tmp_path / "d"
    # From this clone (an editable install), data stays in the clone's instance/ folder, as the README says.
    assert data_dir({}) == REPO / "instance"


@pytest.mark.parametrize(
    ("given", "env", "message"),
    [
        ({"port": "http"}, {}, "--port must be a whole number from 1 to 65535, not 'http'"),
        ({}, {"REFEREE_THREADS": "0"}, "REFEREE_THREADS must be a whole number from 1 to 64, not '0'"),
        ({}, {"DATABASE_URL": "mysql://x"}, "DATABASE_URL must look like sqlite:///PATH"),
        ({"trusted_proxies": "proxy.lan"}, {}, "--trusted-proxies must list IP addresses"),
        ({"log_level": "loud"}, {}, "--log-level must be one of debug, info, warning, error, not 'loud'"),
        ({}, {"REFEREE_STREAM_MAX_SECONDS": "soon"}, "REFEREE_STREAM_MAX_SECONDS must be a number of seconds"),
        ({"public_url": "cards.example.org"}, {}, "--public-url must be the address phones open"),
        ({}, {"REFEREE_PUBLIC_URL": "ftp://cards.example.org"}, "REFEREE_PUBLIC_URL must be the address phones open"),
    ],
)
def test_a_bad_value_names_the_flag_or_variable_and_what_it_must_be(
    given: dict[str, str], env: dict[str, str], message: str
) -> None:
    with pytest.raises(SettingError) as refused:
        resolve(given, env)
    assert str(refused.value).startswith(message)


def test_serve_help_lists_every_setting_with_its_variable() -> None:
    done = run("serve", "--help")
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    for setting in SERVE_FLAGS:
        assert setting.flag in text
        assert f"[{setting.variable}]" in text


def test_the_deploy_guide_has_one_table_with_every_setting_and_its_default() -> None:
    """Each setting has one row with its flag (or none), its variable and the default it really has."""
    guide = (REPO / "docs" / "deploy.md").read_text()
    table = guide.split("## Settings", 1)[1].split("\n\n| flag |", 1)[1].split("\n\n", 1)[0]
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in table.splitlines()[2:]]
    named = [variable for row in rows for variable in re.findall(r"`([A-Z_]+)`", row[1])]
    assert sorted(named) == sorted(variable for setting in SETTINGS for variable in setting.variables)
    for setting in SETTINGS:
        flag, _, default, _ = next(row for row in rows if f"`{setting.variable}`" in row[1])
        assert flag == "—" if setting.variable_only else flag.startswith((f"`{setting.flag}`", f"`{setting.flag} "))
        if setting.typed_default is not None:
            assert default.startswith(f"`{setting.typed_default}`"), setting.name
        elif not setting.default_text:
            assert default == "none", setting.name


def test_a_bad_value_is_one_line_and_exit_status_2() -> None:
    done = run("serve", "--port", "99999")
    assert done.returncode == 2
    assert done.stderr == "referee: --port must be a whole number from 1 to 65535, not '99999'\n"
    done = run("serve", env={"REFEREE_MAX_STREAMS": "lots"})
    assert done.returncode == 2
    assert done.stderr == "referee: REFEREE_MAX_STREAMS must be a whole number from 1 to 100000, not 'lots'\n"
    # A setting that is a variable only, too (such a value once gave a traceback, or a table "full" at -5 entries).
    done = run("serve", env={"REFEREE_TABLES_PER_MINUTE": "abc"})
    assert done.returncode == 2
    assert done.stderr == "referee: REFEREE_TABLES_PER_MINUTE must be a whole number from 1 to 100000000, not 'abc'\n"
    done = run("serve", env={"REFEREE_MAX_ACTIONS_PER_TABLE": "-5"})
    assert done.returncode == 2 and done.stderr.startswith("referee: REFEREE_MAX_ACTIONS_PER_TABLE must be a whole")
    done = run("serve", env={"REFEREE_STREAM_KEEPALIVE": "soon"})
    assert done.returncode == 2 and done.stderr.startswith("referee: REFEREE_STREAM_KEEPALIVE must be a number")
    done = run("serve", env={"REFEREE_CROSS_PROCESS_UPDATES": "maybe"})
    assert done.returncode == 2
    assert done.stderr == "referee: REFEREE_CROSS_PROCESS_UPDATES must be true or false, not 'maybe'\n"


@pytest.mark.parametrize(
    ("database", "variable", "shared"),
    [
        ("sqlite:///{folder}/db.sqlite3", None, False),
        ("postgresql://referee@db.example/referee", None, True),
        ("postgresql://referee@db.example/referee", "false", False),
        ("postgresql://referee@db.example/referee", "off", False),
        ("sqlite:///{folder}/db.sqlite3", "yes", True),
        ("sqlite:///{folder}/db.sqlite3", "true", True),
    ],
)
def test_processes_share_live_updates_on_postgresql_unless_turned_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, database: str, variable: str | None, shared: bool
) -> None:
    """Separate processes on one PostgreSQL (several machines) hear each other's taps without a setting to forget."""
    settings = Flask(__name__).config
    settings.from_mapping(APP_DEFAULTS)
    if variable is not None:
        monkeypatch.setenv("REFEREE_CROSS_PROCESS_UPDATES", variable)
    settings.from_prefixed_env("REFEREE")
    settings["DATABASE_URL"] = database.format(folder=tmp_path)
    settings["SECRET_KEY"] = "t"
    finish(settings, tmp_path)
    assert settings["CROSS_PROCESS_UPDATES"] is shared


def test_an_unusable_database_is_one_line_and_exit_status_1(tmp_path: Path) -> None:
    not_a_database = tmp_path / "notes.txt"
    not_a_database.write_text("shopping list: milk, eggs, cards " * 200)
    not_a_database.chmod(0o600)  # else the store first warns, rightly, that others can read it
    done = run("serve", "--port", "1", "--database", f"sqlite:///{not_a_database}")
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"referee: cannot use the database {not_a_database}: file is not a database")
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("")
    done = run("serve", "--port", "1", "--data-dir", str(blocked / "data"))
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "cannot use the database" in done.stderr


def test_a_public_url_is_kept_without_its_trailing_slash() -> None:
    assert resolve({"public_url": "https://cards.example.org/"}, {}).public_url == "https://cards.example.org"


def test_a_port_in_use_is_one_line_and_exit_status_1_with_no_running_banner(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run("serve", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(tmp_path / "data"))
    assert done.returncode == 1
    assert "running" not in done.stdout and "open:" not in done.stdout
    assert done.stderr == (
        f"referee: cannot listen on 127.0.0.1 port {port}: Address already in use"
        " (is another server there? choose another with --port)\n"
    )
