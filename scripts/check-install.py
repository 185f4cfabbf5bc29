"""Build the wheel and the sdist, install the wheel in a fresh venv outside the checkout, and use it for real.

What a self-hoster does: `pip install` the wheel, run `referee serve` from some other folder, open the pages.
`python -m build` makes the sdist first and the wheel from the unpacked sdist, so this also proves that the sdist
carries everything the wheel needs. Run by scripts/run-tests (CI); exits non-zero with the reason on failure.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import stat
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
WHEEL_MUST_HOLD = (
    "referee/templates/base.html",
    "referee/templates/home.html",
    "referee/static/app.css",
    "referee/static/js/common.js",
    "referee/static/vendor/htmx-2.0.11.min.js",
    "referee/static/vendor/htmx-2.0.11.LICENSE",
    "referee/static/vendor/htmx-ext-sse-2.2.4.min.js",
    "referee/static/vendor/htmx-ext-sse-2.2.4.LICENSE",
    "referee/rulebook/entries.json",
    # The rules panel's words in French and German (referee/rulebook/languages.py reads them from the package).
    *(f"referee/translations/{language}/rulebook.json" for language in ("fr", "de")),
)
# What users never run stays out of the wheel: the test harness, the benchmark, the rules search's measuring tools.
WHEEL_MUST_NOT_HOLD = re.compile(r"^tools/|(^|/)(harness|pgcluster|conftest)\.py$|(^|/)bench(/|\.py$)|^tests/")


def fail(message: str) -> None:
    print(f"check-install: FAILED: {message}", file=sys.stderr)
    raise SystemExit(1)


def run(command: list[str], **kwargs: object) -> str:
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)  # type: ignore[call-overload]
    if done.returncode != 0:
        fail(f"{' '.join(command)} exited with {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return str(done.stdout) + str(done.stderr)


def build(out: Path) -> tuple[Path, Path]:
    log = run([sys.executable, "-m", "build", "--outdir", str(out), str(REPO)])
    for warning in ("Deprecat", "SetuptoolsWarning"):
        if warning in log:
            line = next(line for line in log.splitlines() if warning in line)
            fail(f"the build warns: {line.strip()}")
    wheel, sdist = next(out.glob("*.whl")), next(out.glob("*.tar.gz"))
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = [name for name in WHEEL_MUST_HOLD if name not in names]
    extra = sorted(name for name in names if WHEEL_MUST_NOT_HOLD.search(name))
    if extra:
        fail(f"the wheel carries what users never run: {', '.join(extra[:5])}")
    if missing or not any(name.endswith(".dist-info/licenses/LICENSE") for name in names):
        fail(f"the wheel lacks {missing or 'LICENSE'}")
    with tarfile.open(sdist) as archive:
        members = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for name in ("LICENSE", "pyproject.toml", *WHEEL_MUST_HOLD):
        if name not in members:
            fail(f"the sdist lacks {name}")
    print(f"built {wheel.name} ({wheel.stat().st_size // 1024} KB) and {sdist.name}, the wheel from the sdist")
    return wheel, sdist


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def get(url: str, body: dict[str, object] | None = None, language: str = "en") -> tuple[int, bytes]:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", "Accept-Language": language}
    request = urllib.request.Request(url, data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def expect(url: str, status: int, text: str, body: dict[str, object] | None = None, language: str = "en") -> bytes:
    got, content = get(url, body, language)
    if got != status or text.encode() not in content:
        fail(f"{url} answered {got} (wanted {status} with {text!r}): {content[:300]!r}")
    print(f"  /{url.split('/', 3)[3]}: {got}")
    return content


def serve_and_check(venv: Path, work: Path) -> None:
    home, elsewhere = work / "home", work / "elsewhere"
    home.mkdir()
    elsewhere.mkdir()
    env = {key: value for key, value in os.environ.items() if not key.startswith("REFEREE_")}
    env.pop("DATABASE_URL", None)
    env.pop("XDG_DATA_HOME", None)
    env.update(HOME=str(home), PYTHONUNBUFFERED="1")
    run([str(venv / "bin" / "python"), "-m", "referee", "serve", "--help"], cwd=elsewhere, env=env)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    command = [str(venv / "bin" / "referee"), "serve", "--host", "127.0.0.1", "--port", str(port)]
    out = (work / "serve.log").open("w")
    server = subprocess.Popen(command, cwd=elsewhere, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if get(f"{base}/healthz")[0] == 200:
                    break
            except OSError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                fail(f"the installed server did not start:\n{(work / 'serve.log').read_text()[-3000:]}")
            time.sleep(0.2)
        check_pages(base)
        check_minified(base, venv)
    finally:
        server.terminate()
        server.wait(timeout=20)
        out.close()
    data = home / ".local" / "share" / "five-alive-referee"
    log = (work / "serve.log").read_text()
    if f"Data (database and cookie key): {data}" not in log:
        fail(f"the server did not print its data folder {data}:\n{log[:1500]}")
    database = data / "referee.sqlite3"
    if not database.is_file() or stat.S_IMODE(database.stat().st_mode) != 0o600:
        fail(f"no database readable by its owner only at {database}")
    if "referee.access: GET / 200" not in log:
        fail(f"no access log line for the home page:\n{log[-1500:]}")
    print(f"  data in {data} (printed at start-up), database 0600")


def check_pages(base: str) -> None:
    expect(f"{base}/", 200, "5 Alive Referee")
    created = json.loads(expect(f"{base}/api/v1/tables", 201, '"token"', {"players": ["Ann", "Bob", "Cy"]}))
    code = created["code"]
    expect(f"{base}/t/{code}", 200, "Ann")
    expect(f"{base}/api/v1/tables/{code}", 200, f'"code":"{code}"')
    expect(f"{base}/rules", 200, "Rules")
    # The rules page of a French and a German phone reads the package's rulebook.json of each language.
    for language in ("fr", "de"):
        expect(f"{base}/rules?q=bombe", 200, f'<html lang="{language}"', language=language)
    expect(f"{base}/static/vendor/htmx-2.0.11.min.js", 200, "htmx")
    expect(f"{base}/static/app.css", 200, "")
    expect(f"{base}/static/vendor/htmx-2.0.11.LICENSE", 200, "")
    expect(f"{base}/static/icons/icon-512.png", 200, "PNG")
    expect(f"{base}/manifest.webmanifest", 200, '"standalone"')
    expect(f"{base}/sw.js", 200, "offline.html")
    expect(f"{base}/readyz", 200, "ready")


def check_minified(base: str, venv: Path) -> None:
    """Our own CSS and JS go out without the comments the installed files keep; vendored files byte for byte."""
    package = next(venv.glob("lib/python*/site-packages/referee"))
    for name in ("app.css", "app.js", "vendor/htmx-2.0.11.min.js"):
        # app.js is the files of static/js/ joined (referee/web/assets.py, BUNDLES): no file of that name is installed.
        parts = sorted((package / "static" / "js").glob("*.js")) if name == "app.js" else [package / "static" / name]
        installed = b"\n".join(part.read_bytes() for part in parts)
        served = expect(f"{base}/static/{name}", 200, "")
        if name.startswith("vendor/"):
            if served != installed:
                fail(f"/static/{name} is not the vendored file byte for byte")
        elif b"/*" not in installed or b"/*" in served or len(served) >= len(installed) * 0.9:
            fail(f"/static/{name} is not served minified: {len(served)} bytes, {len(installed)} installed")
    print("  our CSS and JS minified, the vendored htmx byte for byte")


# The dependencies that ship optional C speed-ups. A Raspberry Pi OS (32-bit) or Termux box may find no binary wheel
# for them and no compiler either: pip then installs their pure-Python code, and the referee must work the same.
WITH_SPEEDUPS = {"markupsafe": "markupsafe._speedups", "rcssmin": "_rcssmin", "rjsmin": "_rjsmin"}


def install_without_a_compiler(wheel: Path, venv: Path) -> None:
    """Install the wheel as a machine with no compiler and no binary wheels for WITH_SPEEDUPS would."""
    run([sys.executable, "-m", "venv", str(venv)])
    env = {**os.environ, "CC": "false", "CXX": "false", "LDSHARED": "false"}
    no_binary = ",".join(WITH_SPEEDUPS)
    run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-binary", no_binary, str(wheel)], env=env)
    probe = "import importlib.util, sys; sys.exit(any(importlib.util.find_spec(m) for m in sys.argv[1:]))"
    done = subprocess.run([str(venv / "bin" / "python"), "-c", probe, *WITH_SPEEDUPS.values()])
    if done.returncode != 0:
        fail("a C speed-up was built although no compiler was allowed: the check did not test the pure-Python path")
    print(f"installed the wheel with no compiler and no binary wheels for {no_binary}: their pure-Python code")


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="referee-install-"))
    try:
        wheel, _sdist = build(work / "dist")
        venv = work / "venv"
        run([sys.executable, "-m", "venv", str(venv)])
        run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)])
        print(f"installed the wheel into {venv}; serving from {work / 'elsewhere'}")
        serve_and_check(venv, work)
        plain = work / "no-compiler"
        plain.mkdir()
        install_without_a_compiler(wheel, plain / "venv")
        serve_and_check(plain / "venv", plain)
        print("check-install: the installed wheel works, with and without the C speed-ups")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
