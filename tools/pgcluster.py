"""A throwaway PostgreSQL cluster from Debian's packages: initdb in a temporary folder, a Unix socket only.

The tests run their database suites on one (tests/conftest.py) and `python -m tools.bench --postgres` measures
several server processes sharing one (tools/bench/scale.py).
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import subprocess
from pathlib import Path
from urllib.parse import quote


def _postgres_binary(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        raise RuntimeError(f"PostgreSQL's {name} is missing: apt-get install postgresql (scripts/run-tests does)")
    return found[-1]


class PostgresCluster:
    """A PostgreSQL server of our own: initdb in a temporary folder, listening only on a Unix socket there."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.data = folder / "data"
        # initdb refuses to run as root: then the cluster belongs to Debian's postgres user.
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self.user = "postgres" if os.geteuid() == 0 else None
        self._schemas = itertools.count()

    def _run(self, *command: str) -> None:
        subprocess.run([*self.as_user, *command], check=True, capture_output=True, timeout=60)

    def start(self) -> None:
        """Create the cluster and start it."""
        self.folder.mkdir(parents=True, exist_ok=True)
        if self.as_user:
            shutil.chown(self.folder, "postgres")
        self._run(_postgres_binary("initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8")
        self.resume()

    def resume(self) -> None:
        """Start the cluster made by `start` again after `stop` (a database restart, as a server sees one)."""
        options = (
            f"-c listen_addresses='' -c unix_socket_directories='{self.folder}' -c fsync=off -c max_connections=200"
        )
        self._run(
            _postgres_binary("pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.folder / "log"),
            "-o",
            options,
            "-w",
            "start",
        )

    def stop(self) -> None:
        """Stop the server at once."""
        self._run(_postgres_binary("pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")

    def url(self, search_path: str | None = None) -> str:
        """A libpq URL to the cluster's postgres database (in `search_path` if given)."""
        url = f"postgresql:///postgres?host={quote(str(self.folder))}&user=postgres"
        return url + (f"&options={quote('-c search_path=' + search_path)}" if search_path else "")

    def new_schema(self) -> str:
        """Create an empty schema for one test and return a URL that works in it."""
        import psycopg

        name = f"t{os.getpid()}_{next(self._schemas)}"
        with psycopg.connect(self.url(), autocommit=True) as connection:
            connection.execute(f"CREATE SCHEMA {name}")
        return self.url(name)
