"""Check the files in contrib/ with the programs that read them; fail loudly on any complaint.

- contrib/five-alive-referee.service: `systemd-analyze verify` (systemd need not be running). It runs against a
  throwaway root holding this machine's unit folder and a stand-in for the ExecStart program, so that the venv
  path the unit names need not exist here; any warning counts as a failure (verify itself only fails on errors).
- contrib/nginx.conf: `nginx -t` on the snippet inside a minimal nginx.conf, with a throwaway certificate in place
  of the Let's Encrypt one; Debian 12's nginx (1.22), so the snippet works with the nginx most servers have.
- contrib/Caddyfile: `caddy validate`; Debian 12's caddy (2.6).

nginx and caddy are Debian's packages, downloaded and unpacked into a temporary folder rather than installed:
installing them would start their servers on ports 80 and 443 of this machine. Run by scripts/run-tests.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CONTRIB = REPO / "contrib"
SYSTEMD_UNITS = Path("/lib/systemd/system")


def fail(message: str) -> None:
    print(f"check-contrib: FAILED: {message}", file=sys.stderr, flush=True)
    raise SystemExit(1)


def run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, timeout=300, **kwargs)  # type: ignore[call-overload, no-any-return]


def check_unit(work: Path) -> None:
    unit = CONTRIB / "five-alive-referee.service"
    if shutil.which("systemd-analyze") is None:
        fail("systemd-analyze is missing: apt-get install systemd (scripts/run-tests does)")
    root = work / "root"
    shutil.copytree(SYSTEMD_UNITS, root / "usr/lib/systemd/system", symlinks=True)
    (root / "etc/systemd/system").mkdir(parents=True)
    shutil.copy(unit, root / "etc/systemd/system" / unit.name)
    program = re.search(r"^ExecStart=(\S+)", unit.read_text(), re.MULTILINE)
    if program is None:
        fail(f"{unit.name} has no ExecStart")
    assert program is not None
    stand_in = root / program.group(1).lstrip("/")
    stand_in.parent.mkdir(parents=True)
    stand_in.write_text("#!/bin/sh\n")
    stand_in.chmod(0o755)
    done = run(["systemd-analyze", "verify", f"--root={root}", unit.name])
    said = (done.stdout + done.stderr).strip()
    if done.returncode != 0 or said:
        fail(f"systemd-analyze verify {unit.name} (exit status {done.returncode}):\n{said}")
    print(f"  contrib/{unit.name}: systemd-analyze verify says nothing")


def unpack(packages: list[str], work: Path) -> Path:
    """Debian's packages unpacked (not installed) under work/unpacked; returns that folder."""
    debs, root = work / "debs", work / "unpacked"
    debs.mkdir()
    for attempt in range(2):
        done = run(["apt-get", "download", "-q", *packages], cwd=debs)
        if done.returncode == 0:
            break
        if attempt == 0:
            # A new machine may have no package lists yet.
            run(["apt-get", "update", "-qq"])
    else:
        fail(f"apt-get download {' '.join(packages)}: {done.stderr.strip()[-1000:]}")
    for deb in debs.glob("*.deb"):
        if run(["dpkg-deb", "-x", str(deb), str(root)]).returncode != 0:
            fail(f"dpkg-deb -x {deb.name} failed")
    return root


def check_nginx(unpacked: Path, work: Path) -> None:
    site = work / "nginx"
    site.mkdir()
    certificate = run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=referee.example.org",
         "-keyout", str(site / "privkey.pem"), "-out", str(site / "fullchain.pem")]
    )  # fmt: skip
    if certificate.returncode != 0:
        fail(f"openssl could not make a throwaway certificate: {certificate.stderr[-500:]}")
    text = (CONTRIB / "nginx.conf").read_text()
    real = "/etc/letsencrypt/live/referee.example.org/"
    if text.count(real) != 2:
        fail(f"contrib/nginx.conf should name its certificate and key in {real}")
    (site / "site.conf").write_text(text.replace(real, f"{site}/"))
    temp_paths = "".join(f"    {kind}_temp_path {site}/{kind};\n" for kind in ("proxy", "fastcgi", "uwsgi", "scgi"))
    (site / "nginx.conf").write_text(
        f"pid {site}/nginx.pid;\nerror_log stderr;\nevents {{}}\nhttp {{\n    access_log off;\n"
        f"    client_body_temp_path {site}/body;\n{temp_paths}    include {site}/site.conf;\n}}\n"
    )
    done = run([str(unpacked / "usr/sbin/nginx"), "-t", "-p", str(site), "-c", str(site / "nginx.conf")])
    said = done.stdout + done.stderr
    if done.returncode != 0 or "[warn]" in said or "[emerg]" in said:
        fail(f"nginx -t on contrib/nginx.conf (exit status {done.returncode}):\n{said.strip()}")
    version = run([str(unpacked / "usr/sbin/nginx"), "-v"]).stderr.strip()
    print(f"  contrib/nginx.conf: nginx -t is successful ({version})")


def check_caddy(unpacked: Path, work: Path) -> None:
    home = work / "caddy"
    home.mkdir()
    # Caddy keeps certificates and its settings under these; none of them here.
    env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home), "XDG_CONFIG_HOME": str(home)}
    caddy = str(unpacked / "usr/bin/caddy")
    done = run([caddy, "validate", "--config", str(CONTRIB / "Caddyfile"), "--adapter", "caddyfile"], env=env)
    if done.returncode != 0 or "Valid configuration" not in done.stdout:
        fail(
            f"caddy validate contrib/Caddyfile (exit status {done.returncode}):\n{(done.stdout + done.stderr)[-3000:]}"
        )
    formatted = run([caddy, "fmt", str(CONTRIB / "Caddyfile")], env=env)
    if formatted.returncode != 0 or formatted.stdout != (CONTRIB / "Caddyfile").read_text():
        fail("contrib/Caddyfile is not as `caddy fmt` writes it (run caddy fmt --overwrite contrib/Caddyfile)")
    version = run([caddy, "version"], env=env).stdout.split()[0]
    print(f"  contrib/Caddyfile: caddy validate says valid, caddy fmt leaves it as it is (caddy {version})")


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="referee-contrib-"))
    try:
        check_unit(work)
        unpacked = unpack(["nginx", "caddy"], work)
        check_nginx(unpacked, work)
        check_caddy(unpacked, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("check-contrib: the systemd unit, the nginx and the Caddy configuration are valid")


if __name__ == "__main__":
    main()
