"""Fixtures for fault, race, fuzz, limit and security tests: a real `referee serve` subprocess, and apps."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tools.harness import LiveServer

from .helpers import close_made_apps


@pytest.fixture
def live_server(tmp_path: Path, database_url: str) -> Iterator[LiveServer]:
    """`referee serve` on a free 127.0.0.1 port and a fresh database; stopped (or killed) afterwards."""
    server = LiveServer(database_url, logs=tmp_path / "logs")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(autouse=True)
def _close_apps() -> Iterator[None]:
    """Close every app a test made with make_app (a PostgreSQL connection left open is reported as an error)."""
    yield
    close_made_apps()
