"""`referee serve`: the address a phone should open, printed and drawn as a QR code."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.server import cli


def test_the_printed_address_is_the_lan_address_not_localhost(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "lan_address", lambda: "192.168.1.23")
    assert cli.phone_address("0.0.0.0", 8000) == "http://192.168.1.23:8000/"
    assert cli.phone_address("10.0.0.5", 9000) == "http://10.0.0.5:9000/"


def test_the_terminal_qr_code_is_drawn_with_blocks() -> None:
    drawing = cli.terminal_qr("http://192.168.1.23:8000/")
    lines = drawing.splitlines()
    assert len(lines) > 10
    assert set("".join(lines)) <= {"█", "▀", "▄", " ", "\xa0"}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _serve_output(tmp_path: Path, *flags: str) -> tuple[int, str]:
    """Run `referee serve` on a free port until it answers, stop it, and return the port and what it printed."""
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "REFEREE_SECRET_KEY": "t"}
    command = [str(Path(sys.executable).with_name("referee")), "serve", "--port", str(port), *flags]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 20
        while True:
            # An answer, not just a connection: the port is bound (and takes connections) a moment before
            # the server prints where to go and starts answering.
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            try:
                connection.request("GET", "/healthz")
                if connection.getresponse().status == 200:
                    break
            except OSError:
                pass
            finally:
                connection.close()
            assert process.poll() is None, "the server stopped"
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
    finally:
        process.send_signal(signal.SIGTERM)
        output, _ = process.communicate(timeout=20)
    return port, output


def test_referee_serve_starts_a_real_server_and_prints_where_to_go(tmp_path: Path) -> None:
    port, output = _serve_output(tmp_path)
    assert "open: http://" in output
    address_line = next(line for line in output.splitlines() if "open: http://" in line)
    assert f":{port}/" in address_line
    assert "localhost" not in address_line and "127.0.0.1" not in address_line
    assert "█" in output  # the QR code


def test_a_server_only_this_machine_can_reach_prints_no_qr_code(tmp_path: Path) -> None:
    """`--host 127.0.0.1` once printed "On a phone on the same Wi-Fi, open: http://127.0.0.1:…" and a
    QR code of it, which no phone can open."""
    port, output = _serve_output(tmp_path, "--host", "127.0.0.1")
    assert f"Only this machine can open http://127.0.0.1:{port}/: for phones, serve on every address" in output
    assert "same Wi-Fi" not in output and "█" not in output


def test_serve_refuses_fewer_than_one_request_thread(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["serve", "--threads", "0"]) == 2
    assert capsys.readouterr().err == "referee: --threads must be a whole number from 1 to 64, not '0'\n"


def test_a_bad_list_value_is_quoted_once(capsys: pytest.CaptureFixture[str]) -> None:
    """A value already quoted in the error is not quoted twice.

    It once read "'proxy.lan' is not one, not 'proxy.lan'"."""
    assert cli.main(["serve", "--trusted-proxies", "proxy.lan"]) == 2
    assert capsys.readouterr().err == (
        "referee: --trusted-proxies must list IP addresses separated by commas; 'proxy.lan' is not one\n"
    )
