"""Build the image from Containerfile with podman and run it as an operator would; fail loudly on any error.

What it proves: the image builds from a Debian base, `referee serve` runs in it as a user that is not root, with
its settings from REFEREE_* variables and its data in the /data volume; the HEALTHCHECK passes (and fails when
the server cannot be reached); a table made through the API answers its page; `podman stop` (SIGTERM to PID 1)
ends it with status 0 well before podman would kill it; the table is still there when a new container starts on
the same volume; and with DATABASE_URL the same image keeps its tables in PostgreSQL.

How, on a machine that reaches package registries but no image registry (CI's): Debian's podman, runc and
debootstrap are installed if missing; the base image is made from Debian's packages (debootstrap, then podman
import); the project's dependencies are downloaded as wheels on this machine and mounted into the build, which
installs them offline (inside a build the registries' certificates are not trusted). Everything lives in one
temporary folder, podman's storage included, and is removed at the end, whatever happened. The containers use
the host's network and listen on 127.0.0.1 only: no bridge, no firewall rules, no traffic off the loopback.

Run by scripts/run-tests after scripts/check-install.py, as root (apt-get, and podman's rootful storage).
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import yaml  # type: ignore[import-untyped]  # PyYAML, installed with the test dependencies (schemathesis needs it)

REPO = Path(__file__).resolve().parent.parent
DEBIAN_PACKAGES = {"podman": "podman", "runc": "runc", "debootstrap": "debootstrap"}
# The base stands in for `python:3.11-slim`: Debian 12's python3 is 3.11, and the wheels made on this machine
# (psycopg-binary, markupsafe, rcssmin and rjsmin are compiled per Python version) must fit it.
SUITE = "bookworm"
BASE_PACKAGES = "python3,python3-venv"
# podman's defaults ask the host for ulimits and systemd for cgroups, neither of which a CI sandbox offers.
CONTAINERS_CONF = '[containers]\ndefault_ulimits = []\n[engine]\ncgroup_manager = "cgroupfs"\n'
# podman stop sends SIGTERM, waits this long, then SIGKILLs (status 137). The server needs at most 3 s.
STOP_TIMEOUT = 10
TIMINGS: list[tuple[str, float]] = []


def fail(message: str) -> None:
    print(f"check-container: FAILED: {message}", file=sys.stderr, flush=True)
    raise SystemExit(1)


def run(command: list[str], *, check: bool = True, timeout: float = 900, **kwargs: object) -> str:
    """Run a command and return what it printed on stdout; fail with its output when it exits non-zero."""
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, **kwargs)  # type: ignore[call-overload]
    if check and done.returncode != 0:
        fail(f"{' '.join(command)[:400]} exited with {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return str(done.stdout)


@contextmanager
def timed(what: str) -> Iterator[None]:
    start = time.monotonic()
    yield
    seconds = time.monotonic() - start
    TIMINGS.append((what, seconds))
    print(f"  {what}: {seconds:.1f} s", flush=True)


class Podman:
    """podman with its storage, run state and settings in one temporary folder, so nothing outlives the check."""

    def __init__(self, work: Path):
        conf = work / "containers.conf"
        conf.write_text(CONTAINERS_CONF)
        self.env = {**os.environ, "CONTAINERS_CONF": str(conf)}
        self.prefix = ["podman", "--root", str(work / "storage"), "--runroot", str(work / "run"), "--runtime", "runc"]

    def __call__(self, *args: str, check: bool = True, timeout: float = 900) -> str:
        return run([*self.prefix, *args], check=check, timeout=timeout, env=self.env)

    def status(self, *args: str) -> int:
        """Run podman and return its exit status (for commands whose failure is the answer)."""
        done = subprocess.run([*self.prefix, *args], capture_output=True, text=True, timeout=120, env=self.env)
        return done.returncode

    def logs(self, name: str) -> str:
        """What the container printed, standard output and standard error together."""
        done = subprocess.run([*self.prefix, "logs", name], capture_output=True, text=True, timeout=60, env=self.env)
        return done.stdout + done.stderr

    def inspect(self, name: str) -> dict[str, object]:
        return dict(json.loads(self("inspect", name))[0])

    def remove_everything(self) -> None:
        """Remove every container, volume and image in this storage (it holds only this check's)."""
        for args in (
            ["rm", "--all", "--force", "--time", "0"],
            ["volume", "prune", "--force"],
            ["rmi", "--all", "--force"],
        ):
            subprocess.run([*self.prefix, *args], capture_output=True, timeout=300, env=self.env)


def install_packages() -> None:
    missing = [package for command, package in DEBIAN_PACKAGES.items() if shutil.which(command) is None]
    if not missing:
        return
    print(f"== installing Debian's {' '.join(missing)}", flush=True)
    run(["apt-get", "update", "-qq"])
    run(
        ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing],
        env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
    )


def make_base(podman: Podman, work: Path, name: str) -> None:
    """A minimal Debian 12 with python3 and venv, made from Debian's packages, as a local image."""
    root = work / "base"
    run(["debootstrap", "--variant=minbase", f"--include={BASE_PACKAGES}", SUITE, str(root)], timeout=1500)
    # As Debian's slim images do: no package lists, downloaded packages, manuals or translations.
    for folder in (
        "var/cache/apt/archives",
        "var/lib/apt/lists",
        "usr/share/man",
        "usr/share/info",
        "usr/share/locale",
    ):
        for path in (root / folder).glob("*"):
            if path.is_file() and path.name != "lock":
                path.unlink()
            elif path.is_dir() and path.name != "partial":
                shutil.rmtree(path)
    tar = subprocess.Popen(["tar", "-C", str(root), "-c", "."], stdout=subprocess.PIPE)
    imported = subprocess.run(
        [*podman.prefix, "import", "-", name], stdin=tar.stdout, capture_output=True, text=True, env=podman.env
    )
    tar.wait()
    if tar.returncode != 0 or imported.returncode != 0:
        fail(f"podman import of the debootstrapped base failed:\n{imported.stderr[-3000:]}")
    shutil.rmtree(root)
    version = podman(
        "run", "--rm", "--network", "host", name, "python3", "-c", "import sys; print(sys.version_info[:2])"
    )
    if version.strip() != str(sys.version_info[:2]):
        fail(f"the base's Python is {version.strip()}, this one {sys.version_info[:2]}: the wheels would not fit")


def unmount_under(folder: Path) -> None:
    """Unmount what is still mounted under folder (debootstrap's /proc and /sys, when it was stopped midway)."""
    with open("/proc/mounts") as mounts:
        points = [line.split()[1] for line in mounts]
    for point in sorted((point for point in points if point.startswith(f"{folder}/")), reverse=True):
        subprocess.run(["umount", "--lazy", point], capture_output=True, timeout=60)


def make_wheelhouse(folder: Path, work: Path) -> None:
    """The project's dependencies (with the postgres extra) and its build backend, as wheels for this Python."""
    # From a copy of what the image is built from (.dockerignore), so that setuptools leaves no build/ or
    # *.egg-info in the checkout.
    source = work / "source"
    source.mkdir()
    for name in ("LICENSE", "README.md", "pyproject.toml"):
        shutil.copy(REPO / name, source / name)
    for name in ("referee", "static", "templates"):
        shutil.copytree(REPO / name, source / name, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--wheel-dir",
            str(folder),
            f"{source}[postgres]",
            "setuptools>=77",
        ]
    )
    shutil.rmtree(source)
    # The image builds its own wheel of the project from the source; only the dependencies come from here.
    for wheel in folder.glob("five_alive_referee-*.whl"):
        wheel.unlink()


def build_image(podman: Podman, base: str, image: str, wheels: Path) -> None:
    podman(
        "build",
        "--format", "docker",  # the OCI format has no HEALTHCHECK
        "--network", "host",
        "--build-arg", f"BASE={base}",
        "--build-arg", "PIP_OPTIONS=--no-index --find-links /mnt",
        "--volume", f"{wheels}:/mnt:ro",
        "--tag", image,
        "--file", str(REPO / "Containerfile"),
        str(REPO),
    )  # fmt: skip


def check_image(podman: Podman, image: str) -> None:
    """The image holds the installed package and its PostgreSQL driver, and neither the source nor pip."""
    config = podman.inspect(image)["Config"]
    assert isinstance(config, dict)
    if config.get("User") != "10001:10001" or config.get("StopSignal") not in ("SIGTERM", "15"):
        fail(
            f"the image should run as 10001:10001 and stop on SIGTERM: {config.get('User')}, {config.get('StopSignal')}"
        )
    healthcheck(podman, image)
    probe = (
        "import importlib.util as u, os; import psycopg, referee;"
        " print(psycopg.__version__, referee.__file__, u.find_spec('pip'), os.path.exists('/src'), os.listdir('/mnt'))"
    )
    found = podman("run", "--rm", "--network", "host", "--entrypoint", "/opt/referee/bin/python", image, "-c", probe)
    version, package, pip, source, mnt = found.split(maxsplit=4)
    if not package.startswith("/opt/referee/lib/") or pip != "None" or source != "False" or mnt.strip() != "[]":
        fail(f"the image should hold only the installed package: {found.strip()}")
    size = int(podman("image", "inspect", "--format", "{{.Size}}", image))
    print(f"  the image: psycopg {version}, {package}; no source, no pip; {size / 1e6:.0f} MB")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def request(port: int, method: str, path: str, body: object = None) -> tuple[int, bytes]:
    """One request to 127.0.0.1 (http.client: urllib would go through a proxy named in the environment)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def expect(port: int, method: str, path: str, status: int, text: str, body: object = None) -> bytes:
    got, content = request(port, method, path, body)
    if got != status or text.encode() not in content:
        fail(f"{method} {path} answered {got} (wanted {status} with {text!r}): {content[:300]!r}")
    return content


def start(podman: Podman, image: str, name: str, port: int, *options: str) -> None:
    """Start a container of the image on 127.0.0.1:port and wait until /healthz answers."""
    podman(
        "run", "--detach", "--name", name, "--network", "host",
        "--env", "REFEREE_HOST=127.0.0.1", "--env", f"REFEREE_PORT={port}",
        *options, image,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while True:
        try:
            if request(port, "GET", "/healthz")[0] == 200:
                return
        except OSError:
            pass
        state = podman.inspect(name)["State"]
        assert isinstance(state, dict)
        if not state.get("Running") or time.monotonic() > deadline:
            fail(f"{name} did not start (state {state.get('Status')}):\n{podman.logs(name)[-3000:]}")
        time.sleep(0.3)


def stop(podman: Podman, name: str) -> float:
    """`podman stop` the container: it must exit by itself with status 0, long before podman would kill it."""
    began = time.monotonic()
    podman("stop", "--time", str(STOP_TIMEOUT), name, timeout=STOP_TIMEOUT + 60)
    seconds = time.monotonic() - began
    state = podman.inspect(name)["State"]
    assert isinstance(state, dict)
    if state.get("ExitCode") != 0 or seconds >= STOP_TIMEOUT - 1:
        fail(
            f"{name} did not stop cleanly on SIGTERM: status {state.get('ExitCode')} after {seconds:.1f} s"
            f" (podman kills after {STOP_TIMEOUT} s, status 137):\n{podman.logs(name)[-3000:]}"
        )
    return seconds


def healthcheck(podman: Podman, image: str) -> dict[str, object]:
    """The image's HEALTHCHECK (podman shows it beside Config, docker inside it)."""
    found = podman.inspect(image)
    config = found["Config"]
    assert isinstance(config, dict)
    check = found.get("Healthcheck") or config.get("Healthcheck")
    if not isinstance(check, dict) or not check.get("Test"):
        fail("the image has no HEALTHCHECK (built without --format docker?)")
    assert isinstance(check, dict)
    return check


def check_healthcheck(podman: Podman, image: str, name: str, port: int) -> None:
    """The image's HEALTHCHECK passes on a running server and fails where no server answers."""
    if podman.status("healthcheck", "run", name) != 0:
        fail(f"podman healthcheck run {name} says unhealthy:\n{podman.logs(name)[-2000:]}")
    state = podman.inspect(name)["State"]
    assert isinstance(state, dict)
    health = state.get("Health") or state.get("Healthcheck") or {}
    assert isinstance(health, dict)
    if health.get("Status") != "healthy":
        fail(f"podman inspect {name} gives the health as {health.get('Status')!r}, not 'healthy'")
    command = healthcheck(podman, image)["Test"]
    assert isinstance(command, list) and command[0] == "CMD", command
    # The same command, told to look on a port where nothing listens, must say unhealthy.
    unreachable = str(free_port())
    if podman.status("exec", "--env", f"REFEREE_PORT={unreachable}", name, *command[1:]) == 0:
        fail("the HEALTHCHECK command passes even where no server answers")
    print(f"  HEALTHCHECK: healthy on port {port}, unhealthy where nothing answers")


def check_sqlite(podman: Podman, image: str) -> None:
    """A table made in one container is still there when a new container starts on the same volume."""
    port, volume = free_port(), "referee-check-data"
    with timed("start (SQLite in the volume), until /healthz answers"):
        start(podman, image, "referee-check-1", port, "--volume", f"{volume}:/data")
    uid = podman("exec", "referee-check-1", "id", "-u").strip()
    if uid == "0":
        fail("the server runs as root in the container")
    check_healthcheck(podman, image, "referee-check-1", port)
    created = json.loads(expect(port, "POST", "/api/v1/tables", 201, '"code"', {"players": ["Ann", "Bob"]}))
    code = created["code"]
    expect(port, "GET", f"/t/{code}", 200, "Bob")
    expect(port, "GET", "/readyz", 200, "ready")
    listing = podman("exec", "referee-check-1", "ls", "-ln", "/data")
    if "referee.sqlite3" not in listing or "secret_key" not in listing:
        fail(f"the database and the key are not in /data:\n{listing}")
    if "Data (database and cookie key): /data" not in podman.logs("referee-check-1"):
        fail("the server did not print /data as its data folder")
    print(f"  user {uid}; table {code[:2]}… made through the API, its page answers; data in the volume")
    first = stop(podman, "referee-check-1")
    print(f"  podman stop: exit status 0 after {first:.1f} s")
    podman("rm", "referee-check-1")

    port = free_port()
    with timed("start again on the same volume"):
        start(podman, image, "referee-check-2", port, "--volume", f"{volume}:/data")
    expect(port, "GET", f"/api/v1/tables/{code}", 200, f'"code":"{code}"')
    expect(port, "GET", f"/t/{code}", 200, "Ann")
    second = stop(podman, "referee-check-2")
    print(f"  the table survived in the volume; podman stop: exit status 0 after {second:.1f} s")
    podman("rm", "referee-check-2")


class Postgres:
    """A throwaway PostgreSQL from Debian's packages, on 127.0.0.1 with a password, as a hosted one would be."""

    def __init__(self, folder: Path):
        initdb = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
        if not initdb:
            fail("PostgreSQL's initdb is missing: apt-get install postgresql (scripts/run-tests does)")
        self.bin, self.folder, self.port = initdb[-1].parent, folder, free_port()
        # initdb refuses to run as root: the cluster belongs to Debian's postgres user.
        self.as_postgres = ["runuser", "-u", "postgres", "--"]
        self.password = "container-check-secret"
        self.url = f"postgresql://referee:{self.password}@127.0.0.1:{self.port}/postgres"

    def pg(self, program: str, *args: str, check: bool = True) -> str:
        return run([*self.as_postgres, str(self.bin / program), *args], check=check)

    def start(self) -> None:
        self.folder.mkdir()
        (self.folder / "pw").write_text(self.password)
        for path in (self.folder, self.folder / "pw"):
            shutil.chown(path, "postgres")
        data = str(self.folder / "data")
        self.pg("initdb", "-D", data, "-U", "referee", "--pwfile", str(self.folder / "pw"), "-E", "UTF8",
                "--auth-host=scram-sha-256", "--auth-local=trust")  # fmt: skip
        options = f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories='{self.folder}'"
        self.pg("pg_ctl", "-D", data, "-l", str(self.folder / "log"), "-o", options + " -c fsync=off", "-w", "start")

    def query(self, sql: str) -> str:
        """One value, asked over the cluster's Unix socket."""
        socket_args = ["-h", str(self.folder), "-p", str(self.port), "-U", "referee", "-d", "postgres"]
        return self.pg("psql", *socket_args, "-Atc", sql).strip()

    def stop(self) -> None:
        self.pg("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "stop", check=False)


def check_postgres(podman: Podman, image: str, work: Path) -> None:
    """With DATABASE_URL the image keeps its tables in PostgreSQL (psycopg is in it), not in the volume."""
    # The postgres user must reach its folder inside this root-owned one.
    work.chmod(0o711)
    database = Postgres(work / "postgres")
    database.start()
    try:
        port = free_port()
        with timed("start on PostgreSQL, until /healthz answers"):
            start(podman, image, "referee-check-pg", port, "--env", f"DATABASE_URL={database.url}")
        created = json.loads(expect(port, "POST", "/api/v1/tables", 201, '"code"', {"players": ["Ann", "Bob"]}))
        code = created["code"]
        expect(port, "GET", f"/t/{code}", 200, "Ann")
        expect(port, "GET", "/readyz", 200, "ready")
        rows = database.query(f"SELECT count(*) FROM tables WHERE code = '{code}'")
        if rows != "1":
            fail(f"the table made through the API is not in PostgreSQL: {rows!r}")
        if "referee.sqlite3" in podman("exec", "referee-check-pg", "ls", "/data"):
            fail("on PostgreSQL the server still made a SQLite file in /data")
        seconds = stop(podman, "referee-check-pg")
        print(f"  the table is in PostgreSQL; podman stop: exit status 0 after {seconds:.1f} s")
        podman("rm", "referee-check-pg")
    finally:
        database.stop()


def check_compose() -> None:
    """compose.yaml runs this image beside PostgreSQL, with the port, the volume and DATABASE_URL that fit it."""
    compose = yaml.safe_load((REPO / "compose.yaml").read_text())
    services = compose["services"]
    referee, database = services["referee"], services["db"]
    problems = []
    if referee["build"].get("dockerfile") != "Containerfile":
        problems.append("the referee service should build Containerfile")
    if not any(str(volume).endswith(":/data") for volume in referee["volumes"]):
        problems.append("the referee service should keep /data in a volume")
    if "@db:" not in referee["environment"]["DATABASE_URL"] and "@db/" not in referee["environment"]["DATABASE_URL"]:
        problems.append("DATABASE_URL should name the db service")
    if referee["depends_on"]["db"]["condition"] != "service_healthy" or "healthcheck" not in database:
        problems.append("the referee should wait for a healthy db")
    if not any(str(port).endswith(":8000") for port in referee["ports"]):
        problems.append("the referee service should publish port 8000")
    if problems:
        fail("compose.yaml: " + "; ".join(problems))
    print("  compose.yaml: builds Containerfile, /data in a volume, DATABASE_URL to a healthy db, port 8000")


def main() -> None:
    if os.geteuid() != 0:
        fail("run as root: it installs Debian's podman and builds with podman's rootful storage")
    # A stopped run (SIGTERM) still removes its containers, images and folder, as any failure does.
    signal.signal(signal.SIGTERM, lambda number, frame: fail("stopped by SIGTERM"))
    began = time.monotonic()
    with timed("Debian's podman, runc and debootstrap"):
        install_packages()
    work = Path(tempfile.mkdtemp(prefix="referee-container-"))
    podman = Podman(work)
    base, image = "localhost/referee-check-base", "localhost/referee-check"
    try:
        with timed(f"base image (debootstrap {SUITE} with {BASE_PACKAGES}, podman import)"):
            make_base(podman, work, base)
        with timed("wheels of the dependencies, on this machine"):
            make_wheelhouse(work / "wheels", work)
        with timed("podman build"):
            build_image(podman, base, image, work / "wheels")
        check_image(podman, image)
        check_sqlite(podman, image)
        check_postgres(podman, image, work)
        check_compose()
    finally:
        podman.remove_everything()
        unmount_under(work)
        shutil.rmtree(work, ignore_errors=True)
    took = time.monotonic() - began
    print(f"check-container: the image builds, serves, stops cleanly and keeps its data ({took:.0f} s in all)")


if __name__ == "__main__":
    main()
