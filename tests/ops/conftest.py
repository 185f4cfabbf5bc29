"""A PostgreSQL cluster of a test's own, for tests that stop, cut or share it between server processes."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tools.pgcluster import PostgresCluster


@pytest.fixture
def cluster() -> Iterator[PostgresCluster]:
    """A cluster of this test's own (a short path: a Unix socket's is limited to about 100 characters)."""
    own = PostgresCluster(Path(tempfile.mkdtemp(prefix="referee-pgf-")))
    own.start()
    try:
        yield own
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):  # a test may have left it stopped
            own.stop()
        shutil.rmtree(own.folder, ignore_errors=True)
