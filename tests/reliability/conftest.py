"""Fixtures for fault, race, fuzz, limit and security tests: a real `referee serve` subprocess, and apps."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.harness import LiveServer


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    """`referee serve` on a free 127.0.0.1 port and a temporary database; stopped (or killed) afterwards."""
    server = LiveServer(tmp_path / "referee.sqlite3", logs=tmp_path / "logs")
    server.start()
    try:
        yield server
    finally:
        server.stop()
